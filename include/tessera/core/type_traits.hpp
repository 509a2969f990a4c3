// Compile-time lists of types and values, and the small traits the other modules build on.
#ifndef TESSERA_CORE_TYPE_TRAITS_HPP
#define TESSERA_CORE_TYPE_TRAITS_HPP

#include "fwd.hpp"
#include <concepts>
#include <cstddef>
#include <iterator>
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

/// `To`, made const if `From` is const.
template<typename To, typename From>
struct constness_as {
    /// The resulting type.
    using type = std::conditional_t<std::is_const_v<From>, std::add_const_t<To>, To>;
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

/// Whether a type is complete at the point of first use. The answer is cached: ask after the definition.
template<typename Type>
inline constexpr bool is_complete_v = requires {
    sizeof(Type);
};

/// Whether a type is an iterator (it has an iterator category).
template<typename Type>
inline constexpr bool is_iterator_v = requires {
    typename std::iterator_traits<Type>::iterator_category;
};

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

// A data member behaves like a getter without parameters.
template<typename Member, typename Class>
requires(!std::is_function_v<Member>) struct callable_arguments<Member Class::*> {
    using type = type_list<>;
};

template<typename Member, typename Class>
Class member_class_of(Member Class::*);

} // namespace internal

/// The Index-th parameter type of a function, function pointer, member function pointer or function object.
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

#endif
