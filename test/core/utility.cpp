// Tests of utility.hpp: overload, overloaded and y_combinator.
#include <gtest/gtest.h>
#include <string>
#include <tessera/core/utility.hpp>
#include <type_traits>

namespace {
namespace unit_core_utility {

namespace {

struct clazz {
    int bar(int value) { return value + 1; }
    int bar() { return 0; }
};

int free_bar(int value) { return value * 2; }
int free_bar() { return -1; }

} // namespace

TEST(utility, overload) {
    const auto member = tessera::overload<int(int)>(&clazz::bar);
    static_assert(std::is_same_v<decltype(member), int (clazz::*const)(int)>);
    clazz instance{};
    ASSERT_EQ((instance.*member)(3), 4);
    ASSERT_EQ((instance.*tessera::overload<int()>(&clazz::bar))(), 0);

    ASSERT_EQ(tessera::overload<int(int)>(&free_bar)(4), 8);
    ASSERT_EQ(tessera::overload<int()>(&free_bar)(), -1);
}

TEST(utility, overloaded) {
    const tessera::overloaded func{[](int) { return std::string{"int"}; }, [](char) { return std::string{"char"}; }};
    ASSERT_EQ(func(42), "int");
    ASSERT_EQ(func('c'), "char");
}

TEST(utility, y_combinator) {
    const tessera::y_combinator gauss(
        [](const auto &self, unsigned value) -> unsigned { return value == 0u ? 0u : value + self(value - 1u); });
    ASSERT_EQ(gauss(3u), 6u);
    ASSERT_EQ(gauss(100u), 5050u);

    // the non-const call operator hands the lambda a mutable combinator
    tessera::y_combinator countdown([](auto &self, int value) -> int { return value <= 0 ? 0 : 1 + self(value - 2); });
    ASSERT_EQ(countdown(5), 3);
}

} // namespace unit_core_utility
} // namespace
