// How the registry writes in bulk or over existing components: the members of basic_registry that destroy a range
// of entities (destroy(first, last)) and assign a new value (emplace_or_replace, replace). Declared in registry.hpp,
// which includes this header at its end; defined `inline`, as their in-class definitions were implicitly.
#ifndef TESSERA_ENTITY_REGISTRY_WRITE_HPP
#define TESSERA_ENTITY_REGISTRY_WRITE_HPP

#include "../config/config.hpp"
#include "checks/race_guard.hpp"
#include "registry.hpp"
#include <algorithm>
#include <iterator>
#include <type_traits>
#include <utility>
#include <vector>

namespace tessera {

template<typename Entity, typename Allocator>
template<typename It>
inline void basic_registry<Entity, Allocator>::destroy(It first, It last) {
    if constexpr (std::forward_iterator<It>) {
        // read the whole range first: it may be a view over the pools this call empties. Kept back to front,
        // since a set's iterators walk their array from the back: over this copy, they give the range's order.
        std::vector<entity_type, allocator_type> target(get_allocator());

        if constexpr (std::bidirectional_iterator<It>) {
            target.assign(std::make_reverse_iterator(last), std::make_reverse_iterator(first));
        } else {
            target.assign(first, last);
            std::reverse(target.begin(), target.end());
        }

        const typename common_type::iterator from{target,
                                                  static_cast<typename common_type::difference_type>(target.size())};
        const typename common_type::iterator to{target, {}};

        for ([[maybe_unused]] const auto entt : target) {
            TESSERA_ASSERT(valid(entt), "destroy: invalid entity");
        }

        destroy_listed(from, to);
    } else {
        for (; first != last; ++first) {
            destroy(*first);
        }
    }
}

template<typename Entity, typename Allocator>
template<typename Type, typename... Args>
inline decltype(auto) basic_registry<Entity, Allocator>::emplace_or_replace(const entity_type entt, Args &&...args) {
    TESSERA_ASSERT(valid(entt), "emplace_or_replace: invalid entity");
    auto &pool = assure<Type>();
    TESSERA_RACE_WRITE(pool, "emplace_or_replace");

    if (pool.contains(entt)) {
        if constexpr (std::is_void_v<typename storage_for_type<Type>::value_type>) {
            return pool.patch(entt);
        } else {
            return pool.patch(entt, [&args...](auto &...element) {
                ((element = make_element<Type>(std::forward<Args>(args)...)), ...);
            });
        }
    } else {
        return emplace<Type>(entt, std::forward<Args>(args)...);
    }
}

template<typename Entity, typename Allocator>
template<typename Type, typename... Args>
inline decltype(auto) basic_registry<Entity, Allocator>::replace(const entity_type entt, Args &&...args) {
    auto &pool = assure<Type>();
    TESSERA_RACE_WRITE(pool, "replace");
    TESSERA_ASSERT(pool.contains(entt), "replace: the entity does not own this component");

    if constexpr (std::is_void_v<typename storage_for_type<Type>::value_type>) {
        return pool.patch(entt);
    } else {
        return pool.patch(
            entt, [&args...](auto &...element) { ((element = make_element<Type>(std::forward<Args>(args)...)), ...); });
    }
}

} // namespace tessera

#endif
