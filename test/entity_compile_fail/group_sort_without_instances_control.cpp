// Compiles: the same group sorted by entity, with no type named, and by the type with instances.
#include <tessera/entity/group.hpp>
#include <tessera/entity/registry.hpp>

struct position {
    int x;
};

struct tag {};

int main() {
    tessera::registry registry;
    auto group = registry.group<position>(tessera::get<tag>);
    group.sort([](const tessera::entity lhs, const tessera::entity rhs) { return lhs < rhs; });
    group.sort<position>([](const position &lhs, const position &rhs) { return lhs.x < rhs.x; });
    auto non_owning = registry.group(tessera::get<position, tag>);
    non_owning.sort([](const tessera::entity lhs, const tessera::entity rhs) { return lhs < rhs; });
}
