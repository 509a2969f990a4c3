// Example: a small scene graph with the opt-in hierarchy module. A ship carries two turrets, each turret a barrel;
// world positions come from local ones in one pass over the parent-first order, a turret moves to the other side,
// and destroying the ship takes everything it carries with it, or leaves it behind under the orphan policy.
#include <tessera/entity/hierarchy.hpp>
#include <tessera/tessera.hpp>

#include <cmath>
#include <cstdio>

namespace {

/// Offset and rotation relative to the parent.
struct local_transform {
    float x{}, y{}, angle{};
};

/// Position and rotation in the world, computed from the local transforms.
struct world_transform {
    float x{}, y{}, angle{};
};

struct name {
    const char *text{};
};

int failures{};

void check(const bool condition, const char *what) {
    std::printf("  [%s] %s\n", condition ? "ok" : "FAILED", what);
    failures += condition ? 0 : 1;
}

bool near(const float lhs, const float rhs) { return std::fabs(lhs - rhs) < 1e-4f; }

tessera::entity spawn(tessera::registry &registry, const char *text, const local_transform local) {
    const auto entt = registry.create();
    registry.emplace<name>(entt, text);
    registry.emplace<local_transform>(entt, local);
    registry.emplace<world_transform>(entt);
    return entt;
}

// the parent's frame applied to the child's local offset
void update_world(tessera::registry &registry) {
    tessera::sort_parent_first<local_transform, world_transform>(registry);
    tessera::propagate<local_transform, world_transform>(
        registry, [](world_transform &out, const local_transform &in, const world_transform *parent) {
            if (parent == nullptr) {
                out = {in.x, in.y, in.angle};
                return;
            }

            const float cos = std::cos(parent->angle);
            const float sin = std::sin(parent->angle);
            out = {parent->x + cos * in.x - sin * in.y, parent->y + sin * in.x + cos * in.y, parent->angle + in.angle};
        });
}

void print_tree(const tessera::registry &registry, const tessera::entity root) {
    tessera::each_depth_first(registry, root, [&registry](const tessera::entity entt) {
        // adding zero turns a negative zero into a positive one for printing
        const auto &world = registry.get<world_transform>(entt);
        std::printf("  %*s%s at (%.1f, %.1f)\n", static_cast<int>(2u * tessera::depth_of(registry, entt)), "",
                    registry.get<name>(entt).text, static_cast<double>(world.x + 0.f),
                    static_cast<double>(world.y + 0.f));
    });
}

} // namespace

int main() {
    tessera::registry registry;
    const float quarter = 3.14159265f / 2.f;
    const auto ship = spawn(registry, "ship", {10.f, 0.f, quarter});
    const auto left = spawn(registry, "left turret", {0.f, 2.f, 0.f});
    const auto right = spawn(registry, "right turret", {0.f, -2.f, 0.f});
    const auto barrel = spawn(registry, "barrel", {1.f, 0.f, 0.f});
    tessera::attach(registry, left, ship);
    tessera::attach(registry, right, ship);
    tessera::attach(registry, barrel, left);

    std::puts("hierarchy: world transforms from local ones");
    update_world(registry);
    print_tree(registry, ship);
    // the ship faces +y: its left turret's offset (0, 2) turns into (-2, 0)
    check(near(registry.get<world_transform>(left).x, 8.f) && near(registry.get<world_transform>(left).y, 0.f),
          "the left turret turned with the ship");
    check(near(registry.get<world_transform>(barrel).x, 8.f) && near(registry.get<world_transform>(barrel).y, 1.f),
          "the barrel follows its turret");
    check(tessera::child_count(registry, ship) == 2u && tessera::depth_of(registry, barrel) == 2u,
          "two turrets, the barrel two levels down");

    std::puts("hierarchy: moving the barrel to the right turret");
    tessera::attach(registry, barrel, right);
    update_world(registry);
    print_tree(registry, ship);
    check(tessera::parent_of(registry, barrel) == right, "the barrel has a new parent");
    check(near(registry.get<world_transform>(barrel).x, 12.f) && near(registry.get<world_transform>(barrel).y, 1.f),
          "and a new world position");

    std::puts("hierarchy: destroying the ship");
    registry.ctx().emplace<tessera::hierarchy_policy>(tessera::hierarchy_policy::orphan_children);
    tessera::destroy_with(registry, left, tessera::hierarchy_policy::destroy_children);
    check(!registry.valid(left) && registry.valid(barrel), "destroy_with removed the empty left turret");
    registry.ctx().erase<tessera::hierarchy_policy>();
    registry.destroy(ship);
    check(!registry.valid(right) && !registry.valid(barrel), "the ship took its turret and barrel with it");
    check(registry.storage<tessera::entity>().free_list() == 0u, "nothing is left");

    std::printf("hierarchy: %s\n", failures == 0 ? "every check passed" : "some checks FAILED");
    return failures == 0 ? 0 : 1;
}
