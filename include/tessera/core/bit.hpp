// Bit tricks on unsigned integers: a modulo by a power of two without a division.
#ifndef TESSERA_CORE_BIT_HPP
#define TESSERA_CORE_BIT_HPP

#include "../config/config.hpp"
#include <bit>
#include <concepts>
#include <cstddef>

namespace tessera {

/// `value % mod` for a power-of-two `mod`, computed with a mask. Misuse if `mod` is not a power of two. Not noexcept,
/// so that a throwing TESSERA_ASSERT can report the misuse.
template<std::unsigned_integral Type>
[[nodiscard]] constexpr Type fast_mod(const Type value, const std::size_t mod) {
    if (!std::is_constant_evaluated()) {
        TESSERA_ASSERT(std::has_single_bit(mod), "fast_mod: the modulus must be a power of two");
    }
    return value & static_cast<Type>(mod - 1u);
}

} // namespace tessera

#endif
