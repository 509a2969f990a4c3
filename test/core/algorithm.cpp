// Tests of algorithm.hpp: std_sort, insertion_sort and radix_sort.
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <gtest/gtest.h>
#include <list>
#include <memory>
#include <random>
#include <tessera/core/algorithm.hpp>
#include <utility>
#include <vector>

namespace {
namespace unit_core_algorithm {

namespace {

struct keyed {
    int key;
    int order;
};

} // namespace

TEST(std_sort, default_compare) {
    std::array values{4, 1, 3, 2, 5};
    tessera::std_sort{}(values.begin(), values.end());
    EXPECT_TRUE(std::is_sorted(values.begin(), values.end()));
}

TEST(std_sort, custom_compare) {
    std::vector values{4, 1, 3, 2, 5};
    tessera::std_sort{}(values.begin(), values.end(), std::greater{});
    EXPECT_EQ(values, (std::vector{5, 4, 3, 2, 1}));
}

TEST(insertion_sort, sorts) {
    std::vector values{4, 1, 3, 2, 5, 0};
    tessera::insertion_sort{}(values.begin(), values.end());
    EXPECT_EQ(values, (std::vector{0, 1, 2, 3, 4, 5}));

    tessera::insertion_sort{}(values.begin(), values.end(), std::greater{});
    EXPECT_EQ(values, (std::vector{5, 4, 3, 2, 1, 0}));
}

TEST(insertion_sort, empty_and_single) {
    std::vector<int> empty;
    tessera::insertion_sort{}(empty.begin(), empty.end());
    EXPECT_TRUE(empty.empty());

    std::vector single{7};
    tessera::insertion_sort{}(single.begin(), single.end());
    EXPECT_EQ(single, std::vector{7});
}

TEST(insertion_sort, is_stable) {
    std::vector<keyed> values{{2, 0}, {1, 1}, {2, 2}, {0, 3}, {1, 4}, {2, 5}};
    tessera::insertion_sort{}(values.begin(), values.end(),
                              [](const keyed &lhs, const keyed &rhs) { return lhs.key < rhs.key; });
    std::vector<std::pair<int, int>> result;
    for (const auto &value : values) {
        result.emplace_back(value.key, value.order);
    }
    EXPECT_EQ(result, (std::vector<std::pair<int, int>>{{0, 3}, {1, 1}, {1, 4}, {2, 0}, {2, 2}, {2, 5}}));
}

TEST(insertion_sort, bidirectional_range) {
    std::list values{3, 2, 1};
    tessera::insertion_sort{}(values.begin(), values.end());
    EXPECT_EQ(values, (std::list{1, 2, 3}));
}

TEST(radix_sort, sorts_unsigned) {
    std::array values{4u, 1u, 3u, 2u, 0u, 4000000000u, 65536u};
    tessera::radix_sort<8, 32>{}(values.begin(), values.end());
    ASSERT_TRUE(std::is_sorted(values.begin(), values.end()));
}

TEST(radix_sort, getter_and_stability) {
    std::vector<keyed> values{{3, 0}, {1, 1}, {3, 2}, {0, 3}, {1, 4}, {2, 5}};
    tessera::radix_sort<2, 4>{}(values.begin(), values.end(), [](const keyed &value) { return value.key; });
    const std::vector<std::pair<int, int>> expected{{0, 3}, {1, 1}, {1, 4}, {2, 5}, {3, 0}, {3, 2}};
    ASSERT_EQ(values.size(), expected.size());
    for (std::size_t pos{}; pos < values.size(); ++pos) {
        EXPECT_EQ(values[pos].key, expected[pos].first);
        EXPECT_EQ(values[pos].order, expected[pos].second);
    }
}

TEST(radix_sort, reverse_iterators) {
    std::array values{4, 1, 3, 2, 0, 8};
    tessera::radix_sort<2, 6>{}(values.rbegin(), values.rend());
    ASSERT_TRUE(std::is_sorted(values.rbegin(), values.rend()));
}

TEST(radix_sort, empty_single_and_odd_passes) {
    std::vector<unsigned> empty{};
    tessera::radix_sort<8, 32>{}(empty.begin(), empty.end());
    ASSERT_TRUE(empty.empty());

    std::vector<unsigned> single{7u};
    tessera::radix_sort<8, 32>{}(single.begin(), single.end());
    ASSERT_EQ(single.front(), 7u);

    // three passes: the data ends in the range without the final copy back
    std::vector<unsigned> odd{0x30201u, 0x10203u, 0x20103u, 0x00001u};
    tessera::radix_sort<8, 24>{}(odd.begin(), odd.end());
    ASSERT_TRUE(std::is_sorted(odd.begin(), odd.end()));
}

TEST(radix_sort, skips_uniform_digits) {
    // every key shares its upper digits: those passes move nothing, the result is still sorted
    std::vector<std::uint64_t> values(1000u);
    std::mt19937 engine{42u};
    for (auto &value : values) {
        value = engine() & 0xFFu;
    }
    tessera::radix_sort<4, 64>{}(values.begin(), values.end());
    ASSERT_TRUE(std::is_sorted(values.begin(), values.end()));
}

TEST(radix_sort, matches_stable_sort_on_random_keys) {
    std::mt19937 engine{7u};
    std::vector<keyed> values(5000u);
    for (int pos = 0; auto &value : values) {
        value = keyed{static_cast<int>(engine() & 0xFFFFu), pos++};
    }
    auto expected = values;
    std::stable_sort(expected.begin(), expected.end(),
                     [](const keyed &lhs, const keyed &rhs) { return lhs.key < rhs.key; });
    tessera::radix_sort<8, 16>{}(values.begin(), values.end(), &keyed::key);
    for (std::size_t pos{}; pos < values.size(); ++pos) {
        ASSERT_EQ(values[pos].key, expected[pos].key);
        ASSERT_EQ(values[pos].order, expected[pos].order);
    }
}

TEST(radix_sort, move_only_values) {
    std::vector<std::unique_ptr<unsigned>> values{};
    for (unsigned value : {5u, 3u, 9u, 1u}) {
        values.push_back(std::make_unique<unsigned>(value));
    }
    tessera::radix_sort<4, 8>{}(values.begin(), values.end(), [](const auto &ptr) { return *ptr; });
    ASSERT_EQ(*values[0], 1u);
    ASSERT_EQ(*values[1], 3u);
    ASSERT_EQ(*values[2], 5u);
    ASSERT_EQ(*values[3], 9u);
}

} // namespace unit_core_algorithm
} // namespace
