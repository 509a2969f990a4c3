// Example: context variables, values that belong to the registry rather than to an entity (settings, clocks,
// services), including aliases to objects that live elsewhere.
#include <tessera/tessera.hpp>

#include <cstdio>

namespace {

struct game_clock {
    double elapsed{};
    double delta{1.0 / 60.0};
};

struct settings {
    int difficulty{1};
};

int failures{};

void check(const bool condition, const char *what) {
    std::printf("  [%s] %s\n", condition ? "ok" : "FAILED", what);
    failures += condition ? 0 : 1;
}

void tick(tessera::registry &registry) {
    auto &time = registry.ctx().get<game_clock>();
    time.elapsed += time.delta;
}

} // namespace

int main() {
    using namespace tessera::literals;
    tessera::registry registry;

    std::puts("context variables: one value per type");
    registry.ctx().emplace<game_clock>();
    tick(registry);
    tick(registry);
    check(registry.ctx().get<game_clock>().elapsed > 0.03, "two ticks advanced the game_clock");
    check(registry.ctx().contains<game_clock>() && !registry.ctx().contains<settings>(),
          "contains() tells what is there");

    // emplace() leaves an existing variable alone; insert_or_assign() replaces it.
    registry.ctx().emplace<game_clock>(100.0);
    check(registry.ctx().get<game_clock>().elapsed < 1.0, "a second emplace() did not replace the game_clock");
    registry.ctx().insert_or_assign(game_clock{100.0});
    check(registry.ctx().get<game_clock>().elapsed == 100.0, "insert_or_assign() did");

    std::puts("context variables: several values of one type under names");
    registry.ctx().emplace_as<int>("score"_hs, 10);
    registry.ctx().emplace_as<int>("lives"_hs, 3);
    check(registry.ctx().get<int>("score"_hs) == 10 && registry.ctx().get<int>("lives"_hs) == 3,
          "two ints under two names");
    check(registry.ctx().find<float>("score"_hs) == nullptr, "find() with the wrong type returns nullptr");

    std::puts("context variables: aliases to objects owned by the application");
    settings options{};
    registry.ctx().emplace<settings &>(options);
    registry.ctx().get<settings>().difficulty = 3;
    check(options.difficulty == 3, "writing through the context changed the application's object");

    const settings limits{7};
    registry.ctx().emplace_as<const settings &>("limits"_hs, limits);
    check(registry.ctx().get<const settings>("limits"_hs).difficulty == 7, "a read-only alias can be read");
    check(registry.ctx().find<settings>("limits"_hs) == nullptr, "but not written: find<settings> is null");

    check(registry.ctx().erase<settings>(), "erase() removes the alias");
    check(options.difficulty == 3, "and leaves the aliased object alone");

    std::printf("context variables: %s\n", failures == 0 ? "all checks passed" : "some checks FAILED");
    return failures == 0 ? 0 : 1;
}
