// Group handlers: the shared state behind the groups of a registry. A handler listens to its storages and keeps
// the members of its group: at the front of the owned storages (owning groups) or in a set of its own (non-owning
// groups). The registry owns the handlers; groups (group.hpp) are cheap handles on them.
#ifndef TESSERA_ENTITY_GROUP_HANDLER_HPP
#define TESSERA_ENTITY_GROUP_HANDLER_HPP

#include "../config/config.hpp"
#include "../core/fwd.hpp"
#include "../core/type_info.hpp"
#include "entity.hpp"
#include "fwd.hpp"
#include "pool_memory.hpp"
#include "sparse_set.hpp"
#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

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
            value.store(UINT64_MAX, std::memory_order_relaxed);
        }
    }

    lined_up_memo(const lined_up_memo &) = delete;
    lined_up_memo &operator=(const lined_up_memo &) = delete;

    /// True if the get storages were found lined up at exactly this key.
    [[nodiscard]] bool holds(const key_type &key) const noexcept {
        for (std::size_t pos{}; pos < Count; ++pos) {
            if (seen[pos].load(std::memory_order_relaxed) != key[pos]) {
                return false;
            }
        }

        return true;
    }

    /// Records that the get storages are lined up at this key.
    void remember(const key_type &key) noexcept {
        for (std::size_t pos{}; pos < Count; ++pos) {
            seen[pos].store(key[pos], std::memory_order_relaxed);
        }
    }

private:
    std::array<std::atomic<std::uint64_t>, Count> seen;
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
    [[nodiscard]] std::size_t member_set_bytes() const noexcept override { return tessera::memory_of(elem).bytes; }

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

#endif
