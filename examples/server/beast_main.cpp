// hclvm-server-beast: hclvm-server (main.cpp) over Boost.Beast instead of
// cpp-httplib, with the same service (service.cpp), options and answers.
//
// Each thread runs its own event loop (an asio io_context) with its own
// listening socket on the shared port (SO_REUSEPORT, so the kernel spreads
// new connections over the loops), and serves all of its connections
// without blocking: a connection costs a little memory, not a thread, and a
// request costs a read, the evaluation and one gathered write. One thread
// per core is the intended set-up.
//
// Slow clients: each request must arrive whole (headers and body) within
// --request-timeout-ms of the moment the connection is ready for it, and
// each answer must be taken within as long, or the connection is closed;
// at most --max-connections are open at once, further ones are closed as
// soon as they are accepted.
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "service.h"

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;

// One connection: reads a request, answers it, and reads the next while the
// client keeps the connection alive.
// What every connection of the process shares: the service, the limits a
// connection keeps to, and the count of open connections.
struct Shared {
  server::Service& service;
  size_t max_body;
  size_t max_connections;
  std::chrono::milliseconds timeout;
  std::atomic<size_t> open{0};
};

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(tcp::socket socket, Shared& shared) : stream_(std::move(socket)), shared_(shared) {
    ++shared_.open;
  }
  ~Connection() { --shared_.open; }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  void read() {
    parser_.emplace();
    parser_->body_limit(shared_.max_body);
    // One deadline for the whole request, however it trickles in.
    stream_.expires_after(shared_.timeout);
    http::async_read(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, size_t) { self->on_read(ec); });
  }

 private:
  void on_read(beast::error_code ec) {
    if (ec == http::error::end_of_stream || ec == asio::error::eof ||
        ec == asio::error::connection_reset || ec == asio::error::operation_aborted ||
        ec == beast::error::timeout)
      return close();
    if (ec) {
      // A request that cannot be read to its end is answered, and the
      // connection closed: what follows it on the stream is not a request.
      send(shared_.service.refused(ec == http::error::body_limit ? 413 : 400), 11, false, true);
      return;
    }
    const http::request<http::string_body>& req = parser_->get();
    std::string_view target(req.target().data(), req.target().size());
    std::string_view path = target.substr(0, target.find('?'));
    std::string_view method(req.method_string().data(), req.method_string().size());
    server::Answer a;
    shared_.service.handle(method, path, req.body(), a);
    send(std::move(a), req.version(), req.method() == http::verb::head, !req.keep_alive());
  }

  // Sends [a] in HTTP [version] (11 is 1.1), without its body for HEAD, and
  // closes the connection after it when [close].
  void send(server::Answer a, unsigned version, bool head, bool close) {
    res_ = {};
    res_.result(static_cast<unsigned>(a.status));
    res_.version(version);
    res_.set(http::field::server, "hclvm-server");
    res_.set(http::field::content_type, "application/json");
    if (!a.allow.empty()) res_.set(http::field::allow, std::string(a.allow));
    res_.keep_alive(!close);
    res_.body() = std::move(a.body);
    res_.prepare_payload();
    if (head) res_.body().clear();  // the length stays that of the GET answer
    stream_.expires_after(shared_.timeout);
    http::async_write(stream_, res_,
                      [self = shared_from_this(), close](beast::error_code ec, size_t) {
                        if (ec || close) return self->close();
                        self->read();
                      });
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
  }

  beast::tcp_stream stream_;
  Shared& shared_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::response<http::string_body> res_;
};

// One event loop: its listening socket, accepting connections for ever.
class Loop {
 public:
  explicit Loop(Shared& shared) : acceptor_(ioc_), shared_(shared) {}

  // Listens on [ep] with SO_REUSEPORT; the port it got (for port 0), or an
  // error.
  int listen(const tcp::endpoint& ep, beast::error_code& ec) {
    acceptor_.open(ep.protocol(), ec);
    if (ec) return -1;
    int one = 1;
    setsockopt(acceptor_.native_handle(), SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
    acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
    acceptor_.bind(ep, ec);
    if (ec) return -1;
    acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) return -1;
    return acceptor_.local_endpoint().port();
  }

  void run() {
    accept();
    ioc_.run();
  }
  void stop() { ioc_.stop(); }

 private:
  void accept() {
    acceptor_.async_accept([this](beast::error_code ec, tcp::socket socket) {
      if (!ec && shared_.open.load() >= shared_.max_connections) {
        socket.close(ec);  // full: the client may come back later
      } else if (!ec) {
        socket.set_option(tcp::no_delay(true), ec);
        std::make_shared<Connection>(std::move(socket), shared_)->read();
      }
      accept();
    });
  }

  asio::io_context ioc_{1};
  tcp::acceptor acceptor_;
  Shared& shared_;
};

}  // namespace

int main(int argc, char** argv) {
  server::StopSignals signals;  // before any thread starts
  server::Options o;
  server::FrontEndHelp help{
      "event loops, one thread each, each serving many\n"
      "                      connections (default: one per core)",
      "more are closed\n"
      "                      as soon as they are accepted",
      "the whole request, from\n"
      "                      the moment the connection is ready for it (idle time\n"
      "                      included), and as long for taking the answer"};
  if (auto stop = server::parse_options(argc, argv, "hclvm-server-beast", help, o)) return *stop;
  if (o.threads == 0) o.threads = int(std::max(1u, std::thread::hardware_concurrency()));
  server::Service service;
  if (!service.load(o)) return 1;

  beast::error_code ec;
  asio::ip::address addr = asio::ip::make_address(o.host, ec);
  if (ec) {
    std::fprintf(stderr, "hclvm-server-beast: bad address %s: %s\n", o.host.c_str(),
                 ec.message().c_str());
    return 1;
  }
  Shared shared{service, o.max_body, o.max_connections, o.request_timeout};
  std::vector<std::unique_ptr<Loop>> loops;
  int port = o.port;
  for (int i = 0; i < o.threads; ++i) {
    loops.push_back(std::make_unique<Loop>(shared));
    // The first loop's port (a free one for --port 0) is every other's.
    port = loops.back()->listen(tcp::endpoint(addr, static_cast<unsigned short>(port)), ec);
    if (port < 0) {
      std::fprintf(stderr, "hclvm-server-beast: cannot listen on %s:%d: %s\n", o.host.c_str(),
                   o.port, ec.message().c_str());
      return 1;
    }
  }
  std::printf("listening on %s:%d\n", o.host.c_str(), port);
  std::fflush(stdout);

  signals.watch([&] {
    service.cancel();
    for (auto& l : loops) l->stop();
    return true;
  });
  std::vector<std::thread> threads;
  for (size_t i = 1; i < loops.size(); ++i) threads.emplace_back([&l = *loops[i]] { l.run(); });
  loops[0]->run();
  for (std::thread& t : threads) t.join();
  signals.finish();
  std::fprintf(stderr, "hclvm-server-beast: stopped after %llu requests to /eval\n",
               static_cast<unsigned long long>(service.eval_requests()));
  return 0;
}
