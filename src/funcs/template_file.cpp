// templatefile, as Terraform's funcs/filesystem.go defines it: reads a file
// under the base directory as file() does, parses it as a template named
// by the path argument, and renders it with the variables of the second
// argument only, and the standard library (standard_functions with the
// same options) for functions: what an embedder adds to its own table is
// not seen inside templates, as Terraform's templates see only its table.
//
// Recursion: as in Terraform, a template cannot call templatefile or
// templatestring (nor their core:: names when a table has them); those
// entries are replaced by stubs that fail with "cannot recursively call
// ... from inside another template function", so nesting stops at one
// level.
//
// Each distinct (path, contents) is parsed and compiled once and kept in a
// cache the function shares between threads; the file is read at every
// call, so an edited file gets a new entry. Terraform renders twice, once
// in its type function and once in the implementation; here the type
// function renders and leaves the value for the implementation that cty's
// calling convention runs right after it on the same thread (as the
// user-defined functions do).
#include <algorithm>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "funcs/funcs.h"
#include "hclvm/analysis.h"
#include "hclvm/eval.h"
#include "hclvm/syntax.h"
#include "hclvm/functions.h"
#include "value/ops.h"

namespace hclvm::funcs {

namespace {

// The cache holds at most this many templates; when full it starts over.
constexpr size_t kCacheLimit = 256;

// A parsed and compiled template.
struct Compiled {
  ExprParse parse;  // owns the tree the program and the traversals refer to
  std::shared_ptr<const Program> program;
  Diagnostics compile_diags;  // reported with the evaluation's, as Expression does
  std::vector<Traversal> variables;
};

// What one thread keeps while rendering: a Vm per nesting depth, and the
// value the last type function rendered for the implementation.
struct ThreadState {
  std::vector<std::unique_ptr<Vm>> vms;
  size_t depth = 0;
  const void* owner = nullptr;
  Value path, vars, value;
};

thread_local ThreadState t_state;

class TemplateFile {
 public:
  TemplateFile(LibraryOptions opts, std::shared_ptr<const Sandbox> sb)
      : opts_(std::move(opts)), sb_(std::move(sb)) {}

  TypeResult type(std::span<const Value> args) {
    forget();
    if (!args[0].is_known() || !args[1].is_known()) return type_ok(Type::dynamic());
    FuncResult r = render(args[0], args[1]);
    if (!r.ok()) return {nullptr, std::move(r.error)};
    const Type* t = r.value.type();
    ThreadState& ts = t_state;
    ts.owner = this;
    ts.path = args[0];
    ts.vars = args[1];
    ts.value = std::move(r.value);
    return type_ok(t);
  }

  FuncResult impl(std::span<const Value> args) {
    ThreadState& ts = t_state;
    if (ts.owner == this && ops::raw_equal(ts.path, args[0]) && ops::raw_equal(ts.vars, args[1])) {
      Value v = std::move(ts.value);
      forget();
      return FuncResult::of(std::move(v));
    }
    return render(args[0], args[1]);
  }

 private:
  static void forget() {
    ThreadState& ts = t_state;
    ts.owner = nullptr;
    ts.path = ts.vars = ts.value = Value();
  }

  FuncResult render(const Value& path, const Value& vars) {
    // Terraform reads the template with file() itself: same path rules,
    // same errors, and the result carries the path's marks.
    FuncResult contents = file_contents(*sb_, path);
    if (!contents.ok()) return contents;
    auto [text, marks] = contents.value.unmark_with_marks();
    std::string name(path.unmark().as_string());
    std::shared_ptr<const Compiled> c = compile(name, std::string(text.as_string()));
    if (c->parse.has_errors()) return FuncResult::fail(diagnostics_error(c->parse.diagnostics));

    const Type* vt = vars.type();
    if (!vt->is_map() && !vt->is_object()) {
      return arg_error("invalid vars value: must be a map", 1);
    }
    EvalContext ctx;
    std::vector<std::string_view> names;
    ctx.reserve(vt->is_object() ? vt->size() : vars.length());
    names.reserve(vt->is_object() ? vt->size() : vars.length());
    if (vt->is_object()) {
      for (size_t i = 0; i < vt->size(); ++i) {
        names.push_back(vt->attr_name(i));
        ctx.set(std::string(vt->attr_name(i)), vars.attr(i));
      }
    } else {
      for (size_t i = 0; i < vars.length(); ++i) {
        names.push_back(vars.map_key(i));
        ctx.set(std::string(vars.map_key(i)), vars.map_value(i));
      }
    }
    // Terraform checks the names in Go's map order; sorted, the first
    // invalid one is always the one reported.
    std::sort(names.begin(), names.end());
    for (std::string_view n : names) {
      if (!valid_identifier(n)) {
        return arg_error("invalid template variable name " + quote(n) +
                             ": must start with a letter, followed by zero or more letters, "
                             "digits, and underscores",
                         1);
      }
    }
    for (const Traversal& t : c->variables) {
      std::string_view root = t.root_name();
      if (ctx.lookup(root) == nullptr) {
        return arg_error("vars map does not contain key " + quote(root) + ", referenced at " +
                             range_string(t.steps[0].range),
                         1);
      }
    }
    ctx.set_functions(functions());

    ThreadState& ts = t_state;
    if (ts.vms.size() <= ts.depth) ts.vms.push_back(std::make_unique<Vm>());
    Vm& vm = *ts.vms[ts.depth];
    struct Nest {
      ThreadState& ts;
      explicit Nest(ThreadState& s) : ts(s) { ++ts.depth; }
      ~Nest() { --ts.depth; }
    } nest(ts);
    EvalResult r = vm.run(*c->program, ctx);
    if (!c->compile_diags.empty())
      r.diagnostics.insert(r.diagnostics.begin(), c->compile_diags.begin(), c->compile_diags.end());
    if (r.has_errors()) return FuncResult::fail(diagnostics_error(r.diagnostics));
    return FuncResult::of(marks.empty() ? std::move(r.value) : r.value.mark(marks));
  }

  // The template [text] of file [name], parsed and compiled (once).
  std::shared_ptr<const Compiled> compile(const std::string& name, const std::string& text) {
    std::string key = name;
    key += '\0';
    key += text;
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = cache_.find(key);
      if (it != cache_.end()) return it->second;
    }
    auto c = std::make_shared<Compiled>();
    c->parse = parse_template(make_source(name, text));
    if (!c->parse.has_errors() && c->parse.expr != nullptr) {
      CompileResult cr = compile_expression(*c->parse.expr, c->parse.source);
      c->program = std::move(cr.program);
      c->compile_diags = std::move(cr.diagnostics);
      c->variables = hclvm::variables(*c->parse.expr, *c->parse.source);
    }
    std::lock_guard<std::mutex> lock(mu_);
    if (cache_.size() >= kCacheLimit) cache_.clear();
    auto [it, inserted] = cache_.emplace(std::move(key), std::move(c));
    return it->second;
  }

  // The functions templates see: the standard library with the template
  // functions stubbed out.
  std::shared_ptr<const FunctionTable> functions() {
    std::call_once(fns_once_, [this] {
      FunctionTable t = standard_functions(opts_);
      for (std::string_view name :
           {"templatefile", "templatestring", "core::templatefile", "core::templatestring"}) {
        const Function* f = t.find(name);
        if (f == nullptr) continue;
        std::string plain(name.substr(name.starts_with("core::") ? 6 : 0));
        Function stub;
        stub.description = f->description;
        stub.params = f->params;
        stub.var_param = f->var_param;
        std::string message =
            "cannot recursively call " + plain + " from inside another template function";
        stub.type = [message](std::span<const Value>) { return type_error(message); };
        add(t, std::string(name), std::move(stub));
      }
      fns_ = std::make_shared<const FunctionTable>(std::move(t));
    });
    return fns_;
  }

  const LibraryOptions opts_;
  const std::shared_ptr<const Sandbox> sb_;  // the table's file functions' own
  std::mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<const Compiled>> cache_;
  std::once_flag fns_once_;
  std::shared_ptr<const FunctionTable> fns_;
};

}  // namespace

Function templatefile_fn(const LibraryOptions& opts, std::shared_ptr<const Sandbox> sb) {
  auto state = std::make_shared<TemplateFile>(opts, std::move(sb));
  Function f;
  f.description =
      "Reads a file and renders its contents as a template with the given variables (and no "
      "others).";
  f.params = {param("path", Type::string(), kMarked), param("vars", Type::dynamic())};
  f.type = [state](std::span<const Value> args) { return state->type(args); };
  f.impl = [state](std::span<const Value> args, const Type*) { return state->impl(args); };
  return f;
}

}  // namespace hclvm::funcs
