// Structural changes: remove-then-add and add-then-remove of a component, and of an empty tag. One item is one
// entity's remove plus add.
#include "ecs.hpp"

#include <cstddef>
#include <vector>

namespace {

using bench::velocity;

struct tag {};

void remove_add(benchmark::State &state) {
    tessera::registry registry{};
    const auto entities = bench::populate(registry, static_cast<std::size_t>(state.range(0)));

    for (auto _ : state) {
        for (const auto entt : entities) {
            registry.remove<velocity>(entt);
        }

        for (const auto entt : entities) {
            registry.emplace<velocity>(entt, 1.f, 2.f);
        }
    }

    bench::per_entity(state);
}

template<typename Type>
void add_remove(benchmark::State &state) {
    tessera::registry registry{};
    const auto entities = bench::populate(registry, static_cast<std::size_t>(state.range(0)));
    // the pool exists beforehand: what is measured is adding and removing, not making the pool
    static_cast<void>(registry.storage<Type>());

    for (auto _ : state) {
        for (const auto entt : entities) {
            registry.emplace<Type>(entt);
        }

        for (const auto entt : entities) {
            registry.remove<Type>(entt);
        }
    }

    bench::per_entity(state);
}

struct health {
    int value;
};

TESSERA_BENCH("structural/remove_add", remove_add, 0);
TESSERA_BENCH("structural/add_remove", add_remove<health>, 0);
TESSERA_BENCH("structural/add_remove_tag", add_remove<tag>, 0);

} // namespace
