// Tests of the format (internal/format.hpp, internal/values.hpp, docs/replication.md "Format"): the header, the
// identifiers and integers, the values, and every way a mirror refuses a message: truncated, damaged, replayed,
// from another version or schema, against a baseline it does not hold, with trailing bytes. A refused message leaves
// the mirror and its registry exactly as they were.
#include "replication/world.hpp"
#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstring>
#include <gtest/gtest.h>
#include <optional>
#include <string>
#include <tessera/archive/binary.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/replication/replication.hpp>
#include <vector>

namespace {
namespace unit_replication_format {

namespace {

using namespace replication_test;
using tessera::replication::errc;
using bytes_type = std::vector<std::byte>;

bytes_type copy(const tessera::replication::message &message) {
    return bytes_type(message.data(), message.data() + message.size());
}

/// Rewrites the body size and the checksum after an edit, so that only the edit is wrong.
void seal(bytes_type &bytes) {
    tessera::internal::store_le(bytes.data() + 20u,
                                static_cast<std::uint32_t>(bytes.size() - tessera::internal::replication_header_size));
    tessera::internal::store_le(bytes.data() + tessera::internal::replication_checksum_offset,
                                tessera::internal::replication_checksum(bytes));
}

/// Everything observable of a mirror and its registry.
struct observed {
    bytes_type registry;
    std::uint64_t digest;
    std::optional<tessera::tick_type> tick;
    std::size_t size;

    bool operator==(const observed &) const = default;
};

observed observe(const tessera::registry &client, const mirror_type &mirror) {
    return observed{tessera::save<position, health, frozen, label, anchor>(client), mirror.digest(), mirror.tick(),
                    mirror.size()};
}

/// Expects apply to throw a replication error with `code` and to change nothing.
void expect_refused(mirror_type &mirror, const tessera::registry &client, const bytes_type &bytes, const errc code) {
    const auto before = observe(client, mirror);

    try {
        mirror.apply(bytes);
        ADD_FAILURE() << "the message was applied";
    } catch (const tessera::replication::error &error) {
        EXPECT_EQ(error.code(), code) << error.what();
        EXPECT_NE(std::string{error.what()}.find("replication: "), std::string::npos);
    }

    EXPECT_TRUE(observe(client, mirror) == before);
}

/// A server with a few entities of every kind, and a client that holds its state.
struct world_fixture {
    tessera::registry server{};
    source_type source{server};
    source_type::peer_type peer = source.connect();
    tessera::registry client{};
    mirror_type mirror{client};
    std::vector<tessera::entity> entities{};

    world_fixture() {
        for (int count{}; count < 6; ++count) {
            const auto entt = server.create();
            server.emplace<replicated>(entt);
            server.emplace<position>(entt, static_cast<float>(count), 1.f);
            server.emplace<health>(entt, count);
            server.emplace<label>(entt, std::string(static_cast<std::size_t>(count) * 5u, 'a'));
            entities.push_back(entt);
        }

        server.emplace<frozen>(entities[1]);
        server.emplace<anchor>(entities[2], entities[3], 1);
        whole = copy(peer.next());
        peer.acknowledge(mirror.apply(whole));
    }

    /// The whole state the mirror applied first.
    bytes_type whole{};

    /// A delta that changes, adds, removes, creates and destroys.
    bytes_type delta() {
        server.patch<position>(entities[0], [](position &pos) { pos.x = 50.f; });
        server.emplace_or_replace<frozen>(entities[0]);
        server.remove<label>(entities[4]);

        if (server.valid(entities[5])) {
            server.destroy(entities[5]);
        }

        const auto made = server.create();
        server.emplace<replicated>(made);
        server.emplace<anchor>(made, entities[0], 2);
        return copy(peer.next());
    }
};

TEST(format, Header) {
    world_fixture fixture{};
    const auto message = fixture.peer.next();
    const auto bytes = copy(message);
    ASSERT_GE(bytes.size(), 32u);
    EXPECT_EQ(std::memcmp(bytes.data(), "TSRP", 4u), 0);
    EXPECT_EQ(tessera::internal::load_le<std::uint16_t>(bytes.data() + 4u), 1u);
    EXPECT_EQ(static_cast<unsigned>(bytes[6]), 0u);
    EXPECT_EQ(static_cast<unsigned>(bytes[7]), sizeof(tessera::entity));
    EXPECT_EQ(tessera::internal::load_le<std::uint32_t>(bytes.data() + 12u), message.tick());
    EXPECT_EQ(tessera::internal::load_le<std::uint32_t>(bytes.data() + 16u), message.baseline());
    EXPECT_EQ(tessera::internal::load_le<std::uint32_t>(bytes.data() + 20u), bytes.size() - 32u);
    EXPECT_EQ(tessera::internal::load_le<std::uint64_t>(bytes.data() + 24u),
              tessera::internal::replication_checksum(bytes));

    fixture.peer.reset();
    const auto whole = copy(fixture.peer.next());
    EXPECT_EQ(static_cast<unsigned>(whole[6]), 1u);
    EXPECT_EQ(tessera::internal::load_le<std::uint32_t>(whole.data() + 16u), 0u);
}

TEST(format, Identifiers) {
    using traits = tessera::entt_traits<tessera::entity>;
    tessera::internal::byte_buffer buffer{};
    tessera::internal::byte_writer out{buffer};
    out.entity(traits::construct(5u, 0u));
    out.entity(traits::construct(5u, 3u));
    out.entity(traits::construct(200u, 0u));
    out.entity(traits::construct(traits::entity_mask - 1u, traits::version_mask - 1u));
    const std::vector<std::byte> expected{std::byte{10u}, std::byte{11u}, std::byte{3u}, std::byte{0x90u},
                                          std::byte{0x03u}};
    ASSERT_GE(buffer.size(), expected.size());
    EXPECT_EQ(std::memcmp(buffer.data(), expected.data(), expected.size()), 0);

    tessera::internal::byte_reader in{std::span<const std::byte>{buffer.data(), buffer.size()}};
    EXPECT_EQ(in.entity<tessera::entity>(), traits::construct(5u, 0u));
    EXPECT_EQ(in.entity<tessera::entity>(), traits::construct(5u, 3u));
    EXPECT_EQ(in.entity<tessera::entity>(), traits::construct(200u, 0u));
    EXPECT_EQ(in.entity<tessera::entity>(), traits::construct(traits::entity_mask - 1u, traits::version_mask - 1u));
    EXPECT_EQ(in.remaining(), 0u);
}

TEST(format, BadIdentifiersAndIntegers) {
    using traits = tessera::entt_traits<tessera::entity>;
    const auto read = [](std::vector<std::byte> bytes) {
        tessera::internal::byte_reader in{bytes};
        return in.entity<tessera::entity>();
    };
    const auto code_of = [&read](std::vector<std::byte> bytes) {
        try {
            static_cast<void>(read(std::move(bytes)));
        } catch (const tessera::replication::error &error) {
            return error.code();
        }

        return errc{};
    };

    // version 0 spelled out; null's index; the tombstone version; more bits than an index has; cut short
    EXPECT_EQ(code_of({std::byte{11u}, std::byte{0u}}), errc::corrupt);
    tessera::internal::byte_buffer buffer{};
    tessera::internal::byte_writer out{buffer};
    out.varint(std::uint64_t{traits::entity_mask} << 1u);
    EXPECT_EQ(code_of({buffer.data(), buffer.data() + buffer.size()}), errc::corrupt);
    buffer.clear();
    out.varint(11u);
    out.varint(traits::version_mask);
    EXPECT_EQ(code_of({buffer.data(), buffer.data() + buffer.size()}), errc::corrupt);
    buffer.clear();
    out.varint(std::uint64_t{1} << 40u);
    EXPECT_EQ(code_of({buffer.data(), buffer.data() + buffer.size()}), errc::corrupt);
    EXPECT_EQ(code_of({std::byte{0x80u}}), errc::truncated);
    EXPECT_EQ(code_of({}), errc::truncated);

    // an integer longer than ten bytes, or whose tenth byte brings more than the 64th bit
    std::vector<std::byte> endless(11u, std::byte{0x80u});
    tessera::internal::byte_reader long_in{endless};
    EXPECT_THROW(static_cast<void>(long_in.varint()), tessera::replication::error);
    std::vector<std::byte> wide(9u, std::byte{0xFFu});
    wide.push_back(std::byte{2u});
    tessera::internal::byte_reader wide_in{wide};
    EXPECT_THROW(static_cast<void>(wide_in.varint()), tessera::replication::error);
    std::vector<std::byte> widest(9u, std::byte{0xFFu});
    widest.push_back(std::byte{1u});
    tessera::internal::byte_reader widest_in{widest};
    EXPECT_EQ(widest_in.varint(), ~std::uint64_t{});

    // a count larger than what is left
    std::vector<std::byte> counted{std::byte{5u}, std::byte{1u}};
    tessera::internal::byte_reader count_in{counted};
    EXPECT_THROW(static_cast<void>(count_in.count(1u)), tessera::replication::error);
}

TEST(format, IntegersOfEveryLength) {
    // the writer spreads integers below 2^56 with shifts and the reader decodes 8 bytes at once when they are there:
    // both must give the bytes and values of the plain one-byte-at-a-time rule, at every length, and the reader
    // must read the same near the end of a message (one byte at a time) as with bytes after it
    const auto reference = [](std::uint64_t value) {
        std::vector<std::byte> bytes{};

        for (; value >= 0x80u; value >>= 7u) {
            bytes.push_back(static_cast<std::byte>((value & 0x7Fu) | 0x80u));
        }

        bytes.push_back(static_cast<std::byte>(value));
        return bytes;
    };

    std::vector<std::uint64_t> values{0u, ~std::uint64_t{}};
    generator random{11u};

    for (unsigned bits = 1u; bits < 64u; ++bits) {
        values.push_back((std::uint64_t{1} << bits) - 1u);
        values.push_back(std::uint64_t{1} << bits);
        values.push_back((random.next() >> (64u - bits)) | (std::uint64_t{1} << (bits - 1u)));
    }

    for (const auto value : values) {
        const auto expected = reference(value);
        tessera::internal::byte_buffer buffer{};
        tessera::internal::byte_writer out{buffer};
        out.varint(value);
        ASSERT_EQ(buffer.size(), expected.size()) << value;
        EXPECT_EQ(buffer.size(), tessera::internal::varint_size(value));
        EXPECT_EQ(std::memcmp(buffer.data(), expected.data(), expected.size()), 0) << value;

        for (const std::size_t padding : {0u, 1u, 7u, 8u, 9u}) {
            auto bytes = expected;
            bytes.resize(bytes.size() + padding, std::byte{0xFFu});
            tessera::internal::byte_reader in{bytes};
            EXPECT_EQ(in.varint(), value);
            EXPECT_EQ(in.offset(), expected.size());

            // a narrower integer must fit its bits, whichever way it is read
            const auto width = static_cast<unsigned>(std::bit_width(value));

            if (width > 1u && width < 64u) {
                tessera::internal::byte_reader narrow_in{bytes};
                EXPECT_THROW(static_cast<void>(narrow_in.varint(width - 1u)), tessera::replication::error);
                tessera::internal::byte_reader fitting_in{bytes};
                EXPECT_EQ(fitting_in.varint(width), value);
            }
        }
    }

    // the long spelling of an integer (high bits of zero) reads the same with and without bytes after it
    for (const std::size_t padding : {0u, 8u}) {
        std::vector<std::byte> bytes{std::byte{0x85u}, std::byte{0x80u}, std::byte{0x00u}};
        bytes.resize(bytes.size() + padding, std::byte{0x80u});
        tessera::internal::byte_reader in{bytes};
        EXPECT_EQ(in.varint(), 5u);
        EXPECT_EQ(in.offset(), 3u);
    }

    // eight bytes that all continue: the reader goes on past them
    std::vector<std::byte> nine(8u, std::byte{0x81u});
    nine.push_back(std::byte{0x01u});
    tessera::internal::byte_reader nine_in{nine};
    EXPECT_EQ(nine_in.varint(), 0x0102040810204081ull);
    EXPECT_EQ(nine_in.remaining(), 0u);
}

TEST(format, ListsOfIdentifiers) {
    // entities() writes a count and the identifiers as entity() writes each
    using traits = tessera::entt_traits<tessera::entity>;
    std::vector<tessera::entity> list{};
    generator random{5u};

    for (std::size_t count{}; count < 300u; ++count) {
        list.push_back(traits::construct(random.below(traits::entity_mask),
                                         random.below(4u) == 0u ? random.below(traits::version_mask) : 0u));
    }

    list.push_back(traits::construct(traits::entity_mask - 1u, traits::version_mask - 1u));
    tessera::internal::byte_buffer one_by_one{};
    tessera::internal::byte_writer each_out{one_by_one};
    each_out.varint(list.size());

    for (const auto entt : list) {
        each_out.entity(entt);
    }

    tessera::internal::byte_buffer at_once{};
    tessera::internal::byte_writer list_out{at_once};
    list_out.entities(list.size(), list.begin(), list.end());
    ASSERT_EQ(at_once.size(), one_by_one.size());
    EXPECT_EQ(std::memcmp(at_once.data(), one_by_one.data(), at_once.size()), 0);

    tessera::internal::byte_reader in{std::span<const std::byte>{at_once.data(), at_once.size()}};
    ASSERT_EQ(in.count(1u), list.size());

    for (const auto entt : list) {
        EXPECT_EQ(in.entity<tessera::entity>(), entt);
    }

    EXPECT_EQ(in.remaining(), 0u);

    // the longest identifier takes the most bytes the writer makes room for
    std::array<std::byte, 32u> longest{};
    EXPECT_EQ(tessera::internal::put_entity(longest.data(), list.back()),
              tessera::internal::max_entity_bytes<tessera::entity>);
}

TEST(format, RawValuesAreLittleEndianBytes) {
    tessera::registry server{};
    source_type source{server};
    auto peer = source.connect();
    const auto entt = server.create();
    server.emplace<replicated>(entt);
    server.emplace<health>(entt, 0x0A0B0C0D);
    const auto bytes = copy(peer.next());
    const std::byte pattern[]{std::byte{0x0Du}, std::byte{0x0Cu}, std::byte{0x0Bu}, std::byte{0x0Au}};
    EXPECT_NE(std::search(bytes.begin(), bytes.end(), std::begin(pattern), std::end(pattern)), bytes.end());
}

TEST(format, ArchivedValuesUseTheirSerialization) {
    tessera::registry server{};
    source_type source{server};
    auto peer = source.connect();
    const auto entt = server.create();
    server.emplace<replicated>(entt);
    server.emplace<label>(entt, "hello");
    const auto bytes = copy(peer.next());
    // a binary archive (docs/snapshots.md) inside the section of label
    const char magic[] = "TSRA";
    EXPECT_NE(std::search(bytes.begin(), bytes.end(), reinterpret_cast<const std::byte *>(magic),
                          reinterpret_cast<const std::byte *>(magic) + 4),
              bytes.end());
    const char text[] = "hello";
    EXPECT_NE(std::search(bytes.begin(), bytes.end(), reinterpret_cast<const std::byte *>(text),
                          reinterpret_cast<const std::byte *>(text) + 5),
              bytes.end());
}

TEST(format, TruncatedMessages) {
    world_fixture fixture{};
    const auto bytes = fixture.delta();

    for (std::size_t length{}; length < bytes.size(); ++length) {
        const bytes_type cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(length));
        expect_refused(fixture.mirror, fixture.client, cut, errc::truncated);
    }

    // cut, and sealed again: the body ends early
    for (std::size_t length = tessera::internal::replication_header_size; length < bytes.size(); ++length) {
        bytes_type cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(length));
        seal(cut);
        const auto before = observe(fixture.client, fixture.mirror);
        EXPECT_THROW(fixture.mirror.apply(cut), tessera::replication::error) << length;
        EXPECT_TRUE(observe(fixture.client, fixture.mirror) == before);
    }

    // the whole message still applies
    fixture.mirror.apply(bytes);
    EXPECT_EQ(compare(fixture.server, fixture.mirror, fixture.client, {}), "");
}

TEST(format, DamagedMessages) {
    world_fixture fixture{};
    const auto bytes = fixture.delta();

    for (std::size_t pos{}; pos < bytes.size(); ++pos) {
        auto damaged = bytes;
        damaged[pos] ^= std::byte{0x10u};
        const auto code = pos < 4u ? errc::bad_magic : (pos < 6u ? errc::unsupported_version : errc::checksum_mismatch);
        // the body size field: the size no longer matches
        expect_refused(fixture.mirror, fixture.client, damaged, pos >= 20u && pos < 24u ? errc::truncated : code);
    }
}

TEST(format, DamagedAndSealedAgain) {
    // a damage the checksum cannot see (or a forged message): applied if it makes sense, refused whole otherwise
    world_fixture fixture{};
    const auto bytes = fixture.delta();
    std::size_t refused{};
    std::size_t applied{};

    for (std::size_t pos = tessera::internal::replication_header_size; pos < bytes.size(); ++pos) {
        for (const auto flip : {std::byte{0x01u}, std::byte{0x80u}, std::byte{0xFFu}}) {
            // a mirror at the delta's baseline
            tessera::registry client{};
            mirror_type mirror{client};
            mirror.apply(fixture.whole);
            auto damaged = bytes;
            damaged[pos] ^= flip;
            seal(damaged);
            const auto before = observe(client, mirror);

            try {
                mirror.apply(damaged);
                ++applied;
            } catch (const tessera::replication::error &) {
                ++refused;
                EXPECT_TRUE(observe(client, mirror) == before) << "byte " << pos;
            }
        }
    }

    EXPECT_GT(refused, 0u);
    EXPECT_GT(applied, 0u);
}

TEST(format, Versions) {
    world_fixture fixture{};
    auto bytes = fixture.delta();
    tessera::internal::store_le(bytes.data() + 4u, std::uint16_t{2u});
    seal(bytes);
    expect_refused(fixture.mirror, fixture.client, bytes, errc::unsupported_version);
    tessera::internal::store_le(bytes.data() + 4u, std::uint16_t{0u});
    seal(bytes);
    expect_refused(fixture.mirror, fixture.client, bytes, errc::unsupported_version);

    // a flag this version does not know
    auto flagged = fixture.delta();
    flagged[6] |= std::byte{0x40u};
    seal(flagged);
    expect_refused(fixture.mirror, fixture.client, flagged, errc::unsupported_version);
}

TEST(format, OtherSchemas) {
    world_fixture fixture{};
    const auto bytes = fixture.delta();

    // other types
    tessera::registry other{};
    tessera::replication::mirror<position, health> fewer{other};
    EXPECT_THROW(fewer.apply(bytes), tessera::replication::error);

    try {
        fewer.apply(bytes);
    } catch (const tessera::replication::error &error) {
        EXPECT_EQ(error.code(), errc::schema_mismatch);
    }

    // identifiers of another size (anchor holds 32-bit identifiers: another type of the same size stands in)
    struct wide_anchor {
        std::uint64_t value;
    };
    using wide_registry = tessera::basic_registry<std::uint64_t>;
    wide_registry wide{};
    tessera::replication::basic_mirror<wide_registry, position, health, frozen, label, wide_anchor> wide_mirror{wide};

    try {
        wide_mirror.apply(bytes);
        ADD_FAILURE();
    } catch (const tessera::replication::error &error) {
        EXPECT_EQ(error.code(), errc::schema_mismatch);
    }

    EXPECT_EQ(wide.storage<std::uint64_t>().free_list(), 0u);
}

TEST(format, ReplayedMessages) {
    world_fixture fixture{};
    const auto first = fixture.delta();
    fixture.mirror.apply(first);
    expect_refused(fixture.mirror, fixture.client, first, errc::replayed);

    const auto second = copy(fixture.peer.next());
    const auto third = copy(fixture.peer.next());
    fixture.mirror.apply(third);
    // out of order: older than the state held
    expect_refused(fixture.mirror, fixture.client, second, errc::replayed);
}

TEST(format, UnknownBaselines) {
    world_fixture fixture{};
    const auto delta = fixture.delta();

    // a mirror that holds nothing
    tessera::registry fresh_client{};
    mirror_type fresh{fresh_client};
    expect_refused(fresh, fresh_client, delta, errc::unknown_baseline);

    // a baseline newer than the state held
    auto ahead = delta;
    tessera::internal::store_le(ahead.data() + 16u, fixture.mirror.tick().value() + 1u);
    tessera::internal::store_le(ahead.data() + 12u, fixture.mirror.tick().value() + 5u);
    seal(ahead);
    expect_refused(fixture.mirror, fixture.client, ahead, errc::unknown_baseline);

    // a delta whose baseline is not before its tick
    auto backwards = delta;
    tessera::internal::store_le(backwards.data() + 16u, tessera::internal::load_le<std::uint32_t>(delta.data() + 12u));
    seal(backwards);
    expect_refused(fixture.mirror, fixture.client, backwards, errc::corrupt);
}

TEST(format, TrailingBytes) {
    world_fixture fixture{};
    auto bytes = fixture.delta();
    bytes.push_back(std::byte{});
    seal(bytes);
    expect_refused(fixture.mirror, fixture.client, bytes, errc::corrupt);
}

TEST(format, ValuesForEntitiesTheMirrorDoesNotHold) {
    world_fixture fixture{};
    const auto bytes = fixture.delta();
    // a mirror that holds a state at the delta's baseline, but an empty one: the delta's values name entities it
    // does not have
    tessera::registry empty_server{};
    source_type empty_source{empty_server};
    auto empty_peer = empty_source.connect();
    auto whole = copy(empty_peer.next());
    tessera::internal::store_le(whole.data() + 12u, tessera::internal::load_le<std::uint32_t>(bytes.data() + 16u));
    seal(whole);
    tessera::registry other_client{};
    mirror_type other{other_client};
    other.apply(whole);
    expect_refused(other, other_client, bytes, errc::corrupt);
}

TEST(format, ErrorsSayWhatIsWrong) {
    const tessera::replication::error error{errc::replayed, "replication: test"};
    EXPECT_EQ(error.code(), errc::replayed);
    EXPECT_STREQ(error.what(), "replication: test");
}

} // namespace

} // namespace unit_replication_format
} // namespace
