// Groups: owning groups keep the first size() positions of their owned pools aligned on the same entities, so
// iteration reads packed arrays side by side; non-owning groups keep their own set of the matching entities.
#ifndef TESSERA_ENTITY_GROUP_HPP
#define TESSERA_ENTITY_GROUP_HPP

#include "../config/config.hpp"
#include "../core/algorithm.hpp"
#include "../core/fwd.hpp"
#include "../core/iterator.hpp"
#include "../core/type_info.hpp"
#include "../core/type_traits.hpp"
#include "component.hpp"
#include "entity.hpp"
#include "fwd.hpp"
#include "iteration_log.hpp"
#include "sparse_set.hpp"
#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tessera {

namespace internal {

/// What the registry knows of a group handler: the types its group owns.
class group_descriptor {
public:
    virtual ~group_descriptor() = default;

    /// True if the group owns the pool of the given type hash.
    [[nodiscard]] virtual bool owned(const id_type hash) const noexcept = 0;
};

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

/// Elements per page of a storage's packed elements (0 for storages without instances).
template<typename Storage>
inline constexpr std::size_t group_page_size_v =
    component_traits<std::remove_const_t<typename Storage::element_type>, typename Storage::entity_type>::page_size;

/// True if a storage keeps instances, that is, if groups pass its elements around.
template<typename Storage>
inline constexpr bool group_has_instances_v = !std::is_void_v<typename Storage::value_type>;

/// The element of an owned storage at a packed position, as a one-element tuple (empty without instances).
template<typename Storage>
[[nodiscard]] TESSERA_FORCE_INLINE constexpr auto group_element_at(Storage &pool, const std::size_t pos) noexcept {
    if constexpr (group_has_instances_v<Storage>) {
        constexpr auto page = group_page_size_v<Storage>;
        return std::forward_as_tuple(pool.raw()[pos / page][fast_mod(pos, page)]);
    } else {
        return std::tuple<>{};
    }
}

/// The element of a get storage for a member as a one-element tuple (empty without instances). Storages filled
/// together keep an entity at the same position as the group does, so `hint` is tried before the sparse array.
template<typename Storage>
[[nodiscard]] TESSERA_FORCE_INLINE constexpr auto group_get_at(Storage &pool, const typename Storage::entity_type entt,
                                                               [[maybe_unused]] const std::size_t hint) {
    if constexpr (group_has_instances_v<Storage> && requires { pool.raw(); }) {
        return group_element_at(pool, index_from_hint(pool, entt, hint));
    } else {
        return pool.get_as_tuple(entt);
    }
}

/// The elements of a member in every get storage of the tuple, found as group_get_at does.
template<typename Entity, typename... Get>
[[nodiscard]] TESSERA_FORCE_INLINE constexpr auto group_get_all(const std::tuple<Get *...> &pools, const Entity entt,
                                                                const std::size_t hint) {
    return std::apply([entt, hint](auto *...cpool) { return std::tuple_cat(group_get_at(*cpool, entt, hint)...); },
                      pools);
}

/// Calls func with (entity, elements...) when it accepts that, otherwise with (elements...).
template<bool WithEntity, typename Func, typename Entity, typename Elems>
constexpr void group_invoke(Func &func, const Entity entt, Elems &&elems) {
    if constexpr (WithEntity) {
        std::apply([&func, entt](auto &&...elem) { func(entt, std::forward<decltype(elem)>(elem)...); },
                   std::forward<Elems>(elems));
    } else {
        std::apply(func, std::forward<Elems>(elems));
    }
}

/// Placeholder for a storage without instances in the per-block cursors of an owning group's each().
struct group_no_element {};

/// Pointer to the element at packed position `first`; elements up to the end of its page follow it.
template<typename Storage>
[[nodiscard]] constexpr auto group_block_at(Storage &pool, const std::size_t first) noexcept {
    if constexpr (group_has_instances_v<Storage>) {
        constexpr auto page = group_page_size_v<Storage>;
        return pool.raw()[first / page] + fast_mod(first, page);
    } else {
        return group_no_element{};
    }
}

/// The element `offset` places after a block cursor, as a one-element tuple (empty for the placeholder).
template<typename Cursor>
[[nodiscard]] constexpr auto group_block_element(const Cursor cursor, const std::size_t offset) noexcept {
    if constexpr (std::is_same_v<Cursor, group_no_element>) {
        return std::tuple<>{};
    } else {
        return std::forward_as_tuple(cursor[offset]);
    }
}

/// The block cursors at packed position `first` of every storage of the tuple.
template<typename... Storage>
[[nodiscard]] constexpr auto group_block_cursors(const std::tuple<Storage *...> &pools,
                                                 const std::size_t first) noexcept {
    return std::apply([first](auto *...cpool) { return std::make_tuple(group_block_at(*cpool, first)...); }, pools);
}

/// The elements `offset` places after every cursor of the tuple.
template<typename Cursors>
[[nodiscard]] constexpr auto group_block_elements(const Cursors &cursors, const std::size_t offset) noexcept {
    return std::apply([offset](auto... cursor) { return std::tuple_cat(group_block_element(cursor, offset)...); },
                      cursors);
}

/// True if the elements of every listed storage can be reached page by page (raw()); false for a custom storage
/// with instances but without pages, whose elements only come through get().
template<typename... Storage>
[[nodiscard]] consteval bool group_pages_reachable() noexcept {
    return ((!group_has_instances_v<Storage> || requires(Storage & pool) { pool.raw(); }) && ...);
}

/// True if every get storage holds at positions [first, last) the identifiers `lead` holds there, so that their
/// elements are offsets from block cursors. Members are in every get storage, so equal identifiers suffice.
template<typename Lead, typename... Get>
[[nodiscard]] bool group_gets_line_up(const Lead &lead, const std::tuple<Get *...> &pools, const std::size_t first,
                                      const std::size_t last) noexcept {
    if constexpr (!group_pages_reachable<Get...>()) {
        return false;
    } else {
        return std::apply([&](auto *...cpool) { return (lines_up(*cpool, lead, first, last) && ...); }, pools);
    }
}

/// Largest number of consecutive positions that sit in one page of every listed storage (pages are powers of
/// two, so the smallest page size divides the others).
template<typename... Storage>
[[nodiscard]] consteval std::size_t group_block_size() noexcept {
    std::size_t block = TESSERA_PACKED_PAGE;
    ((block =
          (group_has_instances_v<Storage> && group_page_size_v<Storage> < block) ? group_page_size_v<Storage> : block),
     ...);
    return block;
}

/// True if func can be called with the elements of the tuple type as arguments.
template<typename Func, typename Tuple>
[[nodiscard]] consteval bool group_applicable() noexcept {
    return []<std::size_t... Index>(std::index_sequence<Index...>) {
        return std::is_invocable_v<Func &, std::tuple_element_t<Index, Tuple>...>;
    }
    (std::make_index_sequence<std::tuple_size_v<Tuple>>{});
}

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

/// Input iterator behind a group's each(): walks the group's entities (a sparse set iterator) and yields
/// (entity, owned elements..., get elements...) tuples by value. Owned elements are read at the iterator's
/// position, get elements are looked up. Types without instances are left out.
template<typename It, typename Owned, typename Get>
class group_each_iterator;

/// See the primary declaration.
template<typename It, typename... Owned, typename... Get>
class group_each_iterator<It, owned_t<Owned...>, get_t<Get...>> final {
public:
    using iterator_type = It;
    using value_type = decltype(std::tuple_cat(std::make_tuple(*std::declval<It>()),
                                               group_element_at(std::declval<Owned &>(), std::size_t{})...,
                                               std::declval<Get &>().get_as_tuple(*std::declval<It>())...));
    using pointer = input_iterator_pointer<value_type>;
    using reference = value_type;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::input_iterator_tag;
    using iterator_concept = std::forward_iterator_tag;

    constexpr group_each_iterator() noexcept = default;

    constexpr group_each_iterator(It from, std::tuple<Owned *...> opools, std::tuple<Get *...> gpools) noexcept
        : it{from}, owned{opools}, pools{gpools} {}

    constexpr group_each_iterator &operator++() { return ++it, *this; }

    constexpr group_each_iterator operator++(int) {
        group_each_iterator before = *this;
        ++*this;
        return before;
    }

    [[nodiscard]] constexpr reference operator*() const {
        const auto entt = *it;
        const auto pos = static_cast<std::size_t>(it.index());
        return std::tuple_cat(
            std::make_tuple(entt),
            std::apply([pos](auto *...cpool) { return std::tuple_cat(group_element_at(*cpool, pos)...); }, owned),
            group_get_all(pools, entt, pos));
    }

    [[nodiscard]] constexpr pointer operator->() const { return operator*(); }

    /// The entity iterator.
    [[nodiscard]] constexpr iterator_type base() const noexcept { return it; }

    [[nodiscard]] friend constexpr bool operator==(const group_each_iterator &lhs,
                                                   const group_each_iterator &rhs) noexcept {
        return lhs.it == rhs.it;
    }

private:
    It it{};
    std::tuple<Owned *...> owned{};
    std::tuple<Get *...> pools{};
};

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
        std::apply(
            [this](auto *...cpool) {
                ((cpool->on_construct().template connect<&group_handler::push_on_construct>(*this),
                  cpool->on_destroy().template connect<&group_handler::remove_if>(*this)),
                 ...);
            },
            pools);
        std::apply(
            [this](auto *...cpool) {
                ((cpool->on_construct().template connect<&group_handler::remove_if>(*this),
                  cpool->on_destroy().template connect<&group_handler::push_on_destroy>(*this)),
                 ...);
            },
            filter);

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
        return std::apply([entt](auto *...cpool) { return (cpool->contains(entt) && ...); }, pools);
    }

    [[nodiscard]] size_type excluded_count(const entity_type entt) const noexcept {
        return std::apply([entt](auto *...cpool) { return (size_type{} + ... + size_type{cpool->contains(entt)}); },
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
        std::apply(
            [this](auto *...cpool) {
                ((cpool->on_construct().template connect<&group_handler::push_on_construct>(*this),
                  cpool->on_destroy().template connect<&group_handler::remove_if>(*this)),
                 ...);
            },
            pools);
        std::apply(
            [this](auto *...cpool) {
                ((cpool->on_construct().template connect<&group_handler::remove_if>(*this),
                  cpool->on_destroy().template connect<&group_handler::push_on_destroy>(*this)),
                 ...);
            },
            filter);

        // ascending positions: an entity moved down to `len` was already looked at
        const common_type &lead = handle();

        for (size_type pos{}; pos < lead.size(); ++pos) {
            push_on_construct(lead.data()[pos]);
        }
    }

    group_handler(const group_handler &) = delete;
    group_handler &operator=(const group_handler &) = delete;

    /// True if the group owns the storage of the given type hash.
    [[nodiscard]] bool owned(const id_type hash) const noexcept override {
        return ((hash == type_id<typename Owned::element_type>().hash()) || ...);
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
        return std::apply([entt](auto *...cpool) { return (cpool->contains(entt) && ...); }, pools);
    }

    [[nodiscard]] size_type excluded_count(const entity_type entt) const noexcept {
        return std::apply([entt](auto *...cpool) { return (size_type{} + ... + size_type{cpool->contains(entt)}); },
                          filter);
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
    using iterable = iterable_adaptor<internal::group_each_iterator<iterator, owned_t<>, get_t<Get...>>>;

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
            return std::apply([entt](auto *...pool) { return std::tuple_cat(pool->get_as_tuple(entt)...); },
                              pools_at<0u>(std::index_sequence_for<Get...>{}));
        } else if constexpr (sizeof...(Index) != 1u) {
            return std::tuple_cat(storage<Index>()->get_as_tuple(entt)...);
        } else {
            // one type: its reference rather than a tuple of one
            return (storage<Index>()->get(entt), ...);
        }
    }

    /// Calls func(entity, elements...) or func(elements...) for every member; types without instances are not
    /// passed. Removing the current entity or adding new ones from func is allowed.
    template<typename Func>
    void each(Func func) const {
        if (descriptor) {
            const common_type &set = descriptor->handle();
            const auto pools = pools_at<0u>(std::index_sequence_for<Get...>{});
            using elements_type =
                typename internal::group_each_iterator<iterator, owned_t<>, get_t<Get...>>::value_type;
            constexpr bool with_entity = internal::group_applicable<Func, elements_type>();
#if TESSERA_DEBUG_ITERATION
            // the get pools first, so that the message names a component type rather than the group's own set
            auto witness = std::apply(
                [&set](auto *...cpool) {
                    return internal::iteration_witness<common_type, sizeof...(Get) + 1u>{"group::each", cpool..., &set};
                },
                pools);
#endif

            // blocks of positions within one page of every get storage: where the storages line up with the
            // group's set, the elements are offsets from per-block cursors; elsewhere the position of the set is
            // tried first, then the sparse arrays. Whether they line up is remembered from the last each() that
            // found them so, until one of the packed arrays changes.
            constexpr auto block = internal::group_block_size<Get...>();
            const auto key = descriptor->lined_up_key();
            const bool known = internal::group_pages_reachable<Get...>() && descriptor->known_lined_up(key);
            bool all_lined_up = true;

            for (auto last = set.size(); last != 0u;) {
                const auto first = (last - 1u) & ~(block - 1u);
                const bool lined_up = known || internal::group_gets_line_up(set, pools, first, last);
                all_lined_up = all_lined_up && lined_up;

                if (lined_up) {
                    const auto cursors = internal::group_block_cursors(pools, first);

                    TESSERA_UNROLL_LOOP
                    for (auto pos = last; pos != first;) {
                        --pos;
                        const auto entt = set.data()[pos];
                        internal::group_invoke<with_entity>(func, entt,
                                                            internal::group_block_elements(cursors, pos - first));
#if TESSERA_DEBUG_ITERATION
                        witness.check(entt);
#endif
                    }
                } else {
                    for (auto pos = last; pos != first;) {
                        --pos;
                        const auto entt = set.data()[pos];
                        internal::group_invoke<with_entity>(func, entt, internal::group_get_all(pools, entt, pos));
#if TESSERA_DEBUG_ITERATION
                        witness.check(entt);
#endif
                    }
                }

                last = first;
            }

            if (!known && all_lined_up) {
                descriptor->found_lined_up(key);
            }
        }
    }

    /// Iterable of (entity, elements...) tuples, for structured bindings.
    [[nodiscard]] iterable each() const noexcept {
        const auto pools = pools_at<0u>(std::index_sequence_for<Get...>{});
        return {internal::group_each_iterator<iterator, owned_t<>, get_t<Get...>>{begin(), {}, pools},
                internal::group_each_iterator<iterator, owned_t<>, get_t<Get...>>{end(), {}, pools}};
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
        static_assert((internal::group_has_instances_v<type_list_element_t<Index, type_list<Get...>>> && ...),
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
    using iterable = iterable_adaptor<internal::group_each_iterator<iterator, owned_t<Owned...>, get_t<Get...>>>;

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
            return std::apply([entt](auto *...pool) { return std::tuple_cat(pool->get_as_tuple(entt)...); },
                              pools_at<0u>(std::make_index_sequence<gettable_count>{}));
        } else if constexpr (sizeof...(Index) != 1u) {
            return std::tuple_cat(storage<Index>()->get_as_tuple(entt)...);
        } else {
            // one type: its reference rather than a tuple of one
            return (storage<Index>()->get(entt), ...);
        }
    }

    /// Calls func(entity, elements...) or func(elements...) for every member; types without instances are not
    /// passed. Owned elements are read page by page from the packed block; get elements are looked up.
    /// Removing the current entity or adding new ones from func is allowed.
    template<typename Func>
    void each(Func func) const {
        if (!descriptor) {
            return;
        }

        const auto opools = owned_pools();
        const auto gpools = get_pools();
        using elements_type =
            typename internal::group_each_iterator<iterator, owned_t<Owned...>, get_t<Get...>>::value_type;
        constexpr bool with_entity = internal::group_applicable<Func, elements_type>();
        // pages never move, so pointers into them stay valid even if func makes a storage grow
        constexpr auto block = internal::group_block_size<Owned..., Get...>();
        const common_type &lead = descriptor->handle();
#if TESSERA_DEBUG_ITERATION
        auto witness = std::apply(
            [](auto *...cpool) {
                return internal::iteration_witness<common_type, sizeof...(Owned) + sizeof...(Get)>{"group::each",
                                                                                                   cpool...};
            },
            std::tuple_cat(opools, gpools));
        witness.lead_by(&lead);
#endif
        // whether the get storages line up is remembered from the last each() that found them so, until one of
        // the packed arrays or the number of members changes; a full-owning group has nothing to compare
        constexpr bool has_gets = sizeof...(Get) != 0u;
        const auto key = has_gets ? descriptor->lined_up_key() : typename handler::key_type{};
        const bool known = has_gets && internal::group_pages_reachable<Get...>() && descriptor->known_lined_up(key);
        bool all_lined_up = true;

        for (auto last = descriptor->length(); last != 0u;) {
            const auto first = (last - 1u) & ~(block - 1u);
            const auto cursors = internal::group_block_cursors(opools, first);
            const bool lined_up = known || internal::group_gets_line_up(lead, gpools, first, last);
            all_lined_up = all_lined_up && lined_up;

            if (lined_up) {
                // the get storages hold the members at the same positions as the owned ones (always true for a
                // full-owning group): every element is an offset from a cursor
                const auto get_cursors = internal::group_block_cursors(gpools, first);

                TESSERA_UNROLL_LOOP
                for (auto pos = last; pos != first;) {
                    --pos;
#if TESSERA_DEBUG_ITERATION
                    const auto current = lead.data()[pos];
#endif
                    auto elems = std::tuple_cat(internal::group_block_elements(cursors, pos - first),
                                                internal::group_block_elements(get_cursors, pos - first));

                    if constexpr (with_entity) {
                        internal::group_invoke<true>(func, lead.data()[pos], std::move(elems));
                    } else {
                        std::apply(func, std::move(elems));
                    }
#if TESSERA_DEBUG_ITERATION
                    witness.check(current, pos);
#endif
                }
            } else {
                for (auto pos = last; pos != first;) {
                    --pos;
                    const auto entt = lead.data()[pos];
                    internal::group_invoke<with_entity>(
                        func, entt,
                        std::tuple_cat(internal::group_block_elements(cursors, pos - first),
                                       internal::group_get_all(gpools, entt, pos)));
#if TESSERA_DEBUG_ITERATION
                    witness.check(entt, pos);
#endif
                }
            }

            last = first;
        }

        if (has_gets && !known && all_lined_up) {
            descriptor->found_lined_up(key);
        }
    }

    /// Iterable of (entity, elements...) tuples, for structured bindings.
    [[nodiscard]] iterable each() const noexcept {
        const auto opools = owned_pools();
        const auto gpools = get_pools();
        return {internal::group_each_iterator<iterator, owned_t<Owned...>, get_t<Get...>>{begin(), opools, gpools},
                internal::group_each_iterator<iterator, owned_t<Owned...>, get_t<Get...>>{end(), opools, gpools}};
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
    template<std::size_t... Index, typename Compare>
    [[nodiscard]] auto entity_compare(Compare compare) const {
        static_assert(((Index < gettable_count) && ...), "group: sort only by owned or get types");
        static_assert((internal::group_has_instances_v<type_list_element_t<Index, type_list<Owned..., Get...>>> && ...),
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
