// `hclvm compile`: compile configuration files into one self-contained
// compiled file (sources included) that `hclvm eval` loads without
// parsing; and `hclvm cache`: look after the cache directory that
// `hclvm eval --cache` and `hclvm check --cache` fill.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "cli/cli.h"
#include "cli/eval.h"

namespace hclvm::cli {

const char kCompileHelp[] =
    "Usage: hclvm compile [options] FILE... -o OUT.hclc\n"
    "\n"
    "Parses and compiles the configuration files FILE... and writes them,\n"
    "sources included, to OUT.hclc, which `hclvm eval OUT.hclc` evaluates\n"
    "without parsing or compiling again (every attribute of every file, in\n"
    "order). Files named *.json are read in the JSON syntax. Nothing is\n"
    "written when a file has errors.\n"
    "\n"
    "Options:\n"
    "  -o, --out FILE   where to write (required; written atomically)\n"
    "  --as config|json read every FILE in the native or the JSON syntax\n"
    "  --color WHEN     colour for diagnostics: auto (default), always or never\n"
    "  -h, --help       show this help\n"
    "\n"
    "Exit status: 0 written, 1 errors found, 2 usage error or unreadable input.\n";

const char kCacheHelp[] =
    "Usage: hclvm cache [--cache-dir DIR] (stats | clear | verify)\n"
    "\n"
    "Looks after the compiled-file cache that `hclvm eval --cache` and\n"
    "`hclvm check --cache` use: by default $HCLVM_CACHE_DIR, else\n"
    "$XDG_CACHE_HOME/hclvm, else ~/.cache/hclvm.\n"
    "\n"
    "  stats    print the directory, the number of entries and their size\n"
    "  clear    remove every entry\n"
    "  verify   check every entry (format, compiler build, checksum) and\n"
    "           remove the bad ones, listing them\n"
    "\n"
    "Options:\n"
    "  --cache-dir DIR  the cache directory\n"
    "  -h, --help       show this help\n"
    "\n"
    "Exit status: 0 done (verify: all entries sound), 1 verify removed entries,\n"
    "2 usage error.\n";

namespace {

// Writes [data] to [path] through a temporary file in the same directory
// and a rename; a failure is reported with the user's own [path] and the
// system's reason, never the temporary file's name.
bool write_atomically(const std::string& path, const std::string& data, std::string& err) {
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    err = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  int failed = 0;
  for (size_t done = 0; done < data.size() && !failed;) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno != EINTR) failed = errno;
    if (n > 0) done += size_t(n);
  }
  if (::close(fd) != 0 && !failed) failed = errno;
  if (!failed && ::rename(tmp.c_str(), path.c_str()) != 0) failed = errno;
  if (failed) {
    err = "cannot write " + path + ": " + std::strerror(failed);
    ::unlink(tmp.c_str());
    return false;
  }
  return true;
}

}  // namespace

int run_compile(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  std::string out;
  std::optional<bool> as_json;
  ColorMode color = ColorMode::Auto;
  ArgScanner sc(args);
  std::string err;
  while (sc.next()) {
    if (!sc.is_flag()) {
      files.push_back(sc.name());
      continue;
    }
    if (sc.is("--help", "-h")) {
      std::fputs(kCompileHelp, stdout);
      return kExitOk;
    }
    if (!sc.is("--out", "-o") && !sc.is("--as") && !sc.is("--color"))
      return unknown_flag(sc.name(), kCompileHelp, "hclvm help compile");
    std::optional<std::string> v = sc.value(err);
    if (!v) return usage_error(err);
    if (sc.is("--out", "-o")) {
      out = *v;
    } else if (sc.is("--as")) {
      if (*v != "config" && *v != "json")
        return usage_error("--as must be config or json, not '" + *v + "'");
      as_json = *v == "json";
    } else if (!parse_color_mode(*v, color)) {
      return usage_error("--color must be auto, always or never, not '" + *v + "'");
    }
  }
  if (files.empty()) return usage_error("compile needs at least one FILE (see 'hclvm help compile')");
  if (out.empty()) return usage_error("compile needs -o OUT.hclc (see 'hclvm help compile')");

  std::vector<CompiledFile> compiled;
  bool errors = false;
  size_t attributes = 0;
  for (const std::string& path : files) {
    std::string bytes;
    if (!read_input(path, bytes, err)) return usage_error("cannot read " + path + ": " + err);
    bool json = as_json ? *as_json : classify(path) == FileSyntax::Json;
    CompiledFile f = compile_file(make_source(display_name(path), std::move(bytes)),
                                  json ? Syntax::Json : Syntax::Native);
    print_diags_with(f.diagnostics, *f.source, [&f](uint32_t b) { return f.context(b); }, color);
    errors |= f.has_errors();
    each_compiled_attribute(f.body, "", [&](const std::string&, const CompiledAttribute& a) {
      ++attributes;
      print_diags_with(a.diagnostics, *f.source, [&f](uint32_t b) { return f.context(b); },
                       color);
      errors |= has_errors(a.diagnostics);
    });
    compiled.push_back(std::move(f));
  }
  if (errors) {
    std::fprintf(stderr, "hclvm compile: errors found; %s not written\n", out.c_str());
    return kExitErrors;
  }
  std::vector<const CompiledFile*> ptrs;
  size_t source_bytes = 0;
  for (const CompiledFile& f : compiled) {
    ptrs.push_back(&f);
    source_bytes += f.source->text().size();
  }
  std::string why;
  std::optional<std::string> data = write_compiled(ptrs, CompileOptions{}, true, &why);
  if (!data) return usage_error("cannot compile: " + why);
  if (!write_atomically(out, *data, err)) return usage_error(err);
  std::fprintf(stderr, "hclvm compile: %zu file%s, %zu attribute%s, %zu bytes of source -> %s (%zu bytes)\n",
               files.size(), files.size() == 1 ? "" : "s", attributes, attributes == 1 ? "" : "s",
               source_bytes, out.c_str(),
               data->size());
  return kExitOk;
}

int run_cache(const std::vector<std::string>& args) {
  std::string dir, action;
  ArgScanner sc(args);
  std::string err;
  while (sc.next()) {
    if (!sc.is_flag()) {
      if (!action.empty()) return usage_error("cache takes one action (see 'hclvm help cache')");
      action = sc.name();
      continue;
    }
    if (sc.is("--help", "-h")) {
      std::fputs(kCacheHelp, stdout);
      return kExitOk;
    }
    if (!sc.is("--cache-dir"))
      return unknown_flag(sc.name(), kCacheHelp, "hclvm help cache");
    std::optional<std::string> v = sc.value(err);
    if (!v) return usage_error(err);
    dir = *v;
  }
  if (action != "stats" && action != "clear" && action != "verify")
    return usage_error("cache needs one of stats, clear or verify (see 'hclvm help cache')");
  Cache cache(CacheOptions{dir});
  if (cache.dir().empty())
    return usage_error("no cache directory: set HCLVM_CACHE_DIR or HOME, or pass --cache-dir");
  if (action == "stats") {
    CacheStats s = cache.stats();
    std::printf("directory: %s\nentries: %zu\nbytes: %llu\nmax bytes: %llu\n", s.dir.c_str(),
                s.entries, static_cast<unsigned long long>(s.bytes),
                static_cast<unsigned long long>(s.max_bytes));
    return kExitOk;
  }
  if (action == "clear") {
    size_t n = cache.clear();
    std::printf("removed %zu entr%s from %s\n", n, n == 1 ? "y" : "ies", cache.dir().c_str());
    return kExitOk;
  }
  std::vector<std::string> bad = cache.verify();
  for (const std::string& b : bad) std::printf("removed %s\n", b.c_str());
  std::printf("%zu bad entr%s\n", bad.size(), bad.size() == 1 ? "y" : "ies");
  return bad.empty() ? kExitOk : kExitErrors;
}

}  // namespace hclvm::cli
