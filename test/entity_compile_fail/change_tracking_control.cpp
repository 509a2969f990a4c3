// Must compile: the setup of change_tracking_untracked.cpp, with the type tracked.
#include <tessera/entity/registry.hpp>

struct tracked {
    static constexpr bool track_changes = true;
    int value;
};

int main() {
    tessera::registry registry;
    const auto entt = registry.create();
    registry.emplace<tracked>(entt, 1);
    return registry.added_since<tracked>(entt, 0u) ? 0 : 1;
}
