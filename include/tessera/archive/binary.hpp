// The built-in binary archive for snapshots: a versioned header, one tagged section per pool (type hash, pool
// name, element size), explicit little-endian integers, and checked reads that report errors instead of crashing.
#ifndef TESSERA_ARCHIVE_BINARY_HPP
#define TESSERA_ARCHIVE_BINARY_HPP

#include "../config/config.hpp"
#include "../config/std_parts.hpp"
#include "../core/type_info.hpp"
#include "../entity/entity.hpp"
#include "../entity/snapshot.hpp"
#include "fwd.hpp"
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace tessera {

/// What went wrong while reading a binary archive.
enum class archive_errc : std::uint8_t {
    /// The data ends before a value, a section or the end marker.
    truncated = 1u,
    /// The data does not start with the archive's magic number.
    bad_magic,
    /// The format version is newer than this reader.
    unsupported_version,
    /// The data is readable but makes no sense (bad section layout, impossible identifiers, duplicates).
    corrupt,
    /// The requested section is not in the archive.
    missing_section,
    /// The section was written for an element type of another size.
    size_mismatch
};

/// Thrown by binary_input_archive (and the loaders reading from it). The registry being loaded stays usable:
/// it holds whatever was loaded before the error.
class archive_error : public std::runtime_error {
public:
    /// Builds an error with its code and a message.
    archive_error(const archive_errc errc, const char *message) : std::runtime_error{message}, error_code{errc} {}

    /// What went wrong.
    [[nodiscard]] archive_errc code() const noexcept { return error_code; }

private:
    archive_errc error_code{};
};

namespace internal {

inline constexpr std::array<std::byte, 4u> archive_magic{std::byte{'T'}, std::byte{'S'}, std::byte{'R'},
                                                         std::byte{'A'}};
inline constexpr std::uint16_t archive_format = 1u;
inline constexpr std::uint32_t section_tag = 0x54434553u; // "SECT"
inline constexpr std::uint32_t end_tag = 0x444E4554u;     // "TEND"
inline constexpr std::size_t header_size = 8u;
inline constexpr std::size_t section_header_size = 4u + 8u + 8u + 4u + 8u;

template<typename Type>
concept has_serialize = requires(binary_output_archive &out, binary_input_archive &in, const Type &cvalue,
                                 Type &value) {
    serialize(out, cvalue);
    serialize(in, value);
};

/// The element size recorded for a section: checked on load for types written as raw bytes.
template<typename Type>
[[nodiscard]] constexpr std::uint32_t archived_size() noexcept {
    if constexpr (std::is_void_v<Type> || has_serialize<Type>) {
        return 0u;
    } else {
        return static_cast<std::uint32_t>(sizeof(Type));
    }
}

template<std::unsigned_integral Type>
void put_le(std::vector<std::byte> &out, const Type value) {
    for (std::size_t pos{}; pos < sizeof(Type); ++pos) {
        out.push_back(static_cast<std::byte>((value >> (8u * pos)) & 0xFFu));
    }
}

template<std::unsigned_integral Type>
[[nodiscard]] Type get_le(const std::byte *in) noexcept {
    Type value{};

    for (std::size_t pos{}; pos < sizeof(Type); ++pos) {
        value |= static_cast<Type>(static_cast<Type>(in[pos]) << (8u * pos));
    }

    return value;
}

template<std::size_t Size>
using unsigned_of_size = std::conditional_t<
    Size == 1u, std::uint8_t,
    std::conditional_t<Size == 2u, std::uint16_t, std::conditional_t<Size == 4u, std::uint32_t, std::uint64_t>>>;

} // namespace internal

/// Writes a snapshot into a byte vector. Open a section per pool with section<Type>(id) and hand the archive to
/// basic_snapshot::get; finish() (or the destructor) closes the archive.
class binary_output_archive {
    void close_section() {
        if (open != npos) {
            const auto length = static_cast<std::uint64_t>(out->size() - open - 8u);

            for (std::size_t pos{}; pos < 8u; ++pos) {
                (*out)[open + pos] = static_cast<std::byte>((length >> (8u * pos)) & 0xFFu);
            }

            open = npos;
        }
    }

    static constexpr auto npos = std::numeric_limits<std::size_t>::max();

public:
    /// Appends the archive header to `target`.
    explicit binary_output_archive(std::vector<std::byte> &target) : out{&target} {
        // byte by byte: g++ 12 reports a bogus -Wstringop-overflow for a range insert into an empty vector at -O2
        for (const auto byte : internal::archive_magic) {
            out->push_back(byte);
        }
        internal::put_le(*out, internal::archive_format);
        internal::put_le(*out, std::uint16_t{});
    }

    binary_output_archive(const binary_output_archive &) = delete;
    binary_output_archive &operator=(const binary_output_archive &) = delete;

    /// Finishes the archive if finish() was not called.
    ~binary_output_archive() {
        if (!finished) {
            try {
                finish();
            } catch (...) {
                // an allocation failure here leaves an archive without end marker, which readers reject
            }
        }
    }

    /// Starts the section of pool `id` of Type (the entity type for identifiers); closes the previous one.
    template<typename Type>
    binary_output_archive &section(const id_type id = type_hash<Type>::value()) {
        TESSERA_ASSERT(!finished, "binary_output_archive: the archive is finished");
        close_section();
        internal::put_le(*out, internal::section_tag);
        internal::put_le(*out, static_cast<std::uint64_t>(type_id<Type>().hash()));
        internal::put_le(*out, static_cast<std::uint64_t>(id));
        internal::put_le(*out, internal::archived_size<typename storage_type_t<Type>::value_type>());
        open = out->size();
        internal::put_le(*out, std::uint64_t{});
        return *this;
    }

    /// Closes the last section and writes the end marker. Nothing can be written afterwards.
    void finish() {
        if (!finished) {
            close_section();
            internal::put_le(*out, internal::end_tag);
            finished = true;
        }
    }

    /// Writes a value: identifiers, counts and arithmetic values as little-endian integers, types with a
    /// serialize(archive, value) overload through it, other trivially copyable types as raw bytes.
    template<typename Type>
    void operator()(const Type &value) {
        TESSERA_ASSERT(open != npos, "binary_output_archive: open a section before writing");

        if constexpr (std::is_enum_v<Type>) {
            internal::put_le(*out, static_cast<std::make_unsigned_t<std::underlying_type_t<Type>>>(value));
        } else if constexpr (std::is_same_v<Type, bool>) {
            internal::put_le(*out, static_cast<std::uint8_t>(value));
        } else if constexpr (std::is_integral_v<Type>) {
            internal::put_le(*out, static_cast<std::make_unsigned_t<Type>>(value));
        } else if constexpr (std::is_floating_point_v<Type>) {
            internal::put_le(*out, std::bit_cast<internal::unsigned_of_size<sizeof(Type)>>(value));
        } else if constexpr (internal::has_serialize<Type>) {
            serialize(*this, value);
        } else {
            static_assert(std::is_trivially_copyable_v<Type>,
                          "binary_output_archive: provide serialize(archive, value) overloads for this component type");
            const auto *bytes = reinterpret_cast<const std::byte *>(std::addressof(value));
            out->insert(out->end(), bytes, bytes + sizeof(Type));
        }
    }

private:
    std::vector<std::byte> *out{};
    std::size_t open{npos};
    bool finished{};
};

/// Reads a snapshot written by binary_output_archive. The constructor checks the header and indexes the
/// sections; section<Type>(id) selects one; every read is bounds-checked. Errors throw archive_error.
class binary_input_archive {
    struct entry {
        std::uint64_t hash{};
        std::uint64_t id{};
        std::uint32_t elem_size{};
        std::size_t offset{};
        std::size_t length{};
    };

    [[noreturn]] static void fail(const archive_errc errc, const char *message) { throw archive_error{errc, message}; }

    const std::byte *take(const std::size_t count) {
        if (count > last - cursor) {
            fail(archive_errc::truncated, "binary_input_archive: the data ends in the middle of a value");
        }

        return bytes.data() + std::exchange(cursor, cursor + count);
    }

public:
    /// Checks the header and indexes every section. The bytes must outlive the archive.
    explicit binary_input_archive(const std::span<const std::byte> data) : bytes{data} {
        if (bytes.size() < internal::header_size) {
            fail(archive_errc::truncated, "binary_input_archive: the data is shorter than the archive header");
        }

        if (!std::equal(internal::archive_magic.begin(), internal::archive_magic.end(), bytes.begin())) {
            fail(archive_errc::bad_magic, "binary_input_archive: not a tessera archive");
        }

        if (internal::get_le<std::uint16_t>(bytes.data() + 4u) > internal::archive_format) {
            fail(archive_errc::unsupported_version,
                 "binary_input_archive: the archive format is newer than this reader");
        }

        for (std::size_t pos = internal::header_size;;) {
            if (bytes.size() - pos < 4u) {
                fail(archive_errc::truncated, "binary_input_archive: the archive has no end marker");
            }

            const auto tag = internal::get_le<std::uint32_t>(bytes.data() + pos);

            if (tag == internal::end_tag) {
                break;
            }

            if (tag != internal::section_tag) {
                fail(archive_errc::corrupt, "binary_input_archive: unknown section tag");
            }

            if (bytes.size() - pos < internal::section_header_size) {
                fail(archive_errc::truncated, "binary_input_archive: the data ends in a section header");
            }

            const auto *header = bytes.data() + pos;
            const auto length = internal::get_le<std::uint64_t>(header + 24u);
            pos += internal::section_header_size;

            if (length > bytes.size() - pos) {
                fail(archive_errc::truncated, "binary_input_archive: a section is longer than the data");
            }

            sections.push_back(
                entry{internal::get_le<std::uint64_t>(header + 4u), internal::get_le<std::uint64_t>(header + 12u),
                      internal::get_le<std::uint32_t>(header + 20u), pos, static_cast<std::size_t>(length)});
            pos += static_cast<std::size_t>(length);
        }
    }

    /// True if the archive has the section of pool `id` of Type.
    template<typename Type>
    [[nodiscard]] bool contains(const id_type id = type_hash<Type>::value()) const noexcept {
        const auto hash = static_cast<std::uint64_t>(type_id<Type>().hash());
        return std::any_of(sections.begin(), sections.end(), [&](const entry &elem) {
            return elem.hash == hash && elem.id == static_cast<std::uint64_t>(id);
        });
    }

    /// Selects the section of pool `id` of Type: later reads come from it. Throws if it is missing or was
    /// written for an element type of another size.
    template<typename Type>
    binary_input_archive &section(const id_type id = type_hash<Type>::value()) {
        const auto hash = static_cast<std::uint64_t>(type_id<Type>().hash());

        for (const auto &elem : sections) {
            if (elem.hash == hash && elem.id == static_cast<std::uint64_t>(id)) {
                if (elem.elem_size != internal::archived_size<typename storage_type_t<Type>::value_type>()) {
                    fail(archive_errc::size_mismatch,
                         "binary_input_archive: the section was written for a type of another size");
                }

                cursor = elem.offset;
                last = elem.offset + elem.length;
                return *this;
            }
        }

        fail(archive_errc::missing_section, "binary_input_archive: the archive has no section for this pool");
    }

    /// Bytes left in the selected section.
    [[nodiscard]] std::size_t remaining() const noexcept { return last - cursor; }

    /// Reports data the loaders cannot use.
    [[noreturn]] void corrupt(const char *message) { fail(archive_errc::corrupt, message); }

    /// Reads the next value of the selected section (same encoding as binary_output_archive).
    template<typename Type>
    void operator()(Type &value) {
        if constexpr (std::is_enum_v<Type>) {
            using integral = std::make_unsigned_t<std::underlying_type_t<Type>>;
            value = static_cast<Type>(internal::get_le<integral>(take(sizeof(integral))));
        } else if constexpr (std::is_same_v<Type, bool>) {
            value = (internal::get_le<std::uint8_t>(take(1u)) != 0u);
        } else if constexpr (std::is_integral_v<Type>) {
            using integral = std::make_unsigned_t<Type>;
            value = static_cast<Type>(internal::get_le<integral>(take(sizeof(integral))));
        } else if constexpr (std::is_floating_point_v<Type>) {
            using integral = internal::unsigned_of_size<sizeof(Type)>;
            value = std::bit_cast<Type>(internal::get_le<integral>(take(sizeof(integral))));
        } else if constexpr (internal::has_serialize<Type>) {
            serialize(*this, value);
        } else {
            static_assert(std::is_trivially_copyable_v<Type>,
                          "binary_input_archive: provide serialize(archive, value) overloads for this component type");
            std::memcpy(std::addressof(value), take(sizeof(Type)), sizeof(Type));
        }
    }

private:
    std::span<const std::byte> bytes{};
    std::vector<entry> sections{};
    std::size_t cursor{};
    std::size_t last{};
};

/// Saves the identifiers of `reg` and its default pools of Type... into a new byte vector.
template<typename... Type, typename Registry>
[[nodiscard]] std::vector<std::byte> save(const Registry &reg) {
    using entity_type = typename Registry::entity_type;
    std::vector<std::byte> bytes{};
    // one allocation for the usual case: growing a vector of tens of megabytes dominates the cost otherwise
    const auto pool_bytes = [&reg]<typename Pool>(std::type_identity<Pool>) -> std::size_t {
        const auto *pool = reg.template storage<Pool>();
        return internal::section_header_size + sizeof(entity_type) +
               (pool ? pool->size() *
                           (sizeof(entity_type) + internal::archived_size<typename storage_type_t<Pool>::value_type>())
                     : 0u);
    };
    bytes.reserve(internal::header_size + 4u + pool_bytes(std::type_identity<entity_type>{}) + sizeof(entity_type) +
                  (pool_bytes(std::type_identity<Type>{}) + ... + 0u));
    binary_output_archive archive{bytes};
    const basic_snapshot<Registry> snapshot{reg};
    snapshot.template get<entity_type>(archive.section<entity_type>());
    (snapshot.template get<Type>(archive.section<Type>()), ...);
    archive.finish();
    return bytes;
}

/// Loads what save<Type...> wrote into `reg`, which must have no entity in use. Throws archive_error on bad data;
/// the registry then holds what was loaded before the error.
template<typename... Type, typename Registry>
void load(Registry &reg, const std::span<const std::byte> bytes) {
    using entity_type = typename Registry::entity_type;
    binary_input_archive archive{bytes};
    basic_snapshot_loader<Registry> loader{reg};
    loader.template get<entity_type>(archive.section<entity_type>());
    (loader.template get<Type>(archive.section<Type>()), ...);
}

} // namespace tessera

#endif
