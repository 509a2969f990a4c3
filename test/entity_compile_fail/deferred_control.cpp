// Must compile: the same setup as the command buffer and prototype compile-fail units, with types that qualify.
#include <memory>
#include <tessera/entity/command_buffer.hpp>
#include <tessera/entity/prototype.hpp>

struct movable {
    int value{};
};

struct unique {
    std::unique_ptr<int> handle;
    static unique clone_element(const unique &other) { return unique{std::make_unique<int>(*other.handle)}; }
};

int main() {
    tessera::registry registry;
    tessera::command_buffer buffer;
    buffer.emplace<movable>(registry.create());
    buffer.emplace<unique>(registry.create());
    tessera::prototype proto;
    proto.emplace<movable>(1);
    proto.emplace<unique>(std::make_unique<int>(2));
}
