// Runs of the model interpreter shared by the model test and its soak mode (main.cpp): one run is a fresh registry
// and model driven by one seed; a failure message names the seed so that the run can be replayed.
#ifndef TESSERA_TEST_MODEL_RUN_HPP
#define TESSERA_TEST_MODEL_RUN_HPP

#include "model/interpreter.hpp"
#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>

namespace tessera_model {

/// The outcome of one run: empty if the registry agreed with the model at every step.
struct run_result {
    std::size_t steps{};
    std::optional<std::string> failure{};
};

/// Runs `ops` operations from `seed` on a fresh registry. Divergences and failed assertions become the failure.
inline run_result run_seed(const std::uint64_t seed, const std::size_t ops) {
    chooser source{seed};
    interpreter machine{source};
    run_result result{};

    try {
        machine.run(ops);
    } catch (const std::exception &error) {
        result.failure = std::string{error.what()} + "\n  replay: TESSERA_MODEL_SEED=" + std::to_string(seed) +
                         " TESSERA_MODEL_OPS=" + std::to_string(machine.steps()) +
                         " tessera_test_model --gtest_filter='*/1'" + " (or tessera_test_model --soak --seed " +
                         std::to_string(seed) + " --ops " + std::to_string(machine.steps()) + ")";
    }

    result.steps = machine.steps();
    return result;
}

} // namespace tessera_model

#endif
