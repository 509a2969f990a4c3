// Tests of algorithm.hpp: std_sort and insertion_sort.
#include <algorithm>
#include <array>
#include <functional>
#include <gtest/gtest.h>
#include <list>
#include <tessera/core/algorithm.hpp>
#include <utility>
#include <vector>

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
