// The scaling figures of the parallel execution module, at 1, 2, 4... threads up to the machine's count
// (tbb::global_control caps oneTBB), next to the sequential code:
// - the seven systems of systems.cpp (movement, data, more-complex, health, damage, sprite, render) at 10^6
//   entities, through tessera::execution::parallel_each, next to each(func); every fixture checks once, before
//   timing, that one parallel step computes what one sequential step computes. A sweep of chunk sizes at the full
//   thread count backs execution::default_chunk_size. Each population again with every configuration in one pass,
//   frame by frame in turn (mixed_7/interleaved...);
// - a battle frame: the battle of examples/battle.cpp (battle_world.hpp) with 250,000 units, the time per frame over
//   its default 120 frames (the world is built untimed before each round), next to the same systems run on one
//   thread without oneTBB; every round must end with the sequential code's summary line. The same battle again with
//   every configuration in one pass, frame by frame in turn (battle_frame/interleaved). On a shared machine whose
//   speed drifts, the interleaved rows are the figures to quote.
// Every benchmark runs --rounds N times (5 by default); on exit a table gives the median of the rounds and the
// speedup of each median over the one at one thread and over the sequential code's.
//   tessera_bench_parallel [--rounds N] [--benchmark_filter=...]
#include "battle_world.hpp"
#include "game_systems.hpp"
#include "model.hpp"

#include <tessera/entity/chunk.hpp>
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
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

using namespace bench::game;
namespace execution = tessera::execution;

constexpr std::size_t entity_count = 1'000'000u;

/// How many times every benchmark runs (--rounds N): the table reports the median.
int rounds = 5;

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
            [this, chunk](const auto &view) { this->render_all(view, chunk); });
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

/// The configurations every scenario compares: 0 (the sequential code), then 1, 2, 4... threads up to the
/// machine's count.
std::vector<int> configurations() {
    const int hardware = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::vector<int> out{0};

    for (int threads = 1;; threads = std::min(threads * 2, hardware)) {
        out.push_back(threads);

        if (threads == hardware) {
            return out;
        }
    }
}

/// Runs `frames` frames of every configuration in turn, step(which) for configuration `which`, under its thread
/// cap, the order rotating every frame: a machine whose speed drifts over seconds slows every configuration alike,
/// where separate runs may each catch a different phase. Returns the seconds each configuration took in all.
template<typename Step>
std::vector<double> interleave(const std::vector<int> &configs, const int frames, Step step) {
    std::vector<double> seconds(configs.size());

    for (int frame{}; frame < frames; ++frame) {
        for (std::size_t turn{}; turn < configs.size(); ++turn) {
            const auto which = (turn + static_cast<std::size_t>(frame)) % configs.size();
            const tbb::global_control cap{tbb::global_control::max_allowed_parallelism,
                                          static_cast<std::size_t>(std::max(configs[which], 1))};
            const auto start = std::chrono::steady_clock::now();
            step(which);
            seconds[which] += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        }
    }

    return seconds;
}

/// The time per frame of the last configuration (the most threads) and, as counters, every threaded
/// configuration's speedup over 1 thread and over the sequential code (the sum of its frames over theirs).
void report_interleaved(benchmark::State &state, const std::vector<int> &configs, const std::vector<double> &seconds,
                        const int frames) {
    state.SetIterationTime(seconds.back() / frames);

    for (std::size_t which = 1u; which < configs.size(); ++which) {
        const auto name = "threads:" + std::to_string(configs[which]);
        state.counters[name + "/vs_1"] = seconds[1] / seconds[which];
        state.counters[name + "/vs_seq"] = seconds[0] / seconds[which];
    }
}

// The seven systems again, every configuration on the same fixture in one pass, frame by frame in turn (see
// interleave): the figures to quote on a machine whose speed drifts.
constexpr int interleaved_frames = 20;

template<typename Fixture>
void run_frames_interleaved(benchmark::State &state) {
    auto &frame = fixture<Fixture>();
    const auto configs = configurations();

    for (auto _ : state) {
        const auto seconds = interleave(configs, interleaved_frames, [&](const std::size_t which) {
            frame.step(configs[which] == 0 ? 0u : execution::default_chunk_size);
            benchmark::ClobberMemory();
        });

        report_interleaved(state, configs, seconds, interleaved_frames);
    }
}

template<typename Fixture>
void register_scenario(const char *name, const bool sweep) {
    const int hardware = configurations().back();
    const std::string base = std::string{"parallel/"} + name;

    for (const int threads : configurations()) {
        const auto config = threads == 0 ? std::string{"/sequential"} : "/threads:" + std::to_string(threads);
        benchmark::RegisterBenchmark(
            (base + config).c_str(),
            [threads](benchmark::State &state) { run_frames<Fixture>(state, threads, execution::default_chunk_size); })
            ->UseRealTime()
            ->Repetitions(rounds)
            ->DisplayAggregatesOnly()
            ->Unit(benchmark::kMillisecond);
    }

    benchmark::RegisterBenchmark((base + "/interleaved").c_str(), run_frames_interleaved<Fixture>)
        ->UseManualTime()
        ->Iterations(1)
        ->Repetitions(rounds)
        ->Unit(benchmark::kMillisecond);

    if (sweep) {
        for (const std::size_t chunk : {256u, 1024u, 4096u, 16384u, 65536u}) {
            benchmark::RegisterBenchmark(
                (base + "/threads:" + std::to_string(hardware) + "/chunk:" + std::to_string(chunk)).c_str(),
                [hardware, chunk](benchmark::State &state) { run_frames<Fixture>(state, hardware, chunk); })
                ->UseRealTime()
                ->Repetitions(rounds)
                ->DisplayAggregatesOnly()
                ->Unit(benchmark::kMillisecond);
        }
    }
}

// A battle frame: a fresh battle per round (built untimed), then its default 120 frames timed; threads == 0: the
// sequential code (every system on this thread, no oneTBB). The time is per frame.
constexpr std::size_t battle_units = 250'000u;
constexpr int battle_frames = 120;
constexpr std::uint64_t battle_seed = 42u;

void run_battle(benchmark::State &state, const int threads) {
    // the first round's summary (the sequential code's, unless a filter leaves it out): every round must print it
    static std::string expected{};
    const tbb::global_control cap{tbb::global_control::max_allowed_parallelism,
                                  static_cast<std::size_t>(std::max(threads, 1))};

    for (auto _ : state) {
        battle::simulation fight{battle_units, battle_seed, threads != 0};
        const auto start = std::chrono::steady_clock::now();

        for (int frame{}; frame < battle_frames; ++frame) {
            fight.frame();
        }

        const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
        state.SetIterationTime(elapsed.count() / battle_frames);
        const auto summary = fight.result().summary();

        if (expected.empty()) {
            expected = summary;
        } else if (summary != expected) {
            state.SkipWithError("the battle ended with another summary than its first round");
            break;
        }
    }
}

void register_battle() {
    for (const int threads : configurations()) {
        const auto name = threads == 0 ? std::string{"parallel/battle_frame/sequential"}
                                       : "parallel/battle_frame/threads:" + std::to_string(threads);
        benchmark::RegisterBenchmark(name.c_str(), [threads](benchmark::State &state) { run_battle(state, threads); })
            ->UseManualTime()
            ->Iterations(1)
            ->Repetitions(rounds)
            ->DisplayAggregatesOnly()
            ->Unit(benchmark::kMillisecond);
    }
}

// The battle frame again, with every configuration in one pass: one battle per configuration, built untimed from
// the same seed, stepped frame by frame in turn (see interleave). The time is the per-frame mean of the last
// configuration (the most threads), the counters the speedups, and every battle must end with the same summary line.
void run_battle_interleaved(benchmark::State &state) {
    const auto configs = configurations();

    for (auto _ : state) {
        std::vector<std::unique_ptr<battle::simulation>> fights{};

        for (const int threads : configs) {
            fights.push_back(std::make_unique<battle::simulation>(battle_units, battle_seed, threads != 0));
        }

        const auto seconds =
            interleave(configs, battle_frames, [&fights](const std::size_t which) { fights[which]->frame(); });
        report_interleaved(state, configs, seconds, battle_frames);
        const auto summary = fights.front()->result().summary();

        for (const auto &fight : fights) {
            if (fight->result().summary() != summary) {
                state.SkipWithError("a thread count ended the battle with another summary than the sequential code");
            }
        }
    }
}

void register_battle_interleaved() {
    benchmark::RegisterBenchmark("parallel/battle_frame/interleaved", run_battle_interleaved)
        ->UseManualTime()
        ->Iterations(1)
        ->Repetitions(rounds)
        ->Unit(benchmark::kMillisecond);
}

// The console output (the aggregates of the rounds), then the speedups: for every scenario, the median time of the
// rounds at N threads against the median at 1 thread and the median of the sequential code.
class speedup_reporter : public benchmark::ConsoleReporter {
public:
    void ReportRuns(const std::vector<Run> &runs) override {
        ConsoleReporter::ReportRuns(runs);

        for (const auto &run : runs) {
            // the registered name, without the "/real_time", "/iterations:1"... that benchmark appends
            const auto &name = run.run_name.function_name;

            if (name.ends_with("/interleaved")) {
                // its speedups are counters; with one round there is no median, the round is it
                if (run.run_type == Run::RT_Iteration || run.aggregate_name == "median") {
                    interleaved_of[name] = run.counters;
                }
            } else if (run.run_type == Run::RT_Iteration) {
                rounds_of[name].push_back(run.GetAdjustedRealTime());
            } else if (run.aggregate_name == "median") {
                median_of[name] = run.GetAdjustedRealTime();
            }
        }
    }

    void Finalize() override {
        ConsoleReporter::Finalize();

        // with one round benchmark computes no aggregate: the round is the median
        for (auto &[name, times] : rounds_of) {
            if (!median_of.contains(name) && !times.empty()) {
                std::sort(times.begin(), times.end());
                median_of[name] = times[times.size() / 2u];
            }
        }

        std::printf("\n%-48s %10s %14s %16s\n", "median of the rounds", "ms", "vs 1 thread", "vs sequential");

        for (const auto &[name, time] : median_of) {
            const auto slash = name.find("/threads:");
            const auto scenario = name.substr(0, slash == std::string::npos ? name.rfind('/') : slash);
            const auto one = median_of.find(scenario + "/threads:1");
            const auto seq = median_of.find(scenario + "/sequential");
            std::printf("%-48s %10.3f %13.2fx %15.2fx\n", name.c_str(), time,
                        one == median_of.end() ? 0. : one->second / time,
                        seq == median_of.end() ? 0. : seq->second / time);
        }

        // counters come in name order: threads:N/vs_1, then threads:N/vs_seq
        for (const auto &[name, counters] : interleaved_of) {
            for (auto it = counters.cbegin(); it != counters.cend(); ++it) {
                const auto next = std::next(it);

                if (it->first.ends_with("/vs_1") && next != counters.cend()) {
                    const auto threads = it->first.substr(0, it->first.find('/'));
                    std::printf("%-48s %10s %13.2fx %15.2fx\n", (name + "/" + threads).c_str(), "", it->second.value,
                                next->second.value);
                }
            }
        }
    }

private:
    std::map<std::string, std::vector<double>> rounds_of{};
    std::map<std::string, double> median_of{};
    std::map<std::string, benchmark::UserCounters> interleaved_of{};
};

/// Takes --rounds N (or --rounds=N) out of the command line; false if its value is not a positive number.
bool take_rounds(int &argc, char **argv) {
    int out = 1;

    for (int pos = 1; pos < argc; ++pos) {
        const std::string_view arg = argv[pos];
        const char *value = nullptr;

        if (arg == "--rounds" && pos + 1 < argc) {
            value = argv[++pos];
        } else if (arg.starts_with("--rounds=")) {
            value = argv[pos] + std::string_view{"--rounds="}.size();
        } else {
            argv[out++] = argv[pos];
            continue;
        }

        rounds = std::atoi(value);

        if (rounds < 1) {
            std::fprintf(stderr, "parallel: --rounds takes a positive number\n");
            return false;
        }
    }

    argc = out;
    return true;
}

} // namespace

int main(int argc, char **argv) {
    if (!take_rounds(argc, argv)) {
        return EXIT_FAILURE;
    }

    register_scenario<seven_systems<true, false>>("mixed_7", true);
    register_scenario<seven_systems<false, false>>("plain_7", false);
    register_scenario<seven_systems<true, true>>("mixed_7_groups", false);
    register_scenario<seven_systems<false, true>>("plain_7_groups", false);
    register_battle();
    register_battle_interleaved();

    benchmark::Initialize(&argc, argv);

    if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
        return EXIT_FAILURE;
    }

    speedup_reporter reporter{};
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    return EXIT_SUCCESS;
}
