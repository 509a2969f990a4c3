// Tests of clone.hpp: registry::clone into the same registry and into another one, the clone policies (copy, skip,
// custom by the type or by its component_traits), the message that names a type clone cannot copy, disabled
// components, and clone_support's pieces that prototypes share (the pool in another registry, the bulk copy).
#include "support/misuse.hpp"
#include <array>
#include <gtest/gtest.h>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tessera/core/hashed_string.hpp>
#include <tessera/entity/clone.hpp>
#include <tessera/entity/registry.hpp>
#include <type_traits>
#include <vector>

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

using support = tessera::internal::clone_support<tessera::registry>;

TEST(clone, the_refusal_names_the_type) {
    const std::string text = tessera::internal::clone_refusal("clone", "move_only");
    EXPECT_EQ(text.substr(0u, 7u), "clone: ");
    EXPECT_NE(text.find("move_only cannot be copied"), std::string_view::npos);
    EXPECT_NE(text.find("docs/clone.md"), std::string_view::npos);

    tessera::registry registry;
    const auto source = registry.create();
    registry.emplace<move_only>(source);
    EXPECT_MISUSE(static_cast<void>(registry.clone(source)), "move_only cannot be copied");
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

TEST(clone, registry_clone_follows_the_policies) {
    tessera::registry registry;
    const auto source = registry.create();
    registry.emplace<plain>(source, 1);
    registry.emplace<tag>(source);
    registry.emplace<skipped>(source, 2);
    registry.emplace<by_traits>(source, 5);
    registry.emplace<by_type>(source, 5);
    registry.storage<plain>("named"_hs).emplace(source, 9);

    const auto copy = registry.clone(source);
    EXPECT_NE(copy, source);
    EXPECT_EQ(registry.get<plain>(copy).value, 1);
    EXPECT_TRUE(registry.all_of<tag>(copy));
    EXPECT_FALSE(registry.all_of<skipped>(copy));
    EXPECT_EQ(registry.get<by_traits>(copy).value, 15);
    EXPECT_EQ(registry.get<by_type>(copy).value, 105);
    EXPECT_EQ(registry.storage<plain>("named"_hs).get(copy).value, 9);
}

TEST(clone, into_another_registry_makes_the_pools_it_needs) {
    tessera::registry registry;
    const auto source = registry.create();
    registry.emplace<plain>(source, 4);
    registry.storage<plain>("named"_hs).emplace(source, 8);

    tessera::registry other;
    const auto copy = std::as_const(registry).clone(source, other);
    EXPECT_TRUE(other.valid(copy));
    EXPECT_EQ(other.get<plain>(copy).value, 4);
    EXPECT_EQ(other.storage<plain>("named"_hs).get(copy).value, 8);
    // a name taken by another element type there is a misuse
    tessera::registry taken;
    static_cast<void>(taken.storage<int>("named"_hs));
    EXPECT_MISUSE(static_cast<void>(registry.clone(source, taken)), "the pool name is taken by another element type");
}

TEST(clone, signals_fire_for_each_copied_component) {
    tessera::registry registry;
    const auto source = registry.create();
    registry.emplace<plain>(source, 1);
    registry.emplace<tag>(source);
    std::vector<tessera::entity> seen;
    registry.on_construct<plain>()
        .connect<[](std::vector<tessera::entity> &out, tessera::registry &, const tessera::entity entt) {
            out.push_back(entt);
        }>(seen);
    const auto copy = registry.clone(source);
    EXPECT_EQ(seen, std::vector<tessera::entity>{copy});
}

TEST(clone, disabled_components_stay_disabled) {
    tessera::registry registry;
    const auto source = registry.create();
    registry.emplace<plain>(source, 1);
    registry.emplace<by_type>(source, 2);
    registry.disable<plain>(source);

    const auto copy = registry.clone(source);
    EXPECT_FALSE(registry.enabled<plain>(copy));
    EXPECT_TRUE(registry.enabled<by_type>(copy));
}

TEST(clone, a_throwing_copy_leaves_no_entity_behind) {
    struct throwing {
        throwing() = default;
        throwing(const throwing &) { throw std::runtime_error{"copy"}; }
        throwing &operator=(const throwing &) = default;
        int value{};
    };

    tessera::registry registry;
    const auto source = registry.create();
    registry.emplace<plain>(source, 1);
    registry.emplace<throwing>(source);
    const auto alive = registry.storage<tessera::entity>().free_list();
    EXPECT_THROW(static_cast<void>(registry.clone(source)), std::runtime_error);
    EXPECT_EQ(registry.storage<tessera::entity>().free_list(), alive);
    EXPECT_EQ(registry.storage<plain>().size(), 1u);
}

TEST(clone, support_copies_in_bulk) {
    tessera::registry registry;
    const auto source = registry.create();
    registry.emplace<by_traits>(source, 2);
    std::array<tessera::entity, 3u> targets{};
    registry.create(targets.begin(), targets.end());

    tessera::registry other;
    std::array<tessera::entity, 3u> elsewhere{};
    other.create(elsewhere.begin(), elsewhere.end());
    support::each_copied(registry, source, [&](const auto &entry) {
        auto &made = support::copy(other, entry, source, elsewhere.data(), elsewhere.data() + 3, "test");
        EXPECT_EQ(made.size(), 3u);
    });

    for (const auto entt : elsewhere) {
        EXPECT_EQ(other.get<by_traits>(entt).value, 6);
    }
}

} // namespace
