// Snapshot benchmarks: save and load of 1M entities with two trivially copyable components through the built-in
// binary archive, in memory. Figures are archive bytes per second and time per entity.
#include <tessera/archive/binary.hpp>
#include <tessera/entity/entity.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/snapshot.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <benchmark/benchmark.h>

namespace {

constexpr std::size_t entity_count = 1'000'000u;

struct position {
    float x;
    float y;
    float z;
};

struct velocity {
    float dx;
    float dy;
    float dz;
};

void populate(tessera::registry &registry) {
    std::vector<tessera::entity> entities(entity_count);
    registry.create(entities.begin(), entities.end());

    for (const auto entity : entities) {
        const auto value = static_cast<float>(tessera::to_integral(entity));
        registry.emplace<position>(entity, value, value, value);
        registry.emplace<velocity>(entity, -value, -value, -value);
    }
}

void report(benchmark::State &state, const std::size_t bytes) {
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * entity_count));
    state.counters["ns/entity"] =
        benchmark::Counter(static_cast<double>(entity_count) * 1e-9,
                           benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void snapshot_save(benchmark::State &state) {
    tessera::registry registry{};
    populate(registry);
    std::vector<std::byte> bytes{};

    for (auto _ : state) {
        // the buffer keeps its capacity between iterations: what is measured is the encoding
        bytes.clear();
        tessera::binary_output_archive archive{bytes};
        const tessera::snapshot snapshot{registry};
        snapshot.get<tessera::entity>(archive.section<tessera::entity>());
        snapshot.get<position>(archive.section<position>());
        snapshot.get<velocity>(archive.section<velocity>());
        archive.finish();
        benchmark::DoNotOptimize(bytes.data());
    }

    report(state, bytes.size());
}

void snapshot_save_fresh_buffer(benchmark::State &state) {
    tessera::registry registry{};
    populate(registry);
    std::size_t size{};

    for (auto _ : state) {
        const auto bytes = tessera::save<position, velocity>(registry);
        size = bytes.size();
        benchmark::DoNotOptimize(bytes.data());
    }

    report(state, size);
}

void snapshot_load(benchmark::State &state) {
    std::vector<std::byte> bytes{};

    {
        tessera::registry registry{};
        populate(registry);
        bytes = tessera::save<position, velocity>(registry);
    }

    for (auto _ : state) {
        state.PauseTiming();
        std::optional<tessera::registry> registry{std::in_place};
        state.ResumeTiming();

        tessera::load<position, velocity>(*registry, bytes);
        benchmark::DoNotOptimize(registry->storage<velocity>().size());

        state.PauseTiming();
        registry.reset();
        state.ResumeTiming();
    }

    report(state, bytes.size());
}

void continuous_load(benchmark::State &state) {
    std::vector<std::byte> bytes{};

    {
        tessera::registry registry{};
        populate(registry);
        bytes = tessera::save<position, velocity>(registry);
    }

    for (auto _ : state) {
        state.PauseTiming();
        std::optional<tessera::registry> registry{std::in_place};
        std::optional<tessera::continuous_loader> loader{std::in_place, *registry};
        state.ResumeTiming();

        tessera::binary_input_archive archive{bytes};
        loader->get<tessera::entity>(archive.section<tessera::entity>())
            .get<position>(archive.section<position>())
            .get<velocity>(archive.section<velocity>());
        benchmark::DoNotOptimize(registry->storage<velocity>().size());

        state.PauseTiming();
        loader.reset();
        registry.reset();
        state.ResumeTiming();
    }

    report(state, bytes.size());
}

BENCHMARK(snapshot_save)->Unit(benchmark::kMillisecond);
BENCHMARK(snapshot_save_fresh_buffer)->Unit(benchmark::kMillisecond);
BENCHMARK(snapshot_load)->Unit(benchmark::kMillisecond);
BENCHMARK(continuous_load)->Unit(benchmark::kMillisecond);

} // namespace
