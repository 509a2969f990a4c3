#include <tessera/core/hashed_string.hpp>
#include <tessera/entity/helper.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/storage.hpp>
#include <tessera/entity/view.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "support/misuse.hpp"

namespace {
namespace unit_entity_helper {

namespace {

using namespace tessera::literals;

struct position {
    int x;
    int y;
};

// Four elements per page, so that a handful of entities already spans several pages.
struct small_page {
    static constexpr std::size_t page_size = 4u;
    int value;
};

// Erased elements leave holes.
struct stable {
    static constexpr bool in_place_delete = true;
    int value;
};

// Records the calls a component receives from invoke.
struct clazz {
    void full(tessera::registry &registry, tessera::entity entity) {
        owner = &registry;
        seen.push_back(entity);
    }

    void only_registry(tessera::registry &registry) { owner = &registry; }

    void nothing() { ++count; }

    void read_only(const tessera::registry &registry, tessera::entity entity) const {
        read_owner = &registry;
        read_seen = entity;
    }

    void only_entity(tessera::entity entity) { seen.push_back(entity); }

    tessera::registry *owner{};
    std::vector<tessera::entity> seen{};
    int count{};
    mutable const tessera::registry *read_owner{};
    mutable tessera::entity read_seen{tessera::null};
};

// Counts calls per listener kind; listeners receive it as payload or as instance.
struct counter {
    void on_construct(tessera::registry &, tessera::entity) { ++construct; }

    void on_update(tessera::registry &, tessera::entity) { ++update; }

    void on_destroy(tessera::registry &, tessera::entity) { ++destroy; }

    int construct{};
    int update{};
    int destroy{};
};

void count_construct(counter &target, tessera::registry &, tessera::entity) { ++target.construct; }

void count_update(counter &target, tessera::registry &, tessera::entity) { ++target.update; }

void count_destroy(counter &target, tessera::registry &, tessera::entity) { ++target.destroy; }

struct other_component {
    int value;
};

TEST(AsView, Registry) {
    tessera::registry registry{};
    const auto first = registry.create();
    const auto second = registry.create();
    registry.emplace<position>(first, 1, 2);
    registry.emplace<position>(second, 3, 4);
    registry.emplace<stable>(second, 0);

    // the pools of the view are created on demand
    const tessera::view<tessera::get_t<position>, tessera::exclude_t<stable>> view = tessera::as_view{registry};
    EXPECT_TRUE(view.contains(first));
    EXPECT_FALSE(view.contains(second));
    view.get<position>(first).x = 10;
    EXPECT_EQ(registry.get<position>(first).x, 10);

    const tessera::view<tessera::get_t<const position, small_page>> other = tessera::as_view{registry};
    EXPECT_NE(std::as_const(registry).storage<small_page>(), nullptr);
    EXPECT_FALSE(other.contains(first));
    static_assert(std::is_same_v<decltype(other.get<position>(first)), const position &>);

    const tessera::as_view wrapper{registry};
    static_assert(std::is_same_v<decltype(wrapper)::registry_type, tessera::registry>);
    static_assert(std::is_same_v<decltype(wrapper)::entity_type, tessera::entity>);
}

TEST(AsView, ConstRegistry) {
    tessera::registry registry{};
    const auto entity = registry.create();
    registry.emplace<position>(entity, 1, 2);

    const tessera::view<tessera::get_t<const position>> view = tessera::as_view{std::as_const(registry)};
    EXPECT_TRUE(view.contains(entity));
    EXPECT_EQ(view.get<const position>(entity).y, 2);

    // a const registry creates no pool: the view over a missing one is empty
    const tessera::view<tessera::get_t<const position, const small_page>> missing =
        tessera::as_view{std::as_const(registry)};
    EXPECT_FALSE(missing);
    EXPECT_EQ(std::as_const(registry).storage<small_page>(), nullptr);
}

TEST(AsGroup, Registry) {
    tessera::registry registry{};
    const auto first = registry.create();
    const auto second = registry.create();
    registry.emplace<position>(first, 1, 2);
    registry.emplace<position>(second, 3, 4);
    registry.emplace<small_page>(second, 5);

    // the group is created on the first conversion, and found by the later ones
    const tessera::group<tessera::owned_t<position>, tessera::get_t<>, tessera::exclude_t<small_page>> group =
        tessera::as_group{registry};
    EXPECT_TRUE(group);
    EXPECT_TRUE(group.contains(first));
    EXPECT_FALSE(group.contains(second));
    EXPECT_TRUE(registry.owned<position>());
    group.get<position>(first).x = 10;
    EXPECT_EQ(registry.get<position>(first).x, 10);

    const tessera::group<tessera::owned_t<>, tessera::get_t<const position, const small_page>> other =
        tessera::as_group{registry};
    EXPECT_TRUE(other.contains(second));
    static_assert(std::is_same_v<decltype(other.get<position>(second)), const position &>);

    const tessera::as_group wrapper{registry};
    static_assert(std::is_same_v<decltype(wrapper)::registry_type, tessera::registry>);
    static_assert(std::is_same_v<decltype(wrapper)::entity_type, tessera::entity>);
}

TEST(AsGroup, ConstRegistry) {
    tessera::registry registry{};
    const auto entity = registry.create();
    registry.emplace<position>(entity, 1, 2);

    // a const registry creates no group: the conversion gives an invalid group until one exists
    using group_type = tessera::group<tessera::owned_t<const position>>;
    const group_type missing = tessera::as_group{std::as_const(registry)};
    EXPECT_FALSE(missing);

    static_cast<void>(registry.group<position>());
    const group_type found = tessera::as_group{std::as_const(registry)};
    EXPECT_TRUE(found);
    EXPECT_TRUE(found.contains(entity));
    EXPECT_EQ(found.get<const position>(entity).y, 2);
}

} // namespace

TEST(ToEntity, AcrossPages) {
    tessera::registry registry;
    auto &storage = registry.storage<small_page>();
    std::vector<tessera::entity> entities(10u);
    registry.create(entities.begin(), entities.end());

    for (std::size_t pos = 0u; pos < entities.size(); ++pos) {
        registry.emplace<small_page>(entities[pos], static_cast<int>(pos));
    }

    // three pages in use, the last one only half full
    for (const auto entity : entities) {
        EXPECT_EQ(tessera::to_entity(storage, registry.get<small_page>(entity)), entity);
    }

    // an object outside the storage, and a slot past size() on the last page, are not elements
    const small_page outside{42};
    EXPECT_EQ(tessera::to_entity(storage, outside), tessera::entity{tessera::null});
    const auto *past = &registry.get<small_page>(entities.back()) + 1;
    EXPECT_EQ(tessera::to_entity(storage, *past), tessera::entity{tessera::null});

    // swap-and-pop moves the last element: its new address belongs to its entity, the old one to nobody
    const auto *moved_from = &registry.get<small_page>(entities.back());
    registry.erase<small_page>(entities.front());
    EXPECT_EQ(tessera::to_entity(storage, registry.get<small_page>(entities.back())), entities.back());
    EXPECT_EQ(tessera::to_entity(storage, *moved_from), tessera::entity{tessera::null});
}

TEST(ToEntity, DefaultPageSize) {
    tessera::registry registry;
    constexpr auto page = tessera::component_traits<position>::page_size;
    std::vector<tessera::entity> entities(page + 3u);
    registry.create(entities.begin(), entities.end());
    registry.insert<position>(entities.begin(), entities.end(), position{1, 2});

    const auto *storage = std::as_const(registry).storage<position>();
    ASSERT_NE(storage, nullptr);

    for (const auto pos : {std::size_t{0u}, page - 1u, page, page + 2u}) {
        EXPECT_EQ(tessera::to_entity(*storage, registry.get<position>(entities[pos])), entities[pos]);
    }

    // a storage that is not part of any registry works as well
    tessera::storage<position> standalone;
    const auto entity = tessera::entity{7};
    standalone.emplace(entity, 3, 4);
    EXPECT_EQ(tessera::to_entity(standalone, standalone.get(entity)), entity);
    EXPECT_EQ(tessera::to_entity(standalone, registry.get<position>(entities[0])), tessera::entity{tessera::null});
}

TEST(ToEntity, EmptyStorageAndHoles) {
    tessera::storage<stable> storage;
    const stable outside{1};
    EXPECT_EQ(tessera::to_entity(storage, outside), tessera::entity{tessera::null});

    const tessera::entity first{1};
    const tessera::entity second{2};
    storage.emplace(first, 10);
    storage.emplace(second, 20);
    const auto *address = &storage.get(first);

    // the hole left by an in-place erase is not an element, its neighbour is unaffected
    storage.erase(first);
    EXPECT_EQ(tessera::to_entity(storage, *address), tessera::entity{tessera::null});
    EXPECT_EQ(tessera::to_entity(storage, storage.get(second)), second);
}

TEST(Invoke, FullSignature) {
    tessera::registry registry;
    registry.on_construct<clazz>().connect<&tessera::invoke<&clazz::full>>();

    const auto entity = registry.create();
    registry.emplace<clazz>(entity);

    EXPECT_EQ(registry.get<clazz>(entity).owner, &registry);
    EXPECT_EQ(registry.get<clazz>(entity).seen, std::vector<tessera::entity>{entity});

    registry.on_update<clazz>().connect<&tessera::invoke<&clazz::full>>();
    registry.patch<clazz>(entity);
    EXPECT_EQ(registry.get<clazz>(entity).seen.size(), 2u);

    // a direct call works too
    tessera::invoke<&clazz::full>(registry, entity);
    EXPECT_EQ(registry.get<clazz>(entity).seen.size(), 3u);

    registry.on_construct<clazz>().disconnect<&tessera::invoke<&clazz::full>>();
    const auto other = registry.create();
    registry.emplace<clazz>(other);
    EXPECT_TRUE(registry.get<clazz>(other).seen.empty());
}

TEST(Invoke, FewerParameters) {
    tessera::registry registry;
    registry.on_construct<clazz>().connect<&tessera::invoke<&clazz::only_registry>>();
    registry.on_construct<clazz>().connect<&tessera::invoke<&clazz::nothing>>();
    registry.on_construct<clazz>().connect<&tessera::invoke<&clazz::read_only>>();
    registry.on_construct<clazz>().connect<&tessera::invoke<&clazz::only_entity>>();

    const auto entity = registry.create();
    const auto &instance = registry.emplace<clazz>(entity);

    EXPECT_EQ(instance.owner, &registry);
    EXPECT_EQ(instance.count, 1);
    EXPECT_EQ(instance.read_owner, &registry);
    EXPECT_EQ(instance.read_seen, entity);
    EXPECT_EQ(instance.seen, std::vector<tessera::entity>{entity});
}

TEST(Invoke, MissingComponentIsMisuse) {
    tessera::registry registry;
    const auto entity = registry.create();
    EXPECT_MISUSE(tessera::invoke<&clazz::nothing>(registry, entity), "get: the entity does not own this component");
}

TEST(SighHelper, Types) {
    tessera::registry registry;
    tessera::sigh_helper helper{registry};

    static_assert(std::is_same_v<decltype(helper), tessera::sigh_helper<tessera::registry>>);
    static_assert(std::is_same_v<decltype(helper.with<position>()), tessera::sigh_helper<tessera::registry, position>>);
    static_assert(
        std::is_same_v<decltype(helper.with<position>().on_construct<&count_construct>(std::declval<counter &>())),
                       tessera::sigh_helper<tessera::registry, position>>);
    static_assert(std::is_same_v<tessera::sigh_helper<tessera::registry, position>::registry_type, tessera::registry>);
    EXPECT_EQ(&helper.registry(), &registry);
    EXPECT_EQ(&helper.with<position>().registry(), &registry);
}

TEST(SighHelper, ChainSwitchesTypeAndPool) {
    tessera::registry registry;
    counter on_position;
    counter on_named;
    counter on_other;

    tessera::sigh_helper{registry}
        .with<position>()
        .on_construct<&count_construct>(on_position)
        .on_update<&count_update>(on_position)
        .on_destroy<&count_destroy>(on_position)
        .with<position>("named"_hs)
        .on_construct<&counter::on_construct>(on_named)
        .on_destroy<&counter::on_destroy>(&on_named)
        .with<other_component>()
        .on_update<&counter::on_update>(on_other);

    const auto entity = registry.create();

    registry.emplace<position>(entity, 1, 2);
    registry.patch<position>(entity);
    EXPECT_EQ(on_position.construct, 1);
    EXPECT_EQ(on_position.update, 1);
    EXPECT_EQ(on_named.construct, 0);

    registry.storage<position>("named"_hs).emplace(entity, 3, 4);
    EXPECT_EQ(on_named.construct, 1);
    EXPECT_EQ(on_position.construct, 1);

    registry.emplace<other_component>(entity, 5);
    registry.replace<other_component>(entity, 6);
    EXPECT_EQ(on_other.update, 1);
    EXPECT_EQ(on_other.construct, 0);

    registry.destroy(entity);
    EXPECT_EQ(on_position.destroy, 1);
    EXPECT_EQ(on_named.destroy, 1);
    EXPECT_EQ(on_other.destroy, 0);
}

TEST(SighHelper, KeepsEachStep) {
    tessera::registry registry;
    counter target;

    // a helper can be stored and reused; every call on it connects once more (a reconnection is a no-op)
    auto helper = tessera::sigh_helper{registry}.with<position>("pool"_hs);
    helper.on_construct<&count_construct>(target);
    helper.on_construct<&count_construct>(target);
    helper.on_update<&count_update>(target);

    const auto entity = registry.create();
    registry.storage<position>("pool"_hs).emplace(entity, 0, 0);
    registry.storage<position>("pool"_hs).patch(entity);

    EXPECT_EQ(target.construct, 1);
    EXPECT_EQ(target.update, 1);
    EXPECT_EQ(registry.storage(tessera::type_hash<position>::value()), nullptr);
}

} // namespace unit_entity_helper
} // namespace
