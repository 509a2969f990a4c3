// The group handlers of a registry: the registry owns one handler per set of type lists, finds it again by the
// lists' identity, and asks the handlers which pools they own or use (a pool a group owns cannot be sorted, and
// one a group uses cannot be discarded).
#ifndef TESSERA_ENTITY_TABLES_GROUP_TABLE_HPP
#define TESSERA_ENTITY_TABLES_GROUP_TABLE_HPP

#include "../../config/config.hpp"
#include "../../config/std_parts.hpp"
#include "../../core/fwd.hpp"
#include "../../core/type_info.hpp"
#include "../group.hpp"
#include "pool_owner.hpp"
#include <cstddef>
#include <utility>
#include <vector>

namespace tessera::internal {

/// The group handlers of a registry whose allocator is Allocator, by the identity of their type lists. A registry
/// has a few groups: they are kept in a vector, found by a linear search, each handler owned the way pools are.
template<typename Allocator>
class group_table final {
    using alloc_traits = std::allocator_traits<Allocator>;
    using owner_type = pool_owner<group_descriptor, Allocator>;
    using value_type = std::pair<id_type, owner_type>;
    using container_type = std::vector<value_type, typename alloc_traits::template rebind_alloc<value_type>>;

public:
    /// Constructs an empty table with the given allocator.
    explicit group_table(const Allocator &allocator) : groups(typename container_type::allocator_type{allocator}) {}

    /// Exchanges the contents with another table (cheap: no element moves).
    void swap(group_table &other) noexcept { groups.swap(other.groups); }

    /// The handler of type Handler for the group `id`, or nullptr if the group was never made.
    template<typename Handler>
    [[nodiscard]] Handler *find(const id_type id) const {
        for (auto &&entry : groups) {
            if (entry.first == id) {
                return static_cast<Handler *>(entry.second.get());
            }
        }

        return nullptr;
    }

    /// Makes the handler of the group `id` from its pools; the group must not exist yet.
    template<typename Handler, typename... Pool>
    Handler &emplace(const id_type id, const Allocator &allocator, Pool &...pool) {
        // room first: a failure leaves the table as it was, with no handler listening to the pools
        groups.reserve(groups.size() + 1u);
        auto handler = owner_type::template make<Handler>(allocator, allocator, pool...);
        auto &made = static_cast<Handler &>(*handler);
        groups.emplace_back(id, std::move(handler));
        return made;
    }

    /// True if a group owns the pool of one of the listed types.
    template<typename... Type>
    [[nodiscard]] bool owned() const {
        for (auto &&entry : groups) {
            if ((entry.second->owned(type_id<Type>().hash()) || ...)) {
                return true;
            }
        }

        return false;
    }

    /// Misuse if a group owns the pool of Type; one check per type, so that the message names the type.
    template<typename Type>
    void assert_not_owned() const {
        TESSERA_ASSERT(!owned<Type>(), group_conflict_message<Type>::text.data());
    }

    /// True if a group uses the pool (owned, get or exclude), given as its sparse set base.
    [[nodiscard]] bool uses(const void *pool) const {
        for (auto &&entry : groups) {
            if (entry.second->uses(pool)) {
                return true;
            }
        }

        return false;
    }

    /// The bytes the handlers hold for member sets of their own (non-owning groups).
    [[nodiscard]] std::size_t member_set_bytes() const noexcept {
        std::size_t bytes{};

        for (const auto &entry : groups) {
            bytes += entry.second->member_set_bytes();
        }

        return bytes;
    }

    /// Gives back the spare memory of every handler's set of members (registry::shrink_to_fit).
    void shrink_to_fit() {
        for (auto &&entry : groups) {
            entry.second->shrink_to_fit();
        }
    }

private:
    container_type groups;
};

} // namespace tessera::internal

#endif
