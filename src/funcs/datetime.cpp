// Date and time functions, as go-cty's stdlib datetime.go defines them:
// formatdate and timeadd; and Terraform's own (funcs/datetime.go): timecmp
// and timestamp. Timestamps are RFC 3339: go-cty (since 1.13) reads them
// strictly, and where that fails reports what Go's time.Parse with the
// RFC3339 layout reports, or the first thing strict RFC 3339 forbids that
// Go allows; Terraform's timecmp reads them as time.Parse alone does (as Go
// 1.19 does: newer Go rejects UTC offsets beyond 23:59 itself). Durations
// are read as Go's time.ParseDuration reads them. Times are kept as Unix seconds,
// nanoseconds and a fixed UTC offset; the proleptic Gregorian calendar
// conversions are Howard Hinnant's. Go's layout-based time.Format is here
// too, for Packer's legacy_isotime and legacy_strftime (packer.cpp).
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "funcs/funcs.h"
#include <hclvm/functions.h>

namespace hclvm::funcs {

namespace {

struct Time {
  int64_t sec = 0;     // Unix seconds
  int64_t nsec = 0;    // 0..999999999
  int64_t offset = 0;  // seconds east of UTC
};

// Days since 1970-01-01 of the civil date [y]-[m]-[d].
int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// The civil date of day [z] since 1970-01-01.
void civil_from_days(int64_t z, int64_t& y, int64_t& m, int64_t& d) {
  z += 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = yoe + era * 400;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp + (mp < 10 ? 3 : -9);
  y += m <= 2;
}

bool is_leap(int64_t y) { return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0); }

int64_t days_in(int64_t m, int64_t y) {
  static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : days[m - 1];
}

// Local calendar fields of a time.
struct Fields {
  int64_t year, month, day, hour, min, sec, weekday;  // weekday 0 = Sunday
};

int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

Fields fields_of(const Time& t) {
  int64_t local = t.sec + t.offset;
  int64_t days = floor_div(local, 86400);
  int64_t rem = local - days * 86400;
  Fields f{};
  civil_from_days(days, f.year, f.month, f.day);
  f.hour = rem / 3600;
  f.min = rem / 60 % 60;
  f.sec = rem % 60;
  f.weekday = ((days % 7) + 11) % 7;  // 1970-01-01 was a Thursday
  return f;
}

bool is_digit(std::string_view s, size_t i) { return i < s.size() && s[i] >= '0' && s[i] <= '9'; }

// Go's time.atoi: an optional sign and digits, nothing else.
bool go_atoi(std::string_view s, int64_t& out) {
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  uint64_t x = 0;
  size_t i = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
    if (x > (uint64_t(1) << 63) / 10) return false;
    x = x * 10 + uint64_t(s[i] - '0');
    if (x > (uint64_t(1) << 63)) return false;
  }
  if (i != s.size()) return false;
  out = neg ? -int64_t(x) : int64_t(x);
  return true;
}

// Go's time.getnum: one or two digits ([fixed]: exactly two).
bool getnum(std::string_view& s, bool fixed, int64_t& out) {
  if (!is_digit(s, 0)) return false;
  if (!is_digit(s, 1)) {
    if (fixed) return false;
    out = s[0] - '0';
    s.remove_prefix(1);
    return true;
  }
  out = (s[0] - '0') * 10 + (s[1] - '0');
  s.remove_prefix(2);
  return true;
}

// [ts] read with Go's time.Parse(time.RFC3339), its errors as cty words
// them; with [cty_1_13], with the words go-cty 1.13 added for hours and
// minutes (Terraform's own copy of the wording, for timecmp, lacks them).
std::optional<Time> parse_go_rfc3339(std::string_view ts, std::string& err, bool cty_1_13) {
  std::string_view v = ts;
  auto fail = [&](std::string msg) {
    err = "not a valid RFC3339 timestamp" + msg;
    return std::nullopt;
  };
  // A literal of the layout did not match: Go reports it with what is left.
  auto literal = [&](char c) -> bool {
    if (!v.empty() && v[0] == c) {
      v.remove_prefix(1);
      return true;
    }
    if (c == 'T')
      err = "not a valid RFC3339 timestamp: missing required time introducer 'T'";
    else if (v.empty())
      err = "not a valid RFC3339 timestamp: end of string where " + quote(std::string(1, c)) +
            " is expected";
    else
      err = "not a valid RFC3339 timestamp: found " + quote(v) + " where " +
            quote(std::string(1, c)) + " is expected";
    return false;
  };
  // A field did not parse: [rest] is what Go's ParseError holds.
  auto bad = [&](std::string_view rest, const char* what) {
    if (rest.empty()) return fail(std::string(": end of string before ") + what);
    std::string_view w = what;
    if (cty_1_13 && w == "hour" && rest.find(':') != std::string_view::npos)
      return fail(": hour must be between 0 and 23 inclusive");
    if (cty_1_13 && w == "hour" && rest.size() != 2) return fail(": hour must have exactly two digits");
    if (cty_1_13 && w == "minute" && rest.size() != 2)
      return fail(": minute must have exactly two digits");
    return fail(": cannot use " + quote(rest) + " as " + what);
  };
  int64_t year = 0, month = 0, day = 0, hour = 0, min = 0, sec = 0, nsec = 0, offset = 0;
  // 2006
  if (v.size() < 4 || !is_digit(v, 0)) return bad(v, "year");
  {
    std::string_view p = v.substr(0, 4);
    v.remove_prefix(4);
    if (!go_atoi(p, year)) return bad(v, "year");
  }
  if (!literal('-')) return std::nullopt;
  // 01
  if (!getnum(v, true, month)) return bad(v, "month");
  if (month <= 0 || month > 12) return bad(v, "month");
  if (!literal('-')) return std::nullopt;
  // 02
  if (!getnum(v, true, day)) return bad(v, "day of month");
  if (!literal('T')) return std::nullopt;
  // 15
  if (!getnum(v, false, hour)) return bad(v, "hour");
  if (hour >= 24) return bad(v, "hour");
  if (!literal(':')) return std::nullopt;
  // 04
  if (!getnum(v, true, min)) return bad(v, "minute");
  if (min >= 60) return bad(v, "minute");
  if (!literal(':')) return std::nullopt;
  // 05, then a fraction the layout does not have
  if (!getnum(v, true, sec)) return bad(v, "second");
  if (sec >= 60) return bad(v, "second");
  if (v.size() >= 2 && (v[0] == '.' || v[0] == ',') && is_digit(v, 1)) {
    size_t n = 2;
    while (n < v.size() && is_digit(v, n)) ++n;
    size_t nbytes = n > 10 ? 10 : n;
    if (!go_atoi(v.substr(1, nbytes - 1), nsec)) return bad(v, "second");
    for (size_t i = 0; i < 10 - nbytes; ++i) nsec *= 10;
    v.remove_prefix(n);
  }
  // Z07:00
  if (!v.empty() && v[0] == 'Z') {
    v.remove_prefix(1);
  } else {
    if (v.size() < 6 || v[3] != ':') return bad(v, "UTC offset");
    std::string_view sign = v.substr(0, 1), hh = v.substr(1, 2), mm = v.substr(4, 2);
    v.remove_prefix(6);
    int64_t h = 0, m = 0;
    if (!go_atoi(hh, h) || !go_atoi(mm, m) || (sign[0] != '+' && sign[0] != '-')) {
      return bad(v, "UTC offset");
    }
    offset = (h * 60 + m) * 60;
    if (sign[0] == '-') offset = -offset;
  }
  if (!v.empty()) return bad(v, "timestamp segment");
  if (day < 1 || day > days_in(month, year)) return fail(": day out of range");
  Time t;
  t.sec = days_from_civil(year, month, day) * 86400 + hour * 3600 + min * 60 + sec - offset;
  t.nsec = nsec;
  t.offset = offset;
  return t;
}

// Reads the unsigned decimal [s] into [out] when it is all digits and
// within [lo, hi] (cty's parseUint; [ok] is cleared otherwise).
int64_t strict_uint(std::string_view s, int64_t lo, int64_t hi, bool& ok) {
  int64_t x = 0;
  for (char c : s) {
    if (c < '0' || c > '9') {
      ok = false;
      return lo;
    }
    x = x * 10 + (c - '0');
  }
  if (x < lo || x > hi) {
    ok = false;
    return lo;
  }
  return x;
}

// go-cty's parseRFC3339: [s] when it is a valid RFC 3339 timestamp, nothing
// otherwise (no message).
std::optional<Time> parse_strict_rfc3339(std::string_view s) {
  if (s.size() < 19) return std::nullopt;
  bool ok = true;
  int64_t year = strict_uint(s.substr(0, 4), 0, 9999, ok);
  int64_t month = strict_uint(s.substr(5, 2), 1, 12, ok);
  int64_t day = strict_uint(s.substr(8, 2), 1, days_in(month, year), ok);
  int64_t hour = strict_uint(s.substr(11, 2), 0, 23, ok);
  int64_t min = strict_uint(s.substr(14, 2), 0, 59, ok);
  int64_t sec = strict_uint(s.substr(17, 2), 0, 59, ok);
  if (!ok || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':')
    return std::nullopt;
  s.remove_prefix(19);
  int64_t nsec = 0;
  if (s.size() >= 2 && s[0] == '.' && is_digit(s, 1)) {
    size_t n = 2;
    while (n < s.size() && is_digit(s, n)) ++n;
    size_t nbytes = n > 10 ? 10 : n;
    go_atoi(s.substr(1, nbytes - 1), nsec);
    for (size_t i = 0; i < 10 - nbytes; ++i) nsec *= 10;
    s.remove_prefix(n);
  }
  int64_t offset = 0;
  if (s != "Z") {
    if (s.size() != 6) return std::nullopt;
    int64_t hh = strict_uint(s.substr(1, 2), 0, 23, ok);
    int64_t mm = strict_uint(s.substr(4, 2), 0, 59, ok);
    if (!ok || (s[0] != '-' && s[0] != '+') || s[3] != ':') return std::nullopt;
    offset = (hh * 60 + mm) * 60 * (s[0] == '-' ? -1 : 1);
  }
  Time t;
  t.sec = days_from_civil(year, month, day) * 86400 + hour * 3600 + min * 60 + sec - offset;
  t.nsec = nsec;
  t.offset = offset;
  return t;
}

// go-cty's parseTimestamp (parseStrictRFC3339): [ts] as strict RFC 3339;
// else the error Go's time.Parse reports, or, where Go accepts it, the
// first thing RFC 3339 forbids: a one-digit hour, a comma before the
// fraction, a UTC offset's hour or minute out of range.
std::optional<Time> parse_timestamp(std::string_view ts, std::string& err) {
  if (std::optional<Time> t = parse_strict_rfc3339(ts)) return t;
  if (!parse_go_rfc3339(ts, err, true)) return std::nullopt;
  auto two = [&](size_t at) { return (ts[at] - '0') * 10 + (ts[at + 1] - '0'); };
  std::string_view elem = ts;  // the whole timestamp, when no case names a part
  std::string what = "timestamp segment";
  if (ts.size() > 12 && ts[12] == ':') {
    err = "not a valid RFC3339 timestamp: hour must have exactly two digits";
    return std::nullopt;
  }
  if (ts.size() > 19 && ts[19] == ',') {
    elem = ",";
  } else if (ts.back() != 'Z') {
    if (two(ts.size() - 5) < 24 && two(ts.size() - 2) < 60) {
      // No case of cty's applies, and it returns its zero time without an
      // error (no input Go's parser accepts is known to get here).
      return Time{days_from_civil(1, 1, 1) * 86400, 0, 0};
    }
    elem = ts.substr(ts.size() - 6);
    what = "UTC offset";
  }
  err = "not a valid RFC3339 timestamp: cannot use " + quote(elem) + " as " + what;
  return std::nullopt;
}

// Go's time.quote (ParseDuration's messages): bytes that are not printable
// ASCII as \x escapes.
std::string time_quote(std::string_view s) {
  static const char hex[] = "0123456789abcdef";
  std::string out = "\"";
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (c >= 0x80 || c < ' ') {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      if (c == '"' || c == '\\') out += '\\';
      out += char(c);
    }
  }
  return out + "\"";
}

// Go's time.ParseDuration: nanoseconds, or [err].
std::optional<int64_t> parse_duration(std::string_view orig, std::string& err) {
  std::string_view s = orig;
  auto invalid = [&] {
    err = "time: invalid duration " + time_quote(orig);
    return std::nullopt;
  };
  const uint64_t limit = uint64_t(1) << 63;
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return 0;
  if (s.empty()) return invalid();
  uint64_t d = 0;
  while (!s.empty()) {
    if (!(s[0] == '.' || (s[0] >= '0' && s[0] <= '9'))) return invalid();
    uint64_t v = 0, f = 0;
    double scale = 1;
    size_t i = 0;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
      if (v > limit / 10) return invalid();
      v = v * 10 + uint64_t(s[i] - '0');
      if (v > limit) return invalid();
    }
    bool pre = i > 0;
    s.remove_prefix(i);
    bool post = false;
    if (!s.empty() && s[0] == '.') {
      s.remove_prefix(1);
      bool overflow = false;
      size_t j = 0;
      for (; j < s.size() && s[j] >= '0' && s[j] <= '9'; ++j) {
        if (overflow) continue;
        if (f > (limit - 1) / 10) {
          overflow = true;
          continue;
        }
        uint64_t y = f * 10 + uint64_t(s[j] - '0');
        if (y > limit) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      post = j > 0;
      s.remove_prefix(j);
    }
    if (!pre && !post) return invalid();
    size_t u = 0;
    while (u < s.size() && !(s[u] == '.' || (s[u] >= '0' && s[u] <= '9'))) ++u;
    if (u == 0) {
      err = "time: missing unit in duration " + time_quote(orig);
      return std::nullopt;
    }
    std::string_view unit_name = s.substr(0, u);
    s.remove_prefix(u);
    uint64_t unit = 0;
    if (unit_name == "ns")
      unit = 1;
    else if (unit_name == "us" || unit_name == "\xC2\xB5s" || unit_name == "\xCE\xBCs")
      unit = 1000;
    else if (unit_name == "ms")
      unit = 1000000;
    else if (unit_name == "s")
      unit = 1000000000;
    else if (unit_name == "m")
      unit = 60000000000;
    else if (unit_name == "h")
      unit = 3600000000000;
    else {
      err = "time: unknown unit " + time_quote(unit_name) + " in duration " + time_quote(orig);
      return std::nullopt;
    }
    if (v > limit / unit) return invalid();
    v *= unit;
    if (f > 0) {
      v += uint64_t(double(f) * (double(unit) / scale));
      if (v > limit) return invalid();
    }
    d += v;
    if (d > limit) return invalid();
  }
  if (neg) return d == limit ? INT64_MIN : -int64_t(d);
  if (d > limit - 1) return invalid();
  return int64_t(d);
}

// Go's appendInt: [x] zero-padded to [width] digits, sign first.
std::string pad_int(int64_t x, int width) {
  std::string digits = std::to_string(x < 0 ? -x : x);
  std::string out = x < 0 ? "-" : "";
  if (int(digits.size()) < width) out.append(size_t(width) - digits.size(), '0');
  return out + digits;
}

// Go's Format of the offset as -0700 ([colon]: -07:00).
std::string format_offset(int64_t offset, bool colon) {
  int64_t zone = offset / 60;
  std::string out = zone < 0 ? "-" : "+";
  if (zone < 0) zone = -zone;
  out += pad_int(zone / 60, 2);
  if (colon) out += ':';
  out += pad_int(zone % 60, 2);
  return out;
}

// Go's Format(time.RFC3339).
std::string format_rfc3339(const Time& t) {
  Fields f = fields_of(t);
  std::string out = pad_int(f.year, 4) + "-" + pad_int(f.month, 2) + "-" + pad_int(f.day, 2) + "T" +
                    pad_int(f.hour, 2) + ":" + pad_int(f.min, 2) + ":" + pad_int(f.sec, 2);
  out += t.offset == 0 ? "Z" : format_offset(t.offset, true);
  return out;
}

const char* const kMonths[] = {"January",   "February", "March",    "April",
                               "May",       "June",     "July",     "August",
                               "September", "October",  "November", "December"};
const char* const kDays[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                             "Thursday", "Friday", "Saturday"};

bool is_verb_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// cty's splitDateFormat: the next token of [s] at [i] (a quoted literal, a
// run of one verb letter, or other text).
std::string_view next_token(std::string_view s, size_t i) {
  std::string_view data = s.substr(i);
  const char esc = '\'';
  if (data[0] == esc) {
    if (data.size() > 1 && data[1] == esc) return data.substr(0, 2);
    for (size_t k = 1; k < data.size(); ++k) {
      if (data[k] == esc) {
        if (k + 1 == data.size()) return data;
        if (data[k + 1] == esc) {
          ++k;
          continue;
        }
        return data.substr(0, k + 1);
      }
    }
    return data;
  }
  if (is_verb_letter(data[0])) {
    size_t k = 1;
    while (k < data.size() && data[k] == data[0]) ++k;
    return data.substr(0, k);
  }
  size_t k = 1;
  while (k < data.size() && data[k] != esc && !is_verb_letter(data[k])) ++k;
  return data.substr(0, k);
}

Function formatdate_fn() {
  Function f;
  f.description =
      "Formats a timestamp given in RFC 3339 syntax into another timestamp in some other "
      "machine-oriented time syntax, as described in the format string.";
  f.params = {param("format", Type::string()), param("time", Type::string())};
  f.returns(Type::string());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    std::string_view fmt = args[0].as_string();
    std::string err;
    std::optional<Time> t = parse_timestamp(args[1].as_string(), err);
    if (!t) return arg_error(err, 1);
    Fields fl = fields_of(*t);
    std::string out;
    auto bad_verb = [](std::string_view tok, const std::string& why) {
      return arg_error("invalid date format verb " + quote(tok) + why, 0);
    };
    for (size_t i = 0; i < fmt.size();) {
      // A short verb can write more than itself ("Z" writes "+01:00"): the
      // text is checked against the string limit as it grows.
      check_append(out, 0);
      std::string_view tok = next_token(fmt, i);
      i += tok.size();
      size_t n = tok.size();
      if (tok[0] == '\'') {
        if (tok.back() != '\'' || n == 1) return arg_error("unterminated literal '", 0);
        if (n == 2) {
          out += '\'';
        } else {
          std::string_view raw = tok.substr(1, n - 2);
          for (size_t k = 0; k < raw.size(); ++k) {
            out += raw[k];
            if (raw[k] == '\'') ++k;
          }
        }
        continue;
      }
      if (!is_verb_letter(tok[0])) {
        out += tok;
        continue;
      }
      switch (tok[0]) {
        case 'Y':
          if (n == 2)
            out += pad_int(fl.year % 100, 2);
          else if (n == 4)
            out += pad_int(fl.year, 4);
          else
            return bad_verb(tok, ": year must either be \"YY\" or \"YYYY\"");
          break;
        case 'M':
          if (n == 1)
            out += std::to_string(fl.month);
          else if (n == 2)
            out += pad_int(fl.month, 2);
          else if (n == 3)
            out += std::string(kMonths[fl.month - 1]).substr(0, 3);
          else if (n == 4)
            out += kMonths[fl.month - 1];
          else
            return bad_verb(tok, ": month must be \"M\", \"MM\", \"MMM\", or \"MMMM\"");
          break;
        case 'D':
          if (n == 1)
            out += std::to_string(fl.day);
          else if (n == 2)
            out += pad_int(fl.day, 2);
          else
            return bad_verb(tok, ": day of month must either be \"D\" or \"DD\"");
          break;
        case 'E':
          if (n == 3)
            out += std::string(kDays[fl.weekday]).substr(0, 3);
          else if (n == 4)
            out += kDays[fl.weekday];
          else
            return bad_verb(tok, ": day of week must either be \"EEE\" or \"EEEE\"");
          break;
        case 'h':
          if (n == 1)
            out += std::to_string(fl.hour);
          else if (n == 2)
            out += pad_int(fl.hour, 2);
          else
            return bad_verb(tok, ": 24-hour must either be \"h\" or \"hh\"");
          break;
        case 'H': {
          int64_t h = fl.hour % 12;
          if (h == 0) h = 12;
          if (n == 1)
            out += std::to_string(h);
          else if (n == 2)
            out += pad_int(h, 2);
          else
            return bad_verb(tok, ": 12-hour must either be \"H\" or \"HH\"");
          break;
        }
        case 'A':
        case 'a':
          if (n != 2) {
            return bad_verb(tok, ": must be \"" + std::string(2, tok[0]) + "\"");
          }
          out += fl.hour < 12 ? (tok[0] == 'A' ? "AM" : "am") : (tok[0] == 'A' ? "PM" : "pm");
          break;
        case 'm':
          if (n == 1)
            out += std::to_string(fl.min);
          else if (n == 2)
            out += pad_int(fl.min, 2);
          else
            return bad_verb(tok, ": minute must either be \"m\" or \"mm\"");
          break;
        case 's':
          if (n == 1)
            out += std::to_string(fl.sec);
          else if (n == 2)
            out += pad_int(fl.sec, 2);
          else
            return bad_verb(tok, ": second must either be \"s\" or \"ss\"");
          break;
        case 'Z':
          if (n == 1) {
            out += t->offset == 0 ? "Z" : format_offset(t->offset, true);
          } else if (n == 3) {
            std::string z = format_offset(t->offset, false);
            out += z == "+0000" ? "UTC" : z;
          } else if (n == 4) {
            out += format_offset(t->offset, false);
          } else if (n == 5) {
            out += format_offset(t->offset, true);
          } else {
            return bad_verb(tok, ": timezone must be Z, ZZZZ, or ZZZZZ");
          }
          break;
        default: return bad_verb(tok, "");
      }
    }
    return FuncResult::of(Value::string(out));
  };
  return f;
}

Function timeadd_fn() {
  Function f;
  f.description =
      "Adds the duration represented by the given duration string to the given RFC 3339 "
      "timestamp string, returning another RFC 3339 timestamp.";
  f.params = {param("timestamp", Type::string()), param("duration", Type::string())};
  f.returns(Type::string());
  f.impl = [](std::span<const Value> args, const Type*) {
    std::string err;
    std::optional<Time> t = parse_timestamp(args[0].as_string(), err);
    if (!t) return FuncResult::fail(err);
    std::optional<int64_t> d = parse_duration(args[1].as_string(), err);
    if (!d) return FuncResult::fail(err);
    int64_t nsec = t->nsec + *d % 1000000000;
    t->sec += *d / 1000000000 + floor_div(nsec, 1000000000);
    t->nsec = nsec - floor_div(nsec, 1000000000) * 1000000000;
    return FuncResult::of(Value::string(format_rfc3339(*t)));
  };
  return f;
}

Function timecmp_fn() {
  Function f;
  f.description =
      "Compares two RFC 3339 timestamps: -1 when the first is earlier, 0 when both name the same "
      "instant, 1 when the first is later.";
  f.params = {param("timestamp_a", Type::string()), param("timestamp_b", Type::string())};
  f.returns(Type::number());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    std::string err;
    std::optional<Time> a = parse_go_rfc3339(args[0].as_string(), err, false);
    if (!a) return arg_error(err, 0);
    std::optional<Time> b = parse_go_rfc3339(args[1].as_string(), err, false);
    if (!b) return arg_error(err, 1);
    // The UTC offsets are already in the Unix seconds: 06:00+02:00 equals 04:00Z.
    int c = a->sec != b->sec ? (a->sec < b->sec ? -1 : 1)
                             : (a->nsec != b->nsec ? (a->nsec < b->nsec ? -1 : 1) : 0);
    return FuncResult::of(Value::integer(c));
  };
  return f;
}

Function timestamp_fn() {
  Function f;
  f.description = "Returns the current date and time as an RFC 3339 timestamp in UTC.";
  f.returns(Type::string());
  f.result_not_null = true;
  f.impure = true;
  f.impl = [](std::span<const Value>, const Type*) {
    auto now = std::chrono::system_clock::now().time_since_epoch();
    Time t;
    t.sec = std::chrono::duration_cast<std::chrono::seconds>(now).count();
    return FuncResult::of(Value::string(format_rfc3339(t)));
  };
  return f;
}

// --- Go's time.Format ---------------------------------------------------------

// The layout elements of Go's time package (nextStdChunk's std values).
enum class Std {
  None,
  LongMonth,              // January
  Month,                  // Jan
  NumMonth,               // 1
  ZeroMonth,              // 01
  LongWeekDay,            // Monday
  WeekDay,                // Mon
  Day,                    // 2
  UnderDay,               // _2
  ZeroDay,                // 02
  UnderYearDay,           // __2
  ZeroYearDay,            // 002
  Hour,                   // 15
  Hour12,                 // 3
  ZeroHour12,             // 03
  Minute,                 // 4
  ZeroMinute,             // 04
  Second,                 // 5
  ZeroSecond,             // 05
  LongYear,               // 2006
  Year,                   // 06
  PM,                     // PM
  pm,                     // pm
  TZ,                     // MST
  ISO8601TZ,              // Z0700
  ISO8601SecondsTZ,       // Z070000
  ISO8601ShortTZ,         // Z07
  ISO8601ColonTZ,         // Z07:00
  ISO8601ColonSecondsTZ,  // Z07:00:00
  NumTZ,                  // -0700
  NumSecondsTz,           // -070000
  NumShortTZ,             // -07
  NumColonTZ,             // -07:00
  NumColonSecondsTZ,      // -07:00:00
  FracSecond0,            // .0, .00, ... (or with a comma)
  FracSecond9,            // .9, .99, ...
};

struct Chunk {
  size_t prefix = 0;  // bytes of literal text before the element
  Std std = Std::None;
  size_t len = 0;     // bytes of the element
  size_t digits = 0;  // fractional seconds: how many
  char sep = '.';     // fractional seconds: the separator
};

bool starts_lower(std::string_view s) { return !s.empty() && s[0] >= 'a' && s[0] <= 'z'; }

// Go's nextStdChunk: the first layout element of [l].
Chunk next_std_chunk(std::string_view l) {
  auto at = [&](size_t i, std::string_view w) { return l.substr(i).starts_with(w); };
  auto hit = [](size_t i, Std s, size_t n) { return Chunk{i, s, n, 0, '.'}; };
  for (size_t i = 0; i < l.size(); ++i) {
    switch (l[i]) {
      case 'J':
        if (at(i, "Jan")) {
          if (at(i, "January")) return hit(i, Std::LongMonth, 7);
          if (!starts_lower(l.substr(i + 3))) return hit(i, Std::Month, 3);
        }
        break;
      case 'M':
        if (at(i, "Mon")) {
          if (at(i, "Monday")) return hit(i, Std::LongWeekDay, 6);
          if (!starts_lower(l.substr(i + 3))) return hit(i, Std::WeekDay, 3);
        }
        if (at(i, "MST")) return hit(i, Std::TZ, 3);
        break;
      case '0':
        if (i + 1 < l.size() && l[i + 1] >= '1' && l[i + 1] <= '6') {
          static const Std zero_x[] = {Std::ZeroMonth,  Std::ZeroDay,    Std::ZeroHour12,
                                       Std::ZeroMinute, Std::ZeroSecond, Std::Year};
          return hit(i, zero_x[l[i + 1] - '1'], 2);
        }
        if (at(i, "002")) return hit(i, Std::ZeroYearDay, 3);
        break;
      case '1':
        if (at(i, "15")) return hit(i, Std::Hour, 2);
        return hit(i, Std::NumMonth, 1);
      case '2':
        if (at(i, "2006")) return hit(i, Std::LongYear, 4);
        return hit(i, Std::Day, 1);
      case '_':
        if (at(i, "_2")) {
          // _2006 is a literal underscore and then the year.
          if (at(i + 1, "2006")) return hit(i + 1, Std::LongYear, 4);
          return hit(i, Std::UnderDay, 2);
        }
        if (at(i, "__2")) return hit(i, Std::UnderYearDay, 3);
        break;
      case '3':
        return hit(i, Std::Hour12, 1);
      case '4':
        return hit(i, Std::Minute, 1);
      case '5':
        return hit(i, Std::Second, 1);
      case 'P':
        if (at(i, "PM")) return hit(i, Std::PM, 2);
        break;
      case 'p':
        if (at(i, "pm")) return hit(i, Std::pm, 2);
        break;
      case '-':
        if (at(i, "-070000")) return hit(i, Std::NumSecondsTz, 7);
        if (at(i, "-07:00:00")) return hit(i, Std::NumColonSecondsTZ, 9);
        if (at(i, "-0700")) return hit(i, Std::NumTZ, 5);
        if (at(i, "-07:00")) return hit(i, Std::NumColonTZ, 6);
        if (at(i, "-07")) return hit(i, Std::NumShortTZ, 3);
        break;
      case 'Z':
        if (at(i, "Z070000")) return hit(i, Std::ISO8601SecondsTZ, 7);
        if (at(i, "Z07:00:00")) return hit(i, Std::ISO8601ColonSecondsTZ, 9);
        if (at(i, "Z0700")) return hit(i, Std::ISO8601TZ, 5);
        if (at(i, "Z07:00")) return hit(i, Std::ISO8601ColonTZ, 6);
        if (at(i, "Z07")) return hit(i, Std::ISO8601ShortTZ, 3);
        break;
      case '.':
      case ',':
        if (i + 1 < l.size() && (l[i + 1] == '0' || l[i + 1] == '9')) {
          char ch = l[i + 1];
          size_t j = i + 1;
          while (j < l.size() && l[j] == ch) ++j;
          // Only a run of digits that ends here is fractional seconds.
          if (!is_digit(l, j)) {
            Chunk c = hit(i, ch == '0' ? Std::FracSecond0 : Std::FracSecond9, j - i);
            c.digits = j - (i + 1);
            c.sep = l[i];
            return c;
          }
        }
        break;
      default:
        break;
    }
  }
  return Chunk{l.size(), Std::None, 0, 0, '.'};
}

}  // namespace

std::string go_time_format(std::string_view layout, int64_t unix_sec, int64_t nsec) {
  Time t;
  t.sec = unix_sec;
  t.nsec = nsec;
  Fields f = fields_of(t);
  int64_t yday = f.day - 1;
  for (int64_t m = 1; m < f.month; ++m) yday += days_in(m, f.year);
  ++yday;
  std::string out;
  while (!layout.empty()) {
    Chunk c = next_std_chunk(layout);
    out += layout.substr(0, c.prefix);
    if (c.std == Std::None) break;
    layout.remove_prefix(c.prefix + c.len);
    int64_t h12 = f.hour % 12 == 0 ? 12 : f.hour % 12;
    switch (c.std) {
      case Std::None:
        break;
      case Std::LongMonth:
        out += kMonths[f.month - 1];
        break;
      case Std::Month:
        out += std::string_view(kMonths[f.month - 1]).substr(0, 3);
        break;
      case Std::NumMonth:
        out += std::to_string(f.month);
        break;
      case Std::ZeroMonth:
        out += pad_int(f.month, 2);
        break;
      case Std::LongWeekDay:
        out += kDays[f.weekday];
        break;
      case Std::WeekDay:
        out += std::string_view(kDays[f.weekday]).substr(0, 3);
        break;
      case Std::Day:
        out += std::to_string(f.day);
        break;
      case Std::UnderDay:
        if (f.day < 10) out += ' ';
        out += std::to_string(f.day);
        break;
      case Std::ZeroDay:
        out += pad_int(f.day, 2);
        break;
      case Std::UnderYearDay:
        if (yday < 100) out += ' ';
        if (yday < 10) out += ' ';
        out += std::to_string(yday);
        break;
      case Std::ZeroYearDay:
        out += pad_int(yday, 3);
        break;
      case Std::Hour:
        out += pad_int(f.hour, 2);
        break;
      case Std::Hour12:
        out += std::to_string(h12);
        break;
      case Std::ZeroHour12:
        out += pad_int(h12, 2);
        break;
      case Std::Minute:
        out += std::to_string(f.min);
        break;
      case Std::ZeroMinute:
        out += pad_int(f.min, 2);
        break;
      case Std::Second:
        out += std::to_string(f.sec);
        break;
      case Std::ZeroSecond:
        out += pad_int(f.sec, 2);
        break;
      case Std::LongYear:
        out += pad_int(f.year, 4);
        break;
      case Std::Year:
        out += pad_int(f.year % 100, 2);
        break;
      case Std::PM:
        out += f.hour >= 12 ? "PM" : "AM";
        break;
      case Std::pm:
        out += f.hour >= 12 ? "pm" : "am";
        break;
      // The time is in UTC: zone name UTC, offset zero.
      case Std::TZ:
        out += "UTC";
        break;
      case Std::ISO8601TZ:
      case Std::ISO8601SecondsTZ:
      case Std::ISO8601ShortTZ:
      case Std::ISO8601ColonTZ:
      case Std::ISO8601ColonSecondsTZ:
        out += 'Z';
        break;
      case Std::NumTZ:
        out += "+0000";
        break;
      case Std::NumSecondsTz:
        out += "+000000";
        break;
      case Std::NumShortTZ:
        out += "+00";
        break;
      case Std::NumColonTZ:
        out += "+00:00";
        break;
      case Std::NumColonSecondsTZ:
        out += "+00:00:00";
        break;
      case Std::FracSecond0:
      case Std::FracSecond9: {
        bool trim = c.std == Std::FracSecond9;
        if (trim && nsec == 0) break;
        std::string digits = pad_int(nsec, 9);
        if (c.digits < 9) digits.resize(c.digits);
        if (trim) {
          while (!digits.empty() && digits.back() == '0') digits.pop_back();
          if (digits.empty()) break;
        }
        out += c.sep;
        out += digits;
        break;
      }
    }
  }
  return out;
}

void add_datetime_functions(FunctionTable& t) {
  add(t, "formatdate", formatdate_fn());
  add(t, "timeadd", timeadd_fn());
}

void add_time_functions(FunctionTable& t, const LibraryOptions& opts) {
  add(t, "timecmp", timecmp_fn());
  if (opts.impure) add(t, "timestamp", timestamp_fn());
}

}  // namespace hclvm::funcs
