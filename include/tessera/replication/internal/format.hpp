// The byte layout of replication messages (docs/replication.md, "Format"): the fixed little-endian header, the
// variable-length integers of counts and identifiers, the checksum, and the writer and bounds-checked reader the
// source and the mirror share.
#ifndef TESSERA_REPLICATION_INTERNAL_FORMAT_HPP
#define TESSERA_REPLICATION_INTERNAL_FORMAT_HPP

#include "../../config/config.hpp"
#include "../../entity/change_tracking.hpp"
#include "../../entity/entity.hpp"
#include "../error.hpp"
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

namespace tessera::internal {

/// The first four bytes of every message.
inline constexpr std::array<std::byte, 4u> replication_magic{std::byte{'T'}, std::byte{'S'}, std::byte{'R'},
                                                             std::byte{'P'}};

/// The format version this code writes and reads.
inline constexpr std::uint16_t replication_format = 1u;

/// Bytes of the header: magic, version (2), flags (1), identifier size (1), schema (4), source tick (4), baseline
/// tick (4), body size (4), checksum (8).
inline constexpr std::size_t replication_header_size = 32u;

/// Where the checksum sits in the header; it covers the header bytes before it and the body.
inline constexpr std::size_t replication_checksum_offset = 24u;

/// Flag of the header: the message holds the whole state and no baseline.
inline constexpr std::uint8_t replication_full_state = 1u;

/// True if tick `lhs` comes after `rhs` (both close to each other: less than 2^31 apart, which the window keeps).
[[nodiscard]] constexpr bool tick_later(const tick_type lhs, const tick_type rhs) noexcept {
    return static_cast<std::int32_t>(lhs - rhs) > 0;
}

/// What the header of a message says.
struct replication_header {
    std::uint16_t version{};
    std::uint8_t flags{};
    std::uint8_t id_size{};
    std::uint32_t schema{};
    tick_type tick{};
    tick_type baseline{};
    std::uint32_t body{};
    std::uint64_t checksum{};
};

/// Stores `value` little-endian at `out`.
template<std::unsigned_integral Type>
void store_le(std::byte *out, const Type value) noexcept {
    if constexpr (std::endian::native == std::endian::little) {
        std::memcpy(out, &value, sizeof(Type));
    } else {
        for (std::size_t pos{}; pos < sizeof(Type); ++pos) {
            out[pos] = static_cast<std::byte>((value >> (8u * pos)) & 0xFFu);
        }
    }
}

/// Reads a little-endian integer at `in`.
template<std::unsigned_integral Type>
[[nodiscard]] Type load_le(const std::byte *in) noexcept {
    Type value{};

    if constexpr (std::endian::native == std::endian::little) {
        std::memcpy(&value, in, sizeof(Type));
    } else {
        for (std::size_t pos{}; pos < sizeof(Type); ++pos) {
            value |= static_cast<Type>(static_cast<Type>(in[pos]) << (8u * pos));
        }
    }

    return value;
}

/// A 64-bit checksum of `data`, four independent lanes of 8-byte words so that it runs at memory speed. It
/// detects damage in transit, not tampering: a transport that must resist an attacker authenticates its bytes.
class replication_hasher {
    static constexpr std::uint64_t prime_a = 0x9E3779B97F4A7C15ull;
    static constexpr std::uint64_t prime_b = 0xC2B2AE3D27D4EB4Full;

    static constexpr std::uint64_t round(std::uint64_t lane, const std::uint64_t word) noexcept {
        lane ^= word * prime_b;
        lane = std::rotl(lane, 29) * prime_a;
        return lane;
    }

public:
    /// Adds bytes; a call may end in the middle of a word, the next one continues it.
    void update(const std::byte *data, std::size_t size) noexcept {
        length += size;

        while (size != 0u && (pending != 0u || size < 32u)) {
            tail[pending++] = *data++;
            --size;

            if (pending == 32u) {
                block(tail.data());
                pending = 0u;
            }
        }

        for (; size >= 32u; data += 32u, size -= 32u) {
            block(data);
        }

        for (; size != 0u; --size) {
            tail[pending++] = *data++;
        }
    }

    /// The checksum of everything added.
    [[nodiscard]] std::uint64_t finish() const noexcept {
        std::uint64_t out = std::rotl(lanes[0], 1) + std::rotl(lanes[1], 7) + std::rotl(lanes[2], 12) +
                            std::rotl(lanes[3], 18) + static_cast<std::uint64_t>(length) * prime_b;

        for (std::size_t pos{}; pos < pending; ++pos) {
            out = round(out, static_cast<std::uint64_t>(tail[pos]) + pos * 0x100u);
        }

        out ^= out >> 31u;
        out *= prime_a;
        out ^= out >> 29u;
        out *= prime_b;
        return out ^ (out >> 32u);
    }

private:
    void block(const std::byte *data) noexcept {
        for (std::size_t lane{}; lane < 4u; ++lane) {
            lanes[lane] = round(lanes[lane], load_le<std::uint64_t>(data + 8u * lane));
        }
    }

    std::array<std::uint64_t, 4u> lanes{prime_a, prime_b, ~prime_a, ~prime_b};
    std::array<std::byte, 32u> tail{};
    std::size_t pending{};
    std::size_t length{};
};

/// The checksum of a message: its header up to the checksum field, then its body.
[[nodiscard]] inline std::uint64_t replication_checksum(const std::span<const std::byte> message) noexcept {
    replication_hasher hasher{};
    hasher.update(message.data(), replication_checksum_offset);
    hasher.update(message.data() + replication_header_size, message.size() - replication_header_size);
    return hasher.finish();
}

/// Writes `value` as a variable-length integer at `out`, which has room for 10 bytes, and returns its length. A
/// loop per byte: identifiers of a list mostly have the same length, so its branch is predicted (a branchless spread
/// over 8 bytes measured slower on whole states).
[[nodiscard]] TESSERA_FORCE_INLINE std::size_t put_varint(std::byte *out, std::uint64_t value) noexcept {
    std::size_t count{};

    for (; value >= 0x80u; value >>= 7u) {
        out[count++] = static_cast<std::byte>((value & 0x7Fu) | 0x80u);
    }

    out[count++] = static_cast<std::byte>(value);
    return count;
}

/// The bytes put_varint writes for `value`.
[[nodiscard]] constexpr std::size_t varint_size(const std::uint64_t value) noexcept {
    return (static_cast<std::size_t>(std::bit_width(value | 1u)) + 6u) / 7u;
}

/// The most bytes put_entity writes for an identifier of type Entity.
template<typename Entity>
inline constexpr std::size_t
    max_entity_bytes = varint_size((static_cast<std::uint64_t>(entt_traits<Entity>::entity_mask) << 1u) | 1u) +
                       varint_size(static_cast<std::uint64_t>(entt_traits<Entity>::version_mask));

/// Writes an identifier at `out` (room for max_entity_bytes<Entity> + 10 bytes): varint(index * 2 + (version !=
/// 0)), then varint(version) when the version is not 0. Returns the bytes written.
template<typename Entity>
[[nodiscard]] TESSERA_FORCE_INLINE std::size_t put_entity(std::byte *out, const Entity entt) noexcept {
    using traits_type = entt_traits<Entity>;
    const auto version = static_cast<std::uint64_t>(traits_type::to_version(entt));
    auto length =
        put_varint(out, (static_cast<std::uint64_t>(traits_type::to_entity(entt)) << 1u) | (version != 0u ? 1u : 0u));

    if (version != 0u) {
        length += put_varint(out + length, version);
    }

    return length;
}

/// A growable array of bytes that is never initialized: growing copies what was written and nothing else, and
/// release() hands the array over (to a message) without copying it.
class byte_buffer {
    [[gnu::noinline]] void grow(const std::size_t count) {
        auto wanted = capacity_ * 2u;

        if (wanted < length + count) {
            wanted = length + count;
        }

        reserve(wanted);
    }

public:
    /// Room for at least `count` bytes in all.
    void reserve(const std::size_t count) {
        if (count > capacity_) {
            auto grown = std::make_unique_for_overwrite<std::byte[]>(count);

            if (length != 0u) {
                std::memcpy(grown.get(), array.get(), length);
            }

            array = std::move(grown);
            capacity_ = count;
        }
    }

    /// Room for `count` more bytes; commit(n) keeps the first n of them.
    [[nodiscard]] TESSERA_FORCE_INLINE std::byte *room(const std::size_t count) {
        if (capacity_ - length < count) {
            grow(count);
        }

        return array.get() + length;
    }

    /// Keeps `count` bytes written into room().
    TESSERA_FORCE_INLINE void commit(const std::size_t count) noexcept { length += count; }

    /// Forgets the bytes, keeps the memory.
    void clear() noexcept { length = 0u; }

    /// The bytes written.
    [[nodiscard]] std::byte *data() noexcept { return array.get(); }

    /// The bytes written.
    [[nodiscard]] const std::byte *data() const noexcept { return array.get(); }

    /// Bytes written.
    [[nodiscard]] std::size_t size() const noexcept { return length; }

    /// Bytes allocated.
    [[nodiscard]] std::size_t capacity() const noexcept { return capacity_; }

    /// Gives the array away, reallocated to its size first when more than a quarter of it is unused.
    [[nodiscard]] std::unique_ptr<std::byte[]> release() {
        if (capacity_ - length > length / 4u) {
            auto fitted = std::make_unique_for_overwrite<std::byte[]>(length);

            if (length != 0u) {
                std::memcpy(fitted.get(), array.get(), length);
            }

            array = std::move(fitted);
        }

        length = capacity_ = 0u;
        return std::move(array);
    }

private:
    std::unique_ptr<std::byte[]> array{};
    std::size_t length{};
    std::size_t capacity_{};
};

/// Writes the format's integers and identifiers into a byte_buffer.
class byte_writer {
public:
    /// Appends to `target` after what it holds.
    explicit byte_writer(byte_buffer &target) noexcept : out{&target} {}

    /// Appends raw bytes.
    void bytes(const void *data, const std::size_t count) {
        if (count != 0u) {
            std::memcpy(out->room(count), data, count);
            out->commit(count);
        }
    }

    /// Appends an unsigned integer as a variable-length integer: 7 bits per byte, low bits first, the high bit of
    /// each byte but the last set.
    TESSERA_FORCE_INLINE void varint(const std::uint64_t value) { out->commit(put_varint(out->room(10u), value)); }

    /// Appends an identifier: varint(index * 2 + (version != 0)), then varint(version) when the version is not 0.
    template<typename Entity>
    TESSERA_FORCE_INLINE void entity(const Entity entt) {
        out->commit(put_entity(out->room(max_entity_bytes<Entity> + 10u), entt));
    }

    /// Appends a count, then the identifiers of a range, checking for room once per 256 identifiers (room for the
    /// longest identifiers of a whole list at once could exceed what the buffer was sized for, and grow it).
    template<typename It>
    void entities(const std::size_t count, It first, const It last) {
        using entity_type = std::remove_cvref_t<decltype(*first)>;
        constexpr std::size_t chunk = 256u;
        varint(count);

        while (first != last) {
            auto *at = out->room(10u + chunk * max_entity_bytes<entity_type>);
            std::size_t length{};

            for (std::size_t step{}; step < chunk && first != last; ++step, ++first) {
                length += put_entity(at + length, *first);
            }

            out->commit(length);
        }
    }

    /// Bytes in the buffer.
    [[nodiscard]] std::size_t size() const noexcept { return out->size(); }

    /// The buffer written to.
    [[nodiscard]] byte_buffer &buffer() const noexcept { return *out; }

private:
    byte_buffer *out;
};

/// Reads bytes written by byte_writer; every read is checked against the end and fails with a replication error.
class byte_reader {
public:
    /// Reads `data`, which must outlive the reader.
    explicit byte_reader(const std::span<const std::byte> data) noexcept
        : first{data.data()}, cursor{data.data()}, last{data.data() + data.size()} {}

    /// Throws the error every decoding failure becomes.
    [[noreturn]] static void fail(const replication::errc code, const char *what) {
        throw replication::error{code, what};
    }

    /// The next `count` bytes; the cursor moves past them.
    [[nodiscard]] const std::byte *take(const std::size_t count) {
        if (count > static_cast<std::size_t>(last - cursor)) {
            fail(replication::errc::truncated, "replication: the message ends in the middle of a value");
        }

        const auto *at = cursor;
        cursor += count;
        return at;
    }

    /// Reads a variable-length integer of at most `bits` significant bits.
    [[nodiscard]] TESSERA_FORCE_INLINE std::uint64_t varint(const unsigned bits = 64u) {
        // at least 8 bytes left and the integer ends within them: one load, no branch per byte
        if (static_cast<std::size_t>(last - cursor) >= 8u) {
            const auto word = load_le<std::uint64_t>(cursor);

            if (const auto stops = ~word & 0x8080808080808080ull; stops != 0u) {
                // the bytes up to the first without the high bit, then their 7-bit groups side by side
                auto value = word & (stops ^ (stops - 1u)) & 0x7F7F7F7F7F7F7F7Full;
                value = (value & 0x007F007F007F007Full) | ((value & 0x7F007F007F007F00ull) >> 1u);
                value = (value & 0x00003FFF00003FFFull) | ((value & 0x3FFF00003FFF0000ull) >> 2u);
                value = (value & 0x000000000FFFFFFFull) | ((value & 0x0FFFFFFF00000000ull) >> 4u);

                if (bits < 64u && (value >> bits) != 0u) {
                    fail(replication::errc::corrupt, "replication: an integer is too large");
                }

                cursor += static_cast<std::size_t>(std::countr_zero(stops) / 8 + 1);
                return value;
            }
        }

        return varint_bytewise(bits);
    }

    /// Reads a count and checks that at least `count * min_size` bytes follow (a corrupt count must fail as
    /// truncated data, not as a huge allocation).
    [[nodiscard]] std::size_t count(const std::size_t min_size = 1u) {
        const auto value = varint(32u);

        if (value > static_cast<std::uint64_t>(last - cursor) / (min_size == 0u ? 1u : min_size)) {
            fail(replication::errc::truncated, "replication: a count is larger than the rest of the message");
        }

        return static_cast<std::size_t>(value);
    }

    /// Reads an identifier written by byte_writer::entity; null and the tombstone version are refused.
    template<typename Entity>
    [[nodiscard]] TESSERA_FORCE_INLINE Entity entity() {
        using traits_type = entt_traits<Entity>;
        const auto head = varint(static_cast<unsigned>(std::bit_width(traits_type::entity_mask)) + 1u);
        const auto index = head >> 1u;
        std::uint64_t version{};

        if ((head & 1u) != 0u) {
            version = varint(static_cast<unsigned>(std::bit_width(traits_type::version_mask)));

            if (version == 0u) {
                fail(replication::errc::corrupt, "replication: an identifier spells version 0 the long way");
            }
        }

        if (index >= traits_type::entity_mask || version >= traits_type::version_mask) {
            fail(replication::errc::corrupt, "replication: an identifier is null or a tombstone");
        }

        return traits_type::construct(static_cast<typename traits_type::entity_type>(index),
                                      static_cast<typename traits_type::version_type>(version));
    }

    /// Bytes left.
    [[nodiscard]] std::size_t remaining() const noexcept { return static_cast<std::size_t>(last - cursor); }

    /// Bytes read so far.
    [[nodiscard]] std::size_t offset() const noexcept { return static_cast<std::size_t>(cursor - first); }

private:
    // Reads a variable-length integer byte by byte: near the end of the message, or longer than 8 bytes.
    [[nodiscard]] std::uint64_t varint_bytewise(const unsigned bits) {
        std::uint64_t value{};

        for (unsigned shift{};; shift += 7u) {
            if (cursor == last) {
                fail(replication::errc::truncated, "replication: the message ends in the middle of an integer");
            }

            const auto byte = static_cast<std::uint64_t>(*cursor++);
            value |= (byte & 0x7Fu) << (shift & 63u);

            if ((byte & 0x80u) == 0u) {
                // the tenth byte may only bring the 64th bit; a narrower integer must fit its bits
                if ((shift == 63u && byte > 1u) || (bits < 64u && (value >> bits) != 0u)) {
                    fail(replication::errc::corrupt, "replication: an integer is too large");
                }

                return value;
            }

            if (shift == 63u) {
                fail(replication::errc::corrupt, "replication: an integer is too large");
            }
        }
    }

    const std::byte *first;
    const std::byte *cursor;
    const std::byte *last;
};

/// Writes the header at the front of `message` (the body follows it), checksum included.
inline void write_replication_header(std::span<std::byte> message, const replication_header &header) noexcept {
    auto *out = message.data();
    std::memcpy(out, replication_magic.data(), replication_magic.size());
    store_le(out + 4u, header.version);
    out[6u] = static_cast<std::byte>(header.flags);
    out[7u] = static_cast<std::byte>(header.id_size);
    store_le(out + 8u, header.schema);
    store_le(out + 12u, header.tick);
    store_le(out + 16u, header.baseline);
    store_le(out + 20u, static_cast<std::uint32_t>(message.size() - replication_header_size));
    store_le(out + replication_checksum_offset, replication_checksum(message));
}

/// Reads and checks the header of `message`: size, magic, version, body size and checksum. The schema and the
/// ticks are for the caller to check.
[[nodiscard]] inline replication_header read_replication_header(const std::span<const std::byte> message) {
    using replication::errc;

    if (message.size() < replication_header_size) {
        byte_reader::fail(errc::truncated, "replication: the message is shorter than its header");
    }

    const auto *in = message.data();

    if (std::memcmp(in, replication_magic.data(), replication_magic.size()) != 0) {
        byte_reader::fail(errc::bad_magic, "replication: not a replication message");
    }

    replication_header header{};
    header.version = load_le<std::uint16_t>(in + 4u);

    if (header.version != replication_format) {
        byte_reader::fail(errc::unsupported_version, "replication: the message's format version is not one this "
                                                     "mirror reads");
    }

    header.flags = static_cast<std::uint8_t>(in[6u]);
    header.id_size = static_cast<std::uint8_t>(in[7u]);
    header.schema = load_le<std::uint32_t>(in + 8u);
    header.tick = load_le<std::uint32_t>(in + 12u);
    header.baseline = load_le<std::uint32_t>(in + 16u);
    header.body = load_le<std::uint32_t>(in + 20u);
    header.checksum = load_le<std::uint64_t>(in + replication_checksum_offset);

    if (header.body != message.size() - replication_header_size) {
        byte_reader::fail(errc::truncated, "replication: the message is shorter or longer than its header says");
    }

    if (header.checksum != replication_checksum(message)) {
        byte_reader::fail(errc::checksum_mismatch, "replication: the checksum does not match the message");
    }

    if ((header.flags & ~replication_full_state) != 0u) {
        byte_reader::fail(errc::unsupported_version, "replication: the message uses flags this mirror does not know");
    }

    return header;
}

} // namespace tessera::internal

#endif
