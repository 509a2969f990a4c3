// Example: the organizer turns systems, declared with what they read and write, into a dependency graph; the
// graph is printed and then run in an order that respects it (Kahn's algorithm over the edges).
#include <tessera/tessera.hpp>

#include <cstdio>
#include <deque>
#include <vector>

namespace {

struct position {
    float x{}, y{};
};

struct velocity {
    float dx{}, dy{};
};

struct frame_clock {
    float delta{0.5f};
};

// Which task ran when, to check the order afterwards.
struct trace {
    std::vector<const char *> order{};
};

int failures{};

void check(const bool condition, const char *what) {
    std::printf("  [%s] %s\n", condition ? "ok" : "FAILED", what);
    failures += condition ? 0 : 1;
}

// The parameters tell the organizer what a system touches: a view of const types reads them, a non-const type
// is written, context variables appear as references (const for reading).
void accelerate(tessera::view<tessera::get_t<velocity>> view, const frame_clock &time, trace &log) {
    view.each([&time](velocity &vel) { vel.dx += time.delta; });
    log.order.push_back("accelerate");
}

void move(tessera::view<tessera::get_t<position, const velocity>> view, const frame_clock &time, trace &log) {
    view.each([&time](position &pos, const velocity &vel) { pos.x += vel.dx * time.delta; });
    log.order.push_back("move");
}

void report(tessera::view<tessera::get_t<const position>> view, trace &log) {
    float sum{};
    view.each([&sum](const position &pos) { sum += pos.x; });
    std::printf("    report: sum of x = %.2f\n", static_cast<double>(sum));
    log.order.push_back("report");
}

void advance_clock(frame_clock &, trace &log) { log.order.push_back("clock"); }

const char *name_of(const tessera::type_info *info) {
    static char buffer[64];
    std::snprintf(buffer, sizeof(buffer), "%.*s", static_cast<int>(info->name().size()), info->name().data());
    return buffer;
}

} // namespace

int main() {
    tessera::registry registry;
    registry.ctx().emplace<frame_clock>();
    registry.ctx().emplace<trace>();

    for (int i = 0; i < 4; ++i) {
        const auto entity = registry.create();
        registry.emplace<position>(entity);
        registry.emplace<velocity>(entity);
    }

    // Every system writes the trace, so they are chained in insertion order; the real dependencies come from
    // the components and the clock. Declaring trace read-only for the organizer (Req = const trace) shows
    // them: it overrides the access mode the parameter suggests.
    tessera::organizer organizer;
    organizer.emplace<&accelerate, const trace>("accelerate");
    organizer.emplace<&move, const trace>("move");
    organizer.emplace<&report, const trace>("report");
    organizer.emplace<&advance_clock, const trace>("clock");
    const auto graph = organizer.graph();

    std::puts("organizer: the graph");
    for (std::size_t pos{}; pos < graph.size(); ++pos) {
        const tessera::type_info *resources[8]{};
        std::printf("    %-10s reads:", graph[pos].name());
        for (std::size_t i{}, n = graph[pos].ro_dependency(resources, 8u); i < n; ++i) {
            std::printf(" %s", name_of(resources[i]));
        }
        std::printf("; writes:");
        for (std::size_t i{}, n = graph[pos].rw_dependency(resources, 8u); i < n; ++i) {
            std::printf(" %s", name_of(resources[i]));
        }
        std::printf("; before:");
        for (const auto child : graph[pos].children()) {
            std::printf(" %s", graph[child].name());
        }
        std::printf("%s\n", graph[pos].top_level() ? " (top level)" : "");
    }

    check(graph.size() == 4u, "four tasks");
    check(graph[0].top_level() && !graph[1].top_level(), "accelerate starts, move waits (it reads velocity)");
    check(!graph[2].top_level() && !graph[3].top_level(), "report waits for move, clock for the readers");

    std::puts("organizer: run in a valid order");
    for (const auto &vertex : graph) {
        // creates the pools and context variables the task uses before anything runs
        vertex.prepare(registry);
    }

    std::vector<std::size_t> waiting(graph.size());
    std::deque<std::size_t> ready{};
    for (std::size_t pos{}; pos < graph.size(); ++pos) {
        waiting[pos] = graph[pos].in_edges().size();
        if (waiting[pos] == 0u) {
            ready.push_back(pos);
        }
    }

    std::vector<std::size_t> ran{};
    while (!ready.empty()) {
        const auto pos = ready.front();
        ready.pop_front();
        // tasks in `ready` at the same time could run on different threads
        graph[pos].callback()(graph[pos].data(), registry);
        ran.push_back(pos);
        for (const auto child : graph[pos].children()) {
            if (--waiting[child] == 0u) {
                ready.push_back(child);
            }
        }
    }

    check(ran.size() == graph.size(), "every task ran once");
    bool respected = true;
    for (std::size_t pos{}; pos < ran.size(); ++pos) {
        for (const auto parent : graph[ran[pos]].in_edges()) {
            bool before = false;
            for (std::size_t prev{}; prev < pos; ++prev) {
                before = before || ran[prev] == parent;
            }
            respected = respected && before;
        }
    }
    check(respected, "each task ran after the tasks it waits for");
    check(registry.ctx().get<trace>().order.size() == 4u, "the systems recorded their runs");

    std::printf("organizer: %s\n", failures == 0 ? "all checks passed" : "some checks FAILED");
    return failures == 0 ? 0 : 1;
}
