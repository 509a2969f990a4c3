// The client side of replication: a mirror applies the messages of a source to a registry of its own, all or
// nothing, creating a local entity for each replicated one and mapping identifiers, those inside component values
// included. Applying goes through the registry's usual calls, so the usual signals fire.
#ifndef TESSERA_REPLICATION_MIRROR_HPP
#define TESSERA_REPLICATION_MIRROR_HPP

#include "../config/config.hpp"
#include "../entity/change_tracking.hpp"
#include "../entity/entity.hpp"
#include "../entity/memory_report.hpp"
#include "../entity/registry.hpp"
#include "../entity/sparse_set.hpp"
#include "../entity/storage.hpp"
#include "error.hpp"
#include "fwd.hpp"
#include "internal/format.hpp"
#include "internal/history.hpp"
#include "internal/values.hpp"
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tessera::internal {

/// Compile-time checks of a type a mirror receives (the source's list, without the tracking requirement).
template<typename Type>
consteval bool check_mirrored_type() {
    static_assert(std::is_same_v<std::remove_cvref_t<Type>, Type>,
                  "replication: list component types without const, volatile or references");
    static_assert(replicable_v<Type>,
                  "replication: a replicated type must be empty, trivially copyable, or have the snapshot archive's "
                  "serialize(binary_output_archive &, const T &) and serialize(binary_input_archive &, T &) "
                  "overloads (docs/snapshots.md); a type with a value must be default-constructible");
    return true;
}

/// What a mirror keeps of the values of a type that holds identifiers, as the source wrote them (remote
/// identifiers): when an entity they refer to arrives or leaves, the local values are mapped again.
template<typename Entity, typename Type>
struct remote_values {
    basic_sparse_set<Entity> keys{};
    std::vector<Type> values{};
    std::vector<std::uint64_t> serials{};
};

/// Types that hold no identifiers keep nothing.
struct no_remote_values {};

} // namespace tessera::internal

namespace tessera::replication {

/// Applies the messages of a source (basic_source) to a registry: the replicated entities appear as local
/// entities of that registry, with the components Type... (the source's list, in the same order). Messages are
/// applied all or nothing; one that is damaged, replayed, from another format or schema, or a delta against a
/// state the mirror does not hold is refused with an error (replication::error) and changes nothing.
///
/// Identifiers are mapped: map(remote) gives the local entity of a replicated one, and the identifiers inside
/// component values (component_traits<T>::entity_members, as for command buffers) are mapped too, to null while
/// the entity they refer to is not mirrored (not replicated, or not relevant to this peer); such values are mapped
/// again when it arrives or leaves. The registry must outlive the mirror. Do not destroy mirrored entities nor
/// remove their replicated components yourself: a later message that touches them recreates what it sends.
template<typename Registry, typename... Type>
class basic_mirror {
    static_assert(!std::is_const_v<Registry>, "replication::mirror: use the registry type without const");
    static_assert((internal::check_mirrored_type<Type>() && ...));
    static_assert(internal::distinct_types<Type...>::value, "replication::mirror: a component type is listed twice");

    using entity_type = typename Registry::entity_type;
    using traits_type = entt_traits<entity_type>;
    template<typename Component>
    using pool_type = typename Registry::template storage_for_type<Component>;
    using set_type = basic_sparse_set<entity_type>;

    static constexpr std::size_t type_count = sizeof...(Type);

    /// A remote entity and its local counterpart, stored under the remote index.
    struct mapping {
        entity_type remote;
        entity_type local;
    };

    /// The remote entity of a local one, stored under the local index.
    struct back_ref {
        entity_type remote;
    };

    /// A value of a mirrored entity (holder, component type `type`) that refers to `target`.
    struct reference {
        entity_type target;
        entity_type holder;
        std::size_t type;
    };

    /// One type's part of a message, read by validate() and used by the apply step.
    template<typename Component>
    struct section {
        std::vector<entity_type> ids{};
        const std::byte *raw{};
        std::vector<Component> archived{};
        std::vector<entity_type> removals{};
    };

    template<typename Component>
    using kept_values = std::conditional_t<internal::holds_identifiers_v<Component, entity_type>,
                                           internal::remote_values<entity_type, Component>, internal::no_remote_values>;

    [[nodiscard]] static entity_type key_of(const entity_type entt) noexcept {
        return traits_type::construct(traits_type::to_entity(entt), {});
    }

    [[nodiscard]] static std::uint64_t index_of(const entity_type entt) noexcept {
        return static_cast<std::uint64_t>(traits_type::to_entity(entt));
    }

    // ---- lookups --------------------------------------------------------------------------------------------

    [[nodiscard]] bool mapped(const entity_type remote_entt) const {
        const auto key = key_of(remote_entt);
        return remote_map.contains(key) && remote_map.get(key).remote == remote_entt;
    }

    // The local counterpart of a remote identifier in a value: null unless it is mirrored (and alive).
    [[nodiscard]] entity_type to_local(const entity_type remote_entt) const {
        if (remote_entt == null || remote_entt == tombstone || !mapped(remote_entt)) {
            return null;
        }

        const auto local = remote_map.get(key_of(remote_entt)).local;
        return reg->valid(local) ? local : entity_type{null};
    }

    // ---- reading a message -----------------------------------------------------------------------------------

    void check_index(const entity_type entt) const {
        if (index_of(entt) >= max_index) {
            internal::byte_reader::fail(errc::corrupt, "replication: an identifier's index is beyond the mirror's "
                                                       "limit");
        }
    }

    // True if a remote entity exists once the despawns and spawns of the message are applied.
    [[nodiscard]] bool live(const entity_type remote_entt, const bool full) const {
        const auto key = key_of(remote_entt);

        if (spawn_set.contains(key)) {
            return spawns[spawn_set.index(key)] == remote_entt;
        }

        return !full && mapped(remote_entt) && !gone_set.contains(key);
    }

    template<std::size_t Index, typename Component>
    void read_type(internal::byte_reader &in, const bool full) {
        auto &part = std::get<Index>(sections);
        part.ids.clear();
        part.removals.clear();
        part.raw = nullptr;

        const auto count = in.count(1u);

        for (std::size_t pos{}; pos < count; ++pos) {
            const auto entt = in.template entity<entity_type>();
            check_index(entt);

            if (!live(entt, full)) {
                internal::byte_reader::fail(errc::corrupt,
                                            "replication: a component for an entity the mirror does not hold");
            }

            part.ids.push_back(entt);
        }

        if constexpr (internal::replicated_value_of<Component> == internal::replicated_value::raw) {
            if (count > in.remaining() / internal::raw_size<Component>) {
                internal::byte_reader::fail(errc::truncated, "replication: the message ends in a section of values");
            }

            part.raw = in.take(count * internal::raw_size<Component>);
        } else if constexpr (internal::replicated_value_of<Component> == internal::replicated_value::archived) {
            part.archived.clear();

            if (count != 0u) {
                internal::read_archived<Component>(in, count, part.archived);
            }
        }

        const auto removals = in.count(1u);

        for (std::size_t pos{}; pos < removals; ++pos) {
            const auto entt = in.template entity<entity_type>();
            check_index(entt);

            if (!live(entt, full)) {
                internal::byte_reader::fail(errc::corrupt,
                                            "replication: a removal for an entity the mirror does not hold");
            }

            part.removals.push_back(entt);
        }
    }

    template<std::size_t... Index>
    void read_types(internal::byte_reader &in, const bool full, std::index_sequence<Index...>) {
        (read_type<Index, Type>(in, full), ...);
    }

    // Reads the whole body, checking everything the apply step relies on; changes nothing but scratch space.
    void validate(const std::span<const std::byte> body, const bool full) {
        internal::byte_reader in{body};
        despawns.clear();
        spawns.clear();
        gone_set.clear();
        spawn_set.clear();

        for (auto count = in.count(1u); count != 0u; --count) {
            const auto entt = in.template entity<entity_type>();
            check_index(entt);
            despawns.push_back(entt);

            if (const auto key = key_of(entt); mapped(entt) && !gone_set.contains(key)) {
                gone_set.push(key);
            }
        }

        for (auto count = in.count(1u); count != 0u; --count) {
            const auto entt = in.template entity<entity_type>();
            check_index(entt);
            const auto key = key_of(entt);

            if (spawn_set.contains(key)) {
                internal::byte_reader::fail(errc::corrupt, "replication: a message spawns an entity twice");
            }

            spawn_set.push(key);
            spawns.push_back(entt);

            // another incarnation of the index goes: the index now belongs to the spawned one
            if (remote_map.contains(key) && remote_map.get(key).remote != entt && !gone_set.contains(key)) {
                gone_set.push(key);
            }
        }

        read_types(in, full, std::index_sequence_for<Type...>{});

        if (in.remaining() != 0u) {
            internal::byte_reader::fail(errc::corrupt, "replication: the message has trailing bytes");
        }
    }

    // ---- applying it ---------------------------------------------------------------------------------------

    // The values a holder keeps for a type that holds identifiers: their references are indexed by target.
    template<std::size_t Index, typename Component>
    void forget_values(const entity_type holder) {
        if constexpr (internal::holds_identifiers_v<Component, entity_type>) {
            auto &kept = std::get<Index>(kept_values_of);
            const auto key = key_of(holder);

            if (!kept.keys.contains(key)) {
                return;
            }

            const auto pos = kept.keys.index(key);
            unlink(holder, Index, kept.values[pos]);
            kept.values[pos] = std::move(kept.values.back());
            kept.values.pop_back();
            kept.serials[pos] = kept.serials.back();
            kept.serials.pop_back();
            kept.keys.erase(key);
        }
    }

    template<typename Component>
    void link(const entity_type holder, const std::size_t type, Component value) {
        internal::map_identifiers<entity_type>(value, [this, holder, type](const entity_type target) {
            if (target != null && target != tombstone) {
                references.emplace(index_of(target), reference{target, holder, type});
            }

            return target;
        });
    }

    template<typename Component>
    void unlink(const entity_type holder, const std::size_t type, Component value) {
        internal::map_identifiers<entity_type>(value, [this, holder, type](const entity_type target) {
            if (target != null && target != tombstone) {
                auto [first, last] = references.equal_range(index_of(target));

                for (; first != last; ++first) {
                    if (first->second.target == target && first->second.holder == holder &&
                        first->second.type == type) {
                        references.erase(first);
                        break;
                    }
                }
            }

            return target;
        });
    }

    // Keeps the remote form of a value that holds identifiers, replacing the one kept before.
    template<std::size_t Index, typename Component>
    void keep_values(const entity_type holder, const Component &value) {
        auto &kept = std::get<Index>(kept_values_of);
        const auto key = key_of(holder);

        if (kept.keys.contains(key)) {
            const auto pos = kept.keys.index(key);
            unlink(holder, Index, kept.values[pos]);
            kept.values[pos] = value;
            kept.serials[pos] = serial;
        } else {
            kept.keys.push(key);
            kept.values.push_back(value);
            kept.serials.push_back(serial);
        }

        link(holder, Index, value);
    }

    template<std::size_t... Index>
    void forget_all_values(const entity_type holder, std::index_sequence<Index...>) {
        (forget_values<Index, Type>(holder), ...);
    }

    // Gives a remote entity a new local counterpart.
    entity_type create_local(const entity_type remote_entt) {
        const auto local = reg->create();
        const auto key = key_of(remote_entt);

        if (remote_map.contains(key)) {
            remote_map.get(key) = mapping{remote_entt, local};
        } else {
            remote_map.emplace(key, mapping{remote_entt, local});
        }

        if (const auto back = key_of(local); back_map.contains(back)) {
            back_map.get(back) = back_ref{remote_entt};
        } else {
            back_map.emplace(back, back_ref{remote_entt});
        }

        affected.push_back(remote_entt);
        return local;
    }

    // The local counterpart of a mapped remote entity, recreated if it was destroyed behind the mirror's back.
    entity_type local_of(const entity_type remote_entt) {
        const auto local = remote_map.get(key_of(remote_entt)).local;
        return reg->valid(local) ? local : create_local(remote_entt);
    }

    // Destroys the local counterpart of a mapped remote entity and forgets it.
    void despawn(const entity_type remote_entt) {
        const auto key = key_of(remote_entt);
        const auto local = remote_map.get(key).local;
        forget_all_values(remote_entt, std::index_sequence_for<Type...>{});
        remote_map.erase(key);

        if (const auto back = key_of(local); back_map.contains(back) && back_map.get(back).remote == remote_entt) {
            back_map.erase(back);
        }

        affected.push_back(remote_entt);

        if (reg->valid(local)) {
            reg->destroy(local);
        }
    }

    template<typename Component>
    static void assign(pool_type<Component> &pool, const entity_type local, Component &&value) {
        if constexpr (std::is_empty_v<Component>) {
            if (!pool.contains(local)) {
                pool.emplace(local);
            }
        } else if (pool.contains(local)) {
            pool.patch(local, [&value](Component &elem) { elem = std::move(value); });
        } else {
            pool.emplace(local, std::move(value));
        }
    }

    template<std::size_t Index, typename Component>
    void apply_type(const bool full) {
        auto &part = std::get<Index>(sections);
        auto &pool = *std::get<Index>(pools);

        for (std::size_t pos{}; pos < part.ids.size(); ++pos) {
            const auto remote_entt = part.ids[pos];
            const auto local = local_of(remote_entt);

            if constexpr (std::is_empty_v<Component>) {
                assign(pool, local, Component{});
            } else {
                Component value{};

                if constexpr (internal::replicated_value_of<Component> == internal::replicated_value::raw) {
                    internal::load_raw(part.raw + pos * internal::raw_size<Component>, value);
                } else {
                    value = std::move(part.archived[pos]);
                }

                if constexpr (internal::holds_identifiers_v<Component, entity_type>) {
                    keep_values<Index>(remote_entt, value);
                    internal::map_identifiers<entity_type>(value,
                                                           [this](const entity_type other) { return to_local(other); });
                }

                assign(pool, local, std::move(value));
            }
        }

        if (full) {
            // a whole state lists every component: a mirrored entity that did not get this type has none
            touched.clear();

            for (const auto remote_entt : part.ids) {
                if (const auto local = remote_map.get(key_of(remote_entt)).local; !touched.contains(local)) {
                    touched.push(local);
                }
            }

            stale.clear();

            for (const auto local : static_cast<const typename Registry::common_type &>(pool)) {
                if (local != tombstone && !touched.contains(local) && remote(local) != null) {
                    stale.push_back(local);
                }
            }

            for (const auto local : stale) {
                forget_values<Index, Component>(remote(local));
                pool.remove(local);
            }
        }

        for (const auto remote_entt : part.removals) {
            forget_values<Index, Component>(remote_entt);

            if (const auto local = remote_map.get(key_of(remote_entt)).local; reg->valid(local)) {
                pool.remove(local);
            }
        }
    }

    template<std::size_t... Index>
    void apply_types(const bool full, std::index_sequence<Index...>) {
        (apply_type<Index, Type>(full), ...);
    }

    // Maps again the kept value of a holder for a type, once an entity it refers to arrived or left.
    template<std::size_t Index, typename Component>
    void remap(const entity_type holder) {
        if constexpr (internal::holds_identifiers_v<Component, entity_type>) {
            auto &kept = std::get<Index>(kept_values_of);
            const auto key = key_of(holder);

            // a value set by this message was mapped after its spawns and despawns already
            if (!mapped(holder) || !kept.keys.contains(key) || kept.serials[kept.keys.index(key)] == serial) {
                return;
            }

            const auto local = remote_map.get(key).local;

            if (auto &pool = *std::get<Index>(pools); reg->valid(local) && pool.contains(local)) {
                Component value = kept.values[kept.keys.index(key)];
                internal::map_identifiers<entity_type>(value,
                                                       [this](const entity_type other) { return to_local(other); });
                pool.patch(local, [&value](Component &elem) { elem = std::move(value); });
            }

            kept.serials[kept.keys.index(key)] = serial;
        }
    }

    template<std::size_t... Index>
    void remap(const entity_type holder, const std::size_t type, std::index_sequence<Index...>) {
        ((type == Index ? remap<Index, Type>(holder) : void()), ...);
    }

    // After the despawns and spawns: the values that refer to an entity that arrived or left are mapped again.
    void remap_affected() {
        if (references.empty() || affected.empty()) {
            return;
        }

        internal::sort_unique(affected);
        holders.clear();

        for (const auto target : affected) {
            auto [first, last] = references.equal_range(index_of(target));

            for (; first != last; ++first) {
                if (first->second.target == target) {
                    holders.emplace_back(first->second.holder, first->second.type);
                }
            }
        }

        std::sort(holders.begin(), holders.end());
        holders.erase(std::unique(holders.begin(), holders.end()), holders.end());

        for (const auto &[holder, type] : holders) {
            remap(holder, type, std::index_sequence_for<Type...>{});
        }
    }

    void apply_validated(const bool full) {
        ++serial;
        affected.clear();

        if (full) {
            // what the whole state leaves out goes
            stale.clear();

            for (auto [key, entry] : std::as_const(remote_map).each()) {
                if (!live(entry.remote, true)) {
                    stale.push_back(entry.remote);
                }
            }

            for (const auto remote_entt : stale) {
                despawn(remote_entt);
            }
        }

        for (const auto remote_entt : despawns) {
            if (mapped(remote_entt)) {
                despawn(remote_entt);
            }
        }

        for (const auto remote_entt : spawns) {
            if (mapped(remote_entt)) {
                // it is there already (the mirror's state is newer than the baseline)
                static_cast<void>(local_of(remote_entt));
                continue;
            }

            if (remote_map.contains(key_of(remote_entt))) {
                despawn(remote_map.get(key_of(remote_entt)).remote);
            }

            static_cast<void>(create_local(remote_entt));
        }

        apply_types(full, std::index_sequence_for<Type...>{});
        remap_affected();
    }

    template<std::size_t... Index>
    void digest_components(internal::state_digest<entity_type> &digest, const entity_type local,
                           std::vector<std::byte> &scratch, std::index_sequence<Index...>) const {
        (
            [&] {
                const auto &pool = *std::get<Index>(pools);

                if (pool.contains(local)) {
                    if constexpr (std::is_empty_v<Type>) {
                        digest.template component<Type>(Index, nullptr, scratch);
                    } else if constexpr (internal::holds_identifiers_v<Type, entity_type>) {
                        Type value = pool.get(local);
                        internal::map_identifiers<entity_type>(
                            value, [this](const entity_type other) { return remote(other); });
                        digest.template component<Type>(Index, &value, scratch);
                    } else {
                        digest.template component<Type>(Index, &pool.get(local), scratch);
                    }
                }
            }(),
            ...);
    }

public:
    /// The registry type.
    using registry_type = Registry;

    /// Indices of remote identifiers above this are refused: with 64-bit identifiers, a message cannot make the
    /// mirror allocate the sparse pages of four billion indices.
    static constexpr std::uint64_t default_max_index =
        traits_type::entity_mask < (std::uint64_t{1} << 24u) ? traits_type::entity_mask : (std::uint64_t{1} << 24u);

    /// Applies messages to `registry`, which must outlive the mirror. Remote indices at or above `index_limit` are
    /// refused as corrupt.
    explicit basic_mirror(registry_type &registry, const std::uint64_t index_limit = default_max_index)
        : reg{&registry}, pools{&registry.template storage<Type>()...}, max_index{index_limit} {}

    basic_mirror(const basic_mirror &) = delete;
    basic_mirror(basic_mirror &&) = delete;
    basic_mirror &operator=(const basic_mirror &) = delete;
    basic_mirror &operator=(basic_mirror &&) = delete;
    ~basic_mirror() = default;

    /// Applies a message and returns the tick to acknowledge to the source (peer.acknowledge). All or nothing: a
    /// message that is truncated, damaged (checksum), from another format version or schema, not newer than the
    /// mirror's state (replayed), or a delta against a state the mirror does not hold, throws replication::error
    /// and changes nothing. Applying creates and destroys entities, and adds, replaces and removes components
    /// through the registry, whose signals fire: despawns first, then spawns, then each type's values (in the
    /// order of Type...) and removals, then the values mapped again. If a listener throws, the message is left
    /// half applied and the mirror forgets its state: it then accepts only a whole state (peer.reset() on the
    /// source's side).
    tick_type apply(const std::span<const std::byte> bytes) {
        const auto header = internal::read_replication_header(bytes);

        if (header.id_size != sizeof(entity_type) ||
            header.schema != internal::replication_schema<entity_type, Type...>()) {
            internal::byte_reader::fail(errc::schema_mismatch, "replication: the message was written for other "
                                                               "component types or identifiers of another size");
        }

        const bool full = (header.flags & internal::replication_full_state) != 0u;

        if (has_state && !internal::tick_later(header.tick, current)) {
            internal::byte_reader::fail(errc::replayed, "replication: the message is not newer than the mirror's "
                                                        "state (replayed or out of order)");
        }

        if (!full && (!has_state || internal::tick_later(header.baseline, current))) {
            internal::byte_reader::fail(errc::unknown_baseline, "replication: the message is a delta against a state "
                                                                "the mirror does not hold");
        }

        if (!full && !internal::tick_later(header.tick, header.baseline)) {
            internal::byte_reader::fail(errc::corrupt, "replication: a delta's baseline is not before its tick");
        }

        validate(bytes.subspan(internal::replication_header_size), full);

        try {
            apply_validated(full);
        } catch (...) {
            has_state = false;
            throw;
        }

        current = header.tick;
        has_state = true;
        return header.tick;
    }

    /// The local entity of a remote (source) identifier, or null if it is not mirrored.
    [[nodiscard]] entity_type map(const entity_type remote_entt) const { return to_local(remote_entt); }

    /// True if the remote identifier (with its version) is mirrored.
    [[nodiscard]] bool contains(const entity_type remote_entt) const {
        return remote_entt != null && remote_entt != tombstone && mapped(remote_entt);
    }

    /// The remote identifier of a local entity, or null if it is not a mirrored one.
    [[nodiscard]] entity_type remote(const entity_type local) const {
        if (local == null || local == tombstone) {
            return null;
        }

        if (const auto back = key_of(local); back_map.contains(back)) {
            const auto remote_entt = back_map.get(back).remote;

            if (mapped(remote_entt) && remote_map.get(key_of(remote_entt)).local == local && reg->valid(local)) {
                return remote_entt;
            }
        }

        return null;
    }

    /// Entities mirrored.
    [[nodiscard]] std::size_t size() const noexcept { return remote_map.size(); }

    /// The tick of the state the mirror holds (what it acknowledged last), if it holds one.
    [[nodiscard]] std::optional<tick_type> tick() const noexcept {
        return has_state ? std::optional<tick_type>{current} : std::nullopt;
    }

    /// Destroys every mirrored entity and forgets the state: the mirror then accepts only a whole state, of any
    /// tick (for a new connection, or a source that started again).
    void reset() {
        std::vector<entity_type> all{};

        for (auto [key, entry] : std::as_const(remote_map).each()) {
            all.push_back(entry.remote);
        }

        for (const auto remote_entt : all) {
            despawn(remote_entt);
        }

        references.clear();
        affected.clear();
        has_state = false;
    }

    /// The digest of the mirrored state, equal to source.digest() or peer.digest() of the state applied last:
    /// every mirrored entity with its components, identifiers inside values read back as remote ones.
    [[nodiscard]] std::uint64_t digest() const {
        internal::state_digest<entity_type> digest{};
        std::vector<std::byte> scratch{};

        for (auto [key, entry] : remote_map.each()) {
            if (reg->valid(entry.local)) {
                digest.begin(entry.remote);
                digest_components(digest, entry.local, scratch, std::index_sequence_for<Type...>{});
                digest.end();
            }
        }

        return digest.value();
    }

    /// Bytes the mirror holds besides the registry: its identifier maps, the remote form of values that hold
    /// identifiers, and its scratch space.
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        std::size_t bytes =
            memory_of(remote_map).bytes + memory_of(back_map).bytes + memory_of(spawn_set).bytes +
            memory_of(gone_set).bytes + memory_of(touched).bytes +
            (despawns.capacity() + spawns.capacity() + affected.capacity() + stale.capacity()) * sizeof(entity_type) +
            holders.capacity() * sizeof(std::pair<entity_type, std::size_t>) +
            references.size() * (sizeof(reference) + 2u * sizeof(void *)) + references.bucket_count() * sizeof(void *);
        std::apply(
            [&bytes](const auto &...part) {
                ((bytes += (part.ids.capacity() + part.removals.capacity()) * sizeof(entity_type) +
                           part.archived.capacity() * sizeof(typename decltype(part.archived)::value_type)),
                 ...);
            },
            sections);
        std::apply(
            [&bytes](const auto &...kept) {
                (
                    [&bytes](const auto &part) {
                        if constexpr (!std::is_same_v<std::remove_cvref_t<decltype(part)>,
                                                      internal::no_remote_values>) {
                            bytes += memory_of(part.keys).bytes +
                                     part.values.capacity() * sizeof(typename decltype(part.values)::value_type) +
                                     part.serials.capacity() * sizeof(std::uint64_t);
                        }
                    }(kept),
                    ...);
            },
            kept_values_of);
        return bytes;
    }

    /// The registry the mirror applies to.
    [[nodiscard]] registry_type &registry() const noexcept { return *reg; }

private:
    registry_type *reg;
    std::tuple<pool_type<Type> *...> pools;
    std::uint64_t max_index;
    basic_storage<mapping, entity_type> remote_map{};
    basic_storage<back_ref, entity_type> back_map{};
    std::tuple<kept_values<Type>...> kept_values_of{};
    std::unordered_multimap<std::uint64_t, reference> references{};
    tick_type current{};
    bool has_state{};
    std::uint64_t serial{};
    // scratch space of apply, kept from one message to the next
    std::vector<entity_type> despawns{};
    std::vector<entity_type> spawns{};
    set_type spawn_set{};
    set_type gone_set{};
    std::tuple<section<Type>...> sections{};
    std::vector<entity_type> affected{};
    std::vector<std::pair<entity_type, std::size_t>> holders{};
    set_type touched{};
    std::vector<entity_type> stale{};
};

} // namespace tessera::replication

#endif
