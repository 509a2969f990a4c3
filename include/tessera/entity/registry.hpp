// The registry: owns the entity storage, one pool per (component type, name), the group handlers and the
// context variables, and offers the entity and component API everything else is built on.
#ifndef TESSERA_ENTITY_REGISTRY_HPP
#define TESSERA_ENTITY_REGISTRY_HPP

#include "../config/config.hpp"
#include "../config/std_parts.hpp"
#include "../core/algorithm.hpp"
#include "../core/iterator.hpp"
#include "../core/type_info.hpp"
#include "../core/type_traits.hpp"
#include "change_tracking.hpp"
#include "checks/race_guard.hpp"
#include "component.hpp"
#include "engine/block_walk.hpp"
#include "entity.hpp"
#include "fwd.hpp"
#include "group.hpp"
#include "mixin.hpp"
#include "sparse_set.hpp"
#include "storage.hpp"
#include "tables/context.hpp"
#include "tables/group_table.hpp"
#include "tables/pool_iterator.hpp"
#include "tables/pool_table.hpp"
#include "view.hpp"
#include <cstddef>
#include <iosfwd>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tessera {

/// The component that marks the entities disabled as a whole (basic_registry::disable(entity)). Its pool is an
/// ordinary pool of the registry: destroying the entity removes the mark, clone copies it.
struct disabled_entity final {};

namespace internal {

/// True if a storage type can disable elements: in-place storages promise that elements never move.
template<typename Pool>
[[nodiscard]] consteval bool can_disable() noexcept {
    if constexpr (requires { Pool::storage_policy; }) {
        return Pool::storage_policy == deletion_policy::swap_and_pop;
    } else {
        return true;
    }
}

/// True if the registry's pools of Type keep ticks.
template<typename Type, typename Entity>
inline constexpr bool tracks_changes_v =
    track_changes_of<component_traits<std::remove_const_t<Type>, Entity>, std::remove_const_t<Type>>;

} // namespace internal

/// The registry: entities, their components, the pools that keep them, groups and context variables.
template<typename Entity, typename Allocator>
class TESSERA_RACES_ABI basic_registry {
    using base_type = basic_sparse_set<Entity, Allocator>;
    using alloc_traits = std::allocator_traits<Allocator>;
    static_assert(std::is_same_v<typename alloc_traits::value_type, Entity>, "basic_registry: invalid allocator");
    using pool_table_type = internal::pool_table<basic_registry, base_type, Allocator>;
    using traits_type = entt_traits<Entity>;

    template<typename Type>
    using element_alloc = typename alloc_traits::template rebind_alloc<std::remove_const_t<Type>>;

    template<typename, typename, typename>
    friend class basic_group;

    template<typename>
    friend class basic_prototype;

    template<typename>
    friend class basic_command_buffer;

    // the extras that read the pool table: memory_report.hpp, clone.hpp
    template<typename>
    friend struct internal::memory_support;

    template<typename>
    friend struct internal::clone_support;

public:
    /// Allocator type.
    using allocator_type = Allocator;
    /// Identifier type.
    using entity_type = typename traits_type::value_type;
    /// Version type.
    using version_type = typename traits_type::version_type;
    /// Unsigned integer type.
    using size_type = std::size_t;
    /// The common base class of every pool.
    using common_type = base_type;
    /// Context type.
    using context = internal::registry_context<allocator_type>;
    /// Iterable of (name, pool &) pairs.
    using iterable =
        iterable_adaptor<internal::registry_storage_iterator<typename pool_table_type::const_iterator, common_type>>;
    /// Iterable of (name, const pool &) pairs.
    using const_iterable = iterable_adaptor<
        internal::registry_storage_iterator<typename pool_table_type::const_iterator, const common_type>>;

    /// The pool type for an element type, const if the element type is const.
    template<typename Type>
    using storage_for_type = typename storage_for<Type, Entity, element_alloc<Type>>::type;

private:
    // The typed calls (emplace, get, view...) inline only the cached lookup; making a missing pool is out of line
    // (pool_table::assure_cached), which leaves the inliner room for the hot paths of the translation unit.
    template<typename Type>
    [[nodiscard]] auto &assure() {
        static_assert(std::is_same_v<Type, std::decay_t<Type>>, "registry: pools are keyed by non-const element types");

        if constexpr (std::is_same_v<Type, entity_type>) {
            return entities;
        } else {
            using storage_type = storage_for_type<Type>;
            // default pools are cached by dense type index: no hashing on the hot path
            const auto idx = static_cast<size_type>(type_index<Type>::value());

            if (auto *const pool = pools.cached(idx); pool != nullptr) [[likely]] {
                return static_cast<storage_type &>(*pool);
            }

            auto &made = pools.template assure_cached<storage_type, Type>(idx, *this);

            if constexpr (std::is_same_v<Type, disabled_entity>) {
                // however the pool comes (disable(entt), clone, a snapshot), emplace learns of it
                disabled_entities = &made;
            }

            return made;
        }
    }

    template<typename Type>
    [[nodiscard]] auto &assure(const id_type id) {
        if constexpr (std::is_same_v<Type, entity_type>) {
            return assure<Type>();
        } else {
            using storage_type = storage_for_type<Type>;
            return (id == type_hash<Type>::value())
                       ? assure<Type>()
                       : static_cast<storage_type &>(pools.template assure<storage_type, Type>(id, *this));
        }
    }

    template<typename Type>
    [[nodiscard]] const auto *assure() const {
        static_assert(std::is_same_v<Type, std::decay_t<Type>>, "registry: pools are keyed by non-const element types");

        if constexpr (std::is_same_v<Type, entity_type>) {
            return &entities;
        } else {
            using storage_type = storage_for_type<Type>;
            const auto idx = static_cast<size_type>(type_index<Type>::value());
            return static_cast<const storage_type *>(pools.cached(idx));
        }
    }

    template<typename Type>
    [[nodiscard]] const auto *assure(const id_type id) const {
        if constexpr (std::is_same_v<Type, entity_type>) {
            return assure<Type>();
        } else {
            using storage_type = storage_for_type<Type>;
            return (id == type_hash<Type>::value())
                       ? assure<Type>()
                       : static_cast<const storage_type *>(pools.find(id, type_id<Type>()));
        }
    }

    // Every pool (and the entity storage) keeps a pointer to its registry: after a move or a swap it is refreshed.
    void rebind() {
        entities.bind(*this);
        pools.bind(*this);
    }

    // The identifier goes back to the entity storage; its new version is the one the next create() of the index gets.
    version_type retire(const entity_type entt) {
        entities.erase(entt);
        const version_type next = entities.current(entt);
        return next;
    }

    // True if a listener watches the entity storage or a pool: only then can the order in which entities leave
    // the pools be told apart from one destroy(entt) after another.
    [[nodiscard]] bool observed() const noexcept { return entities.observed() || pools.observed(); }

    // Removes the entities of a range over a set's packed array (walked from the back) pool by pool, newest pool
    // first, then from the entity storage; one that is already gone at its turn is skipped. Returns how many the
    // entity storage released.
    size_type destroy_listed(const typename common_type::iterator from, const typename common_type::iterator to) {
        pools.remove(from, to);
        return entities.remove(from, to);
    }

    // Whether the entity has a Type in its default pool, without creating the pool.
    template<typename Type>
    [[nodiscard]] bool has(const entity_type entt) const {
        const auto *const pool = assure<Type>();
        TESSERA_RACE_READ(pool, "all_of/any_of");
        return pool != nullptr && pool->contains(entt);
    }

    template<typename Type>
    [[nodiscard]] static Type make_element(auto &&...args) {
        if constexpr (std::is_aggregate_v<Type>) {
            return Type{std::forward<decltype(args)>(args)...};
        } else {
            return Type(std::forward<decltype(args)>(args)...);
        }
    }

public:
    /// Default constructor.
    basic_registry() : basic_registry{allocator_type{}} {}

    /// Constructs an empty registry with the given allocator.
    explicit basic_registry(const allocator_type &allocator) : basic_registry{0u, allocator} {}

    /// Constructs an empty registry with room for `count` pools.
    basic_registry(const size_type count, const allocator_type &allocator = allocator_type{})
        : vars{allocator}, pools{allocator}, groups{allocator}, entities{allocator} {
        pools.reserve(count);
        entities.bind(*this);
    }

    basic_registry(const basic_registry &) = delete;

    /// Move constructor: every pool is re-bound to the new registry.
    basic_registry(basic_registry &&other) noexcept
        : vars{std::move(other.vars)}, pools{std::move(other.pools)}, groups{std::move(other.groups)},
          entities{std::move(other.entities)}, current_tick{other.current_tick},
          disabled_entities{std::exchange(other.disabled_entities, nullptr)} {
        rebind();
    }

    /// Destructor. The order in which pools are destroyed is unspecified: clear() first if listeners need a
    /// consistent registry.
    ~basic_registry() = default;

    basic_registry &operator=(const basic_registry &) = delete;

    /// Move assignment: every pool is re-bound to this registry. The pools, allocated through the source's
    /// allocator, change hands as they are, so the allocators must compare equal or propagate on swap (misuse
    /// otherwise, with std::pmr::polymorphic_allocator over two different resources for one).
    // noexcept only when it cannot fail: its misuse check fires when the allocators cannot share memory
    // NOLINTNEXTLINE(bugprone-exception-escape)
    basic_registry &operator=(basic_registry &&other) noexcept(alloc_traits::propagate_on_container_swap::value ||
                                                               alloc_traits::is_always_equal::value) {
        if constexpr (!(alloc_traits::propagate_on_container_swap::value || alloc_traits::is_always_equal::value)) {
            TESSERA_ASSERT(get_allocator() == other.get_allocator(),
                           "registry: move assignment between registries whose allocators compare unequal and do not "
                           "propagate; the pools cannot change allocator (move-construct the registry instead)");
        }

        swap(other);
        return *this;
    }

    /// Exchanges the contents with another registry, re-binding the pools of both.
    void swap(basic_registry &other) noexcept {
        std::swap(vars, other.vars);
        pools.swap(other.pools);
        groups.swap(other.groups);
        std::swap(entities, other.entities);
        std::swap(current_tick, other.current_tick);
        std::swap(disabled_entities, other.disabled_entities);
        for (basic_registry *side : {this, &other}) {
            side->rebind();
        }
    }

    /// The allocator.
    [[nodiscard]] constexpr allocator_type get_allocator() const noexcept { return entities.get_allocator(); }

    /// The pool named `id` for Type, created if needed. For the entity type, the entity storage (id ignored).
    template<typename Type>
    [[nodiscard]] storage_for_type<Type> &storage(const id_type id = type_hash<std::remove_const_t<Type>>::value()) {
        return assure<std::remove_const_t<Type>>(id);
    }

    /// The pool named `id` for Type, or nullptr. Never creates a pool.
    template<typename Type>
    [[nodiscard]] const storage_for_type<Type> *
    storage(const id_type id = type_hash<std::remove_const_t<Type>>::value()) const {
        return assure<std::remove_const_t<Type>>(id);
    }

    /// The pool named `id`, or nullptr. Never the entity storage.
    [[nodiscard]] common_type *storage(const id_type id) {
        return const_cast<common_type *>(std::as_const(*this).storage(id));
    }

    /// The pool named `id`, or nullptr. Never the entity storage.
    [[nodiscard]] const common_type *storage(const id_type id) const { return pools.find(id); }

    /// Iterable of (name, pool &) pairs over every pool; the entity storage is not included.
    [[nodiscard]] iterable storage() noexcept { return {pools.begin(), pools.end()}; }

    /// Iterable of (name, const pool &) pairs over every pool; the entity storage is not included.
    [[nodiscard]] const_iterable storage() const noexcept { return {pools.begin(), pools.end()}; }

    /// Destroys the pool named `id`, if there is one, without firing its destroy signals. Returns whether a pool
    /// was destroyed. Views, groups and references that use the pool become invalid; a pool a group uses cannot be
    /// discarded, nor can the entity storage (it is never named).
    bool reset(const id_type id) {
        TESSERA_ASSERT(!groups.uses(static_cast<const void *>(pools.find(id))),
                       "reset: a group uses this pool; pools of groups live as long as the registry");
        return pools.erase(id);
    }

    /// True if the identifier is in use with exactly this version. Forced inline: systems call it per element (is
    /// the target still alive?), and in a large parallel callback g++ stopped inlining it (a call per element).
    [[nodiscard]] TESSERA_FORCE_INLINE bool valid(const entity_type entt) const {
        TESSERA_RACE_READ(&entities, "valid");
        return entities.contains(entt) && (entities.index(entt) < entities.free_list());
    }

    /// The version stored for the identifier's index (in use or released); the tombstone version if unknown.
    [[nodiscard]] version_type current(const entity_type entt) const { return entities.current(entt); }

    /// The identifier with its version bits cleared.
    [[nodiscard]] static constexpr entity_type entity(const entity_type entt) noexcept {
        return traits_type::construct(traits_type::to_entity(entt), {});
    }

    /// The version of an identifier.
    [[nodiscard]] static constexpr version_type version(const entity_type entt) noexcept {
        return traits_type::to_version(entt);
    }

    /// Creates an entity, recycling the most recently released identifier if there is one.
    [[nodiscard]] entity_type create() { return entities.generate(); }

    /// Creates exactly `hint` if its index is free or released, otherwise a new identifier.
    [[nodiscard]] entity_type create(const entity_type hint) { return entities.generate(hint); }

    /// Fills the range with new entities, recycled identifiers first.
    template<typename It>
    void create(It first, It last) {
        entities.generate(std::move(first), std::move(last));
    }

    /// Removes the entity from every pool, fires on_destroy<entity>, then releases the identifier.
    /// Returns the identifier's new version.
    version_type destroy(const entity_type entt) {
        TESSERA_ASSERT(valid(entt), "destroy: invalid entity");

        pools.remove(entt);
        return retire(entt);
    }

    /// Like destroy(entt), then forces the stored version (the tombstone version becomes the next valid one).
    version_type destroy(const entity_type entt, const version_type version) {
        destroy(entt);
        return force_version(entt, version);
    }

    /// Destroys every entity of the range. A multi-pass range is read completely before anything is removed, so
    /// it may be a view over the pools this call empties; it is then removed pool by pool (newest pool first), the
    /// entity storage last, each entity in the range's order.
    template<typename It>
    void destroy(It first, It last) {
        if constexpr (std::forward_iterator<It>) {
            // read the whole range first: it may be a view over the pools this call empties. Kept back to front,
            // since a set's iterators walk their array from the back: over this copy, they give the range's order.
            std::vector<entity_type, allocator_type> target(get_allocator());

            if constexpr (std::bidirectional_iterator<It>) {
                target.assign(std::make_reverse_iterator(last), std::make_reverse_iterator(first));
            } else {
                target.assign(first, last);
                std::reverse(target.begin(), target.end());
            }

            const typename common_type::iterator from{
                target, static_cast<typename common_type::difference_type>(target.size())};
            const typename common_type::iterator to{target, {}};

            for ([[maybe_unused]] const auto entt : target) {
                TESSERA_ASSERT(valid(entt), "destroy: invalid entity");
            }

            destroy_listed(from, to);
        } else {
            for (; first != last; ++first) {
                destroy(*first);
            }
        }
    }

    /// Releases an orphan (an entity without components) without visiting the pools. Returns the new version.
    version_type release(const entity_type entt) {
        TESSERA_ASSERT(valid(entt), "release: invalid entity");
        TESSERA_ASSERT(orphan(entt), "release: the entity still has components; use destroy");
        return retire(entt);
    }

    /// Like release(entt), then forces the stored version (the tombstone version becomes the next valid one).
    version_type release(const entity_type entt, const version_type version) {
        release(entt);
        return force_version(entt, version);
    }

    /// Releases every orphan of the range.
    template<typename It>
    void release(It first, It last) {
        for (; first != last; ++first) {
            release(*first);
        }
    }

    /// Creates an entity with a copy of every component of `entt`, in every pool that has one (named pools too),
    /// following the clone policy of each type (component_traits<T>::clone); on_construct fires for each. Reactive
    /// storages are not copied: they collect the new entity through the signals it causes. Returns the new entity.
    /// If a copy throws, the new entity is destroyed again (its signals stay fired) and the exception propagates.
    /// Needs <tessera/entity/clone.hpp>.
    template<typename Support = internal::clone_support<basic_registry>>
    entity_type clone(const entity_type entt) {
        static_assert(internal::defined_v<Support>, "registry::clone: #include <tessera/entity/clone.hpp> first");
        if constexpr (internal::defined_v<Support>) {
            return Support::clone(*this, entt, *this);
        } else {
            return entity_type{null};
        }
    }

    /// Like clone(entt), but creates the copy in `other`, a registry of the same type, making pools there as
    /// needed. Returns the new entity of `other`. Needs <tessera/entity/clone.hpp>.
    template<typename Support = internal::clone_support<basic_registry>>
    entity_type clone(const entity_type entt, basic_registry &other) const {
        static_assert(internal::defined_v<Support>, "registry::clone: #include <tessera/entity/clone.hpp> first");
        if constexpr (internal::defined_v<Support>) {
            return Support::clone(*this, entt, other);
        } else {
            return entity_type{null};
        }
    }

    /// True if no pool contains the entity.
    [[nodiscard]] bool orphan(const entity_type entt) const { return !pools.contains(entt); }

    /// Gives the entity a Type built from args (braces for aggregates), then fires on_construct<Type>.
    template<typename Type, typename... Args>
    TESSERA_FORCE_INLINE decltype(auto) emplace(const entity_type entt, Args &&...args) {
        TESSERA_ASSERT(valid(entt), "emplace: invalid entity");
        auto &pool = assure<Type>();
        TESSERA_ASSERT(!pool.contains(entt), "emplace: the entity already owns this component");

        // forced inline, as g++ did by itself before enable/disable: called out of line, every emplace paid a call
        // and its spills. The disabled-entity case costs one load and one test here, the rest stays out of line
        if constexpr (std::is_void_v<decltype(pool.emplace(entt, std::forward<Args>(args)...))>) {
            pool.emplace(entt, std::forward<Args>(args)...);

            if (disabled_entities != nullptr) [[unlikely]] {
                follow_entity_state(pool, entt);
            }
        } else {
            auto *elem = std::addressof(pool.emplace(entt, std::forward<Args>(args)...));

            if (disabled_entities != nullptr) [[unlikely]] {
                // disabling moves the element: it is looked up again
                elem = follow_entity_state(pool, entt, elem);
            }

            return *elem;
        }
    }

    /// Gives every entity of the range a copy of value; on_construct fires once per entity afterwards.
    template<typename Type, typename It>
    void insert(It first, It last, const Type &value = {}) {
        if constexpr (std::forward_iterator<It>) {
            TESSERA_ASSERT(std::all_of(first, last, [this](const auto entt) { return valid(entt); }),
                           "insert: invalid entity in the range");
        }

        auto &pool = assure<Type>();
        pool.insert(first, last, value);
        follow_entity_state(pool, first, last);
    }

    /// Gives every entity of the range a copy of the matching element of [from, ...).
    template<typename Type, typename EIt, typename CIt>
    requires std::is_same_v<std::remove_cvref_t<std::iter_value_t<CIt>>, Type>
    void insert(EIt first, EIt last, CIt from) {
        if constexpr (std::forward_iterator<EIt>) {
            TESSERA_ASSERT(std::all_of(first, last, [this](const auto entt) { return valid(entt); }),
                           "insert: invalid entity in the range");
        }

        auto &pool = assure<Type>();
        pool.insert(first, last, std::move(from));
        follow_entity_state(pool, first, last);
    }

    /// replace if the entity has Type (on_update fires), emplace otherwise (on_construct fires).
    template<typename Type, typename... Args>
    decltype(auto) emplace_or_replace(const entity_type entt, Args &&...args) {
        TESSERA_ASSERT(valid(entt), "emplace_or_replace: invalid entity");
        auto &pool = assure<Type>();
        TESSERA_RACE_WRITE(pool, "emplace_or_replace");

        if (pool.contains(entt)) {
            if constexpr (std::is_void_v<typename storage_for_type<Type>::value_type>) {
                return pool.patch(entt);
            } else {
                return pool.patch(entt, [&args...](auto &...element) {
                    ((element = make_element<Type>(std::forward<Args>(args)...)), ...);
                });
            }
        } else {
            return emplace<Type>(entt, std::forward<Args>(args)...);
        }
    }

    /// Calls each function on the entity's Type (with no argument for types without instances), then fires
    /// on_update<Type>. With the entity type, only the notification fires.
    template<typename Type, typename... Func>
    decltype(auto) patch(const entity_type entt, Func &&...func) {
        auto &pool = assure<Type>();

        if constexpr (!std::is_same_v<Type, entity_type>) {
            TESSERA_ASSERT(pool.contains(entt), "patch: the entity does not own this component");
        }

        return pool.patch(entt, std::forward<Func>(func)...);
    }

    /// Assigns a new Type built from args (list-initialization), then fires on_update<Type>.
    template<typename Type, typename... Args>
    decltype(auto) replace(const entity_type entt, Args &&...args) {
        auto &pool = assure<Type>();
        TESSERA_RACE_WRITE(pool, "replace");
        TESSERA_ASSERT(pool.contains(entt), "replace: the entity does not own this component");

        if constexpr (std::is_void_v<typename storage_for_type<Type>::value_type>) {
            return pool.patch(entt);
        } else {
            return pool.patch(entt, [&args...](auto &...element) {
                ((element = make_element<Type>(std::forward<Args>(args)...)), ...);
            });
        }
    }

    /// Removes the listed components the entity has; missing ones are skipped. Returns how many were removed.
    template<typename Type, typename... Other>
    size_type remove(const entity_type entt) {
        return (static_cast<size_type>(assure<Type>().remove(entt)) + ... +
                static_cast<size_type>(assure<Other>().remove(entt)));
    }

    /// Removes the listed components from every entity of the range. Returns how many were removed.
    template<typename Type, typename... Other, typename It>
    size_type remove(It first, It last) {
        size_type count{};

        for (; first != last; ++first) {
            count += remove<Type, Other...>(*first);
        }

        return count;
    }

    /// Removes the listed components; the entity must have every one of them.
    template<typename Type, typename... Other>
    void erase(const entity_type entt) {
        TESSERA_ASSERT((all_of<Type, Other...>(entt)), "erase: the entity does not own every listed component");
        (assure<Type>().erase(entt), (assure<Other>().erase(entt), ...));
    }

    /// Removes the listed components from every entity of the range; each must have every one of them.
    template<typename Type, typename... Other, typename It>
    void erase(It first, It last) {
        for (; first != last; ++first) {
            erase<Type, Other...>(*first);
        }
    }

    /// Removes the entity from every pool that contains it and for which func(name, const pool &) returns true.
    /// Only the pools that contain the entity are passed to func. Pools created meanwhile (by listeners) are not
    /// visited.
    template<typename Func>
    void erase_if(const entity_type entt, Func func) {
        pools.erase_if(entt, std::move(func));
    }

    /// Removes the holes of the listed in-place pools, or of every pool.
    template<typename... Type>
    void compact() {
        if constexpr (sizeof...(Type) != 0u) {
            (assure<Type>().compact(), ...);
        } else {
            pools.compact();
        }
    }

    /// Gives back the memory that neither the pools, the non-owning groups' sets of members nor the entity storage
    /// need: spare capacity, element pages past the last element, sparse pages that hold no identifier, and the
    /// released identifiers whose index is above every entity alive (see docs/registry.md, "Giving memory back").
    /// Pointers to components stay valid; iterators, views' cached ranges and group iterators do not.
    void shrink_to_fit() {
        pools.shrink_to_fit();
        groups.shrink_to_fit();
        entities.shrink_to_fit();
    }

    /// True if the entity has every listed component. Never creates a pool.
    template<typename... Type>
    [[nodiscard]] bool all_of([[maybe_unused]] const entity_type entt) const {
        return (has<std::remove_const_t<Type>>(entt) && ...);
    }

    /// True if the entity has at least one listed component. Never creates a pool.
    template<typename... Type>
    [[nodiscard]] bool any_of([[maybe_unused]] const entity_type entt) const {
        return (has<std::remove_const_t<Type>>(entt) || ...);
    }

    /// The listed components of the entity, read-only: a reference for one type, a tuple for several.
    template<typename... Type>
    [[nodiscard]] decltype(auto) get([[maybe_unused]] const entity_type entt) const {
        if constexpr (sizeof...(Type) != 1u) {
            return std::forward_as_tuple(get<Type>(entt)...);
        } else {
            const auto *const pool = assure<std::remove_const_t<Type>...>();
            TESSERA_ASSERT(pool && pool->contains(entt), "get: the entity does not own this component");
            TESSERA_RACE_READ(pool, "get");
            return pool->get(entt);
        }
    }

    /// The listed components of the entity: a reference for one type, a tuple for several.
    template<typename... Type>
    [[nodiscard]] decltype(auto) get([[maybe_unused]] const entity_type entt) {
        if constexpr (sizeof...(Type) != 1u) {
            return std::forward_as_tuple(get<Type>(entt)...);
        } else if constexpr ((std::is_const_v<Type> && ...)) {
            // read-only access never creates the pool
            return std::as_const(*this).template get<Type...>(entt);
        } else {
            auto &pool = assure<Type...>();
            TESSERA_ASSERT(pool.contains(entt), "get: the entity does not own this component");
            TESSERA_RACE_READ(&pool, "get");
            return pool.get(entt);
        }
    }

    /// The entity's Type, created from args if the entity does not have one yet.
    template<typename Type, typename... Args>
    [[nodiscard]] decltype(auto) get_or_emplace(const entity_type entt, Args &&...args) {
        TESSERA_ASSERT(valid(entt), "get_or_emplace: invalid entity");
        auto &pool = assure<Type>();
        if (!pool.contains(entt)) {
            return emplace<Type>(entt, std::forward<Args>(args)...);
        }
        return pool.get(entt);
    }

    /// Pointers to the listed components, read-only; nullptr for the missing ones. Never creates a pool.
    template<typename... Type>
    [[nodiscard]] auto try_get([[maybe_unused]] const entity_type entt) const {
        if constexpr (sizeof...(Type) != 1u) {
            return std::make_tuple(try_get<Type>(entt)...);
        } else {
            using element_type = std::remove_const_t<internal::nth_type_t<0u, Type...>>;
            static_assert(!std::is_void_v<typename storage_for_type<element_type>::value_type>,
                          "try_get: this type keeps no instances (empty type); use all_of instead");
            const auto *const pool = assure<element_type>();
            TESSERA_RACE_READ(pool, "try_get");
            if constexpr (internal::walk_paged<std::remove_pointer_t<decltype(pool)>>) {
                // one read of the sparse array, where contains() then get() read it twice
                const auto pos = pool ? internal::sparse_access::position(*pool, entt) : static_cast<std::size_t>(-1);
                return (pos == static_cast<std::size_t>(-1)) ? nullptr : internal::walk_address(*pool, pos);
            } else {
                return (pool != nullptr && pool->contains(entt)) ? std::addressof(pool->get(entt)) : nullptr;
            }
        }
    }

    /// Pointers to the listed components; nullptr for the missing ones. Never creates a pool.
    template<typename... Type>
    [[nodiscard]] auto try_get([[maybe_unused]] const entity_type entt) {
        if constexpr (sizeof...(Type) != 1u) {
            return std::make_tuple(try_get<Type>(entt)...);
        } else if constexpr ((std::is_const_v<Type> && ...)) {
            return std::as_const(*this).template try_get<Type...>(entt);
        } else {
            // the pool is found the read-only way, so that asking never creates it
            using element_type = internal::nth_type_t<0u, Type...>;
            return const_cast<element_type *>(std::as_const(*this).template try_get<Type...>(entt));
        }
    }

    /// The current tick of change detection (docs/change_detection.md). The reference follows advance_tick.
    [[nodiscard]] const tick_type &tick() const noexcept { return current_tick; }

    /// Moves the tick on by `count` (once per frame, typically); clamps old ticks every tick_clamp_period.
    void advance_tick(tick_type count = 1u) {
        // in steps that stop at every multiple of tick_clamp_period, so that a large count clamps as often as
        // count single advances would
        while (count != 0u) {
            const tick_type to_clamp = tick_clamp_period - (current_tick & (tick_clamp_period - 1u));
            const tick_type step = count < to_clamp ? count : to_clamp;
            current_tick += step;
            count -= step;

            if ((current_tick & (tick_clamp_period - 1u)) == 0u) {
                internal::tick_clamp order{};

                for (auto &&curr : storage()) {
                    curr.second.bind(order);
                }
            }
        }
    }

    /// Stamps the entity's Type as changed now and fires on_update, without touching the value.
    template<typename Type>
    void modified(const entity_type entt) {
        static_assert(internal::tracks_changes_v<Type, entity_type>,
                      "modified: the type is not tracked; declare static constexpr bool track_changes = true in it "
                      "or in its component_traits");
        auto &pool = assure<std::remove_const_t<Type>>();
        TESSERA_ASSERT(pool.contains(entt), "modified: the entity does not own this component");
        // patch without a function: stamps the change and fires on_update, the value untouched
        pool.patch(entt);
    }

    /// True if the entity's Type was added after tick `since`.
    template<typename Type>
    [[nodiscard]] bool added_since(const entity_type entt, const tick_type since) const {
        static_assert(internal::tracks_changes_v<Type, entity_type>,
                      "added_since: the type is not tracked; declare static constexpr bool track_changes = true in "
                      "it or in its component_traits");
        const auto *const pool = assure<std::remove_const_t<Type>>();
        TESSERA_ASSERT(pool != nullptr && pool->contains(entt), "added_since: the entity does not own this component");
        return internal::tick_after(pool->tick_column().at(pool->index(entt)).added, since, current_tick);
    }

    /// True if the entity's Type was added or changed after tick `since`.
    template<typename Type>
    [[nodiscard]] bool changed_since(const entity_type entt, const tick_type since) const {
        static_assert(internal::tracks_changes_v<Type, entity_type>,
                      "changed_since: the type is not tracked; declare static constexpr bool track_changes = true in "
                      "it or in its component_traits");
        const auto *const pool = assure<std::remove_const_t<Type>>();
        TESSERA_ASSERT(pool != nullptr && pool->contains(entt),
                       "changed_since: the entity does not own this component");
        return internal::tick_after(pool->tick_column().at(pool->index(entt)).changed, since, current_tick);
    }

    /// Empties the listed pools, or, with no types, every pool and then releases every identifier in use.
    template<typename... Type>
    void clear() {
        if constexpr (sizeof...(Type) == 0u) {
            pools.clear();

            const auto in_use = static_cast<typename common_type::difference_type>(entities.free_list());
            const common_type &base = entities;
            entities.erase(base.end() - in_use, base.end());
        } else {
            (assure<Type>().clear(), ...);
        }
    }

    /// Sink for the listeners called after a Type element (in pool `id`) has been added.
    template<typename Type>
    [[nodiscard]] auto on_construct(const id_type id = type_hash<Type>::value()) {
        return assure<Type>(id).on_construct();
    }

    /// Sink for the listeners called after a Type element (in pool `id`) has been patched or replaced.
    template<typename Type>
    [[nodiscard]] auto on_update(const id_type id = type_hash<Type>::value()) {
        return assure<Type>(id).on_update();
    }

    /// Sink for the listeners called before a Type element (in pool `id`) is removed.
    template<typename Type>
    [[nodiscard]] auto on_destroy(const id_type id = type_hash<Type>::value()) {
        return assure<Type>(id).on_destroy();
    }

    /// A view over the entities that have Type, Other... and none of Exclude... Pools are created if needed.
    template<typename Type, typename... Other, typename... Exclude>
    [[nodiscard]] basic_view<get_t<storage_for_type<Type>, storage_for_type<Other>...>,
                             exclude_t<storage_for_type<Exclude>...>>
    view(exclude_t<Exclude...> = exclude_t{}) {
        return {assure<std::remove_const_t<Type>>(), assure<std::remove_const_t<Other>>()...,
                assure<std::remove_const_t<Exclude>>()...};
    }

    /// A read-only view over existing pools. Missing get pools make it empty; missing exclude pools are ignored.
    template<typename Type, typename... Other, typename... Exclude>
    [[nodiscard]] basic_view<get_t<storage_for_type<const Type>, storage_for_type<const Other>...>,
                             exclude_t<storage_for_type<const Exclude>...>>
    view(exclude_t<Exclude...> = exclude_t{}) const {
        basic_view<get_t<storage_for_type<const Type>, storage_for_type<const Other>...>,
                   exclude_t<storage_for_type<const Exclude>...>>
            elem{};
        [&]<std::size_t... Index>(std::index_sequence<Index...>) {
            (([&]() {
                 using element_type = type_list_element_t<Index, type_list<Type, Other..., Exclude...>>;
                 if (const auto *found = assure<std::remove_const_t<element_type>>(); found) {
                     elem.template storage<Index>(*found);
                 }
             }()),
             ...);
        }
        (std::index_sequence_for<Type, Other..., Exclude...>{});
        return elem;
    }

    /// The group over Owned..., Get... without Exclude... (at least one owned or get type), created on the first
    /// request: its handler is connected to the pools and the existing entities are arranged (O(n)). Later
    /// requests return a group on the same handler. Owning a type that another group owns is a misuse.
    template<typename... Owned, typename... Get, typename... Exclude>
    basic_group<owned_t<storage_for_type<Owned>...>, get_t<storage_for_type<Get>...>,
                exclude_t<storage_for_type<Exclude>...>>
    group(get_t<Get...> = get_t{}, exclude_t<Exclude...> = exclude_t{}) {
        static_assert(sizeof...(Owned) + sizeof...(Get) != 0u, "group: a group needs at least one owned or get type");
        using group_type = basic_group<owned_t<storage_for_type<Owned>...>, get_t<storage_for_type<Get>...>,
                                       exclude_t<storage_for_type<Exclude>...>>;
        using handler_type = typename group_type::handler;

        if (auto *const found = groups.template find<handler_type>(group_type::group_id()); found != nullptr) {
            return {*found};
        }

        (groups.template assert_not_owned<std::remove_const_t<Owned>>(), ...);
        return {groups.template emplace<handler_type>(
            group_type::group_id(), get_allocator(), assure<std::remove_const_t<Owned>>()...,
            assure<std::remove_const_t<Get>>()..., assure<std::remove_const_t<Exclude>>()...)};
    }

    /// The existing group over Owned..., Get... without Exclude..., read-only, or an invalid group. Never
    /// creates anything.
    template<typename... Owned, typename... Get, typename... Exclude>
    [[nodiscard]] basic_group<owned_t<storage_for_type<const Owned>...>, get_t<storage_for_type<const Get>...>,
                              exclude_t<storage_for_type<const Exclude>...>>
    group_if_exists(get_t<Get...> = get_t{}, exclude_t<Exclude...> = exclude_t{}) const {
        using group_type = basic_group<owned_t<storage_for_type<const Owned>...>, get_t<storage_for_type<const Get>...>,
                                       exclude_t<storage_for_type<const Exclude>...>>;
        using handler_type = typename group_type::handler;

        if (auto *const found = groups.template find<handler_type>(group_type::group_id()); found != nullptr) {
            return {*found};
        }

        return {};
    }

    /// Same as group_if_exists: a const registry never creates a group.
    template<typename... Owned, typename... Get, typename... Exclude>
    [[nodiscard]] basic_group<owned_t<storage_for_type<const Owned>...>, get_t<storage_for_type<const Get>...>,
                              exclude_t<storage_for_type<const Exclude>...>>
    group(get_t<Get...> = get_t{}, exclude_t<Exclude...> = exclude_t{}) const {
        return group_if_exists<Owned...>(get_t<Get...>{}, exclude_t<Exclude...>{});
    }

    /// True if any listed type is owned by a group.
    template<typename... Type>
    [[nodiscard]] bool owned() const {
        return groups.template owned<std::remove_const_t<Type>...>();
    }

    /// Sorts pool Type: compare takes two elements (when it can) or two identifiers. Afterwards iterating the
    /// pool visits elements in ascending order. Misuse if a group owns the pool.
    template<typename Type, typename Compare, typename Sort = std_sort, typename... Args>
    void sort(Compare compare, Sort algo = Sort{}, Args &&...args) {
        TESSERA_ASSERT(!owned<Type>(), "sort: a group owns this pool; sort the group instead");
        auto &pool = assure<Type>();
        using value_type = typename storage_for_type<Type>::value_type;
        // types without instances (value_type void) are sorted by identifier: no reference to void may be formed
        constexpr bool by_element = [] {
            if constexpr (std::is_void_v<value_type>) {
                return false;
            } else {
                return std::is_invocable_r_v<bool, Compare &, const value_type &, const value_type &>;
            }
        }();

        if constexpr (by_element) {
            // the pool sorts identifiers: each comparison looks both elements up
            pool.sort(
                [&pool, compare = std::move(compare)](const entity_type lhs, const entity_type rhs) mutable {
                    return compare(std::as_const(pool.get(lhs)), std::as_const(pool.get(rhs)));
                },
                std::move(algo), std::forward<Args>(args)...);
        } else {
            pool.sort(std::move(compare), std::move(algo), std::forward<Args>(args)...);
        }
    }

    /// Arranges pool To so that the entities it shares with From come first, in From's order.
    template<typename To, typename From>
    void sort() {
        TESSERA_ASSERT(!owned<To>(), "sort: a group owns the pool to arrange; sort the group instead");
        const common_type &order = assure<From>();
        auto &arranged = assure<To>();
        arranged.sort_as(order.cbegin(), order.cend());
    }

    /// Disables the entity's Type (views, groups, runtime views skip it; it keeps its value); false if it was.
    /// Rules and costs: docs/enable_disable.md; the mechanism, a disabled tail in each pool: sparse_set.hpp.
    template<typename Type>
    bool disable(const entity_type entt) {
        static_assert(!std::is_same_v<Type, entity_type>, "disable: entities are disabled with disable(entity)");
        static_assert(internal::can_disable<storage_for_type<Type>>(),
                      "disable: the storage of this type deletes in place (stable pointers), so its elements cannot "
                      "move behind the enabled ones; remove the component instead");
        auto &pool = assure<Type>();
        TESSERA_ASSERT(valid(entt) && pool.contains(entt), "disable: the entity does not own this component");
        return pool.disable(entt);
    }

    /// Enables the entity's Type again; false if it was enabled.
    template<typename Type>
    bool enable(const entity_type entt) {
        static_assert(!std::is_same_v<Type, entity_type>, "enable: entities are enabled with enable(entity)");
        auto &pool = assure<Type>();
        TESSERA_ASSERT(valid(entt) && pool.contains(entt), "enable: the entity does not own this component");
        return pool.enable(entt);
    }

    /// True if the entity has Type and it is enabled.
    template<typename Type>
    [[nodiscard]] bool enabled(const entity_type entt) const {
        const auto *pool = assure<std::remove_const_t<Type>>();
        return pool != nullptr && static_cast<const common_type *>(pool)->enabled(entt);
    }

    /// Disables the whole entity: every component it has, and those it gets until enable(entt).
    void disable(const entity_type entt) {
        TESSERA_ASSERT(valid(entt), "disable: invalid entity");
        // checked before anything changes: a failed disable leaves the entity as it was
        TESSERA_ASSERT(std::none_of(pools.begin(), pools.end(),
                                    [entt](const auto &entry) {
                                        return entry.second->policy() != deletion_policy::swap_and_pop &&
                                               entry.second->contains(entt);
                                    }),
                       "disable: the entity has a component of an in-place storage, which cannot be disabled");
        auto &marks = assure<disabled_entity>();
        disabled_entities = &marks;

        if (!marks.contains(entt)) {
            marks.emplace(entt);
        }

        for (auto [id, pool] : storage()) {
            if (&pool != disabled_entities && pool.contains(entt)) {
                pool.disable(entt);
            }
        }
    }

    /// Enables the whole entity again: every component it has, including those disabled one by one.
    void enable(const entity_type entt) {
        TESSERA_ASSERT(valid(entt), "enable: invalid entity");

        if (disabled_entities != nullptr) {
            disabled_entities->remove(entt);
        }

        for (auto [id, pool] : storage()) {
            if (pool.policy() == deletion_policy::swap_and_pop && pool.contains(entt)) {
                pool.enable(entt);
            }
        }
    }

    /// False while the whole entity is disabled (disable(entt)).
    [[nodiscard]] bool enabled(const entity_type entt) const {
        TESSERA_ASSERT(valid(entt), "enabled: invalid entity");
        return disabled_entities == nullptr || !disabled_entities->contains(entt);
    }

    /// The context variables.
    [[nodiscard]] context &ctx() noexcept { return vars; }

    /// The context variables, read-only.
    [[nodiscard]] const context &ctx() const noexcept { return vars; }

    /// The memory the registry holds: a row per pool, the entity storage, the member sets of non-owning groups
    /// and the registry's own tables (docs/debugging.md says what is counted). Allocates only the report. Returns a
    /// tessera::memory_report; needs <tessera/entity/memory_report.hpp>.
    [[nodiscard]] auto memory_report() const {
        using support = internal::memory_support<basic_registry>;
        static_assert(internal::defined_v<support>,
                      "registry::memory_report: #include <tessera/entity/memory_report.hpp> first");
        if constexpr (internal::defined_v<support>) {
            return support::measure(*this);
        }
    }

    /// Debug aid: the element types of the pools that contain the entity, separated by commas (a named pool adds
    /// the hash of its name). Not a template, so that a debugger can call it. Defined in
    /// <tessera/entity/debugger.hpp>, which also keeps it in the program: include that header where you call it
    /// (without it, the call does not link). docs/debugging.md says more.
    [[nodiscard]] std::string debug_components(const entity_type entt) const;

private:
    // a component added to a disabled entity is disabled too; returns true if it was
    template<typename Pool>
    TESSERA_NOINLINE bool follow_entity_state(Pool &pool, const entity_type entt) {
        if (disabled_entities == nullptr || !disabled_entities->contains(entt)) [[likely]] {
            return false;
        }

        if constexpr (internal::can_disable<Pool>()) {
            return static_cast<common_type *>(&pool) != disabled_entities && pool.disable(entt);
        } else {
            TESSERA_ASSERT(false, "emplace: the entity is disabled and the storage of this type deletes in place, so "
                                  "its elements cannot be disabled; enable the entity first");
            return false;
        }
    }

    // the same for an element just emplaced at `elem`: returns where the element is afterwards
    template<typename Pool>
    TESSERA_NOINLINE typename Pool::value_type *follow_entity_state(Pool &pool, const entity_type entt,
                                                                    typename Pool::value_type *elem) {
        return follow_entity_state(pool, entt) ? std::addressof(pool.get(entt)) : elem;
    }

    template<typename Pool, typename It>
    void follow_entity_state([[maybe_unused]] Pool &pool, [[maybe_unused]] It first, [[maybe_unused]] It last) {
        // an input range is gone once inserted: its entities cannot be visited twice (docs/enable_disable.md)
        if constexpr (std::forward_iterator<It>) {
            if (disabled_entities != nullptr && !disabled_entities->empty()) {
                for (; first != last; ++first) {
                    follow_entity_state(pool, *first);
                }
            }
        }
    }

    version_type force_version(const entity_type entt, const version_type version) {
        const auto elem = traits_type::construct(traits_type::to_entity(entt), version);
        return entities.bump((elem == tombstone) ? traits_type::next(elem) : elem);
    }

    context vars;
    pool_table_type pools;
    internal::group_table<allocator_type> groups;
    storage_for_type<entity_type> entities;
    tick_type current_tick{1u};
    // the pool that marks the entities disabled as a whole, once there is one; pools never move
    common_type *disabled_entities{};
};

} // namespace tessera

#endif
