// Views: non-owning queries over one or more storages. They filter the entities of the smallest pool against
// the others and hand out the components, without allocating and without touching the storages.
#ifndef TESSERA_ENTITY_VIEW_HPP
#define TESSERA_ENTITY_VIEW_HPP

#include "../config/config.hpp"
#include "../core/iterator.hpp"
#include "../core/type_traits.hpp"
#include "component.hpp"
#include "entity.hpp"
#include "fwd.hpp"
#include "iteration_log.hpp"
#include "sparse_set.hpp"
#include "storage.hpp"
#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <iterator>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tessera {

namespace internal {

/// The deletion policy a storage type declares, or -1 when it is only known at run time (plain sparse sets).
template<typename Type>
[[nodiscard]] consteval int view_static_policy() noexcept {
    if constexpr (requires { Type::storage_policy; }) {
        return static_cast<int>(Type::storage_policy);
    } else {
        return -1;
    }
}

/// True if the storage type might leave holes (in-place deletion), now or depending on run-time state.
template<typename Type>
inline constexpr bool
    view_maybe_in_place_v = view_static_policy<Type>() < 0 || view_static_policy<Type>() ==
                                                                  static_cast<int>(deletion_policy::in_place);

/// True if the storage type might keep released identifiers (swap-only, the entity storage).
template<typename Type>
inline constexpr bool
    view_maybe_swap_only_v = view_static_policy<Type>() < 0 || view_static_policy<Type>() ==
                                                                   static_cast<int>(deletion_policy::swap_only);

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

/// True if the storage type keeps instances that views hand out.
template<typename Type>
[[nodiscard]] consteval bool view_has_instances() noexcept {
    if constexpr (requires { typename Type::value_type; }) {
        return !std::is_void_v<typename Type::value_type>;
    } else {
        return false;
    }
}

/// True if the storage type keeps instances that views hand out.
template<typename Type>
inline constexpr bool view_has_instances_v = view_has_instances<Type>();

/// True if the storage type is a paged basic_storage: elements are then reached through raw() by position.
template<typename Type>
concept view_paged_storage = view_has_instances_v<Type> && requires {
    typename Type::entity_type;
    typename Type::allocator_type;
} && std::derived_from<std::remove_const_t<Type>, basic_storage<typename Type::value_type, typename Type::entity_type,
                                                                typename Type::allocator_type>>;

/// Number of identifiers a storage offers to iteration: the ones in use for swap-only storages.
template<typename Type>
[[nodiscard]] TESSERA_FORCE_INLINE std::size_t view_count(const Type &pool) noexcept {
    if constexpr (view_maybe_swap_only_v<Type>) {
        return pool.policy() == deletion_policy::swap_only ? pool.free_list() : pool.size();
    } else {
        return pool.size();
    }
}

/// True if the storage counts the identifier as present (for swap-only storages: in use).
template<typename Type, typename Entity>
[[nodiscard]] TESSERA_FORCE_INLINE bool view_member(const Type &pool, const Entity entt) {
    if constexpr (view_maybe_swap_only_v<Type>) {
        return pool.contains(entt) &&
               (pool.policy() != deletion_policy::swap_only || pool.index(entt) < pool.free_list());
    } else {
        return pool.contains(entt);
    }
}

/// Position returned by view_find for an identifier the storage does not count as present.
inline constexpr std::size_t view_npos = static_cast<std::size_t>(-1);

/// The packed position of an identifier found through the sparse array, or view_npos.
template<typename Type, typename Entity>
[[nodiscard]] std::size_t view_lookup(const Type &pool, const Entity entt) {
    return pool.contains(entt) ? pool.index(entt) : view_npos;
}

/// The packed position of an identifier, tried at `hint` first (storages filled in the same order keep an entity
/// at the same position, and then no sparse lookup is needed), or view_npos.
template<typename Type, typename Entity>
[[nodiscard]] TESSERA_FORCE_INLINE std::size_t view_position(const Type &pool, const Entity entt,
                                                             const std::size_t hint) {
    return (hint < pool.size() && pool.data()[hint] == entt) ? hint : view_lookup(pool, entt);
}

/// `pos` if the storage counts the identifier found there as present (for swap-only storages: in use), otherwise
/// view_npos.
template<typename Type>
[[nodiscard]] TESSERA_FORCE_INLINE std::size_t view_in_use(const Type &pool, const std::size_t pos) {
    if constexpr (view_maybe_swap_only_v<Type>) {
        if (pos != view_npos && pool.policy() == deletion_policy::swap_only && !(pos < pool.free_list())) {
            return view_npos;
        }
    }

    return pos;
}

/// The packed position of an identifier, or view_npos if the storage does not count it as present (see
/// view_position and view_in_use). The caller rules out tombstones.
template<typename Type, typename Entity>
[[nodiscard]] TESSERA_FORCE_INLINE std::size_t view_find(const Type &pool, const Entity entt, const std::size_t hint) {
    return view_in_use(pool, view_position(pool, entt, hint));
}

/// Where a view found the previous entity in a storage: the distance from that entity's index to its position.
/// Storages filled in entity order (the components an entity gets when it spawns) keep that distance across the
/// entities a lead skips, where positions alone no longer match: a lead of every other entity finds the next one
/// at the guessed position, not at its own.
struct view_guess {
    /// Position minus index (unsigned: wraps for positions below the index).
    std::size_t shift{};
};

/// view_find with a guess first (see view_guess); a miss learns the new distance.
template<typename Type, typename Entity>
[[nodiscard]] TESSERA_FORCE_INLINE std::size_t view_find_guessing(const Type &pool, const Entity entt,
                                                                  const std::size_t hint, view_guess &guess) {
    const auto index = static_cast<std::size_t>(entt_traits<Entity>::to_entity(entt));
    // a guess below zero wraps past the end and fails the range test
    std::size_t pos = index + guess.shift;

    if (!(pos < pool.size() && pool.data()[pos] == entt)) {
        pos = view_position(pool, entt, hint);
        guess.shift = pos - index;
    }

    return view_in_use(pool, pos);
}

/// True if blocks of these storages may line up (see lines_up): storages whose positions may hold tombstones or
/// released identifiers never take the lined-up path, and a single storage has nothing to line up with.
template<typename... Get>
inline constexpr bool view_may_line_up_v = sizeof...(Get) > 1u &&
                                           ((!view_maybe_in_place_v<Get> && !view_maybe_swap_only_v<Get>)&&...);

/// The element at a packed position, by page arithmetic for paged storages.
template<typename Type>
[[nodiscard]] TESSERA_FORCE_INLINE decltype(auto) view_element_at(Type &pool, const std::size_t pos) {
    if constexpr (view_paged_storage<Type>) {
        constexpr auto page = component_traits<typename Type::value_type, typename Type::entity_type>::page_size;
        return pool.raw()[pos / page][fast_mod(pos, page)];
    } else {
        return pool.get(pool.data()[pos]);
    }
}

/// A one-element tuple with the element of `entt`, found at packed position `pos`, or an empty tuple for
/// storages without instances.
template<typename Type, typename Entity>
[[nodiscard]] TESSERA_FORCE_INLINE auto view_element_tuple(Type &pool, [[maybe_unused]] const Entity entt,
                                                           [[maybe_unused]] const std::size_t pos) {
    if constexpr (!view_has_instances_v<Type>) {
        return std::tuple<>{};
    } else if constexpr (view_paged_storage<Type>) {
        return std::forward_as_tuple(view_element_at(pool, pos));
    } else {
        return std::forward_as_tuple(pool.get(entt));
    }
}

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

/// Forward iterator over the entities of a view: walks the leading storage from its last counted position down
/// to 0 and stops on the identifiers that are in the other get storages and in no exclude storage. It returns
/// real references into the packed array, so parallel algorithms accept it.
template<typename Common, std::size_t Get, std::size_t Exclude>
class view_iterator final {
    using iterator_type = typename Common::const_iterator;

    [[nodiscard]] bool valid(const typename Common::entity_type entt, const std::size_t pos) const {
        // the leading storage may show its holes
        if (entt == tombstone) {
            return false;
        }

        for (auto *curr : pools) {
            if (view_find(*curr, entt, pos) == view_npos) {
                return false;
            }
        }

        for (auto *curr : filter) {
            if (curr && view_member(*curr, entt)) {
                return false;
            }
        }

        return true;
    }

    void seek() {
        for (; it.index() >= 0 && !valid(*it, static_cast<std::size_t>(it.index())); ++it) {
        }
#if TESSERA_DEBUG_ITERATION
        current = it.index() >= 0 ? *it : typename Common::entity_type{null};
#endif
    }

public:
    using value_type = typename iterator_type::value_type;
    using pointer = typename iterator_type::pointer;
    using reference = typename iterator_type::reference;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::forward_iterator_tag;

    /// An iterator that designates nothing (equal to the end of a view that is not ready).
    constexpr view_iterator() noexcept : it{}, pools{}, filter{} {}

    /// Starts at `curr` and moves on to the first entity that passes the filters.
    view_iterator(iterator_type curr, const std::array<const Common *, Get> &value,
                  const std::array<const Common *, Exclude> &excl)
        : it{curr}, pools{value}, filter{excl} {
        seek();
    }

#if TESSERA_DEBUG_ITERATION
    /// TESSERA_DEBUG_ITERATION only: the view hands its leading storage, so that increments check iteration
    /// rule 3 (docs/thread_safety.md).
    void watch(const Common *lead) {
        if (lead->policy() != deletion_policy::in_place) {
            std::array<const Common *, Get + 1u> all{};
            all[0] = lead;
            std::copy(pools.begin(), pools.end(), all.begin() + 1);
            witness = iteration_witness<Common, Get + 1u>{"view iterator", all};
        }
    }
#endif

    /// Moves to the next entity of the view.
    view_iterator &operator++() {
#if TESSERA_DEBUG_ITERATION
        witness.check(current);
#endif
        ++it;
        seek();
        return *this;
    }

    /// Moves to the next entity of the view and returns the previous position.
    view_iterator operator++(int) {
        view_iterator before = *this;
        ++*this;
        return before;
    }

    /// Address of the current identifier in the leading packed array.
    [[nodiscard]] pointer operator->() const noexcept { return it.operator->(); }

    /// The current identifier.
    [[nodiscard]] reference operator*() const noexcept { return *it; }

    /// The iterator of the leading storage; its index() is the packed position of the current entity.
    [[nodiscard]] iterator_type base() const noexcept { return it; }

    /// Two iterators of the same view are equal when they designate the same position.
    [[nodiscard]] friend bool operator==(const view_iterator &lhs, const view_iterator &rhs) noexcept {
        return lhs.it == rhs.it;
    }

private:
    iterator_type it{};
    std::array<const Common *, Get> pools{};
    std::array<const Common *, Exclude> filter{};
#if TESSERA_DEBUG_ITERATION
    iteration_witness<Common, Get + 1u> witness{};
    typename Common::entity_type current{null};
#endif
};

/// Iterator of a view's each(): the entity and its elements as a tuple returned by value.
template<typename It, typename... Get>
class extended_view_iterator final {
    template<std::size_t... Index>
    [[nodiscard]] auto dereference(std::index_sequence<Index...>) const {
        const auto entt = *it;
        const auto pos = static_cast<std::size_t>(it.base().index());
        return std::tuple_cat(
            std::make_tuple(entt),
            view_element_tuple(*std::get<Index>(pools), entt, Index == lead ? pos : hinted<Index>(entt, pos))...);
    }

    template<std::size_t Index>
    [[nodiscard]] std::size_t hinted(const typename It::value_type entt, const std::size_t pos) const {
        if constexpr (view_has_instances_v<std::remove_pointer_t<std::tuple_element_t<Index, std::tuple<Get *...>>>>) {
            return index_from_hint(*std::get<Index>(pools), entt, pos);
        } else {
            return pos;
        }
    }

public:
    using iterator_type = It;
    using value_type = decltype(std::tuple_cat(
        std::make_tuple(std::declval<typename It::value_type>()),
        view_element_tuple(std::declval<Get &>(), std::declval<typename It::value_type>(), std::size_t{})...));
    using pointer = input_iterator_pointer<value_type>;
    using reference = value_type;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::input_iterator_tag;
    using iterator_concept = std::forward_iterator_tag;

    /// An iterator that designates nothing.
    constexpr extended_view_iterator() : it{}, pools{}, lead{} {}

    /// Wraps a view iterator; `index` is the position of the leading storage among the get storages.
    extended_view_iterator(It from, std::tuple<Get *...> value, const std::size_t index)
        : it{from}, pools{value}, lead{index} {}

    /// Moves to the next entity.
    extended_view_iterator &operator++() {
        ++it;
        return *this;
    }

    /// Moves to the next entity and returns the previous position.
    extended_view_iterator operator++(int) {
        extended_view_iterator before = *this;
        ++*this;
        return before;
    }

    /// The entity and its elements.
    [[nodiscard]] reference operator*() const { return dereference(std::index_sequence_for<Get...>{}); }

    /// Arrow on the tuple.
    [[nodiscard]] pointer operator->() const { return operator*(); }

    /// The view iterator.
    [[nodiscard]] iterator_type base() const noexcept { return it; }

    /// Equal when the view iterators are.
    [[nodiscard]] friend bool operator==(const extended_view_iterator &lhs,
                                         const extended_view_iterator &rhs) noexcept {
        return lhs.it == rhs.it;
    }

private:
    It it{};
    std::tuple<Get *...> pools{};
    std::size_t lead{};
};

/// Page size of a paged storage type, 0 for the others.
template<typename Type>
[[nodiscard]] consteval std::size_t view_page_size() noexcept {
    if constexpr (view_paged_storage<Type>) {
        return component_traits<typename Type::value_type, typename Type::entity_type>::page_size;
    } else {
        return 0u;
    }
}

/// Length of the blocks each() walks: the smallest page size among the paged storages. Page sizes are powers
/// of two, so a block aligned to this length lies within one page of every paged storage.
template<typename... Type>
[[nodiscard]] consteval std::size_t view_block_size() noexcept {
    std::size_t block = TESSERA_PACKED_PAGE;
    ((block = (view_page_size<Type>() != 0u && view_page_size<Type>() < block) ? view_page_size<Type>() : block), ...);
    return block;
}

/// Pointer to the element at packed position `first` of a paged storage, or nullptr if the storage does not
/// reach that far. Pages never move, so the pointer survives elements being added or removed.
template<typename Type>
[[nodiscard]] TESSERA_FORCE_INLINE auto view_block_base(Type &pool, const std::size_t first) {
    if constexpr (view_paged_storage<Type>) {
        constexpr auto page = view_page_size<Type>();
        using pointer = std::remove_reference_t<decltype(pool.raw()[0u][0u])> *;
        return (first < pool.size()) ? pointer{pool.raw()[first / page] + fast_mod(first, page)} : pointer{};
    } else {
        return nullptr;
    }
}

/// The element tuple of each(): through the block pointer when the element sits at the leading position (always
/// for the leading storage, whose block base is never null), by page arithmetic or through the storage otherwise.
template<bool Lead, typename Type, typename Base, typename Entity>
[[nodiscard]] TESSERA_FORCE_INLINE auto view_block_tuple(Type &pool, const Base base, const Entity entt,
                                                         const std::size_t offset, const std::size_t lead_pos,
                                                         const std::size_t pos) {
    if constexpr (view_paged_storage<Type> && Lead) {
        return std::forward_as_tuple(base[offset]);
    } else if constexpr (view_paged_storage<Type>) {
        return std::forward_as_tuple((pos == lead_pos && base) ? base[offset] : view_element_at(pool, pos));
    } else {
        return view_element_tuple(pool, entt, pos);
    }
}

/// Iterator of a multi-type view's each(): walks the leading storage like each(func) does, with typed storages
/// and the positions of the current entity kept from the filtering step, and returns (entity, elements...)
/// tuples by value. Like each(func), it walks blocks of positions that lie within one page of every paged
/// storage and keeps the address of each storage's element at the start of the block, so that the elements of
/// an entity found at the leading position are plain offsets; the others are found by page arithmetic.
template<typename Common, typename GetList, typename ExcludeList>
class view_each_iterator;

/// Specialization for the get and exclude storage lists.
template<typename Common, typename... Get, typename... Exclude>
class view_each_iterator<Common, type_list<Get...>, type_list<Exclude...>> final {
    using entity_type = typename Common::entity_type;
    using base_tuple = decltype(std::make_tuple(view_block_base(std::declval<Get &>(), std::size_t{})...));

    static constexpr auto block = view_block_size<Get...>();

    static constexpr bool lines_up_possible = view_may_line_up_v<Get...>;

    template<std::size_t... Index>
    TESSERA_FORCE_INLINE void enter_block(const std::size_t curr, std::index_sequence<Index...>) {
        first = curr & ~(block - 1u);
        ((std::get<Index>(bases) = view_block_base(*std::get<Index>(pools), first)), ...);

        if constexpr (lines_up_possible) {
            // only the current entity may leave while the loop body runs, which moves nothing below it: the
            // comparison holds for the rest of the block
            lined = ((Index == lead_index || lines_up(*std::get<Index>(pools), *lead, first, curr + 1u)) && ...);
        }
    }

    template<std::size_t... Index>
    [[nodiscard]] TESSERA_FORCE_INLINE bool valid(const std::size_t curr, std::index_sequence<Index...>) {
        const entity_type entt = lead->data()[curr];

        if constexpr (lines_up_possible) {
            if (lined) {
                return !std::apply([entt](auto *...excl) { return ((excl && view_member(*excl, entt)) || ...); },
                                   filter);
            }
        }

        if constexpr ((view_maybe_in_place_v<Get> || ...)) {
            if (entt == tombstone) {
                return false;
            }
        }

        return ((Index == lead_index ? (at[Index] = curr, true)
                                     : ((at[Index] = view_find_guessing(*std::get<Index>(pools), entt, curr,
                                                                        guess[Index])) != view_npos)) &&
                ...) &&
               !std::apply([entt](auto *...excl) { return ((excl && view_member(*excl, entt)) || ...); }, filter);
    }

    TESSERA_FORCE_INLINE void seek() {
        for (; pos >= 0; --pos) {
            const auto curr = static_cast<std::size_t>(pos);

            if (curr < first) {
                enter_block(curr, std::index_sequence_for<Get...>{});
            }

            if (valid(curr, std::index_sequence_for<Get...>{})) {
                break;
            }
        }
#if TESSERA_DEBUG_ITERATION
        current = pos >= 0 ? entity_type{lead->data()[static_cast<std::size_t>(pos)]} : entity_type{null};
#endif
    }

    template<std::size_t... Index>
    [[nodiscard]] TESSERA_FORCE_INLINE auto dereference(std::index_sequence<Index...>) const {
        const auto curr = static_cast<std::size_t>(pos);
        const entity_type entt = lead->data()[curr];

        if constexpr (lines_up_possible) {
            if (lined) {
                return std::tuple_cat(std::make_tuple(entt),
                                      view_block_tuple<true>(*std::get<Index>(pools), std::get<Index>(bases), entt,
                                                             curr - first, curr, curr)...);
            }
        }

        return std::tuple_cat(std::make_tuple(entt),
                              view_block_tuple<false>(*std::get<Index>(pools), std::get<Index>(bases), entt,
                                                      curr - first, curr, at[Index])...);
    }

public:
    using value_type = decltype(std::tuple_cat(
        std::make_tuple(std::declval<entity_type>()),
        view_element_tuple(std::declval<Get &>(), std::declval<entity_type>(), std::size_t{})...));
    using pointer = input_iterator_pointer<value_type>;
    using reference = value_type;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::input_iterator_tag;
    using iterator_concept = std::forward_iterator_tag;

    /// An iterator that designates nothing (the end of a view that is not ready).
    constexpr view_each_iterator() noexcept = default;

    /// Starts at packed position `from` of the leading storage (the one at `index` among the get storages) and
    /// moves on to the first entity that passes the filters.
    view_each_iterator(std::tuple<Get *...> value, std::tuple<Exclude *...> excl, const Common *leading,
                       const std::size_t index, const std::ptrdiff_t from)
        : pools{value}, filter{excl}, lead{leading}, lead_index{index}, pos{from} {
#if TESSERA_DEBUG_ITERATION
        witness = view_witness<Common>("view::each() iterator", *leading, value);
#endif
        seek();
    }

    /// Moves to the next entity.
    TESSERA_FORCE_INLINE view_each_iterator &operator++() {
#if TESSERA_DEBUG_ITERATION
        witness.check(current, static_cast<std::size_t>(pos));
#endif
        --pos;
        seek();
        return *this;
    }

    /// Moves to the next entity and returns the previous position.
    view_each_iterator operator++(int) {
        view_each_iterator before = *this;
        ++*this;
        return before;
    }

    /// The entity and its elements.
    [[nodiscard]] TESSERA_FORCE_INLINE reference operator*() const {
        return dereference(std::index_sequence_for<Get...>{});
    }

    /// Arrow on the tuple.
    [[nodiscard]] pointer operator->() const { return operator*(); }

    /// Equal when they designate the same position.
    [[nodiscard]] friend bool operator==(const view_each_iterator &lhs, const view_each_iterator &rhs) noexcept {
        return lhs.pos == rhs.pos;
    }

private:
    std::tuple<Get *...> pools{};
    std::tuple<Exclude *...> filter{};
    const Common *lead{};
    std::size_t lead_index{};
    std::ptrdiff_t pos{-1};
    // start of the current block of positions (none entered yet: past every position), and the address of each
    // storage's element at that start (null where a storage did not reach the block when it was entered, or has no
    // pages)
    std::size_t first{static_cast<std::size_t>(-1)};
    base_tuple bases{};
    // every storage holds the entities of the current block at the leading positions: `at` is not used. Copies
    // read it even when no block was entered (an empty view, the end iterator)
    bool lined{};
    std::array<std::size_t, sizeof...(Get)> at{};
    // per storage, where lookups found the previous entities (view_find_guessing)
    std::array<view_guess, sizeof...(Get)> guess{};
#if TESSERA_DEBUG_ITERATION
    iteration_witness<Common, sizeof...(Get)> witness{};
    entity_type current{null};
#endif
};

/// Calls func with (entity, elements...) when it accepts that, otherwise with (elements...).
template<typename Func, typename Entity, typename... Elem>
TESSERA_FORCE_INLINE void view_invoke(Func &func, const Entity entt, std::tuple<Elem...> &&elem) {
    if constexpr (std::is_invocable_v<Func &, Entity, Elem...>) {
        std::apply([&](auto &&...args) { func(entt, std::forward<decltype(args)>(args)...); }, std::move(elem));
    } else {
        std::apply([&](auto &&...args) { func(std::forward<decltype(args)>(args)...); }, std::move(elem));
    }
}

/// True if func accepts (entity, elements...) or (elements...).
template<typename Func, typename Entity, typename Elem>
inline constexpr bool view_callback_v = false;

/// Specialization for a tuple of element references. A disjunction, so that the elements-only form is not looked
/// at when the entity-first form fits: for a generic callback such as [](auto entity, auto &&...elements), asking
/// about the other form would instantiate its body with an element as the entity, a hard error.
template<typename Func, typename Entity, typename... Elem>
inline constexpr bool view_callback_v<Func, Entity, std::tuple<Elem...>> =
    std::disjunction_v<std::is_invocable<Func &, Entity, Elem...>, std::is_invocable<Func &, Elem...>>;

/// The tuple of element references a view built on the storages Get... hands out for an entity.
template<typename Entity, typename... Get>
using view_element_refs_t =
    decltype(std::tuple_cat(view_element_tuple(std::declval<Get &>(), std::declval<Entity>(), std::size_t{})...));

} // namespace internal

/// Multi-type view (and single-type view with exclusions): iterates the entities that are in every get storage
/// and in no exclude storage, following the smallest get storage.
template<typename... Get, typename... Exclude>
class basic_view<get_t<Get...>, exclude_t<Exclude...>> {
    static_assert(sizeof...(Get) != 0u, "basic_view: a view needs at least one get storage");

    template<typename, typename>
    friend class basic_view;

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
#if TESSERA_DEBUG_ITERATION
        iterator it{leading->end() - offset, others(std::index_sequence_for<Get...>{}), excluded()};
        it.watch(leading);
        return it;
#else
        return iterator{leading->end() - offset, others(std::index_sequence_for<Get...>{}), excluded()};
#endif
    }

    template<std::size_t... Index>
    [[nodiscard]] bool in_gets(const entity_type entt, std::index_sequence<Index...>) const {
        return (internal::view_member(*std::get<Index>(pools), entt) && ...);
    }

    [[nodiscard]] bool in_excludes(const entity_type entt) const {
        return std::apply([entt](auto *...curr) { return ((curr && internal::view_member(*curr, entt)) || ...); },
                          filter);
    }

    // The hot loop: raw positions of the leading storage, inline membership tests (the same position first, then
    // the sparse array), elements by pointer arithmetic. The packed array is read again for every entity because
    // the callback may add to the storages and make it grow; element pages never move, so their addresses are
    // taken once per block. Nothing here allocates or calls a virtual function.
    static constexpr bool lines_up_possible = internal::view_may_line_up_v<Get...>;

    template<std::size_t Lead, typename Func, std::size_t... Index>
    void each_from(Func &func, std::index_sequence<Index...>) const {
        using lead_type = type_list_element_t<Lead, type_list<Get...>>;
        const lead_type &lead = *std::get<Lead>(pools);

        constexpr auto block = internal::view_block_size<Get...>();
#if TESSERA_DEBUG_ITERATION
        auto witness = internal::view_witness<common_type>("view::each", lead, pools);
#endif
        // per storage, where lookups found the previous entities (view_find_guessing)
        std::array<internal::view_guess, sizeof...(Get)> guess{};

        for (auto pos = internal::view_count(lead); pos != 0u;) {
            // a block of positions that lies within one page of every paged storage: the element addresses of
            // entities found at the leading position are plain offsets from these bases
            const auto first = (pos - 1u) & ~(block - 1u);
            const auto base = std::make_tuple(internal::view_block_base(*std::get<Index>(pools), first)...);

            if constexpr (lines_up_possible) {
                // every storage has the entities of the block at the leading positions: no test but the excludes.
                // Only the current entity may leave while func runs, and that moves nothing below it, so the
                // comparison done here holds for the whole block
                if (((Index == Lead || internal::lines_up(*std::get<Index>(pools), lead, first, pos)) && ...)) {
                    TESSERA_UNROLL_LOOP
                    while (pos != first) {
                        --pos;
                        const entity_type entt = lead.data()[pos];

                        if (!in_excludes(entt)) {
                            internal::view_invoke(
                                func, entt,
                                std::tuple_cat(internal::view_block_tuple<true>(
                                    *std::get<Index>(pools), std::get<Index>(base), entt, pos - first, pos, pos)...));
#if TESSERA_DEBUG_ITERATION
                            witness.check(entt, pos);
#endif
                        }
                    }

                    continue;
                }
            }

            while (pos != first) {
                --pos;
                const entity_type entt = lead.data()[pos];

                if constexpr (internal::view_maybe_in_place_v<lead_type>) {
                    if (entt == tombstone) {
                        continue;
                    }
                }

                // the position of the entity in each get storage, found once and used for the elements too
                std::array<std::size_t, sizeof...(Get)> at{};

                if (((Index == Lead
                          ? (at[Index] = pos, true)
                          : ((at[Index] = internal::view_find_guessing(*std::get<Index>(pools), entt, pos,
                                                                       guess[Index])) != internal::view_npos)) &&
                     ...) &&
                    !in_excludes(entt)) {
                    internal::view_invoke(
                        func, entt,
                        std::tuple_cat(internal::view_block_tuple<Index == Lead>(
                            *std::get<Index>(pools), std::get<Index>(base), entt, pos - first, pos, at[Index])...));
#if TESSERA_DEBUG_ITERATION
                    witness.check(entt, pos);
#endif
                }
            }
        }
    }

    template<typename Func, std::size_t... Index>
    void each_dispatch(Func &func, std::index_sequence<Index...> seq) const {
        const auto lead = lead_index();
        static_cast<void>(((Index == lead ? (each_from<Index>(func, seq), true) : false) || ...));
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
    basic_view(const basic_view<Args...> &other) noexcept : pools{}, filter{}, leading{} {
        std::apply([&](auto *&...curr) { (assign_from<true>(curr, other), ...); }, pools);
        std::apply([&](auto *&...curr) { (assign_from<false>(curr, other), ...); }, filter);
        refresh();
    }

    /// Picks the get storage with the fewest identifiers (in use, for swap-only ones) as the leading one.
    void refresh() noexcept {
        leading = nullptr;

        if (std::apply([](auto *...curr) { return ((curr != nullptr) && ...); }, pools)) {
            std::size_t best{};

            std::apply(
                [&](auto *...curr) {
                    ((leading == nullptr || internal::view_count(*curr) < best
                          ? void((leading = curr, best = internal::view_count(*curr)))
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

    /// Upper bound on the number of entities iterated: the leading storage's count.
    [[nodiscard]] size_type size_hint() const noexcept { return leading ? internal::view_count(*leading) : 0u; }

    /// Iterator to the first entity.
    [[nodiscard]] iterator begin() const {
        return leading ? iterator_at(static_cast<difference_type>(internal::view_count(*leading))) : iterator{};
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
            const auto count = static_cast<difference_type>(internal::view_count(*leading));

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
               leading->index(entt) < internal::view_count(*leading);
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
            return pool->get(entt);
        } else {
            return std::tuple_cat(element_as_tuple<Index>(entt)...);
        }
    }

    /// Same as get(entt): every element with instances, as a tuple.
    [[nodiscard]] decltype(auto) operator[](const entity_type entt) const { return get(entt); }

    /// Calls func(entity, elements...) or func(elements...) for every entity. Elements of storages without
    /// instances are not passed.
    template<typename Func>
    void each(Func func) const {
        static_assert(internal::view_callback_v<Func, entity_type, internal::view_element_refs_t<entity_type, Get...>>,
                      "basic_view::each: the callback must take (entity, elements...) or (elements...), with "
                      "elements only for storages with instances; a const storage only gives const references");

        if (leading) {
            each_dispatch(func, std::index_sequence_for<Get...>{});
        }
    }

    /// Iterable of (entity, elements...) tuples, for structured bindings.
    [[nodiscard]] iterable each() const {
        using it_type = typename iterable::iterator;

        if (!leading) {
            return {};
        }

        const auto index = lead_index();
        const auto count = static_cast<difference_type>(internal::view_count(*leading));
        return {it_type{pools, filter, leading, index, count - 1}, it_type{pools, filter, leading, index, -1}};
    }

    /// A view that also requires the given storage.
    template<typename OGet>
    requires std::derived_from<std::remove_const_t<OGet>, common_type>
    [[nodiscard]] basic_view<get_t<Get..., OGet>, exclude_t<Exclude...>> operator|(OGet &other) const noexcept {
        basic_view<get_t<Get..., OGet>, exclude_t<Exclude...>> elem{};
        elem.pools = std::tuple_cat(pools, std::make_tuple(&other));
        elem.filter = filter;
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
        elem.refresh();
        return elem;
    }

private:
    template<std::size_t Index>
    [[nodiscard]] auto element_as_tuple(const entity_type entt) const {
        auto *pool = std::get<Index>(pools);
        TESSERA_ASSERT(pool != nullptr, "basic_view::get: the storage slot is unset");
        return pool->get_as_tuple(entt);
    }

    template<std::size_t... Index>
    [[nodiscard]] auto get_all(const entity_type entt, std::index_sequence<Index...>) const {
        return std::tuple_cat(element_or_nothing<Index>(entt)...);
    }

    template<std::size_t Index>
    [[nodiscard]] auto element_or_nothing(const entity_type entt) const {
        auto *pool = std::get<Index>(pools);
        TESSERA_ASSERT(pool != nullptr, "basic_view::get: the storage slot is unset");
        TESSERA_ASSERT(internal::view_member(*pool, entt), "basic_view::get: the entity is not in the storage");
        return internal::view_element_tuple(*pool, entt, pool->index(entt));
    }

    [[nodiscard]] const std::tuple<Get *...> &get_slots() const noexcept { return pools; }

    [[nodiscard]] const std::tuple<Exclude *...> &exclude_slots() const noexcept { return filter; }

    std::tuple<Get *...> pools{};
    std::tuple<Exclude *...> filter{};
    const common_type *leading{};
};

namespace internal {

/// The iterable a single-type view returns: the storage's own each(), or entity tuples for plain sparse sets.
template<typename Type, typename It>
struct view_single_iterable {
    /// Iterable type.
    using type = iterable_adaptor<extended_view_iterator<It, Type>>;
};

/// Storages iterate themselves.
template<typename Type, typename It>
requires requires(Type &pool) { pool.each(); }
struct view_single_iterable<Type, It> {
    /// Iterable type.
    using type = decltype(std::declval<Type &>().each());
};

} // namespace internal

/// Single-type view: walks one storage directly. Storages that may have holes (in-place deletion) get the
/// interface of multi-type views: a size hint, no exact size and no reverse iteration.
template<typename Get>
class basic_view<get_t<Get>, exclude_t<>> {
    template<typename, typename>
    friend class basic_view;

    using get_element_list = type_list<internal::view_element_t<Get>>;
    using exclude_element_list = type_list<>;

    static constexpr bool stable = internal::view_maybe_in_place_v<Get>;

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
    using iterable = typename internal::view_single_iterable<Get, iterator>::type;

private:
    [[nodiscard]] iterator iterator_at(const difference_type offset) const {
        if constexpr (stable) {
            return iterator{pool->common_type::end() - offset, {}, {}};
        } else {
            return pool->common_type::end() - offset;
        }
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
    basic_view(const basic_view<Args...> &other) noexcept : pool{convert_from(other)} {}

    /// The storage as its base class, or nullptr if the slot is unset.
    [[nodiscard]] const common_type *handle() const noexcept { return pool; }

    /// Exact number of entities (identifiers in use for the entity storage).
    [[nodiscard]] size_type size() const noexcept requires(!stable) { return pool ? internal::view_count(*pool) : 0u; }

    /// Upper bound on the number of entities: holes are counted.
    [[nodiscard]] size_type size_hint() const noexcept requires stable {
        return pool ? internal::view_count(*pool) : 0u;
    }

    /// True if there is nothing to iterate.
    [[nodiscard]] bool empty() const noexcept requires(!stable) { return size() == 0u; }

    /// Iterator to the first entity (the last packed position).
    [[nodiscard]] iterator begin() const {
        return pool ? iterator_at(static_cast<difference_type>(internal::view_count(*pool))) : iterator{};
    }

    /// Iterator past the last entity.
    [[nodiscard]] iterator end() const { return pool ? iterator_at(0) : iterator{}; }

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
            const auto count = static_cast<difference_type>(internal::view_count(*pool));

            for (auto it = pool->common_type::rbegin(), last = it + count; it != last; ++it) {
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
    [[nodiscard]] bool contains(const entity_type entt) const { return pool && internal::view_member(*pool, entt); }

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
            return pool->get_as_tuple(entt);
        } else {
            return pool->get(entt);
        }
    }

    /// The element of an entity.
    [[nodiscard]] decltype(auto) operator[](const entity_type entt) const { return get<0u>(entt); }

    /// Calls func(entity, element) or func(element), or func(entity) or func() for storages without instances.
    template<typename Func>
    void each(Func func) const {
        using refs = internal::view_element_refs_t<entity_type, Get>;
        static_assert(internal::view_callback_v<Func, entity_type, refs>,
                      "basic_view::each: the callback must take (entity, element) or (element), or (entity) or () "
                      "for storages without instances; a const storage only gives const references");

        if (!pool) {
            return;
        }

#if TESSERA_DEBUG_ITERATION
        auto witness = internal::view_witness<common_type>("view::each", *pool, std::make_tuple(pool));
#endif

        if constexpr (!stable && internal::view_paged_storage<Get>) {
            // page by page: the page pointer stays valid while elements are added or the current one removed,
            // and the inner loop over one page is plain pointer arithmetic. Pages come in contiguous blocks (see
            // basic_storage), so the hardware prefetchers keep up without software prefetching
            constexpr auto page = component_traits<typename Get::value_type, entity_type>::page_size;

            for (auto pos = pool->size(); pos != 0u;) {
                const auto first = (pos - 1u) & ~(page - 1u);
                auto *const elem = pool->raw()[first / page];

                TESSERA_UNROLL_LOOP
                for (auto *curr = elem + (pos - first); curr != elem;) {
                    --curr;
#if TESSERA_DEBUG_ITERATION
                    const entity_type current = pool->data()[first + static_cast<std::size_t>(curr - elem)];
#endif

                    if constexpr (std::is_invocable_v<Func &, entity_type, decltype(*curr)>) {
                        func(pool->data()[first + static_cast<std::size_t>(curr - elem)], *curr);
                    } else {
                        func(*curr);
                    }
#if TESSERA_DEBUG_ITERATION
                    witness.check(current, first + static_cast<std::size_t>(curr - elem));
#endif
                }

                pos = first;
            }
        } else {
            for (auto pos = internal::view_count(*pool); pos != 0u;) {
                --pos;
                const entity_type entt = pool->data()[pos];

                if constexpr (stable) {
                    if (entt == tombstone) {
                        continue;
                    }
                }

                internal::view_invoke(func, entt, internal::view_element_tuple(*pool, entt, pos));
#if TESSERA_DEBUG_ITERATION
                witness.check(entt, pos);
#endif
            }
        }
    }

    /// Iterable of (entity, element) tuples, for structured bindings.
    [[nodiscard]] iterable each() const {
        if constexpr (requires { pool->each(); }) {
            return pool ? pool->each() : iterable{};
        } else {
            using it_type = typename iterable::iterator;
            return {it_type{begin(), std::tuple<Get *>{pool}, 0u}, it_type{end(), std::tuple<Get *>{pool}, 0u}};
        }
    }

    /// A view that also requires the given storage.
    template<typename OGet>
    requires std::derived_from<std::remove_const_t<OGet>, common_type>
    [[nodiscard]] basic_view<get_t<Get, OGet>, exclude_t<>> operator|(OGet &other) const noexcept {
        basic_view<get_t<Get, OGet>, exclude_t<>> elem{};
        elem.pools = std::make_tuple(pool, &other);
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
        elem.refresh();
        return elem;
    }

private:
    Get *pool{};
};

/// Deduces a view over storages given by reference.
template<typename... Type>
basic_view(Type &...storage) -> basic_view<get_t<Type...>, exclude_t<>>;

/// Deduces a view over the storages of two tuples.
template<typename... Get, typename... Exclude>
basic_view(std::tuple<Get &...>, std::tuple<Exclude &...> = {}) -> basic_view<get_t<Get...>, exclude_t<Exclude...>>;

} // namespace tessera

#endif
