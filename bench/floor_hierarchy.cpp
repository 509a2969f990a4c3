// The floor of hierarchy/propagate: the same forest in plain arrays laid out in a precomputed parent-first order
// (breadth-first, siblings next to each other, as sort_parent_first arranges the pools), each node holding its
// parent's position; one linear pass computes every world transform. No tessera header.
#include "common.hpp"
#include "forest.hpp"

#include <cstddef>
#include <cstdint>
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

} // namespace
