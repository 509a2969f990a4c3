// Tests of id_table.hpp: the name-to-value table behind the dispatcher and the emitter.
#include <tessera/signal/id_table.hpp>

#include <memory>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "support/tracking_allocator.hpp"

namespace {
namespace unit_signal_id_table {

namespace {

using table_type = tessera::internal::id_table<std::string, std::allocator<void>>;

} // namespace

TEST(id_table, insert_find_and_order) {
    table_type table{std::allocator<void>{}};
    ASSERT_EQ(table.find(1u), nullptr);
    ASSERT_TRUE(table.items().empty());

    // enough names to grow the index a few times, including ones that differ only in high bits
    for (tessera::id_type name = 0u; name < 100u; ++name) {
        table.insert(name << 20u, std::to_string(name));
    }
    for (tessera::id_type name = 0u; name < 100u; ++name) {
        ASSERT_NE(table.find(name << 20u), nullptr);
        ASSERT_EQ(*table.find(name << 20u), std::to_string(name));
    }
    ASSERT_EQ(table.find(7u), nullptr);
    ASSERT_EQ(table.items().size(), 100u);
    ASSERT_EQ(table.items().front().name, 0u);
    ASSERT_EQ(std::as_const(table).items().back().value, "99");
}

TEST(id_table, erase_moves_the_last_entry) {
    table_type table{std::allocator<void>{}};
    table.insert(10u, "a");
    table.insert(20u, "b");
    table.insert(30u, "c");
    table.erase(10u);
    ASSERT_EQ(table.find(10u), nullptr);
    ASSERT_EQ(*table.find(20u), "b");
    ASSERT_EQ(*table.find(30u), "c");
    ASSERT_EQ(table.items().front().name, 30u);
    table.erase(99u);
    ASSERT_EQ(table.items().size(), 2u);

    table.clear();
    ASSERT_EQ(table.find(20u), nullptr);
    ASSERT_TRUE(table.items().empty());
    table.insert(20u, "again");
    ASSERT_EQ(*table.find(20u), "again");
}

TEST(id_table, move_and_swap) {
    table_type table{std::allocator<void>{}};
    table.insert(1u, "one");
    table_type moved{std::move(table)};
    ASSERT_EQ(table.find(1u), nullptr);
    ASSERT_EQ(*moved.find(1u), "one");
    table.insert(2u, "two");

    table_type other{std::move(moved), std::allocator<void>{}};
    other.swap(table);
    ASSERT_EQ(*other.find(2u), "two");
    ASSERT_EQ(*table.find(1u), "one");
    ASSERT_EQ(other.find(1u), nullptr);
}

TEST(id_table, allocator) {
    tessera_test::allocation_log log{};
    {
        tessera::internal::id_table<int, tessera_test::tracking_allocator<void>> table{
            tessera_test::tracking_allocator<void>{log}};
        ASSERT_EQ(log.allocations, 0u);
        table.insert(5u, 5);
        ASSERT_GT(log.allocations, 0u);
        ASSERT_EQ(table.get_allocator(), tessera_test::tracking_allocator<void>{log});
    }
    ASSERT_TRUE(log.balanced());
}

} // namespace unit_signal_id_table
} // namespace
