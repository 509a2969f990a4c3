// The "systems" workloads of the public ecs_benchmark suite: 2, 3 and 7 systems (movement, data, more-complex,
// health, damage, sprite, render to a framebuffer) on a plain and a mixed hero/monster/NPC population, and the
// 7 systems on the mixed population with groups; then the more-complex system alone through a non-owning group of
// three types on the mixed population, where no pool holds every entity. Floors: floor_systems.cpp.
#include "common.hpp"
#include "game_systems.hpp"
#include "model.hpp"

#include <tessera/entity/group.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/view.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

using namespace bench::game;

// How the systems reach their components.
enum class through { views, groups, non_owning_group };

template<bool Mixed, int Systems, through By>
class systems {
    static constexpr bool Groups = By == through::groups;

public:
    explicit systems(const std::size_t count) : entities(count) {
        if constexpr (By == through::non_owning_group) {
            static_cast<void>(registry.group<>(tessera::get<position, velocity, data>));
        } else if constexpr (Groups) {
            make_groups(registry);
        }

        populate(registry, count, Mixed,
                 [this](const std::size_t index, const tessera::entity entt) { entities[index] = entt; });
    }

    void step() {
        if constexpr (By == through::non_owning_group) {
            static_assert(Systems == 1, "systems: the non-owning group runs the more-complex system only");
            registry.group<>(tessera::get<position, velocity, data>)
                .each([](const position &pos, velocity &vel, const data &value) { more_complex(pos, vel, value); });
        } else {
            frame<Systems, Groups>(
                registry, [](const auto &view, auto func) { view.each(func); },
                [this](const auto &view) {
                    view.each([this](const position &pos, const sprite &spr) { render(buffer, pos, spr); });
                });
        }
    }

    [[nodiscard]] std::uint64_t checksum() const { return checksum_of(registry, entities, buffer); }

private:
    tessera::registry registry{};
    std::vector<tessera::entity> entities;
    framebuffer buffer{};
};

TESSERA_BENCH_FIXTURE("systems/plain_2", systems<false, 2, through::views>);
TESSERA_BENCH_FIXTURE("systems/plain_3", systems<false, 3, through::views>);
TESSERA_BENCH_FIXTURE("systems/plain_7", systems<false, 7, through::views>);
TESSERA_BENCH_FIXTURE("systems/mixed_2", systems<true, 2, through::views>);
TESSERA_BENCH_FIXTURE("systems/mixed_3", systems<true, 3, through::views>);
TESSERA_BENCH_FIXTURE("systems/mixed_7", systems<true, 7, through::views>);
TESSERA_BENCH_FIXTURE("systems/mixed_7_groups", systems<true, 7, through::groups>);
TESSERA_BENCH_FIXTURE("systems/mixed_non_owning_3", systems<true, 1, through::non_owning_group>);

} // namespace
