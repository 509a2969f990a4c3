// A unit of the ABI test built as a release library would be: CMake defines NDEBUG for this file.
#ifndef NDEBUG
#    error "release.cpp must be compiled with NDEBUG"
#endif
#define TESSERA_ABI_UNIT release
#include "operations.hpp"

static_assert(TESSERA_ASSERT_ENABLED == 0);
