// Example: a runtime view over pools chosen at run time by their type hash, for example from a script or a
// configuration file that names the components.
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

struct hidden {};

int failures{};

void check(const bool condition, const char *what) {
    std::printf("  [%s] %s\n", condition ? "ok" : "FAILED", what);
    failures += condition ? 0 : 1;
}

} // namespace

int main() {
    tessera::registry registry;

    for (int i = 0; i < 8; ++i) {
        const auto entity = registry.create();
        registry.emplace<position>(entity);
        if (i % 2 == 0) {
            registry.emplace<velocity>(entity);
        }
        if (i == 0) {
            registry.emplace<hidden>(entity);
        }
    }

    // The ids would come from outside the program; here they are the type hashes of the components.
    const std::vector<tessera::id_type> wanted{tessera::type_id<position>().hash(),
                                               tessera::type_id<velocity>().hash()};
    const std::vector<tessera::id_type> unwanted{tessera::type_id<hidden>().hash()};

    std::puts("runtime views: position and velocity, not hidden, chosen by id");
    tessera::runtime_view view{};
    for (const auto id : wanted) {
        // storage(id) returns nullptr for a pool that does not exist: an empty view is then the right answer
        if (auto *pool = registry.storage(id); pool != nullptr) {
            view.iterate(*pool);
        }
    }
    for (const auto id : unwanted) {
        if (auto *pool = registry.storage(id); pool != nullptr) {
            view.exclude(*pool);
        }
    }

    std::size_t count{};
    for (const auto entity : view) {
        // A runtime view has no get(): read components through the registry.
        registry.get<position>(entity).x += 1.f;
        ++count;
    }
    check(count == 3u, "entities 2, 4 and 6 match");
    check(view.size_hint() == 4u, "size_hint() is the size of the smallest iterated pool");

    std::size_t visited{};
    view.each([&visited](const tessera::entity) { ++visited; });
    check(visited == count, "each() visits the same entities as the iterator");

    // Pools can also be walked generically, without knowing their types.
    std::puts("runtime views: the pools of the registry");
    for (auto [id, pool] : registry.storage()) {
        std::printf("    pool %u: %zu entities, type %.*s\n", static_cast<unsigned>(id), pool.size(),
                    static_cast<int>(pool.info().name().size()), pool.info().name().data());
    }

    std::printf("runtime views: %s\n", failures == 0 ? "all checks passed" : "some checks FAILED");
    return failures == 0 ? 0 : 1;
}
