// Tests of identifiers inside component values (mirror.hpp; component_traits<T>::entity_members, the rule of command
// buffers): a mirror maps them to local entities, to null while the entity they refer to is not mirrored, and maps
// them again when it arrives or leaves; ranges of identifiers and values written through serialize too.
#include "replication/world.hpp"
#include <gtest/gtest.h>
#include <tessera/entity/registry.hpp>
#include <tessera/replication/replication.hpp>
#include <tuple>
#include <vector>

namespace {
namespace unit_replication_entity_members {

namespace {

using namespace replication_test;

/// Several identifiers in a range, written through serialize.
struct squad {
    std::vector<tessera::entity> members{};
    tessera::entity leader{tessera::null};
    static constexpr bool track_changes = true;
    static constexpr auto entity_members = std::tuple{&squad::members, &squad::leader};
};

void serialize(tessera::binary_output_archive &archive, const squad &value) {
    archive(static_cast<std::uint32_t>(value.members.size()));

    for (const auto entt : value.members) {
        archive(entt);
    }

    archive(value.leader);
}

void serialize(tessera::binary_input_archive &archive, squad &value) {
    std::uint32_t count{};
    archive(count);

    if (count > archive.remaining() / sizeof(tessera::entity)) {
        archive.corrupt("squad: more members than the data holds");
    }

    value.members.resize(count);

    for (auto &entt : value.members) {
        archive(entt);
    }

    archive(value.leader);
}

using squad_source = tessera::replication::source<position, anchor, squad>;
using squad_mirror = tessera::replication::mirror<position, anchor, squad>;

struct members_fixture {
    tessera::registry server{};
    squad_source source{server};
    std::function<bool(tessera::entity)> left = [this](const tessera::entity entt) {
        return !server.all_of<position>(entt) || server.get<position>(entt).x < 50.f;
    };
    squad_source::peer_type peer = source.connect([this](const tessera::entity entt) { return left(entt); });
    tessera::registry client{};
    squad_mirror mirror{client};

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
        ASSERT_EQ(mirror.digest(), peer.digest());
    }

    /// The local counterpart a value must hold for a remote identifier.
    tessera::entity expected(const tessera::entity remote) const { return mirror.map(remote); }
};

TEST(entity_members, MappedToLocalEntities) {
    members_fixture fixture{};
    const auto holder = fixture.spawn(1.f);
    const auto target = fixture.spawn(2.f);
    fixture.server.emplace<anchor>(holder, target, 5);
    fixture.sync();
    const auto &value = fixture.client.get<anchor>(fixture.mirror.map(holder));
    EXPECT_EQ(value.target, fixture.mirror.map(target));
    EXPECT_NE(value.target, target);
    EXPECT_EQ(value.weight, 5);
}

TEST(entity_members, TargetsSpawnedInTheSameMessage) {
    members_fixture fixture{};
    fixture.sync();
    const auto holder = fixture.spawn(1.f);
    const auto target = fixture.spawn(2.f);
    // the holder refers to itself too
    fixture.server.emplace<squad>(holder, std::vector<tessera::entity>{target, holder}, holder);
    fixture.sync();
    const auto &value = fixture.client.get<squad>(fixture.mirror.map(holder));
    EXPECT_EQ(value.members, (std::vector<tessera::entity>{fixture.mirror.map(target), fixture.mirror.map(holder)}));
    EXPECT_EQ(value.leader, fixture.mirror.map(holder));
}

TEST(entity_members, NullWhileTheTargetIsNotMirrored) {
    members_fixture fixture{};
    const auto holder = fixture.spawn(1.f);
    const auto far = fixture.spawn(90.f);
    const auto hidden = fixture.server.create();
    fixture.server.emplace<anchor>(holder, far, 1);
    fixture.server.emplace<squad>(holder, std::vector<tessera::entity>{far, hidden}, hidden);
    fixture.sync();
    const auto local = fixture.mirror.map(holder);
    EXPECT_EQ(fixture.client.get<anchor>(local).target, tessera::entity{tessera::null});
    EXPECT_EQ(fixture.client.get<squad>(local).members, (std::vector<tessera::entity>{tessera::null, tessera::null}));

    // the target comes into relevance: the holder's values are mapped again, without being sent again
    fixture.move(far, 10.f);
    fixture.sync();
    EXPECT_EQ(fixture.client.get<anchor>(local).target, fixture.mirror.map(far));
    EXPECT_EQ(fixture.client.get<squad>(local).members[0], fixture.mirror.map(far));
    EXPECT_EQ(fixture.client.get<squad>(local).members[1], tessera::entity{tessera::null});

    // and leaves again
    fixture.move(far, 95.f);
    fixture.sync();
    EXPECT_EQ(fixture.client.get<anchor>(local).target, tessera::entity{tessera::null});

    // becomes replicated: the marker brings it
    fixture.server.emplace<replicated>(hidden);
    fixture.sync();
    EXPECT_EQ(fixture.client.get<squad>(local).leader, fixture.mirror.map(hidden));
}

TEST(entity_members, DestroyedTargets) {
    members_fixture fixture{};
    const auto holder = fixture.spawn(1.f);
    const auto target = fixture.spawn(2.f);
    fixture.server.emplace<anchor>(holder, target, 1);
    fixture.sync();
    const auto old_local = fixture.mirror.map(target);

    // on the server the value keeps the stale identifier; on the client it reads null, and not the recycled index
    fixture.server.destroy(target);
    const auto recycled = fixture.spawn(3.f);
    ASSERT_EQ(tessera::to_entity(recycled), tessera::to_entity(target));
    fixture.sync();
    const auto value = fixture.client.get<anchor>(fixture.mirror.map(holder)).target;
    EXPECT_EQ(value, tessera::entity{tessera::null});
    EXPECT_NE(value, old_local);
    EXPECT_NE(value, fixture.mirror.map(recycled));
}

TEST(entity_members, HoldersThatGoAndChange) {
    members_fixture fixture{};
    const auto holder = fixture.spawn(1.f);
    const auto target = fixture.spawn(90.f);
    fixture.server.emplace<anchor>(holder, target, 1);
    fixture.sync();

    // the holder changes its target, then loses its anchor, then goes: nothing it held is mapped again later
    const auto other = fixture.spawn(5.f);
    fixture.server.patch<anchor>(holder, [other](anchor &value) { value.target = other; });
    fixture.sync();
    EXPECT_EQ(fixture.client.get<anchor>(fixture.mirror.map(holder)).target, fixture.mirror.map(other));
    fixture.server.remove<anchor>(holder);
    fixture.sync();
    fixture.server.destroy(holder);
    fixture.move(target, 10.f);
    fixture.sync();
    EXPECT_FALSE(fixture.mirror.contains(holder));
}

} // namespace

} // namespace unit_replication_entity_members
} // namespace
