// Must not compile: a replicated type with a value that does not track changes.
#include <tessera/entity/registry.hpp>
#include <tessera/replication/replication.hpp>

struct untracked {
    int value;
};

int main() {
    tessera::registry registry;
    tessera::replication::source<untracked> source{registry};
    return static_cast<int>(source.window());
}
