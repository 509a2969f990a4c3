// emitter: a base class that gives a type one listener per event type, called with the event and the emitter
// itself; meant for objects that wrap asynchronous work and report what happened.
#ifndef TESSERA_SIGNAL_EMITTER_HPP
#define TESSERA_SIGNAL_EMITTER_HPP

#include <cstddef>
#include <type_traits>
#include <utility>

#include "../config/config.hpp"
#include "../config/std_parts.hpp"
#include "../core/fwd.hpp"
#include "../core/type_info.hpp"
#include "fwd.hpp"
#include "id_table.hpp"

namespace tessera {

namespace internal {

/// The event type a listener takes first, for on(listener) without an explicit event type: found for functions,
/// function pointers and callables with one call operator (lambdas that are not generic, std::function).
template<typename Func>
struct listener_event {};

/// See the primary template.
template<typename Ret, typename Event, typename... Other>
struct listener_event<Ret(Event, Other...)> {
    /// The event type.
    using type = std::remove_cvref_t<Event>;
};

/// See the primary template.
template<typename Ret, typename Event, typename... Other>
struct listener_event<Ret (*)(Event, Other...)> : listener_event<Ret(Event, Other...)> {};

/// See the primary template.
template<typename Ret, typename Class, typename Event, typename... Other>
struct listener_event<Ret (Class::*)(Event, Other...)> : listener_event<Ret(Event, Other...)> {};

/// See the primary template.
template<typename Ret, typename Class, typename Event, typename... Other>
struct listener_event<Ret (Class::*)(Event, Other...) const> : listener_event<Ret(Event, Other...)> {};

/// See the primary template.
template<typename Ret, typename Class, typename Event, typename... Other>
struct listener_event<Ret (Class::*)(Event, Other...) noexcept> : listener_event<Ret(Event, Other...)> {};

/// See the primary template.
template<typename Ret, typename Class, typename Event, typename... Other>
struct listener_event<Ret (Class::*)(Event, Other...) const noexcept> : listener_event<Ret(Event, Other...)> {};

/// The event type of a listener, or void when it cannot be found.
template<typename Func>
[[nodiscard]] consteval auto listener_event_of() noexcept {
    if constexpr (requires { typename listener_event<Func>::type; }) {
        return std::type_identity<typename listener_event<Func>::type>{};
    } else if constexpr (requires { &Func::operator(); }) {
        if constexpr (requires { typename listener_event<decltype(&Func::operator())>::type; }) {
            return std::type_identity<typename listener_event<decltype(&Func::operator())>::type>{};
        } else {
            return std::type_identity<void>{};
        }
    } else {
        return std::type_identity<void>{};
    }
}

} // namespace internal

/// Derive from `emitter<Derived>` to publish events: `struct my_emitter : tessera::emitter<my_emitter> {};`. Each event
/// type has at most one listener, set with `on<Event>(listener)`; `publish(event)` calls it with the event and the
/// derived object. A listener may replace or erase itself, or any other listener, while it runs.
template<typename Derived, typename Allocator>
class emitter {
    using alloc_traits = std::allocator_traits<Allocator>;

    // A listener of one event type, kept alive while a publish runs it even if it is replaced or erased meanwhile.
    class handler_base {
    public:
        handler_base() = default;
        handler_base(const handler_base &) = delete;
        handler_base &operator=(const handler_base &) = delete;

        virtual void call(void *event, Derived &owner) = 0;
        virtual void release(const Allocator &allocator) noexcept = 0;

        // Number of publishes inside the listener right now.
        std::size_t running{};
        // Removed from the emitter while running: the last publish to leave releases it.
        bool detached{};

    protected:
        ~handler_base() = default;
    };

    // Holds the listener as it was given (a lambda, a function pointer, a std::function...): the emitter needs no
    // std::function, so that <functional> stays out of every unit that includes it.
    template<typename Event, typename Func>
    class handler final : public handler_base {
    public:
        explicit handler(Func listener) : func{std::move(listener)} {}

        void call(void *event, Derived &owner) override { func(*static_cast<Event *>(event), owner); }

        void release(const Allocator &allocator) noexcept override {
            using node_alloc = typename alloc_traits::template rebind_alloc<handler>;
            node_alloc owner{allocator};
            std::allocator_traits<node_alloc>::destroy(owner, this);
            std::allocator_traits<node_alloc>::deallocate(owner, this, 1u);
        }

    private:
        Func func;
    };

    template<typename Event, typename Func>
    [[nodiscard]] handler_base *make_handler(Func listener) {
        using node_alloc = typename alloc_traits::template rebind_alloc<handler<Event, Func>>;
        node_alloc owner{allocator};
        auto *const memory = std::allocator_traits<node_alloc>::allocate(owner, 1u);
        try {
            std::allocator_traits<node_alloc>::construct(owner, memory, std::move(listener));
        } catch (...) {
            std::allocator_traits<node_alloc>::deallocate(owner, memory, 1u);
            throw;
        }
        return memory;
    }

    template<typename Event, typename Func>
    void set_listener(Func listener) {
        handler_base *const node = make_handler<Event, Func>(std::move(listener));
        const auto name = type_hash<Event>::value();

        if (auto *const found = handlers.find(name); found != nullptr) {
            detach(std::exchange(*found, node));
            return;
        }

        try {
            handlers.insert(name, node);
        } catch (...) {
            node->release(allocator);
            throw;
        }
    }

    void detach(handler_base *node) noexcept {
        if (node->running == 0u) {
            node->release(allocator);
        } else {
            node->detached = true;
        }
    }

    void detach_all() noexcept {
        for (auto &item : handlers.items()) {
            detach(item.value);
        }
        handlers.clear();
    }

    static constexpr bool movable_handlers =
        alloc_traits::is_always_equal::value || alloc_traits::propagate_on_container_move_assignment::value;

    [[nodiscard]] static const Allocator &same_allocator(const Allocator &wanted,
                                                         [[maybe_unused]] const Allocator &current) {
        TESSERA_ASSERT(alloc_traits::is_always_equal::value || wanted == current,
                       "emitter: moving the listeners to an unequal allocator is not supported");
        return wanted;
    }

public:
    /// The allocator given by the user; listeners are allocated through rebound copies of it.
    using allocator_type = Allocator;
    /// Unsigned integer type of sizes.
    using size_type = std::size_t;

    /// An emitter without listeners.
    emitter() : emitter{allocator_type{}} {}

    /// An emitter without listeners that allocates through `alloc`.
    explicit emitter(const allocator_type &alloc) : allocator{alloc}, handlers{alloc} {}

    emitter(const emitter &) = delete;

    /// Takes over the listeners of `other`, which is left without listeners. Listeners then receive this emitter.
    emitter(emitter &&other) noexcept : allocator{std::move(other.allocator)}, handlers{std::move(other.handlers)} {}

    /// Takes over the listeners of `other` with `alloc`, which must compare equal to the allocator of `other`.
    emitter(emitter &&other, const allocator_type &alloc)
        : allocator{same_allocator(alloc, other.allocator)}, handlers{std::move(other.handlers), alloc} {}

    /// Releases the listeners.
    virtual ~emitter() {
        static_assert(std::is_base_of_v<emitter, Derived>,
                      "emitter: the first template argument must be the class that derives from the emitter");
        detach_all();
    }

    emitter &operator=(const emitter &) = delete;

    /// Drops the current listeners and takes over those of `other`. The allocators must compare equal unless they
    /// propagate on move assignment.
    // noexcept exactly when it cannot fail; clang-tidy takes every move assignment for one that must not throw, also
    // this one, which checks that allocators that do not propagate compare equal
    // NOLINTNEXTLINE(bugprone-exception-escape)
    emitter &operator=(emitter &&other) noexcept(movable_handlers) {
        if (this != &other) {
            if constexpr (!movable_handlers) {
                static_cast<void>(same_allocator(allocator, other.allocator));
            }
            detach_all();
            if constexpr (alloc_traits::propagate_on_container_move_assignment::value) {
                allocator = std::move(other.allocator);
            }
            handlers.swap(other.handlers);
        }
        return *this;
    }

    /// Exchanges the listeners with `other`.
    void swap(emitter &other) noexcept {
        using std::swap;
        swap(allocator, other.allocator);
        handlers.swap(other.handlers);
    }

    /// A copy of the allocator.
    [[nodiscard]] constexpr allocator_type get_allocator() const noexcept { return allocator; }

    /// Calls the listener of the event's type, if there is one, with the event and this emitter.
    template<typename Event>
    void publish(Event event) {
        auto *const found = handlers.find(type_hash<Event>::value());
        if (found == nullptr) {
            return;
        }
        handler_base *const node = *found;
        ++node->running;
        struct leave {
            emitter &self;
            handler_base *node;
            ~leave() {
                if (--node->running == 0u && node->detached) {
                    node->release(self.allocator);
                }
            }
        } const guard{*this, node};
        node->call(std::addressof(event), static_cast<Derived &>(*this));
    }

    /// Sets the listener of `Event`, replacing the current one. It is called as `listener(Event &, Derived &)`.
    /// Without an explicit `Event`, the event type is the listener's first parameter (functions, std::function,
    /// lambdas that are not generic).
    template<typename Event = void, typename Func>
    void on(Func listener) {
        using event_type = std::conditional_t<std::is_void_v<Event>,
                                              typename decltype(internal::listener_event_of<Func>())::type, Event>;
        static_assert(!std::is_void_v<event_type>,
                      "emitter::on: the event type cannot be read from this listener; name it: on<Event>(listener)");
        static_assert(std::is_same_v<event_type, std::remove_cvref_t<event_type>>,
                      "emitter: name the event type without const, volatile or reference");
        static_assert(std::is_void_v<event_type> || std::is_invocable_v<Func &, event_type &, Derived &>,
                      "emitter::on: the listener must be callable as void(Event &, Derived &)");

        if constexpr (!std::is_void_v<event_type>) {
            set_listener<event_type>(std::move(listener));
        }
    }

    /// Removes the listener of `Event`, if any.
    template<typename Event>
    void erase() {
        const auto name = type_hash<std::remove_cvref_t<Event>>::value();
        if (auto *const found = handlers.find(name); found != nullptr) {
            detach(*found);
            handlers.erase(name);
        }
    }

    /// Removes every listener.
    void clear() noexcept { detach_all(); }

    /// Whether `Event` has a listener.
    template<typename Event>
    [[nodiscard]] bool contains() const {
        return handlers.find(type_hash<std::remove_cvref_t<Event>>::value()) != nullptr;
    }

    /// Whether no event type has a listener.
    [[nodiscard]] bool empty() const noexcept { return handlers.items().empty(); }

private:
    [[no_unique_address]] allocator_type allocator;
    internal::id_table<handler_base *, Allocator> handlers;
};

} // namespace tessera

#endif
