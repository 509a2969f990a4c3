// How walks (engine/block_walk.hpp) call the user's function: which storages hand out elements, whether the function
// takes the entity first, and the reference it gets for an element.
#ifndef TESSERA_ENTITY_ENGINE_WALK_CALL_HPP
#define TESSERA_ENTITY_ENGINE_WALK_CALL_HPP

#include "../../config/config.hpp"
#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace tessera::internal {

/// The indices, among Keep..., of the true ones, as an index sequence.
template<bool... Keep>
struct walk_kept {
    static constexpr auto count = (std::size_t{} + ... + std::size_t{Keep});

    static constexpr auto indices = [] {
        std::array<std::size_t, count> out{};
        std::size_t next{};
        std::size_t pos{};
        ((Keep ? void(out[next++] = pos++) : void(pos++)), ...);
        return out;
    }();

    template<std::size_t... Index>
    static auto make(std::index_sequence<Index...>) -> std::index_sequence<indices[Index]...>;

    /// The index sequence.
    using type = decltype(make(std::make_index_sequence<count>{}));
};

/// True if func takes the entity first: (entity, elements...). Checked before the other form, so that a generic
/// callback is never instantiated with arguments it does not expect.
template<typename Func, typename Entity, typename... Elem>
inline constexpr bool walk_with_entity_v = std::is_invocable_v<Func &, Entity, Elem...>;

/// True if func takes (entity, elements...) or (elements...).
template<typename Func, typename Entity, typename... Elem>
inline constexpr bool walk_callable_v =
    std::disjunction_v<std::is_invocable<Func &, Entity, Elem...>, std::is_invocable<Func &, Elem...>>;

} // namespace tessera::internal

#endif
