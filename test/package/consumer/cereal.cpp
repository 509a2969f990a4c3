// Writes a registry through the cereal adapter (target tessera::cereal) from a consumer project.
#include <tessera/archive/cereal.hpp>
#include <tessera/entity/registry.hpp>

#include <cereal/archives/binary.hpp>

#include <sstream>

struct score {
    int value{};

    template<typename Archive>
    void serialize(Archive &archive) {
        archive(value);
    }
};

int main() {
    tessera::registry source;
    source.emplace<score>(source.create(), 7);
    std::ostringstream bytes;
    {
        cereal::BinaryOutputArchive archive{bytes};
        tessera::archive::cereal_adapter::output_archive out{archive};
        tessera::snapshot{source}.get<tessera::entity>(out.section<tessera::entity>()).get<score>(out.section<score>());
    }
    return bytes.str().empty() ? 1 : 0;
}
