// The floor of hierarchy/propagate: the same forest in plain arrays laid out in a precomputed parent-first order
// (breadth-first, siblings next to each other, as sort_parent_first arranges the pools), each node holding its
// parent's position; one linear pass computes every world transform. Also the floors of the structural scenarios:
// attach, detach and reparent on the same doubly linked lists of children held in a plain array indexed by entity,
// so that the cost of touching the nodes themselves shows apart from finding them. No tessera header.
#include "common.hpp"
#include "forest.hpp"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace {

using namespace bench::forest;

class floor_propagate {
public:
    explicit floor_propagate(const std::size_t count) : parent(count), local(count), world(count), origin(count) {
        const auto from = parents(count);
        // children of each node, as offsets into one array (counting sort by parent)
        std::vector<std::size_t> first(count + 1u, 0u);
        std::vector<std::size_t> kids(count);
        std::vector<std::size_t> order{};
        std::vector<std::size_t> position(count);
        order.reserve(count);

        for (std::size_t index{}; index < count; ++index) {
            if (from[index] < 0) {
                order.push_back(index);
            } else {
                ++first[static_cast<std::size_t>(from[index]) + 1u];
            }
        }

        for (std::size_t index{}; index < count; ++index) {
            first[index + 1u] += first[index];
        }

        auto fill = first;

        for (std::size_t index{}; index < count; ++index) {
            if (from[index] >= 0) {
                kids[fill[static_cast<std::size_t>(from[index])]++] = index;
            }
        }

        for (std::size_t at{}; at < order.size(); ++at) {
            const auto node = order[at];
            position[node] = at;
            const auto up = from[node];
            parent[at] = (up < 0) ? -1 : static_cast<std::int64_t>(position[static_cast<std::size_t>(up)]);
            local[at] = local_of(node);
            origin[at] = node;

            for (auto kid = first[node]; kid < first[node + 1u]; ++kid) {
                order.push_back(kids[kid]);
            }
        }
    }

    void step() {
        const auto count = parent.size();

        for (std::size_t index{}; index < count; ++index) {
            if (const auto up = parent[index]; up < 0) {
                world[index] = local[index];
            } else {
                compose(world[index], world[static_cast<std::size_t>(up)], local[index]);
            }
        }
    }

    [[nodiscard]] std::uint64_t checksum() const {
        bench::checksum sum{};

        for (std::size_t index{}; index < world.size(); ++index) {
            add(sum, origin[index], world[index]);
        }

        return sum.value;
    }

private:
    std::vector<std::int64_t> parent;
    std::vector<affine> local;
    std::vector<affine> world;
    std::vector<std::size_t> origin;
};

TESSERA_BENCH_FIXTURE("floor/hierarchy/propagate", floor_propagate);

#ifndef TESSERA_BENCH_CHECK_ONLY

// The links of hierarchy_node by array index instead of identifier (none = no link): 24 bytes as well.
struct plain_node {
    static constexpr std::uint32_t none = 0xffffffffu;
    std::uint32_t parent{none}, first{none}, last{none}, prev{none}, next{none}, children{};
};

struct plain_forest {
    std::vector<plain_node> nodes;

    void link(const std::uint32_t child, const std::uint32_t to) {
        auto &node = nodes[child];
        auto &up = nodes[to];
        node.parent = to;
        node.prev = up.last;
        node.next = plain_node::none;
        (up.last == plain_node::none ? up.first : nodes[up.last].next) = child;
        up.last = child;
        ++up.children;
    }

    void cut(const std::uint32_t child) {
        auto &node = nodes[child];
        auto &up = nodes[node.parent];
        (node.prev == plain_node::none ? up.first : nodes[node.prev].next) = node.next;
        (node.next == plain_node::none ? up.last : nodes[node.next].prev) = node.prev;
        --up.children;
    }

    void unlink(const std::uint32_t child) {
        cut(child);
        auto &node = nodes[child];
        node.parent = node.prev = node.next = plain_node::none;
    }
};

enum class plain_operation { attach, detach, reparent };

// The layout of hierarchy/attach and the others: parents first (count / 8 + 1 of them), then the children, each
// child under the same parent as there.
template<plain_operation Op>
void plain_structural(benchmark::State &state) {
    const auto count = static_cast<std::size_t>(state.range(0));
    const auto parents = count / 8u + 1u;
    plain_forest forest{std::vector<plain_node>(parents + count)};
    std::vector<std::uint32_t> first(count);
    std::vector<std::uint32_t> second(count);

    for (std::size_t index{}; index < count; ++index) {
        first[index] = static_cast<std::uint32_t>(bench::mix(index) % parents);
        second[index] = static_cast<std::uint32_t>(bench::mix(index + count) % parents);
        forest.link(static_cast<std::uint32_t>(parents + index), first[index]);
    }

    const auto child = [parents](const std::size_t index) { return static_cast<std::uint32_t>(parents + index); };

    for (auto _ : state) {
        if constexpr (Op == plain_operation::attach) {
            state.PauseTiming();

            for (std::size_t index{}; index < count; ++index) {
                forest.unlink(child(index));
            }

            state.ResumeTiming();

            for (std::size_t index{}; index < count; ++index) {
                forest.link(child(index), first[index]);
            }
        } else if constexpr (Op == plain_operation::detach) {
            for (std::size_t index{}; index < count; ++index) {
                forest.unlink(child(index));
            }

            state.PauseTiming();

            for (std::size_t index{}; index < count; ++index) {
                forest.link(child(index), first[index]);
            }

            state.ResumeTiming();
        } else {
            for (std::size_t index{}; index < count; ++index) {
                forest.cut(child(index));
                forest.link(child(index), second[index]);
            }

            std::swap(first, second);
        }

        benchmark::ClobberMemory();
    }

    state.SetItemsProcessed(state.iterations() * state.range(0));
}

TESSERA_BENCH("floor/hierarchy/attach", plain_structural<plain_operation::attach>, 262'144);
TESSERA_BENCH("floor/hierarchy/detach", plain_structural<plain_operation::detach>, 262'144);
TESSERA_BENCH("floor/hierarchy/reparent", plain_structural<plain_operation::reparent>, 262'144);

#endif

} // namespace
