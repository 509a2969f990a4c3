// Tests for what ported code asks of the iterators of each(): a storage's each() iterator converts to its read-only
// form, and a view's each() iterator gives back the view iterator at the same entity through base().
#include <array>
#include <gtest/gtest.h>
#include <iterator>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/storage.hpp>
#include <tessera/entity/view.hpp>
#include <type_traits>
#include <utility>

namespace {
namespace unit_entity_iterator_conversions {

namespace {

struct pinned {
    static constexpr bool in_place_delete = true;
    int value;
};

template<typename Storage>
void check_each_converts(Storage &storage) {
    using iterable = decltype(storage.each());
    using const_iterable = decltype(std::as_const(storage).each());
    using reverse_iterable = decltype(storage.reach());
    using const_reverse_iterable = decltype(std::as_const(storage).reach());
    static_assert(std::is_convertible_v<typename iterable::iterator, typename const_iterable::iterator>);
    static_assert(
        std::is_convertible_v<typename reverse_iterable::iterator, typename const_reverse_iterable::iterator>);

    auto range = storage.each();
    typename const_iterable::iterator it = range.begin();
    EXPECT_EQ(it, std::as_const(storage).each().begin());
    EXPECT_EQ(std::get<0>(*it), std::get<0>(*range.begin()));
    EXPECT_EQ(&std::get<1>(*it), &std::get<1>(*range.begin()));
    static_assert(std::is_same_v<decltype(std::get<1>(*it)), const typename Storage::value_type &>);
    const typename const_iterable::iterator last = range.end();
    EXPECT_EQ(std::distance(it, last), 2);

    typename const_reverse_iterable::iterator rit = storage.reach().begin();
    EXPECT_EQ(&std::get<1>(*rit), &std::get<1>(*std::as_const(storage).reach().begin()));
}

} // namespace

TEST(IteratorConversions, StorageEachConvertsToConst) {
    tessera::storage<int> ints;
    ints.emplace(tessera::entity{1}, 1);
    ints.emplace(tessera::entity{2}, 2);
    check_each_converts(ints);

    tessera::storage<pinned> holes;
    holes.emplace(tessera::entity{0}, 0);
    holes.emplace(tessera::entity{1}, 1);
    holes.emplace(tessera::entity{2}, 2);
    holes.erase(tessera::entity{1});
    check_each_converts(holes);

    // storages without instances and the entity storage hand out one iterator type
    tessera::storage<void> tags;
    static_assert(std::is_same_v<decltype(tags.each()), decltype(std::as_const(tags).each())>);
    tessera::storage<tessera::entity> entities;
    static_assert(std::is_same_v<decltype(entities.each()), decltype(std::as_const(entities).each())>);
}

TEST(IteratorConversions, ViewEachIteratorHasBase) {
    tessera::registry registry;
    const std::array entities{registry.create(), registry.create(), registry.create()};
    registry.emplace<int>(entities[0u], 0);
    registry.emplace<int>(entities[1u], 1);
    registry.emplace<int>(entities[2u], 2);
    registry.emplace<char>(entities[0u], 'a');
    registry.emplace<char>(entities[2u], 'c');
    registry.emplace<double>(entities[0u], 0.);

    const auto view = registry.view<int, char>();
    auto it = view.each().begin();
    static_assert(std::is_same_v<decltype(it.base()), decltype(view)::iterator>);
    EXPECT_EQ(it.base(), view.begin());
    EXPECT_EQ(*it.base(), std::get<0>(*it));
    ++it;
    EXPECT_EQ(it.base(), ++view.begin());
    EXPECT_EQ(*it.base(), std::get<0>(*it));
    ++it;
    EXPECT_EQ(it, view.each().end());
    EXPECT_EQ(it.base(), view.end());

    // with exclusions the base iterator filters the same way: stepping it meets the same entities
    const auto filtered = registry.view<int>(tessera::exclude<double>);
    auto fit = filtered.each().begin();
    auto base = fit.base();
    EXPECT_EQ(base, filtered.begin());
    EXPECT_EQ(*base, std::get<0>(*fit));
    EXPECT_EQ(*++base, std::get<0>(*++fit));
    EXPECT_EQ(++base, filtered.end());
    EXPECT_EQ((++fit).base(), filtered.end());

    // a view that is not ready
    const decltype(registry.view<int, char>()) empty{};
    EXPECT_EQ(empty.each().begin().base(), empty.begin());
    EXPECT_EQ(empty.each().end().base(), empty.end());

    // a single-type view hands out the storage's own each(): its iterator's base() is the identifier iterator
    const auto single = registry.view<int>();
    EXPECT_EQ(single.each().begin().base(), registry.storage<int>().tessera::sparse_set::begin());
}

TEST(IteratorConversions, StorageEachIteratorsCompareAcrossConstness) {
    tessera::storage<int> ints;
    ints.emplace(tessera::entity{1}, 1);

    const auto range = ints.each();
    const auto crange = std::as_const(ints).each();
    EXPECT_TRUE(range.begin() == crange.begin());
    EXPECT_TRUE(crange.begin() == range.begin());
    EXPECT_TRUE(range.begin() != crange.end());
    EXPECT_TRUE(ints.reach().end() == std::as_const(ints).reach().end());
}

} // namespace unit_entity_iterator_conversions
} // namespace
