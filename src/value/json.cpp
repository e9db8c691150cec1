// cty's JSON forms of values and types (see json.h).
//
// Reading is built on a reimplementation of the parts of Go's
// encoding/json that cty uses (value/go_json.h): the byte-level scanner (its states and
// error messages), and json.Decoder's token stream (Token, More, and Decode
// into json.RawMessage, a string, an interface{} or the few Go types cty
// decodes types into). The cty-level readers then follow the reference
// function for function: each nested value is read as a raw JSON slice and
// decoded again by a fresh decoder, exactly as cty does, so that every
// error is the reference's error, reached in the reference's order.
//
// Two things keep that affordable. Decoding a nested value's bytes again at
// every level would scan a document once per level of nesting (and a
// 10,000-level one 10,000 times); instead one scan of the whole document
// records where each array and object ends (ValueIndex), and a decoder that
// would scan one of them again takes its length from there. And the
// readers and the writer recurse once per level, as the reference does on
// Go's growable stacks: they run within a stack budget (util/stack.h) and
// start over on a big stack when input nests deeper than the caller's
// stack affords.
#include "value/json.h"

#include "util/meter.h"
#include "util/stack.h"
#include "util/unicode.h"
#include "value/go_json.h"
#include "value/ops.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <unordered_map>
#include <utility>

namespace hclvm {

namespace {

using namespace gojson;

// --- paths and errors ---------------------------------------------------------

PathStep attr_step(std::string_view name) { return PathStep::attr(name); }
PathStep index_step(Value key) { return PathStep::index(std::move(key)); }

// cty's Path.NewErrorf: [msg] at [path].
JsonError path_error(const Path& path, std::string msg, int64_t offset = -1) {
  return JsonError{std::move(msg), path, offset};
}

// cty's Path.NewError on a syntax error.
JsonError path_error(const Path& path, const SyntaxErr& e) {
  return JsonError{e.msg, path, e.offset};
}

// cty's Path.NewError on an error that has a path of its own: the paths join.
JsonError path_wrap(const Path& path, JsonError inner) {
  Path joined = path;
  joined.insert(joined.end(), inner.path.begin(), inner.path.end());
  inner.path = std::move(joined);
  return inner;
}

// What the readers of one document share: the index of its values (or
// null) and the stack budget of the current try.
struct ReadCtx {
  const ValueIndex* index;
  const util::StackBudget& budget;
};

// --- types to JSON ------------------------------------------------------------

// Appends [t] as JSON to [out] (cty Type.MarshalJSON) within the stack
// [budget], counting the text with [meter] (a type that repeats a shared
// part writes it out every time); capsules set [err].
bool write_type(const Type* t, std::string& out, std::string& err,
                const util::StackBudget& budget, util::TextMeter& meter) {
  if (budget.exhausted()) {
    err = "exceeded max depth";
    return false;
  }
  meter.check();
  switch (t->kind()) {
    case TypeKind::Bool: out += "\"bool\""; return true;
    case TypeKind::Number: out += "\"number\""; return true;
    case TypeKind::String: out += "\"string\""; return true;
    case TypeKind::Dynamic: out += "\"dynamic\""; return true;
    case TypeKind::List:
    case TypeKind::Map:
    case TypeKind::Set:
      out += t->is_list() ? "[\"list\"," : t->is_map() ? "[\"map\"," : "[\"set\",";
      if (!write_type(t->element(), out, err, budget, meter)) return false;
      out += ']';
      return true;
    case TypeKind::Object: {
      out += "[\"object\",{";
      for (size_t i = 0; i < t->size(); ++i) {
        if (i) out += ',';
        uni::append_json_quoted(out, t->attr_name(i));
        out += ':';
        if (!write_type(t->attr_type(i), out, err, budget, meter)) return false;
      }
      out += '}';
      if (t->has_optional_attrs()) {
        out += ",[";
        bool first = true;
        for (size_t i = 0; i < t->size(); ++i) {
          if (!t->attr_optional(i)) continue;
          if (!first) out += ',';
          first = false;
          uni::append_json_quoted(out, t->attr_name(i));
        }
        out += ']';
      }
      out += ']';
      return true;
    }
    case TypeKind::Tuple:
      out += "[\"tuple\",[";
      for (size_t i = 0; i < t->size(); ++i) {
        if (i) out += ',';
        if (!write_type(t->tuple_element(i), out, err, budget, meter)) return false;
      }
      out += "]]";
      return true;
    case TypeKind::Capsule: err = "type not allowed: " + t->friendly_name(); return false;
  }
  return false;
}

// write_type() onto [out], counted from its present size on.
bool write_type(const Type* t, std::string& out, std::string& err,
                const util::StackBudget& budget) {
  util::TextMeter meter(out, util::TextMeter::Use::StringValue);
  return write_type(t, out, err, budget, meter);
}

// --- types from JSON ----------------------------------------------------------

const Type* read_type(std::string_view buf, int64_t base, const ReadCtx& cx, SyntaxErr& e);

// The name of the JSON kind of raw value [raw] in Go's UnmarshalTypeError.
const char* go_kind(std::string_view raw) {
  switch (raw[0]) {
    case '{': return "object";
    case '[': return "array";
    case '"': return "string";
    case 't':
    case 'f': return "bool";
    default: return "number";
  }
}

// Decodes the raw value [raw] (at [at]) into a Go map[string]cty.Type;
// null leaves the map empty, as Go does.
bool read_attr_types(std::string_view raw, int64_t at, const ReadCtx& cx,
                     std::vector<std::pair<std::string, const Type*>>& out, SyntaxErr& e) {
  if (raw[0] == 'n') return true;
  if (raw[0] != '{') {
    e = {std::string("json: cannot unmarshal ") + go_kind(raw) +
             " into Go value of type map[string]cty.Type",
         at};
    return false;
  }
  Decoder dec(raw, at, false, cx.index);
  Tok t;
  dec.token(t, e);  // the {
  while (dec.more()) {
    if (!dec.token(t, e)) return false;
    std::string key(t.str);
    std::string_view v;
    int64_t vat;
    if (!dec.decode(v, e, &vat)) return false;
    const Type* ty = read_type(v, vat, cx, e);
    if (!ty) return false;
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& p) { return p.first == key; });
    if (it != out.end())
      it->second = ty;
    else
      out.emplace_back(std::move(key), ty);
  }
  return true;
}

// Decodes the raw value [raw] into a Go []cty.Type; null leaves it empty.
bool read_type_list(std::string_view raw, int64_t at, const ReadCtx& cx,
                    std::vector<const Type*>& out, SyntaxErr& e) {
  if (raw[0] == 'n') return true;
  if (raw[0] != '[') {
    e = {
        std::string("json: cannot unmarshal ") + go_kind(raw) + " into Go value of type []cty.Type",
        at};
    return false;
  }
  Decoder dec(raw, at, false, cx.index);
  Tok t;
  dec.token(t, e);  // the [
  while (dec.more()) {
    std::string_view v;
    int64_t vat;
    if (!dec.decode(v, e, &vat)) return false;
    const Type* ty = read_type(v, vat, cx, e);
    if (!ty) return false;
    out.push_back(ty);
  }
  return true;
}

// Decodes the raw value [raw] into a Go []string: elements that are not
// strings are an error (the first one is reported, after the rest is read).
bool read_string_list(std::string_view raw, int64_t at, const ReadCtx& cx,
                      std::vector<std::string>& out, SyntaxErr& e) {
  if (raw[0] == 'n') return true;
  if (raw[0] != '[') {
    e = {std::string("json: cannot unmarshal ") + go_kind(raw) + " into Go value of type []string",
         at};
    return false;
  }
  Decoder dec(raw, at, false, cx.index);
  Tok t;
  dec.token(t, e);  // the [
  std::optional<SyntaxErr> first;
  while (dec.more()) {
    std::string_view v;
    int64_t vat;
    if (!dec.decode(v, e, &vat)) return false;
    if (v[0] == '"') {
      out.push_back(unquote(v));
    } else {
      out.emplace_back();  // null and mistyped elements leave the zero string
      if (v[0] != 'n' && !first)
        first = SyntaxErr{
            std::string("json: cannot unmarshal ") + go_kind(v) + " into Go value of type string",
            vat};
    }
  }
  if (first) {
    e = *first;
    return false;
  }
  return true;
}

// The rest of ["object",{...},[...]] after the kind, from [dec]: the
// attribute types and the optional names. (Apart from read_type so that
// its locals stay off the stack of the recursion through read_type.)
[[gnu::noinline]]
const Type* read_object_type(Decoder& dec, const ReadCtx& cx, SyntaxErr& e) {
  std::string_view raw;
  int64_t at;
  std::vector<std::pair<std::string, const Type*>> atys;
  if (!dec.decode(raw, e, &at) || !read_attr_types(raw, at, cx, atys, e)) return nullptr;
  std::vector<std::string> optional;
  if (dec.more()) {
    if (!dec.decode(raw, e, &at) || !read_string_list(raw, at, cx, optional, e)) return nullptr;
  }
  std::vector<TypeAttr> attrs;
  for (const auto& [name, ty] : atys) attrs.push_back(TypeAttr{name, ty, false});
  for (const std::string& name : optional) {
    auto it = std::find_if(attrs.begin(), attrs.end(),
                           [&](const TypeAttr& a) { return a.name == name; });
    // cty panics here ("optional contains undeclared attribute").
    if (it == attrs.end()) {
      e = {"optional attribute " + uni::go_quote(name) + " is not declared", -1};
      return nullptr;
    }
    it->optional = true;
  }
  return Type::object(attrs);
}

// The tuple type of ["tuple",[...]]: [raw] (at [at]) is the element list.
[[gnu::noinline]]
const Type* read_tuple_type(std::string_view raw, int64_t at, const ReadCtx& cx, SyntaxErr& e) {
  std::vector<const Type*> etys;
  if (!read_type_list(raw, at, cx, etys, e)) return nullptr;
  return Type::tuple(etys);
}

// cty's Type.UnmarshalJSON on [buf] (at offset [base]); null on error.
const Type* read_type(std::string_view buf, int64_t base, const ReadCtx& cx, SyntaxErr& e) {
  Decoder dec(buf, base, false, cx.index);
  Tok tok;
  if (!dec.token(tok, e)) return nullptr;
  if (tok.kind == Tok::Delim && cx.budget.exhausted()) {
    e = {too_deep_message(tok.delim), base};
    return nullptr;
  }
  auto fail = [&](std::string msg) -> const Type* {
    e = {std::move(msg), -1};
    return nullptr;
  };
  if (tok.kind == Tok::String) {
    const Type* t = nullptr;
    if (tok.str == "bool")
      t = Type::boolean();
    else if (tok.str == "number")
      t = Type::number();
    else if (tok.str == "string")
      t = Type::string();
    else if (tok.str == "dynamic")
      t = Type::dynamic();
    else
      return fail("invalid primitive type name " + uni::go_quote(tok.str));
    if (dec.more()) return fail("extraneous data after type description");
    return t;
  }
  if (tok.kind != Tok::Delim) return fail("invalid type description");
  if (tok.delim != '[') return fail("invalid complex type description");
  if (!dec.token(tok, e)) return nullptr;
  if (tok.kind != Tok::String) return fail("invalid complex type kind name");
  const Type* t = nullptr;
  std::string_view raw;
  int64_t at;
  const std::string kind(tok.str);
  if (kind == "list" || kind == "map" || kind == "set") {
    if (!dec.decode(raw, e, &at)) return nullptr;
    const Type* ety = read_type(raw, at, cx, e);
    if (!ety) return nullptr;
    t = kind == "list" ? Type::list(ety) : kind == "map" ? Type::map(ety) : Type::set(ety);
  } else if (kind == "object") {
    if (!(t = read_object_type(dec, cx, e))) return nullptr;
  } else if (kind == "tuple") {
    if (!dec.decode(raw, e, &at) || !(t = read_tuple_type(raw, at, cx, e))) return nullptr;
  } else {
    return fail("invalid complex type kind name");
  }
  if (!dec.token(tok, e)) return nullptr;
  if (tok.kind != Tok::Delim || tok.delim != ']' || dec.more())
    return fail("unexpected extra data in type description");
  return t;
}

// --- implied types --------------------------------------------------------------

const Type* implied_for_tok(const Tok& tok, Decoder& dec, const util::StackBudget& budget,
                            SyntaxErr& e);

// The object type of the object whose { was just read.
[[gnu::noinline]]
const Type* implied_object(Decoder& dec, const util::StackBudget& budget, SyntaxErr& e) {
  // The attributes as read. A repeated name is looked for in the list while
  // it is short, and in a hash table once it is not.
  constexpr size_t kShort = 16;
  std::vector<std::pair<std::string, const Type*>> atys;
  std::unordered_map<std::string, size_t> by_name;
  auto find = [&](const std::string& name) -> const Type** {
    if (by_name.empty()) {
      for (auto& [n, t] : atys)
        if (n == name) return &t;
      return nullptr;
    }
    auto it = by_name.find(name);
    return it == by_name.end() ? nullptr : &atys[it->second].second;
  };
  for (;;) {
    Tok tok;
    if (!dec.token(tok, e)) return nullptr;
    if (tok.kind == Tok::Delim) {
      if (tok.delim != '}') {
        e = {"unexpected delimiter " + uni::go_quote(std::string(1, tok.delim)), -1};
        return nullptr;
      }
      break;
    }
    if (tok.kind != Tok::String) {
      e = {std::string("expected string but found ") + (tok.kind == Tok::Number ? "json.Number"
                                                        : tok.kind == Tok::Bool ? "bool"
                                                                                : "<nil>"),
           -1};
      return nullptr;
    }
    std::string key(tok.str);
    if (!dec.token(tok, e)) return nullptr;
    const Type* aty = implied_for_tok(tok, dec, budget, e);
    if (!aty) return nullptr;
    if (const Type** seen = find(key)) {
      // Repeated properties must agree on their type (cty 1.14).
      if (*seen != aty) {
        e = {"duplicate " + uni::go_quote(key) + " property in JSON object", -1};
        return nullptr;
      }
      continue;
    }
    if (!by_name.empty()) {
      by_name.emplace(key, atys.size());
    } else if (atys.size() == kShort) {
      for (size_t i = 0; i < atys.size(); ++i) by_name.emplace(atys[i].first, i);
      by_name.emplace(key, atys.size());
    }
    atys.emplace_back(std::move(key), aty);
  }
  std::sort(atys.begin(), atys.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<TypeAttr> attrs;
  attrs.reserve(atys.size());
  for (const auto& [name, ty] : atys) attrs.push_back(TypeAttr{name, ty, false});
  return Type::object(attrs);
}

// The tuple type of the array whose [ was just read.
[[gnu::noinline]]
const Type* implied_tuple(Decoder& dec, const util::StackBudget& budget, SyntaxErr& e) {
  std::vector<const Type*> etys;
  for (;;) {
    Tok tok;
    if (!dec.token(tok, e)) return nullptr;
    if (tok.kind == Tok::Delim && tok.delim == ']') break;
    const Type* ety = implied_for_tok(tok, dec, budget, e);
    if (!ety) return nullptr;
    etys.push_back(ety);
  }
  return Type::tuple(etys);
}

// The type implied by the value that starts with [tok].
const Type* implied_for_tok(const Tok& tok, Decoder& dec, const util::StackBudget& budget,
                            SyntaxErr& e) {
  // The reference has no limit here but the stack's.
  if (tok.kind == Tok::Delim && budget.exhausted()) {
    e = {too_deep_message(tok.delim), -1};
    return nullptr;
  }
  switch (tok.kind) {
    case Tok::Null: return Type::dynamic();
    case Tok::Bool: return Type::boolean();
    case Tok::Number: return Type::number();
    case Tok::String: return Type::string();
    case Tok::Delim:
      if (tok.delim == '{') return implied_object(dec, budget, e);
      if (tok.delim == '[') return implied_tuple(dec, budget, e);
      e = {"unexpected token " + uni::go_quote(std::string(1, tok.delim)), -1};
      return nullptr;
  }
  return nullptr;
}

// --- values from JSON -------------------------------------------------------

// A step of [path] for the elements of a collection being read or
// written: pushed when first set, popped when the collection is done.
class ElementStep {
 public:
  explicit ElementStep(Path& path) : path_(path) {}
  ~ElementStep() {
    if (pushed_) path_.pop_back();
  }
  ElementStep(const ElementStep&) = delete;
  ElementStep& operator=(const ElementStep&) = delete;

  void set(PathStep step) {
    if (pushed_) {
      path_.back() = std::move(step);
    } else {
      path_.push_back(std::move(step));
      pushed_ = true;
    }
  }

 private:
  Path& path_;
  bool pushed_ = false;
};

// The object of type [t] read with attribute values [vals] ([seen]: which
// the document had; the others are nulls): of type [t] itself unless [t]
// has dynamic or optional attributes, else of the values' own types
// (cty.ObjectVal; the names are sorted).
Value finish_object(const Type* t, std::vector<Value> vals, const std::vector<bool>& seen) {
  for (size_t i = 0; i < t->size(); ++i)
    if (!seen[i]) vals[i] = Value::null(t->attr_type(i));
  if (!t->has_dynamic_types() && !t->has_optional_attrs()) return Value::object(t, std::move(vals));
  std::vector<TypeAttr> attrs;
  attrs.reserve(t->size());
  for (size_t i = 0; i < t->size(); ++i) attrs.push_back({t->attr_name(i), vals[i].type(), false});
  return Value::object(Type::object(attrs), std::move(vals));
}

// cty's unmarshal functions, one for each kind of type, each reading its
// value's raw bytes [buf] (at [base]) with a decoder of its own.
class Reader {
 public:
  explicit Reader(const ReadCtx& cx) : cx_(cx) {}

  // Reads [buf] (at [base]) as a value of type [t] at [path] into [out].
  bool unmarshal(std::string_view buf, int64_t base, const Type* t, Path& path, Value& out) {
    // The reference reads the first token to see what comes. An opening
    // bracket is that token whatever follows, so it is looked at directly:
    // this function recurses once per level of nesting, and the decoder a
    // literal needs stays off that path.
    char open = first_byte(buf);
    if (open != '[' && open != '{') return unmarshal_literal(buf, base, t, path, out);
    if (cx_.budget.exhausted()) return fail(path_error(path, too_deep_message(open), base));
    if (t->is_dynamic()) return unmarshal_dynamic(buf, base, path, out);
    switch (t->kind()) {
      case TypeKind::String:
      case TypeKind::Number:
      case TypeKind::Bool: {
        Tok tok;
        tok.kind = Tok::Delim;
        tok.delim = open;
        return unmarshal_primitive(tok, t, path, out);
      }
      default: return unmarshal_composite(buf, base, t, path, out);
    }
  }

  JsonError error;

 private:
  const ReadCtx& cx_;

  // The first byte of [buf] that is not white space, or 0.
  static char first_byte(std::string_view buf) {
    for (char c : buf)
      if (!is_space(static_cast<unsigned char>(c))) return c;
    return 0;
  }

  // unmarshal() for input that does not start with a bracket.
  [[gnu::noinline]]
  bool unmarshal_literal(std::string_view buf, int64_t base, const Type* t, Path& path,
                         Value& out) {
    // A literal of a document the index has scanned is its own token: the
    // decoder would find just that. (What it would then do with other
    // types is left to it.)
    if (cx_.index) {
      size_t at = 0;
      while (at < buf.size() && is_space(static_cast<unsigned char>(buf[at]))) ++at;
      if (size_t len = at < buf.size() ? cx_.index->literal_length_at(buf.data() + at) : 0) {
        Tok tok;
        tok.set_literal(buf.substr(at, len));
        if (tok.kind == Tok::Null) {
          out = Value::null(t);
          return true;
        }
        if (t->is_primitive()) return unmarshal_primitive(tok, t, path, out);
      }
    }
    Decoder dec(buf, base, true, cx_.index);
    Tok tok;
    SyntaxErr e;
    if (!dec.token(tok, e)) return fail(path_error(path, e));
    if (tok.kind == Tok::Null) {
      out = Value::null(t);
      return true;
    }
    if (t->is_dynamic()) return unmarshal_dynamic(buf, base, path, out);
    if (t->is_primitive()) return unmarshal_primitive(tok, t, path, out);
    return unmarshal_composite(buf, base, t, path, out);
  }

  // unmarshal() for collection and structural types [t].
  bool unmarshal_composite(std::string_view buf, int64_t base, const Type* t, Path& path,
                           Value& out) {
    switch (t->kind()) {
      case TypeKind::List:
      case TypeKind::Set: return unmarshal_sequence(buf, base, t, path, out);
      case TypeKind::Map: return unmarshal_map(buf, base, t->element(), path, out);
      case TypeKind::Tuple: return unmarshal_tuple(buf, base, t, path, out);
      case TypeKind::Object: return unmarshal_object(buf, base, t, path, out);
      default: return fail(path_error(path, "unsupported type " + t->friendly_name()));
    }
  }

  // Records [e]; returns false.
  bool fail(JsonError e) {
    error = std::move(e);
    return false;
  }

  // Reads the delimiter [d] or fails.
  bool require_delim(Decoder& dec, char d, const Path& path) {
    Tok tok;
    SyntaxErr e;
    if (!dec.token(tok, e)) return fail(path_error(path, e));
    if (tok.kind != Tok::Delim || tok.delim != d)
      return fail(path_error(path, std::string("missing expected ") + d));
    return true;
  }

  // Reads an object key into [key] or fails.
  bool require_key(Decoder& dec, std::string& key, SyntaxErr& e) {
    Tok tok;
    if (!dec.token(tok, e)) return false;
    if (tok.kind != Tok::String) {
      e = {"missing expected object key", -1};
      return false;
    }
    key = tok.str;
    return true;
  }

  // Reads the primitive of type [t] that token [tok] is.
  [[gnu::noinline]]
  bool unmarshal_primitive(const Tok& tok, const Type* t, const Path& path, Value& out) {
    if (t == Type::boolean()) {
      if (tok.kind == Tok::Bool) {
        out = Value::boolean(tok.boolean);
        return true;
      }
      if (tok.kind == Tok::String) return string_to_bool(tok.str, path, out);
      return fail(path_error(path, "bool is required"));
    }
    if (t == Type::number()) {
      std::string_view text;
      if (tok.kind == Tok::Number)
        text = tok.num;
      else if (tok.kind == Tok::String)
        text = tok.str;
      else
        return fail(path_error(path, "number is required"));
      std::optional<Number> n = Number::parse(text);
      if (!n) return fail(path_error(path, "a number is required"));
      out = Value::number(std::move(*n));
      return true;
    }
    switch (tok.kind) {
      case Tok::String: out = Value::string(tok.str); return true;
      case Tok::Number: out = Value::string(tok.num); return true;
      case Tok::Bool: out = Value::string(tok.boolean ? "true" : "false"); return true;
      default: return fail(path_error(path, "string is required"));
    }
  }

  // cty's conversion of a string to bool (convert.Convert).
  bool string_to_bool(std::string_view s, const Path& path, Value& out) {
    ConvertResult r = convert(Value::string(s), Type::boolean());
    if (!r.ok()) return fail(path_wrap(path, JsonError{r.error().message, r.error().path, -1}));
    out = r.take();
    return true;
  }

  // Reads the next value of [dec] as a value of type [t] at [path] into
  // [el]; a syntax error fails as "failed to read [what] value: ...".
  bool read_element(Decoder& dec, const char* what, const Type* t, Path& path, Value& el) {
    std::string_view raw;
    int64_t at;
    SyntaxErr e;
    if (!dec.decode(raw, e, &at))
      return fail(path_error(path, std::string("failed to read ") + what + " value: " + e.msg,
                             e.offset));
    return unmarshal(raw, at, t, path, el);
  }

  // The element type cty's ListVal, SetVal and MapVal give the [n] values
  // read ([at](i) is the i-th): the first one's that is not the dynamic
  // pseudo-type, else [declared]. Values of other types fail (cty panics)
  // as "inconsistent [what] element types"; nulls of the dynamic
  // pseudo-type take the element type on (cty keeps them as they are
  // inside a typed collection). Null when it fails.
  template <class At>
  const Type* collection_type(size_t n, At at, const Type* declared, const char* what,
                              const Path& path) {
    const Type* ety = declared;
    for (size_t i = 0; i < n; ++i)
      if (!at(i).type()->is_dynamic()) {
        ety = at(i).type();
        break;
      }
    for (size_t i = 0; i < n; ++i) {
      Value& v = at(i);
      if (!v.type()->is_dynamic() && v.type() != ety) {
        fail(path_error(path, std::string("inconsistent ") + what + " element types"));
        return nullptr;
      }
      if (v.is_null() && v.type() != ety) v = Value::null(ety);
    }
    return ety;
  }

  // Reads a list or set of type [t].
  [[gnu::noinline]]
  bool unmarshal_sequence(std::string_view buf, int64_t base, const Type* t, Path& path,
                          Value& out) {
    const bool is_set = t->is_set();
    const char* what = is_set ? "set" : "list";
    const Type* ety = t->element();
    Decoder dec(buf, base, true, cx_.index);
    if (!require_delim(dec, '[', path)) return false;
    std::vector<Value> vals;
    {
      ElementStep step(path);
      while (dec.more()) {
        step.set(index_step(is_set ? Value::unknown(ety) : Value::integer(int64_t(vals.size()))));
        Value el;
        if (!read_element(dec, what, ety, path, el)) return false;
        vals.push_back(std::move(el));
      }
    }
    if (!require_delim(dec, ']', path)) return false;
    if (vals.empty()) {
      out = is_set ? Value::set(ety, {}) : Value::list(ety, {});
      return true;
    }
    const Type* vty =
        collection_type(vals.size(), [&](size_t i) -> Value& { return vals[i]; }, ety, what, path);
    if (!vty) return false;
    out = is_set ? Value::set(vty, std::move(vals)) : Value::list(vty, std::move(vals));
    return true;
  }

  // Reads a map of [ety].
  [[gnu::noinline]]
  bool unmarshal_map(std::string_view buf, int64_t base, const Type* ety, Path& path, Value& out) {
    Decoder dec(buf, base, true, cx_.index);
    if (!require_delim(dec, '{', path)) return false;
    std::map<std::string, Value> read;  // a repeated key keeps its last value
    {
      ElementStep step(path);
      SyntaxErr e;
      while (dec.more()) {
        step.set(index_step(Value::unknown(Type::string())));
        std::string k;
        if (!require_key(dec, k, e))
          return fail(path_error(path, "failed to read map key: " + e.msg, e.offset));
        step.set(index_step(Value::string(k)));
        Value el;
        if (!read_element(dec, "map", ety, path, el)) return false;
        read[std::move(k)] = std::move(el);
      }
    }
    if (!require_delim(dec, '}', path)) return false;
    std::vector<std::pair<std::string, Value>> vals(std::make_move_iterator(read.begin()),
                                                    std::make_move_iterator(read.end()));
    if (vals.empty()) {
      out = Value::map(ety, {});
      return true;
    }
    const Type* vty = collection_type(
        vals.size(), [&](size_t i) -> Value& { return vals[i].second; }, ety, "map", path);
    if (!vty) return false;
    out = Value::map(vty, std::move(vals));
    return true;
  }

  // Reads a tuple of type [t].
  [[gnu::noinline]]
  bool unmarshal_tuple(std::string_view buf, int64_t base, const Type* t, Path& path, Value& out) {
    Decoder dec(buf, base, true, cx_.index);
    if (!require_delim(dec, '[', path)) return false;
    std::vector<Value> vals;
    // cty reports the element count against the path without its last
    // step (and would crash at the top level, where there is none).
    const size_t depth = path.size();
    auto count_error = [&](const char* which) {
      Path short_path(path.begin(), path.begin() + long(depth ? depth - 1 : 0));
      return fail(path_error(short_path, std::string(which) + " tuple elements (need " +
                                             std::to_string(t->size()) + ")"));
    };
    {
      ElementStep step(path);
      while (dec.more()) {
        if (vals.size() >= t->size()) return count_error("too many");
        step.set(index_step(Value::integer(int64_t(vals.size()))));
        Value el;
        if (!read_element(dec, "tuple", t->tuple_element(vals.size()), path, el)) return false;
        vals.push_back(std::move(el));
      }
    }
    if (!require_delim(dec, ']', path)) return false;
    if (vals.size() != t->size()) return count_error("not enough");
    out = Value::tuple(std::move(vals));
    return true;
  }

  // Reads an object of type [t]; missing attributes are null.
  [[gnu::noinline]]
  bool unmarshal_object(std::string_view buf, int64_t base, const Type* t, Path& path, Value& out) {
    Decoder dec(buf, base, true, cx_.index);
    if (!require_delim(dec, '{', path)) return false;
    std::vector<Value> vals(t->size());
    std::vector<bool> seen(t->size());
    const size_t depth = path.size();
    {
      // cty's attribute path starts with an empty step, which later keys
      // overwrite: an error on the first key has no attribute step.
      ElementStep step(path);
      SyntaxErr e;
      size_t next = 0;
      while (dec.more()) {
        std::string k;
        if (!require_key(dec, k, e))
          return fail(path_error(path, "failed to read object key: " + e.msg, e.offset));
        // Documents mostly list attributes in the type's (sorted) order: the
        // one after the last is tried before a search.
        std::optional<size_t> i = next < t->size() && t->attr_name(next) == k
                                      ? std::optional<size_t>(next)
                                      : t->find_attr(k);
        if (!i) {
          Path obj_path(path.begin(), path.begin() + long(depth));
          return fail(path_error(obj_path, "unsupported attribute " + uni::go_quote(k)));
        }
        step.set(attr_step(k));
        if (!read_element(dec, "object", t->attr_type(*i), path, vals[*i])) return false;
        seen[*i] = true;
        next = *i + 1;
      }
    }
    if (!require_delim(dec, '}', path)) return false;
    out = finish_object(t, std::move(vals), seen);
    return true;
  }

  // Reads a {"value":…,"type":…} wrapper.
  [[gnu::noinline]]
  bool unmarshal_dynamic(std::string_view buf, int64_t base, Path& path, Value& out) {
    Decoder dec(buf, base, true, cx_.index);
    if (!require_delim(dec, '{', path)) return false;
    const Type* t = nullptr;
    std::optional<std::string_view> body;
    int64_t body_at = 0;
    SyntaxErr e;
    while (dec.more()) {
      std::string key;
      if (!require_key(dec, key, e))
        return fail(
            path_error(path, "failed to read dynamic type descriptor key: " + e.msg, e.offset));
      std::string_view raw;
      int64_t at;
      if (!dec.decode(raw, e, &at))
        return fail(
            path_error(path, "failed to read dynamic type descriptor value: " + e.msg, e.offset));
      if (key == "type") {
        t = read_type(raw, at, cx_, e);
        if (!t)
          return fail(
              path_error(path, "failed to decode type for dynamic value: " + e.msg, e.offset));
      } else if (key == "value") {
        body = raw;
        body_at = at;
      } else {
        return fail(
            path_error(path, "invalid key " + uni::go_quote(key) + " in dynamically-typed value"));
      }
    }
    if (!require_delim(dec, '}', path)) return false;
    if (!t) return fail(path_error(path, "missing type in dynamically-typed value"));
    if (!body) return fail(path_error(path, "missing value in dynamically-typed value"));
    Path inner;
    if (!unmarshal(*body, body_at, t, inner, out)) return fail(path_wrap(path, std::move(error)));
    return true;
  }
};

// --- values to JSON -----------------------------------------------------------

// Reports whether a value of type [given] can be written against [want]
// as it is (cty's Type.TestConformance finds nothing).
bool conforms(const Type* given, const Type* want) { return ops::type_conforms(given, want); }

// Writes values as cty's json.Marshal does, onto a string. The path of an
// error is gathered only when there is one: each level adds its step while
// the failure unwinds.
class Writer {
 public:
  Writer(const util::StackBudget& budget, std::string& out)
      : out_(out), budget_(budget), meter_(out, util::TextMeter::Use::StringValue) {}

  JsonError error;

  // Appends [v] written against [t]; on failure sets [error] (its path
  // relative to [v]).
  bool write(const Value& v, const Type* t) {
    if (marshal(v, t)) return true;
    error.path.assign(std::make_move_iterator(unwound_.rbegin()),
                      std::make_move_iterator(unwound_.rend()));
    return false;
  }

 private:
  std::string& out_;
  const util::StackBudget& budget_;
  // The text of a value that repeats a shared part may be far longer than
  // the value: counted as it grows (util/meter.h).
  util::TextMeter meter_;
  Path unwound_;  // the failure's steps, innermost first

  bool marshal(const Value& v, const Type* t) {
    meter_.check();
    if (v.is_marked()) return fail("value has marks, so it cannot be serialized as JSON");
    // The reference has no limit here but the stack's.
    if ((t->is_collection() || t->is_structural()) && budget_.exhausted())
      return fail("exceeded max depth");
    if (t->is_dynamic() && !v.type()->is_dynamic()) return marshal_dynamic(v);
    if (v.is_null()) {
      out_ += "null";
      return true;
    }
    if (!v.is_known()) return fail("value is not known");
    switch (t->kind()) {
      case TypeKind::String: uni::append_json_quoted(out_, v.as_string()); return true;
      case TypeKind::Number: {
        const Number& n = v.as_number();
        if (n.is_inf()) return fail("cannot serialize infinity as JSON");
        n.append_text(out_);
        return true;
      }
      case TypeKind::Bool: out_ += v.as_bool() ? "true" : "false"; return true;
      case TypeKind::List:
      case TypeKind::Set:
      case TypeKind::Map:
      case TypeKind::Tuple:
      case TypeKind::Object: return members(v, t);
      case TypeKind::Capsule: return fail("capsule values cannot be serialized as JSON");
      case TypeKind::Dynamic: break;
    }
    return fail("cannot JSON-serialize " + t->friendly_name());
  }

  // Records [msg] as the error; returns false.
  bool fail(std::string msg) {
    error = JsonError{std::move(msg), {}, -1};
    unwound_.clear();
    return false;
  }
  // Appends the elements or attributes of the collection or structure [v]
  // written against [t].
  bool members(const Value& v, const Type* t) {
    const bool keyed = t->is_map() || t->is_object();
    out_ += keyed ? '{' : '[';
    const size_t n = t->is_object() ? t->size() : v.length();
    for (size_t i = 0; i < n; ++i) {
      if (i) out_ += ',';
      const Value* el;
      const Type* ety = t->is_structural() ? nullptr : t->element();
      Value missing;
      switch (t->kind()) {
        case TypeKind::Map:
          uni::append_json_quoted(out_, v.map_key(i));
          out_ += ':';
          el = &v.map_value(i);
          break;
        case TypeKind::Object: {
          std::string_view name = t->attr_name(i);
          uni::append_json_quoted(out_, name);
          out_ += ':';
          ety = t->attr_type(i);
          el = v.attr(name);
          if (!el) el = &(missing = Value::null(ety));
          break;
        }
        case TypeKind::Tuple:
          ety = t->tuple_element(i);
          [[fallthrough]];
        default:  // list, set
          el = &v.element(i);
      }
      if (!marshal(*el, ety)) {
        switch (t->kind()) {
          case TypeKind::Map: unwound_.push_back(index_step(Value::string(v.map_key(i)))); break;
          case TypeKind::Object: unwound_.push_back(attr_step(t->attr_name(i))); break;
          case TypeKind::Set: unwound_.push_back(index_step(*el)); break;
          default: unwound_.push_back(index_step(Value::integer(int64_t(i))));
        }
        return false;
      }
    }
    out_ += keyed ? '}' : ']';
    return true;
  }

  // Wraps [v] with its type, for a reader that expects any type. As in the
  // reference, an error inside the value is not reported here: the bytes
  // written so far stay, and the wrapper is completed.
  bool marshal_dynamic(const Value& v) {
    std::string type_json, err;
    if (!write_type(v.type(), type_json, err, budget_))
      return fail("failed to serialize type: " + err);
    out_ += "{\"value\":";
    if (!marshal(v, v.type())) {
      error = JsonError();
      unwound_.clear();
    }
    out_ += ",\"type\":";
    out_ += type_json;
    out_ += '}';
    return true;
  }
};

// cty's convert.Convert of [v] to [t], for writing a value of another type.
bool convert_for_json(const Value& v, const Type* t, Value& out, JsonError& err) {
  ConvertResult r = convert(v, t);
  if (!r.ok()) {
    err = JsonError{r.error().message, r.error().path, -1};
    return false;
  }
  out = r.take();
  return true;
}

// Appends to_json() of [v] to [out] within the stack [budget].
std::optional<JsonError> marshal_value(const Value& v, const Type* t, std::string& out,
                                       const util::StackBudget& budget) {
  Value conv;
  const Value* val = &v;
  if (!conforms(v.type(), t)) {
    JsonError err;
    if (!convert_for_json(v, t, conv, err)) return err;
    val = &conv;
  }
  Writer w(budget, out);
  if (!w.write(*val, t)) return std::move(w.error);
  return std::nullopt;
}

// to_json() within the stack [budget].
JsonResult<std::string> marshal_value(const Value& v, const Type* t,
                                      const util::StackBudget& budget) {
  JsonResult<std::string> r;
  r.error = marshal_value(v, t, r.value, budget);
  if (r.error) r.value.clear();
  return r;
}

// from_json() with the [index] of [json].
// A fast reader for the common case: a well-formed document whose shape
// fits [t] exactly (what jsondecode reads after the implied type, and most
// variable files). One pass, no raw slices decoded again, no error
// messages: anything it does not take for certain (a syntax error, a key
// the type lacks, a key twice, a conversion that could fail, collection
// types, very deep nesting) makes it give up, and the faithful reader
// above reads the document instead, reaching the reference's answer and
// errors. What it accepts it reads as the faithful reader would.
class FastReader {
 public:
  explicit FastReader(std::string_view doc) : doc_(doc) {}

  // Reads the whole document as a value of type [t]; false: give up.
  bool read(const Type* t, Value& out) {
    if (!value(t, out, 0)) return false;
    space();
    return at_ == doc_.size();
  }

  // Reads the whole document as a value of the type its structure implies
  // (the implied type and the reading in one pass); false: give up.
  bool read_implied(Value& out) {
    if (!implied(out, 0)) return false;
    space();
    return at_ == doc_.size();
  }

 private:
  static constexpr int kMaxDepth = 256;

  void space() {
    while (at_ < doc_.size() && is_space(static_cast<unsigned char>(doc_[at_]))) ++at_;
  }
  bool eat(char c) {
    space();
    if (at_ < doc_.size() && doc_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  bool digits() {
    size_t from = at_;
    while (at_ < doc_.size() && doc_[at_] >= '0' && doc_[at_] <= '9') ++at_;
    return at_ > from;
  }

  // A number literal by JSON's grammar, as text.
  bool number(std::string_view& text) {
    size_t from = at_;
    if (at_ < doc_.size() && doc_[at_] == '-') ++at_;
    if (at_ < doc_.size() && doc_[at_] == '0') {
      ++at_;
    } else if (!digits()) {
      return false;
    }
    if (at_ < doc_.size() && doc_[at_] == '.') {
      ++at_;
      if (!digits()) return false;
    }
    if (at_ < doc_.size() && (doc_[at_] == 'e' || doc_[at_] == 'E')) {
      ++at_;
      if (at_ < doc_.size() && (doc_[at_] == '+' || doc_[at_] == '-')) ++at_;
      if (!digits()) return false;
    }
    text = doc_.substr(from, at_ - from);
    return true;
  }

  // A string literal's text (escapes resolved as Go does) in [text],
  // viewing the document when it has no escapes, else [own].
  bool string(std::string_view& text, std::string& own) {
    size_t from = at_++;  // the opening quote
    bool plain = true;
    for (;;) {
      if (at_ >= doc_.size()) return false;
      unsigned char c = static_cast<unsigned char>(doc_[at_]);
      if (c == '"') break;
      if (c < 0x20) return false;
      if (c >= 0x80) plain = false;
      if (c == '\\') {
        plain = false;
        if (++at_ >= doc_.size()) return false;
        char e = doc_[at_];
        if (e == 'u') {
          if (at_ + 4 >= doc_.size()) return false;
          for (int i = 1; i <= 4; ++i)
            if (!std::isxdigit(static_cast<unsigned char>(doc_[at_ + size_t(i)]))) return false;
          at_ += 4;
        } else if (std::strchr("\"\\/bfnrt", e) == nullptr || e == '\0') {
          return false;
        }
      }
      ++at_;
    }
    ++at_;
    std::string_view lit = doc_.substr(from, at_ - from);
    if (plain) {
      text = lit.substr(1, lit.size() - 2);
    } else {
      own = unquote(lit);
      text = own;
    }
    return true;
  }

  // An object member's key and the colon after it.
  bool member_key(std::string_view& key, std::string& own) {
    space();
    if (at_ >= doc_.size() || doc_[at_] != '"' || !string(key, own)) return false;
    return eat(':');
  }

  bool literal(std::string_view word) {
    if (doc_.substr(at_, word.size()) != word) return false;
    at_ += word.size();
    return true;
  }

  bool value(const Type* t, Value& out, int depth) {
    space();
    if (at_ >= doc_.size()) return false;
    char c = doc_[at_];
    if (c == 'n') {
      if (!literal("null")) return false;
      out = Value::null(t);
      return true;
    }
    if (t == Type::string()) {
      std::string own;
      std::string_view text;
      if (c == '"') {
        if (!string(text, own)) return false;
      } else if (c == '-' || (c >= '0' && c <= '9')) {
        if (!number(text)) return false;
      } else if (c == 't' || c == 'f') {
        if (!literal(c == 't' ? "true" : "false")) return false;
        text = c == 't' ? "true" : "false";
      } else {
        return false;
      }
      out = Value::string(text);
      return true;
    }
    if (t == Type::number()) {
      std::string_view text;
      if (!(c == '-' || (c >= '0' && c <= '9')) || !number(text)) return false;
      std::optional<Number> n = Number::parse(text);
      if (!n) return false;
      out = Value::number(std::move(*n));
      return true;
    }
    if (t == Type::boolean()) {
      if (c != 't' && c != 'f') return false;
      if (!literal(c == 't' ? "true" : "false")) return false;
      out = Value::boolean(c == 't');
      return true;
    }
    if (depth >= kMaxDepth) return false;
    if (t->is_object() && c == '{') return object(t, out, depth);
    if (t->is_tuple() && c == '[') return tuple(t, out, depth);
    return false;
  }

  // value() with the type the document implies: strings, numbers and
  // bools their types, null a dynamic null, arrays tuples, objects objects.
  bool implied(Value& out, int depth) {
    space();
    if (at_ >= doc_.size()) return false;
    switch (doc_[at_]) {
      case 'n': return value(Type::dynamic(), out, depth);
      case 't':
      case 'f': return value(Type::boolean(), out, depth);
      case '"': return value(Type::string(), out, depth);
      case '[': {
        if (depth >= kMaxDepth) return false;
        ++at_;
        std::vector<Value> vals;
        if (!eat(']')) {
          do {
            vals.emplace_back();
            if (!implied(vals.back(), depth + 1)) return false;
          } while (eat(','));
          if (!eat(']')) return false;
        }
        out = Value::tuple(std::move(vals));
        return true;
      }
      case '{': {
        if (depth >= kMaxDepth) return false;
        ++at_;
        std::vector<std::pair<std::string, Value>> attrs;
        if (!eat('}')) {
          do {
            std::string own;
            std::string_view key;
            if (!member_key(key, own)) return false;
            attrs.emplace_back(std::string(key), Value());
            if (!implied(attrs.back().second, depth + 1)) return false;
          } while (eat(','));
          if (!eat('}')) return false;
        }
        // A key twice is an error of the implied type, left to the faithful reader.
        std::vector<std::string_view> keys;
        keys.reserve(attrs.size());
        for (const auto& a : attrs) keys.push_back(a.first);
        std::sort(keys.begin(), keys.end());
        if (std::adjacent_find(keys.begin(), keys.end()) != keys.end()) return false;
        out = Value::object(std::move(attrs));
        return true;
      }
      default: return value(Type::number(), out, depth);
    }
  }

  bool object(const Type* t, Value& out, int depth) {
    if (t->has_optional_attrs()) return false;
    ++at_;
    std::vector<Value> vals(t->size());
    std::vector<bool> seen(t->size());
    size_t next = 0;
    if (!eat('}')) {
      do {
        std::string own;
        std::string_view key;
        if (!member_key(key, own)) return false;
        std::optional<size_t> i = next < t->size() && t->attr_name(next) == key
                                      ? std::optional<size_t>(next)
                                      : t->find_attr(key);
        if (!i || seen[*i]) return false;
        if (!value(t->attr_type(*i), vals[*i], depth + 1)) return false;
        seen[*i] = true;
        next = *i + 1;
      } while (eat(','));
      if (!eat('}')) return false;
    }
    out = finish_object(t, std::move(vals), seen);
    return true;
  }

  bool tuple(const Type* t, Value& out, int depth) {
    ++at_;
    std::vector<Value> vals;
    vals.reserve(t->size());
    if (!eat(']')) {
      do {
        if (vals.size() >= t->size()) return false;
        vals.emplace_back();
        if (!value(t->tuple_element(vals.size() - 1), vals.back(), depth + 1)) return false;
      } while (eat(','));
      if (!eat(']')) return false;
    }
    if (vals.size() != t->size()) return false;
    out = Value::tuple(std::move(vals));
    return true;
  }

  std::string_view doc_;
  size_t at_ = 0;
};

JsonResult<Value> read_value(std::string_view json, const Type* t, const ValueIndex& index) {
  return util::run_deep([&](const util::StackBudget& budget) {
    JsonResult<Value> r;
    ReadCtx cx{&index, budget};
    Reader rd(cx);
    Path path;
    if (!rd.unmarshal(json, 0, t, path, r.value)) r.error = std::move(rd.error);
    return r;
  });
}

// implied_type() with the [index] of [json], if any.
JsonResult<const Type*> read_implied_type(std::string_view json, const ValueIndex* index) {
  return util::run_deep([&](const util::StackBudget& budget) {
    JsonResult<const Type*> r;
    Decoder dec(json, 0, true, index);
    Tok tok;
    SyntaxErr e;
    const Type* t = nullptr;
    if (dec.token(tok, e)) t = implied_for_tok(tok, dec, budget, e);
    if (!t) {
      r.error = JsonError{e.msg, {}, e.offset};
      return r;
    }
    if (dec.more()) {
      r.error = JsonError{"extraneous data after JSON object", {}, -1};
      return r;
    }
    r.value = t;
    return r;
  });
}

}  // namespace

// --- public API -----------------------------------------------------------------

std::string json_quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  uni::append_json_quoted(out, s);
  return out;
}

JsonResult<std::string> to_json(const Value& v, const Type* t) {
  return util::run_deep(
      [&](const util::StackBudget& budget) { return marshal_value(v, t, budget); });
}

std::optional<JsonError> append_json(std::string& out, const Value& v, const Type* t) {
  // A try that runs out of stack starts over: without what it wrote.
  size_t start = out.size();
  return util::run_deep([&](const util::StackBudget& budget) {
    out.resize(start);
    return marshal_value(v, t, out, budget);
  });
}

JsonResult<Value> from_json(std::string_view json, const Type* t) {
  JsonResult<Value> r;
  if (FastReader(json).read(t, r.value)) return r;
  return from_json_full(json, t);
}

JsonResult<Value> from_json_full(std::string_view json, const Type* t) {
  return read_value(json, t, ValueIndex(json));
}

JsonResult<const Type*> implied_type(std::string_view json) {
  // Reads no value twice: an index would not pay for itself.
  return read_implied_type(json, nullptr);
}

JsonResult<std::string> to_json_simple(const Value& v) { return to_json(v, v.type()); }

JsonResult<std::string> to_json_typed(const Value& v) {
  return util::run_deep([&](const util::StackBudget& budget) {
    JsonResult<std::string> r = marshal_value(v, v.type(), budget);
    if (!r.ok()) return r;
    std::string type_json, err;
    if (!write_type(v.type(), type_json, err, budget))
      return JsonResult<std::string>{"", JsonError{std::move(err), {}, -1}};
    r.value = "{\"value\":" + r.value + ",\"type\":" + type_json + "}";
    return r;
  });
}

bool from_json_simple_fast(std::string_view json, Value& out) {
  return FastReader(json).read_implied(out);
}

JsonResult<Value> from_json_simple(std::string_view json) {
  JsonResult<Value> r;
  if (from_json_simple_fast(json, r.value)) return r;
  return from_json_simple_full(json);
}

JsonResult<Value> from_json_simple_full(std::string_view json) {
  // One index serves both readings.
  ValueIndex index(json);
  JsonResult<const Type*> t = read_implied_type(json, &index);
  if (!t.ok()) return JsonResult<Value>{Value(), std::move(t.error)};
  return read_value(json, t.value, index);
}

JsonResult<std::string> type_to_json(const Type* t) {
  return util::run_deep([&](const util::StackBudget& budget) {
    JsonResult<std::string> r;
    std::string err;
    if (!write_type(t, r.value, err, budget)) {
      r.value.clear();
      r.error = JsonError{std::move(err), {}, -1};
    }
    return r;
  });
}

JsonResult<const Type*> type_from_json(std::string_view json) {
  ValueIndex index(json);
  return util::run_deep([&](const util::StackBudget& budget) {
    JsonResult<const Type*> r;
    SyntaxErr e;
    r.value = read_type(json, 0, ReadCtx{&index, budget}, e);
    if (!r.value) r.error = JsonError{e.msg, {}, e.offset};
    return r;
  });
}

}  // namespace hclvm
