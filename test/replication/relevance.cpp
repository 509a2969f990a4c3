// Tests of relevance (source.hpp, connect(filter)): a filtered peer holds only the replicated entities its filter
// accepts; entities that leave the filter are despawned on it, those that enter are spawned with all their
// components; filtered peers get encodings of their own; what the peer no longer needs is forgotten.
#include "replication/world.hpp"
#include <gtest/gtest.h>
#include <tessera/entity/registry.hpp>
#include <tessera/replication/replication.hpp>
#include <vector>

namespace {
namespace unit_replication_relevance {

namespace {

using namespace replication_test;

/// A peer that sees the entities whose position is left of x = 50.
struct relevance_fixture {
    tessera::registry server{};
    source_type source{server};
    std::function<bool(tessera::entity)> left = [this](const tessera::entity entt) {
        return server.all_of<position>(entt) && server.get<position>(entt).x < 50.f;
    };
    source_type::peer_type peer = source.connect([this](const tessera::entity entt) { return left(entt); });
    tessera::registry client{};
    mirror_type mirror{client};

    tessera::entity spawn(const float x) {
        const auto entt = server.create();
        server.emplace<replicated>(entt);
        server.emplace<position>(entt, x, 0.f);
        return entt;
    }

    void move(const tessera::entity entt, const float x) {
        server.patch<position>(entt, [x](position &pos) { pos.x = x; });
    }

    void sync() {
        ASSERT_TRUE(peer.acknowledge(mirror.apply(peer.next())));
        ASSERT_EQ(compare(server, mirror, client, left), "");
        ASSERT_EQ(mirror.digest(), peer.digest());
    }
};

TEST(relevance, OnlyWhatTheFilterAccepts) {
    relevance_fixture fixture{};
    const auto near = fixture.spawn(10.f);
    const auto far = fixture.spawn(90.f);
    EXPECT_TRUE(fixture.peer.filtered());
    fixture.sync();
    EXPECT_TRUE(fixture.mirror.contains(near));
    EXPECT_FALSE(fixture.mirror.contains(far));
}

TEST(relevance, LeavingDespawnsEnteringSpawns) {
    relevance_fixture fixture{};
    const auto walker = fixture.spawn(10.f);
    fixture.server.emplace<health>(walker, 3);
    fixture.server.emplace<frozen>(walker);
    fixture.sync();
    const auto first_local = fixture.mirror.map(walker);

    fixture.move(walker, 60.f);
    fixture.sync();
    EXPECT_FALSE(fixture.mirror.contains(walker));
    EXPECT_FALSE(fixture.client.valid(first_local));

    // changes while it is away come back with it
    fixture.server.patch<health>(walker, [](health &value) { value.value = 9; });
    fixture.server.remove<frozen>(walker);
    fixture.server.emplace<label>(walker, "back");
    fixture.sync();
    fixture.move(walker, 20.f);
    fixture.sync();
    ASSERT_TRUE(fixture.mirror.contains(walker));
    EXPECT_EQ(fixture.client.get<health>(fixture.mirror.map(walker)).value, 9);
    EXPECT_FALSE(fixture.client.all_of<frozen>(fixture.mirror.map(walker)));
}

TEST(relevance, LeavingAndComingBackBetweenAcknowledgments) {
    relevance_fixture fixture{};
    const auto walker = fixture.spawn(10.f);
    fixture.sync();

    // three messages against the same baseline: away, back, changed; the mirror applies them all, or only the last
    fixture.move(walker, 70.f);
    const auto away = fixture.peer.next();
    fixture.move(walker, 30.f);
    const auto back = fixture.peer.next();
    fixture.server.emplace<health>(walker, 1);
    const auto changed = fixture.peer.next();

    tessera::registry other_client{};
    mirror_type other{other_client};
    fixture.peer.reset();
    // the other mirror starts from the same baseline: a whole state of it would do, applying the same deltas
    fixture.mirror.apply(away);
    EXPECT_FALSE(fixture.mirror.contains(walker));
    fixture.mirror.apply(back);
    fixture.mirror.apply(changed);
    EXPECT_EQ(compare(fixture.server, fixture.mirror, fixture.client, fixture.left), "");
}

TEST(relevance, DestroyedWhileRelevant) {
    relevance_fixture fixture{};
    const auto entt = fixture.spawn(10.f);
    const auto other = fixture.spawn(90.f);
    fixture.sync();
    fixture.server.destroy(entt);
    fixture.server.destroy(other);
    fixture.sync();
    EXPECT_EQ(fixture.mirror.size(), 0u);

    // the index comes back with another version, relevant
    const auto recycled = fixture.spawn(5.f);
    fixture.sync();
    EXPECT_TRUE(fixture.mirror.contains(recycled));
}

TEST(relevance, FilteredPeersEncodeAlone) {
    relevance_fixture fixture{};
    fixture.spawn(10.f);
    auto second = fixture.source.connect([](tessera::entity) { return true; });
    const auto before = fixture.source.encodings();
    const auto first_bytes = fixture.peer.next();
    const auto second_bytes = second.next();
    EXPECT_EQ(fixture.source.encodings() - before, 2u);
    EXPECT_FALSE(first_bytes.shares_bytes_with(second_bytes));
}

TEST(relevance, RecordsAreForgotten) {
    relevance_fixture fixture{};
    std::vector<tessera::entity> crowd{};

    for (int count{}; count < 500; ++count) {
        crowd.push_back(fixture.spawn(10.f));
    }

    fixture.sync();
    const auto crowded = fixture.peer.memory_bytes();

    // everyone leaves and is acknowledged gone: the peer keeps records of none of them
    for (const auto entt : crowd) {
        fixture.move(entt, 90.f);
    }

    fixture.sync();
    fixture.sync();
    EXPECT_LT(fixture.peer.memory_bytes(), crowded);
    EXPECT_EQ(fixture.mirror.size(), 0u);

    // an unfiltered peer keeps a few words
    auto plain = fixture.source.connect();
    EXPECT_LE(plain.memory_bytes(), 8u * sizeof(void *));
}

TEST(relevance, WholeStateOfAFilteredPeer) {
    relevance_fixture fixture{};
    const auto near = fixture.spawn(10.f);
    const auto far = fixture.spawn(90.f);
    fixture.sync();
    fixture.move(near, 80.f);
    fixture.move(far, 20.f);
    fixture.server.destroy(fixture.spawn(30.f));
    fixture.peer.reset();
    const auto whole = fixture.peer.next();
    EXPECT_TRUE(whole.full_state());
    fixture.peer.acknowledge(fixture.mirror.apply(whole));
    EXPECT_EQ(compare(fixture.server, fixture.mirror, fixture.client, fixture.left), "");
    EXPECT_EQ(fixture.mirror.digest(), fixture.peer.digest());
}

} // namespace

} // namespace unit_replication_relevance
} // namespace
