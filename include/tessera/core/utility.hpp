// Small function utilities: picking one overload by its type, merging lambdas into one overload set, and
// recursion for lambdas.
#ifndef TESSERA_CORE_UTILITY_HPP
#define TESSERA_CORE_UTILITY_HPP

#include <type_traits>
#include <utility>

namespace tessera {

/// One function object made of several: its call operator is the overload set of all of them.
template<typename... Func>
struct overloaded : Func... {
    using Func::operator()...;
};

/// Deduces the function objects from the arguments: `overloaded{[](int) {}, [](char) {}}`.
template<typename... Func>
overloaded(Func...) -> overloaded<Func...>;

/// Selects the overload of a free function whose type is `Func`: `overload<void(int)>(&bar)`. The conversion happens
/// when the argument is matched against the parameter.
template<typename Func>
[[nodiscard]] constexpr Func *overload(Func *candidate) noexcept {
    return candidate;
}

/// Selects the overload of a member function whose type is `Type`: `overload<void(int)>(&clazz::bar)`.
template<typename Type, typename Class>
[[nodiscard]] constexpr Type Class::*overload(Type Class::*candidate) noexcept {
    return candidate;
}

/// Lets a lambda call itself: the lambda receives the combinator as its first argument and calls it to recurse.
template<typename Func>
class y_combinator {
public:
    /// Wraps the recursive function.
    constexpr y_combinator(Func recursive) noexcept(std::is_nothrow_move_constructible_v<Func>)
        : body{std::move(recursive)} {}

    /// Calls the function with the combinator in front of the arguments.
    template<typename... Args>
    constexpr decltype(auto) operator()(Args &&...args) const
        noexcept(std::is_nothrow_invocable_v<const Func &, const y_combinator &, Args...>) {
        return body(*this, std::forward<Args>(args)...);
    }

    /// Calls the function with the combinator in front of the arguments.
    template<typename... Args>
    constexpr decltype(auto)
    operator()(Args &&...args) noexcept(std::is_nothrow_invocable_v<Func &, y_combinator &, Args...>) {
        return body(*this, std::forward<Args>(args)...);
    }

private:
    Func body;
};

} // namespace tessera

#endif
