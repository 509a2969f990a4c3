// Tests of archive/cereal.hpp: snapshots round-trip through cereal's binary, portable binary and JSON archives with
// components that have cereal serialize functions (both loaders, named pools, released identifiers); truncated,
// reordered and corrupt data give a cereal_adapter::error and leave the registry usable.
#include <cereal/archives/binary.hpp>
#include <cereal/archives/json.hpp>
#include <cereal/archives/portable_binary.hpp>
#include <cereal/types/string.hpp>
#include <cstdint>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <tessera/archive/cereal.hpp>
#include <tessera/core/hashed_string.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/snapshot.hpp>

namespace {

namespace adapter = tessera::archive::cereal_adapter;
using namespace tessera::literals;
using traits = tessera::entt_traits<tessera::entity>;

struct position {
    float x{};
    float y{};
    bool operator==(const position &) const = default;

    template<typename Archive>
    void serialize(Archive &archive) {
        archive(CEREAL_NVP(x), CEREAL_NVP(y));
    }
};

struct name {
    std::string text{};
    bool operator==(const name &) const = default;

    template<typename Archive>
    void serialize(Archive &archive) {
        archive(CEREAL_NVP(text));
    }
};

struct tag {};

constexpr auto enemies = "enemies"_hs;

tessera::entity make(const std::uint32_t index, const std::uint16_t version = 0u) {
    return traits::construct(index, version);
}

void fill(tessera::registry &registry) {
    for (std::uint32_t index = 0u; index < 5u; ++index) {
        static_cast<void>(registry.create(make(index, static_cast<std::uint16_t>(index % 2u))));
    }

    registry.destroy(make(3u, 1u));
    registry.emplace<position>(make(0u), 1.f, 2.f);
    registry.emplace<position>(make(1u, 1u), 3.f, 4.f);
    registry.emplace<name>(make(1u, 1u), "a name long enough to leave the small buffer of std::string");
    registry.emplace<tag>(make(2u));
    registry.storage<position>(enemies).emplace(make(4u), 5.f, 6.f);
}

template<typename Archive>
void save_all(const tessera::registry &registry, Archive &out) {
    adapter::output_archive archive{out};
    tessera::snapshot{registry}
        .get<tessera::entity>(archive.template section<tessera::entity>())
        .template get<position>(archive.template section<position>())
        .template get<name>(archive.template section<name>())
        .template get<tag>(archive.template section<tag>())
        .template get<position>(archive.template section<position>("enemies"), enemies);
}

template<typename Loader, typename Archive>
void load_all(Loader &loader, Archive &in) {
    adapter::input_archive archive{in};
    loader.template get<tessera::entity>(archive.template section<tessera::entity>())
        .template get<position>(archive.template section<position>())
        .template get<name>(archive.template section<name>())
        .template get<tag>(archive.template section<tag>())
        .template get<position>(archive.template section<position>("enemies"), enemies);
}

void expect_same(const tessera::registry &lhs, const tessera::registry &rhs) {
    const auto &left = *lhs.storage<tessera::entity>();
    const auto &right = *rhs.storage<tessera::entity>();
    ASSERT_EQ(left.size(), right.size());
    EXPECT_EQ(left.free_list(), right.free_list());

    for (std::size_t pos{}; pos < left.size(); ++pos) {
        EXPECT_EQ(left.data()[pos], right.data()[pos]);
    }

    EXPECT_EQ(rhs.get<position>(make(0u)), (position{1.f, 2.f}));
    EXPECT_EQ(rhs.get<position>(make(1u, 1u)), (position{3.f, 4.f}));
    EXPECT_EQ(rhs.get<name>(make(1u, 1u)), lhs.get<name>(make(1u, 1u)));
    EXPECT_TRUE(rhs.all_of<tag>(make(2u)));
    EXPECT_EQ(rhs.storage<position>(enemies)->get(make(4u)), (position{5.f, 6.f}));
}

template<typename Output, typename Input>
std::string round_trip() {
    tessera::registry source{};
    fill(source);
    std::stringstream stream{};
    {
        // cereal's JSON archive writes its closing brace when it is destroyed
        Output out{stream};
        save_all(source, out);
    }

    const auto bytes = stream.str();
    tessera::registry target{};
    {
        Input in{stream};
        tessera::snapshot_loader loader{target};
        load_all(loader, in);
    }
    expect_same(source, target);
    return bytes;
}

TEST(CerealArchive, BinaryRoundTrip) { round_trip<cereal::BinaryOutputArchive, cereal::BinaryInputArchive>(); }

TEST(CerealArchive, PortableBinaryRoundTrip) {
    round_trip<cereal::PortableBinaryOutputArchive, cereal::PortableBinaryInputArchive>();
}

TEST(CerealArchive, JsonRoundTripNamesThePools) {
    const auto text = round_trip<cereal::JSONOutputArchive, cereal::JSONInputArchive>();
    EXPECT_NE(text.find("\"pool\": \"entities\""), std::string::npos) << text;
    EXPECT_NE(text.find("\"pool\": \"" + std::string{tessera::type_name<position>::value()} + "\""), std::string::npos)
        << text;
    EXPECT_NE(text.find("\"pool\": \"enemies\""), std::string::npos) << text;
}

TEST(CerealArchive, ContinuousLoader) {
    tessera::registry source{};
    fill(source);
    std::stringstream stream{};
    {
        cereal::BinaryOutputArchive out{stream};
        save_all(source, out);
    }
    const auto bytes = stream.str();

    tessera::registry target{};
    const auto local = target.create();
    tessera::continuous_loader loader{target};

    for (int round = 0; round < 2; ++round) {
        std::stringstream again{bytes};
        cereal::BinaryInputArchive in{again};
        load_all(loader, in);
    }

    EXPECT_TRUE(target.valid(local));
    EXPECT_EQ(target.storage<position>().size(), 2u);
    EXPECT_EQ(target.get<position>(loader.map(make(1u, 1u))), (position{3.f, 4.f}));
}

class CerealArchiveErrors : public ::testing::Test {
protected:
    void SetUp() override {
        tessera::registry source{};
        fill(source);
        std::stringstream stream{};
        cereal::BinaryOutputArchive out{stream};
        save_all(source, out);
        bytes = stream.str();
    }

    // the message of the error loading `data` must throw, after which the registry is still usable
    static std::string load_error(const std::string &data) {
        tessera::registry registry{};
        std::stringstream stream{data};
        cereal::BinaryInputArchive in{stream};

        try {
            tessera::snapshot_loader loader{registry};
            load_all(loader, in);
        } catch (const adapter::error &failure) {
            registry.emplace<position>(registry.create());
            registry.clear();
            return failure.what();
        }

        return {};
    }

    std::string bytes{};
};

#define EXPECT_CONTAINS(text, fragment) EXPECT_NE((text).find(fragment), std::string::npos) << (text)

TEST_F(CerealArchiveErrors, TruncatedDataAtEveryLength) {
    for (std::size_t length{}; length < bytes.size(); ++length) {
        EXPECT_CONTAINS(load_error(bytes.substr(0u, length)), "cereal archive:");
    }
}

TEST_F(CerealArchiveErrors, SectionsOutOfOrder) {
    tessera::registry source{};
    fill(source);
    std::stringstream stream{};
    cereal::BinaryOutputArchive out{stream};
    adapter::output_archive archive{out};
    // the pools of name and position swapped
    tessera::snapshot{source}
        .get<tessera::entity>(archive.section<tessera::entity>())
        .get<name>(archive.section<name>())
        .get<position>(archive.section<position>());
    EXPECT_CONTAINS(load_error(stream.str()), "pool '" + std::string{tessera::type_name<position>::value()} + "'");
    EXPECT_CONTAINS(load_error(stream.str()), "the next section is another one");
}

TEST_F(CerealArchiveErrors, CorruptIdentifiers) {
    // the first identifier of the entity section (after the section hash and two counts) becomes a tombstone
    auto corrupt = bytes;
    const auto tombstone = traits::to_integral(traits::construct(0u, traits::to_version(tessera::tombstone)));
    const auto offset = sizeof(std::uint64_t) + 2u * sizeof(std::uint32_t);
    corrupt.replace(offset, sizeof(tombstone), reinterpret_cast<const char *>(&tombstone), sizeof(tombstone));
    EXPECT_CONTAINS(load_error(corrupt), "pool 'entities': snapshot_loader: invalid or repeated identifier");
}

TEST_F(CerealArchiveErrors, TextArchiveWithAnotherPool) {
    std::stringstream stream{R"({"pool": "velocity"})"};
    cereal::JSONInputArchive in{stream};
    adapter::input_archive archive{in};
    try {
        static_cast<void>(archive.section<position>());
        ADD_FAILURE() << "no error for a section of another pool";
    } catch (const adapter::error &failure) {
        EXPECT_CONTAINS(std::string{failure.what()}, "the section found is 'velocity'");
    }
}

} // namespace
