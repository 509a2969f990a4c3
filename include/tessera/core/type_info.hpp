// Run-time type identity without RTTI: dense indexes, stable hashes and readable names of types.
#ifndef TESSERA_CORE_TYPE_INFO_HPP
#define TESSERA_CORE_TYPE_INFO_HPP

#include "../config/config.hpp"
#include "../config/std_parts.hpp"
#include "fwd.hpp"
#include "hashed_string.hpp"
#include <array>
#include <compare>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

namespace tessera {

namespace internal {

/// Hands out the next dense type index. One counter for the whole program.
[[nodiscard]] inline id_type next_type_index() noexcept {
    static maybe_atomic<id_type> counter{};
    return counter++;
}

// The compiler spells the template argument inside the signature of this function; the name of the type is
// cut out of it. Returning auto keeps the return type out of the signature.
template<typename Type>
[[nodiscard]] constexpr auto decorated_name() noexcept {
#if defined(__clang__) || defined(__GNUC__)
    return std::string_view{__PRETTY_FUNCTION__};
#elif defined(_MSC_VER)
    return std::string_view{__FUNCSIG__};
#else
    return std::string_view{};
#endif
}

// GCC: "constexpr auto tessera::internal::decorated_name() [with Type = int]"
// Clang: "auto tessera::internal::decorated_name() [Type = int]"
// MSVC: "auto __cdecl tessera::internal::decorated_name<int>(void) noexcept"
[[nodiscard]] constexpr std::string_view undecorate(std::string_view signature) noexcept {
#if defined(__clang__) || defined(__GNUC__)
    constexpr std::string_view marker{"Type = "};
    const auto open = signature.find('[');
    const auto first = open == std::string_view::npos ? open : signature.find(marker, open);
    if (first == std::string_view::npos) {
        return {};
    }
    const auto begin = first + marker.size();
    // Other template parameters would follow after ';', and no type name contains one.
    auto end = signature.find(';', begin);
    if (end == std::string_view::npos) {
        end = signature.rfind(']');
    }
    // Built directly rather than with substr(), which has a throwing path that a noexcept function cannot use.
    return std::string_view{signature.data() + begin, end - begin};
#elif defined(_MSC_VER)
    constexpr std::string_view marker{"decorated_name<"};
    const auto first = signature.find(marker);
    const auto end = signature.rfind(">(void)");
    if (first == std::string_view::npos || end == std::string_view::npos) {
        return {};
    }
    std::string_view name{signature.data() + first + marker.size(), end - first - marker.size()};
    for (std::string_view keyword : {std::string_view{"struct "}, std::string_view{"class "}, std::string_view{"enum "},
                                     std::string_view{"union "}}) {
        if (name.starts_with(keyword)) {
            name.remove_prefix(keyword.size());
        }
    }
    return name;
#else
    return signature;
#endif
}

/// Whether a spelled type name belongs to an entity that is local to its translation unit (anonymous
/// namespace, unnamed class, lambda). Two such types can share a spelling while being distinct.
[[nodiscard]] constexpr bool is_unit_local_name(std::string_view name) noexcept {
    for (std::string_view marker :
         {std::string_view{"{anonymous}"}, std::string_view{"(anonymous"}, std::string_view{"`anonymous"},
          std::string_view{"<unnamed"}, std::string_view{"(unnamed"}, std::string_view{"<lambda"},
          std::string_view{"(lambda"}}) {
        if (name.find(marker) != std::string_view::npos) {
            return true;
        }
    }
    return false;
}

// One object per type. Its address tells apart unit-local types whose names are spelled the same, because
// such a type gives each translation unit its own instance of the variable.
template<typename Type>
inline constexpr char type_anchor{};

// The hash of a unit-local type: its name, then the address of its anchor. The address is known only at run time,
// so the hash is computed once and kept: registries, views and signals ask for it on every call that names a pool.
template<typename Type, typename Id, std::size_t Size>
[[nodiscard]] Id unit_local_hash(const char *const name) noexcept {
    static const Id value = [name] {
        const auto address = reinterpret_cast<std::uintptr_t>(&type_anchor<Type>);
        const auto *const bytes = reinterpret_cast<const unsigned char *>(&address);
        return fnv1a<Id>(bytes, sizeof(address), fnv1a<Id>(name, Size));
    }();

    return value;
}

} // namespace internal

/// A dense sequential number per type, assigned the first time the type asks for it.
template<typename Type>
struct type_index final {
    /// The index of the type.
    [[nodiscard]] static id_type value() noexcept {
        static const id_type index = internal::next_type_index();
        return index;
    }

    /// The index of the type.
    [[nodiscard]] constexpr operator id_type() const noexcept { return value(); }
};

/// A human-readable name of a type, taken from the compiler. It may be empty on unknown compilers.
template<typename Type>
struct type_name final {
    /// The name of the type.
    [[nodiscard]] static constexpr std::string_view value() noexcept {
        return internal::undecorate(internal::decorated_name<Type>());
    }

    /// The name of the type.
    [[nodiscard]] constexpr operator std::string_view() const noexcept { return value(); }
};

/// A stable number per type: the FNV-1a hash of its name, equal in every translation unit, shared library and
/// run. Types local to a translation unit also mix in a per-unit address, so their value is neither stable
/// across runs nor a constant expression.
template<typename Type>
struct type_hash final {
    /// The hash of the type.
    [[nodiscard]] static constexpr id_type value() noexcept {
        constexpr auto name = type_name<Type>::value();
        if constexpr (name.empty()) {
            return type_index<Type>::value();
        } else if constexpr (internal::is_unit_local_name(name)) {
            return internal::unit_local_hash<Type, id_type, name.size()>(name.data());
        } else {
            // a constant even in unoptimized builds, where every call that names a pool would hash the name again
            constexpr id_type hash = internal::fnv1a<id_type>(name.data(), name.size());
            return hash;
        }
    }

    /// The hash of the type.
    [[nodiscard]] constexpr operator id_type() const noexcept { return value(); }
};

/// What the library knows about a type at run time: its index, hash and name.
struct type_info final {
    /// Describes `Type` with cv-qualifiers and references removed.
    template<typename Type>
    constexpr type_info(std::in_place_type_t<Type>) noexcept
        : index_{type_index<std::remove_cvref_t<Type>>::value()}, hash_{type_hash<std::remove_cvref_t<Type>>::value()},
          name_{type_name<std::remove_cvref_t<Type>>::value()} {}

    /// The type index.
    [[nodiscard]] constexpr id_type index() const noexcept { return index_; }

    /// The type hash.
    [[nodiscard]] constexpr id_type hash() const noexcept { return hash_; }

    /// The type name.
    [[nodiscard]] constexpr std::string_view name() const noexcept { return name_; }

    /// Same type: equal hashes, which also holds across shared libraries.
    [[nodiscard]] constexpr bool operator==(const type_info &other) const noexcept { return hash_ == other.hash_; }

    /// Orders by type index.
    [[nodiscard]] constexpr auto operator<=>(const type_info &other) const noexcept { return index_ <=> other.index_; }

private:
    id_type index_{};
    id_type hash_{};
    std::string_view name_{};
};

namespace internal {

// One object per plain type, built on first use (a function-local static, so asking for it from the initializer
// of another static object is safe).
template<typename Plain>
[[nodiscard]] const type_info &described_type() noexcept {
    static const type_info description{std::in_place_type<Plain>};
    return description;
}

} // namespace internal

/// The type_info of a type; cv-qualifiers and references are ignored. The object lives as long as the program.
template<typename Type>
[[nodiscard]] const type_info &type_id() noexcept {
    return internal::described_type<std::remove_cvref_t<Type>>();
}

/// The type_info of the type of a value.
template<typename Type>
[[nodiscard]] const type_info &type_id(const Type &) noexcept {
    return type_id<Type>();
}

namespace internal {

/// A message that names a type, built at compile time for assertions: Text::prefix, the name of Type, then
/// Text::suffix (both string_views).
template<typename Text, typename Type>
struct type_message final {
    /// The text, null-terminated.
    static constexpr auto text = [] {
        constexpr std::string_view name = type_name<Type>::value();
        std::array<char, Text::prefix.size() + name.size() + Text::suffix.size() + 1u> buffer{};
        auto *out = std::copy(Text::prefix.begin(), Text::prefix.end(), buffer.begin());
        out = std::copy(name.begin(), name.end(), out);
        std::copy(Text::suffix.begin(), Text::suffix.end(), out);
        return buffer;
    }();
};

} // namespace internal

} // namespace tessera

#endif
