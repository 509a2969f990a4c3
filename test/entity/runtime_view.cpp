// Tests of basic_runtime_view: storages chosen at run time, the leading storage, exclusions, iteration in both
// directions and allocator support (docs/views.md, runtime views).
#include <algorithm>
#include <gtest/gtest.h>
#include <iterator>
#include <memory>
#include <tessera/core/hashed_string.hpp>
#include <tessera/core/type_info.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/runtime_view.hpp>
#include <tessera/entity/view.hpp>
#include <type_traits>
#include <utility>
#include <vector>

namespace {
namespace unit_entity_runtime_view {

namespace {

struct position {
    int x;
};

struct velocity {
    int dx;
};

struct tag {};

struct stable {
    static constexpr bool in_place_delete = true;
    int value;
};

using tessera::entity;

std::vector<entity> sorted(std::vector<entity> elem) {
    std::sort(elem.begin(), elem.end());
    return elem;
}

TEST(RuntimeView, Types) {
    static_assert(std::is_same_v<tessera::runtime_view, tessera::basic_runtime_view<tessera::sparse_set>>);
    static_assert(std::is_same_v<tessera::const_runtime_view, tessera::basic_runtime_view<const tessera::sparse_set>>);
    static_assert(std::bidirectional_iterator<tessera::runtime_view::iterator>);
    static_assert(std::is_same_v<std::iter_reference_t<tessera::runtime_view::iterator>, const entity &>);
    static_assert(std::is_same_v<tessera::runtime_view::common_type, tessera::sparse_set>);
}

TEST(RuntimeView, Empty) {
    tessera::runtime_view view{};
    EXPECT_FALSE(view);
    EXPECT_EQ(view.size_hint(), 0u);
    EXPECT_EQ(view.begin(), view.end());
    EXPECT_FALSE(view.contains(entity{0}));
    view.each([](const entity) { FAIL(); });

    // exclusions only: the view is set up but iterates nothing
    tessera::storage<tag> pool;
    pool.emplace(entity{1});
    view.exclude(pool);
    EXPECT_TRUE(view);
    EXPECT_EQ(view.begin(), view.end());
    EXPECT_FALSE(view.contains(entity{0}));

    view.clear();
    EXPECT_FALSE(view);
}

TEST(RuntimeView, MatchesTheEquivalentView) {
    tessera::registry registry;
    std::vector<entity> entities(12u);
    registry.create(entities.begin(), entities.end());

    for (std::size_t pos{}; pos < entities.size(); ++pos) {
        registry.emplace<position>(entities[pos], 0);

        if (pos % 2u == 0u) {
            registry.emplace<velocity>(entities[pos], 0);
        }

        if (pos % 3u == 0u) {
            registry.emplace<tag>(entities[pos]);
        }
    }

    tessera::runtime_view view{};
    view.iterate(registry.storage<position>()).iterate(registry.storage<velocity>()).exclude(registry.storage<tag>());
    auto reference = registry.view<position, velocity>(tessera::exclude<tag>);

    EXPECT_TRUE(view);
    EXPECT_EQ(view.size_hint(), registry.storage<velocity>().size());
    EXPECT_EQ(view.size_hint(), reference.size_hint());

    const std::vector<entity> expected{reference.begin(), reference.end()};
    // same leading storage, so the same order
    EXPECT_EQ((std::vector<entity>{view.begin(), view.end()}), expected);

    std::vector<entity> seen;
    view.each([&](const entity entt) { seen.push_back(entt); });
    EXPECT_EQ(seen, expected);

    for (auto entt : entities) {
        EXPECT_EQ(view.contains(entt), reference.contains(entt));
    }

    // bidirectional: walking back from end() gives the reverse order
    std::vector<entity> back;
    for (auto it = view.end(); it != view.begin();) {
        back.push_back(*--it);
    }
    std::reverse(back.begin(), back.end());
    EXPECT_EQ(back, expected);

    auto it = view.begin();
    EXPECT_EQ(*it++, expected[0]);
    EXPECT_EQ(*it--, expected[1]);
    EXPECT_EQ(it, view.begin());
    EXPECT_EQ(it.operator->(), &*it);
}

TEST(RuntimeView, LeaderIsTheSmallestStorage) {
    tessera::registry registry;
    std::vector<entity> entities(4u);
    registry.create(entities.begin(), entities.end());

    for (auto entt : entities) {
        registry.emplace<position>(entt, 0);
    }

    registry.emplace<velocity>(entities[2], 0);
    registry.emplace<velocity>(entities[0], 0);

    tessera::runtime_view view{};
    view.iterate(registry.storage<position>());
    EXPECT_EQ(view.size_hint(), 4u);
    view.iterate(registry.storage<velocity>());
    EXPECT_EQ(view.size_hint(), 2u);
    // velocity's order: from its last packed position down
    EXPECT_EQ((std::vector<entity>{view.begin(), view.end()}), (std::vector<entity>{entities[0], entities[2]}));

    // a storage of the same size does not take the lead
    tessera::storage<tag> same;
    same.emplace(entities[2]);
    same.emplace(entities[0]);
    view.iterate(same);
    EXPECT_EQ((std::vector<entity>{view.begin(), view.end()}), (std::vector<entity>{entities[0], entities[2]}));
}

TEST(RuntimeView, TypesKnownAtRunTime) {
    using namespace tessera::literals;
    tessera::registry registry;
    const auto e0 = registry.create();
    const auto e1 = registry.create();
    registry.emplace<position>(e0, 0);
    registry.emplace<position>(e1, 0);
    registry.storage<int>("named"_hs).emplace(e1, 3);

    tessera::runtime_view view{};
    view.iterate(*registry.storage(tessera::type_hash<position>::value())).iterate(*registry.storage("named"_hs));
    EXPECT_EQ((std::vector<entity>{view.begin(), view.end()}), (std::vector<entity>{e1}));

    const auto &cregistry = registry;
    tessera::const_runtime_view cview{};
    cview.iterate(*cregistry.storage(tessera::type_hash<position>::value())).exclude(*cregistry.storage("named"_hs));
    EXPECT_EQ((std::vector<entity>{cview.begin(), cview.end()}), (std::vector<entity>{e0}));
}

TEST(RuntimeView, EntityAndInPlaceStorages) {
    tessera::registry registry;
    std::vector<entity> entities(5u);
    registry.create(entities.begin(), entities.end());
    registry.emplace<tag>(entities[1]);
    registry.destroy(entities[3]);

    // exclude-only through the entity storage: released identifiers are not in use
    tessera::runtime_view view{};
    view.iterate(registry.storage<entity>()).exclude(registry.storage<tag>());
    EXPECT_EQ(view.size_hint(), 4u);
    EXPECT_EQ(sorted({view.begin(), view.end()}), (std::vector<entity>{entities[0], entities[2], entities[4]}));
    EXPECT_FALSE(view.contains(entities[3]));

    // an in-place storage alone: holes are skipped
    for (auto entt : registry.view<entity>()) {
        registry.emplace<stable>(entt, 0);
    }

    registry.erase<stable>(entities[2]);
    tessera::runtime_view holes{};
    holes.iterate(registry.storage<stable>());
    EXPECT_EQ(holes.size_hint(), 4u);
    EXPECT_EQ(sorted({holes.begin(), holes.end()}), (std::vector<entity>{entities[0], entities[1], entities[4]}));
    std::vector<entity> seen;
    holes.each([&](const entity entt) { seen.push_back(entt); });
    EXPECT_EQ(sorted(seen), (std::vector<entity>{entities[0], entities[1], entities[4]}));

    // the entity storage as a second iterated storage keeps only identifiers in use
    tessera::storage<tag> stale;
    stale.emplace(entities[3]);
    stale.emplace(entities[4]);
    tessera::runtime_view inuse{};
    inuse.iterate(stale).iterate(registry.storage<entity>());
    EXPECT_EQ((std::vector<entity>{inuse.begin(), inuse.end()}), (std::vector<entity>{entities[4]}));
}

TEST(RuntimeView, RemovingTheCurrentEntity) {
    tessera::registry registry;
    std::vector<entity> entities(6u);
    registry.create(entities.begin(), entities.end());

    for (auto entt : entities) {
        registry.emplace<position>(entt, 0);
        registry.emplace<velocity>(entt, 0);
    }

    tessera::runtime_view view{};
    view.iterate(registry.storage<position>()).iterate(registry.storage<velocity>());
    std::vector<entity> seen;
    view.each([&](const entity entt) {
        seen.push_back(entt);
        registry.destroy(entt);
    });
    EXPECT_EQ(sorted(seen), entities);
}

TEST(RuntimeView, CopyMoveSwapAndAllocator) {
    tessera::storage<position> pos;
    tessera::storage<velocity> vel;
    pos.emplace(entity{1}, 0);
    pos.emplace(entity{2}, 0);
    vel.emplace(entity{2}, 0);

    const std::allocator<tessera::sparse_set *> allocator{};
    tessera::runtime_view view{allocator};
    EXPECT_EQ(view.get_allocator(), allocator);
    view.iterate(pos).iterate(vel);

    tessera::runtime_view copy{view};
    EXPECT_EQ((std::vector<entity>{copy.begin(), copy.end()}), (std::vector<entity>{entity{2}}));
    tessera::runtime_view copy_alloc{view, allocator};
    EXPECT_TRUE(copy_alloc.contains(entity{2}));

    tessera::runtime_view moved{std::move(copy)};
    EXPECT_TRUE(moved.contains(entity{2}));
    tessera::runtime_view moved_alloc{std::move(moved), allocator};
    EXPECT_TRUE(moved_alloc.contains(entity{2}));

    tessera::runtime_view other{};
    other.iterate(pos);
    other.swap(moved_alloc);
    EXPECT_EQ(other.size_hint(), 1u);
    EXPECT_EQ(moved_alloc.size_hint(), 2u);

    moved_alloc = other;
    EXPECT_EQ(moved_alloc.size_hint(), 1u);
    other.clear();
    moved_alloc = std::move(other);
    EXPECT_FALSE(moved_alloc);
}

} // namespace

} // namespace unit_entity_runtime_view
} // namespace
