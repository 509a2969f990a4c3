// The differential model test: random operation sequences applied to a registry and to a std::map model.
#include "model/run.hpp"
#include <cstdint>
#include <cstdlib>
#include <gtest/gtest.h>
#include <string>

namespace {
namespace unit_model_model {

namespace {

// Operations per run: long enough to reach crowded states, short enough that a failure replays quickly.
constexpr std::size_t ops_per_run = 2000u;
// Runs per test case (20 cases, run in parallel under ctest): 25 gives the 10^6 operations of the sanitizer
// build; CMake passes fewer for the unsanitized debug build, whose unoptimized code is slower.
#ifndef TESSERA_MODEL_RUNS_PER_CASE
#    define TESSERA_MODEL_RUNS_PER_CASE 25
#endif
constexpr std::size_t runs_per_case = TESSERA_MODEL_RUNS_PER_CASE;

class model_test : public ::testing::TestWithParam<std::uint64_t> {};

// TESSERA_MODEL_SEED=<seed> [TESSERA_MODEL_OPS=<count>] replays one run instead of the case's own runs, e.g.
// TESSERA_MODEL_SEED=1004 TESSERA_MODEL_OPS=338 tessera_test_model --gtest_filter='*/1'
TEST_P(model_test, AgreesWithTheReference) {
    if (const char *seed = std::getenv("TESSERA_MODEL_SEED"); seed != nullptr) {
        const char *ops = std::getenv("TESSERA_MODEL_OPS");
        const auto count = ops ? static_cast<std::size_t>(std::stoull(ops)) : ops_per_run;
        const auto result = tessera_model::run_seed(std::stoull(seed), count);
        ASSERT_FALSE(result.failure) << *result.failure;
        return;
    }

    std::size_t total{};

    for (std::size_t run{}; run < runs_per_case; ++run) {
        const auto seed = GetParam() * 1000u + run;
        const auto result = tessera_model::run_seed(seed, ops_per_run);
        total += result.steps;
        ASSERT_FALSE(result.failure) << "seed " << seed << ": " << *result.failure;
    }

    EXPECT_EQ(total, ops_per_run * runs_per_case);
}

INSTANTIATE_TEST_SUITE_P(Seeds, model_test, ::testing::Range<std::uint64_t>(1u, 21u));

} // namespace

} // namespace unit_model_model
} // namespace
