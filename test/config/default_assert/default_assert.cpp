// Death tests of the default TESSERA_ASSERT (see CMakeLists.txt): a failed check prints `file:line: function:
// tessera check failed: message` to stderr and aborts, with the message itself rather than the text of an
// expression, also when the message is built at run time.
#include "units.hpp"
#include <gtest/gtest.h>
#include <tessera/entity/handle.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/sparse_set.hpp>
#include <tessera/entity/view.hpp>

static_assert(TESSERA_ASSERT_ENABLED == 1, "default_assert.cpp is compiled without NDEBUG");

namespace {

struct position {
    int x{};
};

TEST(DefaultAssert, PrintsTheMessageFileLineAndFunction) {
    tessera::sparse_set set{};
    // the function is index(), the file sparse_set.hpp
    EXPECT_DEATH(static_cast<void>(set.index(tessera::entity{3})),
                 "sparse_set\\.hpp:[0-9]+: index: tessera check failed: sparse_set: index of an identifier that is not "
                 "in the set");
}

TEST(DefaultAssert, PrintsAMessagePassedAsAPointer) {
    // the handle passes its message on as a `const char *` parameter: the text must still be printed
    const tessera::handle handle{};
    EXPECT_DEATH(static_cast<void>(handle.all_of<position>()), "tessera check failed: handle::all_of: [a-z ]+");
}

TEST(DefaultAssert, PrintsAMessageBuiltAtRunTime) {
    tessera::registry registry;
    const auto first = registry.create();
    const auto second = registry.create();
    registry.emplace<position>(first);
    registry.emplace<position>(second);
    // removing another entity than the current one while iterating: the message names the pool and the rule
    EXPECT_DEATH(registry.view<position>().each([&](const tessera::entity entt, position &) {
        registry.erase<position>(entt == first ? second : first);
    }),
                 "view::each: a component of another entity was removed from the pool of .*position.* \\(see "
                 "docs/thread_safety\\.md, iteration rule 3");
}

TEST(DefaultAssert, StaysUnderNdebugWithAlwaysOn) {
    EXPECT_DEATH(default_assert_test::fail_always_on(),
                 "always_on\\.cpp:[0-9]+: fail_always_on: tessera check failed: fail_always_on: three is not four");
}

TEST(DefaultAssert, VanishesUnderNdebug) { EXPECT_FALSE(default_assert_test::fail_vanished()); }

TEST(DefaultAssert, PassingCheckIsSilent) {
    tessera::sparse_set set{};
    set.push(tessera::entity{3});
    EXPECT_EQ(set.index(tessera::entity{3}), 0u);
}

} // namespace
