// The pools of a registry: where they live, how they are found (by type index on the hot path, by name
// otherwise), how a missing pool is made, and the walks that visit every pool (destroy, clear, clone, the memory
// report). The order of the pools is part of the contract: reactive pools go in front and the walks that empty
// pools go from the back, so that what a reactive pool collects while the others are emptied goes too.
//
// The hook of clone and prototypes (clone.hpp, prototype.hpp): every entry keeps a twin function, which makes the
// pool of the same type under the same name in another registry, and the clone policy of its element type. The
// copies themselves go through the pools' own push (sparse_set.hpp): nothing else of copying is instantiated per
// component type, and nothing of it is parsed here.
#ifndef TESSERA_ENTITY_TABLES_POOL_TABLE_HPP
#define TESSERA_ENTITY_TABLES_POOL_TABLE_HPP

#include "../../config/config.hpp"
#include "../../core/fwd.hpp"
#include "../../core/type_info.hpp"
#include "../component.hpp"
#include "../fwd.hpp"
#include "pool_owner.hpp"
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

namespace tessera::internal {

/// One pool of a registry: its name, its owner, and what clone and prototypes copy it through. The first two
/// members keep the names of the std::pair this once was.
template<typename Registry, typename Owner, typename Base>
struct registry_pool final {
    /// The pool of the same type named `id` in another registry, made if needed (Registry::storage<T>(id)).
    using twin_function = Base &(Registry &, id_type);

    /// Builds an entry.
    registry_pool(const id_type id, Owner &&owner, twin_function *make, const clone_policy how) noexcept
        : first{id}, second{std::move(owner)}, twin{make}, policy{how} {}

    /// The name of the pool.
    id_type first;
    /// The pool.
    Owner second;
    /// The pool of the same type in another registry; null for pools that are never copied (reactive storages
    /// collect a copy through the events it causes).
    twin_function *twin;
    /// How clone and prototypes copy the elements (component_traits<T>::clone).
    clone_policy policy;
};

template<typename Type, typename Registry>
std::true_type reactive_base_test(const basic_reactive_mixin<Type, Registry> *);

std::false_type reactive_base_test(const void *);

/// True for pools built on the reactive mixin.
template<typename Storage>
inline constexpr bool is_reactive_pool_v = decltype(reactive_base_test(std::declval<const Storage *>()))::value;

/// The pools of a Registry, seen through their common base class Base, in the order the walks rely on (reactive
/// pools first, then the others as they were made), with an index by name and a cache of the default pool of
/// each type by dense type index.
template<typename Registry, typename Base, typename Allocator>
class pool_table final {
    using alloc_traits = std::allocator_traits<Allocator>;
    using owner_type = pool_owner<Base, Allocator>;
    using entry_type = registry_pool<Registry, owner_type, Base>;
    using container_type = std::vector<entry_type, typename alloc_traits::template rebind_alloc<entry_type>>;
    // (name, position) sorted by name: a registry has tens of pools, found by name only off the hot path
    using index_entry = std::pair<id_type, std::size_t>;
    using index_type = std::vector<index_entry, typename alloc_traits::template rebind_alloc<index_entry>>;
    using entity_type = typename Base::entity_type;

    template<typename Type>
    static Base &twin_of(Registry &target, const id_type id) {
        return target.template storage<Type>(id);
    }

    // the first index entry whose name is not below `id`
    [[nodiscard]] typename index_type::const_iterator lower_bound(const id_type id) const noexcept {
        auto first = index.cbegin();

        for (auto count = index.size(); count != 0u;) {
            const auto half = count / 2u;

            if (const auto mid = first + static_cast<typename index_type::difference_type>(half); mid->first < id) {
                first = mid + 1;
                count -= half + 1u;
            } else {
                count = half;
            }
        }

        return first;
    }

    [[nodiscard]] const index_entry *index_of(const id_type id) const noexcept {
        const auto it = lower_bound(id);
        return (it != index.cend() && it->first == id) ? &*it : nullptr;
    }

public:
    /// Iterator over the entries, as registry::storage() walks them.
    using const_iterator = typename container_type::const_iterator;

    /// Constructs an empty table with the given allocator.
    explicit pool_table(const Allocator &allocator) : pools{allocator}, index{allocator}, by_index{allocator} {}

    /// Exchanges the contents with another table, member by member (cheap: no element moves).
    void swap(pool_table &other) noexcept {
        pools.swap(other.pools);
        index.swap(other.index);
        by_index.swap(other.by_index);
    }

    /// Makes room for `count` pools.
    void reserve(const std::size_t count) {
        pools.reserve(count);
        index.reserve(count);
    }

    /// The first entry.
    [[nodiscard]] const_iterator begin() const noexcept { return pools.cbegin(); }

    /// Past the last entry.
    [[nodiscard]] const_iterator end() const noexcept { return pools.cend(); }

    /// The number of pools.
    [[nodiscard]] std::size_t size() const noexcept { return pools.size(); }

    /// The entry at a position, in the order of begin() to end().
    [[nodiscard]] const entry_type &operator[](const std::size_t pos) const noexcept { return pools[pos]; }

    /// The default pool cached at a type index, or nullptr. The hot path of every typed registry call: no hashing
    /// (the hash of a type declared in an unnamed namespace is computed at run time).
    [[nodiscard]] TESSERA_FORCE_INLINE Base *cached(const std::size_t idx) const noexcept {
        return (idx < by_index.size()) ? by_index[idx] : nullptr;
    }

    /// The pool named `id`, or nullptr. Misuse if the pool holds another element type than `info`.
    [[nodiscard]] Base *find(const id_type id, [[maybe_unused]] const type_info &info) const {
        if (const auto *const found = index_of(id); found != nullptr) {
            TESSERA_ASSERT(pools[found->second].second->info() == info,
                           "registry: the pool name is taken by another element type");
            return pools[found->second].second.get();
        }

        return nullptr;
    }

    /// The pool named `id`, whatever its element type, or nullptr.
    [[nodiscard]] Base *find(const id_type id) const {
        const auto *const found = index_of(id);
        return (found == nullptr) ? nullptr : pools[found->second].second.get();
    }

    /// The pool of type Storage for element type Type named `id`, made and bound to `owner` if there is none.
    template<typename Storage, typename Type>
    Base &assure(const id_type id, Registry &owner) {
        if (auto *const existing = find(id, type_id<Type>()); existing) {
            return *existing;
        }

        using storage_alloc = typename Storage::allocator_type;
        constexpr bool reactive = is_reactive_pool_v<Storage>;
        typename entry_type::twin_function *twin = nullptr;

        // reactive storages collect entities on events: a copy is collected through the events it causes
        if constexpr (!reactive) {
            twin = &twin_of<Type>;
        }

        const auto allocator = owner.get_allocator();
        return adopt(id, owner_type::template make<Storage>(allocator, storage_alloc{allocator}), twin,
                     clone_policy_of<component_traits<Type, entity_type>, Type>, reactive, owner);
    }

    /// The default pool (of type Storage) of Type, made if needed, then cached at its type index `idx`. Out of
    /// line: it runs once per type, and the typed calls that fall back on it stay small.
    template<typename Storage, typename Type>
    [[gnu::noinline]] Storage &assure_cached(const std::size_t idx, Registry &owner) {
        auto &made = static_cast<Storage &>(assure<Storage, Type>(type_hash<Type>::value(), owner));

        if (!(idx < by_index.size())) {
            by_index.resize(idx + 1u, nullptr);
        }

        by_index[idx] = &made;
        return made;
    }

    /// Destroys the pool named `id`, if there is one. Returns whether there was one.
    bool erase(const id_type id) {
        const auto *const found = index_of(id);

        if (found == nullptr) {
            return false;
        }

        const auto pos = found->second;

        for (auto &&cached : by_index) {
            cached = (cached == pools[pos].second.get()) ? nullptr : cached;
        }

        index.erase(index.begin() + (found - index.data()));

        for (auto &&entry : index) {
            entry.second -= static_cast<std::size_t>(entry.second > pos);
        }

        pools.erase(pools.begin() + static_cast<typename container_type::difference_type>(pos));
        return true;
    }

    /// Points every pool to `owner` (after the registry moved).
    void bind(Registry &owner) {
        for (auto &&entry : pools) {
            entry.second->bind(owner);
        }
    }

    /// Removes the entity from every pool, newest pool first.
    void remove(const entity_type entt) {
        // by position: listeners may add pools meanwhile, which must not be visited
        for (std::size_t left = pools.size(); left-- != 0u;) {
            pools[left].second->remove(entt);
        }
    }

    /// Removes the entities of [first, last) from every pool, newest pool first; one call per pool, which loops
    /// inside. An entity that a listener removed meanwhile is skipped.
    template<typename It>
    void remove(const It first, const It last) {
        for (std::size_t left = pools.size(); left-- != 0u;) {
            pools[left].second->remove(first, last);
        }
    }

    /// Empties every pool, newest pool first.
    void clear() {
        for (std::size_t left = pools.size(); left-- != 0u;) {
            pools[left].second->clear();
        }
    }

    /// True if a listener watches a pool.
    [[nodiscard]] bool observed() const noexcept {
        for (auto &&entry : pools) {
            if (entry.second->observed()) {
                return true;
            }
        }

        return false;
    }

    /// True if a pool contains the entity.
    [[nodiscard]] bool contains(const entity_type entt) const {
        for (auto &&entry : pools) {
            if (entry.second->contains(entt)) {
                return true;
            }
        }

        return false;
    }

    /// Removes the entity from every pool that contains it and for which func(name, const pool &) returns true.
    /// Pools made meanwhile (by listeners) are not visited.
    template<typename Func>
    void erase_if(const entity_type entt, Func func) {
        // by position: listeners may create pools, at the back (not visited) or, for reactive pools, in front, which
        // moves the pools still to visit as far as the current one moved
        for (std::size_t pos{}, last = pools.size(); pos < last; ++pos) {
            if (auto *curr = pools[pos].second.get();
                curr->contains(entt) && func(pools[pos].first, std::as_const(*curr))) {
                curr->erase(entt);

                for (; pools[pos].second.get() != curr; ++pos) {
                    ++last;
                }
            }
        }
    }

    /// Removes the holes of every pool.
    void compact() {
        for (auto &&entry : pools) {
            entry.second->compact();
        }
    }

    /// Gives back the memory no pool needs.
    void shrink_to_fit() {
        for (auto &&entry : pools) {
            entry.second->shrink_to_fit();
        }
    }

    /// Bytes of the table itself: its entries and the cache of default pools (the memory report).
    [[nodiscard]] std::size_t table_bytes() const noexcept {
        return pools.capacity() * sizeof(entry_type) + by_index.capacity() * sizeof(Base *);
    }

private:
    Base &adopt(const id_type id, owner_type cpool, typename entry_type::twin_function *twin, const clone_policy policy,
                const bool reactive, Registry &owner) {
        // what can throw comes first, so that a failure leaves the pools and their index as they were
        pools.reserve(pools.size() + 1u);
        index.reserve(index.size() + 1u);
        auto &pool = *cpool;

        if (reactive) {
            // reactive pools go first, so that the walks that empty pools (from the back) reach them last: what
            // they collect while the other pools are emptied is removed too
            for (auto &&curr : index) {
                ++curr.second;
            }

            pools.emplace(pools.begin(), id, std::move(cpool), twin, policy);
        } else {
            pools.emplace_back(id, std::move(cpool), twin, policy);
        }

        index.insert(index.begin() + (lower_bound(id) - index.cbegin()),
                     index_entry{id, reactive ? 0u : pools.size() - 1u});

        pool.bind(owner);
        return pool;
    }

    container_type pools;
    index_type index;
    std::vector<Base *, typename alloc_traits::template rebind_alloc<Base *>> by_index;
};

} // namespace tessera::internal

#endif
