// Tests of hierarchy.hpp: attach, detach and reparent keep the links consistent in attach order, cycles and
// invalid entities are refused, the queries and both walks, cascade destroy through registry.destroy, remove,
// clear and command buffers, the orphan policy (per registry and per call), and snapshots round-tripping the
// links, including through continuous_loader. sort_parent_first and propagate: hierarchy_order.cpp.
#include "hierarchy_fixture.hpp"
#include "support/misuse.hpp"
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <gtest/gtest.h>
#include <iterator>
#include <tessera/archive/binary.hpp>
#include <tessera/entity/clone.hpp>
#include <tessera/entity/command_buffer.hpp>
#include <tessera/entity/entity.hpp>
#include <tessera/entity/hierarchy.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/snapshot.hpp>
#include <vector>

namespace {
namespace unit_entity_hierarchy {

namespace {

using entity = tessera::entity;
const entity null_entity = tessera::null;

template<typename Range>
std::vector<entity> to_vector(const Range &range) {
    return std::vector<entity>(range.begin(), range.end());
}

// Checks every link of every node against the children lists: each child names its parent, the siblings are
// linked both ways and the counts match.
void expect_consistent(const tessera::registry &registry) {
    const auto *nodes = registry.storage<tessera::hierarchy_node>();

    if (nodes == nullptr) {
        return;
    }

    for (auto [entt, node] : nodes->each()) {
        ASSERT_TRUE(registry.valid(entt));
        std::uint32_t count{};
        entity prev = null_entity;

        for (auto child = node.first_child; child != null_entity; child = nodes->get(child).next) {
            ASSERT_TRUE(nodes->contains(child));
            EXPECT_EQ(nodes->get(child).parent, entt);
            EXPECT_EQ(nodes->get(child).prev, prev);
            prev = child;
            ++count;
        }

        EXPECT_EQ(node.last_child, prev);
        EXPECT_EQ(node.children, count);

        if (node.parent == null_entity) {
            EXPECT_EQ(node.prev, null_entity);
            EXPECT_EQ(node.next, null_entity);
        } else {
            ASSERT_TRUE(nodes->contains(node.parent));
        }
    }
}

using hierarchy_test::forest;

} // namespace

TEST(Hierarchy, NodeLayout) {
    tessera::registry registry;
    const auto entt = registry.create();
    static_assert(std::forward_iterator<decltype(tessera::children_of(registry, entt).begin())>);
    static_assert(std::forward_iterator<decltype(tessera::depth_first(registry, entt).begin())>);
    EXPECT_EQ(sizeof(tessera::hierarchy_node), 24u);
    EXPECT_TRUE(tessera::component_traits<tessera::hierarchy_node>::in_place_delete);
}

TEST(Hierarchy, AttachInOrder) {
    forest f;
    EXPECT_EQ(tessera::parent_of(f.registry, f.root), null_entity);
    EXPECT_EQ(tessera::parent_of(f.registry, f.a), f.root);
    EXPECT_EQ(tessera::parent_of(f.registry, f.c), f.a);
    EXPECT_EQ(to_vector(tessera::children_of(f.registry, f.root)), (std::vector{f.a, f.b}));
    EXPECT_EQ(to_vector(tessera::children_of(f.registry, f.a)), (std::vector{f.c, f.d}));
    EXPECT_TRUE(to_vector(tessera::children_of(f.registry, f.c)).empty());
    EXPECT_EQ(tessera::child_count(f.registry, f.a), 2u);
    EXPECT_EQ(tessera::child_count(f.registry, f.c), 0u);
    expect_consistent(f.registry);
}

TEST(Hierarchy, EntityWithoutNode) {
    tessera::registry registry;
    const auto lone = registry.create();
    EXPECT_EQ(tessera::parent_of(registry, lone), null_entity);
    EXPECT_TRUE(to_vector(tessera::children_of(registry, lone)).empty());
    EXPECT_TRUE(to_vector(tessera::ancestors_of(registry, lone)).empty());
    EXPECT_EQ(tessera::depth_of(registry, lone), 0u);
    EXPECT_EQ(tessera::child_count(registry, lone), 0u);
    EXPECT_EQ(to_vector(tessera::depth_first(registry, lone)), std::vector{lone});
    EXPECT_EQ(tessera::breadth_first(registry, lone), std::vector{lone});
    tessera::detach(registry, lone);
    EXPECT_FALSE(registry.all_of<tessera::hierarchy_node>(lone));
}

TEST(Hierarchy, ReparentMovesToTheEnd) {
    forest f;
    tessera::attach(f.registry, f.c, f.b);
    EXPECT_EQ(tessera::parent_of(f.registry, f.c), f.b);
    EXPECT_EQ(to_vector(tessera::children_of(f.registry, f.a)), std::vector{f.d});
    EXPECT_EQ(to_vector(tessera::children_of(f.registry, f.b)), (std::vector{f.e, f.c}));
    // the middle of a list
    tessera::attach(f.registry, f.d, f.b);
    tessera::attach(f.registry, f.e, f.a);
    EXPECT_EQ(to_vector(tessera::children_of(f.registry, f.b)), (std::vector{f.c, f.d}));
    // the same parent again changes nothing
    tessera::attach(f.registry, f.c, f.b);
    EXPECT_EQ(to_vector(tessera::children_of(f.registry, f.b)), (std::vector{f.c, f.d}));
    expect_consistent(f.registry);
}

TEST(Hierarchy, Detach) {
    forest f;
    tessera::detach(f.registry, f.a);
    EXPECT_EQ(tessera::parent_of(f.registry, f.a), null_entity);
    EXPECT_EQ(to_vector(tessera::children_of(f.registry, f.root)), std::vector{f.b});
    // the detached entity keeps its own children; detaching a root does nothing
    EXPECT_EQ(to_vector(tessera::children_of(f.registry, f.a)), (std::vector{f.c, f.d}));
    tessera::detach(f.registry, f.a);
    tessera::detach(f.registry, f.root);
    EXPECT_EQ(to_vector(tessera::children_of(f.registry, f.root)), std::vector{f.b});
    tessera::detach(f.registry, f.d);
    tessera::detach(f.registry, f.c);
    EXPECT_EQ(tessera::child_count(f.registry, f.a), 0u);
    expect_consistent(f.registry);
}

TEST(Hierarchy, DetachChildren) {
    forest f;
    tessera::detach_children(f.registry, f.root);
    EXPECT_EQ(tessera::child_count(f.registry, f.root), 0u);
    EXPECT_EQ(tessera::parent_of(f.registry, f.a), null_entity);
    EXPECT_EQ(tessera::parent_of(f.registry, f.b), null_entity);
    EXPECT_EQ(tessera::parent_of(f.registry, f.c), f.a);
    expect_consistent(f.registry);
}

TEST(Hierarchy, AncestorsAndDepth) {
    forest f;
    EXPECT_EQ(to_vector(tessera::ancestors_of(f.registry, f.d)), (std::vector{f.a, f.root}));
    EXPECT_TRUE(to_vector(tessera::ancestors_of(f.registry, f.root)).empty());
    EXPECT_EQ(tessera::depth_of(f.registry, f.root), 0u);
    EXPECT_EQ(tessera::depth_of(f.registry, f.b), 1u);
    EXPECT_EQ(tessera::depth_of(f.registry, f.e), 2u);
}

TEST(Hierarchy, Traversals) {
    forest f;
    EXPECT_EQ(to_vector(tessera::depth_first(f.registry, f.root)), (std::vector{f.root, f.a, f.c, f.d, f.b, f.e}));
    EXPECT_EQ(to_vector(tessera::depth_first(f.registry, f.a)), (std::vector{f.a, f.c, f.d}));
    EXPECT_EQ(to_vector(tessera::depth_first(f.registry, f.e)), std::vector{f.e});
    EXPECT_EQ(tessera::breadth_first(f.registry, f.root), (std::vector{f.root, f.a, f.b, f.c, f.d, f.e}));
    EXPECT_EQ(tessera::breadth_first(f.registry, f.b), (std::vector{f.b, f.e}));

    std::vector<entity> seen{};
    tessera::each_depth_first(f.registry, f.root, [&seen](const entity entt) { seen.push_back(entt); });
    EXPECT_EQ(seen, (std::vector{f.root, f.a, f.c, f.d, f.b, f.e}));
    seen.clear();
    tessera::each_breadth_first(f.registry, f.root, [&seen](const entity entt) { seen.push_back(entt); });
    EXPECT_EQ(seen, (std::vector{f.root, f.a, f.b, f.c, f.d, f.e}));

    // the breadth-first callback may change the tree: the order was read before
    seen.clear();
    tessera::each_breadth_first(f.registry, f.root, [&f, &seen](const entity entt) {
        seen.push_back(entt);
        tessera::detach(f.registry, entt);
    });
    EXPECT_EQ(seen.size(), 6u);
    EXPECT_EQ(tessera::child_count(f.registry, f.root), 0u);
    expect_consistent(f.registry);
}

TEST(Hierarchy, Misuse) {
    forest f;
    EXPECT_MISUSE(tessera::attach(f.registry, f.a, f.a), "attach: an entity cannot be its own parent");
    EXPECT_MISUSE(tessera::attach(f.registry, f.root, f.c), "attach: parent is a descendant of child");
    EXPECT_MISUSE(tessera::attach(f.registry, f.a, f.d), "attach: parent is a descendant of child");
    const auto gone = f.registry.create();
    f.registry.destroy(gone);
    EXPECT_MISUSE(tessera::attach(f.registry, gone, f.a), "attach: invalid child");
    EXPECT_MISUSE(tessera::attach(f.registry, f.a, gone), "attach: invalid parent");
    EXPECT_MISUSE(tessera::detach(f.registry, gone), "detach: invalid entity");
    EXPECT_MISUSE(tessera::detach_children(f.registry, gone), "detach_children: invalid entity");
    EXPECT_MISUSE(static_cast<void>(tessera::parent_of(f.registry, gone)), "parent_of: invalid entity");
    EXPECT_MISUSE(static_cast<void>(tessera::children_of(f.registry, gone)), "children_of: invalid entity");
    EXPECT_MISUSE(static_cast<void>(tessera::child_count(f.registry, gone)), "child_count: invalid entity");
    EXPECT_MISUSE(static_cast<void>(tessera::ancestors_of(f.registry, gone)), "ancestors_of: invalid entity");
    EXPECT_MISUSE(static_cast<void>(tessera::depth_of(f.registry, gone)), "ancestors_of: invalid entity");
    EXPECT_MISUSE(static_cast<void>(tessera::depth_first(f.registry, gone)), "depth_first: invalid entity");
    EXPECT_MISUSE(static_cast<void>(tessera::breadth_first(f.registry, gone)), "breadth_first: invalid entity");
    EXPECT_MISUSE(tessera::destroy_with(f.registry, gone, tessera::hierarchy_policy::orphan_children),
                  "destroy_with: invalid entity");
    // the refused attaches changed nothing
    EXPECT_EQ(tessera::parent_of(f.registry, f.a), f.root);
    EXPECT_EQ(tessera::parent_of(f.registry, f.root), null_entity);
    expect_consistent(f.registry);
}

TEST(Hierarchy, LinkToAnEntityWithoutANodeIsMisuse) {
    forest f;
    const auto stranger = f.registry.create();
    // a sibling link written by hand names an entity that has no node: detaching d has to follow it
    f.registry.patch<tessera::hierarchy_node>(f.d, [stranger](tessera::hierarchy_node &node) { node.next = stranger; });
    EXPECT_MISUSE(tessera::detach(f.registry, f.d), "hierarchy: a link names an entity without a node");
    // put back, so that the registry can be destroyed
    f.registry.patch<tessera::hierarchy_node>(f.d, [](tessera::hierarchy_node &node) { node.next = null_entity; });
    expect_consistent(f.registry);
}

TEST(Hierarchy, DestroyCascades) {
    forest f;
    std::vector<entity> destroyed{};
    f.registry.on_destroy<entity>()
        .connect<[](std::vector<entity> &out, tessera::registry &, const entity entt) { out.push_back(entt); }>(
            destroyed);
    f.registry.destroy(f.a);
    EXPECT_FALSE(f.registry.valid(f.a));
    EXPECT_FALSE(f.registry.valid(f.c));
    EXPECT_FALSE(f.registry.valid(f.d));
    EXPECT_TRUE(f.registry.valid(f.b));
    // leaves first, then the entity itself
    EXPECT_EQ(destroyed, (std::vector{f.c, f.d, f.a}));
    EXPECT_EQ(to_vector(tessera::children_of(f.registry, f.root)), std::vector{f.b});
    f.registry.destroy(f.root);
    EXPECT_FALSE(f.registry.valid(f.b));
    EXPECT_FALSE(f.registry.valid(f.e));
    expect_consistent(f.registry);
}

TEST(Hierarchy, DeepChainCascadeDoesNotRecurse) {
    tessera::registry registry;
    const auto leaf = registry.create();
    auto root = leaf;

    // built from the leaf up, so that the cycle check of each attach (a walk up from the parent) stays short
    for (int i = 0; i < 100000; ++i) {
        const auto next = registry.create();
        tessera::attach(registry, root, next);
        root = next;
    }

    EXPECT_EQ(tessera::depth_of(registry, leaf), 100000u);
    registry.destroy(root);
    EXPECT_EQ(registry.storage<entity>().free_list(), 0u);
}

TEST(Hierarchy, DestroyFromAnotherListener) {
    // a listener of another pool destroys more of the tree while the registry is destroying an entity
    forest f;
    struct marker {};
    f.registry.emplace<marker>(f.c);
    const auto other = f.b;
    f.registry.on_destroy<marker>().connect<[](entity other_entt, tessera::registry &reg, entity) {
        if (reg.valid(other_entt)) {
            reg.destroy(other_entt);
        }
    }>(other);
    f.registry.destroy(f.a);
    EXPECT_FALSE(f.registry.valid(f.b));
    EXPECT_FALSE(f.registry.valid(f.e));
    EXPECT_TRUE(f.registry.valid(f.root));
    EXPECT_EQ(tessera::child_count(f.registry, f.root), 0u);
    expect_consistent(f.registry);
}

TEST(Hierarchy, RemoveAndClearCascade) {
    forest f;
    f.registry.remove<tessera::hierarchy_node>(f.b);
    EXPECT_TRUE(f.registry.valid(f.b));
    EXPECT_FALSE(f.registry.valid(f.e));
    expect_consistent(f.registry);
    f.registry.clear();
    EXPECT_EQ(f.registry.storage<entity>().free_list(), 0u);
    EXPECT_TRUE(f.registry.storage<tessera::hierarchy_node>().empty());

    // clearing the node pool alone under the orphan policy keeps every entity
    forest g;
    g.registry.ctx().emplace<tessera::hierarchy_policy>(tessera::hierarchy_policy::orphan_children);
    g.registry.clear<tessera::hierarchy_node>();
    EXPECT_EQ(g.registry.storage<entity>().free_list(), 6u);
    EXPECT_TRUE(g.registry.storage<tessera::hierarchy_node>().empty());
}

TEST(Hierarchy, CommandBufferCascades) {
    forest f;
    tessera::command_buffer buffer;
    buffer.destroy(f.a);
    buffer.destroy(f.c); // already gone by the time it applies: skipped
    EXPECT_TRUE(f.registry.valid(f.c));
    buffer.apply(f.registry);
    EXPECT_FALSE(f.registry.valid(f.a));
    EXPECT_FALSE(f.registry.valid(f.c));
    EXPECT_FALSE(f.registry.valid(f.d));
    EXPECT_TRUE(f.registry.valid(f.b));
    expect_consistent(f.registry);
}

TEST(Hierarchy, OrphanPolicy) {
    forest f;
    f.registry.ctx().emplace<tessera::hierarchy_policy>(tessera::hierarchy_policy::orphan_children);
    f.registry.destroy(f.a);
    EXPECT_TRUE(f.registry.valid(f.c));
    EXPECT_TRUE(f.registry.valid(f.d));
    EXPECT_EQ(tessera::parent_of(f.registry, f.c), null_entity);
    EXPECT_EQ(to_vector(tessera::children_of(f.registry, f.root)), std::vector{f.b});
    expect_consistent(f.registry);

    // per call, against the registry's policy
    tessera::destroy_with(f.registry, f.root, tessera::hierarchy_policy::destroy_children);
    EXPECT_FALSE(f.registry.valid(f.b));
    EXPECT_FALSE(f.registry.valid(f.e));
    EXPECT_TRUE(f.registry.valid(f.c));
    expect_consistent(f.registry);
}

TEST(Hierarchy, OrphanPerCall) {
    forest f;
    const auto version = tessera::destroy_with(f.registry, f.a, tessera::hierarchy_policy::orphan_children);
    EXPECT_EQ(f.registry.current(f.a), version);
    EXPECT_FALSE(f.registry.valid(f.a));
    EXPECT_TRUE(f.registry.valid(f.c));
    EXPECT_EQ(tessera::parent_of(f.registry, f.d), null_entity);
    // the registry's default policy is untouched
    f.registry.destroy(f.b);
    EXPECT_FALSE(f.registry.valid(f.e));
    expect_consistent(f.registry);
}

TEST(Hierarchy, CloneSkipsTheNode) {
    forest f;
    const auto copy = f.registry.clone(f.a);
    EXPECT_FALSE(f.registry.all_of<tessera::hierarchy_node>(copy));
    expect_consistent(f.registry);
}

TEST(Hierarchy, SnapshotRoundTrip) {
    forest f;
    f.registry.destroy(f.d); // a hole in the node pool
    const auto bytes = tessera::save<tessera::hierarchy_node>(f.registry);
    tessera::registry copy;
    tessera::load<tessera::hierarchy_node>(copy, bytes);
    expect_consistent(copy);
    EXPECT_EQ(to_vector(tessera::depth_first(copy, f.root)), (std::vector{f.root, f.a, f.c, f.b, f.e}));
    // the loaded nodes cascade like any other
    copy.destroy(f.a);
    EXPECT_FALSE(copy.valid(f.c));
}

TEST(Hierarchy, ContinuousLoaderRemapsLinks) {
    forest f;
    tessera::registry client;
    const auto mine = client.create();
    const auto other = client.create();
    tessera::attach(client, other, mine);
    tessera::continuous_loader loader{client};

    const auto receive = [&](const std::vector<std::byte> &bytes) {
        tessera::binary_input_archive in{bytes};
        loader.get<entity>(in.section<entity>());
        tessera::load_hierarchy(client, loader, in.section<tessera::hierarchy_node>());
    };

    receive(tessera::save<tessera::hierarchy_node>(f.registry));
    const auto root = loader.map(f.root);
    ASSERT_TRUE(client.valid(root));
    EXPECT_EQ(tessera::breadth_first(client, root),
              (std::vector{root, loader.map(f.a), loader.map(f.b), loader.map(f.c), loader.map(f.d), loader.map(f.e)}));
    expect_consistent(client);

    // a local entity under a loaded one; then the server reparents and reloads
    const auto extra = client.create();
    tessera::attach(client, extra, loader.map(f.c));
    tessera::attach(f.registry, f.c, f.b);
    receive(tessera::save<tessera::hierarchy_node>(f.registry));
    expect_consistent(client);
    EXPECT_EQ(tessera::parent_of(client, loader.map(f.c)), loader.map(f.b));
    EXPECT_EQ(to_vector(tessera::children_of(client, loader.map(f.b))),
              (std::vector{loader.map(f.e), loader.map(f.c)}));
    // reloading orphaned the local child instead of destroying it, and the policy is the default again
    EXPECT_TRUE(client.valid(extra));
    EXPECT_EQ(tessera::parent_of(client, extra), null_entity);
    EXPECT_EQ(client.ctx().find<tessera::hierarchy_policy>(), nullptr);
    EXPECT_EQ(tessera::parent_of(client, other), mine);
    client.destroy(mine);
    EXPECT_FALSE(client.valid(other));
}

} // namespace unit_entity_hierarchy
} // namespace
