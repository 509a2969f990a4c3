// The graph executor's cost (tessera/execution/executor.hpp): a pass over 8 empty tasks with no edge between them
// (each handed to oneTBB), the same 8 tasks in a chain (each runs alone on the calling thread: no oneTBB at all),
// and 2 independent heavy tasks through the executor against the same 2 called one after the other (the speedup on
// 2 cores) and against one of them on a std::thread of its own (what the machine allows at that moment: on a shared
// machine the second core may be busy). Wall-clock time. Built as its own program where tessera::execution exists
// (bench/CMakeLists.txt).
#include <tessera/entity/organizer.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/execution/executor.hpp>

#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <thread>

namespace {

// Resources that only order tasks: tag<N> written by the tasks that name it.
template<int N>
struct tag {};

// A task whose work is a chain of integer steps the compiler cannot fold (a linear congruential generator).
struct worker {
    std::uint64_t steps{};
    std::uint64_t state{1u};

    void run(const tessera::registry &) {
        auto value = state;

        for (std::uint64_t count{}; count < steps; ++count) {
            value = value * 6364136223846793005u + 1442695040888963407u;
        }

        state = value;
        benchmark::DoNotOptimize(state);
    }
};

template<int... N>
void add_independent(tessera::organizer &organizer, std::array<worker, sizeof...(N)> &workers,
                     std::integer_sequence<int, N...>) {
    (organizer.emplace<&worker::run, tag<N>>(workers[N]), ...);
}

// Passes of Count independent tasks of `steps` steps each through the executor.
template<int Count>
void run_independent(benchmark::State &state, const std::uint64_t steps) {
    std::array<worker, Count> workers{};
    tessera::registry registry;
    tessera::organizer organizer;

    for (auto &elem : workers) {
        elem.steps = steps;
    }

    add_independent(organizer, workers, std::make_integer_sequence<int, Count>{});
    tessera::execution::executor executor{organizer.graph()};

    for (auto _ : state) {
        executor.run(registry);
    }

    state.SetItemsProcessed(state.iterations() * Count);
}

void empty_independent(benchmark::State &state) { run_independent<8>(state, 0u); }

void empty_chain(benchmark::State &state) {
    std::array<worker, 8> workers{};
    tessera::registry registry;
    tessera::organizer organizer;

    for (auto &elem : workers) {
        organizer.emplace<&worker::run, tag<0>>(elem);
    }

    tessera::execution::executor executor{organizer.graph()};

    for (auto _ : state) {
        executor.run(registry);
    }

    state.SetItemsProcessed(state.iterations() * 8);
}

constexpr std::uint64_t heavy_steps = 1u << 20u;

void heavy_pair_executor(benchmark::State &state) { run_independent<2>(state, heavy_steps); }

void heavy_pair_sequential(benchmark::State &state) {
    std::array<worker, 2> workers{worker{heavy_steps}, worker{heavy_steps}};
    const tessera::registry registry;

    for (auto _ : state) {
        workers[0].run(registry);
        workers[1].run(registry);
    }
}

void heavy_pair_thread(benchmark::State &state) {
    std::array<worker, 2> workers{worker{heavy_steps}, worker{heavy_steps}};
    const tessera::registry registry;

    for (auto _ : state) {
        std::thread other{[&] { workers[0].run(registry); }};
        workers[1].run(registry);
        other.join();
    }
}

} // namespace

BENCHMARK(empty_independent)->UseRealTime();
BENCHMARK(empty_chain)->UseRealTime();
BENCHMARK(heavy_pair_executor)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(heavy_pair_sequential)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(heavy_pair_thread)->UseRealTime()->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
