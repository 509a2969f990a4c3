// EXPECT_MISUSE(statement, "part of the message"): the statement must fire TESSERA_ASSERT, and the
// assertion message must contain the given text.
#ifndef TESSERA_TEST_SUPPORT_MISUSE_HPP
#define TESSERA_TEST_SUPPORT_MISUSE_HPP

#include <gtest/gtest.h>
#include <string>

namespace tessera_test {

/// False when EXPECT_MISUSE skips its statement (TESSERA_DISABLE_ASSERT), for checks of what a misuse left behind.
inline constexpr bool misuse_runs =
#if defined(TESSERA_DISABLE_ASSERT)
    false;
#else
    true;
#endif

} // namespace tessera_test

#if defined(TESSERA_DISABLE_ASSERT)
// Every check is compiled out (the config-no-assert preset), so a misuse is no longer caught but undefined: the
// statement still compiles, and is not run. The rest of the test runs as usual.
#    define EXPECT_MISUSE(statement, fragment)                                                                         \
        do {                                                                                                           \
            if (false) {                                                                                               \
                statement;                                                                                             \
            }                                                                                                          \
            static_cast<void>(fragment);                                                                               \
        } while (false)
#else
#    define EXPECT_MISUSE(statement, fragment)                                                                         \
        do {                                                                                                           \
            bool tessera_test_fired = false;                                                                           \
            try {                                                                                                      \
                statement;                                                                                             \
            } catch (const ::tessera_test::assert_failure &failure) {                                                  \
                tessera_test_fired = true;                                                                             \
                EXPECT_NE(std::string{failure.what()}.find(fragment), std::string::npos)                               \
                    << "assertion message was: " << failure.what();                                                    \
            }                                                                                                          \
            EXPECT_TRUE(tessera_test_fired) << "expected a TESSERA_ASSERT to fire: " #statement;                       \
        } while (false)
#endif

#endif
