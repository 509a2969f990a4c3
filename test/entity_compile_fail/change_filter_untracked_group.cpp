// Must not compile: a change filter on an owning group, over a type that does not track changes.
#include <tessera/entity/change_filter.hpp>
#include <tessera/entity/registry.hpp>

struct tracked {
    static constexpr bool track_changes = true;
    int value;
};

struct untracked {
    int value;
};

int main() {
    tessera::registry registry;
    int count{};
    tessera::each_added<untracked>(registry.group<untracked>(tessera::get<tracked>), 0u,
                                   [&count](untracked &, tracked &) { ++count; });
    return count;
}
