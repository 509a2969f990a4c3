// Detection of data races on pools, compiled only when TESSERA_DEBUG_RACES is 1 (see config.hpp and
// docs/configuration.md). It catches two threads that use one pool at the same time in a way that
// docs/thread_safety.md forbids, and reports it through TESSERA_ASSERT with a message that names the pool's type and
// both operations.
//
// Design. Every sparse set holds a race_guard: atomic counts of the readers, the writers and the parallel passes
// that use the pool right now, and the name of the latest operation of each kind. Writers are the structural
// changes of the pool (emplace, insert, erase, remove, clear, sort, compact, shrink_to_fit...) and the value writes
// that fire signals (patch, replace, emplace_or_replace). Readers are the iteration passes (each(func) of views and
// groups) and the registry's get, try_get, all_of, any_of. A parallel pass (race_read_scope, held by a parallel
// algorithm for its whole run) forbids every writer, on every thread, its own included: its callbacks run on
// several threads at once.
//
// An operation first adds itself to its count, then reads the others (sequentially consistent atomics): of two
// operations that overlap, at least one sees the other and fails, before it changes anything. Readers never
// conflict with readers. The same thread may nest operations on one pool (a listener of emplace calling get, a
// callback of each(func) patching the pool it walks, a nested each): each thread keeps, in a small thread-local
// table, how many reads and writes it holds on each pool, and only the holds of other threads count against it.
// The reads of get, try_get and the like run no user code, so they cannot nest and take no entry in that table.
//
// Not covered: element writes through references (a view's callback or get() on two threads writing the same
// element) are not tracked element by element, iterators and ranges (begin()/end(), each()) are not readers, and
// what the registry shares beyond its pools (the pool table, the context, the signals' lists of listeners) has no
// guard of its own.
//
// Cost: 48 bytes per sparse set, two atomic increments and decrements plus a few loads per guarded
// operation, a thread-local lookup for the nesting ones. With TESSERA_DEBUG_RACES at 0 none of it exists.
#ifndef TESSERA_ENTITY_CHECKS_RACE_GUARD_HPP
#define TESSERA_ENTITY_CHECKS_RACE_GUARD_HPP

#include "../../config/config.hpp"

#if TESSERA_DEBUG_RACES
#    include <array>
#    include <atomic>
#    include <cstddef>
#    include <cstdint>
#    include <string>
#    include <string_view>
#    include <tuple>
#    include <type_traits>

namespace tessera::internal {

class race_guard;

/// What one thread holds on one pool: its nested reads and writes.
struct race_hold {
    /// The pool's guard; null for a free slot.
    const race_guard *guard{};
    /// Reads (iteration passes) this thread holds on the pool.
    std::uint32_t reads{};
    /// Writes this thread holds on the pool.
    std::uint32_t writes{};
};

/// How many pools one thread may hold at once, nested operations on one pool counting once.
inline constexpr std::size_t race_hold_capacity = 32u;

/// The holds of the calling thread.
struct race_holds {
    /// One slot per pool held, the first `count` in use.
    std::array<race_hold, race_hold_capacity> slots{};
    /// Slots in use.
    std::size_t count{};

    /// The calling thread's table.
    [[nodiscard]] static race_holds &local() noexcept {
        thread_local race_holds table{};
        return table;
    }

    /// The hold on `guard`, or an empty one (a copy) if the thread holds nothing on it.
    [[nodiscard]] race_hold find(const race_guard *guard) const noexcept {
        for (std::size_t pos{}; pos < count; ++pos) {
            if (slots[pos].guard == guard) {
                return slots[pos];
            }
        }

        return race_hold{};
    }

    /// Checks, before a guard counts anything, that the thread has room to hold one more pool.
    void make_room(const race_guard *guard) const {
        TESSERA_ASSERT(count < race_hold_capacity || find(guard).guard != nullptr,
                       "race detection: one thread holds more than 32 pools at once (nested iterations and writes "
                       "of that many pools; see docs/thread_safety.md)");
    }

    /// Adds one read or one write on `guard` to the thread's holds (nothing if there is no room: see make_room).
    void add(const race_guard *guard, const bool write) noexcept {
        std::size_t pos{};

        while (pos < count && slots[pos].guard != guard) {
            ++pos;
        }

        if (pos == count) {
            if (count == race_hold_capacity) {
                return;
            }

            slots[count++] = race_hold{guard, 0u, 0u};
        }

        ++(write ? slots[pos].writes : slots[pos].reads);
    }

    /// Takes one read or one write on `guard` back; the slot is freed when it holds nothing more.
    void remove(const race_guard *guard, const bool write) noexcept {
        for (std::size_t pos{}; pos < count; ++pos) {
            if (auto &slot = slots[pos]; slot.guard == guard) {
                --(write ? slot.writes : slot.reads);

                if (slot.reads == 0u && slot.writes == 0u) {
                    slot = slots[--count];
                    slots[count] = race_hold{};
                }

                return;
            }
        }
    }
};

/// The message of a race: `operation` on the pool of `name` met `other`, which another thread holds.
[[nodiscard]] inline const char *race_message(const char *operation, const std::string_view name, const char *what,
                                              const char *other) {
    thread_local std::string message;
    message = std::string{operation} + " on the pool of " + std::string{name} + " while another thread " + what +
              " it (" + (other != nullptr ? other : "an operation") +
              "); see docs/thread_safety.md, \"Race detection with TESSERA_DEBUG_RACES\"";
    return message.c_str();
}

/// The name of a pool in messages: its element type, or "identifiers" for the sets without elements (the entity
/// storage, the member sets of non-owning groups), whose element type reads "void".
template<typename Pool>
[[nodiscard]] std::string_view race_pool_name(const Pool &pool) noexcept {
    const std::string_view name = pool.info().name();
    return name == "void" ? std::string_view{"identifiers"} : name;
}

/// The per-pool counts of race detection (see the top of this file). Copies start free: a pool built from another
/// does not inherit its users.
class race_guard {
    // a failed check takes its own count back before reporting, so that an assertion that throws leaves the
    // guard as it was; if the report returns (checks off), the operation goes on and keeps its count
    void fail(std::atomic<std::uint32_t> &mine, const char *operation, const std::string_view name, const char *what,
              const std::atomic<const char *> &other) const {
        mine.fetch_sub(1u);
        TESSERA_ASSERT(false, race_message(operation, name, what, other.load()));
        mine.fetch_add(1u);
    }

    // the check of every reader and pass, made after counting itself: writers of other threads only
    void check_writers(std::atomic<std::uint32_t> &mine, const char *operation, const std::string_view name) const {
        if (const auto active = writers.load(); active != 0u && active != race_holds::local().find(this).writes) {
            fail(mine, operation, name, "modifies", writer_operation);
        }
    }

public:
    /// A guard nobody holds.
    race_guard() noexcept = default;

    /// A guard nobody holds: users stay with the original.
    race_guard(const race_guard &) noexcept {}

    /// Keeps this guard's users.
    race_guard &operator=(const race_guard &) noexcept { return *this; }

    /// Nobody holds the guard any more.
    ~race_guard() = default;

    /// Starts a write on the pool of `name`: fails if another thread reads or writes it, or if a parallel pass
    /// walks it (whatever the thread).
    void enter_write(const char *operation, const std::string_view name) const {
        auto &holds = race_holds::local();
        holds.make_room(this);
        writers.fetch_add(1u);
        const auto mine = holds.find(this);

        if (passes.load() != 0u) {
            fail(writers, operation, name, "runs a parallel pass over", pass_operation);
        } else if (readers.load() != mine.reads) {
            fail(writers, operation, name, "reads", reader_operation);
        } else if (glimpses.load() != 0u) {
            // a read that runs no user code cannot be this thread's own
            fail(writers, operation, name, "reads", glimpse_operation);
        } else if (writers.load() != mine.writes + 1u) {
            fail(writers, operation, name, "modifies", writer_operation);
        }

        holds.add(this, true);
        writer_operation.store(operation);
    }

    /// Ends a write started by enter_write.
    void leave_write() const noexcept {
        race_holds::local().remove(this, true);
        writers.fetch_sub(1u);
    }

    /// Starts an iteration pass over the pool of `name`: fails if another thread writes it.
    void enter_read(const char *operation, const std::string_view name) const {
        auto &holds = race_holds::local();
        holds.make_room(this);
        // readers name themselves first, so that a writer that sees the count likely sees the name too
        reader_operation.store(operation);
        readers.fetch_add(1u);
        check_writers(readers, operation, name);
        holds.add(this, false);
    }

    /// Ends a pass started by enter_read.
    void leave_read() const noexcept {
        race_holds::local().remove(this, false);
        readers.fetch_sub(1u);
    }

    /// A read that runs no user code (get, try_get, all_of): fails if another thread writes the pool now.
    void check_read(const char *operation, const std::string_view name) const {
        glimpse_operation.store(operation);
        glimpses.fetch_add(1u);
        check_writers(glimpses, operation, name);
        glimpses.fetch_sub(1u);
    }

    /// Starts a parallel pass over the pool of `name`: fails if another thread writes it. Until leave_pass, every
    /// write fails.
    void enter_pass(const char *operation, const std::string_view name) const {
        pass_operation.store(operation);
        passes.fetch_add(1u);
        check_writers(passes, operation, name);
    }

    /// Ends a pass started by enter_pass.
    void leave_pass() const noexcept { passes.fetch_sub(1u); }

private:
    mutable std::atomic<std::uint32_t> readers{};
    mutable std::atomic<std::uint32_t> writers{};
    mutable std::atomic<std::uint32_t> passes{};
    // the reads that run no user code (check_read), counted apart so that they do not hide the name of a pass
    mutable std::atomic<std::uint32_t> glimpses{};
    mutable std::atomic<const char *> reader_operation{};
    mutable std::atomic<const char *> writer_operation{};
    mutable std::atomic<const char *> pass_operation{};
    mutable std::atomic<const char *> glimpse_operation{};
};

/// A write on one pool for the lifetime of the object (see race_guard::enter_write). `Pool` is a sparse set or a
/// storage.
class race_write_scope {
public:
    /// Starts `operation` on `pool`.
    template<typename Pool>
    race_write_scope(const Pool &pool, const char *operation) : guard{&pool.race_detection()} {
        guard->enter_write(operation, race_pool_name(pool));
    }

    race_write_scope(const race_write_scope &) = delete;
    race_write_scope &operator=(const race_write_scope &) = delete;

    /// Ends the write.
    ~race_write_scope() { guard->leave_write(); }

private:
    const race_guard *guard;
};

/// A read of `operation` on `*pool` that runs no user code (see race_guard::check_read); nothing if `pool` is null.
template<typename Pool>
void race_check_read(const Pool *pool, const char *operation) {
    if (pool != nullptr) {
        pool->race_detection().check_read(operation, race_pool_name(*pool));
    }
}

/// What a race_scope holds: the pools it entered, left when it ends. A member of its own, so that the pools
/// entered before one that fails are left when the scope's constructor throws.
template<std::size_t Count, bool Pass>
struct race_scope_entries {
    /// Pools entered, the first `entered` of them.
    std::array<const race_guard *, Count> guards{};
    /// Pools entered so far.
    std::size_t entered{};

    race_scope_entries() noexcept = default;
    race_scope_entries(const race_scope_entries &) = delete;
    race_scope_entries &operator=(const race_scope_entries &) = delete;

    /// Leaves every pool entered.
    ~race_scope_entries() {
        for (std::size_t pos{}; pos < entered; ++pos) {
            if constexpr (Pass) {
                guards[pos]->leave_pass();
            } else {
                guards[pos]->leave_read();
            }
        }
    }
};

/// Holds pools for the lifetime of the object: an iteration pass (`Pass` false, race_guard::enter_read) or a
/// parallel pass (`Pass` true, race_guard::enter_pass). Null pools (the unset slots of a view) are skipped.
template<std::size_t Count, bool Pass>
class race_scope {
    template<typename Pool>
    void enter(const char *operation, const Pool *pool) {
        if (pool != nullptr) {
            if constexpr (Pass) {
                pool->race_detection().enter_pass(operation, race_pool_name(*pool));
            } else {
                pool->race_detection().enter_read(operation, race_pool_name(*pool));
            }

            entries.guards[entries.entered++] = &pool->race_detection();
        }
    }

public:
    /// Starts `operation` over the pools (pointers to sparse sets or storages, possibly null).
    template<typename... Pool>
    explicit race_scope(const char *operation, const Pool *...pools) {
        static_assert(sizeof...(Pool) <= Count, "race_scope: more pools than the scope has room for");
        (enter(operation, pools), ...);
    }

    /// Starts `operation` over the pools of a tuple of pointers.
    template<typename... Pool>
    race_scope(const char *operation, const std::tuple<Pool *...> &pools) {
        // a default capture: with no pool at all, `this` goes unused
        std::apply([&](const auto *...pool) { (enter(operation, pool), ...); }, pools);
    }

private:
    race_scope_entries<Count, Pass> entries;
};

/// A parallel pass over pools for the lifetime of the object: parallel algorithms hold one over every pool they
/// walk for their whole run, so that no thread changes those pools under them (see race_guard::enter_pass).
/// Null pools are skipped.
template<std::size_t Count>
class race_read_scope : public race_scope<Count, true> {
public:
    /// Starts `operation` (the algorithm's name, for messages) over the pools: pointers to sparse sets or storages.
    template<typename... Pool>
    explicit race_read_scope(const char *operation, const Pool *...pools)
        : race_scope<Count, true>{operation, pools...} {}

    /// Starts `operation` over the pools of a tuple of pointers (a view's or a group's pools).
    template<typename... Pool>
    race_read_scope(const char *operation, const std::tuple<Pool *...> &pools)
        : race_scope<Count, true>{operation, pools} {}
};

template<typename... Pool>
race_read_scope(const char *, const Pool *...) -> race_read_scope<sizeof...(Pool)>;

template<typename... Pool>
race_read_scope(const char *, const std::tuple<Pool *...> &) -> race_read_scope<sizeof...(Pool)>;

} // namespace tessera::internal

/// TESSERA_DEBUG_RACES only: holds a write of `operation` on `pool` until the end of the enclosing block.
#    define TESSERA_RACE_WRITE(pool, operation)                                                                        \
        const ::tessera::internal::race_write_scope tessera_race_write_scope_ { (pool), (operation) }
/// TESSERA_DEBUG_RACES only: holds a parallel pass of `operation` over the pools that follow (pointers, or one tuple
/// of pointers) until the end of the block: parallel algorithms use it, and it vanishes with the macro at 0.
#    define TESSERA_RACE_PASS(operation, ...)                                                                          \
        const ::tessera::internal::race_read_scope tessera_race_pass_scope_ { (operation), __VA_ARGS__ }
/// TESSERA_DEBUG_RACES only: checks a read of `operation` on the pool `pool` points to (if any), a read that runs no
/// user code.
#    define TESSERA_RACE_READ(pool, operation) ::tessera::internal::race_check_read((pool), (operation))
/// TESSERA_DEBUG_RACES only: holds an iteration pass over a tuple of pool pointers until the end of the block.
#    define TESSERA_RACE_ITERATE(pools, operation)                                                                     \
        const ::tessera::internal::race_scope<std::tuple_size_v<std::remove_cvref_t<decltype(pools)>>, false>          \
            tessera_race_iteration_scope_ {                                                                            \
            (operation), (pools)                                                                                       \
        }
#else
#    define TESSERA_RACE_WRITE(pool, operation) static_cast<void>(0)
#    define TESSERA_RACE_READ(pool, operation) static_cast<void>(0)
#    define TESSERA_RACE_PASS(operation, ...) static_cast<void>(0)
#    define TESSERA_RACE_ITERATE(pools, operation) static_cast<void>(0)
#endif

#endif
