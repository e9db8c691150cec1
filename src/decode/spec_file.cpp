// The hcldec command's spec language (include/hclvm/hcldec.h
// load_spec_file): spec blocks read into Specs exactly as the reference's
// cmd/hcldec/spec.go reads them — its arguments decoded as its gohcl struct
// tags say, type expressions evaluated against an evaluation context of
// type values and constructor functions (cmd/hcldec/type_expr.go), and its
// diagnostics. One addition: `block_attrs` spec blocks, which the
// reference's decoder library has but its spec schema leaves out.
#include <hclvm/hcldec.h>
#include <hclvm/userfunc.h>
#include <hclvm/functions.h>

#include <map>
#include <optional>

#include "funcs/funcs.h"
#include "value/convert.h"
#include "value/ops.h"

namespace hclvm::hcldec {

namespace {

using funcs::kDynamic;
using funcs::param;

// --- the functions of spec expressions -------------------------------------------

// cty's LengthFunc: collections and tuples only.
Function length_fn() {
  Function f;
  f.params = {param("collection", Type::dynamic(), kDynamic | funcs::kMarked)};
  f.type = [](std::span<const Value> args) {
    const Type* t = args[0].type();
    if (t->is_tuple() || t->is_list() || t->is_map() || t->is_set() || t->is_dynamic())
      return funcs::type_ok(Type::number());
    return funcs::type_error("collection must be a list, a map or a tuple");
  };
  f.impl = [](std::span<const Value> args, const Type*) {
    auto [v, marks] = args[0].unmark_with_marks();
    ops::Result r = ops::length(v);
    if (!r.ok()) return FuncResult::fail(r.error);
    return FuncResult::of(r.value.mark(marks));
  };
  f.result_not_null = true;
  return f;
}

// cty's HasIndexFunc.
Function hasindex_fn() {
  Function f;
  f.params = {param("collection", Type::dynamic(), kDynamic),
              param("key", Type::dynamic(), kDynamic)};
  f.type = [](std::span<const Value> args) {
    const Type* t = args[0].type();
    if (t->is_tuple() || t->is_list() || t->is_map() || t->is_dynamic())
      return funcs::type_ok(Type::boolean());
    return funcs::type_error("collection must be a list, a map or a tuple");
  };
  f.impl = [](std::span<const Value> args, const Type*) {
    ops::Result r = ops::has_index(args[0], args[1]);
    if (!r.ok()) return FuncResult::fail(r.error);
    return FuncResult::of(r.value);
  };
  f.result_not_null = true;
  return f;
}

// cty's IntFunc: the integer part, rounding towards zero.
Function int_fn() {
  Function f;
  f.params = {param("num", Type::number(), kDynamic)};
  f.returns(Type::number());
  f.impl = [](std::span<const Value> args, const Type*) {
    Number n = args[0].as_number();
    if (n.is_integer() || n.is_inf()) return FuncResult::of(args[0]);
    return FuncResult::of(Value::number(n.trunc()));
  };
  f.result_not_null = true;
  return f;
}

std::shared_ptr<const FunctionTable> make_spec_functions() {
  const FunctionTable all = default_functions();
  auto t = std::make_shared<FunctionTable>();
  for (const char* name : {"abs", "coalesce", "concat", "jsondecode", "jsonencode", "lower", "max",
                           "min", "strlen", "substr", "upper"}) {
    const Function* f = all.find(name);
    t->add(name, std::make_shared<Function>(*f));
  }
  // go-cty's reverse reverses a string.
  t->add("reverse", std::make_shared<Function>(*all.find("strrev")));
  t->add("length", std::make_shared<Function>(length_fn()));
  t->add("hasindex", std::make_shared<Function>(hasindex_fn()));
  t->add("int", std::make_shared<Function>(int_fn()));
  return t;
}

const std::shared_ptr<const FunctionTable>& spec_function_table() {
  static const std::shared_ptr<const FunctionTable> t = make_spec_functions();
  return t;
}

// The context of spec expressions: the spec functions, no variables.
std::shared_ptr<const EvalContext> spec_context() {
  static const std::shared_ptr<const EvalContext> ctx = [] {
    auto c = std::make_shared<EvalContext>();
    c->set_functions(spec_function_table());
    c->set_variables_allowed(false);
    return c;
  }();
  return ctx;
}

// --- type expressions -------------------------------------------------------------

bool same_payload(const void* a, const void* b) { return a == b; }
const CapsuleOps kTypeOps{&same_payload, nullptr};

// The capsule type whose values are types.
const Type* type_type() {
  static const Type* t = Type::capsule("type", &kTypeOps);
  return t;
}

Value wrap_type(const Type* t) { return Value::capsule(type_type(), const_cast<Type*>(t)); }
const Type* unwrap_type(const Value& v) { return static_cast<const Type*>(v.capsule_payload()); }

// A constructor of types from one argument of type [arg].
std::shared_ptr<Function> type_constructor(const char* param_name, const Type* arg,
                                           const Type* (*build)(const Value&)) {
  auto f = std::make_shared<Function>();
  f->params = {param(param_name, arg)};
  f->returns(type_type());
  f->impl = [build](std::span<const Value> args, const Type*) {
    return FuncResult::of(wrap_type(build(args[0])));
  };
  return f;
}

// The context type expressions are evaluated in: the primitive type names
// as variables and the constructors as functions.
const EvalContext& type_context() {
  static const EvalContext ctx = [] {
    EvalContext c;
    c.set("string", wrap_type(Type::string()));
    c.set("bool", wrap_type(Type::boolean()));
    c.set("number", wrap_type(Type::number()));
    c.set("any", wrap_type(Type::dynamic()));
    auto t = std::make_shared<FunctionTable>();
    t->add("list", type_constructor("element_type", type_type(),
                                    [](const Value& v) { return Type::list(unwrap_type(v)); }));
    t->add("set", type_constructor("element_type", type_type(),
                                   [](const Value& v) { return Type::set(unwrap_type(v)); }));
    t->add("map", type_constructor("element_type", type_type(),
                                   [](const Value& v) { return Type::map(unwrap_type(v)); }));
    t->add("tuple", type_constructor("element_types", Type::list(type_type()), [](const Value& v) {
             std::vector<const Type*> elems;
             for (const Value& e : v.elements()) elems.push_back(unwrap_type(e));
             return Type::tuple(elems);
           }));
    t->add("object",
           type_constructor("attribute_types", Type::map(type_type()), [](const Value& v) {
             std::vector<TypeAttr> attrs;
             for (size_t i = 0; i < v.length(); ++i)
               attrs.push_back({v.map_key(i), unwrap_type(v.map_value(i))});
             return Type::object(attrs);
           }));
    c.set_functions(std::move(t));
    return c;
  }();
  return ctx;
}

// Evaluates the type expression [e] (absent: any type).
const Type* eval_type_expr(const Expression* e, Diagnostics& diags) {
  if (e == nullptr) return Type::dynamic();
  EvalResult r = e->value(&type_context());
  diags.insert(diags.end(), r.diagnostics.begin(), r.diagnostics.end());
  if (r.value.is_null()) return Type::dynamic();
  if (r.value.type() != type_type()) {
    Diagnostic d;
    d.summary = "Invalid type expression";
    d.detail = "A type is required, not " + r.value.type()->friendly_name() + ".";
    diags.push_back(std::move(d));
    return Type::dynamic();
  }
  // An unknown type (from an unknown-producing call) reads as any.
  if (!r.value.is_known()) return Type::dynamic();
  return unwrap_type(r.value);
}

// The type expression [e] of an `attr` or `block_attrs` spec. Read first
// as a type constraint with defaults (hclvm/typeexpr.h), which is how the
// spec language gains optional(T) and optional(T, default) in object types;
// what that does not accept is evaluated as the reference evaluates it, so
// its types and diagnostics are the reference's.
const Type* read_type(const Expression* e, Diagnostics& diags,
                      std::shared_ptr<const TypeDefaults>& defaults) {
  if (e != nullptr) {
    TypeExprResult r = parse_type_expr(*e, TypeExprMode::ConstraintWithDefaults);
    if (!has_errors(r.diagnostics)) {
      defaults = std::move(r.defaults);
      return r.type;
    }
  }
  return eval_type_expr(e, diags);
}

// --- spec block arguments ---------------------------------------------------------

// The arguments of one spec block, read as the reference's gohcl structs
// read them.
class Args {
 public:
  // Reads [names] from [body]; with [remain], the rest is kept as a body
  // for nested specs, otherwise anything else is an error. [required] names
  // the one argument that must be present (literal's value).
  Args(const Body& body, std::initializer_list<const char*> names, bool remain,
       const char* required = nullptr) {
    BodySchema schema;
    for (const char* n : names)
      schema.attributes.push_back({n, required && n == std::string(required)});
    // gohcl reads arguments in sorted order.
    std::sort(schema.attributes.begin(), schema.attributes.end(),
              [](const AttributeSchema& a, const AttributeSchema& b) { return a.name < b.name; });
    if (remain) {
      PartialContentResult c = body.partial_content(schema);
      content_ = std::move(c.content);
      remain_ = std::move(c.remain);
      diags = std::move(c.diagnostics);
    } else {
      ContentResult c = body.content(schema);
      content_ = std::move(c.content);
      diags = std::move(c.diagnostics);
    }
  }

  Diagnostics diags;

  const Body& remain() const { return remain_; }
  const Expression* expr(std::string_view name) const {
    const Attribute* a = content_.attributes.find(name);
    return a ? &a->expr : nullptr;
  }

  // A *string, *bool or *int argument: nothing when absent or null.
  std::optional<std::string> string(std::string_view name) {
    std::optional<Value> v = decoded(name, Type::string());
    if (!v) return std::nullopt;
    return std::string(v->as_string());
  }
  std::optional<bool> boolean(std::string_view name) {
    std::optional<Value> v = decoded(name, Type::boolean());
    if (!v) return std::nullopt;
    return v->as_bool();
  }
  std::optional<int64_t> integer(std::string_view name) {
    std::optional<Value> v = decoded(name, Type::number());
    if (!v) return std::nullopt;
    int64_t out = 0;
    std::string err;
    if (!funcs::to_int(*v, out, err)) {
      unsuitable(*content_.attributes.find(name), err);
      return std::nullopt;
    }
    return out;
  }
  // A []string argument: empty when absent or null.
  std::vector<std::string> strings(std::string_view name) {
    std::vector<std::string> out;
    std::optional<Value> v = decoded(name, Type::list(Type::string()));
    if (!v) return out;
    for (const Value& e : v->elements()) {
      if (e.is_null()) {
        unsuitable(*content_.attributes.find(name), "null value is not allowed");
        return {};
      }
      if (!e.is_known()) {
        unsuitable(*content_.attributes.find(name), "value must be known");
        return {};
      }
      out.emplace_back(e.as_string());
    }
    return out;
  }
  // A cty.Value argument, evaluated in [ctx].
  std::optional<Value> value(std::string_view name, const EvalContext* ctx) {
    const Attribute* a = content_.attributes.find(name);
    if (a == nullptr) return std::nullopt;
    EvalResult r = a->expr.value(ctx);
    diags.insert(diags.end(), r.diagnostics.begin(), r.diagnostics.end());
    return r.value;
  }

 private:
  // gohcl.DecodeExpression into a pointer: the value converted to [t].
  std::optional<Value> decoded(std::string_view name, const Type* t) {
    const Attribute* a = content_.attributes.find(name);
    if (a == nullptr) return std::nullopt;
    EvalResult r = a->expr.value(nullptr);
    diags.insert(diags.end(), r.diagnostics.begin(), r.diagnostics.end());
    ConvertResult c = convert(r.value, t);
    if (!c.ok()) {
      unsuitable(*a, c.error().message);
      return std::nullopt;
    }
    if (c.value().is_null()) return std::nullopt;
    if (!c.value().is_known()) {
      unsuitable(*a, "value must be known");
      return std::nullopt;
    }
    return c.value();
  }

  void unsuitable(const Attribute& a, const std::string& why) {
    Diagnostic d;
    d.summary = "Unsuitable value type";
    d.detail = "Unsuitable value: " + why;
    d.subject = a.expr.start_range();
    d.context = a.expr.range();
    diags.push_back(std::move(d));
  }

  BodyContent content_;
  Body remain_;
};

// --- spec blocks ------------------------------------------------------------------

const char* const kSpecBlockTypes[] = {"object",      "array",      "literal",   "attr",
                                       "block",       "block_list", "block_map", "block_set",
                                       "block_attrs", "default",    "transform"};

BodySchema spec_schema(bool labelled) {
  BodySchema s;
  for (const char* t : kSpecBlockTypes)
    s.blocks.push_back(
        {t, labelled ? std::vector<std::string>{"key"} : std::vector<std::string>{}});
  return s;
}

const BodySchema& unlabelled_schema() {
  static const BodySchema s = spec_schema(false);
  return s;
}
const BodySchema& labelled_schema() {
  static const BodySchema s = spec_schema(true);
  return s;
}

// The spec that stands in for one that could not be read.
SpecPtr err_spec() {
  static const SpecPtr s = literal_spec(Value::null(Type::dynamic()));
  return s;
}

Diagnostic spec_error(std::string summary, std::string detail, Range subject,
                      Severity severity = Severity::Error) {
  Diagnostic d;
  d.severity = severity;
  d.summary = std::move(summary);
  d.detail = std::move(detail);
  d.subject = std::move(subject);
  return d;
}

void append(Diagnostics& to, const Diagnostics& from) {
  to.insert(to.end(), from.begin(), from.end());
}

SpecPtr decode_spec_block(const Block& block, Diagnostics& diags);

// The one spec block a body must hold ([what] says whose, for the messages).
SpecPtr decode_single_nested(const Body& body, const char* what, Diagnostics& diags) {
  ContentResult c = body.content(unlabelled_schema());
  append(diags, c.diagnostics);
  const std::string detail =
      std::string("A ") + what + " must have exactly one child spec specifying how to " +
      (std::string(what) == "spec file" ? "map to a JSON value." : "decode block contents.");
  if (c.content.blocks.empty()) {
    if (c.has_errors()) return err_spec();
    diags.push_back(spec_error("Missing spec block", detail, body.missing_item_range()));
    return err_spec();
  }
  if (c.content.blocks.size() > 1) {
    diags.push_back(spec_error("Extraneous spec block", detail, c.content.blocks[1].def_range));
    return err_spec();
  }
  return decode_spec_block(c.content.blocks[0], diags);
}

SpecPtr missing_type_error(const Body& body, const char* kind, Diagnostics& diags) {
  diags.push_back(spec_error(std::string("Missing block_type in ") + kind + " spec",
                             "The block_type attribute is required, to specify the block type "
                             "name that is expected in an input HCL file.",
                             body.missing_item_range()));
  return err_spec();
}

SpecPtr decode_object(const Body& body, Diagnostics& diags) {
  ContentResult c = body.content(labelled_schema());
  append(diags, c.diagnostics);
  std::vector<std::pair<std::string, SpecPtr>> attrs;
  for (const Block& b : c.content.blocks)
    attrs.emplace_back(b.labels[0], decode_spec_block(b, diags));
  return object_spec(std::move(attrs));
}

SpecPtr decode_array(const Body& body, Diagnostics& diags) {
  ContentResult c = body.content(unlabelled_schema());
  append(diags, c.diagnostics);
  std::vector<SpecPtr> elems;
  for (const Block& b : c.content.blocks) elems.push_back(decode_spec_block(b, diags));
  return tuple_spec(std::move(elems));
}

SpecPtr decode_attr(const Body& body, const std::string& implied, Diagnostics& diags) {
  Args args(body, {"name", "type", "required"}, false);
  std::optional<std::string> name = args.string("name");
  std::optional<bool> required = args.boolean("required");
  append(diags, args.diags);
  if (has_errors(args.diags)) return err_spec();
  auto s = std::make_shared<AttrSpec>();
  s->name = name.value_or(implied);
  s->required = required.value_or(false);
  s->type = read_type(args.expr("type"), diags, s->defaults);
  if (s->name.empty()) {
    diags.push_back(spec_error("Missing name in attribute spec",
                               "The name attribute is required, to specify the attribute name "
                               "that is expected in an input HCL file.",
                               body.missing_item_range()));
    return err_spec();
  }
  return s;
}

SpecPtr decode_block(const Body& body, const std::string& implied, Diagnostics& diags) {
  Args args(body, {"block_type", "required"}, true);
  std::optional<std::string> type = args.string("block_type");
  std::optional<bool> required = args.boolean("required");
  append(diags, args.diags);
  if (has_errors(args.diags)) return err_spec();
  auto s = std::make_shared<BlockSpec>();
  s->type_name = type.value_or(implied);
  s->required = required.value_or(false);
  s->nested = decode_single_nested(args.remain(), "block spec", diags);
  return s;
}

template <class S>
SpecPtr decode_sequence(const Body& body, const std::string& implied, const char* kind,
                        Diagnostics& diags) {
  Args args(body, {"block_type", "min_items", "max_items"}, true);
  std::optional<std::string> type = args.string("block_type");
  std::optional<int64_t> min_items = args.integer("min_items");
  std::optional<int64_t> max_items = args.integer("max_items");
  append(diags, args.diags);
  if (has_errors(args.diags)) return err_spec();
  auto s = std::make_shared<S>();
  s->type_name = type.value_or(implied);
  s->min_items = min_items.value_or(0);
  s->max_items = max_items.value_or(0);
  s->nested = decode_single_nested(args.remain(), "block spec", diags);
  if (s->type_name.empty()) return missing_type_error(body, kind, diags);
  return s;
}

SpecPtr decode_block_map(const Body& body, const std::string& implied, Diagnostics& diags) {
  // labels is a []string in the reference's struct: required.
  Args args(body, {"block_type", "labels"}, true, "labels");
  std::optional<std::string> type = args.string("block_type");
  std::vector<std::string> labels = args.strings("labels");
  append(diags, args.diags);
  if (has_errors(args.diags)) return err_spec();
  auto s = std::make_shared<BlockMapSpec>();
  s->type_name = type.value_or(implied);
  s->label_names = std::move(labels);
  s->nested = decode_single_nested(args.remain(), "block spec", diags);
  if (s->type_name.empty()) return missing_type_error(body, "block_map", diags);
  if (s->label_names.empty()) {
    diags.push_back(spec_error("Invalid block label name list",
                               "A block_map must have at least one label specified.",
                               body.missing_item_range()));
    return err_spec();
  }
  if (s->implied_type()->has_dynamic_types())
    diags.push_back(spec_error("Invalid block_map spec",
                               "A block_map spec may not contain attributes with type 'any'.",
                               body.missing_item_range()));
  return s;
}

SpecPtr decode_block_attrs(const Body& body, const std::string& implied, Diagnostics& diags) {
  Args args(body, {"block_type", "element_type", "required"}, false);
  std::optional<std::string> type = args.string("block_type");
  std::optional<bool> required = args.boolean("required");
  append(diags, args.diags);
  if (has_errors(args.diags)) return err_spec();
  auto s = std::make_shared<BlockAttrsSpec>();
  s->type_name = type.value_or(implied);
  s->required = required.value_or(false);
  s->element_type = read_type(args.expr("element_type"), diags, s->defaults);
  if (s->type_name.empty()) return missing_type_error(body, "block_attrs", diags);
  return s;
}

SpecPtr decode_literal(const Body& body, Diagnostics& diags) {
  Args args(body, {"value"}, false, "value");
  std::optional<Value> v = args.value("value", spec_context().get());
  append(diags, args.diags);
  if (has_errors(args.diags)) return err_spec();
  return literal_spec(v.value_or(Value::null(Type::dynamic())));
}

SpecPtr decode_default(const Body& body, Diagnostics& diags) {
  ContentResult c = body.content(unlabelled_schema());
  append(diags, c.diagnostics);
  const std::vector<Block>& blocks = c.content.blocks;
  if (blocks.empty()) {
    if (c.has_errors()) return err_spec();
    diags.push_back(spec_error("Missing spec block",
                               "A default block must have at least one nested spec, each "
                               "specifying a possible outcome.",
                               body.missing_item_range()));
    return err_spec();
  }
  if (blocks.size() == 1 && !c.has_errors()) {
    // The reference points at a second block that is not there (and
    // crashes); the one block is the closest thing.
    diags.push_back(spec_error("Useless default block",
                               "A default block with only one spec is equivalent to using that "
                               "spec alone.",
                               blocks[0].def_range, Severity::Warning));
  }
  SpecPtr spec;
  for (const Block& b : blocks) {
    Diagnostics candidate_diags;
    SpecPtr candidate = decode_spec_block(b, candidate_diags);
    append(diags, candidate_diags);
    if (has_errors(candidate_diags)) continue;
    spec = spec ? default_spec(spec, candidate) : candidate;
  }
  // Every candidate failed: errors say why; stand in for the spec.
  return spec ? spec : err_spec();
}

// The expression a missing `result` stands for: null.
Expression null_expression(const Range& where) {
  ExprParse p = parse_expression(make_source(where.filename, "null"));
  return Expression::from_parse(std::move(p));
}

SpecPtr decode_transform(const Body& body, Diagnostics& diags) {
  Args args(body, {"result"}, true);
  append(diags, args.diags);
  if (has_errors(args.diags)) return err_spec();
  const Expression* result = args.expr("result");
  ContentResult nested = args.remain().content(unlabelled_schema());
  append(diags, nested.diagnostics);
  if (nested.content.blocks.size() != 1) {
    if (nested.has_errors()) return err_spec();
    diags.push_back(spec_error("Invalid transform spec",
                               "A transform spec block must have exactly one nested spec block.",
                               body.missing_item_range()));
    return err_spec();
  }
  SpecPtr wrapped = decode_spec_block(nested.content.blocks[0], diags);
  return transform_expr_spec(std::move(wrapped),
                             result ? *result : null_expression(body.missing_item_range()),
                             spec_context(), "nested");
}

SpecPtr decode_spec_block(const Block& block, Diagnostics& diags) {
  const std::string implied = block.labels.empty() ? std::string() : block.labels[0];
  const std::string& t = block.type;
  if (t == "object") return decode_object(block.body, diags);
  if (t == "array") return decode_array(block.body, diags);
  if (t == "attr") return decode_attr(block.body, implied, diags);
  if (t == "block") return decode_block(block.body, implied, diags);
  if (t == "block_list")
    return decode_sequence<BlockListSpec>(block.body, implied, "block_list", diags);
  if (t == "block_set")
    return decode_sequence<BlockSetSpec>(block.body, implied, "block_set", diags);
  if (t == "block_map") return decode_block_map(block.body, implied, diags);
  if (t == "block_attrs") return decode_block_attrs(block.body, implied, diags);
  if (t == "default") return decode_default(block.body, diags);
  if (t == "transform") return decode_transform(block.body, diags);
  if (t == "literal") return decode_literal(block.body, diags);
  diags.push_back(spec_error("Invalid spec block",
                             "Blocks of type " + funcs::quote(t) + " are not expected here.",
                             block.type_range));
  return err_spec();
}

}  // namespace

const FunctionTable& spec_functions() { return *spec_function_table(); }

SpecFile load_spec_file(std::shared_ptr<const Source> src) {
  SpecFile out;
  out.root = err_spec();
  ConfigFile file = parse_native_body(std::move(src));
  append(out.diagnostics, file.diagnostics);
  if (file.has_errors()) return out;

  // Functions first, then variables, from what the functions leave.
  UserFunctionsResult fns =
      decode_user_functions(file.body, "function", [] { return spec_context(); });
  append(out.diagnostics, fns.diagnostics);
  for (auto& [name, f] : fns.functions) out.functions.add(name, f);

  BodySchema vars_schema;
  vars_schema.blocks.push_back({"variables", {}});
  PartialContentResult vc = fns.remain.partial_content(vars_schema);
  append(out.diagnostics, vc.diagnostics);
  std::map<std::string, Value> vars;
  for (const Block& b : vc.content.blocks) {
    AttributesResult attrs = b.body.just_attributes();
    append(out.diagnostics, attrs.diagnostics);
    for (const Attribute& a : attrs.attributes) {
      EvalResult r = a.expr.value(spec_context().get());
      append(out.diagnostics, r.diagnostics);
      vars[a.name] = r.value;
    }
  }
  out.variables.assign(vars.begin(), vars.end());

  // The one root spec.
  const Body& body = vc.remain;
  ContentResult c = body.content(unlabelled_schema());
  append(out.diagnostics, c.diagnostics);
  const char* detail =
      "A spec file must have exactly one root block specifying how to map to a JSON value.";
  if (c.content.blocks.empty()) {
    if (!c.has_errors())
      out.diagnostics.push_back(
          spec_error("Missing spec block", detail, body.missing_item_range()));
    return out;
  }
  if (c.content.blocks.size() > 1) {
    out.diagnostics.push_back(
        spec_error("Extraneous spec block", detail, c.content.blocks[1].def_range));
    return out;
  }
  out.root = decode_spec_block(c.content.blocks[0], out.diagnostics);
  return out;
}

}  // namespace hclvm::hcldec
