// What views (view.hpp, view_single.hpp) know of their storage types: the common base class, the element type, and
// the callbacks each(func) accepts.
#ifndef TESSERA_ENTITY_VIEW_ELEMENT_HPP
#define TESSERA_ENTITY_VIEW_ELEMENT_HPP

#include "../core/type_traits.hpp"
#include "engine/block_walk.hpp"
#include "engine/get.hpp"
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tessera {

namespace internal {

/// The common base class of a storage type (the type itself for a plain sparse set), without const.
template<typename Type>
struct view_common {
    /// The base class.
    using type = std::remove_const_t<Type>;
};

/// Storages name their base class.
template<typename Type>
requires requires { typename Type::base_type; }
struct view_common<Type> {
    /// The base class.
    using type = typename Type::base_type;
};

/// The element type of a storage type (void for plain sparse sets).
template<typename Type>
struct view_element {
    /// The element type.
    using type = void;
};

/// Storages name their element type.
template<typename Type>
requires requires { typename Type::element_type; }
struct view_element<Type> {
    /// The element type.
    using type = typename Type::element_type;
};

/// Element type of a storage type, without const.
template<typename Type>
using view_element_t = std::remove_const_t<typename view_element<Type>::type>;

/// The element of an entity as a one-element tuple, or an empty tuple for storages without instances.
template<typename Type, typename Entity>
[[nodiscard]] auto view_element_tuple(Type &pool, [[maybe_unused]] const Entity entt) {
    if constexpr (walk_traits<Type>::instances) {
        return std::forward_as_tuple(walk_get(pool, entt));
    } else {
        return std::tuple<>{};
    }
}

/// True if func takes (entity, elements...) or (elements...) for a view over Get..., where elements are those of
/// the storages with instances.
template<typename Func, typename Entity, typename... Get>
inline constexpr bool view_callable_v = []<std::size_t... Index>(std::index_sequence<Index...>) {
    return walk_callable_v<Func, Entity, typename walk_ref<type_list_element_t<Index, type_list<Get...>>>::type...>;
}
(typename walk_kept<walk_traits<Get>::instances...>::type{});

} // namespace internal

} // namespace tessera

#endif
