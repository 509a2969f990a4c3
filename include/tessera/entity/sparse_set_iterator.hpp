// The iterator of sparse sets: a position in a packed array, walked from the back, so that appending or removing
// the current identifier does not disturb it.
#ifndef TESSERA_ENTITY_SPARSE_SET_ITERATOR_HPP
#define TESSERA_ENTITY_SPARSE_SET_ITERATOR_HPP

#include "../config/config.hpp"
#include "checks/iteration_log.hpp"
#include "packed_iterator_base.hpp"
#include <cstddef>
#include <iterator>
#include <memory>

namespace tessera {

namespace internal {

/// Random-access iterator over a packed array. It designates a position, not an element: forward iteration
/// goes from the last position down to 0, so elements appended or the current one removed do not disturb it.
/// With TESSERA_DEBUG_ITERATION, iterators handed out by a set check the iteration rules when they step.
template<typename Container>
class sparse_set_iterator final : public packed_iterator_base<sparse_set_iterator<Container>, const Container *,
                                                              typename Container::difference_type> {
    using base_type =
        packed_iterator_base<sparse_set_iterator<Container>, const Container *, typename Container::difference_type>;
    friend base_type;

    static constexpr const char *forward_name = "sparse_set iterator";
    static constexpr const char *backward_name = "sparse_set iterator (reverse)";

public:
    using value_type = typename Container::value_type;
    using pointer = typename Container::const_pointer;
    using reference = typename Container::const_reference;
    using difference_type = typename Container::difference_type;
    using iterator_category = std::random_access_iterator_tag;

    constexpr sparse_set_iterator() noexcept = default;

    constexpr sparse_set_iterator(const Container &ref, const difference_type idx) noexcept : base_type{&ref, idx} {}

#if TESSERA_DEBUG_ITERATION
    /// TESSERA_DEBUG_ITERATION only: an iterator that checks the iteration rules against the log of its set.
    sparse_set_iterator(const Container &ref, const difference_type idx, const iteration_log *log) noexcept
        : base_type{&ref, idx, log} {}

    /// TESSERA_DEBUG_ITERATION only: a copy that checks nothing, for the set's own loops that remove as they go.
    [[nodiscard]] sparse_set_iterator unwatched() const noexcept {
        sparse_set_iterator copy = *this;
        copy.mark = {};
        return copy;
    }
#endif

    [[nodiscard]] constexpr reference operator[](const difference_type value) const noexcept {
        return (*this->array)[static_cast<typename Container::size_type>(this->index() - value)];
    }

    [[nodiscard]] constexpr pointer operator->() const noexcept { return this->array->data() + this->index(); }

    [[nodiscard]] constexpr reference operator*() const noexcept { return *operator->(); }

    /// Pointer to the first element of the packed array.
    [[nodiscard]] constexpr pointer data() const noexcept { return this->array ? this->array->data() : nullptr; }
};

} // namespace internal

} // namespace tessera

#endif
