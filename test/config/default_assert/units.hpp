// The functions that always_on.cpp and vanished.cpp define, each with TESSERA_ASSERT as its own macros make it.
// They use the macro directly, not a tessera function: an inline function compiled in several units under
// different macros would be the same function, and the linker would keep one of its versions.
#ifndef TESSERA_TEST_CONFIG_DEFAULT_ASSERT_UNITS_HPP
#define TESSERA_TEST_CONFIG_DEFAULT_ASSERT_UNITS_HPP

namespace default_assert_test {

/// always_on.cpp: a failing check under NDEBUG and TESSERA_ASSERT_ALWAYS_ON.
void fail_always_on();

/// vanished.cpp: a failing check under NDEBUG alone; returns true if its condition was evaluated.
bool fail_vanished();

} // namespace default_assert_test

#endif
