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
// The HTTP side is cpp-httplib: a pool of worker threads, each serving one
// connection at a time (blocking reads and writes), so it needs at least as
// many threads as clients keep connections open. Each worker evaluates with
// its own Vm, so requests share nothing but the compiled file, the function
// table and the counters of /stats.
#include <httplib.h>

#include <cstdio>

#include "service.h"

namespace {

void send(const server::Answer& a, httplib::Response& res) {
  res.status = a.status;
  if (!a.allow.empty()) res.set_header("Allow", std::string(a.allow));
  res.set_content(a.body, "application/json");
}

}  // namespace

int main(int argc, char** argv) {
  server::StopSignals signals;  // before any thread starts
  server::Options o;
  if (auto stop = server::parse_options(argc, argv, "hclvm-server",
                                        "worker threads, each serving one connection at a\n"
                                        "                      time (default 16)",
                                        o))
    return *stop;
  if (o.threads == 0) o.threads = 16;
  server::Service service;
  if (!service.load(o)) return 1;

  httplib::Server svr;
  size_t threads = size_t(o.threads);
  svr.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
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
