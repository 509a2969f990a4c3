// The suite's entry point: reads --quick, --check-only and --check-count=N, verifies every checked scenario
// against its floor (same checksum), then registers and runs the benchmarks with Google Benchmark.
#include "common.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

bool starts_with(const char *text, const char *prefix) { return std::strncmp(text, prefix, std::strlen(prefix)) == 0; }

const bench::scenario *find(const std::string &name) {
    for (const auto &entry : bench::scenarios()) {
        if (name == entry.name) {
            return &entry;
        }
    }

    return nullptr;
}

// Every checked scenario must have a floor and the same checksum as that floor; every floor must bound a scenario.
bool self_check(const std::vector<std::size_t> &counts) {
    bool good = true;
    std::size_t pairs{};

    for (const auto &entry : bench::scenarios()) {
        if (!entry.check) {
            continue;
        }

        const bool is_floor = starts_with(entry.name, "floor/");
        const auto *other =
            is_floor ? find(entry.name + std::strlen("floor/")) : find(std::string{"floor/"} + entry.name);

        if (!other || !other->check) {
            std::fprintf(stderr, "self-check: %s has no %s\n", entry.name, is_floor ? "scenario" : "floor");
            good = false;
            continue;
        }

        if (is_floor) {
            continue;
        }

        for (const auto count : counts) {
            const auto mine = entry.check(count);
            const auto expected = other->check(count);

            if (mine != expected) {
                std::fprintf(stderr, "self-check: %s/%zu computes %016llx, its floor %016llx\n", entry.name, count,
                             static_cast<unsigned long long>(mine), static_cast<unsigned long long>(expected));
                good = false;
            }
        }

        ++pairs;
    }

    std::fprintf(stderr, "self-check: %zu scenarios against their floors: %s\n", pairs, good ? "ok" : "MISMATCH");
    return good;
}

} // namespace

int main(int argc, char **argv) {
    bool check_only = false;
    std::vector<std::size_t> check_counts{};
    std::vector<char *> rest{};

    for (int arg{}; arg < argc; ++arg) {
        if (std::strcmp(argv[arg], "--quick") == 0) {
            bench::quick = true;
        } else if (std::strcmp(argv[arg], "--check-only") == 0) {
            check_only = true;
        } else if (starts_with(argv[arg], "--check-count=")) {
            check_counts.push_back(std::strtoull(argv[arg] + std::strlen("--check-count="), nullptr, 10));
        } else {
            rest.push_back(argv[arg]);
        }
    }

    if (check_counts.empty()) {
        // an odd size and one past a page of 4096 elements, to catch mistakes at the edges
        check_counts = {1'000u, 16'385u};
    }

    if (!self_check(check_counts)) {
        return EXIT_FAILURE;
    }

#ifdef TESSERA_BENCH_CHECK_ONLY
    static_cast<void>(check_only);
    return EXIT_SUCCESS;
#else
    if (check_only) {
        return EXIT_SUCCESS;
    }

    for (const auto &entry : bench::scenarios()) {
        auto *registered = benchmark::RegisterBenchmark(entry.name, entry.run);

        if (bench::quick) {
            registered->Arg(bench::quick_count)->MinTime(0.05);
        } else if (entry.fixed_count != 0) {
            registered->Arg(entry.fixed_count);
        } else {
            for (const auto count : bench::counts) {
                registered->Arg(count);
            }
        }
    }

    int remaining = static_cast<int>(rest.size());
    benchmark::Initialize(&remaining, rest.data());

    if (benchmark::ReportUnrecognizedArguments(remaining, rest.data())) {
        return EXIT_FAILURE;
    }

    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return EXIT_SUCCESS;
#endif
}
