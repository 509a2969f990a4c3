// Must not compile: a group cannot be sorted by the elements of a type without instances (an empty type).
#include <tessera/entity/group.hpp>
#include <tessera/entity/registry.hpp>

struct position {
    int x;
};

struct tag {};

int main() {
    tessera::registry registry;
    auto group = registry.group<position>(tessera::get<tag>);
    group.sort<tag>([](const tessera::entity lhs, const tessera::entity rhs) { return lhs < rhs; });
}
