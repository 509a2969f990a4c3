// sigh: a signal handler that calls its listeners on publish; sink and connections manage the listeners.
#ifndef TESSERA_SIGNAL_SIGH_HPP
#define TESSERA_SIGNAL_SIGH_HPP

#include <algorithm>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "../config/config.hpp"
#include "delegate.hpp"
#include "fwd.hpp"

namespace tessera {

/// Primary template, left undefined: a signal is always declared with a function type.
template<typename Type, typename Allocator>
class sigh;

/// A list of listeners, called from the most recently connected to the first one on every publish.
/// Listeners are connected and disconnected through a sink, e.g. `sink{signal}.connect<&f>()`.
template<typename Ret, typename... Args, typename Allocator>
class sigh<Ret(Args...), Allocator> {
    template<typename>
    friend class sink;

    using delegate_type = delegate<Ret(Args...)>;
    using alloc_traits = std::allocator_traits<Allocator>;
    using container_type = std::vector<delegate_type, typename alloc_traits::template rebind_alloc<delegate_type>>;

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
    explicit sigh(const allocator_type &allocator) noexcept : calls{allocator} {}

    /// Copies the listeners; both signals then call the same candidates on the same instances.
    sigh(const sigh &other) : calls{other.calls} {}

    /// Copies the listeners into storage obtained from allocator.
    sigh(const sigh &other, const allocator_type &allocator) : calls{other.calls, allocator} {}

    /// Takes the listeners of other, which is left valid but unspecified.
    sigh(sigh &&other) noexcept : calls{std::move(other.calls)} {}

    /// Takes the listeners of other into storage obtained from allocator.
    sigh(sigh &&other, const allocator_type &allocator) : calls{std::move(other.calls), allocator} {}

    /// Releases the storage; connections still referring to this signal must not be released afterwards.
    ~sigh() = default;

    /// Replaces the listeners with copies of those of other.
    sigh &operator=(const sigh &other) {
        calls = other.calls;
        return *this;
    }

    /// Replaces the listeners with those of other.
    sigh &operator=(sigh &&other) noexcept(std::is_nothrow_move_assignable_v<container_type>) {
        calls = std::move(other.calls);
        return *this;
    }

    /// Exchanges the listeners with those of other.
    void swap(sigh &other) noexcept {
        using std::swap;
        swap(calls, other.calls);
    }

    /// A copy of the allocator.
    [[nodiscard]] constexpr allocator_type get_allocator() const noexcept {
        return allocator_type{calls.get_allocator()};
    }

    /// The number of connected listeners.
    [[nodiscard]] size_type size() const noexcept { return calls.size(); }

    /// True when no listener is connected, so callers can skip building the arguments of publish.
    [[nodiscard]] bool empty() const noexcept { return calls.empty(); }

    /// Calls every listener, the most recently connected first.
    void publish(Args... args) const {
        // By index from the back: a listener that erases itself only shifts the entries already called.
        // Clamping to the current size keeps a listener that shrinks the list further from reading past it.
        for (auto pos = calls.size(); pos != 0u; pos = std::min(pos - 1u, calls.size())) {
            calls[pos - 1u](args...);
        }
    }

    /// Calls the listeners in publish order and hands each result to func (nothing when Ret is void).
    /// Once func returns true, the remaining listeners are skipped.
    template<typename Func>
    void collect(Func func, Args... args) const {
        for (auto pos = calls.size(); pos != 0u; pos = std::min(pos - 1u, calls.size())) {
            if constexpr (std::is_void_v<Ret>) {
                calls[pos - 1u](args...);
                if constexpr (std::is_invocable_r_v<bool, Func &>) {
                    if (func()) {
                        break;
                    }
                } else {
                    func();
                }
            } else {
                if constexpr (std::is_invocable_r_v<bool, Func &, Ret>) {
                    if (func(calls[pos - 1u](args...))) {
                        break;
                    }
                } else {
                    func(calls[pos - 1u](args...));
                }
            }
        }
    }

private:
    container_type calls;
};

/// A handle to one listener of a signal, returned by sink::connect. Copies refer to the same listener.
class connection {
    template<typename>
    friend class sink;

    connection(delegate<void(void *)> remover, void *ref) noexcept : disconnect{remover}, signal{ref} {}

public:
    /// A connection that refers to no listener.
    connection() = default;

    /// True until release is called; it does not track a listener disconnected by other means.
    [[nodiscard]] explicit operator bool() const noexcept { return static_cast<bool>(disconnect); }

    /// Disconnects the listener. The signal must still exist; calling it again does nothing.
    void release() {
        if (disconnect) {
            // the thunk is called directly: the emptiness check of delegate::operator() cannot fail here, and
            // scoped_connection releases from its destructor and noexcept assignments
            const auto remover = std::exchange(disconnect, delegate<void(void *)>{});
            remover.target()(remover.data(), signal);
        }
    }

private:
    // Knows the candidate and instance of the listener, and receives the type-erased signal.
    delegate<void(void *)> disconnect{};
    void *signal{};
};

/// A connection that is released when it is destroyed or replaced. Move-only, so one listener has one owner.
struct scoped_connection {
    /// Refers to no listener.
    scoped_connection() = default;

    /// Takes over the listener of other.
    scoped_connection(const connection &other) : conn{other} {}

    scoped_connection(const scoped_connection &) = delete;

    /// Takes over the listener of other, which then refers to none.
    scoped_connection(scoped_connection &&other) noexcept : conn{std::exchange(other.conn, connection{})} {}

    /// Disconnects the listener, if any.
    ~scoped_connection() { conn.release(); }

    scoped_connection &operator=(const scoped_connection &) = delete;

    /// Disconnects the current listener, then takes over the listener of other.
    scoped_connection &operator=(scoped_connection &&other) noexcept {
        if (this != &other) {
            conn.release();
            conn = std::exchange(other.conn, connection{});
        }
        return *this;
    }

    /// Disconnects the current listener, then takes over other.
    scoped_connection &operator=(connection other) noexcept {
        conn.release();
        conn = other;
        return *this;
    }

    /// True while it refers to a listener.
    [[nodiscard]] explicit operator bool() const noexcept { return static_cast<bool>(conn); }

    /// Disconnects the listener now; calling it again does nothing.
    void release() { conn.release(); }

private:
    connection conn;
};

/// Primary template, left undefined: a sink is always declared over a sigh.
template<typename>
class sink;

/// Connects listeners to a signal and disconnects them. It refers to the signal and must not outlive it.
template<typename Ret, typename... Args, typename Allocator>
class sink<sigh<Ret(Args...), Allocator>> {
    using signal_type = sigh<Ret(Args...), Allocator>;
    using delegate_type = typename signal_type::delegate_type;

    template<auto Candidate>
    static void release_unbound(const void *, void *signal) {
        sink{*static_cast<signal_type *>(signal)}.template disconnect<Candidate>();
    }

    template<auto Candidate, typename Type>
    static void release_bound(const void *payload, void *signal) {
        // Rebuilding the listener from its pointer gives the same delegate as a reference would.
        auto *instance = static_cast<Type *>(const_cast<void *>(payload));
        sink{*static_cast<signal_type *>(signal)}.template disconnect<Candidate>(instance);
    }

    [[nodiscard]] signal_type &target() const {
        TESSERA_ASSERT(signal != nullptr, "sink: the sink does not refer to a signal");
        return *signal;
    }

    // Erasing keeps the order of the others, as publish and self-disconnection rely on it.
    void erase(const delegate_type &listener) { std::erase(target().calls, listener); }

    connection insert(const delegate_type &listener, delegate<void(void *)> remover) {
        auto &calls = target().calls;
        std::erase(calls, listener);
        calls.push_back(listener);
        return connection{remover, signal};
    }

public:
    /// An invalid sink: using it is a misuse.
    sink() noexcept = default;

    /// A sink over ref.
    sink(signal_type &ref) noexcept : signal{std::addressof(ref)} {}

    /// True when the signal has no listener.
    [[nodiscard]] bool empty() const { return target().calls.empty(); }

    /// Connects a free function, or a member that takes its object as the first argument. Connecting the
    /// same candidate again only moves it to the most recent position.
    template<auto Candidate>
    connection connect() {
        delegate_type listener{};
        listener.template connect<Candidate>();
        return insert(listener, delegate<void(void *)>{&release_unbound<Candidate>});
    }

    /// Connects a member of value_or_instance, or a free function that takes it first.
    template<auto Candidate, typename Type>
    connection connect(Type &value_or_instance) {
        return connect<Candidate>(std::addressof(value_or_instance));
    }

    /// Connects a member of value_or_instance, or a free function that takes it first.
    template<auto Candidate, typename Type>
    connection connect(Type *value_or_instance) {
        delegate_type listener{};
        listener.template connect<Candidate>(value_or_instance);
        return insert(listener, delegate<void(void *)>{&release_bound<Candidate, Type>, value_or_instance});
    }

    /// Disconnects Candidate connected without an instance.
    template<auto Candidate>
    void disconnect() {
        delegate_type listener{};
        listener.template connect<Candidate>();
        erase(listener);
    }

    /// Disconnects Candidate connected with value_or_instance.
    template<auto Candidate, typename Type>
    void disconnect(Type &value_or_instance) {
        disconnect<Candidate>(std::addressof(value_or_instance));
    }

    /// Disconnects Candidate connected with value_or_instance.
    template<auto Candidate, typename Type>
    void disconnect(Type *value_or_instance) {
        delegate_type listener{};
        listener.template connect<Candidate>(value_or_instance);
        erase(listener);
    }

    /// Disconnects every listener bound to value_or_instance, whatever its candidate.
    void disconnect(const void *value_or_instance) {
        TESSERA_ASSERT(value_or_instance != nullptr, "sink: cannot disconnect a null instance");
        std::erase_if(target().calls, [value_or_instance](const delegate_type &listener) {
            return listener.data() == value_or_instance;
        });
    }

    /// Disconnects every listener.
    void disconnect() { target().calls.clear(); }

    /// True if the sink refers to a signal.
    [[nodiscard]] explicit operator bool() const noexcept { return signal != nullptr; }

private:
    signal_type *signal{};
};

/// Deduces the sink of a signal, so that `sink{signal}` works.
template<typename Ret, typename... Args, typename Allocator>
sink(sigh<Ret(Args...), Allocator> &) -> sink<sigh<Ret(Args...), Allocator>>;

} // namespace tessera

#endif
