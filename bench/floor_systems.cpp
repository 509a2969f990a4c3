// The floors of the systems scenarios: one plain array per component, indexed by entity, and for the mixed
// population one index list per system (the entities it applies to). No tessera header.
#include "common.hpp"
#include "model.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

using namespace bench::game;

template<bool Mixed, int Systems>
class floor_systems {
public:
    explicit floor_systems(const std::size_t count)
        : pos(count), vel(count), value(count), who(count), hp(count), dmg(count), spr(count), kinds(count) {
        for (std::size_t index{}; index < count; ++index) {
            const auto what = kind_of(index, Mixed);
            const auto entry = static_cast<std::uint32_t>(index);
            kinds[index] = what;
            pos[index] = initial_position(index);
            vel[index] = initial_velocity(index);
            value[index] = initial_data(index);
            who[index] = player{what.type};
            hp[index] = initial_health(index);
            dmg[index] = initial_damage(index);
            spr[index] = sprite{' '};

            if (what.has_velocity) {
                moving.push_back(entry);
            }

            if (what.has_data) {
                thinking.push_back(entry);
            }

            if (what.has_damage) {
                fighting.push_back(entry);
            }
        }
    }

    void step() {
        if constexpr (Systems == 1) {
            // the more-complex system alone
            for_each(thinking, [this](const std::size_t index) { more_complex(pos[index], vel[index], value[index]); });
            return;
        }

        for_each(moving, [this](const std::size_t index) { movement(pos[index], vel[index]); });
        for_each(thinking, [this](const std::size_t index) { update_data(value[index]); });

        if constexpr (Systems >= 3) {
            // every entity with data also has velocity
            for_each(thinking, [this](const std::size_t index) { more_complex(pos[index], vel[index], value[index]); });
        }

        if constexpr (Systems >= 7) {
            const auto count = pos.size();

            for (std::size_t index{}; index < count; ++index) {
                update_health(hp[index]);
            }

            for_each(fighting, [this](const std::size_t index) { apply_damage(hp[index], dmg[index]); });

            for (std::size_t index{}; index < count; ++index) {
                update_sprite(spr[index], who[index], hp[index]);
            }

            for (std::size_t index{}; index < count; ++index) {
                render(buffer, pos[index], spr[index]);
            }
        }
    }

    [[nodiscard]] std::uint64_t checksum() const {
        bench::checksum sum{};

        for (std::size_t index{}; index < pos.size(); ++index) {
            const auto what = kinds[index];
            add_entity(sum, index, pos[index], what.has_velocity ? &vel[index] : nullptr,
                       what.has_data ? &value[index] : nullptr, who[index], hp[index],
                       what.has_damage ? &dmg[index] : nullptr, spr[index]);
        }

        add_framebuffer(sum, buffer);
        return sum.value;
    }

private:
    // the plain population needs no index list: every system applies to every entity
    template<typename Func>
    void for_each(const std::vector<std::uint32_t> &list, Func func) {
        if constexpr (Mixed) {
            for (const auto index : list) {
                func(index);
            }
        } else {
            const auto count = pos.size();

            for (std::size_t index{}; index < count; ++index) {
                func(index);
            }
        }
    }

    std::vector<position> pos;
    std::vector<velocity> vel;
    std::vector<data> value;
    std::vector<player> who;
    std::vector<health> hp;
    std::vector<damage> dmg;
    std::vector<sprite> spr;
    std::vector<kind> kinds;
    std::vector<std::uint32_t> moving{};
    std::vector<std::uint32_t> thinking{};
    std::vector<std::uint32_t> fighting{};
    framebuffer buffer{};
};

TESSERA_BENCH_FIXTURE("floor/systems/plain_2", floor_systems<false, 2>);
TESSERA_BENCH_FIXTURE("floor/systems/plain_3", floor_systems<false, 3>);
TESSERA_BENCH_FIXTURE("floor/systems/plain_7", floor_systems<false, 7>);
TESSERA_BENCH_FIXTURE("floor/systems/mixed_2", floor_systems<true, 2>);
TESSERA_BENCH_FIXTURE("floor/systems/mixed_3", floor_systems<true, 3>);
TESSERA_BENCH_FIXTURE("floor/systems/mixed_7", floor_systems<true, 7>);
TESSERA_BENCH_FIXTURE("floor/systems/mixed_7_groups", floor_systems<true, 7>);
TESSERA_BENCH_FIXTURE("floor/systems/mixed_non_owning_3", floor_systems<true, 1>);

} // namespace
