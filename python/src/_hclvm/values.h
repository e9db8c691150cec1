// Values at the edge between Python and hclvm: Python objects converted to
// hclvm::Value (variables, function results) and back (results), as
// docs/python.md tabulates. Every function here needs the GIL.
#pragma once

#include <pybind11/pybind11.h>

#include <hclvm/diagnostic.h>
#include <hclvm/syntax.h>
#include <hclvm/type.h>
#include <hclvm/value.h>

#include <stdexcept>
#include <string>

namespace hclvm_py {

namespace py = pybind11;

// The classes of the pure-Python part (hclvm/_types.py) the converters
// build and recognise, looked up once.
struct Classes {
  py::handle unknown;   // hclvm.Unknown(type)
  py::handle marked;    // hclvm.Marked(value, marks)
  py::handle decimal;   // decimal.Decimal
  py::handle hcl_error; // hclvm.HCLError
  py::handle diagnostic, range, pos;
};
const Classes& classes();

// What HCL's errors become on their way out: diagnostics, with the text
// rendered as the CLI renders them. Thrown with the GIL released or held;
// the translator registered in module.cpp raises hclvm.HCLError.
struct HclError : std::exception {
  std::string message;
  hclvm::Diagnostics diagnostics;
  HclError(std::string m, hclvm::Diagnostics d) : message(std::move(m)), diagnostics(std::move(d)) {}
  const char* what() const noexcept override { return message.c_str(); }
};

// Raises hclvm.HCLError for [e] (the GIL held).
void raise_hcl_error(const HclError& e);

// Returns the Python value of [v]; [unmark] drops marks instead of
// wrapping the values that carry them in hclvm.Marked.
py::object to_python(const hclvm::Value& v, bool unmark = false);

// Returns the hclvm value of the Python object [o]; raises TypeError or
// ValueError (through py::error_already_set) for what has none.
hclvm::Value from_python(py::handle o);

// Returns the type written [text] ("string", "list(number)", "any"), or
// throws ValueError.
const hclvm::Type* parse_type(const std::string& text);

// Returns [t] as a type expression ("list(string)").
std::string type_text(const hclvm::Type* t);

// Returns [diags] as a list of hclvm.Diagnostic.
py::list diagnostics_to_python(const hclvm::Diagnostics& diags);

}  // namespace hclvm_py
