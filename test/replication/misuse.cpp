// Misuse of the replication module that debug builds catch (tests see TESSERA_ASSERT as a throw), and misuse a
// mirror survives. What does not compile is in test/replication_compile_fail.
#include "replication/world.hpp"
#include <gtest/gtest.h>
#include <memory>
#include <tessera/entity/registry.hpp>
#include <tessera/replication/replication.hpp>

namespace {
namespace unit_replication_misuse {

namespace {

using namespace replication_test;

TEST(misuse, WindowOutOfRange) {
    tessera::registry server{};
    EXPECT_THROW((source_type{server, 0u}), tessera_test::assert_failure);
}

TEST(misuse, PeerWithoutSource) {
    tessera::registry server{};
    auto source = std::make_unique<source_type>(server);
    auto peer = source->connect();
    auto other = std::move(peer);
    EXPECT_THROW(static_cast<void>(peer.next()), tessera_test::assert_failure);
    EXPECT_THROW(static_cast<void>(peer.digest()), tessera_test::assert_failure);
    source.reset();
    EXPECT_THROW(static_cast<void>(other.next()), tessera_test::assert_failure);
    // what does not need the source still works
    EXPECT_FALSE(other.acknowledge(1u));
    other.reset();
    EXPECT_FALSE(other.acknowledged());
}

TEST(misuse, MessagesOfAnotherSource) {
    // two servers, one mirror: the second server's state is older than the first's, or a delta against a state the
    // mirror never held; either way it is refused, not mixed in
    tessera::registry first_server{};
    first_server.advance_tick(100u);
    source_type first{first_server};
    auto first_peer = first.connect();
    first_server.emplace<replicated>(first_server.create());

    tessera::registry second_server{};
    source_type second{second_server};
    auto second_peer = second.connect();
    second_server.emplace<replicated>(second_server.create());
    second_peer.acknowledge(second_peer.next().tick());

    tessera::registry client{};
    mirror_type mirror{client};
    mirror.apply(first_peer.next());
    EXPECT_THROW(mirror.apply(second_peer.next()), tessera::replication::error);
    EXPECT_EQ(mirror.size(), 1u);
}

TEST(misuse, ComponentsRemovedBehindTheMirrorsBack) {
    tessera::registry server{};
    source_type source{server};
    auto peer = source.connect();
    const auto entt = server.create();
    server.emplace<replicated>(entt);
    server.emplace<health>(entt, 1);
    tessera::registry client{};
    mirror_type mirror{client};
    peer.acknowledge(mirror.apply(peer.next()));

    // removed on the client: the next value sent adds it again; a removal sent finds nothing to remove
    client.remove<health>(mirror.map(entt));
    server.patch<health>(entt, [](health &value) { value.value = 2; });
    peer.acknowledge(mirror.apply(peer.next()));
    EXPECT_EQ(client.get<health>(mirror.map(entt)).value, 2);
    client.remove<health>(mirror.map(entt));
    server.remove<health>(entt);
    peer.acknowledge(mirror.apply(peer.next()));
    EXPECT_EQ(compare(server, mirror, client, {}), "");
}

TEST(misuse, IndicesBeyondTheLimit) {
    tessera::registry server{};
    source_type source{server};
    auto peer = source.connect();
    server.emplace<replicated>(server.create(tessera::entity{5000u}));
    tessera::registry client{};
    mirror_type mirror{client, 4096u};

    try {
        mirror.apply(peer.next());
        ADD_FAILURE();
    } catch (const tessera::replication::error &error) {
        EXPECT_EQ(error.code(), tessera::replication::errc::corrupt);
    }

    EXPECT_EQ(client.storage<tessera::entity>().free_list(), 0u);
}

} // namespace

} // namespace unit_replication_misuse
} // namespace
