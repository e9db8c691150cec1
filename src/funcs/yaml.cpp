// yamldecode and yamlencode, as Terraform takes them from go-cty-yaml
// (newest release): YAML read into the values of the type the document
// implies, and values written as YAML.
//
// The YAML library is libyaml (libyaml-dev). go-cty-yaml carries a Go
// translation of libyaml's scanner, parser and emitter, so with the C
// original the events, their positions and the parser's problem texts are
// the reference's; what go-cty-yaml builds on top (tag resolution, the
// type mapping, anchors, merge keys, its error wording and positions) is
// done here as it does it. One difference of the Go translation is
// reproduced: it ends a document whose root is a plain scalar with "...".
//
// Decoding, like the reference, reads the document twice: once for its
// type (the type function), once for its value, which is then converted to
// that type. The two readings differ on purpose in one place: a block
// scalar ("|", ">") is a string to the first and resolved like a plain
// scalar by the second.
//
// An alias shares its anchor's value, so a few hundred bytes of aliases of
// aliases describe a value with billions of paths ("billion laughs"),
// which every later operation (encoding, printing, flattening) would pay
// for. go-cty-yaml has no defence; decoding here follows the rule of
// go-yaml v3's decoder (the library Terraform's other YAML readers use):
// every node counts once where it is written and once more for each time
// an alias repeats it, and a document whose alias-made nodes pass a share
// of all nodes (99% up to 400,000 nodes, down to 10% at 4,000,000) fails
// with its message, "document contains excessive aliasing". Aliases may
// also not nest the value deeper than a document may nest (10,000 levels).
#include <yaml.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "funcs/funcs.h"
#include "funcs/hash.h"
#include "util/meter.h"
#include "util/stack.h"
#include "value/convert.h"
#include <hclvm/functions.h>

namespace hclvm::funcs {

namespace {

const std::string kStrTag = "tag:yaml.org,2002:str";
const std::string kBinaryTag = "tag:yaml.org,2002:binary";
const std::string kBoolTag = "tag:yaml.org,2002:bool";
const std::string kIntTag = "tag:yaml.org,2002:int";
const std::string kFloatTag = "tag:yaml.org,2002:float";
const std::string kNullTag = "tag:yaml.org,2002:null";
const std::string kTimestampTag = "tag:yaml.org,2002:timestamp";
const std::string kMergeTag = "tag:yaml.org,2002:merge";
const std::string kMapTag = "tag:yaml.org,2002:map";
const std::string kSeqTag = "tag:yaml.org,2002:seq";

// --- scalars ------------------------------------------------------------------

// What a scalar resolves to: a value, the merge key "<<", or an error.
struct Resolved {
  enum class Kind { Value, Merge, Error } kind = Kind::Value;
  Value value;
  std::string error;
};

Resolved resolved(Value v) { return {Resolved::Kind::Value, std::move(v), {}}; }
Resolved resolve_error(std::string e) { return {Resolved::Kind::Error, Value(), std::move(e)}; }

// The plain scalars with fixed meanings (YAML 1.1's booleans, nulls and
// infinities, as go-yaml lists them).
const Value* fixed_scalar(std::string_view s, bool& is_bool) {
  static const Value kTrue = Value::boolean(true), kFalse = Value::boolean(false);
  static const Value kNull = Value::null(Type::dynamic());
  static const Value kPosInf = Value::number(Number::infinity(false));
  static const Value kNegInf = Value::number(Number::infinity(true));
  static const std::map<std::string_view, const Value*> kTable = {
      {"y", &kTrue},       {"Y", &kTrue},       {"yes", &kTrue},     {"Yes", &kTrue},
      {"YES", &kTrue},     {"true", &kTrue},    {"True", &kTrue},    {"TRUE", &kTrue},
      {"on", &kTrue},      {"On", &kTrue},      {"ON", &kTrue},      {"n", &kFalse},
      {"N", &kFalse},      {"no", &kFalse},     {"No", &kFalse},     {"NO", &kFalse},
      {"false", &kFalse},  {"False", &kFalse},  {"FALSE", &kFalse},  {"off", &kFalse},
      {"Off", &kFalse},    {"OFF", &kFalse},    {"", &kNull},        {"~", &kNull},
      {"null", &kNull},    {"Null", &kNull},    {"NULL", &kNull},    {".inf", &kPosInf},
      {".Inf", &kPosInf},  {".INF", &kPosInf},  {"+.inf", &kPosInf}, {"+.Inf", &kPosInf},
      {"+.INF", &kPosInf}, {"-.inf", &kNegInf}, {"-.Inf", &kNegInf}, {"-.INF", &kNegInf},
  };
  auto it = kTable.find(s);
  if (it == kTable.end()) return nullptr;
  is_bool = it->second->type() == Type::boolean();
  return it->second;
}

bool all_of(std::string_view s, const char* set) {
  return !s.empty() && s.find_first_not_of(set) == std::string_view::npos;
}

// YAML 1.2's core-schema integers: decimal with an optional sign, "0o"
// octal, "0x" hexadecimal.
bool is_yaml_int(std::string_view s) {
  if (s.starts_with("0o")) return all_of(s.substr(2), "01234567");
  if (s.starts_with("0x")) return all_of(s.substr(2), "0123456789abcdefABCDEF");
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  return all_of(s, "0123456789");
}

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
bool is_yaml_float(std::string_view s) {
  size_t i = 0;
  auto digits = [&] {
    size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i > start;
  };
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (!digits()) return false;
  } else {
    if (!digits()) return false;
    if (i < s.size() && s[i] == '.') {
      ++i;
      digits();
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == s.size();
}

// Go's strconv.ParseInt(s, 0, 64), then ParseUint(s, 0, 64): a sign (for
// the signed reading), a base prefix ("0x", "0o", "0b" or a leading "0"
// for octal) and digits of that base.
std::optional<Number> parse_go_int(std::string_view s) {
  bool neg = false, sign = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    neg = s[0] == '-';
    sign = true;
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.size() >= 2 && s[0] == '0') {
    char p = char(std::tolower(static_cast<unsigned char>(s[1])));
    if (p == 'x' || p == 'o' || p == 'b') {
      base = p == 'x' ? 16 : p == 'o' ? 8 : 2;
      s.remove_prefix(2);
    } else {
      base = 8;
      s.remove_prefix(1);
    }
  }
  if (s.empty()) return std::nullopt;
  uint64_t v = 0;
  for (char c : s) {
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'z' ? c - 'a' + 10
            : c >= 'A' && c <= 'Z' ? c - 'A' + 10
                                   : 99;
    if (d >= base) return std::nullopt;
    if (v > (UINT64_MAX - uint64_t(d)) / uint64_t(base)) return std::nullopt;  // out of range
    v = v * uint64_t(base) + uint64_t(d);
  }
  constexpr uint64_t kMaxInt = uint64_t(INT64_MAX);
  if (neg) {
    if (v > kMaxInt + 1) return std::nullopt;
    return Number::from_int(v == kMaxInt + 1 ? INT64_MIN : -int64_t(v));
  }
  if (v <= kMaxInt) return Number::from_int(int64_t(v));
  if (sign) return std::nullopt;  // ParseUint takes no sign
  return Number::from_uint(uint64_t(v));
}

// --- timestamps ----------------------------------------------------------------

int days_in(int month, int year) {
  static constexpr int kDays[13] = {0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month == 2 && (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0))) return 29;
  return kDays[month];
}

// Go's time.Parse of a 1- or 2-digit field (getnum with fixed false).
bool take_num(std::string_view& s, int& out) {
  if (s.empty() || s[0] < '0' || s[0] > '9') return false;
  out = s[0] - '0';
  s.remove_prefix(1);
  if (!s.empty() && s[0] >= '0' && s[0] <= '9') {
    out = out * 10 + (s[0] - '0');
    s.remove_prefix(1);
  }
  return true;
}

// go-yaml's timestamp formats, tried in order with Go's time.Parse:
// "2006-1-2T15:4:5.999999999Z07:00" (also with "t"), "2006-1-2
// 15:4:5.999999999" and "2006-1-2"; the result in RFC 3339 (fractional
// seconds dropped, "Z" for UTC).
std::optional<std::string> parse_timestamp(std::string_view s) {
  size_t digits = 0;
  while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9') ++digits;
  if (digits != 4 || digits == s.size() || s[digits] != '-') return std::nullopt;
  for (int format = 0; format < 4; ++format) {
    std::string_view v = s;
    int year = (v[0] - '0') * 1000 + (v[1] - '0') * 100 + (v[2] - '0') * 10 + (v[3] - '0');
    v.remove_prefix(5);
    int month = 0, day = 0, hour = 0, minute = 0, second = 0, offset = 0;
    if (!take_num(v, month) || month < 1 || month > 12) continue;
    if (v.empty() || v[0] != '-') continue;
    v.remove_prefix(1);
    if (!take_num(v, day)) continue;
    if (format < 3) {
      if (format == 2) {  // a space in a layout matches one or more
        if (v.empty() || v[0] != ' ') continue;
        while (!v.empty() && v[0] == ' ') v.remove_prefix(1);
      } else {
        if (v.empty() || v[0] != (format == 0 ? 'T' : 't')) continue;
        v.remove_prefix(1);
      }
      if (!take_num(v, hour) || hour >= 24) continue;
      if (v.empty() || v[0] != ':') continue;
      v.remove_prefix(1);
      if (!take_num(v, minute) || minute >= 60) continue;
      if (v.empty() || v[0] != ':') continue;
      v.remove_prefix(1);
      if (!take_num(v, second) || second >= 60) continue;
      if (v.size() >= 2 && (v[0] == '.' || v[0] == ',') && v[1] >= '0' && v[1] <= '9') {
        v.remove_prefix(1);
        while (!v.empty() && v[0] >= '0' && v[0] <= '9') v.remove_prefix(1);
      }
      if (format < 2) {
        if (!v.empty() && v[0] == 'Z') {
          v.remove_prefix(1);
        } else {
          if (v.size() < 6 || v[3] != ':' || (v[0] != '+' && v[0] != '-')) continue;
          auto two = [&](size_t at) {
            return v[at] >= '0' && v[at] <= '9' && v[at + 1] >= '0' && v[at + 1] <= '9';
          };
          if (!two(1) || !two(4)) continue;
          int hh = (v[1] - '0') * 10 + (v[2] - '0'), mm = (v[4] - '0') * 10 + (v[5] - '0');
          if (hh > 24 || mm > 60) continue;
          offset = (hh * 60 + mm) * (v[0] == '-' ? -1 : 1);
          v.remove_prefix(6);
        }
      }
    }
    if (!v.empty()) continue;
    if (day < 1 || day > days_in(month, year)) continue;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, hour, minute,
                  second);
    std::string out = buf;
    if (offset == 0) {
      out += 'Z';
    } else {
      int a = offset < 0 ? -offset : offset;
      std::snprintf(buf, sizeof buf, "%c%02d:%02d", offset < 0 ? '-' : '+', a / 60, a % 60);
      out += buf;
    }
    return out;
  }
  return std::nullopt;
}

// go-cty-yaml's resolveScalar: what the scalar [src] with tag [tag] (full
// form, "" when untagged) written in style [style] stands for.
Resolved resolve_scalar(const std::string& tag, std::string_view src, yaml_scalar_style_t style) {
  if (tag == kMergeTag) return {Resolved::Kind::Merge, Value(), {}};
  bool resolvable = tag.empty() || tag == kStrTag || tag == kBoolTag || tag == kIntTag ||
                    tag == kFloatTag || tag == kNullTag || tag == kTimestampTag ||
                    tag == kBinaryTag;
  if (!resolvable) return resolve_error("unsupported tag " + quote(tag));
  std::string t = tag;
  // The first character hints at what a plain scalar may be: S(ign),
  // D(igit), M(ap of fixed words) or "." (a float).
  char hint = 'N';
  if (!src.empty()) {
    char c = src[0];
    hint = c == '+' || c == '-'                 ? 'S'
           : c >= '0' && c <= '9'               ? 'D'
           : std::strchr("yYnNtTfFoO~", c) && c ? 'M'
           : c == '.'                           ? '.'
                                                : 0;
  }
  if (hint != 0 && t != kStrTag && t != kBinaryTag) {
    if (style == YAML_SINGLE_QUOTED_SCALAR_STYLE || style == YAML_DOUBLE_QUOTED_SCALAR_STYLE) {
      return resolved(Value::string(src));
    }
    bool is_bool = false;
    if (const Value* v = fixed_scalar(src, is_bool)) return resolved(*v);
    if (t.empty() && (src == ".nan" || src == ".NaN" || src == ".NAN")) {
      return resolve_error("floating point NaN is not supported");
    }
    if (hint == '.') {
      if (std::optional<Number> n = Number::parse(src)) return resolved(Value::number(*n));
    } else if (hint == 'D' || hint == 'S') {
      if (t.empty() || t == kTimestampTag) {
        if (std::optional<std::string> ts = parse_timestamp(src)) {
          return resolved(Value::string(*ts));
        }
      }
      if (is_yaml_int(src)) {
        t = kIntTag;
      } else if (is_yaml_float(src)) {
        t = kFloatTag;
      }
    }
  }
  if (t.empty() && src == "<<") return {Resolved::Kind::Merge, Value(), {}};
  if (t.empty()) return resolved(Value::string(src));
  auto cannot = [&] { return resolve_error("cannot parse " + quote(src) + " as " + t); };
  if (t == kStrTag || t == kBinaryTag) {
    // A !!binary scalar stays base64 text (there is no binary type), but
    // must be valid base64.
    std::string bytes;
    size_t bad = 0;
    if (t == kBinaryTag && !base64_decode(src, bytes, bad)) {
      return resolve_error("cannot parse " + quote(src) + " as " + t + ": not valid base64");
    }
    return resolved(Value::string(src));
  }
  if (t == kBoolTag) {
    bool is_bool = false;
    const Value* v = fixed_scalar(src, is_bool);
    if (!v || !is_bool) return cannot();
    return resolved(*v);
  }
  if (t == kIntTag || t == kFloatTag) {
    // Whole or not, any number will do for either tag.
    std::string plain;
    for (char c : src) {
      if (c != '_') plain += c;
    }
    if (std::optional<Number> n = Number::parse(plain)) return resolved(Value::number(*n));
    if (std::optional<Number> n = parse_go_int(plain)) return resolved(Value::number(*n));
    return cannot();
  }
  if (t == kTimestampTag) {
    if (std::optional<std::string> ts = parse_timestamp(src)) return resolved(Value::string(*ts));
    return cannot();
  }
  return resolved(Value::null(Type::dynamic()));  // !!null
}

// --- reading ---------------------------------------------------------------------

// One libyaml event, freed on scope exit.
struct Event {
  yaml_event_t ev{};
  bool live = false;
  Event() = default;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event() {
    if (live) yaml_event_delete(&ev);
  }
  yaml_event_type_t type() const { return ev.type; }
};

// go-cty-yaml's Error: "on line L, column C: cause", where L is libyaml's
// 0-based line (an event on the first line gets no position at all) and C
// its column plus one.
std::string at_event(const yaml_event_t& ev, const std::string& cause) {
  if (ev.start_mark.line == 0) return cause;
  return "on line " + std::to_string(ev.start_mark.line) + ", column " +
         std::to_string(ev.start_mark.column + 1) + ": " + cause;
}

std::string tag_of(const unsigned char* tag) {
  return tag ? std::string(reinterpret_cast<const char*>(tag)) : std::string();
}

std::string anchor_of(const unsigned char* anchor) {
  return anchor ? std::string(reinterpret_cast<const char*>(anchor)) : std::string();
}

// go-yaml v3's allowedAliasRatio: the share of a document's [decoded]
// nodes that alias expansion may produce.
double allowed_alias_ratio(uint64_t decoded) {
  constexpr double kLow = 400000, kHigh = 4000000;
  if (double(decoded) <= kLow) return 0.99;
  if (double(decoded) >= kHigh) return 0.10;
  return 0.99 - 0.89 * ((double(decoded) - kLow) / (kHigh - kLow));
}

// What a node stands for, for the limits on aliases: the nodes of its
// value with every alias expanded (go-yaml's count of decoding it) and how
// deep its value nests.
struct Shape {
  uint64_t nodes = 1;
  int depth = 0;
};

// A reading of one document: its type (types_ set) or its value.
class Reader {
 public:
  Reader(std::string_view src, bool types, const util::StackBudget& budget)
      : types_(types), budget_(budget) {
    yaml_parser_initialize(&parser_);
    // The reference reads an empty source as a single line break.
    src_ = src.empty() ? std::string("\n") : std::string(src);
    yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char*>(src_.data()),
                                 src_.size());
  }
  ~Reader() { yaml_parser_delete(&parser_); }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  // Reads the document; false with the message in error().
  bool read() {
    Event e;
    if (!next(e)) return false;
    if (e.type() != YAML_STREAM_START_EVENT)
      return fail(at_event(e.ev, "missing stream start token"));
    Event d;
    if (!next(d)) return false;
    if (d.type() != YAML_DOCUMENT_START_EVENT)
      return fail(at_event(d.ev, "missing start of document"));
    Shape shape;
    if (!node(result_type_, result_, shape)) return false;
    Event end;
    if (!next(end)) return false;
    if (end.type() == YAML_DOCUMENT_START_EVENT) {
      return fail(at_event(end.ev, "only a single document is allowed"));
    }
    if (end.type() != YAML_DOCUMENT_END_EVENT) {
      return fail(at_event(end.ev, "unexpected extra content after value"));
    }
    Event stream_end;
    if (!next(stream_end)) return false;
    if (stream_end.type() != YAML_STREAM_END_EVENT) {
      return fail(at_event(stream_end.ev, "unexpected extra content after value"));
    }
    return true;
  }

  const Type* type() const { return result_type_; }
  const Value& value() const { return result_; }
  const std::string& error() const { return error_; }

 private:
  bool fail(std::string message) {
    error_ = std::move(message);
    return false;
  }

  // The next event; false with go-cty-yaml's wording of a parse error.
  bool next(Event& e) {
    if (!yaml_parser_parse(&parser_, &e.ev)) return fail(parser_error());
    e.live = true;
    return true;
  }

  std::string parser_error() const {
    std::string cause = parser_.problem ? parser_.problem : "invalid YAML syntax";
    if (parser_.problem_mark.line != 0) {
      size_t line = parser_.problem_mark.line, column = parser_.problem_mark.column;
      if (parser_.error == YAML_SCANNER_ERROR) {  // as go-yaml, which counts differently there
        ++line;
        column = 0;
      }
      return "on line " + std::to_string(line) + ", column " + std::to_string(column + 1) + ": " +
             cause;
    }
    if (parser_.context_mark.line != 0) {
      return "on line " + std::to_string(parser_.context_mark.line) + ", column " +
             std::to_string(parser_.context_mark.column + 1) + ": " + cause;
    }
    return cause;
  }

  bool node(const Type*& ty, Value& v, Shape& shape) {
    Event e;
    if (!next(e)) return false;
    return node_from(e, ty, v, shape);
  }

  bool node_from(Event& e, const Type*& ty, Value& v, Shape& shape) {
    switch (e.type()) {
      case YAML_SCALAR_EVENT:
        return count(e, 1, 0) && scalar(e, ty, v);
      case YAML_ALIAS_EVENT:
        return alias(e, ty, v, shape);
      case YAML_MAPPING_START_EVENT:
        return count(e, 1, 0) && mapping(e, ty, v, shape);
      case YAML_SEQUENCE_START_EVENT:
        return count(e, 1, 0) && sequence(e, ty, v, shape);
      case YAML_DOCUMENT_START_EVENT:
        return fail(at_event(e.ev, "only a single document is allowed"));
      case YAML_STREAM_END_EVENT:
        return fail(at_event(e.ev, "expecting value but found end of stream"));
      default:
        return fail(at_event(e.ev, "unexpected parser event"));
    }
  }

  bool scalar(Event& e, const Type*& ty, Value& v) {
    const auto& s = e.ev.data.scalar;
    std::string anchor = anchor_of(s.anchor);
    if (!anchor.empty()) ++pending_[anchor];
    std::string tag = tag_of(s.tag);
    std::string_view src(reinterpret_cast<const char*>(s.value), s.length);
    if (types_ && tag.empty() && !s.plain_implicit) {
      ty = Type::string();  // an untagged quoted or block scalar
    } else {
      Resolved r = resolve_scalar(tag, src, s.style);
      if (r.kind == Resolved::Kind::Error) return fail(at_event(e.ev, r.error));
      // The merge key is only special as a key: anywhere else it is text.
      Value val = r.kind == Resolved::Kind::Merge ? Value::string("<<") : std::move(r.value);
      ty = val.type();
      v = std::move(val);
    }
    if (!anchor.empty()) complete(anchor, ty, v, Shape{});
    return true;
  }

  // Counts [nodes] more nodes decoded at [e], [aliased] of them made by
  // aliases; fails as go-yaml does when aliases made too many of them.
  bool count(const Event& e, uint64_t nodes, uint64_t aliased) {
    decoded_ += nodes;
    aliased_ += aliased;
    if (aliased_ > 100 && decoded_ > 1000 &&
        double(aliased_) / double(decoded_) > allowed_alias_ratio(decoded_)) {
      return fail(at_event(e.ev, "document contains excessive aliasing"));
    }
    return true;
  }

  // Adds the [child] of a collection to its [shape]; fails at [e] when
  // aliases nest the collection too deep.
  bool add_child(const Event& e, Shape& shape, const Shape& child) {
    shape.nodes += child.nodes;
    shape.depth = std::max(shape.depth, child.depth + 1);
    if (shape.depth > kMaxDepth) {
      return fail(at_event(e.ev, "the document nests more than " + std::to_string(kMaxDepth) +
                                     " levels deep through aliases"));
    }
    return true;
  }

  bool alias(Event& e, const Type*& ty, Value& v, Shape& shape) {
    std::string name = anchor_of(e.ev.data.alias.anchor);
    if (pending_.count(name)) {
      // cty values are finite, so a structure cannot contain itself.
      return fail(at_event(
          e.ev, "cannot refer to anchor " + quote(name) + " from inside its own definition"));
    }
    auto it = anchors_.find(name);
    if (it == anchors_.end()) {
      return fail(at_event(e.ev, "reference to undefined anchor " + quote(name)));
    }
    const Anchor& a = it->second;
    // The alias node, then its anchor's nodes once more, all made by it.
    if (!count(e, 1 + a.shape.nodes, a.shape.nodes)) return false;
    ty = a.type;
    v = a.value;
    shape = {1 + a.shape.nodes, a.shape.depth};
    return true;
  }

  void complete(const std::string& anchor, const Type* ty, const Value& v, const Shape& shape) {
    if (--pending_[anchor] == 0) pending_.erase(anchor);
    anchors_[anchor] = {ty, v, shape};
  }

  // Adds the object [v] (of type [ty]) to a mapping's attributes.
  void merge_into(const Type* ty, const Value& v, std::map<std::string, const Type*>& types,
                  std::map<std::string, Value>& values) {
    for (size_t i = 0; i < ty->size(); ++i) {
      std::string name(ty->attr_name(i));
      types[name] = ty->attr_type(i);
      if (!types_) values[name] = v.attr(i);
    }
  }

  bool mapping(Event& e, const Type*& ty, Value& v, Shape& shape) {
    std::string tag = tag_of(e.ev.data.mapping_start.tag);
    std::string anchor = anchor_of(e.ev.data.mapping_start.anchor);
    if (!tag.empty() && tag != kMapTag) {
      return fail(at_event(e.ev, "can't interpret mapping as " + tag));
    }
    if (!enter(e)) return false;
    if (!anchor.empty()) ++pending_[anchor];
    std::map<std::string, const Type*> types;
    std::map<std::string, Value> values;
    while (true) {
      Event k;
      if (!next(k)) return false;
      if (k.type() == YAML_MAPPING_END_EVENT) break;
      if (k.type() != YAML_SCALAR_EVENT) {
        return fail(at_event(k.ev, "only strings are allowed as mapping keys"));
      }
      const auto& ks = k.ev.data.scalar;
      std::string_view ksrc(reinterpret_cast<const char*>(ks.value), ks.length);
      // Key errors carry no position in the reference.
      Resolved key = resolve_scalar(tag_of(ks.tag), ksrc, ks.style);
      if (key.kind == Resolved::Kind::Error) return fail(key.error);
      if (key.kind == Resolved::Kind::Merge) {
        // The value's mappings (one, or a sequence of them) are merged in.
        const Type* mty = nullptr;
        Value mv;
        Shape mshape;
        if (!node(mty, mv, mshape) || !add_child(k, shape, mshape)) return false;
        auto bad = [&](const Type* t) {
          return fail(at_event(k.ev, "cannot merge " + t->friendly_name() + " into mapping"));
        };
        if (mty->is_object()) {
          merge_into(mty, mv, types, values);
        } else if (mty->is_tuple()) {
          for (size_t i = 0; i < mty->size(); ++i) {
            if (!mty->tuple_element(i)->is_object()) return bad(mty->tuple_element(i));
          }
          for (size_t i = 0; i < mty->size(); ++i) {
            merge_into(mty->tuple_element(i), types_ ? Value() : mv.element(i), types, values);
          }
        } else {
          return bad(mty);
        }
        continue;
      }
      ConvertResult ks_str = convert(key.value, Type::string());
      if (!ks_str.ok()) return fail(at_event(k.ev, "only strings are allowed as mapping keys"));
      if (ks_str.value().is_null()) return fail(at_event(k.ev, "mapping key cannot be null"));
      std::string name(ks_str.value().as_string());
      const Type* vty = nullptr;
      Value vv;
      Shape vshape;
      // The key is a node of its own.
      if (!count(k, 1, 0)) return false;
      ++shape.nodes;
      if (!node(vty, vv, vshape) || !add_child(k, shape, vshape)) return false;
      types[name] = vty;
      if (!types_) values[name] = std::move(vv);
    }
    if (types_) {
      std::vector<TypeAttr> attrs;
      for (const auto& [name, t] : types) attrs.push_back({name, t, false});
      ty = Type::object(attrs);
    } else {
      std::vector<std::pair<std::string, Value>> attrs;
      for (auto& [name, val] : values) attrs.emplace_back(name, std::move(val));
      v = Value::object(std::move(attrs));
      ty = v.type();
    }
    if (!anchor.empty()) complete(anchor, ty, v, shape);
    --depth_;
    return true;
  }

  bool sequence(Event& e, const Type*& ty, Value& v, Shape& shape) {
    std::string tag = tag_of(e.ev.data.sequence_start.tag);
    std::string anchor = anchor_of(e.ev.data.sequence_start.anchor);
    if (!tag.empty() && tag != kSeqTag) {
      return fail(at_event(e.ev, "can't interpret sequence as " + tag));
    }
    if (!enter(e)) return false;
    if (!anchor.empty()) ++pending_[anchor];
    std::vector<const Type*> types;
    std::vector<Value> values;
    while (true) {
      Event item;
      if (!next(item)) return false;
      if (item.type() == YAML_SEQUENCE_END_EVENT) break;
      const Type* ity = nullptr;
      Value iv;
      Shape ishape;
      if (!node_from(item, ity, iv, ishape) || !add_child(item, shape, ishape)) return false;
      types.push_back(ity);
      if (!types_) values.push_back(std::move(iv));
    }
    if (types_) {
      ty = Type::tuple(types);
    } else {
      v = Value::tuple(std::move(values));
      ty = v.type();
    }
    if (!anchor.empty()) complete(anchor, ty, v, shape);
    --depth_;
    return true;
  }

  // Enters the collection started by [e]. Values nest no deeper than JSON
  // documents may (the reference, on Go's growable stack, has no limit).
  bool enter(const Event& e) {
    if (++depth_ > kMaxDepth || budget_.exhausted()) {
      return fail(at_event(
          e.ev, "the document nests more than " + std::to_string(kMaxDepth) + " levels deep"));
    }
    return true;
  }

  static constexpr int kMaxDepth = 10000;

  yaml_parser_t parser_;
  std::string src_;
  int depth_ = 0;
  bool types_;
  const util::StackBudget& budget_;
  // What an anchor stands for.
  struct Anchor {
    const Type* type;
    Value value;
    Shape shape;
  };

  std::map<std::string, int> pending_;  // anchors whose nodes are being read
  std::map<std::string, Anchor> anchors_;
  uint64_t decoded_ = 1;  // nodes, as go-yaml counts them: the document is one
  uint64_t aliased_ = 0;  // of them, those that aliases made
  const Type* result_type_ = nullptr;
  Value result_;
  std::string error_;
};

struct ReadResult {
  const Type* type = nullptr;
  Value value;
  std::string error;  // empty on success
};

ReadResult read_yaml(std::string_view src, bool types) {
  return util::run_deep([&](const util::StackBudget& budget) {
    Reader r(src, types, budget);
    ReadResult out;
    if (!r.read()) {
      out.error = r.error().empty() ? "invalid YAML syntax" : r.error();
    } else {
      out.type = r.type();
      out.value = r.value();
    }
    return out;
  });
}

Function yamldecode_fn() {
  Function f;
  f.description =
      "Parses the given string as a single YAML document and returns the value it describes.";
  f.params = {param("src", Type::string())};
  f.type = [](std::span<const Value> args) {
    if (!args[0].is_known()) return type_ok(Type::dynamic());
    ReadResult r = read_yaml(args[0].as_string(), true);
    if (!r.error.empty()) return type_error(r.error);
    return type_ok(r.type);
  };
  f.impl = [](std::span<const Value> args, const Type* ret) {
    ReadResult r = read_yaml(args[0].as_string(), false);
    if (!r.error.empty()) return FuncResult::fail(r.error);
    ConvertResult c = convert(r.value, ret);
    if (!c.ok()) return FuncResult::fail(c.error().message);
    return FuncResult::of(c.take());
  };
  return f;
}

// --- writing --------------------------------------------------------------------

class Writer {
 public:
  explicit Writer(const util::StackBudget& budget) : budget_(budget) {
    yaml_emitter_initialize(&emitter_);
    yaml_emitter_set_output(&emitter_, &Writer::write, &out_);
    yaml_emitter_set_unicode(&emitter_, 1);
  }
  ~Writer() { yaml_emitter_delete(&emitter_); }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  // Writes [v] as a document; false with the message in error().
  bool document(const Value& v) {
    yaml_event_t e;
    yaml_stream_start_event_initialize(&e, YAML_UTF8_ENCODING);
    if (!emit(e)) return false;
    yaml_document_start_event_initialize(&e, nullptr, nullptr, nullptr, 1);
    if (!emit(e)) return false;
    if (!node(v)) return false;
    yaml_document_end_event_initialize(&e, 1);
    if (!emit(e)) return false;
    yaml_stream_end_event_initialize(&e);
    if (!emit(e)) return false;
    yaml_emitter_flush(&emitter_);
    // go-yaml's emitter, unlike libyaml's, closes a document whose root is a
    // plain scalar with "..." (a block scalar kept with "|+" gets it from both).
    if (root_plain_ && !out_.ends_with("...\n")) out_ += "...\n";
    return true;
  }

  const std::string& output() const { return out_; }
  const std::string& error() const { return error_; }

 private:
  static int write(void* data, unsigned char* buffer, size_t size) {
    static_cast<std::string*>(data)->append(reinterpret_cast<const char*>(buffer), size);
    return 1;
  }

  bool emit(yaml_event_t& e) {
    if (yaml_emitter_emit(&emitter_, &e)) return true;
    error_ = emitter_.problem ? emitter_.problem : "failed to write YAML token";
    return false;
  }

  bool scalar(std::string_view text, yaml_scalar_style_t style) {
    yaml_event_t e;
    // libyaml takes well-formed UTF-8 only (go-yaml does not check).
    if (!yaml_scalar_event_initialize(&e, nullptr, nullptr,
                                      reinterpret_cast<const unsigned char*>(text.data()),
                                      int(text.size()), 1, 1, style)) {
      return fail("cannot serialize a string that is not valid UTF-8 as YAML");
    }
    return emit(e);
  }

  bool node(const Value& v) {
    // The text of a value that repeats shared parts may be far longer than
    // the value: counted as the emitter hands it over (util/meter.h).
    meter_.check();
    bool root = depth_ == 0;
    const Type* t = v.type();
    if (v.is_null()) {
      root_plain_ = root;
      return scalar("null", YAML_PLAIN_SCALAR_STYLE);
    }
    if (!v.is_known()) return fail("cannot serialize unknown value as YAML");
    if (t == Type::string()) {
      std::string_view s = v.as_string();
      return scalar(s, s.find('\n') != std::string_view::npos ? YAML_LITERAL_SCALAR_STYLE
                                                              : YAML_DOUBLE_QUOTED_SCALAR_STYLE);
    }
    if (t == Type::number()) {
      root_plain_ = root;
      Number n = v.as_number();
      // Both infinities as YAML spells them.
      std::string text = n.is_inf() ? (n.sign() < 0 ? "-.Inf" : "+.Inf") : n.text();
      return scalar(text, YAML_PLAIN_SCALAR_STYLE);
    }
    if (t == Type::boolean()) {
      root_plain_ = root;
      return scalar(v.as_bool() ? "true" : "false", YAML_PLAIN_SCALAR_STYLE);
    }
    if (budget_.exhausted()) return fail("the value nests too deeply to write as YAML");
    ++depth_;
    bool ok = false;
    yaml_event_t e;
    if (t->is_tuple() || t->is_list() || t->is_set()) {
      yaml_sequence_start_event_initialize(&e, nullptr, nullptr, 1, YAML_BLOCK_SEQUENCE_STYLE);
      ok = emit(e);
      for (size_t i = 0; ok && i < v.length(); ++i) ok = node(v.element(i));
      if (ok) {
        yaml_sequence_end_event_initialize(&e);
        ok = emit(e);
      }
    } else if (t->is_object() || t->is_map()) {
      yaml_mapping_start_event_initialize(&e, nullptr, nullptr, 1, YAML_BLOCK_MAPPING_STYLE);
      ok = emit(e);
      bool obj = t->is_object();
      for (size_t i = 0; ok && i < v.length(); ++i) {
        std::string_view key = obj ? t->attr_name(i) : v.map_key(i);
        ok = node(Value::string(key)) && node(obj ? v.attr(i) : v.map_value(i));
      }
      if (ok) {
        yaml_mapping_end_event_initialize(&e);
        ok = emit(e);
      }
    } else {
      ok = fail("can't marshal " + t->friendly_name() + " as YAML");
    }
    --depth_;
    return ok;
  }

  bool fail(std::string message) {
    error_ = std::move(message);
    return false;
  }

  yaml_emitter_t emitter_;
  std::string out_;
  util::TextMeter meter_{out_, util::TextMeter::Use::StringValue};
  std::string error_;
  const util::StackBudget& budget_;
  int depth_ = 0;
  bool root_plain_ = false;
};

Function yamlencode_fn() {
  Function f;
  f.description = "Returns a string containing a YAML representation of the given value.";
  f.params = {param("value", Type::dynamic(), kNull | kDynamic)};
  f.returns(Type::string());
  f.impl = [](std::span<const Value> args, const Type*) {
    struct Out {
      std::string text, error;
    };
    Out out = util::run_deep([&](const util::StackBudget& budget) {
      Writer w(budget);
      Out o;
      if (w.document(args[0]))
        o.text = w.output();
      else
        o.error = w.error();
      return o;
    });
    if (!out.error.empty()) return FuncResult::fail(out.error);
    return FuncResult::of(Value::string(out.text));
  };
  return f;
}

}  // namespace

void add_yaml_functions(FunctionTable& t, const LibraryOptions&) {
  add(t, "yamldecode", yamldecode_fn());
  add(t, "yamlencode", yamlencode_fn());
}

}  // namespace hclvm::funcs
