// Forward declarations of the entity module: the default identifier, deletion policies, the get/exclude/owned
// tag lists and the class templates every other entity header defines, with their common aliases.
#ifndef TESSERA_ENTITY_FWD_HPP
#define TESSERA_ENTITY_FWD_HPP

#include "../config/std_parts.hpp"
#include "../core/fwd.hpp"
#include "../core/type_traits.hpp"
#include <cstdint>

namespace tessera {

/// The default identifier: 20 bits of index and 12 bits of version in 32 bits.
enum class entity : id_type {};

/// How a sparse set removes elements.
enum class deletion_policy : std::uint8_t {
    /// The last element fills the hole (the default for components).
    swap_and_pop = 0u,
    /// The hole stays as a tombstone and joins a free list (stable storages).
    in_place = 1u,
    /// Removed elements move to a released tail region (the entity storage).
    swap_only = 2u,
    /// Whatever the storage prefers.
    unspecified = swap_and_pop
};

/// Which elements of switched-off components (basic_registry::disable) a view or a runtime view visits: by default it
/// skips them; it may also include them, or visit only the entities that have at least one (docs/enable_disable.md).
enum class disabled_mode : std::uint8_t {
    /// Disabled components count as absent (the default).
    skip = 0u,
    /// Disabled components count as present.
    include = 1u,
    /// As include, and an entity is visited only if one of its viewed components is disabled.
    only = 2u
};

/// The types a view or group excludes.
template<typename... Type>
struct exclude_t final : type_list<Type...> {
    /// An empty tag; its only content is the type list.
    constexpr exclude_t() noexcept = default;
};

/// Tag value for exclude_t.
template<typename... Type>
inline constexpr exclude_t<Type...> exclude{};

/// The types a view or group requires (and, for groups, observes without owning).
template<typename... Type>
struct get_t final : type_list<Type...> {
    /// An empty tag; its only content is the type list.
    constexpr get_t() noexcept = default;
};

/// Tag value for get_t.
template<typename... Type>
inline constexpr get_t<Type...> get{};

/// The types a group owns.
template<typename... Type>
struct owned_t final : type_list<Type...> {
    /// An empty tag; its only content is the type list.
    constexpr owned_t() noexcept = default;
};

/// Tag value for owned_t.
template<typename... Type>
inline constexpr owned_t<Type...> owned{};

/// type_list_transform over a get list keeps it a get list.
template<typename... Type, template<typename...> class Op>
struct type_list_transform<get_t<Type...>, Op> {
    /// The transformed list.
    using type = get_t<typename Op<Type>::type...>;
};

/// type_list_transform over an exclude list keeps it an exclude list.
template<typename... Type, template<typename...> class Op>
struct type_list_transform<exclude_t<Type...>, Op> {
    /// The transformed list.
    using type = exclude_t<typename Op<Type>::type...>;
};

/// type_list_transform over an owned list keeps it an owned list.
template<typename... Type, template<typename...> class Op>
struct type_list_transform<owned_t<Type...>, Op> {
    /// The transformed list.
    using type = owned_t<typename Op<Type>::type...>;
};

namespace internal {

/// True where Type is defined. A member of a core class that works through an extra's header (view::chunks needs
/// chunk.hpp, registry::clone needs clone.hpp) asserts it, so that a missing #include reads as a message naming the
/// header instead of an error about an incomplete type. It is evaluated only when such a member is used.
template<typename Type>
inline constexpr bool defined_v = requires {
    sizeof(Type);
};

/// How registry::memory_report() measures a registry (memory_report.hpp).
template<typename Registry>
struct memory_support;

/// How registry::clone() copies an entity (clone.hpp).
template<typename Registry>
struct clone_support;

} // namespace internal

/// How the storage of a component type behaves (component.hpp).
template<typename Type, typename Entity = entity>
struct component_traits;

/// The sparse set every pool derives from (sparse_set.hpp).
template<typename Entity = entity, typename Allocator = std::allocator<Entity>>
class TESSERA_RACES_ABI basic_sparse_set;

/// Storage of elements attached to identifiers (storage.hpp; the storage of types without instances and the entity
/// storage in storages/).
template<typename Type, typename Entity = entity, typename Allocator = std::allocator<Type>>
class basic_storage;

/// Adds construct, update and destroy signals to a storage (mixin.hpp).
template<typename Type, typename Registry>
class basic_sigh_mixin;

/// A storage that collects entities on registry events (mixin.hpp).
template<typename Type, typename Registry>
class basic_reactive_mixin;

/// Entities, components, pools, groups and context variables (registry.hpp).
template<typename Entity = entity, typename Allocator = std::allocator<Entity>>
class TESSERA_RACES_ABI basic_registry;

/// The component that marks the entities disabled as a whole (basic_registry::disable(entity)).
struct disabled_entity;

/// A storage with construct, update and destroy signals, bound to the default registry type of its identifier.
template<typename Type>
using sigh_mixin =
    basic_sigh_mixin<Type, basic_registry<typename Type::entity_type, typename Type::base_type::allocator_type>>;

/// A storage that collects entities on registry events, bound to the default registry type of its identifier.
template<typename Type>
using reactive_mixin =
    basic_reactive_mixin<Type, basic_registry<typename Type::entity_type, typename Type::base_type::allocator_type>>;

/// Iterates the entities that have every Get and no Exclude storage (view.hpp).
template<typename Get, typename Exclude>
class basic_view;

/// A view over storages chosen at run time (runtime_view.hpp).
template<typename Type, typename Allocator = std::allocator<Type *>>
class basic_runtime_view;

/// Owning and non-owning groups (group.hpp).
template<typename Owned, typename Get, typename Exclude>
class basic_group;

/// A run of a view's or a group's leading positions, iterated on its own (chunk.hpp).
template<typename Owner>
class basic_chunk;

/// The chunks of a view or a group, a random-access range (chunk.hpp).
template<typename Owner>
class basic_chunk_range;

/// Builds the task graph of a registry (organizer.hpp).
template<typename Registry>
class basic_organizer;

/// A registry and an entity, with the registry API, optionally restricted to some element types (handle.hpp).
template<typename Registry, typename... Scope>
class basic_handle;

/// Writes a registry to an archive (snapshot.hpp).
template<typename Registry>
class basic_snapshot;

/// Restores a snapshot into an empty registry (snapshot.hpp).
template<typename Registry>
class basic_snapshot_loader;

/// Loads snapshots into a live registry, mapping identifiers (snapshot.hpp).
template<typename Registry>
class basic_continuous_loader;

/// Records structural changes and applies them to a registry later (command_buffer.hpp).
template<typename Registry>
class basic_command_buffer;

/// A set of component values that spawn copies into new entities (prototype.hpp).
template<typename Registry>
class basic_prototype;

/// Empty value type that selects the reactive storage.
struct reactive final {};

/// The memory of one pool (pool_memory.hpp).
struct pool_memory;

/// The memory a registry holds, pool by pool (memory_report.hpp).
class memory_report;

/// Customization point: the pool type the registry uses for an element type (storage.hpp).
template<typename Type, typename Entity = entity, typename Allocator = std::allocator<Type>>
struct storage_type;

/// The pool type for an element type, keeping its constness (storage.hpp).
template<typename Type, typename Entity = entity, typename Allocator = std::allocator<std::remove_const_t<Type>>>
struct storage_for;

/// The pool type the registry uses for Type (a storage with the signal mixin by default).
template<typename... Args>
using storage_type_t = typename storage_type<Args...>::type;

/// The pool type for an element type, const if the element type is const.
template<typename... Args>
using storage_for_t = typename storage_for<Args...>::type;

/// Sparse set with the default identifier and allocator.
using sparse_set = basic_sparse_set<>;

/// Storage of Type with the default identifier and allocator.
template<typename Type>
using storage = basic_storage<Type>;

/// Registry with the default identifier and allocator.
using registry = basic_registry<>;

/// Organizer for the default registry.
using organizer = basic_organizer<registry>;

/// Handle on the default registry.
using handle = basic_handle<registry>;

/// Read-only handle on the default registry.
using const_handle = basic_handle<const registry>;

/// Handle on the default registry restricted to the element types Type... (a handle view).
template<typename... Type>
using handle_view = basic_handle<registry, Type...>;

/// Read-only handle on the default registry restricted to the element types Type...
template<typename... Type>
using const_handle_view = basic_handle<const registry, Type...>;

/// Snapshot of the default registry.
using snapshot = basic_snapshot<registry>;

/// Snapshot loader for the default registry.
using snapshot_loader = basic_snapshot_loader<registry>;

/// Continuous loader for the default registry.
using continuous_loader = basic_continuous_loader<registry>;

/// Command buffer for the default registry.
using command_buffer = basic_command_buffer<registry>;

/// Prototype for the default registry.
using prototype = basic_prototype<registry>;

/// Runtime view over the default sparse set.
using runtime_view = basic_runtime_view<sparse_set>;

/// Runtime view over const sparse sets.
using const_runtime_view = basic_runtime_view<const sparse_set>;

/// A view spelled with element types: view<get_t<position, const velocity>, exclude_t<renderable>>.
template<typename Get, typename Exclude = exclude_t<>>
using view = basic_view<type_list_transform_t<Get, storage_for>, type_list_transform_t<Exclude, storage_for>>;

/// A group spelled with element types.
template<typename Owned, typename Get = get_t<>, typename Exclude = exclude_t<>>
using group = basic_group<type_list_transform_t<Owned, storage_for>, type_list_transform_t<Get, storage_for>,
                          type_list_transform_t<Exclude, storage_for>>;

} // namespace tessera

#endif
