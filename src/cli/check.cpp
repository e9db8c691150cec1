// `hclvm check`: parse files and directories and report their diagnostics.
// Files are parsed by a pool of threads (with -j1, or one file, on the main
// thread alone), but results are printed strictly in sorted path order, each
// as soon as it and all before it are done, so the output is the same for
// any -j; a file with much diagnostic text writes it itself, as it is
// rendered, once its turn has come, so that memory stays bounded however
// much text there is. Text diagnostics go to stdout (they are
// the command's output) with a summary line on stderr; the other formats
// are one document for all files (report.h), `--format hcldec` exactly
// `hcldec --diags=json` (nothing when there are no diagnostics).
#include "cli/cli.h"
#include "cli/eval.h"
#include "cli/report.h"

#include <hclvm/cache.h>
#include <hclvm/config.h>

#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>
#include <unordered_set>

namespace hclvm::cli {

const char kCheckHelp[] =
    "Usage: hclvm check [options] [PATH...]\n"
    "\n"
    "Parses HCL files and reports their syntax errors. A directory is searched\n"
    "recursively for *.hcl (including *.pkr.hcl), *.tf, *.tfvars and *.nomad\n"
    "files and their JSON-syntax twins (*.tf.json, *.hcl.json, *.pkr.json,\n"
    "...), skipping hidden names (.git, .terraform, ...), node_modules and what\n"
    "--exclude names; symbolic links to directories are followed, each\n"
    "directory once (a link back into the tree is not). \"-\" reads standard\n"
    "input; no PATH checks the current directory. Files named *.json are read\n"
    "in the JSON syntax. Files are reported in sorted path order whatever -j is;\n"
    "a path that cannot be read is reported in its turn and the others are\n"
    "still checked.\n"
    "A directory that holds Terraform files (*.tf, *.tf.json) or Packer templates\n"
    "(*.pkr.hcl, *.pkr.json) is also loaded as a module, and what `terraform\n"
    "validate` reports without providers is reported too: malformed blocks,\n"
    "duplicates, undeclared references, cycles, invalid count and for_each...\n"
    "As with terraform validate, the module's test files (*.tftest.hcl,\n"
    "*.tftest.json, also in its tests/ directory) are read too, with the mock\n"
    "data directories their mock providers name.\n"
    "\n"
    "Options:\n"
    "  --as KIND        parse each file as config (default), expr, template,\n"
    "                   traversal (an absolute traversal such as a.b[0]) or\n"
    "                   json (a configuration file in the JSON syntax)\n"
    "  --format FORMAT  text (default: diagnostics on standard output, a summary\n"
    "                   and unreadable paths on standard error), json (one\n"
    "                   document, also when all is well: valid, counts, files,\n"
    "                   unreadable, symlinks, diagnostics), hcldec (exactly\n"
    "                   hcldec --diags=json: nothing when there are no\n"
    "                   diagnostics), sarif (SARIF 2.1.0, for code scanning),\n"
    "                   checkstyle or junit (XML for CI services); for one\n"
    "                   module directory also terraform (Terraform's human view)\n"
    "                   or terraform-json (the document of terraform validate -json)\n"
    "  --exclude GLOB   skip files and directories whose name or path below the\n"
    "                   directory named matches GLOB (fnmatch; may be repeated)\n"
    "  --no-default-excludes\n"
    "                   do not skip hidden names and node_modules\n"
    "  --color WHEN     auto (default: on a terminal unless NO_COLOR is set),\n"
    "                   always or never\n"
    "  -j, --jobs N     parse N files at a time (default: number of CPUs)\n"
    "  --cache          read configuration files through the compiled-file cache:\n"
    "                   files seen before are not parsed again, the others are\n"
    "                   compiled and stored for 'hclvm eval --cache'\n"
    "  --cache-dir DIR  the cache directory (implies --cache)\n"
    "  --no-cache       parse every file (the default)\n"
    "  --no-tests       do not read a module's test files\n"
    "  --test-directory DIR\n"
    "                   the directory of a module's test files besides its own\n"
    "                   (default: tests)\n"
    "  -h, --help       show this help\n"
    "\n"
    "Exit status: 0 no errors (warnings allowed), 1 errors found,\n"
    "2 usage error or an unreadable path (once the rest is checked).\n";

namespace {

enum class CheckFormat { Text, Json, Hcldec, Sarif, Checkstyle, Junit, Terraform, TerraformJson };

struct CheckOptions {
  ParseAs as = ParseAs::Config;
  CheckFormat format = CheckFormat::Text;
  ColorMode color = ColorMode::Auto;
  unsigned jobs = 0;  // 0: hardware concurrency
  std::vector<std::string> paths;
  WalkOptions walk;
  bool cache = false;  // configuration files through the compiled-file cache
  std::string cache_dir;
  bool tests = true;  // a module's test files read too
  std::string test_directory = "tests";
};

// What checking one file produced; filled by a worker, read by the printer.
struct FileResult {
  bool done = false;
  std::string read_error;    // non-empty: the file could not be read
  std::string text;          // rendered diagnostics (text format) not yet written
  Diagnostics diagnostics;   // kept for the JSON format only
  unsigned errors = 0, warnings = 0;
};

// The text a file's worker holds before it waits for the file's turn to
// write its diagnostics itself, and the text of finished files that may
// wait to be printed: the text of one file's diagnostics can be far larger
// than the file (each diagnostic shows its source lines), and is written
// as it is made rather than held.
constexpr size_t kHoldPerFile = size_t(256) << 10;
constexpr size_t kHoldTotal = size_t(64) << 20;

// Hands the text of the files' diagnostics to standard output in the files'
// order while workers render them in parallel. Locked by its mutex; the
// printer (the main thread) takes finished files in order, and a worker
// whose file has more text than it may hold waits for the file's turn and
// then writes the text itself.
struct Output {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<FileResult> results;
  size_t printed = 0;  // files the printer is done with
  size_t held = 0;     // bytes of text in finished files not yet printed
};

// The destination of one file's diagnostic text: held up to kHoldPerFile,
// then, once all files before it are printed, written to stdout as it comes.
class FileText {
 public:
  FileText(Output& out, size_t index) : out_(out), index_(index) {}

  // Takes the next piece [s] of the file's text.
  void write(std::string_view s) {
    if (streaming_) {
      std::fwrite(s.data(), 1, s.size(), stdout);
      return;
    }
    text_.append(s);
    if (text_.size() <= kHoldPerFile) return;
    {
      // The printer is waiting for this file once it has printed all
      // before it: nothing else writes to stdout until the file is done.
      std::unique_lock<std::mutex> lock(out_.mu);
      out_.cv.wait(lock, [this] { return out_.printed == index_; });
    }
    std::fwrite(text_.data(), 1, text_.size(), stdout);
    std::string().swap(text_);
    streaming_ = true;
  }

  // The text not written yet, for the printer.
  std::string take() { return std::move(text_); }

 private:
  Output& out_;
  size_t index_;
  std::string text_;
  bool streaming_ = false;
};

// Parses [args] into [opts]; returns an exit status when the command should
// stop now (help shown, usage error), or nothing to go on.
std::optional<int> parse_options(const std::vector<std::string>& args_in, CheckOptions& opts) {
  // terraform validate's spellings: -no-tests, -test-directory=DIR.
  std::vector<std::string> args = long_terraform_flags(args_in, {"no-tests", "test-directory"});
  ArgScanner sc(args);
  std::string err;
  while (sc.next()) {
    if (!sc.is_flag()) {
      opts.paths.push_back(sc.name());
      continue;
    }
    if (sc.is("--help", "-h")) {
      std::fputs(kCheckHelp, stdout);
      return kExitOk;
    }
    if (sc.is("--cache") || sc.is("--no-cache")) {
      opts.cache = sc.is("--cache");
      continue;
    }
    if (sc.is("--no-default-excludes")) {
      opts.walk.default_excludes = false;
      continue;
    }
    if (sc.is("--no-tests")) {
      opts.tests = false;
      continue;
    }
    std::optional<std::string> v;
    if (sc.is("--as") || sc.is("--format") || sc.is("--color") || sc.is("--jobs", "-j") ||
        sc.is("--cache-dir") || sc.is("--exclude") || sc.is("--test-directory")) {
      v = sc.value(err);
      if (!v) return usage_error(err);
    } else {
      return unknown_flag(sc.name(), kCheckHelp, "hclvm help check");
    }
    if (sc.is("--as")) {
      if (!parse_as_kind(*v, opts.as))
        return usage_error("--as must be config, expr, template, traversal or json, not '" + *v +
                           "'");
    } else if (sc.is("--format")) {
      if (*v == "text") opts.format = CheckFormat::Text;
      else if (*v == "json") opts.format = CheckFormat::Json;
      else if (*v == "hcldec") opts.format = CheckFormat::Hcldec;
      else if (*v == "sarif") opts.format = CheckFormat::Sarif;
      else if (*v == "checkstyle") opts.format = CheckFormat::Checkstyle;
      else if (*v == "junit") opts.format = CheckFormat::Junit;
      else if (*v == "terraform") opts.format = CheckFormat::Terraform;
      else if (*v == "terraform-json") opts.format = CheckFormat::TerraformJson;
      else return usage_error("--format must be text, json, hcldec, sarif, checkstyle, junit, "
                              "terraform or terraform-json, not '" + *v + "'");
    } else if (sc.is("--exclude")) {
      opts.walk.excludes.push_back(*v);
    } else if (sc.is("--test-directory")) {
      opts.test_directory = *v;
    } else if (sc.is("--color")) {
      if (!parse_color_mode(*v, opts.color))
        return usage_error("--color must be auto, always or never, not '" + *v + "'");
    } else if (sc.is("--cache-dir")) {
      opts.cache_dir = *v;
      opts.cache = true;
    } else {
      char* end = nullptr;
      unsigned long n = std::strtoul(v->c_str(), &end, 10);
      if (v->empty() || *end != '\0' || n == 0 || n > 4096 || (*v)[0] == '-')
        return usage_error("-j needs a number from 1 to 4096, not '" + *v + "'");
      opts.jobs = static_cast<unsigned>(n);
    }
  }
  // As terraform fmt: no path is the current directory.
  if (opts.paths.empty()) opts.paths.push_back(".");
  return std::nullopt;
}

// Reads, parses and (for text) renders file [path] into [r], its text
// through [text].
void check_one(const std::string& path, const CheckOptions& opts, const Inputs& in,
               const diag::TextStyle& style, const Cache* cache, FileText& text, FileResult& r) {
  auto sink = [&text](std::string_view s) { text.write(s); };
  if (auto it = in.unreadable.find(path); it != in.unreadable.end()) {
    r.read_error = it->second;
    return;
  }
  std::string bytes;
  if (!read_input(path, bytes, r.read_error)) {
    if (r.read_error.empty()) r.read_error = "read failed";
    return;
  }
  ParseAs kind = parse_kind_for(opts.as, path);
  if (cache && (kind == ParseAs::Config || kind == ParseAs::Json)) {
    // Through the cache: a file seen before is not parsed again, and one
    // that was not is compiled for the next eval.
    CompileOptions co;
    co.syntax = kind == ParseAs::Json ? Syntax::Json : Syntax::Native;
    CompiledFile f = cache->load_or_compile(
        make_source(display_name(path), std::move(bytes)), co);
    for (const auto& d : f.diagnostics) (d.severity == Severity::Error ? r.errors : r.warnings)++;
    if (opts.format == CheckFormat::Text) {
      diag::SnippetFiles files;
      std::function<std::string(uint32_t)> context;
      if (kind == ParseAs::Config) context = [&f](uint32_t b) { return f.context(b); };
      files.emplace(f.source->name(), diag::SnippetFile{f.source->text(), context});
      diag::write_text(f.diagnostics, files, style, sink);
      r.text = text.take();
    } else {
      r.diagnostics = std::move(f.diagnostics);
    }
    return;
  }
  Parsed p = parse_input(kind, display_name(path), std::move(bytes));
  for (const auto& d : p.diagnostics) (d.severity == Severity::Error ? r.errors : r.warnings)++;
  if (opts.format == CheckFormat::Text) {
    diag::write_text(p.diagnostics, p.snippet_files(), style, sink);
    r.text = text.take();
  } else {
    r.diagnostics = std::move(p.diagnostics);
  }
}

// Whether [d] is a syntax error of one of the files of [mc] (reported by
// the file checks already).
bool is_parse_diagnostic(const Diagnostic& d, const ModuleCheck& mc) {
  for (const auto& [name, f] : mc.parse_diagnostics)
    for (const Diagnostic& p : f)
      if (p.summary == d.summary && p.subject == d.subject) return true;
  return false;
}

// Returns "[n] [word]" with an "s" when [n] is not one.
std::string count(unsigned n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

int run_check(const std::vector<std::string>& args) {
  CheckOptions opts;
  if (auto stop = parse_options(args, opts)) return *stop;
  if (opts.format == CheckFormat::Terraform || opts.format == CheckFormat::TerraformJson) {
    if (opts.paths.size() != 1)
      return usage_error("--format " + std::string(opts.format == CheckFormat::Terraform ? "terraform"
                                                                                   : "terraform-json") +
                         " needs one module directory");
    ModuleCheck mc = check_module(opts.paths[0], opts.tests, opts.test_directory);
    std::string out = opts.format == CheckFormat::Terraform
                          ? config::render_diagnostics(mc.diagnostics, mc.sources)
                          : config::render_validate_json(mc.diagnostics, mc.sources);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return has_errors(mc.diagnostics) ? kExitErrors : kExitOk;
  }

  std::string err;
  std::optional<Inputs> in = collect_inputs(opts.paths, opts.walk, err);
  if (!in) return usage_error(err);
  const std::vector<std::string>* files = &in->files;
  bool text_format = opts.format == CheckFormat::Text;
  if (text_format) {
    for (const SymlinkNote& n : in->symlinks) {
      std::fprintf(stderr, n.followed ? "%s: following symlink %s -> %s\n"
                                      : "%s: not following symlink %s -> %s: its directory is checked already\n",
                   program_name().c_str(), n.path.c_str(), n.target.c_str());
    }
  }
  CheckReport report;
  report.symlinks = in->symlinks;

  diag::TextStyle style = text_style_for(STDOUT_FILENO, opts.color);
  std::unique_ptr<Cache> cache;
  if (opts.cache) cache = std::make_unique<Cache>(CacheOptions{opts.cache_dir});
  Output output;
  output.results.resize(files->size());
  std::atomic<size_t> next{0};

  // Each worker takes the next unclaimed file, unless finished files hold
  // too much text already; the main thread prints.
  auto work = [&] {
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(output.mu);
        output.cv.wait(lock, [&] { return output.held <= kHoldTotal; });
      }
      size_t i = next.fetch_add(1);
      if (i >= files->size()) return;
      FileResult r;
      FileText text(output, i);
      check_one((*files)[i], opts, *in, style, cache.get(), text, r);
      r.done = true;
      std::lock_guard<std::mutex> lock(output.mu);
      output.held += r.text.size();
      output.results[i] = std::move(r);
      output.cv.notify_all();
    }
  };
  unsigned jobs = opts.jobs ? opts.jobs : std::max(1u, std::thread::hardware_concurrency());
  if (jobs > files->size()) jobs = static_cast<unsigned>(files->size());

  unsigned with_errors = 0, errors = 0, warnings = 0;
  // The files counted in with_errors, by the name their diagnostics use.
  std::unordered_set<std::string> error_files;
  bool unreadable = false;
  Diagnostics all;
  // Prints file [i]'s result [r] (every file before it is printed).
  auto print = [&](size_t i, FileResult& r) {
    if (!r.read_error.empty()) {
      // On standard error in every format: the reports list it too.
      std::fflush(stdout);
      usage_error("cannot read " + (*files)[i] + ": " + r.read_error);
      report.unreadable.emplace_back((*files)[i], r.read_error);
      unreadable = true;
    } else {
      report.files.push_back(display_name((*files)[i]));
      errors += r.errors;
      warnings += r.warnings;
      if (r.errors && error_files.insert(report.files.back()).second) ++with_errors;
      if (opts.format == CheckFormat::Text) {
        std::fwrite(r.text.data(), 1, r.text.size(), stdout);
      } else {
        for (auto& d : r.diagnostics) all.push_back(std::move(d));
      }
    }
  };
  if (jobs <= 1) {
    // One at a time: each file checked and printed on this thread, with
    // no worker to hand it to and back (a wake-up and a switch a file).
    for (size_t i = 0; i < files->size(); ++i) {
      FileResult r;
      FileText text(output, i);
      check_one((*files)[i], opts, *in, style, cache.get(), text, r);
      print(i, r);
      output.printed = i + 1;
    }
  } else {
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < jobs; ++t) pool.emplace_back(work);
    for (size_t i = 0; i < files->size(); ++i) {
      FileResult r;
      {
        std::unique_lock<std::mutex> lock(output.mu);
        output.cv.wait(lock, [&] { return output.results[i].done; });
        r = std::move(output.results[i]);
      }
      print(i, r);
      std::lock_guard<std::mutex> lock(output.mu);
      output.held -= r.text.size();
      output.printed = i + 1;
      output.cv.notify_all();
    }
    for (auto& t : pool) t.join();
  }

  // Module directories: what loading and validating them reports beyond
  // the syntax errors of their files, already reported above.
  const std::unordered_set<std::string_view> checked(report.files.begin(), report.files.end());
  for (const std::string& p : opts.paths) {
    if (opts.as != ParseAs::Config || !in->directories.count(p) || !is_module_dir(p)) continue;
    ModuleCheck mc = check_module(p, opts.tests, opts.test_directory);
    Diagnostics extra;
    for (Diagnostic& d : mc.diagnostics) {
      bool seen = false;
      for (const Diagnostic& s : all)
        seen |= s.summary == d.summary && s.subject == d.subject && s.detail == d.detail;
      if (!seen && !is_parse_diagnostic(d, mc)) extra.push_back(std::move(d));
    }
    for (const Diagnostic& d : extra) (d.severity == Severity::Error ? errors : warnings)++;
    // The module's files are named relative to its directory; here, as
    // the files above, by their path as the directory walk shows it.
    auto shown = [&](const std::string& name) {
      return shown_path(std::filesystem::path(p) / name);
    };
    auto rename = [&](std::optional<Range>& r) {
      if (r && !r->filename.empty() && !r->filename.starts_with("<"))
        r->filename = shown(r->filename);
    };
    for (Diagnostic& d : extra) {
      rename(d.subject);
      rename(d.context);
      // A file whose syntax was clean but whose module reports an error
      // in it is a file with errors too.
      if (d.severity == Severity::Error && d.subject && checked.count(d.subject->filename) &&
          error_files.insert(d.subject->filename).second)
        ++with_errors;
    }
    if (opts.format == CheckFormat::Text) {
      diag::SnippetFiles snippets;
      for (const auto& [name, f] : mc.sources.files()) {
        std::function<std::string(uint32_t)> context;
        if (const ast::Body* b = f.body.native_body())
          context = [b](uint32_t byte) { return diag::native_context(*b, byte); };
        snippets.emplace(shown(name), diag::SnippetFile{f.source->text(), context});
      }
      std::string text = diag::render_text(extra, snippets, style);
      std::fwrite(text.data(), 1, text.size(), stdout);
    } else {
      for (auto& d : extra) all.push_back(std::move(d));
    }
  }

  report.with_errors = with_errors;
  report.errors = errors;
  report.warnings = warnings;
  report.diagnostics = std::move(all);
  std::string doc;
  switch (opts.format) {
    case CheckFormat::Json: doc = report_json(report); break;
    case CheckFormat::Sarif: doc = report_sarif(report, HCLVM_VERSION); break;
    case CheckFormat::Checkstyle: doc = report_checkstyle(report); break;
    case CheckFormat::Junit: doc = report_junit(report); break;
    case CheckFormat::Hcldec:
      // As hcldec: no document at all when nothing was found, so that the
      // output can be compared with the reference's byte for byte.
      if (!report.diagnostics.empty()) doc = diag::render_json(report.diagnostics);
      break;
    default: break;
  }
  std::fwrite(doc.data(), 1, doc.size(), stdout);
  std::fflush(stdout);
  if (opts.format == CheckFormat::Text) {
    std::string unread = report.unreadable.empty()
                             ? ""
                             : "; " + count(unsigned(report.unreadable.size()), "path") + " unreadable";
    std::fprintf(stderr, "%s checked: %s (%s, %s)%s\n",
                 count(unsigned(report.files.size()), "file").c_str(),
                 (std::to_string(with_errors) + " with errors").c_str(),
                 count(errors, "error").c_str(), count(warnings, "warning").c_str(), unread.c_str());
  }
  if (unreadable) return kExitUsage;
  return errors ? kExitErrors : kExitOk;
}

}  // namespace hclvm::cli
