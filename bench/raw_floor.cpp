// The raw floor for iteration benchmarks: plain arrays of components, no tessera at all. Group and view
// benchmarks compare against these loops.
#include <benchmark/benchmark.h>
#include <cstddef>
#include <vector>

namespace {

struct raw_position {
    float x{}, y{};
};

struct raw_velocity {
    float dx{1.f}, dy{1.f};
};

struct raw_acceleration {
    float ax{.5f}, ay{.5f};
};

void raw_floor_2(benchmark::State &state) {
    const auto count = static_cast<std::size_t>(state.range(0));
    std::vector<raw_position> pos(count);
    std::vector<raw_velocity> vel(count);

    for (auto _ : state) {
        // the same order as group iteration: from the last position down to 0
        for (auto i = count; i; --i) {
            pos[i - 1u].x += vel[i - 1u].dx;
            pos[i - 1u].y += vel[i - 1u].dy;
        }

        benchmark::DoNotOptimize(pos.data());
        benchmark::ClobberMemory();
    }

    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}

void raw_floor_3(benchmark::State &state) {
    const auto count = static_cast<std::size_t>(state.range(0));
    std::vector<raw_position> pos(count);
    std::vector<raw_velocity> vel(count);
    std::vector<raw_acceleration> acc(count);

    for (auto _ : state) {
        for (auto i = count; i; --i) {
            vel[i - 1u].dx += acc[i - 1u].ax;
            vel[i - 1u].dy += acc[i - 1u].ay;
            pos[i - 1u].x += vel[i - 1u].dx;
            pos[i - 1u].y += vel[i - 1u].dy;
        }

        benchmark::DoNotOptimize(pos.data());
        benchmark::ClobberMemory();
    }

    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}

} // namespace

BENCHMARK(raw_floor_2)->Arg(1 << 14)->Arg(1 << 20);
BENCHMARK(raw_floor_3)->Arg(1 << 14)->Arg(1 << 20);
