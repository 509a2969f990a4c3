// Mixins that wrap a storage: the signal mixin (construct, update and destroy signals, the default for every
// pool of a registry) and the reactive mixin (a storage that collects entities when registry events happen).
#ifndef TESSERA_ENTITY_MIXIN_HPP
#define TESSERA_ENTITY_MIXIN_HPP

#include "../config/config.hpp"
#include "../config/std_parts.hpp"
#include "../core/any.hpp"
#include "../core/type_info.hpp"
#include "../signal/delegate.hpp"
#include "../signal/sigh.hpp"
#include "checks/race_guard.hpp"
#include "entity.hpp"
#include "fwd.hpp"
#include "storage.hpp"
#include "view.hpp"
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tessera {

namespace internal {

/// The registry base of a mixin's owner: what bind() accepts besides the owner type itself.
template<typename Type>
using basic_registry_of = basic_registry<typename Type::entity_type, typename Type::base_type::allocator_type>;

/// Takes the registry out of a value handed over by bind(), if it is one. A derived registry handed over as its
/// base is converted by `down`, a lambda of the mixin: the mixin may be a friend of a registry that derives
/// privately, this function is not.
template<typename Registry, typename Type, typename Down>
[[nodiscard]] Registry *bound_registry(any &value, Down down) noexcept {
    using base_registry = basic_registry_of<Type>;

    if (auto *reg = any_cast<Registry>(&value); reg) {
        return reg;
    } else if constexpr (!std::is_same_v<Registry, base_registry>) {
        if (auto *base = any_cast<base_registry>(&value); base) {
            return down(base);
        }
    }

    return nullptr;
}

} // namespace internal

/// Adds construct, update and destroy signals to a storage. Listeners have the form void(Registry &, entity),
/// or any shorter argument list the delegate rules accept.
template<typename Type, typename Registry>
class basic_sigh_mixin : public Type {
    using underlying_type = Type;
    using owner_type = Registry;
    using basic_registry_type = internal::basic_registry_of<Type>;
    using sigh_type =
        sigh<void(owner_type &, const typename underlying_type::entity_type),
             typename std::allocator_traits<typename underlying_type::allocator_type>::template rebind_alloc<void>>;
    using underlying_iterator = typename underlying_type::base_type::basic_iterator;

    static_assert(std::is_base_of_v<basic_registry_type, owner_type>,
                  "sigh_mixin: the registry type must be basic_registry or derive from it");

    static constexpr bool is_entity_storage =
        std::is_same_v<typename underlying_type::element_type, typename underlying_type::entity_type>;

    [[nodiscard]] owner_type &owner_or_assert() const {
        TESSERA_ASSERT(owner != nullptr, "sigh_mixin: the storage has listeners but is not bound to a registry");
        return *owner;
    }

    void publish_construct(const typename underlying_type::entity_type entt) {
        if (!construction.empty()) {
            construction.publish(owner_or_assert(), entt);
        }
    }

    // publishes construct for the `count` identifiers an insertion just appended: they went to the back of the
    // packed array, then moved ahead of the disabled tail in the same order (sparse_set.hpp, settle_appended)
    void publish_appended(const std::size_t count) {
        if (!construction.empty()) {
            auto &reg = owner_or_assert();
            const auto to = underlying_type::size() - underlying_type::disabled_size();

            for (auto pos = to - count; pos < to; ++pos) {
                construction.publish(reg, underlying_type::data()[pos]);
            }
        }
    }

    void publish_update(const typename underlying_type::entity_type entt) {
        if (!update.empty()) {
            update.publish(owner_or_assert(), entt);
        }
    }

protected:
    /// Publishes on_disable before an element is disabled, on_enable after one is enabled; nothing when the state
    /// does not change.
    bool switch_state(const typename underlying_type::entity_type entt, const bool value) override {
        if (!value && !disabling.empty() && underlying_type::base_type::enabled(entt)) {
            disabling.publish(owner_or_assert(), entt);
        }

        const bool moved = underlying_type::switch_state(entt, value);

        if (moved && value && !enabling.empty()) {
            enabling.publish(owner_or_assert(), entt);
        }

        return moved;
    }

    /// Publishes destroy for each entity, then removes it.
    void pop(underlying_iterator first, underlying_iterator last) override {
        if (destruction.empty()) {
            underlying_type::pop(first, last);
        } else {
            auto &reg = owner_or_assert();
            const typename underlying_type::base_type &set = *this;

            // Positions first.index() down to last.index() + 1, walked by number rather than by a checked
            // iterator: each entity is read before the listeners run and looked up again afterwards, so a listener
            // may move it (sort the pool, for one). What the positions still to come hold changes too, though,
            // which only matters when the range does not run over the whole pool down to position 0.
            for (auto pos = first.index(), end = last.index(); pos != end; --pos) {
                const auto entt = set.data()[pos];
                [[maybe_unused]] const auto before = set.revision();
                destruction.publish(reg, entt);
                TESSERA_ASSERT(pos - 1 == end || set.revision() == before ||
                                   (end == -1 && pos + 1 == static_cast<decltype(pos)>(set.in_use())),
                               "sigh_mixin: a destroy listener sorted the pool or removed other entities from it "
                               "while part of the pool was being erased by position; the rest of the range no "
                               "longer holds the same entities (erase the pool whole, or by identifiers)");
                const auto it = set.find(entt);
                underlying_type::pop(it, it + 1);
            }
        }
    }

    /// Publishes destroy for each identifier a range of another set lists, then removes it.
    std::size_t pop_listed(underlying_iterator first, underlying_iterator last, const bool skip_absent) override {
        if (destruction.empty()) {
            return underlying_type::pop_listed(first, last, skip_absent);
        }

        auto &reg = owner_or_assert();
        const typename underlying_type::base_type &set = *this;

        return underlying_type::for_each_listed(
            first, last, skip_absent, [this, &reg, &set](const typename underlying_type::entity_type entt, auto) {
                destruction.publish(reg, entt);
                // looked up again: a listener may have moved it, or removed it already
                if (const auto it = set.find(entt); it != set.end()) {
                    underlying_type::pop(it, it + 1);
                }
            });
    }

    /// Publishes destroy for each entity (in use, for the entity storage), then removes them all.
    void pop_all() override {
        if (!destruction.empty()) {
            auto &reg = owner_or_assert();

            // plain position loops: nothing is removed before every listener has run, and a listener may sort the
            // pool, which would fail the checks of the pool's own iterators
            const bool holes = (underlying_type::policy() == deletion_policy::in_place);

            // the entity storage publishes for the identifiers in use only
            for (auto pos = underlying_type::base_type::in_use(); pos != 0u;) {
                if (const auto entt = underlying_type::data()[--pos]; !holes || entt != tombstone) {
                    destruction.publish(reg, entt);
                }
            }
        }

        underlying_type::pop_all();
    }

    /// Adds an entity through the opaque interface and publishes construct.
    underlying_iterator try_emplace(const typename underlying_type::entity_type entt, const bool force_back,
                                    const void *value) override {
        const auto it = underlying_type::try_emplace(entt, force_back, value);

        if (it != underlying_type::base_type::end()) {
            publish_construct(*it);
        }

        return it;
    }

    /// Adds every identifier of a range through the opaque interface, then publishes construct for each.
    underlying_iterator try_insert(const typename underlying_type::entity_type *first,
                                   const typename underlying_type::entity_type *last, const void *value) override {
        const auto it = underlying_type::try_insert(first, last, value);

        if (it != underlying_type::base_type::end()) {
            publish_appended(static_cast<std::size_t>(last - first));
        }

        return it;
    }

    /// Takes the registry this storage belongs to.
    void bind_any(any value) noexcept override {
        if (auto *reg = internal::bound_registry<owner_type, Type>(
                value, [](basic_registry_type *base) { return static_cast<owner_type *>(base); });
            reg) {
            owner = reg;

            if constexpr (requires(const Type &pool) { pool.tick_column(); }) {
                // a tracked storage stamps with the registry's tick, wherever the registry moves
                underlying_type::bind_any(forward_as_any(internal::tick_source{&owner->tick()}));
            }
        }

        underlying_type::bind_any(std::move(value));
    }

public:
    /// Allocator type.
    using allocator_type = typename underlying_type::allocator_type;
    /// Identifier type.
    using entity_type = typename underlying_type::entity_type;
    /// The registry type.
    using registry_type = owner_type;

    /// Default constructor.
    basic_sigh_mixin() : basic_sigh_mixin{allocator_type{}} {}

    /// Constructs an empty storage with the given allocator. Static on_construct, on_update and on_destroy
    /// members of the element type are connected right away.
    explicit basic_sigh_mixin(const allocator_type &allocator)
        : underlying_type{allocator}, owner{}, construction{allocator},
          destruction{allocator}, update{allocator}, enabling{allocator}, disabling{allocator} {
        using element_type = typename underlying_type::element_type;

        if constexpr (requires(owner_type & reg, entity_type entt) { element_type::on_construct(reg, entt); }) {
            sink{construction}.template connect<&element_type::on_construct>();
        }

        if constexpr (requires(owner_type & reg, entity_type entt) { element_type::on_update(reg, entt); }) {
            sink{update}.template connect<&element_type::on_update>();
        }

        if constexpr (requires(owner_type & reg, entity_type entt) { element_type::on_destroy(reg, entt); }) {
            sink{destruction}.template connect<&element_type::on_destroy>();
        }
    }

    basic_sigh_mixin(const basic_sigh_mixin &) = delete;

    /// Move constructor.
    basic_sigh_mixin(basic_sigh_mixin &&other) noexcept
        : underlying_type{std::move(other)}, owner{other.owner}, construction{std::move(other.construction)},
          destruction{std::move(other.destruction)}, update{std::move(other.update)},
          enabling{std::move(other.enabling)}, disabling{std::move(other.disabling)} {}

    /// Allocator-extended move constructor.
    basic_sigh_mixin(basic_sigh_mixin &&other, const allocator_type &allocator)
        : underlying_type{std::move(other), allocator}, owner{other.owner}, construction{std::move(other.construction),
                                                                                         allocator},
          destruction{std::move(other.destruction), allocator}, update{std::move(other.update), allocator},
          enabling{std::move(other.enabling), allocator}, disabling{std::move(other.disabling), allocator} {}

    /// Destructor.
    ~basic_sigh_mixin() override = default;

    basic_sigh_mixin &operator=(const basic_sigh_mixin &) = delete;

    /// Move assignment: the storage moves as the underlying storage does (element by element into this storage's
    /// memory when the allocators cannot share it), and the listeners and the registry come along.
    // noexcept only when it cannot fail: it copies, and may throw, when the storage's allocators cannot share memory
    // NOLINTNEXTLINE(bugprone-exception-escape)
    basic_sigh_mixin &operator=(basic_sigh_mixin &&other) noexcept(
        std::is_nothrow_move_assignable_v<underlying_type> &&std::is_nothrow_move_assignable_v<sigh_type>) {
        if (this != &other) {
            underlying_type::operator=(std::move(other));
            owner = other.owner;
            construction = std::move(other.construction);
            destruction = std::move(other.destruction);
            update = std::move(other.update);
            enabling = std::move(other.enabling);
            disabling = std::move(other.disabling);
        }

        return *this;
    }

    /// Exchanges the contents with another storage.
    void swap(basic_sigh_mixin &other) noexcept {
        std::swap(owner, other.owner);
        construction.swap(other.construction);
        destruction.swap(other.destruction);
        update.swap(other.update);
        enabling.swap(other.enabling);
        disabling.swap(other.disabling);
        underlying_type::swap(other);
    }

    /// Sink for the listeners called after an element has been added.
    [[nodiscard]] auto on_construct() noexcept { return sink{construction}; }

    /// Sink for the listeners called after an element has been patched.
    [[nodiscard]] auto on_update() noexcept { return sink{update}; }

    /// Sink for the listeners called before an element is removed.
    [[nodiscard]] auto on_destroy() noexcept { return sink{destruction}; }

    /// Sink for the listeners called after a disabled element has been enabled (docs/enable_disable.md).
    [[nodiscard]] auto on_enable() noexcept { return sink{enabling}; }

    /// Sink for the listeners called before an enabled element is disabled.
    [[nodiscard]] auto on_disable() noexcept { return sink{disabling}; }

    /// True if any of the five signals has a listener.
    [[nodiscard]] bool observed() const noexcept override {
        return !construction.empty() || !update.empty() || !destruction.empty() || !enabling.empty() ||
               !disabling.empty();
    }

    /// True once the storage is bound to a registry.
    [[nodiscard]] explicit operator bool() const noexcept { return (owner != nullptr); }

    /// The registry the storage is bound to.
    [[nodiscard]] const registry_type &registry() const {
        TESSERA_ASSERT(owner != nullptr, "sigh_mixin::registry: the storage is not bound to a registry");
        return *owner;
    }

    /// The registry the storage is bound to.
    [[nodiscard]] registry_type &registry() {
        TESSERA_ASSERT(owner != nullptr, "sigh_mixin::registry: the storage is not bound to a registry");
        return *owner;
    }

    /// Generates an identifier (entity storage only) and publishes construct.
    auto generate() requires is_entity_storage {
        TESSERA_RACE_WRITE(*this, "create");
        const auto entt = underlying_type::generate();
        publish_construct(entt);
        return entt;
    }

    /// Generates an identifier from a hint (entity storage only) and publishes construct.
    entity_type generate(const entity_type hint) requires is_entity_storage {
        TESSERA_RACE_WRITE(*this, "create");
        const auto entt = underlying_type::generate(hint);
        publish_construct(entt);
        return entt;
    }

    /// Fills a range with new identifiers (entity storage only) and publishes construct for each.
    template<typename It>
    void generate(It first, It last) requires is_entity_storage {
        TESSERA_RACE_WRITE(*this, "create");
        underlying_type::generate(first, last);

        if (!construction.empty()) {
            for (auto &reg = owner_or_assert(); first != last; ++first) {
                construction.publish(reg, *first);
            }
        }
    }

    using underlying_type::erase;
    using underlying_type::remove;

    /// Removes an identifier that must be in the storage, publishing destroy first. The same steps as the erase of
    /// the base class, called directly rather than through the virtual hook: this is what the registry uses.
    void erase(const entity_type entt) {
        TESSERA_RACE_WRITE(*this, "erase");
        const auto it = --(underlying_type::base_type::end() -
                           static_cast<typename underlying_type::difference_type>(underlying_type::index(entt)));
        basic_sigh_mixin::pop(it, it + 1);
    }

    /// Removes an identifier if it is in the storage, publishing destroy first. Returns true if it was.
    bool remove(const entity_type entt) { return underlying_type::contains(entt) && (erase(entt), true); }

    /// Adds an element and publishes construct. Returns the element, or nothing for types without instances.
    template<typename... Args>
    TESSERA_FORCE_INLINE decltype(auto) emplace(const entity_type entt, Args &&...args) requires(!is_entity_storage) {
        // held over the listeners too: they run as part of the write
        TESSERA_RACE_WRITE(*this, "emplace");

        if constexpr (std::is_void_v<typename underlying_type::value_type>) {
            underlying_type::emplace(entt, std::forward<Args>(args)...);
            publish_construct(entt);
        } else {
            underlying_type::emplace(entt, std::forward<Args>(args)...);
            publish_construct(entt);
            // a listener (an owning group, for one) may have moved the element: look it up again
            return underlying_type::get(entt);
        }
    }

    /// Calls the functions on the element, then publishes update.
    template<typename... Func>
    decltype(auto) patch(const entity_type entt, Func &&...func) {
        TESSERA_RACE_WRITE(*this, "patch");

        if constexpr (std::is_void_v<typename underlying_type::value_type>) {
            underlying_type::patch(entt, std::forward<Func>(func)...);
            publish_update(entt);
        } else {
            underlying_type::patch(entt, std::forward<Func>(func)...);
            publish_update(entt);
            // a listener may have moved the element: look it up again
            return underlying_type::get(entt);
        }
    }

    /// Adds every identifier of the range, then publishes construct for each of them.
    template<typename It, typename... Args>
    void insert(It first, It last, Args &&...args) requires(!is_entity_storage) {
        TESSERA_RACE_WRITE(*this, "insert");
        const auto from = underlying_type::size();
        underlying_type::insert(std::move(first), std::move(last), std::forward<Args>(args)...);
        publish_appended(underlying_type::size() - from);
    }

private:
    owner_type *owner{};
    sigh_type construction;
    sigh_type destruction;
    sigh_type update;
    sigh_type enabling;
    sigh_type disabling;
};

/// A storage that collects the entities on which observed registry events happen. Bind it to a registry, then
/// choose the events with on_construct, on_update and on_destroy; several events combine with OR.
template<typename Type, typename Registry>
class basic_reactive_mixin : public Type {
    using underlying_type = Type;
    using owner_type = Registry;
    using basic_registry_type = internal::basic_registry_of<Type>;
    using alloc_traits = std::allocator_traits<typename underlying_type::allocator_type>;
    // what reset() must undo: the sinks are looked up again then, because the entity storage moves with its
    // registry and a stored connection would point to the old signal
    using disconnect_type = std::pair<void (*)(basic_reactive_mixin &, id_type), id_type>;
    using container_type = std::vector<disconnect_type, typename alloc_traits::template rebind_alloc<disconnect_type>>;

    enum class event : std::uint8_t { construct, update, destroy, enable, disable };

    static_assert(std::is_base_of_v<basic_registry_type, owner_type>,
                  "reactive_mixin: the registry type must be basic_registry or derive from it");

    [[nodiscard]] owner_type &owner_or_assert() const {
        TESSERA_ASSERT(owner != nullptr, "reactive_mixin: the storage is not bound to a registry; call bind first");
        return *owner;
    }

    static void collect([[maybe_unused]] basic_reactive_mixin &self, [[maybe_unused]] const owner_type &reg,
                        const typename underlying_type::entity_type entt) {
        if (!self.contains(entt)) {
            // through the opaque interface, so that a signal mixin stacked on top of this one publishes construct
            self.push(entt);
        }
    }

    /// Hands the registry over to Candidate as the owner type: a pool publishes the registry type of its own
    /// signal mixin (basic_registry by default), which is a base of the owner, or derives from it, or both derive
    /// from the same basic_registry.
    template<auto Candidate, typename Published>
    static void relay(basic_reactive_mixin &self, Published &reg, const typename underlying_type::entity_type entt) {
        delegate<void(owner_type &, const typename underlying_type::entity_type)> func{};
        func.template connect<Candidate>(self);

        if constexpr (std::is_base_of_v<owner_type, Published> || std::is_base_of_v<Published, owner_type>) {
            func(static_cast<owner_type &>(reg), entt);
        } else {
            func(static_cast<owner_type &>(static_cast<basic_registry_type &>(reg)), entt);
        }
    }

    template<event Event, typename Clazz>
    [[nodiscard]] auto sink_of(const id_type id) const {
        if constexpr (Event == event::construct) {
            return owner_or_assert().template on_construct<Clazz>(id);
        } else if constexpr (Event == event::update) {
            return owner_or_assert().template on_update<Clazz>(id);
        } else if constexpr (Event == event::destroy) {
            return owner_or_assert().template on_destroy<Clazz>(id);
        } else if constexpr (Event == event::enable) {
            return owner_or_assert().template storage<Clazz>(id).on_enable();
        } else {
            return owner_or_assert().template storage<Clazz>(id).on_disable();
        }
    }

    template<event Event, typename Clazz, auto Listener>
    static void disconnect_from(basic_reactive_mixin &self, const id_type id) {
        self.template sink_of<Event, Clazz>(id).template disconnect<Listener>(self);
    }

    template<event Event, typename Clazz, auto Candidate>
    basic_reactive_mixin &observe(const id_type id) {
        // the registry type the observed pool publishes, which pools of a custom storage_type may choose
        using published =
            typename std::remove_cvref_t<decltype(owner_or_assert().template storage<Clazz>(id))>::registry_type;
        constexpr auto listener = [] {
            if constexpr (std::is_same_v<owner_type, published>) {
                return Candidate;
            } else {
                return &basic_reactive_mixin::relay<Candidate, published>;
            }
        }();

        static_cast<void>(sink_of<Event, Clazz>(id).template connect<listener>(*this));
        conn.emplace_back(&basic_reactive_mixin::disconnect_from<Event, Clazz, listener>, id);
        return *this;
    }

protected:
    /// Takes the registry this storage belongs to.
    void bind_any(any value) noexcept override {
        if (auto *reg = internal::bound_registry<owner_type, Type>(
                value, [](basic_registry_type *base) { return static_cast<owner_type *>(base); });
            reg) {
            owner = reg;
        }

        underlying_type::bind_any(std::move(value));
    }

public:
    /// Allocator type.
    using allocator_type = typename underlying_type::allocator_type;
    /// Identifier type.
    using entity_type = typename underlying_type::entity_type;
    /// The registry type.
    using registry_type = owner_type;

    /// Default constructor.
    basic_reactive_mixin() : basic_reactive_mixin{allocator_type{}} {}

    /// Constructs an empty, unbound storage with the given allocator.
    explicit basic_reactive_mixin(const allocator_type &allocator)
        : underlying_type{allocator}, owner{}, conn{allocator} {}

    basic_reactive_mixin(const basic_reactive_mixin &) = delete;

    /// Move constructor. Moving a connected storage is undefined behaviour: its listeners keep the old address.
    basic_reactive_mixin(basic_reactive_mixin &&other) noexcept
        : underlying_type{std::move(other)}, owner{other.owner}, conn{std::move(other.conn)} {}

    /// Allocator-extended move constructor.
    basic_reactive_mixin(basic_reactive_mixin &&other, const allocator_type &allocator)
        : underlying_type{std::move(other), allocator}, owner{other.owner}, conn{std::move(other.conn), allocator} {}

    /// Destructor. It does not disconnect: call reset() first if the registry outlives the storage.
    ~basic_reactive_mixin() override = default;

    basic_reactive_mixin &operator=(const basic_reactive_mixin &) = delete;

    /// Move assignment: the storage moves as the underlying storage does (element by element into this storage's
    /// memory when the allocators cannot share it), and the registry and the connections come along.
    // noexcept only when it cannot fail: it copies, and may throw, when the storage's allocators cannot share memory
    // NOLINTNEXTLINE(bugprone-exception-escape)
    basic_reactive_mixin &operator=(basic_reactive_mixin &&other) noexcept(
        std::is_nothrow_move_assignable_v<underlying_type> &&std::is_nothrow_move_assignable_v<container_type>) {
        if (this != &other) {
            underlying_type::operator=(std::move(other));
            owner = other.owner;
            conn = std::move(other.conn);
        }

        return *this;
    }

    /// Exchanges the contents with another storage.
    void swap(basic_reactive_mixin &other) noexcept {
        std::swap(owner, other.owner);
        conn.swap(other.conn);
        underlying_type::swap(other);
    }

    /// Collects the entities that get a Clazz element (in pool `id`). Candidate decides what collecting means.
    template<typename Clazz, auto Candidate = &basic_reactive_mixin::collect>
    basic_reactive_mixin &on_construct(const id_type id = type_hash<Clazz>::value()) {
        return observe<event::construct, Clazz, Candidate>(id);
    }

    /// Collects the entities whose Clazz element (in pool `id`) is patched or replaced.
    template<typename Clazz, auto Candidate = &basic_reactive_mixin::collect>
    basic_reactive_mixin &on_update(const id_type id = type_hash<Clazz>::value()) {
        return observe<event::update, Clazz, Candidate>(id);
    }

    /// Collects the entities that lose their Clazz element (in pool `id`).
    template<typename Clazz, auto Candidate = &basic_reactive_mixin::collect>
    basic_reactive_mixin &on_destroy(const id_type id = type_hash<Clazz>::value()) {
        return observe<event::destroy, Clazz, Candidate>(id);
    }

    /// Collects the entities whose disabled Clazz element (in pool `id`) is enabled again (docs/enable_disable.md).
    template<typename Clazz, auto Candidate = &basic_reactive_mixin::collect>
    basic_reactive_mixin &on_enable(const id_type id = type_hash<Clazz>::value()) {
        return observe<event::enable, Clazz, Candidate>(id);
    }

    /// Collects the entities whose enabled Clazz element (in pool `id`) is disabled; Candidate runs while the
    /// element is still enabled.
    template<typename Clazz, auto Candidate = &basic_reactive_mixin::collect>
    basic_reactive_mixin &on_disable(const id_type id = type_hash<Clazz>::value()) {
        return observe<event::disable, Clazz, Candidate>(id);
    }

    /// Disconnects every listener this storage installed. Collected entities stay.
    void reset() {
        for (auto [func, id] : conn) {
            func(*this, id);
        }

        conn.clear();
    }

    /// True once the storage is bound to a registry.
    [[nodiscard]] explicit operator bool() const noexcept { return (owner != nullptr); }

    /// The registry the storage is bound to.
    [[nodiscard]] const registry_type &registry() const { return owner_or_assert(); }

    /// The registry the storage is bound to.
    [[nodiscard]] registry_type &registry() { return owner_or_assert(); }

    /// A view over the collected entities that also have Get... and none of Exclude... (existing pools only).
    template<typename... Get, typename... Exclude>
    [[nodiscard]] basic_view<
        get_t<const basic_reactive_mixin, typename Registry::template storage_for_type<const Get>...>,
        exclude_t<typename Registry::template storage_for_type<const Exclude>...>>
    view(exclude_t<Exclude...> = exclude_t{}) const {
        const owner_type &reg = owner_or_assert();
        basic_view<get_t<const basic_reactive_mixin, typename Registry::template storage_for_type<const Get>...>,
                   exclude_t<typename Registry::template storage_for_type<const Exclude>...>>
            elem{};
        elem.template storage<0u>(*this);
        [&]<std::size_t... Index>(std::index_sequence<Index...>) {
            (([&]() {
                 using element_type = type_list_element_t<Index, type_list<Get..., Exclude...>>;
                 if (auto *cpool = reg.template storage<std::remove_const_t<element_type>>(); cpool) {
                     elem.template storage<Index + 1u>(*cpool);
                 }
             }()),
             ...);
        }
        (std::index_sequence_for<Get..., Exclude...>{});
        return elem;
    }

    /// A view over the collected entities that also have Get... and none of Exclude... (pools are created).
    template<typename... Get, typename... Exclude>
    [[nodiscard]] basic_view<get_t<const basic_reactive_mixin, typename Registry::template storage_for_type<Get>...>,
                             exclude_t<typename Registry::template storage_for_type<Exclude>...>>
    view(exclude_t<Exclude...> = exclude_t{}) {
        auto &reg = owner_or_assert();
        return {std::forward_as_tuple(std::as_const(*this), reg.template storage<std::remove_const_t<Get>>()...),
                std::forward_as_tuple(reg.template storage<std::remove_const_t<Exclude>>()...)};
    }

private:
    owner_type *owner{};
    container_type conn;
};

} // namespace tessera

#endif
