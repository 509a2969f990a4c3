// The graph executor's cost (tessera/execution/executor.hpp): a pass over 8 empty tasks with no edge between them
// (each handed to oneTBB), the same 8 tasks in a chain (each runs alone on the calling thread: no oneTBB at all),
// and 2 independent heavy tasks through the executor against the same 2 called one after the other (the speedup on
// 2 cores) and against one of them on a std::thread of its own (what the machine allows at that moment: on a shared
// machine the second core may be busy). Then execution::apply against one apply after the other, on a batch of 16
// buffers that spawn and destroy entities of three components. Wall-clock time. Built as its own program where
// tessera::execution exists (bench/CMakeLists.txt).
#include <tessera/entity/command_buffer.hpp>
#include <tessera/entity/organizer.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/execution/apply.hpp>
#include <tessera/execution/executor.hpp>

#include <benchmark/benchmark.h>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

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

struct position {
    float x, y;
};

struct velocity {
    float dx, dy;
};

struct lifetime {
    float left;
};

constexpr std::size_t batch_buffers = 16u;
constexpr std::size_t batch_entities = 262144u;

// A batch like a frame's: every buffer destroys 1/32 of the entities and spawns as many, kind by kind (the destroys,
// the creates, then the positions, velocities and lifetimes); one registry of 262,144 entities per iteration, rebuilt
// untimed.
template<bool Parallel>
void apply_batch(benchmark::State &state) {
    std::vector<tessera::command_buffer> buffers(batch_buffers);
    std::vector<tessera::entity> fresh;

    for (auto _ : state) {
        tessera::registry registry;
        std::vector<tessera::entity> live(batch_entities);
        registry.create(live.begin(), live.end());
        registry.insert<position>(live.begin(), live.end());
        registry.insert<velocity>(live.begin(), live.end());
        registry.insert<lifetime>(live.begin(), live.end());

        for (std::size_t which{}; which < batch_buffers; ++which) {
            auto &buffer = buffers[which];
            fresh.clear();

            for (std::size_t pos = which; pos < live.size(); pos += 2u * batch_buffers) {
                buffer.destroy(live[pos]);
            }

            for (std::size_t pos = which; pos < live.size(); pos += 2u * batch_buffers) {
                fresh.push_back(buffer.create());
            }

            for (const auto entt : fresh) {
                buffer.emplace<position>(entt, 1.f, 2.f);
            }

            for (const auto entt : fresh) {
                buffer.emplace<velocity>(entt, 0.f, 1.f);
            }

            for (const auto entt : fresh) {
                buffer.emplace<lifetime>(entt, 2.f);
            }
        }

        const auto start = std::chrono::steady_clock::now();

        if constexpr (Parallel) {
            tessera::execution::apply(registry, buffers);
        } else {
            for (auto &buffer : buffers) {
                buffer.apply(registry);
            }
        }

        state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        benchmark::DoNotOptimize(registry.storage<position>().size());
    }
}

void apply_one_after_the_other(benchmark::State &state) { apply_batch<false>(state); }

void apply_parallel(benchmark::State &state) { apply_batch<true>(state); }

} // namespace

BENCHMARK(empty_independent)->UseRealTime();
BENCHMARK(empty_chain)->UseRealTime();
BENCHMARK(heavy_pair_executor)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(heavy_pair_sequential)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(heavy_pair_thread)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(apply_one_after_the_other)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(apply_parallel)->UseManualTime()->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
