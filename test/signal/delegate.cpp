#include <tessera/signal/delegate.hpp>

#include <map>
#include <memory>
#include <type_traits>
#include <utility>

#include <gtest/gtest.h>

#include "support/misuse.hpp"

namespace {
namespace unit_signal_delegate {

namespace {

int twice(int value) { return value * 2; }

int first_only(const int &value) { return value; }

int unique_value(const std::unique_ptr<int> &value) { return value ? *value : -1; }

int add_payload(const int &base, int value) { return base + value; }

int add_payload_pointer(const int *base, int value) { return *base + value; }

void bump(int &counter) { ++counter; }

struct widget {
    static int triple(int value) { return value * 3; }

    int add(int value) { return (total += value); }

    [[nodiscard]] int peek(int value) const { return total + value; }

    [[nodiscard]] int scaled(int factor) const noexcept { return total * factor; }

    int total{};
    const int limit{10};
};

struct position {
    int x{};
    int y{};
};

struct velocity {
    int dx{};
};

// Mimics the shape of registry::emplace_or_replace: a member function template with a trailing pack.
struct mock_registry {
    template<typename Type, typename... Other>
    Type &emplace_or_replace(int entity, Other &&...other) {
        ++calls;
        if constexpr (std::is_same_v<Type, position>) {
            return positions[entity] = position{std::forward<Other>(other)...};
        } else {
            return velocities[entity] = velocity{std::forward<Other>(other)...};
        }
    }

    std::map<int, position> positions;
    std::map<int, velocity> velocities;
    int calls{};
};

template<typename Delegate, auto Candidate>
concept connectable = requires(Delegate delegate) {
    delegate.template connect<Candidate>();
};

template<typename Delegate, auto Candidate, typename Instance>
concept connectable_with = requires(Delegate delegate, Instance &instance) {
    delegate.template connect<Candidate>(instance);
};

} // namespace

TEST(delegate, default_is_empty) {
    tessera::delegate<int(int)> delegate{};

    EXPECT_FALSE(delegate);
    EXPECT_EQ(delegate.target(), nullptr);
    EXPECT_EQ(delegate.data(), nullptr);
    EXPECT_EQ(delegate, tessera::delegate<int(int)>{});
}

TEST(delegate, free_function) {
    tessera::delegate<int(int)> delegate{};
    delegate.connect<&twice>();

    EXPECT_TRUE(delegate);
    EXPECT_NE(delegate.target(), nullptr);
    EXPECT_EQ(delegate.data(), nullptr);
    EXPECT_EQ(delegate(21), 42);
}

TEST(delegate, static_member_function) {
    tessera::delegate<int(int)> delegate{};
    delegate.connect<&widget::triple>();

    EXPECT_EQ(delegate(5), 15);
}

TEST(delegate, member_function_with_object_as_first_argument) {
    widget instance{};
    tessera::delegate<int(widget &, int)> by_reference{};
    tessera::delegate<int(widget *, int)> by_pointer{};
    tessera::delegate<int(const widget &, int)> const_member{};
    by_reference.connect<&widget::add>();
    by_pointer.connect<&widget::add>();
    const_member.connect<&widget::peek>();

    EXPECT_EQ(by_reference(instance, 3), 3);
    EXPECT_EQ(by_pointer(&instance, 4), 7);
    EXPECT_EQ(const_member(instance, 1), 8);
    EXPECT_EQ(instance.total, 7);
    EXPECT_EQ(by_reference.data(), nullptr);

    // A non-const member cannot be reached through a const object.
    static_assert(!connectable<tessera::delegate<int(const widget &, int)>, &widget::add>);
}

TEST(delegate, member_function_template_as_listener) {
    mock_registry registry{};
    tessera::delegate<void(mock_registry &, int)> delegate{};
    delegate.connect<&mock_registry::emplace_or_replace<position>>();

    delegate(registry, 7);
    delegate(registry, 7);

    EXPECT_EQ(registry.calls, 2);
    ASSERT_EQ(registry.positions.count(7), 1u);
    EXPECT_TRUE(registry.velocities.empty());

    delegate.connect<&mock_registry::emplace_or_replace<velocity>>();
    delegate(registry, 3);

    EXPECT_EQ(registry.velocities.count(3), 1u);
    EXPECT_EQ(registry.positions.count(3), 0u);
}

TEST(delegate, data_member) {
    widget instance{};
    instance.total = 9;
    tessera::delegate<int(const widget &)> unbound{};
    tessera::delegate<int(widget *)> unbound_pointer{};
    tessera::delegate<int()> bound{};
    unbound.connect<&widget::total>();
    unbound_pointer.connect<&widget::total>();
    bound.connect<&widget::total>(instance);

    EXPECT_EQ(unbound(instance), 9);
    EXPECT_EQ(unbound_pointer(&instance), 9);
    EXPECT_EQ(bound(), 9);

    instance.total = 4;

    EXPECT_EQ(bound(), 4);
    EXPECT_EQ(bound.data(), &instance);
}

TEST(delegate, bound_member_function) {
    widget instance{};
    tessera::delegate<int(int)> by_reference{};
    tessera::delegate<int(int)> by_pointer{};
    by_reference.connect<&widget::add>(instance);
    by_pointer.connect<&widget::add>(&instance);

    EXPECT_EQ(by_reference(2), 2);
    EXPECT_EQ(by_pointer(3), 5);
    EXPECT_EQ(by_reference.data(), &instance);
    // Both forms bind the same candidate to the same instance.
    EXPECT_EQ(by_reference, by_pointer);
}

TEST(delegate, const_instance_admits_only_const_members) {
    widget instance{};
    instance.total = 10;
    const widget &view = instance;
    tessera::delegate<int(int)> delegate{};
    delegate.connect<&widget::peek>(view);

    EXPECT_EQ(delegate(1), 11);
    EXPECT_EQ(delegate.data(), &instance);

    // The constness used to bind does not matter when the candidate accepts both.
    tessera::delegate<int(int)> through_mutable{};
    through_mutable.connect<&widget::peek>(instance);

    EXPECT_EQ(through_mutable, delegate);

    static_assert(connectable_with<tessera::delegate<int(int)>, &widget::peek, const widget>);
    static_assert(!connectable_with<tessera::delegate<int(int)>, &widget::add, const widget>);
    static_assert(connectable_with<tessera::delegate<int(int)>, &widget::add, widget>);
}

TEST(delegate, curried_payload) {
    int base = 40;
    tessera::delegate<int(int)> by_reference{};
    tessera::delegate<int(int)> by_pointer{};
    tessera::delegate<int(int)> pointer_parameter{};
    by_reference.connect<&add_payload>(base);
    by_pointer.connect<&add_payload>(&base);
    pointer_parameter.connect<&add_payload_pointer>(base);

    EXPECT_EQ(by_reference(2), 42);
    EXPECT_EQ(by_pointer(3), 43);
    EXPECT_EQ(pointer_parameter(4), 44);
    EXPECT_EQ(by_reference.data(), &base);
    EXPECT_EQ(by_reference, by_pointer);

    // The delegate owns nothing: it sees later changes of the payload.
    base = 0;

    EXPECT_EQ(by_reference(2), 2);
    EXPECT_EQ(pointer_parameter(4), 4);
}

TEST(delegate, mutable_payload) {
    int counter = 0;
    tessera::delegate<void()> delegate{};
    delegate.connect<&bump>(counter);

    delegate();
    delegate();

    EXPECT_EQ(counter, 2);
}

TEST(delegate, trimming_takes_the_first_arguments_when_possible) {
    tessera::delegate<int(int, char)> delegate{};
    delegate.connect<&first_only>();

    EXPECT_EQ(delegate(5, 'x'), 5);
}

TEST(delegate, trimming_falls_back_to_the_last_arguments) {
    tessera::delegate<int(const std::unique_ptr<int> &, int)> delegate{};
    delegate.connect<&first_only>();

    EXPECT_EQ(delegate(std::make_unique<int>(1), 9), 9);

    // With a parameter that matches the first argument, the leading one wins.
    tessera::delegate<int(const std::unique_ptr<int> &, int)> leading{};
    leading.connect<&unique_value>();

    EXPECT_EQ(leading(std::make_unique<int>(3), 9), 3);
}

TEST(delegate, trimming_with_bound_instance_and_member) {
    widget instance{};
    instance.total = 1;
    mock_registry registry{};
    tessera::delegate<int(mock_registry &, int)> delegate{};
    delegate.connect<&widget::peek>(instance);

    EXPECT_EQ(delegate(registry, 5), 6);

    tessera::delegate<void(mock_registry &, int)> ignore_all{};
    ignore_all.connect<&bump>(instance.total);
    ignore_all(registry, 0);

    EXPECT_EQ(instance.total, 2);
}

TEST(delegate, uncallable_candidates_are_rejected) {
    static_assert(!connectable<tessera::delegate<int(char *)>, &twice>);
    static_assert(!connectable<tessera::delegate<int()>, &twice>);
    static_assert(!connectable<tessera::delegate<int(int)>, &add_payload>);
    static_assert(connectable<tessera::delegate<int(int, int)>, &add_payload>);
    SUCCEED();
}

TEST(delegate, result_is_discarded_for_void) {
    widget instance{};
    tessera::delegate<void(int)> delegate{};
    delegate.connect<&widget::add>(instance);

    delegate(6);

    EXPECT_EQ(instance.total, 6);
    static_assert(std::is_void_v<decltype(delegate(6))>);
}

TEST(delegate, noexcept_and_ref_qualified_members) {
    widget instance{};
    instance.total = 3;
    tessera::delegate<int(int)> delegate{};
    delegate.connect<&widget::scaled>(instance);

    EXPECT_EQ(delegate(2), 6);
}

TEST(delegate, user_provided_thunk) {
    int base = 10;
    auto *thunk = +[](const void *payload, int value) { return *static_cast<const int *>(payload) + value; };
    tessera::delegate<int(int)> delegate{thunk, &base};

    EXPECT_EQ(delegate.target(), thunk);
    EXPECT_EQ(delegate.data(), &base);
    EXPECT_EQ(delegate(1), 11);

    tessera::delegate<int(int)> other{};
    other.connect(thunk, &base);

    EXPECT_EQ(other, delegate);

    other.connect(thunk);

    EXPECT_EQ(other.data(), nullptr);
    EXPECT_NE(other, delegate);
}

TEST(delegate, reset) {
    widget instance{};
    tessera::delegate<int(int)> delegate{};
    delegate.connect<&widget::add>(instance);
    delegate.reset();

    EXPECT_FALSE(delegate);
    EXPECT_EQ(delegate.target(), nullptr);
    EXPECT_EQ(delegate.data(), nullptr);
}

TEST(delegate, equality) {
    widget first{};
    widget second{};
    tessera::delegate<int(int)> lhs{};
    tessera::delegate<int(int)> rhs{};

    lhs.connect<&twice>();
    rhs.connect<&twice>();

    EXPECT_EQ(lhs, rhs);

    rhs.connect<&widget::triple>();

    EXPECT_NE(lhs, rhs);

    lhs.connect<&widget::add>(first);
    rhs.connect<&widget::add>(first);

    EXPECT_EQ(lhs, rhs);

    rhs.connect<&widget::add>(second);

    EXPECT_NE(lhs, rhs);

    rhs.connect<&widget::peek>(first);

    EXPECT_NE(lhs, rhs);
}

TEST(delegate, constructed_with_connect_arg) {
    widget instance{};
    instance.total = 2;
    tessera::delegate<int(int)> free{tessera::connect_arg<&twice>};
    tessera::delegate<int(int)> member{tessera::connect_arg<&widget::peek>, instance};
    tessera::delegate<int(int)> member_pointer{tessera::connect_arg<&widget::peek>, &instance};

    EXPECT_EQ(free(4), 8);
    EXPECT_EQ(member(4), 6);
    EXPECT_EQ(member, member_pointer);
}

TEST(delegate, deduction_guides) {
    widget instance{};
    int base = 1;
    auto *thunk = +[](const void *, int value) { return value; };

    tessera::delegate free{tessera::connect_arg<&twice>};
    tessera::delegate unbound_member{tessera::connect_arg<&widget::add>};
    tessera::delegate const_member{tessera::connect_arg<&widget::peek>};
    tessera::delegate data_member{tessera::connect_arg<&widget::total>};
    tessera::delegate bound_member{tessera::connect_arg<&widget::add>, instance};
    tessera::delegate bound_pointer{tessera::connect_arg<&widget::add>, &instance};
    tessera::delegate bound_payload{tessera::connect_arg<&add_payload>, base};
    tessera::delegate bound_data{tessera::connect_arg<&widget::total>, instance};
    tessera::delegate const_data{tessera::connect_arg<&widget::total>, std::as_const(instance)};
    tessera::delegate user{thunk};

    static_assert(std::is_same_v<decltype(free), tessera::delegate<int(int)>>);
    static_assert(std::is_same_v<decltype(unbound_member), tessera::delegate<int(widget &, int)>>);
    static_assert(std::is_same_v<decltype(const_member), tessera::delegate<int(const widget &, int)>>);
    static_assert(std::is_same_v<decltype(data_member), tessera::delegate<const int &(const widget &)>>);
    static_assert(std::is_same_v<decltype(bound_member), tessera::delegate<int(int)>>);
    static_assert(std::is_same_v<decltype(bound_pointer), tessera::delegate<int(int)>>);
    static_assert(std::is_same_v<decltype(bound_payload), tessera::delegate<int(int)>>);
    // bound to an instance, a data member gives a copy typed as the member is declared, whatever the instance's
    // constness (EnTT deduces the same)
    static_assert(std::is_same_v<decltype(bound_data), tessera::delegate<int()>>);
    static_assert(std::is_same_v<decltype(const_data), tessera::delegate<int()>>);
    tessera::delegate const_member_data{tessera::connect_arg<&widget::limit>, instance};
    static_assert(std::is_same_v<decltype(const_member_data)::result_type, const int>);
    EXPECT_EQ(const_member_data(), 10);
    static_assert(std::is_same_v<decltype(user), tessera::delegate<int(int)>>);

    EXPECT_EQ(unbound_member(instance, 5), 5);
    EXPECT_EQ(bound_payload(2), 3);
    instance.total = 7;
    EXPECT_EQ(bound_data(), 7);
    EXPECT_EQ(data_member(instance), 7);
    EXPECT_EQ(&data_member(instance), &instance.total);
    EXPECT_EQ(const_data(), 7);
    EXPECT_EQ(user(3), 3);
}

TEST(delegate, type_aliases) {
    using delegate_type = tessera::delegate<long(int, char)>;

    static_assert(std::is_same_v<delegate_type::type, long(int, char)>);
    static_assert(std::is_same_v<delegate_type::result_type, long>);
    static_assert(std::is_same_v<delegate_type::function_type, long(const void *, int, char)>);
    SUCCEED();
}

TEST(delegate, calling_an_empty_delegate_is_a_misuse) {
    tessera::delegate<int(int)> delegate{};

    EXPECT_MISUSE(static_cast<void>(delegate(1)), "empty delegate");

    delegate.connect<&twice>();
    delegate.reset();

    EXPECT_MISUSE(static_cast<void>(delegate(1)), "empty delegate");
}

} // namespace unit_signal_delegate
} // namespace
