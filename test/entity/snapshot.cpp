#include <tessera/core/hashed_string.hpp>
#include <tessera/entity/entity.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/snapshot.hpp>

#include <any>
#include <array>
#include <cstddef>
#include <cstdint>
#include <queue>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "support/misuse.hpp"

namespace {
namespace unit_entity_snapshot {

namespace {

using namespace tessera::literals;
// a named pool (clang 14 cannot evaluate the consteval literal inside the templates below)
constexpr tessera::id_type other_pool = "other"_hs;
using traits_type = tessera::entt_traits<tessera::entity>;
// U of the stream format: counts are written as the identifier's underlying integer
using count_type = traits_type::entity_type;

struct position {
    int x;
    int y;
    bool operator==(const position &) const = default;
};

struct velocity {
    int dx;
    int dy;
    bool operator==(const velocity &) const = default;
};

struct tag {};

// Erased elements leave holes.
struct stable {
    static constexpr bool in_place_delete = true;
    int value;
    bool operator==(const stable &) const = default;
};

// Refers to other entities: a continuous loader must rewrite these members.
struct relationship {
    tessera::entity parent{tessera::null};
    tessera::entity child{tessera::null};
};

using log_type = std::vector<std::any>;

// Records every value, in the order the snapshot hands them over.
struct output_archive {
    template<typename Type>
    void operator()(const Type &value) {
        log->emplace_back(value);
    }

    log_type *log{};
};

// Reads the values back in order; a value of another type than the one asked for throws std::bad_any_cast.
struct input_archive {
    template<typename Type>
    void operator()(Type &value) {
        value = std::any_cast<const Type &>(log->at(pos++));
    }

    const log_type *log{};
    std::size_t pos{};
};

tessera::entity make(const count_type index, const std::uint16_t version) {
    return traits_type::construct(index, version);
}

std::string describe(const std::any &elem) {
    if (const auto *entt = std::any_cast<tessera::entity>(&elem); entt) {
        if (*entt == tessera::null) {
            return "null";
        }

        // appended piece by piece: "e" + std::string made g++ 12 at -O3 warn (-Wrestrict, a false positive)
        std::string text{"e"};
        text += std::to_string(tessera::to_entity(*entt));
        text += 'v';
        text += std::to_string(tessera::to_version(*entt));
        return text;
    } else if (const auto *count = std::any_cast<count_type>(&elem); count) {
        return "U" + std::to_string(*count);
    } else if (const auto *pos = std::any_cast<position>(&elem); pos) {
        return "pos(" + std::to_string(pos->x) + "," + std::to_string(pos->y) + ")";
    } else if (const auto *vel = std::any_cast<velocity>(&elem); vel) {
        return "vel(" + std::to_string(vel->dx) + "," + std::to_string(vel->dy) + ")";
    } else if (const auto *st = std::any_cast<stable>(&elem); st) {
        return "stable(" + std::to_string(st->value) + ")";
    }

    return std::string{"?"} + elem.type().name();
}

std::vector<std::string> describe(const log_type &log) {
    std::vector<std::string> out{};

    for (auto &&elem : log) {
        out.push_back(describe(elem));
    }

    return out;
}

using strings = std::vector<std::string>;

// Three identifiers, one released and one recycled: packed order [e0v0, e1v1, e2v1], one released (e2v1).
void populate_identifiers(tessera::registry &registry) {
    const auto e0 = registry.create();
    const auto e1 = registry.create();
    const auto e2 = registry.create();
    registry.destroy(e1);
    ASSERT_EQ(registry.create(), make(1u, 1u));
    registry.destroy(e2);
    ASSERT_TRUE(registry.valid(e0));
}

TEST(Snapshot, StreamOfIdentifiers) {
    tessera::registry registry{};
    populate_identifiers(registry);

    log_type log{};
    output_archive archive{&log};
    tessera::snapshot{registry}.get<tessera::entity>(archive);

    // size, in use, then every identifier in packed order (released ones carry their next version)
    EXPECT_EQ(describe(log), (strings{"U3", "U2", "e0v0", "e1v1", "e2v1"}));
    ASSERT_EQ(log.size(), 5u);
    EXPECT_EQ(log[0].type(), typeid(count_type));
    EXPECT_EQ(log[2].type(), typeid(tessera::entity));
}

TEST(Snapshot, StreamOfEmptyRegistry) {
    tessera::registry registry{};
    log_type log{};
    output_archive archive{&log};
    tessera::snapshot{registry}.get<tessera::entity>(archive).get<position>(archive).get<tag>(archive);

    EXPECT_EQ(describe(log), (strings{"U0", "U0", "U0", "U0"}));
    // a const registry: the snapshot never creates pools
    EXPECT_EQ(std::as_const(registry).storage<position>(), nullptr);
}

TEST(Snapshot, StreamOfPool) {
    tessera::registry registry{};
    const std::array entities{registry.create(), registry.create(), registry.create()};
    registry.emplace<position>(entities[2], 2, 20);
    registry.emplace<position>(entities[0], 0, 0);
    registry.emplace<velocity>(entities[1], 1, 1);

    log_type log{};
    output_archive archive{&log};
    tessera::snapshot{registry}.get<position>(archive).get<velocity>(archive);

    // packed position order: insertion order for a swap-and-pop pool
    EXPECT_EQ(describe(log), (strings{"U2", "e2v0", "pos(2,20)", "e0v0", "pos(0,0)", "U1", "e1v0", "vel(1,1)"}));
}

TEST(Snapshot, StreamOfPoolWithHole) {
    tessera::registry registry{};
    const std::array entities{registry.create(), registry.create(), registry.create()};

    for (auto entt : entities) {
        registry.emplace<stable>(entt, static_cast<int>(tessera::to_entity(entt)));
    }

    registry.erase<stable>(entities[1]);
    ASSERT_EQ(registry.storage<stable>().size(), 3u);

    log_type log{};
    output_archive archive{&log};
    tessera::snapshot{registry}.get<stable>(archive);

    // the hole counts, and is written as a null entity without a component
    EXPECT_EQ(describe(log), (strings{"U3", "e0v0", "stable(0)", "null", "e2v0", "stable(2)"}));
}

TEST(Snapshot, StreamOfEmptyType) {
    tessera::registry registry{};
    const std::array entities{registry.create(), registry.create(), registry.create()};
    registry.emplace<tag>(entities[0]);
    registry.emplace<tag>(entities[2]);

    log_type log{};
    output_archive archive{&log};
    tessera::snapshot{registry}.get<tag>(archive);

    EXPECT_EQ(describe(log), (strings{"U2", "e0v0", "e2v0"}));
}

TEST(Snapshot, StreamOfNamedPool) {
    tessera::registry registry{};
    const auto entt = registry.create();
    const auto other = registry.create();
    registry.emplace<position>(entt, 1, 1);
    registry.storage<position>(other_pool).emplace(other, position{7, 8});

    log_type log{};
    output_archive archive{&log};
    tessera::snapshot{registry}
        .get<position>(archive, other_pool)
        .get<position>(archive)
        .get<position>(archive, "missing"_hs);

    EXPECT_EQ(describe(log), (strings{"U1", "e1v0", "pos(7,8)", "U1", "e0v0", "pos(1,1)", "U0"}));
}

TEST(Snapshot, StreamOfRange) {
    tessera::registry registry{};
    const std::array entities{registry.create(), registry.create(), registry.create()};
    registry.emplace<position>(entities[0], 0, 1);
    registry.emplace<position>(entities[2], 2, 3);
    registry.emplace<tag>(entities[1]);
    // a pool that exists but is empty
    static_cast<void>(registry.storage<velocity>());

    log_type log{};
    output_archive archive{&log};
    const tessera::snapshot snapshot{registry};

    // the range order, with null for entities without the component
    snapshot.get<position>(archive, entities.begin(), entities.end());
    EXPECT_EQ(describe(log), (strings{"U3", "e0v0", "pos(0,1)", "null", "e2v0", "pos(2,3)"}));

    log.clear();
    snapshot.get<tag>(archive, entities.rbegin(), entities.rend());
    EXPECT_EQ(describe(log), (strings{"U3", "null", "e1v0", "null"}));

    // a missing pool and an empty one: only U(0)
    log.clear();
    snapshot.get<stable>(archive, entities.begin(), entities.end())
        .get<velocity>(archive, entities.begin(), entities.end());
    EXPECT_EQ(describe(log), (strings{"U0", "U0"}));

    // an empty range over a non-empty pool
    log.clear();
    snapshot.get<position>(archive, entities.begin(), entities.begin());
    EXPECT_EQ(describe(log), (strings{"U0"}));
}

TEST(Snapshot, RangeFormWithNamedPool) {
    tessera::registry registry{};
    const std::array entities{registry.create(), registry.create()};
    registry.storage<position>(other_pool).emplace(entities[1], position{4, 5});

    log_type log{};
    output_archive archive{&log};
    tessera::snapshot{registry}.get<position>(archive, entities.begin(), entities.end(), other_pool);

    EXPECT_EQ(describe(log), (strings{"U2", "null", "e1v0", "pos(4,5)"}));
}

// Everything a loader must restore: versions, a released set, a named pool, an empty type, a hole.
void populate(tessera::registry &registry) {
    std::array<tessera::entity, 8u> entities{};
    registry.create(entities.begin(), entities.end());

    for (auto entt : entities) {
        const auto value = static_cast<int>(tessera::to_entity(entt));
        registry.emplace<position>(entt, value, -value);
        registry.emplace<stable>(entt, value);
    }

    registry.emplace<tag>(entities[1]);
    registry.emplace<tag>(entities[6]);
    registry.emplace<velocity>(entities[3], 3, 33);
    registry.storage<velocity>(other_pool).emplace(entities[4], velocity{4, 44});
    registry.erase<stable>(entities[5]);

    registry.destroy(entities[2]);
    registry.destroy(entities[7]);
    const auto recycled = registry.create();
    registry.destroy(recycled);
    registry.destroy(registry.create());
    registry.emplace<position>(registry.create(), 100, 100);
}

template<typename Snapshot, typename Archive>
void save_all(const Snapshot &snapshot, Archive &archive) {
    snapshot.template get<tessera::entity>(archive)
        .template get<position>(archive)
        .template get<velocity>(archive)
        .template get<velocity>(archive, other_pool)
        .template get<tag>(archive)
        .template get<stable>(archive);
}

template<typename Loader, typename Archive>
void load_all(Loader &loader, Archive &archive) {
    loader.template get<tessera::entity>(archive)
        .template get<position>(archive)
        .template get<velocity>(archive)
        .template get<velocity>(archive, other_pool)
        .template get<tag>(archive)
        .template get<stable>(archive);
}

void expect_same_identifiers(const tessera::registry &lhs, const tessera::registry &rhs) {
    const auto &lstorage = lhs.storage<tessera::entity>();
    const auto &rstorage = rhs.storage<tessera::entity>();
    ASSERT_EQ(lstorage->size(), rstorage->size());
    EXPECT_EQ(lstorage->free_list(), rstorage->free_list());

    for (std::size_t pos{}; pos < lstorage->size(); ++pos) {
        const auto entt = lstorage->data()[pos];
        EXPECT_EQ(entt, rstorage->data()[pos]) << "at packed position " << pos;
        EXPECT_EQ(lhs.valid(entt), rhs.valid(entt));
        EXPECT_EQ(lhs.current(entt), rhs.current(entt));
    }
}

template<typename Type>
void expect_same_pool(const tessera::registry &lhs, const tessera::registry &rhs,
                      const tessera::id_type id = tessera::type_hash<Type>::value()) {
    const auto *lpool = lhs.storage<Type>(id);
    const auto *rpool = rhs.storage<Type>(id);
    ASSERT_NE(lpool, nullptr);
    ASSERT_NE(rpool, nullptr);
    std::size_t count{};

    // in-place pools may hold holes on one side only: compare the elements
    for (auto [entt, elem] : lpool->each()) {
        ASSERT_TRUE(rpool->contains(entt));
        EXPECT_EQ(rpool->get(entt), elem);
        ++count;
    }

    for ([[maybe_unused]] auto elem : rpool->each()) {
        --count;
    }

    EXPECT_EQ(count, 0u);
}

TEST(SnapshotLoader, RoundTrip) {
    tessera::registry source{};
    populate(source);

    log_type log{};
    output_archive output{&log};
    save_all(tessera::snapshot{source}, output);

    tessera::registry destination{};
    input_archive input{&log};
    tessera::snapshot_loader loader{destination};
    load_all(loader, input);
    loader.orphans();
    EXPECT_EQ(input.pos, log.size());

    expect_same_identifiers(source, destination);
    expect_same_pool<position>(source, destination);
    expect_same_pool<velocity>(source, destination);
    expect_same_pool<velocity>(source, destination, other_pool);
    expect_same_pool<stable>(source, destination);

    const auto &tags = destination.storage<tag>();
    ASSERT_EQ(tags.size(), source.storage<tag>().size());

    for (auto entt : source.storage<tag>()) {
        EXPECT_TRUE(tags.contains(entt));
    }

    // the next identifiers are the same on both sides: the recycled ones first, then fresh ones
    for (int count{}; count < 4; ++count) {
        EXPECT_EQ(source.create(), destination.create());
    }
}

struct construct_listener {
    void on(tessera::registry &, const tessera::entity entt) { seen.push_back(entt); }

    std::vector<tessera::entity> seen{};
};

TEST(SnapshotLoader, SignalsFire) {
    tessera::registry source{};
    populate_identifiers(source);
    source.emplace<position>(make(1u, 1u), 1, 1);
    source.emplace<position>(make(0u, 0u), 0, 0);

    log_type log{};
    output_archive output{&log};
    tessera::snapshot{source}.get<tessera::entity>(output).get<position>(output);

    tessera::registry destination{};
    construct_listener listener{};
    destination.on_construct<position>().connect<&construct_listener::on>(listener);
    input_archive input{&log};
    tessera::continuous_loader continuous{destination};
    continuous.get<tessera::entity>(input).get<position>(input);
    EXPECT_EQ(listener.seen, (std::vector{continuous.map(make(1u, 1u)), continuous.map(make(0u, 0u))}));

    tessera::registry other{};
    other.on_construct<position>().connect<&construct_listener::on>(listener);
    listener.seen.clear();
    input_archive again{&log};
    tessera::snapshot_loader{other}.get<tessera::entity>(again).get<position>(again);
    EXPECT_EQ(listener.seen, (std::vector{make(1u, 1u), make(0u, 0u)}));
}

TEST(SnapshotLoader, OnlyIdentifiers) {
    tessera::registry source{};
    populate_identifiers(source);

    log_type log{};
    output_archive output{&log};
    tessera::snapshot{source}.get<tessera::entity>(output);

    tessera::registry destination{};
    input_archive input{&log};
    tessera::snapshot_loader{destination}.get<tessera::entity>(input);

    expect_same_identifiers(source, destination);
    EXPECT_TRUE(destination.valid(make(0u, 0u)));
    EXPECT_TRUE(destination.valid(make(1u, 1u)));
    EXPECT_FALSE(destination.valid(make(2u, 0u)));
    EXPECT_FALSE(destination.valid(make(2u, 1u)));
    EXPECT_EQ(destination.current(make(2u, 0u)), 1u);
    EXPECT_EQ(destination.create(), source.create());
    EXPECT_EQ(destination.create(), source.create());
}

TEST(SnapshotLoader, PoolsCreateMissingIdentifiers) {
    tessera::registry source{};
    populate_identifiers(source);
    source.emplace<position>(make(1u, 1u), 1, 2);

    log_type log{};
    output_archive output{&log};
    tessera::snapshot{source}.get<position>(output);

    // no identifier section: the pool creates the exact identifier, version included
    tessera::registry destination{};
    input_archive input{&log};
    tessera::snapshot_loader{destination}.get<position>(input);

    EXPECT_TRUE(destination.valid(make(1u, 1u)));
    EXPECT_EQ(destination.get<position>(make(1u, 1u)), (position{1, 2}));
}

TEST(SnapshotLoader, Orphans) {
    tessera::registry source{};
    const auto with = source.create();
    const auto without = source.create();
    const auto tagged = source.create();
    source.emplace<position>(with, 1, 1);
    source.emplace<tag>(tagged);

    log_type log{};
    output_archive output{&log};
    tessera::snapshot{source}.get<tessera::entity>(output).get<position>(output).get<tag>(output);

    tessera::registry destination{};
    input_archive input{&log};
    tessera::snapshot_loader loader{destination};
    loader.get<tessera::entity>(input).get<position>(input);
    EXPECT_TRUE(destination.valid(without));

    // an empty type is a component too
    loader.get<tag>(input).orphans();
    EXPECT_TRUE(destination.valid(with));
    EXPECT_TRUE(destination.valid(tagged));
    EXPECT_FALSE(destination.valid(without));
    EXPECT_EQ(destination.current(without), tessera::to_version(without) + 1u);
    EXPECT_EQ(destination.storage<tessera::entity>().free_list(), 2u);
}

TEST(SnapshotLoader, OrphansKeepsReleasedVersions) {
    tessera::registry source{};
    populate_identifiers(source);

    log_type log{};
    output_archive output{&log};
    tessera::snapshot{source}.get<tessera::entity>(output);

    tessera::registry destination{};
    input_archive input{&log};
    tessera::snapshot_loader{destination}.get<tessera::entity>(input).orphans();

    // both in-use identifiers were orphans; the released one keeps its version
    EXPECT_EQ(destination.storage<tessera::entity>().free_list(), 0u);
    EXPECT_EQ(destination.current(make(0u, 0u)), 1u);
    EXPECT_EQ(destination.current(make(1u, 0u)), 2u);
    EXPECT_EQ(destination.current(make(2u, 0u)), 1u);
}

TEST(SnapshotLoader, TargetWithLiveEntity) {
    tessera::registry registry{};
    static_cast<void>(registry.create());
    EXPECT_MISUSE(tessera::snapshot_loader{registry}, "no entity in use");
}

TEST(SnapshotLoader, ClearedTarget) {
    tessera::registry source{};
    populate(source);

    log_type log{};
    output_archive output{&log};
    save_all(tessera::snapshot{source}, output);

    // released identifiers only: the target counts as empty
    tessera::registry destination{};
    populate(destination);
    destination.clear();

    input_archive input{&log};
    tessera::snapshot_loader loader{destination};
    load_all(loader, input);

    for (auto [entt] : source.storage<tessera::entity>().each()) {
        EXPECT_TRUE(destination.valid(entt));
    }

    EXPECT_EQ(destination.storage<tessera::entity>().free_list(), source.storage<tessera::entity>().free_list());
    expect_same_pool<position>(source, destination);
    expect_same_pool<stable>(source, destination);
    EXPECT_EQ(destination.create(), source.create());
}

TEST(SnapshotLoader, InconsistentData) {
    const auto load = [](const log_type &log) {
        tessera::registry destination{};
        input_archive input{&log};
        tessera::snapshot_loader{destination}.get<tessera::entity>(input).get<position>(input);
    };

    const auto e0 = make(0u, 0u);
    const auto e0v1 = make(0u, 1u);
    EXPECT_MISUSE(load(log_type{count_type{1u}, count_type{2u}}), "snapshot_loader");
    EXPECT_MISUSE(load(log_type{count_type{2u}, count_type{2u}, e0, e0v1}), "snapshot_loader");
    EXPECT_MISUSE(load(log_type{count_type{1u}, count_type{1u}, tessera::entity{tessera::null}}), "snapshot_loader");
    EXPECT_MISUSE(load(log_type{count_type{1u}, count_type{1u}, make(0u, traits_type::to_version(tessera::tombstone))}),
                  "snapshot_loader");
    // a pool refers to an identifier replaced by another version
    EXPECT_MISUSE(load(log_type{count_type{1u}, count_type{1u}, e0, count_type{1u}, e0v1, position{}}),
                  "snapshot_loader");
    // an identifier twice in a pool
    EXPECT_MISUSE(load(log_type{count_type{1u}, count_type{1u}, e0, count_type{2u}, e0, position{}, e0, position{}}),
                  "snapshot_loader");
    // a tombstone version in a pool
    EXPECT_MISUSE(load(log_type{count_type{0u}, count_type{0u}, count_type{1u},
                                make(0u, traits_type::to_version(tessera::tombstone)), position{}}),
                  "snapshot_loader: invalid identifier");
}

// The manual's continuous loader example: the archive rewrites the entity members of a component.
TEST(ContinuousLoader, MapsRemoteIdentifiers) {
    tessera::registry source{};
    const auto parent = source.create();
    const auto child = source.create();
    const auto lonely = source.create();
    source.emplace<position>(parent, 1, 1);
    source.emplace<position>(child, 2, 2);
    source.emplace<tag>(child);
    source.emplace<relationship>(child, parent, tessera::entity{tessera::null});
    source.emplace<relationship>(parent, tessera::entity{tessera::null}, child);

    tessera::registry destination{};
    const auto local = destination.create();
    destination.emplace<position>(local, 9, 9);

    log_type log{};
    output_archive output{&log};
    tessera::snapshot{source}.get<tessera::entity>(output).get<position>(output).get<tag>(output).get<relationship>(
        output);

    tessera::continuous_loader loader{destination};
    input_archive input{&log};

    auto archive = [&loader, &input](auto &value) {
        input(value);

        if constexpr (std::is_same_v<std::remove_reference_t<decltype(value)>, relationship>) {
            value.parent = loader.map(value.parent);
            value.child = loader.map(value.child);
        }
    };

    loader.get<tessera::entity>(archive).get<position>(archive).get<tag>(archive).get<relationship>(archive);
    EXPECT_EQ(input.pos, log.size());

    for (auto remote : {parent, child, lonely}) {
        EXPECT_TRUE(loader.contains(remote));
        EXPECT_TRUE(destination.valid(loader.map(remote)));
        EXPECT_NE(loader.map(remote), local);
    }

    // an exact mapping: another version of a remote identifier is not mapped
    EXPECT_FALSE(loader.contains(traits_type::next(parent)));
    EXPECT_EQ(loader.map(traits_type::next(parent)), tessera::entity{tessera::null});
    EXPECT_FALSE(loader.contains(make(42u, 0u)));

    EXPECT_EQ(destination.get<position>(local), (position{9, 9}));
    EXPECT_EQ(destination.get<position>(loader.map(parent)), (position{1, 1}));
    EXPECT_EQ(destination.get<position>(loader.map(child)), (position{2, 2}));
    EXPECT_TRUE(destination.all_of<tag>(loader.map(child)));
    EXPECT_EQ(destination.get<relationship>(loader.map(child)).parent, loader.map(parent));
    EXPECT_EQ(destination.get<relationship>(loader.map(child)).child, tessera::entity{tessera::null});
    EXPECT_EQ(destination.get<relationship>(loader.map(parent)).child, loader.map(child));

    loader.orphans();
    EXPECT_FALSE(destination.valid(loader.map(lonely)));
    EXPECT_TRUE(destination.valid(local));
}

TEST(ContinuousLoader, SecondLoad) {
    tessera::registry source{};
    std::array<tessera::entity, 3u> entities{};
    source.create(entities.begin(), entities.end());

    for (auto entt : entities) {
        source.emplace<position>(entt, 1, static_cast<int>(tessera::to_entity(entt)));
    }

    tessera::registry destination{};
    static_cast<void>(destination.create());
    tessera::continuous_loader loader{destination};

    const auto transfer = [&]() {
        log_type log{};
        output_archive output{&log};
        tessera::snapshot{source}.get<tessera::entity>(output).get<position>(output);
        input_archive input{&log};
        loader.get<tessera::entity>(input).get<position>(input);
    };

    transfer();
    const auto first = loader.map(entities[0]);
    const auto second = loader.map(entities[1]);
    const auto third = loader.map(entities[2]);
    EXPECT_EQ(destination.storage<position>().size(), 3u);

    // the source changes: one destroyed, one updated, one recycled with a new version
    source.destroy(entities[1]);
    source.replace<position>(entities[0], 2, 0);
    transfer();

    EXPECT_FALSE(destination.valid(second));
    EXPECT_FALSE(loader.contains(entities[1]));
    EXPECT_EQ(loader.map(entities[0]), first);
    EXPECT_EQ(loader.map(entities[2]), third);
    // replaced, not duplicated
    EXPECT_EQ(destination.storage<position>().size(), 2u);
    EXPECT_EQ(destination.get<position>(first), (position{2, 0}));

    const auto recycled = source.create();
    ASSERT_EQ(tessera::to_entity(recycled), tessera::to_entity(entities[1]));
    source.emplace<position>(recycled, 3, 3);
    transfer();

    EXPECT_TRUE(loader.contains(recycled));
    EXPECT_FALSE(loader.contains(entities[1]));
    EXPECT_TRUE(destination.valid(loader.map(recycled)));
    EXPECT_EQ(destination.get<position>(loader.map(recycled)), (position{3, 3}));
    EXPECT_EQ(destination.storage<position>().size(), 3u);
}

// Found by the model test: a remote entity destroyed and its index recycled between two loads left its local
// counterpart alive, components included; the new remote identifier must replace it, not leak it.
TEST(ContinuousLoader, RemoteIndexRecycledBetweenLoads) {
    tessera::registry source{};
    const auto remote = source.create();
    source.emplace<position>(remote, 1, 1);

    tessera::registry destination{};
    tessera::continuous_loader loader{destination};

    const auto transfer = [&]() {
        log_type log{};
        output_archive output{&log};
        tessera::snapshot{source}.get<tessera::entity>(output).get<position>(output);
        input_archive input{&log};
        loader.get<tessera::entity>(input).get<position>(input);
    };

    transfer();
    const auto local = loader.map(remote);
    ASSERT_TRUE(destination.valid(local));

    source.destroy(remote);
    const auto recycled = source.create();
    ASSERT_EQ(tessera::to_entity(recycled), tessera::to_entity(remote));
    source.emplace<position>(recycled, 2, 2);
    transfer();

    EXPECT_FALSE(destination.valid(local));
    EXPECT_FALSE(loader.contains(remote));
    EXPECT_TRUE(destination.valid(loader.map(recycled)));
    EXPECT_EQ(destination.storage<tessera::entity>().free_list(), 1u);
    EXPECT_EQ(destination.storage<position>().size(), 1u);
    EXPECT_EQ(destination.get<position>(loader.map(recycled)), (position{2, 2}));
}

TEST(ContinuousLoader, LocalDestroyedBetweenLoads) {
    tessera::registry source{};
    const auto remote = source.create();
    source.emplace<position>(remote, 5, 5);

    log_type log{};
    output_archive output{&log};
    tessera::snapshot{source}.get<tessera::entity>(output).get<position>(output);

    tessera::registry destination{};
    tessera::continuous_loader loader{destination};
    input_archive input{&log};
    loader.get<tessera::entity>(input).get<position>(input);

    const auto local = loader.map(remote);
    destination.destroy(local);

    // still mapped, to an invalid local until the next load re-creates it
    EXPECT_TRUE(loader.contains(remote));
    input_archive again{&log};
    loader.get<tessera::entity>(again).get<position>(again);
    EXPECT_NE(loader.map(remote), local);
    EXPECT_TRUE(destination.valid(loader.map(remote)));
    EXPECT_EQ(destination.get<position>(loader.map(remote)), (position{5, 5}));
}

TEST(ContinuousLoader, Shrink) {
    tessera::registry source{};
    const auto kept = source.create();
    const auto dropped = source.create();

    log_type log{};
    output_archive output{&log};
    tessera::snapshot{source}.get<tessera::entity>(output);

    tessera::registry destination{};
    tessera::continuous_loader loader{destination};
    input_archive input{&log};
    loader.get<tessera::entity>(input);

    destination.destroy(loader.map(dropped));
    EXPECT_TRUE(loader.contains(dropped));

    loader.shrink();
    EXPECT_FALSE(loader.contains(dropped));
    EXPECT_EQ(loader.map(dropped), tessera::entity{tessera::null});
    EXPECT_TRUE(loader.contains(kept));
    EXPECT_TRUE(destination.valid(loader.map(kept)));
}

TEST(ContinuousLoader, PoolsWithoutIdentifiers) {
    tessera::registry source{};
    const auto remote = source.create();
    const auto hole = source.create();
    source.emplace<stable>(hole, 0);
    source.emplace<stable>(remote, 1);
    source.erase<stable>(hole);
    source.storage<velocity>(other_pool).emplace(remote, velocity{1, 2});
    source.emplace<tag>(remote);

    log_type log{};
    output_archive output{&log};
    tessera::snapshot{source}.get<stable>(output).get<velocity>(output, other_pool).get<tag>(output);

    tessera::registry destination{};
    tessera::continuous_loader loader{destination};
    input_archive input{&log};
    loader.get<stable>(input).get<velocity>(input, other_pool).get<tag>(input);

    // the pools map identifiers as they meet them; the hole is skipped
    EXPECT_TRUE(loader.contains(remote));
    EXPECT_FALSE(loader.contains(hole));
    const auto local = loader.map(remote);
    EXPECT_EQ(destination.get<stable>(local), (stable{1}));
    EXPECT_EQ(destination.storage<velocity>(other_pool).get(local), (velocity{1, 2}));
    EXPECT_TRUE(destination.all_of<tag>(local));
    EXPECT_EQ(destination.storage<stable>().size(), 1u);
}

TEST(ContinuousLoader, InconsistentData) {
    const auto load = [](const log_type &log) {
        tessera::registry destination{};
        tessera::continuous_loader loader{destination};
        input_archive input{&log};
        loader.get<tessera::entity>(input).get<position>(input);
    };

    const auto e0 = make(0u, 0u);
    EXPECT_MISUSE(load(log_type{count_type{1u}, count_type{2u}}), "continuous_loader");
    EXPECT_MISUSE(load(log_type{count_type{1u}, count_type{1u}, tessera::entity{tessera::null}}), "continuous_loader");
    EXPECT_MISUSE(load(log_type{count_type{0u}, count_type{0u}, count_type{2u}, e0, position{}, e0, position{}}),
                  "continuous_loader");
    EXPECT_MISUSE(load(log_type{count_type{0u}, count_type{0u}, count_type{1u},
                                make(0u, traits_type::to_version(tessera::tombstone)), position{}}),
                  "continuous_loader");
}

// The manual's "one example to rule them all": one in-memory queue per type, read back by both loaders.
template<typename... Type>
struct queue_archive {
    template<typename Value>
    void operator()(const Value &value) {
        std::get<std::queue<Value>>(queues).push(value);
    }

    template<typename Value>
    void operator()(Value &value) {
        auto &queue = std::get<std::queue<Value>>(queues);
        ASSERT_FALSE(queue.empty());
        value = queue.front();
        queue.pop();
    }

    std::tuple<std::queue<Type>...> queues{};
};

TEST(Snapshot, QueuesArchive) {
    using archive_type = queue_archive<tessera::entity, count_type, position, relationship>;
    tessera::registry source{};
    populate_identifiers(source);
    const auto e0 = make(0u, 0u);
    const auto e1 = make(1u, 1u);
    source.emplace<position>(e0, 1, 2);
    source.emplace<position>(e1, 3, 4);
    source.emplace<relationship>(e1, e0, tessera::entity{tessera::null});

    archive_type full{};
    tessera::snapshot{source}.get<tessera::entity>(full).get<position>(full).get<relationship>(full);
    archive_type partial{full};

    tessera::registry destination{};
    tessera::snapshot_loader{destination}
        .get<tessera::entity>(full)
        .get<position>(full)
        .get<relationship>(full)
        .orphans();
    expect_same_identifiers(source, destination);
    EXPECT_EQ(destination.get<position>(e1), (position{3, 4}));
    EXPECT_EQ(destination.get<relationship>(e1).parent, e0);

    tessera::registry live{};
    static_cast<void>(live.create());
    tessera::continuous_loader loader{live};
    auto mapping = [&loader, &partial](auto &value) {
        partial(value);

        if constexpr (std::is_same_v<std::remove_reference_t<decltype(value)>, relationship>) {
            value.parent = loader.map(value.parent);
        }
    };

    loader.get<tessera::entity>(mapping).get<position>(mapping).get<relationship>(mapping).orphans();
    EXPECT_EQ(live.get<position>(loader.map(e1)), (position{3, 4}));
    EXPECT_EQ(live.get<relationship>(loader.map(e1)).parent, loader.map(e0));
    EXPECT_NE(loader.map(e0), make(0u, 0u));
}

TEST(Snapshot, MoveOnly) {
    static_assert(!std::is_copy_constructible_v<tessera::snapshot>);
    static_assert(std::is_nothrow_move_constructible_v<tessera::snapshot>);
    static_assert(std::is_nothrow_move_assignable_v<tessera::snapshot>);
    static_assert(!std::is_copy_constructible_v<tessera::snapshot_loader>);
    static_assert(std::is_nothrow_move_constructible_v<tessera::snapshot_loader>);
    static_assert(!std::is_copy_constructible_v<tessera::continuous_loader>);
    static_assert(std::is_nothrow_move_constructible_v<tessera::continuous_loader>);
    static_assert(std::is_nothrow_move_assignable_v<tessera::continuous_loader>);

    tessera::registry registry{};
    tessera::continuous_loader loader{registry};
    tessera::continuous_loader other{std::move(loader)};
    EXPECT_FALSE(other.contains(make(0u, 0u)));
}

} // namespace

} // namespace unit_entity_snapshot
} // namespace
