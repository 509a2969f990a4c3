// How identifiers enter a sparse set: the members of basic_sparse_set that add one to the packed array, under
// each deletion policy's placement rules (the in-place free list, the swap-only in-use region). Declared in
// sparse_set.hpp, which includes this header at its end. They are defined `inline`, as the in-class definitions
// they were are implicitly, so that compilers weigh inlining them into every insertion as before.
#ifndef TESSERA_ENTITY_SPARSE_SET_INSERTION_HPP
#define TESSERA_ENTITY_SPARSE_SET_INSERTION_HPP

#include "../config/config.hpp"
#include "entity.hpp"
#include "sparse_set.hpp"

namespace tessera {

template<typename Entity, typename Allocator>
template<deletion_policy Policy>
inline auto basic_sparse_set<Entity, Allocator>::push_entity_as(const entity_type entt, const bool force_back)
    -> basic_iterator {
    TESSERA_ASSERT(mode == Policy, "sparse_set: deletion policy mismatch");
    TESSERA_ASSERT(entt != null, "sparse_set: the null identifier cannot be added");
    TESSERA_ASSERT(entt != tombstone, "sparse_set: an identifier with the tombstone version cannot be added");
    // appending leaves every position that holds an identifier as it is: no new revision (see revision())
    auto &elem = assure_at_least(entt);
    auto pos = size();

    if constexpr (Policy == deletion_policy::in_place) {
        if (head != max_size && !force_back) {
            TESSERA_ASSERT(elem == null, "sparse_set: the identifier is already in the set");
            ++edits;
            pos = head;
            head = static_cast<size_type>(traits_type::to_entity(packed[pos]));
            packed[pos] = entt;
            elem = traits_type::combine(static_cast<underlying_type>(pos), traits_type::to_integral(entt));
            return --(end() - static_cast<difference_type>(pos));
        }
    }

    if constexpr (Policy != deletion_policy::swap_only) {
        TESSERA_ASSERT(elem == null, "sparse_set: the identifier is already in the set");
        TESSERA_ASSERT(pos < max_size, "sparse_set: too many elements");
        packed.push_back(entt);
        elem = traits_type::combine(static_cast<underlying_type>(pos), traits_type::to_integral(entt));
    } else {
        if (elem == null) {
            TESSERA_ASSERT(pos < max_size, "sparse_set: too many elements");
            packed.push_back(entt);
            elem = traits_type::combine(static_cast<underlying_type>(pos), traits_type::to_integral(entt));
        } else {
            TESSERA_ASSERT(!(traits_type::to_entity(elem) < head), "sparse_set: the identifier is already in use");
            bump(entt);
        }

        // a fresh identifier appended at the end of a fully used set is already in place
        if (const auto from = static_cast<size_type>(traits_type::to_entity(elem)); from != (pos = head++)) {
            swap_at(from, pos);
        }
    }

    return --(end() - static_cast<difference_type>(pos));
}

template<typename Entity, typename Allocator>
inline auto basic_sparse_set<Entity, Allocator>::push_entity(const entity_type entt, const bool force_back)
    -> basic_iterator {
    switch (mode) {
    case deletion_policy::in_place:
        return push_entity_as<deletion_policy::in_place>(entt, force_back);
    case deletion_policy::swap_only:
        return push_entity_as<deletion_policy::swap_only>(entt, force_back);
    case deletion_policy::swap_and_pop:
        break;
    }

    return push_entity_as<deletion_policy::swap_and_pop>(entt, force_back);
}

} // namespace tessera

#endif
