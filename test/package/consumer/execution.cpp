// Runs an organizer's graph through the executor of the execution module (target tessera::execution, which brings
// oneTBB) from a consumer project.
#include <tessera/entity/organizer.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/view.hpp>
#include <tessera/execution/executor.hpp>

struct position {
    int value{};
};

struct velocity {
    int value{};
};

void move(tessera::view<tessera::get_t<position, const velocity>> view) {
    view.each([](position &pos, const velocity &vel) { pos.value += vel.value; });
}

void accelerate(tessera::view<tessera::get_t<velocity>> view) {
    view.each([](velocity &vel) { ++vel.value; });
}

int main() {
    tessera::registry registry;
    const auto entity = registry.create();
    registry.emplace<position>(entity);
    registry.emplace<velocity>(entity, 1);

    tessera::organizer organizer;
    organizer.emplace<&move>("move");
    organizer.emplace<&accelerate>("accelerate");
    tessera::execution::executor executor{organizer.graph()};
    executor.prepare(registry);
    executor.run(registry);
    executor.run(registry);
    // move reads the velocity before accelerate changes it: 1, then 2
    return registry.get<position>(entity).value == 3 ? 0 : 1;
}
