// JSON archives for snapshots, on nlohmann-json: a document a person can read, with one entry per pool keyed by
// the element type's name, and reads that check every field and report what is wrong and where. An optional
// module: link the CMake target tessera::json (which brings nlohmann-json); tessera/tessera.hpp never includes it.
#ifndef TESSERA_ARCHIVE_JSON_HPP
#define TESSERA_ARCHIVE_JSON_HPP

#include "../config/config.hpp"
#include "../core/fwd.hpp"
#include "../core/type_info.hpp"
#include "../entity/entity.hpp"
#include "../entity/memory_report.hpp"
#include "../entity/snapshot.hpp"
#include "../entity/storage.hpp"
#include "json_value.hpp"
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace tessera::archive::json {

/// The document type archives write to and read from.
using document = nlohmann::json;

/// The value of the document's "format" field.
inline constexpr std::string_view format_name{"tessera-json"};

/// The version of the layout this header writes; readers accept it and older ones.
inline constexpr unsigned format_version = 1u;

/// Thrown by input_archive, by the loaders reading from it and by parse(): the message says what is wrong and
/// where, as a JSON pointer (/pools/position/elements/3/value). The registry being loaded stays usable: it holds
/// what was loaded before the error.
class error : public std::runtime_error {
public:
    /// Builds an error from its message.
    explicit error(const std::string &message) : std::runtime_error{"json archive: " + message} {}
};

} // namespace tessera::archive::json

namespace tessera::internal {

/// True if a JSON number is an integer within the range of Type.
template<typename Type>
[[nodiscard]] bool json_integer_fits(const nlohmann::json &node) {
    if (node.is_number_unsigned()) {
        return node.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<Type>::max());
    }

    if (!node.is_number_integer()) {
        return false;
    }

    const auto value = node.get<std::int64_t>();
    return value < 0
               ? value >= static_cast<std::int64_t>(std::numeric_limits<Type>::min())
               : static_cast<std::uint64_t>(value) <= static_cast<std::uint64_t>(std::numeric_limits<Type>::max());
}

} // namespace tessera::internal

namespace tessera::archive::json {

/// Reads a number into an arithmetic or enumeration type, checking that the JSON value is a number (a boolean for
/// bool) and that it fits: nlohmann-json converts a number that does not fit the target type with a plain cast,
/// which is undefined behaviour. Throws json::error. The archive reads arithmetic components this way; call it from
/// the from_json functions of your components for their arithmetic members.
template<typename Type>
requires std::is_arithmetic_v<Type> || std::is_enum_v<Type>
[[nodiscard]] Type number(const document &node) {
    if constexpr (std::is_enum_v<Type>) {
        return static_cast<Type>(number<std::underlying_type_t<Type>>(node));
    } else if constexpr (std::is_same_v<Type, bool>) {
        if (!node.is_boolean()) {
            throw error{std::string{"a boolean was expected, found "} + node.type_name()};
        }

        return node.get<bool>();
    } else {
        if (!node.is_number()) {
            throw error{std::string{"a number was expected, found "} + node.type_name()};
        }

        if constexpr (std::is_floating_point_v<Type>) {
            const auto value = node.get<double>();

            if (!(value >= -static_cast<double>(std::numeric_limits<Type>::max()) &&
                  value <= static_cast<double>(std::numeric_limits<Type>::max()))) {
                throw error{"the number " + node.dump() + " does not fit a floating-point value of this size"};
            }

            return static_cast<Type>(value);
        } else {
            if (!tessera::internal::json_integer_fits<Type>(node)) {
                throw error{"the number " + node.dump() + " is not an integer that fits the component's type"};
            }

            return node.is_number_unsigned() ? static_cast<Type>(node.get<std::uint64_t>())
                                             : static_cast<Type>(node.get<std::int64_t>());
        }
    }
}

} // namespace tessera::archive::json

namespace tessera::internal {

/// True for element types that pools keep no instance of: their entries list identifiers only.
template<typename Type, typename Entity>
inline constexpr bool json_with_values = !std::is_void_v<typename storage_type_t<Type, Entity>::value_type>;

/// What a JSON archive reads or writes next: the snapshot calls it with counts, identifiers and elements in an order
/// fixed by the section (snapshot.hpp).
enum class json_step : std::uint8_t {
    closed,
    size,
    in_use,
    identifier,
    count,
    entity,
    element,
    disabled_count,
    disabled
};

/// The count of a pool with disabled elements carries this bit (snapshot.hpp); its entries are then followed by the
/// list of the disabled identifiers, which a JSON document keeps in the pool's "disabled" array.
template<typename Entity>
inline constexpr std::uint64_t json_disabled_flag = disabled_count_flag<Entity>;

} // namespace tessera::internal

namespace tessera::archive::json {

/// Writes a snapshot of a registry of Entity identifiers into a document. Select a pool with section<Type>() (the
/// identifiers with section<Entity>()) and hand the archive to basic_snapshot::get, as with the binary archive.
template<typename Entity>
class basic_output_archive {
    using step = tessera::internal::json_step;

    template<typename Type>
    [[nodiscard]] static document identifier(const Type value) {
        if constexpr (std::is_same_v<Type, Entity>) {
            return value == null ? document(nullptr) : document(entt_traits<Entity>::to_integral(value));
        } else {
            TESSERA_ASSERT(false, "json output_archive: an identifier was expected; use basic_snapshot::get");
            return document(nullptr);
        }
    }

    template<typename Type>
    [[nodiscard]] static std::uint64_t count(const Type value) {
        if constexpr (std::is_integral_v<Type>) {
            return static_cast<std::uint64_t>(value);
        } else {
            TESSERA_ASSERT(false, "json output_archive: a count was expected; use basic_snapshot::get");
            return 0u;
        }
    }

    template<typename Type>
    basic_output_archive &open(std::string key, const bool values) {
        document &entry = (*out)["pools"][key];
        entry = document::object();
        entry["type"] = std::string{type_name<Type>::value()};
        entry[values ? "elements" : "entities"] = document::array();
        list = &entry[values ? "elements" : "entities"];
        pool = &entry;
        with_values = values;
        next = step::count;
        return *this;
    }

public:
    /// Starts a document in `target` (anything it held is replaced). It must outlive the archive.
    explicit basic_output_archive(document &target) : out{&target} {
        *out = document::object();
        (*out)["format"] = std::string{format_name};
        (*out)["version"] = format_version;
        (*out)["entities"] = document::object();
        (*out)["pools"] = document::object();
    }

    /// Selects pool `id` of Type (its key is the type's name), or the identifiers when Type is the entity type.
    template<typename Type>
    basic_output_archive &section(const id_type id = type_hash<Type>::value()) {
        if constexpr (std::is_same_v<Type, Entity>) {
            document &entities = (*out)["entities"];
            entities["in_use"] = 0u;
            entities["identifiers"] = document::array();
            list = &entities["identifiers"];
            next = step::size;
            return *this;
        } else {
            return open<Type>(tessera::internal::pool_name<Type>(id),
                              tessera::internal::json_with_values<Type, Entity>);
        }
    }

    /// Selects a named pool of Type under the key `name` (pass hashed_string{name} to the snapshot as its id).
    template<typename Type>
    basic_output_archive &section(const std::string_view name) {
        return open<Type>(std::string{name}, tessera::internal::json_with_values<Type, Entity>);
    }

    /// Writes what the snapshot hands over: counts, identifiers and elements. Elements are converted by
    /// nlohmann-json (to_json overloads, or the NLOHMANN_DEFINE_TYPE_* macros, for your types); reflectable
    /// components without them by json_value::to_json (json_value.hpp, docs/reflection.md).
    template<typename Type>
    void operator()(const Type &value) {
        switch (next) {
        case step::size:
            list->get_ref<document::array_t &>().reserve(static_cast<std::size_t>(count(value)));
            next = step::in_use;
            break;
        case step::in_use:
            (*out)["entities"]["in_use"] = count(value);
            next = step::identifier;
            break;
        case step::identifier:
            list->push_back(identifier(value));
            break;
        case step::count: {
            constexpr auto flag = tessera::internal::json_disabled_flag<Entity>;
            const auto length = count(value);
            disabled_follow = (length & flag) != 0u;
            remaining = length & ~flag;
            list->get_ref<document::array_t &>().reserve(static_cast<std::size_t>(remaining));
            entry_done(false);
            break;
        }
        case step::entity:
            if (!with_values) {
                list->push_back(identifier(value));
                entry_done(true);
            } else {
                list->push_back(document{{"entity", identifier(value)}});
                // a hole (null) has no element
                if (list->back()["entity"].is_null()) {
                    entry_done(true);
                } else {
                    next = step::element;
                }
            }
            break;
        case step::element:
            if constexpr (std::is_constructible_v<document, const Type &>) {
                list->back()["value"] = value;
            } else if constexpr (json_value::writable<Type>) {
                // a reflectable component without a to_json of its own (docs/reflection.md)
                list->back()["value"] = json_value::to_json(value);
            } else {
                static_assert(json_value::writable<Type>,
                              "json output_archive: give this component type a to_json overload (nlohmann-json), or "
                              "make it reflectable (docs/reflection.md)");
            }
            entry_done(true);
            break;
        case step::disabled_count:
            (*pool)["disabled"] = document::array();
            list = &(*pool)["disabled"];
            list->get_ref<document::array_t &>().reserve(static_cast<std::size_t>(count(value)));
            next = step::disabled;
            break;
        case step::disabled:
            list->push_back(identifier(value));
            break;
        case step::closed:
            TESSERA_ASSERT(false, "json output_archive: select a section before writing");
            break;
        }
    }

private:
    // After an entry (`one`) or the count: the next entry, or the list of disabled identifiers once the pool's
    // entries are all written and its count said that the list follows.
    void entry_done(const bool one) {
        remaining -= one ? 1u : 0u;
        next = (remaining == 0u && disabled_follow) ? step::disabled_count : step::entity;
    }

    document *out{};
    document *list{};
    document *pool{};
    std::uint64_t remaining{};
    step next{step::closed};
    bool with_values{};
    bool disabled_follow{};
};

/// Reads a snapshot of a registry of Entity identifiers from a document written by basic_output_archive. The
/// constructor checks the layout; section<Type>() selects a pool; every value read is checked. Errors throw
/// json::error.
template<typename Entity>
class basic_input_archive {
    using step = tessera::internal::json_step;

    [[noreturn]] void fail(const std::string &where, const std::string &what) const {
        const std::string place = where.empty() ? path : path + "/" + where;
        // the root's JSON pointer is empty: name it instead of starting the message with a colon
        throw error{(place.empty() ? std::string{"the document"} : place) + ": " + what};
    }

    [[nodiscard]] const document &field(const document &object, const char *name, const std::string &where) const {
        if (!object.is_object()) {
            fail(where, std::string{"an object was expected, found "} + object.type_name());
        }

        const auto found = object.find(name);

        if (found == object.end()) {
            fail(where, std::string{"missing field '"} + name + "'");
        }

        return *found;
    }

    // parsed text gives non-negative integers as unsigned, but a document built in code may hold them as signed
    [[nodiscard]] static bool is_unsigned_integer(const document &node) {
        return node.is_number_unsigned() || (node.is_number_integer() && node.get<std::int64_t>() >= 0);
    }

    [[nodiscard]] const document &current() const {
        if (!(cursor < list->size())) {
            fail("", "the list ends before the snapshot does");
        }

        return (*list)[cursor];
    }

    template<typename Type>
    void read_count(Type &value, const std::size_t count) const {
        if constexpr (std::is_integral_v<Type> && !std::is_same_v<Type, bool>) {
            if (count > static_cast<std::uint64_t>(std::numeric_limits<Type>::max())) {
                fail("", "the list is too long for the identifier type");
            }

            value = static_cast<Type>(count);
        } else {
            TESSERA_ASSERT(false, "json input_archive: a count was expected; use a snapshot loader");
        }
    }

    // Returns true if the identifier read is null: the loaders skip those (holes) and read no element after them.
    template<typename Type>
    [[nodiscard]] bool read_identifier(Type &value, const document &node, const std::string &where) const {
        if constexpr (std::is_same_v<Type, Entity>) {
            using integral = typename entt_traits<Entity>::entity_type;

            if (node.is_null()) {
                value = null;
            } else if (is_unsigned_integer(node)) {
                const auto raw = node.get<std::uint64_t>();

                if (raw > static_cast<std::uint64_t>(std::numeric_limits<integral>::max())) {
                    fail(where, "the identifier " + std::to_string(raw) + " does not fit the identifier type");
                }

                value = Type{static_cast<integral>(raw)};
            } else {
                fail(where,
                     std::string{"an identifier must be an unsigned integer or null, found "} + node.type_name());
            }

            // an identifier with the null index is null too, whatever its version
            return value == null;
        } else {
            TESSERA_ASSERT(false, "json input_archive: an identifier was expected; use a snapshot loader");
            return true;
        }
    }

    template<typename Type>
    void select(const std::string &key, const bool values) {
        const std::string where = "pools/" + key;
        const auto found = pools->find(key);

        if (found == pools->end()) {
            path = {};
            fail(where, "missing pool (the document has no pool of this name)");
        }

        path = "/pools/" + key;
        const document &type = field(*found, "type", "");

        if (!type.is_string() || type.get_ref<const std::string &>() != type_name<Type>::value()) {
            fail("type", "the pool holds " + type.dump() + ", not \"" + std::string{type_name<Type>::value()} + "\"");
        }

        const char *name = values ? "elements" : "entities";
        list = &field(*found, name, "");
        path += std::string{"/"} + name;

        if (!list->is_array()) {
            fail("", std::string{"an array was expected, found "} + list->type_name());
        }

        read.push_back(key);
        disabled = nullptr;

        if (const auto more = found->find("disabled"); more != found->end()) {
            if (!more->is_array()) {
                fail("", std::string{"the disabled list must be an array, found "} + more->type_name());
            }

            disabled = more->empty() ? nullptr : &*more;
        }

        with_values = values;
        cursor = 0u;
        next = step::count;
    }

    // After an entry: the next entry, or the list of disabled identifiers once the entries are all read.
    void entry_done() {
        ++cursor;
        next = (cursor == list->size() && disabled != nullptr) ? step::disabled_count : step::entity;
    }

public:
    /// Checks the document's format, version and layout. The document must outlive the archive.
    explicit basic_input_archive(const document &source) : root{&source} {
        const document &format = field(source, "format", "");

        if (!format.is_string() || format.get_ref<const std::string &>() != format_name) {
            fail("format", "not a tessera JSON snapshot (\"format\" must be \"" + std::string{format_name} + "\")");
        }

        const document &version = field(source, "version", "");

        if (!is_unsigned_integer(version) || version.get<std::uint64_t>() > format_version) {
            fail("version", "the version must be an unsigned integer no greater than " +
                                std::to_string(format_version) + ", found " + version.dump());
        }

        pools = &field(source, "pools", "");

        if (!pools->is_object()) {
            fail("pools", std::string{"an object was expected, found "} + pools->type_name());
        }

        const document &entities = field(source, "entities", "");
        static_cast<void>(field(entities, "in_use", "entities"));
        static_cast<void>(field(entities, "identifiers", "entities"));
    }

    /// True if the document has pool `id` of Type.
    template<typename Type>
    [[nodiscard]] bool contains(const id_type id = type_hash<Type>::value()) const {
        return pools->contains(tessera::internal::pool_name<Type>(id));
    }

    /// Selects pool `id` of Type, or the identifiers when Type is the entity type. Throws if the pool is missing
    /// or holds another type.
    template<typename Type>
    basic_input_archive &section(const id_type id = type_hash<Type>::value()) {
        if constexpr (std::is_same_v<Type, Entity>) {
            path = "/entities/identifiers";
            list = &(*root)["entities"]["identifiers"];

            if (!list->is_array()) {
                fail("", std::string{"an array was expected, found "} + list->type_name());
            }

            cursor = 0u;
            next = step::size;
        } else {
            select<Type>(tessera::internal::pool_name<Type>(id), tessera::internal::json_with_values<Type, Entity>);
        }

        return *this;
    }

    /// Selects the named pool `name` of Type (written with basic_output_archive::section<Type>(name)).
    template<typename Type>
    basic_input_archive &section(const std::string_view name) {
        select<Type>(std::string{name}, tessera::internal::json_with_values<Type, Entity>);
        return *this;
    }

    /// Reads what a loader asks for next: counts, identifiers and elements. Elements are converted by
    /// nlohmann-json (from_json overloads for your types), reflectable ones without them by json_value::from_json;
    /// their conversion errors become json::error.
    template<typename Type>
    void operator()(Type &value) {
        switch (next) {
        case step::size:
            read_count(value, list->size());
            next = step::in_use;
            break;
        case step::in_use: {
            const document &in_use = (*root)["entities"]["in_use"];

            if (!is_unsigned_integer(in_use)) {
                path = "/entities";
                fail("in_use", std::string{"an unsigned integer was expected, found "} + in_use.type_name());
            }

            read_count(value, static_cast<std::size_t>(std::min<std::uint64_t>(
                                  in_use.get<std::uint64_t>(), std::numeric_limits<std::size_t>::max())));
            next = step::identifier;
            break;
        }
        case step::identifier:
            entry = cursor;
            static_cast<void>(read_identifier(value, current(), std::to_string(cursor)));
            ++cursor;
            break;
        case step::count:
            read_count(value, list->size());

            if constexpr (std::is_integral_v<Type> && !std::is_same_v<Type, bool>) {
                if (disabled != nullptr) {
                    value = static_cast<Type>(value | tessera::internal::json_disabled_flag<Entity>);
                }
            }

            next = (list->empty() && disabled != nullptr) ? step::disabled_count : step::entity;
            break;
        case step::entity:
            entry = cursor;

            if (!with_values) {
                static_cast<void>(read_identifier(value, current(), std::to_string(cursor)));
                entry_done();
            } else {
                const auto where = std::to_string(cursor);
                // a hole (null) has no element: the next read is the next entry
                if (read_identifier(value, field(current(), "entity", where), where + "/entity")) {
                    entry_done();
                } else {
                    next = step::element;
                }
            }
            break;
        case step::disabled_count:
            list = disabled;
            path = path.substr(0, path.rfind('/')) + "/disabled";
            cursor = 0u;
            read_count(value, list->size());
            next = step::disabled;
            break;
        case step::disabled:
            entry = cursor;
            static_cast<void>(read_identifier(value, current(), std::to_string(cursor)));
            ++cursor;
            break;
        case step::element: {
            const auto where = std::to_string(cursor);
            const document &node = field(current(), "value", where);

            try {
                if constexpr (std::is_arithmetic_v<Type> || std::is_enum_v<Type>) {
                    value = number<Type>(node);
                } else if constexpr (tessera::internal::nlohmann_reads<Type>) {
                    node.get_to(value);
                } else if constexpr (json_value::readable<Type>) {
                    // a reflectable component without a from_json of its own (docs/reflection.md)
                    if (const auto read = json_value::from_json(node, value); !read) {
                        fail(where + "/value", read.message());
                    }
                } else {
                    static_assert(json_value::readable<Type>,
                                  "json input_archive: give this component type a from_json overload (nlohmann-json), "
                                  "or make it reflectable (docs/reflection.md)");
                }
            } catch (const nlohmann::json::exception &failure) {
                fail(where + "/value", failure.what());
            } catch (const error &failure) {
                // from number(), here or in a component's from_json: without its prefix, the place goes first
                fail(where + "/value", std::string{failure.what()}.substr(std::string_view{"json archive: "}.size()));
            }

            entry_done();
            break;
        }
        case step::closed:
            TESSERA_ASSERT(false, "json input_archive: select a section before reading");
            break;
        }
    }

    /// Reports data the loaders cannot use (an identifier they reject, an entity twice in a pool), with the
    /// place of the last entry read.
    [[noreturn]] void corrupt(const char *message) const { fail(std::to_string(entry), message); }

    /// The keys of the document's pools that no section() selected.
    [[nodiscard]] std::vector<std::string> unread_pools() const {
        std::vector<std::string> out{};

        for (const auto &entry : pools->items()) {
            if (std::find(read.begin(), read.end(), entry.key()) == read.end()) {
                out.push_back(entry.key());
            }
        }

        return out;
    }

    /// Throws unless every pool of the document was selected: a pool nothing reads is data that would be lost.
    void expect_all_read() const {
        if (const auto left = unread_pools(); !left.empty()) {
            throw error{"/pools/" + left.front() + ": unknown pool (nothing loads a pool of this name)"};
        }
    }

private:
    const document *root{};
    const document *pools{};
    const document *list{};
    // the pool's "disabled" array when it has one that is not empty
    const document *disabled{};
    std::vector<std::string> read{};
    std::string path{};
    std::size_t cursor{};
    // the entry whose identifier was read last: where a loader's complaint points
    std::size_t entry{};
    step next{step::closed};
    bool with_values{};
};

/// Writes snapshots of registries of tessera::entity.
using output_archive = basic_output_archive<entity>;

/// Reads snapshots of registries of tessera::entity.
using input_archive = basic_input_archive<entity>;

/// Parses JSON text; a syntax error becomes json::error.
[[nodiscard]] inline document parse(const std::string_view text) {
    try {
        return document::parse(text.begin(), text.end());
    } catch (const nlohmann::json::exception &failure) {
        throw error{failure.what()};
    }
}

/// Saves the identifiers of `reg` and its default pools of Type... into a new document.
template<typename... Type, typename Registry>
[[nodiscard]] document save(const Registry &reg) {
    using entity_type = typename Registry::entity_type;
    document out{};
    basic_output_archive<entity_type> archive{out};
    const basic_snapshot<Registry> snapshot{reg};
    snapshot.template get<entity_type>(archive.template section<entity_type>());
    (snapshot.template get<Type>(archive.template section<Type>()), ...);
    return out;
}

/// Loads what save<Type...> wrote into `reg`, which must have no entity in use. Throws json::error on bad data,
/// pools that are missing, and pools of the document that are not among Type... .
template<typename... Type, typename Registry>
void load(Registry &reg, const document &source) {
    using entity_type = typename Registry::entity_type;
    basic_input_archive<entity_type> archive{source};
    basic_snapshot_loader<Registry> loader{reg};
    loader.template get<entity_type>(archive.template section<entity_type>());
    (loader.template get<Type>(archive.template section<Type>()), ...);
    archive.expect_all_read();
}

} // namespace tessera::archive::json

#endif
