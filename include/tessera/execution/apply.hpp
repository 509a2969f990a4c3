// execution::apply: command buffers applied to a registry with the pools' work spread over oneTBB's threads. One
// thread walks every command first (creates, releases, and whether each command's entity is valid at its turn);
// then one task per pool plays that pool's commands in recorded order. Part of the optional execution module
// (target tessera::execution); docs/command_buffers.md ("Applying on several threads") gives the rules.
#ifndef TESSERA_EXECUTION_APPLY_HPP
#define TESSERA_EXECUTION_APPLY_HPP

#include "../config/config.hpp"
#include "../entity/command_buffer.hpp"
#include "../entity/commands/playback.hpp"
#include "fwd.hpp"
#include "tsan.hpp"
#include <cstddef>
#include <functional>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <type_traits>

namespace tessera::execution {

namespace internal {

/// The body tbb::parallel_for runs for apply: task index i lets pool i play. As with parallel_each_body, oneTBB
/// copies it into its tasks unseen by ThreadSanitizer, so the copy constructor is written out (its reads are in a
/// frame of this type, which test/execution/tsan.supp names) and a task acquires `started` before anything else.
template<typename Playback>
class apply_body {
public:
    /// Lets the pools of `playback` play; acquires `begin` first, releases `end` at the end.
    apply_body(Playback &which, void *const begin, void *const end) noexcept
        : playback{&which}, started{begin}, finished{end} {}

    /// The same playback.
    [[gnu::noinline]] apply_body(const apply_body &other) noexcept
        : playback{other.playback}, started{other.started}, finished{other.finished} {}

    apply_body &operator=(const apply_body &) = delete;
    ~apply_body() = default;

    /// Lets the pools of the task indices in `part` play.
    [[gnu::noinline]] void operator()(const tbb::blocked_range<std::size_t> &part) const {
        const apply_body local = *this;
        handoff_acquire(local.started);
        const release_at_exit done{local.finished};
        const auto &pools = local.playback->pools();

        for (auto pos = part.begin(); pos != part.end(); ++pos) {
            local.playback->act(*pools[pos]);
        }
    }

private:
    Playback *playback;
    void *started;
    void *finished;
};

} // namespace internal

/// Applies the buffers of [first, last) to `registry`, in that order, and returns how many commands were skipped:
/// the registry ends as with buffer.apply(registry) for one buffer after the other (every pool's packed order, the
/// versions, the free list, what resolve() answers), and every buffer is left empty with its memory kept.
/// projection(*it) gives the buffer of an element (the element itself by default).
/// The pools play their commands on oneTBB's threads, one task per pool, once one thread has walked every command.
/// That needs a registry nobody listens to and no disabled entity; otherwise the buffers are applied one after the
/// other on the calling thread, with their signals. Values are moved and the functions of patch commands called on
/// any thread, concurrently with other pools' commands: they must touch nothing but their element.
/// If a command throws, the first exception propagates after every task has ended: while the first walk runs,
/// as with one apply after the other (the buffers after that one are left as they were); while the pools play,
/// the other pools still play all their commands, and the pool that threw drops its later commands but still
/// removes the destroyed entities.
template<typename Registry, typename It, typename Projection = std::identity>
std::size_t apply(Registry &registry, It first, const It last, Projection projection = {}) {
    static_assert(std::is_same_v<decltype(std::invoke(projection, *first)), basic_command_buffer<Registry> &>,
                  "execution::apply: the elements (through the projection, if any) must be command buffers of this "
                  "registry type, by reference");
    using playback_type = ::tessera::internal::command_playback<Registry>;
    std::size_t skipped{};

    if (!playback_type::playable(registry)) {
        for (; first != last; ++first) {
            skipped += std::invoke(projection, *first).apply(registry);
        }

        return skipped;
    }

    playback_type playback{registry};

    for (; first != last && playback.admit(std::invoke(projection, *first)); ++first) {
    }

    const auto &pools = playback.pools();

    if (pools.size() < 2u) {
        for (auto *pool : pools) {
            playback.act(*pool);
        }
    } else {
        // oneTBB's hand-offs, stated where ThreadSanitizer sees them (tessera/execution/tsan.hpp): the first walk
        // before every pool's task, every task before the return
        void *const started = static_cast<void *>(&playback);
        void *const finished = static_cast<void *>(&skipped);
        internal::handoff_release(started);
        const internal::acquire_at_exit joined{finished};
        tbb::parallel_for(tbb::blocked_range<std::size_t>{0u, pools.size(), 1u},
                          internal::apply_body<playback_type>{playback, started, finished});
    }

    return playback.finish();
}

/// apply(registry, buffers.begin(), buffers.end()): the buffers of a container, in its order.
template<typename Registry, typename Buffers>
std::size_t apply(Registry &registry, Buffers &buffers) {
    return apply(registry, buffers.begin(), buffers.end());
}

} // namespace tessera::execution

#endif
