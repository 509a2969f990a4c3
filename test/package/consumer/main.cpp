// Uses the umbrella header from a consumer project; exits non-zero if something is off.
#include <tessera/tessera.hpp>

int main() { return TESSERA_VERSION_MAJOR == 0 ? 0 : 1; }
