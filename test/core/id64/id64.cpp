// With TESSERA_ID_TYPE=std::uint64_t, hashes use the 64-bit FNV-1a parameters; TESSERA_USE_ATOMIC is also on.
#include <atomic>
#include <cstdint>
#include <gtest/gtest.h>
#include <tessera/core/family.hpp>
#include <tessera/core/hashed_string.hpp>
#include <tessera/core/type_info.hpp>
#include <thread>
#include <type_traits>
#include <vector>

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

TEST(id64, atomic_counters) {
    struct tag;
    using counters = tessera::family<tag>;
    // Many threads asking for new values at once still get distinct ones.
    std::vector<tessera::id_type> values(4u);
    std::vector<std::thread> threads;
    threads.emplace_back([&values] { values[0u] = counters::value<int>; });
    threads.emplace_back([&values] { values[1u] = counters::value<char>; });
    threads.emplace_back([&values] { values[2u] = tessera::type_index<struct first>::value(); });
    threads.emplace_back([&values] { values[3u] = tessera::type_index<struct second>::value(); });
    for (auto &thread : threads) {
        thread.join();
    }
    EXPECT_NE(values[0u], values[1u]);
    EXPECT_NE(values[2u], values[3u]);
    static_assert(std::is_same_v<tessera::internal::maybe_atomic<tessera::id_type>, std::atomic<tessera::id_type>>);
}
