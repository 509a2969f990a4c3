// The differential test of hierarchy.hpp: random forests built, reshaped and destroyed on a registry and on a
// reference made of std::map and std::vector (parent and ordered children per entity). Cascade and orphan
// destroy through registry.destroy, command buffers, destroy_with and node removal, reparenting, refused
// cycles, and sort_parent_first; parent, children, counts and depths are compared after every step. propagate is
// compared after every step with its checked pass (no recorded positions), whatever changed since sorting.
#include "model/interpreter.hpp"
#include "support/misuse.hpp"
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <tessera/entity/command_buffer.hpp>
#include <tessera/entity/hierarchy.hpp>
#include <tessera/entity/registry.hpp>
#include <utility>
#include <vector>

namespace {
namespace unit_model_hierarchy {

namespace {

using tessera_model::chooser;
using entity = tessera::entity;
const entity null_entity = tessera::null;

// What propagate reads and writes in the model.
struct model_local {
    std::uint64_t value{};
};

struct model_world {
    std::uint64_t value{};
};

// Operations per run and runs per case: a few thousand steps in all, next to the model test's 2 * 10^5.
constexpr std::size_t ops_per_run = 400u;
constexpr std::size_t runs_per_case = 3u;

class forest_model {
public:
    explicit forest_model(chooser &from) : source{&from} {}

    void run(const std::size_t ops) {
        for (std::size_t step{}; step < ops; ++step) {
            apply(source->pick(14u));
            verify(step);
            check_propagate(step);
        }
    }

    /// How many steps propagate took the recorded positions in.
    [[nodiscard]] std::size_t recorded_passes() const noexcept { return recorded; }

private:
    [[nodiscard]] entity pick() {
        auto it = alive.begin();
        std::advance(it, source->pick(static_cast<std::uint32_t>(alive.size())));
        return *it;
    }

    [[nodiscard]] bool descends(entity entt, const entity ancestor) const {
        for (; entt != null_entity; entt = parent_in_model(entt)) {
            if (entt == ancestor) {
                return true;
            }
        }

        return false;
    }

    [[nodiscard]] entity parent_in_model(const entity entt) const {
        const auto it = parent.find(entt);
        return it == parent.end() ? null_entity : it->second;
    }

    void unlink(const entity entt) {
        if (const auto up = parent_in_model(entt); up != null_entity) {
            auto &list = children[up];
            list.erase(std::find(list.begin(), list.end(), entt));
            parent.erase(entt);
        }
    }

    // what the hook does when entt's node goes: out of its parent, children orphaned or destroyed
    void drop_node(const entity entt, const bool orphan) {
        unlink(entt);
        const auto list = children[entt];
        children.erase(entt);

        for (const auto child : list) {
            parent.erase(child);

            if (!orphan) {
                destroy_in_model(child, false);
            }
        }
    }

    void destroy_in_model(const entity entt, const bool orphan) {
        drop_node(entt, orphan);
        alive.erase(entt);
    }

    void attach(const entity child, const entity to) {
        if (child == to || descends(to, child)) {
            if constexpr (tessera_test::misuse_runs) {
                bool refused = false;

                try {
                    tessera::attach(registry, child, to);
                } catch (const tessera_test::assert_failure &) {
                    refused = true;
                }

                expect(refused, "attach: a cycle was accepted");
            }

            return;
        }

        tessera::attach(registry, child, to);

        if (parent_in_model(child) != to) {
            unlink(child);
            parent[child] = to;
            children[to].push_back(child);
        }
    }

    void apply(const std::uint32_t what) {
        if (alive.size() < 2u || what == 0u) {
            if (alive.size() < 64u) {
                const auto entt = registry.create();
                registry.emplace<model_local>(entt, source->pick(1000u) + 1u);
                registry.emplace<model_world>(entt);
                alive.insert(entt);
            }

            return;
        }

        switch (what) {
        case 1u:
        case 2u:
        case 3u:
        case 4u:
            attach(pick(), pick());
            break;
        case 5u: {
            const auto entt = pick();
            tessera::detach(registry, entt);
            unlink(entt);
            break;
        }
        case 6u: {
            const auto entt = pick();
            registry.destroy(entt);
            destroy_in_model(entt, orphan);
            break;
        }
        case 7u: {
            // two destroys in one buffer: the second may name an entity the first one's cascade took
            tessera::command_buffer buffer;
            const auto first = pick();
            const auto second = pick();
            buffer.destroy(first);
            buffer.destroy(second);
            buffer.apply(registry);
            destroy_in_model(first, orphan);

            if (alive.contains(second)) {
                destroy_in_model(second, orphan);
            }

            break;
        }
        case 8u: {
            const auto entt = pick();
            const bool orphan_this = source->pick(2u) == 0u;
            tessera::destroy_with(registry, entt,
                                  orphan_this ? tessera::hierarchy_policy::orphan_children
                                              : tessera::hierarchy_policy::destroy_children);
            destroy_in_model(entt, orphan_this);
            break;
        }
        case 9u:
            orphan = !orphan;

            if (orphan) {
                registry.ctx().insert_or_assign(tessera::hierarchy_policy::orphan_children);
            } else if (source->pick(2u) == 0u) {
                registry.ctx().erase<tessera::hierarchy_policy>();
            } else {
                registry.ctx().insert_or_assign(tessera::hierarchy_policy::destroy_children);
            }

            break;
        case 10u: {
            const auto entt = pick();
            registry.remove<tessera::hierarchy_node>(entt);
            drop_node(entt, orphan);
            break;
        }
        case 11u: {
            const auto entt = pick();
            tessera::detach_children(registry, entt);

            for (const auto child : children[entt]) {
                parent.erase(child);
            }

            children.erase(entt);
            break;
        }
        case 12u:
            sort_and_check();
            break;
        default: {
            // a reparent to a random root of the forest, or under a random entity
            const auto entt = pick();
            auto to = pick();

            while (parent_in_model(to) != null_entity && source->pick(2u) == 0u) {
                to = parent_in_model(to);
            }

            attach(entt, to);
            break;
        }
        }
    }

    void sort_and_check() {
        // every entity has its local again, then the pools are arranged with the nodes (or the nodes alone), and
        // sometimes a local goes again
        for (const auto entt : alive) {
            if (!registry.all_of<model_local>(entt)) {
                registry.emplace<model_local>(entt, 1u);
            }
        }

        if (source->pick(4u) != 0u) {
            tessera::sort_parent_first<model_local, model_world>(registry);
        } else {
            tessera::sort_parent_first(registry);
        }

        if (source->pick(4u) == 0u) {
            registry.remove<model_local>(pick());
        }

        std::set<entity> seen{};

        for (auto [entt, node] : registry.storage<tessera::hierarchy_node>().each()) {
            expect(node.parent == null_entity || seen.contains(node.parent), "sort_parent_first: a child came first");
            seen.insert(entt);
        }
    }

    // One pass of propagate from worlds set to zero, as (entity, world) pairs: a pass that finds a parent after
    // its child reads the same zero either way.
    template<typename Pass>
    [[nodiscard]] std::vector<std::pair<entity, std::uint64_t>> propagated(Pass pass) {
        for (auto [entt, out] : registry.view<model_world>().each()) {
            out.value = 0u;
        }

        pass([](model_world &out, const model_local &in, const model_world *up) {
            out.value = in.value + (up ? up->value * 3u : 1u);
        });
        std::vector<std::pair<entity, std::uint64_t>> out{};

        for (auto [entt, value] : registry.view<model_world>().each()) {
            out.emplace_back(entt, value.value);
        }

        return out;
    }

    void check_propagate(const std::size_t step) {
        recorded += (tessera::internal::hierarchy_recorded<model_local, model_world>(registry) != nullptr) ? 1u : 0u;
        const auto fast =
            propagated([this](auto func) { tessera::propagate<model_local, model_world>(registry, func); });
        const auto checked = propagated([this](auto func) {
            tessera::internal::propagate_checked<model_local, model_world>(registry.storage<tessera::hierarchy_node>(),
                                                                           registry.storage<model_local>(),
                                                                           registry.storage<model_world>(), func);
        });
        expect(fast == checked, "propagate differs from its checked pass (step " + std::to_string(step) + ")");
    }

    void expect(const bool condition, const std::string &what) const {
        if (!condition) {
            throw tessera_model::divergence{what};
        }
    }

    void verify(const std::size_t step) const {
        const auto at = " (step " + std::to_string(step) + ")";
        expect(registry.storage<entity>()->free_list() == alive.size(), "the number of entities differs" + at);

        for (const auto entt : alive) {
            expect(registry.valid(entt), "an entity of the model is not valid" + at);
            expect(tessera::parent_of(registry, entt) == parent_in_model(entt), "parent_of differs" + at);
            const auto range = tessera::children_of(registry, entt);
            const std::vector<entity> got(range.begin(), range.end());
            const auto it = children.find(entt);
            const auto expected = (it == children.end()) ? std::vector<entity>{} : it->second;
            expect(got == expected, "children_of differs" + at);
            expect(tessera::child_count(registry, entt) == expected.size(), "child_count differs" + at);
            std::size_t depth{};

            for (auto up = parent_in_model(entt); up != null_entity; up = parent_in_model(up)) {
                ++depth;
            }

            expect(tessera::depth_of(registry, entt) == depth, "depth_of differs" + at);
        }
    }

    chooser *source;
    tessera::registry registry{};
    std::set<entity> alive{};
    std::map<entity, entity> parent{};
    std::map<entity, std::vector<entity>> children{};
    bool orphan{};
    std::size_t recorded{};
};

class hierarchy_model : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(hierarchy_model, AgreesWithTheReference) {
    std::size_t recorded{};

    for (std::size_t run{}; run < runs_per_case; ++run) {
        const auto seed = GetParam() * 1000u + run;
        chooser source{seed};
        forest_model machine{source};

        try {
            machine.run(ops_per_run);
        } catch (const std::exception &error) {
            FAIL() << "seed " << seed << ": " << error.what();
        }

        recorded += machine.recorded_passes();
    }

    // the recorded positions were compared, not only the lookups
    EXPECT_GT(recorded, 0u);
}

INSTANTIATE_TEST_SUITE_P(Seeds, hierarchy_model, ::testing::Range<std::uint64_t>(1u, 11u));

} // namespace

} // namespace unit_model_hierarchy
} // namespace
