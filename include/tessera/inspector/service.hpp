// The inspector's API without HTTP: checks a request (Host, token, Origin, read-only mode, body size) and answers
// it from the registry (the routes of docs/inspector.md). The server (server.hpp) runs check() on its HTTP threads
// and handle() on the thread that calls poll(); a program with an HTTP server of its own, or a fuzzer, calls them
// directly. Every bad input gets a 4xx whose JSON message names the parameter, header or field, and changes
// nothing.
#ifndef TESSERA_INSPECTOR_SERVICE_HPP
#define TESSERA_INSPECTOR_SERVICE_HPP

#include "../config/config.hpp"
#include "../config/version.hpp"
#include "../core/type_info.hpp"
#include "../entity/entity.hpp"
#include "../entity/memory_report.hpp"
#include "../entity/registry.hpp"
#include "components.hpp"
#include "fwd.hpp"
#include "options.hpp"
#include "request.hpp"
#include "timings.hpp"
#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace tessera::inspector {

namespace internal {

/// True if `address` is a loopback address: 127.0.0.0/8, ::1 or localhost.
[[nodiscard]] inline bool is_loopback(const std::string_view address) noexcept {
    return address == "localhost" || address == "::1" || address == "[::1]" || address.rfind("127.", 0u) == 0u;
}

/// Equal, ignoring the case of ASCII letters (host names are case-insensitive).
[[nodiscard]] inline bool equal_ignoring_case(const std::string_view lhs, const std::string_view rhs) noexcept {
    return lhs.size() == rhs.size() && std::equal(lhs.begin(), lhs.end(), rhs.begin(), [](const char a, const char b) {
               return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
           });
}

/// Compares two strings in a time that depends on their lengths only (the token).
[[nodiscard]] inline bool equal_in_constant_time(const std::string_view lhs, const std::string_view rhs) noexcept {
    unsigned char difference = lhs.size() == rhs.size() ? 0u : 1u;

    for (std::size_t pos{}; pos < lhs.size(); ++pos) {
        difference |= static_cast<unsigned char>(lhs[pos] ^ (pos < rhs.size() ? rhs[pos] : '\0'));
    }

    return difference == 0u;
}

/// The name of a pool nobody registered: its element type, with the hash of its name for a named pool.
[[nodiscard]] inline std::string pool_display_name(const std::string_view type, const id_type id, const bool named) {
    std::string name{type.empty() ? std::string_view{"pool"} : type};

    if (named) {
        std::array<char, 20u> digits{};
        const auto result = std::to_chars(digits.data(), digits.data() + digits.size(), id, 16);
        name.append("@0x").append(digits.data(), result.ptr);
    }

    return name;
}

} // namespace internal

/// The inspector's API on a registry: check() and handle(). Component types are shown by name once registered with
/// component<T>(); their values come from reflection (tessera/archive/json_value.hpp). Not thread-safe but check():
/// handle() and the registration functions belong to the thread that owns the registry.
template<typename Registry>
class basic_service {
    using traits_type = entt_traits<typename Registry::entity_type>;
    using entry_type = internal::component_entry<Registry>;

public:
    /// The registry type.
    using registry_type = Registry;
    /// Identifier type.
    using entity_type = typename Registry::entity_type;
    /// The common base class of the pools.
    using common_type = typename Registry::common_type;
    /// Unsigned integer type.
    using size_type = std::size_t;

    /// Entities per page when a request says nothing, and the most a request may ask for.
    static constexpr size_type default_limit = 100u;
    /// See default_limit.
    static constexpr size_type max_limit = 1000u;

    /// Answers for `registry` with `settings` (read-only mode, token, body cap). The registry must outlive it.
    basic_service(Registry &registry, options settings) : reg{&registry}, opts{std::move(settings)} {}

    basic_service(const basic_service &) = delete;
    basic_service &operator=(const basic_service &) = delete;
    ~basic_service() = default;

    /// Shows Type by `name` (its type name without namespaces by default), for the pool `pool` (Type's default
    /// pool unless given). Values come from reflection: no field is registered.
    template<typename Type>
    basic_service &component(std::string name = default_name<Type>(), const id_type pool = type_hash<Type>::value()) {
        catalogue.template add<Type>(std::move(name), pool);
        return *this;
    }

    /// Names Type the label of entities: the entity browser shows its value (a string as it is, a one-field struct
    /// as that field, anything else as compact JSON). Registers Type first if needed, under its default name.
    template<typename Type>
    basic_service &label(const id_type pool = type_hash<Type>::value()) {
        return label<Type>([](const Type &value) { return internal::label_text(internal::value_to_json(value)); },
                           pool);
    }

    /// Names Type the label of entities, shown as text(value).
    template<typename Type, typename Func>
    requires std::is_invocable_r_v<std::string, Func, const Type &> basic_service &
    label(Func text, const id_type pool = type_hash<Type>::value()) {
        auto *entry = catalogue.find(pool);

        if (entry == nullptr) {
            entry = &catalogue.template add<Type>(default_name<Type>(), pool);
        }

        TESSERA_ASSERT(*entry->info == type_id<Type>(), "label: the pool is registered with another type");
        entry->label = [func = std::move(text)](const void *element) -> std::string {
            return std::invoke(func, *static_cast<const Type *>(element));
        };
        catalogue.label(pool);
        return *this;
    }

    /// The frame and system times GET /api/systems reports.
    [[nodiscard]] frame_timings &timings() noexcept { return frame_times; }

    /// The options given at construction.
    [[nodiscard]] const options &settings() const noexcept { return opts; }

    /// The registry.
    [[nodiscard]] Registry &registry() const noexcept { return *reg; }

    /// Says where the service is reached, for the Host and Origin checks: `address:port`, plus localhost:port (and
    /// the other spelling of the loopback) on the loopback, plus the names of options::hosts. Until it is called,
    /// Host and Origin are not checked.
    void serve_at(const std::string_view address, const std::uint16_t port) {
        const auto suffix = ":" + std::to_string(port);
        const std::string bracketed = address.find(':') != std::string_view::npos && address.front() != '['
                                          ? "[" + std::string{address} + "]"
                                          : std::string{address};
        accepted_hosts = {bracketed + suffix};

        if (internal::is_loopback(address)) {
            for (const char *name : {"localhost", "127.0.0.1", "[::1]"}) {
                if (name != bracketed) {
                    accepted_hosts.push_back(name + suffix);
                }
            }
        }

        accepted_hosts.insert(accepted_hosts.end(), opts.hosts.begin(), opts.hosts.end());
    }

    /// The checks that need no registry, safe on any thread once serve_at() was called: Host (403), for the API
    /// the token (401 without one, 403 with another), for writes the Origin (403: only the page's own) and
    /// read-only mode (403), the body cap (413). Returns the refusal, or nothing when the request may proceed.
    [[nodiscard]] std::optional<response> check(const request &req) const {
        if (!accepted_hosts.empty()) {
            if (!req.host) {
                return internal::error_response(403, "Host", "the header is missing (or sent twice)");
            }

            if (!accepted(*req.host)) {
                return internal::error_response(403, "Host",
                                                "'" + *req.host + "' is not the address this inspector serves");
            }
        }

        if (req.body.size() > opts.max_body) {
            return internal::error_response(413, "body",
                                            "larger than the " + std::to_string(opts.max_body) + " bytes accepted");
        }

        const bool api =
            req.target == "/api" || req.target.rfind("/api/", 0u) == 0u || req.target.rfind("/api?", 0u) == 0u;

        if (api && !opts.token.empty()) {
            constexpr std::string_view scheme{"Bearer "};

            if (!req.authorization) {
                return internal::error_response(401, "Authorization", "this inspector needs a token (Bearer)");
            }

            const std::string_view given{*req.authorization};

            if (given.rfind(scheme, 0u) != 0u ||
                !internal::equal_in_constant_time(given.substr(scheme.size()), opts.token)) {
                return internal::error_response(403, "Authorization", "wrong token");
            }
        }

        if (const bool write = req.method != "GET" && req.method != "HEAD"; write) {
            if (req.origin && !accepted_hosts.empty() && !accepted_origin(*req.origin)) {
                return internal::error_response(403, "Origin", "'" + *req.origin + "' is not this inspector's page");
            }

            if (api && opts.read_only) {
                return internal::error_response(
                    403, "method", "this inspector is read-only: " + req.method + " would change the registry");
            }
        }

        return std::nullopt;
    }

    /// Answers an API request (a target under /api/): the registry thread only. check() is not repeated here.
    [[nodiscard]] response handle(const request &req) {
        try {
            return route(req);
        } catch (const std::exception &error) {
            return internal::error_response(500, "", std::string{"internal error: "} + error.what());
        }
    }

    /// Counts a frame (the server's poll() calls it): GET /api/world reports the count.
    void count_frame() noexcept { ++frames; }

    /// Frames counted so far.
    [[nodiscard]] std::uint64_t frames_served() const noexcept { return frames; }

private:
    using pair_list = std::vector<std::pair<const common_type *, std::string>>;

    [[nodiscard]] bool accepted(const std::string_view host) const noexcept {
        return std::any_of(accepted_hosts.begin(), accepted_hosts.end(),
                           [host](const auto &name) { return internal::equal_ignoring_case(name, host); });
    }

    [[nodiscard]] bool accepted_origin(const std::string_view origin) const noexcept {
        constexpr std::string_view scheme{"http://"};
        return origin.rfind(scheme, 0u) == 0u && accepted(origin.substr(scheme.size()));
    }

    // ---------------------------------------------------------------------------------------------------------
    // names and lookups

    /// The name the API gives a pool: the registered one, else its type (and name hash).
    [[nodiscard]] std::string name_of(const id_type id, const common_type &pool) {
        if (const auto *entry = catalogue.find(id); entry != nullptr && *entry->info == pool.info()) {
            return entry->name;
        }

        return internal::pool_display_name(pool.info().name(), id, id != pool.info().hash());
    }

    /// The entry for a pool, if it is registered and holds the registered type.
    [[nodiscard]] entry_type *entry_of(const id_type id, const common_type &pool) {
        auto *entry = catalogue.find(id);
        return entry != nullptr && *entry->info == pool.info() ? entry : nullptr;
    }

    [[nodiscard]] static bool is_entity_mark(const common_type &pool) noexcept {
        return pool.info() == type_id<disabled_entity>();
    }

    /// Every pool with its API name (the mark of disabled entities left out: entities show it as "enabled").
    [[nodiscard]] pair_list named_pools() {
        pair_list out{};

        for (auto [id, pool] : std::as_const(*reg).storage()) {
            if (!is_entity_mark(pool)) {
                out.emplace_back(&pool, name_of(id, pool));
            }
        }

        return out;
    }

    /// What a name designates: a registered component (its pool may not exist yet) or a pool of that API name.
    struct named_target {
        bool found{};
        entry_type *entry{};
        common_type *pool{};
        id_type id{};
    };

    [[nodiscard]] named_target find_named(const std::string_view name) {
        named_target out{};

        if (auto *entry = catalogue.find(name); entry != nullptr) {
            out.found = true;
            out.entry = entry;
            out.id = entry->pool;

            if (auto *pool = reg->storage(entry->pool); pool != nullptr && pool->info() == *entry->info) {
                out.pool = pool;
            }

            return out;
        }

        for (auto [id, pool] : reg->storage()) {
            if (!is_entity_mark(pool) && entry_of(id, pool) == nullptr &&
                internal::pool_display_name(pool.info().name(), id, id != pool.info().hash()) == name) {
                out.found = true;
                out.pool = &pool;
                out.id = id;
                return out;
            }
        }

        return out;
    }

    [[nodiscard]] static nlohmann::json identifier(const entity_type entt) {
        return {{"id", static_cast<std::uint64_t>(traits_type::to_integral(entt))},
                {"index", static_cast<std::uint64_t>(traits_type::to_entity(entt))},
                {"version", static_cast<std::uint64_t>(traits_type::to_version(entt))}};
    }

    /// Parses the identifier of a path segment: its integral value, which must name a live entity.
    [[nodiscard]] std::optional<response> parse_entity(const std::string &segment, entity_type &out) const {
        using integral = typename traits_type::entity_type;
        std::uint64_t value{};

        if (!internal::parse_unsigned(segment, std::numeric_limits<integral>::max(), value)) {
            return internal::error_response(400, "id", "'" + segment + "' is not an identifier (its integral value)");
        }

        out = entity_type{static_cast<integral>(value)};

        if (!reg->valid(out)) {
            return internal::error_response(404, "id", "no entity " + segment + " in the registry");
        }

        return std::nullopt;
    }

    /// Refuses any query parameter not in `allowed`.
    [[nodiscard]] static std::optional<response> only_parameters(const internal::parsed_target &target,
                                                                 std::initializer_list<std::string_view> allowed) {
        for (const auto &param : target.query) {
            if (std::find(allowed.begin(), allowed.end(), param.name) == allowed.end()) {
                return internal::error_response(400, param.name, "unknown parameter");
            }
        }

        return std::nullopt;
    }

    /// Reads the unsigned parameter `name` (default `fallback`), at most `max`.
    [[nodiscard]] static std::optional<response> unsigned_parameter(const internal::parsed_target &target,
                                                                    const std::string_view name,
                                                                    const std::uint64_t max, std::uint64_t &out) {
        if (const auto *param = target.find(name); param != nullptr) {
            std::string text{};

            if (!internal::percent_decode(param->raw, text, true) || !internal::parse_unsigned(text, max, out)) {
                return internal::error_response(
                    400, name, "must be an integer from 0 to " + std::to_string(max) + ", got '" + text + "'");
            }
        }

        return std::nullopt;
    }

    // ---------------------------------------------------------------------------------------------------------
    // routes

    [[nodiscard]] response route(const request &req) {
        const auto target = internal::parse_target(req.target);

        if (!target.error.empty()) {
            return internal::error_response(400, "target", target.error);
        }

        const auto &path = target.segments;
        const auto method = [&req](const std::string_view expected) { return req.method == expected; };
        const auto wrong_method = [&req](const std::string_view allowed) {
            return internal::error_response(405, "method",
                                            req.method + " is not allowed here (" + std::string{allowed} + ")");
        };

        if (path.size() < 2u || path[0] != "api") {
            return internal::error_response(404, "target", "no route " + std::string{req.target});
        }

        if (path.size() == 2u && path[1] == "world") {
            return method("GET") ? world(target) : wrong_method("GET");
        }

        if (path.size() == 2u && path[1] == "pools") {
            return method("GET") ? pools(target) : wrong_method("GET");
        }

        if (path.size() == 2u && path[1] == "components") {
            return method("GET") ? components(target) : wrong_method("GET");
        }

        if (path.size() == 2u && path[1] == "systems") {
            return method("GET") ? systems(target) : wrong_method("GET");
        }

        if (path.size() == 2u && path[1] == "changes") {
            return method("GET") ? changes(target) : wrong_method("GET");
        }

        if (path[1] == "entities") {
            if (path.size() == 2u) {
                return method("GET") ? entities(target) : wrong_method("GET");
            }

            if (auto refused = only_parameters(target, {}); refused) {
                return *refused;
            }

            entity_type entt{null};

            if (auto refused = parse_entity(path[2], entt); refused) {
                return *refused;
            }

            if (path.size() == 3u) {
                if (method("GET")) {
                    return entity(entt);
                }

                return method("DELETE") ? destroy(entt) : wrong_method("GET, DELETE");
            }

            if (path.size() == 4u && path[3] == "enabled") {
                return method("PUT") ? enable_entity(entt, req.body) : wrong_method("PUT");
            }

            if (path.size() >= 5u && path.size() <= 6u && path[3] == "components") {
                if (path.size() == 6u && path[5] == "enabled") {
                    return method("PUT") ? enable_component(entt, path[4], req.body) : wrong_method("PUT");
                }

                if (path.size() == 5u) {
                    if (method("GET")) {
                        return component_of(entt, path[4]);
                    }

                    return method("PUT") ? write_component(entt, path[4], req.body) : wrong_method("GET, PUT");
                }
            }
        }

        return internal::error_response(404, "target", "no route " + std::string{req.target});
    }

    [[nodiscard]] nlohmann::json pool_rows(const memory_report &report) {
        nlohmann::json rows = nlohmann::json::array();

        for (const auto &row : report.pools) {
            const auto *pool = std::as_const(*reg).storage(row.id);

            if (pool == nullptr || is_entity_mark(*pool)) {
                continue;
            }

            const auto *entry = entry_of(row.id, *pool);
            rows.push_back({{"name", name_of(row.id, *pool)},
                            {"type", std::string{row.type}},
                            {"id", row.id},
                            {"registered", entry != nullptr},
                            {"size", row.size},
                            {"disabled", pool->disabled_size()},
                            {"element_size", row.element_size},
                            {"capacity", row.capacity},
                            {"bytes", row.bytes},
                            {"tracked", entry != nullptr && entry->tracked}});
        }

        return rows;
    }

    [[nodiscard]] nlohmann::json entity_row(const memory_report &report) const {
        const auto &entities = reg->template storage<entity_type>();
        return {{"live", entities.free_list()},
                {"released", entities.size() - entities.free_list()},
                {"capacity", report.entities.capacity},
                {"bytes", report.entities.bytes}};
    }

    [[nodiscard]] response world(const internal::parsed_target &target) {
        if (auto refused = only_parameters(target, {}); refused) {
            return *refused;
        }

        const auto report = std::as_const(*reg).memory_report();
        const auto *label = catalogue.label();
        return internal::json_response({{"entities", reg->template storage<entity_type>().free_list()},
                                        {"tick", reg->tick()},
                                        {"frames", frames},
                                        {"pools", pool_rows(report)},
                                        {"bytes", report.total_bytes()},
                                        {"read_only", opts.read_only},
                                        {"identifier",
                                         {{"index_bits", std::popcount(traits_type::entity_mask)},
                                          {"version_bits", std::popcount(traits_type::version_mask)}}},
                                        {"label", label == nullptr ? nlohmann::json{} : nlohmann::json(label->name)},
                                        {"version", TESSERA_VERSION}});
    }

    [[nodiscard]] response pools(const internal::parsed_target &target) {
        if (auto refused = only_parameters(target, {}); refused) {
            return *refused;
        }

        const auto report = std::as_const(*reg).memory_report();
        return internal::json_response({{"pools", pool_rows(report)},
                                        {"entities", entity_row(report)},
                                        {"groups_bytes", report.group_bytes},
                                        {"registry_bytes", report.registry_bytes},
                                        {"bytes", report.total_bytes()}});
    }

    [[nodiscard]] response components(const internal::parsed_target &target) {
        if (auto refused = only_parameters(target, {}); refused) {
            return *refused;
        }

        nlohmann::json list = nlohmann::json::array();
        const auto *label = catalogue.label();

        for (const auto &entry : catalogue.all()) {
            list.push_back({{"name", entry.name},
                            {"type", std::string{entry.info->name()}},
                            {"pool", entry.pool},
                            {"size", entry.element_size},
                            {"editable", entry.editable},
                            {"tracked", entry.tracked},
                            {"can_disable", entry.can_disable},
                            {"label", &entry == label}});
        }

        return internal::json_response({{"components", std::move(list)}});
    }

    [[nodiscard]] response systems(const internal::parsed_target &target) {
        if (auto refused = only_parameters(target, {}); refused) {
            return *refused;
        }

        return internal::json_response(frame_times.to_json());
    }

    /// Reads a list parameter (with=a,b): names separated by commas, each percent-decoded on its own.
    [[nodiscard]] std::optional<response> pool_list(const internal::parsed_target &target, const std::string_view name,
                                                    std::vector<const common_type *> &out, bool &empty_result) {
        const auto *param = target.find(name);

        if (param == nullptr) {
            return std::nullopt;
        }

        std::string decoded{};

        for (std::size_t begin{}; begin <= param->raw.size();) {
            const auto end = std::min(param->raw.find(',', begin), param->raw.size());

            if (!internal::percent_decode(param->raw.substr(begin, end - begin), decoded, true)) {
                return internal::error_response(400, name, "a name has a malformed %-escape");
            }

            begin = end + 1u;

            if (decoded.empty()) {
                if (end == param->raw.size() && param->raw.empty()) {
                    break;
                }

                return internal::error_response(400, name, "an empty name in the list");
            }

            const auto found = find_named(decoded);

            if (!found.found) {
                return internal::error_response(400, name, "no component or pool named '" + decoded + "'");
            }

            if (found.pool == nullptr) {
                // a registered type without a pool yet: no entity has it
                empty_result = empty_result || name == "with";
                continue;
            }

            out.push_back(found.pool);
        }

        return std::nullopt;
    }

    /// Calls keep(entity) for the entities at positions [0, last) of `lead` that every pool of `with` has and no
    /// pool of `without` has, present whether enabled or not. A plain loop over packed positions, in a function of
    /// its own so that the lookups inline: a runtime view takes about three times as long over 10^6 entities.
    template<typename Keep>
    static void walk(const common_type &lead, const size_type last, const std::vector<const common_type *> &with,
                     const std::vector<const common_type *> &without, Keep &keep) {
        for (size_type pos{}; pos < last; ++pos) {
            const auto entt = lead.data()[pos];
            bool match = entt != tombstone;

            for (size_type other{}; match && other < with.size(); ++other) {
                match = with[other]->contains(entt);
            }

            for (size_type other{}; match && other < without.size(); ++other) {
                match = !without[other]->contains(entt);
            }

            if (match) {
                keep(entt);
            }
        }
    }

    [[nodiscard]] response entities(const internal::parsed_target &target) {
        if (auto refused = only_parameters(target, {"with", "without", "offset", "limit"}); refused) {
            return *refused;
        }

        std::uint64_t offset{};
        std::uint64_t limit{default_limit};
        std::vector<const common_type *> with{};
        std::vector<const common_type *> without{};
        bool nothing{};

        if (auto refused = unsigned_parameter(target, "offset", std::numeric_limits<std::uint32_t>::max(), offset);
            refused) {
            return *refused;
        }

        if (auto refused = unsigned_parameter(target, "limit", max_limit, limit); refused) {
            return *refused;
        }

        if (auto refused = pool_list(target, "with", with, nothing); refused) {
            return *refused;
        }

        if (auto refused = pool_list(target, "without", without, nothing); refused) {
            return *refused;
        }

        std::vector<entity_type> page{};
        std::uint64_t total{};
        page.reserve(static_cast<size_type>(limit));
        const auto keep = [&](const entity_type entt) {
            if (total >= offset && total - offset < limit) {
                page.push_back(entt);
            }

            ++total;
        };

        if (nothing) {
            // asked for a component no entity has
        } else if (with.empty() && without.empty()) {
            // every live entity: positions [0, free_list()) of the entity storage, a page found in O(1)
            const auto &pool = reg->template storage<entity_type>();
            total = pool.free_list();

            for (auto pos = offset; pos < total && pos - offset < limit; ++pos) {
                page.push_back(pool.data()[pos]);
            }
        } else if (with.size() == 1u && without.empty() && with.front()->contiguous()) {
            // one pool without holes: its packed positions, enabled and disabled elements alike, found in O(1)
            const auto &pool = *with.front();
            total = pool.size();

            for (auto pos = offset; pos < total && pos - offset < limit; ++pos) {
                page.push_back(pool.data()[pos]);
            }
        } else {
            // the smallest pool asked for leads (every live entity when none is)
            const common_type *lead = with.empty() ? &reg->template storage<entity_type>() : with.front();

            for (const auto *pool : with) {
                lead = pool->size() < lead->size() ? pool : lead;
            }

            std::erase(with, lead);
            const auto last = lead == &reg->template storage<entity_type>()
                                  ? reg->template storage<entity_type>().free_list()
                                  : lead->size();
            walk(*lead, last, with, without, keep);
        }

        const auto names = named_pools();
        const auto *label = catalogue.label();
        const common_type *label_pool = label == nullptr ? nullptr : std::as_const(*reg).storage(label->pool);
        nlohmann::json rows = nlohmann::json::array();

        for (const auto entt : page) {
            auto row = identifier(entt);
            auto &list = row["components"] = nlohmann::json::array();

            for (const auto &[pool, name] : names) {
                if (pool->contains(entt)) {
                    list.push_back(name);
                }
            }

            row["enabled"] = reg->enabled(entt);

            if (label_pool != nullptr && label_pool->info() == *label->info && label_pool->contains(entt)) {
                row["label"] = label->label(label_pool->value(entt));
            }

            rows.push_back(std::move(row));
        }

        return internal::json_response(
            {{"total", total}, {"offset", offset}, {"limit", limit}, {"entities", std::move(rows)}});
    }

    [[nodiscard]] nlohmann::json component_json(const entity_type entt, const id_type id, common_type &pool) {
        nlohmann::json out{{"name", name_of(id, pool)},
                           {"type", std::string{pool.info().name()}},
                           {"enabled", pool.enabled(entt)},
                           {"can_disable", pool.policy() == deletion_policy::swap_and_pop}};

        if (const auto *entry = entry_of(id, pool); entry != nullptr) {
            out["registered"] = true;
            out["editable"] = entry->editable;
            out["tracked"] = entry->tracked;
            out["size"] = entry->element_size;
            out["value"] = entry->read(pool.value(entt));

            if (entry->field_total != 0u) {
                auto &order = out["fields"] = nlohmann::json::array();

                for (std::size_t pos{}; pos < entry->field_total; ++pos) {
                    order.push_back(std::string{entry->field_names[pos]});
                }
            }
        } else {
            out["registered"] = false;
            out["opaque"] = true;
            out["editable"] = false;
        }

        return out;
    }

    [[nodiscard]] response entity(const entity_type entt) {
        auto out = identifier(entt);
        out["enabled"] = reg->enabled(entt);
        auto &list = out["components"] = nlohmann::json::array();
        const auto report = std::as_const(*reg).memory_report();

        for (auto [id, pool] : reg->storage()) {
            if (!is_entity_mark(pool) && pool.contains(entt)) {
                auto item = component_json(entt, id, pool);

                if (!item.contains("size")) {
                    const auto *row = report.find(id);
                    item["size"] = row == nullptr ? 0u : row->element_size;
                }

                if (const auto *label = catalogue.label();
                    label != nullptr && label->pool == id && *label->info == pool.info()) {
                    out["label"] = label->label(pool.value(entt));
                }

                list.push_back(std::move(item));
            }
        }

        return internal::json_response(out);
    }

    [[nodiscard]] response component_of(const entity_type entt, const std::string &name) {
        const auto found = find_named(name);

        if (!found.found) {
            return internal::error_response(404, "name", "no component or pool named '" + name + "'");
        }

        if (found.pool == nullptr || !found.pool->contains(entt)) {
            return internal::error_response(404, "name", "the entity has no " + name);
        }

        return internal::json_response(component_json(entt, found.id, *found.pool));
    }

    [[nodiscard]] response write_component(const entity_type entt, const std::string &name, const std::string &body) {
        const auto found = find_named(name);

        if (!found.found) {
            return internal::error_response(404, "name", "no component or pool named '" + name + "'");
        }

        if (found.entry == nullptr) {
            return internal::error_response(
                400, "name", name + " is opaque: register it with component<T>() to show and write its values");
        }

        if (!found.entry->editable) {
            return internal::error_response(400, "name",
                                            name + " cannot be written (it has no value, or it cannot "
                                                   "be copied and assigned)");
        }

        if (found.pool == nullptr || !found.pool->contains(entt)) {
            return internal::error_response(404, "name", "the entity has no " + name);
        }

        const auto value = nlohmann::json::parse(body, nullptr, false);

        if (value.is_discarded()) {
            return internal::error_response(400, "body", "malformed JSON");
        }

        if (auto failure = found.entry->write(*found.pool, entt, value); failure) {
            // the field as a path into the body ("body.x"), the message as a person reads it ("position.x: ...")
            const auto where = failure->path.empty() ? name : name + "." + failure->path;
            return internal::error_response(422, failure->path.empty() ? "body" : "body." + failure->path, "",
                                            where + ": " + failure->problem);
        }

        return internal::json_response(component_json(entt, found.id, *found.pool));
    }

    [[nodiscard]] static std::optional<response> parse_switch(const std::string &body, bool &out) {
        const auto value = nlohmann::json::parse(body, nullptr, false);

        if (!value.is_boolean()) {
            return internal::error_response(value.is_discarded() ? 400 : 422, "body",
                                            value.is_discarded() ? "malformed JSON: expected true or false"
                                                                 : "expected true or false");
        }

        out = value.template get<bool>();
        return std::nullopt;
    }

    [[nodiscard]] response enable_entity(const entity_type entt, const std::string &body) {
        bool value{};

        if (auto refused = parse_switch(body, value); refused) {
            return *refused;
        }

        if (value) {
            reg->enable(entt);
        } else {
            // checked before anything changes, as registry.disable would (with assertions on)
            for (auto [id, pool] : reg->storage()) {
                if (pool.contains(entt) && pool.policy() != deletion_policy::swap_and_pop) {
                    return internal::error_response(409, "body",
                                                    "the entity has " + name_of(id, pool) +
                                                        ", whose storage deletes in place: it cannot be "
                                                        "disabled (docs/enable_disable.md)");
                }
            }

            reg->disable(entt);
        }

        auto out = identifier(entt);
        out["enabled"] = reg->enabled(entt);
        return internal::json_response(out);
    }

    [[nodiscard]] response enable_component(const entity_type entt, const std::string &name, const std::string &body) {
        const auto found = find_named(name);

        if (!found.found) {
            return internal::error_response(404, "name", "no component or pool named '" + name + "'");
        }

        if (found.pool == nullptr || !found.pool->contains(entt)) {
            return internal::error_response(404, "name", "the entity has no " + name);
        }

        bool value{};

        if (auto refused = parse_switch(body, value); refused) {
            return *refused;
        }

        if (found.pool->policy() != deletion_policy::swap_and_pop) {
            return internal::error_response(409, "name",
                                            name + " deletes in place: its elements cannot be disabled "
                                                   "(docs/enable_disable.md)");
        }

        if (value) {
            found.pool->enable(entt);
        } else {
            found.pool->disable(entt);
        }

        return internal::json_response(component_json(entt, found.id, *found.pool));
    }

    [[nodiscard]] response destroy(const entity_type entt) {
        auto out = identifier(entt);
        reg->destroy(entt);
        out["destroyed"] = true;
        return internal::json_response(out);
    }

    [[nodiscard]] response changes(const internal::parsed_target &target) {
        if (auto refused = only_parameters(target, {"component", "since", "offset", "limit"}); refused) {
            return *refused;
        }

        const auto *param = target.find("component");
        std::string name{};

        if (param == nullptr || !internal::percent_decode(param->raw, name, true) || name.empty()) {
            return internal::error_response(400, "component", "the name of a tracked component is required");
        }

        auto *entry = catalogue.find(name);

        if (entry == nullptr) {
            return internal::error_response(400, "component", "no registered component named '" + name + "'");
        }

        if (!entry->tracked) {
            return internal::error_response(400, "component",
                                            name + " does not track changes (declare "
                                                   "track_changes, docs/change_detection.md)");
        }

        std::uint64_t since{};
        std::uint64_t offset{};
        std::uint64_t limit{default_limit};

        if (target.find("since") == nullptr) {
            return internal::error_response(400, "since", "the tick to compare with is required");
        }

        if (auto refused = unsigned_parameter(target, "since", std::numeric_limits<tick_type>::max(), since); refused) {
            return *refused;
        }

        if (auto refused = unsigned_parameter(target, "offset", std::numeric_limits<std::uint32_t>::max(), offset);
            refused) {
            return *refused;
        }

        if (auto refused = unsigned_parameter(target, "limit", max_limit, limit); refused) {
            return *refused;
        }

        std::vector<std::pair<entity_type, bool>> found{};

        if (auto *pool = reg->storage(entry->pool); pool != nullptr && pool->info() == *entry->info) {
            entry->changes(*pool, static_cast<tick_type>(since), found);
        }

        nlohmann::json rows = nlohmann::json::array();

        for (auto pos = offset; pos < found.size() && pos - offset < limit; ++pos) {
            auto row = identifier(found[static_cast<size_type>(pos)].first);
            row["added"] = found[static_cast<size_type>(pos)].second;
            rows.push_back(std::move(row));
        }

        return internal::json_response({{"component", name},
                                        {"since", since},
                                        {"tick", reg->tick()},
                                        {"total", found.size()},
                                        {"offset", offset},
                                        {"limit", limit},
                                        {"entities", std::move(rows)}});
    }

    Registry *reg;
    options opts;
    internal::component_catalogue<Registry> catalogue{};
    frame_timings frame_times{};
    std::vector<std::string> accepted_hosts{};
    std::uint64_t frames{};
};

} // namespace tessera::inspector

#endif
