// Tests of tessera/execution/apply.hpp: command buffers applied with the pools' work on oneTBB's threads end as one
// apply after the other, fall back to that when the registry is observed or has disabled entities, and report
// failures once every task has ended.
#include <tessera/entity/command_buffer.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/execution/apply.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "support/command_stream.hpp"

namespace {

using namespace command_stream;

TEST(execution_apply, ends_as_one_buffer_after_the_other) {
    for (std::uint64_t seed = 100u; seed < 130u; ++seed) {
        SCOPED_TRACE(seed);
        twins batch{256u, 8u, seed, 600u};
        batch.expect_as_reference(tessera::execution::apply(batch.played, batch.mine));
    }
}

// Two pools whose values meet in their move constructors, which the pools' tasks call: each waits (up to two
// seconds) for the other to arrive.
std::atomic<int> arrivals{0};
std::atomic<bool> met{false};

void meet() {
    ++arrivals;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds{2};

    while (arrivals.load() < 2 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::yield();
    }

    if (arrivals.load() >= 2) {
        met = true;
    }
}

template<int Kind>
struct meeting {
    // not empty: an empty type has no values to move
    int value{Kind};

    meeting() = default;
    meeting(meeting &&other) noexcept : value{other.value} { meet(); }
    meeting &operator=(meeting &&) noexcept = default;
    meeting(const meeting &) = delete;
    meeting &operator=(const meeting &) = delete;
    ~meeting() = default;
};

TEST(execution_apply, the_pools_play_on_several_threads) {
    tessera::registry registry;
    std::vector<tessera::command_buffer> buffers(1u);
    const auto entt = registry.create();
    buffers[0].emplace<meeting<1>>(entt);
    buffers[0].emplace<meeting<2>>(entt);
    arrivals = 0;
    met = false;
    EXPECT_EQ(tessera::execution::apply(registry, buffers), 0u);

    if (std::thread::hardware_concurrency() > 1u) {
        EXPECT_TRUE(met.load());
    }

    EXPECT_TRUE((registry.all_of<meeting<1>, meeting<2>>(entt)));
}

TEST(execution_apply, elements_projected_to_their_buffers) {
    struct slot {
        tessera::command_buffer commands;
        int other{};
    };

    tessera::registry registry;
    std::vector<slot> slots(3u);
    const auto entt = registry.create();

    for (int pos{}; pos < 3; ++pos) {
        slots[static_cast<std::size_t>(pos)].commands.emplace_or_replace<position>(entt, pos);
    }

    // walked backwards: the first slot applies last
    const auto of = [](slot &each) -> tessera::command_buffer & { return each.commands; };
    EXPECT_EQ(tessera::execution::apply(registry, slots.rbegin(), slots.rend(), of), 0u);
    EXPECT_EQ(registry.get<position>(entt).x, 0);
}

TEST(execution_apply, listeners_get_their_signals_in_order) {
    tessera::registry registry;
    std::string seen;
    registry.on_construct<position>()
        .connect<[](std::string &out, tessera::registry &, tessera::entity) { out += 'p'; }>(seen);
    registry.on_construct<velocity>()
        .connect<[](std::string &out, tessera::registry &, tessera::entity) { out += 'v'; }>(seen);
    std::vector<tessera::command_buffer> buffers(2u);
    const auto first = registry.create();
    const auto second = registry.create();
    buffers[0].emplace<position>(first, 1);
    buffers[0].emplace<velocity>(first, 1);
    buffers[1].emplace<position>(second, 1);
    buffers[1].emplace<velocity>(second, 1);

    EXPECT_EQ(tessera::execution::apply(registry, buffers), 0u);
    // one buffer after the other, one command after the other
    EXPECT_EQ(seen, "pvpv");
}

TEST(execution_apply, disabled_entities_follow_their_state) {
    tessera::registry registry;
    const auto entt = registry.create();
    registry.disable(entt);
    std::vector<tessera::command_buffer> buffers(2u);
    buffers[0].emplace<position>(entt, 1);
    buffers[1].emplace<velocity>(entt, 1);

    EXPECT_EQ(tessera::execution::apply(registry, buffers), 0u);
    EXPECT_FALSE(registry.storage<position>().enabled(entt));
    EXPECT_FALSE(registry.storage<velocity>().enabled(entt));
}

TEST(execution_apply, a_failure_reaches_the_caller_after_every_pool) {
    tessera::registry registry;
    const auto known = populate(registry, 32u);
    static_cast<void>(registry.storage<brittle>());
    std::vector<tessera::command_buffer> buffers(2u);
    // recorded without moving: the value is built in the buffer
    buffers[0].emplace<brittle>(known[1], 1);
    buffers[0].emplace<brittle>(known[2], -1);
    buffers[0].emplace<brittle>(known[3], 3);
    buffers[1].destroy(known[4]);
    buffers[1].emplace<position>(known[5], 50);

    brittle::armed = true;
    EXPECT_THROW(tessera::execution::apply(registry, buffers), std::runtime_error);
    brittle::armed = false;
    EXPECT_TRUE(registry.all_of<brittle>(known[1]));
    EXPECT_FALSE(registry.all_of<brittle>(known[3]));
    EXPECT_FALSE(registry.valid(known[4]));
    EXPECT_EQ(registry.get<position>(known[5]).x, 50);
    EXPECT_TRUE(buffers[0].empty());
    EXPECT_TRUE(buffers[1].empty());
}

} // namespace
