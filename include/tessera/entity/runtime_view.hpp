// Runtime views: like multi-type views, but over storages chosen at run time and seen through their common
// base class. Build one, iterate it, throw it away.
#ifndef TESSERA_ENTITY_RUNTIME_VIEW_HPP
#define TESSERA_ENTITY_RUNTIME_VIEW_HPP

#include "../config/config.hpp"
#include "../config/std_parts.hpp"
#include "engine/block_walk.hpp"
#include "entity.hpp"
#include "fwd.hpp"
#include "sparse_set.hpp"
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

namespace tessera {

namespace internal {

/// True if the set counts the identifier found at position `pos` of the lead as present under `mode`: at the same
/// position first (sets filled together), then through its sparse array.
template<typename Set, typename Entity>
[[nodiscard]] TESSERA_FORCE_INLINE bool runtime_view_has(const Set &set, const Entity entt, const std::size_t pos,
                                                         const disabled_mode mode) {
    return walk_in_use(set, (pos < set.size() && set.data()[pos] == entt) ? pos : walk_lookup(set, entt), mode) !=
           walk_npos;
}

/// True if one of the sets, which all hold the entity, holds it disabled.
template<typename Container, typename Entity>
[[nodiscard]] bool runtime_view_some_disabled(const Container &pools, const Entity entt) {
    return std::any_of(pools.cbegin(), pools.cend(),
                       [entt](const auto *curr) { return walk_disabled_at(*curr, curr->index(entt)); });
}

/// True if the entity found at packed position `pos` of the leading set passes the other sets and the filters.
template<typename Container, typename Entity>
[[nodiscard]] TESSERA_FORCE_INLINE bool runtime_view_valid(const Container &pools, const Container &filter,
                                                           const Entity entt, const std::size_t pos,
                                                           const disabled_mode mode) {
    return (entt != tombstone) &&
           std::all_of(std::next(pools.cbegin()), pools.cend(),
                       [entt, pos, mode](const auto *curr) { return runtime_view_has(*curr, entt, pos, mode); }) &&
           std::none_of(filter.cbegin(), filter.cend(),
                        [entt](const auto *curr) { return walk_member(*curr, entt); }) &&
           (mode != disabled_mode::only || runtime_view_some_disabled(pools, entt));
}

/// Bidirectional iterator of a runtime view. pools->front() leads; forward moves toward packed position 0.
template<typename Set, typename Container>
class runtime_view_iterator final {
    using iterator_type = typename Set::iterator;

    [[nodiscard]] bool valid() const {
        return runtime_view_valid(*pools, *filter, *it, static_cast<std::size_t>(it.index()), mode);
    }

public:
    using value_type = typename iterator_type::value_type;
    using pointer = typename iterator_type::pointer;
    using reference = typename iterator_type::reference;
    using difference_type = typename iterator_type::difference_type;
    using iterator_category = std::bidirectional_iterator_tag;

    /// An iterator that designates nothing.
    constexpr runtime_view_iterator() noexcept : pools{}, filter{}, it{} {}

    /// Starts at `curr` and moves on to the first entity that passes the filters, disabled elements counted as
    /// `visit` says.
    runtime_view_iterator(const Container &cpools, const Container &ignore, iterator_type curr,
                          const disabled_mode visit = disabled_mode::skip)
        : pools{&cpools}, filter{&ignore}, it{curr}, mode{visit} {
        while (it.index() >= 0 && !valid()) {
            ++it;
        }
    }

    /// Moves to the next entity.
    runtime_view_iterator &operator++() {
        for (++it; it.index() >= 0 && !valid(); ++it) {
        }

        return *this;
    }

    /// Moves to the next entity and returns the previous position.
    runtime_view_iterator operator++(int) {
        runtime_view_iterator before = *this;
        ++*this;
        return before;
    }

    /// Moves to the previous entity.
    runtime_view_iterator &operator--() {
        for (--it; !valid(); --it) {
        }

        return *this;
    }

    /// Moves to the previous entity and returns the previous position.
    runtime_view_iterator operator--(int) {
        runtime_view_iterator before = *this;
        --*this;
        return before;
    }

    /// Address of the current identifier.
    [[nodiscard]] pointer operator->() const noexcept { return it.operator->(); }

    /// The current identifier.
    [[nodiscard]] reference operator*() const noexcept { return *it; }

    /// Equal when they designate the same position.
    [[nodiscard]] friend bool operator==(const runtime_view_iterator &lhs, const runtime_view_iterator &rhs) noexcept {
        return lhs.it == rhs.it;
    }

private:
    const Container *pools{};
    const Container *filter{};
    iterator_type it{};
    disabled_mode mode{};
};

} // namespace internal

/// A view over storages chosen at run time: the entities in every iterated storage and in no excluded one.
/// There is no get: read the components through the registry or the storages.
template<typename Type, typename Allocator>
class basic_runtime_view {
    using alloc_traits = std::allocator_traits<Allocator>;
    static_assert(std::is_same_v<typename alloc_traits::value_type, Type *>,
                  "basic_runtime_view: the allocator must allocate pointers to the set type");
    using container_type = std::vector<Type *, Allocator>;

public:
    /// Allocator type.
    using allocator_type = Allocator;
    /// Identifier type.
    using entity_type = typename Type::entity_type;
    /// Unsigned integer type.
    using size_type = std::size_t;
    /// Signed integer type.
    using difference_type = std::ptrdiff_t;
    /// The common base class of the storages.
    using common_type = Type;
    /// Bidirectional iterator over the entities.
    using iterator = internal::runtime_view_iterator<common_type, container_type>;

    /// An empty runtime view.
    basic_runtime_view() noexcept(noexcept(allocator_type{})) : basic_runtime_view{allocator_type{}} {}

    /// An empty runtime view with the given allocator.
    explicit basic_runtime_view(const allocator_type &allocator) : pools{allocator}, filter{allocator} {}

    /// Copy constructor.
    basic_runtime_view(const basic_runtime_view &other) = default;

    /// Allocator-extended copy constructor.
    basic_runtime_view(const basic_runtime_view &other, const allocator_type &allocator)
        : pools{other.pools, allocator}, filter{other.filter, allocator}, mode{other.mode} {}

    /// Move constructor.
    basic_runtime_view(basic_runtime_view &&other) noexcept = default;

    /// Allocator-extended move constructor.
    basic_runtime_view(basic_runtime_view &&other, const allocator_type &allocator)
        : pools{std::move(other.pools), allocator}, filter{std::move(other.filter), allocator}, mode{other.mode} {}

    /// Destructor.
    ~basic_runtime_view() = default;

    /// Copy assignment.
    basic_runtime_view &operator=(const basic_runtime_view &other) = default;

    /// Move assignment.
    basic_runtime_view &operator=(basic_runtime_view &&other) noexcept = default;

    /// Exchanges the contents with another runtime view.
    void swap(basic_runtime_view &other) noexcept {
        pools.swap(other.pools);
        filter.swap(other.filter);
        std::swap(mode, other.mode);
    }

    /// The allocator.
    [[nodiscard]] constexpr allocator_type get_allocator() const noexcept { return pools.get_allocator(); }

    /// Forgets every storage.
    void clear() {
        // both lists keep their capacity for the storages given next
        filter.clear();
        pools.clear();
    }

    /// Requires the entities to be in `base`. A storage strictly smaller than the leading one takes the lead.
    basic_runtime_view &iterate(common_type &base) {
        pools.push_back(&base);

        if (pools.size() > 1u && internal::walk_count(base) < internal::walk_count(*pools.front())) {
            std::swap(pools.front(), pools.back());
        }

        return *this;
    }

    /// Which disabled elements the view visits: none (the default), all of them, or only the entities that have
    /// one among the iterated storages. Excluded storages always count enabled elements only.
    [[nodiscard]] disabled_mode visit_disabled() const noexcept { return mode; }

    /// Sets which disabled elements the view visits.
    basic_runtime_view &visit_disabled(const disabled_mode value) noexcept {
        mode = value;
        return *this;
    }

    /// Requires the entities not to be in `base`.
    basic_runtime_view &exclude(common_type &base) {
        filter.push_back(&base);
        return *this;
    }

    /// Upper bound on the number of entities: the leading storage's count, 0 without iterated storages.
    [[nodiscard]] size_type size_hint() const {
        return pools.empty() ? 0u : internal::walk_reach(*pools.front(), mode);
    }

    /// Iterator to the first entity.
    [[nodiscard]] iterator begin() const {
        return pools.empty()
                   ? iterator{}
                   : iterator{pools, filter, pools.front()->end() - static_cast<difference_type>(size_hint()), mode};
    }

    /// Iterator past the last entity.
    [[nodiscard]] iterator end() const {
        return pools.empty() ? iterator{} : iterator{pools, filter, pools.front()->end(), mode};
    }

    /// True if the entity is in every iterated storage and in no excluded one.
    [[nodiscard]] bool contains(const entity_type entt) const {
        return !pools.empty() && std::all_of(pools.cbegin(), pools.cend(), [this, entt](const auto *curr) {
            return internal::walk_member(*curr, entt, mode);
        }) && std::none_of(filter.cbegin(), filter.cend(), [entt](const auto *curr) {
            return internal::walk_member(*curr, entt);
        }) && (mode != disabled_mode::only || internal::runtime_view_some_disabled(pools, entt));
    }

    /// True once a storage has been added, iterated or excluded.
    [[nodiscard]] explicit operator bool() const noexcept { return !(pools.empty() && filter.empty()); }

    /// Calls func(entity) for every entity. Blocks of positions where every iterated storage holds the lead's
    /// identifiers (walk_lines_up, see engine/block_walk.hpp) skip the membership tests.
    template<typename Func>
    void each(Func func) const {
        if (pools.empty()) {
            return;
        }

        const auto &lead = *pools.front();
        // storages that may hold tombstones or released identifiers are never compared
        // and the lined-up path tests no membership, which visiting disabled elements needs
        const bool comparable =
            mode == disabled_mode::skip && std::all_of(pools.cbegin(), pools.cend(), [](const auto *curr) {
                return curr->policy() == deletion_policy::swap_and_pop;
            });
        constexpr std::size_t block = TESSERA_PACKED_PAGE;

        for (auto last = internal::walk_reach(lead, mode); last != 0u;) {
            const auto first = (last - 1u) & ~(block - 1u);
            auto pos = last;

            if (comparable && std::all_of(std::next(pools.cbegin()), pools.cend(), [&](const auto *curr) {
                    return internal::walk_lines_up(*curr, lead, first, last);
                })) {
                // membership only: positions exchanged meanwhile (engine/block_walk.hpp) do not change who is in a pool
                while (pos != first) {
                    --pos;

                    if (const entity_type entt = lead.data()[pos];
                        std::none_of(filter.cbegin(), filter.cend(),
                                     [entt](const auto *curr) { return internal::walk_member(*curr, entt); })) {
                        func(entt);
                    }
                }
            }

            while (pos != first) {
                --pos;

                if (const entity_type entt = lead.data()[pos];
                    internal::runtime_view_valid(pools, filter, entt, pos, mode)) {
                    func(entt);
                }
            }

            last = first;
        }
    }

private:
    container_type pools;
    container_type filter;
    disabled_mode mode{};
};

} // namespace tessera

#endif
