// Tests of component.hpp: the defaults of component_traits (in_place_delete, page_size, clone, entity_members),
// and the ways to customize them (members of the type, a full specialization, a constrained partial
// specialization, a specialization that predates some members).
#include <concepts>
#include <cstddef>
#include <gtest/gtest.h>
#include <memory>
#include <tessera/entity/clone.hpp>
#include <tessera/entity/command_buffer.hpp>
#include <tessera/entity/component.hpp>
#include <tessera/entity/entity.hpp>
#include <tessera/entity/prototype.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/storage.hpp>
#include <tuple>
#include <type_traits>
#include <vector>

namespace {

struct plain {
    int value;
};

struct empty {};

struct pinned {
    pinned() = default;
    pinned(const pinned &) = delete;
    pinned &operator=(const pinned &) = delete;
    int value{};
};

struct move_only_construct {
    move_only_construct() = default;
    move_only_construct(move_only_construct &&) = default;
    move_only_construct &operator=(move_only_construct &&) = delete;
    int value{};
};

struct stable {
    static constexpr bool in_place_delete = true;
    int value;
};

struct explicitly_unstable {
    static constexpr bool in_place_delete = false;
    int value;
};

struct small_pages {
    static constexpr std::size_t page_size = 4u;
    int value;
};

struct no_instances {
    static constexpr int page_size = 0;
    int value;
};

struct empty_with_pages {
    static constexpr std::size_t page_size = 8u;
};

struct specialized {
    int value;
};

struct skipped {
    static constexpr auto clone = tessera::clone_policy::skip;
    int value;
};

struct with_function {
    int value;
    static with_function clone_element(const with_function &other) { return {other.value + 1}; }
};

/// A member named clone that is not a policy: ignored.
struct unrelated_clone {
    [[nodiscard]] unrelated_clone clone() const { return *this; }
    int value;
};

struct not_copyable {
    std::unique_ptr<int> value;
};

struct linked {
    tessera::entity parent;
    std::vector<tessera::entity> children;
    static constexpr auto entity_members = std::tuple{&linked::parent, &linked::children};
};

struct spelled_out {
    int value;
};

struct tiny_a {
    using tiny_tag = void;
    int value;
};

struct tiny_b {
    using tiny_tag = void;
    double value;
};

template<typename Type>
concept tiny = requires {
    typename Type::tiny_tag;
};

/// Tuned the way the manual's own example tunes a type: a specialization with the manual's two members only.
struct particle {
    float x;
};

} // namespace

template<>
struct tessera::component_traits<particle> {
    static constexpr auto in_place_delete = false;
    static constexpr auto page_size = 128u;
};

template<>
struct tessera::component_traits<specialized, tessera::entity> {
    using element_type = specialized;
    using entity_type = tessera::entity;
    static constexpr bool in_place_delete = true;
    static constexpr std::size_t page_size = 2u;
};

template<>
struct tessera::component_traits<spelled_out, tessera::entity> {
    using element_type = spelled_out;
    using entity_type = tessera::entity;
    static constexpr bool in_place_delete = false;
    static constexpr std::size_t page_size = 8u;
    static constexpr auto clone = tessera::clone_policy::custom;
    static constexpr auto entity_members = std::tuple{};

    static spelled_out clone_element(const spelled_out &other) { return {-other.value}; }
};

template<tiny Type>
struct tessera::component_traits<Type, tessera::entity> {
    using element_type = Type;
    using entity_type = tessera::entity;
    static constexpr bool in_place_delete = false;
    static constexpr std::size_t page_size = 16u;
};

TEST(component_traits, member_types) {
    using traits = tessera::component_traits<plain>;
    static_assert(std::is_same_v<traits::element_type, plain>);
    static_assert(std::is_same_v<traits::entity_type, tessera::entity>);
    static_assert(std::is_same_v<tessera::component_traits<plain, tessera::entity>, traits>);
}

TEST(component_traits, in_place_delete_defaults) {
    static_assert(!tessera::component_traits<plain>::in_place_delete);
    static_assert(!tessera::component_traits<empty>::in_place_delete);
    static_assert(!tessera::component_traits<void>::in_place_delete);
    static_assert(!tessera::component_traits<explicitly_unstable>::in_place_delete);
    static_assert(tessera::component_traits<stable>::in_place_delete);
    // pinned: neither movable nor move-assignable, or only one of the two
    static_assert(tessera::component_traits<pinned>::in_place_delete);
    static_assert(tessera::component_traits<move_only_construct>::in_place_delete);
}

TEST(component_traits, page_size_defaults) {
    static_assert(tessera::component_traits<plain>::page_size == TESSERA_PACKED_PAGE);
    static_assert(tessera::component_traits<pinned>::page_size == TESSERA_PACKED_PAGE);
    static_assert(tessera::component_traits<stable>::page_size == TESSERA_PACKED_PAGE);
    static_assert(tessera::component_traits<empty>::page_size == 0u);
    static_assert(tessera::component_traits<void>::page_size == 0u);
}

TEST(component_traits, page_size_member) {
    static_assert(tessera::component_traits<small_pages>::page_size == 4u);
    static_assert(tessera::component_traits<no_instances>::page_size == 0u);
    static_assert(tessera::component_traits<empty_with_pages>::page_size == 8u);
    static_assert(std::is_same_v<decltype(tessera::component_traits<no_instances>::page_size), const std::size_t>);
}

TEST(component_traits, page_size_drives_the_storage) {
    static_assert(std::is_void_v<tessera::storage<no_instances>::value_type>);
    static_assert(std::is_same_v<tessera::storage<empty_with_pages>::value_type, empty_with_pages>);

    tessera::storage<small_pages> storage;
    storage.emplace(tessera::entity{0}, 1);
    EXPECT_EQ(storage.capacity(), 4u);
    for (unsigned idx = 1u; idx < 5u; ++idx) {
        storage.emplace(tessera::entity{idx}, static_cast<int>(idx));
    }
    EXPECT_EQ(storage.capacity(), 8u);
    EXPECT_EQ(&storage.raw()[1][0], &storage.get(tessera::entity{4}));
}

TEST(component_traits, full_specialization) {
    using traits = tessera::component_traits<specialized>;
    static_assert(traits::in_place_delete);
    static_assert(traits::page_size == 2u);
    static_assert(tessera::storage<specialized>::storage_policy == tessera::deletion_policy::in_place);

    tessera::storage<specialized> storage;
    storage.emplace(tessera::entity{3}, 7);
    EXPECT_EQ(storage.capacity(), 2u);
    EXPECT_EQ(storage.policy(), tessera::deletion_policy::in_place);
}

TEST(component_traits, constrained_partial_specialization) {
    static_assert(tessera::component_traits<tiny_a>::page_size == 16u);
    static_assert(tessera::component_traits<tiny_b>::page_size == 16u);
    static_assert(!tessera::component_traits<tiny_b>::in_place_delete);
    // types the constraint does not match keep the defaults
    static_assert(tessera::component_traits<plain>::page_size == TESSERA_PACKED_PAGE);

    tessera::storage<tiny_b> storage;
    storage.emplace(tessera::entity{0}, 1.5);
    EXPECT_EQ(storage.capacity(), 16u);
    EXPECT_EQ(storage.get(tessera::entity{0}).value, 1.5);
}

TEST(component_traits, clone_defaults) {
    static_assert(tessera::component_traits<plain>::clone == tessera::clone_policy::copy);
    static_assert(tessera::component_traits<empty>::clone == tessera::clone_policy::copy);
    static_assert(tessera::component_traits<void>::clone == tessera::clone_policy::copy);
    // copy is the default even where it cannot work: clone then reports the type
    static_assert(tessera::component_traits<not_copyable>::clone == tessera::clone_policy::copy);
    static_assert(tessera::component_traits<unrelated_clone>::clone == tessera::clone_policy::copy);
    static_assert(std::is_same_v<decltype(tessera::component_traits<plain>::clone), const tessera::clone_policy>);
}

TEST(component_traits, clone_members) {
    static_assert(tessera::component_traits<skipped>::clone == tessera::clone_policy::skip);
    static_assert(tessera::component_traits<with_function>::clone == tessera::clone_policy::custom);
    static_assert(tessera::component_traits<spelled_out>::clone == tessera::clone_policy::custom);
    static_assert(!tessera::component_traits<spelled_out>::in_place_delete);
    static_assert(tessera::component_traits<spelled_out>::page_size == 8u);
    static_assert(
        std::tuple_size_v<std::remove_const_t<decltype(tessera::component_traits<spelled_out>::entity_members)>> == 0u);
    EXPECT_EQ(tessera::component_traits<spelled_out>::clone_element(spelled_out{2}).value, -2);
    // specializations without the member read the default through the library's own accessor
    static_assert(tessera::internal::clone_policy_of<tessera::component_traits<specialized>, specialized> ==
                  tessera::clone_policy::copy);
    static_assert(tessera::internal::clone_policy_of<tessera::component_traits<tiny_a>, tiny_a> ==
                  tessera::clone_policy::copy);
    static_assert(tessera::internal::clone_policy_of<tessera::component_traits<skipped>, skipped> ==
                  tessera::clone_policy::skip);
    EXPECT_EQ(with_function::clone_element(with_function{1}).value, 2);
}

TEST(component_traits, entity_members) {
    static_assert(std::tuple_size_v<std::remove_const_t<decltype(tessera::component_traits<plain>::entity_members)>> ==
                  0u);
    static_assert(std::tuple_size_v<std::remove_const_t<decltype(tessera::component_traits<void>::entity_members)>> ==
                  0u);
    constexpr auto members = tessera::component_traits<linked>::entity_members;
    static_assert(std::tuple_size_v<std::remove_const_t<decltype(members)>> == 2u);
    static_assert(std::get<0>(members) == &linked::parent);
    static_assert(std::get<1>(members) == &linked::children);
    // a specialization without the member has none
    static_assert(
        std::tuple_size_v<std::remove_const_t<
            decltype(tessera::internal::entity_members_of<tessera::component_traits<specialized>, specialized>)>> ==
        0u);

    linked value{tessera::entity{3}, {tessera::entity{4}}};
    EXPECT_EQ(value.*std::get<0>(members), tessera::entity{3});
    EXPECT_EQ((value.*std::get<1>(members)).size(), 1u);
}

// A specialization with only the members the manual lists compiles everywhere a component goes: every member
// added since (clone, clone_element, entity_members, track_changes) falls back to its default without
// element_type or entity_type.
TEST(component_traits, a_specialization_with_the_manuals_members_only) {
    static_assert(!tessera::internal::track_changes_of<tessera::component_traits<particle>, particle>);
    static_assert(tessera::internal::clone_policy_of<tessera::component_traits<particle>, particle> ==
                  tessera::clone_policy::copy);
    static_assert(std::tuple_size_v<std::remove_const_t<
                      decltype(tessera::internal::entity_members_of<tessera::component_traits<particle>, particle>)>> ==
                  0u);

    tessera::registry registry;
    const auto entt = registry.create();
    EXPECT_EQ(registry.emplace<particle>(entt, 1.f).x, 1.f);
    // the page size of the specialization: the 129th element starts the second page
    for (int extra = 0; extra < 128; ++extra) {
        registry.emplace<particle>(registry.create(), 0.f);
    }
    EXPECT_EQ(registry.storage<particle>().raw()[1u], &*registry.storage<particle>().begin()); // begin() is the last
    static_assert(tessera::registry::storage_for_type<particle>::storage_policy ==
                  tessera::deletion_policy::swap_and_pop);

    int visited{};
    registry.view<particle>().each([&visited](const particle &value) { visited += static_cast<int>(value.x); });
    EXPECT_EQ(visited, 1);

    const auto copy = registry.clone(entt);
    EXPECT_EQ(registry.get<particle>(copy).x, 1.f);

    tessera::prototype proto{registry, entt};
    EXPECT_EQ(tessera::spawn(registry, proto, 3u).size(), 3u);

    tessera::command_buffer buffer;
    buffer.emplace<particle>(buffer.create(), 2.f);
    buffer.apply(registry);
    EXPECT_EQ(registry.storage<particle>().size(), 134u); // 129, the clone, 3 spawned, 1 applied

    registry.disable<particle>(entt);
    EXPECT_FALSE(registry.enabled<particle>(entt));
}
