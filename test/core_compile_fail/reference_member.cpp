// Must not compile: a reference member cannot be reflected.
#include <tessera/core/reflect.hpp>

struct view {
    int &target;
    int count{};
};

int main() { return static_cast<int>(tessera::field_names_v<view>.size()); }
