// `hclvm json`: a configuration file of the native syntax converted to a
// JSON document (include/hclvm/convert.h). The document goes to standard
// output; a file with syntax errors gets the diagnostics `hclvm check`
// reports, on standard error, and no document.
#include "cli/cli.h"

#include <hclvm/convert.h>

#include <unistd.h>

#include <cstdio>

namespace hclvm::cli {

const char kJsonHelp[] =
    "Usage: hclvm json [options] FILE\n"
    "\n"
    "Converts a configuration file of the native syntax (\"-\" reads standard\n"
    "input) to JSON and prints it.\n"
    "\n"
    "The default shape, jsonsyntax, is the HCL JSON syntax: a .tf.json or\n"
    ".hcl.json document that HCL reads as the same body. Literals become JSON\n"
    "values, templates stay templates (literal \"${\" and \"%{\" escaped as \"$${\"\n"
    "and \"%%{\"), any other expression becomes a \"${...}\" template of its source\n"
    "text, and blocks nest by type and labels. Attributes and blocks keep their\n"
    "order: at the top level, block types that interleave make the document an\n"
    "array of objects; inside a block, each block type stands where its first\n"
    "block stood. Comments are dropped. A file with bytes that are not UTF-8 in\n"
    "a name, string or expression (which JSON cannot hold) is refused.\n"
    "\n"
    "The shape hcl2json is the document @cdktf/hcl2json's parse() returns (the\n"
    "Go hcl2json converter): every block an array of bodies under its type and\n"
    "labels, keys sorted, any expression that is not a literal, tuple, object or\n"
    "template as \"${...}\". Input hcl2json refuses (blocks of one type with and\n"
    "without labels, `-true`) is refused too, with exit status 1.\n"
    "\n"
    "Options:\n"
    "  --shape SHAPE     jsonsyntax (default) or hcl2json\n"
    "  --preserve-order  hcl2json: keys in source order rather than sorted\n"
    "  --color WHEN      colour for diagnostics: auto (default), always or never\n"
    "  -h, --help        show this help\n"
    "\n"
    "Exit status: 0 converted, 1 the file has syntax errors (reported as\n"
    "'hclvm check' reports them, on standard error) or the shape cannot hold\n"
    "it, 2 usage error or unreadable input.\n";

// Runs `hclvm json` with its arguments [args]; returns the exit status.
int run_json(const std::vector<std::string>& args) {
  convert::JsonOptions options;
  ColorMode color = ColorMode::Auto;
  std::vector<std::string> files;
  ArgScanner sc(args);
  std::string err;
  while (sc.next()) {
    if (!sc.is_flag()) {
      files.push_back(sc.name());
    } else if (sc.is("--help", "-h")) {
      std::fputs(kJsonHelp, stdout);
      return kExitOk;
    } else if (sc.is("--shape")) {
      auto v = sc.value(err);
      if (!v) return usage_error(err);
      if (*v == "jsonsyntax") options.shape = convert::Shape::JsonSyntax;
      else if (*v == "hcl2json") options.shape = convert::Shape::Hcl2Json;
      else return usage_error("--shape must be jsonsyntax or hcl2json, not '" + *v + "'");
    } else if (sc.is("--preserve-order")) {
      options.preserve_order = true;
    } else if (sc.is("--color")) {
      auto v = sc.value(err);
      if (!v) return usage_error(err);
      if (!parse_color_mode(*v, color))
        return usage_error("--color must be auto, always or never, not '" + *v + "'");
    } else {
      return unknown_flag(sc.name(), kJsonHelp, "hclvm help json");
    }
  }
  if (files.size() != 1) return usage_error("json needs exactly one FILE (see 'hclvm help json')");
  const std::string& path = files[0];
  if (path != "-" && classify(path) == FileSyntax::Json)
    return usage_error("cannot convert " + path + ": it is in the JSON syntax already");

  std::string bytes;
  if (!read_input(path, bytes, err)) return usage_error("cannot read " + path + ": " + err);
  Parsed p = parse_input(ParseAs::Config, display_name(path), std::move(bytes));
  std::string refused;
  if (!has_errors(p.diagnostics) && p.body) {
    convert::Result r = convert::body_to_json(*p.body, *p.source, options);
    std::fwrite(r.text.data(), 1, r.text.size(), stdout);
    std::fflush(stdout);
    refused = std::move(r.error);
  }
  diag::write_text(p.diagnostics, p.snippet_files(), text_style_for(STDERR_FILENO, color),
                   file_sink(stderr));
  if (!refused.empty()) {
    std::fprintf(stderr, "hclvm: cannot convert %s to %s: %s\n", display_name(path).c_str(),
                 options.shape == convert::Shape::Hcl2Json ? "the hcl2json shape" : "the JSON syntax",
                 refused.c_str());
    return kExitErrors;
  }
  return has_errors(p.diagnostics) ? kExitErrors : kExitOk;
}

}  // namespace hclvm::cli
