// Must not compile: a runtime view's change filter with a function that asks for elements.
#include <tessera/entity/change_filter.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/runtime_view.hpp>

struct tracked {
    static constexpr bool track_changes = true;
    int value;
};

int main() {
    tessera::registry registry;
    tessera::runtime_view view{};
    view.iterate(registry.storage<tracked>());
    int count{};
    tessera::each_changed(view, registry.storage<tracked>(), 0u, [&count](tessera::entity, tracked &) { ++count; });
    return count;
}
