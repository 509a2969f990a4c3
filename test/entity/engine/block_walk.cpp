// The iteration engine (entity/engine/block_walk.hpp), through the views, groups and runtime views it serves: lined-up
// blocks that stop being lined up while the user's code runs, guessed positions, blocks of storages with different
// page sizes, and walks that stop and resume (iterator copies).
#include <tessera/entity/group.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/runtime_view.hpp>
#include <tessera/entity/view.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace {
namespace unit_entity_engine_block_walk {

namespace {

struct first {
    int value;
};

struct second {
    int value;
};

struct joins {};

// a page of 64 elements: blocks of a walk over it and a default storage are 64 positions long
struct small_page {
    static constexpr std::size_t page_size = 64u;
    int value;
};

// Entities 0..count-1 with first and second (values equal to the index), added in entity order: the two storages
// line up. The first `members` of them also get `joins`, in the same order: an owning group of second and joins
// finds them in place and moves nothing.
std::vector<tessera::entity> lined_up(tessera::registry &registry, const std::size_t count,
                                      const std::size_t members = 0u) {
    std::vector<tessera::entity> entities(count);
    registry.create(entities.begin(), entities.end());

    for (std::size_t index{}; index < count; ++index) {
        registry.emplace<first>(entities[index], static_cast<int>(index));
        registry.emplace<second>(entities[index], static_cast<int>(index));

        if (index < members) {
            registry.emplace<joins>(entities[index]);
        }
    }

    return entities;
}

// An owning group of second and joins already holds 1.5 blocks of members: it takes the next ones in at a
// position inside the second block, which the walk reaches lined up.
constexpr std::size_t group_members = TESSERA_PACKED_PAGE + TESSERA_PACKED_PAGE / 2u;

// Entities that join the group while the walk is in the second block, above the group's members: each one is
// swapped down to a position of that block the walk has yet to visit.
bool joins_now(const int index) {
    return index >= static_cast<int>(group_members) && index < static_cast<int>(2u * TESSERA_PACKED_PAGE) &&
           index % 3 == 0;
}

// A registry where an owning group of `second` and `joins` already holds `group_members` entities lined up with
// `first`, and a visit that checks an entity and makes it join the group when joins_now says so.
class BlockWalkJoin : public ::testing::Test {
protected:
    BlockWalkJoin() { static_cast<void>(registry.group<second, joins>()); }

    // call after creating the groups or views the test needs beforehand
    void populate() { entities = lined_up(registry, 3u * TESSERA_PACKED_PAGE + 5u, group_members); }

    void visit(const tessera::entity entt, const first &lhs, const second &rhs) {
        EXPECT_EQ(lhs.value, rhs.value);
        EXPECT_EQ(lhs.value, static_cast<int>(tessera::to_entity(entt)));

        ++visited;

        if (joins_now(lhs.value) && !registry.all_of<joins>(entt)) {
            registry.emplace<joins>(entt);
        }
    }

    tessera::registry registry;
    std::vector<tessera::entity> entities;
    std::size_t visited{};
};

} // namespace

// A view led by `first` finds `second` lined up with it. An owning group of `second` takes in the current entity
// halfway through a block: it swaps that entity down to the front of `second`, to a position the walk has yet to
// visit. The walk must not trust the comparison it made for that block any longer.
TEST_F(BlockWalkJoin, OwningGroupJoinMovesAFreeStorageUnderAViewCallback) {
    populate();
    auto view = registry.view<first, second>();
    view.use<first>();

    view.each([&](const tessera::entity entt, first &lhs, second &rhs) { visit(entt, lhs, rhs); });

    EXPECT_EQ(visited, entities.size());
}

// The same with the each() iterator of the view.
TEST_F(BlockWalkJoin, OwningGroupJoinMovesAFreeStorageUnderAViewIterator) {
    populate();
    auto view = registry.view<first, second>();
    view.use<first>();

    for (auto [entt, lhs, rhs] : view.each()) {
        visit(entt, lhs, rhs);
    }

    EXPECT_EQ(visited, entities.size());
}

// The same with a partial-owning group that gets `second`: its get storage moves under it.
TEST_F(BlockWalkJoin, OwningGroupJoinMovesTheGetStorageOfAnotherGroup) {
    auto group = registry.group<first>(tessera::get<second>);
    populate();
    ASSERT_EQ(group.size(), entities.size());

    // twice: the second each() starts from what the first one remembered of the lined-up storages
    for (int round{}; round < 2; ++round) {
        visited = 0u;
        group.each([&](const tessera::entity entt, first &lhs, second &rhs) { visit(entt, lhs, rhs); });
        EXPECT_EQ(visited, entities.size());
    }

    visited = 0u;

    for (auto [entt, lhs, rhs] : group.each()) {
        visit(entt, lhs, rhs);
    }

    EXPECT_EQ(visited, entities.size());
}

// A runtime view compares blocks too, but only to skip membership tests: the owning group's exchanges move
// entities within the second storage without changing who is in it, and every entity is visited once.
TEST_F(BlockWalkJoin, OwningGroupJoinMovesAStorageOfARuntimeView) {
    populate();
    tessera::runtime_view view{};
    view.iterate(registry.storage<first>()).iterate(registry.storage<second>());
    std::vector<tessera::entity> seen;

    view.each([&](const tessera::entity entt) {
        seen.push_back(entt);
        visit(entt, registry.get<first>(entt), registry.get<second>(entt));
    });

    std::sort(seen.begin(), seen.end());
    auto expected = entities;
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(seen, expected);
}

// Storages with different page sizes: blocks are as long as the smallest page, and elements found away from the
// lead's position (the second storage holds the entities shifted by 37 positions) come from the right pages.
TEST(BlockWalk, DifferentPageSizesAndShiftedPositions) {
    tessera::registry registry;
    constexpr std::size_t count = 2u * TESSERA_PACKED_PAGE + 11u;
    std::vector<tessera::entity> entities(count);
    registry.create(entities.begin(), entities.end());

    for (std::size_t index{}; index < 37u; ++index) {
        registry.emplace<second>(registry.create(), -1);
    }

    for (std::size_t index{}; index < count; ++index) {
        registry.emplace<small_page>(entities[index], static_cast<int>(index));
        registry.emplace<second>(entities[index], static_cast<int>(index));
        registry.emplace<first>(entities[index], static_cast<int>(index));
    }

    std::size_t visited{};
    registry.view<small_page, second, first>().each([&](const small_page &lhs, const second &mid, const first &rhs) {
        EXPECT_EQ(lhs.value, mid.value);
        EXPECT_EQ(lhs.value, rhs.value);
        ++visited;
    });
    EXPECT_EQ(visited, count);

    visited = 0u;

    for (auto [entt, lhs, mid, rhs] : registry.view<small_page, second, first>().each()) {
        EXPECT_EQ(lhs.value, static_cast<int>(tessera::to_entity(entt)));
        EXPECT_EQ(lhs.value, mid.value);
        EXPECT_EQ(lhs.value, rhs.value);
        ++visited;
    }

    EXPECT_EQ(visited, count);

    auto group = registry.group<>(tessera::get<small_page, second>);
    visited = 0u;
    group.each([&](const small_page &lhs, const second &rhs) {
        EXPECT_EQ(lhs.value, rhs.value);
        ++visited;
    });
    EXPECT_EQ(visited, count);
}

// Iterators are values: a copy taken in the middle of a lined-up block, or of a block of lookups, walks on by
// itself and sees the same entities as the original.
TEST(BlockWalk, IteratorCopiesWalkOnTheirOwn) {
    tessera::registry registry;
    const auto entities = lined_up(registry, TESSERA_PACKED_PAGE + 40u);

    // every third entity loses `second` and gets it back at the end: the blocks at the top no longer line up
    for (std::size_t index{}; index < entities.size(); index += 3u) {
        registry.erase<second>(entities[index]);
        registry.emplace<second>(entities[index], static_cast<int>(index));
    }

    const auto view = registry.view<first, second>();
    auto iterable = view.each();
    auto it = iterable.begin();

    for (int step{}; step < 25; ++step) {
        ++it;
    }

    auto copy = it;
    std::vector<tessera::entity> from_original;
    std::vector<tessera::entity> from_copy;

    for (; it != iterable.end(); ++it) {
        auto [entt, lhs, rhs] = *it;
        EXPECT_EQ(lhs.value, rhs.value);
        from_original.push_back(entt);
    }

    for (; copy != iterable.end(); copy++) {
        from_copy.push_back(std::get<0>(*copy));
    }

    EXPECT_EQ(from_original, from_copy);
    EXPECT_EQ(from_original.size(), entities.size() - 25u);
}

// A group's each() compares its storages once and remembers that they line up (range-for cannot report back as
// each(func) does). Once a storage moves, the memory no longer applies: the next range-for finds every element again.
TEST(BlockWalk, GroupEachRemembersLinedUpStoragesUntilTheyChange) {
    tessera::registry registry;
    auto group = registry.group<>(tessera::get<first, second>);
    const auto entities = lined_up(registry, 2u * TESSERA_PACKED_PAGE + 7u);

    const auto check = [&] {
        std::size_t visited{};

        for (auto [entt, lhs, rhs] : group.each()) {
            EXPECT_EQ(lhs.value, static_cast<int>(tessera::to_entity(entt)));
            EXPECT_EQ(rhs.value, lhs.value);
            ++visited;
        }

        EXPECT_EQ(visited, entities.size());
    };

    check();
    check();

    // `second` in reverse order: no block lines up any more
    registry.storage<second>().sort([](const tessera::entity lhs, const tessera::entity rhs) { return lhs < rhs; });
    check();

    // lined up again, the memory is rebuilt
    const tessera::sparse_set &order = registry.storage<first>();
    registry.storage<second>().sort_as(order.begin(), order.end());
    check();
}

} // namespace unit_entity_engine_block_walk
} // namespace
