// The server world of the replication fuzz target (fuzz_replication.cpp): a few entities with every kind of
// replicated value, the whole state a mirror starts from, and the deltas after it that corpus_generator writes as
// seeds. Deterministic, so that the seeds are deltas against the fuzzer's own starting state.
#ifndef TESSERA_TEST_FUZZ_REPLICATION_SEED_HPP
#define TESSERA_TEST_FUZZ_REPLICATION_SEED_HPP

#include "replication/world.hpp"
#include <cstddef>
#include <vector>

namespace tessera_fuzz {

/// A small server and the whole state of it that a fuzzed mirror holds before the input.
struct replication_seed {
    tessera::registry server{};
    replication_test::source_type source{server};
    replication_test::source_type::peer_type peer{source.connect()};
    std::vector<std::byte> whole{};
    std::vector<tessera::entity> units{};

    replication_seed() {
        using namespace replication_test;
        tessera::entity previous{tessera::null};

        for (int count = 0; count < 6; ++count) {
            const auto entt = server.create();
            server.emplace<replicated>(entt);
            server.emplace<position>(entt, float(count), 1.f);
            server.emplace<health>(entt, count);

            if (count % 2 == 0) {
                server.emplace<frozen>(entt);
                server.emplace<label>(entt, "unit");
            }

            if (previous != tessera::null) {
                server.emplace<anchor>(entt, previous, count);
            }

            previous = entt;
            units.push_back(entt);
        }

        const auto message = peer.next();
        whole.assign(message.data(), message.data() + message.size());
        peer.acknowledge(message.tick());
    }

    /// Deltas against the whole state: a change of every kind (a value, a removal, an archived value, a spawn with
    /// an identifier inside a value, a despawn), then one more change on top.
    std::vector<tessera::replication::message> deltas() {
        using namespace replication_test;
        std::vector<tessera::replication::message> out{};
        const auto first = units.front();
        server.patch<position>(first, [](position &pos) { pos.x = 9.f; });
        server.remove<frozen>(first);
        server.emplace_or_replace<label>(first, "renamed");
        const auto fresh = server.create();
        server.emplace<replicated>(fresh);
        server.emplace<anchor>(fresh, first, 3);
        server.destroy(units.back());
        out.push_back(peer.next());
        server.patch<health>(first, [](health &hp) { ++hp.value; });
        out.push_back(peer.next());
        return out;
    }
};

} // namespace tessera_fuzz

#endif
