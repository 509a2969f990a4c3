// The model test's components (model/interpreter.hpp) in JSON (their numbers read with json::number, which checks
// ranges that nlohmann-json's own conversions do not), and the JSON counterparts of its save_all/load_all:
// what the JSON fuzz target loads and what its seed corpus is written with.
#ifndef TESSERA_TEST_FUZZ_JSON_MODEL_HPP
#define TESSERA_TEST_FUZZ_JSON_MODEL_HPP

#include "model/interpreter.hpp"
#include <nlohmann/json.hpp>
#include <tessera/archive/json.hpp>

namespace tessera_model {

inline void to_json(nlohmann::json &out, const trivial &elem) { out = elem.value; }

inline void from_json(const nlohmann::json &in, trivial &elem) { elem.value = tessera::archive::json::number<int>(in); }

inline void to_json(nlohmann::json &out, const heavy &elem) { out = elem.text; }

inline void from_json(const nlohmann::json &in, heavy &elem) { in.get_to(elem.text); }

inline void to_json(nlohmann::json &out, const stable &elem) { out = nlohmann::json{{"value", elem.value}}; }

inline void from_json(const nlohmann::json &in, stable &elem) {
    elem.value = tessera::archive::json::number<int>(in.at("value"));
}

/// Writes the identifiers, the four default pools and the named pool of `reg` into a JSON document.
inline tessera::archive::json::document save_json_all(const registry &reg) {
    tessera::archive::json::document out{};
    tessera::archive::json::output_archive archive{out};
    tessera::snapshot{reg}
        .get<entity>(archive.section<entity>())
        .get<trivial>(archive.section<trivial>())
        .get<heavy>(archive.section<heavy>())
        .get<tag>(archive.section<tag>())
        .get<stable>(archive.section<stable>())
        .get<trivial>(archive.section<trivial>(named_id), named_id);
    return out;
}

/// Reads what save_json_all wrote with `loader` (a snapshot_loader or a continuous_loader). Throws json::error.
template<typename Loader>
void load_json_all(Loader &loader, const tessera::archive::json::document &source) {
    tessera::archive::json::input_archive archive{source};
    loader.template get<entity>(archive.section<entity>())
        .template get<trivial>(archive.section<trivial>())
        .template get<heavy>(archive.section<heavy>())
        .template get<tag>(archive.section<tag>())
        .template get<stable>(archive.section<stable>())
        .template get<trivial>(archive.section<trivial>(named_id), named_id);
    archive.expect_all_read();
}

} // namespace tessera_model

#endif
