// Tests of type_traits.hpp: type and value lists, constness_as and the small traits.
#include <array>
#include <functional>
#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tessera/core/hashed_string.hpp>
#include <tessera/core/type_traits.hpp>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

// Another list kind, standing in for get_t/exclude_t/owned_t from the entity module.
template<typename... Type>
struct other_list : tessera::type_list<Type...> {};

// A list kind with its own transform, the way entity/fwd.hpp specializes it for get_t.
template<typename... Type>
struct custom_list : tessera::type_list<Type...> {};

template<typename Type>
struct add_pointer_op {
    using type = Type *;
};

struct not_comparable {};

struct comparable_value {
    int value;
};

struct comparable {
    bool operator==(const comparable &) const = default;
};

struct functor {
    double operator()(int, const char &) const { return 0.; }
};

struct with_members {
    int data;
    void set(char, long) noexcept {}
    int get(int) const & { return 0; }
};

[[maybe_unused]] int free_function(float, double) { return 0; }

struct incomplete_type;

} // namespace

// The partial specialization a later module writes for its own list kind.
template<typename... Type, template<typename...> class Op>
struct tessera::type_list_transform<custom_list<Type...>, Op> {
    using type = custom_list<const typename Op<Type>::type...>;
};

TEST(type_list, size_and_type) {
    static_assert(tessera::type_list<>::size == 0u);
    static_assert(tessera::type_list<int, char, int>::size == 3u);
    static_assert(std::is_same_v<tessera::type_list<int>::type, tessera::type_list<int>>);
    SUCCEED();
}

TEST(type_list, element) {
    using list = tessera::type_list<int, char, double>;
    static_assert(std::is_same_v<tessera::type_list_element_t<0u, list>, int>);
    static_assert(std::is_same_v<tessera::type_list_element_t<1u, list>, char>);
    static_assert(std::is_same_v<tessera::type_list_element_t<2u, list>, double>);
    static_assert(std::is_same_v<tessera::type_list_element<2u, list>::type, double>);
    static_assert(std::is_same_v<tessera::type_list_element_t<1u, other_list<int, float>>, float>);
    SUCCEED();
}

TEST(type_list, index) {
    using list = tessera::type_list<int, char, int, double>;
    static_assert(tessera::type_list_index_v<int, list> == 0u);
    static_assert(tessera::type_list_index_v<char, list> == 1u);
    static_assert(tessera::type_list_index_v<double, list> == 3u);
    static_assert(tessera::type_list_index<double, list>::value == 3u);
    static_assert(tessera::type_list_index_v<float, other_list<int, float>> == 1u);
    SUCCEED();
}

TEST(type_list, contains) {
    using list = tessera::type_list<int, char>;
    static_assert(tessera::type_list_contains_v<list, int>);
    static_assert(tessera::type_list_contains_v<list, char>);
    static_assert(!tessera::type_list_contains_v<list, double>);
    static_assert(!tessera::type_list_contains_v<list, const int>);
    static_assert(!tessera::type_list_contains_v<tessera::type_list<>, int>);
    static_assert(tessera::type_list_contains<other_list<int>, int>::value);
    SUCCEED();
}

TEST(type_list, cat) {
    static_assert(std::is_same_v<tessera::type_list_cat_t<>, tessera::type_list<>>);
    static_assert(std::is_same_v<tessera::type_list_cat_t<tessera::type_list<int>>, tessera::type_list<int>>);
    static_assert(
        std::is_same_v<
            tessera::type_list_cat_t<tessera::type_list<int>, tessera::type_list<>, tessera::type_list<char, int>>,
            tessera::type_list<int, char, int>>);
    static_assert(std::is_same_v<tessera::type_list_cat_t<other_list<int>, other_list<char>>, other_list<int, char>>);
    static_assert(std::is_same_v<tessera::type_list_cat<tessera::type_list<int>, tessera::type_list<char>>::type,
                                 tessera::type_list<int, char>>);
    SUCCEED();
}

TEST(type_list, transform) {
    static_assert(std::is_same_v<tessera::type_list_transform_t<tessera::type_list<int, char>, std::add_const>,
                                 tessera::type_list<const int, const char>>);
    static_assert(
        std::is_same_v<tessera::type_list_transform_t<tessera::type_list<>, std::add_const>, tessera::type_list<>>);
    static_assert(std::is_same_v<tessera::type_list_transform_t<other_list<int>, add_pointer_op>, other_list<int *>>);
    static_assert(std::is_same_v<tessera::type_list_transform_t<custom_list<int, char>, add_pointer_op>,
                                 custom_list<int *const, char *const>>);
    SUCCEED();
}

TEST(value_list, element_and_cat) {
    using list = tessera::value_list<1, 'c', 3u>;
    static_assert(list::size == 3u);
    static_assert(std::is_same_v<list::type, list>);
    static_assert(tessera::value_list_element_v<0u, list> == 1);
    static_assert(tessera::value_list_element_v<1u, list> == 'c');
    static_assert(std::is_same_v<tessera::value_list_element_t<1u, list>, char>);
    static_assert(std::is_same_v<tessera::value_list_element_t<2u, list>, unsigned int>);
    static_assert(tessera::value_list_element<2u, list>::value == 3u);
    static_assert(std::is_same_v<tessera::value_list_cat_t<>, tessera::value_list<>>);
    static_assert(std::is_same_v<tessera::value_list_cat_t<list>, list>);
    static_assert(std::is_same_v<
                  tessera::value_list_cat_t<tessera::value_list<1>, tessera::value_list<>, tessera::value_list<2, 'x'>>,
                  tessera::value_list<1, 2, 'x'>>);
    SUCCEED();
}

TEST(type_traits, constness_as) {
    static_assert(std::is_same_v<tessera::constness_as_t<int, const char>, const int>);
    static_assert(std::is_same_v<tessera::constness_as_t<int, char>, int>);
    static_assert(std::is_same_v<tessera::constness_as_t<const int, const char>, const int>);
    // a non-const source takes the const away
    static_assert(std::is_same_v<tessera::constness_as_t<const int, char>, int>);
    static_assert(std::is_same_v<tessera::constness_as<double, const float>::type, const double>);
    SUCCEED();
}

TEST(type_traits, is_applicable) {
    const auto callable = [](int, char) {};
    static_assert(tessera::is_applicable_v<decltype(callable), std::tuple<int, char>>);
    static_assert(tessera::is_applicable_v<decltype(callable), const std::tuple<int, char>>);
    static_assert(tessera::is_applicable_v<decltype(callable), tessera::type_list<int, char>>);
    static_assert(!tessera::is_applicable_v<decltype(callable), std::tuple<int>>);
    static_assert(!tessera::is_applicable_v<decltype(callable), int>);
    static_assert(tessera::is_applicable<decltype(callable), std::pair<int, char>>::value);
    SUCCEED();
}

TEST(type_traits, is_complete) {
    static_assert(tessera::is_complete_v<int>);
    static_assert(tessera::is_complete_v<comparable>);
    static_assert(!tessera::is_complete_v<incomplete_type>);
    static_assert(!tessera::is_complete_v<void>);
    SUCCEED();
}

TEST(type_traits, is_iterator) {
    static_assert(tessera::is_iterator_v<int *>);
    static_assert(tessera::is_iterator_v<std::vector<int>::iterator>);
    static_assert(tessera::is_iterator_v<std::map<int, int>::const_iterator>);
    static_assert(!tessera::is_iterator_v<void *>);
    static_assert(!tessera::is_iterator_v<int>);
    static_assert(!tessera::is_iterator_v<std::vector<int>>);
    SUCCEED();
}

TEST(type_traits, is_equality_comparable) {
    static_assert(tessera::is_equality_comparable_v<int>);
    static_assert(tessera::is_equality_comparable_v<comparable>);
    static_assert(!tessera::is_equality_comparable_v<not_comparable>);
    static_assert(tessera::is_equality_comparable_v<std::vector<int>>);
    static_assert(!tessera::is_equality_comparable_v<std::vector<not_comparable>>);
    static_assert(!tessera::is_equality_comparable_v<std::vector<std::vector<not_comparable>>>);
    static_assert(tessera::is_equality_comparable_v<std::pair<int, comparable>>);
    static_assert(!tessera::is_equality_comparable_v<std::pair<int, not_comparable>>);
    static_assert(!tessera::is_equality_comparable_v<std::tuple<int, not_comparable>>);
    static_assert(!tessera::is_equality_comparable_v<std::map<int, not_comparable>>);
    static_assert(!tessera::is_equality_comparable_v<std::array<not_comparable, 2u>>);
    static_assert(!tessera::is_equality_comparable_v<std::optional<not_comparable>>);
    static_assert(tessera::is_equality_comparable_v<std::vector<not_comparable>::iterator>);
    static_assert(tessera::is_equality_comparable_v<std::string>);
    static_assert(!tessera::is_equality_comparable_v<int[2]>);
    static_assert(!tessera::is_equality_comparable_v<void>);
    static_assert(tessera::is_equality_comparable<int>::value);
    SUCCEED();
}

TEST(type_traits, deep_copy_constructible) {
    static_assert(tessera::internal::is_copy_constructible_v<std::vector<int>>);
    static_assert(!tessera::internal::is_copy_constructible_v<std::vector<std::unique_ptr<int>>>);
    static_assert(!tessera::internal::is_copy_constructible_v<std::unique_ptr<int>>);
    static_assert(tessera::internal::is_copy_assignable_v<std::string>);
    static_assert(!tessera::internal::is_copy_assignable_v<std::vector<std::unique_ptr<int>>>);
    SUCCEED();
}

TEST(type_traits, nth_argument) {
    static_assert(std::is_same_v<tessera::nth_argument_t<1u, decltype(&free_function)>, double>);
    static_assert(std::is_same_v<tessera::nth_argument_t<0u, decltype(free_function)>, float>);
    static_assert(std::is_same_v<tessera::nth_argument_t<1u, functor>, const char &>);
    static_assert(std::is_same_v<tessera::nth_argument_t<1u, decltype(&with_members::set)>, long>);
    static_assert(std::is_same_v<tessera::nth_argument_t<0u, decltype(&with_members::get)>, int>);
    const auto lambda = [](const int &, std::string) {};
    static_assert(std::is_same_v<tessera::nth_argument<1u, decltype(lambda)>::type, std::string>);
    // a data member has one argument: the type it holds
    static_assert(std::is_same_v<tessera::nth_argument_t<0u, decltype(&with_members::data)>, int>);
    SUCCEED();
}

TEST(type_traits, member_class) {
    static_assert(std::is_same_v<tessera::member_class_t<decltype(&with_members::data)>, with_members>);
    static_assert(std::is_same_v<tessera::member_class_t<decltype(&with_members::get)>, with_members>);
    static_assert(std::is_same_v<tessera::member_class<decltype(&with_members::set)>::type, with_members>);
    SUCCEED();
}

TEST(type_list, operator_plus) {
    using lhs = tessera::type_list<int, char>;
    using rhs = tessera::type_list<double>;
    static_assert(std::is_same_v<decltype(lhs{} + rhs{}), tessera::type_list<int, char, double>>);
    static_assert(std::is_same_v<decltype(tessera::type_list<>{} + tessera::type_list<>{}), tessera::type_list<>>);
    static_assert(std::is_same_v<decltype(lhs{} + rhs{} + lhs{}), tessera::type_list<int, char, double, int, char>>);
    SUCCEED();
}

TEST(type_list, unique) {
    using list = tessera::type_list<int, char, int, double, char, int>;
    static_assert(std::is_same_v<tessera::type_list_unique_t<list>, tessera::type_list<int, char, double>>);
    static_assert(std::is_same_v<tessera::type_list_unique_t<tessera::type_list<>>, tessera::type_list<>>);
    static_assert(
        std::is_same_v<tessera::type_list_unique<tessera::type_list<float>>::type, tessera::type_list<float>>);
    // the list kind is kept
    static_assert(std::is_same_v<tessera::type_list_unique_t<other_list<int, int>>, other_list<int>>);
    SUCCEED();
}

TEST(type_list, diff) {
    using list = tessera::type_list<int, char, double>;
    static_assert(std::is_same_v<tessera::type_list_diff_t<list, tessera::type_list<float, bool>>, list>);
    static_assert(std::is_same_v<tessera::type_list_diff_t<list, list>, tessera::type_list<>>);
    static_assert(
        std::is_same_v<tessera::type_list_diff_t<list, tessera::type_list<char>>, tessera::type_list<int, double>>);
    static_assert(
        std::is_same_v<tessera::type_list_diff<list, tessera::type_list<int, double>>::type, tessera::type_list<char>>);
    SUCCEED();
}

TEST(type_list, tuple_protocol) {
    static_assert(std::tuple_size_v<tessera::type_list<>> == 0u);
    static_assert(std::tuple_size_v<tessera::type_list<int, float>> == 2u);
    static_assert(std::is_same_v<std::tuple_element_t<1u, tessera::type_list<int, float>>, float>);
    static_assert(std::tuple_size_v<tessera::value_list<4, 'a'>> == 2u);
    static_assert(std::is_same_v<std::tuple_element_t<0u, tessera::value_list<4, 'a'>>, int>);
    static_assert(std::is_same_v<std::tuple_element_t<1u, tessera::value_list<4, 'a'>>, char>);
    SUCCEED();
}

TEST(value_list, operator_plus_contains_index) {
    using values = tessera::value_list<0, 2>;
    static_assert(std::is_same_v<decltype(values{} + tessera::value_list<1>{}), tessera::value_list<0, 2, 1>>);
    static_assert(tessera::value_list_contains_v<values, 2>);
    static_assert(!tessera::value_list_contains_v<values, 1>);
    static_assert(tessera::value_list_contains<values, 0>::value);
    static_assert(tessera::value_list_index_v<0, values> == 0u);
    static_assert(tessera::value_list_index_v<2, values> == 1u);
    static_assert(tessera::value_list_index<3, tessera::value_list<1, 3, 3>>::value == 1u);
    SUCCEED();
}

TEST(value_list, unique_and_diff) {
    static_assert(
        std::is_same_v<tessera::value_list_unique_t<tessera::value_list<0, 2, 0, 2, 1>>, tessera::value_list<0, 2, 1>>);
    static_assert(std::is_same_v<tessera::value_list_unique_t<tessera::value_list<>>, tessera::value_list<>>);
    using values = tessera::value_list<0, 1, 2>;
    static_assert(std::is_same_v<tessera::value_list_diff_t<values, tessera::value_list<3, 4>>, values>);
    static_assert(std::is_same_v<tessera::value_list_diff_t<values, values>, tessera::value_list<>>);
    static_assert(
        std::is_same_v<tessera::value_list_diff_t<values, tessera::value_list<1>>, tessera::value_list<0, 2>>);
    SUCCEED();
}

namespace {

// Ranked overloads: the highest choice the call can reach wins.
[[nodiscard]] int ranked(tessera::choice_t<0>) { return 0; }
[[nodiscard]] int ranked(tessera::choice_t<2>) { return 2; }

template<typename Type, typename... Args>
[[nodiscard]] Type sum_as(tessera::unpack_as_type<Type, Args>... value) {
    return (Type{} + ... + value);
}

template<auto Value, typename... Args>
[[nodiscard]] int repeat_value(Args &&...) {
    return (0 + ... + tessera::unpack_as_value<Value, Args>);
}

} // namespace

TEST(type_traits, choice) {
    static_assert(std::is_base_of_v<tessera::choice_t<0>, tessera::choice_t<3>>);
    static_assert(!std::is_base_of_v<tessera::choice_t<1>, tessera::choice_t<0>>);
    ASSERT_EQ(ranked(tessera::choice<3>), 2);
    ASSERT_EQ(ranked(tessera::choice<1>), 0);
}

TEST(type_traits, size_of) {
    static_assert(tessera::size_of_v<void> == 0u);
    static_assert(tessera::size_of_v<char> == 1u);
    static_assert(tessera::size_of_v<int[]> == 0u);
    static_assert(tessera::size_of_v<int[3]> == sizeof(int[3]));
    static_assert(tessera::size_of_v<void(int)> == 0u);
    static_assert(tessera::size_of_v<incomplete_type> == 0u);
    static_assert(tessera::size_of<double>::value == sizeof(double));
    SUCCEED();
}

TEST(type_traits, unpack_as_type_and_value) {
    ASSERT_EQ((sum_as<int, char, double, bool>(1, 2, 3)), 6);
    ASSERT_EQ((sum_as<float, void, int>(2.f, 2.5f)), 4.5f);
    ASSERT_EQ((repeat_value<2>('c', 1., true)), 6);
    ASSERT_EQ((repeat_value<3>()), 0);
}

TEST(type_traits, integral_constant_and_tag) {
    using namespace tessera::literals;
    static_assert(std::is_same_v<tessera::integral_constant<3>::value_type, int>);
    static_assert(tessera::integral_constant<'x'>::value == 'x');
    static_assert(std::is_same_v<tessera::integral_constant<3>, std::integral_constant<int, 3>>);
    static_assert(tessera::tag<"enemy"_hs>::value == tessera::hashed_string::value("enemy"));
    static_assert(std::is_same_v<tessera::tag<"enemy"_hs>::value_type, tessera::id_type>);
    static_assert(!std::is_same_v<tessera::tag<"enemy"_hs>, tessera::tag<"friend"_hs>>);
    SUCCEED();
}

TEST(type_traits, is_applicable_r) {
    static_assert(tessera::is_applicable_r_v<float, int(int, char), std::tuple<double, char>>);
    static_assert(!tessera::is_applicable_r_v<float, void(int, char), std::tuple<double, char>>);
    static_assert(!tessera::is_applicable_r_v<int, int(int, char), std::tuple<void>>);
    static_assert(tessera::is_applicable_r_v<long, int(int), const std::tuple<int>>);
    static_assert(!tessera::is_applicable_r_v<int, int(int), int>);
    static_assert(tessera::is_applicable_r<int, int(int), tessera::type_list<int>>::value);
    SUCCEED();
}

TEST(type_traits, trait_structs) {
    static_assert(tessera::is_complete<int>::value);
    static_assert(!tessera::is_complete<void>::value);
    static_assert(tessera::is_iterator<int *>::value);
    static_assert(!tessera::is_iterator<void>::value);
    static_assert(!tessera::is_iterator<void *>::value);
    SUCCEED();
}

namespace {

struct empty_final final {};

} // namespace

TEST(type_traits, is_ebco_eligible) {
    static_assert(tessera::is_ebco_eligible_v<not_comparable>);
    static_assert(!tessera::is_ebco_eligible_v<empty_final>);
    static_assert(!tessera::is_ebco_eligible_v<comparable_value>);
    static_assert(!tessera::is_ebco_eligible_v<double>);
    static_assert(!tessera::is_ebco_eligible_v<void>);
    static_assert(tessera::is_ebco_eligible<std::less<>>::value);
    SUCCEED();
}

TEST(type_traits, is_transparent) {
    static_assert(!tessera::is_transparent_v<std::less<int>>);
    static_assert(tessera::is_transparent_v<std::less<>>);
    static_assert(!tessera::is_transparent_v<std::logical_not<double>>);
    static_assert(tessera::is_transparent<std::logical_not<>>::value);
    static_assert(!tessera::is_transparent_v<int>);
    SUCCEED();
}

TEST(type_traits, cvref_unqualified) {
    static_assert(tessera::cvref_unqualified<int>);
    static_assert(!tessera::cvref_unqualified<const int>);
    static_assert(!tessera::cvref_unqualified<int &>);
    static_assert(!tessera::cvref_unqualified<const int &&>);
    SUCCEED();
}
