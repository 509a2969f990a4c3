// Views: non-owning queries over one or more storages. They filter the entities of the smallest pool against
// the others and hand out the components, without allocating and without touching the storages. Every loop of a
// view is a walk of the iteration engine (engine/block_walk.hpp).
//
// In this file, in order: what views know of their storage types, the iterators of views, the single-type view,
// then the multi-type view.
#ifndef TESSERA_ENTITY_VIEW_HPP
#define TESSERA_ENTITY_VIEW_HPP

#include "../config/config.hpp"
#include "../config/std_parts.hpp"
#include "../core/iterator.hpp"
#include "../core/type_traits.hpp"
#include "checks/iteration_log.hpp"
#include "checks/race_guard.hpp"
#include "checks/walk_witness.hpp"
#include "component.hpp"
#include "engine/block_walk.hpp"
#include "engine/get.hpp"
#include "entity.hpp"
#include "fwd.hpp"
#include "sparse_set.hpp"
#include "storage.hpp"
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

// What views know of their storage types: the common base class, the element type, the callbacks each(func) accepts.
namespace tessera {

namespace internal {

/// The common base class of a storage type (the type itself for a plain sparse set), without const.
template<typename Type>
struct view_common {
    /// The base class.
    using type = std::remove_const_t<Type>;
};

/// Storages name their base class.
template<typename Type>
requires requires { typename Type::base_type; }
struct view_common<Type> {
    /// The base class.
    using type = typename Type::base_type;
};

/// The element type of a storage type (void for plain sparse sets).
template<typename Type>
struct view_element {
    /// The element type.
    using type = void;
};

/// Storages name their element type.
template<typename Type>
requires requires { typename Type::element_type; }
struct view_element<Type> {
    /// The element type.
    using type = typename Type::element_type;
};

/// Element type of a storage type, without const.
template<typename Type>
using view_element_t = std::remove_const_t<typename view_element<Type>::type>;

/// The element of an entity as a one-element tuple, or an empty tuple for storages without instances.
template<typename Type, typename Entity>
[[nodiscard]] auto view_element_tuple(Type &pool, [[maybe_unused]] const Entity entt) {
    if constexpr (walk_traits<Type>::instances) {
        return std::forward_as_tuple(walk_get(pool, entt));
    } else {
        return std::tuple<>{};
    }
}

/// True if func takes (entity, elements...) or (elements...) for a view over Get..., where elements are those of
/// the storages with instances.
template<typename Func, typename Entity, typename... Get>
inline constexpr bool view_callable_v = []<std::size_t... Index>(std::index_sequence<Index...>) {
    return walk_callable_v<Func, Entity, typename walk_ref<type_list_element_t<Index, type_list<Get...>>>::type...>;
}
(typename walk_kept<walk_traits<Get>::instances...>::type{});

} // namespace internal

} // namespace tessera

// The iterators of views: walks (engine/block_walk.hpp) that stop on the entities of a view, either to hand out the
// entity (begin(), end()) or the entity and its elements as a tuple (each()).
namespace tessera::internal {

#if TESSERA_DEBUG_ITERATION
/// TESSERA_DEBUG_ITERATION only: the witness of an iteration led by `lead` over the get storages. It watches
/// nothing when the leading storage is in-place, since iteration rule 3 (docs/thread_safety.md) then allows any
/// removal.
template<typename Common, typename Lead, typename... Get>
[[nodiscard]] iteration_witness<Common, sizeof...(Get)> view_witness(const char *who, const Lead &lead,
                                                                     const std::tuple<Get *...> &pools) {
    if (lead.policy() == deletion_policy::in_place) {
        return {};
    }

    auto witness = std::apply(
        [who](auto *...curr) {
            return iteration_witness<Common, sizeof...(Get)>{who, curr...};
        },
        pools);
    witness.lead_by(&lead);
    return witness;
}
#endif

/// Type, whatever the index (a pack expansion of one type).
template<std::size_t, typename Type>
using view_same = Type;

/// `Count` times the type Type, as a type list.
template<typename Type, std::size_t Count>
struct view_repeat {
    template<std::size_t... Index>
    static auto make(std::index_sequence<Index...>) -> type_list<view_same<Index, Type>...>;

    /// The type list.
    using type = decltype(make(std::make_index_sequence<Count>{}));
};

/// Forward iterator over the entities of a view: a walk (engine/block_walk.hpp) of the leading storage from its last
/// counted position down to 0 that stops on the identifiers that are in the other get storages and in no exclude
/// storage. The storages are seen through their common base class, so every view with as many storages shares
/// it. It returns real references into the packed array, so parallel algorithms accept it.
template<typename Common, std::size_t Get, std::size_t Exclude>
class view_iterator final {
    using walk_type = block_walk<Common, 0u, false, true, typename view_repeat<const Common, Get>::type,
                                 typename view_repeat<const Common, Exclude>::type>;

public:
    using value_type = typename Common::entity_type;
    using pointer = const value_type *;
    using reference = const value_type &;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::forward_iterator_tag;

    /// An iterator that designates nothing (equal to the end of a view that is not ready).
    constexpr view_iterator() noexcept = default;

    /// Starts at position `from` of `lead` and moves on to the first entity that passes the filters, disabled
    /// elements counted as `mode` says.
    view_iterator(const Common *lead, const std::array<const Common *, Get> &value,
                  const std::array<const Common *, Exclude> &excl, const std::ptrdiff_t from,
                  const disabled_mode mode = disabled_mode::skip)
        : walk{std::apply(
              [&](auto *...pool) {
                  return std::apply([&](auto *...other) { return walk_type{lead, pool..., other...}; }, excl);
              },
              value)} {
#if TESSERA_DEBUG_ITERATION
        if (lead->policy() != deletion_policy::in_place) {
            std::array<const Common *, Get + 1u> all{};
            all[0] = lead;
            std::copy(value.begin(), value.end(), all.begin() + 1);
            watch.witness = iteration_witness<Common, Get + 1u>{"view iterator", all};
            watch.witness.lead_by(lead);
        }
#endif
        walk.visit(mode);
        watch.start(walk, from);
    }

    /// Moves to the next entity of the view.
    TESSERA_FORCE_INLINE view_iterator &operator++() {
        watch.step(walk);
        return *this;
    }

    /// Moves to the next entity of the view and returns the previous position.
    view_iterator operator++(int) { return walk_post_step(*this); }

    /// Address of the current identifier in the leading packed array.
    [[nodiscard]] pointer operator->() const noexcept { return &walk.current(); }

    /// The current identifier.
    [[nodiscard]] TESSERA_FORCE_INLINE reference operator*() const noexcept { return walk.current(); }

    /// Two iterators of the same view are equal when they designate the same position.
    [[nodiscard]] TESSERA_FORCE_INLINE friend bool operator==(const view_iterator &lhs,
                                                              const view_iterator &rhs) noexcept {
        return lhs.walk.position() == rhs.walk.position();
    }

private:
    walk_type walk{};
    [[no_unique_address]] walk_witness<Common, Get + 1u> watch{};
};

/// Iterator of a view's each(): a walk (engine/block_walk.hpp) of the leading storage that stops on the entities of the
/// view and returns (entity, elements...) tuples by value. Elements of storages without instances are left out.
template<typename Common, typename GetList, typename ExcludeList>
class view_each_iterator;

/// Specialization for the get and exclude storage lists.
template<typename Common, typename... Get, typename... Exclude>
class view_each_iterator<Common, type_list<Get...>, type_list<Exclude...>> final {
    using entity_type = typename Common::entity_type;
    // a single storage is its own lead
    using walk_type = block_walk<Common, (sizeof...(Get) == 1u ? 1u : 0u), false, (walk_traits<Get>::holes || ...),
                                 type_list<Get...>, type_list<Exclude...>>;

    template<std::size_t... Index>
    static auto value_of(std::index_sequence<Index...>)
        -> std::tuple<entity_type, typename walk_ref<type_list_element_t<Index, type_list<Get...>>>::type...>;

    template<std::size_t... Index>
    [[nodiscard]] TESSERA_FORCE_INLINE auto dereference(std::index_sequence<Index...>) const {
        return value_type{walk.current(), walk.template get<Index>()...};
    }

    // the view's own iterator type: a single storage without holes iterates its packed array directly
    static constexpr bool packed_base =
        sizeof...(Get) == 1u && sizeof...(Exclude) == 0u && !(walk_traits<Get>::holes || ...);

public:
    using value_type = decltype(value_of(typename walk_type::element_seq{}));
    using pointer = input_iterator_pointer<value_type>;
    using reference = value_type;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::input_iterator_tag;
    using iterator_concept = std::forward_iterator_tag;

    /// An iterator that designates nothing (the end of a view that is not ready).
    constexpr view_each_iterator() noexcept = default;

    /// Starts at packed position `from` of the leading storage and moves on to the first entity that passes,
    /// disabled elements counted as `mode` says.
    view_each_iterator(std::tuple<Get *...> value, std::tuple<Exclude *...> excl, const Common *leading,
                       const std::size_t, const std::ptrdiff_t from, const disabled_mode mode = disabled_mode::skip)
        : walk{std::apply(
              [&](auto *...pool) {
                  return std::apply([&](auto *...other) { return walk_type{leading, pool..., other...}; }, excl);
              },
              value)} {
#if TESSERA_DEBUG_ITERATION
        watch.witness = view_witness<Common>("view::each() iterator", *leading, value);
#endif
        walk.visit(mode);
        watch.start(walk, from);
    }

    /// Moves to the next entity.
    TESSERA_FORCE_INLINE view_each_iterator &operator++() {
        watch.step(walk);
        return *this;
    }

    /// Moves to the next entity and returns the previous position.
    view_each_iterator operator++(int) { return walk_post_step(*this); }

    /// The entity and its elements.
    [[nodiscard]] TESSERA_FORCE_INLINE reference operator*() const {
        return dereference(typename walk_type::element_seq{});
    }

    /// Arrow on the tuple.
    [[nodiscard]] pointer operator->() const { return operator*(); }

    /// The view's entity iterator at the same entity: the view's begin() at the first tuple, its end() at the end.
    /// Built on request; the walk does not keep one.
    [[nodiscard]] auto base() const {
        return make_base(std::index_sequence_for<Get...>{}, std::index_sequence_for<Exclude...>{});
    }

    /// Equal when they designate the same position.
    [[nodiscard]] TESSERA_FORCE_INLINE friend bool operator==(const view_each_iterator &lhs,
                                                              const view_each_iterator &rhs) noexcept {
        return lhs.walk.position() == rhs.walk.position();
    }

private:
    template<std::size_t... GetIndex, std::size_t... ExcludeIndex>
    [[nodiscard]] auto make_base(std::index_sequence<GetIndex...>, std::index_sequence<ExcludeIndex...>) const {
        const Common *lead = walk.leader();

        if constexpr (packed_base) {
            using base_iterator = typename Common::iterator;
            return lead == nullptr ? base_iterator{} : lead->Common::end() - (walk.position() + 1);
        } else {
            using base_iterator = view_iterator<Common, sizeof...(Get) - 1u, sizeof...(Exclude)>;

            if (lead == nullptr) {
                return base_iterator{};
            }

            // the other get storages, in view order, without the lead (skipped once, as the view does)
            std::array<const Common *, sizeof...(Get) - 1u> other{};
            std::size_t next{};
            bool skipped{};
            const auto add = [&](const Common *pool) {
                if (!skipped && pool == lead) {
                    skipped = true;
                } else if (next < other.size()) {
                    other[next++] = pool;
                }
            };
            (add(walk.template slot_pool<GetIndex>()), ...);
            const std::array<const Common *, sizeof...(Exclude)> excl{walk.template exclude_pool<ExcludeIndex>()...};
            return base_iterator{lead, other, excl, walk.position(), walk.visiting()};
        }
    }

    walk_type walk{};
    [[no_unique_address]] walk_witness<Common, sizeof...(Get)> watch{};
};

} // namespace tessera::internal

// The single-type view: one storage walked directly, with the exact size and the random-access iterators of its
// packed array (storages that may have holes get the interface of multi-type views instead).
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
    /// iteration. Valid while the storage does not change structurally. Needs <tessera/entity/chunk.hpp>.
    template<typename Range = basic_chunk_range<basic_view>>
    [[nodiscard]] auto chunks(const size_type size) const {
        static_assert(internal::defined_v<Range>, "view::chunks: #include <tessera/entity/chunk.hpp> first");
        if constexpr (internal::defined_v<Range>) {
            return Range{*this, size, reach()};
        }
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

namespace tessera {

/// Multi-type view (and single-type view with exclusions): iterates the entities that are in every get storage
/// and in no exclude storage, following the smallest get storage.
template<typename... Get, typename... Exclude>
class basic_view<get_t<Get...>, exclude_t<Exclude...>> {
    static_assert(sizeof...(Get) != 0u, "basic_view: a view needs at least one get storage");

    template<typename, typename>
    friend class basic_view;

    template<typename>
    friend class basic_chunk;

    using element_list = type_list<internal::view_element_t<Get>..., internal::view_element_t<Exclude>...>;
    using get_element_list = type_list<internal::view_element_t<Get>...>;
    using exclude_element_list = type_list<internal::view_element_t<Exclude>...>;

    template<typename Type>
    static constexpr std::size_t slot_of = type_list_index_v<std::remove_const_t<Type>, element_list>;

    template<typename Type>
    static constexpr std::size_t get_slot_of = type_list_index_v<std::remove_const_t<Type>, get_element_list>;

public:
    /// The common base class of the storages.
    using common_type = std::common_type_t<typename internal::view_common<Get>::type...>;
    /// Identifier type.
    using entity_type = typename common_type::entity_type;
    /// Unsigned integer type.
    using size_type = std::size_t;
    /// Signed integer type.
    using difference_type = std::ptrdiff_t;
    /// Forward iterator over the entities.
    using iterator = internal::view_iterator<common_type, sizeof...(Get) - 1u, sizeof...(Exclude)>;
    /// Iterable of (entity, elements...) tuples.
    using iterable =
        iterable_adaptor<internal::view_each_iterator<common_type, type_list<Get...>, type_list<Exclude...>>>;

private:
    static_assert((std::derived_from<std::remove_const_t<Get>, common_type> && ...) &&
                      (std::derived_from<std::remove_const_t<Exclude>, common_type> && ...),
                  "basic_view: every storage must derive from the same basic_sparse_set");

    template<std::size_t Index>
    [[nodiscard]] const common_type *slot() const noexcept {
        if constexpr (Index < sizeof...(Get)) {
            return std::get<Index>(pools);
        } else {
            return std::get<Index - sizeof...(Get)>(filter);
        }
    }

    template<std::size_t... Index>
    [[nodiscard]] std::size_t lead_index(std::index_sequence<Index...>) const noexcept {
        std::size_t pos = sizeof...(Get);
        static_cast<void>(((slot<Index>() == leading ? (pos = Index, true) : false) || ...));
        return pos;
    }

    [[nodiscard]] std::size_t lead_index() const noexcept { return lead_index(std::index_sequence_for<Get...>{}); }

    template<std::size_t... Index>
    [[nodiscard]] std::array<const common_type *, sizeof...(Get) - 1u>
    others(std::index_sequence<Index...>) const noexcept {
        const std::array<const common_type *, sizeof...(Get)> all{slot<Index>()...};
        std::array<const common_type *, sizeof...(Get) - 1u> other{};
        const auto lead = lead_index();

        // bounded by both arrays: g++ cannot tell that `lead` is one of the indices and warns (-Warray-bounds)
        // about a write past `other` when the bound is left implicit
        for (std::size_t from{}, to{}; from < all.size() && to < other.size(); ++from) {
            if (from != lead) {
                other[to++] = all[from];
            }
        }

        return other;
    }

    [[nodiscard]] std::array<const common_type *, sizeof...(Exclude)> excluded() const noexcept {
        return std::apply([](auto *...curr) { return std::array<const common_type *, sizeof...(Exclude)>{curr...}; },
                          filter);
    }

    [[nodiscard]] iterator iterator_at(const difference_type offset) const {
        return iterator{leading, others(std::index_sequence_for<Get...>{}), excluded(), offset - 1, mode};
    }

    template<std::size_t... Index>
    [[nodiscard]] bool in_gets(const entity_type entt, std::index_sequence<Index...>) const {
        return (internal::walk_member(*std::get<Index>(pools), entt, mode) && ...) &&
               (mode != disabled_mode::only ||
                (internal::walk_disabled_at(*std::get<Index>(pools), std::get<Index>(pools)->index(entt)) || ...));
    }

    [[nodiscard]] bool in_excludes(const entity_type entt) const {
        return std::apply([entt](auto *...curr) { return ((curr && internal::walk_member(*curr, entt)) || ...); },
                          filter);
    }

    // each(func) is compiled once per storage that may lead: the walk (engine/block_walk.hpp) then knows which storage
    // holds the entities at the positions it walks
    template<std::size_t Lead, typename Func, std::size_t... Index>
    void each_from(Func &func, const size_type first, const size_type last, std::index_sequence<Index...>) const {
        using lead_type = type_list_element_t<Lead, type_list<Get...>>;
        using walk_type =
            internal::block_walk<common_type, std::uint64_t{1} << Lead, false, internal::walk_traits<lead_type>::holes,
                                 type_list<Get...>, type_list<Exclude...>>;
        const lead_type &lead = *std::get<Lead>(pools);
        auto walk = std::apply(
            [&](auto *...excl) {
                return walk_type{&lead, std::get<Index>(pools)..., excl...};
            },
            filter);
        walk.visit(mode);
#if TESSERA_DEBUG_ITERATION
        auto witness = internal::view_witness<common_type>("view::each", lead, pools);
        walk.run(func, first, last, false,
                 [&witness](const entity_type entt, const std::size_t pos) { witness.check(entt, pos); });
#else
        walk.run(func, first, last);
#endif
    }

    // each(func) over positions [first, last) of the leading storage: the whole of it, or a chunk (chunk.hpp)
    template<typename Func>
    void each_range(Func &func, const size_type first, const size_type last) const {
        static_assert(internal::view_callable_v<Func, entity_type, Get...>,
                      "basic_view::each: the callback must take (entity, elements...) or (elements...), with "
                      "elements only for storages with instances; a const storage only gives const references");

        if (leading) {
            TESSERA_ASSERT(last <= internal::walk_reach(*leading, mode),
                           "chunk::each: the leading storage lost entities since chunks() was called");
            TESSERA_RACE_ITERATE(std::tuple_cat(pools, filter), "each");
            const auto lead = lead_index();
            [&]<std::size_t... Index>(std::index_sequence<Index...> seq) {
                static_cast<void>(((Index == lead ? (each_from<Index>(func, first, last, seq), true) : false) || ...));
            }
            (std::index_sequence_for<Get...>{});
        }
    }

    template<bool IsGet, typename Type, typename Other>
    static void assign_from(Type *&to, const Other &other) noexcept {
        using element_type = internal::view_element_t<Type>;
        using other_list =
            std::conditional_t<IsGet, typename Other::get_element_list, typename Other::exclude_element_list>;

        if constexpr (type_list_contains_v<other_list, element_type>) {
            constexpr auto pos = type_list_index_v<element_type, other_list>;
            auto *from = [&]() {
                if constexpr (IsGet) {
                    return std::get<pos>(other.get_slots());
                } else {
                    return std::get<pos>(other.exclude_slots());
                }
            }();
            static_assert(std::is_convertible_v<decltype(from), Type *>,
                          "basic_view: cannot convert a view with a const storage into one with a non-const slot");
            to = from;
        } else {
            to = nullptr;
        }
    }

public:
    /// A view with every slot unset: it converts to false and iterates nothing.
    basic_view() noexcept : pools{}, filter{}, leading{} {}

    /// A view over the given get and exclude storages.
    basic_view(Get &...value, Exclude &...excl) noexcept : pools{&value...}, filter{&excl...}, leading{} { refresh(); }

    /// A view over the storages of two tuples.
    basic_view(std::tuple<Get &...> value, std::tuple<Exclude &...> excl = {}) noexcept
        : pools{std::apply([](auto &...curr) { return std::make_tuple(&curr...); }, value)},
          filter{std::apply([](auto &...curr) { return std::make_tuple(&curr...); }, excl)}, leading{} {
        refresh();
    }

    /// Converts another view: each slot takes the other view's storage of the same element type, if any.
    template<typename... Args>
    basic_view(const basic_view<Args...> &other) noexcept : pools{}, filter{}, leading{}, mode{other.mode} {
        std::apply([&](auto *&...curr) { (assign_from<true>(curr, other), ...); }, pools);
        std::apply([&](auto *&...curr) { (assign_from<false>(curr, other), ...); }, filter);
        refresh();
    }

    /// Picks the get storage with the fewest identifiers the view counts (in use, for swap-only ones; enabled,
    /// unless disabled elements are visited) as the leading one.
    void refresh() noexcept {
        leading = nullptr;

        if (std::apply([](auto *...curr) { return ((curr != nullptr) && ...); }, pools)) {
            std::size_t best{};

            std::apply(
                [&](auto *...curr) {
                    ((leading == nullptr || internal::walk_reach(*curr, mode) < best
                          ? void((leading = curr, best = internal::walk_reach(*curr, mode)))
                          : void()),
                     ...);
                },
                pools);
        }
    }

    /// The leading storage, or nullptr if a get slot is unset.
    [[nodiscard]] const common_type *handle() const noexcept { return leading; }

    /// Forces the get storage of element type Type to lead until the next refresh.
    template<typename Type>
    void use() noexcept {
        use<get_slot_of<Type>>();
    }

    /// Forces the get storage at Index to lead until the next refresh.
    template<std::size_t Index>
    void use() noexcept {
        static_assert(Index < sizeof...(Get), "basic_view::use: the index must designate a get storage");

        if (leading) {
            leading = std::get<Index>(pools);
        }
    }

    /// Which disabled elements the view visits: none (the default), all of them, or only the entities that have
    /// one among the get storages. Exclude storages always count enabled elements only.
    [[nodiscard]] disabled_mode visit_disabled() const noexcept { return mode; }

    /// Sets which disabled elements the view visits, then refreshes (a leading storage forced by use() is lost).
    basic_view &visit_disabled(const disabled_mode value) noexcept {
        mode = value;
        refresh();
        return *this;
    }

    /// Upper bound on the number of entities iterated: the leading storage's count.
    [[nodiscard]] size_type size_hint() const noexcept { return leading ? internal::walk_reach(*leading, mode) : 0u; }

    /// Iterator to the first entity.
    [[nodiscard]] iterator begin() const {
        return leading ? iterator_at(static_cast<difference_type>(size_hint())) : iterator{};
    }

    /// Iterator past the last entity.
    [[nodiscard]] iterator end() const { return leading ? iterator_at(0) : iterator{}; }

    /// The first entity iteration gives, or null.
    [[nodiscard]] entity_type front() const {
        const auto first = begin();
        return first == end() ? entity_type{null} : *first;
    }

    /// The last entity iteration gives, or null.
    [[nodiscard]] entity_type back() const {
        if (leading) {
            const auto count = static_cast<difference_type>(size_hint());

            for (auto it = leading->rbegin(), last = it + count; it != last; ++it) {
                if (*it != tombstone && contains(*it)) {
                    return *it;
                }
            }
        }

        return null;
    }

    /// Iterator to the entity, or end() if the view does not contain it.
    [[nodiscard]] iterator find(const entity_type entt) const {
        return contains(entt) ? iterator_at(static_cast<difference_type>(leading->index(entt)) + 1) : end();
    }

    /// True if every slot is set.
    [[nodiscard]] explicit operator bool() const noexcept {
        return leading != nullptr && std::apply([](auto *...curr) { return ((curr != nullptr) && ...); }, filter);
    }

    /// True if the entity is in every get storage, in no exclude storage and in the leading storage's range.
    [[nodiscard]] bool contains(const entity_type entt) const {
        return leading && in_gets(entt, std::index_sequence_for<Get...>{}) && !in_excludes(entt) &&
               leading->index(entt) < size_hint();
    }

    /// The storage of element type Type (the first one if several), or nullptr if its slot is unset.
    template<typename Type>
    [[nodiscard]] auto *storage() const noexcept {
        return storage<slot_of<Type>>();
    }

    /// The storage at Index (get storages first, then exclude storages), or nullptr if the slot is unset.
    template<std::size_t Index>
    [[nodiscard]] auto *storage() const noexcept {
        static_assert(Index < sizeof...(Get) + sizeof...(Exclude), "basic_view::storage: index out of range");

        if constexpr (Index < sizeof...(Get)) {
            return std::get<Index>(pools);
        } else {
            return std::get<Index - sizeof...(Get)>(filter);
        }
    }

    /// Fills the slot of the storage's element type (the first one if several), then refreshes.
    template<typename Type>
    void storage(Type &elem) noexcept {
        storage<slot_of<internal::view_element_t<Type>>>(elem);
    }

    /// Fills the slot at Index, then refreshes.
    template<std::size_t Index, typename Type>
    void storage(Type &elem) noexcept {
        static_assert(Index < sizeof...(Get) + sizeof...(Exclude), "basic_view::storage: index out of range");
        using slot_type = type_list_element_t<Index, type_list<Get..., Exclude...>>;
        static_assert(std::is_convertible_v<Type *, slot_type *>,
                      "basic_view::storage: the storage does not fit the slot (a const storage cannot fill a "
                      "non-const slot)");

        if constexpr (Index < sizeof...(Get)) {
            std::get<Index>(pools) = &elem;
        } else {
            std::get<Index - sizeof...(Get)>(filter) = &elem;
        }

        refresh();
    }

    /// The elements of an entity, by element type: a reference for one type, a tuple for several. The storage
    /// decides the constness.
    template<typename Type, typename... Other>
    [[nodiscard]] decltype(auto) get(const entity_type entt) const {
        return get<get_slot_of<Type>, get_slot_of<Other>...>(entt);
    }

    /// The elements of an entity, by index: a reference for one index, a tuple for several, and a tuple of every
    /// element with instances for none.
    template<std::size_t... Index>
    [[nodiscard]] decltype(auto) get(const entity_type entt) const {
        if constexpr (sizeof...(Index) == 0u) {
            return get_all(entt, std::index_sequence_for<Get...>{});
        } else if constexpr (sizeof...(Index) == 1u) {
            auto *pool = std::get<Index...>(pools);
            TESSERA_ASSERT(pool != nullptr, "basic_view::get: the storage slot is unset");
            return internal::walk_get(*pool, entt);
        } else {
            TESSERA_ASSERT(((std::get<Index>(pools) != nullptr) && ...), "basic_view::get: the storage slot is unset");
            return internal::walk_get_all(entt, *std::get<Index>(pools)...);
        }
    }

    /// Same as get(entt): every element with instances, as a tuple.
    [[nodiscard]] decltype(auto) operator[](const entity_type entt) const { return get(entt); }

    /// Calls func(entity, elements...) or func(elements...) for every entity. Elements of storages without
    /// instances are not passed.
    template<typename Func>
    void each(Func func) const {
        each_range(func, 0u, size_hint());
    }

    /// The entities cut into chunks of `size` positions of the leading storage, a random-access range for
    /// parallel iteration. Valid while no storage of the view changes structurally. Needs
    /// <tessera/entity/chunk.hpp>.
    template<typename Range = basic_chunk_range<basic_view>>
    [[nodiscard]] auto chunks(const size_type size) const {
        static_assert(internal::defined_v<Range>, "view::chunks: #include <tessera/entity/chunk.hpp> first");
        if constexpr (internal::defined_v<Range>) {
            return Range{*this, size, size_hint()};
        }
    }

    /// Iterable of (entity, elements...) tuples, for structured bindings.
    [[nodiscard]] iterable each() const {
        using it_type = typename iterable::iterator;

        if (!leading) {
            return {};
        }

        const auto index = lead_index();
        const auto count = static_cast<difference_type>(size_hint());
        return {it_type{pools, filter, leading, index, count - 1, mode}, it_type{pools, filter, leading, index, -1}};
    }

    /// A view that also requires the given storage.
    template<typename OGet>
    requires std::derived_from<std::remove_const_t<OGet>, common_type>
    [[nodiscard]] basic_view<get_t<Get..., OGet>, exclude_t<Exclude...>> operator|(OGet &other) const noexcept {
        basic_view<get_t<Get..., OGet>, exclude_t<Exclude...>> elem{};
        elem.pools = std::tuple_cat(pools, std::make_tuple(&other));
        elem.filter = filter;
        elem.mode = mode;
        elem.refresh();
        return elem;
    }

    /// The intersection of two views: get storages and exclude storages are concatenated, left operand first.
    template<typename... OGet, typename... OExclude>
    [[nodiscard]] basic_view<get_t<Get..., OGet...>, exclude_t<Exclude..., OExclude...>>
    operator|(const basic_view<get_t<OGet...>, exclude_t<OExclude...>> &other) const noexcept {
        basic_view<get_t<Get..., OGet...>, exclude_t<Exclude..., OExclude...>> elem{};
        elem.pools = std::tuple_cat(pools, other.get_slots());
        elem.filter = std::tuple_cat(filter, other.exclude_slots());
        elem.mode = mode;
        elem.refresh();
        return elem;
    }

private:
    template<std::size_t... Index>
    [[nodiscard]] auto get_all(const entity_type entt, std::index_sequence<Index...>) const {
        return std::tuple_cat(element_or_nothing<Index>(entt)...);
    }

    template<std::size_t Index>
    [[nodiscard]] auto element_or_nothing(const entity_type entt) const {
        auto *pool = std::get<Index>(pools);
        TESSERA_ASSERT(pool != nullptr, "basic_view::get: the storage slot is unset");
        TESSERA_ASSERT(internal::walk_member(*pool, entt, mode), "basic_view::get: the entity is not in the storage");
        return internal::view_element_tuple(*pool, entt);
    }

    [[nodiscard]] const std::tuple<Get *...> &get_slots() const noexcept { return pools; }

    [[nodiscard]] const std::tuple<Exclude *...> &exclude_slots() const noexcept { return filter; }

    std::tuple<Get *...> pools{};
    std::tuple<Exclude *...> filter{};
    const common_type *leading{};
    disabled_mode mode{};
};

/// Deduces a view over storages given by reference.
template<typename... Type>
basic_view(Type &...storage) -> basic_view<get_t<Type...>, exclude_t<>>;

/// Deduces a view over the storages of two tuples.
template<typename... Get, typename... Exclude>
basic_view(std::tuple<Get &...>, std::tuple<Exclude &...> = {}) -> basic_view<get_t<Get...>, exclude_t<Exclude...>>;

} // namespace tessera

#endif
