// Example: saving a registry to the binary archive and loading it back, whole into an empty registry or
// continuously into a live one, and what a damaged archive does.
#include <tessera/tessera.hpp>

#include <cstddef>
#include <cstdio>
#include <vector>

namespace {

struct position {
    float x{}, y{};
};

struct health {
    int points{};
};

struct player {};

int failures{};

void check(const bool condition, const char *what) {
    std::printf("  [%s] %s\n", condition ? "ok" : "FAILED", what);
    failures += condition ? 0 : 1;
}

} // namespace

int main() {
    tessera::registry source;
    tessera::entity hero{};

    for (int i = 0; i < 5; ++i) {
        const auto entity = source.create();
        source.emplace<position>(entity, static_cast<float>(i), 1.f);
        source.emplace<health>(entity, 100 - i);
        if (i == 2) {
            hero = entity;
            source.emplace<player>(entity);
        }
    }
    // A released identifier: the snapshot keeps it, so the next create() of the copy recycles it too.
    source.destroy(source.create());

    std::puts("snapshots: save and load with the binary archive");
    const std::vector<std::byte> bytes = tessera::save<position, health, player>(source);
    std::printf("    %zu bytes\n", bytes.size());

    tessera::registry copy;
    tessera::load<position, health, player>(copy, bytes);
    check(copy.valid(hero) && copy.all_of<player>(hero), "the hero has the same identifier in the copy");
    check(copy.get<health>(hero).points == 98, "and the same health");
    check(copy.create() == source.create(), "both registries recycle the same identifier next");

    std::puts("snapshots: the same thing step by step, with the archive and the snapshot classes");
    std::vector<std::byte> manual{};
    {
        tessera::binary_output_archive out{manual};
        const tessera::snapshot snapshot{source};
        snapshot.get<tessera::entity>(out.section<tessera::entity>());
        snapshot.get<position>(out.section<position>());
        out.finish();
    }
    tessera::registry partial;
    {
        tessera::binary_input_archive in{manual};
        tessera::snapshot_loader loader{partial};
        loader.get<tessera::entity>(in.section<tessera::entity>());
        loader.get<position>(in.section<position>());
        check(!in.contains<health>(), "only the sections that were written are there");
    }
    check(partial.storage<position>().size() == 5u && !partial.storage<health>().contains(hero),
          "the partial copy has positions and no health");

    std::puts("snapshots: continuous loading into a live registry");
    tessera::registry client;
    const auto local = client.create(); // the client has entities of its own
    client.emplace<position>(local);

    tessera::continuous_loader loader{client};
    auto receive = [&loader](const std::vector<std::byte> &data) {
        tessera::binary_input_archive in{data};
        loader.get<tessera::entity>(in.section<tessera::entity>());
        loader.get<position>(in.section<position>());
        loader.get<health>(in.section<health>());
        loader.get<player>(in.section<player>());
        loader.orphans();
    };

    receive(bytes);
    const auto mapped = loader.map(hero);
    check(client.valid(mapped) && mapped != hero, "the hero got a local identifier");
    check(client.get<health>(mapped).points == 98, "with its health");

    // Next update from the server: the hero was hurt, another unit died.
    source.patch<health>(hero, [](health &hp) { hp.points = 50; });
    const auto victim = *source.view<health>(tessera::exclude<player>).begin();
    source.destroy(victim);
    receive(tessera::save<position, health, player>(source));
    check(client.get<health>(mapped).points == 50, "loading again replaced the component");
    check(!loader.contains(victim), "the destroyed unit is no longer mapped");
    check(client.storage<health>().size() == 4u, "four units remain on the client");
    check(client.valid(local) && client.all_of<position>(local), "the client's own entity is untouched");

    std::puts("snapshots: a damaged archive");
    std::vector<std::byte> damaged = bytes;
    damaged.resize(damaged.size() / 2u);
    try {
        tessera::registry target;
        tessera::load<position, health, player>(target, damaged);
        check(false, "a truncated archive was accepted");
    } catch (const tessera::archive_error &error) {
        std::printf("    archive_error: %s\n", error.what());
        check(error.code() == tessera::archive_errc::truncated, "the error says the data is truncated");
    }

    std::printf("snapshots: %s\n", failures == 0 ? "all checks passed" : "some checks FAILED");
    return failures == 0 ? 0 : 1;
}
