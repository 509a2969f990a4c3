// Tests of the change-detection members of registry.hpp: the registry's tick, every function that stamps (emplace,
// insert, replace, patch, emplace_or_replace, get_or_emplace, modified), added_since and changed_since, wrap-around
// across 2^32 ticks and the clamping of old ticks, registry move and swap, owning groups, clone, prototypes, snapshots
// and command buffers, and the misuse checks.
#include "support/misuse.hpp"
#include <any>
#include <cstddef>
#include <cstdint>
#include <gtest/gtest.h>
#include <tessera/entity/clone.hpp>
#include <tessera/entity/command_buffer.hpp>
#include <tessera/entity/entity.hpp>
#include <tessera/entity/prototype.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/snapshot.hpp>
#include <utility>
#include <vector>

namespace {
namespace unit_entity_registry_ticks {

namespace {

struct transform {
    static constexpr bool track_changes = true;
    int x;
};

struct velocity {
    int dx;
};

// Records every value handed over, and hands them back in order.
struct any_archive {
    template<typename Type>
    void operator()(const Type &value) {
        values.emplace_back(value);
    }

    template<typename Type>
    void operator()(Type &value) {
        value = std::any_cast<Type>(values.at(next++));
    }

    std::vector<std::any> values;
    std::size_t next{};
};

} // namespace

TEST(registry_ticks, tick_starts_at_one_and_advances) {
    tessera::registry registry;
    EXPECT_EQ(registry.tick(), 1u);
    const auto &live = registry.tick();
    registry.advance_tick();
    EXPECT_EQ(live, 2u);
    registry.advance_tick(10u);
    EXPECT_EQ(registry.tick(), 12u);
}

TEST(registry_ticks, every_function_that_writes_stamps) {
    tessera::registry registry;
    const auto first = registry.create();
    const auto second = registry.create();
    const auto third = registry.create();

    registry.emplace<transform>(first, 1);
    EXPECT_TRUE(registry.added_since<transform>(first, 0u));
    EXPECT_TRUE(registry.changed_since<transform>(first, 0u));
    // strictly after: nothing is after the current tick
    EXPECT_FALSE(registry.added_since<transform>(first, registry.tick()));

    const auto before_insert = registry.tick();
    registry.advance_tick();
    const std::vector<tessera::entity> range{second, third};
    registry.insert<transform>(range.begin(), range.end(), transform{2});
    EXPECT_TRUE(registry.added_since<transform>(second, before_insert));
    EXPECT_FALSE(registry.added_since<transform>(first, before_insert));

    const auto checks = [&registry](const tessera::entity entt, auto &&write) {
        const auto since = registry.tick();
        registry.advance_tick();
        EXPECT_FALSE(registry.changed_since<transform>(entt, since));
        write();
        EXPECT_TRUE(registry.changed_since<transform>(entt, since));
        // a change is not an addition
        EXPECT_FALSE(registry.added_since<transform>(entt, since));
    };

    checks(first, [&] { registry.replace<transform>(first, 5); });
    checks(first, [&] { registry.patch<transform>(first, [](transform &elem) { ++elem.x; }); });
    checks(second, [&] { registry.emplace_or_replace<transform>(second, 7); });
    checks(third, [&] { registry.modified<transform>(third); });
    EXPECT_EQ(registry.get<transform>(third).x, 2);

    // get_or_emplace stamps only when it emplaces
    const auto since = registry.tick();
    registry.advance_tick();
    static_cast<void>(registry.get_or_emplace<transform>(first, 9));
    EXPECT_FALSE(registry.changed_since<transform>(first, since));
    const auto fourth = registry.create();
    static_cast<void>(registry.get_or_emplace<transform>(fourth, 9));
    EXPECT_TRUE(registry.added_since<transform>(fourth, since));
    static_cast<void>(registry.emplace_or_replace<transform>(registry.create(), 3));
}

TEST(registry_ticks, modified_fires_on_update_without_touching_the_value) {
    tessera::registry registry;
    const auto entt = registry.create();
    registry.emplace<transform>(entt, 4);
    int updates{};
    registry.on_update<transform>().connect<[](int &count, tessera::registry &, tessera::entity) { ++count; }>(updates);
    registry.get<transform>(entt).x = 8;
    registry.modified<transform>(entt);
    EXPECT_EQ(updates, 1);
    EXPECT_EQ(registry.get<transform>(entt).x, 8);
}

TEST(registry_ticks, removal_and_readdition) {
    tessera::registry registry;
    const auto entt = registry.create();
    registry.emplace<transform>(entt, 1);
    const auto since = registry.tick();
    registry.advance_tick();
    registry.erase<transform>(entt);
    registry.emplace<transform>(entt, 2);
    EXPECT_TRUE(registry.added_since<transform>(entt, since));
}

TEST(registry_ticks, wrap_around_across_two_to_the_32) {
    tessera::registry registry;
    const auto old = registry.create();
    const auto entt = registry.create();
    registry.emplace<transform>(old, 0);
    registry.emplace<transform>(entt, 0);

    // 2^32 - 3 advances in one call: the tick wraps past zero a few ticks from now
    registry.advance_tick(0xFFFFFFFDu);
    EXPECT_EQ(registry.tick(), 0xFFFFFFFEu);
    const auto since = registry.tick();
    registry.advance_tick(3u);
    EXPECT_EQ(registry.tick(), 1u);

    registry.patch<transform>(entt);
    EXPECT_TRUE(registry.changed_since<transform>(entt, since));
    // the element left alone for 2^32 ticks was clamped on the way: it reads between max_tick_age and
    // max_tick_age + tick_clamp_period old, never as recent
    EXPECT_FALSE(registry.changed_since<transform>(old, since));
    EXPECT_FALSE(registry.changed_since<transform>(old, registry.tick() - tessera::max_tick_age));
    EXPECT_TRUE(
        registry.changed_since<transform>(old, registry.tick() - tessera::max_tick_age - tessera::tick_clamp_period));
}

TEST(registry_ticks, clamping_happens_on_single_advances_too) {
    tessera::registry registry;
    const auto entt = registry.create();
    registry.emplace<transform>(entt, 0);
    registry.advance_tick(tessera::tick_clamp_period - 2u);
    // the next single advance crosses a multiple of the period
    registry.advance_tick();
    registry.advance_tick(tessera::max_tick_age);
    registry.advance_tick();
    EXPECT_FALSE(registry.changed_since<transform>(entt, registry.tick() - tessera::max_tick_age));
}

TEST(registry_ticks, pools_follow_the_registry_through_move_and_swap) {
    tessera::registry registry;
    const auto entt = registry.create();
    registry.emplace<transform>(entt, 0);
    registry.advance_tick(5u);

    tessera::registry moved{std::move(registry)};
    EXPECT_EQ(moved.tick(), 6u);
    moved.advance_tick();
    moved.patch<transform>(entt);
    EXPECT_TRUE(moved.changed_since<transform>(entt, 6u));

    tessera::registry other;
    const auto there = other.create();
    other.emplace<transform>(there, 0);
    moved.swap(other);
    EXPECT_EQ(other.tick(), 7u);
    EXPECT_EQ(moved.tick(), 1u);
    moved.advance_tick();
    moved.patch<transform>(there);
    EXPECT_TRUE(moved.changed_since<transform>(there, 1u));
    EXPECT_FALSE(other.changed_since<transform>(entt, 7u));
}

TEST(registry_ticks, owning_groups_keep_ticks_with_elements) {
    tessera::registry registry;
    std::vector<tessera::entity> entities(8u);
    registry.create(entities.begin(), entities.end());
    const auto group = registry.group<transform>(tessera::get<velocity>);

    for (std::size_t idx{}; idx < entities.size(); ++idx) {
        registry.emplace<transform>(entities[idx], static_cast<int>(registry.tick()));
        registry.advance_tick();
    }

    // joining the group moves elements to the front of the pool
    for (std::size_t idx = entities.size(); idx-- != 0u;) {
        if (idx % 3u != 0u) {
            registry.emplace<velocity>(entities[idx], 0);
        }
    }

    EXPECT_EQ(group.size(), 5u);

    for (auto entt : entities) {
        const auto at = static_cast<tessera::tick_type>(registry.get<transform>(entt).x);
        EXPECT_TRUE(registry.added_since<transform>(entt, at - 1u));
        EXPECT_FALSE(registry.added_since<transform>(entt, at));
    }
}

TEST(registry_ticks, clones_and_prototypes_get_the_current_tick) {
    tessera::registry registry;
    const auto entt = registry.create();
    registry.emplace<transform>(entt, 3);
    tessera::prototype proto;
    proto.emplace<transform>(4);
    registry.advance_tick(4u);
    const auto since = registry.tick() - 1u;

    const auto copy = registry.clone(entt);
    EXPECT_TRUE(registry.added_since<transform>(copy, since));
    EXPECT_FALSE(registry.added_since<transform>(entt, since));

    const auto spawned = tessera::spawn(registry, proto, 2u);
    EXPECT_TRUE(registry.added_since<transform>(spawned.back(), since));

    tessera::registry other;
    other.advance_tick(100u);
    const auto there = registry.clone(entt, other);
    EXPECT_TRUE(other.added_since<transform>(there, 100u));
}

TEST(registry_ticks, snapshots_do_not_save_ticks) {
    tessera::registry registry;
    const auto entt = registry.create();
    registry.emplace<transform>(entt, 3);

    any_archive archive;
    tessera::snapshot{registry}.get<tessera::entity>(archive).get<transform>(archive);

    tessera::registry loaded;
    loaded.advance_tick(41u);
    tessera::snapshot_loader{loaded}.get<tessera::entity>(archive).get<transform>(archive);
    EXPECT_EQ(loaded.get<transform>(entt).x, 3);
    EXPECT_TRUE(loaded.added_since<transform>(entt, 41u));
}

TEST(registry_ticks, command_buffers_stamp_when_applied) {
    tessera::registry registry;
    const auto entt = registry.create();
    registry.emplace<transform>(entt, 1);
    tessera::command_buffer buffer;
    const auto made = buffer.create();
    buffer.emplace<transform>(made, 2);
    buffer.patch<transform>(entt, [](transform &elem) { elem.x = 5; });

    registry.advance_tick();
    const auto since = registry.tick() - 1u;
    EXPECT_FALSE(registry.changed_since<transform>(entt, since));
    buffer.apply(registry);
    EXPECT_TRUE(registry.changed_since<transform>(entt, since));
    EXPECT_FALSE(registry.added_since<transform>(entt, since));

    int added{};
    for (auto [other, elem] : registry.view<transform>().each()) {
        added += static_cast<int>(registry.added_since<transform>(other, since));
        static_cast<void>(elem);
    }
    EXPECT_EQ(added, 1);
}

TEST(registry_ticks, misuse) {
    tessera::registry registry;
    const auto entt = registry.create();
    EXPECT_MISUSE(static_cast<void>(registry.added_since<transform>(entt, 0u)),
                  "added_since: the entity does not own this component");
    registry.emplace<velocity>(entt, 0);
    registry.emplace<transform>(registry.create(), 0);
    EXPECT_MISUSE(static_cast<void>(registry.changed_since<transform>(entt, 0u)),
                  "changed_since: the entity does not own this component");
    EXPECT_MISUSE(registry.modified<transform>(entt), "modified: the entity does not own this component");
    // registry.added_since<velocity>(...) does not compile: "added_since: the type is not tracked; ..."
}

} // namespace unit_entity_registry_ticks
} // namespace
