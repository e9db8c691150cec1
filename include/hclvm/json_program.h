// JSON values of the JSON syntax (hclvm/json_syntax.h) compiled and
// evaluated as the reference's json expressions are: in full expression
// mode every string is a template, in literal-only mode strings are taken
// as they are.
//
//   hclvm::JsonParse p = hclvm::parse_json_config(src);      // or parse_json_expression
//   auto c = hclvm::compile_json_expression(*p.root, p.source);
//   hclvm::Vm vm;
//   hclvm::EvalResult full = hclvm::run_json(vm, *c.program, &ctx);   // strings are templates
//   hclvm::EvalResult lit = hclvm::run_json(vm, *c.program, nullptr); // strings are literal
#pragma once

#include <hclvm/diagnostic.h>
#include <hclvm/eval.h>
#include <hclvm/json_syntax.h>
#include <hclvm/syntax.h>

#include <memory>

namespace hclvm {

// A JSON value compiled for evaluation: immutable, shareable between
// threads. The templates inside its strings are compiled to bytecode once.
class JsonProgram;

struct JsonCompileResult {
  std::shared_ptr<const JsonProgram> program;
  // What compiling reported: templates nested too deeply for the compiler
  // (their runs then give DynamicVal), or the whole value nested so.
  Diagnostics diagnostics;
};

// Compiles the JSON value [node] of the document [source] (whose name the
// diagnostics carry). The program does not refer to the tree afterwards.
JsonCompileResult compile_json_expression(const json::Node& node,
                                          std::shared_ptr<const Source> source);

// Evaluates [program] as the reference's json expression Value(ctx) does:
// with [ctx] (full expression mode) every string, property names included,
// is a template; with [ctx] null (literal-only mode) strings are taken as
// they are. Objects are objects, arrays tuples, null is a null of the
// dynamic pseudo-type.
EvalResult run_json(Vm& vm, const JsonProgram& program, const EvalContext* ctx);

}  // namespace hclvm
