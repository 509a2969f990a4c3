// Must not compile: a type listed twice.
#include <tessera/entity/registry.hpp>
#include <tessera/replication/replication.hpp>

struct health {
    static constexpr bool track_changes = true;
    int value;
};

int main() {
    tessera::registry registry;
    tessera::replication::mirror<health, health> mirror{registry};
    return static_cast<int>(mirror.size());
}
