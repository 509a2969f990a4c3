// Storages: sparse sets that attach an element to every identifier. Elements live in pages, so they never move
// when the pool grows. The specializations come with this header from storages/: the instance-less storage (empty
// types, void) in storages/no_instance.hpp, the entity storage in storages/entity_storage.hpp, and the iterators all
// three share in storages/iterators.hpp.
#ifndef TESSERA_ENTITY_STORAGE_HPP
#define TESSERA_ENTITY_STORAGE_HPP

#include "../config/config.hpp"
#include "../config/std_parts.hpp"
#include "../core/iterator.hpp"
#include "../core/type_info.hpp"
#include "../core/type_traits.hpp"
#include "change_tracking.hpp"
#include "checks/iteration_log.hpp"
#include "checks/race_guard.hpp"
#include "component.hpp"
#include "entity.hpp"
#include "fwd.hpp"
#include "paged/page_table.hpp"
#include "sparse_set.hpp"
#include "storages/entity_storage.hpp"
#include "storages/iterators.hpp"
#include "storages/no_instance.hpp"
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tessera {

/// Storage of elements of Type, paged, attached to the identifiers of the base sparse set.
template<typename Type, typename Entity, typename Allocator>
class basic_storage
    : public basic_sparse_set<Entity, typename std::allocator_traits<Allocator>::template rebind_alloc<Entity>> {
    using alloc_traits = std::allocator_traits<Allocator>;
    static_assert(std::is_same_v<typename alloc_traits::value_type, Type>, "basic_storage: invalid allocator");
    static_assert(std::is_same_v<typename alloc_traits::pointer, Type *>,
                  "basic_storage: allocators with fancy pointers are not supported");
    using container_type = internal::page_table<Type, typename alloc_traits::template rebind_alloc<Type *>>;
    using underlying_type = basic_sparse_set<Entity, typename alloc_traits::template rebind_alloc<Entity>>;
    using underlying_iterator = typename underlying_type::basic_iterator;
    using traits_type = component_traits<Type, Entity>;

    static constexpr bool is_pinned_type = !(std::is_move_constructible_v<Type> && std::is_move_assignable_v<Type>);
    static constexpr bool is_trivially_destructible = std::is_trivially_destructible_v<Type>;
    static constexpr std::size_t page_size = traits_type::page_size;
    static constexpr bool tracked = internal::track_changes_of<traits_type, Type>;

    [[nodiscard]] TESSERA_FORCE_INLINE Type &element_at(const std::size_t pos) const noexcept {
        return payload[pos / page_size][internal::fast_mod(pos, page_size)];
    }

    // Trivially destructible elements need no call: leaving it out spares debug builds a call per element and the
    // compiler a loop per component type.
    void destroy_element(const std::size_t pos) const noexcept {
        if constexpr (!is_trivially_destructible) {
            std::destroy_at(std::addressof(element_at(pos)));
        }
    }

    // Pages come in blocks of consecutive pages, one allocation each: a view walks long runs of contiguous
    // memory instead of pages that pools growing in turns have interleaved, which hardware prefetchers lose track
    // of at every page. The blocks grow 1, 1, 2, 4... pages up to TESSERA_PAGE_BLOCK, so a small pool allocates
    // no more than page by page; block boundaries depend on the page index alone, so nothing records them.
    static constexpr std::size_t block_pages = TESSERA_PAGE_BLOCK;

    [[nodiscard]] static constexpr std::size_t block_length(const std::size_t first_page) noexcept {
        return first_page == 0u ? 1u : (first_page < block_pages ? first_page : block_pages);
    }

    // Allocates blocks until page `idx` exists. Kept out of assure_at_least, so that the check that runs on every
    // emplace stays small enough to be inlined.
    TESSERA_NOINLINE void allocate_pages_up_to(const std::size_t idx) {
        allocator_type allocator{get_allocator()};

        // payload.size() is always the first page of a block
        for (auto curr = payload.size(); curr <= idx;) {
            const auto length = block_length(curr);
            payload.reserve(curr + length);
            Type *const block = alloc_traits::allocate(allocator, page_size * length);

            for (std::size_t next{}; next < length; ++next) {
                payload.push_back(block + next * page_size);
            }

            curr += length;
        }
    }

    Type *assure_at_least(const std::size_t pos) {
        const auto idx = pos / page_size;

        if (!(idx < payload.size())) [[unlikely]] {
            allocate_pages_up_to(idx);
        }

        return payload[idx] + internal::fast_mod(pos, page_size);
    }

    // Releases the blocks from page `from` on; `from` must be the first page of a block.
    void release_blocks(std::size_t from) noexcept {
        allocator_type allocator{get_allocator()};

        for (auto curr = from; curr < payload.size();) {
            const auto length = block_length(curr);
            alloc_traits::deallocate(allocator, payload[curr], page_size * length);
            curr += length;
        }

        payload.truncate(from);
    }

    template<typename... Args>
    void construct_at(Type *const ptr, Args &&...args) {
        if constexpr (std::is_aggregate_v<Type> && (sizeof...(Args) != 0u || !std::is_default_constructible_v<Type>)) {
            ::new (static_cast<void *>(ptr)) Type{std::forward<Args>(args)...};
        } else if constexpr (!std::uses_allocator_v<Type, allocator_type>) {
            // what uses-allocator construction comes down to, without instantiating its machinery per type
            ::new (static_cast<void *>(ptr)) Type(std::forward<Args>(args)...);
        } else if constexpr (std::is_constructible_v<Type, std::allocator_arg_t, const allocator_type &, Args...>) {
            // uses-allocator construction: the leading-allocator convention first, then the trailing one
            ::new (static_cast<void *>(ptr)) Type(std::allocator_arg, get_allocator(), std::forward<Args>(args)...);
        } else {
            static_assert(std::is_constructible_v<Type, Args..., const allocator_type &>,
                          "storage: a type that uses the storage's allocator must take it first (after "
                          "std::allocator_arg) or last among its constructor's arguments");
            ::new (static_cast<void *>(ptr)) Type(std::forward<Args>(args)..., get_allocator());
        }
    }

    template<typename... Args>
    TESSERA_FORCE_INLINE underlying_iterator emplace_element(const Entity entt, const bool force_back, Args &&...args) {
        // in-place storages fill a hole unless told to append; an append is undone without leaving a hole behind
        const bool appends = force_back || storage_policy != deletion_policy::in_place || underlying_type::contiguous();
        const auto it = underlying_type::template push_entity_as<storage_policy>(entt, force_back);

        try {
            changes.prepare(static_cast<std::size_t>(it.index()), *this);
            construct_at(assure_at_least(static_cast<std::size_t>(it.index())), std::forward<Args>(args)...);
            changes.stamp_added(static_cast<std::size_t>(it.index()), entt);
        } catch (...) {
            // strong guarantee: the identifier goes away again, no element was built
            if (appends) {
                underlying_type::pop_back_entity();
            } else {
                underlying_type::policy_pop(it, it + 1);
            }

            throw;
        }

        return it;
    }

    // Destroys the elements at positions [from, to), holes excepted.
    void destroy_elements(const std::size_t from, const std::size_t to) const noexcept {
        if constexpr (!is_trivially_destructible) {
            for (auto pos = from; pos < to; ++pos) {
                if (!traits_type::in_place_delete || underlying_type::data()[pos] != tombstone) {
                    destroy_element(pos);
                }
            }
        }
    }

    void shrink_to_size(const std::size_t sz) {
        // the first block that holds no element of [0, sz)
        std::size_t from{};

        for (const auto needed = (sz + page_size - 1u) / page_size; from < needed;) {
            from += block_length(from);
        }

        destroy_elements(sz, underlying_type::size());
        release_blocks(from);
    }

    // For a move between allocators that cannot share memory: builds, in pages of this storage's allocator, an
    // element for every identifier of `other` at the same position (the identifiers were copied already). Elements
    // are moved, or copied when their move may throw and they can be copied, so a failure leaves `other` whole. On
    // failure what was built is destroyed and the pages are given back.
    void take_elements(basic_storage &other) {
        const auto length = underlying_type::size();

        if constexpr (std::is_move_constructible_v<Type>) {
            std::size_t pos{};

            try {
                if (length != 0u) {
                    assure_at_least(length - 1u);
                }

                for (; pos < length; ++pos) {
                    if (!traits_type::in_place_delete || underlying_type::data()[pos] != tombstone) {
                        construct_at(std::addressof(element_at(pos)), std::move_if_noexcept(other.element_at(pos)));
                    }
                }
            } catch (...) {
                destroy_elements(0u, pos);
                release_blocks(0u);
                throw;
            }
        } else {
            TESSERA_ASSERT(length == 0u, "storage: the elements of a pinned type cannot move to the memory of an "
                                         "allocator that compares unequal");
        }
    }

    // Removes the entity at packed position `pos` and destroys the erased element itself. The entity leaves the
    // sparse array first, so the element's destructor finds it gone: removing it again from there does nothing.
    TESSERA_FORCE_INLINE void erase_at(std::size_t pos) {
        const auto entt = underlying_type::data()[pos];

        if constexpr (!traits_type::in_place_delete) {
            if (underlying_type::disabled_size() != 0u) [[unlikely]] {
                pos = underlying_type::prepare_removal(pos);
            }
        }

        if constexpr (traits_type::in_place_delete) {
            underlying_type::unlink(entt);
            destroy_element(pos);
            underlying_type::close_in_place(pos);
        } else if constexpr (std::is_nothrow_move_constructible_v<Type>) {
            underlying_type::unlink(entt);
            destroy_element(pos);
            // read after the destructor ran, which may have appended elements; the last one fills the slot
            const auto back = underlying_type::size() - 1u;

            if (pos == back) {
                underlying_type::close_swap_and_pop(pos, entt);
            } else {
                // the address is taken once: pages do not move, and looking it up again after the call costs
                // a tenth of the erase of a std::string
                Type *const last = std::addressof(element_at(back));
                // parentheses: braces would pick an initializer-list constructor that accepts the element itself
                ::new (static_cast<void *>(std::addressof(element_at(pos)))) Type(std::move(*last));
                changes.fill(pos, back);
                underlying_type::close_swap_and_pop(pos, entt);
                std::destroy_at(last);
            }
        } else {
            // A move that may throw must not find the erased slot empty: the erased element changes places with
            // the last one first (if that throws, nothing is removed and both hold valid values), then it is
            // destroyed behind the end.
            const auto back = underlying_type::size() - 1u;

            if (pos != back) {
                using std::swap;
                swap(element_at(pos), element_at(back));
                changes.exchange(pos, back);
            }

            underlying_type::close_swap_and_pop(underlying_type::unlink(entt), entt);
            destroy_element(back);
        }
    }

    // Room for `count` more identifiers and elements before an insertion. Reserving exactly what one insertion
    // needs would reallocate the packed array on every small insertion (a loop of them is quadratic); growing it
    // at least twofold keeps them amortized. Pages do not move, so they are added exactly as needed.
    template<typename It>
    void reserve_for(const It first, const It last) {
        if constexpr (std::forward_iterator<It>) {
            const auto needed = underlying_type::size() + static_cast<std::size_t>(std::distance(first, last));

            if (const auto room = underlying_type::capacity(); needed > room) {
                underlying_type::reserve(needed < 2u * room ? 2u * room : needed);
            }

            if (needed != 0u) {
                assure_at_least(needed - 1u);
            }
        }
    }

    /// Destroys the last `count` elements, which were just appended, and takes their identifiers back.
    void rollback_back(std::size_t count) {
        for (; count; --count) {
            destroy_element(underlying_type::size() - 1u);
            underlying_type::pop_back_entity();
        }
    }

protected:
    /// Destroys the elements of [first, last) and removes their identifiers.
    void pop(underlying_iterator first, underlying_iterator last) override {
        for (; first != last; ++first) {
            // the iterator designates the packed position: no sparse lookup needed
            erase_at(static_cast<std::size_t>(first.index()));
        }
    }

    /// Destroys the elements of the identifiers a range of another set lists, and removes the identifiers.
    std::size_t pop_listed(underlying_iterator first, underlying_iterator last, const bool skip_absent) override {
        return underlying_type::for_each_listed(first, last, skip_absent,
                                                [this](const Entity, const std::size_t pos) { erase_at(pos); });
    }

    /// Destroys every element and removes every identifier. Each entity leaves the sparse array before its
    /// element is destroyed, as in erase.
    void pop_all() override {
        if constexpr (!is_trivially_destructible) {
            for (auto pos = underlying_type::size(); pos != 0u;) {
                if (const auto entt = underlying_type::data()[--pos];
                    !traits_type::in_place_delete || entt != tombstone) {
                    underlying_type::unlink(entt);
                    destroy_element(pos);
                }
            }
        }

        changes.reset();
        underlying_type::pop_all();
    }

    /// Adds an identifier with a copy of *value (through clone_element under clone_policy::custom), or a
    /// default-constructed element if value is null.
    underlying_iterator try_emplace(const Entity entt, const bool force_back, const void *value) override {
        // A type that cannot be built the way asked for gives end(): the caller reports it.
        if (value == nullptr) {
            if constexpr (std::is_default_constructible_v<Type>) {
                return settled(emplace_element(entt, force_back));
            }
        } else if constexpr (internal::clone_policy_of<traits_type, Type> == clone_policy::custom) {
            return settled(emplace_element(entt, force_back,
                                           internal::clone_copy<traits_type>(*static_cast<const Type *>(value))));
        } else if constexpr (std::is_copy_constructible_v<Type>) {
            return settled(emplace_element(entt, force_back, *static_cast<const Type *>(value)));
        }
        return underlying_type::end();
    }

    /// Adds every identifier of [first, last) with a copy of *value, or a default element when value is null, in
    /// one bulk insert; end(), adding nothing, when the type cannot be built that way. Copies follow the type's
    /// clone policy: clone_policy::custom copies through clone_element (component.hpp).
    underlying_iterator try_insert(const Entity *first, const Entity *last, const void *value) override {
        if (value == nullptr) {
            if constexpr (std::is_default_constructible_v<Type> && std::is_copy_constructible_v<Type>) {
                insert(first, last);
                return last_appended(first, last);
            }
        } else if constexpr (internal::clone_policy_of<traits_type, Type> == clone_policy::custom) {
            insert(first, last, internal::clone_copy_iterator<traits_type, Type>{*static_cast<const Type *>(value)});
            return last_appended(first, last);
        } else if constexpr (std::is_copy_constructible_v<Type>) {
            insert(first, last, *static_cast<const Type *>(value));
            return last_appended(first, last);
        }

        return underlying_type::end();
    }

    // the last of the identifiers [first, last) that an insert appended, now in front of the disabled tail
    [[nodiscard]] underlying_iterator last_appended(const Entity *first, const Entity *last) const noexcept {
        return (first == last)
                   ? underlying_type::end()
                   : underlying_type::end() - static_cast<typename underlying_type::difference_type>(
                                                  underlying_type::size() - underlying_type::disabled_size());
    }

    /// The position of an element just appended at `it`, once it has joined the enabled ones (sparse_set.hpp).
    underlying_iterator settled(const underlying_iterator it) {
        if (underlying_type::disabled_size() == 0u) [[likely]] {
            return it;
        }

        const auto pos = underlying_type::settle_appended(1u);
        return underlying_type::end() - static_cast<typename underlying_type::difference_type>(pos + 1u);
    }

    /// Exchanges two elements, or moves one into a hole.
    void swap_or_move([[maybe_unused]] const std::size_t from, [[maybe_unused]] const std::size_t to) override {
        TESSERA_ASSERT(!is_pinned_type, "storage: elements of a pinned type cannot be moved, sorted or swapped");

        if constexpr (!is_pinned_type) {
            auto &lhs = element_at(from);

            if (traits_type::in_place_delete && underlying_type::data()[to] == tombstone) {
                // parentheses: braces would pick an initializer-list constructor that accepts the element itself
                ::new (static_cast<void *>(std::addressof(element_at(to)))) Type(std::move(lhs));
                std::destroy_at(std::addressof(lhs));
            } else {
                using std::swap;
                swap(lhs, element_at(to));
            }

            changes.exchange(from, to);
        }
    }

    /// A tracked storage takes the address of the registry's tick (sigh_mixin hands it over when bound) and the
    /// registry's order to clamp old ticks (advance_tick).
    void bind_any(any value) noexcept override {
        if constexpr (tracked) {
            if (const auto *const source = any_cast<internal::tick_source>(&value); source) {
                changes.bind(source->tick);
                return;
            }

            if (any_cast<internal::tick_clamp>(&value) != nullptr) {
                changes.clamp();
                return;
            }
        }

        base_type::bind_any(std::move(value));
    }

    /// Opaque pointer to the element at a packed position.
    [[nodiscard]] const void *get_at(const std::size_t pos) const override { return std::addressof(element_at(pos)); }

public:
    /// Allocator type.
    using allocator_type = Allocator;
    /// The common base class.
    using base_type = underlying_type;
    /// Element type.
    using element_type = Type;
    /// Value type.
    using value_type = Type;
    /// Identifier type.
    using entity_type = Entity;
    /// Unsigned integer type.
    using size_type = std::size_t;
    /// Signed integer type.
    using difference_type = std::ptrdiff_t;
    /// The table of page pointers.
    using pointer = typename container_type::pointer;
    /// The constant table of page pointers.
    using const_pointer = const Type *const *;
    /// Random-access iterator over elements.
    using iterator = internal::storage_iterator<container_type, page_size>;
    /// Constant random-access iterator over elements.
    using const_iterator = internal::storage_iterator<const container_type, page_size>;
    /// Reverse iterator over elements.
    using reverse_iterator = std::reverse_iterator<iterator>;
    /// Constant reverse iterator over elements.
    using const_reverse_iterator = std::reverse_iterator<const_iterator>;
    /// Iterable of (entity, element &) tuples.
    using iterable = iterable_adaptor<
        internal::extended_storage_iterator<traits_type::in_place_delete, typename base_type::iterator, iterator>>;
    /// Iterable of (entity, const element &) tuples.
    using const_iterable =
        iterable_adaptor<internal::extended_storage_iterator<traits_type::in_place_delete, typename base_type::iterator,
                                                             const_iterator>>;
    /// Reverse iterable of (entity, element &) tuples.
    using reverse_iterable =
        iterable_adaptor<internal::extended_storage_iterator<traits_type::in_place_delete,
                                                             typename base_type::reverse_iterator, reverse_iterator>>;
    /// Reverse iterable of (entity, const element &) tuples.
    using const_reverse_iterable = iterable_adaptor<internal::extended_storage_iterator<
        traits_type::in_place_delete, typename base_type::reverse_iterator, const_reverse_iterator>>;
    /// The per-element ticks of change detection: empty unless component_traits<Type>::track_changes.
    using tick_column_type = internal::tick_column<tracked, Entity, Allocator>;
    /// The deletion policy of this storage type.
    static constexpr deletion_policy storage_policy =
        traits_type::in_place_delete ? deletion_policy::in_place : deletion_policy::swap_and_pop;

    /// Default constructor.
    basic_storage() : basic_storage{allocator_type{}} {}

    /// Constructs an empty storage with the given allocator.
    explicit basic_storage(const allocator_type &allocator)
        : base_type{type_id<Type>(), storage_policy, allocator}, payload{allocator}, changes{allocator} {}

    basic_storage(const basic_storage &) = delete;

    /// Move constructor: the source is left empty.
    basic_storage(basic_storage &&other) noexcept
        : base_type{std::move(other)}, payload{std::move(other.payload)}, changes{std::move(other.changes)} {}

    /// Allocator-extended move constructor: the source is left empty. When `allocator` cannot release the
    /// source's memory, the elements are moved one by one into pages of its own (copied instead if their move may
    /// throw and they can be copied; a failure then leaves the source as it was), and the source's pages go back
    /// to the source's allocator.
    basic_storage(basic_storage &&other, const allocator_type &allocator)
        : base_type{typename base_type::relocate_t{}, other, allocator}, payload{allocator}, changes{allocator} {
        if (alloc_traits::is_always_equal::value || allocator == other.get_allocator()) {
            payload = std::move(other.payload);
            changes.swap(other.changes);
        } else {
            take_elements(other);
            changes.copy_from(other.changes);
            other.shrink_to_size(0u);
        }

        other.changes.reset();

        other.release_memory();
    }

    /// Destroys every element and releases the pages.
    ~basic_storage() override { shrink_to_size(0u); }

    basic_storage &operator=(const basic_storage &) = delete;

    /// Move assignment: the source is left empty. As with the standard containers, when the allocator neither
    /// propagates on move assignment nor compares equal to the source's, the elements are moved one by one into
    /// pages of this storage's own allocator (see the allocator-extended move constructor; a failure leaves both
    /// storages as they were). Otherwise the source's pages are taken over.
    // noexcept only when it cannot fail: it copies, and may throw, when the allocators cannot share memory
    // NOLINTBEGIN(bugprone-exception-escape)
    basic_storage &
    operator=(basic_storage &&other) noexcept(alloc_traits::propagate_on_container_move_assignment::value ||
                                              alloc_traits::is_always_equal::value) {
        if (this == &other) {
            return *this;
        }

        // a compile-time branch, so that allocators that never copy have no throwing path at all
        if constexpr (!(alloc_traits::propagate_on_container_move_assignment::value ||
                        alloc_traits::is_always_equal::value)) {
            if (!(get_allocator() == other.get_allocator())) {
                basic_storage moved{std::move(other), get_allocator()};
                swap(moved);
                return *this;
            }
        }

        shrink_to_size(0u);
        base_type::operator=(std::move(other));
        payload = std::move(other.payload);
        other.payload.clear();
        changes.swap(other.changes);
        other.changes.reset();
        return *this;
    }
    // NOLINTEND(bugprone-exception-escape)

    /// Exchanges the contents with another storage.
    void swap(basic_storage &other) noexcept {
        base_type::swap(other);
        payload.swap(other.payload);
        changes.swap(other.changes);
    }

    /// The allocator.
    [[nodiscard]] constexpr allocator_type get_allocator() const noexcept {
        return allocator_type{payload.get_allocator()};
    }

    /// Reserves room for `cap` identifiers and elements.
    void reserve(const size_type cap) override {
        TESSERA_RACE_WRITE(*this, "reserve");

        if (cap != 0u) {
            base_type::reserve(cap);
            assure_at_least(cap - 1u);
            changes.reserve(cap);
        }
    }

    /// Number of elements the allocated pages can hold.
    [[nodiscard]] size_type capacity() const noexcept override { return payload.size() * page_size; }

    /// Number of element pages allocated; each holds component_traits<Type>::page_size elements.
    [[nodiscard]] size_type pages() const noexcept { return payload.size(); }

    /// Room in the table of element page pointers (the table itself, not the pages).
    [[nodiscard]] size_type page_table_capacity() const noexcept { return payload.capacity(); }

    /// Releases the element pages and sparse pages that are not needed.
    void shrink_to_fit() override {
        TESSERA_RACE_WRITE(*this, "shrink_to_fit");
        shrink_to_size(base_type::size());
        payload.shrink_to_fit();
        base_type::shrink_to_fit();
        changes.shrink(*this);
    }

    /// The table of page pointers: element i is raw()[i / page_size][i % page_size].
    [[nodiscard]] TESSERA_FORCE_INLINE const_pointer raw() const noexcept { return payload.data(); }

    /// The table of page pointers.
    [[nodiscard]] TESSERA_FORCE_INLINE pointer raw() noexcept { return payload.data(); }

    /// Iterator to the first element iterated (the last packed position).
    [[nodiscard]] const_iterator cbegin() const noexcept {
#if TESSERA_DEBUG_ITERATION
        return const_iterator{&payload, static_cast<difference_type>(base_type::size()), this};
#else
        return const_iterator{&payload, static_cast<difference_type>(base_type::size())};
#endif
    }

    /// Same as cbegin().
    [[nodiscard]] const_iterator begin() const noexcept { return cbegin(); }

    /// Iterator to the first element iterated.
    [[nodiscard]] iterator begin() noexcept {
#if TESSERA_DEBUG_ITERATION
        return iterator{&payload, static_cast<difference_type>(base_type::size()), this};
#else
        return iterator{&payload, static_cast<difference_type>(base_type::size())};
#endif
    }

    /// Iterator past the last element iterated.
    [[nodiscard]] const_iterator cend() const noexcept {
#if TESSERA_DEBUG_ITERATION
        return const_iterator{&payload, {}, this};
#else
        return const_iterator{&payload, {}};
#endif
    }

    /// Same as cend().
    [[nodiscard]] const_iterator end() const noexcept { return cend(); }

    /// Iterator past the last element iterated.
    [[nodiscard]] iterator end() noexcept {
#if TESSERA_DEBUG_ITERATION
        return iterator{&payload, {}, this};
#else
        return iterator{&payload, {}};
#endif
    }

    /// Reverse iterator to the element at position 0.
    [[nodiscard]] const_reverse_iterator crbegin() const noexcept { return std::make_reverse_iterator(cend()); }

    /// Same as crbegin().
    [[nodiscard]] const_reverse_iterator rbegin() const noexcept { return crbegin(); }

    /// Reverse iterator to the element at position 0.
    [[nodiscard]] reverse_iterator rbegin() noexcept { return std::make_reverse_iterator(end()); }

    /// Reverse iterator past the last position.
    [[nodiscard]] const_reverse_iterator crend() const noexcept { return std::make_reverse_iterator(cbegin()); }

    /// Same as crend().
    [[nodiscard]] const_reverse_iterator rend() const noexcept { return crend(); }

    /// Reverse iterator past the last position.
    [[nodiscard]] reverse_iterator rend() noexcept { return std::make_reverse_iterator(begin()); }

    /// The element of an identifier that is in the storage.
    [[nodiscard]] TESSERA_FORCE_INLINE const value_type &get(const entity_type entt) const {
        return element_at(base_type::index(entt));
    }

    /// The element of an identifier that is in the storage.
    [[nodiscard]] TESSERA_FORCE_INLINE value_type &get(const entity_type entt) {
        return const_cast<value_type &>(std::as_const(*this).get(entt));
    }

    /// The element of an identifier, as a one-element tuple.
    [[nodiscard]] std::tuple<const value_type &> get_as_tuple(const entity_type entt) const {
        return std::forward_as_tuple(get(entt));
    }

    /// The element of an identifier, as a one-element tuple.
    [[nodiscard]] std::tuple<value_type &> get_as_tuple(const entity_type entt) {
        return std::forward_as_tuple(get(entt));
    }

    /// Adds an identifier and builds its element from args (braces for aggregates). Strong exception guarantee.
    template<typename... Args>
    TESSERA_FORCE_INLINE value_type &emplace(const entity_type entt, Args &&...args) {
        TESSERA_RACE_WRITE(*this, "emplace");
        const auto placed = static_cast<size_type>(emplace_element(entt, false, std::forward<Args>(args)...).index());
        // with disabled elements the new one moves ahead of them (settle_appended, out of line); a pool that never
        // disables pays one test, and emplace stays small enough to be inlined into the caller's loop
        return element_at(underlying_type::disabled_size() == 0u ? placed : underlying_type::settle_appended(1u));
    }

    /// Calls each function with the element in turn and returns it.
    template<typename... Func>
    value_type &patch(const entity_type entt, Func &&...func) {
        // one lookup: the position serves the ticks and the element
        const auto pos = static_cast<std::size_t>(base_type::index(entt));

        if constexpr (tracked) {
            // stamped first: a failure to log the change leaves the element untouched
            changes.stamp_changed(pos, entt, *this);
        }

        auto &elem = element_at(pos);
        (std::forward<Func>(func)(elem), ...);
        return elem;
    }

    /// Adds every identifier of the range with a copy of value. Strong exception guarantee. Returns begin().
    template<typename It>
    iterator insert(It first, It last, const value_type &value = {}) {
        TESSERA_RACE_WRITE(*this, "insert");
        reserve_for(first, last);

        size_type count{};

        try {
            for (; first != last; ++first, ++count) {
                emplace_element(*first, true, value);
            }
        } catch (...) {
            rollback_back(count);
            throw;
        }

        if (underlying_type::disabled_size() != 0u) {
            underlying_type::settle_appended(count);
        }

        return begin();
    }

    /// Adds every identifier of the range with a copy of the matching element of [from, ...). Strong exception
    /// guarantee. Returns begin().
    template<typename EIt, typename CIt>
    requires std::is_same_v<std::remove_cvref_t<std::iter_value_t<CIt>>, value_type>
        iterator insert(EIt first, EIt last, CIt from) {
        TESSERA_RACE_WRITE(*this, "insert");
        reserve_for(first, last);

        size_type count{};

        try {
            for (; first != last; ++first, ++from, ++count) {
                emplace_element(*first, true, *from);
            }
        } catch (...) {
            rollback_back(count);
            throw;
        }

        if (underlying_type::disabled_size() != 0u) {
            underlying_type::settle_appended(count);
        }

        return begin();
    }

    /// Iterable of (entity, element &) tuples in iteration order. In-place holes are skipped.
    [[nodiscard]] iterable each() noexcept {
        return {internal::make_extended_storage_iterator<traits_type::in_place_delete>(base_type::begin(),
                                                                                       base_type::end(), begin()),
                internal::make_extended_storage_iterator<traits_type::in_place_delete>(base_type::end(),
                                                                                       base_type::end(), end())};
    }

    /// Iterable of (entity, const element &) tuples in iteration order. In-place holes are skipped.
    [[nodiscard]] const_iterable each() const noexcept {
        return {internal::make_extended_storage_iterator<traits_type::in_place_delete>(base_type::cbegin(),
                                                                                       base_type::cend(), cbegin()),
                internal::make_extended_storage_iterator<traits_type::in_place_delete>(base_type::cend(),
                                                                                       base_type::cend(), cend())};
    }

    /// Iterable of (entity, element &) tuples from packed position 0 up. In-place holes are skipped.
    [[nodiscard]] reverse_iterable reach() noexcept {
        return {internal::make_extended_storage_iterator<traits_type::in_place_delete>(base_type::rbegin(),
                                                                                       base_type::rend(), rbegin()),
                internal::make_extended_storage_iterator<traits_type::in_place_delete>(base_type::rend(),
                                                                                       base_type::rend(), rend())};
    }

    /// Iterable of (entity, const element &) tuples from packed position 0 up. In-place holes are skipped.
    [[nodiscard]] const_reverse_iterable reach() const noexcept {
        return {internal::make_extended_storage_iterator<traits_type::in_place_delete>(base_type::crbegin(),
                                                                                       base_type::crend(), crbegin()),
                internal::make_extended_storage_iterator<traits_type::in_place_delete>(base_type::crend(),
                                                                                       base_type::crend(), crend())};
    }

    /// The per-element ticks and change log of a tracked storage (change_tracking.hpp), for the change filters.
    [[nodiscard]] const tick_column_type &tick_column() const noexcept requires tracked { return changes; }

    /// Same as the const overload. A storage used alone moves its own tick on with advance_local(count).
    [[nodiscard]] tick_column_type &tick_column() noexcept requires tracked { return changes; }

private:
    mutable container_type payload;
    // empty for untracked types: [[no_unique_address]] keeps their storages as large as before
    [[no_unique_address]] tick_column_type changes;
};

/// The pool type the registry uses for Type: a storage with signals. Specialize it to plug in another storage.
template<typename Type, typename Entity, typename Allocator>
struct storage_type {
    /// The pool type.
    using type = sigh_mixin<basic_storage<Type, Entity, Allocator>>;
};

/// Reactive storages collect entities instead of keeping components.
template<typename Entity, typename Allocator>
struct storage_type<reactive, Entity, Allocator> {
    /// The pool type.
    using type = reactive_mixin<basic_storage<reactive, Entity, Allocator>>;
};

/// The pool type for an element type, const if the element type is const.
template<typename Type, typename Entity, typename Allocator>
struct storage_for {
    /// The pool type.
    using type = constness_as_t<storage_type_t<std::remove_const_t<Type>, Entity, Allocator>, Type>;
};

} // namespace tessera

#endif
