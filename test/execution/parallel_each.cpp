// Tests of parallel_each.hpp: every entity visited once from oneTBB's threads, every callback form, views and
// groups, writes visible after the call, exceptions reaching the caller.
#include <atomic>
#include <cstddef>
#include <gtest/gtest.h>
#include <mutex>
#include <set>
#include <stdexcept>
#include <tessera/entity/group.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/view.hpp>
#include <tessera/execution/parallel_each.hpp>
#include <thread>
#include <vector>

namespace {

struct position {
    int x;
};

struct velocity {
    int dx;
};

struct marker {};

struct skip {};

using entity = tessera::entity;

// `count` entities: every one has a position, two in three a velocity, one in four a marker, one in five skip
void populate(tessera::registry &registry, const int count) {
    for (int index{}; index < count; ++index) {
        const auto entt = registry.create();
        registry.emplace<position>(entt, index);

        if (index % 3 != 0) {
            registry.emplace<velocity>(entt, 2);
        }

        if (index % 4 == 0) {
            registry.emplace<marker>(entt);
        }

        if (index % 5 == 0) {
            registry.emplace<skip>(entt);
        }
    }
}

// one counter per entity index: each visit adds one
struct visits {
    explicit visits(const std::size_t count) : seen(count) {}

    void add(const entity entt) { seen[static_cast<std::size_t>(tessera::to_entity(entt))].fetch_add(1u); }

    // true if exactly the entities each(func) visits were visited, once each
    template<typename View>
    [[nodiscard]] bool matches(const View &view) const {
        std::vector<unsigned> expected(seen.size());
        view.each([&expected](const entity entt, auto &&...) { ++expected[tessera::to_entity(entt)]; });

        for (std::size_t pos{}; pos < seen.size(); ++pos) {
            if (seen[pos].load() != expected[pos]) {
                return false;
            }
        }

        return true;
    }

    std::vector<std::atomic<unsigned>> seen;
};

TEST(ParallelEach, EveryEntityOnceForViews) {
    tessera::registry registry;
    populate(registry, 50000);

    const auto multi = registry.view<position, velocity>(tessera::exclude<skip>);
    const auto single = registry.view<velocity>();

    for (const std::size_t size : {std::size_t{1u}, std::size_t{17u}, std::size_t{1024u}, std::size_t{100000u}}) {
        visits multi_seen{50000u};
        tessera::execution::parallel_each(multi, size,
                                          [&](const entity entt, position &, velocity &) { multi_seen.add(entt); });
        EXPECT_TRUE(multi_seen.matches(multi)) << "chunk size " << size;

        visits single_seen{50000u};
        tessera::execution::parallel_each(single, size, [&](const entity entt, velocity &) { single_seen.add(entt); });
        EXPECT_TRUE(single_seen.matches(single)) << "chunk size " << size;
    }
}

TEST(ParallelEach, EveryEntityOnceForGroups) {
    tessera::registry registry;
    const auto owning = registry.group<velocity>(tessera::get<position>, tessera::exclude<skip>);
    const auto non_owning = registry.group<>(tessera::get<position, marker>);
    populate(registry, 30000);

    visits owning_seen{30000u};
    tessera::execution::parallel_each(owning,
                                      [&](const entity entt, velocity &, position &) { owning_seen.add(entt); });
    EXPECT_TRUE(owning_seen.matches(owning));

    visits non_owning_seen{30000u};
    tessera::execution::parallel_each(non_owning, 100u,
                                      [&](const entity entt, position &) { non_owning_seen.add(entt); });
    EXPECT_TRUE(non_owning_seen.matches(non_owning));
}

TEST(ParallelEach, EveryCallbackForm) {
    tessera::registry registry;
    populate(registry, 10000);
    const auto view = registry.view<position, marker>();
    std::atomic<int> with{};
    std::atomic<int> without{};
    std::atomic<int> empty_only{};

    tessera::execution::parallel_each(view, 64u, [&with](const entity, const position &) { ++with; });
    tessera::execution::parallel_each(view, 64u, [&without](const position &) { ++without; });
    tessera::execution::parallel_each(registry.view<marker>(), 64u, [&empty_only](const entity) { ++empty_only; });
    tessera::execution::parallel_each(registry.view<marker>(), 64u, [&empty_only]() { ++empty_only; });

    EXPECT_EQ(with.load(), 2500);
    EXPECT_EQ(without.load(), 2500);
    EXPECT_EQ(empty_only.load(), 5000);
}

TEST(ParallelEach, WritesVisibleAfterReturn) {
    tessera::registry registry;
    populate(registry, 200000);

    // a big view, counts and sums checked afterwards
    tessera::execution::parallel_each(registry.view<position, const velocity>(),
                                      [](position &pos, const velocity &vel) { pos.x += vel.dx; });

    long long sum{};
    std::size_t moved{};

    for (auto [entt, pos] : registry.view<position>().each()) {
        const auto index = static_cast<int>(tessera::to_entity(entt));
        const bool has = registry.all_of<velocity>(entt);
        EXPECT_EQ(pos.x, index + (has ? 2 : 0));
        sum += pos.x;
        moved += has;
    }

    EXPECT_EQ(moved, 200000u - 66667u);
    EXPECT_EQ(sum, 199999LL * 200000LL / 2LL + 2LL * static_cast<long long>(moved));
}

TEST(ParallelEach, RunsOnSeveralThreadsWhenThereAreSome) {
    tessera::registry registry;
    populate(registry, 100000);
    std::mutex guard;
    std::set<std::thread::id> threads;

    tessera::execution::parallel_each(registry.view<position>(), 256u, [&](const position &) {
        const std::lock_guard lock{guard};
        threads.insert(std::this_thread::get_id());
    });

    EXPECT_GE(threads.size(), 1u);
    EXPECT_LE(threads.size(), static_cast<std::size_t>(std::max(1u, std::thread::hardware_concurrency())));
}

TEST(ParallelEach, ExceptionsReachTheCaller) {
    tessera::registry registry;
    populate(registry, 20000);
    std::atomic<int> calls{};

    EXPECT_THROW(tessera::execution::parallel_each(registry.view<position>(), 128u,
                                                   [&calls](const entity entt, const position &) {
                                                       ++calls;

                                                       if (tessera::to_entity(entt) == 12345u) {
                                                           throw std::runtime_error{"stop"};
                                                       }
                                                   }),
                 std::runtime_error);

    // the pass stopped: nothing is left running, and the registry is usable
    const int after = calls.load();
    EXPECT_GE(after, 1);
    EXPECT_LE(after, 20000);
    EXPECT_EQ(calls.load(), after);
    registry.destroy(registry.view<position>().front());
}

TEST(ParallelEach, EmptyAndInvalidViews) {
    tessera::registry registry;
    int calls{};
    tessera::execution::parallel_each(registry.view<position>(), [&calls](const position &) { ++calls; });
    tessera::execution::parallel_each(decltype(registry.view<position, velocity>()){},
                                      [&calls](const position &, const velocity &) { ++calls; });
    tessera::execution::parallel_each(decltype(registry.group<>(tessera::get<position, velocity>)){},
                                      [&calls](const position &, const velocity &) { ++calls; });
    EXPECT_EQ(calls, 0);
}

} // namespace
