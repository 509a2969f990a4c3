// Saves and loads a registry through the JSON adapter (target tessera::json) from a consumer project.
#include <tessera/archive/json.hpp>
#include <tessera/entity/registry.hpp>

struct score {
    int value{};
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(score, value)

int main() {
    tessera::registry source;
    source.emplace<score>(source.create(), 7);
    tessera::registry copy;
    tessera::archive::json::load<score>(copy, tessera::archive::json::save<score>(source));
    return copy.get<score>(tessera::entity{0u}).value == 7 ? 0 : 1;
}
