// The context variables of a registry (registry.ctx()): values of any type, found by type or by name, that
// systems share without making them components of some entity.
#ifndef TESSERA_ENTITY_TABLES_CONTEXT_HPP
#define TESSERA_ENTITY_TABLES_CONTEXT_HPP

#include "../../config/config.hpp"
#include "../../config/std_parts.hpp"
#include "../../core/any.hpp"
#include "../../core/fwd.hpp"
#include "../../core/type_info.hpp"
#include <type_traits>
#include <utility>
#include <vector>

namespace tessera::internal {

/// The context variables of a registry: a map from names to type-erased values, kept sorted by name in a vector (a
/// registry has a handful). Values live on the heap (no small buffer), so their addresses do not change while other
/// variables come and go.
template<typename Allocator>
class registry_context {
    using alloc_traits = std::allocator_traits<Allocator>;
    using value_type = basic_any<0u>;
    using entry_type = std::pair<id_type, value_type>;
    using container_type = std::vector<entry_type, typename alloc_traits::template rebind_alloc<entry_type>>;

    // the first entry whose name is not below `id`
    template<typename Self>
    [[nodiscard]] static auto lower_bound(Self &self, const id_type id) noexcept {
        auto first = self.ctx.begin();

        for (auto count = self.ctx.size(); count != 0u;) {
            const auto half = count / 2u;

            if (const auto mid = first + static_cast<typename container_type::difference_type>(half); mid->first < id) {
                first = mid + 1;
                count -= half + 1u;
            } else {
                count = half;
            }
        }

        return first;
    }

    // the entry named `id`, or end()
    template<typename Self>
    [[nodiscard]] static auto lookup(Self &self, const id_type id) noexcept {
        const auto it = lower_bound(self, id);
        return (it != self.ctx.end() && it->first == id) ? it : self.ctx.end();
    }

public:
    /// Allocator type.
    using allocator_type = typename alloc_traits::template rebind_alloc<std::pair<const id_type, value_type>>;

    /// Default constructor.
    registry_context() : registry_context{allocator_type{}} {}

    /// Constructs an empty context with the given allocator.
    explicit registry_context(const allocator_type &allocator)
        : ctx(typename container_type::allocator_type{allocator}) {}

    /// Creates the variable of type Type (default name) from args; an existing variable is returned unchanged.
    template<typename Type, typename... Args>
    Type &emplace(Args &&...args) {
        return emplace_as<Type>(type_id<Type>().hash(), std::forward<Args>(args)...);
    }

    /// Creates the variable `id` from args; an existing variable is returned unchanged. Type may be T & or
    /// const T & to store an alias to the argument.
    template<typename Type, typename... Args>
    Type &emplace_as(const id_type id, Args &&...args) {
        auto it = lower_bound(*this, id);

        if (it == ctx.end() || it->first != id) {
            it = ctx.emplace(it, std::piecewise_construct, std::forward_as_tuple(id),
                             std::forward_as_tuple(std::in_place_type<Type>, std::forward<Args>(args)...));
        }

        TESSERA_ASSERT(it->second.info() == type_id<Type>(), "ctx: the variable already exists with another type");
        return any_cast<Type &>(it->second);
    }

    /// Stores an owned copy (or moved value) of value under its type's name, replacing any variable there.
    template<typename Type>
    std::remove_cvref_t<Type> &insert_or_assign(Type &&value) {
        return insert_or_assign(type_id<Type>().hash(), std::forward<Type>(value));
    }

    /// Stores an owned copy (or moved value) of value under `id`, replacing any variable there.
    template<typename Type>
    std::remove_cvref_t<Type> &insert_or_assign(const id_type id, Type &&value) {
        value_type elem{std::in_place_type<std::remove_cvref_t<Type>>, std::forward<Type>(value)};

        if (const auto it = lower_bound(*this, id); it != ctx.end() && it->first == id) {
            it->second = std::move(elem);
            return any_cast<std::remove_cvref_t<Type> &>(it->second);
        } else {
            return any_cast<std::remove_cvref_t<Type> &>(ctx.emplace(it, id, std::move(elem))->second);
        }
    }

    /// Removes the variable if it exists and has type Type. Returns whether it did.
    template<typename Type>
    bool erase(const id_type id = type_id<Type>().hash()) {
        if (const auto it = lookup(*this, id); it != ctx.end() && it->second.info() == type_id<Type>()) {
            ctx.erase(it);
            return true;
        }

        return false;
    }

    /// The variable; it must exist and have type Type.
    template<typename Type>
    [[nodiscard]] const Type &get(const id_type id = type_id<Type>().hash()) const {
        const auto *elem = find<const Type>(id);
        TESSERA_ASSERT(elem != nullptr, "ctx: no variable of this type under this name");
        return *elem;
    }

    /// The variable; it must exist, have type Type, and be writable for a non-const Type.
    template<typename Type>
    [[nodiscard]] Type &get(const id_type id = type_id<Type>().hash()) {
        auto *elem = find<Type>(id);
        TESSERA_ASSERT(elem != nullptr, "ctx: no writable variable of this type under this name");
        return *elem;
    }

    /// Same as get.
    template<typename Type>
    [[nodiscard]] const Type &at(const id_type id = type_id<Type>().hash()) const {
        return get<Type>(id);
    }

    /// Same as get.
    template<typename Type>
    [[nodiscard]] Type &at(const id_type id = type_id<Type>().hash()) {
        return get<Type>(id);
    }

    /// Pointer to the variable, or nullptr if it is missing or has another type.
    template<typename Type>
    [[nodiscard]] const Type *find(const id_type id = type_id<Type>().hash()) const {
        const auto it = lookup(*this, id);
        return (it == ctx.cend()) ? nullptr : any_cast<const Type>(&it->second);
    }

    /// Pointer to the variable, or nullptr if it is missing, has another type, or is a read-only alias and
    /// Type is not const.
    template<typename Type>
    [[nodiscard]] Type *find(const id_type id = type_id<Type>().hash()) {
        const auto it = lookup(*this, id);
        return (it == ctx.end()) ? nullptr : any_cast<Type>(&it->second);
    }

    /// True if the variable exists and has type Type.
    template<typename Type>
    [[nodiscard]] bool contains(const id_type id = type_id<Type>().hash()) const {
        const auto it = lookup(*this, id);
        return (it != ctx.cend()) && (it->second.info() == type_id<Type>());
    }

    /// Destroys every variable (aliases only stop referring to their objects).
    void clear() noexcept { ctx.clear(); }

private:
    container_type ctx;
};

} // namespace tessera::internal

#endif
