// The on-disk cache directory: a content-addressed store of byte strings
// (compiled files), shared by every hclvm process of a user. It does not
// know what the bytes mean; the caller names each entry by a hash of what
// it was made from and checks the bytes it gets back.
//
// Layout: DIR/v1/ab/<key>.hclc, where "ab" is the key's first two hex
// digits (256 directories keep each one small) and "v1" is the layout's
// version, so that another layout never reads this one. A writer's
// temporary file is DIR/v1/ab/.<key>.<pid>.<random>.tmp. Nothing else in
// DIR is read, counted or removed.
//
// Concurrency: any number of threads and processes may use one directory
// at once, with no locks.
//  - put() writes a temporary file in the entry's own directory and renames
//    it over the entry. rename() is atomic, so a reader opens the old file,
//    the new one or none, and an open file is never written again: get()
//    returns a complete entry or nullopt, never part of one. When several
//    processes store the same key, the last rename wins; as keys are
//    content hashes they all store the same bytes.
//  - put() does not fsync: the guarantees above hold between processes,
//    not across an operating-system crash or power loss, after which an
//    entry may be empty or torn. The format of an entry must carry its own
//    check, and the caller treats bytes that fail it as a miss (verify()
//    finds such entries).
//  - A file that vanishes while being listed, read, touched or removed
//    (another process evicted or cleared it) is normal: it counts as gone.
//  - get() marks a hit by setting the file's modification time to now;
//    eviction removes the entries with the oldest times. It looks at an
//    entry's time again just before removing it, but an entry read in the
//    instant between that look and the removal is removed all the same.
//  - Eviction scans the whole directory (a stat per entry), so a Store
//    does not scan after every put(): its first put() scans, and later
//    ones only once it has written more than the room its last scan left
//    (the bound less the total then). When over the bound, a scan removes
//    the least recently used entries (never the one just written) down to
//    kLowWater of it, which leaves room for many puts before the next
//    scan. ~Store() scans once more when it has written since its last
//    scan. So the bound holds once every writer's Store is destroyed;
//    while writers run, each may add up to the room it saw, and a writer
//    that dies leaves any excess to the next scan.
//  - Temporary files of a writer that died are removed by clear() and by
//    eviction once they are kStaleTempAge old; a writer stopped for longer
//    than that loses its put() (false), nothing else.
//
// Every operation reports failure by its result; none throws (but for
// std::bad_alloc).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hclvm::cache {

// Age from which a temporary file belongs to a writer that died. Writing an
// entry takes milliseconds; the margin is for a writer that was stopped.
inline constexpr std::chrono::seconds kStaleTempAge{10 * 60};

// The fraction of max_bytes an eviction goes down to.
inline constexpr double kLowWater = 0.875;

// Where the cache lives when nobody says: $HCLVM_CACHE_DIR, else
// $XDG_CACHE_HOME/hclvm, else $HOME/.cache/hclvm ("" if none of them is
// set). Empty variables count as unset, and so does a relative
// XDG_CACHE_HOME (the XDG specification calls it invalid).
std::string default_dir();

struct StoreOptions {
  // The cache directory, created with its parents on the first write
  // (directories the store creates are private to the user, mode 0700, and
  // so are entries, 0600: they hold what configuration files say). Empty:
  // default_dir(); when that is empty too, the store holds nothing.
  std::string dir;
  // Bound on the sum of the entries' sizes (temporary files excluded;
  // st_size, not disk blocks); 0 = unbounded, and then put() never scans
  // the directory.
  uint64_t max_bytes = 512ull << 20;
};

struct StoreStats {
  std::string dir;
  size_t entries = 0;
  uint64_t bytes = 0;
  uint64_t max_bytes = 0;
};

class Store {
 public:
  explicit Store(StoreOptions o);
  // Evicts once more if this store has written since its last scan. A
  // moved-from store may only be destroyed or assigned to.
  ~Store();
  Store(Store&&) = default;
  Store& operator=(Store&&) = default;

  // Whether [key] can name an entry: 16 to 64 lowercase hex digits. Every
  // operation refuses other keys (as a miss or a failure).
  static bool valid_key(std::string_view key);

  // The entry [key], or nullopt when there is none (or it cannot be read).
  // A hit marks the entry recently used, so that eviction spares it.
  std::optional<std::string> get(std::string_view key) const;

  // Stores [bytes] as entry [key] atomically (readers see the old entry, no
  // entry, or all of the new one), then, when max_bytes is set and a scan
  // is due (see above), evicts least recently used entries (never this
  // one) if the total is over it. Returns false with [*error] set when the
  // key is invalid, [bytes] alone exceed max_bytes, or the directory cannot
  // be written. Safe to call from several threads at once.
  bool put(std::string_view key, std::string_view bytes, std::string* error = nullptr) const;

  // Removes entry [key]; false when there was none.
  bool remove(std::string_view key) const;

  // The number of entries and the sum of their sizes, by a scan.
  StoreStats stats() const;

  // Removes every entry, and temporary files kStaleTempAge old; returns how
  // many entries this call removed.
  size_t clear() const;

  // Calls [check] on each entry's bytes (without marking it used); an entry
  // for which it returns a reason, or that cannot be read, is listed (in
  // key order) and, with [remove_bad], removed.
  struct BadEntry {
    std::string key;
    std::string reason;
  };
  std::vector<BadEntry> verify(
      const std::function<std::optional<std::string>(std::string_view bytes)>& check,
      bool remove_bad) const;

  const std::string& dir() const { return dir_; }

 private:
  // What a store knows of the directory's size between its scans.
  struct Budget {
    std::mutex mu;
    uint64_t writes = 0;   // puts so far
    uint64_t scanned = 0;  // puts that a finished scan began after
    bool known = false;    // whether a scan has finished
    uint64_t room = 0;     // bytes to write before the next scan
  };

  std::string entry_path(std::string_view key) const;
  void after_put(std::string_view key, uint64_t size) const;
  uint64_t evict(std::string_view keep) const;

  std::string dir_;
  std::string root_;  // dir_ + "/v1"
  uint64_t max_bytes_;
  std::unique_ptr<Budget> budget_;
};

}  // namespace hclvm::cache
