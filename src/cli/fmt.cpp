// `hclvm fmt`: terraform fmt's command line over hclvm's formatters.
//
// The flags, the files a directory yields, the order of the output, the
// exit statuses and the messages are terraform fmt's (1.11.4); what each
// file becomes is terraform fmt's for Terraform's files and hclfmt's for
// other HCL files (include/hclvm/format.h). Where hclvm differs it says so
// in docs/cli.md: files are formatted in parallel (the output keeps the
// order), written through a temporary file and a rename, and syntax
// errors are reported as `hclvm check` reports them.
#include <dirent.h>
#include <hclvm/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

#include "cli/cli.h"
#include "cli/diff.h"
#include "util/unicode.h"

namespace hclvm::cli {

const char kFmtHelp[] =
    "Usage: hclvm fmt [options] [PATH...|-]\n"
    "\n"
    "Rewrites HCL files in their canonical layout: byte for byte what\n"
    "terraform fmt gives for Terraform's files (*.tf, *.tfvars, *.tftest.hcl,\n"
    "*.tfmock.hcl) and what hclfmt gives for other HCL files. Only files whose\n"
    "layout changes are written, through a temporary file and a rename.\n"
    "\n"
    "With no PATH the current directory is formatted. A directory yields its\n"
    "*.tf, *.tfvars, *.hcl and *.nomad files (with --mode terraform, terraform\n"
    "fmt's four kinds only), skipping names that start with \".\", end with \"~\"\n"
    "or start and end with \"#\"; its subdirectories only with -recursive.\n"
    "\"-\" as the first PATH reads standard input and prints the result.\n"
    "A file with syntax errors is left as it is and its errors are reported\n"
    "as 'hclvm check' reports them.\n"
    "\n"
    "Options (one or two dashes; a boolean takes =true or =false):\n"
    "  -list=false      do not print the names of the files that change\n"
    "  -write=false     do not rewrite files\n"
    "  -diff            print a unified diff of each change\n"
    "  -check           change nothing; exit 3 when a file is not formatted\n"
    "  -recursive       also format the files in subdirectories\n"
    "  --mode MODE      auto (default: by file name; standard input as\n"
    "                   Terraform), terraform or hcl\n"
    "  --format FORMAT  text (default) or json: one document listing each file,\n"
    "                   whether it changes, its diff and its diagnostics\n"
    "  --color WHEN     colour for diagnostics: auto (default), always or never;\n"
    "                   -no-color is --color=never\n"
    "  -j, --jobs N     format N files at a time (default: number of CPUs)\n"
    "  -h, --help       show this help\n"
    "\n"
    "Exit status (terraform fmt's): 0 success, also when files were rewritten;\n"
    "1 usage error; 2 syntax errors, missing or unreadable paths;\n"
    "3 -check found files whose layout would change.\n";

namespace {

namespace fs = std::filesystem;

constexpr int kFmtOk = 0, kFmtUsage = 1, kFmtErrors = 2, kFmtUnformatted = 3;

enum class Mode { Auto, Terraform, Hcl };

struct FmtOptions {
  bool list = true, write = true, diff = false, check = false, recursive = false;
  bool json = false;
  Mode mode = Mode::Auto;
  ColorMode color = ColorMode::Auto;
  unsigned jobs = 0;
  std::vector<std::string> targets;
};

// Prints "hclvm: [msg]" to stderr; returns terraform fmt's usage status.
int fmt_usage(const std::string& msg) {
  std::fprintf(stderr, "hclvm: %s\n", msg.c_str());
  return kFmtUsage;
}

// Reads Go's boolean text [v] into [out] (strconv.ParseBool).
bool parse_bool(std::string_view v, bool& out) {
  for (std::string_view t : {"1", "t", "T", "TRUE", "true", "True"})
    if (v == t) return out = true, true;
  for (std::string_view f : {"0", "f", "F", "FALSE", "false", "False"})
    if (v == f) return out = false, true;
  return false;
}

// Parses [args] in Go's flag style into [o]; returns an exit status when
// the command should stop now.
std::optional<int> parse_fmt_options(const std::vector<std::string>& args, FmtOptions& o) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      o.targets.insert(o.targets.end(), args.begin() + long(i) + 1, args.end());
      break;
    }
    if (a.size() < 2 || a[0] != '-') {
      o.targets.push_back(a);
      continue;
    }
    std::string name = a.substr(a[1] == '-' ? 2 : 1), value;
    bool has_value = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
      has_value = true;
    } else if (name.size() > 1 && name[0] == 'j' && a[1] != '-' && std::isdigit(static_cast<unsigned char>(name[1]))) {
      value = name.substr(1);  // -j4
      name = "j";
      has_value = true;
    }
    auto take = [&]() -> bool {
      if (has_value) return true;
      if (i + 1 >= args.size()) return false;
      value = args[++i];
      return true;
    };
    bool* flag = name == "list" ? &o.list : name == "write" ? &o.write : name == "diff" ? &o.diff
               : name == "check" ? &o.check : name == "recursive" ? &o.recursive : nullptr;
    if (flag) {
      if (!has_value) *flag = true;
      else if (!parse_bool(value, *flag))
        return fmt_usage("invalid boolean value \"" + value + "\" for -" + name);
    } else if (name == "no-color") {
      o.color = ColorMode::Never;
    } else if (name == "h" || name == "help") {
      std::fputs(kFmtHelp, stdout);
      return kFmtOk;
    } else if (name == "mode" || name == "format" || name == "color" || name == "j" || name == "jobs") {
      if (!take()) return fmt_usage("flag needs an argument: -" + name);
      if (name == "mode") {
        if (value == "auto") o.mode = Mode::Auto;
        else if (value == "terraform") o.mode = Mode::Terraform;
        else if (value == "hcl") o.mode = Mode::Hcl;
        else return fmt_usage("--mode must be auto, terraform or hcl, not '" + value + "'");
      } else if (name == "format") {
        if (value == "text") o.json = false;
        else if (value == "json") o.json = true;
        else return fmt_usage("--format must be text or json, not '" + value + "'");
      } else if (name == "color") {
        if (!parse_color_mode(value, o.color))
          return fmt_usage("--color must be auto, always or never, not '" + value + "'");
      } else {
        char* end = nullptr;
        unsigned long n = std::strtoul(value.c_str(), &end, 10);
        if (value.empty() || *end != '\0' || n == 0 || n > 4096 || value[0] == '-')
          return fmt_usage("-j needs a number from 1 to 4096, not '" + value + "'");
        o.jobs = unsigned(n);
      }
    } else {
      // Go's flags take one dash or two: suggest by the name alone.
      std::vector<std::string> names;
      for (const std::string& f : help_flags(kFmtHelp)) names.push_back(f.substr(f.find_first_not_of('-')));
      std::string near = closest_name(name, names);
      return fmt_usage("flag provided but not defined: " + a +
                       (near.empty() ? "" : "; did you mean " + a.substr(0, a[1] == '-' ? 2 : 1) + near + "?") +
                       " (see 'hclvm help fmt')");
    }
  }
  return std::nullopt;
}

// Reports whether [s] ends with [suffix].
bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Reports whether terraform fmt takes a file named [name].
bool terraform_name(std::string_view name) {
  for (std::string_view ext : {".tf", ".tfvars", ".tftest.hcl", ".tfmock.hcl"})
    if (ends_with(name, ext)) return true;
  return false;
}

// Reports whether a directory of [mode] yields a file named [name].
bool wanted_name(std::string_view name, Mode mode) {
  if (terraform_name(name)) return true;
  return mode != Mode::Terraform && (ends_with(name, ".hcl") || ends_with(name, ".nomad"));
}

// Reports whether a directory entry [name] is skipped (configs.IsIgnoredFile).
bool ignored_name(std::string_view name) {
  return (!name.empty() && (name[0] == '.' || name.back() == '~')) ||
         (name.size() >= 2 && name.front() == '#' && name.back() == '#');
}

// Reports whether [p] is a relative path already in its shortest form: no
// empty, `.` or `..` segment and no trailing slash.
bool clean_relative(std::string_view p) {
  if (p.empty() || p[0] == '/' || p.back() == '/') return false;
  for (size_t i = 0; i < p.size();) {
    size_t j = p.find('/', i);
    if (j == std::string_view::npos) j = p.size();
    std::string_view seg = p.substr(i, j - i);
    if (seg.empty() || seg == "." || seg == "..") return false;
    i = j + 1;
  }
  return true;
}

// Returns [p] as terraform fmt shows it: relative to the working directory.
std::string normalize_path(const std::string& p) {
  if (clean_relative(p)) return p;  // what it would come out as anyway
  static const fs::path cwd = [] {
    std::error_code ec;
    fs::path c = fs::current_path(ec);
    return ec ? fs::path() : c;
  }();
  if (cwd.empty()) return p;
  std::error_code ec;
  fs::path abs = fs::absolute(p, ec);
  if (ec) return p;
  fs::path rel = abs.lexically_normal().lexically_relative(cwd);
  if (rel.empty()) return p;
  std::string s = rel.generic_string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s.empty() ? "." : s;
}

// One thing to do, in output order: a file, or a message standing where a
// target failed.
struct Item {
  std::string path;   // shown and opened (normalized)
  std::string error;  // non-empty: report this instead
  bool stdin_input = false;
  // The earlier item naming the same file (through a link), which must be
  // done first, as terraform fmt's one-at-a-time walk would; SIZE_MAX: none.
  size_t after = SIZE_MAX;
};

// Sets each item's [after], as the items come in order, to the last
// earlier item that names the same file, so that a file reached twice is
// formatted twice in order.
class SameFiles {
 public:
  void add(Item& it, size_t index) {
    struct stat st;
    if (!it.error.empty() || it.stdin_input || ::stat(it.path.c_str(), &st) != 0) return;
    auto [at, fresh] = seen_.try_emplace({st.st_dev, st.st_ino}, index);
    if (!fresh) {
      it.after = at->second;
      at->second = index;
    }
  }

 private:
  std::map<std::pair<dev_t, ino_t>, size_t> seen_;
};

// Gives [emit] the files of directory [dir] as terraform fmt orders them,
// or a message when it cannot be read. The directory is read with
// readdir: std::filesystem's iterator builds and splits a whole path for
// every entry, which cost more than formatting on a tree of small files.
using Emit = std::function<void(Item)>;

void walk(const std::string& dir, const FmtOptions& o, const Emit& emit) {
  std::vector<DirEntry> entries;
  int err = 0;
  read_directory(dir, entries, err);
  if (err != 0) {
    emit(Item{dir, (err == ENOENT ? "There is no configuration directory at "
                                  : "Cannot read directory ") +
                       dir});
    return;
  }
  std::sort(entries.begin(), entries.end(),
            [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
  for (const DirEntry& e : entries) {
    if (ignored_name(e.name)) continue;
    std::string sub = normalize_path(dir == "." ? e.name : dir + "/" + e.name);
    if (e.type == DT_DIR) {  // a directory itself, not a link to one
      if (o.recursive) walk(sub, o, emit);
      continue;
    }
    if (wanted_name(e.name, o.mode)) emit(Item{sub, {}});
  }
}

// Gives [emit] what [o]'s targets yield, in order; stops after a missing
// one.
void collect(const FmtOptions& o, const Emit& emit) {
  for (const std::string& t : o.targets) {
    std::string path = normalize_path(t);
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) {
      emit(Item{path, "No file or directory at " + path});
      break;
    }
    if (S_ISDIR(st.st_mode)) {
      walk(path, o, emit);
    } else if (o.mode == Mode::Terraform && !terraform_name(path)) {
      emit(Item{path,
                "Only .tf, .tfvars, and .tftest.hcl files can be processed with terraform fmt"});
    } else {
      emit(Item{path, {}});
    }
  }
}

// What formatting one item gave; filled by a worker, read by the printer.
struct Outcome {
  bool done = false;
  bool errors = false, changed = false;
  format::Style style = format::Style::Hcl;
  std::string out;        // what goes to stdout (list line, diff, contents)
  std::string err;        // what goes to stderr (rendered diagnostics)
  std::string diff;       // the unified diff, when changed (JSON)
  Diagnostics diagnostics;
};

// Returns [diags] rendered as `hclvm check` renders a file's, or a
// message without a source.
std::string render(const Diagnostics& diags, const Parsed* p, const diag::TextStyle& style) {
  return diag::render_text(diags, p ? p->snippet_files() : diag::SnippetFiles{}, style);
}

// Formats [it] under [o] into [r]; [list], [write] are the flags in force.
void format_one(const Item& it, const FmtOptions& o, bool list, bool write, const diag::TextStyle& style,
                Outcome& r) {
  auto fail = [&](std::string msg) {
    r.errors = true;
    r.diagnostics.push_back(Diagnostic{Severity::Error, std::move(msg), "", std::nullopt, std::nullopt});
    r.err = render(r.diagnostics, nullptr, style);
  };
  if (!it.error.empty()) return fail(it.error);
  std::string bytes, why;
  std::string name = it.stdin_input ? "<stdin>" : it.path;
  if (!read_input(it.stdin_input ? "-" : it.path, bytes, why))
    return fail((it.stdin_input ? "Failed to read " : "Failed to read file ") + name);
  r.style = o.mode == Mode::Terraform ? format::Style::Terraform
            : o.mode == Mode::Hcl     ? format::Style::Hcl
            : it.stdin_input          ? format::Style::Terraform
                                      : format::style_for_path(it.path);
  format::Result res = format::format_file(make_source(name, bytes), r.style);
  if (res.has_errors()) {
    r.errors = true;
    Parsed p = parse_input(ParseAs::Config, name, std::move(bytes));
    r.diagnostics = std::move(p.diagnostics);
    r.err = render(r.diagnostics, &p, style);
    return;
  }
  r.changed = res.changed;
  if (res.changed) {
    if (list && !o.json) r.out += name + "\n";
    if (write) {
      std::string werr;
      if (!write_file_atomic(it.path, res.text, werr)) return fail("Failed to write " + name + ": " + werr);
    }
    if (o.diff || o.json) r.diff = unified_diff(bytes, res.text, "old/" + name, "new/" + name);
    if (o.diff && !o.json) r.out += r.diff;
  }
  if (!list && !write && !o.diff && !o.json) {
    r.out += res.text;
    // Terraform's output writer ends every chunk with exactly one newline.
    if (r.style == format::Style::Terraform && (r.out.empty() || r.out.back() != '\n')) r.out += '\n';
  }
}

// Returns the JSON document of [items] and their [results].
std::string json_document(const std::deque<Item>& items, const std::deque<Outcome>& results) {
  std::string out = "{\"files\":[";
  size_t changed = 0, errors = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    const Outcome& r = results[i];
    changed += r.changed;
    errors += r.errors;
    if (i) out += ',';
    out += "{\"path\":";
    uni::append_json_quoted(out, items[i].stdin_input ? "<stdin>" : items[i].path);
    out += ",\"style\":";
    out += r.style == format::Style::Terraform ? "\"terraform\"" : "\"hcl\"";
    out += ",\"status\":";
    out += r.errors ? "\"error\"" : r.changed ? "\"changed\"" : "\"unchanged\"";
    if (r.changed) {
      out += ",\"diff\":";
      uni::append_json_quoted(out, r.diff);
    }
    if (!r.diagnostics.empty()) {
      out += ",\"diagnostics\":[";
      for (size_t k = 0; k < r.diagnostics.size(); ++k) {
        const Diagnostic& d = r.diagnostics[k];
        if (k) out += ',';
        out += "{\"severity\":";
        out += d.severity == Severity::Error ? "\"error\"" : "\"warning\"";
        out += ",\"summary\":";
        uni::append_json_quoted(out, d.summary);
        if (!d.detail.empty()) {
          out += ",\"detail\":";
          uni::append_json_quoted(out, d.detail);
        }
        if (d.subject) {
          const Range& s = *d.subject;
          out += ",\"range\":{\"filename\":";
          uni::append_json_quoted(out, s.filename);
          out += ",\"start\":{\"line\":" + std::to_string(s.start.line) + ",\"column\":" +
                 std::to_string(s.start.column) + ",\"byte\":" + std::to_string(s.start.byte) + "}";
          out += ",\"end\":{\"line\":" + std::to_string(s.end.line) + ",\"column\":" +
                 std::to_string(s.end.column) + ",\"byte\":" + std::to_string(s.end.byte) + "}}";
        }
        out += '}';
      }
      out += ']';
    }
    out += '}';
  }
  out += "],\"files_total\":" + std::to_string(items.size()) + ",\"changed\":" + std::to_string(changed) +
         ",\"errors\":" + std::to_string(errors) + "}\n";
  return out;
}

}  // namespace

int run_fmt(const std::vector<std::string>& args) {
  FmtOptions o;
  if (auto stop = parse_fmt_options(args, o)) return *stop;

  bool stdin_mode = !o.targets.empty() && o.targets[0] == "-";
  if (o.targets.empty()) o.targets.push_back(".");
  bool list = o.list, write = o.write;
  if (stdin_mode) list = write = false;
  // -check lists into a buffer that is printed at the end only when -list
  // was asked for, and writes nothing (terraform fmt's Run).
  bool print_list = list;
  if (o.check) {
    list = true;
    write = false;
  }

  constexpr size_t kHandOver = 8;
  // The workers take the items as the walk finds them: a deep tree's
  // directories are read while its first files are formatted. Both queues
  // only grow (a deque keeps its elements in place), and are read and
  // grown under [mu].
  diag::TextStyle style = text_style_for(STDERR_FILENO, o.color);
  std::deque<Item> items;
  std::deque<Outcome> results;
  bool walked = false;
  size_t next = 0;
  std::mutex mu;
  std::condition_variable cv;
  auto work = [&] {
    for (;;) {
      const Item* it;
      size_t i;
      {
        std::unique_lock<std::mutex> lock(mu);
        cv.wait(lock, [&] { return next < items.size() || walked; });
        if (next == items.size()) return;
        i = next++;
        it = &items[i];
        // A file taken earlier under another name is done first, as terraform
        // fmt's one-at-a-time walk would.
        if (size_t a = it->after; a != SIZE_MAX) cv.wait(lock, [&] { return results[a].done; });
      }
      Outcome r;
      format_one(*it, o, list, write, style, r);
      r.done = true;
      std::lock_guard<std::mutex> lock(mu);
      results[i] = std::move(r);
      cv.notify_all();
    }
  };
  unsigned jobs = stdin_mode ? 1
                  : o.jobs   ? o.jobs
                             : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < jobs; ++t) pool.emplace_back(work);
  SameFiles same;
  auto emit = [&](Item it) {
    same.add(it, items.size());  // only this thread adds items
    std::lock_guard<std::mutex> lock(mu);
    items.push_back(std::move(it));
    results.emplace_back();
    // Waking an idle worker for every file costs more than the file when
    // files are small: they are handed over a few at a time.
    if (items.size() - next >= kHandOver) cv.notify_all();
  };
  if (stdin_mode) {
    emit(Item{"-", {}, true});
  } else {
    collect(o, emit);
  }
  {
    std::lock_guard<std::mutex> lock(mu);
    walked = true;
    cv.notify_all();
  }
  // The main thread is one of the workers: it prints once it has no more
  // files to take.
  work();

  bool errors = false, changed = false;
  std::string buffered;
  for (size_t i = 0; i < items.size(); ++i) {
    const Outcome* done;
    {
      std::unique_lock<std::mutex> lock(mu);
      cv.wait(lock, [&] { return results[i].done; });
      done = &results[i];
    }
    const Outcome& r = *done;
    errors |= r.errors;
    changed |= r.changed;
    if (o.json) continue;
    if (o.check) {
      buffered += r.out;
    } else {
      std::fwrite(r.out.data(), 1, r.out.size(), stdout);
    }
    if (!r.err.empty()) {
      std::fflush(stdout);
      std::fwrite(r.err.data(), 1, r.err.size(), stderr);
    }
  }
  for (auto& t : pool) t.join();

  if (o.json) {
    std::string doc = json_document(items, results);
    std::fwrite(doc.data(), 1, doc.size(), stdout);
  } else if (o.check && !errors && print_list) {
    std::fwrite(buffered.data(), 1, buffered.size(), stdout);
  }
  std::fflush(stdout);
  if (errors) return kFmtErrors;
  if (o.check && changed) return kFmtUnformatted;
  return kFmtOk;
}

}  // namespace hclvm::cli
