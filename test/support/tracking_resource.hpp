// tracking_resource: a std::pmr::memory_resource that records every block it hands out and checks that each one
// comes back to it, with the size and alignment it was given. With two of them, a test sees whether memory one
// allocated is freed through the other: the other does not know the block, counts it as foreign and leaves it
// alone (the first one then still holds it as live). It can also be told to fail after some allocations.
// resource_pair holds two of them and checks both when a test ends.
#ifndef TESSERA_TEST_SUPPORT_TRACKING_RESOURCE_HPP
#define TESSERA_TEST_SUPPORT_TRACKING_RESOURCE_HPP

#include <cstddef>
#include <gtest/gtest.h>
#include <limits>
#include <map>
#include <memory_resource>
#include <new>
#include <utility>

namespace tessera_test {

/// A memory resource over ::operator new that keeps a ledger of its live blocks.
class tracking_resource final : public std::pmr::memory_resource {
public:
    /// Value of fail_after that never fails.
    static constexpr std::size_t never = std::numeric_limits<std::size_t>::max();

    tracking_resource() = default;
    tracking_resource(const tracking_resource &) = delete;
    tracking_resource &operator=(const tracking_resource &) = delete;

    /// Frees what is still live, so that a failing test does not leak on top of failing.
    ~tracking_resource() override {
        for (auto &&[ptr, block] : blocks) {
            ::operator delete (const_cast<void *>(ptr), std::align_val_t{block.second});
        }
    }

    /// Successful allocations so far.
    [[nodiscard]] std::size_t allocations() const noexcept { return allocated; }

    /// Blocks handed out and not given back yet.
    [[nodiscard]] std::size_t live() const noexcept { return blocks.size(); }

    /// Deallocations of a block this resource did not hand out, or with another size or alignment.
    [[nodiscard]] std::size_t foreign() const noexcept { return strangers; }

    /// True if every block came back, each to this resource and with its own size and alignment.
    [[nodiscard]] bool balanced() const noexcept { return blocks.empty() && strangers == 0u; }

    /// Number of allocations still allowed before allocate throws std::bad_alloc (never: no limit).
    std::size_t fail_after{never};

private:
    void *do_allocate(const std::size_t bytes, const std::size_t alignment) override {
        if (fail_after == 0u) {
            throw std::bad_alloc{};
        }

        if (fail_after != never) {
            --fail_after;
        }

        void *const ptr = ::operator new (bytes, std::align_val_t{alignment});

        try {
            blocks.emplace(ptr, std::make_pair(bytes, alignment));
        } catch (...) {
            ::operator delete (ptr, std::align_val_t{alignment});
            throw;
        }

        ++allocated;
        return ptr;
    }

    void do_deallocate(void *const ptr, const std::size_t bytes, const std::size_t alignment) override {
        if (const auto it = blocks.find(ptr); it != blocks.end() && it->second == std::make_pair(bytes, alignment)) {
            blocks.erase(it);
            ::operator delete (ptr, std::align_val_t{alignment});
        } else {
            // not ours: leave it to its owner, which still lists it, and report the mismatch
            ++strangers;
        }
    }

    [[nodiscard]] bool do_is_equal(const std::pmr::memory_resource &other) const noexcept override {
        return this == &other;
    }

    // address -> (bytes, alignment); kept with the default allocator so that the ledger does not track itself
    std::map<const void *, std::pair<std::size_t, std::size_t>> blocks{};
    std::size_t allocated{};
    std::size_t strangers{};
};

/// Two resources for one test, checked when it ends: every block must have come back to the resource that gave
/// it. Declare it before the containers that use it, so that they are gone by then.
struct resource_pair {
    tracking_resource first{};
    tracking_resource second{};

    resource_pair() = default;
    resource_pair(const resource_pair &) = delete;
    resource_pair &operator=(const resource_pair &) = delete;

    ~resource_pair() {
        EXPECT_TRUE(first.balanced()) << "first resource: " << first.live() << " blocks live, " << first.foreign()
                                      << " blocks freed through it that it did not give";
        EXPECT_TRUE(second.balanced()) << "second resource: " << second.live() << " blocks live, " << second.foreign()
                                       << " blocks freed through it that it did not give";
    }
};

} // namespace tessera_test

#endif
