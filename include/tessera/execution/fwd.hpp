// Forward declarations of the parallel execution module (target tessera::execution, which links oneTBB). The core
// never includes these headers; docs/parallel.md says what the module offers.
#ifndef TESSERA_EXECUTION_FWD_HPP
#define TESSERA_EXECUTION_FWD_HPP

#include "../entity/fwd.hpp"

namespace tessera::execution {

template<typename Registry>
class basic_executor;

/// Runs the dependency graph of an organizer on oneTBB, once per call to run().
using executor = basic_executor<registry>;

} // namespace tessera::execution

#endif
