// How the registry enables and disables components without removing them: the members of basic_registry that
// switch one component (disable<T>, enable<T>, enabled<T>) or a whole entity (disable, enable, enabled), and the
// rule that a component added to a disabled entity starts disabled. Declared in registry.hpp, which includes this
// header at its end. The mechanism (a disabled tail in each pool) lives in sparse_set_disable.hpp.
#ifndef TESSERA_ENTITY_REGISTRY_ENABLE_HPP
#define TESSERA_ENTITY_REGISTRY_ENABLE_HPP

#include "../config/config.hpp"
#include "registry.hpp"
#include <algorithm>
#include <iterator>
#include <type_traits>

namespace tessera {

/// The component that marks the entities disabled as a whole (basic_registry::disable(entity)). Its pool is an
/// ordinary pool of the registry: destroying the entity removes the mark, clone copies it.
struct disabled_entity final {};

namespace internal {

/// True if a storage type can disable elements: in-place storages promise that elements never move.
template<typename Pool>
[[nodiscard]] consteval bool can_disable() noexcept {
    if constexpr (requires { Pool::storage_policy; }) {
        return Pool::storage_policy == deletion_policy::swap_and_pop;
    } else {
        return true;
    }
}

} // namespace internal

template<typename Entity, typename Allocator>
template<typename Type>
bool basic_registry<Entity, Allocator>::disable(const entity_type entt) {
    static_assert(!std::is_same_v<Type, entity_type>, "disable: entities are disabled with disable(entity)");
    static_assert(internal::can_disable<storage_for_type<Type>>(),
                  "disable: the storage of this type deletes in place (stable pointers), so its elements cannot move "
                  "behind the enabled ones; remove the component instead");
    auto &pool = assure<Type>();
    TESSERA_ASSERT(valid(entt) && pool.contains(entt), "disable: the entity does not own this component");
    return pool.disable(entt);
}

template<typename Entity, typename Allocator>
template<typename Type>
bool basic_registry<Entity, Allocator>::enable(const entity_type entt) {
    static_assert(!std::is_same_v<Type, entity_type>, "enable: entities are enabled with enable(entity)");
    auto &pool = assure<Type>();
    TESSERA_ASSERT(valid(entt) && pool.contains(entt), "enable: the entity does not own this component");
    return pool.enable(entt);
}

template<typename Entity, typename Allocator>
template<typename Type>
bool basic_registry<Entity, Allocator>::enabled(const entity_type entt) const {
    const auto *pool = assure<std::remove_const_t<Type>>();
    return pool != nullptr && static_cast<const common_type *>(pool)->enabled(entt);
}

template<typename Entity, typename Allocator>
void basic_registry<Entity, Allocator>::disable(const entity_type entt) {
    TESSERA_ASSERT(valid(entt), "disable: invalid entity");
    // checked before anything changes: a failed disable leaves the entity as it was
    TESSERA_ASSERT(std::none_of(pools.begin(), pools.end(),
                                [entt](const auto &entry) {
                                    return entry.second->policy() != deletion_policy::swap_and_pop &&
                                           entry.second->contains(entt);
                                }),
                   "disable: the entity has a component of an in-place storage, which cannot be disabled");
    auto &marks = assure<disabled_entity>();
    disabled_entities = &marks;

    if (!marks.contains(entt)) {
        marks.emplace(entt);
    }

    for (auto [id, pool] : storage()) {
        if (&pool != disabled_entities && pool.contains(entt)) {
            pool.disable(entt);
        }
    }
}

template<typename Entity, typename Allocator>
void basic_registry<Entity, Allocator>::enable(const entity_type entt) {
    TESSERA_ASSERT(valid(entt), "enable: invalid entity");

    if (disabled_entities != nullptr) {
        disabled_entities->remove(entt);
    }

    for (auto [id, pool] : storage()) {
        if (pool.policy() == deletion_policy::swap_and_pop && pool.contains(entt)) {
            pool.enable(entt);
        }
    }
}

template<typename Entity, typename Allocator>
bool basic_registry<Entity, Allocator>::enabled(const entity_type entt) const {
    TESSERA_ASSERT(valid(entt), "enabled: invalid entity");
    return disabled_entities == nullptr || !disabled_entities->contains(entt);
}

template<typename Entity, typename Allocator>
template<typename Pool>
bool basic_registry<Entity, Allocator>::follow_entity_state(Pool &pool, const entity_type entt) {
    if (disabled_entities == nullptr || !disabled_entities->contains(entt)) [[likely]] {
        return false;
    }

    if constexpr (internal::can_disable<Pool>()) {
        return static_cast<common_type *>(&pool) != disabled_entities && pool.disable(entt);
    } else {
        TESSERA_ASSERT(false, "emplace: the entity is disabled and the storage of this type deletes in place, so "
                              "its elements cannot be disabled; enable the entity first");
        return false;
    }
}

template<typename Entity, typename Allocator>
template<typename Pool, typename It>
void basic_registry<Entity, Allocator>::follow_entity_state([[maybe_unused]] Pool &pool, [[maybe_unused]] It first,
                                                            [[maybe_unused]] It last) {
    // an input range is gone once inserted: its entities cannot be visited twice (docs/enable_disable.md)
    if constexpr (std::forward_iterator<It>) {
        if (disabled_entities != nullptr && !disabled_entities->empty()) {
            for (; first != last; ++first) {
                follow_entity_state(pool, *first);
            }
        }
    }
}

} // namespace tessera

#endif
