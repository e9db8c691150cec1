// `hclvm edit`: one change to one file from the command line, through the
// lossless tree (hclvm::format::Document), so that everything the change
// does not touch keeps its bytes and comments. For shell scripts: the
// result replaces the file atomically, `get` prints to standard output,
// and failures say why on standard error with a status of their own.
#include "cli/cli.h"

#include <hclvm/format.h>
#include <hclvm/value_json.h>

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace hclvm::cli {

const char kEditHelp[] =
    "Usage: hclvm edit [options] FILE COMMAND PATH [ARG...]\n"
    "\n"
    "Reads or changes one thing in an HCL file, keeping the bytes and comments\n"
    "of everything else. The file is replaced through a temporary file and a\n"
    "rename; \"-\" as FILE reads standard input and prints the result.\n"
    "\n"
    "Commands:\n"
    "  get PATH              print what PATH names: the value of an attribute\n"
    "                        or object item, a tuple element, or a whole block\n"
    "  set PATH EXPR         set an attribute, object item or tuple element to\n"
    "                        the expression EXPR; a missing attribute or item\n"
    "                        is added\n"
    "  add PATH EXPR         add an attribute or object item (it must not exist\n"
    "                        yet), or append EXPR to the tuple PATH names\n"
    "  add PATH              add an empty block: PATH is where (the longest part\n"
    "                        that names a body) followed by its type and labels\n"
    "  remove PATH           remove an attribute, block, object item or tuple\n"
    "                        element, with its comment lines\n"
    "  rename PATH LABEL...  replace the last labels of the block PATH names\n"
    "\n"
    "PATH: names separated by dots, each an identifier or a quoted string;\n"
    "from a body, an attribute, or a block type followed by the block's labels;\n"
    "[N] after a block type picks the Nth such block (from 0), [N] after a\n"
    "tuple its Nth element, .key or [\"key\"] an object's item:\n"
    "  resource.aws_s3_bucket.logs.tags.Env   module.vpc.azs[0]   locals[1].name\n"
    "\n"
    "Options:\n"
    "  --json          EXPR is a JSON value, written as an HCL literal\n"
    "  -o, --output F  write the result to F (\"-\": standard output) instead of\n"
    "                  replacing FILE\n"
    "  --color WHEN    colour for diagnostics: auto (default), always or never\n"
    "  -h, --help      show this help\n"
    "\n"
    "Exit status: 0 done; 1 not done (nothing at PATH, EXPR not an expression,\n"
    "the edit would break the file); 2 usage error or unreadable FILE.\n";

namespace {

// Prints [diags] for the edit of [doc] with expression [expr] to stderr;
// returns kExitErrors.
int report(const Diagnostics& diags, const format::Document& doc, std::string_view expr, ColorMode color) {
  diag::SnippetFiles files;
  files.emplace(doc.tree().source().name(), diag::SnippetFile{doc.text(), {}});
  files.emplace("<value>", diag::SnippetFile{expr, {}});
  std::string text = diag::render_text(diags, files, text_style_for(STDERR_FILENO, color));
  std::fwrite(text.data(), 1, text.size(), stderr);
  return kExitErrors;
}

}  // namespace

int run_edit(const std::vector<std::string>& args) {
  std::vector<std::string> pos;
  std::optional<std::string> output;
  bool json = false;
  ColorMode color = ColorMode::Auto;
  ArgScanner sc(args);
  std::string err;
  while (sc.next()) {
    if (!sc.is_flag()) {
      pos.push_back(sc.name());
    } else if (sc.is("--help", "-h")) {
      std::fputs(kEditHelp, stdout);
      return kExitOk;
    } else if (sc.is("--json")) {
      json = true;
    } else if (sc.is("--output", "-o")) {
      output = sc.value(err);
      if (!output) return usage_error(err);
    } else if (sc.is("--color")) {
      auto v = sc.value(err);
      if (!v) return usage_error(err);
      if (!parse_color_mode(*v, color)) return usage_error("--color must be auto, always or never, not '" + *v + "'");
    } else {
      return unknown_flag(sc.name(), kEditHelp, "hclvm help edit");
    }
  }
  if (pos.size() < 3) return usage_error("edit needs FILE COMMAND PATH (see 'hclvm help edit')");
  const std::string &file = pos[0], &cmd = pos[1], &path = pos[2];
  std::vector<std::string> rest(pos.begin() + 3, pos.end());
  auto arity = [&](size_t lo, size_t hi) {
    return rest.size() >= lo && rest.size() <= hi;
  };
  bool ok = cmd == "get" || cmd == "remove" ? arity(0, 0)
            : cmd == "set"                  ? arity(1, 1)
            : cmd == "add"                  ? arity(0, 1)
            : cmd == "rename"               ? arity(1, SIZE_MAX)
                                            : false;
  if (!ok) {
    if (cmd != "get" && cmd != "set" && cmd != "add" && cmd != "remove" && cmd != "rename")
      return usage_error("unknown edit command '" + cmd + "' (get, set, add, remove or rename)");
    return usage_error("wrong number of arguments for edit " + cmd + " (see 'hclvm help edit')");
  }

  std::string bytes;
  if (!read_input(file, bytes, err)) return usage_error("cannot read " + file + ": " + err);
  format::Document doc(display_name(file), std::move(bytes));

  if (cmd == "get") {
    std::string out;
    if (Diagnostics d = doc.get(path, out); !d.empty()) return report(d, doc, {}, color);
    out += '\n';
    std::fwrite(out.data(), 1, out.size(), stdout);
    return kExitOk;
  }
  Diagnostics d;
  if (cmd == "remove") {
    d = doc.remove(path);
  } else if (cmd == "rename") {
    d = doc.rename(path, rest);
  } else if (cmd == "add" && rest.empty()) {
    d = doc.add_block(path);
  } else if (json) {
    JsonValue v = value_from_json(rest[0]);
    if (!v.error.empty()) return usage_error("--json: " + v.error);
    d = cmd == "set" ? doc.set(path, v.value) : doc.add(path, v.value);
  } else {
    d = cmd == "set" ? doc.set(path, rest[0]) : doc.add(path, rest[0]);
  }
  if (!d.empty()) return report(d, doc, rest.empty() || cmd == "rename" ? std::string_view{} : rest[0], color);

  std::string target = output ? *output : file;
  if (target == "-") {
    std::fwrite(doc.text().data(), 1, doc.text().size(), stdout);
    return kExitOk;
  }
  if (output) {
    FILE* f = std::fopen(target.c_str(), "wb");
    if (!f) return usage_error("cannot write " + target + ": " + std::strerror(errno));
    bool wrote = std::fwrite(doc.text().data(), 1, doc.text().size(), f) == doc.text().size();
    int why = errno;
    if (std::fclose(f) != 0 && wrote) wrote = false, why = errno;
    if (!wrote) return usage_error("cannot write " + target + ": " + std::strerror(why));
    return kExitOk;
  }
  if (!write_file_atomic(target, doc.text(), err)) return usage_error("cannot write " + target + ": " + err);
  return kExitOk;
}

}  // namespace hclvm::cli
