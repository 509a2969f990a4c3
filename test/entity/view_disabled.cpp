// Tests of disabled_mode on views (view.hpp) and runtime views (runtime_view.hpp): skipping
// disabled components (the default), including them, or visiting only the entities that have one, through every
// way a view hands out entities (each(func), each(), the entity iterators, contains, chunks), checked against a
// brute-force answer over random populations.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <gtest/gtest.h>
#include <tessera/entity/chunk.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/runtime_view.hpp>
#include <vector>

namespace {
namespace unit_entity_view_disabled {

namespace {

using tessera::disabled_mode;
using tessera::entity;

struct position {
    int x{};
};

struct velocity {
    int dx{};
};

struct hidden {};

constexpr disabled_mode all_modes[]{disabled_mode::skip, disabled_mode::include, disabled_mode::only};

[[nodiscard]] std::vector<entity> sorted(std::vector<entity> list) {
    std::sort(list.begin(), list.end());
    return list;
}

// every way a view hands out its entities, each sorted, must give the same set
template<typename View>
[[nodiscard]] std::vector<entity> visit_every_way(const View &view) {
    std::vector<entity> by_func;
    view.each([&by_func](const entity entt, auto &&...) { by_func.push_back(entt); });

    std::vector<entity> by_iterable;
    for (auto tuple : view.each()) {
        by_iterable.push_back(std::get<0>(tuple));
    }

    const std::vector<entity> by_iterator(view.begin(), view.end());

    std::vector<entity> by_chunks;
    for (const auto &chunk : view.chunks(3u)) {
        chunk.each([&by_chunks](const entity entt, auto &&...) { by_chunks.push_back(entt); });
    }

    EXPECT_EQ(sorted(by_func), sorted(by_iterable));
    EXPECT_EQ(sorted(by_func), sorted(by_iterator));
    EXPECT_EQ(sorted(by_func), sorted(by_chunks));
    // each(func) and the iterators agree on the order too
    EXPECT_EQ(by_func, by_iterator);

    for (const auto entt : by_func) {
        EXPECT_TRUE(view.contains(entt));
    }

    return sorted(by_func);
}

class ViewDisabled : public ::testing::Test {
protected:
    tessera::registry registry;
    std::vector<entity> entities;

    // entity i: position always, velocity unless i % 3 == 2, hidden when i % 5 == 0; position disabled when
    // i % 4 == 1, velocity disabled when i % 7 == 3, the whole entity disabled when i == 10
    void SetUp() override {
        for (int i = 0; i < 40; ++i) {
            const auto entt = registry.create();
            entities.push_back(entt);
            registry.emplace<position>(entt, i);

            if (i % 3 != 2) {
                registry.emplace<velocity>(entt, i);
            }

            if (i % 5 == 0) {
                registry.emplace<hidden>(entt);
            }
        }

        for (int i = 0; i < 40; ++i) {
            const auto entt = entities[static_cast<std::size_t>(i)];

            if (i % 4 == 1) {
                registry.disable<position>(entt);
            }

            if (i % 7 == 3 && registry.all_of<velocity>(entt)) {
                registry.disable<velocity>(entt);
            }
        }

        registry.disable(entities[10u]);
    }

    // what a view over position and velocity (excluding enabled hidden elements when `exclude`) must give
    [[nodiscard]] std::vector<entity> expected(const disabled_mode mode, const bool with_velocity,
                                               const bool exclude) const {
        std::vector<entity> out;

        for (const auto entt : entities) {
            const bool has_velocity = registry.all_of<velocity>(entt);

            if (!registry.all_of<position>(entt)) {
                continue;
            }

            if (with_velocity && !has_velocity) {
                continue;
            }

            if (exclude && registry.all_of<hidden>(entt) && registry.enabled<hidden>(entt)) {
                continue;
            }

            const bool some_disabled =
                !registry.enabled<position>(entt) || (with_velocity && !registry.enabled<velocity>(entt));
            const bool keep = (mode == disabled_mode::skip && !some_disabled) || mode == disabled_mode::include ||
                              (mode == disabled_mode::only && some_disabled);

            if (keep) {
                out.push_back(entt);
            }
        }

        return sorted(out);
    }
};

TEST_F(ViewDisabled, SkipIsTheDefault) {
    EXPECT_EQ(registry.view<position>().visit_disabled(), disabled_mode::skip);
    EXPECT_EQ((registry.view<position, velocity>().visit_disabled()), disabled_mode::skip);
    EXPECT_EQ(visit_every_way(registry.view<position, velocity>()), expected(disabled_mode::skip, true, false));
}

TEST_F(ViewDisabled, MultiTypeViewInEveryMode) {
    for (const auto mode : all_modes) {
        auto view = registry.view<position, velocity>();
        view.visit_disabled(mode);
        EXPECT_EQ(view.visit_disabled(), mode);
        EXPECT_EQ(visit_every_way(view), expected(mode, true, false)) << static_cast<int>(mode);
    }
}

TEST_F(ViewDisabled, MultiTypeViewWithExcludesInEveryMode) {
    for (const auto mode : all_modes) {
        auto view = registry.view<position, velocity>(tessera::exclude<hidden>);
        view.visit_disabled(mode);
        EXPECT_EQ(visit_every_way(view), expected(mode, true, true)) << static_cast<int>(mode);
    }
}

TEST_F(ViewDisabled, SingleTypeViewInEveryMode) {
    for (const auto mode : all_modes) {
        auto view = registry.view<position>();
        view.visit_disabled(mode);
        const auto want = expected(mode, false, false);
        EXPECT_EQ(visit_every_way(view), want) << static_cast<int>(mode);
        EXPECT_EQ(view.size(), want.size());
        EXPECT_EQ(view.empty(), want.empty());
        EXPECT_TRUE(view.rbegin() == std::make_reverse_iterator(view.end()));
        EXPECT_EQ(std::vector<entity>(view.rbegin(), view.rend()).size(), want.size());
    }
}

TEST_F(ViewDisabled, SingleTypeViewWithExcludesInEveryMode) {
    for (const auto mode : all_modes) {
        auto view = registry.view<position>(tessera::exclude<hidden>);
        view.visit_disabled(mode);
        EXPECT_EQ(visit_every_way(view), expected(mode, false, true)) << static_cast<int>(mode);
    }
}

TEST_F(ViewDisabled, FrontBackAndFindFollowTheMode) {
    auto view = registry.view<position>();
    const auto first_disabled = entities[1u];

    EXPECT_FALSE(view.contains(first_disabled));
    EXPECT_TRUE(view.find(first_disabled) == view.end());

    view.visit_disabled(disabled_mode::only);
    EXPECT_TRUE(view.contains(first_disabled));
    EXPECT_FALSE(view.contains(entities[0u]));
    ASSERT_FALSE(view.find(first_disabled) == view.end());
    EXPECT_EQ(*view.find(first_disabled), first_disabled);
    EXPECT_FALSE(registry.enabled<position>(view.front()));
    EXPECT_FALSE(registry.enabled<position>(view.back()));

    auto pair = registry.view<position, velocity>();
    pair.visit_disabled(disabled_mode::only);
    ASSERT_NE(pair.front(), entity{tessera::null});
    EXPECT_TRUE(pair.contains(pair.front()));
    EXPECT_TRUE(pair.contains(pair.back()));
}

TEST_F(ViewDisabled, GetReadsDisabledElementsOutsideTheDefault) {
    auto view = registry.view<position, velocity>();
    const auto entt = entities[1u];
    view.visit_disabled(disabled_mode::include);
    const auto [pos, vel] = view.get(entt);
    EXPECT_EQ(pos.x, 1);
    EXPECT_EQ(vel.dx, 1);
}

TEST_F(ViewDisabled, TheModeSurvivesCombinationAndConversion) {
    auto single = registry.view<position>();
    single.visit_disabled(disabled_mode::only);
    const auto joined = single | registry.view<velocity>();
    EXPECT_EQ(joined.visit_disabled(), disabled_mode::only);
    EXPECT_EQ(visit_every_way(joined), expected(disabled_mode::only, true, false));

    auto pair = registry.view<position, velocity>();
    pair.visit_disabled(disabled_mode::include);
    const tessera::view<tessera::get_t<const position>> narrowed{pair};
    EXPECT_EQ(narrowed.visit_disabled(), disabled_mode::include);
    EXPECT_EQ(visit_every_way(narrowed), expected(disabled_mode::include, false, false));
}

TEST_F(ViewDisabled, TheLeadIsChosenAmongTheCountedElements) {
    // position has 30 enabled of 40; a view including disabled elements leads with the smaller pool in full
    auto view = registry.view<position, velocity>();
    view.visit_disabled(disabled_mode::include);
    EXPECT_EQ(view.size_hint(), registry.storage<velocity>().size());
    view.visit_disabled(disabled_mode::skip);
    EXPECT_LE(view.size_hint(), registry.storage<velocity>().in_use());
}

TEST_F(ViewDisabled, RemovingTheCurrentEntityDuringAWalkThatIncludesDisabledOnes) {
    auto view = registry.view<position, velocity>();
    view.visit_disabled(disabled_mode::include);
    const auto want = expected(disabled_mode::include, true, false);
    std::vector<entity> seen;
    view.each([&](const entity entt, position &, velocity &) {
        seen.push_back(entt);
        registry.erase<velocity>(entt);
    });
    EXPECT_EQ(sorted(seen), want);
    EXPECT_TRUE(registry.storage<velocity>().empty());
}

TEST_F(ViewDisabled, RemovingTheCurrentEntityDuringAWalkOfDisabledOnes) {
    auto view = registry.view<position, velocity>();
    view.visit_disabled(disabled_mode::only);
    const auto want = expected(disabled_mode::only, true, false);
    std::vector<entity> seen;
    view.each([&](const entity entt, position &, velocity &) {
        seen.push_back(entt);
        registry.erase<position>(entt);
    });
    EXPECT_EQ(sorted(seen), want);
    EXPECT_TRUE(expected(disabled_mode::only, true, false).empty());
}

TEST_F(ViewDisabled, AWholeDisabledEntity) {
    const auto entt = entities[10u];
    auto view = registry.view<position, velocity>();
    EXPECT_FALSE(view.contains(entt));
    view.visit_disabled(disabled_mode::only);
    EXPECT_TRUE(view.contains(entt));
    registry.enable(entt);
    EXPECT_FALSE(view.contains(entt));
}

TEST_F(ViewDisabled, RuntimeViewInEveryMode) {
    for (const auto mode : all_modes) {
        tessera::runtime_view view{};
        view.iterate(registry.storage<position>()).iterate(registry.storage<velocity>());
        view.visit_disabled(mode);
        EXPECT_EQ(view.visit_disabled(), mode);

        std::vector<entity> by_func;
        view.each([&by_func](const entity entt) { by_func.push_back(entt); });
        const std::vector<entity> by_iterator(view.begin(), view.end());
        EXPECT_EQ(by_func, by_iterator);
        EXPECT_EQ(sorted(by_func), expected(mode, true, false)) << static_cast<int>(mode);

        for (const auto entt : entities) {
            EXPECT_EQ(view.contains(entt), std::find(by_func.begin(), by_func.end(), entt) != by_func.end());
        }

        // backwards from the end gives them all again
        std::size_t back{};
        for (auto it = view.end(); it != view.begin();) {
            --it;
            ++back;
        }
        EXPECT_EQ(back, by_func.size());
    }
}

TEST_F(ViewDisabled, RuntimeViewExcludesCountEnabledElementsOnly) {
    for (const auto mode : all_modes) {
        tessera::runtime_view view{};
        view.iterate(registry.storage<position>())
            .iterate(registry.storage<velocity>())
            .exclude(registry.storage<hidden>());
        view.visit_disabled(mode);
        std::vector<entity> by_func;
        view.each([&by_func](const entity entt) { by_func.push_back(entt); });
        EXPECT_EQ(sorted(by_func), expected(mode, true, true)) << static_cast<int>(mode);
    }
}

TEST_F(ViewDisabled, RuntimeViewCopiesAndSwapsKeepTheMode) {
    tessera::runtime_view view{};
    view.iterate(registry.storage<position>());
    view.visit_disabled(disabled_mode::only);

    const tessera::runtime_view copy{view, view.get_allocator()};
    EXPECT_EQ(copy.visit_disabled(), disabled_mode::only);

    tessera::runtime_view other{};
    other.swap(view);
    EXPECT_EQ(other.visit_disabled(), disabled_mode::only);
    EXPECT_EQ(view.visit_disabled(), disabled_mode::skip);
    EXPECT_EQ(other.size_hint(), registry.storage<position>().size());
}

// random populations, random states: every mode of every view form against the brute-force answer
TEST(ViewDisabledRandom, AgreesWithBruteForce) {
    std::uint32_t state = 12345u;
    const auto next = [&state] {
        state = state * 1664525u + 1013904223u;
        return state >> 8u;
    };

    for (int round = 0; round < 30; ++round) {
        tessera::registry registry;
        std::vector<entity> entities;
        const auto count = 1u + next() % 300u;

        for (std::uint32_t i = 0; i < count; ++i) {
            const auto entt = registry.create();
            entities.push_back(entt);

            if (next() % 4u != 0u) {
                registry.emplace<position>(entt);
            }
            if (next() % 3u != 0u) {
                registry.emplace<velocity>(entt);
            }
            if (next() % 5u == 0u) {
                registry.emplace<hidden>(entt);
            }
        }

        for (const auto entt : entities) {
            if (registry.all_of<position>(entt) && next() % 3u == 0u) {
                registry.disable<position>(entt);
            }
            if (registry.all_of<velocity>(entt) && next() % 4u == 0u) {
                registry.disable<velocity>(entt);
            }
            if (registry.all_of<hidden>(entt) && next() % 2u == 0u) {
                registry.disable<hidden>(entt);
            }
        }

        for (const auto mode : all_modes) {
            std::vector<entity> want;

            for (const auto entt : entities) {
                if (!registry.all_of<position, velocity>(entt) ||
                    (registry.all_of<hidden>(entt) && registry.enabled<hidden>(entt))) {
                    continue;
                }

                const bool some = !registry.enabled<position>(entt) || !registry.enabled<velocity>(entt);

                if ((mode == disabled_mode::skip && !some) || mode == disabled_mode::include ||
                    (mode == disabled_mode::only && some)) {
                    want.push_back(entt);
                }
            }

            auto view = registry.view<position, velocity>(tessera::exclude<hidden>);
            view.visit_disabled(mode);
            EXPECT_EQ(visit_every_way(view), sorted(want)) << round << ' ' << static_cast<int>(mode);

            tessera::runtime_view runtime{};
            runtime.iterate(registry.storage<velocity>())
                .iterate(registry.storage<position>())
                .exclude(registry.storage<hidden>());
            runtime.visit_disabled(mode);
            std::vector<entity> by_runtime;
            runtime.each([&by_runtime](const entity entt) { by_runtime.push_back(entt); });
            EXPECT_EQ(sorted(by_runtime), sorted(want)) << round << ' ' << static_cast<int>(mode);
        }
    }
}

} // namespace

} // namespace unit_entity_view_disabled
} // namespace
