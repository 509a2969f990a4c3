// A growable array of trivially copyable records kept in fixed-size pages, for the tick column and the change log
// of change detection. Pages are never moved once allocated: growing costs one page allocation every PageSize
// records and copies nothing, where a vector would reallocate, copy and fault in fresh memory at each doubling.
#ifndef TESSERA_ENTITY_PAGED_PAGED_RECORDS_HPP
#define TESSERA_ENTITY_PAGED_PAGED_RECORDS_HPP

#include "../../config/config.hpp"
#include "../../config/std_parts.hpp"
#include "page_table.hpp"
#include <cstddef>
#include <type_traits>
#include <utility>

namespace tessera::internal {

/// Records in pages of PageSize, allocated with Allocator (rebound to Type). Only what the tick column needs:
/// indexing, appending, growing without initializing, truncating, and releasing the pages no record uses.
template<typename Type, typename Allocator, std::size_t PageSize>
class paged_records final {
    static_assert(std::is_trivially_copyable_v<Type> && std::is_trivially_destructible_v<Type>,
                  "paged_records: records are copied and dropped without constructors or destructors");
    static_assert(PageSize != 0u && (PageSize & (PageSize - 1u)) == 0u,
                  "paged_records: the page size must be a power of two");

    using alloc_type = typename std::allocator_traits<Allocator>::template rebind_alloc<Type>;
    using alloc_traits = std::allocator_traits<alloc_type>;
    using table_type = page_table<Type, typename std::allocator_traits<Allocator>::template rebind_alloc<Type *>>;

    // Allocates pages until `cap` records fit. The table grows geometrically, the pages one at a time.
    void grow_pages(const std::size_t cap) {
        alloc_type allocator{table.get_allocator()};

        while (table.size() * PageSize < cap) {
            if (table.size() == table.capacity()) {
                table.reserve(table.size() < 8u ? 8u : 2u * table.size());
            }

            table.push_back(alloc_traits::allocate(allocator, PageSize));
        }
    }

    // Gives back the pages from page `from` on.
    void release_pages(const std::size_t from) noexcept {
        alloc_type allocator{table.get_allocator()};

        for (auto page = from; page < table.size(); ++page) {
            alloc_traits::deallocate(allocator, table[page], PageSize);
        }

        table.truncate(from);
    }

public:
    /// Records per page.
    static constexpr std::size_t page_size = PageSize;

    /// Constructs an empty array that allocates with `allocator`.
    explicit paged_records(const Allocator &allocator) : table{typename table_type::allocator_type{allocator}} {}

    paged_records(const paged_records &) = delete;

    /// Move constructor: the pages change hands, the source is left empty.
    paged_records(paged_records &&other) noexcept
        : table{std::move(other.table)}, count{std::exchange(other.count, 0u)} {}

    /// Releases every page.
    ~paged_records() { release_pages(0u); }

    paged_records &operator=(const paged_records &) = delete;
    paged_records &operator=(paged_records &&) = delete;

    /// Number of records.
    [[nodiscard]] std::size_t size() const noexcept { return count; }

    /// Number of records the allocated pages hold.
    [[nodiscard]] std::size_t capacity() const noexcept { return table.size() * PageSize; }

    /// Bytes allocated: the pages and the table of page pointers.
    [[nodiscard]] std::size_t memory() const noexcept {
        return capacity() * sizeof(Type) + table.capacity() * sizeof(Type *);
    }

    /// The record at a position smaller than size(). A mask, not fast_mod: PageSize is a power of two (checked at
    /// compile time above), and fast_mod's assertion has no place in a noexcept accessor.
    [[nodiscard]] TESSERA_FORCE_INLINE Type &operator[](const std::size_t pos) noexcept {
        return table[pos / PageSize][pos & (PageSize - 1u)];
    }

    /// The record at a position smaller than size().
    [[nodiscard]] TESSERA_FORCE_INLINE const Type &operator[](const std::size_t pos) const noexcept {
        return table[pos / PageSize][pos & (PageSize - 1u)];
    }

    /// Allocates pages until `cap` records fit.
    void reserve(const std::size_t cap) {
        if (cap > capacity()) {
            grow_pages(cap);
        }
    }

    /// Grows to `sz` records (the new ones are left as the memory was: the caller writes them before reading).
    void grow_to(const std::size_t sz) {
        reserve(sz);

        if (sz > count) {
            count = sz;
        }
    }

    /// Appends a record; may allocate one page.
    void push_back(const Type &value) {
        if (count == capacity()) [[unlikely]] {
            grow_pages(count + 1u);
        }

        (*this)[count++] = value;
    }

    /// Forgets the records from position `sz` on, keeping the pages.
    void truncate(const std::size_t sz) noexcept {
        if (sz < count) {
            count = sz;
        }
    }

    /// Forgets every record, keeping the pages.
    void clear() noexcept { count = 0u; }

    /// Releases the pages no record uses, and the room of the page table.
    void shrink_to_fit() {
        release_pages((count + PageSize - 1u) / PageSize);
        table.shrink_to_fit();
    }

    /// Replaces the records with a copy of other's, in pages of this array's allocator.
    void assign(const paged_records &other) {
        reserve(other.count);

        for (std::size_t pos{}; pos < other.count; pos += PageSize) {
            const auto len = other.count - pos < PageSize ? other.count - pos : PageSize;
            std::uninitialized_copy_n(other.table[pos / PageSize], len, table[pos / PageSize]);
        }

        count = other.count;
    }

    /// Exchanges the contents (and the allocators, if they propagate on swap).
    void swap(paged_records &other) noexcept {
        table.swap(other.table);
        std::swap(count, other.count);
    }

private:
    table_type table;
    std::size_t count{};
};

} // namespace tessera::internal

#endif
