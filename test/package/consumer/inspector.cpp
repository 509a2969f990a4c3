// Serves a registry with the inspector (target tessera::inspector, which brings cpp-httplib and nlohmann-json) from
// a consumer project: the page must be found where the package put it (the source tree, or share/tessera/inspector
// once installed), and a frame polled.
#include <cstdio>
#include <tessera/entity/registry.hpp>
#include <tessera/inspector/inspector.hpp>

struct position {
    float x{};
    float y{};
};

int main() {
    tessera::registry registry;
    registry.emplace<position>(registry.create(), 1.f, 2.f);
    tessera::inspector::server server{registry};
    server.component<position>();
    server.poll();

    if (!server.has_page() || server.port() == 0u) {
        std::printf("the inspector's page was not found (or no port was bound)\n");
        return 1;
    }

    std::printf("inspector: served at %s\n", server.url().c_str());
    return 0;
}
