// Tests of basic_view: single-type and multi-type views, exclusions, storage injection, packs, constness and
// the rules for changing storages while iterating (docs/views.md, docs/thread_safety.md).
#include "support/misuse.hpp"
#include "support/mixed_pages.hpp"
#include <algorithm>
#include <gtest/gtest.h>
#include <iterator>
#include <tessera/core/hashed_string.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/view.hpp>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {
namespace unit_entity_view {

namespace {

struct position {
    int x;
    int y;
};

struct velocity {
    int dx;
    int dy;
};

struct tag {};

struct stable {
    static constexpr bool in_place_delete = true;
    int value;
};

using tessera::entity;
using tessera::exclude;
using tessera::exclude_t;
using tessera::get_t;

// Compile-time rejection is checked through concepts: a requires expression has to depend on a template
// parameter for an invalid member call to yield false instead of an error.
template<typename View>
concept has_size = requires(const View &view) {
    view.size();
};

template<typename View>
concept has_size_hint = requires(const View &view) {
    view.size_hint();
};

template<typename View>
concept has_empty = requires(const View &view) {
    view.empty();
};

template<typename View>
concept has_rbegin = requires(const View &view) {
    view.rbegin();
};

template<typename View>
concept has_rend = requires(const View &view) {
    view.rend();
};

template<typename View>
std::vector<entity> collect(const View &view) {
    return {view.begin(), view.end()};
}

template<typename Range>
std::vector<entity> reversed(Range range) {
    std::reverse(range.begin(), range.end());
    return range;
}

// --- single-type views ---------------------------------------------------------------------------------------

TEST(SingleView, SizeOrderAndLookup) {
    tessera::registry registry;
    const auto e0 = registry.create();
    const auto e1 = registry.create();
    const auto e2 = registry.create();
    registry.emplace<position>(e0, 0, 0);
    registry.emplace<position>(e1, 1, 1);
    registry.emplace<position>(e2, 2, 2);

    auto view = registry.view<position>();
    using view_type = decltype(view);
    static_assert(std::is_same_v<view_type, tessera::view<get_t<position>>>);
    static_assert(std::random_access_iterator<view_type::iterator>);
    static_assert(std::is_same_v<std::iter_reference_t<view_type::iterator>, const entity &>);

    EXPECT_TRUE(view);
    EXPECT_EQ(view.size(), 3u);
    EXPECT_FALSE(view.empty());
    EXPECT_EQ(view.handle(), &registry.storage<position>());
    EXPECT_EQ(view.storage(), &registry.storage<position>());
    EXPECT_EQ(view.storage<position>(), &registry.storage<position>());
    EXPECT_EQ(view.storage<0u>(), &registry.storage<position>());
    EXPECT_EQ(view->size(), 3u);

    // forward iteration goes from the last packed position down; reverse iteration is insertion order
    EXPECT_EQ(collect(view), (std::vector<entity>{e2, e1, e0}));
    EXPECT_EQ((std::vector<entity>{view.rbegin(), view.rend()}), (std::vector<entity>{e0, e1, e2}));
    EXPECT_EQ(view.front(), e2);
    EXPECT_EQ(view.back(), e0);
    EXPECT_EQ(*view.find(e1), e1);
    EXPECT_EQ(std::next(view.find(e1)), view.find(e0));
    EXPECT_TRUE(view.contains(e0));

    const auto other = registry.create();
    EXPECT_FALSE(view.contains(other));
    EXPECT_EQ(view.find(other), view.end());

    static_assert(std::is_same_v<decltype(view.get<position>(e1)), position &>);
    static_assert(std::is_same_v<decltype(view.get<const position>(e1)), position &>);
    static_assert(std::is_same_v<decltype(view.get<0u>(e1)), position &>);
    static_assert(std::is_same_v<decltype(view.get(e1)), std::tuple<position &>>);
    static_assert(std::is_same_v<decltype(view[e1]), position &>);
    EXPECT_EQ(view.get<position>(e1).x, 1);
    EXPECT_EQ(view[e2].y, 2);
    auto [pos] = view.get(e0);
    EXPECT_EQ(&pos, &registry.get<position>(e0));
    EXPECT_MISUSE([[maybe_unused]] auto &unused = view.get<position>(other), "not in the set");
}

TEST(SingleView, Each) {
    tessera::registry registry;
    const auto e0 = registry.create();
    const auto e1 = registry.create();
    registry.emplace<position>(e0, 1, 2);
    registry.emplace<position>(e1, 3, 4);

    auto view = registry.view<position>();
    std::vector<entity> seen;
    view.each([&](const entity entt, position &pos) {
        seen.push_back(entt);
        pos.x *= 10;
    });
    EXPECT_EQ(seen, (std::vector<entity>{e1, e0}));

    int sum{};
    view.each([&](const position &pos) { sum += pos.x; });
    EXPECT_EQ(sum, 40);

    seen.clear();
    for (auto [entt, pos] : view.each()) {
        static_assert(std::is_same_v<decltype(pos), position &>);
        seen.push_back(entt);
        EXPECT_EQ(&pos, &registry.get<position>(entt));
    }
    EXPECT_EQ(seen, (std::vector<entity>{e1, e0}));
}

TEST(SingleView, DefaultAndInjection) {
    tessera::view<get_t<position>> view{};
    EXPECT_FALSE(view);
    EXPECT_EQ(view.size(), 0u);
    EXPECT_TRUE(view.empty());
    EXPECT_EQ(view.begin(), view.end());
    EXPECT_EQ(view.rbegin(), view.rend());
    EXPECT_EQ(view.front(), entity{tessera::null});
    EXPECT_EQ(view.back(), entity{tessera::null});
    EXPECT_EQ(view.handle(), nullptr);
    EXPECT_EQ(view.storage(), nullptr);
    EXPECT_FALSE(view.contains(entity{0}));
    EXPECT_EQ(view.each().begin(), view.each().end());
    view.each([](auto &&...) { FAIL(); });

    tessera::storage_for_t<position> pool;
    pool.emplace(entity{3}, 1, 1);
    view.storage(pool);
    EXPECT_TRUE(view);
    EXPECT_EQ(view.size(), 1u);
    EXPECT_EQ(view.front(), entity{3});

    tessera::storage_for_t<position> second;
    view.storage<0u>(second);
    EXPECT_TRUE(view.empty());
}

TEST(SingleView, EmptyType) {
    tessera::registry registry;
    const auto e0 = registry.create();
    registry.emplace<tag>(e0);

    auto view = registry.view<tag>();
    static_assert(std::is_void_v<decltype(view.get<tag>(e0))>);
    static_assert(std::is_same_v<decltype(view.get(e0)), std::tuple<>>);

    int calls{};
    view.each([&]() { ++calls; });
    view.each([&](const entity entt) { calls += (entt == e0) ? 10 : 0; });
    EXPECT_EQ(calls, 11);

    for (auto elem : view.each()) {
        static_assert(std::is_same_v<decltype(elem), std::tuple<entity>>);
        EXPECT_EQ(std::get<0>(elem), e0);
    }
}

TEST(SingleView, InPlaceStorage) {
    tessera::registry registry;
    std::vector<entity> entities(4u);
    registry.create(entities.begin(), entities.end());

    for (int i{}; i < 4; ++i) {
        registry.emplace<stable>(entities[static_cast<std::size_t>(i)], i);
    }

    auto view = registry.view<stable>();
    using view_type = decltype(view);
    static_assert(has_size_hint<view_type>);
    static_assert(!has_size<view_type>);
    static_assert(!has_empty<view_type>);
    static_assert(!has_rbegin<view_type>);
    static_assert(!has_rend<view_type>);
    static_assert(std::forward_iterator<view_type::iterator>);

    const auto *addr = &registry.get<stable>(entities[0]);
    registry.erase<stable>(entities[3]);
    registry.erase<stable>(entities[1]);

    EXPECT_EQ(view.size_hint(), 4u);
    EXPECT_EQ(collect(view), (std::vector<entity>{entities[2], entities[0]}));
    EXPECT_EQ(view.front(), entities[2]);
    EXPECT_EQ(view.back(), entities[0]);
    EXPECT_FALSE(view.contains(entities[1]));
    EXPECT_EQ(view.find(entities[3]), view.end());
    EXPECT_EQ(*view.find(entities[0]), entities[0]);

    std::vector<entity> seen;
    view.each([&](const entity entt, const stable &) { seen.push_back(entt); });
    EXPECT_EQ(seen, (std::vector<entity>{entities[2], entities[0]}));

    seen.clear();
    for (auto [entt, elem] : view.each()) {
        seen.push_back(entt);
        EXPECT_EQ(elem.value, entt == entities[0] ? 0 : 2);
    }
    EXPECT_EQ(seen, (std::vector<entity>{entities[2], entities[0]}));
    EXPECT_EQ(addr, &registry.get<stable>(entities[0]));

    // removing other entities is allowed when the leading storage deletes in place
    seen.clear();
    view.each([&](const entity entt, stable &) {
        seen.push_back(entt);
        registry.remove<stable>(entities[0]);
    });
    EXPECT_EQ(seen, (std::vector<entity>{entities[2]}));
}

TEST(SingleView, EntityStorage) {
    tessera::registry registry;
    const auto e0 = registry.create();
    const auto e1 = registry.create();
    const auto e2 = registry.create();
    registry.destroy(e1);

    auto view = registry.view<entity>();
    static_assert(std::is_same_v<decltype(view), tessera::view<get_t<entity>>>);
    EXPECT_EQ(view.size(), 2u);
    EXPECT_FALSE(view.contains(e1));
    EXPECT_TRUE(view.contains(e2));
    EXPECT_EQ(collect(view), (std::vector<entity>{e2, e0}));
    EXPECT_EQ(view.back(), e0);

    std::vector<entity> seen;
    view.each([&](const entity entt) { seen.push_back(entt); });
    EXPECT_EQ(seen, (std::vector<entity>{e2, e0}));

    seen.clear();
    for (auto [entt] : view.each()) {
        seen.push_back(entt);
    }
    EXPECT_EQ(seen, (std::vector<entity>{e2, e0}));
}

TEST(SingleView, ReleaseWhileIteratingEverything) {
    tessera::registry registry;
    std::vector<entity> entities(6u);
    registry.create(entities.begin(), entities.end());
    registry.emplace<position>(entities[1], 0, 0);
    registry.emplace<position>(entities[4], 0, 0);

    std::vector<entity> seen;

    for (auto entt : registry.view<entity>()) {
        seen.push_back(entt);

        if (registry.orphan(entt)) {
            registry.release(entt);
        }
    }

    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(seen, entities);
    EXPECT_EQ(registry.view<entity>().size(), 2u);
    EXPECT_TRUE(registry.valid(entities[1]));
    EXPECT_TRUE(registry.valid(entities[4]));
    EXPECT_FALSE(registry.valid(entities[0]));

    seen.clear();
    registry.view<entity>().each([&](const entity entt) {
        seen.push_back(entt);
        registry.destroy(entt);
    });
    EXPECT_EQ(seen.size(), 2u);
    EXPECT_TRUE(registry.view<entity>().empty());
}

// --- multi-type views ----------------------------------------------------------------------------------------

TEST(MultiView, LeadsWithTheSmallestPool) {
    tessera::registry registry;
    std::vector<entity> entities(5u);
    registry.create(entities.begin(), entities.end());

    for (auto entt : entities) {
        registry.emplace<position>(entt, 0, 0);
    }

    registry.emplace<velocity>(entities[3], 1, 1);
    registry.emplace<velocity>(entities[1], 2, 2);

    auto view = registry.view<position, velocity>();
    using view_type = decltype(view);
    static_assert(std::forward_iterator<view_type::iterator>);
    static_assert(std::is_same_v<std::iter_reference_t<view_type::iterator>, const entity &>);
    static_assert(!has_size<view_type>);
    static_assert(!has_rbegin<view_type>);

    EXPECT_TRUE(view);
    EXPECT_EQ(view.handle(), &registry.storage<velocity>());
    EXPECT_EQ(view.size_hint(), 2u);
    // velocity leads: its order, from the last packed position down
    EXPECT_EQ(collect(view), (std::vector<entity>{entities[1], entities[3]}));
    EXPECT_EQ(view.front(), entities[1]);
    EXPECT_EQ(view.back(), entities[3]);

    view.use<position>();
    EXPECT_EQ(view.handle(), &registry.storage<position>());
    EXPECT_EQ(view.size_hint(), 5u);
    EXPECT_EQ(collect(view), (std::vector<entity>{entities[3], entities[1]}));

    view.use<1u>();
    EXPECT_EQ(view.handle(), &registry.storage<velocity>());
    view.use<0u>();
    view.refresh();
    EXPECT_EQ(view.handle(), &registry.storage<velocity>());

    // the order of the types does not matter
    EXPECT_EQ((registry.view<velocity, position>().handle()), &registry.storage<velocity>());

    // ties go to the earliest storage
    registry.emplace<velocity>(entities[0], 0, 0);
    registry.emplace<velocity>(entities[2], 0, 0);
    registry.emplace<velocity>(entities[4], 0, 0);
    EXPECT_EQ((registry.view<position, velocity>().handle()), &registry.storage<position>());
    EXPECT_EQ((registry.view<velocity, position>().handle()), &registry.storage<velocity>());
}

TEST(MultiView, SizeHintIsAnUpperBound) {
    tessera::registry registry;

    for (int i{}; i < 10; ++i) {
        const auto entt = registry.create();
        registry.emplace<position>(entt, i, i);

        if (i % 3 == 0) {
            registry.emplace<velocity>(entt, i, i);
        }
    }

    auto view = registry.view<position, velocity>();
    const auto count = static_cast<std::size_t>(std::distance(view.begin(), view.end()));
    EXPECT_EQ(count, 4u);
    EXPECT_GE(view.size_hint(), count);
}

TEST(MultiView, GetAndConstness) {
    tessera::registry registry;
    const auto entt = registry.create();
    registry.emplace<position>(entt, 1, 2);
    registry.emplace<velocity>(entt, 3, 4);
    registry.emplace<tag>(entt);

    auto view = registry.view<position, const velocity, tag>();
    static_assert(std::is_same_v<decltype(view), tessera::view<get_t<position, const velocity, tag>>>);
    static_assert(std::is_same_v<decltype(view.get<position>(entt)), position &>);
    static_assert(std::is_same_v<decltype(view.get<const position>(entt)), position &>);
    static_assert(std::is_same_v<decltype(view.get<velocity>(entt)), const velocity &>);
    static_assert(std::is_same_v<decltype(view.get<const velocity>(entt)), const velocity &>);
    static_assert(!std::is_convertible_v<decltype(view.get<velocity>(entt)), velocity &>);
    static_assert(std::is_void_v<decltype(view.get<tag>(entt))>);
    static_assert(
        std::is_same_v<decltype(view.get<position, velocity>(entt)), std::tuple<position &, const velocity &>>);
    static_assert(std::is_same_v<decltype(view.get<1u, 0u>(entt)), std::tuple<const velocity &, position &>>);
    static_assert(std::is_same_v<decltype(view.get(entt)), std::tuple<position &, const velocity &>>);
    static_assert(std::is_same_v<decltype(view[entt]), std::tuple<position &, const velocity &>>);
    static_assert(std::is_same_v<decltype(view.storage<velocity>()), const tessera::storage_type_t<velocity> *>);
    static_assert(std::is_same_v<decltype(view.storage<0u>()), tessera::storage_type_t<position> *>);

    // the documented ways to spell get<>() must compile
    [[maybe_unused]] position &pos = view.get<position>(entt);
    [[maybe_unused]] const position &cpos = view.get<const position>(entt);
    [[maybe_unused]] const velocity &cvel = view.get<const velocity>(entt);
    [[maybe_unused]] std::tuple<position &, const velocity &> tup = view.get<position, const velocity>(entt);
    [[maybe_unused]] std::tuple<const position &, const velocity &> ctup =
        view.get<const position, const velocity>(entt);

    // a callback that wants a non-const velocity is refused (each() explains it with a static_assert)
    using position_storage = tessera::storage_type_t<position>;
    using velocity_storage = const tessera::storage_type_t<velocity>;
    static_assert(tessera::internal::view_callable_v<void (*)(position &, const velocity &), entity, position_storage,
                                                     velocity_storage>);
    static_assert(!tessera::internal::view_callable_v<void (*)(position &, velocity &), entity, position_storage,
                                                      velocity_storage>);
    static_assert(!tessera::internal::view_callable_v<void (*)(entity, position &, velocity &), entity,
                                                      position_storage, velocity_storage>);

    auto [p, v] = view.get(entt);
    EXPECT_EQ(p.x + v.dx, 4);
    EXPECT_EQ(view.get<1u>(entt).dy, 4);

    view.each([](const entity, position &elem, const velocity &other) { elem.x += other.dx; });
    view.each([](position &elem, const velocity &) { ++elem.y; });
    EXPECT_EQ(registry.get<position>(entt).x, 4);
    EXPECT_EQ(registry.get<position>(entt).y, 3);

    for (auto elem : view.each()) {
        static_assert(std::is_same_v<decltype(elem), std::tuple<entity, position &, const velocity &>>);
        EXPECT_EQ(std::get<0>(elem), entt);
    }

    const auto other = registry.create();
    EXPECT_MISUSE([[maybe_unused]] auto &unused = view.get<position>(other), "not in the set");
}

TEST(MultiView, ConstRegistry) {
    tessera::registry registry;
    const auto entt = registry.create();
    registry.emplace<position>(entt, 0, 0);
    const auto &cregistry = registry;

    auto view = cregistry.view<const position, velocity>();
    static_assert(std::is_same_v<decltype(view), tessera::view<get_t<const position, const velocity>>>);
    static_assert(
        std::is_same_v<decltype(std::as_const(registry).view<position>()), tessera::view<get_t<const position>>>);

    // the velocity pool does not exist: the view is not ready and empty
    EXPECT_FALSE(view);
    EXPECT_EQ(view.handle(), nullptr);
    EXPECT_EQ(view.size_hint(), 0u);
    EXPECT_EQ(view.begin(), view.end());
    EXPECT_FALSE(view.contains(entt));
    EXPECT_EQ(view.storage<velocity>(), nullptr);

    registry.emplace<velocity>(entt, 0, 0);
    EXPECT_EQ(view.begin(), view.end());
    int calls{};
    view.each([&](auto &&...) { ++calls; });
    EXPECT_EQ(calls, 0);

    // a missing exclude pool is ignored
    auto excl = cregistry.view<position>(exclude<tag>);
    EXPECT_FALSE(excl);
    EXPECT_NE(excl.handle(), nullptr);
    EXPECT_TRUE(excl.contains(entt));
    EXPECT_EQ(collect(excl), (std::vector<entity>{entt}));
    excl.each([&](const entity, const position &) { ++calls; });
    EXPECT_EQ(calls, 1);
}

TEST(MultiView, Exclude) {
    tessera::registry registry;
    std::vector<entity> entities(4u);
    registry.create(entities.begin(), entities.end());

    for (auto entt : entities) {
        registry.emplace<position>(entt, 0, 0);
    }

    registry.emplace<tag>(entities[0]);
    registry.emplace<velocity>(entities[2], 0, 0);

    auto view = registry.view<position>(exclude<tag, velocity>);
    static_assert(std::is_same_v<decltype(view), tessera::view<get_t<position>, exclude_t<tag, velocity>>>);
    EXPECT_TRUE(view);
    EXPECT_EQ(collect(view), (std::vector<entity>{entities[3], entities[1]}));
    EXPECT_FALSE(view.contains(entities[0]));
    EXPECT_TRUE(view.contains(entities[1]));
    EXPECT_EQ(view.storage<tag>(), &registry.storage<tag>());
    EXPECT_EQ(view.storage<2u>(), &registry.storage<velocity>());

    std::vector<entity> seen;
    view.each([&](const entity entt, position &) { seen.push_back(entt); });
    EXPECT_EQ(seen, (std::vector<entity>{entities[3], entities[1]}));
}

TEST(MultiView, ExcludeOnly) {
    tessera::registry registry;
    std::vector<entity> entities(5u);
    registry.create(entities.begin(), entities.end());
    registry.emplace<tag>(entities[1]);
    registry.emplace<tag>(entities[3]);
    registry.emplace<position>(entities[4], 0, 0);
    registry.destroy(entities[2]);

    auto view = registry.view<entity>(exclude<tag>);
    EXPECT_EQ(view.size_hint(), 4u);
    EXPECT_EQ(collect(view), (std::vector<entity>{entities[4], entities[0]}));

    std::vector<entity> seen;
    view.each([&](const entity entt) { seen.push_back(entt); });
    EXPECT_EQ(seen, (std::vector<entity>{entities[4], entities[0]}));

    for (auto [entt] : view.each()) {
        EXPECT_TRUE(entt == entities[4] || entt == entities[0]);
    }

    EXPECT_FALSE(view.contains(entities[2]));
    EXPECT_FALSE(view.contains(entities[1]));
    EXPECT_TRUE(view.contains(entities[4]));

    // the entity storage as a free type keeps only the identifiers in use
    registry.emplace<position>(entities[0], 0, 0);
    auto inuse = registry.view<position, entity>();
    EXPECT_EQ(collect(inuse).size(), 2u);
}

TEST(MultiView, DefaultAndInjection) {
    tessera::view<get_t<position, velocity>> view{};
    EXPECT_FALSE(view);
    EXPECT_EQ(view.size_hint(), 0u);
    EXPECT_EQ(view.begin(), view.end());
    EXPECT_EQ(view.front(), entity{tessera::null});
    EXPECT_EQ(view.back(), entity{tessera::null});
    EXPECT_EQ(view.each().begin(), view.each().end());

    tessera::storage_for_t<position> pos;
    tessera::storage_for_t<velocity> vel;
    tessera::storage_for_t<velocity> other;
    pos.emplace(entity{1}, 0, 0);
    pos.emplace(entity{2}, 0, 0);
    vel.emplace(entity{2}, 0, 0);
    other.emplace(entity{1}, 0, 0);

    view.storage(pos);
    EXPECT_FALSE(view);
    EXPECT_EQ(view.begin(), view.end());
    view.use<position>();
    EXPECT_EQ(view.handle(), nullptr);

    view.storage(vel);
    EXPECT_TRUE(view);
    EXPECT_EQ(view.handle(), &vel);
    EXPECT_EQ(collect(view), (std::vector<entity>{entity{2}}));

    view.storage<1u>(other);
    EXPECT_EQ(view.storage<1u>(), &other);
    EXPECT_EQ(collect(view), (std::vector<entity>{entity{1}}));
}

TEST(MultiView, VoidStorageAsFilter) {
    tessera::registry registry;
    std::vector<entity> entities(4u);
    registry.create(entities.begin(), entities.end());

    for (auto entt : entities) {
        registry.emplace<position>(entt, 0, 0);
    }

    tessera::storage_for_t<void> the_good;
    tessera::storage_for_t<void> the_bad;
    the_good.emplace(entities[1]);
    the_good.emplace(entities[2]);
    the_bad.emplace(entities[0]);

    tessera::basic_view view{registry.storage<position>(), the_good};
    static_assert(std::is_same_v<decltype(view), tessera::view<get_t<position, void>>>);
    EXPECT_EQ(view.handle(), &the_good);
    EXPECT_EQ(collect(view), (std::vector<entity>{entities[2], entities[1]}));

    view.storage(the_bad);
    EXPECT_EQ(view.storage<void>(), &the_bad);
    EXPECT_EQ(collect(view), (std::vector<entity>{entities[0]}));

    int calls{};
    view.each([&](const entity entt, position &) { calls += (entt == entities[0]); });
    for (auto elem : view.each()) {
        static_assert(std::is_same_v<decltype(elem), std::tuple<entity, position &>>);
        ++calls;
    }
    EXPECT_EQ(calls, 2);
}

TEST(MultiView, NamedPools) {
    using namespace tessera::literals;
    tessera::registry registry;
    const auto e0 = registry.create();
    const auto e1 = registry.create();
    registry.storage<int>().emplace(e0, 1);
    registry.storage<int>().emplace(e1, 2);
    registry.storage<int>("other"_hs).emplace(e1, 3);

    tessera::basic_view view{registry.storage<int>(), registry.storage<int>("other"_hs)};
    EXPECT_EQ(view.storage<int>(), &registry.storage<int>());
    EXPECT_EQ(view.storage<1u>(), &registry.storage<int>("other"_hs));
    EXPECT_EQ(collect(view), (std::vector<entity>{e1}));
    EXPECT_EQ(view.get<0u>(e1), 2);
    EXPECT_EQ(view.get<1u>(e1), 3);
    EXPECT_EQ(view.get<int>(e1), 2);

    view.each([](int &lhs, int &rhs) { lhs += rhs; });
    EXPECT_EQ(registry.get<int>(e1), 5);
}

TEST(MultiView, DeductionGuidesAndConversion) {
    tessera::storage_for_t<position> pos;
    tessera::storage_for_t<velocity> vel;
    const auto &cvel = vel;
    pos.emplace(entity{1}, 1, 1);
    vel.emplace(entity{1}, 2, 2);

    tessera::basic_view single{pos};
    static_assert(std::is_same_v<decltype(single), tessera::view<get_t<position>>>);
    tessera::basic_view multi{pos, cvel};
    static_assert(std::is_same_v<decltype(multi), tessera::view<get_t<position, const velocity>>>);
    tessera::basic_view tupled{std::forward_as_tuple(pos), std::forward_as_tuple(vel)};
    static_assert(std::is_same_v<decltype(tupled), tessera::view<get_t<position>, exclude_t<velocity>>>);
    EXPECT_EQ(tupled.begin(), tupled.end());
    tessera::basic_view one_tuple{std::forward_as_tuple(pos)};
    static_assert(std::is_same_v<decltype(one_tuple), tessera::view<get_t<position>>>);
    EXPECT_EQ(one_tuple.size(), 1u);

    const tessera::view<get_t<const position>> csingle = single;
    EXPECT_EQ(csingle.handle(), &pos);
    const tessera::view<get_t<const position, const velocity>> cmulti = multi;
    EXPECT_TRUE(cmulti);
    EXPECT_EQ(cmulti.get<velocity>(entity{1}).dx, 2);
    const tessera::view<get_t<const velocity, const position>> swapped = multi;
    EXPECT_EQ(swapped.storage<position>(), &pos);
}

TEST(MultiView, FrontBackFind) {
    tessera::registry registry;
    std::vector<entity> entities(4u);
    registry.create(entities.begin(), entities.end());

    for (auto entt : entities) {
        registry.emplace<position>(entt, 0, 0);
        registry.emplace<velocity>(entt, 0, 0);
    }

    registry.emplace<tag>(entities[0]);
    registry.emplace<tag>(entities[3]);
    auto view = registry.view<position, velocity>(exclude<tag>);

    EXPECT_EQ(view.front(), entities[2]);
    EXPECT_EQ(view.back(), entities[1]);
    EXPECT_EQ(*view.find(entities[1]), entities[1]);
    EXPECT_EQ(view.find(entities[0]), view.end());
    EXPECT_EQ(std::next(view.find(entities[2])), view.find(entities[1]));
    EXPECT_EQ(std::next(view.find(entities[1])), view.end());
}

TEST(MultiView, Pack) {
    tessera::registry registry;
    std::vector<entity> entities(4u);
    registry.create(entities.begin(), entities.end());

    for (auto entt : entities) {
        registry.emplace<position>(entt, 1, 1);
    }

    registry.emplace<velocity>(entities[1], 2, 2);
    registry.emplace<velocity>(entities[2], 2, 2);
    registry.emplace<velocity>(entities[3], 2, 2);
    registry.emplace<stable>(entities[2], 3);
    registry.emplace<stable>(entities[3], 3);
    registry.emplace<tag>(entities[3]);

    const auto &cstable = registry.storage<stable>();
    auto pack = registry.view<position>() | registry.view<velocity>(exclude<tag>) | cstable;
    static_assert(
        std::is_same_v<decltype(pack), tessera::view<get_t<position, velocity, const stable>, exclude_t<tag>>>);
    static_assert(std::is_same_v<decltype(pack.get(entities[2])), std::tuple<position &, velocity &, const stable &>>);
    EXPECT_TRUE(pack);
    EXPECT_EQ(pack.handle(), &cstable);
    EXPECT_EQ(collect(pack), (std::vector<entity>{entities[2]}));
    auto [pos, vel, stb] = pack.get(entities[2]);
    EXPECT_EQ(pos.x + vel.dx + stb.value, 6);

    // the order of the views in the pack does not matter for iteration
    auto other = registry.view<velocity>() | registry.view<position>();
    static_assert(std::is_same_v<decltype(other), tessera::view<get_t<velocity, position>>>);
    EXPECT_EQ(other.handle(), &registry.storage<velocity>());

    // unset slots carry over
    auto partial = tessera::view<get_t<position>>{} | registry.storage<velocity>();
    EXPECT_FALSE(partial);
    EXPECT_EQ(partial.storage<velocity>(), &registry.storage<velocity>());
    EXPECT_EQ(partial.begin(), partial.end());
}

TEST(MultiView, PlainSparseSets) {
    tessera::sparse_set set;
    tessera::sparse_set other{tessera::deletion_policy::in_place};
    set.push(entity{1});
    set.push(entity{2});
    set.push(entity{3});
    other.push(entity{2});

    // a plain set may delete in place, so the view offers the multi-type interface
    tessera::basic_view single{set};
    static_assert(has_size_hint<decltype(single)> && !has_size<decltype(single)>);
    EXPECT_EQ(single.size_hint(), 3u);
    EXPECT_EQ(collect(single), (std::vector<entity>{entity{3}, entity{2}, entity{1}}));

    std::vector<entity> seen;
    single.each([&](const entity entt) { seen.push_back(entt); });
    EXPECT_EQ(seen, (std::vector<entity>{entity{3}, entity{2}, entity{1}}));

    seen.clear();
    for (auto [entt] : single.each()) {
        seen.push_back(entt);
    }
    EXPECT_EQ(seen, (std::vector<entity>{entity{3}, entity{2}, entity{1}}));

    tessera::basic_view filtered{std::forward_as_tuple(set), std::forward_as_tuple(other)};
    EXPECT_EQ(collect(filtered), (std::vector<entity>{entity{3}, entity{1}}));
    other.erase(entity{2});
    EXPECT_EQ(collect(filtered).size(), 3u);
}

// --- iteration and modification ------------------------------------------------------------------------------

TEST(ViewIteration, AddingDuringEachKeepsReferencesAndSkipsNewEntities) {
    tessera::registry registry;

    for (int i{}; i < 3; ++i) {
        registry.emplace<position>(registry.create(), i, i);
    }

    int calls{};
    registry.view<position>().each([&](const auto, auto &pos) {
        ++calls;
        // enough new elements to grow the pages and the packed array
        for (int i{}; i < 2000; ++i) {
            registry.emplace<position>(registry.create(), 0, 0);
        }
        pos.x = -1;
    });

    EXPECT_EQ(calls, 3);
    int marked{};
    registry.view<position>().each([&](const position &pos) { marked += (pos.x == -1); });
    EXPECT_EQ(marked, 3);

    // the same with a multi-type view, adding to both pools
    for (auto [entt, pos] : registry.view<position>().each()) {
        registry.emplace<velocity>(entt, 0, 0);
        (void)pos;
    }

    calls = 0;
    registry.view<position, velocity>().each([&](auto &pos, auto &) {
        ++calls;
        const auto entt = registry.create();
        registry.emplace<position>(entt, 0, 0);
        registry.emplace<velocity>(entt, 0, 0);
        pos.y = -1;
    });
    EXPECT_EQ(calls, 6003);
}

TEST(ViewIteration, RemovingTheCurrentEntity) {
    tessera::registry registry;
    std::vector<entity> entities(8u);
    registry.create(entities.begin(), entities.end());

    for (auto entt : entities) {
        registry.emplace<position>(entt, 0, 0);
        registry.emplace<velocity>(entt, 0, 0);
    }

    std::vector<entity> seen;
    registry.view<position, velocity>().each([&](const entity entt, auto &, auto &) {
        seen.push_back(entt);
        registry.remove<position>(entt);
    });
    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(seen, entities);
    EXPECT_TRUE(registry.storage<position>().empty());

    seen.clear();
    for (auto entt : registry.view<velocity>()) {
        seen.push_back(entt);
        registry.destroy(entt);
    }
    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(seen, entities);
    EXPECT_TRUE(registry.view<entity>().empty());

    registry.create(entities.begin(), entities.end());

    for (auto entt : entities) {
        registry.emplace<position>(entt, 0, 0);
        registry.emplace<velocity>(entt, 0, 0);
    }

    seen.clear();
    for (auto [entt, pos, vel] : registry.view<position, velocity>().each()) {
        seen.push_back(entt);
        registry.destroy(entt);
    }
    EXPECT_EQ(seen.size(), entities.size());
}

TEST(ViewIteration, InPlaceLeaderToleratesAnyRemoval) {
    tessera::registry registry;
    std::vector<entity> entities(6u);
    registry.create(entities.begin(), entities.end());

    for (auto entt : entities) {
        registry.emplace<stable>(entt, 0);
        registry.emplace<position>(entt, 0, 0);
    }

    auto view = registry.view<stable, position>();
    view.use<stable>();
    std::vector<entity> seen;

    view.each([&](const entity entt, stable &, position &) {
        seen.push_back(entt);
        // removes the entities at positions 1 to 4, whether visited or not
        for (std::size_t pos = 1u; pos + 1u < entities.size(); ++pos) {
            if (registry.all_of<stable>(entities[pos]) && entities[pos] != entt) {
                registry.erase<stable>(entities[pos]);
            }
        }
    });

    EXPECT_EQ(seen, (std::vector<entity>{entities[5], entities[0]}));

    // the same over a single-type view with exclusions (no other get storage filters the holes)
    seen.clear();
    registry.view<stable>(exclude<tag>).each([&](const entity entt, const stable &) { seen.push_back(entt); });
    EXPECT_EQ(seen, (std::vector<entity>{entities[5], entities[0]}));
    EXPECT_EQ(collect(registry.view<stable>(exclude<tag>)), (std::vector<entity>{entities[5], entities[0]}));
}

TEST(ViewIteration, ReverseIterationIsInsertionOrder) {
    tessera::registry registry;
    std::vector<entity> entities(5u);
    registry.create(entities.begin(), entities.end());

    for (auto entt : entities) {
        registry.emplace<velocity>(entt, 0, 0);
    }

    auto view = registry.view<velocity>();
    EXPECT_EQ((std::vector<entity>{view.rbegin(), view.rend()}), entities);
    EXPECT_EQ(reversed(collect(view)), entities);
}

// --- reactive storage views (docs/signals.md) -------------------------------------------------------------------

TEST(ReactiveView, FiltersCollectedEntities) {
    using namespace tessera::literals;
    tessera::registry registry;
    auto &observer = registry.storage<tessera::reactive>("observer"_hs);
    observer.on_construct<position>();

    std::vector<entity> entities(4u);
    registry.create(entities.begin(), entities.end());

    for (auto entt : entities) {
        registry.emplace<position>(entt, 0, 0);
    }

    registry.emplace<velocity>(entities[0], 0, 0);
    registry.emplace<velocity>(entities[1], 0, 0);
    registry.emplace<velocity>(entities[2], 0, 0);
    registry.emplace<tag>(entities[1]);

    auto view = observer.view<velocity>(exclude<tag>);
    static_assert(std::is_same_v<decltype(view.get<velocity>(entities[0])), velocity &>);
    EXPECT_TRUE(view);
    EXPECT_EQ(view.storage<0u>(), &observer);
    std::vector<entity> seen = collect(view);
    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(seen, (std::vector<entity>{entities[0], entities[2]}));

    const auto &cobserver = observer;
    auto cview = cobserver.view<velocity>(exclude<tag>);
    static_assert(std::is_same_v<decltype(cview.get<velocity>(entities[0])), const velocity &>);
    seen = collect(cview);
    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(seen, (std::vector<entity>{entities[0], entities[2]}));

    // a pool that does not exist yet: the const view is empty, the missing exclude pool is ignored
    EXPECT_EQ(collect(cobserver.view<stable>()).size(), 0u);
    EXPECT_EQ(collect(cobserver.view<position>(exclude<stable>)).size(), 4u);
    observer.reset();
}

} // namespace

namespace {

// Pools spanning several pages, lined up with the leading pool in some blocks of positions and not in others: in
// the first third every entity gets both components in turn, in the middle third velocity comes in reverse order,
// and the last third misses velocity on every fifth entity. A tag excludes every seventh entity.
std::vector<entity> populate_mixed_alignment(tessera::registry &registry, const int count) {
    std::vector<entity> entities(static_cast<std::size_t>(count));

    for (auto &entt : entities) {
        entt = registry.create();
        const int idx = static_cast<int>(&entt - entities.data());
        registry.emplace<position>(entt, idx, 0);

        if (idx < count / 3) {
            registry.emplace<velocity>(entt, idx, 1);
        }
    }

    for (int idx = 2 * count / 3 - 1; idx >= count / 3; --idx) {
        registry.emplace<velocity>(entities[static_cast<std::size_t>(idx)], idx, 1);
    }

    for (int idx = 2 * count / 3; idx < count; ++idx) {
        if (idx % 5 != 0) {
            registry.emplace<velocity>(entities[static_cast<std::size_t>(idx)], idx, 1);
        }
    }

    for (int idx = 0; idx < count; idx += 7) {
        registry.emplace<tag>(entities[static_cast<std::size_t>(idx)]);
    }

    return entities;
}

} // namespace

TEST(ViewIteration, LinedUpAndScatteredBlocksGiveTheSameEntities) {
    tessera::registry registry;
    const int count = 4 * static_cast<int>(tessera::component_traits<position>::page_size) + 17;
    const auto entities = populate_mixed_alignment(registry, count);

    std::vector<entity> expected;

    const tessera::sparse_set &positions = registry.storage<position>();

    for (const auto entt : positions) {
        if (registry.all_of<velocity>(entt) && !registry.all_of<tag>(entt)) {
            expected.push_back(entt);
        }
    }

    auto view = registry.view<position, velocity>(exclude<tag>);
    view.use<position>();
    std::vector<entity> seen;
    view.each([&](const entity entt, position &pos, velocity &vel) {
        EXPECT_EQ(pos.x, vel.dx);
        EXPECT_EQ(&pos, &registry.get<position>(entt));
        EXPECT_EQ(&vel, &registry.get<velocity>(entt));
        seen.push_back(entt);
    });
    EXPECT_EQ(seen, expected);

    seen.clear();

    for (auto [entt, pos, vel] : view.each()) {
        EXPECT_EQ(&pos, &registry.get<position>(entt));
        EXPECT_EQ(&vel, &registry.get<velocity>(entt));
        seen.push_back(entt);
    }

    EXPECT_EQ(seen, expected);

    // led by velocity, and without the exclusion: position lines up in the first third only
    auto other = registry.view<position, velocity>();
    other.use<velocity>();
    seen.clear();
    other.each([&](const entity entt, position &pos, velocity &vel) {
        EXPECT_EQ(pos.x, vel.dx);
        seen.push_back(entt);
    });
    std::vector<entity> seen_it;

    for (auto [entt, pos, vel] : other.each()) {
        EXPECT_EQ(pos.x, vel.dx);
        seen_it.push_back(entt);
    }

    EXPECT_EQ(seen, seen_it);
    EXPECT_EQ(seen.size(), registry.storage<velocity>().size());
    EXPECT_EQ(entities.size(), registry.storage<position>().size());
}

TEST(ViewIteration, LinedUpBlockSurvivesRemovingTheCurrentEntity) {
    tessera::registry registry;
    const int count = 3 * static_cast<int>(tessera::component_traits<position>::page_size);

    for (int idx{}; idx < count; ++idx) {
        const auto entt = registry.create();
        registry.emplace<position>(entt, idx, 0);
        registry.emplace<velocity>(entt, idx, 0);
    }

    // every other entity destroys itself, every third adds a new entity with both components
    int visited{};
    registry.view<position, velocity>().each([&](const entity entt, position &pos, velocity &vel) {
        EXPECT_EQ(pos.x, vel.dx);
        ++visited;

        if (pos.x % 3 == 0) {
            const auto added = registry.create();
            registry.emplace<position>(added, -1, 0);
            registry.emplace<velocity>(added, -1, 0);
        }

        if (pos.x % 2 == 0) {
            registry.destroy(entt);
        }
    });

    EXPECT_EQ(visited, count);
    EXPECT_EQ(registry.storage<position>().size(), static_cast<std::size_t>(count / 2 + count / 3));

    visited = 0;

    for (auto [entt, pos, vel] : registry.view<position, velocity>().each()) {
        EXPECT_EQ(pos.x, vel.dx);
        ++visited;

        if (pos.x >= 0 && pos.x % 4 == 1) {
            registry.erase<velocity>(entt);
        }
    }

    EXPECT_EQ(visited, count / 2 + count / 3);
    registry.view<position, velocity>().each([](const position &pos, const velocity &) { EXPECT_NE(pos.x % 4, 1); });
}

TEST(ViewIteration, GuessedPositionsGiveEachEntityItsOwnElements) {
    // position is given in entity order from the 40th entity on (its positions sit below the entity indices) and
    // velocity to every third entity: a view led by velocity finds positions by the distance between index and
    // position learnt from the previous entity. Some entities then leave and rejoin position, and a few
    // identifiers are recycled, so that the distance changes along the way and guesses miss too.
    tessera::registry registry;
    // at least 301 entities, whatever TESSERA_PACKED_PAGE is: the 300th gets a tag below
    const int count = std::max(3 * static_cast<int>(tessera::component_traits<position>::page_size) + 11, 301);
    std::vector<entity> entities;

    for (int idx{}; idx < count; ++idx) {
        entities.push_back(registry.create());

        if (idx >= 40) {
            registry.emplace<position>(entities.back(), idx, 0);
        }

        if (idx % 3 == 0) {
            registry.emplace<velocity>(entities.back(), idx, 0);
        }
    }

    for (int idx = 100; idx < count; idx += 97) {
        const auto entt = entities[static_cast<std::size_t>(idx)];
        registry.erase<position>(entt);
        registry.emplace<position>(entt, idx, 0);
    }

    for (int idx = 41; idx < count; idx += 301) {
        auto &entt = entities[static_cast<std::size_t>(idx)];
        registry.destroy(entt);
        entt = registry.create();
        registry.emplace<velocity>(entt, idx, 0);
    }

    std::vector<entity> expected;
    const tessera::sparse_set &velocities = registry.storage<velocity>();

    for (const auto entt : velocities) {
        if (registry.all_of<position>(entt) && !registry.all_of<tag>(entt)) {
            expected.push_back(entt);
        }
    }

    registry.emplace<tag>(entities[300]);
    expected.erase(std::remove(expected.begin(), expected.end(), entities[300]), expected.end());

    auto view = registry.view<velocity, position>(exclude<tag>);
    view.use<velocity>();
    std::vector<entity> seen;
    view.each([&](const entity entt, velocity &vel, position &pos) {
        EXPECT_EQ(pos.x, vel.dx);
        EXPECT_EQ(&pos, &registry.get<position>(entt));
        seen.push_back(entt);
    });
    EXPECT_EQ(seen, expected);
    seen.clear();

    for (auto [entt, vel, pos] : view.each()) {
        EXPECT_EQ(pos.x, vel.dx);
        EXPECT_EQ(&pos, &registry.get<position>(entt));
        seen.push_back(entt);
    }

    EXPECT_EQ(seen, expected);
}

TEST(ViewIteration, StoragesWithDifferentPageSizes) {
    // pages of 4, 16, the default and 2048 elements, and an in-place storage with pages of 8, lined up in some blocks
    // and not in others: every storage leads in turn, and each way of iterating is compared with the reference
    namespace pages = tessera_test::mixed_pages;
    using pages::default_paged;
    using pages::large;
    using pages::medium;
    using pages::small;
    using pages::stable;
    tessera::registry registry;
    auto ref = pages::fill(registry);

    const auto check = [&] {
        auto view = registry.view<small, medium, default_paged, large>(exclude<pages::excluded>);
        pages::expect_visits<small, medium, default_paged, large>(registry, ref, view, true);
        view.use<medium>();
        pages::expect_visits<small, medium, default_paged, large>(registry, ref, view, true);
        view.use<default_paged>();
        pages::expect_visits<small, medium, default_paged, large>(registry, ref, view, true);
        view.use<large>();
        pages::expect_visits<small, medium, default_paged, large>(registry, ref, view, true);

        auto with_stable = registry.view<stable, large, small>();
        pages::expect_visits<stable, large, small>(registry, ref, with_stable, false);
        with_stable.use<stable>();
        pages::expect_visits<stable, large, small>(registry, ref, with_stable, false);

        pages::expect_visits<small>(registry, ref, registry.view<small>(), false);
        pages::expect_visits<large>(registry, ref, registry.view<large>(), false);
        pages::expect_visits<stable>(registry, ref, registry.view<stable>(), false);
        pages::expect_visits<medium>(registry, ref, registry.view<medium>(exclude<pages::excluded>), true);
    };

    check();
    pages::reshuffle(registry, ref);
    check();
    // sorted by descending value, `large` lines up with no other storage anywhere
    registry.sort<large>([](const large &lhs, const large &rhs) { return lhs.value > rhs.value; });
    check();
}

TEST(ViewIteration, GenericEntityFirstCallbacks) {
    // [](auto entity, auto &&...elements): the entity-first form fits and is chosen without instantiating the
    // elements-only form, whose body (an element taken for the entity) would not compile
    tessera::registry registry;
    const auto e0 = registry.create();
    const auto e1 = registry.create();
    registry.emplace<position>(e0, 1, 2);
    registry.emplace<position>(e1, 3, 4);
    registry.emplace<velocity>(e1, 5, 6);
    registry.emplace<tag>(e1);

    std::vector<entity> seen;
    int sum{};
    const auto record = [&](auto entt, auto &&...elements) {
        seen.push_back(entt);
        ((sum += elements.x), ...);
    };

    registry.view<position>().each(record);
    EXPECT_EQ(seen, (std::vector<entity>{e1, e0}));
    EXPECT_EQ(sum, 4);

    seen.clear();
    sum = 0;
    registry.view<position, tag>().each(record);
    EXPECT_EQ(seen, (std::vector<entity>{e1}));
    EXPECT_EQ(sum, 3);

    seen.clear();
    registry.view<position, velocity>().each([&](auto entt, auto &&...elements) {
        seen.push_back(entt);
        static_assert(sizeof...(elements) == 2u);
    });
    EXPECT_EQ(seen, (std::vector<entity>{e1}));

    // a type without instances: the callback takes the entity alone
    seen.clear();
    registry.view<tag>().each([&](auto entt, auto &&...elements) {
        static_assert(sizeof...(elements) == 0u);
        seen.push_back(entt);
    });
    EXPECT_EQ(seen, (std::vector<entity>{e1}));

    // the elements-only generic form still works where the first argument cannot be an entity
    sum = 0;
    registry.view<position, velocity>().each([&](auto &pos, auto &vel) { sum += pos.x + vel.dx; });
    EXPECT_EQ(sum, 8);
}

} // namespace unit_entity_view
} // namespace
