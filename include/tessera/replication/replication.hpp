// The replication module (target tessera::replication, standard library only): a source on the server encodes,
// for each peer, the replicated state or a delta against what the peer acknowledged; a mirror on the client applies
// it to a registry of its own. docs/replication.md describes the API, the format and what a transport must provide.
#ifndef TESSERA_REPLICATION_REPLICATION_HPP
#define TESSERA_REPLICATION_REPLICATION_HPP

#include "error.hpp"
#include "fwd.hpp"
#include "message.hpp"
#include "mirror.hpp"
#include "source.hpp"

#endif
