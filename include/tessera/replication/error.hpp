// The errors of the replication module: what a mirror reports when it refuses a message. A refused message
// changes nothing in the mirror's registry (docs/replication.md, "Errors").
#ifndef TESSERA_REPLICATION_ERROR_HPP
#define TESSERA_REPLICATION_ERROR_HPP

#include "fwd.hpp"
#include <cstdint>
#include <stdexcept>

namespace tessera::replication {

/// Why a mirror refused a message.
enum class errc : std::uint8_t {
    /// The bytes end before the header, a count, an identifier or a value.
    truncated = 1u,
    /// The bytes do not start with the replication magic number.
    bad_magic,
    /// The message was written in a format version this mirror does not read.
    unsupported_version,
    /// The checksum does not match the bytes: they were damaged on the way.
    checksum_mismatch,
    /// The message was written for other component types, or for identifiers of another size.
    schema_mismatch,
    /// The bytes are readable but make no sense: an invalid identifier, a value for an entity the mirror does not
    /// have, trailing bytes, a value the type's serialization refused.
    corrupt,
    /// The message is not newer than the state the mirror holds: it was applied already or arrived out of order.
    replayed,
    /// The message is a delta against a state the mirror does not hold (it holds an older one, or none).
    unknown_baseline
};

/// Thrown by mirror::apply for a message it refuses; the mirror and its registry are unchanged.
class error : public std::runtime_error {
public:
    /// Builds an error with its code and a message that says what was wrong.
    error(const errc code, const char *what) : std::runtime_error{what}, error_code{code} {}

    /// Why the message was refused.
    [[nodiscard]] errc code() const noexcept { return error_code; }

private:
    errc error_code{};
};

} // namespace tessera::replication

#endif
