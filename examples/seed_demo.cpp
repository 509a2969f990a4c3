// The player / enemy / tree scenario of the sparse-set article that inspired tessera, done with tessera:
// movement, health regeneration and AI systems over three frames, a velocity that makes the tree move, and a
// destroyed enemy whose stale identifier stays invalid after its index is reused.
//
// The article's expected output has two mistakes that this program does not repeat: it prints the enemy's
// identifier as 1048576 although index 1 with version 0 is the integer 1, and it says the enemy AI is Idle
// although the player is within the enemy's detection range (about 7 units away, range 10), which its own
// rules call Chase. Everything printed here is computed.
#include <cmath>
#include <iostream>

#include <tessera/entity/registry.hpp>
#include <tessera/entity/view.hpp>

struct position {
    float x, y, z;
};

struct velocity {
    float vx, vy, vz;
};

struct health {
    int current;
    int max;
};

struct renderable {
    std::uint32_t mesh_id;
    std::uint32_t material_id;
};

struct ai {
    enum class state { idle, chase, attack, flee };

    state current = state::idle;
    tessera::entity target = tessera::null;
    float detection_range = 10.f;
};

namespace systems {

void movement(tessera::registry &registry, const float dt) {
    registry.view<position, const velocity>().each([dt](position &pos, const velocity &vel) {
        pos.x += vel.vx * dt;
        pos.y += vel.vy * dt;
        pos.z += vel.vz * dt;
    });
}

void health_regeneration(tessera::registry &registry) {
    registry.view<health>().each([](health &hp) {
        if (hp.current < hp.max) {
            ++hp.current;
        }
    });
}

void ai_update(tessera::registry &registry) {
    registry.view<ai, const position>().each([&registry](ai &brain, const position &pos) {
        if (!registry.valid(brain.target)) {
            brain.current = ai::state::idle;
            brain.target = tessera::null;
            return;
        }

        const auto &target = registry.get<position>(brain.target);
        const float dx = target.x - pos.x;
        const float dz = target.z - pos.z;
        const float distance = std::sqrt(dx * dx + dz * dz);

        if (distance < 1.5f) {
            brain.current = ai::state::attack;
        } else if (distance < brain.detection_range) {
            brain.current = ai::state::chase;
        } else {
            brain.current = ai::state::idle;
        }
    });
}

} // namespace systems

namespace {

const char *to_string(const ai::state value) {
    constexpr const char *names[]{"Idle", "Chase", "Attack", "Flee"};
    return names[static_cast<int>(value)];
}

} // namespace

int main() {
    tessera::registry registry;

    const auto player = registry.create();
    registry.emplace<position>(player, 0.f, 0.f, 0.f);
    registry.emplace<velocity>(player, 1.f, 0.f, 0.5f);
    registry.emplace<health>(player, 100, 100);
    registry.emplace<renderable>(player, 1001u, 2001u);
    std::cout << "Player entity: " << tessera::to_integral(player) << " (index " << tessera::to_entity(player)
              << ", version " << tessera::to_version(player) << ")\n";

    const auto enemy = registry.create();
    registry.emplace<position>(enemy, 5.f, 0.f, 5.f);
    registry.emplace<velocity>(enemy, 0.f, 0.f, 0.f);
    registry.emplace<health>(enemy, 50, 50);
    registry.emplace<renderable>(enemy, 1002u, 2002u);
    registry.emplace<ai>(enemy).target = player;
    std::cout << "Enemy  entity: " << tessera::to_integral(enemy) << " (index " << tessera::to_entity(enemy)
              << ", version " << tessera::to_version(enemy) << ")\n\n";

    const auto tree = registry.create();
    registry.emplace<position>(tree, 10.f, 0.f, 10.f);
    registry.emplace<renderable>(tree, 3001u, 4001u);

    constexpr float dt = 0.016f;

    for (int frame = 0; frame < 3; ++frame) {
        systems::movement(registry, dt);
        systems::health_regeneration(registry);
        systems::ai_update(registry);

        const auto &player_position = registry.get<position>(player);
        std::cout << "Frame " << frame + 1 << " | Player(" << player_position.x << ", " << player_position.z
                  << ") | Enemy AI: " << to_string(registry.get<ai>(enemy).current) << "\n";
    }

    std::cout << "\n[demo] the tree gets a velocity, so the movement system picks it up\n";
    registry.emplace<velocity>(tree, 0.f, 0.f, 0.1f);
    systems::movement(registry, dt);
    std::cout << "Tree new Z: " << registry.get<position>(tree).z << "\n";

    std::cout << "\n[demo] the enemy is destroyed, so the identifier kept for it becomes invalid\n";
    const auto old_enemy_ref = enemy;
    registry.destroy(enemy);
    std::cout << std::boolalpha << "old enemy ref valid: " << registry.valid(old_enemy_ref) << "\n";

    const auto new_entity = registry.create();
    std::cout << "new entity index: " << tessera::to_entity(new_entity) << "\n";
    std::cout << "new entity version: " << tessera::to_version(new_entity) << "\n";
    std::cout << "old ref still invalid: " << !registry.valid(old_enemy_ref) << "\n";
    return 0;
}
