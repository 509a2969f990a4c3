// The commands of a command buffer and the loops that play a run of them. Each pool command is split in two: admit
// (resolve the recorded identifier, check that it is valid at its turn, map the entity members of its value) and
// act (the change on the pool). apply() does both, one command after the other; a parallel apply
// (commands/playback.hpp) admits every command first, on one thread, then lets each pool act on its own commands.
// Declared in command_buffer.hpp, which includes this header at its end.
#ifndef TESSERA_ENTITY_COMMANDS_COMMANDS_HPP
#define TESSERA_ENTITY_COMMANDS_COMMANDS_HPP

#include "../../config/config.hpp"
#include "../../config/std_parts.hpp"
#include "../command_buffer.hpp"
#include "entity_members.hpp"
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tessera {

template<typename Registry>
template<typename Payload>
[[gnu::noinline]] void basic_command_buffer<Registry>::drop_run(header &hdr, std::uint32_t pos) noexcept {
    using items = layout<Payload>;

    if constexpr (items::has_payload && !std::is_trivially_destructible_v<Payload>) {
        std::byte *const first = items::first(reinterpret_cast<std::byte *>(&hdr));

        for (; pos < hdr.count; ++pos) {
            items::destroy(first + pos * items::stride);
        }
    }
}

// Command has a payload_type (void for none), prepare(registry, header), which looks up the pool of the run,
// admit(registry, buffer, recorded, payload...), which returns the entity to act on or null to skip the command,
// and act(registry, pool, entity, follow_state, payload...), which returns false when the command has no effect.
// The count is read again at every step: a listener may add commands to the run meanwhile.
// Flattened (TESSERA_FLATTEN): what the loop calls is inlined before g++ shares out its inlining budget (rare
// paths excepted: drop_run, replace_value). Left to the budget, record+apply cost 1.6x direct emplaces instead
// of 1.25x, and examples/battle lost inlines of valid() and contains() (docs/command_buffers.md, cost).
template<typename Registry>
template<typename Command>
TESSERA_FLATTEN void basic_command_buffer<Registry>::run(apply_state &state, header &hdr) {
    using payload_type = typename Command::payload_type;
    using items = layout<payload_type>;

    if (state.target == nullptr) {
        drop_run<payload_type>(hdr, 0u);
    } else if (state.mode == walk_mode::admit) {
        // a run of destroys is admitted by admit_destroys
        if constexpr (!std::is_same_v<Command, destroy_command>) {
            admit_run<Command>(state, hdr);
        }
    } else {
        Registry &target = *state.target;
        const basic_command_buffer &self = *state.self;
        auto &pool = Command::prepare(target, hdr);
        std::byte *const first = items::first(reinterpret_cast<std::byte *>(&hdr));
        std::uint32_t pos{};
        std::size_t skipped{};

        try {
            for (; pos < hdr.count; ++pos) {
                std::byte *const command = first + pos * items::stride;
                const payload_guard<payload_type> guard{command};

                if constexpr (items::has_payload) {
                    auto &value = *items::payload_at(command);
                    const auto entt = Command::admit(target, self, items::entity_at(command), value);
                    skipped += entt == null || !Command::act(target, pool, entt, true, value);
                } else {
                    const auto entt = Command::admit(target, self, items::entity_at(command));
                    skipped += entt == null || !Command::act(target, pool, entt, true);
                }
            }
        } catch (...) {
            // the command that threw has destroyed its payload; the rest of the run is dropped
            drop_run<payload_type>(hdr, pos + 1u);
            state.next = items::after(hdr);
            throw;
        }

        state.skipped += skipped;
    }

    // read now: a listener may have extended the run
    state.next = items::after(hdr);
}

// The admit walk of a parallel apply: looks the pool up (creating it if needed), lists the run for that pool, then
// writes over each command's identifier the entity to act on, or null if the command is skipped. Out of line: apply()
// never comes here.
template<typename Registry>
template<typename Command>
[[gnu::noinline]] void basic_command_buffer<Registry>::admit_run(apply_state &state, header &hdr) {
    using payload_type = typename Command::payload_type;
    using items = layout<payload_type>;
    Registry &target = *state.target;
    const basic_command_buffer &self = *state.self;
    auto &pool = Command::prepare(target, hdr);
    // listed before anything changes: a failed push_back leaves the run to be dropped
    state.plan->push_back(planned_run{state.self, &hdr, &pool, &act_run<Command>, 0u, 0u, false});
    std::byte *const first = items::first(reinterpret_cast<std::byte *>(&hdr));
    std::size_t skipped{};

    for (std::uint32_t pos{}; pos < hdr.count; ++pos) {
        std::byte *const command = first + pos * items::stride;
        entity_type entt{};

        if constexpr (items::has_payload) {
            entt = Command::admit(target, self, items::entity_at(command), *items::payload_at(command));
        } else {
            entt = Command::admit(target, self, items::entity_at(command));
        }

        items::entity_ref(command) = entt;
        skipped += entt == null;
    }

    state.skipped += skipped;
    state.next = items::after(hdr);
}

// The act walk of a parallel apply over a run that admit_run listed: the entities are those it wrote (null:
// skipped there). Returns how many commands had no effect. With `drop`, only destroys the payloads.
template<typename Registry>
template<typename Command>
TESSERA_FLATTEN std::size_t basic_command_buffer<Registry>::act_run(Registry &target, common_type &base, header &hdr,
                                                                    const bool drop) {
    using payload_type = typename Command::payload_type;
    using items = layout<payload_type>;
    auto &pool = static_cast<std::remove_reference_t<decltype(Command::prepare(target, hdr))> &>(base);
    std::byte *const first = items::first(reinterpret_cast<std::byte *>(&hdr));
    std::uint32_t pos{};
    std::size_t skipped{};

    if (drop) {
        drop_run<payload_type>(hdr, pos);
        return skipped;
    }

    try {
        for (; pos < hdr.count; ++pos) {
            std::byte *const command = first + pos * items::stride;
            const payload_guard<payload_type> guard{command};

            if (const auto entt = items::entity_at(command); entt != null) {
                // no entity is disabled during a parallel apply (commands/playback.hpp): no state to follow
                if constexpr (items::has_payload) {
                    skipped += !Command::act(target, pool, entt, false, *items::payload_at(command));
                } else {
                    skipped += !Command::act(target, pool, entt, false);
                }
            }
        }
    } catch (...) {
        drop_run<payload_type>(hdr, pos + 1u);
        throw;
    }

    return skipped;
}

template<typename Registry>
void basic_command_buffer<Registry>::run_creates(apply_state &state, header &hdr) {
    if (state.target != nullptr) {
        // the count is read at every step: a listener may record creates meanwhile, which join this run
        for (std::uint32_t pos{}; pos < hdr.count; ++pos) {
            state.self->resolved.push_back(state.target->create());
        }
    }

    state.next = layout<void>::after(hdr);
}

// A run of destroys. Unless a listener watches the registry, it goes pool by pool as registry.destroy(first,
// last) does: each pool sees the removals of one destroy after the other, in the same order, so it ends the same
// (docs/command_buffers.md, cost). An entity destroyed twice is gone at its second turn: skipped either way.
template<typename Registry>
void basic_command_buffer<Registry>::run_destroys(apply_state &state, header &hdr) {
    using items = layout<void>;
    std::byte *const first = items::first(reinterpret_cast<std::byte *>(&hdr));
    Registry *const target = state.target;
    basic_command_buffer &self = *state.self;

    if (target != nullptr && state.mode == walk_mode::admit) {
        return admit_destroys(state, hdr);
    }

    if (target == nullptr || hdr.count < 2u || target->observed()) {
        return run<destroy_command>(state, hdr);
    }

    try {
        self.doomed.reserve(hdr.count);
    } catch (...) { // one destroy after the other needs no memory
        return run<destroy_command>(state, hdr);
    }

    // back to front: a set's iterators walk their array from the back, so over this one they give run order
    for (auto pos = hdr.count; pos-- != 0u;) {
        if (const auto entt = self.resolve(items::entity_at(first + pos * items::stride)); target->valid(entt)) {
            self.doomed.push_back(entt);
        }
    }

    const auto removed = target->destroy_listed(self.doomed_at(self.doomed.size()), self.doomed_at(0u));
    state.skipped += hdr.count - removed;
    self.doomed.clear();
    state.next = items::after(hdr);
}

// The admit walk of a parallel apply over a run of destroys: the entity storage releases each valid entity at its
// turn (so that later commands see it gone and creates recycle it), and the run is listed for every pool with its
// entities, kept in doomed back to front, for the pools to remove.
template<typename Registry>
[[gnu::noinline]] void basic_command_buffer<Registry>::admit_destroys(apply_state &state, header &hdr) {
    using items = layout<void>;
    std::byte *const first = items::first(reinterpret_cast<std::byte *>(&hdr));
    Registry &target = *state.target;
    basic_command_buffer &self = *state.self;
    const auto from = self.doomed.size();
    // both before anything changes: if either throws, the run is dropped untouched. Doubling: a buffer may hold
    // many short runs of destroys, each growing the list
    if (const auto needed = from + hdr.count; self.doomed.capacity() < needed) {
        self.doomed.reserve(needed < 2u * self.doomed.capacity() ? 2u * self.doomed.capacity() : needed);
    }

    state.plan->push_back(planned_run{&self, &hdr, nullptr, nullptr, from, from, false});

    for (std::uint32_t pos{}; pos < hdr.count; ++pos) {
        if (const auto entt = self.resolve(items::entity_at(first + pos * items::stride)); target.valid(entt)) {
            target.retire(entt);
            self.doomed.push_back(entt);
        }
    }

    std::reverse(self.doomed.begin() + static_cast<std::ptrdiff_t>(from), self.doomed.end());
    state.plan->back().to = self.doomed.size();
    state.skipped += hdr.count - (self.doomed.size() - from);
    state.next = items::after(hdr);
}

// one destroy of a run that cannot go pool by pool
template<typename Registry>
struct basic_command_buffer<Registry>::destroy_command {
    using payload_type = void;

    static Registry &prepare(Registry &target, const header &) noexcept { return target; }

    static entity_type admit(Registry &target, const basic_command_buffer &self, const entity_type recorded) {
        const auto entt = self.resolve(recorded);
        return target.valid(entt) ? entt : entity_type{null};
    }

    static bool act(Registry &target, Registry &, const entity_type entt, bool) { return (target.destroy(entt), true); }
};

template<typename Registry>
template<typename Type, bool Named>
struct basic_command_buffer<Registry>::pool_command {
    static auto &prepare(Registry &target, const header &hdr) {
        if constexpr (Named) {
            return target.template storage<Type>(hdr.id);
        } else {
            return target.template storage<Type>();
        }
    }

    // the entity of the command if it is valid at its turn, null otherwise
    static entity_type admit(Registry &target, const basic_command_buffer &self, const entity_type recorded,
                             auto &...) {
        const auto entt = self.resolve(recorded);
        return target.valid(entt) ? entt : entity_type{null};
    }
};

// the value of a command replaces the component the entity has: out of line, as the rarer case of emplace
template<typename Registry>
template<typename Pool, typename... Value>
[[gnu::noinline]] void basic_command_buffer<Registry>::replace_value(Pool &pool, const entity_type entt,
                                                                     Value &...value) {
    pool.patch(entt, [&value...](auto &...curr) { ((curr = std::move(value)), ...); });
}

// emplace and emplace_or_replace (a repeated emplace replaces), or replace (needs the component)
template<typename Registry>
template<typename Type, typename basic_command_buffer<Registry>::value_mode Mode, bool Named>
struct basic_command_buffer<Registry>::value_command : pool_command<Type, Named> {
    using payload_type = std::conditional_t<std::is_void_v<value_of<Type>>, void, Type>;

    // also gives the provisional identifiers in the value their real ones, as they are at this turn
    static entity_type admit(Registry &target, const basic_command_buffer &self, const entity_type recorded,
                             auto &...value) {
        const auto entt = self.resolve(recorded);

        if (!target.valid(entt)) {
            return null;
        }

        if constexpr (sizeof...(value) != 0u && internal::lists_entity_members_v<Type, entity_type>) {
            const auto map = [&self](const auto curr) { return self.resolve(curr); };
            (internal::map_entities<entity_type>(value, map), ...);
        }

        return entt;
    }

    static bool act(Registry &target, auto &pool, const entity_type entt, const bool follow_state, auto &...value) {
        if (pool.contains(entt)) {
            replace_value(pool, entt, value...);
        } else if constexpr (Mode == value_mode::emplace) {
            pool.emplace(entt, std::move(value)...);

            // a component added to a disabled entity starts disabled, as with registry.emplace
            if (follow_state && !target.enabled(entt)) {
                pool.disable(entt);
            }
        } else {
            return false;
        }

        return true;
    }
};

template<typename Registry>
template<typename Type, bool Named, typename... Func>
struct basic_command_buffer<Registry>::patch_command : pool_command<Type, Named> {
    using payload_type = std::tuple<Func...>;

    static bool act(Registry &, auto &pool, const entity_type entt, bool, payload_type &func) {
        return pool.contains(entt) &&
               (std::apply([&pool, entt](auto &...curr) { pool.patch(entt, curr...); }, func), true);
    }
};

// remove, erase (a missing component: a command without effect), disable, enable (skipped without Type)
template<typename Registry>
template<typename Type, bool Named, typename basic_command_buffer<Registry>::pool_action Action>
struct basic_command_buffer<Registry>::remove_command : pool_command<Type, Named> {
    using payload_type = void;

    static bool act(Registry &, auto &pool, const entity_type entt, bool) {
        if constexpr (Action == pool_action::remove || Action == pool_action::erase) {
            return pool.remove(entt) || Action == pool_action::remove;
        } else {
            return pool.contains(entt) &&
                   ((Action == pool_action::enable ? pool.enable(entt) : pool.disable(entt)), true);
        }
    }
};

} // namespace tessera

#endif
