// With TESSERA_ID_TYPE=std::uint64_t, hashes use the 64-bit FNV-1a parameters.
#include <cstdint>
#include <gtest/gtest.h>
#include <tessera/core/hashed_string.hpp>
#include <tessera/core/type_info.hpp>
#include <type_traits>

namespace {

using namespace tessera::literals;

static_assert(std::is_same_v<tessera::id_type, std::uint64_t>);
static_assert("foo"_hs == 0xdcb27518fed9d577ull);
static_assert(L"foo"_hws == 0xdcb27518fed9d577ull);
static_assert(tessera::hashed_string{}.value() == 0xcbf29ce484222325ull);

} // namespace

TEST(id64, hashed_string) {
    EXPECT_EQ(tessera::hashed_string::value("foo"), 0xdcb27518fed9d577ull);
    EXPECT_EQ(tessera::hashed_string{""}.value(), 0xcbf29ce484222325ull);
    EXPECT_EQ(tessera::hashed_string::value("foobar"), 0x85944171f73967e8ull);
}

TEST(id64, type_hash) {
    EXPECT_EQ(tessera::type_hash<int>::value(), "int"_hs);
    EXPECT_EQ(tessera::type_id<int>().hash(), "int"_hs.value());
}
