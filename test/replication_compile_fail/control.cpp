// Must compile: the setups of the other units, done right.
#include <cstdint>
#include <string>
#include <tessera/archive/binary.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/replication/replication.hpp>

struct tracked {
    static constexpr bool track_changes = true;
    int value;
};

struct text {
    static constexpr bool track_changes = true;
    std::string value;
};

void serialize(tessera::binary_output_archive &archive, const text &elem) {
    archive(static_cast<std::uint32_t>(elem.value.size()));
}

void serialize(tessera::binary_input_archive &archive, text &elem) {
    std::uint32_t size{};
    archive(size);
    elem.value.assign(size, ' ');
}

struct tag {};

int main() {
    tessera::registry registry;
    tessera::replication::source<tracked, text, tag> source{registry};
    auto peer = source.connect([](tessera::entity) { return true; });
    tessera::registry client;
    tessera::replication::mirror<tracked, text, tag> mirror{client};
    return peer.filtered() && mirror.size() == 0u ? 0 : 1;
}
