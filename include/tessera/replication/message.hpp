// A message of the replication format: the bytes a source hands out for one peer, shared (peers at the same
// baseline get the same bytes, encoded once) and immutable, and what its header says.
#ifndef TESSERA_REPLICATION_MESSAGE_HPP
#define TESSERA_REPLICATION_MESSAGE_HPP

#include "../entity/change_tracking.hpp"
#include "fwd.hpp"
#include "internal/format.hpp"
#include <cstddef>
#include <cstring>
#include <memory>
#include <span>
#include <utility>

namespace tessera::replication {

/// The bytes to send to a peer. Cheap to copy: copies share the bytes, which stay alive as long as one of them
/// does (hand one to an asynchronous write and let it go when the write completes).
class message {
public:
    /// An empty message (no bytes): what a default-constructed or moved-from message holds.
    message() noexcept = default;

    /// A copy of the bytes of a message (one received, for instance, to forward it).
    explicit message(const std::span<const std::byte> bytes) : length{bytes.size()} {
        auto copy = std::make_unique_for_overwrite<std::byte[]>(bytes.size());

        if (!bytes.empty()) {
            std::memcpy(copy.get(), bytes.data(), bytes.size());
        }

        data_ = std::move(copy);
    }

    /// Takes the bytes a source encoded.
    message(std::unique_ptr<std::byte[]> bytes, const std::size_t size) : data_{std::move(bytes)}, length{size} {}

    /// The bytes.
    [[nodiscard]] std::span<const std::byte> bytes() const noexcept { return {data_.get(), length}; }

    /// The bytes, as a span.
    [[nodiscard]] operator std::span<const std::byte>() const noexcept { return bytes(); }

    /// Pointer to the first byte (nullptr when empty).
    [[nodiscard]] const std::byte *data() const noexcept { return data_.get(); }

    /// Number of bytes.
    [[nodiscard]] std::size_t size() const noexcept { return length; }

    /// True if there are no bytes.
    [[nodiscard]] bool empty() const noexcept { return size() == 0u; }

    /// The source's tick the message brings the peer to: what the peer acknowledges once it applied it.
    [[nodiscard]] tick_type tick() const noexcept { return field(12u); }

    /// The tick of the state the message is a delta against (0 for a full state).
    [[nodiscard]] tick_type baseline() const noexcept { return field(16u); }

    /// True if the message holds the whole state (relevant to its peer) rather than a delta.
    [[nodiscard]] bool full_state() const noexcept {
        return size() >= internal::replication_header_size &&
               (static_cast<std::uint8_t>(data_[6u]) & internal::replication_full_state) != 0u;
    }

    /// True if both hold the very same bytes (the source encoded them once for both peers).
    [[nodiscard]] bool shares_bytes_with(const message &other) const noexcept {
        return data_ != nullptr && data_ == other.data_;
    }

private:
    [[nodiscard]] tick_type field(const std::size_t offset) const noexcept {
        return size() >= internal::replication_header_size ? internal::load_le<tick_type>(data() + offset)
                                                           : tick_type{};
    }

    std::shared_ptr<const std::byte[]> data_{};
    std::size_t length{};
};

} // namespace tessera::replication

#endif
