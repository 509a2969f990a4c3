// Must compile: the same setup as the handle view compile-fail units, used within the scope.
#include <tessera/entity/handle.hpp>

int main() {
    tessera::registry registry;
    const tessera::handle_view<int, char> h{registry, registry.create()};
    h.emplace<int>(1);
    static_cast<void>(h.get<int>());
    const tessera::const_handle_view<char> narrow = h;
    static_cast<void>(narrow);
}
