// The owner of one pool of a registry. A registry holds its pools through their common base class; this owner
// builds a pool of any storage type in memory from the registry's allocator and keeps a pointer to a small table
// of what needs the pool's own type: releasing it and measuring it (the memory report). Owning pools adds two
// small functions per storage type. std::shared_ptr (through std::allocate_shared) instantiated a control block
// with a dozen members per component type instead (compile time, bench/compile).
#ifndef TESSERA_ENTITY_TABLES_POOL_OWNER_HPP
#define TESSERA_ENTITY_TABLES_POOL_OWNER_HPP

#include "../pool_memory.hpp"
#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace tessera::internal {

/// Owns one object derived from Base, allocated through Allocator rebound to the object's own type (so an
/// over-aligned pool gets aligned memory). Movable, not copyable; an empty owner holds nothing.
template<typename Base, typename Allocator>
class pool_owner final {
    using release_function = void(Base *, const Allocator &) noexcept;
    using measure_function = pool_memory(const Base &) noexcept;

    // what the owner does through the pool's own type; one constant table per pool type
    struct operations {
        release_function *release;
        measure_function *measure;
        std::size_t object_size;
    };

    template<typename Derived>
    static void destroy_and_deallocate(Base *const object, const Allocator &allocator) noexcept {
        using derived_alloc = typename std::allocator_traits<Allocator>::template rebind_alloc<Derived>;
        derived_alloc alloc{allocator};
        auto *const derived = static_cast<Derived *>(object);
        std::destroy_at(derived);
        std::allocator_traits<derived_alloc>::deallocate(alloc, derived, 1u);
    }

    // objects that are not sparse sets (this owner is not tied to pools) measure as nothing
    template<typename Derived>
    static pool_memory measure_object([[maybe_unused]] const Base &object) noexcept {
        if constexpr (requires(const Derived &derived) { tessera::memory_of(derived); }) {
            return tessera::memory_of(static_cast<const Derived &>(object));
        } else {
            return pool_memory{};
        }
    }

    template<typename Derived>
    static constexpr operations operations_of{&destroy_and_deallocate<Derived>, &measure_object<Derived>,
                                              sizeof(Derived)};

    void release() noexcept {
        if (object != nullptr) {
            ops->release(object, alloc);
            object = nullptr;
        }
    }

public:
    // No allocator_type member on purpose: containers with scoped allocators (std::pmr) would take the owner for
    // an allocator-aware type and try to hand it their own allocator when they move it.

    /// An empty owner.
    explicit pool_owner(const Allocator &allocator) noexcept : alloc{allocator} {}

    /// Builds a Derived from args in memory from allocator. Strong guarantee: a throwing constructor leaves no
    /// memory behind.
    template<typename Derived, typename... Args>
    [[nodiscard]] static pool_owner make(const Allocator &allocator, Args &&...args) {
        static_assert(std::is_base_of_v<Base, Derived>, "pool_owner: the pool type must derive from the base class");
        using derived_alloc = typename std::allocator_traits<Allocator>::template rebind_alloc<Derived>;
        using derived_traits = std::allocator_traits<derived_alloc>;

        derived_alloc alloc{allocator};
        Derived *const memory = derived_traits::allocate(alloc, 1u);
        pool_owner owner{allocator};

        try {
            owner.object = ::new (static_cast<void *>(memory)) Derived(std::forward<Args>(args)...);
        } catch (...) {
            derived_traits::deallocate(alloc, memory, 1u);
            throw;
        }

        owner.ops = &operations_of<Derived>;
        return owner;
    }

    pool_owner(const pool_owner &) = delete;

    /// Move constructor: the source is left empty.
    pool_owner(pool_owner &&other) noexcept
        : object{std::exchange(other.object, nullptr)}, ops{other.ops}, alloc{std::move(other.alloc)} {}

    /// Destroys the object and releases its memory.
    ~pool_owner() { release(); }

    pool_owner &operator=(const pool_owner &) = delete;

    /// Move assignment: the current object is destroyed first; the source is left empty. The memory goes back
    /// through the allocator that gave it, which travels with it. Allocators that cannot be assigned
    /// (std::pmr::polymorphic_allocator) stay: owners only trade places within one registry, whose pools all come
    /// from its allocator, so the two compare equal.
    pool_owner &operator=(pool_owner &&other) noexcept {
        if (this != &other) {
            release();
            object = std::exchange(other.object, nullptr);
            ops = other.ops;

            if constexpr (std::is_move_assignable_v<Allocator>) {
                alloc = std::move(other.alloc);
            }
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

    /// The memory of the object (memory_of on its own type); the owner must not be empty.
    [[nodiscard]] pool_memory measure() const noexcept { return ops->measure(*object); }

    /// sizeof the object's own type, the memory the owner took for it; 0 for an empty owner.
    [[nodiscard]] std::size_t object_size() const noexcept { return object == nullptr ? 0u : ops->object_size; }

private:
    Base *object{};
    const operations *ops{};
    [[no_unique_address]] Allocator alloc;
};

} // namespace tessera::internal

#endif
