// Control for owning_in_place.cpp: the same group over a regular type, and a non-owning group over the stable
// type, compile.
#include <tessera/entity/registry.hpp>

struct pinned {
    static constexpr bool in_place_delete = true;
    int value{};
};

struct regular {
    int value{};
};

int main() {
    tessera::registry registry;
    static_cast<void>(registry.group<regular>());
    static_cast<void>(registry.group<>(tessera::get<pinned>));
}
