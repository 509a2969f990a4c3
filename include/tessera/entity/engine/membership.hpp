// What a walk (engine/block_walk.hpp) knows of a storage type at compile time, and which of its positions count as
// present: the identifiers in use of a swap-only set, the enabled ones of a swap-and-pop set (sparse_set.hpp),
// every position of an in-place set; a view may also count disabled components as present (disabled_mode).
#ifndef TESSERA_ENTITY_ENGINE_MEMBERSHIP_HPP
#define TESSERA_ENTITY_ENGINE_MEMBERSHIP_HPP

#include "../../config/config.hpp"
#include "../component.hpp"
#include "../fwd.hpp"
#include "../sparse_set.hpp"
#include <concepts>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace tessera::internal {

// ---------------------------------------------------------------------------------------------------------------
// What a storage type tells the walk at compile time.

/// The deletion policy a storage type declares, or -1 when it is only known at run time (plain sparse sets).
template<typename Type>
[[nodiscard]] consteval int walk_static_policy() noexcept {
    if constexpr (requires { Type::storage_policy; }) {
        return static_cast<int>(Type::storage_policy);
    } else {
        return -1;
    }
}

/// True if the storage type keeps instances that walks hand out.
template<typename Type>
[[nodiscard]] consteval bool walk_has_instances() noexcept {
    if constexpr (requires { typename Type::value_type; }) {
        return !std::is_void_v<typename Type::value_type>;
    } else {
        return false;
    }
}

/// True if the elements of the storage type sit in pages reached through raw() by position (it is a basic_storage,
/// or derives from one). Other storages with instances hand out elements through get(entity).
template<typename Type>
concept walk_paged = walk_has_instances<Type>() && requires {
    typename Type::entity_type;
    typename Type::allocator_type;
} && std::derived_from<std::remove_const_t<Type>, basic_storage<typename Type::value_type, typename Type::entity_type,
                                                                typename Type::allocator_type>>;

/// What the walk knows of a storage type.
template<typename Type>
struct walk_traits {
    /// The storage may have holes (in-place deletion), now or depending on run-time state.
    static constexpr bool holes =
        walk_static_policy<Type>() < 0 || walk_static_policy<Type>() == static_cast<int>(deletion_policy::in_place);
    /// The storage may keep released identifiers after the ones in use (swap-only: the entity storage).
    static constexpr bool released =
        walk_static_policy<Type>() < 0 || walk_static_policy<Type>() == static_cast<int>(deletion_policy::swap_only);
    /// The walk hands out elements of this storage.
    static constexpr bool instances = walk_has_instances<Type>();
    /// Elements per page, 0 for storages without pages.
    static constexpr std::size_t page = [] {
        if constexpr (walk_paged<Type>) {
            return component_traits<typename Type::value_type, typename Type::entity_type>::page_size;
        } else {
            return std::size_t{};
        }
    }();
};

/// Pointer to an element of a paged storage type (const for const storages), or std::nullptr_t for the others.
template<typename Type>
struct walk_pointer {
    /// The pointer type.
    using type = std::nullptr_t;
};

/// Paged storages.
template<walk_paged Type>
struct walk_pointer<Type> {
    /// The pointer type.
    using type = std::remove_reference_t<decltype(std::declval<Type &>().raw()[0u][0u])> *;
};

// ---------------------------------------------------------------------------------------------------------------
// Positions in use and membership.

/// Position returned for an identifier that a storage does not count as present.
inline constexpr std::size_t walk_npos = static_cast<std::size_t>(-1);

/// basic_sparse_set::in_use(), which a storage may hide behind a member of the same name.
template<typename Entity, typename Allocator>
[[nodiscard]] TESSERA_FORCE_INLINE std::size_t
walk_in_use_count(const basic_sparse_set<Entity, Allocator> &set) noexcept {
    return set.in_use();
}

/// Number of disabled identifiers at the back of a swap-and-pop set (sparse_set.hpp).
template<typename Entity, typename Allocator>
[[nodiscard]] TESSERA_FORCE_INLINE std::size_t
walk_disabled_count(const basic_sparse_set<Entity, Allocator> &set) noexcept {
    return set.disabled_size();
}

/// Number of positions a walk led by `pool` visits: the identifiers in use of a swap-only set, the enabled ones of
/// a swap-and-pop set, every position (holes included) of an in-place set.
template<typename Type>
[[nodiscard]] TESSERA_FORCE_INLINE std::size_t walk_count(const Type &pool) noexcept {
    if constexpr (walk_traits<Type>::released) {
        return walk_in_use_count(pool);
    } else if constexpr (walk_traits<Type>::holes) {
        return pool.size();
    } else {
        // the policy is known: no dispatch on it, as in_use() would do
        return pool.size() - walk_disabled_count(pool);
    }
}

/// `pos` if the storage counts the identifier found there as present (swap-only storages: in use; swap-and-pop
/// storages: enabled), walk_npos otherwise.
template<typename Type>
[[nodiscard]] TESSERA_FORCE_INLINE std::size_t walk_in_use(const Type &pool, const std::size_t pos) noexcept {
    if constexpr (walk_traits<Type>::holes && !walk_traits<Type>::released) {
        return pos;
    } else {
        // walk_npos is above any count
        return pos < walk_count(pool) ? pos : walk_npos;
    }
}

/// Number of positions that hold an element, disabled ones included: the identifiers in use of a swap-only set,
/// every position of the others.
template<typename Type>
[[nodiscard]] TESSERA_FORCE_INLINE std::size_t walk_present_count(const Type &pool) noexcept {
    if constexpr (walk_static_policy<Type>() < 0) {
        return pool.policy() == deletion_policy::swap_only ? walk_in_use_count(pool) : pool.size();
    } else if constexpr (walk_traits<Type>::released) {
        return walk_in_use_count(pool);
    } else {
        return pool.size();
    }
}

/// The end of the positions counted as present under `mode`: walk_count, or walk_present_count when disabled
/// elements count.
template<typename Type>
[[nodiscard]] TESSERA_FORCE_INLINE std::size_t walk_reach(const Type &pool, const disabled_mode mode) noexcept {
    return mode == disabled_mode::skip ? walk_count(pool) : walk_present_count(pool);
}

/// walk_in_use, with disabled elements counted as present unless `mode` skips them.
template<typename Type>
[[nodiscard]] TESSERA_FORCE_INLINE std::size_t walk_in_use(const Type &pool, const std::size_t pos,
                                                           const disabled_mode mode) noexcept {
    if constexpr (walk_traits<Type>::holes && !walk_traits<Type>::released) {
        return pos;
    } else {
        // the mode is read only past the enabled elements: a hit costs what it costs without modes
        return (pos < walk_count(pool) || (mode != disabled_mode::skip && pos < walk_present_count(pool))) ? pos
                                                                                                           : walk_npos;
    }
}

/// The position of an identifier found through the sparse array, or walk_npos.
template<typename Type, typename Entity>
[[nodiscard]] TESSERA_FORCE_INLINE std::size_t walk_lookup(const Type &pool, const Entity entt) {
    return sparse_access::position(pool, entt);
}

/// True if the storage counts the identifier as present (for swap-only storages: in use).
template<typename Type, typename Entity>
[[nodiscard]] TESSERA_FORCE_INLINE bool walk_member(const Type &pool, const Entity entt) {
    if constexpr (walk_traits<Type>::holes && !walk_traits<Type>::released) {
        return pool.contains(entt);
    } else {
        return walk_in_use(pool, walk_lookup(pool, entt)) != walk_npos;
    }
}

/// walk_member, with disabled elements counted as present unless `mode` skips them.
template<typename Type, typename Entity>
[[nodiscard]] TESSERA_FORCE_INLINE bool walk_member(const Type &pool, const Entity entt, const disabled_mode mode) {
    if constexpr (walk_traits<Type>::holes && !walk_traits<Type>::released) {
        return pool.contains(entt);
    } else {
        return walk_in_use(pool, walk_lookup(pool, entt), mode) != walk_npos;
    }
}

/// True if the element at a present position `pos` is disabled.
template<typename Type>
[[nodiscard]] TESSERA_FORCE_INLINE bool walk_disabled_at(const Type &pool, const std::size_t pos) noexcept {
    return pos >= walk_count(pool);
}

} // namespace tessera::internal

#endif
