// Tests of Terraform's function table (standard_functions()): the functions
// Terraform adds to go-cty's and its versions of go-cty's, evaluated through
// the VM. Each case is an expression and what the reference gives for it,
// written as "<JSON> <type JSON>[ marks=...]", "unknown <type JSON>" or
// "!! <summary> | <detail>" (the first diagnostic). The expectations come
// from Terraform's implementation (internal/lang/funcs, run against the
// reference with go-cty's stdlib beside it), Terraform's own tests and its
// documentation; where the newest go-cty words an error differently from
// the one that run used, the newest wording is expected.
#include <gtest/gtest.h>

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "funcs/funcs.h"
#include "hclvm/eval.h"
#include "hclvm/function.h"
#include "hclvm/functions.h"
#include "hclvm/syntax.h"
#include "value/json.h"
#include "value/ops.h"
#include "value/refine.h"

namespace hclvm {
namespace {

// The variables every case may read: unknowns of several types, marked
// values and a template.
EvalContext make_context(std::shared_ptr<const FunctionTable> fns) {
  EvalContext c;
  c.set("us", Value::unknown(Type::string()));
  c.set("un", Value::unknown(Type::number()));
  c.set("ub", Value::unknown(Type::boolean()));
  c.set("ul", Value::unknown(Type::list(Type::string())));
  c.set("dyn", Value::dynamic());
  c.set("sec", Value::string("secret").mark("sensitive"));
  c.set("secn", Value::integer(5).mark("sensitive"));
  c.set("sl",
        Value::list(Type::string(), {Value::string("a").mark("sensitive"), Value::string("b")}));
  c.set("tmpl", Value::string("Hello, ${name}!"));
  c.set("ns", Value::null(Type::string()));
  c.set("pinf", Value::number(Number::infinity(false)));
  c.set("ninf", Value::number(Number::infinity(true)));
  c.set("rec", Value::string("${templatestring(t, {})}"));
  // Templates for templatestring, which takes only a reference to one.
  c.set("tpl", Value::object({
                   {"tuple", Value::string("${x}")},
                   {"cond", Value::string("%{ if x }a%{ endif }")},
                   {"upper", Value::string("${upper(x)}")},
                   {"unclosed", Value::string("${x")},
                   {"nested", Value::string("${templatestring(t, {})}")},
                   {"nested_x", Value::string("${templatestring(x, {})}")},
                   {"nofn", Value::string("${nosuchfunction(1)}")},
                   {"plain", Value::string("plain")},
                   {"loop", Value::string("%{ for x in xs }${x},%{ endfor }")},
                   {"strip", Value::string("a\n  %{~ if true ~}\n  b\n  %{~ endif ~}\n")},
                   {"late", Value::string("${late()}")},
                   {"file", Value::string("${file(\"x\")}")},
                   {"core_file", Value::string("${core::file(\"x\")}")},
                   {"templatefile", Value::string("${templatefile(\"x\")}")},
                   {"sum", Value::string("${sum([1, 2])}")},
               }));
  c.set("bad", Value::string("${"));
  c.set("secl",
        Value::list(Type::number(), {Value::integer(1), Value::integer(2)}).mark("sensitive"));
  c.set("uset", Value::set(Type::number(),
                           {Value::unknown(Type::number()), Value::unknown(Type::number())}));
  c.set("ul1", Value::list(Type::number(), {Value::unknown(Type::number())}));
  std::vector<TypeAttr> attrs = {{"a", Type::string(), false}};
  c.set("uobj", Value::unknown(Type::object(attrs)));
  std::vector<const Type*> elems = {Type::boolean()};
  c.set("utup", Value::unknown(Type::tuple(elems)));
  c.set("mk", Value::string("x").mark("other"));
  c.set_functions(std::move(fns));
  return c;
}

const EvalContext& terraform_context() {
  static const EvalContext ctx =
      make_context(std::make_shared<const FunctionTable>(standard_functions()));
  return ctx;
}

// [v] as the cases write results.
std::string show(const Value& value) {
  auto [v, marks] = value.unmark_deep();
  std::string ms;
  for (std::string_view m : marks.labels()) ms += (ms.empty() ? " marks=" : ",") + std::string(m);
  JsonResult<std::string> ty = type_to_json(v.type());
  if (!ty.ok()) return "(type not JSON)";
  if (!v.is_wholly_known()) return "unknown " + ty.value + ms;
  if (v.type() == Type::number() && !v.is_null() && v.as_number().is_inf()) {
    return std::string("cty.NumberFloatVal(") + (v.as_number().sign() < 0 ? "-" : "+") + "Inf)" +
           ms;
  }
  JsonResult<std::string> j = to_json(v, v.type());
  if (!j.ok()) return "(not JSON: " + j.error->message + ")";
  return j.value + " " + ty.value + ms;
}

// Evaluates [src] in [ctx]: the result as show() writes it, or the first
// diagnostic.
std::string eval(std::string_view src, const EvalContext& ctx) {
  ExprParse p = parse_expression(make_source("<expr>", std::string(src)));
  if (p.has_errors()) return "!! " + p.diagnostics[0].summary + " | " + p.diagnostics[0].detail;
  CompileResult c = compile_expression(*p.expr, p.source);
  if (has_errors(c.diagnostics)) {
    return "!! " + c.diagnostics[0].summary + " | " + c.diagnostics[0].detail;
  }
  Vm vm;
  EvalResult r = vm.run(*c.program, ctx);
  if (r.has_errors()) return "!! " + r.diagnostics[0].summary + " | " + r.diagnostics[0].detail;
  return show(r.value);
}

// The value [src] evaluates to (the case fails on diagnostics).
Value value_of(std::string_view src, const EvalContext& ctx = terraform_context()) {
  ExprParse p = parse_expression(make_source("<expr>", std::string(src)));
  EXPECT_FALSE(p.has_errors()) << src;
  CompileResult c = compile_expression(*p.expr, p.source);
  Vm vm;
  EvalResult r = vm.run(*c.program, ctx);
  EXPECT_FALSE(r.has_errors()) << src << ": " << r.diagnostics[0].detail;
  return r.value;
}

struct Case {
  std::string_view expr, want;
};

void check(std::span<const Case> cases) {
  for (const Case& c : cases) {
    SCOPED_TRACE(c.expr);
    EXPECT_EQ(eval(c.expr, terraform_context()), c.want);
  }
}

// Terraform 1.8+ has every built-in in the core namespace too.
TEST(TerraformFuncsTest, CoreNamespace) {
  const Case cases[] = {
      {R"(core::upper("a"))", R"("A" "string")"},
      {R"(core::coalesce("", "b"))", R"("b" "string")"},
      {R"(core::nope(1))",
       "!! Call to unknown function | There is no function named \"nope\" in namespace core::."},
      // The reference measures the bare name against the full ones, so
      // nothing in a namespace is ever close enough to suggest.
      {R"(core::uppr("a"))",
       "!! Call to unknown function | There is no function named \"uppr\" in namespace core::."},
  };
  check(cases);
  LibraryOptions o;
  o.core_namespace = false;
  EXPECT_EQ(standard_functions(o).find("core::upper"), nullptr);
  EXPECT_EQ(standard_functions().find("core::upper"), standard_functions().find("upper"));
}

TEST(TerraformFuncsTest, Sum) {
  const Case cases[] = {
      {R"~(sum([1, 2, 3]))~", R"~(6 "number")~"},
      {R"~(sum([1476, 2093, 2092495, 64589234, 234]))~", R"~(66685532 "number")~"},
      {R"~(sum([10, -19, 5]))~", R"~(-4 "number")~"},
      {R"~(sum([10.2, 19.4, 5.7]))~", R"~(35.3 "number")~"},
      {R"~(sum([-10.2, -19.4, -5.7]))~", R"~(-35.3 "number")~"},
      {R"~(sum(toset([10, 25, 30])))~", R"~(65 "number")~"},
      {R"~(sum(toset([2340.8, 10.2, 3])))~", R"~(2354 "number")~"},
      {R"~(sum(["1", "2", "3"]))~", R"~(6 "number")~"},
      {R"~(sum([1, "2"]))~", R"~(3 "number")~"},
      {R"~(sum([1e+500, 1e+500]))~",
       R"~(200000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000 "number")~"},
      {R"~(sum([pinf, 1]))~", R"~(cty.NumberFloatVal(+Inf))~"},
      {R"~(sum([pinf, ninf]))~",
       R"~(!! Error in function call | Call to function "sum" failed: can't compute sum of opposing infinities.)~"},
      {R"~(sum([pinf, ninf, "x"]))~",
       R"~(!! Error in function call | Call to function "sum" failed: can't compute sum of opposing infinities.)~"},
      {R"~(sum([]))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: cannot sum an empty list.)~"},
      {R"~(sum(tolist([])))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: cannot sum an empty list.)~"},
      {R"~(sum({}))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: cannot sum an empty list.)~"},
      {R"~(sum({a = 1}))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: argument must be list, set, or tuple. Received object.)~"},
      {R"~(sum(tomap({hello = true})))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: argument must be list, set, or tuple. Received map of bool.)~"},
      {R"~(sum(5))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: cannot sum noniterable.)~"},
      {R"~(sum("a"))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: cannot sum noniterable.)~"},
      {R"~(sum(true))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: cannot sum noniterable.)~"},
      {R"~(sum([1, null]))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: argument must be list, set, or tuple of number values.)~"},
      {R"~(sum([null]))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: argument must be list, set, or tuple of number values.)~"},
      {R"~(sum(["a", "b"]))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: argument must be list, set, or tuple of number values.)~"},
      {R"~(sum([12, "a", 38]))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: argument must be list, set, or tuple of number values.)~"},
      {R"~(sum([1, true]))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: argument must be list, set, or tuple of number values.)~"},
      {R"~(sum(null))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: argument must not be null.)~"},
      {R"~(sum(un))~", R"~(unknown "number")~"},
      {R"~(sum(ul))~", R"~(unknown "number")~"},
      {R"~(sum([1, un]))~", R"~(unknown "number")~"},
      {R"~(sum(ul1))~", R"~(unknown "number")~"},
      {R"~(sum(dyn))~", R"~(unknown "dynamic")~"},
      {R"~(sum([secn, 1]))~", R"~(6 "number" marks=sensitive)~"},
      {R"~(sum(secl))~", R"~(3 "number" marks=sensitive)~"},
      {R"~(sum())~",
       R"~(!! Not enough function arguments | Function "sum" expects 1 argument(s). Missing value for "list".)~"},
      {R"~(sum([1], [2]))~",
       R"~(!! Too many function arguments | Function "sum" expects only 1 argument(s).)~"},
      {R"~(sum(toset([1, un])))~", R"~(unknown "number")~"},
      {R"~(sum([0.1, 0.2]))~", R"~(0.3 "number")~"},
      {R"~(sum([-1, 1]))~", R"~(0 "number")~"},
  };
  check(cases);
}

TEST(TerraformFuncsTest, AllTrueAnyTrue) {
  const Case cases[] = {
      {R"~(alltrue([]))~", R"~(true "bool")~"},
      {R"~(alltrue([true]))~", R"~(true "bool")~"},
      {R"~(alltrue([false]))~", R"~(false "bool")~"},
      {R"~(alltrue([true, false]))~", R"~(false "bool")~"},
      {R"~(alltrue([false, true]))~", R"~(false "bool")~"},
      {R"~(alltrue([true, null]))~", R"~(false "bool")~"},
      {R"~(alltrue(["true", true]))~", R"~(true "bool")~"},
      {R"~(alltrue([ub]))~", R"~(unknown "bool")~"},
      {R"~(alltrue([ub, ub]))~", R"~(unknown "bool")~"},
      {R"~(alltrue([ub, false]))~", R"~(unknown "bool")~"},
      {R"~(alltrue([false, ub]))~", R"~(false "bool")~"},
      {R"~(alltrue(tolist([ub])))~", R"~(unknown "bool")~"},
      {R"~(alltrue(null))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: argument must not be null.)~"},
      {R"~(alltrue(["a"]))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: a bool is required.)~"},
      {R"~(alltrue("true"))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: list of bool required, but have string.)~"},
      {R"~(alltrue(5))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: list of bool required, but have number.)~"},
      {R"~(alltrue([true, sec == "secret"]))~", R"~(true "bool" marks=sensitive)~"},
      {R"~(alltrue())~",
       R"~(!! Not enough function arguments | Function "alltrue" expects 1 argument(s). Missing value for "list".)~"},
      {R"~(alltrue([true], [true]))~",
       R"~(!! Too many function arguments | Function "alltrue" expects only 1 argument(s).)~"},
      {R"~(anytrue([]))~", R"~(false "bool")~"},
      {R"~(anytrue([true]))~", R"~(true "bool")~"},
      {R"~(anytrue([false]))~", R"~(false "bool")~"},
      {R"~(anytrue([true, false]))~", R"~(true "bool")~"},
      {R"~(anytrue([false, true]))~", R"~(true "bool")~"},
      {R"~(anytrue([null, true]))~", R"~(true "bool")~"},
      {R"~(anytrue([null, false]))~", R"~(false "bool")~"},
      {R"~(anytrue(["true"]))~", R"~(true "bool")~"},
      {R"~(anytrue([ub]))~", R"~(unknown "bool")~"},
      {R"~(anytrue([ub, false]))~", R"~(unknown "bool")~"},
      {R"~(anytrue([ub, true]))~", R"~(true "bool")~"},
      {R"~(anytrue(null))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: argument must not be null.)~"},
      {R"~(anytrue(["x"]))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: a bool is required.)~"},
      {R"~(anytrue({a = true}))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: list of bool required.)~"},
      {R"~(anytrue())~",
       R"~(!! Not enough function arguments | Function "anytrue" expects 1 argument(s). Missing value for "list".)~"},
      {R"~(alltrue(toset([true])))~", R"~(true "bool")~"},
  };
  check(cases);
}

TEST(TerraformFuncsTest, Coalesce) {
  const Case cases[] = {
      {R"~(coalesce("first", "second", "third"))~", R"~("first" "string")~"},
      {R"~(coalesce("", "second", "third"))~", R"~("second" "string")~"},
      {R"~(coalesce("", ""))~",
       R"~(!! Error in function call | Call to function "coalesce" failed: no non-null, non-empty-string arguments.)~"},
      {R"~(coalesce(true))~", R"~(true "bool")~"},
      {R"~(coalesce(null, true))~", R"~(true "bool")~"},
      {R"~(coalesce(null, false))~", R"~(false "bool")~"},
      {R"~(coalesce(null, false, "hello"))~", R"~("false" "string")~"},
      {R"~(coalesce(true, ub))~", R"~(true "bool")~"},
      {R"~(coalesce(ub, true))~", R"~(unknown "bool")~"},
      {R"~(coalesce(ub, "hello"))~", R"~(unknown "string")~"},
      {R"~(coalesce(dyn, true))~", R"~(unknown "bool")~"},
      {R"~(coalesce(dyn))~", R"~(unknown "dynamic")~"},
      {R"~(coalesce(1, "x"))~", R"~("1" "string")~"},
      {R"~(coalesce("", 0))~", R"~("0" "string")~"},
      {R"~(coalesce(null, "", 0))~", R"~("0" "string")~"},
      {R"~(coalesce(null, null))~",
       R"~(!! Error in function call | Call to function "coalesce" failed: no non-null, non-empty-string arguments.)~"},
      {R"~(coalesce(true, 1))~",
       R"~(!! Error in function call | Call to function "coalesce" failed: all arguments must have the same type.)~"},
      {R"~(coalesce())~",
       R"~(!! Error in function call | Call to function "coalesce" failed: all arguments must have the same type.)~"},
      {R"~(coalesce(["a"], []))~", R"~(["a"] ["list","string"])~"},
      {R"~(coalesce([], ["a"]))~", R"~([] ["list","string"])~"},
      {R"~(coalesce(sec, "x"))~", R"~("secret" "string" marks=sensitive)~"},
      {R"~(coalesce("", sec))~", R"~("secret" "string" marks=sensitive)~"},
      {R"~(coalesce(ns, "b"))~", R"~("b" "string")~"},
      {R"~(coalesce(us, "b"))~", R"~(unknown "string")~"},
      {R"~(coalesce("a", us))~", R"~("a" "string")~"},
      {R"~(coalesce(sensitive(""), "x"))~", R"~("x" "string" marks=sensitive)~"},
      {R"~(coalesce([], [1]))~", R"~([] ["list","number"])~"},
  };
  check(cases);
}

TEST(TerraformFuncsTest, Index) {
  const Case cases[] = {
      {R"~(index(["a", "b", "c"], "a"))~", R"~(0 "number")~"},
      {R"~(index(["a", "b", us], "a"))~", R"~(0 "number")~"},
      {R"~(index(["a", "b", "c"], "b"))~", R"~(1 "number")~"},
      {R"~(index(["a", "b", "c"], "z"))~",
       R"~(!! Error in function call | Call to function "index" failed: item not found.)~"},
      {R"~(index(["1", "2", "3"], 1))~",
       R"~(!! Error in function call | Call to function "index" failed: item not found.)~"},
      {R"~(index([1, 2, 3], 2))~", R"~(1 "number")~"},
      {R"~(index([1, 2, 3], 4))~",
       R"~(!! Error in function call | Call to function "index" failed: item not found.)~"},
      {R"~(index([1, 2, 3], "1"))~",
       R"~(!! Error in function call | Call to function "index" failed: item not found.)~"},
      {R"~(index(tolist([1, 2, 3]), 3))~", R"~(2 "number")~"},
      {R"~(index([us, 1], 1))~", R"~(1 "number")~"},
      {R"~(index([us, "a"], "a"))~", R"~(unknown "number")~"},
      {R"~(index([un, 1], 1))~", R"~(unknown "number")~"},
      {R"~(index([], 1))~",
       R"~(!! Error in function call | Call to function "index" failed: cannot search an empty list.)~"},
      {R"~(index(tolist([]), 1))~",
       R"~(!! Error in function call | Call to function "index" failed: cannot search an empty list.)~"},
      {R"~(index("ab", "a"))~",
       R"~(!! Error in function call | Call to function "index" failed: argument must be a list or tuple.)~"},
      {R"~(index({a = 1}, 1))~",
       R"~(!! Error in function call | Call to function "index" failed: argument must be a list or tuple.)~"},
      {R"~(index(toset([1]), 1))~",
       R"~(!! Error in function call | Call to function "index" failed: argument must be a list or tuple.)~"},
      {R"~(index(null, 1))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: argument must not be null.)~"},
      {R"~(index([1], null))~",
       R"~(!! Invalid function argument | Invalid value for "value" parameter: argument must not be null.)~"},
      {R"~(index([null, 1], null))~",
       R"~(!! Invalid function argument | Invalid value for "value" parameter: argument must not be null.)~"},
      {R"~(index(ul, "a"))~", R"~(unknown "number")~"},
      {R"~(index([sec, "b"], "b"))~", R"~(1 "number" marks=sensitive)~"},
      {R"~(index())~",
       R"~(!! Not enough function arguments | Function "index" expects 2 argument(s). Missing value for "list".)~"},
      {R"~(index([1]))~",
       R"~(!! Not enough function arguments | Function "index" expects 2 argument(s). Missing value for "value".)~"},
      {R"~(index([1], 1, 2))~",
       R"~(!! Too many function arguments | Function "index" expects only 2 argument(s).)~"},
      {R"~(index([[1], [2]], [2]))~", R"~(1 "number")~"},
      {R"~(index([{a = 1}], {a = 1}))~", R"~(0 "number")~"},
  };
  check(cases);
}

TEST(TerraformFuncsTest, Length) {
  const Case cases[] = {
      {R"~(length([]))~", R"~(0 "number")~"},
      {R"~(length(tolist([])))~", R"~(0 "number")~"},
      {R"~(length([true]))~", R"~(1 "number")~"},
      {R"~(length(tolist([ub])))~", R"~(1 "number")~"},
      {R"~(length(toset([])))~", R"~(0 "number")~"},
      {R"~(length(toset([true])))~", R"~(1 "number")~"},
      {R"~(length(tomap({})))~", R"~(0 "number")~"},
      {R"~(length(tomap({hello = true})))~", R"~(1 "number")~"},
      {R"~(length({}))~", R"~(0 "number")~"},
      {R"~(length({true = true}))~", R"~(1 "number")~"},
      {R"~(length("hello"))~", R"~(5 "number")~"},
      {R"~(length(""))~", R"~(0 "number")~"},
      {R"~(length("Живой Журнал"))~", R"~(12 "number")~"},
      {R"~(length("😸😾"))~", R"~(2 "number")~"},
      {R"~(length(us))~", R"~(unknown "number")~"},
      {R"~(length(dyn))~", R"~(unknown "number")~"},
      {R"~(length(ul))~", R"~(unknown "number")~"},
      {R"~(length(uobj))~", R"~(1 "number")~"},
      {R"~(length(utup))~", R"~(1 "number")~"},
      {R"~(length(uset))~", R"~(unknown "number")~"},
      {R"~(length(sec))~", R"~(6 "number" marks=sensitive)~"},
      {R"~(length(secl))~", R"~(2 "number" marks=sensitive)~"},
      {R"~(length(sl))~", R"~(2 "number")~"},
      {R"~(length(null))~",
       R"~(!! Invalid function argument | Invalid value for "value" parameter: argument must not be null.)~"},
      {R"~(length(5))~",
       R"~(!! Error in function call | Call to function "length" failed: argument must be a string, a collection type, or a structural type.)~"},
      {R"~(length(true))~",
       R"~(!! Error in function call | Call to function "length" failed: argument must be a string, a collection type, or a structural type.)~"},
      {R"~(length())~",
       R"~(!! Not enough function arguments | Function "length" expects 1 argument(s). Missing value for "value".)~"},
      {R"~(length([], []))~",
       R"~(!! Too many function arguments | Function "length" expects only 1 argument(s).)~"},
      {R"~(length(toset([un, un])))~", R"~(unknown "number")~"},
  };
  check(cases);
}

TEST(TerraformFuncsTest, ListAndMapAreRemoved) {
  const Case cases[] = {
      {R"~(list())~",
       R"~(!! Error in function call | Call to function "list" failed: the "list" function was deprecated in Terraform v0.12 and is no longer available; use tolist([ ... ]) syntax to write a literal list.)~"},
      {R"~(list(1, 2))~",
       R"~(!! Error in function call | Call to function "list" failed: the "list" function was deprecated in Terraform v0.12 and is no longer available; use tolist([ ... ]) syntax to write a literal list.)~"},
      {R"~(list(null, us))~",
       R"~(!! Error in function call | Call to function "list" failed: the "list" function was deprecated in Terraform v0.12 and is no longer available; use tolist([ ... ]) syntax to write a literal list.)~"},
      {R"~(map())~",
       R"~(!! Error in function call | Call to function "map" failed: the "map" function was deprecated in Terraform v0.12 and is no longer available; use tomap({ ... }) syntax to write a literal map.)~"},
      {R"~(map("a", 1))~",
       R"~(!! Error in function call | Call to function "map" failed: the "map" function was deprecated in Terraform v0.12 and is no longer available; use tomap({ ... }) syntax to write a literal map.)~"},
  };
  check(cases);
}

TEST(TerraformFuncsTest, Lookup) {
  const Case cases[] = {
      {R"~(lookup({foo = "bar"}, "foo"))~", R"~("bar" "string")~"},
      {R"~(lookup(tomap({foo = "bar"}), "foo"))~", R"~("bar" "string")~"},
      {R"~(lookup(tomap({foo = 42}), "foo"))~", R"~(42 "number")~"},
      {R"~(lookup({foo = "bar", baz = 42}, "foo"))~", R"~("bar" "string")~"},
      {R"~(lookup(tomap({foo = tomap({a = "bar"}), baz = tomap({b = "bat"})}), "foo"))~",
       R"~({"a":"bar"} ["map","string"])~"},
      {R"~(lookup({foo = tomap({a = "bar"}), baz = tomap({b = "bat"})}, "foo"))~",
       R"~({"a":"bar"} ["map","string"])~"},
      {R"~(lookup(tomap({foo = "bar"}), "bar"))~",
       R"~(!! Error in function call | Call to function "lookup" failed: lookup failed to find key "bar".)~"},
      {R"~(lookup({foo = "bar", baz = 42}, "bar"))~",
       R"~(!! Invalid function argument | Invalid value for "inputMap" parameter: the given object has no attribute "bar".)~"},
      {R"~(lookup(tomap({foo = "bar"}), "foo", ""))~", R"~("bar" "string")~"},
      {R"~(lookup(tomap({foo = "bar"}), "foo", -1))~", R"~("bar" "string")~"},
      {R"~(lookup(tomap({foo = "bar"}), "foobar", -1))~", R"~("-1" "string")~"},
      {R"~(lookup({foo = "bar", baz = 42}, "foobar", ""))~", R"~("" "string")~"},
      {R"~(lookup(tomap({foo = "bar"}), "baz", ""))~", R"~("" "string")~"},
      {R"~(lookup(tomap({foo = tomap({a = "bar"})}), "foo", ""))~",
       R"~(!! Invalid function argument | Invalid value for "default" parameter: the default value must have the same type as the map elements.)~"},
      {R"~(lookup(tomap({foo = "bar"}), "bar", "xyz"))~", R"~("xyz" "string")~"},
      {R"~(lookup(tomap({foo = "bar"}), "foo", "bar", "baz"))~",
       R"~(!! Error in function call | Call to function "lookup" failed: lookup() takes two or three arguments, got 4.)~"},
      {R"~(lookup(tomap({foo = ["bar", "baz"]}), "baz"))~",
       R"~(!! Error in function call | Call to function "lookup" failed: lookup failed to find key "baz".)~"},
      {R"~(lookup(tomap({foo = "bar", baz = us}), "baz"))~", R"~(unknown "string")~"},
      {R"~(lookup(tomap({foo = "bar", baz = us}), "foo"))~", R"~("bar" "string")~"},
      {R"~(lookup(tomap({foo = "bar"}), us))~", R"~(unknown "string")~"},
      {R"~(lookup({foo = "a", bar = "b"}, us))~", R"~(unknown "dynamic")~"},
      {R"~(lookup(tomap({foo = "bar"}), "x", us))~", R"~(unknown "string")~"},
      {R"~(lookup({a = 1}, "b", dyn))~", R"~(unknown "dynamic")~"},
      {R"~(lookup({a = 1}, "a", null))~", R"~(1 "number")~"},
      {R"~(lookup(tomap({a = 1}), "b", null))~", R"~(null "number")~"},
      {R"~(lookup(tomap({a = 1}), "b", "x"))~",
       R"~(!! Invalid function argument | Invalid value for "default" parameter: the default value must have the same type as the map elements.)~"},
      {R"~(lookup([1], "a"))~",
       R"~(!! Invalid function argument | Invalid value for "inputMap" parameter: lookup() requires a map as the first argument.)~"},
      {R"~(lookup("a", "a"))~",
       R"~(!! Invalid function argument | Invalid value for "inputMap" parameter: lookup() requires a map as the first argument.)~"},
      {R"~(lookup(null, "a"))~",
       R"~(!! Invalid function argument | Invalid value for "inputMap" parameter: argument must not be null.)~"},
      {R"~(lookup(tomap({a = 1}), null))~",
       R"~(!! Invalid function argument | Invalid value for "key" parameter: argument must not be null.)~"},
      {R"~(lookup(tomap({foo = "bar"}), "boop"))~",
       R"~(!! Error in function call | Call to function "lookup" failed: lookup failed to find key "boop".)~"},
      {R"~(lookup(tomap({foo = "bar"}), sec))~",
       R"~(!! Error in function call | Call to function "lookup" failed: lookup failed to find key (sensitive value).)~"},
      {R"~(lookup({secret = "x"}, sec))~", R"~("x" "string" marks=sensitive)~"},
      {R"~(lookup(tomap({a = "x"}), sec, "d"))~", R"~("d" "string" marks=sensitive)~"},
      {R"~(lookup({a = sec}, "a"))~", R"~("secret" "string" marks=sensitive)~"},
      {R"~(lookup(tomap({a = "x"}), "b", sec))~", R"~("secret" "string" marks=sensitive)~"},
      {R"~(lookup())~",
       R"~(!! Not enough function arguments | Function "lookup" expects at least 2 argument(s). Missing value for "inputMap".)~"},
      {R"~(lookup(tomap({a = 1})))~",
       R"~(!! Not enough function arguments | Function "lookup" expects at least 2 argument(s). Missing value for "key".)~"},
      {R"~(lookup(sensitive({a = 1}), "a"))~", R"~(1 "number" marks=sensitive)~"},
  };
  check(cases);
}

TEST(TerraformFuncsTest, Matchkeys) {
  const Case cases[] = {
      {R"~(matchkeys(["a", "b", "c"], ["ref1", "ref2", "ref3"], ["ref1"]))~",
       R"~(["a"] ["list","string"])~"},
      {R"~(matchkeys(["a", "b", "c"], ["ref1", "ref2", "ref3"], ["ref2", "ref1"]))~",
       R"~(["a","b"] ["list","string"])~"},
      {R"~(matchkeys(["a", "b", "c"], ["ref1", "ref2", "ref3"], ["ref4"]))~",
       R"~([] ["list","string"])~"},
      {R"~(matchkeys(["a", "b", "c"], ["ref1", "ref2", "ref3"], []))~",
       R"~([] ["list","string"])~"},
      {R"~(matchkeys([], [], ["nope"]))~", R"~([] ["list","dynamic"])~"},
      {R"~(matchkeys([["a", "a"]], ["a"], ["a"]))~",
       R"~([["a","a"]] ["list",["tuple",["string","string"]]])~"},
      {R"~(matchkeys(["a", "b", us], ["ref1", "ref2", us], ["ref1"]))~",
       R"~(unknown ["list","string"])~"},
      {R"~(matchkeys(["a"], [1], ["a"]))~", R"~([] ["list","string"])~"},
      {R"~(matchkeys(["a", "b"], [1, 2], ["2"]))~", R"~(["b"] ["list","string"])~"},
      {R"~(matchkeys([{foo = "bar"}, {foo = "baz"}, {foo = "beep"}], ["a", "b", "c"], ["a", "c"]))~",
       R"~([{"foo":"bar"},{"foo":"beep"}] ["list",["object",{"foo":"string"}]])~"},
      {R"~(matchkeys(["a"], [["a"], ["a"]], ["a"]))~",
       R"~(!! Error in function call | Call to function "matchkeys" failed: keys and searchset must be of the same type.)~"},
      {R"~(matchkeys(["a"], [["a"]], ["a"]))~",
       R"~(!! Error in function call | Call to function "matchkeys" failed: keys and searchset must be of the same type.)~"},
      {R"~(matchkeys(["a"], ["a", "b"], ["a"]))~",
       R"~(!! Error in function call | Call to function "matchkeys" failed: length of keys and values should be equal.)~"},
      {R"~(matchkeys(["a", "b"], ["1", "2"], [us]))~", R"~([] ["list","string"])~"},
      {R"~(matchkeys(["a", "b"], ["1", "2"], ["2", us]))~", R"~([] ["list","string"])~"},
      {R"~(matchkeys([], [], []))~", R"~([] ["list","dynamic"])~"},
      {R"~(matchkeys(ul, ["a"], ["a"]))~", R"~(unknown ["list","string"])~"},
      {R"~(matchkeys(null, [], []))~",
       R"~(!! Invalid function argument | Invalid value for "values" parameter: argument must not be null.)~"},
      {R"~(matchkeys("a", ["a"], ["a"]))~",
       R"~(!! Invalid function argument | Invalid value for "values" parameter: list of dynamic required, but have string.)~"},
      {R"~(matchkeys([sec, "b"], ["x", "y"], ["x"]))~",
       R"~(["secret"] ["list","string"] marks=sensitive)~"},
      {R"~(matchkeys(["a"], ["x"]))~",
       R"~(!! Not enough function arguments | Function "matchkeys" expects 3 argument(s). Missing value for "searchset".)~"},
      {R"~(matchkeys(toset(["a"]), ["x"], ["x"]))~", R"~(["a"] ["list","string"])~"},
  };
  check(cases);
}

TEST(TerraformFuncsTest, One) {
  const Case cases[] = {
      {R"~(one([1]))~", R"~(1 "number")~"},
      {R"~(one([]))~", R"~(null "dynamic")~"},
      {R"~(one(tolist([])))~", R"~(null "dynamic")~"},
      {R"~(one([1, 2, 3]))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: must be a list, set, or tuple value with either zero or one elements.)~"},
      {R"~(one(tolist([1, 2, 3])))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: must be a list, set, or tuple value with either zero or one elements.)~"},
      {R"~(one(ul1))~", R"~(unknown "number")~"},
      {R"~(one(tolist([un, un])))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: must be a list, set, or tuple value with either zero or one elements.)~"},
      {R"~(one([un, un]))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: must be a list, set, or tuple value with either zero or one elements.)~"},
      {R"~(one(ul))~", R"~(unknown "string")~"},
      {R"~(one(null))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: argument must not be null.)~"},
      {R"~(one(secl))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: must be a list, set, or tuple value with either zero or one elements.)~"},
      {R"~(one(tolist([secn])))~", R"~(5 "number" marks=sensitive)~"},
      {R"~(one(toset([1])))~", R"~(1 "number")~"},
      {R"~(one(toset([])))~", R"~(null "dynamic")~"},
      {R"~(one(toset([1, 2, 3])))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: must be a list, set, or tuple value with either zero or one elements.)~"},
      {R"~(one(toset([un])))~", R"~(unknown "number")~"},
      {R"~(one(uset))~", R"~(unknown "number")~"},
      {R"~(one(utup))~", R"~(unknown "bool")~"},
      {R"~(one([un]))~", R"~(unknown "number")~"},
      {R"~(one(dyn))~", R"~(unknown "dynamic")~"},
      {R"~(one(tomap({})))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: must be a list, set, or tuple value with either zero or one elements.)~"},
      {R"~(one({}))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: must be a list, set, or tuple value with either zero or one elements.)~"},
      {R"~(one(true))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: must be a list, set, or tuple value with either zero or one elements.)~"},
      {R"~(one(ub))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: must be a list, set, or tuple value with either zero or one elements.)~"},
      {R"~(one("a"))~",
       R"~(!! Invalid function argument | Invalid value for "list" parameter: must be a list, set, or tuple value with either zero or one elements.)~"},
      {R"~(one())~",
       R"~(!! Not enough function arguments | Function "one" expects 1 argument(s). Missing value for "list".)~"},
      {R"~(one([], []))~",
       R"~(!! Too many function arguments | Function "one" expects only 1 argument(s).)~"},
      {R"~(one(tolist([ns])))~", R"~(null "string")~"},
  };
  check(cases);
}

TEST(TerraformFuncsTest, Transpose) {
  const Case cases[] = {
      {R"~(transpose({key1 = ["a", "b"], key2 = ["a", "b", "c"], key3 = ["c"], key4 = []}))~",
       R"~({"a":["key1","key2"],"b":["key1","key2"],"c":["key2","key3"]} ["map",["list","string"]])~"},
      {R"~(transpose({key1 = [us]}))~", R"~(unknown ["map",["list","string"]])~"},
      {R"~(transpose({key1 = ul}))~", R"~(unknown ["map",["list","string"]])~"},
      {R"~(transpose({key1 = []}))~", R"~({} ["map",["list","string"]])~"},
      {R"~(transpose({}))~", R"~({} ["map",["list","string"]])~"},
      {R"~(transpose({key1 = "a"}))~",
       R"~(!! Invalid function argument | Invalid value for "values" parameter: element "key1": list of string required, but have string.)~"},
      {R"~(transpose({a = ["x", "x"], b = ["x"]}))~",
       R"~({"x":["a","a","b"]} ["map",["list","string"]])~"},
      {R"~(transpose({a = [1, true]}))~",
       R"~({"1":["a"],"true":["a"]} ["map",["list","string"]])~"},
      {R"~(transpose({a = null}))~",
       R"~(!! Error in function call | Call to function "transpose" failed: input must not contain null list.)~"},
      {R"~(transpose({a = [null]}))~",
       R"~(!! Error in function call | Call to function "transpose" failed: input list must not contain null string.)~"},
      {R"~(transpose({a = sl}))~",
       R"~({"a":["a"],"b":["a"]} ["map",["list","string"]] marks=sensitive)~"},
      {R"~(transpose(null))~",
       R"~(!! Invalid function argument | Invalid value for "values" parameter: argument must not be null.)~"},
      {R"~(transpose(["a"]))~",
       R"~(!! Invalid function argument | Invalid value for "values" parameter: map of list of string required.)~"},
      {R"~(transpose())~",
       R"~(!! Not enough function arguments | Function "transpose" expects 1 argument(s). Missing value for "values".)~"},
      {R"~(transpose(tomap({b = ["y", "x"], a = ["y"]})))~",
       R"~({"x":["b"],"y":["a","b"]} ["map",["list","string"]])~"},
  };
  check(cases);
}

TEST(TerraformFuncsTest, StartsWithEndsWithStrContains) {
  const Case cases[] = {
      {R"~(startswith("hello world", "hello"))~", R"~(true "bool")~"},
      {R"~(startswith("hey world", "hello"))~", R"~(false "bool")~"},
      {R"~(startswith("", ""))~", R"~(true "bool")~"},
      {R"~(startswith("a", ""))~", R"~(true "bool")~"},
      {R"~(startswith("", "a"))~", R"~(false "bool")~"},
      {R"~(startswith(us, "a"))~", R"~(unknown "bool")~"},
      {R"~(startswith(us, ""))~", R"~(true "bool")~"},
      {R"~(startswith(5, "5"))~", R"~(true "bool")~"},
      {R"~(startswith(null, "a"))~",
       R"~(!! Invalid function argument | Invalid value for "str" parameter: argument must not be null.)~"},
      {R"~(startswith("a", null))~",
       R"~(!! Invalid function argument | Invalid value for "prefix" parameter: argument must not be null.)~"},
      {R"~(startswith("a", us))~", R"~(unknown "bool")~"},
      {R"~(startswith(sec, "se"))~", R"~(true "bool" marks=sensitive)~"},
      {R"~(startswith("a"))~",
       R"~(!! Not enough function arguments | Function "startswith" expects 2 argument(s). Missing value for "prefix".)~"},
      {R"~(endswith("hello world", "world"))~", R"~(true "bool")~"},
      {R"~(endswith("hello world", "hello"))~", R"~(false "bool")~"},
      {R"~(endswith("", ""))~", R"~(true "bool")~"},
      {R"~(endswith("a", ""))~", R"~(true "bool")~"},
      {R"~(endswith("", "a"))~", R"~(false "bool")~"},
      {R"~(endswith(us, "a"))~", R"~(unknown "bool")~"},
      {R"~(endswith(null, "a"))~",
       R"~(!! Invalid function argument | Invalid value for "str" parameter: argument must not be null.)~"},
      {R"~(endswith(sec, "et"))~", R"~(true "bool" marks=sensitive)~"},
      {R"~(endswith("a", "b", "c"))~",
       R"~(!! Too many function arguments | Function "endswith" expects only 2 argument(s).)~"},
      {R"~(strcontains("hello", "hel"))~", R"~(true "bool")~"},
      {R"~(strcontains("hello", "lo"))~", R"~(true "bool")~"},
      {R"~(strcontains("hello1", "1"))~", R"~(true "bool")~"},
      {R"~(strcontains("hello1", "heo"))~", R"~(false "bool")~"},
      {R"~(strcontains("hello1", 1))~", R"~(true "bool")~"},
      {R"~(strcontains("", ""))~", R"~(true "bool")~"},
      {R"~(strcontains(us, "a"))~", R"~(unknown "bool")~"},
      {R"~(strcontains(null, "a"))~",
       R"~(!! Invalid function argument | Invalid value for "str" parameter: argument must not be null.)~"},
      {R"~(strcontains("a", []))~",
       R"~(!! Invalid function argument | Invalid value for "substr" parameter: string required, but have tuple.)~"},
      {R"~(strcontains(sec, "cr"))~", R"~(true "bool" marks=sensitive)~"},
      {R"~(strcontains("a"))~",
       R"~(!! Not enough function arguments | Function "strcontains" expects 2 argument(s). Missing value for "substr".)~"},
      {R"~(endswith("😸😾", "😾"))~", R"~(true "bool")~"},
      {R"~(strcontains("abc", ""))~", R"~(true "bool")~"},
  };
  check(cases);
}

TEST(TerraformFuncsTest, Replace) {
  const Case cases[] = {
      {R"~(replace("hello", "hel", "bel"))~", R"~("bello" "string")~"},
      {R"~(replace("hello", "nope", "bel"))~", R"~("hello" "string")~"},
      {R"~(replace("hello", "/l/", "L"))~", R"~("heLLo" "string")~"},
      {R"~(replace("helo", "/(l)/", "$1$1"))~", R"~("hello" "string")~"},
      {R"~(replace("hello", "/(l/", "$1$1"))~",
       R"~(!! Error in function call | Call to function "replace" failed: error parsing regexp: missing closing ): `(l`.)~"},
      {R"~(replace("hello", "/l+/", "[$0]"))~", R"~("he[ll]o" "string")~"},
      {R"~(replace("hello", "/(?P<x>l)/", "$${x}-$1-$$-$x1-$"))~",
       R"~("hel-l-$--$l-l-$--$o" "string")~"},
      {R"~(replace("abc", "/(a)(b)/", "$2$1|$10|$01|$${1}0|$${1|$"))~",
       R"~("ba|||a0|${1|$c" "string")~"},
      {R"~(replace("abc", "/(a)(b)/", "$é$_1"))~", R"~("c" "string")~"},
      {R"~(replace("abc", "/(?P<é>a)/", "<$é>"))~",
       R"~(!! Error in function call | Call to function "replace" failed: error parsing regexp: invalid named capture: `(?P<é>`.)~"},
      {R"~(replace("abc", "/(a)|(z)/", "[$2]"))~", R"~("[]bc" "string")~"},
      {R"~(replace("a\nb", "/^b/", "X"))~", R"~("a\nb" "string")~"},
      {R"~(replace("a\nb", "/(?m)^b/", "X"))~", R"~("a\nX" "string")~"},
      {R"~(replace("ab", "/\\b/", "|"))~", R"~("|ab|" "string")~"},
      {R"~(replace("xyz", "/y|/", "-"))~", R"~("-x-z-" "string")~"},
      {R"~(replace("aaa", "/a*/", "-"))~", R"~("-" "string")~"},
      {R"~(replace("héllo", "/x*/", "-"))~", R"~("-h-é-l-l-o-" "string")~"},
      {R"~(replace("abc", "//", "x"))~", R"~("xaxbxcx" "string")~"},
      {R"~(replace("abc", "/", "x"))~", R"~("abc" "string")~"},
      {R"~(replace("abc", "/\\C/", "x"))~",
       R"~(!! Error in function call | Call to function "replace" failed: error parsing regexp: invalid escape sequence: `\C`.)~"},
      {R"~(replace("abc", "/a{2,1001}/", "x"))~",
       R"~(!! Error in function call | Call to function "replace" failed: error parsing regexp: invalid repeat count: `{2,1001}`.)~"},
      {R"~(replace("hello", "", "-"))~", R"~("-h-e-l-l-o-" "string")~"},
      {R"~(replace("hello", "l", ""))~", R"~("heo" "string")~"},
      {R"~(replace(us, "a", "b"))~", R"~(unknown "string")~"},
      {R"~(replace("a", us, "b"))~", R"~(unknown "string")~"},
      {R"~(replace(null, "a", "b"))~",
       R"~(!! Invalid function argument | Invalid value for "str" parameter: argument must not be null.)~"},
      {R"~(replace(sec, "/e/", "E"))~", R"~("sEcrEt" "string" marks=sensitive)~"},
      {R"~(replace(1, 1, 2))~", R"~("2" "string")~"},
      {R"~(replace([], "a", "b"))~",
       R"~(!! Invalid function argument | Invalid value for "str" parameter: string required, but have tuple.)~"},
      {R"~(replace("a", "b"))~",
       R"~(!! Not enough function arguments | Function "replace" expects 3 argument(s). Missing value for "replace".)~"},
      {R"~(replace("Hello World", "/(?i)o/", "0"))~", R"~("Hell0 W0rld" "string")~"},
      {R"~(replace("a.b.c", ".", "-"))~", R"~("a-b-c" "string")~"},
      {R"~(replace("a.b.c", "/./", "-"))~", R"~("-----" "string")~"},
      {R"~(replace("x1y22z", "/[0-9]+/", "<$0>"))~",
       R"~("x\u003c1\u003ey\u003c22\u003ez" "string")~"},
  };
  check(cases);
}

TEST(TerraformFuncsTest, TemplateString) {
  // clang-format cannot lay out this table.
  // clang-format off
  const Case cases[] = {
      {R"~(templatestring(tmpl, {name = "x"}))~", R"~("Hello, x!" "string")~"},
      {R"~(templatestring(tmpl, tomap({name = "x"})))~", R"~("Hello, x!" "string")~"},
      {R"~(templatestring(tmpl, {name = 5}))~", R"~("Hello, 5!" "string")~"},
      {R"~(templatestring(tmpl, {name = "a", other = 1}))~", R"~("Hello, a!" "string")~"},
      {R"~(templatestring(tmpl, {name = "a", "bad-name" = 1}))~", R"~("Hello, a!" "string")~"},
      {R"~(templatestring(tmpl, {name = "a", "1bad" = 1}))~",
       R"~(!! Invalid function argument | Invalid value for "vars" parameter: invalid template variable name "1bad": must start with a letter, followed by zero or more letters, digits, and underscores.)~"},
      {R"~(templatestring(tmpl, {}))~",
       R"~(!! Invalid function argument | Invalid value for "vars" parameter: vars map does not contain key "name", referenced at <templatestring argument>:1,10-14.)~"},
      {R"~(templatestring(tmpl, [1]))~",
       R"~(!! Invalid function argument | Invalid value for "vars" parameter: invalid vars value: must be a map.)~"},
      {R"~(templatestring(tmpl, "x"))~",
       R"~(!! Invalid function argument | Invalid value for "vars" parameter: invalid vars value: must be a map.)~"},
      {R"~(templatestring(tmpl, null))~",
       R"~(!! Invalid function argument | Invalid value for "vars" parameter: argument must not be null.)~"},
      {R"~(templatestring(ns, {}))~",
       R"~(!! Invalid function argument | Invalid value for "template" parameter: invalid template value: a string is required.)~"},
      {R"~(templatestring(5, {}))~",
       R"~(!! Invalid function argument | Invalid value for "template" parameter: invalid template expression: must be a direct reference to a single string from elsewhere, containing valid Terraform template syntax.)~"},
      {R"~(templatestring(true, {}))~",
       R"~(!! Invalid function argument | Invalid value for "template" parameter: invalid template expression: must be a direct reference to a single string from elsewhere, containing valid Terraform template syntax.)~"},
      {R"~(templatestring([], {}))~",
       R"~(!! Invalid function argument | Invalid value for "template" parameter: invalid template expression: must be a direct reference to a single string from elsewhere, containing valid Terraform template syntax.)~"},
      {R"~(templatestring(us, {}))~", R"~(unknown "string")~"},
      {R"~(templatestring(dyn, {}))~", R"~(unknown "string")~"},
      {R"~(templatestring(tmpl, {name = un}))~", R"~(unknown "string")~"},
      {R"~(templatestring(tmpl, un))~", R"~(unknown "string")~"},
      {R"~(templatestring(tmpl, {name = sec}))~", R"~("Hello, secret!" "string" marks=sensitive)~"},
      {R"~(templatestring(sec, {}))~", R"~("secret" "string" marks=sensitive)~"},
      {R"~(templatestring(tmpl, {name = [1]}))~",
       R"~(!! Error in function call | Call to function "templatestring" failed: <templatestring argument>:1,10-14: Invalid template interpolation value; Cannot include the given value in a string template: string required, but have tuple..)~"},
      {R"~(templatestring(tpl.tuple, {x = [1]}))~",
       R"~(!! Error in function call | Call to function "templatestring" failed: invalid template result: string required, but have tuple.)~"},
      {R"~(templatestring(tpl.cond, {x = "maybe"}))~",
       R"~(!! Error in function call | Call to function "templatestring" failed: <templatestring argument>:1,7-8: Incorrect condition type; The condition expression must be of type bool..)~"},
      {R"~(templatestring(tpl.upper, {x = "a"}))~", R"~("A" "string")~"},
      {R"~(templatestring(tpl.unclosed, {x = "a"}))~",
       R"~(!! Invalid function argument | Invalid value for "template" parameter: invalid template: <templatestring argument>:1,1-3: Unclosed template interpolation sequence; There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression..)~"},
      {R"~(templatestring(bad, {}))~",
       R"~(!! Invalid function argument | Invalid value for "template" parameter: invalid template: <templatestring argument>:1,3-3: Missing expression; Expected the start of an expression, but found the end of the file..)~"},
      {R"~(templatestring(rec, {t = "x"}))~",
       R"~(!! Error in function call | Call to function "templatestring" failed: <templatestring argument>:1,3-18: Error in function call; Call to function "templatestring" failed: cannot recursively call templatestring from inside another template function..)~"},
      {R"~(templatestring(tpl.nested, {t = "x"}))~",
       R"~(!! Error in function call | Call to function "templatestring" failed: <templatestring argument>:1,3-18: Error in function call; Call to function "templatestring" failed: cannot recursively call templatestring from inside another template function..)~"},
      {R"~(templatestring(tmpl, {name = templatestring(tmpl, {name = 1})}))~",
       R"~("Hello, Hello, 1!!" "string")~"},
      {R"~(templatestring(tpl.nofn, {}))~",
       R"~(!! Error in function call | Call to function "templatestring" failed: <templatestring argument>:1,3-17: Call to unknown function; There is no function named "nosuchfunction"..)~"},
      {R"~(templatestring(tpl.plain, {}))~", R"~("plain" "string")~"},
      {R"~(templatestring(tmpl))~",
       R"~(!! Not enough function arguments | Function "templatestring" expects 2 argument(s). Missing value for "vars".)~"},
      {R"~(templatestring(tpl.loop, {xs = [1, 2]}))~",
       R"~("1,2," "string")~"},
      {R"~(templatestring(tpl.strip, {}))~",
       R"~("a\n  b\n" "string")~"},
      // Terraform takes the template as an expression: a reference to a
      // string defined elsewhere, never one written in place (which is not
      // evaluated: its errors are not the ones reported), and errors
      // evaluating the reference are folded into one message.
      {R"~(templatestring("plain", {}))~",
       R"~(!! Invalid function argument | Invalid value for "template" parameter: invalid template expression: templatestring is only for rendering templates retrieved dynamically from elsewhere, and so does not support providing a literal template; consider using a template string expression instead.)~"},
      {R"~(templatestring("", {}))~",
       R"~(!! Invalid function argument | Invalid value for "template" parameter: invalid template expression: templatestring is only for rendering templates retrieved dynamically from elsewhere, and so does not support providing a literal template; consider using a template string expression instead.)~"},
      {R"~(templatestring("a ${nosuch}", {}))~",
       R"~(!! Invalid function argument | Invalid value for "template" parameter: invalid template expression: templatestring is only for rendering templates retrieved dynamically from elsewhere; to render an inline template, consider using a plain template string expression.)~"},
      {R"~(templatestring("${tmpl}", {}))~",
       R"~(!! Invalid function argument | Invalid value for "template" parameter: invalid template expression: templatestring is only for rendering templates retrieved dynamically from elsewhere; to treat the inner expression as template syntax, write the reference expression directly without any template interpolation syntax.)~"},
      {R"~(templatestring((tmpl), {name = "x"}))~",
       R"~(!! Invalid function argument | Invalid value for "template" parameter: invalid template expression: must be a direct reference to a single string from elsewhere, containing valid Terraform template syntax.)~"},
      {R"~(templatestring(upper(nosuch), {name = "x"}))~",
       R"~(!! Invalid function argument | Invalid value for "template" parameter: invalid template expression: must be a direct reference to a single string from elsewhere, containing valid Terraform template syntax.)~"},
      {R"~(templatestring([tmpl][0], {name = "x"}))~",
       R"~(!! Invalid function argument | Invalid value for "template" parameter: invalid template expression: must be a direct reference to a single string from elsewhere, containing valid Terraform template syntax.)~"},
      {R"~(templatestring(tpl["plain"], {}))~", R"~("plain" "string")~"},
      {R"~(templatestring(sl[1], {}))~", R"~("b" "string")~"},
      {R"~(templatestring(sl[*], {}))~",
       R"~(!! Invalid function argument | Invalid value for "template" parameter: invalid template value: a string is required.)~"},
      {R"~(templatestring(tpl.nope, {}))~",
       R"~(!! Invalid function argument | Invalid value for "template" parameter: invalid template expression: <expr>:1,19-24: Unsupported attribute; This object does not have an attribute named "nope"..)~"},
      {R"~(templatestring(nosuch, {}))~",
       R"~(!! Invalid function argument | Invalid value for "template" parameter: invalid template expression: <expr>:1,16-22: Unknown variable; There is no variable named "nosuch"..)~"},
      {R"~(templatestring("x", nosuch))~",
       R"~(!! Unknown variable | There is no variable named "nosuch".)~"},
      {R"~(try(templatestring("x", {}), "caught"))~", R"~("caught" "string")~"},
      {R"~(can(templatestring(tpl.nope, {})))~", R"~(false "bool")~"},
      // cty checks the other arguments before the implementation, where
      // Terraform checks the template's syntax.
      {R"~(templatestring("${1 + 1}", null))~",
       R"~(!! Invalid function argument | Invalid value for "vars" parameter: argument must not be null.)~"},
      {R"~(templatestring("x", un))~", R"~(unknown "string")~"},
      {R"~(core::templatestring("x", {}))~",
       R"~(!! Invalid function argument | Invalid value for "template" parameter: invalid template expression: templatestring is only for rendering templates retrieved dynamically from elsewhere, and so does not support providing a literal template; consider using a template string expression instead.)~"},
  };
  // clang-format on
  check(cases);
}

// A template sees the table as it was when templatestring was added; the
// scope is made at the first call, which may come from several threads at
// once.
TEST(TerraformFuncsTest, TemplateStringScopeOnFirstCall) {
  auto table = std::make_shared<FunctionTable>(standard_functions());
  Function late;
  late.returns(Type::string());
  late.impl = [](std::span<const Value>, const Type*) {
    return FuncResult::of(Value::string("late"));
  };
  table->add("late", std::make_shared<const Function>(std::move(late)));
  EvalContext ctx = make_context(table);
  EXPECT_EQ(eval(R"(late())", ctx), R"("late" "string")");
  EXPECT_EQ(
      eval(R"(templatestring(tpl.late, {}))", ctx),
      R"(!! Error in function call | Call to function "templatestring" failed: <templatestring argument>:1,3-7: Call to unknown function; There is no function named "late"..)");

  // A fresh table, rendered first by four threads together.
  EvalContext fresh = make_context(std::make_shared<const FunctionTable>(standard_functions()));
  std::vector<std::string> got(8);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < got.size(); ++i) {
    threads.emplace_back([&, i] {
      got[i] = eval(i % 2 ? R"(templatestring(tpl.upper, {x = "a"}))"
                          : R"(templatestring(tpl.nested_x, {x = "a"}))",
                    fresh);
    });
  }
  for (auto& t : threads) t.join();
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(
        got[i],
        i % 2
            ? R"("A" "string")"
            : R"(!! Error in function call | Call to function "templatestring" failed: <templatestring argument>:1,3-18: Error in function call; Call to function "templatestring" failed: cannot recursively call templatestring from inside another template function..)");
  }
}

TEST(TerraformFuncsTest, Conversions) {
  const Case cases[] = {
      {R"~(tostring("a"))~", R"~("a" "string")~"},
      {R"~(tostring(us))~", R"~(unknown "string")~"},
      {R"~(tostring(ns))~", R"~(null "string")~"},
      {R"~(tostring(null))~", R"~(null "string")~"},
      {R"~(tostring(mk))~", R"~("x" "string" marks=other)~"},
      {R"~(tostring(true))~", R"~("true" "string")~"},
      {R"~(tostring(5))~", R"~("5" "string")~"},
      {R"~(tostring(dyn))~", R"~(unknown "string")~"},
      {R"~(tostring([]))~",
       R"~(!! Invalid function argument | Invalid value for "v" parameter: cannot convert tuple to string.)~"},
      {R"~(tostring({}))~",
       R"~(!! Invalid function argument | Invalid value for "v" parameter: cannot convert object to string.)~"},
      {R"~(tostring(sec))~", R"~("secret" "string" marks=sensitive)~"},
      {R"~(tobool("a"))~",
       R"~(!! Invalid function argument | Invalid value for "v" parameter: cannot convert "a" to bool; only the strings "true" or "false" are allowed.)~"},
      {R"~(tobool(mk))~",
       R"~(!! Invalid function argument | Invalid value for "v" parameter: cannot convert "x" to bool; only the strings "true" or "false" are allowed.)~"},
      {R"~(tobool(sensitive("a")))~",
       R"~(!! Invalid function argument | Invalid value for "v" parameter: cannot convert this sensitive string to bool.)~"},
      {R"~(tobool("true"))~", R"~(true "bool")~"},
      {R"~(tobool(us))~", R"~(unknown "bool")~"},
      {R"~(tobool(ns))~", R"~(null "bool")~"},
      {R"~(tobool(null))~", R"~(null "bool")~"},
      {R"~(tobool(5))~",
       R"~(!! Invalid function argument | Invalid value for "v" parameter: cannot convert number to bool.)~"},
      {R"~(tonumber("a"))~",
       R"~(!! Invalid function argument | Invalid value for "v" parameter: cannot convert "a" to number; given string must be a decimal representation of a number.)~"},
      {R"~(tonumber(mk))~",
       R"~(!! Invalid function argument | Invalid value for "v" parameter: cannot convert "x" to number; given string must be a decimal representation of a number.)~"},
      {R"~(tonumber(sensitive("a")))~",
       R"~(!! Invalid function argument | Invalid value for "v" parameter: cannot convert this sensitive string to number.)~"},
      {R"~(tonumber(ns))~", R"~(null "number")~"},
      {R"~(tonumber("12"))~", R"~(12 "number")~"},
      {R"~(tonumber(ub))~",
       R"~(!! Invalid function argument | Invalid value for "v" parameter: cannot convert bool to number.)~"},
      {R"~(tonumber(dyn))~", R"~(unknown "number")~"},
      {R"~(tolist(["hello", true]))~", R"~(["hello","true"] ["list","string"])~"},
      {R"~(tolist(["hello", sec]))~", R"~(["hello","secret"] ["list","string"] marks=sensitive)~"},
      {R"~(tolist(secl))~", R"~([1,2] ["list","number"] marks=sensitive)~"},
      {R"~(tolist([1, {}]))~",
       R"~(!! Invalid function argument | Invalid value for "v" parameter: cannot convert tuple to list of any single type.)~"},
      {R"~(tolist(utup))~", R"~(unknown ["list","dynamic"])~"},
      {R"~(tolist(dyn))~", R"~(unknown ["list","dynamic"])~"},
      {R"~(toset(["hello", true]))~", R"~(["hello","true"] ["set","string"])~"},
      {R"~(toset(["a", "a"]))~", R"~(["a"] ["set","string"])~"},
      {R"~(tomap({foo = "hello", bar = true}))~",
       R"~({"bar":"true","foo":"hello"} ["map","string"])~"},
      {R"~(tomap({foo = "hello", bar = sec}))~",
       R"~({"bar":"secret","foo":"hello"} ["map","string"] marks=sensitive)~"},
      {R"~(tomap({a = [1], b = true}))~",
       R"~(!! Invalid function argument | Invalid value for "v" parameter: cannot convert object to map of any single type.)~"},
      {R"~(tomap([]))~",
       R"~(!! Invalid function argument | Invalid value for "v" parameter: cannot convert tuple to map of any single type.)~"},
      {R"~(tomap(null))~", R"~(null ["map","dynamic"])~"},
      {R"~(tostring())~",
       R"~(!! Not enough function arguments | Function "tostring" expects 1 argument(s). Missing value for "v".)~"},
      {R"~(tostring("a", "b"))~",
       R"~(!! Too many function arguments | Function "tostring" expects only 1 argument(s).)~"},
      {R"~(tostring(sensitive(us)))~", R"~(unknown "string" marks=sensitive)~"},
      {R"~(tolist(sensitive(dyn)))~", R"~(unknown ["list","dynamic"] marks=sensitive)~"},
      {R"~(tonumber(sensitive(ns)))~", R"~(null "number" marks=sensitive)~"},
  };
  check(cases);
}

TEST(TerraformFuncsTest, Type) {
  const Case cases[] = {
      {R"~(type("a"))~", R"~("string" "string")~"},
      {R"~(type(42))~", R"~("number" "string")~"},
      {R"~(type(true))~", R"~("bool" "string")~"},
      {R"~(type({}))~", R"~("object({})" "string")~"},
      {R"~(type([]))~", R"~("tuple([])" "string")~"},
      {R"~(type(tolist([])))~", R"~("list(dynamic)" "string")~"},
      {R"~(type(tomap({})))~", R"~("map(dynamic)" "string")~"},
      {R"~(type(toset([])))~", R"~("set(dynamic)" "string")~"},
      {R"~(type(tolist([tolist([42])])))~", R"~("list(list(number))" "string")~"},
      {R"~(type(tolist([tomap({})])))~", R"~("list(map(dynamic))" "string")~"},
      {R"~(type([{foo = "bar"}]))~",
       R"~("tuple([\n    object({\n        foo: string,\n    }),\n])" "string")~"},
      {R"~(type(tolist([{foo = "bar"}])))~",
       R"~("list(\n    object({\n        foo: string,\n    }),\n)" "string")~"},
      {R"~(type(us))~", R"~("string" "string")~"},
      {R"~(type(dyn))~", R"~("dynamic" "string")~"},
      {R"~(type(null))~", R"~("dynamic" "string")~"},
      {R"~(type({a = [1, "x"], b = {c = null}}))~",
       R"~("object({\n    a: tuple([\n        number,\n        string,\n    ]),\n    b: object({\n        c: dynamic,\n    }),\n})" "string")~"},
      {R"~(type(tomap({a = [true]})))~",
       R"~("map(\n    tuple([\n        bool,\n    ]),\n)" "string")~"},
      {R"~(type(sec))~", R"~("string" "string" marks=sensitive)~"},
      {R"~(type())~",
       R"~(!! Not enough function arguments | Function "type" expects 1 argument(s). Missing value for "value".)~"},
  };
  check(cases);
}

TEST(TerraformFuncsTest, Sensitive) {
  const Case cases[] = {
      {R"~(sensitive(1))~", R"~(1 "number" marks=sensitive)~"},
      {R"~(sensitive(us))~", R"~(unknown "string" marks=sensitive)~"},
      {R"~(sensitive(ns))~", R"~(null "string" marks=sensitive)~"},
      {R"~(sensitive(dyn))~", R"~(unknown "dynamic" marks=sensitive)~"},
      {R"~(sensitive([1]))~", R"~([1] ["tuple",["number"]] marks=sensitive)~"},
      {R"~(sensitive(sec))~", R"~("secret" "string" marks=sensitive)~"},
      {R"~(sensitive(mk))~", R"~("x" "string" marks=other,sensitive)~"},
      {R"~(sensitive())~",
       R"~(!! Not enough function arguments | Function "sensitive" expects 1 argument(s). Missing value for "value".)~"},
      {R"~(nonsensitive(sec))~", R"~("secret" "string")~"},
      {R"~(nonsensitive(secn))~", R"~(5 "number")~"},
      {R"~(nonsensitive(sensitive(us)))~", R"~(unknown "string")~"},
      {R"~(nonsensitive(sensitive(ns)))~", R"~(null "string")~"},
      {R"~(nonsensitive(1))~", R"~(1 "number")~"},
      {R"~(nonsensitive(mk))~", R"~("x" "string" marks=other)~"},
      {R"~(nonsensitive(sl))~", R"~(["a","b"] ["list","string"] marks=sensitive)~"},
      {R"~(nonsensitive(dyn))~", R"~(unknown "dynamic")~"},
      {R"~(nonsensitive(sensitive(mk)))~", R"~("x" "string" marks=other)~"},
      {R"~(nonsensitive())~",
       R"~(!! Not enough function arguments | Function "nonsensitive" expects 1 argument(s). Missing value for "value".)~"},
      {R"~(issensitive(sec))~", R"~(true "bool")~"},
      {R"~(issensitive(1))~", R"~(false "bool")~"},
      {R"~(issensitive(us))~", R"~(unknown "bool")~"},
      {R"~(issensitive(sensitive(us)))~", R"~(true "bool")~"},
      {R"~(issensitive(sl))~", R"~(false "bool")~"},
      {R"~(issensitive(secl))~", R"~(true "bool")~"},
      {R"~(issensitive(ns))~", R"~(false "bool")~"},
      {R"~(issensitive(dyn))~", R"~(unknown "bool")~"},
      {R"~(issensitive(mk))~", R"~(false "bool")~"},
      {R"~(issensitive())~",
       R"~(!! Not enough function arguments | Function "issensitive" expects 1 argument(s). Missing value for "value".)~"},
      {R"~(issensitive(sensitive(null)))~", R"~(true "bool")~"},
      {R"~(nonsensitive(sensitive([sec])))~",
       R"~(["secret"] ["tuple",["string"]] marks=sensitive)~"},
  };
  check(cases);
}
// --- what the table of results cannot show ------------------------------------

// An unknown string known to start with [prefix].
Value prefixed(std::string_view prefix) {
  return refine(Value::unknown(Type::string())).not_null().string_prefix(prefix).new_value();
}

TEST(TerraformFuncsTest, UnknownResultsAreRefinedAsTerraformRefinesThem) {
  // Refined as not null: the functions Terraform gives RefineResult.
  for (std::string_view src :
       {"sum(un)", "alltrue([ub])", "anytrue([ub])", "coalesce(ub, true)", "index([un], 1)",
        "length(dyn)", "matchkeys(ul, [\"a\"], [\"a\"])", "transpose({a = [us]})",
        "startswith(us, \"a\")", "endswith(us, \"a\")", "replace(us, \"a\", \"b\")",
        "templatestring(us, {})"}) {
    SCOPED_TRACE(src);
    Value v = value_of(src);
    ASSERT_FALSE(v.is_known());
    EXPECT_TRUE(v.refinement().not_null);
  }
  // Not refined: Terraform gives these no RefineResult.
  for (std::string_view src : {"strcontains(us, \"a\")", "issensitive(us)", "one(ul)",
                               "lookup(tomap({a = us}), \"a\")", "tostring(us)"}) {
    SCOPED_TRACE(src);
    Value v = value_of(src);
    ASSERT_FALSE(v.is_known());
    EXPECT_FALSE(v.refinement().not_null);
  }
}

TEST(TerraformFuncsTest, LengthOfUnknownsIsBounded) {
  EvalContext ctx = make_context(std::make_shared<const FunctionTable>(standard_functions()));
  ctx.set("px", prefixed("abc"));
  ctx.set("pl", refine(Value::unknown(Type::list(Type::string())))
                    .collection_length_lower_bound(2)
                    .collection_length_upper_bound(5)
                    .new_value());
  // A string is at least as long as its known prefix (cty's strlen).
  Value n = value_of("length(px)", ctx);
  ASSERT_FALSE(n.is_known());
  EXPECT_TRUE(n.refinement().not_null);
  ASSERT_TRUE(n.refinement().has_lower);
  EXPECT_TRUE(n.refinement().lower_inclusive);
  int64_t want = int64_t(value_range(prefixed("abc")).string_prefix().size());
  EXPECT_TRUE(ops::number_equal(n.refinement().lower, Number::from_int(want)));
  // A collection's length lies within its length bounds.
  n = value_of("length(pl)", ctx);
  ASSERT_FALSE(n.is_known());
  ASSERT_TRUE(n.refinement().has_lower && n.refinement().has_upper);
  EXPECT_TRUE(ops::number_equal(n.refinement().lower, Number::from_int(2)));
  EXPECT_TRUE(ops::number_equal(n.refinement().upper, Number::from_int(5)));
  // A tuple's or an object's length is known from its type alone.
  EXPECT_EQ(show(value_of("length(utup)", ctx)), R"(1 "number")");
}

TEST(TerraformFuncsTest, StartsWithReadsTheKnownPrefix) {
  // Terraform's own cases for an unknown string known to start with "https:".
  EvalContext ctx = make_context(std::make_shared<const FunctionTable>(standard_functions()));
  ctx.set("url", prefixed("https:"));
  EXPECT_EQ(eval(R"(startswith(url, ""))", ctx), R"(true "bool")");
  EXPECT_EQ(eval(R"(startswith(url, "a"))", ctx), R"(false "bool")");
  EXPECT_EQ(eval(R"(startswith(url, "ht"))", ctx), R"(true "bool")");
  EXPECT_EQ(eval(R"(startswith(url, "https:"))", ctx), R"(true "bool")");
  EXPECT_EQ(eval(R"(startswith(url, "https-"))", ctx), R"(false "bool")");
  Value v = value_of(R"(startswith(url, "https://"))", ctx);
  ASSERT_FALSE(v.is_known());
  EXPECT_TRUE(v.refinement().not_null);
  // Prefixes compare as bytes, not as grapheme clusters.
  EXPECT_EQ(eval("startswith(\"\\U0001f937\\u200d\\u2642\", \"\\U0001f937\")", ctx),
            R"(true "bool")");
}

TEST(TerraformFuncsTest, MarksStayWhereTerraformPutsThem) {
  // The to* functions convert marked elements in place.
  Value l = value_of(R"(tolist(["hello", sec]))");
  EXPECT_FALSE(l.is_marked());
  EXPECT_FALSE(l.element(0).is_marked());
  EXPECT_TRUE(l.element(1).marks().has("sensitive"));
  EXPECT_TRUE(value_of("tolist(secl)").marks().has("sensitive"));
  // An unknown keeps its marks through a conversion.
  EvalContext ctx = make_context(std::make_shared<const FunctionTable>(standard_functions()));
  ctx.set("mu", Value::unknown(Type::string()).mark("other"));
  Value u = value_of("tobool(mu)", ctx);
  EXPECT_FALSE(u.is_known());
  EXPECT_EQ(u.type(), Type::boolean());
  EXPECT_TRUE(u.marks().has("other"));
  // sensitive marks the value itself and leaves marks inside alone;
  // nonsensitive takes off only the outer sensitive mark.
  Value s = value_of("sensitive(sl)");
  EXPECT_TRUE(s.marks().has("sensitive"));
  EXPECT_TRUE(s.unmark().element(0).marks().has("sensitive"));
  EXPECT_FALSE(s.unmark().element(1).is_marked());
  Value n = value_of("nonsensitive(sensitive(sl))");
  EXPECT_FALSE(n.is_marked());
  EXPECT_TRUE(n.element(0).marks().has("sensitive"));
  // lookup marks the result with the map's and the key's marks only.
  Value k = value_of(R"(lookup({a = sec, b = 1}, "b"))");
  EXPECT_FALSE(k.is_marked());
  // transpose gathers every mark on its result, as it takes no marks.
  Value t = value_of("transpose({a = sl})");
  EXPECT_TRUE(t.marks().has("sensitive"));
  EXPECT_FALSE(t.unmark().map_value(0).is_marked());
}

TEST(TerraformFuncsTest, TemplatesCannotReachTemplateOrFilesystemFunctions) {
  // A table with functions standing for the filesystem ones, and
  // templatestring added last, as standard_functions() adds it.
  FunctionTable t = standard_functions();
  Function file;
  file.params = {funcs::param("path", Type::string())};
  file.returns(Type::string());
  file.impl = [](std::span<const Value>, const Type*) {
    return FuncResult::of(Value::string("contents"));
  };
  Function templatefile = file;
  templatefile.var_param = funcs::param("vars", Type::dynamic());
  funcs::add(t, "file", file);
  funcs::add(t, "core::file", file);
  funcs::add(t, "templatefile", templatefile);
  funcs::add_templatestring_function(t);
  EvalContext ctx = make_context(std::make_shared<const FunctionTable>(t));
  EXPECT_EQ(eval(R"(file("x"))", ctx), R"("contents" "string")");
  EXPECT_EQ(eval(R"(templatestring(tpl.file, {}))", ctx),
            R"(!! Error in function call | Call to function "templatestring" failed: )"
            R"(<templatestring argument>:1,3-8: Error in function call; Call to function "file" )"
            R"(failed: cannot use filesystem access functions like file in templatestring )"
            R"(templates; consider passing the function result as a template variable instead..)");
  EXPECT_EQ(eval(R"(templatestring(tpl.core_file, {}))", ctx),
            R"(!! Error in function call | Call to function "templatestring" failed: )"
            R"(<templatestring argument>:1,3-14: Error in function call; Call to function )"
            R"("core::file" failed: cannot use filesystem access functions like file in )"
            R"(templatestring templates; consider passing the function result as a template )"
            R"(variable instead..)");
  EXPECT_EQ(eval(R"(templatestring(tpl.templatefile, {}))", ctx),
            R"(!! Error in function call | Call to function "templatestring" failed: )"
            R"(<templatestring argument>:1,3-16: Error in function call; Call to function )"
            R"("templatefile" failed: cannot recursively call templatefile from inside another )"
            R"(template function..)");
  // Everything else is there.
  EXPECT_EQ(eval(R"(templatestring(tpl.sum, {}))", ctx), R"("3" "string")");
}

TEST(TerraformFuncsTest, TablesDifferWhereTerraformDiffers) {
  FunctionTable std_fns = standard_functions();
  FunctionTable cty_fns = default_functions();
  for (std::string_view name :
       {"alltrue", "anytrue", "endswith", "index", "issensitive", "list", "map", "matchkeys",
        "nonsensitive", "one", "sensitive", "startswith", "strcontains", "sum", "templatestring",
        "transpose", "type"}) {
    SCOPED_TRACE(name);
    ASSERT_NE(std_fns.find(name), nullptr);
    EXPECT_FALSE(std_fns.find(name)->description.empty());
    EXPECT_EQ(cty_fns.find(name), nullptr);
  }
  // Terraform has no strlen (length counts strings).
  EXPECT_EQ(std_fns.find("strlen"), nullptr);
  EXPECT_NE(cty_fns.find("strlen"), nullptr);
  // The reference's own tools keep go-cty's versions.
  EvalContext cty_ctx = make_context(std::make_shared<const FunctionTable>(cty_fns));
  EXPECT_EQ(eval(R"(coalesce("", "a"))", cty_ctx), R"("" "string")");
  EXPECT_EQ(eval(R"(replace("hello", "/l/", "L"))", cty_ctx), R"("hello" "string")");
  EXPECT_EQ(eval(R"(lookup({a = 1}, "a"))", cty_ctx),
            R"(!! Not enough function arguments | Function "lookup" expects 3 argument(s). )"
            R"(Missing value for "default".)");
  // Parameter names, which errors name.
  EXPECT_EQ(std_fns.find("lookup")->var_param->name, "default");
  EXPECT_EQ(std_fns.find("templatestring")->params[0].name, "template");
  EXPECT_EQ(std_fns.find("matchkeys")->params[2].name, "searchset");
}

}  // namespace
}  // namespace hclvm
