// Tests of storage.hpp, the default storage (types with instances): construction of elements, access, removal,
// iteration, paging and pointer stability, in-place deletion, sorting, the opaque interface, memory and
// exception safety.
#include "support/misuse.hpp"
#include "support/tracking_resource.hpp"
#include <algorithm>
#include <any>
#include <array>
#include <cstddef>
#include <gtest/gtest.h>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <memory_resource>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tessera/core/type_info.hpp>
#include <tessera/entity/entity.hpp>
#include <tessera/entity/sparse_set.hpp>
#include <tessera/entity/storage.hpp>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {
namespace unit_entity_storage {

namespace {

using traits = tessera::entt_traits<tessera::entity>;

tessera::entity make(const unsigned idx, const unsigned version = 0u) {
    return traits::construct(static_cast<traits::entity_type>(idx), static_cast<traits::version_type>(version));
}

struct position {
    int x;
    int y;
};

struct stable {
    static constexpr bool in_place_delete = true;
    int value;
};

struct pinned {
    explicit pinned(const int val) : value{val} {}
    pinned(const pinned &) = delete;
    pinned &operator=(const pinned &) = delete;
    int value;
};

struct empty_tag {};

/// Copied through a function of its own (clone_policy::custom).
struct cloned_by_function {
    int value;
    static cloned_by_function clone_element(const cloned_by_function &other) { return {other.value + 10}; }
};

struct no_default {
    explicit no_default(const int val) : value{val} {}
    int value;
};

struct move_only {
    std::unique_ptr<int> ptr;
};

constexpr auto page = static_cast<std::size_t>(TESSERA_PACKED_PAGE);

template<typename Storage>
std::vector<int> values_of(const Storage &storage) {
    std::vector<int> out;
    for (auto &&elem : storage) {
        out.push_back(elem.value);
    }
    return out;
}

} // namespace

TEST(storage, member_types_and_info) {
    using storage_type = tessera::storage<position>;
    static_assert(std::is_same_v<storage_type::value_type, position>);
    static_assert(std::is_same_v<storage_type::element_type, position>);
    static_assert(std::is_same_v<storage_type::entity_type, tessera::entity>);
    static_assert(std::is_same_v<storage_type::base_type, tessera::sparse_set>);
    static_assert(std::is_same_v<storage_type::pointer, position **>);
    static_assert(std::is_same_v<storage_type::const_pointer, const position *const *>);
    static_assert(storage_type::storage_policy == tessera::deletion_policy::swap_and_pop);
    static_assert(tessera::storage<stable>::storage_policy == tessera::deletion_policy::in_place);
    static_assert(std::is_same_v<std::iterator_traits<storage_type::iterator>::iterator_category,
                                 std::random_access_iterator_tag>);
    static_assert(std::is_same_v<decltype(*std::declval<storage_type::const_iterator>()), const position &>);

    const storage_type storage;
    EXPECT_EQ(storage.info(), tessera::type_id<position>());
    EXPECT_EQ(static_cast<const tessera::sparse_set &>(storage).info(), tessera::type_id<position>());
    EXPECT_EQ(storage.policy(), tessera::deletion_policy::swap_and_pop);
    EXPECT_TRUE(storage.empty());
}

TEST(storage, emplace_aggregate_and_direct_initialization) {
    tessera::storage<position> positions;
    // an aggregate without a matching constructor is list-initialized
    const auto &pos = positions.emplace(make(1), 3, 4);
    EXPECT_EQ(pos.x, 3);
    EXPECT_EQ(pos.y, 4);
    EXPECT_EQ(positions.emplace(make(2)).x, 0);
    const auto *added = &positions.emplace(make(4), position{7, 8});
    EXPECT_EQ(added, &positions.get(make(4)));
    EXPECT_EQ(positions.get(make(4)).y, 8);

    // a type with constructors is direct-initialized: (3, 7) means three sevens, not {3, 7}
    tessera::storage<std::vector<int>> vectors;
    EXPECT_EQ(vectors.emplace(make(0), 3u, 7), (std::vector<int>{7, 7, 7}));
    EXPECT_EQ(vectors.emplace(make(1), std::vector<int>{1, 2}), (std::vector<int>{1, 2}));

    tessera::storage<no_default> others;
    EXPECT_EQ(others.emplace(make(9), 42).value, 42);
    EXPECT_TRUE(others.contains(make(9)));
    EXPECT_EQ(others.size(), 1u);
}

TEST(storage, emplace_misuse) {
    tessera::storage<position> storage;
    storage.emplace(make(1), 1, 1);
    EXPECT_MISUSE(storage.emplace(make(1), 2, 2), "already in the set");
    EXPECT_MISUSE(storage.emplace(make(1, 3), 2, 2), "already in the set");
    EXPECT_MISUSE(storage.emplace(tessera::null), "null");
    EXPECT_EQ(storage.size(), 1u);
    EXPECT_EQ(storage.get(make(1)).x, 1);
}

TEST(storage, get_and_get_as_tuple) {
    tessera::storage<position> storage;
    storage.emplace(make(5), 1, 2);
    const auto &cstorage = storage;

    static_assert(std::is_same_v<decltype(storage.get(make(5))), position &>);
    static_assert(std::is_same_v<decltype(cstorage.get(make(5))), const position &>);
    static_assert(std::is_same_v<decltype(storage.get_as_tuple(make(5))), std::tuple<position &>>);
    static_assert(std::is_same_v<decltype(cstorage.get_as_tuple(make(5))), std::tuple<const position &>>);

    storage.get(make(5)).x = 10;
    EXPECT_EQ(cstorage.get(make(5)).x, 10);
    EXPECT_EQ(&std::get<0>(storage.get_as_tuple(make(5))), &storage.get(make(5)));
    EXPECT_EQ(&std::get<0>(cstorage.get_as_tuple(make(5))), &storage.get(make(5)));

    EXPECT_MISUSE(static_cast<void>(storage.get(make(6))), "not in the set");
    EXPECT_MISUSE(static_cast<void>(storage.get(make(5, 1))), "not in the set");
    EXPECT_MISUSE(static_cast<void>(cstorage.get_as_tuple(make(6))), "not in the set");
}

TEST(storage, patch_calls_every_function_in_order) {
    tessera::storage<position> storage;
    storage.emplace(make(2), 1, 1);

    auto &elem = storage.patch(
        make(2), [](position &pos) { pos.x += 1; }, [](position &pos) { pos.x *= 10; }, [](auto &pos) { pos.y = -1; });
    EXPECT_EQ(&elem, &storage.get(make(2)));
    EXPECT_EQ(elem.x, 20);
    EXPECT_EQ(elem.y, -1);
    EXPECT_EQ(&storage.patch(make(2)), &elem);

    EXPECT_MISUSE(storage.patch(make(3), [](position &) {}), "not in the set");
}

TEST(storage, insert_with_a_value) {
    tessera::storage<position> storage;
    const std::array entities{make(3), make(1), make(4)};

    const auto it = storage.insert(entities.begin(), entities.end(), position{1, 2});
    EXPECT_EQ(it, storage.begin());
    EXPECT_EQ(storage.size(), 3u);
    for (const auto entt : entities) {
        EXPECT_EQ(storage.get(entt).x, 1);
        EXPECT_EQ(storage.get(entt).y, 2);
    }
    // appended in range order
    EXPECT_EQ(storage.index(make(3)), 0u);
    EXPECT_EQ(storage.index(make(4)), 2u);

    // the default value
    const std::array more{make(7), make(8)};
    storage.insert(more.begin(), more.end());
    EXPECT_EQ(storage.get(make(8)).x, 0);
    EXPECT_EQ(storage.size(), 5u);
}

TEST(storage, insert_from_a_range_of_elements) {
    tessera::storage<position> storage;
    const std::vector entities{make(0), make(10), make(20)};
    const std::vector<position> values{{1, 1}, {2, 2}, {3, 3}};

    const auto it = storage.insert(entities.begin(), entities.end(), values.begin());
    EXPECT_EQ(it, storage.begin());
    EXPECT_EQ(storage.get(make(0)).x, 1);
    EXPECT_EQ(storage.get(make(10)).x, 2);
    EXPECT_EQ(storage.get(make(20)).x, 3);

    // a constant-element iterator works too
    const std::array others{make(30)};
    const position extra[]{{9, 9}};
    storage.insert(others.begin(), others.end(), std::cbegin(extra));
    EXPECT_EQ(storage.get(make(30)).y, 9);
}

TEST(storage, small_insertions_grow_the_packed_array_geometrically) {
    tessera::storage<position> storage;
    const tessera::sparse_set &base = storage;
    // the room of the packed array (the storage's own capacity() counts the element pages)
    const auto packed_room = [&base] { return base.tessera::sparse_set::capacity(); };
    std::size_t moves{};
    const auto *data = base.data();

    // one element at a time, as spawning or cloning single entities does
    for (unsigned idx{}; idx < 4096u; ++idx) {
        const std::array one{make(idx)};
        storage.insert(one.begin(), one.end(), position{1, 2});
        const std::array from{position{3, 4}};
        const std::array other{make(idx + 8192u)};
        storage.insert(other.begin(), other.end(), from.begin());

        if (base.data() != data) {
            data = base.data();
            ++moves;
        }
    }

    EXPECT_EQ(storage.size(), 8192u);
    // exact growth would reallocate on every insertion
    EXPECT_LE(moves, 16u);
    EXPECT_LT(packed_room(), 2u * 8192u + 1u);
    // a large insertion reserves at once what it needs, or twice the room it had if that is more
    std::vector<tessera::entity> many{};
    for (unsigned idx{}; idx < 40000u; ++idx) {
        many.push_back(make(idx + 16384u));
    }
    const auto room = packed_room();
    storage.insert(many.begin(), many.end(), position{});
    EXPECT_EQ(packed_room(), std::max(storage.size(), 2u * room));
    EXPECT_GE(storage.capacity(), storage.size());
}

TEST(storage, insert_misuse_rolls_back) {
    tessera::storage<position> storage;
    storage.emplace(make(5), 5, 5);
    const std::array entities{make(1), make(2), make(5), make(6)};

    EXPECT_MISUSE(storage.insert(entities.begin(), entities.end(), position{}), "already in the set");
    EXPECT_EQ(storage.size(), 1u);
    EXPECT_FALSE(storage.contains(make(1)));
    EXPECT_FALSE(storage.contains(make(2)));
    EXPECT_EQ(storage.get(make(5)).x, 5);
}

TEST(storage, erase_and_remove_swap_and_pop) {
    tessera::storage<position> storage;
    storage.emplace(make(1), 1, 1);
    storage.emplace(make(2), 2, 2);
    storage.emplace(make(3), 3, 3);
    const auto *first = &storage.get(make(1));

    storage.erase(make(1));
    EXPECT_EQ(storage.size(), 2u);
    EXPECT_FALSE(storage.contains(make(1)));
    // the last element moved into the hole
    EXPECT_EQ(storage.index(make(3)), 0u);
    EXPECT_EQ(&storage.get(make(3)), first);
    EXPECT_EQ(storage.get(make(3)).x, 3);
    EXPECT_EQ(storage.get(make(2)).x, 2);

    EXPECT_TRUE(storage.remove(make(2)));
    EXPECT_FALSE(storage.remove(make(2)));
    EXPECT_FALSE(storage.remove(make(3, 1)));
    EXPECT_EQ(storage.size(), 1u);
    EXPECT_MISUSE(storage.erase(make(2)), "not in the set");

    const std::array entities{make(10), make(11), make(12), make(13)};
    storage.insert(entities.begin(), entities.end(), position{4, 4});
    const std::array gone{make(11), make(99), make(13), make(3)};
    EXPECT_EQ(storage.remove(gone.begin(), gone.end()), 3u);
    EXPECT_EQ(storage.size(), 2u);
    storage.erase(entities.begin(), entities.begin() + 1);
    EXPECT_EQ(storage.size(), 1u);
    EXPECT_TRUE(storage.contains(make(12)));

    // a range of the storage's own iterators
    storage.insert(entities.begin(), entities.begin() + 2, position{});
    const tessera::sparse_set &base = storage;
    storage.erase(base.begin(), base.end());
    EXPECT_TRUE(storage.empty());
}

TEST(storage, clear_destroys_every_element) {
    tessera::storage<std::string> storage;
    for (unsigned idx = 0u; idx < 10u; ++idx) {
        storage.emplace(make(idx), 40u, static_cast<char>('a' + idx));
    }
    storage.clear();
    EXPECT_TRUE(storage.empty());
    EXPECT_FALSE(storage.contains(make(3)));
    EXPECT_EQ(storage.begin(), storage.end());

    storage.emplace(make(3), "again");
    EXPECT_EQ(storage.get(make(3)), "again");
}

TEST(storage, each_and_reach_with_structured_bindings) {
    tessera::storage<position> storage;
    storage.emplace(make(1), 1, 0);
    storage.emplace(make(2), 2, 0);
    storage.emplace(make(3), 3, 0);

    std::vector<tessera::entity> order;
    for (auto [entt, pos] : storage.each()) {
        static_assert(std::is_same_v<decltype(pos), position &>);
        order.push_back(entt);
        pos.y = pos.x * 10;
    }
    EXPECT_EQ(order, (std::vector{make(3), make(2), make(1)}));
    EXPECT_EQ(storage.get(make(2)).y, 20);

    order.clear();
    for (auto [entt, pos] : storage.reach()) {
        static_assert(std::is_same_v<decltype(pos), position &>);
        order.push_back(entt);
        EXPECT_EQ(pos.y, pos.x * 10);
    }
    EXPECT_EQ(order, (std::vector{make(1), make(2), make(3)}));

    const auto &cstorage = storage;
    order.clear();
    for (auto [entt, pos] : cstorage.each()) {
        static_assert(std::is_same_v<decltype(pos), const position &>);
        order.push_back(entt);
    }
    EXPECT_EQ(order.front(), make(3));
    order.clear();
    for (auto [entt, pos] : cstorage.reach()) {
        static_assert(std::is_same_v<decltype(pos), const position &>);
        order.push_back(entt);
    }
    EXPECT_EQ(order.front(), make(1));

    using each_iterator = decltype(storage.each().begin());
    static_assert(std::is_same_v<each_iterator::iterator_category, std::input_iterator_tag>);
    static_assert(std::forward_iterator<each_iterator>);
    static_assert(std::is_same_v<each_iterator::value_type, std::tuple<tessera::entity, position &>>);
    EXPECT_EQ(storage.each().begin().base(), static_cast<const tessera::sparse_set &>(storage).begin());
}

TEST(storage, element_iterators) {
    tessera::storage<stable> storage;
    storage.emplace(make(1), 1);
    storage.emplace(make(2), 2);
    storage.emplace(make(3), 3);
    const auto &cstorage = storage;

    EXPECT_EQ(values_of(storage), (std::vector{3, 2, 1}));
    EXPECT_EQ(storage.end() - storage.begin(), 3);
    EXPECT_EQ(storage.begin()->value, 3);
    EXPECT_EQ(storage.begin()[2].value, 1);
    EXPECT_EQ((storage.begin() + 1)->value, 2);
    EXPECT_EQ(storage.begin().index(), 2);
    EXPECT_EQ(storage.end().index(), -1);
    EXPECT_LT(storage.begin(), storage.end());

    std::vector<int> reversed;
    for (auto it = storage.rbegin(); it != storage.rend(); ++it) {
        reversed.push_back(it->value);
    }
    EXPECT_EQ(reversed, (std::vector{1, 2, 3}));

    reversed.clear();
    for (auto it = cstorage.crbegin(); it != cstorage.crend(); ++it) {
        reversed.push_back(it->value);
    }
    EXPECT_EQ(reversed, (std::vector{1, 2, 3}));
    EXPECT_EQ(cstorage.rbegin(), cstorage.crbegin());
    EXPECT_EQ(cstorage.rend(), cstorage.crend());

    static_assert(std::is_same_v<decltype(cstorage.begin()), tessera::storage<stable>::const_iterator>);
    tessera::storage<stable>::const_iterator cit = storage.begin();
    EXPECT_EQ(cit, cstorage.cbegin());
    EXPECT_EQ(cstorage.end(), cstorage.cend());
    EXPECT_EQ(cstorage.cend() - cit, 3);
    EXPECT_TRUE(storage.begin() == cstorage.cbegin());
    EXPECT_TRUE(cit == storage.begin());
    EXPECT_EQ(storage.end() - cit, 3);
    EXPECT_TRUE(cit < storage.end());
    storage.begin()->value = 30;
    EXPECT_EQ(cit->value, 30);

    // iterators designate positions: they match the ones of the base class
    const tessera::sparse_set &base = storage;
    auto eit = base.begin();
    for (auto it = storage.begin(); it != storage.end(); ++it, ++eit) {
        EXPECT_EQ(&*it, &storage.get(*eit));
    }
}

TEST(storage, raw_pages) {
    tessera::storage<position> storage;
    const auto count = static_cast<unsigned>(page + page / 2u);
    for (unsigned idx = 0u; idx < count; ++idx) {
        storage.emplace(make(idx * 3u), static_cast<int>(idx), 0);
    }
    const auto &cstorage = storage;

    for (unsigned idx = 0u; idx < count; idx += 97u) {
        const auto entt = make(idx * 3u);
        const auto pos = storage.index(entt);
        EXPECT_EQ(&storage.raw()[pos / page][pos % page], &storage.get(entt));
        EXPECT_EQ(&cstorage.raw()[pos / page][pos % page], &storage.get(entt));
    }
    EXPECT_EQ(storage.raw()[1][0].x, static_cast<int>(page));
}

TEST(storage, pointers_survive_growth) {
    tessera::storage<position> storage;
    const auto *first = &storage.emplace(make(0), 1, 2);
    for (unsigned idx = 1u; idx <= 2u * page; ++idx) {
        storage.emplace(make(idx), 0, 0);
    }
    EXPECT_EQ(first, &storage.get(make(0)));
    EXPECT_EQ(first->y, 2);
}

TEST(storage, in_place_delete_leaves_holes) {
    tessera::storage<stable> storage;
    const auto *a = &storage.emplace(make(1), 1);
    const auto *b = &storage.emplace(make(2), 2);
    const auto *c = &storage.emplace(make(3), 3);
    const auto *d = &storage.emplace(make(4), 4);

    storage.erase(make(2));
    EXPECT_EQ(storage.size(), 4u);
    EXPECT_FALSE(storage.contiguous());
    EXPECT_FALSE(storage.contains(make(2)));
    EXPECT_EQ(storage.free_list(), 1u);
    EXPECT_TRUE(storage.data()[1] == tessera::tombstone);
    EXPECT_EQ(&storage.get(make(1)), a);
    EXPECT_EQ(&storage.get(make(3)), c);
    EXPECT_EQ(&storage.get(make(4)), d);

    // each() and reach() skip the hole
    std::vector<int> seen;
    for (auto [entt, elem] : storage.each()) {
        EXPECT_FALSE(entt == tessera::tombstone);
        seen.push_back(elem.value);
    }
    EXPECT_EQ(seen, (std::vector{4, 3, 1}));
    seen.clear();
    for (auto [entt, elem] : std::as_const(storage).reach()) {
        seen.push_back(elem.value);
    }
    EXPECT_EQ(seen, (std::vector{1, 3, 4}));

    // the next emplace fills the most recent hole
    storage.erase(make(4));
    EXPECT_EQ(storage.free_list(), 3u);
    EXPECT_EQ(&storage.emplace(make(5), 5), d);
    EXPECT_EQ(storage.index(make(5)), 3u);
    EXPECT_EQ(&storage.emplace(make(6), 6), b);
    EXPECT_EQ(storage.index(make(6)), 1u);
    EXPECT_TRUE(storage.contiguous());
    EXPECT_EQ(storage.size(), 4u);

    // remove and clear also work with holes
    EXPECT_TRUE(storage.remove(make(6)));
    EXPECT_FALSE(storage.remove(make(6)));
    storage.clear();
    EXPECT_TRUE(storage.empty());
    EXPECT_TRUE(storage.contiguous());
    storage.emplace(make(7), 7);
    EXPECT_EQ(storage.index(make(7)), 0u);
}

TEST(storage, in_place_insert_appends) {
    tessera::storage<stable> storage;
    storage.emplace(make(1), 1);
    storage.emplace(make(2), 2);
    storage.erase(make(1));

    const std::array entities{make(5), make(6)};
    storage.insert(entities.begin(), entities.end(), stable{9});
    EXPECT_EQ(storage.size(), 4u);
    EXPECT_EQ(storage.index(make(5)), 2u);
    EXPECT_FALSE(storage.contiguous());
}

TEST(storage, compact_restores_contiguity) {
    tessera::storage<stable> storage;
    for (unsigned idx = 0u; idx < 6u; ++idx) {
        storage.emplace(make(idx), static_cast<int>(idx) * 10);
    }
    storage.erase(make(1));
    storage.erase(make(3));
    storage.erase(make(5));
    EXPECT_EQ(storage.size(), 6u);

    storage.compact();
    EXPECT_TRUE(storage.contiguous());
    EXPECT_EQ(storage.size(), 3u);
    for (const unsigned idx : {0u, 2u, 4u}) {
        ASSERT_TRUE(storage.contains(make(idx)));
        EXPECT_LT(storage.index(make(idx)), 3u);
        EXPECT_EQ(storage.get(make(idx)).value, static_cast<int>(idx) * 10);
        const auto pos = storage.index(make(idx));
        EXPECT_EQ(&storage.raw()[0][pos], &storage.get(make(idx)));
    }
    // no hole left: the next emplace appends
    storage.emplace(make(9), 90);
    EXPECT_EQ(storage.index(make(9)), 3u);
}

namespace {

/// Stable, with an initializer-list constructor that would swallow a braced move.
struct any_list {
    static constexpr bool in_place_delete = true;
    any_list(std::initializer_list<std::any> init) : items(init) {}
    std::vector<std::any> items;
};

} // namespace

TEST(storage, compact_moves_elements_with_their_own_constructor) {
    tessera::storage<any_list> storage;
    storage.emplace(make(0), any_list{1});
    storage.emplace(make(1), any_list{2, 3});
    storage.emplace(make(2), any_list{4, 5, 6});
    storage.erase(make(0));

    storage.compact();
    EXPECT_EQ(storage.index(make(2)), 0u);
    ASSERT_EQ(storage.get(make(2)).items.size(), 3u);
    EXPECT_EQ(std::any_cast<int>(storage.get(make(2)).items[2]), 6);
    EXPECT_EQ(storage.get(make(1)).items.size(), 2u);
}

TEST(storage, pinned_type_is_stable) {
    static_assert(tessera::storage<pinned>::storage_policy == tessera::deletion_policy::in_place);
    tessera::storage<pinned> storage;
    const auto *a = &storage.emplace(make(1), 1);
    const auto *b = &storage.emplace(make(2), 2);
    const auto *c = &storage.emplace(make(3), 3);

    storage.erase(make(2));
    EXPECT_EQ(storage.size(), 3u);
    EXPECT_FALSE(storage.contiguous());
    EXPECT_EQ(&storage.get(make(1)), a);
    EXPECT_EQ(&storage.get(make(3)), c);

    std::vector<int> seen;
    for (auto [entt, elem] : storage.each()) {
        seen.push_back(elem.value);
    }
    EXPECT_EQ(seen, (std::vector{3, 1}));

    EXPECT_EQ(&storage.emplace(make(4), 4), b);
    EXPECT_TRUE(storage.contiguous());

    // a trailing hole needs no move
    storage.erase(make(3));
    storage.compact();
    EXPECT_TRUE(storage.contiguous());
    EXPECT_EQ(storage.size(), 2u);
    EXPECT_EQ(&storage.get(make(1)), a);
    EXPECT_EQ(&storage.get(make(4)), b);

    // pinned elements cannot be exchanged
    EXPECT_MISUSE(storage.swap_elements(make(1), make(4)), "pinned");
    EXPECT_EQ(storage.index(make(1)), 0u);
    EXPECT_EQ(storage.get(make(1)).value, 1);
    EXPECT_MISUSE(storage.sort(std::less{}), "pinned");
}

TEST(storage, sort_moves_elements_with_entities) {
    tessera::storage<position> storage;
    const std::array xs{5, 1, 4, 2, 3};
    for (unsigned idx = 0u; idx < xs.size(); ++idx) {
        storage.emplace(make(idx), xs[idx], static_cast<int>(idx));
    }

    storage.sort([&storage](auto lhs, auto rhs) { return storage.get(lhs).x < storage.get(rhs).x; });
    EXPECT_TRUE(std::is_sorted(storage.begin(), storage.end(),
                               [](const position &lhs, const position &rhs) { return lhs.x < rhs.x; }));
    for (unsigned idx = 0u; idx < xs.size(); ++idx) {
        EXPECT_EQ(storage.get(make(idx)).x, xs[idx]);
        EXPECT_EQ(storage.get(make(idx)).y, static_cast<int>(idx));
    }

    // by entity
    storage.sort(std::less{});
    const tessera::sparse_set &base = storage;
    EXPECT_TRUE(std::is_sorted(base.begin(), base.end()));
    for (unsigned idx = 0u; idx < xs.size(); ++idx) {
        EXPECT_EQ(storage.get(make(idx)).x, xs[idx]);
    }

    // sort misuse with holes
    tessera::storage<stable> holes;
    holes.emplace(make(1), 1);
    holes.emplace(make(2), 2);
    holes.erase(make(1));
    EXPECT_MISUSE(holes.sort(std::less{}), "compact");
}

TEST(storage, sort_as_moves_elements_with_entities) {
    tessera::storage<std::string> storage;
    for (unsigned idx = 0u; idx < 5u; ++idx) {
        storage.emplace(make(idx), std::string(20u, static_cast<char>('a' + idx)));
    }

    const std::array order{make(3), make(9), make(0), make(4)};
    const auto it = storage.sort_as(order.begin(), order.end());
    const tessera::sparse_set &base = storage;
    EXPECT_EQ(it - base.begin(), 3);
    EXPECT_EQ(base.begin()[0], make(3));
    EXPECT_EQ(base.begin()[1], make(0));
    EXPECT_EQ(base.begin()[2], make(4));
    EXPECT_EQ(storage.begin()[0], std::string(20u, 'd'));
    EXPECT_EQ(storage.begin()[1], std::string(20u, 'a'));
    for (unsigned idx = 0u; idx < 5u; ++idx) {
        EXPECT_EQ(storage.get(make(idx)), std::string(20u, static_cast<char>('a' + idx)));
    }
}

TEST(storage, swap_elements_moves_elements) {
    tessera::storage<position> storage;
    storage.emplace(make(1), 1, 1);
    storage.emplace(make(2), 2, 2);
    storage.emplace(make(3), 3, 3);

    storage.swap_elements(make(1), make(3));
    EXPECT_EQ(storage.index(make(1)), 2u);
    EXPECT_EQ(storage.index(make(3)), 0u);
    EXPECT_EQ(storage.get(make(1)).x, 1);
    EXPECT_EQ(storage.get(make(3)).x, 3);
    EXPECT_EQ(storage.raw()[0][0].x, 3);
    EXPECT_MISUSE(storage.swap_elements(make(1), make(7)), "not in the set");

    // in-place storage without holes swaps as well
    tessera::storage<stable> stables;
    stables.emplace(make(1), 1);
    stables.emplace(make(2), 2);
    stables.swap_elements(make(1), make(2));
    EXPECT_EQ(stables.index(make(1)), 1u);
    EXPECT_EQ(stables.get(make(1)).value, 1);
    EXPECT_EQ(stables.get(make(2)).value, 2);
}

TEST(storage, opaque_push_and_value) {
    tessera::storage<position> storage;
    tessera::sparse_set &base = storage;
    const position value{4, 5};

    const auto it = base.push(make(1), &value);
    EXPECT_NE(it, base.end());
    EXPECT_EQ(*it, make(1));
    EXPECT_EQ(storage.get(make(1)).y, 5);
    EXPECT_NE(&storage.get(make(1)), &value);

    EXPECT_NE(base.push(make(2)), base.end());
    EXPECT_EQ(storage.get(make(2)).x, 0);

    EXPECT_EQ(base.value(make(1)), &storage.get(make(1)));
    EXPECT_EQ(std::as_const(base).value(make(2)), &storage.get(make(2)));
    EXPECT_MISUSE(static_cast<void>(base.value(make(3))), "not in the set");

    // a range push default-constructs and returns the last one added
    const std::array entities{make(7), make(8)};
    const auto last = base.push(entities.begin(), entities.end());
    EXPECT_EQ(*last, make(8));
    EXPECT_EQ(storage.get(make(7)).x, 0);
    EXPECT_EQ(base.push(entities.end(), entities.end()), base.end());

    // copying elements between storages through the base class only
    tessera::storage<position> other;
    tessera::sparse_set &other_base = other;
    other_base.push(make(1), base.value(make(1)));
    EXPECT_EQ(other.get(make(1)).x, 4);
}

TEST(storage, opaque_push_of_a_range) {
    tessera::storage<position> storage;
    tessera::sparse_set &base = storage;
    const position value{4, 5};
    const std::array entities{make(1), make(2), make(3)};

    // one copy each, in one call; the iterator designates the last one added
    const auto it = base.push(entities.data(), entities.data() + entities.size(), &value);
    ASSERT_NE(it, base.end());
    EXPECT_EQ(*it, make(3));
    for (const auto entt : entities) {
        EXPECT_EQ(storage.get(entt).y, 5);
        EXPECT_NE(&storage.get(entt), &value);
    }

    // a null element builds them by default; an empty range adds nothing
    const std::array more{make(4)};
    EXPECT_NE(base.push(more.data(), more.data() + 1, nullptr), base.end());
    EXPECT_EQ(storage.get(make(4)).x, 0);
    EXPECT_EQ(base.push(more.data(), more.data(), &value), base.end());

    // the new ones join the enabled ones, ahead of a disabled tail
    storage.disable(make(1));
    const std::array late{make(5), make(6)};
    const auto last = base.push(late.data(), late.data() + late.size(), &value);
    EXPECT_EQ(*last, make(6));
    EXPECT_EQ(storage.in_use(), 5u);
    EXPECT_TRUE(storage.enabled(make(5)));
    EXPECT_FALSE(storage.enabled(make(1)));

    // a type that cannot be copied adds nothing
    tessera::storage<move_only> move_onlies;
    tessera::sparse_set &other = move_onlies;
    const move_only source{std::make_unique<int>(1)};
    EXPECT_EQ(other.push(entities.data(), entities.data() + 2, &source), other.end());
    EXPECT_TRUE(other.empty());

    // empty types take a null element
    tessera::storage<empty_tag> tags;
    tessera::sparse_set &tag_base = tags;
    EXPECT_NE(tag_base.push(entities.data(), entities.data() + 2, nullptr), tag_base.end());
    EXPECT_TRUE(tags.contains(make(2)));
}

TEST(storage, opaque_copies_follow_the_clone_policy) {
    tessera::storage<cloned_by_function> storage;
    tessera::sparse_set &base = storage;
    const cloned_by_function value{1};
    const std::array entities{make(1), make(2)};
    EXPECT_NE(base.push(make(7), &value), base.end());
    EXPECT_EQ(storage.get(make(7)).value, 11);
    EXPECT_NE(base.push(entities.data(), entities.data() + 2, &value), base.end());
    EXPECT_EQ(storage.get(make(1)).value, 11);
    EXPECT_EQ(storage.get(make(2)).value, 11);
}

TEST(storage, opaque_push_refuses_what_it_cannot_build) {
    tessera::storage<no_default> no_defaults;
    tessera::sparse_set &base = no_defaults;
    EXPECT_EQ(base.push(make(1)), base.end());
    EXPECT_FALSE(base.contains(make(1)));
    EXPECT_TRUE(base.empty());
    const no_default value{3};
    EXPECT_NE(base.push(make(1), &value), base.end());
    EXPECT_EQ(no_defaults.get(make(1)).value, 3);

    tessera::storage<move_only> move_onlies;
    tessera::sparse_set &other = move_onlies;
    const move_only source{std::make_unique<int>(1)};
    EXPECT_EQ(other.push(make(1), &source), other.end());
    EXPECT_FALSE(other.contains(make(1)));
    EXPECT_NE(other.push(make(1)), other.end());
    EXPECT_EQ(move_onlies.get(make(1)).ptr, nullptr);
    move_onlies.emplace(make(2), std::make_unique<int>(2));
    EXPECT_EQ(*move_onlies.get(make(2)).ptr, 2);
}

TEST(storage, reserve_capacity_shrink_to_fit) {
    tessera::storage<position> storage;
    EXPECT_EQ(storage.capacity(), 0u);
    storage.reserve(0u);
    EXPECT_EQ(storage.capacity(), 0u);
    storage.reserve(1u);
    EXPECT_EQ(storage.capacity(), page);
    storage.reserve(page + 1u);
    EXPECT_EQ(storage.capacity(), 2u * page);
    EXPECT_TRUE(storage.empty());

    storage.emplace(make(1), 1, 1);
    const auto *elem = &storage.get(make(1));
    storage.shrink_to_fit();
    EXPECT_EQ(storage.capacity(), page);
    EXPECT_EQ(&storage.get(make(1)), elem);
    EXPECT_EQ(storage.get(make(1)).x, 1);

    storage.clear();
    storage.shrink_to_fit();
    EXPECT_EQ(storage.capacity(), 0u);
    EXPECT_EQ(storage.extent(), 0u);
}

TEST(storage, move_and_swap) {
    tessera::storage<std::string> storage;
    storage.emplace(make(1), "one");
    storage.emplace(make(2), std::string(30u, 'x'));
    const auto *elem = &storage.get(make(2));

    tessera::storage<std::string> moved{std::move(storage)};
    EXPECT_TRUE(storage.empty()); // NOLINT(bugprone-use-after-move)
    EXPECT_EQ(storage.capacity(), 0u);
    EXPECT_EQ(moved.size(), 2u);
    EXPECT_EQ(&moved.get(make(2)), elem);
    EXPECT_EQ(moved.get(make(1)), "one");
    EXPECT_EQ(moved.info(), tessera::type_id<std::string>());

    tessera::storage<std::string> assigned;
    assigned.emplace(make(7), std::string(30u, 'y'));
    assigned = std::move(moved);
    EXPECT_TRUE(moved.empty()); // NOLINT(bugprone-use-after-move)
    EXPECT_FALSE(assigned.contains(make(7)));
    EXPECT_EQ(assigned.get(make(2)), std::string(30u, 'x'));

    tessera::storage<std::string> other;
    other.emplace(make(9), "nine");
    assigned.swap(other);
    EXPECT_EQ(assigned.size(), 1u);
    EXPECT_EQ(assigned.get(make(9)), "nine");
    EXPECT_EQ(other.get(make(1)), "one");
    EXPECT_EQ(&other.get(make(2)), elem);

    // the moved-from storages are usable again
    storage.emplace(make(3), "three");
    moved.emplace(make(4), "four");
    EXPECT_EQ(storage.get(make(3)), "three");
    EXPECT_EQ(moved.get(make(4)), "four");

    tessera::storage<std::string> extended{std::move(other), other.get_allocator()};
    EXPECT_EQ(extended.get(make(1)), "one");
}

// ---------------------------------------------------------------------------------------------------------------
// Exception safety: constructors and allocations that fail leave the storage as it was.

namespace {

/// A type whose constructions (default, from int, copy) throw once `budget` reaches 0.
struct fragile {
    static inline int budget = -1;
    static inline int alive = 0;

    static void spend() {
        if (budget == 0) {
            throw std::runtime_error{"fragile"};
        }
        if (budget > 0) {
            --budget;
        }
    }

    fragile() : fragile{0} {}
    fragile(const int val) : value{val}, text(32u, 'f') { spend(), ++alive; }
    fragile(const fragile &other) : value{other.value}, text{other.text} { spend(), ++alive; }
    fragile(fragile &&other) noexcept : value{other.value}, text{std::move(other.text)} { ++alive; }
    fragile &operator=(const fragile &) = default;
    fragile &operator=(fragile &&) noexcept = default;
    ~fragile() { --alive; }

    int value;
    std::string text;
};

struct fragile_stable : fragile {
    static constexpr bool in_place_delete = true;
    using fragile::fragile;
};

/// Everything observable about a storage: the packed identifiers (holes included), the free list, the elements.
template<typename Storage>
auto state_of(const Storage &storage) {
    const typename Storage::base_type &base = storage;
    std::vector<tessera::entity> entities(base.begin(), base.end());
    std::vector<std::pair<tessera::entity, int>> elements;
    for (auto [entt, elem] : storage.each()) {
        elements.emplace_back(entt, elem.value);
    }
    return std::make_tuple(entities, elements, storage.free_list());
}

template<typename Type>
struct storage_strong_guarantee : ::testing::Test {
    void SetUp() override { fragile::budget = -1; }
    void TearDown() override {
        fragile::budget = -1;
        EXPECT_EQ(fragile::alive, 0);
    }
};

using fragile_types = ::testing::Types<fragile, fragile_stable>;
TYPED_TEST_SUITE(storage_strong_guarantee, fragile_types);

} // namespace

TYPED_TEST(storage_strong_guarantee, emplace) {
    tessera::storage<TypeParam> storage;
    for (unsigned idx = 0u; idx < 4u; ++idx) {
        storage.emplace(make(idx), static_cast<int>(idx));
    }

    for (int round = 0; round < 2; ++round) {
        const auto before = state_of(storage);
        fragile::budget = 0;
        EXPECT_THROW(storage.emplace(make(10), 10), std::runtime_error);
        fragile::budget = -1;
        EXPECT_FALSE(storage.contains(make(10)));
        EXPECT_EQ(storage.size(), std::get<0>(before).size());
        EXPECT_EQ(state_of(storage), before);
        // second round: with a hole, for in-place storages
        if (round == 0) {
            storage.erase(make(1));
        }
    }

    storage.emplace(make(10), 10);
    EXPECT_EQ(storage.get(make(10)).value, 10);
}

TYPED_TEST(storage_strong_guarantee, insert) {
    tessera::storage<TypeParam> storage;
    for (unsigned idx = 0u; idx < 4u; ++idx) {
        storage.emplace(make(idx), static_cast<int>(idx));
    }
    storage.erase(make(2));

    const std::array entities{make(20), make(21), make(22), make(23)};
    const std::vector<TypeParam> values{TypeParam{1}, TypeParam{2}, TypeParam{3}, TypeParam{4}};
    const TypeParam seven{7};
    const auto before = state_of(storage);

    for (int budget = 0; budget < 4; ++budget) {
        fragile::budget = budget;
        EXPECT_THROW(storage.insert(entities.begin(), entities.end(), seven), std::runtime_error);
        fragile::budget = -1;
        EXPECT_EQ(state_of(storage), before) << "failing copy " << budget;
        EXPECT_FALSE(storage.contains(make(20)));

        fragile::budget = budget;
        EXPECT_THROW(storage.insert(entities.begin(), entities.end(), values.begin()), std::runtime_error);
        fragile::budget = -1;
        EXPECT_EQ(state_of(storage), before) << "failing copy " << budget;
    }

    // a misuse in the middle of the range rolls back too
    const std::array again{make(30), make(31), make(0), make(32)};
    EXPECT_MISUSE(storage.insert(again.begin(), again.end(), seven), "already in the set");
    EXPECT_EQ(state_of(storage), before);

    storage.insert(entities.begin(), entities.end(), values.begin());
    EXPECT_EQ(storage.get(make(23)).value, 4);
}

TYPED_TEST(storage_strong_guarantee, push) {
    tessera::storage<TypeParam> storage;
    for (unsigned idx = 0u; idx < 3u; ++idx) {
        storage.emplace(make(idx), static_cast<int>(idx));
    }
    tessera::sparse_set &base = storage;
    const TypeParam value{5};

    for (int round = 0; round < 2; ++round) {
        const auto before = state_of(storage);
        fragile::budget = 0;
        EXPECT_THROW(base.push(make(8), &value), std::runtime_error);
        EXPECT_THROW(base.push(make(8)), std::runtime_error);
        fragile::budget = -1;
        EXPECT_EQ(state_of(storage), before);
        EXPECT_FALSE(base.contains(make(8)));
        if (round == 0) {
            storage.erase(make(0));
        }
    }

    EXPECT_NE(base.push(make(8), &value), base.end());
    EXPECT_EQ(storage.get(make(8)).value, 5);
}

namespace {

/// Counts every allocation of the allocators below; `fail_after` allocations succeed, then one throws.
struct allocation_stats {
    static inline std::size_t allocations = 0u;
    static inline std::size_t deallocations = 0u;
    static inline std::size_t live_bytes = 0u;
    static inline int fail_after = -1;
};

template<typename Type>
struct counting_allocator {
    using value_type = Type;

    counting_allocator() = default;

    template<typename Other>
    counting_allocator(const counting_allocator<Other> &) noexcept {}

    Type *allocate(const std::size_t count) {
        if (allocation_stats::fail_after == 0) {
            throw std::bad_alloc{};
        }
        if (allocation_stats::fail_after > 0) {
            --allocation_stats::fail_after;
        }
        ++allocation_stats::allocations;
        allocation_stats::live_bytes += count * sizeof(Type);
        return std::allocator<Type>{}.allocate(count);
    }

    void deallocate(Type *ptr, const std::size_t count) noexcept {
        ++allocation_stats::deallocations;
        allocation_stats::live_bytes -= count * sizeof(Type);
        std::allocator<Type>{}.deallocate(ptr, count);
    }

    friend bool operator==(const counting_allocator &, const counting_allocator &) noexcept { return true; }
};

struct stable_text {
    static constexpr bool in_place_delete = true;
    std::string value;
};

std::string text_for(const unsigned idx) { return std::string(24u, 't') + std::to_string(idx); }

template<typename Type>
struct storage_allocation : ::testing::Test {
    using storage_type = tessera::basic_storage<Type, tessera::entity, counting_allocator<Type>>;

    void SetUp() override {
        allocation_stats::fail_after = -1;
        allocation_stats::allocations = allocation_stats::deallocations = allocation_stats::live_bytes = 0u;
    }

    void TearDown() override {
        allocation_stats::fail_after = -1;
        EXPECT_EQ(allocation_stats::live_bytes, 0u);
        EXPECT_EQ(allocation_stats::allocations, allocation_stats::deallocations);
    }

    static const std::string &text(const Type &elem) {
        if constexpr (std::is_same_v<Type, std::string>) {
            return elem;
        } else {
            return elem.value;
        }
    }

    /// A full element page, a full packed vector: the next addition needs every kind of allocation.
    static void fill(storage_type &storage) {
        for (unsigned idx = 0u; idx < page; ++idx) {
            storage.emplace(make(idx), text_for(idx));
        }
    }

    static auto state(const storage_type &storage) {
        const typename storage_type::base_type &base = storage;
        std::vector<tessera::entity> entities(base.begin(), base.end());
        std::vector<std::string> elements;
        for (auto [entt, elem] : storage.each()) {
            elements.push_back(text(elem));
        }
        return std::make_pair(entities, elements);
    }

    /// Runs `operation` on a filled storage, making the first, second, ... allocation fail until it succeeds.
    template<typename Operation, typename Check>
    static void fail_each_allocation(Operation operation, Check check) {
        for (int fail = 0;; ++fail) {
            bool thrown = false;
            {
                storage_type storage;
                fill(storage);
                const auto before = state(storage);
                allocation_stats::fail_after = fail;
                try {
                    operation(storage);
                } catch (const std::bad_alloc &) {
                    thrown = true;
                }
                allocation_stats::fail_after = -1;

                if (thrown) {
                    EXPECT_EQ(state(storage), before) << "failing allocation " << fail;
                } else {
                    EXPECT_GT(fail, 0);
                    check(storage);
                }
            }
            EXPECT_EQ(allocation_stats::live_bytes, 0u) << "failing allocation " << fail;
            if (!thrown) {
                break;
            }
        }
    }
};

using allocation_types = ::testing::Types<std::string, stable_text>;
TYPED_TEST_SUITE(storage_allocation, allocation_types);

/// An identifier that fill() did not add, whatever TESSERA_PACKED_PAGE is.
tessera::entity unfilled(const unsigned offset) { return make(static_cast<unsigned>(page) + offset); }

} // namespace

TYPED_TEST(storage_allocation, every_allocation_is_seen_and_freed) {
    using storage_type = typename TestFixture::storage_type;
    {
        storage_type storage;
        TestFixture::fill(storage);
        EXPECT_GT(allocation_stats::live_bytes, page * sizeof(TypeParam));
        for (unsigned idx = 0u; idx < page; idx += 3u) {
            storage.erase(make(idx));
        }
        storage.compact();
        storage.shrink_to_fit();
        storage_type moved{std::move(storage)};
        storage_type other;
        other.emplace(make(5000), text_for(1u));
        other = std::move(moved);
        other.emplace(make(9000), text_for(2u));
        other.clear();
        other.shrink_to_fit();
        EXPECT_EQ(other.capacity(), 0u);
        EXPECT_EQ(allocation_stats::live_bytes, 0u);
        other.emplace(make(1), text_for(3u));
    }
    EXPECT_GT(allocation_stats::allocations, 4u);
}

TYPED_TEST(storage_allocation, emplace_survives_failing_allocations) {
    TestFixture::fail_each_allocation([](auto &storage) { storage.emplace(unfilled(5000u), text_for(5000u)); },
                                      [](auto &storage) {
                                          EXPECT_EQ(TestFixture::text(storage.get(unfilled(5000u))), text_for(5000u));
                                          EXPECT_EQ(storage.size(), page + 1u);
                                      });
}

TYPED_TEST(storage_allocation, insert_survives_failing_allocations) {
    const std::array entities{unfilled(6000u), unfilled(6001u), unfilled(9000u)};
    TestFixture::fail_each_allocation(
        [&](auto &storage) { storage.insert(entities.begin(), entities.end(), TypeParam{text_for(1u)}); },
        [&](auto &storage) {
            EXPECT_EQ(TestFixture::text(storage.get(unfilled(9000u))), text_for(1u));
            EXPECT_EQ(storage.size(), page + 3u);
        });
}

TYPED_TEST(storage_allocation, push_survives_failing_allocations) {
    const TypeParam value{text_for(7u)};
    TestFixture::fail_each_allocation(
        [&](auto &storage) {
            typename TestFixture::storage_type::base_type &typed_base = storage;
            typed_base.push(unfilled(7000u), &value);
        },
        [](auto &storage) { EXPECT_EQ(TestFixture::text(storage.get(unfilled(7000u))), text_for(7u)); });
}

TEST(storage, pages_come_in_contiguous_blocks) {
    // blocks of 1, 1, 2, 4... pages up to TESSERA_PAGE_BLOCK, one allocation each
    const auto block_length = [](const std::size_t first_page) -> std::size_t {
        return first_page == 0u ? 1u : std::min<std::size_t>(first_page, TESSERA_PAGE_BLOCK);
    };

    tessera::storage<position> storage;
    const std::size_t pages = 2u * TESSERA_PAGE_BLOCK + 3u;

    for (std::size_t idx{}; idx < pages * page; ++idx) {
        storage.emplace(make(static_cast<std::uint32_t>(idx)), static_cast<int>(idx), 0);
    }

    std::size_t allocated{};

    for (std::size_t first{}; first < pages; first += block_length(first)) {
        allocated = first + block_length(first);

        for (std::size_t next = first + 1u; next < first + block_length(first); ++next) {
            EXPECT_EQ(storage.raw()[next], storage.raw()[next - 1u] + page) << "page " << next;
        }
    }

    EXPECT_EQ(storage.capacity(), allocated * page);

    for (std::size_t idx{}; idx < pages * page; ++idx) {
        EXPECT_EQ(storage.get(make(static_cast<std::uint32_t>(idx))).x, static_cast<int>(idx));
    }

    // shrinking keeps the blocks that hold elements, whole
    while (storage.size() > page + 1u) {
        storage.erase(storage.data()[storage.size() - 1u]);
    }

    storage.shrink_to_fit();
    EXPECT_EQ(storage.capacity(), 2u * page);
    EXPECT_EQ(storage.get(make(page)).x, static_cast<int>(page));
}

TYPED_TEST(storage_allocation, reserve_over_several_page_blocks_survives_failing_allocations) {
    // pages 1, 2-3 and 4-7 come in three blocks: a failure between them keeps the blocks already allocated
    TestFixture::fail_each_allocation([](auto &storage) { storage.reserve(8u * page); },
                                      [](auto &storage) {
                                          EXPECT_GE(storage.capacity(), 8u * page);
                                          EXPECT_EQ(storage.size(), page);
                                          storage.emplace(unfilled(8000u), text_for(8u));
                                      });
}

TEST(storage, pages_and_page_table_capacity) {
    tessera::storage<position> storage;
    EXPECT_EQ(storage.pages(), 0u);
    EXPECT_EQ(storage.page_table_capacity(), 0u);

    storage.emplace(make(0u), 0, 0);
    EXPECT_EQ(storage.pages(), 1u);
    EXPECT_EQ(storage.capacity(), page);
    EXPECT_GE(storage.page_table_capacity(), storage.pages());

    storage.reserve(3u * page + 1u);
    EXPECT_EQ(storage.pages(), 4u);
    EXPECT_EQ(storage.capacity(), storage.pages() * page);

    storage.shrink_to_fit();
    EXPECT_EQ(storage.pages(), 1u);
    EXPECT_EQ(storage.page_table_capacity(), 1u);

    storage.clear();
    storage.shrink_to_fit();
    EXPECT_EQ(storage.pages(), 0u);
    EXPECT_EQ(storage.page_table_capacity(), 0u);
}

// ---------------------------------------------------------------------------------------------------------------
// Removal destroys the erased element itself; ranges of another set are looked up by identifier.

namespace {

/// An element that knows whose value it holds (-1 once moved from), and records each value destroyed.
struct witness {
    static inline std::vector<int> destroyed{};
    static inline int alive = 0;

    witness(const int val) : value{val} { ++alive; }
    witness(witness &&other) noexcept : value{std::exchange(other.value, -1)} { ++alive; }
    witness &operator=(witness &&other) noexcept {
        // a value overwritten here is lost without its destructor: what erase must not do
        value = std::exchange(other.value, -1);
        return *this;
    }
    ~witness() {
        --alive;
        if (value != -1) {
            destroyed.push_back(value);
        }
    }

    int value;
};

/// The same, deleted in place.
struct stable_witness : witness {
    static constexpr bool in_place_delete = true;
    using witness::witness;
};

/// The same with a move constructor that may throw (and does while `fail` is set): erase exchanges the erased
/// element with the last one before removing anything.
struct throwing_witness : witness {
    static inline bool fail = false;

    using witness::witness;
    throwing_witness(throwing_witness &&other) noexcept(false) : witness{check(std::move(other))} {}
    throwing_witness &operator=(throwing_witness &&other) noexcept = default;
    ~throwing_witness() = default;

    static witness &&check(throwing_witness &&other) {
        if (fail) {
            throw std::runtime_error{"throwing_witness"};
        }
        return std::move(other);
    }
};

template<typename Type>
struct storage_erase : ::testing::Test {
    void SetUp() override {
        witness::destroyed.clear();
        throwing_witness::fail = false;
    }
    void TearDown() override {
        throwing_witness::fail = false;
        EXPECT_EQ(witness::alive, 0);
    }

    /// Entities 0..count-1, each holding ten times its index.
    static void fill(tessera::storage<Type> &storage, const unsigned count) {
        for (unsigned idx = 0u; idx < count; ++idx) {
            storage.emplace(make(idx), static_cast<int>(idx * 10u));
        }
    }

    /// Every entity still there holds its own value.
    static void expect_values(const tessera::storage<Type> &storage, const unsigned count) {
        for (unsigned idx = 0u; idx < count; ++idx) {
            if (storage.contains(make(idx))) {
                EXPECT_EQ(storage.get(make(idx)).value, static_cast<int>(idx * 10u)) << "entity " << idx;
            }
        }
    }
};

using witness_types = ::testing::Types<witness, stable_witness, throwing_witness>;
TYPED_TEST_SUITE(storage_erase, witness_types);

} // namespace

TYPED_TEST(storage_erase, erase_destroys_exactly_the_erased_value) {
    {
        tessera::storage<TypeParam> storage;
        TestFixture::fill(storage, 5u);

        // in the middle: the last element fills the slot (or a hole stays), the erased value is destroyed
        storage.erase(make(1));
        EXPECT_EQ(witness::destroyed, std::vector<int>{10});
        EXPECT_EQ(witness::alive, 4);
        // the last one: no element moves
        storage.erase(make(4));
        EXPECT_EQ(witness::destroyed, (std::vector<int>{10, 40}));
        EXPECT_EQ(witness::alive, 3);
        EXPECT_TRUE(storage.remove(make(0)));
        EXPECT_EQ(witness::destroyed, (std::vector<int>{10, 40, 0}));
        TestFixture::expect_values(storage, 5u);

        const std::array more{make(3), make(2)};
        storage.erase(more.begin(), more.end());
        EXPECT_EQ(witness::destroyed, (std::vector<int>{10, 40, 0, 30, 20}));
        EXPECT_EQ(witness::alive, 0);

        TestFixture::fill(storage, 3u);
        witness::destroyed.clear();
        storage.clear();
        std::sort(witness::destroyed.begin(), witness::destroyed.end());
        EXPECT_EQ(witness::destroyed, (std::vector<int>{0, 10, 20}));
    }
    EXPECT_EQ(witness::alive, 0);
}

TYPED_TEST(storage_erase, ranges_of_another_set_are_looked_up_by_identifier) {
    tessera::storage<TypeParam> storage;
    TestFixture::fill(storage, 6u);

    // positions 0 and 1 of `other` are positions of entities 0 and 1 in the storage: they must not be used
    tessera::sparse_set other{};
    other.push(make(5));
    other.push(make(2));
    storage.erase(other.begin(), other.end());
    EXPECT_FALSE(storage.contains(make(5)));
    EXPECT_FALSE(storage.contains(make(2)));
    for (const unsigned idx : {0u, 1u, 3u, 4u}) {
        EXPECT_TRUE(storage.contains(make(idx))) << idx;
    }
    TestFixture::expect_values(storage, 6u);
    std::sort(witness::destroyed.begin(), witness::destroyed.end());
    EXPECT_EQ(witness::destroyed, (std::vector<int>{20, 50}));

    // remove skips what the storage does not hold, and counts the rest
    other.push(make(4));
    other.push(make(9));
    other.push(make(0));
    witness::destroyed.clear();
    EXPECT_EQ(storage.remove(other.begin(), other.end()), 2u);
    EXPECT_EQ(storage.size(), storage.contiguous() ? 2u : 6u);
    TestFixture::expect_values(storage, 6u);
    std::sort(witness::destroyed.begin(), witness::destroyed.end());
    EXPECT_EQ(witness::destroyed, (std::vector<int>{0, 40}));
    EXPECT_EQ(witness::alive, 2);

    // another storage's iterators too, in another order
    tessera::storage<TypeParam> second;
    second.emplace(make(3), 0);
    second.emplace(make(1), 0);
    const tessera::sparse_set &second_base = second;
    witness::destroyed.clear();
    storage.erase(second_base.begin(), second_base.end());
    std::sort(witness::destroyed.begin(), witness::destroyed.end());
    EXPECT_EQ(witness::destroyed, (std::vector<int>{10, 30}));
    EXPECT_EQ(witness::alive, 2); // the two of `second`
}

namespace {

/// A storage that counts the calls of its removal hooks.
struct counting_storage : tessera::storage<int> {
    int pops{};
    int listed{};

protected:
    void pop(basic_iterator first, basic_iterator last) override {
        ++pops;
        tessera::storage<int>::pop(first, last);
    }

    std::size_t pop_listed(basic_iterator first, basic_iterator last, const bool skip_absent) override {
        ++listed;
        return tessera::storage<int>::pop_listed(first, last, skip_absent);
    }
};

} // namespace

// Another set's range costs one call of the storage, whatever its length: the loop runs inside.
TEST(storage_erase, another_sets_range_is_one_call) {
    counting_storage storage;
    tessera::sparse_set other{};

    for (unsigned idx{}; idx < 8u; ++idx) {
        storage.emplace(make(idx), static_cast<int>(idx));
        if (idx % 2u == 0u) {
            other.push(make(idx));
        }
    }

    storage.erase(other.begin(), other.end());
    EXPECT_EQ(storage.listed, 1);
    EXPECT_EQ(storage.pops, 0);
    EXPECT_EQ(storage.size(), 4u);

    other.push(make(1));
    other.push(make(9));
    EXPECT_EQ(storage.remove(other.begin(), other.end()), 1u);
    EXPECT_EQ(storage.listed, 2);
    EXPECT_EQ(storage.pops, 0);

    for (const unsigned idx : {3u, 5u, 7u}) {
        EXPECT_EQ(storage.get(make(idx)), static_cast<int>(idx));
    }

    // an identifier missing from the storage is a misuse for erase, skipped by remove
    EXPECT_MISUSE(storage.erase(other.begin(), other.end()), "erasing an identifier that is not in the set");
}

TEST(storage_erase_throwing_move, a_failing_exchange_removes_nothing) {
    witness::destroyed.clear();
    {
        tessera::storage<throwing_witness> storage;
        for (unsigned idx = 0u; idx < 3u; ++idx) {
            storage.emplace(make(idx), static_cast<int>(idx * 10u));
        }

        throwing_witness::fail = true;
        EXPECT_THROW(storage.erase(make(0)), std::runtime_error);
        throwing_witness::fail = false;
        EXPECT_EQ(storage.size(), 3u);
        for (unsigned idx = 0u; idx < 3u; ++idx) {
            ASSERT_TRUE(storage.contains(make(idx)));
            EXPECT_EQ(storage.get(make(idx)).value, static_cast<int>(idx * 10u));
            EXPECT_EQ(storage.index(make(idx)), idx);
        }
        EXPECT_TRUE(witness::destroyed.empty());

        // the last element needs no exchange
        throwing_witness::fail = true;
        storage.erase(make(2));
        throwing_witness::fail = false;
        EXPECT_EQ(witness::destroyed, std::vector<int>{20});
    }
    EXPECT_EQ(witness::alive, 0);
}

namespace {

/// A component whose destructor calls back into its own pool: it removes its own entity (as code written for a
/// container of handles would) and reads the value of another entity of the pool.
struct self_removing {
    static inline tessera::storage<self_removing> *pool = nullptr;
    static inline int depth = 0;
    static inline int deepest = 0;
    static inline std::vector<int> partner_values{};

    self_removing(const tessera::entity self, const tessera::entity other, const int val)
        : owner{self}, partner{other}, value{val} {}
    self_removing(self_removing &&other) noexcept
        : owner{std::exchange(other.owner, tessera::null)}, partner{other.partner}, value{other.value} {}
    self_removing &operator=(self_removing &&other) noexcept {
        owner = std::exchange(other.owner, tessera::null);
        partner = other.partner;
        value = other.value;
        return *this;
    }

    ~self_removing() {
        if (owner != tessera::null && pool != nullptr) {
            deepest = std::max(deepest, ++depth);
            // the entity has left the pool already: removing it again does nothing
            EXPECT_FALSE(pool->contains(owner));
            EXPECT_FALSE(pool->remove(owner));
            if (pool->contains(partner)) {
                partner_values.push_back(pool->get(partner).value);
            }
            --depth;
        }
    }

    tessera::entity owner;
    tessera::entity partner;
    int value;
};

} // namespace

TEST(storage, an_element_destructor_may_call_back_into_its_pool) {
    self_removing::partner_values.clear();
    self_removing::deepest = 0;
    tessera::storage<self_removing> storage;
    self_removing::pool = &storage;

    // entity i holds 100 + i, and its partner is the last entity, whose element moves when another is erased
    for (unsigned idx = 0u; idx < 4u; ++idx) {
        storage.emplace(make(idx), make(idx), make(3), static_cast<int>(100u + idx));
    }

    storage.erase(make(1)); // the last element fills its slot afterwards
    EXPECT_EQ(self_removing::partner_values, std::vector<int>{103});
    EXPECT_EQ(storage.get(make(3)).value, 103);
    storage.erase(make(3)); // the last one itself
    EXPECT_FALSE(storage.contains(make(3)));
    EXPECT_EQ(storage.size(), 2u);
    EXPECT_EQ(storage.get(make(0)).value, 100);
    EXPECT_EQ(storage.get(make(2)).value, 102);
    EXPECT_TRUE(storage.remove(make(2)));

    storage.emplace(make(5), make(5), make(0), 105);
    storage.clear();
    EXPECT_TRUE(storage.empty());
    EXPECT_EQ(self_removing::deepest, 1);
    self_removing::pool = nullptr;
}

// ---------------------------------------------------------------------------------------------------------------
// Moves between allocators that cannot share memory: std::pmr::polymorphic_allocator over two resources.

namespace {

template<typename Type>
using pmr_storage = tessera::basic_storage<Type, tessera::entity, std::pmr::polymorphic_allocator<Type>>;

/// Deleted in place, and allocating through the storage's resource too (uses-allocator construction).
struct pmr_stable_text {
    static constexpr bool in_place_delete = true;
    using allocator_type = std::pmr::polymorphic_allocator<pmr_stable_text>;

    pmr_stable_text(std::string_view text, const allocator_type &allocator) : value{text, allocator} {}
    pmr_stable_text(const pmr_stable_text &other, const allocator_type &allocator) : value{other.value, allocator} {}
    pmr_stable_text(pmr_stable_text &&other, const allocator_type &allocator) noexcept(false)
        : value{std::move(other.value), allocator} {}
    pmr_stable_text(const pmr_stable_text &) = default;
    pmr_stable_text(pmr_stable_text &&) noexcept = default;
    pmr_stable_text &operator=(const pmr_stable_text &) = default;
    pmr_stable_text &operator=(pmr_stable_text &&) noexcept = default;
    ~pmr_stable_text() = default;

    std::pmr::string value;
};

template<typename Type>
struct storage_between_resources : ::testing::Test {
    using storage_type = pmr_storage<Type>;

    static const std::pmr::string &text(const Type &elem) {
        if constexpr (std::is_same_v<Type, std::pmr::string>) {
            return elem;
        } else {
            return elem.value;
        }
    }

    /// Long enough to be allocated: the characters come from the storage's resource.
    static std::string text_for(const unsigned idx) { return std::string(40u, 'p') + std::to_string(idx); }

    /// More than a page of elements, with a few erased (holes, for in-place types).
    static void fill(storage_type &storage) {
        for (unsigned idx = 0u; idx < page + 8u; ++idx) {
            storage.emplace(make(idx), text_for(idx));
        }
        for (unsigned idx = 0u; idx < page + 8u; idx += 7u) {
            storage.erase(make(idx));
        }
    }

    /// The packed identifiers (holes included) and, for each, its text.
    static auto state(const storage_type &storage) {
        const typename storage_type::base_type &base = storage;
        std::vector<tessera::entity> entities(base.begin(), base.end());
        std::vector<std::string> texts;
        for (auto [entt, elem] : storage.each()) {
            texts.emplace_back(text(elem));
        }
        return std::make_tuple(entities, texts, storage.free_list());
    }

    /// Every element (and the characters of its text) lives in memory of `resource`.
    static void expect_all_from(const storage_type &storage, std::pmr::memory_resource *resource) {
        EXPECT_EQ(storage.get_allocator().resource(), resource);
        for (auto [entt, elem] : storage.each()) {
            EXPECT_EQ(text(elem).get_allocator().resource(), resource);
        }
    }

    void SetUp() override {
        fill(source);
        target.emplace(make(outside), text_for(outside));
    }

    /// An identifier past those fill() adds, whatever TESSERA_PACKED_PAGE is.
    static constexpr auto outside = static_cast<unsigned>(page + 100u);

    // checked when the test ends, after the storages below and those of the test are gone
    tessera_test::resource_pair resources{};
    tessera_test::tracking_resource &first{resources.first};
    tessera_test::tracking_resource &second{resources.second};
    /// A filled storage on the first resource, and a target holding one element on the second.
    storage_type source{&first};
    storage_type target{&second};
};

using pmr_types = ::testing::Types<std::pmr::string, pmr_stable_text>;
TYPED_TEST_SUITE(storage_between_resources, pmr_types);

} // namespace

TYPED_TEST(storage_between_resources, allocator_extended_move_moves_every_element) {
    using storage_type = typename TestFixture::storage_type;
    auto [first, second, source] = std::tie(this->first, this->second, this->source);
    const auto before = TestFixture::state(source);
    const auto from_first = first.allocations();

    storage_type moved{std::move(source), &second};
    EXPECT_EQ(TestFixture::state(moved), before);
    TestFixture::expect_all_from(moved, &second);
    EXPECT_EQ(first.allocations(), from_first);
    EXPECT_TRUE(source.empty()); // NOLINT(bugprone-use-after-move)
    EXPECT_EQ(source.capacity(), 0u);
    // the source's elements and pages went back to the first resource: what is left is the empty arrays
    EXPECT_LE(first.live(), 3u);

    // the same resource: the pages change hands
    const auto from_second = second.allocations();
    storage_type stolen{std::move(moved), &second};
    EXPECT_EQ(second.allocations(), from_second);
    EXPECT_EQ(TestFixture::state(stolen), before);

    // both keep working
    source.emplace(make(1), TestFixture::text_for(1u));
    stolen.emplace(make(7), TestFixture::text_for(7u));
    TestFixture::expect_all_from(source, &first);
    TestFixture::expect_all_from(stolen, &second);
}

TYPED_TEST(storage_between_resources, move_assignment_moves_every_element) {
    auto [first, second, source, target] = std::tie(this->first, this->second, this->source, this->target);
    const auto before = TestFixture::state(source);

    target = std::move(source);
    EXPECT_EQ(TestFixture::state(target), before);
    EXPECT_FALSE(target.contains(make(TestFixture::outside)));
    TestFixture::expect_all_from(target, &second);
    EXPECT_TRUE(source.empty()); // NOLINT(bugprone-use-after-move)
    EXPECT_LE(first.live(), 3u);

    source.emplace(make(2), TestFixture::text_for(2u));
    target = std::move(source);
    EXPECT_EQ(target.size(), 1u);
    TestFixture::expect_all_from(target, &second);
}

TYPED_TEST(storage_between_resources, a_failed_move_leaves_both_storages_as_they_were) {
    using storage_type = typename TestFixture::storage_type;
    auto [second, source, target] = std::tie(this->second, this->source, this->target);
    const auto before = TestFixture::state(source);
    const auto target_before = TestFixture::state(target);

    // every allocation of the copy in turn: sparse pages, packed array, element pages, texts
    for (std::size_t budget{}; budget < 12u; ++budget) {
        second.fail_after = budget;
        EXPECT_THROW(target = std::move(source), std::bad_alloc) << budget;
        EXPECT_THROW(storage_type(std::move(source), &second), std::bad_alloc) << budget;
        second.fail_after = tessera_test::tracking_resource::never;
        EXPECT_EQ(TestFixture::state(source), before) << budget; // NOLINT(bugprone-use-after-move)
        EXPECT_EQ(TestFixture::state(target), target_before) << budget;
    }
}

TEST(storage, move_assignment_is_noexcept_only_when_it_cannot_allocate) {
    static_assert(std::is_nothrow_move_assignable_v<tessera::storage<std::string>>);
    static_assert(std::is_nothrow_move_constructible_v<tessera::storage<std::string>>);
    static_assert(!std::is_nothrow_move_assignable_v<pmr_storage<int>>);
    static_assert(std::is_nothrow_move_constructible_v<pmr_storage<int>>);
    SUCCEED();
}

} // namespace unit_entity_storage
} // namespace
