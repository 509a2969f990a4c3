// Helpers of the tessera-side scenarios without a floor: a registry rebuilt outside the timed region, and the
// standard population (position and velocity on every entity).
#ifndef TESSERA_BENCH_ECS_HPP
#define TESSERA_BENCH_ECS_HPP

#include "common.hpp"
#include "model.hpp"

#include <tessera/entity/registry.hpp>

#include <cstddef>
#include <optional>
#include <vector>

namespace bench {

/// A registry made before and torn down after the timed part of one iteration.
class fresh_registry {
public:
    explicit fresh_registry(benchmark::State &ref) : state{ref} {
        state.PauseTiming();
        registry.emplace();
        state.ResumeTiming();
    }

    fresh_registry(const fresh_registry &) = delete;
    fresh_registry &operator=(const fresh_registry &) = delete;

    ~fresh_registry() {
        state.PauseTiming();
        registry.reset();
        state.ResumeTiming();
    }

    tessera::registry &operator*() { return *registry; }

    tessera::registry *operator->() { return &*registry; }

private:
    benchmark::State &state;
    std::optional<tessera::registry> registry{};
};

/// count entities with position and velocity, created one by one.
inline std::vector<tessera::entity> populate(tessera::registry &registry, const std::size_t count) {
    std::vector<tessera::entity> entities(count);

    for (std::size_t index{}; index < count; ++index) {
        const auto entt = registry.create();
        entities[index] = entt;
        registry.emplace<position>(entt, initial_position(index));
        registry.emplace<velocity>(entt, initial_velocity(index));
    }

    return entities;
}

inline void per_entity(benchmark::State &state) { state.SetItemsProcessed(state.iterations() * state.range(0)); }

} // namespace bench

#endif
