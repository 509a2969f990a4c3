// Force-included into every test translation unit (before any tessera header): makes TESSERA_ASSERT
// throw, so that tests can check that a misuse is caught and that the message names the problem.
#ifndef TESSERA_TEST_SUPPORT_THROWING_ASSERT_HPP
#define TESSERA_TEST_SUPPORT_THROWING_ASSERT_HPP

#include <stdexcept>
#include <string>

namespace tessera_test {

/// Thrown by TESSERA_ASSERT in the tests; what() is the assertion's message.
struct assert_failure : std::logic_error {
    using std::logic_error::logic_error;
};

} // namespace tessera_test

#define TESSERA_ASSERT(condition, message)                                                                             \
    ((condition) ? static_cast<void>(0) : throw ::tessera_test::assert_failure{message})

#endif
