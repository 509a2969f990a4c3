// Detection of invalidated iterations, compiled only when TESSERA_DEBUG_ITERATION is 1 (see config.hpp and
// docs/configuration.md). It catches, while a view, a group or a pool is iterated, the modifications that the
// iteration rules of docs/thread_safety.md make undefined, and reports them through TESSERA_ASSERT with a message
// that names the pool's type and the rule. Rule numbers below are those of docs/thread_safety.md.
//
// Design. Every sparse set derives from an iteration_log. It counts removals and rearrangements: erase, remove and
// clear (through the pop and pop_all hooks), sort, sort_as, compact, move and swap. Additions are allowed while
// iterating (rule 1) and do not count. The log also remembers the identifier of the latest removal and how many of
// the latest removals in a row concerned it; a rearrangement concerns no identifier. Separately, it counts the
// swaps of packed positions (swap_elements; owning groups call it when an entity joins or leaves them, and when
// they are sorted) and remembers the lower position of the latest 64.
//
// An iteration keeps, for each pool it walks, the counts it saw last. When the user's code has run for the current
// entity (after the callback of each(func), or when an iterator moves on), every removal since then must concern
// the current entity (rule 2: removing it, its components, or destroying it). Anything else means that another
// entity left a pool, or that the pool was sorted, compacted or cleared, so positions still to be visited may have
// lost or swapped their entity: the check fires (rule 3). In-place removals only leave a hole and move nothing, so
// they are not counted (rule 3's exception); clearing an in-place pool still counts. For the pool whose positions
// the iteration walks (the leading one), a swap is harmful if its lower position is below the current position,
// since iteration goes from high positions to 0 and [0, current) is still to be visited: the check fires (rule 5).
// This is what a view led by a pool that an owning group owns runs into when an entity joins the group (the group
// moves it to the end of its block, below the iteration); the group itself walks only its block, and joins swap at
// positions beyond it. More than 64 swaps since the last check count as harmful. Then the counts are taken again.
//
// Coverage: each(func) of views and groups and the iterators of multi-type views and of their each() use an
// iteration_witness. The iterators of sparse sets and storages, which single-type views and groups hand out
// (begin(), end(), each()), carry an iteration_mark that does the same checks for their own pool when they step
// forward. Stepping backward (reverse iteration) checks rule 4: nothing may have been removed, rearranged or swapped
// at all. Undetected: additions during reverse iteration, and arithmetic (+=, -=) on iterators, which only takes the
// counts again.
//
// Cost: about 300 bytes per set and a few stores per removal or swap; per visited entity, one comparison per walked
// pool; sparse set and storage iterators grow by 40 bytes. With TESSERA_DEBUG_ITERATION at 0 none of it exists.
#ifndef TESSERA_ENTITY_CHECKS_ITERATION_LOG_HPP
#define TESSERA_ENTITY_CHECKS_ITERATION_LOG_HPP

#include "../../config/config.hpp"

#if TESSERA_DEBUG_ITERATION
#    include <array>
#    include <cstddef>
#    include <cstdint>
#    include <string>
#    include <string_view>

namespace tessera::internal {

/// What a sparse set records so that iterations over it can tell whether they were invalidated (see the top of
/// this file). Identifiers are kept as integers widened to 64 bits, so that iterators, which know their container
/// but not the identifier type, can read the log too.
class iteration_log {
public:
    /// How many swaps are remembered one by one. An observer that missed more takes them all as harmful. Owning
    /// groups swap once per joining entity, so this is how many entities a callback may make join a group that
    /// is being iterated.
    static constexpr std::size_t swap_memory = 64u;

    /// An empty log.
    iteration_log() noexcept = default;

    iteration_log(const iteration_log &) = delete;
    iteration_log &operator=(const iteration_log &) = delete;

    /// Virtual: the log is a base class of sparse sets.
    virtual ~iteration_log() = default;

    /// The number of removals and rearrangements so far. Additions and swaps do not count.
    [[nodiscard]] std::size_t modifications() const noexcept { return changes; }

    /// True if every modification after the count `seen` concerned the identifier `entt`, or if there was none.
    [[nodiscard]] bool changed_only(const std::size_t seen, const std::uint64_t entt) const noexcept {
        return changes == seen || (changes - seen <= same_run && last_changed == entt);
    }

    /// The number of swaps of packed positions so far (swap_elements, owning groups taking an entity in).
    [[nodiscard]] std::size_t swap_count() const noexcept { return swaps; }

    /// True if a swap after the count `seen` involved a position below `pos`, the positions that an iteration
    /// currently at `pos` has yet to visit.
    [[nodiscard]] bool swapped_below(const std::size_t seen, const std::size_t pos) const noexcept {
        if (swaps - seen > swap_memory) {
            return true;
        }

        for (auto count = seen; count != swaps; ++count) {
            if (lower[count % swap_memory] < pos) {
                return true;
            }
        }

        return false;
    }

    /// The name of the element type, for messages.
    [[nodiscard]] virtual std::string_view logged_name() const noexcept = 0;

    /// Writes the identifier at a packed position to `entt`; false if the position is out of range.
    [[nodiscard]] virtual bool logged_entity(std::size_t pos, std::uint64_t &entt) const noexcept = 0;

protected:
    /// Records the removal (or the move to the released region) of an identifier.
    void log_change(const std::uint64_t entt) noexcept {
        same_run = (same_run != 0u && entt == last_changed) ? same_run + 1u : 1u;
        last_changed = entt;
        ++changes;
    }

    /// Records a change that may have moved any identifier: no iteration survives it.
    void log_rearrangement() noexcept {
        same_run = 0u;
        ++changes;
    }

    /// Records the exchange of two packed positions.
    void log_swap(const std::size_t lhs, const std::size_t rhs) noexcept {
        if (lhs != rhs) {
            // positions are below the entity mask, at most 32 bits
            lower[swaps % swap_memory] = static_cast<std::uint32_t>(lhs < rhs ? lhs : rhs);
            ++swaps;
        }
    }

private:
    std::size_t changes{};
    std::size_t same_run{};
    std::uint64_t last_changed{};
    std::size_t swaps{};
    std::array<std::uint32_t, swap_memory> lower{};
};

/// The message of a broken iteration rule (3, 4 or 5) for the pool `name`; `who` names the iteration. The text
/// lives in a thread-local buffer until the next call on the same thread.
[[nodiscard]] inline const char *iteration_rule_message(const char *who, const std::string_view name, const int rule) {
    thread_local std::string message;
    message = std::string{who};

    switch (rule) {
    case 4:
        message += ": the pool of " + std::string{name} +
                   " was modified while iterating it in reverse (see docs/thread_safety.md, iteration rule 4: nothing "
                   "may be removed, sorted or moved during reverse iteration)";
        break;
    case 5:
        message += ": entities not yet visited in the pool of " + std::string{name} +
                   " were moved while iterating it (see docs/thread_safety.md, iteration rule 5: adding components "
                   "that make an entity join an owning group while iterating an owned pool through a view; iterate "
                   "the group itself, or lead with a type the group does not own. An entity leaving the group, "
                   "sorting the group or swap_elements move entities too)";
        break;
    default:
        message += ": a component of another entity was removed from the pool of " + std::string{name} +
                   " while iterating it, or the pool was sorted, compacted or cleared (see docs/thread_safety.md, "
                   "iteration rule 3: only the current entity may be removed while iterating)";
        break;
    }

    return message.c_str();
}

/// Reports a broken iteration rule through TESSERA_ASSERT. The message is built only if the check is on; with
/// the check off (or a handler that returns), the iteration goes on and its behaviour is undefined.
inline void iteration_rule_broken([[maybe_unused]] const char *who, [[maybe_unused]] const std::string_view name,
                                  [[maybe_unused]] const int rule) {
    TESSERA_ASSERT(false, iteration_rule_message(who, name, rule));
}

/// What an iterator over a pool remembers from the time it last moved: the pool's counts and the identifier at
/// its position. Moving forward (toward position 0) checks rules 3 and 5, moving backward checks rule 4. Arithmetic
/// only takes the counts again, so copies are cheap and reading is thread-safe.
class iteration_mark {
public:
    /// Watches nothing.
    constexpr iteration_mark() noexcept = default;

    /// Watches the pool of `source` (nothing if null) from packed position `pos`.
    iteration_mark(const iteration_log *source, const std::ptrdiff_t pos) noexcept : log{source} { take(pos); }

    /// Takes the counts and the identifier at `pos` again, after a move.
    void take(const std::ptrdiff_t pos) noexcept {
        if (log) {
            seen = log->modifications();
            seen_swaps = log->swap_count();
            armed = pos >= 0 && log->logged_entity(static_cast<std::size_t>(pos), at);
        }
    }

    /// Before a step forward from `pos`: only the identifier that was there may have left (rule 3), and no swap
    /// may have reached the positions below (rule 5).
    void forward(const char *who, const std::ptrdiff_t pos) const {
        if (log && armed) {
            if (!log->changed_only(seen, at)) {
                iteration_rule_broken(who, log->logged_name(), 3);
            }

            if (log->swapped_below(seen_swaps, static_cast<std::size_t>(pos))) {
                iteration_rule_broken(who, log->logged_name(), 5);
            }
        }
    }

    /// Before a step backward (reverse iteration): nothing may have been removed or moved (rule 4).
    void backward(const char *who) const {
        if (log && (log->modifications() != seen || log->swap_count() != seen_swaps)) {
            iteration_rule_broken(who, log->logged_name(), 4);
        }
    }

private:
    const iteration_log *log{};
    std::size_t seen{};
    std::size_t seen_swaps{};
    std::uint64_t at{};
    bool armed{};
};

/// Watches, for one iteration, the pools it walks: check() after each entity fires if a modification broke
/// iteration rule 3 or 5 (see the top of this file).
template<typename Common, std::size_t Count>
class iteration_witness {
    using entity_type = typename Common::entity_type;

public:
    /// Watches nothing.
    iteration_witness() noexcept = default;

    /// Watches the given storages (null entries are skipped); `who` names the iteration in the message.
    template<typename... Type>
    explicit iteration_witness(const char *who, const Type *...value) noexcept : name{who}, pools{value...} {
        static_assert(sizeof...(Type) == Count, "iteration_witness: one pointer per storage");
        settle();
    }

    /// Watches the storages of an array (null entries are skipped).
    iteration_witness(const char *who, const std::array<const Common *, Count> &value) noexcept
        : name{who}, pools{value} {
        settle();
    }

    /// Names the storage whose positions the iteration walks, so that check(entity, position) looks at its swaps.
    void lead_by(const Common *pool) noexcept {
        leader = pool;
        settle();
    }

    /// Fires unless every storage changed only through `current` since the last check, then takes the counts.
    void check(const entity_type current) {
        verify(current);
        settle();
    }

    /// Like check(current), and fires if a swap in the leading storage reached the positions below `position`,
    /// the packed position of `current` in it (the ones still to be visited).
    void check(const entity_type current, const std::size_t position) {
        verify(current);

        if (leader && leader->swapped_below(seen_swaps, position)) {
            iteration_rule_broken(name, leader->logged_name(), 5);
        }

        settle();
    }

private:
    void verify(const entity_type current) const {
        for (std::size_t pos{}; pos < Count; ++pos) {
            if (pools[pos] && !pools[pos]->modified_only_at(seen[pos], current)) {
                iteration_rule_broken(name, pools[pos]->logged_name(), 3);
            }
        }
    }

    void settle() noexcept {
        for (std::size_t pos{}; pos < Count; ++pos) {
            seen[pos] = pools[pos] ? pools[pos]->modifications() : 0u;
        }

        seen_swaps = leader ? leader->swap_count() : 0u;
    }

    const char *name{};
    std::array<const Common *, Count> pools{};
    std::array<std::size_t, Count> seen{};
    const Common *leader{};
    std::size_t seen_swaps{};
};

} // namespace tessera::internal

#endif

#endif
