// Must not compile: a change filter on a view, over a type that does not track changes.
#include <tessera/entity/change_filter.hpp>
#include <tessera/entity/registry.hpp>

struct untracked {
    int value;
};

int main() {
    tessera::registry registry;
    int count{};
    tessera::each_changed<untracked>(registry.view<untracked>(), 0u, [&count](untracked &) { ++count; });
    return count;
}
