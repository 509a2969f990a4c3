// Must not compile: a handle view reaches only the element types listed in its scope.
#include <tessera/entity/handle.hpp>

int main() {
    tessera::registry registry;
    const tessera::handle_view<int> h{registry, registry.create()};
    static_cast<void>(h.get<char>());
}
