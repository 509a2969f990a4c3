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

/// Handoff(gate) when the scope ends, by return or by an exception.
template<void (*Handoff)(void *) noexcept>
class handoff_at_exit {
public:
    /// Calls Handoff(gate) at the end of the scope.
    explicit handoff_at_exit(void *const which) noexcept : gate{which} {}

    handoff_at_exit(const handoff_at_exit &) = delete;
    handoff_at_exit &operator=(const handoff_at_exit &) = delete;
    ~handoff_at_exit() { Handoff(gate); }

private:
    void *gate;
};

/// handoff_release(gate) when the scope ends.
using release_at_exit = handoff_at_exit<&handoff_release>;

/// handoff_acquire(gate) when the scope ends.
using acquire_at_exit = handoff_at_exit<&handoff_acquire>;

} // namespace tessera::execution::internal

#endif
