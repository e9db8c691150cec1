// The random differential suite: tests/golden/random/cases.jsonl.gz holds
// about 20,000 seeded random expressions (operators, conditionals, `for`,
// splats, templates, every function of the go-cty table with edge
// arguments) over the shared variables, with the newest reference's answers
// (gen.py there). Each is parsed, compiled and run with the go-cty table,
// and must give the same value and type (cty's Go syntax where JSON cannot
// hold it), or the same error diagnostics in the same order: summary,
// detail, subject range and bytes, and the variable values the text
// renderer lists. All must agree, but for the expressions that
// tests/golden/random/differences.txt lists with the reason
// (docs/conformance.md explains each).
#include <gtest/gtest.h>

#include <hclvm/eval.h>
#include <hclvm/syntax.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"
#include "value/json.h"
#include "value/ops.h"
#include "value/render.h"

namespace hclvm {
namespace {

namespace fs = std::filesystem;

const fs::path kDir = fs::path(HCLVM_SOURCE_DIR) / "tests/golden/random";

// The string [v], or "" when it is not a known string.
std::string text(const Value* v) {
  if (!v || !v->is_known() || v->is_null() || v->type() != Type::string()) return "";
  return std::string(v->as_string());
}

// [r] as "line:col-line:col" and as "start-end" bytes.
std::string lines_of(const Range& r) {
  return std::to_string(r.start.line) + ":" + std::to_string(r.start.column) + "-" +
         std::to_string(r.end.line) + ":" + std::to_string(r.end.column);
}
std::string bytes_of(const Range& r) {
  return std::to_string(r.start.byte) + "-" + std::to_string(r.end.byte);
}

// What hclvm gave for one expression: the error diagnostics, or the value.
struct Answer {
  std::vector<const Diagnostic*> errors;
  Diagnostics diags;
  Value value;
};

// Whether [a] is the answer [want] of the golden file; else sets [why].
bool agrees(const Answer& a, const Value& want, std::string& why) {
  if (const Value* errs = want.attr("errors")) {
    if (a.errors.size() != errs->length()) {
      why = std::to_string(a.errors.size()) + " errors, want " + std::to_string(errs->length());
      return false;
    }
    for (size_t i = 0; i < a.errors.size(); ++i) {
      const Diagnostic& d = *a.errors[i];
      const Value& w = errs->element(i);
      std::string range = d.subject ? lines_of(*d.subject) : "";
      std::string bytes = d.subject ? bytes_of(*d.subject) : "";
      std::vector<std::string> values;
      if (w.length() > 4)
        for (const Value& s : w.element(4).elements()) values.emplace_back(s.as_string());
      const Value& wr = w.element(2);
      const Value& wb = w.element(3);
      if (d.summary != w.element(0).as_string() || d.detail != w.element(1).as_string() ||
          range != (wr.is_null() ? "" : std::string(wr.as_string())) ||
          bytes != (wb.is_null() ? "" : std::string(wb.as_string())) ||
          d.expression_values != values) {
        why = "error " + std::to_string(i + 1) + ": " + d.summary + ": " + d.detail + " @" + range +
              " (" + bytes + ")";
        for (const std::string& v : d.expression_values) why += " [" + v + "]";
        return false;
      }
    }
    return true;
  }
  if (!a.errors.empty()) {
    why = a.errors[0]->summary + ": " + a.errors[0]->detail;
    return false;
  }
  Value v = a.value.unmark_deep().first;
  JsonResult<std::string> t = type_to_json(v.type());
  JsonResult<Value> type = from_json_simple(t.ok() ? t.value : "null");
  if (!type.ok() || !ops::raw_equal(type.value, *want.attr("type"))) {
    why = "type " + (t.ok() ? t.value : "?");
    return false;
  }
  if (const Value* repr = want.attr("repr")) {
    why = "repr " + go_string(v);
    return go_string(v) == repr->as_string();
  }
  JsonResult<std::string> j = v.is_wholly_known() ? to_json(v, v.type()) : JsonResult<std::string>{};
  JsonResult<Value> got = from_json_simple(j.ok() ? j.value : "\"(not JSON)\"");
  why = "value " + (j.ok() ? j.value : go_string(v));
  return got.ok() && ops::raw_equal(got.value, *want.attr("value"));
}

// The expressions of differences.txt (one a line, a tab, the reason).
std::set<std::string> known_differences() {
  std::set<std::string> out;
  if (!fs::exists(kDir / "differences.txt")) return out;
  std::istringstream in(test::read_file(kDir / "differences.txt"));
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') out.insert(line.substr(0, line.find('\t')));
  return out;
}

TEST(EvalRandomTest, AgreesWithNewestReference) {
  std::map<std::string, EvalContext> contexts;
  for (const char* name : {"bench", "values"}) {
    std::string file = std::string("tests/golden/eval/vars-") + name + ".json";
    contexts.emplace(name, test::context_from_vars(test::read_file(fs::path(HCLVM_SOURCE_DIR) / file)));
  }
  std::set<std::string> known = known_differences();
  std::istringstream in(test::read_gzip_file(kDir / "cases.jsonl.gz"));
  size_t total = 0, agree = 0, values = 0, differ_known = 0;
  std::vector<std::string> report;
  Vm vm;
  for (std::string line; std::getline(in, line);) {
    JsonResult<Value> row = from_json_simple(line);
    ASSERT_TRUE(row.ok()) << line.substr(0, 200);
    std::string expr = text(row.value.attr("e"));
    const Value& want = *row.value.attr("w");
    ++total;
    Answer a;
    try {
      ExprParse p = parse_expression(make_source("<expr>", expr));
      a.diags = p.diagnostics;
      if (!p.has_errors() && p.expr) {
        auto prog = compile_expression(*p.expr, p.source).program;
        EvalResult r = vm.run(*prog, contexts.at(text(row.value.attr("v"))));
        a.diags = std::move(r.diagnostics);
        a.value = std::move(r.value);
      }
    } catch (const std::exception& e) {
      report.push_back(expr + "\n    threw " + e.what());
      continue;
    }
    for (const Diagnostic& d : a.diags)
      if (d.severity == Severity::Error) a.errors.push_back(&d);
    std::string why;
    bool ok = agrees(a, want, why);
    if (!ok)
      if (const Value* alts = row.value.attr("alt"))
        for (const Value& alt : alts->elements()) {
          std::string ignored;
          ok = ok || agrees(a, alt, ignored);
        }
    if (ok) {
      ++agree;
      values += want.attr("errors") ? 0 : 1;
      continue;
    }
    if (known.count(expr)) {
      ++differ_known;
      continue;
    }
    report.push_back(expr + "\n    want: " + line.substr(line.find("\"w\":") + 4, 400) +
                     "\n    got:  " + why);
  }
  std::printf("random cases: %zu/%zu agree (%zu values, %zu errors); %zu listed differences\n", agree,
              total, values, agree - values, differ_known);
  for (size_t i = 0; i < report.size() && i < 25; ++i) std::printf("  %s\n", report[i].c_str());
  if (report.size() > 25) std::printf("  ... and %zu more\n", report.size() - 25);
  if (const char* out = std::getenv("HCLVM_RANDOM_REPORT")) {
    if (FILE* f = std::fopen(out, "w")) {
      for (const std::string& r : report) std::fprintf(f, "%s\n", r.c_str());
      std::fclose(f);
    }
  }
  EXPECT_GT(total, 20000u);
  EXPECT_EQ(report.size(), 0u) << "set HCLVM_RANDOM_REPORT=FILE for the whole list";
}

}  // namespace
}  // namespace hclvm
