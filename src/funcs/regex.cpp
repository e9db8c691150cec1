// regex and regexall, as go-cty's stdlib regexp.go defines them, on RE2
// (the engine Go's regexp package is modelled on: the same syntax, the
// same leftmost-first matching). A pattern without capture groups gives
// the matched string, one with unnamed groups a tuple of them, one with
// named groups an object; a group that did not take part is null.
// Also Terraform's replace, whose substring written between slashes is a
// pattern (Go's Regexp.ReplaceAllString, with its $name expansion).
//
// A pattern is compiled once per process (see pattern_of), since a
// program evaluated many times calls these with the same constant pattern.
#include <re2/re2.h>
#include <utf8proc.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "funcs/funcs.h"
#include "util/unicode.h"

namespace hclvm::funcs {

namespace {

// Go's regexp/syntax ErrorCode text for RE2's [code].
const char* go_error_code(RE2::ErrorCode code) {
  switch (code) {
    case RE2::ErrorBadEscape: return "invalid escape sequence";
    case RE2::ErrorBadCharClass: return "invalid character class";
    case RE2::ErrorBadCharRange: return "invalid character class range";
    case RE2::ErrorMissingBracket: return "missing closing ]";
    case RE2::ErrorMissingParen: return "missing closing )";
    case RE2::ErrorUnexpectedParen: return "unexpected )";
    case RE2::ErrorTrailingBackslash: return "trailing backslash at end of expression";
    case RE2::ErrorRepeatArgument: return "missing argument to repetition operator";
    case RE2::ErrorRepeatSize: return "invalid repeat count";
    case RE2::ErrorRepeatOp: return "invalid nested repetition operator";
    case RE2::ErrorBadPerlOp: return "invalid or unsupported Perl syntax";
    case RE2::ErrorBadUTF8: return "invalid UTF-8";
    case RE2::ErrorBadNamedCapture: return "invalid named capture";
    case RE2::ErrorPatternTooLarge: return "expression too large";
    default: return "regexp/syntax: internal error";
  }
}

// Where RE2 accepts what Go's regexp/syntax rejects: the \C escape (any
// byte), outside \Q...\E. Returns the offending escape, or "".
std::string go_only_error(std::string_view pattern) {
  for (size_t i = 0; i + 1 < pattern.size(); ++i) {
    if (pattern[i] != '\\') continue;
    char c = pattern[i + 1];
    if (c == 'Q') {
      size_t end = pattern.find("\\E", i + 2);
      if (end == std::string_view::npos) return "";
      i = end + 1;
      continue;
    }
    if (c == 'C') return "\\C";
    ++i;
  }
  return "";
}

// [pattern] as RE2 takes it: Go (since 1.22) also writes a named group
// `(?<name>`, which this RE2 knows only as `(?P<name>`. Escapes and
// character classes are skipped; lookbehinds (`(?<=`, `(?<!`), which Go
// rejects as named groups, become named groups RE2 rejects too.
std::string for_re2(std::string_view pattern) {
  std::string out;
  out.reserve(pattern.size() + 2);
  bool in_class = false;
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    out += c;
    if (c == '\\' && i + 1 < pattern.size()) {
      out += pattern[++i];
    } else if (in_class) {
      in_class = c != ']';
    } else if (c == '[') {
      in_class = true;
      // A ] right after [ or [^ is a member, not the end.
      if (i + 1 < pattern.size() && pattern[i + 1] == '^') out += pattern[++i];
      if (i + 1 < pattern.size() && pattern[i + 1] == ']') out += pattern[++i];
    } else if (c == '(' && pattern.substr(i + 1, 2) == "?<") {
      out += "?P<";
      i += 2;
    }
  }
  return out;
}

// A pattern compiled once, with what the functions derive from it.
struct Pattern {
  explicit Pattern(std::string_view text);
  RE2 re;
  // What Go's regexp.Compile reports for it (its syntax.Error's code and
  // expression); code empty when it compiles.
  std::string code, expr;
  TypeResult match_type;  // regex's result type (cty's regexPatternResultType)
};

// cty's regexPatternResultType, for a pattern that compiles.
TypeResult match_type_of(const RE2& re) {
  int groups = re.NumberOfCapturingGroups();
  const auto& names = re.CapturingGroupNames();
  size_t named = names.size();
  size_t unnamed = size_t(groups) - named;
  if (groups == 0) return type_ok(Type::string());
  if (unnamed > 0 && named > 0) {
    return type_error("invalid regexp pattern: cannot mix both named and unnamed capture groups",
                      0);
  }
  if (unnamed > 0) {
    std::vector<const Type*> etys(unnamed, Type::string());
    return type_ok(Type::tuple(etys));
  }
  // Go allows a name twice; the object has it once.
  std::vector<TypeAttr> attrs;
  for (const auto& [i, name] : names) {
    bool seen = false;
    for (const TypeAttr& a : attrs) seen = seen || a.name == name;
    if (!seen) attrs.push_back({name, Type::string(), false});
  }
  return type_ok(Type::object(attrs));
}

RE2::Options re2_options() {
  RE2::Options opts;
  opts.set_log_errors(false);
  return opts;
}

Pattern::Pattern(std::string_view text) : re(for_re2(text), re2_options()) {
  if (std::string e = go_only_error(text); !e.empty()) {
    code = "invalid escape sequence";
    expr = std::move(e);
  } else if (!re.ok()) {
    code = go_error_code(re.error_code());
    expr = re.error_arg();
    // Reported as written: `(?<name>` rather than RE2's `(?P<name>`.
    if (text.find(expr) == std::string_view::npos) {
      if (size_t at = expr.find("(?P<"); at != std::string::npos) expr.erase(at + 2, 1);
    }
  } else {
    // RE2 takes any word characters in a group's name, Go only ASCII
    // ones; Go stops at the first group (in pattern order) with another.
    for (const auto& [i, name] : re.CapturingGroupNames()) {
      bool ascii = std::all_of(name.begin(), name.end(), [](char c) {
        return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
               (c >= 'A' && c <= 'Z');
      });
      if (ascii) continue;
      code = "invalid named capture";
      expr = "(?P<" + name + ">";
      if (text.find(expr) == std::string_view::npos) expr = "(?<" + name + ">";
      break;
    }
  }
  if (!code.empty()) {
    match_type = type_error("invalid regexp pattern: " + code + " in " + expr, 0);
  } else {
    match_type = match_type_of(re);
  }
}

// Go's regexp.Compile error text for [p], "" when it compiles.
std::string go_compile_error(const Pattern& p) {
  if (p.code.empty()) return "";
  return "error parsing regexp: " + p.code + ": `" + p.expr + "`";
}

// The compiled [pattern], a view into the string of [holder] (an
// argument). A program's constant pattern is the same string object at
// every call, so each thread remembers its last few patterns by address
// (holding the strings, so that an address is not reused meanwhile) and
// finds them without hashing or locking; behind that, a process-wide
// table by text compiles each pattern once. The reference is valid until
// the thread's next call.
const Pattern& pattern_of(const Value& holder, std::string_view pattern) {
  struct Recent {
    Value holder;
    const char* data = nullptr;
    size_t size = 0;
    std::shared_ptr<const Pattern> pattern;
  };
  constexpr size_t kRecent = 16;
  thread_local std::array<Recent, kRecent> recent;
  Recent& slot = recent[(reinterpret_cast<uintptr_t>(pattern.data()) >> 3) % kRecent];
  if (slot.pattern && slot.data == pattern.data() && slot.size == pattern.size()) {
    return *slot.pattern;
  }

  // A long pattern (it may come from a request) is compiled for the call
  // and kept only until the thread's next long one: the tables above hold
  // short patterns, so that what they keep stays small.
  constexpr size_t kShareable = 4096;
  if (pattern.size() > kShareable) {
    thread_local std::unique_ptr<const Pattern> long_one;
    long_one = std::make_unique<const Pattern>(pattern);
    return *long_one;
  }

  static std::mutex mu;
  static std::unordered_map<std::string, std::shared_ptr<const Pattern>> all;
  std::shared_ptr<const Pattern> p;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (auto it = all.find(std::string(pattern)); it != all.end()) p = it->second;
  }
  if (!p) {
    p = std::make_shared<const Pattern>(pattern);
    std::lock_guard<std::mutex> lock(mu);
    // Bounded: a process that meets very many patterns starts over.
    if (all.size() >= 4096) all.clear();
    all.emplace(std::string(pattern), p);
  }
  slot = Recent{holder, pattern.data(), pattern.size(), std::move(p)};
  return *slot.pattern;
}

// One match's value of type [t]: [m] holds the whole match and the groups.
Value match_value(const RE2& re, const std::vector<re2::StringPiece>& m, const Type* t) {
  auto str = [](const re2::StringPiece& p) {
    if (p.data() == nullptr) return Value::null(Type::string());
    return Value::string(std::string_view(p.data(), p.size()));
  };
  if (t == Type::string()) return str(m[0]);
  if (t->is_tuple()) {
    std::vector<Value> vals;
    for (size_t i = 1; i < m.size(); ++i) vals.push_back(str(m[i]));
    return Value::tuple(std::move(vals));
  }
  // Groups in order, so that of two with one name the later one wins.
  std::map<std::string, Value, std::less<>> attrs;
  for (const auto& [i, name] : re.CapturingGroupNames()) attrs[name] = str(m[size_t(i)]);
  return Value::object(std::vector<std::pair<std::string, Value>>(attrs.begin(), attrs.end()));
}

// Finds the leftmost match of [re] in [text] starting at byte [pos].
bool find(const RE2& re, std::string_view text, size_t pos, std::vector<re2::StringPiece>& m) {
  m.assign(size_t(re.NumberOfCapturingGroups()) + 1, re2::StringPiece());
  return re.Match(re2::StringPiece(text.data(), text.size()), pos, text.size(), RE2::UNANCHORED,
                  m.data(), int(m.size()));
}

Function regex_fn() {
  Function f;
  f.description =
      "Applies the given regular expression pattern to the given string and returns information "
      "about a single match, or raises an error if there is no match.";
  f.params = {param("pattern", Type::string()), param("string", Type::string())};
  f.type = [](std::span<const Value> args) {
    if (!args[0].is_known()) return type_ok(Type::dynamic());
    return pattern_of(args[0], args[0].as_string()).match_type;
  };
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type* ret) {
    if (ret->is_dynamic()) return FuncResult::of(Value::dynamic());
    const RE2& re = pattern_of(args[0], args[0].as_string()).re;
    std::string_view text = args[1].as_string();
    std::vector<re2::StringPiece> m;
    if (!find(re, text, 0, m)) {
      return FuncResult::fail("pattern did not match any part of the given string");
    }
    return FuncResult::of(match_value(re, m, ret));
  };
  return f;
}

Function regexall_fn() {
  Function f;
  f.description =
      "Applies the given regular expression pattern to the given string and returns a list of "
      "information about all non-overlapping matches, or an empty list if there are no matches.";
  f.params = {param("pattern", Type::string()), param("string", Type::string())};
  f.type = [](std::span<const Value> args) {
    if (!args[0].is_known()) return type_ok(Type::list(Type::dynamic()));
    TypeResult t = pattern_of(args[0], args[0].as_string()).match_type;
    if (t.ok()) t.type = Type::list(t.type);
    return t;
  };
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type* ret) {
    const Type* ety = ret->element();
    if (ety->is_dynamic()) return FuncResult::of(Value::dynamic());
    const RE2& re = pattern_of(args[0], args[0].as_string()).re;
    std::string_view text = args[1].as_string();
    std::vector<Value> out;
    std::vector<re2::StringPiece> m;
    // Go's allMatches: an empty match right after the previous match is
    // skipped, and after an empty match the search moves on one code point.
    size_t pos = 0;
    int64_t prev_end = -1;
    while (pos <= text.size() && find(re, text, pos, m)) {
      // Each search may scan to the end of the text, so many matches can
      // be quadratic work: the deadline is checked between searches.
      util::poll();
      size_t start = size_t(m[0].data() - text.data());
      size_t end = start + m[0].size();
      bool accept = true;
      if (end == pos) {
        if (int64_t(start) == prev_end) accept = false;
        pos += pos < text.size() ? uni::decode(text, pos).len : 1;
      } else {
        pos = end;
      }
      prev_end = int64_t(end);
      if (accept) {
        check_push(out);
        out.push_back(match_value(re, m, ety));
      }
    }
    return FuncResult::of(Value::list(ety, std::move(out)));
  };
  return f;
}

// Whether [r] may be part of a $name in a Go replacement template
// (unicode.IsLetter, unicode.IsDigit, or an underscore).
bool is_name_rune(char32_t r) {
  if (r < 0x80) {
    return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') || r == '_';
  }
  switch (utf8proc_category(utf8proc_int32_t(r))) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO:
    case UTF8PROC_CATEGORY_ND: return true;
    default: return false;
  }
}

// Appends [tmpl] to [out] with Go's Regexp.Expand rules for the match [m]
// of [re]: $$ is a dollar, $name and ${name} a group by number (no
// leading zero) or by name, empty when there is no such group or it did
// not take part; a malformed $ stays as it is.
void expand(std::string& out, std::string_view tmpl, const RE2& re,
            const std::vector<re2::StringPiece>& m) {
  auto group = [&](std::string_view name) {
    int64_t num = -1;
    if (!(name.size() > 1 && name[0] == '0')) {
      num = 0;
      for (char c : name) {
        if (c < '0' || c > '9' || num >= 100000000) {
          num = -1;
          break;
        }
        num = num * 10 + (c - '0');
      }
    }
    const re2::StringPiece* p = nullptr;
    if (num >= 0) {
      if (size_t(num) < m.size()) p = &m[size_t(num)];
    } else {
      // The first group of that name that took part (Go allows a name
      // twice); the names come in group order.
      for (const auto& [i, n] : re.CapturingGroupNames()) {
        if (n == name && m[size_t(i)].data() != nullptr) {
          p = &m[size_t(i)];
          break;
        }
      }
    }
    if (p && p->data() != nullptr) {
      check_append(out, p->size());
      out.append(p->data(), p->size());
    }
  };
  while (!tmpl.empty()) {
    size_t dollar = tmpl.find('$');
    if (dollar == std::string_view::npos) break;
    check_append(out, dollar + 1);
    out.append(tmpl.substr(0, dollar));
    tmpl.remove_prefix(dollar + 1);
    if (!tmpl.empty() && tmpl[0] == '$') {
      out += '$';
      tmpl.remove_prefix(1);
      continue;
    }
    std::string_view rest = tmpl;
    bool brace = !rest.empty() && rest[0] == '{';
    if (brace) rest.remove_prefix(1);
    size_t i = 0;
    while (i < rest.size()) {
      uni::Rune r = uni::decode(rest, i);
      if (!r.ok || !is_name_rune(r.cp)) break;
      i += r.len;
    }
    bool ok = i > 0 && (!brace || (i < rest.size() && rest[i] == '}'));
    if (!ok) {
      out += '$';
      continue;
    }
    group(rest.substr(0, i));
    tmpl = rest.substr(i + (brace ? 1 : 0));
  }
  check_append(out, tmpl.size());
  out.append(tmpl);
}

// Go's Regexp.ReplaceAllString([text], [tmpl]): every match replaced by
// the expanded template, except an empty match right after the previous
// match; after each match the search moves on at least one code point.
std::string replace_all_matches(const RE2& re, std::string_view text, std::string_view tmpl) {
  std::string out;
  std::vector<re2::StringPiece> m;
  size_t last_end = 0, pos = 0;
  while (pos <= text.size() && find(re, text, pos, m)) {
    util::poll();  // as regexall: one search may scan the rest of the text
    size_t start = size_t(m[0].data() - text.data());
    size_t end = start + m[0].size();
    check_append(out, start - last_end);
    out.append(text.substr(last_end, start - last_end));
    if (end > last_end || start == 0) expand(out, tmpl, re, m);
    last_end = end;
    size_t width = pos < text.size() ? uni::decode(text, pos).len : 0;
    if (pos + width > end) {
      pos += width;
    } else if (pos + 1 > end) {
      pos++;
    } else {
      pos = end;
    }
  }
  check_append(out, text.size() - last_end);
  out.append(text.substr(last_end));
  return out;
}

// Terraform's replace: go-cty's, except that a substring between slashes
// is a regular expression.
Function terraform_replace_fn() {
  Function f;
  f.description =
      "Replaces all instances of the given substring in the given string with the given "
      "replacement string; a substring written between slashes is a regular expression, "
      "whose matches are replaced (with $1 or ${name} standing for a capture group).";
  f.params = {param("str", Type::string()), param("substr", Type::string()),
              param("replace", Type::string())};
  f.returns(Type::string());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    std::string_view str = args[0].as_string();
    std::string_view sub = args[1].as_string();
    std::string_view repl = args[2].as_string();
    if (sub.size() > 1 && sub.front() == '/' && sub.back() == '/') {
      std::string_view pattern = sub.substr(1, sub.size() - 2);
      const Pattern& p = pattern_of(args[1], pattern);
      if (std::string e = go_compile_error(p); !e.empty()) return FuncResult::fail(std::move(e));
      return FuncResult::of(Value::string(replace_all_matches(p.re, str, repl)));
    }
    return FuncResult::of(Value::string(replace_all(str, sub, repl)));
  };
  return f;
}

}  // namespace

void add_regex_functions(FunctionTable& t) {
  add(t, "regex", regex_fn());
  add(t, "regexall", regexall_fn());
}

void add_terraform_regex_functions(FunctionTable& t) { add(t, "replace", terraform_replace_fn()); }

}  // namespace hclvm::funcs
