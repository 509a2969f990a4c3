// The scaling figures of the parallel execution module: the seven systems of systems.cpp (movement, data,
// more-complex, health, damage, sprite, render) at 10^6 entities, run through tessera::execution::parallel_each at
// 1, 2, 4... threads up to the machine's count (tbb::global_control caps oneTBB), next to the sequential each(func)
// version. On exit a table gives each run's speedup over one thread and over the sequential code. A sweep of chunk
// sizes at the full thread count backs execution::default_chunk_size. Every fixture checks once, before timing,
// that one parallel step computes what one sequential step computes.
//   tessera_bench_parallel [--benchmark_filter=...] [--benchmark_repetitions=N]
#include "game_systems.hpp"
#include "model.hpp"

#include <tessera/entity/group.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/view.hpp>
#include <tessera/execution/parallel_each.hpp>

#include <benchmark/benchmark.h>
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace bench::game;
namespace execution = tessera::execution;

constexpr std::size_t entity_count = 1'000'000u;

/// The seven systems over a plain or mixed population, through views or the groups of systems.cpp; step() runs them
/// one after the other, each either sequentially (each(func)) or through parallel_each.
template<bool Mixed, bool Groups>
class seven_systems {
public:
    seven_systems() {
        if constexpr (Groups) {
            make_groups(registry);
        }

        populate(registry, entity_count, Mixed,
                 [this](const std::size_t index, const tessera::entity entt) { entities[index] = entt; });
    }

    /// One frame of the seven systems; chunk == 0: sequential each(func).
    void step(const std::size_t chunk) {
        frame<7, Groups>(
            registry,
            [chunk](const auto &view, auto func) {
                if (chunk == 0u) {
                    view.each(func);
                } else {
                    execution::parallel_each(view, chunk, func);
                }
            },
            [this, chunk](const auto &view) { render_all(view, chunk); });
    }

    /// A checksum of every component and the framebuffer, as systems.cpp computes it.
    [[nodiscard]] std::uint64_t checksum() const { return checksum_of(registry, entities, buffer); }

private:
    // render adds into shared pixels: in parallel, every thread draws into a framebuffer of its own (taken once per
    // block of chunks, not per entity) and the buffers are added up afterwards, as a parallel reduction does
    template<typename View>
    void render_all(const View &view, const std::size_t chunk) {
        if (chunk == 0u) {
            view.each([this](const position &pos, const sprite &spr) { render(buffer, pos, spr); });
            return;
        }

        for (auto &local : locals) {
            std::fill(local.pixels.begin(), local.pixels.end(), 0u);
        }

        // the chunks from the last one down, as parallel_each runs them
        const auto range = view.chunks(chunk);
        const auto last = range.size() - 1u;
        tbb::parallel_for(tbb::blocked_range<std::size_t>{0u, range.size()},
                          [this, &range, last](const tbb::blocked_range<std::size_t> &part) {
                              auto &local = locals.local();

                              for (auto index = part.begin(); index != part.end(); ++index) {
                                  range[last - index].each(
                                      [&local](const position &pos, const sprite &spr) { render(local, pos, spr); });
                              }
                          });

        for (const auto &local : locals) {
            for (std::size_t pixel{}; pixel < buffer.pixels.size(); ++pixel) {
                buffer.pixels[pixel] += local.pixels[pixel];
            }
        }
    }

    tessera::registry registry{};
    std::vector<tessera::entity> entities = std::vector<tessera::entity>(entity_count);
    framebuffer buffer{};
    tbb::enumerable_thread_specific<framebuffer> locals{};
};

// one fixture per scenario, built on first use and kept: 10^6 entities take a while to create
template<typename Fixture>
Fixture &fixture() {
    static Fixture *made = [] {
        auto *out = new Fixture{};
        Fixture parallel_twin{};
        out->step(0u);
        parallel_twin.step(execution::default_chunk_size);

        if (out->checksum() != parallel_twin.checksum()) {
            std::fprintf(stderr, "parallel: a parallel step differs from a sequential one\n");
            std::exit(EXIT_FAILURE);
        }

        return out;
    }();

    return *made;
}

// threads == 0: sequential each(func), chunk ignored
template<typename Fixture>
void run_frames(benchmark::State &state, const int threads, const std::size_t chunk) {
    auto &frame = fixture<Fixture>();
    const tbb::global_control cap{tbb::global_control::max_allowed_parallelism,
                                  static_cast<std::size_t>(std::max(threads, 1))};

    for (auto _ : state) {
        frame.step(threads == 0 ? 0u : chunk);
        benchmark::ClobberMemory();
    }

    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(entity_count));
}

template<typename Fixture>
void register_scenario(const char *name, const bool sweep) {
    const int hardware = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const std::string base = std::string{"parallel/"} + name;

    benchmark::RegisterBenchmark((base + "/sequential").c_str(),
                                 [](benchmark::State &state) { run_frames<Fixture>(state, 0, 0u); })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);

    for (int threads = 1;; threads = std::min(threads * 2, hardware)) {
        benchmark::RegisterBenchmark(
            (base + "/threads:" + std::to_string(threads)).c_str(),
            [threads](benchmark::State &state) { run_frames<Fixture>(state, threads, execution::default_chunk_size); })
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);

        if (threads == hardware) {
            break;
        }
    }

    if (sweep) {
        for (const std::size_t chunk : {256u, 1024u, 4096u, 16384u, 65536u}) {
            benchmark::RegisterBenchmark(
                (base + "/threads:" + std::to_string(hardware) + "/chunk:" + std::to_string(chunk)).c_str(),
                [hardware, chunk](benchmark::State &state) { run_frames<Fixture>(state, hardware, chunk); })
                ->UseRealTime()
                ->Unit(benchmark::kMillisecond);
        }
    }
}

// The console output, then the speedups: for every scenario, the time at N threads against 1 thread and against
// the sequential each(func) (the smallest time of each name when repetitions are asked for).
class speedup_reporter : public benchmark::ConsoleReporter {
public:
    void ReportRuns(const std::vector<Run> &runs) override {
        ConsoleReporter::ReportRuns(runs);

        for (const auto &run : runs) {
            if (run.run_type != Run::RT_Iteration) {
                continue;
            }

            const auto name = run.benchmark_name();
            const auto time = run.GetAdjustedRealTime();
            const auto found = best.find(name);

            if (found == best.end() || time < found->second) {
                best[name] = time;
            }
        }
    }

    void Finalize() override {
        ConsoleReporter::Finalize();
        std::printf("\n%-48s %10s %14s %16s\n", "run", "ms", "vs 1 thread", "vs sequential");

        for (const auto &[full, time] : best) {
            // UseRealTime() appends "/real_time" to every name
            const auto name = full.substr(0, full.rfind("/real_time"));
            const auto slash = name.find("/threads:");
            const auto scenario = name.substr(0, slash == std::string::npos ? name.rfind('/') : slash);
            const auto one = best.find(scenario + "/threads:1/real_time");
            const auto seq = best.find(scenario + "/sequential/real_time");
            std::printf("%-48s %10.3f %13.2fx %15.2fx\n", name.c_str(), time,
                        one == best.end() ? 0. : one->second / time, seq == best.end() ? 0. : seq->second / time);
        }
    }

private:
    std::map<std::string, double> best{};
};

} // namespace

int main(int argc, char **argv) {
    register_scenario<seven_systems<true, false>>("mixed_7", true);
    register_scenario<seven_systems<false, false>>("plain_7", false);
    register_scenario<seven_systems<true, true>>("mixed_7_groups", false);

    benchmark::Initialize(&argc, argv);

    if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
        return EXIT_FAILURE;
    }

    speedup_reporter reporter{};
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    return EXIT_SUCCESS;
}
