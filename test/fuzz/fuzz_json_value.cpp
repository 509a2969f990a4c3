// libFuzzer target: arbitrary text parsed as JSON and read with json_value::from_json (archive/json_value.hpp) into
// a component holding every kind of value, whole or as a patch (the first byte chooses). A refused read must leave
// the target unchanged and say where and what; an accepted one must write back and read again to the same JSON.
// A crash, a sanitizer report or an exception is a bug.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <tessera/archive/json_value.hpp>
#include <vector>

namespace {

enum class team : std::uint8_t { red, blue = 7 };

struct inner {
    std::int16_t small{};
    double ratio{};
    std::optional<std::string> note{};
};

struct component {
    bool flag{};
    std::uint64_t wide{};
    std::int8_t tiny{};
    float real{};
    team side{team::blue};
    std::string text{"text"};
    int grid[2][2]{};
    std::array<inner, 2> pair{};
    std::vector<inner> list{inner{}};
    std::vector<bool> bits{};
    std::optional<std::uint32_t> maybe{};
    tessera::entity target{tessera::null};
};

[[noreturn]] void bug() { std::abort(); }

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, const std::size_t size) {
    if (size == 0u) {
        return 0;
    }

    namespace json_value = tessera::json_value;
    const bool partial = (data[0] & 1u) != 0u;
    const auto node = nlohmann::json::parse(reinterpret_cast<const char *>(data) + 1,
                                            reinterpret_cast<const char *>(data) + size, nullptr, false);
    if (node.is_discarded()) {
        return 0;
    }

    component value{};
    const auto before = json_value::to_json(value).dump();
    const auto result = json_value::from_json(node, value, {.root = "component", .partial = partial});
    const auto after = json_value::to_json(value);

    if (!result) {
        // refused: nothing changed, and the message names the place and the problem
        if (after.dump() != before || result.problem.empty() || result.message().rfind("component", 0u) != 0u) {
            bug();
        }
        return 0;
    }

    // accepted: what is written back reads again, whole, to the same JSON
    component again{};
    if (!json_value::from_json(after, again) || json_value::to_json(again) != after) {
        bug();
    }
    return 0;
}
