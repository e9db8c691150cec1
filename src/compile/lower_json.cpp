// JSON values as expressions (the reference's json expression Value):
// compile_json_expression and run_json of hclvm/json_syntax.h.
//
// A JSON value compiles to a short postfix program over the tree's
// structure, which run_json executes with a value stack (no recursion, so
// any depth the parser accepted evaluates):
//
//   Const k      -> K[k]               a part that is the same in both modes
//   Template t   -> string or result   T[t]: the literal in literal-only mode,
//                                      else its compiled template run on the Vm
//   Tuple n      v1..vn -> tuple
//   ObjBegin     ->                    starts an object
//   Prop p       k v ->                adds a property; name range N[p]
//   ObjEnd       -> object             (DynamicVal after an unknown name)
//
// Each string that holds a template sequence (or might: anything with `$`
// or `%`, or a leading byte order mark, which the template scanner drops)
// is parsed as a native template once, here, from the position one byte
// and one column after its opening quote, and compiled to bytecode with
// compile_expression; the other strings, and every part built only of
// them, numbers, bools and nulls, fold to constants. A template gets its
// own Source (the decoded string at that position), since its positions
// are not the document's: that is why a JSON value is not one Program.
//
// Objects follow the reference's rules rather than the native object
// constructor's: a name that is no string, or null, is an error on the
// name; a repeated name is an error and the first one stays; an unknown
// name makes the whole object DynamicVal.
#include <hclvm/json_program.h>
#include <hclvm/json_syntax.h>

#include <optional>
#include <unordered_map>

#include "util/stack.h"
#include "util/unicode.h"
#include "value/convert.h"
#include "compile/json_program.h"
#include "vm/program.h"

namespace hclvm {

namespace {

using namespace hclvm::json;
using OpKind = JsonProgram::OpKind;

// Returns the text of template [e] when it is plain text, else nullopt.
std::optional<std::string_view> plain_template(const ast::Expr& e) {
  if (e.kind == ast::ExprKind::Literal) {
    const ast::Literal& l = ast::as<ast::LiteralExpr>(e).value;
    if (l.kind == ast::LitKind::String) return l.text;
    return std::nullopt;
  }
  if (e.kind != ast::ExprKind::Template) return std::nullopt;
  const auto& t = ast::as<ast::TemplateExpr>(e);
  if (t.parts.size == 0) return std::string_view();
  if (t.parts.size == 1) return plain_template(*t.parts[0]);
  return std::nullopt;
}

// Reports whether string [s] reads the same as a template: no `$` or `%`
// that could start a template sequence or an escape of one, and no
// leading byte order mark.
bool surely_plain(std::string_view s) {
  return s.find_first_of("$%") == std::string_view::npos && s.rfind("\xEF\xBB\xBF", 0) != 0;
}

class JsonLowerer {
 public:
  JsonLowerer(JsonProgram& p, const std::shared_ptr<const Source>& doc, Diagnostics& diags,
              const util::StackBudget& budget)
      : p_(p), doc_(doc), diags_(diags), budget_(budget) {}

  bool too_deep() const { return too_deep_; }

  // Emits the code of [n]; returns whether it folded to one Const (the
  // same value in both modes, with no diagnostics).
  bool node(const Node& n) {
    if (budget_.exhausted()) {
      too_deep_ = true;
      return false;
    }
    switch (n.kind) {
      case NodeKind::Number: {
        std::optional<Number> v = Number::parse(as<NumberNode>(n).text);
        constant(v ? Value::number(std::move(*v)) : Value::unknown(Type::number()));
        return true;
      }
      case NodeKind::Bool: constant(Value::boolean(as<BoolNode>(n).value)); return true;
      case NodeKind::Null: constant(Value::null(Type::dynamic())); return true;
      case NodeKind::Invalid: constant(Value::dynamic()); return true;
      case NodeKind::String: return string(as<StringNode>(n));
      case NodeKind::Array: return array(as<ArrayNode>(n));
      case NodeKind::Object: return object(as<ObjectNode>(n));
    }
    return false;
  }

 private:
  // Appends the op [k] with operand [a].
  void emit(OpKind k, uint32_t a = 0) { p_.ops.push_back({k, a}); }

  // Emits Const [v].
  void constant(Value v) {
    emit(OpKind::Const, uint32_t(p_.constants.size()));
    p_.constants.push_back(std::move(v));
  }

  // Where a construct's code starts, to fold it away.
  struct Mark {
    size_t ops, constants;
  };
  Mark mark() const { return {p_.ops.size(), p_.constants.size()}; }

  // Replaces the code from [m] on with the constant [v].
  void fold(Mark m, Value v) {
    p_.ops.resize(m.ops);
    p_.constants.resize(m.constants);
    constant(std::move(v));
  }

  // The value of the Const op at [i].
  const Value& const_at(size_t i) const { return p_.constants[p_.ops[i].a]; }

  // Emits string [s]: a constant when it reads the same in both modes,
  // else a template (parsed and compiled here). Returns whether it folded.
  bool string(const StringNode& s) {
    Value literal = Value::string(s.value);
    if (surely_plain(s.value)) {
      constant(std::move(literal));
      return true;
    }
    Pos at = s.start;
    ++at.column, ++at.byte;  // past the opening quote
    ExprParse tp = parse_template(make_source(doc_->name(), std::string(s.value), at));
    JsonTemplate t;
    t.parse_diags = std::move(tp.diagnostics);
    if (has_errors(t.parse_diags)) {
      t.failed = true;
    } else {
      std::optional<std::string_view> text = plain_template(*tp.expr);
      if (text && t.parse_diags.empty() &&
          Value::string(*text).as_string() == literal.as_string()) {
        constant(std::move(literal));
        return true;
      }
      CompileResult c = compile_expression(*tp.expr, tp.source);
      t.program = std::move(c.program);
      for (Diagnostic& d : c.diagnostics) diags_.push_back(std::move(d));
    }
    t.literal = std::move(literal);
    emit(OpKind::Template, uint32_t(p_.templates.size()));
    p_.templates.push_back(std::move(t));
    return false;
  }

  // Emits array [a]; returns whether it folded.
  bool array(const ArrayNode& a) {
    Mark m = mark();
    bool all = true;
    for (const Node* i : a.items) all = node(*i) && all;
    if (!all) {
      emit(OpKind::Tuple, a.items.size);
      return false;
    }
    std::vector<Value> elems;
    elems.reserve(a.items.size);
    for (size_t i = m.ops; i < p_.ops.size(); ++i) elems.push_back(const_at(i));
    fold(m, Value::tuple(std::move(elems)));
    return true;
  }

  // Emits object [o]; returns whether it folded.
  bool object(const ObjectNode& o) {
    Mark m = mark();
    emit(OpKind::ObjBegin);
    bool all = true;
    for (const Property& prop : o.properties) {
      all = string(*prop.name) && all;
      all = node(*prop.value) && all;
      emit(OpKind::Prop, uint32_t(p_.names.size()));
      p_.names.push_back(range(*prop.name, doc_->name()));
    }
    emit(OpKind::ObjEnd);
    if (!all) return false;
    // Constant names and values: fold unless a name repeats (an error the
    // run reports).
    std::vector<std::pair<std::string, Value>> attrs;
    std::unordered_map<std::string, bool> seen;
    for (size_t i = m.ops + 1; i + 1 < p_.ops.size(); i += 3) {
      std::string name(const_at(i).as_string());
      if (!seen.emplace(name, true).second) return false;
      attrs.emplace_back(std::move(name), const_at(i + 1));
    }
    // The names' ranges stay: they are small and folding is the rare case
    // for objects with many properties.
    fold(m, Value::object(std::move(attrs)));
    return true;
  }

  JsonProgram& p_;
  const std::shared_ptr<const Source>& doc_;
  Diagnostics& diags_;
  const util::StackBudget& budget_;
  bool too_deep_ = false;
};

// An object under construction.
struct ObjectFrame {
  bool known = true;
  Marks marks;
  std::vector<std::pair<std::string, Value>> attrs;
  std::unordered_map<std::string, uint32_t> index;  // name -> its Prop's name range
};

}  // namespace

JsonCompileResult compile_json_expression(const json::Node& node,
                                          std::shared_ptr<const Source> source) {
  // The compiler recurses once per level of nesting: a tree too deep for
  // this thread's stack is compiled again on a big one (util/stack.h).
  return util::run_deep([&](const util::StackBudget& budget) {
    auto p = std::make_shared<JsonProgram>();
    JsonCompileResult r;
    JsonLowerer l(*p, source, r.diagnostics, budget);
    l.node(node);
    if (l.too_deep()) {
      // Even the big stack was not enough: a program that gives DynamicVal.
      p = std::make_shared<JsonProgram>();
      p->ops.push_back({OpKind::Const, 0});
      p->constants.push_back(Value::dynamic());
      r.diagnostics.clear();
      Diagnostic d;
      d.summary = "Expression too deeply nested";
      d.detail = "This expression has more levels of nesting than the compiler can handle.";
      d.subject = range(node, source->name());
      r.diagnostics.push_back(std::move(d));
    }
    r.program = std::move(p);
    return r;
  });
}

EvalResult run_json(Vm& vm, const JsonProgram& p, const EvalContext* ctx) {
  EvalResult r;
  std::vector<Value> stack;
  std::vector<ObjectFrame> frames;
  auto error = [&](std::string summary, std::string detail, const Range& subject) {
    Diagnostic d;
    d.summary = std::move(summary);
    d.detail = std::move(detail);
    d.subject = subject;
    r.diagnostics.push_back(std::move(d));
  };
  for (const JsonProgram::Op& op : p.ops) {
    switch (op.kind) {
      case OpKind::Const: stack.push_back(p.constants[op.a]); break;
      case OpKind::Template: {
        const JsonTemplate& t = p.templates[op.a];
        if (ctx == nullptr) {
          stack.push_back(t.literal);
          break;
        }
        for (const Diagnostic& d : t.parse_diags) r.diagnostics.push_back(d);
        if (t.failed) {
          stack.push_back(Value::dynamic());
          break;
        }
        EvalResult tr = vm.run(*t.program, *ctx);
        for (Diagnostic& d : tr.diagnostics) r.diagnostics.push_back(std::move(d));
        stack.push_back(std::move(tr.value));
        break;
      }
      case OpKind::Tuple: {
        std::vector<Value> elems(std::make_move_iterator(stack.end() - op.a),
                                 std::make_move_iterator(stack.end()));
        stack.resize(stack.size() - op.a);
        stack.push_back(Value::tuple(std::move(elems)));
        break;
      }
      case OpKind::ObjBegin: frames.emplace_back(); break;
      case OpKind::Prop: {
        Value v = std::move(stack.back());
        stack.pop_back();
        Value k = std::move(stack.back());
        stack.pop_back();
        ObjectFrame& f = frames.back();
        const Range& where = p.names[op.a];
        ConvertResult ks = convert(k, Type::string());
        if (!ks.ok()) {
          error("Invalid object key expression",
                "Cannot use this expression as an object key: " + ks.error().message + ".", where);
          break;
        }
        auto [name, marks] = ks.value().unmark_with_marks();
        if (name.is_null()) {
          error("Invalid object key expression", "Cannot use null value as an object key.",
                where);
          break;
        }
        if (!name.is_known()) {
          f.known = false;
          break;
        }
        f.marks.add(marks);
        std::string s(name.as_string());
        auto [it, added] = f.index.emplace(s, op.a);
        if (!added) {
          error("Duplicate object attribute",
                "An attribute named " + uni::go_quote(s) + " was already defined at " +
                    range_string(p.names[it->second]) + ".",
                where);
          break;
        }
        f.attrs.emplace_back(std::move(s), std::move(v));
        break;
      }
      case OpKind::ObjEnd: {
        ObjectFrame& f = frames.back();
        stack.push_back(f.known ? Value::object(std::move(f.attrs)).mark(f.marks)
                                : Value::dynamic());
        frames.pop_back();
        break;
      }
    }
  }
  r.value = std::move(stack.back());
  return r;
}

}  // namespace hclvm
