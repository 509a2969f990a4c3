// The battle of examples/battle.cpp, shared with its benchmark (bench/parallel.cpp): the components, the systems,
// a world with its two armies, one frame and the summary line. Two armies of a few hundred thousand units fight:
// units pick targets, steer, move and fire projectiles; projectiles fly, hit and disappear every frame; a unit hit
// is stunned: its weapon is disabled (docs/enable_disable.md) for its next fire step; dead units are destroyed and
// reinforcements reuse their identifiers. The organizer derives the systems' order from the
// components and context variables each one reads or writes.
//
// Threaded, the executor of the parallel module (tessera/execution, on oneTBB) runs the systems, and the per-unit
// work is split into the chunks of a view (view.chunks(size)), which oneTBB hands to its threads. A chunk covers a
// fixed run of positions that depends on the chunk size only, so whatever a chunk records (spawns and deaths in its
// own command buffer, the units that need a random draw) is the same for every thread count; the system applies the
// chunks' records one chunk after the other, in the order a sequential each(func) visits them. The random source is
// drawn there, on one thread, in the order a sequential each(func) would draw it. Damage is subtracted from health
// during the pass, atomically: subtractions give the same total in any order. The summary line is the same for
// every thread count and for the sequential code.
//
// What runs on one thread between passes is what limits the speedup. The chunks' command buffers are applied with
// execution::apply: one thread walks the commands (creates, releases, which entities are still valid), then each
// pool plays its own commands on oneTBB's threads. The systems keep both walks short by recording one run of
// commands per kind and chunk (all the creates of a chunk, then all the positions...), played in one loop per run.
//
// Sequential (simulation{..., false}, or any build without oneTBB, where TESSERA_BATTLE_SEQUENTIAL is defined), the
// same chunks are walked one after the other on the calling thread and the systems run in the organizer's insertion
// order: the code a benchmark compares the threaded runs with.
#ifndef TESSERA_EXAMPLES_BATTLE_WORLD_HPP
#define TESSERA_EXAMPLES_BATTLE_WORLD_HPP

#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <tessera/entity/chunk.hpp>
#include <tessera/entity/command_buffer.hpp>
#include <tessera/entity/organizer.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/view.hpp>

#ifndef TESSERA_BATTLE_SEQUENTIAL
#    include <tbb/blocked_range.h>
#    include <tbb/parallel_for.h>
#    include <tessera/execution/apply.hpp>
#    include <tessera/execution/executor.hpp>
#    include <tessera/execution/parallel_each.hpp>
#endif

namespace battle {

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
    /// false: the systems walk their chunks on the calling thread, one after the other (always so without oneTBB)
    bool threaded = false;
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
        count_recycled(stats);
    }

    /// After the buffer applied: counts the created entities that reuse a released index.
    void count_recycled(statistics &stats) {
        for (const auto entity : created) {
            stats.recycled += (tessera::to_version(commands.resolve(entity)) != 0u);
        }

        created.clear();
    }
};

// ---------------------------------------------------------------------------------------------------------------
// how the systems split their work

/// Positions of a view's leading storage per chunk: fixed, so that what each chunk records never depends on the
/// thread count. parallel_each's default: a chunk's bookkeeping (a command buffer, a few vectors) is small next to
/// its work, and 250,000 units give 62 chunks to balance between threads.
constexpr std::size_t chunk_size = 4096u;

/// What each chunk of one system's pass records, slot i for chunk i. A context variable per system (the Slot
/// type differs), so that the organizer sees no shared resource between systems that do not share one otherwise.
template<typename Slot>
struct chunk_slots {
    chunk_slots() = default;
    // a vector claims to be copyable even when its elements (command buffers) are not; the context must not try
    chunk_slots(const chunk_slots &) = delete;
    chunk_slots(chunk_slots &&) noexcept = default;
    chunk_slots &operator=(const chunk_slots &) = delete;
    chunk_slots &operator=(chunk_slots &&) noexcept = default;
    ~chunk_slots() = default;

    std::vector<Slot> slots;
};

/// Runs work(chunk, slot) for every chunk of the view, on oneTBB's threads, and returns the number of chunks.
template<typename View, typename Slot, typename Work>
std::size_t for_each_chunk([[maybe_unused]] const settings &config, const View &view, chunk_slots<Slot> &records,
                           Work work) {
    const auto chunks = view.chunks(chunk_size);
    const std::size_t count = chunks.size();

    // slots are kept from frame to frame (with their buffers' memory): the pass allocates only when it grows
    if (records.slots.size() < count) {
        records.slots.resize(count);
    }

#ifndef TESSERA_BATTLE_SEQUENTIAL
    if (config.threaded) {
        tbb::parallel_for(tbb::blocked_range<std::size_t>{0u, count, 1u},
                          [&](const tbb::blocked_range<std::size_t> &part) {
                              for (auto pos = part.begin(); pos != part.end(); ++pos) {
                                  work(chunks[pos], records.slots[pos]);
                              }
                          });
        return count;
    }
#endif

    for (std::size_t pos{}; pos < count; ++pos) {
        work(chunks[pos], records.slots[pos]);
    }

    return count;
}

/// Calls func(slot) for the first `count` slots in the order a sequential each(func) visits their chunks: it
/// walks the leading storage from its last position to its first, so the last chunk comes first.
template<typename Slot, typename Func>
void in_walk_order(chunk_slots<Slot> &records, const std::size_t count, Func func) {
    for (std::size_t pos = count; pos != 0u; --pos) {
        func(records.slots[pos - 1u]);
    }
}

/// Applies what the first `count` slots recorded, in the order a sequential each(func) visits their chunks (see
/// in_walk_order). Threaded, with execution::apply: one thread walks the commands, then each pool plays its own
/// on oneTBB's threads, which ends as one buffer after the other.
template<typename Slot>
void apply_in_walk_order(tessera::registry &registry, [[maybe_unused]] const settings &config,
                         chunk_slots<Slot> &records, const std::size_t count, statistics &stats) {
#ifndef TESSERA_BATTLE_SEQUENTIAL
    if (config.threaded) {
        const auto first = std::make_reverse_iterator(records.slots.begin() + static_cast<std::ptrdiff_t>(count));
        tessera::execution::apply(registry, first, records.slots.rend(),
                                  [](Slot &slot) -> tessera::command_buffer & { return slot.changes.commands; });
    } else
#endif
    {
        in_walk_order(records, count, [&registry](Slot &slot) { slot.changes.commands.apply(registry); });
    }

    in_walk_order(records, count, [&stats](Slot &slot) { slot.changes.count_recycled(stats); });
}

/// Per-unit work with nothing to record: each(func) on oneTBB's threads.
template<typename View, typename Func>
void each_unit([[maybe_unused]] const settings &config, const View &view, Func func) {
#ifndef TESSERA_BATTLE_SEQUENTIAL
    if (config.threaded) {
        tessera::execution::parallel_each(view, chunk_size, func);
        return;
    }
#endif

    view.each(func);
}

/// Each system adds its running time to its own slot, not to a shared context variable: one that every system
/// wrote would make the organizer order them all one after another.
enum system_slot : std::size_t {
    roster_slot,
    targets_slot,
    steer_slot,
    movement_slot,
    fire_slot,
    projectiles_slot,
    reap_slot,
    system_count
};

inline std::array<double, system_count> system_ms{};

/// Adds the time from its construction to its destruction to one slot of system_ms.
class stopwatch {
public:
    explicit stopwatch(const system_slot slot) : total{system_ms[slot]}, start{std::chrono::steady_clock::now()} {}
    stopwatch(const stopwatch &) = delete;
    stopwatch &operator=(const stopwatch &) = delete;

    ~stopwatch() {
        total += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }

private:
    double &total;
    std::chrono::steady_clock::time_point start;
};

// ---------------------------------------------------------------------------------------------------------------
// helpers

inline void spawn_unit(deferred &changes, const std::uint8_t side, random_source &random, const settings &config,
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

/// A chunk's share of the roster.
struct roster_part {
    std::vector<tessera::entity> units[2];
};

/// The targets of a chunk that need a new enemy, drawn afterwards in a fixed order.
struct target_part {
    std::vector<std::pair<target *, std::uint8_t>> idle;
};

/// The projectiles a chunk fires.
struct fire_part {
    deferred changes;
    std::vector<std::pair<position, projectile>> launched;
    std::uint64_t shots = 0;
};

/// What a chunk's projectiles did: the ones to destroy, the units they stunned, and how many hit.
struct hit_part {
    deferred changes;
    std::vector<tessera::entity> stunned;
    std::uint64_t hits = 0;
};

/// The dead units of a chunk, destroyed (and half of them replaced) afterwards in a fixed order.
struct fallen_part {
    std::vector<std::pair<tessera::entity, std::uint8_t>> units;
};

// ---------------------------------------------------------------------------------------------------------------
// systems: their parameters tell the organizer what they read (const) and write

inline void build_roster(tessera::view<tessera::get_t<const team>> units, roster &out, const settings &config,
                         chunk_slots<roster_part> &parts) {
    const stopwatch watch{roster_slot};
    const auto count = for_each_chunk(config, units, parts, [](const auto &chunk, roster_part &part) {
        chunk.each([&part](const tessera::entity entity, const team &side) { part.units[side.id].push_back(entity); });
    });

    out.units[0].clear();
    out.units[1].clear();
    in_walk_order(parts, count, [&out](roster_part &part) {
        for (auto side : {0u, 1u}) {
            out.units[side].insert(out.units[side].end(), part.units[side].begin(), part.units[side].end());
            part.units[side].clear();
        }
    });
}

inline void acquire_targets(const tessera::registry &registry, tessera::view<tessera::get_t<target, const team>> units,
                            const roster &live, random_source &random, const settings &config,
                            chunk_slots<target_part> &parts) {
    const stopwatch watch{targets_slot};
    const auto count = for_each_chunk(config, units, parts, [&](const auto &chunk, target_part &part) {
        chunk.each([&](target &aim, const team &side) {
            if (!registry.valid(aim.who) && !live.units[1u - side.id].empty()) {
                part.idle.emplace_back(&aim, side.id);
            }
        });
    });

    // one generator, drawn in a fixed order: the same targets for every thread count
    in_walk_order(parts, count, [&](target_part &part) {
        for (auto [aim, side] : part.idle) {
            const auto &enemies = live.units[1u - side];
            aim->who = enemies[random.below(enemies.size())];
        }

        part.idle.clear();
    });
}

inline void steer(tessera::view<tessera::get_t<velocity, const position, const target>> units, const settings &config) {
    const stopwatch watch{steer_slot};
    // a target is asked for through the position pool: contains() is true while the unit lives (its identifier,
    // version included, is in the pool), so one lookup answers both valid() and where it is
    const auto &positions = *units.storage<const position>();

    each_unit(config, units, [&](velocity &vel, const position &pos, const target &aim) {
        if (!positions.contains(aim.who)) {
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

inline void movement(tessera::view<tessera::get_t<position, const velocity>> moving, const settings &config) {
    const stopwatch watch{movement_slot};
    each_unit(config, moving, [dt = config.dt](position &pos, const velocity &vel) {
        pos.x += vel.dx * dt;
        pos.y += vel.dy * dt;
    });
}

// records the projectiles a chunk fired: created after the pass that fires them, so the pools being iterated are
// not disturbed. One command per kind for all of them (all the creates, then all the positions...): a command
// buffer applies a run of commands of one kind in one loop, where one projectile at a time would start four runs
inline void launch_all(fire_part &part) {
    auto &changes = part.changes;
    auto &commands = changes.commands;
    const auto first = changes.created.size();

    for (std::size_t pos{}; pos < part.launched.size(); ++pos) {
        changes.create();
    }

    for (std::size_t pos{}; pos < part.launched.size(); ++pos) {
        commands.emplace<position>(changes.created[first + pos], part.launched[pos].first);
    }

    // resolve_projectiles steers them toward their victims
    for (std::size_t pos{}; pos < part.launched.size(); ++pos) {
        commands.emplace<velocity>(changes.created[first + pos], 0.f, 0.f);
    }

    for (std::size_t pos{}; pos < part.launched.size(); ++pos) {
        commands.emplace<projectile>(changes.created[first + pos], part.launched[pos].second);
    }

    part.shots += part.launched.size();
    part.launched.clear();
}

inline void fire(tessera::registry &registry, const settings &config, statistics &stats,
                 chunk_slots<fire_part> &parts) {
    const stopwatch watch{fire_slot};
    const auto units = registry.view<weapon, const position, const target>();
    // read-only from the chunks' threads; a live target is one the pool contains (see steer)
    const auto &positions = *units.storage<const position>();

    const auto count = for_each_chunk(config, units, parts, [&](const auto &chunk, fire_part &part) {
        chunk.each([&](weapon &gun, const position &pos, const target &aim) {
            gun.cooldown -= config.dt;

            if (gun.cooldown <= 0.f && positions.contains(aim.who)) {
                const auto &goal = positions.get(aim.who);
                const float dx = goal.x - pos.x;
                const float dy = goal.y - pos.y;

                if (dx * dx + dy * dy < config.range * config.range) {
                    gun.cooldown += gun.reload;
                    part.launched.emplace_back(pos, projectile{aim.who, gun.damage, 2.f});
                }
            }
        });

        launch_all(part);
    });

    apply_in_walk_order(registry, config, parts, count, stats);
    in_walk_order(parts, count, [&stats](fire_part &part) { stats.shots += std::exchange(part.shots, 0u); });

    // the units stunned since the last fire step have missed this one (the view skipped their disabled weapons,
    // whose cooldown paused): they recover, first disabled first, each without moving another element
    auto &guns = registry.storage<weapon>();

    while (guns.disabled_size() != 0u) {
        guns.enable(guns.data()[guns.in_use()]);
    }
}

inline void resolve_projectiles(tessera::registry &registry, const settings &config, statistics &stats,
                                chunk_slots<hit_part> &parts) {
    const stopwatch watch{projectiles_slot};
    const auto shots = registry.view<projectile, velocity, const position>();
    // a live victim is one the pool contains (see steer)
    const auto &positions = *shots.storage<const position>();
    // looked up before the pass: storage<health>() may create the pool
    auto &healths = registry.storage<health>();

    const auto count = for_each_chunk(config, shots, parts, [&](const auto &chunk, hit_part &part) {
        auto &commands = part.changes.commands;

        chunk.each([&](const tessera::entity entity, projectile &shot, velocity &vel, const position &pos) {
            shot.ttl -= config.dt;

            if (!positions.contains(shot.victim)) {
                commands.destroy(entity);
                return;
            }

            const auto &goal = positions.get(shot.victim);
            const float dx = goal.x - pos.x;
            const float dy = goal.y - pos.y;
            const float distance = std::sqrt(dx * dx + dy * dy);

            if (distance < config.projectile_speed * config.dt) {
                // other chunks may hit the same victim at the same time, hence the atomic subtraction; the health
                // pool is not iterated by this pass, and subtractions give the same health in any order
                std::atomic_ref<int>{healths.get(shot.victim).current}.fetch_sub(shot.damage,
                                                                                 std::memory_order_relaxed);
                ++part.hits;
                // the victim is stunned: recorded after the chunk's destroys (docs/enable_disable.md)
                part.stunned.push_back(shot.victim);
                commands.destroy(entity);
            } else if (shot.ttl <= 0.f) {
                commands.destroy(entity);
            } else {
                vel = {dx / distance * config.projectile_speed, dy / distance * config.projectile_speed};
            }
        });

        // one run of destroys, then one of disables, rather than runs of one command each: the destroys only
        // remove projectiles and the disables only touch units, so the order between the two kinds changes nothing
        for (const auto victim : part.stunned) {
            commands.disable<weapon>(victim);
        }

        part.stunned.clear();
    });

    in_walk_order(parts, count, [&stats](hit_part &part) { stats.hits += std::exchange(part.hits, 0u); });
    apply_in_walk_order(registry, config, parts, count, stats);
}

inline void reap_and_reinforce(tessera::registry &registry, random_source &random, const settings &config,
                               statistics &stats, deferred &changes, chunk_slots<fallen_part> &parts) {
    const stopwatch watch{reap_slot};
    const auto count = for_each_chunk(
        config, registry.view<const health, const team>(), parts, [](const auto &chunk, fallen_part &part) {
            chunk.each([&part](const tessera::entity entity, const health &hp, const team &side) {
                if (hp.current <= 0) {
                    part.units.emplace_back(entity, side.id);
                }
            });
        });

    in_walk_order(parts, count, [&](fallen_part &part) {
        for (auto [entity, side] : part.units) {
            changes.commands.destroy(entity);
            ++stats.deaths;

            // half of the fallen come back as reinforcements, under recycled identifiers
            if (random.below(2u) == 0u) {
                spawn_unit(changes, side, random, config, stats);
            }
        }

        part.units.clear();
    });

    changes.apply(registry, stats);
}

// ---------------------------------------------------------------------------------------------------------------
// the world

/// Runs the graph on the calling thread: its edges always point forward, so insertion order is a valid order.
class sequential_executor {
public:
    explicit sequential_executor(std::vector<tessera::organizer::vertex> graph) : tasks{std::move(graph)} {}

    void prepare(tessera::registry &registry) const {
        for (const auto &task : tasks) {
            task.prepare(registry);
        }
    }

    void run(tessera::registry &registry) const {
        for (const auto &task : tasks) {
            task.callback()(task.data(), registry);
        }
    }

private:
    std::vector<tessera::organizer::vertex> tasks;
};

/// What a battle ends with: the units alive on each side, their health, and the running counts.
struct outcome {
    std::size_t alive[2]{};
    long long total_health = 0;
    statistics stats{};

    /// The summary line (without a newline), the same for every thread count and for the sequential code.
    [[nodiscard]] std::string summary() const {
        char line[256];
        std::snprintf(
            line, sizeof(line),
            "summary: red %zu blue %zu health %lld shots %llu hits %llu deaths %llu spawned %llu recycled %llu",
            alive[0], alive[1], total_health, static_cast<unsigned long long>(stats.shots),
            static_cast<unsigned long long>(stats.hits), static_cast<unsigned long long>(stats.deaths),
            static_cast<unsigned long long>(stats.spawned), static_cast<unsigned long long>(stats.recycled));
        return line;
    }
};

/// A battle: the registry with both armies, the systems' schedule and what runs it.
class simulation {
public:
    /// Spawns `units` units, alternately red and blue, from `seed`. threaded: the executor runs the systems and
    /// oneTBB's threads their chunks (as many threads as the caller's tbb::global_control allows); otherwise every
    /// system runs on the calling thread, in the organizer's insertion order. Without oneTBB, threaded is ignored.
    simulation(const std::size_t units, const std::uint64_t seed, [[maybe_unused]] const bool threaded) {
        auto &config = registry.ctx().emplace<settings>();
        auto &random = registry.ctx().emplace<random_source>(random_source{seed});
        auto &stats = registry.ctx().emplace<statistics>();
        registry.ctx().emplace<roster>();
        auto &changes = registry.ctx().emplace<deferred>();

        for (std::size_t count{}; count < units; ++count) {
            spawn_unit(changes, static_cast<std::uint8_t>(count % 2u), random, config, stats);
        }

        changes.apply(registry, stats);

        // inserted in the order of system_slot
        tessera::organizer organizer;
        organizer.emplace<&build_roster>("roster");
        organizer.emplace<&acquire_targets>("targets");
        organizer.emplace<&steer>("steer");
        organizer.emplace<&movement>("movement");
        organizer.emplace<&fire>("fire");
        organizer.emplace<&resolve_projectiles>("projectiles");
        organizer.emplace<&reap_and_reinforce>("reap");
        tasks = organizer.graph();
        sequential.emplace(tasks);

#ifndef TESSERA_BATTLE_SEQUENTIAL
        config.threaded = threaded;

        if (threaded) {
            executor.emplace(tasks);
        }
#endif

        sequential->prepare(registry);
    }

    simulation(const simulation &) = delete;
    simulation &operator=(const simulation &) = delete;
    ~simulation() = default;

    /// Runs every system once; system_times() then holds what each one took.
    void frame() {
        system_ms = {};

#ifndef TESSERA_BATTLE_SEQUENTIAL
        if (executor) {
            executor->run(registry);
            return;
        }
#endif

        sequential->run(registry);
    }

    /// The systems in insertion order, with the tasks that wait for each.
    [[nodiscard]] const std::vector<tessera::organizer::vertex> &schedule() const { return tasks; }

    /// Milliseconds each system took in the last frame, in the order of schedule().
    [[nodiscard]] static const std::array<double, system_count> &system_times() { return system_ms; }

    /// The units alive, their health and the counts so far.
    [[nodiscard]] outcome result() const {
        outcome out{};
        out.stats = registry.ctx().get<statistics>();

        registry.view<const health, const team>().each([&out](const health &hp, const team &side) {
            ++out.alive[side.id];
            out.total_health += hp.current;
        });

        return out;
    }

    /// The registry of the battle: the example prints its counts and its memory report.
    [[nodiscard]] tessera::registry &world() { return registry; }

private:
    tessera::registry registry{};
    std::vector<tessera::organizer::vertex> tasks{};
    std::optional<sequential_executor> sequential{};
#ifndef TESSERA_BATTLE_SEQUENTIAL
    std::optional<tessera::execution::executor> executor{};
#endif
};

} // namespace battle

#endif
