#include "util/read_log.h"

#include <sys/stat.h>

#include <cerrno>

namespace hclvm::util {

namespace {
constinit thread_local ReadLog* t_read_log = nullptr;
}  // namespace

ReadLog* current_read_log() { return t_read_log; }
void set_current_read_log(ReadLog* log) { t_read_log = log; }

FileStamp FileStamp::of(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return failed(path, errno);
  return of_stat(path, st);
}

FileStamp FileStamp::failed(const std::string& path, int error) {
  FileStamp s;
  s.path = path;
  s.error = error;
  return s;
}

FileStamp FileStamp::of_stat(const std::string& path, const struct stat& st) {
  FileStamp s;
  s.path = path;
  s.dev = uint64_t(st.st_dev);
  s.ino = uint64_t(st.st_ino);
  s.size = uint64_t(st.st_size);
  s.mode = uint64_t(st.st_mode);
  s.mtime_sec = int64_t(st.st_mtim.tv_sec);
  s.mtime_nsec = int64_t(st.st_mtim.tv_nsec);
  s.ctime_sec = int64_t(st.st_ctim.tv_sec);
  s.ctime_nsec = int64_t(st.st_ctim.tv_nsec);
  return s;
}

void ReadLog::file(const std::string& path) {
  if (seen_.insert(path).second) files_.push_back(FileStamp::of(path));
}

void ReadLog::file(FileStamp stamp) {
  if (seen_.insert(stamp.path).second) files_.push_back(std::move(stamp));
}

bool ReadLog::has_place(std::string_view dir) const {
  for (const Place& p : places_)
    if (p.dir == dir) return true;
  return false;
}

void ReadLog::place(Place place) {
  if (!has_place(place.dir)) places_.push_back(std::move(place));
}

}  // namespace hclvm::util
