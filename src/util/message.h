// The text of a diagnostic while the VM collects it. Most summaries and
// details are string literals, held as views; short text made at run time
// (a literal around a quoted name) is kept inline. Either way a failure
// inside try() or can(), which drops its diagnostics, leaves the heap
// alone. Longer text is owned. A Message made by literal() views text it
// does not own (a program's static diagnostics, an access's summary): the
// VM turns its pending diagnostics into Diagnostics before a run returns,
// and whatever keeps one longer must copy the text first.
#pragma once

#include "util/unicode.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

namespace hclvm::util {

class Message {
 public:
  // A part of concat(): [text] in double quotes, escaped as go_quote() does.
  struct Quoted {
    std::string_view text;
  };

  Message() = default;
  // A string literal: viewed, never copied.
  template <size_t N>
  Message(const char (&lit)[N]) : view_(lit, N - 1) {}  // NOLINT: implicit by design
  // Text made at run time: owned.
  Message(std::string text) : owned_(std::move(text)), kind_(Kind::Owned) {}  // NOLINT

  Message(const Message& o) : view_(o.view_), owned_(o.owned_), len_(o.len_), kind_(o.kind_) {
    std::memcpy(buf_.data(), o.buf_.data(), len_);
  }
  Message(Message&& o) noexcept
      : view_(o.view_), owned_(std::move(o.owned_)), len_(o.len_), kind_(o.kind_) {
    std::memcpy(buf_.data(), o.buf_.data(), len_);
  }
  Message& operator=(const Message& o) {
    if (this != &o) *this = Message(o);
    return *this;
  }
  Message& operator=(Message&& o) noexcept {
    view_ = o.view_, owned_ = std::move(o.owned_), len_ = o.len_, kind_ = o.kind_;
    std::memcpy(buf_.data(), o.buf_.data(), len_);
    return *this;
  }

  // A view of [text], which must live as long as the program does (a
  // named constant, never a buffer).
  static Message literal(std::string_view text) {
    Message m;
    m.view_ = text;
    return m;
  }

  // The concatenation of [parts] (string views and Quoted), inline when it fits.
  template <class... Parts>
  static Message concat(const Parts&... parts) {
    Message m;
    if ((part_size(parts) + ...) <= kInline) {
      m.kind_ = Kind::Inline;
      (m.append_inline(parts), ...);
    } else {
      m.kind_ = Kind::Owned;
      (m.append_owned(parts), ...);
    }
    return m;
  }

  std::string_view view() const {
    switch (kind_) {
      case Kind::Inline: return {buf_.data(), len_};
      case Kind::Owned: return owned_;
      case Kind::Literal: break;
    }
    return view_;
  }
  std::string str() const { return std::string(view()); }

 private:
  enum class Kind : uint8_t { Literal, Inline, Owned };
  static constexpr size_t kInline = 120;

  // Whether quoting [s] only wraps it in quotes.
  static bool plain(std::string_view s) {
    for (char c : s) {
      auto b = static_cast<unsigned char>(c);
      if (b < 0x20 || b >= 0x7F || c == '"' || c == '\\') return false;
    }
    return true;
  }
  // The bytes [p] adds inline; more than fit for a Quoted that needs escapes.
  static size_t part_size(std::string_view p) { return p.size(); }
  static size_t part_size(const Quoted& q) { return plain(q.text) ? q.text.size() + 2 : kInline + 1; }

  // concat() has checked that everything fits; the bound is for the compiler.
  void append_inline(std::string_view p) {
    size_t n = std::min(p.size(), kInline - len_);
    std::memcpy(buf_.data() + len_, p.data(), n);
    len_ = uint8_t(len_ + n);
  }
  void append_inline(const Quoted& q) {
    buf_[len_++] = '"';
    append_inline(q.text);
    buf_[len_++] = '"';
  }
  void append_owned(std::string_view p) { owned_ += p; }
  void append_owned(const Quoted& q) { owned_ += uni::go_quote(q.text); }

  std::string_view view_;
  std::string owned_;
  std::array<char, kInline> buf_;
  uint8_t len_ = 0;
  Kind kind_ = Kind::Literal;
};

}  // namespace hclvm::util
