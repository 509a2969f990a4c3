// Tests of the disabled tail of sparse_set.hpp: the disabled tail of swap-and-pop sets and storages. Disabling and
// enabling move one identifier (and its element) across the boundary in_use(); additions join the enabled region,
// removals keep the tail contiguous; sorting stays on the enabled side; the misuse checks.
#include "support/misuse.hpp"
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <gtest/gtest.h>
#include <string>
#include <tessera/entity/entity.hpp>
#include <tessera/entity/sparse_set.hpp>
#include <tessera/entity/storage.hpp>
#include <vector>

namespace {
namespace unit_entity_sparse_set_disable {

namespace {

using tessera::deletion_policy;
using tessera::entity;
using traits = tessera::entt_traits<entity>;

[[nodiscard]] entity make(const std::uint32_t index) { return traits::construct(index, 0u); }

// every identifier below in_use() is enabled, every one from there on disabled, and the sparse array agrees
template<typename Set>
void expect_consistent(const Set &set) {
    for (std::size_t pos{}; pos < set.size(); ++pos) {
        const auto entt = set.data()[pos];
        ASSERT_EQ(set.index(entt), pos);
        EXPECT_EQ(set.enabled(entt), pos < set.in_use());
    }

    EXPECT_EQ(set.in_use() + set.disabled_size(), set.size());
}

struct stunned {
    int turns{};
};

} // namespace

TEST(SparseSetDisable, DisableAndEnableMoveAcrossTheBoundary) {
    tessera::basic_sparse_set<entity> set{};

    for (std::uint32_t next{}; next < 6u; ++next) {
        set.push(make(next));
    }

    EXPECT_EQ(set.in_use(), 6u);
    EXPECT_TRUE(set.disable(make(1u)));
    EXPECT_FALSE(set.disable(make(1u)));
    EXPECT_TRUE(set.disable(make(4u)));
    EXPECT_EQ(set.in_use(), 4u);
    EXPECT_EQ(set.disabled_size(), 2u);
    EXPECT_TRUE(set.contains(make(1u)));
    EXPECT_FALSE(set.enabled(make(1u)));
    EXPECT_TRUE(set.enabled(make(0u)));
    EXPECT_FALSE(set.enabled(make(9u)));
    expect_consistent(set);

    EXPECT_TRUE(set.enable(make(1u)));
    EXPECT_FALSE(set.enable(make(1u)));
    EXPECT_EQ(set.in_use(), 5u);
    expect_consistent(set);
}

TEST(SparseSetDisable, IterationVisitsOnlyTheEnabled) {
    tessera::basic_sparse_set<entity> set{};

    for (std::uint32_t next{}; next < 100u; ++next) {
        set.push(make(next));
    }

    for (std::uint32_t next{}; next < 100u; next += 2u) {
        set.disable(make(next));
    }

    std::size_t visited{};

    for (auto it = set.end() - static_cast<std::ptrdiff_t>(set.in_use()); it != set.end(); ++it) {
        EXPECT_EQ(traits::to_entity(*it) % 2u, 1u);
        ++visited;
    }

    EXPECT_EQ(visited, 50u);
}

TEST(SparseSetDisable, AdditionsJoinTheEnabledRegion) {
    tessera::basic_sparse_set<entity> set{};
    set.push(make(0u));
    set.push(make(1u));
    set.disable(make(0u));
    set.disable(make(1u));

    const auto it = set.push(make(2u));
    EXPECT_EQ(*it, make(2u));
    EXPECT_TRUE(set.enabled(make(2u)));
    const std::vector<entity> more{make(3u), make(4u), make(5u)};
    set.push(more.begin(), more.end());
    EXPECT_EQ(set.in_use(), 4u);
    EXPECT_EQ(set.disabled_size(), 2u);
    expect_consistent(set);
}

TEST(SparseSetDisable, RemovalsKeepTheTailContiguous) {
    tessera::basic_sparse_set<entity> set{};

    for (std::uint32_t next{}; next < 8u; ++next) {
        set.push(make(next));
    }

    set.disable(make(2u));
    set.disable(make(5u));
    set.disable(make(7u));
    set.erase(make(0u));
    expect_consistent(set);
    set.erase(make(5u));
    expect_consistent(set);
    EXPECT_EQ(set.disabled_size(), 2u);
    const std::vector<entity> listed{make(1u), make(7u)};
    set.erase(listed.begin(), listed.end());
    expect_consistent(set);
    EXPECT_EQ(set.disabled_size(), 1u);
    EXPECT_EQ(set.in_use(), 3u);
    set.erase(set.begin(), set.end());
    EXPECT_EQ(set.size(), 0u);
    EXPECT_EQ(set.disabled_size(), 0u);
}

TEST(SparseSetDisable, ClearResetsTheBoundary) {
    tessera::basic_sparse_set<entity> set{};
    set.push(make(0u));
    set.disable(make(0u));
    set.clear();
    EXPECT_EQ(set.disabled_size(), 0u);
    set.push(make(0u));
    EXPECT_TRUE(set.enabled(make(0u)));
}

TEST(SparseSetDisable, MoveAndSwapCarryTheBoundary) {
    tessera::basic_sparse_set<entity> set{};
    set.push(make(0u));
    set.push(make(1u));
    set.disable(make(0u));

    tessera::basic_sparse_set<entity> other{std::move(set)};
    EXPECT_EQ(other.disabled_size(), 1u);
    EXPECT_FALSE(other.enabled(make(0u)));

    tessera::basic_sparse_set<entity> third{};
    third.swap(other);
    EXPECT_EQ(third.disabled_size(), 1u);
    EXPECT_EQ(other.disabled_size(), 0u);
    other = std::move(third);
    EXPECT_EQ(other.disabled_size(), 1u);
    expect_consistent(other);
}

TEST(SparseSetDisable, SortKeepsTheDisabledTail) {
    tessera::basic_sparse_set<entity> set{};

    for (std::uint32_t next{}; next < 6u; ++next) {
        set.push(make(next));
    }

    set.disable(make(1u));
    set.disable(make(4u));
    set.sort(std::greater<>{});
    expect_consistent(set);
    EXPECT_EQ(set.in_use(), 4u);
    EXPECT_TRUE(std::is_sorted(set.end() - 4, set.end(), std::greater<>{}));
    EXPECT_MISUSE(set.sort_n(6u, std::less<>{}), "exceeds the enabled identifiers");
    EXPECT_MISUSE(set.swap_elements(make(1u), make(0u)), "cannot swap an enabled identifier with a disabled one");

    const std::vector<entity> order{make(4u), make(0u), make(3u)};
    set.sort_as(order.begin(), order.end());
    expect_consistent(set);
    // the first enabled position in iteration order; begin() is the disabled tail's
    EXPECT_EQ(set.data()[set.in_use() - 1u], make(0u));
}

TEST(SparseSetDisable, Misuse) {
    tessera::basic_sparse_set<entity> set{};
    EXPECT_MISUSE(set.disable(make(0u)), "disable/enable: the identifier is not in the set");
    EXPECT_MISUSE(set.enable(make(0u)), "disable/enable: the identifier is not in the set");

    tessera::basic_sparse_set<entity> stable{deletion_policy::in_place};
    stable.push(make(0u));
    EXPECT_MISUSE(stable.disable(make(0u)), "only swap-and-pop storages can disable");
    EXPECT_EQ(stable.disabled_size(), 0u);
}

TEST(StorageDisable, ElementsTravelWithTheirEntity) {
    tessera::storage<stunned> pool{};

    for (std::uint32_t next{}; next < 5u; ++next) {
        pool.emplace(make(next), static_cast<int>(next));
    }

    pool.disable(make(1u));
    pool.disable(make(3u));

    for (std::uint32_t next{}; next < 5u; ++next) {
        EXPECT_EQ(pool.get(make(next)).turns, static_cast<int>(next));
    }

    // an addition while some are disabled: the new element is enabled and the reference is the right one
    auto &added = pool.emplace(make(7u), 7);
    EXPECT_EQ(&added, &pool.get(make(7u)));
    EXPECT_TRUE(pool.enabled(make(7u)));
    const std::vector<entity> more{make(8u), make(9u)};
    pool.insert(more.begin(), more.end(), stunned{8});
    EXPECT_EQ(pool.get(make(9u)).turns, 8);
    expect_consistent(pool);

    pool.erase(make(0u));
    pool.erase(make(3u));
    pool.remove(make(2u));
    expect_consistent(pool);
    EXPECT_EQ(pool.get(make(1u)).turns, 1);
    EXPECT_EQ(pool.get(make(4u)).turns, 4);
    EXPECT_EQ(pool.get(make(7u)).turns, 7);
    EXPECT_EQ(pool.disabled_size(), 1u);

    // storage iteration (each) includes the disabled elements; views do not
    std::size_t all{};
    for ([[maybe_unused]] auto [entt, elem] : pool.each()) {
        ++all;
    }
    EXPECT_EQ(all, pool.size());
}

TEST(StorageDisable, StringsSurviveTheMoves) {
    tessera::storage<std::string> pool{};

    for (std::uint32_t next{}; next < 40u; ++next) {
        pool.emplace(make(next), std::string(30u, static_cast<char>('a' + next % 26u)));
    }

    for (std::uint32_t next{}; next < 40u; next += 3u) {
        pool.disable(make(next));
    }

    for (std::uint32_t next{}; next < 40u; next += 4u) {
        pool.erase(make(next));
    }

    for (std::uint32_t next{}; next < 40u; ++next) {
        if (pool.contains(make(next))) {
            EXPECT_EQ(pool.get(make(next)), std::string(30u, static_cast<char>('a' + next % 26u)));
        }
    }

    expect_consistent(pool);
}

TEST(StorageDisable, EmptyTypes) {
    struct tag {};
    tessera::storage<tag> pool{};
    pool.emplace(make(0u));
    pool.emplace(make(1u));
    EXPECT_TRUE(pool.disable(make(0u)));
    pool.emplace(make(2u));
    const std::vector<entity> more{make(3u)};
    pool.insert(more.begin(), more.end());
    expect_consistent(pool);
    EXPECT_EQ(pool.in_use(), 3u);
}

} // namespace unit_entity_sparse_set_disable
} // namespace
