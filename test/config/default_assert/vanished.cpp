// Compiled with NDEBUG alone: the default check vanishes, without evaluating its arguments.
#include "units.hpp"
#include <tessera/config/config.hpp>

static_assert(TESSERA_ASSERT_ENABLED == 0, "vanished.cpp: NDEBUG removes the default checks");

namespace default_assert_test {

bool fail_vanished() {
    bool evaluated = false;
    TESSERA_ASSERT((evaluated = true) && false, "fail_vanished: never printed");
    return evaluated;
}

} // namespace default_assert_test
