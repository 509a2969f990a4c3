// Memory probe: exact heap bytes per entity (a counting global operator new/delete) and peak RSS (getrusage) for
// 10^6 entities with two components, four components, and an empty tag; then what registry.shrink_to_fit() gives
// back after a peak. Each case runs in a child process so that its peak RSS is its own.
#include <tessera/entity/registry.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

std::size_t live_bytes{};
std::size_t peak_bytes{};
std::size_t allocations{};

// Every block carries its size in front, so that delete without a size still knows what it returns.
constexpr std::size_t header = alignof(std::max_align_t);

void *counted_allocate(const std::size_t size) {
    auto *block = static_cast<unsigned char *>(std::malloc(size + header));

    if (!block) {
        throw std::bad_alloc{};
    }

    *reinterpret_cast<std::size_t *>(block) = size;
    live_bytes += size;
    peak_bytes = live_bytes > peak_bytes ? live_bytes : peak_bytes;
    ++allocations;
    return block + header;
}

void counted_release(void *pointer) noexcept {
    if (pointer) {
        auto *block = static_cast<unsigned char *>(pointer) - header;
        live_bytes -= *reinterpret_cast<std::size_t *>(block);
        std::free(block);
    }
}

} // namespace

void *operator new(const std::size_t size) { return counted_allocate(size); }
void *operator new[](const std::size_t size) { return counted_allocate(size); }
void operator delete(void *pointer) noexcept { counted_release(pointer); }
void operator delete[](void *pointer) noexcept { counted_release(pointer); }
void operator delete(void *pointer, std::size_t) noexcept { counted_release(pointer); }
void operator delete[](void *pointer, std::size_t) noexcept { counted_release(pointer); }

namespace {

constexpr std::size_t entity_count = 1'000'000u;

struct position {
    float x, y;
};

struct velocity {
    float dx, dy;
};

struct health {
    int value;
};

struct damage {
    int atk, def;
};

struct tag {};

template<typename... Component>
void probe(const char *name) {
    const auto before = live_bytes;
    peak_bytes = live_bytes;
    const auto calls_before = allocations;

    {
        tessera::registry registry{};

        for (std::size_t index{}; index < entity_count; ++index) {
            [[maybe_unused]] const auto entt = registry.create();
            (registry.emplace<Component>(entt), ...);
        }

        const auto held = live_bytes - before;
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        std::printf("| %s | %.2f | %.2f | %zu | %.1f |\n", name, static_cast<double>(held) / entity_count,
                    static_cast<double>(peak_bytes - before) / entity_count, allocations - calls_before,
                    static_cast<double>(usage.ru_maxrss) / 1024.);
    }
}

// A peak that goes away: 10^6 entities with two components, the 90% created last destroyed, then shrink_to_fit.
void reclaim_probe(const char *) {
    const auto before = live_bytes;
    peak_bytes = live_bytes;

    {
        tessera::registry registry{};
        std::vector<tessera::entity> made(entity_count);

        for (auto &entt : made) {
            entt = registry.create();
            registry.emplace<position>(entt);
            registry.emplace<velocity>(entt);
        }

        const auto kept = entity_count / 10u;
        registry.destroy(made.begin() + kept, made.end());
        const auto destroyed = live_bytes - before;
        // the probe's own table of identifiers is not the registry's memory
        std::vector<tessera::entity>{}.swap(made);
        registry.shrink_to_fit();
        const auto held = live_bytes - before;
        const auto peak = peak_bytes - before - entity_count * sizeof(tessera::entity);
        std::printf("| %.2f MB | %.2f MB | %.2f MB | %.1f%% |\n", static_cast<double>(peak) / 1e6,
                    static_cast<double>(destroyed - entity_count * sizeof(tessera::entity)) / 1e6,
                    static_cast<double>(held) / 1e6, 100. * static_cast<double>(held) / static_cast<double>(peak));
    }
}

template<auto Probe>
void in_child(const char *name) {
    std::fflush(stdout);

    if (const auto child = fork(); child == 0) {
        Probe(name);
        std::fflush(stdout);
        std::_Exit(EXIT_SUCCESS);
    } else if (child > 0) {
        int status{};
        waitpid(child, &status, 0);
    }
}

} // namespace

int main() {
    std::printf("10^6 entities created one by one (create + emplace), default registry.\n\n");
    std::printf("| components | heap bytes per entity (held) | heap bytes per entity (peak) | allocations | peak RSS "
                "(MiB) |\n");
    std::printf("|---|---|---|---|---|\n");
    in_child<probe<>>("none (entities only)");
    in_child<probe<position, velocity>>("position + velocity (8 + 8 bytes)");
    in_child<probe<position, velocity, health, damage>>("position, velocity, health, damage (8 + 8 + 4 + 8 bytes)");
    in_child<probe<tag>>("an empty tag");
    std::printf("\nGiving memory back: 10^6 entities with position + velocity, the 900,000 created last destroyed, "
                "then registry.shrink_to_fit() (heap bytes of the registry).\n\n");
    std::printf("| peak | after destroy | after shrink_to_fit | shrunk / peak |\n");
    std::printf("|---|---|---|---|\n");
    in_child<reclaim_probe>("");
    return EXIT_SUCCESS;
}
