// The iterator of sparse sets: a position in a packed array, walked from the back, so that appending or removing
// the current identifier does not disturb it.
#ifndef TESSERA_ENTITY_SPARSE_SET_ITERATOR_HPP
#define TESSERA_ENTITY_SPARSE_SET_ITERATOR_HPP

#include "../config/config.hpp"
#include "iteration_log.hpp"
#include <cstddef>
#include <iterator>
#include <memory>

namespace tessera {

namespace internal {

/// Random-access iterator over a packed array. It designates a position, not an element: forward iteration
/// goes from the last position down to 0, so elements appended or the current one removed do not disturb it.
/// With TESSERA_DEBUG_ITERATION, iterators handed out by a set check the iteration rules when they step.
template<typename Container>
class sparse_set_iterator final {
public:
    using value_type = typename Container::value_type;
    using pointer = typename Container::const_pointer;
    using reference = typename Container::const_reference;
    using difference_type = typename Container::difference_type;
    using iterator_category = std::random_access_iterator_tag;

    constexpr sparse_set_iterator() noexcept = default;

    constexpr sparse_set_iterator(const Container &ref, const difference_type idx) noexcept
        : packed{&ref}, offset{idx} {}

#if TESSERA_DEBUG_ITERATION
    /// TESSERA_DEBUG_ITERATION only: an iterator that checks the iteration rules against the log of its set.
    sparse_set_iterator(const Container &ref, const difference_type idx, const iteration_log *log) noexcept
        : packed{&ref}, offset{idx}, mark{log, idx - 1} {}

    /// TESSERA_DEBUG_ITERATION only: a copy that checks nothing, for the set's own loops that remove as they go.
    [[nodiscard]] sparse_set_iterator unwatched() const noexcept {
        sparse_set_iterator copy = *this;
        copy.mark = {};
        return copy;
    }
#endif

    constexpr sparse_set_iterator &operator++() {
#if TESSERA_DEBUG_ITERATION
        mark.forward("sparse_set iterator", index());
        --offset;
        mark.take(index());
        return *this;
#else
        return --offset, *this;
#endif
    }

    constexpr sparse_set_iterator operator++(int) {
        sparse_set_iterator before = *this;
        ++*this;
        return before;
    }

    constexpr sparse_set_iterator &operator--() {
#if TESSERA_DEBUG_ITERATION
        mark.backward("sparse_set iterator (reverse)");
        ++offset;
        mark.take(index());
        return *this;
#else
        return ++offset, *this;
#endif
    }

    constexpr sparse_set_iterator operator--(int) {
        sparse_set_iterator before = *this;
        --*this;
        return before;
    }

    constexpr sparse_set_iterator &operator+=(const difference_type value) noexcept {
        offset -= value;
#if TESSERA_DEBUG_ITERATION
        mark.take(index());
#endif
        return *this;
    }

    constexpr sparse_set_iterator operator+(const difference_type value) const noexcept {
        sparse_set_iterator moved = *this;
        moved += value;
        return moved;
    }

    friend constexpr sparse_set_iterator operator+(const difference_type value,
                                                   const sparse_set_iterator &other) noexcept {
        return other + value;
    }

    constexpr sparse_set_iterator &operator-=(const difference_type value) noexcept { return (*this += -value); }

    constexpr sparse_set_iterator operator-(const difference_type value) const noexcept { return (*this + -value); }

    [[nodiscard]] constexpr reference operator[](const difference_type value) const noexcept {
        return (*packed)[static_cast<typename Container::size_type>(index() - value)];
    }

    [[nodiscard]] constexpr pointer operator->() const noexcept { return packed->data() + index(); }

    [[nodiscard]] constexpr reference operator*() const noexcept { return *operator->(); }

    /// The packed position this iterator designates (-1 for the end).
    [[nodiscard]] constexpr difference_type index() const noexcept { return offset - 1; }

    /// Pointer to the first element of the packed array.
    [[nodiscard]] constexpr pointer data() const noexcept { return packed ? packed->data() : nullptr; }

    [[nodiscard]] friend constexpr difference_type operator-(const sparse_set_iterator &lhs,
                                                             const sparse_set_iterator &rhs) noexcept {
        return rhs.offset - lhs.offset;
    }

    [[nodiscard]] friend constexpr bool operator==(const sparse_set_iterator &lhs,
                                                   const sparse_set_iterator &rhs) noexcept {
        return lhs.offset == rhs.offset;
    }

    [[nodiscard]] friend constexpr auto operator<=>(const sparse_set_iterator &lhs,
                                                    const sparse_set_iterator &rhs) noexcept {
        return rhs.offset <=> lhs.offset;
    }

private:
    const Container *packed{};
    difference_type offset{};
#if TESSERA_DEBUG_ITERATION
    iteration_mark mark{};
#endif
};

} // namespace internal

} // namespace tessera

#endif
