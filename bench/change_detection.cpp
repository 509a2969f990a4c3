// Change detection: the change filter (each_changed) at 1% and 50% of 10^6 entities changed, through the change
// log, through the scan and as chosen automatically, against checking every entity of the view with
// changed_since; and what tracking costs emplace, patch and iteration against the same type untracked.
// Changed entities are spread at random: no clustering helps the filter.
#include "ecs.hpp"

#include <tessera/entity/change_filter.hpp>

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <random>
#include <vector>

namespace {

struct tracked_position {
    static constexpr bool track_changes = true;
    float x;
    float y;
};

struct untracked_position {
    float x;
    float y;
};

using walk = tessera::internal::change_walk;

// count entities with a tracked position and a velocity; `percent` of them patched after `since`.
tessera::tick_type setup(tessera::registry &registry, const std::size_t count, const std::size_t percent) {
    std::vector<tessera::entity> entities(count);
    registry.create(entities.begin(), entities.end());

    for (const auto entt : entities) {
        registry.emplace<tracked_position>(entt, 1.f, 2.f);
        registry.emplace<bench::velocity>(entt, 0.5f, 0.25f);
    }

    const auto since = registry.tick();
    registry.advance_tick();
    std::shuffle(entities.begin(), entities.end(), std::mt19937{7u});

    for (std::size_t index{}; index < count * percent / 100u; ++index) {
        registry.patch<tracked_position>(entities[index], [](tracked_position &pos) { pos.x += 1.f; });
    }

    return since;
}

template<std::size_t Percent, walk How>
void filter(benchmark::State &state) {
    tessera::registry registry{};
    const auto since = setup(registry, static_cast<std::size_t>(state.range(0)), Percent);
    const auto view = registry.view<tracked_position, bench::velocity>();

    for (auto _ : state) {
        float sum{};
        auto func = [&sum](const tracked_position &pos, const bench::velocity &vel) { sum += pos.x * vel.dx; };
        tessera::internal::each_since<false, tracked_position>(view, since, func, How);
        benchmark::DoNotOptimize(sum);
    }

    bench::per_entity(state);
}

// What the filter replaces: every entity of the view, asked one by one.
template<std::size_t Percent>
void filter_by_hand(benchmark::State &state) {
    tessera::registry registry{};
    const auto since = setup(registry, static_cast<std::size_t>(state.range(0)), Percent);
    const auto view = registry.view<tracked_position, bench::velocity>();

    for (auto _ : state) {
        float sum{};

        view.each([&](const tessera::entity entt, const tracked_position &pos, const bench::velocity &vel) {
            if (registry.changed_since<tracked_position>(entt, since)) {
                sum += pos.x * vel.dx;
            }
        });

        benchmark::DoNotOptimize(sum);
    }

    bench::per_entity(state);
}

template<typename Position>
void emplace(benchmark::State &state) {
    const auto count = static_cast<std::size_t>(state.range(0));
    std::vector<tessera::entity> entities(count);

    for (auto _ : state) {
        bench::fresh_registry registry{state};
        state.PauseTiming();
        registry->create(entities.begin(), entities.end());
        state.ResumeTiming();

        for (const auto entt : entities) {
            registry->emplace<Position>(entt, 1.f, 2.f);
        }
    }

    bench::per_entity(state);
}

template<typename Position>
void patch(benchmark::State &state) {
    tessera::registry registry{};
    std::vector<tessera::entity> entities(static_cast<std::size_t>(state.range(0)));
    registry.create(entities.begin(), entities.end());
    registry.insert<Position>(entities.begin(), entities.end(), Position{1.f, 2.f});

    for (auto _ : state) {
        // a new tick each round: every patch logs a change, the dearer case
        registry.advance_tick();

        for (const auto entt : entities) {
            registry.patch<Position>(entt, [](Position &pos) { pos.x += 1.f; });
        }
    }

    bench::per_entity(state);
}

template<typename Position>
void iterate(benchmark::State &state) {
    tessera::registry registry{};
    std::vector<tessera::entity> entities(static_cast<std::size_t>(state.range(0)));
    registry.create(entities.begin(), entities.end());
    registry.insert<Position>(entities.begin(), entities.end(), Position{1.f, 2.f});

    for (auto _ : state) {
        registry.view<Position>().each([](Position &pos) { pos.x += pos.y; });
    }

    bench::per_entity(state);
}

TESSERA_BENCH("change/filter_1pct_auto", (filter<1u, walk::automatic>), 1'000'000);
TESSERA_BENCH("change/filter_1pct_log", (filter<1u, walk::log>), 1'000'000);
TESSERA_BENCH("change/filter_1pct_scan", (filter<1u, walk::scan>), 1'000'000);
TESSERA_BENCH("change/filter_1pct_by_hand", filter_by_hand<1u>, 1'000'000);
TESSERA_BENCH("change/filter_50pct_auto", (filter<50u, walk::automatic>), 1'000'000);
TESSERA_BENCH("change/filter_50pct_log", (filter<50u, walk::log>), 1'000'000);
TESSERA_BENCH("change/filter_50pct_scan", (filter<50u, walk::scan>), 1'000'000);
TESSERA_BENCH("change/filter_50pct_by_hand", filter_by_hand<50u>, 1'000'000);
TESSERA_BENCH("change/emplace_tracked", emplace<tracked_position>, 0);
TESSERA_BENCH("change/emplace_untracked", emplace<untracked_position>, 0);
TESSERA_BENCH("change/patch_tracked", patch<tracked_position>, 0);
TESSERA_BENCH("change/patch_untracked", patch<untracked_position>, 0);
TESSERA_BENCH("change/iterate_tracked", iterate<tracked_position>, 0);
TESSERA_BENCH("change/iterate_untracked", iterate<untracked_position>, 0);

} // namespace
