// Structural changes: remove-then-add and add-then-remove of a component, and of an empty tag; remove-then-add of
// a component a group watches (the group bookkeeping: full- and partial-owning groups move the entity out of and
// back into their block, a non-owning group erases it from and adds it to its set). One item is one entity's
// remove plus add.
#include "ecs.hpp"

#include <tessera/entity/group.hpp>

#include <cstddef>
#include <vector>

namespace {

using bench::position;
using bench::velocity;

enum class watched { none, full_owning, partial_owning, non_owning };

struct tag {};

template<watched By>
void remove_add(benchmark::State &state) {
    tessera::registry registry{};

    if constexpr (By == watched::full_owning) {
        static_cast<void>(registry.group<position, velocity>());
    } else if constexpr (By == watched::partial_owning) {
        static_cast<void>(registry.group<velocity>(tessera::get<position>));
    } else if constexpr (By == watched::non_owning) {
        static_cast<void>(registry.group<>(tessera::get<position, velocity>));
    }

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

TESSERA_BENCH("structural/remove_add", remove_add<watched::none>, 0);
TESSERA_BENCH("structural/remove_add_full_owning", remove_add<watched::full_owning>, 0);
TESSERA_BENCH("structural/remove_add_partial_owning", remove_add<watched::partial_owning>, 0);
TESSERA_BENCH("structural/remove_add_non_owning", remove_add<watched::non_owning>, 0);
TESSERA_BENCH("structural/add_remove", add_remove<health>, 0);
TESSERA_BENCH("structural/add_remove_tag", add_remove<tag>, 0);

} // namespace
