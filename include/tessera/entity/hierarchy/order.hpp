// Parent-first order and transform propagation for the hierarchy module: sort_parent_first arranges the node pool
// (and the pools named with it) breadth-first and records where each node's parent sits; propagate then computes
// world values in one pass, from the recorded positions while the pools have not moved since, and with lookups
// otherwise. hierarchy.hpp includes this header at its end.
#ifndef TESSERA_ENTITY_HIERARCHY_ORDER_HPP
#define TESSERA_ENTITY_HIERARCHY_ORDER_HPP

#include "../../config/config.hpp"
#include "../../config/std_parts.hpp"
#include "../component.hpp"
#include "../fwd.hpp"
#include "../hierarchy.hpp"
#include "../registry.hpp"
#include <cstddef>
#include <cstdint>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tessera {

namespace internal {

// What sort_parent_first leaves in the registry's context for propagate: the packed position of every node's
// parent, recorded for the node pool at one revision, size and array, and which pools were found to hold the node
// pool's entities at the same iteration positions, each remembered at its own revision, size and array (growing
// or moving anything makes them compare again). Links change without any of these (attach, detach), so a
// recorded parent position is used only after checking that the World there belongs to the node's parent.
template<typename Entity>
struct hierarchy_order {
    // The parent of a root. Packed positions stay below the index mask, so no position takes this value.
    static constexpr std::uint32_t no_parent = std::numeric_limits<std::uint32_t>::max();

    // A pool as it was when compared with the node pool.
    struct lined_up {
        const void *pool;
        const void *packed;
        std::uint64_t revision;
        std::size_t size;
        bool aligned;
    };

    // Whether the positions were recorded for the node pool as it is now.
    template<typename Set>
    [[nodiscard]] bool current(const Set &nodes) const noexcept {
        return nodes.revision() == revision && nodes.size() == parent.size() && nodes.data() == packed;
    }

    // Whether `pool` holds the entities of the node pool at the same iteration positions (its last packed
    // positions equal the node pool's), compared once per revision, size and array of the pool.
    template<typename Set, typename Nodes>
    [[nodiscard]] bool aligned(const Set &pool, const Nodes &nodes) {
        const auto count = parent.size();
        const auto found =
            std::find_if(pools.begin(), pools.end(), [&pool](const auto &entry) { return entry.pool == &pool; });

        if (found != pools.end() && found->packed == pool.data() && found->revision == pool.revision() &&
            found->size == pool.size()) {
            return found->aligned;
        }

        const bool same =
            pool.size() >= count && std::equal(nodes.data(), nodes.data() + count,
                                               pool.data() + static_cast<std::ptrdiff_t>(pool.size() - count));
        const lined_up entry{&pool, pool.data(), pool.revision(), pool.size(), same};
        found == pools.end() ? void(pools.push_back(entry)) : void(*found = entry);
        return same;
    }

    std::vector<std::uint32_t> parent{};
    const void *packed{};
    std::uint64_t revision{};
    std::vector<lined_up> pools{};
};

// How many packed positions from pos down stay on the page of pos.
template<typename Pool>
[[nodiscard]] TESSERA_FORCE_INLINE std::size_t hierarchy_on_page(const Pool &, const std::size_t pos) noexcept {
    constexpr auto page =
        component_traits<std::remove_const_t<typename Pool::value_type>, typename Pool::entity_type>::page_size;
    return fast_mod(pos, page) + 1u;
}

// Records the parent positions of the node pool, which sort_parent_first has just arranged.
template<typename Registry, typename Nodes>
void hierarchy_record(Registry &reg, const Nodes &nodes) {
    using order_type = hierarchy_order<typename Registry::entity_type>;
    auto &order = reg.ctx().template emplace<order_type>();
    // stale until complete: an allocation that fails leaves a record that matches no pool
    order.packed = nullptr;
    order.pools.clear();
    order.parent.resize(nodes.size());

    for (std::size_t pos{}; pos < nodes.size(); ++pos) {
        const auto up = hierarchy_at(nodes, pos).parent;
        order.parent[pos] = (up == null) ? order_type::no_parent : static_cast<std::uint32_t>(nodes.index(up));
    }

    order.revision = nodes.revision();
    order.packed = nodes.data();
}

} // namespace internal

/// Arranges the node pool so that iterating it visits every parent before its children: roots first, then their
/// children, and so on by depth (breadth-first), siblings in attach order. Then arranges the pools of Other in
/// the same order (registry.sort<Other, node>()), so that a pass over them in that order reads memory forward,
/// and records in the registry's context where each node's parent is (4 bytes per node), for propagate.
/// O(n) plus the arrangement. Misuse if a group owns one of the pools.
template<typename... Other, typename Registry>
void sort_parent_first(Registry &reg) {
    internal::hierarchy_check(reg);
    using entity_type = typename Registry::entity_type;
    using node_type = basic_hierarchy_node<entity_type>;
    auto &nodes = reg.template storage<node_type>();
    TESSERA_ASSERT(!reg.template owned<node_type>(),
                   "sort_parent_first: a group owns the node pool; it cannot be arranged");
    nodes.compact();
    std::vector<entity_type> order{};
    order.reserve(nodes.size());

    for (auto [entt, node] : nodes.each()) {
        if (node.parent == null) {
            order.push_back(entt);
        }
    }

    internal::hierarchy_expand(nodes, order, 0u);
    nodes.sort_as(order.cbegin(), order.cend());
    (reg.template sort<Other, node_type>(), ...);
    internal::hierarchy_record(reg, nodes);
}

namespace internal {

// One pool read at the iteration positions of the node pool, a page at a time. While the pool is arranged like
// the node pool (as sort_parent_first<Local, World> leaves it), the element at the same position is the one
// wanted and no sparse lookup happens; otherwise the lookup finds it.
template<typename Pool>
struct aligned_pool {
    using entity_type = typename Pool::entity_type;
    using element_type = std::remove_reference_t<decltype(std::declval<Pool &>().get(entity_type{}))>;
    static constexpr std::ptrdiff_t page =
        static_cast<std::ptrdiff_t>(component_traits<std::remove_const_t<element_type>, entity_type>::page_size);

    explicit aligned_pool(Pool &pool)
        : storage{&pool}, elements{pool.begin()}, count{static_cast<std::ptrdiff_t>(pool.size())} {}

    // The packed position of iteration position pos (iteration runs from the last packed position down).
    [[nodiscard]] std::ptrdiff_t raw(const std::ptrdiff_t pos) const noexcept { return count - 1 - pos; }

    // How many iteration positions from pos on stay on the page of pos (the whole rest without a page).
    [[nodiscard]] std::ptrdiff_t on_page(const std::ptrdiff_t pos) const noexcept {
        return pos < count ? raw(pos) % page + 1 : std::numeric_limits<std::ptrdiff_t>::max();
    }

    // The identifier at pos; the one at pos + step is ids(pos)[-step] on the same page.
    [[nodiscard]] const entity_type *ids(const std::ptrdiff_t pos) const noexcept {
        return pos < count ? storage->data() + raw(pos) : nullptr;
    }

    // The element at pos; the one at pos + step is at(pos)[-step] on the same page.
    [[nodiscard]] element_type *at(const std::ptrdiff_t pos) const noexcept {
        return pos < count ? &elements[pos] : nullptr;
    }

    [[nodiscard]] element_type *find(const entity_type entt) const {
        return storage->contains(entt) ? &storage->get(entt) : nullptr;
    }

    // The position of entt when the pool holds it: a short walk forward from `from` (in breadth-first order the
    // parents of consecutive entities follow one another), the sparse lookup otherwise; -1 without it.
    [[nodiscard]] std::ptrdiff_t seek(const std::ptrdiff_t from, const entity_type entt) const {
        constexpr std::ptrdiff_t walk = 8;

        for (auto pos = from, last = (count - from < walk) ? count : from + walk; pos < last; ++pos) {
            if (storage->data()[raw(pos)] == entt) {
                return pos;
            }
        }

        return storage->contains(entt) ? raw(static_cast<std::ptrdiff_t>(storage->index(entt))) : -1;
    }

    Pool *storage;
    decltype(std::declval<Pool &>().begin()) elements;
    std::ptrdiff_t count;
};

// propagate over pools in any state: each pool is read at the node pool's positions while it holds the same
// entity there, and looked up otherwise; each parent is found by a short walk or a lookup.
template<typename Local, typename World, typename Nodes, typename Locals, typename Worlds, typename Func>
void propagate_checked(Nodes &node_storage, Locals &local_storage, Worlds &world_storage, Func &func) {
    using entity_type = typename Nodes::entity_type;
    const aligned_pool<Nodes> nodes{node_storage};
    const aligned_pool<const Locals> locals{local_storage};
    const aligned_pool<Worlds> worlds{world_storage};
    // consecutive siblings share their parent: its World is found once for the whole run
    entity_type last_parent{null};
    const World *parent_world = nullptr;
    std::ptrdiff_t cursor{};

    for (std::ptrdiff_t pos{}; pos < nodes.count;) {
        // a block of positions that stays on one page of every pool: plain pointers inside it
        const auto length = std::min({nodes.count - pos, nodes.on_page(pos), locals.on_page(pos), worlds.on_page(pos)});
        const auto *node_ids = nodes.ids(pos);
        const auto *node = nodes.at(pos);
        const auto *local_ids = locals.ids(pos);
        const auto *local_at = locals.at(pos);
        const auto *world_ids = worlds.ids(pos);
        auto *world_at = worlds.at(pos);

        for (std::ptrdiff_t step{}; step < length; ++step) {
            const auto entt = node_ids[-step];
            const Local *local{};
            World *world{};

            if (local_ids != nullptr && local_ids[-step] == entt && world_ids != nullptr && world_ids[-step] == entt)
                [[likely]] {
                local = local_at - step;
                world = world_at - step;
            } else {
                // out of step with the node pool (or a tombstone of it): the sparse lookups decide
                local = locals.find(entt);
                world = worlds.find(entt);

                if (local == nullptr || world == nullptr) {
                    continue;
                }
            }

            if (const auto parent = node[-step].parent; parent != last_parent) {
                last_parent = parent;
                const auto found = (parent == null) ? -1 : worlds.seek(cursor, parent);
                cursor = (found < 0) ? cursor : found;
                parent_world = (found < 0) ? nullptr : &worlds.elements[found];
            }

            func(*world, *local, std::as_const(parent_world));
        }

        pos += length;
    }
}

// propagate over pools that hold the same entities at the same iteration positions, with parent positions
// recorded for the node pool as it is: the pass reads the three pools forward like a plain loop over a
// precomputed order. A node whose recorded position does not hold its parent's World (attached or detached since
// sorting) has its parent looked up instead.
template<typename Local, typename World, typename Order, typename Nodes, typename Locals, typename Worlds,
         typename Func>
void propagate_recorded(const Order &order, Nodes &nodes, Locals &locals, Worlds &worlds, Func &func) {
    const auto count = nodes.size();
    const auto local_shift = locals.size() - count;
    const auto world_shift = worlds.size() - count;
    const auto *world_ids = worlds.data();

    // iteration order, from the last packed position down, a block at a time that stays on one page of each pool
    for (auto pos = count; pos != 0u;) {
        const auto last = pos - 1u;
        const auto length = std::min({hierarchy_on_page(nodes, last), hierarchy_on_page(locals, last + local_shift),
                                      hierarchy_on_page(worlds, last + world_shift)});
        const auto *node = &hierarchy_at(nodes, last);
        const auto *local = &hierarchy_at(locals, last + local_shift);
        auto *world = &hierarchy_at(worlds, last + world_shift);
        const auto *up = order.parent.data() + last;

        for (std::ptrdiff_t step{}; step > -static_cast<std::ptrdiff_t>(length); --step) {
            const auto parent = node[step].parent;
            const World *parent_world = nullptr;

            if (const auto at = up[step]; at != Order::no_parent && world_ids[at + world_shift] == parent) [[likely]] {
                parent_world = &hierarchy_at(worlds, at + world_shift);
            } else if (parent != null && worlds.contains(parent)) {
                parent_world = &worlds.get(parent);
            }

            func(world[step], local[step], parent_world);
        }

        pos -= length;
    }
}

} // namespace internal

namespace internal {

// The record of sort_parent_first if it holds for the pools of Local and World as they are now, nullptr if not.
template<typename Local, typename World, typename Registry>
[[nodiscard]] hierarchy_order<typename Registry::entity_type> *hierarchy_recorded(Registry &reg) {
    auto *order = reg.ctx().template find<hierarchy_order<typename Registry::entity_type>>();
    const auto &nodes = reg.template storage<basic_hierarchy_node<typename Registry::entity_type>>();
    const bool holds = order != nullptr && order->current(nodes) &&
                       order->aligned(reg.template storage<Local>(), nodes) &&
                       order->aligned(reg.template storage<World>(), nodes);
    return holds ? order : nullptr;
}

} // namespace internal

/// Computes World for every entity that has a node, a Local and a World, walking the node pool in its iteration
/// order: func(World &world, const Local &local, const World *parent) is called with the parent's World (null
/// for a root or a parent without one). Parents must come before their children, which sort_parent_first
/// arranges. While the pools are as sort_parent_first<Local, World> left them (no node, Local or World added,
/// removed or moved since; attaching and detaching are fine) the pass reads the three pools forward and finds
/// each parent at a recorded position; otherwise it checks the pools at every position and looks up what is out
/// of step, which costs more and gives the same results. func must not add or remove components.
template<typename Local, typename World, typename Registry, typename Func>
void propagate(Registry &reg, Func func) {
    static_assert(!std::is_same_v<std::remove_const_t<Local>, std::remove_const_t<World>>,
                  "propagate: Local and World must be different component types");
    static_assert(component_traits<std::remove_const_t<Local>, typename Registry::entity_type>::page_size != 0u &&
                      component_traits<std::remove_const_t<World>, typename Registry::entity_type>::page_size != 0u,
                  "propagate: Local and World must be stored as instances (not empty types)");
    using entity_type = typename Registry::entity_type;
    auto &nodes = reg.template storage<basic_hierarchy_node<entity_type>>();
    const auto &locals = reg.template storage<Local>();
    auto &worlds = reg.template storage<World>();

    [[maybe_unused]] const auto before =
        std::tuple{nodes.revision(), nodes.size(), locals.revision(), locals.size(), worlds.revision(), worlds.size()};

    if (const auto *order = internal::hierarchy_recorded<Local, World>(reg); order != nullptr) {
        internal::propagate_recorded<Local, World>(*order, nodes, locals, worlds, func);
    } else {
        internal::propagate_checked<Local, World>(nodes, locals, worlds, func);
    }

    TESSERA_ASSERT((before == std::tuple{nodes.revision(), nodes.size(), locals.revision(), locals.size(),
                                         worlds.revision(), worlds.size()}),
                   "propagate: func added, removed or moved nodes, Locals or Worlds while the pass walked them");
}

} // namespace tessera

#endif
