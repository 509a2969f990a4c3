// Tests of the invalidation detection (TESSERA_DEBUG_ITERATION) carried by the iterators of sparse sets and storages
// (the ones single-type views and groups hand out, forward and reverse), and of iteration rule 5 of
// docs/thread_safety.md: an entity joining an owning group while a view walks one of the owned pools.
#include "support/misuse.hpp"
#include <algorithm>
#include <gtest/gtest.h>
#include <tessera/entity/group.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/sparse_set.hpp>
#include <tessera/entity/view.hpp>
#include <vector>

namespace {
namespace unit_entity_invalidation_iterators {

#if TESSERA_DEBUG_ITERATION

namespace {

struct position {
    int x;
};

struct velocity {
    int dx;
};

struct health {
    int value;
};

struct pinned {
    static constexpr bool in_place_delete = true;
    int value;
};

using tessera::entity;

constexpr const char *rule3 = "a component of another entity was removed from the pool of";
constexpr const char *rule5 =
    "adding components that make an entity join an owning group while iterating an owned pool through a view";

// Ten entities with a position and a velocity each, created in order: iteration visits the last one first.
std::vector<entity> populate(tessera::registry &registry, const int count = 10) {
    std::vector<entity> entities;

    for (int i = 0; i < count; ++i) {
        const auto entt = registry.create();
        registry.emplace<position>(entt, i);
        registry.emplace<velocity>(entt, i);
        entities.push_back(entt);
    }

    return entities;
}

TEST(IteratorInvalidation, SingleViewIteratorRemovingAnotherEntityFires) {
    tessera::registry registry;
    const auto entities = populate(registry);
    auto view = registry.view<position>();
    EXPECT_MISUSE(
        {
            for (const auto entt : view) {
                if (entt == entities.back()) {
                    registry.erase<position>(entities.front());
                }
            }
        },
        "sparse_set iterator: a component of another entity was removed from the pool of");
    EXPECT_MISUSE(
        {
            for (const auto entt : view) {
                if (entt == entities.back()) {
                    registry.destroy(entities[2]);
                }
            }
        },
        "position while iterating it");
}

TEST(IteratorInvalidation, SingleViewIteratorSortOrClearFires) {
    tessera::registry registry;
    populate(registry);
    auto view = registry.view<velocity>();
    EXPECT_MISUSE(
        {
            for ([[maybe_unused]] const auto entt : view) {
                registry.sort<velocity>([](const velocity &lhs, const velocity &rhs) { return lhs.dx < rhs.dx; });
            }
        },
        "see docs/thread_safety.md, iteration rule 3");
    EXPECT_MISUSE(
        {
            for ([[maybe_unused]] const auto entt : view) {
                registry.clear<velocity>();
            }
        },
        "velocity while iterating it");
}

TEST(IteratorInvalidation, SingleViewEachIterableFires) {
    tessera::registry registry;
    const auto entities = populate(registry);
    EXPECT_MISUSE(
        {
            for (auto [entt, pos] : registry.view<position>().each()) {
                if (entt == entities.back()) {
                    registry.erase<position>(entities[4]);
                }
            }
        },
        rule3);
}

TEST(IteratorInvalidation, StorageIteratorsFire) {
    tessera::registry registry;
    const auto entities = populate(registry);
    auto &storage = registry.storage<position>();
    EXPECT_MISUSE(
        {
            for (auto &elem : storage) {
                if (elem.x == 9) {
                    registry.erase<position>(entities.front());
                }
            }
        },
        "storage iterator: a component of another entity was removed from the pool of");
    EXPECT_MISUSE(
        {
            for (auto [entt, elem] : storage.each()) {
                if (entt == entities[8]) {
                    registry.destroy(entities[1]);
                }
            }
        },
        rule3);
}

TEST(IteratorInvalidation, GroupIteratorsRemovingAnotherEntityFire) {
    tessera::registry registry;
    const auto entities = populate(registry);
    auto owning = registry.group<position>(tessera::get<velocity>);
    EXPECT_MISUSE(
        {
            for (auto it = owning.begin(); it != owning.end(); ++it) {
                if (*it == entities.back()) {
                    // the group moves the leaving entity to the end of its block: an unvisited position
                    registry.erase<velocity>(entities.front());
                }
            }
        },
        "position were moved while iterating it (see docs/thread_safety.md, iteration rule 5");
    EXPECT_MISUSE(
        {
            for (auto [entt, pos, vel] : owning.each()) {
                if (entt == entities.back()) {
                    registry.destroy(entities[1]);
                }
            }
        },
        "position while iterating it");

    tessera::registry other;
    const auto more = populate(other);
    auto plain = other.group(tessera::get<position, velocity>);
    EXPECT_MISUSE(
        {
            for (const auto entt : plain) {
                if (entt == plain.front()) {
                    other.erase<position>(more[3]);
                }
            }
        },
        "sparse_set iterator: a component of another entity was removed");
}

TEST(IteratorInvalidation, RemovingTheCurrentEntityIsAllowed) {
    tessera::registry registry;
    populate(registry);
    int visited = 0;

    for (const auto entt : registry.view<position>()) {
        ++visited;
        registry.erase<position>(entt);
        registry.emplace<position>(entt, 0);
        registry.destroy(entt);
    }

    EXPECT_EQ(visited, 10);
    populate(registry);
    visited = 0;
    auto group = registry.group<position>(tessera::get<velocity>);

    for (const auto entt : group) {
        ++visited;
        // leaving the owning group moves the current entity to the end of the block: a change of the current one
        registry.erase<velocity>(entt);
    }

    EXPECT_EQ(visited, 10);
    EXPECT_EQ(group.size(), 0u);
    visited = 0;

    for (auto [entt, pos] : registry.view<position>().each()) {
        ++visited;
        registry.destroy(entt);
    }

    EXPECT_EQ(visited, 10);
}

TEST(IteratorInvalidation, AddingIsAllowed) {
    tessera::registry registry;
    populate(registry);
    int visited = 0;

    for ([[maybe_unused]] const auto entt : registry.view<position>()) {
        ++visited;
        const auto other = registry.create();
        registry.emplace<position>(other, -1);
        registry.emplace<velocity>(other, -1);
    }

    EXPECT_EQ(visited, 10);
    visited = 0;

    for ([[maybe_unused]] auto &elem : registry.storage<velocity>()) {
        ++visited;
        registry.emplace<velocity>(registry.create(), -2);
    }

    EXPECT_EQ(visited, 20);
}

TEST(IteratorInvalidation, InPlacePoolsTolerateRemovals) {
    tessera::registry registry;
    std::vector<entity> entities;

    for (int i = 0; i < 10; ++i) {
        entities.push_back(registry.create());
        registry.emplace<pinned>(entities.back(), i);
    }

    int visited = 0;

    for (const auto entt : registry.view<pinned>()) {
        ++visited;

        if (entt == entities.back()) {
            registry.erase<pinned>(entities.front());
            registry.destroy(entities[1]);
        }
    }

    EXPECT_EQ(visited, 8);
    visited = 0;
    auto &storage = registry.storage<pinned>();

    const tessera::sparse_set &base = storage;

    for (auto it = base.begin(); it != base.end(); ++it) {
        if (*it != tessera::tombstone) {
            ++visited;

            if (*it == entities.back()) {
                registry.erase<pinned>(entities[2]);
            }
        }
    }

    // entities[2] went before its turn
    EXPECT_EQ(visited, 7);
}

TEST(IteratorInvalidation, ReverseIterationFiresOnAnyRemoval) {
    tessera::registry registry;
    const auto entities = populate(registry);
    auto view = registry.view<position>();
    EXPECT_MISUSE(
        {
            for (auto it = view.rbegin(); it != view.rend(); ++it) {
                if (*it == entities.front()) {
                    registry.erase<position>(entities.back());
                }
            }
        },
        "position was modified while iterating it in reverse (see docs/thread_safety.md, iteration rule 4");
    // removing the current entity moves the last one into its place, which reverse iteration never reaches
    EXPECT_MISUSE(
        {
            for (auto it = view.rbegin(); it != view.rend(); ++it) {
                registry.destroy(*it);
            }
        },
        "see docs/thread_safety.md, iteration rule 4");

    auto group = registry.group<velocity>(tessera::get<position>);
    EXPECT_MISUSE(
        {
            for (auto it = group.rbegin(); it != group.rend(); ++it) {
                registry.erase<velocity>(*it);
            }
        },
        "velocity was modified while iterating it in reverse");
    auto &storage = registry.storage<position>();
    EXPECT_MISUSE(
        {
            for (auto it = storage.rbegin(); it != storage.rend(); ++it) {
                registry.clear<position>();
            }
        },
        "storage iterator (reverse)");
    registry.emplace<position>(registry.create(), 1);
    registry.emplace<position>(registry.create(), 2);
    EXPECT_MISUSE(
        {
            for ([[maybe_unused]] auto [entt, elem] : storage.reach()) {
                registry.sort<position>([](const position &lhs, const position &rhs) { return lhs.x < rhs.x; });
            }
        },
        "see docs/thread_safety.md, iteration rule 4");
}

TEST(IteratorInvalidation, ReverseIterationWithoutRemovalsIsAllowed) {
    tessera::registry registry;
    const auto entities = populate(registry);
    auto view = registry.view<position>();
    std::vector<entity> seen;

    for (auto it = view.rbegin(), last = view.rend(); it != last; ++it) {
        seen.push_back(*it);
        // additions go behind the end of the reverse range: not visited, not detected
        registry.emplace<position>(registry.create(), -1);
        registry.patch<position>(*it, [](position &elem) { ++elem.x; });
    }

    EXPECT_EQ(seen, entities);
    auto group = registry.group<velocity>(tessera::get<position>);
    seen.clear();

    for (auto it = group.rbegin(); it != group.rend(); ++it) {
        seen.push_back(*it);
    }

    EXPECT_EQ(seen.size(), 10u);
}

TEST(IteratorInvalidation, ComparisonsAndArithmeticStillWork) {
    tessera::registry registry;
    const auto entities = populate(registry);
    auto view = registry.view<position>();
    auto first = view.begin();
    const auto last = view.end();
    EXPECT_EQ(last - first, 10);
    EXPECT_EQ(*(first + 9), entities.front());
    EXPECT_EQ(first[1], entities[8]);
    EXPECT_TRUE(first < last);
    // the current entity goes, then arithmetic from an iterator taken before that
    registry.destroy(*first);
    first += 1;
    EXPECT_EQ(*first, entities[8]);
    ++first;
    EXPECT_EQ(*first, entities[7]);
    EXPECT_EQ(std::count_if(view.begin(), view.end(), [](const entity) { return true; }), 9);
}

// Rule 5. The owning group takes position; entities join it when they get a velocity.
struct owned_setup {
    tessera::registry registry;
    std::vector<entity> entities;

    explicit owned_setup(const int members) {
        for (int i = 0; i < 10; ++i) {
            entities.push_back(registry.create());
            registry.emplace<position>(entities.back(), i);
            registry.emplace<health>(entities.back(), i);
        }

        // more health than position: position leads the view<position, health> below
        for (int i = 0; i < 10; ++i) {
            registry.emplace<health>(registry.create(), -i);
        }

        static_cast<void>(registry.group<position>(tessera::get<velocity>));

        for (int i = 0; i < members; ++i) {
            registry.emplace<velocity>(entities[static_cast<std::size_t>(i)], i);
        }
    }

    // the entity at the highest position of the owned pool that has no velocity: joining swaps it with the end of
    // the group's block
    [[nodiscard]] entity outsider() {
        const auto &pool = registry.storage<position>();

        for (auto pos = pool.size(); pos != 0u; --pos) {
            if (!registry.all_of<velocity>(pool.data()[pos - 1u])) {
                return pool.data()[pos - 1u];
            }
        }

        return tessera::null;
    }
};

TEST(IteratorInvalidation, JoiningAnOwningGroupThroughAViewFires) {
    {
        owned_setup setup{0};
        auto &registry = setup.registry;
        const auto other = setup.entities[3];
        EXPECT_MISUSE(
            {
                for (const auto entt : registry.view<position>()) {
                    if (entt == setup.entities.back()) {
                        registry.emplace<velocity>(other, 0);
                    }
                }
            },
            rule5);
    }
    {
        owned_setup setup{0};
        auto &registry = setup.registry;
        EXPECT_MISUSE(registry.view<position>().each([&](const entity entt, position &) {
            if (entt == setup.entities.back()) {
                registry.emplace<velocity>(setup.entities[3], 0);
            }
        }),
                      "view::each: entities not yet visited in the pool of");
    }
    {
        owned_setup setup{0};
        auto &registry = setup.registry;
        auto view = registry.view<position, health>();
        EXPECT_MISUSE(view.each([&](const entity entt, position &, health &) {
            if (entt == setup.entities.back()) {
                registry.emplace<velocity>(setup.entities[3], 0);
            }
        }),
                      "see docs/thread_safety.md, iteration rule 5");
    }
    {
        owned_setup setup{0};
        auto &registry = setup.registry;
        EXPECT_MISUSE(
            {
                for (auto [entt, pos, hp] : registry.view<position, health>().each()) {
                    if (entt == setup.entities.back()) {
                        registry.emplace<velocity>(setup.entities[3], 0);
                    }
                }
            },
            "view::each() iterator: entities not yet visited in the pool of");
    }
    {
        owned_setup setup{0};
        auto &registry = setup.registry;
        auto view = registry.view<position, health>();
        EXPECT_MISUSE(
            {
                for (const auto entt : view) {
                    if (entt == setup.entities.back()) {
                        registry.emplace<velocity>(setup.entities[3], 0);
                    }
                }
            },
            rule5);
    }
    {
        // the current entity joins: the group moves it down and brings an unvisited entity up
        owned_setup setup{0};
        auto &registry = setup.registry;
        EXPECT_MISUSE(
            {
                for (const auto entt : registry.view<position>()) {
                    registry.emplace<velocity>(entt, 0);
                }
            },
            rule5);
    }
}

TEST(IteratorInvalidation, JoiningThroughTheGroupOrAFreeTypeIsAllowed) {
    {
        owned_setup setup{5};
        auto &registry = setup.registry;
        auto group = registry.group<position>(tessera::get<velocity>);
        int visited = 0;
        group.each([&](position &, velocity &) {
            ++visited;
            // joins at the end of the block, behind the iteration
            registry.emplace<velocity>(setup.outsider(), -1);
        });
        EXPECT_EQ(visited, 5);
        EXPECT_EQ(group.size(), 10u);
    }
    {
        owned_setup setup{5};
        auto &registry = setup.registry;
        auto group = registry.group<position>(tessera::get<velocity>);
        int visited = 0;

        for ([[maybe_unused]] const auto entt : group) {
            ++visited;
            registry.emplace<velocity>(setup.outsider(), -1);
        }

        EXPECT_EQ(visited, 5);
        visited = 0;

        for ([[maybe_unused]] auto [entt, pos, vel] : group.each()) {
            ++visited;
            registry.emplace<health>(registry.create(), 0);
        }

        EXPECT_EQ(visited, 10);
    }
    {
        // position is a free type here: velocity leads, and the group rearranges only position
        owned_setup setup{5};
        auto &registry = setup.registry;
        int visited = 0;

        for ([[maybe_unused]] const auto entt : registry.view<velocity>()) {
            ++visited;
            registry.emplace<velocity>(setup.outsider(), -1);
        }

        EXPECT_EQ(visited, 5);
    }
    {
        owned_setup setup{5};
        auto &registry = setup.registry;
        auto view = registry.view<health, position>();
        view.use<health>();
        int visited = 0;
        view.each([&](health &, position &) {
            ++visited;

            if (const auto other = setup.outsider(); other != tessera::null) {
                registry.emplace<velocity>(other, -1);
            }
        });
        EXPECT_EQ(visited, 10);
    }
}

TEST(IteratorInvalidation, ManyJoinsInOneCallbackOfTheGroupAreAllowed) {
    owned_setup setup{5};
    auto &registry = setup.registry;
    auto group = registry.group<position>(tessera::get<velocity>);
    int visited = 0;
    group.each([&](const entity entt, position &, velocity &) {
        ++visited;

        if (entt == setup.entities.front()) {
            // each new member is swapped to the end of the block, behind the iteration
            for (int i = 0; i < 40; ++i) {
                const auto other = registry.create();
                registry.emplace<position>(other, i);
                registry.emplace<velocity>(other, i);
            }
        }
    });
    EXPECT_EQ(visited, 5);
    EXPECT_EQ(group.size(), 45u);
}

TEST(IteratorInvalidation, JoinsThatOnlyTouchVisitedPositionsAreAllowed) {
    owned_setup setup{5};
    auto &registry = setup.registry;
    const auto &pool = registry.storage<position>();
    int visited = 0;

    // positions 0-4 hold the members; while the iteration is at position 2 (a member), an outsider at position 7
    // (visited) joins: the group swaps it with position 5, visited as well
    for (const auto entt : registry.view<position>()) {
        ++visited;

        if (pool.index(entt) == 2u) {
            registry.emplace<velocity>(pool.data()[7], -1);
        }
    }

    EXPECT_EQ(visited, 10);
    visited = 0;
    registry.view<position>().each([&](const entity entt, position &) {
        ++visited;

        if (pool.index(entt) == 1u) {
            registry.emplace<velocity>(pool.data()[8], -1);
        }
    });
    EXPECT_EQ(visited, 10);
}

TEST(IteratorInvalidation, SwapElementsOnUnvisitedPositionsFires) {
    tessera::sparse_set set;

    for (unsigned i = 0; i < 10; ++i) {
        set.push(entity{i});
    }

    EXPECT_MISUSE(
        {
            for (const auto entt : set) {
                if (entt == entity{9}) {
                    set.swap_elements(entity{1}, entity{2});
                }
            }
        },
        "sparse_set iterator: entities not yet visited in the pool of");

    // visited positions only: allowed
    int visited = 0;

    for (const auto entt : set) {
        ++visited;

        if (entt == entity{4}) {
            set.swap_elements(entity{8}, set.data()[5]);
        }
    }

    EXPECT_EQ(visited, 10);

    // more swaps in one step than the set remembers count as harmful
    EXPECT_MISUSE(
        {
            for (const auto entt : set) {
                if (set.index(entt) == 5u) {
                    // positions 9 and 8 were visited, but 65 swaps are more than the set remembers
                    for (std::size_t i = 0; i <= tessera::internal::iteration_log::swap_memory; ++i) {
                        set.swap_elements(set.data()[9], set.data()[8]);
                    }
                }
            }
        },
        "see docs/thread_safety.md, iteration rule 5");
}

} // namespace

#else

// The detection is compiled only with TESSERA_DEBUG_ITERATION (tessera_test_support turns it on): say so rather
// than pass silently.
TEST(invalidation_iterators, needs_debug_iteration) { GTEST_SKIP() << "TESSERA_DEBUG_ITERATION is 0: nothing to test"; }

#endif

} // namespace unit_entity_invalidation_iterators
} // namespace
