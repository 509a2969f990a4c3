// Tests for the context variables of a registry: typed and named variables, aliases, misuse, address
// stability and read-only access through a const registry.
#include "support/misuse.hpp"
#include <gtest/gtest.h>
#include <string>
#include <tessera/core/hashed_string.hpp>
#include <tessera/core/type_info.hpp>
#include <tessera/entity/registry.hpp>
#include <type_traits>
#include <utility>
#include <vector>

namespace {
namespace unit_entity_tables_context {

namespace {

using namespace tessera::literals;

/// Neither default-constructible nor movable: it can only be built in place.
struct pinned_value {
    explicit pinned_value(const int init) : value{init} {}
    pinned_value(const pinned_value &) = delete;
    pinned_value &operator=(const pinned_value &) = delete;
    int value;
};

struct settings {
    int width{};
    std::string title{};
};

} // namespace

TEST(RegistryContext, EmplaceKeepsTheExistingValue) {
    tessera::registry reg;
    auto &ctx = reg.ctx();

    auto &value = ctx.emplace<int>(42);
    EXPECT_EQ(value, 42);

    auto &again = ctx.emplace<int>(7);
    EXPECT_EQ(&again, &value);
    EXPECT_EQ(ctx.get<int>(), 42);

    EXPECT_EQ(ctx.emplace<pinned_value>(3).value, 3);
    EXPECT_EQ(ctx.emplace<settings>(640, "main").title, "main");
}

TEST(RegistryContext, EmplaceAs) {
    tessera::registry reg;
    auto &ctx = reg.ctx();

    EXPECT_EQ(ctx.emplace_as<int>("n"_hs, 1), 1);
    EXPECT_TRUE(ctx.contains<int>("n"_hs));
    EXPECT_FALSE(ctx.contains<int>());
    EXPECT_EQ(ctx.emplace_as<int>("n"_hs, 2), 1);

    // typed and named access share one key space
    auto &typed = ctx.emplace_as<int>(tessera::type_id<int>().hash(), 5);
    EXPECT_EQ(&typed, &ctx.get<int>());
    EXPECT_EQ(ctx.get<int>(), 5);
    EXPECT_EQ(ctx.get<int>("n"_hs), 1);
}

TEST(RegistryContext, InsertOrAssign) {
    tessera::registry reg;
    auto &ctx = reg.ctx();
    ctx.emplace<int>(42);

    auto &value = ctx.insert_or_assign(9);
    static_assert(std::is_same_v<decltype(ctx.insert_or_assign(9)), int &>);
    EXPECT_EQ(value, 9);
    EXPECT_EQ(ctx.get<int>(), 9);

    const settings local{1, "copy"};
    EXPECT_EQ(ctx.insert_or_assign(local).title, "copy");
    EXPECT_EQ(ctx.get<settings>().width, 1);

    EXPECT_EQ(ctx.insert_or_assign("n"_hs, 3), 3);
    EXPECT_EQ(ctx.get<int>("n"_hs), 3);
    EXPECT_EQ(ctx.insert_or_assign("n"_hs, 4), 4);
    EXPECT_EQ(ctx.get<int>("n"_hs), 4);

    // whatever was there is replaced, even a variable of another type
    EXPECT_EQ(ctx.insert_or_assign("n"_hs, 'c'), 'c');
    EXPECT_TRUE(ctx.contains<char>("n"_hs));
    EXPECT_FALSE(ctx.contains<int>("n"_hs));
}

TEST(RegistryContext, GetAtFindContainsErase) {
    tessera::registry reg;
    auto &ctx = reg.ctx();
    auto &value = ctx.emplace<int>(1);

    EXPECT_EQ(&ctx.get<int>(), &value);
    EXPECT_EQ(&ctx.at<int>(), &value);
    EXPECT_EQ(ctx.find<int>(), &value);
    EXPECT_EQ(ctx.find<const int>(), &value);
    EXPECT_EQ(&ctx.get<const int>(), &value);
    EXPECT_EQ(ctx.find<char>(), nullptr);
    EXPECT_EQ(ctx.find<int>("missing"_hs), nullptr);
    EXPECT_TRUE(ctx.contains<int>());
    EXPECT_TRUE(ctx.contains<const int>());
    EXPECT_FALSE(ctx.contains<char>());

    EXPECT_FALSE(ctx.erase<char>(tessera::type_id<int>().hash()));
    EXPECT_TRUE(ctx.contains<int>());
    EXPECT_FALSE(ctx.erase<int>("missing"_hs));
    EXPECT_TRUE(ctx.erase<int>());
    EXPECT_FALSE(ctx.erase<int>());
    EXPECT_FALSE(ctx.contains<int>());
    EXPECT_EQ(ctx.find<int>(), nullptr);

    EXPECT_MISUSE(static_cast<void>(ctx.get<int>()), "ctx:");
    EXPECT_MISUSE(static_cast<void>(ctx.at<int>()), "ctx:");
    EXPECT_MISUSE(static_cast<void>(std::as_const(ctx).get<int>()), "ctx:");
}

TEST(RegistryContext, WrongTypeForANamedVariableIsAMisuse) {
    tessera::registry reg;
    auto &ctx = reg.ctx();
    ctx.emplace_as<int>("n"_hs, 1);

    EXPECT_MISUSE(static_cast<void>(ctx.get<char>("n"_hs)), "ctx:");
    EXPECT_MISUSE(static_cast<void>(std::as_const(ctx).at<char>("n"_hs)), "ctx:");
    EXPECT_MISUSE(ctx.emplace_as<char>("n"_hs, 'c'), "another type");
    EXPECT_EQ(ctx.find<char>("n"_hs), nullptr);
    EXPECT_FALSE(ctx.contains<char>("n"_hs));
    EXPECT_FALSE(ctx.erase<char>("n"_hs));
    EXPECT_EQ(ctx.get<int>("n"_hs), 1);

    // a typed variable under the default name of another type
    ctx.emplace_as<int>(tessera::type_id<char>().hash(), 2);
    EXPECT_MISUSE(ctx.emplace<char>('c'), "another type");
    EXPECT_EQ(ctx.find<char>(), nullptr);
}

TEST(RegistryContext, Aliases) {
    tessera::registry reg;
    auto &ctx = reg.ctx();
    int value = 3;

    auto &alias = ctx.emplace<int &>(value);
    EXPECT_EQ(&alias, &value);
    EXPECT_EQ(&ctx.get<int>(), &value);
    ctx.get<int>() = 4;
    EXPECT_EQ(value, 4);
    value = 5;
    EXPECT_EQ(ctx.get<int>(), 5);

    // erasing an alias leaves the aliased object alone
    EXPECT_TRUE(ctx.erase<int>());
    EXPECT_EQ(value, 5);

    // insert_or_assign turns an alias into an owned value
    ctx.emplace<int &>(value);
    ctx.insert_or_assign(6);
    EXPECT_EQ(value, 5);
    EXPECT_EQ(ctx.get<int>(), 6);
    value = 7;
    EXPECT_EQ(ctx.get<int>(), 6);
}

TEST(RegistryContext, ConstAliases) {
    tessera::registry reg;
    auto &ctx = reg.ctx();
    settings config{800, "const"};

    const auto &alias = ctx.emplace<const settings &>(config);
    EXPECT_EQ(&alias, &config);
    EXPECT_TRUE(ctx.contains<settings>());
    EXPECT_EQ(ctx.find<settings>(), nullptr);
    EXPECT_EQ(ctx.find<const settings>(), &config);
    EXPECT_EQ(&ctx.get<const settings>(), &config);
    EXPECT_EQ(&std::as_const(ctx).get<settings>(), &config);
    EXPECT_MISUSE(static_cast<void>(ctx.get<settings>()), "ctx:");
    EXPECT_MISUSE(static_cast<void>(ctx.at<settings>()), "ctx:");

    // the aliased object is seen, not copied
    config.width = 1024;
    EXPECT_EQ(ctx.get<const settings>().width, 1024);

    // asking for a writable variable where a read-only alias is: still the alias, still read-only
    EXPECT_MISUSE(ctx.emplace<settings>(), "const alias");

    ctx.insert_or_assign(settings{1, "owned"});
    EXPECT_NE(ctx.find<settings>(), nullptr);
    config.width = 2;
    EXPECT_EQ(ctx.get<settings>().width, 1);
    EXPECT_EQ(config.title, "const");

    // named const alias
    const int limit = 9;
    ctx.emplace_as<const int &>("limit"_hs, limit);
    EXPECT_EQ(ctx.find<int>("limit"_hs), nullptr);
    EXPECT_EQ(ctx.find<const int>("limit"_hs), &limit);
    EXPECT_EQ(ctx.get<const int>("limit"_hs), 9);
}

TEST(RegistryContext, AddressesAreStable) {
    tessera::registry reg;
    auto &ctx = reg.ctx();
    auto *first = &ctx.emplace<int>(1);
    auto *text = &ctx.emplace<std::string>("stable");
    const auto *title = text->data();

    for (tessera::id_type id = 1u; id < 200u; ++id) {
        ctx.emplace_as<std::vector<int>>(id, static_cast<std::size_t>(id));
    }

    for (tessera::id_type id = 1u; id < 200u; id += 2u) {
        EXPECT_TRUE(ctx.erase<std::vector<int>>(id));
    }

    EXPECT_EQ(&ctx.get<int>(), first);
    EXPECT_EQ(&ctx.get<std::string>(), text);
    EXPECT_EQ(ctx.get<std::string>().data(), title);
    EXPECT_EQ(ctx.get<std::vector<int>>(2u).size(), 2u);

    // and so they are when the registry is moved
    tessera::registry other{std::move(reg)};
    EXPECT_EQ(&other.ctx().get<int>(), first);
}

TEST(RegistryContext, ConstRegistryGivesConstAccessOnly) {
    tessera::registry reg;
    reg.ctx().emplace<int>(1);
    reg.ctx().emplace_as<char>("c"_hs, 'c');
    const tessera::registry &cref = reg;

    static_assert(std::is_same_v<decltype(cref.ctx()), const tessera::registry::context &>);
    static_assert(std::is_same_v<decltype(cref.ctx().get<int>()), const int &>);
    static_assert(std::is_same_v<decltype(cref.ctx().at<int>()), const int &>);
    static_assert(std::is_same_v<decltype(cref.ctx().find<int>()), const int *>);

    EXPECT_EQ(cref.ctx().get<int>(), 1);
    EXPECT_EQ(cref.ctx().at<char>("c"_hs), 'c');
    EXPECT_EQ(cref.ctx().find<int>(), &reg.ctx().get<int>());
    EXPECT_EQ(cref.ctx().find<int>("c"_hs), nullptr);
    EXPECT_TRUE(cref.ctx().contains<char>("c"_hs));
}

TEST(RegistryContext, ClearDestroysEveryVariable) {
    tessera::registry reg;
    auto &ctx = reg.ctx();
    int aliased = 3;
    ctx.emplace<int>(1);
    ctx.emplace_as<char>("named"_hs, 'c');
    ctx.emplace_as<int &>("alias"_hs, aliased);

    ctx.clear();

    EXPECT_FALSE(ctx.contains<int>());
    EXPECT_FALSE(ctx.contains<char>("named"_hs));
    EXPECT_EQ(ctx.find<int>(), nullptr);
    EXPECT_FALSE(ctx.contains<int &>("alias"_hs));
    EXPECT_EQ(aliased, 3);
    EXPECT_EQ(ctx.emplace<int>(2), 2);
    static_assert(noexcept(ctx.clear()));
}

} // namespace unit_entity_tables_context
} // namespace
