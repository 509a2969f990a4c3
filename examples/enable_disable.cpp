// Example: switching components and whole entities off without removing them. Sleeping bodies skip the physics
// system, a paused AI keeps its plan, a hidden entity leaves every view and group, and listeners hear the
// on_disable and on_enable signals.
#include <tessera/tessera.hpp>

#include <cstdio>
#include <vector>

namespace {

struct body {
    float y{}, vy{};
};

struct brain {
    int plan{};
};

int failures{};

void check(const bool condition, const char *what) {
    std::printf("  [%s] %s\n", condition ? "ok" : "FAILED", what);
    failures += condition ? 0 : 1;
}

struct sleep_log {
    int fell_asleep{};
    int woke_up{};

    void on_disable(tessera::registry &, const tessera::entity) { ++fell_asleep; }
    void on_enable(tessera::registry &, const tessera::entity) { ++woke_up; }
};

// one step of physics over the enabled bodies only; returns how many it moved
int step(tessera::registry &registry) {
    int moved{};

    registry.view<body>().each([&moved](body &elem) {
        elem.vy -= 1.0f;
        elem.y += elem.vy;
        ++moved;
    });

    return moved;
}

} // namespace

int main() {
    tessera::registry registry;
    sleep_log log{};
    registry.storage<body>().on_disable().connect<&sleep_log::on_disable>(log);
    registry.storage<body>().on_enable().connect<&sleep_log::on_enable>(log);
    auto group = registry.group<>(tessera::get<body, brain>);

    std::vector<tessera::entity> bodies(10u);
    registry.create(bodies.begin(), bodies.end());

    for (int i = 0; i < 10; ++i) {
        registry.emplace<body>(bodies[static_cast<std::size_t>(i)], 100.0f);
        registry.emplace<brain>(bodies[static_cast<std::size_t>(i)], i);
    }

    std::printf("sleeping bodies:\n");

    // half of the bodies come to rest: physics no longer visits them
    for (std::size_t i = 0; i < bodies.size(); i += 2u) {
        registry.disable<body>(bodies[i]);
    }

    check(step(registry) == 5, "physics moves the 5 awake bodies only");
    check(registry.get<body>(bodies[0]).y == 100.0f, "a sleeping body keeps its value and is not moved");
    check(registry.all_of<body>(bodies[0]) && !registry.enabled<body>(bodies[0]),
          "a sleeping body is still there, disabled");
    check(group.size() == 5u, "the group of body and brain holds the awake ones");
    check(log.fell_asleep == 5, "on_disable fired once per body put to sleep");

    registry.enable<body>(bodies[0]);
    check(step(registry) == 6, "a body woken up moves again");
    check(log.woke_up == 1, "on_enable fired once");

    // the disabled ones are the first disabled_size() elements of the storage in its iteration order
    // (the identifiers, through the sparse set the storage derives from)
    const tessera::sparse_set &pool = registry.storage<body>();
    int asleep{};
    for (auto it = pool.begin(), last = pool.begin() + static_cast<std::ptrdiff_t>(pool.disabled_size()); it != last;
         ++it) {
        asleep += registry.enabled<body>(*it) ? 0 : 1;
    }
    check(asleep == 4, "the storage lists the 4 sleeping bodies first");

    std::printf("hidden entities:\n");
    const auto hidden = bodies[1];
    registry.disable(hidden);
    check(!registry.view<brain>().contains(hidden), "a disabled entity leaves every view");
    check(!group.contains(hidden), "and every group");
    registry.emplace_or_replace<float>(hidden, 2.0f);
    check(!registry.enabled<float>(hidden), "a component it gets meanwhile starts disabled");
    registry.enable(hidden);
    check(registry.view<body, brain, float>().contains(hidden), "enabled again, it is back with all its components");
    check(registry.get<brain>(hidden).plan == 1, "its brain kept its plan");

    std::printf("command buffers:\n");
    tessera::command_buffer buffer{};
    buffer.disable<brain>(bodies[3]);
    buffer.apply(registry);
    check(!registry.enabled<brain>(bodies[3]), "disable recorded in a command buffer applies later");

    std::printf(failures == 0 ? "all checks passed\n" : "%d check(s) failed\n", failures);
    return failures == 0 ? 0 : 1;
}
