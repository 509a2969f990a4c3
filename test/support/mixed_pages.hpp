// Storages with different page sizes under one view or group. Iteration walks blocks of positions that lie in one
// page of every storage (as long as the smallest page) and takes the shortcut through element addresses where the
// packed arrays line up: fill_mixed_pages() makes them line up in some blocks and not in others, over several pages
// of every storage, and keeps a reference of which entity has what, so that expect_visits() can check that every
// way of iterating hands out exactly the matching entities, each with its own elements.
#ifndef TESSERA_TEST_SUPPORT_MIXED_PAGES_HPP
#define TESSERA_TEST_SUPPORT_MIXED_PAGES_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <gtest/gtest.h>
#include <tessera/entity/registry.hpp>
#include <tuple>
#include <vector>

namespace tessera_test::mixed_pages {

/// A component whose storage has pages of `Page` elements; `value` is the index of its entity in the reference.
template<std::size_t Page>
struct paged {
    static constexpr std::size_t page_size = Page;
    int value;
};

/// The same with in-place deletion: its packed array keeps tombstones, so it never takes the lined-up shortcut.
template<std::size_t Page>
struct paged_in_place {
    static constexpr bool in_place_delete = true;
    static constexpr std::size_t page_size = Page;
    int value;
};

/// A component with the default page size (TESSERA_PACKED_PAGE).
struct default_paged {
    int value;
};

using small = paged<4u>;
using medium = paged<16u>;
using large = paged<2048u>;
using stable = paged_in_place<8u>;

/// Excluded by the views and groups that say so.
struct excluded {};

/// Which entity has what, independent of the library. Identifiers are never recycled here, so an entity's index
/// (tessera::to_entity) is its place in `entities`.
struct reference {
    std::vector<tessera::entity> entities;
    std::vector<std::uint8_t> has;
    std::vector<bool> is_excluded;
};

/// Bit of a component in reference::has.
template<typename Type>
constexpr std::uint8_t bit_of() noexcept {
    if constexpr (std::is_same_v<Type, small>) {
        return 1u;
    } else if constexpr (std::is_same_v<Type, medium>) {
        return 2u;
    } else if constexpr (std::is_same_v<Type, large>) {
        return 4u;
    } else if constexpr (std::is_same_v<Type, default_paged>) {
        return 8u;
    } else {
        static_assert(std::is_same_v<Type, stable>, "mixed_pages: not one of the fixture's components");
        return 16u;
    }
}

/// Entities enough to fill two pages of the largest storage and part of a third.
inline int entity_count() noexcept {
    return 2 * static_cast<int>(std::max<std::size_t>(large::page_size, TESSERA_PACKED_PAGE)) + 37;
}

/// Gives the entity at `idx` a component and records it.
template<typename Type>
void give(tessera::registry &registry, reference &ref, const int idx) {
    registry.emplace<Type>(ref.entities[static_cast<std::size_t>(idx)], idx);
    ref.has[static_cast<std::size_t>(idx)] |= bit_of<Type>();
}

/// Takes a component from the entity at `idx` and records it.
template<typename Type>
void take(tessera::registry &registry, reference &ref, const int idx) {
    registry.erase<Type>(ref.entities[static_cast<std::size_t>(idx)]);
    ref.has[static_cast<std::size_t>(idx)] &= static_cast<std::uint8_t>(~bit_of<Type>());
}

/// Fills the registry. In the first half every entity gets every component in turn, so the packed arrays line up;
/// in the second half `small` skips every third entity, `medium` comes in reverse order and `default_paged` skips
/// every fifth. Then `small` loses every eleventh entity (the last element moves into each hole) and `stable` every
/// seventh (a tombstone stays); every thirteenth entity is excluded.
inline reference fill(tessera::registry &registry) {
    reference ref;
    const int count = entity_count();
    ref.has.resize(static_cast<std::size_t>(count));
    ref.is_excluded.resize(static_cast<std::size_t>(count));

    for (int idx{}; idx < count; ++idx) {
        ref.entities.push_back(registry.create());
        EXPECT_EQ(tessera::to_entity(ref.entities.back()), static_cast<std::uint32_t>(idx));

        if (idx < count / 2) {
            give<small>(registry, ref, idx);
            give<medium>(registry, ref, idx);
            give<default_paged>(registry, ref, idx);
        } else {
            if (idx % 3 != 0) {
                give<small>(registry, ref, idx);
            }

            if (idx % 5 != 0) {
                give<default_paged>(registry, ref, idx);
            }
        }

        give<large>(registry, ref, idx);
        give<stable>(registry, ref, idx);
    }

    for (int idx = count - 1; idx >= count / 2; --idx) {
        give<medium>(registry, ref, idx);
    }

    for (int idx = 5; idx < count; idx += 11) {
        if (ref.has[static_cast<std::size_t>(idx)] & bit_of<small>()) {
            take<small>(registry, ref, idx);
        }
    }

    for (int idx = 3; idx < count; idx += 7) {
        take<stable>(registry, ref, idx);
    }

    for (int idx{}; idx < count; idx += 13) {
        registry.emplace<excluded>(ref.entities[static_cast<std::size_t>(idx)]);
        ref.is_excluded[static_cast<std::size_t>(idx)] = true;
    }

    return ref;
}

/// Moves elements around without changing who has what: a third of the entities leave `medium` and come back in
/// reverse order (to the end of its packed array, out of line with the others).
inline void reshuffle(tessera::registry &registry, reference &ref) {
    const int count = static_cast<int>(ref.entities.size());
    std::vector<int> moved;

    for (int idx = 1; idx < count; idx += 3) {
        if (ref.has[static_cast<std::size_t>(idx)] & bit_of<medium>()) {
            take<medium>(registry, ref, idx);
            moved.push_back(idx);
        }
    }

    for (auto it = moved.rbegin(); it != moved.rend(); ++it) {
        give<medium>(registry, ref, *it);
    }
}

/// The entities that have every Type (and are not excluded, if `excluding`), sorted.
template<typename... Type>
std::vector<tessera::entity> expected(const reference &ref, const bool excluding) {
    constexpr std::uint8_t mask = (bit_of<Type>() | ...);
    std::vector<tessera::entity> out;

    for (std::size_t idx{}; idx < ref.entities.size(); ++idx) {
        if ((ref.has[idx] & mask) == mask && !(excluding && ref.is_excluded[idx])) {
            out.push_back(ref.entities[idx]);
        }
    }

    std::sort(out.begin(), out.end());
    return out;
}

/// Checks that each(func) (with and without the entity), the each() iterators and a range-for with get() visit the
/// expected entities in the same order, and that every element handed out is the entity's own. Type... are the
/// element types in the order the callbacks receive them.
template<typename... Type, typename Range>
void expect_visits(tessera::registry &registry, const reference &ref, const Range &range, const bool excluding) {
    const auto own = [&](const tessera::entity entt, const Type &...elem) {
        const auto idx = static_cast<int>(tessera::to_entity(entt));
        EXPECT_TRUE(((&elem == &registry.get<Type>(entt)) && ...)) << "entity " << idx;
        EXPECT_TRUE(((elem.value == idx) && ...)) << "entity " << idx;
    };

    std::vector<tessera::entity> by_callback;
    range.each([&](const tessera::entity entt, Type &...elem) {
        own(entt, elem...);
        by_callback.push_back(entt);
    });

    std::vector<tessera::entity> by_elements;
    range.each([&](Type &...elem) {
        const int idx = std::get<0>(std::forward_as_tuple(elem...)).value;
        by_elements.push_back(ref.entities[static_cast<std::size_t>(idx)]);
    });

    std::vector<tessera::entity> by_iterator;

    for (auto &&tuple : range.each()) {
        std::apply(
            [&](const tessera::entity entt, Type &...elem) {
                own(entt, elem...);
                by_iterator.push_back(entt);
            },
            tuple);
    }

    std::vector<tessera::entity> by_range;

    for (const tessera::entity entt : range) {
        own(entt, range.template get<Type>(entt)...);
        by_range.push_back(entt);
    }

    EXPECT_EQ(by_elements, by_callback);
    EXPECT_EQ(by_iterator, by_callback);
    EXPECT_EQ(by_range, by_callback);
    std::sort(by_callback.begin(), by_callback.end());
    EXPECT_EQ(by_callback, (expected<Type...>(ref, excluding)));
}

} // namespace tessera_test::mixed_pages

#endif
