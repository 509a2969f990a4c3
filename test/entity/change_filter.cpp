// Tests of change_filter.hpp: each_changed and each_added over views of one and several types, with excludes,
// through the change log and through the scan (both must agree), stale log entries, functions that patch or
// remove what they are given, and the argument forms of the callback.
#include <algorithm>
#include <cstddef>
#include <gtest/gtest.h>
#include <tessera/entity/change_filter.hpp>
#include <tessera/entity/entity.hpp>
#include <tessera/entity/registry.hpp>
#include <vector>

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
