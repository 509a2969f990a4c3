// Must fail: allocate_unique returns a std::unique_ptr, and <memory> is not included (tessera/core/memory.hpp only
// declares it with libstdc++, see the header).
#include <tessera/core/memory.hpp>

int main() {
    std::allocator<int> allocator{};
    auto value = tessera::allocate_unique<int>(allocator, 3);
    return static_cast<int>(sizeof(value));
}
