// Tests of pool_memory.hpp: memory_of on every kind of pool agrees byte for byte with a counting allocator that
// only that pool uses, through growth, removal, shrinking and clearing; the sizes and page counts it reports.
#include "support/tracking_allocator.hpp"
#include <cstddef>
#include <cstdint>
#include <gtest/gtest.h>
#include <tessera/entity/mixin.hpp>
#include <tessera/entity/pool_memory.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/sparse_set.hpp>
#include <tessera/entity/storage.hpp>
#include <vector>

namespace {
namespace unit_entity_pool_memory {

namespace {

using tessera_test::allocation_log;
using tessera_test::tracking_allocator;
using traits = tessera::entt_traits<tessera::entity>;

struct position {
    float x{};
    float y{};
};

struct tag {};

struct stable {
    static constexpr bool in_place_delete = true;
    int value{};
};

struct tracked {
    static constexpr bool track_changes = true;
    int value{};
};

struct small_pages {
    static constexpr std::size_t page_size = 4u;
    std::uint64_t value{};
};

// far apart indices: several sparse pages, some never allocated between them
std::vector<tessera::entity> spread(const std::size_t count) {
    std::vector<tessera::entity> out{};

    for (std::size_t pos{}; pos < count; ++pos) {
        out.push_back(traits::construct(static_cast<traits::entity_type>(pos * 1031u), 0u));
    }

    return out;
}

// Fills, erases half, shrinks, clears and shrinks again; after each step the pool's measure must be what its
// allocator holds.
template<typename Pool, typename Fill>
void expect_measure_follows_allocator(Fill fill) {
    allocation_log log{};
    {
        Pool pool{typename Pool::allocator_type{log}};
        EXPECT_EQ(tessera::memory_of(pool).bytes, log.live_bytes);

        const auto entities = spread(300u);
        fill(pool, entities);
        EXPECT_GT(log.live_bytes, 0u);
        EXPECT_EQ(tessera::memory_of(pool).bytes, log.live_bytes);

        for (std::size_t pos{}; pos < entities.size(); pos += 2u) {
            pool.remove(entities[pos]);
        }

        EXPECT_EQ(tessera::memory_of(pool).bytes, log.live_bytes);
        pool.shrink_to_fit();
        EXPECT_EQ(tessera::memory_of(pool).bytes, log.live_bytes);
        pool.clear();
        EXPECT_EQ(tessera::memory_of(pool).bytes, log.live_bytes);
        pool.shrink_to_fit();
        EXPECT_EQ(tessera::memory_of(pool).bytes, log.live_bytes);
    }
    EXPECT_TRUE(log.balanced());
}

const auto push_each = [](auto &pool, const auto &entities) {
    for (const auto entt : entities) {
        pool.push(entt);
    }
};

const auto emplace_each = [](auto &pool, const auto &entities) {
    for (const auto entt : entities) {
        pool.emplace(entt);
    }
};

TEST(PoolMemory, SparseSetAgreesWithItsAllocator) {
    expect_measure_follows_allocator<tessera::basic_sparse_set<tessera::entity, tracking_allocator<tessera::entity>>>(
        push_each);
}

TEST(PoolMemory, StorageAgreesWithItsAllocator) {
    expect_measure_follows_allocator<tessera::basic_storage<position, tessera::entity, tracking_allocator<position>>>(
        emplace_each);
}

TEST(PoolMemory, EmptyTypeStorageAgreesWithItsAllocator) {
    expect_measure_follows_allocator<tessera::basic_storage<tag, tessera::entity, tracking_allocator<tag>>>(
        emplace_each);
}

TEST(PoolMemory, InPlaceStorageAgreesWithItsAllocator) {
    expect_measure_follows_allocator<tessera::basic_storage<stable, tessera::entity, tracking_allocator<stable>>>(
        emplace_each);
}

TEST(PoolMemory, TrackedStorageAgreesWithItsAllocator) {
    // the ticks and the change log of change detection are counted too
    expect_measure_follows_allocator<tessera::basic_storage<tracked, tessera::entity, tracking_allocator<tracked>>>(
        emplace_each);
}

TEST(PoolMemory, SmallPagesAgreeWithTheirAllocator) {
    // pages of 4 elements come in blocks of several pages: the block layout must not change the count
    expect_measure_follows_allocator<
        tessera::basic_storage<small_pages, tessera::entity, tracking_allocator<small_pages>>>(emplace_each);
}

TEST(PoolMemory, ReservedStorageAgreesWithItsAllocator) {
    expect_measure_follows_allocator<tessera::basic_storage<position, tessera::entity, tracking_allocator<position>>>(
        [](auto &pool, const auto &entities) {
            pool.reserve(5000u);
            emplace_each(pool, entities);
        });
}

TEST(PoolMemory, EntityStorageAgreesWithItsAllocator) {
    using storage_type = tessera::basic_storage<tessera::entity, tessera::entity, tracking_allocator<tessera::entity>>;
    allocation_log log{};
    {
        storage_type entities{tracking_allocator<tessera::entity>{log}};
        std::vector<tessera::entity> made(5000u);
        entities.generate(made.begin(), made.end());
        EXPECT_EQ(tessera::memory_of(entities).bytes, log.live_bytes);
        entities.erase(made.begin(), made.begin() + 2500);
        entities.shrink_to_fit();
        EXPECT_EQ(tessera::memory_of(entities).bytes, log.live_bytes);
        EXPECT_EQ(tessera::memory_of(entities).element_size, 0u);
        EXPECT_EQ(tessera::memory_of(entities).packed_pages, 0u);
    }
    EXPECT_TRUE(log.balanced());
}

TEST(PoolMemory, SignalStorageWithoutListenersAgreesWithItsAllocator) {
    using registry_type = tessera::basic_registry<tessera::entity, tracking_allocator<tessera::entity>>;
    using pool_type = registry_type::storage_for_type<position>;
    expect_measure_follows_allocator<pool_type>(emplace_each);
}

TEST(PoolMemory, ReactiveStorageAgreesWithItsAllocator) {
    using registry_type = tessera::basic_registry<tessera::entity, tracking_allocator<tessera::entity>>;
    using pool_type = registry_type::storage_for_type<tessera::reactive>;
    expect_measure_follows_allocator<pool_type>(push_each);
}

TEST(PoolMemory, ReportsSizesAndPages) {
    tessera::storage<position> pool{};
    const auto empty = tessera::memory_of(pool);
    EXPECT_EQ(empty.id, tessera::type_hash<position>::value());
    EXPECT_EQ(empty.type, tessera::type_name<position>::value());
    EXPECT_FALSE(empty.named);
    EXPECT_EQ(empty.element_size, sizeof(position));
    EXPECT_EQ(empty.size, 0u);
    EXPECT_EQ(empty.capacity, 0u);
    EXPECT_EQ(empty.sparse_pages, 0u);
    EXPECT_EQ(empty.packed_pages, 0u);
    EXPECT_EQ(empty.bytes, 0u);

    // one entity at the start of the first sparse page, one at the start of the third: two sparse pages
    const auto far = traits::construct(static_cast<traits::entity_type>(2u * traits::page_size), 0u);
    pool.emplace(tessera::entity{0u});
    pool.emplace(far);
    const auto used = tessera::memory_of(pool);
    EXPECT_EQ(used.size, 2u);
    EXPECT_EQ(used.sparse_pages, 2u);
    EXPECT_EQ(used.packed_pages, pool.pages());
    EXPECT_EQ(used.capacity, pool.capacity());
    EXPECT_EQ(used.capacity, used.packed_pages * tessera::component_traits<position>::page_size);

    tessera::storage<tag> tags{};
    tags.emplace(far);
    const auto tag_usage = tessera::memory_of(tags);
    EXPECT_EQ(tag_usage.element_size, 0u);
    EXPECT_EQ(tag_usage.packed_pages, 0u);
    EXPECT_EQ(tag_usage.sparse_pages, 1u);
    EXPECT_EQ(tag_usage.capacity, static_cast<const tessera::sparse_set &>(tags).capacity());
}

TEST(PoolMemory, PlainSparseSetHasNoType) {
    tessera::sparse_set set{};
    set.push(tessera::entity{3u});
    const auto usage = tessera::memory_of(set);
    EXPECT_EQ(usage.type, tessera::type_name<void>::value());
    EXPECT_EQ(usage.size, 1u);
    EXPECT_EQ(usage.element_size, 0u);
    EXPECT_EQ(usage.sparse_pages, 1u);
}

} // namespace

} // namespace unit_entity_pool_memory
} // namespace
