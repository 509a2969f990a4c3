// The scenario list shared by tessera's benchmark files and their floors (no tessera header here, so floor files
// stay free of the library): registration, entity counts, --quick, and the checksums of the self-check.
#ifndef TESSERA_BENCH_COMMON_HPP
#define TESSERA_BENCH_COMMON_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#ifndef TESSERA_BENCH_CHECK_ONLY
#    include <benchmark/benchmark.h>
#endif

namespace bench {

/// Set by main from --quick: every scenario runs at quick_count only.
inline bool quick = false;

/// The entity counts of a full run. 10^6 rather than 2^20: a 32-bit identifier holds at most 2^20 - 1 live entities.
inline constexpr std::int64_t counts[] = {1'000, 16'384, 262'144, 1'000'000};
inline constexpr std::int64_t quick_count = 16'384;

/// How many steps the self-check runs before comparing checksums: more than one, so state carried between steps
/// (a system reading what another wrote) takes part.
inline constexpr int check_steps = 3;

#ifdef TESSERA_BENCH_CHECK_ONLY
using run_fn = void (*)();
#else
using run_fn = void (*)(benchmark::State &);
#endif
using check_fn = std::uint64_t (*)(std::size_t);

/// One scenario. Its timed runs are named `name/N`; a floor is named `floor/` + the name of the scenario it bounds.
/// check (when set) builds the scenario for N entities, runs check_steps steps and returns a checksum of the state,
/// which must equal the floor's. fixed_count, when not zero, is the only count the scenario runs at (full runs).
struct scenario {
    const char *name;
    run_fn run;
    check_fn check;
    std::int64_t fixed_count;
};

inline std::vector<scenario> &scenarios() {
    static std::vector<scenario> all{};
    return all;
}

struct registrar {
    explicit registrar(const scenario entry) { scenarios().push_back(entry); }
};

/// A 64-bit finalizer, so that the checksum of a state depends on every bit of every field.
constexpr std::uint64_t mix(std::uint64_t value) {
    value ^= value >> 30u;
    value *= 0xbf58476d1ce4e5b9ull;
    value ^= value >> 27u;
    value *= 0x94d049bb133111ebull;
    return value ^ (value >> 31u);
}

inline std::uint64_t bits(const float value) {
    std::uint32_t out{};
    std::memcpy(&out, &value, sizeof(out));
    return out;
}

inline std::uint64_t bits(const double value) {
    std::uint64_t out{};
    std::memcpy(&out, &value, sizeof(out));
    return out;
}

template<typename Integral>
std::uint64_t bits(const Integral value) {
    return static_cast<std::uint64_t>(value);
}

/// An order-independent checksum: ECS and floor visit entities in different orders, but each entity's fields are
/// bound to its index, so a value moved to another entity changes the sum.
struct checksum {
    std::uint64_t value{};

    template<typename... Field>
    void add(const std::uint64_t index, const Field... field) {
        std::uint64_t acc = mix(index + 1u);
        ((acc = mix(acc ^ bits(field))), ...);
        value += acc;
    }
};

/// A fixture has a constructor taking the entity count, step() (the timed work) and checksum().
template<typename Fixture>
std::uint64_t check(const std::size_t count) {
    Fixture fixture{count};

    for (int step{}; step < check_steps; ++step) {
        fixture.step();
    }

    return fixture.checksum();
}

#ifdef TESSERA_BENCH_CHECK_ONLY
template<typename>
void run() {}
#else
template<typename Fixture>
void run(benchmark::State &state) {
    Fixture fixture{static_cast<std::size_t>(state.range(0))};

    for (auto _ : state) {
        fixture.step();
        benchmark::ClobberMemory();
    }

    state.SetItemsProcessed(state.iterations() * state.range(0));
}
#endif

} // namespace bench

#define TESSERA_BENCH_CONCAT_IMPL(lhs, rhs) lhs##rhs
#define TESSERA_BENCH_CONCAT(lhs, rhs) TESSERA_BENCH_CONCAT_IMPL(lhs, rhs)

/// Registers a checked scenario (a fixture): timed and verified against its floor.
#define TESSERA_BENCH_FIXTURE(name, ...)                                                                               \
    static const bench::registrar TESSERA_BENCH_CONCAT(bench_registrar_, __COUNTER__) {                                \
        bench::scenario { name, &bench::run<__VA_ARGS__>, &bench::check<__VA_ARGS__>, 0 }                              \
    }

/// Registers a timed scenario without a floor: function(benchmark::State &), range(0) is the entity count.
#define TESSERA_BENCH(name, function, fixed_count)                                                                     \
    static const bench::registrar TESSERA_BENCH_CONCAT(bench_registrar_, __COUNTER__) {                                \
        bench::scenario { name, &function, nullptr, fixed_count }                                                      \
    }

#endif
