// Tests for the registry members that work on its pools as a whole: erase_if, reset(id) and the random access
// iterator of storage().
#include "support/misuse.hpp"
#include <algorithm>
#include <cstddef>
#include <gtest/gtest.h>
#include <iterator>
#include <tessera/core/hashed_string.hpp>
#include <tessera/core/type_info.hpp>
#include <tessera/entity/registry.hpp>
#include <type_traits>
#include <utility>
#include <vector>

namespace {
namespace unit_entity_registry_pools {

namespace {

using namespace tessera::literals;

struct position {
    int x;
};

struct velocity {
    int dx;
};

struct tag {};

} // namespace

TEST(RegistryPools, EraseIfVisitsOnlyThePoolsThatContainTheEntity) {
    tessera::registry reg;
    const auto entt = reg.create();
    const auto other = reg.create();
    reg.emplace<position>(entt, 1);
    reg.emplace<velocity>(entt, 2);
    reg.emplace<tag>(other);
    reg.storage<int>("named"_hs).emplace(entt, 3);

    std::vector<tessera::id_type> seen;
    reg.erase_if(entt, [&seen](const tessera::id_type id, const tessera::sparse_set &pool) {
        seen.push_back(id);
        EXPECT_EQ(pool.info().hash(), id == "named"_hs ? tessera::type_hash<int>::value() : id);
        return id != tessera::type_hash<velocity>::value();
    });

    std::sort(seen.begin(), seen.end());
    std::vector<tessera::id_type> expected{tessera::type_hash<position>::value(), tessera::type_hash<velocity>::value(),
                                           "named"_hs};
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(seen, expected);
    EXPECT_FALSE(reg.all_of<position>(entt));
    EXPECT_TRUE(reg.all_of<velocity>(entt));
    EXPECT_FALSE(reg.storage<int>("named"_hs).contains(entt));
    EXPECT_TRUE(reg.all_of<tag>(other));
}

TEST(RegistryPools, EraseIfFiresDestroySignals) {
    tessera::registry reg;
    const auto entt = reg.create();
    reg.emplace<position>(entt, 1);
    std::size_t destroyed{};
    reg.on_destroy<position>().connect<[](std::size_t &count, tessera::registry &, tessera::entity) { ++count; }>(
        destroyed);

    reg.erase_if(entt, [](auto, auto &) { return true; });

    EXPECT_EQ(destroyed, 1u);
    EXPECT_TRUE(reg.orphan(entt));
}

TEST(RegistryPools, EraseIfSurvivesReactivePoolsCreatedByListeners) {
    tessera::registry reg;
    const auto entt = reg.create();
    reg.emplace<position>(entt, 1);
    reg.emplace<velocity>(entt, 2);
    reg.emplace<tag>(entt);
    // removing the velocity creates a reactive pool (in front of the others) and a plain one (at the back)
    reg.on_destroy<velocity>().connect<[](tessera::registry &owner, tessera::entity) {
        static_cast<void>(owner.storage<tessera::reactive>("late"_hs));
        static_cast<void>(owner.storage<double>());
    }>();

    std::vector<tessera::id_type> seen;
    reg.erase_if(entt, [&seen](const tessera::id_type id, const tessera::sparse_set &) {
        seen.push_back(id);
        return true;
    });

    EXPECT_EQ(seen.size(), 3u);
    EXPECT_EQ(std::count(seen.begin(), seen.end(), tessera::type_hash<tag>::value()), 1);
    EXPECT_TRUE(reg.orphan(entt));
}

TEST(RegistryPools, ResetDiscardsANamedOrDefaultPool) {
    tessera::registry reg;
    const auto entt = reg.create();
    auto &ints = reg.storage<int>();
    reg.emplace<int>(entt, 1);
    reg.storage<int>("named"_hs).emplace(entt, 2);
    reg.emplace<char>(entt, 'c');
    std::size_t destroyed{};
    ints.on_destroy().connect<[](std::size_t &count, tessera::registry &, tessera::entity) { ++count; }>(destroyed);

    EXPECT_TRUE(reg.reset(tessera::type_hash<int>::value()));
    EXPECT_FALSE(reg.reset(tessera::type_hash<int>::value()));
    EXPECT_FALSE(reg.reset("missing"_hs));
    EXPECT_EQ(destroyed, 0u);
    EXPECT_EQ(reg.storage(tessera::type_hash<int>::value()), nullptr);
    EXPECT_EQ(std::as_const(reg).storage<int>(), nullptr);
    EXPECT_FALSE(reg.all_of<int>(entt));

    // the other pools are found as before, by name and by type
    EXPECT_EQ(reg.storage<int>("named"_hs).get(entt), 2);
    EXPECT_EQ(reg.get<char>(entt), 'c');
    EXPECT_EQ(std::distance(reg.storage().begin(), reg.storage().end()), 2);

    // a new default pool takes its place
    reg.emplace<int>(entt, 3);
    EXPECT_EQ(reg.get<int>(entt), 3);
    EXPECT_TRUE(reg.reset("named"_hs));
    reg.destroy(entt);
    EXPECT_FALSE(reg.valid(entt));
}

TEST(RegistryPools, ResetMisuseAPoolOfAGroup) {
    tessera::registry reg;
    static_cast<void>(reg.group<position>(tessera::get<velocity>, tessera::exclude<tag>));

    EXPECT_MISUSE(reg.reset(tessera::type_hash<position>::value()), "reset: a group uses this pool");
    EXPECT_MISUSE(reg.reset(tessera::type_hash<velocity>::value()), "reset: a group uses this pool");
    EXPECT_MISUSE(reg.reset(tessera::type_hash<tag>::value()), "reset: a group uses this pool");
    static_cast<void>(reg.storage<int>());
    EXPECT_TRUE(reg.reset(tessera::type_hash<int>::value()));
}

TEST(RegistryPools, StorageIteratorIsRandomAccess) {
    tessera::registry reg;
    static_cast<void>(reg.storage<int>());
    static_cast<void>(reg.storage<char>());
    static_cast<void>(reg.storage<double>());

    auto range = reg.storage();
    using iterator = decltype(range.begin());
    using const_iterator = decltype(std::as_const(reg).storage().begin());
    static_assert(std::random_access_iterator<iterator>);
    static_assert(std::random_access_iterator<const_iterator>);
    static_assert(std::is_convertible_v<iterator, const_iterator>);
    static_assert(!std::is_convertible_v<const_iterator, iterator>);

    iterator it = range.begin();
    const const_iterator cit = it;
    EXPECT_EQ(cit, it);
    EXPECT_EQ(range.end() - cit, 3);
    EXPECT_EQ(it[1].first, (*(it + 1)).first);
    EXPECT_EQ(&it[2].second, &(2 + it)->second);
    EXPECT_EQ((it += 3), range.end());
    EXPECT_EQ(--it, range.end() - 1);
    EXPECT_EQ(it--, range.begin() + 2);
    EXPECT_EQ((it -= 1), range.begin());
    EXPECT_EQ(it++, range.begin());
    EXPECT_LT(cit, it);
    EXPECT_GE(range.end(), it);
    EXPECT_EQ(&it->second, reg.storage(it->first));
    const_iterator back = std::as_const(reg).storage().end() - 1;
    static_assert(std::is_same_v<decltype(back->second), const tessera::sparse_set &>);
    EXPECT_EQ(&back->second, &range.begin()[2].second);
}

} // namespace unit_entity_registry_pools
} // namespace
