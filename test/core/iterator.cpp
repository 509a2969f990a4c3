// Tests of iterator.hpp: iterable_adaptor, input_iterator_pointer and iota_iterator.
#include <gtest/gtest.h>
#include <iterator>
#include <ranges>
#include <tessera/core/iterator.hpp>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {
namespace unit_core_iterator {

namespace {

struct counted_sentinel {
    int limit;
};

bool operator==(const tessera::iota_iterator<int> &it, const counted_sentinel &sentinel) {
    return *it == sentinel.limit;
}

} // namespace

TEST(iterable_adaptor, iterates_the_range) {
    std::vector<int> values{1, 2, 3};
    const tessera::iterable_adaptor range{values.begin(), values.end()};
    static_assert(std::is_same_v<decltype(range)::value_type, int>);
    static_assert(std::is_same_v<decltype(range)::iterator, std::vector<int>::iterator>);
    static_assert(std::is_same_v<decltype(range)::sentinel, std::vector<int>::iterator>);
    EXPECT_EQ(range.begin(), values.begin());
    EXPECT_EQ(range.end(), values.end());
    EXPECT_EQ(range.cbegin(), values.begin());
    EXPECT_EQ(range.cend(), values.end());

    int sum{};
    for (const int value : range) {
        sum += value;
    }
    EXPECT_EQ(sum, 6);
    static_assert(std::ranges::range<decltype(range)>);
}

TEST(iterable_adaptor, default_constructed_is_empty) {
    constexpr tessera::iterable_adaptor<int *> range{};
    static_assert(range.begin() == range.end());
    static_assert(std::is_nothrow_default_constructible_v<tessera::iterable_adaptor<int *>>);
    EXPECT_EQ(range.cbegin(), range.cend());
}

TEST(iterable_adaptor, distinct_sentinel) {
    const tessera::iterable_adaptor<tessera::iota_iterator<int>, counted_sentinel> range{tessera::iota_iterator<int>{2},
                                                                                         counted_sentinel{5}};
    std::vector<int> seen;
    for (const int value : range) {
        seen.push_back(value);
    }
    EXPECT_EQ(seen, (std::vector<int>{2, 3, 4}));
}

TEST(input_iterator_pointer, holds_the_value) {
    tessera::input_iterator_pointer<std::tuple<int, char>> pointer{std::make_tuple(3, 'c')};
    static_assert(std::is_same_v<decltype(pointer)::pointer, std::tuple<int, char> *>);
    static_assert(std::is_same_v<decltype(pointer)::reference, std::tuple<int, char> &>);
    EXPECT_EQ(std::get<0>(*pointer.operator->()), 3);
    std::get<1>(*pointer) = 'd';
    EXPECT_EQ(std::get<1>(*pointer), 'd');
    EXPECT_EQ(pointer.operator->(), &*pointer);

    const auto &as_const = pointer;
    EXPECT_EQ(std::get<1>(*as_const.operator->()), 'd');
    EXPECT_EQ(std::get<0>(*as_const), 3);
}

TEST(input_iterator_pointer, works_as_an_arrow) {
    // An iterator whose arrow returns a proxy: `it->first` goes through the proxy's own arrow.
    struct pair_iterator {
        int value;
        [[nodiscard]] tessera::input_iterator_pointer<std::pair<int, int>> operator->() const {
            return std::make_pair(value, value * 2);
        }
    };
    const pair_iterator it{4};
    EXPECT_EQ(it->first, 4);
    EXPECT_EQ(it->second, 8);
}

TEST(iota_iterator, counts) {
    tessera::iota_iterator<unsigned> it{};
    EXPECT_EQ(*it, 0u);
    EXPECT_EQ(*++it, 1u);
    const auto previous = it++;
    EXPECT_EQ(*previous, 1u);
    EXPECT_EQ(*it, 2u);
    EXPECT_EQ(it, tessera::iota_iterator<unsigned>{2u});
    EXPECT_NE(it, previous);
    static_assert(std::input_iterator<tessera::iota_iterator<int>>);
    static_assert(*++tessera::iota_iterator<int>{41} == 42);
}

} // namespace unit_core_iterator
} // namespace
