// Forward declarations of the replication module (target tessera::replication, standard library only): the marker
// of replicated entities, the source a server keeps per registry, the state it keeps per peer, the mirror a client
// applies messages with, and their aliases over tessera::registry. The core never includes these headers;
// docs/replication.md says what the module does.
#ifndef TESSERA_REPLICATION_FWD_HPP
#define TESSERA_REPLICATION_FWD_HPP

#include "../entity/fwd.hpp"
#include <cstdint>

namespace tessera::replication {

struct replicated;
enum class errc : std::uint8_t;
class error;
class message;

template<typename Registry, typename... Type>
class basic_source;

template<typename Registry, typename... Type>
class basic_peer;

template<typename Registry, typename... Type>
class basic_mirror;

/// Replicates the listed component types of the entities of a tessera::registry that carry `replicated`.
template<typename... Type>
using source = basic_source<registry, Type...>;

/// What a source keeps for one peer (the result of source.connect()).
template<typename... Type>
using peer = basic_peer<registry, Type...>;

/// Applies what a source sends to a tessera::registry of the client.
template<typename... Type>
using mirror = basic_mirror<registry, Type...>;

} // namespace tessera::replication

#endif
