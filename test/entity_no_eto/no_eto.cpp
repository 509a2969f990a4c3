// Tests of the storage with TESSERA_NO_ETO: empty types are stored like any other type.
#include <gtest/gtest.h>
#include <tessera/entity/component.hpp>
#include <tessera/entity/storage.hpp>
#include <type_traits>

namespace {

struct tag {};

struct no_instances {
    static constexpr std::size_t page_size = 0u;
};

} // namespace

TEST(storage_no_eto, empty_types_have_pages) {
    static_assert(tessera::component_traits<tag>::page_size == TESSERA_PACKED_PAGE);
    static_assert(std::is_same_v<tessera::storage<tag>::value_type, tag>);
    // an explicit page_size still wins, and void keeps no instances
    static_assert(std::is_void_v<tessera::storage<no_instances>::value_type>);
    static_assert(std::is_void_v<tessera::storage<void>::value_type>);
}

TEST(storage_no_eto, get_returns_a_reference) {
    tessera::storage<tag> storage;
    const auto entt = tessera::entity{3};
    auto &added = storage.emplace(entt);
    static_assert(std::is_same_v<decltype(storage.get(entt)), tag &>);
    static_assert(std::is_same_v<decltype(storage.get_as_tuple(entt)), std::tuple<tag &>>);
    EXPECT_EQ(&storage.get(entt), &added);
    EXPECT_EQ(storage.capacity(), static_cast<std::size_t>(TESSERA_PACKED_PAGE));
    EXPECT_EQ(static_cast<const tessera::sparse_set &>(storage).value(entt), &added);

    int visited{};
    for (auto [id, elem] : storage.each()) {
        static_assert(std::is_same_v<decltype(elem), tag &>);
        EXPECT_EQ(id, entt);
        EXPECT_EQ(&elem, &added);
        ++visited;
    }
    EXPECT_EQ(visited, 1);
}
