// Group benchmarks: each() over full-owning (2 and 3 owned), partial-owning and non-owning groups, a hand-made
// equivalent of a two-type view (lead pool plus lookups), and the bookkeeping cost of emplace/erase of an owned
// component. Items are entities in the registry (for the sparse-match cases too). Compare the iteration figures with
// raw_floor_2 / raw_floor_3.
#include <benchmark/benchmark.h>
#include <cstddef>
#include <tessera/entity/registry.hpp>
#include <vector>

namespace {

struct position {
    float x{}, y{};
};

struct velocity {
    float dx{1.f}, dy{1.f};
};

struct acceleration {
    float ax{.5f}, ay{.5f};
};

void populate(tessera::registry &registry, const std::size_t count, const bool with_acceleration) {
    std::vector<tessera::entity> entities(count);
    registry.create(entities.begin(), entities.end());
    registry.insert<position>(entities.begin(), entities.end());
    registry.insert<velocity>(entities.begin(), entities.end());

    if (with_acceleration) {
        registry.insert<acceleration>(entities.begin(), entities.end());
    }
}

void finish(benchmark::State &state) {
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}

void group_full_owning_2(benchmark::State &state) {
    tessera::registry registry;
    auto group = registry.group<position, velocity>();
    populate(registry, static_cast<std::size_t>(state.range(0)), false);

    for (auto _ : state) {
        group.each([](position &pos, const velocity &vel) {
            pos.x += vel.dx;
            pos.y += vel.dy;
        });
        benchmark::ClobberMemory();
    }

    finish(state);
}

void group_full_owning_2_with_entity(benchmark::State &state) {
    tessera::registry registry;
    auto group = registry.group<position, velocity>();
    populate(registry, static_cast<std::size_t>(state.range(0)), false);

    for (auto _ : state) {
        group.each([](const tessera::entity entt, position &pos, const velocity &vel) {
            pos.x += vel.dx + static_cast<float>(tessera::to_integral(entt) & 1u);
            pos.y += vel.dy;
        });
        benchmark::ClobberMemory();
    }

    finish(state);
}

void group_full_owning_3(benchmark::State &state) {
    tessera::registry registry;
    auto group = registry.group<position, velocity, acceleration>();
    populate(registry, static_cast<std::size_t>(state.range(0)), true);

    for (auto _ : state) {
        group.each([](position &pos, velocity &vel, const acceleration &acc) {
            vel.dx += acc.ax;
            vel.dy += acc.ay;
            pos.x += vel.dx;
            pos.y += vel.dy;
        });
        benchmark::ClobberMemory();
    }

    finish(state);
}

void group_full_owning_2_iterable(benchmark::State &state) {
    tessera::registry registry;
    auto group = registry.group<position, velocity>();
    populate(registry, static_cast<std::size_t>(state.range(0)), false);

    for (auto _ : state) {
        for (auto [entt, pos, vel] : group.each()) {
            pos.x += vel.dx;
            pos.y += vel.dy;
        }

        benchmark::ClobberMemory();
    }

    finish(state);
}

void group_partial_owning(benchmark::State &state) {
    tessera::registry registry;
    auto group = registry.group<position>(tessera::get<velocity>);
    populate(registry, static_cast<std::size_t>(state.range(0)), false);

    for (auto _ : state) {
        group.each([](position &pos, const velocity &vel) {
            pos.x += vel.dx;
            pos.y += vel.dy;
        });
        benchmark::ClobberMemory();
    }

    finish(state);
}

void group_non_owning(benchmark::State &state) {
    tessera::registry registry;
    auto group = registry.group<>(tessera::get<position, velocity>);
    populate(registry, static_cast<std::size_t>(state.range(0)), false);

    for (auto _ : state) {
        group.each([](position &pos, const velocity &vel) {
            pos.x += vel.dx;
            pos.y += vel.dy;
        });
        benchmark::ClobberMemory();
    }

    finish(state);
}

// What a two-type view does (views are not in this branch): walk one pool, check and look up the other.
void view_equivalent_by_hand(benchmark::State &state) {
    tessera::registry registry;
    populate(registry, static_cast<std::size_t>(state.range(0)), false);
    auto &positions = registry.storage<position>();
    auto &velocities = registry.storage<velocity>();

    for (auto _ : state) {
        for (auto [entt, pos] : positions.each()) {
            if (velocities.contains(entt)) {
                const auto &vel = velocities.get(entt);
                pos.x += vel.dx;
                pos.y += vel.dy;
            }
        }

        benchmark::ClobberMemory();
    }

    finish(state);
}

// Fewer matches: position on every second entity, velocity on every third (one entity in six has both). A view
// walks the smaller pool and checks the other; a non-owning group walks only the matches.
void populate_sparse(tessera::registry &registry, const std::size_t count) {
    for (std::size_t i{}; i < count; ++i) {
        const auto entt = registry.create();

        if (i % 2u == 0u) {
            registry.emplace<position>(entt);
        }

        if (i % 3u == 0u) {
            registry.emplace<velocity>(entt);
        }
    }
}

void group_non_owning_sparse_match(benchmark::State &state) {
    tessera::registry registry;
    auto group = registry.group<>(tessera::get<position, velocity>);
    populate_sparse(registry, static_cast<std::size_t>(state.range(0)));

    for (auto _ : state) {
        group.each([](position &pos, const velocity &vel) {
            pos.x += vel.dx;
            pos.y += vel.dy;
        });
        benchmark::ClobberMemory();
    }

    finish(state);
}

void view_equivalent_by_hand_sparse_match(benchmark::State &state) {
    tessera::registry registry;
    populate_sparse(registry, static_cast<std::size_t>(state.range(0)));
    auto &positions = registry.storage<position>();
    auto &velocities = registry.storage<velocity>();

    for (auto _ : state) {
        // velocity is the smaller pool: it leads
        for (auto [entt, vel] : velocities.each()) {
            if (positions.contains(entt)) {
                auto &pos = positions.get(entt);
                pos.x += vel.dx;
                pos.y += vel.dy;
            }
        }

        benchmark::ClobberMemory();
    }

    finish(state);
}

// emplace then erase of an owned component on every entity; the group moves each entity in and out.
template<bool WithGroup>
void owned_emplace_erase(benchmark::State &state) {
    tessera::registry registry;
    const auto count = static_cast<std::size_t>(state.range(0));
    std::vector<tessera::entity> entities(count);
    registry.create(entities.begin(), entities.end());
    registry.insert<position>(entities.begin(), entities.end());

    if constexpr (WithGroup) {
        static_cast<void>(registry.group<position, velocity>());
    } else {
        static_cast<void>(registry.storage<velocity>());
    }

    for (auto _ : state) {
        for (auto entt : entities) {
            registry.emplace<velocity>(entt);
        }

        for (auto entt : entities) {
            registry.erase<velocity>(entt);
        }
    }

    // one item is one emplace plus one erase
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}

void owned_emplace_erase_no_group(benchmark::State &state) { owned_emplace_erase<false>(state); }

void owned_emplace_erase_full_owning(benchmark::State &state) { owned_emplace_erase<true>(state); }

} // namespace

BENCHMARK(group_full_owning_2)->Arg(1 << 14)->Arg(1 << 20);
BENCHMARK(group_full_owning_2_with_entity)->Arg(1 << 14)->Arg(1 << 20);
BENCHMARK(group_full_owning_2_iterable)->Arg(1 << 14)->Arg(1 << 20);
BENCHMARK(group_full_owning_3)->Arg(1 << 14)->Arg(1 << 20);
BENCHMARK(group_partial_owning)->Arg(1 << 14)->Arg(1 << 20);
BENCHMARK(group_non_owning)->Arg(1 << 14)->Arg(1 << 20);
BENCHMARK(view_equivalent_by_hand)->Arg(1 << 14)->Arg(1 << 20);
BENCHMARK(group_non_owning_sparse_match)->Arg(1 << 14)->Arg(1 << 20);
BENCHMARK(view_equivalent_by_hand_sparse_match)->Arg(1 << 14)->Arg(1 << 20);
BENCHMARK(owned_emplace_erase_no_group)->Arg(1 << 14)->Arg(1 << 20);
BENCHMARK(owned_emplace_erase_full_owning)->Arg(1 << 14)->Arg(1 << 20);
