// Must not compile: two described fields under one name.
#include <tessera/core/reflect.hpp>
#include <tuple>

struct twice {
    int first{};
    int second{};
    static constexpr auto reflected_fields =
        std::make_tuple(tessera::field<"same">(&twice::first), tessera::field<"same">(&twice::second));
};

int main() { return static_cast<int>(tessera::field_count_v<twice>); }
