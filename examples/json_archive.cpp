// Example: a snapshot as a JSON document (nlohmann-json, through the optional target tessera::json): saved, printed,
// loaded back, and what a damaged document reports.
#include <tessera/archive/json.hpp>
#include <tessera/entity/registry.hpp>

#include <cstdio>
#include <string>

// components at namespace scope: snapshot keys and reports name them as the compiler spells them, and an
// unnamed namespace would add '{anonymous}::' (or '(anonymous namespace)::', depending on the compiler)
struct position {
    float x{}, y{};
};

// nlohmann-json's macros give the component its to_json and from_json
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(position, x, y)

struct health {
    int points{};
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(health, points)

struct player {};

namespace {

int failures{};

void check(const bool condition, const char *what) {
    std::printf("  [%s] %s\n", condition ? "ok" : "FAILED", what);
    failures += condition ? 0 : 1;
}

} // namespace

int main() {
    namespace json = tessera::archive::json;
    tessera::registry source;
    const auto hero = source.create();
    source.emplace<position>(hero, 1.f, 2.f);
    source.emplace<health>(hero, 100);
    source.emplace<player>(hero);
    source.emplace<position>(source.create(), 3.f, 4.f);

    std::puts("json archive: save");
    const std::string text = json::save<position, health, player>(source).dump(2);
    std::puts(text.c_str());

    std::puts("json archive: load");
    tessera::registry copy;
    json::load<position, health, player>(copy, json::parse(text));
    check(copy.all_of<player>(hero) && copy.get<health>(hero).points == 100, "the hero is back, with its health");
    check(copy.get<position>(hero).y == 2.f, "and its position");

    std::puts("json archive: a damaged document");
    auto damaged = json::parse(text);
    damaged["pools"]["health"]["elements"][0]["value"]["points"] = "a hundred";
    tessera::registry other;

    try {
        json::load<position, health, player>(other, damaged);
        check(false, "the load fails");
    } catch (const json::error &failure) {
        std::printf("    %s\n", failure.what());
        check(std::string{failure.what()}.find("/pools/health/elements/0/value") != std::string::npos,
              "the error says where the bad value is");
    }

    std::puts(failures == 0 ? "json archive: all checks passed" : "json archive: some checks FAILED");
    return failures == 0 ? 0 : 1;
}
