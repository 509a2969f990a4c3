// Tests of source.hpp: what a source sends to its peers (whole states, deltas, shared encodings), the ticks it
// seals, acknowledgments and the history it keeps.
#include <gtest/gtest.h>
#include <tessera/entity/registry.hpp>
#include <tessera/replication/replication.hpp>

namespace {

struct position {
    static constexpr bool track_changes = true;
    float x, y;
};

struct health {
    static constexpr bool track_changes = true;
    int value;
};

struct frozen {};

using source_type = tessera::replication::source<position, health, frozen>;
using mirror_type = tessera::replication::mirror<position, health, frozen>;

TEST(source, FullStateThenDelta) {
    tessera::registry server;
    source_type source{server};
    auto peer = source.connect();

    const auto first = server.create();
    server.emplace<tessera::replication::replicated>(first);
    server.emplace<position>(first, 1.f, 2.f);
    server.emplace<health>(first, 10);

    tessera::registry client;
    mirror_type mirror{client};

    auto bytes = peer.next();
    EXPECT_TRUE(bytes.full_state());
    const auto tick = mirror.apply(bytes);
    EXPECT_TRUE(peer.acknowledge(tick));
    const auto local = mirror.map(first);
    ASSERT_TRUE(client.valid(local));
    EXPECT_EQ(client.get<position>(local).x, 1.f);
    EXPECT_EQ(client.get<health>(local).value, 10);
    EXPECT_EQ(mirror.digest(), peer.digest());

    server.patch<health>(first, [](health &value) { value.value = 7; });
    bytes = peer.next();
    EXPECT_FALSE(bytes.full_state());
    peer.acknowledge(mirror.apply(bytes));
    EXPECT_EQ(client.get<health>(local).value, 7);
    EXPECT_EQ(mirror.digest(), peer.digest());
}

} // namespace
