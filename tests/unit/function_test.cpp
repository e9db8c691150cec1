// Tests of the calling convention (Function::return_type and call, as
// go-cty's ReturnTypeForValues and Call): argument counts, nulls, the
// dynamic pseudo-type, type conformance, unknown arguments, marks, result
// conformance and refinement; and of FunctionTable.
#include "hclvm/function.h"
#include "hclvm/functions.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "value/ops.h"

namespace hclvm {
namespace {

// A parameter named [name] of type [t] with the given allowances.
Param P(std::string name, const Type* t, bool null = false, bool unknown = false,
        bool dynamic = false, bool marked = false) {
  Param p;
  p.name = std::move(name);
  p.type = t;
  p.allow_null = null;
  p.allow_unknown = unknown;
  p.allow_dynamic_type = dynamic;
  p.allow_marked = marked;
  return p;
}

// A function of one string parameter [p] that returns its argument
// upper-cased, recording what its type function and implementation saw.
struct Recorder {
  std::vector<Value> type_saw, impl_saw;
  Function f;

  explicit Recorder(Param p, const Type* ret = Type::string()) {
    f.params = {std::move(p)};
    f.type = [this, ret](std::span<const Value> args) {
      type_saw.assign(args.begin(), args.end());
      return TypeResult{ret, std::nullopt};
    };
    f.impl = [this](std::span<const Value> args, const Type*) {
      impl_saw.assign(args.begin(), args.end());
      return FuncResult::of(Value::string("ok"));
    };
  }
};

TEST(FunctionTest, StaticReturn) {
  Function::TypeFn t = Function::static_return(Type::number());
  TypeResult r = t({});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.type, Type::number());
}

TEST(FunctionTest, WrongArgumentCounts) {
  Function f;
  f.params = {P("a", Type::string()), P("b", Type::string())};
  f.type = Function::static_return(Type::string());
  std::vector<Value> one = {Value::string("x")};
  TypeResult r = f.return_type(one);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->message, "wrong number of arguments (2 required; 1 given)");
  EXPECT_EQ(r.error->arg, -1);

  f.var_param = P("rest", Type::string());
  r = f.return_type(one);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->message, "wrong number of arguments (at least 2 required; 1 given)");
  std::vector<Value> three = {Value::string("x"), Value::string("y"), Value::string("z")};
  EXPECT_TRUE(f.return_type(three).ok());
}

TEST(FunctionTest, NullArguments) {
  Recorder r(P("s", Type::string()));
  std::vector<Value> args = {Value::null(Type::string())};
  FuncResult res = r.f.call(args);
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.error->message, "argument must not be null");
  EXPECT_EQ(res.error->arg, 0);
  EXPECT_TRUE(r.impl_saw.empty());

  // A null in a variadic position reports its own index.
  Function v;
  v.params = {P("a", Type::string())};
  v.var_param = P("rest", Type::string());
  v.type = Function::static_return(Type::string());
  v.impl = [](std::span<const Value>, const Type*) { return FuncResult::of(Value::string("")); };
  std::vector<Value> vargs = {Value::string("a"), Value::string("b"), Value::null(Type::string())};
  res = v.call(vargs);
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.error->arg, 2);

  Recorder ok(P("s", Type::string(), /*null=*/true));
  res = ok.f.call(args);
  ASSERT_TRUE(res.ok());
  ASSERT_EQ(ok.impl_saw.size(), 1u);
  EXPECT_TRUE(ok.impl_saw[0].is_null());
}

TEST(FunctionTest, DynamicTypedArguments) {
  // Not accepted: the return type is dynamic and the type function is not
  // asked; the unknown argument then makes the result DynamicVal.
  Recorder r(P("s", Type::string()));
  std::vector<Value> args = {Value::dynamic()};
  TypeResult t = r.f.return_type(args);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t.type, Type::dynamic());
  EXPECT_TRUE(r.type_saw.empty());
  FuncResult res = r.f.call(args);
  ASSERT_TRUE(res.ok());
  EXPECT_FALSE(res.value.is_known());
  EXPECT_EQ(res.value.type(), Type::dynamic());
  EXPECT_TRUE(r.impl_saw.empty());

  // A known null of the dynamic type (a plain `null`) where nulls are
  // allowed but the dynamic type is not: since go-cty 1.13.1 the function
  // is not called at all and the result is cty.DynamicVal (contains(x,
  // null) in go-cty 1.18.1).
  Recorder n(P("s", Type::string(), /*null=*/true));
  std::vector<Value> nargs = {Value::null(Type::dynamic())};
  t = n.f.return_type(nargs);
  ASSERT_TRUE(t.ok());
  EXPECT_TRUE(t.dynamic_args);
  res = n.f.call(nargs);
  ASSERT_TRUE(res.ok());
  EXPECT_TRUE(n.impl_saw.empty());
  EXPECT_FALSE(res.value.is_known());
  EXPECT_EQ(res.value.type(), Type::dynamic());

  // The same for an unknown of no type where unknowns are allowed.
  Recorder u(P("s", Type::string(), false, /*unknown=*/true));
  res = u.f.call(args);
  ASSERT_TRUE(res.ok());
  EXPECT_TRUE(u.impl_saw.empty());
  EXPECT_EQ(res.value.type(), Type::dynamic());
  EXPECT_FALSE(res.value.is_known());

  // Accepted: the type function decides.
  Recorder d(P("s", Type::string(), false, /*unknown=*/true, /*dynamic=*/true));
  t = d.f.return_type(args);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t.type, Type::string());
  EXPECT_EQ(d.type_saw.size(), 1u);
}

TEST(FunctionTest, TypeConformance) {
  Recorder r(P("s", Type::string()));
  std::vector<Value> args = {Value::integer(1)};
  FuncResult res = r.f.call(args);
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.error->message, "string required, but received number");
  EXPECT_EQ(res.error->arg, 0);

  Recorder o(P("o", Type::object(std::vector<TypeAttr>{{"a", Type::string()}})));
  std::vector<Value> obj = {Value::object({{"b", Value::string("x")}})};
  res = o.f.call(obj);
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.error->message, "unsupported attribute \"b\"");

  std::vector<Value> wrong_attr = {Value::object({{"a", Value::integer(1)}})};
  res = o.f.call(wrong_attr);
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.error->message, "string required, but received number");

  Recorder tup(P("t", Type::tuple(std::vector<const Type*>{Type::string()})));
  std::vector<Value> two = {Value::tuple({Value::string("a"), Value::string("b")})};
  res = tup.f.call(two);
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.error->message, "1 elements are required, but got 2");

  // Dynamic in the parameter type matches anything at that place.
  Recorder l(P("l", Type::list(Type::dynamic())));
  std::vector<Value> list = {Value::list(Type::number(), {Value::integer(1)})};
  EXPECT_TRUE(l.f.call(list).ok());
}

TEST(FunctionTest, UnknownArguments) {
  Recorder r(P("s", Type::string()));
  std::vector<Value> args = {Value::unknown(Type::string())};
  FuncResult res = r.f.call(args);
  ASSERT_TRUE(res.ok());
  EXPECT_FALSE(res.value.is_known());
  EXPECT_EQ(res.value.type(), Type::string());
  EXPECT_TRUE(r.impl_saw.empty());
  EXPECT_FALSE(res.value.refinement().not_null);  // no RefineResult

  r.f.result_not_null = true;
  res = r.f.call(args);
  ASSERT_TRUE(res.ok());
  EXPECT_FALSE(res.value.is_known());
  EXPECT_TRUE(res.value.refinement().not_null);

  // The type function sees unknowns even where they are not accepted.
  EXPECT_EQ(r.type_saw.size(), 1u);
  EXPECT_FALSE(r.type_saw[0].is_known());

  Recorder u(P("s", Type::string(), false, /*unknown=*/true));
  res = u.f.call(args);
  ASSERT_TRUE(res.ok());
  EXPECT_TRUE(res.value.is_known());
  ASSERT_EQ(u.impl_saw.size(), 1u);
  EXPECT_FALSE(u.impl_saw[0].is_known());

  // A nested unknown is not the argument being unknown.
  Recorder l(P("l", Type::list(Type::string())));
  std::vector<Value> nested = {Value::list(Type::string(), {Value::unknown(Type::string())})};
  res = l.f.call(nested);
  ASSERT_TRUE(res.ok());
  EXPECT_EQ(l.impl_saw.size(), 1u);
}

TEST(FunctionTest, MarksRemovedAndReapplied) {
  Recorder r(P("s", Type::string()));
  std::vector<Value> args = {Value::string("x").mark("sensitive")};
  FuncResult res = r.f.call(args);
  ASSERT_TRUE(res.ok());
  ASSERT_EQ(r.impl_saw.size(), 1u);
  EXPECT_FALSE(r.impl_saw[0].is_marked());
  EXPECT_FALSE(r.type_saw[0].is_marked());
  EXPECT_TRUE(res.value.marks().has("sensitive"));

  // Deep marks are removed too and come out on the result.
  Recorder l(P("l", Type::list(Type::string())));
  std::vector<Value> deep = {Value::list(Type::string(), {Value::string("a").mark("deep")})};
  res = l.f.call(deep);
  ASSERT_TRUE(res.ok());
  EXPECT_FALSE(l.impl_saw[0].contains_marked());
  EXPECT_TRUE(res.value.marks().has("deep"));

  // A parameter that accepts marks sees them, and the result is left to
  // the implementation.
  Recorder m(P("s", Type::string(), false, false, false, /*marked=*/true));
  res = m.f.call(args);
  ASSERT_TRUE(res.ok());
  EXPECT_TRUE(m.impl_saw[0].is_marked());
  EXPECT_TRUE(m.type_saw[0].is_marked());
  EXPECT_FALSE(res.value.is_marked());
}

// go-cty 1.15.1+ (its own test "params-partial-marks"): the unknown result
// of a function not called carries the marks of the arguments whose
// parameters do not take marks, not those of the others.
TEST(FunctionTest, UnknownResultCarriesMarksOfParametersWithoutMarks) {
  Function f;
  f.params = {P("a", Type::string(), false, false, false, /*marked=*/true), P("b", Type::string())};
  f.type = Function::static_return(Type::number());
  f.impl = [](std::span<const Value>, const Type*) { return FuncResult::of(Value::integer(1)); };
  std::vector<Value> args = {Value::string("x").mark("m1"),
                             Value::unknown(Type::string()).mark("m2")};
  FuncResult res = f.call(args);
  ASSERT_TRUE(res.ok());
  EXPECT_FALSE(res.value.is_known());
  EXPECT_EQ(res.value.type(), Type::number());
  EXPECT_FALSE(res.value.marks().has("m1"));
  EXPECT_TRUE(res.value.marks().has("m2"));
}

TEST(FunctionTest, ErrorsFromImplementation) {
  Function f;
  f.params = {P("a", Type::string())};
  f.type = Function::static_return(Type::string());
  f.impl = [](std::span<const Value>, const Type*) { return FuncResult::fail("bad thing", 0); };
  std::vector<Value> args = {Value::string("x").mark("s")};
  FuncResult res = f.call(args);
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.error->message, "bad thing");
  EXPECT_EQ(res.error->arg, 0);

  // An error from the type function stops the call.
  f.type = [](std::span<const Value>) { return TypeResult{nullptr, FuncError{"no type", -1}}; };
  res = f.call(args);
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.error->message, "no type");
}

TEST(FunctionTest, NonConformingResultIsAnError) {
  Function f;
  f.params = {P("a", Type::string())};
  f.type = Function::static_return(Type::string());
  f.impl = [](std::span<const Value>, const Type*) { return FuncResult::of(Value::integer(1)); };
  std::vector<Value> args = {Value::string("x")};
  FuncResult res = f.call(args);
  ASSERT_FALSE(res.ok());
  EXPECT_NE(res.error->message.find("does not conform to expected return type"), std::string::npos);
  EXPECT_NE(res.error->message.find("string required, but received number"), std::string::npos);

  // Anything conforms to a dynamic return type.
  f.type = Function::static_return(Type::dynamic());
  EXPECT_TRUE(f.call(args).ok());
}

TEST(FunctionTest, RefineResult) {
  Function f;
  f.params = {P("a", Type::string(), false, /*unknown=*/true, /*dynamic=*/true)};
  f.type = [](std::span<const Value> args) {
    return TypeResult{args[0].type()->is_dynamic() ? Type::dynamic() : Type::string(),
                      std::nullopt};
  };
  f.impl = [](std::span<const Value>, const Type* ret) {
    return FuncResult::of(Value::unknown(ret));
  };
  f.result_not_null = true;
  std::vector<Value> args = {Value::unknown(Type::string())};
  FuncResult res = f.call(args);
  ASSERT_TRUE(res.ok());
  EXPECT_TRUE(res.value.refinement().not_null);
  // An unknown of the dynamic type is left alone.
  std::vector<Value> dyn = {Value::dynamic()};
  res = f.call(dyn);
  ASSERT_TRUE(res.ok());
  EXPECT_EQ(res.value.type(), Type::dynamic());
  EXPECT_FALSE(res.value.is_known());
  EXPECT_TRUE(res.value.refinement().empty());
}

TEST(FunctionTest, Table) {
  FunctionTable t;
  EXPECT_EQ(t.find("f"), nullptr);
  auto f = std::make_shared<Function>();
  f->description = "first";
  t.add("f", f);
  t.add("ns::g", std::make_shared<Function>());
  ASSERT_NE(t.find("f"), nullptr);
  EXPECT_EQ(t.find("f")->description, "first");
  EXPECT_NE(t.find("ns::g"), nullptr);
  auto f2 = std::make_shared<Function>();
  f2->description = "second";
  t.add("f", f2);
  EXPECT_EQ(t.find("f")->description, "second");
  EXPECT_EQ(t.size(), 2u);
  std::vector<std::string_view> names = t.names();
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[0], "f");
  EXPECT_EQ(names[1], "ns::g");
  t.remove("f");
  t.remove("missing");
  EXPECT_EQ(t.find("f"), nullptr);
  EXPECT_EQ(t.size(), 1u);
}

TEST(FunctionTest, DefaultFunctions) {
  FunctionTable t = default_functions();
  for (const char* name :
       {"upper",     "lower",   "join",       "reverse",    "split",   "max",      "min",
        "abs",       "floor",   "ceil",       "lookup",     "merge",   "length",   "keys",
        "values",    "format",  "jsonencode", "jsondecode", "regex",   "tostring", "tonumber",
        "tobool",    "tolist",  "toset",      "tomap",      "concat",  "contains", "coalesce",
        "element",   "flatten", "range",      "distinct",   "compact", "zipmap",   "chomp",
        "trimspace", "title",   "substr",     "strrev",     "sort",    "try",      "can"}) {
    EXPECT_NE(t.find(name), nullptr) << name;
  }
  EXPECT_EQ(t.find("try")->special, Function::Special::Try);
  EXPECT_EQ(t.find("can")->special, Function::Special::Can);
  EXPECT_EQ(t.find("upper")->special, Function::Special::None);
  EXPECT_TRUE(t.find("try")->var_param.has_value());
  ASSERT_EQ(t.find("can")->params.size(), 1u);
  EXPECT_EQ(t.find("can")->params[0].name, "expression");
}

}  // namespace
}  // namespace hclvm
