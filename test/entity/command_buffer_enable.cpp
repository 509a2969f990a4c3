// Tests of the disable and enable commands of command_buffer.hpp, and of emplace commands applied to a disabled
// entity (docs/enable_disable.md).
#include <gtest/gtest.h>
#include <tessera/core/hashed_string.hpp>
#include <tessera/entity/command_buffer.hpp>
#include <tessera/entity/registry.hpp>

namespace {
namespace unit_entity_command_buffer_enable {

namespace {

struct stunned {
    int turns{};
};

} // namespace

TEST(CommandBufferEnable, DisableAndEnableApplyInOrder) {
    tessera::registry registry;
    tessera::command_buffer buffer{};
    const auto entt = registry.create();
    const auto without = registry.create();
    registry.emplace<stunned>(entt, 2);

    buffer.disable<stunned>(entt);
    buffer.disable<stunned>(without);
    EXPECT_EQ(buffer.apply(registry), 1u);
    EXPECT_FALSE(registry.enabled<stunned>(entt));
    EXPECT_EQ(registry.get<stunned>(entt).turns, 2);

    // a provisional entity: create, emplace and disable in one batch
    const auto made = buffer.create();
    buffer.emplace<stunned>(made, 5);
    buffer.disable<stunned>(made);
    buffer.enable<stunned>(entt);
    EXPECT_EQ(buffer.apply(registry), 0u);
    EXPECT_TRUE(registry.enabled<stunned>(entt));
    EXPECT_FALSE(registry.enabled<stunned>(buffer.resolve(made)));
}

TEST(CommandBufferEnable, EmplaceOnADisabledEntity) {
    tessera::registry registry;
    tessera::command_buffer buffer{};
    const auto entt = registry.create();
    registry.disable(entt);
    buffer.emplace<stunned>(entt, 1);
    buffer.apply(registry);
    EXPECT_FALSE(registry.enabled<stunned>(entt));
    EXPECT_EQ(registry.view<stunned>().size(), 0u);
}

TEST(CommandBufferEnable, NamedPoolRecorderDisablesAndEnablesItsOwnPool) {
    using namespace tessera::literals;
    tessera::registry registry;
    tessera::command_buffer buffer{};
    const auto entt = registry.create();
    registry.storage<stunned>("stuns"_hs).emplace(entt, stunned{3});
    registry.emplace<stunned>(entt, 4);

    buffer.storage<stunned>("stuns"_hs).disable(entt);
    EXPECT_EQ(buffer.apply(registry), 0u);
    EXPECT_FALSE(registry.storage<stunned>("stuns"_hs).enabled(entt));
    // the default pool is untouched
    EXPECT_TRUE(registry.enabled<stunned>(entt));

    buffer.storage<stunned>("stuns"_hs).enable(entt);
    // a pool without the entity: the command is skipped
    buffer.storage<stunned>("other"_hs).disable(entt);
    EXPECT_EQ(buffer.apply(registry), 1u);
    EXPECT_TRUE(registry.storage<stunned>("stuns"_hs).enabled(entt));
}

} // namespace unit_entity_command_buffer_enable
} // namespace
