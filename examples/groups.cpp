// Example: full-owning, partial-owning and non-owning groups, and sorting a group.
#include <tessera/tessera.hpp>

#include <cstdio>

namespace {

struct position {
    float x{}, y{};
};

struct velocity {
    float dx{}, dy{};
};

struct sprite {
    int layer{};
};

struct health {
    int points{};
};

struct frozen {};

int failures{};

void check(const bool condition, const char *what) {
    std::printf("  [%s] %s\n", condition ? "ok" : "FAILED", what);
    failures += condition ? 0 : 1;
}

} // namespace

int main() {
    tessera::registry registry;

    for (int i = 0; i < 10; ++i) {
        const auto entity = registry.create();
        registry.emplace<position>(entity, static_cast<float>(i), 0.f);
        registry.emplace<sprite>(entity, 9 - i);
        if (i % 2 == 0) {
            registry.emplace<velocity>(entity, 1.f, 0.f);
        }
        if (i % 3 == 0) {
            registry.emplace<health>(entity, 10 * i);
        }
        if (i == 4) {
            registry.emplace<frozen>(entity);
        }
    }

    std::puts("groups: full-owning group of position and velocity, without frozen entities");
    // The group owns both pools: it keeps the matching entities packed at the front of each.
    auto movers = registry.group<position, velocity>(tessera::get<>, tessera::exclude<frozen>);
    check(movers.size() == 4u, "entities 0, 2, 6 and 8 move (4 is frozen)");
    movers.each([](position &pos, const velocity &vel) { pos.x += vel.dx; });

    // The owned pools are arranged so that the group's entities come first, in the same order.
    auto &positions = registry.storage<position>();
    auto &velocities = registry.storage<velocity>();
    bool aligned = true;
    for (std::size_t pos{}; pos < movers.size(); ++pos) {
        aligned = aligned && positions.data()[pos] == velocities.data()[pos];
    }
    check(aligned, "the first size() entities of both owned pools are the same, in the same order");

    // Adding a component later keeps the group up to date.
    const auto late = registry.create();
    registry.emplace<position>(late);
    registry.emplace<velocity>(late);
    check(movers.size() == 5u && movers.contains(late), "a new matching entity joined the group");

    std::puts("groups: a non-owning group of sprite and health");
    // Owning nothing, it keeps its own list of matching entities and leaves the pools alone.
    auto drawn = registry.group(tessera::get<sprite, health>);
    check(drawn.size() == 4u, "entities 0, 3, 6 and 9 have a sprite and health");

    // A group that owns nothing can be sorted; its pools are not touched.
    drawn.sort<sprite>([](const sprite &lhs, const sprite &rhs) { return lhs.layer < rhs.layer; });
    int previous = -1;
    bool sorted = true;
    for (auto [entity, spr, hp] : drawn.each()) {
        std::printf("    layer %d, health %d\n", spr.layer, hp.points);
        // iteration visits the entities in the order the comparison defines
        sorted = sorted && spr.layer >= previous;
        previous = spr.layer;
    }
    check(sorted, "iteration follows the order the comparison gave");

    std::puts("groups: partial ownership, sprite owned and health observed");
    // sprite is not owned by anything else, so a second group can own it.
    tessera::registry other;
    for (int i = 0; i < 6; ++i) {
        const auto entity = other.create();
        other.emplace<sprite>(entity, i);
        if (i > 2) {
            other.emplace<health>(entity, i);
        }
    }
    auto partial = other.group<sprite>(tessera::get<health>);
    check(partial.size() == 3u, "three entities have both");
    int sum{};
    partial.each([&sum](const sprite &spr, const health &) { sum += spr.layer; });
    check(sum == 3 + 4 + 5, "the partial group visited the sprites of entities 3, 4 and 5");

    // An owning group can also be sorted: it rearranges the owned pools (entity order here).
    partial.sort([](const tessera::entity lhs, const tessera::entity rhs) { return lhs < rhs; });
    check(partial.size() == 3u, "sorting does not change the group's content");

    std::printf("groups: %s\n", failures == 0 ? "all checks passed" : "some checks FAILED");
    return failures == 0 ? 0 : 1;
}
