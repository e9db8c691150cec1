// Peak memory of one parse: reads FILE, parses it once with parse_config and
// prints one JSON object with the file size, the peak resident set size
// before and after parsing (getrusage's ru_maxrss) and their ratio to the
// file size. The target is a peak of at most 10x the file size; the
// process's baseline (code, libraries) is included, so small files read high.
//
//   parse_mem FILE
#include <hclvm/syntax.h>

#include <sys/resource.h>

#include <cstdio>
#include <string>

namespace {

// Returns the peak resident set size of this process so far, in bytes.
long long peak_rss_bytes() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<long long>(ru.ru_maxrss) * 1024;  // Linux reports KiB
}

// Reads [path] into [out] with one allocation of the exact size, so that
// reading does not itself raise the peak above the file size.
bool read_exact(const char* path, std::string& out) {
  std::FILE* f = std::fopen(path, "rb");
  if (f == nullptr) return false;
  bool ok = std::fseek(f, 0, SEEK_END) == 0;
  long size = ok ? std::ftell(f) : -1;
  ok = ok && size >= 0 && std::fseek(f, 0, SEEK_SET) == 0;
  if (ok) {
    out.resize(static_cast<size_t>(size));
    ok = std::fread(out.data(), 1, out.size(), f) == out.size();
  }
  std::fclose(f);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: parse_mem FILE\n");
    return 2;
  }
  std::string bytes;
  if (!read_exact(argv[1], bytes)) {
    std::fprintf(stderr, "parse_mem: cannot read %s\n", argv[1]);
    return 2;
  }
  const long long size = static_cast<long long>(bytes.size());
  const long long before = peak_rss_bytes();
  auto r = hclvm::parse_config(hclvm::make_source(argv[1], std::move(bytes)));
  const long long after = peak_rss_bytes();
  const double denom = size > 0 ? static_cast<double>(size) : 1.0;
  std::printf(
      "{\"file\": \"%s\", \"bytes\": %lld, \"diagnostics\": %zu, \"peak_rss_before\": %lld, "
      "\"peak_rss\": %lld, \"peak_rss_over_bytes\": %.2f, \"parse_growth_over_bytes\": %.2f}\n",
      argv[1], size, r.diagnostics.size(), before, after, static_cast<double>(after) / denom,
      static_cast<double>(after - before) / denom);
  return 0;
}
