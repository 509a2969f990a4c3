// Race detection (TESSERA_DEBUG_RACES=1, this executable only): two threads that overlap on one pool in a way
// docs/thread_safety.md forbids fail TESSERA_ASSERT with a message naming the pool's type and both operations.
// Every overlap is made deterministic with latches: one thread holds an operation (it waits inside a callback or a
// listener) while the other tries its own and gets the assertion before touching anything, so nothing actually
// races and ThreadSanitizer (`tsan` preset) stays quiet.
#include "sparse_set_layout.hpp"
#include <array>
#include <atomic>
#include <cstddef>
#include <functional>
#include <gtest/gtest.h>
#include <latch>
#include <string>
#include <support/misuse.hpp>
#include <tessera/entity/checks/race_guard.hpp>
#include <tessera/entity/group.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/view.hpp>
#include <thread>
#include <typeinfo>
#include <utility>

namespace {

static_assert(TESSERA_DEBUG_RACES == 1, "races.cpp is built with TESSERA_DEBUG_RACES=1");
// the guard is the only thing the macro adds to a sparse set
static_assert(sizeof(tessera::sparse_set) ==
              sizeof(tessera_test::sparse_set_layout) + sizeof(tessera::internal::race_guard));

TEST(RaceDetectionBuild, MismatchedUnitsDoNotLink) {
    // the ABI tag of the sparse set and the registry (config.hpp, TESSERA_RACES_ABI) is part of their mangled names,
    // hence of every function that takes them: a unit built without the macro cannot call this unit's functions
    EXPECT_NE(std::string{typeid(tessera::registry).name()}.find("tessera_debug_races"), std::string::npos);
    EXPECT_NE(std::string{typeid(tessera::sparse_set).name()}.find("tessera_debug_races"), std::string::npos);
    EXPECT_NE(std::string{typeid(tessera::storage_for_t<int>).name()}.find("tessera_debug_races"), std::string::npos)
        << "the registry's storages name the registry type in their mixin";
}

struct position {
    int x;
};

struct velocity {
    int dx;
};

struct tag {};

// The expected message: `operation` on the pool of Type met `what` `other` held by another thread.
template<typename Type>
std::string race(const std::string &operation, const std::string &what, const std::string &other) {
    return operation + " on the pool of " + std::string{tessera::type_id<Type>().name()} + " while another thread " +
           what + " it (" + other + ")";
}

// A registry with a few entities that have a position and a velocity, every pool created up front.
struct RaceDetection : testing::Test {
    RaceDetection() {
        for (int value{}; value < 4; ++value) {
            entities[value] = registry.create();
            registry.emplace<position>(entities[value], value);
            registry.emplace<velocity>(entities[value], 1);
        }

        static_cast<void>(registry.storage<tag>());
        spare = registry.create();
    }

    tessera::registry registry;
    tessera::entity entities[4]{};
    tessera::entity spare{};
};

// Thread A runs `hold` which must call `inside()` while it holds its operation; thread B runs `attempt` once A is
// there, and A leaves only after B is done.
template<typename Hold, typename Attempt>
void overlap(Hold hold, Attempt attempt) {
    std::latch held{1};
    std::latch done{1};
    std::atomic<bool> once{};
    const auto inside = [&] {
        if (!once.exchange(true)) {
            held.count_down();
            done.wait();
        }
    };
    std::thread holder{[&] { hold(inside); }};
    held.wait();
    attempt();
    done.count_down();
    holder.join();
}

// A listener in which the writing thread waits, so that its write stays under way.
struct waiting_listener {
    std::function<void()> inside{[] {}};
    void notify(tessera::registry &, tessera::entity) { inside(); }
};

// Thread A runs `write`, a call that fires the signal of `sink`, and waits in the listener; thread B runs `attempt`
// meanwhile.
template<typename Sink, typename Write, typename Attempt>
void overlap_in_listener(Sink sink, Write write, Attempt attempt) {
    waiting_listener listener;
    sink.template connect<&waiting_listener::notify>(listener);
    overlap(
        [&](auto inside) {
            listener.inside = inside;
            write();
        },
        attempt);
    sink.template disconnect<&waiting_listener::notify>(listener);
}

TEST_F(RaceDetection, EmplaceWhileAnotherThreadIterates) {
    overlap([&](auto inside) { registry.view<position>().each([&](position &) { inside(); }); },
            [&] { EXPECT_MISUSE(registry.emplace<position>(spare, 9), race<position>("emplace", "reads", "each")); });
    // the failed emplace changed nothing, and works once the pass is over
    EXPECT_FALSE(registry.all_of<position>(spare));
    registry.emplace<position>(spare, 9);
    EXPECT_EQ(registry.get<position>(spare).x, 9);
}

TEST_F(RaceDetection, StructuralChangesWhileAnotherThreadIteratesAView) {
    overlap([&](auto inside) { registry.view<position, velocity>().each([&](position &, velocity &) { inside(); }); },
            [&] {
                EXPECT_MISUSE(registry.erase<velocity>(entities[0]), race<velocity>("erase", "reads", "each"));
                EXPECT_MISUSE(registry.remove<position>(entities[1]), race<position>("erase", "reads", "each"));
                EXPECT_MISUSE(registry.clear<velocity>(), race<velocity>("clear", "reads", "each"));
                EXPECT_MISUSE(
                    registry.sort<position>([](const position &lhs, const position &rhs) { return lhs.x < rhs.x; }),
                    race<position>("sort", "reads", "each"));
                EXPECT_MISUSE(registry.storage<position>().shrink_to_fit(),
                              race<position>("shrink_to_fit", "reads", "each"));
                EXPECT_MISUSE(registry.destroy(entities[2]), "while another thread reads it (each)");
                // a pool the view does not walk is free
                registry.emplace<tag>(spare);
            });
    EXPECT_TRUE(registry.all_of<velocity>(entities[0]));
    EXPECT_TRUE(registry.valid(entities[2]));
    EXPECT_EQ(registry.storage<velocity>().size(), 4u);
}

TEST_F(RaceDetection, PatchWhileAnotherThreadIterates) {
    overlap([&](auto inside) { registry.view<position>().each([&](position &) { inside(); }); },
            [&] {
                EXPECT_MISUSE(registry.patch<position>(entities[0], [](position &pos) { pos.x = 100; }),
                              race<position>("patch", "reads", "each"));
                EXPECT_MISUSE(registry.replace<position>(entities[0], 100), race<position>("replace", "reads", "each"));
                EXPECT_MISUSE(registry.emplace_or_replace<position>(entities[0], 100),
                              race<position>("emplace_or_replace", "reads", "each"));
            });
    EXPECT_EQ(registry.get<position>(entities[0]).x, 0);
}

TEST_F(RaceDetection, IterationWhileAnotherThreadPatches) {
    overlap_in_listener(
        registry.on_update<position>(), [&] { registry.patch<position>(entities[0]); },
        [&] {
            EXPECT_MISUSE(registry.view<position>().each([](position &) {}),
                          race<position>("each", "modifies", "patch"));
            EXPECT_MISUSE(static_cast<void>(registry.get<position>(entities[1])),
                          race<position>("get", "modifies", "patch"));
        });
}

TEST_F(RaceDetection, WriterAgainstWriter) {
    const auto other = registry.create();

    overlap_in_listener(
        registry.on_construct<position>(), [&] { registry.emplace<position>(spare, 1); },
        [&] {
            EXPECT_MISUSE(registry.emplace<position>(other, 2), race<position>("emplace", "modifies", "emplace"));
            EXPECT_MISUSE(registry.remove<position>(entities[0]), race<position>("erase", "modifies", "emplace"));
            // a read fails too (erase checks all_of first)
            EXPECT_MISUSE(registry.erase<position>(entities[0]),
                          race<position>("all_of/any_of", "modifies", "emplace"));
            // another pool is free
            registry.emplace<velocity>(other, 2);
        });
    EXPECT_TRUE(registry.all_of<position>(spare));
    EXPECT_FALSE(registry.all_of<position>(other));
}

TEST_F(RaceDetection, ReadsDuringAnotherThreadsEmplace) {
    overlap_in_listener(
        registry.on_construct<position>(), [&] { registry.emplace<position>(spare, 1); },
        [&] {
            EXPECT_MISUSE(static_cast<void>(registry.get<position>(entities[0])),
                          race<position>("get", "modifies", "emplace"));
            EXPECT_MISUSE(static_cast<void>(std::as_const(registry).get<position>(entities[0])),
                          race<position>("get", "modifies", "emplace"));
            EXPECT_MISUSE(static_cast<void>(registry.try_get<position>(entities[0])),
                          race<position>("try_get", "modifies", "emplace"));
            EXPECT_MISUSE(static_cast<void>(registry.all_of<position>(entities[0])),
                          race<position>("all_of/any_of", "modifies", "emplace"));
            EXPECT_MISUSE(static_cast<void>(registry.any_of<position>(entities[0])),
                          race<position>("all_of/any_of", "modifies", "emplace"));
            // reads of other pools are free
            EXPECT_EQ(registry.get<velocity>(entities[0]).dx, 1);
        });
}

TEST_F(RaceDetection, ReadersAlongsideReaders) {
    // both threads inside each(func) of the same pools at once, the second one reading with get as well
    std::latch both{2};
    const auto walk = [&] {
        bool first = true;
        registry.view<position, velocity>().each([&](const tessera::entity entt, position &pos, velocity &) {
            if (std::exchange(first, false)) {
                both.arrive_and_wait();
            }
            EXPECT_EQ(std::as_const(registry).get<position>(entt).x, pos.x);
            EXPECT_NE(registry.try_get<velocity>(entt), nullptr);
            EXPECT_TRUE((registry.all_of<position, velocity>(entt)));
        });
    };
    std::thread other{walk};
    walk();
    other.join();
}

TEST_F(RaceDetection, SameThreadNesting) {
    int constructed{};
    struct counter {
        int *count;
        void on_construct(tessera::registry &reg, const tessera::entity entt) {
            // a listener reads the pool that is being written
            *count += reg.get<velocity>(entt).dx;
        }
    } count{&constructed};
    registry.on_construct<velocity>().connect<&counter::on_construct>(count);

    int visits{};
    registry.view<position>().each([&](const tessera::entity entt, position &pos) {
        // the pool being walked: patched and read; another pool written; a nested pass over the same pool
        registry.patch<position>(entt, [](position &value) { ++value.x; });
        EXPECT_EQ(registry.get<position>(entt).x, pos.x);
        registry.emplace_or_replace<velocity>(entt, 2);
        registry.view<position>().each([&](position &) { ++visits; });
    });
    EXPECT_EQ(visits, 16);
    EXPECT_EQ(constructed, 0); // every entity had a velocity: replaced, not constructed
    registry.emplace<velocity>(spare, 5);
    EXPECT_EQ(constructed, 5);

    auto group = registry.group<position>(tessera::get<velocity>);
    group.each([&](const tessera::entity entt, position &, velocity &) { registry.patch<velocity>(entt); });
}

TEST_F(RaceDetection, EmplaceWhileAnotherThreadIteratesAGroup) {
    auto group = registry.group<position>(tessera::get<velocity>);
    overlap([&](auto inside) { group.each([&](position &, velocity &) { inside(); }); },
            [&] {
                EXPECT_MISUSE(registry.emplace<velocity>(spare, 1), race<velocity>("emplace", "reads", "group each"));
                EXPECT_MISUSE(registry.erase<position>(entities[0]), race<position>("erase", "reads", "group each"));
            });
    EXPECT_EQ(group.size(), 4u);
}

TEST_F(RaceDetection, ParallelPassForbidsEveryWrite) {
    auto &pool = registry.storage<position>();
    const tessera::sparse_set *unset{};
    {
        const tessera::internal::race_read_scope pass{"parallel_each", &pool, &registry.storage<velocity>(), unset};
        // even the thread that holds the pass: its callbacks run on several threads at once
        EXPECT_MISUSE(registry.emplace<position>(spare, 1),
                      race<position>("emplace", "runs a parallel pass over", "parallel_each"));
        EXPECT_MISUSE(registry.patch<position>(entities[0]),
                      race<position>("patch", "runs a parallel pass over", "parallel_each"));
        EXPECT_MISUSE(registry.erase<velocity>(entities[0]),
                      race<velocity>("erase", "runs a parallel pass over", "parallel_each"));
        // reads are fine, on any thread, and so are the pools the pass does not walk
        EXPECT_EQ(registry.get<position>(entities[1]).x, 1);
        std::thread reader{[&] {
            EXPECT_EQ(registry.get<velocity>(entities[1]).dx, 1);
            registry.view<position>().each([](position &) {});
            EXPECT_MISUSE(registry.emplace<position>(spare, 1),
                          race<position>("emplace", "runs a parallel pass over", "parallel_each"));
        }};
        reader.join();
        registry.emplace<tag>(spare);
    }
    registry.emplace<position>(spare, 1);
    EXPECT_TRUE(registry.all_of<position>(spare));
}

TEST_F(RaceDetection, ParallelPassMacroOverATupleOfPools) {
    auto &positions = registry.storage<position>();
    {
        // the form a parallel algorithm uses: the pools of a view, as a tuple of pointers
        TESSERA_RACE_PASS("parallel_each", std::make_tuple(&positions, std::as_const(registry).storage<velocity>()));
        EXPECT_MISUSE(registry.emplace<velocity>(spare, 1),
                      race<velocity>("emplace", "runs a parallel pass over", "parallel_each"));
        EXPECT_MISUSE(registry.storage<position>().sort([](const auto lhs, const auto rhs) { return lhs < rhs; }),
                      race<position>("sort", "runs a parallel pass over", "parallel_each"));
    }
    // nested passes over one pool are counted, not flagged
    {
        const tessera::internal::race_read_scope outer{"parallel_each", &positions};
        { const tessera::internal::race_read_scope inner{"parallel_each", &positions}; }
        EXPECT_MISUSE(registry.emplace<position>(spare, 1), "runs a parallel pass over");
    }
    registry.emplace<position>(spare, 1);
}

TEST_F(RaceDetection, ValidWhileAnotherThreadCreates) {
    overlap_in_listener(
        registry.on_construct<tessera::entity>(), [&] { static_cast<void>(registry.create()); },
        [&] {
            EXPECT_MISUSE(static_cast<void>(registry.valid(spare)),
                          "valid on the pool of identifiers while another thread modifies it (create)");
            EXPECT_MISUSE(static_cast<void>(registry.create()),
                          "create on the pool of identifiers while another thread modifies it (create)");
        });
    EXPECT_TRUE(registry.valid(spare));
}

TEST_F(RaceDetection, ParallelPassWhileAnotherThreadWrites) {
    auto &positions = registry.storage<position>();
    auto &velocities = registry.storage<velocity>();

    overlap_in_listener(
        registry.on_construct<velocity>(), [&] { registry.emplace<velocity>(spare, 1); },
        [&] {
            EXPECT_MISUSE((tessera::internal::race_read_scope{"parallel_each", &positions, &velocities}),
                          race<velocity>("parallel_each", "modifies", "emplace"));
            // the pool entered before the one that failed was left: a write to it is free again
            registry.patch<position>(entities[0]);
        });
}

TEST(RaceGuard, OneThreadHoldsAtMost32Pools) {
    std::array<tessera::internal::race_guard, tessera::internal::race_hold_capacity + 1u> guards{};

    for (std::size_t pos{}; pos < tessera::internal::race_hold_capacity; ++pos) {
        guards[pos].enter_read("each", "position");
    }

    // one more pool does not fit, and the failed attempt counts nothing
    EXPECT_MISUSE(guards.back().enter_write("emplace", "position"), "one thread holds more than 32 pools at once");
    // nesting on a pool already held needs no room
    guards.front().enter_write("patch", "position");
    guards.front().leave_write();

    for (std::size_t pos{}; pos < tessera::internal::race_hold_capacity; ++pos) {
        guards[pos].leave_read();
    }

    guards.back().enter_write("emplace", "position");
    guards.back().leave_write();
    EXPECT_EQ(tessera::internal::race_holds::local().count, 0u);
}

TEST_F(RaceDetection, FailedChecksLeaveTheGuardAsItWas) {
    overlap([&](auto inside) { registry.view<velocity>().each([&](velocity &) { inside(); }); },
            [&] {
                for (int attempt{}; attempt < 3; ++attempt) {
                    EXPECT_MISUSE(registry.emplace<velocity>(spare, 1), "emplace on the pool of");
                }
            });
    // neither the failed writes nor the pass are still counted
    registry.emplace<velocity>(spare, 1);
    std::thread other{[&] { registry.erase<velocity>(spare); }};
    other.join();
    EXPECT_FALSE(registry.all_of<velocity>(spare));
}

} // namespace
