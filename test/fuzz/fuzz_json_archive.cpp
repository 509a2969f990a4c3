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
namespace json = tessera::archive::json;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, const std::size_t size) {
    json::document document{};

    try {
        document = json::parse(std::string_view{reinterpret_cast<const char *>(data), size});
    } catch (const json::error &) {
        return 0;
    }

    tessera_fuzz::check_archive_input<json::error>(
        document, [](auto &loader, const json::document &input) { load_json_all(loader, input); },
        [](const registry &reg) { return save_json_all(reg); });
    return 0;
}
