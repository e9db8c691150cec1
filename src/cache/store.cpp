// The cache directory (store.h): POSIX calls on file descriptors, so that
// every failure is an errno to test rather than an exception, and so that
// a scan works relative to each open directory (openat, fstatat,
// unlinkat) instead of building a path per file.
#include "cache/store.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <system_error>
#include <utility>

namespace hclvm::cache {

namespace {

constexpr std::string_view kLayout = "v1";
constexpr std::string_view kEntrySuffix = ".hclc";
constexpr std::string_view kTempSuffix = ".tmp";

std::string errno_text(int e) { return std::generic_category().message(e); }

// [base]/[name], without doubling a slash that ends [base].
std::string join(std::string_view base, std::string_view name) {
  std::string out(base);
  if (out.empty() || out.back() != '/') out += '/';
  out += name;
  return out;
}

bool is_lower_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

int64_t mtime_ns(const struct stat& st) {
  return int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

int64_t now_ns() {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

bool stale_temp(const struct stat& st) {
  return now_ns() - mtime_ns(st) >=
         std::chrono::duration_cast<std::chrono::nanoseconds>(kStaleTempAge).count();
}

// 16 hex digits that no other writer of this process or another is likely
// to pick; the pid in the name and O_EXCL settle the rest.
std::string random_hex() {
  uint64_t r = 0;
  if (getrandom(&r, sizeof r, GRND_NONBLOCK) != ssize_t(sizeof r)) {
    static std::atomic<uint64_t> counter{0};
    r = uint64_t(now_ns()) ^ (counter.fetch_add(1) * 0x9e3779b97f4a7c15ull);
  }
  static const char kDigits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, r >>= 4) out[size_t(i)] = kDigits[r & 15];
  return out;
}

// Creates directory [path] and its missing parents, mode 0700 (less the
// umask); an existing one is fine. Fails with errno set.
bool make_dirs(const std::string& path, int depth = 0) {
  if (mkdir(path.c_str(), 0700) == 0 || errno == EEXIST) return true;
  if (errno != ENOENT || depth > 256) return false;
  size_t slash = path.find_last_of('/');
  while (slash != std::string::npos && slash > 0 && path[slash - 1] == '/') --slash;
  if (slash == std::string::npos || slash == 0) return false;
  if (!make_dirs(path.substr(0, slash), depth + 1)) return false;
  return mkdir(path.c_str(), 0700) == 0 || errno == EEXIST;
}

// Reads the whole of [fd], a regular file, into [*out]. Fails with errno set.
bool read_all(int fd, const struct stat& st, std::string* out) {
  out->clear();
  out->resize(size_t(st.st_size));
  size_t have = 0;
  for (;;) {
    if (have == out->size()) out->resize(have + 4096);  // the file grew: read on to its end
    ssize_t n = read(fd, out->data() + have, out->size() - have);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (n == 0) break;
    have += size_t(n);
  }
  out->resize(have);
  return true;
}

// The entry's bytes at [path]; nullopt with errno set when it cannot be
// read (ENOENT: there is none). With [touch], marks it used.
std::optional<std::string> read_entry(const std::string& path, bool touch) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return std::nullopt;
  struct stat st;
  std::string bytes;
  bool ok = fstat(fd, &st) == 0;
  if (ok && !S_ISREG(st.st_mode)) {
    errno = EINVAL;
    ok = false;
  }
  if (ok) ok = read_all(fd, st, &bytes);
  int saved = errno;
  // The file read, even if a rename has replaced it since: touching a
  // replaced one is harmless, the new one is recent anyway. A cache that
  // is not the user's own (EPERM) is read without marking.
  if (ok && touch) futimens(fd, nullptr);
  close(fd);
  if (!ok) {
    errno = saved;
    return std::nullopt;
  }
  return bytes;
}

enum class Kind { kEntry, kTemp };

// What [name] in fan-out directory [sub] is: an entry (its key in [*key]),
// a temporary file, or (nullopt) something the store never made.
std::optional<Kind> classify(std::string_view sub, std::string_view name, std::string_view* key) {
  if (name.size() > kEntrySuffix.size() && name.ends_with(kEntrySuffix)) {
    *key = name.substr(0, name.size() - kEntrySuffix.size());
    if (Store::valid_key(*key) && key->substr(0, 2) == sub) return Kind::kEntry;
    return std::nullopt;
  }
  if (name.size() > 1 && name[0] == '.' && name.ends_with(kTempSuffix)) {
    std::string_view rest = name.substr(1);
    *key = rest.substr(0, rest.find('.'));
    if (Store::valid_key(*key) && key->substr(0, 2) == sub) return Kind::kTemp;
  }
  return std::nullopt;
}

// A file found by a scan: the open fan-out directory it is in, its name
// (NUL-terminated: it is the dirent's), key and kind, and its status.
struct Found {
  int dir_fd;
  std::string_view sub;
  std::string_view name;
  std::string_view key;
  Kind kind;
  const struct stat& st;
};

// Calls [fn] on each regular entry and temporary file under [root] (the
// layout directory). Fan-out directories that cannot be opened and files
// that vanish before their stat are skipped: another process removed them,
// or they are not the store's. [fn] may unlink the file it is given.
template <class Fn>
void scan(const std::string& root, Fn&& fn) {
  if (root.empty()) return;
  DIR* top = opendir(root.c_str());
  if (top == nullptr) return;
  while (struct dirent* d = readdir(top)) {
    std::string_view sub = d->d_name;
    if (sub.size() != 2 || !is_lower_hex(sub[0]) || !is_lower_hex(sub[1])) continue;
    int fd = openat(dirfd(top), d->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) continue;
    DIR* dir = fdopendir(fd);
    if (dir == nullptr) {
      close(fd);
      continue;
    }
    while (struct dirent* f = readdir(dir)) {
      std::string_view name = f->d_name, key;
      std::optional<Kind> kind = classify(sub, name, &key);
      if (!kind) continue;
      struct stat st;
      if (fstatat(fd, f->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) continue;
      fn(Found{fd, sub, name, key, *kind, st});
    }
    closedir(dir);
  }
  closedir(top);
}

bool fail(std::string* error, std::string message) {
  if (error != nullptr) *error = std::move(message);
  return false;
}

}  // namespace

std::string default_dir() {
  const char* own = std::getenv("HCLVM_CACHE_DIR");
  if (own != nullptr && *own != '\0') return own;
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg != nullptr && xdg[0] == '/') return join(xdg, "hclvm");
  const char* home = std::getenv("HOME");
  if (home != nullptr && *home != '\0') return join(join(home, ".cache"), "hclvm");
  return "";
}

Store::Store(StoreOptions o)
    : dir_(o.dir.empty() ? default_dir() : std::move(o.dir)),
      max_bytes_(o.max_bytes),
      budget_(std::make_unique<Budget>()) {
  while (dir_.size() > 1 && dir_.back() == '/') dir_.pop_back();
  if (!dir_.empty()) root_ = join(dir_, kLayout);
}

Store::~Store() {
  if (budget_ == nullptr || max_bytes_ == 0) return;  // moved from, or nothing to bound
  bool pending;
  {
    std::lock_guard<std::mutex> lock(budget_->mu);
    pending = budget_->writes > budget_->scanned;
  }
  if (pending) evict({});
}

bool Store::valid_key(std::string_view key) {
  return key.size() >= 16 && key.size() <= 64 && std::all_of(key.begin(), key.end(), is_lower_hex);
}

std::string Store::entry_path(std::string_view key) const {
  std::string p = join(root_, key.substr(0, 2));
  p += '/';
  p += key;
  p += kEntrySuffix;
  return p;
}

std::optional<std::string> Store::get(std::string_view key) const {
  if (root_.empty() || !valid_key(key)) return std::nullopt;
  return read_entry(entry_path(key), true);
}

bool Store::put(std::string_view key, std::string_view bytes, std::string* error) const {
  if (root_.empty()) {
    return fail(error,
                "no cache directory: none given, and none of HCLVM_CACHE_DIR, "
                "XDG_CACHE_HOME and HOME is set");
  }
  if (!valid_key(key)) return fail(error, "invalid cache key '" + std::string(key) + "'");
  if (max_bytes_ != 0 && bytes.size() > max_bytes_) {
    return fail(error, "an entry of " + std::to_string(bytes.size()) +
                           " bytes does not fit in a cache of " + std::to_string(max_bytes_));
  }
  std::string sub = join(root_, key.substr(0, 2));
  std::string prefix = sub + "/." + std::string(key) + "." + std::to_string(getpid()) + ".";
  std::string tmp;
  int fd = -1;
  // Two retries after creating the directories (another process may
  // remove them in between), a few after a name that is taken.
  for (int attempt = 0, made = 0; fd < 0; ++attempt) {
    tmp = prefix + random_hex() + std::string(kTempSuffix);
    fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) break;
    int e = errno;
    if (e == ENOENT && made < 2) {
      ++made;
      if (!make_dirs(sub)) return fail(error, "cannot create " + sub + ": " + errno_text(errno));
      continue;
    }
    if (e == EEXIST && attempt < 8) continue;
    return fail(error, "cannot create a file in " + sub + ": " + errno_text(e));
  }
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + done, std::min(bytes.size() - done, size_t(1) << 30));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int e = errno;
      close(fd);
      unlink(tmp.c_str());
      return fail(error, "cannot write " + tmp + ": " + errno_text(e));
    }
    done += size_t(n);
  }
  // No fsync (see store.h): close still reports what some file systems
  // (NFS) only find out then.
  if (close(fd) != 0) {
    int e = errno;
    unlink(tmp.c_str());
    return fail(error, "cannot write " + tmp + ": " + errno_text(e));
  }
  std::string path = entry_path(key);
  if (rename(tmp.c_str(), path.c_str()) != 0) {
    int e = errno;
    unlink(tmp.c_str());
    return fail(error, "cannot rename " + tmp + " to " + path + ": " + errno_text(e));
  }
  if (max_bytes_ != 0) after_put(key, bytes.size());
  return true;
}

// Scans (and evicts) unless the room the last scan left still holds
// [size]. A scan covers the puts counted before it began, including those
// of other threads that skipped theirs.
void Store::after_put(std::string_view key, uint64_t size) const {
  uint64_t upto;
  {
    std::lock_guard<std::mutex> lock(budget_->mu);
    ++budget_->writes;
    if (budget_->known && size <= budget_->room) {
      budget_->room -= size;
      return;
    }
    upto = budget_->writes;
  }
  uint64_t total = evict(key);
  std::lock_guard<std::mutex> lock(budget_->mu);
  budget_->known = true;
  budget_->scanned = std::max(budget_->scanned, upto);
  budget_->room = max_bytes_ - std::min(total, max_bytes_);
}

// One scan sums the entries and collects all but [keep]; when the total is
// over the bound, a heap gives the oldest first, so that removing k of n
// entries costs O(n + k log n). Each one is looked at again just before its
// removal: a process may have read it (and marked it) since the scan.
// Returns the total left.
uint64_t Store::evict(std::string_view keep) const {
  struct Item {
    int64_t mtime;
    uint64_t size;
    std::string key;
  };
  std::vector<Item> items;
  uint64_t total = 0;
  scan(root_, [&](const Found& f) {
    if (f.kind == Kind::kTemp) {
      if (stale_temp(f.st)) unlinkat(f.dir_fd, f.name.data(), 0);
      return;
    }
    total += uint64_t(f.st.st_size);
    if (f.key != keep)
      items.push_back({mtime_ns(f.st), uint64_t(f.st.st_size), std::string(f.key)});
  });
  if (total <= max_bytes_) return total;
  uint64_t target = uint64_t(double(max_bytes_) * kLowWater);
  auto newer = [](const Item& a, const Item& b) {
    return a.mtime != b.mtime ? a.mtime > b.mtime : a.key > b.key;
  };
  std::make_heap(items.begin(), items.end(), newer);
  for (auto end = items.end(); total > target && end != items.begin(); --end) {
    std::pop_heap(items.begin(), end, newer);
    const Item& it = *(end - 1);
    std::string path = entry_path(it.key);
    struct stat st;
    if (lstat(path.c_str(), &st) == 0 && mtime_ns(st) != it.mtime) continue;  // used since
    if (unlink(path.c_str()) == 0 || errno == ENOENT) total -= std::min(total, it.size);
  }
  return total;
}

bool Store::remove(std::string_view key) const {
  if (root_.empty() || !valid_key(key)) return false;
  return unlink(entry_path(key).c_str()) == 0;
}

StoreStats Store::stats() const {
  StoreStats s;
  s.dir = dir_;
  s.max_bytes = max_bytes_;
  scan(root_, [&](const Found& f) {
    if (f.kind != Kind::kEntry) return;
    ++s.entries;
    s.bytes += uint64_t(f.st.st_size);
  });
  return s;
}

size_t Store::clear() const {
  size_t removed = 0;
  scan(root_, [&](const Found& f) {
    if (f.kind == Kind::kEntry) {
      if (unlinkat(f.dir_fd, f.name.data(), 0) == 0) ++removed;
    } else if (stale_temp(f.st)) {
      unlinkat(f.dir_fd, f.name.data(), 0);
    }
  });
  return removed;
}

std::vector<Store::BadEntry> Store::verify(
    const std::function<std::optional<std::string>(std::string_view bytes)>& check,
    bool remove_bad) const {
  std::vector<std::string> keys;
  scan(root_, [&](const Found& f) {
    if (f.kind == Kind::kEntry) keys.emplace_back(f.key);
  });
  std::sort(keys.begin(), keys.end());
  std::vector<BadEntry> bad;
  for (std::string& key : keys) {
    std::string path = entry_path(key);
    std::optional<std::string> reason;
    if (std::optional<std::string> bytes = read_entry(path, false)) {
      reason = check(*bytes);
    } else if (errno != ENOENT) {
      reason = "cannot read " + path + ": " + errno_text(errno);
    }
    if (!reason) continue;
    if (remove_bad) unlink(path.c_str());
    bad.push_back({std::move(key), std::move(*reason)});
  }
  return bad;
}

}  // namespace hclvm::cache
