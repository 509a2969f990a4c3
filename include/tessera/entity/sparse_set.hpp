// The sparse set: a paged sparse array of positions and a packed array of identifiers. It is the base class of
// every pool, and what type-agnostic code (the registry, runtime views, snapshots) works through.
//
// In this file, in order: sparse_access (what the iteration engine reads past the public interface), the iterators
// over packed arrays, the class, then the members defined after it, by what they do: insertion, removal, the
// disabled tail of enable/disable, and reordering.
#ifndef TESSERA_ENTITY_SPARSE_SET_HPP
#define TESSERA_ENTITY_SPARSE_SET_HPP

#include "../config/config.hpp"
#include "../config/std_parts.hpp"
#include "../core/algorithm.hpp"
#include "../core/any.hpp"
#include "../core/type_info.hpp"
#include "checks/iteration_log.hpp"
#include "checks/race_guard.hpp"
#include "entity.hpp"
#include "fwd.hpp"
#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

// What the iteration engine and the storages read of a sparse set past its public interface: the page arithmetic
// (fast_mod) and one read of the sparse array where contains() then index() read it twice.
namespace tessera {

namespace internal {

/// Fast modulo for powers of two.
[[nodiscard]] TESSERA_FORCE_INLINE constexpr std::size_t fast_mod(const std::size_t value,
                                                                  const std::size_t mod) noexcept {
    return value & (mod - 1u);
}

/// What the iteration engine (engine/block_walk.hpp) reads of a sparse set past its public interface: one read of the
/// sparse array where contains() then index() read it twice.
struct sparse_access {
    /// The packed position of an identifier, or size_t(-1) if the set does not contain it: the test of contains().
    template<typename Entity, typename Allocator>
    [[nodiscard]] TESSERA_FORCE_INLINE static std::size_t position(const basic_sparse_set<Entity, Allocator> &set,
                                                                   const Entity entt) noexcept {
        using traits_type = entt_traits<Entity>;
        using bits_type = typename traits_type::entity_type;
        constexpr bits_type index_bits = traits_type::entity_mask;
        constexpr auto page_size = traits_type::page_size;
        const auto index = static_cast<std::size_t>(traits_type::to_entity(entt));

        // A slot keeps a packed position in its index bits and the stored identifier's version above them; a free
        // slot holds null. Taking entt's version bits away from the slot leaves a position below the index mask
        // only when the versions agree (any other version borrows or carries past the index bits) and the slot is
        // not free (null's index is the mask itself).
        // the pages through one pointer: a build without optimization calls vector::operator[] for each use
        if (const auto page = index / page_size; page < set.sparse.size()) {
            const auto *const entries = set.sparse.data()[page];

            if (entries == nullptr) {
                return static_cast<std::size_t>(-1);
            }

            const auto version_bits = static_cast<bits_type>(traits_type::to_integral(entt) & ~index_bits);
            const auto slot = traits_type::to_integral(entries[fast_mod(index, page_size)]);

            if (const auto pos = static_cast<bits_type>(slot - version_bits); pos < index_bits) {
                return static_cast<std::size_t>(pos);
            }
        }

        return static_cast<std::size_t>(-1);
    }

    /// True if an owning group owns the set: it exchanges positions when entities join or leave it, which the rules
    /// of docs/thread_safety.md allow while another storage leads an iteration that reads this one.
    template<typename Entity, typename Allocator>
    [[nodiscard]] static bool grouped(const basic_sparse_set<Entity, Allocator> &set) noexcept {
        return set.grouped;
    }

    /// Records whether an owning group owns the set (its handler, while it lives).
    template<typename Entity, typename Allocator>
    static void group(basic_sparse_set<Entity, Allocator> &set, const bool value) noexcept {
        set.grouped = value;
    }

    /// The packed position of an identifier the set contains, without a check.
    template<typename Entity, typename Allocator>
    [[nodiscard]] TESSERA_FORCE_INLINE static std::size_t index(const basic_sparse_set<Entity, Allocator> &set,
                                                                const Entity entt) {
        return static_cast<std::size_t>(entt_traits<Entity>::to_entity(set.sparse_ref(entt)));
    }
};

} // namespace internal

} // namespace tessera

// The iterators over packed arrays: the position arithmetic they share (the storages' iterators build on it too),
// then the iterator of sparse sets. An iterator designates a position, counted down from the back, so that appending
// or removing the current identifier does not disturb it.
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

namespace tessera {

/// The sparse set: O(1) insertion, removal and membership test for identifiers, kept in a packed array.
/// Derived storages attach elements to the packed positions and are notified through protected virtual hooks.
template<typename Entity, typename Allocator>
class TESSERA_RACES_ABI basic_sparse_set
#if TESSERA_DEBUG_ITERATION
    : public internal::iteration_log
#endif
{
    using alloc_traits = std::allocator_traits<Allocator>;
    static_assert(std::is_same_v<typename alloc_traits::value_type, Entity>, "basic_sparse_set: invalid allocator");
    using sparse_container_type = std::vector<Entity *, typename alloc_traits::template rebind_alloc<Entity *>>;
    using packed_container_type = std::vector<Entity, Allocator>;
    using traits_type = entt_traits<Entity>;
    using underlying_type = typename traits_type::entity_type;

    static constexpr auto max_size = static_cast<std::size_t>(traits_type::entity_mask);

    friend struct internal::sparse_access;

public:
    /// Allocator type.
    using allocator_type = Allocator;
    /// Identifier type.
    using entity_type = typename traits_type::value_type;
    /// Version type.
    using version_type = typename traits_type::version_type;
    /// Unsigned integer type.
    using size_type = std::size_t;
    /// Signed integer type.
    using difference_type = std::ptrdiff_t;
    /// Pointer into the packed array.
    using pointer = typename packed_container_type::const_pointer;
    /// Random-access iterator over the packed array.
    using iterator = internal::sparse_set_iterator<packed_container_type>;
    /// Constant random-access iterator over the packed array.
    using const_iterator = iterator;
    /// Reverse iterator (insertion order).
    using reverse_iterator = std::reverse_iterator<iterator>;
    /// Constant reverse iterator.
    using const_reverse_iterator = std::reverse_iterator<const_iterator>;

protected:
    /// Iterator type the hooks receive.
    using basic_iterator = iterator;

private:
    [[nodiscard]] entity_type *sparse_ptr(const entity_type entt) const noexcept {
        const auto pos = static_cast<size_type>(traits_type::to_entity(entt));
        const auto page = pos / traits_type::page_size;
        return (page < sparse.size() && sparse[page]) ? (sparse[page] + internal::fast_mod(pos, traits_type::page_size))
                                                      : nullptr;
    }

    [[nodiscard]] TESSERA_FORCE_INLINE entity_type &sparse_ref(const entity_type entt) const {
        TESSERA_ASSERT(sparse_ptr(entt), "sparse_set: the identifier is not in the set");
        const auto pos = static_cast<size_type>(traits_type::to_entity(entt));
        return sparse[pos / traits_type::page_size][internal::fast_mod(pos, traits_type::page_size)];
    }

    [[nodiscard]] auto to_iterator(const entity_type entt) const {
        return end() - static_cast<difference_type>(index(entt) + 1u);
    }

    // True if the iterator walks this set's packed array. Iterators of two sets with no packed memory at all look
    // alike, but then both ranges are empty.
    [[nodiscard]] bool owns(const iterator &it) const noexcept { return it.data() == packed.data(); }

    // Allocates sparse page `page`, growing the table of pages first if needed. Kept out of assure_at_least, so
    // that the check that runs on every insertion stays small enough to be inlined.
    entity_type *allocate_sparse_page(const size_type page) {
        if (sparse.size() <= page) {
            sparse.resize(page + 1u, nullptr);
        }

        entity_type *&entries = sparse[page];
        if (entries == nullptr) {
            auto page_allocator{packed.get_allocator()};
            entity_type *const fresh = alloc_traits::allocate(page_allocator, traits_type::page_size);
            // every slot of a new page is free
            std::uninitialized_fill_n(fresh, traits_type::page_size, entity_type{null});
            entries = fresh;
        }

        return entries;
    }

    [[nodiscard]] TESSERA_FORCE_INLINE entity_type &assure_at_least(const entity_type entt) {
        const auto pos = static_cast<size_type>(traits_type::to_entity(entt));
        const auto page = pos / traits_type::page_size;
        entity_type *elements = (page < sparse.size()) ? sparse[page] : nullptr;

        if (elements == nullptr) [[unlikely]] {
            elements = allocate_sparse_page(page);
        }

        return elements[internal::fast_mod(pos, traits_type::page_size)];
    }

    void release_sparse_page(const size_type page) {
        if (sparse[page]) {
            auto page_allocator{packed.get_allocator()};
            std::destroy(sparse[page], sparse[page] + traits_type::page_size);
            alloc_traits::deallocate(page_allocator, sparse[page], traits_type::page_size);
            sparse[page] = nullptr;
        }
    }

    void release_sparse_pages() {
        for (size_type page{}; page < sparse.size(); ++page) {
            release_sparse_page(page);
        }
    }

    void swap_at(const size_type lhs, const size_type rhs) {
        ++edits;
        auto &from = packed[lhs];
        auto &to = packed[rhs];

        sparse_ref(from) = traits_type::combine(static_cast<underlying_type>(rhs), traits_type::to_integral(from));
        sparse_ref(to) = traits_type::combine(static_cast<underlying_type>(lhs), traits_type::to_integral(to));

        std::swap(from, to);
    }

    [[nodiscard]] size_type iterated_size() const noexcept {
        return mode == deletion_policy::swap_only ? head : packed.size() - disabled;
    }

protected:
    /// Exchanges the elements at two packed positions. If the slot at `to` is a hole (in-place policy), the element
    /// at `from` is moved there instead. Plain sets have no elements, so the default does nothing.
    virtual void swap_or_move([[maybe_unused]] const size_type from, [[maybe_unused]] const size_type to) {}

    /// With some disabled (see disable()): moves the last `count` identifiers appended into the enabled
    /// region, ahead of the disabled tail. Returns the position of the last one.
    size_type settle_appended(const size_type count);
    /// With some disabled: moves an enabled identifier at `pos` into the disabled tail before a swap-and-pop
    /// removal, which fills the slot from the back. Returns its new position.
    size_type prepare_removal(const size_type pos);
    /// Enables (`value`) or disables an identifier; false if it was so already. Mixins publish around it.
    virtual bool switch_state(const entity_type entt, const bool value);

    /// First half of a removal from an appending set: the identifier leaves the sparse array, so contains() is
    /// false from here on, while its packed slot stays as it is until close_swap_and_pop or close_in_place.
    /// Storages destroy the element in between: its destructor sees a pool that no longer holds its entity.
    /// Returns the packed position of the identifier.
    size_type unlink(const entity_type entt) {
        TESSERA_ASSERT(contains(entt), "sparse_set: erasing an identifier that is not in the set");
        return static_cast<size_type>(traits_type::to_entity(std::exchange(sparse_ref(entt), null)));
    }

    /// Second half of a swap-and-pop removal of `entt`, unlinked from position `pos`: the last identifier moves
    /// into the slot. The back is read now, so identifiers appended since unlink are handled too.
    void close_swap_and_pop(const size_type pos, [[maybe_unused]] const entity_type entt);

    /// Second half of an in-place removal from position `pos`: the slot becomes a hole at the head of the free
    /// list.
    void close_in_place(const size_type pos) {
        TESSERA_ASSERT(mode == deletion_policy::in_place, "sparse_set: deletion policy mismatch");
        ++edits;
        packed[pos] = traits_type::combine(static_cast<underlying_type>(head), tombstone);
        head = pos;
    }

    /// Removes the entity at `it` from a swap-and-pop set.
    void swap_and_pop(const basic_iterator it) {
        const auto entt = *it;

        if (disabled != 0u) {
            prepare_removal(index(entt));
        }

        close_swap_and_pop(unlink(entt), entt);
    }

    /// Removes the entity at `it` from an in-place set: the slot becomes a hole at the head of the free list.
    void in_place_pop(const basic_iterator it) { close_in_place(unlink(*it)); }

    /// Takes back the identifier at the last packed position of an appending set. It undoes an append that could
    /// not be completed, so an in-place set gets no hole out of it.
    void pop_back_entity() {
        TESSERA_ASSERT(mode != deletion_policy::swap_only && !packed.empty() && packed.back() != tombstone,
                       "sparse_set: pop_back_entity needs an identifier at the back of an appending set");
        ++edits;
        sparse_ref(packed.back()) = null;
        packed.pop_back();
    }

    /// Releases the identifier at `it` of a swap-only set: it takes its next version. One in use moves to the front
    /// of the released region, where the next push or generate() takes it back. One already released (contains()
    /// reports it, with the version it would come back with) only takes its next version again, where it is, so
    /// that a range over the released region visits each identifier once.
    void swap_only_pop(const basic_iterator it) { swap_only_pop_at(index(*it)); }

    /// swap_only_pop for the identifier at packed position `pos`: one write per slot, where bumping the version and
    /// exchanging positions would look the identifiers up once each.
    TESSERA_FORCE_INLINE void swap_only_pop_at(const size_type pos) {
        TESSERA_ASSERT(mode == deletion_policy::swap_only, "sparse_set: deletion policy mismatch");
        const auto entt = packed[pos];
        const auto next = traits_type::next(entt);
#if TESSERA_DEBUG_ITERATION
        note_change(entt);
#endif
        ++edits;
        auto to = pos;

        if (pos < head) {
            // the last identifier in use takes the slot; a released identifier is the first of the released region
            to = --head;
            const auto other = packed[to];
            packed[pos] = other;
            sparse_ref(other) =
                traits_type::combine(static_cast<underlying_type>(pos), traits_type::to_integral(other));
        }

        packed[to] = next;
        sparse_ref(entt) = traits_type::combine(static_cast<underlying_type>(to), traits_type::to_integral(next));
    }

    /// Forgets the released identifiers of a swap-only set (positions [free_list(), size())) whose index is not
    /// below `bound`: they leave the packed array and the sparse array, as if never generated. The others keep
    /// their order, so recycling still takes them back most recent first. The identifiers in use do not move.
    void forget_released_from(const size_type bound);

    /// Removes the entities in [first, last) following the deletion policy; elements are not touched.
    void policy_pop(basic_iterator first, basic_iterator last);

    /// Removes the entities in [first, last) and, in derived classes, their elements.
    virtual void pop(basic_iterator first, basic_iterator last) { policy_pop(first, last); }

    /// The loop of pop_listed: calls `erase_one(entt, pos)` for each identifier of [first, last), a range of
    /// another packed array, that this set holds at position `pos`; an identifier it does not hold is skipped if
    /// `skip_absent`, a misuse otherwise. Each identifier is read just before it is erased. Returns the count.
    template<typename Func>
    size_type for_each_listed(basic_iterator first, basic_iterator last, const bool skip_absent, Func erase_one);

    /// Removes the identifiers that [first, last), a range of another set's packed array, lists: each is looked
    /// up here by identifier, never by its position there. All of them must be in the set, unless `skip_absent`.
    /// Returns how many were removed. One call per range: derived classes loop inside, without a virtual call per
    /// identifier.
    virtual size_type pop_listed(basic_iterator first, basic_iterator last, const bool skip_absent);

    /// True if the identifier's index is present, whatever its version.
    [[nodiscard]] bool has_index(const entity_type entt) const noexcept {
        const auto *elem = sparse_ptr(entt);
        return elem && (traits_type::to_entity(*elem) != traits_type::entity_mask);
    }

    /// Removes every entity and, in derived classes, every element.
    virtual void pop_all();

    /// Adds an entity. `force_back` skips the in-place free list; `value` is the element to copy, if any.
    /// Derived storages construct their element and return end() if they cannot.
    virtual basic_iterator try_emplace(const entity_type entt, const bool force_back,
                                       [[maybe_unused]] const void *value) {
        const auto it = push_entity(entt, force_back);
        return disabled == 0u ? it : end() - static_cast<difference_type>(settle_appended(1u) + 1u);
    }

    /// Adds every identifier of [first, last) at the back, each with a copy of *value (an element built by default
    /// when value is null), in one call: what clone and prototypes copy through (clone.hpp, prototype.hpp).
    /// Derived storages construct their elements in bulk and return end(), adding nothing, if they cannot build
    /// them that way; otherwise an iterator to the last identifier added, or end() for an empty range.
    virtual basic_iterator try_insert(const entity_type *first, const entity_type *last, const void *value) {
        auto curr = end();

        // not through the virtual try_emplace: a mixin that overrides both would publish twice
        for (; first != last; ++first) {
            curr = basic_sparse_set::try_emplace(*first, true, value);
        }

        return curr;
    }

    /// Adds an entity to the packed array under the deletion policy `Policy`, which must be the set's own. Storages
    /// know their policy at compile time and skip the dispatch on it this way.
    template<deletion_policy Policy>
    basic_iterator push_entity_as(const entity_type entt, const bool force_back);

    /// Adds an entity to the packed array, with the policy's placement rules. Strong exception guarantee.
    basic_iterator push_entity(const entity_type entt, const bool force_back);

    /// Hands a value to derived classes (the registry binds itself this way). Plain sets ignore it.
    virtual void bind_any([[maybe_unused]] any value) noexcept {}

    /// Opaque pointer to the element at a packed position; nullptr for sets without elements.
    [[nodiscard]] virtual const void *get_at([[maybe_unused]] const size_type pos) const { return nullptr; }

    /// Leaves the set empty, as a moved-from set is: its sparse pages go back to its own allocator.
    void release_memory() {
        ++edits;
        release_sparse_pages();
        sparse.clear();
        packed.clear();
        head = policy_to_head();
        disabled = 0u;
#if TESSERA_DEBUG_ITERATION
        note_rearrangement(true);
#endif
    }

    /// True if a set using `lhs` can release memory that `rhs` allocated, so that a move can take it over.
    [[nodiscard]] static bool shares_memory(const allocator_type &lhs, const allocator_type &rhs) noexcept {
        return alloc_traits::is_always_equal::value || lhs == rhs;
    }

    /// Tag of the constructor behind allocator-extended moves.
    struct relocate_t {};

    /// Allocator-extended move, first step: takes the memory of `other` when `allocator` can release it,
    /// otherwise copies its identifiers, position for position, into memory from `allocator`. Either way the
    /// caller empties `other` afterwards with release_memory(); a derived class moves its elements in between,
    /// while `other` still has them.
    basic_sparse_set(relocate_t, basic_sparse_set &other, const allocator_type &allocator)
        : sparse{allocator}, packed{allocator}, info_{other.info_}, mode{other.mode}, head{other.head},
          disabled{other.disabled}, edits{other.edits + 1u} {
        if (shares_memory(allocator, other.get_allocator())) {
            sparse = std::move(other.sparse);
            packed = std::move(other.packed);
        } else {
            copy_identifiers(other);
        }
    }

private:
    // Copies the sparse pages and the packed array of `other` into memory from this set's allocator. On failure
    // this set gives back what it took and `other` is untouched.
    void copy_identifiers(const basic_sparse_set &other) {
        try {
            sparse.resize(other.sparse.size(), nullptr);

            for (size_type page{}; page < other.sparse.size(); ++page) {
                if (other.sparse[page]) {
                    std::copy_n(other.sparse[page], traits_type::page_size, allocate_sparse_page(page));
                }
            }

            packed.assign(other.packed.cbegin(), other.packed.cend());
        } catch (...) {
            release_sparse_pages();
            throw;
        }
    }

    [[nodiscard]] constexpr size_type policy_to_head() const noexcept {
        return mode == deletion_policy::swap_only ? size_type{} : max_size;
    }

public:
    /// Default constructor: an empty swap-and-pop set.
    basic_sparse_set() : basic_sparse_set{type_id<void>()} {}

    /// Constructs an empty swap-and-pop set with the given allocator.
    explicit basic_sparse_set(const allocator_type &allocator)
        : basic_sparse_set{type_id<void>(), deletion_policy::swap_and_pop, allocator} {}

    /// Constructs an empty set with the given deletion policy.
    explicit basic_sparse_set(const deletion_policy pol, const allocator_type &allocator = {})
        : basic_sparse_set{type_id<void>(), pol, allocator} {}

    /// Constructs an empty set for elements of the given type.
    explicit basic_sparse_set(const type_info &elem, const deletion_policy pol = deletion_policy::swap_and_pop,
                              const allocator_type &allocator = {})
        : sparse{allocator}, packed{allocator}, info_{&elem}, mode{pol}, head{policy_to_head()} {
        TESSERA_ASSERT(traits_type::version_mask || mode != deletion_policy::in_place,
                       "sparse_set: in-place deletion needs identifiers with version bits");
    }

    basic_sparse_set(const basic_sparse_set &) = delete;

    /// Move constructor: the source is left empty.
    basic_sparse_set(basic_sparse_set &&other) noexcept
        : sparse{std::move(other.sparse)}, packed{std::move(other.packed)}, info_{other.info_}, mode{other.mode},
          head{std::exchange(other.head, policy_to_head())}, disabled{std::exchange(other.disabled, 0u)},
          edits{other.edits + 1u} {
        other.sparse.clear();
        other.packed.clear();
        ++other.edits;
#if TESSERA_DEBUG_ITERATION
        other.note_rearrangement(true);
#endif
    }

    /// Allocator-extended move constructor: the source is left empty. When `allocator` cannot release the
    /// source's memory, the identifiers are copied into memory of its own (which may throw; the source is then
    /// left as it was) and the source's memory goes back to the source's allocator.
    basic_sparse_set(basic_sparse_set &&other, const allocator_type &allocator)
        : basic_sparse_set{relocate_t{}, other, allocator} {
        other.release_memory();
    }

    /// Destructor.
    virtual ~basic_sparse_set() { release_sparse_pages(); }

    basic_sparse_set &operator=(const basic_sparse_set &) = delete;

    /// Move assignment: the source is left empty. As with the standard containers, when the allocator neither
    /// propagates on move assignment nor compares equal to the source's, the identifiers are copied into memory
    /// of this set's own allocator (which may throw; then both sets are left as they were), and the source's
    /// memory goes back to the source's allocator. Otherwise the source's memory is taken over.
    // noexcept only when it cannot fail: it copies, and may throw, when the allocators cannot share memory
    // NOLINTBEGIN(bugprone-exception-escape)
    basic_sparse_set &
    operator=(basic_sparse_set &&other) noexcept(alloc_traits::propagate_on_container_move_assignment::value ||
                                                 alloc_traits::is_always_equal::value) {
        if (this == &other) {
            return *this;
        }

        // a compile-time branch, so that allocators that never copy have no throwing path at all
        if constexpr (!(alloc_traits::propagate_on_container_move_assignment::value ||
                        alloc_traits::is_always_equal::value)) {
            if (!shares_memory(get_allocator(), other.get_allocator())) {
                basic_sparse_set copy{std::move(other), get_allocator()};
                swap(copy);
                return *this;
            }
        }

        release_sparse_pages();
        sparse = std::move(other.sparse);
        packed = std::move(other.packed);
        info_ = other.info_;
        mode = other.mode;
        head = std::exchange(other.head, other.policy_to_head());
        disabled = std::exchange(other.disabled, 0u);
        edits = std::max(edits, other.edits) + 1u;
        other.sparse.clear();
        other.packed.clear();
        ++other.edits;
#if TESSERA_DEBUG_ITERATION
        note_rearrangement(true);
        other.note_rearrangement(true);
#endif
        return *this;
    }
    // NOLINTEND(bugprone-exception-escape)

    /// Exchanges the contents with another set.
    void swap(basic_sparse_set &other) noexcept {
        sparse.swap(other.sparse);
        packed.swap(other.packed);
        std::swap(info_, other.info_);
        std::swap(mode, other.mode);
        std::swap(head, other.head);
        std::swap(disabled, other.disabled);
        edits = other.edits = std::max(edits, other.edits) + 1u;
#if TESSERA_DEBUG_ITERATION
        note_rearrangement(true);
        other.note_rearrangement(true);
#endif
    }

    /// The allocator.
    [[nodiscard]] constexpr allocator_type get_allocator() const noexcept { return packed.get_allocator(); }

    /// The deletion policy.
    [[nodiscard]] deletion_policy policy() const noexcept { return mode; }

    /// swap_only: the number of identifiers in use; in_place: the most recent hole (the null index if none).
    [[nodiscard]] size_type free_list() const noexcept { return head; }

    /// The number of positions in use, [0, in_use()): the identifiers in use of a swap-only set (its free_list()),
    /// every position of the others (holes of an in-place set included). Iteration visits exactly these positions.
    [[nodiscard]] size_type in_use() const noexcept { return iterated_size(); }

    /// Disables an identifier of a swap-and-pop set: it moves behind the enabled ones, where iteration does not
    /// reach, and keeps its element. O(1), allocates nothing. Returns false if it was disabled already.
    bool disable(const entity_type entt) {
        TESSERA_RACE_WRITE(*this, "disable");
        return switch_state(entt, false);
    }

    /// Enables a disabled identifier again (it joins the enabled region). Returns false if it was enabled.
    bool enable(const entity_type entt) {
        TESSERA_RACE_WRITE(*this, "enable");
        return switch_state(entt, true);
    }

    /// True if the set contains the identifier and it is not disabled.
    [[nodiscard]] bool enabled(const entity_type entt) const noexcept;

    /// Number of disabled identifiers: positions [in_use(), size()) of a swap-and-pop set. Always 0 for the others.
    [[nodiscard]] size_type disabled_size() const noexcept { return disabled; }

    /// Moves the boundary of the in-use region of a swap-only set.
    void free_list(const size_type value) {
        TESSERA_ASSERT(mode == deletion_policy::swap_only && value <= packed.size(),
                       "sparse_set: free_list can only be set on swap-only sets, within size()");
        ++edits;
        head = value;
    }

    /// Reserves room for `cap` identifiers in the packed array.
    virtual void reserve(const size_type cap) {
        TESSERA_RACE_WRITE(*this, "reserve");
        packed.reserve(cap);
    }

    /// Room in the packed array.
    [[nodiscard]] virtual size_type capacity() const noexcept { return packed.capacity(); }

    /// True if listeners watch the set's changes (a storage with signals, one of which has a listener).
    [[nodiscard]] virtual bool observed() const noexcept { return false; }

    /// Releases unused memory: spare packed capacity and sparse pages that hold no identifier.
    virtual void shrink_to_fit() {
        TESSERA_RACE_WRITE(*this, "shrink_to_fit");
        // a page is unused when every entry is empty: finding that out needs no memory, so shrinking neither
        // bypasses the allocator nor fails for lack of memory
        for (size_type page{}; page < sparse.size(); ++page) {
            if (sparse[page] && std::all_of(sparse[page], sparse[page] + traits_type::page_size,
                                            [](const entity_type elem) { return elem == null; })) {
                release_sparse_page(page);
            }
        }

        while (!sparse.empty() && sparse.back() == nullptr) {
            sparse.pop_back();
        }

        sparse.shrink_to_fit();
        packed.shrink_to_fit();
    }

    /// Number of sparse entries that pages currently cover.
    [[nodiscard]] size_type extent() const noexcept { return sparse.size() * traits_type::page_size; }

    /// Number of sparse pages allocated (each holds entt_traits<entity_type>::page_size entries); extent() also
    /// counts the pages of the table that were never allocated.
    [[nodiscard]] size_type sparse_pages() const noexcept {
        return sparse.size() - static_cast<size_type>(std::count(sparse.cbegin(), sparse.cend(), nullptr));
    }

    /// Room in the table of sparse page pointers (the table itself, not the pages).
    [[nodiscard]] size_type sparse_table_capacity() const noexcept { return sparse.capacity(); }

    /// Size of the packed array, holes and released identifiers included.
    [[nodiscard]] size_type size() const noexcept { return packed.size(); }

    /// True if the packed array is empty.
    [[nodiscard]] bool empty() const noexcept { return packed.empty(); }

    /// False only for an in-place set that currently has a hole.
    [[nodiscard]] bool contiguous() const noexcept { return mode != deletion_policy::in_place || head == max_size; }

    /// The packed array: data()[index(e)] == e.
    [[nodiscard]] TESSERA_FORCE_INLINE pointer data() const noexcept { return packed.data(); }

    /// Iterator to the first position iterated (the last packed position).
    [[nodiscard]] iterator begin() const noexcept {
#if TESSERA_DEBUG_ITERATION
        return iterator{packed, static_cast<difference_type>(packed.size()), this};
#else
        return iterator{packed, static_cast<difference_type>(packed.size())};
#endif
    }

    /// Same as begin().
    [[nodiscard]] const_iterator cbegin() const noexcept { return begin(); }

    /// Iterator past the last position iterated (position 0).
    [[nodiscard]] iterator end() const noexcept {
#if TESSERA_DEBUG_ITERATION
        return iterator{packed, {}, this};
#else
        return iterator{packed, {}};
#endif
    }

    /// Same as end().
    [[nodiscard]] const_iterator cend() const noexcept { return end(); }

    /// Reverse iterator to position 0 (insertion order).
    [[nodiscard]] reverse_iterator rbegin() const noexcept { return std::make_reverse_iterator(end()); }

    /// Same as rbegin().
    [[nodiscard]] const_reverse_iterator crbegin() const noexcept { return rbegin(); }

    /// Reverse iterator past the last packed position.
    [[nodiscard]] reverse_iterator rend() const noexcept { return std::make_reverse_iterator(begin()); }

    /// Same as rend().
    [[nodiscard]] const_reverse_iterator crend() const noexcept { return rend(); }

    /// Iterator to the entity, or end() if it is not in the set.
    [[nodiscard]] const_iterator find(const entity_type entt) const noexcept {
        // the position straight from the sparse array: contains() has checked what index() would assert
        return contains(entt) ? end() - (static_cast<difference_type>(traits_type::to_entity(*sparse_ptr(entt))) + 1)
                              : end();
    }

    /// True if the set contains exactly this identifier (same index and version).
    [[nodiscard]] TESSERA_FORCE_INLINE bool contains(const entity_type entt) const noexcept {
        return internal::sparse_access::position(*this, entt) != static_cast<size_type>(-1);
    }

    /// The version stored for the identifier's index, or the tombstone version if the index is absent.
    [[nodiscard]] version_type current(const entity_type entt) const noexcept {
        // No page for the index: it was never used, which reads like a released slot (the tombstone version).
        const entity_type *const slot = sparse_ptr(entt);
        return traits_type::to_version(slot == nullptr ? entity_type{tombstone} : *slot);
    }

    /// The packed position of an identifier in the set.
    [[nodiscard]] TESSERA_FORCE_INLINE size_type index(const entity_type entt) const {
        if constexpr (TESSERA_ASSERT_ENABLED) {
            // one read of the sparse array for the check and the answer (with contains() then sparse_ref(), a
            // build with assertions read it three times)
            const auto pos = internal::sparse_access::position(*this, entt);
            TESSERA_ASSERT(pos != static_cast<size_type>(-1),
                           "sparse_set: index of an identifier that is not in the set");
            return pos;
        } else {
            TESSERA_ASSERT(contains(entt), "sparse_set: index of an identifier that is not in the set");
            return static_cast<size_type>(traits_type::to_entity(sparse_ref(entt)));
        }
    }

    /// The identifier at a packed position.
    [[nodiscard]] entity_type operator[](const size_type pos) const {
        TESSERA_ASSERT(pos < packed.size(), "sparse_set: position out of range");
        return packed[pos];
    }

    /// Opaque pointer to the element of an identifier; nullptr for sets without elements.
    [[nodiscard]] const void *value(const entity_type entt) const { return get_at(index(entt)); }

    /// Opaque pointer to the element of an identifier; nullptr for sets without elements.
    [[nodiscard]] void *value(const entity_type entt) { return const_cast<void *>(std::as_const(*this).value(entt)); }

    /// Adds an identifier; storages copy `elem` into a new element, or default-construct it when elem is null.
    /// Returns end() if the element cannot be built that way.
    iterator push(const entity_type entt, const void *elem = nullptr) {
        TESSERA_RACE_WRITE(*this, "push");
        return try_emplace(entt, false, elem);
    }

    /// Adds every identifier of a range. Returns an iterator to the last one added, or end() for an empty range.
    template<typename It>
    iterator push(It first, It last) {
        TESSERA_RACE_WRITE(*this, "push");
        auto curr = end();

        for (; first != last; ++first) {
            curr = try_emplace(*first, true, nullptr);
        }

        return curr;
    }

    /// Adds every identifier of [first, last) with a copy of the element `elem` points to, as push(entt, elem) does
    /// for one, in a single call to the storage; storages of types without instances take a null elem. Returns
    /// end(), and adds nothing, if the elements cannot be built that way (the type cannot be copied); otherwise an
    /// iterator to the last identifier added.
    iterator push(const entity_type *first, const entity_type *last, const void *elem) {
        TESSERA_RACE_WRITE(*this, "push");
        return try_insert(first, last, elem);
    }

    /// Sets the stored version of the identifier's index to the identifier's version. Emits no signal.
    version_type bump(const entity_type entt) {
        TESSERA_RACE_WRITE(*this, "bump");
        TESSERA_ASSERT(entt != null, "sparse_set: cannot bump the null identifier");
        auto &elem = sparse_ref(entt);
        TESSERA_ASSERT(elem != null, "sparse_set: cannot bump an identifier that is not in the set");
        elem = traits_type::combine(traits_type::to_integral(elem), traits_type::to_integral(entt));
        ++edits;
        packed[static_cast<size_type>(traits_type::to_entity(elem))] = entt;
        return traits_type::to_version(entt);
    }

    /// Removes an identifier that must be in the set.
    void erase(const entity_type entt) {
        TESSERA_RACE_WRITE(*this, "erase");
        const auto it = to_iterator(entt);
        pop(it, it + 1);
    }

    /// Removes every identifier of a range; each must be in the set. The range may come from another set.
    template<typename It>
    void erase(It first, It last);

    /// Removes an identifier if it is in the set. Returns true if it was.
    bool remove(const entity_type entt) { return contains(entt) && (erase(entt), true); }

    /// Removes the identifiers of a range that are in the set. Returns how many were removed.
    template<typename It>
    size_type remove(It first, It last);

    /// Removes every hole of an in-place set, moving elements from the back. No-op for other policies.
    void compact();

    /// Exchanges the positions of two identifiers of the set, and their elements.
    void swap_elements(const entity_type lhs, const entity_type rhs);

    /// Sorts packed positions [0, length): visited in iteration order, they follow `compare` on identifiers.
    template<typename Compare, typename Sort = std_sort, typename... Args>
    void sort_n(const size_type length, Compare compare, Sort algo = Sort{}, Args &&...args);

    /// Sorts the whole set (the identifiers in use for swap-only sets). Afterwards begin()..end() is sorted.
    template<typename Compare, typename Sort = std_sort, typename... Args>
    void sort(Compare compare, Sort algo = Sort{}, Args &&...args);

    /// Places the identifiers of the range that the set contains first in iteration order, in the range's
    /// order. Returns an iterator past that block.
    template<typename It>
    iterator sort_as(It first, It last);

    /// Removes every identifier (and element).
    void clear() {
        TESSERA_RACE_WRITE(*this, "clear");
        pop_all();
    }

    /// The type of the elements, type_id<void>() for plain sets.
    [[nodiscard]] const type_info &info() const noexcept { return *info_; }

    /// A count that grows whenever a packed position that holds an identifier (or a hole) changes: an identifier
    /// removed, moved or given a new version, a hole filled, the set cleared, moved or swapped. Appending at the
    /// back does not count. Two readings that agree mean that the positions the first reading saw still hold the
    /// same identifiers, so conclusions drawn from them (a group's lined-up pools) still hold. Elements can change
    /// without it.
    [[nodiscard]] std::uint64_t revision() const noexcept { return edits; }

    /// Hands a value to the derived classes; mixins take their registry this way.
    template<typename Type>
    void bind(Type &&value) noexcept {
        bind_any(forward_as_any(std::forward<Type>(value)));
    }

#if TESSERA_DEBUG_ITERATION
    // TESSERA_DEBUG_ITERATION only: invalidation detection (design in checks/iteration_log.hpp).

    /// TESSERA_DEBUG_ITERATION only: true if every modification after the count `seen` removed or moved `entt`
    /// (docs/thread_safety.md, iteration rule 2: the current entity may go), or if there was none.
    [[nodiscard]] bool modified_only_at(const size_type seen, const entity_type entt) const noexcept {
        return changed_only(seen, static_cast<std::uint64_t>(traits_type::to_integral(entt)));
    }

    /// TESSERA_DEBUG_ITERATION only: the name of the element type.
    [[nodiscard]] std::string_view logged_name() const noexcept final { return info_->name(); }

    /// TESSERA_DEBUG_ITERATION only: the identifier at a packed position, as an integer.
    [[nodiscard]] bool logged_entity(const size_type pos, std::uint64_t &entt) const noexcept final {
        if (pos < packed.size()) {
            entt = static_cast<std::uint64_t>(traits_type::to_integral(packed[pos]));
            return true;
        }

        return false;
    }

private:
    void note_change(const entity_type entt) noexcept {
        log_change(static_cast<std::uint64_t>(traits_type::to_integral(entt)));
    }

    void note_rearrangement(const bool moved) noexcept {
        if (moved) {
            log_rearrangement();
        }
    }
#endif

#if TESSERA_DEBUG_RACES
public:
    /// TESSERA_DEBUG_RACES only: the pool's race detection (design in checks/race_guard.hpp).
    [[nodiscard]] const internal::race_guard &race_detection() const noexcept { return races; }

private:
    internal::race_guard races;
#endif

private:
    mutable sparse_container_type sparse;
    packed_container_type packed;
    const type_info *info_{};
    deletion_policy mode{};
    // an owning group owns the set (see internal::sparse_access::grouped)
    bool grouped{};
    size_type head{};
    // swap-and-pop sets: how many identifiers at the back are disabled (see disable())
    size_type disabled{};
    // grows with every write to the packed array; see revision()
    std::uint64_t edits{};
};

} // namespace tessera

// How identifiers enter the set: push_entity adds one to the packed array under each deletion policy's placement
// rules (the in-place free list, the swap-only in-use region). Defined `inline`, as in-class definitions are, so
// that compilers weigh inlining them into every insertion the same way.
namespace tessera {

template<typename Entity, typename Allocator>
template<deletion_policy Policy>
inline auto basic_sparse_set<Entity, Allocator>::push_entity_as(const entity_type entt, const bool force_back)
    -> basic_iterator {
    TESSERA_ASSERT(mode == Policy, "sparse_set: deletion policy mismatch");
    TESSERA_ASSERT(entt != null, "sparse_set: the null identifier cannot be added");
    TESSERA_ASSERT(entt != tombstone, "sparse_set: an identifier with the tombstone version cannot be added");
    // appending leaves every position that holds an identifier as it is: no new revision (see revision())
    auto &elem = assure_at_least(entt);
    auto pos = size();

    if constexpr (Policy == deletion_policy::in_place) {
        if (head != max_size && !force_back) {
            TESSERA_ASSERT(elem == null, "sparse_set: the identifier is already in the set");
            ++edits;
            pos = head;
            head = static_cast<size_type>(traits_type::to_entity(packed[pos]));
            packed[pos] = entt;
            elem = traits_type::combine(static_cast<underlying_type>(pos), traits_type::to_integral(entt));
            return --(end() - static_cast<difference_type>(pos));
        }
    }

    if constexpr (Policy != deletion_policy::swap_only) {
        TESSERA_ASSERT(elem == null, "sparse_set: the identifier is already in the set");
        TESSERA_ASSERT(pos < max_size, "sparse_set: too many elements");
        packed.push_back(entt);
        elem = traits_type::combine(static_cast<underlying_type>(pos), traits_type::to_integral(entt));
    } else {
        if (elem == null) {
            TESSERA_ASSERT(pos < max_size, "sparse_set: too many elements");
            packed.push_back(entt);
            elem = traits_type::combine(static_cast<underlying_type>(pos), traits_type::to_integral(entt));
        } else {
            TESSERA_ASSERT(!(traits_type::to_entity(elem) < head), "sparse_set: the identifier is already in use");
            bump(entt);
        }

        // a fresh identifier appended at the end of a fully used set is already in place
        if (const auto from = static_cast<size_type>(traits_type::to_entity(elem)); from != (pos = head++)) {
            swap_at(from, pos);
        }
    }

    return --(end() - static_cast<difference_type>(pos));
}

template<typename Entity, typename Allocator>
inline auto basic_sparse_set<Entity, Allocator>::push_entity(const entity_type entt, const bool force_back)
    -> basic_iterator {
    switch (mode) {
    case deletion_policy::in_place:
        return push_entity_as<deletion_policy::in_place>(entt, force_back);
    case deletion_policy::swap_only:
        return push_entity_as<deletion_policy::swap_only>(entt, force_back);
    case deletion_policy::swap_and_pop:
        break;
    }

    return push_entity_as<deletion_policy::swap_and_pop>(entt, force_back);
}

} // namespace tessera

// How identifiers leave the set: by the deletion policy, by position, by identifier for another set's range (one
// call per range), all at once, and the forgetting of released identifiers.
namespace tessera {

template<typename Entity, typename Allocator>
void basic_sparse_set<Entity, Allocator>::close_swap_and_pop(const size_type pos,
                                                             [[maybe_unused]] const entity_type entt) {
    TESSERA_ASSERT(mode == deletion_policy::swap_and_pop, "sparse_set: deletion policy mismatch");
#if TESSERA_DEBUG_ITERATION
    note_change(entt);
#endif
    ++edits;
    // with identifiers disabled, prepare_removal has moved the one removed into the disabled tail, where the
    // last identifier, disabled too, may fill its slot
    TESSERA_ASSERT(disabled == 0u || !(pos < packed.size() - disabled),
                   "sparse_set: removal of an enabled identifier while some are disabled, without prepare_removal");
    disabled -= static_cast<size_type>(disabled != 0u);

    if (const auto last = packed.back(); pos + 1u != packed.size()) {
        packed[pos] = last;
        sparse_ref(last) = traits_type::combine(static_cast<underlying_type>(pos), traits_type::to_integral(last));
    }

    packed.pop_back();
}

template<typename Entity, typename Allocator>
void basic_sparse_set<Entity, Allocator>::forget_released_from(const size_type bound) {
    TESSERA_ASSERT(mode == deletion_policy::swap_only, "sparse_set: deletion policy mismatch");
    size_type to = head;

    for (size_type from = head; from < packed.size(); ++from) {
        const auto entt = packed[from];

        if (static_cast<size_type>(traits_type::to_entity(entt)) < bound) {
            if (to != from) {
                packed[to] = entt;
                sparse_ref(entt) =
                    traits_type::combine(static_cast<underlying_type>(to), traits_type::to_integral(entt));
            }

            ++to;
        } else {
            sparse_ref(entt) = null;
        }
    }

    if (to != packed.size()) {
        // only the released region changes: iteration, which stops at free_list(), sees nothing move
        ++edits;
        packed.erase(packed.begin() + static_cast<difference_type>(to), packed.end());
    }
}

template<typename Entity, typename Allocator>
void basic_sparse_set<Entity, Allocator>::policy_pop(basic_iterator first, basic_iterator last) {
    switch (mode) {
    case deletion_policy::swap_and_pop:
        for (; first != last; ++first) {
            swap_and_pop(first);
        }
        break;
    case deletion_policy::in_place:
        for (; first != last; ++first) {
            in_place_pop(first);
        }
        break;
    case deletion_policy::swap_only:
        for (; first != last; ++first) {
            swap_only_pop(first);
        }
        break;
    }
}

template<typename Entity, typename Allocator>
template<typename Func>
auto basic_sparse_set<Entity, Allocator>::for_each_listed(basic_iterator first, basic_iterator last,
                                                          [[maybe_unused]] const bool skip_absent, Func erase_one)
    -> size_type {
    size_type count{};

    for (; first != last; ++first) {
        const auto entt = *first;

        if (const auto pos = internal::sparse_access::position(*this, entt); pos != static_cast<size_type>(-1)) {
            erase_one(entt, pos);
            ++count;
        } else {
            TESSERA_ASSERT(skip_absent, "sparse_set: erasing an identifier that is not in the set");
        }
    }

    return count;
}

template<typename Entity, typename Allocator>
auto basic_sparse_set<Entity, Allocator>::pop_listed(basic_iterator first, basic_iterator last, const bool skip_absent)
    -> size_type {
    // the policy is read once, not per identifier
    switch (mode) {
    case deletion_policy::swap_and_pop:
        return for_each_listed(first, last, skip_absent, [this](const entity_type entt, const size_type pos) {
            if (disabled != 0u) {
                prepare_removal(pos);
            }

            close_swap_and_pop(unlink(entt), entt);
        });
    case deletion_policy::in_place:
        return for_each_listed(first, last, skip_absent,
                               [this](const entity_type entt, const size_type) { close_in_place(unlink(entt)); });
    case deletion_policy::swap_only:
        break;
    }

    return for_each_listed(first, last, skip_absent,
                           [this](const entity_type, const size_type pos) { swap_only_pop_at(pos); });
}

template<typename Entity, typename Allocator>
void basic_sparse_set<Entity, Allocator>::pop_all() {
#if TESSERA_DEBUG_ITERATION
    // every identifier leaves; the holes of an in-place set go too, which moves what iteration reads
    if (mode == deletion_policy::in_place) {
        note_rearrangement(!packed.empty());
    } else {
        for (size_type pos{}; pos < iterated_size(); ++pos) {
            note_change(packed[pos]);
        }
    }
#endif
    switch (mode) {
    case deletion_policy::in_place:
        if (head != max_size) {
            for (auto &&elem : packed) {
                if (elem != tombstone) {
                    sparse_ref(elem) = null;
                }
            }
            break;
        }
        [[fallthrough]];
    case deletion_policy::swap_only:
    case deletion_policy::swap_and_pop:
        for (auto &&elem : packed) {
            sparse_ref(elem) = null;
        }
        break;
    }

    ++edits;
    head = policy_to_head();
    disabled = 0u;
    packed.clear();
}

template<typename Entity, typename Allocator>
template<typename It>
void basic_sparse_set<Entity, Allocator>::erase(It first, It last) {
    TESSERA_RACE_WRITE(*this, "erase");
    if constexpr (std::is_same_v<It, basic_iterator>) {
        // positions are only meaningful in the set the iterators belong to; another set's range goes by
        // identifier, in one call
        if (owns(first)) {
            pop(first, last);
        } else {
            pop_listed(first, last, false);
        }
    } else {
        for (; first != last; ++first) {
            erase(*first);
        }
    }
}

template<typename Entity, typename Allocator>
template<typename It>
auto basic_sparse_set<Entity, Allocator>::remove(It first, It last) -> size_type {
    TESSERA_RACE_WRITE(*this, "remove");
    size_type count{};

    if constexpr (std::is_same_v<It, basic_iterator>) {
        if (!owns(first)) {
            // iterators of another set: their positions mean nothing here
            return pop_listed(first, last, true);
        }

#if TESSERA_DEBUG_ITERATION
        // the loop goes on after erasing what it walked over: its own steps are not an iteration to check
        first = first.unwatched();
#endif
        // Consecutive members go in one erase: a single pop per run rather than one per identifier.
        const auto member = [this](const entity_type entt) { return contains(entt); };
        while (first != last) {
            const auto run = std::find_if(first, last, member);
            first = std::find_if_not(run, last, member);
            count += static_cast<size_type>(std::distance(run, first));
            erase(run, first);
        }
    } else {
        for (; first != last; ++first) {
            count += remove(*first);
        }
    }

    return count;
}

} // namespace tessera

// Enabling and disabling without removing: a swap-and-pop set keeps its disabled identifiers in a tail of the packed
// array, behind the enabled ones, the way the entity storage keeps released identifiers after free_list().
// Iteration stops at in_use(), so it never sees the tail and checks nothing per element.
namespace tessera {

template<typename Entity, typename Allocator>
auto basic_sparse_set<Entity, Allocator>::settle_appended(const size_type count) -> size_type {
    // Before: enabled [0, b), disabled [b, b + d), appended [b + d, b + d + count). Exchanging b + i with
    // b + d + i for each i moves every appended identifier to b + i and leaves the disabled ones, in some order,
    // in [b + count, b + count + d): position b + d + i still holds the i-th appended one when its turn comes.
    const size_type first = packed.size() - disabled - count;

    for (size_type step{}; step < count; ++step) {
        swap_or_move(first + disabled + step, first + step);
        swap_at(first + disabled + step, first + step);
    }

    return first + count - 1u;
}

template<typename Entity, typename Allocator>
auto basic_sparse_set<Entity, Allocator>::prepare_removal(const size_type pos) -> size_type {
    if (const auto boundary = packed.size() - disabled; disabled != 0u && pos < boundary) {
        const auto last = boundary - 1u;

        if (pos != last) {
            swap_or_move(pos, last);
            swap_at(pos, last);
        }

        // the identifier is now the first of the tail; close_swap_and_pop takes the count back
        ++disabled;
        return last;
    }

    return pos;
}

template<typename Entity, typename Allocator>
bool basic_sparse_set<Entity, Allocator>::switch_state(const entity_type entt, const bool value) {
    TESSERA_ASSERT(mode == deletion_policy::swap_and_pop,
                   "disable/enable: only swap-and-pop storages can disable (in-place storages promise stable "
                   "positions, the entity storage keeps released identifiers in its tail)");
    TESSERA_ASSERT(contains(entt), "disable/enable: the identifier is not in the set");
    const auto pos = index(entt);
    const auto boundary = packed.size() - disabled;

    if ((pos < boundary) == value) {
        return false;
    }

#if TESSERA_DEBUG_ITERATION
    note_change(entt);
#endif
    // disable: the last enabled identifier takes the slot (a walk going down has visited it already);
    // enable: the first disabled one does
    if (const auto other = value ? boundary : boundary - 1u; pos != other) {
        swap_or_move(pos, other);
        swap_at(pos, other);
    }

    ++edits;
    disabled = value ? disabled - 1u : disabled + 1u;
    return true;
}

template<typename Entity, typename Allocator>
bool basic_sparse_set<Entity, Allocator>::enabled(const entity_type entt) const noexcept {
    const auto pos = internal::sparse_access::position(*this, entt);
    return pos != static_cast<size_type>(-1) && pos < packed.size() - disabled;
}

} // namespace tessera

// How the set changes its order: compact it, exchange two identifiers, sort it, arrange it as a range.
namespace tessera {

template<typename Entity, typename Allocator>
void basic_sparse_set<Entity, Allocator>::compact() {
    TESSERA_RACE_WRITE(*this, "compact");
#if TESSERA_DEBUG_ITERATION
    note_rearrangement(mode == deletion_policy::in_place && head != max_size);
#endif
    if (mode == deletion_policy::in_place) {
        ++edits;
        size_type from = packed.size();
        size_type pos = std::exchange(head, max_size);

        for (; from && packed[from - 1u] == tombstone; --from) {
        }

        while (pos != max_size) {
            if (const auto to = std::exchange(pos, static_cast<size_type>(traits_type::to_entity(packed[pos])));
                to < from) {
                --from;
                swap_or_move(from, to);

                packed[to] = packed[from];
                const auto elem = static_cast<underlying_type>(to);
                sparse_ref(packed[to]) = traits_type::combine(elem, traits_type::to_integral(packed[to]));

                for (; from && packed[from - 1u] == tombstone; --from) {
                }
            }
        }

        packed.erase(packed.begin() + static_cast<difference_type>(from), packed.end());
    }
}

template<typename Entity, typename Allocator>
void basic_sparse_set<Entity, Allocator>::swap_elements(const entity_type lhs, const entity_type rhs) {
    TESSERA_RACE_WRITE(*this, "swap_elements");
    const auto lhs_pos = index(lhs);
    const auto rhs_pos = index(rhs);

    TESSERA_ASSERT(mode != deletion_policy::swap_only || ((lhs_pos < head) == (rhs_pos < head)),
                   "swap_elements: cannot swap an identifier in use with a released one");
    TESSERA_ASSERT((lhs_pos < iterated_size()) == (rhs_pos < iterated_size()),
                   "swap_elements: cannot swap an enabled identifier with a disabled one; enable it first");
#if TESSERA_DEBUG_ITERATION
    log_swap(lhs_pos, rhs_pos);
#endif
    // the elements first (storages move their payload), then the identifiers
    swap_or_move(lhs_pos, rhs_pos);
    swap_at(lhs_pos, rhs_pos);
}

template<typename Entity, typename Allocator>
template<typename Compare, typename Sort, typename... Args>
void basic_sparse_set<Entity, Allocator>::sort_n(const size_type length, Compare compare, Sort algo, Args &&...args) {
    TESSERA_RACE_WRITE(*this, "sort");
    TESSERA_ASSERT((mode != deletion_policy::in_place) || (head == max_size),
                   "sort: the set has holes; call compact() first");
    TESSERA_ASSERT(!(length > packed.size()), "sort: length exceeds the size of the set");
    TESSERA_ASSERT(mode != deletion_policy::swap_only || !(length > head),
                   "sort: length exceeds the identifiers in use of a swap-only set (free_list()); sorting would "
                   "move released identifiers into the in-use region");
    TESSERA_ASSERT(!(length > iterated_size()),
                   "sort: length exceeds the enabled identifiers (in_use()); sorting would move disabled ones among "
                   "the enabled ones");
#if TESSERA_DEBUG_ITERATION
    note_rearrangement(length > 1u);
#endif
    ++edits;

    algo(packed.rend() - static_cast<difference_type>(length), packed.rend(), std::move(compare),
         std::forward<Args>(args)...);

    // Packed is sorted; sparse still says where each element lives. Apply the permutation cycle by cycle:
    // the element first found at `pos` travels along the cycle until the slot that needs it.
    for (size_type pos{}; pos < length; ++pos) {
        for (size_type curr = pos;;) {
            const auto entt = packed[curr];
            const auto src = index(entt);
            sparse_ref(entt) = traits_type::combine(static_cast<underlying_type>(curr), traits_type::to_integral(entt));

            if (src == pos) {
                break;
            }

            swap_or_move(curr, src);
            curr = src;
        }
    }
}

template<typename Entity, typename Allocator>
template<typename Compare, typename Sort, typename... Args>
void basic_sparse_set<Entity, Allocator>::sort(Compare compare, Sort algo, Args &&...args) {
    sort_n(iterated_size(), std::move(compare), std::move(algo), std::forward<Args>(args)...);
}

template<typename Entity, typename Allocator>
template<typename It>
auto basic_sparse_set<Entity, Allocator>::sort_as(It first, It last) -> iterator {
    TESSERA_RACE_WRITE(*this, "sort_as");
    TESSERA_ASSERT((mode != deletion_policy::in_place) || (head == max_size),
                   "sort_as: the set has holes; call compact() first");
    const size_type len = iterated_size();
#if TESSERA_DEBUG_ITERATION
    note_rearrangement(len > 1u && first != last);
#endif
    auto it = end() - static_cast<difference_type>(len);
#if TESSERA_DEBUG_ITERATION
    // the loop swaps below its own position on purpose
    it = it.unwatched();
#endif

    for (const auto other = end(); (it != other) && (first != last); ++first) {
        if (const auto curr = *first; contains(curr) && !(index(curr) >= len)) {
            if (const auto entt = *it; entt != curr) {
                // the element at `it` has to be exchanged with the one of curr
                swap_elements(entt, curr);
            }

            ++it;
        }
    }

#if TESSERA_DEBUG_ITERATION
    // the same position, watched again
    return end() - (end() - it);
#else
    return it;
#endif
}

} // namespace tessera

#endif
