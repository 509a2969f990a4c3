// Allocator helpers: unique pointers that allocate through an allocator, the propagation rules of
// allocator-aware containers spelled as functions, and uses-allocator construction.
#ifndef TESSERA_CORE_MEMORY_HPP
#define TESSERA_CORE_MEMORY_HPP

#include "../config/config.hpp"
#include "../config/std_parts.hpp"
#include <type_traits>
#include <utility>

#if defined(__GLIBCXX__) && !_GLIBCXX_INLINE_VERSION
// <memory> alone takes about half of what the umbrella header takes to compile: in C++20 libstdc++'s unique_ptr
// brings <ostream>. With libstdc++ this header takes uses-allocator construction from the header that defines it and
// only declares std::unique_ptr, which allocate_unique returns: a caller that holds the result has <memory>, and one
// that has not is told to include it. Other standard libraries get <memory>.
#    include <bits/uses_allocator_args.h>
namespace std { // NOLINT(cert-dcl58-cpp): the declaration libstdc++ itself makes, for the same class
template<typename, typename>
class unique_ptr;
} // namespace std
#else
#    include <memory>
#endif

namespace tessera {

/// Copies `rhs` into `lhs` if the allocator propagates on copy assignment of its container.
template<typename Allocator>
constexpr void propagate_on_container_copy_assignment([[maybe_unused]] Allocator &lhs,
                                                      [[maybe_unused]] Allocator &rhs) noexcept {
    if constexpr (std::allocator_traits<Allocator>::propagate_on_container_copy_assignment::value) {
        lhs = rhs;
    }
}

/// Moves `rhs` into `lhs` if the allocator propagates on move assignment of its container.
template<typename Allocator>
constexpr void propagate_on_container_move_assignment([[maybe_unused]] Allocator &lhs,
                                                      [[maybe_unused]] Allocator &rhs) noexcept {
    if constexpr (std::allocator_traits<Allocator>::propagate_on_container_move_assignment::value) {
        lhs = std::move(rhs);
    }
}

/// Swaps the allocators if they propagate on swap; otherwise they must compare equal (misuse if not). Not noexcept,
/// so that a throwing TESSERA_ASSERT can report the misuse.
template<typename Allocator>
constexpr void propagate_on_container_swap([[maybe_unused]] Allocator &lhs, [[maybe_unused]] Allocator &rhs) {
    if constexpr (std::allocator_traits<Allocator>::propagate_on_container_swap::value) {
        using std::swap;
        swap(lhs, rhs);
    } else if (!std::is_constant_evaluated()) {
        TESSERA_ASSERT(lhs == rhs, "propagate_on_container_swap: the containers' allocators differ and do not "
                                   "propagate on swap");
    }
}

/// The deleter of `allocate_unique`: destroys the object and gives its memory back to a copy of the allocator.
template<typename Allocator>
class allocation_deleter {
    using alloc_traits = std::allocator_traits<Allocator>;

public:
    /// Allocator type.
    using allocator_type = Allocator;
    /// Pointer type of the allocator.
    using pointer = typename alloc_traits::pointer;

    /// Keeps a copy of the allocator.
    constexpr allocation_deleter(const allocator_type &alloc) noexcept(
        std::is_nothrow_copy_constructible_v<allocator_type>)
        : allocator{alloc} {}

    /// Destroys the object and releases its memory.
    constexpr void operator()(pointer ptr) noexcept(std::is_nothrow_destructible_v<typename alloc_traits::value_type>) {
        alloc_traits::destroy(allocator, std::to_address(ptr));
        alloc_traits::deallocate(allocator, ptr, 1u);
    }

private:
    [[no_unique_address]] allocator_type allocator;
};

/// A `std::unique_ptr` to a `Type` built from the arguments in memory from (a rebound copy of) the allocator.
template<typename Type, typename Allocator, typename... Args>
[[nodiscard]] constexpr auto allocate_unique(Allocator &allocator, Args &&...args) {
    static_assert(!std::is_array_v<Type>, "allocate_unique: arrays are not supported; use a container");
    using rebound_for_check = typename std::allocator_traits<Allocator>::template rebind_alloc<Type>;
    static_assert(
        requires { sizeof(std::unique_ptr<Type, allocation_deleter<rebound_for_check>>); },
        "allocate_unique: returns a std::unique_ptr, #include <memory> first");
    using rebound_traits = typename std::allocator_traits<Allocator>::template rebind_traits<Type>;
    using rebound_type = typename rebound_traits::allocator_type;
    rebound_type rebound{allocator};
    const auto memory = rebound_traits::allocate(rebound, 1u);
    // Owned by a guard until the object is built, so that a throwing constructor gives the memory back.
    struct guard {
        rebound_type &alloc;
        typename rebound_traits::pointer ptr;
        ~guard() {
            if (ptr) {
                rebound_traits::deallocate(alloc, ptr, 1u);
            }
        }
    } pending{rebound, memory};
    rebound_traits::construct(rebound, std::to_address(memory), std::forward<Args>(args)...);
    pending.ptr = nullptr;
    return std::unique_ptr<Type, allocation_deleter<rebound_type>>{memory, rebound};
}

/// The arguments that build a `Type` with `allocator` by uses-allocator construction (as the standard function).
template<typename Type, typename Allocator, typename... Args>
[[nodiscard]] constexpr auto uses_allocator_construction_args(const Allocator &allocator, Args &&...args) noexcept {
    return std::uses_allocator_construction_args<Type>(allocator, std::forward<Args>(args)...);
}

/// A `Type` built from the arguments by uses-allocator construction.
template<typename Type, typename Allocator, typename... Args>
[[nodiscard]] constexpr Type make_obj_using_allocator(const Allocator &allocator, Args &&...args) {
    return std::make_obj_using_allocator<Type>(allocator, std::forward<Args>(args)...);
}

/// Builds a `Type` at `value` by uses-allocator construction and returns its address.
template<typename Type, typename Allocator, typename... Args>
constexpr Type *uninitialized_construct_using_allocator(Type *value, const Allocator &allocator, Args &&...args) {
    return std::uninitialized_construct_using_allocator(value, allocator, std::forward<Args>(args)...);
}

} // namespace tessera

#endif
