// Threads recording into command buffers while others iterate views of the same registry: recording never
// touches the registry, so under ThreadSanitizer (`tsan` preset) no race may be reported, and applying the
// buffers in a fixed order gives the same registry as recording them all on one thread.
#include <array>
#include <cstddef>
#include <gtest/gtest.h>
#include <tessera/entity/command_buffer.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/view.hpp>
#include <thread>
#include <vector>

namespace {

struct health {
    int points;
};

struct burning {
    int turns;
};

struct spark {
    tessera::entity from;
    static constexpr auto entity_members = std::tuple{&spark::from};
};

constexpr std::size_t workers = 4u;
constexpr int entity_count = 4000;

// what one worker records: the entities of its share that burn get hurt, the dead are destroyed, and each
// burning entity throws a spark that points back at it
void record(const tessera::registry &registry, tessera::command_buffer &buffer, const std::size_t share) {
    registry.view<const health, const burning>().each(
        [&buffer, share](const tessera::entity entt, const health &hp, const burning &fire) {
            if (static_cast<std::size_t>(hp.points) % workers == share) {
                buffer.replace<health>(entt, hp.points - fire.turns);
                buffer.emplace<spark>(buffer.create(), entt);

                if (hp.points <= fire.turns) {
                    buffer.destroy(entt);
                }
            }
        });
}

void populate(tessera::registry &registry) {
    for (int count{}; count < entity_count; ++count) {
        const auto entt = registry.create();
        registry.emplace<health>(entt, count);

        if (count % 3 != 0) {
            registry.emplace<burning>(entt, count % 7);
        }
    }
}

TEST(Threads, RecordingWhileViewsAreIterated) {
    tessera::registry parallel;
    tessera::registry sequential;
    populate(parallel);
    populate(sequential);
    std::array<tessera::command_buffer, workers> buffers{};

    {
        std::vector<std::thread> threads{};
        const tessera::registry &view_of = parallel;

        for (std::size_t share{}; share < workers; ++share) {
            threads.emplace_back([&view_of, &buffers, share] { record(view_of, buffers[share], share); });
        }

        // meanwhile this thread reads the same pools
        long long total{};
        view_of.view<const health>().each([&total](const health &hp) { total += hp.points; });
        EXPECT_GT(total, 0);

        for (auto &&thread : threads) {
            thread.join();
        }
    }

    for (auto &&buffer : buffers) {
        buffer.apply(parallel);
    }

    // the same recording on one thread
    std::array<tessera::command_buffer, workers> alone{};

    for (std::size_t share{}; share < workers; ++share) {
        record(sequential, alone[share], share);
    }

    for (auto &&buffer : alone) {
        buffer.apply(sequential);
    }

    const auto &lhs = parallel.storage<tessera::entity>();
    const auto &rhs = sequential.storage<tessera::entity>();
    ASSERT_EQ(lhs.free_list(), rhs.free_list());

    for (const auto [entt, hp] : parallel.view<health>().each()) {
        ASSERT_TRUE(sequential.valid(entt));
        EXPECT_EQ(sequential.get<health>(entt).points, hp.points);
    }

    for (const auto [entt, elem] : parallel.view<spark>().each()) {
        EXPECT_EQ(sequential.get<spark>(entt).from, elem.from);
    }

    EXPECT_EQ(parallel.storage<spark>().size(), sequential.storage<spark>().size());
}

} // namespace
