// Tests of prototype.hpp: prototypes built by hand and captured from entities (named pools, clone policies),
// their copies and moves, insert into existing entities, and spawn: bulk creation through each pool's insert,
// signals, groups, exception safety and allocation.
#include "support/misuse.hpp"
#include "support/tracking_allocator.hpp"
#include <array>
#include <cstddef>
#include <gtest/gtest.h>
#include <memory>
#include <stdexcept>
#include <string>
#include <tessera/core/hashed_string.hpp>
#include <tessera/entity/entity.hpp>
#include <tessera/entity/group.hpp>
#include <tessera/entity/prototype.hpp>
#include <tessera/entity/registry.hpp>
#include <type_traits>
#include <utility>
#include <vector>

namespace {
namespace unit_entity_prototype {

namespace {

using namespace tessera::literals;

struct position {
    int x;
    int y;
};

struct velocity {
    int dx;
};

struct tag {};

struct stable {
    static constexpr bool in_place_delete = true;
    int value;
};

struct name {
    std::string text;
};

/// Never copied: a capture leaves it out.
struct scratch {
    static constexpr auto clone = tessera::clone_policy::skip;
    int value;
};

/// Copied by a function of its own: every copy gets a fresh resource and counts itself.
struct resource {
    std::unique_ptr<int> handle;

    static resource clone_element(const resource &other) { return resource{std::make_unique<int>(*other.handle + 1)}; }
};

/// Cannot be copied and says nothing: capturing it is a misuse.
struct unique_only {
    std::unique_ptr<int> handle;
};

/// Throws when copied once armed.
struct fragile {
    static inline bool armed = false;
    int value{};

    fragile() = default;
    explicit fragile(const int init) : value{init} {}
    fragile(const fragile &other) : value{other.value} {
        if (armed) {
            throw std::runtime_error{"fragile"};
        }
    }
    fragile(fragile &&) = default;
    fragile &operator=(const fragile &) = default;
    fragile &operator=(fragile &&) = default;
    ~fragile() = default;
};

std::string events{};

template<char Letter>
void note(tessera::registry &, const tessera::entity) {
    events += Letter;
}

TEST(prototype, built_by_hand) {
    tessera::prototype proto;
    EXPECT_TRUE(proto.empty());
    EXPECT_EQ(proto.size(), 0u);

    auto &pos = proto.emplace<position>(1, 2);
    EXPECT_EQ(pos.y, 2);
    proto.emplace<tag>();
    static_assert(std::is_void_v<decltype(proto.emplace<tag>())>);
    proto.emplace_as<velocity>("boost"_hs, 7);
    proto.emplace<velocity>(3);
    proto.emplace<name>("a name long enough to live on the heap");
    EXPECT_EQ(proto.size(), 5u);
    EXPECT_FALSE(proto.empty());

    EXPECT_TRUE(proto.contains<position>());
    EXPECT_TRUE(proto.contains<tag>());
    EXPECT_TRUE(proto.contains<velocity>("boost"_hs));
    EXPECT_FALSE(proto.contains<velocity>("other"_hs));
    EXPECT_FALSE(proto.contains<position>("boost"_hs));
    EXPECT_FALSE(proto.contains<stable>());
    EXPECT_EQ(proto.get<velocity>("boost"_hs).dx, 7);
    EXPECT_EQ(std::as_const(proto).get<velocity>().dx, 3);

    // emplace again replaces the value of that pool
    proto.emplace<position>(5, 6);
    EXPECT_EQ(proto.size(), 5u);
    EXPECT_EQ(proto.get<position>().x, 5);
    proto.get<position>().x = 8;
    EXPECT_EQ(proto.get<position>().x, 8);

    EXPECT_TRUE(proto.erase<velocity>("boost"_hs));
    EXPECT_FALSE(proto.erase<velocity>("boost"_hs));
    EXPECT_FALSE(proto.erase<position>("unknown"_hs));
    EXPECT_EQ(proto.size(), 4u);
    proto.clear();
    EXPECT_TRUE(proto.empty());
}

TEST(prototype, misuse) {
    tessera::prototype proto;
    proto.emplace_as<velocity>("boost"_hs, 1);
    EXPECT_MISUSE(proto.emplace_as<position>("boost"_hs, 1, 1), "taken by another element type");
    EXPECT_MISUSE(static_cast<void>(proto.get<position>()), "no value of this type");
    EXPECT_MISUSE(static_cast<void>(proto.get<position>("boost"_hs)), "no value of this type");
    // a value of another type under that name is not erased
    EXPECT_FALSE(proto.erase<position>("boost"_hs));
    EXPECT_EQ(proto.size(), 1u);

    tessera::registry registry;
    const auto entt = registry.create();
    registry.destroy(entt);
    EXPECT_MISUSE(proto.capture(registry, entt), "capture of an invalid entity");
    EXPECT_EQ(proto.size(), 1u);
}

TEST(prototype, spawn_creates_entities_with_copies) {
    tessera::registry registry;
    tessera::prototype proto;
    proto.emplace<position>(1, 2);
    proto.emplace<tag>();
    proto.emplace<stable>(4);
    proto.emplace<name>("a name long enough to live on the heap");
    proto.emplace_as<velocity>("boost"_hs, 7);

    const auto many = tessera::spawn(registry, proto, 100u);
    ASSERT_EQ(many.size(), 100u);

    for (const auto entt : many) {
        EXPECT_TRUE(registry.valid(entt));
        EXPECT_EQ(registry.get<position>(entt).y, 2);
        EXPECT_TRUE(registry.all_of<tag>(entt));
        EXPECT_EQ(registry.get<stable>(entt).value, 4);
        EXPECT_EQ(registry.get<name>(entt).text, "a name long enough to live on the heap");
        EXPECT_EQ(registry.storage<velocity>("boost"_hs).get(entt).dx, 7);
        EXPECT_FALSE(registry.all_of<velocity>(entt));
    }

    // the range overload fills the range, the single one returns the entity
    std::array<tessera::entity, 3u> some{};
    tessera::spawn(registry, proto, some.begin(), some.end());
    EXPECT_TRUE(registry.all_of<stable>(some[2]));
    const auto one = tessera::spawn(registry, proto);
    EXPECT_EQ(registry.get<position>(one).x, 1);
    EXPECT_EQ(registry.storage<position>().size(), 104u);

    // an empty prototype makes entities without components
    const auto bare = tessera::spawn(registry, tessera::prototype{}, 2u);
    EXPECT_TRUE(registry.orphan(bare[0]));
    EXPECT_TRUE(registry.orphan(bare[1]));
    EXPECT_TRUE(tessera::spawn(registry, proto, 0u).empty());
}

struct pool_sizes {
    std::vector<std::size_t> seen{};

    void on_position(tessera::registry &registry, const tessera::entity) {
        seen.push_back(registry.storage<position>().size());
    }
};

TEST(prototype, spawn_inserts_pool_by_pool) {
    tessera::registry registry;
    pool_sizes sizes{};
    registry.on_construct<position>().connect<&pool_sizes::on_position>(sizes);
    registry.on_construct<position>().connect<&note<'P'>>();
    registry.on_construct<velocity>().connect<&note<'V'>>();
    registry.on_construct<tessera::entity>().connect<&note<'e'>>();
    tessera::prototype proto;
    proto.emplace<velocity>(1);
    proto.emplace<position>(1, 1);
    events.clear();

    static_cast<void>(tessera::spawn(registry, proto, 3u));
    // identifiers first, then one pool after the other in the prototype's order, each complete before its signals
    EXPECT_EQ(events, "eeeVVVPPP");
    EXPECT_EQ(sizes.seen, (std::vector<std::size_t>{3u, 3u, 3u}));
}

TEST(prototype, captured_from_an_entity) {
    tessera::registry registry;
    auto &observed = registry.storage<tessera::reactive>("observed"_hs);
    observed.on_construct<position>();
    const auto source = registry.create();
    registry.emplace<position>(source, 1, 2);
    registry.emplace<tag>(source);
    registry.emplace<scratch>(source, 9);
    registry.emplace<resource>(source, std::make_unique<int>(10));
    registry.storage<velocity>("boost"_hs).emplace(source, 5);
    EXPECT_TRUE(observed.contains(source));

    tessera::prototype proto{registry, source};
    // skip types and reactive storages are left out
    EXPECT_EQ(proto.size(), 4u);
    EXPECT_FALSE(proto.contains<scratch>());
    EXPECT_FALSE(proto.contains<tessera::reactive>("observed"_hs));
    EXPECT_EQ(proto.get<position>().y, 2);
    EXPECT_EQ(proto.get<velocity>("boost"_hs).dx, 5);
    // the custom function made the copy
    EXPECT_EQ(*proto.get<resource>().handle, 11);
    // the prototype is independent from the entity
    registry.get<position>(source).x = 100;
    EXPECT_EQ(proto.get<position>().x, 1);

    const auto copy = tessera::spawn(registry, proto);
    EXPECT_EQ(registry.get<position>(copy).x, 1);
    EXPECT_TRUE(registry.all_of<tag>(copy));
    EXPECT_FALSE(registry.all_of<scratch>(copy));
    EXPECT_EQ(*registry.get<resource>(copy).handle, 12);
    EXPECT_EQ(registry.storage<velocity>("boost"_hs).get(copy).dx, 5);
    // reactive storages collect the copy through its signals
    EXPECT_TRUE(observed.contains(copy));

    // capture replaces the contents
    const auto plain = registry.create();
    registry.emplace<velocity>(plain, 3);
    proto.capture(registry, plain);
    EXPECT_EQ(proto.size(), 1u);
    EXPECT_EQ(proto.get<velocity>().dx, 3);

    // a type that cannot be copied: misuse, and the prototype is left as it was
    registry.emplace<unique_only>(plain);
    EXPECT_MISUSE(proto.capture(registry, plain), "unique_only");
    EXPECT_EQ(proto.size(), 1u);
}

TEST(prototype, copies_and_moves) {
    tessera::prototype proto;
    proto.emplace<position>(1, 2);
    proto.emplace<resource>(std::make_unique<int>(1));
    proto.emplace<tag>();

    tessera::prototype copy{proto};
    EXPECT_EQ(copy.size(), 3u);
    EXPECT_EQ(copy.get<position>().y, 2);
    // copies go through the clone function too
    EXPECT_EQ(*copy.get<resource>().handle, 2);
    EXPECT_NE(copy.get<resource>().handle.get(), proto.get<resource>().handle.get());
    EXPECT_TRUE(copy.contains<tag>());

    tessera::prototype assigned;
    assigned.emplace<velocity>(1);
    assigned = copy;
    EXPECT_EQ(assigned.size(), 3u);
    EXPECT_FALSE(assigned.contains<velocity>());
    EXPECT_EQ(*assigned.get<resource>().handle, 3);
    const auto &same = assigned;
    assigned = same;
    EXPECT_EQ(assigned.size(), 3u);

    tessera::prototype moved{std::move(copy)};
    EXPECT_EQ(moved.size(), 3u);
    EXPECT_TRUE(copy.empty());
    assigned = std::move(moved);
    EXPECT_EQ(*assigned.get<resource>().handle, 2);
    EXPECT_TRUE(moved.empty());
}

TEST(prototype, copy_assignment_is_all_or_nothing) {
    tessera::prototype proto;
    proto.emplace<position>(1, 2);
    proto.emplace<fragile>(3);
    tessera::prototype target;
    target.emplace<velocity>(4);

    fragile::armed = true;
    EXPECT_THROW(target = proto, std::runtime_error);
    EXPECT_THROW(tessera::prototype{proto}, std::runtime_error);
    fragile::armed = false;
    EXPECT_EQ(target.size(), 1u);
    EXPECT_EQ(target.get<velocity>().dx, 4);
}

TEST(prototype, insert_into_existing_entities) {
    tessera::registry registry;
    std::vector<tessera::entity> entities(4u);
    registry.create(entities.begin(), entities.end());
    registry.emplace<velocity>(entities[0], 9);
    tessera::prototype proto;
    proto.emplace<position>(1, 2);
    proto.emplace<tag>();

    proto.insert(registry, entities.data(), entities.data() + entities.size());
    for (const auto entt : entities) {
        EXPECT_TRUE((registry.all_of<position, tag>(entt)));
    }
    EXPECT_EQ(registry.get<velocity>(entities[0]).dx, 9);
    // the registry's preconditions hold: no entity may have the components already
    EXPECT_MISUSE(proto.insert(registry, entities.data(), entities.data() + 1), "already in the set");
}

TEST(prototype, insert_into_a_disabled_entity_disables_the_new_components) {
    // as registry::emplace does (docs/enable_disable.md): the entity's state wins over the prototype's values
    tessera::registry registry;
    const auto off = registry.create();
    const auto on = registry.create();
    registry.emplace<velocity>(off, 1);
    registry.disable(off);
    tessera::prototype proto;
    proto.emplace<position>(1, 2);
    proto.emplace<tag>();

    const std::array<tessera::entity, 2u> both{off, on};
    proto.insert(registry, both.data(), both.data() + both.size());
    EXPECT_FALSE(registry.enabled<position>(off));
    EXPECT_FALSE(registry.enabled<tag>(off));
    EXPECT_TRUE(registry.enabled<position>(on));
    EXPECT_TRUE(registry.enabled<tag>(on));
    EXPECT_EQ(registry.view<position>().size(), 1u);

    registry.enable(off);
    EXPECT_TRUE((registry.all_of<position, tag, velocity>(off)));
    EXPECT_TRUE(registry.enabled<position>(off));
}

TEST(prototype, a_capture_keeps_values_not_states) {
    tessera::registry registry;
    const auto source = registry.create();
    registry.emplace<position>(source, 1, 2);
    registry.emplace<velocity>(source, 3);
    registry.disable<velocity>(source);
    registry.disable(source);

    // neither a disabled component nor the mark of a disabled entity is a value
    tessera::prototype proto{registry, source};
    EXPECT_EQ(proto.size(), 2u);
    const auto made = tessera::spawn(registry, proto);
    EXPECT_TRUE(registry.enabled(made));
    EXPECT_TRUE(registry.enabled<velocity>(made));
    EXPECT_EQ(registry.get<velocity>(made).dx, 3);
}

TEST(prototype, spawn_joins_groups) {
    tessera::registry registry;
    auto group = registry.group<position>(tessera::get<velocity>);
    tessera::prototype proto;
    proto.emplace<position>(1, 2);
    proto.emplace<velocity>(3);
    registry.emplace<position>(registry.create(), 0, 0);

    const auto many = tessera::spawn(registry, proto, 50u);
    EXPECT_EQ(group.size(), 50u);
    for (const auto entt : many) {
        EXPECT_TRUE(group.contains(entt));
    }
}

TEST(prototype, spawn_is_all_or_nothing) {
    tessera::registry registry;
    registry.on_destroy<tessera::entity>().connect<&note<'d'>>();
    const auto kept = registry.create();
    tessera::prototype proto;
    proto.emplace<position>(1, 2);
    proto.emplace<fragile>(3);

    fragile::armed = true;
    events.clear();
    EXPECT_THROW(static_cast<void>(tessera::spawn(registry, proto, 5u)), std::runtime_error);
    fragile::armed = false;
    // the five entities were made, given a position, then destroyed again
    EXPECT_EQ(events, "ddddd");
    EXPECT_EQ(registry.storage<tessera::entity>().free_list(), 1u);
    EXPECT_TRUE(registry.valid(kept));
    EXPECT_EQ(registry.storage<position>().size(), 0u);
    EXPECT_EQ(registry.storage<fragile>().size(), 0u);
}

TEST(prototype, memory_comes_from_the_allocator) {
    using registry_type = tessera::basic_registry<tessera::entity, tessera_test::tracking_allocator<tessera::entity>>;
    tessera_test::allocation_log log{};

    {
        const tessera_test::tracking_allocator<tessera::entity> allocator{log};
        tessera::basic_prototype<registry_type> proto{allocator};
        proto.emplace<name>("a name long enough to live on the heap");
        proto.emplace<position>(1, 2);
        EXPECT_GE(log.allocations, 2u);
        auto copy = proto;
        EXPECT_EQ(copy.get_allocator(), allocator);
        registry_type registry{allocator};
        const auto many = tessera::spawn(registry, copy, 10u);
        EXPECT_EQ(registry.get<position>(many[9]).y, 2);
        tessera::basic_prototype<registry_type> captured{registry, many[0], allocator};
        EXPECT_EQ(captured.size(), 2u);
    }

    EXPECT_TRUE(log.balanced());
}

} // namespace

} // namespace unit_entity_prototype
} // namespace
