// Uses the umbrella header from a consumer project; exits non-zero if something is off, and says what.
#include <cstdio>
#include <string_view>
#include <tessera/tessera.hpp>

int main() {
    using namespace tessera::literals;

    if (std::string_view{TESSERA_VERSION} != EXPECTED_VERSION) {
        std::printf("version.hpp says %s, CMake says %s\n", TESSERA_VERSION, EXPECTED_VERSION);
        return 1;
    }

    tessera::registry registry;
    const auto entity = registry.create();
    registry.emplace<int>(entity, 42);

    if ("foo"_hs != 0xa9f37ed7u || registry.get<int>(entity) != 42) {
        std::puts("the library does not work as expected");
        return 1;
    }

    return 0;
}
