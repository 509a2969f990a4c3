// registry.memory_report() without <tessera/entity/memory_report.hpp>: the message names the header.
#include <tessera/entity/registry.hpp>

int main() {
    const tessera::registry registry;
    [[maybe_unused]] const auto report = registry.memory_report();
}
