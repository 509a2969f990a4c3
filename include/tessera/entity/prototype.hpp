// Prototypes: a set of component values, captured from an entity or built by hand, and spawn, which creates
// entities in bulk and gives them copies of those values through the insert of each pool. Copies follow the
// clone policy of each type (component_traits<T>::clone), as registry::clone does (docs/clone.md).
#ifndef TESSERA_ENTITY_PROTOTYPE_HPP
#define TESSERA_ENTITY_PROTOTYPE_HPP

#include "../config/config.hpp"
#include "../core/fwd.hpp"
#include "../core/type_info.hpp"
#include "clone.hpp"
#include "component.hpp"
#include "entity.hpp"
#include "fwd.hpp"
#include "registry.hpp"
#include <algorithm>
#include <cstddef>
#include <iterator>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace tessera {

/// A set of component values, one per pool (named pools included), that spawn copies into new entities. Built
/// by hand with emplace, or captured from an entity of a registry. Types marked clone_policy::skip are left out
/// of a capture and cannot be emplaced; custom clone functions make every copy, the prototype's own included.
template<typename Registry>
class basic_prototype {
    using base_registry = basic_registry<typename Registry::entity_type, typename Registry::allocator_type>;
    using copier_type = internal::element_copier<base_registry>;

    struct entry {
        id_type id;
        const copier_type *copier;
        void *value;
    };

    using alloc_traits = std::allocator_traits<typename Registry::allocator_type>;
    using container_type = std::vector<entry, typename alloc_traits::template rebind_alloc<entry>>;

    template<typename Type>
    using copier_for = internal::element_copier_for<base_registry, Type>;

    // a prototype holds a handful of values: a linear search beats any index
    [[nodiscard]] auto find(const id_type id) const noexcept {
        return std::find_if(entries.begin(), entries.end(), [id](const entry &curr) { return curr.id == id; });
    }

    [[nodiscard]] auto find(const id_type id) noexcept {
        return std::find_if(entries.begin(), entries.end(), [id](const entry &curr) { return curr.id == id; });
    }

    template<typename Type>
    [[nodiscard]] static constexpr bool has_instances() noexcept {
        return copier_for<Type>::has_instances;
    }

    void dispose_all() noexcept {
        for (auto &&curr : entries) {
            curr.copier->dispose(allocator, curr.value);
        }

        entries.clear();
    }

    // strong guarantee: the copies are made into `out`, which the caller swaps in
    void copy_from(const basic_prototype &other, container_type &out) const {
        out.reserve(other.entries.size());

        try {
            for (auto &&curr : other.entries) {
                out.push_back(entry{curr.id, curr.copier, nullptr});
                out.back().value = curr.copier->duplicate(allocator, curr.value);
            }
        } catch (...) {
            for (auto &&curr : out) {
                curr.copier->dispose(allocator, curr.value);
            }

            throw;
        }
    }

public:
    /// The registry type the prototype copies from and spawns into.
    using registry_type = Registry;
    /// Identifier type.
    using entity_type = typename Registry::entity_type;
    /// Unsigned integer type.
    using size_type = std::size_t;
    /// Allocator type (the registry's); values are allocated through it, rebound.
    using allocator_type = typename Registry::allocator_type;

    /// Default constructor: an empty prototype.
    basic_prototype() : basic_prototype{allocator_type{}} {}

    /// Constructs an empty prototype with the given allocator.
    explicit basic_prototype(const allocator_type &alloc) : allocator{alloc}, entries{alloc} {}

    /// Captures the components of `entt` in `source` (see capture).
    basic_prototype(const registry_type &source, const entity_type entt, const allocator_type &alloc = allocator_type{})
        : basic_prototype{alloc} {
        capture(source, entt);
    }

    /// Copy constructor: the values are copied under their clone policy.
    basic_prototype(const basic_prototype &other) : allocator{other.allocator}, entries{other.allocator} {
        copy_from(other, entries);
    }

    /// Move constructor: the source is left empty.
    basic_prototype(basic_prototype &&other) noexcept
        : allocator{other.allocator}, entries{std::exchange(other.entries, container_type{other.allocator})} {}

    /// Destroys the values.
    ~basic_prototype() { dispose_all(); }

    /// Copy assignment: the values are copied under their clone policy. Strong guarantee.
    basic_prototype &operator=(const basic_prototype &other) {
        if (this != &other) {
            container_type copies{allocator};
            copy_from(other, copies);
            dispose_all();
            entries.swap(copies);
        }

        return *this;
    }

    /// Move assignment: the values of this prototype are destroyed first; the source is left empty.
    basic_prototype &operator=(basic_prototype &&other) noexcept {
        if (this != &other) {
            dispose_all();
            allocator = other.allocator;
            entries = std::exchange(other.entries, container_type{other.allocator});
        }

        return *this;
    }

    /// The allocator.
    [[nodiscard]] allocator_type get_allocator() const noexcept { return allocator; }

    /// Replaces the contents with a copy of every component of `entt` in `source`, pool by pool (named pools
    /// too), under the clone policy of each type: clone_policy::skip types and reactive storages are left out, a
    /// type that cannot be copied is a misuse. Strong guarantee.
    void capture(const registry_type &source, const entity_type entt) {
        const base_registry &from = source;
        TESSERA_ASSERT(from.valid(entt), "prototype: capture of an invalid entity");
        container_type captured{allocator};

        const auto keep = [this, entt, &captured](const id_type id, const auto &pool, const copier_type &how) {
            if (how.policy != clone_policy::skip) {
                captured.push_back(entry{id, &how, nullptr});
                // a type that cannot be copied makes duplicate assert with a message naming it
                captured.back().value = how.duplicate(allocator, pool.value(entt));

                if (!how.copyable) {
                    captured.pop_back();
                }
            }
        };

        try {
            from.pools.each_copier(entt, keep);
        } catch (...) {
            for (auto &&curr : captured) {
                curr.copier->dispose(allocator, curr.value);
            }

            throw;
        }

        dispose_all();
        entries.swap(captured);
    }

    /// Sets the value of Type (default pool) to one built from args (braces for aggregates), replacing any value
    /// of that pool. Returns it, or nothing for types without instances.
    template<typename Type, typename... Args>
    decltype(auto) emplace(Args &&...args) {
        return emplace_as<Type>(type_hash<Type>::value(), std::forward<Args>(args)...);
    }

    /// Sets the value of the pool `id` of Type to one built from args, replacing any value of that pool.
    template<typename Type, typename... Args>
    decltype(auto) emplace_as(const id_type id, Args &&...args) {
        static_assert(std::is_same_v<Type, std::remove_cvref_t<Type>>,
                      "prototype: name the component type without const, volatile or reference");
        static_assert(copier_for<Type>::policy != clone_policy::skip,
                      "prototype: this type is marked clone_policy::skip, so spawn would never copy it");
        static_assert(copier_for<Type>::copyable,
                      "prototype: spawn copies every value; give the type a copy constructor or a clone_element "
                      "function (docs/clone.md)");
        const auto it = find(id);
        TESSERA_ASSERT(it == entries.end() || it->copier->info() == type_id<Type>(),
                       "prototype: the pool name is taken by another element type");
        Type *value = nullptr;

        if constexpr (has_instances<Type>()) {
            value = copier_for<Type>::make(allocator, std::forward<Args>(args)...);
        }

        if (it == entries.end()) {
            try {
                entries.push_back(entry{id, &copier_for<Type>::table, value});
            } catch (...) {
                copier_for<Type>::dispose(allocator, value);
                throw;
            }
        } else {
            it->copier->dispose(allocator, std::exchange(it->value, value));
        }

        if constexpr (has_instances<Type>()) {
            return *value;
        }
    }

    /// Removes the value of the pool `id` of Type. Returns true if there was one.
    template<typename Type>
    bool erase(const id_type id = type_hash<Type>::value()) {
        if (const auto it = find(id); it != entries.end() && it->copier->info() == type_id<Type>()) {
            it->copier->dispose(allocator, it->value);
            entries.erase(it);
            return true;
        }

        return false;
    }

    /// True if the prototype has a value for the pool `id` of Type.
    template<typename Type>
    [[nodiscard]] bool contains(const id_type id = type_hash<Type>::value()) const noexcept {
        const auto it = find(id);
        return it != entries.end() && it->copier->info() == type_id<Type>();
    }

    /// The value of the pool `id` of Type; it must exist.
    template<typename Type>
    [[nodiscard]] const Type &get(const id_type id = type_hash<Type>::value()) const {
        static_assert(has_instances<Type>(), "prototype::get: this type keeps no instances; use contains");
        const auto it = find(id);
        TESSERA_ASSERT(it != entries.end() && it->copier->info() == type_id<Type>(),
                       "prototype::get: no value of this type for this pool");
        return *static_cast<const Type *>(it->value);
    }

    /// The value of the pool `id` of Type; it must exist.
    template<typename Type>
    [[nodiscard]] Type &get(const id_type id = type_hash<Type>::value()) {
        return const_cast<Type &>(std::as_const(*this).template get<Type>(id));
    }

    /// Gives every entity of [first, last) (valid, without these components) a copy of every value, pool by pool
    /// in the prototype's order, through each pool's insert: on_construct fires once per entity after a pool has
    /// them all. Pools are created as needed.
    void insert(registry_type &registry, const entity_type *first, const entity_type *last) const {
        base_registry &target = registry;

        for (auto &&curr : entries) {
            curr.copier->insert(target, curr.id, curr.value, first, last);
        }
    }

    /// The number of values.
    [[nodiscard]] size_type size() const noexcept { return entries.size(); }

    /// True if the prototype has no value.
    [[nodiscard]] bool empty() const noexcept { return entries.empty(); }

    /// Removes every value.
    void clear() noexcept { dispose_all(); }

private:
    [[no_unique_address]] allocator_type allocator;
    container_type entries;
};

/// Fills [first, last) (contiguous) with new entities of `registry` and gives each a copy of every value of
/// `proto` (see basic_prototype::insert). If a copy throws, the new entities are destroyed again (their signals
/// stay fired) and the exception propagates.
template<typename Registry, std::contiguous_iterator It>
void spawn(Registry &registry, const basic_prototype<Registry> &proto, It first, It last) {
    static_assert(std::is_same_v<std::iter_value_t<It>, typename Registry::entity_type>,
                  "spawn: the range must hold identifiers of the registry");
    registry.create(first, last);

    try {
        proto.insert(registry, std::to_address(first), std::to_address(first) + (last - first));
    } catch (...) {
        for (; first != last; ++first) {
            if (registry.valid(*first)) {
                registry.destroy(*first);
            }
        }

        throw;
    }
}

/// Creates `count` entities that copy `proto` (see the range overload). Returns them in creation order.
template<typename Registry>
[[nodiscard]] std::vector<typename Registry::entity_type, typename Registry::allocator_type>
spawn(Registry &registry, const basic_prototype<Registry> &proto, const std::size_t count) {
    std::vector<typename Registry::entity_type, typename Registry::allocator_type> out(count, registry.get_allocator());
    spawn(registry, proto, out.begin(), out.end());
    return out;
}

/// Creates one entity that copies `proto` (see the range overload). Returns it.
template<typename Registry>
typename Registry::entity_type spawn(Registry &registry, const basic_prototype<Registry> &proto) {
    typename Registry::entity_type entt[1u]{};
    spawn(registry, proto, std::begin(entt), std::end(entt));
    return entt[0u];
}

} // namespace tessera

#endif
