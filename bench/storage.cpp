// Benchmarks of basic_storage on 2^20 elements: emplace, erase (swap-and-pop and in-place), contains, get.
// Each case reports items processed, so the rate is per element; floor.cpp has the same cases without tessera.
#include <benchmark/benchmark.h>
#include <cstddef>
#include <cstdint>
#include <tessera/entity/storage.hpp>

namespace {

struct position {
    float x;
    float y;
};

struct stable_position {
    static constexpr bool in_place_delete = true;
    float x;
    float y;
};

tessera::entity id(const std::size_t idx) { return tessera::entity{static_cast<std::uint32_t>(idx)}; }

template<typename Type>
void fill(tessera::storage<Type> &storage, const std::size_t count) {
    for (std::size_t idx{}; idx < count; ++idx) {
        storage.emplace(id(idx), static_cast<float>(idx), 1.f);
    }
}

void storage_emplace(benchmark::State &state) {
    const auto count = static_cast<std::size_t>(state.range(0));

    for (auto _ : state) {
        tessera::storage<position> storage;
        fill(storage, count);
        benchmark::DoNotOptimize(storage.raw());
    }

    state.SetItemsProcessed(state.iterations() * state.range(0));
}

template<typename Type>
void storage_erase(benchmark::State &state) {
    const auto count = static_cast<std::size_t>(state.range(0));
    tessera::storage<Type> storage;

    for (auto _ : state) {
        state.PauseTiming();
        storage.clear();
        fill(storage, count);
        state.ResumeTiming();

        for (std::size_t idx{}; idx < count; ++idx) {
            storage.erase(id(idx));
        }

        benchmark::ClobberMemory();
    }

    state.SetItemsProcessed(state.iterations() * state.range(0));
}

void storage_erase_swap_and_pop(benchmark::State &state) { storage_erase<position>(state); }

void storage_erase_in_place(benchmark::State &state) { storage_erase<stable_position>(state); }

void storage_contains(benchmark::State &state) {
    const auto count = static_cast<std::size_t>(state.range(0));
    tessera::storage<position> storage;
    fill(storage, count);

    for (auto _ : state) {
        std::size_t found{};

        for (std::size_t idx{}; idx < count; ++idx) {
            found += storage.contains(id(idx));
        }

        benchmark::DoNotOptimize(found);
    }

    state.SetItemsProcessed(state.iterations() * state.range(0));
}

void storage_get(benchmark::State &state) {
    const auto count = static_cast<std::size_t>(state.range(0));
    tessera::storage<position> storage;
    fill(storage, count);

    for (auto _ : state) {
        float sum{};

        for (std::size_t idx{}; idx < count; ++idx) {
            sum += storage.get(id(idx)).x;
        }

        benchmark::DoNotOptimize(sum);
    }

    state.SetItemsProcessed(state.iterations() * state.range(0));
}

} // namespace

BENCHMARK(storage_emplace)->Arg(1 << 20)->Unit(benchmark::kMillisecond);
BENCHMARK(storage_erase_swap_and_pop)->Arg(1 << 20)->Unit(benchmark::kMillisecond);
BENCHMARK(storage_erase_in_place)->Arg(1 << 20)->Unit(benchmark::kMillisecond);
BENCHMARK(storage_contains)->Arg(1 << 20)->Unit(benchmark::kMillisecond);
BENCHMARK(storage_get)->Arg(1 << 20)->Unit(benchmark::kMillisecond);
