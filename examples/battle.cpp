// battle: two armies of a few hundred thousand units fight for a fixed number of frames (the simulation itself is
// in battle_world.hpp, which bench/parallel.cpp times too). The systems are scheduled through tessera's organizer,
// which derives their order from the components and context variables each one reads or writes, and run by the
// executor of the parallel module (tessera/execution, on oneTBB) on --threads N threads; inside a system the per-unit
// work is split into the chunks of a view, which oneTBB hands to its threads. The summary line is the same for every
// N, for the sequential build, and as before battle had threads.
//
// Built without oneTBB (or with TESSERA_BATTLE_SEQUENTIAL defined), the same chunks are walked one after the other
// on the calling thread, the systems in the organizer's insertion order, and --threads is not available. A
// side-by-side comparison with EnTT would have to take that path (no executor, no oneTBB); EnTT's port of the
// examples cannot compile this file anyway since battle records its structural changes into command buffers,
// which EnTT does not have.
//
// Usage: battle [--entities N] [--frames F] [--seed S] [--threads T] [--quiet] [--memory]
// --threads defaults to the number of hardware threads. --memory prints the registry's memory report at the end
// (docs/debugging.md). The run is deterministic for a given seed: the summary line is the same on every run.
#include "battle_world.hpp"
#include <tessera/entity/memory_report.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#ifndef TESSERA_BATTLE_SEQUENTIAL
#    include <tbb/global_control.h>
#endif

namespace {

struct options {
    std::size_t entities = 250000;
    int frames = 120;
    std::uint64_t seed = 42;
    unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    bool quiet = false;
    bool memory = false;
};

#ifdef TESSERA_BATTLE_SEQUENTIAL
constexpr const char *usage = "usage: battle [--entities N] [--frames F] [--seed S] [--quiet] [--memory]\n"
                              "(built without oneTBB: the systems run one after another on one thread, and\n"
                              "--threads is not available)\n";
#else
constexpr const char *usage =
    "usage: battle [--entities N] [--frames F] [--seed S] [--threads T] [--quiet] [--memory]\n"
    "--threads defaults to the number of hardware threads\n";
#endif

/// Returns 0 to run, 1 after --help, 2 on a bad command line.
int parse(const int argc, char **argv, options &out) {
    for (int pos = 1; pos < argc; ++pos) {
        const std::string arg = argv[pos];
        const bool has_value = pos + 1 < argc;

        if (arg == "--entities" && has_value) {
            out.entities = std::strtoull(argv[++pos], nullptr, 10);
        } else if (arg == "--frames" && has_value) {
            out.frames = std::atoi(argv[++pos]);
        } else if (arg == "--seed" && has_value) {
            out.seed = std::strtoull(argv[++pos], nullptr, 10);
#ifndef TESSERA_BATTLE_SEQUENTIAL
        } else if (arg == "--threads" && has_value) {
            out.threads = static_cast<unsigned>(std::strtoul(argv[++pos], nullptr, 10));
#endif
        } else if (arg == "--quiet") {
            out.quiet = true;
        } else if (arg == "--memory") {
            out.memory = true;
        } else if (arg == "--help") {
            std::printf("%s", usage);
            return 1;
        } else {
            std::fprintf(stderr, "%s", usage);
            return 2;
        }
    }

    // units and their projectiles share the 2^20 - 1 indices of tessera::entity: 700,000 units run out of them
    if (out.entities == 0u || out.entities > 600000u || out.frames < 0 || out.threads == 0u) {
        std::fprintf(stderr, "battle: --entities takes 1 to 600000, --frames 0 or more, --threads 1 or more\n%s",
                     usage);
        return 2;
    }

    return 0;
}

} // namespace

int main(int argc, char **argv) {
    options opts{};

    if (const int status = parse(argc, argv, opts); status != 0) {
        return status == 1 ? 0 : 2;
    }

#ifdef TESSERA_BATTLE_SEQUENTIAL
    battle::simulation battle{opts.entities, opts.seed, false};
    std::printf("battle: %zu units, %d frames, seed %llu, sequential build\n", opts.entities, opts.frames,
                static_cast<unsigned long long>(opts.seed));
#else
    // oneTBB's threads for this run: the executor's tasks and the chunks of every pass
    const tbb::global_control threads{tbb::global_control::max_allowed_parallelism, opts.threads};
    battle::simulation battle{opts.entities, opts.seed, true};
    std::printf("battle: %zu units, %d frames, seed %llu, %u threads\n", opts.entities, opts.frames,
                static_cast<unsigned long long>(opts.seed), opts.threads);
#endif

    const auto &graph = battle.schedule();
    std::printf("schedule (task -> tasks that wait for it):\n");

    for (std::size_t pos{}; pos < graph.size(); ++pos) {
        std::printf("  %-12s ->", graph[pos].name());

        for (auto child : graph[pos].children()) {
            std::printf(" %s", graph[child].name());
        }

        std::printf("%s\n", graph[pos].top_level() ? "   (top level)" : "");
    }

    auto &registry = battle.world();
    const auto &stats = registry.ctx().get<battle::statistics>();
    std::array<double, battle::system_count> total_ms{};
    const auto start = std::chrono::steady_clock::now();

    for (int frame = 1; frame <= opts.frames; ++frame) {
        battle.frame();
        const auto &system_ms = battle::simulation::system_times();

        for (std::size_t pos{}; pos < battle::system_count; ++pos) {
            total_ms[pos] += system_ms[pos];
        }

        if (!opts.quiet) {
            const auto &entities = registry.storage<tessera::entity>();
            std::printf("frame %3d | live %7zu | projectiles %6zu | recycled %7llu |", frame, entities.free_list(),
                        registry.storage<battle::projectile>().size(), static_cast<unsigned long long>(stats.recycled));

            for (std::size_t pos{}; pos < graph.size(); ++pos) {
                std::printf(" %s %.2fms", graph[pos].name(), system_ms[pos]);
            }

            std::printf("\n");
        }
    }

    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("time per system over the run:");

    for (std::size_t pos{}; pos < graph.size(); ++pos) {
        std::printf(" %s %.1fms", graph[pos].name(), total_ms[pos]);
    }

    std::printf("\nsimulated %d frames in %.2fs (%.2fms per frame)\n", opts.frames, seconds,
                opts.frames > 0 ? seconds * 1000. / opts.frames : 0.);
    std::printf("%s\n", battle.result().summary().c_str());

    if (opts.memory) {
        std::printf("memory:\n%s", registry.memory_report().to_string().c_str());
    }

    return 0;
}
