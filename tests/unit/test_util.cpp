// Helpers shared by the unit tests.
#include "test_util.h"

#include <gtest/gtest.h>
#include <hclvm/functions.h>
#include <zlib.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "util/unicode.h"
#include "value/json.h"
#include "value/ops.h"
#include "value/render.h"

namespace hclvm::test {

std::string go_unquote(std::string_view q) { return uni::unquote(q); }

std::string go_json_quote(std::string_view s) {
  std::string out;
  uni::JsonQuoting q;
  q.short_bf = false;
  uni::append_json_quoted(out, s, q);
  return out;
}

std::string pos_string(const Pos& p) {
  return std::to_string(p.line) + ":" + std::to_string(p.column) + ":" + std::to_string(p.byte);
}

std::string golden_typed(const Value& v0) {
  Value v = v0.unmark_deep().first;
  JsonResult<std::string> ty = type_to_json(v.type());
  std::string type = ty.ok() ? ty.value : "?";
  if (v.is_wholly_known()) {
    JsonResult<std::string> val = to_json(v, v.type());
    if (val.ok()) return "{\"value\":" + val.value + ",\"type\":" + type + "}";
  }
  return "{\"repr\":" + json_quote(go_string(v)) + ",\"type\":" + type + "}";
}

std::string comparable_line(std::string line) {
  if (line.find("\"Unknown variable\"") != std::string::npos) {
    size_t dym = line.find(" Did you mean ");
    if (dym != std::string::npos) line.erase(dym, line.find("?", dym) + 1 - dym);
  }
  return line;
}

std::string traversal_line(const Traversal& t, std::string (*range)(const Range&)) {
  std::string s;
  for (const TraversalStep& st : t.steps) {
    if (!s.empty()) s += ' ';
    switch (st.kind) {
      case TraversalStep::Kind::Root:
        s += st.name;
        break;
      case TraversalStep::Kind::Attr:
        s += "." + st.name;
        break;
      case TraversalStep::Kind::Index:
        s += "[" + golden_typed(st.key) + "]";
        break;
    }
    s += "@" + range(st.range);
  }
  return s;
}

EvalContext context_from_vars(const std::string& json) {
  EvalContext c;
  c.set_functions(std::make_shared<FunctionTable>(default_functions()));
  JsonResult<const Type*> ty = implied_type(json);
  EXPECT_TRUE(ty.ok());
  if (!ty.ok()) return c;
  JsonResult<Value> v = from_json(json, ty.value);
  EXPECT_TRUE(v.ok());
  if (!v.ok()) return c;
  for (size_t i = 0; i < ty.value->size(); ++i)
    c.set(std::string(ty.value->attr_name(i)), v.value.attr(i));
  return c;
}

EvalOutcome eval_with(const std::shared_ptr<const FunctionTable>& fns, std::string_view src,
                      const std::map<std::string, Value>& vars) {
  ExprParse p = parse_expression(make_source("test.hcl", std::string(src)));
  EXPECT_FALSE(p.has_errors()) << src;
  CompileResult c = compile_expression(*p.expr, p.source);
  EvalContext ctx;
  for (const auto& [k, v] : vars) ctx.set(k, v);
  ctx.set_functions(fns);
  Vm vm;
  EvalResult r = vm.run(*c.program, ctx);
  EvalOutcome o;
  o.value = r.value;
  Diagnostics d = c.diagnostics;
  d.insert(d.end(), r.diagnostics.begin(), r.diagnostics.end());
  if (!d.empty()) {
    o.summary = d[0].summary;
    o.detail = d[0].detail;
  }
  return o;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string read_gzip_file(const std::filesystem::path& path) {
  std::string out;
  gzFile f = gzopen(path.c_str(), "rb");
  EXPECT_NE(f, nullptr) << "cannot read " << path;
  if (f == nullptr) return out;
  char buf[1 << 16];
  for (int n; (n = gzread(f, buf, sizeof buf)) > 0;) out.append(buf, size_t(n));
  int err = 0;
  const char* msg = gzerror(f, &err);
  EXPECT_EQ(err, Z_OK) << path << ": " << msg;
  gzclose(f);
  return out;
}

std::vector<std::string> split_tabs(std::string_view line) {
  std::vector<std::string> fields;
  size_t start = 0;
  for (size_t tab; (tab = line.find('\t', start)) != std::string_view::npos; start = tab + 1)
    fields.emplace_back(line.substr(start, tab - start));
  fields.emplace_back(line.substr(start));
  return fields;
}

std::vector<std::vector<std::string>> read_tsv(const std::filesystem::path& path) {
  std::istringstream in(read_file(path));
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) rows.push_back(split_tabs(line));
  return rows;
}

std::optional<std::filesystem::path> shared_dir() {
  if (const char* env = std::getenv("HCLVM_SHARED_DIR")) {
    if (std::filesystem::is_directory(env)) return std::filesystem::path(env);
    return std::nullopt;
  }
  auto p = std::filesystem::path(HCLVM_SOURCE_DIR).parent_path() / "shared";
  if (std::filesystem::is_directory(p / "corpus")) return p;
  return std::nullopt;
}

std::string range_line(const Range& r) {
  return r.filename + ":" + pos_string(r.start) + "-" + pos_string(r.end);
}

std::string diag_line(const Diagnostic& d) {
  std::string s =
      std::string("{\"severity\":\"") + (d.severity == Severity::Error ? "error" : "warning") +
      "\",\"summary\":" + go_json_quote(d.summary) + ",\"detail\":" + go_json_quote(d.detail);
  if (d.subject) s += ",\"subject\":\"" + range_line(*d.subject) + "\"";
  if (d.context) s += ",\"context\":\"" + range_line(*d.context) + "\"";
  return s + "}";
}

Golden load_golden(const std::filesystem::path& path) {
  std::istringstream in(read_file(path));
  Golden out;
  std::vector<std::string>* cur = nullptr;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("I ", 0) == 0)
      cur = &out[line.substr(2)];
    else if (cur != nullptr)
      cur->push_back(line);
  }
  return out;
}

void expect_golden(const Golden& golden,
                   const std::vector<std::pair<std::string, std::vector<std::string>>>& got) {
  EXPECT_EQ(got.size(), golden.size()) << "regenerate with gen.sh";
  for (const auto& [name, lines] : got) {
    auto it = golden.find(name);
    if (it == golden.end()) {
      ADD_FAILURE() << "no golden output for case " << name;
      continue;
    }
    std::vector<std::string> want = it->second, have = lines;
    for (std::string& l : want) l = comparable_line(l);
    for (std::string& l : have) l = comparable_line(l);
    if (want == have) continue;
    std::string w, g;
    for (const auto& l : want) w += "  " + l + "\n";
    for (const auto& l : have) g += "  " + l + "\n";
    ADD_FAILURE() << "case " << name << "\nreference:\n" << w << "hclvm:\n" << g;
  }
}

namespace {

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::istringstream in{std::string(s)};
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

BodyOp parse_body_op(const std::string& line) {
  BodyOp o;
  size_t depth = 0;
  while (depth < line.size() && line[depth] == '>') ++depth;
  o.depth = int(depth);
  std::vector<std::string> w = words(std::string_view(line).substr(depth));
  size_t i = 0;
  if (depth > 1) o.selector = w[i++];
  o.mode = w[i];
  for (size_t j = i; j < w.size(); ++j) o.text += (j > i ? " " : "") + w[j];
  for (size_t j = i + 1; j < w.size(); ++j) {
    const std::string& x = w[j];
    if (x[0] == '@') {
      BlockHeaderSchema b;
      size_t colon = x.find(':');
      b.type = x.substr(1, colon == std::string::npos ? std::string::npos : colon - 1);
      if (colon != std::string::npos) {
        std::string labels = x.substr(colon + 1);
        for (size_t start = 0;;) {
          size_t comma = labels.find(',', start);
          b.label_names.push_back(labels.substr(start, comma - start));
          if (comma == std::string::npos) break;
          start = comma + 1;
        }
      }
      o.schema.blocks.push_back(b);
    } else if (x.size() > 1 && x.back() == '!') {
      o.schema.attributes.push_back({x.substr(0, x.size() - 1), true});
    } else {
      o.schema.attributes.push_back({x, false});
    }
  }
  return o;
}

}  // namespace

std::vector<BodyCase> load_body_cases(const std::filesystem::path& path) {
  std::istringstream in(read_file(path));
  std::vector<BodyCase> cases;
  std::vector<BodyOp*> stack;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("case ", 0) == 0) {
      std::vector<std::string> w = words(line);
      BodyCase c;
      c.name = w[1];
      c.merge = w.size() > 2 && w[2] == "merge";
      cases.push_back(std::move(c));
      stack.clear();
    } else if (line.rfind("vars ", 0) == 0) {
      cases.back().vars = line.substr(5);
    } else if (line.rfind("file ", 0) == 0) {
      BodyFile f{line.substr(5), ""};
      while (f.name.back() == ' ') f.name.pop_back();
      for (std::string l; std::getline(in, l) && l != "end";) f.bytes += l + "\n";
      cases.back().files.push_back(std::move(f));
    } else if (line.rfind("qfile ", 0) == 0) {
      std::string rest = line.substr(6);
      size_t sp = rest.find(' ');
      cases.back().files.push_back({rest.substr(0, sp), go_unquote(rest.substr(sp + 1))});
    } else if (line[0] == '>') {
      BodyOp o = parse_body_op(line);
      size_t d = size_t(o.depth);
      std::vector<BodyOp>& siblings = d == 1 ? cases.back().ops : stack[d - 2]->children;
      siblings.push_back(std::move(o));
      stack.resize(d - 1);
      stack.push_back(&siblings.back());
    } else {
      ADD_FAILURE() << "bad case line: " << line;
    }
  }
  return cases;
}

namespace {

// Writes what hclvm makes of the operations of a body case in the
// generator's line format (tests/golden/body/oracle/main.go), evaluating
// arguments in a given context.
class BodyPrinter {
 public:
  explicit BodyPrinter(const EvalContext& ctx) : ctx_(ctx) {}

  std::vector<std::string> lines;

  void attribute(const Attribute& a) {
    lines.push_back("A " + go_json_quote(a.name) + " " + range_line(a.range) + " " +
                    range_line(a.name_range));
    lines.push_back("AE " + range_line(a.expr.range()) + " " + range_line(a.expr.start_range()));
    EvalResult lit = a.expr.value(nullptr);
    lines.push_back("AL " + test::golden_typed(lit.value));
    for (const Diagnostic& d : lit.diagnostics) lines.push_back("ALD " + diag_line(d));
    EvalResult full = a.expr.value(&ctx_);
    lines.push_back("AF " + test::golden_typed(full.value));
    for (const Diagnostic& d : full.diagnostics) lines.push_back("AFD " + diag_line(d));
    for (const Traversal& t : a.expr.variables())
      lines.push_back("AX " + traversal_line(t, range_line));
  }

  void attributes(const Attributes& as) {
    std::vector<const Attribute*> sorted;
    for (const Attribute& a : as) sorted.push_back(&a);
    std::sort(sorted.begin(), sorted.end(),
              [](const Attribute* x, const Attribute* y) { return x->name < y->name; });
    for (const Attribute* a : sorted) attribute(*a);
  }

  void sorted(std::vector<std::string> ls) {
    std::sort(ls.begin(), ls.end());
    lines.insert(lines.end(), ls.begin(), ls.end());
  }

  // The diagnostics sorted as the generator sorts them.
  void diags(const Diagnostics& ds) {
    std::vector<std::string> ls;
    for (const Diagnostic& d : ds) ls.push_back("D " + diag_line(d));
    sorted(std::move(ls));
  }

  void run(const BodyOp& o, const Body& b, const std::string& label) {
    lines.push_back("O " + std::string(size_t(o.depth), '>') + " " + label + o.text);
    lines.push_back("BM " + range_line(b.missing_item_range()));
    if (b.is_unknown()) lines.push_back("U");
    std::optional<BodyContent> content;
    std::optional<Body> remain;
    Diagnostics ds;
    if (o.mode == "content") {
      ContentResult r = b.content(o.schema);
      content = std::move(r.content);
      ds = std::move(r.diagnostics);
    } else if (o.mode == "partial") {
      PartialContentResult r = b.partial_content(o.schema);
      content = std::move(r.content);
      remain = std::move(r.remain);
      ds = std::move(r.diagnostics);
    } else {
      AttributesResult r = b.just_attributes();
      attributes(r.attributes);
      ds = std::move(r.diagnostics);
    }
    if (content) {
      attributes(content->attributes);
      for (const Block& blk : content->blocks) {
        std::string labels = "[";
        for (size_t i = 0; i < blk.labels.size(); ++i)
          labels += (i ? "," : "") + go_json_quote(blk.labels[i]);
        labels += "]";
        std::string lr;
        for (size_t i = 0; i < blk.label_ranges.size(); ++i)
          lr += (i ? " " : "") + range_line(blk.label_ranges[i]);
        lines.push_back("B " + go_json_quote(blk.type) + " " + labels + " def " +
                        range_line(blk.def_range) + " type " + range_line(blk.type_range) +
                        " labels [" + lr + "]");
      }
      lines.push_back("M " + range_line(content->missing_item_range));
    }
    if (remain) {
      lines.push_back("RM " + range_line(remain->missing_item_range()));
      if (remain->is_unknown()) lines.push_back("RU");
    }
    diags(ds);
    for (const BodyOp& c : o.children) {
      if (c.selector == "remain") {
        if (remain) run(c, *remain, "remain ");
        continue;
      }
      if (!content) continue;
      int i = 0;
      for (const Block& blk : content->blocks)
        if ("@" + blk.type == c.selector)
          run(c, blk.body, c.selector + "[" + std::to_string(i++) + "] ");
    }
  }

  void walk(const BodyOp& o, const dynblock::WalkNode& n, const std::string& label) {
    lines.push_back("O " + std::string(size_t(o.depth), '>') + " " + label + o.text);
    dynblock::WalkVisit v = n.visit(o.schema);
    std::vector<std::string> ws;
    for (const Traversal& t : v.variables) ws.push_back("W " + traversal_line(t, range_line));
    sorted(std::move(ws));
    for (const dynblock::WalkChild& c : v.children)
      lines.push_back("C " + go_json_quote(c.block_type) + " " +
                      range_line(c.node.body().missing_item_range()));
    for (const BodyOp& co : o.children) {
      int i = 0;
      for (const dynblock::WalkChild& c : v.children)
        if ("@" + c.block_type == co.selector)
          walk(co, c.node, co.selector + "[" + std::to_string(i++) + "] ");
    }
  }

 private:
  const EvalContext& ctx_;
};

}  // namespace

std::vector<std::string> body_case_lines(const BodyCase& c, const EvalContext& ctx, bool dynblock) {
  BodyPrinter p(ctx);
  std::vector<ConfigFile> files;
  for (const BodyFile& f : c.files) {
    files.push_back(parse_body(make_source(f.name, f.bytes)));
    for (const Diagnostic& d : files.back().diagnostics) p.lines.push_back("P " + diag_line(d));
  }
  Body body = files.size() == 1 && !c.merge ? files[0].body : merge_files(files);
  for (const BodyOp& o : c.ops) {
    if (dynblock && o.mode == "walk") {
      p.walk(o, dynblock::walk_variables(body), "");
    } else if (dynblock && o.mode == "walkexpand") {
      p.walk(o, dynblock::walk_expand_variables(body), "");
    } else {
      p.run(o, dynblock ? dynblock::expand(body, &ctx) : body, "");
    }
  }
  return p.lines;
}

std::string repeat(std::string_view s, size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

std::optional<Value> changed_value(const Value& v) {
  if (!v.is_known() || v.is_marked()) return std::nullopt;
  if (v.is_null()) return Value::string("set");
  if (v.type() == Type::string()) return Value::string(std::string(v.as_string()) + "~");
  if (v.type() == Type::number()) {
    ops::Result r = ops::add(v, Value::integer(1));
    if (r.ok()) return r.value;
  }
  if (v.type() == Type::boolean()) return Value::boolean(!v.as_bool());
  return Value::null(v.type());
}

}  // namespace hclvm::test
