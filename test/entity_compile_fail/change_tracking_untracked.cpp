// Must not compile: added_since on a type that does not track changes.
#include <tessera/entity/registry.hpp>

struct untracked {
    int value;
};

int main() {
    tessera::registry registry;
    const auto entt = registry.create();
    registry.emplace<untracked>(entt, 1);
    return registry.added_since<untracked>(entt, 0u) ? 0 : 1;
}
