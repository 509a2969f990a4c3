// A translation unit heavy on signals, handles and snapshots, for compile-time measurements (bench/compile/measure):
// construction, update and destruction listeners, a sigh with a sink, a dispatcher with three event types, handles
// that read and write components, and a save and load through a user-written archive. It uses only the documented
// API, so the same file compiles against any library that implements it.
#include <tessera/tessera.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

namespace events {

struct position {
    float x, y;
};

struct health {
    std::int32_t value;
};

struct shield {
    std::int32_t charge;
};

struct owner {
    tessera::entity who;
};

struct hit {
    tessera::entity target;
    std::int32_t amount;
};

struct healed {
    tessera::entity target;
};

struct died {
    tessera::entity who;
};

/// Counts what the listeners saw.
struct tally {
    int constructed{};
    int updated{};
    int destroyed{};
    int hits{};
    int heals{};
    int deaths{};

    void on_construct(tessera::registry &, tessera::entity) { ++constructed; }
    void on_update(tessera::registry &, tessera::entity) { ++updated; }
    void on_destroy(tessera::registry &, tessera::entity) { ++destroyed; }
    void on_hit(const hit &event) { hits += event.amount; }
    void on_healed(const healed &) { ++heals; }
    void on_died(died &) { ++deaths; }
};

void shield_up(tessera::registry &registry, const tessera::entity entt) {
    registry.emplace_or_replace<shield>(entt, 10);
}

/// Writes every value it is given as 32-bit words.
struct word_writer {
    std::vector<std::uint32_t> &words;

    void operator()(const std::underlying_type_t<tessera::entity> value) { words.push_back(value); }
    void operator()(const tessera::entity value) { words.push_back(static_cast<std::uint32_t>(value)); }
    void operator()(const position &value) {
        words.push_back(static_cast<std::uint32_t>(value.x));
        words.push_back(static_cast<std::uint32_t>(value.y));
    }
    void operator()(const health &value) { words.push_back(static_cast<std::uint32_t>(value.value)); }
    void operator()(const owner &value) { words.push_back(static_cast<std::uint32_t>(value.who)); }
};

/// Reads back what a word_writer wrote.
struct word_reader {
    const std::vector<std::uint32_t> &words;
    std::size_t next{};

    void operator()(std::underlying_type_t<tessera::entity> &value) { value = words[next++]; }
    void operator()(tessera::entity &value) { value = tessera::entity{words[next++]}; }
    void operator()(position &value) {
        value.x = static_cast<float>(words[next++]);
        value.y = static_cast<float>(words[next++]);
    }
    void operator()(health &value) { value.value = static_cast<std::int32_t>(words[next++]); }
    void operator()(owner &value) { value.who = tessera::entity{words[next++]}; }
};

void play(tessera::registry &registry, tessera::dispatcher &dispatcher, tally &counts) {
    for (int index{}; index < 100; ++index) {
        const tessera::handle unit{registry, registry.create()};
        unit.emplace<position>(static_cast<float>(index), 0.f);
        unit.emplace<health>(100);
        if (index % 2 == 0) {
            unit.emplace<owner>(tessera::entity{tessera::null});
        }

        if (index % 3 == 0) {
            unit.patch<health>([](health &hp) { hp.value += 5; });
        }
        if (index % 5 == 0) {
            unit.replace<position>(0.f, 0.f);
        }
        dispatcher.enqueue<hit>(unit.entity(), index % 7);
    }

    dispatcher.update();

    for (const auto entt : registry.view<health>()) {
        const tessera::const_handle unit{registry, entt};
        if (unit.get<health>().value > 102) {
            dispatcher.trigger(healed{entt});
        } else if (unit.all_of<position, owner>() && unit.try_get<health>() != nullptr) {
            died event{entt};
            dispatcher.trigger(event);
        }
    }

    registry.destroy(registry.view<owner>().begin(), registry.view<owner>().end());
    std::printf("%d %d %d %d %d %d\n", counts.constructed, counts.updated, counts.destroyed, counts.hits, counts.heals,
                counts.deaths);
}

} // namespace events

int main() {
    tessera::registry registry{};
    events::tally counts{};
    registry.on_construct<events::health>().connect<&events::tally::on_construct>(counts);
    registry.on_update<events::health>().connect<&events::tally::on_update>(counts);
    registry.on_destroy<events::health>().connect<&events::tally::on_destroy>(counts);
    registry.on_update<events::position>().connect<&events::shield_up>();

    tessera::sigh<void(const events::hit &)> hits{};
    tessera::sink hit_sink{hits};
    hit_sink.connect<&events::tally::on_hit>(counts);

    tessera::dispatcher dispatcher{};
    dispatcher.sink<events::hit>().connect<&events::tally::on_hit>(counts);
    dispatcher.sink<events::healed>().connect<&events::tally::on_healed>(counts);
    dispatcher.sink<events::died>().connect<&events::tally::on_died>(counts);

    events::play(registry, dispatcher, counts);
    hits.publish(events::hit{tessera::null, 1});

    std::vector<std::uint32_t> words{};
    events::word_writer output{words};
    tessera::snapshot{registry}
        .get<tessera::entity>(output)
        .get<events::position>(output)
        .get<events::health>(output)
        .get<events::owner>(output);

    tessera::registry loaded{};
    events::word_reader archive{words};
    tessera::snapshot_loader{loaded}
        .get<tessera::entity>(archive)
        .get<events::position>(archive)
        .get<events::health>(archive)
        .get<events::owner>(archive)
        .orphans();

    tessera::registry merged{};
    archive.next = 0u;
    tessera::continuous_loader loader{merged};
    loader.get<tessera::entity>(archive).get<events::position>(archive).get<events::health>(archive).get<events::owner>(
        archive);

    std::printf("%zu %zu\n", loaded.storage<events::health>().size(), merged.storage<events::health>().size());
    return 0;
}
