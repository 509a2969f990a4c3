// Tests of archive/json_value.hpp: every kind of value to JSON and back, the JSON form of each (enums by name,
// identifiers as index and version, non-finite numbers), functions of the user's winning over reflection, the errors
// (the path of the field and the problem) with the target left unchanged, patches (partial reads), and opaque parts.
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <gtest/gtest.h>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <tessera/archive/json_value.hpp>
#include <tessera/entity/entity.hpp>
#include <vector>

namespace {
namespace unit_archive_json_json_value {

namespace {

namespace json_value = tessera::json_value;
using traits = tessera::entt_traits<tessera::entity>;
using nlohmann::json;

enum class team : std::uint8_t { red, blue = 7 };

struct vec2 {
    float x{};
    float y{};
    bool operator==(const vec2 &) const = default;
};

struct health {
    std::uint16_t current{};
    std::uint16_t max{};
    bool operator==(const health &) const = default;
};

struct unit {
    vec2 position{};
    health hp{};
    team side{};
    std::string name{};
    std::vector<vec2> path{};
    std::optional<double> speed{};
    tessera::entity target{tessera::null};
    int grid[2][2]{};
    std::array<bool, 3> flags{};
    std::vector<bool> bits{};
    std::int64_t big{};
    std::uint64_t huge{};
    char letter{};
    bool operator==(const unit &other) const {
        return position == other.position && hp == other.hp && side == other.side && name == other.name &&
               path == other.path && speed == other.speed && target == other.target &&
               std::equal(&grid[0][0], &grid[0][0] + 4, &other.grid[0][0]) && flags == other.flags &&
               bits == other.bits && big == other.big && huge == other.huge && letter == other.letter;
    }
};

unit sample() {
    unit value{};
    value.position = {1.5f, -2.f};
    value.hp = {10u, 65535u};
    value.side = team::blue;
    value.name = "scout";
    value.path = {{1.f, 2.f}, {3.f, 4.f}};
    value.speed = 2.25;
    value.target = traits::construct(42u, 3u);
    value.grid[1][0] = 7;
    value.flags = {true, false, true};
    value.bits = {false, true};
    value.big = std::numeric_limits<std::int64_t>::min();
    value.huge = std::numeric_limits<std::uint64_t>::max();
    value.letter = 'q';
    return value;
}

// a type with functions of its own (nlohmann-json's macro): they win over reflection
struct stamped {
    int value{};
    bool operator==(const stamped &) const = default;
};

void to_json(json &out, const stamped &in) { out = "stamp-" + std::to_string(in.value); }

void from_json(const json &in, stamped &out) {
    const auto &text = in.get_ref<const std::string &>();
    if (text.rfind("stamp-", 0u) != 0u) {
        throw std::invalid_argument{"not a stamp"};
    }
    out.value = std::stoi(text.substr(6u));
}

struct with_stamp {
    stamped first{};
    int second{};
    bool operator==(const with_stamp &) const = default;
};

enum class mood : int { calm, angry };

NLOHMANN_JSON_SERIALIZE_ENUM(mood, {{mood::calm, "CALM"}, {mood::angry, "ANGRY"}})

struct feeling {
    mood now{};
};

// a type that describes its fields: "cache" is hidden, "x" is renamed
class described {
public:
    described() = default;
    described(int value, int cache) : raw{value}, cache{cache} {}
    [[nodiscard]] int value() const { return raw; }
    [[nodiscard]] int cached() const { return cache; }
    bool operator==(const described &) const = default;

private:
    int raw{};
    int cache{};

public:
    static constexpr auto reflected_fields = std::make_tuple(tessera::field<"x">(&described::raw));
};

struct with_callback {
    int count{};
    std::function<void()> callback{};
};

struct with_const {
    const int fixed{};
    int free{};
};

enum class flags : std::uint32_t { none = 0u, a = 1u, b = 2u };

// an identifier type of the user's: an enum over std::uint32_t without enumerators
enum class user_id : std::uint32_t {};

struct outer {
    std::vector<unit> units{};
    bool operator==(const outer &) const = default;
};

} // namespace

TEST(json_value, round_trip) {
    const unit value = sample();
    const json written = json_value::to_json(value);
    unit read{};
    const auto result = json_value::from_json(written, read);
    ASSERT_TRUE(result.ok()) << result.message();
    EXPECT_TRUE(static_cast<bool>(result));
    EXPECT_EQ(result.message(), "");
    EXPECT_EQ(read, value);

    // through text too
    unit reparsed{};
    ASSERT_TRUE(json_value::from_json(json::parse(written.dump()), reparsed));
    EXPECT_EQ(reparsed, value);
}

TEST(json_value, form) {
    const json written = json_value::to_json(sample());
    EXPECT_EQ(written["position"], (json{{"x", 1.5}, {"y", -2.0}}));
    EXPECT_EQ(written["side"], "blue");
    EXPECT_EQ(written["target"], (json{{"index", 42}, {"version", 3}}));
    EXPECT_EQ(written["grid"], json::parse("[[0, 0], [7, 0]]"));
    EXPECT_EQ(written["flags"], json::parse("[true, false, true]"));
    EXPECT_EQ(written["bits"], json::parse("[false, true]"));
    EXPECT_EQ(written["speed"], 2.25);
    EXPECT_EQ(written["letter"], static_cast<int>('q'));
    EXPECT_EQ(written["huge"].get<std::uint64_t>(), std::numeric_limits<std::uint64_t>::max());
    EXPECT_EQ(written.size(), tessera::field_count_v<unit>);

    unit other{};
    other.side = static_cast<team>(3);
    const json unnamed = json_value::to_json(other);
    // a value without an enumerator is its number; the exact null is null; an empty optional is null
    EXPECT_EQ(unnamed["side"], 3);
    EXPECT_TRUE(unnamed["target"].is_null());
    EXPECT_TRUE(unnamed["speed"].is_null());

    // an identifier with the null index and another version is not null
    EXPECT_EQ(json_value::to_json(traits::construct(traits::entity_mask, 1u)),
              (json{{"index", traits::entity_mask}, {"version", 1}}));
}

TEST(json_value, scalars) {
    EXPECT_EQ(json_value::to_json(3), 3);
    EXPECT_EQ(json_value::to_json(true), true);
    EXPECT_EQ(json_value::to_json(std::string{"text"}), "text");
    EXPECT_EQ(json_value::to_json(std::numeric_limits<double>::quiet_NaN()), "nan");
    EXPECT_EQ(json_value::to_json(std::numeric_limits<float>::infinity()), "inf");
    EXPECT_EQ(json_value::to_json(-std::numeric_limits<double>::infinity()), "-inf");

    double number{};
    ASSERT_TRUE(json_value::from_json(json("nan"), number));
    EXPECT_TRUE(std::isnan(number));
    ASSERT_TRUE(json_value::from_json(json("-inf"), number));
    EXPECT_EQ(number, -std::numeric_limits<double>::infinity());
    ASSERT_TRUE(json_value::from_json(json(3), number));
    EXPECT_EQ(number, 3.0);

    int integer{};
    ASSERT_TRUE(json_value::from_json(json(4.0), integer));
    EXPECT_EQ(integer, 4);
    EXPECT_EQ(json_value::from_json(json(4.5), integer).message(), "expected an integer, found 4.5");
    EXPECT_EQ(json_value::from_json(json(1e300), integer).message(), "1e+300 is out of range for std::int32_t");
    EXPECT_EQ(json_value::from_json(json(-1), *std::make_unique<unsigned>()).message(),
              "-1 is out of range for std::uint32_t");
    EXPECT_EQ(integer, 4);

    std::int64_t lowest{};
    ASSERT_TRUE(json_value::from_json(json(std::numeric_limits<std::int64_t>::min()), lowest));
    EXPECT_EQ(lowest, std::numeric_limits<std::int64_t>::min());
    EXPECT_FALSE(json_value::from_json(json(std::numeric_limits<std::uint64_t>::max()), lowest));
    // 2^63 as a double: just past the top
    EXPECT_FALSE(json_value::from_json(json(9223372036854775808.0), lowest));

    float small{};
    EXPECT_EQ(json_value::from_json(json(1e300), small).message(), "1e+300 is out of range for float");
    EXPECT_EQ(json_value::from_json(json("fast"), small).message(), "expected a number, found the string \"fast\"");

    bool flag{};
    EXPECT_EQ(json_value::from_json(json(1), flag).message(), "expected a boolean, found 1");
    std::string text{};
    EXPECT_EQ(json_value::from_json(json(nullptr), text).message(), "expected a string, found null");

    int array[3]{1, 2, 3};
    EXPECT_EQ(json_value::from_json(json::parse("[4, 5]"), array).message(), "expected 3 elements, found 2");
    EXPECT_EQ(json_value::from_json(json::parse("[4, 5, \"6\"]"), array).message(),
              "[2]: expected an integer, found string");
    EXPECT_EQ(array[0], 1);
    ASSERT_TRUE(json_value::from_json(json::parse("[4, 5, 6]"), array));
    EXPECT_EQ(array[2], 6);
}

TEST(json_value, enums) {
    team side{};
    ASSERT_TRUE(json_value::from_json(json("blue"), side));
    EXPECT_EQ(side, team::blue);
    ASSERT_TRUE(json_value::from_json(json(3), side));
    EXPECT_EQ(side, static_cast<team>(3));
    EXPECT_EQ(json_value::from_json(json("green"), side).message(),
              "\"green\" is not an enumerator of " + std::string{tessera::type_name<team>::value()});
    EXPECT_EQ(json_value::from_json(json(256), side).message(), "256 is out of range for std::uint8_t");
    EXPECT_EQ(json_value::from_json(json(true), side).message(),
              "expected an enumerator's name or a number, found true");
    EXPECT_EQ(side, static_cast<team>(3));

    // NLOHMANN_JSON_SERIALIZE_ENUM wins
    EXPECT_EQ(json_value::to_json(feeling{mood::angry}), (json{{"now", "ANGRY"}}));
    feeling read{};
    ASSERT_TRUE(json_value::from_json(json{{"now", "ANGRY"}}, read));
    EXPECT_EQ(read.now, mood::angry);
}

TEST(json_value, kinds_near_identifiers) {
    // an enum over std::uint32_t with enumerators is an enum; a combination of flags is its number
    EXPECT_EQ(json_value::to_json(flags::b), "b");
    EXPECT_EQ(json_value::to_json(static_cast<flags>(3u)), 3);
    flags read{};
    ASSERT_TRUE(json_value::from_json(json(3), read));
    EXPECT_EQ(read, static_cast<flags>(3u));

    // one without enumerators is an identifier, with tessera::entity's layout
    const auto id = tessera::entt_traits<user_id>::construct(12u, 2u);
    EXPECT_EQ(json_value::to_json(id), (json{{"index", 12}, {"version", 2}}));
    user_id back{};
    ASSERT_TRUE(json_value::from_json(json{{"index", 12}, {"version", 2}}, back));
    EXPECT_EQ(back, id);
}

TEST(json_value, identifiers) {
    tessera::entity target{};
    ASSERT_TRUE(json_value::from_json(json{{"index", 5}, {"version", 2}}, target));
    EXPECT_EQ(target, traits::construct(5u, 2u));
    ASSERT_TRUE(json_value::from_json(json(traits::to_integral(traits::construct(6u, 1u))), target));
    EXPECT_EQ(target, traits::construct(6u, 1u));
    ASSERT_TRUE(json_value::from_json(json(nullptr), target));
    EXPECT_EQ(traits::to_integral(target), traits::to_integral(tessera::entity{tessera::null}));

    target = traits::construct(1u, 1u);
    EXPECT_EQ(json_value::from_json(json{{"index", 1u << 20u}, {"version", 0}}, target).message(),
              "index: 1048576 is out of range (at most 1048575)");
    EXPECT_EQ(json_value::from_json(json{{"index", 1}, {"version", 4096}}, target).message(),
              "version: 4096 is out of range (at most 4095)");
    EXPECT_EQ(json_value::from_json(json{{"index", -1}, {"version", 0}}, target).message(),
              "index: expected an unsigned integer, found -1");
    EXPECT_EQ(json_value::from_json(json{{"index", 1}}, target).message(), "version: missing field");
    EXPECT_EQ(json_value::from_json(json{{"index", 1}, {"version", 0}, {"owner", 2}}, target).message(),
              "owner: unknown field");
    EXPECT_EQ(json_value::from_json(json("e"), target).message(),
              "expected an identifier ({\"index\": I, \"version\": V}, an integer or null), found string");
    EXPECT_EQ(json_value::from_json(json(std::uint64_t{1} << 40u), target).message(),
              "1099511627776 is out of range for std::uint32_t");
    EXPECT_EQ(target, traits::construct(1u, 1u));

    // a patch keeps the version it does not give
    ASSERT_TRUE(json_value::from_json(json{{"index", 9}}, target, {.partial = true}));
    EXPECT_EQ(target, traits::construct(9u, 1u));
}

TEST(json_value, errors_name_the_field_and_change_nothing) {
    const unit original = sample();
    json written = json_value::to_json(original);

    const auto error_of = [&original](const json &edited, const json_value::read_options &options = {}) {
        unit target = original;
        const auto result = json_value::from_json(edited, target, options);
        EXPECT_FALSE(result.ok());
        EXPECT_EQ(target, original) << "a failed read changed the target";
        return result.message();
    };

    auto edited = written;
    edited["position"]["x"] = "left";
    EXPECT_EQ(error_of(edited), "position.x: expected a number, found the string \"left\"");
    edited = written;
    edited["hp"]["max"] = 70000;
    EXPECT_EQ(error_of(edited), "hp.max: 70000 is out of range for std::uint16_t");
    EXPECT_EQ(error_of(edited, {.root = "unit"}), "unit.hp.max: 70000 is out of range for std::uint16_t");
    edited = written;
    edited["path"][1]["y"] = nullptr;
    EXPECT_EQ(error_of(edited), "path[1].y: expected a number, found null");
    edited = written;
    edited["grid"][1][1] = true;
    EXPECT_EQ(error_of(edited), "grid[1][1]: expected an integer, found true");
    edited = written;
    edited.erase("name");
    EXPECT_EQ(error_of(edited), "name: missing field");
    edited = written;
    edited["nickname"] = "x";
    EXPECT_EQ(error_of(edited), "nickname: unknown field");
    edited = written;
    // a long key is cut in the report
    edited[std::string(1000u, 'k')] = 1;
    EXPECT_EQ(error_of(edited), std::string(64u, 'k') + ": unknown field");
    edited = written;
    edited["position"] = json::array();
    EXPECT_EQ(error_of(edited), "position: expected an object, found array");
    EXPECT_EQ(error_of(json(3)), "expected an object, found 3");
    EXPECT_EQ(error_of(json(3), {.root = "unit"}), "unit: expected an object, found 3");

    // a later field fails after earlier ones were read: still nothing changes
    edited = written;
    edited["position"]["x"] = 100.0;
    edited["side"] = "purple";
    EXPECT_EQ(error_of(edited),
              "side: \"purple\" is not an enumerator of " + std::string{tessera::type_name<team>::value()});

    const json_value::result result = [&] {
        unit target{};
        edited = written;
        edited["speed"] = "fast";
        return json_value::from_json(edited, target);
    }();
    EXPECT_EQ(result.path, "speed");
    EXPECT_EQ(result.problem, "expected a number, found the string \"fast\"");
}

TEST(json_value, partial_reads) {
    unit target = sample();
    const auto result =
        json_value::from_json(json::parse(R"({"hp": {"current": 3}, "path": [{"x": 9}]})"), target, {.partial = true});
    ASSERT_TRUE(result.ok()) << result.message();
    EXPECT_EQ(target.hp, (health{3u, 65535u}));
    // the vector takes the length of the patch; its existing elements keep what the patch leaves out
    ASSERT_EQ(target.path.size(), 1u);
    EXPECT_EQ(target.path[0], (vec2{9.f, 2.f}));
    EXPECT_EQ(target.name, "scout");

    // a patch still refuses unknown fields and wrong values
    EXPECT_EQ(json_value::from_json(json{{"hp", {{"maximum", 1}}}}, target, {.partial = true}).message(),
              "hp.maximum: unknown field");
}

TEST(json_value, functions_of_the_user_win) {
    const with_stamp value{{12}, 3};
    const json written = json_value::to_json(value);
    EXPECT_EQ(written, (json{{"first", "stamp-12"}, {"second", 3}}));
    with_stamp read{};
    ASSERT_TRUE(json_value::from_json(written, read));
    EXPECT_EQ(read, value);

    // what the user's from_json throws is the problem
    auto edited = written;
    edited["first"] = "nothing";
    EXPECT_EQ(json_value::from_json(edited, read).message(), "first: not a stamp");
    edited["first"] = 3;
    EXPECT_NE(json_value::from_json(edited, read).message().find("first: [json.exception"), std::string::npos);
    EXPECT_EQ(read, value);

    // nlohmann-json's own containers
    const std::map<std::string, int> table{{"a", 1}};
    EXPECT_EQ(json_value::to_json(table), (json{{"a", 1}}));
}

TEST(json_value, described_types) {
    const described value{4, 9};
    EXPECT_EQ(json_value::to_json(value), (json{{"x", 4}}));
    described read{1, 2};
    ASSERT_TRUE(json_value::from_json(json{{"x", 7}}, read));
    EXPECT_EQ(read.value(), 7);
    // the hidden field is neither written nor read
    EXPECT_EQ(read.cached(), 2);
    EXPECT_EQ(json_value::from_json(json{{"x", 7}, {"cache", 1}}, read).message(), "cache: unknown field");
}

TEST(json_value, nested_vectors) {
    outer value{{sample(), unit{}}};
    const json written = json_value::to_json(value);
    outer read{};
    ASSERT_TRUE(json_value::from_json(written, read));
    EXPECT_EQ(read, value);

    auto edited = written;
    edited["units"][1]["hp"]["current"] = -5;
    EXPECT_EQ(json_value::from_json(edited, read).message(),
              "units[1].hp.current: -5 is out of range for std::uint16_t");
}

TEST(json_value, opaque_parts) {
    static_assert(json_value::writable<unit> && json_value::readable<unit>);
    static_assert(!json_value::writable<with_callback> && !json_value::readable<with_callback>);
    static_assert(json_value::writable<with_const> && !json_value::readable<with_const>);
    static_assert(json_value::writable<std::vector<unit>> && json_value::readable<std::optional<unit>>);

    with_callback value{3, [] {}};
    const json shown = json_value::describe(value);
    EXPECT_EQ(shown["count"], 3);
    EXPECT_EQ(shown["callback"]["opaque"], std::string{tessera::type_name<std::function<void()>>::value()});
    EXPECT_EQ(shown["callback"]["size"], sizeof(std::function<void()>));

    // the description comes back and leaves the opaque part as it is; so does its absence
    auto edited = shown;
    edited["count"] = 5;
    ASSERT_TRUE(json_value::from_json(edited, value));
    EXPECT_EQ(value.count, 5);
    EXPECT_TRUE(static_cast<bool>(value.callback));
    ASSERT_TRUE(json_value::from_json(json{{"count", 6}}, value));
    EXPECT_EQ(value.count, 6);
    EXPECT_EQ(json_value::from_json(json{{"count", 6}, {"callback", 1}}, value).message(),
              "callback: " + std::string{tessera::type_name<std::function<void()>>::value()} +
                  " is opaque: it cannot be read from JSON");
}

} // namespace unit_archive_json_json_value
} // namespace
