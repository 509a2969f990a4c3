// Must compile: allocate_unique_without_memory.cpp with <memory> included.
#include <memory>
#include <tessera/core/memory.hpp>

int main() {
    std::allocator<int> allocator{};
    auto value = tessera::allocate_unique<int>(allocator, 3);
    return *value - 3;
}
