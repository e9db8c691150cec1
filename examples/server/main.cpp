// hclvm-server: a small HTTP policy service over hclvm (see README.md).
//
// At start-up the configuration file is loaded once, through the compiled-
// file cache, and checked. Each `POST /eval` then reads its JSON body as
// variables (one per top-level property), evaluates every attribute of the
// configuration against them, blocks included, and answers with the values
// as JSON. Each request runs under its own budget of steps, memory and time;
// whatever goes wrong is a 4xx answer with a JSON diagnostic, never a crash.
// service.cpp does all of that; this file is the HTTP side.
//
// The HTTP side is cpp-httplib, which serves each connection on one thread
// with blocking reads and writes, for as long as the connection stays open.
// A fixed pool of threads would let a few slow clients (one header line
// every few seconds, each read within the read timeout) hold every thread
// and starve everyone else, and cpp-httplib 0.11 has no deadline for a
// whole request. So each connection gets a thread of its own at once, up
// to --max-connections: a slow client costs a thread, not anyone else's
// service. Each thread evaluates with its own Vm, so requests share nothing
// but the compiled file, the function table and the counters of /stats.
#include <httplib.h>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <list>
#include <mutex>
#include <system_error>
#include <thread>

#include "service.h"

namespace {

// cpp-httplib's task queue: each connection it accepts is a task that lasts
// as long as the connection. Every task starts at once on an idle thread
// or a new one, up to [max] threads; beyond that tasks wait for a thread.
// [min] threads stay for later connections; threads beyond them end after
// a while without work.
class ConnectionThreads : public httplib::TaskQueue {
 public:
  ConnectionThreads(size_t min, size_t max) : min_(min), max_(std::max(min, max)) {}

  void enqueue(std::function<void()> fn) override {
    std::lock_guard<std::mutex> lock(mu_);
    reap();
    jobs_.push_back(std::move(fn));
    if (idle_ < jobs_.size() && threads_.size() < max_) {
      // When no thread can be made (address space, process limits) the
      // task waits for a thread that exists.
      try {
        threads_.emplace_back();
        threads_.back() = std::thread(&ConnectionThreads::work, this, std::prev(threads_.end()));
      } catch (const std::system_error&) {
        threads_.pop_back();
      }
    }
    cv_.notify_one();
  }

  void shutdown() override {
    std::list<std::thread> threads;
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
      cv_.notify_all();
      threads.swap(threads_);
    }
    for (std::thread& t : threads) t.join();
    std::lock_guard<std::mutex> lock(mu_);
    reap();
  }

 private:
  using Slot = std::list<std::thread>::iterator;

  // The loop of the thread in [self]: runs tasks until shutdown, or until
  // it has waited long enough with more than min_ threads about.
  void work(Slot self) {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      ++idle_;
      bool ready = cv_.wait_for(lock, std::chrono::seconds(10),
                                [this] { return stop_ || !jobs_.empty(); });
      --idle_;
      if (jobs_.empty()) {
        if (stop_) return;
        if (!ready && threads_.size() > min_) {
          // Joined by the next enqueue or by shutdown.
          finished_.splice(finished_.end(), threads_, self);
          return;
        }
        continue;
      }
      std::function<void()> fn = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      fn();
      lock.lock();
    }
  }

  // Joins the threads that ended. Locked.
  void reap() {
    for (std::thread& t : finished_) t.join();
    finished_.clear();
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  std::list<std::thread> threads_;   // running, each knowing its place here
  std::list<std::thread> finished_;  // ended, not yet joined
  size_t idle_ = 0;
  size_t min_, max_;
  bool stop_ = false;
};

void send(const server::Answer& a, httplib::Response& res) {
  res.status = a.status;
  if (!a.allow.empty()) res.set_header("Allow", std::string(a.allow));
  res.set_content(a.body, "application/json");
}

}  // namespace

int main(int argc, char** argv) {
  server::StopSignals signals;  // before any thread starts
  server::Options o;
  server::FrontEndHelp help{
      "threads kept ready for new connections (default 16)",
      "each has a thread of\n"
      "                      its own, more wait for one",
      "each read of a request must\n"
      "                      end within it, and a connection idle that long is closed"};
  if (auto stop = server::parse_options(argc, argv, "hclvm-server", help, o)) return *stop;
  if (o.threads == 0) o.threads = 16;
  server::Service service;
  if (!service.load(o)) return 1;

  httplib::Server svr;
  size_t threads = size_t(o.threads), max_connections = o.max_connections;
  svr.new_task_queue = [threads, max_connections] {
    return new ConnectionThreads(threads, max_connections);
  };
  // Slow clients: a read that waits longer than the request timeout ends
  // the connection, and so does a connection idle that long between
  // requests. (A client that sends a byte within each timeout keeps its
  // connection, and its thread, until it is done: see above.)
  auto timeout = std::chrono::duration_cast<std::chrono::microseconds>(o.request_timeout);
  svr.set_read_timeout(time_t(timeout.count() / 1'000'000), time_t(timeout.count() % 1'000'000));
  svr.set_write_timeout(time_t(timeout.count() / 1'000'000),
                        time_t(timeout.count() % 1'000'000));
  svr.set_keep_alive_timeout(std::max<time_t>(1, time_t((timeout.count() + 999'999) / 1'000'000)));
  // An answer is written as headers, then body: without TCP_NODELAY, Nagle's
  // algorithm holds the body back until the headers are acknowledged.
  svr.set_tcp_nodelay(true);
  // A connection keeps its worker for as long as it stays open; the library's
  // default of 5 requests per connection would make clients reconnect often.
  svr.set_keep_alive_max_count(1'000'000);
  svr.set_payload_max_length(o.max_body);

  // The routes the service answers; every other request ends in the error
  // handler, which asks the service too (404 or 405).
  auto handle = [&service](const httplib::Request& req, httplib::Response& res) {
    server::Answer a;
    service.handle(req.method, req.path, req.body, a);
    send(a, res);
  };
  svr.Post("/eval", handle);
  svr.Get("/healthz", handle);
  svr.Get("/stats", handle);
  svr.set_error_handler(httplib::Server::HandlerWithResponse(
      [&service, &handle](const httplib::Request& req, httplib::Response& res) {
        if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;  // ours
        if (res.status == 404)
          handle(req, res);
        else
          send(service.refused(res.status == 413 ? 413 : 400), res);
        return httplib::Server::HandlerResponse::Handled;
      }));
  svr.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
        res.status = 500;
        res.set_content("{\"error\":\"internal\",\"message\":\"unexpected failure\"}",
                        "application/json");
      });

  int port = o.port;
  if (port == 0) {
    port = svr.bind_to_any_port(o.host);
    if (port < 0) {
      std::fprintf(stderr, "hclvm-server: cannot listen on %s\n", o.host.c_str());
      return 1;
    }
  } else if (!svr.bind_to_port(o.host, port)) {
    std::fprintf(stderr, "hclvm-server: cannot listen on %s:%d\n", o.host.c_str(), port);
    return 1;
  }
  std::printf("listening on %s:%d\n", o.host.c_str(), port);
  std::fflush(stdout);

  // stop() acts only once the accept loop runs: until then, it is retried.
  signals.watch([&svr, &service] {
    service.cancel();
    if (!svr.is_running()) return false;
    svr.stop();
    return true;
  });
  bool ok = svr.listen_after_bind();
  bool signalled = signals.finish();
  if (!ok && !signalled) {
    std::fprintf(stderr, "hclvm-server: the server stopped unexpectedly\n");
    return 1;
  }
  std::fprintf(stderr, "hclvm-server: stopped after %llu requests to /eval\n",
               static_cast<unsigned long long>(service.eval_requests()));
  return 0;
}
