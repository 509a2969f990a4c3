#include <tessera/signal/sigh.hpp>

#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "support/misuse.hpp"

namespace {
namespace unit_signal_sigh {

namespace {

// Records every call, so that tests can check which listeners ran and in which order.
struct recorder {
    std::vector<int> calls;
};

template<int Id>
void record(recorder &log) {
    log.calls.push_back(Id);
}

template<int Id>
int answer(recorder &log) {
    log.calls.push_back(Id);
    return Id;
}

void record_value(recorder &log, int value) { log.calls.push_back(value); }

struct listener {
    void on_event(recorder &log) { log.calls.push_back(id); }

    void on_other(recorder &log) { log.calls.push_back(id * 10); }

    [[nodiscard]] int constant(recorder &) const { return id; }

    void constant_void(recorder &log) const { log.calls.push_back(id); }

    int id{};
};

// Disconnects itself on the first call it receives.
struct one_shot {
    void on_event(recorder &log) {
        log.calls.push_back(id);
        tessera::sink{*signal}.disconnect<&one_shot::on_event>(*this);
    }

    tessera::sigh<void(recorder &)> *signal{};
    int id{};
};

// Counts allocations, so that tests can see which allocator the listeners live in.
template<typename Type>
struct counting_allocator {
    using value_type = Type;

    counting_allocator(std::size_t *counter) noexcept : count{counter} {}

    template<typename Other>
    counting_allocator(const counting_allocator<Other> &other) noexcept : count{other.count} {}

    Type *allocate(std::size_t length) {
        ++*count;
        return std::allocator<Type>{}.allocate(length);
    }

    void deallocate(Type *pointer, std::size_t length) noexcept { std::allocator<Type>{}.deallocate(pointer, length); }

    template<typename Other>
    bool operator==(const counting_allocator<Other> &other) const noexcept {
        return count == other.count;
    }

    std::size_t *count;
};

} // namespace

TEST(sigh, starts_empty) {
    tessera::sigh<void(int)> signal{};
    tessera::sink sink{signal};

    EXPECT_TRUE(signal.empty());
    EXPECT_EQ(signal.size(), 0u);
    EXPECT_TRUE(sink.empty());
    EXPECT_TRUE(sink);
    EXPECT_NO_THROW(signal.publish(1));
}

TEST(sigh, type_aliases_and_sink_deduction) {
    using signal_type = tessera::sigh<void(int)>;
    signal_type signal{};
    tessera::sink deduced{signal};
    signal_type::sink_type declared = signal;

    static_assert(std::is_same_v<signal_type::allocator_type, std::allocator<void>>);
    static_assert(std::is_same_v<signal_type::size_type, std::size_t>);
    static_assert(std::is_same_v<decltype(deduced), tessera::sink<signal_type>>);
    static_assert(std::is_same_v<signal_type::sink_type, tessera::sink<signal_type>>);
    EXPECT_TRUE(declared);
}

TEST(sigh, connect_is_idempotent) {
    tessera::sigh<void(recorder &)> signal{};
    tessera::sink sink{signal};
    recorder log{};

    sink.connect<&record<1>>();
    sink.connect<&record<1>>();

    EXPECT_EQ(signal.size(), 1u);
    EXPECT_FALSE(sink.empty());

    signal.publish(log);

    EXPECT_EQ(log.calls, (std::vector<int>{1}));
}

TEST(sigh, publish_calls_the_latest_listener_first) {
    tessera::sigh<void(recorder &)> signal{};
    tessera::sink sink{signal};
    listener member{7};
    recorder log{};

    sink.connect<&record<1>>();
    sink.connect<&record<2>>();
    sink.connect<&listener::on_event>(member);
    sink.connect<&record<3>>();
    signal.publish(log);

    EXPECT_EQ(log.calls, (std::vector<int>{3, 7, 2, 1}));
}

TEST(sigh, reconnecting_moves_a_listener_to_the_front) {
    tessera::sigh<void(recorder &)> signal{};
    tessera::sink sink{signal};
    listener member{7};
    recorder log{};

    sink.connect<&record<1>>();
    sink.connect<&listener::on_event>(member);
    sink.connect<&record<2>>();
    sink.connect<&record<1>>();
    sink.connect<&listener::on_event>(&member);
    signal.publish(log);

    EXPECT_EQ(signal.size(), 3u);
    EXPECT_EQ(log.calls, (std::vector<int>{7, 1, 2}));
}

TEST(sigh, connect_disconnect_reconnect) {
    tessera::sigh<void(recorder &)> signal{};
    tessera::sink sink{signal};
    recorder log{};

    sink.connect<&record<1>>();
    sink.connect<&record<2>>();
    sink.disconnect<&record<1>>();
    signal.publish(log);

    EXPECT_EQ(log.calls, (std::vector<int>{2}));

    log.calls.clear();
    sink.connect<&record<1>>();
    signal.publish(log);

    EXPECT_EQ(log.calls, (std::vector<int>{1, 2}));

    // Disconnecting what is not connected does nothing.
    sink.disconnect<&record<3>>();

    EXPECT_EQ(signal.size(), 2u);
}

TEST(sigh, disconnect_keeps_the_order_of_the_others) {
    tessera::sigh<void(recorder &)> signal{};
    tessera::sink sink{signal};
    recorder log{};

    sink.connect<&record<1>>();
    sink.connect<&record<2>>();
    sink.connect<&record<3>>();
    // the oldest goes: the others still run from the most recent one back
    sink.disconnect<&record<1>>();
    signal.publish(log);

    EXPECT_EQ(log.calls, (std::vector<int>{3, 2}));
}

TEST(sigh, disconnect_member_and_payload) {
    tessera::sigh<void(recorder &)> signal{};
    tessera::sink sink{signal};
    listener first{1};
    listener second{2};
    recorder log{};

    sink.connect<&listener::on_event>(first);
    sink.connect<&listener::on_event>(second);
    sink.disconnect<&listener::on_event>(first);
    signal.publish(log);

    EXPECT_EQ(log.calls, (std::vector<int>{2}));

    sink.disconnect<&listener::on_event>(&second);

    EXPECT_TRUE(signal.empty());

    // A const member connected through a mutable instance is found through a const one, and vice versa.
    sink.connect<&listener::constant_void>(first);
    sink.connect<&listener::constant_void>(std::as_const(second));
    sink.disconnect<&listener::constant_void>(std::as_const(first));
    sink.disconnect<&listener::constant_void>(&second);

    EXPECT_TRUE(signal.empty());
}

TEST(sigh, shorter_listeners_and_curried_payloads) {
    tessera::sigh<void(recorder &, int)> signal{};
    tessera::sink sink{signal};
    recorder payload{};
    recorder log{};

    sink.connect<&record<1>>();
    sink.connect<&record_value>();
    sink.connect<&record_value>(payload);
    signal.publish(log, 5);

    EXPECT_EQ(log.calls, (std::vector<int>{5, 1}));
    EXPECT_EQ(payload.calls, (std::vector<int>{5}));
}

TEST(sigh, disconnect_by_instance_removes_every_listener_bound_to_it) {
    tessera::sigh<void(recorder &)> signal{};
    tessera::sink sink{signal};
    listener first{1};
    listener second{2};
    recorder log{};

    sink.connect<&listener::on_event>(first);
    sink.connect<&record<9>>();
    sink.connect<&listener::on_other>(first);
    sink.connect<&listener::on_event>(second);
    sink.disconnect(&first);

    EXPECT_EQ(signal.size(), 2u);

    signal.publish(log);

    EXPECT_EQ(log.calls, (std::vector<int>{2, 9}));
}

TEST(sigh, disconnect_all) {
    tessera::sigh<void(recorder &)> signal{};
    tessera::sink sink{signal};
    listener member{1};

    sink.connect<&record<1>>();
    sink.connect<&listener::on_event>(member);
    sink.disconnect();

    EXPECT_TRUE(signal.empty());
    EXPECT_TRUE(sink.empty());
}

TEST(sigh, listener_may_disconnect_itself_during_publish) {
    tessera::sigh<void(recorder &)> signal{};
    tessera::sink sink{signal};
    one_shot oldest{&signal, 1};
    one_shot middle{&signal, 2};
    one_shot newest{&signal, 3};
    recorder log{};

    sink.connect<&one_shot::on_event>(oldest);
    sink.connect<&record<8>>();
    sink.connect<&one_shot::on_event>(middle);
    sink.connect<&record<9>>();
    sink.connect<&one_shot::on_event>(newest);
    signal.publish(log);

    EXPECT_EQ(log.calls, (std::vector<int>{3, 9, 2, 8, 1}));
    EXPECT_EQ(signal.size(), 2u);

    log.calls.clear();
    signal.publish(log);

    EXPECT_EQ(log.calls, (std::vector<int>{9, 8}));
}

TEST(sigh, listener_may_release_its_connection_during_publish) {
    struct self_release {
        void on_event(recorder &log) {
            log.calls.push_back(4);
            conn.release();
        }

        tessera::connection conn;
    };

    tessera::sigh<void(recorder &)> signal{};
    tessera::sink sink{signal};
    self_release target{};
    recorder log{};

    sink.connect<&record<1>>();
    target.conn = sink.connect<&self_release::on_event>(target);
    sink.connect<&record<2>>();
    signal.publish(log);
    signal.publish(log);

    EXPECT_EQ(log.calls, (std::vector<int>{2, 4, 1, 2, 1}));
}

TEST(sigh, collect_passes_results_in_publish_order) {
    tessera::sigh<int(recorder &)> signal{};
    tessera::sink sink{signal};
    recorder log{};
    std::vector<int> results{};

    sink.connect<&answer<1>>();
    sink.connect<&answer<2>>();
    sink.connect<&answer<3>>();
    signal.collect([&results](int value) { results.push_back(value); }, log);

    EXPECT_EQ(results, (std::vector<int>{3, 2, 1}));
    EXPECT_EQ(log.calls, (std::vector<int>{3, 2, 1}));
}

TEST(sigh, collect_stops_when_the_collector_returns_true) {
    tessera::sigh<int(recorder &)> signal{};
    tessera::sink sink{signal};
    recorder log{};
    std::vector<int> results{};

    sink.connect<&answer<1>>();
    sink.connect<&answer<2>>();
    sink.connect<&answer<3>>();
    signal.collect(
        [&results](int value) {
            results.push_back(value);
            return value == 2;
        },
        log);

    EXPECT_EQ(results, (std::vector<int>{3, 2}));
    EXPECT_EQ(log.calls, (std::vector<int>{3, 2}));
}

TEST(sigh, collect_with_void_listeners) {
    tessera::sigh<void(recorder &)> signal{};
    tessera::sink sink{signal};
    recorder log{};
    int seen = 0;

    sink.connect<&record<1>>();
    sink.connect<&record<2>>();
    sink.connect<&record<3>>();
    signal.collect([&seen]() { ++seen; }, log);

    EXPECT_EQ(seen, 3);
    EXPECT_EQ(log.calls, (std::vector<int>{3, 2, 1}));

    seen = 0;
    log.calls.clear();
    signal.collect([&seen]() { return ++seen == 2; }, log);

    EXPECT_EQ(seen, 2);
    EXPECT_EQ(log.calls, (std::vector<int>{3, 2}));
}

TEST(sigh, collect_with_a_collector_that_takes_no_result) {
    tessera::sigh<int(recorder &)> signal{};
    tessera::sink sink{signal};
    recorder log{};
    int seen = 0;

    sink.connect<&answer<1>>();
    sink.connect<&answer<2>>();
    // the results are dropped; the collector is still called once per listener and may stop the walk
    signal.collect([&seen]() { return ++seen == 1; }, log);

    EXPECT_EQ(seen, 1);
    EXPECT_EQ(log.calls, (std::vector<int>{2}));
}

TEST(sigh, collect_with_const_member_listener) {
    tessera::sigh<int(recorder &)> signal{};
    tessera::sink sink{signal};
    const listener member{6};
    recorder log{};
    int sum = 0;

    sink.connect<&listener::constant>(member);
    sink.connect<&answer<1>>();
    signal.collect([&sum](int value) { sum += value; }, log);

    EXPECT_EQ(sum, 7);
}

TEST(connection, release_disconnects_and_is_idempotent) {
    tessera::sigh<void(recorder &)> signal{};
    tessera::sink sink{signal};
    recorder log{};

    tessera::connection conn = sink.connect<&record<1>>();
    sink.connect<&record<2>>();
    tessera::connection copy = conn;

    EXPECT_TRUE(conn);
    EXPECT_EQ(signal.size(), 2u);

    conn.release();

    EXPECT_FALSE(conn);
    EXPECT_EQ(signal.size(), 1u);

    conn.release();
    copy.release();

    EXPECT_FALSE(copy);
    EXPECT_EQ(signal.size(), 1u);

    signal.publish(log);

    EXPECT_EQ(log.calls, (std::vector<int>{2}));
}

TEST(connection, release_of_bound_listeners) {
    tessera::sigh<void(recorder &)> signal{};
    tessera::sink sink{signal};
    listener first{1};
    listener second{2};

    tessera::connection by_reference = sink.connect<&listener::on_event>(first);
    tessera::connection by_pointer = sink.connect<&listener::on_event>(&second);
    sink.connect<&listener::on_other>(first);

    by_reference.release();
    by_pointer.release();

    EXPECT_EQ(signal.size(), 1u);

    recorder log{};
    signal.publish(log);

    EXPECT_EQ(log.calls, (std::vector<int>{10}));
}

TEST(connection, default_is_empty) {
    tessera::connection conn{};

    EXPECT_FALSE(conn);
    EXPECT_NO_THROW(conn.release());
}

TEST(scoped_connection, disconnects_on_destruction) {
    tessera::sigh<void(recorder &)> signal{};
    tessera::sink sink{signal};

    {
        tessera::scoped_connection scoped{sink.connect<&record<1>>()};

        EXPECT_TRUE(scoped);
        EXPECT_EQ(signal.size(), 1u);
    }

    EXPECT_TRUE(signal.empty());
}

TEST(scoped_connection, move_construction_transfers_ownership) {
    tessera::sigh<void(recorder &)> signal{};
    tessera::sink sink{signal};

    {
        tessera::scoped_connection outer{};

        {
            tessera::scoped_connection inner{sink.connect<&record<1>>()};
            tessera::scoped_connection moved{std::move(inner)};

            EXPECT_TRUE(moved);
            outer = std::move(moved);
        }

        EXPECT_TRUE(outer);
        EXPECT_EQ(signal.size(), 1u);
    }

    EXPECT_TRUE(signal.empty());

    static_assert(!std::is_copy_constructible_v<tessera::scoped_connection>);
    static_assert(!std::is_copy_assignable_v<tessera::scoped_connection>);
}

TEST(scoped_connection, move_assignment_releases_the_previous_listener) {
    tessera::sigh<void(recorder &)> signal{};
    tessera::sink sink{signal};
    recorder log{};

    tessera::scoped_connection first{sink.connect<&record<1>>()};
    tessera::scoped_connection second{sink.connect<&record<2>>()};
    first = std::move(second);

    EXPECT_TRUE(first);
    EXPECT_EQ(signal.size(), 1u);

    signal.publish(log);

    EXPECT_EQ(log.calls, (std::vector<int>{2}));
}

TEST(scoped_connection, assigning_a_connection_releases_the_previous_listener) {
    tessera::sigh<void(recorder &)> signal{};
    tessera::sink sink{signal};
    recorder log{};

    tessera::scoped_connection scoped{sink.connect<&record<1>>()};
    scoped = sink.connect<&record<2>>();

    EXPECT_EQ(signal.size(), 1u);

    signal.publish(log);

    EXPECT_EQ(log.calls, (std::vector<int>{2}));

    scoped.release();

    EXPECT_FALSE(scoped);
    EXPECT_TRUE(signal.empty());
}

TEST(sigh, copy_move_and_swap) {
    tessera::sigh<void(recorder &)> signal{};
    tessera::sink{signal}.connect<&record<1>>();
    tessera::sink{signal}.connect<&record<2>>();
    recorder log{};

    tessera::sigh<void(recorder &)> copy{signal};

    EXPECT_EQ(copy.size(), 2u);
    EXPECT_EQ(signal.size(), 2u);

    copy.publish(log);

    EXPECT_EQ(log.calls, (std::vector<int>{2, 1}));

    tessera::sigh<void(recorder &)> moved{std::move(copy)};

    EXPECT_EQ(moved.size(), 2u);

    tessera::sigh<void(recorder &)> other{};
    tessera::sink{other}.connect<&record<3>>();
    other.swap(moved);

    EXPECT_EQ(other.size(), 2u);
    EXPECT_EQ(moved.size(), 1u);

    log.calls.clear();
    moved.publish(log);

    EXPECT_EQ(log.calls, (std::vector<int>{3}));

    moved = signal;

    EXPECT_EQ(moved.size(), 2u);

    tessera::sigh<void(recorder &)> target{};
    target = std::move(moved);

    EXPECT_EQ(target.size(), 2u);

    // Copies are independent: disconnecting from one leaves the other untouched.
    tessera::sink{target}.disconnect<&record<1>>();

    EXPECT_EQ(target.size(), 1u);
    EXPECT_EQ(signal.size(), 2u);
}

TEST(sigh, allocator_aware) {
    using allocator_type = counting_allocator<void>;
    using signal_type = tessera::sigh<void(recorder &), allocator_type>;
    std::size_t first_count = 0;
    std::size_t second_count = 0;

    signal_type signal{allocator_type{&first_count}};
    tessera::sink sink{signal};
    sink.connect<&record<1>>();
    sink.connect<&record<2>>();

    EXPECT_GT(first_count, 0u);
    EXPECT_EQ(signal.get_allocator(), allocator_type{&first_count});

    signal_type copy{signal, allocator_type{&second_count}};

    EXPECT_EQ(copy.size(), 2u);
    EXPECT_EQ(second_count, 1u);
    EXPECT_EQ(copy.get_allocator(), allocator_type{&second_count});

    const std::size_t before = second_count;
    signal_type moved{std::move(signal), allocator_type{&second_count}};

    EXPECT_EQ(moved.size(), 2u);
    EXPECT_EQ(second_count, before + 1u);

    signal_type taken{std::move(moved)};

    EXPECT_EQ(taken.size(), 2u);
    EXPECT_EQ(taken.get_allocator(), allocator_type{&second_count});
    EXPECT_EQ(second_count, before + 1u);

    recorder log{};
    taken.publish(log);

    EXPECT_EQ(log.calls, (std::vector<int>{2, 1}));
}

TEST(sigh, disconnect_null_instance_is_a_misuse) {
    tessera::sigh<void(recorder &)> signal{};
    tessera::sink sink{signal};

    EXPECT_MISUSE(sink.disconnect(nullptr), "null instance");
}

TEST(sink, default_sink_is_invalid) {
    tessera::sink<tessera::sigh<void(recorder &)>> sink{};
    listener member{};

    EXPECT_FALSE(sink);
    EXPECT_MISUSE(static_cast<void>(sink.connect<&record<1>>()), "does not refer to a signal");
    EXPECT_MISUSE(static_cast<void>(sink.connect<&listener::on_event>(member)), "does not refer to a signal");
    EXPECT_MISUSE(sink.disconnect<&record<1>>(), "does not refer to a signal");
    EXPECT_MISUSE(sink.disconnect(&member), "does not refer to a signal");
    EXPECT_MISUSE(sink.disconnect(), "does not refer to a signal");
    EXPECT_MISUSE(static_cast<void>(sink.empty()), "does not refer to a signal");
}

} // namespace unit_signal_sigh
} // namespace
