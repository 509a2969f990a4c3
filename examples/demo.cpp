// A tour of tessera's building blocks: hashed strings, type identity, signals and entity identifiers.
// It prints what it does and exits non-zero if anything differs from what the documentation promises,
// so it also runs as a test (examples.demo).
#include <cstdio>
#include <string_view>

#include <tessera/core/hashed_string.hpp>
#include <tessera/core/type_info.hpp>
#include <tessera/entity/entity.hpp>
#include <tessera/signal/sigh.hpp>

struct position {
    float x;
    float y;
};

namespace {

int failures = 0;

void check(bool condition, const char *what) {
    std::printf("  [%s] %s\n", condition ? "ok" : "FAILED", what);
    failures += condition ? 0 : 1;
}

void hashed_strings() {
    using namespace tessera::literals;
    std::puts("hashed strings");

    constexpr tessera::hashed_string name = "position";
    constexpr tessera::id_type id = "position"_hs; // the literal converts to id_type
    std::printf("  \"%s\"_hs = 0x%08llx\n", name.data(), static_cast<unsigned long long>(id));

    check(name.value() == id, "a hashed_string and the _hs literal of the same text agree");
    check(tessera::hashed_string::value("position") == id, "hashed_string::value computes the same hash");
    check("position"_hs != "velocity"_hs, "different texts give different hashes");
    if constexpr (sizeof(tessera::id_type) == 4) {
        check("foo"_hs == 0xa9f37ed7u, "\"foo\"_hs is the 32-bit FNV-1a hash of foo");
    }

    // Hashed strings are usable as case labels: the hash is computed at compile time.
    const auto describe = [](tessera::id_type key) -> std::string_view {
        switch (key) {
        case "position"_hs:
            return "position";
        case "velocity"_hs:
            return "velocity";
        default:
            return "unknown";
        }
    };
    check(describe(tessera::hashed_string{"velocity"}) == "velocity", "a runtime hash matches a case label");
}

void type_identity() {
    std::puts("type identity");

    const tessera::type_info &info = tessera::type_id<position>();
    std::printf("  type_id<position>(): hash 0x%08llx, name \"%.*s\"\n", static_cast<unsigned long long>(info.hash()),
                static_cast<int>(info.name().size()), info.name().data());

    check(&info == &tessera::type_id<const position &>(), "cv-qualifiers and references are ignored");
    check(info == tessera::type_id(position{}), "type_id of a value names its type");
    check(info != tessera::type_id<int>(), "different types have different type_info");
    check(info.hash() != tessera::type_id<int>().hash(), "different types have different hashes");
}

struct counter {
    int total = 0;
    void add(int value) { total += value; }
};

int last_seen = 0;
void remember(int value) { last_seen = value; }

void signals() {
    std::puts("signals");

    tessera::sigh<void(int)> signal;
    tessera::sink sink{signal};
    counter sum;

    sink.connect<&remember>();        // a free function
    sink.connect<&counter::add>(sum); // a member function, bound to an instance
    std::printf("  listeners: %zu\n", signal.size());
    check(signal.size() == 2u, "two listeners are connected");

    signal.publish(3);
    signal.publish(4);
    std::printf("  after publish(3), publish(4): last_seen = %d, sum = %d\n", last_seen, sum.total);
    check(last_seen == 4 && sum.total == 7, "publish reaches every listener");

    sink.disconnect<&counter::add>(sum);
    signal.publish(10);
    check(last_seen == 10 && sum.total == 7, "a disconnected listener is no longer called");

    sink.disconnect();
    check(signal.empty(), "disconnect() removes every listener");
}

void identifiers() {
    using traits = tessera::entt_traits<tessera::entity>;
    std::puts("entity identifiers");

    const tessera::entity entity = traits::construct(42u, 3u);
    std::printf("  construct(42, 3) = 0x%08llx: index %llu, version %llu\n",
                static_cast<unsigned long long>(tessera::to_integral(entity)),
                static_cast<unsigned long long>(tessera::to_entity(entity)),
                static_cast<unsigned long long>(tessera::to_version(entity)));
    check(tessera::to_entity(entity) == 42u && tessera::to_version(entity) == 3u,
          "to_entity and to_version take construct apart");

    const tessera::entity recycled = traits::next(entity);
    check(tessera::to_entity(recycled) == 42u && tessera::to_version(recycled) == 4u,
          "next keeps the index and bumps the version");

    const tessera::entity last_version = traits::construct(7u, traits::version_mask - 1u);
    check(tessera::to_version(traits::next(last_version)) == 0u,
          "the version wraps around and skips the tombstone version");

    check(entity != tessera::null && entity != tessera::tombstone,
          "an ordinary entity is neither null nor a tombstone");
    check(tessera::entity{} != tessera::null, "entity{} is entity 0, not null");
    const tessera::entity null = tessera::null;
    const tessera::entity tombstone = tessera::tombstone;
    std::printf("  null = 0x%08llx, tombstone = 0x%08llx\n",
                static_cast<unsigned long long>(tessera::to_integral(null)),
                static_cast<unsigned long long>(tessera::to_integral(tombstone)));
    check(traits::construct(traits::entity_mask, 5u) == tessera::null, "null compares the index only");
    check(traits::construct(9u, traits::version_mask) == tessera::tombstone, "tombstone compares the version only");
}

} // namespace

int main() {
    hashed_strings();
    type_identity();
    signals();
    identifiers();

    if (failures != 0) {
        std::printf("%d check(s) failed\n", failures);
        return 1;
    }
    std::puts("all checks passed");
    return 0;
}
