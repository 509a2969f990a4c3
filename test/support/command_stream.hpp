// Random streams of commands for the tests of a parallel apply (test/entity/commands/playback.cpp and
// test/execution/apply.cpp): two registries built the same way, the same commands recorded into two sets of
// buffers, and a comparison of every pool, the entity storage and the buffers' resolve() afterwards.
#ifndef TESSERA_TEST_SUPPORT_COMMAND_STREAM_HPP
#define TESSERA_TEST_SUPPORT_COMMAND_STREAM_HPP

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <tessera/core/hashed_string.hpp>
#include <tessera/entity/command_buffer.hpp>
#include <tessera/entity/registry.hpp>

namespace command_stream {

using namespace tessera::literals;

struct position {
    int x;
};

struct velocity {
    int dx;
};

struct marker {};

/// Holds an identifier that a buffer maps when it applies.
struct link {
    tessera::entity who{};
    static constexpr auto entity_members = std::tuple{&link::who};
};

inline constexpr tessera::id_type named = "named"_hs;

/// A value whose move into its pool throws while armed, if it is negative.
struct brittle {
    static inline bool armed = false;
    int value{};

    brittle() = default;
    explicit brittle(const int init) : value{init} {}
    brittle(const brittle &) = default;
    // throws on purpose, to test what a failed move leaves
    // NOLINTNEXTLINE(bugprone-exception-escape)
    brittle(brittle &&other) : value{other.value} {
        if (armed && value < 0) {
            throw std::runtime_error{"brittle"};
        }
    }
    brittle &operator=(const brittle &) = default;
    brittle &operator=(brittle &&) = default;
    ~brittle() = default;
};

/// splitmix64, so that both sides draw the same stream.
struct random {
    std::uint64_t state;

    std::uint64_t next() {
        std::uint64_t value = (state += 0x9E3779B97F4A7C15ull);
        value = (value ^ (value >> 30u)) * 0xBF58476D1CE4E5B9ull;
        value = (value ^ (value >> 27u)) * 0x94D049BB133111EBull;
        return value ^ (value >> 31u);
    }

    std::size_t below(const std::size_t bound) { return static_cast<std::size_t>(next() % bound); }
};

/// Entities with some of every component, some disabled components, and released identifiers.
inline std::vector<tessera::entity> populate(tessera::registry &registry, const std::size_t count) {
    std::vector<tessera::entity> made;

    for (std::size_t pos{}; pos < count; ++pos) {
        const auto entt = registry.create();
        made.push_back(entt);
        registry.emplace<position>(entt, static_cast<int>(pos));

        if (pos % 2u == 0u) {
            registry.emplace<velocity>(entt, static_cast<int>(pos));
        }

        if (pos % 3u == 0u) {
            registry.emplace<marker>(entt);
        }

        if (pos % 7u == 0u) {
            registry.disable<position>(entt);
        }
    }

    for (std::size_t pos{}; pos < count; pos += 9u) {
        registry.destroy(made[pos]);
    }

    return made;
}

/// Records `length` random commands spread over the buffers: every kind of command, on live, released and
/// provisional identifiers, repeated identifiers and runs of one kind.
inline void record(std::vector<tessera::command_buffer> &buffers, const std::vector<tessera::entity> &known,
                   const std::uint64_t seed, const std::size_t length) {
    random draw{seed};
    std::vector<std::vector<tessera::entity>> fresh(buffers.size());

    for (std::size_t step{}; step < length; ++step) {
        const auto which = draw.below(buffers.size());
        auto &buffer = buffers[which];
        auto &mine = fresh[which];
        const auto pick = [&]() {
            return !mine.empty() && draw.below(3u) == 0u ? mine[draw.below(mine.size())]
                                                         : known[draw.below(known.size())];
        };
        // a run: several commands of one kind in a row
        const auto repeat = 1u + draw.below(4u);
        const auto kind = draw.below(14u);

        for (std::size_t again{}; again < repeat; ++again) {
            switch (kind) {
            case 0u:
                mine.push_back(buffer.create());
                break;
            case 1u:
            case 2u:
                buffer.destroy(pick());
                break;
            case 3u:
                buffer.emplace<position>(pick(), static_cast<int>(step));
                break;
            case 4u:
                buffer.emplace_or_replace<velocity>(pick(), static_cast<int>(step));
                break;
            case 5u:
                buffer.replace<position>(pick(), -static_cast<int>(step));
                break;
            case 6u:
                buffer.patch<velocity>(pick(), [step](velocity &vel) { vel.dx += static_cast<int>(step); });
                break;
            case 7u:
                buffer.remove<velocity>(pick());
                break;
            case 8u:
                buffer.erase<marker>(pick());
                break;
            case 9u:
                buffer.emplace<marker>(pick());
                break;
            case 10u:
                buffer.disable<position>(pick());
                break;
            case 11u:
                buffer.enable<position>(pick());
                break;
            case 12u:
                buffer.storage<position>(named).emplace(pick(), static_cast<int>(step));
                break;
            default:
                buffer.emplace_or_replace<link>(pick(), link{pick()});
                break;
            }
        }
    }
}

template<typename Type>
void expect_same_pool(const tessera::registry &lhs, const tessera::registry &rhs,
                      const tessera::id_type id = tessera::type_hash<Type>::value()) {
    const auto *left = lhs.storage<Type>(id);
    const auto *right = rhs.storage<Type>(id);
    ASSERT_EQ(left == nullptr, right == nullptr);

    if (left != nullptr) {
        ASSERT_EQ(left->size(), right->size());
        EXPECT_EQ(left->free_list(), right->free_list());

        for (std::size_t pos{}; pos < left->size(); ++pos) {
            ASSERT_EQ(left->data()[pos], right->data()[pos]) << "position " << pos;

            if constexpr (std::is_same_v<Type, position>) {
                EXPECT_EQ(left->get(left->data()[pos]).x, right->get(right->data()[pos]).x);
            } else if constexpr (std::is_same_v<Type, velocity>) {
                EXPECT_EQ(left->get(left->data()[pos]).dx, right->get(right->data()[pos]).dx);
            } else if constexpr (std::is_same_v<Type, link>) {
                EXPECT_EQ(left->get(left->data()[pos]).who, right->get(right->data()[pos]).who);
            }
        }
    }
}

/// Two registries built alike and the same random commands recorded into two sets of buffers: `played` and `mine`
/// for the apply under test, `reference` and `theirs` for one apply after the other.
struct twins {
    tessera::registry played;
    tessera::registry reference;
    std::vector<tessera::command_buffer> mine;
    std::vector<tessera::command_buffer> theirs;

    twins(const std::size_t entities, const std::size_t buffers, const std::uint64_t seed, const std::size_t length)
        : mine(buffers), theirs(buffers) {
        const auto known = populate(played, entities);
        populate(reference, entities);
        record(mine, known, seed, length);
        record(theirs, known, seed, length);
    }

    /// Applies the reference; then both sides must match: the skipped counts, resolve(), the registries, and
    /// every buffer of the tested side must be empty.
    void expect_as_reference(const std::size_t skipped);
};

/// The reference: every buffer applied on its own, in order. Returns the skipped count.
inline std::size_t apply_each(tessera::registry &registry, std::vector<tessera::command_buffer> &buffers) {
    std::size_t skipped{};

    for (auto &buffer : buffers) {
        skipped += buffer.apply(registry);
    }

    return skipped;
}

/// Every pool the streams touch, the entity storage, and the next identifiers.
inline void expect_same(tessera::registry &lhs, tessera::registry &rhs) {
    expect_same_pool<tessera::entity>(lhs, rhs);
    expect_same_pool<position>(lhs, rhs);
    expect_same_pool<position>(lhs, rhs, named);
    expect_same_pool<velocity>(lhs, rhs);
    expect_same_pool<marker>(lhs, rhs);
    expect_same_pool<link>(lhs, rhs);

    for (int count{}; count < 20; ++count) {
        EXPECT_EQ(lhs.create(), rhs.create());
    }
}

/// The identifiers the buffers gave their provisional ones: the same on both sides.
inline void expect_same_resolved(const std::vector<tessera::command_buffer> &lhs,
                                 const std::vector<tessera::command_buffer> &rhs) {
    for (std::size_t which{}; which < lhs.size(); ++which) {
        for (std::uint32_t pos{}; pos < 64u; ++pos) {
            const auto provisional = tessera::entt_traits<tessera::entity>::construct(
                pos, tessera::entt_traits<tessera::entity>::version_mask);
            EXPECT_EQ(lhs[which].resolve(provisional), rhs[which].resolve(provisional));
        }
    }
}

inline void twins::expect_as_reference(const std::size_t skipped) {
    EXPECT_EQ(skipped, apply_each(reference, theirs));
    expect_same_resolved(mine, theirs);
    expect_same(played, reference);

    for (const auto &buffer : mine) {
        EXPECT_TRUE(buffer.empty());
    }
}

} // namespace command_stream

#endif
