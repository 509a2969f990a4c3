// The playback behind a parallel apply of command buffers (tessera::execution::apply, docs/command_buffers.md).
// Two walks: admit goes over every command of the buffers in order, on one thread, and does what the entity storage
// must see in order (creates, releases, whether each command's entity is valid at its turn); then each pool acts on
// the commands listed for it, in order, one call per pool, and the calls may run at once. The registry ends as if
// the buffers were applied one after the other. Core code, no threads: the execution module schedules act().
#ifndef TESSERA_ENTITY_COMMANDS_PLAYBACK_HPP
#define TESSERA_ENTITY_COMMANDS_PLAYBACK_HPP

#include "../../config/config.hpp"
#include "../../config/std_parts.hpp"
#include "../command_buffer.hpp"
#include <atomic>
#include <cstddef>
#include <exception>
#include <vector>

namespace tessera::internal {

/// One parallel apply of command buffers to a registry: admit(buffer) for each buffer in order, then act(pool) for
/// each of pools() (concurrently if wanted), then finish(). Valid only where playable(registry) holds.
template<typename Registry>
class command_playback {
    using buffer_type = basic_command_buffer<Registry>;
    using common_type = typename Registry::common_type;
    using alloc_traits = std::allocator_traits<typename Registry::allocator_type>;
    using plan_type = typename buffer_type::plan_type;
    using planned_run = typename buffer_type::planned_run;

public:
    /// True if the pools may act on their own: no listener watches the registry (signals have an order; a group
    /// listens to its pools) and no entity is disabled (a component emplaced on one would follow its state, which
    /// another pool holds).
    [[nodiscard]] static bool playable(const Registry &registry) noexcept { return buffer_type::playable(registry); }

    /// A playback on `registry`, which must be playable.
    explicit command_playback(Registry &registry)
        : target{&registry}, plan{registry.get_allocator()}, buffers{registry.get_allocator()},
          acting{registry.get_allocator()} {
        TESSERA_ASSERT(playable(registry),
                       "command_playback: a listener watches the registry or an entity is disabled; apply the "
                       "buffers one after the other");
    }

    command_playback(const command_playback &) = delete;
    command_playback &operator=(const command_playback &) = delete;

    /// Leaves every admitted buffer empty, if finish() was not called; values no pool took are destroyed.
    ~command_playback() { release(); }

    /// Admits the commands of `buffer`, after those of the buffers admitted before. Returns false, with the first
    /// exception kept for finish(), if something threw: the buffer then behaves as apply() (the commands before
    /// the one that threw apply, the others are dropped) or, if it threw before the first command, is left as it
    /// was; the caller must admit no further buffer.
    bool admit(buffer_type &buffer) {
        TESSERA_ASSERT(!buffer.applying, "execution::apply: a buffer is listed twice, or is being applied");
        TESSERA_ASSERT(error == nullptr, "command_playback: admit after a failure");

        try {
            buffers.reserve(buffers.size() + 1u);
            buffer.resolved.clear();
            buffer.resolved.reserve(buffer.created);
            buffer.resolved_base = buffer.base;
        } catch (...) {
            error = std::current_exception();
            return false;
        }

        buffers.push_back(&buffer);
        buffer.applying = true;
        typename buffer_type::apply_state state{target, &buffer, nullptr, 0u, buffer_type::walk_mode::admit, &plan};
        std::size_t pos{};

        try {
            buffer.walk(state, pos, buffer.chunks.empty() ? nullptr : buffer.chunks.front().data);
        } catch (...) {
            // the runs before the one that threw are listed and will act; that one and the rest are dropped
            buffer.discard(pos, state.next);
            error = std::current_exception();
        }

        skipped += state.skipped;
        return error == nullptr;
    }

    /// The pools that act(pool) must be called for, once each: every pool of the registry if a buffer destroys,
    /// otherwise those that the commands name. Fills the list on its first call.
    [[nodiscard]] const std::vector<common_type *, typename alloc_traits::template rebind_alloc<common_type *>> &
    pools() {
        if (acting.empty()) {
            const bool destroys =
                std::any_of(plan.cbegin(), plan.cend(), [](const auto &run) { return run.pool == nullptr; });

            if (destroys) {
                for (auto [id, pool] : target->storage()) {
                    acting.push_back(&pool);
                }
            } else {
                for (const auto &run : plan) {
                    if (std::find(acting.cbegin(), acting.cend(), run.pool) == acting.cend()) {
                        acting.push_back(run.pool);
                    }
                }
            }
        }

        return acting;
    }

    /// Plays the commands listed for `pool`, in recorded order; may run concurrently with act() on other pools.
    /// If a command throws, the exception is kept for finish() (the first one of all), the later commands of this
    /// pool are dropped, and the destroys still remove their entities from it.
    void act(common_type &pool) noexcept {
        bool failed = false;
        std::size_t done{};

        for (auto &run : plan) {
            if (run.pool != nullptr && run.pool != &pool) {
                continue;
            }

            // a failed run drops its values; later runs of this pool are only dropped, save the destroys
            try {
                if (run.pool == nullptr) {
                    pool.remove(run.buffer->doomed_at(run.to), run.buffer->doomed_at(run.from));
                } else {
                    run.played = true;
                    done += run.act(*target, pool, *run.run, failed);
                }
            } catch (...) {
                failed = true;

                if (!failure.test_and_set()) {
                    act_error = std::current_exception();
                }
            }
        }

        pool_skipped.fetch_add(done, std::memory_order_relaxed);
    }

    /// Leaves every admitted buffer empty with its memory kept, then rethrows the first exception of admit or act.
    /// Otherwise returns how many commands were skipped, as apply() counts them.
    std::size_t finish() {
        release();

        if (error != nullptr) {
            std::rethrow_exception(error);
        }

        if (act_error != nullptr) {
            std::rethrow_exception(act_error);
        }

        return skipped + pool_skipped.load(std::memory_order_relaxed);
    }

private:
    // drops the values of the runs no pool played, then empties the buffers
    void release() noexcept {
        for (auto &run : plan) {
            if (run.pool != nullptr && !run.played) {
                run.played = true;
                run.act(*target, *run.pool, *run.run, true);
            }
        }

        for (auto *buffer : buffers) {
            buffer->reset();
        }

        buffers.clear();
    }

    Registry *target;
    plan_type plan;
    std::vector<buffer_type *, typename alloc_traits::template rebind_alloc<buffer_type *>> buffers;
    std::vector<common_type *, typename alloc_traits::template rebind_alloc<common_type *>> acting;
    std::exception_ptr error{};
    std::exception_ptr act_error{};
    std::atomic_flag failure{};
    std::atomic<std::size_t> pool_skipped{};
    std::size_t skipped{};
};

} // namespace tessera::internal

#endif
