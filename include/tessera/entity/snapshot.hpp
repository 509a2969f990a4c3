// Snapshots: write a registry's identifiers and pools to an archive, and read them back either into an empty
// registry (keeping identifiers) or into a live one (mapping remote identifiers to local ones).
#ifndef TESSERA_ENTITY_SNAPSHOT_HPP
#define TESSERA_ENTITY_SNAPSHOT_HPP

#include "../config/config.hpp"
#include "../config/std_parts.hpp"
#include "../core/type_info.hpp"
#include "engine/block_walk.hpp"
#include "entity.hpp"
#include "fwd.hpp"
#include "registry.hpp"
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tessera {

namespace internal {

/// Reports data that cannot be loaded. Archives that can tell their caller (a `corrupt(const char *)` member,
/// such as the built-in binary archive) are told; for any other archive it is a misuse.
template<typename Archive>
void snapshot_corrupt([[maybe_unused]] Archive &archive, [[maybe_unused]] const char *message) {
    if constexpr (requires { archive.corrupt(message); }) {
        archive.corrupt(message);
    } else {
        TESSERA_ASSERT(false, message);
    }
}

/// Reads the next element of a pool (nothing for types without instances) and gives it to the entity. Returns
/// false, reading nothing, if the entity already has one: the data repeats an entity.
template<typename Archive, typename Storage, typename Entity>
[[nodiscard]] bool load_element(Archive &archive, Storage &storage, const Entity entt) {
    using value_type = typename Storage::value_type;

    if (storage.contains(entt)) {
        return false;
    }

    if constexpr (std::is_void_v<value_type>) {
        storage.emplace(entt);
    } else {
        // the archive fills a default-constructed element, which is why components must be default-constructible
        value_type elem{};
        archive(elem);
        storage.emplace(entt, std::move(elem));
    }

    return true;
}

/// The high bit of a pool's count: the pool has disabled elements, and the list of their identifiers follows its
/// entries (a count, then each identifier). Counts never reach it: an identifier's index takes fewer bits than the
/// integer. A pool with nothing disabled is written exactly as before, without the bit and without the list.
template<typename Entity>
inline constexpr auto disabled_count_flag = static_cast<typename entt_traits<Entity>::entity_type>(
    typename entt_traits<Entity>::entity_type{1} << (sizeof(typename entt_traits<Entity>::entity_type) * 8u - 1u));

/// Reads the list of disabled identifiers that follows a pool's entries and disables each in `storage`, after
/// `local` maps it (identity for the snapshot loader). False if an identifier is not in the pool.
template<typename Entity, typename Archive, typename Storage, typename Map>
[[nodiscard]] bool load_disabled(Archive &archive, Storage &storage, Map local) {
    using count_type = typename entt_traits<Entity>::entity_type;
    count_type length{};
    archive(length);

    for (; length != 0u; --length) {
        Entity entt{null};
        archive(entt);

        if (entt == null || entt == tombstone || !storage.contains(entt = local(entt))) {
            return false;
        }

        storage.disable(entt);
    }

    return true;
}

/// Reads a count written as the identifier's underlying integer.
template<typename Entity, typename Archive>
[[nodiscard]] std::size_t read_count(Archive &archive) {
    typename entt_traits<Entity>::entity_type value{};
    archive(value);
    return static_cast<std::size_t>(value);
}

} // namespace internal

/// Writes the identifiers and pools of a registry to an archive. The archive is called with identifiers,
/// counts (the identifier's underlying integer) and components, in an order the loaders read back.
template<typename Registry>
class basic_snapshot {
    static_assert(!std::is_const_v<Registry>, "basic_snapshot: use the registry type without const");
    using traits_type = entt_traits<typename Registry::entity_type>;
    using count_type = typename traits_type::entity_type;

public:
    /// The registry type.
    using registry_type = Registry;
    /// Identifier type.
    using entity_type = typename registry_type::entity_type;

    /// Takes a snapshot of `source`, which must outlive it.
    basic_snapshot(const registry_type &source) noexcept : reg{&source} {}

    basic_snapshot(const basic_snapshot &) = delete;

    /// Move constructor.
    basic_snapshot(basic_snapshot &&) noexcept = default;

    basic_snapshot &operator=(const basic_snapshot &) = delete;

    /// Move assignment.
    basic_snapshot &operator=(basic_snapshot &&) noexcept = default;

    /// Writes the identifiers (Type is the entity type: size, number in use, then every identifier in packed
    /// order) or the pool `id` of Type (count, then each entity and its component; holes as a null entity).
    template<typename Type, typename Archive>
    const basic_snapshot &get(Archive &archive, const id_type id = type_hash<Type>::value()) const {
        if constexpr (std::is_same_v<Type, entity_type>) {
            const auto *storage = reg->template storage<Type>();
            archive(static_cast<count_type>(storage->size()));
            archive(static_cast<count_type>(storage->free_list()));

            for (auto first = storage->data(), last = first + storage->size(); first != last; ++first) {
                archive(*first);
            }
        } else if (const auto *storage = reg->template storage<Type>(id); storage) {
            const typename registry_type::common_type &base = *storage;
            const auto disabled = base.disabled_size();
            archive(static_cast<count_type>(base.size() |
                                            (disabled == 0u ? 0u : internal::disabled_count_flag<entity_type>)));

            using storage_type = std::remove_const_t<std::remove_pointer_t<decltype(storage)>>;

            if constexpr (internal::walk_paged<storage_type>) {
                // without holes every position holds an entity: elements are read page by page, without a lookup
                // per entity (and without an iterator, which debug builds call for every step)
                if (base.contiguous()) {
                    constexpr auto page = internal::walk_traits<storage_type>::page;
                    const auto *const packed = base.data();

                    for (std::size_t first{}, size = base.size(); first < size; first += page) {
                        const auto *elem = storage->raw()[first / page];

                        for (auto pos = first, last = std::min(first + page, size); pos != last; ++pos, ++elem) {
                            archive(packed[pos]);
                            archive(*elem);
                        }
                    }

                    write_disabled(archive, base, base.begin(), base.end(), disabled);
                    return *this;
                }
            }

            for (auto it = base.rbegin(), last = base.rend(); it != last; ++it) {
                if (const auto entt = *it; entt == tombstone) {
                    archive(static_cast<entity_type>(null));
                } else {
                    archive(entt);
                    std::apply([&archive](auto &&...elem) { (archive(elem), ...); }, storage->get_as_tuple(entt));
                }
            }

            write_disabled(archive, base, base.begin(), base.end(), disabled);
        } else {
            archive(count_type{});
        }

        return *this;
    }

    /// Writes the entities of [first, last) with their Type component (pool `id`); entities without it are
    /// written as null. Only a count of 0 is written if the pool is missing or empty.
    template<typename Type, typename Archive, typename It>
    const basic_snapshot &get(Archive &archive, It first, It last, const id_type id = type_hash<Type>::value()) const {
        static_assert(!std::is_same_v<Type, entity_type>,
                      "snapshot: the range form cannot write identifiers; call get<entity_type>(archive)");

        if (const auto *storage = reg->template storage<Type>(id); storage && !storage->empty()) {
            const typename registry_type::common_type &base = *storage;
            const auto disabled = static_cast<std::size_t>(
                base.disabled_size() == 0u ? 0 : std::count_if(first, last, [&base](const auto entt) {
                    return base.contains(entt) && !base.enabled(entt);
                }));
            archive(static_cast<count_type>(static_cast<count_type>(std::distance(first, last)) |
                                            (disabled == 0u ? 0u : internal::disabled_count_flag<entity_type>)));
            const It from = first;

            for (; first != last; ++first) {
                if (const auto entt = *first; storage->contains(entt)) {
                    archive(entt);
                    std::apply([&archive](auto &&...elem) { (archive(elem), ...); }, storage->get_as_tuple(entt));
                } else {
                    archive(static_cast<entity_type>(null));
                }
            }

            write_disabled(archive, base, from, last, disabled);
        } else {
            archive(count_type{});
        }

        return *this;
    }

private:
    // After a pool's entries, when `disabled` of the entities of [first, last) are disabled in `base`: their
    // count, then each identifier (internal::disabled_count_flag).
    template<typename Archive, typename It>
    static void write_disabled(Archive &archive, const typename registry_type::common_type &base, It first,
                               const It last, const std::size_t disabled) {
        if (disabled != 0u) {
            archive(static_cast<count_type>(disabled));

            for (; first != last; ++first) {
                if (const entity_type entt = *first; base.contains(entt) && !base.enabled(entt)) {
                    archive(entt);
                }
            }
        }
    }

    const registry_type *reg{};
};

/// Loads a snapshot into an empty registry, restoring identifiers exactly (indices, versions, released ones).
template<typename Registry>
class basic_snapshot_loader {
    static_assert(!std::is_const_v<Registry>, "basic_snapshot_loader: use the registry type without const");
    using traits_type = entt_traits<typename Registry::entity_type>;

public:
    /// The registry type.
    using registry_type = Registry;
    /// Identifier type.
    using entity_type = typename registry_type::entity_type;

    /// Loads into `source`, which must have no identifier in use.
    basic_snapshot_loader(registry_type &source) : reg{&source} {
        TESSERA_ASSERT(source.template storage<entity_type>().free_list() == 0u,
                       "snapshot_loader: the target registry must have no entity in use");
    }

    basic_snapshot_loader(const basic_snapshot_loader &) = delete;

    /// Move constructor.
    basic_snapshot_loader(basic_snapshot_loader &&) noexcept = default;

    basic_snapshot_loader &operator=(const basic_snapshot_loader &) = delete;

    /// Move assignment.
    basic_snapshot_loader &operator=(basic_snapshot_loader &&) noexcept = default;

    /// Reads the identifiers (Type is the entity type) or the pool `id` of Type, in the order they were written.
    template<typename Type, typename Archive>
    basic_snapshot_loader &get(Archive &archive, const id_type id = type_hash<Type>::value()) {
        if constexpr (std::is_same_v<Type, entity_type>) {
            load_identifiers(archive);
        } else {
            auto &storage = reg->template storage<Type>(id);
            auto length = internal::read_count<entity_type>(archive);
            const bool disabled = (length & internal::disabled_count_flag<entity_type>) != 0u;

            for (length &= ~static_cast<std::size_t>(internal::disabled_count_flag<entity_type>); length; --length) {
                entity_type entt{null};
                archive(entt);

                if (entt == null) {
                    continue;
                }

                if (entt == tombstone) {
                    internal::snapshot_corrupt(archive, "snapshot_loader: invalid identifier in a pool");
                    return *this;
                }

                if (!reg->valid(entt)) {
                    // the index may be free or released, never in use with another version
                    if (reg->valid(traits_type::construct(traits_type::to_entity(entt), reg->current(entt)))) {
                        internal::snapshot_corrupt(archive, "snapshot_loader: a pool refers to a replaced identifier");
                        return *this;
                    }

                    [[maybe_unused]] const auto curr = reg->create(entt);
                    TESSERA_ASSERT(curr == entt, "snapshot_loader: identifier not restored");
                }

                if (!internal::load_element(archive, storage, entt)) {
                    internal::snapshot_corrupt(archive, "snapshot_loader: an entity appears twice in a pool");
                    return *this;
                }
            }

            if (disabled &&
                !internal::load_disabled<entity_type>(archive, storage, [](const entity_type entt) { return entt; })) {
                internal::snapshot_corrupt(archive, "snapshot_loader: a disabled identifier is not in its pool");
            }
        }

        return *this;
    }

    /// Releases every entity in use that has no component.
    basic_snapshot_loader &orphans() {
        release_orphans(*reg);
        return *this;
    }

    /// Releases every entity in use of `target` that has no component.
    static void release_orphans(registry_type &target) {
        auto &entities = target.template storage<entity_type>();

        // positions are visited downwards, so releasing the current identifier never skips another one
        for (auto [entt] : entities.each()) {
            if (target.orphan(entt)) {
                target.release(entt);
            }
        }
    }

private:
    template<typename Archive>
    void load_identifiers(Archive &archive) {
        auto &entities = reg->template storage<entity_type>();
        const auto length = internal::read_count<entity_type>(archive);
        const auto in_use = internal::read_count<entity_type>(archive);

        if (in_use > length || entities.free_list() != 0u) {
            internal::snapshot_corrupt(archive, "snapshot_loader: invalid identifier counts");
            return;
        }

        // released identifiers go through the plain entity storage: they are not created, so no signal fires
        using plain_storage = basic_storage<entity_type, entity_type, typename registry_type::allocator_type>;
        auto &plain = static_cast<plain_storage &>(entities);

        for (std::size_t pos{}; pos < length; ++pos) {
            entity_type entt{null};
            archive(entt);

            // identifiers read so far sit at positions [0, pos); released ones the target held before are reused
            const auto stored = traits_type::construct(traits_type::to_entity(entt), entities.current(entt));

            if (entt == null || entt == tombstone || (entities.contains(stored) && entities.index(stored) < pos)) {
                internal::snapshot_corrupt(archive, "snapshot_loader: invalid or repeated identifier");
                entities.free_list(std::min(in_use, entities.free_list()));
                return;
            }

            [[maybe_unused]] const auto curr = (pos < in_use) ? entities.generate(entt) : plain.generate(entt);
            TESSERA_ASSERT(curr == entt, "snapshot_loader: identifier not restored");
        }

        entities.free_list(in_use);
    }

    registry_type *reg{};
};

/// Loads snapshots into a live registry, again and again: remote identifiers are mapped to local ones, and the
/// map persists between loads.
template<typename Registry>
class basic_continuous_loader {
    static_assert(!std::is_const_v<Registry>, "basic_continuous_loader: use the registry type without const");
    using traits_type = entt_traits<typename Registry::entity_type>;
    using index_type = typename traits_type::entity_type;
    using alloc_traits = std::allocator_traits<typename Registry::allocator_type>;
    // a remote identifier and its local counterpart; a slot nobody maps holds null as its remote identifier
    using mapping = std::pair<typename Registry::entity_type, typename Registry::entity_type>;
    // Indexed by the remote identifiers' indices, in pages made when an index of theirs is first mapped, as a sparse
    // array is: lookups cost two reads, and an archive that names a huge index costs one page, not a slot per index.
    using page_type = std::vector<mapping, typename alloc_traits::template rebind_alloc<mapping>>;
    using map_type = std::vector<page_type, typename alloc_traits::template rebind_alloc<page_type>>;
    static constexpr std::size_t page_size = 1024u;

    // the slot of a remote index, or null if no page reaches it or nobody maps it
    [[nodiscard]] const mapping *slot(const typename Registry::entity_type entt) const noexcept {
        const auto index = static_cast<std::size_t>(traits_type::to_entity(entt));
        const auto page = index / page_size;

        if (page < remloc.size() && !remloc[page].empty()) {
            const auto &found = remloc[page][index % page_size];
            return found.first == null ? nullptr : &found;
        }

        return nullptr;
    }

    // calls func(mapping &) for every mapped remote identifier
    template<typename Func>
    void each_mapping(Func func) {
        for (auto &&page : remloc) {
            for (auto &&curr : page) {
                if (curr.first != null) {
                    func(curr);
                }
            }
        }
    }

    [[nodiscard]] mapping *slot(const typename Registry::entity_type entt) noexcept {
        return const_cast<mapping *>(std::as_const(*this).slot(entt));
    }

public:
    /// The registry type.
    using registry_type = Registry;
    /// Identifier type.
    using entity_type = typename registry_type::entity_type;

    /// Loads into `source`, which may already hold entities.
    basic_continuous_loader(registry_type &source) noexcept
        : remloc(typename map_type::allocator_type{source.get_allocator()}), reg{&source} {}

    basic_continuous_loader(const basic_continuous_loader &) = delete;

    /// Move constructor.
    basic_continuous_loader(basic_continuous_loader &&) noexcept = default;

    basic_continuous_loader &operator=(const basic_continuous_loader &) = delete;

    /// Move assignment.
    basic_continuous_loader &operator=(basic_continuous_loader &&) noexcept = default;

    /// Reads the identifiers (Type is the entity type): maps or creates the ones in use, destroys the local
    /// counterparts of released ones and of remote ones whose index now carries another version. Or reads the pool `id`
    /// of Type: Type is first removed from every mapped entity, so loading again replaces components instead of
    /// duplicating them.
    template<typename Type, typename Archive>
    basic_continuous_loader &get(Archive &archive, const id_type id = type_hash<Type>::value()) {
        if constexpr (std::is_same_v<Type, entity_type>) {
            const auto length = internal::read_count<entity_type>(archive);
            const auto in_use = internal::read_count<entity_type>(archive);

            if (in_use > length) {
                internal::snapshot_corrupt(archive, "continuous_loader: invalid identifier counts");
                return *this;
            }

            for (std::size_t pos{}; pos < length; ++pos) {
                entity_type entt{null};
                archive(entt);

                if (entt == null || entt == tombstone) {
                    internal::snapshot_corrupt(archive, "continuous_loader: invalid identifier");
                    return *this;
                }

                if (pos < in_use) {
                    restore(entt);
                } else if (auto *const found = slot(entt); found != nullptr) {
                    if (reg->valid(found->second)) {
                        reg->destroy(found->second);
                    }

                    *found = mapping{null, null};
                }
            }
        } else {
            auto &storage = reg->template storage<Type>(id);

            each_mapping([&storage](const mapping &curr) { storage.remove(curr.second); });

            auto length = internal::read_count<entity_type>(archive);
            const bool disabled = (length & internal::disabled_count_flag<entity_type>) != 0u;

            for (length &= ~static_cast<std::size_t>(internal::disabled_count_flag<entity_type>); length; --length) {
                entity_type entt{null};
                archive(entt);

                if (entt == null) {
                    continue;
                }

                if (entt == tombstone) {
                    internal::snapshot_corrupt(archive, "continuous_loader: invalid identifier");
                    return *this;
                }

                const auto local = restore(entt);

                if (!internal::load_element(archive, storage, local)) {
                    internal::snapshot_corrupt(archive, "continuous_loader: an entity appears twice in a pool");
                    return *this;
                }
            }

            if (disabled && !internal::load_disabled<entity_type>(
                                archive, storage, [this](const entity_type entt) { return map(entt); })) {
                internal::snapshot_corrupt(archive, "continuous_loader: a disabled identifier is not in its pool");
            }
        }

        return *this;
    }

    /// Releases every entity in use of the registry that has no component.
    basic_continuous_loader &orphans() {
        basic_snapshot_loader<registry_type>::release_orphans(*reg);
        return *this;
    }

    /// Forgets the mappings whose local entity is no longer valid.
    basic_continuous_loader &shrink() {
        each_mapping([this](mapping &curr) {
            if (!reg->valid(curr.second)) {
                curr = mapping{null, null};
            }
        });

        return *this;
    }

    /// True if exactly this remote identifier (same version) is mapped.
    [[nodiscard]] bool contains(const entity_type entt) const noexcept {
        const auto *const found = slot(entt);
        return found != nullptr && found->first == entt;
    }

    /// The local identifier of a remote one, or null if it is not mapped.
    [[nodiscard]] entity_type map(const entity_type entt) const noexcept {
        const auto *const found = slot(entt);
        return (found != nullptr && found->first == entt) ? found->second : entity_type{null};
    }

private:
    entity_type restore(const entity_type entt) {
        if (auto *const found = slot(entt); found != nullptr && found->first == entt) {
            if (!reg->valid(found->second)) {
                found->second = reg->create();
            }

            return found->second;
        } else if (found != nullptr && reg->valid(found->second)) {
            // the remote index was recycled: its former entity is gone, and so must be the local counterpart
            reg->destroy(found->second);
        }

        const auto index = static_cast<std::size_t>(traits_type::to_entity(entt));
        const auto page = index / page_size;

        if (!(page < remloc.size())) {
            remloc.resize(page + 1u, page_type(typename page_type::allocator_type{remloc.get_allocator()}));
        }

        if (remloc[page].empty()) {
            remloc[page].resize(page_size, mapping{null, null});
        }

        const auto local = reg->create();
        remloc[page][index % page_size] = mapping{entt, local};
        return local;
    }

    map_type remloc;
    registry_type *reg{};
};

} // namespace tessera

#endif
