// Prototypes: a set of component values, captured from an entity or built by hand, and spawn, which creates
// entities in bulk and gives them copies of those values, one bulk insertion per pool. Copies follow the clone
// policy of each type (component_traits<T>::clone), as registry::clone does (docs/clone.md). A prototype keeps its
// values in a registry of its own, on one entity: capture and spawn copy pool by pool through clone.hpp.
#ifndef TESSERA_ENTITY_PROTOTYPE_HPP
#define TESSERA_ENTITY_PROTOTYPE_HPP

#include "../config/config.hpp"
#include "../config/std_parts.hpp"
#include "../core/fwd.hpp"
#include "../core/type_info.hpp"
#include "clone.hpp"
#include "component.hpp"
#include "entity.hpp"
#include "fwd.hpp"
#include "registry.hpp"
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

namespace tessera {

/// A set of component values, one per pool (named pools included), that spawn copies into new entities. Built
/// by hand with emplace, or captured from an entity of a registry. Types marked clone_policy::skip are left out
/// of a capture and cannot be emplaced; custom clone functions make every copy, the prototype's own included.
/// The values live in pools of a registry the prototype owns, on one entity: listeners that a component type
/// declares as static members (on_construct, on_destroy) see that registry too.
template<typename Registry>
class basic_prototype {
    using base_registry = basic_registry<typename Registry::entity_type, typename Registry::allocator_type>;
    using support = internal::clone_support<base_registry>;
    using common_type = typename base_registry::common_type;

    template<typename Type>
    static constexpr bool has_instances =
        !std::is_void_v<typename base_registry::template storage_for_type<Type>::value_type>;

    // the pool of the values named `id` if it holds Type elements, or null
    template<typename Type>
    [[nodiscard]] const common_type *pool_of(const id_type id) const {
        const common_type *pool = values.storage(id);
        return (pool != nullptr && pool->info() == type_id<Type>()) ? pool : nullptr;
    }

    // the entity that holds the values, made on first use
    typename Registry::entity_type holder() {
        if (owner == null) {
            owner = values.create();
        }

        return owner;
    }

    // calls func(entry) for every pool of the values, in the prototype's order (the order they were made)
    template<typename Func>
    void each_value(Func func) const {
        if (owner != null) {
            for (std::size_t pos{}; pos < values.pools.size(); ++pos) {
                if (const auto &entry = values.pools[pos]; entry.second->contains(owner)) {
                    func(entry);
                }
            }
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
    explicit basic_prototype(const allocator_type &alloc) : values{alloc} {}

    /// Captures the components of `entt` in `source` (see capture).
    basic_prototype(const registry_type &source, const entity_type entt, const allocator_type &alloc = allocator_type{})
        : basic_prototype{alloc} {
        capture(source, entt);
    }

    /// Copy constructor: the values are copied under their clone policy.
    basic_prototype(const basic_prototype &other) : values{other.get_allocator()} {
        if (other.owner != null) {
            const auto into = holder();
            other.each_value([this, &other, into](const auto &entry) {
                support::copy(values, entry, other.owner, &into, &into + 1, "prototype");
            });
        }
    }

    /// Move constructor: the source is left empty.
    basic_prototype(basic_prototype &&other) noexcept
        : values{std::move(other.values)}, owner{std::exchange(other.owner, entity_type{null})} {}

    /// Destroys the values.
    ~basic_prototype() = default;

    /// Copy assignment: the values are copied under their clone policy. Strong guarantee.
    basic_prototype &operator=(const basic_prototype &other) {
        if (this != &other) {
            basic_prototype copy{other};
            values.swap(copy.values);
            std::swap(owner, copy.owner);
        }

        return *this;
    }

    /// Move assignment: the values of this prototype are destroyed first; the source is left empty.
    basic_prototype &operator=(basic_prototype &&other) noexcept {
        if (this != &other) {
            values = std::move(other.values);
            owner = std::exchange(other.owner, entity_type{null});
        }

        return *this;
    }

    /// The allocator.
    [[nodiscard]] allocator_type get_allocator() const noexcept { return values.get_allocator(); }

    /// Replaces the contents with a copy of every component of `entt` in `source`, pool by pool (named pools
    /// too), under the clone policy of each type: clone_policy::skip types, reactive storages and the mark of a
    /// disabled entity are left out, components are captured as values (enabled), a type that cannot be copied is
    /// a misuse. Strong guarantee.
    void capture(const registry_type &source, const entity_type entt) {
        const base_registry &from = source;
        TESSERA_ASSERT(from.valid(entt), "prototype: capture of an invalid entity");
        basic_prototype captured{get_allocator()};
        const auto into = captured.holder();

        support::each_copied(from, entt, [&captured, entt, into](const auto &entry) {
            if (entry.first != type_hash<disabled_entity>::value()) {
                support::copy(captured.values, entry, entt, &into, &into + 1, "prototype");
            }
        });

        *this = std::move(captured);
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
        static_assert(internal::clone_policy_of<component_traits<Type, entity_type>, Type> != clone_policy::skip,
                      "prototype: this type is marked clone_policy::skip, so spawn would never copy it");
        static_assert(!has_instances<Type> || std::is_copy_constructible_v<Type> ||
                          internal::clone_policy_of<component_traits<Type, entity_type>, Type> == clone_policy::custom,
                      "prototype: spawn copies every value; give the type a copy constructor or a clone_element "
                      "function (docs/clone.md)");
        TESSERA_ASSERT(values.storage(id) == nullptr || values.storage(id)->info() == type_id<Type>(),
                       "prototype: the pool name is taken by another element type");
        const auto entt = holder();
        auto &pool = values.template storage<Type>(id);

        if constexpr (!has_instances<Type>) {
            if (!pool.contains(entt)) {
                pool.emplace(entt);
            }
        } else {
            if (pool.contains(entt)) {
                if constexpr (std::is_move_constructible_v<Type>) {
                    // built before the old value goes: a throwing constructor leaves the prototype as it was
                    Type value = base_registry::template make_element<Type>(std::forward<Args>(args)...);
                    pool.erase(entt);
                    return pool.emplace(entt, std::move(value));
                } else {
                    pool.erase(entt);
                }
            }

            return pool.emplace(entt, std::forward<Args>(args)...);
        }
    }

    /// Removes the value of the pool `id` of Type. Returns true if there was one.
    template<typename Type>
    bool erase(const id_type id = type_hash<Type>::value()) {
        if (const auto *pool = pool_of<Type>(id); pool != nullptr && pool->contains(owner)) {
            values.storage(id)->erase(owner);
            return true;
        }

        return false;
    }

    /// True if the prototype has a value for the pool `id` of Type.
    template<typename Type>
    [[nodiscard]] bool contains(const id_type id = type_hash<Type>::value()) const noexcept {
        const auto *pool = pool_of<Type>(id);
        return pool != nullptr && pool->contains(owner);
    }

    /// The value of the pool `id` of Type; it must exist.
    template<typename Type>
    [[nodiscard]] const Type &get(const id_type id = type_hash<Type>::value()) const {
        static_assert(has_instances<Type>, "prototype::get: this type keeps no instances; use contains");
        const auto *pool = pool_of<Type>(id);
        TESSERA_ASSERT(pool != nullptr && pool->contains(owner), "prototype::get: no value of this type for this pool");
        return *static_cast<const Type *>(pool->value(owner));
    }

    /// The value of the pool `id` of Type; it must exist.
    template<typename Type>
    [[nodiscard]] Type &get(const id_type id = type_hash<Type>::value()) {
        return const_cast<Type &>(std::as_const(*this).template get<Type>(id));
    }

    /// Gives every entity of [first, last) (valid, without these components) a copy of every value, pool by pool
    /// in the prototype's order, with one bulk insertion per pool: on_construct fires once per entity after a pool
    /// has them all. Pools are created as needed. The components of an entity disabled as a whole start disabled,
    /// as with registry::emplace (docs/enable_disable.md).
    void insert(registry_type &registry, const entity_type *first, const entity_type *last) const {
        base_registry &target = registry;

        each_value([this, &target, first, last](const auto &entry) {
            support::copy(target, entry, owner, first, last, "prototype");
            target.follow_entity_state(*target.storage(entry.first), first, last);
        });
    }

    /// The number of values.
    [[nodiscard]] size_type size() const noexcept {
        size_type count{};
        each_value([&count](const auto &) { ++count; });
        return count;
    }

    /// True if the prototype has no value.
    [[nodiscard]] bool empty() const noexcept { return size() == 0u; }

    /// Removes every value. Not noexcept: destroying the holder entity fires the value types' destruction signals.
    void clear() {
        if (owner != null) {
            values.destroy(std::exchange(owner, entity_type{null}));
        }
    }

private:
    base_registry values;
    entity_type owner{null};
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
