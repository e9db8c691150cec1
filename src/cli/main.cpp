// The `hclvm` command: picks the subcommand, prints help and the version,
// and runs `ast` (the tree dump of one file). `check` lives in check.cpp,
// `eval` and `disasm` in eval.cpp, `bench` in bench.cpp.
// Every command exits 0 on success, 1 when the input has errors and 2 on a
// usage error or an input that cannot be read.
#include "cli/cli.h"
#include "cli/eval.h"
#include "syntax/dump.h"

#include <hclvm/convert.h>

#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#ifndef HCLVM_VERSION
#error "HCLVM_VERSION must be defined by the build (the CMake project version)"
#endif

namespace hclvm::cli {

const char kMainHelp[] =
    "Usage: hclvm COMMAND [options] [arguments]\n"
    "\n"
    "hclvm parses HCL2, the HashiCorp Configuration Language used by Terraform,\n"
    "Packer and Nomad, in its native and JSON syntaxes, exactly as the Go\n"
    "reference does.\n"
    "\n"
    "Commands:\n"
    "  check    parse files and directories and report syntax errors\n"
    "  fmt      rewrite files in the canonical layout (terraform fmt, hclfmt)\n"
    "  edit     get, set, add or remove attributes and blocks of a file\n"
    "  ast      print the syntax tree of one file\n"
    "  json     convert files to JSON (HCL JSON syntax, hcl2json) and back to HCL\n"
    "  eval     evaluate expressions, files, or whole Terraform modules\n"
    "  console  evaluate expressions in a module's scope, as terraform console does\n"
    "  disasm   print the bytecode of expressions\n"
    "  bench    measure how fast expressions evaluate\n"
    "  compile  compile files into one file that eval loads without parsing\n"
    "  cache    show, clear or verify the compiled-file cache\n"
    "  dec      decode files with an hcldec spec into JSON (also the hcldec program)\n"
    "  functions  list the function library with signatures and descriptions\n"
    "  version  print the version\n"
    "  completion  print a shell completion script (bash, zsh or fish)\n"
    "  help     show help for a command\n"
    "\n"
    "Options:\n"
    "  -h, --help     show this help\n"
    "  -v, --version  print the version\n"
    "\n"
    "Run 'hclvm help COMMAND' for the options of a command.\n";

const char kAstHelp[] =
    "Usage: hclvm ast [options] FILE\n"
    "\n"
    "Parses one file (\"-\" reads standard input) and prints its syntax tree,\n"
    "one node per line with its range, or as one JSON document (--format json,\n"
    "the schema of docs/ast-json.md). Diagnostics go to standard error; the\n"
    "tree is printed even when there are errors (the parser recovers). Files\n"
    "of the JSON syntax (*.json, or --as json) have their JSON tree printed,\n"
    "with --format json only.\n"
    "\n"
    "Options:\n"
    "  --as KIND      parse as config (default), expr, template, traversal or json\n"
    "  --format FMT   text (default) or json\n"
    "  --color WHEN   colour for diagnostics: auto (default), always or never\n"
    "  -h, --help     show this help\n"
    "\n"
    "Exit status: 0 no errors, 1 errors found, 2 usage error or unreadable input.\n";

namespace {

const char kHelpHelp[] =
    "Usage: hclvm help [COMMAND]\n"
    "\n"
    "Shows the general help, or the help of COMMAND (check, fmt, edit, ast, eval,\n"
    "console, disasm, bench, compile, cache, dec, functions, json, version,\n"
    "completion, help).\n";

const char kVersionHelp[] =
    "Usage: hclvm version\n"
    "       hclvm -v | --version\n"
    "\n"
    "Prints the version of hclvm (\"hclvm X.Y.Z\").\n";

// The version line of `hclvm version`, `-v` and `--version`.
int print_version() {
  std::printf("hclvm %s\n", HCLVM_VERSION);
  return kExitOk;
}

}  // namespace

const char* help_for(const std::string& cmd) {
  if (cmd == "check") return kCheckHelp;
  if (cmd == "fmt") return kFmtHelp;
  if (cmd == "edit") return kEditHelp;
  if (cmd == "ast") return kAstHelp;
  if (cmd == "eval") return kEvalHelp;
  if (cmd == "console") return kConsoleHelp;
  if (cmd == "disasm") return kDisasmHelp;
  if (cmd == "bench") return kBenchHelp;
  if (cmd == "compile") return kCompileHelp;
  if (cmd == "cache") return kCacheHelp;
  if (cmd == "dec") return kDecHelp;
  if (cmd == "functions") return kFunctionsHelp;
  if (cmd == "json") return kJsonHelp;
  if (cmd == "version") return kVersionHelp;
  if (cmd == "completion") return kCompletionHelp;
  if (cmd == "help") return kHelpHelp;
  return nullptr;
}

std::vector<std::string> command_names() {
  std::vector<std::string> out;
  std::string_view help = kMainHelp;
  size_t at = help.find("\nCommands:\n");
  std::string_view rest = help.substr(at + 11);
  while (rest.starts_with("  ")) {
    rest.remove_prefix(2);
    out.emplace_back(rest.substr(0, rest.find(' ')));
    rest.remove_prefix(rest.find('\n') + 1);
  }
  return out;
}

namespace {

// `hclvm ast` with its arguments [args].
int run_ast(const std::vector<std::string>& args) {
  ParseAs as = ParseAs::Config;
  ColorMode color = ColorMode::Auto;
  bool json = false;
  std::vector<std::string> files;
  ArgScanner sc(args);
  std::string err;
  while (sc.next()) {
    if (!sc.is_flag()) {
      files.push_back(sc.name());
    } else if (sc.is("--format")) {
      auto v = sc.value(err);
      if (!v) return usage_error(err);
      if (*v != "text" && *v != "json") return usage_error("--format must be text or json, not '" + *v + "'");
      json = *v == "json";
    } else if (sc.is("--help", "-h")) {
      std::fputs(kAstHelp, stdout);
      return kExitOk;
    } else if (sc.is("--as")) {
      auto v = sc.value(err);
      if (!v) return usage_error(err);
      if (!parse_as_kind(*v, as))
        return usage_error("--as must be config, expr, template, traversal or json, not '" + *v + "'");

    } else if (sc.is("--color")) {
      auto v = sc.value(err);
      if (!v) return usage_error(err);
      if (!parse_color_mode(*v, color))
        return usage_error("--color must be auto, always or never, not '" + *v + "'");
    } else {
      return unknown_flag(sc.name(), kAstHelp, "hclvm help ast");
    }
  }
  if (files.size() != 1) return usage_error("ast needs exactly one FILE (see 'hclvm help ast')");
  const std::string& path = files[0];
  as = parse_kind_for(as, path);
  if (as == ParseAs::Json && !json)
    return usage_error("cannot print " + path +
                       ": the text dump is of native syntax trees (--format json prints JSON-syntax trees)");

  std::string bytes;
  if (!read_input(path, bytes, err)) return usage_error("cannot read " + path + ": " + err);
  Parsed p = parse_input(as, display_name(path), std::move(bytes));

  std::string dump;
  if (json) {
    if (as == ParseAs::Json && p.json) dump = convert::ast_json_tree_json(*p.json);
    else if (p.body) dump = convert::ast_body_json(*p.body, *p.source);
    else if (p.expr) dump = convert::ast_expr_json(*p.expr, *p.source);
    else if (as == ParseAs::Traversal) dump = convert::ast_traversal_json(p.traversal, *p.source);
    else dump = "null\n";
  } else if (p.body) {
    dump = syntax::dump_body(*p.body, *p.source);
  } else if (p.expr) {
    dump = syntax::dump_expr(*p.expr, *p.source);
  } else if (as == ParseAs::Traversal) {
    dump = syntax::dump_traversal(p.traversal, *p.source);
  }
  std::fwrite(dump.data(), 1, dump.size(), stdout);
  std::fflush(stdout);

  diag::write_text(p.diagnostics, p.snippet_files(), text_style_for(STDERR_FILENO, color),
                   file_sink(stderr));
  return has_errors(p.diagnostics) ? kExitErrors : kExitOk;
}

// "; did you mean 'CMD'?" for the command closest to [word], or nothing.
std::string suggest_command(const std::string& word) {
  std::string s = closest_name(word, command_names());
  return s.empty() ? "" : "; did you mean '" + s + "'?";
}

// `hclvm version` with its arguments [args].
int run_version(const std::vector<std::string>& args) {
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    std::fputs(kVersionHelp, stdout);
    return kExitOk;
  }
  if (!args.empty()) return usage_error("version takes no arguments");
  return print_version();
}

// `hclvm help [CMD]` with its arguments [args].
int run_help(const std::vector<std::string>& args) {
  if (args.empty()) {
    std::fputs(kMainHelp, stdout);
    return kExitOk;
  }
  if (args[0] == "--man" && args.size() == 1) {
    // Hidden: the manual page, made from the help texts at build time.
    std::string page = man_page(HCLVM_VERSION);
    std::fwrite(page.data(), 1, page.size(), stdout);
    return kExitOk;
  }
  if (args.size() > 1) return usage_error("help takes at most one COMMAND");
  const char* text = help_for(args[0]);
  if (!text) return usage_error("no help for unknown command '" + args[0] + "'" + suggest_command(args[0]));
  std::fputs(text, stdout);
  return kExitOk;
}

}  // namespace
}  // namespace hclvm::cli

// Dispatches on the first argument.
namespace {

// Runs the command [argv] names; returns its exit status.
int run_command(int argc, char** argv) {
  using namespace hclvm::cli;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::fputs(kMainHelp, stderr);
    return kExitUsage;
  }
  const std::string cmd = args[0];
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (cmd == "--help" || cmd == "-h") return run_help({});
  if (cmd == "--version" || cmd == "-v") return print_version();
  if (cmd == "version") return run_version(rest);
  if (cmd == "completion") return run_completion(rest);
  if (cmd == "help") return run_help(rest);
  if (cmd == "check") return run_check(rest);
  if (cmd == "fmt") return run_fmt(rest);
  if (cmd == "edit") return run_edit(rest);
  if (cmd == "ast") return run_ast(rest);
  if (cmd == "eval") return run_eval(rest);
  if (cmd == "console") return run_console(rest);
  if (cmd == "disasm") return run_disasm(rest);
  if (cmd == "bench") return run_bench(rest);
  if (cmd == "compile") return run_compile(rest);
  if (cmd == "cache") return run_cache(rest);
  if (cmd == "dec") return run_dec(rest);
  if (cmd == "functions") return run_functions(rest);
  if (cmd == "json") return run_json(rest);
  if (!cmd.empty() && cmd[0] == '-') return unknown_flag(cmd, kMainHelp, "hclvm --help");
  return usage_error("unknown command '" + cmd + "'" + suggest_command(cmd) +
                     " (see 'hclvm --help')");
}

}  // namespace

int main(int argc, char** argv) {
  hclvm::cli::set_program_name(argv[0]);
  return hclvm::cli::finish(run_command(argc, argv));
}
