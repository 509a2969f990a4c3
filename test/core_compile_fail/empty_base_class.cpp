// Must not compile: an empty base counts as a base class too.
#include <tessera/core/reflect.hpp>

struct tag {};

struct derived : tag {
    int own{};
};

int main() { return static_cast<int>(tessera::field_count_v<derived>); }
