// What a node storage addressed by entity index would cost, measured beside hierarchy/attach and the others with
// the same setup: a prototype, not part of tessera, kept here so that the figures of docs/hierarchy.md ("Where the
// time goes") can be reproduced. Each node sits in a page at its entity's index, so a link is followed with one
// read and no sparse lookup; the node names its own entity, which tells a node from a free slot; a tessera sparse
// set keeps the membership, as the pool of a real storage would, so that the nodes stay iterable.
#include "common.hpp"

#ifndef TESSERA_BENCH_CHECK_ONLY

#    include <tessera/entity/entity.hpp>
#    include <tessera/entity/registry.hpp>
#    include <tessera/entity/sparse_set.hpp>

#    include <cstddef>
#    include <cstdint>
#    include <memory>
#    include <utility>
#    include <vector>

namespace {

// The links of hierarchy_node plus the entity the node belongs to: 28 bytes.
struct indexed_node {
    tessera::entity parent{tessera::null};
    tessera::entity first_child{tessera::null};
    tessera::entity last_child{tessera::null};
    tessera::entity prev{tessera::null};
    tessera::entity next{tessera::null};
    tessera::entity self{tessera::null};
    std::uint32_t children{};
};

// The nodes by entity index, in pages of 4096 allocated on first use.
class indexed_forest {
    static constexpr std::size_t page = 4096u;

    static std::size_t index_of(const tessera::entity entt) {
        return static_cast<std::size_t>(tessera::to_entity(entt));
    }

    // The node of entt, which has one.
    indexed_node &at(const tessera::entity entt) {
        const auto index = index_of(entt);
        return pages[index / page][index % page];
    }

    // The node of entt, or nullptr: a slot belongs to entt only if it names entt (a free slot names null).
    indexed_node *find(const tessera::entity entt) {
        const auto index = index_of(entt);

        if (index / page < pages.size() && pages[index / page] != nullptr) {
            auto &node = pages[index / page][index % page];
            return node.self == entt ? &node : nullptr;
        }

        return nullptr;
    }

    indexed_node &make(const tessera::entity entt) {
        const auto index = index_of(entt);

        if (index / page >= pages.size()) {
            pages.resize(index / page + 1u);
        }

        if (pages[index / page] == nullptr) {
            pages[index / page] = std::make_unique<indexed_node[]>(page);
        }

        members.push(entt);
        auto &node = pages[index / page][index % page];
        node = indexed_node{};
        node.self = entt;
        return node;
    }

    void cut(const indexed_node &node) {
        auto &up = at(node.parent);
        (node.prev == tessera::null ? up.first_child : at(node.prev).next) = node.next;
        (node.next == tessera::null ? up.last_child : at(node.next).prev) = node.prev;
        --up.children;
    }

public:
    // What tessera::attach does, on these nodes.
    void attach(const tessera::entity child, const tessera::entity parent) {
        auto *node = find(child);

        if (node == nullptr) {
            node = &make(child);
        } else if (node->parent == parent) {
            return;
        }

        auto *up = find(parent);
        up = (up == nullptr) ? &make(parent) : up;

        if (node->parent != tessera::null) {
            cut(*node);
        }

        const auto last = up->last_child;
        node->parent = parent;
        node->prev = last;
        node->next = tessera::null;
        (last == tessera::null ? up->first_child : at(last).next) = child;
        up->last_child = child;
        ++up->children;
    }

    // What tessera::detach does.
    void detach(const tessera::entity child) {
        if (auto *node = find(child); node != nullptr && node->parent != tessera::null) {
            cut(*node);
            node->parent = node->prev = node->next = tessera::null;
        }
    }

    // Removes the node of child, which has no children: what erasing a node does in the scenarios.
    void erase(const tessera::entity child) {
        detach(child);
        at(child).self = tessera::null;
        members.remove(child);
    }

private:
    tessera::sparse_set members{};
    std::vector<std::unique_ptr<indexed_node[]>> pages{};
};

enum class indexed_operation { attach, attach_new, detach, reparent };

// Stands for the pool a real storage would be: every operation looks it up in the registry, as attach does.
struct indexed_pool_tag {};

// The setup and timed loops of structural() in hierarchy.cpp, on the prototype.
template<indexed_operation Op>
void indexed_structural(benchmark::State &state) {
    const auto count = static_cast<std::size_t>(state.range(0));
    tessera::registry registry{};
    indexed_forest nodes{};
    static_cast<void>(registry.storage<indexed_pool_tag>());
    // the pool lookup of attach (registry.storage<T>()), paid and kept
    const auto forest = [&registry, &nodes]() -> indexed_forest & {
        benchmark::DoNotOptimize(&registry.storage<indexed_pool_tag>());
        return nodes;
    };
    std::vector<tessera::entity> children(count);
    std::vector<tessera::entity> parents(count / 8u + 1u);
    registry.create(parents.begin(), parents.end());
    registry.create(children.begin(), children.end());
    std::vector<std::size_t> first(count);
    std::vector<std::size_t> second(count);

    for (std::size_t index{}; index < count; ++index) {
        first[index] = bench::mix(index) % parents.size();
        second[index] = bench::mix(index + count) % parents.size();
        forest().attach(children[index], parents[first[index]]);
    }

    if constexpr (Op == indexed_operation::attach || Op == indexed_operation::attach_new) {
        for (const auto child : children) {
            Op == indexed_operation::attach ? forest().detach(child) : forest().erase(child);
        }
    }

    for (auto _ : state) {
        if constexpr (Op == indexed_operation::attach || Op == indexed_operation::attach_new) {
            for (std::size_t index{}; index < count; ++index) {
                forest().attach(children[index], parents[first[index]]);
            }

            state.PauseTiming();

            for (const auto child : children) {
                Op == indexed_operation::attach ? forest().detach(child) : forest().erase(child);
            }

            state.ResumeTiming();
        } else if constexpr (Op == indexed_operation::detach) {
            for (const auto child : children) {
                forest().detach(child);
            }

            state.PauseTiming();

            for (std::size_t index{}; index < count; ++index) {
                forest().attach(children[index], parents[first[index]]);
            }

            state.ResumeTiming();
        } else {
            for (std::size_t index{}; index < count; ++index) {
                forest().attach(children[index], parents[second[index]]);
            }

            std::swap(first, second);
        }
    }

    state.SetItemsProcessed(state.iterations() * state.range(0));
}

TESSERA_BENCH("prototype/hierarchy/attach", indexed_structural<indexed_operation::attach>, 262'144);
TESSERA_BENCH("prototype/hierarchy/attach_new", indexed_structural<indexed_operation::attach_new>, 262'144);
TESSERA_BENCH("prototype/hierarchy/detach", indexed_structural<indexed_operation::detach>, 262'144);
TESSERA_BENCH("prototype/hierarchy/reparent", indexed_structural<indexed_operation::reparent>, 262'144);

} // namespace

#endif
