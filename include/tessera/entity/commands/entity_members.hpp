// Identifiers inside component values: how a command buffer finds the identifiers a value holds (an identifier, a
// range of them, or the members that component_traits<T>::entity_members lists) and maps provisional ones to the
// real identifiers at apply.
#ifndef TESSERA_ENTITY_COMMANDS_ENTITY_MEMBERS_HPP
#define TESSERA_ENTITY_COMMANDS_ENTITY_MEMBERS_HPP

#include "../../config/std_parts.hpp"
#include "../component.hpp"
#include <tuple>
#include <type_traits>

namespace tessera {

namespace internal {

/// True if the component traits of Type list members that hold identifiers.
template<typename Type, typename Entity>
inline constexpr bool lists_entity_members_v =
    std::tuple_size_v<std::remove_const_t<decltype(entity_members_of<component_traits<Type, Entity>, Type>)>> != 0u;

/// Replaces every identifier found in `value` by map(identifier): `value` is an identifier, a range of values or
/// a type whose component traits list entity_members.
template<typename Entity, typename Type, typename Map>
void map_entities(Type &value, const Map &map) {
    if constexpr (std::is_same_v<Type, Entity>) {
        value = map(value);
    } else if constexpr (lists_entity_members_v<Type, Entity>) {
        std::apply([&value, &map](const auto... member) { (map_entities<Entity>(value.*member, map), ...); },
                   entity_members_of<component_traits<Type, Entity>, Type>);
    } else if constexpr (std::ranges::range<Type &>) {
        for (auto &&elem : value) {
            map_entities<Entity>(elem, map);
        }
    } else {
        static_assert(std::is_same_v<Type, Entity>, "entity_members: a listed member must be an identifier, a range "
                                                    "of them, or a type that lists entity_members itself");
    }
}

} // namespace internal

} // namespace tessera

#endif
