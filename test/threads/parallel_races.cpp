// Race detection of parallel_each (TESSERA_DEBUG_RACES=1, this executable only, linked with tessera::execution):
// while parallel_each walks a view or a group, a structural change of any pool it reads fails from inside the
// callback with a message naming the pool and "parallel_each", and the failure reaches the caller; writing the
// elements the callback receives is allowed, and so is every write once the pass is over. A failing write is
// checked before it touches anything, so nothing actually races and ThreadSanitizer (`tsan` preset) stays quiet.
#include <atomic>
#include <cstddef>
#include <gtest/gtest.h>
#include <string>
#include <support/misuse.hpp>
#include <tessera/entity/group.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/view.hpp>
#include <tessera/execution/parallel_each.hpp>
#include <vector>

namespace {

static_assert(TESSERA_DEBUG_RACES == 1, "parallel_races.cpp is built with TESSERA_DEBUG_RACES=1");

struct position {
    int x;
};

struct velocity {
    int dx;
};

struct frozen {};

// The expected message: `operation` on the pool of Type during a pass of parallel_each.
template<typename Type>
std::string in_pass(const std::string &operation) {
    return operation + " on the pool of " + std::string{tessera::type_id<Type>().name()} +
           " while another thread runs a parallel pass over it (parallel_each)";
}

// Entities with a position and a velocity, enough for many chunks of `chunk` positions; every pool created up front.
struct ParallelEachRaces : testing::Test {
    static constexpr int count = 1024;
    static constexpr std::size_t chunk = 16u;

    ParallelEachRaces() {
        for (int value{}; value < count; ++value) {
            const auto entt = registry.create();
            entities.push_back(entt);
            registry.emplace<position>(entt, value);
            registry.emplace<velocity>(entt, 1);
        }

        static_cast<void>(registry.storage<frozen>());
        spare = registry.create();
    }

    // every position moved by its velocity `times` times
    [[nodiscard]] bool moved(const int times) const {
        for (int value{}; value < count; ++value) {
            if (registry.get<position>(entities[static_cast<std::size_t>(value)]).x != value + times) {
                return false;
            }
        }

        return true;
    }

    tessera::registry registry;
    std::vector<tessera::entity> entities;
    tessera::entity spare{};
};

TEST_F(ParallelEachRaces, EmplaceIntoAWalkedPoolReachesTheCaller) {
    auto view = registry.view<position, velocity>();
    std::atomic<int> calls{};
    // the failure is thrown on whichever thread runs a chunk and rethrown by parallel_each on this one
    EXPECT_MISUSE(tessera::execution::parallel_each(view, chunk,
                                                    [&](const tessera::entity, position &, velocity &) {
                                                        calls.fetch_add(1);
                                                        registry.emplace<velocity>(spare, 1);
                                                    }),
                  in_pass<velocity>("emplace"));
    EXPECT_GE(calls.load(), 1);
    // the failed emplaces changed nothing, and writes work again once the pass is over
    EXPECT_FALSE(registry.all_of<velocity>(spare));
    registry.emplace<velocity>(spare, 1);
    registry.emplace<position>(spare, 0);
    EXPECT_TRUE((registry.all_of<position, velocity>(spare)));
}

TEST_F(ParallelEachRaces, EraseFromAWalkedPoolReachesTheCaller) {
    auto view = registry.view<position, const velocity>();
    EXPECT_MISUSE(tessera::execution::parallel_each(view, chunk,
                                                    [&](const tessera::entity entt, position &, const velocity &) {
                                                        registry.erase<position>(entt);
                                                    }),
                  in_pass<position>("erase"));
    EXPECT_EQ(registry.storage<position>().size(), static_cast<std::size_t>(count));
    EXPECT_TRUE(moved(0));
    registry.erase<position>(entities[0]);
    EXPECT_FALSE(registry.all_of<position>(entities[0]));
}

TEST_F(ParallelEachRaces, AnExcludedPoolIsWalkedToo) {
    auto view = registry.view<position>(tessera::exclude<frozen>);
    EXPECT_MISUSE(tessera::execution::parallel_each(
                      view, chunk, [&](const tessera::entity entt, position &) { registry.emplace<frozen>(entt); }),
                  in_pass<frozen>("emplace"));
    EXPECT_TRUE(registry.storage<frozen>().empty());
    registry.emplace<frozen>(entities[0]);
    EXPECT_TRUE(registry.all_of<frozen>(entities[0]));
}

TEST_F(ParallelEachRaces, GroupPoolsAreWalked) {
    auto group = registry.group<position>(tessera::get<velocity>);
    EXPECT_MISUSE(
        tessera::execution::parallel_each(
            group, chunk, [&](const tessera::entity entt, position &, velocity &) { registry.remove<velocity>(entt); }),
        in_pass<velocity>("erase"));
    EXPECT_EQ(group.size(), static_cast<std::size_t>(count));
    registry.remove<velocity>(entities[0]);
    EXPECT_EQ(group.size(), static_cast<std::size_t>(count) - 1u);
}

TEST_F(ParallelEachRaces, WritingTheReceivedElementsIsAllowed) {
    auto view = registry.view<position, const velocity>();
    // through the reference the callback receives, and through the registry's get (a read of the pool)
    tessera::execution::parallel_each(view, chunk, [](position &pos, const velocity &vel) { pos.x += vel.dx; });
    tessera::execution::parallel_each(view, chunk, [&](const tessera::entity entt, position &, const velocity &) {
        registry.get<position>(entt).x += registry.get<velocity>(entt).dx;
    });
    EXPECT_TRUE(moved(2));
    // the passes are over: structural changes work again
    registry.emplace<position>(spare, 0);
    registry.erase<velocity>(entities[0]);
    EXPECT_TRUE(registry.all_of<position>(spare));
    EXPECT_FALSE(registry.all_of<velocity>(entities[0]));
}

} // namespace
