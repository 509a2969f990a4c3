// Porting tests of the signal module: delegates, signals and sinks, the dispatcher and the emitter, used as EnTT's
// signal documentation uses them.
#include "porting.hpp"

#include <algorithm>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace {
namespace unit_porting_signal {

namespace {

using namespace entt::literals;

int identity(int value) { return value; }

struct my_struct {
    [[nodiscard]] int f(const int &value) const { return value * 2; }
    int stored{7};
};

int payload_result{};
void curried(const char &payload, int value) { payload_result = payload + value; }

int ignored_calls{};
void no_arguments() { ++ignored_calls; }

int runtime_function(const void *ptr, int value) { return *static_cast<const int *>(ptr) * value; }

void unbound_member_target(my_struct &, int) {}

struct listener {
    std::vector<int> seen{};
    void bar(const int &value, char) { seen.push_back(value); }
};

int foo_calls{};
void foo(int, char) { ++foo_calls; }

int zero() { return 0; }
int one() { return 1; }

struct my_collector {
    std::vector<int> vec{};
    bool operator()(int value) {
        vec.push_back(value);
        return true;
    }
};

struct an_event {
    int value;
};
struct another_event {};

int an_event_total{};
void on_an_event(const an_event &event) { an_event_total += event.value; }

struct event_listener {
    int another{};
    int received{};
    void on_another(const another_event &) { ++another; }
    void receive(const an_event &event) { received += event.value; }
};

struct my_event {
    int i;
};

struct my_emitter : entt::emitter<my_emitter> {};

} // namespace

TEST(porting_signal, delegate_connect_forms) {
    entt::delegate<int(int)> delegate{};
    ASSERT_FALSE(delegate);

    delegate.connect<&identity>();
    ASSERT_EQ(delegate(42), 42);

    my_struct instance;
    delegate.connect<&my_struct::f>(instance);
    ASSERT_TRUE(delegate);
    auto ret = delegate(21);
    ASSERT_EQ(ret, 42);

    entt::delegate<int(int)> func{entt::connect_arg<&identity>};
    ASSERT_EQ(func(3), 3);

    delegate.reset();
    ASSERT_FALSE(delegate);
}

TEST(porting_signal, delegate_payload_and_shorter_lists) {
    entt::delegate<void(int)> delegate{};
    const char c = 'c';
    delegate.connect<&curried>(c);
    delegate(1);
    ASSERT_EQ(payload_result, 'c' + 1);

    delegate.connect<&no_arguments>();
    delegate(42);
    ASSERT_EQ(ignored_calls, 1);

    entt::delegate<void(my_struct &, int)> unbound;
    unbound.connect<&unbound_member_target>();
    my_struct instance;
    unbound(instance, 42);

    // a data member bound to an instance: no parameters, returns the value
    entt::delegate<int()> member{entt::connect_arg<&my_struct::stored>, instance};
    ASSERT_EQ(member(), 7);
    entt::delegate deduced{entt::connect_arg<&my_struct::stored>, instance};
    static_assert(std::is_same_v<decltype(deduced), entt::delegate<int()>>);
}

TEST(porting_signal, delegate_runtime_arguments_and_raw_access) {
    const int value = 42;
    entt::delegate delegate{&runtime_function, &value};
    static_assert(std::is_same_v<decltype(delegate), entt::delegate<int(int)>>);
    ASSERT_EQ(delegate(2), 84);
    delegate.connect(&runtime_function, &value);
    ASSERT_EQ(delegate(1), 42);

    my_struct instance;
    entt::delegate lambda{+[](const void *ptr, int arg) { return static_cast<const my_struct *>(ptr)->f(arg); },
                          &instance};
    ASSERT_EQ(lambda(5), 10);
    lambda.connect([](const void *ptr, int arg) { return static_cast<const my_struct *>(ptr)->f(arg) + 1; }, &instance);
    ASSERT_EQ(lambda(5), 11);

    my_struct other;
    ASSERT_EQ(lambda.target()(&other, 2), 5);
    ASSERT_EQ(lambda.data(), &instance);
}

TEST(porting_signal, signals_and_sinks) {
    entt::sigh<void(int, char)> signal;
    entt::sink sink{signal};
    listener instance;

    sink.connect<&foo>();
    sink.connect<&listener::bar>(instance);
    ASSERT_EQ(signal.size(), 2u);
    ASSERT_FALSE(signal.empty());

    signal.publish(42, 'c');
    ASSERT_EQ(foo_calls, 1);
    ASSERT_EQ(instance.seen, std::vector<int>{42});

    sink.disconnect<&foo>();
    sink.disconnect<&listener::bar>(instance);
    ASSERT_TRUE(signal.empty());

    sink.connect<&listener::bar>(instance);
    sink.disconnect(&instance);
    ASSERT_TRUE(signal.empty());

    sink.connect<&foo>();
    sink.disconnect();
    ASSERT_TRUE(signal.empty());

    entt::connection conn = sink.connect<&foo>();
    conn.release();
    ASSERT_TRUE(signal.empty());
    {
        entt::scoped_connection scoped{sink.connect<&foo>()};
        ASSERT_EQ(signal.size(), 1u);
    }
    ASSERT_TRUE(signal.empty());

    entt::sigh<void(int, char)> other;
    sink.connect<&foo>();
    signal.swap(other);
    ASSERT_TRUE(signal.empty());
    ASSERT_EQ(other.size(), 1u);
}

TEST(porting_signal, collect) {
    entt::sigh<int()> signal;
    entt::sink sink{signal};
    sink.connect<&zero>();
    sink.connect<&one>();

    std::vector<int> vec{};
    signal.collect([&vec](int value) { vec.push_back(value); });
    // EnTT's guide shows 0 then 1; EnTT, like tessera, calls the most recently connected listener first
    ASSERT_EQ(vec, (std::vector<int>{1, 0}));

    my_collector collector;
    signal.collect(std::ref(collector));
    ASSERT_EQ(collector.vec.size(), 1u);
}

TEST(porting_signal, dispatcher_connect_disconnect_publish) {
    entt::dispatcher dispatcher{};
    dispatcher.sink<an_event>().connect<&on_an_event>();
    event_listener listener;
    dispatcher.sink<another_event>().connect<&event_listener::on_another>(listener);

    dispatcher.trigger(an_event{42});
    dispatcher.trigger(another_event{});
    ASSERT_EQ(an_event_total, 42);
    ASSERT_EQ(listener.another, 1);

    dispatcher.enqueue<an_event>(1);
    dispatcher.enqueue(another_event{});
    dispatcher.update<an_event>();
    ASSERT_EQ(an_event_total, 43);
    ASSERT_EQ(listener.another, 1);
    dispatcher.update();
    ASSERT_EQ(listener.another, 2);

    dispatcher.sink<an_event>().disconnect<&on_an_event>();
    dispatcher.sink<another_event>().disconnect<&event_listener::on_another>(listener);
    dispatcher.sink<another_event>().connect<&event_listener::on_another>(listener);
    dispatcher.sink<another_event>().disconnect(&listener);
    dispatcher.trigger(an_event{1});
    dispatcher.trigger(another_event{});
    ASSERT_EQ(an_event_total, 43);
    ASSERT_EQ(listener.another, 2);
}

TEST(porting_signal, dispatcher_named_queues) {
    entt::dispatcher dispatcher{};
    event_listener listener;
    dispatcher.sink<an_event>("custom"_hs).connect<&event_listener::receive>(listener);
    dispatcher.enqueue_hint<an_event>("custom"_hs, 42);
    dispatcher.enqueue<an_event>(1);
    dispatcher.update<an_event>("custom"_hs);
    ASSERT_EQ(listener.received, 42);
    ASSERT_EQ(dispatcher.size<an_event>(), 1u);
}

TEST(porting_signal, emitter) {
    my_emitter emitter{};
    int received{};
    emitter.on<my_event>([&received](const my_event &event, my_emitter &) { received = event.i; });
    ASSERT_TRUE(emitter.contains<my_event>());
    ASSERT_FALSE(emitter.empty());

    emitter.publish(my_event{42});
    ASSERT_EQ(received, 42);

    emitter.erase<my_event>();
    ASSERT_FALSE(emitter.contains<my_event>());
    emitter.on<my_event>([](auto &, auto &) {});
    emitter.clear();
    ASSERT_TRUE(emitter.empty());
}

} // namespace unit_porting_signal
} // namespace
