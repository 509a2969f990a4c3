// libFuzzer target: arbitrary bytes given to replication::mirror::apply, on a mirror that already holds a state (so
// deltas against it reach the body decoder). The first input byte chooses whether the header's body size and checksum
// are rewritten to match the rest (without that, almost every mutation stops at the checksum). A replication::error
// is the expected way to refuse a message, and a refused message must leave the mirror and its registry as they were;
// a crash, a sanitizer report or a failed assertion is a bug.
#include "replication_seed.hpp"
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>
#include <tessera/archive/binary.hpp>
#include <tessera/replication/replication.hpp>
#include <vector>

namespace {

using namespace replication_test;

/// Everything observable of a mirror and its registry.
struct observed {
    std::vector<std::byte> registry;
    std::uint64_t digest;
    std::optional<tessera::tick_type> tick;
    std::size_t size;

    bool operator==(const observed &) const = default;
};

observed observe(const tessera::registry &client, const mirror_type &mirror) {
    return observed{tessera::save<position, health, frozen, label, anchor>(client), mirror.digest(), mirror.tick(),
                    mirror.size()};
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, const std::size_t size) {
    static const tessera_fuzz::replication_seed world{};

    if (size == 0u) {
        return 0;
    }

    std::vector<std::byte> bytes(reinterpret_cast<const std::byte *>(data) + 1u,
                                 reinterpret_cast<const std::byte *>(data) + size);

    if ((data[0] & 1u) != 0u && bytes.size() >= tessera::internal::replication_header_size) {
        tessera::internal::store_le(
            bytes.data() + 20u, static_cast<std::uint32_t>(bytes.size() - tessera::internal::replication_header_size));
        tessera::internal::store_le(bytes.data() + tessera::internal::replication_checksum_offset,
                                    tessera::internal::replication_checksum(bytes));
    }

    tessera::registry client{};
    mirror_type mirror{client};

    // half of the inputs meet a mirror that holds the seed state, the other half an empty one
    if ((data[0] & 2u) != 0u) {
        static_cast<void>(mirror.apply(world.whole));
    }

    const auto before = observe(client, mirror);

    try {
        static_cast<void>(mirror.apply(bytes));
    } catch (const tessera::replication::error &) {
        if (!(observe(client, mirror) == before)) {
            std::abort(); // a refused message changed the mirror
        }

        return 0;
    }

    // an accepted message leaves a registry that holds the mirrored entities and nothing else
    if (client.storage<tessera::entity>().free_list() != mirror.size()) {
        std::abort();
    }

    return 0;
}
