// The raw floor for iteration benchmarks: plain arrays of components, no tessera at all. Group and view
// benchmarks compare against these loops.
#include <benchmark/benchmark.h>
#include <cstddef>
#include <cstdint>
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

// the same body as group_full_owning_2_with_entity: the identifier takes part in the computation
void raw_floor_2_with_entity(benchmark::State &state) {
    const auto count = static_cast<std::size_t>(state.range(0));
    std::vector<std::uint32_t> ids(count);
    std::vector<raw_position> pos(count);
    std::vector<raw_velocity> vel(count);

    for (std::size_t i{}; i < count; ++i) {
        ids[i] = static_cast<std::uint32_t>(i);
    }

    for (auto _ : state) {
        for (auto i = count; i; --i) {
            pos[i - 1u].x += vel[i - 1u].dx + static_cast<float>(ids[i - 1u] & 1u);
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
BENCHMARK(raw_floor_2_with_entity)->Arg(1 << 14)->Arg(1 << 20);
BENCHMARK(raw_floor_3)->Arg(1 << 14)->Arg(1 << 20);
