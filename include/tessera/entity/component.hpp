// Component traits: how the storage of a component type deletes elements and how large its pages are, how clone
// and prototypes copy an element, and which of its members hold identifiers.
#ifndef TESSERA_ENTITY_COMPONENT_HPP
#define TESSERA_ENTITY_COMPONENT_HPP

#include "../config/config.hpp"
#include "../config/std_parts.hpp"
#include "fwd.hpp"
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>

namespace tessera {

/// How clone, prototypes and spawn copy a component (component_traits<T>::clone).
enum class clone_policy : std::uint8_t {
    /// Copy-construct the element. A type that cannot be copied makes clone fail with a message naming it.
    copy,
    /// Leave the component out: the copy does not get one.
    skip,
    /// Build the copy with a function: component_traits<T>::clone_element(const T &) when the traits have one,
    /// T::clone_element(const T &) otherwise.
    custom
};

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

template<typename Type>
consteval clone_policy default_clone_policy() noexcept {
    if constexpr (std::is_void_v<Type>) {
        return clone_policy::copy;
    } else if constexpr (requires {
                             { Type::clone } -> std::convertible_to<clone_policy>;
                         }) {
        return static_cast<clone_policy>(Type::clone);
    } else if constexpr (requires(const Type &elem) {
                             { Type::clone_element(elem) } -> std::convertible_to<Type>;
                         }) {
        return clone_policy::custom;
    } else {
        return clone_policy::copy;
    }
}

template<typename Type>
consteval auto default_entity_members() noexcept {
    if constexpr (requires { Type::entity_members; }) {
        return Type::entity_members;
    } else {
        return std::tuple<>{};
    }
}

template<typename Type>
consteval bool default_track_changes() noexcept {
    if constexpr (requires { Type::track_changes; }) {
        return static_cast<bool>(Type::track_changes);
    } else {
        return false;
    }
}

// The members added to component_traits after the manual's two (in_place_delete, page_size) are read through these,
// with Type's own defaults when a user's specialization, written with only the manual's members, lacks them: such
// a specialization needs neither these members nor element_type.

/// Whether a traits type asks for change detection; specializations written before the member existed do not.
template<typename Traits, typename Type>
inline constexpr bool track_changes_of = [] {
    if constexpr (requires { Traits::track_changes; }) {
        return static_cast<bool>(Traits::track_changes);
    } else {
        return default_track_changes<Type>();
    }
}();

/// The clone policy of a traits type; specializations written before the member existed get the default.
template<typename Traits, typename Type>
inline constexpr clone_policy clone_policy_of = [] {
    if constexpr (requires {
                      { Traits::clone } -> std::convertible_to<clone_policy>;
                  }) {
        return static_cast<clone_policy>(Traits::clone);
    } else {
        return default_clone_policy<Type>();
    }
}();

/// The entity members of a traits type (a tuple of member pointers); empty for specializations without them.
template<typename Traits, typename Type>
inline constexpr auto entity_members_of = [] {
    if constexpr (requires { Traits::entity_members; }) {
        return Traits::entity_members;
    } else {
        return default_entity_members<Type>();
    }
}();

/// The copy of an element that clone makes under the policy of Traits (copy or custom).
template<typename Traits, typename Type>
[[nodiscard]] Type clone_copy(const Type &elem) {
    if constexpr (clone_policy_of<Traits, Type> == clone_policy::custom) {
        if constexpr (requires { Traits::clone_element(elem); }) {
            return Traits::clone_element(elem);
        } else {
            static_assert(
                requires { Type::clone_element(elem); },
                "clone_policy::custom needs a static clone_element(const T &) returning the copy, in the "
                "type or in its component_traits");
            return Type::clone_element(elem);
        }
    } else {
        return elem;
    }
}

/// An input iterator that yields a fresh copy of one element at each step, for the insert overload of storages
/// that takes an iterator to the elements: custom copies are made one per new entity.
template<typename Traits, typename Type>
class clone_copy_iterator final {
public:
    using value_type = Type;
    using reference = Type;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::input_iterator_tag;

    constexpr clone_copy_iterator() noexcept = default;

    explicit constexpr clone_copy_iterator(const Type &elem) noexcept : source{&elem} {}

    constexpr clone_copy_iterator &operator++() noexcept { return *this; }

    constexpr clone_copy_iterator operator++(int) noexcept { return *this; }

    [[nodiscard]] Type operator*() const { return clone_copy<Traits>(*source); }

private:
    const Type *source{};
};

} // namespace internal

/// How the storage of Type behaves, how clone copies it and where it keeps identifiers. Customize it with static
/// members in the type (in_place_delete, page_size, clone, clone_element, entity_members, track_changes) or by
/// specializing this template, constrained specializations included; members a specialization leaves out take their
/// defaults.
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
    /// How clone, prototypes and spawn copy an element: Type::clone if declared, clone_policy::custom if Type has
    /// a static clone_element(const Type &), clone_policy::copy otherwise.
    static constexpr clone_policy clone = internal::default_clone_policy<Type>();
    /// The members that hold identifiers, as a tuple of member pointers (Type::entity_members, or none): a
    /// command buffer gives the provisional identifiers found there their real value when it applies. A member
    /// may be an identifier, a range of them, or a type that lists entity_members itself.
    static constexpr auto entity_members = internal::default_entity_members<Type>();
    /// True if the storage keeps, per element, the tick it was added and last changed (change_tracking.hpp):
    /// Type::track_changes if declared, false otherwise. Untracked storages pay nothing for the feature.
    static constexpr bool track_changes = internal::default_track_changes<Type>();

    static_assert(page_size == 0u || (page_size & (page_size - 1u)) == 0u,
                  "component_traits: page_size must be 0 or a power of two");
};

} // namespace tessera

#endif
