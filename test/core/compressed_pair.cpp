// Tests of compressed_pair.hpp: size, construction, access, swap and the tuple protocol.
#include <gtest/gtest.h>
#include <memory>
#include <tessera/core/compressed_pair.hpp>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {
namespace unit_core_compressed_pair {

namespace {

struct empty {};

struct pinned {
    explicit pinned(int init) : value{init} {}
    pinned(const pinned &) = delete;
    pinned &operator=(const pinned &) = delete;
    int value;
};

} // namespace

TEST(compressed_pair, empty_members_take_no_room) {
    static_assert(sizeof(tessera::compressed_pair<empty, int>) == sizeof(int));
    static_assert(sizeof(tessera::compressed_pair<int, empty>) == sizeof(int));
    static_assert(sizeof(tessera::compressed_pair<int, char>) == sizeof(std::pair<int, char>));
    SUCCEED();
}

TEST(compressed_pair, construction) {
    const tessera::compressed_pair<int, double> value_initialized{};
    ASSERT_EQ(value_initialized.first(), 0);
    ASSERT_EQ(value_initialized.second(), 0.);

    tessera::compressed_pair deduced{3, 2.5};
    static_assert(std::is_same_v<decltype(deduced), tessera::compressed_pair<int, double>>);
    deduced.first() = 42;
    ASSERT_EQ(deduced.first(), 42);
    ASSERT_EQ(deduced.second(), 2.5);

    const tessera::compressed_pair<pinned, std::vector<int>> piecewise{std::piecewise_construct, std::make_tuple(7),
                                                                       std::make_tuple(3u, 1)};
    ASSERT_EQ(piecewise.first().value, 7);
    ASSERT_EQ(piecewise.second(), (std::vector<int>{1, 1, 1}));

    auto copy = deduced;
    ASSERT_EQ(copy.first(), 42);
    tessera::compressed_pair<std::unique_ptr<int>, empty> owner{std::make_unique<int>(4), empty{}};
    auto moved = std::move(owner);
    ASSERT_EQ(*moved.first(), 4);
    ASSERT_EQ(owner.first(), nullptr);
    owner = std::move(moved);
    ASSERT_EQ(*owner.first(), 4);
    copy = tessera::compressed_pair{1, 1.};
    ASSERT_EQ(copy.second(), 1.);
}

TEST(compressed_pair, swap_and_get) {
    tessera::compressed_pair lhs{1, 2.};
    tessera::compressed_pair rhs{3, 4.};
    swap(lhs, rhs);
    ASSERT_EQ(lhs.first(), 3);
    ASSERT_EQ(rhs.second(), 2.);
    lhs.swap(rhs);
    ASSERT_EQ(lhs.first(), 1);

    auto &[first, second] = lhs;
    first = 9;
    ASSERT_EQ(lhs.get<0>(), 9);
    ASSERT_EQ(std::as_const(lhs).get<1>(), second);
    static_assert(std::tuple_size_v<tessera::compressed_pair<int, char>> == 2u);
    static_assert(std::is_same_v<std::tuple_element_t<1u, tessera::compressed_pair<int, char>>, char>);
}

} // namespace unit_core_compressed_pair
} // namespace
