// libFuzzer target: arbitrary bytes given to binary_input_archive, snapshot_loader and continuous_loader. An
// archive_error is the expected way to refuse data; a crash, a sanitizer report or a failed assertion is a bug.
// Whatever is loaded, the registry must stay consistent and an accepted archive must round-trip.
#include "model/interpreter.hpp"
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

namespace {

using namespace tessera_model;

// Every component of every pool belongs to an entity in use; iteration and destruction work.
void check_consistent(registry &reg) {
    for (auto [id, pool] : reg.storage()) {
        for (const auto entt : pool) {
            if (entt != tessera::tombstone && !reg.valid(entt)) {
                std::abort();
            }
        }
    }

    // the owning group and a view over the same types agree
    std::size_t count{};

    for (auto [entt, lhs, rhs] : reg.view<trivial, heavy>().each()) {
        count += (lhs.value == reg.get<trivial>(entt).value && rhs.text == reg.get<heavy>(entt).text) ? 1u : 0u;
    }

    if (count != reg.group<trivial>(tessera::get<heavy>).size()) {
        std::abort();
    }

    reg.clear();

    if (reg.storage<entity>().free_list() != 0u) {
        std::abort();
    }
}

} // namespace

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

            for (const auto entt : reg.storage<entity>()) {
                if (copy.current(entt) != reg.current(entt) || copy.valid(entt) != reg.valid(entt)) {
                    std::abort();
                }
            }
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
