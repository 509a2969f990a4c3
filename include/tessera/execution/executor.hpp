// The graph executor: runs the task graph of an organizer (organizer.graph()) on oneTBB, one pass per call to
// run(). Part of the optional execution module: link the CMake target tessera::execution (which brings oneTBB);
// tessera/tessera.hpp never includes it. What it guarantees is in docs/parallel.md.
#ifndef TESSERA_EXECUTION_EXECUTOR_HPP
#define TESSERA_EXECUTION_EXECUTOR_HPP

#include "../config/config.hpp"
#include "../entity/organizer.hpp"
#include "fwd.hpp"
#include "tsan.hpp"
#include <atomic>
#include <cstddef>
#include <exception>
#include <oneapi/tbb/task_group.h>
#include <utility>
#include <vector>

namespace tessera::execution {

namespace internal {

/// What a oneTBB task of an executor carries. Its fields are the only memory a task reads before its acquire:
/// test/execution/tsan.supp names this function for the reads of the copy oneTBB made (docs/parallel.md).
template<typename Executor, typename Registry>
struct executor_task {
    Executor *self;
    void *gate;
    std::size_t vertex;
    std::size_t end;
    Registry *registry;
    tbb::task_group *group;

    [[gnu::noinline]] void operator()() const {
        const executor_task local = *this;
        handoff_acquire(local.gate);
        local.self->execute(local.vertex, local.end, *local.registry, *local.group);
    }
};

} // namespace internal

/// Runs an organizer's task graph on oneTBB: a task starts once every task it depends on has finished, tasks with
/// no path between them run concurrently, and a task that runs alone in the graph (every synchronization point)
/// runs on the thread that called run().
template<typename Registry>
class basic_executor {
    static constexpr std::size_t none = static_cast<std::size_t>(-1);
    using task_type = internal::executor_task<basic_executor, Registry>;
    friend task_type;

public:
    /// The registry type.
    using registry_type = Registry;
    /// A task of the graph, as organizer.graph() returns it.
    using vertex_type = typename basic_organizer<Registry>::vertex;
    /// Unsigned integer type.
    using size_type = std::size_t;

    /// Takes the graph of an organizer. Everything a pass needs is allocated here, once.
    explicit basic_executor(std::vector<vertex_type> graph)
        : vertices{std::move(graph)}, alone(vertices.size(), false), segment_end(vertices.size(), 0u),
          initial(vertices.size(), 0u), pending(vertices.size()), running{false}, failed{false}, error{} {
        classify();
    }

    /// Creates every pool, group and context variable the tasks use (vertex.prepare() for every task), so that the
    /// tasks no longer change the registry's structure when they run concurrently.
    void prepare(Registry &registry) const {
        for (auto &&vertex : vertices) {
            vertex.prepare(registry);
        }
    }

    /// Runs every task once. If a task throws, no task that has not started yet starts, the running ones finish,
    /// and the first exception is rethrown once nothing is left running; the executor can run again afterwards.
    void run(Registry &registry) {
        // a second pass over the same counters would corrupt both: cheap to catch, impossible to recover from
        [[maybe_unused]] const bool busy = running.exchange(true, std::memory_order_acquire);
        TESSERA_ASSERT(!busy, "executor::run: called while a pass of the same executor is still running");
        const struct release_guard {
            std::atomic<bool> &flag;
            ~release_guard() { flag.store(false, std::memory_order_release); }
        } guard{running};

        tbb::task_group group{};

        for (size_type pos{}; pos < vertices.size();) {
            if (alone[pos]) {
                // nothing else runs now: an exception can leave run() at once
                vertices[pos].callback()(vertices[pos].data(), registry);
                ++pos;
                continue;
            }

            const size_type end = segment_end[pos];
            size_type last = none;

            for (size_type curr = pos; curr < end; ++curr) {
                pending[curr].store(initial[curr], std::memory_order_relaxed);
            }

            for (size_type curr = pos; curr < end; ++curr) {
                if (initial[curr] == 0u) {
                    if (last != none) {
                        spawn(last, end, registry, group);
                    }

                    last = curr;
                }
            }

            // the calling thread takes the last root and then helps with the others while it waits
            group.run_and_wait([this, last, end, &registry, &group] { execute(last, end, registry, group); });
            internal::handoff_acquire(this);

            if (failed.load(std::memory_order_acquire)) {
                failed.store(false, std::memory_order_relaxed);
                std::rethrow_exception(std::exchange(error, nullptr));
            }

            pos = end;
        }
    }

    /// Number of tasks.
    [[nodiscard]] size_type size() const noexcept { return vertices.size(); }

private:
    // Splits the graph into what runs alone and the segments between: a task runs alone when every earlier task
    // reaches it and it reaches every later one. Edges always go from a lower to a higher index (insertion order),
    // so that is the case exactly when no edge jumps over the task, every earlier task has a child and every later
    // task has a parent.
    void classify() {
        const size_type length = vertices.size();
        std::vector<size_type> farthest(length + 1u, 0u);
        bool every_earlier_has_child = true;

        for (size_type curr{}; curr < length; ++curr) {
            // farthest[curr]: the highest target of an edge leaving any task before curr
            size_type reach = farthest[curr];

            for (auto next : vertices[curr].out_edges()) {
                reach = next > reach ? next : reach;
            }

            farthest[curr + 1u] = reach;
        }

        std::vector<bool> later_have_parent(length + 1u, true);

        for (size_type curr = length; curr; --curr) {
            later_have_parent[curr - 1u] = later_have_parent[curr] && !vertices[curr - 1u].in_edges().empty();
        }

        for (size_type curr{}; curr < length; ++curr) {
            alone[curr] = farthest[curr] <= curr && every_earlier_has_child && later_have_parent[curr + 1u];
            every_earlier_has_child = every_earlier_has_child && !vertices[curr].out_edges().empty();
        }

        for (size_type curr = length; curr; --curr) {
            const auto pos = curr - 1u;
            segment_end[pos] = (pos + 1u == length || alone[pos + 1u]) ? pos + 1u : segment_end[pos + 1u];
        }

        for (size_type curr{}, start{}; curr < length; ++curr) {
            if (alone[curr]) {
                start = curr + 1u;
                continue;
            }

            // a parent before the segment (a task that ran alone) has finished when the segment starts
            for (auto parent : vertices[curr].in_edges()) {
                initial[curr] += static_cast<size_type>(parent >= start);
            }
        }
    }

    void spawn(const size_type vertex, const size_type end, Registry &registry, tbb::task_group &group) {
        void *gate = &pending[vertex];
        internal::handoff_release(gate);
        group.run(task_type{this, gate, vertex, end, &registry, &group});
    }

    // Runs a task, then whichever of its children it made ready: one on this thread, the others as new oneTBB tasks.
    void execute(size_type curr, const size_type end, Registry &registry, tbb::task_group &group) {
        while (curr != none && !failed.load(std::memory_order_acquire)) {
            try {
                vertices[curr].callback()(vertices[curr].data(), registry);
            } catch (...) {
                if (!failed.exchange(true, std::memory_order_acq_rel)) {
                    error = std::current_exception();
                }

                break;
            }

            size_type next = none;

            for (auto child : vertices[curr].out_edges()) {
                if (child < end && pending[child].fetch_sub(1u, std::memory_order_acq_rel) == 1u) {
                    if (next != none) {
                        spawn(next, end, registry, group);
                    }

                    next = child;
                }
            }

            curr = next;
        }

        // run() reads what every task did once the pass is over (the matching acquire is there)
        internal::handoff_release(this);
    }

    std::vector<vertex_type> vertices;
    std::vector<bool> alone;
    std::vector<size_type> segment_end;
    std::vector<size_type> initial;
    std::vector<std::atomic<size_type>> pending;
    std::atomic<bool> running;
    std::atomic<bool> failed;
    std::exception_ptr error;
};

/// Runs an organizer's task graph once (builds a basic_executor for this one pass).
template<typename Registry>
void run(const std::vector<typename basic_organizer<Registry>::vertex> &graph, Registry &registry) {
    basic_executor<Registry>{graph}.run(registry);
}

} // namespace tessera::execution

#endif
