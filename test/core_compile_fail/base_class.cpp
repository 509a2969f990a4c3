// Must not compile: an aggregate with a base class is refused (aggregate initialization would give the base the
// first value, and structured bindings cannot reach both the base's and the class's members).
#include <tessera/core/reflect.hpp>

struct base {
    int inherited{};
};

struct derived : base {
    int own{};
};

int main() {
    derived value{};
    tessera::for_each_field(value, [](auto, auto &) {});
}
