// Entity lifecycle: create (empty, with two components one by one and in bulk, recycled identifiers), destroy
// (with and without components, one by one and in bulk, and every entity of a view in one call) and
// destroy-then-recreate. Figures are per entity.
#include "ecs.hpp"

#include <cstddef>
#include <vector>

namespace {

using bench::fresh_registry;
using bench::position;
using bench::velocity;

void create(benchmark::State &state) {
    const auto count = static_cast<std::size_t>(state.range(0));

    for (auto _ : state) {
        fresh_registry registry{state};

        for (std::size_t index{}; index < count; ++index) {
            benchmark::DoNotOptimize(registry->create());
        }
    }

    bench::per_entity(state);
}

void create_bulk(benchmark::State &state) {
    std::vector<tessera::entity> entities(static_cast<std::size_t>(state.range(0)));

    for (auto _ : state) {
        fresh_registry registry{state};
        registry->create(entities.begin(), entities.end());
        benchmark::DoNotOptimize(entities.data());
    }

    bench::per_entity(state);
}

void create_2_components(benchmark::State &state) {
    const auto count = static_cast<std::size_t>(state.range(0));

    for (auto _ : state) {
        fresh_registry registry{state};

        for (std::size_t index{}; index < count; ++index) {
            const auto entt = registry->create();
            registry->emplace<position>(entt, bench::initial_position(index));
            registry->emplace<velocity>(entt, bench::initial_velocity(index));
        }
    }

    bench::per_entity(state);
}

void create_2_components_bulk(benchmark::State &state) {
    std::vector<tessera::entity> entities(static_cast<std::size_t>(state.range(0)));

    for (auto _ : state) {
        fresh_registry registry{state};
        registry->create(entities.begin(), entities.end());
        registry->insert<position>(entities.begin(), entities.end(), position{1.f, 2.f});
        registry->insert<velocity>(entities.begin(), entities.end(), velocity{1.f, 2.f});
    }

    bench::per_entity(state);
}

// identifiers come from the free list: every entity was created and destroyed beforehand
void create_recycled(benchmark::State &state) {
    std::vector<tessera::entity> entities(static_cast<std::size_t>(state.range(0)));

    for (auto _ : state) {
        fresh_registry registry{state};
        state.PauseTiming();
        registry->create(entities.begin(), entities.end());
        registry->destroy(entities.begin(), entities.end());
        state.ResumeTiming();

        for (std::size_t index{}; index < entities.size(); ++index) {
            benchmark::DoNotOptimize(registry->create());
        }
    }

    bench::per_entity(state);
}

// how destroy is called: once per entity, once for a vector of them, once for the range of a view
enum class destroy_by { one, range, view };

template<bool WithComponents, destroy_by By = destroy_by::one>
void destroy(benchmark::State &state) {
    const auto count = static_cast<std::size_t>(state.range(0));

    for (auto _ : state) {
        fresh_registry registry{state};
        state.PauseTiming();
        std::vector<tessera::entity> entities{};

        if constexpr (WithComponents) {
            entities = bench::populate(*registry, count);
        } else {
            entities.resize(count);
            registry->create(entities.begin(), entities.end());
        }

        state.ResumeTiming();

        if constexpr (By == destroy_by::one) {
            for (const auto entt : entities) {
                registry->destroy(entt);
            }
        } else if constexpr (By == destroy_by::range) {
            registry->destroy(entities.begin(), entities.end());
        } else {
            const auto view = registry->view<position, velocity>();
            registry->destroy(view.begin(), view.end());
        }
    }

    bench::per_entity(state);
}

// one item is a destroy and a create with two components, on a registry that keeps its size
void destroy_recreate(benchmark::State &state) {
    const auto count = static_cast<std::size_t>(state.range(0));
    tessera::registry registry{};
    auto entities = bench::populate(registry, count);

    for (auto _ : state) {
        for (std::size_t index{}; index < count; ++index) {
            registry.destroy(entities[index]);
            const auto entt = registry.create();
            registry.emplace<position>(entt, bench::initial_position(index));
            registry.emplace<velocity>(entt, bench::initial_velocity(index));
            entities[index] = entt;
        }
    }

    bench::per_entity(state);
}

TESSERA_BENCH("lifecycle/create", create, 0);
TESSERA_BENCH("lifecycle/create_bulk", create_bulk, 0);
TESSERA_BENCH("lifecycle/create_2_components", create_2_components, 0);
TESSERA_BENCH("lifecycle/create_2_components_bulk", create_2_components_bulk, 0);
TESSERA_BENCH("lifecycle/create_recycled", create_recycled, 0);
TESSERA_BENCH("lifecycle/destroy", destroy<false>, 0);
TESSERA_BENCH("lifecycle/destroy_bulk", (destroy<false, destroy_by::range>), 0);
TESSERA_BENCH("lifecycle/destroy_2_components", destroy<true>, 0);
TESSERA_BENCH("lifecycle/destroy_2_components_bulk", (destroy<true, destroy_by::range>), 0);
TESSERA_BENCH("lifecycle/destroy_2_components_view", (destroy<true, destroy_by::view>), 0);
TESSERA_BENCH("lifecycle/destroy_recreate", destroy_recreate, 0);

} // namespace
