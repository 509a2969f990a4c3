// Must not compile: the JSON archive saving a component with an opaque part and no to_json.
#include <functional>
#include <tessera/archive/json.hpp>
#include <tessera/entity/registry.hpp>

struct with_callback {
    int count{};
    std::function<void()> callback{};
};

int main() {
    const tessera::registry registry{};
    return static_cast<int>(tessera::archive::json::save<with_callback>(registry).size());
}
