// The registry: owns the entity storage, one pool per (component type, name), the group handlers and the
// context variables, and offers the entity and component API everything else is built on.
#ifndef TESSERA_ENTITY_REGISTRY_HPP
#define TESSERA_ENTITY_REGISTRY_HPP

#include "../config/config.hpp"
#include "../core/algorithm.hpp"
#include "../core/any.hpp"
#include "../core/iterator.hpp"
#include "../core/type_info.hpp"
#include "../core/type_traits.hpp"
#include "clone.hpp"
#include "entity.hpp"
#include "fwd.hpp"
#include "group.hpp"
#include "group_handler.hpp"
#include "memory_report.hpp"
#include "mixin.hpp"
#include "pool_owner.hpp"
#include "sparse_set.hpp"
#include "storage.hpp"
#include "view.hpp"
#include <algorithm>
#include <array>
#include <cstddef>
#include <iterator>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tessera {

namespace internal {

/// Iterator over the (name, pool) pairs of a registry. Pairs are returned by value. Random access, like the
/// vector of pools it walks; an iterator over writable pools converts to one over read-only pools.
template<typename It, typename Common>
class registry_storage_iterator final {
    template<typename, typename>
    friend class registry_storage_iterator;

public:
    using value_type = std::pair<id_type, Common &>;
    using pointer = input_iterator_pointer<value_type>;
    using reference = value_type;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::input_iterator_tag;
    using iterator_concept = std::random_access_iterator_tag;

    constexpr registry_storage_iterator() noexcept = default;

    constexpr registry_storage_iterator(It iter) noexcept : it{iter} {}

    /// Converts an iterator over writable pools into one over read-only pools.
    template<typename Other>
    requires(!std::is_same_v<Other, Common> && std::is_same_v<const Other, Common>) constexpr registry_storage_iterator(
        const registry_storage_iterator<It, Other> &other) noexcept
        : it{other.it} {}

    constexpr registry_storage_iterator &operator++() noexcept { return ++it, *this; }

    constexpr registry_storage_iterator operator++(int) noexcept {
        registry_storage_iterator before = *this;
        ++*this;
        return before;
    }

    constexpr registry_storage_iterator &operator--() noexcept { return --it, *this; }

    constexpr registry_storage_iterator operator--(int) noexcept {
        registry_storage_iterator before = *this;
        --*this;
        return before;
    }

    constexpr registry_storage_iterator &operator+=(const difference_type value) noexcept {
        it += value;
        return *this;
    }

    constexpr registry_storage_iterator &operator-=(const difference_type value) noexcept {
        it -= value;
        return *this;
    }

    [[nodiscard]] constexpr registry_storage_iterator operator+(const difference_type value) const noexcept {
        return registry_storage_iterator{it + value};
    }

    [[nodiscard]] friend constexpr registry_storage_iterator operator+(const difference_type value,
                                                                       const registry_storage_iterator &iter) noexcept {
        return iter + value;
    }

    [[nodiscard]] constexpr registry_storage_iterator operator-(const difference_type value) const noexcept {
        return registry_storage_iterator{it - value};
    }

    [[nodiscard]] constexpr reference operator[](const difference_type value) const noexcept {
        return {it[value].first, *it[value].second};
    }

    [[nodiscard]] constexpr reference operator*() const noexcept { return operator[](0); }

    [[nodiscard]] constexpr pointer operator->() const noexcept { return operator*(); }

    /// Distance between two iterators of the same registry, whatever the constness of their pools.
    template<typename Other>
    [[nodiscard]] constexpr difference_type
    operator-(const registry_storage_iterator<It, Other> &other) const noexcept {
        return it - other.it;
    }

    /// Equal when they designate the same pool, whatever the constness of their pools.
    template<typename Other>
    [[nodiscard]] constexpr bool operator==(const registry_storage_iterator<It, Other> &other) const noexcept {
        return it == other.it;
    }

    /// Ordered as the pools they designate.
    template<typename Other>
    [[nodiscard]] constexpr auto operator<=>(const registry_storage_iterator<It, Other> &other) const noexcept {
        return it <=> other.it;
    }

private:
    It it{};
};

/// The context variables of a registry: a map from names to type-erased values. Values live on the heap, so
/// their addresses do not change while other variables come and go.
template<typename Allocator>
class registry_context {
    using alloc_traits = std::allocator_traits<Allocator>;
    using value_type = basic_any<0u>;
    using container_type =
        std::unordered_map<id_type, value_type, std::hash<id_type>, std::equal_to<>,
                           typename alloc_traits::template rebind_alloc<std::pair<const id_type, value_type>>>;

public:
    /// Allocator type.
    using allocator_type = typename alloc_traits::template rebind_alloc<std::pair<const id_type, value_type>>;

    /// Default constructor.
    registry_context() : registry_context{allocator_type{}} {}

    /// Constructs an empty context with the given allocator.
    explicit registry_context(const allocator_type &allocator) : ctx{allocator} {}

    /// Creates the variable of type Type (default name) from args; an existing variable is returned unchanged.
    template<typename Type, typename... Args>
    Type &emplace(Args &&...args) {
        return emplace_as<Type>(type_id<Type>().hash(), std::forward<Args>(args)...);
    }

    /// Creates the variable `id` from args; an existing variable is returned unchanged. Type may be T & or
    /// const T & to store an alias to the argument.
    template<typename Type, typename... Args>
    Type &emplace_as(const id_type id, Args &&...args) {
        const auto it = ctx.try_emplace(id, std::in_place_type<Type>, std::forward<Args>(args)...).first;
        TESSERA_ASSERT(it->second.info() == type_id<Type>(), "ctx: the variable already exists with another type");
        return any_cast<Type &>(it->second);
    }

    /// Stores an owned copy (or moved value) of value under its type's name, replacing any variable there.
    template<typename Type>
    std::remove_cvref_t<Type> &insert_or_assign(Type &&value) {
        return insert_or_assign(type_id<Type>().hash(), std::forward<Type>(value));
    }

    /// Stores an owned copy (or moved value) of value under `id`, replacing any variable there.
    template<typename Type>
    std::remove_cvref_t<Type> &insert_or_assign(const id_type id, Type &&value) {
        auto &elem = ctx.insert_or_assign(
                            id, value_type{std::in_place_type<std::remove_cvref_t<Type>>, std::forward<Type>(value)})
                         .first->second;
        return any_cast<std::remove_cvref_t<Type> &>(elem);
    }

    /// Removes the variable if it exists and has type Type. Returns whether it did.
    template<typename Type>
    bool erase(const id_type id = type_id<Type>().hash()) {
        if (const auto it = ctx.find(id); it != ctx.end() && it->second.info() == type_id<Type>()) {
            ctx.erase(it);
            return true;
        }

        return false;
    }

    /// The variable; it must exist and have type Type.
    template<typename Type>
    [[nodiscard]] const Type &get(const id_type id = type_id<Type>().hash()) const {
        const auto *elem = find<const Type>(id);
        TESSERA_ASSERT(elem != nullptr, "ctx: no variable of this type under this name");
        return *elem;
    }

    /// The variable; it must exist, have type Type, and be writable for a non-const Type.
    template<typename Type>
    [[nodiscard]] Type &get(const id_type id = type_id<Type>().hash()) {
        auto *elem = find<Type>(id);
        TESSERA_ASSERT(elem != nullptr, "ctx: no writable variable of this type under this name");
        return *elem;
    }

    /// Same as get.
    template<typename Type>
    [[nodiscard]] const Type &at(const id_type id = type_id<Type>().hash()) const {
        return get<Type>(id);
    }

    /// Same as get.
    template<typename Type>
    [[nodiscard]] Type &at(const id_type id = type_id<Type>().hash()) {
        return get<Type>(id);
    }

    /// Pointer to the variable, or nullptr if it is missing or has another type.
    template<typename Type>
    [[nodiscard]] const Type *find(const id_type id = type_id<Type>().hash()) const {
        const auto it = ctx.find(id);
        return (it == ctx.cend()) ? nullptr : any_cast<const Type>(&it->second);
    }

    /// Pointer to the variable, or nullptr if it is missing, has another type, or is a read-only alias and
    /// Type is not const.
    template<typename Type>
    [[nodiscard]] Type *find(const id_type id = type_id<Type>().hash()) {
        const auto it = ctx.find(id);
        return (it == ctx.end()) ? nullptr : any_cast<Type>(&it->second);
    }

    /// True if the variable exists and has type Type.
    template<typename Type>
    [[nodiscard]] bool contains(const id_type id = type_id<Type>().hash()) const {
        const auto it = ctx.find(id);
        return (it != ctx.cend()) && (it->second.info() == type_id<Type>());
    }

    /// Destroys every variable (aliases only stop referring to their objects).
    void clear() noexcept { ctx.clear(); }

private:
    container_type ctx;
};

/// One pool of a registry: its name, its owner and how clone copies its elements (null for pools that are never
/// copied, such as reactive storages). The first two members keep the names of the std::pair this once was.
template<typename Registry, typename Owner>
struct registry_pool final {
    /// Builds an entry.
    registry_pool(const id_type id, Owner &&owner, const element_copier<Registry> *how) noexcept
        : first{id}, second{std::move(owner)}, copier{how} {}

    /// The name of the pool.
    id_type first;
    /// The pool.
    Owner second;
    /// How clone copies an element of the pool.
    const element_copier<Registry> *copier;
};

template<typename Type, typename Registry>
std::true_type reactive_base_test(const basic_reactive_mixin<Type, Registry> *);

std::false_type reactive_base_test(const void *);

/// True for pools built on the reactive mixin.
template<typename Storage>
inline constexpr bool is_reactive_pool_v = decltype(reactive_base_test(std::declval<const Storage *>()))::value;

} // namespace internal

/// The registry: entities, their components, the pools that keep them, groups and context variables.
template<typename Entity, typename Allocator>
class basic_registry {
    using base_type = basic_sparse_set<Entity, Allocator>;
    using alloc_traits = std::allocator_traits<Allocator>;
    static_assert(std::is_same_v<typename alloc_traits::value_type, Entity>, "basic_registry: invalid allocator");
    using pool_pointer = internal::pool_owner<base_type, Allocator>;
    using pool_entry = internal::registry_pool<basic_registry, pool_pointer>;
    using pool_container_type = std::vector<pool_entry, typename alloc_traits::template rebind_alloc<pool_entry>>;
    using copier_type = internal::element_copier<basic_registry>;
    using pool_index_type =
        std::unordered_map<id_type, std::size_t, std::hash<id_type>, std::equal_to<>,
                           typename alloc_traits::template rebind_alloc<std::pair<const id_type, std::size_t>>>;
    using group_container_type =
        std::unordered_map<id_type, std::shared_ptr<internal::group_descriptor>, std::hash<id_type>, std::equal_to<>,
                           typename alloc_traits::template rebind_alloc<
                               std::pair<const id_type, std::shared_ptr<internal::group_descriptor>>>>;
    using traits_type = entt_traits<Entity>;

    template<typename Type>
    using element_alloc = typename alloc_traits::template rebind_alloc<std::remove_const_t<Type>>;

    template<typename, typename, typename>
    friend class basic_group;

    template<typename>
    friend class basic_prototype;

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
    using iterable = iterable_adaptor<
        internal::registry_storage_iterator<typename pool_container_type::const_iterator, common_type>>;
    /// Iterable of (name, const pool &) pairs.
    using const_iterable = iterable_adaptor<
        internal::registry_storage_iterator<typename pool_container_type::const_iterator, const common_type>>;

    /// The pool type for an element type, const if the element type is const.
    template<typename Type>
    using storage_for_type = typename storage_for<Type, Entity, element_alloc<Type>>::type;

private:
    template<typename Type>
    [[nodiscard]] auto &assure() {
        static_assert(std::is_same_v<Type, std::decay_t<Type>>, "registry: pools are keyed by non-const element types");

        if constexpr (std::is_same_v<Type, entity_type>) {
            return entities;
        } else {
            using storage_type = storage_for_type<Type>;
            // default pools are cached by dense type index: no hashing on the hot path (the hash of a type declared
            // in an unnamed namespace is computed at run time)
            const auto idx = static_cast<size_type>(type_index<Type>::value());

            if (idx < by_index.size() && by_index[idx] != nullptr) [[likely]] {
                return static_cast<storage_type &>(*by_index[idx]);
            }

            return cache_default<Type>(idx);
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
                       : static_cast<storage_type &>(create_or_find<storage_type, Type>(id));
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
            return (idx < by_index.size()) ? static_cast<const storage_type *>(by_index[idx]) : nullptr;
        }
    }

    template<typename Type>
    [[nodiscard]] const auto *assure(const id_type id) const {
        if constexpr (std::is_same_v<Type, entity_type>) {
            return assure<Type>();
        } else {
            using storage_type = storage_for_type<Type>;
            return (id == type_hash<Type>::value()) ? assure<Type>()
                                                    : static_cast<const storage_type *>(find_pool(id, type_id<Type>()));
        }
    }

    // The default pool of Type, created if needed, then cached at its type index.
    template<typename Type>
    auto &cache_default(const size_type idx) {
        using storage_type = storage_for_type<Type>;
        auto &made = static_cast<storage_type &>(create_or_find<storage_type, Type>(type_hash<Type>::value()));

        if (!(idx < by_index.size())) {
            by_index.resize(idx + 1u, nullptr);
        }

        by_index[idx] = &made;
        return made;
    }

    // The parts of create_or_find that do not depend on the pool type are compiled once per registry type.
    [[nodiscard]] base_type *find_pool(const id_type id, [[maybe_unused]] const type_info &info) const {
        if (const auto it = index.find(id); it != index.cend()) {
            TESSERA_ASSERT(pools[it->second].second->info() == info,
                           "registry: the pool name is taken by another element type");
            return pools[it->second].second.get();
        }

        return nullptr;
    }

    base_type &adopt_pool(const id_type id, pool_pointer cpool, const copier_type *copier, const bool reactive) {
        // what can throw comes first, so that a failure leaves the pools and their index as they were
        pools.reserve(pools.size() + 1u);
        index.emplace(id, reactive ? 0u : pools.size());
        auto &pool = *cpool;

        if (reactive) {
            // reactive pools go first, so that destroy and clear (which walk the pools backwards) reach them last:
            // what they collect while the other pools are emptied is removed too
            for (auto &&curr : index) {
                if (curr.first != id) {
                    ++curr.second;
                }
            }

            pools.emplace(pools.begin(), id, std::move(cpool), copier);
        } else {
            pools.emplace_back(id, std::move(cpool), copier);
        }

        pool.bind(*this);
        return pool;
    }

    template<typename Storage, typename Type>
    base_type &create_or_find(const id_type id) {
        if (auto *const existing = find_pool(id, type_id<Type>()); existing) {
            return *existing;
        }

        using storage_alloc = typename Storage::allocator_type;
        constexpr bool reactive = internal::is_reactive_pool_v<Storage>;
        const copier_type *copier = nullptr;

        // reactive storages collect entities on events: a copy is collected through the events it causes
        if constexpr (!reactive) {
            copier = &internal::element_copier_for<basic_registry, Type>::table;
        }

        return adopt_pool(id, pool_pointer::template make<Storage>(get_allocator(), storage_alloc{get_allocator()}),
                          copier, reactive);
    }

    // Every pool (and the entity storage) keeps a pointer to its registry: after a move or a swap it is refreshed.
    void rebind() {
        entities.bind(*this);
        std::for_each(pools.begin(), pools.end(), [this](auto &entry) { entry.second->bind(*this); });
    }

    // The identifier goes back to the entity storage; its new version is the one the next create() of the index gets.
    version_type retire(const entity_type entt) {
        entities.erase(entt);
        const version_type next = entities.current(entt);
        return next;
    }

    // Whether the entity has a Type in its default pool, without creating the pool.
    template<typename Type>
    [[nodiscard]] bool has(const entity_type entt) const {
        const auto *const pool = assure<Type>();
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
        : vars{allocator}, pools{allocator}, index{allocator}, by_index{allocator}, groups{allocator}, entities{
                                                                                                           allocator} {
        pools.reserve(count);
        entities.bind(*this);
    }

    basic_registry(const basic_registry &) = delete;

    /// Move constructor: every pool is re-bound to the new registry.
    basic_registry(basic_registry &&other) noexcept
        : vars{std::move(other.vars)}, pools{std::move(other.pools)}, index{std::move(other.index)},
          by_index{std::move(other.by_index)}, groups{std::move(other.groups)}, entities{std::move(other.entities)} {
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
        std::swap(pools, other.pools);
        std::swap(index, other.index);
        std::swap(by_index, other.by_index);
        std::swap(groups, other.groups);
        std::swap(entities, other.entities);
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
    [[nodiscard]] const common_type *storage(const id_type id) const {
        if (const auto found = index.find(id); found != index.cend()) {
            return pools[found->second].second.get();
        }
        return nullptr;
    }

    /// Iterable of (name, pool &) pairs over every pool; the entity storage is not included.
    [[nodiscard]] iterable storage() noexcept { return {pools.cbegin(), pools.cend()}; }

    /// Iterable of (name, const pool &) pairs over every pool; the entity storage is not included.
    [[nodiscard]] const_iterable storage() const noexcept { return {pools.cbegin(), pools.cend()}; }

    /// Destroys the pool named `id`, if there is one, without firing its destroy signals. Returns whether a pool
    /// was destroyed. Views, groups and references that use the pool become invalid; a pool a group uses cannot be
    /// discarded, nor can the entity storage (it is never named).
    bool reset(const id_type id) {
        const auto found = index.find(id);

        if (found == index.end()) {
            return false;
        }

        const auto pos = found->second;
        auto *const pool = pools[pos].second.get();
        TESSERA_ASSERT(
            std::none_of(groups.cbegin(), groups.cend(),
                         [pool](const auto &entry) { return entry.second->uses(static_cast<const void *>(pool)); }),
            "reset: a group uses this pool; pools of groups live as long as the registry");
        std::replace(by_index.begin(), by_index.end(), pool, static_cast<base_type *>(nullptr));
        index.erase(found);

        for (auto &&entry : index) {
            entry.second -= static_cast<size_type>(entry.second > pos);
        }

        pools.erase(pools.begin() + static_cast<typename pool_container_type::difference_type>(pos));
        return true;
    }

    /// True if the identifier is in use with exactly this version.
    [[nodiscard]] bool valid(const entity_type entt) const {
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

        // By position, newest pool first: listeners may add pools meanwhile, which must not be visited.
        for (size_type left = pools.size(); left-- != 0u;) {
            pools[left].second->remove(entt);
        }

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

            // One call per pool, which loops inside. An entity that a listener destroyed meanwhile is skipped.
            for (size_type left = pools.size(); left-- != 0u;) {
                pools[left].second->remove(from, to);
            }

            entities.remove(from, to);
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
    entity_type clone(const entity_type entt) { return clone_into(entt, *this); }

    /// Like clone(entt), but creates the copy in `other`, a registry of the same type, making pools there as
    /// needed. Returns the new entity of `other`.
    entity_type clone(const entity_type entt, basic_registry &other) const { return clone_into(entt, other); }

    /// True if no pool contains the entity.
    [[nodiscard]] bool orphan(const entity_type entt) const {
        return std::none_of(pools.cbegin(), pools.cend(),
                            [entt](const auto &entry) { return entry.second->contains(entt); });
    }

    /// Gives the entity a Type built from args (braces for aggregates), then fires on_construct<Type>.
    template<typename Type, typename... Args>
    decltype(auto) emplace(const entity_type entt, Args &&...args) {
        TESSERA_ASSERT(valid(entt), "emplace: invalid entity");
        auto &pool = assure<Type>();
        TESSERA_ASSERT(!pool.contains(entt), "emplace: the entity already owns this component");
        return pool.emplace(entt, std::forward<Args>(args)...);
    }

    /// Gives every entity of the range a copy of value; on_construct fires once per entity afterwards.
    template<typename Type, typename It>
    void insert(It first, It last, const Type &value = {}) {
        if constexpr (std::forward_iterator<It>) {
            TESSERA_ASSERT(std::all_of(first, last, [this](const auto entt) { return valid(entt); }),
                           "insert: invalid entity in the range");
        }

        assure<Type>().insert(std::move(first), std::move(last), value);
    }

    /// Gives every entity of the range a copy of the matching element of [from, ...).
    template<typename Type, typename EIt, typename CIt>
    requires std::is_same_v<std::remove_cvref_t<std::iter_value_t<CIt>>, Type>
    void insert(EIt first, EIt last, CIt from) {
        if constexpr (std::forward_iterator<EIt>) {
            TESSERA_ASSERT(std::all_of(first, last, [this](const auto entt) { return valid(entt); }),
                           "insert: invalid entity in the range");
        }

        assure<Type>().insert(std::move(first), std::move(last), std::move(from));
    }

    /// replace if the entity has Type (on_update fires), emplace otherwise (on_construct fires).
    template<typename Type, typename... Args>
    decltype(auto) emplace_or_replace(const entity_type entt, Args &&...args) {
        TESSERA_ASSERT(valid(entt), "emplace_or_replace: invalid entity");

        if (auto &pool = assure<Type>(); pool.contains(entt)) {
            if constexpr (std::is_void_v<typename storage_for_type<Type>::value_type>) {
                return pool.patch(entt);
            } else {
                return pool.patch(entt, [&args...](auto &...element) {
                    ((element = make_element<Type>(std::forward<Args>(args)...)), ...);
                });
            }
        } else {
            return pool.emplace(entt, std::forward<Args>(args)...);
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
        // by position: listeners may create pools, at the back (not visited) or, for reactive pools, in front, which
        // moves the pools still to visit as far as the current one moved
        for (size_type pos{}, last = pools.size(); pos < last; ++pos) {
            if (auto *curr = pools[pos].second.get();
                curr->contains(entt) && func(pools[pos].first, std::as_const(*curr))) {
                curr->erase(entt);

                for (; pools[pos].second.get() != curr; ++pos) {
                    ++last;
                }
            }
        }
    }

    /// Removes the holes of the listed in-place pools, or of every pool.
    template<typename... Type>
    void compact() {
        if constexpr (sizeof...(Type) != 0u) {
            (assure<Type>().compact(), ...);
        } else {
            std::for_each(pools.begin(), pools.end(), [](auto &entry) { entry.second->compact(); });
        }
    }

    /// Gives back the memory that neither the pools nor the entity storage need: spare capacity, element pages past
    /// the last element, sparse pages that hold no identifier, and the released identifiers whose index is above
    /// every entity alive (see docs/registry.md, "Giving memory back"). Pointers to components stay valid;
    /// iterators, views' cached ranges and group iterators do not.
    void shrink_to_fit() {
        std::for_each(pools.begin(), pools.end(), [](auto &entry) { entry.second->shrink_to_fit(); });
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
            return pool.get(entt);
        }
    }

    /// The entity's Type, created from args if the entity does not have one yet.
    template<typename Type, typename... Args>
    [[nodiscard]] decltype(auto) get_or_emplace(const entity_type entt, Args &&...args) {
        TESSERA_ASSERT(valid(entt), "get_or_emplace: invalid entity");
        auto &pool = assure<Type>();
        if (!pool.contains(entt)) {
            return pool.emplace(entt, std::forward<Args>(args)...);
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
            const element_type *found = nullptr;
            if (const auto *const pool = assure<element_type>(); pool != nullptr && pool->contains(entt)) {
                found = std::addressof(pool->get(entt));
            }
            return found;
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

    /// Empties the listed pools, or, with no types, every pool and then releases every identifier in use.
    template<typename... Type>
    void clear() {
        if constexpr (sizeof...(Type) == 0u) {
            for (size_type left = pools.size(); left-- != 0u;) {
                pools[left].second->clear();
            }

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

        if (const auto it = groups.find(group_type::group_id()); it != groups.cend()) {
            return {static_cast<handler_type &>(*it->second)};
        }

        (assert_not_owned<std::remove_const_t<Owned>>(), ...);
        auto handler = std::allocate_shared<handler_type>(
            get_allocator(), get_allocator(), assure<std::remove_const_t<Owned>>()...,
            assure<std::remove_const_t<Get>>()..., assure<std::remove_const_t<Exclude>>()...);
        groups.emplace(group_type::group_id(), handler);
        return {*handler};
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

        if (const auto it = groups.find(group_type::group_id()); it != groups.cend()) {
            return {static_cast<handler_type &>(*it->second)};
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
        return std::any_of(groups.cbegin(), groups.cend(), [](const auto &entry) {
            return (entry.second->owned(type_id<std::remove_const_t<Type>>().hash()) || ...);
        });
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

    /// The context variables.
    [[nodiscard]] context &ctx() noexcept { return vars; }

    /// The context variables, read-only.
    [[nodiscard]] const context &ctx() const noexcept { return vars; }

    /// The memory the registry holds: a row per pool, the entity storage, the member sets of non-owning groups
    /// and the registry's own tables (docs/debugging.md says what is counted). Allocates only the report.
    [[nodiscard]] tessera::memory_report memory_report() const {
        tessera::memory_report report{};
        report.pools.reserve(pools.size());
        report.registry_bytes = pools.capacity() * sizeof(typename pool_container_type::value_type) +
                                by_index.capacity() * sizeof(base_type *);

        for (const auto &entry : pools) {
            pool_memory row = entry.second.measure();
            // measuring gives the type's hash, which is also the name of the type's default pool
            row.named = (entry.first != row.id);
            row.id = entry.first;
            report.pools.push_back(row);
            report.registry_bytes += entry.second.object_size();
        }

        for (const auto &entry : groups) {
            report.group_bytes += entry.second->member_set_bytes();
        }

        report.entities = memory_of(entities);
        return report;
    }

    /// Debug aid: the element types of the pools that contain the entity, separated by commas (a named pool adds
    /// the hash of its name). Not a template, so that a debugger can call it; docs/debugging.md says how to make
    /// sure a program contains it.
    [[nodiscard]] std::string debug_components(const entity_type entt) const {
        std::string out{};

        if (!valid(entt)) {
            return out.append("(not a valid entity)");
        }

        for (const auto &entry : pools) {
            if (entry.second->contains(entt)) {
                const auto &info = entry.second->info();
                out.append(out.empty() ? "" : ", ");
                internal::append_pool_name(out, info.name(), entry.first, entry.first != info.hash());
            }
        }

        return out;
    }

private:
    // Calls func(name, pool, copier) for every pool that contains entt and can be copied, last pool first as
    // destroy does: a reactive pool created meanwhile by a listener (reactive pools go in front) then makes the
    // walk skip a pool rather than visit one twice.
    template<typename Func>
    void each_copier(const entity_type entt, Func func) const {
        for (size_type pos = pools.size(); pos; --pos) {
            const auto &curr = pools[pos - 1u];

            if (curr.copier != nullptr && curr.second->contains(entt)) {
                func(curr.first, std::as_const(*curr.second), *curr.copier);
            }
        }
    }

    entity_type clone_into(const entity_type entt, basic_registry &target) const {
        TESSERA_ASSERT(valid(entt), "clone: invalid entity");
        const auto copy = target.create();

        try {
            each_copier(entt, [entt, &target, &copy](const id_type id, const base_type &pool, const copier_type &how) {
                how.insert(target, id, pool.value(entt), &copy, &copy + 1);
            });
        } catch (...) {
            if (target.valid(copy)) {
                target.destroy(copy);
            }

            throw;
        }

        return copy;
    }

    // one check per type, so that the message names the type that is already owned
    template<typename Type>
    void assert_not_owned() const {
        TESSERA_ASSERT(!owned<Type>(), internal::group_conflict_message<Type>::text.data());
    }

    version_type force_version(const entity_type entt, const version_type version) {
        const auto elem = traits_type::construct(traits_type::to_entity(entt), version);
        return entities.bump((elem == tombstone) ? traits_type::next(elem) : elem);
    }

    context vars;
    pool_container_type pools;
    pool_index_type index;
    std::vector<base_type *, typename alloc_traits::template rebind_alloc<base_type *>> by_index;
    group_container_type groups;
    storage_for_type<entity_type> entities;
};

} // namespace tessera

#endif
