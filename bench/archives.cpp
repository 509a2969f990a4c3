// Round trips of a snapshot of 10^5 entities (position and velocity on every one, a tag on one in ten) through the
// built-in binary archive and the optional adapters: nlohmann-json (as a document, and as text), cereal's binary,
// portable binary and JSON archives. Prints, per format, the size and the fastest save and load of interleaved
// rounds, and their ratios to the binary archive. Built with the benchmarks when both adapters exist:
//   build/bench/bench/tessera_archives [--entities N] [--rounds R]
#include <tessera/archive/binary.hpp>
#include <tessera/archive/cereal.hpp>
#include <tessera/archive/json.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/snapshot.hpp>

#include <cereal/archives/binary.hpp>
#include <cereal/archives/json.hpp>
#include <cereal/archives/portable_binary.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

struct position {
    float x{}, y{};

    template<typename Archive>
    void serialize(Archive &archive) {
        archive(CEREAL_NVP(x), CEREAL_NVP(y));
    }
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(position, x, y)

struct velocity {
    float dx{}, dy{};

    template<typename Archive>
    void serialize(Archive &archive) {
        archive(CEREAL_NVP(dx), CEREAL_NVP(dy));
    }
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(velocity, dx, dy)

struct tag {};

namespace {

namespace json = tessera::archive::json;
namespace adapter = tessera::archive::cereal_adapter;

/// One way of saving a registry to bytes and loading the bytes into an empty registry.
struct format {
    const char *name;
    std::function<std::string(const tessera::registry &)> save;
    std::function<void(tessera::registry &, const std::string &)> load;
    double best_save{std::numeric_limits<double>::max()};
    double best_load{std::numeric_limits<double>::max()};
    std::size_t size{};
};

template<typename Archive>
void save_with(const tessera::registry &registry, Archive &out) {
    adapter::output_archive archive{out};
    tessera::snapshot{registry}
        .get<tessera::entity>(archive.template section<tessera::entity>())
        .template get<position>(archive.template section<position>())
        .template get<velocity>(archive.template section<velocity>())
        .template get<tag>(archive.template section<tag>());
}

template<typename Archive>
void load_with(tessera::registry &registry, Archive &in) {
    adapter::input_archive archive{in};
    tessera::snapshot_loader{registry}
        .get<tessera::entity>(archive.template section<tessera::entity>())
        .template get<position>(archive.template section<position>())
        .template get<velocity>(archive.template section<velocity>())
        .template get<tag>(archive.template section<tag>());
}

template<typename Output, typename Input>
format cereal_format(const char *name) {
    return {name,
            [](const tessera::registry &registry) {
                std::ostringstream stream{};
                {
                    Output out{stream};
                    save_with(registry, out);
                }
                return stream.str();
            },
            [](tessera::registry &registry, const std::string &bytes) {
                std::istringstream stream{bytes};
                Input in{stream};
                load_with(registry, in);
            }};
}

double seconds_of(const std::function<void()> &work) {
    const auto start = std::chrono::steady_clock::now();
    work();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main(int argc, char **argv) {
    std::size_t entities = 100000u;
    int rounds = 7;

    for (int pos = 1; pos + 1 < argc; pos += 2) {
        if (std::strcmp(argv[pos], "--entities") == 0) {
            entities = std::strtoull(argv[pos + 1], nullptr, 10);
        } else if (std::strcmp(argv[pos], "--rounds") == 0) {
            rounds = std::atoi(argv[pos + 1]);
        }
    }

    tessera::registry source{};

    for (std::size_t count{}; count < entities; ++count) {
        const auto entt = source.create();
        source.emplace<position>(entt, static_cast<float>(count), 0.5f);
        source.emplace<velocity>(entt, 1.f, static_cast<float>(count % 7u));

        if (count % 10u == 0u) {
            source.emplace<tag>(entt);
        }
    }

    std::vector<format> formats{};
    formats.push_back({"binary (built-in)",
                       [](const tessera::registry &registry) {
                           const auto bytes = tessera::save<position, velocity, tag>(registry);
                           return std::string{reinterpret_cast<const char *>(bytes.data()), bytes.size()};
                       },
                       [](tessera::registry &registry, const std::string &bytes) {
                           tessera::load<position, velocity, tag>(
                               registry, std::span{reinterpret_cast<const std::byte *>(bytes.data()), bytes.size()});
                       }});
    formats.push_back(
        {"json (text)",
         [](const tessera::registry &registry) { return json::save<position, velocity, tag>(registry).dump(); },
         [](tessera::registry &registry, const std::string &bytes) {
             json::load<position, velocity, tag>(registry, json::parse(bytes));
         }});
    formats.push_back(cereal_format<cereal::BinaryOutputArchive, cereal::BinaryInputArchive>("cereal binary"));
    formats.push_back(cereal_format<cereal::PortableBinaryOutputArchive, cereal::PortableBinaryInputArchive>(
        "cereal portable binary"));
    formats.push_back(cereal_format<cereal::JSONOutputArchive, cereal::JSONInputArchive>("cereal json"));

    // rounds interleave the formats, so that a busy moment of the machine hits them all alike; the fastest counts
    for (int round = 0; round < rounds; ++round) {
        for (auto &elem : formats) {
            std::string bytes{};
            elem.best_save = std::min(elem.best_save, seconds_of([&] { bytes = elem.save(source); }));
            elem.size = bytes.size();
            tessera::registry target{};
            elem.best_load = std::min(elem.best_load, seconds_of([&] { elem.load(target, bytes); }));

            if (target.storage<position>().size() != entities ||
                target.storage<tag>().size() != (entities + 9u) / 10u) {
                std::fprintf(stderr, "%s: the round trip lost data\n", elem.name);
                return 1;
            }
        }
    }

    const auto &base = formats.front();
    std::printf("%zu entities, %d rounds, fastest of each\n", entities, rounds);
    std::printf("%-24s %12s %8s %10s %8s %10s %8s\n", "format", "bytes", "x size", "save ms", "x save", "load ms",
                "x load");

    for (const auto &elem : formats) {
        std::printf("%-24s %12zu %8.2f %10.2f %8.2f %10.2f %8.2f\n", elem.name, elem.size,
                    static_cast<double>(elem.size) / static_cast<double>(base.size), elem.best_save * 1e3,
                    elem.best_save / base.best_save, elem.best_load * 1e3, elem.best_load / base.best_load);
    }

    return 0;
}
