// Without TESSERA_DEBUG_RACES (the default), race detection leaves no trace in the sparse set: no member, no
// accessor. races.cpp checks the other side, with the macro at 1.
#include "sparse_set_layout.hpp"
#include <gtest/gtest.h>
#include <string>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/sparse_set.hpp>
#include <typeinfo>

namespace {

static_assert(TESSERA_DEBUG_RACES == 0, "race_free_layout.cpp checks the default build");
static_assert(sizeof(tessera::sparse_set) == sizeof(tessera_test::sparse_set_layout),
              "without TESSERA_DEBUG_RACES, the sparse set holds no race detection member");
template<typename Set>
concept has_race_detection = requires(const Set &set) {
    set.race_detection();
};

static_assert(!has_race_detection<tessera::sparse_set>,
              "without TESSERA_DEBUG_RACES, the sparse set has no race detection accessor");

TEST(RaceFreeLayout, NoRaceDetectionWithoutTheMacro) {
    // the checks are the static_asserts above; this runs the pool once, so that the unit is not empty of tests
    tessera::sparse_set set;
    set.push(tessera::entity{3});
    EXPECT_TRUE(set.contains(tessera::entity{3}));
}

TEST(RaceFreeLayout, NoRaceDetectionTagInMangledNames) {
    EXPECT_EQ(std::string{typeid(tessera::registry).name()}.find("tessera_debug_races"), std::string::npos);
    EXPECT_EQ(std::string{typeid(tessera::sparse_set).name()}.find("tessera_debug_races"), std::string::npos);
}

} // namespace
