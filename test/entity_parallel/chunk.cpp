// Chunks of views and groups (tessera/entity/chunk.hpp) under parallel schedulers: std::for_each with
// std::execution::par (libstdc++ runs it on oneTBB) and tbb::parallel_for over the chunk indices. Every entity is
// visited once and the writes are visible afterwards.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <execution>
#include <gtest/gtest.h>
#include <iterator>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tessera/entity/chunk.hpp>
#include <tessera/entity/group.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/view.hpp>
#include <vector>

namespace {

struct position {
    int x;
};

struct velocity {
    int dx;
};

struct frozen {};

constexpr int count = 40000;

void populate(tessera::registry &registry) {
    for (int index{}; index < count; ++index) {
        const auto entt = registry.create();
        registry.emplace<position>(entt, 0);

        if (index % 4 != 0) {
            registry.emplace<velocity>(entt, index);
        }

        if (index % 10 == 0) {
            registry.emplace<frozen>(entt);
        }
    }
}

// every entity with a velocity and no frozen moved exactly once
void expect_moved_once(tessera::registry &registry) {
    std::size_t moved{};

    for (auto [entt, pos] : registry.view<position>().each()) {
        const auto *vel = registry.try_get<velocity>(entt);
        const bool moves = vel && !registry.all_of<frozen>(entt);
        EXPECT_EQ(pos.x, moves ? vel->dx : 0);
        moved += moves;
    }

    EXPECT_EQ(moved, static_cast<std::size_t>(count - count / 4 - count / 20));
}

TEST(ParallelChunks, StdForEachParOverViewChunks) {
    tessera::registry registry;
    populate(registry);
    const auto view = registry.view<position, const velocity>(tessera::exclude<frozen>);
    const auto range = view.chunks(512u);
    static_assert(std::random_access_iterator<decltype(range.begin())>);

    std::for_each(std::execution::par, range.begin(), range.end(),
                  [](const auto chunk) { chunk.each([](position &pos, const velocity &vel) { pos.x += vel.dx; }); });

    expect_moved_once(registry);
}

TEST(ParallelChunks, StdForEachParOverGroupChunks) {
    tessera::registry registry;
    const auto group = registry.group<velocity>(tessera::get<position>, tessera::exclude<frozen>);
    populate(registry);
    const auto range = group.chunks(1000u);
    std::atomic<std::size_t> visited{};

    std::for_each(std::execution::par, range.begin(), range.end(), [&visited](const auto chunk) {
        chunk.each([&visited](const velocity &vel, position &pos) {
            pos.x += vel.dx;
            visited.fetch_add(1u, std::memory_order_relaxed);
        });
    });

    EXPECT_EQ(visited.load(), group.size());
    expect_moved_once(registry);
}

TEST(ParallelChunks, TbbParallelForOverChunkIndices) {
    tessera::registry registry;
    populate(registry);
    const auto group = registry.group<>(tessera::get<position, const velocity>, tessera::exclude<frozen>);
    const auto range = group.chunks(300u);

    tbb::parallel_for(tbb::blocked_range<std::size_t>{0u, range.size()},
                      [&range](const tbb::blocked_range<std::size_t> &part) {
                          for (auto index = part.begin(); index != part.end(); ++index) {
                              range[index].each([](position &pos, const velocity &vel) { pos.x += vel.dx; });
                          }
                      });

    expect_moved_once(registry);
}

TEST(ParallelChunks, ResultsRecordedPerChunkAreDeterministic) {
    tessera::registry registry;
    populate(registry);
    const auto view = registry.view<const velocity>(tessera::exclude<frozen>);
    const auto range = view.chunks(700u);
    std::vector<std::vector<tessera::entity>> recorded(range.size());

    std::for_each(std::execution::par, range.begin(), range.end(), [&recorded](const auto chunk) {
        chunk.each([&](const tessera::entity entt, const velocity &) { recorded[chunk.index()].push_back(entt); });
    });

    // applied in chunk order from the last chunk to the first: the order of each(func)
    std::vector<tessera::entity> merged{};

    for (auto it = recorded.rbegin(); it != recorded.rend(); ++it) {
        merged.insert(merged.end(), it->begin(), it->end());
    }

    std::vector<tessera::entity> sequential{};
    view.each([&sequential](const tessera::entity entt, const velocity &) { sequential.push_back(entt); });
    EXPECT_EQ(merged, sequential);
}

} // namespace
