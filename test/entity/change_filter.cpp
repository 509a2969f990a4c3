// Tests of change_filter.hpp: each_changed and each_added over views of one and several types, groups of every
// kind and runtime views, with excludes and disabled elements, through the change log and through the scan (both
// must agree), stale log entries, functions that patch or remove what they are given, and the argument forms of
// the callback.
#include <algorithm>
#include <cstddef>
#include <gtest/gtest.h>
#include <tessera/entity/change_filter.hpp>
#include <tessera/entity/entity.hpp>
#include <tessera/entity/group.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/runtime_view.hpp>
#include <type_traits>
#include <utility>
#include <vector>

namespace {
namespace unit_entity_change_filter {

namespace {

struct transform {
    static constexpr bool track_changes = true;
    int x;
};

struct velocity {
    int dx;
};

struct frozen {};

using walk = tessera::internal::change_walk;

// The entities a filter visits, sorted, through the given walk.
template<bool Added, typename View>
std::vector<tessera::entity> visit(const View &view, const tessera::tick_type since, const walk how) {
    std::vector<tessera::entity> out;
    auto func = [&out](const tessera::entity entt, auto &&...) { out.push_back(entt); };
    tessera::internal::each_since<Added, transform>(view, since, func, how);
    std::sort(out.begin(), out.end());
    return out;
}

class change_filter_test : public ::testing::Test {
protected:
    void SetUp() override {
        entities.resize(20u);
        registry.create(entities.begin(), entities.end());

        for (std::size_t idx{}; idx < entities.size(); ++idx) {
            registry.emplace<transform>(entities[idx], static_cast<int>(idx));

            if (idx % 2u == 0u) {
                registry.emplace<velocity>(entities[idx], 1);
            }
        }

        registry.emplace<frozen>(entities[4]);
        since = registry.tick();
        registry.advance_tick();
    }

    // patches the transforms of entities 2, 3, 6, 8 and 10, then disables the filtered type (2), the views' other
    // type (6) and the whole entity (8)
    void patch_and_disable_some() {
        for (const auto idx : {2u, 3u, 6u, 8u, 10u}) {
            registry.patch<transform>(entities[idx]);
        }

        registry.disable<transform>(entities[2]);
        registry.disable<velocity>(entities[6]);
        registry.disable(entities[8]);
    }

    tessera::registry registry;
    std::vector<tessera::entity> entities;
    tessera::tick_type since{};
};

} // namespace

TEST_F(change_filter_test, visits_only_what_changed_through_both_walks) {
    for (const auto idx : {3u, 4u, 6u, 8u, 9u}) {
        registry.patch<transform>(entities[idx]);
    }

    // changed twice, in two ticks: visited once
    registry.advance_tick();
    registry.patch<transform>(entities[6]);

    for (const auto how : {walk::log, walk::scan, walk::automatic}) {
        const auto all = visit<false>(registry.view<transform>(), since, how);
        EXPECT_EQ(all, (std::vector{entities[3], entities[4], entities[6], entities[8], entities[9]}));

        const auto moving = visit<false>(registry.view<transform, velocity>(), since, how);
        EXPECT_EQ(moving, (std::vector{entities[4], entities[6], entities[8]}));

        const auto awake = visit<false>(registry.view<transform, velocity>(tessera::exclude<frozen>), since, how);
        EXPECT_EQ(awake, (std::vector{entities[6], entities[8]}));

        EXPECT_TRUE(visit<true>(registry.view<transform>(), since, how).empty());
        EXPECT_EQ(visit<false>(registry.view<transform>(), registry.tick() - 1u, how), (std::vector{entities[6]}));
    }
}

TEST_F(change_filter_test, additions_count_as_changes) {
    const auto fresh = registry.create();
    registry.emplace<transform>(fresh, 0);
    registry.erase<transform>(entities[3]);
    registry.emplace<transform>(entities[3], 1);
    registry.patch<transform>(entities[5]);

    for (const auto how : {walk::log, walk::scan}) {
        EXPECT_EQ(visit<true>(registry.view<transform>(), since, how), (std::vector{entities[3], fresh}));
        EXPECT_EQ(visit<false>(registry.view<transform>(), since, how), (std::vector{entities[3], entities[5], fresh}));
    }
}

TEST_F(change_filter_test, removed_elements_are_not_visited) {
    registry.patch<transform>(entities[2]);
    registry.patch<transform>(entities[7]);
    registry.destroy(entities[2]);

    for (const auto how : {walk::log, walk::scan}) {
        EXPECT_EQ(visit<false>(registry.view<transform>(), since, how), (std::vector{entities[7]}));
    }
}

TEST_F(change_filter_test, callback_forms_and_elements) {
    registry.patch<transform>(entities[2], [](transform &elem) { elem.x = 40; });
    int sum{};
    tessera::each_changed<transform>(registry.view<transform, velocity>(), since,
                                     [&sum](transform &elem, velocity &vel) { sum += elem.x + vel.dx; });
    EXPECT_EQ(sum, 41);

    std::vector<tessera::entity> seen;
    tessera::each_changed<transform>(registry.view<transform>(), since,
                                     [&seen](const tessera::entity entt, const transform &) { seen.push_back(entt); });
    EXPECT_EQ(seen, std::vector{entities[2]});

    int added{};
    tessera::each_added<transform>(registry.view<transform>(), 0u, [&added](const transform &) { ++added; });
    EXPECT_EQ(added, 20);
}

TEST_F(change_filter_test, callbacks_may_patch_and_remove_what_they_visit) {
    for (std::size_t idx{}; idx < entities.size(); idx += 3u) {
        registry.patch<transform>(entities[idx]);
    }

    for (const auto how : {walk::log, walk::scan}) {
        int visited{};
        auto func = [&](const tessera::entity entt, transform &) {
            ++visited;
            registry.advance_tick();
            // a new stamp appends to the log while it is walked: it is not visited again
            registry.patch<transform>(entt);
            registry.erase<transform>(entt);
        };
        tessera::internal::each_since<false, transform>(registry.view<transform>(), since, func, how);
        EXPECT_EQ(visited, how == walk::log ? 7 : 0);
    }

    EXPECT_EQ(registry.storage<transform>().size(), 13u);
}

TEST_F(change_filter_test, disabled_elements_are_not_visited) {
    patch_and_disable_some();

    for (const auto how : {walk::log, walk::scan}) {
        EXPECT_EQ(visit<false>(registry.view<transform>(), since, how),
                  (std::vector{entities[3], entities[6], entities[10]}));
        EXPECT_EQ(visit<false>(registry.view<transform, velocity>(), since, how), (std::vector{entities[10]}));
    }

    registry.enable(entities[8]);

    for (const auto how : {walk::log, walk::scan}) {
        EXPECT_EQ(visit<false>(registry.view<transform, velocity>(), since, how),
                  (std::vector{entities[8], entities[10]}));
    }
}

TEST(change_filter, many_changes_and_log_compaction_agree) {
    tessera::registry registry;
    std::vector<tessera::entity> entities(500u);
    registry.create(entities.begin(), entities.end());
    registry.insert<transform>(entities.begin(), entities.end());

    std::vector<tessera::tick_type> last(entities.size(), registry.tick());

    for (unsigned round{}; round < 200u; ++round) {
        registry.advance_tick();

        for (std::size_t idx = round % 7u; idx < entities.size(); idx += 3u + round % 11u) {
            registry.patch<transform>(entities[idx]);
            last[idx] = registry.tick();
        }
    }

    for (const tessera::tick_type back : {1u, 5u, 50u, 199u}) {
        const auto since = registry.tick() - back;
        std::vector<tessera::entity> expected;

        for (std::size_t idx{}; idx < entities.size(); ++idx) {
            if (tessera::internal::tick_after(last[idx], since, registry.tick())) {
                expected.push_back(entities[idx]);
            }
        }

        std::sort(expected.begin(), expected.end());
        EXPECT_EQ(visit<false>(registry.view<transform>(), since, walk::log), expected);
        EXPECT_EQ(visit<false>(registry.view<transform>(), since, walk::scan), expected);
    }

    // the log stays within a small multiple of the pool
    EXPECT_LE(registry.storage<transform>().tick_column().log_size(), 2u * entities.size() + 64u);
}

// ---------------------------------------------------------------------------------------------------------------
// Groups: owning, partial-owning and non-owning.

namespace {

// A registry of `count` entities with a transform; the even ones also have a velocity, entity 4 is frozen.
std::vector<tessera::entity> populate(tessera::registry &registry, const std::size_t count = 20u) {
    std::vector<tessera::entity> entities(count);
    registry.create(entities.begin(), entities.end());

    for (std::size_t idx{}; idx < entities.size(); ++idx) {
        registry.emplace<transform>(entities[idx], static_cast<int>(idx));

        if (idx % 2u == 0u) {
            registry.emplace<velocity>(entities[idx], 1);
        }
    }

    registry.emplace<frozen>(entities[4]);
    return entities;
}

// Calls test(registry, group, entities) on a fresh registry for each kind of group over transform and velocity
// without frozen; `since` is the tick before the test's changes.
template<typename Test>
void for_each_group_kind(Test test) {
    {
        tessera::registry registry;
        const auto entities = populate(registry);
        test(registry, registry.group(tessera::get<transform, velocity>, tessera::exclude<frozen>), entities);
    }
    {
        tessera::registry registry;
        const auto entities = populate(registry);
        test(registry, registry.group<transform, velocity>(tessera::get<>, tessera::exclude<frozen>), entities);
    }
    {
        tessera::registry registry;
        const auto entities = populate(registry);
        test(registry, registry.group<transform>(tessera::get<velocity>, tessera::exclude<frozen>), entities);
    }
    {
        tessera::registry registry;
        const auto entities = populate(registry);
        test(registry, registry.group<velocity>(tessera::get<transform>, tessera::exclude<frozen>), entities);
    }
}

// The value of an element, whatever its type: groups hand elements in their own order.
int value_of(const transform &elem) { return elem.x; }
int value_of(const velocity &elem) { return elem.dx; }

// Entities visited twice, if any.
std::vector<tessera::entity> duplicates(std::vector<tessera::entity> seen) {
    std::sort(seen.begin(), seen.end());
    std::vector<tessera::entity> twice;

    for (std::size_t idx = 1u; idx < seen.size(); ++idx) {
        if (seen[idx] == seen[idx - 1u]) {
            twice.push_back(seen[idx]);
        }
    }

    return twice;
}

} // namespace

TEST(change_filter_group, every_kind_visits_only_what_changed_through_both_walks) {
    for_each_group_kind([](tessera::registry &registry, const auto group, const auto &entities) {
        const auto since = registry.tick();
        registry.advance_tick();

        for (const auto idx : {3u, 4u, 6u, 8u, 9u, 12u}) {
            registry.patch<transform>(entities[idx]);
        }

        registry.advance_tick();
        registry.patch<transform>(entities[6]);
        const auto fresh = registry.create();
        registry.emplace<velocity>(fresh, 2);
        registry.emplace<transform>(fresh, 7);

        for (const auto how : {walk::log, walk::scan, walk::automatic}) {
            EXPECT_EQ(visit<false>(group, since, how), (std::vector{entities[6], entities[8], entities[12], fresh}));
            EXPECT_EQ(visit<true>(group, since, how), (std::vector{fresh}));
            EXPECT_EQ(visit<false>(group, registry.tick() - 1u, how), (std::vector{entities[6], fresh}));
            EXPECT_TRUE(visit<false>(group, registry.tick(), how).empty());
        }
    });
}

TEST(change_filter_group, callback_forms_and_elements) {
    for_each_group_kind([](tessera::registry &registry, const auto group, const auto &entities) {
        const auto since = registry.tick();
        registry.advance_tick();
        registry.patch<transform>(entities[2], [](transform &elem) { elem.x = 40; });

        int sum{};
        tessera::each_changed<transform>(group, since, [&sum](auto &...elem) { ((sum += value_of(elem)), ...); });
        EXPECT_EQ(sum, 41);

        registry.advance_tick();
        registry.patch<transform>(entities[10]);
        std::vector<tessera::entity> seen;
        tessera::each_changed<transform>(group, registry.tick() - 1u,
                                         [&seen](const tessera::entity entt, auto &...) { seen.push_back(entt); });
        EXPECT_EQ(seen, std::vector{entities[10]});

        int added{};
        tessera::each_added<transform>(group, 0u, [&added](const tessera::entity, auto &&...) { ++added; });
        // the even entities but the frozen one
        EXPECT_EQ(added, 9);

        // an invalid group has no storages: nothing to visit
        int none{};
        tessera::each_added<transform>(std::remove_const_t<decltype(group)>{}, 0u, [&none](auto &&...) { ++none; });
        EXPECT_EQ(none, 0);
    });
}

TEST(change_filter_group, disabled_elements_are_not_visited) {
    for_each_group_kind([](tessera::registry &registry, const auto group, const auto &entities) {
        const auto since = registry.tick();
        registry.advance_tick();

        for (const auto idx : {0u, 2u, 6u, 8u, 10u}) {
            registry.patch<transform>(entities[idx]);
        }

        // the filtered type, the other type, the whole entity
        registry.disable<transform>(entities[2]);
        registry.disable<velocity>(entities[6]);
        registry.disable(entities[8]);

        for (const auto how : {walk::log, walk::scan}) {
            EXPECT_EQ(visit<false>(group, since, how), (std::vector{entities[0], entities[10]}));
        }

        registry.enable<transform>(entities[2]);
        registry.enable(entities[8]);

        for (const auto how : {walk::log, walk::scan}) {
            EXPECT_EQ(visit<false>(group, since, how),
                      (std::vector{entities[0], entities[2], entities[8], entities[10]}));
        }
    });
}

TEST(change_filter_group, callbacks_may_patch_and_remove_what_they_visit) {
    for (const auto how : {walk::log, walk::scan}) {
        for_each_group_kind([how](tessera::registry &registry, const auto group, const auto &entities) {
            const auto since = registry.tick();
            registry.advance_tick();

            for (std::size_t idx{}; idx < entities.size(); idx += 2u) {
                registry.patch<transform>(entities[idx]);
            }

            // patched again, in a later tick, while the walk runs: not visited again
            std::vector<tessera::entity> seen;
            auto patch = [&](const tessera::entity entt, auto &...) {
                seen.push_back(entt);
                registry.advance_tick();
                registry.patch<transform>(entt);
                registry.patch<velocity>(entt);
            };
            tessera::internal::each_since<false, transform>(group, since, patch, how);
            std::sort(seen.begin(), seen.end());
            EXPECT_EQ(seen.size(), 9u);
            EXPECT_TRUE(duplicates(seen).empty());

            // disabling the entity given (it leaves the group): the others are still visited once
            std::vector<tessera::entity> disabled;
            auto disable = [&](const tessera::entity entt, auto &...) {
                disabled.push_back(entt);
                registry.disable(entt);
            };
            tessera::internal::each_since<false, transform>(group, since, disable, how);
            std::sort(disabled.begin(), disabled.end());
            EXPECT_EQ(disabled, seen);
            EXPECT_EQ(group.size(), 0u);

            for (const auto entt : disabled) {
                registry.enable(entt);
            }

            // removal of the entity given, through either type: the others are still visited once
            std::vector<tessera::entity> removed;
            auto remove = [&](const tessera::entity entt, auto &...) {
                removed.push_back(entt);

                if (entt == entities[6]) {
                    registry.destroy(entt);
                } else if (std::find(entities.begin(), entities.end(), entt) - entities.begin() < 10) {
                    registry.erase<velocity>(entt);
                } else {
                    registry.erase<transform>(entt);
                }
            };
            tessera::internal::each_since<false, transform>(group, since, remove, how);
            std::sort(removed.begin(), removed.end());
            EXPECT_EQ(removed, seen);
            EXPECT_EQ(group.size(), 0u);
        });
    }
}

TEST(change_filter_group, many_changes_through_both_walks_agree) {
    tessera::registry registry;
    const auto entities = populate(registry, 600u);
    const auto group = registry.group<transform>(tessera::get<velocity>, tessera::exclude<frozen>);
    const auto since = registry.tick();

    for (unsigned round{}; round < 30u; ++round) {
        registry.advance_tick();

        for (std::size_t idx = round % 5u; idx < entities.size(); idx += 7u + round % 13u) {
            registry.patch<transform>(entities[idx]);
        }

        // members come and go, so the group's block moves
        registry.disable<velocity>(entities[((round * 37u) % entities.size()) & ~std::size_t{1u}]);
        registry.enable<velocity>(entities[((round * 53u) % entities.size()) & ~std::size_t{1u}]);
    }

    for (const tessera::tick_type back : {1u, 3u, 29u}) {
        const auto from = registry.tick() - back;
        std::vector<tessera::entity> expected;

        for (const auto entt : group) {
            if (registry.changed_since<transform>(entt, from)) {
                expected.push_back(entt);
            }
        }

        std::sort(expected.begin(), expected.end());
        EXPECT_EQ(visit<false>(group, from, walk::log), expected);
        EXPECT_EQ(visit<false>(group, from, walk::scan), expected);
    }

    EXPECT_FALSE(visit<false>(group, since, walk::log).empty());
}

// ---------------------------------------------------------------------------------------------------------------
// Runtime views: the tracked storage is passed, and may or may not be one of the view's.

namespace {

// The entities a runtime view's filter on transform visits, sorted, through the given walk.
template<bool Added>
std::vector<tessera::entity> visit_runtime(const tessera::runtime_view &view, tessera::registry &registry,
                                           const tessera::tick_type since, const walk how) {
    std::vector<tessera::entity> out;
    auto func = [&out](const tessera::entity entt) { out.push_back(entt); };
    tessera::internal::each_since<Added>(view, registry.storage<transform>(), since, func, how);
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

TEST_F(change_filter_test, runtime_views_through_both_walks) {
    for (const auto idx : {3u, 4u, 6u, 8u, 9u}) {
        registry.patch<transform>(entities[idx]);
    }

    registry.advance_tick();
    registry.patch<transform>(entities[6]);
    const auto fresh = registry.create();
    registry.emplace<transform>(fresh, 0);
    registry.emplace<velocity>(fresh, 0);

    tessera::runtime_view all{};
    all.iterate(registry.storage<transform>());

    tessera::runtime_view awake{};
    awake.iterate(registry.storage<transform>())
        .iterate(registry.storage<velocity>())
        .exclude(registry.storage<frozen>());

    // the tracked storage is not one of the view's: an extra filter
    tessera::runtime_view moving{};
    moving.iterate(registry.storage<velocity>());

    for (const auto how : {walk::log, walk::scan, walk::automatic}) {
        EXPECT_EQ(visit_runtime<false>(all, registry, since, how),
                  (std::vector{entities[3], entities[4], entities[6], entities[8], entities[9], fresh}));
        EXPECT_EQ(visit_runtime<false>(awake, registry, since, how), (std::vector{entities[6], entities[8], fresh}));
        EXPECT_EQ(visit_runtime<false>(moving, registry, since, how),
                  (std::vector{entities[4], entities[6], entities[8], fresh}));
        EXPECT_EQ(visit_runtime<true>(moving, registry, since, how), (std::vector{fresh}));
        EXPECT_EQ(visit_runtime<false>(awake, registry, registry.tick() - 1u, how), (std::vector{entities[6], fresh}));
        // a runtime view without iterated storages holds no entity
        EXPECT_TRUE(visit_runtime<false>(tessera::runtime_view{}, registry, since, how).empty());
    }
}

TEST_F(change_filter_test, runtime_views_skip_disabled_elements) {
    for (const auto idx : {2u, 3u, 6u, 8u, 10u}) {
        registry.patch<transform>(entities[idx]);
    }

    // the tracked storage, in or out of the view; the view's own storage
    registry.disable<transform>(entities[2]);
    registry.disable<transform>(entities[3]);
    registry.disable<velocity>(entities[6]);

    tessera::runtime_view moving{};
    moving.iterate(registry.storage<velocity>());
    tessera::runtime_view all{};
    all.iterate(registry.storage<transform>());

    for (const auto how : {walk::log, walk::scan}) {
        EXPECT_EQ(visit_runtime<false>(moving, registry, since, how), (std::vector{entities[8], entities[10]}));
        EXPECT_EQ(visit_runtime<false>(all, registry, since, how),
                  (std::vector{entities[6], entities[8], entities[10]}));
    }
}

TEST_F(change_filter_test, filters_follow_the_views_disabled_mode) {
    patch_and_disable_some();

    for (const auto how : {walk::log, walk::scan}) {
        auto single = registry.view<transform>();
        single.visit_disabled(tessera::disabled_mode::include);
        EXPECT_EQ(visit<false>(single, since, how),
                  (std::vector{entities[2], entities[3], entities[6], entities[8], entities[10]}));
        single.visit_disabled(tessera::disabled_mode::only);
        EXPECT_EQ(visit<false>(single, since, how), (std::vector{entities[2], entities[8]}));

        auto pair = registry.view<transform, velocity>();
        pair.visit_disabled(tessera::disabled_mode::include);
        EXPECT_EQ(visit<false>(pair, since, how), (std::vector{entities[2], entities[6], entities[8], entities[10]}));
        pair.visit_disabled(tessera::disabled_mode::only);
        EXPECT_EQ(visit<false>(pair, since, how), (std::vector{entities[2], entities[6], entities[8]}));

        tessera::runtime_view moving{};
        moving.iterate(registry.storage<velocity>()).visit_disabled(tessera::disabled_mode::include);
        EXPECT_EQ(visit_runtime<false>(moving, registry, since, how),
                  (std::vector{entities[2], entities[6], entities[8], entities[10]}));
        moving.visit_disabled(tessera::disabled_mode::only);
        // the runtime view decides which entities count; the tracked storage's disabled elements follow its mode
        EXPECT_EQ(visit_runtime<false>(moving, registry, since, how), (std::vector{entities[6], entities[8]}));
    }
}

TEST_F(change_filter_test, runtime_view_callbacks_may_patch_and_remove_what_they_visit) {
    for (std::size_t idx{}; idx < entities.size(); idx += 3u) {
        registry.patch<transform>(entities[idx]);
    }

    tessera::runtime_view all{};
    all.iterate(registry.storage<transform>());

    for (const auto how : {walk::log, walk::scan}) {
        std::vector<tessera::entity> seen;
        auto patch = [&](const tessera::entity entt) {
            seen.push_back(entt);
            registry.advance_tick();
            registry.patch<transform>(entt);
        };
        tessera::internal::each_since<false>(all, registry.storage<transform>(), since, patch, how);
        EXPECT_EQ(seen.size(), 7u);
        EXPECT_TRUE(duplicates(seen).empty());
    }

    std::vector<tessera::entity> removed;
    auto remove = [&](const tessera::entity entt) {
        removed.push_back(entt);
        registry.erase<transform>(entt);
    };
    tessera::internal::each_since<false>(all, registry.storage<transform>(), since, remove, walk::scan);
    EXPECT_EQ(removed.size(), 7u);
    EXPECT_TRUE(duplicates(removed).empty());
    EXPECT_EQ(registry.storage<transform>().size(), 13u);
}

TEST_F(change_filter_test, runtime_view_public_functions) {
    registry.patch<transform>(entities[5]);
    const auto fresh = registry.create();
    registry.emplace<transform>(fresh, 0);

    tessera::runtime_view all{};
    all.iterate(registry.storage<transform>());
    const auto &pool = registry.storage<transform>();

    std::vector<tessera::entity> changed;
    tessera::each_changed(all, pool, since, [&changed](const tessera::entity entt) { changed.push_back(entt); });
    std::sort(changed.begin(), changed.end());
    EXPECT_EQ(changed, (std::vector{entities[5], fresh}));

    std::vector<tessera::entity> added;
    tessera::each_added(all, pool, since, [&added](const tessera::entity entt) { added.push_back(entt); });
    EXPECT_EQ(added, (std::vector{fresh}));

    // a const runtime view over const storages
    tessera::const_runtime_view readonly{};
    readonly.iterate(std::as_const(pool));
    int count{};
    tessera::each_changed(readonly, pool, since, [&count](const tessera::entity) { ++count; });
    EXPECT_EQ(count, 2);
}

} // namespace unit_entity_change_filter
} // namespace
