// The recorder of one pool of a command buffer, buffer.storage<T>(id): the same commands as the buffer's own
// members, recorded for the pool named `id` (named pools, as registry.storage<T>(id) names them). Declared in
// command_buffer.hpp, which includes this header at its end.
#ifndef TESSERA_ENTITY_COMMANDS_BUFFER_POOL_HPP
#define TESSERA_ENTITY_COMMANDS_BUFFER_POOL_HPP

#include "../../core/fwd.hpp"
#include "../command_buffer.hpp"
#include <utility>

namespace tessera {

/// Records commands on the pool `id` of Type; made by basic_command_buffer::storage<Type>(id).
template<typename Registry>
template<typename Type>
class basic_command_buffer<Registry>::pool_recorder {
    friend class basic_command_buffer;

    pool_recorder(basic_command_buffer &buffer, const id_type name) noexcept : owner{&buffer}, id{name} {}

public:
    /// Records emplace<Type>(entt, args...) on this pool.
    template<typename... Args>
    void emplace(const entity_type entt, Args &&...args) {
        owner->template record_value<Type, value_mode::emplace, true>(entt, id, std::forward<Args>(args)...);
    }

    /// Records emplace_or_replace<Type>(entt, args...) on this pool.
    template<typename... Args>
    void emplace_or_replace(const entity_type entt, Args &&...args) {
        owner->template record_value<Type, value_mode::emplace, true>(entt, id, std::forward<Args>(args)...);
    }

    /// Records replace<Type>(entt, args...) on this pool.
    template<typename... Args>
    void replace(const entity_type entt, Args &&...args) {
        owner->template record_value<Type, value_mode::replace, true>(entt, id, std::forward<Args>(args)...);
    }

    /// Records patch<Type>(entt, func...) on this pool.
    template<typename... Func>
    void patch(const entity_type entt, Func &&...func) {
        owner->template record_patch<Type, true>(entt, id, std::forward<Func>(func)...);
    }

    /// Records remove<Type>(entt) on this pool.
    void remove(const entity_type entt) { owner->template record_remove<Type, true, pool_action::remove>(entt, id); }

    /// Records erase<Type>(entt) on this pool.
    void erase(const entity_type entt) { owner->template record_remove<Type, true, pool_action::erase>(entt, id); }

    /// Records disable<Type>(entt) on this pool: skipped at apply if the entity has no Type there by then.
    void disable(const entity_type entt) { owner->template record_remove<Type, true, pool_action::disable>(entt, id); }

    /// Records enable<Type>(entt) on this pool, as disable.
    void enable(const entity_type entt) { owner->template record_remove<Type, true, pool_action::enable>(entt, id); }

private:
    basic_command_buffer *owner;
    id_type id;
};

} // namespace tessera

#endif
