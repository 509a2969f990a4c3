// The soak runner: model interpreter runs one seed after another for as long as asked.
// Usage: soak [--seconds N] [--ops N] [--seed S] [--run-length N]
#include "model/run.hpp"
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

int main(int argc, char **argv) {
    double seconds = 0.0;
    std::size_t ops = 0u;
    std::size_t run_length = 2000u;
    std::uint64_t seed = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    bool one_seed = false;

    for (int pos = 1; pos + 1 < argc; pos += 2) {
        const std::string flag = argv[pos];
        const char *value = argv[pos + 1];

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
            std::fprintf(stderr, "usage: soak [--seconds N] [--ops N] [--seed S] [--run-length N]\n");
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
