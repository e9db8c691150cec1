// Tests of the cache directory (src/cache/store.h): entries, keys, the
// layout on disk, eviction, clear, stats, verify, temporary files, the
// default location, and many processes writing and reading at once.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cache/store.h"

namespace hclvm::cache {
namespace {

namespace fs = std::filesystem;

// A key of 32 hex digits, different for each [i] and spread over the
// fan-out directories.
std::string key(uint64_t i) {
  auto mix = [](uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  char buf[33];
  snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(mix(i)),
           static_cast<unsigned long long>(mix(i + (uint64_t(1) << 40))));
  return buf;
}

// Bytes that name their key: "<key>\n" then [size] bytes drawn from the key,
// so that any process can tell a complete entry from anything else.
std::string content(const std::string& k, size_t size) {
  std::string out = k + "\n";
  std::mt19937_64 gen(std::hash<std::string>{}(k));
  while (out.size() < k.size() + 1 + size) out += char(gen() & 0xff);
  return out;
}

// Why [bytes] are not a complete content() of the key they name, if so.
std::optional<std::string> check_content(std::string_view bytes, size_t size) {
  size_t nl = bytes.find('\n');
  if (nl == std::string_view::npos) return "no key";
  if (bytes != content(std::string(bytes.substr(0, nl)), size)) return "wrong bytes";
  return std::nullopt;
}

void write_file(const fs::path& p, std::string_view bytes) {
  std::ofstream out(p, std::ios::binary);
  out << bytes;
}

// Sets the modification time of [p] to now + [offset] seconds.
void set_mtime(const fs::path& p, int offset) {
  struct timespec ts[2];
  clock_gettime(CLOCK_REALTIME, &ts[0]);
  ts[0].tv_sec += offset;
  ts[0].tv_nsec = 0;
  ts[1] = ts[0];
  ASSERT_EQ(utimensat(AT_FDCWD, p.c_str(), ts, 0), 0) << p;
}

// Seconds from the modification time of [p] to now.
double age(const fs::path& p) {
  struct stat st;
  EXPECT_EQ(stat(p.c_str(), &st), 0) << p;
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  return double(now.tv_sec - st.st_mtim.tv_sec) + double(now.tv_nsec - st.st_mtim.tv_nsec) / 1e9;
}

// Sets (or with nullptr unsets) an environment variable for a scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    const char* old = std::getenv(name);
    if (old != nullptr) old_ = old;
    if (value != nullptr)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

class CacheStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = testing::TempDir() + "hclvm-cache-XXXXXX";
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    tmp_ = templ;
    dir_ = tmp_ / "cache";
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(tmp_, ec);
  }

  Store store(uint64_t max_bytes = 0) const { return Store({dir_.string(), max_bytes}); }

  fs::path entry(const std::string& k) const {
    return dir_ / "v1" / k.substr(0, 2) / (k + ".hclc");
  }
  fs::path temp(const std::string& k, const std::string& tail) const {
    return dir_ / "v1" / k.substr(0, 2) / ("." + k + "." + tail + ".tmp");
  }

  // The temporary files under the cache directory.
  std::vector<std::string> temps() const {
    std::vector<std::string> out;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir_, ec); !ec && it != fs::end(it);
         it.increment(ec)) {
      if (it->path().extension() == ".tmp") out.push_back(it->path().filename());
    }
    return out;
  }

  fs::path tmp_, dir_;
};

TEST_F(CacheStoreTest, RoundTripAndLayout) {
  Store s = store();
  std::string k = key(1);
  std::string bytes("with\0nul\xff", 9);
  EXPECT_EQ(s.get(k), std::nullopt);
  std::string error = "untouched";
  ASSERT_TRUE(s.put(k, bytes, &error));
  EXPECT_EQ(error, "untouched");
  EXPECT_EQ(s.get(k), bytes);
  // The documented layout, no temporary file left, private modes.
  std::ifstream in(entry(k), std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), bytes);
  EXPECT_TRUE(temps().empty());
  struct stat st;
  ASSERT_EQ(stat(entry(k).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_EQ(stat((dir_ / "v1" / k.substr(0, 2)).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0077, 0u);
  // An empty entry is an entry.
  ASSERT_TRUE(s.put(key(2), ""));
  EXPECT_EQ(s.get(key(2)), "");
  EXPECT_EQ(s.get(key(3)), std::nullopt);
}

TEST_F(CacheStoreTest, CreatesParentsAndAcceptsTrailingSlash) {
  Store s({(tmp_ / "a" / "b" / "c/").string(), 0});
  EXPECT_EQ(s.dir(), (tmp_ / "a" / "b" / "c").string());
  ASSERT_TRUE(s.put(key(1), "x"));
  EXPECT_TRUE(fs::exists(tmp_ / "a" / "b" / "c" / "v1" / key(1).substr(0, 2) / (key(1) + ".hclc")));
}

TEST_F(CacheStoreTest, BadKeysRefused) {
  Store s = store();
  const std::string bad[] = {
      "",
      "0123456789abcde",  // 15 digits
      std::string(65, 'a'),
      "0123456789ABCDEF",
      "0123456789abcdeg",
      "../../../../etc/passwd",
      "0123456789abcdef.hclc",
      "0123456789abcde/",
  };
  for (const std::string& k : bad) {
    std::string error;
    EXPECT_FALSE(s.put(k, "x", &error)) << k;
    EXPECT_EQ(error, "invalid cache key '" + k + "'");
    EXPECT_EQ(s.get(k), std::nullopt) << k;
    EXPECT_FALSE(s.remove(k)) << k;
    EXPECT_FALSE(Store::valid_key(k)) << k;
  }
  EXPECT_FALSE(fs::exists(dir_));
  for (const std::string& k : {std::string(16, '0'), std::string(64, 'f')}) {
    EXPECT_TRUE(Store::valid_key(k));
    ASSERT_TRUE(s.put(k, k));
    EXPECT_EQ(s.get(k), k);
  }
}

TEST_F(CacheStoreTest, Overwrite) {
  Store s = store();
  ASSERT_TRUE(s.put(key(1), "first version"));
  ASSERT_TRUE(s.put(key(1), "two"));
  EXPECT_EQ(s.get(key(1)), "two");
  StoreStats st = s.stats();
  EXPECT_EQ(st.entries, 1u);
  EXPECT_EQ(st.bytes, 3u);
  EXPECT_TRUE(temps().empty());
}

TEST_F(CacheStoreTest, Remove) {
  Store s = store();
  ASSERT_TRUE(s.put(key(1), "x"));
  EXPECT_TRUE(s.remove(key(1)));
  EXPECT_FALSE(s.remove(key(1)));
  EXPECT_EQ(s.get(key(1)), std::nullopt);
}

TEST_F(CacheStoreTest, GetMarksUsed) {
  Store s = store();
  ASSERT_TRUE(s.put(key(1), "x"));
  set_mtime(entry(key(1)), -3600);
  EXPECT_GT(age(entry(key(1))), 3500);
  ASSERT_TRUE(s.get(key(1)));
  EXPECT_LT(age(entry(key(1))), 60);
}

TEST_F(CacheStoreTest, EvictsLeastRecentlyUsed) {
  Store s = store(350);
  std::string a = key(1), b = key(2), c = key(3), d = key(4), e = key(5);
  for (const std::string& k : {a, b, c}) ASSERT_TRUE(s.put(k, std::string(100, 'x')));
  set_mtime(entry(a), -300);
  set_mtime(entry(b), -200);
  set_mtime(entry(c), -100);
  ASSERT_TRUE(s.get(a));  // a, the oldest, is now the most recent
  ASSERT_TRUE(s.put(d, std::string(100, 'y')));
  EXPECT_TRUE(s.get(a));
  EXPECT_EQ(s.get(b), std::nullopt);
  EXPECT_TRUE(fs::exists(entry(c)));
  EXPECT_TRUE(s.get(d));
  EXPECT_EQ(s.stats().bytes, 300u);
  // Now c is the oldest.
  ASSERT_TRUE(s.put(e, std::string(100, 'z')));
  EXPECT_FALSE(fs::exists(entry(c)));
  EXPECT_TRUE(fs::exists(entry(a)) && fs::exists(entry(d)) && fs::exists(entry(e)));
  // Several go when one big entry needs the room.
  ASSERT_TRUE(s.put(key(6), std::string(300, 'w')));
  StoreStats st = s.stats();
  EXPECT_EQ(st.entries, 1u);
  EXPECT_EQ(st.bytes, 300u);
}

TEST_F(CacheStoreTest, EvictionSparesTheEntryJustWritten) {
  Store s = store(250);
  ASSERT_TRUE(s.put(key(1), std::string(100, 'x')));
  ASSERT_TRUE(s.put(key(2), std::string(100, 'x')));
  // Times in the future (a clock that went back) make the new entry the
  // oldest; it stays all the same.
  set_mtime(entry(key(1)), 1000);
  set_mtime(entry(key(2)), 2000);
  ASSERT_TRUE(s.put(key(3), std::string(100, 'y')));
  EXPECT_TRUE(fs::exists(entry(key(3))));
  EXPECT_FALSE(fs::exists(entry(key(1))));
  EXPECT_TRUE(fs::exists(entry(key(2))));
}

TEST_F(CacheStoreTest, EntryLargerThanTheBoundRefused) {
  Store s = store(100);
  ASSERT_TRUE(s.put(key(1), std::string(100, 'x')));
  std::string error;
  EXPECT_FALSE(s.put(key(2), std::string(101, 'x'), &error));
  EXPECT_EQ(error, "an entry of 101 bytes does not fit in a cache of 100");
  EXPECT_EQ(s.get(key(2)), std::nullopt);
  EXPECT_TRUE(s.get(key(1)));
}

TEST_F(CacheStoreTest, UnboundedNeverEvicts) {
  Store s = store(0);
  for (int i = 0; i < 50; ++i) ASSERT_TRUE(s.put(key(i), std::string(1000, 'x')));
  StoreStats st = s.stats();
  EXPECT_EQ(st.entries, 50u);
  EXPECT_EQ(st.bytes, 50000u);
  EXPECT_EQ(st.max_bytes, 0u);
}

TEST_F(CacheStoreTest, Stats) {
  Store s = store(1 << 20);
  StoreStats empty = s.stats();  // the directory does not exist yet
  EXPECT_EQ(empty.dir, dir_.string());
  EXPECT_EQ(empty.entries, 0u);
  EXPECT_EQ(empty.bytes, 0u);
  EXPECT_EQ(empty.max_bytes, uint64_t(1) << 20);
  ASSERT_TRUE(s.put(key(1), "abc"));
  ASSERT_TRUE(s.put(key(2), "defgh"));
  // Neither temporary files nor files the store did not make count.
  write_file(temp(key(1), "99.0123456789abcdef"), std::string(1000, 't'));
  write_file(dir_ / "v1" / key(1).substr(0, 2) / "notes.hclc", "n");
  fs::path elsewhere = dir_ / "v1" / (key(1)[0] == '0' ? "ff" : "00");
  fs::create_directories(elsewhere);
  write_file(elsewhere / (key(1) + ".hclc"), "misplaced");
  fs::create_directories(dir_ / "v2" / "ab");
  write_file(dir_ / "v2" / "ab" / (std::string(16, 'a') + "b.hclc"), "other layout");
  StoreStats st = s.stats();
  EXPECT_EQ(st.entries, 2u);
  EXPECT_EQ(st.bytes, 8u);
}

TEST_F(CacheStoreTest, Clear) {
  Store s = store();
  EXPECT_EQ(s.clear(), 0u);  // no directory
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(s.put(key(i), "x"));
  fs::path foreign = dir_ / "v1" / key(0).substr(0, 2) / "notes.txt";
  write_file(foreign, "mine");
  write_file(dir_ / "README", "mine");
  fs::path stale = temp(key(0), "7.00000000000000aa");
  fs::path fresh = temp(key(1), "8.00000000000000bb");
  write_file(stale, "half");
  write_file(fresh, "half");
  set_mtime(stale, -int(kStaleTempAge.count()) - 60);
  EXPECT_EQ(s.clear(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(s.get(key(i)), std::nullopt);
  EXPECT_EQ(s.stats().entries, 0u);
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(fresh));  // perhaps a writer at work
  EXPECT_TRUE(fs::exists(foreign));
  EXPECT_TRUE(fs::exists(dir_ / "README"));
  EXPECT_EQ(s.clear(), 0u);
  ASSERT_TRUE(s.put(key(0), "again"));
  EXPECT_EQ(s.get(key(0)), "again");
}

TEST_F(CacheStoreTest, StaleTempFilesRemovedByEviction) {
  ASSERT_TRUE(store(1000).put(key(1), std::string(400, 'x')));
  fs::path stale = temp(key(1), "7.00000000000000aa");
  fs::path fresh = temp(key(2), "8.00000000000000bb");
  fs::create_directories(fresh.parent_path());
  write_file(stale, std::string(5000, 'h'));
  write_file(fresh, std::string(5000, 'h'));
  set_mtime(stale, -int(kStaleTempAge.count()) - 60);
  // The first put of a store scans. Temporary files are not entries:
  // nothing is evicted for them.
  Store s = store(1000);
  ASSERT_TRUE(s.put(key(3), std::string(400, 'y')));
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(fresh));
  EXPECT_TRUE(s.get(key(1)));
  EXPECT_TRUE(s.get(key(3)));
}

// A store scans again only once it has written the room its last scan
// left; an eviction goes down to kLowWater of the bound.
TEST_F(CacheStoreTest, ScansOnlyWhenTheRoomIsUsedUp) {
  Store s = store(1000);
  ASSERT_TRUE(s.put(key(1), std::string(300, 'x')));  // scans: 700 bytes of room
  fs::path stale = temp(key(1), "7.00000000000000aa");
  write_file(stale, "h");
  set_mtime(stale, -int(kStaleTempAge.count()) - 60);
  ASSERT_TRUE(s.put(key(2), std::string(300, 'x')));  // 400 left
  ASSERT_TRUE(s.put(key(3), std::string(400, 'x')));  // 0 left
  EXPECT_TRUE(fs::exists(stale)) << "scanned too early";
  set_mtime(entry(key(1)), -30);
  set_mtime(entry(key(2)), -20);
  set_mtime(entry(key(3)), -10);
  ASSERT_TRUE(s.put(key(4), std::string(100, 'x')));  // scans: 1100 bytes, down to 875
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_FALSE(fs::exists(entry(key(1))));
  EXPECT_TRUE(fs::exists(entry(key(2))));
  EXPECT_EQ(s.stats().bytes, 800u);
  // 200 bytes of room: one more put of 200 without a scan, then a scan.
  ASSERT_TRUE(s.put(key(5), std::string(200, 'x')));
  EXPECT_EQ(s.stats().bytes, 1000u);
  ASSERT_TRUE(s.put(key(6), std::string(1, 'x')));
  EXPECT_LE(s.stats().bytes, 875u);
}

// Two stores stand for two processes: one writes into room the other has
// used meanwhile, and the bound holds again once it is destroyed.
TEST_F(CacheStoreTest, DestructorEvictsWhatItsPutsLeftOver) {
  Store b = store(1000);
  {
    Store a = store(1000);
    ASSERT_TRUE(a.put(key(1), std::string(400, 'x')));  // 600 of room
    ASSERT_TRUE(b.put(key(2), std::string(400, 'x')));  // 200 of room
    ASSERT_TRUE(a.put(key(3), std::string(400, 'x')));  // fits a's room
    EXPECT_EQ(a.stats().bytes, 1200u);
  }
  EXPECT_LE(b.stats().bytes, 875u);
  // A store that wrote nothing since its last scan does not scan again.
  set_mtime(entry(key(3)), 0);
  {
    Store c = store(100);
    EXPECT_TRUE(c.get(key(3)));
  }
  EXPECT_TRUE(fs::exists(entry(key(3))));
}

TEST_F(CacheStoreTest, Verify) {
  Store s = store();
  std::vector<std::string> keys;
  for (int i = 0; i < 6; ++i) keys.push_back(key(i));
  for (int i = 0; i < 6; ++i) ASSERT_TRUE(s.put(keys[i], i % 2 ? "bad entry" : "good entry"));
  for (const std::string& k : keys) set_mtime(entry(k), -3600);
  auto check = [](std::string_view bytes) -> std::optional<std::string> {
    if (bytes.starts_with("bad")) return "starts with bad";
    return std::nullopt;
  };
  std::vector<std::string> want = {keys[1], keys[3], keys[5]};
  std::sort(want.begin(), want.end());

  std::vector<Store::BadEntry> bad = s.verify(check, false);
  ASSERT_EQ(bad.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(bad[i].key, want[i]);
    EXPECT_EQ(bad[i].reason, "starts with bad");
  }
  EXPECT_EQ(s.stats().entries, 6u);
  for (const std::string& k : keys) EXPECT_GT(age(entry(k)), 3500) << "verify marked " << k;

  bad = s.verify(check, true);
  ASSERT_EQ(bad.size(), 3u);
  EXPECT_EQ(bad[0].key, want[0]);
  EXPECT_EQ(s.stats().entries, 3u);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(s.get(keys[i]).has_value(), i % 2 == 0) << i;
  EXPECT_TRUE(s.verify(check, true).empty());
}

TEST_F(CacheStoreTest, UnwritableDirectoryFailsWithoutThrowing) {
  write_file(tmp_ / "file", "not a directory");
  Store s({(tmp_ / "file" / "cache").string(), 100});
  std::string error;
  EXPECT_FALSE(s.put(key(1), "x", &error));
  EXPECT_EQ(error, "cannot create a file in " +
                       (tmp_ / "file" / "cache" / "v1" / key(1).substr(0, 2)).string() +
                       ": Not a directory");
  EXPECT_FALSE(s.put(key(1), "x"));  // no error wanted
  EXPECT_EQ(s.get(key(1)), std::nullopt);
  EXPECT_EQ(s.stats().entries, 0u);
  EXPECT_EQ(s.clear(), 0u);
  EXPECT_TRUE(s.verify([](std::string_view) { return std::nullopt; }, true).empty());
}

TEST_F(CacheStoreTest, DefaultDir) {
  ScopedEnv own("HCLVM_CACHE_DIR", "/custom/place");
  ScopedEnv xdg("XDG_CACHE_HOME", "/xdg/");
  ScopedEnv home("HOME", "/home/someone");
  EXPECT_EQ(default_dir(), "/custom/place");
  {
    ScopedEnv empty("HCLVM_CACHE_DIR", "");
    EXPECT_EQ(default_dir(), "/xdg/hclvm");
  }
  {
    ScopedEnv unset("HCLVM_CACHE_DIR", nullptr);
    EXPECT_EQ(default_dir(), "/xdg/hclvm");
    {
      ScopedEnv relative("XDG_CACHE_HOME", "relative/cache");
      EXPECT_EQ(default_dir(), "/home/someone/.cache/hclvm");
    }
    {
      ScopedEnv empty("XDG_CACHE_HOME", "");
      EXPECT_EQ(default_dir(), "/home/someone/.cache/hclvm");
      ScopedEnv root("HOME", "/");
      EXPECT_EQ(default_dir(), "/.cache/hclvm");
      ScopedEnv no_home("HOME", nullptr);
      EXPECT_EQ(default_dir(), "");
      // No directory at all: a store that holds nothing.
      Store s({"", 100});
      EXPECT_EQ(s.dir(), "");
      std::string error;
      EXPECT_FALSE(s.put(key(1), "x", &error));
      EXPECT_EQ(error.rfind("no cache directory", 0), 0u) << error;
      EXPECT_EQ(s.get(key(1)), std::nullopt);
      EXPECT_EQ(s.stats().entries, 0u);
    }
  }
  // A store given no directory uses the default.
  ScopedEnv here("HCLVM_CACHE_DIR", dir_.c_str());
  Store s({});
  EXPECT_EQ(s.dir(), dir_.string());
  EXPECT_EQ(s.stats().max_bytes, uint64_t(512) << 20);
  ASSERT_TRUE(s.put(key(1), "x"));
  EXPECT_TRUE(fs::exists(entry(key(1))));
}

// Threads share one store: every read is a miss or a complete entry, and
// the bound holds once the store is destroyed.
TEST_F(CacheStoreTest, ManyThreads) {
  constexpr int kThreads = 4, kPuts = 40;
  constexpr size_t kSize = 20 << 10;
  constexpr uint64_t kMax = 200 << 10;
  std::atomic<int> bad{0};
  {
    Store s = store(kMax);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        for (int i = 0; i < kPuts; ++i) {
          std::string k = key(i % 2 ? i : 100 * (t + 1) + i);  // odd i: shared keys
          if (!s.put(k, content(k, kSize))) ++bad;
          std::string other = key(i % 2 ? i ^ 2 : 100 * ((t + 1) % kThreads + 1) + i);
          if (std::optional<std::string> got = s.get(other)) {
            if (check_content(*got, kSize) || got->compare(0, other.size(), other) != 0) ++bad;
          }
        }
      });
    }
    for (std::thread& th : threads) th.join();
  }
  EXPECT_EQ(bad.load(), 0);
  Store s = store(kMax);
  EXPECT_LE(s.stats().bytes, kMax);
  EXPECT_TRUE(s.verify([&](std::string_view b) { return check_content(b, kSize); }, false).empty());
  EXPECT_TRUE(temps().empty());
}

// Six processes store the same five 200 KB entries in random orders, and
// entries of their own, under a bound that makes them evict each other's
// entries all along, while they and the parent read every key: each read
// is a miss or the complete entry. At the end every entry is complete, no
// temporary file is left and the bound holds.
TEST_F(CacheStoreTest, ManyProcesses) {
  constexpr int kChildren = 6, kRounds = 20, kShared = 5;
  constexpr size_t kSharedSize = 200 << 10, kOwnSize = 50 << 10;
  constexpr uint64_t kMax = 1536 << 10;  // room for about 7 shared entries
  std::vector<std::string> shared, all;
  std::map<std::string, std::string> want;
  std::map<std::string, size_t> size_of;
  for (int i = 0; i < kShared; ++i) {
    shared.push_back(key(i));
    size_of[key(i)] = kSharedSize;
  }
  for (int c = 0; c < kChildren; ++c) {
    for (int r = 0; r < kRounds; ++r) size_of[key(1000 + 100 * c + r)] = kOwnSize;
  }
  for (const auto& [k, size] : size_of) {
    all.push_back(k);
    want[k] = content(k, size);
  }
  // Whether a read of [k] is acceptable.
  auto read_ok = [&](const Store& s, const std::string& k, size_t* hits) {
    std::optional<std::string> got = s.get(k);
    if (!got) return true;
    ++*hits;
    return *got == want.at(k);
  };

  std::vector<pid_t> children;
  for (int c = 0; c < kChildren; ++c) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      // Exit statuses: 0 all good, 2 a put failed, 3 a read was wrong. The
      // store is destroyed before _exit, as at the end of a process.
      {
        Store s = store(kMax);
        std::mt19937 gen(unsigned(c) * 7919u + 1);
        size_t hits = 0;
        for (int r = 0; r < kRounds; ++r) {
          std::vector<std::string> order = shared;
          order.push_back(key(1000 + 100 * c + r));
          std::shuffle(order.begin(), order.end(), gen);
          for (const std::string& k : order) {
            if (!s.put(k, want.at(k))) _exit(2);
            for (int j = 0; j < 3; ++j) {
              if (!read_ok(s, all[gen() % all.size()], &hits)) _exit(3);
            }
            if (!read_ok(s, shared[gen() % shared.size()], &hits)) _exit(3);
          }
        }
      }
      _exit(0);
    }
    children.push_back(pid);
  }

  Store s = store(kMax);
  size_t hits = 0, reads = 0;
  bool reads_ok = true;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  std::vector<pid_t> running = children;
  while (!running.empty() && std::chrono::steady_clock::now() < deadline) {
    for (const std::string& k : shared) {
      if (!read_ok(s, k, &hits)) reads_ok = false;
    }
    if (!read_ok(s, all[reads % all.size()], &hits)) reads_ok = false;
    reads += shared.size() + 1;
    for (size_t i = 0; i < running.size();) {
      int status = 0;
      pid_t done = waitpid(running[i], &status, WNOHANG);
      if (done == running[i]) {
        EXPECT_TRUE(WIFEXITED(status)) << "child " << done << " status " << status;
        if (WIFEXITED(status)) {
          EXPECT_EQ(WEXITSTATUS(status), 0) << "child " << done;
        }
        running.erase(running.begin() + long(i));
      } else {
        ++i;
      }
    }
  }
  for (pid_t pid : running) {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
  }
  ASSERT_TRUE(running.empty()) << "children still running after 60 s";
  EXPECT_TRUE(reads_ok);
  EXPECT_GT(hits, 0u) << "of " << reads << " reads";

  auto check = [&](std::string_view bytes) -> std::optional<std::string> {
    size_t nl = bytes.find('\n');
    if (nl == std::string_view::npos || !size_of.count(std::string(bytes.substr(0, nl))))
      return "no key";
    return check_content(bytes, size_of.at(std::string(bytes.substr(0, nl))));
  };
  EXPECT_TRUE(s.verify(check, false).empty());
  for (const std::string& k : all) {
    std::optional<std::string> got = s.get(k);
    if (got) {
      EXPECT_TRUE(*got == want[k]) << k;
    }
  }
  StoreStats st = s.stats();
  EXPECT_LE(st.bytes, kMax);
  EXPECT_GT(st.entries, 0u);
  EXPECT_LT(st.entries, all.size());  // evictions happened
  EXPECT_TRUE(temps().empty());
}

}  // namespace
}  // namespace hclvm::cache
