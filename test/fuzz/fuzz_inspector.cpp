// libFuzzer target: requests to the inspector's API (inspector/service.hpp), the way the HTTP threads hand them over
// (check) and poll() answers them (handle), on a small world of every kind of value reflection shows. The input is
// text shaped like a request:
//
//     <flags byte><METHOD> <target>\n<Header>: <value>\n...\n<body>
//
// flags: bit 0 read-only, bit 1 a token is configured, bit 2 no Host header, bit 3 a Host of another server. A
// crash, a sanitizer report, a failed assertion or an answer of 500 is a bug; so is an answer that is not JSON, an
// error without "error" and "field", any change to the registry by a refused request, by a GET or in read-only mode.
#include <tessera/archive/json_value.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/inspector/service.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

enum class mood : std::uint8_t { calm, angry, asleep };

struct position {
    float x;
    float y;
};

struct stats {
    std::uint16_t level;
    std::int8_t luck;
    bool alive;
};

struct profile {
    std::string name;
    mood feeling;
    std::optional<int> bonus;
    std::vector<int> items;
    std::array<float, 2> aim;
};

struct follow {
    tessera::entity target;
};

struct body {
    position where;
    stats numbers;
};

struct score {
    static constexpr bool track_changes = true;
    int value;
};

struct anchor {
    static constexpr bool in_place_delete = true;
    int slot;
};

struct tag {};

/// Never registered: opaque.
struct hidden {
    int secret;
};

constexpr std::uint16_t port = 8080u;

void fail(const char *what, const std::string &detail) {
    std::fprintf(stderr, "fuzz_inspector: %s\n%s\n", what, detail.c_str());
    std::abort();
}

/// A small world with every kind of value, some of it disabled, a few changes after the first tick.
void populate(tessera::registry &registry) {
    std::vector<tessera::entity> entities{};

    for (int pos{}; pos < 12; ++pos) {
        const auto entt = registry.create();
        entities.push_back(entt);
        registry.emplace<position>(entt, static_cast<float>(pos), 1.5f);

        if (pos % 2 == 0) {
            registry.emplace<stats>(entt, static_cast<std::uint16_t>(pos * 100), static_cast<std::int8_t>(-pos), true);
        }

        if (pos % 3 == 0) {
            registry.emplace<profile>(entt, "unit " + std::to_string(pos), static_cast<mood>(pos % 3),
                                      pos % 2 == 0 ? std::optional<int>{pos} : std::nullopt, std::vector<int>{1, pos},
                                      std::array<float, 2>{0.5f, -0.5f});
        }

        if (pos % 4 == 0) {
            registry.emplace<body>(entt, position{1.f, 2.f}, stats{3u, 4, false});
            registry.emplace<anchor>(entt, pos);
        }

        registry.emplace<score>(entt, pos);

        if (pos % 5 == 0) {
            registry.emplace<tag>(entt);
            registry.emplace<hidden>(entt, 7);
        }
    }

    for (std::size_t pos{}; pos + 1u < entities.size(); pos += 2u) {
        registry.emplace<follow>(entities[pos], entities[pos + 1u]);
    }

    registry.disable<position>(entities[3]);
    registry.disable(entities[5]);
    registry.destroy(entities[11]);
    registry.advance_tick();
    registry.patch<score>(entities[2], [](score &value) { value.value = 99; });
}

/// Everything a request could change, as text.
std::string digest(const tessera::registry &registry) {
    std::string out{};
    const auto &entities = *registry.storage<tessera::entity>();
    out.append(std::to_string(entities.free_list())).append(";");

    const auto add = [&out, &registry](const auto *pool, const tessera::entity entt) {
        if (pool == nullptr || !pool->contains(entt)) {
            out.append("-");
            return;
        }

        out.append(pool->enabled(entt) ? "+" : "~");
        const auto value = tessera::json_value::describe(pool->get(entt));
        out.append(value.dump());
        static_cast<void>(registry);
    };

    for (std::size_t pos{}; pos < entities.free_list(); ++pos) {
        const auto entt = entities.data()[pos];
        out.append(std::to_string(tessera::to_integral(entt))).append(registry.enabled(entt) ? "e" : "d");
        add(registry.storage<position>(), entt);
        add(registry.storage<stats>(), entt);
        add(registry.storage<profile>(), entt);
        add(registry.storage<follow>(), entt);
        add(registry.storage<body>(), entt);
        add(registry.storage<score>(), entt);
        add(registry.storage<anchor>(), entt);
        add(registry.storage<hidden>(), entt);
        const auto *tags = registry.storage<tag>();
        out.append(tags != nullptr && tags->contains(entt) ? (tags->enabled(entt) ? "T" : "t") : "_").append("|");
    }

    return out;
}

/// An answer must be JSON; a refusal must say what and where.
void check_answer(const tessera::inspector::response &answer, const std::string &request) {
    if (answer.status == 500 || answer.status < 200 || answer.status >= 600 ||
        (answer.status > 200 && answer.status < 400)) {
        fail("unexpected status", std::to_string(answer.status) + " " + answer.body + "\nfor\n" + request);
    }

    const auto parsed = nlohmann::json::parse(answer.body, nullptr, false);

    if (parsed.is_discarded()) {
        fail("the answer is not JSON", answer.body);
    }

    if (answer.status >= 400 && !(parsed.is_object() && parsed.contains("error") && parsed["error"].is_string() &&
                                  parsed.contains("field") && parsed["field"].is_string())) {
        fail("a refusal without error and field", answer.body);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, const std::size_t size) {
    if (size == 0u) {
        return 0;
    }

    const auto flags = data[0];
    const std::string_view text{reinterpret_cast<const char *>(data + 1), size - 1u};

    tessera::inspector::request req{};
    std::size_t pos = text.find('\n');
    const std::string_view line = text.substr(0u, pos);
    const auto space = line.find(' ');
    req.method = std::string{line.substr(0u, space)};
    req.target = space == std::string_view::npos ? std::string{} : std::string{line.substr(space + 1u)};
    req.host = (flags & 8u) != 0u ? "elsewhere.example:8080" : "127.0.0.1:" + std::to_string(port);

    if ((flags & 4u) != 0u) {
        req.host.reset();
    }

    // header lines until an empty one, then the body
    while (pos != std::string_view::npos) {
        const auto next = text.find('\n', pos + 1u);
        const std::string_view header = text.substr(pos + 1u, next == std::string_view::npos ? next : next - pos - 1u);
        pos = next;

        if (header.empty()) {
            break;
        }

        const auto colon = header.find(": ");
        const std::string name{header.substr(0u, colon)};
        const std::string value{colon == std::string_view::npos ? std::string_view{} : header.substr(colon + 2u)};

        if (name == "Host") {
            req.host = value;
        } else if (name == "Origin") {
            req.origin = value;
        } else if (name == "Authorization") {
            req.authorization = value;
        }
    }

    req.body = pos == std::string_view::npos ? std::string{} : std::string{text.substr(pos + 1u)};

    tessera::registry registry{};
    populate(registry);
    tessera::inspector::options settings{};
    settings.read_only = (flags & 1u) != 0u;
    settings.token = (flags & 2u) != 0u ? "fuzz-token" : "";
    settings.max_body = 2048u;
    tessera::inspector::service service{registry, settings};
    service.component<position>().component<stats>().component<profile>().component<follow>().component<body>();
    service.component<score>().component<anchor>().component<tag>();
    service.label<profile>();
    service.serve_at("127.0.0.1", port);
    service.timings().record("system", 1.0);
    service.timings().end_frame(2.0);

    const auto before = digest(registry);
    const std::string request = req.method + " " + req.target + "\n" + req.body;

    if (auto refused = service.check(req); refused) {
        check_answer(*refused, request);

        if (refused->status < 400) {
            fail("check refused with a success", refused->body);
        }

        return 0;
    }

    const auto answer = service.handle(req);
    check_answer(answer, request);
    const auto after = digest(registry);

    if (after != before && (answer.status != 200 || req.method == "GET" || settings.read_only)) {
        fail("the registry changed",
             std::to_string(answer.status) + " for\n" + request + "\nbefore\n" + before + "\nafter\n" + after);
    }

    return 0;
}
