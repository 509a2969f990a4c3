// basic_dispatcher: typed event queues. Events are delivered at once (trigger) or stored and delivered in a batch
// (enqueue, then update); listeners connect through the sink of each queue.
#ifndef TESSERA_SIGNAL_DISPATCHER_HPP
#define TESSERA_SIGNAL_DISPATCHER_HPP

#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#include "../config/config.hpp"
#include "../config/std_parts.hpp"
#include "../core/fwd.hpp"
#include "../core/type_info.hpp"
#include "fwd.hpp"
#include "id_table.hpp"
#include "sigh.hpp"

namespace tessera {

namespace internal {

/// What the dispatcher does with a queue without knowing its event type. One virtual call per queue and operation,
/// never one per event.
template<typename Allocator>
class event_queue_base {
public:
    /// The queue knows the type of its events, for the check that one name is not used for two types.
    explicit event_queue_base(const type_info &event) noexcept : event_type{&event} {}

    event_queue_base(const event_queue_base &) = delete;
    event_queue_base &operator=(const event_queue_base &) = delete;

    /// Delivers the stored events to the listeners.
    virtual void deliver() = 0;
    /// Drops the stored events.
    virtual void discard() noexcept = 0;
    /// Disconnects every listener bound to `instance`.
    virtual void disconnect(const void *instance) = 0;
    /// Number of stored events.
    [[nodiscard]] virtual std::size_t pending() const noexcept = 0;
    /// Destroys the queue and gives its memory back to (a rebound copy of) `allocator`.
    virtual void release(const Allocator &allocator) noexcept = 0;

    /// The event type of the queue.
    [[nodiscard]] const type_info &event() const noexcept { return *event_type; }

protected:
    ~event_queue_base() = default;

private:
    const type_info *event_type;
};

/// The queue and the signal of one event type. Two buffers take turns: `update` delivers one while new events go to
/// the other, and both keep their capacity, so a steady flow of events allocates nothing.
template<typename Event, typename Allocator>
class event_queue final : public event_queue_base<Allocator> {
    using alloc_traits = std::allocator_traits<Allocator>;
    using buffer_type = std::vector<Event, typename alloc_traits::template rebind_alloc<Event>>;

public:
    /// The signal listeners connect to.
    using signal_type = sigh<void(Event &), Allocator>;

    /// An empty queue.
    explicit event_queue(const Allocator &allocator)
        : event_queue_base<Allocator>{type_id<Event>()}, signal{allocator}, incoming{allocator}, outgoing{allocator},
          delivering{false} {}

    void deliver() override {
        if (delivering) {
            // update() from a listener of this very queue: the outgoing buffer is being walked, so the events
            // stored since go through a buffer of their own.
            buffer_type batch{incoming.get_allocator()};
            batch.swap(incoming);
            for (auto &event : batch) {
                signal.publish(event);
            }
            return;
        }
        // Events enqueued by the listeners land in `incoming`, which no longer holds the batch being delivered.
        outgoing.swap(incoming);
        delivering = true;
        struct finish {
            event_queue &self;
            ~finish() {
                self.outgoing.clear();
                self.delivering = false;
            }
        } const done{*this};
        for (auto &event : outgoing) {
            signal.publish(event);
        }
    }

    void discard() noexcept override { incoming.clear(); }

    void disconnect(const void *instance) override { sink{signal}.disconnect(instance); }

    [[nodiscard]] std::size_t pending() const noexcept override { return incoming.size(); }

    void release(const Allocator &allocator) noexcept override {
        using queue_alloc = typename alloc_traits::template rebind_alloc<event_queue>;
        queue_alloc owner{allocator};
        std::allocator_traits<queue_alloc>::destroy(owner, this);
        std::allocator_traits<queue_alloc>::deallocate(owner, this, 1u);
    }

    /// The signal of the queue.
    [[nodiscard]] signal_type &listeners() noexcept { return signal; }

    /// Stores an event built from the arguments; an aggregate is built with braces.
    template<typename... Args>
    void store(Args &&...args) {
        if constexpr (std::is_constructible_v<Event, Args...>) {
            incoming.emplace_back(std::forward<Args>(args)...);
        } else {
            incoming.push_back(Event{std::forward<Args>(args)...});
        }
    }

private:
    signal_type signal;
    buffer_type incoming;
    buffer_type outgoing;
    bool delivering;
};

} // namespace internal

/// Typed event queues. Each event type (or each name given with it) has a queue of its own, created the first time
/// it is used. Listeners take the event as `Event &` (or `const Event &`) and connect through `sink<Event>()`.
/// `trigger` delivers an event at once; `enqueue` stores it until `update`.
template<typename Allocator>
class basic_dispatcher {
    using alloc_traits = std::allocator_traits<Allocator>;
    using queue_base = internal::event_queue_base<Allocator>;
    template<typename Event>
    using queue_type = internal::event_queue<Event, Allocator>;
    using table_type = internal::id_table<queue_base *, Allocator>;

    template<typename Event>
    [[nodiscard]] static queue_type<Event> &checked(queue_base &queue) {
        TESSERA_ASSERT(queue.event() == type_id<Event>(),
                       "dispatcher: this queue name is already used for another event type");
        return static_cast<queue_type<Event> &>(queue);
    }

    // The queue of `Event` named `name`, created if missing.
    template<typename Event>
    [[nodiscard]] queue_type<Event> &assure(const id_type name) {
        static_assert(std::is_same_v<Event, std::remove_cvref_t<Event>>,
                      "dispatcher: name the event type without const, volatile or reference");
        if (auto *const found = queues.find(name); found != nullptr) {
            return checked<Event>(**found);
        }
        using queue_alloc = typename alloc_traits::template rebind_alloc<queue_type<Event>>;
        queue_alloc owner{allocator};
        auto *const memory = std::allocator_traits<queue_alloc>::allocate(owner, 1u);
        try {
            std::allocator_traits<queue_alloc>::construct(owner, memory, allocator);
        } catch (...) {
            std::allocator_traits<queue_alloc>::deallocate(owner, memory, 1u);
            throw;
        }
        try {
            queues.insert(name, memory);
        } catch (...) {
            memory->release(allocator);
            throw;
        }
        return *memory;
    }

    template<typename Event>
    [[nodiscard]] const queue_type<Event> *find(const id_type name) const {
        auto *const found = queues.find(name);
        return found == nullptr ? nullptr : &checked<Event>(**found);
    }

    // Queues allocated by one allocator can only be released by an equal one.
    static constexpr bool movable_queues =
        alloc_traits::is_always_equal::value || alloc_traits::propagate_on_container_move_assignment::value;

    [[nodiscard]] static const Allocator &same_allocator(const Allocator &wanted,
                                                         [[maybe_unused]] const Allocator &current) {
        TESSERA_ASSERT(alloc_traits::is_always_equal::value || wanted == current,
                       "dispatcher: moving the queues to an unequal allocator is not supported");
        return wanted;
    }

    void release_all() noexcept {
        for (auto &item : queues.items()) {
            item.value->release(allocator);
        }
        queues.clear();
    }

public:
    /// The allocator given by the user; queues and events allocate through rebound copies of it.
    using allocator_type = Allocator;
    /// Unsigned integer type of sizes.
    using size_type = std::size_t;

    /// A dispatcher without queues.
    basic_dispatcher() : basic_dispatcher{allocator_type{}} {}

    /// A dispatcher without queues that allocates through `alloc`.
    explicit basic_dispatcher(const allocator_type &alloc) : allocator{alloc}, queues{alloc} {}

    basic_dispatcher(const basic_dispatcher &) = delete;

    /// Takes over the queues and listeners of `other`, which is left without queues.
    basic_dispatcher(basic_dispatcher &&other) noexcept
        : allocator{std::move(other.allocator)}, queues{std::move(other.queues)} {}

    /// Takes over the queues of `other` with `alloc`, which must compare equal to the allocator of `other` (the
    /// queues were allocated by it).
    basic_dispatcher(basic_dispatcher &&other, const allocator_type &alloc)
        : allocator{same_allocator(alloc, other.allocator)}, queues{std::move(other.queues), alloc} {}

    /// Destroys the queues with their pending events.
    ~basic_dispatcher() { release_all(); }

    basic_dispatcher &operator=(const basic_dispatcher &) = delete;

    /// Destroys the current queues and takes over those of `other`. The allocators must compare equal unless they
    /// propagate on move assignment.
    // noexcept exactly when it cannot fail; clang-tidy takes every move assignment for one that must not throw, also
    // this one, which checks that allocators that do not propagate compare equal
    // NOLINTNEXTLINE(bugprone-exception-escape)
    basic_dispatcher &operator=(basic_dispatcher &&other) noexcept(movable_queues) {
        if (this != &other) {
            if constexpr (!movable_queues) {
                static_cast<void>(same_allocator(allocator, other.allocator));
            }
            release_all();
            if constexpr (alloc_traits::propagate_on_container_move_assignment::value) {
                allocator = std::move(other.allocator);
            }
            queues.swap(other.queues);
        }
        return *this;
    }

    /// Exchanges the queues and listeners with `other`.
    void swap(basic_dispatcher &other) noexcept {
        using std::swap;
        swap(allocator, other.allocator);
        queues.swap(other.queues);
    }

    /// A copy of the allocator.
    [[nodiscard]] constexpr allocator_type get_allocator() const noexcept { return allocator; }

    /// The number of events of type `Event` stored under `name` (0 if there is no such queue).
    template<typename Event>
    [[nodiscard]] size_type size(const id_type name = type_hash<Event>::value()) const {
        const auto *const queue = find<std::decay_t<Event>>(name);
        return queue == nullptr ? 0u : queue->pending();
    }

    /// The number of events stored in all the queues.
    [[nodiscard]] size_type size() const noexcept {
        size_type count{};
        for (const auto &item : queues.items()) {
            count += item.value->pending();
        }
        return count;
    }

    /// The sink of the queue of `Event` named `name`, through which listeners connect and disconnect. Listeners take
    /// `Event &` or `const Event &`.
    template<typename Event>
    [[nodiscard]] auto sink(const id_type name = type_hash<Event>::value()) {
        return tessera::sink{assure<Event>(name).listeners()};
    }

    /// Delivers an event to the listeners of its type at once.
    template<typename Event>
    void trigger(Event event) {
        trigger(type_hash<std::decay_t<Event>>::value(), std::move(event));
    }

    /// Delivers an event to the listeners of the queue named `name` at once.
    template<typename Event>
    void trigger(const id_type name, Event event) {
        assure<std::decay_t<Event>>(name).listeners().publish(event);
    }

    /// Stores an `Event` built from the arguments until the next update.
    template<typename Event, typename... Args>
    void enqueue(Args &&...args) {
        enqueue_hint<Event>(type_hash<Event>::value(), std::forward<Args>(args)...);
    }

    /// Stores an event until the next update.
    template<typename Event>
    void enqueue(Event &&event) {
        enqueue_hint(type_hash<std::decay_t<Event>>::value(), std::forward<Event>(event));
    }

    /// Stores an `Event` built from the arguments in the queue named `name`.
    template<typename Event, typename... Args>
    void enqueue_hint(const id_type name, Args &&...args) {
        assure<Event>(name).store(std::forward<Args>(args)...);
    }

    /// Stores an event in the queue named `name`.
    template<typename Event>
    void enqueue_hint(const id_type name, Event &&event) {
        assure<std::decay_t<Event>>(name).store(std::forward<Event>(event));
    }

    /// Disconnects every listener bound to `instance`, in every queue.
    template<typename Type>
    void disconnect(Type &instance) {
        disconnect(std::addressof(instance));
    }

    /// Disconnects every listener bound to `instance`, in every queue.
    template<typename Type>
    void disconnect(Type *instance) {
        for (auto &item : queues.items()) {
            item.value->disconnect(instance);
        }
    }

    /// Drops the events stored in the queue of `Event` named `name`.
    template<typename Event>
    void clear(const id_type name = type_hash<Event>::value()) {
        assure<Event>(name).discard();
    }

    /// Drops the events stored in every queue.
    void clear() noexcept {
        for (auto &item : queues.items()) {
            item.value->discard();
        }
    }

    /// Delivers the events stored in the queue of `Event` named `name`, in the order they were stored. Events that
    /// listeners enqueue meanwhile wait for the next update.
    template<typename Event>
    void update(const id_type name = type_hash<Event>::value()) {
        assure<Event>(name).deliver();
    }

    /// Delivers the events of every queue that exists when the call starts, one queue after the other.
    void update() const {
        // By position and up to the count at the start: listeners may create queues meanwhile.
        const auto count = queues.items().size();
        for (std::size_t pos{}; pos < count; ++pos) {
            queues.items()[pos].value->deliver();
        }
    }

private:
    [[no_unique_address]] allocator_type allocator;
    table_type queues;
};

} // namespace tessera

#endif
