// HCL-literal rendering of values (see render.h for the format). The text
// is counted against the evaluation budget as it grows (util/meter.h):
// indentation makes it quadratic in the nesting, and a value that repeats
// a shared part writes it out every time. Nesting is rendered within a
// stack budget (util/stack.h).
#include "value/render.h"

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

}  // namespace

std::string hcl_quote(std::string_view s) {
  std::string out = "\"";
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
          if (i + 1 < s.size() && s[i + 1] == '{') out += char(c);
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

}  // namespace hclvm
