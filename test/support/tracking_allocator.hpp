// tracking_allocator<T>: a standard allocator that records every allocation in an allocation_log, checks that
// each deallocation matches an earlier allocation of the same log, and can be told to fail (throw
// std::bad_alloc) after a number of successful allocations. For allocator-awareness and exception tests.
#ifndef TESSERA_TEST_SUPPORT_TRACKING_ALLOCATOR_HPP
#define TESSERA_TEST_SUPPORT_TRACKING_ALLOCATOR_HPP

#include <cstddef>
#include <limits>
#include <map>
#include <new>
#include <type_traits>

namespace tessera_test {

/// What a family of tracking allocators did. Allocators compare equal when they share a log.
struct allocation_log {
    /// Value of fail_after that never fails.
    static constexpr std::size_t never = std::numeric_limits<std::size_t>::max();

    /// Successful allocate() calls.
    std::size_t allocations{};
    /// deallocate() calls that matched a live allocation.
    std::size_t deallocations{};
    /// Bytes currently allocated.
    std::size_t live_bytes{};
    /// deallocate() calls with a pointer this log does not know, or with another size than allocated.
    std::size_t mismatches{};
    /// Number of allocations still allowed before allocate() throws std::bad_alloc (never: no limit).
    std::size_t fail_after{never};
    /// Live blocks: address -> bytes. Kept with the default allocator so that the log does not track itself.
    std::map<const void *, std::size_t> blocks{};

    /// Allocations not given back yet.
    [[nodiscard]] std::size_t live() const noexcept { return allocations - deallocations; }

    /// True if everything allocated was given back, with matching sizes.
    [[nodiscard]] bool balanced() const noexcept { return live() == 0u && live_bytes == 0u && mismatches == 0u; }

    /// The log used by default-constructed allocators.
    [[nodiscard]] static allocation_log &global() noexcept {
        static allocation_log log{};
        return log;
    }
};

/// A counting allocator over ::operator new, bound to an allocation_log. It propagates on copy and move
/// assignment and on swap, so containers keep using the log of the memory they own.
template<typename Type>
class tracking_allocator {
    template<typename>
    friend class tracking_allocator;

public:
    using value_type = Type;
    using propagate_on_container_copy_assignment = std::true_type;
    using propagate_on_container_move_assignment = std::true_type;
    using propagate_on_container_swap = std::true_type;
    using is_always_equal = std::false_type;

    /// Uses allocation_log::global().
    tracking_allocator() noexcept : log_{&allocation_log::global()} {}

    /// Records into the given log.
    explicit tracking_allocator(allocation_log &log) noexcept : log_{&log} {}

    /// Rebinding keeps the log.
    template<typename Other>
    tracking_allocator(const tracking_allocator<Other> &other) noexcept : log_{other.log_} {}

    /// Allocates room for `count` objects, or throws std::bad_alloc once the log's budget is spent.
    [[nodiscard]] Type *allocate(const std::size_t count) {
        if (log_->fail_after == 0u) {
            throw std::bad_alloc{};
        }

        if (log_->fail_after != allocation_log::never) {
            --log_->fail_after;
        }

        const auto bytes = count * sizeof(Type);
        auto *ptr = static_cast<Type *>(::operator new (bytes, std::align_val_t{alignof(Type)}));

        try {
            log_->blocks.emplace(ptr, bytes);
        } catch (...) {
            ::operator delete (ptr, std::align_val_t{alignof(Type)});
            throw;
        }

        ++log_->allocations;
        log_->live_bytes += bytes;
        return ptr;
    }

    /// Gives a block back; a block the log does not know (or a wrong size) counts as a mismatch.
    void deallocate(Type *ptr, const std::size_t count) noexcept {
        const auto bytes = count * sizeof(Type);

        if (const auto it = log_->blocks.find(ptr); it != log_->blocks.end() && it->second == bytes) {
            log_->blocks.erase(it);
            ++log_->deallocations;
            log_->live_bytes -= bytes;
            ::operator delete (ptr, std::align_val_t{alignof(Type)});
        } else {
            // leak rather than free memory that may belong to someone else; the test reports the mismatch
            ++log_->mismatches;
        }
    }

    /// The log this allocator records into.
    [[nodiscard]] allocation_log &log() const noexcept { return *log_; }

    /// Equal when sharing a log: memory from one can be given back through the other.
    template<typename Other>
    [[nodiscard]] bool operator==(const tracking_allocator<Other> &other) const noexcept {
        return log_ == other.log_;
    }

private:
    allocation_log *log_;
};

} // namespace tessera_test

#endif
