// Handles: a registry pointer and an entity that mirror the registry's API with the entity passed implicitly.
#ifndef TESSERA_ENTITY_HANDLE_HPP
#define TESSERA_ENTITY_HANDLE_HPP

#include "../config/config.hpp"
#include "../config/std_parts.hpp"
#include "../core/iterator.hpp"
#include "../core/type_traits.hpp"
#include "entity.hpp"
#include "fwd.hpp"
#include "registry.hpp"
#include <cstddef>
#include <type_traits>
#include <utility>

namespace tessera {

namespace internal {

/// Walks the (name, pool) pairs of a registry, stopping only at the pools that contain one entity.
template<typename It, typename Entity>
class handle_storage_iterator final {
public:
    using value_type = typename std::iterator_traits<It>::value_type;
    using pointer = input_iterator_pointer<value_type>;
    using reference = value_type;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::input_iterator_tag;
    using iterator_concept = std::forward_iterator_tag;

    constexpr handle_storage_iterator() noexcept : entt{null}, it{}, last{} {}

    handle_storage_iterator(const Entity value, It from, It to) noexcept
        : entt{value}, it{std::move(from)}, last{std::move(to)} {
        skip();
    }

    handle_storage_iterator &operator++() noexcept {
        ++it;
        skip();
        return *this;
    }

    handle_storage_iterator operator++(int) noexcept {
        handle_storage_iterator before = *this;
        ++*this;
        return before;
    }

    [[nodiscard]] reference operator*() const noexcept { return *it; }

    [[nodiscard]] pointer operator->() const noexcept { return operator*(); }

    [[nodiscard]] friend bool operator==(const handle_storage_iterator &lhs,
                                         const handle_storage_iterator &rhs) noexcept {
        return lhs.it == rhs.it;
    }

private:
    // contains() is the non-virtual check of the base class: the walk costs one lookup per pool
    void skip() noexcept {
        for (; it != last && !(*it).second.contains(entt); ++it) {
        }
    }

    Entity entt{null};
    It it{};
    It last{};
};

} // namespace internal

/// A registry and an entity: the registry's entity API with the entity passed implicitly. It owns nothing and is
/// trivially copyable; on a basic_handle<const R> only the read-only members exist. A non-empty Scope makes it a
/// handle view: it may get, emplace, patch, replace and remove only the element types listed there.
template<typename Registry, typename... Scope>
class basic_handle {
    using underlying_iterator = typename decltype(std::declval<Registry &>().storage())::iterator;

    template<typename Type>
    static constexpr bool in_scope = (sizeof...(Scope) == 0u) || type_list_contains_v<type_list<Scope...>, Type>;

    [[nodiscard]] Registry &target([[maybe_unused]] const char *message) const {
        TESSERA_ASSERT(reg != nullptr, message);
        return *reg;
    }

public:
    /// Registry type.
    using registry_type = Registry;
    /// Identifier type.
    using entity_type = typename Registry::entity_type;
    /// Version type.
    using version_type = typename Registry::version_type;
    /// Unsigned integer type.
    using size_type = std::size_t;
    /// Iterable of (name, pool &) pairs of the pools that contain the entity.
    using iterable = iterable_adaptor<internal::handle_storage_iterator<underlying_iterator, entity_type>>;

    /// An invalid handle: null registry, null entity.
    basic_handle() noexcept : reg{}, entt{null} {}

    /// A handle on value in ref.
    basic_handle(registry_type &ref, const entity_type value) noexcept : reg{&ref}, entt{value} {}

    /// The (name, pool &) pairs of the pools that contain the entity; empty without a registry.
    [[nodiscard]] iterable storage() const noexcept {
        if (reg == nullptr) {
            return iterable{};
        }

        auto range = reg->storage();
        return iterable{{entt, range.begin(), range.end()}, {entt, range.end(), range.end()}};
    }

    /// True if the handle has a registry and its entity is valid there.
    [[nodiscard]] explicit operator bool() const { return reg != nullptr && reg->valid(entt); }

    /// True if the handle has a registry and its entity is valid there: false without a registry, like
    /// operator bool (a query, not a forwarding call).
    [[nodiscard]] bool valid() const { return reg != nullptr && reg->valid(entt); }

    /// The registry, or nullptr.
    [[nodiscard]] registry_type *registry() const noexcept { return reg; }

    /// The entity.
    [[nodiscard]] entity_type entity() const noexcept { return entt; }

    /// The entity.
    [[nodiscard]] operator entity_type() const noexcept { return entt; }

    /// Destroys the entity; the handle's entity becomes null.
    void destroy() requires(!std::is_const_v<Registry>) {
        target("handle::destroy: the handle has no registry").destroy(std::exchange(entt, null));
    }

    /// Destroys the entity and forces its stored version; the handle's entity becomes null.
    void destroy(const version_type version) requires(!std::is_const_v<Registry>) {
        target("handle::destroy: the handle has no registry").destroy(std::exchange(entt, null), version);
    }

    /// Gives the entity a Type built from args.
    template<typename Type, typename... Args>
    requires(!std::is_const_v<Registry>) decltype(auto) emplace(Args &&...args) const {
        static_assert(in_scope<Type>, "handle::emplace: the type is not in the scope of this handle view");
        return target("handle::emplace: the handle has no registry")
            .template emplace<Type>(entt, std::forward<Args>(args)...);
    }

    /// Replaces the entity's Type if it has one, emplaces it otherwise.
    template<typename Type, typename... Args>
    requires(!std::is_const_v<Registry>) decltype(auto) emplace_or_replace(Args &&...args) const {
        static_assert(in_scope<Type>, "handle::emplace_or_replace: the type is not in the scope of this handle view");
        return target("handle::emplace_or_replace: the handle has no registry")
            .template emplace_or_replace<Type>(entt, std::forward<Args>(args)...);
    }

    /// Calls each function on the entity's Type, then notifies the update.
    template<typename Type, typename... Func>
    requires(!std::is_const_v<Registry>) decltype(auto) patch(Func &&...func) const {
        static_assert(in_scope<Type>, "handle::patch: the type is not in the scope of this handle view");
        return target("handle::patch: the handle has no registry")
            .template patch<Type>(entt, std::forward<Func>(func)...);
    }

    /// Assigns a new Type built from args to the entity, then notifies the update.
    template<typename Type, typename... Args>
    requires(!std::is_const_v<Registry>) decltype(auto) replace(Args &&...args) const {
        static_assert(in_scope<Type>, "handle::replace: the type is not in the scope of this handle view");
        return target("handle::replace: the handle has no registry")
            .template replace<Type>(entt, std::forward<Args>(args)...);
    }

    /// Removes the listed components the entity has. Returns how many were removed.
    template<typename... Type>
    requires(!std::is_const_v<Registry>) size_type remove()
    const {
        static_assert((in_scope<Type> && ...), "handle::remove: a type is not in the scope of this handle view");
        return target("handle::remove: the handle has no registry").template remove<Type...>(entt);
    }

    /// Removes the listed components; the entity must have every one of them.
    template<typename... Type>
    requires(!std::is_const_v<Registry>) void erase() const {
        static_assert((in_scope<Type> && ...), "handle::erase: a type is not in the scope of this handle view");
        target("handle::erase: the handle has no registry").template erase<Type...>(entt);
    }

    /// True if the entity has every listed component (any type, whatever the scope).
    template<typename... Type>
    [[nodiscard]] decltype(auto) all_of() const {
        return target("handle::all_of: the handle has no registry").template all_of<Type...>(entt);
    }

    /// True if the entity has at least one listed component (any type, whatever the scope).
    template<typename... Type>
    [[nodiscard]] decltype(auto) any_of() const {
        return target("handle::any_of: the handle has no registry").template any_of<Type...>(entt);
    }

    /// The listed components: a reference for one type, a tuple for several (read-only through a const registry).
    template<typename... Type>
    [[nodiscard]] decltype(auto) get() const {
        static_assert((in_scope<std::remove_const_t<Type>> && ...),
                      "handle::get: a type is not in the scope of this handle view");
        return target("handle::get: the handle has no registry").template get<Type...>(entt);
    }

    /// The entity's Type, created from args if the entity does not have one yet.
    template<typename Type, typename... Args>
    requires(!std::is_const_v<Registry>) [[nodiscard]] decltype(auto) get_or_emplace(Args &&...args) const {
        static_assert(in_scope<Type>, "handle::get_or_emplace: the type is not in the scope of this handle view");
        return target("handle::get_or_emplace: the handle has no registry")
            .template get_or_emplace<Type>(entt, std::forward<Args>(args)...);
    }

    /// Pointers to the listed components, nullptr for the missing ones.
    template<typename... Type>
    [[nodiscard]] auto try_get() const {
        static_assert((in_scope<std::remove_const_t<Type>> && ...),
                      "handle::try_get: a type is not in the scope of this handle view");
        return target("handle::try_get: the handle has no registry").template try_get<Type...>(entt);
    }

    /// True if the entity has no component.
    [[nodiscard]] bool orphan() const { return target("handle::orphan: the handle has no registry").orphan(entt); }

    /// True if both handles refer to the same registry object and the same entity, whatever their scopes.
    template<typename Other, typename... Args>
    requires std::is_same_v<typename Other::entity_type, entity_type>
    [[nodiscard]] bool operator==(const basic_handle<Other, Args...> &other) const noexcept {
        return static_cast<const void *>(reg) == static_cast<const void *>(other.registry()) && entt == other.entity();
    }

    /// True if the handle's entity is null, whatever its registry.
    [[nodiscard]] constexpr bool operator==(const null_t other) const noexcept { return other == entt; }

    /// The same registry and entity as a read-only handle, or as a handle view over some of the types in scope (a
    /// handle without scope converts to any handle view). A handle without registry gives an invalid handle.
    template<typename Other, typename... Args>
    requires(std::is_same_v<std::remove_const_t<Other>, std::remove_const_t<Registry>> &&
             (std::is_const_v<Other> ||
              !std::is_const_v<Registry>)&&!std::is_same_v<basic_handle<Other, Args...>, basic_handle>) [[nodiscard]]
    operator basic_handle<Other, Args...>() const noexcept {
        static_assert(sizeof...(Scope) == 0u || (sizeof...(Args) != 0u && (in_scope<Args> && ...)),
                      "handle: a handle view converts only to a handle view over some of its own types");
        return (reg == nullptr) ? basic_handle<Other, Args...>{} : basic_handle<Other, Args...>{*reg, entt};
    }

private:
    registry_type *reg{};
    entity_type entt{null};
};

/// Deduces the registry type from the arguments.
template<typename Registry>
basic_handle(Registry &, typename Registry::entity_type) -> basic_handle<Registry>;

} // namespace tessera

#endif
