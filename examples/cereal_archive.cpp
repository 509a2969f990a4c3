// Example: snapshots through cereal archives (through the optional target tessera::cereal), for components that
// already have cereal serialize functions: a binary round trip, the readable JSON form, and a truncated archive.
#include <tessera/archive/cereal.hpp>
#include <tessera/entity/registry.hpp>

#include <cereal/archives/binary.hpp>
#include <cereal/archives/json.hpp>

#include <cstdio>
#include <sstream>
#include <string>

// components at namespace scope: snapshot keys and reports name them as the compiler spells them, and an
// unnamed namespace would add '{anonymous}::' (or '(anonymous namespace)::', depending on the compiler)
struct position {
    float x{}, y{};

    template<typename Archive>
    void serialize(Archive &archive) {
        archive(CEREAL_NVP(x), CEREAL_NVP(y));
    }
};

struct player {};

namespace {

int failures{};

void check(const bool condition, const char *what) {
    std::printf("  [%s] %s\n", condition ? "ok" : "FAILED", what);
    failures += condition ? 0 : 1;
}

template<typename Archive>
void save(const tessera::registry &registry, Archive &out) {
    tessera::archive::cereal_adapter::output_archive archive{out};
    tessera::snapshot{registry}
        .get<tessera::entity>(archive.template section<tessera::entity>())
        .template get<position>(archive.template section<position>())
        .template get<player>(archive.template section<player>());
}

template<typename Archive>
void load(tessera::registry &registry, Archive &in) {
    tessera::archive::cereal_adapter::input_archive archive{in};
    tessera::snapshot_loader{registry}
        .get<tessera::entity>(archive.template section<tessera::entity>())
        .template get<position>(archive.template section<position>())
        .template get<player>(archive.template section<player>());
}

} // namespace

int main() {
    tessera::registry source;
    const auto hero = source.create();
    source.emplace<position>(hero, 1.f, 2.f);
    source.emplace<player>(hero);
    source.emplace<position>(source.create(), 3.f, 4.f);

    std::puts("cereal archive: binary round trip");
    std::stringstream bytes;
    {
        cereal::BinaryOutputArchive out{bytes};
        save(source, out);
    }
    const std::string data = bytes.str();
    std::printf("    %zu bytes\n", data.size());
    tessera::registry copy;
    {
        cereal::BinaryInputArchive in{bytes};
        load(copy, in);
    }
    check(copy.all_of<player>(hero) && copy.get<position>(hero).x == 1.f, "the hero is back");

    std::puts("cereal archive: the JSON archive names the pools");
    std::stringstream text;
    {
        // cereal's JSON archive closes its document when it is destroyed
        cereal::JSONOutputArchive out{text};
        save(source, out);
    }
    std::puts(text.str().c_str());

    std::puts("cereal archive: a truncated archive");
    std::stringstream truncated{data.substr(0u, data.size() / 2u)};
    tessera::registry other;

    try {
        cereal::BinaryInputArchive in{truncated};
        load(other, in);
        check(false, "the load fails");
    } catch (const tessera::archive::cereal_adapter::error &failure) {
        std::printf("    %s\n", failure.what());
        check(true, "cereal's failure comes back as cereal_adapter::error, with the pool it was reading");
    }

    std::puts(failures == 0 ? "cereal archive: all checks passed" : "cereal archive: some checks FAILED");
    return failures == 0 ? 0 : 1;
}
