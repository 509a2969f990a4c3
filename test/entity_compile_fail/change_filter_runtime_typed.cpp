// Must not compile: the typed change filter on a runtime view, which has no element types to find the storage by.
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
    tessera::each_changed<tracked>(view, 0u, [&count](tessera::entity) { ++count; });
    return count;
}
