// Example: game events with a dispatcher (queued damage resolved once per frame, an immediate "game over", a named
// queue for the log) and an emitter (a download task that reports progress to whoever listens).
#include <tessera/tessera.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace tessera::literals;

struct health {
    int points{};
};

struct damage {
    tessera::entity target;
    int amount;
};

struct died {
    tessera::entity who;
};

struct game_over {
    int frame;
};

int failures{};

void check(const bool condition, const char *what) {
    std::printf("  [%s] %s\n", condition ? "ok" : "FAILED", what);
    failures += condition ? 0 : 1;
}

// Applies queued damage. A death is queued in turn: it is resolved on the next update, not in the middle of this one.
struct combat_system {
    tessera::registry *registry;
    tessera::dispatcher *events;

    void on_damage(const damage &event) {
        if (!registry->valid(event.target)) {
            return;
        }
        auto &life = registry->get<health>(event.target);
        const bool was_alive = life.points > 0;
        life.points -= event.amount;
        if (was_alive && life.points <= 0) {
            events->enqueue<died>(event.target);
        }
    }
};

struct undertaker {
    tessera::registry *registry;
    std::vector<tessera::entity> buried{};

    void on_died(const died &event) {
        buried.push_back(event.who);
        registry->destroy(event.who);
    }
};

struct chronicle {
    std::vector<std::string> lines{};
    bool over{};

    void note(const std::string &line) { lines.push_back(line); }
    void on_game_over(const game_over &) { over = true; }
};

// An emitter: the task owns no listener list of its own, it only says what happened.
struct progress {
    int percent;
};

struct finished {};

struct download_task : tessera::emitter<download_task> {
    void run() {
        for (int percent = 25; percent <= 100; percent += 25) {
            publish(progress{percent});
        }
        publish(finished{});
    }
};

} // namespace

int main() {
    tessera::registry registry;
    tessera::dispatcher events;
    combat_system combat{&registry, &events};
    undertaker graves{&registry};
    chronicle log;

    events.sink<damage>().connect<&combat_system::on_damage>(combat);
    events.sink<died>().connect<&undertaker::on_died>(graves);
    events.sink<game_over>().connect<&chronicle::on_game_over>(log);
    // a named queue: strings for the log, kept apart from any other queue of std::string
    events.sink<std::string>("log"_hs).connect<&chronicle::note>(log);

    const auto knight = registry.create();
    const auto goblin = registry.create();
    registry.emplace<health>(knight, 30);
    registry.emplace<health>(goblin, 10);

    std::puts("events: damage is queued and resolved once per frame");
    events.enqueue<damage>(goblin, 4);
    events.enqueue(damage{knight, 5});
    events.enqueue<damage>(goblin, 8);
    check(events.size<damage>() == 3u, "three damage events wait for the frame's update");
    check(registry.get<health>(goblin).points == 10, "nothing happens before update");

    events.update<damage>();
    check(registry.get<health>(goblin).points == -2, "the goblin took 12 damage");
    check(events.size<died>() == 1u, "its death is queued for the next update");
    check(registry.valid(goblin), "the goblin is still there until the death is delivered");

    events.update();
    check(!registry.valid(goblin) && graves.buried.size() == 1u, "the next update buried the goblin");

    std::puts("events: the named log queue");
    events.enqueue_hint<std::string>("log"_hs, "frame 1 done");
    events.enqueue_hint("log"_hs, std::string{"frame 2 done"});
    check(events.size<std::string>() == 0u && events.size<std::string>("log"_hs) == 2u,
          "the log strings went to the named queue only");
    events.update<std::string>("log"_hs);
    check(log.lines.size() == 2u && log.lines[1] == "frame 2 done", "the log listener got both lines, in order");

    std::puts("events: trigger delivers at once");
    events.trigger(game_over{3});
    check(log.over, "game_over reached its listener without an update");

    events.disconnect(combat);
    events.enqueue<damage>(knight, 100);
    events.update();
    check(registry.get<health>(knight).points == 25, "after disconnect(combat) damage is ignored");

    std::puts("events: an emitter reports progress");
    download_task task;
    std::vector<int> seen{};
    bool done{};
    task.on<progress>([&seen](const progress &event, download_task &) { seen.push_back(event.percent); });
    task.on<finished>([&done](finished &, download_task &self) {
        done = true;
        // a listener may drop listeners, even its own
        self.erase<progress>();
        self.erase<finished>();
    });
    task.run();
    check(seen == std::vector<int>{25, 50, 75, 100}, "progress arrived in order");
    check(done && task.empty(), "the last listener removed every listener");

    std::printf("events: %s\n", failures == 0 ? "all checks passed" : "some checks FAILED");
    return failures == 0 ? 0 : 1;
}
