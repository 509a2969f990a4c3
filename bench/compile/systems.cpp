// A translation unit with 30 component types and twelve systems, for compile-time measurements
// (bench/compile/measure): views of one to four types with and without excludes, range-for loops over views and
// over each(), two owning groups and a non-owning one, get and try_get inside the loops, and a sort. It uses only
// the documented API, so the same file compiles against any library that implements it.
#include <tessera/tessera.hpp>

#include <cstdint>
#include <cstdio>

namespace systems {
struct position {
    float a, b, c;
};
struct velocity {
    float a, b, c;
};
struct acceleration {
    float a, b, c;
};
struct rotation {
    float a, b, c;
};
struct angular_velocity {
    float a, b, c;
};
struct scale {
    float a, b, c;
};
struct mass {
    float a, b, c;
};
struct inertia {
    float a, b, c;
};
struct collider {
    float a, b, c;
};
struct contact {
    float a, b, c;
};
struct health {
    float a, b, c;
};
struct damage {
    float a, b, c;
};
struct armor {
    float a, b, c;
};
struct shield {
    float a, b, c;
};
struct regeneration {
    float a, b, c;
};
struct poison {
    float a, b, c;
};
struct burning {
    float a, b, c;
};
struct frozen {
    float a, b, c;
};
struct stunned {
    float a, b, c;
};
struct speed {
    float a, b, c;
};
struct sprite {
    float a, b, c;
};
struct animation {
    float a, b, c;
};
struct tint {
    float a, b, c;
};
struct layer {
    float a, b, c;
};
struct visibility {
    float a, b, c;
};
struct sound {
    float a, b, c;
};
struct ai_state {
    float a, b, c;
};
struct target {
    float a, b, c;
};
struct path {
    float a, b, c;
};
struct cooldown {
    float a, b, c;
};
struct dead {};

void spawn(tessera::registry &registry, const int count) {
    for (int index{}; index < count; ++index) {
        const auto entt = registry.create();
        const auto value = static_cast<float>(index);
        if (index % 1 == 0) {
            registry.emplace<position>(entt, value, 1.f, 2.f);
        }
        if (index % 2 == 0) {
            registry.emplace<velocity>(entt, value, 1.f, 2.f);
        }
        if (index % 3 == 0) {
            registry.emplace<acceleration>(entt, value, 1.f, 2.f);
        }
        if (index % 4 == 0) {
            registry.emplace<rotation>(entt, value, 1.f, 2.f);
        }
        if (index % 5 == 0) {
            registry.emplace<angular_velocity>(entt, value, 1.f, 2.f);
        }
        if (index % 1 == 0) {
            registry.emplace<scale>(entt, value, 1.f, 2.f);
        }
        if (index % 2 == 0) {
            registry.emplace<mass>(entt, value, 1.f, 2.f);
        }
        if (index % 3 == 0) {
            registry.emplace<inertia>(entt, value, 1.f, 2.f);
        }
        if (index % 4 == 0) {
            registry.emplace<collider>(entt, value, 1.f, 2.f);
        }
        if (index % 5 == 0) {
            registry.emplace<contact>(entt, value, 1.f, 2.f);
        }
        if (index % 1 == 0) {
            registry.emplace<health>(entt, value, 1.f, 2.f);
        }
        if (index % 2 == 0) {
            registry.emplace<damage>(entt, value, 1.f, 2.f);
        }
        if (index % 3 == 0) {
            registry.emplace<armor>(entt, value, 1.f, 2.f);
        }
        if (index % 4 == 0) {
            registry.emplace<shield>(entt, value, 1.f, 2.f);
        }
        if (index % 5 == 0) {
            registry.emplace<regeneration>(entt, value, 1.f, 2.f);
        }
        if (index % 1 == 0) {
            registry.emplace<poison>(entt, value, 1.f, 2.f);
        }
        if (index % 2 == 0) {
            registry.emplace<burning>(entt, value, 1.f, 2.f);
        }
        if (index % 3 == 0) {
            registry.emplace<frozen>(entt, value, 1.f, 2.f);
        }
        if (index % 4 == 0) {
            registry.emplace<stunned>(entt, value, 1.f, 2.f);
        }
        if (index % 5 == 0) {
            registry.emplace<speed>(entt, value, 1.f, 2.f);
        }
        if (index % 1 == 0) {
            registry.emplace<sprite>(entt, value, 1.f, 2.f);
        }
        if (index % 2 == 0) {
            registry.emplace<animation>(entt, value, 1.f, 2.f);
        }
        if (index % 3 == 0) {
            registry.emplace<tint>(entt, value, 1.f, 2.f);
        }
        if (index % 4 == 0) {
            registry.emplace<layer>(entt, value, 1.f, 2.f);
        }
        if (index % 5 == 0) {
            registry.emplace<visibility>(entt, value, 1.f, 2.f);
        }
        if (index % 1 == 0) {
            registry.emplace<sound>(entt, value, 1.f, 2.f);
        }
        if (index % 2 == 0) {
            registry.emplace<ai_state>(entt, value, 1.f, 2.f);
        }
        if (index % 3 == 0) {
            registry.emplace<target>(entt, value, 1.f, 2.f);
        }
        if (index % 4 == 0) {
            registry.emplace<path>(entt, value, 1.f, 2.f);
        }
        if (index % 5 == 0) {
            registry.emplace<cooldown>(entt, value, 1.f, 2.f);
        }
    }
}

void integrate(tessera::registry &registry, const float delta) {
    registry.group<position, velocity>(tessera::get<const acceleration>)
        .each([delta](position &pos, velocity &vel, const acceleration &acc) {
            vel.a += acc.a * delta;
            pos.a += vel.a * delta;
        });
}

void spin(tessera::registry &registry, const float delta) {
    for (auto [entt, rot, ang] : registry.view<rotation, const angular_velocity>().each()) {
        rot.a += ang.a * delta;
    }
}

void resize(tessera::registry &registry) {
    auto view = registry.view<scale, const mass, const inertia>(tessera::exclude<frozen>);
    for (const auto entt : view) {
        auto [size, weight, spin] = view.get<scale, const mass, const inertia>(entt);
        size.a = weight.a * spin.b;
    }
}

void collide(tessera::registry &registry) {
    registry.view<const position, collider>().each(
        [&registry](const tessera::entity entt, const position &pos, collider &shape) {
            shape.a = pos.a;
            if (auto *touch = registry.try_get<contact>(entt); touch != nullptr) {
                touch->b += shape.a;
            }
        });
}

void hurt(tessera::registry &registry) {
    registry.group<health, damage>().each([](health &hp, const damage &dmg) { hp.a -= dmg.a; });
    registry.view<health, const armor, const shield>(tessera::exclude<dead>)
        .each([](health &hp, const armor &arm, const shield &shd) { hp.a += arm.a * 0.1f + shd.b; });
}

void heal(tessera::registry &registry, const float delta) {
    for (auto [entt, hp, regen] : registry.view<health, const regeneration>(tessera::exclude<poison>).each()) {
        hp.a += regen.a * delta;
    }
}

void statuses(tessera::registry &registry, const float delta) {
    registry.view<health, const poison>().each([delta](health &hp, const poison &p) { hp.a -= p.a * delta; });
    registry.view<health, const burning>(tessera::exclude<frozen>).each([delta](health &hp, const burning &b) {
        hp.a -= b.a * delta;
    });
    registry.view<speed, const frozen>().each([](speed &spd, const frozen &) { spd.a = 0.f; });
    registry.view<cooldown>(tessera::exclude<stunned>).each([delta](cooldown &cd) { cd.a -= delta; });
}

void reap(tessera::registry &registry) {
    for (auto [entt, hp] : registry.view<const health>(tessera::exclude<dead>).each()) {
        if (hp.a <= 0.f) {
            registry.emplace<dead>(entt);
        }
    }
}

void animate(tessera::registry &registry) {
    registry.group<>(tessera::get<animation, const sprite>, tessera::exclude<dead>)
        .each([](animation &anim, const sprite &spr) { anim.a += spr.b; });
    registry.view<tint, const visibility, const layer>().each(
        [](tint &color, const visibility &seen, const layer &depth) { color.a = seen.a * depth.c; });
}

void listen(tessera::registry &registry) {
    registry.view<sound, const position>(tessera::exclude<dead, stunned>).each([](sound &noise, const position &pos) {
        noise.a = pos.a;
    });
}

void think(tessera::registry &registry) {
    auto view = registry.view<ai_state, const target, path, const speed>(tessera::exclude<stunned, frozen>);
    view.each([&registry](ai_state &state, const target &goal, path &route, const speed &spd) {
        state.a = goal.a + route.b * spd.c;
        route.c = static_cast<float>(registry.storage<dead>().size());
    });
}

void order(tessera::registry &registry) {
    registry.sort<layer>([](const layer &lhs, const layer &rhs) { return lhs.a < rhs.a; });
    registry.sort<tint, layer>();
}

} // namespace systems

int main() {
    tessera::registry registry{};
    systems::spawn(registry, 1000);

    for (int frame{}; frame < 60; ++frame) {
        const float delta = 1.f / 60.f;
        systems::integrate(registry, delta);
        systems::spin(registry, delta);
        systems::resize(registry);
        systems::collide(registry);
        systems::hurt(registry);
        systems::heal(registry, delta);
        systems::statuses(registry, delta);
        systems::reap(registry);
        systems::animate(registry);
        systems::listen(registry);
        systems::think(registry);
        systems::order(registry);
    }

    std::printf("%zu dead\n", registry.storage<systems::dead>().size());
    return 0;
}
