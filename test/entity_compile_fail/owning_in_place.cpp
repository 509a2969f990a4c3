// Must not compile: an owning group over a storage with in-place deletion (its holes would break the block).
#include <tessera/entity/registry.hpp>

struct pinned {
    static constexpr bool in_place_delete = true;
    int value{};
};

int main() {
    tessera::registry registry;
    static_cast<void>(registry.group<pinned>());
}
