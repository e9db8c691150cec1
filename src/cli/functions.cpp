// `hclvm functions`: the function library, listed with signatures and
// descriptions as text, JSON or the Markdown of docs/functions.md.
#include <hclvm/function.h>
#include <hclvm/functions.h>
#include <hclvm/typeexpr.h>

#include <cstdio>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "value/json.h"

namespace hclvm::cli {

const char kFunctionsHelp[] =
    "Usage: hclvm functions [options] [NAME...]\n"
    "\n"
    "Lists the functions of the standard library (Terraform's function table,\n"
    "with Packer's extras), or only those named, one per line: its signature\n"
    "and what it does. Every function is also there as core::NAME, as in\n"
    "Terraform; the list shows each once.\n"
    "\n"
    "Options:\n"
    "  --format FORMAT  text (default), json or markdown (docs/functions.md)\n"
    "  -h, --help       show this help\n"
    "\n"
    "Exit status: 0, or 1 when a NAME is not a function.\n";

namespace {

// Everything the library has: the filesystem functions, env and Packer's
// extras included.
FunctionTable everything() {
  LibraryOptions opts;
  opts.base_dir = "/";
  opts.env_allow = {"HOME"};
  opts.packer = true;
  return standard_functions(opts);
}

// [t] as a type constraint: `any` for the dynamic pseudo-type.
std::string type_name(const Type* t) { return t == nullptr ? "any" : type_string(t); }

// `name(a string, b number, rest... any) type`.
std::string signature(std::string_view name, const Function& f) {
  std::string s(name);
  s += '(';
  for (size_t i = 0; i < f.params.size(); ++i) {
    if (i) s += ", ";
    s += f.params[i].name + " " + type_name(f.params[i].type);
  }
  if (f.var_param) {
    if (!f.params.empty()) s += ", ";
    s += f.var_param->name + "... " + type_name(f.var_param->type);
  }
  s += ')';
  if (f.fixed_type != nullptr) s += " " + type_name(f.fixed_type);
  return s;
}

// The first sentence of [f]'s description (what one line has room for).
std::string summary(const Function& f) {
  std::string d = f.description;
  for (char& c : d)
    if (c == '\n') c = ' ';
  size_t end = d.find(". ");
  return end == std::string::npos ? d : d.substr(0, end + 1);
}

std::string json_param(const Param& p) {
  return "{\"name\":" + json_quote(p.name) + ",\"type\":" + json_quote(type_name(p.type)) +
         ",\"allow_null\":" + (p.allow_null ? "true" : "false") +
         ",\"allow_unknown\":" + (p.allow_unknown ? "true" : "false") + "}";
}

}  // namespace

int run_functions(const std::vector<std::string>& args) {
  std::string format = "text";
  std::vector<std::string> names;
  ArgScanner a(args);
  std::string err;
  while (a.next()) {
    if (!a.is_flag()) {
      names.push_back(a.name());
    } else if (a.is("--help", "-h")) {
      std::fputs(kFunctionsHelp, stdout);
      return kExitOk;
    } else if (a.is("--format")) {
      std::optional<std::string> v = a.value(err);
      if (!v) return usage_error(err);
      if (*v != "text" && *v != "json" && *v != "markdown")
        return usage_error("--format must be text, json or markdown, not '" + *v + "'");
      format = *v;
    } else {
      return unknown_flag(a.name(), kFunctionsHelp, "hclvm help functions");
    }
  }
  const FunctionTable table = everything();
  std::vector<std::string> which;
  if (names.empty()) {
    // The core:: aliases are the same functions again.
    for (std::string_view n : table.names())
      if (n.substr(0, 6) != "core::") which.emplace_back(n);
  } else {
    for (const std::string& n : names) {
      if (table.find(n) == nullptr) {
        std::fprintf(stderr, "hclvm: no function named '%s'\n", n.c_str());
        return kExitErrors;
      }
      which.push_back(n);
    }
  }

  std::string out;
  if (format == "json") {
    out = "[";
    for (size_t i = 0; i < which.size(); ++i) {
      const Function& f = *table.find(which[i]);
      if (i) out += ",\n ";
      out += "{\"name\":" + json_quote(which[i]) + ",\"params\":[";
      for (size_t j = 0; j < f.params.size(); ++j)
        out += (j ? "," : "") + json_param(f.params[j]);
      out += "],\"variadic\":" + (f.var_param ? json_param(*f.var_param) : std::string("null"));
      out += ",\"returns\":" +
             (f.fixed_type ? json_quote(type_name(f.fixed_type)) : std::string("null"));
      out += ",\"impure\":" + std::string(f.impure ? "true" : "false");
      out += ",\"description\":" + json_quote(f.description) + "}";
    }
    out += "]\n";
  } else if (format == "markdown") {
    for (const std::string& n : which) {
      const Function& f = *table.find(n);
      out += "### `" + n + "`\n\n```\n" + signature(n, f) + "\n```\n\n";
      if (!f.description.empty()) out += f.description + "\n\n";
      if (f.impure) out += "Impure: each call may give a different result.\n\n";
    }
  } else {
    for (const std::string& n : which) {
      const Function& f = *table.find(n);
      out += signature(n, f) + "\n    " + summary(f) + (f.impure ? " (impure)" : "") + "\n";
    }
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return kExitOk;
}

}  // namespace hclvm::cli
