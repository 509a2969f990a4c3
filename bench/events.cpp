// Events: a dispatcher with one listener per event type. enqueue_update stores N events and delivers them with
// update(); trigger delivers N events one by one; enqueue_update_mixed spreads N events over four types. Figures are
// per event. The queues keep their capacity between iterations, as in a game loop.
#include "common.hpp"

#include <tessera/signal/dispatcher.hpp>

#include <cstddef>
#include <cstdint>

namespace {

struct hit {
    std::uint32_t target;
    float amount;
};

template<int Kind>
struct tagged {
    std::uint32_t value;
};

struct totals {
    double amount{};
    std::uint64_t count{};

    void on_hit(const hit &event) {
        amount += event.amount;
        ++count;
    }

    template<int Kind>
    void on_tagged(const tagged<Kind> &event) {
        count += event.value + Kind;
    }
};

void enqueue_update(benchmark::State &state) {
    const auto count = static_cast<std::uint32_t>(state.range(0));
    tessera::dispatcher dispatcher{};
    totals sink{};
    dispatcher.sink<hit>().connect<&totals::on_hit>(sink);

    for (auto _ : state) {
        for (std::uint32_t pos{}; pos < count; ++pos) {
            dispatcher.enqueue<hit>(pos, 1.f);
        }
        dispatcher.update();
    }

    benchmark::DoNotOptimize(sink.count);
    state.SetItemsProcessed(state.iterations() * state.range(0));
}

void enqueue_update_mixed(benchmark::State &state) {
    const auto count = static_cast<std::uint32_t>(state.range(0));
    tessera::dispatcher dispatcher{};
    totals sink{};
    dispatcher.sink<tagged<0>>().connect<&totals::on_tagged<0>>(sink);
    dispatcher.sink<tagged<1>>().connect<&totals::on_tagged<1>>(sink);
    dispatcher.sink<tagged<2>>().connect<&totals::on_tagged<2>>(sink);
    dispatcher.sink<tagged<3>>().connect<&totals::on_tagged<3>>(sink);

    for (auto _ : state) {
        for (std::uint32_t pos{}; pos < count; pos += 4u) {
            dispatcher.enqueue<tagged<0>>(pos);
            dispatcher.enqueue<tagged<1>>(pos);
            dispatcher.enqueue<tagged<2>>(pos);
            dispatcher.enqueue<tagged<3>>(pos);
        }
        dispatcher.update();
    }

    benchmark::DoNotOptimize(sink.count);
    state.SetItemsProcessed(state.iterations() * state.range(0));
}

void trigger(benchmark::State &state) {
    const auto count = static_cast<std::uint32_t>(state.range(0));
    tessera::dispatcher dispatcher{};
    totals sink{};
    dispatcher.sink<hit>().connect<&totals::on_hit>(sink);

    for (auto _ : state) {
        for (std::uint32_t pos{}; pos < count; ++pos) {
            dispatcher.trigger(hit{pos, 1.f});
        }
    }

    benchmark::DoNotOptimize(sink.count);
    state.SetItemsProcessed(state.iterations() * state.range(0));
}

TESSERA_BENCH("events/enqueue_update", enqueue_update, 1'000'000);
TESSERA_BENCH("events/enqueue_update_mixed", enqueue_update_mixed, 1'000'000);
TESSERA_BENCH("events/trigger", trigger, 1'000'000);

} // namespace
