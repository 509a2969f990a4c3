// Must compile: the class of base_class.cpp, described with reflected_fields (the base's member included).
#include <tessera/core/reflect.hpp>
#include <tuple>

struct base {
    int inherited{};
};

struct derived : base {
    int own{};
    static constexpr auto reflected_fields =
        std::make_tuple(tessera::field<"inherited">(&base::inherited), tessera::field<"own">(&derived::own));
};

struct tag {};

struct plain {
    int first{};
    tag marker{};
};

int main() {
    derived value{};
    tessera::for_each_field(value, [](auto, auto &) {});
    static_assert(tessera::field_count_v<plain> == 2u);
    return static_cast<int>(tessera::field_names_v<derived>.size()) - 2;
}
