// The shared library side: computes type identities with its own copy of every tessera template.
#include "types.hpp"
#include <tessera/core/type_info.hpp>

namespace shared_types {

namespace {

template<typename Type>
identity identity_of() {
    return identity{tessera::type_id<Type>().hash(), tessera::type_hash<Type>::value(),
                    tessera::type_name<Type>::value()};
}

} // namespace

identity position_identity() { return identity_of<position>(); }

identity box_identity() { return identity_of<box<position>>(); }

identity int_identity() { return identity_of<int>(); }

} // namespace shared_types
