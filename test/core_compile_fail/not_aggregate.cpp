// Must not compile: a class with a constructor and private members says nothing about its fields.
#include <tessera/core/reflect.hpp>

class sealed {
public:
    explicit sealed(int value) : hidden{value} {}
    [[nodiscard]] int get() const { return hidden; }

private:
    int hidden;
};

int main() { return static_cast<int>(tessera::field_count_v<sealed>); }
