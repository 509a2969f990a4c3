// Tests of core/reflect.hpp: field counts, names and visits of aggregates (empty, one field, 32, the maximum, nested,
// arrays, const objects, members that need each probe), what is not reflectable (base classes, references, too many
// fields), types that describe their fields (in the class, in component_traits, a specialization without the member),
// enumerator names within and out of their range, and the kinds of values.
#include <array>
#include <cstdint>
#include <functional>
#include <gtest/gtest.h>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tessera/core/reflect.hpp>
#include <tessera/entity/component.hpp>
#include <type_traits>
#include <vector>

namespace {

using namespace std::string_view_literals;

struct point {
    float x{};
    float y{};
};

struct empty {};

struct single {
    int only{};
};

struct odd_names {
    int _leading{};
    int trailing_{};
    int x1y2{};
    int snake_case_9{};
    int CamelCase{};
    int a{};
};

struct thirty_two {
    int f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22, f23,
        f24, f25, f26, f27, f28, f29, f30, f31;
};

struct sixty_four {
    std::uint8_t m0_x, m1_x, m2_x, m3_x, m4_x, m5_x, m6_x, m7_x, m8_x, m9_x, m10_x, m11_x, m12_x, m13_x, m14_x, m15_x,
        m16_x, m17_x, m18_x, m19_x, m20_x, m21_x, m22_x, m23_x, m24_x, m25_x, m26_x, m27_x, m28_x, m29_x, m30_x, m31_x,
        m32_x, m33_x, m34_x, m35_x, m36_x, m37_x, m38_x, m39_x, m40_x, m41_x, m42_x, m43_x, m44_x, m45_x, m46_x, m47_x,
        m48_x, m49_x, m50_x, m51_x, m52_x, m53_x, m54_x, m55_x, m56_x, m57_x, m58_x, m59_x, m60_x, m61_x, m62_x, m63_x;
};

struct sixty_five {
    char c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18, c19, c20, c21, c22, c23,
        c24, c25, c26, c27, c28, c29, c30, c31, c32, c33, c34, c35, c36, c37, c38, c39, c40, c41, c42, c43, c44, c45,
        c46, c47, c48, c49, c50, c51, c52, c53, c54, c55, c56, c57, c58, c59, c60, c61, c62, c63, c64;
};

struct nested {
    point position{};
    single inner{};
    std::string label{};
};

struct arrays {
    int grid[2][3]{};
    std::array<point, 2> corners{};
    point pair[2]{};
    char text[4]{};
};

struct tag {};

// a constructor per scalar type: {probe} is ambiguous, the class probe is not
struct overloaded {
    overloaded(int) {}
    overloaded(float) {}
};

// members that take each kind of probe: braced (any, class) and bare (an empty class, an atomic-like pinned class)
struct every_probe {
    std::unique_ptr<int> owner{};
    std::function<int()> callback{};
    tag marker{};
    overloaded choice{1};
    int after[2]{};
    [[no_unique_address]] tag compact{};
    double last{};
};

struct base {
    int inherited{};
};

struct derived : base {
    int own{};
};

struct derived_from_empty : tag {
    int own{};
};

struct with_reference {
    int &target;
};

class not_aggregate {
public:
    explicit not_aggregate(int value) : hidden{value} {}
    [[nodiscard]] int get() const { return hidden; }

private:
    int hidden;
};

// a class that describes its fields: other names, a hidden field, private members
class described_class {
public:
    described_class() = default;
    described_class(int first, int second, float third) : a{first}, hidden{second}, b{third} {}

    [[nodiscard]] int first() const { return a; }
    [[nodiscard]] float third() const { return b; }
    [[nodiscard]] int second() const { return hidden; }

private:
    int a{};
    int hidden{};
    float b{};

public:
    static constexpr auto reflected_fields =
        std::make_tuple(tessera::field<"beta">(&described_class::b), tessera::field<"alpha">(&described_class::a));
};

// described through a base: the base's members are listed with their own class
struct described_derived : base {
    int own{};
    static constexpr auto reflected_fields =
        std::make_tuple(tessera::field<"inherited">(&base::inherited), tessera::field<"own">(&described_derived::own));
};

// described in its component traits (below)
struct traits_described {
    int value{};
    int cache{};
};

// a component_traits specialization written before reflection existed: it must still compile, and the type is
// reflected as an aggregate
struct old_traits {
    int kept{};
    float also{};
};

// the traits win over the type's own description
struct both_described {
    int value{};
    static constexpr auto reflected_fields = std::make_tuple(tessera::field<"from_type">(&both_described::value));
};

enum class color : std::uint8_t { red, green = 5, blue = 127, white = 200 };

enum class signed_values : int { low = -128, minus_one = -1, high = 127, outside = 128 };

enum unscoped_level { level_one = 1, level_two };

enum class far_away : int { first = 1000, second = 1005 };

enum class flags : std::uint32_t { none = 0u, a = 1u, b = 2u };

enum class id_like : std::uint32_t {};

struct custom_identifier {
    using entity_type = std::uint32_t;
    constexpr custom_identifier() = default;
    constexpr custom_identifier(entity_type raw) : value{raw} {}
    constexpr operator entity_type() const { return value; }
    entity_type value{};
};

enum class not_an_id : std::uint32_t {};

namespace inner_space {
namespace {
struct hidden_type {
    int in_anonymous{};
    double and_another{};
};
} // namespace
} // namespace inner_space

} // namespace

template<>
struct tessera::component_traits<traits_described> {
    using element_type = traits_described;
    using entity_type = tessera::entity;
    static constexpr bool in_place_delete = false;
    static constexpr std::size_t page_size = 1024u;
    static constexpr auto reflected_fields = std::make_tuple(tessera::field<"value">(&traits_described::value));
};

template<>
struct tessera::component_traits<old_traits> {
    static constexpr bool in_place_delete = true;
    static constexpr std::size_t page_size = 128u;
};

template<>
struct tessera::component_traits<both_described> {
    static constexpr auto reflected_fields = std::make_tuple(tessera::field<"from_traits">(&both_described::value));
};

template<>
struct tessera::enum_range<far_away> {
    static constexpr int min = 990;
    static constexpr int max = 1010;
};

template<>
struct tessera::reflect_as_identifier<not_an_id> : std::false_type {};

namespace {

template<typename Type>
std::vector<std::string> names_of() {
    const auto &names = tessera::field_names_v<Type>;
    return {names.begin(), names.end()};
}

// The sum of the fields, at compile time: visits run in constant expressions.
constexpr float sum_of(const point &value) {
    float sum{};
    tessera::for_each_field(value, [&sum](std::string_view, const float field) { sum += field; });
    return sum;
}

} // namespace

TEST(reflect, field_counts) {
    static_assert(tessera::field_count_v<point> == 2u);
    static_assert(tessera::field_count_v<const point> == 2u);
    static_assert(tessera::field_count_v<empty> == 0u);
    static_assert(tessera::field_count_v<single> == 1u);
    static_assert(tessera::field_count_v<thirty_two> == 32u);
    static_assert(tessera::field_count_v<sixty_four> == tessera::max_reflected_fields);
    static_assert(tessera::field_count_v<nested> == 3u);
    static_assert(tessera::field_count_v<arrays> == 4u);
    static_assert(tessera::field_count_v<every_probe> == 7u);
    static_assert(tessera::field_names_v<empty>.empty());
    EXPECT_EQ(tessera::field_count_v<thirty_two>, 32u);
}

TEST(reflect, names) {
    EXPECT_EQ(names_of<point>(), (std::vector<std::string>{"x", "y"}));
    EXPECT_EQ(names_of<single>(), (std::vector<std::string>{"only"}));
    EXPECT_EQ(names_of<odd_names>(),
              (std::vector<std::string>{"_leading", "trailing_", "x1y2", "snake_case_9", "CamelCase", "a"}));
    EXPECT_EQ(names_of<nested>(), (std::vector<std::string>{"position", "inner", "label"}));
    EXPECT_EQ(names_of<arrays>(), (std::vector<std::string>{"grid", "corners", "pair", "text"}));
    EXPECT_EQ(names_of<every_probe>(),
              (std::vector<std::string>{"owner", "callback", "marker", "choice", "after", "compact", "last"}));
    EXPECT_EQ(names_of<inner_space::hidden_type>(), (std::vector<std::string>{"in_anonymous", "and_another"}));
    static_assert(tessera::field_names_v<point>[1] == "y");

    const auto &big = tessera::field_names_v<thirty_two>;
    for (std::size_t pos{}; pos < big.size(); ++pos) {
        // appended rather than "f" + to_string: g++ 12 at -O3 warns about that operator+ (-Wstringop-overflow)
        std::string expected{"f"};
        expected.append(std::to_string(pos));
        EXPECT_EQ(big[pos], expected);
    }

    const auto &largest = tessera::field_names_v<sixty_four>;
    for (std::size_t pos{}; pos < largest.size(); ++pos) {
        std::string expected{"m"};
        expected.append(std::to_string(pos)).append("_x");
        EXPECT_EQ(largest[pos], expected);
    }
}

TEST(reflect, local_types) {
    struct local {
        int first_local{};
        std::string second_local{};
    };

    EXPECT_EQ(names_of<local>(), (std::vector<std::string>{"first_local", "second_local"}));
}

TEST(reflect, visits_in_order_by_reference) {
    point value{1.f, 2.f};
    std::vector<std::string> seen{};
    tessera::for_each_field(value, [&seen](std::string_view name, auto &field) {
        static_assert(std::is_same_v<decltype(field), float &>);
        seen.emplace_back(name);
        field *= 10.f;
    });

    EXPECT_EQ(seen, (std::vector<std::string>{"x", "y"}));
    EXPECT_EQ(value.x, 10.f);
    EXPECT_EQ(value.y, 20.f);

    // the references are the fields themselves
    tessera::for_each_field(value, [&value](std::string_view name, auto &field) {
        EXPECT_EQ(static_cast<const void *>(&field),
                  name == "x" ? static_cast<const void *>(&value.x) : static_cast<const void *>(&value.y));
    });
}

TEST(reflect, const_objects) {
    const point value{3.f, 4.f};
    int visited{};
    tessera::for_each_field(value, [&visited](std::string_view, auto &field) {
        static_assert(std::is_same_v<decltype(field), const float &>);
        ++visited;
    });
    EXPECT_EQ(visited, 2);

    static_assert(sum_of(point{1.f, 2.5f}) == 3.5f);
}

TEST(reflect, empty_and_large) {
    empty nothing{};
    int visited{};
    tessera::for_each_field(nothing, [&visited](std::string_view, auto &) { ++visited; });
    EXPECT_EQ(visited, 0);

    sixty_four largest{};
    std::uint8_t next{};
    tessera::for_each_field(largest, [&next](std::string_view, std::uint8_t &field) { field = next++; });
    EXPECT_EQ(largest.m0_x, 0u);
    EXPECT_EQ(largest.m31_x, 31u);
    EXPECT_EQ(largest.m63_x, 63u);
}

TEST(reflect, nested_and_arrays) {
    nested value{{1.f, 2.f}, {3}, "name"};
    int points{};
    tessera::for_each_field(value, [&points](std::string_view name, auto &field) {
        using type = std::remove_cvref_t<decltype(field)>;
        if constexpr (std::is_same_v<type, point>) {
            EXPECT_EQ(name, "position");
            tessera::for_each_field(field, [&points](std::string_view, float &inner) {
                inner += 1.f;
                ++points;
            });
        }
    });
    EXPECT_EQ(points, 2);
    EXPECT_EQ(value.position.x, 2.f);

    arrays grid{};
    tessera::for_each_field(grid, [](std::string_view name, auto &field) {
        using type = std::remove_cvref_t<decltype(field)>;
        if constexpr (std::is_same_v<type, int[2][3]>) {
            EXPECT_EQ(name, "grid");
            field[1][2] = 7;
        }
    });
    EXPECT_EQ(grid.grid[1][2], 7);
    static_assert(std::is_same_v<tessera::field_types_t<arrays>,
                                 tessera::type_list<int[2][3], std::array<point, 2>, point[2], char[4]>>);
}

TEST(reflect, every_probe) {
    every_probe value{std::make_unique<int>(4), [] { return 5; }, {}, overloaded{2}, {6, 7}, {}, 8.0};
    std::vector<std::string> seen{};
    tessera::for_each_field(value, [&seen](std::string_view name, auto &) { seen.emplace_back(name); });
    EXPECT_EQ(seen.size(), 7u);
    EXPECT_EQ(seen.back(), "last");
    static_assert(
        std::is_same_v<
            tessera::field_types_t<every_probe>,
            tessera::type_list<std::unique_ptr<int>, std::function<int()>, tag, overloaded, int[2], tag, double>>);
}

TEST(reflect, not_reflectable) {
    static_assert(tessera::reflectable<point>);
    static_assert(tessera::reflectable<const point>);
    static_assert(tessera::reflectable<empty>);
    static_assert(tessera::reflectable<sixty_four>);
    static_assert(!tessera::reflectable<sixty_five>);
    static_assert(!tessera::reflectable<derived>);
    static_assert(!tessera::reflectable<derived_from_empty>);
    static_assert(!tessera::reflectable<with_reference>);
    static_assert(!tessera::reflectable<not_aggregate>);
    static_assert(!tessera::reflectable<int>);
    static_assert(!tessera::reflectable<int[3]>);
    static_assert(!tessera::reflectable<std::string>);
    SUCCEED();
}

TEST(reflect, described_in_the_class) {
    static_assert(tessera::reflectable<described_class>);
    static_assert(tessera::field_count_v<described_class> == 2u);
    EXPECT_EQ(names_of<described_class>(), (std::vector<std::string>{"beta", "alpha"}));
    static_assert(std::is_same_v<tessera::field_types_t<described_class>, tessera::type_list<float, int>>);

    described_class value{1, 2, 3.f};
    tessera::for_each_field(value, [](std::string_view name, auto &field) {
        if (name == "alpha") {
            field = 10;
        } else {
            field = 30.f;
        }
    });
    EXPECT_EQ(value.first(), 10);
    EXPECT_EQ(value.third(), 30.f);

    // a base class's members, through a description
    static_assert(tessera::reflectable<described_derived>);
    described_derived with_base{};
    with_base.inherited = 4;
    with_base.own = 5;
    int sum{};
    tessera::for_each_field(std::as_const(with_base), [&sum](std::string_view, const int &field) { sum += field; });
    EXPECT_EQ(sum, 9);
    EXPECT_EQ(names_of<described_derived>(), (std::vector<std::string>{"inherited", "own"}));
}

TEST(reflect, described_in_component_traits) {
    EXPECT_EQ(names_of<traits_described>(), (std::vector<std::string>{"value"}));
    EXPECT_EQ(names_of<both_described>(), (std::vector<std::string>{"from_traits"}));
    EXPECT_EQ(std::get<0>(both_described::reflected_fields).name, "from_type");
    EXPECT_FALSE(tessera::component_traits<traits_described>::in_place_delete);
    EXPECT_EQ(tessera::component_traits<traits_described>::page_size, 1024u);

    // a specialization without the member still compiles and keeps its members; the type is an aggregate
    static_assert(tessera::component_traits<old_traits>::in_place_delete);
    static_assert(tessera::component_traits<old_traits>::page_size == 128u);
    EXPECT_EQ(names_of<old_traits>(), (std::vector<std::string>{"kept", "also"}));

    // the detection helper: the traits first, then the type
    static_assert(
        std::tuple_size_v<std::remove_const_t<decltype(tessera::internal::reflected_fields_of<traits_described>)>> ==
        1u);
}

TEST(reflect, enum_names) {
    static_assert(tessera::enum_name(color::red) == "red");
    static_assert(tessera::enum_name(color::green) == "green");
    static_assert(tessera::enum_name(color::blue) == "blue");
    // out of the default range: [-128, 128), cut to [0, 128) by the unsigned underlying type
    static_assert(tessera::enum_name(color::white).empty());
    static_assert(tessera::enum_name(static_cast<color>(3)).empty());
    EXPECT_EQ(tessera::enum_name(color::green), "green");
    EXPECT_EQ(tessera::enum_name(static_cast<color>(255)), "");

    static_assert(tessera::enum_name(signed_values::low) == "low");
    static_assert(tessera::enum_name(signed_values::minus_one) == "minus_one");
    static_assert(tessera::enum_name(signed_values::high) == "high");
    static_assert(tessera::enum_name(signed_values::outside).empty());
    static_assert(tessera::enum_name(level_two) == "level_two");

    // a range of its own
    static_assert(tessera::enum_name(far_away::second) == "second");
    EXPECT_EQ(tessera::enum_name(far_away::first), "first");
    EXPECT_EQ(tessera::enum_name(static_cast<far_away>(1010)), "");

    // combinations of flags have no name
    static_assert(tessera::enum_name(static_cast<flags>(3u)).empty());
    EXPECT_EQ(tessera::enum_name(flags::b), "b");
}

TEST(reflect, enum_from_name) {
    static_assert(tessera::enum_from_name<color>("blue") == color::blue);
    EXPECT_EQ(tessera::enum_from_name<color>("green"), color::green);
    EXPECT_EQ(tessera::enum_from_name<color>("white"), std::nullopt);
    EXPECT_EQ(tessera::enum_from_name<color>(""), std::nullopt);
    EXPECT_EQ(tessera::enum_from_name<color>("Green"), std::nullopt);
    EXPECT_EQ(tessera::enum_from_name<signed_values>("low"), signed_values::low);
    EXPECT_EQ(tessera::enum_from_name<far_away>("first"), far_away::first);
    EXPECT_EQ(tessera::enum_from_name<unscoped_level>("level_one"), level_one);

    constexpr auto &entries = tessera::enum_entries_v<color>;
    static_assert(entries.size() == 3u);
    EXPECT_EQ(entries[0].first, color::red);
    EXPECT_EQ(entries[2].second, "blue");
}

TEST(reflect, value_kinds) {
    using kind = tessera::value_kind;
    static_assert(tessera::value_kind_v<bool> == kind::boolean);
    static_assert(tessera::value_kind_v<const int> == kind::integer);
    static_assert(tessera::value_kind_v<char> == kind::integer);
    static_assert(tessera::value_kind_v<std::uint64_t> == kind::integer);
    static_assert(tessera::value_kind_v<double> == kind::floating);
    static_assert(tessera::value_kind_v<color> == kind::enumeration);
    static_assert(tessera::value_kind_v<flags> == kind::enumeration);
    static_assert(tessera::value_kind_v<std::string> == kind::string);
    static_assert(tessera::value_kind_v<int[3]> == kind::array);
    static_assert(tessera::value_kind_v<std::array<point, 2>> == kind::array);
    static_assert(tessera::value_kind_v<std::vector<int>> == kind::vector);
    static_assert(tessera::value_kind_v<std::optional<point>> == kind::optional);
    static_assert(tessera::value_kind_v<point> == kind::object);
    static_assert(tessera::value_kind_v<described_class> == kind::object);
    static_assert(tessera::value_kind_v<tessera::entity> == kind::identifier);
    static_assert(tessera::value_kind_v<id_like> == kind::identifier);
    static_assert(tessera::value_kind_v<custom_identifier> == kind::identifier);
    static_assert(tessera::value_kind_v<not_an_id> == kind::enumeration);
    static_assert(tessera::value_kind_v<derived> == kind::opaque);
    static_assert(tessera::value_kind_v<std::unique_ptr<int>> == kind::opaque);
    static_assert(tessera::value_kind_v<std::string_view> == kind::opaque);
    static_assert(tessera::value_kind_v<int *> == kind::opaque);
    EXPECT_EQ(tessera::value_kind_v<std::vector<point>>, kind::vector);
}
