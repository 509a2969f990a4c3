// Tests of storages/entity_storage.hpp, the entity storage: generation, LIFO recycling, hints, the in-use region,
// release, shrink_to_fit.
#include "support/misuse.hpp"
#include "support/tracking_resource.hpp"
#include <array>
#include <functional>
#include <gtest/gtest.h>
#include <memory_resource>
#include <stdexcept>
#include <tessera/core/type_info.hpp>
#include <tessera/entity/entity.hpp>
#include <tessera/entity/sparse_set.hpp>
#include <tessera/entity/storage.hpp>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {
namespace unit_entity_storages_entity_storage {

namespace {

using traits = tessera::entt_traits<tessera::entity>;
using entity_storage = tessera::storage<tessera::entity>;

tessera::entity make(const unsigned idx, const unsigned version = 0u) {
    return traits::construct(static_cast<traits::entity_type>(idx), static_cast<traits::version_type>(version));
}

std::vector<tessera::entity> each_of(const entity_storage &storage) {
    std::vector<tessera::entity> out;
    for (auto [entt] : storage.each()) {
        out.push_back(entt);
    }
    return out;
}

std::vector<tessera::entity> reach_of(const entity_storage &storage) {
    std::vector<tessera::entity> out;
    for (auto [entt] : storage.reach()) {
        out.push_back(entt);
    }
    return out;
}

std::vector<tessera::entity> every_id(const entity_storage &storage) {
    const tessera::sparse_set &base = storage;
    return {base.begin(), base.end()};
}

} // namespace

TEST(storage_entity, member_types) {
    static_assert(std::is_void_v<entity_storage::value_type>);
    static_assert(std::is_same_v<entity_storage::element_type, tessera::entity>);
    static_assert(std::is_same_v<entity_storage::entity_type, tessera::entity>);
    static_assert(std::is_same_v<entity_storage::base_type, tessera::sparse_set>);
    static_assert(entity_storage::storage_policy == tessera::deletion_policy::swap_only);
    static_assert(
        std::is_same_v<decltype(*std::declval<entity_storage &>().each().begin()), std::tuple<tessera::entity>>);

    const entity_storage storage;
    EXPECT_EQ(storage.policy(), tessera::deletion_policy::swap_only);
    EXPECT_EQ(storage.info(), tessera::type_id<void>());
    EXPECT_EQ(storage.free_list(), 0u);
}

TEST(storage_entity, generate_fresh_then_recycle_lifo) {
    entity_storage storage;
    const auto a = storage.generate();
    const auto b = storage.generate();
    const auto c = storage.generate();
    EXPECT_EQ(a, make(0));
    EXPECT_EQ(b, make(1));
    EXPECT_EQ(c, make(2));
    EXPECT_EQ(storage.free_list(), 3u);
    EXPECT_EQ(storage.size(), 3u);

    storage.erase(a);
    EXPECT_EQ(storage.free_list(), 2u);
    EXPECT_EQ(storage.size(), 3u);
    EXPECT_FALSE(storage.contains(a));
    // the released identifier already carries its next version
    EXPECT_TRUE(storage.contains(make(0, 1)));
    EXPECT_EQ(storage.current(a), 1u);
    EXPECT_EQ(storage.index(make(0, 1)), 2u);

    storage.erase(b);
    EXPECT_EQ(storage.free_list(), 1u);
    EXPECT_EQ(storage.generate(), make(1, 1));
    EXPECT_EQ(storage.generate(), make(0, 1));
    EXPECT_EQ(storage.generate(), make(3));
    EXPECT_EQ(storage.free_list(), 4u);
    EXPECT_EQ(storage.free_list(), storage.size());
}

TEST(storage_entity, generate_with_a_hint) {
    entity_storage storage;
    storage.generate();
    storage.generate();

    // null and the tombstone version are ignored
    EXPECT_EQ(storage.generate(tessera::null), make(2));
    EXPECT_EQ(storage.generate(tessera::tombstone), make(3));
    EXPECT_EQ(storage.generate(make(9, traits::version_mask)), make(4));

    // an absent index: exactly the hint, and the indices in between are not created
    EXPECT_EQ(storage.generate(make(10, 3)), make(10, 3));
    EXPECT_FALSE(storage.contains(make(7)));
    EXPECT_EQ(storage.current(make(7)), traits::to_version(tessera::tombstone));
    // fresh generation goes on from the cursor and skips what is taken
    EXPECT_EQ(storage.generate(), make(5));

    // a released index: re-activated with the hint's own version
    storage.erase(make(10, 3));
    EXPECT_EQ(storage.current(make(10)), 4u);
    EXPECT_EQ(storage.generate(make(10, 7)), make(10, 7));
    EXPECT_TRUE(storage.contains(make(10, 7)));
    EXPECT_LT(storage.index(make(10, 7)), storage.free_list());

    // an index in use: a new identifier instead
    storage.erase(make(1));
    EXPECT_EQ(storage.generate(make(10, 9)), make(1, 1));
    EXPECT_EQ(storage.generate(make(0)), make(6));
    EXPECT_EQ(storage.free_list(), storage.size());
}

TEST(storage_entity, generate_range_recycles_first) {
    entity_storage storage;
    const auto e0 = storage.generate();
    const auto e1 = storage.generate();
    storage.erase(e1);
    storage.erase(e0);
    storage.erase(storage.generate());

    std::array<tessera::entity, 3u> out{};
    storage.generate(out.begin(), out.end());
    EXPECT_EQ(out[0], make(0, 2));
    EXPECT_EQ(out[1], make(1, 1));
    EXPECT_EQ(out[2], make(2, 0));
    EXPECT_EQ(storage.free_list(), 3u);

    std::vector<tessera::entity> none;
    storage.generate(none.begin(), none.end());
    EXPECT_EQ(storage.size(), 3u);
}

TEST(storage_entity, start_from) {
    entity_storage storage;
    storage.start_from(make(100, 5));
    EXPECT_EQ(storage.generate(), make(100));
    EXPECT_EQ(storage.generate(), make(101));
    // lower indices still come from hints
    EXPECT_EQ(storage.generate(make(3)), make(3));

    // fresh generation skips indices already present
    storage.start_from(make(3));
    EXPECT_EQ(storage.generate(), make(4));

    entity_storage last;
    last.start_from(make(traits::entity_mask - 1u));
    EXPECT_EQ(last.generate(), make(traits::entity_mask - 1u));
    EXPECT_MISUSE(static_cast<void>(last.generate()), "no identifiers left");
}

// Once every index is handed out, each further generate() is refused, not only the first: it used to hand out
// null's index once the check was off, and then walk the in-use indices forever.
TEST(storage_entity, running_out_of_identifiers_changes_nothing) {
    entity_storage storage;
    storage.start_from(make(traits::entity_mask - 2u));
    EXPECT_EQ(storage.generate(), make(traits::entity_mask - 2u));
    EXPECT_EQ(storage.generate(), make(traits::entity_mask - 1u));

    for (int attempt = 0; attempt < 2; ++attempt) {
        if constexpr (tessera_test::misuse_runs) {
            EXPECT_MISUSE(static_cast<void>(storage.generate()), "no identifiers left");
        } else {
            EXPECT_THROW(static_cast<void>(storage.generate()), std::length_error);
        }
    }

    EXPECT_EQ(storage.size(), 2u);
    EXPECT_EQ(storage.free_list(), 2u);

    // a released identifier still comes back
    storage.erase(make(traits::entity_mask - 2u));
    EXPECT_EQ(storage.generate(), make(traits::entity_mask - 2u, 1u));
}

TEST(storage_entity, each_and_reach_visit_in_use_only) {
    entity_storage storage;
    for (int count = 0; count < 4; ++count) {
        storage.generate();
    }
    storage.erase(make(1));
    storage.erase(make(0));

    EXPECT_EQ(storage.free_list(), 2u);
    EXPECT_EQ(each_of(storage), (std::vector{make(3), make(2)}));
    EXPECT_EQ(reach_of(storage), (std::vector{make(2), make(3)}));
    // the base class visits every identifier, released ones first
    EXPECT_EQ(every_id(storage), (std::vector{make(1, 1), make(0, 1), make(3), make(2)}));

    storage.erase(make(2));
    storage.erase(make(3));
    EXPECT_TRUE(each_of(storage).empty());
    EXPECT_TRUE(reach_of(storage).empty());
    EXPECT_EQ(every_id(storage).size(), 4u);
}

TEST(storage_entity, erase_and_misuse) {
    entity_storage storage;
    const auto a = storage.generate();
    const auto b = storage.generate();
    storage.get(a);
    EXPECT_EQ(storage.get_as_tuple(a), std::tuple<>{});
    int calls{};
    storage.patch(
        a, [&calls]() { ++calls; }, [&calls]() { ++calls; });
    EXPECT_EQ(calls, 2);

    storage.erase(a);
    const auto released = make(0, 1);
    EXPECT_MISUSE(storage.get(released), "not in use");
    EXPECT_MISUSE(storage.get(a), "not in use");
    EXPECT_MISUSE(static_cast<void>(storage.get_as_tuple(released)), "not in use");
    EXPECT_MISUSE(storage.patch(released, [&calls]() { ++calls; }), "not in use");
    EXPECT_EQ(calls, 2);
    EXPECT_MISUSE(storage.erase(a), "not in the set");
    EXPECT_FALSE(storage.remove(a));
    EXPECT_EQ(storage.free_list(), 1u);

    // a released identifier is contained with the version it comes back with: removing it gives it the next one
    ASSERT_TRUE(storage.contains(released));
    EXPECT_TRUE(storage.remove(released));
    EXPECT_FALSE(storage.contains(released));
    EXPECT_EQ(storage.current(a), 2u);
    EXPECT_EQ(storage.free_list(), 1u);
    storage.erase(make(0, 2));
    EXPECT_EQ(storage.current(a), 3u);
    EXPECT_EQ(storage.free_list(), 1u);

    EXPECT_TRUE(storage.remove(b));
    EXPECT_EQ(storage.free_list(), 0u);
    EXPECT_EQ(storage.size(), 2u);
    EXPECT_EQ(storage.generate(), make(1, 1));
    EXPECT_EQ(storage.generate(), make(0, 3));
}

TEST(storage_entity, push_means_generate) {
    entity_storage storage;
    tessera::sparse_set &base = storage;

    auto it = base.push(make(5, 2));
    ASSERT_NE(it, base.end());
    EXPECT_EQ(*it, make(5, 2));
    EXPECT_EQ(storage.free_list(), 1u);

    // an index in use gives a new identifier
    it = base.push(make(5, 3));
    ASSERT_NE(it, base.end());
    EXPECT_EQ(*it, make(0));

    // a released index is re-activated with the given version
    storage.erase(make(5, 2));
    it = base.push(make(5, 8));
    EXPECT_EQ(*it, make(5, 8));
    EXPECT_EQ(storage.free_list(), 2u);

    const std::array range{make(7), make(7), make(9)};
    it = base.push(range.begin(), range.end());
    EXPECT_EQ(*it, make(9));
    EXPECT_TRUE(storage.contains(make(7)));
    EXPECT_TRUE(storage.contains(make(1)));
    EXPECT_EQ(storage.free_list(), 5u);
    EXPECT_EQ(base.value(make(7)), nullptr);
}

TEST(storage_entity, clear_forgets_everything) {
    entity_storage storage;
    storage.start_from(make(10));
    const auto a = storage.generate();
    storage.generate();
    storage.erase(a);

    storage.clear();
    EXPECT_EQ(storage.size(), 0u);
    EXPECT_EQ(storage.free_list(), 0u);
    EXPECT_FALSE(storage.contains(make(10, 1)));
    EXPECT_TRUE(each_of(storage).empty());
    EXPECT_EQ(storage.generate(), make(0));
    EXPECT_EQ(storage.generate(), make(1));
    EXPECT_EQ(storage.generate(make(10)), make(10));
}

TEST(storage_entity, version_wraps_and_skips_the_tombstone) {
    entity_storage storage;
    const auto last = make(0, traits::version_mask - 1u);
    EXPECT_EQ(storage.generate(last), last);
    storage.erase(last);
    EXPECT_EQ(storage.current(last), 0u);
    EXPECT_EQ(storage.generate(), make(0, 0));

    // the long way round, through every version
    entity_storage other;
    auto entt = other.generate();
    for (unsigned version = 0u; version < traits::version_mask; ++version) {
        other.erase(entt);
        entt = other.generate();
    }
    EXPECT_EQ(entt, make(0, 0));
}

TEST(storage_entity, move_and_swap) {
    entity_storage storage;
    storage.start_from(make(20));
    storage.generate();
    storage.generate();
    storage.erase(make(20));

    entity_storage moved{std::move(storage)};
    EXPECT_TRUE(storage.empty()); // NOLINT(bugprone-use-after-move)
    EXPECT_EQ(moved.free_list(), 1u);
    EXPECT_EQ(moved.generate(), make(20, 1));
    EXPECT_EQ(moved.generate(), make(22));

    entity_storage other;
    other.generate();
    other.swap(moved);
    EXPECT_EQ(other.size(), 3u);
    EXPECT_EQ(moved.size(), 1u);
    EXPECT_EQ(other.generate(), make(23));
    EXPECT_EQ(moved.generate(), make(1));

    storage = std::move(other);
    EXPECT_EQ(storage.generate(), make(24));
    EXPECT_TRUE(other.empty()); // NOLINT(bugprone-use-after-move)
    EXPECT_EQ(other.generate(), make(0));

    // moving a storage into itself keeps everything, the generation cursor included
    auto &alias = storage;
    storage = std::move(alias);
    EXPECT_EQ(storage.size(), 5u);
    EXPECT_EQ(storage.generate(), make(25));
}

TEST(storage_entity, sort_orders_the_identifiers_in_use_only) {
    entity_storage storage;
    for (int count = 0; count < 5; ++count) {
        storage.generate();
    }
    storage.erase(make(2));

    storage.sort(std::greater{});
    EXPECT_EQ(each_of(storage), (std::vector{make(4), make(3), make(1), make(0)}));
    EXPECT_EQ(every_id(storage).front(), make(2, 1));
    EXPECT_EQ(storage.free_list(), 4u);
    EXPECT_EQ(storage.generate(), make(2, 1));
}

TEST(storage_entity, moves_between_unequal_resources_copy_the_identifiers) {
    using pmr_entity_storage =
        tessera::basic_storage<tessera::entity, tessera::entity, std::pmr::polymorphic_allocator<tessera::entity>>;
    static_assert(std::is_nothrow_move_assignable_v<entity_storage>);
    static_assert(!std::is_nothrow_move_assignable_v<pmr_entity_storage>);

    tessera_test::resource_pair resources{};
    auto &[first, second] = resources;
    // every identifier in packed order, through the base class
    const auto ids_of = [](const pmr_entity_storage &storage) {
        const pmr_entity_storage::base_type &base = storage;
        return std::vector<tessera::entity>(base.begin(), base.end());
    };
    pmr_entity_storage source{&first};
    for (int count = 0; count < 6; ++count) {
        static_cast<void>(source.generate());
    }
    source.erase(make(1));
    source.erase(make(4));
    source.start_from(make(10));
    const std::vector<tessera::entity> all = ids_of(source);

    pmr_entity_storage moved{std::move(source), &second};
    EXPECT_EQ(ids_of(moved), all);
    EXPECT_EQ(moved.free_list(), 4u);
    EXPECT_EQ(moved.get_allocator().resource(), &second);
    EXPECT_TRUE(source.empty()); // NOLINT(bugprone-use-after-move)

    pmr_entity_storage target{&first};
    static_cast<void>(target.generate());
    target = std::move(moved);
    EXPECT_EQ(ids_of(target), all);
    EXPECT_EQ(target.get_allocator().resource(), &first);
    // the released identifiers come back first, then generation goes on from the cursor
    EXPECT_EQ(target.generate(), make(4, 1));
    EXPECT_EQ(target.generate(), make(1, 1));
    EXPECT_EQ(target.generate(), make(10));
}

TEST(storage_entity, shrink_to_fit_forgets_the_released_identifiers_above_every_one_in_use) {
    constexpr auto page = traits::page_size;
    entity_storage storage;
    std::vector<tessera::entity> made(3u * page);
    storage.generate(made.begin(), made.end());
    EXPECT_EQ(storage.sparse_pages(), 3u);

    // one in use in the first page, the rest released; the last index twice, so that versions differ
    storage.erase(made.begin() + 1, made.end());
    storage.erase(storage.generate());
    EXPECT_EQ(storage.current(made.back()), 2u);
    EXPECT_EQ(storage.current(make(1)), 1u);
    storage.shrink_to_fit();

    // index 0 is the only one in use: every released identifier lies above it and is forgotten
    EXPECT_EQ(storage.size(), 1u);
    EXPECT_EQ(storage.free_list(), 1u);
    EXPECT_EQ(storage.sparse_pages(), 1u);
    EXPECT_EQ(storage.capacity(), 1u);
    EXPECT_TRUE(storage.contains(make(0)));
    EXPECT_FALSE(storage.contains(make(1, 2)));
    EXPECT_EQ(storage.current(make(1)), traits::to_version(tessera::tombstone));
    EXPECT_EQ(each_of(storage), (std::vector{make(0)}));

    // the forgotten indices come back fresh, above every version any of them had, so never equal to an
    // identifier destroyed before; generation goes on from there
    EXPECT_EQ(storage.generate(), make(1, 2));
    EXPECT_EQ(storage.generate(), make(2, 2));
    for (std::size_t count = 3u; count < 3u * page; ++count) {
        storage.generate();
    }
    EXPECT_EQ(storage.generate(), make(3u * page));
}

TEST(storage_entity, shrink_to_fit_keeps_the_released_identifiers_below_one_in_use) {
    entity_storage storage;
    for (int count = 0; count < 6; ++count) {
        storage.generate();
    }
    storage.erase(make(1));
    storage.erase(make(5));
    storage.erase(make(2));
    storage.erase(make(4));
    storage.shrink_to_fit();

    // 1 and 2 sit below 3, still in use: they stay, with their versions and recycling order; 4 and 5 go
    EXPECT_EQ(storage.size(), 4u);
    EXPECT_EQ(storage.free_list(), 2u);
    EXPECT_TRUE(storage.contains(make(2, 1)));
    EXPECT_FALSE(storage.contains(make(4, 1)));
    EXPECT_EQ(storage.generate(), make(2, 1));
    EXPECT_EQ(storage.generate(), make(1, 1));
    EXPECT_EQ(storage.generate(), make(4, 1));
    EXPECT_EQ(storage.generate(), make(5, 1));
    EXPECT_EQ(storage.generate(), make(6));

    // clear forgets everything, the versions of forgotten indices included
    storage.clear();
    EXPECT_EQ(storage.generate(), make(0));
    EXPECT_EQ(storage.generate(), make(1));
}

TEST(storage_entity, shrink_to_fit_state_moves_and_swaps_with_the_storage) {
    entity_storage storage;
    for (int count = 0; count < 3; ++count) {
        storage.generate();
    }
    storage.erase(make(2));
    storage.erase(make(1));
    storage.erase(storage.generate());
    storage.shrink_to_fit();

    entity_storage moved{std::move(storage)};
    entity_storage other;
    other.swap(moved);
    EXPECT_EQ(other.generate(), make(1, 2));
    EXPECT_EQ(other.generate(), make(2, 2));
    EXPECT_EQ(other.generate(), make(3));
    EXPECT_EQ(moved.generate(), make(0));
}

} // namespace unit_entity_storages_entity_storage
} // namespace
