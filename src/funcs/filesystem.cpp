// Filesystem functions, as Terraform's funcs/filesystem.go and crypto.go
// define them: basename, dirname (pure string functions, always present),
// abspath, pathexpand, file, filebase64, fileexists, fileset, the file
// hashes (filemd5, filesha1, filesha256, filesha512, filebase64sha256,
// filebase64sha512) and templatefile (template_file.cpp).
//
// Everything but basename and dirname exists only when the embedder names
// a base directory (LibraryOptions::base_dir), which plays the part of
// Terraform's module directory: a relative path is joined to it exactly as
// Terraform joins it (so messages name the same paths), `~` expands to
// $HOME as go-homedir expands it. The sandbox rule: a function that reads
// the filesystem reads only under the base directory. The path it would
// read is made absolute and canonical (`..` removed, every symbolic link
// resolved, for a missing file up to its nearest existing ancestor) and
// must equal the canonical base directory or lie below it; otherwise the
// call fails with "path ... is outside the base directory" about the path
// argument. fileset lists only directories inside the base and fails on a
// match that resolves outside it. abspath, which reads nothing, joins a
// relative path to the base directory made absolute (Terraform joins the
// working directory, which is the root module's directory).
//
// Paths are computed with Go's path/filepath rules (Clean, Join, Base,
// Dir, Rel) on Unix, and system errors are worded as Go words them, since
// Terraform's messages embed both.
#include <dirent.h>
#include <fcntl.h>
#include <hclvm/functions.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "funcs/funcs.h"
#include "funcs/hash.h"
#include "util/read_log.h"
#include "util/system_error.h"
#include "util/unicode.h"

namespace hclvm::funcs {

namespace {

// --- Go's path/filepath on Unix ------------------------------------------------

bool is_abs(std::string_view p) { return !p.empty() && p[0] == '/'; }

// Whether filepath.Clean gives [p] back as it is: no empty, "." or ".."
// component and no trailing slash (the paths functions are given nearly
// always are).
bool already_clean(std::string_view p) {
  if (p.empty() || (p.size() > 1 && p.back() == '/')) return false;
  for (size_t i = p[0] == '/' ? 1 : 0; i < p.size();) {
    size_t end = std::min(p.find('/', i), p.size());
    size_t len = end - i;
    if (len == 0 || (p[i] == '.' && (len == 1 || (len == 2 && p[i + 1] == '.')))) return false;
    i = end + 1;
  }
  return true;
}

// filepath.Clean.
std::string clean(std::string_view p) {
  if (already_clean(p)) return std::string(p);
  if (p.empty()) return ".";
  const bool rooted = p[0] == '/';
  const size_t n = p.size();
  std::string out;
  out.reserve(n);
  size_t r = 0, dotdot = 0;
  if (rooted) {
    out += '/';
    r = dotdot = 1;
  }
  while (r < n) {
    if (p[r] == '/') {
      ++r;
    } else if (p[r] == '.' && (r + 1 == n || p[r + 1] == '/')) {
      ++r;
    } else if (p[r] == '.' && p[r + 1] == '.' && (r + 2 == n || p[r + 2] == '/')) {
      r += 2;
      if (out.size() > dotdot) {
        out.pop_back();
        while (out.size() > dotdot && out.back() != '/') out.pop_back();
        if (out.size() > dotdot && out.back() == '/') out.pop_back();
      } else if (!rooted) {
        if (!out.empty()) out += '/';
        out += "..";
        dotdot = out.size();
      }
    } else {
      if ((rooted && out.size() != 1) || (!rooted && !out.empty())) out += '/';
      size_t end = std::min(p.find('/', r), n);
      out.append(p, r, end - r);
      r = end;
    }
  }
  if (out.empty()) return ".";
  return out;
}

// filepath.Join of two elements.
std::string join(std::string_view a, std::string_view b) {
  if (a.empty() && b.empty()) return "";
  if (a.empty()) return clean(b);
  if (b.empty()) return clean(a);
  std::string s(a);
  s += '/';
  s += b;
  return clean(s);
}

// filepath.Base.
std::string base_name(std::string_view p) {
  if (p.empty()) return ".";
  while (!p.empty() && p.back() == '/') p.remove_suffix(1);
  size_t i = p.rfind('/');
  if (i != std::string_view::npos) p = p.substr(i + 1);
  if (p.empty()) return "/";
  return std::string(p);
}

// filepath.Dir.
std::string dir_name(std::string_view p) {
  size_t i = p.size();
  while (i > 0 && p[i - 1] != '/') --i;
  return clean(p.substr(0, i));
}

// filepath.Rel: [targ] relative to [base]; nullopt when there is none.
std::optional<std::string> rel(std::string_view base_in, std::string_view targ_in) {
  std::string base = clean(base_in), targ = clean(targ_in);
  if (targ == base) return ".";
  if (base == ".") base.clear();
  const bool base_slashed = !base.empty() && base[0] == '/';
  const bool targ_slashed = !targ.empty() && targ[0] == '/';
  if (base_slashed != targ_slashed) return std::nullopt;
  const size_t bl = base.size(), tl = targ.size();
  size_t b0 = 0, bi = 0, t0 = 0, ti = 0;
  for (;;) {
    while (bi < bl && base[bi] != '/') ++bi;
    while (ti < tl && targ[ti] != '/') ++ti;
    if (targ.compare(t0, ti - t0, base, b0, bi - b0) != 0) break;
    if (bi < bl) ++bi;
    if (ti < tl) ++ti;
    b0 = bi;
    t0 = ti;
  }
  if (base.compare(b0, bi - b0, "..") == 0 && bi - b0 == 2) return std::nullopt;
  if (b0 != bl) {
    size_t seps = size_t(std::count(base.begin() + std::ptrdiff_t(b0), base.end(), '/'));
    std::string out = "..";
    for (size_t i = 0; i < seps; ++i) out += "/..";
    if (t0 != tl) out += "/" + targ.substr(t0);
    return out;
  }
  return targ.substr(t0);
}

// --- system errors as Go words them ---------------------------------------------

std::string path_error(const char* op, std::string_view path, int e) {
  return util::go_path_error(op, path, e);
}

// --- go-homedir --------------------------------------------------------------------

// homedir.Dir: $HOME, else the password database.
std::optional<std::string> home_dir() {
  if (const char* h = std::getenv("HOME"); h != nullptr && *h != '\0') return std::string(h);
  long size = sysconf(_SC_GETPW_R_SIZE_MAX);
  std::vector<char> buf(size_t(size > 0 ? size : 16384));
  struct passwd pw;
  struct passwd* result = nullptr;
  if (getpwuid_r(getuid(), &pw, buf.data(), buf.size(), &result) == 0 && result != nullptr &&
      result->pw_dir != nullptr && *result->pw_dir != '\0') {
    return std::string(result->pw_dir);
  }
  return std::nullopt;
}

// homedir.Expand: [p] with a leading `~` replaced by the home directory.
bool expand_home(std::string_view p, std::string& out, std::string& err) {
  if (p.empty() || p[0] != '~') {
    out = std::string(p);
    return true;
  }
  if (p.size() > 1 && p[1] != '/' && p[1] != '\\') {
    err = "cannot expand user-specific home dir";
    return false;
  }
  std::optional<std::string> home = home_dir();
  if (!home) {
    err = "blank output when reading home directory";
    return false;
  }
  out = join(*home, p.substr(1));
  return true;
}

// --- the sandbox --------------------------------------------------------------------

std::string current_dir() {
  char buf[PATH_MAX];
  if (getcwd(buf, sizeof buf) == nullptr) return "/";
  return buf;
}

std::string absolute(std::string_view p) { return is_abs(p) ? clean(p) : join(current_dir(), p); }

// The file descriptor [fd] is open on, as the system names it (empty when
// it cannot say).
std::string fd_path(int fd) {
  std::string link = "/proc/self/fd/" + std::to_string(fd);
  char buf[PATH_MAX + 1];
  ssize_t n = ::readlink(link.c_str(), buf, sizeof buf - 1);
  if (n <= 0) return {};
  return std::string(buf, size_t(n));
}

// realpath(3) of [abs], or nullopt when it does not resolve. Where the
// system can say what an O_PATH descriptor names, the path is resolved by
// one open instead of a readlink for each of its components.
std::optional<std::string> real_path(const std::string& abs) {
#ifdef O_PATH
  int fd = ::open(abs.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string named = fd_path(fd);
  ::close(fd);
  if (!named.empty() && named.front() == '/') return named;
#endif
  char* real = ::realpath(abs.c_str(), nullptr);
  if (real == nullptr) return std::nullopt;
  std::string r(real);
  std::free(real);
  return r;
}

// [p] absolute with every symbolic link resolved; for a path that does not
// exist, its nearest existing ancestor resolved and the rest appended.
// [missing]: [p] is known not to exist (an open of it just failed with
// ENOENT), so its ancestors are resolved without trying it first.
std::string canonical(std::string_view p, bool missing = false) {
  std::string abs = absolute(p);
  std::string rest;
  for (;;) {
    if (missing && rest.empty() && abs != "/") {
      rest = base_name(abs);
      abs = dir_name(abs);
      continue;
    }
    if (std::optional<std::string> r = real_path(abs)) return rest.empty() ? *r : join(*r, rest);
    if (abs == "/") return join(abs, rest);
    std::string name = base_name(abs);
    rest = rest.empty() ? name : name + "/" + rest;
    abs = dir_name(abs);
  }
}

// canonical() of a directory: how a util::Place noted by note_located is
// found again.
std::string locate_dir(const std::string& dir) { return canonical(dir); }

// The last part of the clean path [p] and what comes before it, as
// filepath.Base and filepath.Dir give them for a clean path, as views.
std::pair<std::string_view, std::string_view> split_clean(std::string_view p) {
  size_t i = p.rfind('/');
  if (i == std::string_view::npos) return {".", p};
  if (p.size() == 1) return {"/", "/"};
  return {i == 0 ? p.substr(0, 1) : p.substr(0, i), p.substr(i + 1)};
}

// Notes on the thread's read log that the confined read of [path] was
// decided by where it led, [located] (canonical() of it): the place of its
// directory. A path whose last part is a link to another name cannot be
// checked that way, and makes the computation unrepeatable. (Both paths
// are clean: resolve() and canonical() give them so.)
void note_located(const std::string& path, const std::string& located) {
  util::ReadLog* log = util::current_read_log();
  if (log == nullptr) return;
  auto [dir, name] = split_clean(path);
  auto [where, located_name] = split_clean(located);
  if (name != located_name) {
    log->unrepeatable();
    return;
  }
  if (!log->has_place(dir)) log->place({std::string(dir), std::string(where), &locate_dir});
}

// [path] as a message shows it: quoted, or hidden when it is sensitive.
std::string redact(std::string_view path, const Marks& marks) {
  if (marks.has("sensitive")) return "(sensitive value)";
  return quote(path);
}

}  // namespace

struct Sandbox {
  Sandbox(std::string b, bool c) : base(std::move(b)), confine(c) {}

  std::string base;  // as the embedder gave it
  bool confine = true;  // LibraryOptions::confine

  // Terraform's path for [p]: joined to the base directory when relative, cleaned.
  std::string resolve(std::string_view p) const { return is_abs(p) ? clean(p) : join(base, p); }

  // Whether [p] (as resolve() gives it) stays inside the base directory.
  bool inside(std::string_view p) const { return !confine || below(root(), canonical(p)); }
  // inside(), noting where [p] led (note_located) for a later check;
  // [missing]: [p] is known not to exist.
  bool inside_noted(const std::string& p, bool missing = false) const {
    if (!confine) return true;
    std::string c = canonical(p, missing);
    note_located(p, c);
    return below(root(), c);
  }
  // inside() for a path the system gave as canonical already (an open
  // file's): compared as it is, made canonical only when that says no.
  bool inside_canonical(std::string_view c) const {
    return !confine || below(root(), c) || below(root(), canonical(c));
  }

  static std::string outside(std::string_view shown, const Marks& marks) {
    return "path " + redact(shown, marks) + " is outside the base directory";
  }

 private:
  // Whether canonical [c] is canonical [root] or below it.
  static bool below(std::string_view root, std::string_view c) {
    if (root == "/") return true;
    return c == root || (c.size() > root.size() && c.compare(0, root.size(), root) == 0 &&
                         c[root.size()] == '/');
  }
  // The canonical base directory: found once when the base is absolute. A
  // relative one depends on the working directory, read at each call: it
  // is found again only when that has changed since.
  std::string root() const {
    if (is_abs(base)) {
      std::call_once(root_once_, [this] { root_ = canonical(base); });
      return root_;
    }
    std::string cwd = current_dir();
    {
      std::lock_guard<std::mutex> lock(relative_mu_);
      if (cwd == relative_cwd_ && !relative_root_.empty()) return relative_root_;
    }
    std::string r = canonical(join(cwd, base));
    std::lock_guard<std::mutex> lock(relative_mu_);
    relative_cwd_ = std::move(cwd);
    relative_root_ = r;
    return r;
  }
  mutable std::once_flag root_once_;
  mutable std::string root_;
  mutable std::mutex relative_mu_;  // guards the two below
  mutable std::string relative_cwd_, relative_root_;
};

namespace {

// Why a read failed, and whether the failure is about the path argument
// (Terraform's ArgError) or the call as a whole.
struct ReadError {
  std::string message;
  bool about_path = true;
};

// An open file descriptor, closed at the end of its scope.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// Notes on the thread's read log the file [path] that [fd] has open, or
// (fd < 0) that could not be opened for [error]; the stamp is taken before
// anything is read.
void note_opened(const std::string& path, int fd, int error) {
  util::ReadLog* log = util::current_read_log();
  if (log == nullptr || log->noted(path)) return;
  struct stat st;
  if (fd >= 0 && ::fstat(fd, &st) == 0) {
    log->file(util::FileStamp::of_stat(path, st));
  } else if (fd < 0 && (error == ENOENT || error == ENOTDIR)) {
    log->file(util::FileStamp::failed(path, error));  // what a stat() of it gives too
  } else {
    log->file(path);
  }
}

// Terraform's openFile: [arg] expanded, joined, cleaned, checked against
// the sandbox and opened; [resolved] is the path it opened. With
// [file_style], errors are as file() reports them (about the path
// argument, with a hint for a missing file); otherwise as the file hashes
// report them (Go's own messages, about the call).
bool open_file(const Sandbox& sb, std::string_view arg, const Marks& marks, Fd& f,
               std::string& resolved, ReadError& err, bool file_style) {
  std::string expanded, e;
  if (!expand_home(arg, expanded, e)) {
    err = {"failed to expand ~: " + e, file_style};
    return false;
  }
  resolved = sb.resolve(expanded);
  // A path from $HOME cannot be checked again.
  if (expanded != arg) util::note_unrepeatable();
  int probe_errno = 0;  // why the O_PATH open below failed: an open for reading fails alike
#ifdef O_PATH
  // Confined: the path is resolved once by the system (an O_PATH
  // descriptor, which reads nothing), the file it names checked, and that
  // same file opened for reading through the descriptor. Resolving the
  // path by hand first costs a system call for each of its components.
  // Whatever does not go this way (a missing file, an error, no /proc)
  // takes the way below, which gives every error its own text.
  if (sb.confine) {
    Fd probe;
    probe.fd = ::open(resolved.c_str(), O_PATH | O_CLOEXEC);
    if (probe.fd < 0) probe_errno = errno;
    std::string real = probe.fd >= 0 ? fd_path(probe.fd) : std::string();
    if (!real.empty()) {
      note_located(resolved, real);
      if (!sb.inside_canonical(real)) {
        err = {Sandbox::outside(arg, marks), true};
        return false;
      }
      f.fd = ::open(("/proc/self/fd/" + std::to_string(probe.fd)).c_str(), O_RDONLY | O_CLOEXEC);
      if (f.fd >= 0) {
        note_opened(resolved, f.fd, 0);
        return true;
      }
    }
  }
#endif
  if (!sb.inside_noted(resolved, probe_errno == ENOENT)) {
    util::note_file(resolved);
    err = {Sandbox::outside(arg, marks), true};
    return false;
  }
  // A path the O_PATH open could not resolve is not opened a second time
  // to learn the same thing.
  if (probe_errno == 0) f.fd = ::open(resolved.c_str(), O_RDONLY | O_CLOEXEC);
  int en = probe_errno != 0 ? probe_errno : errno;
  note_opened(resolved, f.fd, en);
  // A link swapped in between the check and the open must not let the
  // read escape: the file actually opened is checked again.
  if (f.fd >= 0 && sb.confine) {
    std::string opened = fd_path(f.fd);
    if (!opened.empty() && !sb.inside_canonical(opened)) {
      err = {Sandbox::outside(arg, marks), true};
      return false;
    }
  }
  if (f.fd < 0) {
    if (en == ENOENT && file_style) {
      err = {"no file exists at " + redact(arg, marks) +
                 "; this function works only with files that are distributed as part of the "
                 "configuration source code, so if this file will be created by a resource in "
                 "this configuration you must instead obtain this result from an attribute of "
                 "that resource",
             true};
    } else {
      err = {path_error("open", resolved, en), file_style};
    }
    return false;
  }
  return true;
}

// Reads all of [f]; false with [e] set (errno) on failure. The contents
// become one string: a file larger than a run's string limit is refused as
// it is read, not once it is in memory.
bool read_all(const Fd& f, std::string& out, int& e) {
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(f.fd, buf, sizeof buf);
    if (n == 0) return true;
    if (n < 0) {
      if (errno == EINTR) continue;
      e = errno;
      return false;
    }
    check_append(out, size_t(n));
    util::poll();
    out.append(buf, size_t(n));
  }
}

// Terraform's readFileBytes: the contents of [arg], or an error (all of
// them about the path argument).
bool read_file_bytes(const Sandbox& sb, std::string_view arg, const Marks& marks, std::string& out,
                     ReadError& err) {
  Fd f;
  std::string resolved;
  if (!open_file(sb, arg, marks, f, resolved, err, true)) return false;
  int e = 0;
  if (!read_all(f, out, e)) {
    err = {"failed to read file: " + path_error("read", resolved, e), true};
    return false;
  }
  return true;
}

Value with_marks(Value v, const Marks& m) { return m.empty() ? v : v.mark(m); }

// --- the functions --------------------------------------------------------------

Function path_string_fn(bool base, std::string description) {
  Function f;
  f.description = std::move(description);
  f.params = {param("path", Type::string())};
  f.returns(Type::string());
  f.result_not_null = true;
  f.impl = [base](std::span<const Value> args, const Type*) {
    std::string_view p = args[0].as_string();
    return FuncResult::of(Value::string(base ? base_name(p) : dir_name(p)));
  };
  return f;
}

Function abspath_fn(std::shared_ptr<const Sandbox> sb) {
  Function f;
  f.description =
      "Converts a filesystem path to an absolute path, joining a relative one to the base "
      "directory.";
  f.params = {param("path", Type::string())};
  f.returns(Type::string());
  f.result_not_null = true;
  f.impl = [sb](std::span<const Value> args, const Type*) {
    std::string_view p = args[0].as_string();
    if (is_abs(p)) return FuncResult::of(Value::string(clean(p)));
    // A relative base directory is taken from the working directory, which
    // can change from call to call.
    if (!is_abs(sb->base)) util::note_unrepeatable();
    return FuncResult::of(Value::string(join(absolute(sb->base), p)));
  };
  return f;
}

Function pathexpand_fn() {
  Function f;
  f.description =
      "Replaces a leading ~ segment of a filesystem path with the current user's home directory.";
  f.params = {param("path", Type::string())};
  f.returns(Type::string());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    std::string out, err;
    if (!expand_home(args[0].as_string(), out, err)) return FuncResult::fail(err);
    return FuncResult::of(Value::string(out));
  };
  return f;
}

// Terraform's file(): the contents of [path] as UTF-8 text, with its marks.
FuncResult read_text(const Sandbox& sb, const Value& path) {
  auto [p, marks] = path.unmark_with_marks();
  std::string bytes;
  ReadError err;
  if (!read_file_bytes(sb, p.as_string(), marks, bytes, err)) return arg_error(err.message, 0);
  if (!uni::valid_utf8(bytes)) {
    return FuncResult::fail("contents of " + redact(p.as_string(), marks) +
                            " are not valid UTF-8; use the filebase64 function to obtain the "
                            "Base64 encoded contents or the other file functions (e.g. filemd5, "
                            "filesha256) to obtain file hashing results instead");
  }
  return FuncResult::of(with_marks(Value::string(bytes), marks));
}

Function file_fn(std::shared_ptr<const Sandbox> sb, bool b64) {
  Function f;
  f.description = b64 ? "Reads the contents of a file and returns them encoded in Base64."
                      : "Reads the contents of a file, which must be UTF-8 text, as a string.";
  f.params = {param("path", Type::string(), kMarked)};
  f.returns(Type::string());
  f.result_not_null = true;
  f.impl = [sb, b64](std::span<const Value> args, const Type*) {
    if (!b64) return read_text(*sb, args[0]);
    auto [path, marks] = args[0].unmark_with_marks();
    std::string bytes;
    ReadError err;
    if (!read_file_bytes(*sb, path.as_string(), marks, bytes, err)) {
      return arg_error(err.message, 0);
    }
    return FuncResult::of(with_marks(Value::string(base64_encode(bytes)), marks));
  };
  return f;
}

Function fileexists_fn(std::shared_ptr<const Sandbox> sb) {
  Function f;
  f.description = "Reports whether a regular file exists at the given path.";
  f.params = {param("path", Type::string(), kMarked)};
  f.returns(Type::boolean());
  f.result_not_null = true;
  f.impl = [sb](std::span<const Value> args, const Type*) {
    auto [arg, marks] = args[0].unmark_with_marks();
    std::string expanded, e;
    if (!expand_home(arg.as_string(), expanded, e)) {
      return FuncResult::fail("failed to expand ~: " + e);
    }
    std::string path = sb->resolve(expanded);
    if (expanded != arg.as_string()) util::note_unrepeatable();
    if (!sb->inside_noted(path)) {
      util::note_file(path);
      return arg_error(Sandbox::outside(arg.as_string(), marks), 0);
    }
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) {
      int en = errno;
      if (util::ReadLog* log = util::current_read_log())
        log->file(util::FileStamp::failed(path, en));
      if (en == ENOENT) return FuncResult::of(with_marks(Value::boolean(false), marks));
      return FuncResult::fail("failed to stat " + redact(path, marks));
    }
    if (util::ReadLog* log = util::current_read_log())
      log->file(util::FileStamp::of_stat(path, st));
    if (S_ISREG(st.st_mode)) return FuncResult::of(with_marks(Value::boolean(true), marks));
    // Terraform reports these about argument 1 of its one parameter, so
    // they read as errors of the call as a whole.
    std::string name = redact(path, marks);
    if (S_ISDIR(st.st_mode)) return arg_error(name + " is a directory, not a file", 1);
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
      return arg_error(name + " is a device node, not a regular file", 1);
    if (S_ISFIFO(st.st_mode)) return arg_error(name + " is a named pipe, not a regular file", 1);
    if (S_ISSOCK(st.st_mode))
      return arg_error(name + " is a unix domain socket, not a regular file", 1);
    return arg_error(name + " is not a regular file", 1);
  };
  return f;
}

// --- fileset: doublestar v1.1.5's Glob ------------------------------------------

// utf8.DecodeRuneInString: (U+FFFD, 0) at the end, (U+FFFD, 1) for a bad byte.
uni::Rune decode_at(std::string_view s, size_t i) {
  if (i >= s.size()) return {0xFFFD, 0, false};
  return uni::decode(s, i);
}

// indexRuneWithEscaping for an ASCII [r]: its first index not right after
// a backslash, or npos.
// (The library recurses once per escaped occurrence; a loop gives the
// same index without a stack as deep as the pattern is long.)
size_t index_unescaped(std::string_view s, char r) {
  for (size_t from = 0;;) {
    size_t end = s.find(r, from);
    if (end == std::string_view::npos || end == 0 || s[end - 1] != '\\') return end;
    from = end + 1;
  }
}

// splitPathOnSeparator, respecting escaped separators.
std::vector<std::string> split_escaped(std::string_view path, char sep) {
  if (path.find(sep) == std::string_view::npos) return {std::string(path)};
  std::vector<std::string> out;
  bool empty_end = false;
  for (size_t start = 0; start < path.size();) {
    size_t end = index_unescaped(path.substr(start), sep);
    if (end == std::string_view::npos) {
      empty_end = false;
      end = path.size();
    } else {
      empty_end = true;
      end += start;
    }
    out.emplace_back(path.substr(start, end - start));
    start = end + 1;
  }
  if (empty_end) out.emplace_back();
  return out;
}

// The runes of [s] as Go's []rune(s) makes them.
std::vector<char32_t> runes(std::string_view s) {
  std::vector<char32_t> out;
  for (size_t i = 0; i < s.size();) {
    uni::Rune r = uni::decode(s, i);
    out.push_back(r.cp);
    i += r.len;
  }
  return out;
}

// matchComponent: whether [name] matches the pattern component [pattern];
// [bad] set for a malformed pattern (path.ErrBadPattern).
//
// The matching backtracks (a pattern of many stars or braces takes time
// exponential in their number), so each call counts as steps, more for a
// longer pattern (a brace copies the rest of it): the step limit and the
// deadline stop it.
bool match_component(std::string_view pattern, std::string_view name, bool& bad) {
  util::charge_steps(1 + pattern.size() / 256);
  bad = false;
  const size_t pl = pattern.size(), nl = name.size();
  if (pl == 0 && nl == 0) return true;
  if (pl == 0) return false;
  if (nl == 0 && pattern != "*") return false;
  size_t pi = 0, ni = 0;
  while (pi < pl && ni < nl) {
    uni::Rune pr = decode_at(pattern, pi);
    uni::Rune nr = decode_at(name, ni);
    if (pr.cp == '\\') {
      pi += pr.len;
      pr = decode_at(pattern, pi);
      if (pr.cp == 0xFFFD) {
        bad = true;
        return false;
      }
      if (pr.cp != nr.cp) return false;
      pi += pr.len;
      ni += nr.len;
    } else if (pr.cp == '*') {
      pi += pr.len;
      if (pi >= pl) return true;
      // The library steps by the width of the first rune here.
      for (; ni < nl; ni += nr.len) {
        bool b = false;
        if (match_component(pattern.substr(pi), name.substr(ni), b)) return true;
      }
      return false;
    } else if (pr.cp == '[') {
      pi += pr.len;
      size_t end = index_unescaped(pattern.substr(pi), ']');
      if (end == std::string_view::npos) {
        bad = true;
        return false;
      }
      end += pi;
      std::vector<char32_t> cls = runes(pattern.substr(pi, end - pi));
      if (cls.empty()) {
        bad = true;
        return false;
      }
      size_t ci = 0;
      bool matched = false;
      if (cls[0] == '^') ++ci;
      while (ci < cls.size()) {
        char32_t low = cls[ci];
        if (low == '-') {
          bad = true;
          return false;
        }
        ++ci;
        if (low == '\\') {
          if (ci >= cls.size()) {
            bad = true;
            return false;
          }
          low = cls[ci++];
        }
        char32_t high = low;
        if (ci < cls.size() && cls[ci] == '-') {
          if (++ci >= cls.size()) {
            bad = true;
            return false;
          }
          high = cls[ci];
          if (high == '-') {
            bad = true;
            return false;
          }
          ++ci;
          if (high == '\\') {
            if (ci >= cls.size()) {
              bad = true;
              return false;
            }
            high = cls[ci++];
          }
        }
        if (low <= nr.cp && nr.cp <= high) matched = true;
      }
      if (matched == (cls[0] == '^')) return false;
      pi = end + 1;
      ni += nr.len;
    } else if (pr.cp == '{') {
      pi += pr.len;
      size_t end = index_unescaped(pattern.substr(pi), '}');
      if (end == std::string_view::npos) {
        bad = true;
        return false;
      }
      end += pi;
      std::vector<std::string> options = split_escaped(pattern.substr(pi, end - pi), ',');
      pi = end + 1;
      for (const std::string& o : options) {
        std::string alt = o + std::string(pattern.substr(pi));
        bool b = false;
        bool m = match_component(alt, name.substr(ni), b);
        if (b) {
          bad = true;
          return false;
        }
        if (m) return true;
      }
      return false;
    } else if (pr.cp == '?' || pr.cp == nr.cp) {
      pi += pr.len;
      ni += nr.len;
    } else {
      return false;
    }
  }
  if (pi >= pl && ni >= nl) return true;
  std::string_view rest = pattern.substr(std::min(pi, pl));
  return (ni >= nl && rest == "*") || rest == "**";
}

// One directory entry, as Readdir reports it (from lstat: a symbolic link
// to a directory is no directory here).
struct Entry {
  std::string name;
  bool is_dir = false;
};

std::vector<Entry> read_dir(const std::string& dir) {
  std::vector<Entry> out;
  std::unique_ptr<DIR, int (*)(DIR*)> d(::opendir(dir.c_str()), ::closedir);
  if (!d) return out;
  while (struct dirent* e = ::readdir(d.get())) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    Entry en;
    en.name = name;
    struct stat st;
    if (::lstat(join(dir, name).c_str(), &st) == 0) en.is_dir = S_ISDIR(st.st_mode);
    out.push_back(std::move(en));
  }
  // The library sees the system's order; a sorted one makes results and
  // the choice among several errors reproducible.
  std::sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
  return out;
}

bool is_symlink(const std::string& p) {
  struct stat st;
  return ::lstat(p.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

struct Globber {
  const Sandbox& sb;
  std::vector<std::string> matches;
  std::optional<std::string> escaped;  // a directory outside the base it would have listed

  // Adds [p] to the matches, which make one set: no more than a collection
  // may hold.
  void add_match(const std::string& p) {
    check_push(matches);
    matches.push_back(p);
  }

  // doGlob; returns the error flag as the library's `e` ends up.
  bool glob(std::string basedir, std::span<const std::string> comps) {
    bool e = false;
    if (escaped) return false;
    size_t pi = 0;
    while (pi < comps.size() && comps[pi].find_first_of("*?[{\\") == std::string::npos) ++pi;
    if (pi > 0) {
      std::string lit;
      for (size_t i = 0; i < pi; ++i) lit = join(lit, comps[i]);
      basedir = join(basedir, lit);
    }
    struct stat st;
    if (::lstat(basedir.c_str(), &st) != 0) return false;
    if (pi >= comps.size()) {
      add_match(basedir);
      return false;
    }
    if (S_ISLNK(st.st_mode) && ::stat(basedir.c_str(), &st) != 0) return false;
    if (!S_ISDIR(st.st_mode)) return false;
    if (!sb.inside(basedir)) {
      escaped = basedir;
      return false;
    }
    std::vector<Entry> files = read_dir(basedir);
    // "**" walks whole trees, once per "**" of the pattern: each entry
    // listed counts as a step.
    util::charge_steps(1 + files.size());
    bool last = pi + 1 >= comps.size();
    if (comps[pi] == "**") {
      for (const Entry& file : files) {
        std::string p = join(basedir, file.name);
        bool dir = file.is_dir;
        if (is_symlink(p)) {
          struct stat target;
          if (::stat(p.c_str(), &target) != 0) continue;
          dir = S_ISDIR(target.st_mode);
        }
        if (dir) {
          if (last) add_match(p);
          e = glob(p, comps.subspan(pi));
        } else if (last) {
          add_match(p);
        }
        if (escaped) return false;
      }
      if (last) return e;
      ++pi;
      last = pi + 1 >= comps.size();
    }
    for (const Entry& file : files) {
      bool bad = false;
      bool m = match_component(comps[pi], file.name, bad);
      e = bad;
      if (bad) return true;
      if (m) {
        std::string p = join(basedir, file.name);
        if (last) {
          add_match(p);
        } else {
          e = glob(p, comps.subspan(pi + 1));
          if (escaped) return false;
        }
      }
    }
    return e;
  }

  // Glob; returns true for a malformed pattern.
  bool run(std::string_view pattern) {
    std::vector<std::string> comps = split_escaped(pattern, '/');
    if (comps.empty()) return false;
    if (pattern.starts_with("\\\\")) {
      // A UNC path to the library, even on Unix.
      std::span<const std::string> rest(comps);
      return glob("/", comps.size() > 4 ? rest.subspan(4) : rest.subspan(comps.size()));
    }
    if (comps[0].empty()) return glob("/", std::span<const std::string>(comps).subspan(1));
    return glob(".", comps);
  }
};

Function fileset_fn(std::shared_ptr<const Sandbox> sb) {
  Function f;
  f.description =
      "Enumerates the regular files under a path that match a glob pattern, as paths relative to "
      "it with forward slashes.";
  f.params = {param("path", Type::string(), kMarked), param("pattern", Type::string(), kMarked)};
  f.returns(Type::set(Type::string()));
  f.result_not_null = true;
  f.impl = [sb](std::span<const Value> args, const Type*) {
    auto [path_v, path_marks] = args[0].unmark_with_marks();
    auto [pattern_v, pattern_marks] = args[1].unmark_with_marks();
    Marks marks = path_marks;
    marks.add(pattern_marks);
    std::string path = sb->resolve(path_v.as_string());
    if (!sb->inside(path)) return arg_error(Sandbox::outside(path_v.as_string(), path_marks), 0);
    std::string pattern = join(path, pattern_v.as_string());
    Globber g{*sb, {}, std::nullopt};
    bool bad = g.run(pattern);
    if (g.escaped) return arg_error(Sandbox::outside(*g.escaped, marks), 1);
    if (bad) {
      return FuncResult::fail("failed to glob pattern " + redact(pattern, marks) +
                              ": syntax error in pattern");
    }
    std::vector<Value> out;
    for (const std::string& match : g.matches) {
      struct stat st;
      if (::stat(match.c_str(), &st) != 0) {
        int e = errno;
        // A dangling link, or one through a file, names no file.
        if (e == ENOENT || e == ENOTDIR) continue;
        return FuncResult::fail("failed to stat " + redact(match, marks) + ": " +
                                path_error("stat", match, e));
      }
      if (!S_ISREG(st.st_mode)) continue;
      if (!sb->inside(match)) return arg_error(Sandbox::outside(match, marks), 1);
      std::optional<std::string> r = rel(path, match);
      if (!r) {
        return FuncResult::fail("failed to trim path of match " + redact(match, marks) +
                                ": Rel: can't make " + match + " relative to " + path);
      }
      out.push_back(Value::string(*r));
    }
    return FuncResult::of(with_marks(Value::set(Type::string(), std::move(out)), marks));
  };
  return f;
}

// --- file hashes ----------------------------------------------------------------

Function file_hash_fn(std::shared_ptr<const Sandbox> sb, HashKind kind, bool b64,
                      std::string description) {
  Function f;
  f.description = std::move(description);
  f.params = {param("path", Type::string(), kMarked)};
  f.returns(Type::string());
  f.result_not_null = true;
  f.impl = [sb, kind, b64](std::span<const Value> args, const Type*) {
    auto [path, marks] = args[0].unmark_with_marks();
    Fd fd;
    std::string resolved;
    ReadError err;
    // Terraform's hashes open the file with openFile and report its
    // errors as they are, without the hint file() adds.
    if (!open_file(*sb, path.as_string(), marks, fd, resolved, err, false)) {
      return err.about_path ? arg_error(err.message, 0) : FuncResult::fail(err.message);
    }
    Hasher h(kind);
    char buf[65536];
    for (;;) {
      ssize_t n = ::read(fd.fd, buf, sizeof buf);
      if (n == 0) break;
      if (n < 0) {
        if (errno == EINTR) continue;
        return FuncResult::fail(path_error("read", resolved, errno));
      }
      h.update(std::string_view(buf, size_t(n)));
      util::poll();  // a file of any size streams through: the deadline stops it
    }
    std::string digest = h.finish();
    std::string out = b64 ? base64_encode(digest) : hex_encode(digest);
    return FuncResult::of(with_marks(Value::string(out), marks));
  };
  return f;
}

}  // namespace

std::shared_ptr<const Sandbox> make_sandbox(const std::string& base_dir, bool confine) {
  return std::make_shared<const Sandbox>(base_dir, confine);
}

FuncResult file_contents(const Sandbox& sb, const Value& path) { return read_text(sb, path); }

void add_filesystem_functions(FunctionTable& t, const LibraryOptions& opts) {
  add(t, "basename",
      path_string_fn(true,
                     "Returns the last element of a filesystem path (\".\" for an empty "
                     "one)."));
  add(t, "dirname", path_string_fn(false, "Returns a filesystem path without its last element."));
  if (opts.base_dir.empty()) return;
  std::shared_ptr<const Sandbox> sb = make_sandbox(opts.base_dir, opts.confine);
  // What these give depends on $HOME or a directory's listing; abspath
  // reads the working directory only for a relative base directory, and
  // the others note the files they read.
  auto outside = [&t](std::string name, Function f) {
    f.reads_outside = true;
    add(t, std::move(name), std::move(f));
  };
  add(t, "abspath", abspath_fn(sb));
  outside("pathexpand", pathexpand_fn());
  add(t, "file", file_fn(sb, false));
  add(t, "filebase64", file_fn(sb, true));
  add(t, "fileexists", fileexists_fn(sb));
  outside("fileset", fileset_fn(sb));
  add(t, "filemd5",
      file_hash_fn(sb, HashKind::Md5, false,
                   "Computes the MD5 hash of a file's contents, in hexadecimal."));
  add(t, "filesha1",
      file_hash_fn(sb, HashKind::Sha1, false,
                   "Computes the SHA-1 hash of a file's contents, in hexadecimal."));
  add(t, "filesha256",
      file_hash_fn(sb, HashKind::Sha256, false,
                   "Computes the SHA-256 hash of a file's contents, in hexadecimal."));
  add(t, "filesha512",
      file_hash_fn(sb, HashKind::Sha512, false,
                   "Computes the SHA-512 hash of a file's contents, in hexadecimal."));
  add(t, "filebase64sha256",
      file_hash_fn(sb, HashKind::Sha256, true,
                   "Computes the SHA-256 hash of a file's contents, encoded in Base64."));
  add(t, "filebase64sha512",
      file_hash_fn(sb, HashKind::Sha512, true,
                   "Computes the SHA-512 hash of a file's contents, encoded in Base64."));
  add(t, "templatefile", templatefile_fn(opts, sb));
}

}  // namespace hclvm::funcs
