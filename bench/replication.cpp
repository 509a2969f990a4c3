// Replication (include/tessera/replication/, docs/replication.md) against the snapshot path it replaces: encoding a
// delta against saving the same values with a snapshot (per byte), applying it against a continuous_loader loading
// the same values, the whole state against save/load, and how many encodings 8 peers at 2 baselines cost. 250,000
// replicated entities with a position, a velocity and a health, 5% of them changing per tick (their position, and
// the velocity of half of them). The counters give the sizes (docs/replication.md quotes them).
//
//   build/bench/bench/tessera_bench_replication [google benchmark flags]
#include <tessera/archive/binary.hpp>
#include <tessera/entity/change_filter.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/snapshot.hpp>
#include <tessera/replication/replication.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace {

struct position {
    static constexpr bool track_changes = true;
    float x, y;
};

struct velocity {
    static constexpr bool track_changes = true;
    float dx, dy;
};

struct health {
    static constexpr bool track_changes = true;
    int value;
};

using source_type = tessera::replication::source<position, velocity, health>;
using mirror_type = tessera::replication::mirror<position, velocity, health>;

constexpr std::size_t entity_count = 250'000u;
constexpr std::size_t changed_per_tick = entity_count / 20u;

/// The server's world: every entity replicated; change() moves 5% of them, a different 5% each tick.
class world {
public:
    world() {
        for (std::size_t index{}; index < entity_count; ++index) {
            const auto entt = registry.create();
            registry.emplace<tessera::replication::replicated>(entt);
            registry.emplace<position>(entt, static_cast<float>(index), 0.f);
            registry.emplace<velocity>(entt, 1.f, 0.f);
            registry.emplace<health>(entt, 100);
            entities.push_back(entt);
        }

        // a fixed pseudo-random order, walked 5% at a time
        std::uint64_t state = 7u;

        for (std::size_t pos = entities.size(); pos > 1u; --pos) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            std::swap(entities[pos - 1u], entities[(state >> 33u) % pos]);
        }
    }

    /// Changes the next 5%: positions, and the velocities of every other one, in the order a system walking the
    /// pool changes them. Returns the entities changed, in that order.
    std::vector<tessera::entity> change() {
        std::vector<tessera::entity> changed{};

        for (std::size_t count{}; count < changed_per_tick; ++count, cursor = (cursor + 1u) % entities.size()) {
            changed.push_back(entities[cursor]);
        }

        const auto &pool = registry.storage<position>();
        std::sort(changed.begin(), changed.end(),
                  [&pool](const auto lhs, const auto rhs) { return pool.index(lhs) > pool.index(rhs); });

        for (std::size_t count{}; count < changed.size(); ++count) {
            registry.patch<position>(changed[count], [](position &pos) { pos.x += 1.f; });

            if (count % 2u == 0u) {
                registry.patch<velocity>(changed[count], [](velocity &vel) { vel.dy += 1.f; });
            }
        }

        return changed;
    }

    tessera::registry registry{};
    std::vector<tessera::entity> entities{};
    std::size_t cursor{};
};

void report_bytes(benchmark::State &state, const std::size_t bytes) {
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(bytes));
}

/// The snapshot of the changed values: the range form of get, per type, of the entities that changed.
std::vector<std::byte> save_changed(const tessera::registry &registry, const std::vector<tessera::entity> &changed) {
    std::vector<tessera::entity> halves{};

    for (std::size_t pos{}; pos < changed.size(); pos += 2u) {
        halves.push_back(changed[pos]);
    }

    std::vector<std::byte> bytes{};
    bytes.reserve(changed.size() * 20u);
    tessera::binary_output_archive archive{bytes};
    const tessera::snapshot snapshot{registry};
    snapshot.get<position>(archive.section<position>(), changed.begin(), changed.end());
    snapshot.get<velocity>(archive.section<velocity>(), halves.begin(), halves.end());
    archive.finish();
    return bytes;
}

void encode_delta(benchmark::State &state) {
    world server{};
    source_type source{server.registry};
    auto peer = source.connect();
    peer.acknowledge(peer.next().tick());
    std::size_t size{};
    std::size_t full_size{};

    for (auto _ : state) {
        state.PauseTiming();
        server.change();
        state.ResumeTiming();
        const auto bytes = peer.next();
        benchmark::DoNotOptimize(bytes.data());
        state.PauseTiming();
        size = bytes.size();
        peer.acknowledge(bytes.tick());
        state.ResumeTiming();
    }

    {
        auto fresh = source.connect();
        full_size = fresh.next().size();
    }

    // raw: the bytes of the changed values and of one identifier per value
    const std::size_t values = changed_per_tick + changed_per_tick / 2u;
    const std::size_t raw = changed_per_tick * sizeof(position) + changed_per_tick / 2u * sizeof(velocity) +
                            values * sizeof(tessera::entity);
    report_bytes(state, size);
    state.counters["delta_bytes"] = static_cast<double>(size);
    state.counters["full_bytes"] = static_cast<double>(full_size);
    state.counters["delta_per_full"] = static_cast<double>(size) / static_cast<double>(full_size);
    state.counters["raw_bytes"] = static_cast<double>(raw);
    state.counters["overhead"] = static_cast<double>(size) / static_cast<double>(raw) - 1.;
}

void save_same_values(benchmark::State &state) {
    world server{};
    std::size_t size{};

    for (auto _ : state) {
        // another 5% every time, as a delta has
        state.PauseTiming();
        const auto changed = server.change();
        state.ResumeTiming();
        const auto bytes = save_changed(server.registry, changed);
        size = bytes.size();
        benchmark::DoNotOptimize(bytes.data());
    }

    report_bytes(state, size);
    state.counters["snapshot_bytes"] = static_cast<double>(size);
}

void save_changed_values(benchmark::State &state) {
    // the snapshot path when the changed entities are not known in advance: each_changed finds them (as a delta
    // does), then the range form of get saves them
    world server{};
    std::size_t size{};
    tessera::tick_type since = server.registry.tick();
    std::vector<tessera::entity> moved{};
    std::vector<tessera::entity> steered{};

    for (auto _ : state) {
        state.PauseTiming();
        server.registry.advance_tick();
        server.change();
        state.ResumeTiming();
        moved.clear();
        steered.clear();
        tessera::each_changed<position>(
            server.registry.view<const position>(), since,
            [&moved](const tessera::entity entt, const position &) { moved.push_back(entt); });
        tessera::each_changed<velocity>(
            server.registry.view<const velocity>(), since,
            [&steered](const tessera::entity entt, const velocity &) { steered.push_back(entt); });
        std::vector<std::byte> bytes{};
        bytes.reserve(moved.size() * 20u);
        tessera::binary_output_archive archive{bytes};
        const tessera::snapshot snapshot{server.registry};
        snapshot.get<position>(archive.section<position>(), moved.begin(), moved.end());
        snapshot.get<velocity>(archive.section<velocity>(), steered.begin(), steered.end());
        archive.finish();
        size = bytes.size();
        benchmark::DoNotOptimize(bytes.data());
        state.PauseTiming();
        since = server.registry.tick();
        state.ResumeTiming();
    }

    report_bytes(state, size);
}

/// A chain of deltas, each against the state the previous one brings, and the whole state they start from.
struct delta_chain {
    std::vector<tessera::replication::message> deltas{};
    tessera::replication::message start{};
};

delta_chain make_chain(const std::size_t length) {
    world server{};
    source_type source{server.registry};
    auto peer = source.connect();
    delta_chain chain{};
    chain.start = peer.next();
    peer.acknowledge(chain.start.tick());

    for (std::size_t count{}; count < length; ++count) {
        server.change();
        chain.deltas.push_back(peer.next());
        peer.acknowledge(chain.deltas.back().tick());
    }

    return chain;
}

void apply_delta(benchmark::State &state) {
    const auto chain = make_chain(32u);
    auto client = std::make_unique<tessera::registry>();
    auto mirror = std::make_unique<mirror_type>(*client);
    mirror->apply(chain.start);
    std::size_t next{};

    for (auto _ : state) {
        if (next == chain.deltas.size()) {
            state.PauseTiming();
            mirror.reset();
            client = std::make_unique<tessera::registry>();
            mirror = std::make_unique<mirror_type>(*client);
            mirror->apply(chain.start);
            next = 0u;
            state.ResumeTiming();
        }

        benchmark::DoNotOptimize(mirror->apply(chain.deltas[next++]));
    }

    report_bytes(state, chain.deltas.front().size());
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                            static_cast<std::int64_t>(changed_per_tick + changed_per_tick / 2u));
}

void load_same_values(benchmark::State &state) {
    // the continuous loader of a client that mirrors the whole world loads the changed values; it first removes the
    // type from every entity it maps (it loads whole pools), so the whole pools are loaded again between two runs
    world server{};
    const auto whole = tessera::save<position, velocity, health>(server.registry);
    tessera::registry client{};
    tessera::continuous_loader loader{client};
    const auto load_whole = [&] {
        tessera::binary_input_archive archive{whole};
        loader.get<tessera::entity>(archive.section<tessera::entity>())
            .get<position>(archive.section<position>())
            .get<velocity>(archive.section<velocity>())
            .get<health>(archive.section<health>());
    };
    load_whole();
    std::size_t size{};

    for (auto _ : state) {
        state.PauseTiming();
        load_whole();
        const auto bytes = save_changed(server.registry, server.change());
        size = bytes.size();
        state.ResumeTiming();
        tessera::binary_input_archive archive{bytes};
        loader.get<position>(archive.section<position>()).get<velocity>(archive.section<velocity>());
        benchmark::ClobberMemory();
    }

    report_bytes(state, size);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                            static_cast<std::int64_t>(changed_per_tick + changed_per_tick / 2u));
}

void load_same_values_alone(benchmark::State &state) {
    // the best case of the continuous loader: a registry holding only the changed entities and values, loaded
    // again and again into a mirror of just those (its few pages stay in the cache)
    world server{};
    const auto changed = server.change();
    tessera::registry values{};

    for (std::size_t pos{}; pos < changed.size(); ++pos) {
        const auto entt = values.create();
        values.emplace<position>(entt, server.registry.get<position>(changed[pos]));

        if (pos % 2u == 0u) {
            values.emplace<velocity>(entt, server.registry.get<velocity>(changed[pos]));
        }
    }

    const auto bytes = tessera::save<position, velocity>(values);
    tessera::registry client{};
    tessera::continuous_loader loader{client};
    const auto load = [&] {
        tessera::binary_input_archive archive{bytes};
        loader.get<tessera::entity>(archive.section<tessera::entity>())
            .get<position>(archive.section<position>())
            .get<velocity>(archive.section<velocity>());
    };
    load();

    for (auto _ : state) {
        load();
        benchmark::ClobberMemory();
    }

    report_bytes(state, bytes.size());
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                            static_cast<std::int64_t>(changed_per_tick + changed_per_tick / 2u));
}

void encode_full(benchmark::State &state) {
    world server{};
    source_type source{server.registry};
    std::size_t size{};

    for (auto _ : state) {
        auto peer = source.connect();
        const auto bytes = peer.next();
        size = bytes.size();
        benchmark::DoNotOptimize(bytes.data());
        // the next peer must not get the cached encoding
        state.PauseTiming();
        server.registry.patch<health>(server.entities.front(), [](health &hp) { --hp.value; });
        state.ResumeTiming();
    }

    report_bytes(state, size);
}

void save_full(benchmark::State &state) {
    // the values a whole state carries: the identifiers and the three pools (the marker does not travel: a mirror
    // does not get it, and a snapshot of it would be one more list of identifiers to write)
    world server{};
    std::size_t size{};

    for (auto _ : state) {
        const auto bytes = tessera::save<position, velocity, health>(server.registry);
        size = bytes.size();
        benchmark::DoNotOptimize(bytes.data());
    }

    report_bytes(state, size);
}

void apply_full(benchmark::State &state) {
    world server{};
    source_type source{server.registry};
    auto peer = source.connect();
    const auto bytes = peer.next();

    for (auto _ : state) {
        state.PauseTiming();
        auto client = std::make_unique<tessera::registry>();
        auto mirror = std::make_unique<mirror_type>(*client);
        state.ResumeTiming();
        benchmark::DoNotOptimize(mirror->apply(bytes));
        state.PauseTiming();
        mirror.reset();
        client.reset();
        state.ResumeTiming();
    }

    report_bytes(state, bytes.size());
}

void load_full(benchmark::State &state) {
    world server{};
    const auto bytes = tessera::save<position, velocity, health>(server.registry);

    for (auto _ : state) {
        state.PauseTiming();
        auto client = std::make_unique<tessera::registry>();
        std::optional<tessera::continuous_loader> loader{};
        loader.emplace(*client);
        state.ResumeTiming();
        tessera::binary_input_archive archive{bytes};
        loader->get<tessera::entity>(archive.section<tessera::entity>())
            .get<position>(archive.section<position>())
            .get<velocity>(archive.section<velocity>())
            .get<health>(archive.section<health>());
        state.PauseTiming();
        loader.reset();
        client.reset();
        state.ResumeTiming();
    }

    report_bytes(state, bytes.size());
}

/// 8 peers, 4 acknowledged at one tick and 4 at another: the source encodes twice per tick, not 8 times.
void shared_baselines(benchmark::State &state) {
    world server{};
    source_type source{server.registry};
    std::vector<source_type::peer_type> peers{};

    for (std::size_t count{}; count < 8u; ++count) {
        peers.push_back(source.connect());
    }

    // every peer holds the state; the first half acknowledges each message at once, the second one tick late
    std::vector<tessera::tick_type> late(peers.size());

    for (std::size_t pos{}; pos < peers.size(); ++pos) {
        late[pos] = peers[pos].next().tick();
        peers[pos].acknowledge(late[pos]);
    }

    std::size_t encodings{};

    for (auto _ : state) {
        state.PauseTiming();
        server.change();
        const auto before = source.encodings();
        state.ResumeTiming();

        for (std::size_t pos{}; pos < peers.size(); ++pos) {
            const auto bytes = peers[pos].next();
            benchmark::DoNotOptimize(bytes.data());
            peers[pos].acknowledge(pos < 4u ? bytes.tick() : std::exchange(late[pos], bytes.tick()));
        }

        state.PauseTiming();
        encodings += source.encodings() - before;
        state.ResumeTiming();
    }

    state.counters["encodings_per_tick"] = static_cast<double>(encodings) / static_cast<double>(state.iterations());
}

BENCHMARK(encode_delta)->Name("replication/encode_delta")->Unit(benchmark::kMicrosecond);
BENCHMARK(save_same_values)->Name("snapshot/save_same_values")->Unit(benchmark::kMicrosecond);
BENCHMARK(save_changed_values)->Name("snapshot/save_changed_values")->Unit(benchmark::kMicrosecond);
BENCHMARK(apply_delta)->Name("replication/apply_delta")->Unit(benchmark::kMicrosecond);
BENCHMARK(load_same_values)->Name("continuous_loader/load_same_values")->Unit(benchmark::kMicrosecond);
BENCHMARK(load_same_values_alone)->Name("continuous_loader/load_same_values_alone")->Unit(benchmark::kMicrosecond);
BENCHMARK(encode_full)->Name("replication/encode_full")->Unit(benchmark::kMillisecond);
BENCHMARK(save_full)->Name("snapshot/save_full")->Unit(benchmark::kMillisecond);
BENCHMARK(apply_full)->Name("replication/apply_full")->Unit(benchmark::kMillisecond);
BENCHMARK(load_full)->Name("continuous_loader/load_full")->Unit(benchmark::kMillisecond);
BENCHMARK(shared_baselines)->Name("replication/8_peers_2_baselines")->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
