// Tests of family.hpp: per-family dense counters.
#include <algorithm>
#include <array>
#include <gtest/gtest.h>
#include <tessera/core/family.hpp>
#include <type_traits>

namespace {
namespace unit_core_family {

namespace {

struct first_tag;
struct second_tag;
struct third_tag;
using first_family = tessera::family<first_tag>;
using second_family = tessera::family<second_tag>;
using third_family = tessera::family<third_tag>;

} // namespace

TEST(family, values_are_distinct_and_dense) {
    std::array values{first_family::value<int>, first_family::value<char>, first_family::value<int, char>};
    std::sort(values.begin(), values.end());
    EXPECT_EQ(values[0u], 0u);
    EXPECT_EQ(values[1u], 1u);
    EXPECT_EQ(values[2u], 2u);
}

TEST(family, value_is_stable) {
    EXPECT_EQ(third_family::value<int>, third_family::value<int>);
    EXPECT_EQ(&third_family::value<int>, &third_family::value<int>);
    EXPECT_NE((third_family::value<int, char>), (third_family::value<char, int>));
    static_assert(std::is_same_v<third_family::value_type, tessera::id_type>);
}

TEST(family, families_count_independently) {
    // second_family numbers its own packs from zero, whatever first_family did.
    std::array values{second_family::value<double>, second_family::value<float>};
    std::sort(values.begin(), values.end());
    EXPECT_EQ(values[0u], 0u);
    EXPECT_EQ(values[1u], 1u);
}

} // namespace unit_core_family
} // namespace
