// Iteration scenarios: single-, two- and three-type views (each(callback), range-for over each(), and range-for
// over the view's entities with get), a view with exclude, a runtime view, and full-, partial- and non-owning
// groups (each(callback), range-for over each() and over the entities); then a two-type view and the partial- and
// non-owning groups over a population where only a quarter of the entities have both. Floors: floor_iteration.cpp.
#include "common.hpp"
#include "model.hpp"

#include <tessera/entity/group.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/runtime_view.hpp>
#include <tessera/entity/view.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

using bench::frozen;
using bench::mass;
using bench::position;
using bench::velocity;

enum class kind {
    view_1_callback,
    view_1_each,
    view_1_range,
    view_2_callback,
    view_2_each,
    view_2_range,
    view_3_callback,
    view_3_each,
    view_3_range,
    view_2_exclude,
    runtime_view_2,
    group_full_2,
    group_full_2_each,
    group_full_2_range,
    group_full_3,
    group_full_3_each,
    group_full_3_range,
    group_partial_2,
    group_partial_2_each,
    group_partial_2_range,
    group_non_owning_2,
    group_non_owning_2_each,
    group_non_owning_2_range,
    view_2_half,
    group_partial_2_half,
    group_non_owning_2_half
};

// Scenarios over a full-owning group of position and velocity, or of position, velocity and mass.
constexpr bool full_owning_2(const kind value) {
    return value == kind::group_full_2 || value == kind::group_full_2_each || value == kind::group_full_2_range;
}

constexpr bool full_owning_3(const kind value) {
    return value == kind::group_full_3 || value == kind::group_full_3_each || value == kind::group_full_3_range;
}

// Scenarios over a group that owns position and gets velocity.
constexpr bool partial_owning(const kind value) {
    return value == kind::group_partial_2 || value == kind::group_partial_2_each ||
           value == kind::group_partial_2_range || value == kind::group_partial_2_half;
}

// Scenarios over a non-owning group of position and velocity.
constexpr bool non_owning(const kind value) {
    return value == kind::group_non_owning_2 || value == kind::group_non_owning_2_each ||
           value == kind::group_non_owning_2_range || value == kind::group_non_owning_2_half;
}

// Scenarios whose population gives a velocity to every other entity only.
constexpr bool half_population(const kind value) {
    return value == kind::view_2_half || value == kind::group_partial_2_half || value == kind::group_non_owning_2_half;
}

template<kind Kind>
class iteration {
public:
    explicit iteration(const std::size_t count) : entities(count) {
        // groups exist before the entities, as in a game that declares them at start-up
        if constexpr (full_owning_2(Kind)) {
            static_cast<void>(registry.group<position, velocity>());
        } else if constexpr (full_owning_3(Kind)) {
            static_cast<void>(registry.group<position, velocity, mass>());
        } else if constexpr (partial_owning(Kind)) {
            static_cast<void>(registry.group<position>(tessera::get<velocity>));
        } else if constexpr (non_owning(Kind)) {
            static_cast<void>(registry.group<>(tessera::get<position, velocity>));
        }

        for (std::size_t index{}; index < count; ++index) {
            const auto entt = registry.create();
            entities[index] = entt;
            if (!half_population(Kind) || bench::has_position_in_half(index)) {
                registry.emplace<position>(entt, bench::initial_position(index));
            }

            if (!half_population(Kind) || bench::has_velocity_in_half(index)) {
                registry.emplace<velocity>(entt, bench::initial_velocity(index));
            }

            registry.emplace<mass>(entt, bench::initial_mass(index));

            if (bench::is_frozen(index)) {
                registry.emplace<frozen>(entt);
            }
        }
    }

    void step() {
        if constexpr (Kind == kind::view_1_callback) {
            registry.view<position>().each([](position &pos) { bench::move_one(pos); });
        } else if constexpr (Kind == kind::view_1_each) {
            for (auto [entt, pos] : registry.view<position>().each()) {
                bench::move_one(pos);
            }
        } else if constexpr (Kind == kind::view_1_range) {
            const auto view = registry.view<position>();

            for (const auto entt : view) {
                bench::move_one(view.get<position>(entt));
            }
        } else if constexpr (Kind == kind::view_2_callback || Kind == kind::view_2_half) {
            registry.view<position, const velocity>().each(
                [](position &pos, const velocity &vel) { bench::move_two(pos, vel); });
        } else if constexpr (Kind == kind::view_2_each) {
            for (auto [entt, pos, vel] : registry.view<position, const velocity>().each()) {
                bench::move_two(pos, vel);
            }
        } else if constexpr (Kind == kind::view_2_range) {
            const auto view = registry.view<position, const velocity>();

            for (const auto entt : view) {
                auto [pos, vel] = view.get<position, const velocity>(entt);
                bench::move_two(pos, vel);
            }
        } else if constexpr (Kind == kind::view_3_callback) {
            registry.view<position, const velocity, const mass>().each(
                [](position &pos, const velocity &vel, const mass &mas) { bench::move_three(pos, vel, mas); });
        } else if constexpr (Kind == kind::view_3_each) {
            for (auto [entt, pos, vel, mas] : registry.view<position, const velocity, const mass>().each()) {
                bench::move_three(pos, vel, mas);
            }
        } else if constexpr (Kind == kind::view_3_range) {
            const auto view = registry.view<position, const velocity, const mass>();

            for (const auto entt : view) {
                auto [pos, vel, mas] = view.get<position, const velocity, const mass>(entt);
                bench::move_three(pos, vel, mas);
            }
        } else if constexpr (Kind == kind::view_2_exclude) {
            registry.view<position, const velocity>(tessera::exclude<frozen>)
                .each([](position &pos, const velocity &vel) { bench::move_two(pos, vel); });
        } else if constexpr (Kind == kind::runtime_view_2) {
            auto &positions = registry.storage<position>();
            auto &velocities = registry.storage<velocity>();
            tessera::runtime_view view{};
            view.iterate(positions).iterate(velocities);
            view.each([&](const tessera::entity entt) { bench::move_two(positions.get(entt), velocities.get(entt)); });
        } else if constexpr (Kind == kind::group_full_2) {
            registry.group<position, velocity>().each(
                [](position &pos, const velocity &vel) { bench::move_two(pos, vel); });
        } else if constexpr (Kind == kind::group_full_2_each) {
            for (auto [entt, pos, vel] : registry.group<position, velocity>().each()) {
                bench::move_two(pos, vel);
            }
        } else if constexpr (Kind == kind::group_full_2_range) {
            const auto group = registry.group<position, velocity>();

            for (const auto entt : group) {
                auto [pos, vel] = group.get<position, velocity>(entt);
                bench::move_two(pos, vel);
            }
        } else if constexpr (Kind == kind::group_full_3) {
            registry.group<position, velocity, mass>().each(
                [](position &pos, const velocity &vel, const mass &mas) { bench::move_three(pos, vel, mas); });
        } else if constexpr (Kind == kind::group_full_3_each) {
            for (auto [entt, pos, vel, mas] : registry.group<position, velocity, mass>().each()) {
                bench::move_three(pos, vel, mas);
            }
        } else if constexpr (Kind == kind::group_full_3_range) {
            const auto group = registry.group<position, velocity, mass>();

            for (const auto entt : group) {
                auto [pos, vel, mas] = group.get<position, velocity, mass>(entt);
                bench::move_three(pos, vel, mas);
            }
        } else if constexpr (Kind == kind::group_partial_2_each) {
            for (auto [entt, pos, vel] : registry.group<position>(tessera::get<velocity>).each()) {
                bench::move_two(pos, vel);
            }
        } else if constexpr (Kind == kind::group_partial_2_range) {
            const auto group = registry.group<position>(tessera::get<velocity>);

            for (const auto entt : group) {
                auto [pos, vel] = group.template get<position, velocity>(entt);
                bench::move_two(pos, vel);
            }
        } else if constexpr (Kind == kind::group_non_owning_2_each) {
            for (auto [entt, pos, vel] : registry.group<>(tessera::get<position, velocity>).each()) {
                bench::move_two(pos, vel);
            }
        } else if constexpr (Kind == kind::group_non_owning_2_range) {
            const auto group = registry.group<>(tessera::get<position, velocity>);

            for (const auto entt : group) {
                auto [pos, vel] = group.template get<position, velocity>(entt);
                bench::move_two(pos, vel);
            }
        } else if constexpr (Kind == kind::group_partial_2 || Kind == kind::group_partial_2_half) {
            registry.group<position>(tessera::get<velocity>).each([](position &pos, const velocity &vel) {
                bench::move_two(pos, vel);
            });
        } else {
            registry.group<>(tessera::get<position, velocity>).each([](position &pos, const velocity &vel) {
                bench::move_two(pos, vel);
            });
        }
    }

    [[nodiscard]] std::uint64_t checksum() const {
        bench::checksum sum{};

        for (std::size_t index{}; index < entities.size(); ++index) {
            if (half_population(Kind) && !bench::has_position_in_half(index)) {
                continue;
            }

            const auto &pos = registry.get<position>(entities[index]);
            sum.add(index, pos.x, pos.y);
        }

        return sum.value;
    }

private:
    tessera::registry registry{};
    std::vector<tessera::entity> entities;
};

TESSERA_BENCH_FIXTURE("iteration/view_1_callback", iteration<kind::view_1_callback>);
TESSERA_BENCH_FIXTURE("iteration/view_1_each", iteration<kind::view_1_each>);
TESSERA_BENCH_FIXTURE("iteration/view_1_range", iteration<kind::view_1_range>);
TESSERA_BENCH_FIXTURE("iteration/view_2_callback", iteration<kind::view_2_callback>);
TESSERA_BENCH_FIXTURE("iteration/view_2_each", iteration<kind::view_2_each>);
TESSERA_BENCH_FIXTURE("iteration/view_2_range", iteration<kind::view_2_range>);
TESSERA_BENCH_FIXTURE("iteration/view_3_callback", iteration<kind::view_3_callback>);
TESSERA_BENCH_FIXTURE("iteration/view_3_each", iteration<kind::view_3_each>);
TESSERA_BENCH_FIXTURE("iteration/view_3_range", iteration<kind::view_3_range>);
TESSERA_BENCH_FIXTURE("iteration/view_2_exclude", iteration<kind::view_2_exclude>);
TESSERA_BENCH_FIXTURE("iteration/runtime_view_2", iteration<kind::runtime_view_2>);
TESSERA_BENCH_FIXTURE("iteration/group_full_2", iteration<kind::group_full_2>);
TESSERA_BENCH_FIXTURE("iteration/group_full_2_each", iteration<kind::group_full_2_each>);
TESSERA_BENCH_FIXTURE("iteration/group_full_2_range", iteration<kind::group_full_2_range>);
TESSERA_BENCH_FIXTURE("iteration/group_full_3", iteration<kind::group_full_3>);
TESSERA_BENCH_FIXTURE("iteration/group_full_3_each", iteration<kind::group_full_3_each>);
TESSERA_BENCH_FIXTURE("iteration/group_full_3_range", iteration<kind::group_full_3_range>);
TESSERA_BENCH_FIXTURE("iteration/group_partial_2", iteration<kind::group_partial_2>);
TESSERA_BENCH_FIXTURE("iteration/group_partial_2_each", iteration<kind::group_partial_2_each>);
TESSERA_BENCH_FIXTURE("iteration/group_partial_2_range", iteration<kind::group_partial_2_range>);
TESSERA_BENCH_FIXTURE("iteration/group_non_owning_2", iteration<kind::group_non_owning_2>);
TESSERA_BENCH_FIXTURE("iteration/group_non_owning_2_each", iteration<kind::group_non_owning_2_each>);
TESSERA_BENCH_FIXTURE("iteration/group_non_owning_2_range", iteration<kind::group_non_owning_2_range>);
TESSERA_BENCH_FIXTURE("iteration/view_2_half", iteration<kind::view_2_half>);
TESSERA_BENCH_FIXTURE("iteration/group_partial_2_half", iteration<kind::group_partial_2_half>);
TESSERA_BENCH_FIXTURE("iteration/group_non_owning_2_half", iteration<kind::group_non_owning_2_half>);

} // namespace
