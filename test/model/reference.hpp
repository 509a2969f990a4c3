// The reference side of the differential test: the components it drives, the chooser that draws its
// operations (a seeded generator or fuzzer bytes), the model of std::map/std::set that a tessera::registry must
// agree with, and the archive round trip both sides share.
#ifndef TESSERA_TEST_MODEL_REFERENCE_HPP
#define TESSERA_TEST_MODEL_REFERENCE_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <tessera/archive/binary.hpp>
#include <tessera/core/hashed_string.hpp>
#include <tessera/entity/change_filter.hpp>
#include <tessera/entity/command_buffer.hpp>
#include <tessera/entity/group.hpp>
#include <tessera/entity/prototype.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/snapshot.hpp>
#include <tessera/entity/view.hpp>
#include <type_traits>
#include <utility>
#include <vector>

namespace tessera_model {

/// Trivially copyable, written to archives as raw bytes. Tracked by change detection: verify_ticks checks it.
struct trivial {
    static constexpr bool track_changes = true;
    int value;
};

/// Owns heap memory (long strings leave the small buffer); archived through serialize overloads.
struct heavy {
    std::string text;
};

/// Empty: its pool keeps no instances.
struct tag {};

/// Removing an element leaves a hole.
struct stable {
    static constexpr bool in_place_delete = true;
    int value;
};

inline void serialize(tessera::binary_output_archive &archive, const heavy &elem) {
    archive(static_cast<std::uint32_t>(elem.text.size()));

    for (const char ch : elem.text) {
        archive(ch);
    }
}

inline void serialize(tessera::binary_input_archive &archive, heavy &elem) {
    std::uint32_t length{};
    archive(length);

    // a corrupt length must fail as a truncated archive, not as a huge allocation
    if (length > archive.remaining()) {
        archive.corrupt("heavy: the text is longer than the section");
    }

    elem.text.resize(length);

    for (char &ch : elem.text) {
        archive(ch);
    }
}

/// The name of the second pool of `trivial`.
inline constexpr tessera::id_type named_id = tessera::hashed_string::value("named");

/// Thrown when the registry and the model disagree; what() says where.
struct divergence : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Where the operations come from: a splitmix64 sequence, or fuzzer bytes (zeros once they run out).
class chooser {
public:
    explicit chooser(const std::uint64_t seed) : state{seed} {}

    explicit chooser(const std::span<const std::uint8_t> data) : bytes{data}, from_bytes{true} {}

    /// A value in [0, bound), bound > 0.
    std::uint32_t pick(const std::uint32_t bound) {
        if (from_bytes) {
            std::uint32_t value{};

            for (std::uint32_t span = bound - 1u, shift = 0u; span; span >>= 8u, shift += 8u) {
                value |= static_cast<std::uint32_t>(cursor < bytes.size() ? bytes[cursor++] : 0u) << shift;
            }

            return value % bound;
        }

        state += 0x9E3779B97F4A7C15ull;
        auto z = state;
        z = (z ^ (z >> 30u)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27u)) * 0x94D049BB133111EBull;
        return static_cast<std::uint32_t>((z ^ (z >> 31u)) % bound);
    }

    /// True once fuzzer bytes are used up (never for the generator).
    [[nodiscard]] bool exhausted() const noexcept { return from_bytes && cursor >= bytes.size(); }

private:
    std::uint64_t state{};
    std::span<const std::uint8_t> bytes{};
    std::size_t cursor{};
    bool from_bytes{};
};

using entity = tessera::entity;
using traits = tessera::entt_traits<entity>;
using version_type = traits::version_type;
using registry = tessera::registry;

/// The reference model: nothing but ordered maps and sets.
struct model {
    /// Current version of every index ever handed out.
    std::map<std::uint32_t, version_type> versions;
    std::set<entity> alive;
    std::map<entity, int> trivials;
    std::map<entity, std::string> heavies;
    std::set<entity> tags;
    std::map<entity, int> stables;
    std::map<entity, int> named;
    /// The entities whose heavy is disabled (docs/enable_disable.md): present, skipped by views and groups.
    std::set<entity> heavy_off;

    [[nodiscard]] bool orphan(const entity entt) const {
        return !trivials.contains(entt) && !heavies.contains(entt) && !tags.contains(entt) && !stables.contains(entt) &&
               !named.contains(entt);
    }

    void drop_all() {
        trivials.clear();
        heavies.clear();
        heavy_off.clear();
        tags.clear();
        stables.clear();
        named.clear();
    }

    void drop(const entity entt) {
        trivials.erase(entt);
        heavies.erase(entt);
        heavy_off.erase(entt);
        tags.erase(entt);
        stables.erase(entt);
        named.erase(entt);
    }

    /// The version after a release: +1, skipping the tombstone version.
    [[nodiscard]] static version_type next(const version_type version) {
        const auto mask = static_cast<version_type>(traits::version_mask);
        const auto incr = static_cast<version_type>((version + 1u) & mask);
        return incr == mask ? version_type{} : incr;
    }
};

/// Writes the identifiers, the four default pools and the named pool of `reg`.
inline void save_all(const registry &reg, std::vector<std::byte> &bytes) {
    tessera::binary_output_archive out{bytes};
    const tessera::snapshot snapshot{reg};
    snapshot.get<entity>(out.section<entity>())
        .get<trivial>(out.section<trivial>())
        .get<heavy>(out.section<heavy>())
        .get<tag>(out.section<tag>())
        .get<stable>(out.section<stable>())
        .get<trivial>(out.section<trivial>(named_id), named_id);
    out.finish();
}

/// Reads what save_all wrote with `loader` (a snapshot_loader or a continuous_loader). Throws archive_error.
template<typename Loader>
void load_all(Loader &loader, const std::span<const std::byte> bytes) {
    tessera::binary_input_archive in{bytes};
    loader.template get<entity>(in.section<entity>())
        .template get<trivial>(in.section<trivial>())
        .template get<heavy>(in.section<heavy>())
        .template get<tag>(in.section<tag>())
        .template get<stable>(in.section<stable>())
        .template get<trivial>(in.section<trivial>(named_id), named_id);
}

} // namespace tessera_model

#endif
