// Tests of archive/json.hpp: snapshots round-trip through JSON documents and text (every kind of pool, named pools,
// released identifiers, both loaders), the document is laid out for a person to read, and malformed documents give
// a json::error that says what is wrong and where, leaving the registry usable.
#include "support/misuse.hpp"
#include <cstdint>
#include <gtest/gtest.h>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <tessera/archive/json.hpp>
#include <tessera/core/hashed_string.hpp>
#include <tessera/entity/debugger.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/snapshot.hpp>
#include <vector>

namespace {

namespace json = tessera::archive::json;
using namespace tessera::literals;
using traits = tessera::entt_traits<tessera::entity>;

struct position {
    float x{};
    float y{};
    bool operator==(const position &) const = default;
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(position, x, y)

struct name {
    std::string text{};
    bool operator==(const name &) const = default;
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(name, text)

struct tag {};

struct stable {
    static constexpr bool in_place_delete = true;
    int value{};
    bool operator==(const stable &) const = default;
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(stable, value)

// a component without to_json/from_json: the archive converts it through reflection (json_value.hpp)
enum class rank : std::uint8_t { private_, sergeant = 3 };

struct stats {
    std::uint16_t level{};
    rank grade{};
    std::vector<float> history{};
    tessera::entity leader{tessera::null};
    position home{};
    bool operator==(const stats &) const = default;
};

// a component that is an integer: the archive must not take its values for counts
using score = std::uint32_t;

constexpr auto enemies = "enemies"_hs;

tessera::entity make(const std::uint32_t index, const std::uint16_t version = 0u) {
    return traits::construct(index, version);
}

// Entities 0..5, some with versions, two released; every kind of pool, a hole in the in-place pool and a named pool.
void fill(tessera::registry &registry) {
    for (std::uint32_t index = 0u; index < 6u; ++index) {
        static_cast<void>(registry.create(make(index, static_cast<std::uint16_t>(index % 3u))));
    }

    registry.destroy(make(4u, 1u));
    registry.destroy(make(5u, 2u));
    registry.emplace<position>(make(0u), 1.f, 2.f);
    registry.emplace<position>(make(1u, 1u), 3.f, 4.f);
    registry.emplace<name>(make(1u, 1u), "a name long enough to leave the small buffer of std::string");
    registry.emplace<tag>(make(2u, 2u));
    registry.emplace<stable>(make(0u), 10);
    registry.emplace<stable>(make(3u), 30);
    registry.emplace<stable>(make(2u, 2u), 20);
    registry.erase<stable>(make(3u));
    registry.emplace<score>(make(3u), 7u);
    registry.storage<position>(enemies).emplace(make(2u, 2u), 5.f, 6.f);
}

json::document save_all(const tessera::registry &registry) {
    json::document out{};
    json::output_archive archive{out};
    tessera::snapshot{registry}
        .get<tessera::entity>(archive.section<tessera::entity>())
        .get<position>(archive.section<position>())
        .get<name>(archive.section<name>())
        .get<tag>(archive.section<tag>())
        .get<stable>(archive.section<stable>())
        .get<score>(archive.section<score>())
        .get<position>(archive.section<position>("enemies"), enemies);
    return out;
}

template<typename Loader>
void load_all(Loader &loader, const json::document &source) {
    json::input_archive archive{source};
    loader.template get<tessera::entity>(archive.section<tessera::entity>())
        .template get<position>(archive.section<position>())
        .template get<name>(archive.section<name>())
        .template get<tag>(archive.section<tag>())
        .template get<stable>(archive.section<stable>())
        .template get<score>(archive.section<score>())
        .template get<position>(archive.section<position>("enemies"), enemies);
    archive.expect_all_read();
}

void expect_same(const tessera::registry &lhs, const tessera::registry &rhs) {
    const auto &left = *lhs.storage<tessera::entity>();
    const auto &right = *rhs.storage<tessera::entity>();
    ASSERT_EQ(left.size(), right.size());
    EXPECT_EQ(left.free_list(), right.free_list());

    for (std::size_t pos{}; pos < left.size(); ++pos) {
        EXPECT_EQ(left.data()[pos], right.data()[pos]);
    }

    for (const auto entt : left) {
        if (!lhs.valid(entt)) {
            continue;
        }

        EXPECT_EQ(lhs.debug_components(entt), rhs.debug_components(entt));

        if (lhs.all_of<position>(entt)) {
            EXPECT_EQ(lhs.get<position>(entt), rhs.get<position>(entt));
        }

        if (lhs.all_of<name>(entt)) {
            EXPECT_EQ(lhs.get<name>(entt), rhs.get<name>(entt));
        }

        if (lhs.all_of<stable>(entt)) {
            EXPECT_EQ(lhs.get<stable>(entt), rhs.get<stable>(entt));
        }

        if (lhs.all_of<score>(entt)) {
            EXPECT_EQ(lhs.get<score>(entt), rhs.get<score>(entt));
        }

        if (lhs.storage<position>(enemies)->contains(entt)) {
            EXPECT_EQ(lhs.storage<position>(enemies)->get(entt), rhs.storage<position>(enemies)->get(entt));
        }
    }
}

// Loads `source` into a fresh registry and returns the message of the json::error it must throw.
std::string load_error(const json::document &source) {
    tessera::registry registry{};

    try {
        tessera::snapshot_loader loader{registry};
        load_all(loader, source);
    } catch (const json::error &failure) {
        // the registry stays usable
        const auto entt = registry.create();
        registry.emplace<position>(entt);
        registry.clear();
        return failure.what();
    }

    ADD_FAILURE() << "no json::error for " << source.dump();
    return {};
}

TEST(JsonArchive, RoundTrip) {
    tessera::registry source{};
    fill(source);
    const auto document = save_all(source);

    tessera::registry target{};
    tessera::snapshot_loader loader{target};
    load_all(loader, document);
    expect_same(source, target);
    // the hole of the in-place pool is not restored
    EXPECT_EQ(target.storage<stable>().size(), 2u);
}

TEST(JsonArchive, RoundTripThroughText) {
    tessera::registry source{};
    fill(source);
    const auto text = save_all(source).dump(2);

    tessera::registry target{};
    tessera::snapshot_loader loader{target};
    load_all(loader, json::parse(text));
    expect_same(source, target);
}

TEST(JsonArchive, ContinuousLoader) {
    tessera::registry source{};
    fill(source);
    const auto document = save_all(source);

    tessera::registry target{};
    const auto local = target.create();
    tessera::continuous_loader loader{target};

    // twice: the second load goes through the mapping the first one built and replaces the components
    for (int round = 0; round < 2; ++round) {
        load_all(loader, document);
    }

    EXPECT_TRUE(target.valid(local));
    EXPECT_EQ(target.storage<position>().size(), 2u);
    const auto mapped = loader.map(make(1u, 1u));
    ASSERT_TRUE(target.valid(mapped));
    EXPECT_EQ(target.get<position>(mapped), (position{3.f, 4.f}));
    EXPECT_EQ(target.get<name>(mapped).text, source.get<name>(make(1u, 1u)).text);
}

// Disabled elements: the pool keeps a "disabled" array, and both loaders disable them again; the values and the
// other pools read as without it.
TEST(JsonArchive, DisabledStateRoundTrips) {
    tessera::registry source{};
    fill(source);
    source.disable<position>(make(1u, 1u));
    source.disable<tag>(make(2u, 2u));
    const auto document = json::parse(save_all(source).dump());

    const std::string positions{tessera::type_name<position>::value()};
    EXPECT_EQ(document["pools"][positions]["disabled"],
              json::document::array({tessera::entt_traits<tessera::entity>::to_integral(make(1u, 1u))}));
    EXPECT_FALSE(document["pools"][std::string{tessera::type_name<name>::value()}].contains("disabled"));

    tessera::registry target{};
    tessera::snapshot_loader loader{target};
    load_all(loader, document);
    expect_same(source, target);
    EXPECT_FALSE(target.enabled<position>(make(1u, 1u)));
    EXPECT_TRUE(target.enabled<position>(make(0u)));
    EXPECT_FALSE(target.enabled<tag>(make(2u, 2u)));
    EXPECT_EQ(target.view<position>().size(), 1u);

    tessera::registry live{};
    static_cast<void>(live.create());
    tessera::continuous_loader continuous{live};
    load_all(continuous, document);
    EXPECT_FALSE(live.enabled<position>(continuous.map(make(1u, 1u))));
    EXPECT_TRUE(live.enabled<position>(continuous.map(make(0u))));
    EXPECT_FALSE(live.enabled<tag>(continuous.map(make(2u, 2u))));

    // a disabled list that is not an array
    auto broken = document;
    broken["pools"][positions]["disabled"] = 3;
    EXPECT_NE(load_error(broken).find("disabled"), std::string::npos);
}

TEST(JsonArchive, SaveAndLoadHelpers) {
    tessera::registry source{};
    const auto entt = source.create();
    source.emplace<position>(entt, 1.f, 2.f);
    source.emplace<tag>(entt);
    const auto document = json::save<position, tag>(source);

    tessera::registry target{};
    json::load<position, tag>(target, document);
    EXPECT_EQ(target.get<position>(entt), (position{1.f, 2.f}));
    EXPECT_TRUE(target.all_of<tag>(entt));

    // a pool of the document nothing loads is reported, not dropped
    tessera::registry partial{};
    EXPECT_THROW(json::load<position>(partial, document), json::error);
}

TEST(JsonArchive, ReflectedComponents) {
    tessera::registry source{};
    const auto first = source.create();
    const auto second = source.create();
    source.emplace<stats>(first, std::uint16_t{3}, rank::sergeant, std::vector<float>{1.f, 2.5f}, second,
                          position{4.f, 5.f});
    source.emplace<stats>(second);
    const auto document = json::save<stats>(source);

    // the fields by name; the nested position through its own to_json
    const auto &value = document["pools"][std::string{tessera::type_name<stats>::value()}]["elements"][0]["value"];
    EXPECT_EQ(value["grade"], "sergeant");
    EXPECT_EQ(value["leader"], (nlohmann::json{{"index", 1}, {"version", 0}}));
    EXPECT_EQ(value["home"], (nlohmann::json{{"x", 4.f}, {"y", 5.f}}));

    tessera::registry target{};
    json::load<stats>(target, json::parse(document.dump()));
    EXPECT_EQ(target.get<stats>(first), source.get<stats>(first));
    EXPECT_EQ(target.get<stats>(second), source.get<stats>(second));

    // a wrong field is reported with the place of the element and the field
    auto edited = document;
    edited["pools"][std::string{tessera::type_name<stats>::value()}]["elements"][0]["value"]["level"] = 70000;
    tessera::registry failed{};
    try {
        json::load<stats>(failed, edited);
        ADD_FAILURE() << "no json::error";
    } catch (const json::error &failure) {
        EXPECT_NE(std::string{failure.what()}.find("/elements/0/value: level: 70000 is out of range for std::uint16_t"),
                  std::string::npos)
            << failure.what();
    }
}

TEST(JsonArchive, DocumentIsReadable) {
    tessera::registry source{};
    fill(source);
    const auto document = save_all(source);

    EXPECT_EQ(document["format"], "tessera-json");
    EXPECT_EQ(document["version"], json::format_version);
    EXPECT_EQ(document["entities"]["in_use"], 4u);
    EXPECT_EQ(document["entities"]["identifiers"].size(), 6u);

    // pools are keyed by the type's name; elements pair an identifier with the component's fields
    const auto &positions = document["pools"][std::string{tessera::type_name<position>::value()}];
    EXPECT_EQ(positions["type"], tessera::type_name<position>::value());
    ASSERT_EQ(positions["elements"].size(), 2u);
    EXPECT_EQ(positions["elements"][0]["entity"], traits::to_integral(make(0u)));
    EXPECT_EQ(positions["elements"][0]["value"]["x"], 1.f);
    EXPECT_EQ(positions["elements"][1]["value"]["y"], 4.f);

    // pools without instances list identifiers; a hole is a null entity without value
    const auto &tags = document["pools"][std::string{tessera::type_name<tag>::value()}];
    EXPECT_EQ(tags["entities"], nlohmann::json::array({traits::to_integral(make(2u, 2u))}));
    const auto &stables = document["pools"][std::string{tessera::type_name<stable>::value()}];
    ASSERT_EQ(stables["elements"].size(), 3u);
    EXPECT_TRUE(stables["elements"][1]["entity"].is_null());
    EXPECT_FALSE(stables["elements"][1].contains("value"));

    // a named pool goes under the name it was given
    EXPECT_EQ(document["pools"]["enemies"]["elements"][0]["value"]["x"], 5.f);
}

TEST(JsonArchive, PoolKeys) {
    tessera::registry source{};
    fill(source);
    const auto document = save_all(source);
    json::input_archive archive{document};
    EXPECT_TRUE(archive.contains<position>());
    EXPECT_FALSE(archive.contains<position>("other"_hs));
    EXPECT_EQ(archive.unread_pools().size(), 6u);
    static_cast<void>(archive.section<position>());
    EXPECT_EQ(archive.unread_pools().size(), 5u);

    // a named pool given by hash only is keyed by its type and the hash, as the memory report names it
    tessera::registry registry{};
    registry.storage<position>("hashed"_hs).emplace(registry.create());
    json::document out{};
    json::output_archive output{out};
    tessera::snapshot{registry}.get<position>(output.section<position>("hashed"_hs), "hashed"_hs);
    ASSERT_EQ(out["pools"].size(), 1u);
    EXPECT_NE(out["pools"].begin().key().find(" @0x"), std::string::npos);
}

class JsonArchiveErrors : public ::testing::Test {
protected:
    void SetUp() override {
        tessera::registry registry{};
        fill(registry);
        good = save_all(registry);
    }

    // the error of a copy of the good document changed by `edit`
    template<typename Edit>
    std::string error_after(Edit edit) const {
        auto bad = good;
        edit(bad);
        return load_error(bad);
    }

    nlohmann::json &pool(nlohmann::json &document, const std::string_view type) const {
        return document["pools"][std::string{type}];
    }

    json::document good{};
};

#define EXPECT_CONTAINS(text, fragment) EXPECT_NE((text).find(fragment), std::string::npos) << (text)

TEST_F(JsonArchiveErrors, NotASnapshot) {
    EXPECT_CONTAINS(load_error(nlohmann::json::array()), "json archive: the document: an object was expected");
    EXPECT_CONTAINS(load_error(nlohmann::json{{"format", "other"}}), "not a tessera JSON snapshot");
    EXPECT_CONTAINS(error_after([](auto &doc) { doc.erase("format"); }), "missing field 'format'");
    EXPECT_CONTAINS(error_after([](auto &doc) { doc["version"] = 99; }), "/version");
    EXPECT_CONTAINS(error_after([](auto &doc) { doc["version"] = "1"; }), "/version");
    EXPECT_CONTAINS(error_after([](auto &doc) { doc.erase("pools"); }), "missing field 'pools'");
    EXPECT_CONTAINS(error_after([](auto &doc) { doc["pools"] = 3; }), "/pools: an object was expected");
    EXPECT_CONTAINS(error_after([](auto &doc) { doc["entities"].erase("identifiers"); }),
                    "missing field 'identifiers'");
    EXPECT_THROW(static_cast<void>(json::parse("{\"format\": ")), json::error);
}

TEST_F(JsonArchiveErrors, MissingFields) {
    const auto type = tessera::type_name<position>::value();
    EXPECT_CONTAINS(error_after([&](auto &doc) { pool(doc, type)["elements"][1].erase("entity"); }),
                    "elements/1: missing field 'entity'");
    EXPECT_CONTAINS(error_after([&](auto &doc) { pool(doc, type)["elements"][0].erase("value"); }),
                    "elements/0: missing field 'value'");
    EXPECT_CONTAINS(error_after([&](auto &doc) { pool(doc, type)["elements"][0]["value"].erase("y"); }),
                    "elements/0/value");
    EXPECT_CONTAINS(error_after([&](auto &doc) { pool(doc, type).erase("elements"); }), "missing field 'elements'");
    EXPECT_CONTAINS(error_after([&](auto &doc) { pool(doc, type).erase("type"); }), "missing field 'type'");
}

TEST_F(JsonArchiveErrors, WrongTypes) {
    const auto type = tessera::type_name<position>::value();
    EXPECT_CONTAINS(error_after([&](auto &doc) { pool(doc, type)["elements"][0]["value"]["x"] = "one"; }),
                    "/pools/" + std::string{type} + "/elements/0/value");
    EXPECT_CONTAINS(error_after([&](auto &doc) { pool(doc, type)["elements"][0]["entity"] = "0"; }),
                    "an identifier must be an unsigned integer or null, found string");
    EXPECT_CONTAINS(error_after([&](auto &doc) { pool(doc, type)["elements"][0]["entity"] = -1; }),
                    "an identifier must be an unsigned integer");
    EXPECT_CONTAINS(error_after([&](auto &doc) { pool(doc, type)["elements"][0]["entity"] = 1.5; }), "found number");
    EXPECT_CONTAINS(error_after([&](auto &doc) { pool(doc, type)["elements"][0]["entity"] = 1ull << 40u; }),
                    "does not fit the identifier type");
    EXPECT_CONTAINS(error_after([&](auto &doc) { pool(doc, type)["elements"] = nlohmann::json::object(); }),
                    "an array was expected");
    EXPECT_CONTAINS(error_after([&](auto &doc) { pool(doc, type)["elements"][0] = 3; }),
                    "elements/0: an object was expected");
    EXPECT_CONTAINS(error_after([](auto &doc) { doc["entities"]["in_use"] = "all"; }),
                    "/entities/in_use: an unsigned integer was expected");
    EXPECT_CONTAINS(error_after([](auto &doc) { doc["entities"]["identifiers"][0] = true; }),
                    "/entities/identifiers/0");
    // the pool holds another type than the one loaded from it
    EXPECT_CONTAINS(error_after([&](auto &doc) { pool(doc, type)["type"] = "velocity"; }),
                    "the pool holds \"velocity\"");
}

TEST_F(JsonArchiveErrors, UnknownAndMissingPools) {
    EXPECT_CONTAINS(error_after([](auto &doc) { doc["pools"]["velocity"] = doc["pools"]["enemies"]; }),
                    "/pools/velocity: unknown pool");
    EXPECT_CONTAINS(error_after([](auto &doc) { doc["pools"].erase("enemies"); }), "/pools/enemies: missing pool");
}

TEST_F(JsonArchiveErrors, BadEntities) {
    const auto type = tessera::type_name<position>::value();
    const auto tombstone = traits::to_integral(traits::construct(3u, traits::to_version(tessera::tombstone)));
    EXPECT_CONTAINS(error_after([&](auto &doc) { pool(doc, type)["elements"][1]["entity"] = tombstone; }),
                    "elements/1: snapshot_loader: invalid identifier in a pool");
    EXPECT_CONTAINS(error_after([&](auto &doc) { pool(doc, type)["elements"][1]["entity"] = 0; }),
                    "elements/1: snapshot_loader: an entity appears twice in a pool");
    // index 1 is in use with version 1: version 0 refers to an identifier that was replaced
    EXPECT_CONTAINS(error_after([&](auto &doc) { pool(doc, type)["elements"][1]["entity"] = 1; }),
                    "a pool refers to a replaced identifier");
    EXPECT_CONTAINS(
        error_after([](auto &doc) { doc["entities"]["identifiers"][1] = doc["entities"]["identifiers"][0]; }),
        "invalid or repeated identifier");
    EXPECT_CONTAINS(error_after([](auto &doc) { doc["entities"]["in_use"] = 7; }), "invalid identifier counts");
}

TEST_F(JsonArchiveErrors, NullIndexIsAHole) {
    // an identifier with the null index is null whatever its version: the loaders skip it and read no value, so
    // the archive must not expect one (found by fuzz_json_archive)
    auto edited = good;
    auto &elements = pool(edited, tessera::type_name<position>::value())["elements"];
    elements[0]["entity"] = traits::to_integral(traits::construct(traits::entity_mask, 1u));
    tessera::registry registry{};
    tessera::snapshot_loader loader{registry};
    load_all(loader, edited);
    EXPECT_EQ(registry.storage<position>().size(), 1u);
    EXPECT_EQ(registry.get<position>(make(1u, 1u)), (position{3.f, 4.f}));
}

TEST_F(JsonArchiveErrors, NumbersOutOfRange) {
    // nlohmann-json would cast these with undefined behaviour; the archive checks its arithmetic components
    const auto type = std::string{tessera::type_name<score>::value()};
    EXPECT_CONTAINS(error_after([&](auto &doc) { pool(doc, type)["elements"][0]["value"] = 5.5e61; }),
                    "elements/0/value: the number 5.5e+61 is not an integer that fits");
    EXPECT_CONTAINS(error_after([&](auto &doc) { pool(doc, type)["elements"][0]["value"] = -1; }),
                    "is not an integer that fits");
    EXPECT_CONTAINS(error_after([&](auto &doc) { pool(doc, type)["elements"][0]["value"] = 1ull << 32u; }),
                    "is not an integer that fits");
    EXPECT_CONTAINS(error_after([&](auto &doc) { pool(doc, type)["elements"][0]["value"] = "7"; }),
                    "a number was expected, found string");
}

TEST(JsonArchive, Number) {
    enum class team : std::uint8_t { red = 1u };
    EXPECT_EQ(json::number<int>(nlohmann::json(-3)), -3);
    EXPECT_EQ(json::number<std::uint8_t>(nlohmann::json(255)), 255u);
    EXPECT_EQ(json::number<std::int64_t>(nlohmann::json(std::numeric_limits<std::int64_t>::min())),
              std::numeric_limits<std::int64_t>::min());
    EXPECT_EQ(json::number<std::uint64_t>(nlohmann::json(std::numeric_limits<std::uint64_t>::max())),
              std::numeric_limits<std::uint64_t>::max());
    EXPECT_EQ(json::number<float>(nlohmann::json(1.5)), 1.5f);
    EXPECT_EQ(json::number<double>(nlohmann::json(3)), 3.0);
    EXPECT_EQ(json::number<team>(nlohmann::json(1)), team::red);
    EXPECT_TRUE(json::number<bool>(nlohmann::json(true)));

    EXPECT_THROW(static_cast<void>(json::number<std::uint8_t>(nlohmann::json(256))), json::error);
    EXPECT_THROW(static_cast<void>(json::number<std::int8_t>(nlohmann::json(-129))), json::error);
    EXPECT_THROW(static_cast<void>(json::number<unsigned>(nlohmann::json(-1))), json::error);
    EXPECT_THROW(static_cast<void>(json::number<int>(nlohmann::json(2.5))), json::error);
    EXPECT_THROW(static_cast<void>(json::number<float>(nlohmann::json(1e300))), json::error);
    EXPECT_THROW(static_cast<void>(json::number<team>(nlohmann::json(300))), json::error);
    EXPECT_THROW(static_cast<void>(json::number<bool>(nlohmann::json(1))), json::error);
    EXPECT_THROW(static_cast<void>(json::number<int>(nlohmann::json("1"))), json::error);
}

TEST(JsonArchive, MisuseWithoutSection) {
    json::document out{};
    json::output_archive archive{out};
    EXPECT_MISUSE(archive(3u), "select a section before writing");

    const json::document source = save_all(tessera::registry{});
    json::input_archive input{source};
    std::uint32_t count{};
    EXPECT_MISUSE(input(count), "select a section before reading");
}

} // namespace
