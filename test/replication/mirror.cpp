// Tests of mirror.hpp: what a mirror makes of the messages it applies (local entities and their map both ways, whole
// states that replace, deltas against older baselines), what it leaves alone (the client's own entities), what it
// does when its entities are destroyed behind its back, reset, tick and the digest.
#include "replication/world.hpp"
#include <gtest/gtest.h>
#include <tessera/entity/registry.hpp>
#include <tessera/replication/replication.hpp>
#include <vector>

namespace {
namespace unit_replication_mirror {

namespace {

using namespace replication_test;

struct mirror_fixture {
    tessera::registry server{};
    source_type source{server};
    source_type::peer_type peer = source.connect();
    tessera::registry client{};
    mirror_type mirror{client};

    tessera::entity spawn(const float x) {
        const auto entt = server.create();
        server.emplace<replicated>(entt);
        server.emplace<position>(entt, x, 0.f);
        return entt;
    }

    void sync() {
        ASSERT_TRUE(peer.acknowledge(mirror.apply(peer.next())));
        ASSERT_EQ(compare(server, mirror, client, {}), "");
    }
};

TEST(mirror, ApplyReturnsTheTickToAcknowledge) {
    mirror_fixture fixture{};
    EXPECT_FALSE(fixture.mirror.tick());
    fixture.spawn(1.f);
    const auto bytes = fixture.peer.next();
    EXPECT_EQ(fixture.mirror.apply(bytes), bytes.tick());
    EXPECT_EQ(fixture.mirror.tick(), bytes.tick());
}

TEST(mirror, MapsBothWays) {
    mirror_fixture fixture{};
    const auto first = fixture.spawn(1.f);
    const auto second = fixture.spawn(2.f);
    fixture.sync();

    const auto local = fixture.mirror.map(first);
    EXPECT_TRUE(fixture.client.valid(local));
    EXPECT_TRUE(fixture.mirror.contains(first));
    EXPECT_EQ(fixture.mirror.remote(local), first);
    EXPECT_NE(fixture.mirror.map(second), local);
    EXPECT_EQ(fixture.mirror.size(), 2u);

    // other versions, null and entities of the client are not mapped
    const auto stale = tessera::entt_traits<tessera::entity>::next(first);
    EXPECT_FALSE(fixture.mirror.contains(stale));
    EXPECT_EQ(fixture.mirror.map(stale), tessera::entity{tessera::null});
    EXPECT_EQ(fixture.mirror.map(tessera::null), tessera::entity{tessera::null});
    EXPECT_FALSE(fixture.mirror.contains(tessera::null));
    EXPECT_EQ(fixture.mirror.remote(tessera::null), tessera::entity{tessera::null});
    EXPECT_EQ(fixture.mirror.remote(fixture.client.create()), tessera::entity{tessera::null});
}

TEST(mirror, LeavesTheClientsOwnEntitiesAlone) {
    mirror_fixture fixture{};
    const auto own = fixture.client.create();
    fixture.client.emplace<position>(own, 9.f, 9.f);
    const auto entt = fixture.spawn(1.f);
    ASSERT_TRUE(fixture.peer.acknowledge(fixture.mirror.apply(fixture.peer.next())));

    fixture.server.destroy(entt);
    fixture.peer.acknowledge(fixture.mirror.apply(fixture.peer.next()));
    EXPECT_TRUE(fixture.client.valid(own));
    EXPECT_EQ(fixture.client.get<position>(own).x, 9.f);

    // a whole state does not touch them either
    fixture.spawn(2.f);
    fixture.peer.reset();
    fixture.mirror.apply(fixture.peer.next());
    EXPECT_TRUE(fixture.client.valid(own));
    EXPECT_EQ(fixture.client.get<position>(own).x, 9.f);
    EXPECT_EQ(fixture.mirror.size(), 1u);
}

TEST(mirror, WholeStateReplacesWhatItHolds) {
    mirror_fixture fixture{};
    const auto kept = fixture.spawn(1.f);
    const auto gone = fixture.spawn(2.f);
    fixture.server.emplace<health>(kept, 5);
    fixture.server.emplace<frozen>(kept);
    fixture.sync();
    const auto kept_local = fixture.mirror.map(kept);

    // the peer falls behind; the server changes; a whole state brings the mirror there
    fixture.server.destroy(gone);
    fixture.server.remove<health>(kept);
    fixture.server.remove<frozen>(kept);
    fixture.server.emplace<label>(kept, "new");
    const auto added = fixture.spawn(3.f);
    fixture.peer.reset();
    const auto whole = fixture.peer.next();
    ASSERT_TRUE(whole.full_state());
    fixture.peer.acknowledge(fixture.mirror.apply(whole));
    EXPECT_EQ(compare(fixture.server, fixture.mirror, fixture.client, {}), "");
    // what it kept keeps its local identifier
    EXPECT_EQ(fixture.mirror.map(kept), kept_local);
    EXPECT_TRUE(fixture.mirror.contains(added));
}

TEST(mirror, WholeStatesWhosePoolsFollowTheSpawnsOrNot) {
    // a section that lists the spawned entities in their order (pools in the marker's order) is read through the
    // spawn list; one in another order is read identifier by identifier: both give the same state
    mirror_fixture fixture{};
    std::vector<tessera::entity> entities{};

    for (int count{}; count < 300; ++count) {
        entities.push_back(fixture.spawn(static_cast<float>(count)));
        fixture.server.emplace<health>(entities.back(), count);
    }

    fixture.sync();
    const auto local = fixture.mirror.map(entities[7]);

    // health in another order, position still in the spawns' one; into a fresh mirror and into this one
    fixture.server.sort<health>([](const health &lhs, const health &rhs) { return lhs.value > rhs.value; });
    fixture.server.patch<position>(entities[7], [](position &pos) { pos.y = 5.f; });
    fixture.peer.reset();
    const auto whole = fixture.peer.next();
    ASSERT_TRUE(whole.full_state());
    tessera::registry other{};
    mirror_type fresh{other};
    fresh.apply(whole);
    EXPECT_EQ(compare(fixture.server, fresh, other, {}), "");
    fixture.peer.acknowledge(fixture.mirror.apply(whole));
    EXPECT_EQ(compare(fixture.server, fixture.mirror, fixture.client, {}), "");
    EXPECT_EQ(fixture.mirror.map(entities[7]), local);
    EXPECT_EQ(fresh.digest(), fixture.mirror.digest());
}

TEST(mirror, AcceptsDeltasAgainstAnOlderBaseline) {
    mirror_fixture fixture{};
    const auto entt = fixture.spawn(1.f);
    fixture.sync();

    // messages sent before the acknowledgment arrives are all against the last acknowledged state
    std::vector<tessera::replication::message> sent{};

    for (int step{}; step < 4; ++step) {
        fixture.server.patch<position>(entt, [step](position &pos) { pos.x = static_cast<float>(step); });
        fixture.spawn(static_cast<float>(10 + step));
        sent.push_back(fixture.peer.next());
    }

    for (const auto &bytes : sent) {
        fixture.mirror.apply(bytes);
    }

    EXPECT_EQ(compare(fixture.server, fixture.mirror, fixture.client, {}), "");
}

TEST(mirror, RecreatesEntitiesDestroyedBehindItsBack) {
    mirror_fixture fixture{};
    const auto entt = fixture.spawn(1.f);
    fixture.server.emplace<health>(entt, 1);
    fixture.sync();

    // a misuse the mirror survives: the next value it sends recreates the entity, with what that message holds
    fixture.client.destroy(fixture.mirror.map(entt));
    EXPECT_EQ(fixture.mirror.map(entt), tessera::entity{tessera::null});
    fixture.server.patch<health>(entt, [](health &value) { value.value = 2; });
    fixture.peer.acknowledge(fixture.mirror.apply(fixture.peer.next()));
    const auto local = fixture.mirror.map(entt);
    ASSERT_TRUE(fixture.client.valid(local));
    EXPECT_EQ(fixture.client.get<health>(local).value, 2);
    EXPECT_FALSE(fixture.client.all_of<position>(local));

    // a whole state restores everything
    fixture.peer.reset();
    fixture.sync();
}

TEST(mirror, ResetDestroysWhatItMirrors) {
    mirror_fixture fixture{};
    fixture.spawn(1.f);
    fixture.spawn(2.f);
    fixture.sync();
    const auto own = fixture.client.create();
    ASSERT_EQ(fixture.client.storage<tessera::entity>().free_list(), 3u);

    fixture.mirror.reset();
    EXPECT_EQ(fixture.mirror.size(), 0u);
    EXPECT_FALSE(fixture.mirror.tick());
    EXPECT_EQ(fixture.client.storage<tessera::entity>().free_list(), 1u);
    EXPECT_TRUE(fixture.client.valid(own));

    // after a reset, a delta is refused and a whole state of any tick is accepted
    fixture.spawn(3.f);
    EXPECT_THROW(fixture.mirror.apply(fixture.peer.next()), tessera::replication::error);
    fixture.peer.reset();
    fixture.peer.acknowledge(fixture.mirror.apply(fixture.peer.next()));
    EXPECT_EQ(fixture.mirror.size(), 3u);
}

TEST(mirror, ASourceThatStartsAgain) {
    tessera::registry client{};
    mirror_type mirror{client};
    tessera::tick_type last{};

    for (int run{}; run < 2; ++run) {
        tessera::registry server{};
        server.emplace<replicated>(server.create());
        source_type source{server};
        auto peer = source.connect();

        if (run == 1) {
            // a new source starts at the registry's first tick: the mirror takes it as a replay until reset
            EXPECT_THROW(mirror.apply(peer.next()), tessera::replication::error);
            mirror.reset();
            peer.reset();
        }

        last = mirror.apply(peer.next());
        EXPECT_EQ(mirror.size(), 1u);
    }

    EXPECT_EQ(mirror.tick(), last);
}

TEST(mirror, DigestMatchesTheSource) {
    mirror_fixture fixture{};
    tessera::registry empty{};
    mirror_type blank{empty};
    const auto entt = fixture.spawn(1.f);
    fixture.server.emplace<label>(entt, "x");
    fixture.server.emplace<anchor>(entt, entt, 1);
    fixture.sync();
    EXPECT_EQ(fixture.mirror.digest(), fixture.source.digest());
    EXPECT_NE(fixture.mirror.digest(), blank.digest());

    // a value changed on the client only shows
    fixture.client.get<label>(fixture.mirror.map(entt)).text = "y";
    EXPECT_NE(fixture.mirror.digest(), fixture.source.digest());
}

TEST(mirror, MemoryIsReported) {
    mirror_fixture fixture{};
    const auto before = fixture.mirror.memory_bytes();

    for (int count{}; count < 100; ++count) {
        fixture.server.emplace<anchor>(fixture.spawn(1.f), tessera::entity{tessera::null}, count);
    }

    fixture.sync();
    EXPECT_GT(fixture.mirror.memory_bytes(), before);
    EXPECT_GT(fixture.source.memory_bytes(), 0u);
    EXPECT_GT(fixture.peer.memory_bytes(), 0u);
}

} // namespace

} // namespace unit_replication_mirror
} // namespace
