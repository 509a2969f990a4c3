// Entity identifiers: the bit layout (index + version), the traits that read and build identifiers,
// and the null and tombstone constants.
#ifndef TESSERA_ENTITY_ENTITY_HPP
#define TESSERA_ENTITY_ENTITY_HPP

#include "../config/config.hpp"
#include "fwd.hpp"
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace tessera {

namespace internal {

/// Layout of an identifier type: its integer, version type and masks. Unspecialized for unsupported types.
template<typename>
struct entt_layout;

template<>
struct entt_layout<std::uint32_t> {
    using value_type = std::uint32_t;
    using entity_type = std::uint32_t;
    using version_type = std::uint16_t;
    static constexpr entity_type entity_mask = 0xFFFFF;
    static constexpr entity_type version_mask = 0xFFF;
};

template<>
struct entt_layout<std::uint64_t> {
    using value_type = std::uint64_t;
    using entity_type = std::uint64_t;
    using version_type = std::uint32_t;
    static constexpr entity_type entity_mask = 0xFFFFFFFF;
    static constexpr entity_type version_mask = 0xFFFFFFFF;
};

/// True if Integer is one of the integers an identifier can be built on. Checked before deriving from its layout,
/// so that an enum or class over another integer is simply not entity_like instead of a hard error.
template<typename Integer>
concept entt_integer = std::is_same_v<Integer, std::uint32_t> || std::is_same_v<Integer, std::uint64_t>;

template<typename Type>
requires std::is_enum_v<Type> && entt_integer<std::underlying_type_t<Type>>
struct entt_layout<Type> : entt_layout<std::underlying_type_t<Type>> {
    using value_type = Type;
};

template<typename Type>
requires std::is_class_v<Type> && requires { typename Type::entity_type; } && entt_integer<typename Type::entity_type>
struct entt_layout<Type> : entt_layout<typename Type::entity_type> {
    using value_type = Type;
};

} // namespace internal

/// An identifier type that tessera can use: std::uint32_t, std::uint64_t, an enum over one of them, or a class
/// with a nested entity_type that is one of them.
template<typename Type>
concept entity_like = requires {
    typename internal::entt_layout<std::remove_cv_t<Type>>::value_type;
};

/// Reads and builds identifiers of the layout described by Traits (value_type, entity_type, version_type and
/// the two masks).
template<typename Traits>
class basic_entt_traits {
    static constexpr auto length = std::popcount(Traits::entity_mask);

    static_assert(Traits::entity_mask && ((Traits::entity_mask & (Traits::entity_mask + 1)) == 0),
                  "entity_mask must be 2^k - 1 with k > 0");
    static_assert((Traits::version_mask & (Traits::version_mask + 1)) == 0, "version_mask must be 2^j - 1");

public:
    /// The identifier type.
    using value_type = typename Traits::value_type;
    /// The unsigned integer behind an identifier.
    using entity_type = typename Traits::entity_type;
    /// The integer type of versions.
    using version_type = typename Traits::version_type;

    /// Mask of the index part.
    static constexpr entity_type entity_mask = Traits::entity_mask;
    /// Mask of the version part (after shifting it down).
    static constexpr entity_type version_mask = Traits::version_mask;

    /// The identifier as an integer.
    [[nodiscard]] TESSERA_FORCE_INLINE static constexpr entity_type to_integral(const value_type value) noexcept {
        return static_cast<entity_type>(value);
    }

    /// The index part of an identifier.
    [[nodiscard]] TESSERA_FORCE_INLINE static constexpr entity_type to_entity(const value_type value) noexcept {
        return to_integral(value) & entity_mask;
    }

    /// The version part of an identifier.
    [[nodiscard]] TESSERA_FORCE_INLINE static constexpr version_type to_version(const value_type value) noexcept {
        if constexpr (version_mask == 0u) {
            return version_type{};
        } else {
            return static_cast<version_type>(static_cast<entity_type>(to_integral(value) >> length) & version_mask);
        }
    }

    /// The same index with the next version; the tombstone version is skipped, so versions wrap to 0.
    [[nodiscard]] static constexpr value_type next(const value_type value) noexcept {
        const auto version = static_cast<entity_type>(to_version(value)) + 1u;
        return construct(to_entity(value), static_cast<version_type>(version + (version == version_mask)));
    }

    /// Builds an identifier from an index and a version (both are masked).
    [[nodiscard]] static constexpr value_type construct(const entity_type entity, const version_type version) noexcept {
        if constexpr (version_mask == 0u) {
            return value_type{entity & entity_mask};
        } else {
            return value_type{(entity & entity_mask) | ((static_cast<entity_type>(version) & version_mask) << length)};
        }
    }

    /// An identifier with the index bits of lhs and the version bits of rhs.
    [[nodiscard]] static constexpr value_type combine(const entity_type lhs, const entity_type rhs) noexcept {
        // Without version bits there is nothing to take from rhs (and no shift by the full width to make).
        constexpr entity_type version_field = version_mask == 0u ? entity_type{} : entity_type(version_mask << length);
        return value_type{static_cast<entity_type>((lhs & entity_mask) | (rhs & version_field))};
    }
};

/// The identifier traits of Type. Specialize it as basic_entt_traits<YourLayout> to choose other masks.
template<entity_like Type>
struct entt_traits : basic_entt_traits<internal::entt_layout<Type>> {
    /// The traits this specialization is built on.
    using base_type = basic_entt_traits<internal::entt_layout<Type>>;
    /// Entries in one page of a sparse array.
    static constexpr std::size_t page_size = TESSERA_SPARSE_PAGE;
};

/// The identifier as an integer.
template<typename Entity>
[[nodiscard]] constexpr typename entt_traits<Entity>::entity_type to_integral(const Entity value) noexcept {
    return entt_traits<Entity>::to_integral(value);
}

/// The index part of an identifier.
template<typename Entity>
[[nodiscard]] constexpr typename entt_traits<Entity>::entity_type to_entity(const Entity value) noexcept {
    return entt_traits<Entity>::to_entity(value);
}

/// The version part of an identifier.
template<typename Entity>
[[nodiscard]] constexpr typename entt_traits<Entity>::version_type to_version(const Entity value) noexcept {
    return entt_traits<Entity>::to_version(value);
}

/// The null identifier: compares equal to any identifier whose index part has every bit set.
struct null_t {
    /// Converts to the identifier with every index and version bit set.
    template<entity_like Entity>
    [[nodiscard]] constexpr operator Entity() const noexcept {
        using traits_type = entt_traits<Entity>;
        return traits_type::construct(traits_type::entity_mask,
                                      static_cast<typename traits_type::version_type>(traits_type::version_mask));
    }

    /// All null objects are equal.
    [[nodiscard]] constexpr bool operator==([[maybe_unused]] const null_t other) const noexcept { return true; }

    /// True if the index part of the identifier is the null index; the version is not looked at.
    template<entity_like Entity>
    [[nodiscard]] constexpr bool operator==(const Entity entity) const noexcept {
        using traits_type = entt_traits<Entity>;
        return traits_type::to_entity(entity) == traits_type::entity_mask;
    }
};

/// The tombstone: compares equal to any identifier whose version part has every bit set.
struct tombstone_t {
    /// Converts to the identifier with every index and version bit set.
    template<entity_like Entity>
    [[nodiscard]] constexpr operator Entity() const noexcept {
        using traits_type = entt_traits<Entity>;
        return traits_type::construct(traits_type::entity_mask,
                                      static_cast<typename traits_type::version_type>(traits_type::version_mask));
    }

    /// All tombstone objects are equal.
    [[nodiscard]] constexpr bool operator==([[maybe_unused]] const tombstone_t other) const noexcept { return true; }

    /// True if the version part of the identifier is the tombstone version; never true without version bits.
    template<entity_like Entity>
    [[nodiscard]] constexpr bool operator==(const Entity entity) const noexcept {
        using traits_type = entt_traits<Entity>;
        if constexpr (traits_type::version_mask == 0u) {
            return false;
        } else {
            return traits_type::to_version(entity) == traits_type::version_mask;
        }
    }
};

/// The null identifier. The registry never considers it valid.
inline constexpr null_t null{};

/// The tombstone. No live identifier carries its version.
inline constexpr tombstone_t tombstone{};

} // namespace tessera

#endif
