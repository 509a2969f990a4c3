// Must not compile: a prototype value of a type that clone skips would never be copied by spawn.
#include <tessera/entity/prototype.hpp>

struct scratch {
    static constexpr auto clone = tessera::clone_policy::skip;
    int value{};
};

int main() {
    tessera::prototype proto;
    proto.emplace<scratch>(1);
}
