// Uses the umbrella header from a consumer project; exits non-zero if something is off.
#include <tessera/tessera.hpp>

int main() {
    using namespace tessera::literals;
    const bool hashed = "foo"_hs == 0xa9f37ed7u;
    return TESSERA_VERSION_MAJOR == 0 && hashed ? 0 : 1;
}
