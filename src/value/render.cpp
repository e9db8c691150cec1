// HCL-literal rendering of values (see render.h for the format), and cty's
// Go syntax for values. Both texts are counted against the evaluation
// budget as they grow (util/meter.h): indentation makes the HCL text
// quadratic in the nesting, and a value that repeats a shared part writes it
// out every time. Nesting is written within a stack budget (util/stack.h).
#include "value/render.h"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "util/meter.h"
#include "util/stack.h"
#include "util/unicode.h"
#include "value/walk.h"

namespace hclvm {

namespace {

// Appends the HCL escape for code point [c] (\uNNNN or \UNNNNNNNN).
void append_unicode_escape(std::string& out, char32_t c) {
  out += c < 0x10000 ? "\\u" : "\\U";
  uni::append_hex(out, c, c < 0x10000 ? 4 : 8, true);
}

// Appends [s] with the template introducers `${` and `%{` doubled, for a
// heredoc's text (which has no other escapes).
void append_template_text(std::string& out, std::string_view s) {
  for (size_t i = 0; i < s.size(); ++i) {
    if ((s[i] == '$' || s[i] == '%') && i + 1 < s.size() && s[i + 1] == '{') out += s[i];
    out += s[i];
  }
}

// Reports whether [s] can be written bare as an object key: an ASCII
// identifier. (Other identifiers are quoted, which reads back the same.)
bool bare_key(std::string_view s) {
  if (s.empty()) return false;
  auto c0 = static_cast<unsigned char>(s[0]);
  if (!((c0 >= 'a' && c0 <= 'z') || (c0 >= 'A' && c0 <= 'Z') || c0 == '_')) return false;
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
          c == '-'))
      return false;
  }
  return true;
}

// Reports whether [s] reads back exactly from a heredoc: it ends with a
// newline and holds no control characters but newlines and tabs.
bool heredoc_able(std::string_view s) {
  if (s.size() < 2 || s.back() != '\n') return false;
  for (size_t i = 0; i < s.size();) {
    uni::Rune r = uni::decode(s, i);
    if (!r.ok) return false;
    if (r.cp != '\n' && r.cp != '\t' && !uni::is_print(r.cp) && r.cp != ' ') return false;
    i += r.len;
  }
  return true;
}

// Returns [s] without leading and trailing white space (strings.TrimSpace).
std::string_view trim(std::string_view s) { return uni::trim_right_space(uni::trim_left_space(s)); }

class Renderer {
 public:
  std::string out;

  // Appends [v], whose first line is at column [indent]; [line_end] says
  // whether a line break follows it (only then can it be a heredoc, whose
  // closing marker must end its line).
  void value(const Value& v, int indent, bool line_end = false) {
    meter_.check();
    if (!v.is_known()) {
      out += "(known after apply)";
      return;
    }
    if (v.is_marked()) {
      auto [inner, marks] = v.unmark_with_marks();
      if (marks.has("sensitive")) {
        out += "(sensitive value)";
        return;
      }
      value(inner, indent, line_end);
      return;
    }
    if (v.is_null()) {
      out += "null";
      return;
    }
    const Type* t = v.type();
    switch (t->kind()) {
      case TypeKind::String: string(v.as_string(), indent, line_end); return;
      case TypeKind::Number: out += v.as_number().text(); return;
      case TypeKind::Bool: out += v.as_bool() ? "true" : "false"; return;
      case TypeKind::Tuple: sequence(v, indent); return;
      case TypeKind::List:
      case TypeKind::Set:
        out += t->is_list() ? "tolist(" : "toset(";
        sequence(v, indent);
        out += ')';
        return;
      case TypeKind::Object: mapping(v, indent); return;
      case TypeKind::Map:
        out += "tomap(";
        mapping(v, indent);
        out += ')';
        return;
      case TypeKind::Capsule:
        out += "(capsule ";
        out += t->capsule_name();
        out += ')';
        return;
      case TypeKind::Dynamic: out += "null"; return;
    }
  }

 private:
  // Starts a new line indented by [indent].
  void newline(int indent) {
    out += '\n';
    out.append(size_t(indent), ' ');
  }

  // Appends string [s], as a heredoc where it reads back exactly.
  void string(std::string_view s, int indent, bool line_end) {
    if (!line_end || !heredoc_able(s)) {
      out += hcl_quote(s);
      return;
    }
    std::string_view body = s.substr(0, s.size() - 1);  // the last newline ends the last line
    std::string marker = "EOT";
    for (bool clash = true; clash;) {
      clash = false;
      for (size_t i = 0; i <= body.size();) {
        size_t nl = body.find('\n', i);
        if (nl == std::string_view::npos) nl = body.size();
        if (trim(body.substr(i, nl - i)) == marker) clash = true;
        i = nl + 1;
      }
      if (clash) marker += '_';
    }
    // The text lines keep their own indentation (a `<<-` heredoc would
    // strip it); only the closing marker follows the surrounding indent.
    out += "<<";
    out += marker;
    out += '\n';
    append_template_text(out, body);
    newline(indent);
    out += marker;
  }

  // Appends the elements of a tuple, list or set [v] in brackets.
  void sequence(const Value& v, int indent) {
    util::enter_level();
    out += '[';
    for (size_t i = 0; i < v.length(); ++i) {
      newline(indent + 2);
      value(v.element(i), indent + 2);
      out += ',';
    }
    if (v.length() > 0) newline(indent);
    out += ']';
  }

  // Appends object or map key [k].
  void key(std::string_view k) {
    if (bare_key(k))
      out += k;
    else
      out += hcl_quote(k);
  }

  // Appends the attributes of an object or entries of a map [v] in braces.
  void mapping(const Value& v, int indent) {
    util::enter_level();
    out += '{';
    size_t n = v.length();
    for (size_t i = 0; i < n; ++i) {
      newline(indent + 2);
      if (v.type()->is_map()) {
        key(v.map_key(i));
        out += " = ";
        value(v.map_value(i), indent + 2, true);
      } else {
        key(v.type()->attr_name(i));
        out += " = ";
        value(v.attr(i), indent + 2, true);
      }
    }
    if (n > 0) newline(indent);
    out += '}';
  }

  util::TextMeter meter_{out, util::TextMeter::Use::StringValue};
};

// --- cty's Go syntax (go_string) ------------------------------------------------

// Go's %#v of float64 [d]: strconv's 'g' with the shortest digits, which
// switches to an exponent below 10^-4 and from 10^6 on (1.234567e+06).
std::string go_float(double d) {
  if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  std::string sci(buf, r.ptr);  // d.ddde±XX
  size_t e = sci.find('e');
  std::string mant = sci.substr(0, e);
  int exp = std::stoi(sci.substr(e + 1));
  std::string digits;
  bool neg = mant[0] == '-';
  for (char c : mant)
    if (c >= '0' && c <= '9') digits += c;
  std::string out = neg ? "-" : "";
  if (exp < -4 || exp >= 6) {
    out += digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char eb[16];
    std::snprintf(eb, sizeof eb, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    return out + eb;
  }
  if (exp < 0) return out + "0." + std::string(size_t(-exp - 1), '0') + digits;
  if (size_t(exp) + 1 >= digits.size())
    return out + digits + std::string(size_t(exp) + 1 - digits.size(), '0');
  return out + digits.substr(0, size_t(exp) + 1) + "." + digits.substr(size_t(exp) + 1);
}

// Go's %#v of a big.Float holding the integer whose exact decimal text
// ('f', -1) is [text]: the shortest digits for its precision (the text's,
// without trailing zeros), with an exponent from 10^6 on, as for floats.
std::string go_big_integer(const std::string& text) {
  bool neg = !text.empty() && text[0] == '-';
  std::string digits = text.substr(neg ? 1 : 0);
  int exp = int(digits.size()) - 1;
  if (exp < 6) return text;
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  std::string out = neg ? "-" : "";
  out += digits.substr(0, 1);
  if (digits.size() > 1) out += "." + digits.substr(1);
  char eb[16];
  std::snprintf(eb, sizeof eb, "e+%02d", exp);
  return out + eb;
}

// cty's GoString of the refinements of unknown [v].
std::string go_refinement(const Value& v) {
  const Refinement& r = v.refinement();
  std::string s;
  if (r.not_null) s += ".NotNull()";
  if (!r.prefix.empty()) s += ".StringPrefixFull(" + uni::go_quote(r.prefix) + ")";
  if (r.has_lower) {
    s += ".NumberLowerBound(" + go_string(Value::number(r.lower)) + ", " +
         (r.lower_inclusive ? "true" : "false") + ")";
  }
  if (r.has_upper) {
    s += ".NumberUpperBound(" + go_string(Value::number(r.upper)) + ", " +
         (r.upper_inclusive ? "true" : "false") + ")";
  }
  if (r.min_length != 0) s += ".CollectionLengthLowerBound(" + std::to_string(r.min_length) + ")";
  if (r.max_length != UINT64_MAX)
    s += ".CollectionLengthUpperBound(" + std::to_string(r.max_length) + ")";
  return s;
}

}  // namespace

void append_hcl_escaped(std::string& out, std::string_view s, bool double_sequences) {
  for (size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '$':
        case '%':
          out += char(c);
          if (double_sequences && i + 1 < s.size() && s[i + 1] == '{') out += char(c);
          break;
        default:
          if (c < 0x20 || c == 0x7F)
            append_unicode_escape(out, c);
          else
            out += char(c);
      }
      ++i;
      continue;
    }
    uni::Rune r = uni::decode(s, i);
    if (!r.ok)
      append_unicode_escape(out, 0xFFFD);
    else if (!uni::is_print(r.cp))
      append_unicode_escape(out, r.cp);
    else
      out.append(s.data() + i, r.len);
    i += r.len;
  }
}

std::string hcl_quote(std::string_view s) {
  std::string out = "\"";
  append_hcl_escaped(out, s, true);
  out += '"';
  return out;
}

std::string render_hcl(const Value& v, int indent) {
  auto render = [&] {
    Renderer r;
    r.value(v, indent);
    return std::move(r.out);
  };
  if (!detail::is_container(detail::unmarked_ref(v))) return render();
  return util::run_deep([&](const util::StackBudget&) { return render(); });
}

namespace {

// Appends cty's GoString of [v0] (marks left out) to [out], counted by
// [meter], nesting within the stack budget of a run_deep.
void append_go_string(const Value& v0, std::string& out, util::TextMeter& meter) {
  meter.check();
  const Value& v = detail::unmarked_ref(v0);
  const Type* t = v.type();
  if (v.is_null()) {
    out += "cty.NullVal(" + t->go_string() + ")";
    return;
  }
  if (!v.is_known()) {
    if (t->is_dynamic()) {
      out += "cty.DynamicVal";
      return;
    }
    out += "cty.UnknownVal(" + t->go_string() + ")";
    std::string r = go_refinement(v);
    if (r == ".NotNull()")
      out += ".RefineNotNull()";
    else if (!r.empty())
      out += ".Refine()" + r + ".NewValue()";
    return;
  }
  // The parts of a container after [open], each written by [each], then "})".
  auto parts = [&](const char* open, size_t n, auto each) {
    util::enter_level();
    out += open;
    for (size_t i = 0; i < n; ++i) {
      if (i) out += ", ";
      each(i);
    }
    out += "})";
  };
  auto element = [&](size_t i) { append_go_string(v.element(i), out, meter); };
  switch (t->kind()) {
    case TypeKind::Bool: out += v.as_bool() ? "cty.True" : "cty.False"; return;
    case TypeKind::Number: {
      Number n = v.as_number();
      if (n.is_integer()) {
        out += "cty.NumberIntVal(" + go_big_integer(n.text()) + ")";
        return;
      }
      double d = n.to_double();
      if (n.is_inf() || Number::cmp(Number::from_double(d), n) == 0)
        out += "cty.NumberFloatVal(" + go_float(d) + ")";
      else
        out += "cty.MustParseNumberVal(" + uni::go_quote(n.text()) + ")";
      return;
    }
    case TypeKind::String: out += "cty.StringVal(" + uni::go_quote(v.as_string()) + ")"; return;
    case TypeKind::List:
    case TypeKind::Set:
      if (v.length() == 0) {
        out += t->is_list() ? "cty.ListValEmpty(" : "cty.SetValEmpty(";
        out += t->element()->go_string() + ")";
        return;
      }
      parts(t->is_list() ? "cty.ListVal([]cty.Value{" : "cty.SetVal([]cty.Value{", v.length(), element);
      return;
    case TypeKind::Tuple:
      if (v.length() == 0) {
        out += "cty.EmptyTupleVal";
        return;
      }
      parts("cty.TupleVal([]cty.Value{", v.length(), element);
      return;
    case TypeKind::Map:
      if (v.length() == 0) {
        out += "cty.MapValEmpty(" + t->element()->go_string() + ")";
        return;
      }
      parts("cty.MapVal(map[string]cty.Value{", v.length(), [&](size_t i) {
        out += uni::go_quote(v.map_key(i)) + ":";
        append_go_string(v.map_value(i), out, meter);
      });
      return;
    case TypeKind::Object:
      if (t->size() == 0) {
        out += "cty.EmptyObjectVal";
        return;
      }
      parts("cty.ObjectVal(map[string]cty.Value{", t->size(), [&](size_t i) {
        out += uni::go_quote(t->attr_name(i)) + ":";
        append_go_string(v.attr(i), out, meter);
      });
      return;
    default: out += "cty.DynamicVal"; return;
  }
}

}  // namespace

std::string go_string(const Value& v0) {
  const Value& v = detail::unmarked_ref(v0);
  auto write = [&] {
    std::string out;
    util::TextMeter meter(out, util::TextMeter::Use::Internal);
    append_go_string(v, out, meter);
    return out;
  };
  if (!detail::is_container(v)) return write();
  return util::run_deep([&](const util::StackBudget&) { return write(); });
}

}  // namespace hclvm
