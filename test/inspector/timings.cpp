// Frame and task times (inspector/timings.hpp): clocks, the 300-frame history, the JSON the systems route sends,
// and timed<&system>, which keeps the organizer's graph as it was and times each run, also on the executor's
// threads (where the execution module is built).
#include <chrono>
#include <cstdint>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <tessera/entity/organizer.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/view.hpp>
#include <tessera/inspector/timings.hpp>
#include <thread>
#include <vector>

#ifdef TESSERA_TEST_INSPECTOR_EXECUTION
#    include <tessera/execution/executor.hpp>
#endif

namespace {
namespace unit_inspector_timings {

namespace {

struct position {
    int x;
};

struct velocity {
    int dx;
};

struct frame_count {
    int value;
};

void spin_for(const std::chrono::microseconds duration) {
    const auto end = std::chrono::steady_clock::now() + duration;

    while (std::chrono::steady_clock::now() < end) {
    }
}

void move(tessera::view<tessera::get_t<position, const velocity>> view) {
    view.each([](position &pos, const velocity &vel) { pos.x += vel.dx; });
    spin_for(std::chrono::microseconds{300});
}

void count(frame_count &frames) {
    ++frames.value;
    spin_for(std::chrono::microseconds{300});
}

void fail(const frame_count &) {
    spin_for(std::chrono::microseconds{200});
    throw std::runtime_error{"system failed"};
}

TEST(InspectorTimings, ClocksAddAndTake) {
    tessera::inspector::task_clock clock{};
    clock.add(std::chrono::microseconds{3});
    clock.add_milliseconds(0.5);
    clock.add(std::chrono::nanoseconds{-5});
    clock.add_milliseconds(-1.);
    EXPECT_EQ(clock.take(), 503000u);
    EXPECT_EQ(clock.take(), 0u);
}

TEST(InspectorTimings, TasksAreFoundByName) {
    tessera::inspector::frame_timings timings{};
    auto &movement = timings.task("movement");
    EXPECT_EQ(&timings.task("movement"), &movement);
    EXPECT_NE(&timings.task("render"), &movement);

    // addresses stay put however many tasks come
    for (int pos{}; pos < 100; ++pos) {
        static_cast<void>(timings.task("task " + std::to_string(pos)));
    }

    EXPECT_EQ(&timings.task("movement"), &movement);
    EXPECT_EQ(timings.task_count(), 102u);
}

TEST(InspectorTimings, TheHistoryKeepsTheLastFrames) {
    tessera::inspector::frame_timings timings{};
    EXPECT_EQ(timings.to_json()["frame_ms"].size(), 0u);

    for (int frame{}; frame < 305; ++frame) {
        timings.record("physics", static_cast<double>(frame));

        if (frame >= 300) {
            timings.record("late", 1.0);
        }

        timings.end_frame(static_cast<double>(frame) + 0.5);
    }

    const auto history = timings.to_json();
    EXPECT_EQ(timings.frames(), 305u);
    EXPECT_EQ(history["frames"], 305u);
    EXPECT_EQ(history["first"], 5u);
    ASSERT_EQ(history["frame_ms"].size(), 300u);
    EXPECT_EQ(history["frame_ms"][0], 5.5);
    EXPECT_EQ(history["frame_ms"][299], 304.5);
    const auto &physics = history["tasks"][0];
    EXPECT_EQ(physics["ms"][0], 5.0);
    EXPECT_EQ(physics["max"], 304.0);
    EXPECT_EQ(physics["last"], 304.0);
    EXPECT_NEAR(physics["mean"].get<double>(), 154.5, 1e-9);
    // a task that came late: 0 before it, its mean over its own frames
    const auto &late = history["tasks"][1];
    EXPECT_EQ(late["ms"][0], 0.0);
    EXPECT_EQ(late["ms"][299], 1.0);
    EXPECT_NEAR(late["mean"].get<double>(), 1.0, 1e-9);
}

TEST(InspectorTimings, EndFrameMeasuresTheFrame) {
    tessera::inspector::frame_timings timings{};
    timings.end_frame();
    std::this_thread::sleep_for(std::chrono::milliseconds{3});
    timings.end_frame();
    EXPECT_GE(timings.to_json()["frame_ms"][1].get<double>(), 3.0);
}

TEST(InspectorTimings, TimedTasksKeepTheGraph) {
    tessera::inspector::frame_timings timings{};
    tessera::organizer plain{};
    plain.emplace<&move>("move");
    plain.emplace<&count>("count");
    tessera::organizer timed{};
    timed.emplace<tessera::inspector::timed<&move>>(timings.task("move"), "move");
    timed.emplace<tessera::inspector::timed<&count>>(timings.task("count"), "count");

    const auto expected = plain.graph();
    const auto graph = timed.graph();
    ASSERT_EQ(graph.size(), expected.size());

    for (std::size_t pos{}; pos < graph.size(); ++pos) {
        EXPECT_EQ(graph[pos].ro_count(), expected[pos].ro_count());
        EXPECT_EQ(graph[pos].rw_count(), expected[pos].rw_count());
        EXPECT_EQ(graph[pos].children(), expected[pos].children());
        EXPECT_STREQ(graph[pos].name(), expected[pos].name());
    }

    tessera::registry registry{};
    const auto entt = registry.create();
    registry.emplace<position>(entt, 1);
    registry.emplace<velocity>(entt, 2);

    for (auto &&vertex : graph) {
        vertex.prepare(registry);
    }

    for (auto &&vertex : graph) {
        vertex.callback()(vertex.data(), registry);
    }

    timings.end_frame(1.0);
    EXPECT_EQ(registry.get<position>(entt).x, 3);
    EXPECT_EQ(registry.ctx().get<frame_count>().value, 1);
    const auto history = timings.to_json();
    EXPECT_GE(history["tasks"][0]["last"].get<double>(), 0.3);
    EXPECT_GE(history["tasks"][1]["last"].get<double>(), 0.3);
}

TEST(InspectorTimings, ATaskThatThrowsIsTimedToo) {
    tessera::inspector::frame_timings timings{};
    tessera::organizer organizer{};
    organizer.emplace<tessera::inspector::timed<&fail>>(timings.task("fail"), "fail");
    tessera::registry registry{};
    const auto graph = organizer.graph();
    graph[0].prepare(registry);
    EXPECT_THROW(graph[0].callback()(graph[0].data(), registry), std::runtime_error);
    timings.end_frame(1.0);
    EXPECT_GE(timings.to_json()["tasks"][0]["last"].get<double>(), 0.2);
}

#ifdef TESSERA_TEST_INSPECTOR_EXECUTION
TEST(InspectorTimings, TimedTasksOnTheExecutor) {
    tessera::inspector::frame_timings timings{};
    tessera::organizer organizer{};
    organizer.emplace<tessera::inspector::timed<&move>>(timings.task("move"), "move");
    organizer.emplace<tessera::inspector::timed<&count>>(timings.task("count"), "count");
    tessera::registry registry{};
    const auto entt = registry.create();
    registry.emplace<position>(entt, 1);
    registry.emplace<velocity>(entt, 2);
    tessera::execution::executor executor{organizer.graph()};
    executor.prepare(registry);

    for (int frame{}; frame < 3; ++frame) {
        executor.run(registry);
        timings.end_frame();
    }

    EXPECT_EQ(registry.get<position>(entt).x, 7);
    const auto history = timings.to_json();
    ASSERT_EQ(history["tasks"].size(), 2u);

    for (const auto &task : history["tasks"]) {
        for (const auto &ms : task["ms"]) {
            EXPECT_GE(ms.get<double>(), 0.3) << task.dump();
        }
    }
}
#endif

} // namespace

} // namespace unit_inspector_timings
} // namespace
