// The client side of replication: a mirror applies the messages of a source to a registry of its own, all or
// nothing, creating a local entity for each replicated one and mapping identifiers, those inside component values
// included. Applying goes through the registry's usual calls, so the usual signals fire.
#ifndef TESSERA_REPLICATION_MIRROR_HPP
#define TESSERA_REPLICATION_MIRROR_HPP

#include "../config/config.hpp"
#include "../entity/change_tracking.hpp"
#include "../entity/entity.hpp"
#include "../entity/memory_contributors.hpp"
#include "../entity/memory_report.hpp"
#include "../entity/registry.hpp"
#include "../entity/sparse_set.hpp"
#include "error.hpp"
#include "fwd.hpp"
#include "internal/format.hpp"
#include "internal/history.hpp"
#include "internal/values.hpp"
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
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

/// What a mirror knows of one remote index: the remote entity mapped there (null if none) and its local
/// counterpart; and, while a message is read, what it spawns there and whether it despawns what is mapped there
/// (marked with the message's serial number, so that nothing needs clearing between messages).
template<typename Entity>
struct mirror_slot {
    Entity remote;
    Entity local;
    Entity spawned;
    std::uint32_t spawn_mark;
    std::uint32_t gone_mark;
};

/// An array indexed by identifier index, in pages of 1024 values allocated when first written: an index costs
/// memory once its page is used, and a lookup is two reads.
template<typename Value>
class paged_slots {
    static constexpr std::size_t page_size = 1024u;

public:
    /// Slots that were never written hold `init`.
    explicit paged_slots(const Value init) noexcept : blank{init} {}

    /// The slot of `index`, or nullptr if its page was never written.
    [[nodiscard]] TESSERA_FORCE_INLINE Value *find(const std::uint64_t index) const noexcept {
        const auto page = static_cast<std::size_t>(index / page_size);
        return page < pages.size() && pages[page] ? pages[page].get() + index % page_size : nullptr;
    }

    /// The slot of `index`, its page allocated if needed.
    [[nodiscard]] Value &assure(const std::uint64_t index) {
        const auto page = static_cast<std::size_t>(index / page_size);

        if (page >= pages.size()) {
            pages.resize(page + 1u);
        }

        if (!pages[page]) {
            pages[page] = std::make_unique_for_overwrite<Value[]>(page_size);
            std::fill_n(pages[page].get(), page_size, blank);
        }

        return pages[page][index % page_size];
    }

    /// Calls func(slot) for every slot of every page allocated.
    template<typename Func>
    void each(Func func) const {
        for (const auto &page : pages) {
            if (page) {
                for (std::size_t pos{}; pos < page_size; ++pos) {
                    func(page[pos]);
                }
            }
        }
    }

    /// Gives every page back.
    void clear() noexcept { pages.clear(); }

    /// Bytes allocated.
    [[nodiscard]] std::size_t memory() const noexcept {
        std::size_t bytes = pages.capacity() * sizeof(std::unique_ptr<Value[]>);

        for (const auto &page : pages) {
            bytes += page ? page_size * sizeof(Value) : 0u;
        }

        return bytes;
    }

private:
    std::vector<std::unique_ptr<Value[]>> pages{};
    Value blank;
};

/// What a mirror keeps of the values of a type that holds identifiers, as the source wrote them (remote
/// identifiers), keyed by the index of the remote holder: when an entity they refer to arrives or leaves, the
/// local values are mapped again.
template<typename Entity, typename Type>
struct remote_values {
    basic_sparse_set<Entity> keys{};
    std::vector<Type> values{};
    std::vector<std::uint32_t> serials{};
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
    using slot_type = internal::mirror_slot<entity_type>;

    /// True if a type of the list holds identifiers (only then do spawns and despawns map values again).
    static constexpr bool maps_values = (internal::holds_identifiers_v<Type, entity_type> || ...);

    /// A value of a mirrored entity (holder, component type `type`) that refers to `target`.
    struct reference {
        entity_type target;
        entity_type holder;
        std::size_t type;
    };

    /// Where one type's part of the message lies, found by validate() and read again by the apply step.
    template<typename Component>
    struct section {
        std::size_t count{};
        std::size_t ids{};
        // the identifiers are the spawn list's, byte for byte (a whole state whose pools are in the same order)
        bool spawns{};
        const std::byte *raw{};
        std::vector<Component> archived{};
        std::size_t removal_count{};
        std::size_t removals{};
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

    [[nodiscard]] TESSERA_FORCE_INLINE slot_type *slot_of(const entity_type remote_entt) const noexcept {
        return slots.find(index_of(remote_entt));
    }

    [[nodiscard]] bool mapped(const entity_type remote_entt) const noexcept {
        const auto *slot = slot_of(remote_entt);
        return slot != nullptr && slot->remote == remote_entt;
    }

    // The local counterpart of a remote identifier in a value: null unless it is mirrored (and alive).
    [[nodiscard]] entity_type to_local(const entity_type remote_entt) const {
        if (remote_entt == null || remote_entt == tombstone) {
            return null;
        }

        const auto *slot = slot_of(remote_entt);
        return slot != nullptr && slot->remote == remote_entt && reg->valid(slot->local) ? slot->local
                                                                                         : entity_type{null};
    }

    // ---- reading a message -----------------------------------------------------------------------------------

    [[nodiscard]] TESSERA_FORCE_INLINE entity_type read_entity(internal::byte_reader &in) const {
        const auto entt = in.template entity<entity_type>();

        if (index_of(entt) >= max_index) {
            internal::byte_reader::fail(errc::corrupt, "replication: an identifier's index is beyond the mirror's "
                                                       "limit");
        }

        return entt;
    }

    // True if a remote entity exists once the despawns and spawns of the message being read are applied.
    [[nodiscard]] TESSERA_FORCE_INLINE bool live(const entity_type remote_entt, const bool full) const noexcept {
        const auto *slot = slot_of(remote_entt);
        return slot != nullptr && ((slot->spawn_mark == serial && slot->spawned == remote_entt) ||
                                   (!full && slot->remote == remote_entt && slot->gone_mark != serial));
    }

    template<std::size_t Index, typename Component>
    void read_type(internal::byte_reader &in, const std::span<const std::byte> body, const bool full) {
        auto &part = std::get<Index>(sections);
        part.count = in.count(1u);
        part.ids = in.offset();
        const auto spawn_bytes = spawn_end - spawn_at;
        // the same bytes as the spawn list decode to the same identifiers, all of them spawned by this message:
        // nothing to check, and applying reads the identifiers decoded already
        part.spawns = part.count == spawn_count && part.count != 0u && in.remaining() >= spawn_bytes &&
                      std::memcmp(body.data() + part.ids, body.data() + spawn_at, spawn_bytes) == 0;

        if (part.spawns) {
            static_cast<void>(in.take(spawn_bytes));
        } else {
            for (std::size_t pos{}; pos < part.count; ++pos) {
                if (!live(read_entity(in), full)) {
                    internal::byte_reader::fail(errc::corrupt,
                                                "replication: a component for an entity the mirror does not hold");
                }
            }
        }

        if constexpr (internal::replicated_value_of<Component> == internal::replicated_value::raw) {
            if (part.count > in.remaining() / internal::raw_size<Component>) {
                internal::byte_reader::fail(errc::truncated, "replication: the message ends in a section of values");
            }

            part.raw = in.take(part.count * internal::raw_size<Component>);
        } else if constexpr (internal::replicated_value_of<Component> == internal::replicated_value::archived) {
            part.archived.clear();

            if (part.count != 0u) {
                internal::read_archived<Component>(in, part.count, part.archived);
            }
        }

        part.removal_count = in.count(1u);
        part.removals = in.offset();

        for (std::size_t pos{}; pos < part.removal_count; ++pos) {
            if (!live(read_entity(in), full)) {
                internal::byte_reader::fail(errc::corrupt,
                                            "replication: a removal for an entity the mirror does not hold");
            }
        }
    }

    template<std::size_t... Index>
    void read_types(internal::byte_reader &in, [[maybe_unused]] const std::span<const std::byte> body,
                    [[maybe_unused]] const bool full, std::index_sequence<Index...>) {
        (read_type<Index, Type>(in, body, full), ...);
    }

    // Reads the whole body, checking everything the apply step relies on. Changes nothing but the marks of the
    // slots (which a refused message leaves stale: the next one has another serial) and their pages.
    void validate(const std::span<const std::byte> body, const bool full) {
        if (++serial == 0u) {
            // the marks wrapped around: none may look current
            slots.each([](slot_type &slot) { slot.spawn_mark = slot.gone_mark = 0u; });
            clear_serials(std::index_sequence_for<Type...>{});
            serial = 1u;
        }

        internal::byte_reader in{body};
        despawn_count = in.count(1u);
        despawn_at = in.offset();

        for (std::size_t pos{}; pos < despawn_count; ++pos) {
            const auto entt = read_entity(in);

            if (auto *slot = slot_of(entt); slot != nullptr && slot->remote == entt) {
                slot->gone_mark = serial;
            }
        }

        spawn_count = in.count(1u);
        spawn_at = in.offset();
        spawn_list.clear();

        // a list much larger than the messages now (after a whole state) gives its memory back
        if (spawn_list.capacity() > 4096u && spawn_list.capacity() / 4u > spawn_count) {
            spawn_list.shrink_to_fit();
        }

        // bounded: the count was checked against the bytes left
        spawn_list.reserve(spawn_count);

        for (std::size_t pos{}; pos < spawn_count; ++pos) {
            const auto entt = read_entity(in);
            spawn_list.push_back(entt);
            auto &slot = slots.assure(index_of(entt));

            if (slot.spawn_mark == serial) {
                internal::byte_reader::fail(errc::corrupt, "replication: a message spawns an entity twice");
            }

            slot.spawn_mark = serial;
            slot.spawned = entt;

            // another incarnation of the index goes: the index now belongs to the spawned one
            if (slot.remote != null && slot.remote != entt) {
                slot.gone_mark = serial;
            }
        }

        spawn_end = in.offset();
        read_types(in, body, full, std::index_sequence_for<Type...>{});

        if (in.remaining() != 0u) {
            internal::byte_reader::fail(errc::corrupt, "replication: the message has trailing bytes");
        }
    }

    template<std::size_t... Index>
    void clear_serials(std::index_sequence<Index...>) noexcept {
        (
            [&] {
                if constexpr (internal::holds_identifiers_v<Type, entity_type>) {
                    std::fill(std::get<Index>(kept).serials.begin(), std::get<Index>(kept).serials.end(), 0u);
                }
            }(),
            ...);
    }

    // ---- applying it ---------------------------------------------------------------------------------------

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

    // Forgets the remote form of a holder's value of a type that holds identifiers.
    template<std::size_t Index, typename Component>
    void forget_values(const entity_type holder) {
        if constexpr (internal::holds_identifiers_v<Component, entity_type>) {
            auto &part = std::get<Index>(kept);
            const auto key = key_of(holder);

            if (!part.keys.contains(key)) {
                return;
            }

            const auto pos = part.keys.index(key);
            unlink(holder, Index, part.values[pos]);
            part.values[pos] = std::move(part.values.back());
            part.values.pop_back();
            part.serials[pos] = part.serials.back();
            part.serials.pop_back();
            part.keys.erase(key);
        }
    }

    // Keeps the remote form of a value that holds identifiers, replacing the one kept before.
    template<std::size_t Index, typename Component>
    void keep_values(const entity_type holder, const Component &value) {
        auto &part = std::get<Index>(kept);
        const auto key = key_of(holder);

        if (part.keys.contains(key)) {
            const auto pos = part.keys.index(key);
            unlink(holder, Index, part.values[pos]);
            part.values[pos] = value;
            part.serials[pos] = serial;
        } else {
            part.keys.push(key);
            part.values.push_back(value);
            part.serials.push_back(serial);
        }

        link(holder, Index, value);
    }

    template<std::size_t... Index>
    void forget_all_values([[maybe_unused]] const entity_type holder, std::index_sequence<Index...>) {
        (forget_values<Index, Type>(holder), ...);
    }

    // Gives the remote entity of `slot` a new local counterpart.
    entity_type create_local(slot_type &slot, const entity_type remote_entt) {
        const auto local = reg->create();
        count += (slot.remote != remote_entt);
        slot.remote = remote_entt;
        slot.local = local;
        back.assure(index_of(local)) = remote_entt;

        if constexpr (maps_values) {
            affected.push_back(remote_entt);
        }

        return local;
    }

    // The local counterpart of a mapped remote entity, recreated if it was destroyed behind the mirror's back.
    TESSERA_FORCE_INLINE entity_type local_of(const entity_type remote_entt) {
        auto &slot = *slot_of(remote_entt);
        return reg->valid(slot.local) ? slot.local : create_local(slot, remote_entt);
    }

    // Destroys the local counterpart of the remote entity mapped in `slot` and forgets it.
    void despawn(slot_type &slot) {
        const auto remote_entt = slot.remote;
        const auto local = slot.local;
        forget_all_values(remote_entt, std::index_sequence_for<Type...>{});
        slot.remote = null;
        --count;

        if (auto *back_slot = back.find(index_of(local)); back_slot != nullptr && *back_slot == remote_entt) {
            *back_slot = null;
        }

        if constexpr (maps_values) {
            affected.push_back(remote_entt);
        }

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

    // A whole state lists every component of the entities it keeps: those that did not get this type lose it.
    template<std::size_t Index, typename Component>
    void drop_unlisted(const std::span<const std::byte> body) {
        auto &part = std::get<Index>(sections);
        auto &pool = *std::get<Index>(pools);
        basic_sparse_set<entity_type> listed{};
        internal::byte_reader in{body.subspan(part.ids)};

        for (std::size_t pos{}; pos < part.count; ++pos) {
            const auto remote_entt = part.spawns ? spawn_list[pos] : in.template entity<entity_type>();

            if (const auto local = slot_of(remote_entt)->local; !listed.contains(local)) {
                listed.push(local);
            }
        }

        std::vector<entity_type> unlisted{};

        for (const auto local : static_cast<const typename Registry::common_type &>(pool)) {
            if (local != tombstone && !listed.contains(local) && remote(local) != null) {
                unlisted.push_back(local);
            }
        }

        for (const auto local : unlisted) {
            forget_values<Index, Component>(remote(local));
            pool.remove(local);
        }
    }

    template<std::size_t Index, typename Component>
    void apply_type(const std::span<const std::byte> body, const bool reconcile, const bool fresh) {
        auto &part = std::get<Index>(sections);
        auto &pool = *std::get<Index>(pools);
        internal::byte_reader in{body.subspan(part.ids)};

        if (fresh && pool.capacity() < pool.size() + part.count) {
            // a whole state into an empty mirror: the pool grows once, not step by step
            pool.reserve(pool.size() + part.count);
        }

        for (std::size_t pos{}; pos < part.count; ++pos) {
            const auto remote_entt = part.spawns ? spawn_list[pos] : in.template entity<entity_type>();
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

        if (reconcile) {
            drop_unlisted<Index, Component>(body);
        }

        internal::byte_reader removals{body.subspan(part.removals)};

        for (std::size_t pos{}; pos < part.removal_count; ++pos) {
            const auto remote_entt = removals.template entity<entity_type>();
            forget_values<Index, Component>(remote_entt);

            if (const auto local = slot_of(remote_entt)->local; reg->valid(local)) {
                pool.remove(local);
            }
        }
    }

    template<std::size_t... Index>
    void apply_types([[maybe_unused]] const std::span<const std::byte> body, [[maybe_unused]] const bool reconcile,
                     [[maybe_unused]] const bool fresh, std::index_sequence<Index...>) {
        (apply_type<Index, Type>(body, reconcile, fresh), ...);
    }

    // Maps again the kept value of a holder for a type, once an entity it refers to arrived or left.
    template<std::size_t Index, typename Component>
    void remap(const entity_type holder) {
        if constexpr (internal::holds_identifiers_v<Component, entity_type>) {
            auto &part = std::get<Index>(kept);
            const auto key = key_of(holder);

            // a value set by this message was mapped after its spawns and despawns already
            if (!mapped(holder) || !part.keys.contains(key) || part.serials[part.keys.index(key)] == serial) {
                return;
            }

            const auto local = slot_of(holder)->local;

            if (auto &pool = *std::get<Index>(pools); reg->valid(local) && pool.contains(local)) {
                Component value = part.values[part.keys.index(key)];
                internal::map_identifiers<entity_type>(value,
                                                       [this](const entity_type other) { return to_local(other); });
                pool.patch(local, [&value](Component &elem) { elem = std::move(value); });
            }

            part.serials[part.keys.index(key)] = serial;
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

    void apply_validated(const std::span<const std::byte> body, const bool full) {
        affected.clear();
        const bool fresh = full && count == 0u;

        if (full && count != 0u) {
            // what the whole state leaves out goes
            slots.each([this](slot_type &slot) {
                if (slot.remote != null && !(slot.spawn_mark == serial && slot.spawned == slot.remote)) {
                    despawn(slot);
                }
            });
        }

        internal::byte_reader despawned{body.subspan(despawn_at)};

        for (std::size_t pos{}; pos < despawn_count; ++pos) {
            const auto remote_entt = despawned.template entity<entity_type>();

            if (auto *slot = slot_of(remote_entt); slot != nullptr && slot->remote == remote_entt) {
                despawn(*slot);
            }
        }

        bool kept_any = false;

        for (const auto remote_entt : spawn_list) {
            auto &slot = *slot_of(remote_entt);

            if (slot.remote == remote_entt) {
                // it is there already (the mirror's state is newer than the baseline)
                static_cast<void>(local_of(remote_entt));
                kept_any = true;
                continue;
            }

            if (slot.remote != null) {
                despawn(slot);
            }

            static_cast<void>(create_local(slot, remote_entt));
        }

        apply_types(body, full && kept_any, fresh, std::index_sequence_for<Type...>{});

        if constexpr (maps_values) {
            remap_affected();
        }
    }

    template<std::size_t... Index>
    void digest_components(internal::state_digest<entity_type> &digest, [[maybe_unused]] const entity_type local,
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

    /// Indices of remote identifiers at or above this are refused: with 64-bit identifiers, a message cannot make
    /// the mirror allocate the slots of four billion indices.
    static constexpr std::uint64_t default_max_index =
        traits_type::entity_mask < (std::uint64_t{1} << 24u) ? traits_type::entity_mask : (std::uint64_t{1} << 24u);

    /// Applies messages to `registry`, which must outlive the mirror. Remote indices at or above `index_limit` are
    /// refused as corrupt.
    explicit basic_mirror(registry_type &registry, const std::uint64_t index_limit = default_max_index)
        : reg{&registry}, pools{&registry.template storage<Type>()...}, max_index{index_limit} {
        // the identifier maps show in registry.memory_report() (docs/debugging.md)
        registry.ctx().template emplace<memory_contributors>().add("replication mirror", this, &basic_mirror::measure);
    }

    basic_mirror(const basic_mirror &) = delete;
    basic_mirror(basic_mirror &&) = delete;
    basic_mirror &operator=(const basic_mirror &) = delete;
    basic_mirror &operator=(basic_mirror &&) = delete;

    /// Leaves the registry's memory report. (A mirror neither copies nor moves: the report holds its address.)
    ~basic_mirror() {
        if (auto *contributors = reg->ctx().template find<memory_contributors>(); contributors) {
            contributors->remove(this);
        }
    }

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

        if (!full && !internal::tick_later(header.tick, header.baseline)) {
            internal::byte_reader::fail(errc::corrupt, "replication: a delta's baseline is not before its tick");
        }

        if (!full && (!has_state || internal::tick_later(header.baseline, current))) {
            internal::byte_reader::fail(errc::unknown_baseline, "replication: the message is a delta against a state "
                                                                "the mirror does not hold");
        }

        const auto body = bytes.subspan(internal::replication_header_size);
        validate(body, full);

        try {
            apply_validated(body, full);
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

        if (const auto *back_slot = back.find(index_of(local)); back_slot != nullptr && *back_slot != null) {
            const auto remote_entt = *back_slot;

            if (const auto *slot = slot_of(remote_entt);
                slot != nullptr && slot->remote == remote_entt && slot->local == local && reg->valid(local)) {
                return remote_entt;
            }
        }

        return null;
    }

    /// Entities mirrored.
    [[nodiscard]] std::size_t size() const noexcept { return count; }

    /// The tick of the state the mirror holds (what it acknowledged last), if it holds one.
    [[nodiscard]] std::optional<tick_type> tick() const noexcept {
        return has_state ? std::optional<tick_type>{current} : std::nullopt;
    }

    /// Destroys every mirrored entity and forgets the state: the mirror then accepts only a whole state, of any
    /// tick (for a new connection, or a source that started again).
    void reset() {
        affected.clear();
        slots.each([this](slot_type &slot) {
            if (slot.remote != null) {
                despawn(slot);
            }
        });
        references.clear();
        affected.clear();
        has_state = false;
    }

    /// The digest of the mirrored state, equal to source.digest() or peer.digest() of the state applied last:
    /// every mirrored entity with its components, identifiers inside values read back as remote ones.
    [[nodiscard]] std::uint64_t digest() const {
        internal::state_digest<entity_type> digest{};
        std::vector<std::byte> scratch{};

        slots.each([&](const slot_type &slot) {
            if (slot.remote != null && reg->valid(slot.local)) {
                digest.begin(slot.remote);
                digest_components(digest, slot.local, scratch, std::index_sequence_for<Type...>{});
                digest.end();
            }
        });

        return digest.value();
    }

    /// Bytes the mirror holds besides the registry: its identifier maps, the remote form of values that hold
    /// identifiers, and its scratch space.
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        std::size_t bytes =
            slots.memory() + back.memory() + (affected.capacity() + spawn_list.capacity()) * sizeof(entity_type) +
            holders.capacity() * sizeof(std::pair<entity_type, std::size_t>) +
            references.size() * (sizeof(reference) + 2u * sizeof(void *)) + references.bucket_count() * sizeof(void *);
        std::apply(
            [&bytes](const auto &...part) {
                ((bytes += part.archived.capacity() * sizeof(typename decltype(part.archived)::value_type)), ...);
            },
            sections);
        std::apply(
            [&bytes](const auto &...part) {
                (
                    [&bytes](const auto &values) {
                        if constexpr (!std::is_same_v<std::remove_cvref_t<decltype(values)>,
                                                      internal::no_remote_values>) {
                            bytes += memory_of(values.keys).bytes +
                                     values.values.capacity() * sizeof(typename decltype(values.values)::value_type) +
                                     values.serials.capacity() * sizeof(std::uint32_t);
                        }
                    }(part),
                    ...);
            },
            kept);
        return bytes;
    }

    /// The registry the mirror applies to.
    [[nodiscard]] registry_type &registry() const noexcept { return *reg; }

private:
    [[nodiscard]] static std::size_t measure(const void *self) noexcept {
        return static_cast<const basic_mirror *>(self)->memory_bytes();
    }

    registry_type *reg;
    std::tuple<pool_type<Type> *...> pools;
    std::uint64_t max_index;
    internal::paged_slots<slot_type> slots{slot_type{null, null, null, 0u, 0u}};
    internal::paged_slots<entity_type> back{null};
    std::size_t count{};
    std::tuple<kept_values<Type>...> kept{};
    std::unordered_multimap<std::uint64_t, reference> references{};
    tick_type current{};
    bool has_state{};
    std::uint32_t serial{};
    // where the parts of the message being applied lie, and scratch space, kept from one message to the next
    std::size_t despawn_count{};
    std::size_t despawn_at{};
    std::size_t spawn_count{};
    std::size_t spawn_at{};
    std::size_t spawn_end{};
    // the identifiers the message spawns, decoded once by validate()
    std::vector<entity_type> spawn_list{};
    std::tuple<section<Type>...> sections{};
    std::vector<entity_type> affected{};
    std::vector<std::pair<entity_type, std::size_t>> holders{};
};

} // namespace tessera::replication

#endif
