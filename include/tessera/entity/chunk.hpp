// Chunks: a view or a group cut into runs of its leading storage's packed positions, so that each run can be
// iterated on its own, on any thread. view.chunks(size) and group.chunks(size) return a basic_chunk_range;
// tessera/execution/parallel_each.hpp feeds one to oneTBB, and users may hand it to tbb::parallel_for,
// std::for_each(std::execution::par, ...) or any other scheduler.
//
// Chunk i covers positions [i * size, min((i + 1) * size, count)) of the leading storage, where count is the
// number of positions the view or group walks when chunks() is called. The runs depend on i and size only, never
// on a thread count, so work recorded per chunk and applied in chunk order is the same however the chunks were
// scheduled. Inside a chunk the walk goes from high positions to low ones, as each(func) does: visiting the chunks
// from the last to the first visits the entities in the order of each(func).
//
// A chunk copies its view or group (a few pointers) and runs the iteration engine of engine/block_walk.hpp over its
// positions only; blocks stay aligned on the pages, and a chunk boundary inside a block starts or stops the walk
// there. Chunks stay valid while no storage of the view or group changes structurally (docs/views.md,
// docs/groups.md); a chunk whose positions the leading storage no longer reaches fails an assertion.
#ifndef TESSERA_ENTITY_CHUNK_HPP
#define TESSERA_ENTITY_CHUNK_HPP

#include "../config/config.hpp"
#include "../config/std_parts.hpp"
#include "../core/iterator.hpp"
#include "fwd.hpp"
#include <compare>
#include <cstddef>

namespace tessera {

/// Positions [first, last) of the leading storage of a view or a group (Owner), iterated on their own.
template<typename Owner>
class basic_chunk {
public:
    /// The view or group type.
    using owner_type = Owner;
    /// Unsigned integer type.
    using size_type = std::size_t;

    /// A chunk of nothing.
    basic_chunk() noexcept = default;

    /// Chunk number `index` of `owner`, over its leading positions [first, last).
    basic_chunk(const Owner &owner, const size_type index, const size_type first, const size_type last) noexcept
        : source{owner}, place{index}, from{first}, to{last} {}

    /// Calls func(entity, elements...) or func(elements...) for every entity of the view or group at the chunk's
    /// positions: the callback forms of each(func), elements of storages without instances left out.
    template<typename Func>
    void each(Func func) const {
        source.each_range(func, from, to);
    }

    /// The place of the chunk in its range.
    [[nodiscard]] size_type index() const noexcept { return place; }

    /// The number of positions the chunk covers: an upper bound on the entities it visits.
    [[nodiscard]] size_type size_hint() const noexcept { return to - from; }

    /// The first position covered.
    [[nodiscard]] size_type first() const noexcept { return from; }

    /// One past the last position covered.
    [[nodiscard]] size_type last() const noexcept { return to; }

private:
    Owner source{};
    size_type place{};
    size_type from{};
    size_type to{};
};

namespace internal {

/// Random-access iterator over the chunks of a basic_chunk_range. It yields chunks by value (they are made on
/// demand), like the iterators of std::vector<bool>: the category says random access so that parallel algorithms
/// split the range.
template<typename Owner>
class chunk_iterator final {
public:
    using value_type = basic_chunk<Owner>;
    using pointer = input_iterator_pointer<value_type>;
    using reference = value_type;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::random_access_iterator_tag;
    using iterator_concept = std::random_access_iterator_tag;

    constexpr chunk_iterator() noexcept = default;

    /// Points at chunk `index` of `range`.
    chunk_iterator(const basic_chunk_range<Owner> *range, const difference_type index) noexcept
        : owner{range}, pos{index} {}

    [[nodiscard]] reference operator*() const { return (*owner)[static_cast<std::size_t>(pos)]; }

    [[nodiscard]] pointer operator->() const { return operator*(); }

    [[nodiscard]] reference operator[](const difference_type offset) const { return *(*this + offset); }

    chunk_iterator &operator++() noexcept { return ++pos, *this; }

    chunk_iterator operator++(int) noexcept { return chunk_iterator{owner, pos++}; }

    chunk_iterator &operator--() noexcept { return --pos, *this; }

    chunk_iterator operator--(int) noexcept { return chunk_iterator{owner, pos--}; }

    chunk_iterator &operator+=(const difference_type offset) noexcept { return pos += offset, *this; }

    chunk_iterator &operator-=(const difference_type offset) noexcept { return pos -= offset, *this; }

    [[nodiscard]] friend chunk_iterator operator+(chunk_iterator it, const difference_type offset) noexcept {
        return it += offset;
    }

    [[nodiscard]] friend chunk_iterator operator+(const difference_type offset, chunk_iterator it) noexcept {
        return it += offset;
    }

    [[nodiscard]] friend chunk_iterator operator-(chunk_iterator it, const difference_type offset) noexcept {
        return it -= offset;
    }

    [[nodiscard]] friend difference_type operator-(const chunk_iterator &lhs, const chunk_iterator &rhs) noexcept {
        return lhs.pos - rhs.pos;
    }

    [[nodiscard]] friend bool operator==(const chunk_iterator &lhs, const chunk_iterator &rhs) noexcept {
        return lhs.pos == rhs.pos;
    }

    [[nodiscard]] friend std::strong_ordering operator<=>(const chunk_iterator &lhs,
                                                          const chunk_iterator &rhs) noexcept {
        return lhs.pos <=> rhs.pos;
    }

private:
    const basic_chunk_range<Owner> *owner{};
    difference_type pos{};
};

} // namespace internal

/// The chunks of a view or a group (Owner): chunk i covers leading positions [i * size, (i + 1) * size), cut at
/// the count taken when the range was made. A random-access range of basic_chunk values; its iterators refer to
/// the range, which must outlive them.
template<typename Owner>
class basic_chunk_range {
public:
    /// The chunk type.
    using value_type = basic_chunk<Owner>;
    /// Unsigned integer type.
    using size_type = std::size_t;
    /// Signed integer type.
    using difference_type = std::ptrdiff_t;
    /// Random-access iterator yielding chunks by value.
    using iterator = internal::chunk_iterator<Owner>;
    /// Same as iterator: chunks are made on demand and never modified through the range.
    using const_iterator = iterator;

    /// The chunks of `size` positions of the first `count` positions of `owner`'s leading storage.
    basic_chunk_range(const Owner &owner, const size_type size, const size_type count)
        : source{owner}, length{size}, total{count} {
        TESSERA_ASSERT(size != 0u, "chunks: the chunk size must not be 0");
    }

    /// The number of chunks.
    [[nodiscard]] size_type size() const noexcept { return length == 0u ? 0u : (total + length - 1u) / length; }

    /// True if there is no chunk (nothing to iterate).
    [[nodiscard]] bool empty() const noexcept { return size() == 0u; }

    /// The number of positions a chunk covers (the last one may cover fewer).
    [[nodiscard]] size_type chunk_size() const noexcept { return length; }

    /// The number of leading positions the chunks cover together.
    [[nodiscard]] size_type size_hint() const noexcept { return total; }

    /// Chunk `index`.
    [[nodiscard]] value_type operator[](const size_type index) const {
        TESSERA_ASSERT(index < size(), "chunks: the chunk index is out of range");
        const auto first = index * length;
        return value_type{source, index, first, (total - first < length) ? total : first + length};
    }

    /// Iterator to chunk 0.
    [[nodiscard]] iterator begin() const noexcept { return iterator{this, 0}; }

    /// Iterator past the last chunk.
    [[nodiscard]] iterator end() const noexcept { return iterator{this, static_cast<difference_type>(size())}; }

private:
    Owner source;
    size_type length;
    size_type total;
};

} // namespace tessera

#endif
