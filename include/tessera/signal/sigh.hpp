// sigh: a signal handler that calls its listeners on publish; sink and connections manage the listeners.
#ifndef TESSERA_SIGNAL_SIGH_HPP
#define TESSERA_SIGNAL_SIGH_HPP

#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#include "../config/config.hpp"
#include "../config/std_parts.hpp"
#include "delegate.hpp"
#include "fwd.hpp"

namespace tessera {

namespace internal {

/// Calls one listener and hands what it returns (if anything, and if the collector takes it) to the collector.
/// True when the collector answers with something that converts to true, which ends the collection.
template<typename Ret, typename Collector, typename Listener, typename... Args>
bool feed_collector(Collector &collector, const Listener &listener, Args &...args) {
    if constexpr (!std::is_void_v<Ret> && std::is_invocable_v<Collector &, Ret>) {
        using answer = std::invoke_result_t<Collector &, Ret>;
        if constexpr (std::is_convertible_v<answer, bool>) {
            return static_cast<bool>(collector(listener(args...)));
        } else {
            collector(listener(args...));
        }
    } else {
        listener(args...);
        using answer = std::invoke_result_t<Collector &>;
        if constexpr (std::is_convertible_v<answer, bool>) {
            return static_cast<bool>(collector());
        } else {
            collector();
        }
    }
    return false;
}

} // namespace internal

/// Primary template, left undefined: a signal is always declared with a function type.
template<typename Type, typename Allocator>
class sigh;

/// A list of listeners, called from the most recently connected to the first one on every publish.
/// Listeners are connected and disconnected through a sink, e.g. `sink{signal}.connect<&f>()`.
template<typename Ret, typename... Args, typename Allocator>
class sigh<Ret(Args...), Allocator> {
    template<typename>
    friend class sink;

    using listener_type = delegate<Ret(Args...)>;
    using listener_list =
        std::vector<listener_type, typename std::allocator_traits<Allocator>::template rebind_alloc<listener_type>>;

    // Visits the listeners from the most recent one back. The size is read again after each call, so a listener
    // that disconnects itself or others (and shrinks the list) never makes the walk read past the end; listeners
    // connected meanwhile are past the starting point and wait for the next publish.
    template<typename Visit>
    void walk(Visit visit) const {
        for (auto left = listeners.size(); left != 0u; left = std::min(left - 1u, listeners.size())) {
            if (visit(listeners[left - 1u])) {
                return;
            }
        }
    }

public:
    /// The allocator given by the user, rebound internally to the listeners' type.
    using allocator_type = Allocator;
    /// Unsigned integer type for the number of listeners.
    using size_type = std::size_t;
    /// The sink that connects listeners to this signal.
    using sink_type = sink<sigh<Ret(Args...), Allocator>>;

    /// An empty signal with a default-constructed allocator.
    sigh() noexcept(std::is_nothrow_default_constructible_v<allocator_type>) : sigh{allocator_type{}} {}

    /// An empty signal that allocates through allocator.
    explicit sigh(const allocator_type &allocator) noexcept : listeners{allocator} {}

    /// Copies the listeners; both signals then call the same candidates on the same instances.
    sigh(const sigh &other) = default;

    /// Copies the listeners into storage obtained from allocator.
    sigh(const sigh &other, const allocator_type &allocator) : listeners{other.listeners, allocator} {}

    /// Takes the listeners of other, which is left valid but unspecified.
    sigh(sigh &&other) noexcept = default;

    /// Takes the listeners of other into storage obtained from allocator.
    sigh(sigh &&other, const allocator_type &allocator) : listeners{std::move(other.listeners), allocator} {}

    /// Releases the storage; connections still referring to this signal must not be released afterwards.
    ~sigh() = default;

    /// Replaces the listeners with copies of those of other.
    sigh &operator=(const sigh &other) = default;

    /// Replaces the listeners with those of other.
    sigh &operator=(sigh &&other) noexcept(std::is_nothrow_move_assignable_v<listener_list>) = default;

    /// Exchanges the listeners with those of other.
    void swap(sigh &other) noexcept { listeners.swap(other.listeners); }

    /// A copy of the allocator.
    [[nodiscard]] constexpr allocator_type get_allocator() const noexcept {
        return allocator_type{listeners.get_allocator()};
    }

    /// The number of connected listeners.
    [[nodiscard]] size_type size() const noexcept { return listeners.size(); }

    /// True when no listener is connected, so callers can skip building the arguments of publish.
    [[nodiscard]] bool empty() const noexcept { return listeners.empty(); }

    /// Calls every listener, the most recently connected first.
    void publish(Args... args) const {
        walk([&args...](const listener_type &listener) {
            listener(args...);
            return false;
        });
    }

    /// Calls the listeners in publish order and hands each result to func (func takes no argument when Ret is void,
    /// or when it cannot take a Ret). Once func returns true, the remaining listeners are skipped.
    template<typename Func>
    void collect(Func func, Args... args) const {
        walk([&func, &args...](const listener_type &listener) {
            return internal::feed_collector<Ret>(func, listener, args...);
        });
    }

private:
    listener_list listeners;
};

/// A handle to one listener of a signal, returned by sink::connect. Copies refer to the same listener.
class connection {
    template<typename>
    friend class sink;

    connection(delegate<void(void *)> remover, void *signal) noexcept : undo{remover}, origin{signal} {}

public:
    /// A connection that refers to no listener.
    connection() = default;

    /// True until release is called; it does not track a listener disconnected by other means.
    [[nodiscard]] explicit operator bool() const noexcept { return static_cast<bool>(undo); }

    /// Disconnects the listener. The signal must still exist; calling it again does nothing.
    void release() {
        // emptied first, so that the connection is spent even if disconnecting throws; the thunk is called
        // directly: the emptiness check of delegate::operator() cannot fail here, and scoped_connection releases
        // from its destructor and noexcept assignments
        if (const auto remover = std::exchange(undo, {}); remover) {
            remover.target()(remover.data(), origin);
        }
    }

private:
    // Knows the candidate and instance of the listener, and receives the type-erased signal.
    delegate<void(void *)> undo{};
    void *origin{};
};

/// A connection that is released when it is destroyed or replaced. Move-only, so one listener has one owner.
struct scoped_connection {
    /// Refers to no listener.
    scoped_connection() = default;

    /// Takes over the listener of other.
    scoped_connection(const connection &other) : held{other} {}

    scoped_connection(const scoped_connection &) = delete;

    /// Takes over the listener of other, which then refers to none.
    scoped_connection(scoped_connection &&other) noexcept : held{other.take()} {}

    /// Disconnects the listener, if any.
    ~scoped_connection() { held.release(); }

    scoped_connection &operator=(const scoped_connection &) = delete;

    /// Disconnects the current listener, then takes over the listener of other.
    scoped_connection &operator=(scoped_connection &&other) noexcept {
        if (this != &other) {
            *this = other.take();
        }
        return *this;
    }

    /// Disconnects the current listener, then takes over other.
    scoped_connection &operator=(connection other) noexcept {
        held.release();
        held = other;
        return *this;
    }

    /// True while it refers to a listener.
    [[nodiscard]] explicit operator bool() const noexcept { return static_cast<bool>(held); }

    /// Disconnects the listener now; calling it again does nothing.
    void release() { held.release(); }

private:
    [[nodiscard]] connection take() noexcept { return std::exchange(held, connection{}); }

    connection held;
};

/// Primary template, left undefined: a sink is always declared over a sigh.
template<typename>
class sink;

/// Connects listeners to a signal and disconnects them. It refers to the signal and must not outlive it.
template<typename Ret, typename... Args, typename Allocator>
class sink<sigh<Ret(Args...), Allocator>> {
    using signal_type = sigh<Ret(Args...), Allocator>;
    using listener_type = typename signal_type::listener_type;

    // The listener Candidate becomes, with the instance or payload if there is one. Built the same way on connect
    // and on disconnect, so the two compare equal.
    template<auto Candidate, typename... Type>
    [[nodiscard]] static listener_type make_listener(Type *...value_or_instance) noexcept {
        listener_type made{};
        made.template connect<Candidate>(value_or_instance...);
        return made;
    }

    // What a connection calls to undo itself: the candidate is in the function, the instance in the payload.
    template<auto Candidate, typename... Type>
    static void undo_connect(const void *payload, void *signal) {
        sink reach{*static_cast<signal_type *>(signal)};
        if constexpr (sizeof...(Type) == 0u) {
            reach.remove(make_listener<Candidate>());
        } else {
            // The payload was taken from a Type *, so giving its constness back is sound.
            reach.remove(make_listener<Candidate>(static_cast<Type *>(const_cast<void *>(payload))...));
        }
    }

    [[nodiscard]] signal_type &target() const {
        TESSERA_ASSERT(owner != nullptr, "sink: the sink does not refer to a signal");
        return *owner;
    }

    // Removing keeps the order of the others, as publish and self-disconnection rely on it.
    void remove(const listener_type &listener) { std::erase(target().listeners, listener); }

    // A listener connected twice is kept once, at the most recent position.
    connection add(const listener_type &listener, const delegate<void(void *)> remover) {
        auto &all = target().listeners;
        std::erase(all, listener);
        all.push_back(listener);
        return connection{remover, owner};
    }

public:
    /// An invalid sink: using it is a misuse.
    sink() noexcept = default;

    /// A sink over ref.
    sink(signal_type &ref) noexcept : owner{std::addressof(ref)} {}

    /// True when the signal has no listener.
    [[nodiscard]] bool empty() const { return target().listeners.empty(); }

    /// Connects a free function, or a member that takes its object as the first argument. Connecting the
    /// same candidate again only moves it to the most recent position.
    template<auto Candidate>
    connection connect() {
        return add(make_listener<Candidate>(), delegate<void(void *)>{&undo_connect<Candidate>});
    }

    /// Connects a member of value_or_instance, or a free function that takes it first.
    template<auto Candidate, typename Type>
    connection connect(Type &value_or_instance) {
        return connect<Candidate>(std::addressof(value_or_instance));
    }

    /// Connects a member of value_or_instance, or a free function that takes it first.
    template<auto Candidate, typename Type>
    connection connect(Type *value_or_instance) {
        return add(make_listener<Candidate>(value_or_instance),
                   delegate<void(void *)>{&undo_connect<Candidate, Type>, value_or_instance});
    }

    /// Disconnects Candidate connected without an instance.
    template<auto Candidate>
    void disconnect() {
        remove(make_listener<Candidate>());
    }

    /// Disconnects Candidate connected with value_or_instance.
    template<auto Candidate, typename Type>
    void disconnect(Type &value_or_instance) {
        disconnect<Candidate>(std::addressof(value_or_instance));
    }

    /// Disconnects Candidate connected with value_or_instance.
    template<auto Candidate, typename Type>
    void disconnect(Type *value_or_instance) {
        remove(make_listener<Candidate>(value_or_instance));
    }

    /// Disconnects every listener bound to value_or_instance, whatever its candidate.
    void disconnect(const void *value_or_instance) {
        TESSERA_ASSERT(value_or_instance != nullptr, "sink: cannot disconnect a null instance");
        std::erase_if(target().listeners, [value_or_instance](const listener_type &listener) {
            return listener.data() == value_or_instance;
        });
    }

    /// Disconnects every listener.
    void disconnect() { target().listeners.clear(); }

    /// True if the sink refers to a signal.
    [[nodiscard]] explicit operator bool() const noexcept { return owner != nullptr; }

private:
    signal_type *owner{};
};

/// Deduces the sink of a signal, so that `sink{signal}` works.
template<typename Ret, typename... Args, typename Allocator>
sink(sigh<Ret(Args...), Allocator> &) -> sink<sigh<Ret(Args...), Allocator>>;

} // namespace tessera

#endif
