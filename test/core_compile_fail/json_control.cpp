// Must compile: json_opaque.cpp and json_archive_opaque.cpp with the opaque part shown, and left out.
#include <functional>
#include <tessera/archive/json.hpp>
#include <tessera/archive/json_value.hpp>
#include <tessera/entity/registry.hpp>

struct with_callback {
    int count{};
    std::function<void()> callback{};
};

struct counted {
    int count{};
};

int main() {
    const tessera::registry registry{};
    const auto shown = tessera::json_value::describe(with_callback{});
    return static_cast<int>(tessera::archive::json::save<counted>(registry).size() + shown.size());
}
