// The component types an inspector shows by name: one entry per registered type (server.component<T>()), with the
// type-erased functions the handlers call to show a value, write one, and list the entities whose value changed.
// Values go to and from JSON through the reflection of tessera/archive/json_value.hpp: no field is registered by
// hand. Pools of types nobody registered are still listed, as opaque (type name and sizes).
#ifndef TESSERA_INSPECTOR_COMPONENTS_HPP
#define TESSERA_INSPECTOR_COMPONENTS_HPP

#include "../archive/json_value.hpp"
#include "../config/config.hpp"
#include "../core/reflect.hpp"
#include "../core/type_info.hpp"
#include "../entity/change_filter.hpp"
#include "../entity/component.hpp"
#include "../entity/entity.hpp"
#include "../entity/runtime_view.hpp"
#include "fwd.hpp"
#include <algorithm>
#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace tessera::inspector {

/// The name a component type gets when the program gives none: its type name without namespaces
/// (battle::position is "position", std::vector<int> is "vector<int>").
template<typename Type>
[[nodiscard]] std::string default_name() {
    const std::string_view name = type_name<Type>::value();
    std::size_t start{};
    int depth{};

    // the last "::" outside template arguments ends the qualification
    for (std::size_t pos{}; pos < name.size(); ++pos) {
        if (name[pos] == '<' || name[pos] == '(') {
            ++depth;
        } else if (name[pos] == '>' || name[pos] == ')') {
            --depth;
        } else if (depth == 0 && name[pos] == ':' && pos + 1u < name.size() && name[pos + 1u] == ':') {
            start = pos + 2u;
        }
    }

    return std::string{name.substr(start)};
}

namespace internal {

/// What went wrong reading a value: where (json_value's path: "x", "inner.x", "list[3]"; empty for the value
/// itself) and why.
struct value_error {
    std::string path{};
    std::string problem{};
};

/// The value of an element as JSON: reflected fields, or the type's own to_json; parts that cannot be shown are
/// written as {"opaque": type name, "size": bytes} (json_value::describe).
template<typename Type>
[[nodiscard]] nlohmann::json value_to_json(const Type &value) {
    return json_value::describe(value);
}

/// Reads `value` from JSON, every field required; on failure `value` is unchanged and the error says where and why.
template<typename Type>
[[nodiscard]] std::optional<value_error> value_from_json(const nlohmann::json &in, Type &value) {
    if (auto outcome = json_value::from_json(in, value); !outcome.ok()) {
        return value_error{std::move(outcome.path), std::move(outcome.problem)};
    }

    return std::nullopt;
}

/// The short text of a value for the label column: a string as it is, a one-field object as its field, anything
/// else as compact JSON; at most 80 characters.
[[nodiscard]] inline std::string label_text(const nlohmann::json &value) {
    const nlohmann::json *curr = &value;

    while (curr->is_object() && curr->size() == 1u) {
        curr = &curr->begin().value();
    }

    std::string text = curr->is_string() ? curr->get<std::string>()
                                         : curr->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);

    if (text.size() > 80u) {
        text.resize(77u);
        text.append("...");
    }

    return text;
}

/// A registered component type, type-erased. Every function is given the pool (whose element type the caller has
/// checked against `info`) and trusts it.
template<typename Registry>
struct component_entry {
    using entity_type = typename Registry::entity_type;
    using common_type = typename Registry::common_type;

    /// The value of an element as JSON; {} for types without instances.
    using read_function = nlohmann::json(const void *element);
    /// Replaces the entity's element with the value read from JSON (through the pool's patch, so that the update
    /// signals fire as for registry.replace); on failure nothing changes and the error is returned.
    using write_function = std::optional<value_error>(common_type &pool, entity_type entt, const nlohmann::json &in);
    /// Appends the entities whose element was added or changed after `since` (and whether it was added).
    using changes_function = void(common_type &pool, tick_type since, std::vector<std::pair<entity_type, bool>> &out);

    std::string name{};
    id_type pool{};
    const type_info *info{};
    std::size_t element_size{};
    bool editable{};
    bool tracked{};
    bool can_disable{};
    read_function *read{};
    write_function *write{};
    changes_function *changes{};
    /// The names of a reflected type's fields in declaration order (JSON objects list them sorted by name, so the
    /// page asks for this order), or none.
    const std::string_view *field_names{};
    std::size_t field_total{};
    /// The label of an element, when the program named this type the label.
    std::function<std::string(const void *element)> label{};
};

/// The entry of Type, stored in the pool `pool`.
template<typename Registry, typename Type>
[[nodiscard]] component_entry<Registry> make_component_entry(std::string name, const id_type pool) {
    using entry_type = component_entry<Registry>;
    using entity_type = typename Registry::entity_type;
    using storage_type = typename Registry::template storage_for_type<Type>;
    using traits_type = component_traits<Type>;
    constexpr bool has_instances = traits_type::page_size != 0u;

    entry_type entry{};
    entry.name = std::move(name);
    entry.pool = pool;
    entry.info = &type_id<Type>();
    entry.element_size = has_instances ? sizeof(Type) : 0u;
    entry.tracked = traits_type::track_changes;
    // in-place storages promise that elements never move, and disabling moves them (docs/enable_disable.md)
    entry.can_disable = !traits_type::in_place_delete;

    if constexpr (reflectable<Type>) {
        entry.field_names = field_names_v<Type>.data();
        entry.field_total = field_names_v<Type>.size();
    }

    entry.read = +[](const void *element) -> nlohmann::json {
        if constexpr (has_instances) {
            return value_to_json(*static_cast<const Type *>(element));
        } else {
            return nlohmann::json::object();
        }
    };

    // writable when every part reads from JSON, or when the type's fields are reflected (its opaque parts are then
    // kept as they are); the read goes into a copy
    constexpr bool parts_read = json_value::readable<Type> || reflectable<Type>;

    if constexpr (has_instances && parts_read && std::is_copy_constructible_v<Type> &&
                  std::is_copy_assignable_v<Type>) {
        entry.editable = true;
        entry.write = +[](typename entry_type::common_type &base, const entity_type entt,
                          const nlohmann::json &in) -> std::optional<value_error> {
            auto &pool = static_cast<storage_type &>(base);
            // read into a copy: a failed read leaves the element as it was, and the element changes in one
            // assignment, inside patch, which stamps it and fires on_update as replace does
            Type copy = pool.get(entt);

            if (auto failure = value_from_json(in, copy); failure) {
                return failure;
            }

            pool.patch(entt, [&copy](Type &element) { element = std::move(copy); });
            return std::nullopt;
        };
    }

    if constexpr (traits_type::track_changes) {
        entry.changes = +[](typename entry_type::common_type &base, const tick_type since,
                            std::vector<std::pair<entity_type, bool>> &out) {
            auto &pool = static_cast<storage_type &>(base);
            basic_runtime_view<typename Registry::common_type> view{};
            view.iterate(base).visit_disabled(disabled_mode::include);
            const auto first = out.size();
            each_changed(view, pool, since, [&out](const entity_type entt) { out.emplace_back(entt, false); });
            std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
            // an addition is a change too: mark the ones that are new
            each_added(view, pool, since, [&out, first](const entity_type entt) {
                const auto found = std::lower_bound(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
                                                    std::pair<entity_type, bool>{entt, false});

                if (found != out.end() && found->first == entt) {
                    found->second = true;
                }
            });
        };
    }

    return entry;
}

/// The registered component types of a server, found by name or by pool.
template<typename Registry>
class component_catalogue {
public:
    using entry_type = component_entry<Registry>;

    /// Registers Type under `name` for pool `pool`. Names are unique, not empty and free of commas (filters list
    /// them separated by commas); a pool is registered once.
    template<typename Type>
    entry_type &add(std::string name, const id_type pool) {
        static_assert(std::is_same_v<Type, std::remove_cvref_t<Type>>,
                      "component<Type>: register the plain type, without const, volatile or reference");
        TESSERA_ASSERT(!name.empty() && name.find(',') == std::string::npos,
                       "component: a name must not be empty nor contain a comma");
        TESSERA_ASSERT(find(name) == nullptr, "component: this name is registered already");
        TESSERA_ASSERT(find(pool) == nullptr, "component: this pool is registered already");
        return entries.push_back(make_component_entry<Registry, Type>(std::move(name), pool)), entries.back();
    }

    /// The entry named `name`, or nullptr.
    [[nodiscard]] entry_type *find(const std::string_view name) noexcept {
        const auto found =
            std::find_if(entries.begin(), entries.end(), [name](auto &elem) { return elem.name == name; });
        return found == entries.end() ? nullptr : &*found;
    }

    /// The entry of pool `pool`, or nullptr.
    [[nodiscard]] entry_type *find(const id_type pool) noexcept {
        const auto found =
            std::find_if(entries.begin(), entries.end(), [pool](auto &elem) { return elem.pool == pool; });
        return found == entries.end() ? nullptr : &*found;
    }

    /// Every entry, in registration order.
    [[nodiscard]] const std::vector<entry_type> &all() const noexcept { return entries; }

    /// The entry whose elements label entities, or nullptr.
    [[nodiscard]] const entry_type *label() const noexcept {
        return label_index < entries.size() ? &entries[label_index] : nullptr;
    }

    /// Names the entry of `pool` the label.
    void label(const id_type pool) noexcept {
        const auto *entry = find(pool);
        label_index = entry == nullptr ? entries.size() : static_cast<std::size_t>(entry - entries.data());
    }

private:
    std::vector<entry_type> entries{};
    std::size_t label_index{static_cast<std::size_t>(-1)};
};

} // namespace internal

} // namespace tessera::inspector

#endif
