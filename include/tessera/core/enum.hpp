// Bitmask operators for scoped enums that ask for them.
#ifndef TESSERA_CORE_ENUM_HPP
#define TESSERA_CORE_ENUM_HPP

#include <concepts>
#include <type_traits>

namespace tessera {

namespace internal {

// The marker enumerator, under tessera's name or under the name code ported from EnTT uses.
template<typename Type>
concept has_bitmask_marker = std::is_enum_v<Type> &&(
    requires {
        { Type::_tessera_enum_as_bitmask } -> std::same_as<Type>;
    } ||
    requires {
        { Type::_entt_enum_as_bitmask } -> std::same_as<Type>;
    });

} // namespace internal

/// Whether the bitmask operators are enabled for an enum. Specialize it as std::true_type, or give the enum a last
/// enumerator named `_tessera_enum_as_bitmask` (`_entt_enum_as_bitmask` is accepted too).
template<typename Type>
struct enum_as_bitmask : std::bool_constant<internal::has_bitmask_marker<Type>> {};

/// Whether the bitmask operators are enabled for an enum.
template<typename Type>
inline constexpr bool enum_as_bitmask_v = enum_as_bitmask<Type>::value;

/// An enum whose bitmask operators are enabled (the enum test also guards against a specialization made for a type
/// that is not an enum).
template<typename Type>
concept enum_bitmask = enum_as_bitmask<Type>::value && std::is_enum_v<Type>;

namespace internal {

template<enum_bitmask Type>
[[nodiscard]] constexpr auto bits_of(const Type value) noexcept {
    return static_cast<std::underlying_type_t<Type>>(value);
}

} // namespace internal

} // namespace tessera

// The operators live in the global namespace so that they apply to enums of any namespace; the constraint keeps
// them away from every enum that did not ask for them.

/// Bitwise or of two flags.
template<tessera::enum_bitmask Type>
[[nodiscard]] constexpr Type operator|(const Type lhs, const Type rhs) noexcept {
    return Type(tessera::internal::bits_of(lhs) | tessera::internal::bits_of(rhs));
}

/// Bitwise and of two flags.
template<tessera::enum_bitmask Type>
[[nodiscard]] constexpr Type operator&(const Type lhs, const Type rhs) noexcept {
    return Type(tessera::internal::bits_of(lhs) & tessera::internal::bits_of(rhs));
}

/// Bitwise exclusive or of two flags.
template<tessera::enum_bitmask Type>
[[nodiscard]] constexpr Type operator^(const Type lhs, const Type rhs) noexcept {
    return Type(tessera::internal::bits_of(lhs) ^ tessera::internal::bits_of(rhs));
}

/// Every bit flipped.
template<tessera::enum_bitmask Type>
[[nodiscard]] constexpr Type operator~(const Type value) noexcept {
    return Type(~tessera::internal::bits_of(value));
}

/// True when no bit is set.
template<tessera::enum_bitmask Type>
[[nodiscard]] constexpr bool operator!(const Type value) noexcept {
    return tessera::internal::bits_of(value) == 0;
}

/// Sets the bits of `rhs` in `lhs`.
template<tessera::enum_bitmask Type>
constexpr Type &operator|=(Type &lhs, const Type rhs) noexcept {
    return lhs = lhs | rhs;
}

/// Keeps in `lhs` only the bits also set in `rhs`.
template<tessera::enum_bitmask Type>
constexpr Type &operator&=(Type &lhs, const Type rhs) noexcept {
    return lhs = lhs & rhs;
}

/// Flips in `lhs` the bits set in `rhs`.
template<tessera::enum_bitmask Type>
constexpr Type &operator^=(Type &lhs, const Type rhs) noexcept {
    return lhs = lhs ^ rhs;
}

#endif
