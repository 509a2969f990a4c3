// Tests of tuple.hpp: is_tuple, unwrap_tuple and forward_apply.
#include <gtest/gtest.h>
#include <tessera/core/tuple.hpp>
#include <tuple>
#include <type_traits>
#include <utility>

namespace {
namespace unit_core_tuple {

TEST(tuple, is_tuple) {
    static_assert(tessera::is_tuple_v<std::tuple<>>);
    static_assert(tessera::is_tuple_v<std::tuple<int, char>>);
    static_assert(!tessera::is_tuple_v<int>);
    static_assert(!tessera::is_tuple_v<std::pair<int, char>>);
    static_assert(tessera::is_tuple<std::tuple<int>>::value);
    SUCCEED();
}

TEST(tuple, unwrap_tuple) {
    auto single = std::make_tuple(42);
    static_assert(std::is_same_v<decltype(tessera::unwrap_tuple(single)), int &>);
    static_assert(std::is_same_v<decltype(tessera::unwrap_tuple(std::as_const(single))), const int &>);
    static_assert(std::is_same_v<decltype(tessera::unwrap_tuple(std::move(single))), int &&>);
    ASSERT_EQ(tessera::unwrap_tuple(single), 42);

    auto pair = std::make_tuple(1, 'c');
    static_assert(std::is_same_v<decltype(tessera::unwrap_tuple(pair)), std::tuple<int, char> &>);
    ASSERT_EQ(&tessera::unwrap_tuple(pair), &pair);
}

TEST(tuple, forward_apply) {
    tessera::forward_apply sum{[](auto... value) { return (0 + ... + value); }};
    ASSERT_EQ(sum(std::make_tuple()), 0);
    ASSERT_EQ(sum(std::make_tuple(1, 2, 3)), 6);
    ASSERT_EQ(std::as_const(sum)(std::make_tuple(4, 5)), 9);

    int calls = 0;
    tessera::forward_apply counter{[&calls](int value) { return calls += value; }};
    ASSERT_EQ(counter(std::make_tuple(2)), 2);
    ASSERT_EQ(counter(std::make_tuple(3)), 5);
}

} // namespace unit_core_tuple
} // namespace
