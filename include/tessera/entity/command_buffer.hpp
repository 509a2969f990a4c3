// Command buffers: structural changes recorded without touching a registry, so that any number of threads can
// each record into their own buffer while views are iterated, then applied to a registry in recorded order with
// the usual signals. Commands and the values they carry live in chunks of memory that the buffer owns and reuses
// after every apply. The rules (invalid entities, repeated commands, exceptions) are in docs/command_buffers.md.
#ifndef TESSERA_ENTITY_COMMAND_BUFFER_HPP
#define TESSERA_ENTITY_COMMAND_BUFFER_HPP

#include "../config/config.hpp"
#include "../core/fwd.hpp"
#include "../core/type_info.hpp"
#include "commands/entity_members.hpp"
#include "component.hpp"
#include "entity.hpp"
#include "fwd.hpp"
#include "registry.hpp"
#include <cstddef>
#include <cstdint>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tessera {

namespace internal {
template<typename Registry>
class command_playback;
} // namespace internal

/// Records structural changes (create, destroy, emplace, emplace_or_replace, replace, patch, remove, erase, and
/// the state changes disable and enable) and applies them to a registry later, in recorded order, firing the usual
/// signals. Recording never touches a registry. create() returns a provisional identifier that later commands of the
/// buffer accept; the values of types that list entity_members have theirs replaced when the buffer applies. Commands
/// are never merged or reordered; a command whose entity is not valid at its turn is skipped (docs/command_buffers.md).
template<typename Registry>
class basic_command_buffer {
    using registry_alloc_traits = std::allocator_traits<typename Registry::allocator_type>;
    using traits_type = entt_traits<typename Registry::entity_type>;
    // chunks are allocated as arrays of this type, so that they are aligned for headers and most values
    using unit_type = std::max_align_t;
    using unit_alloc = typename registry_alloc_traits::template rebind_alloc<unit_type>;
    using unit_alloc_traits = std::allocator_traits<unit_alloc>;

    // a parallel apply (commands/playback.hpp) admits the commands of several buffers, then lets the pools act
    friend class internal::command_playback<Registry>;

public:
    /// Identifier type.
    using entity_type = typename Registry::entity_type;

private:
    struct header;
    struct planned_run;
    using common_type = typename Registry::common_type;
    using plan_type = std::vector<planned_run, typename registry_alloc_traits::template rebind_alloc<planned_run>>;

    // apply: each command is admitted (valid at its turn?) then acted on its pool; admit: the first walk of a
    // parallel apply (commands/playback.hpp), which admits every command and lists the runs for their pools
    enum class walk_mode : std::uint8_t { apply, admit };

    // what the commands of one apply share; a null target means the commands are discarded
    struct apply_state {
        Registry *target;
        basic_command_buffer *self;
        // where the run after the one running starts
        std::byte *next;
        std::size_t skipped;
        walk_mode mode;
        // admit: where the runs are listed
        plan_type *plan;
    };

    // runs (or discards) a run of commands, destroys their payloads whatever happens, and sets state.next
    using run_function = void(apply_state &, header &);

    // Commands of one kind on one pool recorded one after the other form a run: one header, then for each command
    // its entity and its payload (if any). Applying a run looks its pool up once.
    struct header {
        run_function *run;
        id_type id;
        std::uint32_t count;
    };

    // A run left for the act walk of a parallel apply: the pool acts on its commands, admitted already.
    struct planned_run {
        basic_command_buffer *buffer;
        header *run;
        // null: a run of destroys, which every pool plays; its entities are buffer->doomed[from, to), back to front
        common_type *pool;
        std::size_t (*act)(Registry &, common_type &, header &, bool);
        std::size_t from;
        std::size_t to;
        // set once its pool has acted on it (or dropped it)
        bool played;
    };

    struct chunk {
        std::byte *data;
        std::size_t capacity;
        std::size_t used;
    };

    using chunk_alloc = typename registry_alloc_traits::template rebind_alloc<chunk>;
    using entity_alloc = typename registry_alloc_traits::template rebind_alloc<typename Registry::entity_type>;

    static constexpr std::size_t first_chunk = 4096u;
    static constexpr std::size_t largest_chunk = 1024u * 1024u;
    static constexpr std::size_t header_align = alignof(header);

    [[nodiscard]] static constexpr std::size_t round_up(const std::size_t size, const std::size_t align) noexcept {
        return (size + align - 1u) & ~(align - 1u);
    }

    [[nodiscard]] static std::byte *align_up(std::byte *const at, const std::size_t align) noexcept {
        const auto from = reinterpret_cast<std::uintptr_t>(at);
        return at + (round_up(from, align) - from);
    }

    // where the entity and the payload of a command of a run sit, and how far apart commands are
    template<typename Payload>
    struct layout {
        using entity_type = typename Registry::entity_type;
        static constexpr bool has_payload = !std::is_void_v<Payload>;
        static constexpr std::size_t align =
            (has_payload && alignof(std::conditional_t<has_payload, Payload, entity_type>) > alignof(entity_type))
                ? alignof(std::conditional_t<has_payload, Payload, entity_type>)
                : alignof(entity_type);
        static constexpr std::size_t offset =
            has_payload ? round_up(sizeof(entity_type), alignof(std::conditional_t<has_payload, Payload, entity_type>))
                        : sizeof(entity_type);
        static constexpr std::size_t stride =
            round_up(offset + (has_payload ? sizeof(std::conditional_t<has_payload, Payload, char>) : 0u), align);
        // room for a header (aligned), the first command (aligned) and its payload
        static constexpr std::size_t worst =
            (header_align - 1u) + sizeof(header) + (align > header_align ? align - header_align : 0u) + stride;

        [[nodiscard]] static std::byte *first(std::byte *const hdr) noexcept {
            return align_up(hdr + sizeof(header), align);
        }

        // the end of the run that starts at hdr, which is where the next run starts
        [[nodiscard]] static std::byte *after(header &hdr) noexcept {
            return align_up(first(reinterpret_cast<std::byte *>(&hdr)) + hdr.count * stride, header_align);
        }

        [[nodiscard]] static entity_type entity_at(std::byte *const command) noexcept {
            return *std::launder(reinterpret_cast<entity_type *>(command));
        }

        [[nodiscard]] static entity_type &entity_ref(std::byte *const command) noexcept {
            return *std::launder(reinterpret_cast<entity_type *>(command));
        }

        [[nodiscard]] static auto *payload_at(std::byte *const command) noexcept {
            return std::launder(reinterpret_cast<Payload *>(command + offset));
        }

        static void destroy(std::byte *const command) noexcept {
            if constexpr (has_payload) {
                std::destroy_at(payload_at(command));
            }
        }
    };

    template<typename Payload>
    struct payload_guard {
        std::byte *command;

        ~payload_guard() { layout<Payload>::destroy(command); }
    };

    template<typename Type>
    using value_of = typename Registry::template storage_for_type<Type>::value_type;

    template<typename Type, typename... Args>
    static void construct(std::byte *const where, Args &&...args) {
        if constexpr (std::is_aggregate_v<Type> && (sizeof...(Args) != 0u || !std::is_default_constructible_v<Type>)) {
            ::new (static_cast<void *>(where)) Type{std::forward<Args>(args)...};
        } else {
            ::new (static_cast<void *>(where)) Type(std::forward<Args>(args)...);
        }
    }

    [[nodiscard]] static bool provisional(const typename Registry::entity_type entt) noexcept {
        return traits_type::to_version(entt) == traits_type::version_mask &&
               traits_type::to_entity(entt) != traits_type::entity_mask;
    }

    // the commands of a type are compiled only if it qualifies, so that the message is the only error
    template<typename Type>
    [[nodiscard]] static constexpr bool recordable() {
        constexpr bool plain = std::is_same_v<Type, std::remove_cvref_t<Type>>;
        static_assert(plain, "command_buffer: name the component type without const, volatile or reference");

        if constexpr (plain) {
            constexpr bool component = !std::is_same_v<Type, typename Registry::entity_type>;
            static_assert(component, "command_buffer: the entity type is not a component; use create and destroy");

            if constexpr (component) {
                constexpr bool movable = std::is_void_v<value_of<Type>> ||
                                         (std::is_move_constructible_v<Type> && std::is_move_assignable_v<Type>);
                static_assert(movable, "command_buffer: a recorded component waits in the buffer and is moved into "
                                       "its pool at apply, so its type must be move-constructible and move-assignable");
                return movable;
            }
        }

        return false;
    }

    // Provisional identifiers take consecutive indices from where the previous batch stopped, wrapping around the
    // index space: an identifier of an earlier batch lies outside the current one's window, so that it maps to null
    // and is caught as the entity of a command, until the buffer has created as many identifiers as there are
    // indices (docs/command_buffers.md).
    static constexpr std::size_t provisional_indices = static_cast<std::size_t>(traits_type::entity_mask);

    // the place of a provisional identifier in the batch whose first index is `first`
    [[nodiscard]] static std::size_t slot_of(const typename Registry::entity_type entt,
                                             const std::size_t first) noexcept {
        return (static_cast<std::size_t>(traits_type::to_entity(entt)) + provisional_indices - first) %
               provisional_indices;
    }

    void check_entity([[maybe_unused]] const typename Registry::entity_type entt) const {
        TESSERA_ASSERT(!(entt == null), "command_buffer: the null entity");
        TESSERA_ASSERT(!provisional(entt) || slot_of(entt, base) < created,
                       "command_buffer: a provisional identifier this buffer did not create in this batch (those of "
                       "an earlier apply are stale: resolve them)");
    }

    // makes room for `bytes` in a chunk that follows the current one, reusing chunks of earlier batches
    void next_chunk(const std::size_t bytes) {
        std::size_t pos = 0u;

        if (!chunks.empty()) {
            chunks[current].used = static_cast<std::size_t>(cursor - chunks[current].data);
            pos = current + 1u;
        }

        if (pos == chunks.size() || chunks[pos].capacity < bytes) {
            const std::size_t grown = chunks.empty() ? first_chunk : 2u * chunks.back().capacity;
            const std::size_t capacity =
                round_up(bytes < grown ? (grown < largest_chunk ? grown : largest_chunk) : bytes, sizeof(unit_type));
            unit_alloc alloc{allocator};
            auto *const memory = unit_alloc_traits::allocate(alloc, capacity / sizeof(unit_type));

            try {
                chunks.insert(chunks.begin() + static_cast<std::ptrdiff_t>(pos),
                              chunk{reinterpret_cast<std::byte *>(memory), capacity, 0u});
            } catch (...) {
                unit_alloc_traits::deallocate(alloc, memory, capacity / sizeof(unit_type));
                throw;
            }
        }

        current = pos;
        cursor = chunks[pos].data;
        limit = cursor + chunks[pos].capacity;
        last = nullptr;
    }

    // Where the first command of a new run goes (its header goes at align_up(cursor)), after taking a chunk if
    // the current one lacks `worst` bytes. Not a template: the code that starts runs is shared by every command
    // type, and what recording inlines into loops is only the path that extends a run.
    [[nodiscard]] std::byte *place_run(const std::size_t worst, const std::size_t align) {
        if (static_cast<std::size_t>(limit - cursor) < worst) {
            next_chunk(worst);
        }

        return align_up(align_up(cursor, header_align) + sizeof(header), align);
    }

    // appends a command to the last run if it is of the same kind on the same pool, or starts a run
    template<typename Payload, typename... Args>
    void record(run_function *run, const typename Registry::entity_type entt, const id_type id, Args &&...args) {
        using items = layout<Payload>;
        const bool joins = last != nullptr && last->run == run && last->id == id &&
                           static_cast<std::size_t>(limit - cursor) >= items::stride;
        std::byte *const command = joins ? cursor : place_run(items::worst, items::align);

        if constexpr (items::has_payload) {
            // the value is built first: if that throws, nothing is recorded
            construct<Payload>(command + items::offset, std::forward<Args>(args)...);
        }

        ::new (static_cast<void *>(command)) typename Registry::entity_type{entt};

        if (joins) [[likely]] {
            ++last->count;
        } else {
            last = ::new (static_cast<void *>(align_up(cursor, header_align))) header{run, id, 1u};
        }

        cursor = command + items::stride;
        ++count;
    }

    [[nodiscard]] std::byte *chunk_end(const std::size_t pos) const noexcept {
        return pos == current ? cursor : chunks[pos].data + chunks[pos].used;
    }

    // runs every run of commands from `at` in chunk `pos` on
    void walk(apply_state &state, std::size_t &pos, std::byte *at) {
        for (; pos < chunks.size() && pos <= current; ++pos, at = pos < chunks.size() ? chunks[pos].data : nullptr) {
            // the end is read again after each run: listeners may record meanwhile
            while (at < chunk_end(pos)) {
                auto &hdr = *std::launder(reinterpret_cast<header *>(at));
                // if the run throws before it reaches its first command (a pool lookup), discarding starts here
                state.next = at;
                hdr.run(state, hdr);
                at = state.next;
            }
        }
    }

    // destroys the payloads of the commands from `at` in chunk `pos` on
    void discard(std::size_t pos, std::byte *at) noexcept {
        apply_state state{nullptr, this, nullptr, 0u, walk_mode::apply, nullptr};
        walk(state, pos, at);
    }

    void reset() noexcept {
        current = 0u;
        cursor = chunks.empty() ? nullptr : chunks.front().data;
        limit = chunks.empty() ? nullptr : cursor + chunks.front().capacity;
        last = nullptr;
        count = 0u;
        // the next batch's provisional identifiers start past this one's
        base = (base + created) % provisional_indices;
        created = 0u;
        applying = false;
        doomed.clear();
    }

    // whether a parallel apply may let the pools act on their own (commands/playback.hpp)
    [[nodiscard]] static bool playable(const Registry &registry) noexcept {
        return !registry.observed() && (registry.disabled_entities == nullptr || registry.disabled_entities->empty());
    }

    void drop_all() noexcept {
        discard(0u, chunks.empty() ? nullptr : chunks.front().data);
        reset();
        resolved.clear();
    }

    void release_chunks(const std::size_t from = 0u) noexcept {
        unit_alloc alloc{allocator};

        for (auto pos = from; pos < chunks.size(); ++pos) {
            unit_alloc_traits::deallocate(alloc, reinterpret_cast<unit_type *>(chunks[pos].data),
                                          chunks[pos].capacity / sizeof(unit_type));
        }

        chunks.erase(chunks.begin() + static_cast<std::ptrdiff_t>(from), chunks.end());
    }

    // ---- the commands (defined in commands/commands.hpp) -----------------------------------------------

    enum class value_mode : std::uint8_t { emplace, replace };
    enum class pool_action : std::uint8_t { remove, erase, disable, enable };

    struct destroy_command;
    template<typename Type, bool Named>
    struct pool_command;
    template<typename Type, value_mode Mode, bool Named>
    struct value_command;
    template<typename Type, bool Named, typename... Func>
    struct patch_command;
    template<typename Type, bool Named, pool_action Action>
    struct remove_command;

    // Destroys the payloads of the commands of a run from `pos` on. Out of line: it runs only when a buffer is
    // cleared or a command threw, and run() should not take it in.
    template<typename Payload>
    static void drop_run(header &hdr, std::uint32_t pos) noexcept;
    template<typename Command>
    static void run(apply_state &state, header &hdr);
    template<typename Command>
    static void admit_run(apply_state &state, header &hdr);
    template<typename Command>
    static std::size_t act_run(Registry &target, common_type &base, header &hdr, bool drop);
    static void run_creates(apply_state &state, header &hdr);
    static void run_destroys(apply_state &state, header &hdr);
    static void admit_destroys(apply_state &state, header &hdr);
    template<typename Pool, typename... Value>
    static void replace_value(Pool &pool, entity_type entt, Value &...value);

    // the doomed entities from position `pos` down, as a set's iterator walks them
    [[nodiscard]] auto doomed_at(const std::size_t pos) const noexcept {
        using set_iterator = typename common_type::iterator;
        return set_iterator{doomed, static_cast<typename set_iterator::difference_type>(pos)};
    }

    template<typename Command>
    [[nodiscard]] static constexpr run_function *runner() noexcept {
        return &basic_command_buffer::run<Command>;
    }

    // Named: the command looks its pool up by name at apply (recorders); otherwise it uses the default pool of
    // Type, found without hashing. Only the variant a program uses is compiled.
    template<typename Type, value_mode Mode, bool Named, typename... Args>
    void record_value(const typename Registry::entity_type entt, const id_type id, Args &&...args) {
        if constexpr (recordable<Type>()) {
            check_entity(entt);
            using command = value_command<Type, Mode, Named>;
            record<typename command::payload_type>(runner<command>(), entt, id, std::forward<Args>(args)...);
        }
    }

    template<typename Type, bool Named, typename... Func>
    void record_patch(const typename Registry::entity_type entt, const id_type id, Func &&...func) {
        constexpr bool movable = (std::is_move_constructible_v<std::decay_t<Func>> && ...);
        static_assert(movable, "command_buffer::patch: the functions wait in the buffer, so they must be movable");

        if constexpr (recordable<Type>() && movable) {
            check_entity(entt);
            using command = patch_command<Type, Named, std::decay_t<Func>...>;
            record<typename command::payload_type>(runner<command>(), entt, id, std::forward<Func>(func)...);
        }
    }

    template<typename Type, bool Named, pool_action Action>
    void record_remove(const typename Registry::entity_type entt, const id_type id) {
        static_assert(Action != pool_action::disable ||
                          internal::can_disable<typename Registry::template storage_for_type<Type>>(),
                      "command_buffer::disable: the storage of this type deletes in place, so its elements cannot be "
                      "disabled");

        if constexpr (recordable<Type>()) {
            check_entity(entt);
            record<void>(runner<remove_command<Type, Named, Action>>(), entt, id);
        }
    }

public:
    /// The registry type the buffer applies to.
    using registry_type = Registry;
    /// Unsigned integer type.
    using size_type = std::size_t;
    /// Allocator type (the registry's); the buffer's memory comes from it, rebound.
    using allocator_type = typename Registry::allocator_type;

    /// Records commands on one pool, named like the registry names it: buffer.storage<T>(id).emplace(entt, ...).
    /// Defined in commands/buffer_pool.hpp.
    template<typename Type>
    class pool_recorder;

    /// Default constructor: an empty buffer that owns no memory yet.
    basic_command_buffer() : basic_command_buffer{allocator_type{}} {}

    /// Constructs an empty buffer with the given allocator.
    explicit basic_command_buffer(const allocator_type &alloc)
        : allocator{alloc}, chunks{chunk_alloc{alloc}}, resolved{entity_alloc{alloc}}, doomed{entity_alloc{alloc}} {}

    basic_command_buffer(const basic_command_buffer &) = delete;

    /// Move constructor: the commands and the memory move; the source is left empty, owning nothing.
    basic_command_buffer(basic_command_buffer &&other) noexcept
        : allocator{other.allocator}, chunks{std::move(other.chunks)}, resolved{std::move(other.resolved)},
          doomed{std::move(other.doomed)}, cursor{std::exchange(other.cursor, nullptr)}, limit{std::exchange(
                                                                                             other.limit, nullptr)},
          last{std::exchange(other.last, nullptr)}, current{std::exchange(other.current, 0u)}, count{std::exchange(
                                                                                                   other.count, 0u)},
          created{std::exchange(other.created, 0u)}, base{other.base}, resolved_base{other.resolved_base}, applying{} {
        other.chunks.clear();
        other.resolved.clear();
    }

    /// Destroys the values of the commands not applied, and the memory.
    ~basic_command_buffer() {
        drop_all();
        release_chunks();
    }

    basic_command_buffer &operator=(const basic_command_buffer &) = delete;

    /// Move assignment: the commands of this buffer are dropped first, then it takes the commands, the memory and
    /// the allocator of `other`, which is left empty, owning nothing.
    basic_command_buffer &operator=(basic_command_buffer &&other) noexcept {
        if (this != &other) {
            drop_all();
            release_chunks();
            allocator = other.allocator;
            chunks = std::move(other.chunks);
            resolved = std::move(other.resolved);
            doomed = std::move(other.doomed);
            cursor = std::exchange(other.cursor, nullptr);
            limit = std::exchange(other.limit, nullptr);
            last = std::exchange(other.last, nullptr);
            current = std::exchange(other.current, 0u);
            count = std::exchange(other.count, 0u);
            created = std::exchange(other.created, 0u);
            base = other.base;
            resolved_base = other.resolved_base;
            other.chunks.clear();
            other.resolved.clear();
        }

        return *this;
    }

    /// The allocator.
    [[nodiscard]] allocator_type get_allocator() const noexcept { return allocator; }

    /// Records the creation of an entity. Returns a provisional identifier, which later commands of this buffer
    /// accept (and values of types listing entity_members may hold) until apply gives it its real identifier
    /// (see resolve). A provisional identifier is never valid in any registry.
    [[nodiscard]] entity_type create() {
        static_assert(traits_type::version_mask != 0u,
                      "command_buffer::create: provisional identifiers carry the tombstone version, and this "
                      "identifier type has no version bits");
        TESSERA_ASSERT(created < traits_type::entity_mask,
                       "command_buffer::create: no provisional identifiers left in this buffer; apply it first");

        if (created == 0u) {
            // the identifiers of the last apply are forgotten when the next batch starts creating
            resolved.clear();
        }

        const auto entt = traits_type::construct(
            static_cast<typename traits_type::entity_type>((base + created) % provisional_indices),
            static_cast<typename traits_type::version_type>(traits_type::version_mask));
        record<void>(&basic_command_buffer::run_creates, entt, id_type{});
        ++created;
        return entt;
    }

    /// Records destroy(entt).
    void destroy(const entity_type entt) {
        check_entity(entt);
        record<void>(&basic_command_buffer::run_destroys, entt, id_type{});
    }

    /// Records emplace<Type>(entt, args...): the value is built now (braces for aggregates) and moved into the
    /// pool at apply. If the entity has a Type by then, the value replaces it (on_update fires).
    template<typename Type, typename... Args>
    void emplace(const entity_type entt, Args &&...args) {
        record_value<Type, value_mode::emplace, false>(entt, type_hash<Type>::value(), std::forward<Args>(args)...);
    }

    /// Records emplace_or_replace<Type>(entt, args...); it applies the same way as emplace.
    template<typename Type, typename... Args>
    void emplace_or_replace(const entity_type entt, Args &&...args) {
        record_value<Type, value_mode::emplace, false>(entt, type_hash<Type>::value(), std::forward<Args>(args)...);
    }

    /// Records replace<Type>(entt, args...): skipped at apply if the entity has no Type by then.
    template<typename Type, typename... Args>
    void replace(const entity_type entt, Args &&...args) {
        record_value<Type, value_mode::replace, false>(entt, type_hash<Type>::value(), std::forward<Args>(args)...);
    }

    /// Records patch<Type>(entt, func...): the functions are kept and called at apply, then on_update fires.
    /// Skipped if the entity has no Type by then. Identifiers the functions captured are not mapped.
    template<typename Type, typename... Func>
    void patch(const entity_type entt, Func &&...func) {
        record_patch<Type, false>(entt, type_hash<Type>::value(), std::forward<Func>(func)...);
    }

    /// Records remove<Type>(entt) for each listed type (one command per type).
    template<typename Type, typename... Other>
    void remove(const entity_type entt) {
        record_remove<Type, false, pool_action::remove>(entt, type_hash<Type>::value());
        (record_remove<Other, false, pool_action::remove>(entt, type_hash<Other>::value()), ...);
    }

    /// Records erase<Type>(entt) for each listed type (one command per type). A component missing at apply is
    /// not a misuse: the command is skipped.
    template<typename Type, typename... Other>
    void erase(const entity_type entt) {
        record_remove<Type, false, pool_action::erase>(entt, type_hash<Type>::value());
        (record_remove<Other, false, pool_action::erase>(entt, type_hash<Other>::value()), ...);
    }

    /// Records disable<Type>(entt) or enable<Type>(entt): skipped at apply if the entity has no Type by then.
    template<typename Type>
    void disable(const entity_type entt) {
        record_remove<Type, false, pool_action::disable>(entt, type_hash<Type>::value());
    }
    /// Records enable<Type>(entt), as disable.
    template<typename Type>
    void enable(const entity_type entt) {
        record_remove<Type, false, pool_action::enable>(entt, type_hash<Type>::value());
    }

    /// A recorder for the pool `id` of Type (the default pool of Type without an argument).
    template<typename Type>
    [[nodiscard]] pool_recorder<Type> storage(const id_type id = type_hash<Type>::value()) noexcept {
        return {*this, id};
    }

    /// Applies every command in recorded order to `registry`, firing the usual signals, and leaves the buffer
    /// empty with its memory kept for the next batch. Commands recorded by listeners meanwhile are applied too,
    /// after the others. Returns how many commands were skipped (invalid entity; missing component for replace,
    /// patch and erase). If a command throws, the ones before it stay applied, the ones after it are dropped, the
    /// buffer is left empty and the exception propagates.
    size_type apply(registry_type &registry) {
        TESSERA_ASSERT(!applying, "command_buffer::apply: the buffer is already being applied (called by a listener)");
        resolved.clear();
        resolved.reserve(created);
        resolved_base = base;
        apply_state state{&registry, this, nullptr, 0u, walk_mode::apply, nullptr};
        std::size_t pos{};
        applying = true;

        try {
            walk(state, pos, chunks.empty() ? nullptr : chunks.front().data);
        } catch (...) {
            // the command that threw has destroyed its own value already
            discard(pos, state.next);
            reset();
            throw;
        }

        reset();
        return state.skipped;
    }

    /// Drops every command without applying it (their values are destroyed); the memory is kept.
    void clear() {
        TESSERA_ASSERT(!applying, "command_buffer::clear: the buffer is being applied");
        drop_all();
    }

    /// Gives back the chunks no recorded command uses (all of them when empty) and the resolved table's spare room.
    void shrink_to_fit() {
        TESSERA_ASSERT(!applying, "command_buffer::shrink_to_fit: the buffer is being applied");
        const auto kept = count == 0u ? std::size_t{} : current + 1u;
        release_chunks(kept);
        chunks.shrink_to_fit();
        resolved.shrink_to_fit();
        doomed.shrink_to_fit();

        if (kept == 0u) {
            reset();
        }
    }

    /// The real identifier that the last apply gave a provisional identifier of this buffer; other identifiers
    /// are returned unchanged; null for a provisional identifier the last apply did not create. The answers last
    /// until the next apply, the next create() or clear().
    [[nodiscard]] entity_type resolve(const entity_type entt) const noexcept {
        if (provisional(entt)) {
            const auto pos = slot_of(entt, resolved_base);
            return pos < resolved.size() ? resolved[pos] : entity_type{null};
        }

        return entt;
    }

    /// True if the identifier is a provisional one (from create()).
    [[nodiscard]] static bool is_provisional(const entity_type entt) noexcept { return provisional(entt); }

    /// The number of commands recorded since the last apply or clear.
    [[nodiscard]] size_type size() const noexcept { return count; }

    /// True if no command is recorded.
    [[nodiscard]] bool empty() const noexcept { return count == 0u; }

private:
    [[no_unique_address]] allocator_type allocator;
    std::vector<chunk, chunk_alloc> chunks;
    std::vector<entity_type, entity_alloc> resolved;
    // the entities of a run of destroys that go pool by pool (run_destroys); empty between runs
    std::vector<entity_type, entity_alloc> doomed;
    // initialized here as well as by the constructors: clang-tidy 14 does not see through the delegating default
    // constructor of a class template
    std::byte *cursor{};
    std::byte *limit{};
    header *last{};
    std::size_t current{};
    std::size_t count{};
    std::size_t created{};
    // the index of the current batch's first provisional identifier, and that of the batch resolve() answers for
    std::size_t base{};
    std::size_t resolved_base{};
    bool applying{};
};

} // namespace tessera

// the commands and the loops that play them
#include "commands/commands.hpp"
// the recorder of one named pool, buffer.storage<T>(id)
#include "../config/std_parts.hpp"
#include "commands/buffer_pool.hpp"

#endif
