// Tests of the signals a mirror fires (mirror.hpp, apply): applying goes through the registry's usual calls, so
// on_construct, on_update and on_destroy fire for the components and entities the messages create, change and
// remove, in the documented order; a listener that throws leaves the mirror without a state.
#include "replication/world.hpp"
#include <algorithm>
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <tessera/entity/registry.hpp>
#include <tessera/replication/replication.hpp>
#include <vector>

namespace {
namespace unit_replication_signals {

namespace {

using namespace replication_test;

/// Records the signals of the client registry.
struct recorder {
    std::vector<std::string> events{};

    void created(tessera::registry &, tessera::entity) { events.emplace_back("create"); }
    void destroyed(tessera::registry &, tessera::entity) { events.emplace_back("destroy"); }
    void position_added(tessera::registry &, tessera::entity) { events.emplace_back("+position"); }
    void position_changed(tessera::registry &, tessera::entity) { events.emplace_back("~position"); }
    void position_removed(tessera::registry &, tessera::entity) { events.emplace_back("-position"); }
    void frozen_added(tessera::registry &, tessera::entity) { events.emplace_back("+frozen"); }
    void frozen_removed(tessera::registry &, tessera::entity) { events.emplace_back("-frozen"); }
};

struct signal_fixture {
    tessera::registry server{};
    source_type source{server};
    source_type::peer_type peer = source.connect();
    tessera::registry client{};
    mirror_type mirror{client};
    recorder seen{};

    signal_fixture() {
        client.on_construct<tessera::entity>().connect<&recorder::created>(seen);
        client.on_destroy<tessera::entity>().connect<&recorder::destroyed>(seen);
        client.on_construct<position>().connect<&recorder::position_added>(seen);
        client.on_update<position>().connect<&recorder::position_changed>(seen);
        client.on_destroy<position>().connect<&recorder::position_removed>(seen);
        client.on_construct<frozen>().connect<&recorder::frozen_added>(seen);
        client.on_destroy<frozen>().connect<&recorder::frozen_removed>(seen);
    }

    std::vector<std::string> sync() {
        seen.events.clear();
        peer.acknowledge(mirror.apply(peer.next()));
        return seen.events;
    }
};

TEST(signals, SpawnsCreateAndConstruct) {
    signal_fixture fixture{};
    const auto entt = fixture.server.create();
    fixture.server.emplace<replicated>(entt);
    fixture.server.emplace<position>(entt, 1.f, 1.f);
    fixture.server.emplace<frozen>(entt);
    EXPECT_EQ(fixture.sync(), (std::vector<std::string>{"create", "+position", "+frozen"}));

    // a change fires update; a removal destroy; an addition construct
    fixture.server.patch<position>(entt, [](position &pos) { pos.x = 2.f; });
    fixture.server.remove<frozen>(entt);
    EXPECT_EQ(fixture.sync(), (std::vector<std::string>{"~position", "-frozen"}));
    fixture.server.emplace<frozen>(entt);
    EXPECT_EQ(fixture.sync(), (std::vector<std::string>{"+frozen"}));

    // nothing changed: nothing fires
    EXPECT_TRUE(fixture.sync().empty());

    // a despawn destroys the entity: its components first (in the registry's order of pools), then the entity
    fixture.server.remove<replicated>(entt);
    auto despawned = fixture.sync();
    ASSERT_EQ(despawned.size(), 3u);
    EXPECT_EQ(despawned.back(), "destroy");
    std::sort(despawned.begin(), despawned.end() - 1);
    EXPECT_EQ(despawned, (std::vector<std::string>{"-frozen", "-position", "destroy"}));
}

TEST(signals, DespawnsBeforeSpawns) {
    signal_fixture fixture{};
    const auto old = fixture.server.create();
    fixture.server.emplace<replicated>(old);
    fixture.sync();
    fixture.server.destroy(old);
    const auto made = fixture.server.create();
    fixture.server.emplace<replicated>(made);
    fixture.server.emplace<position>(made, 1.f, 1.f);
    EXPECT_EQ(fixture.sync(), (std::vector<std::string>{"destroy", "create", "+position"}));
}

TEST(signals, ListenersSeeTheMapping) {
    signal_fixture fixture{};
    tessera::entity seen_remote{tessera::null};
    struct reader {
        mirror_type *mirror;
        tessera::entity *out;
        void on_position(tessera::registry &, const tessera::entity local) { *out = mirror->remote(local); }
    } probe{&fixture.mirror, &seen_remote};
    fixture.client.on_construct<position>().connect<&reader::on_position>(probe);
    const auto entt = fixture.server.create();
    fixture.server.emplace<replicated>(entt);
    fixture.server.emplace<position>(entt, 1.f, 1.f);
    fixture.sync();
    EXPECT_EQ(seen_remote, entt);
}

struct thrower {
    static void fail(tessera::registry &, tessera::entity) { throw std::runtime_error{"listener"}; }
};

TEST(signals, AThrowingListenerLeavesNoState) {
    signal_fixture fixture{};
    const auto entt = fixture.server.create();
    fixture.server.emplace<replicated>(entt);
    fixture.sync();

    fixture.client.on_construct<position>().connect<&thrower::fail>();
    fixture.server.emplace<position>(entt, 1.f, 1.f);
    EXPECT_THROW(fixture.mirror.apply(fixture.peer.next()), std::runtime_error);
    EXPECT_FALSE(fixture.mirror.tick());

    // deltas are refused until a whole state arrives
    fixture.client.on_construct<position>().disconnect<&thrower::fail>();
    fixture.server.patch<position>(entt, [](position &pos) { pos.x = 3.f; });
    EXPECT_THROW(fixture.mirror.apply(fixture.peer.next()), tessera::replication::error);
    fixture.peer.reset();
    fixture.peer.acknowledge(fixture.mirror.apply(fixture.peer.next()));
    EXPECT_EQ(compare(fixture.server, fixture.mirror, fixture.client, {}), "");
}

} // namespace

} // namespace unit_replication_signals
} // namespace
