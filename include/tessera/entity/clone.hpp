// Copying entities: registry::clone, into the same registry or another one of the same type, following the clone
// policy of each component type (component_traits<T>::clone, docs/clone.md). An extra: the registry forwards to
// clone_support (below), which walks the pool table and copies each element through the pool's own push; the core
// keeps, per pool, only the twin function and the policy (tables/pool_table.hpp).
#ifndef TESSERA_ENTITY_CLONE_HPP
#define TESSERA_ENTITY_CLONE_HPP

#include "../config/config.hpp"
#include "../core/fwd.hpp"
#include "component.hpp"
#include "fwd.hpp"
#include "registry.hpp"
#include <cstddef>
#include <string>
#include <string_view>

namespace tessera::internal {

/// The misuse message for a component type that clone cannot copy; it names the type.
[[nodiscard]] inline std::string clone_refusal(const std::string_view function, const std::string_view type) {
    std::string text{function};
    text.append(": ").append(type).append(
        " cannot be copied; give it a copy constructor, or declare clone_policy::skip or a clone_element function "
        "in the type or its component_traits (docs/clone.md)");
    return text;
}

/// How registry::clone copies an entity, and how prototypes copy a pool's element into another registry's pool.
template<typename Registry>
struct clone_support {
    /// Identifier type.
    using entity_type = typename Registry::entity_type;
    /// The common base class of the pools.
    using common_type = typename Registry::common_type;

    /// The pool named `id` in `target` for the elements of `pool`, made through `twin` when `target` has none.
    /// Misuse if the name is taken by another element type there.
    template<typename Twin>
    [[nodiscard]] static common_type &pool_in(Registry &target, const id_type id,
                                              [[maybe_unused]] const common_type &pool, Twin *twin) {
        common_type *made = target.storage(id);

        if (made == nullptr) {
            made = &twin(target, id);
        }

        TESSERA_ASSERT(made->info() == pool.info(), "clone: the pool name is taken by another element type");
        return *made;
    }

    /// Gives each identifier of [first, last) of `target` a copy of the element of `entt` in the pool of the table
    /// entry `entry`, under the element type's clone policy, with one bulk insertion (on_construct fires once per
    /// identifier after all are added). `function` names the caller in the misuse message of a type that cannot be
    /// copied. Returns the pool of `target` that got the copies.
    template<typename Entry>
    static common_type &copy(Registry &target, const Entry &entry, const entity_type entt, const entity_type *first,
                             const entity_type *last, [[maybe_unused]] const char *function) {
        const common_type &pool = *entry.second;
        common_type &made = pool_in(target, entry.first, pool, entry.twin);
        [[maybe_unused]] const auto it = made.push(first, last, pool.value(entt));
        TESSERA_ASSERT(first == last || it != made.end(), clone_refusal(function, pool.info().name()).c_str());
        return made;
    }

    /// Calls func(entry) for every pool of `source` that holds `entt` and copies its elements (policy other than
    /// skip, not reactive), last pool first as removals go: a reactive pool a listener makes meanwhile (reactive
    /// pools go in front) then makes the walk skip a pool rather than visit one twice.
    template<typename Func>
    static void each_copied(const Registry &source, const entity_type entt, Func func) {
        for (std::size_t pos = source.pools.size(); pos != 0u; --pos) {
            const auto &entry = source.pools[pos - 1u];

            if (entry.twin != nullptr && entry.policy != clone_policy::skip && entry.second->contains(entt)) {
                func(entry);
            }
        }
    }

    /// Creates in `target` a copy of `entt` of `source`: every pool that holds it and copies its elements gives
    /// the copy an element, newest pool first. If a copy throws, the new entity is destroyed again (its signals
    /// stay fired) and the exception propagates. Returns the new entity.
    static entity_type clone(const Registry &source, const entity_type entt, Registry &target) {
        TESSERA_ASSERT(source.valid(entt), "clone: invalid entity");
        const auto copied = target.create();

        try {
            each_copied(source, entt, [&target, entt, &copied](const auto &entry) {
                auto &made = copy(target, entry, entt, &copied, &copied + 1, "clone");

                // a disabled component stays disabled in the copy (docs/enable_disable.md)
                if (!entry.second->enabled(entt) && made.contains(copied)) {
                    made.disable(copied);
                }
            });
        } catch (...) {
            if (target.valid(copied)) {
                target.destroy(copied);
            }

            throw;
        }

        return copied;
    }
};

} // namespace tessera::internal

#endif
