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
    "block stood. Comments are dropped.\n"
    "\n"
    "Options:\n"
    "  --shape SHAPE  jsonsyntax (default)\n"
    "  --color WHEN   colour for diagnostics: auto (default), always or never\n"
    "  -h, --help     show this help\n"
    "\n"
    "Exit status: 0 converted, 1 the file has syntax errors (reported as\n"
    "'hclvm check' reports them, on standard error), 2 usage error or\n"
    "unreadable input.\n";

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
      if (*v != "jsonsyntax") return usage_error("--shape must be jsonsyntax, not '" + *v + "'");
      options.shape = convert::Shape::JsonSyntax;
    } else if (sc.is("--color")) {
      auto v = sc.value(err);
      if (!v) return usage_error(err);
      if (!parse_color_mode(*v, color))
        return usage_error("--color must be auto, always or never, not '" + *v + "'");
    } else {
      return usage_error("unknown flag " + sc.name() + " (see 'hclvm help json')");
    }
  }
  if (files.size() != 1) return usage_error("json needs exactly one FILE (see 'hclvm help json')");
  const std::string& path = files[0];
  if (path != "-" && classify(path) == FileSyntax::Json)
    return usage_error("cannot convert " + path + ": it is in the JSON syntax already");

  std::string bytes;
  if (!read_input(path, bytes, err)) return usage_error("cannot read " + path + ": " + err);
  Parsed p = parse_input(ParseAs::Config, display_name(path), std::move(bytes));
  if (!has_errors(p.diagnostics) && p.body) {
    std::string out = convert::body_to_json(*p.body, *p.source, options);
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout);
  }
  diag::write_text(p.diagnostics, p.snippet_files(), text_style_for(STDERR_FILENO, color),
                   file_sink(stderr));
  return has_errors(p.diagnostics) ? kExitErrors : kExitOk;
}

}  // namespace hclvm::cli
