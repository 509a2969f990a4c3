// Must not compile: spawn copies every value of a prototype, and this type has no way to be copied.
#include <memory>
#include <tessera/entity/prototype.hpp>

struct unique {
    std::unique_ptr<int> handle;
};

int main() {
    tessera::prototype proto;
    proto.emplace<unique>();
}
