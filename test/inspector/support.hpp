// What the inspector tests share: the component types of their worlds (plain structs: the inspector reflects them)
// and call(), which sends one request through cpp-httplib's client on the loopback while the test's thread polls
// the server, as a program's frame loop would.
#ifndef TESSERA_TEST_INSPECTOR_SUPPORT_HPP
#define TESSERA_TEST_INSPECTOR_SUPPORT_HPP

#include <chrono>
#include <future>
#include <httplib.h>
#include <nlohmann/json.hpp>
#include <string>
#include <tessera/entity/registry.hpp>
#include <tessera/inspector/inspector.hpp>
#include <utility>

namespace inspector_test {

struct position {
    float x;
    float y;
};

struct velocity {
    float dx;
    float dy;
};

struct health {
    int points;
};

struct name_tag {
    std::string value;
};

/// An empty type: no value, but it can be listed and filtered on.
struct frozen {};

/// Never registered: shown as opaque.
struct secret {
    int code;
};

/// Tracks changes (docs/change_detection.md).
struct score {
    static constexpr bool track_changes = true;
    int value;
};

/// Deleted in place: its elements cannot be disabled.
struct anchor {
    static constexpr bool in_place_delete = true;
    int slot;
};

/// One answer: its status, its body (parsed when it is JSON) and its headers; `failed` when no answer came.
struct reply {
    int status{};
    std::string body{};
    nlohmann::json json{};
    httplib::Headers headers{};
    bool failed{};

    [[nodiscard]] std::string header(const std::string &name) const {
        const auto found = headers.find(name);
        return found == headers.end() ? std::string{} : found->second;
    }
};

/// Sends `method target` with `body` and `headers` to the server on the loopback; while the client waits, this
/// thread calls server.poll() (the program's frame loop). The target is sent as it is (no encoding added).
template<typename Server>
[[nodiscard]] reply call(Server &server, const std::string &method, const std::string &target,
                         const std::string &body = {}, const httplib::Headers &headers = {}) {
    httplib::Client client{"127.0.0.1", static_cast<int>(server.port())};
    client.set_url_encode(false);
    client.set_keep_alive(false);
    client.set_read_timeout(std::chrono::seconds{20});

    httplib::Request req{};
    req.method = method;
    req.path = target;
    req.headers = headers;
    req.body = body;

    if (!body.empty() && !req.has_header("Content-Type")) {
        req.set_header("Content-Type", "application/json");
    }

    auto future = std::async(std::launch::async, [&client, &req] { return client.send(req); });

    while (future.wait_for(std::chrono::microseconds{200}) != std::future_status::ready) {
        server.poll();
    }

    auto result = future.get();
    reply out{};

    if (!result) {
        out.failed = true;
        return out;
    }

    out.status = result->status;
    out.body = result->body;
    out.headers = result->headers;

    if (result->get_header_value("Content-Type").rfind("application/json", 0u) == 0u) {
        out.json = nlohmann::json::parse(out.body, nullptr, false);
    }

    return out;
}

/// GET target.
template<typename Server>
[[nodiscard]] reply get(Server &server, const std::string &target, const httplib::Headers &headers = {}) {
    return call(server, "GET", target, {}, headers);
}

/// PUT target with a JSON body.
template<typename Server>
[[nodiscard]] reply put(Server &server, const std::string &target, const std::string &body,
                        const httplib::Headers &headers = {}) {
    return call(server, "PUT", target, body, headers);
}

/// The integral value of an identifier, as the API writes it in paths.
[[nodiscard]] inline std::string id_of(const tessera::entity entt) {
    return std::to_string(tessera::to_integral(entt));
}

} // namespace inspector_test

#endif
