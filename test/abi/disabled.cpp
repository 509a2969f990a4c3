// A unit of the ABI test with every check removed: CMake defines TESSERA_DISABLE_ASSERT (and not NDEBUG) here.
#if !defined(TESSERA_DISABLE_ASSERT) || defined(NDEBUG)
#    error "disabled.cpp must be compiled with TESSERA_DISABLE_ASSERT and without NDEBUG"
#endif
#define TESSERA_ABI_UNIT disabled
#include "operations.hpp"

static_assert(TESSERA_ASSERT_ENABLED == 0);
