// How a sparse set changes its order: the members of basic_sparse_set that compact it, exchange two identifiers,
// sort it and arrange it as a range. Declared in sparse_set.hpp, which includes this header at its end.
#ifndef TESSERA_ENTITY_SPARSE_SET_SORT_HPP
#define TESSERA_ENTITY_SPARSE_SET_SORT_HPP

#include "../config/config.hpp"
#include "entity.hpp"
#include "sparse_set.hpp"
#include <algorithm>
#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>

namespace tessera {

template<typename Entity, typename Allocator>
void basic_sparse_set<Entity, Allocator>::compact() {
    TESSERA_RACE_WRITE(*this, "compact");
#if TESSERA_DEBUG_ITERATION
    note_rearrangement(mode == deletion_policy::in_place && head != max_size);
#endif
    if (mode == deletion_policy::in_place) {
        ++edits;
        size_type from = packed.size();
        size_type pos = std::exchange(head, max_size);

        for (; from && packed[from - 1u] == tombstone; --from) {
        }

        while (pos != max_size) {
            if (const auto to = std::exchange(pos, static_cast<size_type>(traits_type::to_entity(packed[pos])));
                to < from) {
                --from;
                swap_or_move(from, to);

                packed[to] = packed[from];
                const auto elem = static_cast<underlying_type>(to);
                sparse_ref(packed[to]) = traits_type::combine(elem, traits_type::to_integral(packed[to]));

                for (; from && packed[from - 1u] == tombstone; --from) {
                }
            }
        }

        packed.erase(packed.begin() + static_cast<difference_type>(from), packed.end());
    }
}

template<typename Entity, typename Allocator>
void basic_sparse_set<Entity, Allocator>::swap_elements(const entity_type lhs, const entity_type rhs) {
    TESSERA_RACE_WRITE(*this, "swap_elements");
    const auto lhs_pos = index(lhs);
    const auto rhs_pos = index(rhs);

    TESSERA_ASSERT(mode != deletion_policy::swap_only || ((lhs_pos < head) == (rhs_pos < head)),
                   "swap_elements: cannot swap an identifier in use with a released one");
    TESSERA_ASSERT((lhs_pos < iterated_size()) == (rhs_pos < iterated_size()),
                   "swap_elements: cannot swap an enabled identifier with a disabled one; enable it first");
#if TESSERA_DEBUG_ITERATION
    log_swap(lhs_pos, rhs_pos);
#endif
    // the elements first (storages move their payload), then the identifiers
    swap_or_move(lhs_pos, rhs_pos);
    swap_at(lhs_pos, rhs_pos);
}

template<typename Entity, typename Allocator>
template<typename Compare, typename Sort, typename... Args>
void basic_sparse_set<Entity, Allocator>::sort_n(const size_type length, Compare compare, Sort algo, Args &&...args) {
    TESSERA_RACE_WRITE(*this, "sort");
    TESSERA_ASSERT((mode != deletion_policy::in_place) || (head == max_size),
                   "sort: the set has holes; call compact() first");
    TESSERA_ASSERT(!(length > packed.size()), "sort: length exceeds the size of the set");
    TESSERA_ASSERT(mode != deletion_policy::swap_only || !(length > head),
                   "sort: length exceeds the identifiers in use of a swap-only set (free_list()); sorting would "
                   "move released identifiers into the in-use region");
    TESSERA_ASSERT(!(length > iterated_size()),
                   "sort: length exceeds the enabled identifiers (in_use()); sorting would move disabled ones among "
                   "the enabled ones");
#if TESSERA_DEBUG_ITERATION
    note_rearrangement(length > 1u);
#endif
    ++edits;

    algo(packed.rend() - static_cast<difference_type>(length), packed.rend(), std::move(compare),
         std::forward<Args>(args)...);

    // Packed is sorted; sparse still says where each element lives. Apply the permutation cycle by cycle:
    // the element first found at `pos` travels along the cycle until the slot that needs it.
    for (size_type pos{}; pos < length; ++pos) {
        for (size_type curr = pos;;) {
            const auto entt = packed[curr];
            const auto src = index(entt);
            sparse_ref(entt) = traits_type::combine(static_cast<underlying_type>(curr), traits_type::to_integral(entt));

            if (src == pos) {
                break;
            }

            swap_or_move(curr, src);
            curr = src;
        }
    }
}

template<typename Entity, typename Allocator>
template<typename Compare, typename Sort, typename... Args>
void basic_sparse_set<Entity, Allocator>::sort(Compare compare, Sort algo, Args &&...args) {
    sort_n(iterated_size(), std::move(compare), std::move(algo), std::forward<Args>(args)...);
}

template<typename Entity, typename Allocator>
template<typename It>
auto basic_sparse_set<Entity, Allocator>::sort_as(It first, It last) -> iterator {
    TESSERA_RACE_WRITE(*this, "sort_as");
    TESSERA_ASSERT((mode != deletion_policy::in_place) || (head == max_size),
                   "sort_as: the set has holes; call compact() first");
    const size_type len = iterated_size();
#if TESSERA_DEBUG_ITERATION
    note_rearrangement(len > 1u && first != last);
#endif
    auto it = end() - static_cast<difference_type>(len);
#if TESSERA_DEBUG_ITERATION
    // the loop swaps below its own position on purpose
    it = it.unwatched();
#endif

    for (const auto other = end(); (it != other) && (first != last); ++first) {
        if (const auto curr = *first; contains(curr) && !(index(curr) >= len)) {
            if (const auto entt = *it; entt != curr) {
                // the element at `it` has to be exchanged with the one of curr
                swap_elements(entt, curr);
            }

            ++it;
        }
    }

#if TESSERA_DEBUG_ITERATION
    // the same position, watched again
    return end() - (end() - it);
#else
    return it;
#endif
}

} // namespace tessera

#endif
