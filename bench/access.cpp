// Component access: get of one and two components, try_get of a component every entity has and of one that half
// of them have, all_of, in creation order and in a shuffled order. Figures are per entity.
#include "ecs.hpp"

#include <algorithm>
#include <cstddef>
#include <random>
#include <type_traits>
#include <vector>

namespace {

using bench::position;
using bench::velocity;

struct tagged {};

// the component of the tagged half
struct weight {
    float value;
};

template<bool Random>
std::vector<tessera::entity> setup(tessera::registry &registry, const std::size_t count) {
    auto entities = bench::populate(registry, count);

    // half of the entities are tagged: try_get and all_of see both answers
    for (std::size_t index{}; index < count; index += 2u) {
        registry.emplace<tagged>(entities[index]);
        registry.emplace<weight>(entities[index], static_cast<float>(index % 7u));
    }

    if constexpr (Random) {
        std::shuffle(entities.begin(), entities.end(), std::mt19937{42u});
    }

    return entities;
}

template<bool Random>
void get_1(benchmark::State &state) {
    tessera::registry registry{};
    const auto entities = setup<Random>(registry, static_cast<std::size_t>(state.range(0)));

    for (auto _ : state) {
        float sum{};

        for (const auto entt : entities) {
            sum += registry.get<position>(entt).x;
        }

        benchmark::DoNotOptimize(sum);
    }

    bench::per_entity(state);
}

template<bool Random>
void get_2(benchmark::State &state) {
    tessera::registry registry{};
    const auto entities = setup<Random>(registry, static_cast<std::size_t>(state.range(0)));

    for (auto _ : state) {
        float sum{};

        for (const auto entt : entities) {
            const auto [pos, vel] = registry.get<position, velocity>(entt);
            sum += pos.x + vel.dx;
        }

        benchmark::DoNotOptimize(sum);
    }

    bench::per_entity(state);
}

template<bool Random, typename Type = position>
void try_get(benchmark::State &state) {
    tessera::registry registry{};
    const auto entities = setup<Random>(registry, static_cast<std::size_t>(state.range(0)));

    for (auto _ : state) {
        float sum{};

        for (const auto entt : entities) {
            if (const auto *elem = registry.try_get<Type>(entt); elem) {
                if constexpr (std::is_same_v<Type, position>) {
                    sum += elem->x;
                } else {
                    sum += elem->value;
                }
            }
        }

        benchmark::DoNotOptimize(sum);
    }

    bench::per_entity(state);
}

template<bool Random>
void all_of(benchmark::State &state) {
    tessera::registry registry{};
    const auto entities = setup<Random>(registry, static_cast<std::size_t>(state.range(0)));

    for (auto _ : state) {
        std::size_t found{};

        for (const auto entt : entities) {
            found += registry.all_of<position, tagged>(entt);
        }

        benchmark::DoNotOptimize(found);
    }

    bench::per_entity(state);
}

TESSERA_BENCH("access/get_1_sequential", get_1<false>, 0);
TESSERA_BENCH("access/get_1_random", get_1<true>, 0);
TESSERA_BENCH("access/get_2_sequential", get_2<false>, 0);
TESSERA_BENCH("access/get_2_random", get_2<true>, 0);
TESSERA_BENCH("access/try_get_sequential", try_get<false>, 0);
TESSERA_BENCH("access/try_get_random", try_get<true>, 0);
TESSERA_BENCH("access/try_get_half_sequential", (try_get<false, weight>), 0);
TESSERA_BENCH("access/try_get_half_random", (try_get<true, weight>), 0);
TESSERA_BENCH("access/all_of_sequential", all_of<false>, 0);
TESSERA_BENCH("access/all_of_random", all_of<true>, 0);

} // namespace
