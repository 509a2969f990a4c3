// Example: the construction, update and destruction signals of a registry, the "dependencies" idiom (a
// component that brings another one with it), and sigh_helper to connect several listeners in one go.
#include <tessera/tessera.hpp>

#include <cstdio>
#include <vector>

namespace {

struct position {
    float x{}, y{};
};

struct velocity {
    float dx{}, dy{};
};

struct rigid_body {
    float mass{1.f};
};

int failures{};

void check(const bool condition, const char *what) {
    std::printf("  [%s] %s\n", condition ? "ok" : "FAILED", what);
    failures += condition ? 0 : 1;
}

// Records what happened, in order.
struct journal {
    std::vector<const char *> lines{};

    void constructed(tessera::registry &, tessera::entity) { lines.push_back("position constructed"); }
    void updated(tessera::registry &, tessera::entity) { lines.push_back("position updated"); }
    void destroyed(tessera::registry &, tessera::entity) { lines.push_back("position destroyed"); }
};

// Dependencies idiom: a rigid body needs a velocity; the listener adds one if the entity has none yet.
void add_velocity(tessera::registry &registry, const tessera::entity entity) {
    if (!registry.all_of<velocity>(entity)) {
        registry.emplace<velocity>(entity);
    }
}

} // namespace

int main() {
    tessera::registry registry;
    journal log;

    std::puts("signals: listeners on the position pool");
    registry.on_construct<position>().connect<&journal::constructed>(log);
    registry.on_update<position>().connect<&journal::updated>(log);
    registry.on_destroy<position>().connect<&journal::destroyed>(log);

    const auto entity = registry.create();
    registry.emplace<position>(entity, 1.f, 2.f);
    registry.patch<position>(entity, [](position &pos) { pos.x += 1.f; });
    registry.replace<position>(entity, 5.f, 5.f);
    registry.remove<position>(entity);

    check(log.lines.size() == 4u, "emplace, patch, replace and remove fired four signals");
    check(log.lines.size() == 4u && log.lines[1] == log.lines[2], "patch and replace both fire on_update");
    for (const auto *line : log.lines) {
        std::printf("    %s\n", line);
    }

    // Writing through get() does not notify anyone: only patch and replace do.
    registry.emplace<position>(entity);
    log.lines.clear();
    registry.get<position>(entity).x = 10.f;
    check(log.lines.empty(), "a write through get() fires nothing");

    // Destroying the entity fires on_destroy for each of its components.
    registry.destroy(entity);
    check(log.lines.size() == 1u, "destroy fired on_destroy for the position");

    registry.on_construct<position>().disconnect(&log);
    registry.on_update<position>().disconnect(&log);
    registry.on_destroy<position>().disconnect(&log);

    std::puts("signals: a rigid body brings a velocity with it");
    registry.on_construct<rigid_body>().connect<&add_velocity>();
    const auto body = registry.create();
    registry.emplace<rigid_body>(body, 2.f);
    check(registry.all_of<rigid_body, velocity>(body), "emplacing rigid_body also emplaced velocity");
    registry.on_construct<rigid_body>().disconnect<&add_velocity>();

    std::puts("signals: sigh_helper connects several listeners in one expression");
    journal other;
    tessera::sigh_helper{registry}
        .with<position>()
        .on_construct<&journal::constructed>(other)
        .on_destroy<&journal::destroyed>(other);
    registry.emplace<position>(body);
    registry.erase<position>(body);
    check(other.lines.size() == 2u, "the helper connected on_construct and on_destroy");

    std::printf("signals: %s\n", failures == 0 ? "all checks passed" : "some checks FAILED");
    return failures == 0 ? 0 : 1;
}
