// Tuple helpers: recognizing std::tuple, unwrapping one-element tuples, and calling a function with the elements
// of a tuple.
#ifndef TESSERA_CORE_TUPLE_HPP
#define TESSERA_CORE_TUPLE_HPP

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tessera {

/// Whether a type is a `std::tuple`.
template<typename Type>
struct is_tuple : std::false_type {};

/// Specialization for tuples.
template<typename... Args>
struct is_tuple<std::tuple<Args...>> : std::true_type {};

/// Whether a type is a `std::tuple`.
template<typename Type>
inline constexpr bool is_tuple_v = is_tuple<Type>::value;

/// The only element of a one-element tuple-like value, or the value itself otherwise.
template<typename Type>
[[nodiscard]] constexpr decltype(auto) unwrap_tuple(Type &&value) noexcept {
    if constexpr (std::tuple_size_v<std::remove_reference_t<Type>> != 1u) {
        return std::forward<Type>(value);
    } else {
        return std::get<0>(std::forward<Type>(value));
    }
}

/// A function object that takes a tuple and calls the wrapped function with its elements.
template<typename Func>
class forward_apply {
public:
    /// Builds the wrapped function from the arguments.
    template<typename... Args>
    constexpr forward_apply(Args &&...args) noexcept(std::is_nothrow_constructible_v<Func, Args...>)
        : func{std::forward<Args>(args)...} {}

    /// Calls the function with the elements of `args`.
    template<typename Type>
    constexpr decltype(auto) operator()(Type &&args) noexcept(noexcept(std::apply(std::declval<Func &>(), args))) {
        return std::apply(func, std::forward<Type>(args));
    }

    /// Calls the function with the elements of `args`.
    template<typename Type>
    constexpr decltype(auto) operator()(Type &&args) const
        noexcept(noexcept(std::apply(std::declval<const Func &>(), args))) {
        return std::apply(func, std::forward<Type>(args));
    }

private:
    [[no_unique_address]] Func func;
};

/// Deduces the function type.
template<typename Func>
forward_apply(Func) -> forward_apply<std::remove_cvref_t<Func>>;

} // namespace tessera

#endif
