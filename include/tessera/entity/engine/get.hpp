// The element access of views and groups (their get): an entity's elements read straight from the sparse array
// and the pages of the storages the iteration engine (engine/block_walk.hpp) already knows, so that a get inside a
// user's loop inlines, and, in a build without optimization, costs as few calls and lookups as it can.
#ifndef TESSERA_ENTITY_ENGINE_GET_HPP
#define TESSERA_ENTITY_ENGINE_GET_HPP

#include "../../config/config.hpp"
#include "../sparse_set.hpp"
#include "block_walk.hpp"
#include <cstddef>
#include <tuple>

namespace tessera {

namespace internal {

/// The element of an entity that the storage holds, for the get() of views and groups. A paged storage is read
/// here, through the sparse array and the pages, so that the compiler inlines it in the user's loop: g++ called
/// basic_storage::get out of line in a range-for over a two-type view, at about 40% of the loop's time.
template<typename Type, typename Entity>
[[nodiscard]] TESSERA_FORCE_INLINE decltype(auto) walk_get(Type &pool, const Entity entt) {
    if constexpr (walk_paged<Type> && TESSERA_ASSERT_ENABLED) {
        // the check and the access share one read of the sparse array (a build without optimization would
        // otherwise look the entity up three times: contains, then index and its own check)
        const auto pos = sparse_access::position(pool, entt);
        TESSERA_ASSERT(pos != static_cast<std::size_t>(-1), "get: the entity is not in the set of the storage");
        return *walk_address(pool, pos);
    } else if constexpr (walk_paged<Type>) {
        TESSERA_ASSERT(pool.contains(entt), "get: the entity is not in the set of the storage");
        return *walk_address(pool, sparse_access::index(pool, entt));
    } else {
        return pool.get(entt);
    }
}

/// walk_get as a one-element tuple, or the storage's get_as_tuple (an empty tuple for storages without instances).
template<typename Type, typename Entity>
[[nodiscard]] TESSERA_FORCE_INLINE auto walk_get_tuple(Type &pool, const Entity entt) {
    if constexpr (walk_paged<Type>) {
        return std::forward_as_tuple(walk_get(pool, entt));
    } else {
        return pool.get_as_tuple(entt);
    }
}

/// The elements of an entity in several storages as one tuple (a storage without instances adds nothing). When
/// every storage is paged the tuple of references is made at once: std::tuple_cat over one-element tuples costs a
/// dozen calls per entity in a build without optimization (a range-for with get over two types: about 40x the
/// -O0 floor with it).
template<typename Entity, typename... Type>
[[nodiscard]] TESSERA_FORCE_INLINE auto walk_get_all(const Entity entt, Type &...pool) {
    if constexpr ((walk_paged<Type> && ...)) {
        return std::forward_as_tuple(walk_get(pool, entt)...);
    } else {
        return std::tuple_cat(walk_get_tuple(pool, entt)...);
    }
}

} // namespace internal

} // namespace tessera

#endif
