// Requests and answers (inspector/request.hpp): error bodies, percent-decoding, unsigned integers and targets split
// into segments and query parameters.
#include <cstdint>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <tessera/inspector/request.hpp>

namespace {
namespace unit_inspector_request {

namespace {

namespace internal = tessera::inspector::internal;

TEST(InspectorRequest, ErrorsNameTheirField) {
    const auto res = internal::error_response(400, "limit", "too large");
    EXPECT_EQ(res.status, 400);
    EXPECT_EQ(res.content_type, "application/json");
    const auto body = nlohmann::json::parse(res.body);
    EXPECT_EQ(body["error"], "limit: too large");
    EXPECT_EQ(body["field"], "limit");
    EXPECT_EQ(nlohmann::json::parse(internal::error_response(503, "", "gone").body)["error"], "gone");
    EXPECT_EQ(nlohmann::json::parse(internal::error_response(422, "body.x", "", "position.x: bad").body)["error"],
              "position.x: bad");
    // text that is not UTF-8 is replaced, not thrown on
    EXPECT_NO_THROW(static_cast<void>(internal::error_response(400, "name", std::string{"\xff\xfe"})));
}

TEST(InspectorRequest, PercentDecoding) {
    std::string out{};
    EXPECT_TRUE(internal::percent_decode("a%2Cb%20c+d", out, true));
    EXPECT_EQ(out, "a,b c d");
    EXPECT_TRUE(internal::percent_decode("a+b", out, false));
    EXPECT_EQ(out, "a+b");
    EXPECT_TRUE(internal::percent_decode("%41%7a", out, false));
    EXPECT_EQ(out, "Az");
    EXPECT_TRUE(internal::percent_decode("", out, false));
    EXPECT_EQ(out, "");

    for (const char *bad : {"%", "%4", "a%g1", "%%", "%1"}) {
        EXPECT_FALSE(internal::percent_decode(bad, out, false)) << bad;
    }
}

TEST(InspectorRequest, UnsignedIntegers) {
    std::uint64_t value{};
    EXPECT_TRUE(internal::parse_unsigned("0", 10u, value));
    EXPECT_EQ(value, 0u);
    EXPECT_TRUE(internal::parse_unsigned("10", 10u, value));
    EXPECT_EQ(value, 10u);
    EXPECT_TRUE(internal::parse_unsigned("18446744073709551615", UINT64_MAX, value));
    EXPECT_EQ(value, UINT64_MAX);

    for (const char *bad : {"", "11", "-1", "+1", " 1", "1 ", "1e2", "0x1", "18446744073709551616", "1.0"}) {
        EXPECT_FALSE(internal::parse_unsigned(bad, 10u, value) && internal::parse_unsigned(bad, UINT64_MAX, value))
            << bad;
    }

    EXPECT_FALSE(internal::parse_unsigned("11", 10u, value));
}

TEST(InspectorRequest, TargetsSplitIntoSegmentsAndParameters) {
    auto target = internal::parse_target("/api/entities/12?with=a%2Cb,c&offset=3&flag&=x");
    ASSERT_TRUE(target.error.empty());
    EXPECT_EQ(target.segments, (std::vector<std::string>{"api", "entities", "12"}));
    ASSERT_EQ(target.query.size(), 4u);
    EXPECT_EQ(target.find("with")->raw, "a%2Cb,c");
    EXPECT_EQ(target.find("offset")->raw, "3");
    EXPECT_EQ(target.find("flag")->raw, "");
    EXPECT_EQ(target.find("")->raw, "x");
    EXPECT_EQ(target.find("limit"), nullptr);

    EXPECT_TRUE(internal::parse_target("/").segments.empty());
    EXPECT_EQ(internal::parse_target("/a//b/").segments, (std::vector<std::string>{"a", "", "b", ""}));
    EXPECT_EQ(internal::parse_target("/a%2Fb").segments, (std::vector<std::string>{"a/b"}));
    EXPECT_FALSE(internal::parse_target("").error.empty());
    EXPECT_FALSE(internal::parse_target("api").error.empty());
    EXPECT_FALSE(internal::parse_target("/a#b").error.empty());
    EXPECT_FALSE(internal::parse_target("/a%zz").error.empty());
    EXPECT_FALSE(internal::parse_target("/a?%zz=1").error.empty());
}

} // namespace

} // namespace unit_inspector_request
} // namespace
