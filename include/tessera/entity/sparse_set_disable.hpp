// Enabling and disabling identifiers of a swap-and-pop sparse set without removing them: the members of
// basic_sparse_set that keep disabled identifiers in a tail of the packed array, behind the enabled ones, the way
// the entity storage keeps released identifiers after free_list(). Iteration stops at in_use(), so it never sees
// the tail and checks nothing per element. Declared in sparse_set.hpp, which includes this header at its end.
#ifndef TESSERA_ENTITY_SPARSE_SET_DISABLE_HPP
#define TESSERA_ENTITY_SPARSE_SET_DISABLE_HPP

#include "../config/config.hpp"
#include "entity.hpp"
#include "sparse_set.hpp"
#include <cstddef>

namespace tessera {

template<typename Entity, typename Allocator>
auto basic_sparse_set<Entity, Allocator>::settle_appended(const size_type count) -> size_type {
    // Before: enabled [0, b), disabled [b, b + d), appended [b + d, b + d + count). Exchanging b + i with
    // b + d + i for each i moves every appended identifier to b + i and leaves the disabled ones, in some order,
    // in [b + count, b + count + d): position b + d + i still holds the i-th appended one when its turn comes.
    const size_type first = packed.size() - disabled - count;

    for (size_type step{}; step < count; ++step) {
        swap_or_move(first + disabled + step, first + step);
        swap_at(first + disabled + step, first + step);
    }

    return first + count - 1u;
}

template<typename Entity, typename Allocator>
auto basic_sparse_set<Entity, Allocator>::prepare_removal(const size_type pos) -> size_type {
    if (const auto boundary = packed.size() - disabled; disabled != 0u && pos < boundary) {
        const auto last = boundary - 1u;

        if (pos != last) {
            swap_or_move(pos, last);
            swap_at(pos, last);
        }

        // the identifier is now the first of the tail; close_swap_and_pop takes the count back
        ++disabled;
        return last;
    }

    return pos;
}

template<typename Entity, typename Allocator>
bool basic_sparse_set<Entity, Allocator>::switch_state(const entity_type entt, const bool value) {
    TESSERA_ASSERT(mode == deletion_policy::swap_and_pop,
                   "disable/enable: only swap-and-pop storages can disable (in-place storages promise stable "
                   "positions, the entity storage keeps released identifiers in its tail)");
    TESSERA_ASSERT(contains(entt), "disable/enable: the identifier is not in the set");
    const auto pos = index(entt);
    const auto boundary = packed.size() - disabled;

    if ((pos < boundary) == value) {
        return false;
    }

#if TESSERA_DEBUG_ITERATION
    note_change(entt);
#endif
    // disable: the last enabled identifier takes the slot (a walk going down has visited it already);
    // enable: the first disabled one does
    if (const auto other = value ? boundary : boundary - 1u; pos != other) {
        swap_or_move(pos, other);
        swap_at(pos, other);
    }

    ++edits;
    disabled = value ? disabled - 1u : disabled + 1u;
    return true;
}

template<typename Entity, typename Allocator>
bool basic_sparse_set<Entity, Allocator>::enabled(const entity_type entt) const noexcept {
    const auto pos = internal::sparse_access::position(*this, entt);
    return pos != static_cast<size_type>(-1) && pos < packed.size() - disabled;
}

} // namespace tessera

#endif
