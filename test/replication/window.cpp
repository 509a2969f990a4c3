// Tests of the window (source.hpp): the history a source keeps covers a window of ticks; a peer whose acknowledged
// tick is older gets the whole state again; what the window holds is bounded and reported.
#include "replication/world.hpp"
#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <tessera/entity/memory_report.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/replication/replication.hpp>

namespace {
namespace unit_replication_window {

namespace {

using namespace replication_test;

TEST(window, DefaultAndGiven) {
    tessera::registry server{};
    source_type plain{server};
    EXPECT_EQ(plain.window(), source_type::default_window);
    source_type small{server, 3u};
    EXPECT_EQ(small.window(), 3u);
    EXPECT_THROW((source_type{server, 0u}), tessera_test::assert_failure);
    EXPECT_THROW((source_type{server, tessera::tick_clamp_period + 1u}), tessera_test::assert_failure);
}

TEST(window, SilentPeersGetTheWholeStateAgain) {
    tessera::registry server{};
    source_type source{server, 4u};
    auto peer = source.connect();
    tessera::registry client{};
    mirror_type mirror{client};
    const auto entt = server.create();
    server.emplace<replicated>(entt);
    server.emplace<health>(entt, 0);
    peer.acknowledge(mirror.apply(peer.next()));

    // a peer that stops acknowledging gets deltas against its last acknowledged tick while the window covers it
    int step{};

    for (; step < 4; ++step) {
        server.patch<health>(entt, [step](health &value) { value.value = step; });
        const auto bytes = peer.next();
        EXPECT_FALSE(bytes.full_state()) << step;
        mirror.apply(bytes);
    }

    // then the whole state
    server.patch<health>(entt, [](health &value) { value.value = 100; });
    const auto whole = peer.next();
    EXPECT_TRUE(whole.full_state());
    peer.acknowledge(mirror.apply(whole));
    EXPECT_EQ(compare(server, mirror, client, {}), "");

    // and deltas again once it acknowledges
    server.patch<health>(entt, [](health &value) { value.value = 101; });
    EXPECT_FALSE(peer.next().full_state());
}

TEST(window, HistoryIsBounded) {
    tessera::registry server{};
    source_type source{server, 8u};
    auto peer = source.connect();
    std::size_t most{};

    for (int step{}; step < 200; ++step) {
        // churn: every tick creates and destroys replicated entities
        const auto entt = server.create();
        server.emplace<replicated>(entt);
        server.emplace<health>(entt, step);
        server.destroy(entt);
        peer.acknowledge(peer.next().tick());
        most = std::max(most, source.history_size());
    }

    // two records per tick (a spawn, a despawn) and a removal, for 8 ticks
    EXPECT_LE(most, 3u * 9u);
    EXPECT_LE(source.memory_bytes(), 64u * 1024u);
}

TEST(window, TheMemoryReportShowsTheSourceAndTheMirror) {
    tessera::registry server{};
    const auto without = server.memory_report();
    EXPECT_TRUE(without.others.empty());

    auto source = std::make_unique<source_type>(server, 8u);
    auto peer = source->connect();

    for (int step{}; step < 20; ++step) {
        const auto entt = server.create();
        server.emplace<replicated>(entt);
        server.emplace<health>(entt, step);
        peer.acknowledge(peer.next().tick());
    }

    const auto report = server.memory_report();
    ASSERT_EQ(report.others.size(), 1u);
    EXPECT_EQ(report.others[0].name, "replication source");
    EXPECT_EQ(report.others[0].bytes, source->memory_bytes());
    EXPECT_GT(report.others[0].bytes, 0u);
    EXPECT_NE(report.to_string().find("replication source"), std::string::npos);

    // two sources on one registry are two rows; a destroyed one leaves the report
    {
        source_type other{server};
        EXPECT_EQ(server.memory_report().others.size(), 2u);
    }

    ASSERT_EQ(server.memory_report().others.size(), 1u);

    tessera::registry client{};
    {
        mirror_type mirror{client};
        const auto bytes = source->connect().next();
        mirror.apply(bytes);
        const auto mirrored = client.memory_report();
        ASSERT_EQ(mirrored.others.size(), 1u);
        EXPECT_EQ(mirrored.others[0].name, "replication mirror");
        EXPECT_EQ(mirrored.others[0].bytes, mirror.memory_bytes());
    }

    EXPECT_TRUE(client.memory_report().others.empty());
    source.reset();
    EXPECT_TRUE(server.memory_report().others.empty());
}

TEST(window, AdvancesOfTheRegistryCount) {
    // the window counts the registry's ticks: a program that advances it many times between messages shrinks the
    // window in messages
    tessera::registry server{};
    source_type source{server, 10u};
    auto peer = source.connect();
    peer.acknowledge(peer.next().tick());
    server.advance_tick(5u);
    EXPECT_FALSE(peer.next().full_state());
    server.advance_tick(20u);
    EXPECT_TRUE(peer.next().full_state());
}

} // namespace

} // namespace unit_replication_window
} // namespace
