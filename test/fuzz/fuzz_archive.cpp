// libFuzzer target: arbitrary bytes given to binary_input_archive, snapshot_loader and continuous_loader. An
// archive_error is the expected way to refuse data; a crash, a sanitizer report or a failed assertion is a bug.
// Whatever is loaded, the registry must stay consistent and an accepted archive must round-trip.
#include "consistency.hpp"
#include "model/interpreter.hpp"
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

using namespace tessera_model;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, const std::size_t size) {
    const std::span<const std::byte> bytes{reinterpret_cast<const std::byte *>(data), size};

    tessera_fuzz::check_archive_input<tessera::archive_error>(
        bytes, [](auto &loader, const auto &input) { load_all(loader, input); },
        [](const registry &reg) {
            std::vector<std::byte> again;
            save_all(reg, again);
            return again;
        });
    return 0;
}
