// Tests for the table of pools behind a registry, used on its own: lookup by name and by type index, making and
// discarding pools, the order the walks rely on (reactive pools first), and every walk over the pools.
#include "support/misuse.hpp"
#include <cstddef>
#include <gtest/gtest.h>
#include <iterator>
#include <string>
#include <tessera/core/hashed_string.hpp>
#include <tessera/core/type_info.hpp>
#include <tessera/entity/pool_memory.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/tables/pool_table.hpp>
#include <vector>

namespace {
namespace unit_entity_tables_pool_table {

namespace {

using namespace tessera::literals;

/// Never copied by clone.
struct skipped {
    static constexpr auto clone = tessera::clone_policy::skip;
    int value;
};

/// Erased in place: compact has holes to remove.
struct pinned_value {
    static constexpr bool in_place_delete = true;
    int value;
};

using table_type =
    tessera::internal::pool_table<tessera::registry, tessera::registry::common_type, tessera::registry::allocator_type>;

template<typename Type>
using storage_type = tessera::registry::storage_for_type<Type>;

template<typename Type>
storage_type<Type> &assure(table_type &table, tessera::registry &owner,
                           const tessera::id_type id = tessera::type_hash<Type>::value()) {
    return static_cast<storage_type<Type> &>(table.assure<storage_type<Type>, Type>(id, owner));
}

/// A table with a reactive pool made between two plain ones.
struct PoolTableWithReactive : testing::Test {
    tessera::registry owner{};
    table_type table{owner.get_allocator()};
    storage_type<int> &ints = assure<int>(table, owner);
    storage_type<tessera::reactive> &reactive = assure<tessera::reactive>(table, owner, "late"_hs);
    storage_type<char> &chars = assure<char>(table, owner);
};

} // namespace

TEST(PoolTable, AssureMakesAPoolOnceAndFindsItByName) {
    tessera::registry owner;
    table_type table{owner.get_allocator()};
    EXPECT_EQ(table.begin(), table.end());
    EXPECT_EQ(table.find("named"_hs), nullptr);

    auto &pool = assure<int>(table, owner, "named"_hs);
    EXPECT_EQ(&assure<int>(table, owner, "named"_hs), &pool);
    EXPECT_EQ(table.find("named"_hs), &pool);
    EXPECT_EQ(table.find("named"_hs, tessera::type_id<int>()), &pool);
    EXPECT_EQ(table.find("other"_hs, tessera::type_id<int>()), nullptr);
    EXPECT_EQ(std::distance(table.begin(), table.end()), 1);
    EXPECT_EQ(table.begin()->first, "named"_hs);
    EXPECT_EQ(&pool.registry(), &owner);
    EXPECT_MISUSE(static_cast<void>(table.find("named"_hs, tessera::type_id<char>())),
                  "registry: the pool name is taken by another element type");
}

TEST(PoolTable, AssureCachedFillsTheTypeIndexCacheAndEraseEmptiesIt) {
    tessera::registry owner;
    table_type table{owner.get_allocator()};
    const auto idx = static_cast<std::size_t>(tessera::type_index<double>::value());
    EXPECT_EQ(table.cached(idx), nullptr);

    auto &pool = table.assure_cached<storage_type<double>, double>(idx, owner);
    EXPECT_EQ(table.cached(idx), &pool);
    EXPECT_EQ(table.find(tessera::type_hash<double>::value()), &pool);
    EXPECT_EQ(table.cached(idx + 1u), nullptr);

    EXPECT_TRUE(table.erase(tessera::type_hash<double>::value()));
    EXPECT_EQ(table.cached(idx), nullptr);
    EXPECT_EQ(table.find(tessera::type_hash<double>::value()), nullptr);
    EXPECT_FALSE(table.erase(tessera::type_hash<double>::value()));
}

TEST_F(PoolTableWithReactive, ReactivePoolsGoFirstAndErasingKeepsTheIndexRight) {
    std::vector<tessera::id_type> order;
    for (const auto &entry : table) {
        order.push_back(entry.first);
    }
    EXPECT_EQ(order, (std::vector<tessera::id_type>{"late"_hs, tessera::type_hash<int>::value(),
                                                    tessera::type_hash<char>::value()}));

    EXPECT_TRUE(table.erase("late"_hs));
    EXPECT_EQ(table.find(tessera::type_hash<int>::value()), &ints);
    EXPECT_EQ(table.find(tessera::type_hash<char>::value()), &chars);
    EXPECT_EQ(table.find("late"_hs), nullptr);
}

TEST(PoolTable, RemoveClearAndContainsWalkEveryPool) {
    tessera::registry owner;
    table_type table{owner.get_allocator()};
    auto &ints = assure<int>(table, owner);
    auto &chars = assure<char>(table, owner);
    const auto first = owner.create();
    const auto second = owner.create();
    const auto third = owner.create();
    ints.emplace(first, 1);
    chars.emplace(first, 'a');
    ints.emplace(second, 2);
    chars.emplace(third, 'c');

    EXPECT_TRUE(table.contains(first));
    table.remove(first);
    EXPECT_FALSE(table.contains(first));
    EXPECT_TRUE(table.contains(second));

    const std::vector<tessera::entity> range{second, third};
    table.remove(range.begin(), range.end());
    EXPECT_FALSE(table.contains(second));
    EXPECT_FALSE(table.contains(third));

    ints.emplace(first, 3);
    table.clear();
    EXPECT_TRUE(ints.empty());
    EXPECT_FALSE(table.contains(first));
}

TEST(PoolTable, EraseIfAsksOnlyAboutThePoolsThatContainTheEntity) {
    tessera::registry owner;
    table_type table{owner.get_allocator()};
    auto &ints = assure<int>(table, owner);
    auto &chars = assure<char>(table, owner);
    static_cast<void>(assure<double>(table, owner));
    const auto entt = owner.create();
    ints.emplace(entt, 1);
    chars.emplace(entt, 'a');

    std::vector<tessera::id_type> asked;
    table.erase_if(entt, [&asked](const tessera::id_type id, const tessera::sparse_set &) {
        asked.push_back(id);
        return id == tessera::type_hash<char>::value();
    });

    EXPECT_EQ(asked,
              (std::vector<tessera::id_type>{tessera::type_hash<int>::value(), tessera::type_hash<char>::value()}));
    EXPECT_TRUE(ints.contains(entt));
    EXPECT_FALSE(chars.contains(entt));
}

TEST_F(PoolTableWithReactive, EntriesKeepTheCopyHook) {
    // reactive pools go first, with no twin: they are never copied
    ASSERT_EQ(table.size(), 3u);
    EXPECT_EQ(table[0u].first, "late"_hs);
    EXPECT_EQ(table[0u].twin, nullptr);
    EXPECT_EQ(table[1u].first, tessera::type_hash<int>::value());
    EXPECT_EQ(table[1u].policy, tessera::clone_policy::copy);
    ASSERT_NE(table[1u].twin, nullptr);

    // the twin makes the pool of the same type under the same name in another registry, once
    tessera::registry other;
    auto &made = table[2u].twin(other, table[2u].first);
    EXPECT_EQ(made.info(), tessera::type_id<char>());
    EXPECT_EQ(other.storage(tessera::type_hash<char>::value()), &made);
    EXPECT_EQ(&table[2u].twin(other, table[2u].first), &made);
    auto &named = table[1u].twin(other, "elsewhere"_hs);
    EXPECT_EQ(&named, other.storage("elsewhere"_hs));
    EXPECT_EQ(named.info(), tessera::type_id<int>());
}

TEST(PoolTable, EntriesKeepTheClonePolicyOfTheirType) {
    tessera::registry owner;
    table_type table{owner.get_allocator()};
    static_cast<void>(assure<skipped>(table, owner));
    ASSERT_EQ(table.size(), 1u);
    EXPECT_EQ(table[0u].policy, tessera::clone_policy::skip);
    EXPECT_GT(table.table_bytes(), 0u);
}

TEST(PoolTable, CompactAndShrinkToFitReachEveryPool) {
    tessera::registry owner;
    table_type table{owner.get_allocator()};
    auto &pinned = assure<pinned_value>(table, owner);
    auto &ints = assure<int>(table, owner);
    std::vector<tessera::entity> entities(2048u);
    owner.create(entities.begin(), entities.end());
    pinned.insert(entities.begin(), entities.begin() + 2);
    ints.insert(entities.begin(), entities.end(), 7);
    pinned.erase(entities.front());
    ints.erase(entities.begin() + 1, entities.end());
    const auto before = tessera::memory_of(ints).bytes;

    table.compact();
    EXPECT_EQ(pinned.size(), 1u);
    table.shrink_to_fit();
    EXPECT_LT(tessera::memory_of(ints).bytes, before);
}

TEST(PoolTable, BindPointsEveryPoolToTheNewOwner) {
    tessera::registry owner;
    tessera::registry other;
    table_type table{owner.get_allocator()};
    auto &ints = assure<int>(table, owner);

    table.bind(other);
    EXPECT_EQ(&ints.registry(), &other);
}

TEST(PoolTable, EntriesMeasureThroughTheirOwner) {
    tessera::registry owner;
    table_type table{owner.get_allocator()};
    auto &ints = assure<int>(table, owner);
    static_cast<void>(assure<char>(table, owner, "named"_hs));
    ints.emplace(owner.create(), 1);

    // the shape the memory report reads (memory_report.hpp): what the base class does not say
    const auto shape = table[0u].second.shape();
    EXPECT_EQ(shape.element_size, sizeof(int));
    EXPECT_EQ(shape.pages, ints.pages());
    EXPECT_EQ(shape.element_capacity, ints.capacity());
    EXPECT_EQ(shape.page_table_capacity, ints.page_table_capacity());
    EXPECT_EQ(shape.tick_bytes, 0u);
    EXPECT_EQ(table[1u].second.shape().pages, 0u);
    EXPECT_EQ(table[0u].second.object_size(), sizeof(storage_type<int>));
    EXPECT_GE(table.table_bytes(), 2u * sizeof(tessera::id_type));
}

} // namespace unit_entity_tables_pool_table
} // namespace
