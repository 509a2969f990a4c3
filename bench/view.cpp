// Iteration benchmarks for views and runtime views. Each case reports ns per entity; bench/floor_view.cpp runs
// the same arithmetic over plain arrays, the floor these figures are compared with.
#include <benchmark/benchmark.h>
#include <cstddef>
#include <cstdint>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/runtime_view.hpp>
#include <tessera/entity/view.hpp>

namespace {

struct position {
    float x;
    float y;
};

struct velocity {
    float dx;
    float dy;
};

struct mass {
    float k;
};

struct frozen {};

// Every entity gets position, velocity and mass, in creation order; every 16th entity is frozen.
void populate(tessera::registry &registry, const std::int64_t count) {
    for (std::int64_t i{}; i < count; ++i) {
        const auto entt = registry.create();
        registry.emplace<position>(entt, 0.f, 0.f);
        registry.emplace<velocity>(entt, 1.f, 2.f);
        registry.emplace<mass>(entt, 0.5f);

        if (i % 16 == 0) {
            registry.emplace<frozen>(entt);
        }
    }
}

// Seconds per entity, printed with an SI prefix: "2.1n" is 2.1 ns per entity.
void per_entity(benchmark::State &state) {
    state.counters["time/entity"] =
        benchmark::Counter(static_cast<double>(state.range(0)),
                           benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void view_single_each_callback(benchmark::State &state) {
    tessera::registry registry;
    populate(registry, state.range(0));
    auto view = registry.view<position>();

    for (auto _ : state) {
        view.each([](position &pos) { pos.x += 1.f; });
        benchmark::ClobberMemory();
    }

    per_entity(state);
}

void view_single_each_iterable(benchmark::State &state) {
    tessera::registry registry;
    populate(registry, state.range(0));
    auto view = registry.view<position>();

    for (auto _ : state) {
        for (auto [entt, pos] : view.each()) {
            pos.x += 1.f;
        }
        benchmark::ClobberMemory();
    }

    per_entity(state);
}

void view_two_each_callback(benchmark::State &state) {
    tessera::registry registry;
    populate(registry, state.range(0));
    auto view = registry.view<position, const velocity>();

    for (auto _ : state) {
        view.each([](position &pos, const velocity &vel) {
            pos.x += vel.dx;
            pos.y += vel.dy;
        });
        benchmark::ClobberMemory();
    }

    per_entity(state);
}

// The same, with the pools reserved up front: their pages are then allocated back to back instead of interleaved
// with the pages of the other pools, which is what the figures above pay for at 1M entities.
void view_two_each_callback_reserved(benchmark::State &state) {
    tessera::registry registry;
    const auto count = static_cast<std::size_t>(state.range(0));
    registry.storage<position>().reserve(count);
    registry.storage<velocity>().reserve(count);
    registry.storage<mass>().reserve(count);
    populate(registry, state.range(0));
    auto view = registry.view<position, const velocity>();

    for (auto _ : state) {
        view.each([](position &pos, const velocity &vel) {
            pos.x += vel.dx;
            pos.y += vel.dy;
        });
        benchmark::ClobberMemory();
    }

    per_entity(state);
}

void view_two_each_iterable(benchmark::State &state) {
    tessera::registry registry;
    populate(registry, state.range(0));
    auto view = registry.view<position, const velocity>();

    for (auto _ : state) {
        for (auto [entt, pos, vel] : view.each()) {
            pos.x += vel.dx;
            pos.y += vel.dy;
        }
        benchmark::ClobberMemory();
    }

    per_entity(state);
}

void view_three_each_callback(benchmark::State &state) {
    tessera::registry registry;
    populate(registry, state.range(0));
    auto view = registry.view<position, const velocity, const mass>();

    for (auto _ : state) {
        view.each([](position &pos, const velocity &vel, const mass &m) {
            pos.x += vel.dx * m.k;
            pos.y += vel.dy * m.k;
        });
        benchmark::ClobberMemory();
    }

    per_entity(state);
}

void view_three_each_iterable(benchmark::State &state) {
    tessera::registry registry;
    populate(registry, state.range(0));
    auto view = registry.view<position, const velocity, const mass>();

    for (auto _ : state) {
        for (auto [entt, pos, vel, m] : view.each()) {
            pos.x += vel.dx * m.k;
            pos.y += vel.dy * m.k;
        }
        benchmark::ClobberMemory();
    }

    per_entity(state);
}

void view_two_exclude_each_callback(benchmark::State &state) {
    tessera::registry registry;
    populate(registry, state.range(0));
    auto view = registry.view<position, const velocity>(tessera::exclude<frozen>);

    for (auto _ : state) {
        view.each([](position &pos, const velocity &vel) {
            pos.x += vel.dx;
            pos.y += vel.dy;
        });
        benchmark::ClobberMemory();
    }

    per_entity(state);
}

void runtime_view_two_each(benchmark::State &state) {
    tessera::registry registry;
    populate(registry, state.range(0));
    auto &pos_pool = registry.storage<position>();
    const auto &vel_pool = registry.storage<velocity>();

    for (auto _ : state) {
        tessera::runtime_view view{};
        view.iterate(pos_pool).iterate(registry.storage<velocity>());
        view.each([&](const tessera::entity entt) {
            auto &pos = pos_pool.get(entt);
            const auto &vel = vel_pool.get(entt);
            pos.x += vel.dx;
            pos.y += vel.dy;
        });
        benchmark::ClobberMemory();
    }

    per_entity(state);
}

void runtime_view_two_range_for(benchmark::State &state) {
    tessera::registry registry;
    populate(registry, state.range(0));
    auto &pos_pool = registry.storage<position>();
    const auto &vel_pool = registry.storage<velocity>();

    for (auto _ : state) {
        tessera::runtime_view view{};
        view.iterate(pos_pool).iterate(registry.storage<velocity>());

        for (const auto entt : view) {
            auto &pos = pos_pool.get(entt);
            const auto &vel = vel_pool.get(entt);
            pos.x += vel.dx;
            pos.y += vel.dy;
        }

        benchmark::ClobberMemory();
    }

    per_entity(state);
}

} // namespace

BENCHMARK(view_single_each_callback)->Arg(1 << 14)->Arg(1 << 20);
BENCHMARK(view_single_each_iterable)->Arg(1 << 14)->Arg(1 << 20);
BENCHMARK(view_two_each_callback)->Arg(1 << 14)->Arg(1 << 20);
BENCHMARK(view_two_each_callback_reserved)->Arg(1 << 14)->Arg(1 << 20);
BENCHMARK(view_two_each_iterable)->Arg(1 << 14)->Arg(1 << 20);
BENCHMARK(view_three_each_callback)->Arg(1 << 14)->Arg(1 << 20);
BENCHMARK(view_three_each_iterable)->Arg(1 << 14)->Arg(1 << 20);
BENCHMARK(view_two_exclude_each_callback)->Arg(1 << 14)->Arg(1 << 20);
BENCHMARK(runtime_view_two_each)->Arg(1 << 14)->Arg(1 << 20);
BENCHMARK(runtime_view_two_range_for)->Arg(1 << 14)->Arg(1 << 20);
