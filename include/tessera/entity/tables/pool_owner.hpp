// The owner of one pool of a registry. A registry holds its pools through their common base class; this owner
// builds a pool of any storage type in memory from the registry's allocator and keeps a pointer to a small table
// of what needs the pool's own type: releasing it, and the sizes the memory report reads (pool_shape). Owning pools
// adds two small functions per storage type. std::shared_ptr (through std::allocate_shared) instantiated a control
// block with a dozen members per component type instead (compile time, bench/compile).
//
// The hook of the memory report (memory_report.hpp, pool_memory.hpp): pool_shape and set_bytes are all the core
// knows of measuring; the report itself, its rows and its formatting live in those headers.
#ifndef TESSERA_ENTITY_TABLES_POOL_OWNER_HPP
#define TESSERA_ENTITY_TABLES_POOL_OWNER_HPP

#include "../../config/std_parts.hpp"
#include "../entity.hpp"
#include "../fwd.hpp"
#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace tessera::internal {

/// What measuring a pool needs beyond its sparse set base: its elements' size and pages, the table of page pointers
/// and the bytes of change detection. All zero for plain sets and storages without instances.
struct pool_shape {
    /// sizeof the element type; 0 without instances.
    std::size_t element_size;
    /// Element pages allocated.
    std::size_t pages;
    /// Elements the element pages can hold.
    std::size_t element_capacity;
    /// Room in the table of element page pointers.
    std::size_t page_table_capacity;
    /// The per-element ticks and the change log of a tracked storage.
    std::size_t tick_bytes;
};

/// The shape of a pool, from its own type (a sparse set, a storage or a mixin on one).
template<typename Pool>
[[nodiscard]] pool_shape pool_shape_of(const Pool &pool) noexcept {
    pool_shape shape{};

    if constexpr (requires { pool.page_table_capacity(); }) {
        shape.element_size = sizeof(typename Pool::value_type);
        shape.pages = pool.pages();
        shape.element_capacity = pool.capacity();
        shape.page_table_capacity = pool.page_table_capacity();
    }

    if constexpr (requires { pool.tick_column(); }) {
        shape.tick_bytes = pool.tick_column().memory();
    }

    return shape;
}

/// Bytes a sparse set holds for its identifiers: the sparse pages and their table, and the packed array's room (read
/// from the set itself: storages report the room of their element pages as their capacity).
template<typename Entity, typename Allocator>
[[nodiscard]] std::size_t set_bytes(const basic_sparse_set<Entity, Allocator> &set) noexcept {
    return set.sparse_table_capacity() * sizeof(Entity *) +
           set.sparse_pages() * entt_traits<Entity>::page_size * sizeof(Entity) +
           set.basic_sparse_set<Entity, Allocator>::capacity() * sizeof(Entity);
}

/// Owns one object derived from Base, allocated through Allocator rebound to the object's own type (so an
/// over-aligned pool gets aligned memory). Movable, not copyable; an empty owner holds nothing.
template<typename Base, typename Allocator>
class pool_owner final {
    using release_function = void(Base *, const Allocator &) noexcept;
    using shape_function = pool_shape(const Base &) noexcept;

    // what the owner does through the pool's own type; one constant table per pool type
    struct operations {
        release_function *release;
        shape_function *shape;
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

    template<typename Derived>
    static pool_shape shape_of(const Base &object) noexcept {
        return pool_shape_of(static_cast<const Derived &>(object));
    }

    template<typename Derived>
    static constexpr operations operations_of{&destroy_and_deallocate<Derived>, &shape_of<Derived>, sizeof(Derived)};

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

    /// The shape of the object, read through its own type; the owner must not be empty.
    [[nodiscard]] pool_shape shape() const noexcept { return ops->shape(*object); }

    /// sizeof the object's own type, the memory the owner took for it; 0 for an empty owner.
    [[nodiscard]] std::size_t object_size() const noexcept { return object == nullptr ? 0u : ops->object_size; }

private:
    Base *object{};
    const operations *ops{};
    [[no_unique_address]] Allocator alloc;
};

} // namespace tessera::internal

#endif
