// Tests of paged/page_table.hpp, the table of page pointers behind a storage: exact growth, truncation and shrinking,
// moves and swaps with propagating, non-propagating and unequal allocators, and allocation failure.
#include "support/misuse.hpp"
#include "support/tracking_allocator.hpp"
#include <cstddef>
#include <gtest/gtest.h>
#include <memory>
#include <new>
#include <tessera/entity/paged/page_table.hpp>
#include <type_traits>
#include <utility>

namespace {
namespace unit_entity_paged_page_table {

namespace {

using tessera_test::allocation_log;
using tessera_test::tracking_allocator;

using table = tessera::internal::page_table<int, tracking_allocator<int *>>;

// A tracking allocator that never propagates: tables keep the allocator they were built with.
template<typename Type>
struct sticky_allocator : tracking_allocator<Type> {
    using propagate_on_container_move_assignment = std::false_type;
    using propagate_on_container_swap = std::false_type;

    template<typename Other>
    struct rebind {
        using other = sticky_allocator<Other>;
    };

    explicit sticky_allocator(allocation_log &log) noexcept : tracking_allocator<Type>{log} {}

    template<typename Other>
    sticky_allocator(const sticky_allocator<Other> &other) noexcept : tracking_allocator<Type>{other} {}
};

using sticky_table = tessera::internal::page_table<int, sticky_allocator<int *>>;

int pages[8]{};

TEST(PageTable, StartsEmptyAndAllocatesNothing) {
    allocation_log log{};
    {
        const table pointers{tracking_allocator<int *>{log}};
        EXPECT_EQ(pointers.size(), 0u);
        EXPECT_EQ(pointers.capacity(), 0u);
        EXPECT_EQ(pointers.data(), nullptr);
    }
    EXPECT_EQ(log.allocations, 0u);
}

TEST(PageTable, ReserveGrowsExactlyAndKeepsThePointers) {
    allocation_log log{};
    {
        table pointers{tracking_allocator<int *>{log}};
        pointers.reserve(2u);
        EXPECT_EQ(pointers.capacity(), 2u);
        pointers.push_back(&pages[0]);
        pointers.push_back(&pages[1]);

        pointers.reserve(5u);
        EXPECT_EQ(pointers.capacity(), 5u);
        EXPECT_EQ(pointers.size(), 2u);
        EXPECT_EQ(pointers[0u], &pages[0]);
        EXPECT_EQ(pointers[1u], &pages[1]);
        EXPECT_EQ(pointers.data()[1u], &pages[1]);
        EXPECT_EQ(log.allocations, 2u);
        EXPECT_EQ(log.deallocations, 1u);

        // asking for less than there is does nothing
        pointers.reserve(3u);
        EXPECT_EQ(pointers.capacity(), 5u);
        EXPECT_EQ(log.allocations, 2u);
    }
    EXPECT_TRUE(log.balanced());
}

TEST(PageTable, PushBackWithoutRoomIsMisuse) {
    allocation_log log{};
    table pointers{tracking_allocator<int *>{log}};
    EXPECT_MISUSE(pointers.push_back(&pages[0]), "push_back without room");
    pointers.reserve(1u);
    pointers.push_back(&pages[0]);
    EXPECT_MISUSE(pointers.push_back(&pages[1]), "reserve first");
    EXPECT_EQ(pointers.size(), 1u);
}

TEST(PageTable, TruncateAndClearKeepTheBufferShrinkToFitReleasesIt) {
    allocation_log log{};
    {
        table pointers{tracking_allocator<int *>{log}};
        pointers.reserve(4u);

        for (int i{}; i < 4; ++i) {
            pointers.push_back(&pages[i]);
        }

        pointers.truncate(6u);
        EXPECT_EQ(pointers.size(), 4u);
        pointers.truncate(3u);
        EXPECT_EQ(pointers.size(), 3u);
        EXPECT_EQ(pointers.capacity(), 4u);

        pointers.shrink_to_fit();
        EXPECT_EQ(pointers.capacity(), 3u);
        EXPECT_EQ(pointers[2u], &pages[2]);

        pointers.clear();
        EXPECT_EQ(pointers.size(), 0u);
        EXPECT_EQ(pointers.capacity(), 3u);

        pointers.shrink_to_fit();
        EXPECT_EQ(pointers.capacity(), 0u);
        EXPECT_EQ(pointers.data(), nullptr);
        EXPECT_EQ(log.live(), 0u);

        // a released table grows again
        pointers.reserve(1u);
        pointers.push_back(&pages[7]);
        EXPECT_EQ(pointers[0u], &pages[7]);
    }
    EXPECT_TRUE(log.balanced());
}

TEST(PageTable, MovesAndSwapsHandTheBufferOver) {
    allocation_log log{};
    {
        table pointers{tracking_allocator<int *>{log}};
        pointers.reserve(2u);
        pointers.push_back(&pages[0]);
        pointers.push_back(&pages[1]);

        table moved{std::move(pointers)};
        EXPECT_EQ(pointers.size(), 0u);
        EXPECT_EQ(pointers.data(), nullptr);
        ASSERT_EQ(moved.size(), 2u);
        EXPECT_EQ(moved[1u], &pages[1]);

        table other{tracking_allocator<int *>{log}};
        other.reserve(1u);
        other.push_back(&pages[5]);

        // assignment releases what the target held
        other = std::move(moved);
        EXPECT_EQ(moved.size(), 0u);
        ASSERT_EQ(other.size(), 2u);
        EXPECT_EQ(other[0u], &pages[0]);
        EXPECT_EQ(log.live(), 1u);

        moved.reserve(1u);
        moved.push_back(&pages[3]);
        swap(moved, other);
        ASSERT_EQ(moved.size(), 2u);
        ASSERT_EQ(other.size(), 1u);
        EXPECT_EQ(other[0u], &pages[3]);
        EXPECT_EQ(moved[1u], &pages[1]);

        auto &self = other;
        other = std::move(self);
        EXPECT_EQ(other.size(), 1u);
    }
    EXPECT_TRUE(log.balanced());
}

TEST(PageTable, AllocatorExtendedMoveStealsFromAnEqualAllocatorAndCopiesFromAnother) {
    allocation_log first{};
    allocation_log second{};
    {
        table pointers{tracking_allocator<int *>{first}};
        pointers.reserve(3u);
        pointers.push_back(&pages[0]);
        pointers.push_back(&pages[1]);

        table stolen{std::move(pointers), tracking_allocator<int *>{first}};
        EXPECT_EQ(first.allocations, 1u);
        EXPECT_EQ(pointers.size(), 0u);
        ASSERT_EQ(stolen.size(), 2u);

        table copied{std::move(stolen), tracking_allocator<int *>{second}};
        EXPECT_EQ(second.allocations, 1u);
        EXPECT_EQ(stolen.size(), 0u);
        ASSERT_EQ(copied.size(), 2u);
        EXPECT_EQ(copied[1u], &pages[1]);
        EXPECT_EQ(&copied.get_allocator().log(), &second);

        const table from_empty{table{tracking_allocator<int *>{first}}, tracking_allocator<int *>{second}};
        EXPECT_EQ(from_empty.size(), 0u);
        EXPECT_EQ(second.allocations, 1u);
    }
    EXPECT_TRUE(first.balanced());
    EXPECT_TRUE(second.balanced());
}

TEST(PageTable, NonPropagatingUnequalAllocatorsKeepTheirOwnBuffer) {
    // the copy may allocate: noexcept only for allocators that propagate or are always equal
    static_assert(std::is_nothrow_move_assignable_v<table>);
    static_assert(std::is_nothrow_move_assignable_v<tessera::internal::page_table<int, std::allocator<int *>>>);
    static_assert(!std::is_nothrow_move_assignable_v<sticky_table>);

    allocation_log first{};
    allocation_log second{};
    {
        sticky_table source{sticky_allocator<int *>{first}};
        source.reserve(2u);
        source.push_back(&pages[0]);
        source.push_back(&pages[1]);

        // a failed copy leaves both tables as they were
        sticky_table target{sticky_allocator<int *>{second}};
        second.fail_after = 0u;
        EXPECT_THROW(target = std::move(source), std::bad_alloc);
        second.fail_after = allocation_log::never;
        EXPECT_EQ(source.size(), 2u); // NOLINT(bugprone-use-after-move)
        EXPECT_EQ(target.size(), 0u);

        target = std::move(source);
        EXPECT_EQ(&target.get_allocator().log(), &second);
        EXPECT_EQ(source.size(), 0u);
        ASSERT_EQ(target.size(), 2u);
        EXPECT_EQ(target[0u], &pages[0]);
        EXPECT_EQ(second.allocations, 1u);

        // same allocator: the buffer moves
        sticky_table sibling{sticky_allocator<int *>{second}};
        sibling = std::move(target);
        EXPECT_EQ(second.allocations, 1u);
        EXPECT_EQ(sibling.size(), 2u);

        // swap without propagation keeps the allocators where they are
        sticky_table other{sticky_allocator<int *>{second}};
        other.swap(sibling);
        EXPECT_EQ(other.size(), 2u);
        EXPECT_EQ(&other.get_allocator().log(), &second);
    }
    EXPECT_TRUE(first.balanced());
    EXPECT_TRUE(second.balanced());
}

TEST(PageTable, FailedGrowthLeavesTheTableAsItWas) {
    allocation_log log{};
    {
        table pointers{tracking_allocator<int *>{log}};
        pointers.reserve(1u);
        pointers.push_back(&pages[0]);

        log.fail_after = 0u;
        EXPECT_THROW(pointers.reserve(10u), std::bad_alloc);
        log.fail_after = allocation_log::never;

        EXPECT_EQ(pointers.capacity(), 1u);
        ASSERT_EQ(pointers.size(), 1u);
        EXPECT_EQ(pointers[0u], &pages[0]);

        pointers.reserve(2u);
        pointers.push_back(&pages[1]);
        log.fail_after = 0u;
        pointers.truncate(1u);
        EXPECT_THROW(pointers.shrink_to_fit(), std::bad_alloc);
        log.fail_after = allocation_log::never;
        EXPECT_EQ(pointers.capacity(), 2u);
        EXPECT_EQ(pointers[0u], &pages[0]);
    }
    EXPECT_TRUE(log.balanced());
}

} // namespace

} // namespace unit_entity_paged_page_table
} // namespace
