// Must not compile: the replicated marker listed among the replicated types.
#include <tessera/entity/registry.hpp>
#include <tessera/replication/replication.hpp>

int main() {
    tessera::registry registry;
    tessera::replication::source<tessera::replication::replicated> source{registry};
    return static_cast<int>(source.window());
}
