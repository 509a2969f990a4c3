// Compile-time string hashing (FNV-1a) and the _hs/_hws literals used to name pools and context variables.
#ifndef TESSERA_CORE_HASHED_STRING_HPP
#define TESSERA_CORE_HASHED_STRING_HPP

#include "fwd.hpp"
#include <compare>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace tessera {

namespace internal {

/// FNV-1a parameters, chosen by the width of the hash type.
template<std::size_t Size>
struct fnv1a_params;

template<>
struct fnv1a_params<4u> {
    static constexpr std::uint32_t offset = 2166136261u;
    static constexpr std::uint32_t prime = 16777619u;
};

template<>
struct fnv1a_params<8u> {
    static constexpr std::uint64_t offset = 14695981039346656037ull;
    static constexpr std::uint64_t prime = 1099511628211ull;
};

/// Continues an FNV-1a hash over `len` characters; each character is widened to Hash first.
template<typename Hash, typename Char>
[[nodiscard]] constexpr Hash fnv1a(const Char *str, std::size_t len,
                                   Hash partial = static_cast<Hash>(fnv1a_params<sizeof(Hash)>::offset)) noexcept {
    static_assert(std::is_unsigned_v<Hash> && (sizeof(Hash) == 4u || sizeof(Hash) == 8u),
                  "fnv1a: the hash type must be a 32- or 64-bit unsigned integer (check TESSERA_ID_TYPE)");
    for (std::size_t pos{}; pos < len; ++pos) {
        partial = static_cast<Hash>((partial ^ static_cast<Hash>(str[pos])) * fnv1a_params<sizeof(Hash)>::prime);
    }
    return partial;
}

/// Length of a NUL-terminated string, usable in constant expressions for any character type.
template<typename Char>
[[nodiscard]] constexpr std::size_t string_length(const Char *str,
                                                  std::size_t limit = static_cast<std::size_t>(-1)) noexcept {
    std::size_t len{};
    while (len < limit && str[len] != Char{}) {
        ++len;
    }
    return len;
}

} // namespace internal

/// A string paired with its FNV-1a hash. The characters are neither copied nor owned.
template<typename Char>
class basic_hashed_string {
    // Backs the default constructor, so that data() is always a valid C string.
    static constexpr Char empty_string[1]{};

public:
    /// Character type.
    using value_type = Char;
    /// Unsigned integer type for sizes.
    using size_type = std::size_t;
    /// Type of the hash.
    using hash_type = id_type;

    /// Hashes the first `len` characters of `str`.
    [[nodiscard]] static constexpr hash_type value(const value_type *str, size_type len) noexcept {
        return internal::fnv1a<hash_type>(str, len);
    }

    /// Hashes a character array up to its first NUL, at compile time.
    template<std::size_t N>
    [[nodiscard]] static consteval hash_type value(const value_type (&str)[N]) noexcept {
        return value(str, internal::string_length(str, N));
    }

    /// Hashes a NUL-terminated string.
    [[nodiscard]] static constexpr hash_type value(const value_type *str) noexcept {
        return value(str, internal::string_length(str));
    }

    /// Builds the hashed empty string.
    constexpr basic_hashed_string() noexcept : basic_hashed_string{empty_string, 0u} {}

    /// Hashes the first `len` characters of `str`.
    constexpr basic_hashed_string(const value_type *str, size_type len) noexcept
        : str_{str}, len_{len}, hash_{value(str, len)} {}

    /// Hashes a character array (typically a literal) up to its first NUL, at compile time.
    template<std::size_t N>
    consteval basic_hashed_string(const value_type (&str)[N]) noexcept
        : basic_hashed_string{str, internal::string_length(str, N)} {}

    /// Hashes a NUL-terminated string.
    explicit constexpr basic_hashed_string(const value_type *str) noexcept
        : basic_hashed_string{str, internal::string_length(str)} {}

    /// Number of characters that were hashed.
    [[nodiscard]] constexpr size_type size() const noexcept { return len_; }

    /// The pointer the object was built from.
    [[nodiscard]] constexpr const value_type *data() const noexcept { return str_; }

    /// The hash.
    [[nodiscard]] constexpr hash_type value() const noexcept { return hash_; }

    /// The pointer the object was built from.
    [[nodiscard]] explicit constexpr operator const value_type *() const noexcept { return str_; }

    /// The hash, so that a hashed string goes wherever an id_type is expected.
    [[nodiscard]] constexpr operator hash_type() const noexcept { return hash_; }

    /// Equal hashes.
    [[nodiscard]] constexpr bool operator==(const basic_hashed_string &other) const noexcept {
        return hash_ == other.hash_;
    }

    /// Orders by hash.
    [[nodiscard]] constexpr auto operator<=>(const basic_hashed_string &other) const noexcept {
        return hash_ <=> other.hash_;
    }

private:
    const value_type *str_{};
    size_type len_{};
    hash_type hash_{};
};

/// Deduces the character type from a pointer and a length.
template<typename Char>
basic_hashed_string(const Char *, std::size_t) -> basic_hashed_string<Char>;

/// Deduces the character type from a character array.
template<typename Char, std::size_t N>
basic_hashed_string(const Char (&)[N]) -> basic_hashed_string<Char>;

inline namespace literals {

// The literals are constexpr rather than consteval: clang 14 fails to emit consteval literal operators used in
// dependent calls inside templates (undefined reference at link time). In constant contexts they still fold.

/// `"name"_hs`: a hashed string, computed at compile time in constant expressions.
[[nodiscard]] constexpr hashed_string operator""_hs(const char *str, std::size_t len) noexcept {
    return hashed_string{str, len};
}

/// `L"name"_hws`: a hashed wide string, computed at compile time in constant expressions.
[[nodiscard]] constexpr hashed_wstring operator""_hws(const wchar_t *str, std::size_t len) noexcept {
    return hashed_wstring{str, len};
}

} // namespace literals

} // namespace tessera

#endif
