// How the registry reads components: the members of basic_registry that test for them (all_of, any_of) and hand
// them out (get, get_or_emplace, try_get). Declared in registry.hpp, which includes this header at its end. They
// are defined `inline`, as the in-class definitions they were are implicitly, so that GCC weighs inlining these hot
// accessors as before (Clang takes the keyword as a hint and may inline them more readily).
#ifndef TESSERA_ENTITY_REGISTRY_ACCESS_HPP
#define TESSERA_ENTITY_REGISTRY_ACCESS_HPP

#include "../config/config.hpp"
#include "../core/type_traits.hpp"
#include "checks/race_guard.hpp"
#include "engine/block_walk.hpp"
#include "registry.hpp"
#include "sparse_access.hpp"
#include <cstddef>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tessera {

template<typename Entity, typename Allocator>
template<typename... Type>
inline bool basic_registry<Entity, Allocator>::all_of([[maybe_unused]] const entity_type entt) const {
    return (has<std::remove_const_t<Type>>(entt) && ...);
}

template<typename Entity, typename Allocator>
template<typename... Type>
inline bool basic_registry<Entity, Allocator>::any_of([[maybe_unused]] const entity_type entt) const {
    return (has<std::remove_const_t<Type>>(entt) || ...);
}

template<typename Entity, typename Allocator>
template<typename... Type>
inline decltype(auto) basic_registry<Entity, Allocator>::get([[maybe_unused]] const entity_type entt) const {
    if constexpr (sizeof...(Type) != 1u) {
        return std::forward_as_tuple(get<Type>(entt)...);
    } else {
        const auto *const pool = assure<std::remove_const_t<Type>...>();
        TESSERA_ASSERT(pool && pool->contains(entt), "get: the entity does not own this component");
        TESSERA_RACE_READ(pool, "get");
        return pool->get(entt);
    }
}

template<typename Entity, typename Allocator>
template<typename... Type>
inline decltype(auto) basic_registry<Entity, Allocator>::get([[maybe_unused]] const entity_type entt) {
    if constexpr (sizeof...(Type) != 1u) {
        return std::forward_as_tuple(get<Type>(entt)...);
    } else if constexpr ((std::is_const_v<Type> && ...)) {
        // read-only access never creates the pool
        return std::as_const(*this).template get<Type...>(entt);
    } else {
        auto &pool = assure<Type...>();
        TESSERA_ASSERT(pool.contains(entt), "get: the entity does not own this component");
        TESSERA_RACE_READ(&pool, "get");
        return pool.get(entt);
    }
}

template<typename Entity, typename Allocator>
template<typename Type, typename... Args>
inline decltype(auto) basic_registry<Entity, Allocator>::get_or_emplace(const entity_type entt, Args &&...args) {
    TESSERA_ASSERT(valid(entt), "get_or_emplace: invalid entity");
    auto &pool = assure<Type>();
    if (!pool.contains(entt)) {
        return emplace<Type>(entt, std::forward<Args>(args)...);
    }
    return pool.get(entt);
}

template<typename Entity, typename Allocator>
template<typename... Type>
inline auto basic_registry<Entity, Allocator>::try_get([[maybe_unused]] const entity_type entt) const {
    if constexpr (sizeof...(Type) != 1u) {
        return std::make_tuple(try_get<Type>(entt)...);
    } else {
        using element_type = std::remove_const_t<internal::nth_type_t<0u, Type...>>;
        static_assert(!std::is_void_v<typename storage_for_type<element_type>::value_type>,
                      "try_get: this type keeps no instances (empty type); use all_of instead");
        const auto *const pool = assure<element_type>();
        TESSERA_RACE_READ(pool, "try_get");
        if constexpr (internal::walk_paged<std::remove_pointer_t<decltype(pool)>>) {
            // one read of the sparse array, where contains() then get() read it twice
            const auto pos = pool ? internal::sparse_access::position(*pool, entt) : static_cast<std::size_t>(-1);
            return (pos == static_cast<std::size_t>(-1)) ? nullptr : internal::walk_address(*pool, pos);
        } else {
            return (pool != nullptr && pool->contains(entt)) ? std::addressof(pool->get(entt)) : nullptr;
        }
    }
}

template<typename Entity, typename Allocator>
template<typename... Type>
inline auto basic_registry<Entity, Allocator>::try_get([[maybe_unused]] const entity_type entt) {
    if constexpr (sizeof...(Type) != 1u) {
        return std::make_tuple(try_get<Type>(entt)...);
    } else if constexpr ((std::is_const_v<Type> && ...)) {
        return std::as_const(*this).template try_get<Type...>(entt);
    } else {
        // the pool is found the read-only way, so that asking never creates it
        using element_type = internal::nth_type_t<0u, Type...>;
        return const_cast<element_type *>(std::as_const(*this).template try_get<Type...>(entt));
    }
}

} // namespace tessera

#endif
