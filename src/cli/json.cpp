// `hclvm json`: configuration files converted between the native syntax and
// JSON (include/hclvm/convert.h). One file converts to standard output;
// several (directories, several paths) convert into one JSON document
// keyed by path, or with -o into twin files under a directory. A file with
// syntax errors gets the diagnostics `hclvm check` reports, on standard
// error, and no output.
#include "cli/cli.h"

#include <hclvm/config_layout.h>
#include <hclvm/convert.h>
#include <hclvm/hcldec.h>

#include "util/unicode.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>

namespace hclvm::cli {

namespace fs = std::filesystem;

const char kJsonHelp[] =
    "Usage: hclvm json [options] PATH...\n"
    "\n"
    "Converts configuration files of the native syntax to JSON, or with\n"
    "--to hcl files of the JSON syntax back to the native syntax. PATH is a\n"
    "file, a directory (its configuration files of the syntax converted from,\n"
    "recursively, skipping hidden names and node_modules, following symbolic\n"
    "links to directories once, as 'hclvm check' does) or \"-\" for standard input.\n"
    "One file converts to standard output; several convert, without -o, into\n"
    "one JSON document whose keys are their paths (--to json only).\n"
    "\n"
    "The default shape, jsonsyntax, is the HCL JSON syntax: a .tf.json or\n"
    ".hcl.json document that HCL reads as the same body. Literals become JSON\n"
    "values, templates stay templates (literal \"${\" and \"%{\" escaped as \"$${\"\n"
    "and \"%%{\"), any other expression becomes a \"${...}\" template of its source\n"
    "text, and blocks nest by type and labels. Attributes and blocks keep their\n"
    "order: at the top level, block types that interleave make the document an\n"
    "array of objects; inside a block, each block type stands where its first\n"
    "block stood. Comments are dropped, or with --comments kept as \"//\"\n"
    "properties of the body they stand in. A file with bytes that are not UTF-8\n"
    "in a name, string or expression (which JSON cannot hold) is refused.\n"
    "\n"
    "The shape hcl2json is the document @cdktf/hcl2json's parse() returns (the\n"
    "Go hcl2json converter): every block an array of bodies under its type and\n"
    "labels, keys sorted, any expression that is not a literal, tuple, object or\n"
    "template as \"${...}\". Input hcl2json refuses (blocks of one type with and\n"
    "without labels, `-true`) is refused too, with exit status 1.\n"
    "\n"
    "With --spec FILE, the document is what hcldec's decoding with that spec\n"
    "gives, of files of either syntax: blocks as the spec's lists, sets, maps\n"
    "and objects, attributes under its names and converted to its types; an\n"
    "attribute the spec's variables and functions cannot evaluate is kept as\n"
    "the JSON syntax writes it (\"${...}\"). What hcldec reports (unsupported\n"
    "arguments, values of the wrong type) is an error.\n"
    "\n"
    "Back to the native syntax (--to hcl): \"${EXPR}\" strings become EXPR, other\n"
    "strings quoted templates, objects and arrays object and tuple constructors,\n"
    "\"//\" properties of bodies `#` comments; the text is laid out as hclfmt lays\n"
    "it out. JSON cannot tell a block from an attribute whose value is an\n"
    "object, so a layout says which properties are blocks: Terraform's blocks\n"
    "for *.tf.json files and Packer's for *.pkr.json (blocks that providers and\n"
    "plugins define are not known and convert as attributes), or those of an\n"
    "hcldec spec (--spec) or of a native file of the same shape (--like).\n"
    "\n"
    "Options:\n"
    "  --to SYNTAX       json (default): native to JSON; hcl: JSON to native\n"
    "  --shape SHAPE     jsonsyntax (default) or hcl2json\n"
    "  --preserve-order  hcl2json: keys in source order rather than sorted\n"
    "  --merge           hcl2json: each DIR as one document, as @cdktf/hcl2json's\n"
    "                    convertFiles makes it (its *.tf files joined, its\n"
    "                    *.tf.json files merged in)\n"
    "  --comments        jsonsyntax: keep comments as \"//\" properties\n"
    "  --layout LAYOUT   --to hcl: auto (default: by file name), terraform,\n"
    "                    packer or none (every property an attribute)\n"
    "  --spec FILE       the document in the shape the hcldec spec FILE decodes\n"
    "                    (with --to hcl: the blocks it reads)\n"
    "  --like FILE       --to hcl: the blocks native FILE has\n"
    "  -o, --output DIR  write each file's twin into DIR (main.tf -> main.tf.json,\n"
    "                    x.pkr.hcl -> x.pkr.json and back), keeping the paths\n"
    "                    of files found in directories; never half-written\n"
    "  --color WHEN      colour for diagnostics: auto (default), always or never\n"
    "  -h, --help        show this help\n"
    "\n"
    "Exit status: 0 converted, 1 a file has syntax errors (reported as\n"
    "'hclvm check' reports them, on standard error) or the target cannot hold\n"
    "it (the other files are still converted), 2 usage error or unreadable\n"
    "input.\n";

namespace {

enum class Direction { ToJson, ToHcl };
enum class LayoutChoice { Auto, Terraform, Packer, None };

struct JsonCommand {
  Direction to = Direction::ToJson;
  convert::JsonOptions options;
  LayoutChoice layout = LayoutChoice::Auto;
  std::optional<convert::BodyLayout> fixed_layout;  // from --spec or --like (--to hcl)
  // --spec, --to json: the spec whose shape the document takes, and the
  // context of its variables and functions (null: none).
  std::shared_ptr<const hcldec::SpecFile> spec;
  std::shared_ptr<const EvalContext> spec_ctx;
  std::string output_dir;
  ColorMode color = ColorMode::Auto;
};

// Returns the name of the twin of file [name] in the other syntax.
std::string twin_name(const std::string& name, Direction to) {
  if (to == Direction::ToJson) {
    if (name.ends_with(".pkr.hcl")) return name.substr(0, name.size() - 4) + ".json";
    return name + ".json";
  }
  if (name.ends_with(".pkr.json")) return name.substr(0, name.size() - 5) + ".hcl";
  if (name.ends_with(".json")) return name.substr(0, name.size() - 5);
  return name + ".hcl";
}

// The layout for converting JSON file [path] back to the native syntax.
convert::BodyLayout layout_for(const JsonCommand& c, const std::string& path) {
  if (c.fixed_layout) return *c.fixed_layout;
  switch (c.layout) {
    case LayoutChoice::Auto: return config::layout_for_file(path);
    case LayoutChoice::Terraform: return config::terraform_layout();
    case LayoutChoice::Packer: return config::packer_layout();
    case LayoutChoice::None: break;
  }
  return {};
}

// Reads the layout of --spec [path] or --like [path] into [c]; a usage
// error message on failure.
std::optional<std::string> read_layout(JsonCommand& c, const std::string& path, bool spec,
                                       const diag::TextStyle& style) {
  std::string bytes, err;
  if (!read_input(path, bytes, err)) return "cannot read " + path + ": " + err;
  if (spec) {
    auto src = make_source(path, std::move(bytes));
    hcldec::SpecFile f = hcldec::load_spec_file(src);
    if (f.has_errors()) {
      diag::SnippetFiles files;
      files.emplace(src->name(), diag::SnippetFile{src->text(), {}});
      diag::write_text(f.diagnostics, files, style, file_sink(stderr));
      return "cannot read the spec " + path;
    }
    if (c.to == Direction::ToHcl) {
      c.fixed_layout = convert::layout_of(*f.root);
      return std::nullopt;
    }
    if (!f.variables.empty() || f.functions.size() > 0) {
      auto ctx = std::make_shared<EvalContext>();
      for (const auto& [k, v] : f.variables) ctx->set(k, v);
      ctx->set_variables_allowed(!f.variables.empty());
      if (f.functions.size() > 0) ctx->set_functions(std::make_shared<FunctionTable>(f.functions));
      c.spec_ctx = std::move(ctx);
    }
    c.spec = std::make_shared<hcldec::SpecFile>(std::move(f));
    return std::nullopt;
  }
  Parsed p = parse_input(ParseAs::Config, path, std::move(bytes));
  if (has_errors(p.diagnostics) || !p.body) {
    diag::write_text(p.diagnostics, p.snippet_files(), style, file_sink(stderr));
    return "cannot read the layout of " + path;
  }
  c.fixed_layout = convert::layout_of(*p.body);
  return std::nullopt;
}

// What converting one file gave.
struct Converted {
  std::string text;
  int status = kExitOk;
};

// Converts file [path] (bytes [bytes]) as [c] says, reporting its problems
// on standard error.
Converted convert_one(const JsonCommand& c, const std::string& path, std::string bytes,
                      const diag::TextStyle& style) {
  Converted out;
  std::string name = display_name(path);
  if (c.to == Direction::ToHcl) {
    convert::Result r = convert::json_to_native(name, std::move(bytes), layout_for(c, path));
    diag::SnippetFiles files;
    if (r.source) files.emplace(r.source->name(), diag::SnippetFile{r.source->text(), {}});
    diag::write_text(r.diagnostics, files, style, file_sink(stderr));
    if (!r.ok()) out.status = kExitErrors;
    out.text = std::move(r.text);
    return out;
  }
  if (c.spec) {
    ConfigFile f = parse_body(make_source(name, std::move(bytes)));
    Diagnostics diags = f.diagnostics;
    if (!f.has_errors()) {
      convert::Result r = convert::body_to_spec_json(f.body, *c.spec->root, c.spec_ctx.get());
      diags.insert(diags.end(), r.diagnostics.begin(), r.diagnostics.end());
      out.text = std::move(r.text);
    }
    diag::SnippetFiles files;
    files.emplace(f.source->name(), diag::SnippetFile{f.source->text(), {}});
    diag::write_text(diags, files, style, file_sink(stderr));
    if (has_errors(diags)) {
      out.status = kExitErrors;
      out.text.clear();
    }
    return out;
  }
  Parsed p = parse_input(ParseAs::Config, name, std::move(bytes));
  if (!has_errors(p.diagnostics) && p.body) {
    convert::Result r = convert::body_to_json(*p.body, *p.source, c.options);
    out.text = std::move(r.text);
    if (!r.error.empty()) {
      std::fprintf(stderr, "hclvm: cannot convert %s to %s: %s\n", name.c_str(),
                   c.options.shape == convert::Shape::Hcl2Json ? "the hcl2json shape" : "the JSON syntax",
                   r.error.c_str());
      out.status = kExitErrors;
    }
  }
  diag::write_text(p.diagnostics, p.snippet_files(), style, file_sink(stderr));
  if (has_errors(p.diagnostics)) out.status = kExitErrors;
  return out;
}

// One file to convert: its path and where its twin goes under -o.
struct Input {
  std::string path;
  std::string relative;  // the twin's path under the output directory
};

// Expands [paths] into the files to convert: directories searched for
// files of the syntax converted from (of both with [any_syntax]).
std::optional<std::vector<Input>> inputs_of(const std::vector<std::string>& paths, Direction to, bool any_syntax,
                                            std::string& err) {
  std::vector<Input> out;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (path != "-" && fs::is_directory(path, ec)) {
      std::optional<Inputs> found = collect_inputs({path}, WalkOptions{}, err);
      if (!found) return std::nullopt;
      if (!found->unreadable.empty()) {
        const auto& [what, why] = *found->unreadable.begin();
        err = "cannot read " + what + ": " + why;
        return std::nullopt;
      }
      for (const std::string& f : found->files) {
        FileSyntax s = classify(f);
        if (!any_syntax && (to == Direction::ToJson) != (s == FileSyntax::Native)) continue;
        std::string rel = fs::path(f).lexically_relative(path).generic_string();
        out.push_back({f, twin_name(rel, to)});
      }
      continue;
    }
    if (path != "-") {
      FileSyntax s = classify(path);
      if (to == Direction::ToJson && s == FileSyntax::Json && !any_syntax) {
        err = "cannot convert " + path + ": it is in the JSON syntax already (--to hcl converts it back)";
        return std::nullopt;
      }
      if (to == Direction::ToHcl && s == FileSyntax::Native) {
        err = "cannot convert " + path + " back: it is in the native syntax already";
        return std::nullopt;
      }
    }
    std::string base = path == "-" ? (to == Direction::ToJson ? "stdin.hcl" : "stdin.json")
                                   : fs::path(path).filename().string();
    out.push_back({path, twin_name(base, to)});
  }
  return out;
}

// Appends document [doc] (ending in a newline) to [out] as a property
// value indented one level.
void append_nested(std::string& out, std::string_view doc) {
  if (!doc.empty() && doc.back() == '\n') doc.remove_suffix(1);
  for (size_t i = 0; i < doc.size();) {
    size_t nl = doc.find('\n', i);
    if (nl == std::string_view::npos) nl = doc.size();
    if (i != 0) out += "\n  ";
    out.append(doc.substr(i, nl - i));
    i = nl + 1;
  }
}

// `--merge`: each directory of [paths] as @cdktf/hcl2json's
// convertFiles(dir) makes it (its own *.tf and *.tf.json files, by name),
// one directory to standard output, several into one document keyed by
// directory.
int merge_modules(const std::vector<std::string>& paths, const JsonCommand& c, const diag::TextStyle& style) {
  int status = kExitOk;
  std::vector<std::pair<std::string, std::string>> docs;
  for (const std::string& dir : paths) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return usage_error("--merge takes directories; " + dir + " is not one");
    std::vector<std::string> names;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      std::string name = it->path().filename().string();
      if (!(name.ends_with(".tf") || name.ends_with(".tf.json"))) continue;
      if (it->symlink_status(ec).type() == fs::file_type::directory) continue;  // as lstat does
      names.push_back(name);
    }
    if (ec) return usage_error("cannot read " + dir + ": " + ec.message());
    std::sort(names.begin(), names.end());  // libuv's scandir order: by bytes
    std::vector<std::pair<std::string, std::string>> tf, json;
    bool bad = false;
    for (const std::string& name : names) {
      std::string path = (fs::path(dir) / name).string(), bytes, err;
      if (!read_input(path, bytes, err)) {
        std::fprintf(stderr, "hclvm: cannot read %s: %s\n", path.c_str(), err.c_str());
        status = kExitUsage;
        bad = true;
        continue;
      }
      if (name.ends_with(".json")) {
        json.emplace_back(path, std::move(bytes));
        continue;
      }
      // Each file's own syntax errors, with its own name and lines.
      Parsed p = parse_input(ParseAs::Config, path, bytes);
      if (has_errors(p.diagnostics)) {
        diag::write_text(p.diagnostics, p.snippet_files(), style, file_sink(stderr));
        bad = true;
      }
      tf.emplace_back(path, std::move(bytes));
    }
    if (bad) {
      if (status == kExitOk) status = kExitErrors;
      continue;
    }
    if (tf.empty() && json.empty()) std::fprintf(stderr, "hclvm: no .tf or .tf.json files in %s\n", dir.c_str());
    convert::Result r = convert::module_to_hcl2json(tf, json, c.options);
    diag::SnippetFiles files;
    for (const auto& [name, bytes] : json) files.emplace(name, diag::SnippetFile{bytes, {}});
    diag::write_text(r.diagnostics, files, style, file_sink(stderr));
    if (!r.error.empty()) std::fprintf(stderr, "hclvm: cannot convert %s: %s\n", dir.c_str(), r.error.c_str());
    if (!r.ok()) {
      if (status == kExitOk) status = kExitErrors;
      continue;
    }
    docs.emplace_back(dir, std::move(r.text));
  }
  if (paths.size() == 1) {
    if (!docs.empty()) std::fwrite(docs[0].second.data(), 1, docs[0].second.size(), stdout);
  } else {
    std::string out = "{";
    for (size_t i = 0; i < docs.size(); ++i) {
      out += i ? ",\n  " : "\n  ";
      uni::append_json_quoted(out, docs[i].first, uni::JsonQuoting{});
      out += ": ";
      append_nested(out, docs[i].second);
    }
    out += docs.empty() ? "}\n" : "\n}\n";
    std::fwrite(out.data(), 1, out.size(), stdout);
  }
  std::fflush(stdout);
  return status;
}

}  // namespace

// Runs `hclvm json` with its arguments [args]; returns the exit status.
int run_json(const std::vector<std::string>& args) {
  JsonCommand c;
  std::vector<std::string> paths;
  std::optional<std::string> spec, like;
  bool merge = false;
  ArgScanner sc(args);
  std::string err;
  while (sc.next()) {
    if (!sc.is_flag()) {
      paths.push_back(sc.name());
    } else if (sc.is("--help", "-h")) {
      std::fputs(kJsonHelp, stdout);
      return kExitOk;
    } else if (sc.is("--to")) {
      auto v = sc.value(err);
      if (!v) return usage_error(err);
      if (*v == "json") c.to = Direction::ToJson;
      else if (*v == "hcl") c.to = Direction::ToHcl;
      else return usage_error("--to must be json or hcl, not '" + *v + "'");
    } else if (sc.is("--shape")) {
      auto v = sc.value(err);
      if (!v) return usage_error(err);
      if (*v == "jsonsyntax") c.options.shape = convert::Shape::JsonSyntax;
      else if (*v == "hcl2json") c.options.shape = convert::Shape::Hcl2Json;
      else return usage_error("--shape must be jsonsyntax or hcl2json, not '" + *v + "'");
    } else if (sc.is("--preserve-order")) {
      c.options.preserve_order = true;
    } else if (sc.is("--merge")) {
      merge = true;
    } else if (sc.is("--comments")) {
      c.options.comments = true;
    } else if (sc.is("--layout")) {
      auto v = sc.value(err);
      if (!v) return usage_error(err);
      if (*v == "auto") c.layout = LayoutChoice::Auto;
      else if (*v == "terraform") c.layout = LayoutChoice::Terraform;
      else if (*v == "packer") c.layout = LayoutChoice::Packer;
      else if (*v == "none") c.layout = LayoutChoice::None;
      else return usage_error("--layout must be auto, terraform, packer or none, not '" + *v + "'");
    } else if (sc.is("--spec")) {
      if (!(spec = sc.value(err))) return usage_error(err);
    } else if (sc.is("--like")) {
      if (!(like = sc.value(err))) return usage_error(err);
    } else if (sc.is("--output", "-o")) {
      auto v = sc.value(err);
      if (!v) return usage_error(err);
      c.output_dir = *v;
    } else if (sc.is("--color")) {
      auto v = sc.value(err);
      if (!v) return usage_error(err);
      if (!parse_color_mode(*v, c.color))
        return usage_error("--color must be auto, always or never, not '" + *v + "'");
    } else {
      return unknown_flag(sc.name(), kJsonHelp, "hclvm help json");
    }
  }
  if (paths.empty()) return usage_error("json needs a PATH (see 'hclvm help json')");
  if (c.to == Direction::ToHcl && c.options.shape == convert::Shape::Hcl2Json)
    return usage_error("--shape hcl2json is a JSON shape; --to hcl reads the JSON syntax");
  if (c.to == Direction::ToJson && like) return usage_error("--like goes with --to hcl");
  if (c.to == Direction::ToJson && spec && (c.options.shape != convert::Shape::JsonSyntax || c.options.comments ||
                                            !c.output_dir.empty()))
    return usage_error("--spec writes the spec's own shape: not with --shape, --comments or -o");
  if (spec && like) return usage_error("--spec and --like cannot be given together");
  if (c.options.comments && c.options.shape == convert::Shape::Hcl2Json)
    return usage_error("--comments goes with the jsonsyntax shape");
  diag::TextStyle style = text_style_for(STDERR_FILENO, c.color);
  if (merge) {
    if (c.options.shape != convert::Shape::Hcl2Json || c.to != Direction::ToJson || spec || !c.output_dir.empty())
      return usage_error("--merge makes convertFiles's document: with --shape hcl2json only, not --to hcl, "
                         "--spec or -o");
    return merge_modules(paths, c, style);
  }
  if (spec || like) {
    if (auto e = read_layout(c, spec ? *spec : *like, spec.has_value(), style)) return usage_error(*e);
  }

  auto inputs = inputs_of(paths, c.to, c.spec != nullptr, err);
  if (!inputs) return usage_error(err);
  bool single = paths.size() == 1 && inputs->size() == 1 && c.output_dir.empty() &&
                !(paths[0] != "-" && fs::is_directory(paths[0]));
  if (!single && c.output_dir.empty() && c.to == Direction::ToHcl)
    return usage_error("--to hcl converts several files only into a directory (-o DIR)");

  int status = kExitOk;
  std::string merged = "{";
  size_t written = 0;
  for (const Input& in : *inputs) {
    std::string bytes;
    if (!read_input(in.path, bytes, err)) {
      std::fprintf(stderr, "hclvm: cannot read %s: %s\n", in.path.c_str(), err.c_str());
      status = kExitUsage;
      continue;
    }
    Converted r = convert_one(c, in.path, std::move(bytes), style);
    if (r.status != kExitOk && status == kExitOk) status = r.status;
    if (r.text.empty()) continue;
    if (single) {
      std::fwrite(r.text.data(), 1, r.text.size(), stdout);
    } else if (c.output_dir.empty()) {
      merged += written++ ? ",\n  " : "\n  ";
      uni::append_json_quoted(merged, in.path, uni::JsonQuoting{});
      merged += ": ";
      append_nested(merged, r.text);
    } else {
      fs::path target = fs::path(c.output_dir) / in.relative;
      std::error_code ec;
      fs::create_directories(target.parent_path(), ec);
      if (ec) {
        std::fprintf(stderr, "hclvm: cannot create %s: %s\n", target.parent_path().c_str(),
                     ec.message().c_str());
        status = kExitUsage;
        continue;
      }
      if (!write_file_atomic(target.string(), r.text, err)) {
        std::fprintf(stderr, "hclvm: cannot write %s: %s\n", target.c_str(), err.c_str());
        status = kExitUsage;
        continue;
      }
      ++written;
    }
  }
  if (!single && c.output_dir.empty()) {
    merged += written ? "\n}\n" : "}\n";
    std::fwrite(merged.data(), 1, merged.size(), stdout);
  }
  std::fflush(stdout);
  return status;
}

}  // namespace hclvm::cli
