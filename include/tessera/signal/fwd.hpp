// Forward declarations of the signal module, and the tag that builds an already connected delegate.
#ifndef TESSERA_SIGNAL_FWD_HPP
#define TESSERA_SIGNAL_FWD_HPP

#include "../config/std_parts.hpp"

namespace tessera {

/// A non-owning handle to a function, optionally curried with an instance or a payload.
template<typename>
class delegate;

/// Typed event queues: events are delivered at once or stored and delivered later.
template<typename = std::allocator<void>>
class basic_dispatcher;

/// The dispatcher with the default allocator.
using dispatcher = basic_dispatcher<>;

/// A base class that gives its derived class one listener per event type.
template<typename Derived, typename = std::allocator<void>>
class emitter;

/// A list of listeners that are all called on publish. The allocator defaults to std::allocator.
template<typename Type, typename Allocator = std::allocator<void>>
class sigh;

/// The object through which listeners are connected to, and disconnected from, a signal.
template<typename>
class sink;

/// A handle that can disconnect one listener later on.
class connection;

/// A connection that disconnects its listener when it goes out of scope.
struct scoped_connection;

/// Tag type that carries a candidate function at compile time, used to build connected delegates.
template<auto>
struct connect_arg_t {
    /// Explicit so that a braced empty list never turns into a tag by accident.
    explicit connect_arg_t() = default;
};

/// The tag value for a given candidate, e.g. `delegate{connect_arg<&f>}`.
template<auto Candidate>
inline constexpr connect_arg_t<Candidate> connect_arg{};

} // namespace tessera

#endif
