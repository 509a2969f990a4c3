// Example: handles, an entity and its registry in one object, with the registry's per-entity calls.
#include <tessera/tessera.hpp>

#include <cstdio>

namespace {

struct name {
    const char *text{};
};

struct health {
    int points{};
};

int failures{};

void check(const bool condition, const char *what) {
    std::printf("  [%s] %s\n", condition ? "ok" : "FAILED", what);
    failures += condition ? 0 : 1;
}

// A function that only needs to read one entity takes a const handle.
int points_of(const tessera::const_handle entity) {
    const auto *hp = entity.try_get<health>();
    return hp == nullptr ? 0 : hp->points;
}

} // namespace

int main() {
    tessera::registry registry;

    std::puts("handles: build an entity through its handle");
    tessera::handle goblin{registry, registry.create()};
    goblin.emplace<name>("goblin");
    goblin.emplace<health>(30);
    goblin.patch<health>([](health &hp) { hp.points -= 5; });
    check(goblin.all_of<name, health>(), "the goblin has a name and health");
    check(points_of(goblin) == 25, "a handle converts to a const handle");

    std::puts("handles: walk the components of an entity");
    std::size_t pools{};
    for (auto [id, pool] : goblin.storage()) {
        std::printf("    in the pool of %.*s\n", static_cast<int>(pool.info().name().size()),
                    pool.info().name().data());
        ++pools;
    }
    check(pools == 2u, "the goblin is in two pools");

    std::puts("handles: an empty handle and a destroyed entity");
    const tessera::handle nobody{};
    check(!nobody, "a default handle is empty");
    const tessera::entity id = goblin;
    goblin.destroy();
    check(!goblin.valid() && !registry.valid(id), "after destroy() the entity is gone");
    check(static_cast<bool>(goblin) == false, "and the handle no longer refers to a valid entity");

    std::printf("handles: %s\n", failures == 0 ? "all checks passed" : "some checks FAILED");
    return failures == 0 ? 0 : 1;
}
