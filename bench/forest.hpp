// The forest of the hierarchy scenarios, shared by bench/hierarchy.cpp and its floor (no tessera header): eight
// levels whose sizes grow fivefold, each node's parent drawn at random from the level above (random branching,
// fixed seed), a 2x3 affine transform per node and the composition both sides compute.
#ifndef TESSERA_BENCH_FOREST_HPP
#define TESSERA_BENCH_FOREST_HPP

#include "common.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench::forest {

/// Levels of the forest (a root is at level 0).
inline constexpr std::size_t levels = 8u;

/// A 2x3 affine transform (x' = a x + c y + tx, y' = b x + d y + ty).
struct affine {
    float a{1.f}, b{}, c{}, d{1.f}, tx{}, ty{};
};

/// The world transform of a child: its parent's world transform applied after its local one.
inline void compose(affine &out, const affine &parent, const affine &local) {
    out.a = parent.a * local.a + parent.c * local.b;
    out.b = parent.b * local.a + parent.d * local.b;
    out.c = parent.a * local.c + parent.c * local.d;
    out.d = parent.b * local.c + parent.d * local.d;
    out.tx = parent.a * local.tx + parent.c * local.ty + parent.tx;
    out.ty = parent.b * local.tx + parent.d * local.ty + parent.ty;
}

/// The local transform of node `index`: a small rotation-like scale and an offset, bound to the index.
inline affine local_of(const std::size_t index) {
    const auto base = static_cast<float>(index % 97u) * 0.001f;
    return affine{0.99f + base, base, -base, 0.99f + base, static_cast<float>(index % 13u), 1.f + base};
}

/// The parent of each node by generation index (-1 for a root). Nodes come level by level; every node of
/// level L > 0 takes a random node of level L - 1 as its parent.
inline std::vector<std::int64_t> parents(const std::size_t count) {
    std::vector<std::int64_t> out(count, -1);
    // level sizes in the ratio 1:5:25:...:5^7, at least one root
    double total{};

    for (std::size_t level{}, size = 1u; level < levels; ++level, size *= 5u) {
        total += static_cast<double>(size);
    }

    std::uint64_t state = 0x9e3779b97f4a7c15ull;
    std::size_t first{}; // first node of the level above
    std::size_t begin = std::max<std::size_t>(1u, static_cast<std::size_t>(static_cast<double>(count) / total));
    begin = std::min(begin, count);

    for (std::size_t level = 1u, size = begin; begin < count; ++level) {
        size *= 5u;
        const std::size_t end = (level + 1u == levels) ? count : std::min(count, begin + size);

        for (std::size_t index = begin; index < end; ++index) {
            state = mix(state + index);
            out[index] = static_cast<std::int64_t>(first + state % (begin - first));
        }

        first = begin;
        begin = end;
    }

    return out;
}

/// A fixed permutation of [0, count): the order in which the ECS side creates and attaches the nodes, so that
/// its pools do not start out in parent-first order.
inline std::vector<std::size_t> shuffled(const std::size_t count) {
    std::vector<std::size_t> out(count);

    for (std::size_t index{}; index < count; ++index) {
        out[index] = index;
    }

    for (std::size_t index = count; index > 1u; --index) {
        std::swap(out[index - 1u], out[mix(index) % index]);
    }

    return out;
}

/// Adds one node's world transform to a checksum.
inline void add(checksum &sum, const std::size_t index, const affine &world) {
    sum.add(index, world.a, world.b, world.c, world.d, world.tx, world.ty);
}

} // namespace bench::forest

#endif
