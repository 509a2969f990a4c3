// How replication writes component values, by the binary archive's rules (docs/snapshots.md): empty types as
// presence only, trivially copyable types as their bytes (arithmetic ones little-endian), types with serialize
// overloads through tessera::binary_output_archive, in a blob per section. Also the schema fingerprint both ends
// compare, and the identifiers a value holds (component_traits<T>::entity_members, as command buffers read them).
#ifndef TESSERA_REPLICATION_INTERNAL_VALUES_HPP
#define TESSERA_REPLICATION_INTERNAL_VALUES_HPP

#include "../../archive/binary.hpp"
#include "../../entity/command_buffer.hpp"
#include "../../entity/component.hpp"
#include "../../entity/entity.hpp"
#include "format.hpp"
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>
#include <vector>

namespace tessera::internal {

/// How the values of a replicated type travel.
enum class replicated_value : std::uint8_t {
    /// An empty type: only whether an entity has one.
    none,
    /// Trivially copyable, written as its bytes (arithmetic types and enums little-endian).
    raw,
    /// Written through the type's serialize(binary_output_archive &, const Type &) overload.
    archived
};

/// True if no type of the list appears twice.
template<typename... Type>
struct distinct_types : std::true_type {};

/// True if First is not among Rest, and Rest are distinct.
template<typename First, typename... Rest>
struct distinct_types<First, Rest...>
    : std::bool_constant<(!std::is_same_v<First, Rest> && ...) && distinct_types<Rest...>::value> {};

/// How Type travels; types that fit none of the three do not compile (see replication_value_check).
template<typename Type>
inline constexpr replicated_value replicated_value_of = std::is_empty_v<Type> ? replicated_value::none
                                                        : has_serialize<Type> ? replicated_value::archived
                                                                              : replicated_value::raw;

/// True if Type can be replicated: empty, trivially copyable, or with serialize overloads; and, with a value,
/// default-constructible (the mirror reads into a default-constructed value, as snapshot loaders do).
template<typename Type>
inline constexpr bool replicable_v = std::is_empty_v<Type> ||
                                     ((has_serialize<Type> ||
                                       std::is_trivially_copyable_v<Type>)&&std::is_default_constructible_v<Type>);

/// True if the values of Type hold identifiers that the mirror maps: its component traits list entity_members.
template<typename Type, typename Entity>
inline constexpr bool holds_identifiers_v = lists_entity_members_v<Type, Entity>;

/// Calls func(identifier) for every identifier `value` holds and stores what it returns there (the walk command
/// buffers use, include/tessera/entity/command_buffer.hpp).
template<typename Entity, typename Type, typename Func>
void map_identifiers(Type &value, const Func &func) {
    map_entities<Entity>(value, func);
}

/// Bytes of a raw value.
template<typename Type>
inline constexpr std::size_t raw_size = sizeof(Type);

/// Writes a raw value at `out` (raw_size<Type> bytes).
template<typename Type>
void store_raw(std::byte *out, const Type &value) noexcept {
    if constexpr (std::endian::native != std::endian::little && (std::is_arithmetic_v<Type> || std::is_enum_v<Type>)) {
        if constexpr (std::is_same_v<Type, bool>) {
            *out = static_cast<std::byte>(value ? 1u : 0u);
        } else {
            store_le(out, std::bit_cast<unsigned_of_size<sizeof(Type)>>(value));
        }
    } else {
        std::memcpy(out, std::addressof(value), sizeof(Type));
    }
}

/// Reads a raw value written by store_raw.
template<typename Type>
void load_raw(const std::byte *in, Type &value) noexcept {
    if constexpr (std::is_same_v<Type, bool>) {
        value = (*in != std::byte{});
    } else if constexpr (std::endian::native != std::endian::little &&
                         (std::is_arithmetic_v<Type> || std::is_enum_v<Type>)) {
        value = std::bit_cast<Type>(load_le<unsigned_of_size<sizeof(Type)>>(in));
    } else {
        std::memcpy(std::addressof(value), in, sizeof(Type));
    }
}

/// The fingerprint of a list of replicated types and of the identifier size, in every message header: a mirror
/// built for other types refuses the message instead of misreading it. Built from how each type travels and its
/// size (the names of types are not the same from one compiler to another).
template<typename Entity, typename... Type>
[[nodiscard]] consteval std::uint32_t replication_schema() noexcept {
    std::uint32_t hash = 0x811C9DC5u;
    const auto add = [&hash](const std::uint64_t value) {
        for (std::size_t pos{}; pos < 8u; ++pos) {
            hash = (hash ^ static_cast<std::uint32_t>((value >> (8u * pos)) & 0xFFu)) * 0x01000193u;
        }
    };

    add(sizeof(Entity));
    add(sizeof...(Type));
    (add((static_cast<std::uint64_t>(replicated_value_of<Type>) << 32u) |
         (replicated_value_of<Type> == replicated_value::raw ? sizeof(Type) : 0u)),
     ...);
    return hash;
}

/// Writes the values of an archived type: varint(size of the blob), then a binary archive holding one section of
/// Type with the values in order. `scratch` is reused from call to call.
template<typename Type>
void write_archived(byte_writer &out, const std::vector<const void *> &values, std::vector<std::byte> &scratch) {
    scratch.clear();

    {
        binary_output_archive archive{scratch};
        archive.template section<Type>();

        for (const void *value : values) {
            archive(*static_cast<const Type *>(value));
        }

        archive.finish();
    }

    out.varint(scratch.size());
    out.bytes(scratch.data(), scratch.size());
}

/// Reads `count` values of an archived type into `values` (cleared first). Refuses a blob the type's serialization
/// rejects or does not read to its end.
template<typename Type>
void read_archived(byte_reader &in, const std::size_t count, std::vector<Type> &values) {
    const auto size = in.count(1u);
    const auto *blob = in.take(size);
    values.clear();

    try {
        binary_input_archive archive{std::span<const std::byte>{blob, size}};
        archive.template section<Type>();

        for (std::size_t pos{}; pos < count; ++pos) {
            // a value is read into a default-constructed one, as snapshot loaders do
            archive(values.emplace_back());
        }

        if (archive.remaining() != 0u) {
            byte_reader::fail(replication::errc::corrupt, "replication: a section of values has trailing bytes");
        }
    } catch (const archive_error &) {
        byte_reader::fail(replication::errc::corrupt,
                          "replication: the serialization of a component type refused a value");
    }
}

/// Adds the bytes of a value, as the format writes them, to a digest: raw values their bytes, archived ones the
/// blob of a single value.
template<typename Type>
void hash_value(replication_hasher &hasher, const Type &value, std::vector<std::byte> &scratch) {
    if constexpr (replicated_value_of<Type> == replicated_value::raw) {
        std::array<std::byte, raw_size<Type>> bytes{};
        store_raw(bytes.data(), value);
        hasher.update(bytes.data(), bytes.size());
    } else if constexpr (replicated_value_of<Type> == replicated_value::archived) {
        scratch.clear();

        {
            binary_output_archive archive{scratch};
            archive.template section<Type>();
            archive(value);
            archive.finish();
        }

        hasher.update(scratch.data(), scratch.size());
    }
}

/// An order-independent digest of a replicated state: per entity, a hash of its identifier and of its components
/// (type position and value bytes as the format writes them); the sum of those over the entities, and their count.
template<typename Entity>
class state_digest {
public:
    /// Starts an entity.
    void begin(const Entity entt) noexcept {
        current = replication_hasher{};
        std::array<std::byte, 8u> bytes{};
        store_le(bytes.data(), static_cast<std::uint64_t>(entt_traits<Entity>::to_integral(entt)));
        current.update(bytes.data(), bytes.size());
    }

    /// Adds a component of the entity: the type's position in the list and its value (nullptr for empty types).
    template<typename Type>
    void component(const std::size_t index, const Type *value, std::vector<std::byte> &scratch) {
        std::array<std::byte, 4u> bytes{};
        store_le(bytes.data(), static_cast<std::uint32_t>(index));
        current.update(bytes.data(), bytes.size());

        if constexpr (!std::is_empty_v<Type>) {
            hash_value(current, *value, scratch);
        }
    }

    /// Ends the entity.
    void end() noexcept {
        sum += current.finish();
        ++count;
    }

    /// The digest of the entities so far.
    [[nodiscard]] std::uint64_t value() const noexcept {
        replication_hasher out{};
        std::array<std::byte, 16u> bytes{};
        store_le(bytes.data(), sum);
        store_le(bytes.data() + 8u, count);
        out.update(bytes.data(), bytes.size());
        return out.finish();
    }

private:
    replication_hasher current{};
    std::uint64_t sum{};
    std::uint64_t count{};
};

} // namespace tessera::internal

#endif
