// Example: a reactive storage collects the entities that changed, so a system visits only those.
#include <tessera/tessera.hpp>

#include <cstdio>

namespace {

struct position {
    float x{}, y{};
};

struct velocity {
    float dx{}, dy{};
};

int failures{};

void check(const bool condition, const char *what) {
    std::printf("  [%s] %s\n", condition ? "ok" : "FAILED", what);
    failures += condition ? 0 : 1;
}

} // namespace

int main() {
    using namespace tessera::literals;
    tessera::registry registry;

    // A reactive storage is a pool of the registry like any other, under a name of our choice.
    auto &moved = registry.storage<tessera::reactive>("moved"_hs);
    moved.on_construct<position>().on_update<position>();

    std::puts("reactive storage: collect the entities whose position was set or changed");
    tessera::entity entities[4]{};
    for (auto &entity : entities) {
        entity = registry.create();
        registry.emplace<velocity>(entity, 1.f, 0.f);
    }

    registry.emplace<position>(entities[0]);
    registry.emplace<position>(entities[1]);
    check(moved.size() == 2u, "two positions were constructed, two entities collected");

    // Clearing means "seen": the next frame starts from nothing.
    moved.clear();
    registry.patch<position>(entities[1], [](position &pos) { pos.x = 3.f; });
    registry.emplace<position>(entities[2]);
    check(moved.size() == 2u && moved.contains(entities[1]) && moved.contains(entities[2]),
          "a patch and a construction were collected after clear()");
    check(!moved.contains(entities[0]), "the untouched entity is not there");

    // view() joins the collected entities with other pools of the registry.
    int visited{};
    for (auto [entity, pos, vel] : moved.view<position, const velocity>().each()) {
        pos.x += vel.dx;
        ++visited;
    }
    check(visited == 2, "the system visited only the two changed entities");

    // Destroyed entities leave the reactive storage on their own.
    registry.destroy(entities[2]);
    check(moved.size() == 1u, "a destroyed entity left the reactive storage");

    // Switching a component off or on (docs/enable_disable.md) is an event too: collect the entities that
    // stopped moving, to wake them up later.
    auto &asleep = registry.storage<tessera::reactive>("asleep"_hs);
    asleep.on_disable<velocity>();
    registry.disable<velocity>(entities[0]);
    registry.disable<velocity>(entities[0]);
    check(asleep.size() == 1u && asleep.contains(entities[0]),
          "disabling a velocity collected its entity, once, as disabling it again changed nothing");
    check(registry.view<velocity>().size() == 2u, "views skip the disabled velocity meanwhile");
    registry.enable<velocity>(entities[0]);
    asleep.clear();
    asleep.reset();

    // reset() disconnects the storage from the registry's signals.
    moved.clear();
    moved.reset();
    registry.emplace<position>(entities[3]);
    check(moved.empty(), "after reset() nothing is collected");

    std::printf("reactive storage: %s\n", failures == 0 ? "all checks passed" : "some checks FAILED");
    return failures == 0 ? 0 : 1;
}
