// Hand-offs for ThreadSanitizer: Debian's oneTBB is not built with TSan, so TSan does not see that oneTBB orders a
// task after the code that spawned it, nor the caller's return after the tasks it waited for. The executor and
// parallel_each state that order themselves through these calls of TSan's interface; in any other build they are
// empty. test/execution/tsan.supp covers what happens inside oneTBB before a task can say so.
#ifndef TESSERA_EXECUTION_TSAN_HPP
#define TESSERA_EXECUTION_TSAN_HPP

#if defined(__SANITIZE_THREAD__)
#    define TESSERA_EXECUTION_TSAN 1
#elif defined(__has_feature)
#    if __has_feature(thread_sanitizer)
#        define TESSERA_EXECUTION_TSAN 1
#    endif
#endif
#ifdef TESSERA_EXECUTION_TSAN
extern "C" void __tsan_acquire(void *addr);
extern "C" void __tsan_release(void *addr);
#endif

namespace tessera::execution::internal {

/// Under ThreadSanitizer, everything this thread did so far happens before a later handoff_acquire(gate).
inline void handoff_release([[maybe_unused]] void *gate) noexcept {
#ifdef TESSERA_EXECUTION_TSAN
    __tsan_release(gate);
#endif
}

/// Under ThreadSanitizer, this thread now sees what came before handoff_release(gate).
inline void handoff_acquire([[maybe_unused]] void *gate) noexcept {
#ifdef TESSERA_EXECUTION_TSAN
    __tsan_acquire(gate);
#endif
}

/// handoff_release(gate) when the scope ends, by return or by an exception.
struct release_at_exit {
    void *gate;

    explicit release_at_exit(void *which) noexcept : gate{which} {}
    release_at_exit(const release_at_exit &) = delete;
    release_at_exit &operator=(const release_at_exit &) = delete;
    ~release_at_exit() { handoff_release(gate); }
};

/// handoff_acquire(gate) when the scope ends, by return or by an exception.
struct acquire_at_exit {
    void *gate;

    explicit acquire_at_exit(void *which) noexcept : gate{which} {}
    acquire_at_exit(const acquire_at_exit &) = delete;
    acquire_at_exit &operator=(const acquire_at_exit &) = delete;
    ~acquire_at_exit() { handoff_acquire(gate); }
};

} // namespace tessera::execution::internal

#endif
