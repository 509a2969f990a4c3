// What the archive fuzz targets check after a load, accepted or refused: every pool refers to entities in use, a
// view and the owning group over the same types agree, and clearing the registry leaves no entity in use; and,
// after an accepted load, that saving and loading again gives the same identifiers.
#ifndef TESSERA_TEST_FUZZ_CONSISTENCY_HPP
#define TESSERA_TEST_FUZZ_CONSISTENCY_HPP

#include "model/interpreter.hpp"
#include <cstddef>
#include <cstdlib>

namespace tessera_fuzz {

/// Aborts (a finding for libFuzzer) if the registry is inconsistent; clears it.
inline void check_consistent(tessera_model::registry &reg) {
    using namespace tessera_model;

    for (auto [id, pool] : reg.storage()) {
        for (const auto entt : pool) {
            if (entt != tessera::tombstone && !reg.valid(entt)) {
                std::abort();
            }
        }
    }

    // the owning group and a view over the same types agree
    std::size_t count{};

    for (auto [entt, lhs, rhs] : reg.view<trivial, heavy>().each()) {
        count += (lhs.value == reg.get<trivial>(entt).value && rhs.text == reg.get<heavy>(entt).text) ? 1u : 0u;
    }

    if (count != reg.group<trivial>(tessera::get<heavy>).size()) {
        std::abort();
    }

    reg.clear();

    if (reg.storage<entity>().free_list() != 0u) {
        std::abort();
    }
}

/// Aborts unless `copy` (loaded from what was saved of `original`) has the same identifiers, in use or released.
inline void check_same_identifiers(const tessera_model::registry &original, const tessera_model::registry &copy) {
    for (const auto entt : *original.storage<tessera_model::entity>()) {
        if (copy.current(entt) != original.current(entt) || copy.valid(entt) != original.valid(entt)) {
            std::abort();
        }
    }
}

/// What both archive targets do with one input: a snapshot load into a registry with a group (when accepted, saved
/// and loaded again to the same identifiers), then two continuous loads into one registry; the registries are
/// checked whether the input was accepted or refused. load(loader, input) loads, resave(registry) returns what
/// load accepts, and a refused input throws Error.
template<typename Error, typename Input, typename Load, typename Resave>
void check_archive_input(const Input &input, Load load, Resave resave) {
    using namespace tessera_model;

    {
        registry reg;
        // the group sees every element the loader adds
        reg.group<trivial>(tessera::get<heavy>);
        bool loaded = false;

        try {
            tessera::snapshot_loader loader{reg};
            load(loader, input);
            loaded = true;
        } catch (const Error &) {
        }

        if (loaded) {
            const auto again = resave(reg);
            registry copy;
            tessera::snapshot_loader loader{copy};
            load(loader, again);
            check_same_identifiers(reg, copy);
        }

        check_consistent(reg);
    }

    registry reg;
    static_cast<void>(reg.create());
    tessera::continuous_loader loader{reg};

    // twice: the second load goes through the map the first one built
    for (int round = 0; round < 2; ++round) {
        try {
            load(loader, input);
        } catch (const Error &) {
        }
    }

    check_consistent(reg);
}

} // namespace tessera_fuzz

#endif
