// The single-type view: one storage walked directly, with the exact size and the random-access iterators of its
// packed array (storages that may have holes get the interface of multi-type views instead). view.hpp includes it.
#ifndef TESSERA_ENTITY_VIEW_SINGLE_HPP
#define TESSERA_ENTITY_VIEW_SINGLE_HPP

#include "../config/config.hpp"
#include "../core/iterator.hpp"
#include "../core/type_traits.hpp"
#include "checks/iteration_log.hpp"
#include "checks/race_guard.hpp"
#include "chunk.hpp"
#include "component.hpp"
#include "engine/block_walk.hpp"
#include "engine/get.hpp"
#include "entity.hpp"
#include "fwd.hpp"
#include "sparse_set.hpp"
#include "storage.hpp"
#include "view_element.hpp"
#include "view_iterator.hpp"
#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <iterator>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tessera {

/// Single-type view: walks one storage directly. Storages that may have holes (in-place deletion) get the
/// interface of multi-type views: a size hint, no exact size and no reverse iteration.
template<typename Get>
class basic_view<get_t<Get>, exclude_t<>> {
    template<typename, typename>
    friend class basic_view;

    template<typename>
    friend class basic_chunk;

    using get_element_list = type_list<internal::view_element_t<Get>>;
    using exclude_element_list = type_list<>;

    static constexpr bool stable = internal::walk_traits<Get>::holes;

    [[nodiscard]] std::tuple<Get *> get_slots() const noexcept { return std::tuple<Get *>{pool}; }

    [[nodiscard]] std::tuple<> exclude_slots() const noexcept { return {}; }

    template<typename Other>
    static Get *convert_from(const Other &other) noexcept {
        using element_type = internal::view_element_t<Get>;
        using other_list = typename Other::get_element_list;

        if constexpr (type_list_contains_v<other_list, element_type>) {
            auto *from = std::get<type_list_index_v<element_type, other_list>>(other.get_slots());
            static_assert(std::is_convertible_v<decltype(from), Get *>,
                          "basic_view: cannot convert a view with a const storage into one with a non-const slot");
            return from;
        } else {
            return nullptr;
        }
    }

public:
    /// The common base class of the storage.
    using common_type = typename internal::view_common<Get>::type;
    /// Identifier type.
    using entity_type = typename common_type::entity_type;
    /// Unsigned integer type.
    using size_type = std::size_t;
    /// Signed integer type.
    using difference_type = std::ptrdiff_t;
    /// Random-access iterator over the entities, or a forward iterator that skips holes for in-place storages.
    using iterator =
        std::conditional_t<stable, internal::view_iterator<common_type, 0u, 0u>, typename common_type::iterator>;
    /// Reverse iterator (insertion order); void for in-place storages.
    using reverse_iterator = std::conditional_t<stable, void, std::reverse_iterator<iterator>>;
    /// Iterable of (entity, element) tuples, or (entity) for storages without instances.
    using iterable = iterable_adaptor<internal::view_each_iterator<common_type, type_list<Get>, type_list<>>>;

private:
    [[nodiscard]] iterator iterator_at(const difference_type offset) const {
        if constexpr (stable) {
            return iterator{pool, {}, {}, offset - 1};
        } else {
            return pool->common_type::end() - offset;
        }
    }

    // the view visits positions [first_visited(), reach()) of the storage
    [[nodiscard]] size_type reach() const noexcept { return pool ? internal::walk_reach(*pool, mode) : 0u; }

    [[nodiscard]] size_type first_visited() const noexcept {
        return (pool && mode == disabled_mode::only) ? internal::walk_count(*pool) : 0u;
    }

public:
    /// A view with its slot unset: it converts to false and iterates nothing.
    basic_view() noexcept : pool{} {}

    /// A view over a storage.
    basic_view(Get &value) noexcept : pool{&value} {}

    /// A view over the storage of a tuple.
    basic_view(std::tuple<Get &> value, std::tuple<> = {}) noexcept : pool{&std::get<0>(value)} {}

    /// Converts another view: the slot takes the other view's storage of the same element type, if any.
    template<typename... Args>
    basic_view(const basic_view<Args...> &other) noexcept : pool{convert_from(other)}, mode{other.mode} {}

    /// The storage as its base class, or nullptr if the slot is unset.
    [[nodiscard]] const common_type *handle() const noexcept { return pool; }

    /// Which disabled elements the view visits: none (the default), all of them, or only them.
    [[nodiscard]] disabled_mode visit_disabled() const noexcept { return mode; }

    /// Sets which disabled elements the view visits.
    basic_view &visit_disabled(const disabled_mode value) noexcept {
        mode = value;
        return *this;
    }

    /// Exact number of entities (identifiers in use for the entity storage).
    [[nodiscard]] size_type size() const noexcept requires(!stable) { return reach() - first_visited(); }

    /// Upper bound on the number of entities: holes are counted.
    [[nodiscard]] size_type size_hint() const noexcept requires stable { return reach(); }

    /// True if there is nothing to iterate.
    [[nodiscard]] bool empty() const noexcept requires(!stable) { return size() == 0u; }

    /// Iterator to the first entity (the last packed position).
    [[nodiscard]] iterator begin() const {
        return pool ? iterator_at(static_cast<difference_type>(reach())) : iterator{};
    }

    /// Iterator past the last entity.
    [[nodiscard]] iterator end() const {
        return pool ? iterator_at(static_cast<difference_type>(first_visited())) : iterator{};
    }

    /// Reverse iterator to the first entity in insertion order. Nothing may be added or removed meanwhile.
    [[nodiscard]] reverse_iterator rbegin() const requires(!stable) { return std::make_reverse_iterator(end()); }

    /// Reverse iterator past the last entity in insertion order.
    [[nodiscard]] reverse_iterator rend() const requires(!stable) { return std::make_reverse_iterator(begin()); }

    /// The first entity iteration gives, or null.
    [[nodiscard]] entity_type front() const {
        const auto first = begin();
        return first == end() ? entity_type{null} : *first;
    }

    /// The last entity iteration gives, or null.
    [[nodiscard]] entity_type back() const {
        if (pool) {
            const auto first = pool->common_type::rbegin() + static_cast<difference_type>(first_visited());

            for (auto it = first, last = pool->common_type::rbegin() + static_cast<difference_type>(reach());
                 it != last; ++it) {
                if (*it != tombstone) {
                    return *it;
                }
            }
        }

        return null;
    }

    /// Iterator to the entity, or end() if the view does not contain it.
    [[nodiscard]] iterator find(const entity_type entt) const {
        return contains(entt) ? iterator_at(static_cast<difference_type>(pool->index(entt)) + 1) : end();
    }

    /// True if the storage contains the entity (for the entity storage: if it is in use).
    [[nodiscard]] bool contains(const entity_type entt) const {
        return pool && internal::walk_member(*pool, entt, mode) &&
               (mode != disabled_mode::only || internal::walk_disabled_at(*pool, pool->index(entt)));
    }

    /// True if the slot is set.
    [[nodiscard]] explicit operator bool() const noexcept { return pool != nullptr; }

    /// The storage, or nullptr if the slot is unset. Type must be the element type.
    template<typename Type = internal::view_element_t<Get>>
    [[nodiscard]] auto *storage() const noexcept {
        static_assert(std::is_same_v<std::remove_const_t<Type>, internal::view_element_t<Get>>,
                      "basic_view::storage: the type is not the element type of the view");
        return pool;
    }

    /// The storage, or nullptr if the slot is unset. Index must be 0.
    template<std::size_t Index>
    [[nodiscard]] auto *storage() const noexcept {
        static_assert(Index == 0u, "basic_view::storage: a single-type view has only index 0");
        return pool;
    }

    /// Sets or replaces the storage.
    void storage(Get &elem) noexcept { pool = &elem; }

    /// Sets or replaces the storage. Index must be 0.
    template<std::size_t Index>
    void storage(Get &elem) noexcept {
        static_assert(Index == 0u, "basic_view::storage: a single-type view has only index 0");
        pool = &elem;
    }

    /// The storage.
    [[nodiscard]] Get *operator->() const noexcept { return pool; }

    /// The element of an entity. Elem must be the element type (any cv); the storage decides the constness.
    template<typename Elem>
    [[nodiscard]] decltype(auto) get(const entity_type entt) const {
        static_assert(std::is_same_v<std::remove_const_t<Elem>, internal::view_element_t<Get>>,
                      "basic_view::get: the type is not the element type of the view");
        return get<0u>(entt);
    }

    /// get<0>(e): the element; get<>(e): the element as a one-element tuple (empty without instances).
    template<std::size_t... Index>
    [[nodiscard]] decltype(auto) get(const entity_type entt) const {
        static_assert(((Index == 0u) && ...), "basic_view::get: a single-type view has only index 0");
        TESSERA_ASSERT(pool != nullptr, "basic_view::get: the storage slot is unset");

        if constexpr (sizeof...(Index) == 0u) {
            return internal::walk_get_tuple(*pool, entt);
        } else {
            return internal::walk_get(*pool, entt);
        }
    }

    /// The element of an entity.
    [[nodiscard]] decltype(auto) operator[](const entity_type entt) const { return get<0u>(entt); }

    /// Calls func(entity, element) or func(element), or func(entity) or func() for storages without instances.
    template<typename Func>
    void each(Func func) const {
        each_range(func, first_visited(), reach());
    }

    /// The entities cut into chunks of `size` positions of the storage, a random-access range for parallel
    /// iteration (chunk.hpp). Valid while the storage does not change structurally.
    [[nodiscard]] basic_chunk_range<basic_view> chunks(const size_type size) const {
        return basic_chunk_range<basic_view>{*this, size, reach()};
    }

    /// Iterable of (entity, element) tuples, for structured bindings.
    [[nodiscard]] iterable each() const {
        using it_type = typename iterable::iterator;

        if (!pool) {
            return {};
        }

        const auto count = static_cast<difference_type>(reach());
        return {it_type{std::tuple<Get *>{pool}, {}, pool, 0u, count - 1, mode},
                it_type{std::tuple<Get *>{pool}, {}, pool, 0u, -1}};
    }

    /// A view that also requires the given storage.
    template<typename OGet>
    requires std::derived_from<std::remove_const_t<OGet>, common_type>
    [[nodiscard]] basic_view<get_t<Get, OGet>, exclude_t<>> operator|(OGet &other) const noexcept {
        basic_view<get_t<Get, OGet>, exclude_t<>> elem{};
        elem.pools = std::make_tuple(pool, &other);
        elem.mode = mode;
        elem.refresh();
        return elem;
    }

    /// The intersection of two views, this one's storage first.
    template<typename... OGet, typename... OExclude>
    [[nodiscard]] basic_view<get_t<Get, OGet...>, exclude_t<OExclude...>>
    operator|(const basic_view<get_t<OGet...>, exclude_t<OExclude...>> &other) const noexcept {
        basic_view<get_t<Get, OGet...>, exclude_t<OExclude...>> elem{};
        elem.pools = std::tuple_cat(std::make_tuple(pool), other.get_slots());
        elem.filter = other.exclude_slots();
        elem.mode = mode;
        elem.refresh();
        return elem;
    }

private:
    // each(func) over positions [first, last) of the storage: the whole of it, or a chunk (chunk.hpp)
    template<typename Func>
    void each_range(Func &func, const size_type first, const size_type last) const {
        static_assert(internal::view_callable_v<Func, entity_type, Get>,
                      "basic_view::each: the callback must take (entity, element) or (element), or (entity) or () "
                      "for storages without instances; a const storage only gives const references");

        if (pool) {
            TESSERA_ASSERT(last <= reach(), "chunk::each: the storage lost entities since chunks() was called");
            TESSERA_RACE_ITERATE(std::make_tuple(pool), "each");
            // a walk (engine/block_walk.hpp) of one storage: every element is reached from the start of its block
            internal::block_walk<common_type, 1u, false, stable, type_list<Get>, type_list<>> walk{pool, pool};
            walk.visit(mode);
#if TESSERA_DEBUG_ITERATION
            auto witness = internal::view_witness<common_type>("view::each", *pool, std::make_tuple(pool));
            walk.run(func, first, last, false,
                     [&witness](const entity_type entt, const std::size_t pos) { witness.check(entt, pos); });
#else
            walk.run(func, first, last);
#endif
        }
    }

    Get *pool{};
    disabled_mode mode{};
};

} // namespace tessera

#endif
