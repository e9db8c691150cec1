// cty's JSON forms of values and types (see json.h).
//
// Reading is built on a reimplementation of the parts of Go's
// encoding/json that cty uses: the byte-level scanner (its states and
// error messages), and json.Decoder's token stream (Token, More, and Decode
// into json.RawMessage, a string, an interface{} or the few Go types cty
// decodes types into). The cty-level readers then follow the reference
// function for function: each nested value is read as a raw JSON slice and
// decoded again by a fresh decoder, exactly as cty does, so that every
// error is the reference's error, reached in the reference's order.
#include "value/json.h"

#include "util/unicode.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <utility>

namespace hclvm {

namespace {

// --- Go's json string encoding --------------------------------------------

// Reports whether ASCII byte [b] is written as itself inside a JSON string
// by Go's encoder with HTML escaping on.
inline bool html_safe(unsigned char b) {
  return b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&';
}

// Appends [s] to [out] as a JSON string literal, as Go's encodeState.string
// does with escapeHTML. Go 1.22 and later write \b and \f as short escapes.
void append_quoted(std::string& out, std::string_view s) {
  static const char hex[] = "0123456789abcdef";
  out += '"';
  size_t i = 0;
  while (i < s.size()) {
    size_t start = i;
    while (i < s.size() && static_cast<unsigned char>(s[i]) < 0x80 &&
           html_safe(static_cast<unsigned char>(s[i])))
      ++i;
    out.append(s.data() + start, i - start);
    if (i == s.size()) break;
    auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      out += '\\';
      switch (b) {
        case '\\':
        case '"': out += char(b); break;
        case '\n': out += 'n'; break;
        case '\r': out += 'r'; break;
        case '\t': out += 't'; break;
        case '\b': out += 'b'; break;
        case '\f': out += 'f'; break;
        default:
          out += "u00";
          out += hex[b >> 4];
          out += hex[b & 15];
      }
      ++i;
      continue;
    }
    uni::Rune r = uni::decode(s, i);
    if (!r.ok) {
      out += "\\ufffd";
      i += 1;
    } else if (r.cp == 0x2028 || r.cp == 0x2029) {
      out += "\\u202";
      out += hex[r.cp & 15];
      i += r.len;
    } else {
      out.append(s.data() + i, r.len);
      i += r.len;
    }
  }
  out += '"';
}

// Returns byte [c] as Go's json package quotes it in messages ('x', '\n').
std::string quote_char(unsigned char c) {
  if (c == '\'') return "'\\''";
  if (c == '"') return "'\"'";
  // Go converts the byte to the rune of the same number, then quotes that.
  std::string rune;
  if (c < 0x80) {
    rune += char(c);
  } else {
    rune += char(0xC0 | (c >> 6));
    rune += char(0x80 | (c & 0x3F));
  }
  std::string q = uni::go_quote(rune);
  return "'" + q.substr(1, q.size() - 2) + "'";
}

inline bool is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// The readers and the writer recurse once per level of nesting. The
// reference, on Go's growable stacks, has no limit but its scanner's 10000
// levels; here a lower one keeps hostile input from exhausting the stack.
constexpr int kMaxDepth = 1000;
thread_local int t_depth = 0;

// Counts one level of nesting for as long as it lives.
struct DepthGuard {
  DepthGuard() { ++t_depth; }
  ~DepthGuard() { --t_depth; }
  DepthGuard(const DepthGuard&) = delete;
  DepthGuard& operator=(const DepthGuard&) = delete;
  bool too_deep() const { return t_depth > kMaxDepth; }
};

// The message for nesting past kMaxDepth at the opening bracket [c], in
// the words of Go's scanner at its own limit.
std::string too_deep_message(char c);

// --- Go's json scanner ----------------------------------------------------

// A stack of small values that lives inline until it grows deep, so that
// the many short-lived decoders of a read allocate nothing for it.
template <class T>
class SmallStack {
 public:
  void push_back(T v) {
    if (size_ < kInline) inline_[size_] = v;
    else if (size_ - kInline < spill_.size()) spill_[size_ - kInline] = v;
    else spill_.push_back(v);
    ++size_;
  }
  void pop_back() { --size_; }
  T& back() { return size_ <= kInline ? inline_[size_ - 1] : spill_[size_ - 1 - kInline]; }
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  void clear() { size_ = 0; }

 private:
  static constexpr size_t kInline = 24;
  T inline_[kInline];
  size_t size_ = 0;
  std::vector<T> spill_;
};

enum ScanCode : uint8_t {
  kContinue, kBeginLiteral, kBeginObject, kObjectKey, kObjectValue, kEndObject,
  kBeginArray, kArrayValue, kEndArray, kSkipSpace, kEnd, kError,
};

enum class Step : uint8_t {
  BeginValue, BeginValueOrEmpty, BeginStringOrEmpty, BeginString, EndValue, EndTop,
  InString, InStringEsc, InStringEscU, InStringEscU1, InStringEscU12, InStringEscU123,
  Neg, One, Zero, Dot, Dot0, E, ESign, E0, T, Tr, Tru, F, Fa, Fal, Fals, N, Nu, Nul, Error,
};

enum Parse : uint8_t { kParseObjectKey, kParseObjectValue, kParseArrayValue };

// The byte-at-a-time JSON validator of Go's encoding/json (scanner.go),
// state for state, so that it stops at the same byte with the same message.
struct Scanner {
  Step step = Step::BeginValue;
  bool end_top = false;
  SmallStack<Parse> parse;
  std::string err;

  // Starts a new value (scanner.reset).
  void reset() {
    step = Step::BeginValue;
    parse.clear();
    err.clear();
    end_top = false;
  }

  // Fails at byte [c], with Go's message for [context].
  ScanCode error(unsigned char c, std::string_view context) {
    step = Step::Error;
    err = "invalid character " + quote_char(c) + " ";
    err += context;
    return kError;
  }

  // Enters an object or array ([p]); fails past Go's nesting limit.
  ScanCode push(unsigned char c, Parse p, ScanCode success) {
    parse.push_back(p);
    if (parse.size() <= 10000) return success;
    return error(c, "exceeded max depth");
  }

  // Leaves an object or array.
  void pop() {
    parse.pop_back();
    if (parse.empty()) {
      step = Step::EndTop;
      end_top = true;
    } else {
      step = Step::EndValue;
    }
  }

  // Reports whether [c] is a hex digit.
  static bool hex(unsigned char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  // stateBeginValue: [c] starts a value.
  ScanCode begin_value(unsigned char c) {
    if (is_space(c)) return kSkipSpace;
    switch (c) {
      case '{': step = Step::BeginStringOrEmpty; return push(c, kParseObjectKey, kBeginObject);
      case '[': step = Step::BeginValueOrEmpty; return push(c, kParseArrayValue, kBeginArray);
      case '"': step = Step::InString; return kBeginLiteral;
      case '-': step = Step::Neg; return kBeginLiteral;
      case '0': step = Step::Zero; return kBeginLiteral;
      case 't': step = Step::T; return kBeginLiteral;
      case 'f': step = Step::F; return kBeginLiteral;
      case 'n': step = Step::N; return kBeginLiteral;
      default: break;
    }
    if (c >= '1' && c <= '9') {
      step = Step::One;
      return kBeginLiteral;
    }
    return error(c, "looking for beginning of value");
  }

  // stateBeginString: [c] starts an object key.
  ScanCode begin_string(unsigned char c) {
    if (is_space(c)) return kSkipSpace;
    if (c == '"') {
      step = Step::InString;
      return kBeginLiteral;
    }
    return error(c, "looking for beginning of object key string");
  }

  // stateEndValue: [c] follows a complete value.
  ScanCode end_value(unsigned char c) {
    if (parse.empty()) {
      step = Step::EndTop;
      end_top = true;
      return end_top_step(c);
    }
    if (is_space(c)) {
      step = Step::EndValue;
      return kSkipSpace;
    }
    switch (parse.back()) {
      case kParseObjectKey:
        if (c == ':') {
          parse.back() = kParseObjectValue;
          step = Step::BeginValue;
          return kObjectKey;
        }
        return error(c, "after object key");
      case kParseObjectValue:
        if (c == ',') {
          parse.back() = kParseObjectKey;
          step = Step::BeginString;
          return kObjectValue;
        }
        if (c == '}') {
          pop();
          return kEndObject;
        }
        return error(c, "after object key:value pair");
      case kParseArrayValue:
        if (c == ',') {
          step = Step::BeginValue;
          return kArrayValue;
        }
        if (c == ']') {
          pop();
          return kEndArray;
        }
        return error(c, "after array element");
    }
    return error(c, "");
  }

  // stateEndTop: [c] follows the top-level value.
  ScanCode end_top_step(unsigned char c) {
    // Go records "invalid character ... after top-level value" here, but
    // the decoder stops at the end of the value and never reads it.
    if (!is_space(c)) step = Step::Error;
    return kEnd;
  }

  // state0: [c] follows the integer part of a number.
  ScanCode zero(unsigned char c) {
    if (c == '.') {
      step = Step::Dot;
      return kContinue;
    }
    if (c == 'e' || c == 'E') {
      step = Step::E;
      return kContinue;
    }
    return end_value(c);
  }

  // stateESign: [c] must be the first digit of an exponent.
  ScanCode e_sign(unsigned char c) {
    if (c >= '0' && c <= '9') {
      step = Step::E0;
      return kContinue;
    }
    return error(c, "in exponent of numeric literal");
  }

  // Expects [want] as the next byte of a keyword; [then] is the next state.
  ScanCode keyword(unsigned char c, char want, Step then, const char* context) {
    if (c == static_cast<unsigned char>(want)) {
      step = then;
      return kContinue;
    }
    return error(c, context);
  }

  // Feeds byte [c] to the current state.
  ScanCode feed(unsigned char c) {
    switch (step) {
      case Step::BeginValue: return begin_value(c);
      case Step::BeginValueOrEmpty:
        if (is_space(c)) return kSkipSpace;
        if (c == ']') return end_value(c);
        return begin_value(c);
      case Step::BeginStringOrEmpty:
        if (is_space(c)) return kSkipSpace;
        if (c == '}') {
          parse.back() = kParseObjectValue;
          return end_value(c);
        }
        return begin_string(c);
      case Step::BeginString: return begin_string(c);
      case Step::EndValue: return end_value(c);
      case Step::EndTop: return end_top_step(c);
      case Step::InString:
        if (c == '"') {
          step = Step::EndValue;
          return kContinue;
        }
        if (c == '\\') {
          step = Step::InStringEsc;
          return kContinue;
        }
        if (c < 0x20) return error(c, "in string literal");
        return kContinue;
      case Step::InStringEsc:
        switch (c) {
          case 'b':
          case 'f':
          case 'n':
          case 'r':
          case 't':
          case '\\':
          case '/':
          case '"': step = Step::InString; return kContinue;
          case 'u': step = Step::InStringEscU; return kContinue;
          default: return error(c, "in string escape code");
        }
      case Step::InStringEscU:
      case Step::InStringEscU1:
      case Step::InStringEscU12:
      case Step::InStringEscU123:
        if (!hex(c)) return error(c, "in \\u hexadecimal character escape");
        step = step == Step::InStringEscU123 ? Step::InString : Step(uint8_t(step) + 1);
        return kContinue;
      case Step::Neg:
        if (c == '0') {
          step = Step::Zero;
          return kContinue;
        }
        if (c >= '1' && c <= '9') {
          step = Step::One;
          return kContinue;
        }
        return error(c, "in numeric literal");
      case Step::One:
        if (c >= '0' && c <= '9') return kContinue;
        return zero(c);
      case Step::Zero: return zero(c);
      case Step::Dot:
        if (c >= '0' && c <= '9') {
          step = Step::Dot0;
          return kContinue;
        }
        return error(c, "after decimal point in numeric literal");
      case Step::Dot0:
        if (c >= '0' && c <= '9') return kContinue;
        if (c == 'e' || c == 'E') {
          step = Step::E;
          return kContinue;
        }
        return end_value(c);
      case Step::E:
        if (c == '+' || c == '-') {
          step = Step::ESign;
          return kContinue;
        }
        return e_sign(c);
      case Step::ESign: return e_sign(c);
      case Step::E0:
        if (c >= '0' && c <= '9') return kContinue;
        return end_value(c);
      case Step::T: return keyword(c, 'r', Step::Tr, "in literal true (expecting 'r')");
      case Step::Tr: return keyword(c, 'u', Step::Tru, "in literal true (expecting 'u')");
      case Step::Tru: return keyword(c, 'e', Step::EndValue, "in literal true (expecting 'e')");
      case Step::F: return keyword(c, 'a', Step::Fa, "in literal false (expecting 'a')");
      case Step::Fa: return keyword(c, 'l', Step::Fal, "in literal false (expecting 'l')");
      case Step::Fal: return keyword(c, 's', Step::Fals, "in literal false (expecting 's')");
      case Step::Fals: return keyword(c, 'e', Step::EndValue, "in literal false (expecting 'e')");
      case Step::N: return keyword(c, 'u', Step::Nu, "in literal null (expecting 'u')");
      case Step::Nu: return keyword(c, 'l', Step::Nul, "in literal null (expecting 'l')");
      case Step::Nul: return keyword(c, 'l', Step::EndValue, "in literal null (expecting 'l')");
      case Step::Error: return kError;
    }
    return kError;
  }
};

std::string too_deep_message(char c) {
  return "invalid character " + quote_char(static_cast<unsigned char>(c)) + " exceeded max depth";
}

// --- Go's string unquoting --------------------------------------------------

// Returns the four hex digits after "\u" at [s], or -1 (decode.go getu4).
int32_t getu4(std::string_view s) {
  if (s.size() < 6 || s[0] != '\\' || s[1] != 'u') return -1;
  int32_t r = 0;
  for (size_t i = 2; i < 6; ++i) {
    char c = s[i];
    int v;
    if (c >= '0' && c <= '9')
      v = c - '0';
    else if (c >= 'a' && c <= 'f')
      v = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      v = c - 'A' + 10;
    else
      return -1;
    r = r * 16 + v;
  }
  return r;
}

// Appends code point [r] to [out] in UTF-8.
void append_utf8(std::string& out, char32_t r) {
  if (r < 0x80) {
    out += char(r);
  } else if (r < 0x800) {
    out += char(0xC0 | (r >> 6));
    out += char(0x80 | (r & 0x3F));
  } else if (r < 0x10000) {
    out += char(0xE0 | (r >> 12));
    out += char(0x80 | ((r >> 6) & 0x3F));
    out += char(0x80 | (r & 0x3F));
  } else {
    out += char(0xF0 | (r >> 18));
    out += char(0x80 | ((r >> 12) & 0x3F));
    out += char(0x80 | ((r >> 6) & 0x3F));
    out += char(0x80 | (r & 0x3F));
  }
}

// Returns the text of the scanned string literal [lit] (quotes included),
// as Go's unquoteBytes decodes it: escapes resolved, surrogate pairs joined,
// lone surrogates and invalid UTF-8 bytes replaced by U+FFFD.
std::string unquote(std::string_view lit) {
  std::string_view s = lit.substr(1, lit.size() - 2);
  std::string out;
  out.reserve(s.size());
  size_t r = 0;
  while (r < s.size()) {
    auto c = static_cast<unsigned char>(s[r]);
    if (c == '\\') {
      char e = s[r + 1];
      switch (e) {
        case 'b':
          out += '\b';
          r += 2;
          continue;
        case 'f':
          out += '\f';
          r += 2;
          continue;
        case 'n':
          out += '\n';
          r += 2;
          continue;
        case 'r':
          out += '\r';
          r += 2;
          continue;
        case 't':
          out += '\t';
          r += 2;
          continue;
        case 'u': {
          int32_t rr = getu4(s.substr(r));
          r += 6;
          if (rr >= 0xD800 && rr < 0xE000) {
            int32_t rr1 = getu4(s.substr(r));
            if (rr < 0xDC00 && rr1 >= 0xDC00 && rr1 < 0xE000) {
              r += 6;
              append_utf8(out, char32_t(0x10000 + ((rr - 0xD800) << 10) + (rr1 - 0xDC00)));
              continue;
            }
            rr = 0xFFFD;
          }
          append_utf8(out, char32_t(rr));
          continue;
        }
        default:
          out += e;
          r += 2;
          continue;  // " \ / (the scanner allows no others)
      }
    }
    if (c < 0x80) {
      out += char(c);
      ++r;
      continue;
    }
    uni::Rune rr = uni::decode(s, r);
    if (rr.ok)
      out.append(s.data() + r, rr.len);
    else
      append_utf8(out, 0xFFFD);
    r += rr.len;
  }
  return out;
}

// --- Go's json.Decoder --------------------------------------------------------

struct SyntaxErr {
  std::string msg;
  int64_t offset = -1;
};

// A token of json.Decoder.Token.
struct Tok {
  enum Kind : uint8_t { Delim, String, Number, Bool, Null };
  Kind kind = Null;
  char delim = 0;
  bool boolean = false;
  std::string str;       // String
  std::string_view num;  // Number: the literal's text
};

enum TokState : uint8_t {
  kTokTopValue, kTokArrayStart, kTokArrayValue, kTokArrayComma, kTokObjectStart, kTokObjectKey,
  kTokObjectColon, kTokObjectValue, kTokObjectComma,
};

// json.Decoder over an in-memory buffer: the token state machine of
// stream.go, with Go's rules for what counts as the end of the input.
class Decoder {
 public:
  // Reads [buf], which starts at byte [base] of the caller's input; with
  // [use_number] numbers are kept as text (Decoder.UseNumber), otherwise
  // they must fit a float64.
  Decoder(std::string_view buf, int64_t base, bool use_number)
      : buf_(buf), base_(base), use_number_(use_number) {}

  // json.Decoder.Token.
  bool token(Tok& t, SyntaxErr& e) {
    for (;;) {
      unsigned char c;
      if (!peek(c)) {
        e = {"EOF", base_ + int64_t(buf_.size())};
        return false;
      }
      switch (c) {
        case '[':
        case '{':
          if (!value_allowed()) return token_error(c, e);
          ++scanp_;
          stack_.push_back(state_);
          state_ = c == '[' ? kTokArrayStart : kTokObjectStart;
          t = Tok{};
          t.kind = Tok::Delim;
          t.delim = char(c);
          return true;
        case ']':
        case '}':
          if (c == ']' ? (state_ != kTokArrayStart && state_ != kTokArrayComma)
                       : (state_ != kTokObjectStart && state_ != kTokObjectComma))
            return token_error(c, e);
          ++scanp_;
          state_ = stack_.back();
          stack_.pop_back();
          value_end();
          t = Tok{};
          t.kind = Tok::Delim;
          t.delim = char(c);
          return true;
        case ':':
          if (state_ != kTokObjectColon) return token_error(c, e);
          ++scanp_;
          state_ = kTokObjectValue;
          continue;
        case ',':
          if (state_ == kTokArrayComma) {
            ++scanp_;
            state_ = kTokArrayValue;
            continue;
          }
          if (state_ == kTokObjectComma) {
            ++scanp_;
            state_ = kTokObjectKey;
            continue;
          }
          return token_error(c, e);
        case '"':
          if (state_ == kTokObjectStart || state_ == kTokObjectKey) {
            TokState old = state_;
            state_ = kTokTopValue;
            std::string_view raw;
            bool ok = decode(raw, e);
            state_ = old;
            if (!ok) return false;
            state_ = kTokObjectColon;
            t = Tok{};
            t.kind = Tok::String;
            t.str = unquote(raw);
            return true;
          }
          [[fallthrough]];
        default: {
          if (!value_allowed()) return token_error(c, e);
          std::string_view raw;
          int64_t at = base_ + int64_t(scanp_);
          if (!decode(raw, e)) return false;
          return literal(raw, at, t, e);
        }
      }
    }
  }

  // json.Decoder.More.
  bool more() {
    unsigned char c;
    return peek(c) && c != ']' && c != '}';
  }

  // json.Decoder.Decode into a json.RawMessage: the next value's bytes;
  // [at] is set to its offset in the caller's input.
  bool decode(std::string_view& raw, SyntaxErr& e, int64_t* at = nullptr) {
    if (sticky_) {
      e = *sticky_;
      return false;
    }
    if (!prepare_for_decode(e)) return false;
    if (!value_allowed()) {
      e = {"not at beginning of value", base_ + int64_t(scanp_)};
      return false;
    }
    size_t n;
    if (!read_value(n, e)) return false;
    raw = buf_.substr(scanp_, n);
    if (at) *at = base_ + int64_t(scanp_);
    scanp_ += n;
    value_end();
    return true;
  }

 private:
  // Finds the next non-space byte [c] (at EOF: false).
  bool peek(unsigned char& c) {
    for (size_t i = scanp_; i < buf_.size(); ++i) {
      auto b = static_cast<unsigned char>(buf_[i]);
      if (is_space(b)) continue;
      scanp_ = i;
      c = b;
      return true;
    }
    return false;
  }

  // Reports whether a value may come next (tokenValueAllowed).
  bool value_allowed() const {
    return state_ == kTokTopValue || state_ == kTokArrayStart || state_ == kTokArrayValue ||
           state_ == kTokObjectValue;
  }

  // Records that a value ended (tokenValueEnd).
  void value_end() {
    if (state_ == kTokArrayStart || state_ == kTokArrayValue)
      state_ = kTokArrayComma;
    else if (state_ == kTokObjectValue)
      state_ = kTokObjectComma;
  }

  // Consumes the comma or colon before a value Decode reads (tokenPrepareForDecode).
  bool prepare_for_decode(SyntaxErr& e) {
    if (state_ != kTokArrayComma && state_ != kTokObjectColon) return true;
    unsigned char c;
    if (!peek(c)) {
      e = {"EOF", base_ + int64_t(buf_.size())};
      return false;
    }
    if (state_ == kTokArrayComma) {
      if (c != ',') {
        e = {"expected comma after array element", base_ + int64_t(scanp_)};
        return false;
      }
      state_ = kTokArrayValue;
    } else {
      if (c != ':') {
        e = {"expected colon after object key", base_ + int64_t(scanp_)};
        return false;
      }
      state_ = kTokObjectValue;
    }
    ++scanp_;
    return true;
  }

  // Fails on the unexpected byte [c] (tokenError).
  bool token_error(unsigned char c, SyntaxErr& e) {
    const char* context = "";
    switch (state_) {
      case kTokTopValue:
      case kTokArrayStart:
      case kTokArrayValue:
      case kTokObjectValue: context = " looking for beginning of value"; break;
      case kTokArrayComma: context = " after array element"; break;
      case kTokObjectKey: context = " looking for beginning of object key string"; break;
      case kTokObjectColon: context = " after object key"; break;
      case kTokObjectComma: context = " after object key:value pair"; break;
      case kTokObjectStart: break;
    }
    e = {"invalid character " + quote_char(c) + context, base_ + int64_t(scanp_)};
    return false;
  }

  // Scans one value from scanp_ and sets [n] to its length (readValue).
  bool read_value(size_t& n, SyntaxErr& e) {
    scan_.reset();
    for (size_t i = scanp_; i < buf_.size(); ++i) {
      ScanCode r = scan_.feed(static_cast<unsigned char>(buf_[i]));
      if (r == kEnd) {
        n = i - scanp_;
        return true;
      }
      if ((r == kEndObject || r == kEndArray) && scan_.end_value(' ') == kEnd) {
        n = i + 1 - scanp_;
        return true;
      }
      if (r == kError) {
        sticky_ = SyntaxErr{scan_.err, base_ + int64_t(i)};
        e = *sticky_;
        return false;
      }
    }
    // The end of the input: complete if a space would end the value.
    if (scan_.feed(' ') == kEnd) {
      n = buf_.size() - scanp_;
      return true;
    }
    bool non_space = false;
    for (size_t i = scanp_; i < buf_.size(); ++i)
      if (!is_space(static_cast<unsigned char>(buf_[i]))) non_space = true;
    sticky_ = SyntaxErr{non_space ? "unexpected EOF" : "EOF", base_ + int64_t(buf_.size())};
    e = *sticky_;
    return false;
  }

  // Decodes the scanned literal [raw] (at offset [at]) into an interface{}.
  bool literal(std::string_view raw, int64_t at, Tok& t, SyntaxErr& e) {
    t = Tok{};
    switch (raw[0]) {
      case '"':
        t.kind = Tok::String;
        t.str = unquote(raw);
        return true;
      case 't':
      case 'f':
        t.kind = Tok::Bool;
        t.boolean = raw[0] == 't';
        return true;
      case 'n': t.kind = Tok::Null; return true;
      default:
        t.kind = Tok::Number;
        t.num = raw;
        if (!use_number_) {
          // Go's ParseFloat fails only when the value overflows a float64.
          std::string text(raw);
          errno = 0;
          double d = std::strtod(text.c_str(), nullptr);
          if (errno == ERANGE && (d > 1 || d < -1)) {
            e = {"json: cannot unmarshal number " + text + " into Go value of type float64", at};
            return false;
          }
        }
        return true;
    }
  }

  std::string_view buf_;
  int64_t base_;
  bool use_number_;
  size_t scanp_ = 0;
  TokState state_ = kTokTopValue;
  SmallStack<TokState> stack_;
  Scanner scan_;
  std::optional<SyntaxErr> sticky_;
};

// --- paths and errors ---------------------------------------------------------

PathStep attr_step(std::string_view name) { return PathStep::attr(name); }
PathStep index_step(Value key) { return PathStep::index(std::move(key)); }

// cty's Path.NewErrorf: [msg] at [path].
JsonError path_error(const Path& path, std::string msg, int64_t offset = -1) {
  return JsonError{std::move(msg), path, offset};
}

// cty's Path.NewError on a syntax error.
JsonError path_error(const Path& path, const SyntaxErr& e) {
  return JsonError{e.msg, path, e.offset};
}

// cty's Path.NewError on an error that has a path of its own: the paths join.
JsonError path_wrap(const Path& path, JsonError inner) {
  Path joined = path;
  joined.insert(joined.end(), inner.path.begin(), inner.path.end());
  inner.path = std::move(joined);
  return inner;
}

// --- types to JSON ------------------------------------------------------------

// Appends [t] as JSON to [out] (cty Type.MarshalJSON); capsules set [err].
bool write_type(const Type* t, std::string& out, std::string& err) {
  switch (t->kind()) {
    case TypeKind::Bool: out += "\"bool\""; return true;
    case TypeKind::Number: out += "\"number\""; return true;
    case TypeKind::String: out += "\"string\""; return true;
    case TypeKind::Dynamic: out += "\"dynamic\""; return true;
    case TypeKind::List:
    case TypeKind::Map:
    case TypeKind::Set:
      out += t->is_list() ? "[\"list\"," : t->is_map() ? "[\"map\"," : "[\"set\",";
      if (!write_type(t->element(), out, err)) return false;
      out += ']';
      return true;
    case TypeKind::Object: {
      out += "[\"object\",{";
      for (size_t i = 0; i < t->size(); ++i) {
        if (i) out += ',';
        append_quoted(out, t->attr_name(i));
        out += ':';
        if (!write_type(t->attr_type(i), out, err)) return false;
      }
      out += '}';
      if (t->has_optional_attrs()) {
        out += ",[";
        bool first = true;
        for (size_t i = 0; i < t->size(); ++i) {
          if (!t->attr_optional(i)) continue;
          if (!first) out += ',';
          first = false;
          append_quoted(out, t->attr_name(i));
        }
        out += ']';
      }
      out += ']';
      return true;
    }
    case TypeKind::Tuple:
      out += "[\"tuple\",[";
      for (size_t i = 0; i < t->size(); ++i) {
        if (i) out += ',';
        if (!write_type(t->tuple_element(i), out, err)) return false;
      }
      out += "]]";
      return true;
    case TypeKind::Capsule: err = "type not allowed: " + t->friendly_name(); return false;
  }
  return false;
}

// --- types from JSON ----------------------------------------------------------

const Type* read_type(std::string_view buf, int64_t base, SyntaxErr& e);

// The name of the JSON kind of raw value [raw] in Go's UnmarshalTypeError.
const char* go_kind(std::string_view raw) {
  switch (raw[0]) {
    case '{': return "object";
    case '[': return "array";
    case '"': return "string";
    case 't':
    case 'f': return "bool";
    default: return "number";
  }
}

// Decodes the raw value [raw] (at [at]) into a Go map[string]cty.Type;
// null leaves the map empty, as Go does.
bool read_attr_types(std::string_view raw, int64_t at,
                     std::vector<std::pair<std::string, const Type*>>& out, SyntaxErr& e) {
  if (raw[0] == 'n') return true;
  if (raw[0] != '{') {
    e = {std::string("json: cannot unmarshal ") + go_kind(raw) +
             " into Go value of type map[string]cty.Type",
         at};
    return false;
  }
  Decoder dec(raw, at, false);
  Tok t;
  dec.token(t, e);  // the {
  while (dec.more()) {
    if (!dec.token(t, e)) return false;
    std::string key = t.str;
    std::string_view v;
    int64_t vat;
    if (!dec.decode(v, e, &vat)) return false;
    const Type* ty = read_type(v, vat, e);
    if (!ty) return false;
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& p) { return p.first == key; });
    if (it != out.end())
      it->second = ty;
    else
      out.emplace_back(std::move(key), ty);
  }
  return true;
}

// Decodes the raw value [raw] into a Go []cty.Type; null leaves it empty.
bool read_type_list(std::string_view raw, int64_t at, std::vector<const Type*>& out, SyntaxErr& e) {
  if (raw[0] == 'n') return true;
  if (raw[0] != '[') {
    e = {
        std::string("json: cannot unmarshal ") + go_kind(raw) + " into Go value of type []cty.Type",
        at};
    return false;
  }
  Decoder dec(raw, at, false);
  Tok t;
  dec.token(t, e);  // the [
  while (dec.more()) {
    std::string_view v;
    int64_t vat;
    if (!dec.decode(v, e, &vat)) return false;
    const Type* ty = read_type(v, vat, e);
    if (!ty) return false;
    out.push_back(ty);
  }
  return true;
}

// Decodes the raw value [raw] into a Go []string: elements that are not
// strings are an error (the first one is reported, after the rest is read).
bool read_string_list(std::string_view raw, int64_t at, std::vector<std::string>& out,
                      SyntaxErr& e) {
  if (raw[0] == 'n') return true;
  if (raw[0] != '[') {
    e = {std::string("json: cannot unmarshal ") + go_kind(raw) + " into Go value of type []string",
         at};
    return false;
  }
  Decoder dec(raw, at, false);
  Tok t;
  dec.token(t, e);  // the [
  std::optional<SyntaxErr> first;
  while (dec.more()) {
    std::string_view v;
    int64_t vat;
    if (!dec.decode(v, e, &vat)) return false;
    if (v[0] == '"') {
      out.push_back(unquote(v));
    } else {
      out.emplace_back();  // null and mistyped elements leave the zero string
      if (v[0] != 'n' && !first)
        first = SyntaxErr{
            std::string("json: cannot unmarshal ") + go_kind(v) + " into Go value of type string",
            vat};
    }
  }
  if (first) {
    e = *first;
    return false;
  }
  return true;
}

// The rest of ["object",{...},[...]] after the kind, from [dec]: the
// attribute types and the optional names. (Apart from read_type so that
// its locals stay off the stack of the recursion through read_type.)
[[gnu::noinline]]
const Type* read_object_type(Decoder& dec, SyntaxErr& e) {
  std::string_view raw;
  int64_t at;
  std::vector<std::pair<std::string, const Type*>> atys;
  if (!dec.decode(raw, e, &at) || !read_attr_types(raw, at, atys, e)) return nullptr;
  std::vector<std::string> optional;
  if (dec.more()) {
    if (!dec.decode(raw, e, &at) || !read_string_list(raw, at, optional, e)) return nullptr;
  }
  std::vector<TypeAttr> attrs;
  for (const auto& [name, ty] : atys) attrs.push_back(TypeAttr{name, ty, false});
  for (const std::string& name : optional) {
    auto it = std::find_if(attrs.begin(), attrs.end(),
                           [&](const TypeAttr& a) { return a.name == name; });
    // cty panics here ("optional contains undeclared attribute").
    if (it == attrs.end()) {
      e = {"optional attribute " + uni::go_quote(name) + " is not declared", -1};
      return nullptr;
    }
    it->optional = true;
  }
  return Type::object(attrs);
}

// The tuple type of ["tuple",[...]]: [raw] (at [at]) is the element list.
[[gnu::noinline]]
const Type* read_tuple_type(std::string_view raw, int64_t at, SyntaxErr& e) {
  std::vector<const Type*> etys;
  if (!read_type_list(raw, at, etys, e)) return nullptr;
  return Type::tuple(etys);
}

// cty's Type.UnmarshalJSON on [buf] (at offset [base]); null on error.
const Type* read_type(std::string_view buf, int64_t base, SyntaxErr& e) {
  Decoder dec(buf, base, false);
  Tok tok;
  if (!dec.token(tok, e)) return nullptr;
  DepthGuard depth;
  if (depth.too_deep() && tok.kind == Tok::Delim) {
    e = {too_deep_message(tok.delim), base};
    return nullptr;
  }
  auto fail = [&](std::string msg) -> const Type* {
    e = {std::move(msg), -1};
    return nullptr;
  };
  if (tok.kind == Tok::String) {
    const Type* t = nullptr;
    if (tok.str == "bool")
      t = Type::boolean();
    else if (tok.str == "number")
      t = Type::number();
    else if (tok.str == "string")
      t = Type::string();
    else if (tok.str == "dynamic")
      t = Type::dynamic();
    else
      return fail("invalid primitive type name " + uni::go_quote(tok.str));
    if (dec.more()) return fail("extraneous data after type description");
    return t;
  }
  if (tok.kind != Tok::Delim) return fail("invalid type description");
  if (tok.delim != '[') return fail("invalid complex type description");
  if (!dec.token(tok, e)) return nullptr;
  if (tok.kind != Tok::String) return fail("invalid complex type kind name");
  const Type* t = nullptr;
  std::string_view raw;
  int64_t at;
  const std::string kind = tok.str;
  if (kind == "list" || kind == "map" || kind == "set") {
    if (!dec.decode(raw, e, &at)) return nullptr;
    const Type* ety = read_type(raw, at, e);
    if (!ety) return nullptr;
    t = kind == "list" ? Type::list(ety) : kind == "map" ? Type::map(ety) : Type::set(ety);
  } else if (kind == "object") {
    if (!(t = read_object_type(dec, e))) return nullptr;
  } else if (kind == "tuple") {
    if (!dec.decode(raw, e, &at) || !(t = read_tuple_type(raw, at, e))) return nullptr;
  } else {
    return fail("invalid complex type kind name");
  }
  if (!dec.token(tok, e)) return nullptr;
  if (tok.kind != Tok::Delim || tok.delim != ']' || dec.more())
    return fail("unexpected extra data in type description");
  return t;
}

// --- implied types --------------------------------------------------------------

const Type* implied_for_tok(const Tok& tok, Decoder& dec, SyntaxErr& e);

// The object type of the object whose { was just read.
[[gnu::noinline]]
const Type* implied_object(Decoder& dec, SyntaxErr& e) {
  std::map<std::string, const Type*> atys;
  for (;;) {
    Tok tok;
    if (!dec.token(tok, e)) return nullptr;
    if (tok.kind == Tok::Delim) {
      if (tok.delim != '}') {
        e = {"unexpected delimiter " + uni::go_quote(std::string(1, tok.delim)), -1};
        return nullptr;
      }
      break;
    }
    if (tok.kind != Tok::String) {
      e = {std::string("expected string but found ") + (tok.kind == Tok::Number ? "json.Number"
                                                        : tok.kind == Tok::Bool ? "bool"
                                                                                : "<nil>"),
           -1};
      return nullptr;
    }
    std::string key = std::move(tok.str);
    if (!dec.token(tok, e)) return nullptr;
    const Type* aty = implied_for_tok(tok, dec, e);
    if (!aty) return nullptr;
    auto [it, added] = atys.emplace(std::move(key), aty);
    // Repeated properties must agree on their type (cty 1.14).
    if (!added && it->second != aty) {
      e = {"duplicate " + uni::go_quote(it->first) + " property in JSON object", -1};
      return nullptr;
    }
  }
  std::vector<TypeAttr> attrs;
  for (const auto& [name, ty] : atys) attrs.push_back(TypeAttr{name, ty, false});
  return Type::object(attrs);
}

// The tuple type of the array whose [ was just read.
[[gnu::noinline]]
const Type* implied_tuple(Decoder& dec, SyntaxErr& e) {
  std::vector<const Type*> etys;
  for (;;) {
    Tok tok;
    if (!dec.token(tok, e)) return nullptr;
    if (tok.kind == Tok::Delim && tok.delim == ']') break;
    const Type* ety = implied_for_tok(tok, dec, e);
    if (!ety) return nullptr;
    etys.push_back(ety);
  }
  return Type::tuple(etys);
}

// The type implied by the value that starts with [tok].
const Type* implied_for_tok(const Tok& tok, Decoder& dec, SyntaxErr& e) {
  DepthGuard depth;
  if (depth.too_deep() && tok.kind == Tok::Delim) {
    e = {too_deep_message(tok.delim), -1};
    return nullptr;
  }
  switch (tok.kind) {
    case Tok::Null: return Type::dynamic();
    case Tok::Bool: return Type::boolean();
    case Tok::Number: return Type::number();
    case Tok::String: return Type::string();
    case Tok::Delim:
      if (tok.delim == '{') return implied_object(dec, e);
      if (tok.delim == '[') return implied_tuple(dec, e);
      e = {"unexpected token " + uni::go_quote(std::string(1, tok.delim)), -1};
      return nullptr;
  }
  return nullptr;
}

// --- values from JSON -------------------------------------------------------

// cty's unmarshal functions, one for each kind of type, each reading its
// value's raw bytes [buf] (at [base]) with a decoder of its own.
class Reader {
 public:
  // Reads [buf] (at [base]) as a value of type [t] at [path] into [out].
  bool unmarshal(std::string_view buf, int64_t base, const Type* t, Path& path, Value& out) {
    // The reference reads the first token to see what comes. An opening
    // bracket is that token whatever follows, so it is looked at directly:
    // this function recurses once per level of nesting, and the decoder a
    // literal needs stays off that path.
    char open = first_byte(buf);
    if (open != '[' && open != '{') return unmarshal_literal(buf, base, t, path, out);
    DepthGuard depth;
    if (depth.too_deep()) return fail(path_error(path, too_deep_message(open), base));
    if (t->is_dynamic()) return unmarshal_dynamic(buf, base, path, out);
    switch (t->kind()) {
      case TypeKind::String:
      case TypeKind::Number:
      case TypeKind::Bool: {
        Tok tok;
        tok.kind = Tok::Delim;
        tok.delim = open;
        return unmarshal_primitive(tok, t, path, out);
      }
      default: return unmarshal_composite(buf, base, t, path, out);
    }
  }

  JsonError error;

 private:
  // The first byte of [buf] that is not white space, or 0.
  static char first_byte(std::string_view buf) {
    for (char c : buf)
      if (!is_space(static_cast<unsigned char>(c))) return c;
    return 0;
  }

  // unmarshal() for input that does not start with a bracket.
  [[gnu::noinline]]
  bool unmarshal_literal(std::string_view buf, int64_t base, const Type* t, Path& path,
                         Value& out) {
    Decoder dec(buf, base, true);
    Tok tok;
    SyntaxErr e;
    if (!dec.token(tok, e)) return fail(path_error(path, e));
    if (tok.kind == Tok::Null) {
      out = Value::null(t);
      return true;
    }
    if (t->is_dynamic()) return unmarshal_dynamic(buf, base, path, out);
    if (t->is_primitive()) return unmarshal_primitive(tok, t, path, out);
    return unmarshal_composite(buf, base, t, path, out);
  }

  // unmarshal() for collection and structural types [t].
  bool unmarshal_composite(std::string_view buf, int64_t base, const Type* t, Path& path,
                           Value& out) {
    switch (t->kind()) {
      case TypeKind::List:
      case TypeKind::Set: return unmarshal_sequence(buf, base, t, path, out);
      case TypeKind::Map: return unmarshal_map(buf, base, t->element(), path, out);
      case TypeKind::Tuple: return unmarshal_tuple(buf, base, t, path, out);
      case TypeKind::Object: return unmarshal_object(buf, base, t, path, out);
      default: return fail(path_error(path, "unsupported type " + t->friendly_name()));
    }
  }

  // Records [e]; returns false.
  bool fail(JsonError e) {
    error = std::move(e);
    return false;
  }

  // Reads the delimiter [d] or fails.
  bool require_delim(Decoder& dec, char d, const Path& path) {
    Tok tok;
    SyntaxErr e;
    if (!dec.token(tok, e)) return fail(path_error(path, e));
    if (tok.kind != Tok::Delim || tok.delim != d)
      return fail(path_error(path, std::string("missing expected ") + d));
    return true;
  }

  // Reads an object key into [key] or fails.
  bool require_key(Decoder& dec, std::string& key, SyntaxErr& e) {
    Tok tok;
    if (!dec.token(tok, e)) return false;
    if (tok.kind != Tok::String) {
      e = {"missing expected object key", -1};
      return false;
    }
    key = std::move(tok.str);
    return true;
  }

  // Reads the primitive of type [t] that token [tok] is.
  [[gnu::noinline]]
  bool unmarshal_primitive(const Tok& tok, const Type* t, const Path& path, Value& out) {
    if (t == Type::boolean()) {
      if (tok.kind == Tok::Bool) {
        out = Value::boolean(tok.boolean);
        return true;
      }
      if (tok.kind == Tok::String) return string_to_bool(tok.str, path, out);
      return fail(path_error(path, "bool is required"));
    }
    if (t == Type::number()) {
      std::string_view text;
      if (tok.kind == Tok::Number)
        text = tok.num;
      else if (tok.kind == Tok::String)
        text = tok.str;
      else
        return fail(path_error(path, "number is required"));
      std::optional<Number> n = Number::parse(text);
      if (!n) return fail(path_error(path, "a number is required"));
      out = Value::number(std::move(*n));
      return true;
    }
    switch (tok.kind) {
      case Tok::String: out = Value::string(tok.str); return true;
      case Tok::Number: out = Value::string(tok.num); return true;
      case Tok::Bool: out = Value::string(tok.boolean ? "true" : "false"); return true;
      default: return fail(path_error(path, "string is required"));
    }
  }

  // cty's conversion of a string to bool (convert.Convert).
  bool string_to_bool(const std::string& s, const Path& path, Value& out) {
    ConvertResult r = convert(Value::string(s), Type::boolean());
    if (!r.ok()) return fail(path_wrap(path, JsonError{r.error().message, r.error().path, -1}));
    out = r.take();
    return true;
  }

  // The element type cty's ListVal and SetVal infer: the first element's
  // type that is not the dynamic pseudo-type.
  static const Type* element_type(const std::vector<Value>& vals, const Type* declared) {
    for (const Value& v : vals)
      if (!v.type()->is_dynamic()) return v.type();
    return declared;
  }

  // Gives null elements of the dynamic pseudo-type the collection's element
  // type [ety] (cty keeps them as they are inside a typed collection).
  static void retype_nulls(std::vector<Value>& vals, const Type* ety) {
    for (Value& v : vals)
      if (v.type()->is_dynamic() && v.type() != ety && v.is_null()) v = Value::null(ety);
  }

  // Checks that [vals] all have type [ety] (cty panics otherwise).
  bool consistent(const std::vector<Value>& vals, const Type* ety, const char* what,
                  const Path& path) {
    for (const Value& v : vals)
      if (!v.type()->is_dynamic() && v.type() != ety)
        return fail(path_error(path, std::string("inconsistent ") + what + " element types"));
    return true;
  }

  // Reads a list or set of type [t].
  [[gnu::noinline]]
  bool unmarshal_sequence(std::string_view buf, int64_t base, const Type* t, Path& path,
                          Value& out) {
    const bool is_set = t->is_set();
    const Type* ety = t->element();
    Decoder dec(buf, base, true);
    if (!require_delim(dec, '[', path)) return false;
    std::vector<Value> vals;
    path.push_back(PathStep{});
    int64_t idx = 0;
    SyntaxErr e;
    while (dec.more()) {
      path.back() = index_step(is_set ? Value::unknown(ety) : Value::integer(idx));
      ++idx;
      std::string_view raw;
      int64_t at;
      if (!dec.decode(raw, e, &at)) {
        JsonError err = path_error(
            path,
            std::string(is_set ? "failed to read set value: " : "failed to read list value: ") +
                e.msg,
            e.offset);
        path.pop_back();
        return fail(std::move(err));
      }
      Value el;
      if (!unmarshal(raw, at, ety, path, el)) {
        path.pop_back();
        return false;
      }
      vals.push_back(std::move(el));
    }
    path.pop_back();
    if (!require_delim(dec, ']', path)) return false;
    if (vals.empty()) {
      out = is_set ? Value::set(ety, {}) : Value::list(ety, {});
      return true;
    }
    const Type* vty = element_type(vals, ety);
    if (!consistent(vals, vty, is_set ? "set" : "list", path)) return false;
    retype_nulls(vals, vty);
    out = is_set ? Value::set(vty, std::move(vals)) : Value::list(vty, std::move(vals));
    return true;
  }

  // Reads a map of [ety].
  [[gnu::noinline]]
  bool unmarshal_map(std::string_view buf, int64_t base, const Type* ety, Path& path, Value& out) {
    Decoder dec(buf, base, true);
    if (!require_delim(dec, '{', path)) return false;
    std::map<std::string, Value> read;  // a repeated key keeps its last value
    path.push_back(PathStep{});
    SyntaxErr e;
    auto bail = [&](JsonError err) {
      path.pop_back();
      return fail(std::move(err));
    };
    while (dec.more()) {
      path.back() = index_step(Value::unknown(Type::string()));
      std::string k;
      if (!require_key(dec, k, e))
        return bail(path_error(path, "failed to read map key: " + e.msg, e.offset));
      path.back() = index_step(Value::string(k));
      std::string_view raw;
      int64_t at;
      if (!dec.decode(raw, e, &at))
        return bail(path_error(path, "failed to read map value: " + e.msg, e.offset));
      Value el;
      if (!unmarshal(raw, at, ety, path, el)) {
        path.pop_back();
        return false;
      }
      read[std::move(k)] = std::move(el);
    }
    path.pop_back();
    if (!require_delim(dec, '}', path)) return false;
    std::vector<std::pair<std::string, Value>> vals(std::make_move_iterator(read.begin()),
                                                    std::make_move_iterator(read.end()));
    if (vals.empty()) {
      out = Value::map(ety, {});
      return true;
    }
    const Type* vty = ety;
    for (const auto& [k, v] : vals)
      if (!v.type()->is_dynamic()) {
        vty = v.type();
        break;
      }
    for (auto& [k, v] : vals) {
      if (!v.type()->is_dynamic() && v.type() != vty)
        return fail(path_error(path, "inconsistent map element types"));
      if (v.is_null() && v.type() != vty) v = Value::null(vty);
    }
    out = Value::map(vty, std::move(vals));
    return true;
  }

  // Reads a tuple of type [t].
  [[gnu::noinline]]
  bool unmarshal_tuple(std::string_view buf, int64_t base, const Type* t, Path& path, Value& out) {
    Decoder dec(buf, base, true);
    if (!require_delim(dec, '[', path)) return false;
    std::vector<Value> vals;
    // cty reports the element count against the path without its last
    // step (and would crash at the top level, where there is none).
    const size_t depth = path.size();
    auto short_path = [&] {
      return Path(path.begin(), path.begin() + long(depth ? depth - 1 : 0));
    };
    path.push_back(PathStep{});
    size_t idx = 0;
    SyntaxErr e;
    while (dec.more()) {
      if (idx >= t->size()) {
        path.pop_back();
        return fail(path_error(short_path(),
                               "too many tuple elements (need " + std::to_string(t->size()) + ")"));
      }
      path.back() = index_step(Value::integer(int64_t(idx)));
      const Type* ety = t->tuple_element(idx);
      ++idx;
      std::string_view raw;
      int64_t at;
      if (!dec.decode(raw, e, &at)) {
        JsonError err = path_error(path, "failed to read tuple value: " + e.msg, e.offset);
        path.pop_back();
        return fail(std::move(err));
      }
      Value el;
      if (!unmarshal(raw, at, ety, path, el)) {
        path.pop_back();
        return false;
      }
      vals.push_back(std::move(el));
    }
    path.pop_back();
    if (!require_delim(dec, ']', path)) return false;
    if (vals.size() != t->size())
      return fail(path_error(short_path(),
                             "not enough tuple elements (need " + std::to_string(t->size()) + ")"));
    out = Value::tuple(std::move(vals));
    return true;
  }

  // Reads an object of type [t]; missing attributes are null.
  [[gnu::noinline]]
  bool unmarshal_object(std::string_view buf, int64_t base, const Type* t, Path& path, Value& out) {
    Decoder dec(buf, base, true);
    if (!require_delim(dec, '{', path)) return false;
    std::vector<Value> vals(t->size());
    std::vector<bool> seen(t->size());
    const size_t obj_depth = path.size();
    // cty's attribute path starts with an empty step, which later keys
    // overwrite: an error on the first key has no attribute step.
    bool have_step = false;
    SyntaxErr e;
    auto bail = [&](JsonError err) {
      if (have_step) path.pop_back();
      return fail(std::move(err));
    };
    while (dec.more()) {
      std::string k;
      if (!require_key(dec, k, e))
        return bail(path_error(path, "failed to read object key: " + e.msg, e.offset));
      std::optional<size_t> i = t->find_attr(k);
      if (!i) {
        Path obj_path(path.begin(), path.begin() + long(obj_depth));
        return bail(path_error(obj_path, "unsupported attribute " + uni::go_quote(k)));
      }
      if (have_step)
        path.back() = attr_step(k);
      else
        path.push_back(attr_step(k));
      have_step = true;
      std::string_view raw;
      int64_t at;
      if (!dec.decode(raw, e, &at))
        return bail(path_error(path, "failed to read object value: " + e.msg, e.offset));
      Value el;
      if (!unmarshal(raw, at, t->attr_type(*i), path, el)) {
        path.pop_back();
        return false;
      }
      vals[*i] = std::move(el);
      seen[*i] = true;
    }
    if (have_step) path.pop_back();
    if (!require_delim(dec, '}', path)) return false;
    for (size_t i = 0; i < t->size(); ++i)
      if (!seen[i]) vals[i] = Value::null(t->attr_type(i));
    // Without dynamic or optional attributes, the value's type is [t]
    // itself; otherwise it comes from the values read.
    if (!t->has_dynamic_types() && !t->has_optional_attrs()) {
      out = Value::object(t, std::move(vals));
      return true;
    }
    std::vector<std::pair<std::string, Value>> attrs;
    attrs.reserve(t->size());
    for (size_t i = 0; i < t->size(); ++i)
      attrs.emplace_back(std::string(t->attr_name(i)), std::move(vals[i]));
    out = Value::object(std::move(attrs));
    return true;
  }

  // Reads a {"value":…,"type":…} wrapper.
  [[gnu::noinline]]
  bool unmarshal_dynamic(std::string_view buf, int64_t base, Path& path, Value& out) {
    Decoder dec(buf, base, true);
    if (!require_delim(dec, '{', path)) return false;
    const Type* t = nullptr;
    std::optional<std::string_view> body;
    int64_t body_at = 0;
    SyntaxErr e;
    while (dec.more()) {
      std::string key;
      if (!require_key(dec, key, e))
        return fail(
            path_error(path, "failed to read dynamic type descriptor key: " + e.msg, e.offset));
      std::string_view raw;
      int64_t at;
      if (!dec.decode(raw, e, &at))
        return fail(
            path_error(path, "failed to read dynamic type descriptor value: " + e.msg, e.offset));
      if (key == "type") {
        t = read_type(raw, at, e);
        if (!t)
          return fail(
              path_error(path, "failed to decode type for dynamic value: " + e.msg, e.offset));
      } else if (key == "value") {
        body = raw;
        body_at = at;
      } else {
        return fail(
            path_error(path, "invalid key " + uni::go_quote(key) + " in dynamically-typed value"));
      }
    }
    if (!require_delim(dec, '}', path)) return false;
    if (!t) return fail(path_error(path, "missing type in dynamically-typed value"));
    if (!body) return fail(path_error(path, "missing value in dynamically-typed value"));
    Path inner;
    if (!unmarshal(*body, body_at, t, inner, out)) return fail(path_wrap(path, std::move(error)));
    return true;
  }
};

// --- values to JSON -----------------------------------------------------------

// Reports whether a value of type [given] can be written against [want]
// as it is (cty's Type.TestConformance finds nothing).
bool conforms(const Type* given, const Type* want) {
  if (want->is_dynamic() || given == want) return true;
  if (given->is_object() && want->is_object()) {
    if (given->size() != want->size()) return false;
    for (size_t i = 0; i < want->size(); ++i)
      if (given->attr_name(i) != want->attr_name(i) ||
          !conforms(given->attr_type(i), want->attr_type(i)))
        return false;
    return true;
  }
  if (given->is_tuple() && want->is_tuple()) {
    if (given->size() != want->size()) return false;
    for (size_t i = 0; i < want->size(); ++i)
      if (!conforms(given->tuple_element(i), want->tuple_element(i))) return false;
    return true;
  }
  if (given->kind() == want->kind() && given->is_collection())
    return conforms(given->element(), want->element());
  return false;
}

class Writer {
 public:
  std::string out;
  JsonError error;

  // Appends [v] written against [t]; on failure records the error at [path].
  bool marshal(const Value& v, const Type* t, Path& path) {
    if (v.is_marked()) return fail(path, "value has marks, so it cannot be serialized as JSON");
    DepthGuard depth;
    if (depth.too_deep() && (t->is_collection() || t->is_structural()))
      return fail(path, "exceeded max depth");
    if (t->is_dynamic() && !v.type()->is_dynamic()) return marshal_dynamic(v, path);
    if (v.is_null()) {
      out += "null";
      return true;
    }
    if (!v.is_known()) return fail(path, "value is not known");
    switch (t->kind()) {
      case TypeKind::String: append_quoted(out, v.as_string()); return true;
      case TypeKind::Number: {
        Number n = v.as_number();
        if (n.is_inf()) return fail(path, "cannot serialize infinity as JSON");
        out += n.text();
        return true;
      }
      case TypeKind::Bool: out += v.as_bool() ? "true" : "false"; return true;
      case TypeKind::List:
      case TypeKind::Set: {
        out += '[';
        path.push_back(PathStep{});
        for (size_t i = 0; i < v.length(); ++i) {
          if (i) out += ',';
          const Value& el = v.element(i);
          path.back() = index_step(t->is_set() ? el : Value::integer(int64_t(i)));
          if (!marshal(el, t->element(), path)) return pop_fail(path);
        }
        path.pop_back();
        out += ']';
        return true;
      }
      case TypeKind::Map: {
        out += '{';
        path.push_back(PathStep{});
        for (size_t i = 0; i < v.length(); ++i) {
          if (i) out += ',';
          path.back() = index_step(Value::string(v.map_key(i)));
          append_quoted(out, v.map_key(i));
          out += ':';
          if (!marshal(v.map_value(i), t->element(), path)) return pop_fail(path);
        }
        path.pop_back();
        out += '}';
        return true;
      }
      case TypeKind::Tuple: {
        out += '[';
        path.push_back(PathStep{});
        for (size_t i = 0; i < v.length(); ++i) {
          if (i) out += ',';
          path.back() = index_step(Value::integer(int64_t(i)));
          if (!marshal(v.element(i), t->tuple_element(i), path)) return pop_fail(path);
        }
        path.pop_back();
        out += ']';
        return true;
      }
      case TypeKind::Object: {
        out += '{';
        path.push_back(PathStep{});
        for (size_t i = 0; i < t->size(); ++i) {
          if (i) out += ',';
          std::string_view name = t->attr_name(i);
          path.back() = attr_step(std::string(name));
          append_quoted(out, name);
          out += ':';
          const Value* av = v.attr(name);
          Value missing = Value::null(t->attr_type(i));
          if (!marshal(av ? *av : missing, t->attr_type(i), path)) return pop_fail(path);
        }
        path.pop_back();
        out += '}';
        return true;
      }
      case TypeKind::Capsule: return fail(path, "capsule values cannot be serialized as JSON");
      case TypeKind::Dynamic: break;
    }
    return fail(path, "cannot JSON-serialize " + t->friendly_name());
  }

 private:
  // Records [msg] at [path]; returns false.
  bool fail(const Path& path, std::string msg) {
    error = path_error(path, std::move(msg));
    return false;
  }
  // Drops the last step of [path]; returns false.
  bool pop_fail(Path& path) {
    path.pop_back();
    return false;
  }

  // Wraps [v] with its type, for a reader that expects any type. As in the
  // reference, an error inside the value is not reported here: the bytes
  // written so far stay, and the wrapper is completed.
  bool marshal_dynamic(const Value& v, Path& path) {
    std::string type_json, err;
    if (!write_type(v.type(), type_json, err))
      return fail(path, "failed to serialize type: " + err);
    out += "{\"value\":";
    Path inner = path;
    marshal(v, v.type(), inner);
    out += ",\"type\":";
    out += type_json;
    out += '}';
    return true;
  }
};

// cty's convert.Convert of [v] to [t], for writing a value of another type.
bool convert_for_json(const Value& v, const Type* t, Value& out, JsonError& err) {
  ConvertResult r = convert(v, t);
  if (!r.ok()) {
    err = JsonError{r.error().message, r.error().path, -1};
    return false;
  }
  out = r.take();
  return true;
}

}  // namespace

// --- public API -----------------------------------------------------------------

std::string json_quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  append_quoted(out, s);
  return out;
}

JsonResult<std::string> to_json(const Value& v, const Type* t) {
  JsonResult<std::string> r;
  Value conv;
  const Value* val = &v;
  if (!conforms(v.type(), t)) {
    JsonError err;
    if (!convert_for_json(v, t, conv, err)) {
      r.error = std::move(err);
      return r;
    }
    val = &conv;
  }
  Writer w;
  Path path;
  if (!w.marshal(*val, t, path)) {
    r.error = std::move(w.error);
    return r;
  }
  r.value = std::move(w.out);
  return r;
}

JsonResult<Value> from_json(std::string_view json, const Type* t) {
  JsonResult<Value> r;
  Reader rd;
  Path path;
  if (!rd.unmarshal(json, 0, t, path, r.value)) r.error = std::move(rd.error);
  return r;
}

JsonResult<const Type*> implied_type(std::string_view json) {
  JsonResult<const Type*> r;
  Decoder dec(json, 0, true);
  Tok tok;
  SyntaxErr e;
  const Type* t = nullptr;
  if (dec.token(tok, e)) t = implied_for_tok(tok, dec, e);
  if (!t) {
    r.error = JsonError{e.msg, {}, e.offset};
    return r;
  }
  if (dec.more()) {
    r.error = JsonError{"extraneous data after JSON object", {}, -1};
    return r;
  }
  r.value = t;
  return r;
}

JsonResult<std::string> to_json_simple(const Value& v) { return to_json(v, v.type()); }

JsonResult<std::string> to_json_typed(const Value& v) {
  JsonResult<std::string> r = to_json(v, v.type());
  if (!r.ok()) return r;
  std::string type_json, err;
  if (!write_type(v.type(), type_json, err))
    return JsonResult<std::string>{"", JsonError{std::move(err), {}, -1}};
  r.value = "{\"value\":" + r.value + ",\"type\":" + type_json + "}";
  return r;
}

JsonResult<Value> from_json_simple(std::string_view json) {
  JsonResult<const Type*> t = implied_type(json);
  if (!t.ok()) return JsonResult<Value>{Value(), std::move(t.error)};
  return from_json(json, t.value);
}

JsonResult<std::string> type_to_json(const Type* t) {
  JsonResult<std::string> r;
  std::string err;
  if (!write_type(t, r.value, err)) {
    r.value.clear();
    r.error = JsonError{std::move(err), {}, -1};
  }
  return r;
}

JsonResult<const Type*> type_from_json(std::string_view json) {
  JsonResult<const Type*> r;
  SyntaxErr e;
  r.value = read_type(json, 0, e);
  if (!r.value) r.error = JsonError{e.msg, {}, e.offset};
  return r;
}

}  // namespace hclvm
