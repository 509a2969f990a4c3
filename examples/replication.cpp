// Replication over a real network stack (docs/replication.md): a server runs the battle of battle_world.hpp and
// replicates its units over TCP on the loopback, with standalone asio, to two clients, each on its own thread with
// its own registry; the second client sees only the red half of the arena. Every tick, the server sends each client
// a message (the whole state first, then deltas) framed by its size and followed by the digest of what the client
// should hold; the client applies it, checks its mirror's digest against the server's, and acknowledges the tick.
// Prints the bytes per tick beside the whole state's size.
//
//   replication [--units N] [--frames N] [--quiet]
#define TESSERA_BATTLE_SEQUENTIAL
#include "battle_replication.hpp"

#include <asio.hpp>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <thread>
#include <vector>

namespace {

using asio::ip::tcp;

/// What the server sends before each message: the message's size (4 bytes) and the digest of the state it brings
/// the client to (8 bytes), little-endian.
constexpr std::size_t frame_header_size = 12u;

void put_le(std::byte *out, const std::uint64_t value, const std::size_t bytes) {
    for (std::size_t pos{}; pos < bytes; ++pos) {
        out[pos] = static_cast<std::byte>((value >> (8u * pos)) & 0xFFu);
    }
}

std::uint64_t get_le(const std::byte *in, const std::size_t bytes) {
    std::uint64_t value{};

    for (std::size_t pos{}; pos < bytes; ++pos) {
        value |= static_cast<std::uint64_t>(in[pos]) << (8u * pos);
    }

    return value;
}

/// What a client found: ticks applied and checked, ticks whose digest differed.
struct client_result {
    std::size_t ticks{};
    std::size_t mismatches{};
    std::string failure{};
};

/// A client: its own registry and mirror; reads messages until the server closes the connection.
void run_client(const unsigned short port, client_result &result) {
    try {
        asio::io_context context{};
        tcp::socket socket{context};
        socket.connect(tcp::endpoint{asio::ip::address_v4::loopback(), port});

        tessera::registry registry{};
        battle::net::mirror mirror{registry};
        std::array<std::byte, frame_header_size> head{};
        std::vector<std::byte> bytes{};

        for (;;) {
            asio::error_code error{};
            asio::read(socket, asio::buffer(head), error);

            if (error == asio::error::eof) {
                return;
            }

            if (error) {
                throw asio::system_error{error};
            }

            const auto size = static_cast<std::size_t>(get_le(head.data(), 4u));

            // the transport caps what it reads before the mirror checks the rest
            if (size > (std::size_t{1} << 28u)) {
                result.failure = "a message larger than 256 MiB";
                return;
            }

            const auto digest = get_le(head.data() + 4u, 8u);
            bytes.resize(size);
            asio::read(socket, asio::buffer(bytes));

            const auto tick = mirror.apply(bytes);
            ++result.ticks;
            result.mismatches += mirror.digest() != digest ? 1u : 0u;

            std::array<std::byte, 4u> ack{};
            put_le(ack.data(), tick, 4u);
            asio::write(socket, asio::buffer(ack));
        }
    } catch (const std::exception &error) {
        result.failure = error.what();
    }
}

/// Sends one message and its digest to a client, then waits for its acknowledgment.
tessera::tick_type exchange(tcp::socket &socket, const tessera::replication::message &message,
                            const std::uint64_t digest) {
    std::array<std::byte, frame_header_size> head{};
    put_le(head.data(), message.size(), 4u);
    put_le(head.data() + 4u, digest, 8u);
    const std::array<asio::const_buffer, 2u> buffers{asio::buffer(head), asio::buffer(message.data(), message.size())};
    asio::write(socket, buffers);

    std::array<std::byte, 4u> ack{};
    asio::read(socket, asio::buffer(ack));
    return static_cast<tessera::tick_type>(get_le(ack.data(), 4u));
}

std::size_t parse(const char *text, const char *option, const std::size_t low, const std::size_t high) {
    char *end{};
    const auto value = std::strtoull(text, &end, 10);

    if (end == text || *end != '\0' || value < low || value > high) {
        std::fprintf(stderr, "%s takes %zu to %zu\n", option, low, high);
        std::exit(2);
    }

    return static_cast<std::size_t>(value);
}

} // namespace

int main(int argc, char **argv) {
    std::size_t units = 2000u;
    std::size_t frames = 120u;
    bool quiet = false;

    for (int arg = 1; arg < argc; ++arg) {
        const std::string option{argv[arg]};

        if (option == "--quiet") {
            quiet = true;
        } else if ((option == "--units" || option == "--frames") && arg + 1 < argc) {
            const char *value = argv[arg + 1];
            (option == "--units" ? units : frames) = parse(value, argv[arg], 1u, 600000u);
            ++arg;
        } else {
            std::fprintf(stderr, "usage: replication [--units N] [--frames N] [--quiet]\n");
            return 2;
        }
    }

    asio::io_context context{};
    // the loopback only: nothing outside this machine can connect
    tcp::acceptor acceptor{context, tcp::endpoint{asio::ip::address_v4::loopback(), 0u}};
    const auto port = acceptor.local_endpoint().port();

    std::array<client_result, 2u> results{};
    std::thread everything{run_client, port, std::ref(results[0])};
    tcp::socket all_socket = acceptor.accept();
    std::thread left{run_client, port, std::ref(results[1])};
    tcp::socket left_socket = acceptor.accept();

    battle::simulation simulation{units, 7u, false};
    auto &server = simulation.world();
    battle::net::source source{server};
    auto all_peer = source.connect();
    auto left_peer = source.connect(battle::net::left_half{&server});

    std::size_t total[2]{};
    int status = 0;

    try {
        for (std::size_t frame{}; frame < frames; ++frame) {
            simulation.frame();
            battle::net::publish(server);

            const auto to_all = all_peer.next();
            all_peer.acknowledge(exchange(all_socket, to_all, all_peer.digest()));
            const auto to_left = left_peer.next();
            left_peer.acknowledge(exchange(left_socket, to_left, left_peer.digest()));
            total[0] += to_all.size();
            total[1] += to_left.size();

            if (!quiet && (frame < 3u || frame + 1u == frames || frame % 30u == 0u)) {
                std::printf("tick %3zu: %zu units replicated; all: %zu bytes%s, left half: %zu bytes%s\n", frame,
                            server.storage<tessera::replication::replicated>().size(), to_all.size(),
                            to_all.full_state() ? " (whole state)" : "", to_left.size(),
                            to_left.full_state() ? " (whole state)" : "");
            }
        }
    } catch (const std::exception &error) {
        std::fprintf(stderr, "server: %s\n", error.what());
        status = 1;
    }

    // closing the connections ends the clients
    all_socket.close();
    left_socket.close();
    everything.join();
    left.join();

    // what a client joining now would get
    const auto whole = source.connect().next().size();
    std::printf("whole state now: %zu bytes; mean per tick: all %zu bytes, left half %zu bytes\n", whole,
                frames == 0u ? 0u : total[0] / frames, frames == 0u ? 0u : total[1] / frames);
    std::printf("server memory for replication: %zu bytes\n", source.memory_bytes());

    const char *names[2] = {"all", "left half"};

    for (std::size_t index{}; index < results.size(); ++index) {
        const auto &result = results[index];
        std::printf("client %s: %zu ticks applied, %zu digests differ%s%s\n", names[index], result.ticks,
                    result.mismatches, result.failure.empty() ? "" : ", error: ", result.failure.c_str());

        if (result.ticks != frames || result.mismatches != 0u || !result.failure.empty()) {
            status = 1;
        }
    }

    std::printf(status == 0 ? "every client held the server's state after every tick\n" : "FAILED\n");
    return status;
}
