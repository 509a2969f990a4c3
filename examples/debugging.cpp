// Example: the debugging aids. The memory report says which pool holds how much memory; debug_components names the
// component types of an entity (a debugger can call it: the header below keeps it in the program and makes gdb load
// tessera's pretty-printers by itself). The program stops in debugger_stop() for the gdb session that
// docs/debugging.md shows: examples/debugging.gdb runs it, and a test compares what gdb prints with
// debugging.gdb.expected.
#include <tessera/core/hashed_string.hpp>
#include <tessera/entity/debugger.hpp>
#include <tessera/entity/handle.hpp>
#include <tessera/entity/memory_report.hpp>
#include <tessera/entity/registry.hpp>

#include <cstdio>
#include <string>

// components at namespace scope: snapshot keys and reports name them as the compiler spells them, and an
// unnamed namespace would add '{anonymous}::' (or '(anonymous namespace)::', depending on the compiler)
struct position {
    float x{}, y{};
};

struct velocity {
    float dx{}, dy{};
};

struct frozen {};

struct sprite {
    // pointers to sprites stay valid: removing one leaves a hole instead of moving the last one into it
    static constexpr bool in_place_delete = true;
    int texture{};
};

namespace {

int failures{};

// a place for a breakpoint: out of line, so that a debugger finds it by name
[[gnu::noinline]] void debugger_stop(const tessera::registry &registry) {
    std::printf("    stopped with %zu entities alive\n", registry.storage<tessera::entity>()->free_list());
}

void check(const bool condition, const char *what) {
    std::printf("  [%s] %s\n", condition ? "ok" : "FAILED", what);
    failures += condition ? 0 : 1;
}

} // namespace

int main() {
    using namespace tessera::literals;
    tessera::registry registry;

    for (int i = 0; i < 20000; ++i) {
        const auto entity = registry.create();
        registry.emplace<position>(entity, static_cast<float>(i), 0.f);

        if (i % 2 == 0) {
            registry.emplace<velocity>(entity, 1.f, 0.f);
        }

        if (i % 10 == 0) {
            registry.emplace<frozen>(entity);
            registry.emplace<sprite>(entity, i);
        }
    }

    // a named pool: a second pool of positions, for the entities that are targets
    auto &targets = registry.storage<position>("targets"_hs);
    targets.emplace(registry.create(), 5.f, 5.f);

    std::puts("debugging: the memory report");
    auto report = registry.memory_report();
    // the registry keeps only the hash of a pool's name; a label shows the name itself
    report.label("targets"_hs, "position (targets)");
    std::fputs(report.to_string().c_str(), stdout);

    std::size_t sum = report.entities.bytes + report.registry_bytes + report.group_bytes;
    for (const auto &row : report.pools) {
        sum += row.bytes;
    }
    check(sum == report.total_bytes(), "the total is the sum of the rows");
    check(report.find(tessera::type_hash<frozen>::value())->element_size == 0u,
          "an empty type costs identifiers only: no element pages");

    std::puts("debugging: the components of an entity");
    const auto first = tessera::entity{0u};
    const std::string names = registry.debug_components(first);
    std::printf("    entity 0 has: %s\n", names.c_str());
    check(names.find("position") != std::string::npos && names.find("frozen") != std::string::npos,
          "debug_components names the types of the entity");
    check(registry.debug_components(tessera::null) == "(not a valid entity)", "and says so for an invalid one");

    std::puts("debugging: what a debugger sees");
    const auto second = tessera::entity{1u};
    registry.destroy(registry.create());
    const auto moving = registry.group<velocity>(tessera::get<position>, tessera::exclude<frozen>);
    const auto drawn = registry.view<position, sprite>();
    const tessera::handle handle{registry, first};
    const auto *sprites = &registry.storage<sprite>();
    debugger_stop(registry);
    check(moving.size() == 8000u && drawn.size_hint() == 2000u && handle.all_of<sprite>() && sprites->size() == 2000u &&
              registry.valid(second),
          "the view, the group and the handle the session prints");

    std::puts(failures == 0 ? "debugging: all checks passed" : "debugging: some checks FAILED");
    return failures == 0 ? 0 : 1;
}
