// How identifiers leave a sparse set: the members of basic_sparse_set that remove them, by the deletion policy,
// by position, by identifier for another set's range (one call per range), all at once, and the forgetting of
// released identifiers. Declared in sparse_set.hpp, which includes this header at its end.
#ifndef TESSERA_ENTITY_SPARSE_SET_REMOVAL_HPP
#define TESSERA_ENTITY_SPARSE_SET_REMOVAL_HPP

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
void basic_sparse_set<Entity, Allocator>::close_swap_and_pop(const size_type pos,
                                                             [[maybe_unused]] const entity_type entt) {
    TESSERA_ASSERT(mode == deletion_policy::swap_and_pop, "sparse_set: deletion policy mismatch");
#if TESSERA_DEBUG_ITERATION
    note_change(entt);
#endif
    ++edits;
    // with identifiers disabled, prepare_removal has moved the one removed into the disabled tail, where the
    // last identifier, disabled too, may fill its slot
    TESSERA_ASSERT(disabled == 0u || !(pos < packed.size() - disabled),
                   "sparse_set: removal of an enabled identifier while some are disabled, without prepare_removal");
    disabled -= static_cast<size_type>(disabled != 0u);

    if (const auto last = packed.back(); pos + 1u != packed.size()) {
        packed[pos] = last;
        sparse_ref(last) = traits_type::combine(static_cast<underlying_type>(pos), traits_type::to_integral(last));
    }

    packed.pop_back();
}

template<typename Entity, typename Allocator>
void basic_sparse_set<Entity, Allocator>::forget_released_from(const size_type bound) {
    TESSERA_ASSERT(mode == deletion_policy::swap_only, "sparse_set: deletion policy mismatch");
    size_type to = head;

    for (size_type from = head; from < packed.size(); ++from) {
        const auto entt = packed[from];

        if (static_cast<size_type>(traits_type::to_entity(entt)) < bound) {
            if (to != from) {
                packed[to] = entt;
                sparse_ref(entt) =
                    traits_type::combine(static_cast<underlying_type>(to), traits_type::to_integral(entt));
            }

            ++to;
        } else {
            sparse_ref(entt) = null;
        }
    }

    if (to != packed.size()) {
        // only the released region changes: iteration, which stops at free_list(), sees nothing move
        ++edits;
        packed.erase(packed.begin() + static_cast<difference_type>(to), packed.end());
    }
}

template<typename Entity, typename Allocator>
void basic_sparse_set<Entity, Allocator>::policy_pop(basic_iterator first, basic_iterator last) {
    switch (mode) {
    case deletion_policy::swap_and_pop:
        for (; first != last; ++first) {
            swap_and_pop(first);
        }
        break;
    case deletion_policy::in_place:
        for (; first != last; ++first) {
            in_place_pop(first);
        }
        break;
    case deletion_policy::swap_only:
        for (; first != last; ++first) {
            swap_only_pop(first);
        }
        break;
    }
}

template<typename Entity, typename Allocator>
template<typename Func>
auto basic_sparse_set<Entity, Allocator>::for_each_listed(basic_iterator first, basic_iterator last,
                                                          [[maybe_unused]] const bool skip_absent, Func erase_one)
    -> size_type {
    size_type count{};

    for (; first != last; ++first) {
        const auto entt = *first;

        if (const auto pos = internal::sparse_access::position(*this, entt); pos != static_cast<size_type>(-1)) {
            erase_one(entt, pos);
            ++count;
        } else {
            TESSERA_ASSERT(skip_absent, "sparse_set: erasing an identifier that is not in the set");
        }
    }

    return count;
}

template<typename Entity, typename Allocator>
auto basic_sparse_set<Entity, Allocator>::pop_listed(basic_iterator first, basic_iterator last, const bool skip_absent)
    -> size_type {
    // the policy is read once, not per identifier
    switch (mode) {
    case deletion_policy::swap_and_pop:
        return for_each_listed(first, last, skip_absent, [this](const entity_type entt, const size_type pos) {
            if (disabled != 0u) {
                prepare_removal(pos);
            }

            close_swap_and_pop(unlink(entt), entt);
        });
    case deletion_policy::in_place:
        return for_each_listed(first, last, skip_absent,
                               [this](const entity_type entt, const size_type) { close_in_place(unlink(entt)); });
    case deletion_policy::swap_only:
        break;
    }

    return for_each_listed(first, last, skip_absent,
                           [this](const entity_type, const size_type pos) { swap_only_pop_at(pos); });
}

template<typename Entity, typename Allocator>
void basic_sparse_set<Entity, Allocator>::pop_all() {
#if TESSERA_DEBUG_ITERATION
    // every identifier leaves; the holes of an in-place set go too, which moves what iteration reads
    if (mode == deletion_policy::in_place) {
        note_rearrangement(!packed.empty());
    } else {
        for (size_type pos{}; pos < iterated_size(); ++pos) {
            note_change(packed[pos]);
        }
    }
#endif
    switch (mode) {
    case deletion_policy::in_place:
        if (head != max_size) {
            for (auto &&elem : packed) {
                if (elem != tombstone) {
                    sparse_ref(elem) = null;
                }
            }
            break;
        }
        [[fallthrough]];
    case deletion_policy::swap_only:
    case deletion_policy::swap_and_pop:
        for (auto &&elem : packed) {
            sparse_ref(elem) = null;
        }
        break;
    }

    ++edits;
    head = policy_to_head();
    disabled = 0u;
    packed.clear();
}

template<typename Entity, typename Allocator>
template<typename It>
void basic_sparse_set<Entity, Allocator>::erase(It first, It last) {
    TESSERA_RACE_WRITE(*this, "erase");
    if constexpr (std::is_same_v<It, basic_iterator>) {
        // positions are only meaningful in the set the iterators belong to; another set's range goes by
        // identifier, in one call
        if (owns(first)) {
            pop(first, last);
        } else {
            pop_listed(first, last, false);
        }
    } else {
        for (; first != last; ++first) {
            erase(*first);
        }
    }
}

template<typename Entity, typename Allocator>
template<typename It>
auto basic_sparse_set<Entity, Allocator>::remove(It first, It last) -> size_type {
    TESSERA_RACE_WRITE(*this, "remove");
    size_type count{};

    if constexpr (std::is_same_v<It, basic_iterator>) {
        if (!owns(first)) {
            // iterators of another set: their positions mean nothing here
            return pop_listed(first, last, true);
        }

#if TESSERA_DEBUG_ITERATION
        // the loop goes on after erasing what it walked over: its own steps are not an iteration to check
        first = first.unwatched();
#endif
        // Consecutive members go in one erase: a single pop per run rather than one per identifier.
        const auto member = [this](const entity_type entt) { return contains(entt); };
        while (first != last) {
            const auto run = std::find_if(first, last, member);
            first = std::find_if_not(run, last, member);
            count += static_cast<size_type>(std::distance(run, first));
            erase(run, first);
        }
    } else {
        for (; first != last; ++first) {
            count += remove(*first);
        }
    }

    return count;
}

} // namespace tessera

#endif
