// libFuzzer target: arbitrary text parsed as JSON and given to the JSON archive (archive/json.hpp), snapshot_loader
// and continuous_loader. A json::error is the expected way to refuse data; a crash, a sanitizer report, a failed
// assertion or an exception of another type is a bug. Whatever is loaded, the registry must stay consistent and an
// accepted document must round-trip.
#include "consistency.hpp"
#include "json_model.hpp"
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace tessera_model;
using tessera_fuzz::check_consistent;
namespace json = tessera::archive::json;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, const std::size_t size) {
    json::document document{};

    try {
        document = json::parse(std::string_view{reinterpret_cast<const char *>(data), size});
    } catch (const json::error &) {
        return 0;
    }

    {
        registry reg;
        // the group sees every element the loader adds
        reg.group<trivial>(tessera::get<heavy>);
        bool loaded = false;

        try {
            tessera::snapshot_loader loader{reg};
            load_json_all(loader, document);
            loaded = true;
        } catch (const json::error &) {
        }

        if (loaded) {
            // an accepted document saves and loads again to the same identifiers
            const auto again = save_json_all(reg);
            registry copy;
            tessera::snapshot_loader loader{copy};
            load_json_all(loader, again);
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
                load_json_all(loader, document);
            } catch (const json::error &) {
            }
        }

        check_consistent(reg);
    }

    return 0;
}
