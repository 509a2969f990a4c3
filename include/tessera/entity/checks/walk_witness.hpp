// How the iterators over a walk (engine/block_walk.hpp) start and step: the entity iterators and each() iterators of
// views (view.hpp) and the each() iterators of groups (group.hpp) all go through walk_witness, so the
// iteration checks of TESSERA_DEBUG_ITERATION (checks/iteration_log.hpp) sit around every step in one place.
#ifndef TESSERA_ENTITY_CHECKS_WALK_WITNESS_HPP
#define TESSERA_ENTITY_CHECKS_WALK_WITNESS_HPP

#include "../../config/config.hpp"
#include "../entity.hpp"
#include "iteration_log.hpp"
#include <cstddef>

namespace tessera::internal {

/// How an iterator over a walk starts and steps: through this, so that the iteration checks of
/// TESSERA_DEBUG_ITERATION sit around every step of every walk iterator in one place. It remembers the entity the
/// iterator stood on before the user's code ran, since the lead's position may hold another one afterwards (the
/// current entity is allowed to leave). Without TESSERA_DEBUG_ITERATION it is empty (iterators keep it as a
/// [[no_unique_address]] member) and only moves the walk.
template<typename Common, std::size_t Count>
struct walk_witness {
#if TESSERA_DEBUG_ITERATION
    /// The checks (checks/iteration_log.hpp).
    iteration_witness<Common, Count> witness{};
    /// The entity the iterator stands on.
    typename Common::entity_type current{null};
#endif

    /// Starts the walk at position `from` of its lead (block_walk::start).
    template<typename Walk>
    TESSERA_FORCE_INLINE void start(Walk &walk, const std::ptrdiff_t from, const bool known = false) {
        walk.start(from, known);
        seen(walk);
    }

    /// Moves the walk to the next entity (block_walk::next), after checking what the user's code did meanwhile.
    template<typename Walk>
    TESSERA_FORCE_INLINE void step(Walk &walk) {
#if TESSERA_DEBUG_ITERATION
        witness.check(current, static_cast<std::size_t>(walk.position()));
#endif
        walk.next();
        seen(walk);
    }

private:
    template<typename Walk>
    TESSERA_FORCE_INLINE void seen([[maybe_unused]] const Walk &walk) noexcept {
#if TESSERA_DEBUG_ITERATION
        current = walk.position() >= 0 ? walk.current() : typename Common::entity_type{null};
#endif
    }
};

/// it++ of the iterators over a walk: a copy taken before ++it.
template<typename Iterator>
[[nodiscard]] Iterator walk_post_step(Iterator &it) {
    Iterator before = it;
    ++it;
    return before;
}

} // namespace tessera::internal

#endif
