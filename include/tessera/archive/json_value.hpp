// One value to and from JSON (nlohmann-json), through reflection (core/reflect.hpp): the conversion the JSON archive
// uses for components that have no to_json/from_json of their own, and that tools (a live inspector) use to show and
// edit components. Reads check every value, name the field that is wrong and leave the target unchanged on failure.
// Part of the optional module tessera::json; docs/reflection.md describes the JSON form of each kind of value.
#ifndef TESSERA_ARCHIVE_JSON_VALUE_HPP
#define TESSERA_ARCHIVE_JSON_VALUE_HPP

#include "../config/config.hpp"
#include "../core/reflect.hpp"
#include "../core/type_info.hpp"
#include "../entity/entity.hpp"
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace tessera::json_value {

/// What from_json reports: nothing on success; otherwise where the value is wrong and what is wrong with it.
struct result {
    /// The place of the wrong value: field names joined by '.', element indexes as [i], prefixed with
    /// read_options::root; empty for the value itself.
    std::string path{};
    /// What is wrong ("expected a number, found string"); empty on success.
    std::string problem{};

    /// True on success.
    [[nodiscard]] bool ok() const noexcept { return problem.empty(); }

    /// True on success.
    [[nodiscard]] explicit operator bool() const noexcept { return ok(); }

    /// "path: problem", the problem alone when the path is empty, an empty string on success.
    [[nodiscard]] std::string message() const { return path.empty() ? problem : path + ": " + problem; }
};

/// How from_json reads.
struct read_options {
    /// A name put before every path of the result, such as the component's name: "position" gives "position.x".
    std::string_view root{};
    /// True to read a patch: the fields of objects (and identifiers) missing from the JSON keep their value.
    /// Otherwise every field must be present.
    bool partial{false};
};

} // namespace tessera::json_value

namespace tessera::internal {

// Poison pills: unqualified calls below find to_json and from_json by argument-dependent lookup only, so a function
// of the user's namespace is found and nothing of tessera's is.
namespace json_lookup {

void to_json() = delete;
void from_json() = delete;

/// True if a to_json(nlohmann::json &, const Type &) of the user's is found through Type (for enums:
/// NLOHMANN_JSON_SERIALIZE_ENUM or a hand-written one).
template<typename Type>
concept user_to_json = requires(nlohmann::json &node, const Type &value) {
    to_json(node, value);
};

/// True if a from_json(const nlohmann::json &, Type &) of the user's is found through Type.
template<typename Type>
concept user_from_json = requires(const nlohmann::json &node, Type &value) {
    from_json(node, value);
};

} // namespace json_lookup

/// True if nlohmann-json writes class Type itself: a to_json of the user's, an adl_serializer specialization, or a
/// type it knows (std::map, std::pair, ...).
template<typename Type>
concept nlohmann_writes = requires(nlohmann::json &node, const Type &value) {
    nlohmann::adl_serializer<Type>::to_json(node, value);
};

/// True if nlohmann-json reads class Type itself.
template<typename Type>
concept nlohmann_reads = requires(const nlohmann::json &node, Type &value) {
    nlohmann::adl_serializer<Type>::from_json(node, value);
};

/// How a type converts: by nlohmann-json (the user's functions win), or by its kind.
enum class json_route : std::uint8_t { nlohmann, kind };

template<typename Type>
[[nodiscard]] consteval json_route write_route() noexcept {
    constexpr auto kind = value_kind_v<Type>;
    if constexpr (kind == value_kind::enumeration) {
        return json_lookup::user_to_json<Type> ? json_route::nlohmann : json_route::kind;
    } else if constexpr (kind == value_kind::object || kind == value_kind::opaque) {
        if constexpr (std::is_class_v<Type>) {
            return nlohmann_writes<Type> ? json_route::nlohmann : json_route::kind;
        } else {
            return json_route::kind;
        }
    } else {
        return json_route::kind;
    }
}

template<typename Type>
[[nodiscard]] consteval json_route read_route() noexcept {
    constexpr auto kind = value_kind_v<Type>;
    if constexpr (kind == value_kind::enumeration) {
        return json_lookup::user_from_json<Type> ? json_route::nlohmann : json_route::kind;
    } else if constexpr (kind == value_kind::object || kind == value_kind::opaque) {
        if constexpr (std::is_class_v<Type>) {
            return nlohmann_reads<Type> ? json_route::nlohmann : json_route::kind;
        } else {
            return json_route::kind;
        }
    } else {
        return json_route::kind;
    }
}

template<typename Type>
struct json_element {
    using type = void;
};

template<typename Type, std::size_t Size>
struct json_element<Type[Size]> {
    using type = Type;
};

template<typename Type>
requires requires { typename Type::value_type; }
struct json_element<Type> {
    using type = typename Type::value_type;
};

template<typename Type>
using json_element_t = std::remove_cv_t<typename json_element<Type>::type>;

/// The number of elements of a C array or a std::array.
template<typename Type>
inline constexpr std::size_t json_extent = [] {
    if constexpr (std::is_array_v<Type>) {
        return std::extent_v<Type>;
    } else {
        return std::tuple_size_v<Type>;
    }
}();

template<typename Type>
[[nodiscard]] consteval bool json_writable() noexcept;

template<typename Type>
[[nodiscard]] consteval bool json_readable() noexcept;

template<typename... Field>
[[nodiscard]] consteval bool json_fields_writable(type_list<Field...>) noexcept {
    return (json_writable<Field>() && ...);
}

template<typename Type>
[[nodiscard]] consteval bool json_writable() noexcept {
    constexpr auto kind = value_kind_v<Type>;
    if constexpr (write_route<Type>() == json_route::nlohmann) {
        return true;
    } else if constexpr (kind == value_kind::array || kind == value_kind::vector || kind == value_kind::optional) {
        return json_writable<json_element_t<Type>>();
    } else if constexpr (kind == value_kind::object) {
        return json_fields_writable(field_types_t<Type>{});
    } else {
        return kind != value_kind::opaque;
    }
}

// Fields are read in place, so a const one cannot be read (and makes its class unassignable anyway).
template<typename... Field>
[[nodiscard]] consteval bool json_fields_readable(type_list<Field...>) noexcept {
    return ((!std::is_const_v<Field> && json_readable<std::remove_cv_t<Field>>()) && ...);
}

template<typename Type>
[[nodiscard]] consteval bool json_readable() noexcept {
    constexpr auto kind = value_kind_v<Type>;
    if constexpr (read_route<Type>() == json_route::nlohmann) {
        return true;
    } else if constexpr (kind == value_kind::array) {
        return json_readable<json_element_t<Type>>();
    } else if constexpr (kind == value_kind::vector || kind == value_kind::optional) {
        // new elements start from a value-initialized one
        return json_readable<json_element_t<Type>>() && std::is_default_constructible_v<json_element_t<Type>>;
    } else if constexpr (kind == value_kind::object) {
        return json_fields_readable(declared_field_types<Type>());
    } else {
        return kind != value_kind::opaque;
    }
}

} // namespace tessera::internal

namespace tessera::json_value {

/// True if to_json converts every part of Type: nothing opaque without a to_json of its own.
template<typename Type>
concept writable = internal::json_writable<std::remove_cv_t<Type>>();

/// True if from_json reads every part of Type: nothing opaque without a from_json of its own, no const field, a
/// default constructor for the elements of vectors and optionals.
template<typename Type>
concept readable = internal::json_readable<std::remove_cv_t<Type>>();

} // namespace tessera::json_value

namespace tessera::internal {

/// The name error messages give an arithmetic type: the <cstdint> name of integers, so that a message says
/// "std::uint16_t" whatever the platform calls it.
template<typename Type>
[[nodiscard]] constexpr std::string_view arithmetic_name() noexcept {
    if constexpr (std::is_same_v<Type, bool>) {
        return "bool";
    } else if constexpr (std::is_same_v<Type, char>) {
        return "char";
    } else if constexpr (std::is_same_v<Type, wchar_t>) {
        return "wchar_t";
    } else if constexpr (std::is_same_v<Type, char8_t>) {
        return "char8_t";
    } else if constexpr (std::is_same_v<Type, char16_t>) {
        return "char16_t";
    } else if constexpr (std::is_same_v<Type, char32_t>) {
        return "char32_t";
    } else if constexpr (std::is_same_v<Type, float>) {
        return "float";
    } else if constexpr (std::is_same_v<Type, double>) {
        return "double";
    } else if constexpr (std::is_same_v<Type, long double>) {
        return "long double";
    } else if constexpr (std::is_signed_v<Type>) {
        constexpr std::string_view names[]{"std::int8_t", "std::int16_t", "std::int32_t", "std::int64_t"};
        return names[sizeof(Type) == 1u ? 0u : sizeof(Type) == 2u ? 1u : sizeof(Type) == 4u ? 2u : 3u];
    } else {
        constexpr std::string_view names[]{"std::uint8_t", "std::uint16_t", "std::uint32_t", "std::uint64_t"};
        return names[sizeof(Type) == 1u ? 0u : sizeof(Type) == 2u ? 1u : sizeof(Type) == 4u ? 2u : 3u];
    }
}

/// Reads values into a copy: carries the path of the value being read and stops at the first problem.
class json_reader {
public:
    explicit json_reader(const json_value::read_options &options) : path{options.root}, partial{options.partial} {}

    /// Reads `node` into `value`; false (and the report filled) on the first problem.
    template<typename Type>
    [[nodiscard]] bool read(const nlohmann::json &node, Type &value) {
        constexpr auto kind = value_kind_v<Type>;

        if constexpr (read_route<Type>() == json_route::nlohmann) {
            return read_with_nlohmann(node, value);
        } else if constexpr (kind == value_kind::boolean) {
            if (!node.is_boolean()) {
                return expected("a boolean", node);
            }
            value = node.get<bool>();
            return true;
        } else if constexpr (kind == value_kind::integer) {
            return read_integer(node, value);
        } else if constexpr (kind == value_kind::floating) {
            return read_floating(node, value);
        } else if constexpr (kind == value_kind::enumeration) {
            return read_enum(node, value);
        } else if constexpr (kind == value_kind::string) {
            if (!node.is_string()) {
                return expected("a string", node);
            }
            value = node.get_ref<const std::string &>();
            return true;
        } else if constexpr (kind == value_kind::array) {
            return read_array(node, value);
        } else if constexpr (kind == value_kind::vector) {
            return read_vector(node, value);
        } else if constexpr (kind == value_kind::optional) {
            return read_optional(node, value);
        } else if constexpr (kind == value_kind::object) {
            return read_object(node, value);
        } else if constexpr (kind == value_kind::identifier) {
            return read_identifier(node, value);
        } else {
            // opaque: only its description (what describe() writes) is accepted, and changes nothing
            if (node.is_object() && node.contains("opaque")) {
                return true;
            }
            return fail(std::string{type_name<Type>::value()} + " is opaque: it cannot be read from JSON");
        }
    }

    /// The report: the path of the problem and the problem.
    [[nodiscard]] json_value::result take() && { return json_value::result{std::move(failed_at), std::move(problem)}; }

private:
    [[nodiscard]] bool fail(std::string what) {
        failed_at = path;
        problem = std::move(what);
        return false;
    }

    [[nodiscard]] bool expected(const char *what, const nlohmann::json &node) {
        return fail(std::string{"expected "} + what + ", found " + describe_node(node));
    }

    // A key of the input in a path: cut, so that a report never echoes a long key back.
    [[nodiscard]] static std::string_view shown_key(const std::string &key) noexcept {
        return std::string_view{key}.substr(0u, 64u);
    }

    [[nodiscard]] static std::string describe_node(const nlohmann::json &node) {
        // a scalar is shown (short ones), the others by their type
        if (node.is_number() || node.is_boolean()) {
            return node.dump();
        }
        return node.type_name();
    }

    template<typename Type>
    [[nodiscard]] bool read_with_nlohmann(const nlohmann::json &node, Type &value) {
        try {
            nlohmann::adl_serializer<Type>::from_json(node, value);
            return true;
        } catch (const std::exception &failure) {
            return fail(failure.what());
        }
    }

    template<typename Type>
    [[nodiscard]] bool out_of_range(const nlohmann::json &node) {
        return fail(node.dump() + " is out of range for " + std::string{arithmetic_name<Type>()});
    }

    template<typename Type>
    [[nodiscard]] bool read_integer(const nlohmann::json &node, Type &value) {
        using limits = std::numeric_limits<Type>;

        if (node.is_number_unsigned()) {
            const auto raw = node.get<std::uint64_t>();
            if (raw > static_cast<std::uint64_t>(limits::max())) {
                return out_of_range<Type>(node);
            }
            value = static_cast<Type>(raw);
        } else if (node.is_number_integer()) {
            const auto raw = node.get<std::int64_t>();
            if constexpr (std::is_signed_v<Type>) {
                if (raw < static_cast<std::int64_t>(limits::min()) || raw > static_cast<std::int64_t>(limits::max())) {
                    return out_of_range<Type>(node);
                }
            } else {
                if (raw < 0 || static_cast<std::uint64_t>(raw) > static_cast<std::uint64_t>(limits::max())) {
                    return out_of_range<Type>(node);
                }
            }
            value = static_cast<Type>(raw);
        } else if (node.is_number_float()) {
            // 3.0 is an integer written by a tool that knows only doubles; 3.5 is not
            const auto raw = node.get<double>();
            if (!(std::isfinite(raw) && std::trunc(raw) == raw)) {
                return expected("an integer", node);
            }
            // 2^(digits) as a double, exactly: the first value past the top of Type (the bottom is -2^(digits) for
            // signed types, 0 for unsigned ones)
            constexpr double past = 2.0 * static_cast<double>((static_cast<std::uint64_t>(limits::max()) >> 1u) + 1u);
            constexpr double lowest = std::is_signed_v<Type> ? -past : 0.0;
            if (!(raw >= lowest && raw < past)) {
                return out_of_range<Type>(node);
            }
            value = static_cast<Type>(raw);
        } else {
            return expected("an integer", node);
        }

        return true;
    }

    template<typename Type>
    [[nodiscard]] bool read_floating(const nlohmann::json &node, Type &value) {
        if (node.is_string()) {
            // what to_json writes for the values JSON has no number for
            const auto &text = node.get_ref<const std::string &>();
            if (text == "nan") {
                value = std::numeric_limits<Type>::quiet_NaN();
            } else if (text == "inf") {
                value = std::numeric_limits<Type>::infinity();
            } else if (text == "-inf") {
                value = -std::numeric_limits<Type>::infinity();
            } else {
                return fail("expected a number, found the string \"" + text.substr(0u, 32u) + "\"");
            }
            return true;
        }

        if (!node.is_number()) {
            return expected("a number", node);
        }

        const auto raw = node.get<double>();
        if constexpr (sizeof(Type) < sizeof(double)) {
            if (!(raw >= -static_cast<double>(std::numeric_limits<Type>::max()) &&
                  raw <= static_cast<double>(std::numeric_limits<Type>::max()))) {
                return out_of_range<Type>(node);
            }
        }
        value = static_cast<Type>(raw);
        return true;
    }

    template<typename Type>
    [[nodiscard]] bool read_enum(const nlohmann::json &node, Type &value) {
        if (node.is_string()) {
            const auto &text = node.get_ref<const std::string &>();
            if (const auto found = enum_from_name<Type>(text); found) {
                value = *found;
                return true;
            }
            return fail("\"" + text.substr(0u, 64u) + "\" is not an enumerator of " +
                        std::string{type_name<Type>::value()});
        }

        std::underlying_type_t<Type> number{};
        if (!node.is_number()) {
            return expected("an enumerator's name or a number", node);
        }
        if (!read(node, number)) {
            return false;
        }
        value = static_cast<Type>(number);
        return true;
    }

    // The index of an element, appended to the path while the element is read.
    class element_scope {
    public:
        element_scope(std::string &target, const std::size_t index) : path{target}, size{target.size()} {
            path += '[';
            path += std::to_string(index);
            path += ']';
        }

        element_scope(std::string &target, const std::string_view name) : path{target}, size{target.size()} {
            if (!path.empty()) {
                path += '.';
            }
            path += name;
        }

        element_scope(const element_scope &) = delete;
        element_scope &operator=(const element_scope &) = delete;

        ~element_scope() { path.resize(size); }

    private:
        std::string &path;
        std::size_t size;
    };

    template<typename Type>
    [[nodiscard]] bool read_array(const nlohmann::json &node, Type &value) {
        constexpr std::size_t size = json_extent<Type>;

        if (!node.is_array()) {
            return expected("an array", node);
        }
        if (node.size() != size) {
            return fail("expected " + std::to_string(size) + " elements, found " + std::to_string(node.size()));
        }

        for (std::size_t pos{}; pos < size; ++pos) {
            const element_scope scope{path, pos};
            if (!read(node[pos], value[pos])) {
                return false;
            }
        }
        return true;
    }

    template<typename Type>
    [[nodiscard]] bool read_vector(const nlohmann::json &node, Type &value) {
        using element = json_element_t<Type>;

        if (!node.is_array()) {
            return expected("an array", node);
        }

        Type out{};
        out.reserve(node.size());

        for (std::size_t pos{}; pos < node.size(); ++pos) {
            const element_scope scope{path, pos};
            // a patch changes the elements that exist: start from them
            element item = (partial && pos < value.size()) ? element(value[pos]) : element{};
            if (!read(node[pos], item)) {
                return false;
            }
            out.push_back(std::move(item));
        }

        value = std::move(out);
        return true;
    }

    template<typename Type>
    [[nodiscard]] bool read_optional(const nlohmann::json &node, Type &value) {
        using element = json_element_t<Type>;

        if (node.is_null()) {
            value.reset();
            return true;
        }

        element item = (partial && value.has_value()) ? element(*value) : element{};
        if (!read(node, item)) {
            return false;
        }
        value = std::move(item);
        return true;
    }

    template<typename Type>
    [[nodiscard]] bool read_object(const nlohmann::json &node, Type &value) {
        if (!node.is_object()) {
            return expected("an object", node);
        }

        bool good = true;
        for_each_field(value, [&](const std::string_view name, auto &field) {
            if (!good) {
                return;
            }

            const element_scope scope{path, name};
            const auto found = node.find(name);

            using field_type = std::remove_reference_t<decltype(field)>;
            // a const field or an opaque one cannot be written: its absence changes nothing
            constexpr bool required =
                !std::is_const_v<field_type> && value_kind_v<std::remove_cv_t<field_type>> != value_kind::opaque;

            if (found == node.end()) {
                if (!partial && required) {
                    good = fail("missing field");
                }
            } else if constexpr (std::is_const_v<field_type>) {
                good = fail("the field is const: it cannot be read");
            } else {
                good = read(*found, field);
            }
        });

        if (good) {
            for (const auto &entry : node.items()) {
                if (!is_field_name<Type>(entry.key())) {
                    const element_scope scope{path, shown_key(entry.key())};
                    return fail("unknown field");
                }
            }
        }

        return good;
    }

    template<typename Type>
    [[nodiscard]] static bool is_field_name(const std::string_view name) noexcept {
        for (const auto known : field_names_v<Type>) {
            if (known == name) {
                return true;
            }
        }
        return false;
    }

    // One part of an identifier written as an object: an unsigned integer up to `limit`.
    template<typename Type>
    [[nodiscard]] bool read_part(const nlohmann::json &node, const char *name, const Type limit, Type &part,
                                 bool &present) {
        const auto found = node.find(name);
        present = found != node.end();
        const element_scope scope{path, std::string_view{name}};

        if (!present) {
            return partial || fail("missing field");
        }
        if (!(found->is_number_unsigned() ||
              (found->is_number_integer() && found->template get<std::int64_t>() >= 0))) {
            return expected("an unsigned integer", *found);
        }

        const auto raw = found->template get<std::uint64_t>();
        if (raw > static_cast<std::uint64_t>(limit)) {
            return fail(found->dump() + " is out of range (at most " + std::to_string(limit) + ")");
        }
        part = static_cast<Type>(raw);
        return true;
    }

    template<typename Type>
    [[nodiscard]] bool read_identifier(const nlohmann::json &node, Type &value) {
        using traits = entt_traits<Type>;
        using integral = typename traits::entity_type;

        if (node.is_null()) {
            value = null;
            return true;
        }

        if (node.is_number()) {
            integral raw{};
            if (!read(node, raw)) {
                return false;
            }
            value = Type{raw};
            return true;
        }

        if (!node.is_object()) {
            return expected("an identifier ({\"index\": I, \"version\": V}, an integer or null)", node);
        }

        integral index{};
        integral version{};
        bool has_index{};
        bool has_version{};
        if (!read_part(node, "index", traits::entity_mask, index, has_index) ||
            !read_part(node, "version", traits::version_mask, version, has_version)) {
            return false;
        }

        for (const auto &entry : node.items()) {
            if (entry.key() != "index" && entry.key() != "version") {
                const element_scope scope{path, shown_key(entry.key())};
                return fail("unknown field");
            }
        }

        // a patch keeps the parts it does not give
        const integral new_index = has_index ? index : traits::to_entity(value);
        const integral new_version = has_version ? version : static_cast<integral>(traits::to_version(value));
        value = traits::construct(new_index, static_cast<typename traits::version_type>(new_version));
        return true;
    }

    std::string path;
    std::string failed_at{};
    std::string problem{};
    bool partial;
};

template<bool Describe, typename Type>
[[nodiscard]] nlohmann::json write_json(const Type &value) {
    constexpr auto kind = value_kind_v<Type>;

    if constexpr (write_route<Type>() == json_route::nlohmann) {
        nlohmann::json out{};
        nlohmann::adl_serializer<Type>::to_json(out, value);
        return out;
    } else if constexpr (kind == value_kind::boolean) {
        return nlohmann::json(value);
    } else if constexpr (kind == value_kind::integer) {
        if constexpr (std::is_signed_v<Type>) {
            return nlohmann::json(static_cast<std::int64_t>(value));
        } else {
            return nlohmann::json(static_cast<std::uint64_t>(value));
        }
    } else if constexpr (kind == value_kind::floating) {
        if (std::isnan(value)) {
            return nlohmann::json("nan");
        } else if (std::isinf(value)) {
            return nlohmann::json(value > 0 ? "inf" : "-inf");
        }
        return nlohmann::json(static_cast<double>(value));
    } else if constexpr (kind == value_kind::enumeration) {
        if (const auto name = enum_name(value); !name.empty()) {
            return nlohmann::json(name);
        }
        return write_json<Describe>(static_cast<std::underlying_type_t<Type>>(value));
    } else if constexpr (kind == value_kind::string) {
        return nlohmann::json(value);
    } else if constexpr (kind == value_kind::array || kind == value_kind::vector) {
        auto out = nlohmann::json::array();
        for (const auto &element : value) {
            if constexpr (std::is_same_v<json_element_t<Type>, bool>) {
                out.push_back(nlohmann::json(static_cast<bool>(element)));
            } else {
                out.push_back(write_json<Describe>(element));
            }
        }
        return out;
    } else if constexpr (kind == value_kind::optional) {
        return value.has_value() ? write_json<Describe>(*value) : nlohmann::json(nullptr);
    } else if constexpr (kind == value_kind::object) {
        auto out = nlohmann::json::object();
        for_each_field(value, [&out](const std::string_view name, const auto &field) {
            out[std::string{name}] = write_json<Describe>(field);
        });
        return out;
    } else if constexpr (kind == value_kind::identifier) {
        using traits = entt_traits<Type>;
        // the exact null (every bit set) is null; any other identifier keeps its index and version
        if (traits::to_integral(value) == traits::to_integral(static_cast<Type>(null))) {
            return nlohmann::json(nullptr);
        }
        return nlohmann::json{{"index", static_cast<std::uint64_t>(traits::to_entity(value))},
                              {"version", static_cast<std::uint64_t>(traits::to_version(value))}};
    } else if constexpr (Describe) {
        return nlohmann::json{{"opaque", std::string{type_name<Type>::value()}}, {"size", sizeof(Type)}};
    } else {
        static_assert(reflect_false<Type>, "json_value::to_json: a part of this value is opaque (not reflectable, no "
                                           "to_json): give it a to_json, make it an aggregate, describe it with "
                                           "reflected_fields, or call describe() to show it");
        return {};
    }
}

} // namespace tessera::internal

namespace tessera::json_value {

/// The JSON form of `value` (docs/reflection.md): numbers, booleans and strings as such (non-finite floating-point
/// values as "nan", "inf", "-inf"); enums by name when the value has one, by number otherwise; arrays, vectors as
/// arrays; optionals as null or the value; reflectable classes as objects keyed by field name; identifiers as
/// {"index": I, "version": V} (null as null). A to_json of the user's (or an adl_serializer) wins for classes and
/// enums. Every part must be writable: an opaque one fails to compile with a message (describe() shows them).
template<typename Type>
[[nodiscard]] nlohmann::json to_json(const Type &value) {
    static_assert(writable<Type>, "json_value::to_json: a part of this value is opaque (not reflectable, no to_json): "
                                  "give it a to_json, make it an aggregate, describe it with reflected_fields, or "
                                  "call describe() to show it");
    return internal::write_json<false>(value);
}

/// As to_json, for any value: opaque parts are written as {"opaque": "<type name>", "size": <bytes>}. What a tool
/// shows; from_json accepts it back and leaves the opaque parts as they are.
template<typename Type>
[[nodiscard]] nlohmann::json describe(const Type &value) {
    return internal::write_json<true>(value);
}

/// Reads `node` into `value`, checking every part: types, ranges, the fields of objects (all present unless
/// options.partial, none unknown), array sizes, enumerator names. On success `value` holds what was read; on failure
/// `value` is unchanged (the read goes into a copy, assigned at the end) and the result names the place and the
/// problem: "position.x: expected a number, found string", "health.max: 70000 is out of range for std::uint16_t".
/// Opaque parts are not read: their description (describe()) or their absence leaves them as they are. A from_json of
/// the user's wins for classes and enums; what it throws becomes the problem.
template<typename Type>
[[nodiscard]] result from_json(const nlohmann::json &node, Type &value, const read_options &options = {}) {
    static_assert(!std::is_const_v<Type>, "json_value::from_json: the target is const");
    internal::json_reader reader{options};

    if constexpr (std::is_array_v<Type>) {
        std::remove_cv_t<Type> copy{};
        std::copy(std::begin(value), std::end(value), std::begin(copy));
        if (reader.read(node, copy)) {
            std::copy(std::begin(copy), std::end(copy), std::begin(value));
        }
    } else {
        static_assert(std::is_copy_constructible_v<Type> && std::is_copy_assignable_v<Type>,
                      "json_value::from_json: the target must be copyable (the read goes into a copy, so that a "
                      "failed read leaves it unchanged)");
        Type copy(value);
        if (reader.read(node, copy)) {
            value = std::move(copy);
        }
    }

    return std::move(reader).take();
}

} // namespace tessera::json_value

#endif
