// The element access of views and groups (entity/engine/get.hpp): the tuple of references made at once, storages
// without instances left out, and the checks that share their lookup with the access (a missing entity, a stale
// identifier, a group's non-member).
#include <tessera/entity/engine/get.hpp>
#include <tessera/entity/group.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/view.hpp>

#include <gtest/gtest.h>

#include <support/misuse.hpp>

#include <tuple>
#include <type_traits>

namespace {
namespace unit_entity_engine_get {

namespace {

struct position {
    int x;
};

struct velocity {
    int dx;
};

struct tag {};

} // namespace

TEST(walk_get, several_paged_storages_give_one_tuple_of_references) {
    tessera::registry registry;
    const auto entity = registry.create();
    registry.emplace<position>(entity, 1);
    registry.emplace<velocity>(entity, 2);

    auto &positions = registry.storage<position>();
    const auto &velocities = registry.storage<velocity>();
    auto elements = tessera::internal::walk_get_all(entity, positions, velocities);

    static_assert(std::is_same_v<decltype(elements), std::tuple<position &, const velocity &>>);
    EXPECT_EQ(&std::get<0>(elements), &registry.get<position>(entity));
    EXPECT_EQ(&std::get<1>(elements), &registry.get<velocity>(entity));
}

TEST(walk_get, storages_without_instances_add_nothing) {
    tessera::registry registry;
    const auto entity = registry.create();
    registry.emplace<position>(entity, 3);
    registry.emplace<tag>(entity);
    registry.emplace<velocity>(entity, 4);

    auto elements = tessera::internal::walk_get_all(entity, registry.storage<position>(), registry.storage<tag>(),
                                                    registry.storage<velocity>());

    static_assert(std::is_same_v<decltype(elements), std::tuple<position &, velocity &>>);
    EXPECT_EQ(std::get<0>(elements).x, 3);
    EXPECT_EQ(std::get<1>(elements).dx, 4);
}

TEST(walk_get, a_view_gets_the_elements_of_each_entity) {
    tessera::registry registry;

    for (int value = 0; value < 100; ++value) {
        const auto entity = registry.create();
        registry.emplace<position>(entity, value);
        registry.emplace<velocity>(entity, -value);
    }

    const auto view = registry.view<position, const velocity>();

    for (const auto entity : view) {
        auto [pos, vel] = view.get<position, const velocity>(entity);
        static_assert(std::is_same_v<decltype(view.get<position, const velocity>(entity)),
                                     std::tuple<position &, const velocity &>>);
        EXPECT_EQ(pos.x, -vel.dx);
        pos.x += 1000;
    }

    for (auto [entity, pos] : registry.view<position>().each()) {
        EXPECT_EQ(pos.x, 1000 - registry.get<velocity>(entity).dx);
    }
}

TEST(walk_get, a_view_get_of_an_absent_or_stale_entity_is_misuse) {
    tessera::registry registry;
    const auto both = registry.create();
    registry.emplace<position>(both, 1);
    registry.emplace<velocity>(both, 1);
    const auto only_position = registry.create();
    registry.emplace<position>(only_position, 2);
    const auto view = registry.view<position, velocity>();

    EXPECT_MISUSE(static_cast<void>(view.get<position, velocity>(only_position)),
                  "get: the entity is not in the set of the storage");
    EXPECT_MISUSE(static_cast<void>(view.get<velocity>(only_position)),
                  "get: the entity is not in the set of the storage");

    // the same index with another version: the slot holds the live identifier, the check compares versions
    registry.destroy(both);
    const auto reused = registry.create();
    ASSERT_EQ(tessera::to_entity(reused), tessera::to_entity(both));
    registry.emplace<position>(reused, 3);
    registry.emplace<velocity>(reused, 3);
    EXPECT_MISUSE(static_cast<void>(view.get<position, velocity>(both)),
                  "get: the entity is not in the set of the storage");
    EXPECT_EQ(std::get<0>(view.get<position, velocity>(reused)).x, 3);
}

TEST(walk_get, an_owning_group_get_reads_every_owned_element_at_one_position) {
    tessera::registry registry;

    for (int value = 0; value < 50; ++value) {
        const auto entity = registry.create();
        registry.emplace<position>(entity, value);

        if (value % 2 == 0) {
            registry.emplace<velocity>(entity, value);
        }
    }

    const auto group = registry.group<position, velocity>();
    ASSERT_EQ(group.size(), 25u);

    for (const auto entity : group) {
        auto [pos, vel] = group.get<position, velocity>(entity);
        static_assert(
            std::is_same_v<decltype(group.get<position, velocity>(entity)), std::tuple<position &, velocity &>>);
        EXPECT_EQ(&pos, &registry.get<position>(entity));
        EXPECT_EQ(&vel, &registry.get<velocity>(entity));
        EXPECT_EQ(pos.x, vel.dx);
    }
}

TEST(walk_get, an_owning_group_get_of_a_non_member_is_misuse) {
    tessera::registry registry;
    const auto member = registry.create();
    registry.emplace<position>(member, 1);
    registry.emplace<velocity>(member, 1);
    // owns position, so it sits in the owned storage, after the group's members
    const auto outside = registry.create();
    registry.emplace<position>(outside, 2);
    const auto absent = registry.create();

    const auto group = registry.group<position, velocity>();
    ASSERT_TRUE(group.contains(member));
    EXPECT_MISUSE(static_cast<void>(group.get<position, velocity>(outside)),
                  "group::get: the entity is not a member of the group");
    EXPECT_MISUSE(static_cast<void>(group.get<position, velocity>(absent)),
                  "group::get: the entity is not a member of the group");

    const decltype(group) unset{};
    EXPECT_MISUSE(static_cast<void>(unset.get<position, velocity>(member)), "group");
}

} // namespace unit_entity_engine_get
} // namespace
