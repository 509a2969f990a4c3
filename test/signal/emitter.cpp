// Tests of emitter.hpp: listeners per event type, publish, erase and clear, listeners that change the emitter while
// they run, moves and swaps, allocators, and misuse.
#include <tessera/signal/emitter.hpp>

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include <gtest/gtest.h>

#include "support/misuse.hpp"
#include "support/tracking_allocator.hpp"

namespace {
namespace unit_signal_emitter {

namespace {

struct test_emitter : tessera::emitter<test_emitter> {
    using tessera::emitter<test_emitter>::emitter;
    int identity{};
};

struct boxed_int {
    int value;
};

struct empty_event {};

using tracked = tessera_test::tracking_allocator<void>;

struct tracked_emitter : tessera::emitter<tracked_emitter, tracked> {
    using tessera::emitter<tracked_emitter, tracked>::emitter;
};

} // namespace

TEST(emitter, on_publish_contains_empty) {
    test_emitter emitter{};
    ASSERT_TRUE(emitter.empty());
    ASSERT_FALSE(emitter.contains<boxed_int>());

    int received{};
    test_emitter *sender{};
    emitter.on<boxed_int>([&](boxed_int &event, test_emitter &owner) {
        received = event.value;
        sender = &owner;
    });
    ASSERT_FALSE(emitter.empty());
    ASSERT_TRUE(emitter.contains<boxed_int>());
    ASSERT_TRUE(emitter.contains<const boxed_int &>());
    ASSERT_FALSE(emitter.contains<empty_event>());

    emitter.publish(boxed_int{3});
    ASSERT_EQ(received, 3);
    ASSERT_EQ(sender, &emitter);

    // an event without listener is ignored
    emitter.publish(empty_event{});
}

TEST(emitter, on_replaces_the_listener) {
    test_emitter emitter{};
    std::string calls{};
    emitter.on<boxed_int>([&calls](const boxed_int &, test_emitter &) { calls += 'a'; });
    emitter.on<boxed_int>([&calls](const boxed_int &, const test_emitter &) { calls += 'b'; });
    emitter.publish(boxed_int{});
    ASSERT_EQ(calls, "b");
}

void count_empty_event(empty_event &, test_emitter &) {}

TEST(emitter, on_deduces_the_event_from_a_lambda_or_a_function) {
    test_emitter emitter{};
    int hits{};
    emitter.on([&hits](boxed_int &event, test_emitter &) { hits += event.value; });
    emitter.on(&count_empty_event);
    ASSERT_TRUE(emitter.contains<boxed_int>());
    ASSERT_TRUE(emitter.contains<empty_event>());
    emitter.publish(boxed_int{3});
    emitter.publish(empty_event{});
    ASSERT_EQ(hits, 3);
    // a generic lambda names its event type
    emitter.on<boxed_int>([&hits](auto &event, auto &) { hits -= event.value; });
    emitter.publish(boxed_int{3});
    ASSERT_EQ(hits, 0);
}

TEST(emitter, on_with_a_std_function_deduces_the_event) {
    test_emitter emitter{};
    int hits{};
    const std::function<void(empty_event &, test_emitter &)> listener = [&hits](empty_event &, test_emitter &) {
        ++hits;
    };
    emitter.on(listener);
    ASSERT_TRUE(emitter.contains<empty_event>());
    emitter.publish(empty_event{});
    ASSERT_EQ(hits, 1);
}

TEST(emitter, erase_and_clear) {
    test_emitter emitter{};
    emitter.on<boxed_int>([](auto &, auto &) {});
    emitter.on<empty_event>([](auto &, auto &) {});

    emitter.erase<std::string>();
    ASSERT_TRUE(emitter.contains<boxed_int>());
    ASSERT_TRUE(emitter.contains<empty_event>());

    emitter.erase<boxed_int>();
    ASSERT_FALSE(emitter.contains<boxed_int>());
    ASSERT_TRUE(emitter.contains<empty_event>());
    ASSERT_FALSE(emitter.empty());

    emitter.on<boxed_int>([](auto &, auto &) {});
    emitter.clear();
    ASSERT_TRUE(emitter.empty());
    ASSERT_FALSE(emitter.contains<boxed_int>());
    ASSERT_FALSE(emitter.contains<empty_event>());
}

TEST(emitter, listener_replaces_and_erases_itself_while_running) {
    test_emitter emitter{};
    int token = 5;
    int seen{};
    // the captured state must stay valid until the listener returns, even though it is replaced and erased
    emitter.on<boxed_int>([&seen, token = std::make_shared<int>(token)](boxed_int &, test_emitter &owner) {
        owner.on<boxed_int>([](auto &, auto &) {});
        owner.erase<boxed_int>();
        seen = *token;
    });
    emitter.on<empty_event>([](empty_event &, test_emitter &owner) {
        owner.on<empty_event>([](auto &, auto &) {});
        owner.erase<empty_event>();
    });
    emitter.publish(boxed_int{});
    emitter.publish(empty_event{});
    ASSERT_EQ(seen, 5);
    ASSERT_TRUE(emitter.empty());
}

TEST(emitter, listener_clears_the_emitter_and_publishes_again) {
    test_emitter emitter{};
    int depth{};
    int runs{};
    emitter.on<boxed_int>([&](boxed_int &event, test_emitter &owner) {
        ++runs;
        ++depth;
        if (event.value > 0) {
            // recursive publish reaches the same listener
            owner.publish(boxed_int{event.value - 1});
        }
        if (depth == 1) {
            owner.clear();
        }
        --depth;
    });
    emitter.publish(boxed_int{2});
    ASSERT_EQ(runs, 3);
    ASSERT_TRUE(emitter.empty());
    emitter.publish(boxed_int{2});
    ASSERT_EQ(runs, 3);
}

TEST(emitter, a_throwing_listener_stays_connected) {
    test_emitter emitter{};
    int calls{};
    emitter.on<boxed_int>([&calls](boxed_int &event, test_emitter &) {
        ++calls;
        if (event.value == 0) {
            throw std::runtime_error{"listener"};
        }
    });
    ASSERT_THROW(emitter.publish(boxed_int{0}), std::runtime_error);
    emitter.publish(boxed_int{1});
    ASSERT_EQ(calls, 2);
}

TEST(emitter, move_and_swap) {
    test_emitter emitter{};
    test_emitter *sender{};
    emitter.on<boxed_int>([&sender](boxed_int &, test_emitter &owner) { sender = &owner; });

    test_emitter other{std::move(emitter)};
    ASSERT_TRUE(emitter.empty());
    ASSERT_TRUE(other.contains<boxed_int>());
    // listeners receive the emitter that publishes, not the one they were set on
    other.publish(boxed_int{});
    ASSERT_EQ(sender, &other);

    emitter = std::move(other);
    ASSERT_TRUE(other.empty());
    ASSERT_TRUE(emitter.contains<boxed_int>());

    test_emitter third{};
    third.on<empty_event>([](auto &, auto &) {});
    emitter.swap(third);
    ASSERT_TRUE(emitter.contains<empty_event>());
    ASSERT_FALSE(emitter.contains<boxed_int>());
    ASSERT_TRUE(third.contains<boxed_int>());
    third.publish(boxed_int{});
    ASSERT_EQ(sender, &third);
}

TEST(emitter, allocator_is_used_and_balanced) {
    tessera_test::allocation_log log{};
    const tracked allocator{log};
    {
        tracked_emitter emitter{allocator};
        ASSERT_EQ(emitter.get_allocator(), allocator);
        emitter.on<boxed_int>([](auto &, auto &) {});
        emitter.on<empty_event>([](auto &, auto &) {});
        ASSERT_GT(log.allocations, 0u);
        tracked_emitter other{std::move(emitter), allocator};
        ASSERT_TRUE(other.contains<boxed_int>());
        ASSERT_TRUE(emitter.empty());
        other.erase<boxed_int>();
    }
    ASSERT_TRUE(log.balanced());
}

TEST(emitter, allocation_failure_keeps_the_previous_listener) {
    tessera_test::allocation_log log{};
    tracked_emitter emitter{tracked{log}};
    int calls{};
    emitter.on<boxed_int>([&calls](auto &, auto &) { ++calls; });
    log.fail_after = 0u;
    ASSERT_THROW(emitter.on<boxed_int>([](auto &, auto &) {}), std::bad_alloc);
    ASSERT_THROW(emitter.on<empty_event>([](auto &, auto &) {}), std::bad_alloc);
    log.fail_after = tessera_test::allocation_log::never;
    emitter.publish(boxed_int{});
    ASSERT_EQ(calls, 1);
    ASSERT_FALSE(emitter.contains<empty_event>());
}

TEST(emitter, misuse_move_to_an_unequal_allocator) {
    tessera_test::allocation_log first{};
    tessera_test::allocation_log second{};
    tracked_emitter source{tracked{first}};
    source.on<boxed_int>([](auto &, auto &) {});
    EXPECT_MISUSE(tracked_emitter(std::move(source), tracked{second}), "unequal allocator");
    ASSERT_TRUE(source.contains<boxed_int>());
}

} // namespace unit_signal_emitter
} // namespace
