// The group handlers of a registry: the registry owns one handler per set of type lists, finds it again by the
// lists' identity, and asks the handlers which pools they own or use (a pool a group owns cannot be sorted, and
// one a group uses cannot be discarded).
#ifndef TESSERA_ENTITY_TABLES_GROUP_TABLE_HPP
#define TESSERA_ENTITY_TABLES_GROUP_TABLE_HPP

#include "../../config/config.hpp"
#include "../../core/fwd.hpp"
#include "../../core/type_info.hpp"
#include "../group.hpp"
#include <algorithm>
#include <cstddef>
#include <functional>
#include <memory>
#include <unordered_map>
#include <utility>

namespace tessera::internal {

/// The group handlers of a registry whose allocator is Allocator, by the identity of their type lists.
template<typename Allocator>
class group_table final {
    using alloc_traits = std::allocator_traits<Allocator>;
    using value_type = std::pair<const id_type, std::shared_ptr<group_descriptor>>;
    using container_type =
        std::unordered_map<id_type, std::shared_ptr<group_descriptor>, std::hash<id_type>, std::equal_to<>,
                           typename alloc_traits::template rebind_alloc<value_type>>;

public:
    /// Constructs an empty table with the given allocator.
    explicit group_table(const Allocator &allocator) : groups{allocator} {}

    /// Exchanges the contents with another table (cheap: no element moves).
    void swap(group_table &other) noexcept { groups.swap(other.groups); }

    /// The handler of type Handler for the group `id`, or nullptr if the group was never made.
    template<typename Handler>
    [[nodiscard]] Handler *find(const id_type id) const {
        const auto it = groups.find(id);
        return (it == groups.cend()) ? nullptr : static_cast<Handler *>(it->second.get());
    }

    /// Makes the handler of the group `id` from its pools; the group must not exist yet.
    template<typename Handler, typename... Pool>
    Handler &emplace(const id_type id, const Allocator &allocator, Pool &...pool) {
        auto handler = std::allocate_shared<Handler>(allocator, allocator, pool...);
        groups.emplace(id, handler);
        return *handler;
    }

    /// True if a group owns the pool of one of the listed types.
    template<typename... Type>
    [[nodiscard]] bool owned() const {
        return std::any_of(groups.cbegin(), groups.cend(),
                           [](const auto &entry) { return (entry.second->owned(type_id<Type>().hash()) || ...); });
    }

    /// Misuse if a group owns the pool of Type; one check per type, so that the message names the type.
    template<typename Type>
    void assert_not_owned() const {
        TESSERA_ASSERT(!owned<Type>(), group_conflict_message<Type>::text.data());
    }

    /// True if a group uses the pool (owned, get or exclude), given as its sparse set base.
    [[nodiscard]] bool uses(const void *pool) const {
        return std::any_of(groups.cbegin(), groups.cend(),
                           [pool](const auto &entry) { return entry.second->uses(pool); });
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
        std::for_each(groups.begin(), groups.end(), [](auto &entry) { entry.second->shrink_to_fit(); });
    }

private:
    container_type groups;
};

} // namespace tessera::internal

#endif
