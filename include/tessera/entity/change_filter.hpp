// Change filters: visit the entities of a view, a group or a runtime view whose tracked component was added or
// changed after a tick, at a cost that follows the number of changes rather than the number of entities when few
// changed.
//
// How: a tracked storage keeps a change log, (entity, tick) entries in tick order (change_tracking.hpp). A filter
// binary-searches the first entry after `since` and visits the entries from there, skipping stale ones (the
// element changed again later, or was removed) by comparing with the element's own entry index. When more than a
// scan_ratio-th of the pool is in that tail, reading the packed ticks in order is cheaper than random lookups, so
// the filter scans the pool instead. Order of the visit: unspecified (log order or packed order). One walk
// (walk_changes) serves every kind of view: it is given the tracked pool, a membership test and a visitor.
#ifndef TESSERA_ENTITY_CHANGE_FILTER_HPP
#define TESSERA_ENTITY_CHANGE_FILTER_HPP

#include "../config/config.hpp"
#include "change_tracking.hpp"
#include "engine/block_walk.hpp"
#include "entity.hpp"
#include "fwd.hpp"
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tessera {

namespace internal {

/// How a change filter walks: chosen by the size of the log tail, or forced (benchmarks, tests).
enum class change_walk : std::uint8_t { automatic, log, scan };

/// Past a tail of size / scan_ratio log entries the filter scans the pool instead of following the log.
inline constexpr std::size_t change_scan_ratio = 8u;

/// True if the storage type keeps ticks (its component type declares track_changes).
template<typename Pool>
concept change_tracked_pool = requires(const Pool &pool) {
    pool.tick_column().log_size();
};

/// Keeps the change log of a pool from being compacted while a walk reads it, exceptions included.
template<typename Column>
class change_walk_guard {
public:
    explicit change_walk_guard(const Column &ref) noexcept : column{&ref} { ++column->walking; }
    change_walk_guard(const change_walk_guard &) = delete;
    change_walk_guard &operator=(const change_walk_guard &) = delete;
    ~change_walk_guard() { --column->walking; }

private:
    const Column *column;
};

/// The walk behind every change filter: calls visit(entity) for the elements of `pool` added (Added) or changed
/// after `since` whose entity passes member(entity); disabled elements only if `mode` (the view's) counts them.
/// visit may stamp (not visited again: the log walk stops at the end of the log as it was, the scan never goes
/// back) and remove the entity it is given.
template<bool Added, typename Pool, typename Member, typename Visit>
void walk_changes(const Pool &pool, const tick_type since, const change_walk walk, const disabled_mode mode,
                  Member &member, Visit &visit) {
    const auto &column = pool.tick_column();
    const auto now = column.now();
    const auto last = column.log_size();
    const auto first = column.first_after(since);
    const bool scan = walk == change_walk::scan ||
                      (walk == change_walk::automatic && (last - first) * change_scan_ratio > pool.size());

    const auto wanted = [&column, since, now](const std::size_t pos) {
        const auto &ticks = column.at(pos);
        return tick_after(Added ? ticks.added : ticks.changed, since, now);
    };

    if (scan) {
        // from the back, as views walk: visit may remove the entity it is given; disabled elements sit past
        // walk_count (engine/membership.hpp) and are read only when the view counts them
        for (auto pos = walk_reach(pool, mode); pos != 0u;) {
            if (const auto entt = pool.data()[--pos]; entt != tombstone && wanted(pos) && member(entt)) {
                visit(entt);
            }
        }
    } else {
        const change_walk_guard guard{column};

        // up to the end of the log as it is now: what visit stamps is not visited again
        for (auto curr = first; curr < last; ++curr) {
            const auto entt = column.entry(curr).entt;

            if (pool.contains(entt)) {
                if (const auto pos = pool.index(entt); column.at(pos).entry == curr && (!Added || wanted(pos)) &&
                                                       walk_in_use(pool, pos, mode) != walk_npos && member(entt)) {
                    visit(entt);
                }
            }
        }
    }
}

/// Calls func(entity, elements...) or func(elements...), with the elements view.get(entity) gives.
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

/// True for runtime views, which have no element types: their filters take the storage instead.
template<typename View>
inline constexpr bool is_runtime_view_v = false;

/// Runtime views.
template<typename Set, typename Allocator>
inline constexpr bool is_runtime_view_v<basic_runtime_view<Set, Allocator>> = true;

/// Which disabled elements a view visits; groups have no choice: their members are enabled.
template<typename View>
[[nodiscard]] disabled_mode view_disabled_mode(const View &view) noexcept {
    if constexpr (requires { view.visit_disabled(); }) {
        return view.visit_disabled();
    } else {
        return disabled_mode::skip;
    }
}

/// Calls func for the entities of `view` (a view or a group) whose Type element was added (Added) or changed after
/// `since`.
template<bool Added, typename Type, typename View, typename Func>
void each_since(const View &view, const tick_type since, Func &func, const change_walk walk) {
    static_assert(!is_runtime_view_v<View>,
                  "each_changed/each_added: a runtime view has no element types; pass the tracked storage instead: "
                  "each_changed(view, registry.storage<T>(), since, func)");

    if constexpr (!is_runtime_view_v<View>) {
        const auto *const pool = view.template storage<Type>();
        constexpr bool tracked = change_tracked_pool<std::remove_const_t<std::remove_pointer_t<decltype(pool)>>>;
        static_assert(tracked, "each_changed/each_added: the type is not tracked; declare static constexpr bool "
                               "track_changes = true in it or in its component_traits");

        if constexpr (tracked) {
            if (pool != nullptr) {
                auto member = [&view](const auto entt) { return view.contains(entt); };
                auto visit = [&view, &func](const auto entt) { invoke_with_elements(view, entt, func); };
                walk_changes<Added>(*pool, since, walk, view_disabled_mode(view), member, visit);
            }
        }
    }
}

/// Calls func(entity) for the entities of the runtime view whose element in `pool` was added (Added) or changed
/// after `since`.
template<bool Added, typename Set, typename Allocator, typename Pool, typename Func>
void each_since(const basic_runtime_view<Set, Allocator> &view, const Pool &pool, const tick_type since, Func &func,
                const change_walk walk) {
    static_assert(!std::is_pointer_v<Pool>, "each_changed/each_added: pass the storage itself, not a pointer to it");
    constexpr bool tracked = change_tracked_pool<Pool>;
    static_assert(std::is_pointer_v<Pool> || tracked,
                  "each_changed/each_added: the storage does not track changes; declare static constexpr bool "
                  "track_changes = true in its type or in its component_traits");
    constexpr bool callable = std::is_invocable_v<Func &, typename Set::entity_type>;
    static_assert(callable, "each_changed/each_added on a runtime view: func takes the entity only; read the "
                            "elements through the storages");

    if constexpr (tracked && callable) {
        auto member = [&view](const auto entt) { return view.contains(entt); };
        auto visit = [&func](const auto entt) { func(entt); };
        walk_changes<Added>(pool, since, walk, view.visit_disabled(), member, visit);
    }
}

} // namespace internal

/// Calls func(entity, elements...) or func(elements...), as each() does, for every entity of a view or a group
/// (owning, partial-owning or not) whose Type (a tracked type the view or group iterates, owns or gets) was added or
/// changed after tick `since`. Cost: O(log n + changes since) when few changed, one pass over Type's pool when many
/// did. func may change elements (patch, modified: those stamps are not visited again) and remove the entity it is
/// given, but must not add components of the view's or group's types. Disabled elements are visited only if the
/// view's visit_disabled() counts them.
template<typename Type, typename View, typename Func>
void each_changed(const View &view, const tick_type since, Func func) {
    internal::each_since<false, Type>(view, since, func, internal::change_walk::automatic);
}

/// Same as each_changed, for the entities whose Type was added after tick `since`.
template<typename Type, typename View, typename Func>
void each_added(const View &view, const tick_type since, Func func) {
    internal::each_since<true, Type>(view, since, func, internal::change_walk::automatic);
}

/// Calls func(entity) for every entity of a runtime view whose element in `pool` (a tracked storage, for instance
/// registry.storage<T>()) was added or changed after tick `since` (and is enabled, unless the view visits disabled
/// ones). The pool need not be one of the view's storages: it then filters further (the entity is in the view and
/// changed in the pool). Same cost and same rules for func as the typed each_changed; a runtime view without iterated
/// storages holds no entity.
template<typename Set, typename Allocator, typename Pool, typename Func>
void each_changed(const basic_runtime_view<Set, Allocator> &view, const Pool &pool, const tick_type since, Func func) {
    internal::each_since<false>(view, pool, since, func, internal::change_walk::automatic);
}

/// Same as the runtime view's each_changed, for the entities whose element in `pool` was added after `since`.
template<typename Set, typename Allocator, typename Pool, typename Func>
void each_added(const basic_runtime_view<Set, Allocator> &view, const Pool &pool, const tick_type since, Func func) {
    internal::each_since<true>(view, pool, since, func, internal::change_walk::automatic);
}

} // namespace tessera

#endif
