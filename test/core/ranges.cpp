// Tests of ranges.hpp: iterable_adaptor works with the standard range adaptors.
#include <algorithm>
#include <gtest/gtest.h>
#include <ranges>
#include <tessera/core/ranges.hpp>
#include <type_traits>
#include <vector>

namespace {
namespace unit_core_ranges {

TEST(ranges, iterable_adaptor_is_a_borrowed_view) {
    using adaptor = tessera::iterable_adaptor<std::vector<int>::iterator>;
    static_assert(std::ranges::borrowed_range<adaptor>);
    static_assert(std::ranges::view<adaptor>);

    std::vector<int> values{1, 2, 3, 4};
    const adaptor range{values.begin(), values.end()};
    // range algorithms accept it (view adaptors too; they are left out here because clang before 16 cannot compile
    // libstdc++ 12's filter_view)
    ASSERT_EQ(std::ranges::count_if(range, [](int value) { return value % 2 == 0; }), 2);
    ASSERT_EQ(std::ranges::distance(range), 4);

    // a borrowed range gives iterators that outlive the adaptor object
    const auto found = std::ranges::find(adaptor{values.begin(), values.end()}, 3);
    static_assert(!std::is_same_v<std::remove_cvref_t<decltype(found)>, std::ranges::dangling>);
    ASSERT_EQ(*found, 3);
}

} // namespace unit_core_ranges
} // namespace
