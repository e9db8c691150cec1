// What a computation read besides its inputs, for a host that reuses its
// result only while that is unchanged (config::reevaluate). While a
// ReadLog is current on a thread (and on the big-stack thread run_deep
// lends it), the functions that read files by name note each file as the
// stamp of its metadata before reading it, and those whose results cannot
// be checked again (impure ones; the environment, the working directory,
// a directory listing) mark the computation unrepeatable.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

struct stat;

namespace hclvm::util {

// A file's metadata at one moment: a file whose stamp is unchanged is
// taken to hold what it held then (as build tools take it).
struct FileStamp {
  std::string path;
  int error = 0;  // errno of stat(), 0 when it succeeded
  uint64_t dev = 0, ino = 0, size = 0, mode = 0;
  int64_t mtime_sec = 0, mtime_nsec = 0, ctime_sec = 0, ctime_nsec = 0;

  // The stamp of [path] now (stat(), following links).
  static FileStamp of(const std::string& path);
  // The stamp of [path] from what stat() or fstat() gave for it, or from
  // the error that a stat() of it would give.
  static FileStamp of_stat(const std::string& path, const struct stat& st);
  static FileStamp failed(const std::string& path, int error);
  friend bool operator==(const FileStamp&, const FileStamp&) = default;
};

// Where a directory led, links followed, when a read confined to a
// directory was decided by it (hclvm::funcs: whether a path stays inside
// is whether its directory leads inside). The file's own stamp says
// whether it is the same file; a directory renamed or replaced by a link
// on the way changes only where the path leads, which [locate] finds
// again.
struct Place {
  std::string dir;    // the directory as the read named it
  std::string where;  // what [locate] gave for it
  std::string (*locate)(const std::string& dir) = nullptr;
  friend bool operator==(const Place&, const Place&) = default;
};

class ReadLog {
 public:
  // Notes the file at [path] (once), or its stamp taken by the caller.
  void file(const std::string& path);
  void file(FileStamp stamp);
  bool noted(const std::string& path) const { return seen_.contains(path); }
  // Notes [place] (once per directory).
  void place(Place place);
  bool has_place(std::string_view dir) const;
  void unrepeatable() { unrepeatable_ = true; }

  bool is_unrepeatable() const { return unrepeatable_; }
  // The files noted, in the order first noted.
  std::vector<FileStamp> take_files() { return std::move(files_); }
  std::vector<Place> take_places() { return std::move(places_); }

 private:
  std::vector<FileStamp> files_;
  std::unordered_set<std::string> seen_;
  std::vector<Place> places_;  // a few: looked through
  bool unrepeatable_ = false;
};

// The thread's current log, or null.
ReadLog* current_read_log();
void set_current_read_log(ReadLog* log);

// Notes on the current log, if there is one.
inline void note_file(const std::string& path) {
  if (ReadLog* log = current_read_log()) log->file(path);
}
inline void note_unrepeatable() {
  if (ReadLog* log = current_read_log()) log->unrepeatable();
}

// Makes [log] the thread's current log while it lives.
class ReadLogScope {
 public:
  explicit ReadLogScope(ReadLog* log) : outer_(current_read_log()) { set_current_read_log(log); }
  ~ReadLogScope() { set_current_read_log(outer_); }
  ReadLogScope(const ReadLogScope&) = delete;
  ReadLogScope& operator=(const ReadLogScope&) = delete;

 private:
  ReadLog* outer_;
};

}  // namespace hclvm::util
