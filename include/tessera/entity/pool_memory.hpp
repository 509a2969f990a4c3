// What one pool holds in memory: its sizes, pages and the bytes it took from its allocator. The registry's
// memory report (memory_report.hpp) is a list of these; memory_of measures a single sparse set or storage. Also the
// names reports and archives give pools (pool_name). An extra: the core knows only pool_shape (tables/pool_owner.hpp).
#ifndef TESSERA_ENTITY_POOL_MEMORY_HPP
#define TESSERA_ENTITY_POOL_MEMORY_HPP

#include "../core/fwd.hpp"
#include "../core/type_info.hpp"
#include "entity.hpp"
#include "fwd.hpp"
#include "sparse_set.hpp"
#include "tables/pool_owner.hpp"
#include <array>
#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>

namespace tessera {

/// The memory of one pool. `bytes` is what the pool obtained from its allocator for its arrays and still holds:
/// the sparse pages and their table, the packed array of identifiers, the element pages and their table. The
/// listener lists of its signals and the pool object itself are not included (see docs/debugging.md).
struct pool_memory {
    /// The name of the pool in its registry (the type hash for default pools).
    id_type id{};
    /// The name of the element type, as type_name spells it (empty for plain sparse sets).
    std::string_view type{};
    /// True for a pool created under a name of its own rather than as the default pool of its type.
    bool named{};
    /// sizeof the element type; 0 for pools without instances (empty types, plain sets, the entity storage).
    std::size_t element_size{};
    /// Size of the packed array: identifiers, in-place holes and released identifiers included.
    std::size_t size{};
    /// Elements the element pages can hold; for pools without instances, room in the packed array.
    std::size_t capacity{};
    /// Sparse pages allocated.
    std::size_t sparse_pages{};
    /// Element pages allocated (pages of the packed components); 0 for pools without instances.
    std::size_t packed_pages{};
    /// Bytes held, as described above.
    std::size_t bytes{};
};

namespace internal {

/// The row of a pool from its sparse set base and its shape (tables/pool_owner.hpp, the hook the registry's pool
/// table keeps for every pool).
template<typename Entity, typename Allocator>
[[nodiscard]] pool_memory pool_row(const basic_sparse_set<Entity, Allocator> &set, const pool_shape &shape) noexcept {
    pool_memory usage{};
    usage.id = set.info().hash();
    usage.type = set.info().name();
    usage.size = set.size();
    usage.sparse_pages = set.sparse_pages();
    usage.capacity = set.basic_sparse_set<Entity, Allocator>::capacity();
    usage.bytes = set_bytes(set);

    if (shape.element_size != 0u) {
        usage.element_size = shape.element_size;
        usage.packed_pages = shape.pages;
        usage.capacity = shape.element_capacity;
        usage.bytes += shape.page_table_capacity * sizeof(void *) + shape.element_capacity * shape.element_size;
    }

    // change detection: the per-element ticks and the change log
    usage.bytes += shape.tick_bytes;
    return usage;
}

/// The sparse set a pool is built on.
template<typename Entity, typename Allocator>
[[nodiscard]] constexpr const basic_sparse_set<Entity, Allocator> &
sparse_base_of(const basic_sparse_set<Entity, Allocator> &set) noexcept {
    return set;
}

/// Appends the name a report shows for a pool: its element type, then the hash of its name for a named pool
/// (a registry keeps only the hash), in hexadecimal.
inline void append_pool_name(std::string &out, const std::string_view type, const id_type id, const bool named) {
    out.append(type);

    if (named) {
        std::array<char, 20u> digits{};
        const auto result = std::to_chars(digits.data(), digits.data() + digits.size(), id, 16);
        out.append(" @0x").append(digits.data(), result.ptr);
    }
}

/// The name a report shows for pool `id` of Type (archives key their pools the same way).
template<typename Type>
[[nodiscard]] std::string pool_name(const id_type id) {
    std::string name{};
    append_pool_name(name, type_name<Type>::value(), id, id != type_hash<Type>::value());
    return name;
}

} // namespace internal

/// Measures a sparse set, a storage or a pool built on one (mixins included). Allocates nothing.
template<typename Set>
requires requires(const Set &set) { internal::sparse_base_of(set); }
[[nodiscard]] pool_memory memory_of(const Set &set) noexcept {
    return internal::pool_row(internal::sparse_base_of(set), internal::pool_shape_of(set));
}

} // namespace tessera

#endif
