// A typical game translation unit, for compile-time measurements (bench/compile/measure): a registry, ten
// component types, three views of two or three types with an exclude, a full-owning group and one signal.
#include <tessera/tessera.hpp>

#include <cstdint>
#include <cstdio>

namespace game {

struct position {
    float x, y;
};

struct velocity {
    float dx, dy;
};

struct acceleration {
    float ax, ay;
};

struct health {
    std::int32_t value;
};

struct damage {
    std::int32_t amount;
};

struct armor {
    std::int32_t rating;
};

struct sprite {
    std::uint32_t id;
};

struct animation {
    std::uint16_t frame, count;
};

struct target {
    tessera::entity who;
};

struct dead {};

void on_death(tessera::registry &registry, const tessera::entity entt) {
    registry.emplace_or_replace<sprite>(entt, 0u);
}

void spawn(tessera::registry &registry, const int count) {
    for (int index{}; index < count; ++index) {
        const auto entt = registry.create();
        registry.emplace<position>(entt, static_cast<float>(index), 0.f);
        registry.emplace<velocity>(entt, 1.f, 1.f);
        registry.emplace<acceleration>(entt, 0.f, -1.f);
        registry.emplace<health>(entt, 100);
        registry.emplace<damage>(entt, index % 7);
        registry.emplace<armor>(entt, index % 3);
        registry.emplace<sprite>(entt, 1u);
        registry.emplace<animation>(entt, std::uint16_t{0}, std::uint16_t{8});
        registry.emplace<target>(entt, tessera::entity{tessera::null});
    }
}

void update(tessera::registry &registry, const float delta) {
    registry.group<position, velocity>().each([delta](position &pos, const velocity &vel) {
        pos.x += vel.dx * delta;
        pos.y += vel.dy * delta;
    });

    registry.view<velocity, const acceleration>(tessera::exclude<dead>)
        .each([delta](velocity &vel, const acceleration &acc) {
            vel.dx += acc.ax * delta;
            vel.dy += acc.ay * delta;
        });

    registry.view<health, const damage, const armor>(tessera::exclude<dead>)
        .each([&registry](const tessera::entity entt, health &hp, const damage &dmg, const armor &arm) {
            hp.value -= dmg.amount > arm.rating ? dmg.amount - arm.rating : 0;

            if (hp.value <= 0) {
                registry.emplace<dead>(entt);
            }
        });

    registry.view<animation, const sprite>(tessera::exclude<dead>).each([](animation &anim, const sprite &) {
        anim.frame = static_cast<std::uint16_t>((anim.frame + 1) % anim.count);
    });
}

} // namespace game

int main() {
    tessera::registry registry{};
    registry.on_construct<game::dead>().connect<&game::on_death>();
    game::spawn(registry, 1000);

    for (int frame{}; frame < 60; ++frame) {
        game::update(registry, 1.f / 60.f);
    }

    std::printf("%zu dead\n", registry.storage<game::dead>().size());
    return 0;
}
