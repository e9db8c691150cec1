// Go's encoding/json, the parts cty reads values and types with: the
// byte-level scanner (its states and error messages), where each array and
// object of a document ends (ValueIndex), string unquoting, and
// json.Decoder's token stream (Token, More, and Decode into a raw slice).
// value/json.cpp builds cty's readers on it. The scanner and the decoder
// are defined here, inline, since they run once per byte.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hclvm::gojson {

inline bool is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// How deeply Go's scanner lets arrays and objects nest in one value.
constexpr size_t kMaxNestingDepth = 10000;

// Returns byte [c] as Go's json package quotes it in messages ('x', '\n').
std::string quote_char(unsigned char c);

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


// Returns the text of the scanned string literal [lit] (quotes included),
// as Go's unquoteBytes decodes it: escapes resolved, surrogate pairs joined,
// lone surrogates and invalid UTF-8 bytes replaced by U+FFFD.
std::string unquote(std::string_view lit);

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

}  // namespace hclvm::gojson
