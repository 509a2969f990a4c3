// Tests of clone.hpp: the copier a registry keeps for each pool (flags, insert into a registry, duplicate and
// dispose), the message that names a type clone cannot copy, copies made by a function of the type or of its
// component_traits, and the iterator that makes one copy per new entity.
#include "support/misuse.hpp"
#include "support/tracking_allocator.hpp"
#include <array>
#include <gtest/gtest.h>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <tessera/core/hashed_string.hpp>
#include <tessera/entity/clone.hpp>
#include <tessera/entity/registry.hpp>
#include <type_traits>

namespace {

using namespace tessera::literals;

struct plain {
    int value;
};

struct tag {};

struct skipped {
    static constexpr auto clone = tessera::clone_policy::skip;
    int value;
};

struct by_type {
    int value;
    static by_type clone_element(const by_type &other) { return {other.value + 100}; }
};

struct by_traits {
    int value;
};

struct move_only {
    std::unique_ptr<int> handle;
};

} // namespace

template<>
struct tessera::component_traits<by_traits, tessera::entity> {
    using element_type = by_traits;
    using entity_type = tessera::entity;
    static constexpr bool in_place_delete = false;
    static constexpr std::size_t page_size = 16u;
    static constexpr auto clone = tessera::clone_policy::custom;

    static by_traits clone_element(const by_traits &other) { return {other.value * 3}; }
};

namespace {

template<typename Type>
using copier = tessera::internal::element_copier_for<tessera::registry, Type>;

TEST(clone, copier_flags) {
    static_assert(copier<plain>::table.policy == tessera::clone_policy::copy);
    static_assert(copier<plain>::table.copyable);
    static_assert(copier<plain>::has_instances);
    static_assert(!copier<tag>::has_instances);
    static_assert(copier<skipped>::table.policy == tessera::clone_policy::skip);
    static_assert(copier<by_type>::table.policy == tessera::clone_policy::custom);
    static_assert(copier<by_traits>::table.policy == tessera::clone_policy::custom);
    static_assert(!copier<move_only>::table.copyable);
    EXPECT_EQ(copier<plain>::table.info(), tessera::type_id<plain>());
    EXPECT_EQ(copier<move_only>::table.info(), tessera::type_id<move_only>());
}

TEST(clone, the_refusal_names_the_type) {
    const std::string_view text = tessera::internal::clone_refusal_message<move_only>::text.data();
    EXPECT_EQ(text.substr(0u, 7u), "clone: ");
    EXPECT_NE(text.find("move_only cannot be copied"), std::string_view::npos);
    EXPECT_NE(text.find("docs/clone.md"), std::string_view::npos);
}

TEST(clone, copies_by_the_type_or_by_its_traits) {
    using by_type_traits = tessera::component_traits<by_type>;
    using by_traits_traits = tessera::component_traits<by_traits>;
    EXPECT_EQ(tessera::internal::clone_copy<by_type_traits>(by_type{1}).value, 101);
    EXPECT_EQ(tessera::internal::clone_copy<by_traits_traits>(by_traits{2}).value, 6);
    EXPECT_EQ(tessera::internal::clone_copy<tessera::component_traits<plain>>(plain{3}).value, 3);

    // one fresh copy at each dereference
    const by_type source{5};
    tessera::internal::clone_copy_iterator<by_type_traits, by_type> it{source};
    static_assert(std::is_same_v<std::iter_value_t<decltype(it)>, by_type>);
    EXPECT_EQ((*it).value, 105);
    ++it;
    EXPECT_EQ((*it++).value, 105);
}

TEST(clone, insert_into_a_registry) {
    tessera::registry registry;
    std::array<tessera::entity, 3u> entities{};
    registry.create(entities.begin(), entities.end());
    const plain value{7};
    const by_traits custom{2};

    copier<plain>::table.insert(registry, "named"_hs, &value, entities.data(), entities.data() + 3);
    copier<tag>::table.insert(registry, tessera::type_hash<tag>::value(), nullptr, entities.data(),
                              entities.data() + 2);
    copier<by_traits>::table.insert(registry, tessera::type_hash<by_traits>::value(), &custom, entities.data(),
                                    entities.data() + 1);
    const skipped never{1};
    copier<skipped>::table.insert(registry, tessera::type_hash<skipped>::value(), &never, entities.data(),
                                  entities.data() + 3);

    EXPECT_EQ(registry.storage<plain>("named"_hs).get(entities[2]).value, 7);
    EXPECT_EQ(std::as_const(registry).storage<plain>(), nullptr);
    EXPECT_TRUE(registry.all_of<tag>(entities[1]));
    EXPECT_FALSE(registry.all_of<tag>(entities[2]));
    EXPECT_EQ(registry.get<by_traits>(entities[0]).value, 6);
    // skip makes no pool at all
    EXPECT_EQ(std::as_const(registry).storage<skipped>(), nullptr);

    const move_only pinned{};
    EXPECT_MISUSE(copier<move_only>::table.insert(registry, tessera::type_hash<move_only>::value(), &pinned,
                                                  entities.data(), entities.data() + 1),
                  "move_only cannot be copied");
}

TEST(clone, duplicate_and_dispose) {
    tessera_test::allocation_log log{};
    const tessera_test::tracking_allocator<tessera::entity> allocator{log};
    using registry_type = tessera::basic_registry<tessera::entity, tessera_test::tracking_allocator<tessera::entity>>;
    using plain_copier = tessera::internal::element_copier_for<registry_type, plain>;
    using custom_copier = tessera::internal::element_copier_for<registry_type, by_type>;
    using tag_copier = tessera::internal::element_copier_for<registry_type, tag>;
    using move_only_copier = tessera::internal::element_copier_for<registry_type, move_only>;

    const plain value{4};
    void *copy = plain_copier::table.duplicate(allocator, &value);
    ASSERT_NE(copy, nullptr);
    EXPECT_NE(copy, &value);
    EXPECT_EQ(static_cast<plain *>(copy)->value, 4);
    plain_copier::table.dispose(allocator, copy);

    const by_type custom{1};
    copy = custom_copier::table.duplicate(allocator, &custom);
    EXPECT_EQ(static_cast<by_type *>(copy)->value, 101);
    custom_copier::table.dispose(allocator, copy);

    EXPECT_EQ(tag_copier::table.duplicate(allocator, nullptr), nullptr);
    tag_copier::table.dispose(allocator, nullptr);
    auto *built = plain_copier::make(allocator, 9);
    EXPECT_EQ(built->value, 9);
    plain_copier::dispose(allocator, built);

    const move_only pinned{};
    EXPECT_MISUSE(static_cast<void>(move_only_copier::table.duplicate(allocator, &pinned)), "cannot be copied");
    EXPECT_TRUE(log.balanced());
    EXPECT_EQ(log.allocations, 3u);
}

TEST(clone, registry_clone_uses_the_traits_function) {
    tessera::registry registry;
    const auto source = registry.create();
    registry.emplace<by_traits>(source, 5);
    registry.emplace<by_type>(source, 5);
    const auto copy = registry.clone(source);
    EXPECT_EQ(registry.get<by_traits>(copy).value, 15);
    EXPECT_EQ(registry.get<by_type>(copy).value, 105);
}

} // namespace
