// What the tests of hierarchy.hpp and hierarchy/order.hpp share: a small forest and the two transform components
// that propagate reads and writes.
#ifndef TESSERA_TEST_ENTITY_HIERARCHY_FIXTURE_HPP
#define TESSERA_TEST_ENTITY_HIERARCHY_FIXTURE_HPP

#include <tessera/entity/entity.hpp>
#include <tessera/entity/hierarchy.hpp>
#include <tessera/entity/registry.hpp>

namespace hierarchy_test {

/// The local value propagate reads.
struct local {
    float x{};
};

/// The world value propagate writes.
struct world {
    float x{};
};

/// root -> a, b; a -> c, d; b -> e
struct forest {
    tessera::registry registry;
    tessera::entity root = registry.create();
    tessera::entity a = registry.create();
    tessera::entity b = registry.create();
    tessera::entity c = registry.create();
    tessera::entity d = registry.create();
    tessera::entity e = registry.create();

    forest() {
        tessera::attach(registry, a, root);
        tessera::attach(registry, b, root);
        tessera::attach(registry, c, a);
        tessera::attach(registry, d, a);
        tessera::attach(registry, e, b);
    }
};

} // namespace hierarchy_test

#endif
