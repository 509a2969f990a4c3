// The same calls as the extra_without_header_* units, with their headers: they compile.
#include <tessera/entity/chunk.hpp>
#include <tessera/entity/clone.hpp>
#include <tessera/entity/debugger.hpp>
#include <tessera/entity/memory_report.hpp>
#include <tessera/entity/registry.hpp>
#include <utility>

struct position {
    float x;
};

int main() {
    tessera::registry registry;
    [[maybe_unused]] const auto chunks = registry.view<position>().chunks(64u);
    [[maybe_unused]] const auto copy = registry.clone(registry.create());
    [[maybe_unused]] const auto report = std::as_const(registry).memory_report();
    [[maybe_unused]] const auto names = registry.debug_components(copy);
}
