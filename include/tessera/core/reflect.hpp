// Compile-time reflection with the standard library only: the number, names and values of the fields of aggregates
// (no registration), types that describe their fields themselves (reflected_fields), the names of enumerators, and
// the kinds of values that the JSON archive and tools built on it (an inspector) tell apart. docs/reflection.md is the
// guide: what is reflected, the limits, the enum range, the cost. tessera/tessera.hpp does not include this header.
#ifndef TESSERA_CORE_REFLECT_HPP
#define TESSERA_CORE_REFLECT_HPP

#include "../config/config.hpp"
#include "../entity/component.hpp"
#include "../entity/entity.hpp"
#include "fwd.hpp"
#include "type_info.hpp"
#include "type_traits.hpp"
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tessera {

/// The most fields an aggregate may have to be reflected without a description (reflected_fields has no limit).
inline constexpr std::size_t max_reflected_fields = 64u;

/// The values enum_name and enum_from_name search for enumerators of Enum: [min, max), max excluded. Specialize it
/// for an enum whose enumerators lie elsewhere; the range is cut to what the underlying type can hold, and may hold
/// at most 65536 values (each costs the compiler a little, once per enum).
template<typename Enum>
struct enum_range {
    /// The first value searched.
    static constexpr int min = -128;
    /// One past the last value searched.
    static constexpr int max = 128;
};

/// One field of a type that describes its fields: the name it is reflected under and the data member it reads.
template<typename Class, typename Member>
struct reflected_field {
    static_assert(!std::is_function_v<Member>, "tessera::field: name a data member, not a member function");

    /// The class the member belongs to (a base of the described type, possibly).
    using class_type = Class;
    /// The member's type.
    using member_type = Member;

    /// The name of the field.
    std::string_view name;
    /// The member.
    Member Class::*pointer;
};

namespace internal {

/// A string literal as a template argument: the name given to tessera::field<"name">.
template<std::size_t Size>
struct field_label {
    // implicit, so that a string literal is a template argument
    consteval field_label(const char (&text)[Size]) noexcept {
        for (std::size_t pos{}; pos < Size; ++pos) {
            chars[pos] = text[pos];
        }
    }

    [[nodiscard]] constexpr std::string_view view() const noexcept { return {chars, Size - 1u}; }

    char chars[Size]{};
};

} // namespace internal

/// Describes one field for reflected_fields: tessera::field<"name">(&Type::member). The name lives in the template
/// argument, so it is a constant like the names read from aggregates.
template<internal::field_label Name, typename Member, typename Class>
[[nodiscard]] constexpr reflected_field<Class, Member> field(Member Class::*pointer) noexcept {
    static_assert(Name.view().size() != 0u, "tessera::field: a field needs a name");
    return reflected_field<Class, Member>{Name.view(), pointer};
}

namespace internal {

template<typename>
inline constexpr bool reflect_false = false;

template<typename Type>
struct is_reflected_field : std::false_type {};

template<typename Class, typename Member>
struct is_reflected_field<reflected_field<Class, Member>> : std::true_type {};

template<typename Tuple>
inline constexpr bool is_field_tuple = false;

template<typename... Field>
inline constexpr bool is_field_tuple<std::tuple<Field...>> = (is_reflected_field<Field>::value && ...);

/// True if component_traits<Type> (for tessera::entity) lists reflected_fields. A specialization written without
/// the member is fine: the type's own member, or the aggregate's fields, are used instead.
template<typename Type>
concept traits_reflected_fields = std::is_class_v<Type> && requires {
    component_traits<Type>::reflected_fields;
};

/// True if Type has a static member reflected_fields.
template<typename Type>
concept member_reflected_fields = std::is_class_v<Type> && requires {
    Type::reflected_fields;
};

/// True if Type describes its fields (its component_traits or itself).
template<typename Type>
concept described = traits_reflected_fields<Type> || member_reflected_fields<Type>;

/// The description of a type: component_traits<Type>::reflected_fields first, then Type::reflected_fields. The
/// detection helper the component traits need for reflection, in the style of entity_members_of.
template<typename Type>
inline constexpr auto reflected_fields_of = [] {
    if constexpr (traits_reflected_fields<Type>) {
        return component_traits<Type>::reflected_fields;
    } else {
        return Type::reflected_fields;
    }
}();

template<typename Type>
[[nodiscard]] consteval bool check_description() noexcept {
    using fields = std::remove_cvref_t<decltype(reflected_fields_of<Type>)>;
    static_assert(is_field_tuple<fields>,
                  "reflected_fields: write a std::tuple of tessera::field<\"name\">(&Type::member), e.g. with "
                  "std::make_tuple");

    if constexpr (is_field_tuple<fields>) {
        constexpr auto unique = []<std::size_t... Index>(std::index_sequence<Index...>) {
            const std::string_view names[]{std::string_view{}, std::get<Index>(reflected_fields_of<Type>).name...};
            for (std::size_t lhs = 1u; lhs < sizeof...(Index) + 1u; ++lhs) {
                for (std::size_t rhs = lhs + 1u; rhs < sizeof...(Index) + 1u; ++rhs) {
                    if (names[lhs] == names[rhs]) {
                        return false;
                    }
                }
            }
            return true;
        }
        (std::make_index_sequence<std::tuple_size_v<fields>>{});
        static_assert(unique, "reflected_fields: two fields have the same name");
        return unique;
    } else {
        return false;
    }
}

// Probes for counting fields: Type{{probe}...} compiles while there are fields left. A braced probe initializes one
// field whatever it is (an array takes it as its first element; with a bare probe, brace elision would spread the
// next probes over the array's elements). A field that no braced probe initializes (an empty class, a class whose
// constructors compete for the probe) takes a bare one, between braced segments.

/// Converts to any type: the usual probe. Declared only: it is used in unevaluated operands.
struct any_probe {
    template<typename Type>
    operator Type() const noexcept;
};

/// Converts to class types only: a class whose constructors take scalars (unique_ptr, function) then has only its
/// move constructor left.
struct class_probe {
    template<typename Type>
    requires std::is_class_v<Type>
    operator Type() const noexcept;
};

/// Binds to a reference member, which nothing else initializes: found only to say that it is not supported.
struct reference_probe {
    template<typename Type>
    operator Type &() const noexcept;
};

/// Converts only to a base class of Derived: Derived{probe} compiles when Derived has a base, which aggregate
/// initialization takes first.
template<typename Derived>
struct base_probe {
    base_probe() = default;
    // not copyable, so that a member constructible from anything copyable (std::any) does not take it
    base_probe(const base_probe &) = delete;
    base_probe &operator=(const base_probe &) = delete;

    template<typename Base>
    requires std::is_class_v<Base> && std::is_base_of_v<Base, Derived> &&(!std::is_same_v<Base, Derived>)
    operator Base() const noexcept;
};

/// True if the aggregate Type has a base class (see base_probe; docs/reflection.md lists the limits).
template<typename Type>
inline constexpr bool aggregate_has_base = requires {
    Type{base_probe<Type>{}};
};

/// The most segments of braced probes, so the most fields that take a bare probe, plus one.
inline constexpr std::size_t max_probe_segments = 5u;

// Whether Type{ {A}..., bare, {B}..., bare, {C}..., Tail... } compiles: segments of braced probes separated by bare
// any_probe, and a trailing bare probe when Tail is not empty.
template<typename Type, typename Tail, typename... Segment>
inline constexpr bool initializes = false;

template<typename Type, typename... Tail, typename... A>
inline constexpr bool initializes<Type, type_list<Tail...>, type_list<A...>> = requires {
    Type{{A{}}..., Tail{}...};
};

template<typename Type, typename... Tail, typename... A, typename... B>
inline constexpr bool initializes<Type, type_list<Tail...>, type_list<A...>, type_list<B...>> = requires {
    Type{{A{}}..., any_probe{}, {B{}}..., Tail{}...};
};

template<typename Type, typename... Tail, typename... A, typename... B, typename... C>
inline constexpr bool initializes<Type, type_list<Tail...>, type_list<A...>, type_list<B...>, type_list<C...>> =
    requires {
    Type{{A{}}..., any_probe{}, {B{}}..., any_probe{}, {C{}}..., Tail{}...};
};

template<typename Type, typename... Tail, typename... A, typename... B, typename... C, typename... D>
inline constexpr bool
    initializes<Type, type_list<Tail...>, type_list<A...>, type_list<B...>, type_list<C...>, type_list<D...>> =
        requires {
    Type{{A{}}..., any_probe{}, {B{}}..., any_probe{}, {C{}}..., any_probe{}, {D{}}..., Tail{}...};
};

template<typename Type, typename... Tail, typename... A, typename... B, typename... C, typename... D, typename... E>
inline constexpr bool initializes<Type, type_list<Tail...>, type_list<A...>, type_list<B...>, type_list<C...>,
                                  type_list<D...>, type_list<E...>> = requires {
    Type{{A{}}...,    any_probe{}, {B{}}...,    any_probe{}, {C{}}...,
         any_probe{}, {D{}}...,    any_probe{}, {E{}}...,    Tail{}...};
};

template<typename Type, typename Tail, typename Done, typename Current>
inline constexpr bool initializes_after = false;

template<typename Type, typename Tail, typename... Done, typename Current>
inline constexpr bool initializes_after<Type, Tail, type_list<Done...>, Current> =
    initializes<Type, Tail, Done..., Current>;

/// What counting the fields of an aggregate found.
enum class census_status : std::uint8_t { counted, too_many, too_many_bare, reference, stuck };

struct field_census {
    std::size_t count;
    census_status status;
};

/// Type, whatever Index: a pack of Count copies of a type from an index sequence.
template<typename Type, std::size_t Index>
using repeat_type = Type;

template<typename Type, std::size_t Count>
[[nodiscard]] consteval field_census count_from_top() noexcept;

// Done: the finished segments (a type_list of type_lists); Current: the probes of the segment being filled. Each
// step asks whether one more braced (or bare) probe compiles, the fields after it initialized from {}.
template<typename Type, typename Done, typename... Current>
[[nodiscard]] consteval field_census count_fields() noexcept {
    constexpr std::size_t segments = Done::size + 1u;
    constexpr std::size_t positions = []<typename... Segment>(type_list<Segment...>) {
        return (std::size_t{} + ... + Segment::size);
    }(Done{}) + sizeof...(Current) + (segments - 1u);

    if constexpr (positions > max_reflected_fields) {
        return {positions, census_status::too_many};
    } else if constexpr (initializes_after<Type, type_list<>, Done, type_list<Current..., any_probe>>) {
        return count_fields<Type, Done, Current..., any_probe>();
    } else if constexpr (initializes_after<Type, type_list<>, Done, type_list<Current..., class_probe>>) {
        return count_fields<Type, Done, Current..., class_probe>();
    } else if constexpr (initializes_after<Type, type_list<any_probe>, Done, type_list<Current...>>) {
        // one more field, which takes a bare probe: a new segment starts after it
        if constexpr (segments < max_probe_segments) {
            return count_fields<Type, type_list_cat_t<Done, type_list<type_list<Current...>>>>();
        } else {
            return {positions, census_status::too_many_bare};
        }
    } else if constexpr (initializes_after<Type, type_list<reference_probe>, Done, type_list<Current...>>) {
        return {positions, census_status::reference};
    } else if constexpr (positions == 0u && !requires { Type{}; }) {
        // A field that {} does not initialize (no default constructor) makes every shorter list fail: start from the
        // longest list of braced probes that compiles.
        return count_from_top<Type, max_reflected_fields>();
    } else {
        return {positions, census_status::counted};
    }
}

template<typename Type, std::size_t Count>
[[nodiscard]] consteval field_census count_from_top() noexcept {
    if constexpr (Count == 0u) {
        return {0u, census_status::stuck};
    } else {
        return []<std::size_t... Index>(std::index_sequence<Index...>) {
            if constexpr (initializes<Type, type_list<>, type_list<repeat_type<any_probe, Index>...>>) {
                return count_fields<Type, type_list<>, repeat_type<any_probe, Index>...>();
            } else if constexpr (initializes<Type, type_list<>, type_list<repeat_type<class_probe, Index>...>>) {
                return count_fields<Type, type_list<>, repeat_type<class_probe, Index>...>();
            } else {
                return count_from_top<Type, Count - 1u>();
            }
        }
        (std::make_index_sequence<Count>{});
    }
}

/// The fields of a class that are reflected from its aggregate initialization, or why not.
template<typename Type>
inline constexpr field_census aggregate_census = count_fields<Type, type_list<>>();

/// True for the class types whose fields come from aggregate initialization and structured bindings.
template<typename Type>
concept reflectable_aggregate = std::is_class_v<Type> && std::is_aggregate_v<Type> && !std::is_union_v<Type> &&
                                !aggregate_has_base<Type> && aggregate_census<Type>.status == census_status::counted;

} // namespace internal

/// A type whose fields tessera can list: an aggregate class without base classes, of at most max_reflected_fields
/// fields, none of them a reference, or a class that describes its fields (reflected_fields in the class or in its
/// component_traits). cv-qualifiers are ignored.
template<typename Type>
concept reflectable =
    internal::described<std::remove_cv_t<Type>> || internal::reflectable_aggregate<std::remove_cv_t<Type>>;

namespace internal {

// Every field count gets its structured binding: the fields of `value` as references, handed to func at once.
template<std::size_t Count, typename Type, typename Func>
constexpr decltype(auto) bind_fields(Type &value, Func &&func) {
    if constexpr (Count == 0u) {
        return func();
    } else if constexpr (Count == 1u) {
        auto &[f0] = value;
        return func(f0);
    } else if constexpr (Count == 2u) {
        auto &[f0, f1] = value;
        return func(f0, f1);
    } else if constexpr (Count == 3u) {
        auto &[f0, f1, f2] = value;
        return func(f0, f1, f2);
    } else if constexpr (Count == 4u) {
        auto &[f0, f1, f2, f3] = value;
        return func(f0, f1, f2, f3);
    } else if constexpr (Count == 5u) {
        auto &[f0, f1, f2, f3, f4] = value;
        return func(f0, f1, f2, f3, f4);
    } else if constexpr (Count == 6u) {
        auto &[f0, f1, f2, f3, f4, f5] = value;
        return func(f0, f1, f2, f3, f4, f5);
    } else if constexpr (Count == 7u) {
        auto &[f0, f1, f2, f3, f4, f5, f6] = value;
        return func(f0, f1, f2, f3, f4, f5, f6);
    } else if constexpr (Count == 8u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7);
    } else if constexpr (Count == 9u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8);
    } else if constexpr (Count == 10u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9);
    } else if constexpr (Count == 11u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10);
    } else if constexpr (Count == 12u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11);
    } else if constexpr (Count == 13u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12);
    } else if constexpr (Count == 14u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13);
    } else if constexpr (Count == 15u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14);
    } else if constexpr (Count == 16u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15);
    } else if constexpr (Count == 17u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16);
    } else if constexpr (Count == 18u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17);
    } else if constexpr (Count == 19u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18);
    } else if constexpr (Count == 20u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19);
    } else if constexpr (Count == 21u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20);
    } else if constexpr (Count == 22u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21] =
            value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21);
    } else if constexpr (Count == 23u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
               f22] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22);
    } else if constexpr (Count == 24u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23);
    } else if constexpr (Count == 25u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24);
    } else if constexpr (Count == 26u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25);
    } else if constexpr (Count == 27u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26);
    } else if constexpr (Count == 28u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27);
    } else if constexpr (Count == 29u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28);
    } else if constexpr (Count == 30u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29);
    } else if constexpr (Count == 31u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30);
    } else if constexpr (Count == 32u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31);
    } else if constexpr (Count == 33u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32);
    } else if constexpr (Count == 34u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33);
    } else if constexpr (Count == 35u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34);
    } else if constexpr (Count == 36u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35);
    } else if constexpr (Count == 37u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36);
    } else if constexpr (Count == 38u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37);
    } else if constexpr (Count == 39u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38);
    } else if constexpr (Count == 40u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39);
    } else if constexpr (Count == 41u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40);
    } else if constexpr (Count == 42u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41);
    } else if constexpr (Count == 43u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42] =
            value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41,
                    f42);
    } else if constexpr (Count == 44u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42,
               f43] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41,
                    f42, f43);
    } else if constexpr (Count == 45u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43,
               f44] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41,
                    f42, f43, f44);
    } else if constexpr (Count == 46u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43,
               f44, f45] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41,
                    f42, f43, f44, f45);
    } else if constexpr (Count == 47u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43,
               f44, f45, f46] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41,
                    f42, f43, f44, f45, f46);
    } else if constexpr (Count == 48u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43,
               f44, f45, f46, f47] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41,
                    f42, f43, f44, f45, f46, f47);
    } else if constexpr (Count == 49u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43,
               f44, f45, f46, f47, f48] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41,
                    f42, f43, f44, f45, f46, f47, f48);
    } else if constexpr (Count == 50u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43,
               f44, f45, f46, f47, f48, f49] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41,
                    f42, f43, f44, f45, f46, f47, f48, f49);
    } else if constexpr (Count == 51u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43,
               f44, f45, f46, f47, f48, f49, f50] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41,
                    f42, f43, f44, f45, f46, f47, f48, f49, f50);
    } else if constexpr (Count == 52u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43,
               f44, f45, f46, f47, f48, f49, f50, f51] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41,
                    f42, f43, f44, f45, f46, f47, f48, f49, f50, f51);
    } else if constexpr (Count == 53u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43,
               f44, f45, f46, f47, f48, f49, f50, f51, f52] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41,
                    f42, f43, f44, f45, f46, f47, f48, f49, f50, f51, f52);
    } else if constexpr (Count == 54u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43,
               f44, f45, f46, f47, f48, f49, f50, f51, f52, f53] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41,
                    f42, f43, f44, f45, f46, f47, f48, f49, f50, f51, f52, f53);
    } else if constexpr (Count == 55u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43,
               f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41,
                    f42, f43, f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54);
    } else if constexpr (Count == 56u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43,
               f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41,
                    f42, f43, f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55);
    } else if constexpr (Count == 57u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43,
               f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41,
                    f42, f43, f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56);
    } else if constexpr (Count == 58u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43,
               f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56, f57] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41,
                    f42, f43, f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56, f57);
    } else if constexpr (Count == 59u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43,
               f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56, f57, f58] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41,
                    f42, f43, f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56, f57, f58);
    } else if constexpr (Count == 60u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43,
               f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56, f57, f58, f59] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41,
                    f42, f43, f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56, f57, f58, f59);
    } else if constexpr (Count == 61u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43,
               f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56, f57, f58, f59, f60] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41,
                    f42, f43, f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56, f57, f58, f59, f60);
    } else if constexpr (Count == 62u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43,
               f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56, f57, f58, f59, f60, f61] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41,
                    f42, f43, f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56, f57, f58, f59, f60, f61);
    } else if constexpr (Count == 63u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43,
               f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56, f57, f58, f59, f60, f61, f62] = value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41,
                    f42, f43, f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56, f57, f58, f59, f60, f61,
                    f62);
    } else if constexpr (Count == 64u) {
        auto &[f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22,
               f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43,
               f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56, f57, f58, f59, f60, f61, f62, f63] =
            value;
        return func(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
                    f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41,
                    f42, f43, f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56, f57, f58, f59, f60, f61,
                    f62, f63);
    }
}

/// Stands for an object of Type: the structured bindings of field names bind to it. Declared, never defined: only its
/// address and those of its members are used, in constant expressions. Wrapped, so that Type needs no constructor.
template<typename Type>
struct reflected_wrapper {
    const Type value;
};

#if defined(__clang__)
#    pragma clang diagnostic push
#    pragma clang diagnostic ignored "-Wundefined-var-template"
#    pragma clang diagnostic ignored "-Wundefined-internal"
#endif

template<typename Type>
extern const reflected_wrapper<Type> reflected_object;

/// The address of a field of reflected_object, as a template argument: the compiler spells the member's name when it
/// prints it. Untyped, so that the addresses of all the fields of a type fit one array.
struct field_address {
    const void *pointer;
};

template<typename Type>
[[nodiscard]] consteval auto field_addresses() noexcept {
    constexpr auto count = aggregate_census<Type>.count;
    return bind_fields<count>(reflected_object<Type>.value, [](const auto &...field) {
        return std::array<field_address, count>{field_address{&field}...};
    });
}

#if defined(__clang__)
#    pragma clang diagnostic pop
#endif

// GCC: "consteval auto tessera::internal::field_signature() [with tessera::internal::field_address Address =
// tessera::internal::field_address{((const void*)(& tessera::internal::reflected_object<point>.tessera::internal::
// reflected_wrapper<point>::value.point::x))}]"; Clang: "auto tessera::internal::field_signature() [Address =
// {&reflected_object.value.x}]".
template<field_address Address>
[[nodiscard]] consteval auto field_signature() noexcept {
    // the size is known: no constant evaluation of strlen over the long signature
    return std::string_view{__PRETTY_FUNCTION__, sizeof(__PRETTY_FUNCTION__) - 1u};
}

[[nodiscard]] constexpr bool is_identifier_char(const char value) noexcept {
    // bytes of UTF-8 sequences too: identifiers may hold them
    return (value >= 'a' && value <= 'z') || (value >= 'A' && value <= 'Z') || (value >= '0' && value <= '9') ||
           value == '_' || value == '$' || static_cast<unsigned char>(value) >= 0x80u;
}

/// The name of the member at the end of a printed field address: the last identifier before the closing brackets.
[[nodiscard]] constexpr std::string_view field_name_from(const std::string_view signature) noexcept {
    std::size_t end = signature.size();
    while (end != 0u && !is_identifier_char(signature[end - 1u])) {
        --end;
    }
    std::size_t begin = end;
    while (begin != 0u && is_identifier_char(signature[begin - 1u])) {
        --begin;
    }
    return signature.substr(begin, end - begin);
}

/// Characters kept in the program for names: one array per type holds them all, so that the long signatures they
/// are cut from stay in the compiler.
template<std::size_t Size>
struct name_buffer {
    char chars[Size + 1u]{};
};

template<std::size_t Count>
struct name_table {
    std::array<std::size_t, Count> begin{};
    std::array<std::size_t, Count> size{};
    std::size_t total{};
};

template<std::size_t Count>
[[nodiscard]] constexpr name_table<Count> layout_names(const std::array<std::string_view, Count> &names) noexcept {
    name_table<Count> table{};
    for (std::size_t pos{}; pos < Count; ++pos) {
        table.begin[pos] = table.total;
        table.size[pos] = names[pos].size();
        table.total += names[pos].size();
    }
    return table;
}

template<std::size_t Size, std::size_t Count>
[[nodiscard]] constexpr name_buffer<Size> join_names(const std::array<std::string_view, Count> &names) noexcept {
    name_buffer<Size> buffer{};
    std::size_t at{};
    for (const auto name : names) {
        for (const char value : name) {
            buffer.chars[at++] = value;
        }
    }
    return buffer;
}

// The addresses are a template argument, computed once per type (a constexpr variable would be emitted, with
// references to reflected_object, which is never defined).
template<auto Addresses, std::size_t... Index>
[[nodiscard]] consteval auto names_at(std::index_sequence<Index...>) noexcept {
    return std::array<std::string_view, sizeof...(Index)>{field_name_from(field_signature<Addresses[Index]>())...};
}

template<typename Type>
[[nodiscard]] consteval auto raw_field_names() noexcept {
    constexpr auto addresses = field_addresses<Type>();
    return names_at<addresses>(std::make_index_sequence<addresses.size()>{});
}

template<typename Type>
inline constexpr auto aggregate_name_table = layout_names(raw_field_names<Type>());

template<typename Type>
inline constexpr auto aggregate_name_chars = join_names<aggregate_name_table<Type>.total>(raw_field_names<Type>());

template<typename Type>
[[nodiscard]] consteval auto aggregate_field_names() noexcept {
    constexpr auto count = aggregate_census<Type>.count;
    std::array<std::string_view, count> names{};
    for (std::size_t pos{}; pos < count; ++pos) {
        names[pos] = std::string_view{aggregate_name_chars<Type>.chars + aggregate_name_table<Type>.begin[pos],
                                      aggregate_name_table<Type>.size[pos]};
    }
    return names;
}

/// Checks that Type can be reflected, with a message that says what to do when it cannot, and counts its fields.
template<typename Type>
[[nodiscard]] consteval std::size_t checked_field_count() noexcept {
    if constexpr (described<Type>) {
        static_cast<void>(check_description<Type>());
        return std::tuple_size_v<std::remove_cvref_t<decltype(reflected_fields_of<Type>)>>;
    } else if constexpr (!std::is_class_v<Type> || std::is_union_v<Type>) {
        static_assert(reflect_false<Type>, "reflect: T is not a class (or is a union); only classes have fields");
        return 0u;
    } else if constexpr (!std::is_aggregate_v<Type>) {
        static_assert(reflect_false<Type>,
                      "reflect: T is not an aggregate (it has constructors, private members or virtual functions); "
                      "describe its fields with reflected_fields");
        return 0u;
    } else if constexpr (aggregate_has_base<Type>) {
        static_assert(reflect_false<Type>, "reflect: T has a base class; describe its fields with reflected_fields");
        return 0u;
    } else if constexpr (aggregate_census<Type>.status == census_status::too_many) {
        static_assert(reflect_false<Type>, "reflect: T has more than tessera::max_reflected_fields (64) fields; "
                                           "describe its fields with reflected_fields");
        return 0u;
    } else if constexpr (aggregate_census<Type>.status == census_status::reference) {
        static_assert(reflect_false<Type>,
                      "reflect: T has a reference member, which cannot be reflected; describe its other fields with "
                      "reflected_fields");
        return 0u;
    } else if constexpr (aggregate_census<Type>.status == census_status::stuck) {
        static_assert(reflect_false<Type>,
                      "reflect: T has a field without a default constructor and fields that cannot be initialized "
                      "from braces (empty classes, classes whose constructors compete); describe its fields with "
                      "reflected_fields");
        return 0u;
    } else if constexpr (aggregate_census<Type>.status == census_status::too_many_bare) {
        static_assert(reflect_false<Type>,
                      "reflect: T has more than 4 fields that cannot be initialized from braces (empty classes, "
                      "classes whose constructors compete); describe its fields with reflected_fields");
        return 0u;
    } else {
        return aggregate_census<Type>.count;
    }
}

} // namespace internal

/// The number of fields of a reflectable type (cv-qualifiers ignored). A type that is not reflectable fails to
/// compile with a message saying why and what to do.
template<typename Type>
inline constexpr std::size_t field_count_v = internal::checked_field_count<std::remove_cv_t<Type>>();

namespace internal {

template<typename Type>
[[nodiscard]] consteval std::array<std::string_view, field_count_v<Type>> field_names() noexcept {
    if constexpr (described<Type>) {
        return []<std::size_t... Index>(std::index_sequence<Index...>) {
            return std::array<std::string_view, field_count_v<Type>>{
                std::get<Index>(reflected_fields_of<Type>).name...};
        }
        (std::make_index_sequence<field_count_v<Type>>{});
    } else if constexpr (field_count_v<Type> == 0u) {
        return {};
    } else {
        return aggregate_field_names<Type>();
    }
}

} // namespace internal

/// The names of the fields of a reflectable type, in declaration order (in the order of its reflected_fields when it
/// describes itself). The views point into static storage.
template<typename Type>
inline constexpr std::array<std::string_view, field_count_v<Type>>
    field_names_v = internal::field_names<std::remove_cv_t<Type>>();

/// Calls func(std::string_view name, auto &field) for each field of `value` in declaration order. The fields are
/// references into `value` (const when `value` is), so func may write through them. Bit-fields cannot be visited.
template<typename Type, typename Func>
constexpr void for_each_field(Type &value, Func &&func) {
    using plain = std::remove_cv_t<Type>;
    constexpr auto count = field_count_v<plain>;

    if constexpr (internal::described<plain>) {
        [&]<std::size_t... Index>(std::index_sequence<Index...>) {
            (func(field_names_v<plain>[Index], value.*(std::get<Index>(internal::reflected_fields_of<plain>).pointer)),
             ...);
        }
        (std::make_index_sequence<count>{});
    } else {
        internal::bind_fields<count>(value, [&func](auto &...field) {
            [&]<std::size_t... Index>(std::index_sequence<Index...>) {
                (func(field_names_v<plain>[Index], field), ...);
            }
            (std::make_index_sequence<count>{});
        });
    }
}

namespace internal {

template<typename Type>
struct field_list_of {
    template<typename... Field>
    [[nodiscard]] constexpr type_list<Field...> operator()(Field &...) const noexcept {
        return {};
    }
};

/// The declared types of the fields of a reflectable class, cv-qualifiers kept (a const field is const).
template<typename Type>
[[nodiscard]] consteval auto declared_field_types() noexcept {
    if constexpr (described<Type>) {
        return []<typename... Field>(std::tuple<Field...>) {
            return type_list<typename Field::member_type...>{};
        }(reflected_fields_of<Type>);
    } else {
        // the bindings of a non-const object have the declared types: no object is needed to ask for them
        return decltype(bind_fields<field_count_v<Type>>(std::declval<Type &>(), field_list_of<Type>{})){};
    }
}

template<typename... Field>
[[nodiscard]] consteval auto without_cv(type_list<Field...>) noexcept -> type_list<std::remove_cv_t<Field>...> {
    return {};
}

} // namespace internal

/// The type of each field of a reflectable type, in the order of field_names_v, cv-qualifiers removed: a type_list.
template<typename Type>
using field_types_t = decltype(internal::without_cv(internal::declared_field_types<std::remove_cv_t<Type>>()));

namespace internal {

template<typename Enum>
using enum_integer = std::underlying_type_t<Enum>;

// The scanned range as long long, cut to the underlying type's values.
template<typename Enum>
inline constexpr long long enum_scan_min = [] {
    using integer = enum_integer<Enum>;
    constexpr auto wanted = static_cast<long long>(enum_range<Enum>::min);
    if constexpr (std::is_unsigned_v<integer>) {
        return wanted < 0 ? 0ll : wanted;
    } else {
        constexpr auto lowest = static_cast<long long>(std::numeric_limits<integer>::min());
        return wanted < lowest ? lowest : wanted;
    }
}();

template<typename Enum>
inline constexpr long long enum_scan_max = [] {
    using integer = enum_integer<Enum>;
    constexpr auto wanted = static_cast<long long>(enum_range<Enum>::max);
    if constexpr (sizeof(integer) >= sizeof(long long)) {
        return wanted;
    } else {
        constexpr auto past = static_cast<long long>(std::numeric_limits<integer>::max()) + 1ll;
        return wanted > past ? past : wanted;
    }
}();

template<typename Enum>
[[nodiscard]] consteval std::size_t enum_scan_size() noexcept {
    static_assert(enum_range<Enum>::min <= enum_range<Enum>::max, "enum_range: min must not be above max");
    static_assert(static_cast<long long>(enum_range<Enum>::max) - static_cast<long long>(enum_range<Enum>::min) <=
                      65536ll,
                  "enum_range: search at most 65536 values (max - min)");
    return enum_scan_max<Enum> > enum_scan_min<Enum>
               ? static_cast<std::size_t>(enum_scan_max<Enum> - enum_scan_min<Enum>)
               : 0u;
}

/// A signature of enumerator_text, and where the enumerator's name is in it (size 0 when the value has none).
struct enumerator_place {
    const char *signature;
    std::size_t length;
    std::size_t begin;
    std::size_t size;
};

// GCC: "consteval tessera::internal::enumerator_place tessera::internal::enumerator_text() [with auto Value =
// color::red]", or "... [with auto Value = (color)3]" for a value without a name; Clang: "... [Value = color::red]",
// "(color)3". Kept to the least: it is instantiated for every value of the range.
template<auto Value>
[[nodiscard]] consteval enumerator_place enumerator_text() noexcept {
    return {__PRETTY_FUNCTION__, sizeof(__PRETTY_FUNCTION__) - 1u, 0u, 0u};
}

/// Where the printed value starts in a signature of enumerator_text: the text before it is the same for every value,
/// so it is looked for once.
[[nodiscard]] consteval std::size_t enumerator_offset() noexcept {
    constexpr std::string_view marker{"Value = "};
    const auto place = enumerator_text<0>();
    return std::string_view{place.signature, place.length}.find(marker) + marker.size();
}

/// Finds the enumerator's name in a signature. Most scanned values have none: they are told apart by the first
/// character of the printed value (a cast, or a number), read without building views, so that scanning a range costs
/// little beyond the instantiations.
[[nodiscard]] constexpr enumerator_place find_enumerator(enumerator_place place, const std::size_t offset) noexcept {
    const char *const text = place.signature;
    const std::size_t length = place.length;

    if (offset + 1u >= length || text[length - 1u] != ']') {
        return place;
    }

    if (const char first = text[offset]; first == '(') {
        // a cast, unless it is clang's "(anonymous namespace)::" starting a qualified name
        const char anonymous[] = "(anonymous namespace)";
        for (std::size_t pos{}; pos + 1u < sizeof(anonymous); ++pos) {
            if (offset + pos >= length || text[offset + pos] != anonymous[pos]) {
                return place;
            }
        }
    } else if ((first >= '0' && first <= '9') || first == '-') {
        return place;
    }

    // the name is the last identifier, before the closing bracket
    std::size_t begin = length - 1u;
    while (begin > offset && is_identifier_char(text[begin - 1u])) {
        --begin;
    }
    place.begin = begin;
    place.size = length - 1u - begin;
    return place;
}

template<typename Enum>
[[nodiscard]] consteval auto enumerator_places() noexcept {
    return []<std::size_t... Index>(std::index_sequence<Index...>) {
        constexpr auto offset = enumerator_offset();
        return std::array<enumerator_place, sizeof...(Index)>{find_enumerator(
            enumerator_text<static_cast<Enum>(enum_scan_min<Enum> + static_cast<long long>(Index))>(), offset)...};
    }
    (std::make_index_sequence<enum_scan_size<Enum>()>{});
}

/// The number of values of the scanned range that have a name, and the characters of those names.
template<typename Enum>
inline constexpr std::array<std::size_t, 2u> enum_summary = [] {
    std::array<std::size_t, 2u> summary{};
    for (const auto place : enumerator_places<Enum>()) {
        summary[0u] += place.size == 0u ? 0u : 1u;
        summary[1u] += place.size;
    }
    return summary;
}();

/// The enumerators of an enum: their values, and their names in one array of characters.
template<std::size_t Count, std::size_t Chars>
struct enum_table {
    std::array<long long, Count> value{};
    std::array<std::size_t, Count> begin{};
    std::array<std::size_t, Count> size{};
    name_buffer<Chars> chars{};
};

template<typename Enum>
inline constexpr auto enum_table_of = [] {
    const auto places = enumerator_places<Enum>();
    enum_table<enum_summary<Enum>[0u], enum_summary<Enum>[1u]> table {};
    std::size_t at{};
    std::size_t used{};
    for (std::size_t pos{}; pos < places.size(); ++pos) {
        if (const auto &place = places[pos]; place.size != 0u) {
            table.value[at] = enum_scan_min<Enum> + static_cast<long long>(pos);
            table.begin[at] = used;
            table.size[at] = place.size;
            for (std::size_t next{}; next < place.size; ++next) {
                table.chars.chars[used++] = place.signature[place.begin + next];
            }
            ++at;
        }
    }
    return table;
}();

template<typename Enum>
inline constexpr std::size_t enum_named_count = enum_summary<Enum>[0u];

} // namespace internal

/// The enumerators of Enum found in its enum_range, in increasing value: pairs of value and name.
template<typename Enum>
requires std::is_enum_v<Enum>
inline constexpr auto enum_entries_v = [] {
    constexpr auto &table = internal::enum_table_of<Enum>;
    std::array<std::pair<Enum, std::string_view>, internal::enum_named_count<Enum>> entries{};
    for (std::size_t pos{}; pos < entries.size(); ++pos) {
        entries[pos] = {static_cast<Enum>(table.value[pos]),
                        std::string_view{table.chars.chars + table.begin[pos], table.size[pos]}};
    }
    return entries;
}();

/// The name of the enumerator that has `value`, or an empty view when none has it within enum_range<Enum> (default
/// [-128, 128)). A combination of flags has no name: read such enums by value.
template<typename Enum>
requires std::is_enum_v<Enum>
[[nodiscard]] constexpr std::string_view enum_name(const Enum value) noexcept {
    using integer = std::underlying_type_t<Enum>;
    const auto raw = static_cast<integer>(value);

    if constexpr (std::is_unsigned_v<integer> && sizeof(integer) >= sizeof(long long)) {
        // above the range of long long: above every range too
        if (raw > static_cast<integer>(std::numeric_limits<long long>::max())) {
            return {};
        }
    }

    // the entries are sorted by value
    const auto wanted = static_cast<long long>(raw);
    const auto &entries = enum_entries_v<Enum>;
    std::size_t first{};
    std::size_t count = entries.size();
    while (count != 0u) {
        const std::size_t half = count / 2u;
        if (static_cast<long long>(static_cast<integer>(entries[first + half].first)) < wanted) {
            first += half + 1u;
            count -= half + 1u;
        } else {
            count = half;
        }
    }
    return (first < entries.size() && static_cast<long long>(static_cast<integer>(entries[first].first)) == wanted)
               ? entries[first].second
               : std::string_view{};
}

/// The value of the enumerator named `name` within enum_range<Enum>, or nothing.
template<typename Enum>
requires std::is_enum_v<Enum>
[[nodiscard]] constexpr std::optional<Enum> enum_from_name(const std::string_view name) noexcept {
    if (!name.empty()) {
        for (const auto &[value, text] : enum_entries_v<Enum>) {
            if (text == name) {
                return value;
            }
        }
    }
    return std::nullopt;
}

namespace internal {

template<typename Type>
[[nodiscard]] consteval bool default_identifier() noexcept {
    if constexpr (std::is_same_v<Type, entity>) {
        return true;
    } else if constexpr (std::is_class_v<Type>) {
        return entity_like<Type>;
    } else if constexpr (std::is_enum_v<Type>) {
        // an identifier enum has no enumerators: the enums with some are read by name
        return entity_like<Type> && enum_named_count<Type> == 0u;
    } else {
        return false;
    }
}

} // namespace internal

/// Whether a type is read and written as an identifier ({"index", "version"} in JSON): tessera::entity, a class with
/// a nested entity_type (entity_like), and an enum over std::uint32_t or std::uint64_t with no enumerator in its
/// enum_range. Specialize it as std::true_type or std::false_type to decide for a type of yours.
template<typename Type>
struct reflect_as_identifier : std::bool_constant<internal::default_identifier<Type>()> {};

/// What a value is, for the JSON conversion and for tools that show values.
enum class value_kind : std::uint8_t {
    /// bool.
    boolean,
    /// Integral types other than bool (characters included).
    integer,
    /// float, double, long double.
    floating,
    /// Enums other than identifiers: read and written by name when the value has one.
    enumeration,
    /// std::string.
    string,
    /// C arrays and std::array: a fixed number of elements.
    array,
    /// std::vector.
    vector,
    /// std::optional.
    optional,
    /// A reflectable class: named fields.
    object,
    /// An identifier (reflect_as_identifier).
    identifier,
    /// Anything else: known by its type name (type_id<T>().name()) and size only.
    opaque
};

namespace internal {

template<typename Type>
struct is_std_array : std::false_type {};

template<typename Type, std::size_t Size>
struct is_std_array<std::array<Type, Size>> : std::true_type {};

template<typename Type>
struct is_std_vector : std::false_type {};

template<typename Type, typename Allocator>
struct is_std_vector<std::vector<Type, Allocator>> : std::true_type {};

template<typename Type>
struct is_std_optional : std::false_type {};

template<typename Type>
struct is_std_optional<std::optional<Type>> : std::true_type {};

template<typename Type>
[[nodiscard]] consteval value_kind classify() noexcept {
    if constexpr (std::is_same_v<Type, bool>) {
        return value_kind::boolean;
    } else if constexpr (std::is_integral_v<Type>) {
        return value_kind::integer;
    } else if constexpr (std::is_floating_point_v<Type>) {
        return value_kind::floating;
    } else if constexpr (std::is_enum_v<Type> || std::is_class_v<Type>) {
        if constexpr (reflect_as_identifier<Type>::value) {
            return value_kind::identifier;
        } else if constexpr (std::is_enum_v<Type>) {
            return value_kind::enumeration;
        } else if constexpr (std::is_same_v<Type, std::string>) {
            return value_kind::string;
        } else if constexpr (is_std_array<Type>::value) {
            return value_kind::array;
        } else if constexpr (is_std_vector<Type>::value) {
            return value_kind::vector;
        } else if constexpr (is_std_optional<Type>::value) {
            return value_kind::optional;
        } else if constexpr (reflectable<Type>) {
            return value_kind::object;
        } else {
            return value_kind::opaque;
        }
    } else if constexpr (std::is_bounded_array_v<Type>) {
        return value_kind::array;
    } else {
        return value_kind::opaque;
    }
}

} // namespace internal

/// The kind of a value of Type (cv-qualifiers ignored; references are not values: use the referred type).
template<typename Type>
inline constexpr value_kind value_kind_v = internal::classify<std::remove_cv_t<Type>>();

} // namespace tessera

#endif
