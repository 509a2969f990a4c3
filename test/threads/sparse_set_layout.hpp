// The data members of tessera::sparse_set as the library declares them without race detection, for the tests that
// check what TESSERA_DEBUG_RACES adds to it (race_free_layout.cpp without the macro, races.cpp with it).
#ifndef TESSERA_TEST_THREADS_SPARSE_SET_LAYOUT_HPP
#define TESSERA_TEST_THREADS_SPARSE_SET_LAYOUT_HPP

#include <cstddef>
#include <cstdint>
#include <tessera/entity/sparse_set.hpp>
#include <vector>

namespace tessera_test {

/// The same members, in the same order, as sparse_set with TESSERA_DEBUG_RACES at 0 (and the iteration log the
/// tests are built with); the virtual functions come with the base or with the one below.
struct sparse_set_layout
#if TESSERA_DEBUG_ITERATION
    : tessera::internal::iteration_log
#endif
{
#if !TESSERA_DEBUG_ITERATION
    /// Gives the mirror a virtual table, as the sparse set has.
    virtual ~sparse_set_layout() = default;
#endif
    std::vector<tessera::entity *> sparse;
    std::vector<tessera::entity> packed;
    const tessera::type_info *info{};
    tessera::deletion_policy mode{};
    bool grouped{};
    std::size_t head{};
    std::size_t disabled{};
    std::uint64_t edits{};
};

} // namespace tessera_test

#endif
