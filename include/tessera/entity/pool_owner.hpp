// The owner of one pool of a registry. A registry holds its pools through their common base class; this owner
// builds a pool of any storage type in memory from the registry's allocator and remembers how much memory that
// was, so that releasing a pool needs no code per storage type. std::shared_ptr or std::unique_ptr with an
// allocator-aware deleter instantiate a control block or a deleter per component type (compile time,
// bench/compile).
#ifndef TESSERA_ENTITY_POOL_OWNER_HPP
#define TESSERA_ENTITY_POOL_OWNER_HPP

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace tessera::internal {

/// Owns one object derived from Base (with a virtual destructor), allocated through Allocator rebound to
/// std::max_align_t. Movable, not copyable; an empty owner holds nothing.
template<typename Base, typename Allocator>
class pool_owner final {
    static_assert(std::has_virtual_destructor_v<Base>, "pool_owner: the base class needs a virtual destructor");

    using unit = std::max_align_t;
    using unit_alloc = typename std::allocator_traits<Allocator>::template rebind_alloc<unit>;
    using unit_traits = std::allocator_traits<unit_alloc>;

    void release() noexcept {
        if (object != nullptr) {
            object->~Base();
            unit_traits::deallocate(alloc, block, units);
            object = nullptr;
        }
    }

public:
    /// Allocator type.
    using allocator_type = Allocator;

    /// An empty owner.
    explicit pool_owner(const allocator_type &allocator) noexcept : alloc{allocator} {}

    /// Builds a Derived from args in memory from allocator. Strong guarantee: a throwing constructor leaves no
    /// memory behind.
    template<typename Derived, typename... Args>
    [[nodiscard]] static pool_owner make(const allocator_type &allocator, Args &&...args) {
        static_assert(std::is_base_of_v<Base, Derived>, "pool_owner: the pool type must derive from the base class");
        static_assert(alignof(Derived) <= alignof(unit), "pool_owner: over-aligned pool types are not supported");

        pool_owner owner{allocator};
        const auto count = (sizeof(Derived) + sizeof(unit) - 1u) / sizeof(unit);
        unit *const memory = unit_traits::allocate(owner.alloc, count);

        try {
            owner.object = ::new (static_cast<void *>(memory)) Derived(std::forward<Args>(args)...);
        } catch (...) {
            unit_traits::deallocate(owner.alloc, memory, count);
            throw;
        }

        owner.block = memory;
        owner.units = count;
        return owner;
    }

    pool_owner(const pool_owner &) = delete;

    /// Move constructor: the source is left empty.
    pool_owner(pool_owner &&other) noexcept
        : object{std::exchange(other.object, nullptr)}, block{other.block}, units{other.units}, alloc{std::move(
                                                                                                    other.alloc)} {}

    /// Destroys the object and releases its memory.
    ~pool_owner() { release(); }

    pool_owner &operator=(const pool_owner &) = delete;

    /// Move assignment: the current object is destroyed first; the source is left empty. The memory goes back
    /// through the allocator that gave it, which travels with it.
    pool_owner &operator=(pool_owner &&other) noexcept {
        if (this != &other) {
            release();
            object = std::exchange(other.object, nullptr);
            block = other.block;
            units = other.units;
            alloc = std::move(other.alloc);
        }

        return *this;
    }

    /// The object, or null.
    [[nodiscard]] Base *get() const noexcept { return object; }

    /// The object; the owner must not be empty.
    [[nodiscard]] Base &operator*() const noexcept { return *object; }

    /// The object; the owner must not be empty.
    [[nodiscard]] Base *operator->() const noexcept { return object; }

    /// True if the owner holds an object.
    [[nodiscard]] explicit operator bool() const noexcept { return object != nullptr; }

private:
    Base *object{};
    unit *block{};
    std::size_t units{};
    [[no_unique_address]] unit_alloc alloc;
};

} // namespace tessera::internal

#endif
