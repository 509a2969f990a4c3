// The battle of examples/battle_world.hpp replicated for 120 frames (examples/battle_replication.hpp): after every
// frame, every client's mirror must equal the part of the server it should hold. Clients: one that sees everything,
// one filtered to half of the arena, one that joins at frame 60, and one that stops acknowledging for longer than
// the window (it keeps applying what it gets, and is sent the whole state once its tick leaves the window).
#define TESSERA_BATTLE_SEQUENTIAL
#include "battle_replication.hpp"
#include <cstddef>
#include <gtest/gtest.h>
#include <memory>
#include <optional>
#include <string>

namespace {

struct client {
    std::size_t joins{};
    bool filtered{};
    std::size_t silent_from{};
    std::size_t silent_to{};
    std::optional<battle::net::source::peer_type> peer{};
    std::unique_ptr<tessera::registry> registry{};
    std::unique_ptr<battle::net::mirror> mirror{};
    std::size_t whole_states{};
};

/// The first difference between the server's relevant units and a client's mirror, or an empty string.
std::string compare(const tessera::registry &server, const client &peer) {
    const battle::net::left_half filter{&server};
    std::size_t expected{};

    for (const auto entt : server.view<tessera::replication::replicated>()) {
        if (peer.filtered && !filter(entt)) {
            if (peer.mirror->contains(entt)) {
                return "a unit outside the filter is mirrored";
            }

            continue;
        }

        ++expected;
        const auto local = peer.mirror->map(entt);

        if (!peer.registry->valid(local)) {
            return "a unit is missing";
        }

        const auto &pos = server.get<battle::net::position>(entt);
        const auto &seen = peer.registry->get<battle::net::position>(local);

        if (pos.x != seen.x || pos.y != seen.y) {
            return "a position differs";
        }

        if (server.get<battle::net::health>(entt).current != peer.registry->get<battle::net::health>(local).current) {
            return "a health differs";
        }

        if (server.get<battle::net::team>(entt).id != peer.registry->get<battle::net::team>(local).id) {
            return "a team differs";
        }

        // a target maps to the client's entity, or to null where the client does not hold it
        const auto who = server.get<battle::net::target>(entt).who;
        const auto aimed = peer.registry->get<battle::net::target>(local).who;
        const bool held = who != tessera::null && peer.mirror->contains(who);

        if (aimed != (held ? peer.mirror->map(who) : tessera::entity{tessera::null})) {
            return "a target differs";
        }
    }

    if (peer.mirror->size() != expected) {
        return "the mirror holds " + std::to_string(peer.mirror->size()) + " units, " + std::to_string(expected) +
               " expected";
    }

    return peer.mirror->digest() == peer.peer->digest() ? std::string{} : "the digests differ";
}

TEST(battle, EveryClientFollowsTheServerEveryFrame) {
    constexpr std::size_t frames = 120u;
    constexpr tessera::tick_type window = 16u;
    battle::simulation simulation{400u, 7u, false};
    auto &server = simulation.world();
    battle::net::source source{server, window};

    client clients[4]{};
    clients[1].filtered = true;
    clients[2].joins = 60u;
    clients[3].silent_from = 10u;
    clients[3].silent_to = 10u + 2u * window;

    std::size_t delta_bytes{};
    std::size_t deltas{};

    for (std::size_t frame{}; frame < frames; ++frame) {
        simulation.frame();
        battle::net::publish(server);

        for (auto &peer : clients) {
            if (frame < peer.joins) {
                continue;
            }

            if (!peer.peer) {
                peer.peer.emplace(peer.filtered ? source.connect(battle::net::left_half{&server}) : source.connect());
                peer.registry = std::make_unique<tessera::registry>();
                peer.mirror = std::make_unique<battle::net::mirror>(*peer.registry);
            }

            const auto bytes = peer.peer->next();
            peer.whole_states += bytes.full_state() ? 1u : 0u;

            if (!bytes.full_state() && !peer.filtered) {
                delta_bytes += bytes.size();
                ++deltas;
            }

            const auto tick = peer.mirror->apply(bytes);

            if (frame < peer.silent_from || frame >= peer.silent_to) {
                peer.peer->acknowledge(tick);
            }

            ASSERT_EQ(compare(server, peer), "") << "frame " << frame << ", client " << (&peer - clients);
        }
    }

    EXPECT_EQ(clients[0].whole_states, 1u);
    EXPECT_EQ(clients[1].whole_states, 1u);
    EXPECT_EQ(clients[2].whole_states, 1u);
    // the silent client fell out of the window and got the whole state again, once per message until it spoke
    EXPECT_GT(clients[3].whole_states, 1u);
    EXPECT_GT(deltas, 0u);
    EXPECT_LT(delta_bytes / deltas, source.connect().next().size());
}

} // namespace
