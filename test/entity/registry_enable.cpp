// Tests of the enable/disable members of registry.hpp: disable<T>/enable<T>/enabled<T> and the whole-entity
// disable/enable/enabled, what views, groups and runtime views see, the on_enable/on_disable signals, components added
// to a disabled entity, clone, and the misuse checks.
#include "support/misuse.hpp"
#include <cstddef>
#include <gtest/gtest.h>
#include <string>
#include <tessera/entity/clone.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/runtime_view.hpp>
#include <vector>

namespace {
namespace unit_entity_registry_enable {

namespace {

using tessera::entity;

struct position {
    int x{};
};

struct velocity {
    int dx{};
};

struct frozen {};

struct node {
    static constexpr bool in_place_delete = true;
    int value{};
};

template<typename View>
[[nodiscard]] std::size_t count(View view) {
    std::size_t visited{};
    view.each([&visited](auto &&...) { ++visited; });
    return visited;
}

struct listener {
    std::vector<std::string> *log{};

    void enabled(tessera::registry &, const entity) { log->push_back("enable"); }

    void disabled(tessera::registry &reg, const entity entt) {
        // on_disable runs while the component is still enabled
        log->push_back(reg.enabled<position>(entt) ? "disable(still enabled)" : "disable(already disabled)");
    }
};

} // namespace

TEST(RegistryEnable, DisabledComponentsKeepTheirValueAndLeaveViews) {
    tessera::registry registry;
    std::vector<entity> entities(10u);
    registry.create(entities.begin(), entities.end());

    for (std::size_t next{}; next < entities.size(); ++next) {
        registry.emplace<position>(entities[next], static_cast<int>(next));
        registry.emplace<velocity>(entities[next], 1);
    }

    for (std::size_t next{}; next < entities.size(); next += 2u) {
        EXPECT_TRUE(registry.disable<position>(entities[next]));
    }

    EXPECT_FALSE(registry.disable<position>(entities[0]));
    EXPECT_FALSE(registry.enabled<position>(entities[0]));
    EXPECT_TRUE(registry.enabled<position>(entities[1]));
    EXPECT_FALSE(registry.enabled<frozen>(entities[1]));

    // presence is unchanged: get, try_get, all_of, any_of, patch and replace work on a disabled component
    EXPECT_EQ(registry.get<position>(entities[4]).x, 4);
    EXPECT_NE(registry.try_get<position>(entities[4]), nullptr);
    EXPECT_TRUE((registry.all_of<position, velocity>(entities[4])));
    EXPECT_TRUE(registry.any_of<position>(entities[4]));
    registry.patch<position>(entities[4], [](position &pos) { pos.x += 100; });
    EXPECT_EQ(registry.get<position>(entities[4]).x, 104);
    registry.replace<position>(entities[4], 4);
    EXPECT_FALSE(registry.enabled<position>(entities[4]));

    EXPECT_EQ(count(registry.view<position>()), 5u);
    EXPECT_EQ(count(registry.view<position, velocity>()), 5u);
    EXPECT_EQ(count(registry.view<velocity, position>()), 5u);
    EXPECT_EQ(count(registry.view<velocity>(tessera::exclude<position>)), 5u);
    EXPECT_EQ(registry.view<position>().size(), 5u);
    EXPECT_FALSE(registry.view<position>().contains(entities[2]));
    EXPECT_FALSE((registry.view<velocity, position>().contains(entities[2])));

    std::size_t ranged{};
    for ([[maybe_unused]] auto [entt, pos, vel] : registry.view<position, velocity>().each()) {
        EXPECT_EQ(pos.x % 2, 1);
        ++ranged;
    }
    EXPECT_EQ(ranged, 5u);

    tessera::runtime_view dynamic{};
    dynamic.iterate(registry.storage<velocity>()).iterate(registry.storage<position>());
    std::size_t dynamic_count{};
    dynamic.each([&dynamic_count](const entity) { ++dynamic_count; });
    EXPECT_EQ(dynamic_count, 5u);

    // the storage itself (each) includes the disabled ones
    EXPECT_EQ(registry.storage<position>().size(), 10u);

    // removal and erase of a disabled component
    EXPECT_EQ(registry.remove<position>(entities[0]), 1u);
    registry.erase<position>(entities[2]);
    EXPECT_EQ(count(registry.view<position>()), 5u);
    EXPECT_TRUE(registry.enable<position>(entities[4]));
    EXPECT_FALSE(registry.enable<position>(entities[4]));
    EXPECT_EQ(count(registry.view<position>()), 6u);
    EXPECT_EQ(registry.get<position>(entities[4]).x, 4);
}

TEST(RegistryEnable, Groups) {
    tessera::registry registry;
    auto owning = registry.group<position>(tessera::get<velocity>, tessera::exclude<frozen>);
    auto plain = registry.group<>(tessera::get<position, velocity>);
    std::vector<entity> entities(6u);
    registry.create(entities.begin(), entities.end());

    for (const auto entt : entities) {
        registry.emplace<position>(entt);
        registry.emplace<velocity>(entt);
    }

    EXPECT_EQ(owning.size(), 6u);
    EXPECT_EQ(plain.size(), 6u);
    registry.disable<position>(entities[1]);
    registry.disable<velocity>(entities[3]);
    EXPECT_EQ(owning.size(), 4u);
    EXPECT_EQ(plain.size(), 4u);
    EXPECT_FALSE(owning.contains(entities[1]));
    EXPECT_FALSE(plain.contains(entities[3]));
    EXPECT_EQ(count(owning), 4u);
    EXPECT_EQ(count(plain), 4u);
    // the group's block stays inside the enabled part of the owned storage
    EXPECT_LE(owning.size(), registry.storage<position>().in_use());

    // an excluded component that is disabled no longer excludes
    registry.emplace<frozen>(entities[0]);
    EXPECT_EQ(owning.size(), 3u);
    registry.disable<frozen>(entities[0]);
    EXPECT_EQ(owning.size(), 4u);
    registry.enable<frozen>(entities[0]);
    EXPECT_EQ(owning.size(), 3u);

    registry.enable<position>(entities[1]);
    registry.enable<velocity>(entities[3]);
    EXPECT_EQ(owning.size(), 5u);
    EXPECT_EQ(plain.size(), 6u);
    EXPECT_EQ(count(owning), 5u);
}

TEST(RegistryEnable, Signals) {
    tessera::registry registry;
    std::vector<std::string> log{};
    listener watcher{&log};
    registry.storage<position>().on_enable().connect<&listener::enabled>(watcher);
    registry.storage<position>().on_disable().connect<&listener::disabled>(watcher);
    const auto entt = registry.create();
    registry.emplace<position>(entt);

    registry.disable<position>(entt);
    registry.disable<position>(entt);
    registry.enable<position>(entt);
    registry.enable<position>(entt);
    EXPECT_EQ(log, (std::vector<std::string>{"disable(still enabled)", "enable"}));
}

TEST(RegistryEnable, WholeEntity) {
    tessera::registry registry;
    const auto entt = registry.create();
    const auto other = registry.create();
    registry.emplace<position>(entt, 3);
    registry.emplace<frozen>(entt);
    registry.emplace<position>(other);

    EXPECT_TRUE(registry.enabled(entt));
    registry.disable(entt);
    EXPECT_FALSE(registry.enabled(entt));
    EXPECT_TRUE(registry.enabled(other));
    EXPECT_FALSE(registry.enabled<position>(entt));
    EXPECT_FALSE(registry.enabled<frozen>(entt));
    EXPECT_EQ(count(registry.view<position>()), 1u);

    // components added while the entity is disabled start disabled, and the reference is the element's
    auto &vel = registry.emplace<velocity>(entt, 7);
    EXPECT_EQ(&vel, &registry.get<velocity>(entt));
    EXPECT_FALSE(registry.enabled<velocity>(entt));
    const std::vector<entity> both{entt, other};
    registry.insert<std::string>(both.begin(), both.end(), std::string{"x"});
    EXPECT_FALSE(registry.enabled<std::string>(entt));
    EXPECT_TRUE(registry.enabled<std::string>(other));
    EXPECT_EQ(registry.get_or_emplace<int>(entt, 5), 5);
    EXPECT_FALSE(registry.enabled<int>(entt));
    registry.emplace_or_replace<double>(entt, 1.0);
    EXPECT_FALSE(registry.enabled<double>(entt));
    EXPECT_EQ(count(registry.view<velocity>()), 0u);

    registry.enable(entt);
    EXPECT_TRUE(registry.enabled(entt));
    EXPECT_TRUE(registry.enabled<velocity>(entt));
    EXPECT_TRUE(registry.enabled<position>(entt));
    EXPECT_EQ(count(registry.view<position, velocity>()), 1u);
    EXPECT_EQ(registry.get<position>(entt).x, 3);

    // destroying a disabled entity takes its mark: a recycled identifier starts enabled
    registry.disable(entt);
    registry.destroy(entt);
    const auto recycled = registry.create();
    EXPECT_TRUE(registry.enabled(recycled));
    registry.emplace<position>(recycled);
    EXPECT_TRUE(registry.enabled<position>(recycled));
}

TEST(RegistryEnable, CloneCopiesTheState) {
    tessera::registry registry;
    const auto entt = registry.create();
    registry.emplace<position>(entt, 2);
    registry.emplace<velocity>(entt, 3);
    registry.disable<velocity>(entt);

    const auto copy = registry.clone(entt);
    EXPECT_TRUE(registry.enabled<position>(copy));
    EXPECT_FALSE(registry.enabled<velocity>(copy));
    EXPECT_EQ(registry.get<velocity>(copy).dx, 3);

    registry.disable(entt);
    tessera::registry other;
    const auto far = registry.clone(entt, other);
    EXPECT_FALSE(other.enabled(far));
    EXPECT_FALSE(other.enabled<position>(far));
    // the copy's registry learnt of the mark: what it gets next starts disabled
    other.emplace<frozen>(far);
    EXPECT_FALSE(other.enabled<frozen>(far));
}

TEST(RegistryEnable, Misuse) {
    tessera::registry registry;
    const auto entt = registry.create();
    EXPECT_MISUSE(registry.disable<position>(entt), "disable: the entity does not own this component");
    EXPECT_MISUSE(registry.enable<position>(entt), "enable: the entity does not own this component");
    registry.emplace<position>(entt);
    registry.emplace<node>(entt);
    EXPECT_MISUSE(registry.disable(entt), "in-place storage, which cannot be disabled");
    // checked before anything changed: the entity and its other components are still enabled
    EXPECT_TRUE(registry.enabled(entt));
    EXPECT_TRUE(registry.enabled<position>(entt));
    registry.erase<node>(entt);
    registry.destroy(entt);
    EXPECT_MISUSE(registry.disable(entt), "disable: invalid entity");
    EXPECT_MISUSE(registry.enable(entt), "enable: invalid entity");

    const auto other = registry.create();
    registry.disable(other);
    EXPECT_MISUSE(registry.emplace<node>(other),
                  "the entity is disabled and the storage of this type deletes in place");
}

TEST(RegistryEnable, InsertWhileSomeAreDisabledSignalsTheNewOnes) {
    tessera::registry registry;
    auto plain = registry.group<>(tessera::get<position, velocity>);
    std::vector<entity> entities(6u);
    registry.create(entities.begin(), entities.end());

    for (const auto entt : entities) {
        registry.emplace<velocity>(entt);
    }

    registry.insert<position>(entities.begin(), entities.begin() + 3);
    registry.disable<position>(entities[0]);
    registry.disable<position>(entities[1]);

    // on_construct must name the inserted entities, which moved ahead of the disabled tail
    std::vector<entity> constructed{};
    registry.on_construct<position>()
        .connect<[](std::vector<entity> &out, tessera::registry &, const entity entt) { out.push_back(entt); }>(
            constructed);
    registry.insert<position>(entities.begin() + 3, entities.end());
    EXPECT_EQ(constructed, (std::vector<entity>{entities[3], entities[4], entities[5]}));
    EXPECT_EQ(plain.size(), 4u);
    EXPECT_FALSE(plain.contains(entities[0]));
}

} // namespace unit_entity_registry_enable
} // namespace
