// Tests of any.hpp: policies, copies and moves, aliases, casts, comparisons and misuse.
#include "support/misuse.hpp"
#include <array>
#include <cstddef>
#include <gtest/gtest.h>
#include <memory>
#include <stdexcept>
#include <string>
#include <tessera/core/any.hpp>
#include <type_traits>
#include <utility>
#include <vector>

namespace {
namespace unit_core_any {

namespace {

struct aggregate {
    int x;
    int y;
};

// No default constructor, but an aggregate: built with braces even without arguments would not compile, so
// only the braced form with arguments is exercised.
struct big {
    std::array<double, 8u> values{};
    bool operator==(const big &) const = default;
};

struct not_comparable {
    int value;
};

// Copying throws when armed, to check the strong guarantee.
struct throwing {
    static inline bool armed = false;
    int value{};
    throwing() = default;
    explicit throwing(int init) : value{init} {}
    throwing(const throwing &other) : value{other.value} {
        if (armed) {
            throw std::runtime_error{"copy"};
        }
    }
    throwing &operator=(const throwing &) = default;
    bool operator==(const throwing &) const = default;
};

// Fits in the buffer by size, but may throw when moved: must go on the heap.
struct throwing_move {
    int value{};
    throwing_move() = default;
    throwing_move(throwing_move &&other) noexcept(false) : value{other.value} {}
    throwing_move(const throwing_move &) = default;
};

struct counted {
    static inline int alive = 0;
    counted() { ++alive; }
    counted(const counted &) { ++alive; }
    counted(counted &&) noexcept { ++alive; }
    ~counted() { --alive; }
};

struct non_assignable {
    const int value;
};

} // namespace

TEST(any, empty) {
    const tessera::any any{};
    EXPECT_FALSE(any);
    EXPECT_FALSE(any.has_value());
    EXPECT_FALSE(any.owner());
    EXPECT_EQ(any.policy(), tessera::any_policy::empty);
    EXPECT_EQ(any.info(), tessera::type_id<void>());
    EXPECT_EQ(any.data(), nullptr);
    EXPECT_EQ(any.data<int>(), nullptr);
    EXPECT_EQ(any, tessera::any{});

    const tessera::any from_void{std::in_place_type<void>};
    EXPECT_FALSE(from_void);
}

TEST(any, embedded_value) {
    tessera::any any{42};
    EXPECT_TRUE(any);
    EXPECT_TRUE(any.owner());
    EXPECT_EQ(any.policy(), tessera::any_policy::embedded);
    EXPECT_EQ(any.info(), tessera::type_id<int>());
    ASSERT_NE(any.data<int>(), nullptr);
    EXPECT_EQ(*any.data<int>(), 42);
    EXPECT_EQ(any.data<char>(), nullptr);
    EXPECT_EQ(any.data(), any.data<int>());
    EXPECT_EQ(std::as_const(any).data(), any.data());
    // The value lives inside the object.
    const auto *begin = reinterpret_cast<const std::byte *>(&any);
    const auto *value = static_cast<const std::byte *>(any.data());
    EXPECT_TRUE(value >= begin && value < begin + sizeof(any));
}

TEST(any, dynamic_value) {
    tessera::any any{big{}};
    EXPECT_EQ(any.policy(), tessera::any_policy::dynamic);
    EXPECT_TRUE(any.owner());
    EXPECT_EQ(any.info(), tessera::type_id<big>());

    tessera::any heap_only{throwing_move{}};
    EXPECT_EQ(heap_only.policy(), tessera::any_policy::dynamic);

    tessera::any over_aligned{std::in_place_type<std::array<char, 4u>>};
    EXPECT_EQ(over_aligned.policy(), tessera::any_policy::embedded);
    EXPECT_EQ((tessera::basic_any<16u, 1u>{std::in_place_type<int>}.policy()), tessera::any_policy::dynamic);
}

TEST(any, zero_length_is_always_on_the_heap) {
    tessera::basic_any<0u> any{'c'};
    EXPECT_EQ(any.policy(), tessera::any_policy::dynamic);
    const void *address = any.data();
    tessera::basic_any<0u> moved{std::move(any)};
    EXPECT_EQ(moved.data(), address);
    EXPECT_EQ(tessera::any_cast<char>(moved), 'c');
    static_assert(tessera::basic_any<0u>::length == 0u);
}

TEST(any, in_place_construction) {
    const tessera::any string{std::in_place_type<std::string>, 3u, 'x'};
    EXPECT_EQ(tessera::any_cast<const std::string &>(string), "xxx");

    // Aggregates are built with braces.
    const tessera::any point{std::in_place_type<aggregate>, 1, 2};
    EXPECT_EQ(tessera::any_cast<aggregate>(point).x, 1);
    EXPECT_EQ(tessera::any_cast<aggregate>(point).y, 2);

    const tessera::any zeroed{std::in_place_type<aggregate>};
    EXPECT_EQ(tessera::any_cast<aggregate>(zeroed).y, 0);

    const tessera::any constant{std::in_place_type<const int>, 3};
    EXPECT_TRUE(constant.owner());
    EXPECT_EQ(constant.info(), tessera::type_id<int>());

    const auto made = tessera::make_any<aggregate>(5, 6);
    EXPECT_EQ(tessera::any_cast<const aggregate &>(made).y, 6);
}

TEST(any, alias) {
    int value = 3;
    tessera::any ref{std::in_place_type<int &>, value};
    EXPECT_EQ(ref.policy(), tessera::any_policy::ref);
    EXPECT_FALSE(ref.owner());
    EXPECT_EQ(ref.data(), &value);
    tessera::any_cast<int &>(ref) = 4;
    EXPECT_EQ(value, 4);

    tessera::any cref{std::in_place_type<const int &>, value};
    EXPECT_EQ(cref.policy(), tessera::any_policy::cref);
    EXPECT_FALSE(cref.owner());
    EXPECT_EQ(std::as_const(cref).data(), &value);
    EXPECT_EQ(cref.data(), nullptr);
    EXPECT_EQ(cref.data<int>(), nullptr);
    EXPECT_EQ(cref.data<const int>(), &value);
    EXPECT_EQ(std::as_const(cref).data<int>(), &value);
    EXPECT_EQ(tessera::any_cast<int>(&cref), nullptr);
    EXPECT_EQ(tessera::any_cast<const int>(&cref), &value);
    EXPECT_EQ(tessera::any_cast<const int &>(cref), 4);
    EXPECT_EQ(tessera::any_cast<int>(cref), 4);

    const auto made = tessera::make_any<int &>(value);
    EXPECT_EQ(made.policy(), tessera::any_policy::ref);
}

TEST(any, forward_as_any) {
    int value = 1;
    const int constant = 2;
    auto ref = tessera::forward_as_any(value);
    auto cref = tessera::forward_as_any(constant);
    auto owned = tessera::forward_as_any(3);
    EXPECT_EQ(ref.policy(), tessera::any_policy::ref);
    EXPECT_EQ(ref.data(), &value);
    EXPECT_EQ(cref.policy(), tessera::any_policy::cref);
    EXPECT_EQ(std::as_const(cref).data(), &constant);
    EXPECT_EQ(owned.policy(), tessera::any_policy::embedded);
    EXPECT_EQ(tessera::any_cast<int>(owned), 3);

    auto heap = tessera::forward_as_any<0u>(value);
    static_assert(std::is_same_v<decltype(heap), tessera::basic_any<0u>>);
    EXPECT_EQ(heap.policy(), tessera::any_policy::ref);
}

TEST(any, as_ref) {
    tessera::any any{7};
    auto ref = any.as_ref();
    EXPECT_EQ(ref.policy(), tessera::any_policy::ref);
    EXPECT_EQ(ref.data(), any.data());
    tessera::any_cast<int &>(ref) = 8;
    EXPECT_EQ(tessera::any_cast<int>(any), 8);

    auto cref = std::as_const(any).as_ref();
    EXPECT_EQ(cref.policy(), tessera::any_policy::cref);
    EXPECT_EQ(cref.data(), nullptr);

    // An alias of a const alias stays const.
    EXPECT_EQ(cref.as_ref().policy(), tessera::any_policy::cref);
    EXPECT_FALSE(tessera::any{}.as_ref());
}

TEST(any, copy_of_owner_and_alias) {
    const tessera::any owner{std::string{"text"}};
    const tessera::any copy{owner};
    EXPECT_TRUE(copy.owner());
    EXPECT_NE(copy.data(), owner.data());
    EXPECT_EQ(tessera::any_cast<const std::string &>(copy), "text");

    std::string text{"alias"};
    const auto ref = tessera::forward_as_any(std::as_const(text));
    tessera::any from_alias{ref};
    EXPECT_TRUE(from_alias.owner());
    EXPECT_NE(from_alias.data(), &text);
    text = "changed";
    EXPECT_EQ(tessera::any_cast<const std::string &>(from_alias), "alias");

    // A type that cannot be copied gives an empty copy.
    auto pointer = std::make_unique<int>(1);
    const auto ref_to_unique = tessera::forward_as_any(pointer);
    const tessera::any empty_copy{ref_to_unique};
    EXPECT_FALSE(empty_copy);
    const tessera::any move_only{std::make_unique<int>(2)};
    const tessera::any empty_too{move_only};
    EXPECT_FALSE(empty_too);
    const tessera::any vector_of_unique{std::vector<std::unique_ptr<int>>{}};
    EXPECT_FALSE(tessera::any{vector_of_unique});
}

TEST(any, copy_assignment) {
    tessera::any target{1};
    const tessera::any source{big{}};
    target = source;
    EXPECT_EQ(target.policy(), tessera::any_policy::dynamic);
    EXPECT_EQ(target, source);
    EXPECT_NE(target.data(), source.data());

    // Self-assignment through a reference, which keeps the compiler's self-assignment warnings quiet.
    const auto &self = target;
    target = self;
    EXPECT_EQ(target, source);

    target = tessera::any{};
    EXPECT_FALSE(target);
}

TEST(any, copy_that_throws_leaves_the_target_unchanged) {
    tessera::any target{std::string{"kept"}};
    const tessera::any source{throwing{5}};
    throwing::armed = true;
    EXPECT_THROW(target = source, std::runtime_error);
    EXPECT_THROW(tessera::any{source}, std::runtime_error);
    EXPECT_THROW(target.emplace<throwing>(tessera::any_cast<const throwing &>(source)), std::runtime_error);
    EXPECT_THROW(target = tessera::any_cast<const throwing &>(source), std::runtime_error);
    throwing::armed = false;
    EXPECT_EQ(tessera::any_cast<const std::string &>(target), "kept");
    EXPECT_EQ(tessera::any_cast<const throwing &>(source).value, 5);
}

TEST(any, move) {
    tessera::any embedded{3};
    tessera::any moved{std::move(embedded)};
    EXPECT_EQ(tessera::any_cast<int>(moved), 3);
    EXPECT_FALSE(embedded); // NOLINT(bugprone-use-after-move): the moved-from state is part of the contract

    tessera::any dynamic{big{}};
    const void *address = dynamic.data();
    tessera::any target{1};
    target = std::move(dynamic);
    EXPECT_EQ(target.data(), address);
    EXPECT_FALSE(dynamic); // NOLINT(bugprone-use-after-move)

    int value = 1;
    tessera::any ref = tessera::forward_as_any(value);
    tessera::any moved_ref{std::move(ref)};
    EXPECT_EQ(moved_ref.policy(), tessera::any_policy::ref);
    EXPECT_EQ(moved_ref.data(), &value);

    auto &self = target;
    target = std::move(self);
    EXPECT_EQ(target.data(), address);
}

TEST(any, lifetimes) {
    {
        tessera::any embedded{counted{}};
        tessera::basic_any<0u> dynamic{counted{}};
        EXPECT_EQ(counted::alive, 2);
        tessera::any copy{embedded};
        EXPECT_EQ(counted::alive, 3);
        tessera::any moved{std::move(copy)};
        EXPECT_EQ(counted::alive, 3);
        embedded.reset();
        EXPECT_EQ(counted::alive, 2);
        moved = 1;
        EXPECT_EQ(counted::alive, 1);
        counted local{};
        dynamic = tessera::basic_any<0u>{std::in_place_type<counted &>, local};
        EXPECT_EQ(counted::alive, 1);
    }
    EXPECT_EQ(counted::alive, 0);
}

TEST(any, value_assignment_and_emplace) {
    tessera::any any{};
    any = 3;
    EXPECT_EQ(tessera::any_cast<int>(any), 3);
    any = std::string{"text"};
    EXPECT_EQ(any.info(), tessera::type_id<std::string>());

    const std::string source{"source"};
    any = source;
    EXPECT_TRUE(any.owner());
    EXPECT_NE(any.data(), &source);

    any.emplace<aggregate>(1, 2);
    EXPECT_EQ(tessera::any_cast<aggregate &>(any).y, 2);

    // The arguments may refer to the current value.
    any.emplace<std::string>("abc");
    any.emplace<std::string>(tessera::any_cast<const std::string &>(any) + "d");
    EXPECT_EQ(tessera::any_cast<std::string>(any), "abcd");

    int value = 0;
    any.emplace<int &>(value);
    EXPECT_EQ(any.policy(), tessera::any_policy::ref);
    EXPECT_EQ(any.data(), &value);
    any.emplace<void>();
    EXPECT_FALSE(any);
}

TEST(any, assign) {
    tessera::any target{1};
    EXPECT_TRUE(target.assign(tessera::any{2}));
    EXPECT_EQ(tessera::any_cast<int>(target), 2);
    EXPECT_FALSE(target.assign(tessera::any{'c'}));
    EXPECT_EQ(tessera::any_cast<int>(target), 2);

    const tessera::any source{3};
    EXPECT_TRUE(target.assign(source));
    EXPECT_EQ(tessera::any_cast<int>(target), 3);

    int value = 0;
    auto ref = tessera::forward_as_any(value);
    EXPECT_TRUE(ref.assign(source));
    EXPECT_EQ(value, 3);

    auto cref = tessera::forward_as_any(std::as_const(value));
    EXPECT_FALSE(cref.assign(tessera::any{4}));
    EXPECT_EQ(value, 3);

    EXPECT_FALSE(tessera::any{}.assign(source));

    // Moving only happens when the source owns its value.
    tessera::any unique{std::make_unique<int>(5)};
    EXPECT_TRUE(unique.assign(tessera::any{std::make_unique<int>(6)}));
    EXPECT_EQ(*tessera::any_cast<const std::unique_ptr<int> &>(unique), 6);
    auto other = std::make_unique<int>(7);
    EXPECT_FALSE(unique.assign(tessera::forward_as_any(other)));
    EXPECT_NE(other, nullptr);

    tessera::any fixed{non_assignable{1}};
    EXPECT_FALSE(fixed.assign(tessera::any{non_assignable{2}}));
    EXPECT_FALSE(fixed.assign(std::as_const(fixed)));
}

TEST(any, equality) {
    EXPECT_EQ(tessera::any{1}, tessera::any{1});
    EXPECT_NE(tessera::any{1}, tessera::any{2});
    EXPECT_NE(tessera::any{1}, tessera::any{'\1'});
    EXPECT_NE(tessera::any{1}, tessera::any{});
    EXPECT_NE(tessera::any{}, tessera::any{1});
    EXPECT_EQ(tessera::any{std::string{"a"}}, tessera::any{std::string{"a"}});

    int value = 1;
    EXPECT_EQ(tessera::forward_as_any(value), tessera::any{1});

    // Without operator==, only the same object compares equal.
    tessera::any lhs{not_comparable{1}};
    const tessera::any rhs{not_comparable{1}};
    EXPECT_NE(lhs, rhs);
    EXPECT_EQ(lhs, lhs.as_ref());
    EXPECT_EQ(lhs, lhs);

    const tessera::any vectors{std::vector<not_comparable>{}};
    EXPECT_EQ(vectors, vectors);
    EXPECT_NE(vectors, tessera::any{std::vector<not_comparable>{}});
}

TEST(any_cast, value_and_reference_forms) {
    tessera::any any{std::string{"text"}};
    EXPECT_EQ(tessera::any_cast<std::string>(any), "text");
    EXPECT_EQ(tessera::any_cast<const std::string &>(any), "text");
    tessera::any_cast<std::string &>(any) += "!";
    EXPECT_EQ(tessera::any_cast<const std::string &>(std::as_const(any)), "text!");
    EXPECT_EQ(tessera::any_cast<std::string>(std::as_const(any)), "text!");
    EXPECT_EQ(&tessera::any_cast<std::string &>(any), any.data());
    EXPECT_EQ(tessera::any_cast<std::string>(&any), any.data());
    EXPECT_EQ(tessera::any_cast<std::string>(&std::as_const(any)), any.data());
    EXPECT_EQ(tessera::any_cast<int>(&any), nullptr);
    EXPECT_EQ(tessera::any_cast<int>(static_cast<tessera::any *>(nullptr)), nullptr);
    EXPECT_EQ(tessera::any_cast<int>(static_cast<const tessera::any *>(nullptr)), nullptr);
}

TEST(any_cast, rvalue_moves_an_owned_value_and_copies_an_alias) {
    tessera::any owner{std::string(64u, 'x')};
    const std::string moved = tessera::any_cast<std::string>(std::move(owner));
    EXPECT_EQ(moved.size(), 64u);
    EXPECT_TRUE(tessera::any_cast<const std::string &>(owner).empty()); // NOLINT(bugprone-use-after-move)

    std::string text(64u, 'y');
    const std::string copied = tessera::any_cast<std::string>(tessera::forward_as_any(text));
    EXPECT_EQ(copied, text);
    EXPECT_EQ(text.size(), 64u);

    const std::string from_cref = tessera::any_cast<std::string>(tessera::forward_as_any(std::as_const(text)));
    EXPECT_EQ(from_cref, text);

    auto unique = tessera::any_cast<std::unique_ptr<int>>(tessera::any{std::make_unique<int>(3)});
    EXPECT_EQ(*unique, 3);

    int value = 4;
    EXPECT_EQ(&tessera::any_cast<int &>(tessera::forward_as_any(value)), &value);
}

TEST(any_cast, misuse) {
    tessera::any any{1};
    const tessera::any &as_const = any;
    EXPECT_MISUSE(static_cast<void>(tessera::any_cast<char>(as_const)), "any_cast: the any does not hold this type");
    EXPECT_MISUSE(static_cast<void>(tessera::any_cast<char &>(any)), "any_cast: the any does not hold this type");
    EXPECT_MISUSE(static_cast<void>(tessera::any_cast<char>(any)), "any_cast: the any does not hold this type");
    EXPECT_MISUSE(static_cast<void>(tessera::any_cast<char>(tessera::any{1})), "does not hold this type");
    EXPECT_MISUSE(static_cast<void>(tessera::any_cast<std::unique_ptr<int>>(tessera::any{1})),
                  "does not hold this type");
    EXPECT_MISUSE(static_cast<void>(tessera::any_cast<int>(tessera::any{})), "does not hold this type");

    int value = 0;
    auto cref = tessera::forward_as_any(std::as_const(value));
    EXPECT_MISUSE(static_cast<void>(tessera::any_cast<int &>(cref)), "any_cast: the any is a const alias");
    EXPECT_MISUSE(static_cast<void>(tessera::any_cast<int &&>(std::move(cref))), "const alias");
    EXPECT_NO_THROW(static_cast<void>(tessera::any_cast<const int &>(cref)));
}

TEST(any, has_value_by_type) {
    tessera::any empty{};
    ASSERT_FALSE(empty.has_value(tessera::type_id<int>()));
    ASSERT_FALSE(empty.has_value<int>());
    ASSERT_FALSE(empty.has_value(tessera::type_id<void>()));

    tessera::any value{2};
    ASSERT_TRUE(value.has_value(tessera::type_id<int>()));
    ASSERT_TRUE(value.has_value<int>());
    ASSERT_FALSE(value.has_value(tessera::type_id<char>()));
    ASSERT_FALSE(value.has_value<char>());

    int target = 3;
    const auto alias = tessera::make_any<const int &>(target);
    ASSERT_TRUE(alias.has_value<int>());
    ASSERT_TRUE(alias.has_value(tessera::type_id<const int &>()));
}

TEST(any, data_by_type_info) {
    tessera::any value{2};
    const auto &cvalue = value;
    tessera::any empty{};
    const auto &int_info = tessera::type_id<int>();
    const auto &char_info = tessera::type_id<char>();

    ASSERT_EQ(empty.data(int_info), nullptr);
    ASSERT_EQ(value.data(char_info), nullptr);
    ASSERT_EQ(cvalue.data(char_info), nullptr);
    ASSERT_EQ(value.data(int_info), value.data());
    ASSERT_EQ(cvalue.data(int_info), cvalue.data());
    ASSERT_NE(value.as_ref().data(int_info), nullptr);
    // a const alias gives no writable address, whatever the type asked
    auto const_alias = cvalue.as_ref();
    ASSERT_EQ(const_alias.data(int_info), nullptr);
    ASSERT_EQ(std::as_const(const_alias).data(int_info), cvalue.data());
}

TEST(any, in_place_adopts_a_pointer) {
    counted::alive = 0;
    {
        tessera::any owner{std::in_place, new counted{}};
        ASSERT_TRUE(owner);
        ASSERT_TRUE(owner.owner());
        // adopted values stay where they are, even when small enough for the buffer
        ASSERT_EQ(owner.policy(), tessera::any_policy::dynamic);
        ASSERT_EQ(owner.info(), tessera::type_id<counted>());
        ASSERT_EQ(counted::alive, 1);

        auto copy = owner;
        ASSERT_EQ(copy.policy(), tessera::any_policy::embedded);
        ASSERT_EQ(counted::alive, 2);

        auto moved = std::move(owner);
        ASSERT_EQ(moved.policy(), tessera::any_policy::dynamic);
        ASSERT_FALSE(owner);
        ASSERT_EQ(counted::alive, 2);

        auto alias = moved.as_ref();
        ASSERT_EQ(alias.data(), moved.data());
    }
    ASSERT_EQ(counted::alive, 0);

    auto raw = std::make_unique<int>(42);
    tessera::any adopted{std::in_place, raw.release()};
    ASSERT_EQ(tessera::any_cast<int>(adopted), 42);
    adopted.emplace<int>(3);
    ASSERT_EQ(adopted.policy(), tessera::any_policy::embedded);
}

TEST(any, in_place_null_pointer_is_empty) {
    int *nothing = nullptr;
    const tessera::any value{std::in_place, nothing};
    ASSERT_FALSE(value);
    ASSERT_EQ(value.policy(), tessera::any_policy::empty);
    ASSERT_EQ(value.info(), tessera::type_id<void>());
}

TEST(any, arrays) {
    tessera::any value{std::in_place_type<int[3]>};
    ASSERT_TRUE(value);
    ASSERT_EQ(value.policy(), tessera::any_policy::dynamic);
    ASSERT_EQ(value.info(), tessera::type_id<int[3]>());
    ASSERT_NE(tessera::any_cast<int[3]>(&value), nullptr);
    ASSERT_EQ(tessera::any_cast<int[2]>(&value), nullptr);
    ASSERT_EQ(tessera::any_cast<int *>(&value), nullptr);

    auto &elements = tessera::any_cast<int(&)[3]>(value);
    // value-initialized
    ASSERT_EQ(elements[0], 0);
    ASSERT_EQ(elements[2], 0);
    elements[1] = 7;
    ASSERT_EQ(tessera::any_cast<const int(&)[3]>(std::as_const(value))[1], 7);

    // arrays cannot be copied: the copy is empty; a move takes the array over
    const tessera::any copy{value};
    ASSERT_FALSE(copy);
    auto moved = std::move(value);
    ASSERT_EQ(tessera::any_cast<int(&)[3]>(moved)[1], 7);

    // no value comparison for arrays: equal only to an alias of itself
    ASSERT_TRUE(moved == moved.as_ref());
    tessera::any other{std::in_place_type<int[3]>};
    ASSERT_FALSE(moved == other);

    const int before = counted::alive;
    tessera::any nested{std::in_place_type<counted[2][2]>};
    ASSERT_EQ(counted::alive, before + 4);
    nested.reset();
    ASSERT_EQ(counted::alive, before);
}

TEST(any, decayed_string_literal) {
    tessera::any value{"array of char"};
    ASSERT_EQ(value.info(), tessera::type_id<const char *>());
    ASSERT_EQ(std::string{tessera::any_cast<const char *>(value)}, "array of char");
}

} // namespace unit_core_any
} // namespace
