// The ABI test: translation units compiled with and without NDEBUG, with TESSERA_DISABLE_ASSERT and with
// TESSERA_ASSERT_ALWAYS_ON (checked.cpp, release.cpp, disabled.cpp, always_on.cpp) make one program. They must see
// the same layout for every class, and objects made in one unit must work in the others: a registry populated in
// one unit, its views, groups, storages and iterators used and modified in the others.
#include "abi.hpp"
#include <gtest/gtest.h>
#include <string>

namespace tessera_abi {
namespace {

struct unit {
    const char *(*macros)();
    layout_table (*layouts)();
};

const std::array<unit, 4> units{unit{&checked::macros, &checked::layouts}, unit{&release::macros, &release::layouts},
                                unit{&disabled::macros, &disabled::layouts},
                                unit{&always_on::macros, &always_on::layouts}};

constexpr int population = 600;

// What the operations must find over `population` entities: position x = n, velocity for even n, a tag for
// multiples of 3.
long long expected_pair_sum(const int count) {
    long long sum{};

    for (int value{}; value < count; ++value) {
        sum += (value % 2 == 0 && value % 3 != 0) ? value : 0;
    }

    return sum;
}

TEST(abi, LayoutsAndNoexceptDoNotDependOnTheAssertMacros) {
    constexpr auto here = layouts_of(checked_types{});

    for (const auto &other : units) {
        const auto there = other.layouts();

        for (std::size_t pos{}; pos < here.size(); ++pos) {
            const auto describe = [](const layout &elem) {
                return "size " + std::to_string(elem.size) + ", align " + std::to_string(elem.align) +
                       ", nothrow move/copy/++/-- " + std::to_string(elem.nothrow_move) +
                       std::to_string(elem.nothrow_copy) + std::to_string(elem.nothrow_increment) +
                       std::to_string(elem.nothrow_decrement);
            };
            EXPECT_EQ(here[pos], there[pos]) << type_names[pos] << ": " << other.macros() << ": "
                                             << describe(there[pos]) << "; here: " << describe(here[pos]);
        }
    }
}

TEST(abi, RegistryViewsAndIteratorsCrossUnits) {
    registry reg;
    // the groups exist before the entities: the owning group arranges the position pool as they arrive
    static_cast<void>(reg.group<position>(tessera::get<velocity>));
    static_cast<void>(reg.group<>(tessera::get<velocity, stable>));
    release::populate(reg, population);

    const auto expected = expected_pair_sum(population);
    const pair_view view = checked::make_view(reg);
    EXPECT_EQ(release::sum_each_callback(view), expected);
    EXPECT_EQ(disabled::sum_each_callback(view), expected);

    // each() iterators made here, walked there
    const auto each = view.each();
    EXPECT_EQ(release::sum_each_iterators(each.begin(), each.end()), expected);
    EXPECT_EQ(checked::sum_each_iterators(each.begin(), each.end()), expected);
    EXPECT_EQ(always_on::sum_each_iterators(each.begin(), each.end()), expected);

    const pair_view other = release::make_view(reg);
    EXPECT_EQ(checked::sum_iterators(other, other.begin(), other.end()), expected);
    EXPECT_EQ(disabled::sum_iterators(view, view.begin(), view.end()), expected);

    // the owning group's members: every entity with a velocity
    long long with_velocity{};
    for (int value{}; value < population; value += 2) {
        with_velocity += value;
    }

    const auto &group = reg.group<position>(tessera::get<velocity>);
    EXPECT_EQ(checked::sum_group(group), with_velocity);
    EXPECT_EQ(release::sum_group(group), with_velocity);
    EXPECT_EQ(always_on::sum_group_each(group.each().begin(), group.each().end()), with_velocity);
    EXPECT_EQ(disabled::sum_plain_group(reg.group<>(tessera::get<velocity, stable>)), with_velocity);

    auto &positions = reg.storage<position>();
    const long long all = static_cast<long long>(population) * (population - 1) / 2;
    EXPECT_EQ(release::sum_storage(positions.begin(), positions.end()), all);
    EXPECT_EQ(checked::sum_storage(positions.begin(), positions.end()), all);
    const tessera::sparse_set &base = positions;
    EXPECT_EQ(disabled::count_set(base.begin(), base.end()), population);
    EXPECT_EQ(always_on::count_set(base.begin(), base.end()), population);
    EXPECT_EQ(release::sum_stable(reg.view<stable>()), all);

    const auto entt = *reg.view<position, velocity>().begin();
    const tessera::handle handle{reg, entt};
    long long pools{};
    for (auto it = handle.storage().begin(), last = handle.storage().end(); it != last; ++it) {
        pools += 1000;
    }
    EXPECT_GE(pools, 3000);
    EXPECT_EQ(checked::sum_handle(handle), reg.get<position>(entt).x + pools);
    EXPECT_EQ(release::sum_handle(handle), reg.get<position>(entt).x + pools);
}

TEST(abi, ModificationsInOneUnitSeenByTheOthers) {
    registry reg;
    static_cast<void>(reg.group<position>(tessera::get<velocity>));
    checked::populate(reg, population);

    // the release unit removes velocity from multiples of 4 while iterating, the checked unit tags multiples of 5
    release::drop_velocity_of_multiples(reg, 4);
    checked::tag_while_iterating(reg, 5);
    always_on::drop_velocity_of_multiples(reg, 10);
    disabled::tag_while_iterating(reg, 7);

    long long expected{};
    long long members{};
    for (int value{}; value < population; ++value) {
        const bool moving = value % 2 == 0 && value % 4 != 0 && value % 10 != 0;
        const bool tagged = value % 3 == 0 || value % 5 == 0 || value % 7 == 0;
        expected += (moving && !tagged) ? value : 0;
        members += moving ? value : 0;
    }

    const auto view = reg.view<position, velocity>(tessera::exclude<tag>);
    EXPECT_EQ(checked::sum_each_callback(view), expected);
    EXPECT_EQ(release::sum_each_callback(view), expected);
    EXPECT_EQ(disabled::sum_iterators(view, view.begin(), view.end()), expected);
    EXPECT_EQ(always_on::sum_each_iterators(view.each().begin(), view.each().end()), expected);

    const auto &group = reg.group<position>(tessera::get<velocity>);
    EXPECT_EQ(release::sum_group(group), members);
    EXPECT_EQ(checked::sum_group_each(group.each().begin(), group.each().end()), members);
}

} // namespace
} // namespace tessera_abi
