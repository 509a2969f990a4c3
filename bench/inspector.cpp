// The inspector's costs (docs/inspector.md): poll() with nothing queued, the answers of the API at 10^6 entities
// (through the service, as poll() runs them, and end to end over HTTP on the loopback), and a battle frame with the
// server running and nobody connected against the same frame without one (BM_battle_frame_pairs reports the
// median ratio of pairs of frames).
#include "battle_world.hpp"

#include <algorithm>
#include <atomic>
#include <benchmark/benchmark.h>
#include <chrono>
#include <cstddef>
#include <httplib.h>
#include <memory>
#include <optional>
#include <string>
#include <tessera/entity/registry.hpp>
#include <tessera/inspector/inspector.hpp>
#include <thread>
#include <vector>

namespace {

struct position {
    float x;
    float y;
};

struct velocity {
    float dx;
    float dy;
};

struct health {
    int points;
};

struct name {
    std::string value;
};

constexpr std::size_t million = 1000000u;

/// 10^6 entities: every one with a position, one in two a velocity, one in three a health, one in ten a name.
tessera::registry &world() {
    static tessera::registry registry = [] {
        tessera::registry out{};

        for (std::size_t pos{}; pos < million; ++pos) {
            const auto entt = out.create();
            out.emplace<position>(entt, static_cast<float>(pos), 1.f);

            if (pos % 2u == 0u) {
                out.emplace<velocity>(entt, 1.f, 2.f);
            }

            if (pos % 3u == 0u) {
                out.emplace<health>(entt, 100);
            }

            if (pos % 10u == 0u) {
                out.emplace<name>(entt, "unit " + std::to_string(pos));
            }
        }

        return out;
    }();

    return registry;
}

void show(tessera::inspector::service &service) {
    service.component<position>().component<velocity>().component<health>().label<name>();
}

const std::vector<std::string> &targets() {
    static const std::vector<std::string> list{
        "/api/entities?offset=500000&limit=100",
        "/api/entities?with=position&offset=500000&limit=100",
        "/api/entities?with=velocity,health&offset=0&limit=100",
        "/api/entities?with=velocity,health&offset=160000&limit=100",
        "/api/entities/500000",
        "/api/world",
        "/api/pools",
    };
    return list;
}

void BM_inspector_poll_idle(benchmark::State &state) {
    tessera::registry registry{};
    tessera::inspector::server server{registry};

    for (auto _ : state) {
        server.poll();
    }
}

BENCHMARK(BM_inspector_poll_idle);

void BM_inspector_answer(benchmark::State &state) {
    auto &registry = world();
    tessera::inspector::service service{registry, {}};
    show(service);
    tessera::inspector::request req{};
    req.method = "GET";
    req.target = targets()[static_cast<std::size_t>(state.range(0))];
    std::size_t bytes{};

    for (auto _ : state) {
        const auto res = service.handle(req);
        bytes = res.body.size();

        if (res.status != 200) {
            state.SkipWithError(res.body.c_str());
            break;
        }

        benchmark::DoNotOptimize(res.body.data());
    }

    state.SetLabel(req.target + " (" + std::to_string(bytes) + " bytes)");
}

BENCHMARK(BM_inspector_answer)->DenseRange(0, 6)->Unit(benchmark::kMicrosecond);

/// End to end: cpp-httplib's client on the loopback, the server's threads, the queue, poll() on a thread of its own
/// (which owns the registry meanwhile) and the JSON.
void BM_inspector_http(benchmark::State &state) {
    auto &registry = world();
    auto server = std::make_unique<tessera::inspector::server>(registry);
    show(server->service());
    std::atomic<bool> running{true};
    std::thread frames{[&] {
        while (running.load(std::memory_order_relaxed)) {
            server->poll();
            std::this_thread::yield();
        }
    }};
    httplib::Client client{"127.0.0.1", static_cast<int>(server->port())};
    client.set_keep_alive(true);
    const auto &target = targets()[static_cast<std::size_t>(state.range(0))];

    for (auto _ : state) {
        const auto res = client.Get(target);

        if (!res || res->status != 200) {
            state.SkipWithError("the request failed");
            break;
        }

        benchmark::DoNotOptimize(res->body.data());
    }

    state.SetLabel(target);
    running.store(false);
    frames.join();
}

BENCHMARK(BM_inspector_http)->Arg(0)->Arg(1)->Arg(4)->Unit(benchmark::kMicrosecond)->UseRealTime();

/// Two battles of examples/battle.cpp (250,000 units, threaded where oneTBB is found): the second one is served by
/// an inspector (poll() and the systems' times every frame) that nobody connects to.
struct battles {
    battle::simulation plain{250000u, 42u, true};
    battle::simulation served{250000u, 42u, true};
    tessera::inspector::server server{served.world()};

    battles() {
        server.component<battle::position>().component<battle::velocity>().component<battle::health>();
        server.component<battle::weapon>().component<battle::target>().component<battle::projectile>();
        server.label<battle::team>();

        // both past their first frames, where targets are acquired
        for (int frame{}; frame < 20; ++frame) {
            plain.frame();
            served.frame();
        }
    }
};

battles &both() {
    static battles instance{};
    return instance;
}

/// One frame of the served battle: the frame, the systems' times handed to the inspector, poll().
double served_frame(battles &pair) {
    const auto start = std::chrono::steady_clock::now();
    pair.served.frame();
    const auto &system_ms = battle::simulation::system_times();
    const auto &graph = pair.served.schedule();
    auto &timings = pair.server.timings();

    for (std::size_t pos{}; pos < graph.size(); ++pos) {
        timings.record(graph[pos].name(), system_ms[pos]);
    }

    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    timings.end_frame(ms);
    pair.server.poll();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

double plain_frame(battles &pair) {
    const auto start = std::chrono::steady_clock::now();
    pair.plain.frame();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

double quantile(std::vector<double> values, const double where) {
    std::sort(values.begin(), values.end());
    return values[static_cast<std::size_t>(where * static_cast<double>(values.size() - 1u))];
}

/// The same frame of both battles (same seed, same frame number: the same work), one after the other, in turns
/// (the plain one first, then the served one first), so that each pair of frames meets the same machine: the ratio
/// of a pair cancels the drift that makes a battle frame vary by 20% from one second to the next here.
void BM_battle_frame_pairs(benchmark::State &state) {
    auto &pair = both();
    std::vector<double> plain{};
    std::vector<double> served{};
    std::vector<double> ratio{};

    for (auto _ : state) {
        double without{};
        double with{};

        if (plain.size() % 2u == 0u) {
            without = plain_frame(pair);
            with = served_frame(pair);
        } else {
            with = served_frame(pair);
            without = plain_frame(pair);
        }

        plain.push_back(without);
        served.push_back(with);
        ratio.push_back(with / without);
    }

    state.counters["no_server_ms"] = quantile(plain, 0.5);
    state.counters["served_ms"] = quantile(served, 0.5);
    state.counters["ratio_p25"] = quantile(ratio, 0.25);
    state.counters["ratio_median"] = quantile(ratio, 0.5);
    state.counters["ratio_p75"] = quantile(ratio, 0.75);
    state.SetLabel("the same frame with a server nobody connects to / without");
}

BENCHMARK(BM_battle_frame_pairs)->Iterations(100)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
