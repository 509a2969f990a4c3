// Tests of storage.hpp, the storage without instances: empty types, void, and types whose page_size is 0.
#include "support/misuse.hpp"
#include "support/tracking_resource.hpp"
#include <array>
#include <gtest/gtest.h>
#include <iterator>
#include <memory_resource>
#include <tessera/core/type_info.hpp>
#include <tessera/entity/entity.hpp>
#include <tessera/entity/sparse_set.hpp>
#include <tessera/entity/storage.hpp>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {
namespace unit_entity_storages_no_instance {

namespace {

using traits = tessera::entt_traits<tessera::entity>;

tessera::entity make(const unsigned idx, const unsigned version = 0u) {
    return traits::construct(static_cast<traits::entity_type>(idx), static_cast<traits::version_type>(version));
}

struct tag {};

struct stable_tag {
    static constexpr bool in_place_delete = true;
};

struct not_stored {
    static constexpr std::size_t page_size = 0u;
    int value;
};

template<typename Storage>
std::vector<tessera::entity> each_of(Storage &storage) {
    std::vector<tessera::entity> out;
    for (auto [entt] : storage.each()) {
        out.push_back(entt);
    }
    return out;
}

template<typename Storage>
std::vector<tessera::entity> reach_of(Storage &storage) {
    std::vector<tessera::entity> out;
    for (auto [entt] : storage.reach()) {
        out.push_back(entt);
    }
    return out;
}

} // namespace

TEST(storage_no_instance, member_types) {
    using storage_type = tessera::storage<tag>;
    static_assert(std::is_void_v<storage_type::value_type>);
    static_assert(std::is_same_v<storage_type::element_type, tag>);
    static_assert(std::is_same_v<storage_type::entity_type, tessera::entity>);
    static_assert(std::is_same_v<storage_type::base_type, tessera::sparse_set>);
    static_assert(storage_type::storage_policy == tessera::deletion_policy::swap_and_pop);
    static_assert(tessera::storage<stable_tag>::storage_policy == tessera::deletion_policy::in_place);
    static_assert(std::is_void_v<tessera::storage<not_stored>::value_type>);
    static_assert(std::is_void_v<tessera::storage<void>::value_type>);
    static_assert(std::is_void_v<tessera::storage<void>::element_type>);
    static_assert(std::is_same_v<decltype(*std::declval<storage_type>().each().begin()), std::tuple<tessera::entity>>);

    const storage_type storage;
    EXPECT_EQ(storage.info(), tessera::type_id<tag>());
    EXPECT_EQ(tessera::storage<void>{}.info(), tessera::type_id<void>());
    EXPECT_EQ(tessera::storage<not_stored>{}.info(), tessera::type_id<not_stored>());
}

TEST(storage_no_instance, emplace_ignores_arguments_and_get_returns_void) {
    tessera::storage<tag> storage;
    storage.emplace(make(1));
    storage.emplace(make(2), tag{});
    storage.emplace(make(3), 1, 2.5, "ignored");
    EXPECT_EQ(storage.size(), 3u);
    EXPECT_TRUE(storage.contains(make(2)));

    static_assert(std::is_void_v<decltype(storage.emplace(make(4)))>);
    static_assert(std::is_void_v<decltype(storage.get(make(1)))>);
    static_assert(std::is_same_v<decltype(storage.get_as_tuple(make(1))), std::tuple<>>);
    storage.get(make(1));
    EXPECT_EQ(storage.get_as_tuple(make(1)), std::tuple<>{});
    EXPECT_MISUSE(storage.get(make(7)), "not in the storage");
    EXPECT_MISUSE(static_cast<void>(storage.get_as_tuple(make(1, 1))), "not in the storage");
    EXPECT_MISUSE(storage.emplace(make(1)), "already in the set");

    // no instance is ever kept
    const tessera::sparse_set &base = storage;
    EXPECT_EQ(base.value(make(1)), nullptr);
}

TEST(storage_no_instance, patch_calls_functions_without_arguments) {
    tessera::storage<tag> storage;
    storage.emplace(make(1));
    int calls{};
    storage.patch(
        make(1), [&calls]() { calls += 1; }, [&calls]() { calls *= 10; });
    EXPECT_EQ(calls, 10);
    storage.patch(make(1));
    EXPECT_MISUSE(storage.patch(make(2), [&calls]() { ++calls; }), "not in the storage");
    EXPECT_EQ(calls, 10);
}

TEST(storage_no_instance, insert) {
    tessera::storage<tag> storage;
    const std::array entities{make(4), make(2), make(8)};
    storage.insert(entities.begin(), entities.end());
    storage.insert(entities.begin(), entities.begin(), tag{});
    EXPECT_EQ(storage.size(), 3u);
    EXPECT_EQ(storage.index(make(4)), 0u);
    EXPECT_EQ(storage.index(make(8)), 2u);

    const std::array more{make(10), make(11)};
    storage.insert(more.begin(), more.end(), tag{}, 42);
    EXPECT_EQ(storage.size(), 5u);

    // a misuse in the middle of the range rolls everything back
    const std::array again{make(20), make(21), make(2)};
    EXPECT_MISUSE(storage.insert(again.begin(), again.end()), "already in the set");
    EXPECT_EQ(storage.size(), 5u);
    EXPECT_FALSE(storage.contains(make(20)));
}

TEST(storage_no_instance, each_and_reach) {
    tessera::storage<tag> storage;
    storage.emplace(make(1));
    storage.emplace(make(2));
    storage.emplace(make(3));

    EXPECT_EQ(each_of(storage), (std::vector{make(3), make(2), make(1)}));
    EXPECT_EQ(reach_of(storage), (std::vector{make(1), make(2), make(3)}));
    const auto &cstorage = storage;
    EXPECT_EQ(each_of(cstorage), (std::vector{make(3), make(2), make(1)}));
    EXPECT_EQ(reach_of(cstorage), (std::vector{make(1), make(2), make(3)}));

    storage.erase(make(3));
    EXPECT_EQ(each_of(storage), (std::vector{make(2), make(1)}));
    storage.erase(make(1));
    EXPECT_EQ(each_of(storage), (std::vector{make(2)}));
    EXPECT_TRUE(storage.remove(make(2)));
    EXPECT_TRUE(each_of(storage).empty());
}

TEST(storage_no_instance, in_place_empty_type) {
    tessera::storage<stable_tag> storage;
    storage.emplace(make(1));
    storage.emplace(make(2));
    storage.emplace(make(3));
    storage.erase(make(2));
    EXPECT_EQ(storage.size(), 3u);
    EXPECT_FALSE(storage.contiguous());
    EXPECT_EQ(each_of(storage), (std::vector{make(3), make(1)}));
    EXPECT_EQ(reach_of(storage), (std::vector{make(1), make(3)}));

    // a failed range insert leaves no hole behind
    const std::array again{make(5), make(6), make(1)};
    EXPECT_MISUSE(storage.insert(again.begin(), again.end()), "already in the set");
    EXPECT_EQ(storage.size(), 3u);
    EXPECT_EQ(storage.free_list(), 1u);

    storage.emplace(make(4));
    EXPECT_EQ(storage.index(make(4)), 1u);
    EXPECT_TRUE(storage.contiguous());
    storage.erase(make(1));
    storage.compact();
    EXPECT_TRUE(storage.contiguous());
    EXPECT_EQ(storage.size(), 2u);
    EXPECT_EQ(reach_of(storage), (std::vector{make(3), make(4)}));
}

TEST(storage_no_instance, page_size_zero_type) {
    tessera::storage<not_stored> storage;
    storage.emplace(make(1), 42);
    storage.get(make(1));
    EXPECT_TRUE(storage.contains(make(1)));
    EXPECT_EQ(storage.each().begin() == storage.each().end(), false);
}

TEST(storage_no_instance, void_storage) {
    tessera::storage<void> storage;
    storage.emplace(make(1));
    storage.emplace(make(5), 1, 2);
    const std::array entities{make(7), make(9)};
    storage.insert(entities.begin(), entities.end());
    EXPECT_EQ(storage.size(), 4u);
    EXPECT_EQ(storage.info(), tessera::type_id<void>());
    EXPECT_EQ(storage.policy(), tessera::deletion_policy::swap_and_pop);
    EXPECT_EQ(each_of(storage), (std::vector{make(9), make(7), make(5), make(1)}));
    storage.get(make(5));
    EXPECT_MISUSE(storage.get(make(6)), "not in the storage");

    // through the base class: push adds identifiers, value is null
    tessera::sparse_set &base = storage;
    EXPECT_NE(base.push(make(11)), base.end());
    EXPECT_EQ(base.value(make(11)), nullptr);
    storage.erase(make(5));
    EXPECT_FALSE(storage.contains(make(5)));

    tessera::storage<void> moved{std::move(storage)};
    EXPECT_TRUE(storage.empty()); // NOLINT(bugprone-use-after-move)
    EXPECT_TRUE(moved.contains(make(11)));
    storage = std::move(moved);
    EXPECT_TRUE(storage.contains(make(11)));
    storage.clear();
    EXPECT_TRUE(storage.empty());
}

TEST(storage_no_instance, moves_between_unequal_resources_copy_the_identifiers) {
    using pmr_tag_storage =
        tessera::basic_storage<stable_tag, tessera::entity, std::pmr::polymorphic_allocator<stable_tag>>;
    static_assert(std::is_nothrow_move_assignable_v<tessera::storage<tag>>);
    static_assert(!std::is_nothrow_move_assignable_v<pmr_tag_storage>);

    tessera_test::resource_pair resources{};
    auto &[first, second] = resources;
    // every identifier in packed order, through the base class
    const auto ids_of = [](const pmr_tag_storage &storage) {
        const pmr_tag_storage::base_type &base = storage;
        return std::vector<tessera::entity>(base.begin(), base.end());
    };
    pmr_tag_storage source{&first};
    for (const unsigned idx : {1u, 5000u, 3u, 9000u}) {
        source.emplace(make(idx));
    }
    source.erase(make(3));
    const std::vector<tessera::entity> all = ids_of(source);
    const auto head = source.free_list();

    pmr_tag_storage moved{std::move(source), &second};
    EXPECT_EQ(ids_of(moved), all);
    EXPECT_EQ(moved.free_list(), head);
    EXPECT_TRUE(moved.contains(make(9000)));
    EXPECT_TRUE(source.empty()); // NOLINT(bugprone-use-after-move)

    pmr_tag_storage target{&first};
    target.emplace(make(2));
    target = std::move(moved);
    EXPECT_EQ(ids_of(target), all);
    EXPECT_FALSE(target.contains(make(2)));
    // the hole is refilled first
    target.emplace(make(7));
    EXPECT_EQ(target.index(make(7)), 2u);
}

} // namespace unit_entity_storages_no_instance
} // namespace
