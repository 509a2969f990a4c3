// Must not compile: a relevance filter that does not take an entity and return a bool.
#include <tessera/entity/registry.hpp>
#include <tessera/replication/replication.hpp>

int main() {
    tessera::registry registry;
    tessera::replication::source<> source{registry};
    auto peer = source.connect([](int, int) { return true; });
    return peer.filtered() ? 0 : 1;
}
