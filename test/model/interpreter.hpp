// Differential testing: a reference model made of std::map/std::set and an interpreter that applies the same
// operation sequence to the model and to a tessera::registry, comparing the observable state after every step.
// Command buffers are checked by replaying their rules on the model; clone and spawn by copying in the model.
// The operations are drawn from a chooser: a seeded generator (model test, soak) or fuzzer bytes.
#ifndef TESSERA_TEST_MODEL_INTERPRETER_HPP
#define TESSERA_TEST_MODEL_INTERPRETER_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <tessera/archive/binary.hpp>
#include <tessera/core/hashed_string.hpp>
#include <tessera/entity/change_filter.hpp>
#include <tessera/entity/command_buffer.hpp>
#include <tessera/entity/group.hpp>
#include <tessera/entity/prototype.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/snapshot.hpp>
#include <tessera/entity/view.hpp>
#include <type_traits>
#include <utility>
#include <vector>

namespace tessera_model {

/// Trivially copyable, written to archives as raw bytes. Tracked by change detection: verify_ticks checks it.
struct trivial {
    static constexpr bool track_changes = true;
    int value;
};

/// Owns heap memory (long strings leave the small buffer); archived through serialize overloads.
struct heavy {
    std::string text;
};

/// Empty: its pool keeps no instances.
struct tag {};

/// Removing an element leaves a hole.
struct stable {
    static constexpr bool in_place_delete = true;
    int value;
};

inline void serialize(tessera::binary_output_archive &archive, const heavy &elem) {
    archive(static_cast<std::uint32_t>(elem.text.size()));

    for (const char ch : elem.text) {
        archive(ch);
    }
}

inline void serialize(tessera::binary_input_archive &archive, heavy &elem) {
    std::uint32_t length{};
    archive(length);

    // a corrupt length must fail as a truncated archive, not as a huge allocation
    if (length > archive.remaining()) {
        archive.corrupt("heavy: the text is longer than the section");
    }

    elem.text.resize(length);

    for (char &ch : elem.text) {
        archive(ch);
    }
}

/// The name of the second pool of `trivial`.
inline constexpr tessera::id_type named_id = tessera::hashed_string::value("named");

/// Thrown when the registry and the model disagree; what() says where.
struct divergence : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Where the operations come from: a splitmix64 sequence, or fuzzer bytes (zeros once they run out).
class chooser {
public:
    explicit chooser(const std::uint64_t seed) : state{seed} {}

    explicit chooser(const std::span<const std::uint8_t> data) : bytes{data}, from_bytes{true} {}

    /// A value in [0, bound), bound > 0.
    std::uint32_t pick(const std::uint32_t bound) {
        if (from_bytes) {
            std::uint32_t value{};

            for (std::uint32_t span = bound - 1u, shift = 0u; span; span >>= 8u, shift += 8u) {
                value |= static_cast<std::uint32_t>(cursor < bytes.size() ? bytes[cursor++] : 0u) << shift;
            }

            return value % bound;
        }

        state += 0x9E3779B97F4A7C15ull;
        auto z = state;
        z = (z ^ (z >> 30u)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27u)) * 0x94D049BB133111EBull;
        return static_cast<std::uint32_t>((z ^ (z >> 31u)) % bound);
    }

    /// True once fuzzer bytes are used up (never for the generator).
    [[nodiscard]] bool exhausted() const noexcept { return from_bytes && cursor >= bytes.size(); }

private:
    std::uint64_t state{};
    std::span<const std::uint8_t> bytes{};
    std::size_t cursor{};
    bool from_bytes{};
};

using entity = tessera::entity;
using traits = tessera::entt_traits<entity>;
using version_type = traits::version_type;
using registry = tessera::registry;

/// The reference model: nothing but ordered maps and sets.
struct model {
    /// Current version of every index ever handed out.
    std::map<std::uint32_t, version_type> versions;
    std::set<entity> alive;
    std::map<entity, int> trivials;
    std::map<entity, std::string> heavies;
    std::set<entity> tags;
    std::map<entity, int> stables;
    std::map<entity, int> named;
    /// The entities whose heavy is disabled (docs/enable_disable.md): present, skipped by views and groups.
    std::set<entity> heavy_off;

    [[nodiscard]] bool orphan(const entity entt) const {
        return !trivials.contains(entt) && !heavies.contains(entt) && !tags.contains(entt) && !stables.contains(entt) &&
               !named.contains(entt);
    }

    void drop_all() {
        trivials.clear();
        heavies.clear();
        heavy_off.clear();
        tags.clear();
        stables.clear();
        named.clear();
    }

    void drop(const entity entt) {
        trivials.erase(entt);
        heavies.erase(entt);
        heavy_off.erase(entt);
        tags.erase(entt);
        stables.erase(entt);
        named.erase(entt);
    }

    /// The version after a release: +1, skipping the tombstone version.
    [[nodiscard]] static version_type next(const version_type version) {
        const auto mask = static_cast<version_type>(traits::version_mask);
        const auto incr = static_cast<version_type>((version + 1u) & mask);
        return incr == mask ? version_type{} : incr;
    }
};

/// Writes the identifiers, the four default pools and the named pool of `reg`.
inline void save_all(const registry &reg, std::vector<std::byte> &bytes) {
    tessera::binary_output_archive out{bytes};
    const tessera::snapshot snapshot{reg};
    snapshot.get<entity>(out.section<entity>())
        .get<trivial>(out.section<trivial>())
        .get<heavy>(out.section<heavy>())
        .get<tag>(out.section<tag>())
        .get<stable>(out.section<stable>())
        .get<trivial>(out.section<trivial>(named_id), named_id);
    out.finish();
}

/// Reads what save_all wrote with `loader` (a snapshot_loader or a continuous_loader). Throws archive_error.
template<typename Loader>
void load_all(Loader &loader, const std::span<const std::byte> bytes) {
    tessera::binary_input_archive in{bytes};
    loader.template get<entity>(in.section<entity>())
        .template get<trivial>(in.section<trivial>())
        .template get<heavy>(in.section<heavy>())
        .template get<tag>(in.section<tag>())
        .template get<stable>(in.section<stable>())
        .template get<trivial>(in.section<trivial>(named_id), named_id);
}

/// Applies operations to a model and a registry and compares them after each one.
class interpreter {

    [[noreturn]] void fail(const std::string &what) const {
        throw divergence{"step " + std::to_string(step) + " (" + last_op + "): " + what};
    }

    void expect(const bool cond, const char *what) const {
        if (!cond) {
            fail(what);
        }
    }

    static entity make(const std::uint32_t index, const version_type version) {
        return traits::construct(static_cast<traits::entity_type>(index), version);
    }

    static std::uint32_t index_of(const entity entt) { return static_cast<std::uint32_t>(traits::to_entity(entt)); }

    std::string random_text() {
        // lengths above 15 leave the small-string buffer
        std::string text(src.pick(24u), 'a');

        for (char &ch : text) {
            ch = static_cast<char>('a' + src.pick(4u));
        }

        return text;
    }

    std::optional<entity> pick_alive() {
        if (ref.alive.empty()) {
            return std::nullopt;
        }

        return *std::next(ref.alive.begin(),
                          static_cast<std::ptrdiff_t>(src.pick(static_cast<std::uint32_t>(ref.alive.size()))));
    }

    template<typename Pred>
    std::optional<entity> pick_alive_if(Pred pred) {
        std::vector<entity> candidates;
        std::copy_if(ref.alive.begin(), ref.alive.end(), std::back_inserter(candidates), pred);

        if (candidates.empty()) {
            return std::nullopt;
        }

        return candidates[src.pick(static_cast<std::uint32_t>(candidates.size()))];
    }

    /// Any identifier: alive, stale, or never handed out.
    entity pick_any() {
        const auto index = src.pick(max_index);

        if (const auto it = ref.versions.find(index); it != ref.versions.end()) {
            return make(index, src.pick(4u) ? it->second : model::next(it->second));
        }

        return make(index, static_cast<version_type>(src.pick(3u)));
    }

    void check_created(const entity entt, const bool recycled_expected) {
        expect(!ref.alive.contains(entt), "create returned an identifier already in use");
        const auto index = index_of(entt);

        if (const auto it = ref.versions.find(index); it != ref.versions.end()) {
            expect(traits::to_version(entt) == it->second, "create recycled an identifier with a wrong version");
        } else {
            expect(!recycled_expected, "create made a new identifier while released ones were available");
            expect(traits::to_version(entt) == 0u, "a new identifier does not start at version 0");
        }

        ref.versions[index] = traits::to_version(entt);
        ref.alive.insert(entt);
    }

    [[nodiscard]] bool has_released() const { return ref.versions.size() > ref.alive.size(); }

    void release_in_model(const entity entt, const std::optional<version_type> forced) {
        ref.drop(entt);
        ref.alive.erase(entt);
        auto version = model::next(traits::to_version(entt));

        if (forced) {
            version = (*forced == traits::version_mask) ? version_type{} : *forced;
        }

        ref.versions[index_of(entt)] = version;
    }

    auto owning_group() { return reg->group<trivial>(tessera::get<heavy>); }

    auto plain_group() { return reg->group<>(tessera::get<heavy, tag>, tessera::exclude<stable>); }

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

    void write_snapshot(std::vector<std::byte> &bytes) const { save_all(*reg, bytes); }

    // snapshots do not record the state yet, and a batch may remove and add a heavy: both start all enabled
    void enable_all_heavies() {
        for (const auto entt : ref.heavy_off) {
            expect(reg->enable<heavy>(entt), "enable<heavy> of a disabled heavy reported no change");
        }

        ref.heavy_off.clear();
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

    // ---- command buffers, clone, spawn ---------------------------------------------------------------------

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

    void op_view() {
        last_op = "view iteration";
        verify_iteration();
    }

    // ---- comparison ----------------------------------------------------------------------------------------

    template<typename Map, typename Pool, typename Value>
    void compare_pool(const Map &map, const Pool *pool, Value value, const char *what) const {
        if (!pool) {
            expect(map.empty(), what);
            return;
        }

        std::size_t count{};

        for (auto it = pool->each().begin(); it != pool->each().end(); ++it) {
            const auto elem = *it;
            const auto entt = std::get<0>(elem);
            ++count;
            const auto found = map.find(entt);
            expect(found != map.end(), what);
            expect(value(found, elem), what);
        }

        expect(count == map.size(), what);
    }

    void compare_components(const registry &target, const entity remote, const entity local) const {
        const auto *trivials = target.storage<trivial>();
        const auto *named = target.storage<trivial>(named_id);
        const auto *heavies = target.storage<heavy>();
        const auto *stables = target.storage<stable>();

        const auto has = [](const auto *pool, entity entt) { return pool && pool->contains(entt); };
        expect(has(trivials, local) == ref.trivials.contains(remote), "all_of<trivial> differs");
        expect(has(heavies, local) == ref.heavies.contains(remote), "all_of<heavy> differs");
        expect(target.all_of<tag>(local) == ref.tags.contains(remote), "all_of<tag> differs");
        expect(has(stables, local) == ref.stables.contains(remote), "all_of<stable> differs");
        expect(has(named, local) == ref.named.contains(remote), "named pool membership differs");
        expect(target.orphan(local) == ref.orphan(remote), "orphan differs");

        if (const auto it = ref.trivials.find(remote); it != ref.trivials.end()) {
            expect(target.get<trivial>(local).value == it->second, "get<trivial> differs");
        }
        if (const auto it = ref.heavies.find(remote); it != ref.heavies.end()) {
            expect(target.get<heavy>(local).text == it->second, "get<heavy> differs");
        }
        if (const auto it = ref.stables.find(remote); it != ref.stables.end()) {
            expect(target.get<stable>(local).value == it->second, "get<stable> differs");
        }
        if (const auto it = ref.named.find(remote); it != ref.named.end()) {
            expect(named->get(local).value == it->second, "named pool value differs");
        }
    }

    /// Walks [first, last) the way algorithms do with copies: each step copies the iterator, compares the copy,
    /// post-increments and reads the entity through the iterator it got back. Also copies and compares the end
    /// and a default-constructed iterator. Returns the entities in iteration order.
    template<typename It, typename Entity>
    std::vector<entity> walk_with_copies(const It first, const It last, Entity entity_of, const char *what) const {
        const It end_copy = last;
        expect(end_copy == last, what);
        const It blank{};
        const It blank_copy = blank;
        expect(blank_copy == blank, what);

        std::vector<entity> seen;

        for (It it = first; it != last;) {
            const It before = it;
            expect(before == it, what);
            const It previous = it++;
            expect(previous == before && !(it == before), what);
            seen.push_back(entity_of(*previous));
        }

        return seen;
    }

    /// The each() iterators and the plain iterators of a view or a group, walked with copies, visit `expected` in
    /// the same order.
    template<typename Iterable>
    void expect_walks(const Iterable &iterable, const std::set<entity> &expected, const char *what) const {
        const auto each = iterable.each();
        const auto through_each = walk_with_copies(
            each.begin(), each.end(), [](const auto &elem) { return std::get<0>(elem); }, what);
        const auto through_plain = walk_with_copies(
            iterable.begin(), iterable.end(), [](const entity entt) { return entt; }, what);
        expect(through_each.size() == expected.size() &&
                   std::set<entity>(through_each.begin(), through_each.end()) == expected,
               what);
        expect(through_plain == through_each, what);
    }

    template<typename Map>
    static std::set<entity> keys(const Map &map) {
        std::set<entity> out;

        for (const auto &elem : map) {
            out.insert(elem.first);
        }

        return out;
    }

    /// Copies of iterators: views and groups of the registry, and the same over a registry that stays empty.
    void verify_iterator_copies(const std::set<entity> &lead_heavy_trivial, const std::set<entity> &owned,
                                const std::set<entity> &plain) {
        expect_walks(reg->view<trivial>(), keys(ref.trivials), "copies of view<trivial> iterators");
        expect_walks(reg->view<stable>(), keys(ref.stables), "copies of view<stable> iterators");
        expect_walks(reg->view<tag>(), ref.tags, "copies of view<tag> iterators");
        expect_walks(reg->view<trivial, heavy>(tessera::exclude<tag>), lead_heavy_trivial,
                     "copies of view<trivial, heavy>(exclude<tag>) iterators");
        expect_walks(owning_group(), owned, "copies of owning group iterators");
        expect_walks(plain_group(), plain, "copies of non-owning group iterators");

        expect_walks(blank.view<trivial, heavy>(), {}, "copies of an empty view's iterators");
        expect_walks(blank.view<stable, tag>(tessera::exclude<trivial>), {}, "copies of an empty view's iterators");
        expect_walks(blank.view<trivial>(), {}, "copies of an empty single-type view's iterators");
        expect_walks(blank.group<trivial>(tessera::get<heavy>), {}, "copies of an empty owning group's iterators");
        expect_walks(blank.group<>(tessera::get<heavy, tag>, tessera::exclude<stable>), {},
                     "copies of an empty non-owning group's iterators");
    }

    void verify_iteration() {
        std::set<entity> lead_heavy_trivial, owned, plain;
        // single-type views
        {
            std::map<entity, int> seen;
            for (auto [entt, elem] : reg->view<trivial>().each()) {
                expect(seen.emplace(entt, elem.value).second, "view<trivial> repeats an entity");
            }
            expect(seen == ref.trivials, "view<trivial> differs");
        }
        {
            std::map<entity, int> seen;
            for (auto [entt, elem] : reg->view<stable>().each()) {
                expect(seen.emplace(entt, elem.value).second, "view<stable> repeats an entity");
            }
            expect(seen == ref.stables, "view<stable> differs");
        }
        {
            std::set<entity> seen;
            for (const auto entt : reg->view<tag>()) {
                expect(seen.insert(entt).second, "view<tag> repeats an entity");
            }
            expect(seen == ref.tags, "view<tag> differs");
        }
        // multi-type views, with and without exclusion
        {
            std::map<entity, std::pair<int, std::string>> seen, expected;
            for (auto [entt, lhs, rhs] : reg->view<trivial, heavy>(tessera::exclude<tag>).each()) {
                expect(seen.emplace(entt, std::make_pair(lhs.value, rhs.text)).second, "view repeats an entity");
            }
            for (const auto &[entt, value] : ref.trivials) {
                if (const auto it = ref.heavies.find(entt);
                    it != ref.heavies.end() && !ref.heavy_off.contains(entt) && !ref.tags.contains(entt)) {
                    expected.emplace(entt, std::make_pair(value, it->second));
                }
            }
            expect(seen == expected, "view<trivial, heavy>(exclude<tag>) differs");
            lead_heavy_trivial = keys(expected);
        }
        // the same view counting disabled heavies as present, then visiting only the entities with one
        for (const auto mode : {tessera::disabled_mode::include, tessera::disabled_mode::only}) {
            std::map<entity, std::pair<int, std::string>> seen, expected;
            auto view = reg->view<trivial, heavy>(tessera::exclude<tag>);
            view.visit_disabled(mode);
            for (auto [entt, lhs, rhs] : view.each()) {
                expect(seen.emplace(entt, std::make_pair(lhs.value, rhs.text)).second, "view repeats an entity");
            }
            std::size_t visited{};
            view.each([&visited](const entity, const trivial &, const heavy &) { ++visited; });
            for (const auto &[entt, value] : ref.trivials) {
                if (const auto it = ref.heavies.find(entt);
                    it != ref.heavies.end() && !ref.tags.contains(entt) &&
                    (mode == tessera::disabled_mode::include || ref.heavy_off.contains(entt))) {
                    expected.emplace(entt, std::make_pair(value, it->second));
                }
            }
            expect(seen == expected, "view<trivial, heavy>(exclude<tag>) visiting disabled heavies differs");
            expect(visited == expected.size(), "each(func) and each() disagree when visiting disabled heavies");
        }
        {
            std::map<entity, int> seen, expected;
            for (auto [entt, elem] : reg->view<stable, tag>(tessera::exclude<trivial>).each()) {
                expect(seen.emplace(entt, elem.value).second, "view repeats an entity");
            }
            for (const auto &[entt, value] : ref.stables) {
                if (ref.tags.contains(entt) && !ref.trivials.contains(entt)) {
                    expected.emplace(entt, value);
                }
            }
            expect(seen == expected, "view<stable, tag>(exclude<trivial>) differs");
        }
        // the owning group: trivial owned, heavy get
        {
            std::map<entity, std::pair<int, std::string>> seen, expected;
            auto group = owning_group();
            for (auto [entt, lhs, rhs] : group.each()) {
                expect(seen.emplace(entt, std::make_pair(lhs.value, rhs.text)).second, "group repeats an entity");
            }
            for (const auto &[entt, value] : ref.trivials) {
                if (const auto it = ref.heavies.find(entt); it != ref.heavies.end() && !ref.heavy_off.contains(entt)) {
                    expected.emplace(entt, std::make_pair(value, it->second));
                }
            }
            expect(seen == expected, "owning group<trivial>(get<heavy>) differs");
            owned = keys(expected);
            expect(group.size() == expected.size(), "owning group size differs");
            // owned elements are packed at the front of the owned pool
            const auto &pool = reg->storage<trivial>();
            for (std::size_t pos{}; pos < group.size(); ++pos) {
                expect(expected.contains(pool.data()[pos]), "owning group: a member outside the front of the pool");
            }
        }
        // the non-owning group: heavy and tag, without stable
        {
            std::map<entity, std::string> seen, expected;
            auto group = plain_group();
            for (auto [entt, elem] : group.each()) {
                expect(seen.emplace(entt, elem.text).second, "group repeats an entity");
            }
            for (const auto &[entt, text] : ref.heavies) {
                if (ref.tags.contains(entt) && !ref.stables.contains(entt) && !ref.heavy_off.contains(entt)) {
                    expected.emplace(entt, text);
                }
            }
            expect(seen == expected, "non-owning group<>(get<heavy, tag>, exclude<stable>) differs");
            expect(group.size() == expected.size(), "non-owning group size differs");
            plain = keys(expected);
        }

        // every fourth step: the walks cost a third of the test's time when run at each one
        if (step % 4u == 0u) {
            verify_iterator_copies(lead_heavy_trivial, owned, plain);
        }
    }

public:
    /// Starts with an empty registry holding both groups. At most `population` entities are alive at once, and
    /// identifiers are picked among the first `population` indices.
    explicit interpreter(chooser &source, const std::uint32_t population = 48u)
        : src{source}, max_index{population}, reg{std::make_unique<registry>()} {
        owning_group();
        plain_group();
    }

    /// Compares the whole observable state of the registry with the model; throws divergence.
    void verify() {
        const registry &target = *reg;
        const auto *entities = target.storage<entity>();
        expect(entities->free_list() == ref.alive.size(), "number of entities in use differs");
        // erase, remove, clear and destroy take the state along with the component
        std::erase_if(ref.heavy_off, [this](const entity entt) { return !ref.heavies.contains(entt); });

        for (const auto &[entt, text] : ref.heavies) {
            expect(target.enabled<heavy>(entt) == !ref.heavy_off.contains(entt), "enabled<heavy> differs");
        }

        const auto *heavies = target.storage<heavy>();
        expect((heavies ? heavies->disabled_size() : 0u) == ref.heavy_off.size(), "disabled heavies differ in number");

        for (const auto &[index, version] : ref.versions) {
            const auto curr = make(index, version);
            expect(target.current(curr) == version, "current differs");
            expect(target.valid(curr) == ref.alive.contains(curr), "valid differs");
            const auto older =
                make(index, static_cast<version_type>((version + traits::version_mask) & traits::version_mask));
            expect(!target.valid(older), "a stale identifier is valid");
        }

        const auto unseen =
            make(static_cast<std::uint32_t>(ref.versions.empty() ? 0u : ref.versions.rbegin()->first + 1u), 0u);
        expect(target.current(unseen) == traits::version_mask,
               "current of an unknown identifier is not the tombstone version");

        for (const auto entt : ref.alive) {
            compare_components(target, entt, entt);
            expect(target.any_of<trivial, tag>(entt) == (ref.trivials.contains(entt) || ref.tags.contains(entt)),
                   "any_of differs");
            expect(target.all_of<heavy, stable>(entt) == (ref.heavies.contains(entt) && ref.stables.contains(entt)),
                   "all_of differs");
        }

        compare_pool(
            ref.trivials, target.storage<trivial>(),
            [](auto it, auto elem) { return std::get<1>(elem).value == it->second; }, "pool trivial differs");
        compare_pool(
            ref.heavies, target.storage<heavy>(),
            [](auto it, auto elem) { return std::get<1>(elem).text == it->second; }, "pool heavy differs");
        compare_pool(
            ref.stables, target.storage<stable>(),
            [](auto it, auto elem) { return std::get<1>(elem).value == it->second; }, "pool stable differs");
        compare_pool(
            ref.named, target.storage<trivial>(named_id),
            [](auto it, auto elem) { return std::get<1>(elem).value == it->second; }, "pool named differs");
        const auto *tags = target.storage<tag>();
        expect((tags ? tags->size() : 0u) == ref.tags.size(), "pool tag size differs");
        expect(!target.storage<trivial>() || target.storage<trivial>()->size() == ref.trivials.size(),
               "pool trivial size differs");
        expect(!target.storage<heavy>() || target.storage<heavy>()->size() == ref.heavies.size(),
               "pool heavy size differs");

        verify_iteration();
        verify_ticks();
    }

    // Change detection, without drawing from the chooser (the operation sequences stay those of every seed): every
    // tick_period steps the registry's tick is marked and advanced, with the trivials of that moment. A value that
    // differs since, or a component that was not there, must read as changed (added); each_changed and each_added
    // must visit exactly what changed_since and added_since say, through the log and through the scan.
    void verify_ticks() {
        constexpr std::size_t tick_period = 8u;

        if (marked != reg.get() || step % tick_period == 0u) {
            marked = reg.get();
            mark_tick = reg->tick();
            mark_values = ref.trivials;
            reg->advance_tick();
        }

        std::set<entity> changed, added;

        for (const auto &[entt, value] : ref.trivials) {
            const auto before = mark_values.find(entt);
            const bool is_changed = reg->changed_since<trivial>(entt, mark_tick);
            const bool is_added = reg->added_since<trivial>(entt, mark_tick);
            expect(!reg->changed_since<trivial>(entt, reg->tick()), "a change is after the current tick");
            expect(is_changed || (before != mark_values.end() && before->second == value),
                   "a trivial that changed since the mark is not changed_since");
            expect(is_added || before != mark_values.end(), "a trivial added since the mark is not added_since");
            expect(!is_added || is_changed, "an addition is not a change");

            if (is_changed) {
                changed.insert(entt);
            }

            if (is_added) {
                added.insert(entt);
            }
        }

        for (const auto how : {tessera::internal::change_walk::log, tessera::internal::change_walk::scan}) {
            std::set<entity> seen_changed, seen_added;
            auto collect_changed = [&seen_changed](const entity entt, const trivial &) { seen_changed.insert(entt); };
            auto collect_added = [&seen_added](const entity entt, const trivial &) { seen_added.insert(entt); };
            tessera::internal::each_since<false, trivial>(reg->view<trivial>(), mark_tick, collect_changed, how);
            tessera::internal::each_since<true, trivial>(reg->view<trivial>(), mark_tick, collect_added, how);
            expect(seen_changed == changed, "each_changed differs from changed_since");
            expect(seen_added == added, "each_added differs from added_since");
        }
    }

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

    /// The registry saved with the binary archive: identifiers, the four default pools and the named pool.
    [[nodiscard]] std::vector<std::byte> snapshot_bytes() const {
        std::vector<std::byte> bytes;
        write_snapshot(bytes);
        return bytes;
    }

    /// Operations run so far.
    [[nodiscard]] std::size_t steps() const noexcept { return step; }

private:
    chooser &src;
    std::uint32_t max_index;
    model ref{};
    std::unique_ptr<registry> reg;
    // stays empty: its views and groups hand out iterators of empty ranges
    registry blank{};
    std::unique_ptr<registry> mirror{};
    std::unique_ptr<tessera::continuous_loader> loader{};
    // reused from one batch to the next, as applications do
    tessera::command_buffer buffer{};
    std::size_t mirror_locals{};
    // the registry, tick and trivials of the last mark of verify_ticks
    const registry *marked{};
    tessera::tick_type mark_tick{};
    std::map<entity, int> mark_values{};
    std::size_t step{};
    std::string last_op{};
};

} // namespace tessera_model

#endif
