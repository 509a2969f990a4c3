// The pools of a registry: where they live, how they are found (by type index on the hot path, by name
// otherwise), how a missing pool is made, and the walks that visit every pool (destroy, clear, clone, the memory
// report). The order of the pools is part of the contract: reactive pools go in front and the walks that empty
// pools go from the back, so that what a reactive pool collects while the others are emptied goes too.
#ifndef TESSERA_ENTITY_TABLES_POOL_TABLE_HPP
#define TESSERA_ENTITY_TABLES_POOL_TABLE_HPP

#include "../../config/config.hpp"
#include "../../core/fwd.hpp"
#include "../../core/type_info.hpp"
#include "../clone.hpp"
#include "../fwd.hpp"
#include "../memory_report.hpp"
#include "../pool_memory.hpp"
#include "pool_owner.hpp"
#include <algorithm>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tessera::internal {

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

/// The pools of a Registry, seen through their common base class Base, in the order the walks rely on (reactive
/// pools first, then the others as they were made), with an index by name and a cache of the default pool of
/// each type by dense type index.
template<typename Registry, typename Base, typename Allocator>
class pool_table final {
    using alloc_traits = std::allocator_traits<Allocator>;
    using owner_type = pool_owner<Base, Allocator>;
    using copier_type = element_copier<Registry>;
    using entry_type = registry_pool<Registry, owner_type>;
    using container_type = std::vector<entry_type, typename alloc_traits::template rebind_alloc<entry_type>>;
    using index_type =
        std::unordered_map<id_type, std::size_t, std::hash<id_type>, std::equal_to<>,
                           typename alloc_traits::template rebind_alloc<std::pair<const id_type, std::size_t>>>;
    using entity_type = typename Base::entity_type;

public:
    /// Iterator over the entries, as registry::storage() walks them.
    using const_iterator = typename container_type::const_iterator;

    /// Constructs an empty table with the given allocator.
    explicit pool_table(const Allocator &allocator) : pools{allocator}, index{allocator}, by_index{allocator} {}

    /// Exchanges the contents with another table, member by member (cheap: no element moves).
    void swap(pool_table &other) noexcept {
        using std::swap;
        swap(pools, other.pools);
        swap(index, other.index);
        swap(by_index, other.by_index);
    }

    /// Makes room for `count` pools.
    void reserve(const std::size_t count) { pools.reserve(count); }

    /// The first entry.
    [[nodiscard]] const_iterator begin() const noexcept { return pools.cbegin(); }

    /// Past the last entry.
    [[nodiscard]] const_iterator end() const noexcept { return pools.cend(); }

    /// The default pool cached at a type index, or nullptr. The hot path of every typed registry call: no hashing
    /// (the hash of a type declared in an unnamed namespace is computed at run time).
    [[nodiscard]] TESSERA_FORCE_INLINE Base *cached(const std::size_t idx) const noexcept {
        return (idx < by_index.size()) ? by_index[idx] : nullptr;
    }

    /// The pool named `id`, or nullptr. Misuse if the pool holds another element type than `info`.
    [[nodiscard]] Base *find(const id_type id, [[maybe_unused]] const type_info &info) const {
        if (const auto it = index.find(id); it != index.cend()) {
            TESSERA_ASSERT(pools[it->second].second->info() == info,
                           "registry: the pool name is taken by another element type");
            return pools[it->second].second.get();
        }

        return nullptr;
    }

    /// The pool named `id`, whatever its element type, or nullptr.
    [[nodiscard]] Base *find(const id_type id) const {
        const auto it = index.find(id);
        return (it == index.cend()) ? nullptr : pools[it->second].second.get();
    }

    /// The pool of type Storage for element type Type named `id`, made and bound to `owner` if there is none.
    template<typename Storage, typename Type>
    Base &assure(const id_type id, Registry &owner) {
        if (auto *const existing = find(id, type_id<Type>()); existing) {
            return *existing;
        }

        using storage_alloc = typename Storage::allocator_type;
        constexpr bool reactive = is_reactive_pool_v<Storage>;
        const copier_type *copier = nullptr;

        // reactive storages collect entities on events: a copy is collected through the events it causes
        if constexpr (!reactive) {
            copier = &element_copier_for<Registry, Type>::table;
        }

        const auto allocator = owner.get_allocator();
        return adopt(id, owner_type::template make<Storage>(allocator, storage_alloc{allocator}), copier, reactive,
                     owner);
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
        const auto found = index.find(id);

        if (found == index.end()) {
            return false;
        }

        const auto pos = found->second;
        std::replace(by_index.begin(), by_index.end(), pools[pos].second.get(), static_cast<Base *>(nullptr));
        index.erase(found);

        for (auto &&entry : index) {
            entry.second -= static_cast<std::size_t>(entry.second > pos);
        }

        pools.erase(pools.begin() + static_cast<typename container_type::difference_type>(pos));
        return true;
    }

    /// Points every pool to `owner` (after the registry moved).
    void bind(Registry &owner) {
        std::for_each(pools.begin(), pools.end(), [&owner](auto &entry) { entry.second->bind(owner); });
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
        return std::any_of(pools.cbegin(), pools.cend(), [](const auto &entry) { return entry.second->observed(); });
    }

    /// True if a pool contains the entity.
    [[nodiscard]] bool contains(const entity_type entt) const {
        return std::any_of(pools.cbegin(), pools.cend(),
                           [entt](const auto &entry) { return entry.second->contains(entt); });
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
        std::for_each(pools.begin(), pools.end(), [](auto &entry) { entry.second->compact(); });
    }

    /// Gives back the memory no pool needs.
    void shrink_to_fit() {
        std::for_each(pools.begin(), pools.end(), [](auto &entry) { entry.second->shrink_to_fit(); });
    }

    /// Calls func(name, pool, copier) for every pool that contains entt and can be copied, last pool first as
    /// remove does: a reactive pool made meanwhile by a listener (reactive pools go in front) then makes the walk
    /// skip a pool rather than visit one twice.
    template<typename Func>
    void each_copier(const entity_type entt, Func func) const {
        for (std::size_t pos = pools.size(); pos; --pos) {
            const auto &curr = pools[pos - 1u];

            if (curr.copier != nullptr && curr.second->contains(entt)) {
                func(curr.first, std::as_const(*curr.second), *curr.copier);
            }
        }
    }

    /// Adds a row per pool to the report, and the bytes of the table and of the pool objects to its registry
    /// bytes. Allocates only the rows.
    void measure(tessera::memory_report &report) const {
        report.pools.reserve(pools.size());
        report.registry_bytes += pools.capacity() * sizeof(entry_type) + by_index.capacity() * sizeof(Base *);

        for (const auto &entry : pools) {
            pool_memory row = entry.second.measure();
            // measuring gives the type's hash, which is also the name of the type's default pool
            row.named = (entry.first != row.id);
            row.id = entry.first;
            report.pools.push_back(row);
            report.registry_bytes += entry.second.object_size();
        }
    }

    /// Appends to `out` the names of the pools that contain the entity, separated by commas.
    void append_names(std::string &out, const entity_type entt) const {
        for (const auto &entry : pools) {
            if (entry.second->contains(entt)) {
                const auto &info = entry.second->info();
                out.append(out.empty() ? "" : ", ");
                append_pool_name(out, info.name(), entry.first, entry.first != info.hash());
            }
        }
    }

private:
    Base &adopt(const id_type id, owner_type cpool, const copier_type *copier, const bool reactive, Registry &owner) {
        // what can throw comes first, so that a failure leaves the pools and their index as they were
        pools.reserve(pools.size() + 1u);
        index.emplace(id, reactive ? 0u : pools.size());
        auto &pool = *cpool;

        if (reactive) {
            // reactive pools go first, so that the walks that empty pools (from the back) reach them last: what
            // they collect while the other pools are emptied is removed too
            for (auto &&curr : index) {
                if (curr.first != id) {
                    ++curr.second;
                }
            }

            pools.emplace(pools.begin(), id, std::move(cpool), copier);
        } else {
            pools.emplace_back(id, std::move(cpool), copier);
        }

        pool.bind(owner);
        return pool;
    }

    container_type pools;
    index_type index;
    std::vector<Base *, typename alloc_traits::template rebind_alloc<Base *>> by_index;
};

} // namespace tessera::internal

#endif
