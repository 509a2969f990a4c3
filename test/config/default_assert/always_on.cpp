// Compiled with NDEBUG and TESSERA_ASSERT_ALWAYS_ON: the default check stays.
#include "units.hpp"
#include <tessera/config/config.hpp>

static_assert(TESSERA_ASSERT_ENABLED == 1, "always_on.cpp: TESSERA_ASSERT_ALWAYS_ON keeps the checks under NDEBUG");

namespace default_assert_test {

void fail_always_on() {
    const int value = 3;
    TESSERA_ASSERT(value == 4, "fail_always_on: three is not four");
}

} // namespace default_assert_test
