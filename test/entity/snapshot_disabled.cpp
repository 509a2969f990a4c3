// Tests of the disabled state in snapshots (snapshot.hpp, docs/snapshots.md): a pool with disabled elements
// carries a flag in its count and the list of its disabled identifiers after its entries; a pool without any is
// written as before; both loaders disable what the list names.
#include <tessera/entity/entity.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/snapshot.hpp>

#include <any>
#include <cstddef>
#include <vector>

#include <gtest/gtest.h>

#include "support/misuse.hpp"

namespace {
namespace unit_entity_snapshot_disabled {

namespace {

using traits_type = tessera::entt_traits<tessera::entity>;
using count_type = traits_type::entity_type;
constexpr count_type flag = tessera::internal::disabled_count_flag<tessera::entity>;

struct position {
    int x;
    bool operator==(const position &) const = default;
};

struct tag {};

using log_type = std::vector<std::any>;

struct output_archive {
    template<typename Type>
    void operator()(const Type &value) {
        log->emplace_back(value);
    }

    log_type *log{};
};

struct input_archive {
    template<typename Type>
    void operator()(Type &value) {
        value = std::any_cast<const Type &>(log->at(pos++));
    }

    const log_type *log{};
    std::size_t pos{};
};

// Four entities with a position and a tag; e1 has both disabled, e3 its position only.
std::vector<tessera::entity> populate(tessera::registry &registry) {
    std::vector<tessera::entity> entities(4u);
    registry.create(entities.begin(), entities.end());

    for (int pos{}; pos < 4; ++pos) {
        registry.emplace<position>(entities[pos], pos);
        registry.emplace<tag>(entities[pos]);
    }

    registry.disable<position>(entities[1]);
    registry.disable<tag>(entities[1]);
    registry.disable<position>(entities[3]);
    return entities;
}

void expect_states(const tessera::registry &source, const tessera::registry &target,
                   const std::vector<tessera::entity> &map) {
    std::size_t pos{};

    for (const auto entt : source.view<tessera::entity>()) {
        const auto local = map.empty() ? entt : map[pos++];
        EXPECT_EQ(source.enabled<position>(entt), target.enabled<position>(local));
        EXPECT_EQ(source.enabled<tag>(entt), target.enabled<tag>(local));
        EXPECT_EQ(source.get<position>(entt), target.get<position>(local));
    }

    EXPECT_EQ(target.storage<position>()->disabled_size(), 2u);
    EXPECT_EQ(target.storage<tag>()->disabled_size(), 1u);
}

} // namespace

TEST(SnapshotDisabled, PoolWithoutDisabledIsWrittenAsBefore) {
    tessera::registry registry{};
    const auto entt = registry.create();
    registry.emplace<position>(entt, 7);
    registry.disable<position>(entt);
    registry.enable<position>(entt);

    log_type log{};
    output_archive output{&log};
    tessera::snapshot{registry}.get<position>(output);
    ASSERT_EQ(log.size(), 3u);
    EXPECT_EQ(std::any_cast<count_type>(log[0]), 1u);
    EXPECT_EQ(std::any_cast<tessera::entity>(log[1]), entt);
    EXPECT_EQ(std::any_cast<position>(log[2]), (position{7}));
}

TEST(SnapshotDisabled, StreamOfPoolWithDisabled) {
    tessera::registry registry{};
    const auto entities = populate(registry);

    log_type log{};
    output_archive output{&log};
    tessera::snapshot{registry}.get<tag>(output);
    // the flagged count, four identifiers (no element: empty type), then the disabled list
    ASSERT_EQ(log.size(), 7u);
    EXPECT_EQ(std::any_cast<count_type>(log[0]), count_type{4u} | flag);
    EXPECT_EQ(std::any_cast<count_type>(log[5]), 1u);
    EXPECT_EQ(std::any_cast<tessera::entity>(log[6]), entities[1]);
}

TEST(SnapshotDisabled, SnapshotLoaderRestoresTheStates) {
    tessera::registry source{};
    populate(source);

    log_type log{};
    output_archive output{&log};
    tessera::snapshot{source}.get<tessera::entity>(output).get<position>(output).get<tag>(output);

    tessera::registry target{};
    input_archive input{&log};
    tessera::snapshot_loader{target}.get<tessera::entity>(input).get<position>(input).get<tag>(input);
    EXPECT_EQ(input.pos, log.size());
    expect_states(source, target, {});
    EXPECT_EQ((target.view<position, tag>().size_hint()), 2u);
}

TEST(SnapshotDisabled, RangeFormWritesTheDisabledOfTheRange) {
    tessera::registry source{};
    const auto entities = populate(source);
    const std::vector<tessera::entity> some{entities[0], entities[3]};

    log_type log{};
    output_archive output{&log};
    tessera::snapshot{source}.get<position>(output, some.begin(), some.end());
    // flagged count 2, (e0, pos), (e3, pos), then one disabled: e3
    ASSERT_EQ(log.size(), 7u);
    EXPECT_EQ(std::any_cast<count_type>(log[0]), count_type{2u} | flag);
    EXPECT_EQ(std::any_cast<count_type>(log[5]), 1u);
    EXPECT_EQ(std::any_cast<tessera::entity>(log[6]), entities[3]);

    log.clear();
    tessera::snapshot{source}.get<position>(output, entities.begin(), entities.begin() + 1);
    EXPECT_EQ(std::any_cast<count_type>(log[0]), count_type{1u});
    EXPECT_EQ(log.size(), 3u);
}

TEST(SnapshotDisabled, ContinuousLoaderDisablesTheMappedEntities) {
    tessera::registry source{};
    const auto entities = populate(source);

    tessera::registry target{};
    // shifts the local identifiers away from the remote ones
    static_cast<void>(target.create());

    log_type log{};
    output_archive output{&log};
    tessera::snapshot{source}.get<tessera::entity>(output).get<position>(output).get<tag>(output);

    tessera::continuous_loader loader{target};
    input_archive input{&log};
    loader.get<tessera::entity>(input).get<position>(input).get<tag>(input);

    std::vector<tessera::entity> map{};

    for (const auto entt : source.view<tessera::entity>()) {
        map.push_back(loader.map(entt));
        EXPECT_NE(map.back(), entt);
    }

    expect_states(source, target, map);

    // loading again replaces the components and their states
    source.enable<position>(entities[3]);
    log.clear();
    tessera::snapshot{source}.get<tessera::entity>(output).get<position>(output).get<tag>(output);
    input.pos = 0u;
    loader.get<tessera::entity>(input).get<position>(input).get<tag>(input);
    EXPECT_TRUE(target.enabled<position>(loader.map(entities[3])));
    EXPECT_FALSE(target.enabled<position>(loader.map(entities[1])));
    EXPECT_EQ(target.storage<position>().disabled_size(), 1u);
}

TEST(SnapshotDisabled, WholeEntityMarksRoundTrip) {
    tessera::registry source{};
    const auto entities = populate(source);
    source.disable(entities[2]);

    log_type log{};
    output_archive output{&log};
    tessera::snapshot{source}
        .get<tessera::entity>(output)
        .get<position>(output)
        .get<tag>(output)
        .get<tessera::disabled_entity>(output);

    tessera::registry target{};
    input_archive input{&log};
    tessera::snapshot_loader{target}
        .get<tessera::entity>(input)
        .get<position>(input)
        .get<tag>(input)
        .get<tessera::disabled_entity>(input);

    EXPECT_FALSE(target.enabled(entities[2]));
    EXPECT_FALSE(target.enabled<position>(entities[2]));
    EXPECT_TRUE(target.enabled(entities[0]));
    // a component added later to the disabled entity starts disabled
    target.emplace<int>(entities[2], 1);
    EXPECT_FALSE(target.enabled<int>(entities[2]));
}

TEST(SnapshotDisabled, ListNamingAnEntityOutsideThePoolIsCorrupt) {
    const auto e0 = traits_type::construct(0u, 0u);
    const auto e1 = traits_type::construct(1u, 0u);
    const log_type log{count_type{2u}, count_type{2u}, e0, e1, count_type{1u} | flag, e0,
                       position{1},    count_type{1u}, e1};

    const auto load = [&log](auto loader_tag) {
        tessera::registry target{};
        input_archive input{&log};

        if constexpr (decltype(loader_tag)::value) {
            tessera::snapshot_loader{target}.get<tessera::entity>(input).get<position>(input);
        } else {
            tessera::continuous_loader{target}.get<tessera::entity>(input).get<position>(input);
        }
    };

    EXPECT_MISUSE(load(std::true_type{}), "snapshot_loader: a disabled identifier is not in its pool");
    EXPECT_MISUSE(load(std::false_type{}), "continuous_loader: a disabled identifier is not in its pool");
}

} // namespace unit_entity_snapshot_disabled
} // namespace
