// Copying components: the clone policy of a component type (component_traits<T>::clone) carried out on its pool,
// behind a table of functions per type, so that registry::clone, prototypes and spawn copy pools they only know
// through their common base class, into the same registry or another one of the same type.
#ifndef TESSERA_ENTITY_CLONE_HPP
#define TESSERA_ENTITY_CLONE_HPP

#include "../config/config.hpp"
#include "../core/fwd.hpp"
#include "../core/type_info.hpp"
#include "component.hpp"
#include "fwd.hpp"
#include <cstddef>
#include <iterator>
#include <memory>
#include <string_view>
#include <type_traits>
#include <utility>

namespace tessera::internal {

/// The words around the type's name in the misuse message for a component type that clone cannot copy.
struct clone_refusal_text final {
    /// Names the function.
    static constexpr std::string_view prefix = "clone: ";
    /// The problem and what to do.
    static constexpr std::string_view suffix =
        " cannot be copied; give it a copy constructor, or declare clone_policy::skip or a clone_element function "
        "in the type or its component_traits (docs/clone.md)";
};

/// The misuse message for a component type that clone cannot copy; it names the type.
template<typename Type>
using clone_refusal_message = type_message<clone_refusal_text, Type>;

/// The copy of an element that clone makes under the policy of Traits (copy or custom).
template<typename Traits, typename Type>
[[nodiscard]] Type clone_copy(const Type &elem) {
    if constexpr (clone_policy_of<Traits> == clone_policy::custom) {
        if constexpr (requires { Traits::clone_element(elem); }) {
            return Traits::clone_element(elem);
        } else {
            static_assert(
                requires { Type::clone_element(elem); },
                "clone_policy::custom needs a static clone_element(const T &) returning the copy, in the "
                "type or in its component_traits");
            return Type::clone_element(elem);
        }
    } else {
        return elem;
    }
}

/// An input iterator that yields a fresh copy of one element at each step, for the insert overload of storages
/// that takes an iterator to the elements: custom copies are made one per new entity.
template<typename Traits, typename Type>
class clone_copy_iterator final {
public:
    using value_type = Type;
    using reference = Type;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::input_iterator_tag;

    constexpr clone_copy_iterator() noexcept = default;

    explicit constexpr clone_copy_iterator(const Type &elem) noexcept : source{&elem} {}

    constexpr clone_copy_iterator &operator++() noexcept { return *this; }

    constexpr clone_copy_iterator operator++(int) noexcept { return *this; }

    [[nodiscard]] Type operator*() const { return clone_copy<Traits>(*source); }

private:
    const Type *source{};
};

/// How to copy the elements of one pool type of Registry: the functions behind clone, prototypes and spawn.
template<typename Registry>
struct element_copier {
    /// Identifier type.
    using entity_type = typename Registry::entity_type;
    /// Allocator type of the registry.
    using allocator_type = typename Registry::allocator_type;

    /// Gives every identifier of [first, last) a copy of *elem (elem is null for types without instances) in the
    /// pool `id` of `target`, created if needed; on_construct fires once per identifier, after all are added.
    void (*insert)(Registry &target, id_type id, const void *elem, const entity_type *first, const entity_type *last);
    /// A copy of *elem in memory from the allocator; null for types without instances.
    void *(*duplicate)(const allocator_type &allocator, const void *elem);
    /// Destroys and frees what duplicate returned.
    void (*dispose)(const allocator_type &allocator, void *elem) noexcept;
    /// The element type.
    const type_info &(*info)() noexcept;
    /// The clone policy of the element type.
    clone_policy policy;
    /// False if the policy is copy and the type cannot be copied: insert and duplicate then assert.
    bool copyable;
};

/// The copier of Type's pool in Registry.
template<typename Registry, typename Type>
struct element_copier_for final {
    using entity_type = typename Registry::entity_type;
    using allocator_type = typename Registry::allocator_type;
    using traits_type = component_traits<Type, entity_type>;
    using element_alloc = typename std::allocator_traits<allocator_type>::template rebind_alloc<Type>;
    using element_alloc_traits = std::allocator_traits<element_alloc>;

    static constexpr clone_policy policy = clone_policy_of<traits_type>;
    static constexpr bool has_instances =
        !std::is_void_v<typename Registry::template storage_for_type<Type>::value_type>;
    static constexpr bool copyable =
        !has_instances || policy != clone_policy::copy || std::is_copy_constructible_v<Type>;

    static void insert([[maybe_unused]] Registry &target, [[maybe_unused]] const id_type id,
                       [[maybe_unused]] const void *elem, [[maybe_unused]] const entity_type *first,
                       [[maybe_unused]] const entity_type *last) {
        if constexpr (!copyable) {
            TESSERA_ASSERT(false, clone_refusal_message<Type>::text.data());
        } else if constexpr (policy != clone_policy::skip) {
            auto &pool = target.template storage<Type>(id);

            if constexpr (!has_instances) {
                pool.insert(first, last);
            } else if constexpr (policy == clone_policy::custom) {
                const auto &value = *static_cast<const Type *>(elem);
                pool.insert(first, last, clone_copy_iterator<traits_type, Type>{value});
            } else {
                pool.insert(first, last, *static_cast<const Type *>(elem));
            }
        }
    }

    /// A Type built from args (braces for aggregates) in memory from the allocator; dispose releases it.
    template<typename... Args>
    [[nodiscard]] static Type *make(const allocator_type &allocator, Args &&...args) {
        element_alloc alloc{allocator};
        Type *const memory = element_alloc_traits::allocate(alloc, 1u);

        try {
            if constexpr (std::is_aggregate_v<Type> && sizeof...(Args) != 0u) {
                return ::new (static_cast<void *>(memory)) Type{std::forward<Args>(args)...};
            } else {
                return ::new (static_cast<void *>(memory)) Type(std::forward<Args>(args)...);
            }
        } catch (...) {
            element_alloc_traits::deallocate(alloc, memory, 1u);
            throw;
        }
    }

    [[nodiscard]] static void *duplicate([[maybe_unused]] const allocator_type &allocator,
                                         [[maybe_unused]] const void *elem) {
        if constexpr (!has_instances || policy == clone_policy::skip) {
            return nullptr;
        } else if constexpr (!copyable) {
            TESSERA_ASSERT(false, clone_refusal_message<Type>::text.data());
            return nullptr;
        } else {
            return make(allocator, clone_copy<traits_type>(*static_cast<const Type *>(elem)));
        }
    }

    static void dispose([[maybe_unused]] const allocator_type &allocator, [[maybe_unused]] void *elem) noexcept {
        if constexpr (has_instances) {
            if (elem != nullptr) {
                element_alloc alloc{allocator};
                auto *const value = static_cast<Type *>(elem);
                std::destroy_at(value);
                element_alloc_traits::deallocate(alloc, value, 1u);
            }
        }
    }

    /// The table.
    static constexpr element_copier<Registry> table{&insert, &duplicate, &dispose, &type_id<Type>, policy, copyable};
};

/// Creates in `target` a copy of the entity `entt` of a registry whose pools are `pools` (a pool_table): every
/// pool that holds the entity and can be copied copies its element, newest pool first. If a copy throws, the new
/// entity is destroyed again (its signals stay fired) and the exception propagates. Returns the new entity.
template<typename Registry, typename Pools>
typename Registry::entity_type clone_entity(const Pools &pools, const typename Registry::entity_type entt,
                                            Registry &target) {
    const auto copy = target.create();

    try {
        pools.each_copier(
            entt, [entt, &target, &copy](const id_type id, const auto &pool, const element_copier<Registry> &how) {
                how.insert(target, id, pool.value(entt), &copy, &copy + 1);

                // a disabled component stays disabled in the copy (docs/enable_disable.md)
                if (auto *const made = target.storage(id); !pool.enabled(entt) && made && made->contains(copy)) {
                    made->disable(copy);
                }
            });
    } catch (...) {
        if (target.valid(copy)) {
            target.destroy(copy);
        }

        throw;
    }

    return copy;
}

} // namespace tessera::internal

#endif
