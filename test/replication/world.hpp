// What the replication tests share: component types of every kind the format knows (raw values, an archived one, an
// empty one, one holding identifiers), a random generator, and the comparison of a mirror with the part of the
// server's registry it must hold.
#ifndef TESSERA_TEST_REPLICATION_WORLD_HPP
#define TESSERA_TEST_REPLICATION_WORLD_HPP

#include "support/splitmix.hpp"
#include <cstdint>
#include <functional>
#include <string>
#include <tessera/archive/binary.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/replication/replication.hpp>
#include <tuple>

namespace replication_test {

/// Trivially copyable, tracked: travels as its bytes.
struct position {
    static constexpr bool track_changes = true;
    float x{};
    float y{};
};

/// Trivially copyable, tracked.
struct health {
    static constexpr bool track_changes = true;
    int value{};
};

/// Empty: travels as presence only, no tracking needed.
struct frozen {};

/// Owns memory, tracked: travels through its serialize overloads (the snapshot archive's rules).
struct label {
    static constexpr bool track_changes = true;
    std::string text{};
};

/// Holds an identifier the mirror maps (entity_members, as for command buffers).
struct anchor {
    tessera::entity target{tessera::null};
    int weight{};
    static constexpr bool track_changes = true;
    static constexpr auto entity_members = std::tuple{&anchor::target};
};

inline void serialize(tessera::binary_output_archive &archive, const label &value) {
    archive(static_cast<std::uint32_t>(value.text.size()));

    for (const char ch : value.text) {
        archive(ch);
    }
}

inline void serialize(tessera::binary_input_archive &archive, label &value) {
    std::uint32_t length{};
    archive(length);

    if (length > archive.remaining()) {
        archive.corrupt("label: the text is longer than the data");
    }

    value.text.resize(length);

    for (char &ch : value.text) {
        archive(ch);
    }
}

using source_type = tessera::replication::source<position, health, frozen, label, anchor>;
using mirror_type = tessera::replication::mirror<position, health, frozen, label, anchor>;
using tessera::replication::replicated;

/// splitmix64 (test/support/splitmix.hpp).
using generator = tessera_test::splitmix64;

/// Compares the mirror with the replicated entities of `server` that `relevant` accepts; returns the first
/// difference, or an empty string.
inline std::string compare(const tessera::registry &server, const mirror_type &mirror, const tessera::registry &client,
                           const std::function<bool(tessera::entity)> &relevant) {
    const auto *marker = server.storage<replicated>();
    std::size_t expected{};
    const auto is_relevant = [&](const tessera::entity entt) {
        return marker != nullptr && marker->contains(entt) && (!relevant || relevant(entt));
    };

    for (const auto entt : server.view<replicated>()) {
        if (!is_relevant(entt)) {
            if (mirror.contains(entt)) {
                return "an entity that is not relevant is mirrored";
            }

            continue;
        }

        ++expected;
        const auto local = mirror.map(entt);

        if (!client.valid(local)) {
            return "a relevant entity is not mirrored";
        }

        if (mirror.remote(local) != entt) {
            return "remote() does not give the entity back";
        }

        if (server.all_of<position>(entt) != client.all_of<position>(local) ||
            (server.all_of<position>(entt) && (server.get<position>(entt).x != client.get<position>(local).x ||
                                               server.get<position>(entt).y != client.get<position>(local).y))) {
            return "position differs";
        }

        if (server.all_of<health>(entt) != client.all_of<health>(local) ||
            (server.all_of<health>(entt) && server.get<health>(entt).value != client.get<health>(local).value)) {
            return "health differs";
        }

        if (server.all_of<frozen>(entt) != client.all_of<frozen>(local)) {
            return "frozen differs";
        }

        if (server.all_of<label>(entt) != client.all_of<label>(local) ||
            (server.all_of<label>(entt) && server.get<label>(entt).text != client.get<label>(local).text)) {
            return "label differs";
        }

        if (server.all_of<anchor>(entt) != client.all_of<anchor>(local)) {
            return "anchor presence differs";
        }

        if (server.all_of<anchor>(entt)) {
            const auto &remote_anchor = server.get<anchor>(entt);
            const auto &local_anchor = client.get<anchor>(local);
            const auto target =
                is_relevant(remote_anchor.target) ? mirror.map(remote_anchor.target) : tessera::entity{tessera::null};

            if (local_anchor.weight != remote_anchor.weight || local_anchor.target != target) {
                return "anchor differs";
            }
        }
    }

    if (mirror.size() != expected) {
        return "the mirror holds " + std::to_string(mirror.size()) + " entities, " + std::to_string(expected) +
               " expected";
    }

    if (client.storage<tessera::entity>()->free_list() != expected) {
        return "the client registry holds other entities";
    }

    return {};
}

} // namespace replication_test

#endif
