// The policy service of hclvm-server (service.h): options, configuration,
// evaluation and answers.
#include "service.h"

#include <hclvm/diagnostic.h>
#include <hclvm/function.h>
#include <hclvm/functions.h>
#include <hclvm/value_json.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace server {

namespace {

// The shape of the answer, fixed when the configuration is loaded: an object
// per body, whose members are its attributes (by name) and its blocks (by
// type, then by each label in turn). Blocks with the same type and labels
// share one object.
struct Node {
  struct Member {
    std::string key;             // the member's name, as a JSON string followed by ':'
    int attribute = -1;          // an attribute: its index in Config::attributes
    std::unique_ptr<Node> node;  // else a nested object
  };
  std::vector<Member> members;
};

}  // namespace

struct Service::Config {
  hclvm::CompiledFile file;
  // Every attribute, in source order (blocks depth-first), and where each
  // lives in the answer.
  std::vector<const hclvm::CompiledAttribute*> attributes;
  Node root;
  std::shared_ptr<const hclvm::FunctionTable> functions;
  hclvm::EvalContext base;  // the functions; never changed after start-up
  hclvm::Limits limits;
};

namespace {

using Clock = std::chrono::steady_clock;

// --- JSON output --------------------------------------------------------------------

// Appends [s] to [out] as a JSON string. Invalid UTF-8 becomes U+FFFD, so
// that a message quoting bytes of a bad request body still makes valid JSON.
void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
      ++i;
    } else if (c < 0x20) {
      static const char kHex[] = "0123456789abcdef";
      switch (c) {
        case '\n':
          out += "\\n";
          break;
        case '\r':
          out += "\\r";
          break;
        case '\t':
          out += "\\t";
          break;
        default:
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 15];
      }
      ++i;
    } else if (c < 0x80) {
      out += char(c);
      ++i;
    } else {
      // The length of the sequence a lead byte announces, checked below.
      size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
      bool ok = n > 0 && i + n <= s.size();
      for (size_t k = 1; ok && k < n; ++k)
        ok = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
      if (ok && n == 3) {
        unsigned char c1 = static_cast<unsigned char>(s[i + 1]);
        ok = !(c == 0xe0 && c1 < 0xa0) && !(c == 0xed && c1 >= 0xa0);  // overlong, surrogate
      } else if (ok && n == 4) {
        unsigned char c1 = static_cast<unsigned char>(s[i + 1]);
        ok = !(c == 0xf0 && c1 < 0x90) && !(c == 0xf4 && c1 >= 0x90);  // overlong, > U+10FFFF
      }
      if (ok) {
        out.append(s.data() + i, n);
        i += n;
      } else {
        out += "\xef\xbf\xbd";
        ++i;
      }
    }
  }
  out += '"';
}

void append_pos(std::string& out, const hclvm::Pos& p) {
  out += "{\"line\":" + std::to_string(p.line) + ",\"column\":" + std::to_string(p.column) +
         ",\"byte\":" + std::to_string(p.byte) + "}";
}

// Appends [diags] as a JSON array in the shape of the reference's JSON
// diagnostics: severity, summary, detail and the subject's range.
void append_diagnostics(std::string& out, const hclvm::Diagnostics& diags) {
  out += '[';
  for (size_t i = 0; i < diags.size(); ++i) {
    const hclvm::Diagnostic& d = diags[i];
    if (i) out += ',';
    out += "{\"severity\":";
    out += d.severity == hclvm::Severity::Error ? "\"error\"" : "\"warning\"";
    out += ",\"summary\":";
    append_json_string(out, d.summary);
    out += ",\"detail\":";
    append_json_string(out, d.detail);
    if (d.subject) {
      out += ",\"range\":{\"filename\":";
      append_json_string(out, d.subject->filename);
      out += ",\"start\":";
      append_pos(out, d.subject->start);
      out += ",\"end\":";
      append_pos(out, d.subject->end);
      out += '}';
    }
    out += '}';
  }
  out += ']';
}

// {"error":CODE,"message":MESSAGE}
std::string error_json(std::string_view code, std::string_view message) {
  std::string out = "{\"error\":";
  append_json_string(out, code);
  out += ",\"message\":";
  append_json_string(out, message);
  out += "}";
  return out;
}

// --- the configuration --------------------------------------------------------------

// Adds the attributes and blocks of [body] to [node]; on a clash between an
// attribute and another member of the same name, says so in [err].
bool add_body(Service::Config& cfg, Node& node, const hclvm::CompiledBody& body, std::string& err) {
  auto find = [](Node& n, const std::string& key) -> Node::Member* {
    for (Node::Member& m : n.members)
      if (m.key == key) return &m;
    return nullptr;
  };
  auto key_of = [](std::string_view name) {
    std::string k;
    append_json_string(k, name);
    return k + ':';
  };
  for (const hclvm::CompiledAttribute& a : body.attributes) {
    std::string key = key_of(a.name);
    if (find(node, key)) {
      err = "attribute " + a.name + " has the name of another attribute or block beside it";
      return false;
    }
    node.members.push_back({key, int(cfg.attributes.size()), nullptr});
    cfg.attributes.push_back(&a);
  }
  for (const hclvm::CompiledBlock& b : body.blocks) {
    Node* n = &node;
    std::vector<std::string_view> keys{b.type};
    keys.insert(keys.end(), b.labels.begin(), b.labels.end());
    for (std::string_view k : keys) {
      std::string key = key_of(k);
      Node::Member* m = find(*n, key);
      if (m && !m->node) {
        err = "block " + b.type + " (" + std::string(k) + ") has the name of an attribute";
        return false;
      }
      if (!m) {
        n->members.push_back({key, -1, std::make_unique<Node>()});
        m = &n->members.back();
      }
      n = m->node.get();
    }
    if (!add_body(cfg, *n, b.body, err)) return false;
  }
  return true;
}

// Writes the values of [node] from [values] (JSON texts indexed like
// Config::attributes).
void append_node(std::string& out, const Node& node, const std::vector<std::string>& values) {
  out += '{';
  bool first = true;
  for (const Node::Member& m : node.members) {
    if (!first) out += ',';
    first = false;
    out += m.key;
    if (m.node) {
      append_node(out, *m.node, values);
    } else {
      out += values[size_t(m.attribute)];
    }
  }
  out += '}';
}

void print_diagnostics(const hclvm::Diagnostics& diags) {
  for (const hclvm::Diagnostic& d : diags) {
    std::string where = d.subject ? hclvm::range_string(*d.subject) + ": " : "";
    std::fprintf(stderr, "%s%s: %s%s%s\n", where.c_str(),
                 d.severity == hclvm::Severity::Error ? "error" : "warning", d.summary.c_str(),
                 d.detail.empty() ? "" : "; ", d.detail.c_str());
  }
}

// Loads and checks the configuration of [o] into [cfg]; false, having said
// why on stderr, when it cannot serve.
bool load_config(const Options& o, Service::Config& cfg) {
  std::ifstream in(o.config, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "hclvm-server: cannot read %s: %s\n", o.config.c_str(),
                 std::strerror(errno));
    return false;
  }
  std::ostringstream bytes;
  bytes << in.rdbuf();
  auto source = hclvm::make_source(std::filesystem::path(o.config).filename().string(),
                                   std::move(bytes).str());

  // file() and templatefile() read next to the configuration, and nowhere
  // else; timestamp() and uuid() stay available.
  hclvm::LibraryOptions lib;
  std::filesystem::path dir = std::filesystem::path(o.config).parent_path();
  lib.base_dir = dir.empty() ? "." : dir.string();
  cfg.functions = std::make_shared<hclvm::FunctionTable>(hclvm::standard_functions(lib));
  cfg.base.set_functions(cfg.functions);
  cfg.limits = o.limits;

  hclvm::CompileOptions co;
  co.syntax = o.config.ends_with(".json") ? hclvm::Syntax::Json : hclvm::Syntax::Native;
  co.functions_signature = hclvm::functions_signature(cfg.functions.get());
  hclvm::Cache cache(hclvm::CacheOptions{o.cache_dir});
  hclvm::CacheStatus status;
  cfg.file = cache.load_or_compile(source, co, &status);
  static const char* const kOutcome[] = {"loaded from the cache", "compiled and cached",
                                         "compiled again (stale cache entry)",
                                         "compiled, not cached"};
  std::fprintf(stderr, "hclvm-server: %s %s (cache %s)%s%s\n", o.config.c_str(),
               kOutcome[status.outcome], cache.dir().c_str(), status.reason.empty() ? "" : ": ",
               status.reason.c_str());

  // What parsing and compiling reported: warnings are shown, errors refuse
  // the file.
  hclvm::Diagnostics diags = cfg.file.diagnostics;
  std::string err;
  if (!cfg.file.has_errors() && !add_body(cfg, cfg.root, cfg.file.body, err)) {
    std::fprintf(stderr, "hclvm-server: %s: %s\n", o.config.c_str(), err.c_str());
    return false;
  }
  for (const hclvm::CompiledAttribute* a : cfg.attributes)
    diags.insert(diags.end(), a->diagnostics.begin(), a->diagnostics.end());
  print_diagnostics(diags);
  if (hclvm::has_errors(diags)) {
    std::fprintf(stderr, "hclvm-server: %s has errors; not serving it\n", o.config.c_str());
    return false;
  }
  return true;
}

// --- evaluation ---------------------------------------------------------------------

// Nanoseconds on the coarse monotonic clock, which is read in a few
// nanoseconds (the precise one costs several times more, and the request's
// deadline is checked before every attribute); it is as coarse as the
// library's own check of the deadline.
int64_t coarse_now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// The outcome of evaluating every attribute for one request.
struct Outcome {
  hclvm::Diagnostics diagnostics;
  bool errors = false;
  bool limit_hit = false;
  hclvm::Limit limit = hclvm::Limit::Steps;
};

// Evaluates every attribute of [cfg] in [ctx] into [values], under one
// budget for the whole request: what each attribute consumes is taken from
// what the next may use. Stops at the first limit hit.
Outcome evaluate(const Service::Config& cfg, const hclvm::EvalContext& ctx,
                 const std::atomic<bool>& cancel, std::vector<std::string>& values) {
  thread_local hclvm::Vm vm;
  Outcome out;
  hclvm::Limits left = cfg.limits;
  left.cancel = &cancel;
  bool timed = cfg.limits.timeout.count() > 0;
  int64_t deadline = timed ? coarse_now_ns() + cfg.limits.timeout.count() : 0;
  values.resize(cfg.attributes.size());
  for (size_t i = 0; i < cfg.attributes.size(); ++i) {
    const hclvm::CompiledAttribute& a = *cfg.attributes[i];
    if (timed) {
      int64_t rest = deadline - coarse_now_ns();
      if (rest <= 0) {
        // The time ran out between two attributes: the diagnostic of one
        // that runs out inside an evaluation.
        hclvm::Diagnostic d;
        d.summary = std::string(hclvm::limit_summary(hclvm::Limit::Timeout));
        d.detail = "The request's evaluation time ran out before this attribute was evaluated.";
        d.subject = cfg.file.range(a.expr_span);
        out.diagnostics.push_back(std::move(d));
        out.errors = out.limit_hit = true;
        out.limit = hclvm::Limit::Timeout;
        return out;
      }
      left.timeout = std::chrono::nanoseconds(rest);
    }
    vm.set_limits(left);
    hclvm::EvalResult r = a.value(vm, &ctx);
    const hclvm::EvalStats& st = vm.stats();
    if (st.limit_hit) {
      out.diagnostics.insert(out.diagnostics.end(), r.diagnostics.begin(), r.diagnostics.end());
      out.errors = out.limit_hit = true;
      out.limit = st.limit;
      return out;
    }
    left.max_steps -= std::min(st.steps, left.max_steps);
    left.max_memory -= std::min(st.memory, left.max_memory);
    for (hclvm::Diagnostic& d : r.diagnostics) out.diagnostics.push_back(std::move(d));
    if (r.has_errors()) {
      out.errors = true;
      continue;
    }
    // Written within what is left of the budget: a value small in memory
    // may be enormous as text (a number from the request such as
    // 1e100000000 has a hundred million digits).
    hclvm::JsonText j = hclvm::value_to_json(r.value, left);
    if (j.limit) {
      hclvm::Diagnostic d;
      d.summary = std::string(hclvm::limit_summary(*j.limit));
      d.detail = "The value of " + a.name + " cannot be sent: " + j.error + ".";
      d.subject = cfg.file.range(a.expr_span);
      out.diagnostics.push_back(std::move(d));
      out.errors = out.limit_hit = true;
      out.limit = *j.limit;
      return out;
    }
    if (!j.ok()) {
      hclvm::Diagnostic d;
      d.summary = "Value cannot be written as JSON";
      d.detail = "The value of " + a.name + " cannot be sent: " + j.error + ".";
      d.subject = cfg.file.range(a.expr_span);
      out.diagnostics.push_back(std::move(d));
      out.errors = true;
      continue;
    }
    values[i] = std::move(j.json);
  }
  return out;
}

uint64_t since(Clock::time_point t) {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t).count());
}

// This thread's CPU time in nanoseconds: evaluation time without the time
// the thread spent waiting for a core. It is a system call (about a
// microsecond in a virtual machine), so only one request in kCpuSample
// measures it.
constexpr uint32_t kCpuSample = 32;
uint64_t thread_cpu_ns() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return uint64_t(ts.tv_sec) * 1'000'000'000 + uint64_t(ts.tv_nsec);
}

void bump(std::atomic<uint64_t>& counter, uint64_t n = 1) {
  counter.fetch_add(n, std::memory_order_relaxed);
}

}  // namespace

// --- the service --------------------------------------------------------------------

Service::Service() : cfg_(std::make_unique<Config>()) {}
Service::~Service() = default;

bool Service::load(const Options& o) {
  threads_ = o.threads;
  return load_config(o, *cfg_);
}

void Service::handle(std::string_view method, std::string_view path, std::string_view body,
                     Answer& out) {
  bool get = method == "GET" || method == "HEAD";
  if (path == "/eval" && method == "POST") return eval(body, out);
  if (path == "/healthz" && get) {
    out.status = 200;
    out.body = "{\"status\":\"ok\"}";
    return;
  }
  if (path == "/stats" && get) {
    out.status = 200;
    out.body = stats_json();
    return;
  }
  bump(stats_.other);
  std::string p(path);
  if (path == "/eval" || path == "/healthz" || path == "/stats") {
    out.status = 405;
    out.allow = path == "/eval" ? "POST" : "GET, HEAD";
    out.body = error_json("method_not_allowed", std::string(method) + " is not allowed on " + p +
                                                    " (allowed: " + std::string(out.allow) + ")");
    return;
  }
  out.status = 404;
  out.body = error_json("not_found", "no route " + p);
}

Answer Service::refused(int status) {
  bump(stats_.other);
  Answer a;
  a.status = status;
  a.body = status == 413
               ? error_json("body_too_large", "the request body is larger than the server accepts")
               : error_json("bad_request", "the request could not be read");
  return a;
}

void Service::eval(std::string_view body, Answer& out) {
  Clock::time_point start = Clock::now();
  bump(stats_.requests);
  hclvm::EvalContext ctx(&cfg_->base);
  if (std::string err = hclvm::set_variables_from_json(ctx, body); !err.empty()) {
    bump(stats_.bad_requests);
    out.status = 400;
    out.body = error_json("invalid_body", "the request body must be a JSON object: " + err);
    return;
  }
  // The values' JSON texts, kept from request to request for their memory.
  thread_local std::vector<std::string> values;
  thread_local uint32_t count = 0;
  bool sample = count++ % kCpuSample == 0;
  Clock::time_point eval_start = Clock::now();
  uint64_t cpu_start = sample ? thread_cpu_ns() : 0;
  Outcome o = evaluate(*cfg_, ctx, stopping_, values);
  std::string& text = out.body;
  text.clear();
  if (!o.errors) {
    text += "{\"values\":";
    append_node(text, cfg_->root, values);
    text += '}';
  }
  if (sample) {
    bump(stats_.eval_cpu_ns, thread_cpu_ns() - cpu_start);
    bump(stats_.eval_cpu_samples);
  }
  bump(stats_.eval_ns, since(eval_start));
  if (o.limit_hit) {
    bump(stats_.limit_hits);
    out.status = 422;
    text = "{\"error\":\"limit\",\"limit\":";
    append_json_string(text, hclvm::limit_name(o.limit));
    text += ",\"diagnostics\":";
    append_diagnostics(text, o.diagnostics);
    text += '}';
  } else if (o.errors) {
    bump(stats_.eval_errors);
    out.status = 422;
    text = "{\"error\":\"evaluation\",\"diagnostics\":";
    append_diagnostics(text, o.diagnostics);
    text += '}';
  } else {
    bump(stats_.ok);
    out.status = 200;
  }
  bump(stats_.handler_ns, since(start));
}

std::string Service::stats_json() const {
  auto get = [](const std::atomic<uint64_t>& c) {
    return std::to_string(c.load(std::memory_order_relaxed));
  };
  return "{\"requests\":" + get(stats_.requests) + ",\"ok\":" + get(stats_.ok) +
         ",\"bad_requests\":" + get(stats_.bad_requests) +
         ",\"eval_errors\":" + get(stats_.eval_errors) +
         ",\"limit_hits\":" + get(stats_.limit_hits) + ",\"other\":" + get(stats_.other) +
         ",\"eval_ns\":" + get(stats_.eval_ns) + ",\"eval_cpu_ns\":" + get(stats_.eval_cpu_ns) +
         ",\"eval_cpu_samples\":" + get(stats_.eval_cpu_samples) +
         ",\"handler_ns\":" + get(stats_.handler_ns) +
         ",\"attributes\":" + std::to_string(cfg_->attributes.size()) +
         ",\"threads\":" + std::to_string(threads_) + "}";
}

// --- options ------------------------------------------------------------------------

namespace {

const char kUsage[] =
    "Usage: %s --config FILE [options]\n"
    "\n"
    "Serves POST /eval: the JSON object in the request body gives the\n"
    "variables (one per top-level property), and the answer holds the value\n"
    "of every attribute of FILE, blocks included (see README.md).\n"
    "\n"
    "Options:\n"
    "  --config FILE       the configuration (native syntax; JSON syntax for *.json)\n"
    "  --host ADDR         the address to listen on (default 127.0.0.1)\n"
    "  --port N            the port; 0 (the default) picks a free one\n"
    "  --threads N         %s\n"
    "  --cache-dir DIR     the compiled-file cache (default: $HCLVM_CACHE_DIR,\n"
    "                      else $XDG_CACHE_HOME/hclvm, else ~/.cache/hclvm)\n"
    "  --max-steps N       evaluation steps per request (default 1000000)\n"
    "  --max-memory BYTES  bytes of values made per request (default 67108864)\n"
    "  --timeout-ms MS     evaluation time per request; 0: none (default 1000)\n"
    "  --max-body BYTES    the largest request body accepted (default 1048576)\n"
    "  --max-connections N connections open at once (default 512); %s\n"
    "  --request-timeout-ms MS\n"
    "                      the time a client has to send a request (default 10000):\n"
    "                      %s\n"
    "  -h, --help          show this help\n"
    "\n"
    "Prints \"listening on ADDR:PORT\" on standard output once it accepts\n"
    "connections; stops cleanly on SIGINT or SIGTERM.\n";

bool parse_uint(std::string_view s, uint64_t& out) {
  auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size();
}

int usage_error(const char* program, const std::string& msg) {
  std::fprintf(stderr, "%s: %s (see --help)\n", program, msg.c_str());
  return 2;
}

}  // namespace

std::optional<int> parse_options(int argc, char** argv, const char* program,
                                 const FrontEndHelp& help, Options& o) {
  o.limits.max_steps = 1'000'000;
  o.limits.max_memory = uint64_t(64) << 20;
  o.limits.timeout = std::chrono::milliseconds(1000);
  auto fail = [program](const std::string& msg) { return usage_error(program, msg); };
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    if (arg == "-h" || arg == "--help") {
      std::printf(kUsage, program, help.threads, help.max_connections, help.request_timeout);
      return 0;
    }
    if (!arg.starts_with("--")) return fail("unexpected argument '" + arg + "'");
    static const char* const kFlags[] = {
        "--config",     "--host",       "--port",     "--threads",         "--cache-dir",
        "--max-steps",  "--max-memory", "--timeout-ms", "--max-body", "--max-connections",
        "--request-timeout-ms"};
    std::string name = arg.substr(0, arg.find('='));
    if (std::find(std::begin(kFlags), std::end(kFlags), name) == std::end(kFlags))
      return fail("unknown flag " + name);
    if (name.size() < arg.size()) {
      value = arg.substr(name.size() + 1);
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      return fail("flag " + name + " needs a value");
    }
    if (name == "--config") {
      o.config = value;
      continue;
    }
    if (name == "--host") {
      o.host = value;
      continue;
    }
    if (name == "--cache-dir") {
      o.cache_dir = value;
      continue;
    }
    uint64_t n = 0;
    if (!parse_uint(value, n))
      return fail(name + " needs a non-negative number, not '" + value + "'");
    if (name == "--port") {
      if (n > 65535) return fail("--port must be at most 65535");
      o.port = int(n);
    } else if (name == "--threads") {
      if (n < 1 || n > 4096) return fail("--threads must be from 1 to 4096");
      o.threads = int(n);
    } else if (name == "--max-steps") {
      o.limits.max_steps = n;
    } else if (name == "--max-memory") {
      o.limits.max_memory = n;
    } else if (name == "--timeout-ms") {
      o.limits.timeout = std::chrono::milliseconds(n);
    } else if (name == "--max-connections") {
      if (n < 1 || n > 65536) return fail("--max-connections must be from 1 to 65536");
      o.max_connections = size_t(n);
    } else if (name == "--request-timeout-ms") {
      if (n < 1 || n > 3'600'000) return fail("--request-timeout-ms must be from 1 to 3600000");
      o.request_timeout = std::chrono::milliseconds(n);
    } else {
      o.max_body = size_t(n);
    }
  }
  if (o.config.empty()) return fail("--config FILE is required");
  return std::nullopt;
}

// --- stopping -----------------------------------------------------------------------

StopSignals::StopSignals() {
  sigemptyset(&set_);
  sigaddset(&set_, SIGINT);
  sigaddset(&set_, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set_, nullptr);
  // A client that goes away mid-answer must not end the process.
  signal(SIGPIPE, SIG_IGN);
}

StopSignals::~StopSignals() { finish(); }

void StopSignals::watch(std::function<bool()> stop) {
  thread_ = std::thread([this, stop = std::move(stop)] {
    // Wakes every 50 ms to see whether the server has stopped by itself.
    timespec tick{0, 50'000'000};
    int sig = -1;
    while (sig < 0) {
      if (done_.load()) return;
      sig = sigtimedwait(&set_, nullptr, &tick);
    }
    std::fprintf(stderr, "hclvm-server: %s, stopping\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
    signalled_.store(true);
    while (!done_.load() && !stop()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  });
}

bool StopSignals::finish() {
  done_.store(true);
  if (thread_.joinable()) thread_.join();
  return signalled_.load();
}

}  // namespace server
