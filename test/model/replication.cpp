// The model test's replicated mirror: random operation sequences on a server registry (create, destroy, mark and
// unmark as replicated, emplace, patch, replace and remove the model's tracked `trivial` and empty `tag`, clear a
// pool) are mirrored through a replication source and mirror, and after every message the mirror must hold exactly
// what a reference made of std::map and std::set says: the replicated entities, with their components and values.
// Peers acknowledge at once, late, never for a while (longer than the window), or lose messages; one is filtered.
#include "model/reference.hpp"
#include "support/splitmix.hpp"
#include <cstdint>
#include <cstdlib>
#include <gtest/gtest.h>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tessera/replication/replication.hpp>
#include <vector>

namespace {
namespace unit_model_replication {

namespace {

using tessera::replication::replicated;
using tessera_model::entity;
using tessera_model::tag;
using tessera_model::trivial;

using source_type = tessera::replication::source<trivial, tag>;
using mirror_type = tessera::replication::mirror<trivial, tag>;

/// splitmix64 (test/support/splitmix.hpp).
using dice = tessera_test::splitmix64;

/// The reference: what the server holds, in ordered containers.
struct reference {
    std::set<entity> alive;
    std::set<entity> marked;
    std::map<entity, int> trivials;
    std::set<entity> tags;

    void drop(const entity entt) {
        alive.erase(entt);
        marked.erase(entt);
        trivials.erase(entt);
        tags.erase(entt);
    }
};

/// A client: its registry and mirror, and how it behaves.
struct follower {
    bool filtered{};
    std::uint32_t lose_one_in{};
    std::size_t silent_from{};
    std::size_t silent_to{};
    std::unique_ptr<tessera::registry> registry{std::make_unique<tessera::registry>()};
    std::unique_ptr<mirror_type> mirror{std::make_unique<mirror_type>(*registry)};
};

/// The filter of the filtered peer: entities whose trivial value is even (it changes with the values).
bool even(const tessera::registry &server, const entity entt) {
    const auto *value = server.try_get<trivial>(entt);
    return value != nullptr && value->value % 2 == 0;
}

/// The first difference between the reference and a mirror, or an empty string.
std::string compare(const reference &ref, const follower &peer, const bool filtered) {
    std::size_t expected{};

    for (const auto entt : ref.marked) {
        const auto found = ref.trivials.find(entt);
        const bool relevant = !filtered || (found != ref.trivials.end() && found->second % 2 == 0);

        if (!relevant) {
            if (peer.mirror->contains(entt)) {
                return "an entity outside the filter is mirrored";
            }

            continue;
        }

        ++expected;
        const auto local = peer.mirror->map(entt);

        if (!peer.registry->valid(local)) {
            return "a replicated entity is missing";
        }

        const auto *value = peer.registry->try_get<trivial>(local);

        if ((found != ref.trivials.end()) != (value != nullptr) ||
            (value != nullptr && value->value != found->second)) {
            return "trivial differs";
        }

        if (ref.tags.contains(entt) != peer.registry->all_of<tag>(local)) {
            return "tag differs";
        }
    }

    if (peer.mirror->size() != expected) {
        return "the mirror holds " + std::to_string(peer.mirror->size()) + " entities, " + std::to_string(expected) +
               " expected";
    }

    return {};
}

/// One run: `rounds` rounds of a few random operations, then a message to every peer.
std::string run(const std::uint64_t seed, const std::size_t rounds) {
    dice roll{seed};
    tessera::registry server{};
    source_type source{server, 2u + roll.below(30u)};
    reference ref{};
    follower peers[3]{};
    peers[1].filtered = true;
    peers[2].lose_one_in = 3u;
    peers[2].silent_from = 10u + roll.below(20u);
    peers[2].silent_to = peers[2].silent_from + 40u;
    std::vector<source_type::peer_type> links{};
    links.push_back(source.connect());
    links.push_back(source.connect([&server](const entity entt) { return even(server, entt); }));
    links.push_back(source.connect());

    const auto pick = [&roll](const auto &set) -> std::optional<entity> {
        if (set.empty()) {
            return std::nullopt;
        }

        auto it = set.begin();
        std::advance(it, roll.below(static_cast<std::uint32_t>(set.size())));
        return *it;
    };

    for (std::size_t round{}; round < rounds; ++round) {
        for (auto ops = 1u + roll.below(6u); ops != 0u; --ops) {
            const auto some = pick(ref.alive);

            switch (roll.below(10u)) {
            case 0u:
            case 1u: {
                const auto entt = server.create();
                ref.alive.insert(entt);

                if (roll.below(4u) != 0u) {
                    server.emplace<replicated>(entt);
                    ref.marked.insert(entt);
                }
            } break;
            case 2u:
                if (some) {
                    server.destroy(*some);
                    ref.drop(*some);
                }
                break;
            case 3u:
                if (some) {
                    if (ref.marked.contains(*some)) {
                        server.remove<replicated>(*some);
                        ref.marked.erase(*some);
                    } else {
                        server.emplace<replicated>(*some);
                        ref.marked.insert(*some);
                    }
                }
                break;
            case 4u:
            case 5u:
                if (some) {
                    const int value = static_cast<int>(roll.below(100u));

                    if (!ref.trivials.contains(*some)) {
                        server.emplace<trivial>(*some, value);
                    } else if (roll.below(2u) == 0u) {
                        server.patch<trivial>(*some, [value](trivial &elem) { elem.value = value; });
                    } else {
                        server.replace<trivial>(*some, value);
                    }

                    ref.trivials[*some] = value;
                }
                break;
            case 6u:
                if (some) {
                    server.remove<trivial>(*some);
                    ref.trivials.erase(*some);
                }
                break;
            case 7u:
                if (some) {
                    if (ref.tags.contains(*some)) {
                        server.remove<tag>(*some);
                        ref.tags.erase(*some);
                    } else {
                        server.emplace<tag>(*some);
                        ref.tags.insert(*some);
                    }
                }
                break;
            case 8u:
                if (roll.below(20u) == 0u) {
                    server.clear<tag>();
                    ref.tags.clear();
                }
                break;
            default:
                server.advance_tick(1u + roll.below(3u));
                break;
            }
        }

        for (std::size_t index{}; index < links.size(); ++index) {
            auto &peer = peers[index];
            const auto bytes = links[index].next();

            if (peer.lose_one_in != 0u && roll.below(peer.lose_one_in) == 0u) {
                continue; // lost on the way: the next message covers it
            }

            const auto tick = peer.mirror->apply(bytes);

            if (round < peer.silent_from || round >= peer.silent_to) {
                links[index].acknowledge(tick);
            }

            if (auto diff = compare(ref, peer, peer.filtered); !diff.empty()) {
                return "round " + std::to_string(round) + ", peer " + std::to_string(index) + ": " + diff;
            }
        }
    }

    return {};
}

// TESSERA_MODEL_SEED=<seed> replays one run.
TEST(model_replication, MirrorsEqualTheReference) {
    std::uint64_t first = 1u;
    std::uint64_t last = 40u;

    if (const char *seed = std::getenv("TESSERA_MODEL_SEED"); seed != nullptr) {
        first = last = std::stoull(seed);
    }

    for (auto seed = first; seed <= last; ++seed) {
        const auto failure = run(seed, 150u);
        ASSERT_EQ(failure, "") << "seed " << seed;
    }
}

} // namespace

} // namespace unit_model_replication
} // namespace
