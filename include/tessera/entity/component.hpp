// Component traits: how the storage of a component type deletes elements and how large its pages are.
#ifndef TESSERA_ENTITY_COMPONENT_HPP
#define TESSERA_ENTITY_COMPONENT_HPP

#include "../config/config.hpp"
#include "fwd.hpp"
#include <cstddef>
#include <type_traits>

namespace tessera {

namespace internal {

template<typename Type>
consteval bool default_in_place_delete() noexcept {
    if constexpr (std::is_void_v<Type>) {
        return false;
    } else if constexpr (requires { Type::in_place_delete; }) {
        return static_cast<bool>(Type::in_place_delete) ||
               !(std::is_move_constructible_v<Type> && std::is_move_assignable_v<Type>);
    } else {
        // Pinned types cannot be moved into a hole, so they can only be deleted where they are.
        return !(std::is_move_constructible_v<Type> && std::is_move_assignable_v<Type>);
    }
}

template<typename Type>
consteval std::size_t default_page_size() noexcept {
    if constexpr (std::is_void_v<Type>) {
        return 0u;
    } else if constexpr (requires { Type::page_size; }) {
        return static_cast<std::size_t>(Type::page_size);
    } else {
#ifdef TESSERA_NO_ETO
        return TESSERA_PACKED_PAGE;
#else
        return std::is_empty_v<Type> ? 0u : TESSERA_PACKED_PAGE;
#endif
    }
}

} // namespace internal

/// How the storage of Type behaves. Customize it with static members in the type (in_place_delete, page_size)
/// or by specializing this template, constrained specializations included.
template<typename Type, typename Entity>
struct component_traits {
    static_assert(std::is_same_v<std::remove_cvref_t<Type>, Type>,
                  "component_traits: use the element type without const, volatile or references");

    /// The element type.
    using element_type = Type;
    /// The identifier type.
    using entity_type = Entity;

    /// True if removing an element leaves a hole instead of moving the last element into it.
    static constexpr bool in_place_delete = internal::default_in_place_delete<Type>();
    /// Elements per page of the packed array; 0 means the storage keeps no instances.
    static constexpr std::size_t page_size = internal::default_page_size<Type>();

    static_assert(page_size == 0u || (page_size & (page_size - 1u)) == 0u,
                  "component_traits: page_size must be 0 or a power of two");
};

} // namespace tessera

#endif
