// What a replication source remembers beyond the change ticks of the pools: entities that became replicated
// (spawn) or stopped being replicated (despawn), and components removed from replicated entities (and the empty
// ones added, which have no ticks), each with the registry's tick. Kept in tick order, for a window of ticks: a
// delta walks the records after its baseline; older ones are dropped.
#ifndef TESSERA_REPLICATION_INTERNAL_HISTORY_HPP
#define TESSERA_REPLICATION_INTERNAL_HISTORY_HPP

#include "../../entity/change_tracking.hpp"
#include "format.hpp"
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tessera::internal {

/// Sorts a list of identifiers and removes repetitions.
template<typename Entity>
void sort_unique(std::vector<Entity> &list) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
}

/// What happened to an entity.
enum class replication_event : std::uint8_t {
    /// It got the replicated marker (it is created on the peers).
    spawn,
    /// It lost the marker, or was destroyed (it is destroyed on the peers).
    despawn,
    /// A component of an empty type was added (types with a value are found through their ticks).
    add,
    /// A component was removed.
    remove
};

/// One record: the entity, the tick, the component type (its position in the source's list) and the event.
template<typename Entity>
struct replication_record {
    Entity entt;
    tick_type tick;
    std::uint16_t type;
    replication_event kind;
};

/// The records of a source in tick order, those older than the window dropped.
template<typename Entity>
class replication_history {
public:
    using record_type = replication_record<Entity>;

    /// Appends a record; the registry's tick never goes back, so the order holds.
    void push(const Entity entt, const tick_type tick, const std::size_t type, const replication_event kind) {
        records.push_back(record_type{entt, tick, static_cast<std::uint16_t>(type), kind});
    }

    /// Drops the records at or before `limit`. The vector is compacted once its dead front is half of it, which
    /// keeps pushes amortized O(1).
    void drop_until(const tick_type limit) {
        while (head < records.size() && !tick_later(records[head].tick, limit)) {
            ++head;
        }

        if (head != 0u && head * 2u >= records.size()) {
            records.erase(records.begin(), records.begin() + static_cast<std::ptrdiff_t>(head));
            head = 0u;
        }
    }

    /// Position of the first record after `since` (binary search: the records are in tick order).
    [[nodiscard]] std::size_t first_after(const tick_type since) const noexcept {
        std::size_t first = head;

        for (auto count = records.size() - head; count != 0u;) {
            const auto half = count / 2u;

            if (tick_later(records[first + half].tick, since)) {
                count = half;
            } else {
                first += half + 1u;
                count -= half + 1u;
            }
        }

        return first;
    }

    /// True if a record is after `since`.
    [[nodiscard]] bool any_after(const tick_type since) const noexcept {
        return head < records.size() && tick_later(records.back().tick, since);
    }

    /// The record at `pos` (from first_after up to size()).
    [[nodiscard]] const record_type &operator[](const std::size_t pos) const noexcept { return records[pos]; }

    /// One past the last position.
    [[nodiscard]] std::size_t size() const noexcept { return records.size(); }

    /// Records kept.
    [[nodiscard]] std::size_t live() const noexcept { return records.size() - head; }

    /// Forgets everything.
    void clear() noexcept {
        records.clear();
        head = 0u;
    }

    /// Bytes allocated.
    [[nodiscard]] std::size_t memory() const noexcept { return records.capacity() * sizeof(record_type); }

private:
    std::vector<record_type> records{};
    std::size_t head{};
};

} // namespace tessera::internal

#endif
