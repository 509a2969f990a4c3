// The shared half of the model interpreter (interpreter.hpp): the model and the registry under test side by side,
// picking identifiers for operations, and the comparisons that run after every step. The operations build on it
// (deferred_ops.hpp for command buffers, clone and spawn; interpreter.hpp for the rest).
#ifndef TESSERA_TEST_MODEL_CHECKER_HPP
#define TESSERA_TEST_MODEL_CHECKER_HPP

#include "model/reference.hpp"

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
    // the registry, tick and trivials of the last mark of verify_ticks
    const registry *marked{};
    tessera::tick_type mark_tick{};
    std::map<entity, int> mark_values{};
    std::size_t step{};
    std::string last_op{};
};

} // namespace tessera_model

#endif
