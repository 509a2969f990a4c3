// Signals: emplace and erase of a component with a listener connected to on_construct / on_destroy. Figures are
// per entity; compare with structural/add_remove for the cost of the listener.
#include "ecs.hpp"

#include <cstddef>
#include <vector>

namespace {

struct health {
    int value;
};

void listener(tessera::registry &, const tessera::entity entt) { benchmark::DoNotOptimize(entt); }

void emplace_with_listener(benchmark::State &state) {
    tessera::registry registry{};
    const auto entities = bench::populate(registry, static_cast<std::size_t>(state.range(0)));
    registry.on_construct<health>().connect<&listener>();

    for (auto _ : state) {
        for (const auto entt : entities) {
            registry.emplace<health>(entt, 100);
        }

        state.PauseTiming();
        registry.clear<health>();
        state.ResumeTiming();
    }

    bench::per_entity(state);
}

void erase_with_listener(benchmark::State &state) {
    tessera::registry registry{};
    const auto entities = bench::populate(registry, static_cast<std::size_t>(state.range(0)));
    registry.on_destroy<health>().connect<&listener>();

    for (auto _ : state) {
        state.PauseTiming();
        registry.insert<health>(entities.begin(), entities.end(), health{100});
        state.ResumeTiming();

        for (const auto entt : entities) {
            registry.erase<health>(entt);
        }
    }

    bench::per_entity(state);
}

TESSERA_BENCH("signals/emplace_with_listener", emplace_with_listener, 0);
TESSERA_BENCH("signals/erase_with_listener", erase_with_listener, 0);

} // namespace
