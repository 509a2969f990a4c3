// Example: a command buffer records structural changes during iteration (and from several threads), then applies
// them in recorded order; provisional identifiers from create() work in later commands and inside values.
#include <tessera/tessera.hpp>

#include <array>
#include <cstdio>
#include <thread>
#include <tuple>
#include <vector>

namespace {

struct health {
    int points{};
};

struct burning {
    int damage{};
};

/// Points at the entity that set this one on fire; listed, so that provisional identifiers are mapped.
struct ignited_by {
    tessera::entity source{};
    static constexpr auto entity_members = std::tuple{&ignited_by::source};
};

int failures{};

void check(const bool condition, const char *what) {
    std::printf("  [%s] %s\n", condition ? "ok" : "FAILED", what);
    failures += condition ? 0 : 1;
}

} // namespace

int main() {
    tessera::registry registry;
    std::vector<tessera::entity> entities(8u);
    registry.create(entities.begin(), entities.end());

    for (std::size_t pos{}; pos < entities.size(); ++pos) {
        registry.emplace<health>(entities[pos], static_cast<int>(pos));
    }

    registry.emplace<burning>(entities[1], 5);
    registry.emplace<burning>(entities[6], 5);

    std::puts("command buffer: record while iterating, apply afterwards");
    tessera::command_buffer commands;

    // inside the loop any change may be recorded, to any entity: nothing happens to the registry yet
    registry.view<health, const burning>().each([&](const tessera::entity entity, health &hp, const burning &fire) {
        hp.points -= fire.damage;

        if (hp.points <= 0) {
            commands.destroy(entity);
            // the fire spreads to a new entity, which remembers where it came from
            const auto ember = commands.create();
            commands.emplace<burning>(ember, 1);
            commands.emplace<health>(ember, 3);
            commands.emplace<ignited_by>(ember, entity);
        } else {
            commands.remove<burning>(entity);
        }
    });

    check(registry.valid(entities[1]) && commands.size() == 6u, "six commands recorded, nothing applied yet");
    const auto skipped = commands.apply(registry);
    check(skipped == 0u && commands.empty(), "apply ran every command and left the buffer empty");
    check(!registry.valid(entities[1]), "the entity burnt to nothing was destroyed");
    check(!registry.all_of<burning>(entities[6]), "the survivor stopped burning");

    int embers{};

    for (auto [entity, from] : registry.view<const ignited_by>().each()) {
        ++embers;
        // the value keeps the identifier of the destroyed entity (real when recorded, invalid now)
        check(from.source == entities[1] && registry.all_of<burning, health>(entity), "an ember was created");
    }

    check(embers == 1, "exactly one ember");

    std::puts("provisional identifiers inside values");
    const auto parent = commands.create();
    const auto child = commands.create();
    commands.emplace<ignited_by>(child, parent);
    commands.apply(registry);
    check(registry.get<ignited_by>(commands.resolve(child)).source == commands.resolve(parent),
          "the child points at the parent's real identifier");

    std::puts("rules at apply: commands on invalid entities are skipped");
    const auto doomed = entities[2];
    commands.emplace<burning>(doomed, 1);
    commands.destroy(doomed);
    commands.emplace<burning>(doomed, 2);
    check(commands.apply(registry) == 1u, "the emplace after the destroy was skipped, and counted");

    std::puts("threads: each records into its own buffer while the view is read");
    std::array<tessera::command_buffer, 2u> buffers{};
    {
        const tessera::registry &reader = registry;
        std::vector<std::thread> workers{};

        for (std::size_t part{}; part < buffers.size(); ++part) {
            workers.emplace_back([&reader, &buffer = buffers[part], part] {
                reader.view<const health>().each([&buffer, part](const tessera::entity entity, const health &hp) {
                    if (static_cast<std::size_t>(hp.points) % 2u == part) {
                        buffer.patch<health>(entity, [](health &value) { value.points += 10; });
                    }
                });
            });
        }

        for (auto &&worker : workers) {
            worker.join();
        }
    }

    for (auto &&buffer : buffers) {
        buffer.apply(registry);
    }

    bool all_healed = true;
    registry.view<const health>().each([&all_healed](const health &hp) { all_healed = all_healed && hp.points >= 10; });
    check(all_healed, "every entity was healed once, by one of the two buffers");

    std::printf("command buffer: %s\n", failures == 0 ? "all checks passed" : "some checks FAILED");
    return failures == 0 ? 0 : 1;
}
