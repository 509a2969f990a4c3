// Families of dense sequential identifiers: each family numbers its own set of type packs from zero.
#ifndef TESSERA_CORE_FAMILY_HPP
#define TESSERA_CORE_FAMILY_HPP

#include "../config/config.hpp"
#include "fwd.hpp"

namespace tessera {

/// A family of identifiers. Every specialization (for example one per tag type) has its own counter, so the
/// values of a family stay small and dense. The order in which packs get their values is unspecified.
template<typename...>
class family {
    // Constant-initialized, hence ready before any dynamically initialized value below reads it.
    inline static internal::maybe_atomic<id_type> counter{};

public:
    /// Type of the identifiers.
    using value_type = id_type;

    /// The identifier of a pack of types within this family.
    template<typename... Type>
    inline static const value_type value = counter++;
};

} // namespace tessera

#endif
