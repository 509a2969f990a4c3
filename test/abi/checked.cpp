// A unit of the ABI test with assertions on: CMake removes NDEBUG from this file whatever the build type.
#ifdef NDEBUG
#    error "checked.cpp must be compiled without NDEBUG"
#endif
#define TESSERA_ABI_UNIT checked
#include "operations.hpp"

static_assert(TESSERA_ASSERT_ENABLED == 1);
