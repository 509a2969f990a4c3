// Parallel standard algorithms over view iterators: the iterators are forward (multi-type) or random access
// (single-type) and return real references, so std::for_each with an execution policy accepts them.
#include <algorithm>
#include <execution>
#include <gtest/gtest.h>
#include <iterator>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/view.hpp>
#include <vector>

namespace {

struct position {
    int x;
    int y;
};

struct velocity {
    int dx;
    int dy;
};

constexpr int count = 20000;

TEST(ParallelView, MultiTypeViewUpdatesComponents) {
    tessera::registry registry;

    for (int i{}; i < count; ++i) {
        const auto entt = registry.create();
        registry.emplace<position>(entt, i, 0);

        if (i % 4 != 0) {
            registry.emplace<velocity>(entt, 1, 2);
        }
    }

    auto view = registry.view<position, const velocity>();
    static_assert(std::forward_iterator<decltype(view.begin())>);

    std::for_each(std::execution::par, view.begin(), view.end(), [&view](const tessera::entity entt) {
        auto &pos = view.get<position>(entt);
        const auto &vel = view.get<velocity>(entt);
        pos.x += vel.dx;
        pos.y += vel.dy;
    });

    int moved{};

    for (auto [entt, pos] : registry.view<position>().each()) {
        const bool has = registry.all_of<velocity>(entt);
        EXPECT_EQ(pos.y, has ? 2 : 0);
        moved += has;
    }

    EXPECT_EQ(moved, count - count / 4);
}

TEST(ParallelView, SingleTypeViewUpdatesComponents) {
    tessera::registry registry;

    for (int i{}; i < count; ++i) {
        registry.emplace<position>(registry.create(), i, i);
    }

    auto view = registry.view<position>();
    static_assert(std::random_access_iterator<decltype(view.begin())>);

    std::for_each(std::execution::par_unseq, view.begin(), view.end(),
                  [&view](const tessera::entity entt) { view.get<position>(entt).y = -view.get<position>(entt).x; });

    for (auto [entt, pos] : view.each()) {
        EXPECT_EQ(pos.y, -pos.x);
    }
}

} // namespace
