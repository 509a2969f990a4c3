// Tests of change_tracking.hpp through a storage used alone: the ticks stamped on emplace, insert and patch, that
// they follow every element through every move of the packed array (swap-and-pop, holes and compact, sort, swaps,
// shrink_to_fit, clear, pool move and swap), the change log and its compaction, clamping, and the costs untracked
// storages do not pay.
#include "support/misuse.hpp"
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <gtest/gtest.h>
#include <memory>
#include <memory_resource>
#include <stdexcept>
#include <tessera/entity/change_tracking.hpp>
#include <tessera/entity/entity.hpp>
#include <tessera/entity/storage.hpp>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using traits = tessera::entt_traits<tessera::entity>;

tessera::entity make(const unsigned idx) { return traits::construct(static_cast<traits::entity_type>(idx), 0u); }

// The value records the tick the element was added at: whatever moves it, value and ticks must stay together.
struct stamped {
    static constexpr bool track_changes = true;
    tessera::tick_type value;
};

struct stamped_in_place {
    static constexpr bool track_changes = true;
    static constexpr bool in_place_delete = true;
    tessera::tick_type value;
};

struct plain {
    tessera::tick_type value;
};

// Throws when built with true.
struct throwing {
    static constexpr bool track_changes = true;
    explicit throwing(const bool fail) : value{1} {
        if (fail) {
            throw std::runtime_error{"throwing"};
        }
    }
    int value;
};

// Tracked through a specialization instead of a member.
struct specialized {
    int value;
};

} // namespace

template<>
struct tessera::component_traits<specialized, tessera::entity> {
    using element_type = specialized;
    using entity_type = tessera::entity;
    static constexpr bool in_place_delete = false;
    static constexpr std::size_t page_size = TESSERA_PACKED_PAGE;
    static constexpr bool track_changes = true;
};

namespace {

template<typename Pool>
tessera::tick_type added_of(const Pool &pool, const tessera::entity entt) {
    return pool.tick_column().at(pool.index(entt)).added;
}

template<typename Pool>
tessera::tick_type changed_of(const Pool &pool, const tessera::entity entt) {
    return pool.tick_column().at(pool.index(entt)).changed;
}

// Every element's ticks agree with the tick its value recorded.
template<typename Pool>
void expect_consistent(const Pool &pool) {
    for (auto [entt, elem] : pool.each()) {
        EXPECT_EQ(added_of(pool, entt), elem.value) << tessera::to_integral(entt);
    }
}

// Emplaces entities 0..count-1, each at its own tick (the storage's own clock).
template<typename Pool>
void fill(Pool &pool, const unsigned count) {
    for (unsigned idx{}; idx < count; ++idx) {
        auto &column = pool.tick_column();
        column.advance_local(1u);
        pool.emplace(make(idx), column.now());
    }
}

} // namespace

TEST(change_tracking, traits_opt_in) {
    static_assert(tessera::component_traits<stamped>::track_changes);
    static_assert(tessera::component_traits<stamped_in_place>::track_changes);
    static_assert(!tessera::component_traits<plain>::track_changes);
    static_assert(!tessera::component_traits<int>::track_changes);
    static_assert(
        tessera::internal::track_changes_of<tessera::component_traits<specialized, tessera::entity>, specialized>);
    // untracked storages keep their size: the column is an empty [[no_unique_address]] member
    static_assert(std::is_empty_v<tessera::internal::tick_column<false, tessera::entity, std::allocator<int>>>);
    static_assert(sizeof(tessera::basic_storage<plain>) == sizeof(tessera::basic_storage<int>));
    static_assert(sizeof(tessera::basic_storage<plain>) < sizeof(tessera::basic_storage<stamped>));
    SUCCEED();
}

TEST(change_tracking, tick_after_is_relative_to_now) {
    using tessera::internal::tick_after;
    EXPECT_TRUE(tick_after(5u, 4u, 5u));
    EXPECT_FALSE(tick_after(4u, 4u, 5u));
    EXPECT_FALSE(tick_after(3u, 4u, 5u));
    // across the wrap: 2 comes after 0xFFFFFFFE when now is 3
    EXPECT_TRUE(tick_after(2u, 0xFFFFFFFEu, 3u));
    EXPECT_FALSE(tick_after(0xFFFFFFFEu, 2u, 3u));
}

TEST(change_tracking, emplace_insert_and_patch_stamp) {
    tessera::basic_storage<stamped> pool;
    auto &column = pool.tick_column();
    EXPECT_FALSE(column.bound());
    EXPECT_EQ(column.now(), 1u);

    pool.emplace(make(0u), 1u);
    column.advance_local(2u);
    const std::vector<tessera::entity> range{make(1u), make(2u)};
    pool.insert(range.begin(), range.end(), stamped{3u});
    column.advance_local(1u);
    pool.patch(make(1u), [](stamped &elem) { elem.value = 4u; });

    EXPECT_EQ(added_of(pool, make(0u)), 1u);
    EXPECT_EQ(changed_of(pool, make(0u)), 1u);
    EXPECT_EQ(added_of(pool, make(1u)), 3u);
    EXPECT_EQ(changed_of(pool, make(1u)), 4u);
    EXPECT_EQ(changed_of(pool, make(2u)), 3u);
    // a patch with no function stamps too
    pool.patch(make(2u));
    EXPECT_EQ(changed_of(pool, make(2u)), 4u);
}

TEST(change_tracking, specialized_traits_track) {
    tessera::basic_storage<specialized> pool;
    pool.emplace(make(3u), 7);
    EXPECT_EQ(pool.tick_column().at(pool.index(make(3u))).added, 1u);
}

TEST(change_tracking, ticks_follow_swap_and_pop) {
    tessera::basic_storage<stamped> pool;
    fill(pool, 8u);
    pool.erase(make(0u));
    pool.erase(make(3u));
    pool.remove(make(7u));
    const std::vector<tessera::entity> range{make(1u), make(5u)};
    pool.erase(range.begin(), range.end());
    expect_consistent(pool);
    EXPECT_EQ(pool.size(), 3u);
}

TEST(change_tracking, ticks_follow_holes_and_compact) {
    tessera::basic_storage<stamped_in_place> pool;
    fill(pool, 8u);
    pool.erase(make(1u));
    pool.erase(make(4u));
    expect_consistent(pool);
    // a hole is filled by the next emplace: the new element gets fresh ticks
    pool.tick_column().advance_local(5u);
    pool.emplace(make(20u), pool.tick_column().now());
    expect_consistent(pool);
    pool.erase(make(0u));
    pool.compact();
    expect_consistent(pool);
}

TEST(change_tracking, ticks_follow_sort_and_swaps) {
    tessera::basic_storage<stamped> pool;
    fill(pool, 16u);
    pool.sort([](const tessera::entity lhs, const tessera::entity rhs) {
        return tessera::to_entity(lhs) % 5u < tessera::to_entity(rhs) % 5u;
    });
    expect_consistent(pool);
    pool.sort_n(6u, [](const tessera::entity lhs, const tessera::entity rhs) { return lhs > rhs; });
    expect_consistent(pool);
    pool.swap_elements(make(2u), make(9u));
    expect_consistent(pool);

    tessera::basic_sparse_set<tessera::entity> order;
    for (unsigned idx = 16u; idx != 0u; --idx) {
        order.push(make(idx - 1u));
    }
    pool.sort_as(order.begin(), order.end());
    expect_consistent(pool);
}

TEST(change_tracking, ticks_survive_shrink_clear_move_and_swap) {
    tessera::basic_storage<stamped> pool;
    fill(pool, 40u);

    for (unsigned idx{}; idx < 40u; idx += 2u) {
        pool.erase(make(idx));
    }

    pool.shrink_to_fit();
    expect_consistent(pool);

    tessera::basic_storage<stamped> moved{std::move(pool)};
    expect_consistent(moved);
    EXPECT_EQ(moved.tick_column().now(), 41u);

    tessera::basic_storage<stamped> other;
    fill(other, 3u);
    moved.swap(other);
    expect_consistent(moved);
    expect_consistent(other);
    EXPECT_EQ(moved.size(), 3u);
    EXPECT_EQ(moved.tick_column().now(), 4u);

    pool = std::move(other);
    expect_consistent(pool);
    EXPECT_EQ(pool.size(), 20u);

    pool.clear();
    EXPECT_EQ(pool.tick_column().log_size(), 0u);
    fill(pool, 2u);
    expect_consistent(pool);
}

TEST(change_tracking, log_holds_one_entry_per_change_per_tick_and_compacts) {
    tessera::basic_storage<stamped> pool;
    auto &column = pool.tick_column();
    pool.emplace(make(0u), 1u);
    EXPECT_EQ(column.log_size(), 1u);

    // patched again in the tick it was added: no new entry
    pool.patch(make(0u));
    EXPECT_EQ(column.log_size(), 1u);

    // one entry per tick in which it changed, until the log outgrows the pool and compacts
    for (unsigned round{}; round < 1000u; ++round) {
        column.advance_local(1u);
        pool.patch(make(0u));
        pool.patch(make(0u));
    }

    EXPECT_LE(column.log_size(), 128u);
    EXPECT_EQ(column.first_after(column.now() - 1u), column.log_size() - 1u);
    const auto &last = column.entry(column.log_size() - 1u);
    EXPECT_EQ(last.entt, make(0u));
    EXPECT_EQ(last.tick, column.now());

    pool.shrink_to_fit();
    EXPECT_EQ(column.log_size(), 1u);
    EXPECT_GT(column.memory(), 0u);
}

TEST(change_tracking, first_after_finds_the_tail) {
    tessera::basic_storage<stamped> pool;
    fill(pool, 10u);
    const auto &column = pool.tick_column();
    EXPECT_EQ(column.first_after(0u), 0u);
    EXPECT_EQ(column.first_after(4u), 3u);
    EXPECT_EQ(column.first_after(11u), 10u);
}

TEST(change_tracking, clamp_keeps_old_ticks_at_the_oldest_age) {
    tessera::basic_storage<stamped> pool;
    auto &column = pool.tick_column();
    pool.emplace(make(0u), 1u);
    column.advance_local(10u);
    pool.emplace(make(1u), 11u);
    column.advance_local(tessera::max_tick_age + 5u);
    column.clamp();

    const auto now = column.now();
    EXPECT_EQ(added_of(pool, make(0u)), now - tessera::max_tick_age);
    EXPECT_EQ(added_of(pool, make(1u)), now - tessera::max_tick_age);
    EXPECT_EQ(column.entry(0u).tick, now - tessera::max_tick_age);
    EXPECT_EQ(column.first_after(now - tessera::max_tick_age - 1u), 0u);
    EXPECT_EQ(column.first_after(now - tessera::max_tick_age), 2u);
}

TEST(change_tracking, failed_emplace_leaves_no_ticks_behind) {
    tessera::basic_storage<throwing> pool;
    pool.emplace(make(0u), false);
    EXPECT_THROW(pool.emplace(make(1u), true), std::runtime_error);
    EXPECT_FALSE(pool.contains(make(1u)));
    EXPECT_EQ(pool.tick_column().log_size(), 1u);
    pool.emplace(make(1u), false);
    EXPECT_EQ(pool.tick_column().at(pool.index(make(1u))).entry, 1u);
}

TEST(change_tracking, ticks_move_to_another_allocator) {
    using pmr_storage = tessera::basic_storage<stamped, tessera::entity, std::pmr::polymorphic_allocator<stamped>>;
    std::pmr::monotonic_buffer_resource first_resource;
    std::pmr::monotonic_buffer_resource second_resource;
    pmr_storage pool{std::pmr::polymorphic_allocator<stamped>{&first_resource}};
    fill(pool, 10u);
    pool.erase(make(3u));

    // the allocators compare unequal: elements and ticks are copied one by one
    pmr_storage moved{std::move(pool), std::pmr::polymorphic_allocator<stamped>{&second_resource}};
    expect_consistent(moved);
    EXPECT_EQ(moved.size(), 9u);
    EXPECT_EQ(moved.tick_column().log_size(), 10u);
    EXPECT_EQ(moved.tick_column().now(), 11u);
    EXPECT_EQ(pool.tick_column().log_size(), 0u);

    // equal allocators: the ticks change hands with the pages
    pmr_storage again{std::move(moved), std::pmr::polymorphic_allocator<stamped>{&second_resource}};
    expect_consistent(again);
    EXPECT_EQ(again.tick_column().log_size(), 10u);
    EXPECT_EQ(moved.tick_column().log_size(), 0u);

    tessera::basic_storage<stamped> plain_pool;
    fill(plain_pool, 4u);
    tessera::basic_storage<stamped> plain_moved{std::move(plain_pool), std::allocator<stamped>{}};
    expect_consistent(plain_moved);
    EXPECT_EQ(plain_moved.tick_column().now(), 5u);
}

TEST(change_tracking, reserve_makes_room_for_ticks_and_log) {
    tessera::basic_storage<stamped> pool;
    EXPECT_EQ(pool.tick_column().memory(), 0u);
    pool.reserve(100u);
    const auto room = pool.tick_column().memory();
    EXPECT_GE(room, 100u * (sizeof(tessera::internal::element_ticks) +
                            sizeof(tessera::internal::change_entry<tessera::entity>)));
    fill(pool, 100u);
    EXPECT_EQ(pool.tick_column().memory(), room);
    expect_consistent(pool);
}

TEST(change_tracking, ticks_span_pages_that_never_move) {
    constexpr auto page = tessera::internal::tick_page_size;
    tessera::basic_storage<stamped> pool;
    fill(pool, 1u);
    const auto *const first = &pool.tick_column().at(0u);
    const auto one_page = pool.tick_column().memory();
    // growing by pages: the records already stored stay where they are
    for (auto idx = 1u; idx < 3u * page + 5u; ++idx) {
        pool.tick_column().advance_local(1u);
        pool.emplace(make(static_cast<unsigned>(idx)), pool.tick_column().now());
    }

    EXPECT_EQ(&pool.tick_column().at(0u), first);
    EXPECT_GT(one_page, 0u);
    EXPECT_GE(pool.tick_column().memory(), 4u * page *
                                               (sizeof(tessera::internal::element_ticks) +
                                                sizeof(tessera::internal::change_entry<tessera::entity>)));
    // swap-and-pop across page boundaries: the last element's ticks move into the first pages
    for (std::size_t idx{}; idx < 2u * page; idx += 3u) {
        pool.erase(make(static_cast<unsigned>(idx)));
    }
    expect_consistent(pool);
    pool.sort([](const tessera::entity lhs, const tessera::entity rhs) {
        return tessera::to_integral(lhs) > tessera::to_integral(rhs);
    });
    expect_consistent(pool);
    // shrink_to_fit gives back the pages no element uses
    const auto before = pool.tick_column().memory();
    pool.shrink_to_fit();
    EXPECT_LT(pool.tick_column().memory(), before);
    expect_consistent(pool);
    pool.clear();
    pool.shrink_to_fit();
    EXPECT_EQ(pool.tick_column().memory(), 0u);
}
