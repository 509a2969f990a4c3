// Must not compile: a change filter on a runtime view, given a storage that does not track changes.
#include <tessera/entity/change_filter.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/runtime_view.hpp>

struct untracked {
    int value;
};

int main() {
    tessera::registry registry;
    tessera::runtime_view view{};
    view.iterate(registry.storage<untracked>());
    int count{};
    tessera::each_changed(view, registry.storage<untracked>(), 0u, [&count](tessera::entity) { ++count; });
    return count;
}
