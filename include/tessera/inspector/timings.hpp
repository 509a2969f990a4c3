// The frame and system times the inspector charts (GET /api/systems): a program reports how long each frame and
// each of its systems took, the inspector keeps the last 300 frames. Two ways in: the program times its systems
// itself and calls record(name, ms), or it registers its systems with the organizer through timed<&system>, which
// times each run (on whatever thread the executor of docs/parallel.md runs it) into a clock of its own.
#ifndef TESSERA_INSPECTOR_TIMINGS_HPP
#define TESSERA_INSPECTOR_TIMINGS_HPP

#include "fwd.hpp"
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace tessera::inspector {

/// The time one task spent in the current frame. Any thread may add to it (a task runs on one of oneTBB's
/// threads); frame_timings takes the total when the frame ends.
class task_clock {
public:
    /// A clock at zero.
    task_clock() noexcept = default;
    task_clock(const task_clock &) = delete;
    task_clock &operator=(const task_clock &) = delete;
    ~task_clock() = default;

    /// Adds a duration to the current frame.
    void add(const std::chrono::nanoseconds duration) noexcept {
        const auto count = duration.count();
        nanoseconds.fetch_add(count > 0 ? static_cast<std::uint64_t>(count) : 0u, std::memory_order_relaxed);
    }

    /// Adds `milliseconds` to the current frame.
    void add_milliseconds(const double milliseconds) noexcept {
        add(std::chrono::nanoseconds{static_cast<std::int64_t>(milliseconds > 0. ? milliseconds * 1e6 : 0.)});
    }

    /// The time added since the last take(), in nanoseconds; the clock goes back to zero.
    [[nodiscard]] std::uint64_t take() noexcept { return nanoseconds.exchange(0u, std::memory_order_relaxed); }

private:
    std::atomic<std::uint64_t> nanoseconds{};
};

/// The last `history` frames: the time of each frame and of each task in it. Tasks are known by name; the first
/// report of a name adds it (earlier frames read 0 for it). Not thread-safe except task_clock::add: call the
/// members on the thread that calls the server's poll().
class frame_timings {
    struct task_slot {
        std::string name{};
        task_clock clock{};
        std::vector<double> ms{};
        std::uint64_t since{};
    };

public:
    /// Frames kept.
    static constexpr std::size_t history = 300u;

    /// No frame yet; the first end_frame() without a duration measures from here.
    frame_timings() : frame_ms(history, 0.), last{std::chrono::steady_clock::now()} {}
    frame_timings(const frame_timings &) = delete;
    frame_timings &operator=(const frame_timings &) = delete;
    ~frame_timings() = default;

    /// The clock of task `name`, created on first use. Its address never changes: give it to timed<&system>.
    [[nodiscard]] task_clock &task(const std::string_view name) {
        for (auto &slot : tasks) {
            if (slot.name == name) {
                return slot.clock;
            }
        }

        auto &slot = tasks.emplace_back();
        slot.name = std::string{name};
        slot.ms.assign(history, 0.);
        slot.since = recorded;
        return slot.clock;
    }

    /// Adds `milliseconds` to task `name` in the current frame (for a program that times its systems itself).
    void record(const std::string_view name, const double milliseconds) { task(name).add_milliseconds(milliseconds); }

    /// Closes the current frame, which took `milliseconds`: its tasks' times go into the history.
    void end_frame(const double milliseconds) {
        const auto pos = static_cast<std::size_t>(recorded % history);
        frame_ms[pos] = milliseconds;

        for (auto &slot : tasks) {
            slot.ms[pos] = static_cast<double>(slot.clock.take()) / 1e6;
        }

        ++recorded;
        last = std::chrono::steady_clock::now();
    }

    /// Closes the current frame, timed from the end of the previous one (or from construction).
    void end_frame() {
        const auto now = std::chrono::steady_clock::now();
        end_frame(std::chrono::duration<double, std::milli>(now - last).count());
    }

    /// Frames closed so far.
    [[nodiscard]] std::uint64_t frames() const noexcept { return recorded; }

    /// Tasks known so far.
    [[nodiscard]] std::size_t task_count() const noexcept { return tasks.size(); }

    /// The history as JSON, oldest frame first: {"frames": closed so far, "first": number of the oldest frame kept,
    /// "history": 300, "frame_ms": [...], "tasks": [{"name", "ms": [...], "mean", "max", "last"}]} (docs/inspector.md).
    [[nodiscard]] nlohmann::json to_json() const {
        const auto kept = static_cast<std::size_t>(std::min<std::uint64_t>(recorded, history));
        const auto first = recorded - kept;
        const auto series = [&](const std::vector<double> &ring) {
            nlohmann::json out = nlohmann::json::array();

            for (auto frame = first; frame < recorded; ++frame) {
                out.push_back(ring[static_cast<std::size_t>(frame % history)]);
            }

            return out;
        };

        nlohmann::json out{{"frames", recorded}, {"first", first}, {"history", history}};
        out["frame_ms"] = series(frame_ms);
        auto &list = out["tasks"] = nlohmann::json::array();

        for (const auto &slot : tasks) {
            double total{};
            double max{};
            std::size_t count{};

            for (auto frame = std::max(first, slot.since); frame < recorded; ++frame) {
                const double value = slot.ms[static_cast<std::size_t>(frame % history)];
                total += value;
                max = std::max(max, value);
                ++count;
            }

            const double latest = recorded == 0u ? 0. : slot.ms[static_cast<std::size_t>((recorded - 1u) % history)];
            list.push_back({{"name", slot.name},
                            {"ms", series(slot.ms)},
                            {"mean", count == 0u ? 0. : total / static_cast<double>(count)},
                            {"max", max},
                            {"last", latest}});
        }

        return out;
    }

private:
    std::deque<task_slot> tasks{};
    std::vector<double> frame_ms{};
    std::uint64_t recorded{};
    std::chrono::steady_clock::time_point last{};
};

namespace internal {

/// Adds the time from its construction to its destruction to a clock.
class task_stopwatch {
public:
    explicit task_stopwatch(task_clock &target) noexcept : clock{&target}, start{std::chrono::steady_clock::now()} {}
    task_stopwatch(const task_stopwatch &) = delete;
    task_stopwatch &operator=(const task_stopwatch &) = delete;

    ~task_stopwatch() {
        clock->add(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start));
    }

private:
    task_clock *clock;
    std::chrono::steady_clock::time_point start;
};

/// Runs Candidate and adds the time it took to `clock`, also when it throws.
template<auto Candidate, typename Ret, typename... Args>
Ret timed_task(task_clock &clock, Args... args) {
    const task_stopwatch watch{clock};
    return std::invoke(Candidate, std::forward<Args>(args)...);
}

template<auto Candidate, typename Ret, typename... Args>
consteval auto timed_of(Ret (*)(Args...)) noexcept {
    return &timed_task<Candidate, Ret, Args...>;
}

template<auto Candidate, typename Ret, typename... Args>
consteval auto timed_of(Ret (*)(Args...) noexcept) noexcept {
    return &timed_task<Candidate, Ret, Args...>;
}

template<auto Candidate, typename Other>
consteval auto timed_of(Other) noexcept {
    static_assert(std::is_pointer_v<Other> && std::is_function_v<std::remove_pointer_t<Other>>,
                  "timed<Candidate>: Candidate must be a free function (&system); wrap a member function in a free "
                  "function that takes its instance as a context variable");
    return nullptr;
}

} // namespace internal

/// A free function with the parameters of Candidate behind a task_clock &: registered with the organizer together
/// with a clock as its payload, it runs Candidate and adds the time it took to that clock. The organizer sees
/// exactly Candidate's resources, so the graph is the same as without timing:
///
///     organizer.emplace<tessera::inspector::timed<&movement>>(server.timings().task("movement"), "movement");
///
/// and the program closes each frame with server.timings().end_frame().
template<auto Candidate>
inline constexpr auto timed = internal::timed_of<Candidate>(Candidate);

} // namespace tessera::inspector

#endif
