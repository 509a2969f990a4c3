// Command buffers, clone and spawn in the model interpreter: a random batch of deferred commands is recorded and
// applied to the registry while the model replays the same rules; clone and spawn are copies in the model.
#ifndef TESSERA_TEST_MODEL_DEFERRED_OPS_HPP
#define TESSERA_TEST_MODEL_DEFERRED_OPS_HPP

#include "model/checker.hpp"

namespace tessera_model {

/// The deferred operations of the interpreter (interpreter.hpp runs them among the others).
class deferred_ops : public checker {
protected:
    using checker::checker;

    enum class deferred_op : std::uint8_t {
        create,
        destroy,
        emplace,
        emplace_or_replace,
        replace,
        patch,
        remove,
        erase
    };

    /// One recorded command, kept to replay the buffer's rules on the model once it is applied.
    struct deferred_command {
        deferred_op op;
        std::uint32_t kind;
        entity entt;
        int value;
        std::string text;
    };

    template<typename Type>
    [[nodiscard]] static Type value_for(const deferred_command &cmd) {
        if constexpr (std::is_same_v<Type, heavy>) {
            return heavy{cmd.text};
        } else {
            return Type{cmd.value};
        }
    }

    template<typename Type>
    static void record_on(typename tessera::command_buffer::template pool_recorder<Type> pool,
                          const deferred_command &cmd) {
        constexpr bool has_value = !std::is_same_v<Type, tag>;

        switch (cmd.op) {
        case deferred_op::emplace:
            if constexpr (has_value) {
                pool.emplace(cmd.entt, value_for<Type>(cmd));
            } else {
                pool.emplace(cmd.entt);
            }
            break;
        case deferred_op::emplace_or_replace:
            if constexpr (has_value) {
                pool.emplace_or_replace(cmd.entt, value_for<Type>(cmd));
            } else {
                pool.emplace_or_replace(cmd.entt);
            }
            break;
        case deferred_op::replace:
            if constexpr (has_value) {
                pool.replace(cmd.entt, value_for<Type>(cmd));
            } else {
                pool.replace(cmd.entt);
            }
            break;
        case deferred_op::patch:
            if constexpr (has_value) {
                pool.patch(cmd.entt, [elem = value_for<Type>(cmd)](Type &curr) { curr = elem; });
            } else {
                pool.patch(cmd.entt);
            }
            break;
        case deferred_op::remove:
            pool.remove(cmd.entt);
            break;
        default:
            pool.erase(cmd.entt);
            break;
        }
    }

    static void record(tessera::command_buffer &buffer, const deferred_command &cmd) {
        switch (cmd.kind) {
        case 0u:
            // the default pool through the buffer's own members once in a while, through a recorder otherwise
            if (cmd.op == deferred_op::emplace && cmd.value % 2) {
                buffer.emplace<trivial>(cmd.entt, cmd.value);
            } else {
                record_on(buffer.storage<trivial>(), cmd);
            }
            break;
        case 1u:
            record_on(buffer.storage<heavy>(), cmd);
            break;
        case 2u:
            record_on(buffer.storage<tag>(), cmd);
            break;
        case 3u:
            record_on(buffer.storage<stable>(), cmd);
            break;
        default:
            record_on(buffer.storage<trivial>(named_id), cmd);
            break;
        }
    }

    /// Replays a component command on the model under the buffer's rules; false if the command has no effect.
    template<typename Map>
    static bool replay_on(Map &map, const deferred_command &cmd, const entity entt) {
        const bool has = map.contains(entt);
        const auto set = [&] {
            if constexpr (std::is_same_v<Map, std::set<entity>>) {
                map.insert(entt);
            } else if constexpr (std::is_same_v<typename Map::mapped_type, std::string>) {
                map[entt] = cmd.text;
            } else {
                map[entt] = cmd.value;
            }
        };

        switch (cmd.op) {
        case deferred_op::emplace:
        case deferred_op::emplace_or_replace:
            set();
            return true;
        case deferred_op::replace:
        case deferred_op::patch:
            return has && (set(), true);
        case deferred_op::remove:
            map.erase(entt);
            return true;
        default:
            return map.erase(entt) != 0u;
        }
    }

    bool replay(const deferred_command &cmd, const tessera::command_buffer &buffer) {
        if (cmd.op == deferred_op::create) {
            check_created(buffer.resolve(cmd.entt), has_released());
            return true;
        }

        const auto entt = buffer.resolve(cmd.entt);

        if (!ref.alive.contains(entt)) {
            return false;
        }

        if (cmd.op == deferred_op::destroy) {
            release_in_model(entt, std::nullopt);
            return true;
        }

        switch (cmd.kind) {
        case 0u:
            return replay_on(ref.trivials, cmd, entt);
        case 1u:
            return replay_on(ref.heavies, cmd, entt);
        case 2u:
            return replay_on(ref.tags, cmd, entt);
        case 3u:
            return replay_on(ref.stables, cmd, entt);
        default:
            return replay_on(ref.named, cmd, entt);
        }
    }

    void op_command_buffer() {
        enable_all_heavies();
        last_op = "command buffer";
        std::vector<deferred_command> recorded;
        std::vector<entity> made;

        for (auto count = 1u + src.pick(12u); count; --count) {
            deferred_command cmd{static_cast<deferred_op>(src.pick(8u)), src.pick(5u), tessera::null,
                                 static_cast<int>(src.pick(1000u)), random_text()};

            if (cmd.op == deferred_op::create) {
                // stay within the population: every create of the buffer may succeed
                if (ref.alive.size() + made.size() >= max_index) {
                    continue;
                }

                cmd.entt = buffer.create();
                made.push_back(cmd.entt);
                recorded.push_back(std::move(cmd));
                continue;
            }

            // live entities mostly, then provisional ones, then stale or unknown identifiers
            const auto which = src.pick(10u);

            if (const auto alive = pick_alive(); alive && which < 6u) {
                cmd.entt = *alive;
            } else if (!made.empty() && which < 9u) {
                cmd.entt = made[src.pick(static_cast<std::uint32_t>(made.size()))];
            } else {
                cmd.entt = pick_any();
            }

            if (cmd.op == deferred_op::destroy) {
                buffer.destroy(cmd.entt);
            } else {
                record(buffer, cmd);
            }

            recorded.push_back(std::move(cmd));

            // now and then the batch is dropped and started over
            if (src.pick(32u) == 0u) {
                buffer.clear();
                recorded.clear();
                made.clear();
            }
        }

        expect(buffer.size() == recorded.size(), "command_buffer::size differs from the commands recorded");
        const auto skipped = buffer.apply(*reg);
        expect(buffer.empty(), "command_buffer is not empty after apply");
        std::size_t expected{};

        for (const auto &cmd : recorded) {
            expected += !replay(cmd, buffer);
        }

        expect(skipped == expected, "command_buffer::apply reported a wrong number of skipped commands");
    }

    void op_clone() {
        const auto source = pick_alive();

        if (!source || ref.alive.size() >= max_index) {
            last_op = "clone (none)";
            return;
        }

        const auto copy_in_model = [this](const entity from, const entity to) {
            const auto copy = [from, to](auto &map) {
                if (const auto it = map.find(from); it != map.end()) {
                    map[to] = it->second;
                }
            };
            copy(ref.trivials);
            copy(ref.heavies);
            copy(ref.stables);
            copy(ref.named);
            if (ref.tags.contains(from)) {
                ref.tags.insert(to);
            }
        };

        if (src.pick(2u)) {
            last_op = "clone";
            const bool recycled = has_released();
            const auto copy = reg->clone(*source);
            check_created(copy, recycled);
            copy_in_model(*source, copy);

            // clone copies the state; prototypes record values only
            if (ref.heavy_off.contains(*source)) {
                ref.heavy_off.insert(copy);
            }
        } else {
            last_op = "prototype + spawn";
            const tessera::prototype proto{*reg, *source};
            std::vector<entity> out(std::min<std::size_t>(1u + src.pick(3u), max_index - ref.alive.size()));
            const auto released = ref.versions.size() - ref.alive.size();
            tessera::spawn(*reg, proto, out.begin(), out.end());

            for (std::size_t pos{}; pos < out.size(); ++pos) {
                check_created(out[pos], pos < released);
                copy_in_model(*source, out[pos]);
            }
        }
    }
};

} // namespace tessera_model

#endif
