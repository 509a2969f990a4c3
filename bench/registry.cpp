// Registry benchmarks: entity creation and destruction, component access and the cost of signals, at 16K and 1M
// entities. Figures are per entity (items processed).
#include <tessera/entity/entity.hpp>
#include <tessera/entity/registry.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <benchmark/benchmark.h>

namespace {

struct position {
    std::uint64_t x;
    std::uint64_t y;
};

struct velocity {
    std::uint64_t dx;
    std::uint64_t dy;
};

struct health {
    std::uint64_t value;
};

void listener(tessera::registry &, tessera::entity entity) { benchmark::DoNotOptimize(entity); }

// A registry made (and torn down) outside the timed region of each iteration.
class fresh_registry {
public:
    explicit fresh_registry(benchmark::State &ref) : state{ref} {
        state.PauseTiming();
        registry.emplace();
        state.ResumeTiming();
    }

    fresh_registry(const fresh_registry &) = delete;
    fresh_registry &operator=(const fresh_registry &) = delete;

    ~fresh_registry() {
        state.PauseTiming();
        registry.reset();
        state.ResumeTiming();
    }

    tessera::registry &operator*() { return *registry; }

private:
    benchmark::State &state;
    std::optional<tessera::registry> registry;
};

std::vector<tessera::entity> populate(tessera::registry &registry, const std::size_t count) {
    std::vector<tessera::entity> entities(count);
    registry.create(entities.begin(), entities.end());

    for (const auto entity : entities) {
        registry.emplace<position>(entity, tessera::to_integral(entity), 0u);
        registry.emplace<velocity>(entity, 1u, 1u);
        registry.emplace<health>(entity, 100u);
    }

    return entities;
}

void create(benchmark::State &state) {
    const auto count = static_cast<std::size_t>(state.range(0));

    for (auto _ : state) {
        fresh_registry registry{state};

        for (std::size_t pos = 0u; pos < count; ++pos) {
            benchmark::DoNotOptimize((*registry).create());
        }
    }

    state.SetItemsProcessed(state.iterations() * state.range(0));
}

void create_bulk(benchmark::State &state) {
    std::vector<tessera::entity> entities(static_cast<std::size_t>(state.range(0)));

    for (auto _ : state) {
        fresh_registry registry{state};
        (*registry).create(entities.begin(), entities.end());
        benchmark::DoNotOptimize(entities.data());
    }

    state.SetItemsProcessed(state.iterations() * state.range(0));
}

void destroy(benchmark::State &state) {
    std::vector<tessera::entity> entities(static_cast<std::size_t>(state.range(0)));

    for (auto _ : state) {
        fresh_registry registry{state};
        state.PauseTiming();
        (*registry).create(entities.begin(), entities.end());
        state.ResumeTiming();

        for (const auto entity : entities) {
            (*registry).destroy(entity);
        }
    }

    state.SetItemsProcessed(state.iterations() * state.range(0));
}

void create_with_two_components(benchmark::State &state) {
    const auto count = static_cast<std::size_t>(state.range(0));

    for (auto _ : state) {
        fresh_registry registry{state};

        for (std::size_t pos = 0u; pos < count; ++pos) {
            const auto entity = (*registry).create();
            (*registry).emplace<position>(entity, 0u, 0u);
            (*registry).emplace<velocity>(entity, 1u, 1u);
        }
    }

    state.SetItemsProcessed(state.iterations() * state.range(0));
}

template<typename... Type>
void get(benchmark::State &state) {
    tessera::registry registry;
    const auto entities = populate(registry, static_cast<std::size_t>(state.range(0)));

    for (auto _ : state) {
        for (const auto entity : entities) {
            benchmark::DoNotOptimize(registry.get<Type...>(entity));
        }
    }

    state.SetItemsProcessed(state.iterations() * state.range(0));
}

void add_then_remove(benchmark::State &state) {
    tessera::registry registry;
    std::vector<tessera::entity> entities(static_cast<std::size_t>(state.range(0)));
    registry.create(entities.begin(), entities.end());
    // the pool exists beforehand: this measures adding and removing, not creating the pool
    registry.storage<position>().reserve(entities.size());

    for (auto _ : state) {
        for (const auto entity : entities) {
            registry.emplace<position>(entity, 0u, 0u);
        }

        for (const auto entity : entities) {
            registry.remove<position>(entity);
        }
    }

    state.SetItemsProcessed(state.iterations() * state.range(0));
}

void emplace_with_listener(benchmark::State &state) {
    tessera::registry registry;
    std::vector<tessera::entity> entities(static_cast<std::size_t>(state.range(0)));
    registry.create(entities.begin(), entities.end());
    registry.on_construct<position>().connect<&listener>();

    for (auto _ : state) {
        for (const auto entity : entities) {
            registry.emplace<position>(entity, 0u, 0u);
        }

        state.PauseTiming();
        registry.clear<position>();
        state.ResumeTiming();
    }

    state.SetItemsProcessed(state.iterations() * state.range(0));
}

// 16K fits in cache; 1M is near the 20-bit index limit of the default identifier.
constexpr std::int64_t small_count = 16'384;
constexpr std::int64_t large_count = 1'000'000;

} // namespace

BENCHMARK(create)->Arg(small_count)->Arg(large_count);
BENCHMARK(create_bulk)->Arg(small_count)->Arg(large_count);
BENCHMARK(destroy)->Arg(small_count)->Arg(large_count);
BENCHMARK(create_with_two_components)->Arg(small_count)->Arg(large_count);
BENCHMARK_TEMPLATE(get, position)->Name("get_one")->Arg(small_count)->Arg(large_count);
BENCHMARK_TEMPLATE(get, position, velocity)->Name("get_two")->Arg(small_count)->Arg(large_count);
BENCHMARK_TEMPLATE(get, position, velocity, health)->Name("get_three")->Arg(small_count)->Arg(large_count);
BENCHMARK(add_then_remove)->Arg(small_count)->Arg(large_count);
BENCHMARK(emplace_with_listener)->Arg(small_count)->Arg(large_count);
