// Tests for the signal mixin (construct, update and destroy signals on every pool) and the reactive mixin
// (storages that collect entities on registry events).
#include "support/misuse.hpp"
#include "support/tracking_resource.hpp"
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <gtest/gtest.h>
#include <memory>
#include <memory_resource>
#include <tessera/core/hashed_string.hpp>
#include <tessera/entity/command_buffer.hpp>
#include <tessera/entity/mixin.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/storage.hpp>
#include <utility>
#include <vector>

namespace {

using namespace tessera::literals;

struct position {
    int x;
    int y;
};

struct velocity {
    int dx;
};

struct tag {};

/// An in-place component: destroying one leaves a hole, which clear() must not report as an entity.
struct pinned {
    static constexpr bool in_place_delete = true;
    int value;
};

/// Records what the listeners saw.
struct recorder {
    std::vector<tessera::entity> seen{};
    std::vector<const tessera::registry *> owners{};
    int checks_failed{};

    void on_any(tessera::registry &reg, const tessera::entity entt) {
        seen.push_back(entt);
        owners.push_back(&reg);
    }

    void on_entity_only(const tessera::entity entt) { seen.push_back(entt); }

    void construct_int(tessera::registry &reg, const tessera::entity entt) {
        seen.push_back(entt);
        // the element is already there when construct fires
        checks_failed += !reg.all_of<int>(entt);
        checks_failed += reg.all_of<int>(entt) && reg.get<int>(entt) != 42;
    }

    void destroy_int(tessera::registry &reg, const tessera::entity entt) {
        seen.push_back(entt);
        // the element is still there when destroy fires
        checks_failed += !reg.all_of<int>(entt);
        checks_failed += reg.all_of<int>(entt) && reg.get<int>(entt) != 42;
    }

    void construct_after_range(tessera::registry &reg, const tessera::entity entt) {
        seen.push_back(entt);
        // every entity of the range is in the pool before the first signal
        checks_failed += reg.storage<int>().size() != 3u;
    }

    void entity_destroyed(tessera::registry &reg, const tessera::entity entt) {
        seen.push_back(entt);
        // components are gone, the identifier is still in use
        checks_failed += !reg.valid(entt);
        checks_failed += !reg.orphan(entt);
    }
};

int free_calls = 0;

void free_listener(tessera::registry &, tessera::entity) { ++free_calls; }

void free_entity_listener(tessera::entity) { ++free_calls; }

void free_no_args_listener() { ++free_calls; }

/// A component whose static members are connected by the pool itself.
struct self_aware {
    static inline int constructed = 0;
    static inline int updated = 0;
    static inline int destroyed = 0;

    static void on_construct(tessera::registry &, tessera::entity) { ++constructed; }
    static void on_update(tessera::registry &, tessera::entity) { ++updated; }
    static void on_destroy(tessera::registry &, tessera::entity) { ++destroyed; }

    int value;
};

} // namespace

TEST(SighMixin, ConstructListenerSeesTheElement) {
    tessera::registry reg;
    recorder rec;
    reg.on_construct<int>().connect<&recorder::construct_int>(rec);

    const auto entt = reg.create();
    reg.emplace<int>(entt, 42);

    ASSERT_EQ(rec.seen.size(), 1u);
    EXPECT_EQ(rec.seen[0], entt);
    EXPECT_EQ(rec.checks_failed, 0);

    reg.emplace_or_replace<int>(reg.create(), 42);
    EXPECT_EQ(rec.seen.size(), 2u);
    EXPECT_EQ(rec.checks_failed, 0);
}

TEST(SighMixin, DestroyListenerCanStillGet) {
    tessera::registry reg;
    recorder rec;
    reg.on_destroy<int>().connect<&recorder::destroy_int>(rec);

    std::array<tessera::entity, 6u> entt{};
    reg.create(entt.begin(), entt.end());

    for (auto curr : entt) {
        reg.emplace<int>(curr, 42);
    }

    reg.erase<int>(entt[0]);
    EXPECT_EQ(reg.remove<int>(entt[1]), 1u);
    reg.destroy(entt[2]);
    EXPECT_EQ(rec.seen.size(), 3u);

    reg.clear<int>();
    EXPECT_EQ(rec.seen.size(), 6u);
    EXPECT_EQ(rec.checks_failed, 0);

    reg.emplace<int>(entt[3], 42);
    reg.clear();
    EXPECT_EQ(rec.seen.size(), 7u);
    EXPECT_EQ(rec.seen.back(), entt[3]);
    EXPECT_EQ(rec.checks_failed, 0);
}

TEST(SighMixin, UpdateFiresForPatchNotForEmplace) {
    tessera::registry reg;
    recorder updated;
    recorder constructed;
    reg.on_update<position>().connect<&recorder::on_any>(updated);
    reg.on_construct<position>().connect<&recorder::on_any>(constructed);

    const auto entt = reg.create();
    reg.emplace<position>(entt, 1, 2);
    EXPECT_TRUE(updated.seen.empty());
    EXPECT_EQ(constructed.seen.size(), 1u);

    reg.patch<position>(entt, [](position &pos) { pos.x = 10; });
    EXPECT_EQ(updated.seen.size(), 1u);
    EXPECT_EQ(reg.get<position>(entt).x, 10);

    reg.replace<position>(entt, 3, 4);
    EXPECT_EQ(updated.seen.size(), 2u);

    reg.emplace_or_replace<position>(entt, 5, 6);
    EXPECT_EQ(updated.seen.size(), 3u);
    EXPECT_EQ(constructed.seen.size(), 1u);

    const auto other = reg.create();
    reg.emplace_or_replace<position>(other, 7, 8);
    EXPECT_EQ(updated.seen.size(), 3u);
    EXPECT_EQ(constructed.seen.size(), 2u);

    // the storage itself publishes as well
    reg.storage<position>().patch(other);
    EXPECT_EQ(updated.seen.size(), 4u);
    EXPECT_EQ(updated.seen.back(), other);
}

TEST(SighMixin, UpdateOnEmptyTypes) {
    tessera::registry reg;
    recorder updated;
    reg.on_update<tag>().connect<&recorder::on_any>(updated);

    const auto entt = reg.create();
    reg.emplace<tag>(entt);
    EXPECT_TRUE(updated.seen.empty());

    int calls{};
    reg.patch<tag>(entt, [&calls]() { ++calls; });
    reg.replace<tag>(entt);
    reg.emplace_or_replace<tag>(entt);

    EXPECT_EQ(calls, 1);
    EXPECT_EQ(updated.seen.size(), 3u);
}

TEST(SighMixin, InsertFiresOncePerEntityAfterTheWholeRange) {
    tessera::registry reg;
    recorder rec;
    reg.on_construct<int>().connect<&recorder::construct_after_range>(rec);

    std::array<tessera::entity, 3u> entt{};
    reg.create(entt.begin(), entt.end());
    reg.insert<int>(entt.begin(), entt.end(), 7);

    ASSERT_EQ(rec.seen.size(), 3u);
    EXPECT_EQ(rec.checks_failed, 0);

    for (auto curr : entt) {
        EXPECT_EQ(std::count(rec.seen.begin(), rec.seen.end(), curr), 1);
        EXPECT_EQ(reg.get<int>(curr), 7);
    }

    // the component-range form too
    reg.clear<int>();
    rec.seen.clear();
    const std::array values{1, 2, 3};
    reg.insert<int>(entt.begin(), entt.end(), values.begin());

    ASSERT_EQ(rec.seen.size(), 3u);
    EXPECT_EQ(rec.checks_failed, 0);
    EXPECT_EQ(reg.get<int>(entt[0]), 1);
    EXPECT_EQ(reg.get<int>(entt[2]), 3);
}

TEST(SighMixin, InsertOfEmptyTypeFiresOncePerEntity) {
    tessera::registry reg;
    recorder rec;
    reg.on_construct<tag>().connect<&recorder::on_any>(rec);

    std::array<tessera::entity, 4u> entt{};
    reg.create(entt.begin(), entt.end());
    reg.insert<tag>(entt.begin(), entt.end());

    EXPECT_EQ(rec.seen.size(), 4u);
    EXPECT_TRUE(reg.all_of<tag>(entt[3]));
}

TEST(SighMixin, OpaquePushOfARangeFiresOncePerEntityAfterTheWholeRange) {
    tessera::registry reg;
    recorder rec;
    reg.on_construct<int>().connect<&recorder::construct_after_range>(rec);
    reg.on_construct<tag>().connect<&recorder::on_any>(rec);

    std::array<tessera::entity, 3u> entt{};
    reg.create(entt.begin(), entt.end());
    const int value = 9;
    tessera::sparse_set &ints = reg.storage<int>();
    EXPECT_NE(ints.push(entt.data(), entt.data() + entt.size(), &value), ints.end());
    ASSERT_EQ(rec.seen.size(), 3u);
    EXPECT_EQ(rec.checks_failed, 0);
    EXPECT_EQ(reg.get<int>(entt[1]), 9);

    // through a disabled tail: every new one is published once
    rec.seen.clear();
    tessera::sparse_set &tags = reg.storage<tag>();
    tags.push(entt[0]);
    tags.disable(entt[0]);
    rec.seen.clear();
    EXPECT_NE(tags.push(entt.data() + 1, entt.data() + 3, nullptr), tags.end());
    EXPECT_EQ(rec.seen, (std::vector<tessera::entity>{entt[1], entt[2]}));

    // nothing added, nothing published
    rec.seen.clear();
    struct unique {
        std::unique_ptr<int> handle;
    };
    const unique source{};
    std::array<tessera::entity, 1u> one{reg.create()};
    tessera::sparse_set &uniques = reg.storage<unique>();
    EXPECT_EQ(uniques.push(one.data(), one.data() + 1, &source), uniques.end());
    EXPECT_TRUE(rec.seen.empty());
}

TEST(SighMixin, RemovalThroughTheBaseClassFiresDestroy) {
    tessera::registry reg;
    recorder rec;
    reg.on_destroy<int>().connect<&recorder::destroy_int>(rec);

    std::array<tessera::entity, 5u> entt{};
    reg.create(entt.begin(), entt.end());
    reg.insert<int>(entt.begin(), entt.end(), 42);

    tessera::sparse_set &base = reg.storage<int>();
    base.erase(entt[0]);
    EXPECT_EQ(rec.seen.size(), 1u);

    EXPECT_TRUE(base.remove(entt[1]));
    EXPECT_FALSE(base.remove(entt[1]));
    EXPECT_EQ(rec.seen.size(), 2u);

    base.erase(entt.begin() + 2, entt.begin() + 3);
    EXPECT_EQ(rec.seen.size(), 3u);

    base.clear();
    EXPECT_EQ(rec.seen.size(), 5u);
    EXPECT_TRUE(base.empty());
    EXPECT_EQ(rec.checks_failed, 0);
}

TEST(SighMixin, ClearSkipsTheHolesOfInPlaceStorages) {
    tessera::registry reg;
    recorder rec;
    reg.on_destroy<pinned>().connect<&recorder::on_any>(rec);

    std::array<tessera::entity, 4u> entt{};
    reg.create(entt.begin(), entt.end());

    for (auto curr : entt) {
        reg.emplace<pinned>(curr, 1);
    }

    reg.erase<pinned>(entt[1]);
    ASSERT_EQ(rec.seen.size(), 1u);

    reg.clear<pinned>();
    EXPECT_EQ(rec.seen.size(), 4u);

    for (auto curr : rec.seen) {
        EXPECT_NE(curr, tessera::tombstone);
    }
}

TEST(SighMixin, ListenerForms) {
    tessera::registry reg;
    recorder full;
    recorder short_form;
    free_calls = 0;

    reg.on_construct<int>().connect<&free_listener>();
    reg.on_construct<int>().connect<&free_entity_listener>();
    reg.on_construct<int>().connect<&free_no_args_listener>();
    reg.on_construct<int>().connect<&recorder::on_any>(full);
    reg.on_construct<int>().connect<&recorder::on_entity_only>(short_form);

    const auto entt = reg.create();
    reg.emplace<int>(entt, 0);

    EXPECT_EQ(free_calls, 3);
    ASSERT_EQ(full.seen.size(), 1u);
    EXPECT_EQ(full.seen[0], entt);
    EXPECT_EQ(full.owners[0], &reg);
    ASSERT_EQ(short_form.seen.size(), 1u);
    EXPECT_EQ(short_form.seen[0], entt);

    reg.on_construct<int>().disconnect<&free_listener>();
    reg.on_construct<int>().disconnect(&full);
    reg.emplace<int>(reg.create(), 0);

    EXPECT_EQ(free_calls, 5);
    EXPECT_EQ(full.seen.size(), 1u);
    EXPECT_EQ(short_form.seen.size(), 2u);
}

TEST(SighMixin, AutoBindingOfStaticMembers) {
    self_aware::constructed = self_aware::updated = self_aware::destroyed = 0;
    tessera::registry reg;
    const auto entt = reg.create();

    reg.emplace<self_aware>(entt, 1);
    EXPECT_EQ(self_aware::constructed, 1);

    reg.patch<self_aware>(entt);
    reg.replace<self_aware>(entt, 2);
    EXPECT_EQ(self_aware::updated, 2);

    reg.destroy(entt);
    EXPECT_EQ(self_aware::destroyed, 1);
    EXPECT_EQ(self_aware::constructed, 1);

    // the listeners are ordinary ones: they can be disconnected
    reg.on_construct<self_aware>().disconnect<&self_aware::on_construct>();
    reg.emplace<self_aware>(reg.create(), 3);
    EXPECT_EQ(self_aware::constructed, 1);
}

TEST(SighMixin, UnboundStorageWithoutListeners) {
    tessera::storage_for_t<int> pool;
    const tessera::entity entt{3};

    EXPECT_FALSE(static_cast<bool>(pool));
    EXPECT_EQ(pool.emplace(entt, 5), 5);
    EXPECT_EQ(pool.patch(entt, [](int &value) { ++value; }), 6);

    const std::array others{tessera::entity{4}, tessera::entity{5}};
    pool.insert(others.begin(), others.end(), 1);
    EXPECT_EQ(pool.size(), 3u);

    pool.erase(entt);
    pool.clear();
    EXPECT_TRUE(pool.empty());
}

namespace {
void listen(tessera::registry &, const tessera::entity) {}
} // namespace

TEST(SighMixin, ObservedWhileAnySignalHasAListener) {
    tessera::registry reg;
    auto &pool = reg.storage<int>();
    const tessera::sparse_set &base = pool;
    EXPECT_FALSE(base.observed());

    // each of the five signals on its own, through the virtual call the registry makes
    const auto check = [&](auto sink) {
        sink.template connect<&listen>();
        EXPECT_TRUE(base.observed());
        sink.template disconnect<&listen>();
        EXPECT_FALSE(base.observed());
    };
    check(pool.on_construct());
    check(pool.on_update());
    check(pool.on_destroy());
    check(pool.on_enable());
    check(pool.on_disable());

    // a plain set and a storage without signals have nothing to observe them
    EXPECT_FALSE(tessera::sparse_set{}.observed());
    EXPECT_FALSE(tessera::basic_storage<int>{}.observed());
}

TEST(SighMixin, UnboundStorageWithListenersIsAMisuse) {
    recorder rec;
    const tessera::entity entt{3};

    {
        tessera::storage_for_t<int> pool;
        pool.on_construct().connect<&recorder::on_any>(rec);
        EXPECT_MISUSE(pool.emplace(entt, 1), "not bound");
        EXPECT_MISUSE(static_cast<void>(pool.registry()), "sigh_mixin::registry: the storage is not bound");
        EXPECT_MISUSE(static_cast<void>(std::as_const(pool).registry()), "sigh_mixin::registry");
    }

    {
        tessera::storage_for_t<int> pool;
        pool.emplace(entt, 1);
        pool.on_update().connect<&recorder::on_any>(rec);
        EXPECT_MISUSE(pool.patch(entt), "not bound");
    }

    {
        tessera::storage_for_t<int> pool;
        pool.emplace(entt, 1);
        pool.on_destroy().connect<&recorder::on_any>(rec);
        EXPECT_MISUSE(pool.erase(entt), "not bound");
        EXPECT_MISUSE(pool.clear(), "not bound");
    }

    {
        tessera::storage_for_t<tessera::entity> pool;
        pool.on_construct().connect<&recorder::on_any>(rec);
        EXPECT_MISUSE(static_cast<void>(pool.generate()), "not bound");
    }

    EXPECT_TRUE(rec.seen.empty());
}

TEST(SighMixin, BindingAStandaloneStorage) {
    tessera::registry reg;
    tessera::storage_for_t<int> pool;
    recorder rec;

    pool.bind(reg);
    EXPECT_TRUE(static_cast<bool>(pool));
    EXPECT_EQ(&pool.registry(), &reg);
    EXPECT_EQ(&std::as_const(pool).registry(), &reg);

    pool.on_construct().connect<&recorder::on_any>(rec);
    pool.emplace(tessera::entity{1}, 0);

    ASSERT_EQ(rec.owners.size(), 1u);
    EXPECT_EQ(rec.owners[0], &reg);
    // the storage is not the registry's pool
    EXPECT_EQ(reg.storage<int>().size(), 0u);
}

TEST(SighMixin, PoolsOfARegistryAreBound) {
    tessera::registry reg;
    EXPECT_TRUE(static_cast<bool>(reg.storage<int>()));
    EXPECT_EQ(&reg.storage<int>().registry(), &reg);
    EXPECT_EQ(&reg.storage<int>("other"_hs).registry(), &reg);
    EXPECT_EQ(&reg.storage<tessera::entity>().registry(), &reg);
}

TEST(SighMixin, MovedRegistryPassesItsOwnAddress) {
    tessera::registry source;
    recorder rec;
    source.on_construct<int>().connect<&recorder::on_any>(rec);
    source.on_construct<tessera::entity>().connect<&recorder::on_any>(rec);

    tessera::registry target{std::move(source)};
    const auto entt = target.create();
    target.emplace<int>(entt, 0);

    ASSERT_EQ(rec.owners.size(), 2u);
    EXPECT_EQ(rec.owners[0], &target);
    EXPECT_EQ(rec.owners[1], &target);
    EXPECT_EQ(&target.storage<int>().registry(), &target);

    tessera::registry assigned;
    assigned = std::move(target);
    assigned.emplace<int>(assigned.create(), 0);

    ASSERT_EQ(rec.owners.size(), 4u);
    EXPECT_EQ(rec.owners[2], &assigned);
    EXPECT_EQ(rec.owners[3], &assigned);

    tessera::registry other;
    other.swap(assigned);
    other.emplace<int>(other.create(), 0);

    ASSERT_EQ(rec.owners.size(), 6u);
    EXPECT_EQ(rec.owners[4], &other);
    EXPECT_EQ(rec.owners[5], &other);
    EXPECT_EQ(&assigned.storage<tessera::entity>().registry(), &assigned);
}

TEST(SighMixin, MovedStorageKeepsItsListeners) {
    tessera::registry reg;
    tessera::storage_for_t<int> pool;
    recorder rec;
    pool.bind(reg);
    pool.on_construct().connect<&recorder::on_any>(rec);

    tessera::storage_for_t<int> moved{std::move(pool)};
    moved.emplace(tessera::entity{2}, 0);

    ASSERT_EQ(rec.owners.size(), 1u);
    EXPECT_EQ(rec.owners[0], &reg);

    tessera::storage_for_t<int> assigned;
    assigned = std::move(moved);
    assigned.emplace(tessera::entity{3}, 0);
    EXPECT_EQ(rec.owners.size(), 2u);
}

TEST(SighMixin, EntityStorageSignals) {
    tessera::registry reg;
    recorder created;
    recorder destroyed;
    recorder updated;
    reg.on_construct<tessera::entity>().connect<&recorder::on_any>(created);
    reg.on_destroy<tessera::entity>().connect<&recorder::entity_destroyed>(destroyed);
    reg.on_update<tessera::entity>().connect<&recorder::on_any>(updated);

    const auto first = reg.create();
    const auto hinted = reg.create(tessera::entity{10});
    std::array<tessera::entity, 2u> range{};
    reg.create(range.begin(), range.end());

    ASSERT_EQ(created.seen.size(), 4u);
    EXPECT_EQ(created.seen[0], first);
    EXPECT_EQ(created.seen[1], hinted);
    EXPECT_EQ(created.seen[3], range[1]);

    reg.emplace<int>(first, 1);
    reg.emplace<tag>(first);
    reg.storage<int>("named"_hs).emplace(first, 2);
    reg.destroy(first);

    ASSERT_EQ(destroyed.seen.size(), 1u);
    EXPECT_EQ(destroyed.seen[0], first);
    EXPECT_EQ(destroyed.checks_failed, 0);
    EXPECT_FALSE(reg.valid(first));

    reg.release(hinted);
    EXPECT_EQ(destroyed.seen.size(), 2u);

    reg.patch<tessera::entity>(range[0]);
    ASSERT_EQ(updated.seen.size(), 1u);
    EXPECT_EQ(updated.seen[0], range[0]);

    // releasing, forcing a version or creating never publishes update
    reg.destroy(reg.create(), 7u);
    reg.release(reg.create(), 3u);
    EXPECT_EQ(updated.seen.size(), 1u);

    // the name is ignored for the entity storage
    EXPECT_FALSE(reg.on_update<tessera::entity>("whatever"_hs).empty());

    // clear() fires destroy only for the identifiers in use
    reg.emplace<int>(range[1], 3);
    reg.clear();
    EXPECT_EQ(destroyed.seen.size(), 6u);
    EXPECT_EQ(destroyed.checks_failed, 0);
}

TEST(SighMixin, PatchOfAReleasedEntityIsAMisuse) {
    tessera::registry reg;
    const auto entt = reg.create();
    reg.destroy(entt);
    EXPECT_MISUSE(reg.patch<tessera::entity>(entt), "not in use");
}

// Reactive mixin

namespace {

using flag_storage = tessera::reactive_mixin<tessera::storage<bool>>;

/// The doc's custom candidate: false when the first event happens, true from the second one on.
void flag_both(flag_storage &storage, const tessera::registry &, const tessera::entity entt) {
    storage.contains(entt) ? static_cast<void>(storage.get(entt) = true)
                           : static_cast<void>(storage.emplace(entt, false));
}

using void_reactive = tessera::reactive_mixin<tessera::storage<void>>;

/// Collects only the entities whose position ends up in [0, 10].
void within_range(void_reactive &storage, const tessera::registry &reg, const tessera::entity entt) {
    storage.remove(entt);

    if (const auto x = reg.get<position>(entt).x; x >= 0 && x <= 10) {
        storage.emplace(entt);
    }
}

// collects the entity only if its position is enabled when the listener runs
void collect_if_still_enabled(void_reactive &storage, const tessera::registry &reg, const tessera::entity entt) {
    if (reg.enabled<position>(entt) && !storage.contains(entt)) {
        storage.emplace(entt);
    }
}

} // namespace

TEST(ReactiveMixin, RegistryOwnedStorageCollectsWithOr) {
    tessera::registry reg;
    auto &obs = reg.storage<tessera::reactive>("obs"_hs);

    EXPECT_TRUE(static_cast<bool>(obs));
    EXPECT_EQ(&obs.registry(), &reg);
    EXPECT_EQ(&obs.on_construct<position>().on_update<velocity>(), &obs);

    const auto first = reg.create();
    const auto second = reg.create();
    const auto third = reg.create();

    reg.emplace<position>(first, 0, 0);
    reg.emplace<velocity>(second, 1);
    EXPECT_TRUE(obs.contains(first));
    EXPECT_FALSE(obs.contains(second));

    reg.patch<velocity>(second);
    EXPECT_TRUE(obs.contains(second));

    reg.emplace<position>(third, 0, 0);
    reg.emplace<velocity>(third, 1);
    reg.replace<velocity>(third, 2);
    EXPECT_TRUE(obs.contains(third));
    EXPECT_EQ(obs.size(), 3u);

    // never removed by the mixin itself
    reg.remove<position>(first);
    EXPECT_TRUE(obs.contains(first));

    obs.clear();
    EXPECT_TRUE(obs.empty());

    // it is a pool of the registry like any other
    EXPECT_EQ(reg.storage("obs"_hs), &obs);
    EXPECT_EQ(&reg.storage<tessera::reactive>("obs"_hs), &obs);
    obs.reset();
}

TEST(ReactiveMixin, CollectsEnabledAndDisabledElements) {
    tessera::registry reg;
    auto &enabled = reg.storage<tessera::reactive>("enabled"_hs);
    auto &disabled = reg.storage<tessera::reactive>("disabled"_hs);
    EXPECT_EQ(&enabled.on_enable<position>(), &enabled);
    EXPECT_EQ(&disabled.on_disable<position>(), &disabled);

    const auto first = reg.create();
    const auto second = reg.create();
    reg.emplace<position>(first, 0, 0);
    reg.emplace<position>(second, 0, 0);
    // construction is not a state change
    EXPECT_TRUE(enabled.empty());
    EXPECT_TRUE(disabled.empty());

    ASSERT_TRUE(reg.disable<position>(first));
    EXPECT_TRUE(disabled.contains(first));
    EXPECT_FALSE(disabled.contains(second));
    EXPECT_TRUE(enabled.empty());

    // nothing fires when the state does not change
    disabled.clear();
    EXPECT_FALSE(reg.disable<position>(first));
    EXPECT_FALSE(reg.enable<position>(second));
    EXPECT_TRUE(disabled.empty());
    EXPECT_TRUE(enabled.empty());

    ASSERT_TRUE(reg.enable<position>(first));
    EXPECT_TRUE(enabled.contains(first));
    EXPECT_EQ(enabled.size(), 1u);

    // the whole entity switches its components one by one, a command buffer through the registry
    reg.disable(second);
    EXPECT_TRUE(disabled.contains(second));
    enabled.clear();
    reg.enable(second);
    EXPECT_TRUE(enabled.contains(second));

    tessera::command_buffer commands;
    commands.disable<position>(first);
    disabled.clear();
    commands.apply(reg);
    EXPECT_TRUE(disabled.contains(first));

    // a collected entity leaves when it is destroyed, as with every other event
    reg.destroy(first);
    EXPECT_FALSE(disabled.contains(first));

    enabled.reset();
    disabled.reset();
    EXPECT_TRUE(reg.storage<position>().on_enable().empty());
    EXPECT_TRUE(reg.storage<position>().on_disable().empty());
    reg.disable<position>(second);
    EXPECT_FALSE(disabled.contains(second));
}

TEST(ReactiveMixin, DisableCandidateRunsWhileTheElementIsEnabled) {
    tessera::registry reg;
    void_reactive storage;
    storage.bind(reg);
    storage.on_disable<position, &collect_if_still_enabled>().on_enable<position, &collect_if_still_enabled>();

    const auto entt = reg.create();
    reg.emplace<position>(entt, 0, 0);
    reg.disable<position>(entt);
    // on_disable runs before the switch
    EXPECT_TRUE(storage.contains(entt));

    storage.clear();
    reg.enable<position>(entt);
    // on_enable runs after it
    EXPECT_TRUE(storage.contains(entt));
    EXPECT_TRUE(reg.enabled<position>(entt));
    storage.reset();
}

TEST(ReactiveMixin, DestroyedEntitiesAreRemoved) {
    tessera::registry reg;
    auto &obs = reg.storage<tessera::reactive>("obs"_hs);
    obs.on_construct<position>();

    const auto entt = reg.create();
    const auto other = reg.create();
    reg.emplace<position>(entt, 0, 0);
    reg.emplace<position>(other, 0, 0);
    ASSERT_TRUE(obs.contains(entt));

    reg.destroy(entt);
    EXPECT_FALSE(obs.contains(entt));
    EXPECT_TRUE(obs.contains(other));

    // the recycled index does not clash
    const auto recycled = reg.create();
    EXPECT_EQ(tessera::to_entity(recycled), tessera::to_entity(entt));
    reg.emplace<position>(recycled, 1, 1);
    EXPECT_TRUE(obs.contains(recycled));
    obs.reset();
}

TEST(ReactiveMixin, DestroyedEntitiesAreRemovedEvenWhenDestroyIsObserved) {
    tessera::registry reg;
    // the pool of position exists before the reactive one
    static_cast<void>(reg.storage<position>());
    auto &obs = reg.storage<tessera::reactive>("obs"_hs);
    obs.on_destroy<position>();

    const auto entt = reg.create();
    reg.emplace<position>(entt, 0, 0);
    reg.destroy(entt);

    EXPECT_FALSE(obs.contains(entt));
    EXPECT_TRUE(obs.empty());

    const auto other = reg.create();
    reg.emplace<position>(other, 0, 0);
    reg.clear();
    EXPECT_TRUE(obs.empty());
    obs.reset();
}

TEST(ReactiveMixin, ObservingIdentifiersAndNamedPools) {
    tessera::registry reg;
    auto &obs = reg.storage<tessera::reactive>("obs"_hs);
    // the name is ignored for the entity type
    obs.on_construct<tessera::entity>("ignored"_hs).on_construct<int>("custom"_hs);

    const auto entt = reg.create();
    EXPECT_TRUE(obs.contains(entt));
    obs.clear();

    reg.emplace<int>(entt, 1);
    EXPECT_FALSE(obs.contains(entt));

    reg.storage<int>("custom"_hs).emplace(entt, 1);
    EXPECT_TRUE(obs.contains(entt));
    obs.reset();
}

TEST(ReactiveMixin, CustomCandidateStoresAValue) {
    tessera::registry reg;
    flag_storage storage;
    storage.bind(reg);
    storage.on_construct<position, &flag_both>().on_construct<velocity, &flag_both>();

    const auto both = reg.create();
    const auto one = reg.create();
    const auto none = reg.create();

    reg.emplace<position>(both, 0, 0);
    reg.emplace<velocity>(both, 0);
    reg.emplace<velocity>(one, 0);

    EXPECT_TRUE(storage.get(both));
    EXPECT_FALSE(storage.get(one));
    EXPECT_FALSE(storage.contains(none));

    int count{};

    for (auto [entt, both_were_added] : storage.each()) {
        count += both_were_added && entt == both;
    }

    EXPECT_EQ(count, 1);
    storage.reset();
}

TEST(ReactiveMixin, CustomCandidateCanRemove) {
    tessera::registry reg;
    void_reactive storage;
    storage.bind(reg);
    storage.on_update<position, &within_range>();

    const auto entt = reg.create();
    reg.emplace<position>(entt, 0, 0);
    EXPECT_FALSE(storage.contains(entt));

    reg.replace<position>(entt, 5, 0);
    EXPECT_TRUE(storage.contains(entt));

    reg.replace<position>(entt, 50, 0);
    EXPECT_FALSE(storage.contains(entt));
    storage.reset();
}

TEST(ReactiveMixin, ResetLeavesTheSinksEmpty) {
    tessera::registry reg;
    void_reactive storage;
    storage.bind(reg);
    storage.on_construct<position>().on_update<position>().on_destroy<velocity>().on_construct<tessera::entity>();

    EXPECT_FALSE(reg.on_construct<position>().empty());
    EXPECT_FALSE(reg.on_update<position>().empty());
    EXPECT_FALSE(reg.on_destroy<velocity>().empty());
    EXPECT_FALSE(reg.on_construct<tessera::entity>().empty());

    storage.reset();

    EXPECT_TRUE(reg.on_construct<position>().empty());
    EXPECT_TRUE(reg.on_update<position>().empty());
    EXPECT_TRUE(reg.on_destroy<velocity>().empty());
    EXPECT_TRUE(reg.on_construct<tessera::entity>().empty());

    // nothing is collected any more, and reset twice is harmless
    reg.emplace<position>(reg.create(), 0, 0);
    EXPECT_TRUE(storage.empty());
    storage.reset();
}

TEST(ReactiveMixin, DisconnectByInstance) {
    tessera::registry reg;
    void_reactive storage;
    storage.bind(reg);
    storage.on_construct<position>().on_construct<velocity>();

    reg.on_construct<position>().disconnect(&storage);
    reg.on_construct<velocity>().disconnect(&storage);

    EXPECT_TRUE(reg.on_construct<position>().empty());
    EXPECT_TRUE(reg.on_construct<velocity>().empty());

    const auto entt = reg.create();
    reg.emplace<position>(entt, 0, 0);
    EXPECT_FALSE(storage.contains(entt));
}

TEST(ReactiveMixin, UnboundIsAMisuse) {
    void_reactive storage;
    EXPECT_FALSE(static_cast<bool>(storage));
    EXPECT_MISUSE(storage.on_construct<position>(), "not bound");
    EXPECT_MISUSE(storage.on_update<position>(), "not bound");
    EXPECT_MISUSE(storage.on_destroy<position>(), "not bound");
    EXPECT_MISUSE(storage.on_enable<position>(), "not bound");
    EXPECT_MISUSE(storage.on_disable<position>(), "not bound");
    EXPECT_MISUSE(static_cast<void>(storage.registry()), "not bound");
    EXPECT_MISUSE(static_cast<void>(std::as_const(storage).registry()), "not bound");

    // it is still a storage
    storage.emplace(tessera::entity{1});
    EXPECT_TRUE(storage.contains(tessera::entity{1}));
}

TEST(ReactiveMixin, HasNoSignalsButCanBeStacked) {
    using stacked = tessera::sigh_mixin<tessera::reactive_mixin<tessera::storage<void>>>;
    tessera::registry reg;
    stacked storage;
    recorder rec;
    storage.bind(reg);
    storage.on_construct().connect<&recorder::on_any>(rec);
    // the signal mixin hides the reactive on_construct: reach it through the base
    void_reactive &reactive = storage;
    reactive.on_construct<position>();

    const auto entt = reg.create();
    reg.emplace<position>(entt, 0, 0);

    EXPECT_TRUE(storage.contains(entt));
    ASSERT_EQ(rec.seen.size(), 1u);
    EXPECT_EQ(rec.seen[0], entt);
    EXPECT_EQ(rec.owners[0], &reg);
    reactive.reset();
}

TEST(ReactiveMixin, DefaultCandidateDefaultConstructsTheValue) {
    tessera::registry reg;
    tessera::reactive_mixin<tessera::storage<int>> storage;
    storage.bind(reg);
    storage.on_update<position>();

    const auto entt = reg.create();
    reg.emplace<position>(entt, 0, 0);
    reg.patch<position>(entt);
    ASSERT_TRUE(storage.contains(entt));
    EXPECT_EQ(storage.get(entt), 0);

    // collecting twice keeps the value
    storage.get(entt) = 3;
    reg.patch<position>(entt);
    EXPECT_EQ(storage.get(entt), 3);
    EXPECT_EQ(storage.size(), 1u);
    storage.reset();
}

TEST(ReactiveMixin, RegistryOwnedStorageFollowsAMovedRegistry) {
    tessera::registry source;
    auto &obs = source.storage<tessera::reactive>("obs"_hs);
    obs.on_construct<position>();

    tessera::registry target{std::move(source)};
    EXPECT_EQ(&obs.registry(), &target);
    EXPECT_EQ(&target.storage<tessera::reactive>("obs"_hs), &obs);

    const auto entt = target.create();
    target.emplace<position>(entt, 0, 0);
    EXPECT_TRUE(obs.contains(entt));

    target.destroy(entt);
    EXPECT_FALSE(obs.contains(entt));
    obs.reset();
}

namespace {

/// A user registry type derived from the library one.
struct derived_registry : tessera::registry {
    int tag_value{};
};

} // namespace

TEST(SighMixin, BoundToADerivedRegistry) {
    using pool_type = tessera::basic_sigh_mixin<tessera::storage<int>, derived_registry>;
    derived_registry reg;
    pool_type direct;
    pool_type through_base;

    direct.bind(reg);
    through_base.bind(static_cast<tessera::registry &>(reg));

    EXPECT_EQ(&direct.registry(), &reg);
    EXPECT_EQ(&through_base.registry(), &reg);
    static_assert(std::is_same_v<decltype(direct.registry()), derived_registry &>);
}

namespace {

using derived_reactive = tessera::basic_reactive_mixin<tessera::storage<void>, derived_registry>;

/// A candidate that reads the derived registry.
void when_tagged(derived_reactive &storage, const derived_registry &reg, const tessera::entity entt) {
    if (reg.tag_value == 1) {
        storage.emplace(entt);
    }
}

} // namespace

TEST(ReactiveMixin, BoundToADerivedRegistry) {
    using storage_type = derived_reactive;
    derived_registry reg;
    storage_type storage;
    storage.bind(static_cast<tessera::registry &>(reg));
    EXPECT_EQ(&storage.registry(), &reg);

    storage.on_construct<position>();
    const auto entt = reg.create();
    reg.emplace<position>(entt, 0, 0);
    EXPECT_TRUE(storage.contains(entt));

    storage_type custom;
    custom.bind(reg);
    custom.on_update<position, &when_tagged>();
    reg.patch<position>(entt);
    EXPECT_FALSE(custom.contains(entt));
    reg.tag_value = 1;
    reg.patch<position>(entt);
    EXPECT_TRUE(custom.contains(entt));

    custom.reset();
    storage.reset();
}

TEST(ReactiveMixin, ResetAfterTheRegistryMoved) {
    auto source = std::make_unique<tessera::registry>();
    auto &obs = source->storage<tessera::reactive>("obs"_hs);
    obs.on_construct<tessera::entity>().on_construct<position>();

    tessera::registry target{std::move(*source)};
    source.reset();

    const auto entt = target.create();
    EXPECT_TRUE(obs.contains(entt));

    obs.reset();
    EXPECT_TRUE(target.on_construct<tessera::entity>().empty());
    EXPECT_TRUE(target.on_construct<position>().empty());

    obs.clear();
    static_cast<void>(target.create());
    EXPECT_TRUE(obs.empty());
}

namespace {

/// A destroy listener that sorts the pool it listens to (by descending x), as code that keeps a pool ordered does.
struct sorting_listener {
    std::vector<tessera::entity> seen{};

    void sort_positions(tessera::registry &reg, const tessera::entity entt) {
        seen.push_back(entt);
        reg.sort<position>([](const position &lhs, const position &rhs) { return lhs.x > rhs.x; });
    }

    /// Every entity once, whatever the order.
    [[nodiscard]] bool saw_each_once(std::vector<tessera::entity> expected) {
        std::sort(seen.begin(), seen.end());
        std::sort(expected.begin(), expected.end());
        return seen == expected;
    }
};

/// Entities with x = 0, 5, 1, 4, 2, 3: sorting moves most of them.
std::vector<tessera::entity> scrambled_positions(tessera::registry &reg) {
    std::vector<tessera::entity> entities(6u);
    reg.create(entities.begin(), entities.end());
    const std::array xs{0, 5, 1, 4, 2, 3};
    for (std::size_t pos{}; pos < entities.size(); ++pos) {
        reg.emplace<position>(entities[pos], xs[pos], 0);
    }
    return entities;
}

} // namespace

TEST(SighMixin, DestroyListenerMaySortItsPool) {
    // the removal loop finds each entity again after the listeners ran: sorting is not an invalidation there
    tessera::registry reg;
    sorting_listener listener;
    reg.on_destroy<position>().connect<&sorting_listener::sort_positions>(listener);
    auto &pool = reg.storage<position>();
    const tessera::sparse_set &base = pool;

    // one entity at a time
    auto entities = scrambled_positions(reg);
    reg.destroy(entities[2]);
    reg.erase<position>(entities[0]);
    EXPECT_TRUE(reg.remove<position>(entities[1]));
    EXPECT_EQ(pool.size(), 3u);
    EXPECT_TRUE(listener.saw_each_once({entities[0], entities[1], entities[2]}));
    for (const auto entt : {entities[3], entities[4], entities[5]}) {
        EXPECT_TRUE(pool.contains(entt));
    }

    // the whole pool through its own iterators, by erase and by remove
    listener.seen.clear();
    pool.erase(base.begin(), base.end());
    EXPECT_TRUE(pool.empty());
    EXPECT_TRUE(listener.saw_each_once({entities[3], entities[4], entities[5]}));

    listener.seen.clear();
    entities = scrambled_positions(reg);
    EXPECT_EQ(pool.remove(base.begin(), base.end()), 6u);
    EXPECT_TRUE(pool.empty());
    EXPECT_TRUE(listener.saw_each_once(entities));

    // a range of another set, and the identifiers of a container
    listener.seen.clear();
    entities = scrambled_positions(reg);
    tessera::sparse_set some{};
    some.push(entities[1]);
    some.push(entities[4]);
    pool.erase(some.begin(), some.end());
    EXPECT_EQ(pool.remove(entities.begin(), entities.begin() + 2), 1u);
    EXPECT_TRUE(listener.saw_each_once({entities[0], entities[1], entities[4]}));
    EXPECT_EQ(pool.size(), 3u);

    // clear: every listener runs before anything is removed (sorted beforehand, so the positions stay)
    reg.sort<position>([](const position &lhs, const position &rhs) { return lhs.x > rhs.x; });
    listener.seen.clear();
    reg.clear<position>();
    EXPECT_TRUE(pool.empty());
    EXPECT_TRUE(listener.saw_each_once({entities[2], entities[3], entities[5]}));

    // destroying entities, through the entity storage's own range as registry.clear() does
    listener.seen.clear();
    entities = scrambled_positions(reg);
    reg.sort<position>([](const position &lhs, const position &rhs) { return lhs.x > rhs.x; });
    reg.clear();
    EXPECT_TRUE(listener.saw_each_once(entities));
    EXPECT_TRUE(pool.empty());
}

TEST(SighMixin, DestroyListenerSortingDuringAPartialRangeIsAMisuse) {
    // positions still to come would hold other entities: the range no longer means what it meant
    tessera::registry reg;
    sorting_listener listener;
    reg.on_destroy<position>().connect<&sorting_listener::sort_positions>(listener);
    const auto entities = scrambled_positions(reg);
    const tessera::sparse_set &base = reg.storage<position>();

    EXPECT_MISUSE(reg.storage<position>().erase(base.begin() + 1, base.end()),
                  "sigh_mixin: a destroy listener sorted the pool or removed other entities from it");
    // nothing was removed; the last step of a range may sort, as a single removal may
    EXPECT_EQ(base.size(), entities.size());
    reg.storage<position>().erase(base.begin(), base.begin() + 1);
    EXPECT_EQ(base.size(), entities.size() - 1u);
}

namespace {

using pmr_registry = tessera::basic_registry<tessera::entity, std::pmr::polymorphic_allocator<tessera::entity>>;

void record_destroyed(std::vector<tessera::entity> &out, pmr_registry &, const tessera::entity entt) {
    out.push_back(entt);
}

} // namespace

TEST(SighMixin, MoveAssignmentBetweenUnequalResources) {
    using pmr_pool = pmr_registry::storage_for_type<position>;
    using pmr_reactive = tessera::reactive_mixin<
        tessera::basic_storage<tessera::reactive, tessera::entity, std::pmr::polymorphic_allocator<tessera::reactive>>>;
    static_assert(std::is_nothrow_move_assignable_v<tessera::storage_for_t<position>>);
    static_assert(!std::is_nothrow_move_assignable_v<pmr_pool>);
    static_assert(!std::is_nothrow_move_assignable_v<pmr_reactive>);

    tessera_test::resource_pair resources{};
    auto &[first, second] = resources;
    pmr_registry reg{&first};
    std::vector<tessera::entity> destroyed{};
    pmr_pool source{&first};
    source.bind(reg);
    source.on_destroy().connect<&record_destroyed>(destroyed);
    for (unsigned idx = 0u; idx < 5u; ++idx) {
        source.emplace(tessera::entity{idx}, static_cast<int>(idx), 0);
    }

    // the elements move into the target's resource, the listeners and the registry come along
    pmr_pool target{&second};
    target.emplace(tessera::entity{9}, 9, 9);
    target = std::move(source);
    EXPECT_EQ(target.get_allocator().resource(), &second);
    EXPECT_EQ(&target.registry(), &reg);
    EXPECT_EQ(target.size(), 5u);
    EXPECT_EQ(target.get(tessera::entity{3}).x, 3);
    EXPECT_TRUE(source.empty()); // NOLINT(bugprone-use-after-move)
    target.erase(tessera::entity{3});
    EXPECT_EQ(destroyed, std::vector<tessera::entity>{tessera::entity{3}});

    pmr_pool extended{std::move(target), &first};
    EXPECT_EQ(extended.size(), 4u);
    extended.erase(tessera::entity{1});
    EXPECT_EQ(destroyed.size(), 2u);

    // a reactive storage moves its collected entities the same way
    pmr_reactive collected{&first};
    collected.bind(reg);
    collected.push(tessera::entity{4});
    collected.push(tessera::entity{6});
    pmr_reactive other{&second};
    other = std::move(collected);
    EXPECT_TRUE(other.contains(tessera::entity{6}));
    EXPECT_EQ(&other.registry(), &reg);
}

namespace {

/// A user registry that derives privately from the library one and grants the mixins access, as custom
/// registries that expose only part of the registry API do.
template<typename Entity>
class private_registry_of : private tessera::basic_registry<Entity> {
    using base_type = tessera::basic_registry<Entity>;

    template<typename, typename>
    friend class tessera::basic_sigh_mixin;

    template<typename, typename>
    friend class tessera::basic_reactive_mixin;

public:
    using allocator_type = typename base_type::allocator_type;
    using entity_type = typename base_type::entity_type;

    using base_type::create;
    using base_type::emplace;
    using base_type::insert;
    using base_type::patch;
    using base_type::storage;

    /// The registry as its base, the way the registry binds its own pools.
    [[nodiscard]] base_type &as_base() noexcept { return *this; }
};

using private_registry = private_registry_of<tessera::entity>;

void count_for_private(std::size_t &count, private_registry &, const tessera::entity) { ++count; }

} // namespace

TEST(SighMixin, BoundToAPrivatelyDerivedRegistry) {
    using pool_type = tessera::basic_sigh_mixin<tessera::storage<int>, private_registry>;
    private_registry reg;
    pool_type direct;
    pool_type through_base;
    EXPECT_FALSE(direct);

    direct.bind(reg);
    through_base.bind(reg.as_base());
    EXPECT_TRUE(direct);
    EXPECT_EQ(&direct.registry(), &reg);
    EXPECT_EQ(&through_base.registry(), &reg);

    std::size_t constructed{};
    std::size_t destroyed{};
    direct.on_construct().connect<&count_for_private>(constructed);
    direct.on_destroy().connect<&count_for_private>(destroyed);
    const auto first = reg.create();
    const auto second = reg.create();
    direct.emplace(first, 1);
    direct.emplace(second, 2);
    direct.clear();
    EXPECT_EQ(constructed, 2u);
    EXPECT_EQ(destroyed, 2u);

    pool_type unbound;
    EXPECT_MISUSE(static_cast<void>(unbound.registry()), "sigh_mixin::registry");
}

TEST(ReactiveMixin, BoundToAPrivatelyDerivedRegistry) {
    using storage_type = tessera::basic_reactive_mixin<tessera::storage<void>, private_registry>;
    private_registry reg;
    storage_type storage;
    storage.bind(reg);
    EXPECT_EQ(&storage.registry(), &reg);

    storage.on_construct<position>();
    const std::array entities{reg.create(), reg.create()};
    reg.insert<position>(entities.begin(), entities.end());
    EXPECT_EQ(storage.size(), 2u);
    EXPECT_TRUE(storage.contains(entities[0u]));
    EXPECT_TRUE(storage.contains(entities[1u]));
    storage.reset();

    storage_type unbound;
    EXPECT_MISUSE(static_cast<void>(unbound.registry()), "reactive_mixin");
}

namespace {

/// An identifier type whose pools publish a custom registry type (see the storage_type specialization below).
enum class custom_id : std::uint32_t {};

/// A custom registry over custom_id.
using custom_id_registry = private_registry_of<custom_id>;

} // namespace

/// The pools of custom_id publish custom_id_registry rather than basic_registry<custom_id>.
template<typename Type>
requires(!std::is_same_v<Type, custom_id> &&
         !std::is_same_v<Type, tessera::reactive>) struct tessera::storage_type<Type, custom_id, std::allocator<Type>> {
    using type = tessera::basic_sigh_mixin<tessera::basic_storage<Type, custom_id>, custom_id_registry>;
};

TEST(ReactiveMixin, ObservesPoolsThatPublishACustomRegistry) {
    custom_id_registry reg;
    const auto first = reg.create();
    const auto second = reg.create();

    // the owner is the type the pools publish: the candidate is connected as it is
    tessera::basic_reactive_mixin<tessera::basic_storage<void, custom_id>, custom_id_registry> same;
    same.bind(reg);
    same.on_construct<position>().on_update<position>();

    reg.emplace<position>(first, 1, 2);
    EXPECT_TRUE(same.contains(first));
    EXPECT_FALSE(same.contains(second));

    same.clear();
    reg.patch<position>(first);
    EXPECT_TRUE(same.contains(first));
    same.reset();
}
