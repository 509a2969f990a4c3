// Compile-time lists of types and values, and the small traits the other modules build on.
#ifndef TESSERA_CORE_TYPE_TRAITS_HPP
#define TESSERA_CORE_TYPE_TRAITS_HPP

#include "../config/std_parts.hpp"
#include "fwd.hpp"
#include <concepts>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tessera {

/// A list of types.
template<typename... Type>
struct type_list {
    /// The list itself, so that derived list kinds can name their base.
    using type = type_list;
    /// Number of types in the list.
    static constexpr auto size = sizeof...(Type);
};

/// A list of values.
template<auto... Value>
struct value_list {
    /// The list itself.
    using type = value_list;
    /// Number of values in the list.
    static constexpr auto size = sizeof...(Value);
};

/// Overload ranking: a `choice_t<N>` argument converts to every `choice_t<M>` with `M < N`, so among overloads taking
/// different choices the one with the highest number wins.
template<std::size_t N>
struct choice_t : choice_t<N - 1u> {};

/// The lowest rank, the base of every other choice.
template<>
struct choice_t<0u> {};

/// The value to pass to overloads ranked by `choice_t`.
template<std::size_t N>
inline constexpr choice_t<N> choice{};

namespace internal {

template<typename Type>
[[nodiscard]] consteval std::size_t size_or_zero() noexcept {
    if constexpr (requires { sizeof(Type); }) {
        return sizeof(Type);
    } else {
        return 0u;
    }
}

} // namespace internal

/// `sizeof(Type)`, or zero where `sizeof` is not allowed (void, functions, incomplete types, arrays of unknown bound).
template<typename Type>
struct size_of : std::integral_constant<std::size_t, internal::size_or_zero<Type>()> {};

/// `sizeof(Type)`, or zero where `sizeof` is not allowed.
template<typename Type>
inline constexpr std::size_t size_of_v = size_of<Type>::value;

/// `Type`, whatever the second argument: expanding it over a pack repeats `Type` once per element.
template<typename Type, typename>
using unpack_as_type = Type;

/// `Value`, whatever the type argument: expanding it over a pack repeats `Value` once per element.
template<auto Value, typename>
inline constexpr auto unpack_as_value = Value;

/// A `std::integral_constant` whose type is deduced from the value.
template<auto Value>
using integral_constant = std::integral_constant<decltype(Value), Value>;

/// A type named by an `id_type` value, such as a hashed string: `tag<"enemy"_hs>`.
template<id_type Value>
using tag = integral_constant<Value>;

namespace internal {

// Picks the Index-th type of a pack by overload resolution over a flat set of bases, which keeps the
// instantiation depth constant instead of linear in the position.
template<std::size_t Index, typename Type>
struct indexed_type {
    using type = Type;
};

template<typename Sequence, typename... Type>
struct indexed_types;

template<std::size_t... Index, typename... Type>
struct indexed_types<std::index_sequence<Index...>, Type...> : indexed_type<Index, Type>... {};

template<std::size_t Index, typename Type>
indexed_type<Index, Type> pick_indexed(const indexed_type<Index, Type> &);

template<std::size_t Index, typename... Type>
using nth_type_t = typename decltype(internal::pick_indexed<Index>(
    std::declval<indexed_types<std::index_sequence_for<Type...>, Type...>>()))::type;

template<typename Type, typename... Other>
[[nodiscard]] consteval std::size_t first_index_of() noexcept {
    constexpr bool match[]{std::is_same_v<Type, Other>..., false};
    std::size_t pos{};
    while (pos < sizeof...(Other) && !match[pos]) {
        ++pos;
    }
    return pos;
}

} // namespace internal

/// The Index-th element of a list (any list kind, `type_list` included).
template<std::size_t Index, typename List>
struct type_list_element;

/// Specialization for list kinds whose parameters are the types themselves.
template<std::size_t Index, template<typename...> class List, typename... Type>
struct type_list_element<Index, List<Type...>> {
    static_assert(Index < sizeof...(Type), "type_list_element: the index is past the end of the list");
    /// The Index-th type.
    using type = internal::nth_type_t<Index, Type...>;
};

/// The Index-th type of a list.
template<std::size_t Index, typename List>
using type_list_element_t = typename type_list_element<Index, List>::type;

/// The position of the first occurrence of a type in a list.
template<typename Type, typename List>
struct type_list_index;

/// Specialization for list kinds whose parameters are the types themselves.
template<typename Type, template<typename...> class List, typename... Other>
struct type_list_index<Type, List<Other...>> {
    /// Unsigned integer type of the position.
    using value_type = std::size_t;
    /// The position.
    static constexpr value_type value = internal::first_index_of<Type, Other...>();
    static_assert(value < sizeof...(Other), "type_list_index: the type is not in the list; check it first with "
                                            "type_list_contains_v");
};

/// The position of the first occurrence of a type in a list.
template<typename Type, typename List>
inline constexpr std::size_t type_list_index_v = type_list_index<Type, List>::value;

/// Whether a list contains a type.
template<typename List, typename Type>
struct type_list_contains;

/// Specialization for list kinds whose parameters are the types themselves.
template<template<typename...> class List, typename... Other, typename Type>
struct type_list_contains<List<Other...>, Type> : std::bool_constant<(std::is_same_v<Type, Other> || ...)> {};

/// Whether a list contains a type.
template<typename List, typename Type>
inline constexpr bool type_list_contains_v = type_list_contains<List, Type>::value;

/// Concatenates lists of the same kind; no list at all gives an empty `type_list`.
template<typename... List>
struct type_list_cat;

/// Nothing to concatenate.
template<>
struct type_list_cat<> {
    /// An empty type list.
    using type = type_list<>;
};

/// A single list.
template<template<typename...> class List, typename... Type>
struct type_list_cat<List<Type...>> {
    /// The list itself.
    using type = List<Type...>;
};

/// Two or more lists: merges the first two, then the rest.
template<template<typename...> class List, typename... Lhs, typename... Rhs, typename... Other>
struct type_list_cat<List<Lhs...>, List<Rhs...>, Other...> : type_list_cat<List<Lhs..., Rhs...>, Other...> {};

/// Concatenation of lists of the same kind.
template<typename... List>
using type_list_cat_t = typename type_list_cat<List...>::type;

/// `type_list<A...>{} + type_list<B...>{}` is a `type_list<A..., B...>`.
template<typename... Lhs, typename... Rhs>
[[nodiscard]] consteval type_list<Lhs..., Rhs...> operator+(type_list<Lhs...>, type_list<Rhs...>) noexcept {
    return {};
}

namespace internal {

// Builds a list one type at a time, through a left fold of `+` over std::type_identity values: a type already kept
// (when Distinct) or present in Blocked is skipped. The fold keeps the instantiation depth flat.
template<bool Distinct, typename Blocked, template<typename...> class List, typename... Kept>
struct type_sieve {
    using type = List<Kept...>;

    template<typename Next>
    [[nodiscard]] consteval auto operator+(std::type_identity<Next>) const noexcept {
        constexpr bool seen = Distinct && (std::is_same_v<Next, Kept> || ...);
        if constexpr (seen || type_list_contains<Blocked, Next>::value) {
            return type_sieve{};
        } else {
            return type_sieve<Distinct, Blocked, List, Kept..., Next>{};
        }
    }
};

} // namespace internal

/// The list without repeated types; the first occurrence of each type stays, in order.
template<typename List>
struct type_list_unique;

/// Specialization for list kinds whose parameters are the types themselves.
template<template<typename...> class List, typename... Type>
struct type_list_unique<List<Type...>> {
    /// The list without repetitions.
    using type =
        typename decltype((internal::type_sieve<true, type_list<>, List>{} + ... + std::type_identity<Type>{}))::type;
};

/// The list without repeated types.
template<typename List>
using type_list_unique_t = typename type_list_unique<List>::type;

/// The types of the first list that are not in the second one, in order.
template<typename List, typename Other>
struct type_list_diff;

/// Specialization for list kinds whose parameters are the types themselves.
template<template<typename...> class List, typename... Type, typename Other>
struct type_list_diff<List<Type...>, Other> {
    /// The remaining types.
    using type =
        typename decltype((internal::type_sieve<false, Other, List>{} + ... + std::type_identity<Type>{}))::type;
};

/// The types of the first list that are not in the second one.
template<typename List, typename Other>
using type_list_diff_t = typename type_list_diff<List, Other>::type;

/// Maps `Op<T>::type` over a list and keeps the list kind. Other list kinds may add their own specialization.
template<typename List, template<typename...> class Op>
struct type_list_transform;

/// Specialization for list kinds whose parameters are the types themselves.
template<template<typename...> class List, typename... Type, template<typename...> class Op>
struct type_list_transform<List<Type...>, Op> {
    /// The mapped list.
    using type = List<typename Op<Type>::type...>;
};

/// The list with `Op<T>::type` in place of each `T`.
template<typename List, template<typename...> class Op>
using type_list_transform_t = typename type_list_transform<List, Op>::type;

/// The Index-th value of a value list.
template<std::size_t Index, typename List>
struct value_list_element;

/// Specialization for value lists.
template<std::size_t Index, auto... Value>
struct value_list_element<Index, value_list<Value...>> {
    static_assert(Index < sizeof...(Value), "value_list_element: the index is past the end of the list");
    /// Type of the Index-th value.
    using type = typename internal::nth_type_t<Index, std::integral_constant<decltype(Value), Value>...>::value_type;
    /// The Index-th value.
    static constexpr type value = internal::nth_type_t<Index, std::integral_constant<decltype(Value), Value>...>::value;
};

/// Type of the Index-th value of a value list.
template<std::size_t Index, typename List>
using value_list_element_t = typename value_list_element<Index, List>::type;

/// The Index-th value of a value list.
template<std::size_t Index, typename List>
inline constexpr auto value_list_element_v = value_list_element<Index, List>::value;

/// Concatenates value lists; no list at all gives an empty `value_list`.
template<typename... List>
struct value_list_cat;

/// Nothing to concatenate.
template<>
struct value_list_cat<> {
    /// An empty value list.
    using type = value_list<>;
};

/// A single list.
template<auto... Value>
struct value_list_cat<value_list<Value...>> {
    /// The list itself.
    using type = value_list<Value...>;
};

/// Two or more lists: merges the first two, then the rest.
template<auto... Lhs, auto... Rhs, typename... Other>
struct value_list_cat<value_list<Lhs...>, value_list<Rhs...>, Other...>
    : value_list_cat<value_list<Lhs..., Rhs...>, Other...> {};

/// Concatenation of value lists.
template<typename... List>
using value_list_cat_t = typename value_list_cat<List...>::type;

/// `value_list<A...>{} + value_list<B...>{}` is a `value_list<A..., B...>`.
template<auto... Lhs, auto... Rhs>
[[nodiscard]] consteval value_list<Lhs..., Rhs...> operator+(value_list<Lhs...>, value_list<Rhs...>) noexcept {
    return {};
}

/// Whether a value list holds a value equal (`==`) to `Value`.
template<typename List, auto Value>
struct value_list_contains;

/// Specialization for value lists.
template<auto... Other, auto Value>
struct value_list_contains<value_list<Other...>, Value> : std::bool_constant<((Other == Value) || ...)> {};

/// Whether a value list holds a value equal to `Value`.
template<typename List, auto Value>
inline constexpr bool value_list_contains_v = value_list_contains<List, Value>::value;

/// The position of the first value equal (`==`) to `Value` in a value list.
template<auto Value, typename List>
struct value_list_index;

/// Specialization for value lists.
template<auto Value, auto... Other>
struct value_list_index<Value, value_list<Other...>> {
    /// Unsigned integer type of the position.
    using value_type = std::size_t;
    /// The position.
    static constexpr value_type value = [] {
        constexpr bool match[]{(Other == Value)..., false};
        value_type pos{};
        while (pos < sizeof...(Other) && !match[pos]) {
            ++pos;
        }
        return pos;
    }();
    static_assert(value < sizeof...(Other), "value_list_index: the value is not in the list; check it first with "
                                            "value_list_contains_v");
};

/// The position of the first value equal to `Value` in a value list.
template<auto Value, typename List>
inline constexpr std::size_t value_list_index_v = value_list_index<Value, List>::value;

namespace internal {

// The value-list counterpart of type_sieve.
template<bool Distinct, typename Blocked, auto... Kept>
struct value_sieve {
    using type = value_list<Kept...>;

    template<auto Next>
    [[nodiscard]] consteval auto operator+(std::integral_constant<decltype(Next), Next>) const noexcept {
        constexpr bool seen = Distinct && ((Kept == Next) || ...);
        if constexpr (seen || value_list_contains<Blocked, Next>::value) {
            return value_sieve{};
        } else {
            return value_sieve<Distinct, Blocked, Kept..., Next>{};
        }
    }
};

} // namespace internal

/// The value list without repeated values; the first occurrence of each value stays, in order.
template<typename List>
struct value_list_unique;

/// Specialization for value lists.
template<auto... Value>
struct value_list_unique<value_list<Value...>> {
    /// The list without repetitions.
    using type = typename decltype((internal::value_sieve<true, value_list<>>{} + ... +
                                    std::integral_constant<decltype(Value), Value>{}))::type;
};

/// The value list without repeated values.
template<typename List>
using value_list_unique_t = typename value_list_unique<List>::type;

/// The values of the first list that are not in the second one, in order.
template<typename List, typename Other>
struct value_list_diff;

/// Specialization for value lists.
template<auto... Value, typename Other>
struct value_list_diff<value_list<Value...>, Other> {
    /// The remaining values.
    using type = typename decltype((internal::value_sieve<false, Other>{} + ... +
                                    std::integral_constant<decltype(Value), Value>{}))::type;
};

/// The values of the first list that are not in the second one.
template<typename List, typename Other>
using value_list_diff_t = typename value_list_diff<List, Other>::type;

/// `To` with the constness of `From`: const if `From` is const, without const otherwise.
template<typename To, typename From>
struct constness_as {
    /// The resulting type.
    using type = std::conditional_t<std::is_const_v<From>, const To, std::remove_const_t<To>>;
};

/// `To`, made const if `From` is const.
template<typename To, typename From>
using constness_as_t = typename constness_as<To, From>::type;

/// Whether `Func` can be called with the elements of the tuple-like `Args` (`std::tuple<A...>`, `type_list<A...>`).
template<typename Func, typename Args>
struct is_applicable : std::false_type {};

/// Specialization for tuple-like argument packs.
template<typename Func, template<typename...> class Tuple, typename... Args>
struct is_applicable<Func, Tuple<Args...>> : std::is_invocable<Func, Args...> {};

/// Specialization for const tuple-like argument packs.
template<typename Func, template<typename...> class Tuple, typename... Args>
struct is_applicable<Func, const Tuple<Args...>> : std::is_invocable<Func, Args...> {};

/// Whether `Func` can be called with the elements of `Args`.
template<typename Func, typename Args>
inline constexpr bool is_applicable_v = is_applicable<Func, Args>::value;

/// Whether `Func` can be called with the elements of the tuple-like `Args` and its result converts to `Ret`.
template<typename Ret, typename Func, typename Args>
struct is_applicable_r : std::false_type {};

/// Specialization for tuple-like argument packs.
template<typename Ret, typename Func, template<typename...> class Tuple, typename... Args>
struct is_applicable_r<Ret, Func, Tuple<Args...>> : std::is_invocable_r<Ret, Func, Args...> {};

/// Specialization for const tuple-like argument packs.
template<typename Ret, typename Func, template<typename...> class Tuple, typename... Args>
struct is_applicable_r<Ret, Func, const Tuple<Args...>> : std::is_invocable_r<Ret, Func, Args...> {};

/// Whether `Func` can be called with the elements of `Args` and its result converts to `Ret`.
template<typename Ret, typename Func, typename Args>
inline constexpr bool is_applicable_r_v = is_applicable_r<Ret, Func, Args>::value;

/// Whether a type is complete at the point of first use. The answer is cached: ask after the definition.
template<typename Type>
inline constexpr bool is_complete_v = requires {
    sizeof(Type);
};

/// Whether a type is complete at the point of first use.
template<typename Type>
struct is_complete : std::bool_constant<is_complete_v<Type>> {};

/// Whether a type is an iterator (it has an iterator category).
template<typename Type>
inline constexpr bool is_iterator_v = requires {
    typename std::iterator_traits<Type>::iterator_category;
};

/// Whether a type is an iterator.
template<typename Type>
struct is_iterator : std::bool_constant<is_iterator_v<Type>> {};

/// Whether a class can be an empty base that takes no room: empty and not final.
template<typename Type>
inline constexpr bool is_ebco_eligible_v = std::is_empty_v<Type> && !std::is_final_v<Type>;

/// Whether a class can be an empty base that takes no room.
template<typename Type>
struct is_ebco_eligible : std::bool_constant<is_ebco_eligible_v<Type>> {};

/// Whether a function object declares `is_transparent` (heterogeneous lookup, as `std::less<>` does).
template<typename Type>
inline constexpr bool is_transparent_v = requires {
    typename Type::is_transparent;
};

/// Whether a function object declares `is_transparent`.
template<typename Type>
struct is_transparent : std::bool_constant<is_transparent_v<Type>> {};

/// Satisfied by types without cv-qualifiers and references.
template<typename Type>
concept cvref_unqualified = std::is_same_v<Type, std::remove_cvref_t<Type>>;

namespace internal {

template<typename Type>
concept has_shallow_equality = requires(const Type &lhs, const Type &rhs) {
    { lhs == rhs } -> std::convertible_to<bool>;
};

template<typename Type>
concept tuple_like = requires {
    std::tuple_size<Type>::value;
};

// Standard containers, pairs and tuples declare operator== whatever their elements are, so the answer has to
// look inside them. Iterators are left alone: they compare positions, not elements.
template<typename Type>
[[nodiscard]] consteval bool elements_are_comparable() noexcept;

} // namespace internal

/// Whether `a == b` compiles for two const values of the type, looking inside containers, pairs and tuples.
template<typename Type>
inline constexpr bool is_equality_comparable_v =
    !std::is_array_v<Type> && internal::has_shallow_equality<Type> && internal::elements_are_comparable<Type>();

/// Whether `a == b` compiles for two const values of the type.
template<typename Type>
struct is_equality_comparable : std::bool_constant<is_equality_comparable_v<Type>> {};

namespace internal {

template<typename Type, std::size_t... Index>
[[nodiscard]] consteval bool tuple_elements_are_comparable(std::index_sequence<Index...>) noexcept {
    return (is_equality_comparable_v<std::tuple_element_t<Index, Type>> && ...);
}

template<typename Type>
[[nodiscard]] consteval bool elements_are_comparable() noexcept {
    if constexpr (is_iterator_v<Type>) {
        return true;
    } else if constexpr (tuple_like<Type>) {
        return tuple_elements_are_comparable<Type>(std::make_index_sequence<std::tuple_size<Type>::value>{});
    } else if constexpr (requires { typename Type::value_type; }) {
        if constexpr (std::is_same_v<typename Type::value_type, Type>) {
            return true;
        } else {
            return is_equality_comparable_v<typename Type::value_type>;
        }
    } else {
        return true;
    }
}

// Allocator-aware containers declare a copy constructor whatever their elements are.
template<typename Type>
[[nodiscard]] consteval bool is_deep_copyable() noexcept {
    if constexpr (!std::is_copy_constructible_v<Type>) {
        return false;
    } else if constexpr (requires {
                             typename Type::value_type;
                             typename Type::allocator_type;
                         }) {
        return std::is_same_v<typename Type::value_type, Type> || is_deep_copyable<typename Type::value_type>();
    } else {
        return true;
    }
}

template<typename Type>
inline constexpr bool is_copy_constructible_v = is_deep_copyable<Type>();

template<typename Type>
inline constexpr bool is_copy_assignable_v = is_copy_constructible_v<Type> &&std::is_copy_assignable_v<Type>;

// Parameter lists of callables. Function types can carry cv, ref and noexcept qualifiers that no single
// pattern matches, so each combination is spelled out once.
template<typename Function>
struct function_arguments;

#define TESSERA_INTERNAL_FUNCTION_ARGUMENTS(qualifiers)                                                                \
    template<typename Ret, typename... Args>                                                                           \
    struct function_arguments<Ret(Args...) qualifiers> {                                                               \
        using type = type_list<Args...>;                                                                               \
    };
TESSERA_INTERNAL_FUNCTION_ARGUMENTS()
TESSERA_INTERNAL_FUNCTION_ARGUMENTS(const)
TESSERA_INTERNAL_FUNCTION_ARGUMENTS(&)
TESSERA_INTERNAL_FUNCTION_ARGUMENTS(const &)
TESSERA_INTERNAL_FUNCTION_ARGUMENTS(&&)
TESSERA_INTERNAL_FUNCTION_ARGUMENTS(const &&)
TESSERA_INTERNAL_FUNCTION_ARGUMENTS(noexcept)
TESSERA_INTERNAL_FUNCTION_ARGUMENTS(const noexcept)
TESSERA_INTERNAL_FUNCTION_ARGUMENTS(&noexcept)
TESSERA_INTERNAL_FUNCTION_ARGUMENTS(const &noexcept)
TESSERA_INTERNAL_FUNCTION_ARGUMENTS(&&noexcept)
TESSERA_INTERNAL_FUNCTION_ARGUMENTS(const &&noexcept)
#undef TESSERA_INTERNAL_FUNCTION_ARGUMENTS

template<typename Candidate>
struct callable_arguments {
    static_assert(
        requires { &Candidate::operator(); },
        "nth_argument: pass a function, a member pointer or a class with exactly one operator()");
    using type = typename callable_arguments<decltype(&Candidate::operator())>::type;
};

template<typename Function>
requires std::is_function_v<Function>
struct callable_arguments<Function> : function_arguments<Function> {
};

template<typename Function>
requires std::is_function_v<Function>
struct callable_arguments<Function *> : function_arguments<Function> {
};

template<typename Member, typename Class>
requires std::is_function_v<Member>
struct callable_arguments<Member Class::*> : function_arguments<Member> {
};

// A data member counts as one parameter of its own type, the value it holds.
template<typename Member, typename Class>
requires(!std::is_function_v<Member>) struct callable_arguments<Member Class::*> {
    using type = type_list<Member>;
};

template<typename Member, typename Class>
Class member_class_of(Member Class::*);

} // namespace internal

/// The Index-th parameter type of a function, function pointer, member function pointer or function object; a
/// pointer to data member has one "parameter", the type of the member.
template<std::size_t Index, typename Candidate>
struct nth_argument {
    /// The parameter type.
    using type =
        type_list_element_t<Index, typename internal::callable_arguments<std::remove_cvref_t<Candidate>>::type>;
};

/// The Index-th parameter type of a callable.
template<std::size_t Index, typename Candidate>
using nth_argument_t = typename nth_argument<Index, Candidate>::type;

/// The class a member pointer belongs to.
template<typename Member>
struct member_class {
    static_assert(std::is_member_pointer_v<Member>, "member_class: pass the type of a pointer to member");
    /// The class.
    using type = decltype(internal::member_class_of(std::declval<Member>()));
};

/// The class a member pointer belongs to.
template<typename Member>
using member_class_t = typename member_class<Member>::type;

} // namespace tessera

/// Type lists are tuple-like: std::tuple_size and std::tuple_element work on them.
template<typename... Type>
struct std::tuple_size<tessera::type_list<Type...>> : std::integral_constant<std::size_t, sizeof...(Type)> {};

/// The Index-th type of a type list.
template<std::size_t Index, typename... Type>
struct std::tuple_element<Index, tessera::type_list<Type...>> {
    /// The Index-th type.
    using type = tessera::type_list_element_t<Index, tessera::type_list<Type...>>;
};

/// Value lists are tuple-like: std::tuple_size and std::tuple_element (the type of each value) work on them.
template<auto... Value>
struct std::tuple_size<tessera::value_list<Value...>> : std::integral_constant<std::size_t, sizeof...(Value)> {};

/// The type of the Index-th value of a value list.
template<std::size_t Index, auto... Value>
struct std::tuple_element<Index, tessera::value_list<Value...>> {
    /// The type of the Index-th value.
    using type = tessera::value_list_element_t<Index, tessera::value_list<Value...>>;
};

#endif
