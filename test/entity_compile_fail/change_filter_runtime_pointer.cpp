// Must not compile: a runtime view's change filter given a pointer to the storage (what a const registry returns).
#include <tessera/entity/change_filter.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/runtime_view.hpp>
#include <utility>

struct tracked {
    static constexpr bool track_changes = true;
    int value;
};

int main() {
    tessera::registry registry;
    tessera::const_runtime_view view{};
    view.iterate(registry.storage<tracked>());
    int count{};
    tessera::each_changed(view, std::as_const(registry).storage<tracked>(), 0u, [&count](tessera::entity) { ++count; });
    return count;
}
