// Tests of dispatcher.hpp: trigger, enqueue and update, named queues, sizes and clearing, re-entrancy from
// listeners, moves and swaps, allocators, and misuse.
#include <tessera/core/hashed_string.hpp>
#include <tessera/signal/dispatcher.hpp>

#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "support/misuse.hpp"
#include "support/tracking_allocator.hpp"

namespace {
namespace unit_signal_dispatcher {

namespace {

using namespace tessera::literals;

struct empty_event {};

struct damage {
    int amount;
};

// Not an aggregate: enqueue must call the constructor.
struct built {
    explicit built(int init) : value{init} {}
    int value;
};

struct receiver {
    std::vector<int> seen{};
    int empties{};

    void on_damage(const damage &event) { seen.push_back(event.amount); }
    void on_empty(empty_event &) { ++empties; }
};

void forward_empty(tessera::dispatcher &owner, empty_event &event) { owner.enqueue(event); }

// Enqueues `value` copies of the event it receives: the new events must wait for the next update, and storing them
// must not disturb the event being delivered (a reference into the queue).
void multiply(tessera::dispatcher &owner, int &value) {
    for (int count{}; count < value; ++count) {
        owner.enqueue<int>(value);
    }
}

int free_hits{};
void count_free(const damage &) { ++free_hits; }

} // namespace

TEST(dispatcher, trigger_calls_listeners_at_once) {
    tessera::dispatcher dispatcher{};
    receiver target{};
    dispatcher.sink<damage>().connect<&receiver::on_damage>(target);

    dispatcher.trigger(damage{3});
    const damage lvalue{4};
    dispatcher.trigger(lvalue);
    dispatcher.trigger(std::as_const(lvalue));
    ASSERT_EQ(target.seen, (std::vector<int>{3, 4, 4}));
    // trigger stores nothing
    ASSERT_EQ(dispatcher.size<damage>(), 0u);
    ASSERT_EQ(dispatcher.size(), 0u);
}

TEST(dispatcher, enqueue_waits_for_update) {
    tessera::dispatcher dispatcher{};
    receiver target{};
    dispatcher.sink<damage>().connect<&receiver::on_damage>(target);
    dispatcher.sink<empty_event>().connect<&receiver::on_empty>(target);

    dispatcher.enqueue<damage>(1);
    dispatcher.enqueue(damage{2});
    const damage lvalue{3};
    dispatcher.enqueue(lvalue);
    dispatcher.enqueue<empty_event>();
    ASSERT_TRUE(target.seen.empty());
    ASSERT_EQ(dispatcher.size<damage>(), 3u);
    ASSERT_EQ(dispatcher.size<empty_event>(), 1u);
    ASSERT_EQ(dispatcher.size(), 4u);

    dispatcher.update<damage>();
    ASSERT_EQ(target.seen, (std::vector<int>{1, 2, 3}));
    ASSERT_EQ(target.empties, 0);
    ASSERT_EQ(dispatcher.size(), 1u);

    dispatcher.update();
    ASSERT_EQ(target.empties, 1);
    ASSERT_EQ(dispatcher.size(), 0u);

    // nothing left to deliver
    dispatcher.update();
    ASSERT_EQ(target.seen.size(), 3u);
}

TEST(dispatcher, enqueue_builds_aggregates_and_constructs_others) {
    tessera::dispatcher dispatcher{};
    int total{};
    struct adder {
        int *total;
        void add(const built &event) { *total += event.value; }
    } sum{&total};
    dispatcher.sink<built>().connect<&adder::add>(sum);
    dispatcher.trigger(built{1});
    dispatcher.enqueue<built>(2);
    dispatcher.enqueue(built{3});
    dispatcher.update<built>();
    ASSERT_EQ(total, 6);
}

TEST(dispatcher, queues_without_listeners) {
    tessera::dispatcher dispatcher{};
    dispatcher.trigger(damage{1});
    dispatcher.enqueue<damage>(1);
    dispatcher.update<damage>();
    ASSERT_EQ(dispatcher.size<damage>(), 0u);
    // a type never seen has no queue and size 0
    ASSERT_EQ(dispatcher.size<built>(), 0u);
}

TEST(dispatcher, listener_forms) {
    tessera::dispatcher dispatcher{};
    free_hits = 0;
    dispatcher.sink<damage>().connect<&count_free>();
    int by_value{};
    struct value_listener {
        int *sum;
        void take(damage event) { *sum += event.amount; }
    } copy_taker{&by_value};
    dispatcher.sink<damage>().connect<&value_listener::take>(copy_taker);
    dispatcher.trigger(damage{5});
    ASSERT_EQ(free_hits, 1);
    ASSERT_EQ(by_value, 5);

    dispatcher.sink<damage>().disconnect<&count_free>();
    dispatcher.trigger(damage{5});
    ASSERT_EQ(free_hits, 1);
    ASSERT_EQ(by_value, 10);
}

TEST(dispatcher, clear) {
    tessera::dispatcher dispatcher{};
    receiver target{};
    dispatcher.sink<damage>().connect<&receiver::on_damage>(target);
    dispatcher.sink<empty_event>().connect<&receiver::on_empty>(target);

    dispatcher.enqueue<damage>(1);
    dispatcher.enqueue<empty_event>();
    dispatcher.clear<damage>();
    ASSERT_EQ(dispatcher.size<damage>(), 0u);
    ASSERT_EQ(dispatcher.size<empty_event>(), 1u);
    dispatcher.update();
    ASSERT_TRUE(target.seen.empty());
    ASSERT_EQ(target.empties, 1);

    dispatcher.enqueue<damage>(1);
    dispatcher.enqueue<empty_event>();
    dispatcher.clear();
    ASSERT_EQ(dispatcher.size(), 0u);
    dispatcher.update();
    ASSERT_TRUE(target.seen.empty());
    ASSERT_EQ(target.empties, 1);

    // clearing a queue never used creates it empty
    dispatcher.clear<built>();
    ASSERT_EQ(dispatcher.size<built>(), 0u);
}

TEST(dispatcher, disconnect_an_instance_everywhere) {
    tessera::dispatcher dispatcher{};
    receiver target{};
    receiver other{};
    dispatcher.sink<damage>().connect<&receiver::on_damage>(target);
    dispatcher.sink<empty_event>().connect<&receiver::on_empty>(target);
    dispatcher.sink<damage>().connect<&receiver::on_damage>(other);

    dispatcher.disconnect(target);
    dispatcher.trigger(damage{1});
    dispatcher.trigger(empty_event{});
    ASSERT_TRUE(target.seen.empty());
    ASSERT_EQ(target.empties, 0);
    ASSERT_EQ(other.seen, (std::vector<int>{1}));

    dispatcher.disconnect(&other);
    dispatcher.trigger(damage{2});
    ASSERT_EQ(other.seen.size(), 1u);
}

TEST(dispatcher, named_queues) {
    tessera::dispatcher dispatcher{};
    receiver named{};
    receiver plain{};
    dispatcher.sink<damage>("critical"_hs).connect<&receiver::on_damage>(named);
    dispatcher.sink<damage>().connect<&receiver::on_damage>(plain);

    dispatcher.trigger(damage{1});
    dispatcher.trigger("critical"_hs, damage{2});
    ASSERT_EQ(plain.seen, (std::vector<int>{1}));
    ASSERT_EQ(named.seen, (std::vector<int>{2}));

    dispatcher.enqueue<damage>(3);
    dispatcher.enqueue_hint<damage>("critical"_hs, 4);
    dispatcher.enqueue_hint("critical"_hs, damage{5});
    ASSERT_EQ(dispatcher.size<damage>(), 1u);
    ASSERT_EQ(dispatcher.size<damage>("critical"_hs), 2u);
    ASSERT_EQ(dispatcher.size(), 3u);

    dispatcher.update<damage>();
    ASSERT_EQ(plain.seen, (std::vector<int>{1, 3}));
    ASSERT_EQ(named.seen, (std::vector<int>{2}));

    dispatcher.clear<damage>();
    dispatcher.update<damage>("critical"_hs);
    ASSERT_EQ(named.seen, (std::vector<int>{2, 4, 5}));

    dispatcher.enqueue_hint<damage>("critical"_hs, 6);
    dispatcher.clear<damage>("critical"_hs);
    dispatcher.update<damage>("critical"_hs);
    ASSERT_EQ(named.seen.size(), 3u);
}

TEST(dispatcher, misuse_one_name_for_two_event_types) {
    tessera::dispatcher dispatcher{};
    dispatcher.enqueue_hint<damage>("shared"_hs, 1);
    EXPECT_MISUSE(dispatcher.enqueue_hint<empty_event>("shared"_hs), "already used for another event type");
    EXPECT_MISUSE(static_cast<void>(dispatcher.sink<built>("shared"_hs)), "already used for another event type");
    EXPECT_MISUSE(static_cast<void>(dispatcher.size<built>("shared"_hs)), "already used for another event type");
    ASSERT_EQ(dispatcher.size<damage>("shared"_hs), 1u);
}

TEST(dispatcher, enqueue_from_a_listener_waits_for_the_next_update) {
    tessera::dispatcher dispatcher{};
    receiver target{};
    dispatcher.sink<empty_event>().connect<&forward_empty>(dispatcher);
    dispatcher.sink<empty_event>().connect<&receiver::on_empty>(target);

    dispatcher.enqueue<empty_event>();
    dispatcher.update();
    ASSERT_EQ(target.empties, 1);
    ASSERT_EQ(dispatcher.size<empty_event>(), 1u);

    dispatcher.sink<empty_event>().disconnect<&forward_empty>(dispatcher);
    dispatcher.update();
    ASSERT_EQ(target.empties, 2);
    ASSERT_EQ(dispatcher.size(), 0u);
}

TEST(dispatcher, enqueue_many_from_a_listener_keeps_the_delivered_event_valid) {
    tessera::dispatcher dispatcher{};
    dispatcher.sink<int>().connect<&multiply>(dispatcher);
    dispatcher.enqueue<int>(4);
    dispatcher.update<int>();
    ASSERT_EQ(dispatcher.size<int>(), 4u);
    dispatcher.update<int>();
    ASSERT_EQ(dispatcher.size<int>(), 16u);
}

TEST(dispatcher, update_of_the_same_queue_from_a_listener) {
    tessera::dispatcher dispatcher{};
    std::vector<int> order{};
    struct nested {
        tessera::dispatcher *owner;
        std::vector<int> *order;
        void on(const damage &event) {
            order->push_back(event.amount);
            if (event.amount == 1) {
                owner->enqueue<damage>(10);
                // delivers what was stored since this update started, before the rest of the current batch
                owner->update<damage>();
            }
        }
    } listener{&dispatcher, &order};
    dispatcher.sink<damage>().connect<&nested::on>(listener);

    dispatcher.enqueue<damage>(1);
    dispatcher.enqueue<damage>(2);
    dispatcher.update<damage>();
    ASSERT_EQ(order, (std::vector<int>{1, 10, 2}));
    ASSERT_EQ(dispatcher.size(), 0u);
}

TEST(dispatcher, update_all_from_a_listener_that_creates_a_queue) {
    tessera::dispatcher dispatcher{};
    receiver target{};
    struct spawner {
        tessera::dispatcher *owner;
        void on(const empty_event &) { owner->enqueue<damage>(7); }
    } creator{&dispatcher};
    dispatcher.sink<empty_event>().connect<&spawner::on>(creator);

    dispatcher.enqueue<empty_event>();
    dispatcher.update();
    // the damage queue did not exist when update() started: its event waits
    ASSERT_EQ(dispatcher.size<damage>(), 1u);
    dispatcher.sink<damage>().connect<&receiver::on_damage>(target);
    dispatcher.update();
    ASSERT_EQ(target.seen, (std::vector<int>{7}));
}

TEST(dispatcher, clear_from_a_listener_drops_only_the_new_events) {
    tessera::dispatcher dispatcher{};
    std::vector<int> order{};
    struct clearing {
        tessera::dispatcher *owner;
        std::vector<int> *order;
        void on(const damage &event) {
            order->push_back(event.amount);
            owner->enqueue<damage>(100 + event.amount);
            owner->clear<damage>();
        }
    } listener{&dispatcher, &order};
    dispatcher.sink<damage>().connect<&clearing::on>(listener);
    dispatcher.enqueue<damage>(1);
    dispatcher.enqueue<damage>(2);
    dispatcher.update<damage>();
    ASSERT_EQ(order, (std::vector<int>{1, 2}));
    ASSERT_EQ(dispatcher.size(), 0u);
}

TEST(dispatcher, connect_and_disconnect_during_trigger) {
    tessera::dispatcher dispatcher{};
    receiver late{};
    struct switcher {
        tessera::dispatcher *owner{};
        receiver *late{};
        int calls{};
        void on(const damage &) {
            ++calls;
            // a listener connected now is called from the next delivery on
            owner->sink<damage>().connect<&receiver::on_damage>(*late);
            // a listener may disconnect itself
            owner->sink<damage>().disconnect<&switcher::on>(*this);
        }
    } first{&dispatcher, &late};
    dispatcher.sink<damage>().connect<&switcher::on>(first);

    dispatcher.trigger(damage{1});
    ASSERT_EQ(first.calls, 1);
    ASSERT_TRUE(late.seen.empty());

    dispatcher.trigger(damage{2});
    ASSERT_EQ(first.calls, 1);
    ASSERT_EQ(late.seen, (std::vector<int>{2}));
}

TEST(dispatcher, disconnect_another_listener_during_update) {
    tessera::dispatcher dispatcher{};
    receiver victim{};
    struct remover {
        tessera::dispatcher *owner;
        receiver *victim;
        void on(const damage &) { owner->sink<damage>().disconnect(victim); }
    } killer{&dispatcher, &victim};
    // the most recently connected listener runs first: the remover goes before the victim
    dispatcher.sink<damage>().connect<&receiver::on_damage>(victim);
    dispatcher.sink<damage>().connect<&remover::on>(killer);

    dispatcher.enqueue<damage>(1);
    dispatcher.enqueue<damage>(2);
    dispatcher.update();
    ASSERT_TRUE(victim.seen.empty());
}

TEST(dispatcher, a_throwing_listener_leaves_the_dispatcher_usable) {
    tessera::dispatcher dispatcher{};
    int calls{};
    struct thrower {
        int *calls;
        void on(const damage &event) {
            ++*calls;
            if (event.amount == 1) {
                throw std::runtime_error{"listener"};
            }
        }
    } listener{&calls};
    dispatcher.sink<damage>().connect<&thrower::on>(listener);
    dispatcher.enqueue<damage>(1);
    dispatcher.enqueue<damage>(2);
    ASSERT_THROW(dispatcher.update<damage>(), std::runtime_error);
    // the rest of the interrupted batch is dropped, as if delivered
    ASSERT_EQ(dispatcher.size(), 0u);
    dispatcher.enqueue<damage>(3);
    dispatcher.update<damage>();
    ASSERT_EQ(calls, 2);
}

TEST(dispatcher, move_and_swap) {
    tessera::dispatcher dispatcher{};
    receiver target{};
    dispatcher.sink<damage>().connect<&receiver::on_damage>(target);
    dispatcher.enqueue<damage>(1);

    tessera::dispatcher other{std::move(dispatcher)};
    ASSERT_EQ(dispatcher.size(), 0u);
    ASSERT_EQ(other.size(), 1u);
    dispatcher.update();
    ASSERT_TRUE(target.seen.empty());
    other.update();
    ASSERT_EQ(target.seen, (std::vector<int>{1}));

    dispatcher = std::move(other);
    dispatcher.enqueue<damage>(2);
    tessera::dispatcher third{};
    third.enqueue<empty_event>();
    dispatcher.swap(third);
    ASSERT_EQ(dispatcher.size(), 1u);
    ASSERT_EQ(dispatcher.size<empty_event>(), 1u);
    ASSERT_EQ(third.size<damage>(), 1u);
    third.update();
    ASSERT_EQ(target.seen, (std::vector<int>{1, 2}));

    // a moved-from dispatcher is usable
    other.enqueue<damage>(3);
    ASSERT_EQ(other.size(), 1u);
}

TEST(dispatcher, steady_state_allocates_nothing) {
    tessera_test::allocation_log log{};
    tessera::basic_dispatcher<tessera_test::tracking_allocator<void>> dispatcher{
        tessera_test::tracking_allocator<void>{log}};
    int total{};
    struct summer {
        int *total;
        void on(const damage &event) { *total += event.amount; }
    } listener{&total};
    dispatcher.sink<damage>().connect<&summer::on>(listener);

    const auto frame = [&dispatcher] {
        for (int pos{}; pos < 100; ++pos) {
            dispatcher.enqueue<damage>(1);
        }
        dispatcher.update();
    };
    // the first two frames size both buffers
    frame();
    frame();
    const auto allocations = log.allocations;
    for (int round{}; round < 10; ++round) {
        frame();
    }
    ASSERT_EQ(log.allocations, allocations);
    ASSERT_EQ(total, 1200);
}

TEST(dispatcher, allocator_is_used_and_balanced) {
    tessera_test::allocation_log log{};
    const tessera_test::tracking_allocator<void> allocator{log};
    {
        tessera::basic_dispatcher<tessera_test::tracking_allocator<void>> dispatcher{allocator};
        ASSERT_EQ(dispatcher.get_allocator(), allocator);
        dispatcher.enqueue<damage>(1);
        dispatcher.enqueue_hint<std::string>("text"_hs, "a string long enough to leave the small buffer");
        ASSERT_GT(log.allocations, 0u);

        decltype(dispatcher) other{std::move(dispatcher), allocator};
        ASSERT_EQ(other.size<damage>(), 1u);
        ASSERT_EQ(other.size<std::string>("text"_hs), 1u);
        ASSERT_EQ(dispatcher.size(), 0u);
    }
    ASSERT_TRUE(log.balanced());
}

TEST(dispatcher, misuse_move_to_an_unequal_allocator) {
    tessera_test::allocation_log first{};
    tessera_test::allocation_log second{};
    using dispatcher_type = tessera::basic_dispatcher<tessera_test::tracking_allocator<void>>;
    dispatcher_type source{tessera_test::tracking_allocator<void>{first}};
    source.enqueue<damage>(1);
    EXPECT_MISUSE(dispatcher_type(std::move(source), tessera_test::tracking_allocator<void>{second}),
                  "unequal allocator");
    // nothing was taken from the source
    ASSERT_EQ(source.size<damage>(), 1u);
}

TEST(dispatcher, queue_allocation_failure_leaves_the_dispatcher_unchanged) {
    tessera_test::allocation_log log{};
    tessera::basic_dispatcher<tessera_test::tracking_allocator<void>> dispatcher{
        tessera_test::tracking_allocator<void>{log}};
    dispatcher.enqueue<damage>(1);
    for (std::size_t budget{}; budget < 4u; ++budget) {
        log.fail_after = budget;
        try {
            dispatcher.enqueue<empty_event>();
        } catch (const std::bad_alloc &) {
            ASSERT_EQ(dispatcher.size<empty_event>(), 0u);
        }
        log.fail_after = tessera_test::allocation_log::never;
        dispatcher.clear<empty_event>();
    }
    ASSERT_EQ(dispatcher.size<damage>(), 1u);
}

TEST(dispatcher, fwd_alias) {
    static_assert(std::is_same_v<tessera::dispatcher, tessera::basic_dispatcher<std::allocator<void>>>);
    SUCCEED();
}

} // namespace unit_signal_dispatcher
} // namespace
