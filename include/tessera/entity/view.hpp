// Views: non-owning queries over one or more storages. They filter the entities of the smallest pool against
// the others and hand out the components, without allocating and without touching the storages.
#ifndef TESSERA_ENTITY_VIEW_HPP
#define TESSERA_ENTITY_VIEW_HPP

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
#include "view_single.hpp"
#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <iterator>
#include <tuple>
#include <type_traits>
#include <utility>

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
    /// parallel iteration (chunk.hpp). Valid while no storage of the view changes structurally.
    [[nodiscard]] basic_chunk_range<basic_view> chunks(const size_type size) const {
        return basic_chunk_range<basic_view>{*this, size, size_hint()};
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
