// The storage of a type without instances (empty types, void, page_size 0): a sparse set with the storage
// interface. Included by storage.hpp; include that header rather than this one.
#ifndef TESSERA_ENTITY_STORAGES_NO_INSTANCE_HPP
#define TESSERA_ENTITY_STORAGES_NO_INSTANCE_HPP

#include "../../config/config.hpp"
#include "../../config/std_parts.hpp"
#include "../../core/iterator.hpp"
#include "../../core/type_info.hpp"
#include "../checks/race_guard.hpp"
#include "../component.hpp"
#include "../entity.hpp"
#include "../fwd.hpp"
#include "../sparse_set.hpp"
#include "iterators.hpp"
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tessera {

/// Storage of a type without instances (empty types when the empty-type optimization is on, void, or any type
/// whose page_size is 0): a sparse set with the storage interface.
template<typename Type, typename Entity, typename Allocator>
requires(component_traits<std::remove_const_t<Type>, Entity>::page_size ==
         0u) class basic_storage<Type, Entity, Allocator>
    : public basic_sparse_set<Entity, typename std::allocator_traits<Allocator>::template rebind_alloc<Entity>> {
    using alloc_traits = std::allocator_traits<Allocator>;
    static_assert(std::is_same_v<typename alloc_traits::value_type, Type>, "basic_storage: invalid allocator");
    using underlying_type = basic_sparse_set<Entity, typename alloc_traits::template rebind_alloc<Entity>>;
    using traits_type = component_traits<Type, Entity>;
    static_assert(!internal::track_changes_of<traits_type, Type>,
                  "basic_storage: change detection needs elements; give the type a member or drop track_changes");

public:
    /// Allocator type.
    using allocator_type = Allocator;
    /// The common base class.
    using base_type = underlying_type;
    /// Element type.
    using element_type = Type;
    /// No instances are stored.
    using value_type = void;
    /// Identifier type.
    using entity_type = Entity;
    /// Unsigned integer type.
    using size_type = std::size_t;
    /// Signed integer type.
    using difference_type = std::ptrdiff_t;
    /// Iterable of (entity) tuples.
    using iterable = iterable_adaptor<
        internal::extended_storage_iterator<traits_type::in_place_delete, typename base_type::iterator>>;
    /// Same as iterable.
    using const_iterable = iterable;
    /// Reverse iterable of (entity) tuples.
    using reverse_iterable = iterable_adaptor<
        internal::extended_storage_iterator<traits_type::in_place_delete, typename base_type::reverse_iterator>>;
    /// Same as reverse_iterable.
    using const_reverse_iterable = reverse_iterable;
    /// The deletion policy of this storage type.
    static constexpr deletion_policy storage_policy =
        traits_type::in_place_delete ? deletion_policy::in_place : deletion_policy::swap_and_pop;

    /// Default constructor.
    basic_storage() : basic_storage{allocator_type{}} {}

    /// Constructs an empty storage with the given allocator.
    explicit basic_storage(const allocator_type &allocator) : base_type{type_id<Type>(), storage_policy, allocator} {}

    basic_storage(const basic_storage &) = delete;

    /// Move constructor.
    basic_storage(basic_storage &&other) noexcept = default;

    /// Allocator-extended move constructor: the identifiers are copied when the allocators cannot share memory.
    basic_storage(basic_storage &&other, const allocator_type &allocator) : base_type{std::move(other), allocator} {}

    basic_storage &operator=(const basic_storage &) = delete;

    /// Move assignment, as the sparse set's: noexcept unless the allocators may have to copy.
    basic_storage &operator=(basic_storage &&other) = default;

    /// The allocator.
    [[nodiscard]] constexpr allocator_type get_allocator() const noexcept {
        return allocator_type{base_type::get_allocator()};
    }

    /// Checks that the identifier is in the storage; there is nothing to return.
    void get([[maybe_unused]] const entity_type entt) const {
        TESSERA_ASSERT(base_type::contains(entt), "storage: get of an identifier that is not in the storage");
    }

    /// An empty tuple, after checking that the identifier is in the storage.
    [[nodiscard]] std::tuple<> get_as_tuple([[maybe_unused]] const entity_type entt) const {
        TESSERA_ASSERT(base_type::contains(entt), "storage: get of an identifier that is not in the storage");
        return std::tuple{};
    }

    /// Adds an identifier; the arguments are ignored.
    template<typename... Args>
    void emplace(const entity_type entt, Args &&...) {
        TESSERA_RACE_WRITE(*this, "emplace");
        base_type::template push_entity_as<storage_policy>(entt, false);

        if (base_type::disabled_size() != 0u) {
            base_type::settle_appended(1u);
        }
    }

    /// Calls each function with no arguments, after checking that the identifier is in the storage.
    template<typename... Func>
    void patch([[maybe_unused]] const entity_type entt, Func &&...func) {
        TESSERA_ASSERT(base_type::contains(entt), "storage: patch of an identifier that is not in the storage");
        (std::forward<Func>(func)(), ...);
    }

    /// Adds every identifier of the range; the arguments are ignored. Strong exception guarantee.
    template<typename It, typename... Args>
    void insert(It first, It last, Args &&...) {
        TESSERA_RACE_WRITE(*this, "insert");
        size_type count{};

        try {
            for (; first != last; ++first, ++count) {
                base_type::template push_entity_as<storage_policy>(*first, true);
            }
        } catch (...) {
            for (; count; --count) {
                base_type::pop_back_entity();
            }

            throw;
        }

        if (base_type::disabled_size() != 0u) {
            base_type::settle_appended(count);
        }
    }

    /// Iterable of (entity) tuples in iteration order. In-place holes are skipped.
    [[nodiscard]] iterable each() const noexcept {
        return {
            internal::make_extended_storage_iterator<traits_type::in_place_delete>(base_type::begin(),
                                                                                   base_type::end()),
            internal::make_extended_storage_iterator<traits_type::in_place_delete>(base_type::end(), base_type::end())};
    }

    /// Iterable of (entity) tuples from packed position 0 up. In-place holes are skipped.
    [[nodiscard]] reverse_iterable reach() const noexcept {
        return {internal::make_extended_storage_iterator<traits_type::in_place_delete>(base_type::rbegin(),
                                                                                       base_type::rend()),
                internal::make_extended_storage_iterator<traits_type::in_place_delete>(base_type::rend(),
                                                                                       base_type::rend())};
    }
};

} // namespace tessera

#endif
