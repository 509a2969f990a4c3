// The inspector's HTTP server: cpp-httplib listens on its own threads, which only parse requests, run the checks
// that need no registry (service::check) and queue the API requests; the program's thread answers them in poll(),
// once per frame, so the registry is never touched from two threads. With nothing queued, poll() reads one atomic
// flag. The page (static files, tools/inspector in the sources, share/tessera/inspector once installed) is served
// at / straight from the HTTP threads: it does not touch the registry. docs/inspector.md describes it all.
#ifndef TESSERA_INSPECTOR_SERVER_HPP
#define TESSERA_INSPECTOR_SERVER_HPP

#include "../config/config.hpp"
#include "fwd.hpp"
#include "options.hpp"
#include "request.hpp"
#include "service.hpp"
#include "timings.hpp"
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <fstream>
#include <httplib.h>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace tessera::inspector {

namespace internal {

/// The requests waiting for poll(). HTTP threads submit and wait; the program's thread serves. A request whose wait
/// times out before it is served is abandoned: it is answered 503 and never served, so that a write the client gave
/// up on does not happen later.
class request_queue {
    enum class stage : std::uint8_t { queued, running, done, abandoned };

    struct entry {
        request req{};
        response res{};
        stage state{stage::queued};
        std::condition_variable ready{};
    };

public:
    /// True while requests are queued: the only thing poll() reads when there is nothing to do.
    [[nodiscard]] bool pending() const noexcept { return flag.load(std::memory_order_acquire); }

    /// Queues a request and waits for its answer, at most `timeout` before it is served.
    [[nodiscard]] response submit(request req, const std::chrono::milliseconds timeout) {
        auto item = std::make_shared<entry>();
        item->req = std::move(req);
        std::unique_lock lock{mutex};

        if (closed) {
            return error_response(503, "", "the inspector is shutting down");
        }

        items.push_back(item);
        flag.store(true, std::memory_order_release);

        if (!item->ready.wait_for(lock, timeout, [&item] { return item->state == stage::done; })) {
            if (item->state == stage::queued) {
                item->state = stage::abandoned;
                return error_response(503, "",
                                      "the program did not call poll() within " + std::to_string(timeout.count()) +
                                          " ms (it is busy, paused or stopped)");
            }

            // being served: its answer is coming
            item->ready.wait(lock, [&item] { return item->state == stage::done; });
        }

        return std::move(item->res);
    }

    /// Serves every queued request with handle(request) -> response, on the calling thread.
    template<typename Handle>
    void serve(Handle &&handle) {
        std::deque<std::shared_ptr<entry>> batch{};

        {
            const std::lock_guard lock{mutex};
            batch.swap(items);
            flag.store(false, std::memory_order_relaxed);
        }

        for (auto &item : batch) {
            {
                const std::lock_guard lock{mutex};

                if (item->state == stage::abandoned) {
                    continue;
                }

                item->state = stage::running;
            }

            response res = handle(std::as_const(item->req));
            const std::lock_guard lock{mutex};
            item->res = std::move(res);
            item->state = stage::done;
            item->ready.notify_all();
        }
    }

    /// Answers every queued request 503 and refuses the ones that come later.
    void close() {
        const std::lock_guard lock{mutex};
        closed = true;

        for (auto &item : items) {
            if (item->state == stage::queued) {
                item->res = error_response(503, "", "the inspector is shutting down");
                item->state = stage::done;
                item->ready.notify_all();
            }
        }

        items.clear();
        flag.store(false, std::memory_order_relaxed);
    }

private:
    std::atomic<bool> flag{false};
    std::mutex mutex{};
    std::deque<std::shared_ptr<entry>> items{};
    bool closed{false};
};

/// A file of the page, read once when the server starts.
struct page_file {
    std::string path{};
    std::string name{};
    std::string type{};
    std::string body{};
};

/// Reads the page's files from `folder`; a file that cannot be read is left out.
[[nodiscard]] inline std::vector<page_file> read_page(const std::string &folder) {
    static constexpr std::array<std::array<const char *, 3u>, 4u> files{{
        {"/", "index.html", "text/html; charset=utf-8"},
        {"/inspector.js", "inspector.js", "text/javascript; charset=utf-8"},
        {"/inspector.css", "inspector.css", "text/css; charset=utf-8"},
        {"/favicon.svg", "favicon.svg", "image/svg+xml"},
    }};
    std::vector<page_file> out{};

    for (const auto &[path, name, type] : files) {
        std::ifstream stream{folder + "/" + name, std::ios::binary};

        if (stream) {
            std::ostringstream text{};
            text << stream.rdbuf();
            out.push_back({path, name, type, text.str()});
        }
    }

    return out;
}

/// What / answers when the page's files were not found: where they were looked for, and that the API works.
[[nodiscard]] inline std::string missing_page(const std::string &folder) {
    std::string escaped{};

    for (const char curr : folder) {
        if (curr == '<') {
            escaped.append("&lt;");
        } else if (curr == '&') {
            escaped.append("&amp;");
        } else {
            escaped.push_back(curr);
        }
    }

    return "<!doctype html><meta charset=utf-8><title>tessera inspector</title><p>The inspector's page was not "
           "found in <code>" +
           escaped + "</code> (options::page_directory). The JSON API works: <a href=/api/world>/api/world</a>.</p>";
}

} // namespace internal

/// Serves a registry over HTTP: the JSON API and the page (docs/inspector.md). Construction binds the port and
/// starts the HTTP threads; the program calls poll() once per frame, which answers the queued API requests on its
/// thread. Neither copyable nor movable (the HTTP threads hold its address).
template<typename Registry>
class basic_server {
public:
    /// The registry type.
    using registry_type = Registry;

    /// Binds `settings.address`:`settings.port` and starts serving. Throws std::invalid_argument for an address
    /// other than the loopback without a token, std::runtime_error if the port cannot be bound.
    basic_server(Registry &registry, options settings = {}) : api{registry, std::move(settings)} {
        const auto &opts = api.settings();

        if (!internal::is_loopback(opts.address) && opts.token.empty()) {
            throw std::invalid_argument{"inspector: serving " + opts.address +
                                        " needs options::token; without one, anybody who reaches the address could "
                                        "read and change the registry"};
        }

        const std::string folder = opts.page_directory.empty() ? TESSERA_INSPECTOR_PAGE_DIR : opts.page_directory;
        page = internal::read_page(folder);
        page_folder = folder;
        configure();

        const int bound = opts.port == 0u
                              ? http.bind_to_any_port(opts.address)
                              : (http.bind_to_port(opts.address, opts.port) ? static_cast<int>(opts.port) : -1);

        if (bound <= 0) {
            throw std::runtime_error{"inspector: cannot listen on " + opts.address + ":" + std::to_string(opts.port)};
        }

        bound_port = static_cast<std::uint16_t>(bound);
        api.serve_at(opts.address, bound_port);
        listener = std::thread{[this] { http.listen_after_bind(); }};

        // stop() does nothing until the listening loop runs: wait for it, so that the destructor can always stop it
        for (int attempt{}; !http.is_running(); ++attempt) {
            if (attempt == 5000) {
                shutdown();
                throw std::runtime_error{"inspector: the HTTP server did not start"};
            }

            std::this_thread::sleep_for(std::chrono::milliseconds{1});
        }
    }

    basic_server(const basic_server &) = delete;
    basic_server &operator=(const basic_server &) = delete;

    /// Answers what is still queued with 503 and stops the HTTP threads.
    ~basic_server() { shutdown(); }

    /// Serves the API requests that arrived since the last call, on the calling thread: call it once per frame, from
    /// the thread that owns the registry, where nothing else uses the registry. With nothing queued it reads one
    /// atomic flag and counts the frame.
    void poll() {
        api.count_frame();

        if (queue.pending()) [[unlikely]] {
            serve();
        }
    }

    /// Shows Type by `name`; see basic_service::component.
    template<typename Type>
    basic_server &component(std::string name = default_name<Type>(), const id_type pool = type_hash<Type>::value()) {
        api.template component<Type>(std::move(name), pool);
        return *this;
    }

    /// Names Type the label of entities; see basic_service::label.
    template<typename Type, typename... Args>
    basic_server &label(Args &&...args) {
        api.template label<Type>(std::forward<Args>(args)...);
        return *this;
    }

    /// The frame and system times GET /api/systems reports (frame_timings).
    [[nodiscard]] frame_timings &timings() noexcept { return api.timings(); }

    /// The service behind the server (its routes, without HTTP).
    [[nodiscard]] basic_service<Registry> &service() noexcept { return api; }

    /// The port served (the one picked when options::port was 0).
    [[nodiscard]] std::uint16_t port() const noexcept { return bound_port; }

    /// The address of the page: http://address:port/ (IPv6 addresses in brackets).
    [[nodiscard]] std::string url() const {
        const auto &address = api.settings().address;
        const bool bracket = address.find(':') != std::string::npos && address.front() != '[';
        return "http://" + (bracket ? "[" + address + "]" : address) + ":" + std::to_string(bound_port) + "/";
    }

    /// True if the page's files were found (the API works either way).
    [[nodiscard]] bool has_page() const noexcept { return !page.empty(); }

private:
    [[gnu::noinline]] void serve() {
        queue.serve([this](const request &req) { return api.handle(req); });
    }

    void shutdown() {
        queue.close();
        http.stop();

        if (listener.joinable()) {
            listener.join();
        }
    }

    /// What an HTTP thread answers: the checks, then the page or the API (through the queue).
    [[nodiscard]] response answer(request req) {
        if (auto refused = api.check(req); refused) {
            return std::move(*refused);
        }

        const std::string_view target{req.target};

        if (target == "/api" || target.rfind("/api/", 0u) == 0u || target.rfind("/api?", 0u) == 0u) {
            return queue.submit(std::move(req), api.settings().answer_timeout);
        }

        if (req.method != "GET" && req.method != "HEAD") {
            return internal::error_response(405, "method", req.method + " is not allowed here (GET)");
        }

        const auto path = target.substr(0u, target.find('?'));

        for (const auto &file : page) {
            if (file.path == path || (path == "/index.html" && file.path == "/")) {
                return response{200, file.body, file.type};
            }
        }

        if (path == "/" && page.empty()) {
            return response{200, internal::missing_page(page_folder), "text/html; charset=utf-8"};
        }

        return internal::error_response(404, "target", "no file " + std::string{path});
    }

    void configure() {
        const auto threads = api.settings().threads == 0u ? std::size_t{1u} : api.settings().threads;
        http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
        http.set_payload_max_length(api.settings().max_body);
        // cpp-httplib's default adds SO_REUSEPORT, which lets a second server (another program of the same user)
        // bind the same port and receive part of the requests: the port is this server's alone
        http.set_socket_options([](const socket_t sock) {
            const int yes = 1;
            setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
        });
        // answers are written in one go: without this, Nagle's algorithm and delayed acknowledgements hold each
        // answer on a kept-alive connection for 40 ms
        http.set_tcp_nodelay(true);
        // one request per connection: cpp-httplib gives every open connection a thread of the pool until it closes,
        // so the kept-alive connections of one browser tab (the page asks every second, Chromium keeps several
        // open) would hold every thread and leave other clients waiting for minutes; a new connection on the loopback
        // costs tens of microseconds. A connection that sends nothing (browsers open some ahead of need) holds its
        // thread for a second at most.
        http.set_keep_alive_max_count(1);
        http.set_keep_alive_timeout(1);

        const auto handler = [this](const httplib::Request &in, httplib::Response &out) {
            request req{};
            req.method = in.method;
            req.target = in.target;
            req.body = in.body;
            // a header sent twice is as good as none: the checks refuse what they cannot read unambiguously
            const auto header = [&in](const char *name) -> std::optional<std::string> {
                if (in.get_header_value_count(name) != 1u) {
                    return std::nullopt;
                }

                return in.get_header_value(name);
            };
            req.host = header("Host");
            req.origin = header("Origin");
            req.authorization = header("Authorization");

            const response res = answer(std::move(req));
            out.status = res.status;
            out.set_content(res.body, res.content_type.c_str());
            secure(out);
        };

        const httplib::Server::Handler every{handler};
        http.Get(".*", every);
        http.Put(".*", every);
        http.Delete(".*", every);
        http.Post(".*", every);
        http.Patch(".*", every);
        http.Options(".*", every);

        // cpp-httplib's own refusals (a body over the cap, a request it cannot parse) get a JSON message too
        http.set_error_handler([this](const httplib::Request &, httplib::Response &out) {
            if (!out.body.empty()) {
                return;
            }

            const auto refusal =
                out.status == 413
                    ? internal::error_response(
                          413, "body", "larger than the " + std::to_string(api.settings().max_body) + " bytes accepted")
                    : internal::error_response(out.status, "", "the request could not be read");
            out.set_content(refusal.body, refusal.content_type.c_str());
            secure(out);
        });
    }

    /// Headers of every answer: no caching, no sniffing, no framing by other pages, scripts from here only.
    static void secure(httplib::Response &out) {
        out.set_header("Cache-Control", "no-store");
        out.set_header("X-Content-Type-Options", "nosniff");
        out.set_header("X-Frame-Options", "DENY");
        out.set_header("Content-Security-Policy",
                       "default-src 'self'; img-src 'self' data:; style-src 'self'; frame-ancestors 'none'");
        out.set_header("Referrer-Policy", "no-referrer");
    }

    basic_service<Registry> api;
    internal::request_queue queue{};
    std::vector<internal::page_file> page{};
    std::string page_folder{};
    httplib::Server http{};
    std::thread listener{};
    std::uint16_t bound_port{};
};

} // namespace tessera::inspector

#endif
