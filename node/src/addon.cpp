// hclvm.node: the Node.js addon (Node-API through node-addon-api). A thin
// layer over the C++ API: parse() is @cdktf/hcl2json's parse (the
// converter's Hcl2Json shape, run on libuv's thread pool), compile() gives
// an expression compiled once and evaluated synchronously,
// evaluateModule() loads and evaluates a Terraform module off the main
// thread, and loadModule() loads one once for Module#evaluate, which can
// reuse an earlier evaluation. Values are converted at the edge (docs/node.md): marks are
// dropped, unknowns become instances of lib/index.js's Unknown.
#include <hclvm/analysis.h>
#include <hclvm/config.h>
#include <hclvm/convert.h>
#include <hclvm/eval.h>
#include <hclvm/functions.h>
#include <hclvm/render.h>
#include <hclvm/syntax.h>
#include <hclvm/typeexpr.h>
#include <napi.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

using hclvm::Diagnostics;
using hclvm::Number;
using hclvm::Type;
using hclvm::Value;

constexpr unsigned kWidth = 80;
constexpr double kMaxSafe = 9007199254740991.0;  // Number.MAX_SAFE_INTEGER

// What the addon keeps per Node environment: lib/index.js's Unknown class
// and the Module class.
struct AddonData {
  Napi::FunctionReference unknown;
  Napi::FunctionReference module;
};

AddonData& data(Napi::Env env) { return *env.GetInstanceData<AddonData>(); }

// The global [name] (JSON, Set, BigInt).
Napi::Object global(Napi::Env env, const char* name) { return env.Global().Get(name).As<Napi::Object>(); }

// An Error with [message] and, as .diagnostics, [diags] as hcldec's JSON.
Napi::Error hcl_error(Napi::Env env, const std::string& message, const Diagnostics& diags) {
  Napi::Error e = Napi::Error::New(env, message);
  Napi::Value parsed = global(env, "JSON").Get("parse").As<Napi::Function>().Call(
      {Napi::String::New(env, hclvm::diagnostics_json(diags))});
  e.Set("diagnostics", parsed.As<Napi::Object>().Get("diagnostics"));
  return e;
}

// The type written [text] ("string", "list(number)", "any"); throws a TypeError.
const Type* parse_type(Napi::Env env, const std::string& text) {
  hclvm::ExprParse p = hclvm::parse_expression(hclvm::make_source("<type>", text));
  if (!p.has_errors() && p.expr) {
    hclvm::TypeExprResult r = hclvm::type_constraint(*p.expr, *p.source);
    if (!hclvm::has_errors(r.diagnostics)) return r.type;
  }
  throw Napi::TypeError::New(env, "not a type: " + text);
}

// A number: a JS number when it holds the value (integers up to 2^53, and
// every fraction, rounded to the nearest double), else a BigInt.
Napi::Value number_to_js(Napi::Env env, const Number& n) {
  if (n.is_integer() && std::fabs(n.to_double()) > kMaxSafe) {
    if (auto i = n.to_int64()) return Napi::BigInt::New(env, *i);
    return global(env, "BigInt").As<Napi::Function>().Call({Napi::String::New(env, n.text())});
  }
  return Napi::Number::New(env, n.to_double());
}

Napi::Value to_js(Napi::Env env, const Value& in) {
  const Value v = in.is_marked() ? in.unmark() : in;
  if (!v.is_known())
    return data(env).unknown.New({Napi::String::New(env, hclvm::type_string(v.type()))});
  if (v.is_null()) return env.Null();
  const Type* t = v.type();
  switch (t->kind()) {
    case hclvm::TypeKind::Bool: return Napi::Boolean::New(env, v.as_bool());
    case hclvm::TypeKind::Number: return number_to_js(env, v.as_number());
    case hclvm::TypeKind::String: {
      std::string_view s = v.as_string();
      return Napi::String::New(env, s.data(), s.size());
    }
    case hclvm::TypeKind::List:
    case hclvm::TypeKind::Tuple:
    case hclvm::TypeKind::Set: {
      Napi::Array a = Napi::Array::New(env, v.length());
      for (size_t i = 0; i < v.length(); ++i) a.Set(static_cast<uint32_t>(i), to_js(env, v.element(i)));
      if (!t->is_set()) return a;
      return global(env, "Set").As<Napi::Function>().New({a});
    }
    case hclvm::TypeKind::Map: {
      Napi::Object o = Napi::Object::New(env);
      for (size_t i = 0; i < v.length(); ++i) o.Set(std::string(v.map_key(i)), to_js(env, v.map_value(i)));
      return o;
    }
    case hclvm::TypeKind::Object: {
      Napi::Object o = Napi::Object::New(env);
      for (size_t i = 0; i < t->size(); ++i) o.Set(std::string(t->attr_name(i)), to_js(env, v.attr(i)));
      return o;
    }
    default: break;
  }
  throw Napi::TypeError::New(env, "a value of type " + hclvm::type_string(t) + " has no JavaScript form");
}

Value from_js(const Napi::Value& v) {
  Napi::Env env = v.Env();
  if (v.IsNull() || v.IsUndefined()) return Value::null(Type::dynamic());
  if (v.IsBoolean()) return Value::boolean(v.As<Napi::Boolean>().Value());
  if (v.IsNumber()) {
    double d = v.As<Napi::Number>().DoubleValue();
    if (std::isnan(d)) throw Napi::TypeError::New(env, "NaN has no HCL value");
    if (std::isinf(d)) return Value::number(Number::infinity(d < 0));
    if (d == std::trunc(d) && std::fabs(d) <= kMaxSafe) return Value::integer(static_cast<int64_t>(d));
    return Value::number(Number::from_double(d));
  }
  if (v.IsBigInt()) {
    std::optional<Number> n = Number::parse(v.ToString().Utf8Value());
    return Value::number(*n);
  }
  if (v.IsString()) return Value::string(v.As<Napi::String>().Utf8Value());
  if (v.IsArray()) {
    Napi::Array a = v.As<Napi::Array>();
    std::vector<Value> elems;
    for (uint32_t i = 0; i < a.Length(); ++i) elems.push_back(from_js(a.Get(i)));
    return Value::tuple(std::move(elems));
  }
  if (v.IsObject()) {
    Napi::Object o = v.As<Napi::Object>();
    if (o.InstanceOf(data(env).unknown.Value()))
      return Value::unknown(parse_type(env, o.Get("type").ToString().Utf8Value()));
    if (o.InstanceOf(global(env, "Set").As<Napi::Function>())) {
      Napi::Array a = global(env, "Array").Get("from").As<Napi::Function>().Call({o}).As<Napi::Array>();
      std::vector<Value> elems;
      const Type* elem = nullptr;
      for (uint32_t i = 0; i < a.Length(); ++i) {
        elems.push_back(from_js(a.Get(i)));
        if (elem == nullptr) elem = elems.back().type();
        else if (elem != elems.back().type())
          throw Napi::TypeError::New(env, "the elements of a set must all have one HCL type");
      }
      return Value::set(elem ? elem : Type::dynamic(), std::move(elems));
    }
    Napi::Array keys = o.GetPropertyNames();
    std::vector<std::pair<std::string, Value>> attrs;
    for (uint32_t i = 0; i < keys.Length(); ++i) {
      std::string k = keys.Get(i).ToString().Utf8Value();
      attrs.emplace_back(k, from_js(o.Get(k)));
    }
    return Value::object(std::move(attrs));
  }
  throw Napi::TypeError::New(env, "a JavaScript " + v.ToString().Utf8Value() + " has no HCL value");
}

// Terraform's function library without the filesystem functions.
const std::shared_ptr<const hclvm::FunctionTable>& standard_table() {
  static const auto table = std::make_shared<const hclvm::FunctionTable>(hclvm::standard_functions());
  return table;
}

// @cdktf/hcl2json's message for a file it cannot parse.
std::string parse_error(const hclvm::convert::Result& r) {
  if (hclvm::has_errors(r.diagnostics)) return "parse config: [" + hclvm::diagnostics_error(r.diagnostics) + "]";
  return r.error;
}

hclvm::convert::Result convert(std::string filename, std::string contents) {
  hclvm::convert::JsonOptions o;
  o.shape = hclvm::convert::Shape::Hcl2Json;
  return hclvm::convert::native_to_json(std::move(filename), std::move(contents), o);
}

// parse(filename, contents) on the thread pool, resolving with the document.
class ParseWorker : public Napi::AsyncWorker {
 public:
  ParseWorker(Napi::Env env, std::string filename, std::string contents)
      : Napi::AsyncWorker(env), deferred_(Napi::Promise::Deferred::New(env)),
        filename_(std::move(filename)), contents_(std::move(contents)) {}
  Napi::Promise promise() { return deferred_.Promise(); }
  void Execute() override {
    result_ = convert(std::move(filename_), std::move(contents_));
    if (!result_.ok()) SetError(parse_error(result_));
  }
  void OnOK() override {
    Napi::Env env = Env();
    deferred_.Resolve(global(env, "JSON").Get("parse").As<Napi::Function>().Call(
        {Napi::String::New(env, result_.text)}));
  }
  void OnError(const Napi::Error& e) override { deferred_.Reject(e.Value()); }

 private:
  Napi::Promise::Deferred deferred_;
  std::string filename_, contents_;
  hclvm::convert::Result result_;
};

Napi::Value Parse(const Napi::CallbackInfo& info) {
  auto* w = new ParseWorker(info.Env(), info[0].ToString().Utf8Value(), info[1].ToString().Utf8Value());
  Napi::Promise p = w->promise();
  w->Queue();
  return p;
}

Napi::Value ParseSync(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  hclvm::convert::Result r = convert(info[0].ToString().Utf8Value(), info[1].ToString().Utf8Value());
  if (!r.ok()) throw Napi::Error::New(env, parse_error(r));
  return global(env, "JSON").Get("parse").As<Napi::Function>().Call({Napi::String::New(env, r.text)});
}

// An expression compiled once (new Expression(text, filename)).
class Expression : public Napi::ObjectWrap<Expression> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "Expression",
                       {InstanceMethod("evaluate", &Expression::Evaluate),
                        InstanceMethod("variables", &Expression::Variables)});
  }

  explicit Expression(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Expression>(info) {
    Napi::Env env = info.Env();
    std::string name = info.Length() > 1 && info[1].IsString() ? info[1].ToString().Utf8Value() : "<expr>";
    parse_ = hclvm::parse_expression(hclvm::make_source(name, info[0].ToString().Utf8Value()));
    if (parse_.has_errors() || !parse_.expr)
      throw hcl_error(env, hclvm::diagnostics_text(parse_.diagnostics, parse_.source.get(), {.width = kWidth}),
                      parse_.diagnostics);
    hclvm::CompileResult c = hclvm::compile_expression(*parse_.expr, parse_.source);
    program_ = std::move(c.program);
    compile_diagnostics_ = std::move(c.diagnostics);
  }

 private:
  // evaluate(vars): the value, or throws an Error with .diagnostics.
  Napi::Value Evaluate(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    hclvm::EvalContext ctx;
    ctx.set_functions(standard_table());
    if (info.Length() > 0 && info[0].IsObject()) {
      Napi::Object vars = info[0].As<Napi::Object>();
      Napi::Array keys = vars.GetPropertyNames();
      for (uint32_t i = 0; i < keys.Length(); ++i) {
        std::string k = keys.Get(i).ToString().Utf8Value();
        ctx.set(k, from_js(vars.Get(k)));
      }
    }
    thread_local hclvm::Vm vm;
    hclvm::EvalResult r = vm.run(*program_, ctx);
    r.diagnostics.insert(r.diagnostics.begin(), compile_diagnostics_.begin(), compile_diagnostics_.end());
    if (r.has_errors())
      throw hcl_error(env, hclvm::diagnostics_text(r.diagnostics, parse_.source.get(), {.width = kWidth}),
                      r.diagnostics);
    return to_js(env, r.value);
  }

  // variables(): the traversals the expression reads, as text.
  Napi::Value Variables(const Napi::CallbackInfo& info) {
    std::vector<hclvm::Traversal> ts = hclvm::variables(*parse_.expr, *parse_.source);
    Napi::Array a = Napi::Array::New(info.Env(), ts.size());
    for (size_t i = 0; i < ts.size(); ++i) a.Set(static_cast<uint32_t>(i), ts[i].to_string());
    return a;
  }

  hclvm::ExprParse parse_;
  std::shared_ptr<const hclvm::Program> program_;
  Diagnostics compile_diagnostics_;
};

// What a module evaluation resolves with: {variables, locals, outputs},
// and (not enumerable) the evaluation itself, for Module#evaluate's
// `previous`.
constexpr const char* kEvaluationKey = "__hclvm_evaluation";
using EvaluationPtr = std::shared_ptr<const hclvm::config::Evaluation>;

Napi::Object named(Napi::Env env, const std::vector<std::pair<std::string, Value>>& vals) {
  Napi::Object o = Napi::Object::New(env);
  for (const auto& [k, v] : vals) o.Set(k, to_js(env, v));
  return o;
}

Napi::Object evaluation_to_js(Napi::Env env, const EvaluationPtr& ev) {
  Napi::Object out = Napi::Object::New(env);
  out.Set("variables", named(env, ev->variables()));
  out.Set("locals", named(env, ev->locals()));
  out.Set("outputs", named(env, ev->outputs()));
  auto* held = new EvaluationPtr(ev);
  Napi::External<EvaluationPtr> ext =
      Napi::External<EvaluationPtr>::New(env, held, [](Napi::Env, EvaluationPtr* p) { delete p; });
  out.DefineProperty(Napi::PropertyDescriptor::Value(kEvaluationKey, ext, napi_default));
  return out;
}

// The input variables of [v] (an object, or anything else for none).
std::map<std::string, Value> variables_from_js(const Napi::Value& v) {
  std::map<std::string, Value> values;
  if (!v.IsObject()) return values;
  Napi::Object vars = v.As<Napi::Object>();
  Napi::Array keys = vars.GetPropertyNames();
  for (uint32_t i = 0; i < keys.Length(); ++i) {
    std::string k = keys.Get(i).ToString().Utf8Value();
    values[k] = from_js(vars.Get(k));
  }
  return values;
}

// A module loaded (or to be loaded from [dir]) and evaluated with
// [values] on the thread pool, reusing [previous] when given; resolves with
// the evaluation (evaluation_to_js). Rejects with Terraform's rendering of
// the errors of loading or evaluating.
class ModuleWorker : public Napi::AsyncWorker {
 public:
  ModuleWorker(Napi::Env env, std::string dir,
               std::shared_ptr<const hclvm::config::LoadResult> loaded,
               std::map<std::string, Value> values, EvaluationPtr previous)
      : Napi::AsyncWorker(env),
        deferred_(Napi::Promise::Deferred::New(env)),
        dir_(std::move(dir)),
        loaded_(std::move(loaded)),
        previous_(std::move(previous)) {
    in_.values = std::move(values);
    in_.vars_dir = dir_;
  }
  Napi::Promise promise() { return deferred_.Promise(); }
  void Execute() override {
    if (!loaded_) {
      auto m = std::make_shared<hclvm::config::LoadResult>(hclvm::config::load_module(dir_));
      if (m->has_errors()) {
        fail(hclvm::config::render_diagnostics(m->diagnostics, m->sources), m->diagnostics);
        return;
      }
      loaded_ = std::move(m);
    }
    eval_ = std::make_shared<const hclvm::config::Evaluation>(
        previous_ ? hclvm::config::reevaluate(*previous_, in_)
                  : hclvm::config::evaluate(loaded_->module, in_));
    if (eval_->has_errors()) {
      hclvm::config::Sources sources = loaded_->sources;
      sources.merge(eval_->sources());
      fail(hclvm::config::render_diagnostics(eval_->diagnostics(), sources), eval_->diagnostics());
    }
  }
  void OnOK() override { deferred_.Resolve(evaluation_to_js(Env(), eval_)); }
  void OnError(const Napi::Error&) override {
    deferred_.Reject(hcl_error(Env(), message_, diags_).Value());
  }

 private:
  void fail(std::string message, const Diagnostics& diags) {
    message_ = message;
    diags_ = diags;
    SetError(std::move(message));
  }
  Napi::Promise::Deferred deferred_;
  std::string dir_;
  std::shared_ptr<const hclvm::config::LoadResult> loaded_;
  EvaluationPtr previous_;
  hclvm::config::Inputs in_;
  EvaluationPtr eval_;
  std::string message_;
  Diagnostics diags_;
};

Napi::Value EvaluateModule(const Napi::CallbackInfo& info) {
  auto* w = new ModuleWorker(
      info.Env(), info[0].ToString().Utf8Value(), nullptr,
      variables_from_js(info.Length() > 1 ? info[1] : info.Env().Undefined()), nullptr);
  Napi::Promise p = w->promise();
  w->Queue();
  return p;
}

// A module directory loaded once (loadModule(dir)): evaluate(vars,
// {previous}) evaluates it on the thread pool as many times as asked.
class LoadedModule : public Napi::ObjectWrap<LoadedModule> {
 public:
  static Napi::Function Define(Napi::Env env) {
    Napi::Function f = DefineClass(env, "Module",
                                   {InstanceMethod("evaluate", &LoadedModule::Evaluate),
                                    InstanceAccessor("path", &LoadedModule::Path, nullptr)});
    data(env).module = Napi::Persistent(f);
    return f;
  }

  // new Module(external): made by loadModule only.
  explicit LoadedModule(const Napi::CallbackInfo& info) : Napi::ObjectWrap<LoadedModule>(info) {
    if (info.Length() < 2 || !info[0].IsExternal() || !info[1].IsExternal())
      throw Napi::TypeError::New(info.Env(), "use loadModule(dir) to load a module");
    loaded_ =
        *info[0].As<Napi::External<std::shared_ptr<const hclvm::config::LoadResult>>>().Data();
    dir_ = *info[1].As<Napi::External<std::string>>().Data();
  }

 private:
  // evaluate(vars?, {previous?}): a promise of the evaluation.
  Napi::Value Evaluate(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    EvaluationPtr previous;
    if (info.Length() > 1 && info[1].IsObject()) {
      Napi::Value p = info[1].As<Napi::Object>().Get("previous");
      if (!p.IsUndefined() && !p.IsNull()) {
        Napi::Value ext = p.IsObject() ? p.As<Napi::Object>().Get(kEvaluationKey) : env.Undefined();
        if (!ext.IsExternal())
          throw Napi::TypeError::New(env, "previous must be what Module#evaluate resolved with");
        previous = *ext.As<Napi::External<EvaluationPtr>>().Data();
        if (previous->module() != loaded_->module)
          throw Napi::TypeError::New(env, "previous is an evaluation of another module");
      }
    }
    auto* w = new ModuleWorker(env, dir_, loaded_,
                               variables_from_js(info.Length() > 0 ? info[0] : env.Undefined()),
                               std::move(previous));
    Napi::Promise p = w->promise();
    w->Queue();
    return p;
  }
  Napi::Value Path(const Napi::CallbackInfo& info) { return Napi::String::New(info.Env(), dir_); }

  std::shared_ptr<const hclvm::config::LoadResult> loaded_;
  std::string dir_;
};

// loadModule(dir) on the thread pool: a Module, or rejects with
// Terraform's rendering of the errors.
class LoadWorker : public Napi::AsyncWorker {
 public:
  LoadWorker(Napi::Env env, std::string dir)
      : Napi::AsyncWorker(env),
        deferred_(Napi::Promise::Deferred::New(env)),
        dir_(std::move(dir)) {}
  Napi::Promise promise() { return deferred_.Promise(); }
  void Execute() override {
    auto m = std::make_shared<hclvm::config::LoadResult>(hclvm::config::load_module(dir_));
    if (m->has_errors()) {
      message_ = hclvm::config::render_diagnostics(m->diagnostics, m->sources);
      diags_ = m->diagnostics;
      SetError(message_);
      return;
    }
    loaded_ = std::move(m);
  }
  void OnOK() override {
    Napi::Env env = Env();
    auto ext = Napi::External<std::shared_ptr<const hclvm::config::LoadResult>>::New(env, &loaded_);
    auto dir = Napi::External<std::string>::New(env, &dir_);
    deferred_.Resolve(data(env).module.New({ext, dir}));
  }
  void OnError(const Napi::Error&) override {
    deferred_.Reject(hcl_error(Env(), message_, diags_).Value());
  }

 private:
  Napi::Promise::Deferred deferred_;
  std::string dir_;
  std::shared_ptr<const hclvm::config::LoadResult> loaded_;
  std::string message_;
  Diagnostics diags_;
};

Napi::Value LoadModule(const Napi::CallbackInfo& info) {
  auto* w = new LoadWorker(info.Env(), info[0].ToString().Utf8Value());
  Napi::Promise p = w->promise();
  w->Queue();
  return p;
}

// init(Unknown): lib/index.js hands over its Unknown class once.
Napi::Value Init(const Napi::CallbackInfo& info) {
  data(info.Env()).unknown = Napi::Persistent(info[0].As<Napi::Function>());
  return info.Env().Undefined();
}

Napi::Object Module(Napi::Env env, Napi::Object exports) {
  env.SetInstanceData(new AddonData());
  exports.Set("init", Napi::Function::New(env, Init));
  exports.Set("parse", Napi::Function::New(env, Parse));
  exports.Set("parseSync", Napi::Function::New(env, ParseSync));
  exports.Set("evaluateModule", Napi::Function::New(env, EvaluateModule));
  exports.Set("loadModule", Napi::Function::New(env, LoadModule));
  exports.Set("Module", LoadedModule::Define(env));
  exports.Set("Expression", Expression::Define(env));
  exports.Set("version", Napi::String::New(env, HCLVM_VERSION));
  return exports;
}

}  // namespace

NODE_API_MODULE(hclvm, Module)
