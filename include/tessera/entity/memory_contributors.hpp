// Memory that lives outside a registry's pools but exists because of it (a replication source's history, a cache
// a module keeps per registry): a module lists itself in a memory_contributors value stored in the registry's
// context, and registry.memory_report() adds one row per entry. An extra: the core never includes it; only
// memory_report.hpp reads it, and only when the context holds one.
#ifndef TESSERA_ENTITY_MEMORY_CONTRIBUTORS_HPP
#define TESSERA_ENTITY_MEMORY_CONTRIBUTORS_HPP

#include "../config/config.hpp"
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace tessera {

/// The holders of memory a registry's memory report should show beside its pools. Store one in the registry's
/// context (`registry.ctx().emplace<memory_contributors>()`); each entry is measured when a report is made, so an
/// entry must be removed before its owner goes away.
class memory_contributors {
public:
    /// One holder: the row's name, the object measured and how to measure it.
    struct entry {
        /// The name of the row in the report.
        std::string name;
        /// The object handed to `bytes`; also what remove() looks for.
        const void *owner;
        /// The bytes `owner` holds now (called once per report, must not throw).
        std::size_t (*bytes)(const void *);
    };

    /// Lists `owner` under `name`; the report calls `bytes(owner)` each time it is made.
    void add(std::string name, const void *owner, std::size_t (*bytes)(const void *)) {
        TESSERA_ASSERT(owner != nullptr && bytes != nullptr,
                       "memory_contributors::add: an entry needs an owner and a function that measures it");
        list.push_back(entry{std::move(name), owner, bytes});
    }

    /// Removes every entry of `owner`; returns how many there were.
    std::size_t remove(const void *owner) noexcept {
        std::size_t count{};

        for (auto it = list.begin(); it != list.end();) {
            if (it->owner == owner) {
                it = list.erase(it);
                ++count;
            } else {
                ++it;
            }
        }

        return count;
    }

    /// The entries, in the order they were added.
    [[nodiscard]] const std::vector<entry> &entries() const noexcept { return list; }

private:
    std::vector<entry> list{};
};

} // namespace tessera

#endif
