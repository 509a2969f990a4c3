// Threads working on one registry the way docs/thread_safety.md allows: each thread on its own component types (pools
// created beforehand), and many threads reading through views of a const registry. Run under ThreadSanitizer
// (`tsan` preset), a data race in the library's read paths or in shared bookkeeping would be reported.
#include <gtest/gtest.h>
#include <tessera/entity/group.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/view.hpp>
#include <thread>
#include <vector>

namespace {

template<int Tag>
struct value {
    int amount;
};

constexpr int entity_count = 2000;
constexpr int rounds = 20;

TEST(Threads, DisjointComponentSetsInParallel) {
    tessera::registry registry;
    std::vector<tessera::entity> entities(entity_count);
    registry.create(entities.begin(), entities.end());
    // every pool exists before the threads start: creating a pool changes the registry itself
    static_cast<void>(registry.storage<value<0>>());
    static_cast<void>(registry.storage<value<1>>());
    static_cast<void>(registry.storage<value<2>>());
    static_cast<void>(registry.storage<value<3>>());

    auto work = [&registry, &entities]<int First, int Second>() {
        for (int round = 0; round < rounds; ++round) {
            for (const auto entt : entities) {
                registry.emplace_or_replace<value<First>>(entt, round);
            }

            registry.view<value<First>>().each([&registry](const tessera::entity entt, value<First> &elem) {
                registry.emplace_or_replace<value<Second>>(entt, elem.amount + 1);
            });

            for (std::size_t pos = 0; pos < entities.size(); pos += 2u) {
                registry.remove<value<First>>(entities[pos]);
            }

            registry.clear<value<Second>>();
        }
    };

    std::thread first{[&work] { work.template operator()<0, 1>(); }};
    std::thread second{[&work] { work.template operator()<2, 3>(); }};
    first.join();
    second.join();

    EXPECT_EQ(registry.storage<value<0>>().size(), entities.size() / 2u);
    EXPECT_EQ(registry.storage<value<2>>().size(), entities.size() / 2u);
    EXPECT_TRUE(registry.storage<value<1>>().empty());
    EXPECT_TRUE(registry.storage<value<3>>().empty());
}

TEST(Threads, ManyReadersThroughViewsOfAConstRegistry) {
    tessera::registry registry;

    for (int i = 0; i < entity_count; ++i) {
        const auto entt = registry.create();
        registry.emplace<value<0>>(entt, i);

        if (i % 3 == 0) {
            registry.emplace<value<1>>(entt, 1);
        }
    }

    static_cast<void>(registry.storage<value<2>>());
    const tessera::registry &reader = registry;
    std::vector<long long> sums(4u);
    std::vector<std::thread> threads;

    for (std::size_t t = 0; t < sums.size(); ++t) {
        threads.emplace_back([&reader, &sums, t] {
            for (int round = 0; round < rounds; ++round) {
                long long sum{};
                reader.view<const value<0>, const value<1>>().each(
                    [&sum](const value<0> &lhs, const value<1> &rhs) { sum += lhs.amount * rhs.amount; });
                reader.view<const value<0>>(tessera::exclude<value<2>>)
                    .each([&sum, &reader](const auto entt, const auto &elem) {
                        sum += reader.all_of<value<1>>(entt) ? 0 : elem.amount;
                        sum += reader.get<value<0>>(entt).amount - elem.amount;
                    });

                for (const auto entt : reader.view<const value<1>>()) {
                    sum += reader.valid(entt) ? 0 : 1;
                }

                sums[t] = sum;
            }
        });
    }

    for (auto &thread : threads) {
        thread.join();
    }

    long long expected{};

    for (int i = 0; i < entity_count; ++i) {
        expected += i;
    }

    for (const auto sum : sums) {
        EXPECT_EQ(sum, expected);
    }
}

} // namespace

TEST(Threads, ManyReadersOfOneGroup) {
    // each() of a partial- or non-owning group records whether its pools line up; readers running each() on the
    // same group at once all write that record
    tessera::registry registry;
    auto partial = registry.group<value<0>>(tessera::get<value<1>>);
    auto non_owning = registry.group<>(tessera::get<value<2>, value<1>>);

    for (int i = 0; i < entity_count; ++i) {
        const auto entt = registry.create();
        registry.emplace<value<0>>(entt, i);
        registry.emplace<value<1>>(entt, 2);
        registry.emplace<value<2>>(entt, 3);
    }

    std::vector<long long> sums(4u);
    std::vector<std::thread> threads;

    for (std::size_t t = 0; t < sums.size(); ++t) {
        threads.emplace_back([&partial, &non_owning, &sums, t] {
            for (int round = 0; round < rounds; ++round) {
                long long sum{};
                partial.each([&sum](const value<0> &lhs, const value<1> &rhs) { sum += lhs.amount * rhs.amount; });
                non_owning.each([&sum](const value<2> &lhs, const value<1> &rhs) { sum += lhs.amount * rhs.amount; });
                sums[t] = sum;
            }
        });
    }

    for (auto &thread : threads) {
        thread.join();
    }

    const long long expected = 2LL * (entity_count - 1) * entity_count / 2 + 6LL * entity_count;

    for (const auto sum : sums) {
        EXPECT_EQ(sum, expected);
    }
}
