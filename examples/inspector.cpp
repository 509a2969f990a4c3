// inspector: the smallest program that serves its registry to a browser (docs/inspector.md). A hundred units, three
// of four moving, a server on the loopback that shows their components by name (values come from reflection: no
// field is registered), and a frame loop that calls poll() once per frame. Open the address it prints.
//
// Usage: inspector [--port P] [--frames N]    N = 0 (the default): run until Ctrl-C
//
// Each value the page writes is read back from the registry by the program after poll() and printed
// ("read back: ..."): the browser test (test/inspector/browser) checks that line.
#include <tessera/entity/registry.hpp>
#include <tessera/inspector/inspector.hpp>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <thread>
#include <vector>

namespace {

struct position {
    float x;
    float y;
};

struct velocity {
    float dx;
    float dy;
};

struct health {
    int points;
};

struct name {
    std::string value;
};

volatile std::sig_atomic_t interrupted = 0;

void interrupt(int) { interrupted = 1; }

/// The entities whose position the page changed this frame (on_update fires inside poll()).
void remember(std::vector<tessera::entity> &changed, tessera::registry &, const tessera::entity entt) {
    changed.push_back(entt);
}

} // namespace

int main(int argc, char **argv) {
    tessera::inspector::options settings{};
    long frames = 0;

    for (int pos = 1; pos < argc; ++pos) {
        const std::string arg = argv[pos];

        if (arg == "--port" && pos + 1 < argc) {
            settings.port = static_cast<std::uint16_t>(std::strtoul(argv[++pos], nullptr, 10));
        } else if (arg == "--frames" && pos + 1 < argc) {
            frames = std::strtol(argv[++pos], nullptr, 10);
        } else {
            std::fprintf(stderr, "usage: inspector [--port P] [--frames N]\n");
            return 2;
        }
    }

    tessera::registry registry;

    for (int unit = 0; unit < 100; ++unit) {
        const auto entity = registry.create();
        registry.emplace<position>(entity, static_cast<float>(unit % 10) * 10.f, static_cast<float>(unit / 10) * 10.f);
        registry.emplace<health>(entity, 100 - unit);
        registry.emplace<name>(entity, "unit " + std::to_string(unit));

        if (unit % 4 != 0) {
            registry.emplace<velocity>(entity, static_cast<float>(unit % 3) - 1.f, 0.5f);
        }
    }

    std::vector<tessera::entity> changed{};
    registry.on_update<position>().connect<&remember>(changed);

    try {
        tessera::inspector::server server{registry, settings};
        // one line per type: its name in the page, its values by reflection; name labels the entities
        server.component<position>().component<velocity>().component<health>().label<name>();
        std::printf("inspector: serving %s (Ctrl-C to stop)\n", server.url().c_str());
        std::fflush(stdout);
        std::signal(SIGINT, interrupt);
        std::signal(SIGTERM, interrupt);

        for (long frame = 0; !interrupted && (frames == 0 || frame < frames); ++frame) {
            const auto start = std::chrono::steady_clock::now();
            registry.view<position, const velocity>().each([](position &pos, const velocity &vel) {
                pos.x += vel.dx * 0.1f;
                pos.y += vel.dy * 0.1f;
            });
            server.timings().record(
                "movement",
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
            server.timings().end_frame();
            server.poll();

            for (const auto entity : changed) {
                const auto &value = registry.get<position>(entity);
                std::printf("read back: entity %u position x=%g y=%g\n",
                            static_cast<unsigned>(tessera::to_integral(entity)), static_cast<double>(value.x),
                            static_cast<double>(value.y));
                std::fflush(stdout);
            }

            changed.clear();
            registry.advance_tick();
            std::this_thread::sleep_for(std::chrono::milliseconds{16});
        }

        std::printf("inspector: %ld frames served\n", static_cast<long>(server.service().frames_served()));
    } catch (const std::exception &error) {
        std::fprintf(stderr, "inspector: %s\n", error.what());
        return 1;
    }

    return 0;
}
