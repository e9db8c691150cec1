// format and formatlist, as go-cty's stdlib format.go defines them: a
// printf-like language whose verbs are scanned by a small state machine
// (cty's Ragel machine format_fsm.rl, reproduced transition for transition
// so that errors name the same offsets), then each verb formats one
// argument:
//
//   %v %#v  as is: strings and numbers (shortest %g) plain, anything else
//           (and everything with #) as JSON
//   %t      converted to bool
//   %d %b %o %x %X   converted to number, must be an integer (Go's big.Int
//           Format: flags + - space # 0, width, precision = minimum digits)
//   %e %E %f %g %G   converted to number (Go's big.Float Format: exact
//           decimal expansion, rounded half to even)
//   %s %q   converted to string; precision truncates to grapheme clusters,
//           %q quotes as JSON
//
// Widths of %v, %s and %q count grapheme clusters and pad with spaces, or
// zeros with the 0 flag (on the right with -); numeric verbs pad as Go's fmt.
#include <gmp.h>
#include <mpfr.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include "funcs/funcs.h"
#include "util/unicode.h"
#include "value/convert.h"
#include "value/json.h"
#include "value/mpfr.h"
#include "value/number.h"
#include "value/refine.h"

namespace hclvm::funcs {

namespace {

// A formatting verb as cty's machine collects it.
struct Verb {
  std::string_view raw;  // from % to the verb letter
  size_t offset = 0;
  int64_t arg_num = 0;  // 1-based
  char32_t mode = 0;
  bool zero = false, sharp = false, plus = false, minus = false, space = false;
  bool has_prec = false, has_width = false;
  int64_t prec = -1, width = -1;
};

// Go's fmt flags as its parser leaves them: 0 is dropped when - is present.
bool go_zero(const Verb& v) { return v.zero && !v.minus; }

// Appends Go's big.Float.Format for the verb [v] (mode e E f g G) of [n].
void append_float(std::string& out, const Verb& v, const Number& n) {
  std::string buf = num::big_float_text(n, char(v.mode),
                               v.has_prec                         ? v.prec
                               : (v.mode == 'g' || v.mode == 'G') ? -1
                                                                  : 6);
  std::string_view sign;
  std::string_view body = buf;
  if (body[0] == '-') {
    sign = "-";
    body.remove_prefix(1);
  } else if (body[0] == '+') {
    sign = v.space ? " " : "+";
    body.remove_prefix(1);
  } else if (v.plus) {
    sign = "+";
  } else if (v.space) {
    sign = " ";
  }
  size_t padding = 0;
  if (v.has_width && size_t(v.width) > sign.size() + body.size()) {
    padding = size_t(v.width) - sign.size() - body.size();
  }
  check_append(out, padding + sign.size() + body.size());
  if (go_zero(v) && !n.is_inf()) {
    out.append(sign).append(padding, '0').append(body);
  } else if (v.minus) {
    out.append(sign).append(body).append(padding, ' ');
  } else {
    out.append(padding, ' ').append(sign).append(body);
  }
}

// Appends Go's big.Int.Format for the verb [v] (mode b d o x X) of the integer [n].
void append_integer(std::string& out, const Verb& v, const Number& n) {
  int base = v.mode == 'b' ? 2 : v.mode == 'o' ? 8 : (v.mode == 'x' || v.mode == 'X') ? 16 : 10;
  char small[72];  // 64 binary digits at most
  std::string big;
  std::string_view digits;
  bool neg = false;
  if (n.is_small()) {
    int64_t i = n.small();
    neg = i < 0;
    uint64_t m = neg ? 0 - static_cast<uint64_t>(i) : static_cast<uint64_t>(i);
    char* end = std::to_chars(small, small + sizeof small, m, base).ptr;
    digits = std::string_view(small, size_t(end - small));
  } else {
    num::Mpfr x(n);
    if (!mpfr_zero_p(x)) {
      // An integer of e bits has at least (e - 1) log(2) / log(base)
      // digits: a run checks their size before any is made.
      double e = double(mpfr_get_exp(x));
      util::check_string_size(uint64_t(std::max(0.0, (e - 1) * std::log(2.0) / std::log(double(base)))));
      util::charge_number_work(uint64_t(std::max(e, 0.0)) * 2);
    }
    mpz_t z;
    mpz_init(z);
    mpfr_get_z(z, x, MPFR_RNDZ);
    neg = mpz_sgn(z) < 0;
    mpz_abs(z, z);
    std::vector<char> b(mpz_sizeinbase(z, base) + 2);
    mpz_get_str(b.data(), base, z);
    mpz_clear(z);
    big = b.data();
    digits = big;
  }
  std::string_view sign = neg ? "-" : v.plus ? "+" : v.space ? " " : "";
  std::string_view prefix;
  if (v.sharp) {
    switch (v.mode) {
      case 'b': prefix = "0b"; break;
      case 'o': prefix = "0"; break;
      case 'x': prefix = "0x"; break;
      case 'X': prefix = "0X"; break;
      default: break;
    }
  }
  size_t zeros = 0, left = 0, right = 0;
  if (v.has_prec) {
    if (digits.size() < size_t(v.prec)) {
      zeros = size_t(v.prec) - digits.size();
    } else if (digits == "0" && v.prec == 0) {
      return;  // Go prints nothing for a zero with precision 0
    }
  }
  size_t length = sign.size() + prefix.size() + zeros + digits.size();
  if (v.has_width && length < size_t(v.width)) {
    size_t d = size_t(v.width) - length;
    if (v.minus)
      right = d;
    else if (go_zero(v) && !v.has_prec)
      zeros = d;
    else
      left = d;
  }
  check_append(out, left + sign.size() + prefix.size() + zeros + digits.size() + right);
  out.append(left, ' ').append(sign).append(prefix).append(zeros, '0');
  size_t at = out.size();
  out.append(digits).append(right, ' ');
  if (v.mode == 'X') {
    for (size_t k = at; k < at + digits.size(); ++k)
      if (out[k] >= 'a' && out[k] <= 'z') out[k] = char(out[k] - 'a' + 'A');
  }
}

// cty's formatPadWidth: appends [s] padded to the verb's width in
// grapheme clusters.
void append_padded(std::string& out, const Verb& v, std::string_view s) {
  size_t pads = 0;
  if (v.width >= 0) {
    size_t have = uni::count_graphemes(s);
    if (have < size_t(v.width)) pads = size_t(v.width) - have;
  }
  check_append(out, pads + s.size());
  char pad = v.zero ? '0' : ' ';
  if (v.minus)
    out.append(s).append(pads, pad);
  else
    out.append(pads, pad).append(s);
}

// Why [arg] cannot be used for [v]: cty's "unsupported value" wrapper.
std::string unsupported(const Verb& v, const std::string& why) {
  return "unsupported value for " + quote(v.raw) + " at " + std::to_string(v.offset) + ": " + why;
}

// cty's formatAppend: formats args[v.arg_num-1] for [v] onto [out]; false
// with [err] set when it cannot.
bool format_append(Verb& v, std::string& out, std::span<const Value> args, std::string& err) {
  int64_t idx = v.arg_num - 1;
  if (idx >= int64_t(args.size())) {
    err = "not enough arguments for " + quote(v.raw) + " at " + std::to_string(v.offset) +
          ": need index " + std::to_string(v.arg_num) + " but have " + std::to_string(args.size()) +
          " total";
    return false;
  }
  const Value& arg = args[size_t(idx)];
  if (v.mode != 'v' && arg.is_null()) {
    err = unsupported(v, "null value cannot be formatted");
    return false;
  }
  if (!v.has_width) v.width = -1;
  if (!v.has_prec) v.prec = -1;

  switch (v.mode) {
    case 'v': {
      if (!v.sharp && !arg.is_null()) {
        if (arg.type() == Type::string()) {
          append_padded(out, v, arg.as_string());
          return true;
        }
        if (arg.type() == Type::number()) {
          append_padded(out, v, num::big_float_text(arg.as_number(), 'g', -1));
          return true;
        }
      }
      JsonResult<std::string> j = to_json(arg, arg.type());
      if (!j.ok()) {
        err = unsupported(v, j.error->message);
        return false;
      }
      append_padded(out, v, j.value);
      return true;
    }
    case 't': {
      ConvertResult c = convert(arg, Type::boolean());
      if (!c.ok()) {
        err = unsupported(v, c.error().message);
        return false;
      }
      out += c.value().as_bool() ? "true" : "false";
      return true;
    }
    case 'b':
    case 'd':
    case 'o':
    case 'x':
    case 'X':
    case 'e':
    case 'E':
    case 'f':
    case 'g':
    case 'G': {
      ConvertResult c = convert(arg, Type::number());
      if (!c.ok()) {
        err = unsupported(v, c.error().message);
        return false;
      }
      Number n = c.value().as_number();
      if (v.mode == 'e' || v.mode == 'E' || v.mode == 'f' || v.mode == 'g' || v.mode == 'G') {
        append_float(out, v, n);
        return true;
      }
      if (!n.is_integer()) {
        err = unsupported(v, "an integer is required");
        return false;
      }
      append_integer(out, v, n);
      return true;
    }
    case 's':
    case 'q': {
      ConvertResult c = convert(arg, Type::string());
      if (!c.ok()) {
        err = unsupported(v, c.error().message);
        return false;
      }
      std::string_view s = c.value().as_string();
      if (v.prec > 0) {
        size_t pos = 0;
        for (int64_t i = 0; i < v.prec && pos < s.size(); ++i) pos += uni::grapheme_len(s, pos);
        s = s.substr(0, pos);
      }
      if (v.mode == 's')
        append_padded(out, v, s);
      else
        append_padded(out, v, json_quote(s));
      return true;
    }
    default:
      err = "unsupported format verb " + quote_rune(v.mode) + " in " + quote(v.raw) +
            " at offset " + std::to_string(v.offset);
      return false;
  }
}

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// cty's formatFSM: formats [args] by [f]; an error is [err] and, for the
// "too many arguments" check, the index [err_arg] of the first unused one.
bool format_fsm(std::string_view f, std::span<const Value> args, std::string& out, std::string& err,
                int& err_arg) {
  int64_t next_arg = 1;
  int64_t highest = 0;
  size_t p = 0;
  const size_t n = f.size();
  auto bad_char = [&](size_t at) {
    uni::Rune r = uni::decode(f, at);
    err = "unrecognized format character " + quote_rune(r.ok ? r.cp : char32_t(0xFFFD)) +
          " at offset " + std::to_string(at);
    return false;
  };
  auto unfinished = [&] {
    err = "invalid format string starting at offset " + std::to_string(n);
    return false;
  };
  while (p < n) {
    if (f[p] != '%') {
      out += f[p++];
      continue;
    }
    size_t ts = p++;
    if (p == n) return unfinished();
    if (f[p] == '%') {
      out += '%';
      ++p;
      continue;
    }
    Verb v;
    v.arg_num = next_arg;
    // flags
    for (; p < n; ++p) {
      char c = f[p];
      if (c == '0')
        v.zero = true;
      else if (c == '#')
        v.sharp = true;
      else if (c == '-')
        v.minus = true;
      else if (c == '+')
        v.plus = true;
      else if (c == ' ')
        v.space = true;
      else
        break;
    }
    if (p == n) return unfinished();
    // [argidx]
    if (f[p] == '[') {
      v.arg_num = 0;
      ++p;
      if (p == n) return unfinished();
      if (f[p] < '1' || f[p] > '9') return bad_char(p);
      for (; p < n && f[p] >= '0' && f[p] <= '9'; ++p) {
        if (v.arg_num < (int64_t(1) << 40)) v.arg_num = v.arg_num * 10 + (f[p] - '0');
      }
      if (p == n) return unfinished();
      if (f[p] != ']') return bad_char(p);
      ++p;
      if (p == n) return unfinished();
    }
    // width
    if (f[p] >= '1' && f[p] <= '9') {
      v.width = 0;
      for (; p < n && f[p] >= '0' && f[p] <= '9'; ++p) {
        if (v.width < (int64_t(1) << 40)) v.width = v.width * 10 + (f[p] - '0');
      }
      v.has_width = true;
      if (p == n) return unfinished();
    }
    // .precision
    if (f[p] == '.') {
      v.prec = 0;
      ++p;
      for (; p < n && f[p] >= '0' && f[p] <= '9'; ++p) {
        if (v.prec < (int64_t(1) << 40)) v.prec = v.prec * 10 + (f[p] - '0');
      }
      v.has_prec = true;
      if (p == n) return unfinished();
    }
    if (!is_letter(f[p])) return bad_char(p);
    v.mode = char32_t(f[p]);
    ++p;
    v.raw = f.substr(ts, p - ts);
    v.offset = ts;
    if (v.arg_num > highest) highest = v.arg_num;
    // Absurd widths and precisions would only exhaust memory.
    if (v.width > 10000000 || v.prec > 10000000) {
      err = unsupported(v, "width or precision too large");
      return false;
    }
    if (!format_append(v, out, args, err)) return false;
    next_arg = v.arg_num + 1;
  }
  if (highest < int64_t(args.size())) {
    err_arg = int(highest + 1);
    if (highest == 0)
      err = "too many arguments; no verbs in format string";
    else
      err = "too many arguments; only " + std::to_string(highest) + " used by format string";
    return false;
  }
  return true;
}

}  // namespace

Function format_fn() {
  Function f;
  f.description =
      "Constructs a string by applying formatting verbs to a series of arguments, using a "
      "similar syntax to the C function \\\"printf\\\".";
  f.params = {param("format", Type::string())};
  f.var_param = param("args", Type::dynamic(), kNull | kUnknown | kDynamic);
  f.returns(Type::string());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    std::string_view fmt = args[0].as_string();
    for (const Value& a : args.subspan(1)) {
      if (!a.is_wholly_known()) {
        // JSON needs whole values; what precedes the first verb is known.
        size_t idx = fmt.find('%');
        Value u = Value::unknown(Type::string());
        if (idx != std::string_view::npos && idx > 0) {
          u = refine(u).string_prefix(fmt.substr(0, idx)).new_value();
        }
        return FuncResult::of(std::move(u));
      }
    }
    ScratchText out;
    std::string err;
    int err_arg = -1;
    if (!format_fsm(fmt, args.subspan(1), *out, err, err_arg)) {
      return FuncResult::fail(std::move(err), err_arg);
    }
    return FuncResult::of(Value::string(*out));
  };
  return f;
}

Function formatlist_fn() {
  Function f;
  f.description =
      "Constructs a list of strings by applying formatting verbs to a series of arguments, "
      "using a similar syntax to the C function \\\"printf\\\".";
  f.params = {param("format", Type::string())};
  f.var_param = param("args", Type::dynamic(), kNull | kUnknown | kDynamic);
  f.returns(Type::list(Type::string()));
  f.result_not_null = true;
  f.impl = [](std::span<const Value> all, const Type* ret) {
    std::string_view fmt = all[0].as_string();
    auto args = all.subspan(1);
    std::string out, err;
    int err_arg = -1;
    if (args.empty()) {
      if (!format_fsm(fmt, args, out, err, err_arg)) {
        return FuncResult::fail(std::move(err), err_arg);
      }
      return FuncResult::of(Value::list(Type::string(), {Value::string(out)}));
    }
    // Sequences are iterated together; other values repeat.
    int64_t iter_len = -1;
    size_t len_chooser = 0;
    bool unknown = false;
    for (size_t i = 0; i < args.size(); ++i) {
      const Value& a = args[i];
      const Type* t = a.type();
      if ((t->is_list() || t->is_set() || t->is_tuple()) && !a.is_null()) {
        if (!t->is_tuple() && !a.is_known()) {
          unknown = true;
          continue;
        }
        int64_t this_len = int64_t(t->is_tuple() ? t->size() : a.length());
        if (iter_len == -1) {
          iter_len = this_len;
          len_chooser = i;
        } else if (this_len != iter_len) {
          return arg_error("argument " + std::to_string(i + 1) + " has length " +
                               std::to_string(this_len) + ", which is inconsistent with argument " +
                               std::to_string(len_chooser + 1) + " of length " +
                               std::to_string(iter_len),
                           int(i + 1));
        }
        if (!a.is_known()) unknown = true;
      } else if (!a.is_known() && t->is_dynamic()) {
        unknown = true;
      }
    }
    if (unknown) return FuncResult::of(Value::unknown(ret));
    if (iter_len == 0) return FuncResult::of(Value::list(Type::string(), {}));
    if (iter_len == -1) iter_len = 1;
    std::vector<Value> results;
    std::vector<Value> call_args(args.size());
    for (int64_t k = 0; k < iter_len; ++k) {
      poll_every(size_t(k));
      bool known = true;
      for (size_t i = 0; i < args.size(); ++i) {
        const Value& a = args[i];
        const Type* t = a.type();
        bool seq = (t->is_list() || t->is_set() || t->is_tuple()) && !a.is_null();
        call_args[i] = seq ? a.element(size_t(k)) : a;
        if (!call_args[i].is_wholly_known()) known = false;
      }
      if (!known) {
        results.push_back(refine_not_null(Value::unknown(Type::string())));
        continue;
      }
      out.clear();
      if (!format_fsm(fmt, call_args, out, err, err_arg)) {
        return FuncResult::fail("error on format iteration " + std::to_string(k) + ": " + err);
      }
      results.push_back(Value::string(out));
    }
    return FuncResult::of(Value::list(Type::string(), std::move(results)));
  };
  return f;
}


}  // namespace hclvm::funcs
