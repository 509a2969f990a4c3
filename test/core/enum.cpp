// Tests of enum.hpp: opting in to bitmask operators and what the operators compute.
#include <cstdint>
#include <gtest/gtest.h>
#include <tessera/core/enum.hpp>
#include <type_traits>

namespace {

enum class marked : std::uint8_t { none = 0x00, one = 0x01, two = 0x02, four = 0x04, _tessera_enum_as_bitmask };

// The marker spelled the way code written for EnTT spells it.
enum class ported : int { a = 1, b = 2, _entt_enum_as_bitmask };

enum class specialized : unsigned { x = 1u, y = 2u };

enum class plain { p = 1 };

template<typename Type>
concept has_or = requires(Type lhs, Type rhs) {
    lhs | rhs;
};

} // namespace

template<>
struct tessera::enum_as_bitmask<specialized> : std::true_type {};

TEST(enum_as_bitmask, opt_in) {
    static_assert(tessera::enum_as_bitmask_v<marked>);
    static_assert(tessera::enum_as_bitmask_v<ported>);
    static_assert(tessera::enum_as_bitmask_v<specialized>);
    static_assert(!tessera::enum_as_bitmask_v<plain>);
    static_assert(!tessera::enum_as_bitmask<int>::value);
    static_assert(tessera::enum_bitmask<marked> && !tessera::enum_bitmask<plain>);
    static_assert(has_or<marked> && !has_or<plain>);
    SUCCEED();
}

TEST(enum_as_bitmask, operators) {
    constexpr auto both = marked::one | marked::two;
    static_assert(static_cast<int>(both) == 3);
    ASSERT_EQ(both & marked::two, marked::two);
    ASSERT_EQ(both & marked::four, marked::none);
    ASSERT_EQ(both ^ marked::one, marked::two);
    ASSERT_EQ(static_cast<std::uint8_t>(~marked::one), std::uint8_t{0xFE});
    ASSERT_TRUE(!marked::none);
    ASSERT_FALSE(!both);
    ASSERT_TRUE(!!(both & marked::one));

    auto flags = marked::one;
    flags |= marked::four;
    ASSERT_EQ(flags, marked::one | marked::four);
    flags &= marked::four;
    ASSERT_EQ(flags, marked::four);
    flags ^= marked::four;
    ASSERT_EQ(flags, marked::none);

    ASSERT_EQ(ported::a | ported::b, ported{3});
    ASSERT_EQ(specialized::x | specialized::y, specialized{3u});
}
