// Memory probe: exact heap bytes per entity (a counting global operator new/delete) and peak RSS (getrusage) for
// 10^6 entities with two components, four components, and an empty tag. Each case runs in a child process so
// that its peak RSS is its own.
#include <tessera/entity/registry.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

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

template<typename... Component>
void in_child(const char *name) {
    std::fflush(stdout);

    if (const auto child = fork(); child == 0) {
        probe<Component...>(name);
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
    in_child<>("none (entities only)");
    in_child<position, velocity>("position + velocity (8 + 8 bytes)");
    in_child<position, velocity, health, damage>("position, velocity, health, damage (8 + 8 + 4 + 8 bytes)");
    in_child<tag>("an empty tag");
    return EXIT_SUCCESS;
}
