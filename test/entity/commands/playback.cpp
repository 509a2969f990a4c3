// Tests of tessera/entity/commands/playback.hpp: admitting several buffers then letting each pool act, in any order
// of the pools, ends as applying the buffers one after the other; what makes a registry playable; failures while
// admitting and while acting.
#include <tessera/entity/command_buffer.hpp>
#include <tessera/entity/commands/playback.hpp>
#include <tessera/entity/registry.hpp>

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "support/command_stream.hpp"
#include "support/misuse.hpp"

namespace {

using namespace command_stream;
using playback = tessera::internal::command_playback<tessera::registry>;

/// Admits every buffer, lets the pools act in the order given, and returns the skipped count.
template<typename Order>
std::size_t play(tessera::registry &registry, std::vector<tessera::command_buffer> &buffers, Order order) {
    playback run{registry};

    for (auto &buffer : buffers) {
        if (!run.admit(buffer)) {
            break;
        }
    }

    auto pools = run.pools();
    order(pools);

    for (auto *pool : pools) {
        run.act(*pool);
    }

    return run.finish();
}

TEST(command_playback, ends_as_one_buffer_after_the_other_whatever_the_order_of_the_pools) {
    for (std::uint64_t seed = 1u; seed <= 40u; ++seed) {
        SCOPED_TRACE(seed);
        twins batch{48u, 4u, seed, 120u};
        const auto skipped = seed % 2u == 0u ? play(batch.played, batch.mine, [](auto &) {})
                                             : play(batch.played, batch.mine,
                                                    [](auto &pools) { std::reverse(pools.begin(), pools.end()); });
        batch.expect_as_reference(skipped);
    }
}

TEST(command_playback, the_pools_are_those_named_or_all_of_them_with_destroys) {
    tessera::registry registry;
    const auto entt = registry.create();
    registry.emplace<velocity>(entt, 1);
    registry.emplace<marker>(entt);
    std::vector<tessera::command_buffer> buffers(2u);
    buffers[0].emplace<position>(entt, 1);
    buffers[1].storage<position>(named).emplace(entt, 2);
    buffers[1].emplace<position>(entt, 3);

    {
        playback run{registry};
        ASSERT_TRUE(run.admit(buffers[0]));
        ASSERT_TRUE(run.admit(buffers[1]));
        const auto &pools = run.pools();
        ASSERT_EQ(pools.size(), 2u);
        EXPECT_EQ(pools[0], &registry.storage<position>());
        EXPECT_EQ(pools[1], &registry.storage<position>(named));

        for (auto *pool : pools) {
            run.act(*pool);
        }

        EXPECT_EQ(run.finish(), 0u);
    }

    EXPECT_EQ(registry.get<position>(entt).x, 3);
    EXPECT_EQ(registry.storage<position>(named).get(entt).x, 2);

    buffers[0].destroy(entt);
    playback run{registry};
    ASSERT_TRUE(run.admit(buffers[0]));
    // every pool of the registry, the untouched ones too: each removes the destroyed entities it has
    EXPECT_EQ(run.pools().size(), 4u);

    for (auto *pool : run.pools()) {
        run.act(*pool);
    }

    EXPECT_EQ(run.finish(), 0u);
    EXPECT_FALSE(registry.valid(entt));
    EXPECT_TRUE(registry.storage<velocity>().empty());
    EXPECT_TRUE(registry.storage<marker>().empty());
}

TEST(command_playback, playable_without_listeners_or_disabled_entities) {
    tessera::registry registry;
    EXPECT_TRUE(playback::playable(registry));

    registry.on_construct<position>().connect<[](tessera::registry &, tessera::entity) {}>();
    EXPECT_FALSE(playback::playable(registry));
    registry.on_construct<position>().disconnect();
    EXPECT_TRUE(playback::playable(registry));

    const auto entt = registry.create();
    registry.disable(entt);
    EXPECT_FALSE(playback::playable(registry));
    registry.enable(entt);
    EXPECT_TRUE(playback::playable(registry));

    // a group listens to its pools
    [[maybe_unused]] auto group = registry.group<position>(tessera::get<velocity>);
    EXPECT_FALSE(playback::playable(registry));
    EXPECT_MISUSE(playback{registry}, "a listener watches the registry");
}

TEST(command_playback, a_buffer_listed_twice_is_a_misuse) {
    tessera::registry registry;
    tessera::command_buffer buffer;
    buffer.emplace<position>(registry.create(), 1);
    playback run{registry};
    ASSERT_TRUE(run.admit(buffer));
    EXPECT_MISUSE(run.admit(buffer), "listed twice");
}

/// A type whose pool cannot be created: the admit walk fails when a run looks it up.
struct unbuildable {
    int value;
};

} // namespace

template<>
struct tessera::storage_type<unbuildable, tessera::entity, std::allocator<unbuildable>> {
    struct type : tessera::basic_storage<unbuildable> {
        type() { throw std::runtime_error{"no pool"}; }
        explicit type(const std::allocator<unbuildable> &) : type{} {}
    };
};

namespace {

TEST(command_playback, a_failure_while_admitting_applies_what_came_before) {
    tessera::registry registry;
    const auto known = populate(registry, 16u);
    std::vector<tessera::command_buffer> buffers(3u);
    buffers[0].destroy(known[1]);
    const auto made = buffers[1].create();
    buffers[1].emplace<position>(made, 7);
    buffers[1].destroy(known[2]);
    buffers[1].emplace<unbuildable>(known[3], 1);
    buffers[1].emplace<velocity>(known[3], 9);
    buffers[2].emplace<position>(known[4], 8);

    playback run{registry};
    ASSERT_TRUE(run.admit(buffers[0]));
    EXPECT_FALSE(run.admit(buffers[1]));

    for (auto *pool : run.pools()) {
        run.act(*pool);
    }

    EXPECT_THROW(static_cast<void>(run.finish()), std::runtime_error);
    // the commands before the one that threw are applied, the rest of its buffer is dropped
    EXPECT_FALSE(registry.valid(known[1]));
    EXPECT_FALSE(registry.valid(known[2]));
    EXPECT_FALSE(registry.storage<position>().contains(known[1]));
    EXPECT_FALSE(registry.storage<velocity>().contains(known[2]));
    EXPECT_EQ(registry.get<position>(buffers[1].resolve(made)).x, 7);
    EXPECT_TRUE(buffers[1].empty());
    EXPECT_NE(registry.get<velocity>(known[4]).dx, 9);
    // the buffer after it was never admitted: left as it was
    EXPECT_EQ(buffers[2].size(), 1u);
}

TEST(command_playback, a_failure_while_acting_stops_that_pool_only) {
    tessera::registry registry;
    const auto known = populate(registry, 16u);
    registry.emplace<brittle>(known[5], 1);
    std::vector<tessera::command_buffer> buffers(2u);
    buffers[0].emplace<brittle>(known[2], 2);
    buffers[0].emplace<brittle>(known[3], -1);
    buffers[0].emplace<brittle>(known[4], 4);
    buffers[0].emplace<position>(known[3], 30);
    buffers[1].destroy(known[5]);
    buffers[1].emplace<brittle>(known[6], 6);
    buffers[1].emplace<velocity>(known[6], 60);
    brittle::armed = true;

    playback run{registry};
    ASSERT_TRUE(run.admit(buffers[0]));
    ASSERT_TRUE(run.admit(buffers[1]));

    for (auto *pool : run.pools()) {
        run.act(*pool);
    }

    EXPECT_THROW(static_cast<void>(run.finish()), std::runtime_error);
    brittle::armed = false;
    const auto &brittles = registry.storage<brittle>();
    // the pool that threw keeps what came before, drops the rest, and still removes the destroyed entity
    EXPECT_TRUE(brittles.contains(known[2]));
    EXPECT_FALSE(brittles.contains(known[3]));
    EXPECT_FALSE(brittles.contains(known[4]));
    EXPECT_FALSE(brittles.contains(known[6]));
    EXPECT_FALSE(brittles.contains(known[5]));
    EXPECT_FALSE(registry.valid(known[5]));
    // the other pools play everything
    EXPECT_EQ(registry.get<position>(known[3]).x, 30);
    EXPECT_EQ(registry.get<velocity>(known[6]).dx, 60);
    EXPECT_TRUE(buffers[0].empty());
    EXPECT_TRUE(buffers[1].empty());

    // and the buffers work again
    buffers[0].emplace<brittle>(known[4], 4);
    EXPECT_EQ(buffers[0].apply(registry), 0u);
    EXPECT_EQ(registry.get<brittle>(known[4]).value, 4);
}

TEST(command_playback, destroying_the_playback_early_leaves_the_buffers_empty) {
    tessera::registry registry;
    tessera::command_buffer buffer;
    const auto entt = registry.create();
    buffer.emplace<position>(entt, 1);
    buffer.emplace<velocity>(entt, 1);

    {
        playback run{registry};
        ASSERT_TRUE(run.admit(buffer));
        run.act(*run.pools().front());
    }

    // the pool that did not act never gets its value, which is destroyed
    EXPECT_TRUE(buffer.empty());
    EXPECT_EQ(registry.get<position>(entt).x, 1);
    EXPECT_FALSE(registry.all_of<velocity>(entt));
}

} // namespace
