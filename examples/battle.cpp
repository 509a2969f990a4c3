// battle: two armies of a few hundred thousand units fight for a fixed number of frames. Units pick targets,
// steer, move and fire projectiles; projectiles fly, hit and disappear every frame; dead units are destroyed and
// reinforcements reuse their identifiers. The systems are scheduled through tessera's organizer, which derives
// their order from the components and context variables each one reads or writes. Spawns and deaths are recorded
// into a command buffer while the systems iterate, and applied when each system is done.
//
// Usage: battle [--entities N] [--frames F] [--seed S] [--quiet]
// The run is deterministic for a given seed: the summary line is the same on every run.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <tessera/entity/command_buffer.hpp>
#include <tessera/entity/organizer.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/view.hpp>

namespace {

// ---------------------------------------------------------------------------------------------------------------
// components

struct position {
    float x, y;
};

struct velocity {
    float dx, dy;
};

struct health {
    int current;
};

struct weapon {
    int damage;
    float reload;   // seconds between shots
    float cooldown; // seconds until the next shot
};

struct team {
    std::uint8_t id;
};

struct target {
    tessera::entity who;
};

struct projectile {
    tessera::entity victim;
    int damage;
    float ttl;
};

// ---------------------------------------------------------------------------------------------------------------
// context variables

struct settings {
    float dt = 1.f / 30.f;
    float arena = 200.f;
    float unit_speed = 30.f;
    float projectile_speed = 120.f;
    float range = 50.f;
    int unit_health = 20;
};

/// splitmix64: small, fast and the same everywhere, so runs are reproducible.
struct random_source {
    std::uint64_t state = 0;

    std::uint64_t next() {
        std::uint64_t value = (state += 0x9E3779B97F4A7C15ull);
        value = (value ^ (value >> 30u)) * 0xBF58476D1CE4E5B9ull;
        value = (value ^ (value >> 27u)) * 0x94D049BB133111EBull;
        return value ^ (value >> 31u);
    }

    float uniform(const float low, const float high) {
        return low + (high - low) * static_cast<float>(next() >> 40u) / static_cast<float>(1u << 24u);
    }

    std::size_t below(const std::size_t bound) { return static_cast<std::size_t>(next() % bound); }
};

/// The live units of each team, rebuilt every frame: targets are drawn from it.
struct roster {
    std::vector<tessera::entity> units[2];
};

struct statistics {
    std::uint64_t shots = 0;
    std::uint64_t hits = 0;
    std::uint64_t deaths = 0;
    std::uint64_t spawned = 0;
    std::uint64_t recycled = 0;
};

/// The structural changes the systems record while they iterate: a command buffer reused every frame, and the
/// provisional identifiers of what it creates, to count those that reuse a released index once applied.
struct deferred {
    tessera::command_buffer commands;
    std::vector<tessera::entity> created;

    tessera::entity create() {
        const auto entity = commands.create();
        created.push_back(entity);
        return entity;
    }

    void apply(tessera::registry &registry, statistics &stats) {
        commands.apply(registry);

        for (const auto entity : created) {
            stats.recycled += (tessera::to_version(commands.resolve(entity)) != 0u);
        }

        created.clear();
    }
};

// ---------------------------------------------------------------------------------------------------------------
// helpers

void spawn_unit(deferred &changes, const std::uint8_t side, random_source &random, const settings &config,
                statistics &stats) {
    auto &commands = changes.commands;
    const auto entity = changes.create();
    // the armies face each other across the middle of the arena
    const float half = config.arena * 0.5f;
    const float base = side == 0 ? -half * 0.5f : half * 0.5f;
    commands.emplace<position>(entity, base + random.uniform(-half * 0.3f, half * 0.3f), random.uniform(-half, half));
    commands.emplace<velocity>(entity, 0.f, 0.f);
    commands.emplace<health>(entity, config.unit_health);
    commands.emplace<weapon>(entity, 1 + static_cast<int>(random.below(4u)), random.uniform(0.5f, 1.5f),
                             random.uniform(0.f, 1.f));
    commands.emplace<team>(entity, side);
    commands.emplace<target>(entity, tessera::entity{tessera::null});
    ++stats.spawned;
}

// ---------------------------------------------------------------------------------------------------------------
// systems: their parameters tell the organizer what they read (const) and write

void build_roster(tessera::view<tessera::get_t<const team>> units, roster &out) {
    out.units[0].clear();
    out.units[1].clear();
    units.each([&out](const tessera::entity entity, const team &side) { out.units[side.id].push_back(entity); });
}

void acquire_targets(const tessera::registry &registry, tessera::view<tessera::get_t<target, const team>> units,
                     const roster &live, random_source &random) {
    units.each([&](target &aim, const team &side) {
        const auto &enemies = live.units[1u - side.id];

        if (!registry.valid(aim.who) && !enemies.empty()) {
            aim.who = enemies[random.below(enemies.size())];
        }
    });
}

void steer(const tessera::registry &registry,
           tessera::view<tessera::get_t<velocity, const position, const target>> units, const settings &config) {
    // positions of other entities are read through the pool: one lookup per target instead of a registry query
    const auto &positions = *units.storage<const position>();

    units.each([&](velocity &vel, const position &pos, const target &aim) {
        if (!registry.valid(aim.who)) {
            vel = {0.f, 0.f};
            return;
        }

        const auto &goal = positions.get(aim.who);
        const float dx = goal.x - pos.x;
        const float dy = goal.y - pos.y;
        const float distance = std::sqrt(dx * dx + dy * dy);
        // units stop at firing range
        const float speed = distance > config.range * 0.8f ? config.unit_speed / distance : 0.f;
        vel = {dx * speed, dy * speed};
    });
}

void movement(tessera::view<tessera::get_t<position, const velocity>> moving, const settings &config) {
    moving.each([dt = config.dt](position &pos, const velocity &vel) {
        pos.x += vel.dx * dt;
        pos.y += vel.dy * dt;
    });
}

// records a projectile: created after the loop that fires it, so the pools being iterated are not disturbed
void launch(deferred &changes, statistics &stats, const position &from, const tessera::entity victim,
            const int damage) {
    auto &commands = changes.commands;
    const auto entity = changes.create();
    commands.emplace<position>(entity, from);
    // resolve_projectiles steers it toward its victim
    commands.emplace<velocity>(entity, 0.f, 0.f);
    commands.emplace<projectile>(entity, victim, damage, 2.f);
    ++stats.shots;
}

void fire(tessera::registry &registry, const settings &config, statistics &stats, deferred &changes) {
    registry.view<weapon, const position, const target>().each(
        [&](weapon &gun, const position &pos, const target &aim) {
            gun.cooldown -= config.dt;

            if (gun.cooldown <= 0.f && registry.valid(aim.who)) {
                const auto &goal = registry.get<position>(aim.who);
                const float dx = goal.x - pos.x;
                const float dy = goal.y - pos.y;

                if (dx * dx + dy * dy < config.range * config.range) {
                    gun.cooldown += gun.reload;
                    launch(changes, stats, pos, aim.who, gun.damage);
                }
            }
        });

    changes.apply(registry, stats);
}

void resolve_projectiles(tessera::registry &registry, const settings &config, statistics &stats, deferred &changes) {
    auto &commands = changes.commands;

    registry.view<projectile, velocity, const position>().each(
        [&](const tessera::entity entity, projectile &shot, velocity &vel, const position &pos) {
            shot.ttl -= config.dt;

            if (!registry.valid(shot.victim)) {
                commands.destroy(entity);
                return;
            }

            const auto &goal = registry.get<position>(shot.victim);
            const float dx = goal.x - pos.x;
            const float dy = goal.y - pos.y;
            const float distance = std::sqrt(dx * dx + dy * dy);

            if (distance < config.projectile_speed * config.dt) {
                registry.get<health>(shot.victim).current -= shot.damage;
                ++stats.hits;
                commands.destroy(entity);
            } else if (shot.ttl <= 0.f) {
                commands.destroy(entity);
            } else {
                vel = {dx / distance * config.projectile_speed, dy / distance * config.projectile_speed};
            }
        });

    changes.apply(registry, stats);
}

void reap_and_reinforce(tessera::registry &registry, random_source &random, const settings &config, statistics &stats,
                        deferred &changes) {
    registry.view<const health, const team>().each(
        [&](const tessera::entity entity, const health &hp, const team &side) {
            if (hp.current <= 0) {
                changes.commands.destroy(entity);
                ++stats.deaths;

                // half of the fallen come back as reinforcements, under recycled identifiers
                if (random.below(2u) == 0u) {
                    spawn_unit(changes, side.id, random, config, stats);
                }
            }
        });

    changes.apply(registry, stats);
}

// ---------------------------------------------------------------------------------------------------------------

struct options {
    std::size_t entities = 250000;
    int frames = 120;
    std::uint64_t seed = 42;
    bool quiet = false;
};

bool parse(const int argc, char **argv, options &out) {
    for (int pos = 1; pos < argc; ++pos) {
        const std::string arg = argv[pos];
        const bool has_value = pos + 1 < argc;

        if (arg == "--entities" && has_value) {
            out.entities = std::strtoull(argv[++pos], nullptr, 10);
        } else if (arg == "--frames" && has_value) {
            out.frames = std::atoi(argv[++pos]);
        } else if (arg == "--seed" && has_value) {
            out.seed = std::strtoull(argv[++pos], nullptr, 10);
        } else if (arg == "--quiet") {
            out.quiet = true;
        } else {
            std::fprintf(stderr, "usage: battle [--entities N] [--frames F] [--seed S] [--quiet]\n");
            return false;
        }
    }

    return out.entities > 0u && out.entities < 1000000u && out.frames >= 0;
}

} // namespace

int main(int argc, char **argv) {
    options opts{};

    if (!parse(argc, argv, opts)) {
        return 2;
    }

    tessera::registry registry;
    auto &config = registry.ctx().emplace<settings>();
    auto &random = registry.ctx().emplace<random_source>(random_source{opts.seed});
    auto &stats = registry.ctx().emplace<statistics>();
    registry.ctx().emplace<roster>();
    auto &changes = registry.ctx().emplace<deferred>();

    for (std::size_t count{}; count < opts.entities; ++count) {
        spawn_unit(changes, static_cast<std::uint8_t>(count % 2u), random, config, stats);
    }

    changes.apply(registry, stats);

    tessera::organizer organizer;
    organizer.emplace<&build_roster>("roster");
    organizer.emplace<&acquire_targets>("targets");
    organizer.emplace<&steer>("steer");
    organizer.emplace<&movement>("movement");
    organizer.emplace<&fire>("fire");
    organizer.emplace<&resolve_projectiles>("projectiles");
    organizer.emplace<&reap_and_reinforce>("reap");
    const auto graph = organizer.graph();

    std::printf("battle: %zu units, %d frames, seed %llu\n", opts.entities, opts.frames,
                static_cast<unsigned long long>(opts.seed));
    std::printf("schedule (task -> tasks that wait for it):\n");

    for (std::size_t pos{}; pos < graph.size(); ++pos) {
        std::printf("  %-12s ->", graph[pos].name());

        for (auto child : graph[pos].children()) {
            std::printf(" %s", graph[child].name());
        }

        std::printf("%s\n", graph[pos].top_level() ? "   (top level)" : "");
        graph[pos].prepare(registry);
    }

    std::vector<double> total_ms(graph.size(), 0.);
    const auto start = std::chrono::steady_clock::now();

    for (int frame = 1; frame <= opts.frames; ++frame) {
        std::vector<double> frame_ms(graph.size(), 0.);

        // the graph's edges always point forward, so insertion order is a valid order to run it sequentially
        for (std::size_t pos{}; pos < graph.size(); ++pos) {
            const auto before = std::chrono::steady_clock::now();
            graph[pos].callback()(graph[pos].data(), registry);
            frame_ms[pos] =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - before).count();
            total_ms[pos] += frame_ms[pos];
        }

        if (!opts.quiet) {
            const auto &entities = registry.storage<tessera::entity>();
            std::printf("frame %3d | live %7zu | projectiles %6zu | recycled %7llu |", frame, entities.free_list(),
                        registry.storage<projectile>().size(), static_cast<unsigned long long>(stats.recycled));

            for (std::size_t pos{}; pos < graph.size(); ++pos) {
                std::printf(" %s %.2fms", graph[pos].name(), frame_ms[pos]);
            }

            std::printf("\n");
        }
    }

    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::size_t alive[2]{};
    long long total_health = 0;

    registry.view<const health, const team>().each([&](const health &hp, const team &side) {
        ++alive[side.id];
        total_health += hp.current;
    });

    std::printf("time per system over the run:");

    for (std::size_t pos{}; pos < graph.size(); ++pos) {
        std::printf(" %s %.1fms", graph[pos].name(), total_ms[pos]);
    }

    std::printf("\nsimulated %d frames in %.2fs\n", opts.frames, seconds);
    std::printf("summary: red %zu blue %zu health %lld shots %llu hits %llu deaths %llu spawned %llu recycled %llu\n",
                alive[0], alive[1], total_health, static_cast<unsigned long long>(stats.shots),
                static_cast<unsigned long long>(stats.hits), static_cast<unsigned long long>(stats.deaths),
                static_cast<unsigned long long>(stats.spawned), static_cast<unsigned long long>(stats.recycled));
    return 0;
}
