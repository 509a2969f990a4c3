// Tests of tessera/execution/executor.hpp: dependencies respected, independent tasks really concurrent,
// synchronization points alone on the calling thread, exceptions, reuse, and no allocation per pass.
#include <tessera/entity/organizer.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/view.hpp>
#include <tessera/execution/executor.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <oneapi/tbb/task_arena.h>

#include "support/misuse.hpp"

// Every operator new of this test program is counted, so that a test can check that a pass allocates nothing. All
// the forms are replaced: AddressSanitizer's runtime defines them together, and one left out would bring its own
// back. ThreadSanitizer's runtime always links its own, so there the count is left out.
#if defined(__SANITIZE_THREAD__)
#    define TESSERA_TEST_COUNTS_NEW 0
#elif defined(__has_feature)
#    if __has_feature(thread_sanitizer)
#        define TESSERA_TEST_COUNTS_NEW 0
#    endif
#endif
#ifndef TESSERA_TEST_COUNTS_NEW
#    define TESSERA_TEST_COUNTS_NEW 1
#endif

#if TESSERA_TEST_COUNTS_NEW
namespace {
std::atomic<std::size_t> allocations{0u};

void *counted_allocation(std::size_t size, std::size_t alignment = 0u) noexcept {
    allocations.fetch_add(1u, std::memory_order_relaxed);
    size = size == 0u ? 1u : size;

    if (alignment <= alignof(std::max_align_t)) {
        return std::malloc(size);
    }

    // aligned_alloc wants a multiple of the alignment
    return std::aligned_alloc(alignment, (size + alignment - 1u) / alignment * alignment);
}

void *counted_or_throw(std::size_t size, std::size_t alignment = 0u) {
    if (void *memory = counted_allocation(size, alignment)) {
        return memory;
    }

    throw std::bad_alloc{};
}
} // namespace

void *operator new(std::size_t size) { return counted_or_throw(size); }
void *operator new[](std::size_t size) { return counted_or_throw(size); }
void *operator new(std::size_t size, const std::nothrow_t &) noexcept { return counted_allocation(size); }
void *operator new[](std::size_t size, const std::nothrow_t &) noexcept { return counted_allocation(size); }
void *operator new(std::size_t size, std::align_val_t align) {
    return counted_or_throw(size, static_cast<std::size_t>(align));
}
void *operator new[](std::size_t size, std::align_val_t align) {
    return counted_or_throw(size, static_cast<std::size_t>(align));
}
void *operator new(std::size_t size, std::align_val_t align, const std::nothrow_t &) noexcept {
    return counted_allocation(size, static_cast<std::size_t>(align));
}
void *operator new[](std::size_t size, std::align_val_t align, const std::nothrow_t &) noexcept {
    return counted_allocation(size, static_cast<std::size_t>(align));
}
void operator delete(void *memory) noexcept { std::free(memory); }
void operator delete[](void *memory) noexcept { std::free(memory); }
void operator delete(void *memory, const std::nothrow_t &) noexcept { std::free(memory); }
void operator delete[](void *memory, const std::nothrow_t &) noexcept { std::free(memory); }
void operator delete(void *memory, std::size_t) noexcept { std::free(memory); }
void operator delete[](void *memory, std::size_t) noexcept { std::free(memory); }
void operator delete(void *memory, std::align_val_t) noexcept { std::free(memory); }
void operator delete[](void *memory, std::align_val_t) noexcept { std::free(memory); }
void operator delete(void *memory, std::align_val_t, const std::nothrow_t &) noexcept { std::free(memory); }
void operator delete[](void *memory, std::align_val_t, const std::nothrow_t &) noexcept { std::free(memory); }
void operator delete(void *memory, std::size_t, std::align_val_t) noexcept { std::free(memory); }
void operator delete[](void *memory, std::size_t, std::align_val_t) noexcept { std::free(memory); }
#endif

namespace {

using namespace std::chrono_literals;

// Resources that only order tasks: a task that names tag<N> writes it, `const tag<N>` reads it.
template<int N>
struct tag {};

// What the tasks of one test saw: a logical clock, start and end stamps, threads, and how many ran at once.
struct journal {
    static constexpr std::size_t capacity = 16u;

    std::atomic<std::size_t> clock{1u};
    std::array<std::atomic<std::size_t>, capacity> start{};
    std::array<std::atomic<std::size_t>, capacity> end{};
    std::array<std::thread::id, capacity> thread{};
    std::atomic<int> active{0};
    std::atomic<int> most_active{0};
    std::atomic<int> runs{0};

    void reset() {
        for (std::size_t pos{}; pos < capacity; ++pos) {
            start[pos] = 0u;
            end[pos] = 0u;
        }

        active = 0;
        most_active = 0;
        runs = 0;
    }
};

// One task: stamps its start and end, can sleep, throw, or wait for a partner to run at the same time.
struct probe {
    journal *log{};
    std::size_t id{};
    std::chrono::microseconds work{0};
    bool fail{};
    // meet: every probe with the same meeting point waits (up to a timeout) until all of them are running
    std::atomic<int> *meeting{};
    int meeting_size{};
    bool met{};
    tessera::execution::executor *nested{};
    tessera::registry *registry{};

    void enter() {
        log->start[id] = log->clock.fetch_add(1u);
        log->thread[id] = std::this_thread::get_id();
        const int now = log->active.fetch_add(1) + 1;
        int seen = log->most_active.load();

        while (now > seen && !log->most_active.compare_exchange_weak(seen, now)) {
        }

        log->runs.fetch_add(1);
    }

    void body() {
        if (meeting != nullptr) {
            meeting->fetch_add(1);
            const auto deadline = std::chrono::steady_clock::now() + 10s;

            while (meeting->load() < meeting_size && std::chrono::steady_clock::now() < deadline) {
                std::this_thread::yield();
            }

            met = meeting->load() >= meeting_size;
        }

        if (work.count() != 0) {
            std::this_thread::sleep_for(work);
        }

        if (nested != nullptr) {
            nested->run(*registry);
        }
    }

    void leave() {
        log->active.fetch_sub(1);
        log->end[id] = log->clock.fetch_add(1u);

        if (fail) {
            throw std::runtime_error{"task " + std::to_string(id) + " failed"};
        }
    }

    void step(const tessera::registry &) {
        enter();
        body();
        leave();
    }

    void sync(tessera::registry &) {
        enter();
        body();
        leave();
    }
};

// Probes with ids 0..count-1 writing to `log`.
template<std::size_t Count>
std::array<probe, Count> make_probes(journal &log) {
    std::array<probe, Count> result{};

    for (std::size_t pos{}; pos < Count; ++pos) {
        result[pos].log = &log;
        result[pos].id = pos;
    }

    return result;
}

// What most tests start from: a journal, Count probes writing to it, a registry and an organizer.
template<std::size_t Count>
struct scene {
    journal log{};
    std::array<probe, Count> probes = make_probes<Count>(log);
    tessera::registry registry{};
    tessera::organizer organizer{};
};

template<std::size_t Count>
void set_work(std::array<probe, Count> &probes, const std::chrono::microseconds work) {
    for (auto &elem : probes) {
        elem.work = work;
    }
}

// Every edge of the graph was respected: a task started after each of its parents ended.
void expect_order(const std::vector<tessera::organizer::vertex> &graph, const journal &log) {
    for (std::size_t curr{}; curr < graph.size(); ++curr) {
        for (auto parent : graph[curr].in_edges()) {
            EXPECT_LT(log.end[parent].load(), log.start[curr].load()) << "task " << curr << " after " << parent;
        }
    }
}

TEST(Executor, EmptyGraph) {
    tessera::registry registry;
    tessera::organizer organizer;
    tessera::execution::executor executor{organizer.graph()};

    EXPECT_EQ(executor.size(), 0u);
    executor.prepare(registry);
    executor.run(registry);
    executor.run(registry);
    tessera::execution::run(organizer.graph(), registry);
}

TEST(Executor, ChainRunsInOrder) {
    scene<5> world{};
    auto &[log, probes, registry, organizer] = world;

    // each task writes tag<0>: every one waits for the previous
    for (auto &elem : probes) {
        organizer.emplace<&probe::step, tag<0>>(elem);
    }

    const auto graph = organizer.graph();
    tessera::execution::executor executor{graph};
    EXPECT_EQ(executor.size(), 5u);
    executor.run(registry);

    EXPECT_EQ(log.runs.load(), 5);
    EXPECT_EQ(log.most_active.load(), 1);

    for (std::size_t pos = 1u; pos < probes.size(); ++pos) {
        EXPECT_LT(log.end[pos - 1u].load(), log.start[pos].load());
    }

    // each task of a chain runs alone: on the calling thread, like a synchronization point
    for (std::size_t pos{}; pos < probes.size(); ++pos) {
        EXPECT_EQ(log.thread[pos], std::this_thread::get_id());
    }
}

TEST(Executor, TaskStartsAfterItsDependencies) {
    scene<8> world{};
    auto &[log, probes, registry, organizer] = world;

    set_work(probes, 200us);

    // two chains that meet, a fan-out and a fan-in:
    // 0 -> 2 -> 4 ; 1 -> 3 -> 4 ; 4 -> 5, 6 ; 5, 6 -> 7
    organizer.emplace<&probe::step, tag<0>>(probes[0]);
    organizer.emplace<&probe::step, tag<1>>(probes[1]);
    organizer.emplace<&probe::step, tag<0>>(probes[2]);
    organizer.emplace<&probe::step, tag<1>>(probes[3]);
    organizer.emplace<&probe::step, tag<0>, tag<1>>(probes[4]);
    organizer.emplace<&probe::step, const tag<0>, tag<2>>(probes[5]);
    organizer.emplace<&probe::step, const tag<0>, tag<3>>(probes[6]);
    organizer.emplace<&probe::step, tag<2>, tag<3>>(probes[7]);

    const auto graph = organizer.graph();
    ASSERT_EQ(graph[4].in_edges().size(), 2u);
    ASSERT_EQ(graph[7].in_edges().size(), 2u);
    tessera::execution::executor executor{graph};

    for (int round{}; round < 20; ++round) {
        log.reset();
        executor.run(registry);
        EXPECT_EQ(log.runs.load(), 8);
        expect_order(graph, log);
    }
}

// Plain (non-atomic) data handed from task to task along the edges, and back to the caller: under ThreadSanitizer,
// a missing happens-before between a task and its children would be reported here.
struct relay {
    std::array<int, 6> *cells{};
    std::size_t id{};

    void pass(const tessera::registry &) {
        // every parent wrote its cell before this task started: 0 feeds 1 to 4, and 1 to 4 feed 5
        const int parents =
            id == 0u ? 0 : (id == 5u ? (*cells)[1] + (*cells)[2] + (*cells)[3] + (*cells)[4] : (*cells)[0]);
        (*cells)[id] = parents + 1;
    }
};

TEST(Executor, DataWrittenByATaskIsSeenByItsChildrenAndTheCaller) {
    std::array<int, 6> cells{};
    std::array<relay, 6> relays{};
    tessera::registry registry;
    tessera::organizer organizer;

    for (std::size_t pos{}; pos < relays.size(); ++pos) {
        relays[pos] = relay{&cells, pos};
    }

    organizer.emplace<&relay::pass, tag<0>>(relays[0]);
    organizer.emplace<&relay::pass, const tag<0>, tag<1>>(relays[1]);
    organizer.emplace<&relay::pass, const tag<0>, tag<2>>(relays[2]);
    organizer.emplace<&relay::pass, const tag<0>, tag<3>>(relays[3]);
    organizer.emplace<&relay::pass, const tag<0>, tag<4>>(relays[4]);
    organizer.emplace<&relay::pass, tag<1>, tag<2>, tag<3>, tag<4>>(relays[5]);
    tessera::execution::executor executor{organizer.graph()};

    for (int round{}; round < 50; ++round) {
        cells.fill(0);
        executor.run(registry);
        EXPECT_EQ(cells[0], 1);
        EXPECT_EQ(cells[1] + cells[2] + cells[3] + cells[4], 8);
        EXPECT_EQ(cells[5], 9);
    }
}

TEST(Executor, IndependentTasksRunConcurrently) {
    if (tbb::this_task_arena::max_concurrency() < 2) {
        GTEST_SKIP() << "oneTBB has one thread here: it runs one task at a time";
    }

    scene<2> world{};
    auto &[log, probes, registry, organizer] = world;
    std::atomic<int> meeting{0};

    for (auto &elem : probes) {
        elem.meeting = &meeting;
        elem.meeting_size = 2;
    }

    // disjoint resources: no edge, so both may run at once, and each waits until the other is running
    organizer.emplace<&probe::step, tag<0>>(probes[0]);
    organizer.emplace<&probe::step, tag<1>>(probes[1]);
    tessera::execution::executor executor{organizer.graph()};
    executor.run(registry);

    EXPECT_TRUE(probes[0].met);
    EXPECT_TRUE(probes[1].met);
    EXPECT_EQ(log.most_active.load(), 2);
}

TEST(Executor, SynchronizationPointRunsAloneOnCallingThread) {
    scene<7> world{};
    auto &[log, probes, registry, organizer] = world;

    set_work(probes, 300us);

    organizer.emplace<&probe::step, tag<0>>(probes[0]);
    organizer.emplace<&probe::step, tag<1>>(probes[1]);
    organizer.emplace<&probe::step, tag<2>>(probes[2]);
    organizer.emplace<&probe::sync>(probes[3]); // takes tessera::registry &: a synchronization point
    organizer.emplace<&probe::step, tag<0>>(probes[4]);
    organizer.emplace<&probe::step, tag<1>>(probes[5]);
    organizer.emplace<&probe::step, tag<2>>(probes[6]);

    const auto graph = organizer.graph();
    tessera::execution::executor executor{graph};

    for (int round{}; round < 10; ++round) {
        log.reset();
        executor.run(registry);
        EXPECT_EQ(log.runs.load(), 7);
        expect_order(graph, log);
        EXPECT_EQ(log.thread[3], std::this_thread::get_id());

        // alone: every other task ended before it started, or started after it ended
        for (std::size_t pos{}; pos < probes.size(); ++pos) {
            if (pos != 3u) {
                EXPECT_TRUE(log.end[pos] < log.start[3] || log.start[pos] > log.end[3]) << "task " << pos;
            }
        }
    }
}

TEST(Executor, RawTasksAreSynchronizationPoints) {
    tessera::registry registry;
    tessera::organizer organizer;
    static std::thread::id seen{};
    static std::atomic<int> calls{0};
    calls = 0;

    organizer.emplace(+[](const void *, tessera::registry &) {
        seen = std::this_thread::get_id();
        calls.fetch_add(1);
    });
    organizer.emplace(+[](const void *, tessera::registry &) { calls.fetch_add(1); });

    tessera::execution::run(organizer.graph(), registry);
    EXPECT_EQ(calls.load(), 2);
    EXPECT_EQ(seen, std::this_thread::get_id());
}

struct position {
    int x{};
};

struct settings {
    int value{};
};

void move(tessera::view<tessera::get_t<position>>, const settings &) {}

TEST(Executor, PrepareCreatesPoolsAndContextVariables) {
    tessera::registry registry;
    tessera::organizer organizer;
    organizer.emplace<&move>();
    const tessera::execution::executor executor{organizer.graph()};

    EXPECT_EQ(registry.storage(tessera::type_hash<position>::value()), nullptr);
    EXPECT_FALSE(registry.ctx().contains<settings>());
    executor.prepare(registry);
    EXPECT_NE(registry.storage(tessera::type_hash<position>::value()), nullptr);
    EXPECT_TRUE(registry.ctx().contains<settings>());
}

TEST(Executor, ExceptionStopsTasksNotStartedAndIsRethrownAfterThePass) {
    scene<4> world{};
    auto &[log, probes, registry, organizer] = world;

    // 0 throws; 1 depends on it and must not start; 2 is independent and slow: it may be running then, and must
    // have finished when run() rethrows (3, after 2, starts only if 2 ended before 0 threw)
    probes[0].fail = true;
    probes[2].work = 20ms;
    organizer.emplace<&probe::step, tag<0>>(probes[0]);
    organizer.emplace<&probe::step, tag<0>>(probes[1]);
    organizer.emplace<&probe::step, tag<1>>(probes[2]);
    organizer.emplace<&probe::step, tag<1>>(probes[3]);
    tessera::execution::executor executor{organizer.graph()};

    try {
        executor.run(registry);
        ADD_FAILURE() << "run() did not rethrow";
    } catch (const std::runtime_error &error) {
        EXPECT_STREQ(error.what(), "task 0 failed");
        EXPECT_EQ(log.active.load(), 0);
    }

    EXPECT_NE(log.end[0].load(), 0u);
    EXPECT_EQ(log.start[1].load(), 0u);

    // reusable: the same executor runs every task once nothing throws
    probes[0].fail = false;
    log.reset();
    executor.run(registry);
    EXPECT_EQ(log.runs.load(), 4);
}

TEST(Executor, FirstOfTwoExceptionsIsRethrown) {
    scene<3> world{};
    auto &[log, probes, registry, organizer] = world;

    probes[0].fail = true;
    probes[1].fail = true;
    probes[1].work = 20ms;
    organizer.emplace<&probe::step, tag<0>>(probes[0]);
    organizer.emplace<&probe::step, tag<1>>(probes[1]);
    organizer.emplace<&probe::step, tag<0>, tag<1>>(probes[2]);
    tessera::execution::executor executor{organizer.graph()};

    for (int round{}; round < 3; ++round) {
        log.reset();

        try {
            executor.run(registry);
            ADD_FAILURE() << "run() did not rethrow";
        } catch (const std::runtime_error &error) {
            // a task that has not started when the other threw never starts
            const bool zero_first = log.end[0] != 0u && (log.end[1] == 0u || log.end[0] < log.end[1]);
            const std::string first = zero_first ? "task 0 failed" : "task 1 failed";
            EXPECT_EQ(error.what(), first);
            EXPECT_EQ(log.active.load(), 0);
        }

        EXPECT_EQ(log.start[2].load(), 0u);
    }
}

TEST(Executor, ExceptionOfSynchronizationPoint) {
    scene<3> world{};
    auto &[log, probes, registry, organizer] = world;

    probes[1].fail = true;
    organizer.emplace<&probe::step, tag<0>>(probes[0]);
    organizer.emplace<&probe::sync>(probes[1]);
    organizer.emplace<&probe::step, tag<0>>(probes[2]);
    tessera::execution::executor executor{organizer.graph()};

    EXPECT_THROW(executor.run(registry), std::runtime_error);
    EXPECT_EQ(log.runs.load(), 2);
    EXPECT_EQ(log.start[2].load(), 0u);

    probes[1].fail = false;
    log.reset();
    executor.run(registry);
    EXPECT_EQ(log.runs.load(), 3);
}

TEST(Executor, NoAllocationPerPass) {
    if (!TESSERA_TEST_COUNTS_NEW) {
        GTEST_SKIP() << "ThreadSanitizer's runtime owns operator new: the allocations are not counted";
    }

    scene<8> world{};
    auto &[log, probes, registry, organizer] = world;

    // two independent fans around a synchronization point, so that both kinds of work are counted
    organizer.emplace<&probe::step, tag<0>>(probes[0]);
    organizer.emplace<&probe::step, tag<1>>(probes[1]);
    organizer.emplace<&probe::step, const tag<0>, tag<2>>(probes[2]);
    organizer.emplace<&probe::step, const tag<0>, tag<3>>(probes[3]);
    organizer.emplace<&probe::sync>(probes[4]);
    organizer.emplace<&probe::step, tag<0>>(probes[5]);
    organizer.emplace<&probe::step, tag<1>>(probes[6]);
    organizer.emplace<&probe::step, tag<2>>(probes[7]);
    tessera::execution::executor executor{organizer.graph()};

    // the first passes start oneTBB's workers
    for (int round{}; round < 5; ++round) {
        executor.run(registry);
    }

#if TESSERA_TEST_COUNTS_NEW
    const auto before = allocations.load();
#endif

    for (int round{}; round < 200; ++round) {
        executor.run(registry);
    }

#if TESSERA_TEST_COUNTS_NEW
    EXPECT_EQ(allocations.load() - before, 0u);
#endif
    EXPECT_EQ(log.runs.load(), 205 * 8);
}

TEST(Executor, RunWhileRunningIsMisuse) {
    scene<3> world{};
    auto &[log, probes, registry, organizer] = world;
    organizer.emplace<&probe::step, tag<0>>(probes[0]);
    organizer.emplace<&probe::step, tag<1>>(probes[1]);
    organizer.emplace<&probe::sync>(probes[2]);
    tessera::execution::executor executor{organizer.graph()};

    // from a task that runs concurrently with another, and from a synchronization point
    probes[0].nested = &executor;
    probes[0].registry = &registry;
    EXPECT_MISUSE(executor.run(registry), "executor::run: called while a pass of the same executor is still running");
    probes[0].nested = nullptr;
    probes[2].nested = &executor;
    probes[2].registry = &registry;
    EXPECT_MISUSE(executor.run(registry), "executor::run: called while a pass of the same executor is still running");
    probes[2].nested = nullptr;

    log.reset();
    executor.run(registry);
    EXPECT_EQ(log.runs.load(), 3);
}

TEST(Executor, OneShotRun) {
    scene<3> world{};
    auto &[log, probes, registry, organizer] = world;
    organizer.emplace<&probe::step, tag<0>>(probes[0]);
    organizer.emplace<&probe::step, const tag<0>>(probes[1]);
    organizer.emplace<&probe::step, tag<0>>(probes[2]);

    const auto graph = organizer.graph();
    tessera::execution::run(graph, registry);
    EXPECT_EQ(log.runs.load(), 3);
    expect_order(graph, log);
}

} // namespace
