// What one pool holds in memory: its sizes, pages and the bytes it took from its allocator. The registry's
// memory report (memory_report.hpp) is a list of these; memory_of measures a single sparse set or storage.
#ifndef TESSERA_ENTITY_POOL_MEMORY_HPP
#define TESSERA_ENTITY_POOL_MEMORY_HPP

#include "../core/fwd.hpp"
#include "entity.hpp"
#include "fwd.hpp"
#include <cstddef>
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

/// The sparse set a pool is built on.
template<typename Entity, typename Allocator>
[[nodiscard]] constexpr const basic_sparse_set<Entity, Allocator> &
sparse_base_of(const basic_sparse_set<Entity, Allocator> &set) noexcept {
    return set;
}

} // namespace internal

/// Measures a sparse set, a storage or a pool built on one (mixins included). Allocates nothing.
template<typename Set>
requires requires(const Set &set) { internal::sparse_base_of(set); }
[[nodiscard]] pool_memory memory_of(const Set &set) noexcept {
    const auto &base = internal::sparse_base_of(set);
    using base_type = std::remove_cvref_t<decltype(base)>;
    using entity_type = typename base_type::entity_type;

    pool_memory usage{};
    usage.id = base.info().hash();
    usage.type = base.info().name();
    usage.size = base.size();
    usage.sparse_pages = base.sparse_pages();
    // the packed array's room is read from the base class: storages report the room of their element pages
    const auto packed_room = base.base_type::capacity();
    usage.capacity = packed_room;
    usage.bytes = base.sparse_table_capacity() * sizeof(entity_type *) +
                  usage.sparse_pages * entt_traits<entity_type>::page_size * sizeof(entity_type) +
                  packed_room * sizeof(entity_type);

    if constexpr (requires { set.page_table_capacity(); }) {
        using value_type = typename Set::value_type;
        usage.element_size = sizeof(value_type);
        usage.packed_pages = set.pages();
        usage.capacity = set.capacity();
        usage.bytes += set.page_table_capacity() * sizeof(value_type *) + usage.capacity * sizeof(value_type);
    }

    if constexpr (requires { set.tick_column(); }) {
        // change detection: the per-element ticks and the change log
        usage.bytes += set.tick_column().memory();
    }

    return usage;
}

} // namespace tessera

#endif
