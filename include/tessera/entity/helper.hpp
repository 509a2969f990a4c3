// Small helpers around the registry: conversions to views and groups, the owner of a component instance, member
// functions as listeners and a builder that connects several listeners in one expression.
#ifndef TESSERA_ENTITY_HELPER_HPP
#define TESSERA_ENTITY_HELPER_HPP

#include "../config/std_parts.hpp"
#include "../core/fwd.hpp"
#include "../core/type_info.hpp"
#include "../core/type_traits.hpp"
#include "../signal/delegate.hpp"
#include "component.hpp"
#include "entity.hpp"
#include "fwd.hpp"
#include "registry.hpp"
#include "storage.hpp"
#include <cstddef>
#include <type_traits>
#include <utility>

namespace tessera {

namespace internal {

/// The registry a member function listener expects: its first parameter if that is registry-like, the default
/// registry otherwise (also for things that are not member functions, which invoke rejects with a clear message).
template<typename Member>
consteval auto invoke_registry() noexcept {
    if constexpr (std::is_member_function_pointer_v<Member>) {
        using args = typename callable_arguments<std::remove_cvref_t<Member>>::type;

        if constexpr (args::size != 0u) {
            using first = std::decay_t<type_list_element_t<0u, args>>;

            if constexpr (requires { typename first::entity_type; }) {
                return std::type_identity<first>{};
            } else {
                return std::type_identity<registry>{};
            }
        } else {
            return std::type_identity<registry>{};
        }
    } else {
        return std::type_identity<registry>{};
    }
}

/// The registry a member function listener expects.
template<typename Member>
using invoke_registry_t = typename decltype(invoke_registry<Member>())::type;

} // namespace internal

/// Converts to any view of a registry: the view is built by calling registry.view with the element types of the
/// target view. The organizer resolves view parameters this way.
template<typename Registry>
class as_view {
    // The element types are read back from the storage types of the target view, constness included.
    template<typename... Get, typename... Exclude>
    [[nodiscard]] auto build(get_t<Get...>, exclude_t<Exclude...>) const {
        using excluded = exclude_t<constness_as_t<typename Exclude::element_type, Exclude>...>;
        return source->template view<constness_as_t<typename Get::element_type, Get>...>(excluded{});
    }

public:
    /// The registry type.
    using registry_type = Registry;
    /// Identifier type.
    using entity_type = typename Registry::entity_type;

    /// Wraps a registry, which must outlive the object.
    as_view(registry_type &ref) noexcept : source{&ref} {}

    /// The view over the given storages.
    template<typename Get, typename Exclude>
    operator basic_view<Get, Exclude>() const {
        return build(Get{}, Exclude{});
    }

private:
    registry_type *source{};
};

/// Deduction guide.
template<typename Registry>
as_view(Registry &) -> as_view<Registry>;

/// Converts to any group of a registry: the group is built by calling registry.group with the element types of the
/// target group, or, for a const registry, found with group_if_exists (an invalid group if there is none). The
/// organizer resolves group parameters this way.
template<typename Registry>
class as_group {
    template<typename... Owned, typename... Get, typename... Exclude>
    [[nodiscard]] auto build(owned_t<Owned...>, get_t<Get...>, exclude_t<Exclude...>) const {
        if constexpr (std::is_const_v<Registry>) {
            return source->template group_if_exists<typename Owned::element_type...>(
                get_t<typename Get::element_type...>{}, exclude_t<typename Exclude::element_type...>{});
        } else {
            return source->template group<constness_as_t<typename Owned::element_type, Owned>...>(
                get_t<constness_as_t<typename Get::element_type, Get>...>{},
                exclude_t<constness_as_t<typename Exclude::element_type, Exclude>...>{});
        }
    }

public:
    /// The registry type.
    using registry_type = Registry;
    /// Identifier type.
    using entity_type = typename Registry::entity_type;

    /// Wraps a registry, which must outlive the object.
    as_group(registry_type &ref) noexcept : source{&ref} {}

    /// The group over the given storages.
    template<typename Owned, typename Get, typename Exclude>
    operator basic_group<Owned, Get, Exclude>() const {
        return build(Owned{}, Get{}, Exclude{});
    }

private:
    registry_type *source{};
};

/// Deduction guide.
template<typename Registry>
as_group(Registry &) -> as_group<Registry>;

/// The entity that owns instance in storage, or null if instance is not one of the storage's elements. Scans the
/// page table: O(number of pages).
template<typename... Args>
[[nodiscard]] typename basic_storage<Args...>::entity_type
to_entity(const basic_storage<Args...> &storage, const typename basic_storage<Args...>::value_type &instance) {
    using storage_type = basic_storage<Args...>;
    using entity_type = typename storage_type::entity_type;
    constexpr auto page_size =
        component_traits<typename storage_type::element_type, typename storage_type::entity_type>::page_size;
    static_assert(page_size != 0u, "to_entity: the storage keeps no instances");

    const auto *addr = std::addressof(instance);
    const auto size = storage.size();
    const auto *const *pages = storage.raw();
    const std::less<> less{};

    // only the pages that hold positions [0, size) can hold an element
    for (std::size_t page{}, count = (size + page_size - 1u) / page_size; page < count; ++page) {
        if (const auto *first = pages[page]; !less(addr, first) && less(addr, first + page_size)) {
            const auto pos = page * page_size + static_cast<std::size_t>(addr - first);

            if (pos < size) {
                // an in-place hole is not an element
                const auto entt = storage.data()[pos];
                return (entt == tombstone) ? entity_type{null} : entt;
            }

            break;
        }
    }

    return null;
}

/// A listener that forwards a registry signal to a member function of the entity's component: it calls
/// Member on reg.get<C>(entt) with (reg, entt), or with the part of them Member accepts (delegate rules).
template<auto Member, typename Registry = internal::invoke_registry_t<decltype(Member)>>
void invoke(Registry &reg, const typename Registry::entity_type entt) {
    static_assert(std::is_member_function_pointer_v<decltype(Member)>,
                  "invoke: pass a pointer to a non-static member function, as in invoke<&component::function>");

    // guarded so that a wrong Member produces the message above and nothing else
    if constexpr (std::is_member_function_pointer_v<decltype(Member)>) {
        using component_type = member_class_t<decltype(Member)>;
        delegate<void(Registry &, const typename Registry::entity_type)> func{};
        func.template connect<Member>(reg.template get<component_type>(entt));
        func(reg, entt);
    }
}

template<typename...>
struct sigh_helper;

/// Connects listeners to the signals of a registry in one expression: `sigh_helper{reg}.with<A>().on_construct<&f>()`.
template<typename Registry>
struct sigh_helper<Registry> {
    /// Registry type.
    using registry_type = Registry;

    /// A helper over ref.
    sigh_helper(registry_type &ref) : target{&ref} {}

    /// A helper that connects to the pool `id` of Type.
    template<typename Type>
    [[nodiscard]] auto with(const id_type id = type_hash<Type>::value()) noexcept {
        return sigh_helper<Registry, Type>{*target, id};
    }

    /// The registry.
    [[nodiscard]] registry_type &registry() noexcept { return *target; }

private:
    registry_type *target{};
};

/// Connects listeners to the signals of one pool of Type; each call returns the helper, so calls chain.
template<typename Registry, typename Type>
struct sigh_helper<Registry, Type> final : sigh_helper<Registry> {
    /// Registry type.
    using registry_type = Registry;

    /// A helper over the pool `id` of Type in ref.
    sigh_helper(registry_type &ref, const id_type id = type_hash<Type>::value())
        : sigh_helper<Registry>{ref}, pool{id} {}

    /// Connects Candidate (with an optional instance or payload) to on_construct of the pool.
    template<auto Candidate, typename... Args>
    auto on_construct(Args &&...args) {
        return attach<Candidate>(this->registry().template on_construct<Type>(pool), std::forward<Args>(args)...);
    }

    /// Connects Candidate (with an optional instance or payload) to on_update of the pool.
    template<auto Candidate, typename... Args>
    auto on_update(Args &&...args) {
        return attach<Candidate>(this->registry().template on_update<Type>(pool), std::forward<Args>(args)...);
    }

    /// Connects Candidate (with an optional instance or payload) to on_destroy of the pool.
    template<auto Candidate, typename... Args>
    auto on_destroy(Args &&...args) {
        return attach<Candidate>(this->registry().template on_destroy<Type>(pool), std::forward<Args>(args)...);
    }

private:
    // Connects through the sink of one of the pool's signals and hands the helper back for the next call.
    template<auto Candidate, typename Sink, typename... Args>
    sigh_helper attach(Sink signal_sink, Args &&...args) {
        signal_sink.template connect<Candidate>(std::forward<Args>(args)...);
        return *this;
    }

    id_type pool{};
};

/// Deduces the registry type.
template<typename Registry>
sigh_helper(Registry &) -> sigh_helper<Registry>;

} // namespace tessera

#endif
