// Differential testing: a reference model made of std::map/std::set and an interpreter that applies the same
// operation sequence to the model and to a tessera::registry, comparing the observable state after every step.
// Command buffers are checked by replaying their rules on the model; clone and spawn by copying in the model.
// The operations are drawn from a chooser: a seeded generator (the model test and its soak mode) or fuzzer bytes.
#ifndef TESSERA_TEST_MODEL_INTERPRETER_HPP
#define TESSERA_TEST_MODEL_INTERPRETER_HPP

#include "model/deferred_ops.hpp"

namespace tessera_model {

/// Applies operations to a model and a registry and compares them after each one.
class interpreter : public deferred_ops {
    // ---- operations ----------------------------------------------------------------------------------------

    void op_create() {
        switch (src.pick(3u)) {
        case 0u: {
            last_op = "create";
            if (ref.alive.size() >= max_index) {
                return;
            }
            const bool recycled = has_released();
            check_created(reg->create(), recycled);
        } break;
        case 1u: {
            last_op = "create(hint)";
            const auto hint = pick_any();
            const auto index = index_of(hint);
            const auto known = ref.versions.find(index);
            const bool in_use = known != ref.versions.end() && ref.alive.contains(make(index, known->second));
            const bool recycled = has_released();
            const auto entt = reg->create(hint);
            if (in_use) {
                check_created(entt, recycled);
            } else {
                // a free or released index is taken with exactly the version asked for
                expect(entt == hint, "create(hint) did not return the free hint");
                ref.versions[index] = traits::to_version(hint);
                ref.alive.insert(hint);
            }
        } break;
        default: {
            last_op = "create(first, last)";
            std::vector<entity> out(1u + src.pick(4u));
            if (ref.alive.size() + out.size() > max_index) {
                return;
            }
            const auto released = ref.versions.size() - ref.alive.size();
            reg->create(out.begin(), out.end());
            for (std::size_t pos{}; pos < out.size(); ++pos) {
                check_created(out[pos], pos < released);
            }
            expect(std::set<entity>(out.begin(), out.end()).size() == out.size(), "bulk create repeated an identifier");
        } break;
        }
    }

    void op_destroy() {
        const auto entt = pick_alive();
        if (!entt) {
            last_op = "destroy (none)";
            return;
        }

        if (src.pick(16u) == 0u) {
            last_op = "destroy(first, last) over view<tag, heavy>";
            const std::vector<entity> doomed = [this] {
                std::vector<entity> out;
                for (const auto curr : ref.tags) {
                    if (ref.heavies.contains(curr) && !ref.heavy_off.contains(curr)) {
                        out.push_back(curr);
                    }
                }
                return out;
            }();
            auto view = reg->view<tag, heavy>();
            // the range is a view over pools the call empties
            reg->destroy(view.begin(), view.end());
            for (const auto curr : doomed) {
                release_in_model(curr, std::nullopt);
            }
        } else if (src.pick(4u) == 0u) {
            last_op = "destroy(entt, version)";
            // versions close to the maximum exercise the wrap past the tombstone version
            const auto forced = static_cast<version_type>(traits::version_mask - src.pick(3u));
            const auto version = reg->destroy(*entt, forced);
            release_in_model(*entt, forced);
            expect(version == ref.versions[index_of(*entt)], "destroy(entt, version) returned a wrong version");
        } else {
            last_op = "destroy";
            const auto version = reg->destroy(*entt);
            release_in_model(*entt, std::nullopt);
            expect(version == ref.versions[index_of(*entt)], "destroy returned a wrong version");
        }
    }

    void op_release() {
        last_op = "release";
        const auto entt = pick_alive_if([this](const entity curr) { return ref.orphan(curr); });
        if (!entt) {
            return;
        }
        if (src.pick(4u) == 0u) {
            last_op = "release(entt, version)";
            const auto forced = static_cast<version_type>(traits::version_mask - src.pick(3u));
            const auto version = reg->release(*entt, forced);
            release_in_model(*entt, forced);
            expect(version == ref.versions[index_of(*entt)], "release(entt, version) returned a wrong version");
        } else {
            const auto version = reg->release(*entt);
            release_in_model(*entt, std::nullopt);
            expect(version == ref.versions[index_of(*entt)], "release returned a wrong version");
        }
    }

    void op_emplace(const std::uint32_t kind) {
        switch (kind) {
        case 0u:
            if (const auto entt = pick_alive_if([this](entity e) { return !ref.trivials.contains(e); })) {
                const int value = static_cast<int>(src.pick(1000u));
                expect(reg->emplace<trivial>(*entt, value).value == value, "emplace<trivial> returned a wrong value");
                ref.trivials[*entt] = value;
            }
            break;
        case 1u:
            if (const auto entt = pick_alive_if([this](entity e) { return !ref.heavies.contains(e); })) {
                auto text = random_text();
                expect(reg->emplace<heavy>(*entt, text).text == text, "emplace<heavy> returned a wrong value");
                ref.heavies[*entt] = text;
            }
            break;
        case 2u:
            if (const auto entt = pick_alive_if([this](entity e) { return !ref.tags.contains(e); })) {
                reg->emplace<tag>(*entt);
                ref.tags.insert(*entt);
            }
            break;
        case 3u:
            if (const auto entt = pick_alive_if([this](entity e) { return !ref.stables.contains(e); })) {
                const int value = static_cast<int>(src.pick(1000u));
                reg->emplace<stable>(*entt, value);
                ref.stables[*entt] = value;
            }
            break;
        default:
            if (const auto entt = pick_alive_if([this](entity e) { return !ref.named.contains(e); })) {
                const int value = static_cast<int>(src.pick(1000u));
                reg->storage<trivial>(named_id).emplace(*entt, value);
                ref.named[*entt] = value;
            }
            break;
        }
    }

    template<typename Map>
    std::vector<entity> pick_without(const Map &map) {
        std::vector<entity> out;
        for (const auto entt : ref.alive) {
            if (!map.contains(entt) && src.pick(2u)) {
                out.push_back(entt);
            }
        }
        return out;
    }

    void op_insert(const std::uint32_t kind) {
        switch (kind) {
        case 0u: {
            const auto range = pick_without(ref.trivials);
            const int value = static_cast<int>(src.pick(1000u));
            reg->insert<trivial>(range.begin(), range.end(), trivial{value});
            for (auto entt : range) {
                ref.trivials[entt] = value;
            }
        } break;
        case 1u: {
            const auto range = pick_without(ref.heavies);
            std::vector<heavy> values;
            for (std::size_t pos{}; pos < range.size(); ++pos) {
                values.push_back(heavy{random_text()});
            }
            reg->insert<heavy>(range.begin(), range.end(), values.begin());
            for (std::size_t pos{}; pos < range.size(); ++pos) {
                ref.heavies[range[pos]] = values[pos].text;
            }
        } break;
        case 2u: {
            const auto range = pick_without(ref.tags);
            reg->insert<tag>(range.begin(), range.end());
            ref.tags.insert(range.begin(), range.end());
        } break;
        case 3u: {
            const auto range = pick_without(ref.stables);
            const int value = static_cast<int>(src.pick(1000u));
            reg->insert<stable>(range.begin(), range.end(), stable{value});
            for (auto entt : range) {
                ref.stables[entt] = value;
            }
        } break;
        default: {
            const auto range = pick_without(ref.named);
            const int value = static_cast<int>(src.pick(1000u));
            reg->storage<trivial>(named_id).insert(range.begin(), range.end(), trivial{value});
            for (auto entt : range) {
                ref.named[entt] = value;
            }
        } break;
        }
    }

    /// patch, replace or emplace_or_replace (mode 0, 1, 2) on an entity that has the component (or any, for 2).
    void op_update(const std::uint32_t kind, const std::uint32_t mode) {
        const auto owner = [&](const auto &map) {
            return mode == 2u ? pick_alive() : pick_alive_if([&map](entity e) { return map.contains(e); });
        };

        switch (kind) {
        case 0u:
            if (const auto entt = owner(ref.trivials)) {
                const int value = static_cast<int>(src.pick(1000u));
                if (mode == 0u) {
                    reg->patch<trivial>(*entt, [value](trivial &elem) { elem.value = value; });
                } else if (mode == 1u) {
                    reg->replace<trivial>(*entt, value);
                } else {
                    reg->emplace_or_replace<trivial>(*entt, value);
                }
                ref.trivials[*entt] = value;
            }
            break;
        case 1u:
            if (const auto entt = owner(ref.heavies)) {
                const auto text = random_text();
                if (mode == 0u) {
                    reg->patch<heavy>(*entt, [&text](heavy &elem) { elem.text = text; });
                } else if (mode == 1u) {
                    reg->replace<heavy>(*entt, text);
                } else {
                    reg->emplace_or_replace<heavy>(*entt, text);
                }
                ref.heavies[*entt] = text;
            }
            break;
        case 2u:
            if (const auto entt = owner(ref.tags)) {
                if (mode == 0u) {
                    reg->patch<tag>(*entt);
                } else if (mode == 1u) {
                    reg->replace<tag>(*entt);
                } else {
                    reg->emplace_or_replace<tag>(*entt);
                }
                ref.tags.insert(*entt);
            }
            break;
        case 3u:
            if (const auto entt = owner(ref.stables)) {
                const int value = static_cast<int>(src.pick(1000u));
                if (mode == 0u) {
                    reg->patch<stable>(*entt, [value](stable &elem) { elem.value = value; });
                } else if (mode == 1u) {
                    reg->replace<stable>(*entt, value);
                } else {
                    reg->emplace_or_replace<stable>(*entt, value);
                }
                ref.stables[*entt] = value;
            }
            break;
        default:
            if (const auto entt = pick_alive_if([this](entity e) { return ref.named.contains(e); })) {
                const int value = static_cast<int>(src.pick(1000u));
                reg->storage<trivial>(named_id).patch(*entt, [value](trivial &elem) { elem.value = value; });
                ref.named[*entt] = value;
            }
            break;
        }
    }

    /// erase (must own), remove (any identifier, possibly stale) or a ranged remove.
    void op_erase(const std::uint32_t kind, const std::uint32_t mode) {
        const auto remove_one = [&]<typename Type>(auto &map) {
            if (mode == 0u) {
                if (const auto entt = pick_alive_if([&map](entity e) { return map.contains(e); })) {
                    reg->erase<Type>(*entt);
                    map.erase(*entt);
                }
            } else if (mode == 1u) {
                const auto entt = pick_any();
                const auto removed = reg->remove<Type>(entt);
                expect(removed == map.erase(entt), "remove reported a wrong count");
            } else {
                std::vector<entity> range;
                for (auto count = src.pick(4u); count; --count) {
                    range.push_back(pick_any());
                }
                std::sort(range.begin(), range.end());
                range.erase(std::unique(range.begin(), range.end()), range.end());
                std::size_t expected{};
                for (auto entt : range) {
                    expected += map.erase(entt);
                }
                expect(reg->remove<Type>(range.begin(), range.end()) == expected,
                       "ranged remove reported a wrong count");
            }
        };

        switch (kind) {
        case 0u:
            remove_one.template operator()<trivial>(ref.trivials);
            break;
        case 1u:
            remove_one.template operator()<heavy>(ref.heavies);
            break;
        case 2u:
            remove_one.template operator()<tag>(ref.tags);
            break;
        case 3u:
            remove_one.template operator()<stable>(ref.stables);
            break;
        default: {
            auto &pool = reg->storage<trivial>(named_id);
            const auto entt = pick_any();
            expect(pool.remove(entt) == (ref.named.erase(entt) != 0u), "remove on the named pool reported wrongly");
        } break;
        }
    }

    void op_clear(const std::uint32_t kind) {
        switch (kind) {
        case 0u:
            reg->clear<trivial>();
            ref.trivials.clear();
            break;
        case 1u:
            reg->clear<heavy>();
            ref.heavies.clear();
            break;
        case 2u:
            reg->clear<tag>();
            ref.tags.clear();
            break;
        case 3u:
            reg->clear<stable>();
            ref.stables.clear();
            break;
        default:
            last_op = "clear()";
            reg->clear();
            for (const auto entt : ref.alive) {
                ref.versions[index_of(entt)] = model::next(traits::to_version(entt));
            }
            ref.alive.clear();
            ref.drop_all();
            break;
        }
    }

    void op_sort() {
        switch (src.pick(3u)) {
        case 0u: {
            last_op = "sort<heavy>";
            reg->sort<heavy>([](const heavy &lhs, const heavy &rhs) { return lhs.text < rhs.text; });
            std::vector<std::string> seen;
            for (auto [entt, elem] : reg->view<heavy>().each()) {
                seen.push_back(elem.text);
            }
            expect(std::is_sorted(seen.begin(), seen.end()), "view<heavy> not in ascending order after sort");
        } break;
        case 1u: {
            last_op = "sort<stable>";
            reg->compact<stable>();
            reg->sort<stable>([](const stable &lhs, const stable &rhs) { return lhs.value > rhs.value; });
            std::vector<int> seen;
            for (auto [entt, elem] : reg->view<stable>().each()) {
                seen.push_back(elem.value);
            }
            expect(std::is_sorted(seen.rbegin(), seen.rend()), "view<stable> not in order after sort");
        } break;
        default: {
            last_op = "owning group sort";
            auto group = owning_group();
            group.sort<trivial>([](const trivial &lhs, const trivial &rhs) { return lhs.value < rhs.value; });
            std::vector<int> seen;
            for (auto [entt, elem, other] : group.each()) {
                seen.push_back(elem.value);
            }
            expect(std::is_sorted(seen.begin(), seen.end()), "owning group not in ascending order after sort");
        } break;
        }
    }

    void op_switch(const bool value) {
        last_op = value ? "enable<heavy>" : "disable<heavy>";

        if (const auto entt = pick_alive_if([this](entity e) { return ref.heavies.contains(e); })) {
            const bool changed = value ? reg->enable<heavy>(*entt) : reg->disable<heavy>(*entt);
            expect(changed == (ref.heavy_off.contains(*entt) == value), "disable/enable reported the wrong change");
            value ? void(ref.heavy_off.erase(*entt)) : void(ref.heavy_off.insert(*entt));
        }
    }

    void op_snapshot() {
        enable_all_heavies();
        last_op = "snapshot + snapshot_loader";
        std::vector<std::byte> bytes;
        write_snapshot(bytes);

        auto fresh = std::make_unique<registry>();
        const bool groups_first = src.pick(2u);

        if (groups_first) {
            fresh->group<trivial>(tessera::get<heavy>);
            fresh->group<>(tessera::get<heavy, tag>, tessera::exclude<stable>);
        }

        tessera::snapshot_loader loader{*fresh};
        load_all(loader, bytes);

        // the loaded registry must be indistinguishable: compare it, then sometimes keep working on it
        std::swap(reg, fresh);
        verify();

        if (src.pick(2u)) {
            std::swap(reg, fresh);
        }
    }

    void op_continuous() {
        enable_all_heavies();
        last_op = "snapshot + continuous_loader";
        std::vector<std::byte> bytes;
        write_snapshot(bytes);

        if (!mirror || src.pick(8u) == 0u) {
            mirror = std::make_unique<registry>();
            // local entities unrelated to the remote ones: the map must not confuse them
            mirror_locals = src.pick(4u);
            for (auto count = mirror_locals; count; --count) {
                mirror->emplace<trivial>(mirror->create(), -1);
            }
            loader = std::make_unique<tessera::continuous_loader>(*mirror);
        }

        load_all(*loader, bytes);

        std::set<entity> locals;

        for (const auto entt : ref.alive) {
            expect(loader->contains(entt), "continuous_loader does not map a live entity");
            const auto local = loader->map(entt);
            expect(mirror->valid(local), "continuous_loader maps a live entity to an invalid one");
            expect(locals.insert(local).second, "continuous_loader maps two entities to the same local one");
            compare_components(*mirror, entt, local);
        }

        // nothing else is left in the mirror: its own entities, and one per live remote entity
        expect(mirror->storage<entity>().free_list() == ref.alive.size() + mirror_locals,
               "continuous_loader left extra entities in use");
        expect(mirror->storage<trivial>().size() == ref.trivials.size() + mirror_locals,
               "continuous_loader left extra components");

        for (const auto &[index, version] : ref.versions) {
            const auto stale = make(index, version);
            if (!ref.alive.contains(stale)) {
                expect(!loader->contains(stale), "continuous_loader maps a released entity");
            }
        }
    }

    void op_view() {
        last_op = "view iteration";
        verify_iteration();
    }

public:
    /// Starts with an empty registry holding both groups. At most `population` entities are alive at once, and
    /// identifiers are picked among the first `population` indices.
    explicit interpreter(chooser &source, const std::uint32_t population = 48u) : deferred_ops{source, population} {}

    /// Runs one random operation, then verifies.
    void run_one() {
        ++step;
        const auto kind = src.pick(5u);

        switch (src.pick(38u)) {
        case 0u:
        case 1u:
        case 2u:
        case 3u:
        case 4u:
            op_create();
            break;
        case 5u:
        case 6u:
            op_destroy();
            break;
        case 7u:
            op_release();
            break;
        case 8u:
        case 9u:
        case 10u:
        case 11u:
            last_op = "emplace";
            op_emplace(kind);
            break;
        case 12u:
        case 13u:
            last_op = "insert";
            op_insert(kind);
            break;
        case 14u:
        case 15u:
            last_op = "patch";
            op_update(kind, 0u);
            break;
        case 16u:
            last_op = "replace";
            op_update(kind, 1u);
            break;
        case 17u:
        case 18u:
            last_op = "emplace_or_replace";
            op_update(kind, 2u);
            break;
        case 19u:
        case 20u:
            last_op = "erase";
            op_erase(kind, 0u);
            break;
        case 21u:
        case 22u:
            last_op = "remove";
            op_erase(kind, 1u);
            break;
        case 23u:
            last_op = "remove(first, last)";
            op_erase(kind, 2u);
            break;
        case 24u:
            last_op = "clear<Type>";
            op_clear(src.pick(32u) == 0u ? 4u : kind % 4u);
            break;
        case 25u:
        case 26u:
            op_sort();
            break;
        case 27u:
            last_op = "compact";
            reg->compact();
            break;
        case 28u:
            op_snapshot();
            break;
        case 29u:
            op_continuous();
            break;
        case 30u:
        case 31u:
            op_view();
            break;
        case 32u:
        case 33u:
        case 34u:
            op_command_buffer();
            break;
        case 36u:
            op_switch(false);
            break;
        case 37u:
            op_switch(src.pick(4u) != 0u || ref.heavy_off.empty());
            break;
        default:
            op_clone();
            break;
        }

        verify();
    }

    /// Runs `count` operations (or until fuzzer bytes run out).
    void run(const std::size_t count) {
        for (std::size_t pos{}; pos < count && !src.exhausted(); ++pos) {
            run_one();
        }
    }
};

} // namespace tessera_model

#endif
