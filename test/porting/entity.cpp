// Porting tests of the entity module: registry, context, pools, handles and handle views, conversions to views and
// groups, the organizer and the mixins, used as EnTT's entity documentation and its current API use them.
#include "porting.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace {
namespace unit_porting_entity {

namespace {

using namespace entt::literals;

struct position {
    float x;
    float y;
};

struct velocity {
    float dx;
    float dy;
};

struct renderable {};

struct my_type {
    int value;
    char tag;
};

struct game_clock {
    int now{};
};

void integrate(entt::view<entt::get_t<position, const velocity>> view) {
    view.each([](position &pos, const velocity &vel) {
        pos.x += vel.dx;
        pos.y += vel.dy;
    });
}

void integrate_owned(entt::group<entt::owned_t<position>, entt::get_t<const velocity>> group) {
    group.each([](position &pos, const velocity &vel) {
        pos.x += vel.dx;
        pos.y += vel.dy;
    });
}

void read_clock(const game_clock &) {}

/// A registry that shows only part of the registry API, as custom registries in EnTT's own tests do.
template<typename Entity>
class custom_registry : private entt::basic_registry<Entity> {
    using base_type = entt::basic_registry<Entity>;

    template<typename, typename>
    friend class entt::basic_sigh_mixin;

    template<typename, typename>
    friend class entt::basic_reactive_mixin;

public:
    using allocator_type = typename base_type::allocator_type;
    using entity_type = typename base_type::entity_type;

    using base_type::base_type;

    using base_type::create;
    using base_type::emplace;
    using base_type::insert;
    using base_type::storage;
};

} // namespace

TEST(porting_entity, context_variables) {
    entt::registry registry;
    registry.ctx().emplace<my_type>(42, 'c');
    registry.ctx().emplace_as<my_type>("my_variable"_hs, 43, 'd');
    registry.ctx().insert_or_assign(my_type{44, 'e'});
    registry.ctx().insert_or_assign("my_variable"_hs, my_type{45, 'f'});

    auto &var = registry.ctx().get<my_type>();
    const auto &cvar = registry.ctx().get<const my_type>("my_variable"_hs);
    ASSERT_EQ(var.value, 44);
    ASSERT_EQ(cvar.value, 45);

    game_clock clock{};
    registry.ctx().emplace<game_clock &>(clock);
    ASSERT_EQ(&registry.ctx().get<game_clock>(), &clock);

    ASSERT_TRUE(registry.ctx().contains<my_type>());
    ASSERT_NE(registry.ctx().find<const my_type>("my_variable"_hs), nullptr);
    ASSERT_TRUE(registry.ctx().erase<my_type>("my_variable"_hs));

    registry.ctx().clear();
    ASSERT_FALSE(registry.ctx().contains<my_type>());
    ASSERT_FALSE(registry.ctx().contains<game_clock>());
}

TEST(porting_entity, erase_if_and_reset) {
    entt::registry registry;
    const auto entity = registry.create();
    registry.emplace<position>(entity, 0.f, 0.f);
    registry.emplace<velocity>(entity, 1.f, 1.f);
    registry.emplace<renderable>(entity);

    registry.erase_if(entity, [](const entt::id_type id, const entt::sparse_set &storage) {
        return id != entt::type_hash<position>::value() && storage.info() != entt::type_id<renderable>();
    });

    ASSERT_TRUE((registry.all_of<position, renderable>(entity)));
    ASSERT_FALSE(registry.all_of<velocity>(entity));

    ASSERT_TRUE(registry.reset(entt::type_hash<velocity>::value()));
    ASSERT_EQ(registry.storage(entt::type_hash<velocity>::value()), nullptr);
    ASSERT_FALSE(registry.reset("unknown"_hs));
}

TEST(porting_entity, storage_range_is_random_access) {
    entt::registry registry;
    static_cast<void>(registry.storage<position>());
    static_cast<void>(registry.storage<velocity>());
    static_cast<void>(registry.storage<velocity>("second pool"_hs));

    auto iterable = registry.storage();
    typename decltype(std::as_const(registry).storage())::iterator cit = iterable.begin();
    ASSERT_EQ(cit, iterable.begin());
    ASSERT_EQ(iterable.end() - iterable.begin(), 3);
    ASSERT_EQ((iterable.begin() + 2)->first, iterable.begin()[2].first);
    ASSERT_EQ((--iterable.end())->first, iterable.begin()[2].first);
    ASSERT_LT(iterable.begin(), iterable.end());

    // the opaque copy of EnTT's documentation
    const auto src = registry.create();
    const auto dst = registry.create();
    registry.emplace<position>(src, 1.f, 2.f);

    for (auto &&curr : registry.storage()) {
        if (auto &storage = curr.second; storage.contains(src)) {
            storage.push(dst, storage.value(src));
        }
    }

    ASSERT_EQ(registry.get<position>(dst).y, 2.f);
}

TEST(porting_entity, handles) {
    entt::registry registry;
    const entt::handle handle{registry, registry.create()};

    auto &pos = handle.get_or_emplace<position>(1.f, 2.f);
    ASSERT_EQ(&handle.get_or_emplace<position>(), &pos);

    const entt::handle_view<position, velocity> view = handle;
    view.emplace<velocity>(3.f, 4.f);
    ASSERT_EQ(view.get<velocity>().dx, 3.f);
    ASSERT_TRUE((view.all_of<position, velocity>()));

    const entt::const_handle_view<velocity> cview = view;
    ASSERT_EQ(cview.get<velocity>().dy, 4.f);
    ASSERT_EQ(cview, handle);

    using my_handle = entt::basic_handle<entt::basic_registry<entt::entity>>;
    using my_const_handle = entt::basic_handle<const entt::basic_registry<entt::entity>>;
    static_assert(std::is_convertible_v<my_handle, my_const_handle>);
    static_assert(!std::is_convertible_v<my_const_handle, my_handle>);
}

TEST(porting_entity, as_view_and_as_group) {
    entt::registry registry;
    const auto entity = registry.create();
    registry.emplace<position>(entity, 0.f, 0.f);
    registry.emplace<velocity>(entity, 1.f, 2.f);

    const entt::view<entt::get_t<position, const velocity>> view = entt::as_view{registry};
    integrate(view);
    const entt::group<entt::owned_t<position>, entt::get_t<const velocity>> group = entt::as_group{registry};
    integrate_owned(group);
    ASSERT_EQ(registry.get<position>(entity).y, 4.f);

    const entt::group<entt::owned_t<const position>, entt::get_t<const velocity>> cgroup =
        entt::as_group{std::as_const(registry)};
    ASSERT_TRUE(cgroup);
    ASSERT_EQ(cgroup.size(), 1u);
}

TEST(porting_entity, organizer_with_views_and_groups) {
    entt::organizer organizer;
    organizer.emplace<&integrate>("integrate");
    organizer.emplace<&integrate_owned>("integrate owned");
    organizer.emplace<&read_clock>("clock");

    const auto graph = organizer.graph();
    ASSERT_EQ(graph.size(), 3u);
    ASSERT_EQ(graph[1u].rw_count(), 1u);
    ASSERT_EQ(graph[1u].ro_count(), 1u);
    ASSERT_EQ(graph[0u].children(), (std::vector<std::size_t>{1u}));
    ASSERT_TRUE(graph[2u].top_level());

    entt::registry registry;

    for (auto &&node : graph) {
        node.prepare(registry);
    }

    const auto entity = registry.create();
    registry.emplace<position>(entity, 0.f, 0.f);
    registry.emplace<velocity>(entity, 1.f, 1.f);

    for (auto &&node : graph) {
        node.callback()(node.data(), registry);
    }

    ASSERT_EQ(registry.get<position>(entity).x, 2.f);
}

TEST(porting_entity, mixins_over_a_custom_registry) {
    using registry_type = custom_registry<entt::entity>;
    registry_type registry;
    const std::array entity{registry.create(), registry.create()};

    entt::basic_sigh_mixin<entt::basic_storage<int>, registry_type> pool;
    ASSERT_FALSE(pool);
    pool.bind(registry);
    ASSERT_TRUE(pool);

    std::size_t constructed{};
    pool.on_construct().connect<[](std::size_t &count, registry_type &, entt::entity) { ++count; }>(constructed);
    pool.emplace(entity[0u]);
    pool.emplace(entity[1u]);
    ASSERT_EQ(constructed, 2u);

    entt::basic_reactive_mixin<entt::basic_storage<void>, registry_type> reactive;
    reactive.bind(registry);
    reactive.on_construct<renderable>();
    registry.insert<renderable>(entity.begin(), entity.end());
    ASSERT_EQ(reactive.size(), 2u);
    reactive.reset();
}

TEST(porting_entity, each_iterators) {
    entt::registry registry;
    const auto entity = registry.create();
    registry.emplace<position>(entity, 1.f, 2.f);
    registry.emplace<velocity>(entity, 3.f, 4.f);

    auto &storage = registry.storage<position>();
    typename decltype(std::as_const(storage).each())::iterator it = storage.each().begin();
    ASSERT_EQ(std::get<0>(*it), entity);

    const auto view = registry.view<position, velocity>();
    auto vit = view.each().begin();
    ASSERT_EQ(vit.base(), view.begin());
    ++vit;
    ASSERT_EQ(vit.base(), view.end());
}

TEST(porting_entity, group_sort_comparator_takes_const_references) {
    entt::registry registry;
    auto group = registry.group<position>(entt::get<velocity>);
    const std::array entity{registry.create(), registry.create()};
    registry.emplace<position>(entity[0u], 1.f, 0.f);
    registry.emplace<position>(entity[1u], 2.f, 0.f);
    registry.emplace<velocity>(entity[0u], 0.f, 0.f);
    registry.emplace<velocity>(entity[1u], 0.f, 0.f);

    // EnTT hands std::tuple<position &, velocity &>; tessera hands const references (docs/differences.md)
    group.sort<position, velocity>([](const auto lhs, const auto rhs) {
        static_assert(std::is_same_v<decltype(std::get<0>(lhs)), const position &>);
        static_assert(std::is_same_v<decltype(std::get<1>(rhs)), const velocity &>);
        return std::get<0>(lhs).x > std::get<0>(rhs).x;
    });

    ASSERT_EQ(*group.begin(), entity[1u]);
}

} // namespace unit_porting_entity
} // namespace
