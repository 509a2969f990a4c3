// Must not compile: a replicated type that is neither trivially copyable nor archived through serialize.
#include <string>
#include <tessera/entity/registry.hpp>
#include <tessera/replication/replication.hpp>

struct text {
    static constexpr bool track_changes = true;
    std::string value;
};

int main() {
    tessera::registry registry;
    tessera::replication::mirror<text> mirror{registry};
    return static_cast<int>(mirror.size());
}
