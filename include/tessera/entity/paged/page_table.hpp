// The table of page pointers behind a storage: a growable array of `Type *` with only the operations a storage
// needs. Written out instead of taken from std::vector because a storage is instantiated once per component type
// and std::vector<Type *> brings a few dozen helper functions with it each time, which is most of what a
// component type costs to compile (bench/compile).
#ifndef TESSERA_ENTITY_PAGED_PAGE_TABLE_HPP
#define TESSERA_ENTITY_PAGED_PAGE_TABLE_HPP

#include "../../config/config.hpp"
#include "../../config/std_parts.hpp"
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <utility>

namespace tessera::internal {

/// Growable array of page pointers. Allocator allocates `Type *`. Growth is exact (reserve asks for what it
/// gets), as a storage adds whole blocks of pages at a time and knows how many.
template<typename Type, typename Allocator>
class page_table final {
    using alloc_traits = std::allocator_traits<Allocator>;
    static_assert(std::is_same_v<typename alloc_traits::value_type, Type *>, "page_table: invalid allocator");
    static_assert(std::is_same_v<typename alloc_traits::pointer, Type **>,
                  "page_table: allocators with fancy pointers are not supported");

    // pointers are trivially copyable: moving the table is a memcpy, and nothing needs destroying
    void move_to_new_buffer(const std::size_t cap) {
        Type **const buffer = alloc_traits::allocate(alloc, cap);

        if (count != 0u) {
            std::memcpy(buffer, first, count * sizeof(Type *));
        }

        release_buffer();
        first = buffer;
        room = cap;
    }

    void release_buffer() noexcept {
        if (first != nullptr) {
            alloc_traits::deallocate(alloc, first, room);
        }
    }

    // For allocators that cannot take over the other table's buffer: copies its pointers into a buffer of our own
    // and leaves it empty (the pages themselves are not copied; they belong to the storage). A failed allocation
    // leaves both tables as they were.
    void copy_and_empty(page_table &other) {
        if (other.count > room) {
            Type **const buffer = alloc_traits::allocate(alloc, other.count);
            release_buffer();
            first = buffer;
            room = other.count;
        }

        if (other.count != 0u) {
            std::memcpy(first, other.first, other.count * sizeof(Type *));
        }

        count = std::exchange(other.count, 0u);
    }

    void steal(page_table &other) noexcept {
        first = std::exchange(other.first, nullptr);
        count = std::exchange(other.count, 0u);
        room = std::exchange(other.room, 0u);
    }

public:
    /// Allocator type.
    using allocator_type = Allocator;
    /// A page pointer.
    using value_type = Type *;
    /// Pointer to the first page pointer.
    using pointer = Type **;
    /// Constant pointer to the first page pointer.
    using const_pointer = Type *const *;
    /// Unsigned integer type.
    using size_type = std::size_t;

    /// Constructs an empty table with the given allocator.
    explicit page_table(const allocator_type &allocator) noexcept : alloc{allocator} {}

    page_table(const page_table &) = delete;

    /// Move constructor: the source is left empty.
    page_table(page_table &&other) noexcept : alloc{std::move(other.alloc)} { steal(other); }

    /// Allocator-extended move constructor: the pointers are copied when the allocators differ.
    page_table(page_table &&other, const allocator_type &allocator) : alloc{allocator} {
        if (alloc_traits::is_always_equal::value || alloc == other.alloc) {
            steal(other);
        } else {
            copy_and_empty(other);
        }
    }

    /// Releases the table (not the pages: they belong to the storage).
    ~page_table() { release_buffer(); }

    page_table &operator=(const page_table &) = delete;

    /// Move assignment: the source is left empty. Like std::vector, a non-propagating allocator that compares
    /// unequal keeps its own buffer and receives a copy of the pointers, which may allocate: noexcept only when
    /// that cannot happen.
    // noexcept only when it cannot fail: it copies, and may throw, when the allocators cannot share memory
    // NOLINTNEXTLINE(bugprone-exception-escape)
    page_table &operator=(page_table &&other) noexcept(alloc_traits::propagate_on_container_move_assignment::value ||
                                                       alloc_traits::is_always_equal::value) {
        if (this == &other) {
            return *this;
        }

        // compile-time branches, so that allocators that never copy have no throwing path at all
        if constexpr (!(alloc_traits::propagate_on_container_move_assignment::value ||
                        alloc_traits::is_always_equal::value)) {
            if (!(alloc == other.alloc)) {
                copy_and_empty(other);
                return *this;
            }
        }

        release_buffer();

        if constexpr (alloc_traits::propagate_on_container_move_assignment::value) {
            alloc = std::move(other.alloc);
        }

        steal(other);
        return *this;
    }

    /// Exchanges the contents (and the allocators, if they propagate on swap).
    void swap(page_table &other) noexcept {
        using std::swap;

        if constexpr (alloc_traits::propagate_on_container_swap::value) {
            swap(alloc, other.alloc);
        }

        swap(first, other.first);
        swap(count, other.count);
        swap(room, other.room);
    }

    /// Exchanges the contents of two tables.
    friend void swap(page_table &lhs, page_table &rhs) noexcept { lhs.swap(rhs); }

    /// The allocator.
    [[nodiscard]] allocator_type get_allocator() const noexcept { return alloc; }

    /// Number of page pointers.
    [[nodiscard]] size_type size() const noexcept { return count; }

    /// Number of page pointers the buffer can hold.
    [[nodiscard]] size_type capacity() const noexcept { return room; }

    /// The page pointers.
    [[nodiscard]] TESSERA_FORCE_INLINE const_pointer data() const noexcept { return first; }

    /// The page pointers.
    [[nodiscard]] TESSERA_FORCE_INLINE pointer data() noexcept { return first; }

    /// The page pointer at a position smaller than size().
    [[nodiscard]] TESSERA_FORCE_INLINE Type *operator[](const size_type pos) const noexcept { return first[pos]; }

    /// Makes room for `cap` page pointers.
    void reserve(const size_type cap) {
        if (cap > room) {
            move_to_new_buffer(cap);
        }
    }

    /// Appends a page pointer; the table must have room for it (reserve).
    void push_back(Type *const page) {
        TESSERA_ASSERT(count < room, "page_table: push_back without room, reserve first");
        first[count++] = page;
    }

    /// Forgets the page pointers from position `sz` on.
    void truncate(const size_type sz) noexcept {
        if (sz < count) {
            count = sz;
        }
    }

    /// Forgets every page pointer, keeping the buffer.
    void clear() noexcept { count = 0u; }

    /// Shrinks the buffer to the number of page pointers (releases it when there are none).
    void shrink_to_fit() {
        if (count == 0u) {
            release_buffer();
            first = nullptr;
            room = 0u;
        } else if (count < room) {
            move_to_new_buffer(count);
        }
    }

private:
    Type **first{};
    size_type count{};
    size_type room{};
    [[no_unique_address]] allocator_type alloc;
};

} // namespace tessera::internal

#endif
