// Python objects to hclvm values and back. Numbers keep their exactness:
// integers of any size are Python ints, a fraction becomes a float when
// the float reads back as the same shortest decimal and a decimal.Decimal
// otherwise (a number parsed from source text has 512 bits, so exactness
// of the binary value would make even 0.1 a Decimal). Sets become
// frozensets, unknowns hclvm.Unknown, marked values hclvm.Marked.
#include "values.h"

#include <hclvm/typeexpr.h>

#include <charconv>
#include <cmath>
#include <vector>

namespace hclvm_py {

using hclvm::Number;
using hclvm::Type;
using hclvm::Value;

const Classes& classes() {
  // Looked up once and kept for the life of the process (never released:
  // the interpreter may be finalizing when static destructors run).
  static const Classes c = [] {
    py::module_ types = py::module_::import("hclvm._types");
    py::module_ decimal = py::module_::import("decimal");
    Classes k;
    k.unknown = py::object(types.attr("Unknown")).release();
    k.marked = py::object(types.attr("Marked")).release();
    k.hcl_error = py::object(types.attr("HCLError")).release();
    k.diagnostic = py::object(types.attr("Diagnostic")).release();
    k.range = py::object(types.attr("Range")).release();
    k.pos = py::object(types.attr("Pos")).release();
    k.decimal = py::object(decimal.attr("Decimal")).release();
    return k;
  }();
  return c;
}

namespace {

// Returns [p] as an hclvm.Pos.
py::object pos_to_python(const hclvm::Pos& p) {
  return classes().pos(p.line, p.column, p.byte);
}

// Returns [r] as an hclvm.Range, or None.
py::object range_to_python(const std::optional<hclvm::Range>& r) {
  if (!r) return py::none();
  return classes().range(r->filename, pos_to_python(r->start), pos_to_python(r->end));
}

// Returns the number [n] as an int, a float or a Decimal.
py::object number_to_python(const Number& n) {
  if (n.is_inf()) return py::float_(n.sign() < 0 ? -HUGE_VAL : HUGE_VAL);
  if (n.is_integer()) {
    if (auto i = n.to_int64()) return py::reinterpret_steal<py::object>(PyLong_FromLongLong(*i));
    std::string text = n.text();
    return py::reinterpret_steal<py::object>(PyLong_FromString(text.c_str(), nullptr, 10));
  }
  std::string text = n.text();
  double d = n.to_double();
  char buf[400];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::fixed);
  if (ec == std::errc() && std::string_view(buf, static_cast<size_t>(end - buf)) == text)
    return py::float_(d);
  return classes().decimal(text);
}

// Returns the collection [v]'s elements as a list.
py::list elements_to_python(const Value& v, bool unmark) {
  py::list out(v.length());
  for (size_t i = 0; i < v.length(); ++i) out[i] = to_python(v.element(i), unmark);
  return out;
}

// Returns the Python number [o] (int, float or Decimal) as a Number.
Number number_from_python(py::handle o) {
  if (PyLong_Check(o.ptr())) {
    int overflow = 0;
    long long i = PyLong_AsLongLongAndOverflow(o.ptr(), &overflow);
    if (overflow == 0) return Number::from_int(i);
    return *Number::parse(py::str(o).cast<std::string>());
  }
  if (PyFloat_Check(o.ptr())) {
    double d = PyFloat_AS_DOUBLE(o.ptr());
    if (std::isnan(d)) throw py::value_error("NaN has no HCL value");
    if (std::isinf(d)) return Number::infinity(d < 0);
    return Number::from_double(d);
  }
  // A Decimal, written without an exponent (Number::parse reads plain
  // decimals exactly).
  if (o.attr("is_nan")().cast<bool>()) throw py::value_error("NaN has no HCL value");
  if (o.attr("is_infinite")().cast<bool>()) return Number::infinity(o.attr("is_signed")().cast<bool>());
  PyObject* f = PyObject_Format(o.ptr(), py::str("f").ptr());
  if (f == nullptr) throw py::error_already_set();
  std::string text = py::reinterpret_steal<py::str>(f).cast<std::string>();
  std::optional<Number> n = Number::parse(text);
  if (!n) throw py::value_error("not a number HCL can hold: " + text);
  return *n;
}

}  // namespace

py::list diagnostics_to_python(const hclvm::Diagnostics& diags) {
  py::list out;
  for (const hclvm::Diagnostic& d : diags)
    out.append(classes().diagnostic(d.severity == hclvm::Severity::Error ? "error" : "warning",
                                    d.summary, d.detail, range_to_python(d.subject),
                                    range_to_python(d.context)));
  return out;
}

void raise_hcl_error(const HclError& e) {
  py::object err = classes().hcl_error(e.message, diagnostics_to_python(e.diagnostics));
  PyErr_SetObject(classes().hcl_error.ptr(), err.ptr());
}

py::object to_python(const Value& v, bool unmark) {
  if (v.is_marked()) {
    auto [inner, marks] = v.unmark_with_marks();
    py::object value = to_python(inner, unmark);
    if (unmark) return value;
    py::list labels;
    for (std::string_view l : marks.labels()) labels.append(py::str(l.data(), l.size()));
    return classes().marked(value, py::frozenset(labels));
  }
  if (!v.is_known()) return classes().unknown(type_text(v.type()));
  if (v.is_null()) return py::none();
  const Type* t = v.type();
  switch (t->kind()) {
    case hclvm::TypeKind::Bool: return py::bool_(v.as_bool());
    case hclvm::TypeKind::Number:
      if (v.is_small_int()) return py::reinterpret_steal<py::object>(PyLong_FromLongLong(v.small_int()));
      return number_to_python(v.as_number());
    case hclvm::TypeKind::String: {
      std::string_view s = v.as_string();
      return py::str(s.data(), s.size());
    }
    case hclvm::TypeKind::List:
    case hclvm::TypeKind::Tuple: return elements_to_python(v, unmark);
    case hclvm::TypeKind::Set: {
      py::list elems = elements_to_python(v, unmark);
      // Sets of objects or lists (common in Terraform) hold dicts and
      // lists, which a frozenset cannot: those stay lists, in cty's order.
      PyObject* set = PyFrozenSet_New(elems.ptr());
      if (set == nullptr) {
        PyErr_Clear();
        return elems;
      }
      return py::reinterpret_steal<py::object>(set);
    }
    case hclvm::TypeKind::Map: {
      py::dict out;
      for (size_t i = 0; i < v.length(); ++i) {
        std::string_view k = v.map_key(i);
        out[py::str(k.data(), k.size())] = to_python(v.map_value(i), unmark);
      }
      return out;
    }
    case hclvm::TypeKind::Object: {
      py::dict out;
      for (size_t i = 0; i < t->size(); ++i) {
        std::string_view k = t->attr_name(i);
        out[py::str(k.data(), k.size())] = to_python(v.attr(i), unmark);
      }
      return out;
    }
    case hclvm::TypeKind::Capsule:
    case hclvm::TypeKind::Dynamic: break;
  }
  throw py::type_error("a value of type " + type_text(t) + " has no Python form");
}

Value from_python(py::handle o) {
  PyObject* p = o.ptr();
  if (p == Py_None) return Value::null(Type::dynamic());
  if (PyBool_Check(p)) return Value::boolean(p == Py_True);
  if (PyLong_CheckExact(p)) {
    int overflow = 0;
    long long i = PyLong_AsLongLongAndOverflow(p, &overflow);
    if (overflow == 0) return Value::integer(i);
  }
  if (PyUnicode_Check(p)) {
    Py_ssize_t n = 0;
    const char* s = PyUnicode_AsUTF8AndSize(p, &n);
    if (s == nullptr) throw py::error_already_set();
    return Value::string(std::string_view(s, static_cast<size_t>(n)));
  }
  const Classes& c = classes();
  if (PyLong_Check(p) || PyFloat_Check(p) || py::isinstance(o, c.decimal))
    return Value::number(number_from_python(o));
  if (PyList_Check(p) || PyTuple_Check(p)) {
    std::vector<Value> elems;
    for (py::handle e : o) elems.push_back(from_python(e));
    return Value::tuple(std::move(elems));
  }
  if (PyDict_Check(p)) {
    std::vector<std::pair<std::string, Value>> attrs;
    for (auto [k, e] : py::reinterpret_borrow<py::dict>(o)) {
      if (!PyUnicode_Check(k.ptr())) throw py::type_error("HCL object keys must be strings");
      attrs.emplace_back(k.cast<std::string>(), from_python(e));
    }
    return Value::object(std::move(attrs));
  }
  if (PyAnySet_Check(p)) {
    std::vector<Value> elems;
    const Type* elem = nullptr;
    for (py::handle e : o) {
      elems.push_back(from_python(e));
      const Type* t = elems.back().type();
      if (elem == nullptr) elem = t;
      else if (elem != t) throw py::type_error("the elements of a set must all have one HCL type");
    }
    return Value::set(elem ? elem : Type::dynamic(), std::move(elems));
  }
  if (py::isinstance(o, c.unknown)) return Value::unknown(parse_type(o.attr("type").cast<std::string>()));
  if (py::isinstance(o, c.marked)) {
    Value inner = from_python(o.attr("value"));
    hclvm::Marks marks;
    for (py::handle l : o.attr("marks")) marks.add(l.cast<std::string>());
    return inner.mark(marks);
  }
  throw py::type_error("an object of type " + py::str(o.get_type().attr("__name__")).cast<std::string>() +
                       " has no HCL value");
}

const Type* parse_type(const std::string& text) {
  hclvm::ExprParse p = hclvm::parse_expression(hclvm::make_source("<type>", text));
  hclvm::Diagnostics diags = p.diagnostics;
  if (!p.has_errors() && p.expr) {
    hclvm::TypeExprResult r = hclvm::type_constraint(*p.expr, *p.source);
    if (!hclvm::has_errors(r.diagnostics)) return r.type;
    diags = r.diagnostics;
  }
  throw py::value_error("not a type: " + text + ": " + hclvm::diagnostics_error(diags));
}

std::string type_text(const Type* t) { return hclvm::type_string(t); }

}  // namespace hclvm_py
