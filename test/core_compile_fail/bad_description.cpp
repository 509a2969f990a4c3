// Must not compile: reflected_fields lists member pointers without names.
#include <tessera/core/reflect.hpp>
#include <tuple>

struct unnamed {
    int first{};
    static constexpr auto reflected_fields = std::make_tuple(&unnamed::first);
};

int main() { return static_cast<int>(tessera::field_count_v<unnamed>); }
