// Example: copying entities. registry.clone copies one entity under the clone policy of each component type; a
// prototype holds component values that spawn copies into many new entities at once.
#include <tessera/tessera.hpp>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace {

struct position {
    float x{}, y{};
};

struct health {
    int points{};
};

struct name {
    std::string text;
};

/// A resource owned per entity: copies make a new one.
struct sprite {
    std::unique_ptr<int> texture;

    static sprite clone_element(const sprite &other) { return sprite{std::make_unique<int>(*other.texture)}; }
};

/// Per-frame bookkeeping: never copied.
struct path_cache {
    static constexpr auto clone = tessera::clone_policy::skip;
    std::vector<position> waypoints;
};

int constructed{};

void count_health(tessera::registry &, const tessera::entity) { ++constructed; }

int failures{};

void check(const bool condition, const char *what) {
    std::printf("  [%s] %s\n", condition ? "ok" : "FAILED", what);
    failures += condition ? 0 : 1;
}

} // namespace

int main() {
    using namespace tessera::literals;
    tessera::registry registry;
    registry.on_construct<health>().connect<&count_health>();

    std::puts("clone: one entity, every component, under each type's clone policy");
    const auto knight = registry.create();
    registry.emplace<position>(knight, 4.f, 2.f);
    registry.emplace<health>(knight, 100);
    registry.emplace<name>(knight, "knight");
    registry.emplace<sprite>(knight, std::make_unique<int>(7));
    registry.emplace<path_cache>(knight);
    registry.storage<health>("shield"_hs).emplace(knight, 40);

    const auto twin = registry.clone(knight);
    check(registry.get<name>(twin).text == "knight" && registry.get<health>(twin).points == 100,
          "copied the plain components");
    check(registry.storage<health>("shield"_hs).get(twin).points == 40, "copied the named pool too");
    check(registry.get<sprite>(twin).texture != registry.get<sprite>(knight).texture &&
              *registry.get<sprite>(twin).texture == 7,
          "the sprite got its own texture through clone_element");
    check(!registry.all_of<path_cache>(twin), "the path cache was skipped");

    tessera::registry other_level;
    const auto traveller = registry.clone(knight, other_level);
    check(other_level.get<position>(traveller).x == 4.f, "cloned into another registry");

    std::puts("prototypes: build once, spawn many");
    tessera::prototype soldier;
    soldier.emplace<position>(0.f, 0.f);
    soldier.emplace<health>(50);
    soldier.emplace<name>("soldier");
    soldier.emplace<sprite>(std::make_unique<int>(3));
    constructed = 0;
    const auto army = tessera::spawn(registry, soldier, 500u);
    check(army.size() == 500u && registry.get<name>(army[499]).text == "soldier", "500 soldiers spawned");
    check(constructed == 500, "on_construct<health> fired once per soldier");
    check(registry.get<sprite>(army[0]).texture != registry.get<sprite>(army[1]).texture,
          "every soldier has a texture of its own");

    std::puts("prototypes: captured from an entity");
    tessera::prototype veteran{registry, knight};
    veteran.get<health>().points = 150;
    const auto hero = tessera::spawn(registry, veteran);
    check(registry.get<health>(hero).points == 150 && registry.get<name>(hero).text == "knight",
          "a variant of the knight");
    check(!veteran.contains<path_cache>() && !registry.all_of<path_cache>(hero), "skipped types stay out");

    std::printf("prototypes: %s\n", failures == 0 ? "all checks passed" : "some checks FAILED");
    return failures == 0 ? 0 : 1;
}
