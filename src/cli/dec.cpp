// `hclvm dec` and the `hcldec` program: decode configuration files with a
// spec file into JSON, flag for flag and byte for byte as the reference's
// cmd/hcldec does (its exit statuses too: 0 decoded, 1 an operational
// error such as a missing --spec, 2 diagnostics or bad usage).
#include <fcntl.h>
#include <hclvm/body.h>
#include <hclvm/dynblock.h>
#include <hclvm/hcldec.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "cli/cli.h"
#include "diag/render.h"
#include "util/unicode.h"
#include "value/json.h"
#include "vm/access.h"

namespace hclvm::cli {

const char kDecHelp[] =
    "Usage: hcldec --spec=SPEC [options] [FILE ...]\n"
    "       hclvm dec --spec=SPEC [options] [FILE ...]\n"
    "\n"
    "Decodes configuration files (native syntax, or JSON syntax for names\n"
    "ending in .json; standard input when no FILE is given) with the spec\n"
    "file SPEC and prints the result as JSON. Several files are merged into\n"
    "one body. The spec language is described in docs/hcldec.md.\n"
    "\n"
    "Options:\n"
    "  -s, --spec FILE       the spec file (required)\n"
    "  -o, --out FILE        write the result to FILE instead of standard output\n"
    "  --diags FORMAT        print diagnostics as json instead of text\n"
    "  -V, --vars VARS       variables for the input: a JSON object given inline\n"
    "                        ('{\"name\": \"value\"}'), or a file of attributes (.json\n"
    "                        files in the JSON syntax, others in the native syntax);\n"
    "                        may be repeated, later ones win\n"
    "  --var-refs            print the variables the input refers to, as JSON,\n"
    "                        instead of decoding it\n"
    "  --with-type           wrap the result as {\"value\": ..., \"type\": ...}\n"
    "  --keep-nulls          keep object properties whose value is null\n"
    "  --dynamic-blocks      expand `dynamic` blocks in the input before decoding\n"
    "                        (an extension: the reference has no such flag)\n"
    "  -v, --version         print the version\n"
    "  -h, --help            show this help\n"
    "\n"
    "Exit status: 0 decoded, 1 an operational error (such as a missing --spec\n"
    "or an unwritable output), 2 diagnostics or a usage error.\n";

namespace {

struct DecOptions {
  std::string spec;
  std::string out;
  std::string diags_format;
  std::vector<std::string> vars;
  bool var_refs = false;
  bool with_type = false;
  bool keep_nulls = false;
  bool dynamic_blocks = false;
  std::vector<std::string> files;
};

// Everything parsed so far, for the snippets of text diagnostics.
class Files {
 public:
  void add(const ConfigFile& f) {
    if (!f.source) return;
    diag::SnippetFile s{f.source->text(), {}};
    if (const ast::Body* root = f.body.native_body())
      s.context = [root](uint32_t byte) { return diag::native_context(*root, byte); };
    else if (const json::Node* node = f.body.json_node())
      s.context = [node](uint32_t byte) { return diag::json_context(*node, byte); };
    files_.emplace(f.source->name(), std::move(s));
    keep_.push_back(f);
  }
  const diag::SnippetFiles& snippets() const { return files_; }

 private:
  diag::SnippetFiles files_;
  std::vector<ConfigFile> keep_;  // owns the bytes the snippets point into
};

// Writes diagnostics as the reference's hcldec does: text to standard
// error, or one JSON document there (nothing when there are none).
class DiagWriter {
 public:
  DiagWriter(bool json, const Files& files) : json_(json), files_(files) {}
  void write(const Diagnostics& diags) {
    if (json_) {
      if (diags.empty()) return;
      std::string doc = diag::render_json(diags);
      std::fwrite(doc.data(), 1, doc.size(), stderr);
      return;
    }
    // Colour when standard error is a terminal; the width is standard
    // output's, as the reference measures it.
    diag::TextStyle style = text_style_for(STDERR_FILENO, ColorMode::Auto);
    style.width = text_style_for(STDOUT_FILENO, ColorMode::Never).width;
    diag::write_text(diags, files_.snippets(), style, file_sink(stderr));
  }

 private:
  bool json_;
  const Files& files_;
};

// Prints "Error: [msg]" as the reference does for operational errors.
int fail(const std::string& msg) {
  std::fprintf(stderr, "Error: %s\n\n", msg.c_str());
  return kExitErrors;
}

// Reads and parses [path] as a configuration file (JSON syntax for .json
// names), with the reference's diagnostic when it cannot be read.
std::optional<ConfigFile> parse_file(const std::string& path, bool json, Diagnostics& diags) {
  std::string bytes, err;
  if (!read_input(path, bytes, err)) {
    Diagnostic d;
    if (json) {
      d.summary = "Failed to open file";
      d.detail = "The file " + uni::go_quote(path) + " could not be opened.";
    } else {
      d.summary = "Failed to read file";
      d.detail = "The configuration file " + uni::go_quote(path) + " could not be read.";
    }
    diags.push_back(std::move(d));
    return std::nullopt;
  }
  auto src = make_source(path, std::move(bytes));
  return json ? parse_json_body(std::move(src)) : parse_native_body(std::move(src));
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The attributes of a vars file or argument, each evaluated without a
// context, into [vars].
void read_vars_body(const Body& body, std::map<std::string, Value>& vars, Diagnostics& diags) {
  AttributesResult attrs = body.just_attributes();
  diags.insert(diags.end(), attrs.diagnostics.begin(), attrs.diagnostics.end());
  for (const Attribute& a : attrs.attributes) {
    EvalResult r = a.expr.value(nullptr);
    diags.insert(diags.end(), r.diagnostics.begin(), r.diagnostics.end());
    vars[a.name] = r.value;
  }
}


// Rewrites the JSON value at [i] of [in] (compact, as to_json writes it)
// as Go's encoding/json writes it back after decoding it into maps: object
// properties whose value is null dropped, the others sorted by name.
std::string strip_nulls(std::string_view in, size_t& i) {
  auto string_end = [&](size_t at) {
    for (++at; in[at] != '"'; at += in[at] == '\\' ? 2 : 1) {
    }
    return at + 1;
  };
  char c = in[i];
  if (c == '"') {
    // Decoded and encoded again, as the reference does: an invalid UTF-8
    // sequence, escaped as \ufffd by the first encoding, comes out as the
    // character itself.
    size_t start = i;
    i = string_end(i);
    return json_quote(uni::unquote(in.substr(start, i - start)));
  }
  if (c == '[') {
    std::string out = "[";
    for (++i; in[i] != ']';) {
      if (in[i] == ',') {
        out += in[i++];
        continue;
      }
      out += strip_nulls(in, i);
    }
    ++i;
    return out + "]";
  }
  if (c == '{') {
    // (name as decoded, value)
    std::vector<std::pair<std::string, std::string>> members;
    for (++i; in[i] != '}';) {
      if (in[i] == ',') {
        ++i;
        continue;
      }
      size_t start = i;
      i = string_end(i);
      std::string_view key = in.substr(start, i - start);
      ++i;  // ':'
      bool null = in.substr(i, 4) == "null";
      std::string v = strip_nulls(in, i);
      if (!null) members.emplace_back(uni::unquote(key), std::move(v));
    }
    ++i;
    std::sort(members.begin(), members.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::string out = "{";
    for (size_t m = 0; m < members.size(); ++m) {
      if (m) out += ',';
      out += json_quote(members[m].first);
      out += ':';
      out += members[m].second;
    }
    return out + "}";
  }
  size_t start = i;
  while (i < in.size() && in[i] != ',' && in[i] != '}' && in[i] != ']') ++i;
  return std::string(in.substr(start, i - start));
}

std::string strip_null_properties(std::string_view in) {
  size_t i = 0;
  return strip_nulls(in, i);
}

// Returns the compact JSON document [in] indented as Go's json.Indent does
// with two spaces: one member or element per line, `": "` after keys,
// empty objects and arrays left as `{}` and `[]`.
std::string go_indent(std::string_view in) {
  std::string out;
  int depth = 0;
  auto newline = [&] {
    out += '\n';
    out.append(size_t(depth) * 2, ' ');
  };
  for (size_t i = 0; i < in.size(); ++i) {
    char c = in[i];
    switch (c) {
      case '"': {
        size_t start = i++;
        while (in[i] != '"') i += in[i] == '\\' ? 2 : 1;
        out.append(in.substr(start, i - start + 1));
        break;
      }
      case '{':
      case '[':
        out += c;
        if (in[i + 1] == '}' || in[i + 1] == ']') {
          out += in[++i];
          break;
        }
        ++depth;
        newline();
        break;
      case '}':
      case ']':
        --depth;
        newline();
        out += c;
        break;
      case ',':
        out += c;
        newline();
        break;
      case ':':
        out += ": ";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string pos_json(const Pos& p) {
  return "{\"line\":" + std::to_string(p.line) + ",\"column\":" + std::to_string(p.column) +
         ",\"byte\":" + std::to_string(p.byte) + "}";
}

std::string range_json(const Range& r) {
  return "{\"filename\":" + json_quote(r.filename) + ",\"start\":" + pos_json(r.start) +
         ",\"end\":" + pos_json(r.end) + "}";
}

// What [t] refers to in [ctx] (hcl.Traversal.TraverseAbs), or nothing when
// it does not resolve.
std::optional<Value> resolve(const Traversal& t, const EvalContext* ctx) {
  if (ctx == nullptr || t.steps.empty()) return std::nullopt;
  const Value* root = ctx->lookup(t.steps[0].name);
  if (root == nullptr) return std::nullopt;
  Value v = *root;
  for (size_t i = 1; i < t.steps.size(); ++i) {
    const TraversalStep& st = t.steps[i];
    vm::AccessError err;
    v = st.kind == TraversalStep::Kind::Attr ? vm::hcl_get_attr(v, st.name, err)
                                             : vm::hcl_index(v, st.key, err);
    if (err) return std::nullopt;
  }
  return v;
}

// The --var-refs document: each traversal with its steps and ranges and,
// where the context resolves it, its value.
std::string var_refs_json(const std::vector<Traversal>& vars, const EvalContext* ctx) {
  std::string out = "[";
  for (size_t t = 0; t < vars.size(); ++t) {
    const Traversal& tr = vars[t];
    if (t) out += ',';
    out += "{\"root_name\":" + json_quote(std::string(tr.root_name()));
    if (std::optional<Value> v = resolve(tr, ctx)) {
      JsonResult<std::string> j = to_json(*v, v->type());
      if (j.ok()) out += ",\"value\":" + j.value;
    }
    out += ",\"steps\":[";
    for (size_t i = 0; i < tr.steps.size(); ++i) {
      const TraversalStep& st = tr.steps[i];
      if (i) out += ',';
      switch (st.kind) {
        case TraversalStep::Kind::Root:
          out += "{\"kind\":\"root\",\"name\":" + json_quote(st.name);
          break;
        case TraversalStep::Kind::Attr:
          out += "{\"kind\":\"attr\",\"name\":" + json_quote(st.name);
          break;
        case TraversalStep::Kind::Index: {
          out += "{\"kind\":\"index\"";
          JsonResult<std::string> j = to_json(st.key, st.key.type());
          if (j.ok()) out += ",\"key\":" + j.value;
          break;
        }
      }
      out += ",\"range\":" + range_json(st.range) + "}";
    }
    out += "],\"range\":" + range_json(tr.range()) + "}";
  }
  out += "]";
  return go_indent(out);
}

// Writes [text] and a newline to [path] (standard output when empty).
std::optional<std::string> write_output(const std::string& path, const std::string& text) {
  if (path.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fputc('\n', stdout);
    return std::nullopt;
  }
  int fd = ::open(path.c_str(), O_TRUNC | O_CREAT | O_WRONLY, 0777);
  if (fd < 0) return "can't open " + path + " for writing: " + std::strerror(errno);
  std::string all = text + "\n";
  size_t done = 0;
  while (done < all.size()) {
    ssize_t n = ::write(fd, all.data() + done, all.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      std::string err = std::strerror(errno);
      ::close(fd);
      return "can't write " + path + ": " + err;
    }
    done += size_t(n);
  }
  ::close(fd);
  return std::nullopt;
}

std::optional<int> parse_dec_options(const std::vector<std::string>& args, DecOptions& o) {
  ArgScanner a(args);
  std::string err;
  while (a.next()) {
    if (!a.is_flag()) {
      o.files.push_back(a.name());
      continue;
    }
    if (a.is("--help", "-h")) {
      std::fputs(kDecHelp, stdout);
      return kExitOk;
    }
    if (a.is("--version", "-v")) {
      std::printf("%s\n", HCLVM_VERSION);
      return kExitOk;
    }
    if (a.is("--var-refs")) {
      o.var_refs = true;
    } else if (a.is("--with-type")) {
      o.with_type = true;
    } else if (a.is("--keep-nulls")) {
      o.keep_nulls = true;
    } else if (a.is("--dynamic-blocks")) {
      o.dynamic_blocks = true;
    } else if (a.is("--spec", "-s") || a.is("--out", "-o") || a.is("--diags") ||
               a.is("--vars", "-V")) {
      std::optional<std::string> v = a.value(err);
      if (!v) return usage_error(err);
      if (a.is("--spec", "-s"))
        o.spec = *v;
      else if (a.is("--out", "-o"))
        o.out = *v;
      else if (a.is("--diags"))
        o.diags_format = *v;
      else
        o.vars.push_back(*v);
    } else {
      return unknown_flag(a.name(), kDecHelp, program_name() == "hcldec" ? "hcldec --help" : "hclvm help dec");
    }
  }
  return std::nullopt;
}

}  // namespace

int run_dec(const std::vector<std::string>& args) {
  DecOptions o;
  if (auto stop = parse_dec_options(args, o)) return *stop;
  if (!o.diags_format.empty() && o.diags_format != "json") {
    std::fprintf(stderr, "Invalid diagnostics format %s: only \"json\" is supported.\n",
                 uni::go_quote(o.diags_format).c_str());
    return kExitUsage;
  }
  if (o.spec.empty()) return fail("the --spec=... argument is required");

  Files files;
  DiagWriter out(o.diags_format == "json", files);
  Diagnostics diags;

  // The spec file.
  hcldec::SpecFile spec;
  {
    std::string bytes, err;
    if (!read_input(o.spec, bytes, err)) {
      Diagnostic d;
      d.summary = "Failed to read file";
      d.detail = "The configuration file " + uni::go_quote(o.spec) + " could not be read.";
      out.write({d});
      return kExitUsage;
    }
    auto src = make_source(o.spec, std::move(bytes));
    ConfigFile f = parse_native_body(src);
    files.add(f);
    spec = hcldec::load_spec_file(src);
  }
  diags = spec.diagnostics;
  if (spec.has_errors()) {
    out.write(diags);
    return kExitUsage;
  }

  // The context: the spec's variables, overridden by --vars, and its functions.
  std::map<std::string, Value> vars(spec.variables.begin(), spec.variables.end());
  for (size_t i = 0; i < o.vars.size(); ++i) {
    const std::string& v = o.vars[i];
    std::string_view trimmed = v;
    while (!trimmed.empty() && uni::is_space(static_cast<unsigned char>(trimmed.front())))
      trimmed.remove_prefix(1);
    std::optional<ConfigFile> f;
    if (!trimmed.empty() && trimmed.front() == '{') {
      f = parse_json_body(make_source("<vars argument " + std::to_string(i) + ">", v));
    } else {
      f = parse_file(v, ends_with(v, ".json"), diags);
    }
    if (!f) continue;
    files.add(*f);
    diags.insert(diags.end(), f->diagnostics.begin(), f->diagnostics.end());
    read_vars_body(f->body, vars, diags);
  }
  std::optional<EvalContext> ctx_storage;
  const EvalContext* ctx = nullptr;
  if (!vars.empty() || spec.functions.size() > 0) {
    ctx_storage.emplace();
    for (auto& [k, v] : vars) ctx_storage->set(k, v);
    // No variables at all: a reference is "Variables not allowed".
    ctx_storage->set_variables_allowed(!vars.empty());
    if (spec.functions.size() > 0)
      ctx_storage->set_functions(std::make_shared<FunctionTable>(spec.functions));
    ctx = &*ctx_storage;
  }

  // The input files, or standard input.
  std::vector<Body> bodies;
  if (o.files.empty()) {
    std::string bytes, err;
    if (!read_input("-", bytes, err)) return fail("failed to read stdin: " + err);
    ConfigFile f = parse_native_body(make_source("<stdin>", std::move(bytes)));
    files.add(f);
    diags.insert(diags.end(), f.diagnostics.begin(), f.diagnostics.end());
    if (!f.has_errors()) bodies.push_back(f.body);
  } else {
    for (const std::string& path : o.files) {
      Diagnostics fd;
      std::optional<ConfigFile> f = parse_file(path, ends_with(path, ".json"), fd);
      if (f) {
        files.add(*f);
        fd.insert(fd.end(), f->diagnostics.begin(), f->diagnostics.end());
      }
      diags.insert(diags.end(), fd.begin(), fd.end());
      if (f && !has_errors(fd)) bodies.push_back(f->body);
    }
  }
  if (has_errors(diags)) {
    out.write(diags);
    return kExitUsage;
  }
  Body body = bodies.size() == 1 ? bodies[0] : merge_bodies(bodies);

  if (o.var_refs) {
    std::vector<Traversal> refs = o.dynamic_blocks
                                      ? hcldec::dynamic_block_variables(body, *spec.root)
                                      : hcldec::variables(body, *spec.root);
    std::string doc = var_refs_json(refs, ctx);
    if (auto err = write_output(o.out, doc)) return fail(*err);
    return kExitOk;
  }

  if (o.dynamic_blocks) body = dynblock::expand(body, ctx);
  hcldec::DecodeResult r = hcldec::decode(body, *spec.root, ctx);
  diags.insert(diags.end(), r.diagnostics.begin(), r.diagnostics.end());
  if (has_errors(diags)) {
    out.write(diags);
    return kExitUsage;
  }
  JsonResult<std::string> j = to_json(r.value, o.with_type ? Type::dynamic() : r.value.type());
  if (!j.ok()) return fail(j.error->message);
  std::string doc = o.keep_nulls ? std::move(j.value) : strip_null_properties(j.value);
  if (auto err = write_output(o.out, doc)) return fail(*err);
  return kExitOk;
}

}  // namespace hclvm::cli
