// Small iterator helpers: ranges made of an iterator pair, arrow proxies and counting iterators.
#ifndef TESSERA_CORE_ITERATOR_HPP
#define TESSERA_CORE_ITERATOR_HPP

#include "../config/std_parts.hpp"
#include "fwd.hpp"
#include <concepts>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace tessera {

/// The arrow of iterators whose dereference yields a temporary (a tuple, for example): keeps the value alive
/// for the duration of the expression and exposes its address.
template<typename Type>
struct input_iterator_pointer final {
    /// Type of the value held.
    using value_type = Type;
    /// Pointer to the value held.
    using pointer = Type *;
    /// Reference to the value held.
    using reference = Type &;

    /// Takes ownership of the value.
    constexpr input_iterator_pointer(value_type &&temporary) noexcept(std::is_nothrow_move_constructible_v<value_type>)
        : held{std::move(temporary)} {}

    /// Address of the value held.
    [[nodiscard]] constexpr pointer operator->() noexcept { return std::addressof(held); }

    /// Address of the value held.
    [[nodiscard]] constexpr const value_type *operator->() const noexcept { return std::addressof(held); }

    /// The value held.
    [[nodiscard]] constexpr reference operator*() noexcept { return held; }

    /// The value held.
    [[nodiscard]] constexpr const value_type &operator*() const noexcept { return held; }

private:
    Type held;
};

/// Counts up from a starting integer; dereferencing gives the current count.
template<typename Type>
class iota_iterator final {
    static_assert(std::is_integral_v<Type>, "iota_iterator: the value type must be an integer type");

public:
    /// Type of the values.
    using value_type = Type;
    /// Signed distance between two iterators.
    using difference_type = std::ptrdiff_t;
    /// No pointer: the values are computed.
    using pointer = void;
    /// Values are returned by value.
    using reference = value_type;
    /// An input iterator.
    using iterator_category = std::input_iterator_tag;
    /// An input iterator.
    using iterator_concept = std::input_iterator_tag;

    /// Starts at zero.
    constexpr iota_iterator() noexcept : current{} {}

    /// Starts at the given value.
    constexpr iota_iterator(const value_type init) noexcept : current{init} {}

    /// Moves to the next value.
    constexpr iota_iterator &operator++() noexcept { return ++current, *this; }

    /// Moves to the next value and returns the previous position.
    constexpr iota_iterator operator++(int) noexcept {
        const auto orig = *this;
        return ++(*this), orig;
    }

    /// The current value.
    [[nodiscard]] constexpr reference operator*() const noexcept { return current; }

    /// Same current value.
    [[nodiscard]] constexpr bool operator==(const iota_iterator &) const noexcept = default;

private:
    value_type current{};
};

/// A range made of an iterator and a sentinel, as returned by every `each()` of the library.
template<typename It, typename Sentinel = It>
struct iterable_adaptor final {
    /// Type of the elements.
    using value_type = typename std::iterator_traits<It>::value_type;
    /// Iterator type.
    using iterator = It;
    /// Sentinel type.
    using sentinel = Sentinel;

    /// An empty range of default-constructed iterators.
    constexpr iterable_adaptor() noexcept(
        std::is_nothrow_default_constructible_v<iterator> &&std::is_nothrow_default_constructible_v<sentinel>)
        : first{}, last{} {}

    /// The range `[from, to)`.
    constexpr iterable_adaptor(iterator from, sentinel to) noexcept(
        std::is_nothrow_move_constructible_v<iterator> &&std::is_nothrow_move_constructible_v<sentinel>)
        : first{std::move(from)}, last{std::move(to)} {}

    /// First position.
    [[nodiscard]] constexpr iterator begin() const noexcept { return first; }

    /// Past the last position.
    [[nodiscard]] constexpr sentinel end() const noexcept { return last; }

    /// First position.
    [[nodiscard]] constexpr iterator cbegin() const noexcept { return begin(); }

    /// Past the last position.
    [[nodiscard]] constexpr sentinel cend() const noexcept { return end(); }

private:
    It first{};
    Sentinel last{};
};

} // namespace tessera

#endif
