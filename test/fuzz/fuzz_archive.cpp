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
using tessera_fuzz::check_consistent;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, const std::size_t size) {
    const std::span<const std::byte> bytes{reinterpret_cast<const std::byte *>(data), size};

    {
        registry reg;
        // the group sees every element the loader adds
        reg.group<trivial>(tessera::get<heavy>);
        bool loaded = false;

        try {
            tessera::snapshot_loader loader{reg};
            load_all(loader, bytes);
            loaded = true;
        } catch (const tessera::archive_error &) {
        }

        if (loaded) {
            // an accepted archive saves and loads again to the same identifiers
            std::vector<std::byte> again;
            save_all(reg, again);
            registry copy;
            tessera::snapshot_loader loader{copy};
            load_all(loader, again);
            tessera_fuzz::check_same_identifiers(reg, copy);
        }

        check_consistent(reg);
    }

    {
        registry reg;
        static_cast<void>(reg.create());
        tessera::continuous_loader loader{reg};

        // twice: the second load goes through the map the first one built
        for (int round = 0; round < 2; ++round) {
            try {
                load_all(loader, bytes);
            } catch (const tessera::archive_error &) {
            }
        }

        check_consistent(reg);
    }

    return 0;
}
