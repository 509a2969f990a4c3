// The floor for bench/view.cpp: the same arithmetic over plain contiguous arrays, with no library code. A view
// cannot beat these loops; the ratio to them says what the view's bookkeeping costs.
#include <benchmark/benchmark.h>
#include <cstddef>
#include <cstdint>
#include <vector>

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

// Seconds per entity, printed with an SI prefix: "2.1n" is 2.1 ns per entity.
void per_entity(benchmark::State &state) {
    state.counters["time/entity"] =
        benchmark::Counter(static_cast<double>(state.range(0)),
                           benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void floor_single(benchmark::State &state) {
    std::vector<position> pos(static_cast<std::size_t>(state.range(0)), position{0.f, 0.f});

    for (auto _ : state) {
        for (auto &elem : pos) {
            elem.x += 1.f;
        }
        benchmark::ClobberMemory();
    }

    per_entity(state);
}

void floor_two(benchmark::State &state) {
    const auto count = static_cast<std::size_t>(state.range(0));
    std::vector<position> pos(count, position{0.f, 0.f});
    std::vector<velocity> vel(count, velocity{1.f, 2.f});

    for (auto _ : state) {
        for (std::size_t i{}; i < count; ++i) {
            pos[i].x += vel[i].dx;
            pos[i].y += vel[i].dy;
        }
        benchmark::ClobberMemory();
    }

    per_entity(state);
}

void floor_three(benchmark::State &state) {
    const auto count = static_cast<std::size_t>(state.range(0));
    std::vector<position> pos(count, position{0.f, 0.f});
    std::vector<velocity> vel(count, velocity{1.f, 2.f});
    std::vector<mass> mas(count, mass{0.5f});

    for (auto _ : state) {
        for (std::size_t i{}; i < count; ++i) {
            pos[i].x += vel[i].dx * mas[i].k;
            pos[i].y += vel[i].dy * mas[i].k;
        }
        benchmark::ClobberMemory();
    }

    per_entity(state);
}

// every 16th element is skipped, as the frozen entities of the exclude benchmark
void floor_two_exclude(benchmark::State &state) {
    const auto count = static_cast<std::size_t>(state.range(0));
    std::vector<position> pos(count, position{0.f, 0.f});
    std::vector<velocity> vel(count, velocity{1.f, 2.f});
    std::vector<std::uint8_t> frozen(count, 0u);

    for (std::size_t i{}; i < count; i += 16u) {
        frozen[i] = 1u;
    }

    for (auto _ : state) {
        for (std::size_t i{}; i < count; ++i) {
            if (!frozen[i]) {
                pos[i].x += vel[i].dx;
                pos[i].y += vel[i].dy;
            }
        }
        benchmark::ClobberMemory();
    }

    per_entity(state);
}

} // namespace

BENCHMARK(floor_single)->Arg(1 << 14)->Arg(1 << 20);
BENCHMARK(floor_two)->Arg(1 << 14)->Arg(1 << 20);
BENCHMARK(floor_three)->Arg(1 << 14)->Arg(1 << 20);
BENCHMARK(floor_two_exclude)->Arg(1 << 14)->Arg(1 << 20);
