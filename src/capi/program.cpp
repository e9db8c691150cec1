// The C API: status codes and the last error, diagnostics, compiling
// expressions and files, the bodies of compiled files, and the cache.
#include <hclvm/cache.h>
#include <hclvm/hclvm.h>
#include <hclvm/render.h>
#include <hclvm/syntax.h>
#include <hclvm/typeexpr.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "capi/capi.h"
#include "value/json.h"

namespace hclvm::capi {

namespace {

thread_local std::string t_last_error;

}  // namespace

hclvm_status fail(hclvm_status s, std::string_view message) noexcept {
  try {
    t_last_error.assign(message);
  } catch (...) {
    t_last_error.clear();  // keeping the message needed memory there was none of
  }
  return s;
}

void clear_error() noexcept { t_last_error.clear(); }

thread_local bool t_limit_pending = false;
thread_local Limit t_pending_limit = Limit::Steps;

hclvm_status limit_hit(Limit l) noexcept {
  t_limit_pending = true;
  t_pending_limit = l;
  return fail(HCLVM_ERR_LIMIT, limit_summary(l));
}

char* dup_string(std::string_view s) {
  char* p = static_cast<char*>(std::malloc(s.size() + 1));
  if (p == nullptr) throw std::bad_alloc();
  if (!s.empty()) std::memcpy(p, s.data(), s.size());
  p[s.size()] = '\0';
  return p;
}

const Type* parse_type(const char* text, std::string& err) {
  if (text == nullptr) return Type::dynamic();
  std::string_view s(text);
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n'))
    s.remove_prefix(1);
  if (!s.empty() && (s.front() == '"' || s.front() == '[')) {
    JsonResult<const Type*> r = type_from_json(s);
    if (!r.ok()) {
      err = "invalid type " + std::string(text) + ": " + r.error->message;
      return nullptr;
    }
    return r.value;
  }
  // cty's name of the dynamic pseudo-type, which type expressions call `any`.
  if (s == "dynamic") return Type::dynamic();
  ExprParse p = parse_expression(make_source("<type>", std::string(s)));
  if (p.has_errors() || p.expr == nullptr) {
    err = "invalid type " + std::string(text) + ": " + diagnostics_error(p.diagnostics);
    return nullptr;
  }
  TypeExprResult t = parse_type_expr(*p.expr, *p.source, TypeExprMode::Constraint);
  if (has_errors(t.diagnostics)) {
    err = "invalid type " + std::string(text) + ": " + diagnostics_error(t.diagnostics);
    return nullptr;
  }
  return t.type;
}

Syntax syntax_for(hclvm_syntax syntax, std::string_view name) {
  if (raw_enum(syntax) == HCLVM_SYNTAX_JSON) return Syntax::Json;
  if (raw_enum(syntax) == HCLVM_SYNTAX_NATIVE) return Syntax::Native;
  return name.ends_with(".json") ? Syntax::Json : Syntax::Native;
}

void give_diagnostics(hclvm_diagnostics** out, Diagnostics diags, std::shared_ptr<const Source> src,
                      std::shared_ptr<const CompiledFile> file) {
  if (out == nullptr) return;
  auto* d = new hclvm_diagnostics;
  d->list = std::move(diags);
  d->source = std::move(src);
  d->file = std::move(file);
  *out = d;
}

namespace {

void build_body(hclvm_body& b, const CompiledBody& body, const hclvm_program* prog) {
  b.body = &body;
  b.program = prog;
  b.blocks.resize(body.blocks.size());
  for (size_t i = 0; i < body.blocks.size(); ++i)
    build_body(b.blocks[i], body.blocks[i].body, prog);
}

// Reads the file at [path] into [bytes]; false, with the reason in [err],
// when it cannot.
bool read_file(const char* path, std::string& bytes, std::string& err) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    err = std::string("cannot read ") + path + ": " + std::strerror(errno);
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    err = std::string("cannot read ") + path + ": read error";
    return false;
  }
  bytes = std::move(ss).str();
  return true;
}

// The status of compiling [f]: HCLVM_ERR_PARSE, with the program dropped,
// when parsing reported errors.
hclvm_status finish_file(CompiledFile f, hclvm_program** out, hclvm_diagnostics** diags) {
  auto file = std::make_shared<const CompiledFile>(std::move(f));
  give_diagnostics(diags, file->diagnostics, file->source, file);
  if (file->has_errors()) return fail(HCLVM_ERR_PARSE, diagnostics_error(file->diagnostics));
  auto* p = new hclvm_program;
  p->kind = HCLVM_PROGRAM_FILE;
  p->source = file->source;
  p->file = std::move(file);
  build_body(p->root, p->file->body, p);
  *out = p;
  return HCLVM_OK;
}

// Compiles an expression or template ([tmpl]) for hclvm_compile_expression
// and hclvm_compile_template.
hclvm_status compile_expr(const char* text, size_t len, const char* filename, hclvm_program** out,
                          hclvm_diagnostics** diags, bool tmpl) {
  if (diags != nullptr) *diags = nullptr;
  if (out != nullptr) *out = nullptr;
  if (text == nullptr || out == nullptr)
    return fail(HCLVM_ERR_INVALID_ARGUMENT, "text and out are required");
  auto src = make_source(filename ? filename
                         : tmpl   ? "<template>"
                                  : "<expr>",
                         std::string(text_of(text, len)));
  ExprParse p = tmpl ? parse_template(src) : parse_expression(src);
  give_diagnostics(diags, p.diagnostics, p.source);
  if (p.has_errors() || p.expr == nullptr)
    return fail(HCLVM_ERR_PARSE, diagnostics_error(p.diagnostics));
  CompileResult c = compile_expression(*p.expr, p.source);
  auto* prog = new hclvm_program;
  prog->kind = HCLVM_PROGRAM_EXPRESSION;
  prog->source = p.source;
  prog->expr = std::move(c.program);
  prog->compile_diags = std::move(c.diagnostics);
  *out = prog;
  return HCLVM_OK;
}

hclvm_status cache_load(const hclvm_cache* cache, std::string name, std::string bytes,
                        hclvm_syntax syntax, hclvm_program** out, hclvm_diagnostics** diags,
                        hclvm_cache_outcome* outcome) {
  CompileOptions co;
  co.syntax = syntax_for(syntax, name);
  CacheStatus st;
  CompiledFile f =
      cache->cache.load_or_compile(make_source(std::move(name), std::move(bytes)), co, &st);
  if (outcome != nullptr) {
    switch (st.outcome) {
      case CacheStatus::Hit:
        *outcome = HCLVM_CACHE_HIT;
        break;
      case CacheStatus::Miss:
        *outcome = HCLVM_CACHE_MISS;
        break;
      case CacheStatus::Replaced:
        *outcome = HCLVM_CACHE_REPLACED;
        break;
      case CacheStatus::NotCached:
        *outcome = HCLVM_CACHE_NOT_CACHED;
        break;
    }
  }
  return finish_file(std::move(f), out, diags);
}

}  // namespace

// Thrown by the sink of hclvm_diagnostics_write_text when the host's
// callback asks to stop, to end the rendering.
struct WriteStopped {};

}  // namespace hclvm::capi

using namespace hclvm;
using namespace hclvm::capi;

extern "C" {

// --- status and errors -------------------------------------------------------------

const char* hclvm_status_string(hclvm_status status) {
  // A C caller may pass any int. Read as the C++ enum, a value outside its
  // range is undefined (UBSan's enum check stops there), so read the bytes.
  static_assert(sizeof(hclvm_status) == sizeof(int));
  int code;
  std::memcpy(&code, &status, sizeof code);
  switch (code) {
    case HCLVM_OK:
      return "ok";
    case HCLVM_ERR_INVALID_ARGUMENT:
      return "invalid argument";
    case HCLVM_ERR_PARSE:
      return "parse error";
    case HCLVM_ERR_EVAL:
      return "evaluation error";
    case HCLVM_ERR_LIMIT:
      return "evaluation limit exceeded";
    case HCLVM_ERR_IO:
      return "input/output error";
    case HCLVM_ERR_NO_MEMORY:
      return "out of memory";
    case HCLVM_ERR_NOT_FOUND:
      return "not found";
    case HCLVM_ERR_TYPE:
      return "wrong type";
    case HCLVM_ERR_INTERNAL:
      return "internal error";
  }
  return "unknown status";
}

const char* hclvm_last_error(void) { return t_last_error.c_str(); }

void hclvm_string_free(char* s) { std::free(s); }

// --- diagnostics ------------------------------------------------------------------------

size_t hclvm_diagnostics_count(const hclvm_diagnostics* diags) {
  return diags ? diags->list.size() : 0;
}

int hclvm_diagnostics_has_errors(const hclvm_diagnostics* diags) {
  return diags && has_errors(diags->list) ? 1 : 0;
}

hclvm_status hclvm_diagnostics_get(const hclvm_diagnostics* diags, size_t index,
                                   hclvm_diagnostic* out) {
  return guard([&] {
    if (diags == nullptr || out == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "diags and out are required");
    if (index >= diags->list.size())
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "diagnostic index out of range");
    const Diagnostic& d = diags->list[index];
    auto range = [](const Range& r) {
      return hclvm_range{r.filename.c_str(),
                         {r.start.line, r.start.column, r.start.byte},
                         {r.end.line, r.end.column, r.end.byte}};
    };
    *out = hclvm_diagnostic{};
    out->severity = d.severity == Severity::Error ? HCLVM_SEVERITY_ERROR : HCLVM_SEVERITY_WARNING;
    out->summary = d.summary.c_str();
    out->detail = d.detail.c_str();
    if (d.subject) {
      out->has_subject = 1;
      out->subject = range(*d.subject);
    }
    if (d.context) {
      out->has_context = 1;
      out->context = range(*d.context);
    }
    return HCLVM_OK;
  });
}

hclvm_status hclvm_diagnostics_text(const hclvm_diagnostics* diags, unsigned width, int color,
                                    char** out) {
  return guard([&] {
    if (out != nullptr) *out = nullptr;
    if (diags == nullptr || out == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "diags and out are required");
    TextOptions style;
    style.width = width;
    style.color = color != 0;
    if (diags->sources) {
      config::RenderOptions ro;
      if (width > 0) ro.width = width;
      *out = dup_string(config::render_diagnostics(diags->list, *diags->sources, ro));
      return HCLVM_OK;
    }
    *out = dup_string(diags->file ? diagnostics_text(diags->list, *diags->file, style)
                                  : diagnostics_text(diags->list, diags->source.get(), style));
    return HCLVM_OK;
  });
}

hclvm_status hclvm_diagnostics_write_text(const hclvm_diagnostics* diags, unsigned width,
                                          int color, hclvm_write_fn write, void* user_data) {
  return guard([&] {
    if (diags == nullptr || write == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "diags and write are required");
    TextOptions style;
    style.width = width;
    style.color = color != 0;
    auto sink = [write, user_data](std::string_view s) {
      if (write(user_data, s.data(), s.size()) != 0) throw WriteStopped{};
    };
    try {
      if (diags->file)
        write_diagnostics_text(diags->list, *diags->file, style, sink);
      else
        write_diagnostics_text(diags->list, diags->source.get(), style, sink);
    } catch (const WriteStopped&) {
      return fail(HCLVM_ERR_IO, "the write callback stopped the writing");
    }
    return HCLVM_OK;
  });
}

hclvm_status hclvm_diagnostics_json(const hclvm_diagnostics* diags, char** out) {
  return guard([&] {
    if (out != nullptr) *out = nullptr;
    if (diags == nullptr || out == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "diags and out are required");
    *out = dup_string(diagnostics_json(diags->list));
    return HCLVM_OK;
  });
}

void hclvm_diagnostics_free(hclvm_diagnostics* diags) { delete diags; }

// --- compiling ----------------------------------------------------------------------------

hclvm_status hclvm_compile_expression(const char* text, size_t len, const char* filename,
                                      hclvm_program** out, hclvm_diagnostics** diags) {
  return guard([&] { return compile_expr(text, len, filename, out, diags, false); });
}

hclvm_status hclvm_compile_template(const char* text, size_t len, const char* filename,
                                    hclvm_program** out, hclvm_diagnostics** diags) {
  return guard([&] { return compile_expr(text, len, filename, out, diags, true); });
}

hclvm_status hclvm_compile_file(const char* filename, const char* bytes, size_t len,
                                hclvm_syntax syntax, hclvm_program** out,
                                hclvm_diagnostics** diags) {
  return guard([&] {
    if (diags != nullptr) *diags = nullptr;
    if (out != nullptr) *out = nullptr;
    if (filename == nullptr || bytes == nullptr || out == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "filename, bytes and out are required");
    auto src = make_source(filename, std::string(text_of(bytes, len)));
    return finish_file(compile_file(src, syntax_for(syntax, filename)), out, diags);
  });
}

hclvm_status hclvm_compile_file_path(const char* path, hclvm_syntax syntax, hclvm_program** out,
                                     hclvm_diagnostics** diags) {
  return guard([&] {
    if (diags != nullptr) *diags = nullptr;
    if (out != nullptr) *out = nullptr;
    if (path == nullptr || out == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "path and out are required");
    std::string bytes, err;
    if (!read_file(path, bytes, err)) return fail(HCLVM_ERR_IO, err);
    auto src = make_source(path, std::move(bytes));
    return finish_file(compile_file(src, syntax_for(syntax, path)), out, diags);
  });
}

void hclvm_program_free(hclvm_program* prog) { delete prog; }

hclvm_program_kind hclvm_program_kind_of(const hclvm_program* prog) {
  return prog ? prog->kind : HCLVM_PROGRAM_EXPRESSION;
}

const hclvm_body* hclvm_program_body(const hclvm_program* prog) {
  return prog && prog->kind == HCLVM_PROGRAM_FILE ? &prog->root : nullptr;
}

// --- bodies ---------------------------------------------------------------------------------

size_t hclvm_body_attribute_count(const hclvm_body* body) {
  return body ? body->body->attributes.size() : 0;
}

const char* hclvm_body_attribute_name(const hclvm_body* body, size_t index) {
  if (body == nullptr || index >= body->body->attributes.size()) return nullptr;
  return body->body->attributes[index].name.c_str();
}

size_t hclvm_body_block_count(const hclvm_body* body) {
  return body ? body->body->blocks.size() : 0;
}

const char* hclvm_body_block_type(const hclvm_body* body, size_t index) {
  if (body == nullptr || index >= body->body->blocks.size()) return nullptr;
  return body->body->blocks[index].type.c_str();
}

size_t hclvm_body_block_label_count(const hclvm_body* body, size_t index) {
  if (body == nullptr || index >= body->body->blocks.size()) return 0;
  return body->body->blocks[index].labels.size();
}

const char* hclvm_body_block_label(const hclvm_body* body, size_t index, size_t label) {
  if (body == nullptr || index >= body->body->blocks.size()) return nullptr;
  const std::vector<std::string>& labels = body->body->blocks[index].labels;
  return label < labels.size() ? labels[label].c_str() : nullptr;
}

const hclvm_body* hclvm_body_block_body(const hclvm_body* body, size_t index) {
  if (body == nullptr || index >= body->blocks.size()) return nullptr;
  return &body->blocks[index];
}

// --- the cache ---------------------------------------------------------------------------------

hclvm_status hclvm_cache_open(const char* dir, uint64_t max_bytes, hclvm_cache** out) {
  return guard([&] {
    if (out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "out is required");
    *out = nullptr;
    CacheOptions o;
    if (dir != nullptr) o.dir = dir;
    if (max_bytes != 0) o.max_bytes = max_bytes;
    *out = new hclvm_cache{Cache(std::move(o))};
    return HCLVM_OK;
  });
}

void hclvm_cache_free(hclvm_cache* cache) { delete cache; }

const char* hclvm_cache_dir(const hclvm_cache* cache) {
  return cache ? cache->cache.dir().c_str() : nullptr;
}

hclvm_status hclvm_cache_clear(const hclvm_cache* cache, size_t* removed) {
  return guard([&] {
    if (removed != nullptr) *removed = 0;
    if (cache == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "cache is required");
    size_t n = cache->cache.clear();
    if (removed != nullptr) *removed = n;
    return HCLVM_OK;
  });
}

hclvm_status hclvm_cache_load(const hclvm_cache* cache, const char* filename, const char* bytes,
                              size_t len, hclvm_syntax syntax, hclvm_program** out,
                              hclvm_diagnostics** diags, hclvm_cache_outcome* outcome) {
  return guard([&] {
    if (diags != nullptr) *diags = nullptr;
    if (out != nullptr) *out = nullptr;
    if (cache == nullptr || filename == nullptr || bytes == nullptr || out == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "cache, filename, bytes and out are required");
    return cache_load(cache, filename, std::string(text_of(bytes, len)), syntax, out, diags,
                      outcome);
  });
}

hclvm_status hclvm_cache_load_path(const hclvm_cache* cache, const char* path, hclvm_syntax syntax,
                                   hclvm_program** out, hclvm_diagnostics** diags,
                                   hclvm_cache_outcome* outcome) {
  return guard([&] {
    if (diags != nullptr) *diags = nullptr;
    if (out != nullptr) *out = nullptr;
    if (cache == nullptr || path == nullptr || out == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "cache, path and out are required");
    std::string bytes, err;
    if (!read_file(path, bytes, err)) return fail(HCLVM_ERR_IO, err);
    return cache_load(cache, path, std::move(bytes), syntax, out, diags, outcome);
  });
}

}  // extern "C"
