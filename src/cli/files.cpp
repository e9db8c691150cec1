// Inputs of the `hclvm` command: the option scanner, expanding paths into
// the files to check, reading them whole, parsing each as the user asked,
// and the terminal facts (colour, width) that shape text diagnostics.
#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <new>
#include <set>
#include <system_error>

#include "cli/cli.h"
#include "util/unicode.h"

namespace hclvm::cli {

namespace fs = std::filesystem;

namespace {
std::string& program_name_storage() {
  static std::string name = "hclvm";
  return name;
}
}  // namespace

const std::string& program_name() { return program_name_storage(); }

void set_program_name(const char* argv0) {
  if (!argv0 || !*argv0) return;
  std::string_view s = argv0;
  if (size_t slash = s.rfind('/'); slash != std::string_view::npos) s.remove_prefix(slash + 1);
  // Only the two names the programs are installed under: a test harness's
  // wrapper or a renamed copy still says "hclvm".
  if (s == "hcldec" || s == "hclvm") program_name_storage() = std::string(s);
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define HCLVM_CLI_TEARDOWN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define HCLVM_CLI_TEARDOWN 1
#endif
#endif

int finish(int code) {
  errno = 0;
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    int err = errno;
    std::fprintf(stderr, "%s: cannot write the output: %s\n", program_name().c_str(),
                 err ? std::strerror(err) : "write error");
    if (code == kExitOk) code = kExitErrors;
  }
#ifdef HCLVM_CLI_TEARDOWN
  return code;
#else
  std::fflush(stderr);
  std::_Exit(code);
#endif
}

void keep_until_exit(std::shared_ptr<const void> p) {
#ifdef HCLVM_CLI_TEARDOWN
  p.reset();
#else
  // Reachable from a static: not a leak to any checker.
  static auto* kept = new std::vector<std::shared_ptr<const void>>();
  kept->push_back(std::move(p));
#endif
}

int usage_error(const std::string& msg) {
  std::cerr << program_name() << ": " << msg << "\n";
  return kExitUsage;
}

std::vector<std::string> help_flags(std::string_view help) {
  std::vector<std::string> out;
  // "Options:", or "Options (a note):".
  size_t at = help.find("\nOptions");
  if (at == std::string_view::npos || help.find('\n', at + 1) == std::string_view::npos) return out;
  std::string_view rest = help.substr(help.find('\n', at + 1) + 1);
  while (!rest.empty()) {
    size_t nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    if (line.empty()) break;  // the end of the section
    if (!line.starts_with("  -")) continue;
    // The first column: flags and their value names, up to two spaces.
    line.remove_prefix(2);
    line = line.substr(0, line.find("  "));
    while (!line.empty()) {
      size_t sp = line.find_first_of(" ,");
      std::string_view word = line.substr(0, sp);
      line = sp == std::string_view::npos ? std::string_view() : line.substr(sp + 1);
      word = word.substr(0, word.find_first_of("=["));
      if (word.size() > 1 && word[0] == '-' &&
          std::find(out.begin(), out.end(), word) == out.end())
        out.emplace_back(word);
    }
  }
  return out;
}

std::string closest_name(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_dist = 3;
  for (const std::string& c : candidates) {
    size_t d = uni::levenshtein(word, c);
    if (d < best_dist) best_dist = d, best = c;
  }
  return best;
}

int unknown_flag(const std::string& flag, std::string_view help, const std::string& see) {
  std::string msg = "unknown flag " + flag;
  if (std::string s = closest_name(flag, help_flags(help)); !s.empty())
    msg += "; did you mean " + s + "?";
  return usage_error(msg + " (see '" + see + "')");
}

bool ArgScanner::next() {
  if (i_ >= args_.size()) return false;
  const std::string& a = args_[i_++];
  inline_.reset();
  if (!done_flags_ && a == "--") {
    done_flags_ = true;
    return next();
  }
  flag_ = !done_flags_ && a.size() > 1 && a[0] == '-';
  name_ = a;
  if (!flag_) return true;
  if (a[1] == '-') {
    if (auto eq = a.find('='); eq != std::string::npos) {
      name_ = a.substr(0, eq);
      inline_ = a.substr(eq + 1);
    }
  } else if (a.size() > 2) {
    // A short flag with its value attached: -j4.
    name_ = a.substr(0, 2);
    inline_ = a.substr(2);
  }
  return true;
}

bool ArgScanner::is(std::string_view long_name, std::string_view short_name) const {
  return flag_ && (name_ == long_name || (!short_name.empty() && name_ == short_name));
}

std::optional<std::string> ArgScanner::value(std::string& error) {
  if (inline_) {
    std::string v = std::move(*inline_);
    inline_.reset();
    return v;
  }
  if (i_ >= args_.size()) {
    error = "flag " + name_ + " needs a value";
    return std::nullopt;
  }
  return args_[i_++];
}

bool parse_as_kind(std::string_view s, ParseAs& out) {
  if (s == "config") out = ParseAs::Config;
  else if (s == "expr") out = ParseAs::Expr;
  else if (s == "template") out = ParseAs::Template;
  else if (s == "traversal") out = ParseAs::Traversal;
  else if (s == "json") out = ParseAs::Json;
  else return false;
  return true;
}

bool parse_color_mode(std::string_view s, ColorMode& out) {
  if (s == "auto") out = ColorMode::Auto;
  else if (s == "always") out = ColorMode::Always;
  else if (s == "never") out = ColorMode::Never;
  else return false;
  return true;
}

namespace {

// Reports whether [s] ends with [suffix].
bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Whether the entry [name] at [rel] (its path relative to the directory
// walked) is excluded by [walk].
bool excluded(const std::string& name, const std::string& rel, const WalkOptions& walk) {
  auto match = [&](const std::string& glob) {
    return ::fnmatch(glob.c_str(), name.c_str(), 0) == 0 || ::fnmatch(glob.c_str(), rel.c_str(), 0) == 0;
  };
  if (walk.default_excludes)
    for (const std::string& g : default_excludes())
      if (match(g)) return true;
  for (const std::string& g : walk.excludes)
    if (match(g)) return true;
  return false;
}

// The identity of directory [p] (following links), or nothing.
std::optional<std::pair<dev_t, ino_t>> dir_id(const std::string& p) {
  struct stat st;
  if (::stat(p.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return std::nullopt;
  return std::make_pair(st.st_dev, st.st_ino);
}

// [dir]/[name], as std::filesystem joins them.
std::string join_path(const std::string& dir, const std::string& name) {
  if (dir.empty()) return name;
  return dir.back() == '/' ? dir + name : dir + "/" + name;
}

// Appends the configuration files under directory [dir] ([rel] below the
// directory named; "" for it) to [in]; a directory that cannot be read
// goes to its unreadable list, and the walk goes on. [seen] holds the
// directories walked, so that each is walked once however many links lead
// to it. Directories are read with readdir and paths joined as strings:
// std::filesystem built and split a path for every entry, a fifth of a
// `check` of a tree of small files.
void walk_directory(const std::string& dir, const std::string& rel, const WalkOptions& walk,
                    Inputs& in, std::set<std::pair<dev_t, ino_t>>& seen) {
  struct Entry {
    bool link;
    std::string name;
    unsigned char type;  // d_type
  };
  std::vector<DirEntry> listed;
  int err = 0;
  read_directory(dir, listed, err);
  std::vector<Entry> entries;
  entries.reserve(listed.size());
  for (DirEntry& e : listed) entries.push_back({e.type == DT_LNK, std::move(e.name), e.type});
  if (err != 0) {
    in.files.push_back(shown_path(dir));
    in.unreadable[shown_path(dir)] = std::strerror(err);
    return;
  }
  // In name order, links after the rest: a directory reached both ways is
  // walked under its own name.
  std::sort(entries.begin(), entries.end(), [](const Entry& x, const Entry& y) {
    return x.link != y.link ? y.link : x.name < y.name;
  });
  for (const Entry& e : entries) {
    std::string p = join_path(dir, e.name);
    std::string p_rel = rel.empty() ? e.name : rel + "/" + e.name;
    if (excluded(e.name, p_rel, walk)) continue;
    // What a link leads to decides, as for the rest.
    bool directory = e.type == DT_DIR, regular = e.type == DT_REG;
    if (e.link) {
      struct stat st;
      if (::stat(p.c_str(), &st) == 0) {
        directory = S_ISDIR(st.st_mode);
        regular = S_ISREG(st.st_mode);
      }
    }
    if (directory) {
      std::optional<std::pair<dev_t, ino_t>> id = dir_id(p);
      bool again = id && !seen.insert(*id).second;
      if (e.link) {
        std::error_code ec;
        fs::path target = fs::read_symlink(p, ec);
        in.symlinks.push_back({shown_path(p), target.generic_string(), !again});
      }
      if (!again) walk_directory(p, p_rel, walk, in, seen);
      continue;
    }
    if (!regular) continue;
    switch (classify(e.name)) {
      case FileSyntax::Native:
        in.files.push_back(shown_path(p));
        break;
      case FileSyntax::Json:
        // Only the JSON twins of configuration files (main.tf.json,
        // x.pkr.json): other JSON in a tree is data, not HCL.
        if (is_hcl_json_name(e.name)) in.files.push_back(shown_path(p));
        break;
      case FileSyntax::Unknown:
        break;
    }
  }
}

}  // namespace

bool is_hcl_json_name(std::string_view name) {
  if (!ends_with(name, ".json")) return false;
  name.remove_suffix(5);
  for (std::string_view ext : {".hcl", ".tf", ".tfvars", ".nomad", ".pkr"})
    if (ends_with(name, ext)) return true;
  return false;
}

FileSyntax classify(std::string_view path) {
  if (ends_with(path, ".json")) return FileSyntax::Json;
  for (std::string_view ext : {".hcl", ".tf", ".tfvars", ".nomad"})
    if (ends_with(path, ext)) return FileSyntax::Native;
  return FileSyntax::Unknown;
}

std::optional<Inputs> collect_inputs(const std::vector<std::string>& args, const WalkOptions& walk,
                                     std::string& error) {
  Inputs in;
  std::set<std::pair<dev_t, ino_t>> seen;
  int stdin_count = 0;
  for (const std::string& a : args) {
    if (a == "-") {
      if (++stdin_count > 1) {
        error = "standard input (-) can be named only once";
        return std::nullopt;
      }
      in.files.push_back(a);
      continue;
    }
    struct stat st;
    if (::stat(a.c_str(), &st) != 0) {
      // Reported in its turn; the other paths are still checked.
      in.files.push_back(a);
      in.unreadable[a] = std::strerror(errno);
    } else if (S_ISDIR(st.st_mode)) {
      in.directories.insert(a);
      // A directory named twice, or inside one named before, is walked once.
      if (seen.insert({st.st_dev, st.st_ino}).second) walk_directory(a, "", walk, in, seen);
    } else {
      in.files.push_back(a);
    }
  }
  // Byte order keeps the output identical across machines and locales.
  std::sort(in.files.begin(), in.files.end());
  in.files.erase(std::unique(in.files.begin(), in.files.end()), in.files.end());
  return in;
}

namespace {

// The process's umask, read from /proc (umask() can only be read by
// setting it, which races with other threads creating files); 022 where
// /proc does not say.
mode_t process_umask() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.starts_with("Umask:")) return mode_t(std::strtoul(line.c_str() + 6, nullptr, 8));
  return 022;
}

}  // namespace

bool write_file_atomic(const std::string& path, std::string_view data, std::string& error) {
  // Through a link, the file it points to is replaced, not the link.
  std::string target = path;
  if (char* real = ::realpath(path.c_str(), nullptr)) {
    target = real;
    std::free(real);
  }
  struct stat st;
  if (::stat(target.c_str(), &st) != 0) {
    if (errno != ENOENT) {
      error = std::strerror(errno);
      return false;
    }
    // A new file gets the mode open() would give it.
    st.st_mode = 0666 & ~process_umask();
    st.st_uid = ::geteuid();
    st.st_gid = ::getegid();
  }
  fs::path p(target);
  std::string tmp = (p.parent_path() / ("." + p.filename().string() + ".hclvm-XXXXXX")).string();
  int fd = ::mkstemp(tmp.data());
  if (fd < 0) {
    error = std::strerror(errno);
    return false;
  }
  auto fail = [&](int err) {
    error = std::strerror(err);
    ::close(fd);
    ::unlink(tmp.c_str());
    return false;
  };
  for (size_t done = 0; done < data.size();) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail(errno);
    done += size_t(n);
  }
  if (::fchmod(fd, st.st_mode & 07777) != 0) return fail(errno);
  if ((st.st_uid != ::geteuid() || st.st_gid != ::getegid()) && ::fchown(fd, st.st_uid, st.st_gid) != 0)
    return fail(errno);
  if (::fsync(fd) != 0) return fail(errno);
  if (::close(fd) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    error = std::strerror(err);
    return false;
  }
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    error = std::strerror(err);
    return false;
  }
  return true;
}

bool read_input(const std::string& path, std::string& out, std::string& error) {
  int fd = path == "-" ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = std::strerror(errno);
    return false;
  }
  out.clear();
  struct stat st;
  bool ok = true;
  auto failed = [&] {
    error = std::strerror(errno);
    ok = false;
  };
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    // A regular file is read to the size it has now, straight into [out],
    // without a last read to see the end: one system call fewer a file
    // when a whole tree is checked. (A file of the /proc kind says 0 and
    // is read to its end below.)
    size_t size = static_cast<size_t>(st.st_size), got = 0;
    try {
      out.resize(size);
    } catch (const std::bad_alloc&) {
      error = "out of memory for its " + std::to_string(size) + " bytes";
      if (fd != STDIN_FILENO) ::close(fd);
      return false;
    }
    while (got < size) {
      ssize_t n = ::read(fd, out.data() + got, size - got);
      if (n > 0) {
        got += static_cast<size_t>(n);
      } else if (n == 0) {
        break;
      } else if (errno != EINTR) {
        failed();
        break;
      }
    }
    out.resize(got);
  } else {
    // A pipe or a device is read to its end, but no further than the
    // most a source may hold (/dev/zero has no end), and running out of
    // memory on the way is an error, not the end of the process.
    constexpr size_t kMost = size_t(UINT32_MAX) - 1;
    char buf[1 << 16];
    for (;;) {
      ssize_t n = ::read(fd, buf, sizeof buf);
      if (n > 0 && out.size() + static_cast<size_t>(n) > kMost) {
        error = "more than 4 GiB, the most a file may hold";
        ok = false;
        break;
      }
      if (n > 0) {
        try {
          out.append(buf, static_cast<size_t>(n));
        } catch (const std::bad_alloc&) {
          error = "out of memory after " + std::to_string(out.size()) + " bytes";
          ok = false;
          break;
        }
      } else if (n == 0) {
        break;
      } else if (errno != EINTR) {
        failed();
        break;
      }
    }
  }
  if (fd != STDIN_FILENO) ::close(fd);
  if (!ok) std::string().swap(out);  // what was read is no use
  return ok;
}

bool read_directory(const std::string& dir, std::vector<DirEntry>& out, int& err) {
  err = 0;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) {
    err = errno;
    return false;
  }
  for (;;) {
    errno = 0;
    const dirent* e = ::readdir(d);
    if (e == nullptr) {
      err = errno;
      break;
    }
    std::string_view name = e->d_name;
    if (name == "." || name == "..") continue;
    unsigned char type = e->d_type;
    if (type == DT_UNKNOWN) {
      struct stat st;
      if (::fstatat(::dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
        type = S_ISLNK(st.st_mode)   ? DT_LNK
               : S_ISDIR(st.st_mode) ? DT_DIR
               : S_ISREG(st.st_mode) ? DT_REG
                                     : DT_UNKNOWN;
    }
    out.push_back({std::string(name), type});
  }
  ::closedir(d);
  return err == 0;
}

std::string shown_path(std::string s) {
  while (s.size() > 2 && s.starts_with("./")) s.erase(0, 2);
  return s;
}

std::string shown_path(const fs::path& p) { return shown_path(p.generic_string()); }

std::string display_name(const std::string& path) { return path == "-" ? "<stdin>" : path; }

diag::SnippetFiles Parsed::snippet_files() const {
  diag::SnippetFiles files;
  if (!source) return files;
  diag::SnippetFile f{source->text(), {}};
  if (body) {
    const ast::Body* root = body;
    f.context = [root](uint32_t byte) { return diag::native_context(*root, byte); };
  } else if (json) {
    const json::Node* root = json;
    f.context = [root](uint32_t byte) { return diag::json_context(*root, byte); };
  }
  files.emplace(source->name(), std::move(f));
  return files;
}

namespace {

// Moves what every parse result has into [out].
void take_common(ParseResult& r, Parsed& out) {
  out.source = std::move(r.source);
  out.arena = std::move(r.arena);
  out.diagnostics = std::move(r.diagnostics);
}

}  // namespace

Parsed parse_input(ParseAs as, std::string name, std::string bytes) {
  auto src = make_source(std::move(name), std::move(bytes));
  Parsed out;
  switch (as) {
    case ParseAs::Config: {
      FileParse r = parse_config(src);
      out.body = r.body;
      take_common(r, out);
      break;
    }
    case ParseAs::Expr:
    case ParseAs::Template: {
      ExprParse r = as == ParseAs::Expr ? parse_expression(src) : parse_template(src);
      out.expr = r.expr;
      take_common(r, out);
      break;
    }
    case ParseAs::Traversal: {
      TraversalParse r = parse_traversal_abs(src);
      out.traversal = r.traversal;
      take_common(r, out);
      break;
    }
    case ParseAs::Json: {
      JsonParse r = parse_json_config(src);
      out.json = r.root;
      take_common(r, out);
      break;
    }
  }
  return out;
}

ParseAs parse_kind_for(ParseAs as, std::string_view path) {
  return as == ParseAs::Config && path != "-" && classify(path) == FileSyntax::Json ? ParseAs::Json
                                                                                     : as;
}

diag::TextStyle text_style_for(int fd, ColorMode mode) {
  diag::TextStyle style;
  bool tty = ::isatty(fd) == 1;
  const char* no_color = std::getenv("NO_COLOR");
  bool no_color_set = no_color != nullptr && *no_color != '\0';
  style.color = mode == ColorMode::Always || (mode == ColorMode::Auto && tty && !no_color_set);
  style.width = 80;
  struct winsize ws;
  if (tty && ::ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) style.width = ws.ws_col;
  return style;
}

diag::TextSink file_sink(std::FILE* f) {
  return [f](std::string_view s) { std::fwrite(s.data(), 1, s.size(), f); };
}

}  // namespace hclvm::cli
