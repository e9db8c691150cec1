// The on-disk format of compiled files (hclvm/cache.h; the layout is
// docs/cache-format.md; compiling them is src/body/compiled_file.cpp).
//
// Writing walks the compiled bodies and programs once, collecting names,
// string constants and types into the shared tables, which go first so
// that a reader builds them before anything refers to them. Reading
// checks the envelope (magic, version, build, checksum over every byte)
// before it decodes anything, then decodes each file fully: every program
// is verified as it is read, every span checked against its source, so
// that nothing from a bad file reaches an evaluation.
#include <hclvm/cache.h>
#include <hclvm/json_program.h>

#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <mutex>

#include "cache/codec.h"
#include "cache/program_codec.h"
#include "cache/store.h"
#include "compile/json_program.h"
#include "util/unicode.h"
#include "vm/program.h"

namespace hclvm {

namespace {

using cache::ByteReader;
using cache::hash128;
using cache::ByteWriter;
using cache::TableReader;
using cache::TableWriter;

constexpr char kMagic[8] = {'H', 'C', 'L', 'V', 'M', 'B', 'C', '\x1a'};
constexpr uint32_t kFormatVersion = 1;
// Bumped whenever lowering changes what programs it makes for the same
// source (with the opcode table, it makes the compiler build id).
constexpr uint32_t kCompilerRevision = 2;
constexpr uint32_t kFlagSourcesEmbedded = 1;
constexpr size_t kHeaderSize = 8 + 4 + 4 + 16 + 16;
constexpr size_t kTrailerSize = 16;
// How deeply blocks may nest in a cached file (deeper ones are not cached).
constexpr int kMaxBodyDepth = 200;

enum SectionTag : uint32_t { kSectionTables = 1, kSectionFile = 2 };

std::string hex(std::string_view bytes) {
  static const char* const kDigits = "0123456789abcdef";
  std::string out;
  for (char c : bytes) {
    out += kDigits[uint8_t(c) >> 4];
    out += kDigits[uint8_t(c) & 15];
  }
  return out;
}

// --- writing ------------------------------------------------------------------

class FileWriter {
 public:
  FileWriter(TableWriter& tables, std::string& why) : tables_(tables), why_(why) {}

  bool range(ByteWriter& w, const std::optional<Range>& r) {
    w.u8(r ? 1 : 0);
    if (!r) return true;
    w.varint(tables_.string(r->filename));
    for (const Pos* p : {&r->start, &r->end}) {
      w.varint(p->line);
      w.varint(p->column);
      w.varint(p->byte);
    }
    return true;
  }

  void diagnostics(ByteWriter& w, const Diagnostics& diags) {
    w.varint(diags.size());
    for (const Diagnostic& d : diags) {
      w.u8(uint8_t(d.severity));
      w.varint(tables_.string(d.summary));
      w.varint(tables_.string(d.detail));
      range(w, d.subject);
      range(w, d.context);
      w.varint(d.expression_values.size());
      for (const std::string& v : d.expression_values) w.varint(tables_.string(v));
    }
  }

  static void span(ByteWriter& w, ast::Span s) {
    w.varint(s.begin);
    w.varint(s.end >= s.begin ? s.end - s.begin : 0);
  }

  // A JSON value's program: its ops, constants, templates (each with the
  // source it was parsed from: the decoded string at its position) and
  // property name ranges.
  bool json_program(ByteWriter& w, const JsonProgram& p) {
    w.varint(p.ops.size());
    for (const JsonProgram::Op& op : p.ops) {
      w.u8(uint8_t(op.kind));
      w.varint(op.a);
    }
    w.varint(p.constants.size());
    for (const Value& v : p.constants)
      if (!tables_.value(w, v)) return false;
    w.varint(p.templates.size());
    for (const JsonTemplate& t : p.templates) {
      if (!tables_.value(w, t.literal)) return false;
      diagnostics(w, t.parse_diags);
      w.u8(t.failed ? 1 : 0);
      w.u8(t.program ? 1 : 0);
      if (!t.program) continue;
      const Source& src = *t.program->source;
      w.varint(tables_.string(src.name()));
      w.str(src.text());
      w.varint(src.start().line);
      w.varint(src.start().column);
      w.varint(src.start().byte);
      if (!cache::write_program(w, tables_, *t.program)) return false;
    }
    w.varint(p.names.size());
    for (const Range& r : p.names) range(w, r);
    return true;
  }

  bool body(ByteWriter& w, const CompiledBody& b, int depth) {
    if (depth > kMaxBodyDepth) {
      why_ = "blocks nested more than " + std::to_string(kMaxBodyDepth) + " deep";
      return false;
    }
    span(w, b.span);
    span(w, b.end_span);
    w.varint(b.attributes.size());
    for (const CompiledAttribute& a : b.attributes) {
      if (!text(a.name)) return false;
      w.varint(tables_.string(a.name));
      span(w, a.span);
      span(w, a.name_span);
      span(w, a.expr_span);
      diagnostics(w, a.diagnostics);
      bool ok = false;
      if (a.json_program) {
        w.u8(1);
        ok = json_program(w, *a.json_program);
      } else if (std::shared_ptr<const Program> p = a.native_program()) {
        // Length-prefixed, so that a lazy reader can step over it.
        w.u8(0);
        ByteWriter pw;
        ok = cache::write_program(pw, tables_, *p);
        w.str(pw.buffer());
      }
      if (!ok) {
        why_ = "attribute " + a.name +
               " holds what the format cannot (a marked value, or text that is not UTF-8)";
        return false;
      }
    }
    w.varint(b.blocks.size());
    for (const CompiledBlock& blk : b.blocks) {
      if (!text(blk.type)) return false;
      w.varint(tables_.string(blk.type));
      w.varint(blk.labels.size());
      for (size_t i = 0; i < blk.labels.size(); ++i) {
        if (!text(blk.labels[i])) return false;
        w.varint(tables_.string(blk.labels[i]));
        span(w, i < blk.label_spans.size() ? blk.label_spans[i] : ast::Span{});
      }
      span(w, blk.span);
      span(w, blk.type_span);
      if (!body(w, blk.body, depth + 1)) return false;
    }
    return true;
  }

 private:
  // Checks that name or label [s] is valid UTF-8, as the reader requires.
  bool text(std::string_view s) {
    if (uni::valid_utf8(s)) return true;
    why_ = "a name or label is not valid UTF-8";
    return false;
  }

  TableWriter& tables_;
  std::string& why_;
};

// --- reading ------------------------------------------------------------------

}  // namespace

// The data a lazily read file keeps: the bytes and the tables that view them.
namespace detail {

struct LoadedData {
  std::shared_ptr<const std::string> bytes;
  cache::TableReader tables;
};

// A native program not decoded yet: where it is in the data.
class LazyNativeProgram final : public LazyProgram {
 public:
  LazyNativeProgram(std::shared_ptr<const LoadedData> data, size_t offset, size_t size,
              std::shared_ptr<const Source> source, ast::Span expr_span)
      : data_(std::move(data)), offset_(offset), size_(size), source_(std::move(source)),
        expr_span_(expr_span) {}

  // The program, decoded and verified once (by whichever thread asks
  // first); one compiled again from the source when that fails.
  std::shared_ptr<const Program> get(std::string* why) const override {
    std::call_once(once_, [this] {
      ByteReader r(std::string_view(*data_->bytes).substr(offset_, size_), offset_);
      program_ = cache::read_program(r, data_->tables, source_);
      if (program_ && !r.at_end()) r.fail("unread bytes after a program");
      if (program_ && r.ok()) return;
      error_ = r.error();
      program_ = recompile();
    });
    if (why && !error_.empty()) *why = error_;
    return program_;
  }

 private:
  // The attribute's expression parsed and compiled from the source.
  std::shared_ptr<const Program> recompile() const {
    std::string_view text = source_->text();
    std::string expr(text.substr(expr_span_.begin, expr_span_.end - expr_span_.begin));
    ExprParse p = parse_expression(
        make_source(source_->name(), std::move(expr), source_->pos(expr_span_.begin)));
    if (!p.expr) return nullptr;
    return compile_expression(*p.expr, p.source).program;
  }

  std::shared_ptr<const LoadedData> data_;
  size_t offset_, size_;
  std::shared_ptr<const Source> source_;
  ast::Span expr_span_;
  mutable std::once_flag once_;
  mutable std::shared_ptr<const Program> program_;
  mutable std::string error_;
};

}  // namespace detail

namespace {

class FileReader {
 public:
  FileReader(ByteReader& r, const TableReader& tables, std::shared_ptr<const Source> src,
             std::shared_ptr<const detail::LoadedData> lazy)
      : r_(r), tables_(tables), src_(std::move(src)), size_(src_->text().size()),
        lazy_(std::move(lazy)) {}

  std::optional<Range> range() {
    uint8_t has = r_.u8();
    if (has > 1) r_.fail("bad range flag");
    if (has != 1) return std::nullopt;
    Range out;
    out.filename = std::string(tables_.string(r_));
    for (Pos* p : {&out.start, &out.end}) {
      p->line = r_.index(uint64_t(UINT32_MAX) + 1, "line");
      p->column = r_.index(uint64_t(UINT32_MAX) + 1, "column");
      p->byte = r_.index(uint64_t(UINT32_MAX) + 1, "byte");
    }
    // Ranges in this file's source must lie within it (renderers cut
    // snippets from it by them).
    if (r_.ok() && out.filename == src_->name() &&
        (out.start.byte > out.end.byte || out.end.byte > size_ ||
         out.start.line > out.end.line))
      r_.fail("range outside the source");
    return out;
  }

  void diagnostics(Diagnostics& out) {
    uint32_t n = r_.count(5, "diagnostic count");
    for (uint32_t i = 0; i < n && r_.ok(); ++i) {
      Diagnostic d;
      uint8_t sev = r_.u8();
      if (sev > uint8_t(Severity::Warning)) r_.fail("bad severity");
      d.severity = Severity(sev);
      d.summary = std::string(tables_.string(r_));
      d.detail = std::string(tables_.string(r_));
      d.subject = range();
      d.context = range();
      uint32_t nv = r_.count(1, "expression value count");
      for (uint32_t j = 0; j < nv && r_.ok(); ++j)
        d.expression_values.emplace_back(tables_.string(r_));
      out.push_back(std::move(d));
    }
  }

  ast::Span span() {
    ast::Span s;
    s.begin = r_.index(uint64_t(size_) + 1, "span start");
    s.end = s.begin + r_.index(uint64_t(size_ - s.begin) + 1, "span length");
    return s;
  }

  // Reads and checks a JSON value's program: every index within its
  // table, and the stack and object frames run_json keeps never used
  // beyond what they hold, ending with one value.
  std::shared_ptr<const JsonProgram> json_program() {
    auto p = std::make_shared<JsonProgram>();
    uint32_t n = r_.count(2, "JSON op count");
    p->ops.resize(n);
    for (JsonProgram::Op& op : p->ops) {
      uint8_t kind = r_.u8();
      if (kind > uint8_t(JsonProgram::OpKind::ObjEnd)) r_.fail("bad JSON op");
      op.kind = JsonProgram::OpKind(kind);
      op.a = r_.index(uint64_t(UINT32_MAX) + 1, "JSON operand");
      if (!r_.ok()) return nullptr;
    }
    n = r_.count(1, "constant count");
    for (uint32_t i = 0; i < n && r_.ok(); ++i) p->constants.push_back(tables_.value(r_));
    n = r_.count(4, "template count");
    p->templates.resize(n);
    for (JsonTemplate& t : p->templates) {
      t.literal = tables_.value(r_);
      diagnostics(t.parse_diags);
      uint8_t failed = r_.u8(), has_program = r_.u8();
      if (failed > 1 || has_program > 1) r_.fail("bad template flags");
      t.failed = failed == 1;
      if (r_.ok() && t.literal.rep() != Value::Rep::String) r_.fail("template literal is no string");
      if (!t.failed && has_program != 1) r_.fail("template without a program");
      if (!r_.ok()) return nullptr;
      if (has_program != 1) continue;
      std::string name(tables_.string(r_));
      std::string text(r_.str());
      Pos start;
      start.line = r_.index(uint64_t(UINT32_MAX) + 1, "line");
      start.column = r_.index(uint64_t(UINT32_MAX) + 1, "column");
      start.byte = r_.index(uint64_t(UINT32_MAX) + 1, "byte");
      if (!r_.ok()) return nullptr;
      t.program = cache::read_program(r_, tables_, make_source(name, std::move(text), start));
      if (!t.program) return nullptr;
    }
    n = r_.count(2, "name count");
    for (uint32_t i = 0; i < n && r_.ok(); ++i) {
      std::optional<Range> rg = range();
      if (!rg) r_.fail("missing name range");
      p->names.push_back(rg ? *rg : Range{});
    }
    if (!r_.ok()) return nullptr;
    // The stack run_json keeps, and its object frames (each the depth it started at).
    size_t depth = 0;
    std::vector<size_t> frames;
    for (const JsonProgram::Op& op : p->ops) {
      bool ok = true;
      switch (op.kind) {
        case JsonProgram::OpKind::Const: ok = op.a < p->constants.size(), ++depth; break;
        case JsonProgram::OpKind::Template: ok = op.a < p->templates.size(), ++depth; break;
        case JsonProgram::OpKind::Tuple:
          ok = op.a <= depth - (frames.empty() ? 0 : frames.back());
          depth = depth - op.a + 1;
          break;
        case JsonProgram::OpKind::ObjBegin: frames.push_back(depth); break;
        case JsonProgram::OpKind::Prop:
          ok = !frames.empty() && depth >= frames.back() + 2 && op.a < p->names.size();
          depth -= 2;
          break;
        case JsonProgram::OpKind::ObjEnd:
          ok = !frames.empty() && depth == frames.back();
          if (ok) frames.pop_back(), ++depth;
          break;
      }
      if (!ok) {
        r_.fail("invalid JSON program");
        return nullptr;
      }
    }
    if (depth != 1 || !frames.empty()) {
      r_.fail("invalid JSON program: it does not leave one value");
      return nullptr;
    }
    return p;
  }

  bool body(CompiledBody& b, int depth) {
    if (depth > kMaxBodyDepth) return r_.fail("blocks nested too deeply");
    b.span = span();
    b.end_span = span();
    uint32_t n = r_.count(8, "attribute count");
    b.attributes.resize(n);
    for (CompiledAttribute& a : b.attributes) {
      a.name = std::string(tables_.text(r_));
      a.span = span();
      a.name_span = span();
      a.expr_span = span();
      diagnostics(a.diagnostics);
      uint8_t kind = r_.u8();
      if (!r_.ok()) return false;
      if (kind == 0) {
        uint32_t len = r_.count(1, "program length");
        size_t at = r_.offset();
        std::string_view bytes = r_.bytes(len);
        if (!r_.ok()) return false;
        if (lazy_) {
          a.lazy = std::make_shared<detail::LazyNativeProgram>(lazy_, at, len, src_, a.expr_span);
        } else {
          ByteReader pr(bytes, at);
          a.program = cache::read_program(pr, tables_, src_);
          if (a.program && !pr.at_end()) pr.fail("unread bytes after a program");
          if (!pr.ok()) return r_.fail(pr.error());
        }
      } else if (kind == 1) {
        a.json_program = json_program();
        if (!a.json_program) return false;
      } else {
        return r_.fail("bad program kind");
      }
    }
    n = r_.count(7, "block count");
    b.blocks.resize(n);
    for (CompiledBlock& blk : b.blocks) {
      blk.type = std::string(tables_.text(r_));
      uint32_t nl = r_.count(3, "label count");
      for (uint32_t i = 0; i < nl && r_.ok(); ++i) {
        blk.labels.emplace_back(tables_.text(r_));
        blk.label_spans.push_back(span());
      }
      blk.span = span();
      blk.type_span = span();
      if (!r_.ok() || !body(blk.body, depth + 1)) return false;
    }
    return r_.ok();
  }

 private:
  ByteReader& r_;
  const TableReader& tables_;
  std::shared_ptr<const Source> src_;
  size_t size_;
  std::shared_ptr<const detail::LoadedData> lazy_;  // set when reading lazily
};

}  // namespace

// --- the API ------------------------------------------------------------------

std::string content_hash(std::string_view bytes) { return hex(hash128(bytes)); }

uint64_t functions_signature(const FunctionTable* fns) {
  if (fns == nullptr) return 0;
  std::string sig;
  for (std::string_view name : fns->names()) {
    const Function* f = fns->find(name);
    sig += std::string(name) + "(";
    for (const Param& p : f->params) sig += p.type->friendly_name() + ",";
    if (f->var_param) sig += "..." + f->var_param->type->friendly_name();
    sig += ")";
  }
  return XXH3_64bits(sig.data(), sig.size());
}

std::string CompileOptions::hash() const {
  std::string s = "syntax=" + std::to_string(int(syntax)) +
                  ";functions=" + std::to_string(functions_signature);
  return hash128(s);
}

std::string compiler_build_id() {
  static const std::string id = [] {
    std::string s = "hclvm compiled files " + std::to_string(kFormatVersion) + " revision " +
                    std::to_string(kCompilerRevision);
    for (size_t i = 0; i < vm::kNumOps; ++i) {
      const vm::OpInfo& in = vm::info(vm::Op(i));
      s += ";" + std::string(in.name);
      for (vm::Opnd k : in.operands) s += "," + std::to_string(int(k));
      s += "," + std::to_string(in.pops) + "," + std::to_string(in.pushes) + "," +
           std::to_string(int(in.frame.role)) + std::to_string(int(in.frame.kind));
    }
    return hash128(s);
  }();
  return id;
}

std::optional<std::string> write_compiled(const std::vector<const CompiledFile*>& files,
                                          const CompileOptions& options, bool embed_sources,
                                          std::string* why) {
  std::string reason;
  TableWriter tables;
  std::vector<std::string> sections;
  FileWriter fw(tables, reason);
  for (const CompiledFile* f : files) {
    ByteWriter w;
    w.str(f->source->name());
    w.u8(uint8_t(f->syntax));
    w.bytes(hash128(f->source->text()));
    w.varint(f->source->text().size());
    if (embed_sources) w.str(f->source->text());
    fw.diagnostics(w, f->diagnostics);
    if (!fw.body(w, f->body, 0)) {
      if (why) *why = f->source->name() + ": " + reason;
      return std::nullopt;
    }
    sections.push_back(w.take());
  }
  ByteWriter out;
  out.bytes(std::string_view(kMagic, sizeof kMagic));
  out.u32(kFormatVersion);
  out.u32(embed_sources ? kFlagSourcesEmbedded : 0);
  out.bytes(compiler_build_id());
  out.bytes(options.hash());
  ByteWriter tw;
  tables.write(tw);
  out.u32(kSectionTables);
  out.u64(tw.size());
  out.bytes(tw.buffer());
  for (const std::string& s : sections) {
    out.u32(kSectionFile);
    out.u64(s.size());
    out.bytes(s);
  }
  out.bytes(hash128(out.buffer()));
  return out.take();
}

namespace {

// Reports whether [data] starts with the magic and is long enough for the
// header and the checksum: anything else (an empty file, a text file) is
// not a compiled file, whatever its name.
bool is_compiled_envelope(std::string_view data) {
  return data.size() >= kHeaderSize + kTrailerSize &&
         std::memcmp(data.data(), kMagic, sizeof kMagic) == 0;
}

// read_compiled over [data]; [owned], when reading lazily, is the same
// bytes held for the files to keep.
LoadResult read_data(std::string_view data, std::shared_ptr<const std::string> owned,
                     const std::vector<std::shared_ptr<const Source>>& sources,
                     const CompileOptions* options) {
  LoadResult res;
  auto refuse = [&](std::string why) {
    res.files.clear();
    res.error = std::move(why);
    return std::move(res);
  };
  if (!is_compiled_envelope(data)) return refuse("not a compiled file");
  ByteReader head(data.substr(8, kHeaderSize - 8), 8);
  uint32_t version = head.u32();
  uint32_t flags = head.u32();
  if (version != kFormatVersion)
    return refuse("format version " + std::to_string(version) + ", this build reads " +
                  std::to_string(kFormatVersion));
  if (head.bytes(16) != compiler_build_id()) return refuse("written by another compiler build");
  std::string_view opts = head.bytes(16);
  if (flags & ~kFlagSourcesEmbedded) return refuse("unknown flags");
  std::string_view body = data.substr(0, data.size() - kTrailerSize);
  if (hash128(body) != data.substr(data.size() - kTrailerSize))
    return refuse("checksum mismatch (damaged or truncated)");
  if (options && opts != options->hash()) return refuse("compiled with other options");
  bool embedded = flags & kFlagSourcesEmbedded;

  ByteReader r(body.substr(kHeaderSize), kHeaderSize);
  auto loaded = std::make_shared<detail::LoadedData>();
  loaded->bytes = std::move(owned);
  TableReader& tables = loaded->tables;
  std::shared_ptr<const detail::LoadedData> lazy;
  if (loaded->bytes) lazy = loaded;
  bool have_tables = false;
  while (!r.at_end()) {
    uint32_t tag = r.u32();
    uint64_t len = r.u64();
    if (!r.ok()) break;
    if (len > r.remaining()) return refuse("section longer than the file");
    size_t start = r.offset();
    ByteReader s(r.bytes(size_t(len)), start);
    if (tag == kSectionTables) {
      if (have_tables) return refuse("two table sections");
      have_tables = true;
      if (!tables.read(s)) return refuse("tables: " + s.error());
    } else if (tag == kSectionFile) {
      if (!have_tables) return refuse("file section before the tables");
      CompiledFile f;
      std::string name(s.str());
      uint8_t syntax = s.u8();
      if (syntax > uint8_t(Syntax::Json)) s.fail("bad syntax");
      std::string_view hash = s.bytes(16);
      uint64_t size = s.varint();
      if (!s.ok()) return refuse(name + ": " + s.error());
      f.syntax = Syntax(syntax);
      if (embedded) {
        std::string_view text = s.str();
        if (!s.ok()) return refuse(name + ": " + s.error());
        if (text.size() != size || hash128(text) != hash)
          return refuse(name + ": embedded source does not match its hash");
        f.source = make_source(name, std::string(text));
      } else {
        for (const auto& src : sources)
          if (src && src->name() == name) f.source = src;
        if (!f.source) return refuse(name + ": source not given");
        if (f.source->text().size() != size || hash128(f.source->text()) != hash)
          return refuse(name + ": source changed since it was compiled");
      }
      ProgramArena arena;  // programs read eagerly lie side by side, in attribute order
      FileReader fr(s, tables, f.source, lazy);
      fr.diagnostics(f.diagnostics);
      if (s.ok()) fr.body(f.body, 0);
      if (s.ok() && !s.at_end()) s.fail("unread bytes at the end of a file section");
      if (!s.ok()) return refuse(name + ": " + s.error());
      res.files.push_back(std::move(f));
    } else {
      return refuse("unknown section " + std::to_string(tag));
    }
  }
  if (!r.ok()) return refuse(r.error());
  return res;
}

}  // namespace

LoadResult read_compiled(std::string_view data,
                         const std::vector<std::shared_ptr<const Source>>& sources,
                         const CompileOptions* options, ReadMode mode) {
  if (mode == ReadMode::Lazy)
    return read_compiled(std::make_shared<const std::string>(data), sources, options, mode);
  return read_data(data, nullptr, sources, options);
}

LoadResult read_compiled(std::shared_ptr<const std::string> data,
                         const std::vector<std::shared_ptr<const Source>>& sources,
                         const CompileOptions* options, ReadMode mode) {
  std::string_view view = *data;
  if (mode == ReadMode::Eager) return read_data(view, nullptr, sources, options);
  return read_data(view, std::move(data), sources, options);
}

}  // namespace hclvm

// --- the cache directory ------------------------------------------------------

namespace hclvm {

std::string check_compiled(std::string_view data) {
  if (!is_compiled_envelope(data)) return "not a compiled file";
  ByteReader head(data.substr(8, kHeaderSize - 8), 8);
  uint32_t version = head.u32();
  head.u32();
  if (version != kFormatVersion)
    return "format version " + std::to_string(version) + ", this build reads " +
           std::to_string(kFormatVersion);
  if (head.bytes(16) != compiler_build_id()) return "written by another compiler build";
  if (hash128(data.substr(0, data.size() - kTrailerSize)) != data.substr(data.size() - kTrailerSize))
    return "checksum mismatch (damaged or truncated)";
  return "";
}

Cache::Cache(CacheOptions options)
    : store_(std::make_unique<cache::Store>(cache::StoreOptions{options.dir, options.max_bytes})) {}
Cache::~Cache() = default;
Cache::Cache(Cache&&) noexcept = default;
Cache& Cache::operator=(Cache&&) noexcept = default;

const std::string& Cache::dir() const { return store_->dir(); }

std::string Cache::key(const Source& source, const CompileOptions& options) {
  std::string id = compiler_build_id() + options.hash() + hash128(source.name()) +
                   hash128(source.text());
  return content_hash(id);
}

CompiledFile Cache::load_or_compile(std::shared_ptr<const Source> source,
                                    const CompileOptions& options, CacheStatus* status) const {
  CacheStatus st;
  std::string k = key(*source, options);
  if (std::optional<std::string> data = store_->get(k)) {
    LoadResult r = read_compiled(std::make_shared<const std::string>(std::move(*data)), {source},
                                 &options, ReadMode::Lazy);
    if (r.ok() && r.files.size() == 1) {
      st.outcome = CacheStatus::Hit;
      if (status) *status = st;
      return std::move(r.files[0]);
    }
    st.outcome = CacheStatus::Replaced;
    st.reason = r.ok() ? "entry holds another number of files" : r.error;
  }
  CompiledFile f = compile_file(source, options.syntax);
  std::string why;
  std::optional<std::string> bytes = write_compiled({&f}, options, false, &why);
  if (!bytes) {
    st.outcome = CacheStatus::NotCached;
    st.reason = why;
  } else if (!store_->put(k, *bytes, &why)) {
    st.outcome = CacheStatus::NotCached;
    st.reason = why;
  }
  if (status) *status = st;
  return f;
}

CacheStats Cache::stats() const {
  cache::StoreStats s = store_->stats();
  return CacheStats{s.dir, s.entries, s.bytes, s.max_bytes};
}

size_t Cache::clear() const { return store_->clear(); }

std::vector<std::string> Cache::verify() const {
  std::vector<std::string> out;
  for (const cache::Store::BadEntry& b : store_->verify(
           [](std::string_view data) -> std::optional<std::string> {
             std::string why = check_compiled(data);
             if (why.empty()) return std::nullopt;
             return why;
           },
           true))
    out.push_back(b.key + ": " + b.reason);
  return out;
}

}  // namespace hclvm
