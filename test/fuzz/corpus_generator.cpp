// Writes the seed corpora of the fuzz targets: valid archives saved from model interpreter runs (binary, and JSON
// where the tessera::json target exists), byte strings for the interpreter, and replication messages (a first byte
// that says whether the fuzzer reseals them and gives the mirror the seed state, then the message). Run by hand
// (corpus_generator <test/fuzz/corpus>); its output is committed.
#include "model/interpreter.hpp"
#include "replication_seed.hpp"
#ifdef TESSERA_FUZZ_JSON
#    include "json_model.hpp"
#endif
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: corpus_generator <corpus directory>\n");
        return 2;
    }

    const std::string root = argv[1];

    for (std::uint64_t seed = 1u; seed <= 6u; ++seed) {
        tessera_model::chooser source{seed};
        tessera_model::interpreter machine{source};
        // short runs keep the archives small: libFuzzer mutates small inputs faster
        machine.run(static_cast<std::size_t>(seed * 15u));
        const auto bytes = machine.snapshot_bytes();
        std::ofstream out{root + "/fuzz_archive/seed_" + std::to_string(seed) + ".bin", std::ios::binary};
        out.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
#ifdef TESSERA_FUZZ_JSON
        // the same registry as a JSON document, compact: libFuzzer mutates small inputs faster
        tessera_model::registry copy{};
        tessera::snapshot_loader loader{copy};
        tessera_model::load_all(loader, bytes);
        std::ofstream text{root + "/fuzz_json_archive/seed_" + std::to_string(seed) + ".json"};
        text << tessera_model::save_json_all(copy).dump();
#endif
    }

    for (std::uint64_t seed = 1u; seed <= 6u; ++seed) {
        std::vector<char> bytes(static_cast<std::size_t>(32u << seed));
        tessera_model::chooser source{seed * 7919u};

        for (auto &byte : bytes) {
            byte = static_cast<char>(source.pick(256u));
        }

        std::ofstream out{root + "/fuzz_registry/seed_" + std::to_string(seed) + ".bin", std::ios::binary};
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }

    {
        // the whole state for an empty mirror; deltas for a mirror that holds it, as sent and resealed
        tessera_fuzz::replication_seed world{};
        const auto write = [&root](const std::string &name, const char first, const std::byte *data, std::size_t size) {
            std::ofstream out{root + "/fuzz_replication/" + name, std::ios::binary};
            out.put(first);
            out.write(reinterpret_cast<const char *>(data), static_cast<std::streamsize>(size));
        };
        write("whole", 0, world.whole.data(), world.whole.size());
        const auto deltas = world.deltas();

        for (std::size_t index{}; index < deltas.size(); ++index) {
            write("delta_" + std::to_string(index + 1u), 2, deltas[index].data(), deltas[index].size());
            write("delta_" + std::to_string(index + 1u) + "_resealed", 3, deltas[index].data(), deltas[index].size());
        }
    }

    return 0;
}
