// How an inspector serves: the address and port, the access token, read-only mode, the body cap and where the page
// is. Read once, when the server starts (docs/inspector.md, "Options" and "Security").
#ifndef TESSERA_INSPECTOR_OPTIONS_HPP
#define TESSERA_INSPECTOR_OPTIONS_HPP

#include "fwd.hpp"
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

/// Where the server finds its page (index.html and the files it loads) unless options::page_directory says
/// otherwise: the CMake target tessera::inspector defines it, to the source tree while building and to
/// share/tessera/inspector once installed.
#ifndef TESSERA_INSPECTOR_PAGE_DIR
#    define TESSERA_INSPECTOR_PAGE_DIR ""
#endif

namespace tessera::inspector {

/// How a server listens and whom it answers.
struct options {
    /// The address to bind: the loopback by default. Any other address needs a token (the server refuses to start
    /// without one).
    std::string address{"127.0.0.1"};
    /// The port; 0 picks a free one (server.port() says which).
    std::uint16_t port{0};
    /// When not empty, every API request must carry `Authorization: Bearer <token>`: 401 without it, 403 with
    /// another token. The page asks for it (or reads it from the address: http://host:port/#token=...).
    std::string token{};
    /// Refuses every request that would change the registry (403).
    bool read_only{false};
    /// Largest request body accepted; a larger one is refused with 413 before it is parsed.
    std::size_t max_body{64u * 1024u};
    /// Host names (with their port, "name:port") accepted besides the bound address (and, on the loopback,
    /// localhost): a request whose Host header names anything else is refused, so that a web page cannot reach the
    /// server under a name of its own (DNS rebinding).
    std::vector<std::string> hosts{};
    /// The folder of the page; empty: the one the CMake target names (TESSERA_INSPECTOR_PAGE_DIR).
    std::string page_directory{};
    /// How long a request waits for the program to call poll() before it is answered 503 (and then never served).
    std::chrono::milliseconds answer_timeout{5000};
    /// Threads of the HTTP server: they parse requests and wait for their answers; none of them touches the
    /// registry.
    std::size_t threads{4u};
};

} // namespace tessera::inspector

#endif
