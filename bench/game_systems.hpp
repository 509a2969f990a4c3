// The seven systems of systems.cpp on a tessera registry (movement, data, more-complex, health, damage, sprite,
// render), shared by systems.cpp, which runs them with each(func), and parallel.cpp, which runs them through
// tessera::execution::parallel_each: the groups, the population and one frame, the caller saying how a system runs.
#ifndef TESSERA_BENCH_GAME_SYSTEMS_HPP
#define TESSERA_BENCH_GAME_SYSTEMS_HPP

#include "model.hpp"

#include <tessera/entity/group.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/view.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench::game {

/// The groups the systems go through when they use groups.
inline void make_groups(tessera::registry &registry) {
    static_cast<void>(registry.group<position, velocity>());
    static_cast<void>(registry.group<data>(tessera::get<position, velocity>));
    static_cast<void>(registry.group<damage>(tessera::get<health>));
    static_cast<void>(registry.group<sprite>(tessera::get<player, health>));
}

/// Creates `count` entities of the plain or mixed population (kind_of), calling created(index, entity) for each.
template<typename Created>
void populate(tessera::registry &registry, const std::size_t count, const bool mixed, Created created) {
    for (std::size_t index{}; index < count; ++index) {
        const auto entt = registry.create();
        const auto what = kind_of(index, mixed);
        created(index, entt);
        registry.emplace<position>(entt, initial_position(index));

        if (what.has_velocity) {
            registry.emplace<velocity>(entt, initial_velocity(index));
        }

        if (what.has_data) {
            registry.emplace<data>(entt, initial_data(index));
        }

        registry.emplace<player>(entt, what.type);
        registry.emplace<health>(entt, initial_health(index));

        if (what.has_damage) {
            registry.emplace<damage>(entt, initial_damage(index));
        }

        registry.emplace<sprite>(entt, ' ');
    }
}

/// One frame of the first 2, 3 or 7 systems, through views or groups: run(view_or_group, func) runs a system,
/// render(view) the render system over the view of positions and sprites.
template<int Systems, bool Groups, typename Run, typename Render>
void frame(tessera::registry &registry, Run run, Render render) {
    if constexpr (Groups) {
        run(registry.group<position, velocity>(), [](position &pos, const velocity &vel) { movement(pos, vel); });
    } else {
        run(registry.view<position, const velocity>(), [](position &pos, const velocity &vel) { movement(pos, vel); });
    }

    run(registry.view<data>(), [](data &value) { update_data(value); });

    if constexpr (Systems >= 3) {
        if constexpr (Groups) {
            run(registry.group<data>(tessera::get<position, velocity>),
                [](const data &value, const position &pos, velocity &vel) { more_complex(pos, vel, value); });
        } else {
            run(registry.view<const position, velocity, const data>(),
                [](const position &pos, velocity &vel, const data &value) { more_complex(pos, vel, value); });
        }
    }

    if constexpr (Systems >= 7) {
        run(registry.view<health>(), [](health &value) { update_health(value); });

        if constexpr (Groups) {
            run(registry.group<damage>(tessera::get<health>),
                [](const damage &dmg, health &value) { apply_damage(value, dmg); });
            run(registry.group<sprite>(tessera::get<player, health>),
                [](sprite &spr, const player &who, const health &value) { update_sprite(spr, who, value); });
        } else {
            run(registry.view<health, const damage>(),
                [](health &value, const damage &dmg) { apply_damage(value, dmg); });
            run(registry.view<sprite, const player, const health>(),
                [](sprite &spr, const player &who, const health &value) { update_sprite(spr, who, value); });
        }

        render(registry.view<const position, const sprite>());
    }
}

/// The checksum of the state: every component of every entity (entity index i is entities[i]) and the framebuffer.
inline std::uint64_t checksum_of(const tessera::registry &registry, const std::vector<tessera::entity> &entities,
                                 const framebuffer &buffer) {
    checksum sum{};

    for (std::size_t index{}; index < entities.size(); ++index) {
        const auto entt = entities[index];
        add_entity(sum, index, registry.get<position>(entt), registry.try_get<velocity>(entt),
                   registry.try_get<data>(entt), registry.get<player>(entt), registry.get<health>(entt),
                   registry.try_get<damage>(entt), registry.get<sprite>(entt));
    }

    add_framebuffer(sum, buffer);
    return sum.value;
}

} // namespace bench::game

#endif
