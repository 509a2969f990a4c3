// Tests of source.hpp: what a source sends its peers (whole states, deltas of creations, destructions, additions,
// changes and removals), the ticks it seals, encodings shared by peers at one baseline, acknowledgments, peers that
// move or outlive their source, and the digest.
#include "replication/world.hpp"
#include <gtest/gtest.h>
#include <tessera/entity/registry.hpp>
#include <tessera/replication/replication.hpp>
#include <utility>
#include <vector>

namespace {
namespace unit_replication_source {

namespace {

using namespace replication_test;

/// A server registry, its source and one unfiltered peer with its mirror, acknowledging every message.
struct link_fixture {
    tessera::registry server{};
    source_type source{server};
    source_type::peer_type peer = source.connect();
    tessera::registry client{};
    mirror_type mirror{client};

    /// Sends the next message, applies it and acknowledges it; returns it.
    tessera::replication::message sync() {
        auto bytes = peer.next();
        EXPECT_TRUE(peer.acknowledge(mirror.apply(bytes)));
        EXPECT_EQ(compare(server, mirror, client, {}), "");
        EXPECT_EQ(mirror.digest(), peer.digest());
        return bytes;
    }

    tessera::entity spawn(const float x = 0.f) {
        const auto entt = server.create();
        server.emplace<replicated>(entt);
        server.emplace<position>(entt, x, 0.f);
        return entt;
    }
};

TEST(source, FirstMessageIsTheWholeState) {
    link_fixture link{};
    const auto first = link.spawn(1.f);
    link.server.emplace<health>(first, 10);
    link.server.emplace<label>(first, "first");
    // not replicated: no marker
    link.server.emplace<position>(link.server.create(), 5.f, 5.f);

    const auto bytes = link.sync();
    EXPECT_TRUE(bytes.full_state());
    EXPECT_EQ(bytes.baseline(), 0u);
    EXPECT_EQ(link.mirror.size(), 1u);
    EXPECT_EQ(link.client.get<label>(link.mirror.map(first)).text, "first");
}

TEST(source, DeltasCarryWhatChanged) {
    link_fixture link{};
    const auto first = link.spawn(1.f);
    const auto second = link.spawn(2.f);
    link.server.emplace<health>(second, 3);
    const auto whole = link.sync();

    // changed, added, removed, created, destroyed
    link.server.patch<position>(first, [](position &pos) { pos.x = 10.f; });
    link.server.emplace<health>(first, 7);
    link.server.erase<health>(second);
    link.server.emplace<frozen>(second);
    const auto third = link.spawn(3.f);
    const auto delta = link.sync();
    EXPECT_FALSE(delta.full_state());
    EXPECT_EQ(delta.baseline(), whole.tick());
    EXPECT_LT(delta.size(), whole.size() + 16u);
    EXPECT_TRUE(link.mirror.contains(third));

    link.server.destroy(first);
    link.server.remove<frozen>(second);
    link.sync();
    EXPECT_FALSE(link.mirror.contains(first));
    EXPECT_EQ(link.mirror.size(), 2u);
}

TEST(source, NothingChangedGivesAnEmptyDelta) {
    link_fixture link{};
    link.spawn();
    link.sync();
    const auto first = link.sync();
    const auto second = link.sync();
    EXPECT_FALSE(second.full_state());
    // header, two empty lists, two empty sections per type
    EXPECT_EQ(second.size(), tessera::internal::replication_header_size + 2u + 2u * 5u);
    EXPECT_TRUE(tessera::internal::tick_later(second.tick(), first.tick()));
}

TEST(source, MarkerDecidesWhatIsReplicated) {
    link_fixture link{};
    const auto entt = link.server.create();
    link.server.emplace<position>(entt, 1.f, 1.f);
    link.sync();
    EXPECT_FALSE(link.mirror.contains(entt));

    // the marker spawns it with every component it has
    link.server.emplace<replicated>(entt);
    link.sync();
    EXPECT_TRUE(link.mirror.contains(entt));

    // removing the marker despawns it; the entity lives on the server
    link.server.remove<replicated>(entt);
    link.server.patch<position>(entt, [](position &pos) { pos.y = 4.f; });
    link.sync();
    EXPECT_FALSE(link.mirror.contains(entt));
    EXPECT_EQ(link.client.storage<tessera::entity>().free_list(), 0u);

    // and back, within one tick: despawned and spawned again
    link.server.emplace<replicated>(entt);
    link.server.remove<replicated>(entt);
    link.server.emplace<replicated>(entt);
    link.sync();
    EXPECT_EQ(link.client.get<position>(link.mirror.map(entt)).y, 4.f);
}

TEST(source, RecycledIdentifiersAreOtherEntities) {
    link_fixture link{};
    const auto old = link.spawn(1.f);
    link.sync();
    const auto old_local = link.mirror.map(old);

    link.server.destroy(old);
    const auto recycled = link.spawn(2.f);
    ASSERT_EQ(tessera::to_entity(recycled), tessera::to_entity(old));
    ASSERT_NE(recycled, old);
    link.sync();
    EXPECT_FALSE(link.mirror.contains(old));
    EXPECT_TRUE(link.mirror.contains(recycled));
    EXPECT_FALSE(link.client.valid(old_local));
}

TEST(source, RemovedAndAddedAgainWithinATick) {
    link_fixture link{};
    const auto entt = link.spawn(1.f);
    link.server.emplace<frozen>(entt);
    link.sync();

    link.server.remove<position>(entt);
    link.server.emplace<position>(entt, 8.f, 8.f);
    link.server.remove<frozen>(entt);
    link.server.emplace<frozen>(entt);
    link.sync();
    EXPECT_EQ(link.client.get<position>(link.mirror.map(entt)).x, 8.f);
    EXPECT_TRUE(link.client.all_of<frozen>(link.mirror.map(entt)));
}

TEST(source, WritesThroughGetNeedModified) {
    link_fixture link{};
    const auto entt = link.spawn(1.f);
    link.server.emplace<health>(entt, 1);
    link.sync();

    // a write that nothing stamps is not seen (docs/change_detection.md)
    link.server.get<health>(entt).value = 5;
    link.peer.acknowledge(link.mirror.apply(link.peer.next()));
    EXPECT_EQ(link.client.get<health>(link.mirror.map(entt)).value, 1);

    link.server.modified<health>(entt);
    link.sync();
    EXPECT_EQ(link.client.get<health>(link.mirror.map(entt)).value, 5);
}

TEST(source, SealsTheTickItSends) {
    tessera::registry server{};
    source_type source{server};
    EXPECT_FALSE(source.tick());
    auto first = source.connect();
    auto second = source.connect();
    const auto before = server.tick();

    // the first message seals the current tick and moves the registry on: later changes are after it
    const auto bytes = first.next();
    EXPECT_EQ(bytes.tick(), before);
    EXPECT_EQ(source.tick(), before);
    EXPECT_EQ(server.tick(), before + 1u);

    // nothing changed since: another peer gets the same state, the same bytes
    const auto same = second.next();
    EXPECT_EQ(same.tick(), before);
    EXPECT_TRUE(same.shares_bytes_with(bytes));
    EXPECT_EQ(source.encodings(), 1u);

    // a peer that has this state gets the next one, even if nothing changed
    const auto again = first.next();
    EXPECT_TRUE(tessera::internal::tick_later(again.tick(), before));

    // a change after the seal makes a new state
    const auto entt = server.create();
    server.emplace<replicated>(entt);
    const auto changed = second.next();
    EXPECT_TRUE(tessera::internal::tick_later(changed.tick(), again.tick()));
}

TEST(source, PeersAtOneBaselineShareAnEncoding) {
    tessera::registry server{};
    source_type source{server};
    std::vector<source_type::peer_type> peers{};

    for (int count{}; count < 8; ++count) {
        peers.push_back(source.connect());
    }

    for (auto &peer : peers) {
        peer.acknowledge(peer.next().tick());
    }

    const auto entt = server.create();
    server.emplace<replicated>(entt);
    server.emplace<position>(entt, 1.f, 2.f);
    std::vector<tessera::tick_type> late(peers.size());

    for (std::size_t pos{}; pos < peers.size(); ++pos) {
        late[pos] = peers[pos].next().tick();
        peers[pos].acknowledge(pos < 4u ? late[pos] : peers[pos].acknowledged().value());
    }

    // 4 peers acknowledged the last tick, 4 the one before: two encodings for the 8 of them
    server.patch<position>(entt, [](position &pos) { pos.x = 3.f; });
    const auto before = source.encodings();
    std::vector<tessera::replication::message> sent{};

    for (auto &peer : peers) {
        sent.push_back(peer.next());
    }

    EXPECT_EQ(source.encodings() - before, 2u);
    EXPECT_TRUE(sent[0].shares_bytes_with(sent[3]));
    EXPECT_TRUE(sent[4].shares_bytes_with(sent[7]));
    EXPECT_FALSE(sent[0].shares_bytes_with(sent[4]));
    EXPECT_NE(sent[0].baseline(), sent[4].baseline());
}

TEST(source, AcknowledgmentsAreChecked) {
    tessera::registry server{};
    source_type source{server};
    auto peer = source.connect();
    // nothing sent yet
    EXPECT_FALSE(peer.acknowledge(server.tick()));
    EXPECT_FALSE(peer.acknowledged());

    const auto first = peer.next();
    // after the last message sent
    EXPECT_FALSE(peer.acknowledge(first.tick() + 1u));
    EXPECT_TRUE(peer.acknowledge(first.tick()));
    EXPECT_EQ(peer.acknowledged(), first.tick());

    const auto second = peer.next();
    EXPECT_TRUE(peer.acknowledge(second.tick()));
    // late: before what it acknowledged
    EXPECT_FALSE(peer.acknowledge(first.tick()));
    EXPECT_EQ(peer.acknowledged(), second.tick());
    // repeated
    EXPECT_TRUE(peer.acknowledge(second.tick()));

    // a peer that says it lost its state gets the whole state
    peer.reset();
    EXPECT_FALSE(peer.acknowledged());
    EXPECT_TRUE(peer.next().full_state());
}

TEST(source, UnacknowledgedPeersGetDeltasAgainstTheSameBaseline) {
    link_fixture link{};
    const auto entt = link.spawn(1.f);
    const auto whole = link.sync();

    // two messages without acknowledgment: both against the whole state, the second covers the first
    link.server.patch<position>(entt, [](position &pos) { pos.x = 2.f; });
    const auto first = link.peer.next();
    link.server.emplace<health>(entt, 4);
    const auto second = link.peer.next();
    EXPECT_EQ(first.baseline(), whole.tick());
    EXPECT_EQ(second.baseline(), whole.tick());

    // the mirror applies both in order, or only the second
    link.mirror.apply(first);
    link.peer.acknowledge(link.mirror.apply(second));
    EXPECT_EQ(compare(link.server, link.mirror, link.client, {}), "");
}

TEST(source, PeersMoveAndOutliveTheirSource) {
    tessera::registry server{};
    auto source = std::make_unique<source_type>(server);
    auto peer = source->connect();
    EXPECT_EQ(source->size(), 1u);

    auto moved = std::move(peer);
    EXPECT_FALSE(peer.connected());
    EXPECT_TRUE(moved.connected());
    EXPECT_EQ(source->size(), 1u);
    EXPECT_THROW(static_cast<void>(peer.next()), tessera_test::assert_failure);

    {
        auto other = source->connect();
        EXPECT_EQ(source->size(), 2u);
        other = std::move(moved);
        EXPECT_EQ(source->size(), 1u);
        EXPECT_TRUE(other.next().full_state());
        source.reset();
        EXPECT_FALSE(other.connected());
        EXPECT_THROW(static_cast<void>(other.next()), tessera_test::assert_failure);
    }
}

TEST(source, DigestFollowsTheState) {
    tessera::registry server{};
    source_type source{server};
    const auto empty = source.digest();
    const auto entt = server.create();
    server.emplace<replicated>(entt);
    const auto bare = source.digest();
    EXPECT_NE(bare, empty);
    server.emplace<health>(entt, 1);
    const auto with_health = source.digest();
    EXPECT_NE(with_health, bare);
    server.patch<health>(entt, [](health &value) { value.value = 2; });
    EXPECT_NE(source.digest(), with_health);
    server.patch<health>(entt, [](health &value) { value.value = 1; });
    EXPECT_EQ(source.digest(), with_health);
    // components of entities that are not replicated do not count
    server.emplace<health>(server.create(), 9);
    EXPECT_EQ(source.digest(), with_health);
}

TEST(source, EntitiesWithoutComponents) {
    tessera::registry server{};
    tessera::replication::source<> source{server};
    auto peer = source.connect();
    const auto entt = server.create();
    server.emplace<replicated>(entt);
    tessera::registry client{};
    tessera::replication::mirror<> mirror{client};
    peer.acknowledge(mirror.apply(peer.next()));
    EXPECT_TRUE(client.valid(mirror.map(entt)));
    server.destroy(entt);
    peer.acknowledge(mirror.apply(peer.next()));
    EXPECT_EQ(mirror.size(), 0u);
    EXPECT_EQ(mirror.digest(), peer.digest());
}

TEST(source, StopsObservingWhenDestroyed) {
    tessera::registry server{};
    {
        source_type source{server};
        auto peer = source.connect();
        static_cast<void>(peer.next());
    }
    // no listener left: changes after the source is gone cost nothing and reach nothing
    EXPECT_TRUE(server.on_construct<replicated>().empty());
    EXPECT_TRUE(server.on_destroy<replicated>().empty());
    EXPECT_TRUE(server.on_destroy<position>().empty());
    EXPECT_TRUE(server.on_construct<frozen>().empty());
    const auto entt = server.create();
    server.emplace<replicated>(entt);
    server.destroy(entt);
}

} // namespace

} // namespace unit_replication_source
} // namespace
