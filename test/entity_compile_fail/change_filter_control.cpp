// Must compile: the setups of the change_filter_* units, with tracked types, storages and the right calls.
#include <tessera/entity/change_filter.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/runtime_view.hpp>

struct tracked {
    static constexpr bool track_changes = true;
    int value;
};

struct other {
    static constexpr bool track_changes = true;
    int value;
};

int main() {
    tessera::registry registry;
    int count{};
    tessera::each_changed<tracked>(registry.view<tracked>(), 0u, [&count](tracked &) { ++count; });
    tessera::each_added<other>(registry.group<other>(tessera::get<tracked>), 0u,
                               [&count](other &, tracked &) { ++count; });

    tessera::runtime_view view{};
    view.iterate(registry.storage<tracked>());
    tessera::each_changed(view, registry.storage<tracked>(), 0u, [&count](tessera::entity) { ++count; });
    tessera::each_added(view, registry.storage<other>(), 0u, [&count](tessera::entity) { ++count; });
    return count;
}
