// A unit of the ABI test that keeps the default check under NDEBUG: CMake defines both NDEBUG and
// TESSERA_ASSERT_ALWAYS_ON here.
#if !defined(NDEBUG) || !defined(TESSERA_ASSERT_ALWAYS_ON)
#    error "always_on.cpp must be compiled with NDEBUG and TESSERA_ASSERT_ALWAYS_ON"
#endif
#define TESSERA_ABI_UNIT always_on
#include "operations.hpp"

static_assert(TESSERA_ASSERT_ENABLED == 1);
