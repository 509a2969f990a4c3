// Example: change detection sends a network delta. The server's transform is tracked (track_changes), so each
// frame only the transforms added or changed since the last frame sent go over the "wire" to the client.
#include <tessera/tessera.hpp>

#include <cstdio>
#include <vector>

namespace {

struct transform {
    // opt in: the pool keeps, per element, the tick it was added and the tick it last changed
    static constexpr bool track_changes = true;
    float x{}, y{};
};

struct velocity {
    float dx{}, dy{};
};

// What a frame's delta carries per entity.
struct update {
    tessera::entity entt;
    transform value;
};

int failures{};

void check(const bool condition, const char *what) {
    std::printf("  [%s] %s\n", condition ? "ok" : "FAILED", what);
    failures += condition ? 0 : 1;
}

// The transforms added or changed since `since`: the change filter visits those, not the whole pool.
std::vector<update> delta(tessera::registry &server, const tessera::tick_type since) {
    std::vector<update> out;
    tessera::each_changed<transform>(server.view<transform>(), since,
                                     [&out](const tessera::entity entt, const transform &value) {
                                         out.push_back({entt, value});
                                     });
    return out;
}

// The movers among what changed, two ways: a group over transform and velocity, and a runtime view (storages
// chosen at run time, as a debugger or a script would) filtered with the tracked storage it is given.
std::size_t changed_movers(tessera::registry &server, const tessera::tick_type since) {
    std::size_t in_group{};
    tessera::each_changed<transform>(server.group(tessera::get<transform, velocity>), since,
                                     [&in_group](const transform &, const velocity &) { ++in_group; });

    tessera::runtime_view movers{};
    movers.iterate(server.storage<velocity>());
    std::size_t in_runtime_view{};
    tessera::each_changed(movers, server.storage<transform>(), since,
                          [&in_runtime_view](const tessera::entity) { ++in_runtime_view; });
    return in_group == in_runtime_view ? in_group : 0u;
}

// The client applies a delta: the same identifiers, as a snapshot loader would keep them.
void apply_delta(tessera::registry &client, const std::vector<update> &updates) {
    for (const auto &[entt, value] : updates) {
        const auto local = client.valid(entt) ? entt : client.create(entt);
        client.emplace_or_replace<transform>(local, value);
    }
}

bool in_sync(tessera::registry &server, tessera::registry &client) {
    bool same = true;

    for (auto [entt, value] : server.view<transform>().each()) {
        const auto *mirror = client.valid(entt) ? client.try_get<transform>(entt) : nullptr;
        same = same && mirror != nullptr && mirror->x == value.x && mirror->y == value.y;
    }

    return same;
}

} // namespace

int main() {
    tessera::registry server;
    tessera::registry client;

    // 100 entities; every tenth one moves
    for (int idx{}; idx < 100; ++idx) {
        const auto entt = server.create();
        server.emplace<transform>(entt, static_cast<float>(idx), 0.f);

        if (idx % 10 == 0) {
            server.emplace<velocity>(entt, 1.f, 0.5f);
        }
    }

    // frame 0: everything is new, so the whole state goes out (tick 0 is before every stamp of a new registry)
    tessera::tick_type sent = 0u;
    auto updates = delta(server, sent);
    apply_delta(client, updates);
    sent = server.tick();
    check(updates.size() == 100u, "the first delta carries every transform");
    check(in_sync(server, client), "the client mirrors the server");

    for (int frame = 1; frame <= 3; ++frame) {
        server.advance_tick();

        // the movement system writes through patch, which stamps the change
        server.view<transform, velocity>().each([&server](const tessera::entity entt, transform &, velocity &vel) {
            server.patch<transform>(entt, [&vel](transform &value) {
                value.x += vel.dx;
                value.y += vel.dy;
            });
        });

        // a write through get is stamped by hand with modified (it also fires on_update)
        const auto teleported = server.view<transform>().front();
        server.get<transform>(teleported).y = -100.f;
        server.modified<transform>(teleported);

        updates = delta(server, sent);
        apply_delta(client, updates);
        check(changed_movers(server, sent) == 10u, "ten of them are movers, found by a group and a runtime view");
        sent = server.tick();
        std::printf("frame %d: %zu of %zu transforms sent\n", frame, updates.size(),
                    server.storage<transform>().size());
        check(updates.size() == 11u, "only the ten movers and the teleported entity went out");
        check(in_sync(server, client), "the client mirrors the server");
    }

    // a frame where nothing changes sends nothing
    server.advance_tick();
    check(delta(server, sent).empty(), "an idle frame sends an empty delta");

    std::printf("change detection: %s\n", failures == 0 ? "all checks passed" : "some checks FAILED");
    return failures == 0 ? 0 : 1;
}
