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
//
// Two things keep that affordable. Decoding a nested value's bytes again at
// every level would scan a document once per level of nesting (and a
// 10,000-level one 10,000 times); instead one scan of the whole document
// records where each array and object ends (ValueIndex), and a decoder that
// would scan one of them again takes its length from there. And the
// readers and the writer recurse once per level, as the reference does on
// Go's growable stacks: they run within a stack budget (util/stack.h) and
// start over on a big stack when input nests deeper than the caller's
// stack affords.
#include "value/json.h"

#include "util/meter.h"
#include "util/stack.h"
#include "util/unicode.h"
#include "value/ops.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <unordered_map>
#include <utility>

namespace hclvm {

namespace {

// Returns byte [c] as Go's json package quotes it in messages ('x', '\n').
std::string quote_char(unsigned char c) {
  if (c == '\'') return "'\\''";
  if (c == '"') return "'\"'";
  // Go converts the byte to the rune of the same number, then quotes that.
  std::string rune;
  uni::append_utf8(rune, c);
  std::string q = uni::go_quote(rune);
  return "'" + q.substr(1, q.size() - 2) + "'";
}

inline bool is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// How deeply Go's scanner lets arrays and objects nest in one value.
constexpr size_t kMaxNestingDepth = 10000;

// The message for nesting deeper than the stack allows at the opening
// bracket [c], in the words of Go's scanner at its own limit.
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
  size_t max_depth = kMaxNestingDepth;  // ValueIndex lifts the limit

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
    if (parse.size() <= max_depth) return success;
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

  // Reports whether byte [c] inside a string leaves the state as it is
  // (anything but a quote, a backslash and a control character).
  static bool plain_in_string(unsigned char c) { return c >= 0x20 && c != '"' && c != '\\'; }

  // Returns how many bytes from [i] of [buf] the current state passes over
  // without a change: the plain bytes of a string, so that callers can skip
  // them instead of feeding them one at a time.
  size_t plain_run(std::string_view buf, size_t i) const {
    if (step != Step::InString) return 0;
    size_t j = i;
    while (j < buf.size() && plain_in_string(static_cast<unsigned char>(buf[j]))) ++j;
    return j - i;
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

// --- where arrays and objects end -------------------------------------------

// The length of every array and object of a document that a decoder of
// its own would read without an error, from one scan of the document's
// first value. A decoder takes a value's length from here instead of
// scanning it again: the scanner, started at that bracket, would pass the
// same bytes through the same states (only its depth counts from there),
// so the length is the one it would find. A value is recorded once it is
// closed, and only when it nests no deeper than the scanner allows; values
// left open by an error are not, and their decoders scan them and fail as
// the reference does. Once the whole first value has been scanned without
// an error, every literal in it is known to be valid too, and a decoder
// finds its end without the scanner.
class ValueIndex {
 public:
  // Scans the value that starts [doc] (after white space).
  explicit ValueIndex(std::string_view doc) {
    Scanner scan;
    scan.max_depth = SIZE_MAX;
    struct Open {
      size_t entry;
      size_t height;  // of the deepest value closed inside so far
    };
    std::vector<Open> open;
    for (size_t i = 0; i < doc.size(); ++i) {
      i += scan.plain_run(doc, i);
      if (i == doc.size()) break;
      switch (scan.feed(static_cast<unsigned char>(doc[i]))) {
        case kBeginObject:
        case kBeginArray:
          open.push_back({entries_.size(), 0});
          entries_.push_back({doc.data() + i, 0});
          break;
        case kEndObject:
        case kEndArray: {
          Open o = open.back();
          open.pop_back();
          size_t height = o.height + 1;
          if (height <= kMaxNestingDepth)
            entries_[o.entry].len = size_t(doc.data() + i + 1 - entries_[o.entry].at);
          if (open.empty()) {
            valid_begin_ = entries_[o.entry].at;
            valid_end_ = doc.data() + i + 1;
            return;
          }
          open.back().height = std::max(open.back().height, height);
          break;
        }
        case kError:
        case kEnd: return;
        default: break;
      }
    }
  }

  // Returns the length of the array or object that starts at [p], or 0
  // when it must be scanned.
  size_t length_at(const char* p) const {
    // Readers mostly go through a document in order: try where the last
    // look-up left off before searching.
    if (hint_ < entries_.size() && entries_[hint_].at == p) return entries_[hint_++].len;
    auto it = std::lower_bound(entries_.begin(), entries_.end(), p,
                               [](const Entry& e, const char* q) { return e.at < q; });
    if (it == entries_.end() || it->at != p) return 0;
    hint_ = size_t(it - entries_.begin()) + 1;
    return it->len;
  }

  // Returns the length of the literal that starts at [p] when it lies in
  // the scanned value, or 0 when it must be scanned.
  size_t literal_length_at(const char* p) const {
    if (p < valid_begin_ || p >= valid_end_) return 0;
    const char* q = p;
    switch (*q) {
      case '"':
        // The scanner has seen the closing quote: the first quote after an
        // even number of backslashes.
        for (++q;; ++q) {
          q = static_cast<const char*>(std::memchr(q, '"', size_t(valid_end_ - q)));
          size_t backslashes = 0;
          while (q[-1 - static_cast<ptrdiff_t>(backslashes)] == '\\') ++backslashes;
          if (backslashes % 2 == 0) return size_t(q + 1 - p);
        }
      case 't':
      case 'n': return 4;
      case 'f': return 5;
      default:
        while (q < valid_end_ && ((*q >= '0' && *q <= '9') || *q == '-' || *q == '+' ||
                                  *q == '.' || *q == 'e' || *q == 'E'))
          ++q;
        return size_t(q - p);
    }
  }

 private:
  struct Entry {
    const char* at;
    size_t len;  // 0: not to be taken from here
  };
  std::vector<Entry> entries_;  // by position
  mutable size_t hint_ = 0;
  const char* valid_begin_ = nullptr;  // the first value, once scanned without error
  const char* valid_end_ = nullptr;
};

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
      if (e == 'u') {
        int32_t rr = getu4(s.substr(r));
        r += 6;
        if (rr >= 0xD800 && rr < 0xE000) {
          int32_t rr1 = getu4(s.substr(r));
          if (rr < 0xDC00 && rr1 >= 0xDC00 && rr1 < 0xE000) {
            r += 6;
            uni::append_utf8(out, char32_t(0x10000 + ((rr - 0xD800) << 10) + (rr1 - 0xDC00)));
            continue;
          }
          rr = 0xFFFD;
        }
        uni::append_utf8(out, char32_t(rr));
        continue;
      }
      switch (e) {
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        default: out += e; break;  // " \ / (the scanner allows no others)
      }
      r += 2;
      continue;
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
      uni::append_utf8(out, 0xFFFD);
    r += rr.len;
  }
  return out;
}

// --- Go's json.Decoder --------------------------------------------------------

struct SyntaxErr {
  std::string msg;
  int64_t offset = -1;
};

// A token of json.Decoder.Token. Tokens are filled in place (reset()), not
// copied: a string's text may view the token's own storage.
struct Tok {
  enum Kind : uint8_t { Delim, String, Number, Bool, Null };
  Kind kind = Null;
  char delim = 0;
  bool boolean = false;
  std::string_view str;  // String: the text, unquoted
  std::string_view num;  // Number: the literal's text

  Tok() = default;
  Tok(const Tok&) = delete;
  Tok& operator=(const Tok&) = delete;

  // Makes this the token [kind] with nothing else set.
  void reset(Kind k) {
    kind = k;
    delim = 0;
    boolean = false;
    str = num = {};
  }

  // Makes this the string token of the scanned literal [lit] (quotes
  // included). Most literals are their own text: those are viewed in place.
  void set_string(std::string_view lit) {
    reset(String);
    std::string_view body = lit.substr(1, lit.size() - 2);
    bool plain = true;
    for (char c : body)
      if (c == '\\' || static_cast<unsigned char>(c) >= 0x80) {
        plain = false;
        break;
      }
    if (plain) {
      str = body;
    } else {
      owned_ = unquote(lit);
      str = owned_;
    }
  }

  // Makes this the token of the scanned literal [raw], numbers kept as
  // text (json.Decoder.UseNumber).
  void set_literal(std::string_view raw) {
    switch (raw[0]) {
      case '"': set_string(raw); return;
      case 't':
      case 'f':
        reset(Bool);
        boolean = raw[0] == 't';
        return;
      case 'n': reset(Null); return;
      default:
        reset(Number);
        num = raw;
        return;
    }
  }

 private:
  std::string owned_;
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
  // they must fit a float64. [index], if any, indexes the input [buf] is
  // part of.
  Decoder(std::string_view buf, int64_t base, bool use_number, const ValueIndex* index)
      : buf_(buf), base_(base), use_number_(use_number), index_(index) {}

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
          t.reset(Tok::Delim);
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
          t.reset(Tok::Delim);
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
            t.set_string(raw);
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
    if (index_) {
      size_t at = scanp_;
      while (at < buf_.size() && is_space(static_cast<unsigned char>(buf_[at]))) ++at;
      if (at < buf_.size()) {
        const char* p = buf_.data() + at;
        size_t len = *p == '[' || *p == '{' ? index_->length_at(p) : index_->literal_length_at(p);
        if (len) {
          n = at - scanp_ + len;
          return true;
        }
      }
    }
    scan_.reset();
    for (size_t i = scanp_; i < buf_.size(); ++i) {
      i += scan_.plain_run(buf_, i);
      if (i == buf_.size()) break;
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
    t.set_literal(raw);
    if (t.kind == Tok::Number && !use_number_) {
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

  std::string_view buf_;
  int64_t base_;
  bool use_number_;
  const ValueIndex* index_;
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

// What the readers of one document share: the index of its values (or
// null) and the stack budget of the current try.
struct ReadCtx {
  const ValueIndex* index;
  const util::StackBudget& budget;
};

// --- types to JSON ------------------------------------------------------------

// Appends [t] as JSON to [out] (cty Type.MarshalJSON) within the stack
// [budget], counting the text with [meter] (a type that repeats a shared
// part writes it out every time); capsules set [err].
bool write_type(const Type* t, std::string& out, std::string& err,
                const util::StackBudget& budget, util::TextMeter& meter) {
  if (budget.exhausted()) {
    err = "exceeded max depth";
    return false;
  }
  meter.check();
  switch (t->kind()) {
    case TypeKind::Bool: out += "\"bool\""; return true;
    case TypeKind::Number: out += "\"number\""; return true;
    case TypeKind::String: out += "\"string\""; return true;
    case TypeKind::Dynamic: out += "\"dynamic\""; return true;
    case TypeKind::List:
    case TypeKind::Map:
    case TypeKind::Set:
      out += t->is_list() ? "[\"list\"," : t->is_map() ? "[\"map\"," : "[\"set\",";
      if (!write_type(t->element(), out, err, budget, meter)) return false;
      out += ']';
      return true;
    case TypeKind::Object: {
      out += "[\"object\",{";
      for (size_t i = 0; i < t->size(); ++i) {
        if (i) out += ',';
        uni::append_json_quoted(out, t->attr_name(i));
        out += ':';
        if (!write_type(t->attr_type(i), out, err, budget, meter)) return false;
      }
      out += '}';
      if (t->has_optional_attrs()) {
        out += ",[";
        bool first = true;
        for (size_t i = 0; i < t->size(); ++i) {
          if (!t->attr_optional(i)) continue;
          if (!first) out += ',';
          first = false;
          uni::append_json_quoted(out, t->attr_name(i));
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
        if (!write_type(t->tuple_element(i), out, err, budget, meter)) return false;
      }
      out += "]]";
      return true;
    case TypeKind::Capsule: err = "type not allowed: " + t->friendly_name(); return false;
  }
  return false;
}

// write_type() onto [out], counted from its present size on.
bool write_type(const Type* t, std::string& out, std::string& err,
                const util::StackBudget& budget) {
  util::TextMeter meter(out, util::TextMeter::Use::StringValue);
  return write_type(t, out, err, budget, meter);
}

// --- types from JSON ----------------------------------------------------------

const Type* read_type(std::string_view buf, int64_t base, const ReadCtx& cx, SyntaxErr& e);

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
bool read_attr_types(std::string_view raw, int64_t at, const ReadCtx& cx,
                     std::vector<std::pair<std::string, const Type*>>& out, SyntaxErr& e) {
  if (raw[0] == 'n') return true;
  if (raw[0] != '{') {
    e = {std::string("json: cannot unmarshal ") + go_kind(raw) +
             " into Go value of type map[string]cty.Type",
         at};
    return false;
  }
  Decoder dec(raw, at, false, cx.index);
  Tok t;
  dec.token(t, e);  // the {
  while (dec.more()) {
    if (!dec.token(t, e)) return false;
    std::string key(t.str);
    std::string_view v;
    int64_t vat;
    if (!dec.decode(v, e, &vat)) return false;
    const Type* ty = read_type(v, vat, cx, e);
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
bool read_type_list(std::string_view raw, int64_t at, const ReadCtx& cx,
                    std::vector<const Type*>& out, SyntaxErr& e) {
  if (raw[0] == 'n') return true;
  if (raw[0] != '[') {
    e = {
        std::string("json: cannot unmarshal ") + go_kind(raw) + " into Go value of type []cty.Type",
        at};
    return false;
  }
  Decoder dec(raw, at, false, cx.index);
  Tok t;
  dec.token(t, e);  // the [
  while (dec.more()) {
    std::string_view v;
    int64_t vat;
    if (!dec.decode(v, e, &vat)) return false;
    const Type* ty = read_type(v, vat, cx, e);
    if (!ty) return false;
    out.push_back(ty);
  }
  return true;
}

// Decodes the raw value [raw] into a Go []string: elements that are not
// strings are an error (the first one is reported, after the rest is read).
bool read_string_list(std::string_view raw, int64_t at, const ReadCtx& cx,
                      std::vector<std::string>& out, SyntaxErr& e) {
  if (raw[0] == 'n') return true;
  if (raw[0] != '[') {
    e = {std::string("json: cannot unmarshal ") + go_kind(raw) + " into Go value of type []string",
         at};
    return false;
  }
  Decoder dec(raw, at, false, cx.index);
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
const Type* read_object_type(Decoder& dec, const ReadCtx& cx, SyntaxErr& e) {
  std::string_view raw;
  int64_t at;
  std::vector<std::pair<std::string, const Type*>> atys;
  if (!dec.decode(raw, e, &at) || !read_attr_types(raw, at, cx, atys, e)) return nullptr;
  std::vector<std::string> optional;
  if (dec.more()) {
    if (!dec.decode(raw, e, &at) || !read_string_list(raw, at, cx, optional, e)) return nullptr;
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
const Type* read_tuple_type(std::string_view raw, int64_t at, const ReadCtx& cx, SyntaxErr& e) {
  std::vector<const Type*> etys;
  if (!read_type_list(raw, at, cx, etys, e)) return nullptr;
  return Type::tuple(etys);
}

// cty's Type.UnmarshalJSON on [buf] (at offset [base]); null on error.
const Type* read_type(std::string_view buf, int64_t base, const ReadCtx& cx, SyntaxErr& e) {
  Decoder dec(buf, base, false, cx.index);
  Tok tok;
  if (!dec.token(tok, e)) return nullptr;
  if (tok.kind == Tok::Delim && cx.budget.exhausted()) {
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
  const std::string kind(tok.str);
  if (kind == "list" || kind == "map" || kind == "set") {
    if (!dec.decode(raw, e, &at)) return nullptr;
    const Type* ety = read_type(raw, at, cx, e);
    if (!ety) return nullptr;
    t = kind == "list" ? Type::list(ety) : kind == "map" ? Type::map(ety) : Type::set(ety);
  } else if (kind == "object") {
    if (!(t = read_object_type(dec, cx, e))) return nullptr;
  } else if (kind == "tuple") {
    if (!dec.decode(raw, e, &at) || !(t = read_tuple_type(raw, at, cx, e))) return nullptr;
  } else {
    return fail("invalid complex type kind name");
  }
  if (!dec.token(tok, e)) return nullptr;
  if (tok.kind != Tok::Delim || tok.delim != ']' || dec.more())
    return fail("unexpected extra data in type description");
  return t;
}

// --- implied types --------------------------------------------------------------

const Type* implied_for_tok(const Tok& tok, Decoder& dec, const util::StackBudget& budget,
                            SyntaxErr& e);

// The object type of the object whose { was just read.
[[gnu::noinline]]
const Type* implied_object(Decoder& dec, const util::StackBudget& budget, SyntaxErr& e) {
  // The attributes as read. A repeated name is looked for in the list while
  // it is short, and in a hash table once it is not.
  constexpr size_t kShort = 16;
  std::vector<std::pair<std::string, const Type*>> atys;
  std::unordered_map<std::string, size_t> by_name;
  auto find = [&](const std::string& name) -> const Type** {
    if (by_name.empty()) {
      for (auto& [n, t] : atys)
        if (n == name) return &t;
      return nullptr;
    }
    auto it = by_name.find(name);
    return it == by_name.end() ? nullptr : &atys[it->second].second;
  };
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
    std::string key(tok.str);
    if (!dec.token(tok, e)) return nullptr;
    const Type* aty = implied_for_tok(tok, dec, budget, e);
    if (!aty) return nullptr;
    if (const Type** seen = find(key)) {
      // Repeated properties must agree on their type (cty 1.14).
      if (*seen != aty) {
        e = {"duplicate " + uni::go_quote(key) + " property in JSON object", -1};
        return nullptr;
      }
      continue;
    }
    if (!by_name.empty()) {
      by_name.emplace(key, atys.size());
    } else if (atys.size() == kShort) {
      for (size_t i = 0; i < atys.size(); ++i) by_name.emplace(atys[i].first, i);
      by_name.emplace(key, atys.size());
    }
    atys.emplace_back(std::move(key), aty);
  }
  std::sort(atys.begin(), atys.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<TypeAttr> attrs;
  attrs.reserve(atys.size());
  for (const auto& [name, ty] : atys) attrs.push_back(TypeAttr{name, ty, false});
  return Type::object(attrs);
}

// The tuple type of the array whose [ was just read.
[[gnu::noinline]]
const Type* implied_tuple(Decoder& dec, const util::StackBudget& budget, SyntaxErr& e) {
  std::vector<const Type*> etys;
  for (;;) {
    Tok tok;
    if (!dec.token(tok, e)) return nullptr;
    if (tok.kind == Tok::Delim && tok.delim == ']') break;
    const Type* ety = implied_for_tok(tok, dec, budget, e);
    if (!ety) return nullptr;
    etys.push_back(ety);
  }
  return Type::tuple(etys);
}

// The type implied by the value that starts with [tok].
const Type* implied_for_tok(const Tok& tok, Decoder& dec, const util::StackBudget& budget,
                            SyntaxErr& e) {
  // The reference has no limit here but the stack's.
  if (tok.kind == Tok::Delim && budget.exhausted()) {
    e = {too_deep_message(tok.delim), -1};
    return nullptr;
  }
  switch (tok.kind) {
    case Tok::Null: return Type::dynamic();
    case Tok::Bool: return Type::boolean();
    case Tok::Number: return Type::number();
    case Tok::String: return Type::string();
    case Tok::Delim:
      if (tok.delim == '{') return implied_object(dec, budget, e);
      if (tok.delim == '[') return implied_tuple(dec, budget, e);
      e = {"unexpected token " + uni::go_quote(std::string(1, tok.delim)), -1};
      return nullptr;
  }
  return nullptr;
}

// --- values from JSON -------------------------------------------------------

// A step of [path] for the elements of a collection being read or
// written: pushed when first set, popped when the collection is done.
class ElementStep {
 public:
  explicit ElementStep(Path& path) : path_(path) {}
  ~ElementStep() {
    if (pushed_) path_.pop_back();
  }
  ElementStep(const ElementStep&) = delete;
  ElementStep& operator=(const ElementStep&) = delete;

  void set(PathStep step) {
    if (pushed_) {
      path_.back() = std::move(step);
    } else {
      path_.push_back(std::move(step));
      pushed_ = true;
    }
  }

 private:
  Path& path_;
  bool pushed_ = false;
};

// The object of type [t] read with attribute values [vals] ([seen]: which
// the document had; the others are nulls): of type [t] itself unless [t]
// has dynamic or optional attributes, else of the values' own types
// (cty.ObjectVal; the names are sorted).
Value finish_object(const Type* t, std::vector<Value> vals, const std::vector<bool>& seen) {
  for (size_t i = 0; i < t->size(); ++i)
    if (!seen[i]) vals[i] = Value::null(t->attr_type(i));
  if (!t->has_dynamic_types() && !t->has_optional_attrs()) return Value::object(t, std::move(vals));
  std::vector<TypeAttr> attrs;
  attrs.reserve(t->size());
  for (size_t i = 0; i < t->size(); ++i) attrs.push_back({t->attr_name(i), vals[i].type(), false});
  return Value::object(Type::object(attrs), std::move(vals));
}

// cty's unmarshal functions, one for each kind of type, each reading its
// value's raw bytes [buf] (at [base]) with a decoder of its own.
class Reader {
 public:
  explicit Reader(const ReadCtx& cx) : cx_(cx) {}

  // Reads [buf] (at [base]) as a value of type [t] at [path] into [out].
  bool unmarshal(std::string_view buf, int64_t base, const Type* t, Path& path, Value& out) {
    // The reference reads the first token to see what comes. An opening
    // bracket is that token whatever follows, so it is looked at directly:
    // this function recurses once per level of nesting, and the decoder a
    // literal needs stays off that path.
    char open = first_byte(buf);
    if (open != '[' && open != '{') return unmarshal_literal(buf, base, t, path, out);
    if (cx_.budget.exhausted()) return fail(path_error(path, too_deep_message(open), base));
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
  const ReadCtx& cx_;

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
    // A literal of a document the index has scanned is its own token: the
    // decoder would find just that. (What it would then do with other
    // types is left to it.)
    if (cx_.index) {
      size_t at = 0;
      while (at < buf.size() && is_space(static_cast<unsigned char>(buf[at]))) ++at;
      if (size_t len = at < buf.size() ? cx_.index->literal_length_at(buf.data() + at) : 0) {
        Tok tok;
        tok.set_literal(buf.substr(at, len));
        if (tok.kind == Tok::Null) {
          out = Value::null(t);
          return true;
        }
        if (t->is_primitive()) return unmarshal_primitive(tok, t, path, out);
      }
    }
    Decoder dec(buf, base, true, cx_.index);
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
    key = tok.str;
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
  bool string_to_bool(std::string_view s, const Path& path, Value& out) {
    ConvertResult r = convert(Value::string(s), Type::boolean());
    if (!r.ok()) return fail(path_wrap(path, JsonError{r.error().message, r.error().path, -1}));
    out = r.take();
    return true;
  }

  // Reads the next value of [dec] as a value of type [t] at [path] into
  // [el]; a syntax error fails as "failed to read [what] value: ...".
  bool read_element(Decoder& dec, const char* what, const Type* t, Path& path, Value& el) {
    std::string_view raw;
    int64_t at;
    SyntaxErr e;
    if (!dec.decode(raw, e, &at))
      return fail(path_error(path, std::string("failed to read ") + what + " value: " + e.msg,
                             e.offset));
    return unmarshal(raw, at, t, path, el);
  }

  // The element type cty's ListVal, SetVal and MapVal give the [n] values
  // read ([at](i) is the i-th): the first one's that is not the dynamic
  // pseudo-type, else [declared]. Values of other types fail (cty panics)
  // as "inconsistent [what] element types"; nulls of the dynamic
  // pseudo-type take the element type on (cty keeps them as they are
  // inside a typed collection). Null when it fails.
  template <class At>
  const Type* collection_type(size_t n, At at, const Type* declared, const char* what,
                              const Path& path) {
    const Type* ety = declared;
    for (size_t i = 0; i < n; ++i)
      if (!at(i).type()->is_dynamic()) {
        ety = at(i).type();
        break;
      }
    for (size_t i = 0; i < n; ++i) {
      Value& v = at(i);
      if (!v.type()->is_dynamic() && v.type() != ety) {
        fail(path_error(path, std::string("inconsistent ") + what + " element types"));
        return nullptr;
      }
      if (v.is_null() && v.type() != ety) v = Value::null(ety);
    }
    return ety;
  }

  // Reads a list or set of type [t].
  [[gnu::noinline]]
  bool unmarshal_sequence(std::string_view buf, int64_t base, const Type* t, Path& path,
                          Value& out) {
    const bool is_set = t->is_set();
    const char* what = is_set ? "set" : "list";
    const Type* ety = t->element();
    Decoder dec(buf, base, true, cx_.index);
    if (!require_delim(dec, '[', path)) return false;
    std::vector<Value> vals;
    {
      ElementStep step(path);
      while (dec.more()) {
        step.set(index_step(is_set ? Value::unknown(ety) : Value::integer(int64_t(vals.size()))));
        Value el;
        if (!read_element(dec, what, ety, path, el)) return false;
        vals.push_back(std::move(el));
      }
    }
    if (!require_delim(dec, ']', path)) return false;
    if (vals.empty()) {
      out = is_set ? Value::set(ety, {}) : Value::list(ety, {});
      return true;
    }
    const Type* vty =
        collection_type(vals.size(), [&](size_t i) -> Value& { return vals[i]; }, ety, what, path);
    if (!vty) return false;
    out = is_set ? Value::set(vty, std::move(vals)) : Value::list(vty, std::move(vals));
    return true;
  }

  // Reads a map of [ety].
  [[gnu::noinline]]
  bool unmarshal_map(std::string_view buf, int64_t base, const Type* ety, Path& path, Value& out) {
    Decoder dec(buf, base, true, cx_.index);
    if (!require_delim(dec, '{', path)) return false;
    std::map<std::string, Value> read;  // a repeated key keeps its last value
    {
      ElementStep step(path);
      SyntaxErr e;
      while (dec.more()) {
        step.set(index_step(Value::unknown(Type::string())));
        std::string k;
        if (!require_key(dec, k, e))
          return fail(path_error(path, "failed to read map key: " + e.msg, e.offset));
        step.set(index_step(Value::string(k)));
        Value el;
        if (!read_element(dec, "map", ety, path, el)) return false;
        read[std::move(k)] = std::move(el);
      }
    }
    if (!require_delim(dec, '}', path)) return false;
    std::vector<std::pair<std::string, Value>> vals(std::make_move_iterator(read.begin()),
                                                    std::make_move_iterator(read.end()));
    if (vals.empty()) {
      out = Value::map(ety, {});
      return true;
    }
    const Type* vty = collection_type(
        vals.size(), [&](size_t i) -> Value& { return vals[i].second; }, ety, "map", path);
    if (!vty) return false;
    out = Value::map(vty, std::move(vals));
    return true;
  }

  // Reads a tuple of type [t].
  [[gnu::noinline]]
  bool unmarshal_tuple(std::string_view buf, int64_t base, const Type* t, Path& path, Value& out) {
    Decoder dec(buf, base, true, cx_.index);
    if (!require_delim(dec, '[', path)) return false;
    std::vector<Value> vals;
    // cty reports the element count against the path without its last
    // step (and would crash at the top level, where there is none).
    const size_t depth = path.size();
    auto count_error = [&](const char* which) {
      Path short_path(path.begin(), path.begin() + long(depth ? depth - 1 : 0));
      return fail(path_error(short_path, std::string(which) + " tuple elements (need " +
                                             std::to_string(t->size()) + ")"));
    };
    {
      ElementStep step(path);
      while (dec.more()) {
        if (vals.size() >= t->size()) return count_error("too many");
        step.set(index_step(Value::integer(int64_t(vals.size()))));
        Value el;
        if (!read_element(dec, "tuple", t->tuple_element(vals.size()), path, el)) return false;
        vals.push_back(std::move(el));
      }
    }
    if (!require_delim(dec, ']', path)) return false;
    if (vals.size() != t->size()) return count_error("not enough");
    out = Value::tuple(std::move(vals));
    return true;
  }

  // Reads an object of type [t]; missing attributes are null.
  [[gnu::noinline]]
  bool unmarshal_object(std::string_view buf, int64_t base, const Type* t, Path& path, Value& out) {
    Decoder dec(buf, base, true, cx_.index);
    if (!require_delim(dec, '{', path)) return false;
    std::vector<Value> vals(t->size());
    std::vector<bool> seen(t->size());
    const size_t depth = path.size();
    {
      // cty's attribute path starts with an empty step, which later keys
      // overwrite: an error on the first key has no attribute step.
      ElementStep step(path);
      SyntaxErr e;
      size_t next = 0;
      while (dec.more()) {
        std::string k;
        if (!require_key(dec, k, e))
          return fail(path_error(path, "failed to read object key: " + e.msg, e.offset));
        // Documents mostly list attributes in the type's (sorted) order: the
        // one after the last is tried before a search.
        std::optional<size_t> i = next < t->size() && t->attr_name(next) == k
                                      ? std::optional<size_t>(next)
                                      : t->find_attr(k);
        if (!i) {
          Path obj_path(path.begin(), path.begin() + long(depth));
          return fail(path_error(obj_path, "unsupported attribute " + uni::go_quote(k)));
        }
        step.set(attr_step(k));
        if (!read_element(dec, "object", t->attr_type(*i), path, vals[*i])) return false;
        seen[*i] = true;
        next = *i + 1;
      }
    }
    if (!require_delim(dec, '}', path)) return false;
    out = finish_object(t, std::move(vals), seen);
    return true;
  }

  // Reads a {"value":…,"type":…} wrapper.
  [[gnu::noinline]]
  bool unmarshal_dynamic(std::string_view buf, int64_t base, Path& path, Value& out) {
    Decoder dec(buf, base, true, cx_.index);
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
        t = read_type(raw, at, cx_, e);
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
bool conforms(const Type* given, const Type* want) { return ops::type_conforms(given, want); }

// Writes values as cty's json.Marshal does, onto a string. The path of an
// error is gathered only when there is one: each level adds its step while
// the failure unwinds.
class Writer {
 public:
  Writer(const util::StackBudget& budget, std::string& out)
      : out_(out), budget_(budget), meter_(out, util::TextMeter::Use::StringValue) {}

  JsonError error;

  // Appends [v] written against [t]; on failure sets [error] (its path
  // relative to [v]).
  bool write(const Value& v, const Type* t) {
    if (marshal(v, t)) return true;
    error.path.assign(std::make_move_iterator(unwound_.rbegin()),
                      std::make_move_iterator(unwound_.rend()));
    return false;
  }

 private:
  std::string& out_;
  const util::StackBudget& budget_;
  // The text of a value that repeats a shared part may be far longer than
  // the value: counted as it grows (util/meter.h).
  util::TextMeter meter_;
  Path unwound_;  // the failure's steps, innermost first

  bool marshal(const Value& v, const Type* t) {
    meter_.check();
    if (v.is_marked()) return fail("value has marks, so it cannot be serialized as JSON");
    // The reference has no limit here but the stack's.
    if ((t->is_collection() || t->is_structural()) && budget_.exhausted())
      return fail("exceeded max depth");
    if (t->is_dynamic() && !v.type()->is_dynamic()) return marshal_dynamic(v);
    if (v.is_null()) {
      out_ += "null";
      return true;
    }
    if (!v.is_known()) return fail("value is not known");
    switch (t->kind()) {
      case TypeKind::String: uni::append_json_quoted(out_, v.as_string()); return true;
      case TypeKind::Number: {
        const Number& n = v.as_number();
        if (n.is_inf()) return fail("cannot serialize infinity as JSON");
        n.append_text(out_);
        return true;
      }
      case TypeKind::Bool: out_ += v.as_bool() ? "true" : "false"; return true;
      case TypeKind::List:
      case TypeKind::Set:
      case TypeKind::Map:
      case TypeKind::Tuple:
      case TypeKind::Object: return members(v, t);
      case TypeKind::Capsule: return fail("capsule values cannot be serialized as JSON");
      case TypeKind::Dynamic: break;
    }
    return fail("cannot JSON-serialize " + t->friendly_name());
  }

  // Records [msg] as the error; returns false.
  bool fail(std::string msg) {
    error = JsonError{std::move(msg), {}, -1};
    unwound_.clear();
    return false;
  }
  // Appends the elements or attributes of the collection or structure [v]
  // written against [t].
  bool members(const Value& v, const Type* t) {
    const bool keyed = t->is_map() || t->is_object();
    out_ += keyed ? '{' : '[';
    const size_t n = t->is_object() ? t->size() : v.length();
    for (size_t i = 0; i < n; ++i) {
      if (i) out_ += ',';
      const Value* el;
      const Type* ety = t->is_structural() ? nullptr : t->element();
      Value missing;
      switch (t->kind()) {
        case TypeKind::Map:
          uni::append_json_quoted(out_, v.map_key(i));
          out_ += ':';
          el = &v.map_value(i);
          break;
        case TypeKind::Object: {
          std::string_view name = t->attr_name(i);
          uni::append_json_quoted(out_, name);
          out_ += ':';
          ety = t->attr_type(i);
          el = v.attr(name);
          if (!el) el = &(missing = Value::null(ety));
          break;
        }
        case TypeKind::Tuple:
          ety = t->tuple_element(i);
          [[fallthrough]];
        default:  // list, set
          el = &v.element(i);
      }
      if (!marshal(*el, ety)) {
        switch (t->kind()) {
          case TypeKind::Map: unwound_.push_back(index_step(Value::string(v.map_key(i)))); break;
          case TypeKind::Object: unwound_.push_back(attr_step(t->attr_name(i))); break;
          case TypeKind::Set: unwound_.push_back(index_step(*el)); break;
          default: unwound_.push_back(index_step(Value::integer(int64_t(i))));
        }
        return false;
      }
    }
    out_ += keyed ? '}' : ']';
    return true;
  }

  // Wraps [v] with its type, for a reader that expects any type. As in the
  // reference, an error inside the value is not reported here: the bytes
  // written so far stay, and the wrapper is completed.
  bool marshal_dynamic(const Value& v) {
    std::string type_json, err;
    if (!write_type(v.type(), type_json, err, budget_))
      return fail("failed to serialize type: " + err);
    out_ += "{\"value\":";
    if (!marshal(v, v.type())) {
      error = JsonError();
      unwound_.clear();
    }
    out_ += ",\"type\":";
    out_ += type_json;
    out_ += '}';
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

// Appends to_json() of [v] to [out] within the stack [budget].
std::optional<JsonError> marshal_value(const Value& v, const Type* t, std::string& out,
                                       const util::StackBudget& budget) {
  Value conv;
  const Value* val = &v;
  if (!conforms(v.type(), t)) {
    JsonError err;
    if (!convert_for_json(v, t, conv, err)) return err;
    val = &conv;
  }
  Writer w(budget, out);
  if (!w.write(*val, t)) return std::move(w.error);
  return std::nullopt;
}

// to_json() within the stack [budget].
JsonResult<std::string> marshal_value(const Value& v, const Type* t,
                                      const util::StackBudget& budget) {
  JsonResult<std::string> r;
  r.error = marshal_value(v, t, r.value, budget);
  if (r.error) r.value.clear();
  return r;
}

// from_json() with the [index] of [json].
// A fast reader for the common case: a well-formed document whose shape
// fits [t] exactly (what jsondecode reads after the implied type, and most
// variable files). One pass, no raw slices decoded again, no error
// messages: anything it does not take for certain (a syntax error, a key
// the type lacks, a key twice, a conversion that could fail, collection
// types, very deep nesting) makes it give up, and the faithful reader
// above reads the document instead, reaching the reference's answer and
// errors. What it accepts it reads as the faithful reader would.
class FastReader {
 public:
  explicit FastReader(std::string_view doc) : doc_(doc) {}

  // Reads the whole document as a value of type [t]; false: give up.
  bool read(const Type* t, Value& out) {
    if (!value(t, out, 0)) return false;
    space();
    return at_ == doc_.size();
  }

  // Reads the whole document as a value of the type its structure implies
  // (the implied type and the reading in one pass); false: give up.
  bool read_implied(Value& out) {
    if (!implied(out, 0)) return false;
    space();
    return at_ == doc_.size();
  }

 private:
  static constexpr int kMaxDepth = 256;

  void space() {
    while (at_ < doc_.size() && is_space(static_cast<unsigned char>(doc_[at_]))) ++at_;
  }
  bool eat(char c) {
    space();
    if (at_ < doc_.size() && doc_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  bool digits() {
    size_t from = at_;
    while (at_ < doc_.size() && doc_[at_] >= '0' && doc_[at_] <= '9') ++at_;
    return at_ > from;
  }

  // A number literal by JSON's grammar, as text.
  bool number(std::string_view& text) {
    size_t from = at_;
    if (at_ < doc_.size() && doc_[at_] == '-') ++at_;
    if (at_ < doc_.size() && doc_[at_] == '0') {
      ++at_;
    } else if (!digits()) {
      return false;
    }
    if (at_ < doc_.size() && doc_[at_] == '.') {
      ++at_;
      if (!digits()) return false;
    }
    if (at_ < doc_.size() && (doc_[at_] == 'e' || doc_[at_] == 'E')) {
      ++at_;
      if (at_ < doc_.size() && (doc_[at_] == '+' || doc_[at_] == '-')) ++at_;
      if (!digits()) return false;
    }
    text = doc_.substr(from, at_ - from);
    return true;
  }

  // A string literal's text (escapes resolved as Go does) in [text],
  // viewing the document when it has no escapes, else [own].
  bool string(std::string_view& text, std::string& own) {
    size_t from = at_++;  // the opening quote
    bool plain = true;
    for (;;) {
      if (at_ >= doc_.size()) return false;
      unsigned char c = static_cast<unsigned char>(doc_[at_]);
      if (c == '"') break;
      if (c < 0x20) return false;
      if (c >= 0x80) plain = false;
      if (c == '\\') {
        plain = false;
        if (++at_ >= doc_.size()) return false;
        char e = doc_[at_];
        if (e == 'u') {
          if (at_ + 4 >= doc_.size()) return false;
          for (int i = 1; i <= 4; ++i)
            if (!std::isxdigit(static_cast<unsigned char>(doc_[at_ + size_t(i)]))) return false;
          at_ += 4;
        } else if (std::strchr("\"\\/bfnrt", e) == nullptr || e == '\0') {
          return false;
        }
      }
      ++at_;
    }
    ++at_;
    std::string_view lit = doc_.substr(from, at_ - from);
    if (plain) {
      text = lit.substr(1, lit.size() - 2);
    } else {
      own = unquote(lit);
      text = own;
    }
    return true;
  }

  // An object member's key and the colon after it.
  bool member_key(std::string_view& key, std::string& own) {
    space();
    if (at_ >= doc_.size() || doc_[at_] != '"' || !string(key, own)) return false;
    return eat(':');
  }

  bool literal(std::string_view word) {
    if (doc_.substr(at_, word.size()) != word) return false;
    at_ += word.size();
    return true;
  }

  bool value(const Type* t, Value& out, int depth) {
    space();
    if (at_ >= doc_.size()) return false;
    char c = doc_[at_];
    if (c == 'n') {
      if (!literal("null")) return false;
      out = Value::null(t);
      return true;
    }
    if (t == Type::string()) {
      std::string own;
      std::string_view text;
      if (c == '"') {
        if (!string(text, own)) return false;
      } else if (c == '-' || (c >= '0' && c <= '9')) {
        if (!number(text)) return false;
      } else if (c == 't' || c == 'f') {
        if (!literal(c == 't' ? "true" : "false")) return false;
        text = c == 't' ? "true" : "false";
      } else {
        return false;
      }
      out = Value::string(text);
      return true;
    }
    if (t == Type::number()) {
      std::string_view text;
      if (!(c == '-' || (c >= '0' && c <= '9')) || !number(text)) return false;
      std::optional<Number> n = Number::parse(text);
      if (!n) return false;
      out = Value::number(std::move(*n));
      return true;
    }
    if (t == Type::boolean()) {
      if (c != 't' && c != 'f') return false;
      if (!literal(c == 't' ? "true" : "false")) return false;
      out = Value::boolean(c == 't');
      return true;
    }
    if (depth >= kMaxDepth) return false;
    if (t->is_object() && c == '{') return object(t, out, depth);
    if (t->is_tuple() && c == '[') return tuple(t, out, depth);
    return false;
  }

  // value() with the type the document implies: strings, numbers and
  // bools their types, null a dynamic null, arrays tuples, objects objects.
  bool implied(Value& out, int depth) {
    space();
    if (at_ >= doc_.size()) return false;
    switch (doc_[at_]) {
      case 'n': return value(Type::dynamic(), out, depth);
      case 't':
      case 'f': return value(Type::boolean(), out, depth);
      case '"': return value(Type::string(), out, depth);
      case '[': {
        if (depth >= kMaxDepth) return false;
        ++at_;
        std::vector<Value> vals;
        if (!eat(']')) {
          do {
            vals.emplace_back();
            if (!implied(vals.back(), depth + 1)) return false;
          } while (eat(','));
          if (!eat(']')) return false;
        }
        out = Value::tuple(std::move(vals));
        return true;
      }
      case '{': {
        if (depth >= kMaxDepth) return false;
        ++at_;
        std::vector<std::pair<std::string, Value>> attrs;
        if (!eat('}')) {
          do {
            std::string own;
            std::string_view key;
            if (!member_key(key, own)) return false;
            attrs.emplace_back(std::string(key), Value());
            if (!implied(attrs.back().second, depth + 1)) return false;
          } while (eat(','));
          if (!eat('}')) return false;
        }
        // A key twice is an error of the implied type, left to the faithful reader.
        std::vector<std::string_view> keys;
        keys.reserve(attrs.size());
        for (const auto& a : attrs) keys.push_back(a.first);
        std::sort(keys.begin(), keys.end());
        if (std::adjacent_find(keys.begin(), keys.end()) != keys.end()) return false;
        out = Value::object(std::move(attrs));
        return true;
      }
      default: return value(Type::number(), out, depth);
    }
  }

  bool object(const Type* t, Value& out, int depth) {
    if (t->has_optional_attrs()) return false;
    ++at_;
    std::vector<Value> vals(t->size());
    std::vector<bool> seen(t->size());
    size_t next = 0;
    if (!eat('}')) {
      do {
        std::string own;
        std::string_view key;
        if (!member_key(key, own)) return false;
        std::optional<size_t> i = next < t->size() && t->attr_name(next) == key
                                      ? std::optional<size_t>(next)
                                      : t->find_attr(key);
        if (!i || seen[*i]) return false;
        if (!value(t->attr_type(*i), vals[*i], depth + 1)) return false;
        seen[*i] = true;
        next = *i + 1;
      } while (eat(','));
      if (!eat('}')) return false;
    }
    out = finish_object(t, std::move(vals), seen);
    return true;
  }

  bool tuple(const Type* t, Value& out, int depth) {
    ++at_;
    std::vector<Value> vals;
    vals.reserve(t->size());
    if (!eat(']')) {
      do {
        if (vals.size() >= t->size()) return false;
        vals.emplace_back();
        if (!value(t->tuple_element(vals.size() - 1), vals.back(), depth + 1)) return false;
      } while (eat(','));
      if (!eat(']')) return false;
    }
    if (vals.size() != t->size()) return false;
    out = Value::tuple(std::move(vals));
    return true;
  }

  std::string_view doc_;
  size_t at_ = 0;
};

JsonResult<Value> read_value(std::string_view json, const Type* t, const ValueIndex& index) {
  return util::run_deep([&](const util::StackBudget& budget) {
    JsonResult<Value> r;
    ReadCtx cx{&index, budget};
    Reader rd(cx);
    Path path;
    if (!rd.unmarshal(json, 0, t, path, r.value)) r.error = std::move(rd.error);
    return r;
  });
}

// implied_type() with the [index] of [json], if any.
JsonResult<const Type*> read_implied_type(std::string_view json, const ValueIndex* index) {
  return util::run_deep([&](const util::StackBudget& budget) {
    JsonResult<const Type*> r;
    Decoder dec(json, 0, true, index);
    Tok tok;
    SyntaxErr e;
    const Type* t = nullptr;
    if (dec.token(tok, e)) t = implied_for_tok(tok, dec, budget, e);
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
  });
}

}  // namespace

// --- public API -----------------------------------------------------------------

std::string json_quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  uni::append_json_quoted(out, s);
  return out;
}

JsonResult<std::string> to_json(const Value& v, const Type* t) {
  return util::run_deep(
      [&](const util::StackBudget& budget) { return marshal_value(v, t, budget); });
}

std::optional<JsonError> append_json(std::string& out, const Value& v, const Type* t) {
  // A try that runs out of stack starts over: without what it wrote.
  size_t start = out.size();
  return util::run_deep([&](const util::StackBudget& budget) {
    out.resize(start);
    return marshal_value(v, t, out, budget);
  });
}

JsonResult<Value> from_json(std::string_view json, const Type* t) {
  JsonResult<Value> r;
  if (FastReader(json).read(t, r.value)) return r;
  return from_json_full(json, t);
}

JsonResult<Value> from_json_full(std::string_view json, const Type* t) {
  return read_value(json, t, ValueIndex(json));
}

JsonResult<const Type*> implied_type(std::string_view json) {
  // Reads no value twice: an index would not pay for itself.
  return read_implied_type(json, nullptr);
}

JsonResult<std::string> to_json_simple(const Value& v) { return to_json(v, v.type()); }

JsonResult<std::string> to_json_typed(const Value& v) {
  return util::run_deep([&](const util::StackBudget& budget) {
    JsonResult<std::string> r = marshal_value(v, v.type(), budget);
    if (!r.ok()) return r;
    std::string type_json, err;
    if (!write_type(v.type(), type_json, err, budget))
      return JsonResult<std::string>{"", JsonError{std::move(err), {}, -1}};
    r.value = "{\"value\":" + r.value + ",\"type\":" + type_json + "}";
    return r;
  });
}

bool from_json_simple_fast(std::string_view json, Value& out) {
  return FastReader(json).read_implied(out);
}

JsonResult<Value> from_json_simple(std::string_view json) {
  JsonResult<Value> r;
  if (from_json_simple_fast(json, r.value)) return r;
  return from_json_simple_full(json);
}

JsonResult<Value> from_json_simple_full(std::string_view json) {
  // One index serves both readings.
  ValueIndex index(json);
  JsonResult<const Type*> t = read_implied_type(json, &index);
  if (!t.ok()) return JsonResult<Value>{Value(), std::move(t.error)};
  return read_value(json, t.value, index);
}

JsonResult<std::string> type_to_json(const Type* t) {
  return util::run_deep([&](const util::StackBudget& budget) {
    JsonResult<std::string> r;
    std::string err;
    if (!write_type(t, r.value, err, budget)) {
      r.value.clear();
      r.error = JsonError{std::move(err), {}, -1};
    }
    return r;
  });
}

JsonResult<const Type*> type_from_json(std::string_view json) {
  ValueIndex index(json);
  return util::run_deep([&](const util::StackBudget& budget) {
    JsonResult<const Type*> r;
    SyntaxErr e;
    r.value = read_type(json, 0, ReadCtx{&index, budget}, e);
    if (!r.value) r.error = JsonError{e.msg, {}, e.offset};
    return r;
  });
}

}  // namespace hclvm
