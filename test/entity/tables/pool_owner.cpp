// Tests of tables/pool_owner.hpp, how a registry owns its pools: building a derived object through the allocator,
// destroying it through the base, moves, and what a throwing constructor or a failed allocation leaves behind.
#include "support/tracking_allocator.hpp"
#include <cstdint>
#include <gtest/gtest.h>
#include <new>
#include <stdexcept>
#include <string>
#include <tessera/entity/tables/pool_owner.hpp>
#include <utility>

namespace {
namespace unit_entity_tables_pool_owner {

namespace {

using tessera_test::allocation_log;
using tessera_test::tracking_allocator;

struct base {
    virtual ~base() = default;
    [[nodiscard]] virtual int value() const = 0;
};

struct derived final : base {
    derived(int &destroyed_count, const int init) : destroyed{&destroyed_count}, number{init} {}
    derived(const derived &) = delete;
    derived &operator=(const derived &) = delete;
    ~derived() override { ++*destroyed; }
    [[nodiscard]] int value() const override { return number; }

    int *destroyed;
    int number;
    std::string padding{"a string long enough to live on the heap, not in the small buffer"};
};

struct alignas(64) over_aligned final : base {
    [[nodiscard]] int value() const override { return 64; }
    int number{};
};

struct throwing final : base {
    throwing() { throw std::runtime_error{"throwing: constructor"}; }
    [[nodiscard]] int value() const override { return 0; }
};

using owner = tessera::internal::pool_owner<base, tracking_allocator<int>>;

TEST(PoolOwner, BuildsTheObjectThroughTheAllocatorAndDestroysItThroughTheBase) {
    allocation_log log{};
    int destroyed{};
    {
        const auto pool = owner::make<derived>(tracking_allocator<int>{log}, destroyed, 42);
        ASSERT_TRUE(pool);
        EXPECT_EQ(pool->value(), 42);
        EXPECT_EQ((*pool).value(), 42);
        EXPECT_EQ(pool.get()->value(), 42);
        EXPECT_EQ(log.allocations, 1u);
        EXPECT_EQ(log.live_bytes, sizeof(derived));
        EXPECT_EQ(destroyed, 0);
    }
    EXPECT_EQ(destroyed, 1);
    EXPECT_TRUE(log.balanced());
}

TEST(PoolOwner, AnOverAlignedObjectGetsAlignedMemory) {
    allocation_log log{};
    {
        const auto pool = owner::make<over_aligned>(tracking_allocator<int>{log});
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(pool.get()) % alignof(over_aligned), 0u);
        EXPECT_EQ(pool->value(), 64);
    }
    EXPECT_TRUE(log.balanced());
}

TEST(PoolOwner, AnEmptyOwnerHoldsNothing) {
    allocation_log log{};
    const owner pool{tracking_allocator<int>{log}};
    EXPECT_FALSE(pool);
    EXPECT_EQ(pool.get(), nullptr);
    EXPECT_EQ(log.allocations, 0u);
}

TEST(PoolOwner, MovesHandTheObjectOverAndAssignmentDestroysThePreviousOne) {
    allocation_log log{};
    int destroyed{};
    {
        auto first = owner::make<derived>(tracking_allocator<int>{log}, destroyed, 1);
        auto second{std::move(first)};
        EXPECT_FALSE(first);
        ASSERT_TRUE(second);
        EXPECT_EQ(second->value(), 1);

        auto third = owner::make<derived>(tracking_allocator<int>{log}, destroyed, 3);
        third = std::move(second);
        EXPECT_EQ(destroyed, 1);
        EXPECT_FALSE(second);
        EXPECT_EQ(third->value(), 1);
        EXPECT_EQ(log.live(), 1u);

        auto &self = third;
        third = std::move(self);
        EXPECT_EQ(third->value(), 1);
        EXPECT_EQ(destroyed, 1);
    }
    EXPECT_EQ(destroyed, 2);
    EXPECT_TRUE(log.balanced());
}

TEST(PoolOwner, AThrowingConstructorLeavesNoMemoryBehind) {
    allocation_log log{};
    EXPECT_THROW(static_cast<void>(owner::make<throwing>(tracking_allocator<int>{log})), std::runtime_error);
    EXPECT_EQ(log.allocations, 1u);
    EXPECT_TRUE(log.balanced());
}

TEST(PoolOwner, AFailedAllocationBuildsNothing) {
    allocation_log log{};
    log.fail_after = 0u;
    int destroyed{};
    EXPECT_THROW(static_cast<void>(owner::make<derived>(tracking_allocator<int>{log}, destroyed, 7)), std::bad_alloc);
    EXPECT_EQ(destroyed, 0);
    EXPECT_TRUE(log.balanced());
}

} // namespace

} // namespace unit_entity_tables_pool_owner
} // namespace
