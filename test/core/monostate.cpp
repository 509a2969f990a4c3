// Tests of monostate.hpp: values per key and per type.
#include <gtest/gtest.h>
#include <tessera/core/hashed_string.hpp>
#include <tessera/core/monostate.hpp>

namespace {
namespace unit_core_monostate {

TEST(monostate, values_per_key_and_type) {
    using namespace tessera::literals;
    const bool unset = tessera::monostate<"port.unset"_hs>{};
    ASSERT_FALSE(unset);

    tessera::monostate<"port.key"_hs>{} = true;
    tessera::monostate_v<"port.key"_hs> = 42;
    tessera::monostate<tessera::hashed_string{"port.other"}>{} = 7;

    const bool flag = tessera::monostate<tessera::hashed_string{"port.key"}>{};
    const int number = tessera::monostate_v<"port.key"_hs>;
    const int other = tessera::monostate<"port.other"_hs>{};
    ASSERT_TRUE(flag);
    ASSERT_EQ(number, 42);
    ASSERT_EQ(other, 7);
}

} // namespace unit_core_monostate
} // namespace
