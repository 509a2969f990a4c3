// Tests of hierarchy/order.hpp: sort_parent_first arranges the node pool parent-first (and the pools named with it
// alike) and records the parent positions; propagate computes from the recorded positions while they hold and
// gives the same results when they do not: links changed after sorting (attach, detach, patch), nodes added or
// destroyed, pools sorted or thinned, pools larger than the node pool, and func changing the pools (misuse).
#include "../hierarchy_fixture.hpp"
#include "support/misuse.hpp"
#include <algorithm>
#include <gtest/gtest.h>
#include <tessera/entity/entity.hpp>
#include <tessera/entity/hierarchy.hpp>
#include <tessera/entity/registry.hpp>
#include <vector>

namespace {
namespace unit_entity_hierarchy_order {

namespace {

using entity = tessera::entity;
using hierarchy_test::forest;
using hierarchy_test::local;
using hierarchy_test::world;
const entity null_entity = tessera::null;

// out = local + the parent's world, or local + 100 without a parent's world
void run(tessera::registry &registry) {
    tessera::propagate<local, world>(registry, [](world &out, const local &in, const world *parent) {
        out.x = in.x + (parent ? parent->x : 100.0f);
    });
}

// Every entity with a node, a local and a world holds what run() computes from its parent's world as it is now:
// a node given the world of a parent it no longer has fails here.
void expect_propagated(const tessera::registry &registry) {
    for (auto [entt, node] : registry.storage<tessera::hierarchy_node>()->each()) {
        if (registry.all_of<local, world>(entt)) {
            const bool has_parent = node.parent != null_entity && registry.all_of<world>(node.parent);
            const float base = has_parent ? registry.get<world>(node.parent).x : 100.0f;
            EXPECT_EQ(registry.get<world>(entt).x, registry.get<local>(entt).x + base)
                << "entity " << tessera::to_integral(entt);
        }
    }
}

// Whether propagate<local, world> would take the recorded positions.
bool recorded(tessera::registry &registry) {
    return tessera::internal::hierarchy_recorded<local, world>(registry) != nullptr;
}

// After a change to the pools or the links: propagate takes the recorded positions if and only if `fast`, and
// every result holds.
void propagate_after_change(tessera::registry &registry, const bool fast) {
    EXPECT_EQ(recorded(registry), fast);
    run(registry);
    expect_propagated(registry);
}

// The forest with locals 1, 2, 4, 8, 16 and 32 (every sum is different), arranged by sort_parent_first<local, world>.
struct arranged : forest {
    arranged() {
        float value = 1.0f;

        for (const auto entt : {root, a, b, c, d, e}) {
            registry.emplace<local>(entt, value);
            registry.emplace<world>(entt);
            value *= 2.0f;
        }

        tessera::sort_parent_first<local, world>(registry);
    }
};

} // namespace

TEST(HierarchyOrder, SortParentFirst) {
    tessera::registry registry;
    std::vector<entity> all(8u);
    registry.create(all.begin(), all.end());
    // built children first, so that the pool starts child before parent
    tessera::attach(registry, all[7], all[6]);
    tessera::attach(registry, all[6], all[5]);
    tessera::attach(registry, all[5], all[0]);
    tessera::attach(registry, all[4], all[0]);
    tessera::attach(registry, all[3], all[1]);
    tessera::attach(registry, all[2], all[3]);
    // a hole in the pool
    registry.destroy(all[2]);

    for (const auto entt : all) {
        if (registry.valid(entt)) {
            registry.emplace<local>(entt);
            registry.emplace<world>(entt);
        }
    }

    tessera::sort_parent_first<local, world>(registry);
    const auto &nodes = registry.storage<tessera::hierarchy_node>();
    EXPECT_TRUE(nodes.contiguous());
    std::vector<entity> seen{};

    for (auto [entt, node] : nodes.each()) {
        if (node.parent != null_entity) {
            EXPECT_NE(std::find(seen.begin(), seen.end(), node.parent), seen.end());
        }

        seen.push_back(entt);
    }

    EXPECT_EQ(seen.size(), 7u);
    // the first entities iterated, in the same order
    const tessera::sparse_set &locals = registry.storage<local>();
    const tessera::sparse_set &worlds = registry.storage<world>();
    EXPECT_EQ(std::vector<entity>(locals.begin(), locals.end()), seen);
    EXPECT_EQ(std::vector<entity>(worlds.begin(), worlds.end()), seen);
}

TEST(HierarchyOrder, Propagate) {
    forest f;
    const auto lone = f.registry.create();

    for (const auto entt : {f.root, f.a, f.b, f.c, f.d, f.e, lone}) {
        f.registry.emplace<local>(entt, 1.0f);
        f.registry.emplace<world>(entt);
    }

    f.registry.get<local>(f.a).x = 10.0f;
    tessera::sort_parent_first<local, world>(f.registry);
    tessera::propagate<local, world>(f.registry, [](world &out, const local &in, const world *parent) {
        out.x = in.x + (parent ? parent->x : 0.0f);
    });
    EXPECT_EQ(f.registry.get<world>(f.root).x, 1.0f);
    EXPECT_EQ(f.registry.get<world>(f.a).x, 11.0f);
    EXPECT_EQ(f.registry.get<world>(f.d).x, 12.0f);
    EXPECT_EQ(f.registry.get<world>(f.e).x, 3.0f);
    // no node: not visited
    EXPECT_EQ(f.registry.get<world>(lone).x, 0.0f);
}

TEST(HierarchyOrder, PropagateOutOfStep) {
    // pools not arranged like the node pool, a node without a Local and a parent without a World: lookups decide
    forest f;
    const auto extra = f.registry.create();
    f.registry.emplace<world>(extra);

    for (const auto entt : {f.e, f.d, f.c, f.b, f.a, f.root}) {
        if (entt != f.b) {
            f.registry.emplace<world>(entt);
        }

        if (entt != f.c) {
            f.registry.emplace<local>(entt, 1.0f);
        }
    }

    tessera::sort_parent_first(f.registry);
    f.registry.get<world>(f.c).x = -1.0f;
    tessera::propagate<local, world>(f.registry, [](world &out, const local &in, const world *parent) {
        out.x = in.x + (parent ? parent->x : 100.0f);
    });
    EXPECT_EQ(f.registry.get<world>(f.root).x, 101.0f);
    EXPECT_EQ(f.registry.get<world>(f.a).x, 102.0f);
    EXPECT_EQ(f.registry.get<world>(f.d).x, 103.0f);
    EXPECT_EQ(f.registry.get<world>(f.c).x, -1.0f);
    // b has no World: e counts as a root
    EXPECT_EQ(f.registry.get<world>(f.e).x, 101.0f);
}

TEST(HierarchyOrder, RecordsParentPositions) {
    arranged f;
    ASSERT_TRUE(recorded(f.registry));
    const auto *order = f.registry.ctx().find<tessera::internal::hierarchy_order<entity>>();
    ASSERT_NE(order, nullptr);
    const auto &nodes = f.registry.storage<tessera::hierarchy_node>();
    ASSERT_EQ(order->parent.size(), nodes.size());

    for (std::size_t pos{}; pos < nodes.size(); ++pos) {
        const auto parent = nodes.get(nodes.data()[pos]).parent;
        const auto at = order->parent[pos];
        EXPECT_EQ(at == order->no_parent ? null_entity : nodes.data()[at], parent);
    }

    run(f.registry);
    expect_propagated(f.registry);
    EXPECT_EQ(f.registry.get<world>(f.root).x, 101.0f);
    EXPECT_EQ(f.registry.get<world>(f.d).x, 119.0f);
    EXPECT_EQ(f.registry.get<world>(f.e).x, 137.0f);
}

TEST(HierarchyOrder, AttachAfterSortingFindsTheNewParent) {
    arranged f;
    // e moves from b to c, which still comes before it
    tessera::attach(f.registry, f.e, f.c);
    propagate_after_change(f.registry, true);
    EXPECT_EQ(f.registry.get<world>(f.e).x, 32.0f + 111.0f);
}

TEST(HierarchyOrder, DetachAfterSortingMakesARoot) {
    arranged f;
    tessera::detach(f.registry, f.a);
    propagate_after_change(f.registry, true);
    EXPECT_EQ(f.registry.get<world>(f.a).x, 102.0f);
    EXPECT_EQ(f.registry.get<world>(f.c).x, 110.0f);
}

TEST(HierarchyOrder, LinksPatchedAfterSorting) {
    arranged f;
    // a parent written into the node without attach (the lists no longer agree): propagate reads the node's parent
    f.registry.patch<tessera::hierarchy_node>(f.e, [&f](tessera::hierarchy_node &node) { node.parent = f.d; });
    f.registry.patch<tessera::hierarchy_node>(f.c, [](tessera::hierarchy_node &node) { node.parent = null_entity; });
    propagate_after_change(f.registry, true);
    EXPECT_EQ(f.registry.get<world>(f.e).x, 32.0f + 119.0f);
    EXPECT_EQ(f.registry.get<world>(f.c).x, 108.0f);
    // the links put back, so that destroying the registry finds consistent lists
    f.registry.patch<tessera::hierarchy_node>(f.e, [&f](tessera::hierarchy_node &node) { node.parent = f.b; });
    f.registry.patch<tessera::hierarchy_node>(f.c, [&f](tessera::hierarchy_node &node) { node.parent = f.a; });
}

TEST(HierarchyOrder, NodeAddedAfterSorting) {
    arranged f;
    run(f.registry);
    const auto extra = f.registry.create();
    f.registry.emplace<local>(extra, 64.0f);
    f.registry.emplace<world>(extra);
    tessera::attach(f.registry, extra, f.d);
    propagate_after_change(f.registry, false);
    EXPECT_EQ(f.registry.get<world>(extra).x, 64.0f + 119.0f);
}

TEST(HierarchyOrder, DestroyAfterSorting) {
    arranged f;
    f.registry.destroy(f.b);
    propagate_after_change(f.registry, false);
    EXPECT_EQ(f.registry.get<world>(f.d).x, 119.0f);
}

TEST(HierarchyOrder, NodesSwappedAfterSorting) {
    arranged f;
    // siblings exchanged: still parent-first, but no longer where the record has them
    f.registry.storage<tessera::hierarchy_node>().swap_elements(f.c, f.e);
    propagate_after_change(f.registry, false);
}

TEST(HierarchyOrder, WorldsSortedAfterSorting) {
    arranged f;
    f.registry.sort<world>([](const entity lhs, const entity rhs) { return lhs > rhs; });
    propagate_after_change(f.registry, false);
    EXPECT_EQ(f.registry.get<world>(f.e).x, 137.0f);
}

TEST(HierarchyOrder, LocalRemovedAfterSorting) {
    arranged f;
    f.registry.remove<local>(f.a);
    propagate_after_change(f.registry, false);
    // a is skipped (its world stays 0), its children take that world
    EXPECT_EQ(f.registry.get<world>(f.a).x, 0.0f);
    EXPECT_EQ(f.registry.get<world>(f.c).x, 8.0f);
}

TEST(HierarchyOrder, PoolsArrangedByHand) {
    arranged f;
    // the pools arranged after the node pool was sorted on its own: compared on the first propagate
    tessera::sort_parent_first(f.registry);
    f.registry.sort<world>([](const entity lhs, const entity rhs) { return lhs > rhs; });
    EXPECT_FALSE(recorded(f.registry));
    f.registry.sort<world, tessera::hierarchy_node>();
    propagate_after_change(f.registry, true);
}

TEST(HierarchyOrder, PoolsLargerThanTheNodePool) {
    forest f;
    // entities with a local and a world but no node, before and after the others
    const auto first = f.registry.create();
    f.registry.emplace<local>(first, 1.0f);
    f.registry.emplace<world>(first, -1.0f);

    for (const auto entt : {f.root, f.a, f.b, f.c, f.d, f.e}) {
        f.registry.emplace<local>(entt, 1.0f);
        f.registry.emplace<world>(entt);
    }

    const auto last = f.registry.create();
    f.registry.emplace<world>(last, -1.0f);
    f.registry.emplace<local>(last, 1.0f);
    tessera::sort_parent_first<local, world>(f.registry);
    propagate_after_change(f.registry, true);
    EXPECT_EQ(f.registry.get<world>(f.e).x, 103.0f);
    EXPECT_EQ(f.registry.get<world>(first).x, -1.0f);
    EXPECT_EQ(f.registry.get<world>(last).x, -1.0f);
}

TEST(HierarchyOrder, SortingAgainRecordsTheNewLinks) {
    arranged f;
    tessera::attach(f.registry, f.b, f.d);
    tessera::sort_parent_first<local, world>(f.registry);
    ASSERT_TRUE(recorded(f.registry));
    const auto &nodes = f.registry.storage<tessera::hierarchy_node>();
    const auto &order = f.registry.ctx().get<tessera::internal::hierarchy_order<entity>>();
    EXPECT_EQ(nodes.data()[order.parent[nodes.index(f.b)]], f.d);
    run(f.registry);
    expect_propagated(f.registry);
    EXPECT_EQ(f.registry.get<world>(f.e).x, 32.0f + 4.0f + 119.0f);
}

TEST(HierarchyOrder, FuncChangingThePoolsIsMisuse) {
    arranged f;
    const auto extra = f.registry.create();
    // the last entity visited is at packed position 0: the pools change after the pass has read everything
    const auto last = f.registry.storage<tessera::hierarchy_node>().data()[0];
    const auto adds = [&](world &out, const local &in, const world *) {
        out.x = in.x;

        if (&out == &f.registry.get<world>(last)) {
            f.registry.emplace<world>(extra);
        }
    };
    EXPECT_MISUSE((tessera::propagate<local, world>(f.registry, adds)), "propagate: func added, removed or moved");
}

} // namespace unit_entity_hierarchy_order
} // namespace
