// Tests of chunk.hpp: view.chunks(size) and group.chunks(size). Every chunk visits exactly the entities of its
// positions, the chunks together visit exactly what each(func) visits, once each, in every callback form, for every
// kind of view and group; misuse fails with a message.
#include "support/misuse.hpp"

#include <algorithm>
#include <cstddef>
#include <gtest/gtest.h>
#include <iterator>
#include <ranges>
#include <tessera/entity/chunk.hpp>
#include <tessera/entity/group.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/view.hpp>
#include <vector>

namespace {
namespace unit_entity_chunk {

namespace {

struct alpha {
    int value;
};

struct beta {
    int value;
};

struct gamma {
    int value;
};

struct tag {};

struct excluded {};

// an in-place pool: removals leave tombstones among its positions
struct stable {
    static constexpr bool in_place_delete = true;
    int value;
};

// a small page, so that small views span many blocks
struct small_page {
    static constexpr std::size_t page_size = 8u;
    int value;
};

using entity = tessera::entity;

// the entities each(func) visits, in its order
template<typename View>
std::vector<entity> each_order(const View &view) {
    std::vector<entity> out{};
    view.each([&out](const entity entt, auto &&...) { out.push_back(entt); });
    return out;
}

// the entities the chunks visit, chunk by chunk from the last to the first (each(func)'s order); checks that every
// chunk stays within its positions of the leading storage `lead`
template<typename View, typename Set>
std::vector<entity> chunk_order(const View &view, const std::size_t size, const Set &lead) {
    const auto range = view.chunks(size);
    std::vector<entity> out{};

    for (auto index = range.size(); index != 0u; --index) {
        const auto chunk = range[index - 1u];
        EXPECT_EQ(chunk.index(), index - 1u);
        EXPECT_EQ(chunk.first(), (index - 1u) * size);
        EXPECT_LE(chunk.size_hint(), size);
        EXPECT_EQ(chunk.last(), chunk.first() + chunk.size_hint());

        chunk.each([&](const entity entt, auto &&...) {
            const auto pos = lead.index(entt);
            EXPECT_GE(pos, chunk.first());
            EXPECT_LT(pos, chunk.last());
            out.push_back(entt);
        });
    }

    return out;
}

// every size of interest against each(func): 1, odd, page multiples, larger than the view
template<typename View, typename Set>
void expect_same_as_each(const View &view, const Set &lead) {
    const auto expected = each_order(view);
    const std::size_t page = TESSERA_PACKED_PAGE;

    for (const std::size_t size : {std::size_t{1u}, std::size_t{3u}, std::size_t{7u}, std::size_t{97u}, page,
                                   std::size_t{2u} * page, std::size_t{1000000u}}) {
        EXPECT_EQ(chunk_order(view, size, lead), expected) << "chunk size " << size;
    }
}

class Chunks : public ::testing::Test {
protected:
    void SetUp() override {
        for (int index{}; index < 5000; ++index) {
            const auto entt = registry.create();
            registry.emplace<alpha>(entt, index);

            if (index % 3 != 0) {
                registry.emplace<beta>(entt, index);
            }

            if (index % 5 != 0) {
                registry.emplace<gamma>(entt, index);
                registry.emplace<tag>(entt);
            }

            if (index % 7 == 0) {
                registry.emplace<excluded>(entt);
            }
        }
    }

    tessera::registry registry{};
};

TEST_F(Chunks, MultiTypeViewMatchesEach) {
    const auto view = registry.view<alpha, beta, gamma>();
    expect_same_as_each(view, *view.handle());
}

TEST_F(Chunks, ViewWithExclusionsMatchesEach) {
    const auto view = registry.view<alpha, gamma>(tessera::exclude<excluded>);
    expect_same_as_each(view, *view.handle());

    for (const auto chunk : view.chunks(64u)) {
        chunk.each(
            [this](const entity entt, const alpha &, const gamma &) { EXPECT_FALSE(registry.all_of<excluded>(entt)); });
    }
}

TEST_F(Chunks, SingleTypeViewMatchesEach) {
    const auto view = registry.view<beta>();
    expect_same_as_each(view, registry.storage<beta>());
    EXPECT_EQ(view.chunks(1000u).size(), 4u);
    EXPECT_EQ(view.chunks(1000u).size_hint(), view.size());
}

TEST_F(Chunks, ViewWhoseLeadChanges) {
    auto view = registry.view<alpha, beta>();
    EXPECT_EQ(view.handle(), &registry.storage<beta>());
    expect_same_as_each(view, registry.storage<beta>());

    // forced lead: the chunks cut the positions of alpha
    view.use<alpha>();
    EXPECT_EQ(view.chunks(100u).size_hint(), registry.storage<alpha>().size());
    expect_same_as_each(view, registry.storage<alpha>());

    // beta outgrows alpha: a refreshed view leads with alpha, one made before keeps beta
    auto before = registry.view<alpha, beta>();

    for (const auto entt : registry.view<alpha>()) {
        registry.emplace_or_replace<beta>(entt, 0);
    }

    for (int extra{}; extra < 100; ++extra) {
        registry.emplace<beta>(registry.create(), extra);
    }

    EXPECT_EQ(before.handle(), &registry.storage<beta>());
    expect_same_as_each(before, registry.storage<beta>());
    before.refresh();
    EXPECT_EQ(before.handle(), &registry.storage<alpha>());
    expect_same_as_each(before, registry.storage<alpha>());
}

TEST_F(Chunks, EveryCallbackForm) {
    const auto view = registry.view<alpha, tag>();
    std::size_t with{};
    std::size_t without{};
    std::size_t entities_only{};
    int sum{};

    for (const auto chunk : view.chunks(100u)) {
        chunk.each([&](const entity, alpha &) { ++with; });
        chunk.each([&](alpha &value) {
            ++without;
            sum += value.value;
        });
    }

    // the empty type is left out: (entity) and () for a view of one empty type
    for (const auto chunk : registry.view<tag>().chunks(100u)) {
        chunk.each([&](const entity) { ++entities_only; });
        chunk.each([&]() { ++entities_only; });
    }

    int expected_sum{};
    view.each([&expected_sum](const alpha &value) { expected_sum += value.value; });
    EXPECT_EQ(with, 4000u);
    EXPECT_EQ(without, 4000u);
    EXPECT_EQ(entities_only, 8000u);
    EXPECT_EQ(sum, expected_sum);
}

TEST_F(Chunks, WritesThroughChunks) {
    const auto view = registry.view<alpha, const beta>();

    for (const auto chunk : view.chunks(128u)) {
        chunk.each([](alpha &value, const beta &other) { value.value = -other.value; });
    }

    registry.view<alpha, beta>().each(
        [](const alpha &value, const beta &other) { EXPECT_EQ(value.value, -other.value); });
}

TEST_F(Chunks, InPlacePoolWithTombstones) {
    for (const auto entt : registry.view<alpha>()) {
        if (registry.get<alpha>(entt).value % 2 == 0) {
            registry.emplace<stable>(entt, 1);
        }
    }

    auto &pool = registry.storage<stable>();
    std::size_t removed{};

    for (const auto entt : registry.view<alpha>()) {
        if (registry.get<alpha>(entt).value % 6 == 0) {
            removed += registry.remove<stable>(entt);
        }
    }

    ASSERT_NE(removed, 0u);
    // the removals left tombstones among the positions
    ASSERT_EQ(pool.size(), 2500u);

    const auto single = registry.view<stable>();
    expect_same_as_each(single, pool);
    std::size_t visited{};

    for (const auto chunk : single.chunks(33u)) {
        chunk.each([&visited](const entity, stable &) { ++visited; });
    }

    EXPECT_EQ(visited, 2500u - removed);

    auto multi = registry.view<stable, alpha>();
    multi.use<stable>();
    expect_same_as_each(multi, pool);
}

TEST_F(Chunks, SmallPagesSpanManyBlocks) {
    for (const auto entt : registry.view<gamma>()) {
        registry.emplace<small_page>(entt, 2);
    }

    const auto view = registry.view<small_page, alpha>();
    expect_same_as_each(view, *view.handle());
}

TEST_F(Chunks, FullOwningGroup) {
    const auto group = registry.group<alpha, beta>();
    expect_same_as_each(group, registry.storage<alpha>());
    EXPECT_EQ(group.chunks(1u).size(), group.size());
}

TEST_F(Chunks, PartialOwningGroup) {
    const auto group = registry.group<gamma>(tessera::get<alpha, beta>, tessera::exclude<excluded>);
    expect_same_as_each(group, registry.storage<gamma>());
}

TEST_F(Chunks, NonOwningGroup) {
    const auto group = registry.group<>(tessera::get<alpha, beta, tag>);
    expect_same_as_each(group, group.handle());

    std::size_t count{};

    for (const auto chunk : group.chunks(10u)) {
        chunk.each([&count](alpha &, beta &) { ++count; });
    }

    EXPECT_EQ(count, group.size());
}

TEST_F(Chunks, EmptyAndInvalid) {
    const auto empty = registry.view<alpha, beta>(tessera::exclude<alpha>);
    EXPECT_TRUE(std::ranges::none_of(empty.chunks(16u), [](const auto chunk) {
        bool any = false;
        chunk.each([&any](const entity, auto &&...) { any = true; });
        return any;
    }));

    registry.clear<gamma>();
    const auto none = registry.view<gamma>();
    EXPECT_TRUE(none.chunks(16u).empty());
    EXPECT_EQ(none.chunks(16u).begin(), none.chunks(16u).end());

    const tessera::basic_view<tessera::get_t<tessera::storage<alpha>, tessera::storage<beta>>, tessera::exclude_t<>>
        unset{};
    EXPECT_EQ(unset.chunks(4u).size(), 0u);

    const decltype(registry.group<>(tessera::get<alpha, beta, tag>)) invalid{};
    EXPECT_TRUE(invalid.chunks(4u).empty());
}

TEST_F(Chunks, RandomAccessRange) {
    const auto view = registry.view<alpha, gamma>();
    const auto range = view.chunks(300u);
    using iterator = decltype(range.begin());
    static_assert(std::random_access_iterator<iterator>);
    static_assert(std::ranges::random_access_range<decltype(range)>);
    static_assert(std::ranges::sized_range<decltype(range)>);

    ASSERT_EQ(range.size(), 14u);
    EXPECT_EQ(range.chunk_size(), 300u);
    EXPECT_EQ(range.end() - range.begin(), 14);
    EXPECT_EQ(range.begin()[13].index(), 13u);
    EXPECT_EQ((range.begin() + 5)->index(), 5u);
    EXPECT_EQ((3 + range.begin())->index(), 3u);
    EXPECT_EQ((range.end() - 1)->size_hint(), 4000u - 13u * 300u);
    EXPECT_LT(range.begin(), range.end());

    auto it = range.begin();
    EXPECT_EQ((it++)->index(), 0u);
    EXPECT_EQ((++it)->index(), 2u);
    EXPECT_EQ((it--)->index(), 2u);
    EXPECT_EQ((--it)->index(), 0u);
    it += 4;
    it -= 1;
    EXPECT_EQ((*it).index(), 3u);

    // a standard algorithm over the range
    std::size_t count{};
    std::for_each(range.begin(), range.end(),
                  [&count](const auto chunk) { chunk.each([&count](const alpha &, const gamma &) { ++count; }); });
    EXPECT_EQ(count, 4000u);

    // a default chunk visits nothing
    const decltype(range)::value_type nothing{};
    EXPECT_EQ(nothing.size_hint(), 0u);
}

TEST_F(Chunks, Misuse) {
    const auto view = registry.view<alpha, beta>();
    EXPECT_MISUSE(static_cast<void>(view.chunks(0u)), "chunk size must not be 0");
    EXPECT_MISUSE(static_cast<void>(registry.view<alpha>().chunks(0u)), "chunk size must not be 0");
    EXPECT_MISUSE(static_cast<void>(registry.group<>(tessera::get<alpha, beta>).chunks(0u)),
                  "chunk size must not be 0");

    const auto range = view.chunks(1000u);
    EXPECT_MISUSE(static_cast<void>(range[range.size()]), "chunk index is out of range");

    // the leading storage lost entities: the last chunk reaches past it
    const auto last = range[range.size() - 1u];
    const auto single = registry.view<beta>().chunks(1000u);
    const auto single_last = single[single.size() - 1u];
    const auto group = registry.group<>(tessera::get<beta, gamma>).chunks(1000u);
    const auto group_last = group[group.size() - 1u];
    registry.clear<beta>();
    EXPECT_MISUSE(last.each([](alpha &, beta &) {}), "lost entities since chunks() was called");
    EXPECT_MISUSE(single_last.each([](beta &) {}), "lost entities since chunks() was called");
    EXPECT_MISUSE(group_last.each([](beta &, gamma &) {}), "lost members since chunks() was called");
}

} // namespace

} // namespace unit_entity_chunk
} // namespace
