// The iteration engine: how views, groups and runtime views walk their storages. Every each(func), every each()
// iterator and every entity iterator of a view or a group is a block_walk (below); runtime views, whose storages
// are known only at run time, use its pieces.
//
// A walk follows one sparse set, the lead, from its last position in use down to position 0 (a chunk of chunk.hpp
// walks its own run of positions, for parallel iteration): identifiers added meanwhile go behind the walk, and the
// current one may leave without disturbing the positions still to come. For each position it produces the entity
// and, in every other storage it reads (its slots), the element of that entity. Three facts make it fast; each is
// explained once, where it lives in this file:
//
// 1. Blocks (walk_block_size, walk_base). Positions are walked in aligned blocks no longer than the smallest page
//    of the paged storages, so inside a block every storage's elements are one contiguous run: the walk takes one
//    pointer per storage at the start of the block (pages never move, even when the storages grow) and reaches the
//    element of the entity at lead position p as base + (p - first), with no page arithmetic. An iterator stepping
//    inside a block only decrements those pointers (each() range-for over two types: 0.54 ns per entity at 16K,
//    against 0.48 for a hand-written loop over the same pages and 0.25 for a vectorized loop over plain arrays).
// 2. Lined-up blocks (walk_lines_up). Storages filled together hold the same entities at the same positions (the
//    components an entity gets when it spawns, an owning group's pools). A block where every slot holds the lead's
//    identifiers at the lead's positions needs no lookup at all: comparing two runs of identifiers costs less than
//    a lookup per entity (a two-type view at 16K: each(func) 0.33 ns per entity lined up, 1.22 with one pool in
//    reverse order; each() 0.54 and 1.90). Groups remember that every block lined up (group_handler.hpp) and skip
//    the comparison. The verdict must hold until the walk leaves the block, and the rules of
//    docs/thread_safety.md allow one thing that breaks it: an owning group taking in the current entity swaps it
//    into a position, still to come, of a storage it owns. So a storage that an owning group owns is never
//    compared when its elements are read at the lead's position (its handler marks it,
//    internal::sparse_access::grouped): such walks look every entity up, the guess below finding lined-up entities
//    at once. Walks that only test membership (runtime views, the entity iterator of views) compare it anyway:
//    a swap changes positions, not who is in a storage.
// 3. Guessed positions (walk_guess, walk_locate). Elsewhere a slot finds the entity through its sparse array: a
//    read at the entity's index, which nothing else touches when the lead's entities are in no particular order.
//    First the walk tries the position one step from where it found the previous entity in that slot: storages
//    that received the same entities in the same order, shifted, answer there (the projectiles of
//    examples/battle_world.hpp, created after the units: callgrind counts 14% fewer first-level cache misses in that
//    system with the guess, 5.5 against 6.4 million over 100K units and 60 frames). Groups skip the guess: their
//    members are in every slot, so the sparse array is read without a check, which costs about what the guess
//    does (a non-owning group of three over a mixed population: 0.67 million instructions without, 1.74 with).
//
// Users: view.hpp (each(func) and chunks, compiled once per storage that may lead, the lead fixed), view.hpp
// (the entity and each() iterators of views, the lead chosen at run time), group.hpp (owning and non-owning groups:
// owned storages fixed on the lead, no membership to test) and runtime_view.hpp (walk_member, walk_lines_up).
#ifndef TESSERA_ENTITY_ENGINE_BLOCK_WALK_HPP
#define TESSERA_ENTITY_ENGINE_BLOCK_WALK_HPP

#include "../../config/config.hpp"
#include "../../core/type_traits.hpp"
#include "../checks/iteration_log.hpp"
#include "../component.hpp"
#include "../entity.hpp"
#include "../fwd.hpp"
#include "../sparse_set.hpp"
#include "membership.hpp"
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

// How walks call the user's function: which storages hand out elements, whether the function takes the entity first,
// and the reference it gets for an element.
namespace tessera::internal {

/// The indices, among Keep..., of the true ones, as an index sequence.
template<bool... Keep>
struct walk_kept {
    static constexpr auto count = (std::size_t{} + ... + std::size_t{Keep});

    static constexpr auto indices = [] {
        std::array<std::size_t, count> out{};
        std::size_t next{};
        std::size_t pos{};
        ((Keep ? void(out[next++] = pos++) : void(pos++)), ...);
        return out;
    }();

    template<std::size_t... Index>
    static auto make(std::index_sequence<Index...>) -> std::index_sequence<indices[Index]...>;

    /// The index sequence.
    using type = decltype(make(std::make_index_sequence<count>{}));
};

/// True if func takes the entity first: (entity, elements...). Checked before the other form, so that a generic
/// callback is never instantiated with arguments it does not expect.
template<typename Func, typename Entity, typename... Elem>
inline constexpr bool walk_with_entity_v = std::is_invocable_v<Func &, Entity, Elem...>;

/// True if func takes (entity, elements...) or (elements...).
template<typename Func, typename Entity, typename... Elem>
inline constexpr bool walk_callable_v =
    std::disjunction_v<std::is_invocable<Func &, Entity, Elem...>, std::is_invocable<Func &, Elem...>>;

} // namespace tessera::internal

namespace tessera::internal {

// ---------------------------------------------------------------------------------------------------------------
// 3. Guessed positions.

/// Where a slot found the previous entity: its position in the slot minus its position in the lead (wrapping below
/// zero). A fresh walk guesses the lead's own position.
struct walk_guess {
    /// Slot position minus lead position.
    std::size_t shift{};
};

/// The position of `entt` (at position `lead_pos` of the lead) in `pool`, or walk_npos if the storage does not
/// count it as present under `mode`. With Known, the storage holds the entity (groups) and its sparse array is read
/// without a check. Otherwise the guess of walk_guess comes first, then the sparse array, and a miss learns the new
/// distance.
template<bool Known, typename Type, typename Entity>
[[nodiscard]] TESSERA_FORCE_INLINE std::size_t walk_locate(const Type &pool, const Entity entt,
                                                           const std::size_t lead_pos, walk_guess &guess,
                                                           const disabled_mode mode) {
    if constexpr (Known) {
        // group members: the sparse array is read anyway when the guess misses, and with a check that cannot fail
        // it costs about as much as the guess (a non-owning group of three on a mixed population: 0.67 million
        // instructions without guess, 1.74 with one, EnTT 0.93)
        static_cast<void>(lead_pos);
        static_cast<void>(guess);
        static_cast<void>(mode);
        return sparse_access::index(pool, entt);
    } else {
        // a guess below zero wraps to a huge position and fails the range test
        auto pos = lead_pos + guess.shift;

        if (!(pos < pool.size() && pool.data()[pos] == entt)) {
            if (pos = walk_lookup(pool, entt); pos == walk_npos) {
                return walk_npos;
            }

            guess.shift = pos - lead_pos;
        }

        return walk_in_use(pool, pos, mode);
    }
}

// ---------------------------------------------------------------------------------------------------------------
// 1. and 2. Blocks and lined-up blocks.

/// Length of the blocks of a walk over these storage types: the smallest page size among the paged ones. Page sizes
/// are powers of two, so an aligned block of this length lies within one page of every paged storage.
template<typename... Type>
[[nodiscard]] consteval std::size_t walk_block_size() noexcept {
    std::size_t block = TESSERA_PACKED_PAGE;
    ((block = (walk_traits<Type>::page != 0u && walk_traits<Type>::page < block) ? walk_traits<Type>::page : block),
     ...);
    return block;
}

/// Pointer to the element at position `first` of a paged storage, or null if the storage does not reach it (or
/// has no pages). Elements up to the end of the block follow it.
template<typename Type>
[[nodiscard]] TESSERA_FORCE_INLINE auto walk_base(Type &pool, const std::size_t first) noexcept {
    using pointer = typename walk_pointer<Type>::type;

    if constexpr (walk_paged<Type>) {
        constexpr auto page = walk_traits<Type>::page;
        return (first < pool.size()) ? pointer{pool.raw()[first / page] + fast_mod(first, page)} : pointer{};
    } else {
        return pointer{};
    }
}

/// Pointer to the element at position `pos` of a paged storage, by page arithmetic.
template<typename Type>
[[nodiscard]] TESSERA_FORCE_INLINE auto walk_address(Type &pool, const std::size_t pos) noexcept {
    constexpr auto page = walk_traits<Type>::page;
    return pool.raw()[pos / page] + fast_mod(pos, page);
}

/// True if `set` holds at positions [first, last) the identifiers `lead` holds there (`lead` must reach `last`).
/// The runs are compared from the top down in pieces, the direction walks go, so that once the storages outgrow
/// the caches the prefetchers see one stream going down rather than a short stream going up in every block.
template<typename Set, typename Lead>
[[nodiscard]] bool walk_lines_up(const Set &set, const Lead &lead, const std::size_t first,
                                 const std::size_t last) noexcept {
    using entity_type = typename Lead::entity_type;
    static_assert(std::has_unique_object_representations_v<entity_type>);
    constexpr std::size_t piece = 64u;

    // positions past the enabled ones (disabled, released) never line up
    if (!(last <= walk_in_use_count(set))) {
        return false;
    }

    for (auto end = last; end != first;) {
        const auto begin = (end - first > piece) ? end - piece : first;

        if (std::memcmp(set.data() + begin, lead.data() + begin, (end - begin) * sizeof(entity_type)) != 0) {
            return false;
        }

        end = begin;
    }

    return true;
}

/// True if a storage type may take the lined-up path: positions that may hold tombstones or released identifiers
/// are never compared, so that an identifier found by comparison is always present.
template<typename Type>
inline constexpr bool walk_may_line_up_v = !walk_traits<Type>::holes && !walk_traits<Type>::released;

/// The reference a walk hands out for an element of a storage type with instances.
template<typename Type>
struct walk_ref {
    /// The reference type.
    using type = decltype(std::declval<Type &>().get(std::declval<typename Type::entity_type>()));
};

/// Paged storages: a reference to the element in its page.
template<walk_paged Type>
struct walk_ref<Type> {
    /// The reference type.
    using type = std::remove_pointer_t<typename walk_pointer<Type>::type> &;
};

/// A watch that sees nothing: run() without checks.
struct walk_no_watch {};

// ---------------------------------------------------------------------------------------------------------------
// The walk.

/// One storage a walk reads, with what the walk keeps of it: the element at the start of the block, the element of
/// the current entity (iterators) and the guesses.
template<std::size_t Index, typename Type>
struct walk_slot {
    /// The storage.
    Type *pool{};
    /// Element at the first position of the block, or null.
    typename walk_pointer<Type>::type base{};
    /// Element of the current entity (iterators).
    typename walk_pointer<Type>::type cur{};
    /// Where the previous entity was found.
    walk_guess guess{};
};

/// The slots of a walk, reached by index without a function call (debug builds call every non-inlined function).
template<typename Seq, typename... Type>
struct walk_slots;

/// See the primary declaration.
template<std::size_t... Index, typename... Type>
struct walk_slots<std::index_sequence<Index...>, Type...> : walk_slot<Index, Type>... {};

/// The slot at Index.
template<std::size_t Index, typename Type>
[[nodiscard]] TESSERA_FORCE_INLINE walk_slot<Index, Type> &walk_at(walk_slot<Index, Type> &slot) noexcept {
    return slot;
}

/// The slot at Index.
template<std::size_t Index, typename Type>
[[nodiscard]] TESSERA_FORCE_INLINE const walk_slot<Index, Type> &walk_at(const walk_slot<Index, Type> &slot) noexcept {
    return slot;
}

/// A walk led by a sparse set over the storages Slot... (whose elements it hands out) and the storages Exclude...
/// (which the entities must not be in). It runs a callback over every entity (run) or serves as an iterator (start,
/// next, current, get).
///
/// Fixed has bit I set when slot I always holds the lead's entity at the lead's position: the lead itself when it
/// is known at compile time, the owned storages of an owning group. Known says that every entity of the lead is in
/// every slot (groups keep it so): lookups then cannot fail. LeadHoles says that the lead may hold tombstones.
template<typename Common, std::uint64_t Fixed, bool Known, bool LeadHoles, typename Slots, typename Excludes>
class block_walk;

/// See the primary declaration.
template<typename Common, std::uint64_t Fixed, bool Known, bool LeadHoles, typename... Slot, typename... Exclude>
class block_walk<Common, Fixed, Known, LeadHoles, type_list<Slot...>, type_list<Exclude...>> {
    using entity_type = typename Common::entity_type;
    using slot_seq = std::index_sequence_for<Slot...>;
    using exclude_seq = std::index_sequence_for<Exclude...>;
    using positions = std::array<std::size_t, sizeof...(Slot)>;

    template<std::size_t Index>
    static constexpr bool fixed = ((Fixed >> Index) & 1u) != 0u;

    template<std::size_t Index>
    using slot_type = type_list_element_t<Index, type_list<Slot...>>;

    template<typename Func, std::size_t... Index>
    static consteval bool takes_entity(std::index_sequence<Index...>) noexcept {
        return walk_with_entity_v<Func, entity_type, typename walk_ref<slot_type<Index>>::type...>;
    }

    template<std::size_t... Index>
    static consteval bool all_fixed(std::index_sequence<Index...>) noexcept {
        return (fixed<Index> && ...);
    }

    static constexpr std::size_t block = walk_block_size<Slot...>();

    // every block lines up when every slot is fixed (full-owning groups, a view of one storage)
    static constexpr bool always_lined = all_fixed(slot_seq{});

    // iterators step without any test inside a lined-up block
    static constexpr bool plain_steps = !LeadHoles && sizeof...(Exclude) == 0u;

    // the lead may be one of the slots without the walk knowing which one at compile time (the iterators of views)
    static constexpr bool runtime_lead = Fixed == 0u && !Known;

    template<std::size_t... Index>
    TESSERA_FORCE_INLINE void enter(const std::size_t first, const std::size_t last, const bool known,
                                    std::index_sequence<Index...>) {
        begin = first;
        ((walk_at<Index>(slots).base = walk_base(*walk_at<Index>(slots).pool, first)), ...);

        if constexpr (always_lined) {
            lined = true;
        } else {
            // `known`: the caller remembers that every block lines up (groups). The lead lines up with itself
            lined = lines_possible && (known || ((fixed<Index> || (runtime_lead && Index == lead_slot) ||
                                                  walk_lines_up(*walk_at<Index>(slots).pool, *lead, first, last)) &&
                                                 ...));
        }
    }

    // an owning group owns a slot whose elements are read at the lead's position: it may exchange positions of the
    // slot the walk has yet to visit (see the top of this file)
    template<std::size_t... Index>
    [[nodiscard]] bool moved_by_groups(std::index_sequence<Index...>) const noexcept {
        return ((!fixed<Index> && walk_paged<slot_type<Index>> && Index != lead_slot &&
                 sparse_access::grouped(*walk_at<Index>(slots).pool)) ||
                ...);
    }

    template<std::size_t Index>
    TESSERA_FORCE_INLINE bool locate(const entity_type entt, const std::size_t pos, positions &at) {
        if constexpr (fixed<Index>) {
            at[Index] = pos;
            return true;
        } else {
            if (runtime_lead && Index == lead_slot) {
                at[Index] = pos;
                return true;
            }

            auto &slot = walk_at<Index>(slots);
            at[Index] = walk_locate<Known>(*slot.pool, entt, pos, slot.guess, mode);
            return Known || at[Index] != walk_npos;
        }
    }

    template<std::size_t... Index>
    [[nodiscard]] TESSERA_FORCE_INLINE bool excluded([[maybe_unused]] const entity_type entt,
                                                     std::index_sequence<Index...>) const {
        return ((walk_at<Index>(filter).pool && walk_member(*walk_at<Index>(filter).pool, entt)) || ...);
    }

    // the entity at `pos` of the lead is in every slot (positions in `at`) and in no excluded storage
    template<std::size_t... Index>
    [[nodiscard]] TESSERA_FORCE_INLINE bool accept(const entity_type entt, [[maybe_unused]] const std::size_t pos,
                                                   [[maybe_unused]] positions &at, std::index_sequence<Index...>) {
        if constexpr (LeadHoles) {
            if (holes && entt == tombstone) {
                return false;
            }
        }

        return (locate<Index>(entt, pos, at) && ...) && !excluded(entt, exclude_seq{}) &&
               (mode != disabled_mode::only ||
                some_disabled(slot_seq{}, *lead, pos, at, walk_at<Index>(slots).pool...));
    }

    // disabled_mode::only: the lead or a slot holds the entity disabled. Kept out of line, so that walks in the
    // default mode inline no more than before; and static, given the storages rather than the walk: an out-of-line
    // call that received `this` would make the walk's address escape, and every loop that may reach it (the each()
    // iterators' steps) would then keep the walk's position and element pointers in memory, with a store and a
    // reload per entity, where they otherwise stay in registers
    template<std::size_t... Index, typename... Pool>
    [[nodiscard]] TESSERA_NOINLINE static bool some_disabled(std::index_sequence<Index...>, const Common &leader,
                                                             const std::size_t pos, const positions &at,
                                                             const Pool *...pool) noexcept {
        return walk_disabled_at(leader, pos) || (walk_disabled_at(*pool, at[Index]) || ...);
    }

    // the element of slot Index for the entity at position `pos` of the lead, found at position `at` of the slot (npos
    // in a lined-up block: the lead's position): from the block's base at the lead's position, by page arithmetic
    // elsewhere
    template<std::size_t Index>
    [[nodiscard]] TESSERA_FORCE_INLINE decltype(auto) element(const entity_type entt, const std::size_t pos,
                                                              [[maybe_unused]] const std::size_t at) const {
        const auto &slot = walk_at<Index>(slots);

        if constexpr (walk_paged<slot_type<Index>>) {
            return *((fixed<Index> || (runtime_lead && Index == lead_slot) || at == walk_npos)
                         ? slot.base + (pos - begin)
                         : walk_address(*slot.pool, at));
        } else {
            return slot.pool->get(entt);
        }
    }

    // the element of slot Index in a lined-up block, from a copy of the slots taken when the block was entered: the
    // user's code cannot reach a local copy, so the compiler keeps the pointers in registers across its calls
    template<std::size_t Index, typename Slots>
    [[nodiscard]] TESSERA_FORCE_INLINE static decltype(auto) lined_element(const Slots &here, const entity_type entt,
                                                                           const std::size_t offset) {
        if constexpr (walk_paged<slot_type<Index>>) {
            return walk_at<Index>(here).base[offset];
        } else {
            return walk_at<Index>(here).pool->get(entt);
        }
    }

    template<typename Func, typename Slots, std::size_t... Index>
    TESSERA_FORCE_INLINE static void invoke(Func &func, const Slots &here, const entity_type entt,
                                            const std::size_t offset, std::index_sequence<Index...>) {
        if constexpr (takes_entity<Func>(std::index_sequence<Index...>{})) {
            func(entt, lined_element<Index>(here, entt, offset)...);
        } else {
            func(lined_element<Index>(here, entt, offset)...);
        }
    }

    template<typename Func, std::size_t... Index>
    TESSERA_FORCE_INLINE void invoke_at(Func &func, const entity_type entt, const std::size_t pos, const positions &at,
                                        std::index_sequence<Index...>) const {
        if constexpr (takes_entity<Func>(std::index_sequence<Index...>{})) {
            func(entt, element<Index>(entt, pos, at[Index])...);
        } else {
            func(element<Index>(entt, pos, at[Index])...);
        }
    }

public:
    /// The indices of the slots whose elements are handed out.
    using element_seq = typename walk_kept<walk_traits<Slot>::instances...>::type;

    /// A walk over nothing.
    block_walk() noexcept = default;

    /// A walk led by `leading` over the given storages (null exclude storages are skipped).
    block_walk(const Common *leading, Slot *...pool, Exclude *...excl) noexcept
        : lead{leading}, slots{{pool}...}, filter{{excl}...} {
        // a lead whose type allows holes has them only under the in-place policy
        holes = LeadHoles && leading->policy() == deletion_policy::in_place;

        [this]<std::size_t... Index>(std::index_sequence<Index...>) {
            // the slot that is the lead, if any (views choose their lead at run time)
            ((static_cast<const Common *>(walk_at<Index>(slots).pool) == lead ? void(lead_slot = Index) : void()), ...);
        }
        (slot_seq{});

        // storages that may hold tombstones or released identifiers are never compared (see walk_may_line_up_v)
        lines_possible = ((walk_may_line_up_v<Slot> || static_cast<const Common *>(pool) == leading ||
                           pool->policy() == deletion_policy::swap_and_pop) &&
                          ...) &&
                         !moved_by_groups(slot_seq{});
    }

    /// Makes the walk count disabled elements as present (include), or stop only on the entities that have one
    /// (only): the caller then walks the lead up to walk_reach(lead, mode). Set before run() or start(). Outside
    /// the default, every entity is tested: no block is taken as lined up unless the walk reads the lead alone.
    void visit(const disabled_mode value) noexcept {
        mode = value;
        lines_possible = lines_possible && value == disabled_mode::skip;
    }

    /// Calls func(entity, elements...) or func(elements...) for every entity of positions [from, count) of the lead
    /// that passes the walk, then watch(entity, position) if a watch is given. `known` says that every block lines
    /// up. Returns true if every block was found lined up. Blocks stay aligned whatever `from` and `count` are (a
    /// chunk of chunk.hpp starts or stops inside a block), so the blocks' pointers hold as explained above.
    template<typename Func, typename Watch = walk_no_watch>
    bool run(Func &func, const std::size_t from, const std::size_t count, const bool known = false, Watch watch = {}) {
        constexpr bool watched = !std::is_same_v<Watch, walk_no_watch>;
        constexpr bool needs_entity = watched || !plain_steps || takes_entity<Func>(element_seq{});
        bool all_lined = true;

        const Common &leader = *lead;
        const bool holed = LeadHoles && holes;

        if constexpr (always_lined) {
            // every slot reads the lead's position: the lead's disabled elements are the ones to visit
            if (mode == disabled_mode::only && from < walk_count(leader)) {
                return run(func, walk_count(leader), count, known, watch);
            }
        }

        for (auto last = count; last > from;) {
            const auto aligned = (last - 1u) & ~(block - 1u);
            const auto first = aligned < from ? from : aligned;
            auto pos = last;
            enter(first, last, known, slot_seq{});
            all_lined = all_lined && lined;

            if (lined) {
                const auto here = slots;

                TESSERA_UNROLL_LOOP
                while (pos != first) {
                    --pos;
                    entity_type entt{null};

                    if constexpr (needs_entity) {
                        entt = leader.data()[pos];

                        if ((holed && entt == tombstone) || excluded(entt, exclude_seq{})) {
                            continue;
                        }
                    }

                    invoke(func, here, entt, pos - first, element_seq{});

                    if constexpr (watched) {
                        watch(entt, pos);
                    }
                }
            }

            while (pos != first) {
                --pos;
                positions at{};

                if (const entity_type entt = lead->data()[pos]; accept(entt, pos, at, slot_seq{})) {
                    invoke_at(func, entt, pos, at, element_seq{});

                    if constexpr (watched) {
                        watch(entt, pos);
                    }
                }
            }

            last = first;
        }

        return all_lined;
    }

    // The walk as an iterator (each() of views and groups): `pos` is the position of the current entity, -1 at the
    // end, and every paged slot points at the current entity's element.

    /// Starts at position `from` of the lead and moves to the first entity that passes. `known` as for run().
    void start(const std::ptrdiff_t from, const bool known = false) {
        pos = from;
        remembered = known;
        // no block entered yet: the first position enters one
        begin = walk_npos;
        seek();
    }

    /// True if every slot holds the lead's identifiers at the lead's positions [0, count), and the walk may rely on
    /// it: what run() and start() take as `known`, checked once for the whole range.
    [[nodiscard]] bool lines_up(const std::size_t count) const noexcept {
        return lines_possible && [ this, count ]<std::size_t... Index>(std::index_sequence<Index...>) {
            return ((fixed<Index> || (runtime_lead && Index == lead_slot) ||
                     walk_lines_up(*walk_at<Index>(slots).pool, *lead, 0u, count)) &&
                    ...);
        }
        (slot_seq{});
    }

    /// Moves to the next entity that passes.
    TESSERA_FORCE_INLINE void next() {
        --pos;

        if (pos >= fast) [[likely]] {
            // the common step: still inside a lined-up block that did not move, nothing to test. `fast` is a
            // position here, so the walk did not end: g++ then drops the end test of the loop around the step (its
            // iterator compares pos with the end's -1), one compare and branch per entity
#if defined(__GNUC__) && !defined(__clang__)
            if (pos < 0) {
                __builtin_unreachable();
            }
#endif
            step_back(slot_seq{});
        } else if (Known && plain_steps && !lined && pos >= static_cast<std::ptrdiff_t>(begin)) {
            // groups: every entity of the lead is a member, found through the sparse arrays
            const auto curr = static_cast<std::size_t>(pos);
            positions at{};
            static_cast<void>(accept(lead->data()[curr], curr, at, slot_seq{}));
            aim(curr, at, false, slot_seq{});
        } else {
            seek();
        }
    }

    /// The position of the current entity in the lead, -1 at the end.
    [[nodiscard]] TESSERA_FORCE_INLINE std::ptrdiff_t position() const noexcept { return pos; }

    /// The current entity, in the lead's packed array.
    [[nodiscard]] TESSERA_FORCE_INLINE const entity_type &current() const noexcept {
        return lead->data()[static_cast<std::size_t>(pos)];
    }

    /// The lead.
    [[nodiscard]] const Common *leader() const noexcept { return lead; }

    /// Which elements count as present (visit()).
    [[nodiscard]] disabled_mode visiting() const noexcept { return mode; }

    /// The storage of slot Index.
    template<std::size_t Index>
    [[nodiscard]] auto *slot_pool() const noexcept {
        return walk_at<Index>(slots).pool;
    }

    /// The storage of exclude slot Index (null when the view was given none).
    template<std::size_t Index>
    [[nodiscard]] auto *exclude_pool() const noexcept {
        return walk_at<Index>(filter).pool;
    }

    /// The element of the current entity in slot Index (a slot with instances).
    template<std::size_t Index>
    [[nodiscard]] TESSERA_FORCE_INLINE decltype(auto) get() const {
        if constexpr (walk_paged<slot_type<Index>>) {
            return *walk_at<Index>(slots).cur;
        } else {
            return walk_at<Index>(slots).pool->get(current());
        }
    }

private:
    TESSERA_FORCE_INLINE void seek() {
        positions at{};

        for (; pos >= 0; --pos) {
            const auto curr = static_cast<std::size_t>(pos);

            if constexpr (always_lined) {
                // every slot reads the lead's position: below the lead's enabled count nothing is disabled
                if (mode == disabled_mode::only && curr < walk_count(*lead)) {
                    pos = -1;
                    break;
                }
            }

            if (curr < begin) {
                enter(curr & ~(block - 1u), curr + 1u, remembered, slot_seq{});
            }

            const entity_type entt = lead->data()[curr];

            if (lined) {
                if ((!LeadHoles || !holes || entt != tombstone) && !excluded(entt, exclude_seq{})) {
                    aim(curr, at, true, slot_seq{});
                    break;
                }
            } else if (accept(entt, curr, at, slot_seq{})) {
                aim(curr, at, false, slot_seq{});
                break;
            }
        }

        // next() steps without testing while above `fast`
        fast = (sizeof...(Exclude) == 0u && !holes && lined && mode != disabled_mode::only)
                   ? static_cast<std::ptrdiff_t>(begin)
                   : PTRDIFF_MAX;
    }

    // points every paged slot at the element of the entity at `curr` (its positions in `at` outside lined-up blocks)
    template<std::size_t... Index>
    TESSERA_FORCE_INLINE void aim([[maybe_unused]] const std::size_t curr, [[maybe_unused]] const positions &at,
                                  [[maybe_unused]] const bool in_line, std::index_sequence<Index...>) {
        (aim_one<Index>(curr, in_line ? walk_npos : at[Index]), ...);
    }

    template<std::size_t Index>
    TESSERA_FORCE_INLINE void aim_one(const std::size_t curr, const std::size_t at) {
        if constexpr (walk_paged<slot_type<Index>>) {
            walk_at<Index>(slots).cur = &element<Index>(entity_type{null}, curr, at);
        }
    }

    // the next position of a lined-up block: every element one place down
    template<std::size_t... Index>
    TESSERA_FORCE_INLINE void step_back(std::index_sequence<Index...>) noexcept {
        (step_back_one<Index>(), ...);
    }

    template<std::size_t Index>
    TESSERA_FORCE_INLINE void step_back_one() noexcept {
        if constexpr (walk_paged<slot_type<Index>>) {
            --walk_at<Index>(slots).cur;
        }
    }

    const Common *lead{};
    walk_slots<slot_seq, Slot...> slots{};
    walk_slots<exclude_seq, Exclude...> filter{};
    // index of the slot that is the lead, or none
    std::size_t lead_slot{walk_npos};
    // first position of the current block
    std::size_t begin{};
    // position of the current entity (iterators)
    std::ptrdiff_t pos{-1};
    // iterators: first position of the current block when next() may step without testing, else past every position
    std::ptrdiff_t fast{PTRDIFF_MAX};
    bool lined{};
    bool lines_possible{};
    // which elements count as present (visit())
    disabled_mode mode{};
    bool remembered{};
    // the lead may hold tombstones (LeadHoles and the in-place policy)
    bool holes{LeadHoles};
};

} // namespace tessera::internal

#endif
