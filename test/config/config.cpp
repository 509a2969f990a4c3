#include "support/misuse.hpp"
#include <gtest/gtest.h>
#include <string>
#include <tessera/config/config.hpp>
#include <tessera/config/version.hpp>
#include <tessera/core/fwd.hpp>
#include <type_traits>

TEST(config, defaults) {
    static_assert(std::is_same_v<tessera::id_type, std::uint32_t>);
    static_assert(TESSERA_SPARSE_PAGE == 4096);
    static_assert(TESSERA_PACKED_PAGE == 1024);
    EXPECT_EQ(std::string{TESSERA_VERSION}, std::to_string(TESSERA_VERSION_MAJOR) + "." +
                                                std::to_string(TESSERA_VERSION_MINOR) + "." +
                                                std::to_string(TESSERA_VERSION_PATCH));
}

TEST(config, user_defined_assert_is_kept) {
    EXPECT_MISUSE(TESSERA_ASSERT(1 + 1 == 3, "arithmetic: one plus one is not three"), "not three");
    EXPECT_NO_THROW(TESSERA_ASSERT(1 + 1 == 2, "never fires"));
}

#define TESSERA_TEST_SPELL(...) #__VA_ARGS__
#define TESSERA_TEST_SPELLING(macro) TESSERA_TEST_SPELL(macro)

#if defined(__has_feature)
#    if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#        define TESSERA_TEST_SANITIZED 1
#    endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#    define TESSERA_TEST_SANITIZED 1
#endif

TEST(config, flatten_is_dropped_under_sanitizers) {
    const std::string spelling{TESSERA_TEST_SPELLING(TESSERA_FLATTEN)};
#ifdef TESSERA_TEST_SANITIZED
    // a flattened body under instrumentation costs minutes of build time for nothing
    EXPECT_EQ(spelling, "");
#else
    EXPECT_EQ(spelling, "[[gnu::flatten]]");
#endif
}
