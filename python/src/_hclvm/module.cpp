// hclvm._hclvm: the extension module under the Python package hclvm.
// A thin layer over the C++ API (docs/api.md): Python values converted at
// the edge (values.cpp), the GIL released around everything that parses,
// compiles, evaluates, formats or converts, and HCL's errors raised as
// hclvm.HCLError with the diagnostics and the text the CLI prints. Python
// functions called from expressions take the GIL back while they run.
// Each thread evaluates on its own hclvm::Vm (eval.h: one per thread).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <hclvm/analysis.h>
#include <hclvm/config.h>
#include <hclvm/config_layout.h>
#include <hclvm/convert.h>
#include <hclvm/eval.h>
#include <hclvm/format.h>
#include <hclvm/functions.h>
#include <hclvm/render.h>
#include <hclvm/syntax.h>

#include <memory>
#include <optional>
#include <string>

#include "values.h"

namespace hclvm_py {
namespace {

using hclvm::Diagnostics;
using hclvm::Value;

constexpr unsigned kWidth = 80;  // the CLI's width when not on a terminal

// Throws HclError when [diags] has errors, rendered with snippets of [src].
void check(const Diagnostics& diags, const hclvm::Source* src) {
  if (hclvm::has_errors(diags))
    throw HclError(hclvm::diagnostics_text(diags, src, {.width = kWidth}), diags);
}

// The evaluating thread's Vm.
hclvm::Vm& thread_vm() {
  thread_local hclvm::Vm vm;
  return vm;
}

// Terraform's function library without the filesystem functions (no base
// directory), shared by every evaluation that adds no functions.
const std::shared_ptr<const hclvm::FunctionTable>& standard_table() {
  static const auto table =
      std::make_shared<const hclvm::FunctionTable>(hclvm::standard_functions());
  return table;
}

// Returns the Python callable [fn] as an HCL function of any arguments
// and any result. The callable is released with the GIL held whatever
// thread drops the last table holding it.
std::shared_ptr<const hclvm::Function> python_function(const std::string& name, py::object fn) {
  std::shared_ptr<py::object> holder(new py::object(std::move(fn)), [](py::object* o) {
    py::gil_scoped_acquire gil;
    delete o;
  });
  auto f = std::make_shared<hclvm::Function>();
  f->description = "The Python function " + name + ".";
  f->var_param = hclvm::Param{.name = "args", .type = hclvm::Type::dynamic(), .allow_null = true,
                              .allow_dynamic_type = true};
  f->type = hclvm::Function::static_return(hclvm::Type::dynamic());
  f->impl = [holder](std::span<const Value> args, const hclvm::Type*) -> hclvm::FuncResult {
    py::gil_scoped_acquire gil;
    try {
      py::tuple a(args.size());
      for (size_t i = 0; i < args.size(); ++i) a[i] = to_python(args[i]);
      return hclvm::FuncResult::of(from_python((*holder)(*a)));
    } catch (py::error_already_set& e) {
      // "ValueError: message", without the traceback what() would add.
      std::string type = py::str(e.type().attr("__name__"));
      return hclvm::FuncResult::fail(type + ": " + std::string(py::str(e.value())));
    }
  };
  return f;
}

// An evaluation context built from Python: variables and functions.
struct Context {
  hclvm::EvalContext ctx;

  // Fills the context from the dict [variables] and the dict of callables
  // [functions] (added to Terraform's library; None: the library alone).
  Context(const py::object& variables, const py::object& functions) {
    if (!variables.is_none())
      for (auto [k, v] : variables.cast<py::dict>()) ctx.set(k.cast<std::string>(), from_python(v));
    if (functions.is_none()) {
      ctx.set_functions(standard_table());
      return;
    }
    auto table = std::make_shared<hclvm::FunctionTable>(*standard_table());
    for (auto [k, f] : functions.cast<py::dict>()) {
      std::string name = k.cast<std::string>();
      if (!PyCallable_Check(f.ptr())) throw py::type_error("function " + name + " is not callable");
      table->add(name, python_function(name, py::reinterpret_borrow<py::object>(f)));
    }
    ctx.set_functions(std::move(table));
  }
};

// A compiled expression or template.
struct Expression {
  std::string text;
  hclvm::ExprParse parse;  // keeps the tree for variables()
  std::shared_ptr<const hclvm::Program> program;
  Diagnostics compile_diagnostics;

  // Parses and compiles [text] named [filename] (a template when [tmpl]).
  Expression(std::string t, std::string filename, bool tmpl) : text(std::move(t)) {
    {
      py::gil_scoped_release nogil;
      auto src = hclvm::make_source(std::move(filename), text);
      parse = tmpl ? hclvm::parse_template(src) : hclvm::parse_expression(src);
      if (!parse.has_errors() && parse.expr) {
        hclvm::CompileResult c = hclvm::compile_expression(*parse.expr, parse.source);
        program = std::move(c.program);
        compile_diagnostics = std::move(c.diagnostics);
      }
    }
    check(parse.diagnostics, parse.source.get());
    if (!program) throw HclError("the expression did not compile", parse.diagnostics);
  }

  // Runs the program against [ctx]; the result or HCLError.
  py::object run(const hclvm::EvalContext& ctx, bool unmark) const {
    hclvm::EvalResult r;
    {
      py::gil_scoped_release nogil;
      r = thread_vm().run(*program, ctx);
      if (!compile_diagnostics.empty())
        r.diagnostics.insert(r.diagnostics.begin(), compile_diagnostics.begin(), compile_diagnostics.end());
      if (r.has_errors()) {
        std::string message = hclvm::diagnostics_text(r.diagnostics, parse.source.get(), {.width = kWidth});
        throw HclError(std::move(message), std::move(r.diagnostics));
      }
    }
    return to_python(r.value, unmark);
  }

  py::object evaluate(const py::object& variables, const py::object& functions, bool unmark) const {
    if (py::isinstance<Context>(variables)) {
      if (!functions.is_none()) throw py::type_error("functions come with the Context");
      return run(variables.cast<const Context&>().ctx, unmark);
    }
    Context c(variables, functions);
    return run(c.ctx, unmark);
  }

  // The traversals the expression reads, as (text, root, range) tuples.
  py::list variables() const {
    py::list out;
    for (const hclvm::Traversal& t : hclvm::variables(*parse.expr, *parse.source)) {
      hclvm::Diagnostic d;  // only to reuse the Range conversion
      d.subject = t.range();
      py::list r = diagnostics_to_python({d});
      out.append(py::make_tuple(t.to_string(), std::string(t.root_name()), r[0].attr("subject")));
    }
    return out;
  }
};

// The syntax tree of [text] as the JSON of docs/ast-json.md.
std::string ast_json(std::string text, std::string filename, const std::string& kind) {
  std::string out;
  Diagnostics diags;
  std::shared_ptr<const hclvm::Source> src;
  {
    py::gil_scoped_release nogil;
    src = hclvm::make_source(std::move(filename), std::move(text));
    if (kind == "config") {
      hclvm::FileParse p = hclvm::parse_config(src);
      diags = std::move(p.diagnostics);
      if (!hclvm::has_errors(diags)) out = hclvm::convert::ast_body_json(*p.body, *src);
    } else {
      hclvm::ExprParse p = kind == "template" ? hclvm::parse_template(src) : hclvm::parse_expression(src);
      diags = std::move(p.diagnostics);
      if (!hclvm::has_errors(diags)) out = hclvm::convert::ast_expr_json(*p.expr, *src);
    }
  }
  check(diags, src.get());
  return out;
}

// [text] as a JSON document of [shape] ("hcl2json" or "jsonsyntax").
std::string to_json(std::string text, std::string filename, const std::string& shape,
                    bool preserve_order, bool comments) {
  hclvm::convert::JsonOptions o;
  if (shape == "hcl2json") o.shape = hclvm::convert::Shape::Hcl2Json;
  else if (shape != "jsonsyntax") throw py::value_error("shape must be \"hcl2json\" or \"jsonsyntax\"");
  o.preserve_order = preserve_order;
  o.comments = comments;
  hclvm::convert::Result r;
  {
    py::gil_scoped_release nogil;
    r = hclvm::convert::native_to_json(std::move(filename), std::move(text), o);
  }
  check(r.diagnostics, r.source.get());
  if (!r.error.empty()) throw HclError(r.error, {});
  return std::move(r.text);
}

// The JSON-syntax file [text] in the native syntax, with the blocks of
// [layout] ("terraform", "packer", "none"; "": the one [filename] implies).
std::string to_hcl(std::string text, std::string filename, const std::string& layout) {
  hclvm::convert::BodyLayout l = layout == "terraform" ? hclvm::config::terraform_layout()
                                 : layout == "packer"  ? hclvm::config::packer_layout()
                                 : layout == "none"    ? hclvm::convert::BodyLayout{}
                                 : layout.empty()      ? hclvm::config::layout_for_file(filename)
                                                       : throw py::value_error(
                                                             "layout must be \"terraform\", \"packer\" or \"none\"");
  hclvm::convert::Result r;
  {
    py::gil_scoped_release nogil;
    r = hclvm::convert::json_to_native(std::move(filename), std::move(text), l);
  }
  check(r.diagnostics, r.source.get());
  if (!r.error.empty()) throw HclError(r.error, {});
  return std::move(r.text);
}

// The attributes and blocks of [body] of [src] in source order: ("a",
// name, keyword) for an attribute (keyword: the bare name its expression
// is, as hcl.ExprAsKeyword reads it, or ""), ("b", type, labels, first line, last line,
// items of its body) for a block. loads() lays python-hcl2's document out
// from it.
py::list skeleton(const hclvm::ast::Body& body, const hclvm::Source& src) {
  py::list out;
  uint32_t a = 0, b = 0;
  while (a < body.attributes.size || b < body.blocks.size) {
    if (b == body.blocks.size ||
        (a < body.attributes.size && body.attributes[a]->span.begin < body.blocks[b]->span.begin)) {
      const hclvm::ast::Attribute& attr = *body.attributes[a++];
      std::string_view kw = hclvm::expr_as_keyword(*attr.expr);
      out.append(py::make_tuple("a", py::str(attr.name.data(), attr.name.size()),
                                py::str(kw.data(), kw.size())));
      continue;
    }
    const hclvm::ast::Block& blk = *body.blocks[b++];
    py::list labels;
    for (std::string_view l : blk.labels) labels.append(py::str(l.data(), l.size()));
    hclvm::Range r = src.range(blk.span);
    out.append(py::make_tuple("b", py::str(blk.type.data(), blk.type.size()), labels, r.start.line,
                              r.end.line, skeleton(*blk.body, src)));
  }
  return out;
}

// [text] as the hcl2json document (keys in source order) and the skeleton
// of its body, from one parse.
py::tuple hcl2json_with_skeleton(std::string text, std::string filename) {
  hclvm::FileParse p;
  hclvm::convert::Result r;
  {
    py::gil_scoped_release nogil;
    p = hclvm::parse_config(hclvm::make_source(std::move(filename), std::move(text)));
    if (!p.has_errors()) {
      hclvm::convert::JsonOptions o;
      o.shape = hclvm::convert::Shape::Hcl2Json;
      o.preserve_order = true;
      r = hclvm::convert::body_to_json(*p.body, *p.source, o);
    }
  }
  check(p.diagnostics, p.source.get());
  if (!r.error.empty()) throw HclError(r.error, {});
  return py::make_tuple(std::move(r.text), skeleton(*p.body, *p.source));
}

// [text] formatted as hclfmt ("hcl") or terraform fmt ("terraform") does.
std::string format(std::string text, std::string filename, const std::string& style) {
  hclvm::format::Style s = style == "terraform" ? hclvm::format::Style::Terraform
                           : style == "hcl"     ? hclvm::format::Style::Hcl
                                                : throw py::value_error("style must be \"hcl\" or \"terraform\"");
  hclvm::format::Result r;
  {
    py::gil_scoped_release nogil;
    r = hclvm::format::format_file(hclvm::make_source(std::move(filename), std::move(text)), s);
  }
  check(r.diagnostics, r.source.get());
  return std::move(r.text);
}

// The result of evaluating a module, and what renders its diagnostics.
struct Evaluation {
  hclvm::config::ModulePtr module;
  hclvm::config::Sources sources;
  hclvm::config::Evaluation eval;

  // Returns [named] values as a dict.
  static py::dict dict_of(const std::vector<std::pair<std::string, Value>>& named, bool unmark) {
    py::dict out;
    for (const auto& [k, v] : named) out[py::str(k)] = to_python(v, unmark);
    return out;
  }

  // Evaluates [expr] in the root module's scope, as terraform console does.
  py::object eval_expr(std::string expr, bool unmark) const {
    hclvm::EvalResult r;
    {
      py::gil_scoped_release nogil;
      r = eval.eval(expr);
      if (r.has_errors()) {
        std::string text = hclvm::config::render_diagnostics(r.diagnostics, sources);
        throw HclError(std::move(text), std::move(r.diagnostics));
      }
    }
    return to_python(r.value, unmark);
  }
};

// A loaded module directory.
struct Module {
  std::string path;
  hclvm::config::ModulePtr module;
  hclvm::config::Sources sources;
  Diagnostics diagnostics;  // warnings of loading

  explicit Module(std::string p) : path(std::move(p)) {
    hclvm::config::LoadResult r;
    {
      py::gil_scoped_release nogil;
      r = hclvm::config::load_module(path);
      if (r.has_errors()) {
        std::string text = hclvm::config::render_diagnostics(r.diagnostics, r.sources);
        throw HclError(std::move(text), std::move(r.diagnostics));
      }
    }
    module = std::move(r.module);
    sources = std::move(r.sources);
    diagnostics = std::move(r.diagnostics);
  }

  std::unique_ptr<Evaluation> evaluate(const py::object& variables,
                                       const std::vector<std::string>& var_files,
                                       const std::string& workspace, const py::object& env,
                                       const py::object& resources, bool check_errors,
                                       const Evaluation* previous) const {
    if (previous != nullptr && previous->eval.module() != module)
      throw py::value_error("previous is an evaluation of another module");
    hclvm::config::Inputs in;
    if (!variables.is_none())
      for (auto [k, v] : variables.cast<py::dict>()) in.values[k.cast<std::string>()] = from_python(v);
    if (!resources.is_none())
      for (auto [k, v] : resources.cast<py::dict>()) in.resources[k.cast<std::string>()] = from_python(v);
    if (!env.is_none())
      for (auto [k, v] : env.cast<py::dict>()) in.env.push_back(k.cast<std::string>() + "=" + v.cast<std::string>());
    for (const std::string& f : var_files) in.args.push_back({hclvm::config::VarArg::VarFile, f});
    in.workspace = workspace;
    in.vars_dir = path;
    auto e = std::make_unique<Evaluation>();
    e->module = module;
    e->sources = sources;
    {
      py::gil_scoped_release nogil;
      e->eval = previous ? hclvm::config::reevaluate(previous->eval, in)
                         : hclvm::config::evaluate(module, in);
      e->sources.merge(e->eval.sources());
      if (check_errors && e->eval.has_errors())
        throw HclError(hclvm::config::render_diagnostics(e->eval.diagnostics(), e->sources),
                       e->eval.diagnostics());
    }
    return e;
  }
};

}  // namespace
}  // namespace hclvm_py

using namespace hclvm_py;
namespace py = pybind11;
using namespace pybind11::literals;

PYBIND11_MODULE(_hclvm, m) {
  m.doc() = "The compiled part of hclvm (use the package hclvm).";
  m.attr("__version__") = HCLVM_VERSION;
  // The Python classes the converters use, looked up now, while importing
  // holds the import lock: a first look-up later could release the GIL
  // (inside import) while another thread waits on the static's guard.
  classes();
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const HclError& e) {
      raise_hcl_error(e);
    }
  });

  py::class_<Context>(m, "Context", "Variables and functions for evaluations, built once.")
      .def(py::init<const py::object&, const py::object&>(), "variables"_a = py::none(),
           "functions"_a = py::none());

  py::class_<Expression>(m, "Expression", "An HCL expression parsed and compiled once.")
      .def(py::init<std::string, std::string, bool>(), "text"_a, "filename"_a = "<expr>",
           "template"_a = false)
      .def("evaluate", &Expression::evaluate, "variables"_a = py::none(), "functions"_a = py::none(),
           py::kw_only(), "unmark"_a = false)
      .def("_variables", &Expression::variables)
      .def_readonly("text", &Expression::text);

  py::class_<Evaluation>(m, "Evaluation", "What evaluating a module gave.")
      .def("_variables", [](const Evaluation& e, bool u) { return Evaluation::dict_of(e.eval.variables(), u); })
      .def("_locals", [](const Evaluation& e, bool u) { return Evaluation::dict_of(e.eval.locals(), u); })
      .def("_outputs", [](const Evaluation& e, bool u) { return Evaluation::dict_of(e.eval.outputs(), u); })
      .def("_instances",
           [](const Evaluation& e, bool u) {
             py::list out;
             for (const hclvm::config::Instance& i : e.eval.instances())
               out.append(py::make_tuple(i.address, i.kind, to_python(i.value, u)));
             return out;
           })
      .def_property_readonly("diagnostics",
                             [](const Evaluation& e) { return diagnostics_to_python(e.eval.diagnostics()); })
      .def_property_readonly("stopped", [](const Evaluation& e) { return e.eval.stopped(); })
      .def("eval", &Evaluation::eval_expr, "expr"_a, py::kw_only(), "unmark"_a = false)
      .def("to_json", [](const Evaluation& e) {
        py::gil_scoped_release nogil;
        return e.eval.to_json();
      });

  py::class_<Module>(m, "Module", "A Terraform or Packer module directory, loaded once.")
      .def(py::init<std::string>(), "path"_a)
      .def("evaluate", &Module::evaluate, "variables"_a, "var_files"_a, "workspace"_a, "env"_a,
           "resources"_a, "check"_a, "previous"_a = nullptr)
      .def_readonly("path", &Module::path)
      .def_property_readonly(
          "diagnostics", [](const Module& mod) { return diagnostics_to_python(mod.diagnostics); })
      .def_property_readonly("language",
                             [](const Module& mod) {
                               return mod.module->language() == hclvm::config::Language::Packer ? "packer"
                                                                                                : "terraform";
                             })
      .def_property_readonly("variable_names",
                             [](const Module& mod) { return mod.module->variable_names(); })
      .def_property_readonly("local_names",
                             [](const Module& mod) { return mod.module->local_names(); })
      .def_property_readonly("output_names",
                             [](const Module& mod) { return mod.module->output_names(); })
      .def_property_readonly("resource_addresses",
                             [](const Module& mod) { return mod.module->resource_addresses(); });

  m.def("ast_json", &ast_json, "text"_a, "filename"_a, "kind"_a);
  m.def("to_json", &to_json, "text"_a, "filename"_a, "shape"_a, "preserve_order"_a, "comments"_a);
  m.def("to_hcl", &to_hcl, "text"_a, "filename"_a, "layout"_a);
  m.def("hcl2json_with_skeleton", &hcl2json_with_skeleton, "text"_a, "filename"_a);
  m.def("format", &format, "text"_a, "filename"_a, "style"_a);
  m.def("type_of", [](const py::object& o) { return type_text(from_python(o).type()); }, "value"_a);
}
