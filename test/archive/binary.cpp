#include <tessera/archive/binary.hpp>
#include <tessera/core/hashed_string.hpp>
#include <tessera/entity/entity.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/snapshot.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "support/misuse.hpp"

namespace {
namespace unit_archive_binary {

namespace {

using namespace tessera::literals;
// a named pool (clang 14 cannot evaluate the consteval literal inside the templates below)
constexpr tessera::id_type other_pool = "other"_hs;
using bytes_type = std::vector<std::byte>;
using count_type = tessera::entt_traits<tessera::entity>::entity_type;

// Written as raw bytes.
struct position {
    float x;
    float y;
    bool operator==(const position &) const = default;
};

struct velocity {
    double dx;
    double dy;
    bool operator==(const velocity &) const = default;
};

struct tag {};

// Erased elements leave holes, written as null entities.
struct stable {
    static constexpr bool in_place_delete = true;
    std::int32_t value;
    bool operator==(const stable &) const = default;
};

enum class kind : std::uint8_t { none, player, enemy };

// Not trivially copyable: goes through the serialize overloads below.
struct named {
    std::string name;
    float weight{};
    bool active{};
    kind type{};
    bool operator==(const named &) const = default;
};

void serialize(tessera::binary_output_archive &archive, const named &value) {
    archive(static_cast<std::uint32_t>(value.name.size()));

    for (const char elem : value.name) {
        archive(elem);
    }

    archive(value.weight);
    archive(value.active);
    archive(value.type);
}

void serialize(tessera::binary_input_archive &archive, named &value) {
    std::uint32_t length{};
    archive(length);
    value.name.clear();

    // one character at a time: a corrupted length runs into the end of the section, not into a huge allocation
    for (; length; --length) {
        char elem{};
        archive(elem);
        value.name.push_back(elem);
    }

    archive(value.weight);
    archive(value.active);
    archive(value.type);
}

// A few entities with everything the archive must carry.
void populate(tessera::registry &registry) {
    std::array<tessera::entity, 6u> entities{};
    registry.create(entities.begin(), entities.end());

    for (auto entt : entities) {
        const auto value = static_cast<float>(tessera::to_entity(entt));
        registry.emplace<position>(entt, value, value / 2.f);
    }

    registry.emplace<velocity>(entities[1], 1.5, -0.25);
    registry.emplace<velocity>(entities[4], 1e300, -1e-300);
    registry.emplace<tag>(entities[2]);
    registry.emplace<named>(entities[3], "hero", 72.5f, true, kind::player);
    registry.emplace<named>(entities[5], "", -0.f, false, kind::enemy);
    registry.emplace<kind>(entities[0], kind::enemy);
    registry.emplace<stable>(entities[0], 0);
    registry.emplace<stable>(entities[1], 1);
    registry.emplace<stable>(entities[3], 3);
    registry.erase<stable>(entities[1]);
    registry.emplace<double>(entities[1], 3.25);
    registry.destroy(entities[2]);
    registry.destroy(registry.create());
    registry.storage<position>(other_pool).emplace(entities[4], position{-1.f, 1.f});
}

template<typename Type>
void expect_same_pool(const tessera::registry &lhs, const tessera::registry &rhs,
                      const tessera::id_type id = tessera::type_hash<Type>::value()) {
    const auto *lpool = lhs.storage<Type>(id);
    const auto *rpool = rhs.storage<Type>(id);
    ASSERT_NE(lpool, nullptr);
    ASSERT_NE(rpool, nullptr);

    // holes of in-place pools are not written: count live elements
    const auto live = [](const tessera::registry::common_type &base) {
        return std::count_if(base.begin(), base.end(), [](auto entt) { return entt != tessera::tombstone; });
    };

    ASSERT_EQ(live(*lpool), live(*rpool));
    const tessera::registry::common_type &base = *lpool;

    for (auto entt : base) {
        if (entt != tessera::tombstone) {
            ASSERT_TRUE(rpool->contains(entt));

            if constexpr (!std::is_empty_v<Type>) {
                EXPECT_EQ(lpool->get(entt), rpool->get(entt));
            }
        }
    }
}

void expect_same_identifiers(const tessera::registry &lhs, const tessera::registry &rhs) {
    const auto *lstorage = lhs.storage<tessera::entity>();
    const auto *rstorage = rhs.storage<tessera::entity>();
    ASSERT_EQ(lstorage->size(), rstorage->size());
    EXPECT_EQ(lstorage->free_list(), rstorage->free_list());

    for (std::size_t pos{}; pos < lstorage->size(); ++pos) {
        EXPECT_EQ(lstorage->data()[pos], rstorage->data()[pos]);
    }
}

template<typename Registry>
void save_everything(const Registry &registry, bytes_type &bytes) {
    using entity_type = typename Registry::entity_type;
    tessera::binary_output_archive archive{bytes};
    const tessera::basic_snapshot snapshot{registry};
    snapshot.template get<entity_type>(archive.section<entity_type>());
    snapshot.template get<position>(archive.section<position>());
    snapshot.template get<velocity>(archive.section<velocity>());
    snapshot.template get<tag>(archive.section<tag>());
    snapshot.template get<named>(archive.section<named>());
    snapshot.template get<kind>(archive.section<kind>());
    snapshot.template get<double>(archive.section<double>());
    snapshot.template get<stable>(archive.section<stable>());
    snapshot.template get<position>(archive.section<position>(other_pool), other_pool);
    archive.finish();
}

template<typename Loader>
void load_everything(Loader &loader, const std::span<const std::byte> bytes) {
    using entity_type = typename Loader::entity_type;
    tessera::binary_input_archive archive{bytes};
    loader.template get<entity_type>(archive.section<entity_type>());
    loader.template get<position>(archive.section<position>());
    loader.template get<velocity>(archive.section<velocity>());
    loader.template get<tag>(archive.section<tag>());
    loader.template get<named>(archive.section<named>());
    loader.template get<kind>(archive.section<kind>());
    loader.template get<double>(archive.section<double>());
    loader.template get<stable>(archive.section<stable>());
    loader.template get<position>(archive.section<position>(other_pool), other_pool);
}

bytes_type saved_registry() {
    tessera::registry registry{};
    populate(registry);
    bytes_type bytes{};
    save_everything(registry, bytes);
    return bytes;
}

tessera::archive_errc error_of(auto &&func) {
    try {
        func();
    } catch (const tessera::archive_error &error) {
        return error.code();
    }

    return tessera::archive_errc{};
}

// After a failed load, the registry must still behave: consistent identifiers, working pools.
void expect_usable(tessera::registry &registry) {
    const auto &entities = registry.storage<tessera::entity>();

    for (std::size_t pos{}; pos < entities.size(); ++pos) {
        const auto entt = entities.data()[pos];
        ASSERT_EQ(registry.valid(entt), pos < entities.free_list());
    }

    const auto entt = registry.create();
    ASSERT_TRUE(registry.valid(entt));
    registry.emplace<position>(entt, 1.f, 2.f);
    registry.emplace<named>(entt, "x", 1.f, true, kind::none);
    registry.emplace<tag>(entt);
    ASSERT_EQ(registry.get<position>(entt), (position{1.f, 2.f}));

    std::vector<tessera::entity> in_use{};

    for (auto [elem] : entities.each()) {
        in_use.push_back(elem);
    }

    // destroy visits every pool: it fails if a pool refers to an identifier the registry does not know
    registry.destroy(in_use.begin(), in_use.end());
    ASSERT_EQ(entities.free_list(), 0u);

    for (auto [id, pool] : registry.storage()) {
        ASSERT_TRUE(std::all_of(pool.begin(), pool.end(), [](auto elem) { return elem == tessera::tombstone; }));
    }

    const auto other = registry.create();
    registry.emplace<velocity>(other);
    ASSERT_TRUE(registry.all_of<velocity>(other));
}

TEST(BinaryArchive, RoundTrip) {
    tessera::registry source{};
    populate(source);
    bytes_type bytes{};
    save_everything(source, bytes);

    tessera::registry destination{};
    tessera::snapshot_loader loader{destination};
    load_everything(loader, bytes);

    expect_same_identifiers(source, destination);
    expect_same_pool<position>(source, destination);
    expect_same_pool<velocity>(source, destination);
    expect_same_pool<tag>(source, destination);
    expect_same_pool<named>(source, destination);
    expect_same_pool<kind>(source, destination);
    expect_same_pool<double>(source, destination);
    expect_same_pool<stable>(source, destination);
    expect_same_pool<position>(source, destination, other_pool);
    EXPECT_EQ(source.create(), destination.create());
}

TEST(BinaryArchive, Convenience) {
    tessera::registry source{};
    populate(source);
    const auto bytes = tessera::save<position, named, tag>(source);

    tessera::registry destination{};
    tessera::load<position, named, tag>(destination, bytes);

    expect_same_identifiers(source, destination);
    expect_same_pool<position>(source, destination);
    expect_same_pool<named>(source, destination);
    expect_same_pool<tag>(source, destination);
    EXPECT_EQ(std::as_const(destination).storage<velocity>(), nullptr);

    // an empty registry round trips too
    tessera::registry empty{};
    tessera::registry target{};
    tessera::load<position>(target, tessera::save<position>(empty));
    EXPECT_EQ(target.storage<tessera::entity>().size(), 0u);
}

TEST(BinaryArchive, ContinuousLoader) {
    tessera::registry source{};
    populate(source);
    bytes_type bytes{};
    save_everything(source, bytes);

    tessera::registry destination{};
    const auto local = destination.create();
    destination.emplace<position>(local, 9.f, 9.f);
    tessera::continuous_loader loader{destination};
    load_everything(loader, bytes);
    // a second load replaces instead of duplicating
    load_everything(loader, bytes);

    EXPECT_EQ(destination.storage<position>().size(), source.storage<position>().size() + 1u);
    EXPECT_EQ(destination.get<position>(local), (position{9.f, 9.f}));

    for (auto [entt, elem] : source.storage<named>().each()) {
        EXPECT_EQ(destination.get<named>(loader.map(entt)), elem);
    }

    for (auto [entt, elem] : source.storage<position>(other_pool).each()) {
        EXPECT_EQ(destination.storage<position>(other_pool).get(loader.map(entt)), elem);
    }
}

TEST(BinaryArchive, RangeForm) {
    tessera::registry source{};
    populate(source);
    std::vector<tessera::entity> selection{};

    for (auto [entt] : source.storage<tessera::entity>().each()) {
        if (!source.all_of<velocity>(entt)) {
            selection.push_back(entt);
        }
    }

    bytes_type bytes{};
    {
        tessera::binary_output_archive archive{bytes};
        tessera::snapshot{source}
            .get<position>(archive.section<position>(), selection.begin(), selection.end())
            .get<named>(archive.section<named>(), selection.begin(), selection.end())
            .get<velocity>(archive.section<velocity>(), selection.begin(), selection.end());
        // the destructor finishes the archive
    }

    tessera::registry destination{};
    tessera::binary_input_archive archive{bytes};
    tessera::snapshot_loader{destination}
        .get<position>(archive.section<position>())
        .get<named>(archive.section<named>())
        .get<velocity>(archive.section<velocity>());

    EXPECT_EQ(destination.storage<position>().size(), selection.size());
    EXPECT_TRUE(destination.storage<velocity>().empty());

    for (auto entt : selection) {
        EXPECT_EQ(destination.get<position>(entt), source.get<position>(entt));
        EXPECT_EQ(destination.all_of<named>(entt), source.all_of<named>(entt));
    }
}

enum class entity64 : std::uint64_t {};

TEST(BinaryArchive, WideIdentifiers) {
    tessera::basic_registry<entity64> source{};
    std::array<entity64, 4u> entities{};
    source.create(entities.begin(), entities.end());
    source.destroy(entities[1]);
    // an index and a version that do not fit 32 bits
    const auto wide = source.create(tessera::entt_traits<entity64>::construct(0x12345678u, 0x9ABCDEF0u));
    ASSERT_EQ(tessera::to_version(wide), 0x9ABCDEF0u);
    source.emplace<position>(wide, 1.f, 2.f);
    source.emplace<position>(entities[3], 3.f, 4.f);

    const auto bytes = tessera::save<position>(source);
    tessera::basic_registry<entity64> destination{};
    tessera::load<position>(destination, bytes);

    EXPECT_TRUE(destination.valid(wide));
    EXPECT_FALSE(destination.valid(entities[1]));
    EXPECT_EQ(destination.current(entities[1]), source.current(entities[1]));
    EXPECT_EQ(destination.get<position>(wide), (position{1.f, 2.f}));
    EXPECT_EQ(destination.create(), source.create());
}

TEST(BinaryArchive, Layout) {
    tessera::registry registry{};
    const auto entt = registry.create();
    registry.emplace<std::uint16_t>(entt, std::uint16_t{0x0102});
    const auto bytes = tessera::save<std::uint16_t>(registry);

    // header: magic, format version 1, reserved
    ASSERT_GE(bytes.size(), 8u);
    EXPECT_EQ(bytes[0], std::byte{'T'});
    EXPECT_EQ(bytes[1], std::byte{'S'});
    EXPECT_EQ(bytes[2], std::byte{'R'});
    EXPECT_EQ(bytes[3], std::byte{'A'});
    EXPECT_EQ(bytes[4], std::byte{1});
    EXPECT_EQ(bytes[5], std::byte{0});

    // two sections of 32 header bytes (identifiers: 4 + 4 + 4 bytes; pool: 4 + 4 + 2 bytes), then "TEND"
    ASSERT_EQ(bytes.size(), 8u + (32u + 12u) + (32u + 10u) + 4u);
    const auto *pool = bytes.data() + 8u + 32u + 12u;
    EXPECT_EQ(pool[0], std::byte{'S'});
    EXPECT_EQ(pool[20], std::byte{2});  // element size, little-endian
    EXPECT_EQ(pool[24], std::byte{10}); // payload length
    EXPECT_EQ(pool[32], std::byte{1});  // count
    EXPECT_EQ(pool[36], std::byte{0});  // entity 0
    EXPECT_EQ(pool[40], std::byte{0x02});
    EXPECT_EQ(pool[41], std::byte{0x01});
    EXPECT_EQ(bytes[bytes.size() - 4u], std::byte{'T'});
    EXPECT_EQ(bytes[bytes.size() - 1u], std::byte{'D'});
}

TEST(BinaryArchive, Header) {
    const auto bytes = saved_registry();
    tessera::registry registry{};

    auto bad_magic = bytes;
    bad_magic[1] = std::byte{'X'};
    EXPECT_EQ(error_of([&] { tessera::load<position>(registry, bad_magic); }), tessera::archive_errc::bad_magic);

    auto newer = bytes;
    newer[4] = std::byte{2};
    EXPECT_EQ(error_of([&] { tessera::load<position>(registry, newer); }), tessera::archive_errc::unsupported_version);
    newer[4] = std::byte{1};
    newer[5] = std::byte{1};
    EXPECT_EQ(error_of([&] { tessera::load<position>(registry, newer); }), tessera::archive_errc::unsupported_version);

    EXPECT_EQ(error_of([&] { tessera::binary_input_archive archive{std::span{bytes}.first(7u)}; }),
              tessera::archive_errc::truncated);
    EXPECT_EQ(error_of([&] { tessera::binary_input_archive archive{std::span<const std::byte>{}}; }),
              tessera::archive_errc::truncated);

    // garbage after the header
    auto garbage = bytes;
    garbage[8] = std::byte{'?'};
    EXPECT_EQ(error_of([&] { tessera::load<position>(registry, garbage); }), tessera::archive_errc::corrupt);

    EXPECT_EQ(registry.storage<tessera::entity>().size(), 0u);

    try {
        tessera::load<position>(registry, bad_magic);
        FAIL() << "no error";
    } catch (const tessera::archive_error &error) {
        EXPECT_EQ(error.code(), tessera::archive_errc::bad_magic);
        EXPECT_NE(std::string{error.what()}.find("binary_input_archive"), std::string::npos);
    }
}

TEST(BinaryArchive, EveryTruncation) {
    const auto bytes = saved_registry();

    for (std::size_t length{}; length < bytes.size(); ++length) {
        tessera::registry registry{};
        tessera::snapshot_loader loader{registry};
        const auto code = error_of([&] { load_everything(loader, std::span{bytes}.first(length)); });
        ASSERT_EQ(code, tessera::archive_errc::truncated) << "length " << length;
        expect_usable(registry);
    }
}

// The offset and payload length of each section.

std::vector<std::pair<std::size_t, std::size_t>> sections_of(const bytes_type &bytes) {
    std::vector<std::pair<std::size_t, std::size_t>> out{};

    for (std::size_t pos = 8u; std::to_integer<char>(bytes[pos]) == 'S';) {
        std::size_t length{};

        for (std::size_t byte{}; byte < 8u; ++byte) {
            length |= std::to_integer<std::size_t>(bytes[pos + 24u + byte]) << (8u * byte);
        }

        out.emplace_back(pos, length);
        pos += 32u + length;
    }

    return out;
}

TEST(BinaryArchive, RetryAfterError) {
    tessera::registry source{};
    populate(source);
    bytes_type bytes{};
    save_everything(source, bytes);
    const auto sections = sections_of(bytes);

    // a bad position section: the identifiers are in, the pools are not
    auto corrupted = bytes;
    corrupted[sections[1].first + 20u] = std::byte{0};
    tessera::registry destination{};
    tessera::snapshot_loader loader{destination};
    EXPECT_EQ(error_of([&] { load_everything(loader, corrupted); }), tessera::archive_errc::size_mismatch);
    EXPECT_NE(destination.storage<tessera::entity>().free_list(), 0u);

    // clear() leaves released identifiers only: the registry can be loaded again
    destination.clear();
    tessera::snapshot_loader again{destination};
    load_everything(again, bytes);
    expect_same_identifiers(source, destination);
    expect_same_pool<position>(source, destination);
    expect_same_pool<named>(source, destination);
    EXPECT_EQ(source.create(), destination.create());
}

// Every section cut short, with a consistent framing: the loaders themselves run out of data.
TEST(BinaryArchive, EveryTruncationInsideSections) {
    const auto bytes = saved_registry();
    const auto sections = sections_of(bytes);
    ASSERT_EQ(sections.size(), 9u);

    for (auto [offset, length] : sections) {
        for (std::size_t cut{}; cut < length; ++cut) {
            bytes_type shorter(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(offset + 32u + cut));
            shorter.insert(shorter.end(), bytes.begin() + static_cast<std::ptrdiff_t>(offset + 32u + length),
                           bytes.end());

            for (std::size_t byte{}; byte < 8u; ++byte) {
                shorter[offset + 24u + byte] = static_cast<std::byte>((cut >> (8u * byte)) & 0xFFu);
            }

            tessera::registry registry{};
            tessera::snapshot_loader loader{registry};
            ASSERT_EQ(error_of([&] { load_everything(loader, shorter); }), tessera::archive_errc::truncated)
                << "section at " << offset << " cut at " << cut;
            expect_usable(registry);

            tessera::registry live{};
            static_cast<void>(live.create());
            tessera::continuous_loader continuous{live};
            ASSERT_EQ(error_of([&] { load_everything(continuous, shorter); }), tessera::archive_errc::truncated)
                << "section at " << offset << " cut at " << cut;
            expect_usable(live);
        }
    }
}

TEST(BinaryArchive, RandomByteFlips) {
    const auto bytes = saved_registry();
    std::mt19937 engine{20261129u};
    std::uniform_int_distribution<std::size_t> position_of{0u, bytes.size() - 1u};
    std::uniform_int_distribution<int> mask_of{1, 255};
    std::uniform_int_distribution<int> flips_of{1, 3};
    std::size_t loaded{};

    for (int round{}; round < 3000; ++round) {
        auto corrupted = bytes;

        for (auto count = flips_of(engine); count; --count) {
            corrupted[position_of(engine)] ^= static_cast<std::byte>(mask_of(engine));
        }

        // anything but an archive_error (an assertion, a bad_alloc) fails the test
        tessera::registry registry{};
        tessera::snapshot_loader loader{registry};

        try {
            load_everything(loader, corrupted);
            loader.orphans();
            ++loaded;
        } catch (const tessera::archive_error &) {
        }

        expect_usable(registry);

        tessera::registry live{};
        live.emplace<tag>(live.create());
        tessera::continuous_loader continuous{live};

        try {
            load_everything(continuous, corrupted);
            load_everything(continuous, corrupted);
            continuous.shrink().orphans();
        } catch (const tessera::archive_error &) {
        }

        expect_usable(live);

        if (testing::Test::HasFatalFailure()) {
            FAIL() << "round " << round;
        }
    }

    // some flips hit values the loaders accept (component bytes, versions)
    EXPECT_GT(loaded, 0u);
}

TEST(BinaryArchive, UnknownSectionsAreSkipped) {
    tessera::registry source{};
    populate(source);
    // velocity and the named pool are not read back
    bytes_type bytes{};
    save_everything(source, bytes);

    tessera::registry destination{};
    tessera::binary_input_archive archive{bytes};
    EXPECT_TRUE(archive.contains<velocity>());
    EXPECT_TRUE(archive.contains<position>(other_pool));
    EXPECT_FALSE(archive.contains<velocity>(other_pool));
    EXPECT_FALSE(archive.contains<std::uint16_t>());

    // sections are read in any order
    tessera::snapshot_loader{destination}
        .get<tessera::entity>(archive.section<tessera::entity>())
        .get<named>(archive.section<named>())
        .get<position>(archive.section<position>());

    EXPECT_EQ(archive.remaining(), 0u);
    expect_same_pool<named>(source, destination);
    expect_same_pool<position>(source, destination);
    EXPECT_EQ(std::as_const(destination).storage<velocity>(), nullptr);
}

TEST(BinaryArchive, SizeMismatch) {
    tessera::registry source{};
    populate(source);
    auto bytes = tessera::save<position, named>(source);
    const auto sections = sections_of(bytes);
    ASSERT_EQ(sections.size(), 3u);

    // the position section claims another element size, as if the type had changed
    bytes[sections[1].first + 20u] = std::byte{12};
    tessera::registry destination{};
    EXPECT_EQ(error_of([&] { tessera::load<position, named>(destination, bytes); }),
              tessera::archive_errc::size_mismatch);
    // the identifiers were loaded before the error, and the registry works
    EXPECT_EQ(destination.storage<tessera::entity>().size(), source.storage<tessera::entity>().size());
    expect_usable(destination);

    // serialize-based types record no size
    bytes[sections[1].first + 20u] = std::byte{8};
    bytes[sections[2].first + 20u] = std::byte{1};
    tessera::registry other{};
    EXPECT_EQ(error_of([&] { tessera::load<position, named>(other, bytes); }), tessera::archive_errc::size_mismatch);
}

TEST(BinaryArchive, MissingSection) {
    tessera::registry source{};
    populate(source);
    const auto bytes = tessera::save<position>(source);

    tessera::registry destination{};
    EXPECT_EQ(error_of([&] { tessera::load<position, velocity>(destination, bytes); }),
              tessera::archive_errc::missing_section);
    expect_same_pool<position>(source, destination);
    expect_usable(destination);

    tessera::binary_input_archive archive{bytes};
    EXPECT_EQ(error_of([&] { archive.section<position>(other_pool); }), tessera::archive_errc::missing_section);
    // nothing selected: reads fail
    EXPECT_EQ(archive.remaining(), 0u);
    std::uint32_t value{};
    EXPECT_EQ(error_of([&] { archive(value); }), tessera::archive_errc::truncated);
}

TEST(BinaryArchive, CorruptIdentifiers) {
    using traits_type = tessera::entt_traits<tessera::entity>;
    const auto e0 = traits_type::construct(0u, 0u);
    const auto e0v1 = traits_type::construct(0u, 1u);
    const auto tomb = traits_type::construct(0u, traits_type::to_version(tessera::tombstone));

    // identifiers as given, then a position pool with a single record for `record`
    const auto write = [](const tessera::entity record, auto &&...values) {
        bytes_type bytes{};
        tessera::binary_output_archive archive{bytes};
        archive.section<tessera::entity>();
        (archive(values), ...);
        archive.section<position>();
        archive(count_type{1u});
        archive(record);
        archive(position{});
        archive.finish();
        return bytes;
    };

    for (const auto &bytes :
         {write(e0, count_type{1u}, count_type{2u}, e0), write(e0, count_type{2u}, count_type{1u}, e0, e0),
          write(e0, count_type{2u}, count_type{2u}, e0v1, e0), write(e0, count_type{1u}, count_type{1u}, tomb),
          write(e0, count_type{1u}, count_type{1u}, tessera::entity{tessera::null}),
          // the pool refers to another version of an identifier in use
          write(e0v1, count_type{1u}, count_type{1u}, e0),
          // a tombstone version in a pool
          write(tomb, count_type{0u}, count_type{0u})}) {
        tessera::registry registry{};
        EXPECT_EQ(error_of([&] { tessera::load<position>(registry, bytes); }), tessera::archive_errc::corrupt);
        expect_usable(registry);

        tessera::registry live{};
        tessera::continuous_loader loader{live};
        tessera::binary_input_archive archive{bytes};
        static_cast<void>(error_of([&] {
            loader.get<tessera::entity>(archive.section<tessera::entity>()).get<position>(archive.section<position>());
        }));
        expect_usable(live);
    }

    // a tombstone version in a pool read by a continuous loader
    tessera::registry live{};
    tessera::continuous_loader loader{live};
    const auto bytes = write(tomb, count_type{0u}, count_type{0u});
    tessera::binary_input_archive archive{bytes};
    EXPECT_EQ(error_of([&] { loader.get<position>(archive.section<position>()); }), tessera::archive_errc::corrupt);
}

TEST(BinaryArchive, OutputMisuse) {
    bytes_type bytes{};
    tessera::binary_output_archive archive{bytes};
    EXPECT_MISUSE(archive(count_type{}), "open a section");
    archive.finish();
    EXPECT_MISUSE(archive.section<position>(), "finished");
    const auto size = bytes.size();
    archive.finish();
    EXPECT_EQ(bytes.size(), size);
}

} // namespace

} // namespace unit_archive_binary
} // namespace
