// The program the debugger tests (test/debugger/CMakeLists.txt) stop in: a registry with every kind of pool, a view,
// groups, a runtime view and a handle. gdb and lldb scripts print them from debugger_stop's caller and compare
// what they print with expected files.
#include <cstdio>
#include <tessera/core/hashed_string.hpp>
#include <tessera/entity/debugger.hpp>
#include <tessera/entity/handle.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/runtime_view.hpp>

struct position {
    float x;
    float y;
};

struct velocity {
    float dx;
    float dy;
};

struct tag {};

struct stable {
    static constexpr bool in_place_delete = true;
    int value;
};

// The breakpoint: out of line, so that both debuggers find it by name.
[[gnu::noinline]] void debugger_stop(const tessera::registry &registry) {
    std::printf("%zu entities\n", registry.storage<tessera::entity>()->free_list());
}

int main() {
    using namespace tessera::literals;
    using traits = tessera::entt_traits<tessera::entity>;

    tessera::registry registry{};
    const tessera::entity first = registry.create();
    const tessera::entity second = registry.create();
    const tessera::entity third = registry.create();
    registry.destroy(registry.create());

    registry.emplace<position>(first, 1.f, 2.f);
    registry.emplace<position>(second, 3.f, 4.f);
    registry.emplace<velocity>(second, 5.f, 6.f);
    registry.emplace<tag>(first);
    registry.emplace<stable>(first, 10);
    registry.emplace<stable>(second, 20);
    registry.erase<stable>(first);
    registry.storage<position>("enemies"_hs).emplace(third, 7.f, 8.f);

    const tessera::entity null_entity = tessera::null;
    const tessera::entity hole = traits::combine(2u, traits::to_integral(tessera::entity{tessera::tombstone}));
    const auto *positions = &registry.storage<position>();
    const auto *stables = &registry.storage<stable>();
    const auto *entities = &registry.storage<tessera::entity>();
    tessera::sparse_set set{};
    set.push(first);
    set.push(third);

    const auto view = registry.view<position>(tessera::exclude<tag>);
    const auto pair_view = registry.view<position, velocity>();
    const auto owning = registry.group<velocity>(tessera::get<position>);
    const auto non_owning = registry.group<>(tessera::get<position, tag>);
    tessera::runtime_view runtime{};
    runtime.iterate(registry.storage<position>()).exclude(registry.storage<tag>());
    const tessera::handle handle{registry, first};
    const tessera::handle empty_handle{};

    debugger_stop(registry);
    return static_cast<int>(view.size_hint() + pair_view.size_hint() + owning.size() + non_owning.size() +
                            runtime.size_hint() + set.size() + positions->size() + stables->size() + entities->size() +
                            handle.valid() + empty_handle.valid() + (null_entity == hole)) == 0;
}
