// Random scenarios: a server registry changes at random (entities created, destroyed, marked and unmarked,
// components added, changed and removed, identifiers recycled) while peers of every kind follow it through their
// mirrors: acknowledging at once, late, every other message, not for longer than the window, with and without a
// relevance filter. After every message, each mirror must hold exactly the relevant part of the server's state.
#include "replication/world.hpp"
#include <cstdlib>
#include <gtest/gtest.h>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace {
namespace unit_replication_scenario {

namespace {

using namespace replication_test;

/// How a peer of the scenario behaves.
struct behaviour {
    /// Acknowledges the message of `lag` rounds ago (0: at once).
    std::size_t lag;
    /// Applies one message in `apply_every` (the others are lost on the way).
    std::size_t apply_every;
    /// Stops acknowledging between these rounds.
    std::size_t silent_from;
    std::size_t silent_to;
    /// Sees only the entities whose position is left of the middle, or all.
    bool filtered;
    /// Connects at this round.
    std::size_t joins;
};

struct follower {
    behaviour how;
    std::optional<tessera::replication::peer<position, health, frozen, label, anchor>> peer{};
    std::unique_ptr<tessera::registry> client{};
    std::unique_ptr<mirror_type> mirror{};
    std::vector<tessera::tick_type> applied{};
};

class scenario {
public:
    explicit scenario(const std::uint64_t seed, const tessera::tick_type window) : rng{seed}, source{server, window} {}

    bool relevant(const tessera::entity entt) const {
        return !server.all_of<position>(entt) || server.get<position>(entt).x < 50.f;
    }

    void change() {
        for (auto count = 1u + rng.below(12u); count; --count) {
            step();
        }
    }

    std::vector<tessera::entity> alive() {
        std::vector<tessera::entity> out;

        for (const auto [entt] : server.storage<tessera::entity>().each()) {
            out.push_back(entt);
        }

        return out;
    }

    tessera::entity any() {
        const auto all = alive();
        return all.empty() ? tessera::entity{tessera::null} : all[rng.below(static_cast<std::uint32_t>(all.size()))];
    }

    void step() {
        const auto entt = any();
        const bool valid = server.valid(entt);

        switch (rng.below(16u)) {
        case 0u:
        case 1u: {
            if (server.storage<tessera::entity>().free_list() < 64u) {
                const auto made = server.create();
                if (rng.below(4u) != 0u) {
                    server.emplace<replicated>(made);
                }
                server.emplace<position>(made, static_cast<float>(rng.below(100u)), 0.f);
            }
        } break;
        case 2u:
            if (valid) {
                server.destroy(entt);
            }
            break;
        case 3u:
            if (valid) {
                server.emplace_or_replace<replicated>(entt);
            }
            break;
        case 4u:
            if (valid) {
                server.remove<replicated>(entt);
            }
            break;
        case 5u:
        case 6u:
            if (valid) {
                server.emplace_or_replace<position>(entt, static_cast<float>(rng.below(100u)),
                                                    static_cast<float>(rng.below(100u)));
            }
            break;
        case 7u:
            if (valid && server.all_of<position>(entt)) {
                server.patch<position>(entt, [this](position &pos) { pos.x = static_cast<float>(rng.below(100u)); });
            }
            break;
        case 8u:
            if (valid) {
                server.emplace_or_replace<health>(entt, static_cast<int>(rng.below(1000u)));
            }
            break;
        case 9u:
            if (valid) {
                rng.below(2u) ? void(server.emplace_or_replace<frozen>(entt)) : void(server.remove<frozen>(entt));
            }
            break;
        case 10u:
            if (valid) {
                server.emplace_or_replace<label>(entt,
                                                 std::string(rng.below(24u), static_cast<char>('a' + rng.below(26u))));
            }
            break;
        case 11u:
            if (valid) {
                server.emplace_or_replace<anchor>(entt, any(), static_cast<int>(rng.below(10u)));
            }
            break;
        case 12u:
            if (valid) {
                switch (rng.below(4u)) {
                case 0u:
                    server.remove<position>(entt);
                    break;
                case 1u:
                    server.remove<health>(entt);
                    break;
                case 2u:
                    server.remove<label>(entt);
                    break;
                default:
                    server.remove<anchor>(entt);
                    break;
                }
            }
            break;
        case 13u:
            if (valid && server.all_of<health>(entt)) {
                // a write through get, stamped afterwards
                server.get<health>(entt).value += 1;
                server.modified<health>(entt);
            }
            break;
        case 14u:
            if (valid && rng.below(8u) == 0u) {
                server.clear<position>();
            }
            break;
        default:
            if (valid) {
                // removed and added again within the same tick
                server.remove<position>(entt);
                server.emplace<position>(entt, 1.f, 1.f);
            }
            break;
        }
    }

    std::string round(std::vector<follower> &peers, const std::size_t round) {
        change();

        for (auto &curr : peers) {
            if (round < curr.how.joins) {
                continue;
            }

            if (!curr.peer) {
                curr.peer.emplace(curr.how.filtered
                                      ? source.connect([this](const tessera::entity entt) { return relevant(entt); })
                                      : source.connect());
                curr.client = std::make_unique<tessera::registry>();
                curr.mirror = std::make_unique<mirror_type>(*curr.client);
            }

            const auto bytes = curr.peer->next();

            if (round % curr.how.apply_every != 0u && !bytes.full_state()) {
                continue;
            }

            try {
                curr.applied.push_back(curr.mirror->apply(bytes));
            } catch (const tessera::replication::error &error) {
                return "round " + std::to_string(round) + ", peer " + std::to_string(&curr - peers.data()) + ": " +
                       error.what() + (bytes.full_state() ? " (whole state)" : " (delta)");
            }
            const bool silent = round >= curr.how.silent_from && round < curr.how.silent_to;

            if (!silent && curr.applied.size() > curr.how.lag) {
                curr.peer->acknowledge(curr.applied[curr.applied.size() - 1u - curr.how.lag]);
            }

            std::function<bool(tessera::entity)> filter{};

            if (curr.how.filtered) {
                filter = [this](const tessera::entity entt) { return relevant(entt); };
            }

            if (auto diff = compare(server, *curr.mirror, *curr.client, filter); !diff.empty()) {
                return "round " + std::to_string(round) + ", peer " + std::to_string(&curr - peers.data()) + ": " +
                       diff + (bytes.full_state() ? " (whole state)" : " (delta)");
            }

            if (curr.mirror->digest() != curr.peer->digest()) {
                return "round " + std::to_string(round) + ": digests differ";
            }
        }

        return {};
    }

    tessera::registry server{};
    generator rng;
    source_type source;
};

std::vector<follower> everyone() {
    std::vector<follower> out;
    out.push_back(follower{behaviour{0u, 1u, 0u, 0u, false, 0u}});
    out.push_back(follower{behaviour{2u, 1u, 0u, 0u, false, 0u}});
    out.push_back(follower{behaviour{0u, 2u, 0u, 0u, false, 3u}});
    out.push_back(follower{behaviour{1u, 1u, 20u, 45u, false, 0u}});
    out.push_back(follower{behaviour{0u, 1u, 0u, 0u, true, 0u}});
    out.push_back(follower{behaviour{3u, 1u, 30u, 50u, true, 10u}});
    out.push_back(follower{behaviour{0u, 3u, 0u, 0u, true, 0u}});
    return out;
}

// TESSERA_REPLICATION_SEEDS=<count> runs more seeds (a soak run); TESSERA_REPLICATION_SEED=<seed> one seed.
TEST(scenario, MirrorsFollowTheServer) {
    std::uint64_t first = 1u;
    std::uint64_t last = 10u;

    if (const char *count = std::getenv("TESSERA_REPLICATION_SEEDS"); count != nullptr) {
        last = std::stoull(count);
    }

    if (const char *seed = std::getenv("TESSERA_REPLICATION_SEED"); seed != nullptr) {
        first = last = std::stoull(seed);
    }

    for (std::uint64_t seed = first; seed <= last; ++seed) {
        // windows from 2 ticks (peers fall out of it all the time) to 64
        scenario world{seed, static_cast<tessera::tick_type>(2u << (seed % 6u))};
        auto peers = everyone();

        for (std::size_t round{}; round < 80u; ++round) {
            const auto diff = world.round(peers, round);
            ASSERT_TRUE(diff.empty()) << "seed " << seed << ", " << diff;
        }
    }
}

} // namespace

} // namespace unit_replication_scenario
} // namespace
