// The service without HTTP (inspector/service.hpp): check() as the HTTP threads call it (Host, token, Origin,
// read-only mode, body cap, headers absent or odd), and handle() on targets an HTTP library would not send as such
// (fragments, bad escapes, empty segments), on routes outside the API, and with an internal failure.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <tessera/entity/registry.hpp>
#include <tessera/inspector/service.hpp>

namespace {
namespace unit_inspector_service {

namespace {

struct position {
    float x;
    float y;
};

tessera::inspector::request make(const std::string &method, const std::string &target, const std::string &body = {}) {
    tessera::inspector::request req{};
    req.method = method;
    req.target = target;
    req.body = body;
    req.host = "127.0.0.1:4000";
    return req;
}

void throw_on_update(tessera::registry &, const tessera::entity) { throw std::runtime_error{"listener failed"}; }

std::string field_of(const tessera::inspector::response &res) { return nlohmann::json::parse(res.body)["field"]; }

TEST(InspectorService, WithoutServeAtHostAndOriginAreNotChecked) {
    tessera::registry registry{};
    tessera::inspector::service service{registry, {}};
    auto req = make("PUT", "/api/entities/0/enabled", "true");
    req.host.reset();
    req.origin = "http://elsewhere.example";
    EXPECT_FALSE(service.check(req));
}

TEST(InspectorService, HostChecks) {
    tessera::registry registry{};
    tessera::inspector::options settings{};
    settings.hosts = {"inspector.local:4000"};
    tessera::inspector::service service{registry, settings};
    service.serve_at("127.0.0.1", 4000u);

    auto req = make("GET", "/api/world");
    EXPECT_FALSE(service.check(req));

    for (const char *host : {"localhost:4000", "[::1]:4000", "INSPECTOR.local:4000"}) {
        req.host = host;
        EXPECT_FALSE(service.check(req)) << host;
    }

    for (const char *host : {"localhost", "localhost:4001", "127.0.0.1:40000", "inspector.local", " 127.0.0.1:4000"}) {
        req.host = host;
        const auto refused = service.check(req);
        ASSERT_TRUE(refused) << host;
        EXPECT_EQ(refused->status, 403);
        EXPECT_EQ(field_of(*refused), "Host");
    }

    req.host.reset();
    ASSERT_TRUE(service.check(req));
    EXPECT_EQ(service.check(req)->status, 403);
}

TEST(InspectorService, IPv6LoopbackIsServedInBrackets) {
    tessera::registry registry{};
    tessera::inspector::service service{registry, {}};
    service.serve_at("::1", 4000u);
    auto req = make("GET", "/api/world");
    req.host = "[::1]:4000";
    EXPECT_FALSE(service.check(req));
    req.host = "localhost:4000";
    EXPECT_FALSE(service.check(req));
    req.host = "::1:4000";
    EXPECT_TRUE(service.check(req));
}

TEST(InspectorService, TokenChecks) {
    tessera::registry registry{};
    tessera::inspector::options settings{};
    settings.token = "abc";
    tessera::inspector::service service{registry, settings};
    service.serve_at("127.0.0.1", 4000u);

    auto req = make("GET", "/api/world");
    ASSERT_TRUE(service.check(req));
    EXPECT_EQ(service.check(req)->status, 401);

    for (const char *given : {"", "Bearer", "Bearer ", "Bearer ab", "Bearer abcd", "bearer abc", "Bearer  abc"}) {
        req.authorization = given;
        const auto refused = service.check(req);
        ASSERT_TRUE(refused) << given;
        EXPECT_EQ(refused->status, 403) << given;
        EXPECT_EQ(field_of(*refused), "Authorization");
    }

    req.authorization = "Bearer abc";
    EXPECT_FALSE(service.check(req));
    // the page and its files need no token; "/api" itself and its queries do
    EXPECT_FALSE(service.check(make("GET", "/")));
    EXPECT_FALSE(service.check(make("GET", "/inspector.js")));
    EXPECT_TRUE(service.check(make("GET", "/api")));
    EXPECT_TRUE(service.check(make("GET", "/api?x")));
}

TEST(InspectorService, OriginAndReadOnlyChecksConcernWrites) {
    tessera::registry registry{};
    tessera::inspector::options settings{};
    settings.read_only = true;
    tessera::inspector::service service{registry, settings};
    service.serve_at("127.0.0.1", 4000u);

    auto write = make("PUT", "/api/entities/0/enabled", "true");
    ASSERT_TRUE(service.check(write));
    EXPECT_EQ(field_of(*service.check(write)), "method");
    write.origin = "http://127.0.0.2:4000";
    EXPECT_EQ(field_of(*service.check(write)), "Origin");
    write.origin = "http://localhost:4000";
    EXPECT_EQ(field_of(*service.check(write)), "method");

    auto read = make("GET", "/api/world");
    read.origin = "http://elsewhere.example";
    EXPECT_FALSE(service.check(read));
    // writes outside the API are not the registry's: the page answers them itself (405)
    EXPECT_FALSE(service.check(make("POST", "/")));
}

TEST(InspectorService, BodiesOverTheCap) {
    tessera::registry registry{};
    tessera::inspector::options settings{};
    settings.max_body = 8u;
    tessera::inspector::service service{registry, settings};
    EXPECT_FALSE(service.check(make("PUT", "/api/entities/0/enabled", "12345678")));
    const auto refused = service.check(make("PUT", "/api/entities/0/enabled", "123456789"));
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->status, 413);
    EXPECT_EQ(field_of(*refused), "body");
}

TEST(InspectorService, TargetsAreParsedStrictly) {
    tessera::registry registry{};
    const auto entt = registry.create();
    registry.emplace<position>(entt, 1.f, 2.f);
    tessera::inspector::service service{registry, {}};
    service.component<position>();

    for (const char *target :
         {"", "api/world", "/api/world#top", "/api/entities/%zz", "/api/entities/%0", "/api/entities?with=%"}) {
        const auto res = service.handle(make("GET", target));
        EXPECT_EQ(res.status, 400) << target;
    }

    EXPECT_EQ(field_of(service.handle(make("GET", "/api/world#top"))), "target");
    // escapes are decoded in segments and names
    EXPECT_EQ(service.handle(make("GET", "/api/%77orld")).status, 200);
    EXPECT_EQ(service.handle(make("GET", "/api/entities/0/components/p%6Fsition")).status, 200);
    EXPECT_EQ(nlohmann::json::parse(service.handle(make("GET", "/api/entities?%77ith=position")).body)["total"], 1u);
    EXPECT_EQ(nlohmann::json::parse(service.handle(make("GET", "/api/entities?with=position&&limit=5")).body)["limit"],
              5u);
    EXPECT_EQ(service.handle(make("GET", "/api/world/")).status, 404);
    EXPECT_EQ(service.handle(make("GET", "/index.html")).status, 404);
}

TEST(InspectorService, FramesAreCounted) {
    tessera::registry registry{};
    tessera::inspector::service service{registry, {}};
    EXPECT_EQ(service.frames_served(), 0u);
    service.count_frame();
    service.count_frame();
    EXPECT_EQ(service.frames_served(), 2u);
    EXPECT_EQ(nlohmann::json::parse(service.handle(make("GET", "/api/world")).body)["frames"], 2u);
    EXPECT_EQ(&service.registry(), &registry);
    EXPECT_TRUE(service.settings().token.empty());
}

TEST(InspectorService, AFailureInsideIsAnInternalError) {
    tessera::registry registry{};
    const auto entt = registry.create();
    registry.emplace<position>(entt, 1.f, 2.f);
    // a listener that throws while the value is written
    registry.on_update<position>().connect<&throw_on_update>();
    tessera::inspector::service service{registry, {}};
    service.component<position>();
    const auto res = service.handle(make("PUT", "/api/entities/0/components/position", R"({"x": 5, "y": 6})"));
    EXPECT_EQ(res.status, 500);
    EXPECT_NE(res.body.find("listener failed"), std::string::npos);
}

} // namespace

} // namespace unit_inspector_service
} // namespace
