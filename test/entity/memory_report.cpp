// Tests of memory_report.hpp and of registry::memory_report / registry::debug_components: the totals agree byte
// for byte with a counting allocator, the rows describe the pools, the table is aligned, and building the report
// takes nothing from the registry's allocator.
#include "support/misuse.hpp"
#include "support/tracking_allocator.hpp"
#include <algorithm>
#include <cstddef>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <string_view>
#include <tessera/core/hashed_string.hpp>
#include <tessera/entity/debugger.hpp>
#include <tessera/entity/memory_contributors.hpp>
#include <tessera/entity/memory_report.hpp>
#include <tessera/entity/registry.hpp>
#include <utility>
#include <vector>

namespace {
namespace unit_entity_memory_report {

namespace {

using tessera_test::allocation_log;
using tessera_test::tracking_allocator;
using namespace tessera::literals;
using registry_type = tessera::basic_registry<tessera::entity, tracking_allocator<tessera::entity>>;

struct position {
    float x{};
    float y{};
};

struct velocity {
    float dx{};
    float dy{};
};

struct tag {};

struct stable {
    static constexpr bool in_place_delete = true;
    int value{};
};

std::vector<std::string> lines_of(const std::string &text) {
    std::vector<std::string> out{};
    std::istringstream stream{text};

    for (std::string line; std::getline(stream, line);) {
        out.push_back(line);
    }

    return out;
}

// What a registry holds besides what the report counts (its hash maps, group handlers, listener lists) does not
// change once its pools, groups and listeners exist: from then on the report and the allocator move together.
TEST(MemoryReport, TotalFollowsTheAllocatorOfTheRegistry) {
    allocation_log log{};
    {
        registry_type registry{tracking_allocator<tessera::entity>{log}};
        // every kind of pool: components, empty types, in-place deletion, a named pool, a reactive storage and
        // pools that groups own or observe
        static_cast<void>(registry.storage<position>());
        static_cast<void>(registry.storage<tag>());
        static_cast<void>(registry.storage<stable>());
        static_cast<void>(registry.storage<position>("enemies"_hs));
        auto &observer = registry.storage<tessera::reactive>("moved"_hs);
        observer.on_construct<velocity>();
        static_cast<void>(registry.group<velocity>(tessera::get<position>));
        // a non-owning group keeps a set of members that grows with them
        static_cast<void>(registry.group<>(tessera::get<position, tag>));

        const auto fixed = log.live_bytes - registry.memory_report().total_bytes();
        const auto check = [&](const char *step) {
            EXPECT_EQ(registry.memory_report().total_bytes() + fixed, log.live_bytes) << step;
        };

        std::vector<registry_type::entity_type> entities(20000u);
        registry.create(entities.begin(), entities.end());
        check("create");

        for (std::size_t pos{}; pos < entities.size(); ++pos) {
            const auto entt = entities[pos];
            registry.emplace<position>(entt, 1.f, 2.f);

            if (pos % 2u == 0u) {
                registry.emplace<velocity>(entt);
                registry.emplace<tag>(entt);
            }

            if (pos % 3u == 0u) {
                registry.emplace<stable>(entt);
                registry.storage<position>("enemies"_hs).emplace(entt);
            }
        }

        check("emplace");
        EXPECT_GT(registry.memory_report().group_bytes, 0u);
        EXPECT_EQ(observer.size(), entities.size() / 2u);

        for (std::size_t pos{}; pos < entities.size(); pos += 4u) {
            registry.destroy(entities[pos]);
        }

        check("destroy");
        registry.compact();
        check("compact");

        for (auto [id, pool] : registry.storage()) {
            pool.shrink_to_fit();
        }

        registry.storage<registry_type::entity_type>().shrink_to_fit();
        check("shrink_to_fit");
        registry.clear();
        check("clear");
    }
    EXPECT_TRUE(log.balanced());
}

TEST(MemoryReport, RowsDescribeThePools) {
    tessera::registry registry{};
    const auto entt = registry.create();
    registry.emplace<position>(entt);
    registry.emplace<tag>(entt);
    registry.storage<position>("enemies"_hs).emplace(entt);

    const auto report = registry.memory_report();
    ASSERT_EQ(report.pools.size(), 3u);

    const auto *positions = report.find(tessera::type_hash<position>::value());
    ASSERT_NE(positions, nullptr);
    EXPECT_EQ(positions->type, tessera::type_name<position>::value());
    EXPECT_FALSE(positions->named);
    EXPECT_EQ(positions->element_size, sizeof(position));
    EXPECT_EQ(positions->size, 1u);
    EXPECT_EQ(positions->bytes, tessera::memory_of(std::as_const(registry).storage<position>()[0]).bytes);

    const auto *enemies = report.find("enemies"_hs);
    ASSERT_NE(enemies, nullptr);
    EXPECT_TRUE(enemies->named);
    EXPECT_EQ(enemies->type, tessera::type_name<position>::value());

    const auto *tags = report.find(tessera::type_hash<tag>::value());
    ASSERT_NE(tags, nullptr);
    EXPECT_EQ(tags->element_size, 0u);
    EXPECT_EQ(tags->packed_pages, 0u);

    EXPECT_EQ(report.find("missing"_hs), nullptr);
    EXPECT_EQ(report.entities.size, 1u);
    EXPECT_GT(report.registry_bytes, 0u);

    std::size_t sum = report.entities.bytes + report.registry_bytes + report.group_bytes;

    for (const auto &row : report.pools) {
        sum += row.bytes;
    }

    EXPECT_EQ(report.total_bytes(), sum);
}

TEST(MemoryReport, GroupsCountTheirMemberSets) {
    tessera::registry registry{};

    for (int count{}; count < 100; ++count) {
        const auto entt = registry.create();
        registry.emplace<position>(entt);
        registry.emplace<velocity>(entt);
        registry.emplace<tag>(entt);
    }

    // an owning group arranges the pools it owns and keeps no set of its own
    static_cast<void>(registry.group<velocity>(tessera::get<position>));
    EXPECT_EQ(registry.memory_report().group_bytes, 0u);

    const auto group = registry.group<>(tessera::get<position, tag>);
    ASSERT_EQ(group.size(), 100u);
    const auto bytes = registry.memory_report().group_bytes;
    // at least the packed identifiers of the members and one sparse page
    EXPECT_GE(bytes, 100u * sizeof(tessera::entity) +
                         tessera::entt_traits<tessera::entity>::page_size * sizeof(tessera::entity));

    registry.clear();
    EXPECT_EQ(registry.memory_report().group_bytes, bytes) << "clearing keeps the memory";
}

TEST(MemoryReport, AllocatesNothingFromTheRegistry) {
    allocation_log log{};
    registry_type registry{tracking_allocator<tessera::entity>{log}};
    const auto entt = registry.create();
    registry.emplace<position>(entt);
    registry.emplace<tag>(entt);

    const auto before = log.allocations;
    const auto report = registry.memory_report();
    const auto text = report.to_string();
    const auto names = registry.debug_components(entt);
    EXPECT_EQ(log.allocations, before);
    EXPECT_FALSE(text.empty());
    EXPECT_FALSE(names.empty());
}

TEST(MemoryReport, TableIsAligned) {
    tessera::registry registry{};

    for (int count = 0; count < 1500; ++count) {
        const auto entt = registry.create();
        registry.emplace<position>(entt);

        if (count % 2 == 0) {
            registry.emplace<velocity>(entt);
        }
    }

    static_cast<void>(registry.storage<velocity>("named"_hs));
    const auto report = registry.memory_report();
    const auto lines = lines_of(report.to_string());
    // a header, one line per pool, then the entities, the groups, the registry and the total
    ASSERT_EQ(lines.size(), 1u + report.pools.size() + 4u);
    EXPECT_EQ(lines.front().substr(0u, 4u), "pool");
    EXPECT_EQ(lines.back().substr(0u, 5u), "total");

    // every line ends with the share column, right-aligned: the lines have the same length
    for (const auto &line : lines) {
        EXPECT_EQ(line.size(), lines.front().size()) << line;
    }

    const auto has_line = [&lines](const std::string_view start) {
        for (const auto &line : lines) {
            if (line.starts_with(start)) {
                return true;
            }
        }
        return false;
    };

    EXPECT_TRUE(has_line(tessera::type_name<position>::value()));
    EXPECT_TRUE(has_line("(entities)"));
    EXPECT_TRUE(has_line("(registry)"));
    EXPECT_TRUE(lines.back().ends_with("100.0%"));

    // a named pool shows the hash of its name, until it is given a label
    std::string named{tessera::type_name<velocity>::value()};
    named.append(" @0x");
    EXPECT_TRUE(has_line(named));

    auto labelled = report;
    labelled.label("named"_hs, "velocity (named)");
    const auto relabelled = lines_of(labelled.to_string());
    EXPECT_TRUE(std::any_of(relabelled.begin(), relabelled.end(),
                            [](const auto &line) { return line.starts_with("velocity (named)"); }));
}

TEST(MemoryReport, StreamsTheTable) {
    tessera::registry registry{};
    registry.emplace<position>(registry.create());
    const auto report = registry.memory_report();
    std::ostringstream stream{};
    stream << report;
    EXPECT_EQ(stream.str(), report.to_string());
}

TEST(MemoryReport, EmptyRegistry) {
    const tessera::registry registry{};
    const auto report = registry.memory_report();
    EXPECT_TRUE(report.pools.empty());
    EXPECT_EQ(report.total_bytes(), report.registry_bytes);
    // no division by zero in the share column
    EXPECT_NE(report.to_string().find("0.0%"), std::string::npos);
}

struct held_memory {
    std::size_t held;
    static std::size_t bytes(const void *self) { return static_cast<const held_memory *>(self)->held; }
};

TEST(MemoryReport, ContributorsAreRowsOfTheTotal) {
    tessera::registry registry{};
    registry.emplace<position>(registry.create());
    const auto plain = registry.memory_report();
    EXPECT_TRUE(plain.others.empty());

    held_memory first{1000u};
    held_memory second{24u};
    auto &contributors = registry.ctx().emplace<tessera::memory_contributors>();
    contributors.add("first holder", &first, &held_memory::bytes);
    contributors.add("second holder", &second, &held_memory::bytes);
    ASSERT_EQ(contributors.entries().size(), 2u);

    const auto report = registry.memory_report();
    ASSERT_EQ(report.others.size(), 2u);
    EXPECT_EQ(report.others[0].name, "first holder");
    EXPECT_EQ(report.others[0].bytes, 1000u);
    EXPECT_EQ(report.others[1].name, "second holder");
    EXPECT_EQ(report.others[1].bytes, 24u);
    EXPECT_EQ(report.total_bytes(), plain.total_bytes() + 1024u);

    // measured when the report is made, not when the entry is added
    first.held = 2000u;
    EXPECT_EQ(registry.memory_report().others[0].bytes, 2000u);

    // a line each, after the entities and before the groups, aligned with the others
    const auto lines = lines_of(report.to_string());
    ASSERT_EQ(lines.size(), 1u + report.pools.size() + 6u);
    const auto entities = 1u + report.pools.size();
    EXPECT_TRUE(lines[entities].starts_with("(entities)"));
    EXPECT_TRUE(lines[entities + 1u].starts_with("first holder"));
    EXPECT_NE(lines[entities + 1u].find(" 1000 "), std::string::npos);
    EXPECT_TRUE(lines[entities + 2u].starts_with("second holder"));
    EXPECT_TRUE(lines[entities + 3u].starts_with("(groups)"));

    for (const auto &line : lines) {
        EXPECT_EQ(line.size(), lines.front().size()) << line;
    }
}

TEST(MemoryReport, ContributorsAreRemovedByOwner) {
    tessera::registry registry{};
    held_memory first{8u};
    held_memory second{16u};
    auto &contributors = registry.ctx().emplace<tessera::memory_contributors>();
    contributors.add("first", &first, &held_memory::bytes);
    contributors.add("second", &second, &held_memory::bytes);
    contributors.add("first again", &first, &held_memory::bytes);

    EXPECT_EQ(contributors.remove(&first), 2u);
    EXPECT_EQ(contributors.remove(&first), 0u);
    ASSERT_EQ(contributors.entries().size(), 1u);
    EXPECT_EQ(contributors.entries()[0].name, "second");

    const auto report = registry.memory_report();
    ASSERT_EQ(report.others.size(), 1u);
    EXPECT_EQ(report.others[0].bytes, 16u);
    EXPECT_EQ(contributors.remove(&second), 1u);
    EXPECT_TRUE(registry.memory_report().others.empty());
}

TEST(MemoryReport, ContributorsNeedAnOwnerAndAMeasure) {
    tessera::memory_contributors contributors{};
    held_memory held{};
    EXPECT_MISUSE(contributors.add("no owner", nullptr, &held_memory::bytes), "an entry needs an owner");
    EXPECT_MISUSE(contributors.add("no measure", &held, nullptr), "a function that measures it");
    EXPECT_TRUE(contributors.entries().empty());
}

TEST(DebugComponents, NamesTheTypesOfTheEntity) {
    tessera::registry registry{};
    const auto entt = registry.create();
    const auto other = registry.create();
    EXPECT_EQ(registry.debug_components(entt), "");

    registry.emplace<position>(entt);
    registry.emplace<tag>(entt);
    registry.emplace<velocity>(other);
    std::string expected{tessera::type_name<position>::value()};
    expected.append(", ").append(tessera::type_name<tag>::value());
    EXPECT_EQ(registry.debug_components(entt), expected);

    registry.storage<velocity>("boost"_hs).emplace(entt);
    EXPECT_NE(registry.debug_components(entt).find(" @0x"), std::string::npos);
    EXPECT_EQ(registry.debug_components(other), tessera::type_name<velocity>::value());
}

TEST(DebugComponents, InvalidEntity) {
    tessera::registry registry{};
    const auto entt = registry.create();
    registry.destroy(entt);
    EXPECT_EQ(registry.debug_components(entt), "(not a valid entity)");
    EXPECT_EQ(registry.debug_components(tessera::null), "(not a valid entity)");
}

} // namespace

} // namespace unit_entity_memory_report
} // namespace
