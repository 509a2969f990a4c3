// type_index and family under TESSERA_USE_ATOMIC: types asking for their first index from several threads at
// once get distinct, dense values (the counters are atomic; the function-local statics are thread-safe).
#include <algorithm>
#include <array>
#include <gtest/gtest.h>
#include <tessera/core/family.hpp>
#include <tessera/core/type_info.hpp>
#include <thread>
#include <utility>
#include <vector>

namespace {

template<int Thread, int Index>
struct probe {};

struct family_tag {};
using probe_family = tessera::family<family_tag>;

constexpr int per_thread = 64;
constexpr int thread_count = 4;

template<int Thread, int... Index>
void ask(std::vector<tessera::id_type> &out, std::integer_sequence<int, Index...>) {
    (out.push_back(tessera::type_index<probe<Thread, Index>>::value()), ...);
    (out.push_back(tessera::type_index<probe<Thread, Index>>::value()), ...);
}

TEST(ThreadsAtomic, TypeIndexFromSeveralThreads) {
    std::array<std::vector<tessera::id_type>, thread_count> seen{};
    const auto base = tessera::type_index<family_tag>::value();
    std::thread first{[&seen] { ask<0>(seen[0], std::make_integer_sequence<int, per_thread>{}); }};
    std::thread second{[&seen] { ask<1>(seen[1], std::make_integer_sequence<int, per_thread>{}); }};
    std::thread third{[&seen] { ask<2>(seen[2], std::make_integer_sequence<int, per_thread>{}); }};
    std::thread fourth{[&seen] { ask<3>(seen[3], std::make_integer_sequence<int, per_thread>{}); }};
    first.join();
    second.join();
    third.join();
    fourth.join();

    std::vector<tessera::id_type> all;

    for (const auto &values : seen) {
        ASSERT_EQ(values.size(), 2u * per_thread);
        // asking twice gives the same value
        EXPECT_TRUE(std::equal(values.begin(), values.begin() + per_thread, values.begin() + per_thread));
        all.insert(all.end(), values.begin(), values.begin() + per_thread);
    }

    std::sort(all.begin(), all.end());
    EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end());
    // dense: nothing else asks for an index meanwhile, so the values follow the first one without gaps
    EXPECT_EQ(all.front(), base + 1u);
    EXPECT_EQ(all.back(), base + thread_count * per_thread);
}

TEST(ThreadsAtomic, FamilyValuesFromSeveralThreads) {
    std::array<tessera::id_type, 8> values{};
    // a fixed array: g++ 12 at -O3 warns (-Warray-bounds, a false positive) inside vector<thread>'s first growth
    std::array<std::thread, 8> threads{std::thread{[&values] { values[0] = probe_family::value<probe<0, 0>>; }},
                                       std::thread{[&values] { values[1] = probe_family::value<probe<0, 1>>; }},
                                       std::thread{[&values] { values[2] = probe_family::value<probe<0, 2>>; }},
                                       std::thread{[&values] { values[3] = probe_family::value<probe<0, 3>>; }},
                                       std::thread{[&values] { values[4] = probe_family::value<probe<1, 0>>; }},
                                       std::thread{[&values] { values[5] = probe_family::value<probe<1, 1>>; }},
                                       std::thread{[&values] { values[6] = probe_family::value<probe<1, 2>>; }},
                                       std::thread{[&values] { values[7] = probe_family::value<probe<1, 3>>; }}};

    for (auto &thread : threads) {
        thread.join();
    }

    std::sort(values.begin(), values.end());
    EXPECT_EQ(std::adjacent_find(values.begin(), values.end()), values.end());
    EXPECT_EQ(values.back() - values.front(), 7u);
}

} // namespace
