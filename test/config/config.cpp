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
