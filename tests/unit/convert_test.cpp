// Tests of conversion and unification (src/value/convert.cpp) against
// go-cty's convert package: the source kind x target kind matrix, which
// conversions exist safe or unsafe, cty's own test tables re-expressed
// (Convert, Unify, compareTypes, sortTypes, MismatchMessage), unknowns and
// their refinements, marks, error paths, the allocation-free fast path, and
// the differential data of tests/golden/convert (the Go reference's answers
// to tolist(), tostring(), function arguments and conditionals).
//
// Values and types are written in a small notation of this file:
//   types   string number bool any list(T) set(T) map(T) tuple([T, ...])
//           object({a=T, b=optional(T)})
//   values  "s" 1.5 true [tuple, ...] {a=object} list[...] set[...] map{k=v}
//           list(T)[] set(T)[] map(T){} (empty) null null(T) dyn unknown(T)
//           unknown(T, nn, len=1..2, prefix="p") and a postfix mark: v@mark
#include <gtest/gtest.h>

#include <atomic>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <map>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "util/alloc_count.h"
#include "test_util.h"
#include "util/unicode.h"
#include "value/convert.h"
#include "value_test_util.h"

namespace hclvm {
namespace {

// --- the notation ---------------------------------------------------------------------

class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}

  const Type* type() {
    skip();
    std::string w = word();
    if (w == "string") return Type::string();
    if (w == "number") return Type::number();
    if (w == "bool") return Type::boolean();
    if (w == "any") return Type::dynamic();
    if (w == "list" || w == "set" || w == "map") {
      expect('(');
      const Type* e = type();
      expect(')');
      return w == "list" ? Type::list(e) : w == "set" ? Type::set(e) : Type::map(e);
    }
    if (w == "tuple") {
      expect('(');
      expect('[');
      std::vector<const Type*> elems;
      while (!peek(']')) {
        elems.push_back(type());
        if (!peek(']')) expect(',');
      }
      expect(']');
      expect(')');
      return Type::tuple(elems);
    }
    if (w == "object") {
      expect('(');
      expect('{');
      std::vector<std::string> names;
      std::vector<std::pair<const Type*, bool>> types;
      while (!peek('}')) {
        names.push_back(key());
        expect('=');
        skip();
        size_t save = i_;
        bool optional = word() == "optional";
        if (optional) {
          expect('(');
          types.push_back({type(), true});
          expect(')');
        } else {
          i_ = save;
          types.push_back({type(), false});
        }
        if (!peek('}')) expect(',');
      }
      expect('}');
      expect(')');
      std::vector<TypeAttr> attrs;
      for (size_t k = 0; k < names.size(); ++k)
        attrs.push_back({names[k], types[k].first, types[k].second});
      return Type::object(attrs);
    }
    throw std::runtime_error("bad type at " + std::string(s_.substr(i_)));
  }

  Value value() {
    Value v = primary();
    while (peek('@')) {
      ++i_;
      v = v.mark(word());
    }
    return v;
  }

  void end() {
    skip();
    if (i_ != s_.size()) throw std::runtime_error("trailing text: " + std::string(s_.substr(i_)));
  }

 private:
  Value primary() {
    skip();
    char c = i_ < s_.size() ? s_[i_] : '\0';
    if (c == '"') return Value::string(quoted());
    if (c == '-' || (c >= '0' && c <= '9')) {
      size_t start = i_++;
      while (i_ < s_.size() &&
             (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.' ||
              ((s_[i_] == '-' || s_[i_] == '+') && (s_[i_ - 1] == 'e' || s_[i_ - 1] == 'E'))))
        ++i_;
      auto n = Number::parse(s_.substr(start, i_ - start));
      if (!n) throw std::runtime_error("bad number");
      return Value::number(*n);
    }
    if (c == '[') {
      ++i_;
      return Value::tuple(values(']'));
    }
    if (c == '{') {
      ++i_;
      std::vector<std::pair<std::string, Value>> attrs = entries();
      return Value::object(std::move(attrs));
    }
    std::string w = word();
    if (w == "true") return Value::boolean(true);
    if (w == "false") return Value::boolean(false);
    if (w == "dyn") return Value::dynamic();
    if (w == "null") {
      if (!peek('(')) return Value::null(Type::dynamic());
      expect('(');
      const Type* t = type();
      expect(')');
      return Value::null(t);
    }
    if (w == "unknown") {
      expect('(');
      const Type* t = type();
      Refinement r;
      while (peek(',')) {
        ++i_;
        skip();
        std::string k = word();
        if (k == "nn") {
          r.not_null = true;
        } else if (k == "len") {
          expect('=');
          r.min_length = std::stoull(word());
          expect('.');
          expect('.');
          std::string hi = peek('*') ? (++i_, std::string("*")) : word();
          r.max_length = hi == "*" ? UINT64_MAX : std::stoull(hi);
        } else if (k == "prefix") {
          expect('=');
          skip();
          r.prefix = quoted();
        } else {
          throw std::runtime_error("bad refinement " + k);
        }
      }
      expect(')');
      return Value::unknown(t, r);
    }
    if (w == "list" || w == "set") {
      const Type* ety = nullptr;
      if (peek('(')) {
        ++i_;
        ety = type();
        expect(')');
      }
      expect('[');
      std::vector<Value> elems = values(']');
      if (!ety) ety = elems.empty() ? Type::dynamic() : elem_type(elems);
      return w == "list" ? Value::list(ety, std::move(elems)) : Value::set(ety, std::move(elems));
    }
    if (w == "map") {
      const Type* ety = nullptr;
      if (peek('(')) {
        ++i_;
        ety = type();
        expect(')');
      }
      expect('{');
      auto es = entries();
      if (!ety) {
        std::vector<Value> vals;
        for (auto& e : es) vals.push_back(e.second);
        ety = vals.empty() ? Type::dynamic() : elem_type(vals);
      }
      return Value::map(ety, std::move(es));
    }
    throw std::runtime_error("bad value at " + std::string(s_.substr(i_)));
  }

  // The element type cty gives a collection of [vals]: the first that is not dynamic.
  static const Type* elem_type(const std::vector<Value>& vals) {
    for (const Value& v : vals)
      if (!v.type()->is_dynamic()) return v.type();
    return Type::dynamic();
  }

  std::vector<Value> values(char close) {
    std::vector<Value> out;
    while (!peek(close)) {
      out.push_back(value());
      if (!peek(close)) expect(',');
    }
    ++i_;
    return out;
  }

  std::vector<std::pair<std::string, Value>> entries() {
    std::vector<std::pair<std::string, Value>> out;
    while (!peek('}')) {
      std::string k = key();
      expect('=');
      out.emplace_back(k, value());
      if (!peek('}')) expect(',');
    }
    ++i_;
    return out;
  }

  std::string key() {
    skip();
    if (i_ < s_.size() && s_[i_] == '"') return quoted();
    return word();
  }

  std::string quoted() {
    expect('"');
    std::string out;
    while (i_ < s_.size() && s_[i_] != '"') {
      if (s_[i_] == '\\' && i_ + 1 < s_.size()) {
        ++i_;
        out += s_[i_] == 'n' ? '\n' : s_[i_];
      } else {
        out += s_[i_];
      }
      ++i_;
    }
    expect('"');
    return out;
  }

  std::string word() {
    skip();
    size_t start = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_'))
      ++i_;
    if (start == i_) throw std::runtime_error("expected a word at " + std::string(s_.substr(i_)));
    return std::string(s_.substr(start, i_ - start));
  }

  void skip() {
    while (i_ < s_.size() && s_[i_] == ' ') ++i_;
  }
  bool peek(char c) {
    skip();
    return i_ < s_.size() && s_[i_] == c;
  }
  void expect(char c) {
    if (!peek(c))
      throw std::runtime_error(std::string("expected '") + c + "' at " +
                               std::string(s_.substr(i_)));
    ++i_;
  }

  std::string_view s_;
  size_t i_ = 0;
};

const Type* T(std::string_view s) {
  Reader r(s);
  const Type* t = r.type();
  r.end();
  return t;
}

Value V(std::string_view s) {
  Reader r(s);
  Value v = r.value();
  r.end();
  return v;
}

std::string show_type(const Type* t) {
  if (!t) return "<none>";
  switch (t->kind()) {
    case TypeKind::Dynamic: return "any";
    case TypeKind::String: return "string";
    case TypeKind::Number: return "number";
    case TypeKind::Bool: return "bool";
    case TypeKind::List: return "list(" + show_type(t->element()) + ")";
    case TypeKind::Set: return "set(" + show_type(t->element()) + ")";
    case TypeKind::Map: return "map(" + show_type(t->element()) + ")";
    case TypeKind::Tuple: {
      std::string s = "tuple([";
      for (size_t i = 0; i < t->size(); ++i) s += (i ? ", " : "") + show_type(t->tuple_element(i));
      return s + "])";
    }
    case TypeKind::Object: {
      std::string s = "object({";
      for (size_t i = 0; i < t->size(); ++i) {
        s += (i ? ", " : "") + std::string(t->attr_name(i)) + "=";
        s += t->attr_optional(i) ? "optional(" + show_type(t->attr_type(i)) + ")"
                                 : show_type(t->attr_type(i));
      }
      return s + "})";
    }
    case TypeKind::Capsule: return std::string(t->capsule_name());
  }
  return "?";
}

std::string quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// The canonical notation of [v]: every null, unknown and empty collection
// with its type, marks last.
std::string show(const Value& v) {
  if (v.is_marked()) {
    auto [inner, marks] = v.unmark_with_marks();
    std::string s = show(inner);
    for (std::string_view m : marks.labels()) s += "@" + std::string(m);
    return s;
  }
  const Type* t = v.type();
  if (!v.is_known()) {
    std::string s = "unknown(" + show_type(t);
    const Refinement& r = v.refinement();
    if (r.not_null) s += ", nn";
    if (r.min_length != 0 || r.max_length != UINT64_MAX)
      s += ", len=" + std::to_string(r.min_length) + ".." +
           (r.max_length == UINT64_MAX ? std::string("*") : std::to_string(r.max_length));
    if (!r.prefix.empty()) s += ", prefix=" + quote(r.prefix);
    return s + ")";
  }
  if (v.is_null()) return "null(" + show_type(t) + ")";
  auto join = [](std::span<const Value> vals) {
    std::string s;
    for (size_t i = 0; i < vals.size(); ++i) s += (i ? ", " : "") + show(vals[i]);
    return s;
  };
  switch (t->kind()) {
    case TypeKind::String: return quote(v.as_string());
    case TypeKind::Number: return v.as_number().text();
    case TypeKind::Bool: return v.as_bool() ? "true" : "false";
    case TypeKind::Tuple: return "[" + join(v.elements()) + "]";
    case TypeKind::List:
    case TypeKind::Set: {
      std::string k = t->is_list() ? "list" : "set";
      if (v.length() == 0) return k + "(" + show_type(t->element()) + ")[]";
      return k + "[" + join(v.elements()) + "]";
    }
    case TypeKind::Map: {
      if (v.length() == 0) return "map(" + show_type(t->element()) + "){}";
      std::string s = "map{";
      for (size_t i = 0; i < v.length(); ++i)
        s += (i ? ", " : "") + std::string(v.map_key(i)) + "=" + show(v.map_value(i));
      return s + "}";
    }
    case TypeKind::Object: {
      std::string s = "{";
      for (size_t i = 0; i < t->size(); ++i)
        s += (i ? ", " : "") + std::string(t->attr_name(i)) + "=" + show(v.attr(i));
      return s + "}";
    }
    default: return "?";
  }
}

std::string show_path(const Path& path) {
  std::string s;
  for (const PathStep& p : path) {
    if (p.kind == PathStep::Kind::Attr)
      s += "." + p.name;
    else if (p.key.type() == Type::string())
      s += "[" + quote(p.key.as_string()) + "]";
    else
      s += "[" + p.key.as_number().text() + "]";
  }
  return s;
}

// A conversion result as a test expects it: "VALUE : TYPE" or "!PATH: MESSAGE".
std::string show_result(const ConvertResult& r) {
  if (!r.ok()) {
    std::string p = show_path(r.error().path);
    return "!" + (p.empty() ? "" : p + ": ") + r.error().message;
  }
  return show(r.value()) + " : " + show_type(r.value().type());
}

std::string expected(std::string_view want) {
  if (!want.empty() && want[0] == '!') return std::string(want);
  Value v = V(want);
  return show(v) + " : " + show_type(v.type());
}

// --- source kind x target kind ----------------------------------------------------------

struct MatrixCase {
  const char* value;
  const char* type;
  const char* want;  // notation, or "!message"
};

const char* const kTargets[] = {
    "string",      "number",      "bool",         "list(string)", "set(string)",
    "map(string)", "object({a=string})", "tuple([string])", "any"};

// One row per source kind, one column per target in kTargets.
const std::vector<std::pair<const char*, std::vector<const char*>>> kMatrix = {
    {"\"5\"",
     {"\"5\"", "5", "!a bool is required", "!list of string required, but have string",
      "!set of string required, but have string", "!map of string required, but have string",
      "!object required, but have string", "!tuple required, but have string", "\"5\""}},
    {"5",
     {"\"5\"", "5", "!bool required, but have number", "!list of string required, but have number",
      "!set of string required, but have number", "!map of string required, but have number",
      "!object required, but have number", "!tuple required, but have number", "5"}},
    {"true",
     {"\"true\"", "!number required, but have bool", "true",
      "!list of string required, but have bool", "!set of string required, but have bool",
      "!map of string required, but have bool", "!object required, but have bool",
      "!tuple required, but have bool", "true"}},
    {"list[\"5\"]",
     {"!string required, but have list of string", "!number required, but have list of string",
      "!bool required, but have list of string", "list[\"5\"]", "set[\"5\"]",
      "!map of string required", "!object required", "!tuple required", "list[\"5\"]"}},
    {"set[\"5\"]",
     {"!string required, but have set of string", "!number required, but have set of string",
      "!bool required, but have set of string", "list[\"5\"]", "set[\"5\"]",
      "!map of string required", "!object required", "!tuple required", "set[\"5\"]"}},
    {"map{a=\"5\"}",
     {"!string required, but have map of string", "!number required, but have map of string",
      "!bool required, but have map of string", "!list of string required",
      "!set of string required", "map{a=\"5\"}", "{a=\"5\"}", "!tuple required", "map{a=\"5\"}"}},
    {"{a=\"5\"}",
     {"!string required, but have object", "!number required, but have object",
      "!bool required, but have object", "!list of string required", "!set of string required",
      "map{a=\"5\"}", "{a=\"5\"}", "!tuple required", "{a=\"5\"}"}},
    {"[\"5\"]",
     {"!string required, but have tuple", "!number required, but have tuple",
      "!bool required, but have tuple", "list[\"5\"]", "set[\"5\"]", "!map of string required",
      "!object required, but have tuple", "[\"5\"]", "[\"5\"]"}},
    {"null",
     {"null(string)", "null(number)", "null(bool)", "null(list(string))", "null(set(string))",
      "null(map(string))", "null(object({a=string}))", "null(tuple([string]))", "null(any)"}},
    {"dyn",
     {"unknown(string)", "unknown(number)", "unknown(bool)", "unknown(list(string))",
      "unknown(set(string))", "unknown(map(string))", "unknown(object({a=string}))",
      "unknown(tuple([string]))", "dyn"}},
};

std::vector<MatrixCase> matrix_cases() {
  std::vector<MatrixCase> out;
  for (const auto& [value, wants] : kMatrix)
    for (size_t i = 0; i < std::size(kTargets); ++i) out.push_back({value, kTargets[i], wants[i]});
  return out;
}

class KindMatrix : public ::testing::TestWithParam<MatrixCase> {};

TEST_P(KindMatrix, Convert) {
  const MatrixCase& c = GetParam();
  EXPECT_EQ(show_result(convert(V(c.value), T(c.type))), expected(c.want));
}

INSTANTIATE_TEST_SUITE_P(SourceByTarget, KindMatrix, ::testing::ValuesIn(matrix_cases()));

// Which conversions exist: S safe, U unsafe only, - none (as cty: no
// conversion from a primitive type, or a map of one, to itself).
const std::vector<std::pair<const char*, const char*>> kChart = {
    // string number bool list set map object tuple any
    {"string", "-UU-----S"},
    {"number", "S-------S"},
    {"bool", "S-------S"},
    {"list(string)", "---SU---S"},
    {"set(string)", "---SS---S"},
    {"map(string)", "------U-S"},
    {"object({a=string})", "-----SS-S"},
    {"tuple([string])", "---SS--SS"},
    {"any", "UUUUUUUUS"},
};

struct ChartCase {
  const char* from;
  const char* to;
  char want;
};

std::vector<ChartCase> chart_cases() {
  std::vector<ChartCase> out;
  for (const auto& [from, row] : kChart)
    for (size_t i = 0; i < std::size(kTargets); ++i) out.push_back({from, kTargets[i], row[i]});
  return out;
}

class ConversionChart : public ::testing::TestWithParam<ChartCase> {};

TEST_P(ConversionChart, SafeAndUnsafe) {
  const ChartCase& c = GetParam();
  const Type* from = T(c.from);
  const Type* to = T(c.to);
  bool safe = get_conversion(from, to) != nullptr;
  bool unsafe = get_conversion_unsafe(from, to) != nullptr;
  char got = safe ? 'S' : unsafe ? 'U' : '-';
  EXPECT_EQ(got, c.want) << c.from << " -> " << c.to;
  if (safe) {
    EXPECT_TRUE(unsafe);
  }
  EXPECT_EQ(can_convert(from, to, false), safe || from == to || to->is_dynamic());
  EXPECT_EQ(can_convert(from, to), unsafe || from == to || to->is_dynamic());
}

INSTANTIATE_TEST_SUITE_P(Kinds, ConversionChart, ::testing::ValuesIn(chart_cases()));

// --- cty's Convert table and more ------------------------------------------------------

struct ConvertCase {
  const char* value;
  const char* type;
  const char* want;
};

const ConvertCase kConvert[] = {
    // primitives
    {"\"hello\"", "string", "\"hello\""},
    {"\"1\"", "number", "1"},
    {"\"1.5\"", "number", "1.5"},
    {"\"hello\"", "number", "!a number is required"},
    {"\"true\"", "bool", "true"},
    {"\"1\"", "bool", "true"},
    {"\"false\"", "bool", "false"},
    {"\"0\"", "bool", "false"},
    {"\"hello\"", "bool", "!a bool is required"},
    {"\"TRUE\"", "bool", "!a bool is required; to convert from string, use lowercase \"true\""},
    {"\"False\"", "bool", "!a bool is required; to convert from string, use lowercase \"false\""},
    {"4", "string", "\"4\""},
    {"3.14159265359", "string", "\"3.14159265359\""},
    {"true", "string", "\"true\""},
    {"false", "string", "\"false\""},
    {"unknown(string)", "number", "unknown(number)"},
    {"unknown(number)", "string", "unknown(string)"},
    {"dyn", "string", "unknown(string)"},
    {"\"hello\"", "any", "\"hello\""},
    // collections
    {"list[5, 10]", "list(string)", "list[\"5\", \"10\"]"},
    {"list[5, 10]", "list(any)", "list[5, 10]"},
    {"set[\"5\", unknown(string)]", "set(number)", "set[5, unknown(number)]"},
    {"set[\"5\", \"10\"]", "list(string)", "list[\"10\", \"5\"]"},
    {"set[\"5\", \"10\"]", "list(any)", "list[\"10\", \"5\"]"},
    {"set[5, 10]", "list(string)", "list[\"5\", \"10\"]"},
    // A set with unknowns has an unknown length; cty keeps the source element type.
    {"set[\"5\", unknown(string)]", "list(string)", "unknown(list(string))"},
    {"set[5, unknown(number)]", "list(string)", "unknown(list(number))"},
    {"set[unknown(string)]", "list(string)", "list[unknown(string)]"},
    {"list[5, 10, 10]", "set(string)", "set[\"5\", \"10\"]"},
    {"[5, \"hello\"]", "list(string)", "list[\"5\", \"hello\"]"},
    {"[5, \"12\"]", "list(number)", "list[5, 12]"},
    {"[5, 10]", "list(any)", "list[5, 10]"},
    {"[5, \"hello\"]", "list(any)", "list[\"5\", \"hello\"]"},
    {"[5, \"hello\"]", "set(any)", "set[\"5\", \"hello\"]"},
    {"list(string)[]", "set(any)", "set(string)[]"},
    {"set(string)[]", "list(any)", "list(string)[]"},
    {"[]", "list(any)", "list(any)[]"},
    {"[]", "set(string)", "set(string)[]"},
    {"{num=5, str=\"hello\"}", "map(string)", "map{num=\"5\", str=\"hello\"}"},
    {"{num=5, str=\"12\"}", "map(number)", "map{num=5, str=12}"},
    {"{num1=5, num2=10}", "map(any)", "map{num1=5, num2=10}"},
    {"{num=5, str=\"hello\"}", "map(any)", "map{num=\"5\", str=\"hello\"}"},
    {"{list=list(bool)[], tuple=[]}", "map(any)", "map{list=list(bool)[], tuple=list(bool)[]}"},
    {"{map=map(string){}, obj={}}", "map(any)", "map{map=map(string){}, obj=map(string){}}"},
    {"{num=5, bool=true}", "map(any)", "!all map elements must have the same type"},
    {"{}", "map(any)", "map(any){}"},
    {"map{greeting=\"Hello\", name=\"John\"}", "map(any)",
     "map{greeting=\"Hello\", name=\"John\"}"},
    {"map{a=2, b=5}", "map(string)", "map{a=\"2\", b=\"5\"}"},
    {"map(number){}", "map(string)", "map(string){}"},
    {"map(number){}", "map(any)", "map(number){}"},
    // map to object
    {"map{greeting=\"Hello\", name=\"John\"}", "object({greeting=string, name=string})",
     "{greeting=\"Hello\", name=\"John\"}"},
    {"map{greeting=\"Hello\", name=\"John\"}", "object({greeting=list(string), name=string})",
     "!object required"},
    {"map{greeting=\"Hello\", name=\"John\"}", "object({name=string})", "{name=\"John\"}"},
    {"map{name=\"John\"}", "object({name=string, greeting=string})",
     "!map has no element for required attribute \"greeting\""},
    {"map{name=\"John\"}", "object({name=string, greeting=optional(string)})",
     "{greeting=null(string), name=\"John\"}"},
    {"map{a=\"boop\"}", "object({a=string, b=optional(string), c=optional(object({d=string}))})",
     "{a=\"boop\", b=null(string), c=null(object({d=string}))}"},
    {"map{a=\"boop\"}", "object({a=string, b=optional(string), c=optional(any)})",
     "{a=\"boop\", b=null(string), c=null(any)}"},
    {"map{a=\"boop\", c=\"foobar\"}",
     "object({a=string, b=optional(string), c=optional(object({d=string}))})",
     "!map element type is incompatible with attribute \"c\": object required, but have string"},
    {"map(string){}", "object({a=optional(string)})", "{a=null(string)}"},
    {"map{a=\"x\"}", "object({a=number})", "![\"a\"]: a number is required"},
    {"map{k=\"x\"}", "map(number)", "![\"k\"]: a number is required"},
    // object to object
    {"{foo=\"foo value\", bar=\"bar value\"}", "object({foo=string})", "{foo=\"foo value\"}"},
    {"{foo=true}", "object({foo=string})", "{foo=\"true\"}"},
    {"{foo=dyn}", "object({foo=string})", "{foo=unknown(string)}"},
    {"{foo=null(string)}", "object({foo=string})", "{foo=null(string)}"},
    {"{foo=true}", "object({foo=any})", "{foo=true}"},
    {"{bar=\"bar value\"}", "object({foo=string})", "!attribute \"foo\" is required"},
    {"{bar=\"bar value\"}", "object({foo=string, baz=string})",
     "!attributes \"baz\" and \"foo\" are required"},
    {"{}", "object({foo=string, bar=string, baz=string})",
     "!attributes \"bar\", \"baz\", and \"foo\" are required"},
    {"{bar=\"bar value\"}", "object({foo=optional(string), bar=string})",
     "{bar=\"bar value\", foo=null(string)}"},
    {"{foo=\"foo value\", bar=\"bar value\"}", "object({foo=optional(string), bar=string})",
     "{bar=\"bar value\", foo=\"foo value\"}"},
    {"{}", "object({foo=optional(string), bar=string})", "!attribute \"bar\" is required"},
    {"null", "object({foo=optional(string), bar=string})",
     "null(object({bar=string, foo=string}))"},
    {"{foo=true}", "object({foo=number})", "!attribute \"foo\": number required, but have bool"},
    {"{foo=unknown(bool)}", "object({foo=number})",
     "!attribute \"foo\": number required, but have bool"},
    {"{a=[\"x\", \"y\"]}", "object({a=list(number)})", "!.a[0]: a number is required"},
    {"[{a=\"x\"}]", "list(object({a=number}))", "![0].a: a number is required"},
    {"[\"1\", \"x\"]", "list(number)", "![1]: a number is required"},
    {"set[\"x\"]", "set(number)", "![0]: a number is required"},
    {"[1, \"x\"]", "tuple([number, number])", "![1]: a number is required"},
    {"{a=\"x\"}", "map(number)", "![\"a\"]: a number is required"},
    {"{a=[\"1\"], b=[\"x\"]}", "map(list(number))", "![\"b\"][0]: a number is required"},
    {"{a={b={c=\"x\"}}}", "object({a=object({b=object({c=bool})})})",
     "!.a.b.c: a bool is required"},
    // dynamic parts, unknown and null
    {"null(string)", "any", "null(string)"},
    {"unknown(string)", "any", "unknown(string)"},
    {"null", "object({foo=object({bar=optional(string)})})",
     "null(object({foo=object({bar=string})}))"},
    {"dyn", "object({foo=object({bar=optional(string)})})",
     "unknown(object({foo=object({bar=string})}))"},
    {"list(number)[]", "list(any)", "list(number)[]"},
    {"null(list(number))", "list(any)", "null(list(number))"},
    {"null(list(number))", "set(any)", "null(set(number))"},
    {"map(number){}", "map(any)", "map(number){}"},
    {"null(map(number))", "map(any)", "null(map(number))"},
    {"null(map(number))", "object({a=any})", "null(object({a=number}))"},
    {"set(number)[]", "set(any)", "set(number)[]"},
    {"null(set(number))", "list(any)", "null(list(number))"},
    {"null(object({a=string}))", "map(any)", "null(map(string))"},
    {"null(object({a=object({b=string})}))", "object({a=object({b=any})})",
     "null(object({a=object({b=string})}))"},
    {"null(tuple([string]))", "tuple([any])", "null(tuple([string]))"},
    {"unknown(tuple([string, number]))", "list(any)", "unknown(list(string), len=2..2)"},
    // tuples
    {"[\"hello\"]", "tuple([string])", "[\"hello\"]"},
    {"[true]", "tuple([string])", "[\"true\"]"},
    {"[true]", "tuple([])", "!tuple required"},
    {"[]", "tuple([string])", "!tuple required"},
    {"[[1], [\"a\"]]", "list(any)", "list[[\"1\"], [\"a\"]]"},
    {"[{a=1}, {b=1}]", "list(any)", "list[map{a=1}, map{b=1}]"},
    {"[null, \"a\"]", "list(any)", "list[null(string), \"a\"]"},
    {"[null]", "list(any)", "list[null(any)]"},
    {"[\"a\", 9, null]", "set(any)", "set[\"9\", \"a\", null(string)]"},
    {"[\"a\", 9, null]", "list(any)", "list[\"a\", \"9\", null(string)]"},
    {"[null, null, null]", "set(any)", "set[null(any)]"},
    {"[null, null, null]", "list(any)", "list[null(any), null(any), null(any)]"},
    {"[list[\"a\"], \"b\", null]", "set(any)", "!all set elements must have the same type"},
    {"[list[\"a\"], \"b\", null]", "list(any)", "!all list elements must have the same type"},
    {"[list[\"a\"], \"b\"]", "set(any)", "!all set elements must have the same type"},
    {"[{type=\"ingress\", cidr=[\"0.0.0.0/0\"]}, {type=\"ingress\", source_sg=\"sg-abc123\"}]",
     "list(any)", "!all list elements must have the same type"},
    {"[{a={}, b=2}, {a={var1=\"val1\"}, b=\"2\"}]", "list(object({a=any, b=string}))",
     "list[{a=map(string){}, b=\"2\"}, {a=map{var1=\"val1\"}, b=\"2\"}]"},
    // nested unification of map element types (terraform #23804, #24167, #23431)
    {"{a={x=[\"foo\"]}, b={x=[\"bar\"]}, c={x=[\"foo\", \"bar\"]}}", "map(map(any))",
     "map{a=map{x=list[\"foo\"]}, b=map{x=list[\"bar\"]}, c=map{x=list[\"foo\", \"bar\"]}}"},
    {"{a={x=null}, b={x={c=1, d=2}}}", "map(map(object({x=map(any)})))",
     "!element \"b\": element \"x\": attribute \"x\" is required"},
    {"{a={x=\"foo\"}, b=map(any){}}", "map(map(any))", "map{a=map{x=\"foo\"}, b=map(string){}}"},
    // terraform #27269: a null nested object, and optional attributes inside
    {"[{a=null}, {a={b=list[{c=\"d\"}]}}]",
     "list(object({a=object({b=list(object({c=string, d=optional(string)}))})}))",
     "list[{a=null(object({b=list(object({c=string, d=string}))}))}, {a={b=list[{c=\"d\", "
     "d=null(string)}]}}]"},
    {"list[null, {bar=\"bar value\"}]", "list(object({foo=optional(string), bar=string}))",
     "list[null(object({bar=string, foo=string})), {bar=\"bar value\", foo=null(string)}]"},
    // optional attributes leave the types of nulls and empty collections
    {"list(object({a=optional(string)}))[]", "set(object({a=optional(string)}))",
     "set(object({a=string}))[]"},
    {"[]", "set(object({a=optional(string)}))", "set(object({a=string}))[]"},
    {"set(object({a=optional(string)}))[]", "list(object({a=optional(string)}))",
     "list(object({a=string}))[]"},
    {"[]", "list(object({a=optional(string)}))", "list(object({a=string}))[]"},
    {"{}", "map(object({a=optional(string)}))", "map(object({a=string})){}"},
    {"map(string){}", "map(object({a=optional(string)}))",
     "!incorrect map element type: object required, but have string"},
    {"null(list(object({a=optional(string)})))", "set(object({a=optional(string)}))",
     "null(set(object({a=string})))"},
    {"null(tuple([]))", "list(object({a=optional(string)}))", "null(list(object({a=string})))"},
    {"null(object({}))", "map(object({a=optional(string)}))", "null(map(object({a=string})))"},
    {"null(map(string))", "object({a=optional(string)})", "null(object({a=string}))"},
    {"list[null(object({a=optional(string)}))]", "set(object({a=optional(string)}))",
     "set[null(object({a=string}))]"},
    {"[null(object({a=optional(string)}))]", "set(object({a=optional(string)}))",
     "set[null(object({a=string}))]"},
    {"set[null(object({a=optional(string)}))]", "list(object({a=optional(string)}))",
     "list[null(object({a=string}))]"},
    {"{object=null(object({a=optional(string)}))}", "map(object({a=optional(string)}))",
     "map{object=null(object({a=string}))}"},
    {"map{object=null(object({a=optional(string)}))}",
     "object({object=object({a=optional(string)})})", "{object=null(object({a=string}))}"},
    {"map{object=null(object({a=optional(number)}))}", "map(object({a=optional(string)}))",
     "map{object=null(object({a=string}))}"},
    {"[null(object({a=optional(number)}))]", "tuple([object({a=optional(string)})])",
     "[null(object({a=string}))]"},
    {"[{d=10, c={a=\"foo\", b=true}}, {d=5}]",
     "set(object({c=optional(object({a=string, b=optional(bool)})), d=number}))",
     "set[{c={a=\"foo\", b=true}, d=10}, {c=null(object({a=string, b=bool})), d=5}]"},
    // cty's Convert returns a value of the wanted type unchanged
    {"{a=1}", "object({a=number})", "{a=1}"},
    {"[1, \"a\"]", "tuple([number, string])", "[1, \"a\"]"},
};

class ConvertTable : public ::testing::TestWithParam<ConvertCase> {};

TEST_P(ConvertTable, Convert) {
  const ConvertCase& c = GetParam();
  EXPECT_EQ(show_result(convert(V(c.value), T(c.type))), expected(c.want))
      << c.value << " to " << c.type;
}

INSTANTIATE_TEST_SUITE_P(Cty, ConvertTable, ::testing::ValuesIn(kConvert));

// --- unknowns: cty's refinements of conversion results ------------------------------------

const ConvertCase kUnknown[] = {
    {"unknown(tuple([string, string]))", "list(string)", "unknown(list(string), len=2..2)"},
    {"unknown(tuple([string, string]), nn)", "list(string)",
     "list[unknown(string), unknown(string)]"},
    {"unknown(tuple([]), nn)", "list(string)", "list(string)[]"},
    {"unknown(tuple([]))", "list(string)", "unknown(list(string), len=0..0)"},
    {"unknown(tuple([string]))", "set(string)", "unknown(set(string), len=1..1)"},
    {"unknown(tuple([string]), nn)", "set(string)", "set[unknown(string)]"},
    {"unknown(tuple([string, string, string]))", "set(any)", "unknown(set(string), len=1..3)"},
    {"unknown(tuple([string, number]), nn)", "set(string)", "unknown(set(string), nn, len=1..2)"},
    {"unknown(object({a=string, b=number}))", "map(string)", "unknown(map(string), len=2..2)"},
    {"unknown(object({a=string, b=number}), nn)", "map(string)",
     "unknown(map(string), nn, len=2..2)"},
    {"unknown(object({}), nn)", "map(string)", "map(string){}"},
    {"unknown(list(string), nn, len=2..5)", "set(string)", "unknown(set(string), nn, len=1..5)"},
    {"unknown(list(string), len=0..5)", "set(string)", "unknown(set(string), len=0..5)"},
    {"unknown(set(string), nn, len=2..5)", "list(number)", "unknown(list(number), nn, len=2..5)"},
    {"unknown(set(string), nn, len=3..3)", "list(number)",
     "list[unknown(number), unknown(number), unknown(number)]"},
    {"unknown(list(string), nn, len=1..1)", "set(number)", "set[unknown(number)]"},
    {"unknown(map(string), nn, len=0..0)", "map(number)", "map(number){}"},
    {"unknown(map(string), len=1..2)", "object({a=string})", "unknown(object({a=string}))"},
    {"unknown(string, nn)", "number", "unknown(number, nn)"},
    {"unknown(string, prefix=\"abc\")", "number", "unknown(number)"},
    {"unknown(string, nn, prefix=\"abc\")", "bool", "unknown(bool, nn)"},
    {"unknown(number, nn)", "string", "unknown(string, nn)"},
    {"unknown(object({a=number}), nn)", "object({a=string})", "unknown(object({a=string}), nn)"},
    {"unknown(string)@s", "number", "unknown(number)@s"},
    {"unknown(string, nn)", "string", "unknown(string, nn)"},
    {"dyn", "list(any)", "unknown(list(any))"},
    {"[dyn, \"a\"]", "list(any)", "list[unknown(string), \"a\"]"},
    {"{a=unknown(number), b=\"x\"}", "map(string)", "map{a=unknown(string), b=\"x\"}"},
    {"unknown(list(string))", "set(string)", "unknown(set(string))"},
};

class UnknownTable : public ::testing::TestWithParam<ConvertCase> {};

TEST_P(UnknownTable, Refinements) {
  const ConvertCase& c = GetParam();
  EXPECT_EQ(show_result(convert(V(c.value), T(c.type))), expected(c.want))
      << c.value << " to " << c.type;
}

INSTANTIATE_TEST_SUITE_P(Cty, UnknownTable, ::testing::ValuesIn(kUnknown));

// --- marks ----------------------------------------------------------------------------------

const ConvertCase kMarks[] = {
    {"\"hello\"@a", "string", "\"hello\"@a"},
    {"\"true\"@a", "bool", "true@a"},
    {"5@a", "string", "\"5\"@a"},
    {"[\"hello\"@a]", "list(string)", "list[\"hello\"@a]"},
    {"[5@a, \"x\"]", "list(string)", "list[\"5\"@a, \"x\"]"},
    {"{foo=\"hello\"@a}", "map(string)", "map{foo=\"hello\"@a}"},
    {"{foo=\"hello\"@a, bar=\"world\"@a}", "object({foo=string})", "{foo=\"hello\"@a}"},
    {"{foo=\"hello\", bar=\"world\"@a}", "object({foo=string})", "{foo=\"hello\"}"},
    {"list[\"a\"]@a", "set(string)", "set[\"a\"]@a"},
    {"[\"a\"]@a@b", "list(string)", "list[\"a\"]@a@b"},
    {"null(string)@a", "number", "null(number)@a"},
    {"{a=1}@a", "object({a=string})", "{a=\"1\"}@a"},
    {"[[\"x\"@a]]", "set(list(string))", "set[list[\"x\"]]@a"},
    {"[\"hello\"@a, \"hello\"@b]", "set(string)", "set[\"hello\"]@a@b"},
    // As cty: an element that is null after conversion loses its marks.
    {"[null(string)@a]", "set(string)", "set[null(string)]"},
    {"[null(string)@a]", "list(string)", "list[null(string)@a]"},
    {"list[null(string)@a]", "list(number)", "list[null(number)]"},
    {"\"x\"@a", "number", "!a number is required"},
};

class MarksTable : public ::testing::TestWithParam<ConvertCase> {};

TEST_P(MarksTable, Preserved) {
  const ConvertCase& c = GetParam();
  EXPECT_EQ(show_result(convert(V(c.value), T(c.type))), expected(c.want))
      << c.value << " to " << c.type;
}

INSTANTIATE_TEST_SUITE_P(Cty, MarksTable, ::testing::ValuesIn(kMarks));

// --- mismatch messages --------------------------------------------------------------------

struct MismatchCase {
  const char* got;
  const char* want;
  const char* msg;
};

const MismatchCase kMismatch[] = {
    {"bool", "number", "number required, but have bool"},
    {"object({})", "object({foo=string})", "attribute \"foo\" is required"},
    {"object({})", "object({foo=string, bar=string})",
     "attributes \"bar\" and \"foo\" are required"},
    {"object({})", "object({foo=string, bar=string, baz=string})",
     "attributes \"bar\", \"baz\", and \"foo\" are required"},
    {"object({})", "list(object({foo=string, bar=string, baz=string}))", "list of object required"},
    {"list(string)", "list(object({foo=string}))",
     "incorrect list element type: object required, but have string"},
    {"list(object({}))", "list(object({foo=string}))",
     "incorrect list element type: attribute \"foo\" is required"},
    {"tuple([object({})])", "list(object({foo=string}))",
     "element 0: attribute \"foo\" is required"},
    {"list(object({}))", "set(object({foo=string}))",
     "incorrect set element type: attribute \"foo\" is required"},
    {"tuple([object({})])", "set(object({foo=string}))",
     "element 0: attribute \"foo\" is required"},
    {"map(object({}))", "map(object({foo=string}))",
     "incorrect map element type: attribute \"foo\" is required"},
    {"object({boop=object({})})", "map(object({foo=string}))",
     "element \"boop\": attribute \"foo\" is required"},
    {"tuple([object({}), tuple([])])", "list(any)", "all list elements must have the same type"},
    {"tuple([object({}), tuple([])])", "set(any)", "all set elements must have the same type"},
    {"object({a=bool, b=number})", "map(any)", "all map elements must have the same type"},
    {"object({foo=bool, bar=string, baz=object({boop=number})})",
     "object({foo=bool, bar=string, baz=object({boop=number, beep=bool})})",
     "attribute \"baz\": attribute \"beep\" is required"},
    {"object({a=optional(string)})", "object({a=string, b=optional(number)})",
     "incorrect object attributes"},
    // the newest cty names both types when that cannot mislead
    {"tuple([])", "string", "string required, but have tuple"},
    {"any", "string", "string required, but have dynamic"},
    {"string", "list(any)", "list of dynamic required, but have string"},
    {"string", "number", "number required"},
    {"string", "bool", "bool required"},
    {"number", "bool", "bool required, but have number"},
    {"tuple([])", "object({})", "object required, but have tuple"},
    {"object({})", "tuple([])", "tuple required"},
    {"list(string)", "object({})", "object required"},
    {"map(string)", "list(string)", "list of string required"},
    {"object({a=string})", "list(string)", "list of string required"},
    {"tuple([string])", "map(string)", "map of string required"},
    {"tuple([string, list(string)])", "list(string)",
     "element 1: string required, but have list of string"},
    {"object({a=string, b=tuple([])})", "map(string)",
     "element \"b\": string required, but have tuple"},
    {"object({a=string, b=bool})", "object({a=number, b=number})",
     "attribute \"b\": number required, but have bool"},
    {"map(string)", "any", "any type required"},
};

class MismatchTable : public ::testing::TestWithParam<MismatchCase> {};

TEST_P(MismatchTable, Message) {
  const MismatchCase& c = GetParam();
  EXPECT_EQ(mismatch_message(T(c.got), T(c.want)), c.msg);
}

INSTANTIATE_TEST_SUITE_P(Cty, MismatchTable, ::testing::ValuesIn(kMismatch));

// --- unification ------------------------------------------------------------------------------

struct UnifyCase {
  std::vector<const char*> types;
  const char* want;   // null: no common type
  const char* convs;  // per input: 'y' a conversion, 'n' none
};

const UnifyCase kUnify[] = {
    {{}, nullptr, ""},
    {{"string"}, "string", "n"},
    {{"number"}, "number", "n"},
    {{"number", "number"}, "number", "nn"},
    {{"number", "string"}, "string", "yn"},
    {{"string", "number"}, "string", "ny"},
    {{"bool", "string", "number"}, "string", "yny"},
    {{"bool", "number"}, nullptr, ""},
    {{"object({foo=string})", "object({foo=string})"}, "object({foo=string})", "nn"},
    {{"object({foo=string})", "object({foo=number})"}, "object({foo=string})", "ny"},
    {{"object({foo=string})", "object({bar=number})"}, "map(string)", "yy"},
    {{"object({foo=string})", "object({})"}, "map(string)", "yy"},
    {{"object({foo=bool})", "object({bar=number})"}, nullptr, ""},
    {{"object({foo=bool})", "object({foo=number})"}, nullptr, ""},
    {{"tuple([string])", "tuple([string])"}, "tuple([string])", "nn"},
    {{"tuple([string])", "tuple([number])"}, "tuple([string])", "ny"},
    {{"tuple([string])", "tuple([string, number])"}, "list(string)", "yy"},
    {{"tuple([string])", "tuple([])"}, "list(string)", "yy"},
    {{"tuple([bool])", "tuple([number])"}, nullptr, ""},
    {{"tuple([object({a=string}), object({a=string})])", "tuple([object({a=string, b=string})])"},
     "list(map(string))",
     "yy"},
    {{"tuple([object({a=string}), any])", "list(any)"}, nullptr, ""},
    {{"list(object({a=string}))", "tuple([object({a=string, b=string})])",
      "tuple([object({a=string, b=string}), object({c=string, d=string})])"},
     "list(map(string))",
     "yyy"},
    {{"list(object({a=string}))", "list(map(string))",
      "tuple([map(string), object({a=string, b=string})])"},
     "list(map(string))",
     "yny"},
    {{"tuple([object({a=string, b=number}), object({a=string, b=number})])",
      "tuple([object({a=string})])"},
     "list(map(string))",
     "yy"},
    {{"tuple([object({a=string, b=number})])", "tuple([object({a=string})])"},
     "tuple([map(string)])",
     "yy"},
    {{"list(object({a=number, b=string}))", "tuple([object({a=string})])"},
     "list(map(string))",
     "yy"},
    {{"list(object({a=number, b=string}))", "list(object({a=string}))"}, "list(map(string))", "yy"},
    {{"list(object({a=object({a=string}), b=object({a=string, b=string})}))",
      "list(map(object({a=string, b=string})))"},
     "list(map(map(string)))",
     "yy"},
    {{"object({a=object({a=string})})", "object({a=object({a=string, b=string})})"},
     "object({a=map(string)})",
     "yy"},
    {{"object({a=object({a=string}), b=object({a=string, b=string})})",
      "map(object({a=string, b=string}))"},
     "map(map(string))",
     "yy"},
    {{"object({a=object({a=list(string)}), b=object({a=tuple([string]), b=list(string)})})",
      "map(object({a=list(string), b=list(string)}))"},
     "map(map(list(string)))",
     "yy"},
    {{"object({a=object({a=string}), b=object({a=string})})", "map(object({a=string}))"},
     "map(object({a=string}))",
     "yn"},
    {{"object({a=object({a=string}), b=object({a=string})})", "map(any)",
      "map(object({a=string}))"},
     "map(any)",
     "yny"},
    {{"object({a=object({a=object({a=string})}), b=object({c=object({d=string})})})",
      "map(map(map(string)))"},
     "map(map(map(string)))",
     "yn"},
    {{"map(map(map(string)))",
      "object({a=object({a=object({a=string}), b=map(string)}), b=map(map(string))})"},
     "map(map(map(string)))",
     "ny"},
    {{"any", "tuple([number])"}, "any", "yy"},
    {{"any", "object({num=number})"}, "any", "yy"},
    {{"tuple([number])", "any", "object({num=number})"}, nullptr, ""},
    // beyond cty's table
    {{"any", "any"}, "any", "nn"},
    {{"string", "any"}, "any", "yn"},
    {{"list(string)", "set(string)"}, "list(string)", "ny"},
    {{"map(string)", "map(number)"}, "map(string)", "ny"},
    {{"list(string)", "any"}, "any", "yy"},
    {{"object({a=optional(string)})", "object({a=optional(string)})"}, "object({a=string})", "yy"},
};

struct UnifyParam {
  const UnifyCase* c;
  bool unsafe;
};

std::vector<const Type*> types_of(const std::vector<const char*>& names) {
  std::vector<const Type*> out;
  for (const char* n : names) out.push_back(T(n));
  return out;
}

class UnifyTable : public ::testing::TestWithParam<const UnifyCase*> {};

TEST_P(UnifyTable, Safe) {
  const UnifyCase& c = *GetParam();
  Unified u = unify(types_of(c.types));
  if (!c.want) {
    EXPECT_EQ(u.type, nullptr) << show_type(u.type);
    return;
  }
  ASSERT_NE(u.type, nullptr);
  EXPECT_EQ(show_type(u.type), show_type(T(c.want)));
  std::string convs;
  for (const ConversionRef& r : u.conversions) convs += r ? 'y' : 'n';
  EXPECT_EQ(convs, c.convs);
}

std::vector<const UnifyCase*> unify_cases() {
  std::vector<const UnifyCase*> out;
  for (const UnifyCase& c : kUnify) out.push_back(&c);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Cty, UnifyTable, ::testing::ValuesIn(unify_cases()));

TEST(Unify, UnsafeReachesFurther) {
  // dynamic converts to string only unsafely.
  std::vector<const Type*> ts = {Type::string(), Type::dynamic()};
  EXPECT_EQ(unify(ts).type, Type::dynamic());
  EXPECT_EQ(unify_unsafe(ts).type, Type::string());
  // A string converts to a number only unsafely.
  std::vector<const Type*> ls = {T("set(string)"), T("list(number)")};
  EXPECT_EQ(unify(ls).type, nullptr);
  EXPECT_EQ(show_type(unify_unsafe(ls).type), "list(number)");
  std::vector<const Type*> ms = {T("map(string)"), T("object({a=string})")};
  EXPECT_EQ(show_type(unify_unsafe(ms).type), "map(string)");
}

TEST(Unify, ConversionsApply) {
  std::vector<const Type*> ts = {T("tuple([number])"), T("list(string)")};
  Unified u = unify_unsafe(ts);
  ASSERT_EQ(show_type(u.type), "list(string)");
  ASSERT_TRUE(u.conversions[0]);
  EXPECT_FALSE(u.conversions[1]);
  // As cty: the tuple is unified as a list of numbers, and that list
  // conversion then runs on the original tuple.
  EXPECT_EQ(show_result((*u.conversions[0])(V("[5]"))), "list[\"5\"] : list(string)");
  std::vector<const Type*> ds = {T("any"), T("tuple([number])")};
  Unified d = unify(ds);
  EXPECT_EQ(show_result((*d.conversions[1])(V("[5]"))), "unknown(any) : any");
}

struct CompareCase {
  const char* a;
  const char* b;
  int want;
};

const CompareCase kCompare[] = {
    {"string", "string", 0},
    {"string", "number", -1},
    {"number", "string", 1},
    {"string", "bool", -1},
    {"bool", "string", 1},
    {"bool", "number", 0},
    {"number", "bool", 0},
    {"list(string)", "list(string)", 0},
    {"list(string)", "list(number)", -1},
    {"list(number)", "list(string)", 1},
    {"list(string)", "string", 0},
    {"set(string)", "set(string)", 0},
    {"set(string)", "set(number)", -1},
    {"set(number)", "set(string)", 1},
    {"set(string)", "string", 0},
    {"map(string)", "map(string)", 0},
    {"map(string)", "map(number)", -1},
    {"map(number)", "map(string)", 1},
    {"map(string)", "string", 0},
    {"object({})", "object({})", 0},
    {"object({})", "object({name=string})", 0},
    {"object({name=string})", "object({name=string})", 0},
    {"object({name=string, number=number})", "object({name=string})", 0},
    {"object({number=number})", "object({name=string})", 0},
    {"object({name=string, number=number})", "object({name=string, number=number})", 0},
    {"object({name=string, number=string})", "object({name=string, number=number})", -1},
    {"object({name=string, number=number})", "object({name=string, number=string})", 1},
    {"object({a=string, b=number})", "object({a=number, b=string})", 0},
    {"tuple([])", "tuple([])", 0},
    {"tuple([])", "tuple([string])", 0},
    {"tuple([string])", "tuple([string])", 0},
    {"tuple([string, number])", "tuple([string])", 0},
    {"tuple([string, number])", "tuple([string, number])", 0},
    {"tuple([string, string])", "tuple([string, number])", -1},
    {"tuple([string, number])", "tuple([string, string])", 1},
    {"tuple([string, number])", "tuple([number, string])", 0},
    {"set(string)", "list(string)", 1},
    {"list(string)", "set(string)", -1},
    {"list(string)", "set(number)", -1},
    {"set(number)", "list(string)", 1},
    {"list(number)", "set(string)", -1},
    {"set(string)", "list(number)", 1},
    {"any", "any", 0},
    {"any", "string", 1},
    {"string", "any", -1},
    {"number", "any", -1},
    {"any", "number", 1},
    {"bool", "any", -1},
    {"any", "bool", 1},
    {"tuple([string])", "list(string)", 1},
    {"list(string)", "tuple([string])", -1},
    {"object({a=string})", "map(string)", 1},
    {"map(string)", "object({a=string})", -1},
    {"set(string)", "tuple([string])", 1},
};

class CompareTable : public ::testing::TestWithParam<CompareCase> {};

TEST_P(CompareTable, Order) {
  const CompareCase& c = GetParam();
  EXPECT_EQ(compare_types(T(c.a), T(c.b)), c.want) << c.a << " vs " << c.b;
}

INSTANTIATE_TEST_SUITE_P(Cty, CompareTable, ::testing::ValuesIn(kCompare));

struct SortCase {
  std::vector<const char*> in;
  std::vector<const char*> want;
};

const SortCase kSort[] = {
    {{}, {}},
    {{"string", "number"}, {"string", "number"}},
    {{"number", "string"}, {"string", "number"}},
    {{"string", "bool"}, {"string", "bool"}},
    {{"bool", "string"}, {"string", "bool"}},
    {{"bool", "string", "number"}, {"string", "bool", "number"}},
    {{"number", "string", "bool"}, {"string", "number", "bool"}},
    {{"string", "string"}, {"string", "string"}},
    {{"number", "string", "number"}, {"string", "number", "number"}},
    {{"string", "list(string)"}, {"string", "list(string)"}},
    {{"list(string)", "string"}, {"list(string)", "string"}},
    {{"bool", "list(string)", "string"}, {"list(string)", "string", "bool"}},
    {{"string", "any"}, {"string", "any"}},
    {{"any", "string"}, {"string", "any"}},
};

class SortTable : public ::testing::TestWithParam<SortCase> {};

TEST_P(SortTable, Order) {
  const SortCase& c = GetParam();
  std::vector<const Type*> in = types_of(c.in);
  std::vector<size_t> idx = sort_types(in);
  ASSERT_EQ(idx.size(), in.size());
  std::vector<std::string> got, want;
  for (size_t i : idx) got.push_back(show_type(in[i]));
  for (const char* w : c.want) want.push_back(show_type(T(w)));
  EXPECT_EQ(got, want);
}

INSTANTIATE_TEST_SUITE_P(Cty, SortTable, ::testing::ValuesIn(kSort));

// --- plans and the fast path ----------------------------------------------------------------

TEST(Convert, PlansAreShared) {
  const Type* from = T("tuple([number, string])");
  const Type* to = T("list(string)");
  EXPECT_EQ(get_conversion(from, to), get_conversion(from, to));
  EXPECT_NE(get_conversion(from, to), nullptr);
  EXPECT_EQ(get_conversion(T("map(string)"), T("map(string)")), nullptr);
  EXPECT_EQ(get_conversion(Type::string(), Type::string()), nullptr);
  EXPECT_NE(get_conversion(T("list(string)"), T("list(string)")), nullptr);
}

TEST(Convert, ConversionObjectCallable) {
  ConversionRef c = get_conversion_unsafe(Type::string(), Type::number());
  ASSERT_TRUE(c);
  EXPECT_EQ(show_result((*c)(V("\"12\""))), "12 : number");
  EXPECT_EQ(show_result((*c)(V("\"x\""))), "!a number is required");
  EXPECT_EQ(show_result((*c)(V("null"))), "null(number) : number");
  EXPECT_EQ(show_result((*c)(V("dyn"))), "unknown(number) : number");
  ConversionRef fixup = get_conversion_unsafe(Type::dynamic(), Type::boolean());
  ASSERT_TRUE(fixup);
  EXPECT_EQ(show_result((*fixup)(V("null"))), "null(bool) : bool");
  EXPECT_EQ(get_conversion(Type::dynamic(), Type::boolean()), nullptr);
}

TEST(Convert, Capsules) {
  // Our capsule types define no conversions: only identity and dynamic.
  static int payload = 7;
  const Type* cap = Type::capsule("widget", nullptr);
  Value v = Value::capsule(cap, &payload);
  ConvertResult same = convert(v, cap);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same.value().capsule_payload(), &payload);
  EXPECT_TRUE(convert(v, Type::dynamic()).ok());
  EXPECT_EQ(show_result(convert(v, Type::string())), "!string required, but have widget");
  EXPECT_EQ(get_conversion_unsafe(cap, cap), nullptr);
  EXPECT_EQ(get_conversion_unsafe(cap, Type::capsule("other", nullptr)), nullptr);
  EXPECT_NE(get_conversion_unsafe(Type::dynamic(), cap), nullptr);
  EXPECT_TRUE(convert(Value::null(Type::dynamic()), cap).ok());
  EXPECT_EQ(convert(Value::null(Type::dynamic()), cap).value().type(), cap);
}

TEST(Convert, FastPathDoesNotAllocate) {
  if (!alloc_count::kAllocCounting) GTEST_SKIP() << "allocations are not counted under AddressSanitizer";
  Value s = V("\"hello\"");
  Value l = V("list[\"a\", \"b\"]");
  Value o = V("{a=1, b=[true]}");
  Value m = V("{a=1}@s");
  const Type* lt = l.type();
  const Type* ot = o.type();
  // Warm the plan caches.
  for (int i = 0; i < 2; ++i) {
    (void)convert(s, Type::string());
    (void)convert(l, lt);
    (void)convert(o, ot);
    (void)convert(m, m.type());
    (void)convert(o, Type::dynamic());
  }
  long before = alloc_count::allocations();
  for (int i = 0; i < 100; ++i) {
    ConvertResult a = convert(s, Type::string());
    ConvertResult b = convert(l, lt);
    ConvertResult c = convert(o, ot);
    ConvertResult d = convert(m, m.type());
    ConvertResult e = convert(o, Type::dynamic());
    ConvertResult f = convert(s, Type::dynamic());
    if (!a.ok() || !b.ok() || !c.ok() || !d.ok() || !e.ok() || !f.ok()) break;
  }
  EXPECT_EQ(alloc_count::allocations() - before, 0);
  ConvertResult r = convert(o, ot);
  EXPECT_EQ(r.value().obj(), o.obj());  // the same object, not a copy
}

TEST(Convert, CacheMissesDoNotAllocate) {
  if (!alloc_count::kAllocCounting) GTEST_SKIP() << "allocations are not counted under AddressSanitizer";
  // More type pairs than the per-thread cache holds: misses go to the
  // shared tables, which do not allocate for pairs seen before.
  std::vector<Value> vals;
  for (int i = 0; i < 1500; ++i)
    vals.push_back(Value::object({{"a" + std::to_string(i), Value::boolean(true)}}));
  for (int pass = 0; pass < 2; ++pass)
    for (const Value& v : vals) (void)convert(v, v.type());
  long before = alloc_count::allocations();
  for (const Value& v : vals) {
    ConvertResult r = convert(v, v.type());
    if (!r.ok()) break;
  }
  EXPECT_EQ(alloc_count::allocations() - before, 0);
}

TEST(Convert, ThreadsShareThePlans) {
  std::vector<std::thread> threads;
  std::atomic<int> bad{0};
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&bad] {
      for (int i = 0; i < 200; ++i) {
        Value v = V("[1, \"a\", {x=2}]");
        ConvertResult r = convert(v, T("tuple([string, string, map(string)])"));
        if (!r.ok() || show(r.value()) != "[\"1\", \"a\", map{x=\"2\"}]") ++bad;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad.load(), 0);
}

// --- differential data from the Go reference ------------------------------------------------

// The reference's printed form of [v] ({"value":…,"type":…}), and of the
// value it printed as [oracle_json], for comparing the two.
std::string result_text(const Value& v) { return test::oracle_text(v); }
std::string normalized(std::string_view oracle_json) {
  return test::oracle_text(test::oracle_value(oracle_json));
}

struct GoldenRecord {
  std::vector<std::string> f;
  size_t line;
};

struct Golden {
  std::map<std::string, std::string> inputs;  // expression -> cty JSON
  std::vector<GoldenRecord> ops, conds;
};

const Golden& golden() {
  static const Golden g = [] {
    Golden out;
    std::string text =
        test::read_file(std::string(HCLVM_SOURCE_DIR) + "/tests/golden/convert/convert.golden");
    std::istringstream in(text);
    std::string line;
    size_t n = 0;
    while (std::getline(in, line)) {
      ++n;
      if (line.empty() || line[0] == '#') continue;
      std::vector<std::string> f = test::split_tabs(line);
      if (f[0] == "in")
        out.inputs[f[1]] = f[2];
      else if (f[0] == "op")
        out.ops.push_back({f, n});
      else if (f[0] == "cond")
        out.conds.push_back({f, n});
    }
    return out;
  }();
  return g;
}

Value golden_input(const std::string& expr) {
  const Golden& g = golden();
  auto it = g.inputs.find(expr);
  if (it == g.inputs.end()) throw std::runtime_error("no input " + expr);
  return test::oracle_value(it->second);
}

// cty's MakeToFunc (the to* functions), which has messages of its own.
std::string to_func(const Value& arg, const Type* want, Value& out) {
  const Type* got = arg.type();
  if (got == want) {
    out = arg;
    return "";
  }
  if (!get_conversion_unsafe(got, want)) {
    if (got->is_tuple() && want->is_tuple())
      return "incompatible tuple type for conversion: " + mismatch_message(got, want);
    if (got->is_object() && want->is_object())
      return "incompatible object type for conversion: " + mismatch_message(got, want);
    return "cannot convert " + got->friendly_name() + " to " + want->friendly_name_for_constraint();
  }
  ConvertResult r = convert(arg, want);
  if (r.ok()) {
    out = r.value();
    return "";
  }
  std::string what = arg.is_null() ? std::string("string") : std::string();
  if (got == Type::string() && !arg.is_null()) what = uni::go_quote(arg.as_string());
  if (got == Type::string() && want == Type::boolean())
    return "cannot convert " + what +
           " to bool; only the strings \"true\" or \"false\" are allowed";
  if (got == Type::string() && want == Type::number())
    return "cannot convert " + what +
           " to number; given string must be a decimal representation of a number";
  return "cannot convert " + got->friendly_name() + " to " + want->friendly_name_for_constraint();
}

const std::map<std::string, std::string>& op_types() {
  static const std::map<std::string, std::string> m = {
      {"tolist", "list(any)"},    {"toset", "set(any)"},
      {"tomap", "map(any)"},      {"tostring", "string"},
      {"tonumber", "number"},     {"tobool", "bool"},
      {"string", "string"},       {"number", "number"},
      {"bool", "bool"},           {"list(string)", "list(string)"},
      {"list(any)", "list(any)"},
  };
  return m;
}

TEST(Golden, Loaded) {
  EXPECT_GT(golden().inputs.size(), 50u);
  EXPECT_GT(golden().ops.size(), 500u);
  EXPECT_GT(golden().conds.size(), 500u);
}

TEST(Golden, InputsRoundTrip) {
  for (const auto& [expr, json] : golden().inputs) {
    Value v = golden_input(expr);
    EXPECT_EQ(result_text(v), normalized(json)) << expr;
  }
}

TEST(Golden, Conversions) {
  size_t checked = 0;
  for (const GoldenRecord& r : golden().ops) {
    const std::string& op = r.f[1];
    const std::string& expr = r.f[2];
    SCOPED_TRACE("convert.golden:" + std::to_string(r.line) + ": " + op + "(" + expr + ")");
    Value arg = golden_input(expr);
    const Type* want = T(op_types().at(op));
    Value out;
    std::string err;
    if (op.rfind("to", 0) == 0) {
      err = to_func(arg, want, out);
    } else {
      ConvertResult c = convert(arg, want);
      if (c.ok())
        out = c.value();
      else
        err = c.error().message;
    }
    if (r.f[3] == "err") {
      EXPECT_EQ(err, r.f[4]);
    } else {
      EXPECT_EQ(err, "");
      if (err.empty() && !r.f[4].empty()) {
        EXPECT_EQ(result_text(out), normalized(r.f[4]));
      }
    }
    ++checked;
  }
  EXPECT_EQ(checked, golden().ops.size());
}

TEST(Golden, Conditionals) {
  for (const GoldenRecord& r : golden().conds) {
    bool cond = r.f[1] == "true";
    SCOPED_TRACE("convert.golden:" + std::to_string(r.line) + ": " + r.f[1] + " ? " + r.f[2] +
                 " : " + r.f[3]);
    Value a = golden_input(r.f[2]);
    Value b = golden_input(r.f[3]);
    // hclsyntax's ConditionalExpr: a literal null takes the other arm's
    // type; else the arms' types are unified.
    const Type* result = Type::dynamic();
    std::vector<ConversionRef> convs(2);
    auto is_null_dyn = [](const Value& v) { return v.is_null() && v.type()->is_dynamic(); };
    if (is_null_dyn(a)) {
      result = b.type();
      convs[0] = get_conversion_unsafe(Type::dynamic(), result);
    } else if (is_null_dyn(b)) {
      result = a.type();
      convs[1] = get_conversion_unsafe(Type::dynamic(), result);
    } else if (!a.type()->is_dynamic() && !b.type()->is_dynamic()) {
      std::vector<const Type*> ts = {a.type(), b.type()};
      Unified u = unify_unsafe(ts);
      result = u.type;
      if (u.type) convs = u.conversions;
    }
    const std::string& want = r.f[5];
    if (!result) {
      EXPECT_EQ(r.f[4], "err");
      EXPECT_EQ(want.rfind("The true and false result expressions must have consistent types.", 0),
                0u)
          << want;
      continue;
    }
    Value v = cond ? a : b;
    const ConversionRef& c = convs[cond ? 0 : 1];
    if (c) {
      ConvertResult cr = (*c)(v);
      if (!cr.ok()) {
        EXPECT_EQ(r.f[4], "err");
        EXPECT_EQ(std::string("The ") + (cond ? "true" : "false") +
                      " result value has the wrong type: " + cr.error().message + ".",
                  want);
        continue;
      }
      v = cr.value();
    }
    ASSERT_EQ(r.f[4], "ok") << want;
    EXPECT_EQ(result_text(v), normalized(want));
  }
}

}  // namespace
}  // namespace hclvm
