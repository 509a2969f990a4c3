// Compile-time sequential identifiers for a closed list of types.
#ifndef TESSERA_CORE_IDENT_HPP
#define TESSERA_CORE_IDENT_HPP

#include "fwd.hpp"
#include "type_traits.hpp"
#include <type_traits>

namespace tessera {

/// Numbers the types of a fixed list: `ident<A, B>::value<B>` is 1. The values are constant expressions, stable
/// as long as the list does not change (put a placeholder where a type goes away).
template<typename... Type>
class ident {
    using list = type_list<std::decay_t<Type>...>;

public:
    /// Type of the identifiers.
    using value_type = id_type;

    /// The position of `Current` (cv and references ignored) in the list.
    template<typename Current>
    requires type_list_contains_v<list, std::remove_cvref_t<Current>>
    static constexpr value_type value = static_cast<value_type>(type_list_index_v<std::remove_cvref_t<Current>, list>);
};

} // namespace tessera

#endif
