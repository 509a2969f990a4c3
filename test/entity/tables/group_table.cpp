// Tests for the table of group handlers behind a registry, used on its own: making and finding handlers, and
// what the table answers about the pools the groups own or use.
#include "support/misuse.hpp"
#include <gtest/gtest.h>
#include <tessera/core/type_info.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/tables/group_table.hpp>

namespace {
namespace unit_entity_tables_group_table {

namespace {

using table_type = tessera::internal::group_table<tessera::registry::allocator_type>;

} // namespace

TEST(GroupTable, EmplaceMakesAHandlerThatFindReturns) {
    tessera::registry reg;
    table_type table{reg.get_allocator()};
    using group_type = decltype(reg.group<int>(tessera::get<char>, tessera::exclude<double>));
    using handler_type = group_type::handler;
    EXPECT_EQ(table.find<handler_type>(group_type::group_id()), nullptr);

    auto &handler = table.emplace<handler_type>(group_type::group_id(), reg.get_allocator(), reg.storage<int>(),
                                                reg.storage<char>(), reg.storage<double>());
    EXPECT_EQ(table.find<handler_type>(group_type::group_id()), &handler);
}

TEST(GroupTable, OwnedAndUsesAnswerForEveryHandler) {
    tessera::registry reg;
    table_type table{reg.get_allocator()};
    using group_type = decltype(reg.group<int>(tessera::get<char>));
    static_cast<void>(table.emplace<group_type::handler>(group_type::group_id(), reg.get_allocator(),
                                                         reg.storage<int>(), reg.storage<char>()));

    EXPECT_TRUE(table.owned<int>());
    EXPECT_FALSE(table.owned<char>());
    EXPECT_TRUE((table.owned<char, int>()));
    EXPECT_TRUE(table.uses(static_cast<const void *>(static_cast<const tessera::sparse_set *>(&reg.storage<char>()))));
    EXPECT_FALSE(
        table.uses(static_cast<const void *>(static_cast<const tessera::sparse_set *>(&reg.storage<double>()))));
    EXPECT_FALSE(table.uses(nullptr));
    table.assert_not_owned<char>();
    EXPECT_MISUSE(table.assert_not_owned<int>(), "is already owned by another group");
}

TEST(GroupTable, MemberSetBytesCountsTheSetsOfNonOwningGroups) {
    tessera::registry reg;
    table_type table{reg.get_allocator()};
    EXPECT_EQ(table.member_set_bytes(), 0u);

    using owning_type = decltype(reg.group<int>());
    static_cast<void>(
        table.emplace<owning_type::handler>(owning_type::group_id(), reg.get_allocator(), reg.storage<int>()));
    using non_owning_type = decltype(reg.group(tessera::get<char>));
    static_cast<void>(
        table.emplace<non_owning_type::handler>(non_owning_type::group_id(), reg.get_allocator(), reg.storage<char>()));

    const auto entt = reg.create();
    reg.emplace<int>(entt, 1);
    reg.emplace<char>(entt, 2);
    EXPECT_GT(table.member_set_bytes(), 0u);
}

} // namespace unit_entity_tables_group_table
} // namespace
