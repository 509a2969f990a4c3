// Tests of sparse_set.hpp: the packed/sparse representation under the three deletion policies, iteration by
// position, removal, holes and the in-place free list, the swap-only in-use region, sorting, memory and
// allocators, and the misuse checks.
#include "support/misuse.hpp"
#include "support/tracking_allocator.hpp"
#include "support/tracking_resource.hpp"
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <gtest/gtest.h>
#include <initializer_list>
#include <iterator>
#include <memory_resource>
#include <new>
#include <ranges>
#include <string>
#include <tessera/core/algorithm.hpp>
#include <tessera/core/type_info.hpp>
#include <tessera/entity/entity.hpp>
#include <tessera/entity/sparse_set.hpp>
#include <type_traits>
#include <utility>
#include <vector>

namespace {
namespace unit_entity_sparse_set {

namespace {

using tessera::deletion_policy;
using tessera::entity;
using traits = tessera::entt_traits<entity>;
using tracked_set = tessera::basic_sparse_set<entity, tessera_test::tracking_allocator<entity>>;
using pmr_set = tessera::basic_sparse_set<entity, std::pmr::polymorphic_allocator<entity>>;

constexpr auto page = static_cast<std::uint32_t>(traits::page_size);
constexpr auto no_hole = static_cast<std::size_t>(traits::entity_mask);

[[nodiscard]] entity make(const std::uint32_t index, const std::uint16_t version = 0u) {
    return traits::construct(index, version);
}

[[nodiscard]] std::vector<entity> forward(const tessera::sparse_set &set) { return {set.begin(), set.end()}; }

[[nodiscard]] std::vector<entity> reverse(const tessera::sparse_set &set) { return {set.rbegin(), set.rend()}; }

[[nodiscard]] std::vector<entity> ids(const std::initializer_list<std::uint32_t> indices) {
    std::vector<entity> out{};
    for (const auto index : indices) {
        out.push_back(make(index));
    }
    return out;
}

/// Every live entry agrees with the packed array: data()[index(e)] == e.
template<typename Allocator>
void expect_consistent(const tessera::basic_sparse_set<entity, Allocator> &set) {
    for (std::size_t pos{}; pos < set.size(); ++pos) {
        if (const auto entt = set.data()[pos]; entt != tessera::tombstone) {
            ASSERT_TRUE(set.contains(entt)) << "position " << pos;
            EXPECT_EQ(set.index(entt), pos);
            EXPECT_EQ(set[pos], entt);
        }
    }
}

std::string policy_name(const testing::TestParamInfo<deletion_policy> &info) {
    switch (info.param) {
    case deletion_policy::swap_and_pop:
        return "swap_and_pop";
    case deletion_policy::in_place:
        return "in_place";
    case deletion_policy::swap_only:
        return "swap_only";
    }
    return "unknown";
}

struct any_policy : testing::TestWithParam<deletion_policy> {};

} // namespace

INSTANTIATE_TEST_SUITE_P(sparse_set, any_policy,
                         testing::Values(deletion_policy::swap_and_pop, deletion_policy::in_place,
                                         deletion_policy::swap_only),
                         policy_name);

TEST(sparse_set, member_types) {
    using set = tessera::sparse_set;
    static_assert(std::is_same_v<set::entity_type, entity>);
    static_assert(std::is_same_v<set::version_type, std::uint16_t>);
    static_assert(std::is_same_v<set::size_type, std::size_t>);
    static_assert(std::is_same_v<set::difference_type, std::ptrdiff_t>);
    static_assert(std::is_same_v<set::allocator_type, std::allocator<entity>>);
    static_assert(std::is_same_v<set::pointer, const entity *>);
    static_assert(std::is_same_v<set::const_iterator, set::iterator>);
    static_assert(std::is_same_v<set::reverse_iterator, std::reverse_iterator<set::iterator>>);
    static_assert(std::is_same_v<std::iter_value_t<set::iterator>, entity>);
    static_assert(std::is_same_v<std::iter_reference_t<set::iterator>, const entity &>);
    static_assert(std::random_access_iterator<set::iterator>);
    static_assert(std::random_access_iterator<set::reverse_iterator>);
    static_assert(std::ranges::random_access_range<const set>);
    static_assert(std::ranges::sized_range<const set>);
    static_assert(std::ranges::common_range<const set>);
    static_assert(std::has_virtual_destructor_v<set>);
    static_assert(!std::is_copy_constructible_v<set>);
    static_assert(!std::is_copy_assignable_v<set>);
    static_assert(std::is_nothrow_move_constructible_v<set>);
    static_assert(std::is_nothrow_move_assignable_v<set>);
    SUCCEED();
}

TEST(sparse_set, observed_only_through_signals) {
    // a plain set has no signals: a storage with signals says whether one has a listener (test/entity/mixin.cpp)
    const tessera::sparse_set set{};
    EXPECT_FALSE(set.observed());
}

TEST(sparse_set, constructors) {
    const tessera::sparse_set plain{};
    EXPECT_EQ(plain.policy(), deletion_policy::swap_and_pop);
    EXPECT_TRUE(plain.empty());
    EXPECT_EQ(plain.size(), 0u);
    EXPECT_EQ(plain.extent(), 0u);
    EXPECT_EQ(plain.free_list(), no_hole);
    EXPECT_TRUE(plain.contiguous());
    EXPECT_EQ(plain.begin(), plain.end());
    EXPECT_EQ(plain.rbegin(), plain.rend());
    EXPECT_EQ(plain.info(), tessera::type_id<void>());

    const tessera::sparse_set with_allocator{std::allocator<entity>{}};
    EXPECT_EQ(with_allocator.policy(), deletion_policy::swap_and_pop);

    EXPECT_EQ(tessera::sparse_set{deletion_policy::in_place}.policy(), deletion_policy::in_place);
    EXPECT_EQ(tessera::sparse_set{deletion_policy::in_place}.free_list(), no_hole);
    EXPECT_EQ(tessera::sparse_set{deletion_policy::swap_only}.policy(), deletion_policy::swap_only);
    EXPECT_EQ(tessera::sparse_set{deletion_policy::swap_only}.free_list(), 0u);

    const tessera::sparse_set typed{tessera::type_id<int>(), deletion_policy::in_place};
    EXPECT_EQ(typed.info(), tessera::type_id<int>());
    EXPECT_EQ(typed.policy(), deletion_policy::in_place);
    EXPECT_EQ(tessera::sparse_set{tessera::type_id<char>()}.policy(), deletion_policy::swap_and_pop);
}

TEST_P(any_policy, push_iteration_order_and_lookup) {
    tessera::sparse_set set{GetParam()};
    EXPECT_EQ(set.policy(), GetParam());

    for (const std::uint32_t index : {1u, 2u, 3u}) {
        const auto it = set.push(make(index));
        ASSERT_NE(it, set.end());
        EXPECT_EQ(*it, make(index));
        EXPECT_EQ(it.index(), static_cast<std::ptrdiff_t>(index) - 1);
    }

    EXPECT_EQ(set.size(), 3u);
    EXPECT_FALSE(set.empty());
    EXPECT_EQ(forward(set), ids({3u, 2u, 1u}));
    EXPECT_EQ(reverse(set), ids({1u, 2u, 3u}));
    EXPECT_EQ((std::vector<entity>{set.cbegin(), set.cend()}), ids({3u, 2u, 1u}));
    EXPECT_EQ((std::vector<entity>{set.crbegin(), set.crend()}), ids({1u, 2u, 3u}));

    EXPECT_EQ(set.index(make(1u)), 0u);
    EXPECT_EQ(set.index(make(3u)), 2u);
    EXPECT_EQ(set.data()[0], make(1u));
    EXPECT_EQ(set.data()[2], make(3u));
    EXPECT_EQ(set[1u], make(2u));
    EXPECT_EQ(*set.begin(), make(3u));
    EXPECT_EQ(set.begin().index(), 2);
    EXPECT_EQ(set.end().index(), -1);

    EXPECT_EQ(set.find(make(2u)).index(), 1);
    EXPECT_EQ(*set.find(make(2u)), make(2u));
    EXPECT_EQ(set.find(make(4u)), set.end());
    EXPECT_EQ(set.find(make(2u, 1u)), set.end());

    EXPECT_EQ(set.free_list(), GetParam() == deletion_policy::swap_only ? 3u : no_hole);
    EXPECT_TRUE(set.contiguous());
    expect_consistent(set);
}

TEST_P(any_policy, contains_checks_index_and_version) {
    tessera::sparse_set set{GetParam()};
    set.push(make(3u, 2u));
    set.push(make(page + 1u, 0xFFEu));

    EXPECT_TRUE(set.contains(make(3u, 2u)));
    EXPECT_FALSE(set.contains(make(3u, 1u)));
    EXPECT_FALSE(set.contains(make(3u, 3u)));
    EXPECT_FALSE(set.contains(make(3u, 0xFFFu)));
    EXPECT_FALSE(set.contains(make(4u, 2u)));
    EXPECT_TRUE(set.contains(make(page + 1u, 0xFFEu)));
    EXPECT_FALSE(set.contains(make(page + 1u, 0u)));
    // no page, a page that is not allocated, null and the tombstone
    EXPECT_FALSE(set.contains(make(5u * page)));
    EXPECT_FALSE(set.contains(make(0xFFFFEu)));
    EXPECT_FALSE(set.contains(tessera::null));
    EXPECT_FALSE(set.contains(tessera::tombstone));

    EXPECT_EQ(set.current(make(3u)), 2u);
    EXPECT_EQ(set.current(make(3u, 9u)), 2u);
    EXPECT_EQ(set.current(make(page + 1u)), 0xFFEu);
    EXPECT_EQ(set.current(make(4u)), traits::to_version(tessera::tombstone));
    EXPECT_EQ(set.current(make(7u * page)), traits::to_version(tessera::tombstone));
    EXPECT_EQ(set.current(tessera::null), traits::to_version(tessera::tombstone));
}

TEST_P(any_policy, contains_false_for_null_even_when_its_page_exists) {
    tessera::sparse_set set{GetParam()};
    set.push(make(0xFFFFEu));
    EXPECT_TRUE(set.contains(make(0xFFFFEu)));
    EXPECT_FALSE(set.contains(tessera::null));
    EXPECT_FALSE(set.contains(make(0xFFFFFu, 0u)));
    EXPECT_EQ(set.find(tessera::null), set.end());
}

TEST_P(any_policy, bump_sets_the_version_in_both_arrays) {
    tessera::sparse_set set{GetParam()};
    set.push(make(1u));
    set.push(make(2u));

    EXPECT_EQ(set.bump(make(1u, 7u)), 7u);
    EXPECT_TRUE(set.contains(make(1u, 7u)));
    EXPECT_FALSE(set.contains(make(1u)));
    EXPECT_EQ(set.current(make(1u)), 7u);
    EXPECT_EQ(set.data()[set.index(make(1u, 7u))], make(1u, 7u));
    EXPECT_EQ(set.index(make(1u, 7u)), 0u);

    EXPECT_MISUSE(set.bump(tessera::null), "cannot bump the null identifier");
    EXPECT_MISUSE(set.bump(make(3u)), "cannot bump an identifier that is not in the set");
    EXPECT_MISUSE(set.bump(make(9u * page)), "the identifier is not in the set");
}

TEST(sparse_set, iterator_is_a_position) {
    tessera::sparse_set set{};
    for (std::uint32_t index{}; index < 5u; ++index) {
        set.push(make(index));
    }

    const auto begin = set.begin();
    const auto end = set.end();
    EXPECT_EQ(end - begin, 5);
    EXPECT_EQ(begin - end, -5);
    EXPECT_EQ(std::distance(begin, end), 5);
    EXPECT_EQ(begin[0], make(4u));
    EXPECT_EQ(begin[4], make(0u));
    EXPECT_EQ(*(begin + 1), make(3u));
    EXPECT_EQ(*(1 + begin), make(3u));
    EXPECT_EQ((begin + 1).index(), 3);
    EXPECT_EQ(*(end - 1), make(0u));
    EXPECT_EQ((end - 1).index(), 0);
    EXPECT_EQ(*begin.operator->(), make(4u));

    auto it = begin;
    EXPECT_EQ(*it++, make(4u));
    EXPECT_EQ(*it, make(3u));
    EXPECT_EQ(*++it, make(2u));
    EXPECT_EQ(*it--, make(2u));
    EXPECT_EQ(*--it, make(4u));
    EXPECT_EQ(it, begin);
    it += 3;
    EXPECT_EQ(*it, make(1u));
    it -= 2;
    EXPECT_EQ(*it, make(3u));
    EXPECT_EQ(it.data(), set.data());

    EXPECT_TRUE(begin < it);
    EXPECT_TRUE(it > begin);
    EXPECT_TRUE(begin <= begin);
    EXPECT_TRUE(end >= it);
    EXPECT_FALSE(end < it);
    EXPECT_NE(it, begin);
    EXPECT_EQ(begin + 5, end);

    const tessera::sparse_set::iterator none{};
    EXPECT_EQ(none.data(), nullptr);

    // reverse iterators visit positions upwards
    auto rit = set.rbegin();
    EXPECT_EQ(*rit, make(0u));
    EXPECT_EQ(rit.base().index(), -1);
    EXPECT_EQ(rit[3], make(3u));
    EXPECT_EQ(set.rend() - set.rbegin(), 5);

    // appending does not move what an iterator designates, since it is a position
    const auto first = set.end() - 1;
    set.push(make(10u));
    EXPECT_EQ(*first, make(0u));
    EXPECT_EQ(*set.begin(), make(10u));
}

TEST(sparse_set, std_algorithms_on_iterators) {
    tessera::sparse_set set{};
    for (const std::uint32_t index : {5u, 1u, 4u}) {
        set.push(make(index));
    }

    EXPECT_EQ(std::count(set.begin(), set.end(), make(1u)), 1);
    EXPECT_EQ(std::find(set.begin(), set.end(), make(5u)).index(), 0);
    EXPECT_EQ(std::find(set.begin(), set.end(), make(9u)), set.end());
    std::vector<entity> copy(set.size());
    std::copy(set.rbegin(), set.rend(), copy.begin());
    EXPECT_EQ(copy, ids({5u, 1u, 4u}));
}

TEST(sparse_set, swap_and_pop_moves_the_last_into_the_hole) {
    tessera::sparse_set set{deletion_policy::swap_and_pop};
    const auto a = make(1u);
    const auto b = make(2u);
    const auto c = make(3u);
    set.push(a);
    set.push(b);
    set.push(c);

    set.erase(a);
    EXPECT_EQ(set.size(), 2u);
    EXPECT_EQ(set.index(c), 0u);
    EXPECT_EQ(set.index(b), 1u);
    EXPECT_FALSE(set.contains(a));
    EXPECT_EQ(reverse(set), ids({3u, 2u}));
    EXPECT_EQ(set.free_list(), no_hole);
    EXPECT_TRUE(set.contiguous());

    // erasing the last one moves nothing
    set.erase(b);
    EXPECT_EQ(set.size(), 1u);
    EXPECT_EQ(set.index(c), 0u);

    set.erase(c);
    EXPECT_TRUE(set.empty());
    EXPECT_FALSE(set.contains(c));

    // the index can come back with another version
    set.push(make(1u, 4u));
    EXPECT_TRUE(set.contains(make(1u, 4u)));
    EXPECT_FALSE(set.contains(a));
}

TEST(sparse_set, in_place_leaves_holes_chained_as_a_free_list) {
    tessera::sparse_set set{deletion_policy::in_place};
    for (std::uint32_t index{}; index < 4u; ++index) {
        set.push(make(index));
    }

    set.erase(make(0u));
    EXPECT_EQ(set.size(), 4u);
    EXPECT_FALSE(set.contiguous());
    EXPECT_EQ(set.free_list(), 0u);
    // the hole holds (next hole | tombstone version); no next hole yet
    EXPECT_EQ(set.data()[0], tessera::tombstone);
    EXPECT_EQ(traits::to_entity(set.data()[0]), traits::entity_mask);
    EXPECT_FALSE(set.contains(make(0u)));

    set.erase(make(2u));
    EXPECT_EQ(set.size(), 4u);
    EXPECT_EQ(set.free_list(), 2u);
    EXPECT_EQ(set.data()[2], traits::construct(0u, traits::to_version(tessera::tombstone)));
    EXPECT_EQ(set.index(make(3u)), 3u);
    EXPECT_EQ(set.index(make(1u)), 1u);

    // iteration visits the holes too
    const auto all = reverse(set);
    ASSERT_EQ(all.size(), 4u);
    EXPECT_EQ(all[0], tessera::tombstone);
    EXPECT_EQ(all[1], make(1u));
    EXPECT_EQ(all[2], tessera::tombstone);
    EXPECT_EQ(all[3], make(3u));

    // push reuses the most recent hole first
    EXPECT_EQ(set.push(make(7u)).index(), 2);
    EXPECT_EQ(set.free_list(), 0u);
    EXPECT_FALSE(set.contiguous());
    EXPECT_EQ(set.push(make(8u)).index(), 0);
    EXPECT_EQ(set.free_list(), no_hole);
    EXPECT_TRUE(set.contiguous());
    EXPECT_EQ(set.push(make(9u)).index(), 4);
    EXPECT_EQ(reverse(set), ids({8u, 1u, 7u, 3u, 9u}));
    expect_consistent(set);
}

TEST(sparse_set, in_place_range_push_appends_even_with_holes) {
    tessera::sparse_set set{deletion_policy::in_place};
    set.push(make(0u));
    set.push(make(1u));
    set.erase(make(0u));

    const auto batch = ids({5u, 6u});
    const auto it = set.push(batch.begin(), batch.end());
    EXPECT_EQ(it, set.begin());
    EXPECT_EQ(*it, make(6u));
    EXPECT_EQ(set.size(), 4u);
    EXPECT_EQ(set.index(make(5u)), 2u);
    EXPECT_EQ(set.free_list(), 0u);
    EXPECT_FALSE(set.contiguous());

    // the hole is still there for the next single push
    EXPECT_EQ(set.push(make(2u)).index(), 0);
    EXPECT_TRUE(set.contiguous());
}

TEST(sparse_set, in_place_erase_and_clear_reset_the_free_list) {
    tessera::sparse_set set{deletion_policy::in_place};
    for (std::uint32_t index{}; index < 3u; ++index) {
        set.push(make(index));
    }
    set.erase(make(1u));
    set.clear();
    EXPECT_TRUE(set.empty());
    EXPECT_EQ(set.free_list(), no_hole);
    EXPECT_TRUE(set.contiguous());
    EXPECT_FALSE(set.contains(make(0u)));
    EXPECT_FALSE(set.contains(make(2u)));

    // every index is free again
    for (std::uint32_t index{}; index < 3u; ++index) {
        EXPECT_EQ(set.push(make(index, 1u)).index(), static_cast<std::ptrdiff_t>(index));
    }
}

TEST(sparse_set, compact_fills_holes_from_the_back) {
    tessera::sparse_set set{deletion_policy::in_place};
    for (std::uint32_t index{}; index < 6u; ++index) {
        set.push(make(index));
    }
    set.erase(make(1u));
    set.erase(make(5u));
    set.erase(make(3u));
    ASSERT_EQ(set.free_list(), 3u);

    set.compact();
    EXPECT_TRUE(set.contiguous());
    EXPECT_EQ(set.free_list(), no_hole);
    EXPECT_EQ(set.size(), 3u);
    EXPECT_EQ(reverse(set), ids({0u, 4u, 2u}));
    expect_consistent(set);

    // compacting again, or a set without holes, changes nothing
    set.compact();
    EXPECT_EQ(reverse(set), ids({0u, 4u, 2u}));

    // a set that is only holes becomes empty
    set.erase(make(0u));
    set.erase(make(2u));
    set.erase(make(4u));
    set.compact();
    EXPECT_TRUE(set.empty());
    EXPECT_TRUE(set.contiguous());
    set.push(make(4u));
    EXPECT_EQ(set.index(make(4u)), 0u);
}

TEST(sparse_set, compact_with_the_first_hole_last) {
    tessera::sparse_set set{deletion_policy::in_place};
    for (std::uint32_t index{}; index < 5u; ++index) {
        set.push(make(index));
    }
    set.erase(make(4u));
    set.erase(make(0u));
    set.erase(make(3u));
    set.compact();
    EXPECT_EQ(set.size(), 2u);
    EXPECT_EQ(reverse(set), ids({2u, 1u}));
    expect_consistent(set);
}

TEST(sparse_set, compact_is_a_no_op_without_in_place) {
    for (const auto policy : {deletion_policy::swap_and_pop, deletion_policy::swap_only}) {
        tessera::sparse_set set{policy};
        set.push(make(0u));
        set.push(make(1u));
        set.erase(make(0u));
        const auto before = reverse(set);
        const auto head = set.free_list();
        set.compact();
        EXPECT_EQ(reverse(set), before);
        EXPECT_EQ(set.free_list(), head);
    }
}

TEST(sparse_set, swap_only_keeps_released_identifiers_behind_the_boundary) {
    tessera::sparse_set set{deletion_policy::swap_only};
    const auto a = make(0u);
    const auto b = make(1u);
    const auto c = make(2u);
    set.push(a);
    set.push(b);
    set.push(c);
    EXPECT_EQ(set.free_list(), 3u);

    set.erase(a);
    EXPECT_EQ(set.size(), 3u);
    EXPECT_EQ(set.free_list(), 2u);
    EXPECT_FALSE(set.contains(a));
    EXPECT_TRUE(set.contains(traits::next(a)));
    EXPECT_EQ(set.current(a), 1u);
    EXPECT_EQ(set.index(traits::next(a)), 2u);
    EXPECT_EQ(set.index(c), 0u);
    EXPECT_TRUE(set.contiguous());

    set.erase(c);
    EXPECT_EQ(set.free_list(), 1u);
    // the most recently released identifier sits at free_list(), the head of the implicit list
    EXPECT_EQ(set.data()[set.free_list()], traits::next(c));
    EXPECT_EQ(reverse(set), (std::vector<entity>{b, traits::next(c), traits::next(a)}));
    // forward iteration visits the released ones first
    EXPECT_EQ(*set.begin(), traits::next(a));

    // the released identifier is still in the set, with the version it comes back with: erasing it releases it
    // again, with its next version (see swap_only_erase_of_a_released_identifier_bumps_it_again)
    EXPECT_MISUSE(set.erase(c), "index of an identifier that is not in the set");

    // push re-activates a released index with exactly the pushed version
    const auto again = set.push(make(2u, 5u));
    EXPECT_EQ(*again, make(2u, 5u));
    EXPECT_EQ(again.index(), 1);
    EXPECT_EQ(set.free_list(), 2u);
    EXPECT_TRUE(set.contains(make(2u, 5u)));
    EXPECT_EQ(set.current(c), 5u);
    EXPECT_EQ(set.size(), 3u);

    EXPECT_MISUSE(set.push(make(1u, 3u)), "the identifier is already in use");
    EXPECT_MISUSE(set.push(b), "the identifier is already in use");

    // a fresh index goes to the in-use region as well
    EXPECT_EQ(set.push(make(9u)).index(), 2);
    EXPECT_EQ(set.free_list(), 3u);
    EXPECT_EQ(set.size(), 4u);
    EXPECT_EQ(set.data()[3], traits::next(a));
    expect_consistent(set);
}

TEST(sparse_set, swap_only_range_push_and_free_list_setter) {
    tessera::sparse_set set{deletion_policy::swap_only};
    const auto batch = ids({4u, 5u, 6u});
    const auto last = set.push(batch.begin(), batch.end());
    EXPECT_EQ(last, set.begin());
    EXPECT_EQ(set.free_list(), 3u);

    set.erase(make(5u));
    const std::array again{make(5u, 1u), make(8u)};
    const auto it = set.push(again.begin(), again.end());
    EXPECT_EQ(*it, make(8u));
    EXPECT_EQ(set.free_list(), 4u);
    EXPECT_TRUE(set.contains(make(5u, 1u)));

    set.free_list(1u);
    EXPECT_EQ(set.free_list(), 1u);
    set.free_list(set.size());
    EXPECT_EQ(set.free_list(), 4u);
    set.free_list(0u);
    EXPECT_EQ(set.free_list(), 0u);
    EXPECT_MISUSE(set.free_list(5u), "free_list can only be set on swap-only sets, within size()");

    tessera::sparse_set other{deletion_policy::in_place};
    EXPECT_MISUSE(other.free_list(0u), "free_list can only be set on swap-only sets");
    tessera::sparse_set plain{deletion_policy::swap_and_pop};
    EXPECT_MISUSE(plain.free_list(0u), "free_list can only be set on swap-only sets");
}

TEST(sparse_set, swap_only_clear_forgets_everything) {
    tessera::sparse_set set{deletion_policy::swap_only};
    set.push(make(0u));
    set.push(make(1u));
    set.erase(make(1u));
    set.clear();
    EXPECT_TRUE(set.empty());
    EXPECT_EQ(set.free_list(), 0u);
    EXPECT_FALSE(set.contains(make(1u, 1u)));
    EXPECT_EQ(set.current(make(1u)), traits::to_version(tessera::tombstone));
    set.push(make(1u));
    EXPECT_EQ(set.free_list(), 1u);
}

TEST(sparse_set, swap_only_erase_of_a_released_identifier_bumps_it_again) {
    tessera::sparse_set set{deletion_policy::swap_only};
    const auto all = ids({0u, 1u, 2u, 3u});
    set.push(all.begin(), all.end());
    set.erase(make(1u));
    set.erase(make(3u));
    // in use: 0 and 2; released: 3 then 1, each holding its next version
    ASSERT_EQ(set.free_list(), 2u);
    const auto released = traits::next(make(1u));
    ASSERT_TRUE(set.contains(released));
    ASSERT_EQ(set.index(released), 3u);

    // contains reports it, so remove removes it: it takes its next version again and stays released where it is
    EXPECT_TRUE(set.remove(released));
    EXPECT_FALSE(set.contains(released));
    EXPECT_TRUE(set.contains(traits::next(released)));
    EXPECT_EQ(set.current(released), 2u);
    EXPECT_EQ(set.free_list(), 2u);
    EXPECT_EQ(set.size(), 4u);
    EXPECT_EQ(set.index(traits::next(released)), 3u);
    EXPECT_TRUE(set.contains(make(0u)));
    EXPECT_TRUE(set.contains(make(2u)));
    EXPECT_FALSE(set.remove(released));
    expect_consistent(set);

    // erase agrees with remove
    set.erase(traits::next(released));
    EXPECT_EQ(set.current(released), 3u);
    EXPECT_EQ(set.free_list(), 2u);

    // the range forms too, through the set's own iterators and through another container
    const std::vector<entity> again{traits::next(traits::next(released)), traits::next(make(3u))};
    EXPECT_EQ(set.remove(again.begin(), again.end()), 2u);
    EXPECT_EQ(set.current(released), 4u);
    EXPECT_EQ(set.current(make(3u)), 2u);
    EXPECT_EQ(set.remove(set.begin(), set.end() - 2), 2u);
    EXPECT_EQ(set.current(released), 5u);
    EXPECT_EQ(set.current(make(3u)), 3u);
    EXPECT_EQ(set.free_list(), 2u);
    expect_consistent(set);

    // pushing re-activates the released index with the version asked for
    EXPECT_EQ(set.push(make(1u, 9u)).index(), 2);
    EXPECT_EQ(set.free_list(), 3u);
    expect_consistent(set);
}

TEST(sparse_set, swap_only_sort_n_stays_within_the_identifiers_in_use) {
    tessera::sparse_set set{deletion_policy::swap_only};
    const auto all = ids({3u, 0u, 2u, 1u});
    set.push(all.begin(), all.end());
    set.erase(make(0u));
    ASSERT_EQ(set.free_list(), 3u);
    const auto released = set.data()[3u];

    // a length past the identifiers in use would move a released identifier into the in-use region
    EXPECT_MISUSE(set.sort_n(4u, std::less{}), "sort: length exceeds the identifiers in use of a swap-only set");
    EXPECT_EQ(set.data()[3u], released);
    EXPECT_EQ(set.free_list(), 3u);

    set.sort_n(3u, std::less{});
    EXPECT_EQ((std::vector<entity>{set.end() - 3, set.end()}), ids({1u, 2u, 3u}));
    EXPECT_EQ(set.data()[3u], released);
    expect_consistent(set);
}

TEST_P(any_policy, erase_and_remove_single) {
    tessera::sparse_set set{GetParam()};
    set.push(make(0u));
    set.push(make(1u));

    EXPECT_FALSE(set.remove(make(2u)));
    EXPECT_FALSE(set.remove(make(1u, 1u)));
    EXPECT_FALSE(set.remove(tessera::null));
    EXPECT_TRUE(set.remove(make(1u)));
    EXPECT_FALSE(set.contains(make(1u)));
    EXPECT_FALSE(set.remove(make(1u)));
    EXPECT_TRUE(set.contains(make(0u)));

    set.erase(make(0u));
    EXPECT_FALSE(set.contains(make(0u)));
    EXPECT_MISUSE(set.erase(make(0u)), "index of an identifier that is not in the set");
    EXPECT_MISUSE(set.erase(make(5u * page)), "not in the set");
}

TEST_P(any_policy, erase_and_remove_ranges) {
    tessera::sparse_set set{GetParam()};
    const auto all = ids({0u, 1u, 2u, 3u, 4u, 5u});
    EXPECT_EQ(set.push(all.end(), all.end()), set.end());
    // the range form returns the last one pushed, which the appending policies iterate first
    const auto last = set.push(all.begin(), all.end());
    EXPECT_EQ(last, set.begin());
    EXPECT_EQ(*set.begin(), make(5u));

    const auto some = ids({1u, 3u});
    set.erase(some.begin(), some.end());
    EXPECT_FALSE(set.contains(make(1u)));
    EXPECT_FALSE(set.contains(make(3u)));
    EXPECT_TRUE(set.contains(make(2u)));

    // duplicates and absent identifiers are skipped and not counted
    const std::vector<entity> mixed{make(0u), make(7u), make(1u), make(0u), make(5u), make(4u, 2u), tessera::null};
    EXPECT_EQ(set.remove(mixed.begin(), mixed.end()), 2u);
    EXPECT_FALSE(set.contains(make(0u)));
    EXPECT_FALSE(set.contains(make(5u)));
    EXPECT_TRUE(set.contains(make(2u)));
    EXPECT_TRUE(set.contains(make(4u)));

    const std::vector<entity> none{};
    EXPECT_EQ(set.remove(none.begin(), none.end()), 0u);
    set.erase(none.begin(), none.end());

    const auto absent = ids({2u, 9u});
    EXPECT_MISUSE(set.erase(absent.begin(), absent.end()), "not in the set");
}

TEST_P(any_policy, erase_and_remove_through_another_sets_iterators) {
    tessera::sparse_set set{GetParam()};
    const auto all = ids({0u, 1u, 2u, 3u, 4u});
    set.push(all.begin(), all.end());

    tessera::sparse_set other{};
    other.push(make(3u));
    other.push(make(1u));
    set.erase(other.begin(), other.end());
    EXPECT_FALSE(set.contains(make(1u)));
    EXPECT_FALSE(set.contains(make(3u)));
    EXPECT_EQ(set.remove(other.begin(), other.end()), 0u);

    other.push(make(4u));
    other.push(make(9u));
    other.push(make(0u));
    EXPECT_EQ(set.remove(other.begin(), other.end()), 2u);
    EXPECT_TRUE(set.contains(make(2u)));
    EXPECT_FALSE(set.contains(make(4u)));
    EXPECT_FALSE(set.contains(make(0u)));
    EXPECT_EQ(other.size(), 5u);
}

TEST_P(any_policy, erase_while_iterating) {
    tessera::sparse_set set{GetParam()};
    for (std::uint32_t index{}; index < 8u; ++index) {
        set.push(make(index));
    }

    // removing the current identifier does not disturb the positions still to come
    std::vector<entity> seen{};
    for (const auto entt : set) {
        seen.push_back(entt);
        if (traits::to_entity(entt) % 2u == 0u) {
            set.erase(entt);
        }
    }

    EXPECT_EQ(seen, ids({7u, 6u, 5u, 4u, 3u, 2u, 1u, 0u}));
    for (std::uint32_t index{}; index < 8u; ++index) {
        EXPECT_EQ(set.contains(make(index)), index % 2u == 1u) << index;
    }

    // the whole in-use range through the set's own iterators
    for (const auto entt : set) {
        // holes are never contained; released identifiers are, but sit at or after free_list()
        const bool released =
            GetParam() == deletion_policy::swap_only && set.contains(entt) && !(set.index(entt) < set.free_list());
        if (set.contains(entt) && !released) {
            set.erase(entt);
        }
    }

    for (std::uint32_t index{}; index < 8u; ++index) {
        EXPECT_FALSE(set.contains(make(index)));
    }
}

TEST_P(any_policy, push_while_iterating) {
    tessera::sparse_set set{GetParam()};
    for (std::uint32_t index{}; index < 4u; ++index) {
        set.push(make(index));
    }

    // appended identifiers land behind the iteration, which goes down to position 0
    std::vector<entity> seen{};
    for (const auto entt : set) {
        seen.push_back(entt);
        set.push(make(traits::to_entity(entt) + 100u));
    }

    EXPECT_EQ(seen, ids({3u, 2u, 1u, 0u}));
    EXPECT_EQ(set.size(), 8u);
    expect_consistent(set);
}

TEST(sparse_set, swap_only_release_wraps_the_version) {
    tessera::sparse_set set{deletion_policy::swap_only};
    set.push(make(1u, 0xFFEu));
    set.erase(make(1u, 0xFFEu));
    EXPECT_EQ(set.current(make(1u)), 0u);
    EXPECT_TRUE(set.contains(make(1u, 0u)));
    EXPECT_FALSE(set.contains(make(1u, 0xFFFu)));
    set.push(make(1u, 0u));
    set.erase(make(1u, 0u));
    EXPECT_EQ(set.current(make(1u)), 1u);
}

TEST_P(any_policy, erase_through_own_iterators) {
    tessera::sparse_set set{GetParam()};
    const auto all = ids({0u, 1u, 2u, 3u, 4u});
    set.push(all.begin(), all.end());

    // positions 3 and 2: identifiers 3 and 2
    set.erase(set.begin() + 1, set.begin() + 3);
    EXPECT_FALSE(set.contains(make(3u)));
    EXPECT_FALSE(set.contains(make(2u)));
    EXPECT_TRUE(set.contains(make(4u)));
    EXPECT_TRUE(set.contains(make(1u)));
    EXPECT_TRUE(set.contains(make(0u)));

    if (GetParam() == deletion_policy::swap_only) {
        // released identifiers are iterated too: erase only the in-use region
        set.erase(set.end() - static_cast<std::ptrdiff_t>(set.free_list()), set.end());
    } else {
        EXPECT_EQ(set.remove(set.begin(), set.end()), 3u);
    }

    for (const auto entt : all) {
        EXPECT_FALSE(set.contains(entt));
    }

    switch (GetParam()) {
    case deletion_policy::swap_and_pop:
        EXPECT_TRUE(set.empty());
        break;
    case deletion_policy::in_place:
        EXPECT_EQ(set.size(), 5u);
        EXPECT_TRUE(std::all_of(set.begin(), set.end(), [](const entity entt) { return entt == tessera::tombstone; }));
        // only holes: nothing more to remove
        EXPECT_EQ(set.remove(set.begin(), set.end()), 0u);
        break;
    case deletion_policy::swap_only:
        EXPECT_EQ(set.free_list(), 0u);
        EXPECT_EQ(set.size(), 5u);
        break;
    }
}

TEST(sparse_set, remove_through_own_iterators_skips_holes) {
    tessera::sparse_set set{deletion_policy::in_place};
    const auto all = ids({0u, 1u, 2u, 3u, 4u, 5u});
    set.push(all.begin(), all.end());
    set.erase(make(1u));
    set.erase(make(4u));

    EXPECT_EQ(set.remove(set.begin(), set.end()), 4u);
    EXPECT_EQ(set.size(), 6u);
    for (const auto entt : all) {
        EXPECT_FALSE(set.contains(entt));
    }
}

TEST(sparse_set, swap_and_pop_remove_through_own_iterators_in_the_middle) {
    tessera::sparse_set set{};
    const auto all = ids({0u, 1u, 2u, 3u, 4u});
    set.push(all.begin(), all.end());
    EXPECT_EQ(set.remove(set.begin() + 1, set.begin() + 3), 2u);
    EXPECT_EQ(reverse(set), ids({0u, 1u, 4u}));
    expect_consistent(set);
}

TEST_P(any_policy, swap_elements) {
    tessera::sparse_set set{GetParam()};
    const auto all = ids({0u, 1u, 2u});
    set.push(all.begin(), all.end());

    set.swap_elements(make(0u), make(2u));
    EXPECT_EQ(reverse(set), ids({2u, 1u, 0u}));
    EXPECT_EQ(set.index(make(0u)), 2u);
    set.swap_elements(make(1u), make(1u));
    EXPECT_EQ(set.index(make(1u)), 1u);
    expect_consistent(set);

    EXPECT_MISUSE(set.swap_elements(make(0u), make(4u)), "not in the set");
    EXPECT_MISUSE(set.swap_elements(make(3u), make(0u)), "not in the set");
    EXPECT_MISUSE(set.swap_elements(make(0u, 1u), make(1u)), "not in the set");
}

TEST(sparse_set, swap_only_swap_elements_stays_within_a_region) {
    tessera::sparse_set set{deletion_policy::swap_only};
    const auto all = ids({0u, 1u, 2u, 3u});
    set.push(all.begin(), all.end());
    set.erase(make(0u));
    set.erase(make(1u));

    EXPECT_MISUSE(set.swap_elements(make(2u), traits::next(make(0u))),
                  "cannot swap an identifier in use with a released one");
    EXPECT_MISUSE(set.swap_elements(traits::next(make(1u)), make(3u)),
                  "cannot swap an identifier in use with a released one");

    set.swap_elements(traits::next(make(0u)), traits::next(make(1u)));
    set.swap_elements(make(2u), make(3u));
    EXPECT_EQ(set.free_list(), 2u);
    expect_consistent(set);
}

TEST_P(any_policy, sort_orders_the_iteration) {
    tessera::sparse_set set{GetParam()};
    const auto shuffled = ids({7u, 3u, 9u, 1u, 4u, 8u, 0u, 2u});
    for (const auto entt : shuffled) {
        set.push(entt);
    }

    set.sort(std::less{});
    EXPECT_TRUE(std::is_sorted(set.begin(), set.end()));
    EXPECT_EQ(forward(set), ids({0u, 1u, 2u, 3u, 4u, 7u, 8u, 9u}));
    expect_consistent(set);

    set.sort(std::greater{}, tessera::insertion_sort{});
    EXPECT_TRUE(std::is_sorted(set.begin(), set.end(), std::greater{}));
    expect_consistent(set);

    set.sort(
        [](const entity lhs, const entity rhs) { return traits::to_entity(lhs) % 3u < traits::to_entity(rhs) % 3u; },
        tessera::insertion_sort{});
    EXPECT_TRUE(std::is_sorted(set.begin(), set.end(), [](const entity lhs, const entity rhs) {
        return traits::to_entity(lhs) % 3u < traits::to_entity(rhs) % 3u;
    }));
    expect_consistent(set);

    set.sort(std::less{}, tessera::std_sort{});
    EXPECT_TRUE(std::is_sorted(set.begin(), set.end()));
}

TEST_P(any_policy, sort_n_orders_a_prefix_of_positions) {
    tessera::sparse_set set{GetParam()};
    for (const std::uint32_t index : {5u, 4u, 3u, 2u, 1u}) {
        set.push(make(index));
    }

    // positions 0..2 hold 5, 4, 3; visited from position 2 down they become ascending
    set.sort_n(3u, std::less{});
    EXPECT_EQ(reverse(set), ids({5u, 4u, 3u, 2u, 1u}));
    set.sort_n(3u, std::greater{});
    EXPECT_EQ(reverse(set), ids({3u, 4u, 5u, 2u, 1u}));
    expect_consistent(set);

    set.sort_n(0u, std::less{});
    EXPECT_EQ(reverse(set), ids({3u, 4u, 5u, 2u, 1u}));
    EXPECT_MISUSE(set.sort_n(6u, std::less{}), "length exceeds the size of the set");
}

TEST(sparse_set, sort_with_holes_is_a_misuse_until_compacted) {
    tessera::sparse_set set{deletion_policy::in_place};
    for (const std::uint32_t index : {3u, 1u, 2u, 0u}) {
        set.push(make(index));
    }
    set.erase(make(1u));

    EXPECT_MISUSE(set.sort(std::less{}), "the set has holes; call compact() first");
    EXPECT_MISUSE(set.sort_n(1u, std::less{}), "the set has holes");
    const auto order = ids({0u});
    EXPECT_MISUSE(set.sort_as(order.begin(), order.end()), "the set has holes; call compact() first");

    set.compact();
    set.sort(std::less{});
    EXPECT_EQ(forward(set), ids({0u, 2u, 3u}));
    expect_consistent(set);
}

TEST(sparse_set, swap_only_sort_touches_only_identifiers_in_use) {
    tessera::sparse_set set{deletion_policy::swap_only};
    for (const std::uint32_t index : {4u, 0u, 3u, 1u, 2u}) {
        set.push(make(index));
    }
    set.erase(make(3u));
    set.erase(make(0u));
    const std::vector<entity> released{set.data() + set.free_list(), set.data() + set.size()};

    set.sort(std::less{});
    EXPECT_EQ(set.free_list(), 3u);
    EXPECT_EQ((std::vector<entity>{set.end() - 3, set.end()}), ids({1u, 2u, 4u}));
    EXPECT_EQ((std::vector<entity>{set.data() + set.free_list(), set.data() + set.size()}), released);
    expect_consistent(set);
}

TEST_P(any_policy, sort_as_puts_shared_identifiers_first) {
    tessera::sparse_set set{GetParam()};
    const auto all = ids({0u, 1u, 2u, 3u, 4u, 5u});
    set.push(all.begin(), all.end());

    const auto order = ids({4u, 9u, 1u, 5u});
    const auto it = set.sort_as(order.begin(), order.end());
    EXPECT_EQ(it, set.begin() + 3);
    EXPECT_EQ((std::vector<entity>{set.begin(), it}), ids({4u, 1u, 5u}));
    EXPECT_EQ(set.size(), 6u);
    for (auto rest = it; rest != set.end(); ++rest) {
        EXPECT_TRUE(*rest == make(0u) || *rest == make(2u) || *rest == make(3u));
    }
    expect_consistent(set);

    const std::vector<entity> none{};
    EXPECT_EQ(set.sort_as(none.begin(), none.end()), set.begin());
    const auto foreign = ids({7u, 8u});
    EXPECT_EQ(set.sort_as(foreign.begin(), foreign.end()), set.begin());
    // a stale version is not shared
    const std::vector<entity> stale{make(3u, 1u)};
    EXPECT_EQ(set.sort_as(stale.begin(), stale.end()), set.begin());

    // another set's iterators, in its iteration order
    tessera::sparse_set other{};
    for (const std::uint32_t index : {2u, 3u, 0u}) {
        other.push(make(index));
    }
    const auto end = set.sort_as(other.begin(), other.end());
    EXPECT_EQ((std::vector<entity>{set.begin(), end}), ids({0u, 3u, 2u}));
    expect_consistent(set);
}

TEST(sparse_set, swap_only_sort_as_ignores_released_identifiers) {
    tessera::sparse_set set{deletion_policy::swap_only};
    const auto all = ids({0u, 1u, 2u, 3u});
    set.push(all.begin(), all.end());
    set.erase(make(2u));

    const std::vector<entity> order{traits::next(make(2u)), make(3u), make(0u)};
    const auto it = set.sort_as(order.begin(), order.end());
    const auto first_in_use = set.end() - static_cast<std::ptrdiff_t>(set.free_list());
    EXPECT_EQ(it, first_in_use + 2);
    EXPECT_EQ((std::vector<entity>{first_in_use, it}), ids({3u, 0u}));
    EXPECT_EQ(set.data()[3], traits::next(make(2u)));
    expect_consistent(set);
}

TEST_P(any_policy, clear_empties_the_set) {
    tessera::sparse_set set{GetParam()};
    const auto all = ids({0u, 1u, 2u, page + 3u});
    set.push(all.begin(), all.end());
    set.erase(make(1u));

    set.clear();
    EXPECT_TRUE(set.empty());
    EXPECT_EQ(set.size(), 0u);
    EXPECT_EQ(set.begin(), set.end());
    for (const auto entt : all) {
        EXPECT_FALSE(set.contains(entt));
    }
    EXPECT_EQ(set.free_list(), GetParam() == deletion_policy::swap_only ? 0u : no_hole);

    set.push(all.begin(), all.end());
    EXPECT_EQ(set.size(), 4u);
    expect_consistent(set);
    set.clear();
    set.clear();
    EXPECT_TRUE(set.empty());
}

TEST(sparse_set, value_info_policy_and_bind) {
    tessera::sparse_set set{deletion_policy::in_place};
    set.push(make(3u));
    EXPECT_EQ(set.value(make(3u)), nullptr);
    EXPECT_EQ(std::as_const(set).value(make(3u)), nullptr);
    EXPECT_MISUSE(static_cast<void>(set.value(make(4u))), "not in the set");
    EXPECT_EQ(set.info(), tessera::type_id<void>());
    EXPECT_EQ(set.policy(), deletion_policy::in_place);

    int value{42};
    set.bind(value);
    set.bind(std::as_const(value));
    set.bind(std::string{"ignored"});
    struct host {
        int payload;
    } other{3};
    set.bind(other);
    EXPECT_EQ(set.size(), 1u);
    EXPECT_TRUE(set.contains(make(3u)));
    EXPECT_EQ(value, 42);
}

TEST(sparse_set, extent_grows_by_page_when_touched) {
    tessera::sparse_set set{};
    EXPECT_EQ(set.extent(), 0u);
    set.push(make(0u));
    EXPECT_EQ(set.extent(), page);
    set.push(make(page - 1u));
    EXPECT_EQ(set.extent(), page);
    set.push(make(page));
    EXPECT_EQ(set.extent(), 2u * page);

    // looking up does not allocate pages
    EXPECT_FALSE(set.contains(make(10u * page)));
    EXPECT_EQ(set.current(make(10u * page)), traits::to_version(tessera::tombstone));
    EXPECT_EQ(set.find(make(10u * page)), set.end());
    EXPECT_FALSE(set.remove(make(10u * page)));
    EXPECT_EQ(set.extent(), 2u * page);

    // removing does not give pages back, shrink_to_fit does
    set.erase(make(page));
    EXPECT_EQ(set.extent(), 2u * page);
    set.shrink_to_fit();
    EXPECT_EQ(set.extent(), page);
    set.clear();
    EXPECT_EQ(set.extent(), page);
    set.shrink_to_fit();
    EXPECT_EQ(set.extent(), 0u);
}

TEST(sparse_set, reserve_capacity_and_shrink_to_fit) {
    tessera::sparse_set set{};
    EXPECT_EQ(set.capacity(), 0u);
    set.reserve(64u);
    EXPECT_GE(set.capacity(), 64u);
    EXPECT_TRUE(set.empty());
    EXPECT_EQ(set.extent(), 0u);

    set.push(make(1u));
    set.push(make(2u));
    set.shrink_to_fit();
    EXPECT_EQ(set.capacity(), 2u);
    EXPECT_TRUE(set.contains(make(1u)));
    EXPECT_TRUE(set.contains(make(2u)));

    set.clear();
    set.shrink_to_fit();
    EXPECT_EQ(set.capacity(), 0u);
    EXPECT_EQ(set.extent(), 0u);
}

TEST_P(any_policy, shrink_to_fit_keeps_pages_in_use) {
    tessera::sparse_set set{GetParam()};
    const auto all = ids({1u, page + 1u, 2u * page + 1u});
    set.push(all.begin(), all.end());
    set.erase(make(2u * page + 1u));
    set.erase(make(1u));

    set.shrink_to_fit();
    // erased identifiers free their page (in_place holes too); swap_only released identifiers keep theirs
    const auto expected = GetParam() == deletion_policy::swap_only ? 3u * page : 2u * page;
    EXPECT_EQ(set.extent(), expected);
    EXPECT_TRUE(set.contains(make(page + 1u)));
    EXPECT_FALSE(set.contains(make(1u)));
    expect_consistent(set);
    set.push(make(1u, 1u));
    EXPECT_TRUE(set.contains(make(1u, 1u)));
}

TEST_P(any_policy, move_construction_and_assignment_leave_the_source_empty) {
    tessera::sparse_set set{GetParam()};
    const auto all = ids({0u, 1u, page + 2u});
    set.push(all.begin(), all.end());
    set.erase(make(1u));
    const auto head = set.free_list();
    const auto order = reverse(set);

    tessera::sparse_set other{std::move(set)};
    EXPECT_EQ(other.policy(), GetParam());
    EXPECT_EQ(other.free_list(), head);
    EXPECT_EQ(reverse(other), order);
    EXPECT_TRUE(other.contains(make(0u)));
    EXPECT_TRUE(set.empty()); // NOLINT(bugprone-use-after-move): moved-from sets are empty
    EXPECT_EQ(set.extent(), 0u);
    EXPECT_EQ(set.policy(), GetParam());
    EXPECT_EQ(set.free_list(), GetParam() == deletion_policy::swap_only ? 0u : no_hole);
    EXPECT_FALSE(set.contains(make(0u)));

    // the moved-from set is usable again
    set.push(make(5u));
    EXPECT_TRUE(set.contains(make(5u)));

    tessera::sparse_set target{deletion_policy::swap_and_pop};
    target.push(make(9u));
    target = std::move(other);
    EXPECT_EQ(target.policy(), GetParam());
    EXPECT_EQ(reverse(target), order);
    EXPECT_FALSE(target.contains(make(9u)));
    EXPECT_TRUE(other.empty()); // NOLINT(bugprone-use-after-move)
    EXPECT_EQ(other.extent(), 0u);
    expect_consistent(target);

    // self-move keeps the contents
    auto &alias = target;
    target = std::move(alias);
    EXPECT_EQ(reverse(target), order);

    // swap exchanges everything, policy included
    tessera::sparse_set swapped{tessera::type_id<int>(), deletion_policy::swap_and_pop};
    swapped.push(make(7u));
    target.swap(swapped);
    EXPECT_EQ(swapped.policy(), GetParam());
    EXPECT_EQ(reverse(swapped), order);
    EXPECT_EQ(target.policy(), deletion_policy::swap_and_pop);
    EXPECT_EQ(target.info(), tessera::type_id<int>());
    EXPECT_EQ(swapped.info(), tessera::type_id<void>());
    EXPECT_EQ(reverse(target), ids({7u}));
    expect_consistent(swapped);
    expect_consistent(target);
}

TEST(sparse_set, misuse_on_push) {
    for (const auto policy : {deletion_policy::swap_and_pop, deletion_policy::in_place, deletion_policy::swap_only}) {
        tessera::sparse_set set{policy};
        set.push(make(1u));
        set.push(make(2u));
        EXPECT_MISUSE(set.push(tessera::null), "the null identifier cannot be added");
        EXPECT_MISUSE(set.push(make(0xFFFFFu, 2u)), "the null identifier cannot be added");
        EXPECT_MISUSE(set.push(make(3u, 0xFFFu)), "an identifier with the tombstone version cannot be added");
        EXPECT_MISUSE(set.push(tessera::tombstone), "cannot be added");
        const auto batch = std::array{make(4u), static_cast<entity>(tessera::null)};
        EXPECT_MISUSE(set.push(batch.begin(), batch.end()), "the null identifier cannot be added");
        // the identifiers before the null one went in, when the misuse ran
        EXPECT_EQ(set.contains(make(4u)), tessera_test::misuse_runs);

        if (policy == deletion_policy::swap_only) {
            EXPECT_MISUSE(set.push(make(1u)), "the identifier is already in use");
        } else {
            EXPECT_MISUSE(set.push(make(1u)), "the identifier is already in the set");
            EXPECT_MISUSE(set.push(make(1u, 3u)), "the identifier is already in the set");
        }
    }

    // in_place, through the free list path too
    tessera::sparse_set set{deletion_policy::in_place};
    set.push(make(1u));
    set.push(make(2u));
    set.erase(make(1u));
    EXPECT_MISUSE(set.push(make(2u)), "the identifier is already in the set");
    EXPECT_EQ(set.free_list(), 0u);
}

TEST_P(any_policy, erase_through_iterators_of_absent_identifiers_is_a_misuse) {
    tessera::sparse_set set{GetParam()};
    set.push(make(0u));
    set.push(make(1u));

    // the index shares a page with identifiers of the set, but is not in it
    tessera::sparse_set other{};
    other.push(make(5u));
    EXPECT_MISUSE(set.erase(other.begin(), other.end()), "not in the set");
    // another version of an identifier of the set
    other.clear();
    other.push(make(1u, 3u));
    EXPECT_MISUSE(set.erase(other.begin(), other.end()), "not in the set");

    EXPECT_EQ(set.size(), 2u);
    EXPECT_TRUE(set.contains(make(0u)));
    EXPECT_TRUE(set.contains(make(1u)));
    expect_consistent(set);
}

TEST(sparse_set, erase_through_own_iterators_over_holes_is_a_misuse) {
    tessera::sparse_set set{deletion_policy::in_place};
    const auto all = ids({0u, 1u, 2u});
    set.push(all.begin(), all.end());
    set.erase(make(1u));
    set.erase(make(2u));

    // position 2 is a hole that links to index 1, whose page exists: the range must hold identifiers of the set
    EXPECT_MISUSE(set.erase(set.begin(), set.end()), "erasing an identifier that is not in the set");
    EXPECT_TRUE(set.contains(make(0u)));
    EXPECT_EQ(set.free_list(), 2u);
    expect_consistent(set);
    EXPECT_EQ(set.push(make(4u)).index(), 2);
    EXPECT_EQ(set.push(make(5u)).index(), 1);
}

TEST(sparse_set, misuse_on_lookup) {
    tessera::sparse_set set{};
    EXPECT_MISUSE(static_cast<void>(set.index(make(0u))), "index of an identifier that is not in the set");
    EXPECT_MISUSE(static_cast<void>(set[0u]), "position out of range");
    set.push(make(3u));
    EXPECT_MISUSE(static_cast<void>(set.index(make(3u, 1u))), "index of an identifier that is not in the set");
    EXPECT_MISUSE(static_cast<void>(set.index(make(4u))), "index of an identifier that is not in the set");
    EXPECT_MISUSE(static_cast<void>(set.index(tessera::null)), "not in the set");
    EXPECT_MISUSE(static_cast<void>(set[1u]), "position out of range");
    EXPECT_EQ(set[0u], make(3u));
}

TEST(sparse_set, too_many_elements) {
    // an in-place set appends on range push even with holes, so its packed array can outgrow the indices
    tessera::sparse_set set{deletion_policy::in_place};
    std::vector<entity> every{};
    every.reserve(traits::entity_mask);
    for (std::uint32_t index{}; index < traits::entity_mask; ++index) {
        every.push_back(make(index));
    }
    set.push(every.begin(), every.end());
    EXPECT_EQ(set.size(), traits::entity_mask);

    set.erase(make(7u));
    const std::array again{make(7u, 1u)};
    EXPECT_MISUSE(set.push(again.begin(), again.end()), "sparse_set: too many elements");
    EXPECT_FALSE(set.contains(make(7u, 1u)));
    // the free list still works
    EXPECT_EQ(set.push(make(7u, 1u)).index(), 7);
}

TEST(sparse_set, other_identifier_types) {
    tessera::basic_sparse_set<std::uint64_t> wide{deletion_policy::in_place};
    using wide_traits = tessera::entt_traits<std::uint64_t>;
    const auto big = wide_traits::construct(5000u, 0xFFFFFFFEu);
    wide.push(big);
    wide.push(std::uint64_t{1u});
    EXPECT_TRUE(wide.contains(big));
    EXPECT_FALSE(wide.contains(wide_traits::next(big)));
    EXPECT_EQ(wide.current(big), 0xFFFFFFFEu);
    EXPECT_EQ(wide.current(std::uint64_t{7u}), 0xFFFFFFFFu);
    wide.erase(big);
    EXPECT_EQ(wide.free_list(), 0u);
    EXPECT_EQ(wide.data()[0], tessera::tombstone);
    EXPECT_EQ(wide.extent(), (5000u / page + 1u) * page); // the pages up to the one of index 5000
    EXPECT_MISUSE(wide.push(wide_traits::construct(3u, 0xFFFFFFFFu)), "tombstone version");
}

TEST(sparse_set, class_identifiers) {
    struct id {
        using entity_type = std::uint32_t;
        constexpr id() noexcept = default;
        constexpr explicit id(const entity_type value) noexcept : raw{value} {}
        [[nodiscard]] constexpr explicit operator entity_type() const noexcept { return raw; }
        [[nodiscard]] constexpr bool operator==(const id &) const noexcept = default;
        entity_type raw{};
    };
    using id_traits = tessera::entt_traits<id>;

    for (const auto policy : {deletion_policy::swap_and_pop, deletion_policy::in_place, deletion_policy::swap_only}) {
        tessera::basic_sparse_set<id> set{policy};
        set.push(id_traits::construct(1u, 2u));
        set.push(id_traits::construct(2u, 0u));
        EXPECT_TRUE(set.contains(id_traits::construct(1u, 2u)));
        EXPECT_FALSE(set.contains(id_traits::construct(1u, 0u)));
        EXPECT_FALSE(set.contains(tessera::null));
        set.erase(id_traits::construct(1u, 2u));
        EXPECT_FALSE(set.contains(id_traits::construct(1u, 2u)));
        set.compact();
        set.sort_as(set.begin(), set.begin());
        // every policy ends up with the remaining identifier at position 0 (in_place after compact)
        EXPECT_EQ(set.index(id_traits::construct(2u, 0u)), 0u);
        set.sort([](const id lhs, const id rhs) { return lhs.raw < rhs.raw; });
        set.clear();
        EXPECT_TRUE(set.empty());
    }
}

TEST(sparse_set, allocator_sees_every_allocation) {
    tessera_test::allocation_log log{};
    {
        const tessera_test::tracking_allocator<entity> allocator{log};
        tracked_set set{deletion_policy::in_place, allocator};
        EXPECT_EQ(set.get_allocator(), allocator);
        EXPECT_EQ(log.allocations, 0u);

        set.push(make(1u));
        // one sparse page, the page table and the packed array
        EXPECT_EQ(log.live(), 3u);
        EXPECT_GE(log.live_bytes, page * sizeof(entity));

        set.push(make(3u * page));
        set.reserve(100u);
        set.erase(make(1u));
        set.compact();
        set.shrink_to_fit();
        EXPECT_EQ(set.extent(), 4u * page);

        tracked_set plain{allocator};
        plain.push(make(2u));
        tracked_set moved{std::move(plain), allocator};
        EXPECT_TRUE(moved.contains(make(2u)));
        EXPECT_TRUE(plain.empty()); // NOLINT(bugprone-use-after-move)
        EXPECT_EQ(moved.get_allocator(), allocator);
    }
    EXPECT_GT(log.allocations, 3u);

    // default-constructed allocators share the global log
    auto &global = tessera_test::allocation_log::global();
    const auto before = global.allocations;
    {
        tracked_set set{};
        set.push(make(0u));
        EXPECT_EQ(global.allocations, before + 3u);
    }
    EXPECT_EQ(global.live(), 0u);
    EXPECT_TRUE(log.balanced()) << log.live() << " blocks, " << log.live_bytes << " bytes, " << log.mismatches
                                << " mismatches";
}

TEST(sparse_set, shrink_to_fit_gives_pages_back_to_the_allocator) {
    tessera_test::allocation_log log{};
    {
        tracked_set set{tessera_test::tracking_allocator<entity>{log}};
        set.push(make(1u));
        set.push(make(page + 1u));
        set.push(make(2u * page + 1u));
        set.reserve(16u);
        const auto live = log.live();
        const auto bytes = log.live_bytes;

        set.erase(make(page + 1u));
        set.erase(make(2u * page + 1u));
        EXPECT_EQ(log.live(), live);
        set.shrink_to_fit();
        // two pages freed; the page table and the packed array shrink by reallocation
        EXPECT_EQ(log.live(), live - 2u);
        EXPECT_GE(bytes - log.live_bytes, 2u * page * sizeof(entity));
        EXPECT_LT(log.live_bytes, 2u * page * sizeof(entity));
        EXPECT_EQ(set.extent(), page);
        EXPECT_TRUE(set.contains(make(1u)));
    }
    EXPECT_TRUE(log.balanced());
}

TEST(sparse_set, move_assignment_and_swap_with_allocators) {
    tessera_test::allocation_log left_log{};
    tessera_test::allocation_log right_log{};
    {
        tracked_set left{tessera_test::tracking_allocator<entity>{left_log}};
        tracked_set right{deletion_policy::swap_only, tessera_test::tracking_allocator<entity>{right_log}};
        left.push(make(1u));
        right.push(make(2u));
        right.push(make(page + 2u));

        left.swap(right);
        EXPECT_EQ(&left.get_allocator().log(), &right_log);
        EXPECT_EQ(&right.get_allocator().log(), &left_log);
        EXPECT_TRUE(left.contains(make(page + 2u)));
        EXPECT_TRUE(right.contains(make(1u)));

        // left gives its pages back to right_log, then takes right's memory and allocator
        left = std::move(right);
        EXPECT_EQ(right_log.live(), 0u);
        EXPECT_EQ(&left.get_allocator().log(), &left_log);
        EXPECT_TRUE(left.contains(make(1u)));
        EXPECT_FALSE(left.contains(make(2u)));
    }
    EXPECT_TRUE(left_log.balanced());
    EXPECT_TRUE(right_log.balanced());
}

namespace {

/// A set of the given policy over three sparse pages, with a hole (in_place) or a released identifier (swap_only)
/// among them, so that a move has every kind of slot to carry.
void fill_for_moves(pmr_set &set) {
    for (const auto index : {1u, page + 3u, 2u * page + 5u, 7u}) {
        set.push(make(index));
    }

    set.erase(make(page + 3u));
}

[[nodiscard]] std::vector<entity> packed_of(const pmr_set &set) { return {set.data(), set.data() + set.size()}; }

} // namespace

TEST_P(any_policy, allocator_extended_move_copies_between_unequal_resources) {
    tessera_test::resource_pair resources{};
    auto &[first, second] = resources;
    pmr_set source{GetParam(), &first};
    fill_for_moves(source);
    const auto packed = packed_of(source);
    const auto head = source.free_list();
    const auto from_first = first.allocations();

    // the identifiers are copied into memory of the second resource; the first gets its pages back
    pmr_set moved{std::move(source), &second};
    EXPECT_EQ(moved.get_allocator().resource(), &second);
    EXPECT_EQ(packed_of(moved), packed);
    EXPECT_EQ(moved.free_list(), head);
    EXPECT_EQ(moved.policy(), GetParam());
    EXPECT_EQ(moved.extent(), 3u * page);
    expect_consistent(moved);
    EXPECT_GE(second.allocations(), 4u); // three sparse pages, the packed array and the table of pages
    EXPECT_EQ(first.allocations(), from_first);
    EXPECT_TRUE(source.empty()); // NOLINT(bugprone-use-after-move)
    EXPECT_EQ(source.extent(), 0u);
    EXPECT_EQ(source.get_allocator().resource(), &first);

    // the same resource: the memory changes hands, nothing is allocated
    const auto from_second = second.allocations();
    pmr_set stolen{std::move(moved), &second};
    EXPECT_EQ(second.allocations(), from_second);
    EXPECT_EQ(packed_of(stolen), packed);
    EXPECT_TRUE(moved.empty()); // NOLINT(bugprone-use-after-move)
    expect_consistent(stolen);
}

TEST_P(any_policy, move_assignment_copies_between_unequal_resources) {
    tessera_test::resource_pair resources{};
    auto &[first, second] = resources;
    pmr_set source{GetParam(), &first};
    fill_for_moves(source);
    const auto packed = packed_of(source);
    const auto head = source.free_list();

    // polymorphic allocators do not propagate: the target keeps its resource and copies into it
    pmr_set target{deletion_policy::swap_and_pop, &second};
    target.push(make(3u * page));
    target = std::move(source);
    EXPECT_EQ(target.get_allocator().resource(), &second);
    EXPECT_EQ(packed_of(target), packed);
    EXPECT_EQ(target.free_list(), head);
    EXPECT_EQ(target.policy(), GetParam());
    EXPECT_FALSE(target.contains(make(3u * page)));
    expect_consistent(target);
    EXPECT_TRUE(source.empty()); // NOLINT(bugprone-use-after-move)
    EXPECT_EQ(source.extent(), 0u);

    // both sets keep working with their own resources
    source.push(make(2u));
    target.push(make(4u * page));
    EXPECT_TRUE(target.contains(make(4u * page)));

    // the same resource: the memory changes hands
    pmr_set sibling{&second};
    const auto from_second = second.allocations();
    sibling = std::move(target);
    EXPECT_EQ(second.allocations(), from_second);
    EXPECT_TRUE(sibling.contains(make(4u * page)));
    expect_consistent(sibling);
}

TEST(sparse_set, failed_copy_between_resources_leaves_both_sets_as_they_were) {
    tessera_test::resource_pair resources{};
    auto &[first, second] = resources;
    pmr_set source{deletion_policy::swap_and_pop, &first};
    fill_for_moves(source);
    const auto packed = packed_of(source);
    pmr_set target{&second};
    target.push(make(3u));

    for (std::size_t budget{}; budget < 4u; ++budget) {
        second.fail_after = budget;
        EXPECT_THROW(target = std::move(source), std::bad_alloc);
        EXPECT_THROW(pmr_set(std::move(source), &second), std::bad_alloc);
        second.fail_after = tessera_test::tracking_resource::never;
        EXPECT_EQ(packed_of(source), packed); // NOLINT(bugprone-use-after-move)
        expect_consistent(source);
        EXPECT_EQ(packed_of(target), ids({3u}));
        expect_consistent(target);
    }
}

TEST(sparse_set, move_assignment_is_noexcept_only_when_it_cannot_allocate) {
    // std::allocator is always equal and the tracking allocator propagates: the memory always changes hands
    static_assert(std::is_nothrow_move_assignable_v<tessera::sparse_set>);
    static_assert(std::is_nothrow_move_assignable_v<tracked_set>);
    // polymorphic allocators over different resources have to copy
    static_assert(!std::is_nothrow_move_assignable_v<pmr_set>);
    static_assert(std::is_nothrow_move_constructible_v<pmr_set>);
    SUCCEED();
}

TEST(sparse_set, push_is_strongly_exception_safe) {
    tessera_test::allocation_log log{};
    {
        tracked_set set{tessera_test::tracking_allocator<entity>{log}};

        // no memory at all: nothing is added
        log.fail_after = 0u;
        EXPECT_THROW(set.push(make(1u)), std::bad_alloc);
        EXPECT_FALSE(set.contains(make(1u)));
        EXPECT_TRUE(set.empty());

        log.fail_after = tessera_test::allocation_log::never;
        set.push(make(1u));
        ASSERT_EQ(set.capacity(), 1u);

        // the page exists, the packed array cannot grow
        log.fail_after = 0u;
        EXPECT_THROW(set.push(make(2u)), std::bad_alloc);
        EXPECT_FALSE(set.contains(make(2u)));
        EXPECT_EQ(set.size(), 1u);
        EXPECT_EQ(set.current(make(2u)), traits::to_version(tessera::tombstone));
        EXPECT_TRUE(set.contains(make(1u)));

        // the page table cannot grow
        EXPECT_THROW(set.push(make(page + 1u)), std::bad_alloc);
        EXPECT_FALSE(set.contains(make(page + 1u)));

        // the page table grows, the page itself cannot be allocated
        log.fail_after = 1u;
        EXPECT_THROW(set.push(make(3u * page)), std::bad_alloc);
        EXPECT_FALSE(set.contains(make(3u * page)));
        EXPECT_EQ(set.size(), 1u);
        log.fail_after = tessera_test::allocation_log::never;
        set.push(make(3u * page));
        EXPECT_TRUE(set.contains(make(3u * page)));
        set.erase(make(3u * page));

        log.fail_after = tessera_test::allocation_log::never;
        set.push(make(2u));
        EXPECT_TRUE(set.contains(make(2u)));
        EXPECT_EQ(set.index(make(2u)), 1u);

        // shrinking never needs memory it cannot get
        set.erase(make(2u));
        log.fail_after = 0u;
        EXPECT_NO_THROW(set.shrink_to_fit());
        log.fail_after = tessera_test::allocation_log::never;
        EXPECT_TRUE(set.contains(make(1u)));
    }
    EXPECT_TRUE(log.balanced());
}

TEST_P(any_policy, revision_grows_with_every_change_of_a_position_in_use) {
    tessera::sparse_set set{GetParam()};
    auto last = set.revision();
    // every step below must move the revision on; reading the set must not
    const auto changed = [&set, &last] {
        const auto now = set.revision();
        const bool grew = now > last;
        last = now;
        return grew;
    };

    // appending leaves the positions already seen as they were
    set.push(make(0u));
    EXPECT_FALSE(changed());
    const auto all = ids({1u, 2u, 3u, 4u});
    set.push(all.begin(), all.end());
    EXPECT_FALSE(changed());

    // reads, reserving and shrinking leave the identifiers where they are
    EXPECT_TRUE(set.contains(make(2u)));
    EXPECT_EQ(set.index(make(0u)), 0u);
    [[maybe_unused]] const auto found = set.find(make(3u));
    set.reserve(64u);
    set.shrink_to_fit();
    EXPECT_FALSE(changed());

    set.swap_elements(make(0u), make(4u));
    EXPECT_TRUE(changed());
    set.bump(traits::construct(2u, 3u));
    EXPECT_TRUE(changed());
    set.erase(make(1u));
    EXPECT_TRUE(changed());
    EXPECT_TRUE(set.remove(make(3u)));
    EXPECT_TRUE(changed());
    EXPECT_FALSE(set.remove(make(3u)));
    EXPECT_FALSE(changed());
    set.compact();
    changed(); // a change only for in-place sets, which had holes

    set.sort([](const auto lhs, const auto rhs) { return traits::to_entity(lhs) < traits::to_entity(rhs); });
    EXPECT_TRUE(changed());
    const auto order = ids({4u});
    set.sort_as(order.begin(), order.end());
    EXPECT_TRUE(changed());

    tessera::sparse_set other{GetParam()};
    other.push(make(7u));
    set.swap(other);
    EXPECT_TRUE(changed());
    EXPECT_GT(other.revision(), 0u);

    // a set moved into another never reads as a state the target had before
    const auto before_move = other.revision();
    set = std::move(other);
    EXPECT_TRUE(changed());
    EXPECT_GT(other.revision(), before_move); // NOLINT(bugprone-use-after-move): moved-from sets are empty
    tessera::sparse_set moved{std::move(set)};
    EXPECT_GT(moved.revision(), last);
    EXPECT_TRUE(changed()); // NOLINT(bugprone-use-after-move)

    const auto before_clear = moved.revision();
    moved.clear();
    EXPECT_GT(moved.revision(), before_clear);
}

TEST(sparse_set, revision_grows_when_a_hole_is_filled) {
    tessera::sparse_set set{deletion_policy::in_place};
    const auto all = ids({0u, 1u, 2u});
    set.push(all.begin(), all.end());
    set.erase(make(1u));
    const auto last = set.revision();

    set.push(make(5u));
    EXPECT_EQ(set.index(make(5u)), 1u);
    EXPECT_GT(set.revision(), last);
}

TEST(sparse_set, revision_follows_the_swap_only_boundary) {
    tessera::sparse_set set{deletion_policy::swap_only};
    const auto all = ids({0u, 1u, 2u});
    set.push(all.begin(), all.end());
    auto last = set.revision();

    set.free_list(1u);
    EXPECT_GT(set.revision(), last);
    last = set.revision();
    set.erase(make(0u));
    EXPECT_GT(set.revision(), last);
}

TEST(sparse_set, sparse_pages_and_table_capacity) {
    tessera::sparse_set set{};
    EXPECT_EQ(set.sparse_pages(), 0u);
    EXPECT_EQ(set.sparse_table_capacity(), 0u);

    // pages 0 and 3: the table reaches page 3, two pages are allocated
    constexpr auto page_size = tessera::entt_traits<entity>::page_size;
    set.push(make(0u));
    set.push(make(static_cast<std::uint32_t>(3u * page_size + 1u)));
    EXPECT_EQ(set.sparse_pages(), 2u);
    EXPECT_EQ(set.extent(), 4u * page_size);
    EXPECT_GE(set.sparse_table_capacity(), 4u);

    set.erase(make(static_cast<std::uint32_t>(3u * page_size + 1u)));
    set.shrink_to_fit();
    EXPECT_EQ(set.sparse_pages(), 1u);
    EXPECT_EQ(set.sparse_table_capacity(), 1u);
}

TEST(sparse_set, in_use_is_what_iteration_visits) {
    tessera::sparse_set plain{};
    tessera::sparse_set stable{deletion_policy::in_place};
    tessera::sparse_set released{deletion_policy::swap_only};
    const auto all = ids({0u, 1u, 2u, 3u});

    for (auto *set : {&plain, &stable, &released}) {
        EXPECT_EQ(set->in_use(), 0u);
        set->push(all.begin(), all.end());
        EXPECT_EQ(set->in_use(), 4u);
        set->erase(make(1u));
    }

    // swap-and-pop: the set shrinks; in-place: the hole stays a position; swap-only: the identifier is released
    EXPECT_EQ(plain.in_use(), 3u);
    EXPECT_EQ(stable.in_use(), 4u);
    EXPECT_EQ(released.in_use(), 3u);
    EXPECT_EQ(released.size(), 4u);
    EXPECT_EQ(released.in_use(), released.free_list());
    EXPECT_EQ(static_cast<std::size_t>(std::distance(released.begin(), released.end())), released.size());

    released.free_list(1u);
    EXPECT_EQ(released.in_use(), 1u);
}

} // namespace unit_entity_sparse_set
} // namespace
