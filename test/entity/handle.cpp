#include <tessera/core/hashed_string.hpp>
#include <tessera/entity/handle.hpp>
#include <tessera/entity/registry.hpp>

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "support/misuse.hpp"

namespace {
namespace unit_entity_handle {

namespace {

using namespace tessera::literals;

struct position {
    int x;
    int y;
};

struct velocity {
    int dx;
    int dy;
};

struct tag {};

// A mutating member is ill-formed on a const handle: these concepts observe that without a compile error.
template<typename Handle>
concept can_emplace = requires(Handle h) {
    h.template emplace<int>(0);
};

template<typename Handle>
concept can_emplace_or_replace = requires(Handle h) {
    h.template emplace_or_replace<int>(0);
};

template<typename Handle>
concept can_patch = requires(Handle h) {
    h.template patch<int>();
};

template<typename Handle>
concept can_replace = requires(Handle h) {
    h.template replace<int>(0);
};

template<typename Handle>
concept can_remove = requires(Handle h) {
    h.template remove<int>();
};

template<typename Handle>
concept can_erase = requires(Handle h) {
    h.template erase<int>();
};

template<typename Handle>
concept can_get_or_emplace = requires(Handle h) {
    h.template get_or_emplace<int>();
};

template<typename Handle>
concept can_destroy = requires(Handle h) {
    h.destroy();
};

template<typename Handle>
concept can_destroy_version = requires(Handle h) {
    h.destroy(typename Handle::version_type{});
};

} // namespace

TEST(Handle, Types) {
    static_assert(std::is_same_v<tessera::handle, tessera::basic_handle<tessera::registry>>);
    static_assert(std::is_same_v<tessera::const_handle, tessera::basic_handle<const tessera::registry>>);
    static_assert(std::is_same_v<tessera::handle::registry_type, tessera::registry>);
    static_assert(std::is_same_v<tessera::const_handle::registry_type, const tessera::registry>);
    static_assert(std::is_same_v<tessera::handle::entity_type, tessera::entity>);
    static_assert(std::is_same_v<tessera::handle::version_type, tessera::registry::version_type>);
    static_assert(std::is_same_v<tessera::handle::size_type, std::size_t>);
    static_assert(std::is_trivially_copyable_v<tessera::handle>);
    static_assert(std::is_trivially_copyable_v<tessera::const_handle>);
}

TEST(Handle, DefaultIsInvalid) {
    const tessera::handle h{};

    EXPECT_FALSE(h);
    EXPECT_EQ(h.registry(), nullptr);
    EXPECT_EQ(h.entity(), tessera::entity{tessera::null});
    EXPECT_TRUE(h == tessera::null);
    EXPECT_TRUE(tessera::null == h);
    EXPECT_EQ(h.storage().begin(), h.storage().end());

    const tessera::const_handle ch{};
    EXPECT_FALSE(ch);
    EXPECT_TRUE(ch == tessera::null);
}

TEST(Handle, Construction) {
    tessera::registry registry;
    const auto entity = registry.create();
    tessera::handle h{registry, entity};

    EXPECT_TRUE(h);
    EXPECT_TRUE(h.valid());
    EXPECT_EQ(h.registry(), &registry);
    EXPECT_EQ(h.entity(), entity);
    EXPECT_EQ(static_cast<tessera::entity>(h), entity);
    EXPECT_FALSE(h == tessera::null);
    EXPECT_TRUE(h != tessera::null);

    const tessera::entity implicit = h;
    EXPECT_EQ(implicit, entity);

    // a handle on a released identifier still refers to the registry, but converts to false
    registry.destroy(entity);
    EXPECT_FALSE(h);
    EXPECT_FALSE(h.valid());
    EXPECT_EQ(h.registry(), &registry);

    // a handle on the null entity of a real registry
    const tessera::handle nothing{registry, tessera::null};
    EXPECT_FALSE(nothing);
    EXPECT_FALSE(nothing.valid());
}

TEST(Handle, Deduction) {
    tessera::registry registry;
    const auto entity = registry.create();

    tessera::basic_handle h{registry, entity};
    tessera::basic_handle ch{std::as_const(registry), entity};

    static_assert(std::is_same_v<decltype(h), tessera::handle>);
    static_assert(std::is_same_v<decltype(ch), tessera::const_handle>);
    EXPECT_EQ(h, ch);
}

TEST(Handle, Conversion) {
    static_assert(std::is_convertible_v<tessera::handle, tessera::const_handle>);
    static_assert(!std::is_convertible_v<tessera::const_handle, tessera::handle>);
    static_assert(!std::is_constructible_v<tessera::handle, tessera::const_handle>);

    tessera::registry registry;
    const auto entity = registry.create();
    const tessera::handle h{registry, entity};
    const tessera::const_handle ch = h;

    EXPECT_EQ(ch.registry(), &registry);
    EXPECT_EQ(ch.entity(), entity);
    EXPECT_TRUE(ch);
    EXPECT_EQ(ch, h);

    // without a registry the conversion gives an invalid handle, whatever entity it carried
    const tessera::const_handle none = tessera::handle{};
    EXPECT_EQ(none.registry(), nullptr);
    EXPECT_TRUE(none == tessera::null);
}

TEST(Handle, Comparison) {
    tessera::registry registry;
    tessera::registry other;
    const auto first = registry.create();
    const auto second = registry.create();
    const auto elsewhere = other.create(first);
    ASSERT_EQ(elsewhere, first);

    const tessera::handle h{registry, first};
    const tessera::handle same{registry, first};
    const tessera::handle next{registry, second};
    const tessera::handle foreign{other, first};
    const tessera::const_handle ch{registry, first};

    EXPECT_TRUE(h == same);
    EXPECT_FALSE(h != same);
    EXPECT_TRUE(h != next);
    EXPECT_TRUE(h != foreign);
    EXPECT_TRUE(h == ch);
    EXPECT_TRUE(ch == h);
    EXPECT_TRUE(tessera::handle{} == tessera::const_handle{});
    EXPECT_TRUE(h != tessera::handle{});
}

TEST(Handle, ConstHandleHasNoMutatingMembers) {
    static_assert(can_emplace<tessera::handle>);
    static_assert(can_emplace_or_replace<tessera::handle>);
    static_assert(can_patch<tessera::handle>);
    static_assert(can_replace<tessera::handle>);
    static_assert(can_remove<tessera::handle>);
    static_assert(can_erase<tessera::handle>);
    static_assert(can_destroy<tessera::handle>);
    static_assert(can_destroy_version<tessera::handle>);

    static_assert(!can_emplace<tessera::const_handle>);
    static_assert(!can_emplace_or_replace<tessera::const_handle>);
    static_assert(!can_patch<tessera::const_handle>);
    static_assert(!can_replace<tessera::const_handle>);
    static_assert(!can_remove<tessera::const_handle>);
    static_assert(!can_erase<tessera::const_handle>);
    static_assert(!can_destroy<tessera::const_handle>);
    static_assert(!can_destroy_version<tessera::const_handle>);

    // destroy changes the handle itself, so it needs a non-const handle object
    static_assert(!can_destroy<const tessera::handle>);
}

TEST(Handle, Components) {
    tessera::registry registry;
    const tessera::handle h{registry, registry.create()};

    EXPECT_TRUE(h.orphan());

    auto &pos = h.emplace<position>(1, 2);
    static_assert(std::is_same_v<decltype(h.emplace<position>(1, 2)), position &>);
    EXPECT_EQ(pos.x, 1);
    EXPECT_EQ(pos.y, 2);
    EXPECT_FALSE(h.orphan());
    EXPECT_TRUE(registry.all_of<position>(h.entity()));

    EXPECT_EQ(h.replace<position>(3, 4).x, 3);
    EXPECT_EQ(registry.get<position>(h).y, 4);

    EXPECT_EQ(h.patch<position>([](auto &elem) { elem.x = 5; }).x, 5);

    EXPECT_EQ(h.emplace_or_replace<position>(6, 7).x, 6);
    EXPECT_EQ(h.emplace_or_replace<velocity>(8, 9).dx, 8);

    h.emplace<tag>();
    static_assert(std::is_void_v<decltype(h.emplace<tag>())>);

    EXPECT_TRUE((h.all_of<position, velocity, tag>()));
    EXPECT_FALSE((h.all_of<position, int>()));
    EXPECT_TRUE((h.any_of<int, velocity>()));
    EXPECT_FALSE((h.any_of<int, char>()));

    static_assert(std::is_same_v<decltype(h.get<position>()), position &>);
    static_assert(std::is_same_v<decltype(h.get<const position>()), const position &>);
    static_assert(std::is_same_v<decltype(h.get<position, velocity>()), std::tuple<position &, velocity &>>);
    EXPECT_EQ(h.get<position>().y, 7);
    auto [p, v] = h.get<position, velocity>();
    EXPECT_EQ(p.x, 6);
    EXPECT_EQ(v.dy, 9);

    static_assert(std::is_same_v<decltype(h.try_get<position>()), position *>);
    static_assert(std::is_same_v<decltype(h.try_get<position, int>()), std::tuple<position *, int *>>);
    EXPECT_EQ(h.try_get<position>(), &registry.get<position>(h));
    EXPECT_EQ(h.try_get<int>(), nullptr);
    auto [maybe_pos, maybe_int] = h.try_get<position, int>();
    EXPECT_NE(maybe_pos, nullptr);
    EXPECT_EQ(maybe_int, nullptr);

    EXPECT_EQ((h.remove<velocity, int>()), 1u);
    EXPECT_EQ((h.remove<velocity, int>()), 0u);
    EXPECT_FALSE(h.all_of<velocity>());

    h.erase<position, tag>();
    EXPECT_FALSE((h.any_of<position, tag>()));
    EXPECT_TRUE(h.orphan());
    EXPECT_MISUSE(h.erase<position>(), "erase: the entity does not own every listed component");
}

TEST(Handle, NamedPoolsAreVisibleThroughStorage) {
    tessera::registry registry;
    const auto entity = registry.create();
    const auto other = registry.create();
    const tessera::handle h{registry, entity};

    EXPECT_EQ(h.storage().begin(), h.storage().end());

    h.emplace<position>(1, 2);
    h.emplace<tag>();
    registry.storage<int>("named"_hs).emplace(entity, 3);
    registry.emplace<velocity>(other, 1, 1);
    std::ignore = registry.storage<char>();

    std::vector<tessera::id_type> names;

    for (auto [id, pool] : h.storage()) {
        static_assert(std::is_same_v<decltype(pool), tessera::sparse_set &>);
        EXPECT_TRUE(pool.contains(entity));
        names.push_back(id);
    }

    // the registry lists its pools in creation order
    const std::vector<tessera::id_type> expected{tessera::type_hash<position>::value(),
                                                 tessera::type_hash<tag>::value(), "named"_hs};
    EXPECT_EQ(names, expected);

    // the pair's arrow works too, and a const handle yields read-only pools
    const tessera::const_handle ch = h;
    std::size_t count{};

    for (auto it = ch.storage().begin(), last = ch.storage().end(); it != last; ++it) {
        static_assert(std::is_same_v<decltype(it->second), const tessera::sparse_set &>);
        EXPECT_TRUE(it->second.contains(entity));
        ++count;
    }

    EXPECT_EQ(count, 3u);

    // a pool that contains only other entities is skipped at the end of the walk too
    const tessera::handle second{registry, other};
    std::size_t seen{};

    for (auto it = second.storage().begin(); it != second.storage().end(); it++) {
        EXPECT_EQ((*it).first, tessera::type_hash<velocity>::value());
        ++seen;
    }

    EXPECT_EQ(seen, 1u);
}

TEST(Handle, Destroy) {
    tessera::registry registry;
    const auto entity = registry.create();
    tessera::handle h{registry, entity};
    h.emplace<position>(1, 2);

    h.destroy();

    EXPECT_EQ(h.entity(), tessera::entity{tessera::null});
    EXPECT_TRUE(h == tessera::null);
    EXPECT_FALSE(h);
    EXPECT_EQ(h.registry(), &registry);
    EXPECT_FALSE(registry.valid(entity));
    EXPECT_TRUE(registry.storage<position>().empty());

    const auto next = registry.create();
    tessera::handle forced{registry, next};
    forced.destroy(7u);

    EXPECT_TRUE(forced == tessera::null);
    EXPECT_FALSE(registry.valid(next));
    EXPECT_EQ(registry.current(next), 7u);
}

TEST(Handle, ConstRegistry) {
    tessera::registry registry;
    const auto entity = registry.create();
    registry.emplace<position>(entity, 1, 2);

    const tessera::const_handle ch{std::as_const(registry), entity};

    EXPECT_TRUE(ch);
    EXPECT_TRUE(ch.valid());
    EXPECT_EQ(ch.registry(), &std::as_const(registry));
    static_assert(std::is_same_v<decltype(ch.registry()), const tessera::registry *>);

    static_assert(std::is_same_v<decltype(ch.get<position>()), const position &>);
    static_assert(std::is_same_v<decltype(ch.try_get<position>()), const position *>);
    static_assert(
        std::is_same_v<decltype(ch.get<position, const position>()), std::tuple<const position &, const position &>>);
    EXPECT_EQ(ch.get<position>().y, 2);
    EXPECT_EQ(ch.try_get<position>(), &registry.get<position>(entity));
    EXPECT_TRUE(ch.all_of<position>());
    EXPECT_FALSE(ch.orphan());

    // read-only queries never create a pool
    EXPECT_FALSE((ch.all_of<position, velocity>()));
    EXPECT_FALSE(ch.any_of<velocity>());
    EXPECT_EQ(ch.try_get<velocity>(), nullptr);
    EXPECT_EQ(registry.storage(tessera::type_hash<velocity>::value()), nullptr);

    EXPECT_MISUSE(std::ignore = ch.get<velocity>(), "get: the entity does not own this component");
}

TEST(Handle, NullRegistryIsMisuse) {
    tessera::handle h{};
    const tessera::const_handle ch{};

    EXPECT_MISUSE(h.emplace<position>(1, 2), "handle::emplace: the handle has no registry");
    EXPECT_MISUSE(h.emplace_or_replace<position>(1, 2), "handle::emplace_or_replace: the handle has no registry");
    EXPECT_MISUSE(h.patch<position>(), "handle::patch: the handle has no registry");
    EXPECT_MISUSE(h.replace<position>(1, 2), "handle::replace: the handle has no registry");
    EXPECT_MISUSE(h.remove<position>(), "handle::remove: the handle has no registry");
    EXPECT_MISUSE(h.erase<position>(), "handle::erase: the handle has no registry");
    EXPECT_MISUSE(std::ignore = h.all_of<position>(), "handle::all_of: the handle has no registry");
    EXPECT_MISUSE(std::ignore = h.any_of<position>(), "handle::any_of: the handle has no registry");
    EXPECT_MISUSE(std::ignore = h.get<position>(), "handle::get: the handle has no registry");
    EXPECT_MISUSE(std::ignore = h.try_get<position>(), "handle::try_get: the handle has no registry");
    EXPECT_MISUSE(std::ignore = h.orphan(), "handle::orphan: the handle has no registry");
    EXPECT_MISUSE(h.destroy(), "handle::destroy: the handle has no registry");
    EXPECT_MISUSE(h.destroy(1u), "handle::destroy: the handle has no registry");
    EXPECT_MISUSE(std::ignore = ch.get<position>(), "handle::get: the handle has no registry");
    EXPECT_MISUSE(std::ignore = ch.orphan(), "handle::orphan: the handle has no registry");
}

TEST(Handle, ForwardedMisuse) {
    tessera::registry registry;
    tessera::handle h{registry, registry.create()};
    h.emplace<position>(1, 2);

    // the registry's own checks still apply through the handle
    EXPECT_MISUSE(h.emplace<position>(3, 4), "emplace: the entity already owns this component");
    EXPECT_MISUSE(h.replace<velocity>(1, 1), "replace: the entity does not own this component");
    EXPECT_MISUSE(h.patch<velocity>(), "patch: the entity does not own this component");

    auto copy = h;
    h.destroy();
    EXPECT_MISUSE(copy.destroy(), "destroy: invalid entity");
    EXPECT_MISUSE(copy.emplace<velocity>(1, 1), "emplace: invalid entity");
}

TEST(Handle, CustomIdentifier) {
    enum class my_identifier : std::uint32_t {};
    using my_registry = tessera::basic_registry<my_identifier>;
    using my_handle = tessera::basic_handle<my_registry>;
    using my_const_handle = tessera::basic_handle<const my_registry>;

    my_registry registry;
    const my_handle h{registry, registry.create()};
    h.emplace<int>(3);

    const my_const_handle ch = h;
    static_assert(std::is_same_v<my_handle::entity_type, my_identifier>);
    static_assert(!std::is_convertible_v<my_const_handle, my_handle>);
    EXPECT_EQ(ch.get<int>(), 3);
    EXPECT_TRUE(ch == h);
}

TEST(Handle, ValidWithoutRegistryIsFalse) {
    // a query like operator bool, not a forwarding call: no registry means not valid
    const tessera::handle h{};
    const tessera::const_handle ch{};
    EXPECT_FALSE(h.valid());
    EXPECT_FALSE(ch.valid());
    EXPECT_FALSE(static_cast<bool>(h));
    EXPECT_EQ(h.registry(), nullptr);
    EXPECT_EQ(h.entity(), tessera::null);
    EXPECT_TRUE(h == tessera::null);
    EXPECT_EQ(h.storage().begin(), h.storage().end());
    EXPECT_FALSE(static_cast<tessera::const_handle>(h).valid());

    tessera::registry registry;
    const auto entt = registry.create();
    const tessera::handle bound{registry, entt};
    EXPECT_TRUE(bound.valid());
    registry.destroy(entt);
    EXPECT_FALSE(bound.valid());
    EXPECT_FALSE((tessera::handle{registry, tessera::null}.valid()));
}

TEST(Handle, GetOrEmplace) {
    tessera::registry registry;
    const tessera::handle h{registry, registry.create()};

    auto &made = h.get_or_emplace<position>(1, 2);
    EXPECT_EQ(made.x, 1);
    auto &found = h.get_or_emplace<position>(3, 4);
    EXPECT_EQ(&found, &made);
    EXPECT_EQ(found.y, 2);
    EXPECT_EQ(&registry.get<position>(h.entity()), &made);

    static_assert(can_get_or_emplace<tessera::handle>);
    static_assert(!can_get_or_emplace<tessera::const_handle>);
    EXPECT_MISUSE(static_cast<void>(tessera::handle{}.get_or_emplace<position>()), "handle::get_or_emplace");
}

TEST(Handle, HandleViewsRestrictTheElementTypes) {
    static_assert(std::is_same_v<tessera::handle_view<position, velocity>,
                                 tessera::basic_handle<tessera::registry, position, velocity>>);
    static_assert(
        std::is_same_v<tessera::const_handle_view<position>, tessera::basic_handle<const tessera::registry, position>>);

    tessera::registry registry;
    const auto entity = registry.create();
    const tessera::handle_view<position, velocity> h{registry, entity};

    h.emplace<position>(1, 2);
    h.emplace_or_replace<velocity>(3, 4);
    h.patch<position>([](auto &pos) { ++pos.x; });
    h.replace<velocity>(5, 6);
    EXPECT_EQ(h.get<position>().x, 2);
    EXPECT_EQ(h.get_or_emplace<velocity>().dx, 5);
    EXPECT_EQ((std::get<1>(h.get<position, const velocity>()).dy), 6);
    EXPECT_NE(h.try_get<velocity>(), nullptr);
    // queries take any type
    EXPECT_FALSE(h.all_of<tag>());
    EXPECT_TRUE((h.any_of<tag, position>()));
    EXPECT_EQ(h.remove<velocity>(), 1u);
    h.erase<position>();
    EXPECT_TRUE(h.orphan());

    const tessera::const_handle_view<position> ch{registry, entity};
    registry.emplace<position>(entity, 7, 8);
    EXPECT_EQ(ch.get<position>().x, 7);
    static_assert(std::is_same_v<decltype(ch.get<position>()), const position &>);
    static_assert(!can_emplace<tessera::const_handle_view<int>>);
    static_assert(can_emplace<tessera::handle_view<int>>);
}

TEST(Handle, HandleViewConversions) {
    using full = tessera::handle;
    using wide = tessera::handle_view<position, velocity>;
    using narrow = tessera::handle_view<velocity>;
    using const_narrow = tessera::const_handle_view<velocity>;

    static_assert(std::is_convertible_v<full, wide>);
    static_assert(std::is_convertible_v<full, tessera::const_handle_view<tag>>);
    static_assert(std::is_convertible_v<wide, narrow>);
    static_assert(std::is_convertible_v<wide, const_narrow>);
    static_assert(std::is_convertible_v<narrow, const_narrow>);
    static_assert(!std::is_convertible_v<const_narrow, narrow>);
    static_assert(!std::is_convertible_v<tessera::const_handle, narrow>);

    tessera::registry registry;
    const auto entity = registry.create();
    const full h{registry, entity};
    const wide w = h;
    const narrow n = w;
    const const_narrow cn = n;

    EXPECT_EQ(w, h);
    EXPECT_EQ(n, w);
    EXPECT_EQ(cn, h);
    EXPECT_EQ(cn.registry(), &registry);
    EXPECT_EQ(cn.entity(), entity);

    const narrow none = wide{};
    EXPECT_EQ(none.registry(), nullptr);
    EXPECT_TRUE(none == tessera::null);
}

} // namespace unit_entity_handle
} // namespace
