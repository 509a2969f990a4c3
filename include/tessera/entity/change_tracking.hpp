// Change detection: the ticks a tracked storage (component_traits<T>::track_changes) keeps per element, when each
// element was added and last changed, and the change log that lets a query visit only what changed since a tick.
// basic_storage holds a tick_column as a [[no_unique_address]] member; for untracked types it is empty and every
// hook is an inline no-op, so those storages keep their size and their code. Ticks and log are paged
// (paged/paged_records.hpp), so that a tracked emplace never copies them as they grow.
#ifndef TESSERA_ENTITY_CHANGE_TRACKING_HPP
#define TESSERA_ENTITY_CHANGE_TRACKING_HPP

#include "../config/config.hpp"
#include "paged/paged_records.hpp"
#include <cstddef>
#include <cstdint>
#include <utility>

namespace tessera {

/// A point in time of change detection: a 32-bit counter that wraps, compared relative to the current tick.
using tick_type = std::uint32_t;

/// The oldest a stored tick gets: every clamp_period advances the registry rewrites older ticks to exactly this age,
/// so that stored ticks never come near the 2^31 ages at which relative comparison would wrap.
inline constexpr tick_type max_tick_age = tick_type{1u} << 30u;

/// How often (in advances of the tick) stored ticks are clamped to max_tick_age.
inline constexpr tick_type tick_clamp_period = tick_type{1u} << 29u;

namespace internal {

/// Records per page of the tick column and of the change log (12 and 8 bytes per record).
inline constexpr std::size_t tick_page_size = TESSERA_PACKED_PAGE;

/// Handed to a tracked storage by bind(): the address it reads the current tick from from then on.
struct tick_source {
    const tick_type *tick;
};

/// Handed to every pool by bind() when the registry clamps old ticks (advance_tick, every tick_clamp_period).
struct tick_clamp {};

/// True if `tick` is strictly after `since`, both read relative to `now` (the ages now - x, modulo 2^32).
[[nodiscard]] constexpr bool tick_after(const tick_type tick, const tick_type since, const tick_type now) noexcept {
    return static_cast<tick_type>(now - tick) < static_cast<tick_type>(now - since);
}

/// The ticks of one element: when it was added, when it last changed, and its entry in the change log.
struct element_ticks {
    tick_type added;
    tick_type changed;
    std::uint32_t entry;
};

/// One entry of the change log: an element changed (or was added) at `tick`.
template<typename Entity>
struct change_entry {
    Entity entt;
    tick_type tick;
};

/// The per-element ticks of a storage, parallel to its packed array. Untracked storages get this empty version.
template<bool Tracked, typename Entity, typename Allocator>
class tick_column {
public:
    tick_column() noexcept = default;
    explicit tick_column(const Allocator &) noexcept {}

    template<typename Set>
    void prepare(const std::size_t, const Set &) const noexcept {}
    void reserve(const std::size_t) const noexcept {}
    void stamp_added(const std::size_t, const Entity) const noexcept {}
    template<typename Set>
    void stamp_changed(const std::size_t, const Entity, const Set &) const noexcept {}
    void fill(const std::size_t, const std::size_t) const noexcept {}
    void exchange(const std::size_t, const std::size_t) const noexcept {}
    void reset() const noexcept {}
    template<typename Set>
    void shrink(const Set &) const noexcept {}
    void swap(tick_column &) const noexcept {}
    void copy_from(const tick_column &) const noexcept {}
};

/// The per-element ticks of a tracked storage and its change log.
///
/// ticks[pos] follows the element at packed position pos through every move (the storage calls fill on a
/// swap-and-pop, exchange on sorts, compaction and group swaps). The log lists (entity, tick) in tick order, one
/// entry appended the first time an element changes in a tick; an entry is current only while the element's
/// `entry` points back to it, so stale entries (overwritten, removed, re-added elements) are skipped without
/// bookkeeping on removal. The log is compacted, keeping only current entries, when it outgrows twice the pool.
template<typename Entity, typename Allocator>
class tick_column<true, Entity, Allocator> {
    using ticks_type = paged_records<element_ticks, Allocator, tick_page_size>;
    using log_type = paged_records<change_entry<Entity>, Allocator, tick_page_size>;

    // below this many entries the log is never compacted: small pools would compact on every other change
    static constexpr std::size_t min_log = 64u;

    template<typename Set>
    void compact(const Set &set) {
        std::size_t next{};

        for (std::size_t pos{}; pos < log.size(); ++pos) {
            const auto entt = log[pos].entt;

            if (set.contains(entt)) {
                if (auto &elem = ticks[set.index(entt)]; elem.entry == pos) {
                    elem.entry = static_cast<std::uint32_t>(next);
                    log[next++] = log[pos];
                }
            }
        }

        log.truncate(next);
    }

    // Room for one more log entry, compacting first when the log is twice as long as the pool needs: compaction
    // leaves at most one entry per element, so at least as many appends as the pool holds separate two of them.
    template<typename Set>
    void reserve_entry(const Set &set) {
        if (const auto used = log.size(); used >= min_log && used >= 2u * set.size() && walking == 0u) [[unlikely]] {
            compact(set);
        }

        if (log.size() == log.capacity()) [[unlikely]] {
            // one page more; the entries already logged stay where they are
            log.reserve(log.size() + 1u);
        }
    }

    void append(element_ticks &elem, const Entity entt, const tick_type tick) {
        elem.entry = static_cast<std::uint32_t>(log.size());
        log.push_back(change_entry<Entity>{entt, tick});
    }

public:
    /// Constructs an empty column whose pages come from `allocator`.
    explicit tick_column(const Allocator &allocator) : ticks{allocator}, log{allocator} {}

    /// The tick stamps read now: the bound registry's, or the storage's own when it is used alone.
    [[nodiscard]] tick_type now() const noexcept { return clock != nullptr ? *clock : local; }

    /// Reads the tick from `source` from now on (nullptr: the storage's own tick).
    void bind(const tick_type *const source) noexcept { clock = source; }

    /// True if the tick comes from a registry.
    [[nodiscard]] bool bound() const noexcept { return clock != nullptr; }

    /// Moves the storage's own tick on (storages used alone).
    void advance_local(const tick_type count) noexcept { local += count; }

    /// Makes room for the ticks of an element at `pos` and for its log entry. The only step of an emplace that
    /// may throw here: it runs before the element is built.
    template<typename Set>
    void prepare(const std::size_t pos, const Set &set) {
        if (pos >= ticks.size()) {
            // at most one page allocation; nothing already stored moves
            ticks.grow_to(pos + 1u);
        }

        // the slot may hold the ticks of a removed element: they must not keep a log entry alive
        ticks[pos].entry = static_cast<std::uint32_t>(-1);
        reserve_entry(set);
    }

    /// Room for the ticks and log entries of `cap` elements (storage reserve).
    void reserve(const std::size_t cap) {
        ticks.reserve(cap);
        log.reserve(cap);
    }

    /// Stamps a new element at `pos` as added and changed now (after prepare).
    void stamp_added(const std::size_t pos, const Entity entt) {
        auto &elem = ticks[pos];
        elem.added = elem.changed = now();
        append(elem, entt, elem.added);
    }

    /// Stamps the element at `pos` as changed now; logs it unless it changed already in this tick.
    template<typename Set>
    void stamp_changed(const std::size_t pos, const Entity entt, const Set &set) {
        const auto tick = now();

        if (ticks[pos].changed != tick) {
            reserve_entry(set);
            auto &elem = ticks[pos];
            elem.changed = tick;
            append(elem, entt, tick);
        }
    }

    /// The ticks of the element at `pos`.
    [[nodiscard]] const element_ticks &at(const std::size_t pos) const noexcept { return ticks[pos]; }

    /// The element at `back` moved into the slot `pos` (swap-and-pop).
    void fill(const std::size_t pos, const std::size_t back) noexcept { ticks[pos] = ticks[back]; }

    /// The elements at `lhs` and `rhs` changed places (or one moved into a hole).
    void exchange(const std::size_t lhs, const std::size_t rhs) noexcept { std::swap(ticks[lhs], ticks[rhs]); }

    /// Forgets every element (the storage was emptied).
    void reset() noexcept {
        ticks.clear();
        log.clear();
    }

    /// Gives back the memory the storage no longer needs.
    template<typename Set>
    void shrink(const Set &set) {
        ticks.truncate(set.size());
        ticks.shrink_to_fit();
        compact(set);
        log.shrink_to_fit();
    }

    /// Exchanges everything, the tick source included, as the storages themselves change hands.
    void swap(tick_column &other) noexcept {
        ticks.swap(other.ticks);
        log.swap(other.log);
        std::swap(clock, other.clock);
        std::swap(local, other.local);
        std::swap(walking, other.walking);
    }

    /// Copies the ticks and the log (a storage moving to an allocator that cannot share memory).
    void copy_from(const tick_column &other) {
        ticks.assign(other.ticks);
        log.assign(other.log);
        clock = other.clock;
        local = other.local;
    }

    /// Rewrites every tick older than max_tick_age to exactly that age. The log stays in tick order.
    void clamp() noexcept {
        const tick_type now_tick = now();
        const tick_type oldest = now_tick - max_tick_age;
        const auto fix = [now_tick, oldest](tick_type &tick) {
            if (static_cast<tick_type>(now_tick - tick) > max_tick_age) {
                tick = oldest;
            }
        };

        for (std::size_t pos{}; pos < ticks.size(); ++pos) {
            fix(ticks[pos].added);
            fix(ticks[pos].changed);
        }

        for (std::size_t pos{}; pos < log.size(); ++pos) {
            fix(log[pos].tick);
        }
    }

    /// Index of the first log entry after `since`: every change after `since` has a current entry from there on.
    [[nodiscard]] std::size_t first_after(const tick_type since) const noexcept {
        const auto now_tick = now();
        std::size_t first{};

        // binary search on positions: the log is in tick order, the entries after `since` are its tail
        for (auto count = log.size(); count != 0u;) {
            const auto half = count / 2u;

            if (tick_after(log[first + half].tick, since, now_tick)) {
                count = half;
            } else {
                first += half + 1u;
                count -= half + 1u;
            }
        }

        return first;
    }

    /// Number of log entries.
    [[nodiscard]] std::size_t log_size() const noexcept { return log.size(); }

    /// The log entry at `pos`.
    [[nodiscard]] const change_entry<Entity> &entry(const std::size_t pos) const noexcept { return log[pos]; }

    /// Bytes allocated for ticks and log: their pages and page tables.
    [[nodiscard]] std::size_t memory() const noexcept { return ticks.memory() + log.memory(); }

    /// While a walk of the log runs, changes append but never compact (the walk reads entries by position).
    mutable std::uint32_t walking{};

private:
    ticks_type ticks;
    log_type log;
    const tick_type *clock{};
    tick_type local{1u};
};

} // namespace internal

} // namespace tessera

#endif
