// Tests for the registry: identifiers, components, pools (named, opaque, iterable), signals through the
// registry, sorting, other identifier types, what a throwing constructor leaves behind, and clone.
#include "support/misuse.hpp"
#include "support/tracking_allocator.hpp"
#include "support/tracking_resource.hpp"
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <gtest/gtest.h>
#include <memory>
#include <memory_resource>
#include <stdexcept>
#include <string>
#include <tessera/core/hashed_string.hpp>
#include <tessera/core/type_info.hpp>
#include <tessera/entity/clone.hpp>
#include <tessera/entity/entity.hpp>
#include <tessera/entity/memory_report.hpp>
#include <tessera/entity/registry.hpp>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {
namespace unit_entity_registry {

namespace {

using namespace tessera::literals;
using traits = tessera::entt_traits<tessera::entity>;

struct position {
    int x;
    int y;
};

struct velocity {
    int dx;
};

struct tag {};

struct pinned {
    static constexpr bool in_place_delete = true;
    int value;
};

/// A type with a user constructor (not an aggregate).
struct named {
    explicit named(int init) : value{init * 2} {}
    int value;
};

/// Not default-constructible: opaque push without a value cannot build it.
struct no_default {
    explicit no_default(int init) : value{init} {}
    int value;
};

/// Its constructor throws when asked to.
struct fragile {
    explicit fragile(const bool fail) : value{1} {
        if (fail) {
            throw std::runtime_error{"fragile"};
        }
    }

    fragile(const fragile &other) : value{other.value} {
        if (other.value < 0) {
            throw std::runtime_error{"fragile copy"};
        }
    }

    fragile &operator=(const fragile &) = default;

    int value;
};

int counter = 0;

void count_listener() { ++counter; }

tessera::entity make(const std::uint32_t index, const std::uint16_t version) {
    return traits::construct(index, version);
}

} // namespace

// Identifiers

TEST(Registry, NothingIsValidInAnEmptyRegistry) {
    const tessera::registry reg;
    EXPECT_FALSE(reg.valid(tessera::null));
    EXPECT_FALSE(reg.valid(tessera::tombstone));
    EXPECT_FALSE(reg.valid(tessera::entity{0}));
    EXPECT_EQ(reg.current(tessera::null), 0xFFFu);
    EXPECT_EQ(reg.current(tessera::entity{5}), 0xFFFu);
}

TEST(Registry, CreateAndValid) {
    tessera::registry reg;
    const auto first = reg.create();
    const auto second = reg.create();

    EXPECT_EQ(first, make(0u, 0u));
    EXPECT_EQ(second, make(1u, 0u));
    EXPECT_TRUE(reg.valid(first));
    EXPECT_TRUE(reg.valid(second));
    EXPECT_FALSE(reg.valid(make(1u, 1u)));
    EXPECT_EQ(reg.current(second), 0u);
    EXPECT_EQ(reg.storage<tessera::entity>().free_list(), 2u);
}

TEST(Registry, EntityAndVersionHelpers) {
    const auto entt = make(7u, 3u);
    EXPECT_EQ(tessera::registry::entity(entt), make(7u, 0u));
    EXPECT_EQ(tessera::registry::version(entt), 3u);
    static_assert(tessera::registry::entity(tessera::entity{0x00300007}) == tessera::entity{7});
}

TEST(Registry, DestroyBumpsTheVersion) {
    tessera::registry reg;
    const auto entt = reg.create();
    EXPECT_EQ(reg.destroy(entt), 1u);

    EXPECT_FALSE(reg.valid(entt));
    EXPECT_EQ(reg.current(entt), tessera::to_version(entt) + 1u);

    const auto recycled = reg.create();
    EXPECT_EQ(recycled, make(0u, 1u));
    EXPECT_TRUE(reg.valid(recycled));
}

TEST(Registry, RecyclingIsLifo) {
    tessera::registry reg;
    const auto a = reg.create();
    const auto b = reg.create();
    const auto c = reg.create();

    reg.destroy(a);
    reg.destroy(b);

    EXPECT_EQ(tessera::to_entity(reg.create()), tessera::to_entity(b));
    EXPECT_EQ(tessera::to_entity(reg.create()), tessera::to_entity(a));
    EXPECT_EQ(tessera::to_entity(reg.create()), 3u);
    EXPECT_TRUE(reg.valid(c));
}

TEST(Registry, VersionWrapsAndSkipsTheTombstone) {
    tessera::registry reg;
    auto entt = reg.create();

    EXPECT_EQ(reg.destroy(entt, 0xFFEu), 0xFFEu);
    entt = reg.create();
    EXPECT_EQ(tessera::to_version(entt), 0xFFEu);
    EXPECT_EQ(reg.destroy(entt), 0u);
    EXPECT_EQ(reg.current(entt), 0u);

    entt = reg.create();
    const tessera::entity tomb = tessera::tombstone;
    EXPECT_EQ(reg.destroy(entt, tessera::to_version(tomb)), 0u);
    EXPECT_EQ(reg.current(entt), 0u);

    entt = reg.create();
    EXPECT_EQ(reg.release(entt, 0xFFFu), 0u);
    entt = reg.create();
    EXPECT_EQ(reg.release(entt, 5u), 5u);
    EXPECT_EQ(reg.create(), make(0u, 5u));
}

TEST(Registry, CreateWithHint) {
    tessera::registry reg;

    // an unused index: exactly the hint, the skipped indices are not valid
    const auto hinted = reg.create(make(5u, 3u));
    EXPECT_EQ(hinted, make(5u, 3u));
    EXPECT_FALSE(reg.valid(make(2u, 0u)));

    // an index in use: a fresh identifier
    const auto other = reg.create(hinted);
    EXPECT_NE(other, hinted);
    EXPECT_TRUE(reg.valid(other));

    // null and the tombstone version are ignored
    EXPECT_TRUE(reg.valid(reg.create(tessera::null)));
    const auto from_tombstone = reg.create(make(9u, 0xFFFu));
    EXPECT_TRUE(reg.valid(from_tombstone));
    EXPECT_NE(tessera::to_version(from_tombstone), 0xFFFu);

    // a released index: the hint with its own version
    reg.destroy(hinted);
    EXPECT_EQ(reg.create(make(5u, 9u)), make(5u, 9u));
}

TEST(Registry, CreateRangeRecyclesFirst) {
    tessera::registry reg;
    const auto e0 = reg.create();
    reg.destroy(reg.create());
    reg.destroy(e0);
    reg.destroy(reg.create());

    std::array<tessera::entity, 3u> range{};
    reg.create(range.begin(), range.end());

    EXPECT_EQ(range[0], make(0u, 2u));
    EXPECT_EQ(range[1], make(1u, 1u));
    EXPECT_EQ(range[2], make(2u, 0u));
}

TEST(Registry, StartFrom) {
    tessera::registry reg;
    reg.storage<tessera::entity>().start_from(tessera::entity{100});
    EXPECT_EQ(reg.create(), make(100u, 0u));
}

// With every index handed out, create() is refused (a misuse; without the checks, std::length_error) and the
// registry is left as it was; a destroyed entity's index then comes back.
TEST(Registry, CreateWithNoIdentifierLeft) {
    using traits = tessera::entt_traits<tessera::entity>;
    tessera::registry reg;
    reg.storage<tessera::entity>().start_from(make(traits::entity_mask - 1u, 0u));
    const auto last = reg.create();
    reg.emplace<int>(last, 3);
    std::array<tessera::entity, 2u> range{};

    if constexpr (tessera_test::misuse_runs) {
        EXPECT_MISUSE(static_cast<void>(reg.create()), "no identifiers left");
        EXPECT_MISUSE(reg.create(range.begin(), range.end()), "no identifiers left");
    } else {
        EXPECT_THROW(static_cast<void>(reg.create()), std::length_error);
        EXPECT_THROW(reg.create(range.begin(), range.end()), std::length_error);
    }

    EXPECT_EQ(reg.storage<tessera::entity>().free_list(), 1u);
    EXPECT_TRUE(reg.valid(last));
    EXPECT_EQ(reg.get<int>(last), 3);

    reg.destroy(last);
    EXPECT_EQ(reg.create(), make(traits::entity_mask - 1u, 1u));
}

TEST(Registry, DestroyRangeAndMisuse) {
    tessera::registry reg;
    std::array<tessera::entity, 4u> range{};
    reg.create(range.begin(), range.end());
    reg.emplace<int>(range[1], 1);
    reg.emplace<int>(range[2], 2);
    reg.storage<int>("named"_hs).emplace(range[2], 3);

    // the range is read completely first: it may be the pool being emptied
    const tessera::sparse_set &ints = reg.storage<int>();
    reg.destroy(ints.begin(), ints.end());

    EXPECT_TRUE(reg.valid(range[0]));
    EXPECT_FALSE(reg.valid(range[1]));
    EXPECT_FALSE(reg.valid(range[2]));
    EXPECT_TRUE(reg.storage<int>().empty());
    EXPECT_TRUE(reg.storage<int>("named"_hs).empty());

    EXPECT_MISUSE(reg.destroy(range[1]), "destroy: invalid entity");
    EXPECT_MISUSE(reg.destroy(tessera::null), "destroy: invalid entity");

    reg.destroy(range.begin(), range.begin() + 1);
    EXPECT_FALSE(reg.valid(range[0]));
}

namespace {

// What destroy listeners saw: for each signal, the pool ('i' for int, 'e' for the entity storage), the entity, and
// whether the entity was still valid and still had an int.
struct destroy_log {
    struct event {
        char pool;
        tessera::entity entt;
        bool valid;
        bool has_int;
    };

    std::vector<event> events;

    template<char Pool>
    void note(tessera::registry &reg, const tessera::entity entt) {
        events.push_back({Pool, entt, reg.valid(entt), reg.all_of<int>(entt)});
    }
};

} // namespace

// The range form: every entity gets its pools' destroy signals before the entity storage's, while it is valid, and
// no entity outside the range is touched.
TEST(Registry, DestroyRangeSignalsAndOrder) {
    tessera::registry reg;
    std::array<tessera::entity, 6u> range{};
    reg.create(range.begin(), range.end());

    for (const auto entt : range) {
        reg.emplace<int>(entt, static_cast<int>(tessera::to_entity(entt)));
    }

    destroy_log log;
    reg.on_destroy<int>().connect<&destroy_log::note<'i'>>(log);
    reg.on_destroy<tessera::entity>().connect<&destroy_log::note<'e'>>(log);

    const std::array<tessera::entity, 3u> doomed{range[4], range[1], range[2]};
    reg.destroy(doomed.begin(), doomed.end());

    ASSERT_EQ(log.events.size(), 6u);

    for (const auto entt : doomed) {
        const auto int_signal = std::find_if(log.events.begin(), log.events.end(), [entt](const auto &event) {
            return event.entt == entt && event.pool == 'i';
        });
        const auto entity_signal = std::find_if(log.events.begin(), log.events.end(), [entt](const auto &event) {
            return event.entt == entt && event.pool == 'e';
        });
        ASSERT_NE(int_signal, log.events.end());
        ASSERT_NE(entity_signal, log.events.end());
        EXPECT_LT(int_signal, entity_signal);
        EXPECT_TRUE(int_signal->valid);
        EXPECT_TRUE(entity_signal->valid);
        EXPECT_FALSE(entity_signal->has_int);
        EXPECT_FALSE(reg.valid(entt));
    }

    for (const auto index : {0u, 3u, 5u}) {
        ASSERT_TRUE(reg.valid(range[index]));
        EXPECT_EQ(reg.get<int>(range[index]), static_cast<int>(tessera::to_entity(range[index])));
    }

    EXPECT_EQ(reg.storage<int>().size(), 3u);
    // released LIFO: the last one of the range is recycled first
    EXPECT_EQ(tessera::to_entity(reg.create()), tessera::to_entity(range[2]));
}

namespace {

// Destroys the entity's partner, as a parent may take its children with it.
struct partner_destroyer {
    std::vector<std::pair<tessera::entity, tessera::entity>> partners;

    void on_int(tessera::registry &reg, const tessera::entity entt) {
        for (const auto &[from, to] : partners) {
            if (from == entt && reg.valid(to)) {
                reg.destroy(to);
            }
        }
    }
};

} // namespace

// Listeners may destroy entities of the range, or others, while the range is destroyed pool by pool.
TEST(Registry, DestroyRangeWhileListenersDestroyOthers) {
    tessera::registry reg;
    std::array<tessera::entity, 8u> range{};
    reg.create(range.begin(), range.end());

    for (const auto entt : range) {
        reg.emplace<int>(entt, static_cast<int>(tessera::to_entity(entt)));
        reg.emplace<char>(entt, 'c');
    }

    // range[1] takes range[2] (in the range, further on) and range[7] (outside it) with it
    partner_destroyer destroyer{{{range[1], range[2]}, {range[1], range[7]}, {range[5], range[0]}}};
    reg.on_destroy<int>().connect<&partner_destroyer::on_int>(destroyer);

    const std::array<tessera::entity, 4u> doomed{range[1], range[2], range[4], range[5]};
    reg.destroy(doomed.begin(), doomed.end());

    for (std::size_t pos{}; pos < range.size(); ++pos) {
        const bool alive = (pos == 3u || pos == 6u);
        ASSERT_EQ(reg.valid(range[pos]), alive) << pos;
        EXPECT_EQ(reg.current(range[pos]), alive ? 0u : 1u) << pos;
    }

    EXPECT_EQ(reg.storage<int>().size(), 2u);
    EXPECT_EQ(reg.storage<char>().size(), 2u);
    EXPECT_EQ(reg.storage<tessera::entity>().free_list(), 2u);
    EXPECT_EQ(reg.get<int>(range[3]), static_cast<int>(tessera::to_entity(range[3])));
    EXPECT_EQ(reg.get<int>(range[6]), static_cast<int>(tessera::to_entity(range[6])));
}

// The range may walk the entity storage itself, which the call empties: it is read completely first.
TEST(Registry, DestroyRangeOfTheEntityStorage) {
    tessera::registry reg;
    std::array<tessera::entity, 5u> range{};
    reg.create(range.begin(), range.end());
    reg.emplace<int>(range[3], 3);

    const tessera::sparse_set &entities = reg.storage<tessera::entity>();
    reg.destroy(entities.begin(), entities.end());

    for (const auto entt : range) {
        EXPECT_FALSE(reg.valid(entt));
    }

    EXPECT_EQ(reg.storage<tessera::entity>().free_list(), 0u);
    EXPECT_TRUE(reg.storage<int>().empty());
}

TEST(Registry, Release) {
    tessera::registry reg;
    std::array<tessera::entity, 3u> range{};
    reg.create(range.begin(), range.end());
    reg.emplace<int>(range[0], 1);

    EXPECT_MISUSE(reg.release(range[0]), "still has components");
    EXPECT_TRUE(reg.valid(range[0]));

    EXPECT_EQ(reg.release(range[1]), 1u);
    EXPECT_FALSE(reg.valid(range[1]));
    EXPECT_MISUSE(reg.release(range[1]), "release: invalid entity");

    reg.release(range.begin() + 2, range.end());
    EXPECT_FALSE(reg.valid(range[2]));

    // a component of a named pool counts as well
    const auto entt = reg.create();
    reg.storage<char>("named"_hs).emplace(entt, 'x');
    EXPECT_MISUSE(reg.release(entt), "still has components");
}

TEST(Registry, ShrinkToFitShrinksTheMemberSetsOfNonOwningGroups) {
    tessera::registry reg;
    const auto group = reg.group<>(tessera::get<position, velocity>);
    std::vector<tessera::entity> made(4u * traits::page_size);
    reg.create(made.begin(), made.end());

    for (const auto entt : made) {
        reg.emplace<position>(entt, 1, 2);
        reg.emplace<velocity>(entt, 3);
    }

    const auto peak = reg.memory_report().group_bytes;
    reg.destroy(made.begin() + 10, made.end());
    ASSERT_EQ(group.size(), 10u);
    EXPECT_EQ(reg.memory_report().group_bytes, peak);
    EXPECT_GE(group.capacity(), made.size());

    reg.shrink_to_fit();
    EXPECT_LT(group.capacity(), made.size());
    EXPECT_LT(reg.memory_report().group_bytes * 4u, peak);
    EXPECT_EQ(group.size(), 10u);

    for (auto it = made.begin(); it != made.begin() + 10; ++it) {
        EXPECT_TRUE(group.contains(*it));
    }
}

TEST(Registry, ShrinkToFitGivesBackWhatADestroyedPeakHeld) {
    using registry_type = tessera::basic_registry<tessera::entity, tessera_test::tracking_allocator<tessera::entity>>;
    constexpr std::size_t page = traits::page_size;
    constexpr std::size_t count = 16u * page;
    constexpr std::size_t kept = count / 10u;
    tessera_test::allocation_log log{};

    {
        registry_type reg{tessera_test::tracking_allocator<tessera::entity>{log}};
        std::vector<tessera::entity> made(count);
        reg.create(made.begin(), made.end());

        for (std::size_t pos{}; pos < count; ++pos) {
            reg.emplace<position>(made[pos], static_cast<int>(pos), -static_cast<int>(pos));
            reg.emplace<velocity>(made[pos], static_cast<int>(pos) + 1);
        }

        const auto peak = log.live_bytes;
        // the peak goes away: the entities created last are destroyed
        reg.destroy(made.begin() + static_cast<std::ptrdiff_t>(kept), made.end());
        const auto destroyed = log.live_bytes;
        reg.shrink_to_fit();

        EXPECT_LT(log.live_bytes, destroyed);
        EXPECT_LE(log.live_bytes * 100u, peak * 15u);
        // only the sparse pages that still hold an entity stay, in the pools and in the entity storage
        const auto pages = (kept + page - 1u) / page;
        EXPECT_EQ(reg.storage<position>().sparse_pages(), pages);
        EXPECT_EQ(reg.storage<velocity>().sparse_pages(), pages);
        EXPECT_EQ(reg.storage<tessera::entity>().sparse_pages(), pages);
        EXPECT_EQ(reg.storage<tessera::entity>().size(), kept);

        for (std::size_t pos{}; pos < count; ++pos) {
            ASSERT_EQ(reg.valid(made[pos]), pos < kept);
        }

        for (std::size_t pos{}; pos < kept; ++pos) {
            ASSERT_EQ(reg.get<position>(made[pos]).x, static_cast<int>(pos));
            ASSERT_EQ(reg.get<velocity>(made[pos]).dx, static_cast<int>(pos) + 1);
        }

        EXPECT_EQ((reg.view<position, velocity>().size_hint()), kept);

        // a forgotten index comes back with a version no destroyed identifier had
        const auto again = reg.create();
        EXPECT_EQ(reg.entity(again), reg.entity(made[kept]));
        EXPECT_EQ(reg.version(again), 1u);
        EXPECT_FALSE(reg.valid(made[kept]));
        reg.emplace<position>(again, 7, 8);
        EXPECT_EQ(reg.get<position>(again).y, 8);
    }

    EXPECT_TRUE(log.balanced());
}

TEST(Registry, Orphan) {
    tessera::registry reg;
    const auto entt = reg.create();
    EXPECT_TRUE(reg.orphan(entt));

    reg.emplace<tag>(entt);
    EXPECT_FALSE(reg.orphan(entt));

    reg.erase<tag>(entt);
    EXPECT_TRUE(reg.orphan(entt));

    reg.storage<int>("named"_hs).emplace(entt, 1);
    EXPECT_FALSE(reg.orphan(entt));
}

// Components

TEST(Registry, EmplaceAggregatesAndConstructors) {
    tessera::registry reg;
    const auto entt = reg.create();

    auto &pos = reg.emplace<position>(entt, 1, 2);
    EXPECT_EQ(pos.x, 1);
    EXPECT_EQ(pos.y, 2);
    EXPECT_EQ(&pos, &reg.get<position>(entt));

    EXPECT_EQ(reg.emplace<named>(entt, 4).value, 8);
    static_assert(std::is_void_v<decltype(reg.emplace<tag>(entt))>);
    reg.emplace<tag>(entt);
    EXPECT_TRUE(reg.all_of<tag>(entt));

    reg.replace<position>(entt, 3, 4);
    EXPECT_EQ(reg.get<position>(entt).x, 3);
    EXPECT_EQ(reg.get<position>(entt).y, 4);

    EXPECT_EQ(reg.emplace_or_replace<position>(entt, 5, 6).y, 6);
    EXPECT_EQ(reg.replace<named>(entt, 1).value, 2);
    EXPECT_EQ(reg.emplace_or_replace<named>(entt, 2).value, 4);
}

TEST(Registry, EmplaceMisuse) {
    tessera::registry reg;
    const auto entt = reg.create();
    reg.emplace<int>(entt, 1);

    EXPECT_MISUSE(reg.emplace<int>(entt, 2), "already owns");
    EXPECT_EQ(reg.get<int>(entt), 1);

    reg.destroy(entt);
    EXPECT_MISUSE(reg.emplace<int>(entt, 2), "emplace: invalid entity");
    EXPECT_MISUSE(reg.emplace<int>(tessera::null, 2), "emplace: invalid entity");
    EXPECT_MISUSE(reg.emplace_or_replace<int>(entt, 2), "invalid entity");
    EXPECT_TRUE(reg.storage<int>().empty());
}

TEST(Registry, InsertForms) {
    tessera::registry reg;
    std::array<tessera::entity, 3u> range{};
    reg.create(range.begin(), range.end());

    reg.insert<int>(range.begin(), range.end());
    reg.insert(range.begin(), range.end(), position{1, 2});
    const std::array<velocity, 3u> values{velocity{10}, velocity{20}, velocity{30}};
    reg.insert<velocity>(range.begin(), range.end(), values.begin());
    reg.insert<tag>(range.begin(), range.end());

    for (std::size_t pos{}; pos < range.size(); ++pos) {
        EXPECT_EQ(reg.get<int>(range[pos]), 0);
        EXPECT_EQ(reg.get<position>(range[pos]).y, 2);
        EXPECT_EQ(reg.get<velocity>(range[pos]).dx, values[pos].dx);
        EXPECT_TRUE(reg.all_of<tag>(range[pos]));
    }

    const auto dead = reg.create();
    reg.destroy(dead);
    const std::array invalid{dead};
    EXPECT_MISUSE(reg.insert<char>(invalid.begin(), invalid.end()), "insert: invalid entity");
    EXPECT_MISUSE(reg.insert<velocity>(invalid.begin(), invalid.end(), values.begin()), "insert: invalid entity");
}

TEST(Registry, Patch) {
    tessera::registry reg;
    const auto entt = reg.create();
    reg.emplace<position>(entt, 0, 0);

    auto &pos = reg.patch<position>(
        entt, [](position &curr) { curr.x = 1; }, [](position &curr) { curr.y = 2; });
    EXPECT_EQ(&pos, &reg.get<position>(entt));
    EXPECT_EQ(pos.x, 1);
    EXPECT_EQ(pos.y, 2);

    const auto other = reg.create();
    EXPECT_MISUSE(reg.patch<position>(other), "patch: the entity does not own");
    EXPECT_MISUSE(reg.replace<position>(other, 1, 1), "replace: the entity does not own");
}

TEST(Registry, RemoveAndErase) {
    tessera::registry reg;
    std::array<tessera::entity, 4u> range{};
    reg.create(range.begin(), range.end());

    for (auto entt : range) {
        reg.emplace<int>(entt, 0);
        reg.emplace<char>(entt, 'c');
    }

    reg.emplace<tag>(range[0]);

    EXPECT_EQ((reg.remove<int, tag, velocity>(range[0])), 2u);
    EXPECT_EQ((reg.remove<int, tag>(range[0])), 0u);
    EXPECT_TRUE(reg.all_of<char>(range[0]));

    // any identifier is accepted
    EXPECT_EQ(reg.remove<int>(tessera::null), 0u);
    EXPECT_EQ(reg.remove<int>(make(0u, 7u)), 0u);

    EXPECT_EQ((reg.remove<int, char>(range.begin() + 1, range.end())), 6u);
    EXPECT_EQ((reg.remove<int, char>(range.begin(), range.end())), 1u);

    for (auto entt : range) {
        reg.emplace<int>(entt, 0);
        reg.emplace<char>(entt, 'c');
    }

    reg.erase<int, char>(range[0]);
    EXPECT_TRUE(reg.orphan(range[0]));
    EXPECT_MISUSE(reg.erase<int>(range[0]), "erase: the entity does not own");
    reg.emplace<char>(range[0], 'x');
    EXPECT_MISUSE((reg.erase<int, char>(range[0])), "erase: the entity does not own");
    EXPECT_TRUE(reg.all_of<char>(range[0]));

    reg.erase<int>(range.begin() + 2, range.end());
    EXPECT_FALSE(reg.any_of<int>(range[2]));
    EXPECT_TRUE(reg.all_of<char>(range[3]));
    EXPECT_MISUSE(reg.erase<int>(range.begin() + 2, range.end()), "erase: the entity does not own");
}

TEST(Registry, ConstRegistryNeverCreatesPools) {
    tessera::registry reg;
    const auto entt = reg.create();
    const tessera::registry &view = reg;

    EXPECT_FALSE(view.all_of<int>(entt));
    EXPECT_FALSE((view.any_of<int, char>(entt)));
    EXPECT_EQ(view.try_get<int>(entt), nullptr);
    EXPECT_EQ(std::get<1>(view.try_get<int, char>(entt)), nullptr);
    EXPECT_EQ(view.storage<int>(), nullptr);
    EXPECT_EQ(view.storage<int>("named"_hs), nullptr);

    EXPECT_EQ(reg.storage(tessera::type_hash<int>::value()), nullptr);
    EXPECT_EQ(reg.storage(tessera::type_hash<char>::value()), nullptr);
    EXPECT_TRUE(reg.storage().begin() == reg.storage().end());

    // non-const try_get does not create either
    EXPECT_EQ(reg.try_get<int>(entt), nullptr);
    EXPECT_EQ(reg.storage(tessera::type_hash<int>::value()), nullptr);
}

TEST(Registry, AllOfAnyOfTryGet) {
    tessera::registry reg;
    const auto entt = reg.create();
    reg.emplace<int>(entt, 3);
    reg.emplace<tag>(entt);
    static_cast<void>(reg.storage<char>());

    EXPECT_TRUE((reg.all_of<int, tag>(entt)));
    EXPECT_FALSE((reg.all_of<int, char>(entt)));
    EXPECT_TRUE((reg.any_of<char, int>(entt)));
    EXPECT_FALSE((reg.any_of<char, velocity>(entt)));
    EXPECT_TRUE(reg.all_of<const int>(entt));

    static_assert(std::is_same_v<decltype(reg.try_get<int>(entt)), int *>);
    static_assert(std::is_same_v<decltype(reg.try_get<const int>(entt)), const int *>);
    static_assert(std::is_same_v<decltype(std::as_const(reg).try_get<int>(entt)), const int *>);
    static_assert(std::is_same_v<decltype(reg.try_get<int, char>(entt)), std::tuple<int *, char *>>);

    EXPECT_EQ(*reg.try_get<int>(entt), 3);
    *reg.try_get<int>(entt) = 4;
    EXPECT_EQ(reg.get<int>(entt), 4);

    auto [ip, cp] = reg.try_get<int, char>(entt);
    EXPECT_EQ(ip, &reg.get<int>(entt));
    EXPECT_EQ(cp, nullptr);
}

// try_get finds the element in one read of the sparse array: it must tell every absent state from a present one
TEST(Registry, TryGetAcrossPagesRemovalsAndStaleIdentifiers) {
    using stable = pinned;
    tessera::registry reg;
    std::vector<tessera::entity> entities(5000u);
    reg.create(entities.begin(), entities.end());

    for (std::size_t index{}; index < entities.size(); index += 2u) {
        reg.emplace<int>(entities[index], static_cast<int>(index));
        reg.emplace<stable>(entities[index], static_cast<int>(index));
    }

    // swap-and-pop moves the last element; in-place deletion leaves a tombstone
    reg.erase<int>(entities[0]);
    reg.erase<stable>(entities[2]);
    const auto released = entities[4];
    reg.destroy(released);
    const auto recycled = reg.create();
    ASSERT_EQ(tessera::to_entity(recycled), tessera::to_entity(released));

    for (std::size_t index{}; index < entities.size(); ++index) {
        const auto entt = entities[index];
        const bool live = reg.valid(entt);
        const bool has_int = live && index % 2u == 0u && index != 0u;
        const bool has_stable = live && index % 2u == 0u && index != 2u;
        EXPECT_EQ(reg.try_get<int>(entt), has_int ? &reg.get<int>(entt) : nullptr) << index;
        EXPECT_EQ(std::as_const(reg).try_get<stable>(entt), has_stable ? &reg.get<stable>(entt) : nullptr) << index;

        if (has_int) {
            EXPECT_EQ(*reg.try_get<int>(entt), static_cast<int>(index));
        }
    }

    EXPECT_EQ(reg.try_get<int>(recycled), nullptr);
    EXPECT_EQ(reg.try_get<int>(tessera::entity{tessera::null}), nullptr);
    EXPECT_EQ(reg.try_get<int>(tessera::entity{tessera::tombstone}), nullptr);
}

TEST(Registry, Get) {
    tessera::registry reg;
    const auto entt = reg.create();
    reg.emplace<int>(entt, 1);
    reg.emplace<char>(entt, 'c');
    reg.emplace<tag>(entt);

    static_assert(std::is_same_v<decltype(reg.get<int>(entt)), int &>);
    static_assert(std::is_same_v<decltype(reg.get<const int>(entt)), const int &>);
    static_assert(std::is_same_v<decltype(std::as_const(reg).get<int>(entt)), const int &>);
    static_assert(std::is_same_v<decltype(reg.get<int, char>(entt)), std::tuple<int &, char &>>);
    static_assert(std::is_same_v<decltype(reg.get<int, const char>(entt)), std::tuple<int &, const char &>>);
    static_assert(
        std::is_same_v<decltype(std::as_const(reg).get<int, char>(entt)), std::tuple<const int &, const char &>>);
    static_assert(std::is_void_v<decltype(reg.get<tag>(entt))>);

    auto [ivalue, cvalue] = reg.get<int, char>(entt);
    ivalue = 2;
    EXPECT_EQ(reg.get<int>(entt), 2);
    EXPECT_EQ(cvalue, 'c');
    EXPECT_EQ(&std::as_const(reg).get<char>(entt), &cvalue);

    const auto other = reg.create();
    EXPECT_MISUSE(static_cast<void>(reg.get<int>(other)), "get: the entity does not own");
    EXPECT_MISUSE(static_cast<void>(std::as_const(reg).get<int>(other)), "get: the entity does not own");
    EXPECT_MISUSE(static_cast<void>(std::as_const(reg).get<velocity>(entt)), "get: the entity does not own");
    EXPECT_MISUSE(static_cast<void>(reg.get<int, char>(other)), "get: the entity does not own");
}

TEST(Registry, GetOrEmplace) {
    tessera::registry reg;
    const auto entt = reg.create();

    auto &value = reg.get_or_emplace<int>(entt, 3);
    EXPECT_EQ(value, 3);
    EXPECT_EQ(&reg.get_or_emplace<int>(entt, 4), &value);
    EXPECT_EQ(value, 3);
    EXPECT_EQ(reg.get_or_emplace<position>(entt, 1, 2).y, 2);

    reg.destroy(entt);
    EXPECT_MISUSE(static_cast<void>(reg.get_or_emplace<int>(entt, 1)), "get_or_emplace: invalid entity");
}

TEST(Registry, ClearOneTypeOrEverything) {
    tessera::registry reg;
    std::array<tessera::entity, 3u> range{};
    reg.create(range.begin(), range.end());
    reg.insert<int>(range.begin(), range.end());
    reg.insert<char>(range.begin(), range.end());

    reg.clear<int>();
    EXPECT_TRUE(reg.storage<int>().empty());
    EXPECT_EQ(reg.storage<char>().size(), 3u);
    EXPECT_TRUE(reg.valid(range[0]));

    reg.destroy(range[2]);
    const auto released = reg.current(range[2]);
    reg.clear();

    for (auto entt : range) {
        EXPECT_FALSE(reg.valid(entt));
    }

    EXPECT_EQ(reg.current(range[0]), 1u);
    EXPECT_EQ(reg.current(range[2]), released);
    EXPECT_TRUE(reg.storage<char>().empty());
    EXPECT_EQ(reg.storage<tessera::entity>().free_list(), 0u);
    EXPECT_NE(reg.storage(tessera::type_hash<int>::value()), nullptr);
    EXPECT_NE(reg.storage(tessera::type_hash<char>::value()), nullptr);

    // identifiers are recycled
    const auto entt = reg.create();
    EXPECT_EQ(tessera::to_version(entt), 1u);
}

// Pools

TEST(Registry, NamedPools) {
    tessera::registry reg;
    counter = 0;
    reg.on_construct<int>("custom"_hs).connect<&count_listener>();

    auto &custom = reg.storage<int>("custom"_hs);
    EXPECT_NE(&custom, &reg.storage<int>());
    EXPECT_EQ(&custom, &reg.storage<int>("custom"_hs));
    EXPECT_EQ(std::as_const(reg).storage<int>("custom"_hs), &custom);
    EXPECT_EQ(&reg.storage<const int>("custom"_hs), &custom);
    static_assert(std::is_same_v<decltype(reg.storage<const int>()), const tessera::storage_for_t<int> &>);

    const auto entt = reg.create();
    reg.emplace<int>(entt, 1);
    EXPECT_EQ(counter, 0);

    custom.emplace(entt, 2);
    EXPECT_EQ(counter, 1);
    EXPECT_EQ(reg.get<int>(entt), 1);
    EXPECT_EQ(custom.get(entt), 2);

    reg.destroy(entt);
    EXPECT_TRUE(custom.empty());
    EXPECT_TRUE(reg.storage<int>().empty());
}

TEST(Registry, NameTakenByAnotherType) {
    tessera::registry reg;
    static_cast<void>(reg.storage<int>("n"_hs));
    EXPECT_MISUSE(static_cast<void>(reg.storage<char>("n"_hs)), "taken by another element type");
    EXPECT_MISUSE(static_cast<void>(std::as_const(reg).storage<char>("n"_hs)), "taken by another element type");
    EXPECT_MISUSE(static_cast<void>(reg.on_construct<char>("n"_hs)), "taken by another element type");

    // the default name of another type is a name like any other
    static_cast<void>(reg.storage<velocity>(tessera::type_hash<position>::value()));
    EXPECT_MISUSE(static_cast<void>(reg.storage<position>()), "taken by another element type");
}

TEST(Registry, OpaqueStorage) {
    tessera::registry reg;
    auto &custom = reg.storage<int>("custom"_hs);
    auto &plain = reg.storage<int>();

    EXPECT_EQ(reg.storage("custom"_hs), &custom);
    EXPECT_EQ(reg.storage(tessera::type_hash<int>::value()), &plain);
    EXPECT_EQ(std::as_const(reg).storage("custom"_hs), &custom);
    EXPECT_EQ(reg.storage("missing"_hs), nullptr);
    EXPECT_EQ(reg.storage(tessera::type_hash<tessera::entity>::value()), nullptr);
    EXPECT_EQ(reg.storage(tessera::type_id<tessera::entity>().hash()), nullptr);
    EXPECT_EQ(reg.storage("custom"_hs)->info(), tessera::type_id<int>());
}

// position is declared in an unnamed namespace: its hash is computed at run time, the default pool is found
// without it
TEST(Registry, DefaultPoolOfUnitLocalTypeUnderEveryName) {
    tessera::registry reg;
    EXPECT_EQ(std::as_const(reg).storage<position>(), nullptr);
    EXPECT_EQ(std::as_const(reg).storage<position>(tessera::type_hash<position>::value()), nullptr);

    auto &by_hash = reg.storage<position>(tessera::type_hash<position>::value());
    EXPECT_EQ(&reg.storage<position>(), &by_hash);
    EXPECT_EQ(std::as_const(reg).storage<position>(), &by_hash);
    EXPECT_EQ(std::as_const(reg).storage<position>(tessera::type_hash<position>::value()), &by_hash);
    EXPECT_EQ(reg.storage(tessera::type_hash<position>::value()), &by_hash);

    auto &named = reg.storage<position>("other"_hs);
    EXPECT_NE(&named, &by_hash);
    const auto entt = reg.create();
    reg.emplace<position>(entt, 1, 2);
    EXPECT_TRUE(by_hash.contains(entt));
    EXPECT_FALSE(named.contains(entt));
    EXPECT_EQ(reg.try_get<position>(entt), &by_hash.get(entt));
}

TEST(Registry, EntityStorageIsUnique) {
    tessera::registry reg;
    auto &entities = reg.storage<tessera::entity>();
    EXPECT_EQ(&reg.storage<tessera::entity>("x"_hs), &entities);
    EXPECT_EQ(std::as_const(reg).storage<tessera::entity>(), &entities);
    EXPECT_EQ(std::as_const(reg).storage<tessera::entity>("x"_hs), &entities);
    EXPECT_TRUE(reg.storage().begin() == reg.storage().end());
}

TEST(Registry, IterableStorage) {
    tessera::registry reg;
    static_cast<void>(reg.storage<int>());
    static_cast<void>(reg.storage<int>("custom"_hs));
    static_cast<void>(reg.storage<char>());
    static_cast<void>(reg.create());

    std::vector<tessera::id_type> names;

    for (auto [id, pool] : reg.storage()) {
        names.push_back(id);
        EXPECT_NE(pool.info(), tessera::type_id<void>());
        EXPECT_EQ(&pool, reg.storage(id));
    }

    std::sort(names.begin(), names.end());
    std::vector<tessera::id_type> expected{tessera::type_hash<int>::value(), "custom"_hs,
                                           tessera::type_hash<char>::value()};
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(names, expected);

    std::size_t count{};

    for (auto curr : std::as_const(reg).storage()) {
        static_assert(std::is_same_v<decltype(curr.second), const tessera::sparse_set &>);
        count += (curr.second.info() == tessera::type_id<tessera::entity>());
    }

    EXPECT_EQ(count, 0u);
    auto it = reg.storage().begin();
    EXPECT_EQ(it->first, (*it).first);
}

TEST(Registry, OpaqueCloning) {
    tessera::registry reg;
    const auto src = reg.create();
    const auto dst = reg.create();
    reg.emplace<position>(src, 1, 2);
    reg.emplace<tag>(src);
    reg.storage<int>("named"_hs).emplace(src, 5);
    reg.emplace<velocity>(dst, 9);

    for (auto [id, pool] : reg.storage()) {
        if (pool.contains(src) && !pool.contains(dst)) {
            EXPECT_TRUE(pool.push(dst, pool.value(src)) != pool.end());
        }
    }

    EXPECT_EQ(reg.get<position>(dst).x, 1);
    EXPECT_EQ(reg.get<position>(dst).y, 2);
    EXPECT_TRUE(reg.all_of<tag>(dst));
    EXPECT_EQ(reg.storage<int>("named"_hs).get(dst), 5);
    EXPECT_EQ(reg.get<velocity>(dst).dx, 9);

    // the doc's loop, into a fresh entity
    const auto copy = reg.create();

    for (auto &&curr : reg.storage()) {
        if (auto &storage = curr.second; storage.contains(src)) {
            storage.push(copy, storage.value(src));
        }
    }

    EXPECT_EQ(reg.get<position>(copy).y, 2);
    EXPECT_TRUE(reg.all_of<tag>(copy));
    EXPECT_FALSE(reg.all_of<velocity>(copy));

    // push without a value default-constructs, or fails for a type that cannot be
    tessera::sparse_set &positions = reg.storage<position>();
    const auto third = reg.create();
    EXPECT_TRUE(positions.push(third) != positions.end());
    EXPECT_EQ(reg.get<position>(third).x, 0);

    tessera::sparse_set &pool = reg.storage<no_default>();
    EXPECT_TRUE(pool.push(third) == pool.end());
    EXPECT_FALSE(reg.all_of<no_default>(third));
}

// Signals through the registry

TEST(Registry, DependencyIdiom) {
    tessera::registry reg;
    reg.on_construct<position>().connect<&tessera::registry::emplace_or_replace<velocity>>();
    reg.on_destroy<position>().connect<&tessera::registry::remove<tag>>();

    const auto entt = reg.create();
    reg.emplace<position>(entt, 0, 0);
    EXPECT_TRUE(reg.all_of<velocity>(entt));

    reg.emplace<tag>(entt);
    reg.erase<position>(entt);
    EXPECT_FALSE(reg.all_of<tag>(entt));
    EXPECT_TRUE(reg.all_of<velocity>(entt));

    // replaced, not duplicated
    reg.replace<velocity>(entt, 3);
    reg.emplace<position>(entt, 0, 0);
    EXPECT_EQ(reg.get<velocity>(entt).dx, 0);

    reg.on_construct<position>().disconnect<&tessera::registry::emplace_or_replace<velocity>>();
    reg.on_destroy<position>().disconnect<&tessera::registry::remove<tag>>();

    const auto other = reg.create();
    reg.emplace<position>(other, 0, 0);
    EXPECT_FALSE(reg.all_of<velocity>(other));

    reg.emplace<tag>(other);
    reg.erase<position>(other);
    EXPECT_TRUE(reg.all_of<tag>(other));
}

TEST(Registry, EveryNewEntityGetsAComponent) {
    tessera::registry reg;
    reg.on_construct<tessera::entity>().connect<&tessera::registry::emplace<tag>>();

    const auto entt = reg.create();
    std::array<tessera::entity, 2u> range{};
    reg.create(range.begin(), range.end());

    EXPECT_TRUE(reg.all_of<tag>(entt));
    EXPECT_TRUE(reg.all_of<tag>(range[0]));
    EXPECT_TRUE(reg.all_of<tag>(range[1]));
    EXPECT_EQ(reg.storage<tag>().size(), 3u);

    reg.destroy(entt);
    EXPECT_EQ(reg.storage<tag>().size(), 2u);
    EXPECT_TRUE(reg.all_of<tag>(reg.create()));
}

// Sorting, compacting, groups

TEST(Registry, SortByComponentAndByEntity) {
    tessera::registry reg;
    std::array<tessera::entity, 5u> range{};
    reg.create(range.begin(), range.end());
    const std::array values{3, 1, 4, 1, 5};

    for (std::size_t pos{}; pos < range.size(); ++pos) {
        reg.emplace<int>(range[pos], values[pos]);
    }

    reg.sort<int>([](const int lhs, const int rhs) { return lhs < rhs; });
    const tessera::sparse_set &ints = reg.storage<int>();
    EXPECT_TRUE(std::is_sorted(ints.begin(), ints.end(),
                               [&reg](auto lhs, auto rhs) { return reg.get<int>(lhs) < reg.get<int>(rhs); }));

    std::vector<int> seen;

    for (auto [entt, value] : reg.storage<int>().each()) {
        EXPECT_EQ(reg.get<int>(entt), value);
        seen.push_back(value);
    }

    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));

    reg.sort<int>([](const tessera::entity lhs, const tessera::entity rhs) {
        return tessera::to_integral(lhs) > tessera::to_integral(rhs);
    });
    EXPECT_TRUE(std::is_sorted(ints.begin(), ints.end(), std::greater<>{}));

    // with another algorithm
    reg.sort<int>([](const int lhs, const int rhs) { return lhs > rhs; }, tessera::insertion_sort{});
    EXPECT_TRUE(std::is_sorted(ints.begin(), ints.end(),
                               [&reg](auto lhs, auto rhs) { return reg.get<int>(lhs) > reg.get<int>(rhs); }));
}

TEST(Registry, SortOfATypeWithoutInstancesTakesEntities) {
    tessera::registry reg;
    std::array<tessera::entity, 5u> range{};
    reg.create(range.begin(), range.end());
    reg.insert<tag>(range.begin(), range.end());

    // the documented call: the comparator takes two entities, there is no element to compare
    reg.sort<tag>([](const tessera::entity lhs, const tessera::entity rhs) {
        return tessera::to_integral(lhs) < tessera::to_integral(rhs);
    });
    const tessera::sparse_set &tags = reg.storage<tag>();
    EXPECT_TRUE(std::is_sorted(tags.begin(), tags.end()));

    reg.sort<tag>(std::greater<tessera::entity>{}, tessera::insertion_sort{});
    EXPECT_TRUE(std::is_sorted(tags.begin(), tags.end(), std::greater<>{}));

    // the same through the storage and its base class
    reg.storage<tag>().sort([](const tessera::entity lhs, const tessera::entity rhs) { return lhs < rhs; });
    EXPECT_TRUE(std::is_sorted(tags.begin(), tags.end()));
}

TEST(Registry, SortAs) {
    tessera::registry reg;
    std::array<tessera::entity, 5u> range{};
    reg.create(range.begin(), range.end());

    for (auto entt : range) {
        reg.emplace<velocity>(entt, 0);
    }

    reg.emplace<position>(range[3], 0, 0);
    reg.emplace<position>(range[0], 0, 0);
    reg.emplace<position>(range[4], 0, 0);

    reg.sort<velocity, position>();

    const tessera::sparse_set &positions = reg.storage<position>();
    const tessera::sparse_set &velocities = reg.storage<velocity>();
    EXPECT_TRUE(std::equal(positions.begin(), positions.end(), velocities.begin()));
    EXPECT_EQ(velocities.size(), 5u);
}

TEST(Registry, Compact) {
    tessera::registry reg;
    std::array<tessera::entity, 3u> range{};
    reg.create(range.begin(), range.end());

    for (auto entt : range) {
        reg.emplace<pinned>(entt, 1);
    }

    reg.erase<pinned>(range[0]);
    EXPECT_FALSE(reg.storage<pinned>().contiguous());
    EXPECT_EQ(reg.storage<pinned>().size(), 3u);
    EXPECT_MISUSE(reg.sort<pinned>([](const pinned &lhs, const pinned &rhs) { return lhs.value < rhs.value; }),
                  "holes");

    reg.compact<pinned>();
    EXPECT_TRUE(reg.storage<pinned>().contiguous());
    EXPECT_EQ(reg.storage<pinned>().size(), 2u);

    reg.erase<pinned>(range[1]);
    reg.compact();
    EXPECT_TRUE(reg.storage<pinned>().contiguous());
    EXPECT_EQ(reg.storage<pinned>().size(), 1u);
    EXPECT_EQ(reg.get<pinned>(range[2]).value, 1);
}

TEST(Registry, OwnedWithoutGroups) {
    tessera::registry reg;
    static_cast<void>(reg.storage<int>());
    EXPECT_FALSE(reg.owned<int>());
    EXPECT_FALSE((reg.owned<int, const char>()));
}

// Construction, moves, allocators

namespace {

std::size_t live_allocations = 0;

/// Counts what is allocated through it.
template<typename Type>
struct counting_allocator {
    using value_type = Type;

    counting_allocator() = default;

    template<typename Other>
    counting_allocator(const counting_allocator<Other> &) noexcept {}

    Type *allocate(const std::size_t count) {
        ++live_allocations;
        return std::allocator<Type>{}.allocate(count);
    }

    void deallocate(Type *ptr, const std::size_t count) noexcept {
        --live_allocations;
        std::allocator<Type>{}.deallocate(ptr, count);
    }

    template<typename Other>
    bool operator==(const counting_allocator<Other> &) const noexcept {
        return true;
    }
};

} // namespace

TEST(Registry, CustomAllocator) {
    using registry_type = tessera::basic_registry<tessera::entity, counting_allocator<tessera::entity>>;
    live_allocations = 0;

    {
        registry_type reg{4u, counting_allocator<tessera::entity>{}};
        static_assert(std::is_same_v<decltype(reg.get_allocator()), counting_allocator<tessera::entity>>);
        static_assert(std::is_same_v<decltype(reg.storage<position>().get_allocator()), counting_allocator<position>>);

        const auto entt = reg.create();
        reg.emplace<position>(entt, 1, 2);
        reg.storage<int>("named"_hs).emplace(entt, 3);
        reg.ctx().emplace<int>(5);
        EXPECT_GT(live_allocations, 0u);

        registry_type other{std::move(reg)};
        EXPECT_EQ(other.get<position>(entt).y, 2);
        EXPECT_EQ(&other.storage<position>().registry(), &other);
        other.destroy(entt);
        other.clear();
    }

    EXPECT_EQ(live_allocations, 0u);
}

TEST(Registry, MoveAndSwap) {
    tessera::registry reg{8u};
    const auto entt = reg.create();
    reg.emplace<int>(entt, 1);
    reg.ctx().emplace<char>('c');

    tessera::registry other{std::move(reg)};
    EXPECT_TRUE(other.valid(entt));
    EXPECT_EQ(other.get<int>(entt), 1);
    EXPECT_EQ(other.ctx().get<char>(), 'c');

    tessera::registry third;
    third.swap(other);
    EXPECT_TRUE(third.valid(entt));
    EXPECT_FALSE(other.valid(entt));
    EXPECT_EQ(other.storage(tessera::type_hash<int>::value()), nullptr);

    other = std::move(third);
    EXPECT_EQ(other.get<int>(entt), 1);
    EXPECT_EQ(&other.storage<int>().registry(), &other);

    // a moved-from registry can be used again
    const auto fresh = reg.create();
    reg.emplace<int>(fresh, 2);
    EXPECT_EQ(reg.get<int>(fresh), 2);
    EXPECT_EQ(&reg.storage<int>().registry(), &reg);
    reg.destroy(fresh);
}

// Exceptions

TEST(Registry, ThrowingConstructorLeavesTheRegistryConsistent) {
    tessera::registry reg;
    counter = 0;
    reg.on_construct<fragile>().connect<&count_listener>();
    reg.on_update<fragile>().connect<&count_listener>();

    const auto entt = reg.create();
    EXPECT_THROW(reg.emplace<fragile>(entt, true), std::runtime_error);
    EXPECT_TRUE(reg.valid(entt));
    EXPECT_FALSE(reg.all_of<fragile>(entt));
    EXPECT_TRUE(reg.storage<fragile>().empty());
    EXPECT_TRUE(reg.orphan(entt));
    EXPECT_EQ(counter, 0);

    EXPECT_THROW(reg.emplace_or_replace<fragile>(entt, true), std::runtime_error);
    EXPECT_FALSE(reg.all_of<fragile>(entt));
    EXPECT_EQ(counter, 0);

    // a failed replacement keeps the old value and fires nothing
    reg.emplace<fragile>(entt, false);
    EXPECT_EQ(counter, 1);
    reg.get<fragile>(entt).value = 7;
    EXPECT_THROW(reg.replace<fragile>(entt, true), std::runtime_error);
    EXPECT_THROW(reg.emplace_or_replace<fragile>(entt, true), std::runtime_error);
    EXPECT_EQ(reg.get<fragile>(entt).value, 7);
    EXPECT_EQ(counter, 1);

    // insert has the strong guarantee and fires nothing when it fails
    std::array<tessera::entity, 3u> range{};
    reg.create(range.begin(), range.end());
    fragile bad{false};
    bad.value = -1;
    EXPECT_THROW(reg.insert(range.begin(), range.end(), bad), std::runtime_error);
    EXPECT_EQ(reg.storage<fragile>().size(), 1u);
    EXPECT_EQ(counter, 1);

    for (auto curr : range) {
        EXPECT_TRUE(reg.valid(curr));
        EXPECT_TRUE(reg.orphan(curr));
    }

    // an entity of the range that already has the component: nothing is added, nothing fires
    reg.emplace<fragile>(range[1], false);
    EXPECT_EQ(counter, 2);
    EXPECT_MISUSE(reg.insert(range.begin(), range.end(), fragile{false}), "already");
    EXPECT_FALSE(reg.all_of<fragile>(range[0]));
    EXPECT_FALSE(reg.all_of<fragile>(range[2]));
    EXPECT_EQ(reg.storage<fragile>().size(), 2u);
    EXPECT_EQ(counter, 2);
}

// Other identifier types

namespace {

enum class wide_entity : std::uint64_t {};

/// A class identifier: explicit from and to its integer, equality-comparable.
struct custom_entity {
    using entity_type = std::uint32_t;

    custom_entity() = default;

    explicit constexpr custom_entity(const entity_type init) noexcept : value{init} {}

    explicit constexpr operator entity_type() const noexcept { return value; }

    friend constexpr bool operator==(const custom_entity &, const custom_entity &) noexcept = default;

    entity_type value{};
};

// clang 14 does not evaluate a consteval literal that is an argument of a dependent call: hash it here
constexpr tessera::id_type named_pool = "named"_hs;

template<typename Registry>
void exercise_registry() {
    using entity_type = typename Registry::entity_type;
    using entity_traits = tessera::entt_traits<entity_type>;
    Registry reg;

    const entity_type nil = tessera::null;
    EXPECT_FALSE(reg.valid(nil));
    const auto first = reg.create();
    const auto second = reg.create();
    EXPECT_EQ(entity_traits::to_entity(second), 1u);

    reg.template emplace<position>(first, 1, 2);
    reg.template emplace<tag>(second);
    reg.template storage<int>(named_pool).emplace(second, 3);

    EXPECT_TRUE(reg.template all_of<position>(first));
    EXPECT_EQ(reg.template get<position>(first).y, 2);
    EXPECT_FALSE(reg.orphan(second));

    EXPECT_EQ(reg.destroy(second), 1u);
    EXPECT_FALSE(reg.valid(second));
    EXPECT_TRUE(reg.template storage<int>(named_pool).empty());

    const auto recycled = reg.create();
    EXPECT_EQ(entity_traits::to_entity(recycled), 1u);
    EXPECT_EQ(entity_traits::to_version(recycled), 1u);

    EXPECT_EQ(reg.destroy(recycled, static_cast<typename Registry::version_type>(entity_traits::version_mask)), 0u);
    reg.clear();
    EXPECT_FALSE(reg.valid(first));
    EXPECT_EQ(reg.current(first), 1u);
}

} // namespace

TEST(Registry, SixtyFourBitIdentifiers) {
    exercise_registry<tessera::basic_registry<std::uint64_t>>();
    exercise_registry<tessera::basic_registry<wide_entity>>();

    tessera::basic_registry<wide_entity> reg;
    const auto entt = reg.create(wide_entity{0x0000000500000007ull});
    EXPECT_EQ(tessera::to_entity(entt), 7u);
    EXPECT_EQ(tessera::to_version(entt), 5u);
    EXPECT_EQ(reg.destroy(entt, 0xFFFFFFF0u), 0xFFFFFFF0u);
    EXPECT_EQ(reg.current(entt), 0xFFFFFFF0u);
}

TEST(Registry, CustomIdentifierClass) {
    exercise_registry<tessera::basic_registry<custom_entity>>();

    tessera::basic_registry<custom_entity> reg;
    const auto entt = reg.create();
    EXPECT_EQ(entt, custom_entity{0u});
    reg.emplace<int>(entt, 3);
    EXPECT_EQ(reg.get<int>(entt), 3);
    EXPECT_EQ(tessera::basic_registry<custom_entity>::entity(custom_entity{0x00300007u}), custom_entity{7u});
}

TEST(Registry, PoolLookupsSurviveReactivePools) {
    tessera::registry reg;
    auto &ints = reg.storage<int>();
    auto &custom = reg.storage<int>("custom"_hs);
    auto &first = reg.storage<tessera::reactive>("first"_hs);
    auto &chars = reg.storage<char>("chars"_hs);
    auto &second = reg.storage<tessera::reactive>();

    EXPECT_EQ(reg.storage(tessera::type_hash<int>::value()), &ints);
    EXPECT_EQ(reg.storage("custom"_hs), &custom);
    EXPECT_EQ(reg.storage("first"_hs), &first);
    EXPECT_EQ(reg.storage("chars"_hs), &chars);
    EXPECT_EQ(reg.storage(tessera::type_hash<tessera::reactive>::value()), &second);
    EXPECT_EQ(std::as_const(reg).storage<int>("custom"_hs), &custom);
    EXPECT_EQ(&reg.storage<char>("chars"_hs), &chars);
    EXPECT_EQ(&reg.storage<tessera::reactive>("first"_hs), &first);
    EXPECT_MISUSE(static_cast<void>(reg.storage<char>("first"_hs)), "taken by another element type");

    std::size_t count{};

    for (auto [id, pool] : reg.storage()) {
        EXPECT_EQ(reg.storage(id), &pool);
        ++count;
    }

    EXPECT_EQ(count, 5u);
}

TEST(Registry, AllocatorsThatCannotShareMemory) {
    using pmr_registry = tessera::basic_registry<tessera::entity, std::pmr::polymorphic_allocator<tessera::entity>>;
    static_assert(std::is_nothrow_move_assignable_v<tessera::registry>);
    static_assert(!std::is_nothrow_move_assignable_v<pmr_registry>);
    static_assert(std::is_nothrow_move_constructible_v<pmr_registry>);

    tessera_test::resource_pair resources{};
    auto &[first, second] = resources;
    const auto fill = [](pmr_registry &reg) {
        std::array<tessera::entity, 4u> range{};
        reg.create(range.begin(), range.end());
        for (const auto entt : range) {
            reg.emplace<position>(entt, 1, 2);
            reg.emplace<tag>(entt);
        }
        reg.destroy(range[1]);
        return range;
    };

    pmr_registry source{&first};
    const auto range = fill(source);

    // moving a registry carries its memory and its allocator along
    pmr_registry moved{std::move(source)};
    EXPECT_EQ(moved.get_allocator().resource(), &first);
    EXPECT_TRUE(moved.all_of<position>(range[2]));

    // assignment between the same resource works as with any allocator
    pmr_registry sibling{&first};
    static_cast<void>(sibling.create());
    sibling = std::move(moved);
    EXPECT_TRUE((sibling.all_of<position, tag>(range[3])));
    EXPECT_FALSE(sibling.valid(range[1]));

    // the pools cannot change resource: a misuse, and nothing changes
    pmr_registry other{&second};
    const auto kept = other.create();
    EXPECT_MISUSE(other = std::move(sibling), "registry: move assignment between registries whose allocators");
    EXPECT_TRUE(other.valid(kept));
    EXPECT_TRUE((sibling.all_of<position, tag>(range[3]))); // NOLINT(bugprone-use-after-move)
}

namespace {

/// Left out of clones.
struct transient {
    static constexpr auto clone = tessera::clone_policy::skip;
    int value;
};

/// Copied by its own function, which counts the copies it makes.
struct counted_copy {
    static inline int copies = 0;
    int value;

    static counted_copy clone_element(const counted_copy &other) {
        ++copies;
        return counted_copy{other.value * 10};
    }
};

/// Movable only, without a clone policy: cloning it is a misuse naming the type.
struct move_only_thing {
    std::unique_ptr<int> handle;
};

std::string clone_events{};

template<char Letter>
void clone_note(tessera::registry &, const tessera::entity) {
    clone_events += Letter;
}

} // namespace

TEST(Registry, CloneCopiesEveryComponent) {
    tessera::registry reg;
    const auto source = reg.create();
    reg.emplace<position>(source, 1, 2);
    reg.emplace<tag>(source);
    reg.emplace<pinned>(source, 3);
    reg.emplace<named>(source, 4);
    reg.storage<velocity>("boost"_hs).emplace(source, 5);
    reg.on_construct<position>().connect<&clone_note<'p'>>();
    reg.on_construct<tag>().connect<&clone_note<'t'>>();
    reg.on_construct<tessera::entity>().connect<&clone_note<'e'>>();
    const auto other = reg.create();
    reg.emplace<velocity>(other, 6);
    clone_events.clear();

    const auto copy = reg.clone(source);
    EXPECT_NE(copy, source);
    EXPECT_TRUE(reg.valid(copy));
    EXPECT_EQ(reg.get<position>(copy).y, 2);
    EXPECT_TRUE(reg.all_of<tag>(copy));
    EXPECT_EQ(reg.get<pinned>(copy).value, 3);
    EXPECT_EQ(reg.get<named>(copy).value, 8);
    EXPECT_EQ(reg.storage<velocity>("boost"_hs).get(copy).dx, 5);
    EXPECT_FALSE(reg.all_of<velocity>(copy));
    // the entity first, then one signal per component (pools in an unspecified order)
    ASSERT_EQ(clone_events.size(), 3u);
    EXPECT_EQ(clone_events.front(), 'e');
    EXPECT_NE(clone_events.find('p'), std::string::npos);
    EXPECT_NE(clone_events.find('t'), std::string::npos);
    // the source is untouched, and a copy of a copy works
    EXPECT_EQ(reg.get<position>(source).x, 1);
    const auto again = reg.clone(copy);
    EXPECT_EQ(reg.get<named>(again).value, 8);
    // an entity without components clones to an entity without components
    EXPECT_TRUE(reg.orphan(reg.clone(reg.create())));
    EXPECT_MISUSE(static_cast<void>(reg.clone(tessera::null)), "clone: invalid entity");
}

TEST(Registry, CloneIntoAnotherRegistry) {
    tessera::registry reg;
    const auto source = reg.create();
    reg.emplace<position>(source, 1, 2);
    reg.emplace<tag>(source);
    reg.storage<velocity>("boost"_hs).emplace(source, 5);
    tessera::registry other;
    static_cast<void>(other.create());

    const auto copy = std::as_const(reg).clone(source, other);
    EXPECT_TRUE(other.valid(copy));
    EXPECT_EQ(tessera::to_entity(copy), 1u);
    EXPECT_EQ(other.get<position>(copy).x, 1);
    EXPECT_TRUE(other.all_of<tag>(copy));
    // the named pool was made there
    ASSERT_NE(std::as_const(other).storage<velocity>("boost"_hs), nullptr);
    EXPECT_EQ(other.storage<velocity>("boost"_hs).get(copy).dx, 5);
    EXPECT_EQ(reg.storage<tessera::entity>().free_list(), 1u);
    // cloning into the same registry through this overload is clone(entt)
    const auto local = reg.clone(source, reg);
    EXPECT_EQ(reg.get<position>(local).y, 2);
}

TEST(Registry, ClonePolicies) {
    tessera::registry reg;
    const auto source = reg.create();
    reg.emplace<transient>(source, 1);
    reg.emplace<counted_copy>(source, 2);
    reg.emplace<position>(source, 3, 4);
    counted_copy::copies = 0;

    const auto copy = reg.clone(source);
    EXPECT_FALSE(reg.all_of<transient>(copy));
    EXPECT_EQ(reg.get<counted_copy>(copy).value, 20);
    EXPECT_EQ(counted_copy::copies, 1);
    EXPECT_EQ(reg.get<position>(copy).x, 3);

    // a type that cannot be copied: a misuse naming it, and no half-made copy is left behind
    reg.emplace<move_only_thing>(source);
    const auto before = reg.storage<tessera::entity>().free_list();
    EXPECT_MISUSE(static_cast<void>(reg.clone(source)), "move_only_thing cannot be copied");
    EXPECT_EQ(reg.storage<tessera::entity>().free_list(), before);
    EXPECT_EQ(reg.storage<position>().size(), 2u);
}

TEST(Registry, CloneIsAllOrNothing) {
    tessera::registry reg;
    const auto source = reg.create();
    reg.emplace<position>(source, 1, 2);
    reg.emplace<fragile>(source, false).value = -1;
    reg.emplace<velocity>(source, 3);
    reg.on_destroy<tessera::entity>().connect<&clone_note<'d'>>();
    clone_events.clear();

    EXPECT_THROW(static_cast<void>(reg.clone(source)), std::runtime_error);
    // the copy was made and destroyed again
    EXPECT_EQ(clone_events, "d");
    EXPECT_EQ(reg.storage<tessera::entity>().free_list(), 1u);
    EXPECT_EQ(reg.storage<position>().size(), 1u);
    EXPECT_EQ(reg.storage<velocity>().size(), 1u);
    EXPECT_EQ(reg.storage<fragile>().size(), 1u);
}

TEST(Registry, CloneAndReactiveStoragesAndGroups) {
    tessera::registry reg;
    auto &observed = reg.storage<tessera::reactive>("observed"_hs);
    observed.on_construct<velocity>();
    auto group = reg.group<position>(tessera::get<velocity>);
    const auto source = reg.create();
    reg.emplace<position>(source, 1, 2);
    reg.emplace<velocity>(source, 3);
    EXPECT_TRUE(observed.contains(source));

    const auto copy = reg.clone(source);
    // the reactive storage is not copied; it collects the copy through its signals
    EXPECT_TRUE(observed.contains(copy));
    EXPECT_EQ(observed.size(), 2u);
    observed.clear();
    const auto unobserved = reg.create();
    reg.emplace<position>(unobserved, 0, 0);
    observed.push(unobserved);
    EXPECT_FALSE(observed.contains(reg.clone(unobserved)));
    // the copy joins the group
    EXPECT_EQ(group.size(), 2u);
    EXPECT_TRUE(group.contains(copy));
}

} // namespace unit_entity_registry
} // namespace
