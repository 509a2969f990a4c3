// Configuration macros. Every macro may be defined by the user before the first tessera include,
// and must then have the same value in every translation unit of the program.
#ifndef TESSERA_CONFIG_CONFIG_HPP
#define TESSERA_CONFIG_CONFIG_HPP

#include "version.hpp"
#include <cstdint>

/// True when the default TESSERA_ASSERT checks: always, except under TESSERA_DISABLE_ASSERT and under NDEBUG without
/// TESSERA_ASSERT_ALWAYS_ON. Read it, do not define it. It may select what a function body does (how a message is
/// built), never a member, a base class or an exception specification: see TESSERA_DEBUG_ITERATION for that.
#if defined(TESSERA_DISABLE_ASSERT) || (defined(NDEBUG) && !defined(TESSERA_ASSERT_ALWAYS_ON))
#    define TESSERA_ASSERT_ENABLED 0
#else
#    define TESSERA_ASSERT_ENABLED 1
#endif

/// TESSERA_ASSERT(condition, message): the check behind every precondition of the library. The default prints
/// `message` (a C string, often built at run time) with the file, line and function to stderr, then aborts; it
/// vanishes when TESSERA_ASSERT_ENABLED is 0. A user definition (for example one that throws) is kept.
/// TESSERA_DISABLE_ASSERT turns every check off, even a user-defined one.
#if defined(TESSERA_DISABLE_ASSERT)
#    undef TESSERA_ASSERT
#    define TESSERA_ASSERT(condition, message) (void(0))
#elif !defined(TESSERA_ASSERT) && !TESSERA_ASSERT_ENABLED
#    define TESSERA_ASSERT(condition, message) (void(0))
#elif !defined(TESSERA_ASSERT)
#    include <cstdio>
#    include <cstdlib>

namespace tessera::internal {

/// Reports a failed TESSERA_ASSERT and aborts. Out of line and cold, so that a check costs its call sites one
/// test and one call, whatever the formatting.
#    if defined(__GNUC__) || defined(__clang__)
[[noreturn, gnu::cold, gnu::noinline]]
#    else
[[noreturn]]
#    endif
inline void
assert_failure(const char *message, const char *file, const int line, const char *function) noexcept {
    std::fprintf(stderr, "%s:%d: %s: tessera check failed: %s\n", file, line, function, message);
    std::fflush(stderr);
    std::abort();
}

} // namespace tessera::internal

#    define TESSERA_ASSERT(condition, message)                                                                         \
        ((condition) ? static_cast<void>(0)                                                                            \
                     : ::tessera::internal::assert_failure((message), __FILE__, __LINE__, __func__))
#endif

/// TESSERA_DEBUG_ITERATION: 1 turns on the detection of iterations invalidated by a modification (the iteration rules
/// of docs/thread_safety.md), 0 (the default) leaves it out. It adds members and a base class to sparse sets,
/// storages and their iterators, to views' and groups' iterators: it changes the ABI, so every translation unit
/// of a program must agree on it. A broken rule is reported through TESSERA_ASSERT, so nothing fires where that
/// check is off (the bookkeeping is still kept).
#ifndef TESSERA_DEBUG_ITERATION
#    define TESSERA_DEBUG_ITERATION 0
#endif

/// TESSERA_DEBUG_RACES: 1 turns on the detection of data races on pools (two threads using one pool in a way
/// docs/thread_safety.md forbids; design in entity/race_guard.hpp), 0 (the default) leaves it out. It adds a member
/// to sparse sets: it changes the ABI, so every translation unit of a program must agree on it. A race is reported
/// through TESSERA_ASSERT, so nothing fires where that check is off.
#ifndef TESSERA_DEBUG_RACES
#    define TESSERA_DEBUG_RACES 0
#endif

// TESSERA_RACES_ABI: with TESSERA_DEBUG_RACES at 1, an ABI tag on the sparse set and the registry (g++ and clang),
// so that their mangled names, and those of every function that takes them, differ between the two settings:
// units compiled with different values then fail to link instead of sharing objects of different layouts.
#if TESSERA_DEBUG_RACES && (defined(__GNUC__) || defined(__clang__))
#    define TESSERA_RACES_ABI [[gnu::abi_tag("tessera_debug_races")]]
#else
#    define TESSERA_RACES_ABI
#endif

/// The integer type of names: hashed strings, type hashes, pool and context-variable names.
#ifndef TESSERA_ID_TYPE
#    define TESSERA_ID_TYPE std::uint32_t
#endif

/// Entries in one page of a sparse array. A power of two.
#ifndef TESSERA_SPARSE_PAGE
#    define TESSERA_SPARSE_PAGE 4096
#endif

/// Default number of elements in one page of a component's packed array. A power of two.
#ifndef TESSERA_PACKED_PAGE
#    define TESSERA_PACKED_PAGE 1024
#endif

/// Largest number of component pages allocated together, in one block. A power of two; 1 allocates every page
/// on its own.
#ifndef TESSERA_PAGE_BLOCK
#    define TESSERA_PAGE_BLOCK 8
#endif

static_assert((TESSERA_SPARSE_PAGE & (TESSERA_SPARSE_PAGE - 1)) == 0 && TESSERA_SPARSE_PAGE > 0,
              "TESSERA_SPARSE_PAGE must be a power of two");
static_assert((TESSERA_PACKED_PAGE & (TESSERA_PACKED_PAGE - 1)) == 0 && TESSERA_PACKED_PAGE > 0,
              "TESSERA_PACKED_PAGE must be a power of two");
static_assert((TESSERA_PAGE_BLOCK & (TESSERA_PAGE_BLOCK - 1)) == 0 && TESSERA_PAGE_BLOCK > 0,
              "TESSERA_PAGE_BLOCK must be a power of two");

// Unrolls the loop that follows by four. The innermost loops over one page of elements are a handful of
// instructions; unrolled, their speed no longer depends on where the compiler happens to place them (a loop that
// straddles a fetch boundary runs at half speed on some cores).
#if defined(__clang__)
#    define TESSERA_UNROLL_LOOP _Pragma("unroll 4")
#elif defined(__GNUC__)
#    define TESSERA_UNROLL_LOOP _Pragma("GCC unroll 4")
#else
#    define TESSERA_UNROLL_LOOP
#endif

// TESSERA_FORCE_INLINE: the helpers of the iteration loops (lookups, element access) are tiny but sit in loops
// over millions of entities; inlining them is what keeps the loops tight, and large callers tempt the compiler to
// stop inlining. Define it as `inline` to leave the choice to the compiler.
#ifndef TESSERA_FORCE_INLINE
#    if defined(__GNUC__) || defined(__clang__)
#        define TESSERA_FORCE_INLINE [[gnu::always_inline]] inline
#    else
#        define TESSERA_FORCE_INLINE inline
#    endif
#endif

// TESSERA_NOINLINE: keeps a branch that the default path never takes out of the loops that inline the rest.
#ifndef TESSERA_NOINLINE
#    if defined(__GNUC__) || defined(__clang__)
#        define TESSERA_NOINLINE [[gnu::noinline]]
#    else
#        define TESSERA_NOINLINE
#    endif
#endif

// TESSERA_FLATTEN: inlines everything a function calls into it (g++'s and clang's `flatten`), for the few loops
// whose cost is their calls (the command buffer's apply loop, docs/command_buffers.md). Under a sanitizer it is
// empty: the instrumentation of a flattened body made one test unit take 30x longer to build under g++'s ASan,
// and sanitized builds are not where speed is measured. Define it as empty to save build time elsewhere too.
#ifndef TESSERA_FLATTEN
#    if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#        define TESSERA_FLATTEN
#    elif defined(__has_feature)
#        if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#            define TESSERA_FLATTEN
#        endif
#    endif
#endif
#ifndef TESSERA_FLATTEN
#    if defined(__GNUC__) || defined(__clang__)
#        define TESSERA_FLATTEN [[gnu::flatten]]
#    else
#        define TESSERA_FLATTEN
#    endif
#endif

// TESSERA_NO_ETO: when defined, empty types are stored like any other type (no empty-type optimization).
// TESSERA_USE_ATOMIC: when defined, the global counters behind type_index and family are atomic.

#ifdef TESSERA_USE_ATOMIC
#    include <atomic>
namespace tessera::internal {
template<typename Type>
using maybe_atomic = std::atomic<Type>;
} // namespace tessera::internal
#else
namespace tessera::internal {
template<typename Type>
using maybe_atomic = Type;
} // namespace tessera::internal
#endif

#endif
