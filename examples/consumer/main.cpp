// Evaluates an HCL expression against variables given as JSON, and prints
// the result as JSON:
//
//   consumer 'upper(name)' '{"name": "web"}'     # prints "WEB"
//
// Parse, compile once, run with a Vm under limits: the whole C++ API a
// host needs for expressions.
#include <hclvm/eval.h>
#include <hclvm/function.h>
#include <hclvm/functions.h>
#include <hclvm/limits.h>
#include <hclvm/syntax.h>
#include <hclvm/value_json.h>

#include <iostream>
#include <memory>

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: consumer EXPRESSION [VARIABLES-JSON]\n";
    return 2;
  }

  hclvm::ExprParse parsed = hclvm::parse_expression(hclvm::make_source("<expr>", argv[1]));
  if (parsed.has_errors()) {
    for (const hclvm::Diagnostic& d : parsed.diagnostics) std::cerr << d.summary << "\n";
    return 1;
  }
  hclvm::CompileResult compiled = hclvm::compile_expression(*parsed.expr, parsed.source);

  hclvm::EvalContext ctx;
  ctx.set_functions(std::make_shared<hclvm::FunctionTable>(hclvm::standard_functions()));
  if (argc == 3) {
    if (std::string err = hclvm::set_variables_from_json(ctx, argv[2]); !err.empty()) {
      std::cerr << "variables: " << err << "\n";
      return 2;
    }
  }

  hclvm::Limits limits;
  limits.max_steps = 100'000;
  hclvm::Vm vm(limits);
  hclvm::EvalResult r = vm.run(*compiled.program, ctx);
  if (r.has_errors()) {
    for (const hclvm::Diagnostic& d : r.diagnostics)
      std::cerr << d.summary << ": " << d.detail << "\n";
    return 1;
  }
  hclvm::JsonText out = hclvm::value_to_json(r.value);
  if (!out.ok()) {
    std::cerr << out.error << "\n";
    return 1;
  }
  std::cout << out.json << "\n";
  return 0;
}
