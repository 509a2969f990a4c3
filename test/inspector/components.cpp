// The component catalogue (inspector/components.hpp): default names, registration misuse, and values of every kind
// reflection shows, read and written through the service (no HTTP needed): enums, optionals, vectors, arrays, nested
// structs, identifiers, strings, booleans, opaque parts, types with a to_json of their own, types without instances,
// types that cannot be copied; every refusal names the field and leaves the element as it was.
#include <algorithm>
#include <array>
#include <cstdint>
#include <gtest/gtest.h>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tessera/entity/registry.hpp>
#include <tessera/inspector/components.hpp>
#include <tessera/inspector/service.hpp>
#include <vector>

namespace {
namespace unit_inspector_components {

namespace inspector_values {

enum class mood : std::uint8_t { calm, angry, asleep };

struct stats {
    std::uint16_t level;
    std::int8_t luck;
    bool alive;
};

struct profile {
    std::string name;
    mood feeling{};
    std::optional<int> bonus;
    std::vector<int> items;
    std::array<float, 2> aim{};
    stats numbers{};
    tessera::entity friend_of{tessera::null};
};

/// A part reflection cannot show: listed as opaque, kept as it is by writes.
struct handle_holder {
    std::shared_ptr<int> resource;
    int count{};
};

/// Its own JSON form wins over reflection.
struct celsius {
    double degrees;
};

void to_json(nlohmann::json &out, const celsius &value) { out = std::to_string(value.degrees) + " C"; }

void from_json(const nlohmann::json &in, celsius &value) { value.degrees = std::stod(in.get<std::string>()); }

/// Cannot be copied: shown, not written.
struct unique_slot {
    std::unique_ptr<int> slot;
};

struct empty_tag {};

template<typename Type>
struct wrapper {
    Type value;
};

} // namespace inspector_values

namespace {

using namespace inspector_values;

void count_signal(int &count, tessera::registry &, const tessera::entity) { ++count; }

struct answer {
    int status{};
    nlohmann::json json{};
};

answer ask(tessera::inspector::service &service, const std::string &method, const std::string &target,
           const std::string &body = {}) {
    tessera::inspector::request req{};
    req.method = method;
    req.target = target;
    req.body = body;
    const auto res = service.handle(req);
    return {res.status, nlohmann::json::parse(res.body)};
}

nlohmann::json value_of(tessera::inspector::service &service, const tessera::entity entt, const std::string &name) {
    return ask(service, "GET", "/api/entities/" + std::to_string(tessera::to_integral(entt)) + "/components/" + name)
        .json["value"];
}

std::string component_path(const tessera::entity entt, const std::string &name) {
    return "/api/entities/" + std::to_string(tessera::to_integral(entt)) + "/components/" + name;
}

TEST(InspectorComponents, DefaultNamesDropNamespaces) {
    EXPECT_EQ(tessera::inspector::default_name<stats>(), "stats");
    EXPECT_EQ(tessera::inspector::default_name<int>(), "int");
    EXPECT_EQ(tessera::inspector::default_name<std::string>(), "basic_string<char>");
    // the argument keeps its namespaces (the test's own enclosing ones vary with how it is compiled)
    const auto wrapped = tessera::inspector::default_name<wrapper<stats>>();
    EXPECT_TRUE(wrapped.starts_with("wrapper<") && wrapped.ends_with("::inspector_values::stats>")) << wrapped;
    EXPECT_EQ(tessera::inspector::default_name<std::vector<wrapper<int>>>().rfind("vector<", 0u), 0u);
}

TEST(InspectorComponents, RegistrationMisuseIsCaught) {
    tessera::registry registry{};
    tessera::inspector::service service{registry, {}};
    service.component<stats>();

    EXPECT_THROW(service.component<profile>("stats"), tessera_test::assert_failure);
    EXPECT_THROW(service.component<stats>("other"), tessera_test::assert_failure);
    EXPECT_THROW(service.component<profile>(""), tessera_test::assert_failure);
    EXPECT_THROW(service.component<profile>("a,b"), tessera_test::assert_failure);
    // a label for a pool registered with another type
    EXPECT_THROW(service.label<profile>(tessera::type_hash<stats>::value()), tessera_test::assert_failure);
    service.component<profile>("person");
    EXPECT_NO_THROW(service.label<profile>());
}

TEST(InspectorComponents, ValuesOfEveryKind) {
    tessera::registry registry{};
    const auto other = registry.create();
    const auto entt = registry.create();
    registry.emplace<profile>(entt, "ada", mood::angry, std::nullopt, std::vector<int>{1, 2},
                              std::array<float, 2>{0.5f, 1.f}, stats{3u, -2, true}, other);
    registry.emplace<handle_holder>(entt, std::make_shared<int>(1), 4);
    registry.emplace<celsius>(entt, 21.5);
    registry.emplace<unique_slot>(entt);
    registry.emplace<empty_tag>(entt);
    tessera::inspector::service service{registry, {}};
    service.component<profile>().component<handle_holder>().component<celsius>().component<unique_slot>();
    service.component<empty_tag>();

    const auto shown = value_of(service, entt, "profile");
    EXPECT_EQ(shown["name"], "ada");
    EXPECT_EQ(shown["feeling"], "angry");
    EXPECT_TRUE(shown["bonus"].is_null());
    EXPECT_EQ(shown["items"], (nlohmann::json{1, 2}));
    EXPECT_EQ(shown["aim"], (nlohmann::json{0.5, 1.0}));
    EXPECT_EQ(shown["numbers"], (nlohmann::json{{"level", 3}, {"luck", -2}, {"alive", true}}));
    EXPECT_EQ(shown["friend_of"], (nlohmann::json{{"index", tessera::to_entity(other)}, {"version", 0}}));

    const auto one = ask(service, "GET", component_path(entt, "profile")).json;
    EXPECT_EQ(one["fields"], (nlohmann::json{"name", "feeling", "bonus", "items", "aim", "numbers", "friend_of"}));
    EXPECT_EQ(one["editable"], true);

    const auto holder = value_of(service, entt, "handle_holder");
    EXPECT_EQ(holder["count"], 4);
    EXPECT_EQ(holder["resource"]["size"], sizeof(std::shared_ptr<int>));
    EXPECT_TRUE(holder["resource"]["opaque"].is_string());
    EXPECT_EQ(value_of(service, entt, "celsius"), "21.500000 C");
    EXPECT_EQ(value_of(service, entt, "empty_tag"), nlohmann::json::object());
    EXPECT_EQ(ask(service, "GET", component_path(entt, "unique_slot")).json["editable"], false);
}

TEST(InspectorComponents, WritesOfEveryKind) {
    tessera::registry registry{};
    const auto other = registry.create();
    const auto entt = registry.create();
    registry.emplace<profile>(entt, "ada", mood::angry, std::nullopt, std::vector<int>{1, 2},
                              std::array<float, 2>{0.5f, 1.f}, stats{3u, -2, true}, tessera::entity{tessera::null});
    registry.emplace<handle_holder>(entt, std::make_shared<int>(1), 4);
    registry.emplace<celsius>(entt, 21.5);
    tessera::inspector::service service{registry, {}};
    service.component<profile>().component<handle_holder>().component<celsius>();

    auto value = value_of(service, entt, "profile");
    value["name"] = "grace";
    value["feeling"] = "asleep";
    value["bonus"] = 7;
    value["items"] = {4, 5, 6};
    value["aim"] = {2.0, 3.0};
    value["numbers"]["level"] = 65535;
    value["friend_of"] = {{"index", tessera::to_entity(other)}, {"version", tessera::to_version(other)}};
    const auto written = ask(service, "PUT", component_path(entt, "profile"), value.dump());
    ASSERT_EQ(written.status, 200) << written.json.dump();

    const auto &result = registry.get<profile>(entt);
    EXPECT_EQ(result.name, "grace");
    EXPECT_EQ(result.feeling, mood::asleep);
    EXPECT_EQ(result.bonus, 7);
    EXPECT_EQ(result.items, (std::vector<int>{4, 5, 6}));
    EXPECT_EQ(result.aim[1], 3.f);
    EXPECT_EQ(result.numbers.level, 65535u);
    EXPECT_EQ(result.friend_of, other);
    EXPECT_EQ(written.json["value"]["name"], "grace");

    // the opaque part is kept as it is
    const auto *resource = registry.get<handle_holder>(entt).resource.get();
    auto holder = value_of(service, entt, "handle_holder");
    holder["count"] = 9;
    ASSERT_EQ(ask(service, "PUT", component_path(entt, "handle_holder"), holder.dump()).status, 200);
    EXPECT_EQ(registry.get<handle_holder>(entt).count, 9);
    EXPECT_EQ(registry.get<handle_holder>(entt).resource.get(), resource);

    // the type's own from_json
    ASSERT_EQ(ask(service, "PUT", component_path(entt, "celsius"), "\"-4.5 C\"").status, 200);
    EXPECT_EQ(registry.get<celsius>(entt).degrees, -4.5);
}

TEST(InspectorComponents, RefusedValuesNameTheFieldAndChangeNothing) {
    tessera::registry registry{};
    const auto entt = registry.create();
    registry.emplace<profile>(entt, "ada", mood::angry, std::nullopt, std::vector<int>{1, 2},
                              std::array<float, 2>{0.5f, 1.f}, stats{3u, -2, true}, tessera::entity{tessera::null});
    registry.emplace<celsius>(entt, 21.5);
    int updates{};
    registry.on_update<profile>().connect<&count_signal>(updates);
    tessera::inspector::service service{registry, {}};
    service.component<profile>().component<celsius>();
    const auto valid = value_of(service, entt, "profile");

    const auto refuse = [&](const std::string &pointer, const nlohmann::json &replacement, const std::string &field) {
        auto body = valid;
        body[nlohmann::json::json_pointer{pointer}] = replacement;
        const auto result = ask(service, "PUT", component_path(entt, "profile"), body.dump());
        EXPECT_EQ(result.status, 422) << pointer << " = " << replacement.dump();
        EXPECT_EQ(result.json["field"], field) << result.json.dump();
        EXPECT_EQ(result.json["error"].get<std::string>().rfind("profile." + field.substr(5u), 0u), 0u)
            << result.json.dump();
    };

    refuse("/feeling", "sad", "body.feeling");
    refuse("/numbers/level", 70000, "body.numbers.level");
    refuse("/numbers/luck", -129, "body.numbers.luck");
    refuse("/numbers/alive", 1, "body.numbers.alive");
    refuse("/items/1", "two", "body.items[1]");
    refuse("/aim", nlohmann::json{1, 2, 3}, "body.aim");
    refuse("/name", 5, "body.name");
    refuse("/bonus", 2.5, "body.bonus");
    refuse("/friend_of", "someone", "body.friend_of");

    auto extra = valid;
    extra["unknown"] = 1;
    EXPECT_EQ(ask(service, "PUT", component_path(entt, "profile"), extra.dump()).json["field"], "body.unknown");
    auto missing = valid;
    missing.erase("name");
    EXPECT_EQ(ask(service, "PUT", component_path(entt, "profile"), missing.dump()).json["field"], "body.name");
    EXPECT_EQ(ask(service, "PUT", component_path(entt, "profile"), "42").json["field"], "body");
    // what the type's own from_json throws is a refusal too
    EXPECT_EQ(ask(service, "PUT", component_path(entt, "celsius"), "\"warm\"").status, 422);
    EXPECT_EQ(registry.get<celsius>(entt).degrees, 21.5);

    EXPECT_EQ(value_of(service, entt, "profile"), valid);
    EXPECT_EQ(updates, 0);
}

TEST(InspectorComponents, NamedPoolsAreShownByTheirOwnNames) {
    using namespace tessera::literals;
    tessera::registry registry{};
    const auto entt = registry.create();
    registry.storage<stats>("home"_hs).emplace(entt, stats{1u, 1, true});
    registry.storage<stats>("away"_hs).emplace(entt, stats{2u, 2, false});
    tessera::inspector::service service{registry, {}};
    service.component<stats>("home stats", "home"_hs);

    const auto entity = ask(service, "GET", "/api/entities/" + std::to_string(tessera::to_integral(entt))).json;
    std::vector<std::string> names{};

    for (const auto &item : entity["components"]) {
        names.push_back(item["name"]);
    }

    ASSERT_EQ(names.size(), 2u);
    EXPECT_NE(std::find(names.begin(), names.end(), "home stats"), names.end());
    // the other pool of the same type: opaque, under its type and the hash of its name
    const auto away = std::find_if(names.begin(), names.end(), [](const auto &name) { return name != "home stats"; });
    EXPECT_NE(away->find("stats@0x"), std::string::npos);

    ASSERT_EQ(
        ask(service, "PUT", component_path(entt, "home%20stats"), R"({"level": 9, "luck": 0, "alive": false})").status,
        200);
    EXPECT_EQ(registry.storage<stats>("home"_hs).get(entt).level, 9u);
    EXPECT_EQ(registry.storage<stats>("away"_hs).get(entt).level, 2u);
}

} // namespace

} // namespace unit_inspector_components
} // namespace
