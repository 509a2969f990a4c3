// The hierarchy scenarios: propagate over a forest of eight levels with random branching (checked against
// floor_hierarchy.cpp), and the structural operations of a tree (attach, attach with a new node, detach,
// reparent) beside the emplace and patch of a plain component they are measured against: on the child alone, and
// on the child then on the parent attach picks. One item is one entity.
#include "common.hpp"
#include "forest.hpp"

#include <tessera/entity/hierarchy.hpp>
#include <tessera/entity/registry.hpp>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace {

using namespace bench::forest;

struct local_transform {
    affine value;
};

struct world_transform {
    affine value;
};

class propagate_forest {
public:
    explicit propagate_forest(const std::size_t count) : entities(count) {
        const auto from = parents(count);
        registry.create(entities.begin(), entities.end());

        // attached and given their components in a shuffled order: the pools start far from parent-first
        for (const auto index : shuffled(count)) {
            if (from[index] >= 0) {
                tessera::attach(registry, entities[index], entities[static_cast<std::size_t>(from[index])]);
            }

            registry.emplace<local_transform>(entities[index], local_of(index));
            registry.emplace<world_transform>(entities[index]);
        }

        // a forest of roots only would have no node: every root gets one
        for (std::size_t index{}; index < count; ++index) {
            if (from[index] < 0 && !registry.all_of<tessera::hierarchy_node>(entities[index])) {
                registry.emplace<tessera::hierarchy_node>(entities[index]);
            }
        }

        tessera::sort_parent_first<local_transform, world_transform>(registry);
    }

    void step() {
        tessera::propagate<local_transform, world_transform>(
            registry, [](world_transform &out, const local_transform &in, const world_transform *parent) {
                if (parent == nullptr) {
                    out.value = in.value;
                } else {
                    compose(out.value, parent->value, in.value);
                }
            });
    }

    [[nodiscard]] std::uint64_t checksum() const {
        bench::checksum sum{};

        for (std::size_t index{}; index < entities.size(); ++index) {
            add(sum, index, registry.get<world_transform>(entities[index]).value);
        }

        return sum.value;
    }

private:
    tessera::registry registry{};
    std::vector<tessera::entity> entities;
};

TESSERA_BENCH_FIXTURE("hierarchy/propagate", propagate_forest);

#ifndef TESSERA_BENCH_CHECK_ONLY

struct health {
    int value;
};

enum class operation { attach, attach_new, detach, reparent, emplace_patch, emplace_patch_parent };

// count children spread over count / 8 parents; the timed loop applies the operation once to every child, the
// untimed part puts things back
template<operation Op>
void structural(benchmark::State &state) {
    const auto count = static_cast<std::size_t>(state.range(0));
    tessera::registry registry{};
    registry.ctx().emplace<tessera::hierarchy_policy>(tessera::hierarchy_policy::orphan_children);
    std::vector<tessera::entity> children(count);
    std::vector<tessera::entity> parents(count / 8u + 1u);
    registry.create(parents.begin(), parents.end());
    registry.create(children.begin(), children.end());
    std::vector<std::size_t> first(count);
    std::vector<std::size_t> second(count);

    for (std::size_t index{}; index < count; ++index) {
        first[index] = bench::mix(index) % parents.size();
        second[index] = bench::mix(index + count) % parents.size();
        tessera::attach(registry, children[index], parents[first[index]]);
    }

    static_cast<void>(registry.storage<health>());

    if constexpr (Op == operation::emplace_patch_parent) {
        // the parents patched in the timed loop: every one has the component
        for (const auto parent : parents) {
            registry.emplace<health>(parent);
        }
    }

    if constexpr (Op == operation::attach || Op == operation::attach_new || Op == operation::emplace_patch ||
                  Op == operation::emplace_patch_parent) {
        for (const auto child : children) {
            tessera::detach(registry, child);
        }

        if constexpr (Op != operation::attach) {
            registry.clear<tessera::hierarchy_node>();
        }
    }

    for (auto _ : state) {
        if constexpr (Op == operation::attach || Op == operation::attach_new) {
            for (std::size_t index{}; index < count; ++index) {
                tessera::attach(registry, children[index], parents[first[index]]);
            }

            state.PauseTiming();

            for (const auto child : children) {
                Op == operation::attach ? tessera::detach(registry, child)
                                        : void(registry.erase<tessera::hierarchy_node>(child));
            }

            state.ResumeTiming();
        } else if constexpr (Op == operation::detach) {
            for (const auto child : children) {
                tessera::detach(registry, child);
            }

            state.PauseTiming();

            for (std::size_t index{}; index < count; ++index) {
                tessera::attach(registry, children[index], parents[first[index]]);
            }

            state.ResumeTiming();
        } else if constexpr (Op == operation::reparent) {
            // back and forth between two parents: every iteration moves every child
            for (std::size_t index{}; index < count; ++index) {
                tessera::attach(registry, children[index], parents[second[index]]);
            }

            std::swap(first, second);
        } else if constexpr (Op == operation::emplace_patch) {
            for (const auto child : children) {
                registry.emplace<health>(child);
                registry.patch<health>(child, [](health &value) { ++value.value; });
            }

            state.PauseTiming();
            registry.clear<health>();
            state.ResumeTiming();
        } else {
            // what attach does, on a plain component: add to the child, update the parent attach would pick
            for (std::size_t index{}; index < count; ++index) {
                registry.emplace<health>(children[index]);
                registry.patch<health>(parents[first[index]], [](health &value) { ++value.value; });
            }

            state.PauseTiming();
            registry.erase<health>(children.begin(), children.end());
            state.ResumeTiming();
        }
    }

    state.SetItemsProcessed(state.iterations() * state.range(0));
}

TESSERA_BENCH("hierarchy/attach", structural<operation::attach>, 262'144);
TESSERA_BENCH("hierarchy/attach_new", structural<operation::attach_new>, 262'144);
TESSERA_BENCH("hierarchy/detach", structural<operation::detach>, 262'144);
TESSERA_BENCH("hierarchy/reparent", structural<operation::reparent>, 262'144);
TESSERA_BENCH("hierarchy/emplace_patch", structural<operation::emplace_patch>, 262'144);
TESSERA_BENCH("hierarchy/emplace_patch_parent", structural<operation::emplace_patch_parent>, 262'144);

#endif

} // namespace
