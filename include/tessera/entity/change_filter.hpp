// Change filters: visit the entities of a view whose tracked component was added or changed after a tick, at a
// cost that follows the number of changes rather than the number of entities when few changed.
//
// How: a tracked storage keeps a change log, (entity, tick) entries in tick order (change_tracking.hpp). A filter
// binary-searches the first entry after `since` and visits the entries from there, skipping stale ones (the
// element changed again later, or was removed) by comparing with the element's own entry index. When more than a
// scan_ratio-th of the pool is in that tail, reading the packed ticks in order is cheaper than random lookups, so
// the filter scans the pool instead. Order of the visit: unspecified (log order or packed order).
#ifndef TESSERA_ENTITY_CHANGE_FILTER_HPP
#define TESSERA_ENTITY_CHANGE_FILTER_HPP

#include "../config/config.hpp"
#include "change_tracking.hpp"
#include "entity.hpp"
#include <cstddef>
#include <tuple>
#include <type_traits>

namespace tessera {

namespace internal {

/// How a change filter walks: chosen by the size of the log tail, or forced (benchmarks, tests).
enum class change_walk : std::uint8_t { automatic, log, scan };

/// Past a tail of size / scan_ratio log entries the filter scans the pool instead of following the log.
inline constexpr std::size_t change_scan_ratio = 8u;

template<typename View, typename Func>
void invoke_with_elements(const View &view, const typename View::entity_type entt, Func &func) {
    std::apply(
        [&func, entt](auto &&...elem) {
            if constexpr (std::is_invocable_v<Func &, typename View::entity_type, decltype(elem)...>) {
                func(entt, std::forward<decltype(elem)>(elem)...);
            } else {
                func(std::forward<decltype(elem)>(elem)...);
            }
        },
        view.get(entt));
}

/// Calls func for the entities of `view` whose Type element was added (Added) or changed after `since`.
template<bool Added, typename Type, typename View, typename Func>
void each_since(const View &view, const tick_type since, Func &func, const change_walk walk) {
    const auto *const pool = view.template storage<Type>();
    static_assert(
        requires { pool->tick_column(); },
        "each_changed/each_added: the type is not tracked; declare static constexpr bool track_changes = "
        "true in it or in its component_traits");

    if (pool == nullptr) {
        return;
    }

    const auto &column = pool->tick_column();
    const auto now = column.now();
    const auto last = column.log_size();
    const auto first = column.first_after(since);
    const bool scan = walk == change_walk::scan ||
                      (walk == change_walk::automatic && (last - first) * change_scan_ratio > pool->size());

    const auto wanted = [&column, since, now](const std::size_t pos) {
        const auto &ticks = column.at(pos);
        return tick_after(Added ? ticks.added : ticks.changed, since, now);
    };

    if (scan) {
        // from the back, as views walk: func may remove the entity it is given
        for (auto pos = pool->size(); pos != 0u;) {
            if (const auto entt = pool->data()[--pos]; entt != tombstone && wanted(pos) && view.contains(entt)) {
                invoke_with_elements(view, entt, func);
            }
        }
    } else {
        ++column.walking;

        try {
            // up to the end of the log as it is now: what func stamps is not visited again
            for (auto curr = first; curr < last; ++curr) {
                const auto entt = column.entry(curr).entt;

                if (pool->contains(entt)) {
                    if (const auto pos = pool->index(entt);
                        column.at(pos).entry == curr && (!Added || wanted(pos)) && view.contains(entt)) {
                        invoke_with_elements(view, entt, func);
                    }
                }
            }
        } catch (...) {
            --column.walking;
            throw;
        }

        --column.walking;
    }
}

} // namespace internal

/// Calls func(entity, elements...) or func(elements...), as view.each does, for every entity of the view whose
/// Type (a tracked component of the view) was added or changed after tick `since`. Cost: O(log n + changes since)
/// when few changed, one pass over Type's pool when many did. func may change elements (patch, modified: those
/// stamps are not visited again) and remove the entity it is given, but must not add components of the view's types.
template<typename Type, typename View, typename Func>
void each_changed(const View &view, const tick_type since, Func func) {
    internal::each_since<false, Type>(view, since, func, internal::change_walk::automatic);
}

/// Same as each_changed, for the entities whose Type was added after tick `since`.
template<typename Type, typename View, typename Func>
void each_added(const View &view, const tick_type since, Func func) {
    internal::each_since<true, Type>(view, since, func, internal::change_walk::automatic);
}

} // namespace tessera

#endif
