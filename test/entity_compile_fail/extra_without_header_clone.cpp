// registry.clone() without <tessera/entity/clone.hpp>: the message names the header.
#include <tessera/entity/registry.hpp>

int main() {
    tessera::registry registry;
    [[maybe_unused]] const auto copy = registry.clone(registry.create());
}
