// Snapshot save and load of 10^6 entities with two components through the built-in binary archive, in memory.
// Figures are per entity; bytes per second are reported too.
#include "ecs.hpp"

#include <tessera/archive/binary.hpp>
#include <tessera/entity/snapshot.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace {

using bench::position;
using bench::velocity;

void report(benchmark::State &state, const std::size_t bytes) {
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(bytes));
    bench::per_entity(state);
}

void save(benchmark::State &state) {
    tessera::registry registry{};
    bench::populate(registry, static_cast<std::size_t>(state.range(0)));
    std::size_t size{};

    for (auto _ : state) {
        const auto bytes = tessera::save<position, velocity>(registry);
        size = bytes.size();
        benchmark::DoNotOptimize(bytes.data());
    }

    report(state, size);
}

void load(benchmark::State &state) {
    std::vector<std::byte> bytes{};

    {
        tessera::registry registry{};
        bench::populate(registry, static_cast<std::size_t>(state.range(0)));
        bytes = tessera::save<position, velocity>(registry);
    }

    for (auto _ : state) {
        bench::fresh_registry registry{state};
        tessera::load<position, velocity>(*registry, bytes);
        benchmark::DoNotOptimize(registry->storage<velocity>().size());
    }

    report(state, bytes.size());
}

TESSERA_BENCH("snapshot/save", save, 1'000'000);
TESSERA_BENCH("snapshot/load", load, 1'000'000);

} // namespace
