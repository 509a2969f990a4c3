// Forward declarations of the inspector module (target tessera::inspector, which links cpp-httplib and
// nlohmann-json). The core never includes these headers; docs/inspector.md says what the module offers.
#ifndef TESSERA_INSPECTOR_FWD_HPP
#define TESSERA_INSPECTOR_FWD_HPP

#include "../entity/fwd.hpp"

namespace tessera::inspector {

struct options;
struct request;
struct response;
class task_clock;
class frame_timings;

template<typename Registry>
class basic_service;

template<typename Registry>
class basic_server;

/// The inspector's API on a tessera::registry, without the HTTP server.
using service = basic_service<registry>;

/// Serves a tessera::registry over HTTP on the loopback: the JSON API and the page.
using server = basic_server<registry>;

} // namespace tessera::inspector

#endif
