// The position arithmetic of the iterators over packed arrays (sparse_set_iterator.hpp, storage_iterator.hpp). An
// iterator designates a position, not an element, counted down from the back: forward iteration goes from the
// last position to 0, so that appending, or removing the current element (swap and pop), does not disturb it.
// The iterators add only how they reach an element. With TESSERA_DEBUG_ITERATION, stepping also checks the
// iteration rules of docs/thread_safety.md against the log of the set the iterator came from.
#ifndef TESSERA_ENTITY_PACKED_ITERATOR_BASE_HPP
#define TESSERA_ENTITY_PACKED_ITERATOR_BASE_HPP

#include "../config/config.hpp"
#include "checks/iteration_log.hpp"
#include <compare>

namespace tessera::internal {

/// The common part of the iterators over a packed array: a pointer to the array (Pointer), the offset (one past
/// the designated position: 0 is the end) and, with TESSERA_DEBUG_ITERATION, the mark that checks the iteration
/// rules. Derived gives the names its checks report (forward_name, backward_name). Random-access arithmetic and
/// comparisons return and take Derived; iterators of different constness compare through Derived's conversion.
template<typename Derived, typename Pointer, typename Difference>
class packed_iterator_base {
protected:
    // The constructors are forced inline so that, unoptimized, building an iterator costs no more than before
    // the iterators shared this base (one call, not two).
    constexpr packed_iterator_base() noexcept = default;

    TESSERA_FORCE_INLINE constexpr packed_iterator_base(const Pointer ref, const Difference idx) noexcept
        : array{ref}, offset{idx} {}

#if TESSERA_DEBUG_ITERATION
    TESSERA_FORCE_INLINE packed_iterator_base(const Pointer ref, const Difference idx,
                                              const iteration_log *log) noexcept
        : array{ref}, offset{idx}, mark{log, idx - 1} {}

    /// The same position in another array type (a mutable iterator made constant), checks included.
    TESSERA_FORCE_INLINE constexpr packed_iterator_base(const Pointer ref, const Difference idx,
                                                        const iteration_mark &other) noexcept
        : array{ref}, offset{idx}, mark{other} {}
#endif

public:
    constexpr Derived &operator++() {
#if TESSERA_DEBUG_ITERATION
        mark.forward(Derived::forward_name, index());
        --offset;
        mark.take(index());
        return static_cast<Derived &>(*this);
#else
        return --offset, static_cast<Derived &>(*this);
#endif
    }

    constexpr Derived operator++(int) {
        Derived before = static_cast<Derived &>(*this);
        ++*this;
        return before;
    }

    constexpr Derived &operator--() {
#if TESSERA_DEBUG_ITERATION
        mark.backward(Derived::backward_name);
        ++offset;
        mark.take(index());
        return static_cast<Derived &>(*this);
#else
        return ++offset, static_cast<Derived &>(*this);
#endif
    }

    constexpr Derived operator--(int) {
        Derived before = static_cast<Derived &>(*this);
        --*this;
        return before;
    }

    constexpr Derived &operator+=(const Difference value) noexcept {
        offset -= value;
#if TESSERA_DEBUG_ITERATION
        mark.take(index());
#endif
        return static_cast<Derived &>(*this);
    }

    constexpr Derived operator+(const Difference value) const noexcept {
        Derived moved = static_cast<const Derived &>(*this);
        moved += value;
        return moved;
    }

    friend constexpr Derived operator+(const Difference value, const Derived &other) noexcept { return other + value; }

    constexpr Derived &operator-=(const Difference value) noexcept { return (*this += -value); }

    constexpr Derived operator-(const Difference value) const noexcept { return (*this + -value); }

    /// The packed position this iterator designates (-1 for the end).
    [[nodiscard]] constexpr Difference index() const noexcept { return offset - 1; }

    [[nodiscard]] friend constexpr Difference operator-(const Derived &lhs, const Derived &rhs) noexcept {
        return rhs.offset - lhs.offset;
    }

    [[nodiscard]] friend constexpr bool operator==(const Derived &lhs, const Derived &rhs) noexcept {
        return lhs.offset == rhs.offset;
    }

    [[nodiscard]] friend constexpr auto operator<=>(const Derived &lhs, const Derived &rhs) noexcept {
        return rhs.offset <=> lhs.offset;
    }

protected:
    /// The packed array (or the table of its pages).
    Pointer array{};
    /// One past the designated position.
    Difference offset{};
#if TESSERA_DEBUG_ITERATION
    /// Checks the iteration rules when the iterator steps.
    iteration_mark mark{};
#endif
};

} // namespace tessera::internal

#endif
