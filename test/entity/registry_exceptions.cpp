// Registry operations that fail half-way, through a throwing constructor or an allocator that runs out (swept
// over every allocation the operation makes): afterwards the registry is consistent (valid, the pools and
// all_of agree) and, once it is gone, every allocation was given back (checked here and by ASan/LSan).
#include "support/tracking_allocator.hpp"
#include <cstddef>
#include <gtest/gtest.h>
#include <new>
#include <stdexcept>
#include <string>
#include <tessera/archive/binary.hpp>
#include <tessera/entity/group.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/view.hpp>
#include <vector>

namespace {
namespace unit_entity_registry_exceptions {

namespace {

using tessera::entity;
using tessera_test::allocation_log;
using tracked_registry = tessera::basic_registry<entity, tessera_test::tracking_allocator<entity>>;

struct plain {
    int value;
};

// Owns heap memory, so a leak of an element shows up under LSan.
struct heavy {
    std::string text{"a string long enough to live on the heap, not in the small buffer"};
};

// Its constructors throw once the shared budget is spent.
struct fragile {
    static inline int budget = -1;

    static void spend() {
        if (budget == 0) {
            throw std::runtime_error{"fragile: out of budget"};
        }

        budget -= budget > 0;
    }

    fragile() { spend(); }
    fragile(const fragile &other) : value{other.value} { spend(); }
    fragile &operator=(const fragile &) = default;
    explicit fragile(const int init) : value{init} { spend(); }
    int value{};
};

struct sweep_guard {
    ~sweep_guard() { fragile::budget = -1; }
};

// The registry agrees with itself: every identifier of a pool is valid, and all_of agrees with the pools.
void expect_consistent(const tracked_registry &registry) {
    const auto &entities = *registry.storage<entity>();

    for (const auto [id, pool] : registry.storage()) {
        for (const auto entt : pool) {
            EXPECT_TRUE(registry.valid(entt)) << "a pool holds an invalid entity";
        }

        EXPECT_EQ(registry.storage(id), &pool) << "the index of the pools lost track of one";
    }

    for (auto it = entities.begin(), last = it + static_cast<std::ptrdiff_t>(entities.free_list()); it != last; ++it) {
        const auto entt = *it;
        EXPECT_TRUE(registry.valid(entt));
        const auto *plain_pool = registry.storage<plain>();
        EXPECT_EQ(registry.all_of<plain>(entt), plain_pool && plain_pool->contains(entt));
        const auto *heavy_pool = registry.storage<heavy>();
        EXPECT_EQ(registry.all_of<heavy>(entt), heavy_pool && heavy_pool->contains(entt));
    }
}

// Runs `prepare` then `operation` on fresh registries, with the allocation budget of the operation raised one
// by one until it succeeds. Returns how many budgets failed.
template<typename Prepare, typename Operation>
std::size_t sweep_allocations(Prepare prepare, Operation operation) {
    for (std::size_t budget{};; ++budget) {
        allocation_log log{};
        bool failed = false;
        {
            tracked_registry registry{tessera_test::tracking_allocator<entity>{log}};
            prepare(registry);
            log.fail_after = budget;

            try {
                operation(registry);
            } catch (const std::bad_alloc &) {
                failed = true;
            }

            log.fail_after = allocation_log::never;
            expect_consistent(registry);
        }
        EXPECT_TRUE(log.balanced()) << "budget " << budget << ": " << log.live() << " allocations leaked";

        if (!failed || budget > 200u) {
            return budget;
        }
    }
}

void nothing(tracked_registry &) {}

void populate(tracked_registry &registry) {
    for (int i = 0; i < 40; ++i) {
        const auto entt = registry.create();
        registry.emplace<plain>(entt, i);

        if (i % 2 == 0) {
            registry.emplace<heavy>(entt);
        }
    }
}

TEST(RegistryExceptions, CreateAndEmplaceUnderAllocationFailure) {
    EXPECT_GT(sweep_allocations(nothing,
                                [](tracked_registry &registry) {
                                    for (int i = 0; i < 50; ++i) {
                                        const auto entt = registry.create();
                                        registry.emplace<plain>(entt, i);
                                        registry.emplace<heavy>(entt);
                                    }
                                }),
              0u);
}

TEST(RegistryExceptions, BulkCreateAndInsertUnderAllocationFailure) {
    EXPECT_GT(sweep_allocations(nothing,
                                [](tracked_registry &registry) {
                                    std::vector<entity> entities(3000u);
                                    registry.create(entities.begin(), entities.end());
                                    registry.insert<plain>(entities.begin(), entities.end(), plain{7});
                                    registry.insert<heavy>(entities.begin(), entities.end());
                                }),
              0u);
}

TEST(RegistryExceptions, EmplaceOrReplaceDestroyAndClearUnderAllocationFailure) {
    EXPECT_GT(sweep_allocations(populate,
                                [](tracked_registry &registry) {
                                    std::vector<entity> entities;

                                    for (const auto entt : registry.view<plain>()) {
                                        entities.push_back(entt);
                                    }

                                    for (const auto entt : entities) {
                                        registry.emplace_or_replace<heavy>(entt);
                                    }

                                    registry.destroy(entities.front());
                                    registry.clear<plain>();
                                    registry.clear();
                                }),
              0u);
}

TEST(RegistryExceptions, StorageAndGroupCreationUnderAllocationFailure) {
    EXPECT_GT(sweep_allocations(populate,
                                [](tracked_registry &registry) {
                                    static_cast<void>(registry.storage<int>());
                                    static_cast<void>(registry.storage<plain>(42u));
                                    // reactive pools are put first: the other pools' places in the index move
                                    static_cast<void>(registry.storage<tessera::reactive>(7u));
                                    static_cast<void>(registry.group<plain>(tessera::get<heavy>));
                                    static_cast<void>(registry.group(tessera::get<plain>, tessera::exclude<int>));
                                }),
              0u);
}

TEST(RegistryExceptions, SnapshotLoadUnderAllocationFailure) {
    std::vector<std::byte> bytes;
    {
        allocation_log log{};
        tracked_registry source{tessera_test::tracking_allocator<entity>{log}};
        populate(source);
        bytes = tessera::save<plain>(source);
    }

    EXPECT_GT(
        sweep_allocations(nothing, [&bytes](tracked_registry &registry) { tessera::load<plain>(registry, bytes); }),
        0u);
}

TEST(RegistryExceptions, ThrowingConstructors) {
    const sweep_guard guard{};

    for (int budget = 0; budget < 60; budget += 7) {
        allocation_log log{};
        {
            tracked_registry registry{tessera_test::tracking_allocator<entity>{log}};
            populate(registry);
            std::vector<entity> entities(20u);
            registry.create(entities.begin(), entities.end());
            fragile::budget = budget;

            try {
                for (std::size_t pos{}; pos < 5u; ++pos) {
                    registry.emplace<fragile>(entities[pos], static_cast<int>(pos));
                }

                registry.insert<fragile>(entities.begin() + 5, entities.end(), fragile{3});
                registry.emplace_or_replace<fragile>(entities.front(), 9);
            } catch (const std::runtime_error &) {
            }

            fragile::budget = -1;
            expect_consistent(registry);
            const auto &pool = registry.storage<fragile>();

            for (const auto entt : entities) {
                EXPECT_EQ(registry.all_of<fragile>(entt), pool.contains(entt));
            }

            for (const auto [entt, elem] : pool.each()) {
                EXPECT_TRUE(registry.valid(entt));
                static_cast<void>(elem);
            }
        }
        EXPECT_TRUE(log.balanced());
    }
}

} // namespace

} // namespace unit_entity_registry_exceptions
} // namespace
