// A translation unit shaped like the world update of a small game, for compile-time measurements
// (bench/compile/measure): 30 component types of mixed layouts (plain floats, identifiers, strings, vectors, tags),
// twelve systems (views of one to four types, excludes, a non-owning group, range-for over each()), construction and
// destruction listeners, a sink on a signal, and a snapshot saved and loaded through an archive written here. Written
// against the documented API only, so the same file compiles against any library that implements it.
#include <tessera/tessera.hpp>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace world {

struct transform {
    float x, y, angle;
};
struct motion {
    float dx, dy, spin;
};
struct bounds {
    float radius;
};
struct mass {
    float kilograms;
};
struct friction {
    float coefficient;
};
struct hit_points {
    std::int32_t current, maximum;
};
struct armor_class {
    std::int32_t value;
};
struct attack {
    std::int32_t damage, cooldown;
};
struct aim {
    tessera::entity target;
};
struct leader {
    tessera::entity of;
};
struct squad {
    std::vector<tessera::entity> members;
};
struct label {
    std::string text;
};
struct faction {
    std::uint8_t id;
};
struct inventory {
    std::vector<std::uint32_t> items;
};
struct gold {
    std::uint32_t coins;
};
struct experience {
    std::uint32_t points, level;
};
struct sprite_ref {
    std::uint32_t atlas, frame;
};
struct tint {
    std::uint8_t r, g, b, a;
};
struct animation_state {
    std::uint16_t clip, frame, frames;
};
struct sound_emitter {
    std::uint32_t bank, cue;
};
struct lifetime {
    float seconds;
};
struct spawn_point {
    float x, y;
};
struct waypoint_path {
    std::vector<float> points;
};
struct ai_state {
    std::uint8_t mode, timer;
};
struct perception {
    float range, angle;
};
struct poisoned {
    float per_second;
};
struct player_controlled {};
struct sleeping {};
struct destroyed {};
struct selected {};

/// What the listeners saw.
struct journal {
    std::uint32_t spawned{};
    std::uint32_t destroyed{};
    std::uint32_t damaged{};

    void on_spawn(tessera::registry &, tessera::entity) { ++spawned; }
    void on_gone(tessera::registry &, tessera::entity) { ++destroyed; }
    void on_damage(const std::int32_t amount) { damaged += static_cast<std::uint32_t>(amount); }
};

/// An archive that keeps everything as 32-bit words in a vector.
struct word_archive {
    std::vector<std::uint32_t> words{};
    std::size_t next{};

    void operator()(const std::underlying_type_t<tessera::entity> &value) { words.push_back(value); }
    void operator()(const tessera::entity &value) { words.push_back(static_cast<std::uint32_t>(value)); }
    void operator()(const transform &value) {
        words.push_back(static_cast<std::uint32_t>(value.x));
        words.push_back(static_cast<std::uint32_t>(value.y));
    }
    void operator()(const hit_points &value) {
        words.push_back(static_cast<std::uint32_t>(value.current));
        words.push_back(static_cast<std::uint32_t>(value.maximum));
    }
    void operator()(const gold &value) { words.push_back(value.coins); }

    void operator()(std::underlying_type_t<tessera::entity> &value) { value = words[next++]; }
    void operator()(tessera::entity &value) { value = tessera::entity{words[next++]}; }
    void operator()(transform &value) {
        value.x = static_cast<float>(words[next++]);
        value.y = static_cast<float>(words[next++]);
    }
    void operator()(hit_points &value) {
        value.current = static_cast<std::int32_t>(words[next++]);
        value.maximum = static_cast<std::int32_t>(words[next++]);
    }
    void operator()(gold &value) { value.coins = words[next++]; }
};

void populate(tessera::registry &registry, const std::uint32_t count) {
    for (std::uint32_t index{}; index < count; ++index) {
        const auto entt = registry.create();
        registry.emplace<transform>(entt, static_cast<float>(index), 0.f, 0.f);
        registry.emplace<motion>(entt, 1.f, 0.5f, 0.1f);
        registry.emplace<bounds>(entt, 1.f);
        registry.emplace<hit_points>(entt, 100, 100);
        registry.emplace<faction>(entt, static_cast<std::uint8_t>(index % 3u));

        if (index % 2u == 0u) {
            registry.emplace<mass>(entt, 2.f);
            registry.emplace<friction>(entt, 0.9f);
            registry.emplace<attack>(entt, 5, 0);
            registry.emplace<sprite_ref>(entt, 1u, index);
        }

        if (index % 3u == 0u) {
            registry.emplace<armor_class>(entt, 3);
            registry.emplace<label>(entt, "unit");
            registry.emplace<inventory>(entt);
            registry.emplace<gold>(entt, index);
            registry.emplace<tint>(entt, std::uint8_t{255}, std::uint8_t{255}, std::uint8_t{255}, std::uint8_t{255});
        }

        if (index % 5u == 0u) {
            registry.emplace<experience>(entt, 0u, 1u);
            registry.emplace<animation_state>(entt, std::uint16_t{0}, std::uint16_t{0}, std::uint16_t{8});
            registry.emplace<sound_emitter>(entt, 2u, index);
            registry.emplace<perception>(entt, 10.f, 1.5f);
            registry.emplace<ai_state>(entt, std::uint8_t{0}, std::uint8_t{0});
            registry.emplace<waypoint_path>(entt);
            registry.emplace<spawn_point>(entt, 0.f, 0.f);
        }

        if (index % 7u == 0u) {
            registry.emplace<poisoned>(entt, 1.f);
            registry.emplace<lifetime>(entt, 30.f);
            registry.emplace<sleeping>(entt);
        }

        if (index == 0u) {
            registry.emplace<player_controlled>(entt);
            registry.emplace<selected>(entt);
            registry.emplace<squad>(entt);
        }
    }
}

void update(tessera::registry &registry, tessera::sigh<void(std::int32_t)> &damage) {
    // 1: integrate motion
    registry.view<transform, const motion>().each([](transform &where, const motion &how) {
        where.x += how.dx;
        where.y += how.dy;
        where.angle += how.spin;
    });

    // 2: friction slows the heavy ones
    registry.view<motion, const mass, const friction>().each([](motion &how, const mass &weight, const friction &f) {
        how.dx *= f.coefficient / weight.kilograms;
        how.dy *= f.coefficient / weight.kilograms;
    });

    // 3: sleepers do not think
    registry.view<ai_state, const perception>(tessera::exclude<sleeping>)
        .each([](ai_state &state, const perception &sense) {
            state.timer = static_cast<std::uint8_t>(state.timer + (sense.range > 5.f ? 1 : 2));
        });

    // 4: attacks pick a target of another faction
    auto targets = registry.view<const transform, const faction>();
    for (auto [entt, hit, side] : registry.view<attack, const faction>().each()) {
        if (hit.cooldown > 0) {
            --hit.cooldown;
            continue;
        }

        for (const auto other : targets) {
            if (targets.get<const faction>(other).id != side.id) {
                registry.emplace_or_replace<aim>(entt, other);
                hit.cooldown = 3;
                break;
            }
        }
    }

    // 5: aimed attacks hurt
    for (auto [entt, target] : registry.view<const aim>().each()) {
        if (auto *const life = registry.try_get<hit_points>(target.target); life != nullptr) {
            life->current -= 1;
            damage.publish(1);
        }
    }

    // 6: poison, with armor
    registry.view<hit_points, const poisoned>().each(
        [&registry](const tessera::entity entt, hit_points &life, const poisoned &poison) {
            const auto *armor = registry.try_get<armor_class>(entt);
            life.current -= static_cast<std::int32_t>(poison.per_second) - (armor != nullptr ? armor->value / 3 : 0);
        });

    // 7: animations advance
    registry.view<animation_state, const sprite_ref>().each([](animation_state &state, const sprite_ref &) {
        state.frame = static_cast<std::uint16_t>((state.frame + 1) % state.frames);
    });

    // 8: lifetimes run out
    registry.view<lifetime>().each([](lifetime &left) { left.seconds -= 1.f / 60.f; });

    // 9: the dead are marked
    for (const auto entt : registry.view<const hit_points>(tessera::exclude<destroyed>)) {
        if (registry.get<hit_points>(entt).current <= 0) {
            registry.emplace<destroyed>(entt);
        }
    }

    // 10: experience for the living, through a group
    auto grown = registry.group(tessera::get<experience, const gold>);
    grown.each([](experience &xp, const gold &coins) {
        xp.points += coins.coins % 5u;
        xp.level = 1u + xp.points / 100u;
    });

    // 11: the player's squad follows
    for (auto [entt, team, where] : registry.view<squad, const transform, const player_controlled>().each()) {
        for (const auto member : team.members) {
            if (registry.valid(member)) {
                registry.replace<transform>(member, where);
            }
        }
    }

    // 12: the marked leave the world
    const auto gone = registry.view<const destroyed>();
    registry.destroy(gone.begin(), gone.end());
}

} // namespace world

int main() {
    tessera::registry registry;
    world::journal seen{};
    registry.on_construct<world::hit_points>().connect<&world::journal::on_spawn>(seen);
    registry.on_destroy<world::hit_points>().connect<&world::journal::on_gone>(seen);
    tessera::sigh<void(std::int32_t)> damage{};
    tessera::sink{damage}.connect<&world::journal::on_damage>(seen);

    world::populate(registry, 500u);

    for (int frame{}; frame < 30; ++frame) {
        world::update(registry, damage);
    }

    world::word_archive archive{};
    tessera::snapshot{registry}
        .get<tessera::entity>(archive)
        .get<world::transform>(archive)
        .get<world::hit_points>(archive)
        .get<world::gold>(archive);

    tessera::registry restored;
    tessera::snapshot_loader{restored}
        .get<tessera::entity>(archive)
        .get<world::transform>(archive)
        .get<world::hit_points>(archive)
        .get<world::gold>(archive)
        .orphans();

    std::printf("%u %u %u %zu\n", seen.spawned, seen.destroyed, seen.damaged, restored.storage<world::gold>().size());
    return restored.storage<world::transform>().size() == registry.storage<world::transform>().size() ? 0 : 1;
}
