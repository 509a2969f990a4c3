// The iterators of views: walks (engine/block_walk.hpp) that stop on the entities of a view, either to hand out the
// entity (begin(), end()) or the entity and its elements as a tuple (each()).
#ifndef TESSERA_ENTITY_VIEW_ITERATOR_HPP
#define TESSERA_ENTITY_VIEW_ITERATOR_HPP

#include "../config/config.hpp"
#include "../core/iterator.hpp"
#include "../core/type_traits.hpp"
#include "checks/iteration_log.hpp"
#include "checks/walk_witness.hpp"
#include "engine/block_walk.hpp"
#include "entity.hpp"
#include "sparse_set.hpp"
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <tuple>
#include <type_traits>
#include <utility>

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

#endif
