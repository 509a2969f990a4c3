// Example: a few systems declared to an organizer and run for some frames by the executor of the execution module
// (oneTBB). Systems that touch different components run concurrently, and the per-entity work of the movement and
// regeneration systems is itself spread over the threads by parallel_each; each system records its structural changes
// in a command buffer of its own, and a synchronization point applies the buffers in a fixed order, so the printed
// summary is the same on every run and for any number of threads (examples/parallel.expected; `--threads N` limits
// oneTBB to N threads).
#include <tessera/entity/command_buffer.hpp>
#include <tessera/entity/organizer.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/view.hpp>
#include <tessera/execution/executor.hpp>
#include <tessera/execution/parallel_each.hpp>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <oneapi/tbb/global_control.h>
#include <optional>

namespace {

struct position {
    int x{};
};

struct velocity {
    int dx{};
};

struct health {
    int points{};
};

struct age {
    int frames{};
};

// Written by the bookkeeping task only: the frame number and what happened so far.
struct world_stats {
    int frame{};
    int born{};
    int died{};
};

// Leading positions per parallel_each chunk: tiny, so that the few entities here still make several chunks (a real
// program keeps tessera::execution::default_chunk_size, docs/parallel.md).
constexpr std::size_t chunk_size = 2u;

// Each entity's update touches only that entity's elements, so the chunks may run on any threads in any order and
// the result is the same.
void move(tessera::view<tessera::get_t<position, const velocity>> view) {
    tessera::execution::parallel_each(view, chunk_size, [](position &pos, const velocity &vel) { pos.x += vel.dx; });
}

void regenerate(tessera::view<tessera::get_t<health>> view) {
    tessera::execution::parallel_each(view, chunk_size, [](health &hp) { hp.points += 2; });
}

// Ages every entity; those at the end of their life are destroyed after the pass.
struct reaper {
    tessera::command_buffer commands{};

    void update(tessera::view<tessera::get_t<age>> view) {
        for (auto [entity, years] : view.each()) {
            if (++years.frames == 6) {
                commands.destroy(entity);
            }
        }
    }
};

// Entities far enough to the right have a child, created after the pass.
struct breeder {
    tessera::command_buffer commands{};

    void update(tessera::view<tessera::get_t<const position, const health>> view) {
        for (auto [entity, pos, hp] : view.each()) {
            if (pos.x % 10 == 0 && hp.points > 5) {
                const auto child = commands.create();
                commands.emplace<position>(child, pos.x);
                commands.emplace<velocity>(child, 1);
                commands.emplace<health>(child, 1);
                commands.emplace<age>(child);
            }
        }
    }
};

// A synchronization point (it takes the registry): runs alone, after the others, on the thread that called run().
struct bookkeeper {
    reaper *deaths{};
    breeder *births{};

    void update(tessera::registry &registry) {
        auto &stats = registry.ctx().get<world_stats>();
        stats.died += static_cast<int>(deaths->commands.size());
        stats.born += static_cast<int>(births->commands.size() / 5u); // create and four emplaces per child
        // a fixed order: the result does not depend on which thread ran which system
        deaths->commands.apply(registry);
        births->commands.apply(registry);
        ++stats.frame;
    }
};

} // namespace

int main(int argc, char **argv) {
    std::optional<tbb::global_control> threads{};

    if (argc == 3 && std::strcmp(argv[1], "--threads") == 0) {
        threads.emplace(tbb::global_control::max_allowed_parallelism, std::strtoul(argv[2], nullptr, 10));
    } else if (argc != 1) {
        std::fprintf(stderr, "usage: %s [--threads N]\n", argv[0]);
        return 2;
    }

    tessera::registry registry;

    for (int count = 0; count < 8; ++count) {
        const auto entity = registry.create();
        registry.emplace<position>(entity, count);
        registry.emplace<velocity>(entity, 1 + count % 3);
        registry.emplace<health>(entity, count);
        registry.emplace<age>(entity, count % 4);
    }

    registry.ctx().emplace<world_stats>();

    reaper deaths{};
    breeder births{};
    bookkeeper books{&deaths, &births};
    tessera::organizer organizer;
    organizer.emplace<&move>("move");
    organizer.emplace<&regenerate>("regenerate");
    organizer.emplace<&reaper::update>(deaths, "reaper");
    organizer.emplace<&breeder::update>(births, "breeder");
    organizer.emplace<&bookkeeper::update>(books, "bookkeeper");

    const auto graph = organizer.graph();

    for (auto &&vertex : graph) {
        std::printf("%-10s after:", vertex.name());

        for (auto parent : vertex.in_edges()) {
            std::printf(" %s", graph[parent].name());
        }

        std::printf("\n");
    }

    tessera::execution::executor executor{graph};
    executor.prepare(registry);

    for (int frame = 0; frame < 8; ++frame) {
        executor.run(registry);

        long sum_x{};
        long sum_health{};

        for (auto [entity, pos, hp] : registry.view<const position, const health>().each()) {
            sum_x += pos.x;
            sum_health += hp.points;
        }

        const auto &stats = registry.ctx().get<world_stats>();
        std::printf("frame %d: %zu entities, sum x %ld, sum health %ld\n", stats.frame,
                    registry.storage<position>().size(), sum_x, sum_health);
    }

    const auto &stats = registry.ctx().get<world_stats>();
    std::printf("summary: %d frames, %d born, %d died, %zu alive\n", stats.frame, stats.born, stats.died,
                registry.storage<position>().size());
    return stats.frame == 8 ? 0 : 1;
}
