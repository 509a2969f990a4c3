// The shared half of the model interpreter (interpreter.hpp): the model and the registry under test side by side,
// picking identifiers for operations, and the comparisons that run after every step. The operations build on it
// (deferred_ops.hpp for command buffers, clone and spawn; interpreter.hpp for the rest).
#ifndef TESSERA_TEST_MODEL_CHECKER_HPP
#define TESSERA_TEST_MODEL_CHECKER_HPP

#include "model/reference.hpp"
#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tessera_model {

/// The model and the registry under test, with the comparisons between them; throws divergence.
class checker {
public:
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
            mark_values.assign(ref.trivials.begin(), ref.trivials.end());
            reg->advance_tick();
        }

        // ref.trivials is ordered: changed and added come out sorted
        changed.clear();
        added.clear();

        for (const auto &[entt, value] : ref.trivials) {
            const auto before = std::lower_bound(mark_values.begin(), mark_values.end(), entt, key_less{});
            const bool was_there = before != mark_values.end() && before->first == entt;
            const bool is_changed = reg->changed_since<trivial>(entt, mark_tick);
            const bool is_added = reg->added_since<trivial>(entt, mark_tick);
            expect(!reg->changed_since<trivial>(entt, reg->tick()), "a change is after the current tick");
            expect(is_changed || (was_there && before->second == value),
                   "a trivial that changed since the mark is not changed_since");
            expect(is_added || was_there, "a trivial added since the mark is not added_since");
            expect(!is_added || is_changed, "an addition is not a change");

            if (is_changed) {
                changed.push_back(entt);
            }

            if (is_added) {
                added.push_back(entt);
            }
        }

        for (const auto how : {tessera::internal::change_walk::log, tessera::internal::change_walk::scan}) {
            seen_changed.clear();
            seen_added.clear();
            auto collect_changed = [this](const entity entt, const trivial &) { seen_changed.push_back(entt); };
            auto collect_added = [this](const entity entt, const trivial &) { seen_added.push_back(entt); };
            tessera::internal::each_since<false, trivial>(reg->view<trivial>(), mark_tick, collect_changed, how);
            tessera::internal::each_since<true, trivial>(reg->view<trivial>(), mark_tick, collect_added, how);
            // compared as sets, as before: the order of the visit and a repeated visit do not matter here
            expect(as_set(seen_changed) == changed, "each_changed differs from changed_since");
            expect(as_set(seen_added) == added, "each_added differs from added_since");
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

protected:
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

    /// Starts with an empty registry holding both groups. At most `population` entities are alive at once, and
    /// identifiers are picked among the first `population` indices.
    checker(chooser &source, const std::uint32_t population)
        : src{source}, max_index{population}, reg{std::make_unique<registry>()} {
        owning_group();
        plain_group();
    }

    void write_snapshot(std::vector<std::byte> &bytes) const { save_all(*reg, bytes); }

    // snapshots do not record the state yet, and a batch may remove and add a heavy: both start all enabled
    void enable_all_heavies() {
        for (const auto entt : ref.heavy_off) {
            expect(reg->enable<heavy>(entt), "enable<heavy> of a disabled heavy reported no change");
        }

        ref.heavy_off.clear();
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

    // ---- scratch containers ----------------------------------------------------------------------------------
    // The comparisons after every step collect what the registry shows into sorted vectors kept from one step to the
    // next, never into node-based containers built per step: the checks are those of sets and maps (no entity
    // twice, the same entries as the model), and the model test's time goes to the registry, not to allocations.

    struct key_less {
        template<typename Entry>
        bool operator()(const Entry &entry, const entity entt) const {
            return entry.first < entt;
        }
    };

    /// Sorts `entries` by entity; fails with `what` if an entity is there twice.
    template<typename Entry>
    void sort_unique(std::vector<Entry> &entries, const char *what) const {
        const auto key = [](const Entry &entry) -> entity {
            if constexpr (std::is_same_v<Entry, entity>) {
                return entry;
            } else {
                return std::get<0>(entry);
            }
        };
        std::sort(entries.begin(), entries.end(),
                  [&key](const Entry &lhs, const Entry &rhs) { return key(lhs) < key(rhs); });
        expect(std::adjacent_find(entries.begin(), entries.end(),
                                  [&key](const Entry &lhs, const Entry &rhs) { return key(lhs) == key(rhs); }) ==
                   entries.end(),
               what);
    }

    /// `entities` sorted, without repeats: what a std::set made of them holds.
    static std::vector<entity> &as_set(std::vector<entity> &entities) {
        std::sort(entities.begin(), entities.end());
        entities.erase(std::unique(entities.begin(), entities.end()), entities.end());
        return entities;
    }

    /// The keys of a model map (or the elements of a model set), in order, into `out`.
    template<typename Ordered>
    static const std::vector<entity> &keys_into(std::vector<entity> &out, const Ordered &ordered) {
        out.clear();

        for (const auto &elem : ordered) {
            if constexpr (std::is_same_v<Ordered, std::set<entity>>) {
                out.push_back(elem);
            } else {
                out.push_back(elem.first);
            }
        }

        return out;
    }

    template<typename Entries, typename Map>
    static bool same_as_map(const Entries &entries, const Map &map) {
        return std::equal(entries.begin(), entries.end(), map.begin(), map.end(), [](const auto &lhs, const auto &rhs) {
            return lhs.first == rhs.first && lhs.second == rhs.second;
        });
    }

    /// Walks [first, last) the way algorithms do with copies: each step copies the iterator, compares the copy,
    /// post-increments and reads the entity through the iterator it got back. Also copies and compares the end
    /// and a default-constructed iterator. Leaves the entities in iteration order in `seen`.
    template<typename It, typename Entity>
    void walk_with_copies(const It first, const It last, Entity entity_of, std::vector<entity> &seen,
                          const char *what) const {
        const It end_copy = last;
        expect(end_copy == last, what);
        const It blank_it{};
        const It blank_copy = blank_it;
        expect(blank_copy == blank_it, what);

        seen.clear();

        for (It it = first; it != last;) {
            const It before = it;
            expect(before == it, what);
            const It previous = it++;
            expect(previous == before && !(it == before), what);
            seen.push_back(entity_of(*previous));
        }
    }

    /// The each() iterators and the plain iterators of a view or a group, walked with copies, visit `expected` (sorted)
    /// in the same order.
    template<typename Iterable>
    void expect_walks(const Iterable &iterable, const std::vector<entity> &expected, const char *what) {
        const auto each = iterable.each();
        walk_with_copies(
            each.begin(), each.end(), [](const auto &elem) { return std::get<0>(elem); }, walk_each, what);
        walk_with_copies(
            iterable.begin(), iterable.end(), [](const entity entt) { return entt; }, walk_plain, what);
        expect(walk_plain == walk_each, what);
        // the same entities as the model, none twice
        std::sort(walk_each.begin(), walk_each.end());
        expect(walk_each == expected, what);
    }

    /// Copies of iterators: views and groups of the registry, and the same over a registry that stays empty.
    void verify_iterator_copies() {
        expect_walks(reg->view<trivial>(), keys_into(expected_keys, ref.trivials), "copies of view<trivial> iterators");
        expect_walks(reg->view<stable>(), keys_into(expected_keys, ref.stables), "copies of view<stable> iterators");
        expect_walks(reg->view<tag>(), keys_into(expected_keys, ref.tags), "copies of view<tag> iterators");
        expect_walks(reg->view<trivial, heavy>(tessera::exclude<tag>), lead_heavy_trivial,
                     "copies of view<trivial, heavy>(exclude<tag>) iterators");
        expect_walks(owning_group(), owned, "copies of owning group iterators");
        expect_walks(plain_group(), plain, "copies of non-owning group iterators");

        expected_keys.clear();
        expect_walks(blank.view<trivial, heavy>(), expected_keys, "copies of an empty view's iterators");
        expect_walks(blank.view<stable, tag>(tessera::exclude<trivial>), expected_keys,
                     "copies of an empty view's iterators");
        expect_walks(blank.view<trivial>(), expected_keys, "copies of an empty single-type view's iterators");
        expect_walks(blank.group<trivial>(tessera::get<heavy>), expected_keys,
                     "copies of an empty owning group's iterators");
        expect_walks(blank.group<>(tessera::get<heavy, tag>, tessera::exclude<stable>), expected_keys,
                     "copies of an empty non-owning group's iterators");
    }

    void verify_iteration() {
        // single-type views
        {
            seen_values.clear();
            for (auto [entt, elem] : reg->view<trivial>().each()) {
                seen_values.emplace_back(entt, elem.value);
            }
            sort_unique(seen_values, "view<trivial> repeats an entity");
            expect(same_as_map(seen_values, ref.trivials), "view<trivial> differs");
        }
        {
            seen_values.clear();
            for (auto [entt, elem] : reg->view<stable>().each()) {
                seen_values.emplace_back(entt, elem.value);
            }
            sort_unique(seen_values, "view<stable> repeats an entity");
            expect(same_as_map(seen_values, ref.stables), "view<stable> differs");
        }
        {
            seen_keys.clear();
            for (const auto entt : reg->view<tag>()) {
                seen_keys.push_back(entt);
            }
            sort_unique(seen_keys, "view<tag> repeats an entity");
            expect(seen_keys == keys_into(expected_keys, ref.tags), "view<tag> differs");
        }
        // multi-type views, with and without exclusion
        {
            seen_pairs.clear();
            expected_pairs.clear();
            for (auto [entt, lhs, rhs] : reg->view<trivial, heavy>(tessera::exclude<tag>).each()) {
                seen_pairs.emplace_back(entt, lhs.value, &rhs.text);
            }
            sort_unique(seen_pairs, "view repeats an entity");
            for (const auto &[entt, value] : ref.trivials) {
                if (const auto it = ref.heavies.find(entt);
                    it != ref.heavies.end() && !ref.heavy_off.contains(entt) && !ref.tags.contains(entt)) {
                    expected_pairs.emplace_back(entt, value, &it->second);
                }
            }
            expect(same_pairs(), "view<trivial, heavy>(exclude<tag>) differs");
            pair_keys(lead_heavy_trivial);
        }
        // the same view counting disabled heavies as present, then visiting only the entities with one
        for (const auto mode : {tessera::disabled_mode::include, tessera::disabled_mode::only}) {
            seen_pairs.clear();
            expected_pairs.clear();
            auto view = reg->view<trivial, heavy>(tessera::exclude<tag>);
            view.visit_disabled(mode);
            for (auto [entt, lhs, rhs] : view.each()) {
                seen_pairs.emplace_back(entt, lhs.value, &rhs.text);
            }
            sort_unique(seen_pairs, "view repeats an entity");
            std::size_t visited{};
            view.each([&visited](const entity, const trivial &, const heavy &) { ++visited; });
            for (const auto &[entt, value] : ref.trivials) {
                if (const auto it = ref.heavies.find(entt);
                    it != ref.heavies.end() && !ref.tags.contains(entt) &&
                    (mode == tessera::disabled_mode::include || ref.heavy_off.contains(entt))) {
                    expected_pairs.emplace_back(entt, value, &it->second);
                }
            }
            expect(same_pairs(), "view<trivial, heavy>(exclude<tag>) visiting disabled heavies differs");
            expect(visited == expected_pairs.size(), "each(func) and each() disagree when visiting disabled heavies");
        }
        {
            seen_values.clear();
            expected_values.clear();
            for (auto [entt, elem] : reg->view<stable, tag>(tessera::exclude<trivial>).each()) {
                seen_values.emplace_back(entt, elem.value);
            }
            sort_unique(seen_values, "view repeats an entity");
            for (const auto &[entt, value] : ref.stables) {
                if (ref.tags.contains(entt) && !ref.trivials.contains(entt)) {
                    expected_values.emplace_back(entt, value);
                }
            }
            expect(seen_values == expected_values, "view<stable, tag>(exclude<trivial>) differs");
        }
        // the owning group: trivial owned, heavy get
        {
            seen_pairs.clear();
            expected_pairs.clear();
            auto group = owning_group();
            for (auto [entt, lhs, rhs] : group.each()) {
                seen_pairs.emplace_back(entt, lhs.value, &rhs.text);
            }
            sort_unique(seen_pairs, "group repeats an entity");
            for (const auto &[entt, value] : ref.trivials) {
                if (const auto it = ref.heavies.find(entt); it != ref.heavies.end() && !ref.heavy_off.contains(entt)) {
                    expected_pairs.emplace_back(entt, value, &it->second);
                }
            }
            expect(same_pairs(), "owning group<trivial>(get<heavy>) differs");
            pair_keys(owned);
            expect(group.size() == expected_pairs.size(), "owning group size differs");
            // owned elements are packed at the front of the owned pool
            const auto &pool = reg->storage<trivial>();
            for (std::size_t pos{}; pos < group.size(); ++pos) {
                expect(std::binary_search(owned.begin(), owned.end(), pool.data()[pos]),
                       "owning group: a member outside the front of the pool");
            }
        }
        // the non-owning group: heavy and tag, without stable
        {
            seen_texts.clear();
            expected_texts.clear();
            auto group = plain_group();
            for (auto [entt, elem] : group.each()) {
                seen_texts.emplace_back(entt, &elem.text);
            }
            sort_unique(seen_texts, "group repeats an entity");
            for (const auto &[entt, text] : ref.heavies) {
                if (ref.tags.contains(entt) && !ref.stables.contains(entt) && !ref.heavy_off.contains(entt)) {
                    expected_texts.emplace_back(entt, &text);
                }
            }
            expect(std::equal(seen_texts.begin(), seen_texts.end(), expected_texts.begin(), expected_texts.end(),
                              [](const auto &lhs, const auto &rhs) {
                                  return lhs.first == rhs.first && *lhs.second == *rhs.second;
                              }),
                   "non-owning group<>(get<heavy, tag>, exclude<stable>) differs");
            expect(group.size() == expected_texts.size(), "non-owning group size differs");
            plain.clear();
            for (const auto &elem : expected_texts) {
                plain.push_back(elem.first);
            }
        }

        // every fourth step: the walks cost a third of the test's time when run at each one
        if (step % 4u == 0u) {
            verify_iterator_copies();
        }
    }

    /// seen_pairs and expected_pairs (both sorted) hold the same entities with equal values.
    [[nodiscard]] bool same_pairs() const {
        return std::equal(seen_pairs.begin(), seen_pairs.end(), expected_pairs.begin(), expected_pairs.end(),
                          [](const auto &lhs, const auto &rhs) {
                              return std::get<0>(lhs) == std::get<0>(rhs) && std::get<1>(lhs) == std::get<1>(rhs) &&
                                     *std::get<2>(lhs) == *std::get<2>(rhs);
                          });
    }

    /// The entities of expected_pairs, in order, into `out`.
    void pair_keys(std::vector<entity> &out) const {
        out.clear();

        for (const auto &elem : expected_pairs) {
            out.push_back(std::get<0>(elem));
        }
    }

    // ---- state --------------------------------------------------------------------------------------------

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
    // the registry, tick and trivials (sorted by entity) of the last mark of verify_ticks
    const registry *marked{};
    tessera::tick_type mark_tick{};
    std::vector<std::pair<entity, int>> mark_values{};
    // scratch containers of the comparisons, kept from one step to the next (see above)
    std::vector<entity> changed{}, added{}, seen_changed{}, seen_added{};
    std::vector<entity> seen_keys{}, expected_keys{}, walk_each{}, walk_plain{};
    std::vector<entity> lead_heavy_trivial{}, owned{}, plain{};
    std::vector<std::pair<entity, int>> seen_values{}, expected_values{};
    std::vector<std::tuple<entity, int, const std::string *>> seen_pairs{}, expected_pairs{};
    std::vector<std::pair<entity, const std::string *>> seen_texts{}, expected_texts{};
    std::size_t step{};
    std::string last_op{};
};

} // namespace tessera_model

#endif
