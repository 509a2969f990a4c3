// The porting tests: code written the way EnTT's documentation writes it, compiled against tessera. Porting is the
// rename below (plus tessera's header paths and TESSERA_* macros); whatever needs more is listed in
// docs/differences.md.
#ifndef TESSERA_TEST_PORTING_PORTING_HPP
#define TESSERA_TEST_PORTING_PORTING_HPP

#include <tessera/tessera.hpp>

namespace entt = tessera;

#endif
