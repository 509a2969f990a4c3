// The battle (battle_world.hpp) as a replication server sees it: the battle's systems write positions and health
// through views, which stamps nothing, so after each frame publish() copies what clients see into tracked
// components of their own (patch only where the value changed, so that a delta carries only what moved) and marks
// the units replicated. Projectiles stay on the server. Shared by examples/replication.cpp and the replication
// tests (test/replication/battle.cpp); docs/replication.md explains the module.
#ifndef TESSERA_EXAMPLES_BATTLE_REPLICATION_HPP
#define TESSERA_EXAMPLES_BATTLE_REPLICATION_HPP

#include "battle_world.hpp"
#include <cstdint>
#include <tessera/replication/replication.hpp>
#include <tuple>
#include <vector>

namespace battle::net {

/// Where a unit is, as clients see it.
struct position {
    static constexpr bool track_changes = true;
    float x, y;
};

/// A unit's health.
struct health {
    static constexpr bool track_changes = true;
    int current;
};

/// A unit's side: set once.
struct team {
    static constexpr bool track_changes = true;
    std::uint8_t id;
};

/// What a unit aims at: an identifier the mirror maps to the client's own (null where the target is not
/// relevant to the client).
struct target {
    static constexpr bool track_changes = true;
    tessera::entity who;
    static constexpr auto entity_members = std::tuple{&target::who};
};

using source = tessera::replication::source<position, health, team, target>;
using mirror = tessera::replication::mirror<position, health, team, target>;

/// Brings the replicated view of the battle up to date after a frame: every unit is replicated, with its position,
/// health, team and target; only values that differ are written.
inline void publish(tessera::registry &registry) {
    std::vector<tessera::entity> fresh{};

    for (const auto entt :
         registry.view<battle::position, battle::team>(tessera::exclude<tessera::replication::replicated>)) {
        fresh.push_back(entt);
    }

    for (const auto entt : fresh) {
        const auto &pos = registry.get<battle::position>(entt);
        registry.emplace<tessera::replication::replicated>(entt);
        registry.emplace<position>(entt, pos.x, pos.y);
        registry.emplace<health>(entt, registry.get<battle::health>(entt).current);
        registry.emplace<team>(entt, registry.get<battle::team>(entt).id);
        registry.emplace<target>(entt, registry.get<battle::target>(entt).who);
    }

    registry.view<const battle::position, const battle::health, const battle::target, position, health, target>().each(
        [&registry](const tessera::entity entt, const battle::position &pos, const battle::health &hp,
                    const battle::target &aim, position &seen, health &seen_hp, target &seen_aim) {
            if (pos.x != seen.x || pos.y != seen.y) {
                seen = position{pos.x, pos.y};
                registry.modified<position>(entt);
            }

            if (hp.current != seen_hp.current) {
                seen_hp.current = hp.current;
                registry.modified<health>(entt);
            }

            if (aim.who != seen_aim.who) {
                seen_aim.who = aim.who;
                registry.modified<target>(entt);
            }
        });
}

/// The filter of a client that watches the red half of the arena (x < 0).
struct left_half {
    const tessera::registry *registry;

    bool operator()(const tessera::entity entt) const { return registry->get<position>(entt).x < 0.f; }
};

} // namespace battle::net

#endif
