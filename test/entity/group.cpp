// Tests of groups: full-owning, partial-owning and non-owning (docs/groups.md).
#include "support/misuse.hpp"
#include "support/mixed_pages.hpp"
#include <algorithm>
#include <gtest/gtest.h>
#include <iterator>
#include <tessera/entity/group.hpp>
#include <tessera/entity/registry.hpp>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {
namespace unit_entity_group {

namespace {

struct pos {
    int x{};
};

struct vel {
    int dx{};
};

struct tag {};

struct hidden {
    int value{};
};

template<typename Group>
std::vector<tessera::entity> members(const Group &group) {
    return {group.begin(), group.end()};
}

template<typename Group>
void expect_aligned(tessera::registry &registry, const Group &group) {
    const auto *lhs = registry.storage<pos>().data();
    const auto *rhs = registry.storage<vel>().data();

    for (std::size_t i{}; i < group.size(); ++i) {
        EXPECT_EQ(lhs[i], rhs[i]) << "position " << i;
    }
}

} // namespace

// full-owning groups keep the owned pools lined up
TEST(Group, FullOwningKeepsOwnedPoolsAligned) {
    tessera::registry registry;
    auto group = registry.group<pos, vel>();
    std::vector<tessera::entity> ents;

    for (int i = 0; i < 20; ++i) {
        const auto entt = registry.create();
        ents.push_back(entt);

        if (i % 3 != 0) {
            registry.emplace<pos>(entt, i);
        }

        if (i % 2 == 0) {
            registry.emplace<vel>(entt, i);
        }
    }

    // entities with both: i % 3 != 0 && i % 2 == 0 → 2, 4, 8, 10, 14, 16
    EXPECT_EQ(group.size(), 6u);
    EXPECT_FALSE(group.empty());
    expect_aligned(registry, group);

    for (auto entt : group) {
        EXPECT_TRUE((registry.all_of<pos, vel>(entt)));
        EXPECT_EQ(group.get<pos>(entt).x, group.get<vel>(entt).dx);
    }

    registry.erase<pos>(ents[4]);
    registry.destroy(ents[10]);
    EXPECT_EQ(group.size(), 4u);
    EXPECT_FALSE(group.contains(ents[4]));
    expect_aligned(registry, group);

    registry.emplace<pos>(ents[4], 4);
    EXPECT_EQ(group.size(), 5u);
    EXPECT_TRUE(group.contains(ents[4]));
    expect_aligned(registry, group);
}

// who is a member, for owned, get and excluded types
TEST(Group, MembershipFollowsOwnedGetAndExcludedTypes) {
    tessera::registry registry;
    auto group = registry.group<pos>(tessera::get<vel>, tessera::exclude<hidden>);
    const auto entt = registry.create();

    registry.emplace<pos>(entt);
    EXPECT_FALSE(group.contains(entt));
    registry.emplace<vel>(entt);
    EXPECT_TRUE(group.contains(entt));
    EXPECT_EQ(group.size(), 1u);

    registry.emplace<hidden>(entt);
    EXPECT_FALSE(group.contains(entt));
    EXPECT_EQ(group.size(), 0u);

    registry.erase<hidden>(entt);
    EXPECT_TRUE(group.contains(entt));

    registry.erase<vel>(entt);
    EXPECT_FALSE(group.contains(entt));
    registry.emplace<vel>(entt);
    EXPECT_TRUE(group.contains(entt));

    registry.erase<pos>(entt);
    EXPECT_FALSE(group.contains(entt));
    EXPECT_TRUE(group.empty());
}

TEST(Group, SeveralExcludedTypesRejoinOnlyWhenTheLastGoes) {
    tessera::registry registry;
    auto group = registry.group<pos>(tessera::get<>, tessera::exclude<hidden, tag>);
    const auto entt = registry.create();
    registry.emplace<pos>(entt);
    registry.emplace<hidden>(entt);
    registry.emplace<tag>(entt);
    EXPECT_FALSE(group.contains(entt));
    registry.erase<hidden>(entt);
    EXPECT_FALSE(group.contains(entt));
    registry.erase<tag>(entt);
    EXPECT_TRUE(group.contains(entt));
}

TEST(Group, CreationOverExistingData) {
    tessera::registry registry;
    std::vector<tessera::entity> expected;

    for (int i = 0; i < 10; ++i) {
        const auto entt = registry.create();
        registry.emplace<pos>(entt, i);

        if (i % 2 == 1) {
            registry.emplace<vel>(entt, i);
        }

        if (i == 5) {
            registry.emplace<hidden>(entt);
        } else if (i % 2 == 1) {
            expected.push_back(entt);
        }
    }

    auto owning = registry.group<pos>(tessera::get<vel>, tessera::exclude<hidden>);
    auto plain = registry.group<>(tessera::get<pos, vel>, tessera::exclude<hidden>);
    EXPECT_EQ(owning.size(), expected.size());
    EXPECT_EQ(plain.size(), expected.size());

    auto got = members(owning);
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, expected);

    got = members(plain);
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, expected);

    // the owned block is the prefix of the owned pool
    const auto &cpool = registry.storage<pos>();

    for (std::size_t i{}; i < owning.size(); ++i) {
        EXPECT_TRUE(owning.contains(cpool.data()[i]));
    }
}

TEST(Group, CreatedOverExistingDataFullOwningIsAligned) {
    tessera::registry registry;

    for (int i = 0; i < 50; ++i) {
        const auto entt = registry.create();

        if (i % 7 != 0) {
            registry.emplace<vel>(entt, i);
        }

        if (i % 2 == 0) {
            registry.emplace<pos>(entt, i);
        }
    }

    auto group = registry.group<pos, vel>();
    std::size_t count{};

    for (int i = 0; i < 50; ++i) {
        count += (i % 7 != 0 && i % 2 == 0);
    }

    EXPECT_EQ(group.size(), count);
    expect_aligned(registry, group);
    group.each([](const pos &p, const vel &v) { EXPECT_EQ(p.x, v.dx); });
}

// sorting a group, and why the registry may not sort an owned pool
TEST(Group, SortAffectsEveryCopyAndRegistrySortIsMisuse) {
    tessera::registry registry;
    auto group = registry.group<pos>(tessera::get<vel>);

    for (int i : {3, 1, 4, 1, 5, 9, 2, 6}) {
        const auto entt = registry.create();
        registry.emplace<pos>(entt, i);
        registry.emplace<vel>(entt, -i);
    }

    registry.emplace<pos>(registry.create(), 100);

    EXPECT_MISUSE(registry.sort<pos>([](const pos &lhs, const pos &rhs) { return lhs.x < rhs.x; }),
                  "a group owns this pool");

    group.sort<pos>([](const pos &lhs, const pos &rhs) { return lhs.x < rhs.x; });
    auto other = registry.group<pos>(tessera::get<vel>);
    std::vector<int> seen;

    for (auto entt : other) {
        seen.push_back(other.get<pos>(entt).x);
    }

    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    EXPECT_EQ(seen.size(), 8u);

    // sort by the get type, descending pos through a tuple comparator
    other.sort<pos, vel>([](const auto &lhs, const auto &rhs) { return std::get<1>(lhs).dx < std::get<1>(rhs).dx; });
    seen.clear();
    group.each([&seen](const pos &p, const vel &) { seen.push_back(p.x); });
    EXPECT_TRUE(std::is_sorted(seen.rbegin(), seen.rend()));

    // by entity
    group.sort([](const tessera::entity lhs, const tessera::entity rhs) { return lhs < rhs; });
    EXPECT_TRUE(std::is_sorted(group.begin(), group.end()));
}

TEST(Group, FullOwningSortRealignsEveryOwnedPool) {
    tessera::registry registry;
    auto group = registry.group<pos, vel>();

    for (int i : {8, 2, 7, 1, 9, 3}) {
        const auto entt = registry.create();
        registry.emplace<pos>(entt, i);
        registry.emplace<vel>(entt, i * 10);
    }

    group.sort<vel>([](const vel &lhs, const vel &rhs) { return lhs.dx < rhs.dx; });
    expect_aligned(registry, group);
    std::vector<int> seen;

    group.each([&seen](const pos &p, const vel &v) {
        EXPECT_EQ(p.x * 10, v.dx);
        seen.push_back(p.x);
    });

    EXPECT_EQ(seen, (std::vector<int>{1, 2, 3, 7, 8, 9}));

    group.sort<1u>([](const vel &lhs, const vel &rhs) { return lhs.dx > rhs.dx; });
    expect_aligned(registry, group);
    EXPECT_EQ(group.get<pos>(group.front()).x, 9);
    EXPECT_EQ(group.get<pos>(group.back()).x, 1);
}

// two groups may not own the same type; equal requests share one handler
TEST(Group, OwnershipConflictIsMisuseAndRequestsShareTheHandler) {
    tessera::registry registry;
    auto group = registry.group<pos>(tessera::get<vel>);
    EXPECT_TRUE(registry.owned<pos>());
    EXPECT_FALSE(registry.owned<vel>());

    EXPECT_MISUSE(static_cast<void>(registry.group<pos, hidden>()), "already owned by another group");
    EXPECT_MISUSE(static_cast<void>(registry.group<hidden, const pos>()), "pos is already owned by another group");
    EXPECT_FALSE(registry.owned<hidden>());

    auto again = registry.group<pos>(tessera::get<vel>);
    EXPECT_EQ(&group.handle(), &again.handle());
    // cv is ignored
    auto constant = registry.group<const pos>(tessera::get<const vel>);
    EXPECT_EQ(&constant.handle(), &group.handle());
    EXPECT_EQ(decltype(constant)::group_id(), decltype(group)::group_id());

    // a non-owning group and a group owning a get type of the first one are fine
    auto plain = registry.group<>(tessera::get<pos, vel>);
    auto second = registry.group<vel>(tessera::get<pos>);
    EXPECT_TRUE(plain);
    EXPECT_TRUE(second);
    EXPECT_TRUE(registry.owned<vel>());

    const auto entt = registry.create();
    registry.emplace<pos>(entt, 1);
    registry.emplace<vel>(entt, 2);
    EXPECT_TRUE(group.contains(entt));
    EXPECT_TRUE(plain.contains(entt));
    EXPECT_TRUE(second.contains(entt));
    registry.destroy(entt);
    EXPECT_TRUE(group.empty() && plain.empty() && second.empty());
}

// non-owning groups follow every change of their pools
TEST(Group, NonOwningTracksExactly) {
    tessera::registry registry;
    auto group = registry.group<>(tessera::get<pos, vel>, tessera::exclude<hidden>);
    std::vector<tessera::entity> ents(6);
    registry.create(ents.begin(), ents.end());

    for (std::size_t i{}; i < ents.size(); ++i) {
        registry.emplace<pos>(ents[i], static_cast<int>(i));

        if (i != 2u) {
            registry.emplace<vel>(ents[i], static_cast<int>(i));
        }
    }

    registry.emplace<hidden>(ents[4]);
    EXPECT_EQ(group.size(), 4u);

    for (std::size_t i{}; i < ents.size(); ++i) {
        EXPECT_EQ(group.contains(ents[i]), i != 2u && i != 4u);
    }

    registry.erase<hidden>(ents[4]);
    registry.emplace<vel>(ents[2]);
    registry.erase<pos>(ents[0]);
    EXPECT_EQ(group.size(), 5u);
    EXPECT_FALSE(group.contains(ents[0]));
    EXPECT_TRUE(group.contains(ents[2]));
    EXPECT_TRUE(group.contains(ents[4]));
    EXPECT_GE(group.capacity(), group.size());
    group.shrink_to_fit();
    EXPECT_EQ(group.size(), 5u);

    // the pools are untouched by sorting
    const tessera::sparse_set &base = registry.storage<pos>();
    const std::vector<tessera::entity> before{base.begin(), base.end()};
    group.sort<pos>([](const pos &lhs, const pos &rhs) { return lhs.x > rhs.x; });
    EXPECT_EQ(before, (std::vector<tessera::entity>{base.begin(), base.end()}));
    std::vector<int> seen;

    for (auto [entt, p, v] : group.each()) {
        EXPECT_EQ(&p, &registry.get<pos>(entt));
        seen.push_back(p.x);
    }

    EXPECT_EQ(seen, (std::vector<int>{5, 4, 3, 2, 1}));

    group.sort([](const tessera::entity lhs, const tessera::entity rhs) { return lhs < rhs; });
    EXPECT_TRUE(std::is_sorted(group.begin(), group.end()));
}

TEST(Group, NonOwningSortAs) {
    tessera::registry registry;
    auto group = registry.group<>(tessera::get<pos>);
    std::vector<tessera::entity> ents(5);
    registry.create(ents.begin(), ents.end());

    for (auto entt : ents) {
        registry.emplace<pos>(entt);
    }

    const std::vector<tessera::entity> order{ents[3], ents[1], ents[4]};
    group.sort_as(order.begin(), order.end());
    EXPECT_EQ(group[0], ents[3]);
    EXPECT_EQ(group[1], ents[1]);
    EXPECT_EQ(group[2], ents[4]);
}

TEST(Group, ConstRegistryNeverCreates) {
    tessera::registry registry;
    const auto &cregistry = registry;

    auto missing = cregistry.group<pos>(tessera::get<vel>);
    EXPECT_FALSE(missing);
    EXPECT_EQ(missing.size(), 0u);
    EXPECT_TRUE(missing.empty());
    EXPECT_EQ(missing.begin(), missing.end());
    EXPECT_EQ(missing.rbegin(), missing.rend());
    EXPECT_TRUE(missing.front() == tessera::null);
    EXPECT_TRUE(missing.back() == tessera::null);
    EXPECT_FALSE(missing.contains(tessera::entity{0}));
    EXPECT_EQ(missing.storage<pos>(), nullptr);
    EXPECT_EQ(registry.storage(tessera::type_hash<pos>::value()), nullptr);
    EXPECT_FALSE(cregistry.group_if_exists<>(tessera::get<pos>));
    EXPECT_FALSE(registry.owned<pos>());

    auto created = registry.group<pos>(tessera::get<vel>);
    const auto entt = registry.create();
    registry.emplace<pos>(entt, 3);
    registry.emplace<vel>(entt, 4);

    auto found = cregistry.group<pos>(tessera::get<vel>);
    static_assert(
        std::is_same_v<decltype(found), tessera::group<tessera::owned_t<const pos>, tessera::get_t<const vel>>>);
    static_assert(std::is_same_v<decltype(found.get<pos>(entt)), const pos &>);
    ASSERT_TRUE(found);
    EXPECT_EQ(&found.handle(), &created.handle());
    EXPECT_EQ(found.get<pos>(entt).x, 3);
    EXPECT_TRUE(cregistry.group_if_exists<pos>(tessera::get<vel>));
    EXPECT_FALSE(cregistry.group_if_exists<pos>());
}

TEST(Group, IteratorsFrontBackFindAndIndexing) {
    tessera::registry registry;
    auto group = registry.group<pos, vel>();
    std::vector<tessera::entity> ents(4);
    registry.create(ents.begin(), ents.end());

    for (auto entt : ents) {
        registry.emplace<pos>(entt);
        registry.emplace<vel>(entt);
    }

    // an entity of the owned pool outside the group's block
    const auto outside = registry.create();
    registry.emplace<pos>(outside);

    static_assert(std::random_access_iterator<decltype(group.begin())>);
    EXPECT_EQ(group.end() - group.begin(), 4);
    EXPECT_EQ(members(group), (std::vector<tessera::entity>{ents[3], ents[2], ents[1], ents[0]}));
    EXPECT_EQ((std::vector<tessera::entity>{group.rbegin(), group.rend()}), ents);
    EXPECT_EQ(group.front(), ents[3]);
    EXPECT_EQ(group.back(), ents[0]);
    EXPECT_EQ(group[0], ents[3]);
    EXPECT_EQ(group[3], ents[0]);
    EXPECT_MISUSE(static_cast<void>(group[4]), "position out of range");
    EXPECT_EQ(*group.find(ents[1]), ents[1]);
    EXPECT_EQ(group.find(outside), group.end());
    EXPECT_FALSE(group.contains(outside));
    EXPECT_TRUE(registry.storage<pos>().contains(outside));

    EXPECT_EQ(&group.handle(), static_cast<const tessera::sparse_set *>(&registry.storage<pos>()));
    EXPECT_EQ(group.storage<pos>(), &registry.storage<pos>());
    EXPECT_EQ(group.storage<1u>(), &registry.storage<vel>());
    EXPECT_EQ(group.storage<const vel>(), &registry.storage<vel>());

    tessera::group<tessera::owned_t<pos, vel>> invalid{};
    EXPECT_FALSE(invalid);
    EXPECT_EQ(invalid.find(ents[0]), invalid.end());
    EXPECT_MISUSE(static_cast<void>(invalid.handle()), "invalid group");
}

TEST(Group, NonOwningIteratorsAndStorages) {
    tessera::registry registry;
    auto group = registry.group<>(tessera::get<pos, tag>, tessera::exclude<hidden>);
    std::vector<tessera::entity> ents(3);
    registry.create(ents.begin(), ents.end());

    for (auto entt : ents) {
        registry.emplace<tag>(entt);
        registry.emplace<pos>(entt);
    }

    EXPECT_EQ(members(group), (std::vector<tessera::entity>{ents[2], ents[1], ents[0]}));
    EXPECT_EQ(group.front(), ents[2]);
    EXPECT_EQ(group.back(), ents[0]);
    EXPECT_EQ(group[1], ents[1]);
    EXPECT_EQ(*group.find(ents[0]), ents[0]);
    EXPECT_EQ(group.find(registry.create()), group.end());
    EXPECT_EQ(group.storage<tag>(), &registry.storage<tag>());
    EXPECT_EQ(group.storage<2u>(), &registry.storage<hidden>());
    EXPECT_NE(&group.handle(), static_cast<const tessera::sparse_set *>(&registry.storage<pos>()));
    EXPECT_EQ(group.handle().size(), 3u);

    // empty types are never passed
    std::size_t count{};
    group.each([&count](tessera::entity, pos &) { ++count; });
    group.each([&count](pos &) { ++count; });
    EXPECT_EQ(count, 6u);

    for (auto elem : group.each()) {
        static_assert(std::tuple_size_v<decltype(elem)> == 2u);
    }

    static_assert(std::is_same_v<decltype(group.get(ents[0])), std::tuple<pos &>>);
    static_assert(std::is_same_v<decltype(group.get<tag>(ents[0])), void>);
}

TEST(Group, GetForms) {
    tessera::registry registry;
    auto group = registry.group<pos>(tessera::get<vel, tag>);
    const auto entt = registry.create();
    registry.emplace<pos>(entt, 1);
    registry.emplace<vel>(entt, 2);
    registry.emplace<tag>(entt);

    static_assert(std::is_same_v<decltype(group.get<pos>(entt)), pos &>);
    static_assert(std::is_same_v<decltype(group.get<pos, vel>(entt)), std::tuple<pos &, vel &>>);
    static_assert(std::is_same_v<decltype(group.get(entt)), std::tuple<pos &, vel &>>);
    static_assert(std::is_same_v<decltype(group.get<1u>(entt)), vel &>);
    static_assert(std::is_same_v<decltype(group.get<0u, 1u>(entt)), std::tuple<pos &, vel &>>);

    auto [p, v] = group.get(entt);
    EXPECT_EQ(p.x, 1);
    EXPECT_EQ(v.dx, 2);
    EXPECT_EQ(std::get<1>(group.get<pos, vel>(entt)).dx, 2);

    auto partial = registry.group<vel>(tessera::get<const pos>);
    static_assert(std::is_same_v<decltype(partial.get<pos>(entt)), const pos &>);
    static_assert(std::is_same_v<decltype(partial.get(entt)), std::tuple<vel &, const pos &>>);
    EXPECT_MISUSE(static_cast<void>(partial.get<vel>(registry.create())), "");
}

// An owning group reads every owned element of a member at the member's position in the first owned storage:
// right for members (outside the group the owned storages hold entities at unrelated positions), and get() on an
// entity that is not a member is misuse.
TEST(Group, OwningGetSharesOneLookupAmongOwnedStorages) {
    tessera::registry registry;
    auto group = registry.group<pos, vel>(tessera::get<hidden>);
    std::vector<tessera::entity> entities(40u);
    registry.create(entities.begin(), entities.end());

    // outsiders first, with their own order in each storage: members are swapped to the front of both
    for (std::size_t i{}; i < entities.size(); ++i) {
        registry.emplace<pos>(entities[i], static_cast<int>(i));
    }

    for (std::size_t i = entities.size(); i-- > 0u;) {
        registry.emplace<vel>(entities[i], static_cast<int>(i) * 10);

        if (i % 3u == 0u) {
            registry.emplace<hidden>(entities[i], static_cast<int>(i) * 100);
        }
    }

    ASSERT_EQ(group.size(), 14u);

    for (const auto entt : group) {
        const auto index =
            static_cast<int>(tessera::to_entity(entt)) - static_cast<int>(tessera::to_entity(entities[0]));
        const auto [p, v] = group.get<pos, vel>(entt);
        EXPECT_EQ(p.x, index);
        EXPECT_EQ(v.dx, index * 10);
        const auto [all_p, all_v, all_h] = group.get(entt);
        EXPECT_EQ(all_p.x, index);
        EXPECT_EQ(all_v.dx, index * 10);
        EXPECT_EQ(all_h.value, index * 100);
    }

    EXPECT_MISUSE(static_cast<void>(group.get<pos, vel>(entities[1])), "not a member");
}

TEST(Group, EachFormsAndOrder) {
    tessera::registry registry;
    auto full = registry.group<pos, vel, tag>();
    auto partial = registry.group<hidden>(tessera::get<pos>);
    std::vector<tessera::entity> ents(3);
    registry.create(ents.begin(), ents.end());

    for (int i = 0; i < 3; ++i) {
        registry.emplace<pos>(ents[i], i);
        registry.emplace<vel>(ents[i], 10 * i);
        registry.emplace<tag>(ents[i]);
        registry.emplace<hidden>(ents[i], 100 * i);
    }

    std::vector<tessera::entity> seen;
    full.each([&seen](const tessera::entity entt, pos &p, vel &v) {
        EXPECT_EQ(p.x * 10, v.dx);
        seen.push_back(entt);
    });
    EXPECT_EQ(seen, (std::vector<tessera::entity>{ents[2], ents[1], ents[0]}));

    int sum{};
    full.each([&sum](pos &p, vel &) { sum += p.x; });
    EXPECT_EQ(sum, 3);

    seen.clear();

    for (auto [entt, p, v] : full.each()) {
        static_assert(std::is_same_v<decltype(p), pos &>);
        EXPECT_EQ(&p, &registry.get<pos>(entt));
        EXPECT_EQ(&v, &registry.get<vel>(entt));
        seen.push_back(entt);
    }

    EXPECT_EQ(seen, (std::vector<tessera::entity>{ents[2], ents[1], ents[0]}));

    partial.each([&registry](auto entt, hidden &h, pos &p) {
        EXPECT_EQ(&h, &registry.get<hidden>(entt));
        EXPECT_EQ(&p, &registry.get<pos>(entt));
        EXPECT_EQ(h.value, 100 * p.x);
    });

    for (auto [entt, h, p] : partial.each()) {
        EXPECT_EQ(h.value, 100 * p.x);
        EXPECT_TRUE(partial.contains(entt));
    }

    const auto cfull = std::as_const(registry).group<pos, vel, tag>();
    cfull.each([](const pos &, const vel &) {});

    for (auto [entt, p, v] : cfull.each()) {
        static_assert(std::is_same_v<decltype(p), const pos &>);
        static_cast<void>(entt);
        static_cast<void>(v);
    }
}

TEST(Group, EachAcrossPages) {
    tessera::registry registry;
    auto group = registry.group<pos, vel>();
    constexpr int count = 3 * TESSERA_PACKED_PAGE + 17;

    for (int i = 0; i < count; ++i) {
        const auto entt = registry.create();
        registry.emplace<pos>(entt, i);

        if (i % 5 != 0) {
            registry.emplace<vel>(entt, i);
        }
    }

    long long sum{};
    std::size_t visited{};
    group.each([&](const tessera::entity entt, const pos &p, const vel &v) {
        EXPECT_EQ(p.x, v.dx);
        EXPECT_EQ(&p, &registry.get<pos>(entt));
        sum += p.x;
        ++visited;
    });

    long long expected{};

    for (int i = 0; i < count; ++i) {
        expected += (i % 5 != 0) ? i : 0;
    }

    EXPECT_EQ(visited, group.size());
    EXPECT_EQ(sum, expected);
}

// iteration rule 2 (docs/thread_safety.md): removing the current entity's components while iterating the group
// visits every other entity once
TEST(Group, RemovingCurrentWhileIterating) {
    tessera::registry registry;
    auto full = registry.group<pos, vel>();
    auto partial = registry.group<hidden>(tessera::get<tag>);
    auto plain = registry.group<>(tessera::get<pos, tag>);
    std::vector<tessera::entity> ents(2 * TESSERA_PACKED_PAGE + 5);
    registry.create(ents.begin(), ents.end());

    for (auto entt : ents) {
        registry.emplace<pos>(entt);
        registry.emplace<vel>(entt);
        registry.emplace<hidden>(entt);
        registry.emplace<tag>(entt);
    }

    std::vector<tessera::entity> seen;
    full.each([&](const tessera::entity entt, pos &, vel &) {
        seen.push_back(entt);

        if (seen.size() % 2u == 0u) {
            registry.erase<vel>(entt);
        }
    });
    EXPECT_EQ(seen.size(), ents.size());
    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(seen, ents);
    EXPECT_EQ(full.size(), ents.size() - ents.size() / 2u);
    expect_aligned(registry, full);

    seen.clear();

    for (auto entt : plain) {
        seen.push_back(entt);
        registry.erase<tag>(entt);
    }

    EXPECT_EQ(seen.size(), ents.size());
    EXPECT_TRUE(plain.empty());
    EXPECT_TRUE(partial.empty());

    for (auto entt : ents) {
        registry.emplace<tag>(entt);
    }

    EXPECT_EQ(partial.size(), ents.size());
    seen.clear();

    for (auto [entt, h] : partial.each()) {
        seen.push_back(entt);
        registry.destroy(entt);
    }

    EXPECT_EQ(seen.size(), ents.size());
    EXPECT_TRUE(partial.empty());
}

// iteration rule 5 (docs/thread_safety.md): making entities join the group while iterating the group itself is
// safe, and they are not visited
TEST(Group, JoiningWhileIteratingTheGroup) {
    tessera::registry registry;
    auto group = registry.group<pos>(tessera::get<vel>);
    auto plain = registry.group<>(tessera::get<pos, vel>);
    std::vector<tessera::entity> ents(10);
    registry.create(ents.begin(), ents.end());

    for (std::size_t i{}; i < ents.size(); ++i) {
        registry.emplace<pos>(ents[i], static_cast<int>(i));

        if (i < 5u) {
            registry.emplace<vel>(ents[i]);
        }
    }

    std::vector<tessera::entity> seen;
    std::size_t next = 5u;
    group.each([&](const tessera::entity entt, pos &p, vel &) {
        seen.push_back(entt);
        EXPECT_EQ(&p, &registry.get<pos>(entt));
        // an existing entity joins, and a new one is created with everything
        registry.emplace<vel>(ents[next++]);
        const auto other = registry.create();
        registry.emplace<pos>(other);
        registry.emplace<vel>(other);
        EXPECT_EQ(registry.get<pos>(entt).x, p.x);
    });

    EXPECT_EQ(seen.size(), 5u);
    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(seen, (std::vector<tessera::entity>{ents.begin(), ents.begin() + 5}));
    EXPECT_EQ(group.size(), 15u);
    EXPECT_EQ(plain.size(), 15u);

    std::size_t visited{};

    for (auto [entt, p, v] : plain.each()) {
        static_cast<void>(p);
        static_cast<void>(v);
        ++visited;
        const auto other = registry.create();
        registry.emplace<pos>(other);
        registry.emplace<vel>(other);
        EXPECT_TRUE(plain.contains(entt));
    }

    EXPECT_EQ(visited, 15u);
    EXPECT_EQ(plain.size(), 30u);
    EXPECT_EQ(group.size(), 30u);

    // the owned pool stays consistent with the group whatever happened
    const auto &cpool = registry.storage<pos>();

    for (std::size_t i{}; i < group.size(); ++i) {
        EXPECT_TRUE(registry.all_of<vel>(cpool.data()[i]));
    }
}

TEST(Group, ClearingPoolsAndRegistry) {
    tessera::registry registry;
    auto full = registry.group<pos, vel>();
    auto plain = registry.group<>(tessera::get<pos, vel>);

    for (int i = 0; i < 10; ++i) {
        const auto entt = registry.create();
        registry.emplace<pos>(entt, i);
        registry.emplace<vel>(entt, i);
    }

    registry.clear<vel>();
    EXPECT_TRUE(full.empty());
    EXPECT_TRUE(plain.empty());
    EXPECT_EQ(registry.storage<pos>().size(), 10u);

    // collected first: joining a group while iterating one of its owned pools directly may invalidate (iteration
    // rule 5, docs/thread_safety.md)
    const tessera::sparse_set &base = registry.storage<pos>();
    const std::vector<tessera::entity> ents{base.begin(), base.end()};

    for (auto entt : ents) {
        registry.emplace<vel>(entt, registry.get<pos>(entt).x);
    }

    EXPECT_EQ(full.size(), 10u);
    expect_aligned(registry, full);
    registry.clear();
    EXPECT_TRUE(full.empty());
    EXPECT_TRUE(plain.empty());
}

TEST(Group, InsertRangeJoins) {
    tessera::registry registry;
    auto group = registry.group<pos, vel>();
    std::vector<tessera::entity> ents(8);
    registry.create(ents.begin(), ents.end());
    registry.insert<pos>(ents.begin(), ents.end(), pos{7});
    registry.insert<vel>(ents.begin() + 2, ents.end(), vel{7});
    EXPECT_EQ(group.size(), 6u);
    expect_aligned(registry, group);
}

TEST(Group, MovedRegistryKeepsGroups) {
    tessera::registry registry;
    auto group = registry.group<pos>(tessera::get<vel>);
    tessera::registry other{std::move(registry)};
    const auto entt = other.create();
    other.emplace<pos>(entt);
    other.emplace<vel>(entt);
    EXPECT_TRUE(group.contains(entt));
    EXPECT_EQ(&other.group<pos>(tessera::get<vel>).handle(), &group.handle());
}

TEST(Group, DocumentationForms) {
    tessera::registry registry;
    auto full = registry.group<pos, vel>({}, tessera::exclude<hidden>);
    auto partial = registry.group<hidden>(tessera::get<tag>);
    const auto entt = registry.create();
    registry.emplace<pos>(entt);
    registry.emplace<vel>(entt);
    EXPECT_TRUE(full.contains(entt));
    registry.emplace<hidden>(entt);
    registry.emplace<tag>(entt);
    EXPECT_FALSE(full.contains(entt));
    EXPECT_TRUE(partial.contains(entt));

    registry.group<hidden>(tessera::get<tag>).each([](auto, auto &) {});

    for (auto [e, h] : registry.group<hidden>(tessera::get<tag>).each()) {
        EXPECT_EQ(e, entt);
        EXPECT_EQ(&h, &registry.get<hidden>(entt));
    }
}

TEST(Group, OwnedEmptyTypeAndSingleTypeGroups) {
    tessera::registry registry;
    auto full = registry.group<pos, tag>();
    auto single = registry.group<>(tessera::get<vel>);
    std::vector<tessera::entity> ents(4);
    registry.create(ents.begin(), ents.end());

    for (std::size_t i{}; i < ents.size(); ++i) {
        registry.emplace<pos>(ents[i], static_cast<int>(i));
        registry.emplace<vel>(ents[i]);

        if (i != 1u) {
            registry.emplace<tag>(ents[i]);
        }
    }

    EXPECT_EQ(full.size(), 3u);
    EXPECT_FALSE(full.contains(ents[1]));
    const tessera::sparse_set &tags = registry.storage<tag>();

    for (std::size_t i{}; i < full.size(); ++i) {
        EXPECT_EQ(registry.storage<pos>().data()[i], tags.data()[i]);
    }

    int sum{};
    full.each([&sum](pos &p) { sum += p.x; });
    EXPECT_EQ(sum, 0 + 2 + 3);

    for (auto elem : full.each()) {
        static_assert(std::tuple_size_v<decltype(elem)> == 2u);
    }

    static_assert(std::is_same_v<decltype(full.get(ents[0])), std::tuple<pos &>>);
    EXPECT_EQ(single.size(), 4u);
    single.each([](tessera::entity, vel &v) { ++v.dx; });
    EXPECT_EQ(registry.get<vel>(ents[3]).dx, 1);
}

struct stable {
    static constexpr bool in_place_delete = true;
    int value{};
};

TEST(Group, StableTypesAsGetOrInNonOwningGroups) {
    tessera::registry registry;
    std::vector<tessera::entity> ents(5);
    registry.create(ents.begin(), ents.end());

    for (auto entt : ents) {
        registry.emplace<stable>(entt);
        registry.emplace<pos>(entt);
    }

    registry.erase<stable>(ents[1]);
    EXPECT_FALSE(registry.storage<stable>().contiguous());

    // created over a storage with a hole
    auto plain = registry.group<>(tessera::get<stable, pos>);
    auto partial = registry.group<pos>(tessera::get<stable>);
    EXPECT_EQ(plain.size(), 4u);
    EXPECT_EQ(partial.size(), 4u);
    EXPECT_FALSE(plain.contains(ents[1]));
    EXPECT_FALSE(partial.contains(ents[1]));

    registry.emplace<stable>(ents[1], 7);
    EXPECT_TRUE(plain.contains(ents[1]));
    EXPECT_TRUE(partial.contains(ents[1]));
    EXPECT_EQ(partial.get<stable>(ents[1]).value, 7);
    EXPECT_EQ(plain.get<stable>(ents[1]).value, 7);
}

TEST(Group, ExcludingTheCurrentEntityWhileIterating) {
    tessera::registry registry;
    auto group = registry.group<pos, vel>({}, tessera::exclude<hidden>);
    std::vector<tessera::entity> ents(6);
    registry.create(ents.begin(), ents.end());

    for (auto entt : ents) {
        registry.emplace<pos>(entt);
        registry.emplace<vel>(entt);
    }

    std::size_t visited{};
    group.each([&](const tessera::entity entt, pos &, vel &) {
        ++visited;
        registry.emplace<hidden>(entt);
    });

    EXPECT_EQ(visited, ents.size());
    EXPECT_TRUE(group.empty());
}

TEST(Group, NonOwningSortByIndexAndCustomAlgorithm) {
    tessera::registry registry;
    auto group = registry.group<>(tessera::get<pos, vel>);

    for (int i : {4, 2, 5, 1, 3}) {
        const auto entt = registry.create();
        registry.emplace<pos>(entt, i);
        registry.emplace<vel>(entt, -i);
    }

    group.sort<1u>([](const vel &lhs, const vel &rhs) { return lhs.dx < rhs.dx; });
    std::vector<int> seen;
    group.each([&seen](const pos &p, const vel &) { seen.push_back(p.x); });
    EXPECT_EQ(seen, (std::vector<int>{5, 4, 3, 2, 1}));

    group.sort<0u, 1u>([](const auto &lhs, const auto &rhs) { return std::get<0>(lhs).x < std::get<0>(rhs).x; },
                       tessera::insertion_sort{});
    seen.clear();
    group.each([&seen](const pos &p, const vel &) { seen.push_back(p.x); });
    EXPECT_EQ(seen, (std::vector<int>{1, 2, 3, 4, 5}));

    auto owning = registry.group<pos>(tessera::get<vel>);
    owning.sort<pos>([](const pos &lhs, const pos &rhs) { return lhs.x > rhs.x; }, tessera::insertion_sort{});
    seen.clear();
    owning.each([&seen](const pos &p, const vel &) { seen.push_back(p.x); });
    EXPECT_EQ(seen, (std::vector<int>{5, 4, 3, 2, 1}));
}

// iteration rule 5 (docs/thread_safety.md): iterating a type the group does not own while entities join is safe too
TEST(Group, JoiningWhileIteratingAFreeType) {
    tessera::registry registry;
    auto group = registry.group<pos>(tessera::get<vel>);
    std::vector<tessera::entity> ents(2 * TESSERA_PACKED_PAGE + 3);
    registry.create(ents.begin(), ents.end());

    for (auto entt : ents) {
        registry.emplace<vel>(entt);
        registry.emplace<pos>(registry.create());
    }

    std::vector<tessera::entity> seen;

    for (auto [entt, v] : registry.storage<vel>().each()) {
        seen.push_back(entt);
        registry.emplace<pos>(entt, static_cast<int>(seen.size()));
        ++v.dx;
    }

    EXPECT_EQ(seen.size(), ents.size());
    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(seen, ents);
    EXPECT_EQ(group.size(), ents.size());

    for (std::size_t i{}; i < group.size(); ++i) {
        EXPECT_TRUE(group.contains(registry.storage<pos>().data()[i]));
    }

    group.each([](pos &, vel &v) { EXPECT_EQ(v.dx, 1); });
}

// Found by the model test: an owning group moves the new element to the front of the pool while emplace
// publishes construct, so the reference emplace returns must be looked up after the signal.
TEST(OwningGroup, EmplaceReturnsTheElementOfTheEntityAfterTheGroupMovedIt) {
    tessera::registry registry;
    auto group = registry.group<pos>(tessera::get<vel>);

    const auto first = registry.create();
    const auto second = registry.create();
    registry.emplace<pos>(first, 1);
    registry.emplace<vel>(second);

    EXPECT_EQ(registry.emplace<pos>(second, 2).x, 2);
    EXPECT_EQ(registry.get_or_emplace<pos>(registry.create(), 3).x, 3);
    EXPECT_EQ(registry.emplace_or_replace<pos>(second, 4).x, 4);
    EXPECT_EQ(group.size(), 1u);
    EXPECT_EQ(registry.get<pos>(first).x, 1);
}

TEST(GroupIteration, LinedUpAndScatteredBlocksGiveTheSameMembers) {
    // three pages of entities: velocity comes in creation order for the first half and in reverse order for the
    // second, so the get storages line up with the group in some blocks and not in others
    tessera::registry registry;
    auto partial = registry.group<pos>(tessera::get<vel>);
    auto non_owning = registry.group<>(tessera::get<pos, vel>);
    const int count = 3 * static_cast<int>(tessera::component_traits<pos>::page_size) + 5;
    std::vector<tessera::entity> entities;

    for (int idx{}; idx < count; ++idx) {
        entities.push_back(registry.create());
        registry.emplace<pos>(entities.back(), idx);

        if (idx < count / 2) {
            registry.emplace<vel>(entities.back(), idx);
        }
    }

    for (int idx = count - 1; idx >= count / 2; --idx) {
        registry.emplace<vel>(entities[static_cast<std::size_t>(idx)], idx);
    }

    const auto check = [&](const auto &group) {
        std::vector<tessera::entity> seen;
        group.each([&](const tessera::entity entt, pos &position, vel &velocity) {
            EXPECT_EQ(position.x, velocity.dx);
            EXPECT_EQ(&position, &registry.get<pos>(entt));
            EXPECT_EQ(&velocity, &registry.get<vel>(entt));
            seen.push_back(entt);
        });
        EXPECT_EQ(seen, std::vector<tessera::entity>(group.begin(), group.end()));
        std::vector<tessera::entity> seen_it;

        for (auto [entt, position, velocity] : group.each()) {
            EXPECT_EQ(&position, &registry.get<pos>(entt));
            EXPECT_EQ(&velocity, &registry.get<vel>(entt));
            seen_it.push_back(entt);
        }

        EXPECT_EQ(seen, seen_it);
        EXPECT_EQ(seen.size(), static_cast<std::size_t>(count));
    };

    check(partial);
    check(non_owning);

    // removing the current member from inside each() keeps the others coming, lined up or not
    int visited{};
    non_owning.each([&](const tessera::entity entt, pos &position, vel &) {
        ++visited;

        if (position.x % 2 == 0) {
            registry.erase<vel>(entt);
        }
    });
    EXPECT_EQ(visited, count);
    EXPECT_EQ(non_owning.size(), static_cast<std::size_t>(count / 2));
    EXPECT_EQ(partial.size(), static_cast<std::size_t>(count / 2));

    for (auto [entt, position, velocity] : partial.each()) {
        EXPECT_EQ(position.x % 2, 1);
        EXPECT_EQ(position.x, velocity.dx);
    }
}

namespace {

// Every member's elements, as each(func) hands them out, must be the member's own: the lined-up path reads them
// at the member's position, the other path looks them up.
template<typename Group>
void expect_own_elements(tessera::registry &registry, const Group &group) {
    std::size_t visited{};
    group.each([&](const tessera::entity entt, pos &position, vel &velocity) {
        EXPECT_EQ(&position, &registry.get<pos>(entt));
        EXPECT_EQ(&velocity, &registry.get<vel>(entt));
        ++visited;
    });
    EXPECT_EQ(visited, group.size());
}

} // namespace

TEST(GroupIteration, RememberedLineUpFollowsEveryChangeOfThePools) {
    // each() remembers that the get storages lined up and skips the comparison next time, until a packed array
    // changes: every change below makes a remembered verdict wrong if it were kept
    tessera::registry registry;
    auto partial = registry.group<pos>(tessera::get<vel>);
    auto non_owning = registry.group<>(tessera::get<pos, vel>);
    const int count = static_cast<int>(tessera::component_traits<vel>::page_size) + 5;
    std::vector<tessera::entity> entities;

    for (int idx{}; idx < count; ++idx) {
        entities.push_back(registry.create());
        registry.emplace<pos>(entities.back(), idx);
        registry.emplace<vel>(entities.back(), idx);
    }

    const auto check = [&] {
        // twice: the first call may find the pools lined up and remember it, the second relies on that
        for (int round{}; round < 2; ++round) {
            expect_own_elements(registry, partial);
            expect_own_elements(registry, non_owning);
        }
    };

    check();
    auto &velocities = registry.storage<vel>();
    velocities.swap_elements(entities[1], entities[count - 2]);
    check();
    registry.sort<vel>([](const vel &lhs, const vel &rhs) { return lhs.dx > rhs.dx; });
    check();
    registry.sort<vel>([](const vel &lhs, const vel &rhs) { return lhs.dx < rhs.dx; });
    check();
    registry.erase<vel>(entities[3]);
    registry.emplace<vel>(entities[3], 3);
    check();
    registry.destroy(entities[0]);
    entities[0] = registry.create();
    registry.emplace<vel>(entities[0], 0);
    registry.emplace<pos>(entities[0], 0);
    check();
    velocities.clear();

    for (const auto entt : entities) {
        registry.emplace<vel>(entt, registry.get<pos>(entt).x);
    }

    check();

    // removing the current member from inside each() leaves a verdict that the next call must not trust blindly
    partial.each([&](const tessera::entity entt, pos &position, vel &) {
        if (position.x % 3 == 0) {
            registry.erase<vel>(entt);
        }
    });
    check();
    EXPECT_EQ(partial.size(), non_owning.size());
}

TEST(GroupIteration, RememberedLineUpFollowsTheNumberOfMembers) {
    // a member can join an owning group without moving in any storage (it already sits right after the block);
    // the get storage holds another entity at that position, so the block no longer lines up
    tessera::registry registry;
    auto group = registry.group<pos>(tessera::get<vel>, tessera::exclude<tag>);
    std::vector<tessera::entity> entities;

    for (int idx{}; idx < 4; ++idx) {
        entities.push_back(registry.create());
        registry.emplace<pos>(entities.back(), idx);
        registry.emplace<vel>(entities.back(), idx);
    }

    const auto stranger = registry.create();
    registry.emplace<vel>(stranger, -1);
    const auto late = registry.create();
    registry.emplace<tag>(late);
    registry.emplace<pos>(late, 4);
    registry.emplace<vel>(late, 4);

    expect_own_elements(registry, group);
    expect_own_elements(registry, group);
    const auto pos_revision = registry.storage<pos>().revision();
    const auto vel_revision = registry.storage<vel>().revision();

    registry.erase<tag>(late);
    ASSERT_EQ(group.size(), 5u);
    EXPECT_EQ(registry.storage<pos>().revision(), pos_revision);
    EXPECT_EQ(registry.storage<vel>().revision(), vel_revision);
    EXPECT_EQ(registry.storage<vel>().index(late), 5u);
    expect_own_elements(registry, group);
}

TEST(GroupIteration, StoragesWithDifferentPageSizes) {
    // owned and get storages with pages of 4, 16, the default and 2048 elements, lined up in some blocks and not in
    // others; each group is made before the registry is filled and another one after, and each way of iterating is
    // compared with the reference before and after elements move
    namespace pages = tessera_test::mixed_pages;
    using namespace tessera_test::mixed_pages; // the component types (pages::stable: this file has its own stable)

    const auto run = [](const auto make, const auto check) {
        for (const bool before : {true, false}) {
            tessera::registry registry;
            pages::reference ref;

            if (before) {
                make(registry);
                ref = pages::fill(registry);
            } else {
                ref = pages::fill(registry);
                make(registry);
            }

            check(registry, ref, make(registry));
            pages::reshuffle(registry, ref);
            check(registry, ref, make(registry));
        }
    };

    // full-owning
    run(
        [](tessera::registry &registry) {
            return registry.group<small, medium, large>({}, tessera::exclude<pages::excluded>);
        },
        [](tessera::registry &registry, const pages::reference &ref, const auto &group) {
            pages::expect_visits<small, medium, large>(registry, ref, group, true);
        });
    // partial-owning
    run(
        [](tessera::registry &registry) {
            return registry.group<small, default_paged>(tessera::get<medium, large>, tessera::exclude<pages::excluded>);
        },
        [](tessera::registry &registry, const pages::reference &ref, const auto &group) {
            pages::expect_visits<small, default_paged, medium, large>(registry, ref, group, true);
        });
    run([](tessera::registry &registry) { return registry.group<large>(tessera::get<small, medium>); },
        [](tessera::registry &registry, const pages::reference &ref, const auto &group) {
            pages::expect_visits<large, small, medium>(registry, ref, group, false);
        });
    // non-owning, with and without an in-place storage
    run(
        [](tessera::registry &registry) {
            return registry.group<>(tessera::get<small, medium, default_paged, large>,
                                    tessera::exclude<pages::excluded>);
        },
        [](tessera::registry &registry, const pages::reference &ref, const auto &group) {
            pages::expect_visits<small, medium, default_paged, large>(registry, ref, group, true);
        });
    run([](tessera::registry &registry) { return registry.group<>(tessera::get<pages::stable, large, small>); },
        [](tessera::registry &registry, const pages::reference &ref, const auto &group) {
            pages::expect_visits<pages::stable, large, small>(registry, ref, group, false);
        });
}

TEST(Group, GenericEntityFirstCallbacks) {
    // [](auto entity, auto &&...elements) is chosen without instantiating the elements-only form, whose body (an
    // element taken for the entity) would not compile
    tessera::registry registry;
    auto owning = registry.group<pos>(tessera::get<vel>);
    auto non_owning = registry.group(tessera::get<hidden, vel>);
    std::vector<tessera::entity> ents(3);
    registry.create(ents.begin(), ents.end());

    for (int i = 0; i < 3; ++i) {
        registry.emplace<pos>(ents[i], i);
        registry.emplace<vel>(ents[i], 10 * i);
        registry.emplace<hidden>(ents[i], 100 * i);
    }

    std::vector<tessera::entity> seen;
    int sum{};
    const auto record = [&](auto entt, auto &&...elements) {
        seen.push_back(entt);
        static_assert(sizeof...(elements) == 2u);
        sum += registry.get<pos>(entt).x;
    };

    owning.each(record);
    EXPECT_EQ(seen, (std::vector<tessera::entity>{ents[2], ents[1], ents[0]}));
    EXPECT_EQ(sum, 3);

    seen.clear();
    non_owning.each(record);
    EXPECT_EQ(seen.size(), 3u);
}

} // namespace unit_entity_group
} // namespace
