// The inspector's server through an HTTP client on the loopback: every route, every refusal (bad input, token,
// read-only mode, Host and Origin, body cap), paging at the edges, a world of 10^5 entities, the page's files, and
// what happens when the program stops polling or the server goes away.
#include "support.hpp"
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <future>
#include <gtest/gtest.h>
#include <memory>
#include <stdexcept>
#include <string>
#include <tessera/entity/registry.hpp>
#include <tessera/inspector/inspector.hpp>
#include <thread>
#include <vector>

namespace {
namespace unit_inspector_server {

namespace {

using namespace inspector_test;

void count_signal(int &count, tessera::registry &, const tessera::entity) { ++count; }

class InspectorServer : public ::testing::Test {
protected:
    /// count entities: every one has a position, one in two a velocity, one in three a health, one in five is
    /// frozen, one in seven has a secret (never registered); entity 0 is named "first".
    void populate(const std::size_t count) {
        for (std::size_t pos{}; pos < count; ++pos) {
            const auto entt = registry.create();
            const auto value = static_cast<float>(pos);
            registry.emplace<position>(entt, value, -value);

            if (pos % 2u == 0u) {
                registry.emplace<velocity>(entt, 1.f, 2.f);
            }

            if (pos % 3u == 0u) {
                registry.emplace<health>(entt, static_cast<int>(pos));
            }

            if (pos % 5u == 0u) {
                registry.emplace<frozen>(entt);
            }

            if (pos % 7u == 0u) {
                registry.emplace<secret>(entt, 42);
            }

            entities.push_back(entt);
        }

        registry.emplace<name_tag>(entities.front(), "first");
    }

    /// A server on a free port of the loopback that shows every type but secret.
    std::unique_ptr<tessera::inspector::server> serve(tessera::inspector::options settings = {}) {
        auto server = std::make_unique<tessera::inspector::server>(registry, std::move(settings));
        server->component<position>().component<velocity>().component<health>().component<frozen>();
        server->component<score>().component<anchor>();
        server->label<name_tag>();
        return server;
    }

    tessera::registry registry{};
    std::vector<tessera::entity> entities{};
};

TEST_F(InspectorServer, WorldReportsCountsTickFramesAndPools) {
    populate(10u);
    registry.advance_tick(4u);
    auto server = serve();
    server->poll();
    server->poll();
    const auto answer = get(*server, "/api/world");

    ASSERT_EQ(answer.status, 200) << answer.body;
    EXPECT_EQ(answer.json["entities"], 10u);
    EXPECT_EQ(answer.json["tick"], registry.tick());
    EXPECT_GE(answer.json["frames"].get<std::uint64_t>(), 2u);
    EXPECT_EQ(answer.json["read_only"], false);
    EXPECT_EQ(answer.json["label"], "name_tag");
    EXPECT_EQ(answer.json["version"], TESSERA_VERSION);
    EXPECT_GT(answer.json["bytes"].get<std::size_t>(), 0u);

    std::vector<std::string> names{};

    for (const auto &pool : answer.json["pools"]) {
        names.push_back(pool["name"]);
    }

    // registered types by their names, the others by type name
    EXPECT_NE(std::find(names.begin(), names.end(), "position"), names.end());
    EXPECT_NE(std::find(names.begin(), names.end(), "inspector_test::secret"), names.end());
    EXPECT_EQ(answer.header("Content-Type"), "application/json");
}

TEST_F(InspectorServer, PoolsHaveSizesDisabledCountsAndBytes) {
    populate(20u);
    registry.disable<position>(entities[3]);
    registry.disable<position>(entities[4]);
    auto server = serve();
    const auto answer = get(*server, "/api/pools");

    ASSERT_EQ(answer.status, 200) << answer.body;
    bool seen_position{};
    bool seen_secret{};

    for (const auto &pool : answer.json["pools"]) {
        if (pool["name"] == "position") {
            seen_position = true;
            EXPECT_EQ(pool["size"], 20u);
            EXPECT_EQ(pool["disabled"], 2u);
            EXPECT_EQ(pool["element_size"], sizeof(position));
            EXPECT_EQ(pool["registered"], true);
            EXPECT_GE(pool["bytes"].get<std::size_t>(), 20u * sizeof(position));
        }

        if (pool["name"] == "inspector_test::secret") {
            seen_secret = true;
            EXPECT_EQ(pool["registered"], false);
            EXPECT_EQ(pool["size"], 3u);
            EXPECT_EQ(pool["element_size"], sizeof(secret));
        }
    }

    EXPECT_TRUE(seen_position);
    EXPECT_TRUE(seen_secret);
    EXPECT_EQ(answer.json["entities"]["live"], 20u);
}

TEST_F(InspectorServer, ComponentsListsTheRegisteredTypes) {
    auto server = serve();
    const auto answer = get(*server, "/api/components");

    ASSERT_EQ(answer.status, 200) << answer.body;
    ASSERT_EQ(answer.json["components"].size(), 7u);
    const auto &first = answer.json["components"][0];
    EXPECT_EQ(first["name"], "position");
    EXPECT_EQ(first["editable"], true);
    EXPECT_EQ(first["tracked"], false);
    EXPECT_EQ(answer.json["components"][4]["name"], "score");
    EXPECT_EQ(answer.json["components"][4]["tracked"], true);
    EXPECT_EQ(answer.json["components"][5]["can_disable"], false);
    EXPECT_EQ(answer.json["components"][6]["label"], true);
}

TEST_F(InspectorServer, EntityPagesAtTheEdges) {
    populate(250u);
    auto server = serve();

    const auto first = get(*server, "/api/entities");
    ASSERT_EQ(first.status, 200) << first.body;
    EXPECT_EQ(first.json["total"], 250u);
    ASSERT_EQ(first.json["entities"].size(), 100u);
    EXPECT_EQ(first.json["entities"][0]["id"], tessera::to_integral(entities[0]));
    EXPECT_EQ(first.json["entities"][0]["label"], "first");
    EXPECT_EQ(first.json["entities"][99]["id"], tessera::to_integral(entities[99]));

    const auto last = get(*server, "/api/entities?offset=200&limit=100");
    ASSERT_EQ(last.json["entities"].size(), 50u);
    EXPECT_EQ(last.json["entities"][49]["id"], tessera::to_integral(entities[249]));

    const auto boundary = get(*server, "/api/entities?offset=249&limit=1");
    ASSERT_EQ(boundary.json["entities"].size(), 1u);
    EXPECT_EQ(boundary.json["entities"][0]["index"], tessera::to_entity(entities[249]));

    EXPECT_EQ(get(*server, "/api/entities?offset=250").json["entities"].size(), 0u);
    const auto past = get(*server, "/api/entities?offset=4000000000");
    EXPECT_EQ(past.status, 200);
    EXPECT_EQ(past.json["entities"].size(), 0u);
    EXPECT_EQ(past.json["total"], 250u);

    const auto none = get(*server, "/api/entities?limit=0");
    EXPECT_EQ(none.json["entities"].size(), 0u);
    EXPECT_EQ(none.json["total"], 250u);
    EXPECT_EQ(get(*server, "/api/entities?limit=1000").json["entities"].size(), 250u);
}

TEST_F(InspectorServer, EntityPageRowsNameTheirComponents) {
    populate(8u);
    auto server = serve();
    const auto answer = get(*server, "/api/entities?limit=8");

    ASSERT_EQ(answer.status, 200) << answer.body;
    const auto &row = answer.json["entities"][0];
    EXPECT_EQ(row["components"],
              (nlohmann::json{"position", "velocity", "health", "frozen", "inspector_test::secret", "name_tag"}));
    EXPECT_EQ(row["enabled"], true);
    EXPECT_EQ(row["version"], 0u);
    EXPECT_FALSE(answer.json["entities"][1].contains("label"));
    EXPECT_EQ(answer.json["entities"][1]["components"], (nlohmann::json{"position"}));
}

TEST_F(InspectorServer, BadPagingParametersAreRefusedByName) {
    populate(3u);
    auto server = serve();

    for (const auto &[target, field] :
         std::vector<std::pair<std::string, std::string>>{{"/api/entities?limit=1001", "limit"},
                                                          {"/api/entities?limit=-1", "limit"},
                                                          {"/api/entities?offset=abc", "offset"},
                                                          {"/api/entities?offset=1e3", "offset"},
                                                          {"/api/entities?offset=", "offset"},
                                                          {"/api/entities?offset=99999999999", "offset"},
                                                          {"/api/entities?ofset=3", "ofset"},
                                                          {"/api/entities?with=nothing", "with"},
                                                          {"/api/entities?with=position,,velocity", "with"},
                                                          {"/api/entities?without=%zz", "without"},
                                                          {"/api/world?x=1", "x"}}) {
        const auto answer = get(*server, target);
        EXPECT_EQ(answer.status, 400) << target;
        EXPECT_EQ(answer.json["field"], field) << target;
        EXPECT_NE(answer.json["error"].get<std::string>().find(field), std::string::npos) << answer.body;
    }
}

TEST_F(InspectorServer, EntitiesFilterByComponents) {
    populate(30u);
    auto server = serve();

    EXPECT_EQ(get(*server, "/api/entities?with=position").json["total"], 30u);
    EXPECT_EQ(get(*server, "/api/entities?with=velocity").json["total"], 15u);
    EXPECT_EQ(get(*server, "/api/entities?with=velocity,health").json["total"], 5u);
    EXPECT_EQ(get(*server, "/api/entities?without=velocity").json["total"], 15u);
    EXPECT_EQ(get(*server, "/api/entities?with=health&without=velocity").json["total"], 5u);
    EXPECT_EQ(get(*server, "/api/entities?with=frozen").json["total"], 6u);
    // a pool nobody registered, by its type name
    EXPECT_EQ(get(*server, "/api/entities?with=inspector_test::secret").json["total"], 5u);
    // registered, but no entity has one (its pool does not exist yet): nothing, and the pool is not created
    EXPECT_EQ(get(*server, "/api/entities?with=score").json["total"], 0u);
    EXPECT_EQ(get(*server, "/api/entities?without=score").json["total"], 30u);
    EXPECT_EQ(registry.storage(tessera::type_hash<score>::value()), nullptr);

    const auto page = get(*server, "/api/entities?with=velocity,health&offset=1&limit=2");
    ASSERT_EQ(page.json["entities"].size(), 2u);

    for (const auto &row : page.json["entities"]) {
        const auto entt = tessera::entity{row["id"].get<std::uint32_t>()};
        EXPECT_TRUE((registry.all_of<velocity, health>(entt)));
    }

    // an in-place pool with a hole walks its positions instead of indexing them
    registry.emplace<anchor>(entities[1], 1);
    registry.emplace<anchor>(entities[2], 2);
    registry.emplace<anchor>(entities[3], 3);
    registry.remove<anchor>(entities[2]);
    const auto anchors = get(*server, "/api/entities?with=anchor");
    EXPECT_EQ(anchors.json["total"], 2u);
    ASSERT_EQ(anchors.json["entities"].size(), 2u);
}

TEST_F(InspectorServer, FiltersCountDisabledComponentsAndEntities) {
    populate(10u);
    registry.disable<velocity>(entities[0]);
    registry.disable(entities[2]);
    auto server = serve();

    EXPECT_EQ(get(*server, "/api/entities?with=velocity").json["total"], 5u);
    EXPECT_EQ(get(*server, "/api/entities?with=velocity,position").json["total"], 5u);
    // filters go by presence: a disabled velocity is a velocity
    const auto without = get(*server, "/api/entities?without=velocity&limit=10");
    EXPECT_EQ(without.json["total"], 5u);

    for (const auto &row : without.json["entities"]) {
        EXPECT_NE(row["id"], tessera::to_integral(entities[0]));
    }

    EXPECT_EQ(get(*server, "/api/entities?with=position&without=velocity").json["total"], 5u);
    const auto row = get(*server, "/api/entities?limit=3").json["entities"][2];
    EXPECT_EQ(row["enabled"], false);
    // the mark of disabled entities is not a component of theirs
    EXPECT_EQ(row["components"], (nlohmann::json{"position", "velocity"}));
}

TEST_F(InspectorServer, OneEntityShowsItsValuesOpaqueTypesAndStates) {
    populate(10u);
    registry.disable<health>(entities[0]);
    auto server = serve();
    const auto answer = get(*server, "/api/entities/" + id_of(entities[0]));

    ASSERT_EQ(answer.status, 200) << answer.body;
    EXPECT_EQ(answer.json["id"], tessera::to_integral(entities[0]));
    EXPECT_EQ(answer.json["label"], "first");
    EXPECT_EQ(answer.json["enabled"], true);

    nlohmann::json by_name{};

    for (const auto &item : answer.json["components"]) {
        by_name[item["name"].get<std::string>()] = item;
    }

    EXPECT_EQ(by_name["position"]["value"], (nlohmann::json{{"x", 0.0}, {"y", -0.0}}));
    EXPECT_EQ(by_name["position"]["enabled"], true);
    EXPECT_EQ(by_name["position"]["editable"], true);
    EXPECT_EQ(by_name["health"]["value"], (nlohmann::json{{"points", 0}}));
    EXPECT_EQ(by_name["health"]["enabled"], false);
    EXPECT_EQ(by_name["frozen"]["value"], nlohmann::json::object());
    EXPECT_EQ(by_name["frozen"]["editable"], false);
    EXPECT_EQ(by_name["name_tag"]["value"], (nlohmann::json{{"value", "first"}}));
    const auto &opaque = by_name["inspector_test::secret"];
    EXPECT_EQ(opaque["opaque"], true);
    EXPECT_EQ(opaque["size"], sizeof(secret));
    EXPECT_FALSE(opaque.contains("value"));

    const auto one = get(*server, "/api/entities/" + id_of(entities[0]) + "/components/position");
    ASSERT_EQ(one.status, 200) << one.body;
    EXPECT_EQ(one.json["value"]["x"], 0.0);
}

TEST_F(InspectorServer, UnknownOrMalformedEntitiesAreRefused) {
    populate(3u);
    const auto gone = entities[1];
    registry.destroy(gone);
    auto server = serve();

    const auto unknown = get(*server, "/api/entities/" + id_of(gone));
    EXPECT_EQ(unknown.status, 404);
    EXPECT_EQ(unknown.json["field"], "id");
    EXPECT_EQ(get(*server, "/api/entities/999999").status, 404);
    EXPECT_EQ(get(*server, "/api/entities/abc").json["field"], "id");
    EXPECT_EQ(get(*server, "/api/entities/abc").status, 400);
    EXPECT_EQ(get(*server, "/api/entities/-1").status, 400);
    EXPECT_EQ(get(*server, "/api/entities/4294967296").status, 400);
    EXPECT_EQ(get(*server, "/api/entities/1?x=2").json["field"], "x");
    EXPECT_EQ(get(*server, "/api/entities/" + id_of(entities[0]) + "/components/nothing").status, 404);
    EXPECT_EQ(get(*server, "/api/entities/" + id_of(entities[2]) + "/components/health").status, 404);
}

TEST_F(InspectorServer, WritingAComponentReplacesItWithItsSignals) {
    populate(4u);
    int updates{};
    registry.on_update<position>().connect<&count_signal>(updates);
    auto server = serve();
    const auto target = "/api/entities/" + id_of(entities[2]) + "/components/position";

    const auto answer = put(*server, target, R"({"x": 12.5, "y": -3})");
    ASSERT_EQ(answer.status, 200) << answer.body;
    EXPECT_EQ(answer.json["value"], (nlohmann::json{{"x", 12.5}, {"y", -3.0}}));
    EXPECT_EQ(registry.get<position>(entities[2]).x, 12.5f);
    EXPECT_EQ(registry.get<position>(entities[2]).y, -3.f);
    EXPECT_EQ(updates, 1);
}

TEST_F(InspectorServer, BadWritesChangeNothing) {
    populate(4u);
    int updates{};
    registry.on_update<position>().connect<&count_signal>(updates);
    registry.on_update<health>().connect<&count_signal>(updates);
    auto server = serve();
    const auto base = "/api/entities/" + id_of(entities[0]) + "/components/";

    struct bad_write {
        std::string target;
        std::string body;
        int status;
        std::string field;
    };

    for (const auto &[target, body, status, field] : std::vector<bad_write>{
             {base + "position", "{\"x\": 1", 400, "body"},
             {base + "position", "", 400, "body"},
             {base + "position", R"({"x": "left", "y": 1})", 422, "body.x"},
             {base + "position", R"([1, 2])", 422, "body"},
             {base + "health", R"({"points": 1e20})", 422, "body.points"},
             {base + "health", R"({"points": 2.5})", 422, "body.points"},
             {base + "nothing", R"({})", 404, "name"},
             {base + "inspector_test::secret", R"({"code": 1})", 400, "name"},
             {base + "frozen", R"({})", 400, "name"},
             {"/api/entities/" + id_of(entities[1]) + "/components/health", R"({"points": 1})", 404, "name"},
             {"/api/entities/123456/components/position", R"({"x": 1, "y": 1})", 404, "id"}}) {
        const auto answer = put(*server, target, body);
        EXPECT_EQ(answer.status, status) << target << " " << body << " -> " << answer.body;
        EXPECT_EQ(answer.json["field"], field) << target << " " << body << " -> " << answer.body;
    }

    EXPECT_EQ(registry.get<position>(entities[0]).x, 0.f);
    EXPECT_EQ(registry.get<health>(entities[0]).points, 0);
    EXPECT_EQ(updates, 0);
}

TEST_F(InspectorServer, EnablingAndDisablingEntitiesAndComponents) {
    populate(6u);
    registry.emplace<anchor>(entities[1], 7);
    auto server = serve();
    const auto entity0 = "/api/entities/" + id_of(entities[0]);

    auto answer = put(*server, entity0 + "/components/velocity/enabled", "false");
    ASSERT_EQ(answer.status, 200) << answer.body;
    EXPECT_EQ(answer.json["enabled"], false);
    EXPECT_FALSE(registry.enabled<velocity>(entities[0]));
    EXPECT_TRUE(registry.all_of<velocity>(entities[0]));

    EXPECT_EQ(put(*server, entity0 + "/components/velocity/enabled", "true").json["enabled"], true);
    EXPECT_TRUE(registry.enabled<velocity>(entities[0]));

    // an opaque pool can be switched too: the sparse set does it
    EXPECT_EQ(put(*server, entity0 + "/components/inspector_test::secret/enabled", "false").status, 200);
    EXPECT_FALSE(registry.enabled<secret>(entities[0]));

    answer = put(*server, entity0 + "/enabled", "false");
    ASSERT_EQ(answer.status, 200) << answer.body;
    EXPECT_EQ(answer.json["enabled"], false);
    EXPECT_FALSE(registry.enabled(entities[0]));
    EXPECT_TRUE(put(*server, entity0 + "/enabled", "true").json["enabled"]);
    EXPECT_TRUE(registry.enabled(entities[0]));
    EXPECT_TRUE(registry.enabled<position>(entities[0]));

    // in-place storages cannot disable: refused before anything changes
    const auto entity1 = "/api/entities/" + id_of(entities[1]);
    answer = put(*server, entity1 + "/enabled", "false");
    EXPECT_EQ(answer.status, 409) << answer.body;
    EXPECT_TRUE(registry.enabled(entities[1]));
    EXPECT_TRUE(registry.enabled<position>(entities[1]));
    EXPECT_EQ(put(*server, entity1 + "/components/anchor/enabled", "false").status, 409);

    for (const auto &[body, status] : std::vector<std::pair<std::string, int>>{
             {"", 400}, {"yes", 400}, {"1", 422}, {"\"false\"", 422}, {"{\"enabled\": false}", 422}}) {
        answer = put(*server, entity0 + "/enabled", body);
        EXPECT_EQ(answer.status, status) << body;
        EXPECT_EQ(answer.json["field"], "body") << body;
        answer = put(*server, entity0 + "/components/position/enabled", body);
        EXPECT_EQ(answer.status, status) << body;
    }

    EXPECT_TRUE(registry.enabled(entities[0]));
    EXPECT_TRUE(registry.enabled<position>(entities[0]));
    EXPECT_EQ(put(*server, entity0 + "/components/nothing/enabled", "true").status, 404);
    EXPECT_EQ(put(*server, entity1 + "/components/velocity/enabled", "true").status, 404);
}

TEST_F(InspectorServer, DeletingAnEntityDestroysIt) {
    populate(3u);
    int destroyed{};
    registry.on_destroy<position>().connect<&count_signal>(destroyed);
    auto server = serve();
    const auto target = "/api/entities/" + id_of(entities[1]);

    const auto answer = call(*server, "DELETE", target);
    ASSERT_EQ(answer.status, 200) << answer.body;
    EXPECT_EQ(answer.json["destroyed"], true);
    EXPECT_FALSE(registry.valid(entities[1]));
    EXPECT_EQ(destroyed, 1);
    EXPECT_EQ(call(*server, "DELETE", target).status, 404);
}

TEST_F(InspectorServer, UnknownRoutesAndMethods) {
    populate(2u);
    auto server = serve();
    const auto entity0 = "/api/entities/" + id_of(entities[0]);

    EXPECT_EQ(get(*server, "/api").status, 404);
    EXPECT_EQ(get(*server, "/api/").status, 404);
    EXPECT_EQ(get(*server, "/api/nothing").status, 404);
    EXPECT_EQ(get(*server, "/api/world/extra").status, 404);
    EXPECT_EQ(get(*server, entity0 + "/components").status, 404);
    EXPECT_EQ(get(*server, "/api/entities//components/position").status, 400);

    for (const auto &[method, target] :
         std::vector<std::pair<std::string, std::string>>{{"PUT", "/api/world"},
                                                          {"DELETE", "/api/pools"},
                                                          {"POST", "/api/entities"},
                                                          {"PUT", entity0},
                                                          {"GET", entity0 + "/enabled"},
                                                          {"PATCH", entity0 + "/components/position"},
                                                          {"DELETE", "/api/systems"},
                                                          {"PUT", "/api/changes"},
                                                          {"GET", entity0 + "/components/position/enabled"}}) {
        const auto answer = call(*server, method, target, "true");
        EXPECT_EQ(answer.status, 405) << method << " " << target << " -> " << answer.body;
        EXPECT_EQ(answer.json["field"], "method");
    }

    EXPECT_TRUE(registry.valid(entities[0]));
}

TEST_F(InspectorServer, SystemsReportTheLastFrames) {
    auto server = serve();
    auto &timings = server->timings();

    for (int frame{}; frame < 310; ++frame) {
        timings.record("movement", 1.5);
        timings.record("render", 0.25);
        timings.end_frame(2.0 + frame % 2);
    }

    const auto answer = get(*server, "/api/systems");
    ASSERT_EQ(answer.status, 200) << answer.body;
    EXPECT_EQ(answer.json["frames"], 310u);
    EXPECT_EQ(answer.json["first"], 10u);
    EXPECT_EQ(answer.json["history"], 300u);
    ASSERT_EQ(answer.json["frame_ms"].size(), 300u);
    EXPECT_EQ(answer.json["frame_ms"][0], 2.0);
    EXPECT_EQ(answer.json["frame_ms"][299], 3.0);
    ASSERT_EQ(answer.json["tasks"].size(), 2u);
    EXPECT_EQ(answer.json["tasks"][0]["name"], "movement");
    EXPECT_NEAR(answer.json["tasks"][0]["mean"].get<double>(), 1.5, 1e-9);
    EXPECT_NEAR(answer.json["tasks"][1]["last"].get<double>(), 0.25, 1e-9);
}

TEST_F(InspectorServer, ChangesListWhatChangedSinceATick) {
    populate(10u);

    for (std::size_t pos{}; pos < 6u; ++pos) {
        registry.emplace<score>(entities[pos], 0);
    }

    const auto before = registry.tick();
    registry.advance_tick();
    registry.patch<score>(entities[1], [](score &value) { value.value = 5; });
    registry.replace<score>(entities[4], 9);
    registry.emplace<score>(entities[8], 1);
    auto server = serve();

    const auto answer = get(*server, "/api/changes?component=score&since=" + std::to_string(before));
    ASSERT_EQ(answer.status, 200) << answer.body;
    EXPECT_EQ(answer.json["total"], 3u);
    EXPECT_EQ(answer.json["tick"], registry.tick());
    std::vector<std::pair<std::uint32_t, bool>> seen{};

    for (const auto &row : answer.json["entities"]) {
        seen.emplace_back(row["id"].get<std::uint32_t>(), row["added"].get<bool>());
    }

    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(seen, (std::vector<std::pair<std::uint32_t, bool>>{{tessera::to_integral(entities[1]), false},
                                                                 {tessera::to_integral(entities[4]), false},
                                                                 {tessera::to_integral(entities[8]), true}}));

    EXPECT_EQ(get(*server, "/api/changes?component=score&since=" + std::to_string(registry.tick())).json["total"], 0u);
    EXPECT_EQ(get(*server, "/api/changes?component=score&since=0").json["total"], 7u);
    EXPECT_EQ(get(*server, "/api/changes?component=score&since=0&offset=5&limit=10").json["entities"].size(), 2u);

    for (const auto &[target, field] :
         std::vector<std::pair<std::string, std::string>>{{"/api/changes?since=1", "component"},
                                                          {"/api/changes?component=&since=1", "component"},
                                                          {"/api/changes?component=nothing&since=1", "component"},
                                                          {"/api/changes?component=position&since=1", "component"},
                                                          {"/api/changes?component=score", "since"},
                                                          {"/api/changes?component=score&since=-4", "since"},
                                                          {"/api/changes?component=score&since=4294967296", "since"},
                                                          {"/api/changes?component=score&since=1&limit=5000", "limit"},
                                                          {"/api/changes?component=score&since=1&what=1", "what"}}) {
        const auto refused = get(*server, target);
        EXPECT_EQ(refused.status, 400) << target;
        EXPECT_EQ(refused.json["field"], field) << target;
    }
}

TEST_F(InspectorServer, ATokenIsRequiredWhenSet) {
    populate(2u);
    tessera::inspector::options settings{};
    settings.token = "s3cret-token";
    auto server = serve(settings);

    const auto missing = get(*server, "/api/world");
    EXPECT_EQ(missing.status, 401);
    EXPECT_EQ(missing.json["field"], "Authorization");
    EXPECT_EQ(get(*server, "/api/world", {{"Authorization", "Bearer wrong"}}).status, 403);
    EXPECT_EQ(get(*server, "/api/world", {{"Authorization", "Bearer s3cret-toke"}}).status, 403);
    EXPECT_EQ(get(*server, "/api/world", {{"Authorization", "Basic s3cret-token"}}).status, 403);
    EXPECT_EQ(get(*server, "/api/world", {{"Authorization", "Bearer s3cret-token"}}).status, 200);

    const auto target = "/api/entities/" + id_of(entities[0]);
    EXPECT_EQ(call(*server, "DELETE", target).status, 401);
    EXPECT_EQ(call(*server, "DELETE", target, {}, {{"Authorization", "Bearer nope"}}).status, 403);
    EXPECT_TRUE(registry.valid(entities[0]));
    EXPECT_EQ(call(*server, "DELETE", target, {}, {{"Authorization", "Bearer s3cret-token"}}).status, 200);
    EXPECT_FALSE(registry.valid(entities[0]));

    // the page holds no secret: it loads without the token, and asks for it
    EXPECT_EQ(get(*server, "/").status, 200);
}

TEST_F(InspectorServer, ReadOnlyRefusesEveryWrite) {
    populate(2u);
    tessera::inspector::options settings{};
    settings.read_only = true;
    auto server = serve(settings);
    const auto target = "/api/entities/" + id_of(entities[0]);

    EXPECT_EQ(get(*server, "/api/world").json["read_only"], true);
    EXPECT_EQ(get(*server, target).status, 200);

    for (const auto &[method, path, body] : std::vector<std::tuple<std::string, std::string, std::string>>{
             {"PUT", target + "/components/position", R"({"x": 5, "y": 5})"},
             {"PUT", target + "/enabled", "false"},
             {"PUT", target + "/components/position/enabled", "false"},
             {"DELETE", target, ""}}) {
        const auto answer = call(*server, method, path, body);
        EXPECT_EQ(answer.status, 403) << method << " " << path;
        EXPECT_EQ(answer.json["field"], "method");
    }

    EXPECT_TRUE(registry.valid(entities[0]));
    EXPECT_TRUE(registry.enabled(entities[0]));
    EXPECT_EQ(registry.get<position>(entities[0]).x, 0.f);
}

TEST_F(InspectorServer, RequestsForAnotherHostAreRefused) {
    populate(2u);
    auto server = serve();
    const auto port = std::to_string(server->port());

    for (const auto *host : {"evil.example", "evil.example:80", "127.0.0.1", "127.0.0.2:1", ""}) {
        const auto answer = get(*server, "/api/world", {{"Host", host}});
        EXPECT_EQ(answer.status, 403) << host;
        EXPECT_EQ(answer.json["field"], "Host") << host;
    }

    // the page too: a page elsewhere must not read it under a name of its own
    EXPECT_EQ(get(*server, "/", {{"Host", "evil.example:" + port}}).status, 403);
    EXPECT_EQ(get(*server, "/api/world", {{"Host", "localhost:" + port}}).status, 200);
    EXPECT_EQ(get(*server, "/api/world", {{"Host", "LOCALHOST:" + port}}).status, 200);
    EXPECT_EQ(get(*server, "/api/world", {{"Host", "127.0.0.1:" + port}}).status, 200);
}

TEST_F(InspectorServer, WritesFromAnotherOriginAreRefused) {
    populate(2u);
    auto server = serve();
    const auto port = std::to_string(server->port());
    const auto target = "/api/entities/" + id_of(entities[0]) + "/components/position";

    for (const auto *origin : {"http://evil.example", "null", "https://127.0.0.1:1", "http://127.0.0.1"}) {
        const auto answer = put(*server, target, R"({"x": 9, "y": 9})", {{"Origin", origin}});
        EXPECT_EQ(answer.status, 403) << origin;
        EXPECT_EQ(answer.json["field"], "Origin") << origin;
        EXPECT_EQ(call(*server, "DELETE", "/api/entities/" + id_of(entities[0]), {}, {{"Origin", origin}}).status, 403);
    }

    EXPECT_EQ(registry.get<position>(entities[0]).x, 0.f);
    EXPECT_TRUE(registry.valid(entities[0]));
    // reading carries no risk (a browser keeps the answer from another origin's page)
    EXPECT_EQ(get(*server, "/api/world", {{"Origin", "http://evil.example"}}).status, 200);
    // the page's own origin, and clients that send none, may write
    EXPECT_EQ(put(*server, target, R"({"x": 9, "y": 9})", {{"Origin", "http://127.0.0.1:" + port}}).status, 200);
    EXPECT_EQ(put(*server, target, R"({"x": 8, "y": 9})", {{"Origin", "http://localhost:" + port}}).status, 200);
    EXPECT_EQ(put(*server, target, R"({"x": 7, "y": 9})").status, 200);
    EXPECT_EQ(registry.get<position>(entities[0]).x, 7.f);
}

TEST_F(InspectorServer, BodiesOverTheCapAreRefused) {
    populate(1u);
    tessera::inspector::options settings{};
    settings.max_body = 1024u;
    auto server = serve(settings);
    const auto target = "/api/entities/" + id_of(entities[0]) + "/components/position";
    const std::string body = R"({"x": 5, "y": 5, "padding": ")" + std::string(2000u, 'a') + "\"}";

    const auto answer = put(*server, target, body);
    EXPECT_EQ(answer.status, 413);
    EXPECT_EQ(answer.json["field"], "body");
    EXPECT_EQ(registry.get<position>(entities[0]).x, 0.f);
    EXPECT_EQ(put(*server, target, R"({"x": 5, "y": 5})").status, 200);
}

TEST_F(InspectorServer, OtherAddressesNeedAToken) {
    tessera::inspector::options settings{};
    settings.address = "0.0.0.0";
    EXPECT_THROW(tessera::inspector::server(registry, settings), std::invalid_argument);

    settings.token = "t";
    settings.hosts = {"inspector.test:1"};
    tessera::inspector::server server{registry, settings};
    EXPECT_NE(server.port(), 0u);
    EXPECT_EQ(get(server, "/api/world", {{"Authorization", "Bearer t"}}).status, 403);
    EXPECT_EQ(get(server, "/api/world", {{"Authorization", "Bearer t"}, {"Host", "inspector.test:1"}}).status, 200);
    EXPECT_EQ(get(server, "/api/world", {{"Host", "inspector.test:1"}}).status, 401);
}

TEST_F(InspectorServer, ABusyPortIsReported) {
    auto first = serve();
    tessera::inspector::options settings{};
    settings.port = first->port();
    EXPECT_THROW(tessera::inspector::server(registry, settings), std::runtime_error);
    EXPECT_EQ(get(*first, "/api/world").status, 200);
}

TEST_F(InspectorServer, ThePageIsServedWithItsFiles) {
    auto server = serve();
    ASSERT_TRUE(server->has_page());
    EXPECT_EQ(server->url(), "http://127.0.0.1:" + std::to_string(server->port()) + "/");

    const auto index = get(*server, "/");
    ASSERT_EQ(index.status, 200);
    EXPECT_EQ(index.header("Content-Type"), "text/html; charset=utf-8");
    EXPECT_NE(index.body.find("inspector.js"), std::string::npos);
    EXPECT_NE(index.header("Content-Security-Policy").find("frame-ancestors 'none'"), std::string::npos);
    EXPECT_EQ(index.header("X-Frame-Options"), "DENY");
    EXPECT_EQ(get(*server, "/index.html").body, index.body);
    EXPECT_EQ(get(*server, "/?token=1").status, 200);
    EXPECT_EQ(get(*server, "/inspector.js").header("Content-Type"), "text/javascript; charset=utf-8");
    EXPECT_EQ(get(*server, "/inspector.css").status, 200);
    EXPECT_EQ(get(*server, "/nothing.js").status, 404);
    EXPECT_EQ(get(*server, "/../CMakeLists.txt").status, 404);
    EXPECT_EQ(call(*server, "PUT", "/", "x").status, 405);
}

TEST_F(InspectorServer, AMissingPageSaysWhereItWasLookedFor) {
    tessera::inspector::options settings{};
    settings.page_directory = "/nonexistent/inspector";
    tessera::inspector::server server{registry, settings};
    EXPECT_FALSE(server.has_page());
    const auto index = get(server, "/");
    EXPECT_EQ(index.status, 200);
    EXPECT_NE(index.body.find("/nonexistent/inspector"), std::string::npos);
    EXPECT_EQ(get(server, "/api/world").status, 200);
}

TEST_F(InspectorServer, RequestsWaitForPollAndGiveUpWithoutIt) {
    populate(2u);
    tessera::inspector::options settings{};
    settings.answer_timeout = std::chrono::milliseconds{200};
    auto server = serve(settings);
    httplib::Client client{"127.0.0.1", static_cast<int>(server->port())};

    // nobody polls: 503, and the request is dropped, never served later
    const auto answer = client.Delete("/api/entities/" + id_of(entities[0]));
    ASSERT_TRUE(answer);
    EXPECT_EQ(answer->status, 503);
    server->poll();
    EXPECT_TRUE(registry.valid(entities[0]));
}

TEST_F(InspectorServer, StoppingAnswersWhatIsQueued) {
    populate(2u);
    auto server = serve();
    httplib::Client client{"127.0.0.1", static_cast<int>(server->port())};
    auto pending = std::async(std::launch::async, [&client] { return client.Get("/api/world"); });
    std::this_thread::sleep_for(std::chrono::milliseconds{100});
    server.reset();
    const auto answer = pending.get();
    ASSERT_TRUE(answer);
    EXPECT_EQ(answer->status, 503);
}

TEST_F(InspectorServer, ConcurrentClientsAreAllAnswered) {
    populate(100u);
    auto server = serve();
    std::vector<std::future<int>> clients{};

    for (int client{}; client < 8; ++client) {
        clients.push_back(std::async(std::launch::async, [port = server->port(), client] {
            httplib::Client http{"127.0.0.1", static_cast<int>(port)};
            int ok{};

            for (int request{}; request < 10; ++request) {
                const auto answer = http.Get("/api/entities?offset=" + std::to_string(client * 10 + request));
                ok += answer && answer->status == 200;
            }

            return ok;
        }));
    }

    int total{};

    for (auto &client : clients) {
        while (client.wait_for(std::chrono::microseconds{200}) != std::future_status::ready) {
            server->poll();
        }

        total += client.get();
    }

    EXPECT_EQ(total, 80);
}

TEST_F(InspectorServer, KeptAliveClientsDoNotLockOthersOut) {
    // a browser tab keeps its connections open and asks every second: with as many of them as HTTP threads, a
    // newcomer must still be answered promptly
    populate(10u);
    tessera::inspector::options settings{};
    settings.threads = 2u;
    auto server = serve(settings);
    std::atomic<bool> done{};
    std::vector<std::future<int>> tabs{};

    for (int tab{}; tab < 2; ++tab) {
        tabs.push_back(std::async(std::launch::async, [port = server->port(), &done] {
            httplib::Client http{"127.0.0.1", static_cast<int>(port)};
            http.set_keep_alive(true);
            int ok{};

            while (!done.load()) {
                const auto answer = http.Get("/api/world");
                ok += answer && answer->status == 200;
                std::this_thread::sleep_for(std::chrono::milliseconds{50});
            }

            return ok;
        }));
    }

    const auto poll_for = [&server](const std::chrono::milliseconds span) {
        for (const auto end = std::chrono::steady_clock::now() + span; std::chrono::steady_clock::now() < end;) {
            server->poll();
            std::this_thread::sleep_for(std::chrono::microseconds{200});
        }
    };

    poll_for(std::chrono::milliseconds{200});
    const auto start = std::chrono::steady_clock::now();
    const auto answer = get(*server, "/api/world");
    const auto waited = std::chrono::steady_clock::now() - start;
    done = true;

    for (auto &tab : tabs) {
        while (tab.wait_for(std::chrono::microseconds{200}) != std::future_status::ready) {
            server->poll();
        }

        EXPECT_GT(tab.get(), 0);
    }

    EXPECT_EQ(answer.status, 200);
    EXPECT_LT(waited, std::chrono::milliseconds{1500});
}

TEST_F(InspectorServer, AHundredThousandEntities) {
    populate(100000u);
    auto server = serve();

    const auto world = get(*server, "/api/world");
    EXPECT_EQ(world.json["entities"], 100000u);

    const auto last = get(*server, "/api/entities?offset=99950&limit=100");
    ASSERT_EQ(last.status, 200);
    EXPECT_EQ(last.json["total"], 100000u);
    ASSERT_EQ(last.json["entities"].size(), 50u);
    EXPECT_EQ(last.json["entities"][49]["id"], tessera::to_integral(entities.back()));

    const auto moving = get(*server, "/api/entities?with=velocity,health&offset=16600&limit=1000");
    EXPECT_EQ(moving.json["total"], 16667u);
    EXPECT_EQ(moving.json["entities"].size(), 67u);
    EXPECT_EQ(get(*server, "/api/entities?without=velocity&limit=0").json["total"], 50000u);

    const auto one = get(*server, "/api/entities/" + id_of(entities[99999]));
    EXPECT_EQ(one.json["components"][0]["value"]["x"], 99999.0);
    EXPECT_EQ(
        put(*server, "/api/entities/" + id_of(entities[99999]) + "/components/position", R"({"x": 1, "y": 2})").status,
        200);
    EXPECT_EQ(registry.get<position>(entities[99999]).x, 1.f);
}

} // namespace

} // namespace unit_inspector_server
} // namespace
