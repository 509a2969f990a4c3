// Sorting a pool of 10^6 components by value (std::sort through registry::sort). The values are scrambled
// again, outside the timed region, before every sort.
#include "ecs.hpp"

#include <cstddef>
#include <cstdint>

namespace {

struct score {
    std::uint32_t value;
};

void sort_by_component(benchmark::State &state) {
    tessera::registry registry{};
    const auto entities = bench::populate(registry, static_cast<std::size_t>(state.range(0)));

    for (const auto entt : entities) {
        registry.emplace<score>(entt, 0u);
    }

    std::uint64_t round{};

    for (auto _ : state) {
        state.PauseTiming();
        ++round;

        for (auto [entt, value] : registry.storage<score>().each()) {
            value.value = static_cast<std::uint32_t>(bench::mix(tessera::to_integral(entt) + (round << 32u)));
        }

        state.ResumeTiming();
        registry.sort<score>([](const score &lhs, const score &rhs) { return lhs.value < rhs.value; });
    }

    bench::per_entity(state);
}

TESSERA_BENCH("sort/by_component", sort_by_component, 1'000'000);

} // namespace
