// The memory report of a registry: one row per pool (sizes, pages, bytes held), the entity storage, the
// registry's own tables, the memory modules hold for it (memory_contributors.hpp) and the totals, printable as an
// aligned table. registry.memory_report() builds it through
// memory_support (below), which the registry befriends; an extra, the core only forwards to it.
#ifndef TESSERA_ENTITY_MEMORY_REPORT_HPP
#define TESSERA_ENTITY_MEMORY_REPORT_HPP

#include "../config/std_parts.hpp"
#include "../core/fwd.hpp"
#include "../core/type_info.hpp"
#include "memory_contributors.hpp"
#include "pool_memory.hpp"
#include <array>
#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessera {

namespace internal {

/// Appends an unsigned integer in decimal.
inline void append_number(std::string &out, const std::size_t value) {
    std::array<char, 24u> digits{};
    const auto result = std::to_chars(digits.data(), digits.data() + digits.size(), value);
    out.append(digits.data(), result.ptr);
}

/// Appends `text` padded with spaces to `width`: on the left when right-aligned (numbers), else on the right.
inline void append_cell(std::string &out, const std::string_view text, const std::size_t width, const bool right) {
    const auto pad = width > text.size() ? width - text.size() : 0u;
    out.append(right ? pad : 0u, ' ').append(text).append(right ? 0u : pad, ' ');
}

} // namespace internal

/// The memory a registry holds, pool by pool. Rows are pool_memory values; `bytes` counts what each pool took
/// from its allocator for its arrays (see pool_memory). What is not counted is listed in docs/debugging.md.
class memory_report {
    static constexpr std::size_t columns = 8u;
    using cells = std::array<std::string, columns>;

    [[nodiscard]] std::string name_of(const pool_memory &row) const {
        for (auto &&[id, name] : labels) {
            if (id == row.id) {
                return name;
            }
        }

        std::string name{};
        internal::append_pool_name(name, row.type, row.id, row.named);
        return name;
    }

    [[nodiscard]] cells row_cells(const std::string &name, const pool_memory &row) const {
        cells out{};
        out[0] = name;
        internal::append_number(out[1], row.element_size);
        internal::append_number(out[2], row.size);
        internal::append_number(out[3], row.capacity);
        internal::append_number(out[4], row.sparse_pages);
        internal::append_number(out[5], row.packed_pages);
        internal::append_number(out[6], row.bytes);
        out[7] = share_of(row.bytes);
        return out;
    }

    [[nodiscard]] std::string share_of(const std::size_t bytes) const {
        // tenths of a percent, rounded, in integers: no floating-point formatting needed
        const auto total = total_bytes();
        const auto tenths = total == 0u ? 0u : (bytes * 1000u + total / 2u) / total;
        std::string out{};
        internal::append_number(out, tenths / 10u);
        out.append(1u, '.');
        internal::append_number(out, tenths % 10u);
        return out.append(1u, '%');
    }

public:
    /// Memory held for the registry outside its pools (one row per entry of the memory_contributors in its
    /// context).
    struct other_row {
        /// The name the contributor gave.
        std::string name;
        /// The bytes it held when the report was made.
        std::size_t bytes;
    };

    /// One row per pool, in the registry's order (the order of registry.storage()).
    std::vector<pool_memory> pools{};
    /// The entity storage.
    pool_memory entities{};
    /// The registry's own tables: the pool objects, the list of pools and the cache of default pools by type.
    std::size_t registry_bytes{};
    /// The member sets of non-owning groups (owning groups keep no set of their own).
    std::size_t group_bytes{};
    /// Names given to pools with label(); pools without one are shown by type (and name hash, for named pools).
    std::vector<std::pair<id_type, std::string>> labels{};
    /// The memory_contributors' rows, in the order they were added.
    std::vector<other_row> others{};

    /// Bytes of every pool, the entity storage, the groups, the registry's tables and the other rows.
    [[nodiscard]] std::size_t total_bytes() const noexcept {
        std::size_t total = entities.bytes + registry_bytes + group_bytes;

        for (const auto &row : pools) {
            total += row.bytes;
        }

        for (const auto &row : others) {
            total += row.bytes;
        }

        return total;
    }

    /// The row of pool `id`, or nullptr.
    [[nodiscard]] const pool_memory *find(const id_type id) const noexcept {
        const auto found = std::find_if(pools.begin(), pools.end(), [id](const auto &row) { return row.id == id; });
        return found == pools.end() ? nullptr : &*found;
    }

    /// Shows pool `id` as `name` in the table (a registry keeps only the hash of a pool's name).
    memory_report &label(const id_type id, const std::string_view name) {
        labels.emplace_back(id, std::string{name});
        return *this;
    }

    /// The report as an aligned table: one line per pool, then the entity storage, the other rows, the groups, the
    /// registry's tables and the total.
    [[nodiscard]] std::string to_string() const {
        std::vector<cells> lines{};
        lines.reserve(pools.size() + others.size() + 5u);
        lines.push_back({"pool", "elem", "size", "capacity", "sparse pages", "packed pages", "bytes", "share"});

        for (const auto &row : pools) {
            lines.push_back(row_cells(name_of(row), row));
        }

        lines.push_back(row_cells("(entities)", entities));

        for (const auto &row : others) {
            cells extra{};
            extra[0] = row.name;
            internal::append_number(extra[6], row.bytes);
            extra[7] = share_of(row.bytes);
            lines.push_back(std::move(extra));
        }

        for (const auto &[name, bytes] : {std::pair<const char *, std::size_t>{"(groups)", group_bytes},
                                          std::pair<const char *, std::size_t>{"(registry)", registry_bytes},
                                          std::pair<const char *, std::size_t>{"total", total_bytes()}}) {
            cells extra{};
            extra[0] = name;
            internal::append_number(extra[6], bytes);
            extra[7] = share_of(bytes);
            lines.push_back(std::move(extra));
        }

        std::array<std::size_t, columns> width{};

        for (const auto &line : lines) {
            for (std::size_t col{}; col < columns; ++col) {
                width[col] = std::max(width[col], line[col].size());
            }
        }

        std::string out{};

        for (const auto &line : lines) {
            std::string text{};

            for (std::size_t col{}; col < columns; ++col) {
                internal::append_cell(text, line[col], width[col], col != 0u);
                text.append(col + 1u == columns ? 0u : 2u, ' ');
            }

            text.erase(text.find_last_not_of(' ') + 1u);
            out.append(text).append(1u, '\n');
        }

        return out;
    }

    /// Writes to_string() to a stream (any type with operator<< for std::string_view).
    template<typename Stream>
    requires requires(Stream &stream, std::string_view text) { stream << text; }
    friend Stream &operator<<(Stream &stream, const memory_report &report) {
        const std::string text = report.to_string();
        stream << std::string_view{text};
        return stream;
    }
};

namespace internal {

/// How registry::memory_report() measures a registry: a row per pool, read through the shape each pool's owner
/// keeps (tables/pool_owner.hpp), then the entity storage, the groups' member sets, the registry's tables and a row
/// per entry of the memory_contributors in its context.
template<typename Registry>
struct memory_support {
    /// The report of `registry`. Allocates only the report.
    [[nodiscard]] static memory_report measure(const Registry &registry) {
        memory_report report{};
        report.registry_bytes = registry.pools.table_bytes();

        for (const auto &entry : registry.pools) {
            pool_memory row = pool_row(*entry.second, entry.second.shape());
            // measuring gives the type's hash, which is also the name of the type's default pool
            row.named = (entry.first != row.id);
            row.id = entry.first;
            report.pools.push_back(row);
            report.registry_bytes += entry.second.object_size();
        }

        report.group_bytes = registry.groups.member_set_bytes();
        report.entities = memory_of(registry.entities);

        if (const auto *contributors = registry.ctx().template find<memory_contributors>(); contributors) {
            report.others.reserve(contributors->entries().size());

            for (const auto &entry : contributors->entries()) {
                report.others.push_back(memory_report::other_row{entry.name, entry.bytes(entry.owner)});
            }
        }

        return report;
    }
};

} // namespace internal

} // namespace tessera

#endif
