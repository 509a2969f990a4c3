// view.chunks() without <tessera/entity/chunk.hpp>: the message names the header.
#include <tessera/entity/registry.hpp>

struct position {
    float x;
};

int main() {
    tessera::registry registry;
    [[maybe_unused]] const auto chunks = registry.view<position>().chunks(64u);
}
