// Groups: owning groups keep the first size() positions of their owned pools aligned on the same entities, so
// iteration reads packed arrays side by side; non-owning groups keep their own set of the matching entities.
#ifndef TESSERA_ENTITY_GROUP_HPP
#define TESSERA_ENTITY_GROUP_HPP

#include "../config/config.hpp"
#include "../config/std_parts.hpp"
#include "../core/algorithm.hpp"
#include "../core/fwd.hpp"
#include "../core/iterator.hpp"
#include "../core/type_info.hpp"
#include "../core/type_traits.hpp"
#include "checks/iteration_log.hpp"
#include "checks/race_guard.hpp"
#include "checks/walk_witness.hpp"
#include "component.hpp"
#include "engine/block_walk.hpp"
#include "engine/get.hpp"
#include "entity.hpp"
#include "fwd.hpp"
#include "sparse_set.hpp"
#include "tables/pool_owner.hpp"
#include <array>
#if !defined(__GNUC__) && !defined(__clang__)
#    include <atomic>
#endif
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

// Group handlers: the shared state behind the groups of a registry. A handler listens to its storages and keeps
// the members of its group: at the front of the owned storages (owning groups) or in a set of its own (non-owning
// groups). The registry owns the handlers (tables/group_table.hpp); groups, below, are cheap handles on them.
namespace tessera::internal {

/// What the registry knows of a group handler: the types its group owns.
class group_descriptor {
public:
    virtual ~group_descriptor() = default;

    /// True if the group owns the pool of the given type hash.
    [[nodiscard]] virtual bool owned(const id_type hash) const noexcept = 0;

    /// Bytes the handler holds for a set of members of its own (the memory report); owning groups keep none.
    [[nodiscard]] virtual std::size_t member_set_bytes() const noexcept { return 0u; }

    /// Gives back the spare memory of the handler's own set of members; owning groups keep none.
    virtual void shrink_to_fit() {}

    /// True if the group uses the pool (owned, get or exclude), given as its sparse set base.
    [[nodiscard]] virtual bool uses(const void *pool) const noexcept = 0;
};

/// True if one of the pools, seen through its sparse set base, is `pool`.
template<typename... Pool>
[[nodiscard]] bool group_uses(const void *pool, const std::tuple<Pool *...> &pools) noexcept {
    return std::apply(
        [pool](const auto *...curr) {
            return ((static_cast<const void *>(static_cast<const typename Pool::base_type *>(curr)) == pool) || ...);
        },
        pools);
}

/// The words around the type's name in the misuse message for a type that another group already owns.
struct group_conflict_text final {
    /// Names the function.
    static constexpr std::string_view prefix = "group: ";
    /// The problem and what to do.
    static constexpr std::string_view suffix =
        " is already owned by another group (nested groups are not supported); own it in one group only and "
        "list it with get<...> in the others";
};

/// The misuse message for a type that another group already owns; it names the type.
template<typename Type>
using group_conflict_message = type_message<group_conflict_text, Type>;

/// What a group learnt in its last undisturbed each(): that every get storage held each member at the member's
/// own position in the group's lead (its set of members, or its first owned storage). The key is the revision of
/// the lead and of every get storage, then the number of members; while the key matches, the packed arrays are
/// the ones compared, and each() skips the comparison. Relaxed atomics: concurrent each() calls on one group are
/// allowed (they only read) and may record the same key at once; writers are already ordered against readers by
/// whatever lets them modify the pools.
template<std::size_t Count>
class lined_up_memo {
public:
    /// Revisions of the lead and the get storages, then the number of members.
    using key_type = std::array<std::uint64_t, Count>;

    /// An empty memo: no revision has reached the largest count.
    lined_up_memo() noexcept {
        for (auto &value : seen) {
            value = UINT64_MAX;
        }
    }

    lined_up_memo(const lined_up_memo &) = delete;
    lined_up_memo &operator=(const lined_up_memo &) = delete;

    /// True if the get storages were found lined up at exactly this key.
    [[nodiscard]] bool holds(const key_type &key) const noexcept {
        for (std::size_t pos{}; pos < Count; ++pos) {
            if (relaxed_load(seen[pos]) != key[pos]) {
                return false;
            }
        }

        return true;
    }

    /// Records that the get storages are lined up at this key.
    void remember(const key_type &key) noexcept {
        for (std::size_t pos{}; pos < Count; ++pos) {
            relaxed_store(seen[pos], key[pos]);
        }
    }

private:
    // Relaxed atomic accesses to a plain integer: the compilers' builtins (what std::atomic_ref does with them, without
    // <atomic>, a fifth of a second of every unit that includes the registry); other compilers get std::atomic_ref.
    [[nodiscard]] static std::uint64_t relaxed_load(const std::uint64_t &value) noexcept {
#if defined(__GNUC__) || defined(__clang__)
        return __atomic_load_n(&value, __ATOMIC_RELAXED);
#else
        return std::atomic_ref<const std::uint64_t>{value}.load(std::memory_order_relaxed);
#endif
    }

    static void relaxed_store(std::uint64_t &value, const std::uint64_t next) noexcept {
#if defined(__GNUC__) || defined(__clang__)
        __atomic_store_n(&value, next, __ATOMIC_RELAXED);
#else
        std::atomic_ref<std::uint64_t>{value}.store(next, std::memory_order_relaxed);
#endif
    }

    alignas(sizeof(std::uint64_t)) std::array<std::uint64_t, Count> seen;
};

/// Connects a group handler to its storages: an entity may join when it gets a get or owned type (Join) or loses
/// an exclude type (JoinOnDestroy), and leaves when it loses the former or gets the latter (Leave). Enabling counts
/// as getting, disabling as losing (docs/enable_disable.md); on_disable runs while the element is still enabled,
/// as on_destroy runs while it is still there.
template<auto Join, auto Leave, auto JoinOnDestroy, typename Handler, typename Pools, typename Filter>
void group_listen(Handler &handler, const Pools &pools, const Filter &filter) {
    std::apply(
        [&](auto *...cpool) {
            ((cpool->on_construct().template connect<Join>(handler),
              cpool->on_destroy().template connect<Leave>(handler), cpool->on_enable().template connect<Join>(handler),
              cpool->on_disable().template connect<Leave>(handler)),
             ...);
        },
        pools);
    std::apply(
        [&](auto *...cpool) {
            ((cpool->on_construct().template connect<Leave>(handler),
              cpool->on_destroy().template connect<JoinOnDestroy>(handler),
              cpool->on_enable().template connect<Leave>(handler),
              cpool->on_disable().template connect<JoinOnDestroy>(handler)),
             ...);
        },
        filter);
}

/// The shared state of a group: the storages, the listeners that track membership, and either the length of
/// the owned block (owning groups) or the set of member entities (non-owning groups). One per registry and
/// type lists; the registry keeps it alive, groups refer to it.
template<typename Owned, typename Get, typename Exclude>
class group_handler;

/// Handler of a non-owning group: it keeps the matching entities in a sparse set of its own.
template<typename... Get, typename... Exclude>
class group_handler<owned_t<>, get_t<Get...>, exclude_t<Exclude...>> final : public group_descriptor {
    static_assert(sizeof...(Get) != 0u, "group: a group needs at least one owned or get type");
    static_assert(((!std::is_const_v<Get>)&&...) && ((!std::is_const_v<Exclude>)&&...),
                  "group: handlers work on non-const storages");

public:
    /// The common base class of the storages, also the type of the set of members.
    using common_type = std::common_type_t<typename Get::base_type...>;
    /// Identifier type.
    using entity_type = typename common_type::entity_type;
    /// Unsigned integer type.
    using size_type = std::size_t;
    /// Revisions of the set and the get storages, then the number of members (see lined_up_memo).
    using key_type = typename lined_up_memo<sizeof...(Get) + 2u>::key_type;

    /// Connects to the storages and collects the entities that already match (O(n)).
    group_handler(const typename common_type::allocator_type &allocator, Get &...gpool, Exclude &...epool)
        : pools{&gpool...}, filter{&epool...}, elem{allocator} {
        group_listen<&group_handler::push_on_construct, &group_handler::remove_if, &group_handler::push_on_destroy>(
            *this, pools, filter);

        const common_type &lead = *std::get<0>(pools);

        for (size_type pos{}, last = lead.size(); pos < last; ++pos) {
            if (const auto entt = lead.data()[pos]; entt != tombstone) {
                push_on_construct(entt);
            }
        }
    }

    group_handler(const group_handler &) = delete;
    group_handler &operator=(const group_handler &) = delete;

    /// A non-owning group owns nothing.
    [[nodiscard]] bool owned([[maybe_unused]] const id_type hash) const noexcept override { return false; }

    /// True if the group uses the pool.
    [[nodiscard]] bool uses(const void *pool) const noexcept override {
        return group_uses(pool, pools) || group_uses(pool, filter);
    }

    /// The set of member entities.
    [[nodiscard]] common_type &handle() noexcept { return elem; }

    /// The state of the set and the get storages that decides whether they line up.
    [[nodiscard]] key_type lined_up_key() const noexcept {
        return std::apply(
            [this](auto *...cpool) {
                return key_type{elem.revision(), cpool->revision()..., elem.size()};
            },
            pools);
    }

    /// True if the get storages were found lined up with the set of members at this key.
    [[nodiscard]] bool known_lined_up(const key_type &key) const noexcept { return memo.holds(key); }

    /// Records that an each() that started at `key` found every block lined up, unless it changed the pools (then
    /// its verdicts mix two states).
    void found_lined_up(const key_type &key) const noexcept {
        if (lined_up_key() == key) {
            memo.remember(key);
        }
    }

    /// The storage at Index among Get..., Exclude...
    template<std::size_t Index>
    [[nodiscard]] auto *storage() const noexcept {
        if constexpr (Index < sizeof...(Get)) {
            return std::get<Index>(pools);
        } else {
            return std::get<Index - sizeof...(Get)>(filter);
        }
    }

private:
    [[nodiscard]] bool has_all(const entity_type entt) const noexcept {
        // a disabled element counts as absent
        return std::apply([entt](auto *...cpool) { return (cpool->enabled(entt) && ...); }, pools);
    }

    [[nodiscard]] size_type excluded_count(const entity_type entt) const noexcept {
        return std::apply([entt](auto *...cpool) { return (size_type{} + ... + size_type{cpool->enabled(entt)}); },
                          filter);
    }

    void push_on_construct(const entity_type entt) {
        if (!elem.contains(entt) && has_all(entt) && excluded_count(entt) == 0u) {
            elem.push(entt);
        }
    }

    // the excluded component is still there while its destroy signal runs: exactly one exclusion may remain
    void push_on_destroy(const entity_type entt) {
        if (!elem.contains(entt) && has_all(entt) && excluded_count(entt) == 1u) {
            elem.push(entt);
        }
    }

    void remove_if(const entity_type entt) { elem.remove(entt); }

public:
    /// Bytes of the set of members.
    [[nodiscard]] std::size_t member_set_bytes() const noexcept override { return set_bytes(elem); }

    /// Releases the spare memory of the set of members.
    void shrink_to_fit() override { elem.shrink_to_fit(); }

private:
    std::tuple<Get *...> pools;
    std::tuple<Exclude *...> filter;
    common_type elem;
    mutable lined_up_memo<sizeof...(Get) + 2u> memo;
};

/// Handler of an owning group: it keeps the members at positions [0, length()) of every owned storage, in the
/// same order, by exchanging elements when entities join or leave.
template<typename... Owned, typename... Get, typename... Exclude>
class group_handler<owned_t<Owned...>, get_t<Get...>, exclude_t<Exclude...>> final : public group_descriptor {
    static_assert(((Owned::storage_policy != deletion_policy::in_place) && ...),
                  "group: an owning group cannot own a storage with in-place deletion (stable pointers): its holes "
                  "would break the packed block of the group; use a non-owning group, registry.group<>(get<...>)");
    static_assert(((!std::is_const_v<Owned>)&&...) && ((!std::is_const_v<Get>)&&...) &&
                      ((!std::is_const_v<Exclude>)&&...),
                  "group: handlers work on non-const storages");

    static constexpr std::size_t owned_count = sizeof...(Owned);

public:
    /// The common base class of the storages.
    using common_type = std::common_type_t<typename Owned::base_type..., typename Get::base_type...>;
    /// Identifier type.
    using entity_type = typename common_type::entity_type;
    /// Unsigned integer type.
    using size_type = std::size_t;
    /// Revisions of the first owned storage and the get storages, then the number of members (see lined_up_memo).
    using key_type = typename lined_up_memo<sizeof...(Get) + 2u>::key_type;

    /// Connects to the storages and moves the entities that already match to the front of the owned storages
    /// (O(n) in the size of the first owned storage).
    group_handler([[maybe_unused]] const typename common_type::allocator_type &allocator, Owned &...opool,
                  Get &...gpool, Exclude &...epool)
        : pools{&opool..., &gpool...}, filter{&epool...} {
        group_listen<&group_handler::push_on_construct, &group_handler::remove_if, &group_handler::push_on_destroy>(
            *this, pools, filter);

        // ascending positions: an entity moved down to `len` was already looked at
        const common_type &lead = handle();

        for (size_type pos{}; pos < lead.size(); ++pos) {
            push_on_construct(lead.data()[pos]);
        }

        // iterations that read these storages beside another lead must not trust their positions
        // (engine/block_walk.hpp)
        mark_owned(true);
    }

    group_handler(const group_handler &) = delete;
    group_handler &operator=(const group_handler &) = delete;

    /// Gives the owned storages back to iterations that compare positions.
    ~group_handler() override { mark_owned(false); }

    /// True if the group owns the storage of the given type hash.
    [[nodiscard]] bool owned(const id_type hash) const noexcept override {
        return ((hash == type_id<typename Owned::element_type>().hash()) || ...);
    }

    /// True if the group uses the pool.
    [[nodiscard]] bool uses(const void *pool) const noexcept override {
        return group_uses(pool, pools) || group_uses(pool, filter);
    }

    /// Number of members: positions [0, length()) of every owned storage.
    [[nodiscard]] size_type length() const noexcept { return len; }

    /// The first owned storage.
    [[nodiscard]] common_type &handle() const noexcept { return *std::get<0>(pools); }

    /// The state of the first owned storage and the get storages that decides whether they line up.
    [[nodiscard]] key_type lined_up_key() const noexcept {
        return [this]<std::size_t... Index>(std::index_sequence<Index...>) {
            return key_type{handle().revision(), std::get<owned_count + Index>(pools)->revision()..., len};
        }
        (std::index_sequence_for<Get...>{});
    }

    /// True if the get storages were found lined up with the first owned storage at this key.
    [[nodiscard]] bool known_lined_up(const key_type &key) const noexcept { return memo.holds(key); }

    /// Records that an each() that started at `key` found every block lined up, unless it changed the pools (then
    /// its verdicts mix two states).
    void found_lined_up(const key_type &key) const noexcept {
        if (lined_up_key() == key) {
            memo.remember(key);
        }
    }

    /// The storage at Index among Owned..., Get..., Exclude...
    template<std::size_t Index>
    [[nodiscard]] auto *storage() const noexcept {
        if constexpr (Index < std::tuple_size_v<decltype(pools)>) {
            return std::get<Index>(pools);
        } else {
            return std::get<Index - std::tuple_size_v<decltype(pools)>>(filter);
        }
    }

    /// Sorts the block of the first owned storage with an identifier comparator, then lines the other owned
    /// storages up with it.
    template<typename Compare, typename Sort, typename... Args>
    void sort(Compare compare, Sort algo, Args &&...args) {
        common_type &lead = handle();
        lead.sort_n(len, std::move(compare), std::move(algo), std::forward<Args>(args)...);

        [ this, &lead ]<std::size_t... Index>(std::index_sequence<Index...>) {
            (([this, &lead](auto *cpool) {
                 for (size_type pos{}; pos < len; ++pos) {
                     if (const auto entt = lead.data()[pos]; cpool->data()[pos] != entt) {
                         cpool->swap_elements(cpool->data()[pos], entt);
                     }
                 }
             }(std::get<Index + 1u>(pools))),
             ...);
        }
        (std::make_index_sequence<owned_count - 1u>{});
    }

private:
    [[nodiscard]] bool in_block(const entity_type entt) const {
        const common_type &lead = handle();
        return lead.contains(entt) && (lead.index(entt) < len);
    }

    [[nodiscard]] bool has_all(const entity_type entt) const noexcept {
        // a disabled element counts as absent
        return std::apply([entt](auto *...cpool) { return (cpool->enabled(entt) && ...); }, pools);
    }

    [[nodiscard]] size_type excluded_count(const entity_type entt) const noexcept {
        return std::apply([entt](auto *...cpool) { return (size_type{} + ... + size_type{cpool->enabled(entt)}); },
                          filter);
    }

    void mark_owned(const bool value) noexcept {
        [ this, value ]<std::size_t... Index>(std::index_sequence<Index...>) {
            (sparse_access::group(*std::get<Index>(pools), value), ...);
        }
        (std::make_index_sequence<owned_count>{});
    }

    // brings the entity to position `pos` of every owned storage
    void move_to(const size_type pos, const entity_type entt) {
        [ this, pos, entt ]<std::size_t... Index>(std::index_sequence<Index...>) {
            (([pos, entt](auto *cpool) {
                 if (const auto other = cpool->data()[pos]; other != entt) {
                     cpool->swap_elements(other, entt);
                 }
             }(std::get<Index>(pools))),
             ...);
        }
        (std::make_index_sequence<owned_count>{});
    }

    void push_on_construct(const entity_type entt) {
        if (has_all(entt) && excluded_count(entt) == 0u && !(handle().index(entt) < len)) {
            move_to(len++, entt);
        }
    }

    // the excluded component is still there while its destroy signal runs: exactly one exclusion may remain
    void push_on_destroy(const entity_type entt) {
        if (has_all(entt) && excluded_count(entt) == 1u && !(handle().index(entt) < len)) {
            move_to(len++, entt);
        }
    }

    void remove_if(const entity_type entt) {
        if (in_block(entt)) {
            move_to(--len, entt);
        }
    }

    std::tuple<Owned *..., Get *...> pools;
    std::tuple<Exclude *...> filter;
    size_type len{};
    mutable lined_up_memo<sizeof...(Get) + 2u> memo;
};

} // namespace tessera::internal

namespace tessera {

namespace internal {

/// The walk of engine/block_walk.hpp over a group led by Common whose first Owned storages are owned.
template<std::size_t Owned, typename Common, typename... Storage>
using group_walk =
    block_walk<Common, (std::uint64_t{1} << Owned) - 1u, true, false, type_list<Storage...>, type_list<>>;

/// Input iterator behind a group's each(): a walk (engine/block_walk.hpp) over the group's lead, yielding (entity,
/// owned elements..., get elements...) tuples by value. Types without instances are left out.
template<typename Common, typename Owned, typename Get>
class group_each_iterator;

/// See the primary declaration.
template<typename Common, typename... Owned, typename... Get>
class group_each_iterator<Common, owned_t<Owned...>, get_t<Get...>> final {
    using entity_type = typename Common::entity_type;
    using walk_type = group_walk<sizeof...(Owned), Common, Owned..., Get...>;

    template<std::size_t... Index>
    static auto value_of(std::index_sequence<Index...>)
        -> std::tuple<entity_type, typename walk_ref<type_list_element_t<Index, type_list<Owned..., Get...>>>::type...>;

    template<std::size_t... Index>
    [[nodiscard]] TESSERA_FORCE_INLINE auto dereference(std::index_sequence<Index...>) const {
        return value_type{walk.current(), walk.template get<Index>()...};
    }

public:
    using value_type = decltype(value_of(typename walk_type::element_seq{}));
    using pointer = input_iterator_pointer<value_type>;
    using reference = value_type;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::input_iterator_tag;
    using iterator_concept = std::forward_iterator_tag;

    constexpr group_each_iterator() noexcept = default;

    /// Starts at position `from` of the lead; `known`: every block lines up.
    group_each_iterator(const Common *lead, std::tuple<Owned *...> opools, std::tuple<Get *...> gpools,
                        const std::ptrdiff_t from, const bool known)
        : walk{std::apply(
              [&](auto *...owned) {
                  return std::apply([&](auto *...other) { return walk_type{lead, owned..., other...}; }, gpools);
              },
              opools)} {
#if TESSERA_DEBUG_ITERATION
        watch.witness = std::apply(
            [lead](auto *...pool) {
                return iteration_witness<Common, sizeof...(Owned) + sizeof...(Get) + 1u>{"group::each() iterator",
                                                                                         pool..., lead};
            },
            std::tuple_cat(opools, gpools));
        watch.witness.lead_by(lead);
#endif
        watch.start(walk, from, known);
    }

    TESSERA_FORCE_INLINE group_each_iterator &operator++() {
        watch.step(walk);
        return *this;
    }

    group_each_iterator operator++(int) { return walk_post_step(*this); }

    [[nodiscard]] TESSERA_FORCE_INLINE reference operator*() const {
        return dereference(typename walk_type::element_seq{});
    }

    [[nodiscard]] pointer operator->() const { return operator*(); }

    [[nodiscard]] TESSERA_FORCE_INLINE friend bool operator==(const group_each_iterator &lhs,
                                                              const group_each_iterator &rhs) noexcept {
        return lhs.walk.position() == rhs.walk.position();
    }

private:
    walk_type walk{};
    [[no_unique_address]] walk_witness<Common, sizeof...(Owned) + sizeof...(Get) + 1u> watch{};
};

/// True if func takes what the iterable of a group yields, (entity, elements...), or only the elements.
template<typename Func, typename Iterable>
inline constexpr bool group_callable_v = false;

/// Specialization for the tuples of a group's each().
template<typename Func, typename Common, typename... Owned, typename... Get>
inline constexpr bool
    group_callable_v<Func, iterable_adaptor<group_each_iterator<Common, owned_t<Owned...>, get_t<Get...>>>> =
        []<typename Entity, typename... Elem>(std::tuple<Entity, Elem...> *) {
            return walk_callable_v<Func, Entity, Elem...>;
        }(static_cast<typename group_each_iterator<Common, owned_t<Owned...>, get_t<Get...>>::value_type *>(nullptr));

/// Calls func for every member at positions [first, last) of a group of `count` members: the walk of
/// engine/block_walk.hpp led by `lead` over `pools` (its first Owned storages are owned: they hold the members at the
/// lead's positions), with the handler's memory of lined-up blocks. `watch` sees each member after func (iteration
/// checks); the memory is updated when a walk over every member found every block lined up without changing the
/// storages (a chunk of chunk.hpp sees only part of them).
template<std::size_t Owned, typename Common, typename Handler, typename Func, typename Watch, typename... Storage>
void group_run(const Handler &handler, const Common &lead, const std::size_t first, const std::size_t last,
               const std::size_t count, const std::tuple<Storage *...> &pools, Func &func, Watch watch) {
    TESSERA_ASSERT(last <= count, "chunk::each: the group lost members since chunks() was called");
    // a full-owning group has nothing to compare
    constexpr bool compared = Owned != sizeof...(Storage);
    const auto key = compared ? handler.lined_up_key() : typename Handler::key_type{};
    const bool known = compared && handler.known_lined_up(key);
    auto walk = std::apply(
        [&lead](auto *...pool) {
            return group_walk<Owned, Common, Storage...>{&lead, pool...};
        },
        pools);

    if (walk.run(func, first, last, known, watch) && compared && !known && first == 0u && last == count) {
        handler.found_lined_up(key);
    }
}

/// The `known` of the walk behind a group's each() iterators (a group with storages to compare): the handler's
/// memory, or else one comparison of the storages over the `count` members, remembered when they line up. Unlike
/// group_run, an iterator cannot tell the handler what it found, so without this every range-for compared every
/// block (a quarter of the time of a range-for over a non-owning group of two at 16K, in calls to memcmp).
template<std::size_t Owned, typename Common, typename Handler, typename... Storage>
[[nodiscard]] bool group_lined_up(const Handler &handler, const Common &lead, const std::size_t count,
                                  const std::tuple<Storage *...> &pools) noexcept {
    const auto key = handler.lined_up_key();

    if (handler.known_lined_up(key)) {
        return true;
    }

    const auto walk = std::apply(
        [&lead](auto *...pool) {
            return group_walk<Owned, Common, Storage...>{&lead, pool...};
        },
        pools);

    if (walk.lines_up(count)) {
        handler.found_lined_up(key);
        return true;
    }

    return false;
}

} // namespace internal

/// Non-owning group: iterates its own set of the entities that have every Get and no Exclude. Cheap to copy;
/// every copy refers to the same handler in the registry.
template<typename... Get, typename... Exclude>
class basic_group<owned_t<>, get_t<Get...>, exclude_t<Exclude...>> {
    using element_list = type_list<std::remove_const_t<typename Get::element_type>...,
                                   std::remove_const_t<typename Exclude::element_type>...>;

    template<typename Type>
    static constexpr std::size_t slot_of = type_list_index_v<std::remove_const_t<Type>, element_list>;

    template<std::size_t Offset, std::size_t... Index>
    [[nodiscard]] auto pools_at(std::index_sequence<Index...>) const noexcept {
        return std::make_tuple(storage<Offset + Index>()...);
    }

public:
    /// The handler type this group refers to.
    using handler = internal::group_handler<owned_t<>, get_t<std::remove_const_t<Get>...>,
                                            exclude_t<std::remove_const_t<Exclude>...>>;
    /// The common base class of the storages.
    using common_type = typename handler::common_type;
    /// Identifier type.
    using entity_type = typename common_type::entity_type;
    /// Unsigned integer type.
    using size_type = std::size_t;
    /// Signed integer type.
    using difference_type = std::ptrdiff_t;
    /// Random-access iterator over the members.
    using iterator = typename common_type::iterator;
    /// Reverse iterator over the members.
    using reverse_iterator = typename common_type::reverse_iterator;
    /// Iterable of (entity, elements...) tuples.
    using iterable = iterable_adaptor<internal::group_each_iterator<common_type, owned_t<>, get_t<Get...>>>;

    /// Identity of the type lists (cv ignored): the key of the handler in the registry.
    [[nodiscard]] static id_type group_id() noexcept { return type_hash<handler>::value(); }

    /// An invalid group.
    basic_group() noexcept : descriptor{} {}

    /// A group on a handler.
    basic_group(handler &ref) noexcept : descriptor{&ref} {}

    /// The set of members.
    [[nodiscard]] const common_type &handle() const {
        TESSERA_ASSERT(descriptor != nullptr, "group: handle() of an invalid group");
        return descriptor->handle();
    }

    /// The storage of an element type (cv ignored), or nullptr for an invalid group.
    template<typename Type>
    [[nodiscard]] auto *storage() const noexcept {
        return storage<slot_of<Type>>();
    }

    /// The storage at Index among Get..., Exclude..., or nullptr for an invalid group.
    template<std::size_t Index>
    [[nodiscard]] auto *storage() const noexcept {
        using type = type_list_element_t<Index, type_list<Get..., Exclude...>>;
        return descriptor ? static_cast<type *>(descriptor->template storage<Index>()) : static_cast<type *>(nullptr);
    }

    /// Exact number of members.
    [[nodiscard]] size_type size() const noexcept { return descriptor ? descriptor->handle().size() : size_type{}; }

    /// Room in the set of members.
    [[nodiscard]] size_type capacity() const noexcept {
        return descriptor ? descriptor->handle().capacity() : size_type{};
    }

    /// Releases the unused memory of the set of members.
    void shrink_to_fit() {
        if (descriptor) {
            descriptor->handle().shrink_to_fit();
        }
    }

    /// True if there are no members.
    [[nodiscard]] bool empty() const noexcept { return size() == 0u; }

    /// Iterator to the first member iterated (the last position of the set).
    [[nodiscard]] iterator begin() const noexcept { return descriptor ? descriptor->handle().begin() : iterator{}; }

    /// Iterator past the last member iterated.
    [[nodiscard]] iterator end() const noexcept { return descriptor ? descriptor->handle().end() : iterator{}; }

    /// Reverse iterator (position 0 first).
    [[nodiscard]] reverse_iterator rbegin() const noexcept { return std::make_reverse_iterator(end()); }

    /// Reverse iterator past the last position.
    [[nodiscard]] reverse_iterator rend() const noexcept { return std::make_reverse_iterator(begin()); }

    /// The first member iterated, or null.
    [[nodiscard]] entity_type front() const noexcept {
        const auto first = begin();
        return first == end() ? entity_type{null} : *first;
    }

    /// The last member iterated, or null.
    [[nodiscard]] entity_type back() const noexcept {
        const auto last = rbegin();
        return last == rend() ? entity_type{null} : *last;
    }

    /// Iterator to a member, or end().
    [[nodiscard]] iterator find(const entity_type entt) const {
        return descriptor ? descriptor->handle().find(entt) : iterator{};
    }

    /// The member at `pos` in iteration order.
    [[nodiscard]] entity_type operator[](const size_type pos) const {
        TESSERA_ASSERT(pos < size(), "group: position out of range");
        return begin()[static_cast<difference_type>(pos)];
    }

    /// True for a group bound to a handler.
    [[nodiscard]] explicit operator bool() const noexcept { return descriptor != nullptr; }

    /// True if the entity is a member.
    [[nodiscard]] bool contains(const entity_type entt) const noexcept {
        return descriptor && descriptor->handle().contains(entt);
    }

    /// Elements of a member by element type: a reference for one type, a tuple for several.
    template<typename Type, typename... Other>
    [[nodiscard]] decltype(auto) get(const entity_type entt) const {
        return get<slot_of<Type>, slot_of<Other>...>(entt);
    }

    /// Elements of a member by index among Get...: a reference for one, a tuple for several, and every element
    /// (types with instances) for none.
    template<std::size_t... Index>
    [[nodiscard]] decltype(auto) get(const entity_type entt) const {
        static_assert(((Index < sizeof...(Get)) && ...), "group: get only reaches the get types");

        if constexpr (sizeof...(Index) == 0u) {
            return std::apply([entt](auto *...pool) { return internal::walk_get_all(entt, *pool...); },
                              pools_at<0u>(std::index_sequence_for<Get...>{}));
        } else if constexpr (sizeof...(Index) != 1u) {
            return internal::walk_get_all(entt, *storage<Index>()...);
        } else {
            // one type: its reference rather than a tuple of one
            return (internal::walk_get(*storage<Index>(), entt), ...);
        }
    }

    /// Calls func(entity, elements...) or func(elements...) for every member; types without instances are not
    /// passed. Removing the current entity or adding new ones from func is allowed.
    template<typename Func>
    void each(Func func) const {
        each_range(func, 0u, size());
    }

    /// The members cut into chunks of `size` positions of the set of members, a random-access range for parallel
    /// iteration. Valid while no storage of the group changes structurally. Needs <tessera/entity/chunk.hpp>.
    template<typename Range = basic_chunk_range<basic_group>>
    [[nodiscard]] auto chunks(const size_type size) const {
        static_assert(internal::defined_v<Range>, "group::chunks: #include <tessera/entity/chunk.hpp> first");
        if constexpr (internal::defined_v<Range>) {
            return Range{*this, size, this->size()};
        }
    }

private:
    template<typename>
    friend class basic_chunk;

    // each(func) over positions [first, last) of the set of members: all of them, or a chunk (chunk.hpp)
    template<typename Func>
    void each_range(Func &func, const size_type first, const size_type last) const {
        static_assert(internal::group_callable_v<Func, iterable>,
                      "group::each: the callback must take (entity, elements...) or (elements...), with elements only "
                      "for types with instances; a const storage only gives const references");

        if (descriptor) {
            const common_type &set = descriptor->handle();
            const auto pools = pools_at<0u>(std::index_sequence_for<Get...>{});
            TESSERA_RACE_ITERATE(std::tuple_cat(pools, std::make_tuple(&set)), "group each");
#if TESSERA_DEBUG_ITERATION
            // the get pools first, so that the message names a component type rather than the group's own set
            auto witness = std::apply(
                [&set](auto *...cpool) {
                    return internal::iteration_witness<common_type, sizeof...(Get) + 1u>{"group::each", cpool..., &set};
                },
                pools);
            internal::group_run<0u>(*descriptor, set, first, last, set.size(), pools, func,
                                    [&witness](const entity_type entt, std::size_t) { witness.check(entt); });
#else
            internal::group_run<0u>(*descriptor, set, first, last, set.size(), pools, func, internal::walk_no_watch{});
#endif
        }
    }

public:
    /// Iterable of (entity, elements...) tuples, for structured bindings.
    [[nodiscard]] iterable each() const noexcept {
        using it_type = typename iterable::iterator;

        if (!descriptor) {
            return {};
        }

        const auto pools = pools_at<0u>(std::index_sequence_for<Get...>{});
        const common_type &set = descriptor->handle();
        const bool known = internal::group_lined_up<0u>(*descriptor, set, set.size(), pools);
        return {it_type{&set, {}, pools, static_cast<difference_type>(set.size()) - 1, known},
                it_type{&set, {}, pools, -1, known}};
    }

    /// Sorts the members by their elements of Type, Other...: compare takes two elements for one type, two
    /// tuples of elements for several. Only the set of members is reordered.
    template<typename Type, typename... Other, typename Compare, typename Sort = std_sort, typename... Args>
    void sort(Compare compare, Sort algo = Sort{}, Args &&...args) const {
        sort<slot_of<Type>, slot_of<Other>...>(std::move(compare), std::move(algo), std::forward<Args>(args)...);
    }

    /// Sorts the members by the elements at Index...; with no index, compare takes two entities.
    template<std::size_t... Index, typename Compare, typename Sort = std_sort, typename... Args>
    void sort(Compare compare, Sort algo = Sort{}, Args &&...args) const {
        TESSERA_ASSERT(descriptor != nullptr, "group: sort of an invalid group");
        common_type &set = descriptor->handle();

        if constexpr (sizeof...(Index) == 0u) {
            set.sort(std::move(compare), std::move(algo), std::forward<Args>(args)...);
        } else {
            set.sort(entity_compare<Index...>(std::move(compare)), std::move(algo), std::forward<Args>(args)...);
        }
    }

    /// Orders the members like the range: the members found in it come first, in its order.
    template<typename It>
    void sort_as(It first, It last) const {
        TESSERA_ASSERT(descriptor != nullptr, "group: sort_as of an invalid group");
        descriptor->handle().sort_as(first, last);
    }

private:
    template<std::size_t... Index, typename Compare>
    [[nodiscard]] auto entity_compare(Compare compare) const {
        static_assert(((Index < sizeof...(Get)) && ...), "group: sort only by get types");
        static_assert((internal::walk_traits<type_list_element_t<Index, type_list<Get...>>>::instances && ...),
                      "group: cannot sort by a type without instances (an empty type); to order by entity, "
                      "call sort with no type and a comparator that takes two entities");
        return [pools = std::make_tuple(storage<Index>()...),
                compare = std::move(compare)](const entity_type lhs, const entity_type rhs) mutable {
            if constexpr (sizeof...(Index) == 1u) {
                return compare(std::as_const(std::get<0>(pools)->get(lhs)),
                               std::as_const(std::get<0>(pools)->get(rhs)));
            } else {
                return std::apply(
                    [&compare, lhs, rhs](auto *...cpool) {
                        return compare(std::forward_as_tuple(std::as_const(cpool->get(lhs))...),
                                       std::forward_as_tuple(std::as_const(cpool->get(rhs))...));
                    },
                    pools);
            }
        };
    }

    handler *descriptor{};
};

/// Owning group (full-owning without get types, partial-owning with them): positions [0, size()) of every
/// owned storage hold the members, in the same order, so owned elements are read without lookups. Cheap to
/// copy; every copy refers to the same handler in the registry.
template<typename... Owned, typename... Get, typename... Exclude>
class basic_group<owned_t<Owned...>, get_t<Get...>, exclude_t<Exclude...>> {
    static_assert(((Owned::storage_policy != deletion_policy::in_place) && ...),
                  "group: an owning group cannot own a storage with in-place deletion (stable pointers): its holes "
                  "would break the packed block of the group; use a non-owning group, registry.group<>(get<...>)");

    using element_list = type_list<std::remove_const_t<typename Owned::element_type>...,
                                   std::remove_const_t<typename Get::element_type>...,
                                   std::remove_const_t<typename Exclude::element_type>...>;

    static constexpr std::size_t owned_count = sizeof...(Owned);
    static constexpr std::size_t gettable_count = sizeof...(Owned) + sizeof...(Get);

    template<typename Type>
    static constexpr std::size_t slot_of = type_list_index_v<std::remove_const_t<Type>, element_list>;

    template<std::size_t Offset, std::size_t... Index>
    [[nodiscard]] auto pools_at(std::index_sequence<Index...>) const noexcept {
        return std::make_tuple(storage<Offset + Index>()...);
    }

    [[nodiscard]] auto owned_pools() const noexcept { return pools_at<0u>(std::make_index_sequence<owned_count>{}); }

    [[nodiscard]] auto get_pools() const noexcept { return pools_at<owned_count>(std::index_sequence_for<Get...>{}); }

public:
    /// The handler type this group refers to.
    using handler = internal::group_handler<owned_t<std::remove_const_t<Owned>...>, get_t<std::remove_const_t<Get>...>,
                                            exclude_t<std::remove_const_t<Exclude>...>>;
    /// The common base class of the storages.
    using common_type = typename handler::common_type;
    /// Identifier type.
    using entity_type = typename common_type::entity_type;
    /// Unsigned integer type.
    using size_type = std::size_t;
    /// Signed integer type.
    using difference_type = std::ptrdiff_t;
    /// Random-access iterator over the members.
    using iterator = typename common_type::iterator;
    /// Reverse iterator over the members.
    using reverse_iterator = typename common_type::reverse_iterator;
    /// Iterable of (entity, elements...) tuples.
    using iterable = iterable_adaptor<internal::group_each_iterator<common_type, owned_t<Owned...>, get_t<Get...>>>;

    /// Identity of the type lists (cv ignored): the key of the handler in the registry.
    [[nodiscard]] static id_type group_id() noexcept { return type_hash<handler>::value(); }

    /// An invalid group.
    basic_group() noexcept : descriptor{} {}

    /// A group on a handler.
    basic_group(handler &ref) noexcept : descriptor{&ref} {}

    /// The first owned storage.
    [[nodiscard]] const common_type &handle() const {
        TESSERA_ASSERT(descriptor != nullptr, "group: handle() of an invalid group");
        return descriptor->handle();
    }

    /// The storage of an element type (cv ignored), or nullptr for an invalid group.
    template<typename Type>
    [[nodiscard]] auto *storage() const noexcept {
        return storage<slot_of<Type>>();
    }

    /// The storage at Index among Owned..., Get..., Exclude..., or nullptr for an invalid group.
    template<std::size_t Index>
    [[nodiscard]] auto *storage() const noexcept {
        using type = type_list_element_t<Index, type_list<Owned..., Get..., Exclude...>>;
        return descriptor ? static_cast<type *>(descriptor->template storage<Index>()) : static_cast<type *>(nullptr);
    }

    /// Exact number of members.
    [[nodiscard]] size_type size() const noexcept { return descriptor ? descriptor->length() : size_type{}; }

    /// True if there are no members.
    [[nodiscard]] bool empty() const noexcept { return size() == 0u; }

    /// Iterator to the first member iterated (position size() - 1 of the owned storages).
    [[nodiscard]] iterator begin() const noexcept {
        return descriptor ? (descriptor->handle().end() - static_cast<difference_type>(descriptor->length()))
                          : iterator{};
    }

    /// Iterator past the last member iterated (position 0).
    [[nodiscard]] iterator end() const noexcept { return descriptor ? descriptor->handle().end() : iterator{}; }

    /// Reverse iterator (position 0 first).
    [[nodiscard]] reverse_iterator rbegin() const noexcept { return std::make_reverse_iterator(end()); }

    /// Reverse iterator past the last member.
    [[nodiscard]] reverse_iterator rend() const noexcept { return std::make_reverse_iterator(begin()); }

    /// The first member iterated, or null.
    [[nodiscard]] entity_type front() const noexcept {
        const auto first = begin();
        return first == end() ? entity_type{null} : *first;
    }

    /// The last member iterated, or null.
    [[nodiscard]] entity_type back() const noexcept {
        const auto last = rbegin();
        return last == rend() ? entity_type{null} : *last;
    }

    /// Iterator to a member, or end() (also for entities of the owned storages outside the group's block).
    [[nodiscard]] iterator find(const entity_type entt) const {
        return contains(entt) ? descriptor->handle().find(entt) : end();
    }

    /// The member at `pos` in iteration order.
    [[nodiscard]] entity_type operator[](const size_type pos) const {
        TESSERA_ASSERT(pos < size(), "group: position out of range");
        return begin()[static_cast<difference_type>(pos)];
    }

    /// True for a group bound to a handler.
    [[nodiscard]] explicit operator bool() const noexcept { return descriptor != nullptr; }

    /// True if the entity is a member.
    [[nodiscard]] bool contains(const entity_type entt) const {
        if (descriptor) {
            const common_type &lead = descriptor->handle();
            return lead.contains(entt) && (lead.index(entt) < descriptor->length());
        }

        return false;
    }

    /// Elements of a member by element type: a reference for one type, a tuple for several.
    template<typename Type, typename... Other>
    [[nodiscard]] decltype(auto) get(const entity_type entt) const {
        return get<slot_of<Type>, slot_of<Other>...>(entt);
    }

    /// Elements of a member by index among Owned..., Get...: a reference for one, a tuple for several, and
    /// every element (types with instances) for none.
    template<std::size_t... Index>
    [[nodiscard]] decltype(auto) get(const entity_type entt) const {
        static_assert(((Index < gettable_count) && ...), "group: get only reaches the owned and get types");

        if constexpr (sizeof...(Index) == 0u) {
            return elements_of(entt, std::make_index_sequence<gettable_count>{});
        } else if constexpr (sizeof...(Index) != 1u) {
            return elements_of(entt, std::index_sequence<Index...>{});
        } else {
            // one type: its reference rather than a tuple of one
            return (internal::walk_get(*storage<Index>(), entt), ...);
        }
    }

    /// Calls func(entity, elements...) or func(elements...) for every member; types without instances are not
    /// passed. Owned elements are read page by page from the packed block; get elements are looked up.
    /// Removing the current entity or adding new ones from func is allowed.
    template<typename Func>
    void each(Func func) const {
        each_range(func, 0u, size());
    }

    /// The members cut into chunks of `size` positions of the owned storages, a random-access range for parallel
    /// iteration. Valid while no storage of the group changes structurally. Needs <tessera/entity/chunk.hpp>.
    template<typename Range = basic_chunk_range<basic_group>>
    [[nodiscard]] auto chunks(const size_type size) const {
        static_assert(internal::defined_v<Range>, "group::chunks: #include <tessera/entity/chunk.hpp> first");
        if constexpr (internal::defined_v<Range>) {
            return Range{*this, size, this->size()};
        }
    }

private:
    template<typename>
    friend class basic_chunk;

    // each(func) over positions [first, last) of the owned storages: every member, or a chunk (chunk.hpp)
    template<typename Func>
    void each_range(Func &func, const size_type first, const size_type last) const {
        static_assert(internal::group_callable_v<Func, iterable>,
                      "group::each: the callback must take (entity, elements...) or (elements...), with elements only "
                      "for types with instances; a const storage only gives const references");

        if (!descriptor) {
            return;
        }

        const auto pools = std::tuple_cat(owned_pools(), get_pools());
        const common_type &lead = descriptor->handle();
        TESSERA_RACE_ITERATE(pools, "group each");
#if TESSERA_DEBUG_ITERATION
        auto witness = std::apply(
            [](auto *...cpool) {
                return internal::iteration_witness<common_type, sizeof...(Owned) + sizeof...(Get)>{"group::each",
                                                                                                   cpool...};
            },
            pools);
        witness.lead_by(&lead);
        internal::group_run<sizeof...(Owned)>(
            *descriptor, lead, first, last, descriptor->length(), pools, func,
            [&witness](const entity_type entt, const std::size_t pos) { witness.check(entt, pos); });
#else
        internal::group_run<sizeof...(Owned)>(*descriptor, lead, first, last, descriptor->length(), pools, func,
                                              internal::walk_no_watch{});
#endif
    }

public:
    /// Iterable of (entity, elements...) tuples, for structured bindings.
    [[nodiscard]] iterable each() const noexcept {
        using it_type = typename iterable::iterator;

        if (!descriptor) {
            return {};
        }

        const auto opools = owned_pools();
        const auto gpools = get_pools();
        const common_type &lead = descriptor->handle();
        constexpr bool has_gets = sizeof...(Get) != 0u;
        const bool known = !has_gets || internal::group_lined_up<sizeof...(Owned)>(
                                            *descriptor, lead, descriptor->length(), std::tuple_cat(opools, gpools));
        return {it_type{&lead, opools, gpools, static_cast<difference_type>(descriptor->length()) - 1, known},
                it_type{&lead, opools, gpools, -1, known}};
    }

    /// Sorts the members by their elements of Type, Other...: compare takes two elements for one type, two
    /// tuples of elements for several. The owned storages are rearranged, so every copy of the group sees it.
    template<typename Type, typename... Other, typename Compare, typename Sort = std_sort, typename... Args>
    void sort(Compare compare, Sort algo = Sort{}, Args &&...args) const {
        sort<slot_of<Type>, slot_of<Other>...>(std::move(compare), std::move(algo), std::forward<Args>(args)...);
    }

    /// Sorts the members by the elements at Index...; with no index, compare takes two entities.
    template<std::size_t... Index, typename Compare, typename Sort = std_sort, typename... Args>
    void sort(Compare compare, Sort algo = Sort{}, Args &&...args) const {
        TESSERA_ASSERT(descriptor != nullptr, "group: sort of an invalid group");

        if constexpr (sizeof...(Index) == 0u) {
            descriptor->sort(std::move(compare), std::move(algo), std::forward<Args>(args)...);
        } else {
            descriptor->sort(entity_compare<Index...>(std::move(compare)), std::move(algo),
                             std::forward<Args>(args)...);
        }
    }

private:
    // the elements of a member at the given indices, as one tuple: the owned storages hold it at one position, so
    // one lookup serves all of them (a range-for over the entities of a full-owning group of two with get: about
    // 30% less time at 16K than a lookup per storage)
    template<std::size_t... Index>
    [[nodiscard]] auto elements_of(const entity_type entt, std::index_sequence<Index...>) const {
        constexpr bool shared = ((Index < owned_count ? 1u : 0u) + ... + 0u) > 1u;

        if constexpr (shared) {
            std::size_t pos{};

            if constexpr (TESSERA_ASSERT_ENABLED) {
                // one read of the sparse array serves the check and the access
                TESSERA_ASSERT(descriptor != nullptr, "group::get: the group is not initialized");
                pos = internal::sparse_access::position(*storage<0u>(), entt);
                TESSERA_ASSERT(pos < descriptor->length(), "group::get: the entity is not a member of the group");
            } else {
                TESSERA_ASSERT(contains(entt), "group::get: the entity is not a member of the group");
                pos = internal::sparse_access::index(*storage<0u>(), entt);
            }

            if constexpr (((Index < owned_count &&
                            internal::walk_paged<std::remove_pointer_t<decltype(storage<Index>())>>)&&...)) {
                // the tuple of references at once, as internal::walk_get_all does
                return std::forward_as_tuple(*internal::walk_address(*storage<Index>(), pos)...);
            } else {
                return std::tuple_cat(element_at<Index>(entt, pos)...);
            }
        } else {
            return internal::walk_get_all(entt, *storage<Index>()...);
        }
    }

    template<std::size_t Index>
    [[nodiscard]] auto element_at(const entity_type entt, [[maybe_unused]] const std::size_t pos) const {
        auto *pool = storage<Index>();

        if constexpr (Index < owned_count && internal::walk_paged<std::remove_pointer_t<decltype(pool)>>) {
            return std::forward_as_tuple(*internal::walk_address(*pool, pos));
        } else {
            return internal::walk_get_tuple(*pool, entt);
        }
    }

    template<std::size_t... Index, typename Compare>
    [[nodiscard]] auto entity_compare(Compare compare) const {
        static_assert(((Index < gettable_count) && ...), "group: sort only by owned or get types");
        static_assert(
            (internal::walk_traits<type_list_element_t<Index, type_list<Owned..., Get...>>>::instances && ...),
            "group: cannot sort by a type without instances (an empty type); to order by entity, "
            "call sort with no type and a comparator that takes two entities");
        return [pools = std::make_tuple(storage<Index>()...),
                compare = std::move(compare)](const entity_type lhs, const entity_type rhs) mutable {
            if constexpr (sizeof...(Index) == 1u) {
                return compare(std::as_const(std::get<0>(pools)->get(lhs)),
                               std::as_const(std::get<0>(pools)->get(rhs)));
            } else {
                return std::apply(
                    [&compare, lhs, rhs](auto *...cpool) {
                        return compare(std::forward_as_tuple(std::as_const(cpool->get(lhs))...),
                                       std::forward_as_tuple(std::as_const(cpool->get(rhs))...));
                    },
                    pools);
            }
        };
    }

    handler *descriptor{};
};

} // namespace tessera

#endif
