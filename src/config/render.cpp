// What Terraform prints: diagnostics in its human view (format.DiagnosticPlain
// of internal/command/format: "\nError: SUMMARY\n\n", "  on FILE line N, in
// BLOCK:" and the source lines, the "├──" lines naming the values of the
// expression's variables, the detail word-wrapped at the width less one)
// sorted as tfdiags sorts them, the document of `terraform validate
// -json` (views/json.NewDiagnostic), values as terraform console prints
// them (repl.FormatValue) and types as its type() prints them; and the
// statements under a diagnostic ("var.x is 3"), computed from the
// expression the evaluator names and the context it ran in.
#include "diag/render.h"

#include <hclvm/config.h>
#include <hclvm/typeexpr.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>

#include "config/internal.h"
#include "util/budget.h"
#include "util/unicode.h"
#include "value/json.h"
#include "value/number.h"
#include "vm/access.h"
#include "vm/expr_values.h"

namespace hclvm::config {

namespace detail {

namespace {

// tfdiags.TraversalStr of the first [n] steps of [t].
std::string traversal_str(const Traversal& t, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    const TraversalStep& st = t.steps[i];
    switch (st.kind) {
      case TraversalStep::Kind::Root: s += st.name; break;
      case TraversalStep::Kind::Attr: s += "." + st.name; break;
      case TraversalStep::Kind::Index:
        s += "[" + (st.key.type()->is_primitive() ? vm::describe(st.key) : std::string("...")) + "]";
        break;
    }
  }
  return s;
}

// The first [n] steps of [t] applied in [ctx] (hcl.Traversal.TraverseAbs);
// false when a step fails.
bool traverse(const Traversal& t, size_t n, const EvalContext& ctx, Value& out) {
  const Value* root = ctx.lookup(t.steps[0].name);
  if (root == nullptr) return false;
  Value v = *root;
  for (size_t i = 1; i < n; ++i) {
    vm::AccessError err;
    const TraversalStep& st = t.steps[i];
    v = st.kind == TraversalStep::Kind::Attr ? vm::hcl_get_attr(v, st.name, err)
                                             : vm::hcl_index(v, st.key, err);
    if (err) return false;
  }
  out = std::move(v);
  return true;
}

// The source text of range [r], from [sources].
std::optional<std::string> range_text(const Sources& sources, const Range& r) {
  const Sources::File* f = sources.find(r.filename);
  if (f == nullptr) return std::nullopt;
  std::string_view text = f->source->text();
  if (r.end.byte > text.size() || r.start.byte > r.end.byte) return std::nullopt;
  return std::string(text.substr(r.start.byte, r.end.byte - r.start.byte));
}

// Whether [summary] is one of the diagnostics hclsyntax attaches the
// called function's name to (FunctionCallDiagExtra).
bool function_call_summary(std::string_view summary) {
  return summary == "Invalid function argument" || summary == "Error in function call" ||
         summary == "Too many function arguments" || summary == "Not enough function arguments" ||
         summary == "Invalid expanding argument value";
}

}  // namespace

void describe_values(Diagnostic& d, const Sources& sources, const EvalContext& ctx,
                     const FunctionTable* fns, bool caused_by_unknown, bool caused_by_sensitive) {
  d.expression_values.clear();
  if (!d.expression || !d.subject) return;
  std::optional<std::string> text = range_text(sources, *d.expression);
  std::vector<std::pair<std::string, std::string>> values;
  if (text) {
    if (std::shared_ptr<const ExprParse> p = vm::parse_snippet(*text)) {
      std::vector<std::string> seen;
      for (const Traversal& t : variables(*p->expr, *p->source)) {
        if (t.steps.empty() || t.steps[0].kind != TraversalStep::Kind::Root) continue;
        for (size_t n = t.steps.size(); n > 1; --n) {
          Value v;
          if (!traverse(t, n, ctx, v)) continue;
          std::string name = traversal_str(t, n);
          if (std::find(seen.begin(), seen.end(), name) != seen.end()) break;
          auto [plain, marks] = v.unmark_with_marks();
          bool other = false;
          for (std::string_view m : marks.labels())
            other |= m != kSensitive && m != kEphemeral;
          if (other) break;
          std::string statement;
          bool sens = marks.has(kSensitive), eph = marks.has(kEphemeral);
          if (sens && eph) {
            break;
          } else if (sens) {
            if (!caused_by_sensitive) break;
            statement = "has a sensitive value";
          } else if (eph) {
            break;
          } else if (!plain.is_known()) {
            const Type* ty = plain.type();
            if (!ty->is_dynamic()) {
              if (caused_by_unknown) {
                statement = "is a " + ty->friendly_name() + ", known only after apply";
                if (ty->is_collection()) {
                  const Refinement& r = plain.refinement();
                  uint64_t lo = r.min_length, hi = r.max_length;
                  if (lo == hi) {
                    statement = "is a " + ty->friendly_name() + " of length " +
                                std::to_string(lo) + ", known only after apply";
                  } else if (lo != 0 && hi <= 1024) {
                    statement = "is a " + ty->friendly_name() + " with between " +
                                std::to_string(lo) + " and " + std::to_string(hi) +
                                " elements, known only after apply";
                  } else if (lo != 0) {
                    statement = "is a " + ty->friendly_name() + " with at least " +
                                std::to_string(lo) + " elements, known only after apply";
                  } else if (hi <= 1024) {
                    statement = "is a " + ty->friendly_name() + " with up to " +
                                std::to_string(hi) + " elements, known only after apply";
                  }
                }
              } else {
                statement = "is a " + ty->friendly_name();
              }
            } else {
              if (!caused_by_unknown) break;
              statement = "will be known only after apply";
            }
          } else {
            statement = "is " + vm::describe(plain);
          }
          values.emplace_back(name, statement);
          seen.push_back(name);
          break;
        }
      }
    }
  }
  std::stable_sort(values.begin(), values.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  if (fns != nullptr && function_call_summary(d.summary) && d.context) {
    if (std::optional<std::string> call = range_text(sources, *d.context)) {
      std::shared_ptr<const ExprParse> p = vm::parse_snippet(*call);
      if (p && p->expr->kind == ast::ExprKind::FunctionCall) {
        std::string name(ast::as<ast::FunctionCallExpr>(*p->expr).name);
        const Function* f = fns->find(name);
        // A function of the built-in provider, under the local name it was
        // called by.
        std::shared_ptr<const FunctionTable> provider;
        if (f == nullptr && name.starts_with("provider::")) {
          std::string local = name.substr(10, name.find("::", 10) - 10);
          provider = detail::terraform_functions(".", true, false, {local});
          f = provider->find(name);
        }
        if (f != nullptr) {
          std::string line = "while calling " + name + "(";
          for (size_t i = 0; i < f->params.size(); ++i)
            line += (i ? ", " : "") + f->params[i].name;
          if (f->var_param) line += (f->params.empty() ? "" : ", ") + f->var_param->name + "...";
          d.expression_values.push_back(line + ")");
        }
      }
    }
  }
  for (auto& [name, statement] : values) d.expression_values.push_back(name + " " + statement);
}

FunctionSignature describe_function(std::string_view name, const Function& f) {
  FunctionSignature s;
  size_t sep = name.rfind("::");
  s.name = std::string(sep == std::string_view::npos ? name : name.substr(sep + 2));
  auto type_json = [](const Type* t) {
    JsonResult<std::string> j = type_to_json(t);
    return j.ok() ? j.value : std::string("\"dynamic\"");
  };
  std::vector<Value> args;
  for (size_t i = 0; i < f.params.size(); ++i) {
    const Param& p = f.params[i];
    bool expression = i == 0 && f.expression_arg;
    s.params.push_back({p.name, expression ? std::string("\"dynamic\"") : type_json(p.type)});
    args.push_back(Value::unknown(p.type));
  }
  if (f.var_param) {
    s.variadic = FunctionSignature::Param{f.var_param->name, type_json(f.var_param->type)};
    args.push_back(Value::unknown(f.var_param->type));
  }
  TypeResult r = f.return_type(args);
  s.return_type = f.expression_arg || r.error || r.type == nullptr ? std::string("\"dynamic\"")
                                                                   : type_json(r.type);
  return s;
}

}  // namespace detail

namespace {

// The number of path separators in [name], for sorting.
size_t separators(std::string_view name) { return std::count(name.begin(), name.end(), '/'); }

// The snippet of [d] (views/json.NewDiagnostic) from [sources].
struct Snippet {
  std::string context;
  bool has_context = false;
  std::string code;
  uint32_t start_line = 0;
  size_t hl_start = 0, hl_end = 0;
};

// The snippet of a diagnostic with subject [subject] and context [context].
std::optional<Snippet> make_snippet(const Range& subject_in, const std::optional<Range>& context,
                                    const Sources& sources) {
  const Sources::File* f = sources.find(subject_in.filename);
  if (f == nullptr) return std::nullopt;
  Range highlight = subject_in;
  if (highlight.end == Pos{}) highlight.end = highlight.start;
  Range snip = context ? *context : highlight;
  if (highlight.start.byte < snip.start.byte) snip.start = highlight.start;
  if (highlight.end.byte > snip.end.byte) snip.end = highlight.end;
  if (snip.start.byte == snip.end.byte) snip.end.byte++;
  if (highlight.start.byte == highlight.end.byte) highlight.end.byte++;
  Snippet s;
  s.start_line = snip.start.line;
  std::string_view text = f->source->text();
  // The file's context string at the byte before the subject.
  uint32_t off = highlight.start.byte;
  if (off > 0) {
    if (const ast::Body* b = f->body.native_body()) {
      s.context = diag::native_context(*b, off - 1);
    } else if (const json::Node* n = f->body.json_node()) {
      s.context = diag::json_context(*n, off - 1);
      if (!s.context.empty() && s.context[0] == '.') s.context.erase(0, 1);
    }
  }
  s.has_context = !s.context.empty();
  // The lines overlapping the snippet range.
  size_t code_start = 0;
  bool started = false;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    size_t end = nl == std::string_view::npos ? text.size() : nl;
    size_t line_end = nl == std::string_view::npos ? text.size() : nl + 1;
    // hcl.Range.Overlaps of the line (without its line break) and the
    // snippet: either holds an end of the other (ends included), and an
    // empty line never overlaps.
    size_t ls = pos, le = end > pos && text[end - 1] == '\r' ? end - 1 : end;
    size_t ss = snip.start.byte, se = snip.end.byte;
    auto in = [](size_t a, size_t b, size_t at) { return a <= at && at < b; };
    bool overlaps = ls != le && ss != se &&
                    (in(ls, le, ss) || in(ls, le, se) || in(ss, se, ls) || in(ss, se, le));
    (void)line_end;
    if (overlaps) {
      if (!started) code_start = pos, started = true;
      std::string_view line = text.substr(pos, end - pos);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      s.code += std::string(line) + "\n";
    }
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  if (!s.code.empty()) s.code.pop_back();
  long long start = (long long)highlight.start.byte - (long long)code_start;
  long long end = start + ((long long)highlight.end.byte - (long long)highlight.start.byte);
  long long len = (long long)s.code.size();
  start = std::clamp(start, 0LL, len);
  end = std::clamp(end, 0LL, len);
  s.hl_start = size_t(start);
  s.hl_end = size_t(end);
  return s;
}

std::string json_string(std::string_view s) { return diag::json_string(s); }

}  // namespace

void sort_diagnostics(Diagnostics& diags) {
  std::stable_sort(diags.begin(), diags.end(), [](const Diagnostic& a, const Diagnostic& b) {
    if (a.severity != b.severity) return a.severity == Severity::Warning;
    if (a.subject.has_value() != b.subject.has_value()) return !a.subject.has_value();
    if (!a.subject) return false;
    const Range& ra = *a.subject;
    const Range& rb = *b.subject;
    if (ra.filename != rb.filename) {
      size_t sa = separators(ra.filename), sb = separators(rb.filename);
      if (sa != sb) return sa < sb;
      return ra.filename < rb.filename;
    }
    if (ra.start.byte != rb.start.byte) return ra.start.byte < rb.start.byte;
    return ra.end.byte < rb.end.byte;
  });
}

namespace {

// [in] sorted, then consolidated as tfdiags' ConsolidateWarnings(1) does
// for Terraform's human view: the warnings with a source range and the
// same summary become the first of them, whose detail counts the others.
Diagnostics consolidate_warnings(const Diagnostics& in) {
  Diagnostics sorted = in;
  sort_diagnostics(sorted);
  Diagnostics out;
  std::vector<size_t> more;
  std::map<std::string, size_t, std::less<>> first;
  for (Diagnostic& d : sorted) {
    if (d.severity == Severity::Warning && d.subject) {
      auto [it, fresh] = first.try_emplace(d.summary, out.size());
      if (!fresh) {
        ++more[it->second];
        continue;
      }
    }
    out.push_back(std::move(d));
    more.push_back(0);
  }
  for (size_t i = 0; i < out.size(); ++i) {
    if (more[i] == 0) continue;
    std::string note = more[i] == 1 ? "(and one more similar warning elsewhere)"
                                    : "(and " + std::to_string(more[i]) +
                                          " more similar warnings elsewhere)";
    out[i].detail = out[i].detail.empty() ? note : out[i].detail + "\n\n" + note;
  }
  return out;
}

}  // namespace

std::string render_diagnostics(const Diagnostics& in, const Sources& sources,
                               const RenderOptions& options) {
  Diagnostics diags = consolidate_warnings(in);
  std::string out;
  for (const Diagnostic& d : diags) {
    out += d.severity == Severity::Error ? "\nError: " : "\nWarning: ";
    out += d.summary + "\n\n";
    if (d.subject) {
      const Range& r = *d.subject;
      std::optional<Snippet> s = make_snippet(r, d.context, sources);
      if (!s) {
        out += "  on " + r.filename + " line " + std::to_string(r.start.line) +
               ":\n  (source code not available)\n";
      } else {
        out += "  on " + r.filename + " line " + std::to_string(r.start.line) +
               (s->has_context ? ", in " + s->context : "") + ":\n";
        size_t line = 0, pos = 0;
        while (true) {
          size_t nl = s->code.find('\n', pos);
          std::string l = s->code.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
          char num[32];
          std::snprintf(num, sizeof num, "%4u: ", unsigned(s->start_line + line));
          out += num + l + "\n";
          if (nl == std::string::npos) break;
          pos = nl + 1;
          ++line;
        }
        if (!d.expression_values.empty()) {
          out += "    ├────────────────\n";
          for (const std::string& v : d.expression_values) out += "    │ " + v + "\n";
        }
      }
      out += "\n";
    }
    if (!d.detail.empty()) {
      size_t pos = 0;
      while (true) {
        size_t nl = d.detail.find('\n', pos);
        std::string line =
            d.detail.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
        if (options.width > 1 && !line.starts_with(" "))
          line = diag::wrap_words(line, options.width - 1);
        out += line + "\n";
        if (nl == std::string::npos) break;
        pos = nl + 1;
      }
    }
    out += "\n";
  }
  return out;
}

namespace {

// The compact JSON [j] laid out as Go's json.MarshalIndent lays out a
// value nested at indentation [ind] (two spaces a level; empty arrays and
// objects stay "[]" and "{}").
std::string indent_json(std::string_view j, const std::string& ind) {
  std::string out, cur = ind;
  for (size_t i = 0; i < j.size(); ++i) {
    char c = j[i];
    if (c == '"') {
      size_t k = i + 1;
      while (k < j.size() && j[k] != '"') k += j[k] == '\\' ? 2 : 1;
      out.append(j.substr(i, k + 1 - i));
      i = k;
    } else if (c == '[' || c == '{') {
      out += c;
      if (i + 1 < j.size() && (j[i + 1] == ']' || j[i + 1] == '}')) {
        out += j[++i];
      } else {
        cur += "  ";
        out += "\n" + cur;
      }
    } else if (c == ']' || c == '}') {
      cur.resize(cur.size() - 2);
      out += "\n" + cur + c;
    } else if (c == ',') {
      out += ",\n" + cur;
    } else if (c == ':') {
      out += ": ";
    } else {
      out += c;
    }
  }
  return out;
}

// The "function_call" member of the snippet of [d] (views/json
// DiagnosticFunctionCall), with its leading ",\n"; empty when [d] is not
// about a call (hclsyntax's FunctionCallDiagExtra: describe_values put
// the "while calling" line under it).
std::string function_call_json(const Diagnostic& d) {
  static constexpr std::string_view kWhile = "while calling ";
  for (const std::string& v : d.expression_values) {
    if (!v.starts_with(kWhile)) continue;
    std::string name = v.substr(kWhile.size(), v.find('(') - kWhile.size());
    std::string out =
        ",\n        \"function_call\": {\n          \"called_as\": " + json_string(name);
    // The signature does not depend on where the file functions read.
    static const std::shared_ptr<const FunctionTable> fns =
        detail::terraform_functions(".", true, false);
    if (const Function* f = fns->find(name)) {
      detail::FunctionSignature sig = detail::describe_function(name, *f);
      auto param = [](const detail::FunctionSignature::Param& p) {
        return "{\"name\":" + json_string(p.name) + ",\"type\":" + p.type + "}";
      };
      std::string j = "{\"name\":" + json_string(sig.name) + ",\"params\":[";
      for (size_t i = 0; i < sig.params.size(); ++i) j += (i ? "," : "") + param(sig.params[i]);
      j += "]";
      if (sig.variadic) j += ",\"variadic_param\":" + param(*sig.variadic);
      j += ",\"return_type\":" + sig.return_type + "}";
      out += ",\n          \"signature\": " + indent_json(j, "          ");
    }
    return out + "\n        }";
  }
  return "";
}

}  // namespace

std::string render_validate_json(const Diagnostics& diags, const Sources& sources) {
  size_t errors = 0, warnings = 0;
  for (const Diagnostic& d : diags) (d.severity == Severity::Error ? errors : warnings)++;
  std::string out = "{\n  \"format_version\": \"1.0\",\n  \"valid\": ";
  out += errors ? "false" : "true";
  out += ",\n  \"error_count\": " + std::to_string(errors) +
         ",\n  \"warning_count\": " + std::to_string(warnings) + ",\n  \"diagnostics\": [";
  if (diags.empty()) return out + "]\n}\n";
  auto pos = [](const Pos& p, const char* ind) {
    return std::string("{\n") + ind + "  \"line\": " + std::to_string(p.line) + ",\n" + ind +
           "  \"column\": " + std::to_string(p.column) + ",\n" + ind +
           "  \"byte\": " + std::to_string(p.byte) + "\n" + ind + "}";
  };
  for (size_t i = 0; i < diags.size(); ++i) {
    const Diagnostic& d = diags[i];
    out += i ? ",\n    {\n" : "\n    {\n";
    out += "      \"severity\": \"";
    out += d.severity == Severity::Error ? "error" : "warning";
    out += "\",\n      \"summary\": " + json_string(d.summary) +
           ",\n      \"detail\": " + json_string(d.detail);
    if (d.subject) {
      Range h = *d.subject;
      if (h.end == Pos{}) h.end = h.start;
      if (h.start.byte == h.end.byte) h.end.byte++, h.end.column++;
      out += ",\n      \"range\": {\n        \"filename\": " + json_string(h.filename) +
             ",\n        \"start\": " + pos(h.start, "        ") +
             ",\n        \"end\": " + pos(h.end, "        ") + "\n      }";
      if (std::optional<Snippet> s = make_snippet(*d.subject, d.context, sources)) {
        out += ",\n      \"snippet\": {\n        \"context\": " +
               (s->has_context ? json_string(s->context) : std::string("null")) +
               ",\n        \"code\": " + json_string(s->code) +
               ",\n        \"start_line\": " + std::to_string(s->start_line) +
               ",\n        \"highlight_start_offset\": " + std::to_string(s->hl_start) +
               ",\n        \"highlight_end_offset\": " + std::to_string(s->hl_end) +
               ",\n        \"values\": [";
        bool first = true;
        for (const std::string& v : d.expression_values) {
          if (v.starts_with("while calling ")) continue;
          size_t sp = v.find(' ');
          out += first ? "\n" : ",\n";
          first = false;
          out += "          {\n            \"traversal\": " + json_string(v.substr(0, sp)) +
                 ",\n            \"statement\": " + json_string(v.substr(sp + 1)) +
                 "\n          }";
        }
        out += first ? "]" : "\n        ]";
        out += function_call_json(d) + "\n      }";
      }
    }
    out += "\n    }";
  }
  return out + "\n  ]\n}\n";
}

// --- console rendering ------------------------------------------------------------------

namespace {

// formatMultilineString: [s] as a heredoc at [indent], or nullopt for one line.
std::optional<std::string> multiline(std::string_view s, int indent) {
  std::vector<std::string_view> lines;
  size_t pos = 0;
  while (true) {
    size_t nl = s.find('\n', pos);
    lines.push_back(s.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos));
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  if (lines.size() < 2) return std::nullopt;
  std::string delim = "EOT";
  for (bool again = true; again;) {
    again = false;
    for (std::string_view l : lines) {
      // strings.TrimSpace: Unicode white space.
      std::string_view t = uni::trim_right_space(uni::trim_left_space(l));
      if (t == delim) {
        delim += "_";
        again = true;
        break;
      }
    }
  }
  std::string out = (indent > 0 ? "<<-" : "<<") + delim;
  std::string pad(size_t(indent), ' ');
  for (std::string_view l : lines) out += "\n" + pad + std::string(l);
  return out + "\n" + pad + delim;
}

}  // namespace

namespace {

// Appends terraform console's text of [v] at [indent] to [out]: written in
// one buffer, so a nested value's text is not copied once per level.
void append_console(std::string& out, const Value& v, int indent) {
  if (v.unmark_deep().first.type() == type_constraint_type() && v.is_known() && !v.is_null()) {
    out += console_type(type_constraint_from_val(v.unmark_deep().first));
    return;
  }
  if (!v.is_known()) {
    out += "(known after apply)";
    return;
  }
  const Marks& marks = v.marks();
  if (marks.has(detail::kSensitive)) {
    out += "(sensitive value)";
    return;
  }
  if (marks.has(detail::kEphemeral)) {
    out += "(ephemeral value)";
    return;
  }
  Value p = v.unmark();
  const Type* t = p.type();
  if (p.is_null()) {
    if (t->is_dynamic())
      out += "null";
    else if (t == Type::string())
      out += "tostring(null)";
    else if (t == Type::number())
      out += "tonumber(null)";
    else if (t == Type::boolean())
      out += "tobool(null)";
    else if (t->is_list())
      out += "tolist(null) /* of " + t->element()->friendly_name() + " */";
    else if (t->is_set())
      out += "toset(null) /* of " + t->element()->friendly_name() + " */";
    else if (t->is_map())
      out += "tomap(null) /* of " + t->element()->friendly_name() + " */";
    else
      out += "null /* " + t->friendly_name() + " */";
    return;
  }
  // Indentation counts too: a deep value's text is quadratic in its depth.
  auto newline = [&](int n) {
    util::charge_memory(size_t(n) + 1);
    out += '\n';
    out.append(size_t(n), ' ');
  };
  // An object's or a map's items: [n] of them, the key and value of each
  // from [item].
  auto mapping = [&](size_t n, auto item) {
    out += '{';
    for (size_t i = 0; i < n; ++i) {
      auto [k, e] = item(i);
      newline(indent + 2);
      append_console(out, Value::string(k), indent + 2);
      out += " = ";
      append_console(out, e, indent + 2);
    }
    if (n > 0) newline(indent);
    out += '}';
  };
  auto sequence = [&]() {
    out += '[';
    for (size_t i = 0; i < p.length(); ++i) {
      newline(indent + 2);
      append_console(out, p.element(i), indent + 2);
      out += ',';
    }
    if (p.length() > 0) newline(indent);
    out += ']';
  };
  // The leaves' text (and the indentation, above) counts against the
  // budget of the caller's printing, if any (cli's print_bounded): a value
  // sharing one long string many times over is small in memory and not as
  // text. Numbers check their digits' count themselves (num::append_f).
  switch (t->kind()) {
    case TypeKind::String: {
      util::charge_memory(p.as_string().size());
      if (std::optional<std::string> m = multiline(p.as_string(), indent))
        out += *m;
      else
        out += uni::go_quote(p.as_string());
      return;
    }
    case TypeKind::Number:
      out += num::big_float_text(p.as_number(), 'f', -1);
      return;
    case TypeKind::Bool:
      out += p.as_bool() ? "true" : "false";
      return;
    case TypeKind::Object:
      mapping(t->size(), [&](size_t i) { return std::pair(t->attr_name(i), p.attr(i)); });
      return;
    case TypeKind::Map:
      out += "tomap(";
      mapping(p.length(), [&](size_t i) { return std::pair(p.map_key(i), p.map_value(i)); });
      out += ')';
      return;
    case TypeKind::Tuple:
      sequence();
      return;
    case TypeKind::List:
      out += "tolist(";
      sequence();
      out += ')';
      return;
    case TypeKind::Set:
      out += "toset(";
      sequence();
      out += ')';
      return;
    default:
      out += t->friendly_name();
      return;
  }
}

}  // namespace

std::string console_value(const Value& v, int indent) {
  std::string out;
  append_console(out, v, indent);
  return out;
}

namespace {

void write_type(const Type* t, std::string& b, int indent) {
  auto spaces = [](int n) { return std::string(size_t(n) * 4, ' '); };
  if (t->is_object()) {
    if (t->size() == 0) {
      b += "object({})";
      return;
    }
    b += "object({\n";
    for (size_t i = 0; i < t->size(); ++i) {
      b += spaces(indent + 1) + std::string(t->attr_name(i)) + ": ";
      write_type(t->attr_type(i), b, indent + 1);
      b += ",\n";
    }
    b += spaces(indent) + "})";
  } else if (t->is_tuple()) {
    if (t->size() == 0) {
      b += "tuple([])";
      return;
    }
    b += "tuple([\n";
    for (size_t i = 0; i < t->size(); ++i) {
      b += spaces(indent + 1);
      write_type(t->tuple_element(i), b, indent + 1);
      b += ",\n";
    }
    b += spaces(indent) + "])";
  } else if (t->is_collection()) {
    b += t->is_list() ? "list(" : t->is_map() ? "map(" : "set(";
    const Type* e = t->element();
    bool complex = e->is_object() || e->is_tuple();
    if (complex) b += "\n" + spaces(indent + 1);
    write_type(e, b, complex ? indent + 1 : indent);
    if (complex) b += ",\n" + spaces(indent);
    b += ")";
  } else if (t->is_dynamic()) {
    b += "dynamic";
  } else {
    b += t->friendly_name();
  }
}

}  // namespace

namespace {

// Go's %g of float64 [d] (strconv 'g', shortest digits).
std::string go_g(double d) {
  if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
  if (d == 0) return std::signbit(d) ? "-0" : "0";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  std::string sci(buf, r.ptr);
  size_t e = sci.find('e');
  std::string mant = sci.substr(0, e);
  int exp = std::stoi(sci.substr(e + 1));
  bool neg = mant[0] == '-';
  std::string digits;
  for (char c : mant)
    if (c >= '0' && c <= '9') digits += c;
  int nd = int(digits.size()), dp = exp + 1;
  int eprec = 6;
  if (eprec > nd && nd >= dp) eprec = nd;
  std::string out = neg ? "-" : "";
  if (exp < -4 || exp >= eprec) {
    out += digits.substr(0, 1);
    if (nd > 1) out += "." + digits.substr(1);
    char eb[16];
    std::snprintf(eb, sizeof eb, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    return out + eb;
  }
  if (dp <= 0) return out + "0." + std::string(size_t(-dp), '0') + digits;
  if (dp >= nd) return out + digits + std::string(size_t(dp - nd), '0');
  return out + digits.substr(0, size_t(dp)) + "." + digits.substr(size_t(dp));
}

// Packer's formatResult of [v] (known), nested or not.
std::string packer_format(const Value& v0, bool nested) {
  Value v = v0.unmark_deep().first;
  if (v.is_null()) return "null";
  const Type* t = v.type();
  // What a level writes counts against the budget of the caller's
  // printing, if any (cli's print_bounded): its strings, and the text of
  // the level below that it indents again.
  auto indent = [](const std::string& s) {
    util::charge_memory(s.size());
    std::string out;
    size_t pos = 0;
    bool first = true;
    while (pos < s.size()) {
      size_t nl = s.find('\n', pos);
      std::string line = s.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
      out += (first ? "" : "\n") + std::string("  ") + line;
      first = false;
      if (nl == std::string::npos) break;
      pos = nl + 1;
    }
    return out;
  };
  switch (t->kind()) {
    case TypeKind::String:
      util::charge_memory(v.as_string().size());
      return nested ? uni::go_quote(v.as_string()) : std::string(v.as_string());
    case TypeKind::Bool: return v.as_bool() ? "true" : "false";
    case TypeKind::Number: {
      Number n = v.as_number();
      if (std::optional<int64_t> i = n.to_int64()) return std::to_string(*i);
      return go_g(n.to_double());
    }
    case TypeKind::List:
    case TypeKind::Set:
    case TypeKind::Tuple: {
      std::string out = "[";
      if (v.length() > 0) out += "\n";
      for (size_t i = 0; i < v.length(); ++i) out += indent(packer_format(v.element(i), true)) + ",\n";
      return out + "]";
    }
    case TypeKind::Map:
    case TypeKind::Object: {
      std::vector<std::pair<std::string, Value>> items;
      size_t n = t->is_object() ? t->size() : v.length();
      for (size_t i = 0; i < n; ++i) {
        const Value& e = t->is_object() ? v.attr(i) : v.map_value(i);
        if (e.is_null()) continue;  // ConfigValueFromHCL2 leaves out nulls
        items.emplace_back(std::string(t->is_object() ? t->attr_name(i) : v.map_key(i)), e);
      }
      std::sort(items.begin(), items.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      std::string out = "{";
      if (!items.empty()) out += "\n";
      for (const auto& [k, e] : items)
        out += indent(uni::go_quote(k) + " = " + packer_format(e, true)) + "\n";
      return out + "}";
    }
    default: return "<unknown-type>";
  }
}

}  // namespace

std::string packer_console_value(const Value& v) {
  if (!v.unmark_deep().first.is_wholly_known()) return "<unknown>";
  return packer_format(v, false);
}

std::string console_type(const Type* t) {
  std::string b;
  write_type(t, b, 0);
  return b;
}

}  // namespace hclvm::config
