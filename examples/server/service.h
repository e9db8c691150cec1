// The policy service of hclvm-server, apart from any HTTP library: the
// command line, the configuration (loaded once, through the compiled-file
// cache), and the answer to each request. The front ends (main.cpp over
// cpp-httplib, beast_main.cpp over Boost.Beast) only move bytes, so both
// answer exactly alike.
//
// A Service is shared by every thread: handle() may run on any number of
// threads at once, each evaluating with its own Vm.
#pragma once

#include <hclvm/cache.h>
#include <hclvm/eval.h>
#include <hclvm/limits.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace server {

struct Options {
  std::string config;
  std::string host = "127.0.0.1";
  int port = 0;     // 0: a free port
  int threads = 0;  // 0: the front end's default
  std::string cache_dir;
  hclvm::Limits limits;
  size_t max_body = 1 << 20;
  // Connections open at once; more wait (hclvm-server) or are closed at
  // once (hclvm-server-beast).
  size_t max_connections = 512;
  // How long a client may take to send each request (see --help): what
  // keeps slow clients from holding connections for ever.
  std::chrono::milliseconds request_timeout{10'000};
};

// What --threads, --max-connections and --request-timeout-ms mean to one
// front end, for --help.
struct FrontEndHelp {
  const char* threads;
  const char* max_connections;
  const char* request_timeout;
};

// Reads the command line of [program] into [o]; an exit status when the
// program should stop at once (after --help, or a usage error). [help]
// says what the options that differ between front ends mean to this one.
std::optional<int> parse_options(int argc, char** argv, const char* program,
                                 const FrontEndHelp& help, Options& o);

// An answer: its status and JSON body, and for 405 the methods allowed.
struct Answer {
  int status = 200;
  std::string body;
  std::string_view allow;
};

class Service {
 public:
  Service();
  ~Service();
  Service(const Service&) = delete;
  Service& operator=(const Service&) = delete;

  // Loads and checks the configuration of [o]; false, having said why on
  // stderr, when it cannot be served.
  bool load(const Options& o);

  // Answers [method] [path] (no query string) with request body [body]:
  // POST /eval, GET /healthz, GET /stats; 405 for another method on one of
  // those paths, 404 for any other path. HEAD is answered as GET (the front
  // end leaves the body out).
  void handle(std::string_view method, std::string_view path, std::string_view body, Answer& out);
  // The answer to a request the HTTP layer refused before it could be
  // handled: 413 (body too large) or 400 (unreadable request).
  Answer refused(int status);

  // Stops evaluations in progress (they end "cancelled") and any later one.
  void cancel() { stopping_.store(true); }
  uint64_t eval_requests() const { return stats_.requests.load(); }

  struct Config;  // the loaded configuration (service.cpp)

 private:
  struct Stats {
    std::atomic<uint64_t> requests{0};          // POST /eval
    std::atomic<uint64_t> ok{0};                // 200
    std::atomic<uint64_t> bad_requests{0};      // 400: the body is not a JSON object
    std::atomic<uint64_t> eval_errors{0};       // 422: evaluation failed
    std::atomic<uint64_t> limit_hits{0};        // 422: a limit was hit
    std::atomic<uint64_t> other{0};             // other routes, methods and refusals
    std::atomic<uint64_t> eval_ns{0};           // evaluating and writing the values, wall clock
    std::atomic<uint64_t> eval_cpu_ns{0};       // the same in thread CPU time, for
    std::atomic<uint64_t> eval_cpu_samples{0};  // a sample of the requests: how many
    std::atomic<uint64_t> handler_ns{0};        // the whole of POST /eval, from the body read
  };

  void eval(std::string_view body, Answer& out);
  std::string stats_json() const;

  std::unique_ptr<Config> cfg_;
  Stats stats_;
  std::atomic<bool> stopping_{false};
  int threads_ = 0;
};

// Stopping on SIGINT and SIGTERM. Construct a StopSignals first thing in
// main, before any thread starts: it blocks both signals, so that only its
// own thread (started by watch) takes them.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  // Starts the thread that, on SIGINT or SIGTERM, calls [stop] until it
  // returns true (it may not be able to stop a server that is not running
  // yet), then returns.
  void watch(std::function<bool()> stop);
  // Ends the thread, signal or not (the server has stopped); true when a
  // signal stopped it.
  bool finish();

 private:
  sigset_t set_;
  std::thread thread_;
  std::atomic<bool> done_{false}, signalled_{false};
};

}  // namespace server
