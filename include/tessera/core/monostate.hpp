// Program-wide values named by an id: a minimal configuration store.
#ifndef TESSERA_CORE_MONOSTATE_HPP
#define TESSERA_CORE_MONOSTATE_HPP

#include "../config/config.hpp"
#include "fwd.hpp"

namespace tessera {

/// A set of global values named by `Key`, one per type: assigning an `int` sets the key's `int`, converting to `int`
/// reads it back. Values of different types under the same key are independent. With TESSERA_USE_ATOMIC each value
/// is an atomic.
template<id_type Key>
struct monostate {
    /// Sets the value of type `Type` under this key.
    template<typename Type>
    monostate &operator=(Type value) noexcept {
        slot<Type> = value;
        return *this;
    }

    /// The value of type `Type` under this key (value-initialized until set).
    template<typename Type>
    operator Type() const noexcept {
        return slot<Type>;
    }

private:
    template<typename Type>
    inline static internal::maybe_atomic<Type> slot{};
};

/// A ready-made object of `monostate<Key>`.
template<id_type Key>
inline monostate<Key> monostate_v{};

} // namespace tessera

#endif
