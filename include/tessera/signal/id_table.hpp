// id_table: a small map from id_type names to values, used by the dispatcher and the emitter to find the queue or
// the handler of an event type. Lookups are a multiplicative hash and a short linear probe into a flat index.
#ifndef TESSERA_SIGNAL_ID_TABLE_HPP
#define TESSERA_SIGNAL_ID_TABLE_HPP

#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "../config/std_parts.hpp"
#include "../core/fwd.hpp"

namespace tessera::internal {

/// Values named by ids, kept in insertion order (erasing moves the last entry into the hole). The probe index holds
/// positions into the entry array, so growing it never moves a value.
template<typename Value, typename Allocator>
class id_table {
public:
    /// One named value.
    struct entry {
        /// The name.
        id_type name;
        /// The value.
        Value value;
    };

private:
    using alloc_traits = std::allocator_traits<Allocator>;
    using entry_container = std::vector<entry, typename alloc_traits::template rebind_alloc<entry>>;
    using slot_container = std::vector<std::uint32_t, typename alloc_traits::template rebind_alloc<std::uint32_t>>;

    // Fibonacci hashing: the top bits of the product spread names that differ only in their low bits.
    [[nodiscard]] std::size_t home_of(const id_type name) const noexcept {
        const auto mixed = static_cast<std::uint64_t>(name) * 0x9E3779B97F4A7C15ull;
        return static_cast<std::size_t>(mixed >> shift);
    }

    // Slot of `name`, or of the empty slot where it would go. The index must not be empty.
    [[nodiscard]] std::size_t probe(const id_type name) const noexcept {
        const auto mask = slots.size() - 1u;
        auto pos = home_of(name);
        while (slots[pos] != 0u && entries[slots[pos] - 1u].name != name) {
            pos = (pos + 1u) & mask;
        }
        return pos;
    }

    // Rebuilds the index for at least `count` entries, with at most half of the slots in use.
    void reindex(const std::size_t count) {
        const auto capacity = std::max<std::size_t>(std::bit_ceil(count * 2u), 8u);
        slots.assign(capacity, 0u);
        shift = 64 - std::countr_zero(capacity);
        fill_index();
    }

    void fill_index() noexcept {
        for (std::size_t pos{}; pos < entries.size(); ++pos) {
            slots[probe(entries[pos].name)] = static_cast<std::uint32_t>(pos + 1u);
        }
    }

public:
    /// An empty table that allocates through `allocator`; nothing is allocated before the first insertion.
    explicit id_table(const Allocator &allocator) noexcept : entries{allocator}, slots{allocator}, shift{} {}

    /// Takes over the entries of `other`, which is left empty.
    id_table(id_table &&other) noexcept
        : entries{std::move(other.entries)}, slots{std::move(other.slots)}, shift{other.shift} {
        other.clear_all();
    }

    /// Takes over the entries of `other` into memory from `allocator`; `other` is left empty.
    id_table(id_table &&other, const Allocator &allocator)
        : entries{std::move(other.entries), allocator}, slots{std::move(other.slots), allocator}, shift{other.shift} {
        other.clear_all();
    }

    id_table(const id_table &) = delete;
    id_table &operator=(const id_table &) = delete;
    id_table &operator=(id_table &&) = delete;
    ~id_table() = default;

    /// Exchanges the contents with `other`.
    void swap(id_table &other) noexcept {
        entries.swap(other.entries);
        slots.swap(other.slots);
        std::swap(shift, other.shift);
    }

    /// The value named `name`, or null.
    [[nodiscard]] Value *find(const id_type name) noexcept {
        return const_cast<Value *>(std::as_const(*this).find(name));
    }

    /// The value named `name`, or null.
    [[nodiscard]] const Value *find(const id_type name) const noexcept {
        if (slots.empty()) {
            return nullptr;
        }
        const auto at = slots[probe(name)];
        return at == 0u ? nullptr : &entries[at - 1u].value;
    }

    /// Adds a value under a name that is not in the table yet, and returns it.
    Value &insert(const id_type name, Value value) {
        if ((entries.size() + 1u) * 2u > slots.size()) {
            reindex(entries.size() + 1u);
        }
        const auto pos = probe(name);
        entries.push_back(entry{name, std::move(value)});
        slots[pos] = static_cast<std::uint32_t>(entries.size());
        return entries.back().value;
    }

    /// Removes the value named `name`, if any; the last entry takes its place.
    void erase(const id_type name) noexcept {
        const auto at = slots.empty() ? 0u : slots[probe(name)];
        if (at != 0u) {
            if (at != entries.size()) {
                entries[at - 1u] = std::move(entries.back());
            }
            entries.pop_back();
            // The index keeps its size, so erasing never allocates.
            std::fill(slots.begin(), slots.end(), 0u);
            fill_index();
        }
    }

    /// Removes every entry.
    void clear() noexcept {
        entries.clear();
        std::fill(slots.begin(), slots.end(), 0u);
    }

    /// Entries in insertion order.
    [[nodiscard]] entry_container &items() noexcept { return entries; }

    /// Entries in insertion order.
    [[nodiscard]] const entry_container &items() const noexcept { return entries; }

    /// The allocator of the entries.
    [[nodiscard]] Allocator get_allocator() const noexcept { return Allocator{entries.get_allocator()}; }

private:
    void clear_all() noexcept {
        entries.clear();
        slots.clear();
    }

    entry_container entries;
    slot_container slots;
    int shift;
};

} // namespace tessera::internal

#endif
