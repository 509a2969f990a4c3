// Tests of type_info.hpp: type indexes, hashes, names, type_info and type_id.
#include <algorithm>
#include <gtest/gtest.h>
#include <string>
#include <string_view>
#include <tessera/core/hashed_string.hpp>
#include <tessera/core/type_info.hpp>
#include <type_traits>
#include <utility>

namespace test_types {

struct position {};
struct incomplete;

template<typename Type>
struct wrapper {};

} // namespace test_types

namespace {

using namespace tessera::literals;

// Same spelling as its twin in type_info_twin.cpp (another translation unit), yet a different type.
struct unit_local {};

// The hash of a type with a stable name is a constant expression.
static_assert(tessera::type_hash<int>::value() != tessera::type_hash<char>::value());
static_assert(tessera::type_hash<test_types::position>::value() == tessera::type_hash<test_types::position>{});
static_assert(!tessera::type_name<int>::value().empty());

} // namespace

// Defined in type_info_twin.cpp.
tessera::id_type twin_unit_local_hash();
std::string_view twin_unit_local_name();

TEST(type_index, dense_and_stable) {
    const auto first = tessera::type_index<struct index_a>::value();
    const auto second = tessera::type_index<struct index_b>::value();
    EXPECT_NE(first, second);
    EXPECT_EQ(first, tessera::type_index<struct index_a>::value());
    EXPECT_EQ(second, tessera::type_index<struct index_b>{});
    // Indexes are handed out one after the other.
    const auto third = tessera::type_index<struct index_c>::value();
    EXPECT_EQ(third, std::max(first, second) + 1u);
}

TEST(type_hash, stable_names_hash_their_name) {
    constexpr auto name = tessera::type_name<test_types::position>::value();
    EXPECT_EQ(name, "test_types::position");
    EXPECT_EQ(tessera::type_hash<test_types::position>::value(),
              tessera::hashed_string::value(name.data(), name.size()));
    EXPECT_EQ(tessera::type_name<int>::value(), "int");
    EXPECT_EQ(tessera::type_hash<int>::value(), "int"_hs);
    EXPECT_NE(tessera::type_hash<int>::value(), tessera::type_hash<const int>::value());
    EXPECT_NE(tessera::type_hash<test_types::wrapper<int>>::value(),
              tessera::type_hash<test_types::wrapper<char>>::value());
}

TEST(type_hash, unit_local_types_with_the_same_spelling_differ) {
    EXPECT_EQ(tessera::type_name<unit_local>::value(), twin_unit_local_name());
    EXPECT_NE(tessera::type_hash<unit_local>::value(), twin_unit_local_hash());
    EXPECT_EQ(tessera::type_hash<unit_local>::value(), tessera::type_hash<unit_local>::value());
}

TEST(type_hash, lambdas_differ) {
    const auto first = [] {};
    const auto second = [] {};
    EXPECT_NE(tessera::type_hash<decltype(first)>::value(), tessera::type_hash<decltype(second)>::value());
}

TEST(type_name, conversion) {
    const std::string_view name = tessera::type_name<char>{};
    EXPECT_EQ(name, "char");
    EXPECT_EQ(tessera::type_name<test_types::wrapper<int>>::value(), "test_types::wrapper<int>");
    EXPECT_EQ(tessera::type_name<test_types::incomplete>::value(), "test_types::incomplete");
}

TEST(type_info, members) {
    const tessera::type_info info{std::in_place_type<const test_types::position &>};
    EXPECT_EQ(info.index(), tessera::type_index<test_types::position>::value());
    EXPECT_EQ(info.hash(), tessera::type_hash<test_types::position>::value());
    EXPECT_EQ(info.name(), tessera::type_name<test_types::position>::value());
}

TEST(type_info, comparisons) {
    const tessera::type_info lhs{std::in_place_type<int>};
    const tessera::type_info rhs{std::in_place_type<char>};
    EXPECT_TRUE(lhs == tessera::type_info{std::in_place_type<int>});
    EXPECT_FALSE(lhs == rhs);
    EXPECT_TRUE(lhs != rhs);
    EXPECT_EQ(lhs < rhs, lhs.index() < rhs.index());
    EXPECT_EQ(lhs <=> rhs, lhs.index() <=> rhs.index());
    EXPECT_EQ(lhs <=> lhs, std::strong_ordering::equal);
}

TEST(type_id, strips_cv_and_references) {
    EXPECT_EQ(&tessera::type_id<int>(), &tessera::type_id<const int &>());
    EXPECT_EQ(&tessera::type_id<int>(), &tessera::type_id<volatile int &&>());
    EXPECT_EQ(&tessera::type_id<int>(), &tessera::type_id(42));
    const int value = 3;
    EXPECT_EQ(&tessera::type_id<int>(), &tessera::type_id(value));
    EXPECT_NE(tessera::type_id<int>(), tessera::type_id<char>());
    EXPECT_EQ(tessera::type_id<int>().hash(), tessera::type_hash<int>::value());
    EXPECT_EQ(tessera::type_id<int>().index(), tessera::type_index<int>::value());
    EXPECT_EQ(tessera::type_id<int>().name(), "int");
}

TEST(type_id, incomplete_types) {
    const auto &info = tessera::type_id<test_types::incomplete>();
    EXPECT_EQ(info.hash(), tessera::type_hash<test_types::incomplete>::value());
    EXPECT_EQ(&info, &tessera::type_id<const test_types::incomplete>());
}

struct message_words {
    static constexpr std::string_view prefix = "check: ";
    static constexpr std::string_view suffix = " is wrong";
};

TEST(type_message, names_the_type_between_the_words) {
    using message = tessera::internal::type_message<message_words, test_types::position>;
    constexpr std::string_view text{message::text.data()};
    static_assert(text == "check: test_types::position is wrong");
    // null-terminated, so that assertions can take data()
    static_assert(message::text.back() == '\0');
    EXPECT_EQ(std::string{message::text.data()}, "check: test_types::position is wrong");
}
