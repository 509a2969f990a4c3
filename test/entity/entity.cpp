// Tests of entity.hpp and fwd.hpp: identifier layouts and traits, null and tombstone, user layouts, and the
// get/exclude/owned tag lists.
#include "support/misuse.hpp"
#include <cstddef>
#include <cstdint>
#include <gtest/gtest.h>
#include <memory>
#include <tessera/core/type_traits.hpp>
#include <tessera/entity/entity.hpp>
#include <tessera/entity/fwd.hpp>
#include <tessera/entity/sparse_set.hpp>
#include <type_traits>
#include <utility>

namespace {

/// An enum over 64 bits: 32 bits of index, 32 bits of version.
enum class wide_id : std::uint64_t {};

/// A class identifier: explicit from the integer, static_cast back to it, equality-comparable.
struct class_id {
    using entity_type = std::uint32_t;

    constexpr class_id() noexcept = default;
    constexpr explicit class_id(const entity_type value) noexcept : raw{value} {}
    [[nodiscard]] constexpr explicit operator entity_type() const noexcept { return raw; }
    [[nodiscard]] constexpr bool operator==(const class_id &) const noexcept = default;

    entity_type raw{};
};

/// A user layout with 18 bits of index and 12 bits of version (two bits unused).
enum class narrow_id : std::uint32_t {};

struct narrow_layout {
    using value_type = narrow_id;
    using entity_type = std::uint32_t;
    using version_type = std::uint16_t;
    static constexpr entity_type entity_mask = 0x3FFFF;
    static constexpr entity_type version_mask = 0xFFF;
};

/// A user layout without version bits.
enum class flat_id : std::uint32_t {};

struct flat_layout {
    using value_type = flat_id;
    using entity_type = std::uint32_t;
    using version_type = std::uint8_t;
    static constexpr entity_type entity_mask = 0xFFFFF;
    static constexpr entity_type version_mask = 0u;
};

/// A class without entity_type and an enum over a type tessera does not support.
struct not_an_id {};
enum class short_id : std::uint16_t {};
struct short_class_id {
    using entity_type = std::uint16_t;
};

} // namespace

template<>
struct tessera::entt_traits<narrow_id> : tessera::basic_entt_traits<narrow_layout> {
    static constexpr std::size_t page_size = 256u;
};

template<>
struct tessera::entt_traits<flat_id> : tessera::basic_entt_traits<flat_layout> {
    static constexpr std::size_t page_size = 128u;
};

namespace {

using traits = tessera::entt_traits<tessera::entity>;
using wide_traits = tessera::entt_traits<std::uint64_t>;

constexpr bool takes_get(tessera::get_t<>) { return true; }

template<typename Type>
struct wrap {
    using type = std::unique_ptr<Type>;
};

} // namespace

TEST(entity, default_layout_types_and_masks) {
    static_assert(std::is_same_v<std::underlying_type_t<tessera::entity>, tessera::id_type>);
    static_assert(std::is_same_v<traits::value_type, tessera::entity>);
    static_assert(std::is_same_v<traits::entity_type, std::uint32_t>);
    static_assert(std::is_same_v<traits::version_type, std::uint16_t>);
    static_assert(
        std::is_same_v<traits::base_type, tessera::basic_entt_traits<tessera::internal::entt_layout<tessera::entity>>>);
    static_assert(std::is_base_of_v<traits::base_type, traits>);
    static_assert(traits::entity_mask == 0xFFFFFu);
    static_assert(traits::version_mask == 0xFFFu);
    static_assert(traits::page_size == TESSERA_SPARSE_PAGE);

    static_assert(std::is_same_v<wide_traits::value_type, std::uint64_t>);
    static_assert(std::is_same_v<wide_traits::version_type, std::uint32_t>);
    static_assert(wide_traits::entity_mask == 0xFFFFFFFFu);
    static_assert(wide_traits::version_mask == 0xFFFFFFFFu);

    static_assert(std::is_same_v<tessera::entt_traits<wide_id>::value_type, wide_id>);
    static_assert(std::is_same_v<tessera::entt_traits<wide_id>::entity_type, std::uint64_t>);
    static_assert(std::is_same_v<tessera::entt_traits<class_id>::value_type, class_id>);
    static_assert(std::is_same_v<tessera::entt_traits<class_id>::entity_type, std::uint32_t>);
    static_assert(tessera::entt_traits<class_id>::entity_mask == 0xFFFFFu);
    SUCCEED();
}

TEST(entity, entity_like_accepts_only_supported_types) {
    static_assert(tessera::entity_like<tessera::entity>);
    static_assert(tessera::entity_like<const tessera::entity>);
    static_assert(tessera::entity_like<std::uint32_t>);
    static_assert(tessera::entity_like<std::uint64_t>);
    static_assert(tessera::entity_like<wide_id>);
    static_assert(tessera::entity_like<class_id>);
    static_assert(tessera::entity_like<narrow_id>);
    static_assert(!tessera::entity_like<int>);
    static_assert(!tessera::entity_like<std::uint16_t>);
    static_assert(!tessera::entity_like<float>);
    static_assert(!tessera::entity_like<short_id>);
    static_assert(!tessera::entity_like<not_an_id>);
    static_assert(!tessera::entity_like<short_class_id>);
    static_assert(!tessera::entity_like<tessera::entity *>);
    SUCCEED();
}

TEST(entity, construct_and_decompose) {
    static_assert(traits::construct(1u, 1u) == tessera::entity{0x00100001});
    static_assert(traits::construct(0u, 0u) == tessera::entity{});
    static_assert(traits::to_integral(tessera::entity{0x12345678}) == 0x12345678u);
    static_assert(traits::to_entity(tessera::entity{0x12345678}) == 0x45678u);
    static_assert(traits::to_version(tessera::entity{0x12345678}) == 0x123u);
    // out-of-range parts are masked
    static_assert(traits::construct(0x1FFFFFu, 0x1FFFu) == tessera::entity{0xFFFFFFFF});

    for (const std::uint32_t index : {0u, 1u, 42u, 0xFFFFEu}) {
        for (const std::uint16_t version : {std::uint16_t{0}, std::uint16_t{7}, std::uint16_t{0xFFE}}) {
            const auto entt = traits::construct(index, version);
            EXPECT_EQ(traits::to_entity(entt), index);
            EXPECT_EQ(traits::to_version(entt), version);
            EXPECT_EQ(tessera::to_entity(entt), index);
            EXPECT_EQ(tessera::to_version(entt), version);
            EXPECT_EQ(tessera::to_integral(entt), (std::uint32_t{version} << 20u) | index);
        }
    }

    static_assert(std::is_same_v<decltype(tessera::to_integral(tessera::entity{})), std::uint32_t>);
    static_assert(std::is_same_v<decltype(tessera::to_version(tessera::entity{})), std::uint16_t>);
    static_assert(tessera::to_integral(std::uint32_t{0x00300002u}) == 0x00300002u);
    static_assert(tessera::to_version(std::uint32_t{0x00300002u}) == 3u);
    static_assert(tessera::to_entity(std::uint32_t{0x00300002u}) == 2u);
}

TEST(entity, combine_takes_index_bits_and_version_bits) {
    static_assert(traits::combine(0x00100005u, 0x00300009u) == traits::construct(5u, 3u));
    static_assert(traits::combine(0xFFFFFu, 0u) == traits::construct(0xFFFFFu, 0u));
    static_assert(traits::combine(0u, 0xFFFFFFFFu) == traits::construct(0u, 0xFFFu));
    static_assert(wide_traits::combine(0x0000000700000001u, 0x0000000200000009u) == 0x0000000200000001u);
    EXPECT_EQ(
        traits::combine(traits::to_integral(traits::construct(8u, 1u)), traits::to_integral(traits::construct(2u, 9u))),
        traits::construct(8u, 9u));
}

TEST(entity, next_increments_the_version_and_skips_the_tombstone) {
    static_assert(traits::next(traits::construct(3u, 0u)) == traits::construct(3u, 1u));
    static_assert(traits::next(traits::construct(3u, 0xFFDu)) == traits::construct(3u, 0xFFEu));
    static_assert(traits::next(traits::construct(3u, 0xFFEu)) == traits::construct(3u, 0u));
    // a tombstone version is not a live version, but next() still lands on the start of the sequence
    static_assert(traits::next(traits::construct(3u, 0xFFFu)) == traits::construct(3u, 0u));
    static_assert(wide_traits::next(wide_traits::construct(1u, 0xFFFFFFFEu)) == wide_traits::construct(1u, 0u));
    static_assert(wide_traits::next(wide_traits::construct(1u, 5u)) == wide_traits::construct(1u, 6u));

    // the full sequence: 0xFFF distinct live versions, never the tombstone one
    auto entt = traits::construct(9u, 0u);
    std::size_t steps{};
    do {
        ASSERT_NE(entt, tessera::tombstone);
        ASSERT_EQ(traits::to_entity(entt), 9u);
        entt = traits::next(entt);
        ++steps;
    } while (traits::to_version(entt) != 0u);
    EXPECT_EQ(steps, 0xFFFu);
}

TEST(entity, null_and_tombstone_for_the_default_identifier) {
    static_assert(traits::to_integral(tessera::null) == 0xFFFFFFFFu);
    static_assert(traits::to_integral(tessera::tombstone) == 0xFFFFFFFFu);
    static_assert(static_cast<tessera::entity>(tessera::null) == tessera::entity{0xFFFFFFFF});
    static_assert(static_cast<tessera::entity>(tessera::tombstone) == tessera::entity{0xFFFFFFFF});

    static_assert(tessera::null == tessera::null);
    static_assert(tessera::tombstone == tessera::tombstone);
    static_assert(!(tessera::null != tessera::null));

    // entity{} is entity 0, version 0
    static_assert(tessera::entity{} != tessera::null);
    static_assert(tessera::entity{} != tessera::tombstone);
    static_assert(tessera::null != tessera::entity{});
    static_assert(tessera::tombstone != tessera::entity{});

    // null looks at the index only, tombstone at the version only
    static_assert(traits::construct(5u, 0xFFFu) == tessera::tombstone);
    static_assert(traits::construct(5u, 0xFFFu) != tessera::null);
    static_assert(traits::construct(0xFFFFFu, 3u) == tessera::null);
    static_assert(traits::construct(0xFFFFFu, 3u) != tessera::tombstone);
    static_assert(traits::construct(0xFFFFFu, 0xFFFu) == tessera::null);
    static_assert(traits::construct(0xFFFFFu, 0xFFFu) == tessera::tombstone);
    static_assert(traits::construct(0xFFFFEu, 0xFFEu) != tessera::null);
    static_assert(traits::construct(0xFFFFEu, 0xFFEu) != tessera::tombstone);

    // both argument orders, as the C++20 rewrites provide them
    constexpr auto dead = traits::construct(2u, 0xFFFu);
    static_assert(tessera::tombstone == dead && dead == tessera::tombstone);
    static_assert(tessera::null != dead && dead != tessera::null);

    const tessera::entity converted = tessera::null;
    EXPECT_EQ(converted, tessera::null);
    EXPECT_EQ(converted, tessera::tombstone);
    EXPECT_EQ(tessera::to_entity(converted), traits::entity_mask);
    EXPECT_EQ(tessera::to_version(converted), traits::version_mask);
}

TEST(entity, null_and_tombstone_for_plain_integers) {
    static_assert(static_cast<std::uint32_t>(tessera::null) == 0xFFFFFFFFu);
    static_assert(static_cast<std::uint64_t>(tessera::null) == 0xFFFFFFFFFFFFFFFFu);
    static_assert(static_cast<std::uint64_t>(tessera::tombstone) == 0xFFFFFFFFFFFFFFFFu);

    static_assert(std::uint64_t{} != tessera::null);
    static_assert(std::uint64_t{} != tessera::tombstone);
    static_assert(wide_traits::construct(5u, 0xFFFFFFFFu) == tessera::tombstone);
    static_assert(wide_traits::construct(5u, 0xFFFFFFFFu) != tessera::null);
    static_assert(wide_traits::construct(0xFFFFFFFFu, 3u) == tessera::null);
    static_assert(wide_traits::construct(0xFFFFFFFFu, 3u) != tessera::tombstone);
    // the 20-bit null index of the 32-bit layout is an ordinary index with 64 bits
    static_assert(std::uint64_t{0xFFFFFu} != tessera::null);
    static_assert(std::uint64_t{0xFFFFFu} != tessera::tombstone);

    static_assert(std::uint32_t{0xFFFFFu} == tessera::null);
    static_assert(std::uint32_t{0xFFF00000u} == tessera::tombstone);
    static_assert(std::uint32_t{0u} != tessera::null);
    SUCCEED();
}

TEST(entity, null_and_tombstone_for_an_enum_over_64_bits) {
    using wide = tessera::entt_traits<wide_id>;
    static_assert(wide::to_integral(tessera::null) == 0xFFFFFFFFFFFFFFFFu);
    static_assert(wide::to_integral(tessera::tombstone) == 0xFFFFFFFFFFFFFFFFu);
    static_assert(wide_id{} != tessera::null);
    static_assert(wide_id{} != tessera::tombstone);
    static_assert(wide::construct(5u, 0xFFFFFFFFu) == tessera::tombstone);
    static_assert(wide::construct(5u, 0xFFFFFFFFu) != tessera::null);
    static_assert(wide::construct(0xFFFFFFFFu, 3u) == tessera::null);
    static_assert(wide::construct(0xFFFFFFFFu, 3u) != tessera::tombstone);
    static_assert(wide::construct(7u, 9u) == wide_id{0x0000000900000007u});
    static_assert(wide::next(wide::construct(7u, 0xFFFFFFFEu)) == wide::construct(7u, 0u));
    static_assert(tessera::to_version(wide_id{0x0000000900000007u}) == 9u);
    static_assert(std::is_same_v<decltype(tessera::to_version(wide_id{})), std::uint32_t>);
    SUCCEED();
}

TEST(entity, null_and_tombstone_for_a_class_identifier) {
    using cls = tessera::entt_traits<class_id>;
    static_assert(cls::to_integral(class_id{0x00100001u}) == 0x00100001u);
    static_assert(cls::construct(1u, 1u) == class_id{0x00100001u});
    static_assert(cls::to_entity(class_id{0x00300002u}) == 2u);
    static_assert(cls::to_version(class_id{0x00300002u}) == 3u);
    static_assert(cls::next(cls::construct(4u, 0xFFEu)) == cls::construct(4u, 0u));
    static_assert(cls::combine(0x00100005u, 0x00300009u) == cls::construct(5u, 3u));

    // copy-initialization: the class also has a constructor from the integer, which null converts to as well
    constexpr class_id null_id = tessera::null;
    constexpr class_id tombstone_id = tessera::tombstone;
    static_assert(null_id == class_id{0xFFFFFFFFu});
    static_assert(tombstone_id == class_id{0xFFFFFFFFu});
    static_assert(class_id{} != tessera::null);
    static_assert(class_id{} != tessera::tombstone);
    static_assert(cls::construct(5u, 0xFFFu) == tessera::tombstone);
    static_assert(cls::construct(5u, 0xFFFu) != tessera::null);
    static_assert(cls::construct(0xFFFFFu, 3u) == tessera::null);
    static_assert(cls::construct(0xFFFFFu, 3u) != tessera::tombstone);
    static_assert(tessera::null == cls::construct(0xFFFFFu, 3u));

    const class_id converted = tessera::null;
    EXPECT_EQ(static_cast<std::uint32_t>(converted), 0xFFFFFFFFu);
    EXPECT_EQ(tessera::to_integral(converted), 0xFFFFFFFFu);
}

TEST(entity, user_layout_with_other_masks) {
    using narrow = tessera::entt_traits<narrow_id>;
    static_assert(narrow::entity_mask == 0x3FFFFu);
    static_assert(narrow::version_mask == 0xFFFu);
    static_assert(narrow::page_size == 256u);
    static_assert(std::is_same_v<narrow::value_type, narrow_id>);

    // the version starts at bit 18
    static_assert(narrow::construct(1u, 1u) == narrow_id{0x00040001u});
    static_assert(narrow::to_entity(narrow_id{0x00040001u}) == 1u);
    static_assert(narrow::to_version(narrow_id{0x00040001u}) == 1u);
    static_assert(narrow::to_version(narrow_id{0xFFFFFFFFu}) == 0xFFFu);
    static_assert(narrow::next(narrow::construct(2u, 0xFFEu)) == narrow::construct(2u, 0u));
    static_assert(narrow::combine(narrow::to_integral(narrow::construct(6u, 1u)), 0x00080000u) ==
                  narrow::construct(6u, 2u));

    // null and tombstone follow the user's masks, not the default ones
    static_assert(narrow::to_integral(tessera::null) == 0x3FFFFFFFu);
    static_assert(narrow::to_integral(tessera::tombstone) == 0x3FFFFFFFu);
    static_assert(narrow::construct(0x3FFFFu, 1u) == tessera::null);
    // index 0x3FFFF with version 3: null for this layout, an ordinary identifier for the default one
    static_assert(narrow_id{0x000FFFFFu} == tessera::null);
    static_assert(tessera::entity{0x000FFFFFu} == tessera::null);
    static_assert(narrow_id{0x0003FFFFu} == tessera::null);
    static_assert(tessera::entity{0x0003FFFFu} != tessera::null);
    static_assert(narrow::construct(0x3FFFEu, 1u) != tessera::null);
    static_assert(narrow::construct(4u, 0xFFFu) == tessera::tombstone);
    static_assert(narrow::construct(4u, 0xFFEu) != tessera::tombstone);
    static_assert(tessera::to_version(narrow::construct(4u, 9u)) == 9u);

    // a sparse set uses the user's page size and null index
    tessera::basic_sparse_set<narrow_id> set{tessera::deletion_policy::in_place};
    EXPECT_EQ(set.free_list(), narrow::entity_mask);
    set.push(narrow::construct(300u, 2u));
    EXPECT_EQ(set.extent(), 512u);
    EXPECT_TRUE(set.contains(narrow::construct(300u, 2u)));
    EXPECT_FALSE(set.contains(narrow::construct(300u, 3u)));
    EXPECT_EQ(set.current(narrow::construct(300u, 0u)), 2u);
    EXPECT_EQ(set.current(narrow::construct(301u, 0u)), 0xFFFu);
    set.erase(narrow::construct(300u, 2u));
    EXPECT_EQ(set.data()[0], tessera::tombstone);
    EXPECT_EQ(narrow::to_entity(set.data()[0]), narrow::entity_mask);
}

TEST(entity, user_layout_without_version_bits) {
    using flat = tessera::entt_traits<flat_id>;
    static_assert(flat::version_mask == 0u);
    static_assert(flat::construct(5u, 3u) == flat_id{5u});
    static_assert(flat::to_version(flat_id{0xFFF00005u}) == 0u);
    static_assert(flat::next(flat_id{5u}) == flat_id{5u});
    static_assert(flat::combine(5u, 0xFFFFFFFFu) == flat_id{5u});

    static_assert(flat::to_integral(tessera::null) == 0xFFFFFu);
    static_assert(flat::to_integral(tessera::tombstone) == 0xFFFFFu);
    static_assert(flat_id{0xFFFFFu} == tessera::null);
    static_assert(flat_id{5u} != tessera::null);
    // without version bits nothing is a tombstone, not even the tombstone's own value
    static_assert(flat_id{0xFFFFFu} != tessera::tombstone);
    static_assert(flat_id{5u} != tessera::tombstone);
    static_assert(static_cast<flat_id>(tessera::tombstone) != tessera::tombstone);

    using flat_set = tessera::basic_sparse_set<flat_id>;
    EXPECT_MISUSE([[maybe_unused]] const flat_set bad{tessera::deletion_policy::in_place},
                  "in-place deletion needs identifiers with version bits");

    // the other policies work, every identifier has version 0
    flat_set set{tessera::deletion_policy::swap_and_pop};
    set.push(flat_id{3u});
    set.push(flat_id{70000u});
    EXPECT_TRUE(set.contains(flat_id{3u}));
    EXPECT_FALSE(set.contains(flat_id{4u}));
    EXPECT_FALSE(set.contains(tessera::null));
    EXPECT_EQ(set.current(flat_id{3u}), 0u);
    EXPECT_EQ(set.current(flat_id{4u}), 0u);
    EXPECT_EQ(set.index(flat_id{70000u}), 1u);
    set.erase(flat_id{3u});
    EXPECT_EQ(set.index(flat_id{70000u}), 0u);
    EXPECT_FALSE(set.contains(flat_id{3u}));

    flat_set swap_only{tessera::deletion_policy::swap_only};
    swap_only.push(flat_id{1u});
    swap_only.erase(flat_id{1u});
    EXPECT_EQ(swap_only.free_list(), 0u);
    EXPECT_TRUE(swap_only.contains(flat_id{1u}));
    swap_only.push(flat_id{1u});
    EXPECT_EQ(swap_only.free_list(), 1u);
}

TEST(entity, deletion_policy_values) {
    static_assert(std::is_same_v<std::underlying_type_t<tessera::deletion_policy>, std::uint8_t>);
    static_assert(static_cast<std::uint8_t>(tessera::deletion_policy::swap_and_pop) == 0u);
    static_assert(static_cast<std::uint8_t>(tessera::deletion_policy::in_place) == 1u);
    static_assert(static_cast<std::uint8_t>(tessera::deletion_policy::swap_only) == 2u);
    static_assert(tessera::deletion_policy::unspecified == tessera::deletion_policy::swap_and_pop);
    SUCCEED();
}

TEST(entity, tag_lists) {
    static_assert(std::is_base_of_v<tessera::type_list<int, char>, tessera::get_t<int, char>>);
    static_assert(std::is_base_of_v<tessera::type_list<int>, tessera::exclude_t<int>>);
    static_assert(std::is_base_of_v<tessera::type_list<>, tessera::owned_t<>>);
    static_assert(tessera::get_t<int, char, double>::size == 3u);
    static_assert(tessera::exclude_t<>::size == 0u);
    static_assert(std::is_same_v<tessera::type_list_element_t<1u, tessera::get_t<int, char>>, char>);

    static_assert(std::is_same_v<decltype(tessera::get<int>), const tessera::get_t<int>>);
    static_assert(std::is_same_v<decltype(tessera::exclude<int, char>), const tessera::exclude_t<int, char>>);
    static_assert(std::is_same_v<decltype(tessera::owned<char>), const tessera::owned_t<char>>);
    static_assert(std::is_empty_v<tessera::get_t<int>>);
    static_assert(std::is_final_v<tessera::get_t<int>>);
    static_assert(std::is_final_v<tessera::exclude_t<int>>);
    static_assert(std::is_final_v<tessera::owned_t<int>>);

    // `{}` is an empty get list, as in registry.group<A>({}, exclude<B>)
    static_assert(takes_get({}));
    static_assert(std::is_convertible_v<tessera::get_t<>, tessera::get_t<>>);
    SUCCEED();
}

TEST(entity, type_list_transform_keeps_the_tag) {
    static_assert(std::is_same_v<tessera::type_list_transform_t<tessera::get_t<int, char>, std::add_const>,
                                 tessera::get_t<const int, const char>>);
    static_assert(std::is_same_v<tessera::type_list_transform_t<tessera::exclude_t<int>, std::add_pointer>,
                                 tessera::exclude_t<int *>>);
    static_assert(std::is_same_v<tessera::type_list_transform_t<tessera::owned_t<int, double>, wrap>,
                                 tessera::owned_t<std::unique_ptr<int>, std::unique_ptr<double>>>);
    static_assert(std::is_same_v<tessera::type_list_transform_t<tessera::get_t<>, std::add_const>, tessera::get_t<>>);
    static_assert(std::is_same_v<tessera::type_list_transform_t<tessera::type_list<int>, std::add_const>,
                                 tessera::type_list<const int>>);
    SUCCEED();
}

TEST(entity, common_aliases) {
    static_assert(std::is_same_v<tessera::sparse_set,
                                 tessera::basic_sparse_set<tessera::entity, std::allocator<tessera::entity>>>);
    static_assert(
        std::is_same_v<tessera::storage<int>, tessera::basic_storage<int, tessera::entity, std::allocator<int>>>);
    static_assert(
        std::is_same_v<tessera::registry, tessera::basic_registry<tessera::entity, std::allocator<tessera::entity>>>);
    static_assert(std::is_same_v<tessera::handle, tessera::basic_handle<tessera::registry>>);
    static_assert(std::is_same_v<tessera::const_handle, tessera::basic_handle<const tessera::registry>>);
    static_assert(std::is_same_v<tessera::runtime_view, tessera::basic_runtime_view<tessera::sparse_set>>);
    SUCCEED();
}
