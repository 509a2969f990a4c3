// What the inspector's API receives and answers, without HTTP: a request (method, target, headers the checks read,
// body) and a response (status, JSON body). The server (server.hpp) fills requests from cpp-httplib; a program with
// an HTTP server of its own, or a fuzzer, hands them to a service (service.hpp) directly. Also the strict parsing
// every handler shares: targets split into decoded path segments and query parameters, unsigned integers.
#ifndef TESSERA_INSPECTOR_REQUEST_HPP
#define TESSERA_INSPECTOR_REQUEST_HPP

#include "fwd.hpp"
#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace tessera::inspector {

/// An HTTP request as the API reads it. Headers that were absent are empty optionals: a check that needs one
/// (Host) refuses the request, a check that only compares one when present (Origin) lets it through.
struct request {
    /// The method, in capitals as sent: GET, PUT, DELETE...
    std::string method{};
    /// The request target as sent: the path and the query, still percent-encoded ("/api/entities?offset=100").
    std::string target{};
    /// The body (JSON for writes).
    std::string body{};
    /// The Host header.
    std::optional<std::string> host{};
    /// The Origin header.
    std::optional<std::string> origin{};
    /// The Authorization header ("Bearer <token>").
    std::optional<std::string> authorization{};
};

/// What the API answers: a status and a body, JSON unless content_type says otherwise.
struct response {
    /// The HTTP status: 200, or a 4xx with a JSON body {"error": message, "field": name} for bad input.
    int status{200};
    /// The body.
    std::string body{};
    /// The media type of the body.
    std::string content_type{"application/json"};
};

namespace internal {

/// A response with a JSON body.
[[nodiscard]] inline response json_response(const nlohmann::json &body, const int status = 200) {
    // invalid UTF-8 in a value (a std::string component, a name from a request) is replaced, never thrown on
    return response{status, body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), "application/json"};
}

/// A 4xx (or 5xx) answer: {"error": "<field>: <message>", "field": "<field>"}; the field names the parameter, the
/// header or the part of the body that is wrong ("limit", "Host", "body.x"), so that a person (or the page) can show
/// where. With `text` given, the error reads `text` instead (a message that names the place its own way).
[[nodiscard]] inline response error_response(const int status, const std::string_view field,
                                             const std::string_view message, const std::string_view text = {}) {
    std::string error{};

    if (!text.empty()) {
        error.append(text);
    } else {
        if (!field.empty()) {
            error.append(field).append(": ");
        }

        error.append(message);
    }

    return json_response(nlohmann::json{{"error", std::move(error)}, {"field", std::string{field}}}, status);
}

/// The value of a hexadecimal digit, or -1.
[[nodiscard]] constexpr int hex_value(const char digit) noexcept {
    if (digit >= '0' && digit <= '9') {
        return digit - '0';
    }

    if (digit >= 'a' && digit <= 'f') {
        return digit - 'a' + 10;
    }

    if (digit >= 'A' && digit <= 'F') {
        return digit - 'A' + 10;
    }

    return -1;
}

/// Decodes %XX escapes (and '+' as a space in a query, `plus_is_space`). False on a truncated or non-hexadecimal
/// escape; `out` is then unspecified.
[[nodiscard]] inline bool percent_decode(const std::string_view text, std::string &out, const bool plus_is_space) {
    out.clear();
    out.reserve(text.size());

    for (std::size_t pos{}; pos < text.size(); ++pos) {
        const char curr = text[pos];

        if (curr == '%') {
            if (pos + 2u >= text.size()) {
                return false;
            }

            const int high = hex_value(text[pos + 1u]);
            const int low = hex_value(text[pos + 2u]);

            if (high < 0 || low < 0) {
                return false;
            }

            out.push_back(static_cast<char>(high * 16 + low));
            pos += 2u;
        } else if (curr == '+' && plus_is_space) {
            out.push_back(' ');
        } else {
            out.push_back(curr);
        }
    }

    return true;
}

/// Parses an unsigned decimal integer: digits only (no sign, no space), at most `max`.
[[nodiscard]] inline bool parse_unsigned(const std::string_view text, const std::uint64_t max, std::uint64_t &out) {
    if (text.empty() || text.size() > 20u) {
        return false;
    }

    std::uint64_t value{};
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, 10);

    if (error != std::errc{} || end != text.data() + text.size() || value > max) {
        return false;
    }

    out = value;
    return true;
}

/// A query parameter: its decoded name and its value as sent (still encoded: lists are split before decoding, so
/// that a name may contain an encoded comma).
struct query_parameter {
    std::string name{};
    std::string_view raw{};
};

/// A request target split into decoded path segments and query parameters. The views point into the target.
struct parsed_target {
    std::vector<std::string> segments{};
    std::vector<query_parameter> query{};
    /// Empty if the target parsed; else what is wrong with it (the field is "target").
    std::string error{};

    /// The parameter `name`, if present (the first one if repeated).
    [[nodiscard]] const query_parameter *find(const std::string_view name) const noexcept {
        for (const auto &param : query) {
            if (param.name == name) {
                return &param;
            }
        }

        return nullptr;
    }
};

/// Splits a target ("/api/entities/12?offset=3"): the path must start with '/', its segments are decoded (an empty
/// segment, from "//" or a trailing '/', is kept as such and matches no route), the query is split on '&' and '='.
/// A fragment ('#...') is not part of a request target and is refused.
[[nodiscard]] inline parsed_target parse_target(const std::string_view target) {
    parsed_target out{};

    if (target.empty() || target.front() != '/') {
        out.error = "must be a path starting with '/'";
        return out;
    }

    if (target.find('#') != std::string_view::npos) {
        out.error = "must not contain a fragment ('#')";
        return out;
    }

    const auto mark = target.find('?');
    const std::string_view path = target.substr(0u, mark);
    std::string decoded{};

    // "/" is the empty list; "/api/world" is {"api", "world"}
    for (std::size_t begin = 1u; begin <= path.size() && path.size() > 1u;) {
        const auto end = std::min(path.find('/', begin), path.size());

        if (!percent_decode(path.substr(begin, end - begin), decoded, false)) {
            out.error = "a path segment has a malformed %-escape";
            return out;
        }

        out.segments.push_back(decoded);
        begin = end + 1u;
    }

    if (mark == std::string_view::npos) {
        return out;
    }

    const std::string_view query = target.substr(mark + 1u);

    for (std::size_t begin{}; begin < query.size();) {
        const auto end = std::min(query.find('&', begin), query.size());
        const std::string_view pair = query.substr(begin, end - begin);
        begin = end + 1u;

        if (pair.empty()) {
            continue;
        }

        const auto equal = pair.find('=');
        query_parameter param{};

        if (!percent_decode(pair.substr(0u, equal), param.name, true)) {
            out.error = "a query parameter's name has a malformed %-escape";
            return out;
        }

        param.raw = equal == std::string_view::npos ? std::string_view{} : pair.substr(equal + 1u);
        out.query.push_back(std::move(param));
    }

    return out;
}

} // namespace internal

} // namespace tessera::inspector

#endif
