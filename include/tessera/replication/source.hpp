// The server side of replication: a source observes a registry and encodes, for each peer, what the peer needs
// to hold the replicated state: the whole state when it has nothing usable, otherwise a delta against the last
// state it acknowledged. What changed comes from the pools' change ticks (docs/change_detection.md) and from a
// history of spawns, despawns and removals the source records through the registry's signals, kept for a window
// of ticks. Peers acknowledged at the same tick share one encoding; a peer may filter what is relevant to it.
#ifndef TESSERA_REPLICATION_SOURCE_HPP
#define TESSERA_REPLICATION_SOURCE_HPP

#include "../config/config.hpp"
#include "../entity/change_filter.hpp"
#include "../entity/change_tracking.hpp"
#include "../entity/component.hpp"
#include "../entity/entity.hpp"
#include "../entity/memory_contributors.hpp"
#include "../entity/memory_report.hpp"
#include "../entity/registry.hpp"
#include "../entity/sparse_set.hpp"
#include "../entity/storage.hpp"
#include "../entity/view.hpp"
#include "fwd.hpp"
#include "internal/format.hpp"
#include "internal/history.hpp"
#include "internal/values.hpp"
#include "message.hpp"
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tessera::replication {

/// The marker of replicated entities: a source replicates the entities that carry it (add it to what peers must
/// see, remove it or destroy the entity to take it away from them).
struct replicated {};

} // namespace tessera::replication

namespace tessera::internal {

/// What a filtered peer remembers of an entity: since when it is relevant (the tick of the message that spawned it
/// on the peer) or since when it is not any more (the message that despawned it).
template<typename Entity>
struct relevance_record {
    Entity entt;
    tick_type since;
    bool relevant;
};

/// Compile-time checks of one replicated type, each with a message that says what to do.
template<typename Entity, typename Type>
consteval bool check_replicated_type() {
    static_assert(std::is_same_v<std::remove_cvref_t<Type>, Type>,
                  "replication: list component types without const, volatile or references");
    static_assert(!std::is_same_v<Type, replication::replicated>,
                  "replication: do not list the replicated marker: every replicated entity carries it already");
    static_assert(replicable_v<Type>,
                  "replication: a replicated type must be empty, trivially copyable, or have the snapshot archive's "
                  "serialize(binary_output_archive &, const T &) and serialize(binary_input_archive &, T &) "
                  "overloads (docs/snapshots.md); a type with a value must be default-constructible");
    static_assert(std::is_empty_v<Type> || track_changes_of<component_traits<Type, Entity>, Type>,
                  "replication: a replicated type with a value must track changes: declare static constexpr bool "
                  "track_changes = true in it or in its component_traits (docs/change_detection.md)");
    return true;
}

} // namespace tessera::internal

namespace tessera::replication {

/// Replicates the components Type... of the entities of a registry that carry `replicated`, to any number of
/// peers. Each peer (connect()) gets from next() the bytes that bring it to the registry's current state; the
/// transport carries them to a mirror, which returns the tick to acknowledge.
///
/// Types with a value must track changes (docs/change_detection.md): a delta sends the values whose tick is after
/// the peer's baseline, so changes must be stamped (patch, replace, emplace, modified). Empty types travel as
/// presence only. The source keeps, for `window` ticks, the spawns, despawns and removals it saw; a peer whose
/// acknowledged tick is older gets the whole state again. next() moves the registry's tick on once per state it
/// encodes, so that later changes are after it. The registry must outlive the source and stay where it is (not
/// moved or swapped); the peers must not outlive the source.
template<typename Registry, typename... Type>
class basic_source {
    static_assert(!std::is_const_v<Registry>, "replication::source: use the registry type without const");
    static_assert((internal::check_replicated_type<typename Registry::entity_type, Type>() && ...));
    static_assert(internal::distinct_types<Type...>::value, "replication::source: a component type is listed twice");
    static_assert(sizeof...(Type) < 65536u, "replication::source: too many component types");

    friend class basic_peer<Registry, Type...>;

    using entity_type = typename Registry::entity_type;
    using traits_type = entt_traits<entity_type>;
    using marker_type = typename Registry::template storage_for_type<replicated>;
    template<typename Component>
    using pool_type = typename Registry::template storage_for_type<Component>;
    using history_type = internal::replication_history<entity_type>;
    using set_type = basic_sparse_set<entity_type>;
    using record_type = internal::relevance_record<entity_type>;
    using records_type = basic_storage<record_type, entity_type>;
    using event = internal::replication_event;

    static constexpr std::size_t type_count = sizeof...(Type);

    /// An encoding shared by the unfiltered peers at one baseline, while the state it describes is current.
    struct cached {
        bool full{};
        tick_type baseline{};
        message bytes;
    };

    /// The state a filtered peer needs besides its ticks.
    struct relevance_state {
        std::function<bool(entity_type)> filter;
        records_type records{};
    };

    // ---- signals: the history ------------------------------------------------------------------------------

    void on_spawn(const Registry &, const entity_type entt) { history.push(entt, reg->tick(), 0u, event::spawn); }

    void on_despawn(const Registry &, const entity_type entt) { history.push(entt, reg->tick(), 0u, event::despawn); }

    // a removal matters only while the entity is replicated: a despawn covers what happens afterwards
    template<std::size_t Index>
    void on_remove(const Registry &, const entity_type entt) {
        if (marker->contains(entt)) {
            history.push(entt, reg->tick(), Index, event::remove);
        }
    }

    // empty types have no ticks: their additions are recorded too
    template<std::size_t Index>
    void on_add(const Registry &, const entity_type entt) {
        if (marker->contains(entt)) {
            history.push(entt, reg->tick(), Index, event::add);
        }
    }

    template<std::size_t... Index>
    void connect_all(std::index_sequence<Index...>) {
        reg->template on_construct<replicated>().template connect<&basic_source::on_spawn>(*this);
        reg->template on_destroy<replicated>().template connect<&basic_source::on_despawn>(*this);
        (reg->template on_destroy<Type>().template connect<&basic_source::on_remove<Index>>(*this), ...);
        (
            [&] {
                if constexpr (std::is_empty_v<Type>) {
                    reg->template on_construct<Type>().template connect<&basic_source::on_add<Index>>(*this);
                }
            }(),
            ...);
    }

    [[nodiscard]] static std::size_t measure(const void *self) noexcept {
        return static_cast<const basic_source *>(self)->memory_bytes();
    }

    void disconnect_all() {
        reg->template on_construct<replicated>().disconnect(static_cast<const void *>(this));
        reg->template on_destroy<replicated>().disconnect(static_cast<const void *>(this));
        (reg->template on_destroy<Type>().disconnect(static_cast<const void *>(this)), ...);
        (reg->template on_construct<Type>().disconnect(static_cast<const void *>(this)), ...);
    }

    // ---- which state a message describes -------------------------------------------------------------------

    // True if something replicated may have changed after `since`: a record of the history, or a change tick of a
    // tracked pool (each_changed costs O(log n) when nothing changed).
    [[nodiscard]] bool changed_after(const tick_type since) const {
        if (history.any_after(since)) {
            return true;
        }

        bool changed = false;
        (
            [&] {
                if constexpr (!std::is_empty_v<Type>) {
                    if (!changed) {
                        auto view = std::as_const(*reg).template view<const Type>();
                        view.visit_disabled(disabled_mode::include);
                        each_changed<Type>(view, since,
                                           [&changed](const entity_type, const Type &) { changed = true; });
                    }
                }
            }(),
            ...);
        return changed;
    }

    // The tick of the state the next message for a peer describes. The state sealed last is reused while nothing
    // replicated changed since and the peer has not been sent it; otherwise the current tick is sealed and the
    // registry's tick moves on, so that what changes afterwards is after the message.
    tick_type seal_for(const bool sent, const tick_type last_sent) {
        if (sealed && !(sent && last_sent == label) && !changed_after(label)) {
            return label;
        }

        label = reg->tick();
        reg->advance_tick();
        sealed = true;
        cache.clear();
        history.drop_until(label - span);
        return label;
    }

    // True if a baseline is recent enough for a delta: the history covers everything after it.
    [[nodiscard]] bool usable(const tick_type baseline, const tick_type now) const noexcept {
        return !internal::tick_later(baseline, now) && static_cast<tick_type>(now - baseline) <= span;
    }

    // ---- encoding ------------------------------------------------------------------------------------------

    // Writes the identifiers of a list: its count, then each one.
    static void write_list(internal::byte_writer &out, const std::vector<entity_type> &list) {
        out.entities(list.size(), list.begin(), list.end());
    }

    // The values of one type's section: identifiers go to a list, values to a buffer (or, for archived types,
    // their addresses to a list); the section is assembled once the count is known. Adding does as little as it
    // can: it runs inside walks whose cost is the cache misses of finding the values, and the fewer instructions
    // per value, the more of those misses overlap.
    template<typename Component>
    struct section_writer {
        section_writer(std::vector<entity_type> &id_list, internal::byte_buffer &value_bytes,
                       std::vector<const void *> &archived_values) noexcept
            : ids{id_list}, values{value_bytes}, archived{archived_values} {}

        std::vector<entity_type> &ids;
        internal::byte_buffer &values;
        std::vector<const void *> &archived;

        TESSERA_FORCE_INLINE void add(const entity_type entt, [[maybe_unused]] const Component *value) {
            ids.push_back(entt);

            if constexpr (internal::replicated_value_of<Component> == internal::replicated_value::raw) {
                internal::store_raw(values.room(internal::raw_size<Component>), *value);
                values.commit(internal::raw_size<Component>);
            } else if constexpr (internal::replicated_value_of<Component> == internal::replicated_value::archived) {
                archived.push_back(value);
            }
        }
    };

    // Relevance of an entity of a pool for the message being encoded: replicated, and for a filtered peer in its
    // filter. Only for entities in a pool (alive).
    [[nodiscard]] TESSERA_FORCE_INLINE bool relevant_now(const entity_type entt, const bool filtered) const {
        // when every live entity is replicated, an entity of a pool is: no lookup
        return filtered ? relevant.contains(entt) : (all_replicated || marker->contains(entt));
    }

    // A whole state where every entity is replicated and relevant: the whole pool, identifiers then values, written
    // straight into the message in two passes (its count is its size).
    template<typename Component, typename Pool>
    void write_whole_pool(internal::byte_writer &out, const Pool &pool) {
        const auto &base = static_cast<const typename Registry::common_type &>(pool);
        out.entities(base.size(), base.begin(), base.end());

        if constexpr (internal::replicated_value_of<Component> == internal::replicated_value::raw) {
            auto *at = out.buffer().room(base.size() * internal::raw_size<Component>);

            for (const auto [entt, value] : pool.each()) {
                internal::store_raw(at, value);
                at += internal::raw_size<Component>;
            }

            out.buffer().commit(base.size() * internal::raw_size<Component>);
        } else if constexpr (internal::replicated_value_of<Component> == internal::replicated_value::archived) {
            for (const auto [entt, value] : pool.each()) {
                archived_values.push_back(&value);
            }

            if (!archived_values.empty()) {
                internal::write_archived<Component>(out, archived_values, archive_bytes);
            }
        }

        // no removals in a whole state
        out.varint(0u);
    }

    // One type's sets and removals. Sets: the spawned entities that have the type, then (deltas) the relevant
    // entities whose element changed after the baseline (or, for empty types, was added). Removals: the relevant
    // entities that lost the type after the baseline.
    template<std::size_t Index, typename Component>
    void write_type(internal::byte_writer &out, const bool full, const tick_type baseline, const bool filtered) {
        auto &pool = *std::get<Index>(pools);
        picked.clear();
        values_bytes.clear();
        archived_values.clear();

        if (full && every_entity && pool.contiguous()) {
            write_whole_pool<Component>(out, pool);
            return;
        }

        section_writer<Component> section{picked, values_bytes, archived_values};

        const auto value_of = [&](const entity_type entt) -> const Component * {
            if constexpr (std::is_empty_v<Component>) {
                return nullptr;
            } else {
                return &pool.get(entt);
            }
        };

        if (full) {
            // in pool order: the values are read in sequence
            if constexpr (std::is_empty_v<Component>) {
                for (const auto entt : static_cast<const typename Registry::common_type &>(pool)) {
                    if (entt != tombstone && relevant_now(entt, filtered)) {
                        section.add(entt, nullptr);
                    }
                }
            } else {
                for (const auto [entt, value] : std::as_const(pool).each()) {
                    if (relevant_now(entt, filtered)) {
                        section.add(entt, &value);
                    }
                }
            }
        } else {
            for (const auto entt : spawn_list) {
                if (pool.contains(entt)) {
                    section.add(entt, value_of(entt));
                }
            }

            if constexpr (std::is_empty_v<Component>) {
                auto &list = added[Index];
                internal::sort_unique(list);

                for (const auto entt : list) {
                    if (pool.contains(entt) && relevant_now(entt, filtered) && !spawned.contains(entt)) {
                        section.add(entt, nullptr);
                    }
                }
            } else {
                auto view = std::as_const(*reg).template view<const Component>();
                view.visit_disabled(disabled_mode::include);
                auto func = [&](const entity_type entt, const Component &value) {
                    if (relevant_now(entt, filtered) && !spawned.contains(entt)) {
                        section.add(entt, &value);
                    }
                };
                each_changed<Component>(view, baseline, func);
            }
        }

        out.entities(picked.size(), picked.begin(), picked.end());

        if constexpr (internal::replicated_value_of<Component> == internal::replicated_value::raw) {
            out.bytes(values_bytes.data(), values_bytes.size());
        } else if constexpr (internal::replicated_value_of<Component> == internal::replicated_value::archived) {
            if (!picked.empty()) {
                internal::write_archived<Component>(out, archived_values, archive_bytes);
            }
        }

        // removals
        removals.clear();

        if (!full) {
            auto &list = removed[Index];
            internal::sort_unique(list);

            for (const auto entt : list) {
                // the entity may be gone: looked up, whatever all_replicated says
                if (!pool.contains(entt) && (filtered ? relevant.contains(entt) : marker->contains(entt))) {
                    removals.push_back(entt);
                }
            }
        }

        write_list(out, removals);
    }

    // Walks the history after the baseline: global spawns (still replicated) and despawns, additions of empty
    // types, removals.
    void collect_history(const tick_type baseline) {
        for (auto pos = history.first_after(baseline), last = history.size(); pos < last; ++pos) {
            const auto &record = history[pos];

            switch (record.kind) {
            case event::spawn:
                if (marker->contains(record.entt) && !born.contains(record.entt)) {
                    born.push(record.entt);
                }
                break;
            case event::despawn:
                despawn_list.push_back(record.entt);
                break;
            case event::add:
                added[record.type].push_back(record.entt);
                break;
            default:
                removed[record.type].push_back(record.entt);
                break;
            }
        }
    }

    void clear_scratch() {
        spawned.clear();
        born.clear();
        relevant.clear();
        spawn_list.clear();
        despawn_list.clear();

        for (auto &list : added) {
            list.clear();
        }

        for (auto &list : removed) {
            list.clear();
        }
    }

    // Decides, for a filtered peer, what is relevant now and what enters or leaves its relevance, updating its
    // records. Spawns: relevant now and entered after the baseline, or spawned globally after it. Despawns:
    // despawned globally while the peer may hold them, or left its relevance after the baseline.
    void evaluate_relevance(relevance_state &state, const bool full, const tick_type baseline, const tick_type now) {
        auto &records = state.records;
        const auto key_of = [](const entity_type entt) {
            return traits_type::construct(traits_type::to_entity(entt), {});
        };

        if (!full) {
            std::vector<entity_type> global{};
            global.swap(despawn_list);
            internal::sort_unique(global);

            for (const auto entt : global) {
                if (const auto key = key_of(entt); records.contains(key)) {
                    auto &record = records.get(key);

                    if (record.entt != entt) {
                        // another incarnation of the index: the peer may hold this one still
                        despawn_list.push_back(entt);
                    } else if (record.relevant || internal::tick_later(record.since, baseline)) {
                        despawn_list.push_back(entt);
                        record = record_type{entt, now, false};
                    }
                }
            }
        } else {
            // a full state resets the peer: what it held and is not in the message goes
            for (auto [key, record] : records.each()) {
                if (record.relevant && !marker->contains(record.entt)) {
                    record = record_type{record.entt, now, false};
                }
            }
        }

        for (const auto entt : static_cast<const typename Registry::common_type &>(*marker)) {
            const bool now_relevant = state.filter(entt);
            const auto key = key_of(entt);
            record_type *record = records.contains(key) ? &records.get(key) : nullptr;

            if (record != nullptr && record->entt == entt) {
                if (now_relevant != record->relevant) {
                    *record = record_type{entt, now, now_relevant};

                    if (!now_relevant && !full) {
                        despawn_list.push_back(entt);
                    }
                } else if (!now_relevant && !full && internal::tick_later(record->since, baseline)) {
                    // left after the baseline: the peer may still hold it
                    despawn_list.push_back(entt);
                }
            } else if (now_relevant) {
                if (record != nullptr) {
                    *record = record_type{entt, now, true};
                } else {
                    record = &records.emplace(key, record_type{entt, now, true});
                }
            }

            if (now_relevant) {
                relevant.push(entt);

                if (full || internal::tick_later(record->since, baseline) || born.contains(entt)) {
                    spawned.push(entt);
                    spawn_list.push_back(entt);
                }
            }
        }
    }

    // Forgets the records of a filtered peer that no future delta needs: not relevant since a tick the peer has
    // acknowledged.
    static void prune_records(relevance_state &state, const std::optional<tick_type> acknowledged) {
        if (!acknowledged) {
            return;
        }

        auto &records = state.records;

        for (auto pos = records.size(); pos != 0u; --pos) {
            const auto key = records.data()[pos - 1u];

            if (const auto &record = records.get(key);
                !record.relevant && !internal::tick_later(record.since, *acknowledged)) {
                records.erase(key);
            }
        }

        // memory follows what is relevant: a crowd that left gives its pages back
        if (records.size() * 4u < records.capacity()) {
            records.shrink_to_fit();
        }
    }

    template<std::size_t... Index>
    void write_types(internal::byte_writer &out, [[maybe_unused]] const bool full,
                     [[maybe_unused]] const tick_type baseline, [[maybe_unused]] const bool filtered,
                     std::index_sequence<Index...>) {
        (write_type<Index, Type>(out, full, baseline, filtered), ...);
    }

    // A first size for the bytes of a message: a whole state takes about 3 bytes per identifier and the values.
    [[nodiscard]] std::size_t estimate(const bool full) const noexcept {
        std::size_t bytes = internal::replication_header_size + 16u + 4u * type_count;

        if (full) {
            bytes += 3u * marker->size();
            std::apply(
                [&bytes](const auto *...pool) {
                    ((bytes +=
                      pool->size() *
                      (3u +
                       (internal::replicated_value_of<typename std::remove_pointer_t<decltype(pool)>::element_type> ==
                                internal::replicated_value::raw
                            ? sizeof(typename std::remove_pointer_t<decltype(pool)>::element_type)
                            : 0u))),
                     ...);
                },
                pools);
        }

        return bytes;
    }

    // Encodes a message: the whole state (full) or a delta from `baseline`, at `now`, for every replicated entity or
    // for a filtered peer's.
    message encode(const bool full, const tick_type baseline, const tick_type now, relevance_state *state,
                   const std::optional<tick_type> acknowledged) {
        clear_scratch();
        ++encoded;
        // when every live entity is replicated, the pools need no check per entity (a whole state without filter
        // writes them whole)
        all_replicated = reg->template storage<entity_type>().free_list() == marker->size();
        every_entity = full && state == nullptr && marker->contiguous() && all_replicated;

        if (!full) {
            collect_history(baseline);
        }

        if (state != nullptr) {
            evaluate_relevance(*state, full, baseline, now);
        } else if (full && !every_entity) {
            // in the marker pool's order; the sections of a full state do not look at `spawned`
            for (const auto entt : static_cast<const typename Registry::common_type &>(*marker)) {
                if (entt != tombstone) {
                    spawn_list.push_back(entt);
                }
            }
        } else if (!full) {
            // spawns in history order; despawns once each
            for (const auto entt : static_cast<const typename Registry::common_type &>(born)) {
                spawned.push(entt);
            }

            spawn_list.assign(born.rbegin(), born.rend());
            internal::sort_unique(despawn_list);
        }

        if (state != nullptr) {
            internal::sort_unique(despawn_list);
        }

        internal::byte_buffer bytes{};
        bytes.reserve(estimate(full));
        internal::byte_writer out{bytes};
        static_cast<void>(bytes.room(internal::replication_header_size));
        bytes.commit(internal::replication_header_size);
        write_list(out, despawn_list);

        if (every_entity) {
            // every live entity is spawned: the marker pool is the list
            const auto &base = static_cast<const typename Registry::common_type &>(*marker);
            out.entities(base.size(), base.begin(), base.end());
        } else {
            write_list(out, spawn_list);
        }

        write_types(out, full, baseline, state != nullptr, std::index_sequence_for<Type...>{});

        internal::replication_header header{};
        header.version = internal::replication_format;
        header.flags = full ? internal::replication_full_state : std::uint8_t{};
        header.id_size = static_cast<std::uint8_t>(sizeof(entity_type));
        header.schema = internal::replication_schema<entity_type, Type...>();
        header.tick = now;
        header.baseline = full ? tick_type{} : baseline;
        internal::write_replication_header(std::span<std::byte>{bytes.data(), bytes.size()}, header);

        if (state != nullptr) {
            prune_records(*state, acknowledged);
        }

        const auto size = bytes.size();
        return message{bytes.release(), size};
    }

    // The next message of a peer (basic_peer::next).
    message next_for(const std::optional<tick_type> acknowledged, const bool sent, const tick_type last_sent,
                     relevance_state *state) {
        const auto now = seal_for(sent, last_sent);
        const bool full = !acknowledged || !usable(*acknowledged, now);
        const auto baseline = full ? tick_type{} : *acknowledged;

        if (state != nullptr) {
            return encode(full, baseline, now, state, acknowledged);
        }

        for (const auto &entry : cache) {
            if (entry.full == full && entry.baseline == baseline) {
                return entry.bytes;
            }
        }

        auto bytes = encode(full, baseline, now, nullptr, acknowledged);
        cache.push_back(cached{full, baseline, bytes});
        return bytes;
    }

    // The digest of the replicated state, as a peer with `filter` (nullptr: none) holds it.
    template<typename Filter>
    [[nodiscard]] std::uint64_t digest_of(const Filter *filter) const {
        const auto relevant_entity = [&](const entity_type entt) {
            if (!marker->contains(entt)) {
                return false;
            }

            if constexpr (std::is_same_v<Filter, void>) {
                return true;
            } else {
                return filter == nullptr || (*filter)(entt);
            }
        };

        internal::state_digest<entity_type> digest{};
        std::vector<std::byte> scratch{};

        for (const auto entt : static_cast<const typename Registry::common_type &>(*marker)) {
            if (!relevant_entity(entt)) {
                continue;
            }

            digest.begin(entt);
            digest_components(digest, entt, relevant_entity, scratch, std::index_sequence_for<Type...>{});
            digest.end();
        }

        return digest.value();
    }

    template<typename Relevant, std::size_t... Index>
    void digest_components(internal::state_digest<entity_type> &digest, [[maybe_unused]] const entity_type entt,
                           const Relevant &relevant_entity, std::vector<std::byte> &scratch,
                           std::index_sequence<Index...>) const {
        (
            [&] {
                const auto &pool = *std::get<Index>(pools);

                if (pool.contains(entt)) {
                    if constexpr (std::is_empty_v<Type>) {
                        digest.template component<Type>(Index, nullptr, scratch);
                    } else if constexpr (internal::holds_identifiers_v<Type, entity_type>) {
                        // identifiers the peer does not hold read as null, as the mirror maps them
                        Type value = pool.get(entt);
                        internal::map_identifiers<entity_type>(value, [&relevant_entity](const entity_type other) {
                            return relevant_entity(other) ? other : entity_type{null};
                        });
                        digest.template component<Type>(Index, &value, scratch);
                    } else {
                        digest.template component<Type>(Index, &pool.get(entt), scratch);
                    }
                }
            }(),
            ...);
    }

public:
    /// The registry type.
    using registry_type = Registry;
    /// What connect() returns.
    using peer_type = basic_peer<Registry, Type...>;

    /// The window when none is given: ticks of history kept for deltas.
    static constexpr tick_type default_window = 64u;

    /// Observes `registry` (which must outlive the source and stay where it is) and keeps `window` ticks of history
    /// (1 to 2^29): a peer whose acknowledged tick is older gets the whole state again.
    explicit basic_source(registry_type &registry, const tick_type window = default_window)
        : reg{&registry}, marker{&registry.template storage<replicated>()},
          pools{&registry.template storage<Type>()...}, span{window} {
        TESSERA_ASSERT(window != 0u && window <= tick_clamp_period,
                       "replication::source: the window takes 1 to 2^29 ticks");
        // the history and the shared encodings show in registry.memory_report() (docs/debugging.md)
        auto &contributors = registry.ctx().template emplace<memory_contributors>();
        contributors.add("replication source", this, &basic_source::measure);

        try {
            connect_all(std::index_sequence_for<Type...>{});
        } catch (...) {
            contributors.remove(this);
            disconnect_all();
            throw;
        }
    }

    basic_source(const basic_source &) = delete;
    basic_source(basic_source &&) = delete;
    basic_source &operator=(const basic_source &) = delete;
    basic_source &operator=(basic_source &&) = delete;

    /// Stops observing the registry and leaves its memory report. Peers still connected are disconnected: using
    /// them is then a misuse. (A source neither copies nor moves: the registry's signals and memory report hold its
    /// address.)
    ~basic_source() {
        if (auto *contributors = reg->ctx().template find<memory_contributors>(); contributors) {
            contributors->remove(this);
        }

        for (auto *curr = first_peer; curr != nullptr;) {
            curr->src = nullptr;
            curr->prev_peer = nullptr;
            curr = std::exchange(curr->next_peer, nullptr);
        }

        try {
            disconnect_all();
        } catch (...) {
            // the sinks exist (the pools were created in the constructor) and `this` is not null: nothing throws
        }
    }

    /// A new peer, which holds nothing yet: its first message is the whole state.
    [[nodiscard]] peer_type connect() { return peer_type{*this, nullptr}; }

    /// A new peer that sees only the replicated entities for which filter(entity) is true (evaluated at every
    /// next(): entities that leave it are despawned on the peer, those that enter are spawned). Its messages are
    /// encoded for it alone.
    template<typename Filter>
    [[nodiscard]] peer_type connect(Filter filter) {
        static_assert(std::is_invocable_r_v<bool, Filter &, entity_type>,
                      "replication::source::connect: the filter takes an entity and returns a bool");
        auto state = std::make_unique<relevance_state>();
        state->filter = std::move(filter);
        return peer_type{*this, std::move(state)};
    }

    /// Ticks of history kept.
    [[nodiscard]] tick_type window() const noexcept { return span; }

    /// The tick of the state the last message describes, if any was encoded.
    [[nodiscard]] std::optional<tick_type> tick() const noexcept {
        return sealed ? std::optional<tick_type>{label} : std::nullopt;
    }

    /// Messages encoded so far: a message shared by several peers counts once.
    [[nodiscard]] std::size_t encodings() const noexcept { return encoded; }

    /// Peers connected.
    [[nodiscard]] std::size_t size() const noexcept { return peers; }

    /// Bytes the source holds: the history of the window, the encodings it shares and its scratch space (the
    /// peers' own memory is peer.memory_bytes()).
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        std::size_t bytes =
            history.memory() + cache.capacity() * sizeof(cached) +
            (values_bytes.capacity() + archive_bytes.capacity()) + picked.capacity() * sizeof(entity_type) +
            archived_values.capacity() * sizeof(const void *) +
            (spawn_list.capacity() + despawn_list.capacity() + removals.capacity()) * sizeof(entity_type);

        for (const auto &entry : cache) {
            bytes += entry.bytes.size();
        }

        for (const auto *set : {&spawned, &born, &relevant}) {
            bytes += memory_of(*set).bytes;
        }

        for (const auto &list : added) {
            bytes += list.capacity() * sizeof(entity_type);
        }

        for (const auto &list : removed) {
            bytes += list.capacity() * sizeof(entity_type);
        }

        return bytes;
    }

    /// Records of the history kept (spawns, despawns, removals in the window).
    [[nodiscard]] std::size_t history_size() const noexcept { return history.live(); }

    /// A digest of the replicated state: every replicated entity with its components. A mirror that applied this
    /// state has the same digest (mirror.digest()); peer.digest() is the digest of a filtered peer's part.
    [[nodiscard]] std::uint64_t digest() const { return digest_of<void>(nullptr); }

    /// The observed registry.
    [[nodiscard]] registry_type &registry() const noexcept { return *reg; }

private:
    registry_type *reg;
    marker_type *marker;
    std::tuple<pool_type<Type> *...> pools;
    history_type history{};
    tick_type span;
    tick_type label{};
    bool sealed{};
    std::vector<cached> cache{};
    std::size_t encoded{};
    std::size_t peers{};
    basic_peer<Registry, Type...> *first_peer{};
    // scratch space of an encoding, kept from one to the next
    set_type spawned{};
    set_type born{};
    set_type relevant{};
    std::vector<entity_type> spawn_list{};
    std::vector<entity_type> despawn_list{};
    std::vector<entity_type> removals{};
    std::array<std::vector<entity_type>, type_count> added{};
    std::array<std::vector<entity_type>, type_count> removed{};
    std::vector<entity_type> picked{};
    internal::byte_buffer values_bytes{};
    std::vector<std::byte> archive_bytes{};
    std::vector<const void *> archived_values{};
    bool all_replicated{};
    bool every_entity{};
};

/// What a source keeps for one peer: the tick it acknowledged, the last message it was sent and, with a filter,
/// what is relevant to it. Movable, not copyable; it must not outlive its source.
template<typename Registry, typename... Type>
class basic_peer {
    using source_type = basic_source<Registry, Type...>;
    using relevance_state = typename source_type::relevance_state;
    friend source_type;

    basic_peer(source_type &owner, std::unique_ptr<relevance_state> state) noexcept : relevance{std::move(state)} {
        attach(&owner);
    }

    // Joins the source's list of peers (which lets a source that goes first disconnect them).
    void attach(source_type *owner) noexcept {
        src = owner;

        if (src != nullptr) {
            next_peer = std::exchange(src->first_peer, this);

            if (next_peer != nullptr) {
                next_peer->prev_peer = this;
            }

            ++src->peers;
        }
    }

    void release() noexcept {
        if (src != nullptr) {
            (prev_peer != nullptr ? prev_peer->next_peer : src->first_peer) = next_peer;

            if (next_peer != nullptr) {
                next_peer->prev_peer = prev_peer;
            }

            --src->peers;
            src = nullptr;
            prev_peer = next_peer = nullptr;
        }
    }

public:
    /// The identifier type.
    using entity_type = typename Registry::entity_type;

    /// Move constructor: the moved-from peer is disconnected.
    basic_peer(basic_peer &&other) noexcept
        : relevance{std::move(other.relevance)}, ack{other.ack}, sent{other.sent}, has_ack{other.has_ack},
          has_sent{other.has_sent} {
        auto *owner = other.src;
        other.release();
        attach(owner);
    }

    /// Move assignment: this peer is disconnected first, the moved-from one afterwards.
    basic_peer &operator=(basic_peer &&other) noexcept {
        if (this != &other) {
            release();
            auto *owner = other.src;
            other.release();
            attach(owner);
            relevance = std::move(other.relevance);
            ack = other.ack;
            sent = other.sent;
            has_ack = other.has_ack;
            has_sent = other.has_sent;
        }

        return *this;
    }

    basic_peer(const basic_peer &) = delete;
    basic_peer &operator=(const basic_peer &) = delete;

    /// Disconnects from the source.
    ~basic_peer() { release(); }

    /// True while the peer belongs to a source (not moved from, and its source still exists).
    [[nodiscard]] bool connected() const noexcept { return src != nullptr; }

    /// The bytes to send to the peer: the whole state relevant to it when it acknowledged nothing yet, or nothing
    /// still in the source's window; otherwise a delta against its acknowledged state. A peer that has not
    /// acknowledged the previous message yet gets a delta against the same baseline again, which covers both.
    [[nodiscard]] message next() {
        TESSERA_ASSERT(src != nullptr, "replication::peer::next: the peer has no source (moved from, or the source "
                                       "is gone)");
        auto bytes = src->next_for(acknowledged(), has_sent, sent, relevance.get());
        sent = bytes.tick();
        has_sent = true;
        return bytes;
    }

    /// Records that the peer applied the message of `tick` (what mirror::apply returned). Returns false, changing
    /// nothing, for a tick the peer cannot have applied: after the last message it was sent, or before what it
    /// acknowledged already (a late or repeated acknowledgment). Acknowledgments come from the network: checked,
    /// never trusted.
    bool acknowledge(const tick_type tick) noexcept {
        if (!has_sent || internal::tick_later(tick, sent) || (has_ack && internal::tick_later(ack, tick))) {
            return false;
        }

        ack = tick;
        has_ack = true;
        return true;
    }

    /// The tick the peer acknowledged last, if any.
    [[nodiscard]] std::optional<tick_type> acknowledged() const noexcept {
        return has_ack ? std::optional<tick_type>{ack} : std::nullopt;
    }

    /// Forgets what the peer acknowledged: its next message is the whole state (after a reconnection, or when the
    /// peer says it lost its state).
    void reset() noexcept { has_ack = false; }

    /// True if the peer has a relevance filter.
    [[nodiscard]] bool filtered() const noexcept { return relevance != nullptr; }

    /// The digest of the state the peer holds once it applied its last message (compare with mirror.digest()):
    /// the replicated entities its filter accepts, identifiers inside values to other entities read as null.
    /// Call it before the registry changes again.
    [[nodiscard]] std::uint64_t digest() const {
        TESSERA_ASSERT(src != nullptr, "replication::peer::digest: the peer has no source (moved from, or the "
                                       "source is gone)");
        return relevance ? src->digest_of(&relevance->filter) : src->template digest_of<void>(nullptr);
    }

    /// Bytes the peer holds: the object, and for a filtered peer its records (one per entity relevant to it or
    /// that left it after its acknowledged tick).
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        return sizeof(basic_peer) +
               (relevance ? sizeof(relevance_state) + memory_of(relevance->records).bytes : std::size_t{});
    }

private:
    source_type *src{};
    basic_peer *prev_peer{};
    basic_peer *next_peer{};
    std::unique_ptr<relevance_state> relevance;
    tick_type ack{};
    tick_type sent{};
    bool has_ack{};
    bool has_sent{};
};

} // namespace tessera::replication

#endif
