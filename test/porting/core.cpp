// Porting tests of the core module: any, hashed strings, iterators, memory, monostate, type support, type traits,
// identifiers and the small utilities, used as EnTT's core documentation uses them.
#include "porting.hpp"

#include <array>
#include <concepts>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace {

using namespace entt::literals;

struct big_value {
    std::array<double, 8u> data{};
};

enum class my_flag { unknown = 0x01, enabled = 0x02, disabled = 0x04 };

enum class self_marked { unknown = 0x01, enabled = 0x02, disabled = 0x04, _entt_enum_as_bitmask };

struct with_index {
    static entt::id_type index() { return 4242u; }
};

struct clazz {
    void bar(int value) { last = value; }
    void bar() { last = -1; }
    [[nodiscard]] char member(int, double) const { return 'm'; }
    int last{};
    float field{};
};

struct a_tag;
struct another_tag;

} // namespace

template<>
struct entt::enum_as_bitmask<my_flag> : std::true_type {};

template<typename Type>
requires requires {
    { Type::index() } -> std::same_as<entt::id_type>;
}
struct entt::type_index<Type> {
    static entt::id_type value() noexcept { return Type::index(); }
};

TEST(porting_core, any_construction_forms) {
    entt::any empty{};
    entt::any value{0};
    entt::any in_place_type{std::in_place_type<int>, 42};
    entt::any in_place{std::in_place, std::make_unique<int>(42).release()};
    entt::any made = entt::make_any<int>(42);

    ASSERT_FALSE(empty);
    ASSERT_EQ(entt::any_cast<int>(value), 0);
    ASSERT_EQ(entt::any_cast<int>(in_place_type), 42);
    ASSERT_EQ(entt::any_cast<int>(in_place), 42);
    ASSERT_TRUE(in_place.owner());
    ASSERT_EQ(made, in_place_type);
    ASSERT_FALSE(made == empty);
    ASSERT_EQ(empty.info(), entt::type_id<void>());
    ASSERT_EQ(value.info(), entt::type_id<int>());
    ASSERT_TRUE(value.has_value(entt::type_id<int>()));
    ASSERT_NE(value.data(entt::type_id<int>()), nullptr);

    value = std::string{"reconfigured"};
    ASSERT_EQ(value.info(), entt::type_id<std::string>());
}

TEST(porting_core, any_assign_and_aliases) {
    entt::any any{42};
    entt::any other{3};
    ASSERT_TRUE(any.assign(other));
    ASSERT_EQ(entt::any_cast<int>(any), 3);
    ASSERT_TRUE(any.assign(entt::any{7}));
    ASSERT_EQ(entt::any_cast<int>(any), 7);
    ASSERT_FALSE(any.assign(entt::any{'c'}));

    int value = 42;
    entt::any ref{std::in_place_type<int &>, value};
    entt::any cref = entt::make_any<const int &>(value);
    entt::any fwd = entt::forward_as_any(value);
    ref.emplace<const int &>(value);

    ASSERT_EQ(ref.policy(), entt::any_policy::cref);
    ASSERT_EQ(cref.policy(), entt::any_policy::cref);
    ASSERT_EQ(fwd.policy(), entt::any_policy::ref);
    // a const alias gives no writable address
    ASSERT_EQ(cref.data(), nullptr);
    ASSERT_EQ(std::as_const(cref).data(), &value);

    entt::any owner{5};
    entt::any alias = owner.as_ref();
    entt::any_cast<int &>(alias) = 6;
    ASSERT_EQ(entt::any_cast<int>(owner), 6);
}

TEST(porting_core, any_buffer_size_and_alignment) {
    using my_any = entt::basic_any<sizeof(double[4]), alignof(double[4])>;
    my_any small{std::array<double, 4u>{}};
    my_any large{big_value{}};
    ASSERT_EQ(small.policy(), entt::any_policy::embedded);
    ASSERT_EQ(large.policy(), entt::any_policy::dynamic);

    using no_buffer = entt::basic_any<0u>;
    no_buffer always_dynamic{1};
    ASSERT_EQ(always_dynamic.policy(), entt::any_policy::dynamic);
}

TEST(porting_core, bit_and_compressed_pair_and_enum) {
    const std::size_t result = entt::fast_mod(std::size_t{13u}, 8u);
    ASSERT_EQ(result, 5u);

    entt::compressed_pair pair{0, 3.};
    pair.first() = 42;
    ASSERT_EQ(pair.first(), 42);
    ASSERT_EQ(pair.second(), 3.);

    const my_flag flags = my_flag::enabled;
    ASSERT_TRUE(!!(flags & my_flag::enabled));
    ASSERT_FALSE(!!(flags & my_flag::disabled));
    auto both = self_marked::enabled | self_marked::disabled;
    both &= self_marked::disabled;
    ASSERT_EQ(both, self_marked::disabled);
}

TEST(porting_core, hashed_strings) {
    const auto load = [](entt::hashed_string::hash_type resource) { return resource; };
    ASSERT_EQ(load(entt::hashed_string{"gui/background"}), entt::hashed_string::value("gui/background"));

    constexpr auto str = "text"_hs;
    const std::string orig{"text"};
    const entt::hashed_string runtime{orig.c_str()};
    ASSERT_EQ(runtime, str);
    ASSERT_EQ(entt::hashed_string::value(orig.c_str()), str.value());
    ASSERT_STREQ(runtime.data(), "text");

    constexpr auto wide = L"text"_hws;
    static_assert(std::is_same_v<decltype(wide.value()), entt::hashed_string::hash_type>);
    ASSERT_EQ(wide.value(), str.value());
}

TEST(porting_core, iterators) {
    entt::iota_iterator first{0};
    const entt::iota_iterator last{5};
    int sum = 0;
    for (; first != last; ++first) {
        sum += *first;
    }
    ASSERT_EQ(sum, 10);

    std::vector<int> values{1, 2, 3};
    const entt::iterable_adaptor range{values.begin(), values.end()};
    int total = 0;
    for (const int value : range) {
        total += value;
    }
    ASSERT_EQ(total, 6);

    entt::input_iterator_pointer<std::pair<int, char>> proxy{std::make_pair(1, 'a')};
    ASSERT_EQ(proxy->second, 'a');
}

TEST(porting_core, allocate_unique) {
    std::allocator<std::string> allocator{};
    std::unique_ptr<std::string, entt::allocation_deleter<std::allocator<std::string>>> ptr =
        entt::allocate_unique<std::string>(allocator, 3u, 'z');
    ASSERT_EQ(*ptr, "zzz");
}

TEST(porting_core, monostate) {
    entt::monostate<entt::hashed_string{"port.mykey"}>{} = true;
    entt::monostate<"port.mykey"_hs>{} = 42;

    const bool flag = entt::monostate<"port.mykey"_hs>{};
    const int number = entt::monostate<entt::hashed_string{"port.mykey"}>{};
    ASSERT_TRUE(flag);
    ASSERT_EQ(number, 42);
}

TEST(porting_core, type_support) {
    const auto index = entt::type_index<int>::value();
    const auto hash = entt::type_hash<int>::value();
    const auto name = entt::type_name<int>::value();
    ASSERT_EQ(name, "int");

    auto info = entt::type_id<int>();
    auto other = entt::type_id(42);
    ASSERT_EQ(info, other);
    ASSERT_EQ(info.index(), index);
    ASSERT_EQ(info.hash(), hash);
    ASSERT_EQ(info.name(), name);

    const entt::type_info built{std::in_place_type<int>};
    ASSERT_EQ(built, info);
    ASSERT_EQ(entt::type_id<const int &>(), info);

    // an index generator of the user's, chosen through a constrained specialization
    ASSERT_EQ(entt::type_index<with_index>::value(), 4242u);
    ASSERT_EQ(entt::type_id<with_index>().index(), 4242u);
}

TEST(porting_core, type_traits) {
    static_assert(entt::size_of_v<void> == 0u);
    static_assert(entt::size_of_v<int> == sizeof(int));

    using func = int (*)(int, char);
    static_assert(entt::is_applicable_v<func, std::tuple<int, char>>);
    static_assert(entt::is_applicable_r_v<long, func, std::tuple<int, char>>);

    static_assert(std::is_same_v<entt::constness_as_t<double, const int>, const double>);
    static_assert(std::is_same_v<entt::constness_as_t<const double, int>, double>);

    static_assert(std::is_same_v<entt::member_class_t<decltype(&clazz::member)>, clazz>);
    static_assert(std::is_same_v<entt::nth_argument_t<1u, decltype(&clazz::member)>, double>);
    static_assert(std::is_same_v<entt::nth_argument_t<0u, decltype(&clazz::field)>, float>);

    // the guide writes `entt::integral_constant<42>` as a value; it is a type, in EnTT as here
    constexpr auto constant = entt::integral_constant<42>{};
    static_assert(constant.value == 42);

    using list = entt::type_list<int, char>;
    using other = entt::type_list<double, int>;
    static_assert(std::is_same_v<decltype(list{} + other{}), entt::type_list<int, char, double, int>>);
    static_assert(std::is_same_v<entt::type_list_cat_t<list, other>, entt::type_list<int, char, double, int>>);
    static_assert(std::is_same_v<entt::type_list_unique_t<entt::type_list_cat_t<list, other>>,
                                 entt::type_list<int, char, double>>);
    static_assert(entt::type_list_contains_v<list, char>);
    static_assert(std::is_same_v<entt::type_list_element_t<1u, list>, char>);
    static_assert(entt::type_list_index_v<char, list> == 1u);
    static_assert(std::is_same_v<entt::type_list_diff_t<list, other>, entt::type_list<char>>);
    static_assert(
        std::is_same_v<entt::type_list_transform_t<list, std::add_const>, entt::type_list<const int, const char>>);

    using values = entt::value_list<0, 2>;
    static_assert(entt::value_list_element_v<1u, values> == 2);
    static_assert(entt::value_list_index_v<2, values> == 1u);
    static_assert(std::is_same_v<entt::value_list_cat_t<values, entt::value_list<3>>, entt::value_list<0, 2, 3>>);
    static_assert(entt::value_list_contains_v<values, 0>);
    SUCCEED();
}

TEST(porting_core, tag_as_a_component) {
    entt::registry registry{};
    // the guide also writes entt::integral_constant<"enemy"_hs>: a hashed string is not a structural type, in EnTT
    // as here, so only tag<> (which converts the hashed string to id_type) names a type
    const auto entity = registry.create();
    registry.emplace<entt::tag<"enemy"_hs>>(entity);
    ASSERT_TRUE(registry.all_of<entt::tag<"enemy"_hs>>(entity));
    ASSERT_FALSE(registry.all_of<entt::tag<"friend"_hs>>(entity));
}

TEST(porting_core, identifiers) {
    using id = entt::ident<a_tag, another_tag>;
    const auto describe = [](const entt::id_type value) {
        switch (value) {
        case id::value<a_tag>:
            return 'a';
        case id::value<another_tag>:
            return 'b';
        default:
            return '?';
        }
    };
    ASSERT_EQ(describe(id::value<another_tag>), 'b');

    using family = entt::family<struct my_tag>;
    const auto a_type_id = family::value<a_tag>;
    const auto another_type_id = family::value<another_tag>;
    ASSERT_NE(a_type_id, another_type_id);
    ASSERT_EQ(a_type_id, family::value<a_tag>);
}

TEST(porting_core, utilities) {
    clazz instance{};
    // the guide writes `auto *member`: a pointer to member is not a pointer, in EnTT as here
    auto member = entt::overload<void(int)>(&clazz::bar);
    (instance.*member)(3);
    ASSERT_EQ(instance.last, 3);

    entt::overloaded func{[](int) { return 'i'; }, [](char) { return 'c'; }};
    ASSERT_EQ(func(42), 'i');
    ASSERT_EQ(func('c'), 'c');

    entt::y_combinator gauss(
        [](const auto &self, auto value) -> unsigned int { return value ? (value + self(value - 1u)) : 0; });
    ASSERT_EQ(gauss(3u), 6u);
}

TEST(porting_core, sort_algorithms) {
    std::vector<unsigned> values{4u, 1u, 3u, 2u, 0u};
    entt::radix_sort<8, 32>{}(values.begin(), values.end());
    ASSERT_EQ(values, (std::vector<unsigned>{0u, 1u, 2u, 3u, 4u}));

    std::vector<int> other{3, 1, 2};
    entt::insertion_sort{}(other.begin(), other.end());
    ASSERT_EQ(other, (std::vector<int>{1, 2, 3}));
    entt::std_sort{}(other.begin(), other.end(), std::greater<>{});
    ASSERT_EQ(other, (std::vector<int>{3, 2, 1}));
}
