// Deferred changes: emplaces made directly, recorded into a command buffer, recorded then applied, and collected by
// hand into a vector then applied with the checks a command buffer makes (one item is one entity's emplace); every
// other entity of three components destroyed directly, and recorded then applied (one item is one destroy);
// 10^5 entities with four components made by 10^5 clone calls and by one spawn from a prototype (one item is one
// entity). The registry keeps its memory between iterations: what is measured is the library's work, not the first
// touch of fresh pages.
#include "ecs.hpp"

#include <tessera/entity/clone.hpp>
#include <tessera/entity/command_buffer.hpp>
#include <tessera/entity/prototype.hpp>

#include <cstddef>
#include <utility>
#include <vector>

namespace {

using bench::position;
using bench::velocity;

struct health {
    int points;
};

struct team {
    int side;
};

/// count entities without components, and the velocity pool made beforehand.
std::vector<tessera::entity> bare_entities(tessera::registry &registry, const std::size_t count) {
    std::vector<tessera::entity> entities(count);
    registry.create(entities.begin(), entities.end());
    static_cast<void>(registry.storage<velocity>());
    return entities;
}

void direct_emplace(benchmark::State &state) {
    tessera::registry registry{};
    const auto entities = bare_entities(registry, static_cast<std::size_t>(state.range(0)));

    for (auto _ : state) {
        for (const auto entt : entities) {
            registry.emplace<velocity>(entt, 1.f, 2.f);
        }

        state.PauseTiming();
        registry.clear<velocity>();
        state.ResumeTiming();
    }

    bench::per_entity(state);
}

void record_emplace(benchmark::State &state) {
    tessera::registry registry{};
    const auto entities = bare_entities(registry, static_cast<std::size_t>(state.range(0)));
    tessera::command_buffer buffer{};

    for (auto _ : state) {
        for (const auto entt : entities) {
            buffer.emplace<velocity>(entt, 1.f, 2.f);
        }

        state.PauseTiming();
        buffer.clear();
        state.ResumeTiming();
    }

    bench::per_entity(state);
}

void record_apply_emplace(benchmark::State &state) {
    tessera::registry registry{};
    const auto entities = bare_entities(registry, static_cast<std::size_t>(state.range(0)));
    tessera::command_buffer buffer{};

    for (auto _ : state) {
        for (const auto entt : entities) {
            buffer.emplace<velocity>(entt, 1.f, 2.f);
        }

        buffer.apply(registry);
        state.PauseTiming();
        registry.clear<velocity>();
        state.ResumeTiming();
    }

    bench::per_entity(state);
}

// what code without command buffers does to defer the same emplaces safely: collect, then check and apply
void collect_apply_emplace(benchmark::State &state) {
    tessera::registry registry{};
    const auto entities = bare_entities(registry, static_cast<std::size_t>(state.range(0)));
    std::vector<std::pair<tessera::entity, velocity>> pending{};
    pending.reserve(entities.size());

    for (auto _ : state) {
        for (const auto entt : entities) {
            pending.emplace_back(entt, velocity{1.f, 2.f});
        }

        for (const auto &[entt, value] : pending) {
            if (registry.valid(entt)) {
                registry.emplace_or_replace<velocity>(entt, value);
            }
        }

        pending.clear();
        state.PauseTiming();
        registry.clear<velocity>();
        state.ResumeTiming();
    }

    bench::per_entity(state);
}

// 2 * count entities with three components, created anew: the even ones (count of them) are returned, for the
// destroy scenarios. Destroying every other entity makes each pool move elements, as a game's deaths do.
std::vector<tessera::entity> every_other(tessera::registry &registry, const std::size_t count) {
    registry.clear();
    std::vector<tessera::entity> doomed{};
    doomed.reserve(count);

    for (std::size_t pos{}; pos < 2u * count; ++pos) {
        const auto entt = registry.create();
        registry.emplace<position>(entt, 1.f, 2.f);
        registry.emplace<velocity>(entt, 1.f, 2.f);
        registry.emplace<health>(entt, 10);

        if (pos % 2u == 0u) {
            doomed.push_back(entt);
        }
    }

    return doomed;
}

void direct_destroy(benchmark::State &state) {
    tessera::registry registry{};

    for (auto _ : state) {
        state.PauseTiming();
        const auto doomed = every_other(registry, static_cast<std::size_t>(state.range(0)));
        state.ResumeTiming();

        for (const auto entt : doomed) {
            registry.destroy(entt);
        }
    }

    bench::per_entity(state);
}

void ignore(tessera::registry &, const tessera::entity) {}

// Observed: a listener on a pool that none of these entities uses makes the buffer apply its run of destroys one
// destroy after the other, as it must whenever something listens; otherwise the run goes pool by pool.
template<bool Observed>
void record_apply_destroy(benchmark::State &state) {
    tessera::registry registry{};
    tessera::command_buffer buffer{};

    if constexpr (Observed) {
        registry.on_construct<team>().connect<&ignore>();
    }

    for (auto _ : state) {
        state.PauseTiming();
        const auto doomed = every_other(registry, static_cast<std::size_t>(state.range(0)));
        state.ResumeTiming();

        for (const auto entt : doomed) {
            buffer.destroy(entt);
        }

        buffer.apply(registry);
    }

    bench::per_entity(state);
}

void give_four(tessera::registry &registry, const tessera::entity entt) {
    registry.emplace<position>(entt, 1.f, 2.f);
    registry.emplace<velocity>(entt, 3.f, 4.f);
    registry.emplace<health>(entt, 100);
    registry.emplace<team>(entt, 1);
}

void clone_4(benchmark::State &state) {
    const auto count = static_cast<std::size_t>(state.range(0));
    tessera::registry registry{};

    for (auto _ : state) {
        state.PauseTiming();
        registry.clear();
        const auto source = registry.create();
        give_four(registry, source);
        state.ResumeTiming();

        for (std::size_t made{}; made < count; ++made) {
            benchmark::DoNotOptimize(registry.clone(source));
        }
    }

    bench::per_entity(state);
}

void spawn_4(benchmark::State &state) {
    tessera::registry registry{};
    tessera::prototype proto{};
    proto.emplace<position>(1.f, 2.f);
    proto.emplace<velocity>(3.f, 4.f);
    proto.emplace<health>(100);
    proto.emplace<team>(1);
    std::vector<tessera::entity> entities(static_cast<std::size_t>(state.range(0)));

    for (auto _ : state) {
        state.PauseTiming();
        registry.clear();
        // the same source entity as clone_4 has, so that both registries hold the same
        give_four(registry, registry.create());
        state.ResumeTiming();
        tessera::spawn(registry, proto, entities.begin(), entities.end());
        benchmark::DoNotOptimize(entities.data());
    }

    bench::per_entity(state);
}

TESSERA_BENCH("deferred/direct_emplace", direct_emplace, 0);
TESSERA_BENCH("deferred/record_emplace", record_emplace, 0);
TESSERA_BENCH("deferred/record_apply_emplace", record_apply_emplace, 0);
TESSERA_BENCH("deferred/collect_apply_emplace", collect_apply_emplace, 0);
TESSERA_BENCH("deferred/direct_destroy", direct_destroy, 0);
TESSERA_BENCH("deferred/record_apply_destroy", record_apply_destroy<false>, 0);
TESSERA_BENCH("deferred/record_apply_destroy_observed", record_apply_destroy<true>, 0);
TESSERA_BENCH("deferred/clone_4", clone_4, 100'000);
TESSERA_BENCH("deferred/spawn_4", spawn_4, 100'000);

} // namespace
