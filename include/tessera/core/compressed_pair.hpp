// A pair whose empty members take no room, for classes that keep an allocator or a function object beside data.
#ifndef TESSERA_CORE_COMPRESSED_PAIR_HPP
#define TESSERA_CORE_COMPRESSED_PAIR_HPP

#include "fwd.hpp"
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tessera {

/// Two values, like `std::pair`, where an empty member adds nothing to the size (both members are declared
/// `[[no_unique_address]]`). The members are reached through `first()` and `second()`; `get<0>`/`get<1>` and
/// structured bindings work too.
template<typename First, typename Second>
class compressed_pair final {
public:
    /// Type of the first member.
    using first_type = First;
    /// Type of the second member.
    using second_type = Second;

    /// Value-initializes both members.
    constexpr compressed_pair() noexcept(
        std::is_nothrow_default_constructible_v<first_type> &&std::is_nothrow_default_constructible_v<
            second_type>) requires(std::is_default_constructible_v<first_type>
                                       &&std::is_default_constructible_v<second_type>)
        : head{}, tail{} {}

    /// Copy constructor.
    constexpr compressed_pair(const compressed_pair &) = default;

    /// Move constructor.
    constexpr compressed_pair(compressed_pair &&) noexcept = default;

    /// Builds each member from one argument.
    template<typename Arg, typename Other>
    constexpr compressed_pair(Arg &&arg, Other &&other) noexcept(
        std::is_nothrow_constructible_v<first_type, Arg> &&std::is_nothrow_constructible_v<second_type, Other>)
        : head(std::forward<Arg>(arg)), tail(std::forward<Other>(other)) {}

    /// Builds each member from the elements of its tuple of arguments.
    template<typename... Args, typename... Other>
    constexpr compressed_pair(
        std::piecewise_construct_t, std::tuple<Args...> args,
        std::tuple<Other...> other) noexcept(std::is_nothrow_constructible_v<first_type, Args...>
                                                 &&std::is_nothrow_constructible_v<second_type, Other...>)
        : compressed_pair{args, other, std::index_sequence_for<Args...>{}, std::index_sequence_for<Other...>{}} {}

    /// Destructor.
    constexpr ~compressed_pair() = default;

    /// Copy assignment.
    constexpr compressed_pair &operator=(const compressed_pair &) = default;

    /// Move assignment.
    constexpr compressed_pair &operator=(compressed_pair &&) noexcept = default;

    /// The first member.
    [[nodiscard]] constexpr first_type &first() noexcept { return head; }

    /// The first member.
    [[nodiscard]] constexpr const first_type &first() const noexcept { return head; }

    /// The second member.
    [[nodiscard]] constexpr second_type &second() noexcept { return tail; }

    /// The second member.
    [[nodiscard]] constexpr const second_type &second() const noexcept { return tail; }

    /// Exchanges the members with those of another pair.
    constexpr void swap(compressed_pair &other) noexcept(
        std::is_nothrow_swappable_v<first_type> &&std::is_nothrow_swappable_v<second_type>) {
        using std::swap;
        swap(head, other.head);
        swap(tail, other.tail);
    }

    /// The Index-th member (0 or 1), for structured bindings.
    template<std::size_t Index>
    [[nodiscard]] constexpr decltype(auto) get() noexcept {
        static_assert(Index < 2u, "compressed_pair: the index must be 0 or 1");
        if constexpr (Index != 0u) {
            return second();
        } else {
            return first();
        }
    }

    /// The Index-th member (0 or 1), for structured bindings.
    template<std::size_t Index>
    [[nodiscard]] constexpr decltype(auto) get() const noexcept {
        static_assert(Index < 2u, "compressed_pair: the index must be 0 or 1");
        if constexpr (Index != 0u) {
            return second();
        } else {
            return first();
        }
    }

private:
    // Members that may overlap are never built by copy elision, so the arguments are unpacked in place.
    template<typename ArgsTuple, typename OtherTuple, std::size_t... Index, std::size_t... OtherIndex>
    constexpr compressed_pair(ArgsTuple &args, OtherTuple &other, std::index_sequence<Index...>,
                              std::index_sequence<OtherIndex...>)
        : head(std::get<Index>(std::move(args))...), tail(std::get<OtherIndex>(std::move(other))...) {}

    [[no_unique_address]] first_type head;
    [[no_unique_address]] second_type tail;
};

/// Deduces decayed member types from the arguments: `compressed_pair{0, 3.}`.
template<typename Type, typename Other>
compressed_pair(Type &&, Other &&) -> compressed_pair<std::decay_t<Type>, std::decay_t<Other>>;

/// Exchanges the members of two pairs.
template<typename First, typename Second>
constexpr void swap(compressed_pair<First, Second> &lhs,
                    compressed_pair<First, Second> &rhs) noexcept(noexcept(lhs.swap(rhs))) {
    lhs.swap(rhs);
}

} // namespace tessera

/// A compressed pair has two elements.
template<typename First, typename Second>
struct std::tuple_size<tessera::compressed_pair<First, Second>> : std::integral_constant<std::size_t, 2u> {};

/// The type of the Index-th member of a compressed pair.
template<std::size_t Index, typename First, typename Second>
struct std::tuple_element<Index, tessera::compressed_pair<First, Second>> {
    static_assert(Index < 2u, "compressed_pair: the index must be 0 or 1");
    /// The member type.
    using type = std::conditional_t<Index == 0u, First, Second>;
};

#endif
