// Tests of hashed_string.hpp: FNV-1a values, constructors, comparisons and the literals.
#include <cstdint>
#include <gtest/gtest.h>
#include <string>
#include <string_view>
#include <tessera/core/hashed_string.hpp>
#include <type_traits>

namespace {
namespace unit_core_hashed_string {

namespace {

using namespace tessera::literals;

static_assert(std::is_same_v<tessera::id_type, std::uint32_t>, "these tests assume the default 32-bit id_type");

// Compile-time evaluation of every constexpr/consteval entry point.
static_assert("foo"_hs == 0xa9f37ed7u);
static_assert(L"foo"_hws == 0xa9f37ed7u);
static_assert(tessera::hashed_string{""}.value() == 0x811c9dc5u);
static_assert(tessera::hashed_string{}.value() == 0x811c9dc5u);
static_assert(tessera::hashed_string::value("foo") == 0xa9f37ed7u);
static_assert(tessera::hashed_string::value("foobar", 3u) == 0xa9f37ed7u);
static_assert(tessera::hashed_string{"foobar", 3u}.size() == 3u);
static_assert(tessera::hashed_wstring::value(L"foo") == 0xa9f37ed7u);
static_assert(tessera::internal::fnv1a<std::uint64_t>("foo", 3u) == 0xdcb27518fed9d577ull);
static_assert(tessera::internal::fnv1a<std::uint64_t>("", 0u) == 0xcbf29ce484222325ull);
static_assert(tessera::internal::fnv1a<std::uint32_t>("foobar", 6u) == 0xbf9cf968u);

constexpr const char runtime_name[] = "position";

} // namespace

TEST(hashed_string, known_values) {
    EXPECT_EQ("foo"_hs, 0xa9f37ed7u);
    EXPECT_EQ("foobar"_hs.value(), 0xbf9cf968u);
    EXPECT_EQ(tessera::hashed_string{""}.value(), 0x811c9dc5u);
    EXPECT_EQ(tessera::hashed_string::value("foo"), "foo"_hs);
    EXPECT_EQ(tessera::hashed_string::value(std::string{"foo"}.c_str()), 0xa9f37ed7u);
}

TEST(hashed_string, literal_overload_of_static_value) {
    // The array overload stops at the first NUL.
    constexpr char padded[8] = "foo";
    constexpr auto hash = tessera::hashed_string::value(padded);
    EXPECT_EQ(hash, 0xa9f37ed7u);
}

TEST(hashed_string, constructors) {
    const tessera::hashed_string empty{};
    EXPECT_EQ(empty.size(), 0u);
    ASSERT_NE(empty.data(), nullptr);
    EXPECT_EQ(*empty.data(), '\0');
    EXPECT_EQ(empty.value(), 0x811c9dc5u);

    const std::string text{"foobar"};
    const tessera::hashed_string prefix{text.data(), 3u};
    EXPECT_EQ(prefix.size(), 3u);
    EXPECT_EQ(prefix.data(), text.data());
    EXPECT_EQ(prefix.value(), 0xa9f37ed7u);

    const tessera::hashed_string whole{text.c_str()};
    EXPECT_EQ(whole.size(), 6u);
    EXPECT_EQ(whole.value(), 0xbf9cf968u);
    EXPECT_EQ(static_cast<const char *>(whole), text.c_str());

    // Copy-initialization goes through the consteval array constructor, which stops at the first NUL.
    constexpr tessera::hashed_string literal = "foo\0bar";
    EXPECT_EQ(literal.size(), 3u);
    EXPECT_EQ(literal.value(), 0xa9f37ed7u);
    EXPECT_EQ(std::string_view{literal.data()}, "foo");

    const tessera::hashed_string array{runtime_name};
    EXPECT_EQ(array.size(), 8u);
    EXPECT_EQ(array, tessera::hashed_string{"position"});
}

TEST(hashed_string, deduction_guides) {
    const wchar_t *wide = L"foo";
    static_assert(std::is_same_v<decltype(tessera::basic_hashed_string{wide, 3u}), tessera::hashed_wstring>);
    static_assert(std::is_same_v<decltype(tessera::basic_hashed_string{"foo"}), tessera::hashed_string>);
    EXPECT_EQ((tessera::basic_hashed_string{wide, 3u}.value()), 0xa9f37ed7u);
}

TEST(hashed_string, comparisons) {
    constexpr auto foo = "foo"_hs;
    constexpr auto bar = "bar"_hs;
    static_assert(foo == "foo"_hs);
    static_assert(foo != bar);
    EXPECT_TRUE(foo == tessera::hashed_string{"foo"});
    EXPECT_FALSE(foo == bar);
    EXPECT_EQ(foo < bar, foo.value() < bar.value());
    EXPECT_EQ(foo > bar, foo.value() > bar.value());
    EXPECT_EQ(foo <=> foo, std::strong_ordering::equal);
    EXPECT_EQ(foo <=> bar, foo.value() <=> bar.value());
}

TEST(hashed_string, converts_to_id_type) {
    const tessera::id_type id = "foo"_hs;
    EXPECT_EQ(id, 0xa9f37ed7u);

    switch (id) {
    case "foo"_hs:
        SUCCEED();
        break;
    default:
        FAIL() << "a literal hash must work as a case label";
    }
}

TEST(hashed_string, wide) {
    constexpr auto wide = L"foobar"_hws;
    EXPECT_EQ(wide.size(), 6u);
    EXPECT_EQ(wide.value(), 0xbf9cf968u);
    EXPECT_EQ(tessera::hashed_wstring{L"foobar"}, wide);
}

} // namespace unit_core_hashed_string
} // namespace
