// The floor for bench/storage.cpp: the same work on plain vectors, without tessera. A sparse array maps an index
// to a position, a packed array maps a position to an index, a value array holds the elements. No paging, no
// versions, no checks, no virtual calls: what a storage cannot beat.
#include <benchmark/benchmark.h>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

struct position {
    float x;
    float y;
};

constexpr std::uint32_t none = 0xFFFFFFFFu;
constexpr std::uint32_t hole = 0x80000000u;

struct plain_pool {
    std::vector<std::uint32_t> sparse;
    std::vector<std::uint32_t> packed;
    std::vector<position> values;
    std::uint32_t free_head{none};

    void emplace(const std::uint32_t idx, const position value) {
        if (!(idx < sparse.size())) {
            sparse.resize(idx + 1u, none);
        }

        sparse[idx] = static_cast<std::uint32_t>(packed.size());
        packed.push_back(idx);
        values.push_back(value);
    }

    [[nodiscard]] bool contains(const std::uint32_t idx) const { return idx < sparse.size() && sparse[idx] != none; }

    [[nodiscard]] const position &get(const std::uint32_t idx) const { return values[sparse[idx]]; }

    void swap_remove(const std::uint32_t idx) {
        const auto pos = sparse[idx];
        const auto last = packed.back();
        packed[pos] = last;
        values[pos] = values.back();
        sparse[last] = pos;
        sparse[idx] = none;
        packed.pop_back();
        values.pop_back();
    }

    void in_place_remove(const std::uint32_t idx) {
        const auto pos = sparse[idx];
        packed[pos] = free_head | hole;
        free_head = pos;
        sparse[idx] = none;
    }

    void clear() {
        for (const auto idx : packed) {
            if (!(idx & hole)) {
                sparse[idx] = none;
            }
        }

        packed.clear();
        values.clear();
        free_head = none;
    }
};

void fill(plain_pool &pool, const std::size_t count) {
    for (std::size_t idx{}; idx < count; ++idx) {
        pool.emplace(static_cast<std::uint32_t>(idx), position{static_cast<float>(idx), 1.f});
    }
}

void floor_emplace(benchmark::State &state) {
    const auto count = static_cast<std::size_t>(state.range(0));

    for (auto _ : state) {
        plain_pool pool;
        fill(pool, count);
        benchmark::DoNotOptimize(pool.values.data());
    }

    state.SetItemsProcessed(state.iterations() * state.range(0));
}

template<bool InPlace>
void floor_erase(benchmark::State &state) {
    const auto count = static_cast<std::size_t>(state.range(0));
    plain_pool pool;

    for (auto _ : state) {
        state.PauseTiming();
        pool.clear();
        fill(pool, count);
        state.ResumeTiming();

        for (std::size_t idx{}; idx < count; ++idx) {
            if constexpr (InPlace) {
                pool.in_place_remove(static_cast<std::uint32_t>(idx));
            } else {
                pool.swap_remove(static_cast<std::uint32_t>(idx));
            }
        }

        benchmark::ClobberMemory();
    }

    state.SetItemsProcessed(state.iterations() * state.range(0));
}

void floor_erase_swap_and_pop(benchmark::State &state) { floor_erase<false>(state); }

void floor_erase_in_place(benchmark::State &state) { floor_erase<true>(state); }

void floor_contains(benchmark::State &state) {
    const auto count = static_cast<std::size_t>(state.range(0));
    plain_pool pool;
    fill(pool, count);

    for (auto _ : state) {
        std::size_t found{};

        for (std::size_t idx{}; idx < count; ++idx) {
            found += pool.contains(static_cast<std::uint32_t>(idx));
        }

        benchmark::DoNotOptimize(found);
    }

    state.SetItemsProcessed(state.iterations() * state.range(0));
}

void floor_get(benchmark::State &state) {
    const auto count = static_cast<std::size_t>(state.range(0));
    plain_pool pool;
    fill(pool, count);

    for (auto _ : state) {
        float sum{};

        for (std::size_t idx{}; idx < count; ++idx) {
            sum += pool.get(static_cast<std::uint32_t>(idx)).x;
        }

        benchmark::DoNotOptimize(sum);
    }

    state.SetItemsProcessed(state.iterations() * state.range(0));
}

} // namespace

BENCHMARK(floor_emplace)->Arg(1 << 20)->Unit(benchmark::kMillisecond);
BENCHMARK(floor_erase_swap_and_pop)->Arg(1 << 20)->Unit(benchmark::kMillisecond);
BENCHMARK(floor_erase_in_place)->Arg(1 << 20)->Unit(benchmark::kMillisecond);
BENCHMARK(floor_contains)->Arg(1 << 20)->Unit(benchmark::kMillisecond);
BENCHMARK(floor_get)->Arg(1 << 20)->Unit(benchmark::kMillisecond);
