// The live inspector (docs/inspector.md): serves a registry over HTTP on the loopback, as a JSON API and a page that
// a person opens in a browser. An optional module: link the CMake target tessera::inspector (cpp-httplib and
// nlohmann-json); tessera/tessera.hpp never includes it.
#ifndef TESSERA_INSPECTOR_INSPECTOR_HPP
#define TESSERA_INSPECTOR_INSPECTOR_HPP

#include "components.hpp"
#include "fwd.hpp"
#include "options.hpp"
#include "request.hpp"
#include "server.hpp"
#include "service.hpp"
#include "timings.hpp"

#endif
