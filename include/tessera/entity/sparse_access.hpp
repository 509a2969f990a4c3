// What the iteration engine and the storages read of a sparse set past its public interface: the page
// arithmetic (fast_mod) and one read of the sparse array where contains() then index() read it twice.
#ifndef TESSERA_ENTITY_SPARSE_ACCESS_HPP
#define TESSERA_ENTITY_SPARSE_ACCESS_HPP

#include "../config/config.hpp"
#include "entity.hpp"
#include "fwd.hpp"
#include <cstddef>

namespace tessera {

namespace internal {

/// Fast modulo for powers of two.
[[nodiscard]] TESSERA_FORCE_INLINE constexpr std::size_t fast_mod(const std::size_t value,
                                                                  const std::size_t mod) noexcept {
    return value & (mod - 1u);
}

/// What the iteration engine (engine/block_walk.hpp) reads of a sparse set past its public interface: one read of the
/// sparse array where contains() then index() read it twice.
struct sparse_access {
    /// The packed position of an identifier, or size_t(-1) if the set does not contain it: the test of contains().
    template<typename Entity, typename Allocator>
    [[nodiscard]] TESSERA_FORCE_INLINE static std::size_t position(const basic_sparse_set<Entity, Allocator> &set,
                                                                   const Entity entt) noexcept {
        using traits_type = entt_traits<Entity>;
        using bits_type = typename traits_type::entity_type;
        constexpr bits_type index_bits = traits_type::entity_mask;
        constexpr auto page_size = traits_type::page_size;
        const auto index = static_cast<std::size_t>(traits_type::to_entity(entt));

        // A slot keeps a packed position in its index bits and the stored identifier's version above them; a free
        // slot holds null. Taking entt's version bits away from the slot leaves a position below the index mask
        // only when the versions agree (any other version borrows or carries past the index bits) and the slot is
        // not free (null's index is the mask itself).
        // the pages through one pointer: a build without optimization calls vector::operator[] for each use
        if (const auto page = index / page_size; page < set.sparse.size()) {
            const auto *const entries = set.sparse.data()[page];

            if (entries == nullptr) {
                return static_cast<std::size_t>(-1);
            }

            const auto version_bits = static_cast<bits_type>(traits_type::to_integral(entt) & ~index_bits);
            const auto slot = traits_type::to_integral(entries[fast_mod(index, page_size)]);

            if (const auto pos = static_cast<bits_type>(slot - version_bits); pos < index_bits) {
                return static_cast<std::size_t>(pos);
            }
        }

        return static_cast<std::size_t>(-1);
    }

    /// True if an owning group owns the set: it exchanges positions when entities join or leave it, which the rules
    /// of docs/thread_safety.md allow while another storage leads an iteration that reads this one.
    template<typename Entity, typename Allocator>
    [[nodiscard]] static bool grouped(const basic_sparse_set<Entity, Allocator> &set) noexcept {
        return set.grouped;
    }

    /// Records whether an owning group owns the set (its handler, while it lives).
    template<typename Entity, typename Allocator>
    static void group(basic_sparse_set<Entity, Allocator> &set, const bool value) noexcept {
        set.grouped = value;
    }

    /// The packed position of an identifier the set contains, without a check.
    template<typename Entity, typename Allocator>
    [[nodiscard]] TESSERA_FORCE_INLINE static std::size_t index(const basic_sparse_set<Entity, Allocator> &set,
                                                                const Entity entt) {
        return static_cast<std::size_t>(entt_traits<Entity>::to_entity(set.sparse_ref(entt)));
    }
};

} // namespace internal

} // namespace tessera

#endif
