// Must not compile: a handle view converts only to a handle view over some of its own types.
#include <tessera/entity/handle.hpp>

int main() {
    tessera::registry registry;
    const tessera::handle_view<int> h{registry, registry.create()};
    const tessera::handle_view<int, char> wider = h;
    static_cast<void>(wider);
}
