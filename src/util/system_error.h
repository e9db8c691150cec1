// System errors as Go's standard library words them, for messages that
// must read as the reference's: syscall.Errno.Error() and
// os.PathError.Error().
#pragma once

#include <cstring>
#include <string>
#include <string_view>

namespace hclvm::util {

// syscall.Errno.Error(): the C library's message with Go's lower-case start
// ("no such file or directory"; "EOF"-style abbreviations stay).
inline std::string go_errno_text(int e) {
  char buf[256];
  std::string s = strerror_r(e, buf, sizeof buf);
  if (!s.empty() && s[0] >= 'A' && s[0] <= 'Z' && !(s.size() > 1 && s[1] >= 'A' && s[1] <= 'Z'))
    s[0] = char(s[0] - 'A' + 'a');
  return s;
}

// os.PathError.Error(): "<op> <path>: <errno>".
inline std::string go_path_error(std::string_view op, std::string_view path, int e) {
  std::string out(op);
  out += ' ';
  out += path;
  out += ": ";
  out += go_errno_text(e);
  return out;
}

}  // namespace hclvm::util
