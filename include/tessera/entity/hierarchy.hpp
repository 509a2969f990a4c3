// Parent/child relationships as an opt-in module: an intrusive node component (links to the parent, the first
// and last child and both siblings) and free functions that attach, detach, query, walk and order trees.
// It is not part of tessera/tessera.hpp on purpose: it takes short common names in namespace tessera (attach,
// detach, parent_of, ...), and its node type changes what destroying an entity does (the subtree goes too), which
// only a program that asks for hierarchies should get. docs/hierarchy.md describes the design and the rules.
#ifndef TESSERA_ENTITY_HIERARCHY_HPP
#define TESSERA_ENTITY_HIERARCHY_HPP

#include "../config/config.hpp"
#include "../core/iterator.hpp"
#include "component.hpp"
#include "entity.hpp"
#include "fwd.hpp"
#include "registry.hpp"
#include "sparse_set.hpp"
#include <cstddef>
#include <cstdint>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tessera {

/// What destroying an entity does to its children (a context variable of the registry; absent means
/// destroy_children).
enum class hierarchy_policy : std::uint8_t {
    /// The whole subtree is destroyed with the entity (the default).
    destroy_children,
    /// The children become roots and keep their own subtrees.
    orphan_children
};

/// The links of one entity in a forest, stored as a component. Every link is null when absent. The pool keeps
/// its elements in place (in_place_delete), so that destroying a subtree from a destroy listener never moves the
/// nodes still being walked; clone skips the node, since a copy cannot be in its original's place in the tree.
template<typename Entity>
struct basic_hierarchy_node {
    /// The identifier type.
    using entity_type = Entity;
    /// Nodes stay where they are when others are removed.
    static constexpr bool in_place_delete = true;
    /// A cloned entity is not part of the tree.
    static constexpr clone_policy clone = clone_policy::skip;

    /// The parent (null for a root).
    entity_type parent{null};
    /// The first child attached (null without children).
    entity_type first_child{null};
    /// The last child attached (null without children).
    entity_type last_child{null};
    /// The sibling attached before this one (null for a first child or a root).
    entity_type prev{null};
    /// The sibling attached after this one (null for a last child or a root).
    entity_type next{null};
    /// The number of children.
    std::uint32_t children{};

    /// The members that hold identifiers: command buffers and continuous loading translate them.
    static constexpr auto entity_members =
        std::tuple{&basic_hierarchy_node::parent, &basic_hierarchy_node::first_child, &basic_hierarchy_node::last_child,
                   &basic_hierarchy_node::prev, &basic_hierarchy_node::next};

    /// Connected by the pool itself: takes the entity out of its parent's children, then destroys or orphans its
    /// children following the registry's hierarchy_policy. Runs for registry.destroy, remove, erase and clear.
    static void on_destroy(basic_registry<Entity> &reg, Entity entt);
};

/// The node of the default identifier.
using hierarchy_node = basic_hierarchy_node<entity>;

namespace internal {

template<typename Entity>
using hierarchy_pool = storage_for_t<basic_hierarchy_node<Entity>, Entity>;

// The element at packed position pos of a paged pool.
template<typename Pool>
[[nodiscard]] TESSERA_FORCE_INLINE auto &hierarchy_at(Pool &pool, const std::size_t pos) noexcept {
    constexpr auto page =
        component_traits<std::remove_const_t<typename Pool::value_type>, typename Pool::entity_type>::page_size;
    return pool.raw()[pos / page][fast_mod(pos, page)];
}

// The node of entt, or nullptr without one: one read of the sparse array where contains() then get() read it
// twice, and the element straight from its page.
template<typename Entity>
[[nodiscard]] TESSERA_FORCE_INLINE basic_hierarchy_node<Entity> *hierarchy_find(hierarchy_pool<Entity> &nodes,
                                                                                const Entity entt) noexcept {
    const auto pos = sparse_access::position(nodes, entt);
    return pos == static_cast<std::size_t>(-1) ? nullptr : &hierarchy_at(nodes, pos);
}

// The node of an entity a link names, which has one: what get() does, inlined on the paths of attach and detach.
template<typename Entity>
[[nodiscard]] TESSERA_FORCE_INLINE basic_hierarchy_node<Entity> &hierarchy_get(hierarchy_pool<Entity> &nodes,
                                                                               const Entity entt) {
    TESSERA_ASSERT(nodes.contains(entt), "hierarchy: a link names an entity without a node");
    return hierarchy_at(nodes, sparse_access::index(nodes, entt));
}

// Takes a node that has a parent out of its parent's list of children. The node's own links are left as they
// are: the caller rewrites them.
template<typename Entity>
TESSERA_FORCE_INLINE void hierarchy_cut(hierarchy_pool<Entity> &nodes, const basic_hierarchy_node<Entity> &node) {
    // every node found before anything is written: a link to an entity without a node changes nothing
    auto &parent = hierarchy_get(nodes, node.parent);
    auto &before = (node.prev == null) ? parent.first_child : hierarchy_get(nodes, node.prev).next;
    auto &after = (node.next == null) ? parent.last_child : hierarchy_get(nodes, node.next).prev;
    before = node.next;
    after = node.prev;
    --parent.children;
}

// Unlinks a node from its parent's list of children; it becomes a root.
template<typename Entity>
TESSERA_FORCE_INLINE void hierarchy_unlink(hierarchy_pool<Entity> &nodes, basic_hierarchy_node<Entity> &node) {
    if (node.parent != null) {
        hierarchy_cut(nodes, node);
        node.parent = node.prev = node.next = null;
    }
}

// Makes entt, whose node is in no list of children, the last child of parent. Every link of the node is written.
template<typename Entity>
TESSERA_FORCE_INLINE void hierarchy_link(hierarchy_pool<Entity> &nodes, const Entity entt,
                                         basic_hierarchy_node<Entity> &node, const Entity parent_entt,
                                         basic_hierarchy_node<Entity> &parent) {
    const auto last = parent.last_child;
    node.parent = parent_entt;
    node.prev = last;
    node.next = null;
    (last == null ? parent.first_child : hierarchy_get(nodes, last).next) = entt;
    parent.last_child = entt;
    ++parent.children;
}

// Whether `ancestor` is entt or one of its ancestors.
template<typename Entity>
[[nodiscard]] bool hierarchy_reaches(const hierarchy_pool<Entity> &nodes, Entity entt, const Entity ancestor) {
    for (; entt != null; entt = nodes.contains(entt) ? nodes.get(entt).parent : Entity{null}) {
        if (entt == ancestor) {
            return true;
        }
    }

    return false;
}

template<typename Registry>
void hierarchy_check(const Registry &) {
    static_assert(std::is_same_v<Registry, basic_registry<typename Registry::entity_type>>,
                  "hierarchy: only registries with the default allocator connect the node's destroy hook; use "
                  "basic_registry<Entity>");
}

// The pre-order successor of entt inside the subtree of root, following the links only (no stack).
template<typename Entity>
[[nodiscard]] Entity hierarchy_next_pre_order(const hierarchy_pool<Entity> &nodes, const Entity root, Entity entt) {
    if (const auto &node = nodes.get(entt); node.first_child != null) {
        return node.first_child;
    }

    for (; entt != root; entt = nodes.get(entt).parent) {
        if (const auto next = nodes.get(entt).next; next != null) {
            return next;
        }
    }

    return null;
}

// Destroys every descendant of entt, leaves first, so that each destroy finds no child to cascade to: the depth
// of the call stack does not grow with the height of the tree.
template<typename Entity>
void hierarchy_destroy_below(basic_registry<Entity> &reg, hierarchy_pool<Entity> &nodes, const Entity root) {
    Entity curr = root;

    while (true) {
        const auto &node = nodes.get(curr);

        if (node.first_child != null) {
            curr = node.first_child;
        } else if (curr == root) {
            return;
        } else {
            const auto up = node.parent;

            if (reg.valid(curr)) {
                reg.destroy(curr);
            } else {
                // a node left on a stale identifier (loaded from a damaged snapshot, say): only the node goes
                nodes.erase(curr);
            }

            curr = up;
        }
    }
}

} // namespace internal

template<typename Entity>
void basic_hierarchy_node<Entity>::on_destroy(basic_registry<Entity> &reg, const Entity entt) {
    auto &nodes = reg.template storage<basic_hierarchy_node>();
    auto &node = nodes.get(entt);
    internal::hierarchy_unlink(nodes, node);

    if (node.first_child == null) {
        return;
    }

    const auto *policy = std::as_const(reg).ctx().template find<hierarchy_policy>();

    if (policy == nullptr || *policy == hierarchy_policy::destroy_children) {
        internal::hierarchy_destroy_below(reg, nodes, entt);
    } else {
        for (auto child = node.first_child; child != null;) {
            auto &curr = internal::hierarchy_get(nodes, child);
            child = curr.next;
            curr.parent = curr.prev = curr.next = null;
        }

        node.first_child = node.last_child = null;
        node.children = 0u;
    }
}

/// Makes `child` the last child of `parent`, detaching it from its previous parent first; both get a node if they
/// have none. Attaching a child to its current parent changes nothing. Misuse: either entity invalid, `child`
/// equal to `parent`, or `parent` a descendant of `child` (the tree would become a cycle). O(1), plus the walk up
/// from `parent` that checks for cycles when assertions are enabled.
template<typename Registry>
void attach(Registry &reg, const typename Registry::entity_type child, const typename Registry::entity_type parent) {
    internal::hierarchy_check(reg);
    using node_type = basic_hierarchy_node<typename Registry::entity_type>;
    TESSERA_ASSERT(reg.valid(child), "attach: invalid child");
    TESSERA_ASSERT(reg.valid(parent), "attach: invalid parent");
    TESSERA_ASSERT(child != parent, "attach: an entity cannot be its own parent");
    auto &nodes = reg.template storage<node_type>();
    TESSERA_ASSERT(!internal::hierarchy_reaches(nodes, parent, child),
                   "attach: parent is a descendant of child; the tree would become a cycle");
    auto *child_node = internal::hierarchy_find(nodes, child);

    if (child_node == nullptr) {
        child_node = &nodes.emplace(child);
    } else if (child_node->parent == parent) {
        return;
    }

    // pages keep their elements in place: emplacing the parent's node leaves child_node where it is
    auto *parent_node = internal::hierarchy_find(nodes, parent);
    parent_node = (parent_node == nullptr) ? &nodes.emplace(parent) : parent_node;

    // out of the old list without clearing the links that the new one overwrites
    if (child_node->parent != null) {
        internal::hierarchy_cut(nodes, *child_node);
    }

    internal::hierarchy_link(nodes, child, *child_node, parent, *parent_node);
}

/// Makes `child` a root (it keeps its node and its own children). Detaching a root, or an entity without a node,
/// does nothing. Misuse: `child` invalid. O(1).
template<typename Registry>
void detach(Registry &reg, const typename Registry::entity_type child) {
    internal::hierarchy_check(reg);
    TESSERA_ASSERT(reg.valid(child), "detach: invalid entity");
    auto &nodes = reg.template storage<basic_hierarchy_node<typename Registry::entity_type>>();

    if (auto *node = internal::hierarchy_find(nodes, child); node != nullptr) {
        internal::hierarchy_unlink(nodes, *node);
    }
}

/// Makes every child of `parent` a root, in O(children). Misuse: `parent` invalid.
template<typename Registry>
void detach_children(Registry &reg, const typename Registry::entity_type parent) {
    internal::hierarchy_check(reg);
    TESSERA_ASSERT(reg.valid(parent), "detach_children: invalid entity");
    auto &nodes = reg.template storage<basic_hierarchy_node<typename Registry::entity_type>>();

    // nodes stay in place: the parent's node is found once
    if (auto *node = internal::hierarchy_find(nodes, parent); node != nullptr) {
        while (node->first_child != null) {
            internal::hierarchy_unlink(nodes, internal::hierarchy_get(nodes, node->first_child));
        }
    }
}

/// Destroys `entt` and applies `policy` to its children for this call only, whatever the registry's policy.
/// Returns the identifier's new version. Misuse: `entt` invalid.
template<typename Registry>
typename Registry::version_type destroy_with(Registry &reg, const typename Registry::entity_type entt,
                                             const hierarchy_policy policy) {
    TESSERA_ASSERT(reg.valid(entt), "destroy_with: invalid entity");

    if (policy == hierarchy_policy::orphan_children) {
        detach_children(reg, entt);
    }

    // with no child left the registry's policy has nothing to act on; destroy_children is the default one
    if (policy == hierarchy_policy::destroy_children) {
        internal::hierarchy_check(reg);
        auto &nodes = reg.template storage<basic_hierarchy_node<typename Registry::entity_type>>();

        if (nodes.contains(entt)) {
            internal::hierarchy_destroy_below(reg, nodes, entt);
        }
    }

    return reg.destroy(entt);
}

/// The parent of `entt`, or null for a root or an entity without a node. Misuse: `entt` invalid.
template<typename Registry>
[[nodiscard]] typename Registry::entity_type parent_of(const Registry &reg, const typename Registry::entity_type entt) {
    TESSERA_ASSERT(reg.valid(entt), "parent_of: invalid entity");
    const auto *nodes = reg.template storage<basic_hierarchy_node<typename Registry::entity_type>>();
    return (nodes != nullptr && nodes->contains(entt)) ? nodes->get(entt).parent : typename Registry::entity_type{null};
}

/// The walks of hierarchy_iterator.
enum class hierarchy_walk : std::uint8_t {
    /// Along the next-sibling links (children_of).
    siblings,
    /// Along the parent links (ancestors_of).
    ancestors,
    /// Depth-first pre-order of a subtree, driven by the links alone, without a stack (depth_first).
    pre_order
};

/// A forward iterator over identifiers that follows the links of the nodes until null.
template<typename Entity, hierarchy_walk Walk>
class hierarchy_iterator final {
    using pool_type = internal::hierarchy_pool<Entity>;

public:
    /// Iterator category for older algorithms: identifiers are returned by value, so an input iterator.
    using iterator_category = std::input_iterator_tag;
    /// Iterator concept: a forward iterator for the ranges library.
    using iterator_concept = std::forward_iterator_tag;
    /// Value type.
    using value_type = Entity;
    /// Difference type.
    using difference_type = std::ptrdiff_t;
    /// Pointer type.
    using pointer = const Entity *;
    /// Reference type (identifiers are returned by value).
    using reference = Entity;

    /// The end of every range.
    constexpr hierarchy_iterator() noexcept = default;

    /// Starts at `entt` (null for the end) in the nodes of `pool`; a pre-order walk stays inside the subtree of
    /// `entt`, and without a pool it is a tree of one.
    hierarchy_iterator(const pool_type *pool, const Entity entt) noexcept : nodes{pool}, top{entt}, curr{entt} {}

    /// The next entity of the walk.
    hierarchy_iterator &operator++() {
        if constexpr (Walk == hierarchy_walk::siblings) {
            curr = nodes->get(curr).next;
        } else if constexpr (Walk == hierarchy_walk::ancestors) {
            curr = nodes->get(curr).parent;
        } else {
            curr = (nodes == nullptr) ? Entity{null} : internal::hierarchy_next_pre_order(*nodes, top, curr);
        }

        return *this;
    }

    /// The next entity of the walk, returning the previous position.
    hierarchy_iterator operator++(int) {
        auto orig = *this;
        return ++(*this), orig;
    }

    /// The current entity.
    [[nodiscard]] Entity operator*() const noexcept { return curr; }

    /// Equal when both stand on the same entity (every end is null).
    [[nodiscard]] friend bool operator==(const hierarchy_iterator &lhs, const hierarchy_iterator &rhs) noexcept {
        return lhs.curr == rhs.curr;
    }

private:
    const pool_type *nodes{};
    Entity top{null};
    Entity curr{null};
};

namespace internal {

template<typename Registry, hierarchy_walk Walk>
[[nodiscard]] auto hierarchy_links(const Registry &reg, const typename Registry::entity_type entt, auto first_of) {
    using entity_type = typename Registry::entity_type;
    using iterator = hierarchy_iterator<entity_type, Walk>;
    const auto *nodes = reg.template storage<basic_hierarchy_node<entity_type>>();

    if (nodes == nullptr || !nodes->contains(entt)) {
        return iterable_adaptor<iterator>{};
    }

    return iterable_adaptor<iterator>{iterator{nodes, first_of(nodes->get(entt))}, iterator{}};
}

} // namespace internal

/// The children of `entt` in attach order, as a forward range of identifiers. Changing the children of `entt`
/// while walking the range is undefined. Misuse: `entt` invalid.
template<typename Registry>
[[nodiscard]] auto children_of(const Registry &reg, const typename Registry::entity_type entt) {
    TESSERA_ASSERT(reg.valid(entt), "children_of: invalid entity");
    using node_type = basic_hierarchy_node<typename Registry::entity_type>;
    return internal::hierarchy_links<Registry, hierarchy_walk::siblings>(
        reg, entt, [](const node_type &node) { return node.first_child; });
}

/// The number of children of `entt`, in O(1). Misuse: `entt` invalid.
template<typename Registry>
[[nodiscard]] std::size_t child_count(const Registry &reg, const typename Registry::entity_type entt) {
    TESSERA_ASSERT(reg.valid(entt), "child_count: invalid entity");
    const auto *nodes = reg.template storage<basic_hierarchy_node<typename Registry::entity_type>>();
    return (nodes != nullptr && nodes->contains(entt)) ? nodes->get(entt).children : 0u;
}

/// The ancestors of `entt`, parent first and root last (empty for a root), as a forward range. Misuse: `entt`
/// invalid.
template<typename Registry>
[[nodiscard]] auto ancestors_of(const Registry &reg, const typename Registry::entity_type entt) {
    TESSERA_ASSERT(reg.valid(entt), "ancestors_of: invalid entity");
    using node_type = basic_hierarchy_node<typename Registry::entity_type>;
    return internal::hierarchy_links<Registry, hierarchy_walk::ancestors>(
        reg, entt, [](const node_type &node) { return node.parent; });
}

/// The number of ancestors of `entt` (0 for a root), in O(depth): depths are not stored, so that reparenting a
/// subtree stays O(1). Misuse: `entt` invalid.
template<typename Registry>
[[nodiscard]] std::size_t depth_of(const Registry &reg, const typename Registry::entity_type entt) {
    const auto range = ancestors_of(reg, entt);
    return static_cast<std::size_t>(std::distance(range.begin(), range.end()));
}

/// `root` and its descendants in depth-first pre-order (a parent before its children, children in attach order),
/// as a forward range that allocates nothing. Changing the subtree while walking it is undefined. An entity
/// without a node yields itself only. Misuse: `root` invalid.
template<typename Registry>
[[nodiscard]] auto depth_first(const Registry &reg, const typename Registry::entity_type root) {
    TESSERA_ASSERT(reg.valid(root), "depth_first: invalid entity");
    using entity_type = typename Registry::entity_type;
    using iterator = hierarchy_iterator<entity_type, hierarchy_walk::pre_order>;
    const auto *nodes = reg.template storage<basic_hierarchy_node<entity_type>>();

    // an entity outside every tree is a tree of one
    const bool linked = nodes != nullptr && nodes->contains(root);
    return iterable_adaptor<iterator>{iterator{linked ? nodes : nullptr, root}, iterator{}};
}

/// Calls func(entity) for `root` and its descendants in depth-first pre-order. func must not change the subtree.
template<typename Registry, typename Func>
void each_depth_first(const Registry &reg, const typename Registry::entity_type root, Func func) {
    for (const auto entt : depth_first(reg, root)) {
        func(entt);
    }
}

namespace internal {

// Appends the children of every entity of `order` from position `from` on, which turns a list of roots into
// their subtrees in breadth-first order: the vector is its own queue.
template<typename Pool, typename Vector>
void hierarchy_expand(const Pool &nodes, Vector &order, std::size_t from) {
    for (; from < order.size(); ++from) {
        if (nodes.contains(order[from])) {
            for (auto child = nodes.get(order[from]).first_child; child != null; child = nodes.get(child).next) {
                order.push_back(child);
            }
        }
    }
}

} // namespace internal

/// `root` and its descendants in breadth-first order (by depth, children in attach order), as a vector: one
/// allocation for the whole walk, and the subtree may change afterwards. Misuse: `root` invalid.
template<typename Registry>
[[nodiscard]] auto breadth_first(const Registry &reg, const typename Registry::entity_type root) {
    TESSERA_ASSERT(reg.valid(root), "breadth_first: invalid entity");
    using entity_type = typename Registry::entity_type;
    std::vector<entity_type> order{root};

    if (const auto *nodes = reg.template storage<basic_hierarchy_node<entity_type>>(); nodes != nullptr) {
        internal::hierarchy_expand(*nodes, order, 0u);
    }

    return order;
}

/// Calls func(entity) for `root` and its descendants in breadth-first order. The order is read before the first
/// call, so func may change the hierarchy (entities it destroys are still visited: check valid()).
template<typename Registry, typename Func>
void each_breadth_first(Registry &reg, const typename Registry::entity_type root, Func func) {
    for (const auto entt : breadth_first(std::as_const(reg), root)) {
        func(entt);
    }
}

/// Translates the links of a node read from another registry into local identifiers with `map` (for instance a
/// continuous_loader's map). An archive wrapper calls it on each node it reads; docs/hierarchy.md shows one.
template<typename Entity, typename Map>
void remap_links(basic_hierarchy_node<Entity> &node, Map &&map) {
    std::apply(
        [&node, &map](auto... member) {
            ((node.*member = (node.*member == null) ? node.*member : map(node.*member)), ...);
        },
        basic_hierarchy_node<Entity>::entity_members);
}

namespace internal {

// Reads through another archive and translates the links of every node it reads with the loader's map.
template<typename Archive, typename Loader>
struct hierarchy_remapping_archive final {
    template<typename Type>
    void operator()(Type &value) {
        (*inner)(value);

        if constexpr (std::is_same_v<Type, basic_hierarchy_node<typename Loader::entity_type>>) {
            remap_links(value, [this](const auto entt) { return loader->map(entt); });
        }
    }

    void corrupt(const char *what) {
        if constexpr (requires { inner->corrupt(what); }) {
            inner->corrupt(what);
        }
    }

    Archive *inner;
    Loader *loader;
};

} // namespace internal

/// Loads the node pool into a continuous_loader's registry, with every link translated to local identifiers.
/// Call it after loading the identifiers. The loader first removes the nodes of the entities it maps; that
/// happens under hierarchy_policy::orphan_children whatever the registry's policy, so that reloading replaces the
/// trees instead of destroying subtrees (local entities attached to loaded ones become roots).
template<typename Registry, typename Loader, typename Archive>
void load_hierarchy(Registry &reg, Loader &loader, Archive &&archive) {
    using node_type = basic_hierarchy_node<typename Registry::entity_type>;
    auto &vars = reg.ctx();
    const auto *const set = std::as_const(vars).template find<hierarchy_policy>();
    const bool had = (set != nullptr);
    const auto before = had ? *set : hierarchy_policy::destroy_children;
    const auto restore = [&vars, had, before] {
        had ? void(vars.insert_or_assign(hierarchy_policy{before})) : void(vars.template erase<hierarchy_policy>());
    };
    vars.insert_or_assign(hierarchy_policy::orphan_children);
    internal::hierarchy_remapping_archive<std::remove_reference_t<Archive>, Loader> wrapper{&archive, &loader};

    try {
        loader.template get<node_type>(wrapper);
    } catch (...) {
        restore();
        throw;
    }

    restore();
}

} // namespace tessera

// sort_parent_first and propagate
#include "../config/std_parts.hpp"
#include "hierarchy/order.hpp"

#endif
