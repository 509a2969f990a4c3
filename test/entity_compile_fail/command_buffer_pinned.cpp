// Must not compile: a component type that cannot be moved waits in a command buffer and is moved into its pool.
#include <tessera/entity/command_buffer.hpp>

struct pinned {
    pinned() = default;
    pinned(const pinned &) = delete;
    pinned &operator=(const pinned &) = delete;
    int value{};
};

int main() {
    tessera::registry registry;
    tessera::command_buffer buffer;
    buffer.emplace<pinned>(registry.create());
}
