// What `hclvm console` makes of its input (console.h): the heuristic that
// keeps an entry open across lines while a bracket, heredoc or template
// sequence is open (terraform console's ExpressionEntryCouldContinue, on
// hclvm's scanner tokens), and the candidates of tab completion: roots,
// variables, locals, attributes of a traversal's value, function names.
#include "cli/console.h"

#include <hclvm/syntax.h>

#include <algorithm>
#include <set>

#include "syntax/token.h"

namespace hclvm::cli {

namespace {

// [s] without the spaces around it.
std::string_view trim(std::string_view s) {
  size_t a = s.find_first_not_of(" \t\r\n\v\f");
  if (a == std::string_view::npos) return {};
  size_t b = s.find_last_not_of(" \t\r\n\v\f");
  return s.substr(a, b - a + 1);
}

// The opener a closer [t] must match, or Tok::Nil when [t] closes nothing.
syntax::Tok opener_of(syntax::Tok t) {
  using syntax::Tok;
  switch (t) {
    case Tok::CBrace: return Tok::OBrace;
    case Tok::CBrack: return Tok::OBrack;
    case Tok::CParen: return Tok::OParen;
    case Tok::CHeredoc: return Tok::OHeredoc;
    case Tok::TemplateSeqEnd: return Tok::TemplateInterp;  // or TemplateControl
    default: return Tok::Nil;
  }
}

// Whether [t] opens what a closer must match.
bool is_opener(syntax::Tok t) {
  using syntax::Tok;
  return t == Tok::OBrace || t == Tok::OBrack || t == Tok::OParen || t == Tok::OHeredoc ||
         t == Tok::TemplateInterp || t == Tok::TemplateControl;
}

// Whether [c] may be part of a word completion looks at.
bool word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '.' || static_cast<unsigned char>(c) >= 0x80;
}

// The byte where the word ending at [end] of [line] starts: identifier
// characters, dots and index brackets without spaces (`module.m["k"].`).
size_t word_start(std::string_view line, size_t end) {
  size_t i = end;
  while (i > 0) {
    char c = line[i - 1];
    if (word_char(c)) {
      --i;
    } else if (c == ']') {
      size_t open = line.rfind('[', i - 1);
      if (open == std::string_view::npos ||
          line.substr(open, i - open).find_first_of(" \t") != std::string_view::npos)
        break;
      i = open;
    } else {
      break;
    }
  }
  return i;
}

// Adds to [out] [prefix] + each of [names] that starts with [part], then [suffix].
void add_matches(std::set<std::string>& out, const std::vector<std::string>& names,
                 std::string_view part, const std::string& prefix, const char* suffix) {
  for (const std::string& n : names)
    if (n.starts_with(part)) out.insert(prefix + n + suffix);
}

}  // namespace

bool entry_could_continue(const std::vector<std::string>& lines) {
  using syntax::Tok;
  if (lines.empty() || trim(lines.back()).empty()) return false;
  std::string all;
  for (const std::string& l : lines) all += l + "\n";
  std::shared_ptr<const Source> src = make_source("<console-input>", std::move(all));
  syntax::Tokens toks = syntax::scan(src->text(), syntax::ScanMode::Normal);
  Diagnostics diags;
  syntax::check_invalid_tokens(toks, *src, diags);
  if (has_errors(diags)) return false;
  std::vector<Tok> open;
  for (const syntax::Token& t : toks) {
    if (is_opener(t.type)) {
      open.push_back(t.type);
      continue;
    }
    Tok want = opener_of(t.type);
    if (want == Tok::Nil) continue;
    if (open.empty()) return false;
    Tok got = open.back();
    open.pop_back();
    bool ok = t.type == Tok::TemplateSeqEnd
                  ? got == Tok::TemplateInterp || got == Tok::TemplateControl
                  : got == want;
    if (!ok) return false;
  }
  return !open.empty();
}

bool blank_or_comment(std::string_view line) {
  std::string_view t = trim(line);
  return t.empty() || t.starts_with('#') || t.starts_with("//");
}

CompletionNames completion_names(const config::Module& m, const config::Evaluation& ev,
                                 std::vector<std::string> functions) {
  CompletionNames n;
  auto& c = n.children;
  c["var"] = m.variable_names();
  c["local"] = m.local_names();
  c["module"] = m.module_call_names();
  c["path"] = {"cwd", "module", "root"};
  c["terraform"] = {"workspace"};
  for (const std::string& address : m.resource_addresses()) {
    std::string_view a = address;
    std::string prefix;
    if (a.starts_with("data.")) {
      a.remove_prefix(5);
      prefix = "data.";
    }
    size_t dot = a.find('.');
    if (dot == std::string_view::npos) continue;
    std::string type(a.substr(0, dot));
    if (!prefix.empty()) c["data"].push_back(type);
    c[prefix + type].emplace_back(a.substr(dot + 1));
  }
  for (auto& [root, names] : c) {
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
  }
  n.functions = std::move(functions);
  n.members = [&ev](std::string_view expr) {
    std::vector<std::string> out;
    EvalResult r = ev.eval(expr);
    if (r.has_errors()) return out;
    Value v = r.value.unmark();
    const Type* t = v.type();
    if (t->is_object()) {
      for (size_t i = 0; i < t->size(); ++i) out.emplace_back(t->attr_name(i));
    } else if (t->is_map() && v.is_known() && !v.is_null()) {
      for (size_t i = 0; i < v.length(); ++i) out.emplace_back(v.map_key(i));
    }
    return out;
  };
  return n;
}

Completion complete(std::string_view line, size_t cursor, const CompletionNames& names) {
  Completion c;
  cursor = std::min(cursor, line.size());
  c.start = word_start(line, cursor);
  std::string_view word = line.substr(c.start, cursor - c.start);
  if (!word.empty() && word[0] >= '0' && word[0] <= '9') return c;  // a number
  std::set<std::string> out;
  size_t dot = word.rfind('.');
  if (dot == std::string_view::npos) {
    for (const auto& [root, children] : names.children)
      if (root.starts_with(word) && root.find('.') == std::string::npos) out.insert(root + ".");
    add_matches(out, names.functions, word, "", "(");
  } else {
    std::string base(word.substr(0, dot));
    std::string_view part = word.substr(dot + 1);
    std::vector<std::string> members;
    if (auto it = names.children.find(base); it != names.children.end()) members = it->second;
    else if (names.members) members = names.members(base);
    std::vector<std::string> valid;
    for (std::string& m : members)
      if (valid_identifier(m)) valid.push_back(std::move(m));
    add_matches(out, valid, part, base + ".", "");
  }
  c.candidates.assign(out.begin(), out.end());
  return c;
}

std::string common_prefix(const std::vector<std::string>& candidates) {
  if (candidates.empty()) return {};
  std::string p = candidates[0];
  for (const std::string& c : candidates) {
    size_t n = 0;
    while (n < p.size() && n < c.size() && p[n] == c[n]) ++n;
    p.resize(n);
  }
  return p;
}

}  // namespace hclvm::cli
