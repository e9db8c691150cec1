// String functions, as go-cty's stdlib string.go and string_replace.go
// define them: upper, lower, strrev, strlen, substr, join, sort, split,
// chomp, indent, title, trimspace, trim, trimprefix, trimsuffix, replace;
// format and formatlist are in format.cpp.
//
// "Characters" are grapheme clusters where cty counts them (strlen, strrev,
// substr) and code points where Go's strings package works on them (case
// mapping, trim, split with an empty separator). Case mapping uses
// utf8proc's simple mappings, which are Go's unicode.ToUpper/ToLower/ToTitle
// up to the Unicode version of the tables.
#include <utf8proc.h>

#include <algorithm>
#include <string>
#include <vector>

#include "funcs/funcs.h"
#include "util/budget.h"
#include "util/unicode.h"
#include "value/refine.h"

namespace hclvm::funcs {

namespace {

const Type* str() { return Type::string(); }

// Appends the UTF-8 encoding of [r] to [out].
void append_rune(std::string& out, char32_t r) {
  utf8proc_uint8_t buf[4];
  auto n = utf8proc_encode_char(utf8proc_int32_t(r), buf);
  out.append(reinterpret_cast<const char*>(buf), size_t(n));
}

// Go's strings.Map with [f]: invalid bytes become U+FFFD. The text can
// grow up to three times (an invalid byte becomes three), so its size is
// checked as it grows, every 64 KiB of input.
template <class F>
void map_runes(std::string_view s, F f, std::string& out) {
  out.reserve(out.size() + s.size());
  size_t next_check = 0;
  for (size_t i = 0; i < s.size();) {
    if (i >= next_check) {
      check_append(out, 0);
      util::poll();  // 16 MiB of text take a while
      next_check = i + 65536;
    }
    uni::Rune r = uni::decode(s, i);
    append_rune(out, f(r.ok ? r.cp : char32_t(0xFFFD)));
    i += r.len;
  }
}

// Go's unicode.ToUpper / ToTitle of [r]: utf8proc's mapping, except that
// utf8proc maps ß to ẞ where Go's tables (Unicode's simple mappings) leave
// it alone.
char32_t upper_rune(char32_t r) {
  return r == 0xDF ? r : char32_t(utf8proc_toupper(utf8proc_int32_t(r)));
}
char32_t title_rune(char32_t r) {
  return r == 0xDF ? r : char32_t(utf8proc_totitle(utf8proc_int32_t(r)));
}

// Appends [s] in upper case to [out].
void to_upper(std::string_view s, std::string& out) {
  if (!uni::all_ascii(s)) return map_runes(s, upper_rune, out);
  size_t at = out.size();
  out.append(s);
  for (size_t i = at; i < out.size(); ++i)
    if (out[i] >= 'a' && out[i] <= 'z') out[i] = char(out[i] - 32);
}

// Appends [s] in lower case to [out].
void to_lower(std::string_view s, std::string& out) {
  if (!uni::all_ascii(s)) {
    return map_runes(
        s, [](char32_t r) { return char32_t(utf8proc_tolower(utf8proc_int32_t(r))); }, out);
  }
  size_t at = out.size();
  out.append(s);
  for (size_t i = at; i < out.size(); ++i)
    if (out[i] >= 'A' && out[i] <= 'Z') out[i] = char(out[i] + 32);
}

// Go's strings.Title separator test.
bool is_separator(char32_t r) {
  if (r <= 0x7F) {
    return !((r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') ||
             r == '_');
  }
  switch (utf8proc_category(utf8proc_int32_t(r))) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO:
    case UTF8PROC_CATEGORY_ND: return false;
    default: return uni::is_space(r);
  }
}

// Appends [s] with each word's first letter in title case to [out].
void to_title(std::string_view s, std::string& out) {
  if (uni::all_ascii(s)) {
    // ASCII: the same rules on bytes, in place, without decoding.
    size_t at = out.size();
    out.append(s);
    bool after_separator = true;
    for (size_t i = at; i < out.size(); ++i) {
      char c = out[i];
      if (after_separator && c >= 'a' && c <= 'z') out[i] = char(c - 32);
      after_separator = is_separator(static_cast<unsigned char>(c));
    }
    return;
  }
  char32_t prev = ' ';
  map_runes(
      s,
      [&prev](char32_t r) {
        char32_t t = is_separator(prev) ? title_rune(r) : r;
        prev = r;
        return t;
      },
      out);
}

// A function of one string returning a string computed by [f]: f(s)
// returns it, or f(s, out) appends it to out (a scratch string).
template <class F>
Function string_map_fn(std::string description, unsigned flags, F f) {
  Function fn;
  fn.description = std::move(description);
  fn.params = {param("str", str(), flags)};
  fn.returns(str());
  fn.result_not_null = true;
  fn.impl = [f](std::span<const Value> args, const Type*) {
    if constexpr (std::is_invocable_v<F, std::string_view, std::string&>) {
      ScratchText out;  // f appends to it
      f(args[0].as_string(), *out);
      return FuncResult::of(Value::string(*out));
    } else {
      return FuncResult::of(Value::string(f(args[0].as_string())));
    }
  };
  return fn;
}

Function strlen_fn() {
  Function f;
  f.description =
      "Returns the number of Unicode characters (technically: grapheme clusters) in the given "
      "string.";
  f.params = {param("str", str(), kUnknown | kDynamic)};
  f.returns(Type::number());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    if (!args[0].is_known()) {
      // Never negative, and at least as long as a known prefix.
      ValueRange rng = value_range(args[0]);
      int64_t min = 0;
      if (rng.type_constraint() == Type::string()) {
        min = int64_t(uni::count_graphemes(rng.string_prefix()));
      }
      return FuncResult::of(refine(Value::unknown(Type::number()))
                                .not_null()
                                .number_lower_bound(Value::integer(min), true)
                                .new_value());
    }
    return FuncResult::of(strlen_value(args[0]));
  };
  return f;
}

Function substr_fn() {
  Function f;
  f.description = "Extracts a substring from the given string.";
  f.params = {param("str", str(), kDynamic), param("offset", Type::number(), kDynamic),
              param("length", Type::number(), kDynamic)};
  f.returns(str());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    std::string_view in = args[0].as_string();
    int64_t offset = 0, length = 0;
    std::string err;
    if (!to_int(args[1], offset, err) || !to_int(args[2], length, err)) {
      return FuncResult::fail(err);
    }
    // The seeking below follows cty's loops step for step, quirks included
    // (an offset past the end gives "", a negative one counts from the end).
    if (offset < 0) {
      offset += int64_t(uni::count_graphemes(in));
    } else if (length == 0) {
      return FuncResult::of(Value::string(""));
    }
    std::string_view sub = in;
    size_t i = 0;
    if (offset > 0) {
      int64_t pos = 0;
      for (i = 0; i < sub.size();) {
        i += uni::grapheme_len(sub, i);
        poll_every(size_t(pos));
        ++pos;
        if (pos == offset) break;
        if (i >= in.size()) return FuncResult::of(Value::string(""));
      }
      sub = sub.substr(i);
    }
    if (length < 0) return FuncResult::of(Value::string(sub));
    int64_t pos = 0;
    for (i = 0; i < sub.size();) {
      i += uni::grapheme_len(sub, i);
      poll_every(size_t(pos));
      ++pos;
      if (pos == length) break;
    }
    return FuncResult::of(Value::string(sub.substr(0, i)));
  };
  return f;
}

Function join_fn() {
  Function f;
  f.description =
      "Concatenates together the elements of all given lists with a delimiter, producing a "
      "single string.";
  f.params = {param("separator", str())};
  f.var_param = param("lists", Type::list(str()));
  f.returns(str());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    std::string_view sep = args[0].as_string();
    auto lists = args.subspan(1);
    if (lists.empty()) return FuncResult::fail("at least one list is required");
    for (const Value& l : lists) {
      if (!l.is_wholly_known()) return FuncResult::of(Value::unknown(str()));
    }
    ScratchText out;
    bool first = true;
    for (size_t ai = 0; ai < lists.size(); ++ai) {
      const Value& l = lists[ai];
      for (size_t ei = 0; ei < l.length(); ++ei) {
        const Value& e = l.element(ei);
        if (e.is_null()) {
          if (lists.size() > 1) {
            return arg_error("element " + std::to_string(ei) + " of list " +
                                 std::to_string(ai + 1) +
                                 " is null; cannot concatenate null values",
                             int(ai + 1));
          }
          return arg_error(
              "element " + std::to_string(ei) + " is null; cannot concatenate null values",
              int(ai + 1));
        }
        std::string_view text = e.as_string();
        check_append(*out, (first ? 0 : sep.size()) + text.size());
        if (!first) *out += sep;
        first = false;
        *out += text;
      }
    }
    return FuncResult::of(Value::string(*out));
  };
  return f;
}

Function sort_fn() {
  Function f;
  f.description = "Applies a lexicographic sort to the elements of the given list.";
  f.params = {param("list", Type::list(str()), kUnknown)};
  f.returns(Type::list(str()));
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type* ret) {
    const Value& l = args[0];
    if (!l.is_wholly_known()) {
      // The order is not known yet, but the length is.
      Value u = Value::unknown(ret);
      if (l.type()->is_list()) {
        ValueRange rng = value_range(l);
        u = refine(u)
                .collection_length_lower_bound(rng.length_lower_bound())
                .collection_length_upper_bound(rng.length_upper_bound())
                .new_value();
      }
      return FuncResult::of(std::move(u));
    }
    if (l.length() == 0) return FuncResult::of(l);
    std::vector<std::string_view> items;
    for (size_t i = 0; i < l.length(); ++i) {
      const Value& e = l.element(i);
      if (e.is_null()) {
        return FuncResult::fail("given list element " + std::to_string(i) +
                                " is null; a null string cannot be sorted");
      }
      items.push_back(e.as_string());
    }
    // A million long strings take a while to sort: the deadline is checked
    // along the way.
    size_t compared = 0;
    std::sort(items.begin(), items.end(), [&compared](std::string_view a, std::string_view b) {
      poll_every(compared++);
      return a < b;
    });
    std::vector<Value> out;
    out.reserve(items.size());
    for (std::string_view s : items) out.push_back(Value::string(s));
    return FuncResult::of(Value::list(str(), std::move(out)));
  };
  return f;
}

Function split_fn() {
  Function f;
  f.description =
      "Produces a list of one or more strings by splitting the given string at all instances "
      "of a given separator substring.";
  f.params = {param("separator", str()), param("str", str())};
  f.returns(Type::list(str()));
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    std::string_view sep = args[0].as_string();
    std::string_view s = args[1].as_string();
    ScratchValues out;
    if (sep.empty()) {
      // Go's strings.Split explodes into code points (invalid bytes alone).
      for (size_t i = 0; i < s.size();) {
        uni::Rune r = uni::decode(s, i);
        check_push(*out);
        out->push_back(Value::string(s.substr(i, r.len)));
        i += r.len;
      }
    } else {
      size_t start = 0;
      for (;;) {
        size_t at = s.find(sep, start);
        if (at == std::string_view::npos) break;
        check_push(*out);
        out->push_back(Value::string(s.substr(start, at - start)));
        start = at + sep.size();
      }
      out->push_back(Value::string(s.substr(start)));
    }
    return FuncResult::of(Value::list_from(str(), *out));
  };
  return f;
}

Function indent_fn() {
  Function f;
  f.description = "Adds a given number of spaces after each newline character in the given string.";
  f.params = {param("spaces", Type::number()), param("str", str())};
  f.returns(str());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    int64_t spaces = 0;
    std::string err;
    if (!to_int(args[0], spaces, err)) return FuncResult::fail(err);
    if (spaces < 0) {
      return FuncResult::fail("panic in function implementation: strings: negative Repeat count");
    }
    // cty makes the padding with strings.Repeat first, newlines or not: Go
    // refuses a slice beyond its 2^48-byte address space at once; below
    // that, the run's string limit applies (the reference would try).
    if (spaces > (int64_t{1} << 48)) {
      return FuncResult::fail("panic in function implementation: runtime error: makeslice: cap out of range");
    }
    std::string_view s = args[1].as_string();
    // The result's size is known before anything is built: each newline
    // gains [spaces] bytes (saturating, so that a size past any limit is
    // refused at once).
    auto newlines = uint64_t(std::count(s.begin(), s.end(), '\n'));
    if (newlines == 0) return FuncResult::of(args[1]);
    uint64_t extra = uint64_t(spaces) > (UINT64_MAX - s.size()) / newlines
                         ? UINT64_MAX - s.size()
                         : newlines * uint64_t(spaces);
    util::check_string_size(s.size() + extra);
    ScratchText out;
    out->reserve(size_t(s.size() + extra));
    for (size_t at = 0;;) {
      size_t nl = s.find('\n', at);
      if (nl == std::string_view::npos) {
        out->append(s.substr(at));
        break;
      }
      out->append(s.substr(at, nl + 1 - at)).append(size_t(spaces), ' ');
      at = nl + 1;
    }
    return FuncResult::of(Value::string(*out));
  };
  return f;
}

// A function of two strings [a] and [b] computed by [f].
template <class F>
Function string2_fn(std::string description, std::string a, std::string b, F f) {
  Function fn;
  fn.description = std::move(description);
  fn.params = {param(std::move(a), str()), param(std::move(b), str())};
  fn.returns(str());
  fn.result_not_null = true;
  fn.impl = [f](std::span<const Value> args, const Type*) {
    return FuncResult::of(Value::string(f(args[0].as_string(), args[1].as_string())));
  };
  return fn;
}

// Go's strings.Trim: drops leading and trailing code points found in
// [cutset] (its invalid bytes, like those of [s], read as U+FFFD). The
// cutset's code points go into a sorted table first, so that the work
// grows with the sizes of the two strings, not with their product.
std::string trim(std::string_view s, std::string_view cutset) {
  std::vector<char32_t> cut;
  for (size_t i = 0; i < cutset.size();) {
    uni::Rune c = uni::decode(cutset, i);
    cut.push_back(c.ok ? c.cp : char32_t(0xFFFD));
    i += c.len;
  }
  std::sort(cut.begin(), cut.end());
  auto in_cutset = [&](char32_t r) { return std::binary_search(cut.begin(), cut.end(), r); };
  size_t start = 0;
  while (start < s.size()) {
    uni::Rune r = uni::decode(s, start);
    if (!in_cutset(r.ok ? r.cp : char32_t(0xFFFD))) break;
    start += r.len;
  }
  size_t end = s.size();
  while (end > start) {
    // Step back over one code point (Go's DecodeLastRune).
    size_t b = end - 1;
    size_t lim = end >= 4 ? end - 4 : 0;
    while (b > lim && b > start && (static_cast<unsigned char>(s[b]) & 0xC0) == 0x80) --b;
    uni::Rune r = uni::decode(s, b);
    if (b + r.len != end) {
      b = end - 1;
      r = {0xFFFD, 1, false};
    }
    if (!in_cutset(r.ok ? r.cp : char32_t(0xFFFD))) break;
    end = b;
  }
  return std::string(s.substr(start, end - start));
}

Function replace_fn() {
  Function f;
  f.description =
      "Replaces all instances of the given substring in the given string with the given "
      "replacement string.";
  f.params = {param("str", str()), param("substr", str()), param("replace", str())};
  f.returns(str());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    return FuncResult::of(
        Value::string(replace_all(args[0].as_string(), args[1].as_string(), args[2].as_string())));
  };
  return f;
}

}  // namespace

std::string replace_all(std::string_view s, std::string_view old, std::string_view repl) {
  std::string out;
  // The size is checked before each piece is added: a short text with
  // many matches can make a result far past the string limit.
  auto add = [&out](std::string_view piece) {
    check_append(out, piece.size());
    out += piece;
  };
  if (old.empty()) {
    // An empty old string matches before every code point and at the end.
    add(repl);
    for (size_t i = 0; i < s.size();) {
      uni::Rune r = uni::decode(s, i);
      add(s.substr(i, r.len));
      add(repl);
      i += r.len;
    }
    return out;
  }
  size_t start = 0;
  for (;;) {
    size_t at = s.find(old, start);
    if (at == std::string_view::npos) break;
    add(s.substr(start, at - start));
    add(repl);
    start = at + old.size();
  }
  add(s.substr(start));
  return out;
}

void add_string_functions(FunctionTable& t) {
  add(t, "upper",
      string_map_fn("Returns the given string with all Unicode letters translated to their "
                    "uppercase equivalents.",
                    kDynamic, to_upper));
  add(t, "lower",
      string_map_fn("Returns the given string with all Unicode letters translated to their "
                    "lowercase equivalents.",
                    kDynamic, to_lower));
  add(t, "strrev",
      string_map_fn("Returns the given string with all of its Unicode characters in reverse "
                    "order.",
                    kDynamic, [](std::string_view s) {
                      std::string out(s.size(), '\0');
                      size_t pos = s.size();
                      for (size_t i = 0, next_poll = 65536; i < s.size();) {
                        if (i >= next_poll) {
                          util::poll();
                          next_poll = i + 65536;
                        }
                        size_t d = uni::grapheme_len(s, i);
                        pos -= d;
                        out.replace(pos, d, s.substr(i, d));
                        i += d;
                      }
                      return out;
                    }));
  add(t, "strlen", strlen_fn());
  add(t, "substr", substr_fn());
  add(t, "join", join_fn());
  add(t, "sort", sort_fn());
  add(t, "split", split_fn());
  add(t, "chomp",
      string_map_fn("Removes one or more newline characters from the end of the given string.", 0,
                    [](std::string_view s) {
                      size_t end = s.size();
                      while (end > 0 && (s[end - 1] == '\n' || s[end - 1] == '\r')) --end;
                      return std::string(s.substr(0, end));
                    }));
  add(t, "indent", indent_fn());
  add(t, "title",
      string_map_fn("Replaces one letter after each non-letter and non-digit character with its "
                    "uppercase equivalent.",
                    0, to_title));
  add(t, "trimspace",
      string_map_fn("Removes any consecutive space characters (as defined by Unicode) from the "
                    "start and end of the given string.",
                    0, [](std::string_view s) {
                      return std::string(uni::trim_right_space(uni::trim_left_space(s)));
                    }));
  add(t, "trim",
      string2_fn("Removes consecutive sequences of characters in \"cutset\" from the start and "
                 "end of the given string.",
                 "str", "cutset",
                 [](std::string_view s, std::string_view c) { return trim(s, c); }));
  add(t, "trimprefix",
      string2_fn("Removes the given prefix from the start of the given string, if present.", "str",
                 "prefix", [](std::string_view s, std::string_view p) {
                   return std::string(s.starts_with(p) ? s.substr(p.size()) : s);
                 }));
  add(t, "trimsuffix",
      string2_fn("Removes the given suffix from the start of the given string, if present.", "str",
                 "suffix", [](std::string_view s, std::string_view x) {
                   return std::string(s.ends_with(x) ? s.substr(0, s.size() - x.size()) : s);
                 }));
  add(t, "replace", replace_fn());
  add(t, "format", format_fn());
  add(t, "formatlist", formatlist_fn());
}

}  // namespace hclvm::funcs
