// parallel_each: each(func) of a view or a group spread over oneTBB's worker threads. The leading storage's
// positions are cut into chunks (tessera/entity/chunk.hpp) and tbb::parallel_for hands the chunks out; every entity
// is visited once, by whichever thread runs its chunk. Part of the optional execution module (target
// tessera::execution); docs/parallel.md says what may run concurrently.
#ifndef TESSERA_EXECUTION_PARALLEL_EACH_HPP
#define TESSERA_EXECUTION_PARALLEL_EACH_HPP

#include "../config/config.hpp"
#include "../entity/checks/race_guard.hpp"
#include "../entity/chunk.hpp"
#include "fwd.hpp"
#include "tsan.hpp"
#include <cstddef>
#include <functional>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <type_traits>
#include <utility>

namespace tessera::execution {

namespace internal {

/// How many storages a view or a group reads (its storage<Index>() indices), for race detection.
template<typename>
inline constexpr std::size_t parallel_pool_count = 0u;

template<typename... Get, typename... Exclude>
inline constexpr std::size_t parallel_pool_count<basic_view<get_t<Get...>, exclude_t<Exclude...>>> = sizeof...(Get) +
                                                                                                     sizeof...(Exclude);

template<typename... Owned, typename... Get, typename... Exclude>
inline constexpr std::size_t parallel_pool_count<basic_group<owned_t<Owned...>, get_t<Get...>, exclude_t<Exclude...>>> =
    sizeof...(Owned) + sizeof...(Get) + sizeof...(Exclude);

/// The body tbb::parallel_for runs for parallel_each: task index i runs chunk (last - i). oneTBB copies it into its
/// tasks and hands them to other threads unseen by ThreadSanitizer, so reading a copy's fields is the only thing a
/// chunk does before its acquire: test/execution/tsan.supp names this type for those reads (docs/parallel.md). The
/// copy constructor is written out, rather than a memcpy, so that the reads oneTBB makes when it splits the work
/// are in a frame of this type too.
template<typename Range, typename Call>
class parallel_each_body {
public:
    /// Chunks (last - i) of `chunks` for the task indices i oneTBB gives, calling `func`. Each chunk acquires `begin`,
    /// which the caller released, and releases `end`, which the caller acquires.
    parallel_each_body(const Range &chunks, const std::size_t last_index, const Call func, void *const begin,
                       void *const end) noexcept
        : range{&chunks}, last{last_index}, call{func}, started{begin}, finished{end} {}

    /// The same chunks and callback.
    [[gnu::noinline]] parallel_each_body(const parallel_each_body &other) noexcept
        : range{other.range}, last{other.last}, call{other.call}, started{other.started}, finished{other.finished} {}

    parallel_each_body &operator=(const parallel_each_body &) = delete;
    ~parallel_each_body() = default;

    /// Runs the chunks of the task indices in `part`.
    [[gnu::noinline]] void operator()(const tbb::blocked_range<std::size_t> &part) const {
        const parallel_each_body local = *this;
        handoff_acquire(local.started);
        // what this chunk did happens before the caller's return, even when func throws. A gate of its own: were it
        // `started`, a chunk would seem ordered after every chunk another thread finished, hiding their races.
        const release_at_exit done{local.finished};
        for (auto index = part.begin(); index != part.end(); ++index) {
            (*local.range)[local.last - index].each(local.call);
        }
    }

private:
    const Range *range;
    std::size_t last;
    Call call;
    void *started;
    void *finished;
};

#if TESSERA_DEBUG_RACES
/// The parallel pass of race detection over every storage of a view or a group (null ones skipped).
template<typename ViewOrGroup, std::size_t... Index>
[[nodiscard]] auto parallel_pass(const ViewOrGroup &view, std::index_sequence<Index...>) {
    return ::tessera::internal::race_read_scope<sizeof...(Index)>{"parallel_each", view.template storage<Index>()...};
}
#endif

} // namespace internal

/// The chunk size parallel_each(view, func) uses: leading positions per chunk. On the seven systems of
/// bench/parallel.cpp at 10^6 entities (docs/parallel.md), 256 and 1024 paid oneTBB's per-task cost;
/// 4096 is the smallest size clear of it, leaving the most chunks to balance the threads.
inline constexpr std::size_t default_chunk_size = 4096u;

/// Calls func(entity, elements...) or func(elements...) for every entity of a view or a group, from several threads
/// at once: the callback forms of each(func). The leading positions are cut into chunks of `chunk_size`
/// (view.chunks(chunk_size)) that oneTBB distributes; the call returns when every chunk is done, and the writes of
/// func are then visible to the caller. func is shared by the threads and called concurrently: it may write the
/// elements it receives (distinct elements of one pool are distinct objects, docs/thread_safety.md) but must not
/// change any storage structurally. It is called through a const reference: a mutable lambda does not compile.
/// An exception thrown by func cancels the chunks not yet started and reaches the caller.
template<typename ViewOrGroup, typename Func>
void parallel_each(const ViewOrGroup &view, const std::size_t chunk_size, Func func) {
    static_assert(
        requires { view.chunks(chunk_size); },
        "parallel_each: the first argument must be a view or a group (a type with chunks(size))");
    const auto range = view.chunks(chunk_size);
    // one object for every thread: a const reference, so that a callback with mutable state is rejected at compile
    // time rather than raced on
    const auto call = std::cref(func);

    // task index i runs chunk (count - 1 - i): oneTBB runs the left part of a range first and a thread walks its
    // part upward, so the chunks go from the last one down, as each(func) walks. Consecutive chunks then form one
    // stream of falling addresses that the prefetchers follow; in chunk order every chunk restarts the streams (the
    // more-complex system of bench/parallel.cpp at 10^6 on one thread: 1.3 times the time of each(func) in chunk
    // order, 1.1 times this way)
    const auto last = range.size() - 1u;

#if TESSERA_DEBUG_RACES
    // a parallel pass over every storage the view or group reads: a structural change of any of them, from any
    // thread, fails until the pass ends (docs/thread_safety.md)
    const auto pass =
        internal::parallel_pass(view, std::make_index_sequence<internal::parallel_pool_count<ViewOrGroup>>{});
#endif

    // oneTBB's hand-offs, stated where ThreadSanitizer sees them (tessera/execution/tsan.hpp): this thread's work so
    // far before every chunk, every chunk before the return (or the exception)
    void *const started = const_cast<void *>(static_cast<const void *>(&range));
    void *const finished = const_cast<void *>(static_cast<const void *>(&last));
    internal::handoff_release(started);
    const internal::acquire_at_exit joined{finished};
    tbb::parallel_for(tbb::blocked_range<std::size_t>{0u, range.size()},
                      internal::parallel_each_body<std::remove_const_t<decltype(range)>, decltype(call)>{
                          range, last, call, started, finished});
}

/// parallel_each(view, default_chunk_size, func).
template<typename ViewOrGroup, typename Func>
void parallel_each(const ViewOrGroup &view, Func func) {
    parallel_each(view, default_chunk_size, std::move(func));
}

} // namespace tessera::execution

#endif
