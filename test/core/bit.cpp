// Tests of bit.hpp: fast_mod.
#include "support/misuse.hpp"
#include <cstdint>
#include <gtest/gtest.h>
#include <tessera/core/bit.hpp>

namespace {
namespace unit_core_bit {

TEST(fast_mod, matches_modulo_by_powers_of_two) {
    static_assert(tessera::fast_mod(7u, 4u) == 3u);
    for (std::uint32_t value = 0u; value < 300u; ++value) {
        for (std::size_t mod : {1u, 2u, 8u, 64u, 256u}) {
            ASSERT_EQ(tessera::fast_mod(value, mod), value % mod);
        }
    }
    ASSERT_EQ(tessera::fast_mod(std::uint64_t{0x1234567890}, 4096u), std::uint64_t{0x890});
}

TEST(fast_mod, misuse_modulus_not_a_power_of_two) {
    EXPECT_MISUSE(static_cast<void>(tessera::fast_mod(5u, 3u)), "power of two");
    EXPECT_MISUSE(static_cast<void>(tessera::fast_mod(5u, 0u)), "power of two");
}

} // namespace unit_core_bit
} // namespace
