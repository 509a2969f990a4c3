// The model test's entry point: GoogleTest's cases by default, or the soak runner with `--soak`, which runs the
// model interpreter one seed after another for as long as asked (one executable, so that the model's code is built
// once per configuration).
// Usage: tessera_test_model [gtest flags]
//        tessera_test_model --soak [--seconds N] [--ops N] [--seed S] [--run-length N]
#include "model/run.hpp"
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <gtest/gtest.h>
#include <string>

namespace {
namespace unit_model_main {

namespace {

int soak(const int argc, char **argv) {
    double seconds = 0.0;
    std::size_t ops = 0u;
    std::size_t run_length = 2000u;
    std::uint64_t seed = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    bool one_seed = false;

    // flags come in pairs: a flag without its value is a usage error
    for (int pos = 0; pos < argc; pos += 2) {
        const std::string flag = pos + 1 < argc ? argv[pos] : "";
        const char *value = pos + 1 < argc ? argv[pos + 1] : nullptr;

        if (flag == "--seconds") {
            seconds = std::stod(value);
        } else if (flag == "--ops") {
            ops = static_cast<std::size_t>(std::stoull(value));
        } else if (flag == "--seed") {
            seed = std::stoull(value);
            one_seed = true;
        } else if (flag == "--run-length") {
            run_length = static_cast<std::size_t>(std::stoull(value));
        } else {
            std::fprintf(stderr,
                         "usage: tessera_test_model --soak [--seconds N] [--ops N] [--seed S] [--run-length N]\n");
            return 2;
        }
    }

    if (seconds <= 0.0 && ops == 0u) {
        seconds = 10.0;
    }

    // with --seed and --ops alone, replay exactly that run
    if (one_seed && seconds <= 0.0) {
        run_length = ops;
    }

    const auto start = std::chrono::steady_clock::now();
    const auto elapsed = [start] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    std::size_t total{};
    std::size_t runs{};

    while ((ops == 0u || total < ops) && (seconds <= 0.0 || elapsed() < seconds)) {
        const auto length = ops ? std::min(run_length, ops - total) : run_length;
        const auto result = tessera_model::run_seed(seed + runs, length);
        total += result.steps;
        ++runs;

        if (result.failure) {
            std::printf("soak: divergence after %zu operations\n%s\n", total, result.failure->c_str());
            return 1;
        }
    }

    std::printf("soak: %zu operations in %zu runs (first seed %llu), %.1f s, %.0f ops/s, no divergence\n", total, runs,
                static_cast<unsigned long long>(seed), elapsed(), static_cast<double>(total) / elapsed());
    return 0;
}

} // namespace

} // namespace unit_model_main
} // namespace

int main(int argc, char **argv) {
    if (argc > 1 && std::strcmp(argv[1], "--soak") == 0) {
        return unit_model_main::soak(argc - 2, argv + 2);
    }

    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
