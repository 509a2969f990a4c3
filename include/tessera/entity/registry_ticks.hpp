// Change detection in the registry: the members of basic_registry that read and move the tick (tick is inline in
// the class), stamp a component as modified and ask whether it was added or changed since a tick. Declared in
// registry.hpp, which includes this header at its end. The per-element ticks live in the storages
// (change_tracking.hpp); tracked pools read the registry's tick through the address sigh_mixin hands them.
#ifndef TESSERA_ENTITY_REGISTRY_TICKS_HPP
#define TESSERA_ENTITY_REGISTRY_TICKS_HPP

#include "../config/config.hpp"
#include "change_tracking.hpp"
#include "component.hpp"
#include "registry.hpp"
#include <type_traits>

namespace tessera {

namespace internal {

/// True if the registry's pools of Type keep ticks.
template<typename Type, typename Entity>
inline constexpr bool tracks_changes_v = track_changes_of<component_traits<std::remove_const_t<Type>, Entity>>;

} // namespace internal

template<typename Entity, typename Allocator>
inline void basic_registry<Entity, Allocator>::advance_tick(tick_type count) {
    // in steps that stop at every multiple of tick_clamp_period, so that a large count clamps as often as
    // count single advances would
    while (count != 0u) {
        const tick_type to_clamp = tick_clamp_period - (current_tick & (tick_clamp_period - 1u));
        const tick_type step = count < to_clamp ? count : to_clamp;
        current_tick += step;
        count -= step;

        if ((current_tick & (tick_clamp_period - 1u)) == 0u) {
            internal::tick_clamp order{};

            for (auto &&curr : storage()) {
                curr.second.bind(order);
            }
        }
    }
}

template<typename Entity, typename Allocator>
template<typename Type>
inline void basic_registry<Entity, Allocator>::modified(const entity_type entt) {
    static_assert(internal::tracks_changes_v<Type, entity_type>,
                  "modified: the type is not tracked; declare static constexpr bool track_changes = true in it "
                  "or in its component_traits");
    auto &pool = assure<std::remove_const_t<Type>>();
    TESSERA_ASSERT(pool.contains(entt), "modified: the entity does not own this component");
    // patch without a function: stamps the change and fires on_update, the value untouched
    pool.patch(entt);
}

template<typename Entity, typename Allocator>
template<typename Type>
inline bool basic_registry<Entity, Allocator>::added_since(const entity_type entt, const tick_type since) const {
    static_assert(internal::tracks_changes_v<Type, entity_type>,
                  "added_since: the type is not tracked; declare static constexpr bool track_changes = true in it "
                  "or in its component_traits");
    const auto *const pool = assure<std::remove_const_t<Type>>();
    TESSERA_ASSERT(pool != nullptr && pool->contains(entt), "added_since: the entity does not own this component");
    return internal::tick_after(pool->tick_column().at(pool->index(entt)).added, since, current_tick);
}

template<typename Entity, typename Allocator>
template<typename Type>
inline bool basic_registry<Entity, Allocator>::changed_since(const entity_type entt, const tick_type since) const {
    static_assert(internal::tracks_changes_v<Type, entity_type>,
                  "changed_since: the type is not tracked; declare static constexpr bool track_changes = true in it "
                  "or in its component_traits");
    const auto *const pool = assure<std::remove_const_t<Type>>();
    TESSERA_ASSERT(pool != nullptr && pool->contains(entt), "changed_since: the entity does not own this component");
    return internal::tick_after(pool->tick_column().at(pool->index(entt)).changed, since, current_tick);
}

} // namespace tessera

#endif
