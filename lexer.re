// The scanner of the native syntax: turns bytes into the reference scanner's
// tokens (hclsyntax/scan_tokens.rl), the same kinds with the same byte spans.
//
// The reference is a Ragel scanner with five machines: main (expressions and
// bodies), stringTemplate (inside "..."), heredocTemplate, bareTemplate (a
// standalone template) and identOnly. `"`, `<<EOT`, `${` and `%{` call
// another machine and the matching end returns, so the modes form a stack,
// kept here on the heap so that deep nesting cannot overflow the C++ stack.
// Each mode is one re2c block; like Ragel, re2c takes the longest match and,
// on a tie, the first rule.
//
// What the reference does that a plain lexer would not, and this one copies:
//  - A `}` in main closes a template sequence only when the brace depth equals
//    the depth its `${`/`%{` opened at (retBraces); otherwise it is CBrace.
//    `~}` is always TemplateSeqEnd. The depth may go negative.
//  - `$` or `%` not followed by `{` is a one-byte literal: the reference
//    matches the next byte too and then steps back over it (`fhold`), which
//    counts for the longest match and, in heredocs and bare templates, lets a
//    literal end with that byte when a newline follows. `"$" / [^{]` (a
//    trailing context) reproduces both.
//  - A heredoc line ending in a newline is checked against the closing marker
//    only when it started at the beginning of a line; a match gives CHeredoc
//    (without the newline) and a separate Newline.
//  - When no rule matches at all (a lone CR in a heredoc or bare template,
//    or `$`/`%` at the end of one), the reference gives up: one Invalid token
//    (StringLit in a top-level bare template) runs to the end of the input.
//  - Identifier characters are the byte sequences of ident_utf8.re, which
//    are wider than UTF-8 (see scripts/gen_ident_tables.mjs).
// A leading UTF-8 BOM is skipped; spans stay offsets into the original bytes.
#include "syntax/token.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace hclvm::syntax {
namespace {

// The Ragel machines; the back of the stack is the one running.
enum class Mode : uint8_t { Main, Quoted, Heredoc, Bare, IdentOnly };

// A heredoc being scanned: where its marker is in the buffer, and whether the
// next literal starts a line (only such a line can close it).
struct Heredoc {
  uint32_t marker_begin, marker_end;
  bool start_of_line;
};

using Cursor = const unsigned char*;

// Reports whether [p] (before [end]) starts with the UTF-8 encoding of a
// white-space code point other than ASCII, and returns its length, or 0.
size_t unicode_space_at(Cursor p, Cursor end) {
  size_t n = size_t(end - p);
  if (n >= 2 && p[0] == 0xC2 && (p[1] == 0x85 || p[1] == 0xA0)) return 2;
  if (n < 3) return 0;
  if (p[0] == 0xE1 && p[1] == 0x9A && p[2] == 0x80) return 3;  // U+1680
  if (p[0] == 0xE2 && p[1] == 0x80 &&
      (p[2] <= 0x8A || p[2] == 0xA8 || p[2] == 0xA9 || p[2] == 0xAF) && p[2] >= 0x80)
    return 3;                                                  // U+2000-200A, 2028, 2029, 202F
  if (p[0] == 0xE2 && p[1] == 0x81 && p[2] == 0x9F) return 3;  // U+205F
  if (p[0] == 0xE3 && p[1] == 0x80 && p[2] == 0x80) return 3;  // U+3000
  return 0;
}

// Reports whether [c] is an ASCII byte Go's unicode.IsSpace accepts.
bool ascii_space(unsigned char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

// Returns the length of the white-space code point that ends just before
// [end] (not before [begin]), or 0; decodes backwards the way Go does.
size_t space_before(Cursor begin, Cursor end) {
  if (end == begin) return 0;
  if (ascii_space(end[-1])) return 1;
  for (size_t len = 2; len <= 3 && size_t(end - begin) >= len; ++len)
    if (unicode_space_at(end - len, end) == len) return len;
  return 0;
}

// Reports whether the bytes [b, e) equal [marker] once the white space
// Go's bytes.TrimSpace removes is trimmed from both ends.
bool is_closing_marker(Cursor b, Cursor e, std::string_view marker) {
  for (;;) {
    if (b < e && ascii_space(*b)) { ++b; continue; }
    size_t n = b < e ? unicode_space_at(b, e) : 0;
    if (n == 0) break;
    b += n;
  }
  while (size_t n = space_before(b, e)) e -= n;
  return size_t(e - b) == marker.size() && std::memcmp(b, marker.data(), marker.size()) == 0;
}

class Lexer {
 public:
  // Prepares to scan [src] in [mode].
  Lexer(std::string_view src, ScanMode mode) : buf_(src) {
    out_.reserve(src.size() / 4 + 16);
    modes_.reserve(16);
    modes_.push_back(mode == ScanMode::Normal     ? Mode::Main
                     : mode == ScanMode::Template ? Mode::Bare
                                                  : Mode::IdentOnly);
    template_mode_ = mode == ScanMode::Template;
  }

  // Scans everything and returns the tokens, ending with EOF_.
  Tokens run();

 private:
  // Appends a token of kind [t] for the bytes [b, e).
  void emit(Tok t, Cursor b, Cursor e) {
    if (out_.size() == out_.capacity()) grow();
    out_.push_back(Token{t, {uint32_t(b - base()), uint32_t(e - base())}});
  }
  // Makes room for more tokens than the first guess (a quarter of the
  // bytes). Nearly every token takes a byte, so one step to the size of the
  // input (at most four times the room) is the last: doubling instead would
  // copy a dense file's tokens twice, each copy resident beside its source.
  void grow() {
    size_t cap = out_.capacity();
    out_.reserve(std::max(cap + 16, std::min(buf_.size() + 16, 4 * cap)));
  }
  // Returns the first byte of the input: spans are offsets from it.
  Cursor base() const { return reinterpret_cast<Cursor>(buf_.data()); }

  // `${` or `%{` (kind [t], bytes [b, e)) opens a sequence: scan main until
  // the `}` at this brace depth.
  void open_sequence(Tok t, Cursor b, Cursor e) {
    emit(t, b, e);
    ++braces_;
    ret_braces_.push_back(braces_);
    if (!heredocs_.empty()) heredocs_.back().start_of_line = false;
    modes_.push_back(Mode::Main);
  }

  // `}` ([tilde] false) or `~}` at [b, e) in main: closes the innermost
  // template sequence when the brace depth is the one it opened at.
  void close_brace(bool tilde, Cursor b, Cursor e) {
    if (!ret_braces_.empty() && ret_braces_.back() == braces_) {
      emit(Tok::TemplateSeqEnd, b, e);
      --braces_;
      ret_braces_.pop_back();
      modes_.pop_back();
      return;
    }
    emit(tilde ? Tok::TemplateSeqEnd : Tok::CBrace, b, e);
    --braces_;
  }

  // `<<EOT` or `<<-EOT` with its newline at [b, e): remembers the marker and
  // scans the heredoc's body.
  void open_heredoc(Cursor b, Cursor e) {
    emit(Tok::OHeredoc, b, e);
    Cursor mb = b + 2, me = e - 1;
    if (*mb == '-') ++mb;
    if (me[-1] == '\r') --me;
    heredocs_.push_back({uint32_t(mb - base()), uint32_t(me - base()), true});
    modes_.push_back(Mode::Heredoc);
  }

  // A heredoc literal [b, e) that the reference matched up to a newline:
  // either the closing marker line or an ordinary line.
  void heredoc_line(Cursor b, Cursor e) {
    Heredoc& doc = heredocs_.back();
    if (doc.start_of_line) {
      std::string_view marker(buf_.data() + doc.marker_begin, doc.marker_end - doc.marker_begin);
      if (is_closing_marker(b, e, marker)) {
        // The newline is its own token, so that it still ends an attribute.
        Cursor nl = e - 1;
        Cursor end = nl;
        if (end[-1] == '\r') --nl, --end;
        emit(Tok::CHeredoc, b, end);
        emit(Tok::Newline, nl, e);
        heredocs_.pop_back();
        modes_.pop_back();
        return;
      }
    }
    doc.start_of_line = true;
    emit(Tok::StringLit, b, e);
  }

  // A heredoc literal [b, e) that does not end a line.
  void heredoc_midline(Cursor b, Cursor e) {
    heredocs_.back().start_of_line = false;
    emit(Tok::StringLit, b, e);
  }

  std::string_view buf_;  // the source; not NUL-terminated (see YYPEEK)
  Tokens out_;
  std::vector<Mode> modes_;
  std::vector<int> ret_braces_;  // brace depths at which `}` closes a sequence
  std::vector<Heredoc> heredocs_;
  int braces_ = 0;
  bool template_mode_ = false;
};

// The input need not end in a NUL, so every read is bounds-checked: past the
// end it yields the sentinel 0, and re2c:eof tells a real NUL from the end.
// (Copying the input behind a sentinel costs about as much, and memory.)
/*!re2c
  re2c:api = custom;
  re2c:api:style = free-form;
  re2c:define:YYCTYPE = "unsigned char";
  re2c:define:YYPEEK = "(cur < lim ? *cur : 0)";
  re2c:define:YYSKIP = "++cur;";
  re2c:define:YYBACKUP = "mar = cur;";
  re2c:define:YYRESTORE = "cur = mar;";
  re2c:define:YYBACKUPCTX = "ctx = cur;";
  re2c:define:YYRESTORECTX = "cur = ctx;";
  re2c:define:YYLESSTHAN = "lim <= cur";
  re2c:define:YYSHIFT = "cur += @@;";
  re2c:yyfill:enable = 0;
  re2c:eof = 0;
  re2c:indent:top = 2;

  Cont      = [\x80-\xBF];
  MultiByte = [\xC0-\xDF] Cont | [\xE0-\xEF] Cont Cont | [\xF0-\xF7] Cont Cont Cont;
  AnyUTF8   = [\x00-\x7F] | MultiByte;
  Broken    = [\x80-\xFF];

  Newline   = "\r"? "\n";
  Spaces    = [ \t]+;

  NumberCont = [0-9] | "." | [eE] [+-]? [0-9];
  NumberLit  = [0-9] (NumberCont* ([0-9] | [eE] [+-]? [0-9]))?;

  Comment = "#" [^\n]* "\n"?
          | "//" [^\n]* "\n"?
          | "/*" ([^*] | "*"+ [^*/])* "*"+ "/";

  // Literal text: any character but CR and LF; in heredocs and bare
  // templates also not `$` or `%` (they start sequences or escapes).
  HereChar   = [^$%\r\n\x80-\xFF] | MultiByte;
  QuotedChar = "\\" ([^\r\n\x80-\xFF] | MultiByte) | [^"$%\\\r\n\x80-\xFF] | MultiByte;
  Interp     = "${" "~"?;
  Control    = "%{" "~"?;
  Escape     = "$$" "{" "~"? | "%%" "{" "~"?;
*/
/*!include:re2c "ident_utf8.re" */
/*!re2c
  Ident = (ID_Start | "_") (ID_Continue | "-")*;
*/

Tokens Lexer::run() {
  Cursor lim = base() + buf_.size();
  Cursor cur = base();
  Cursor mar = cur, ctx = cur;
  if (buf_.size() >= 3 && cur[0] == 0xEF && cur[1] == 0xBB && cur[2] == 0xBF) cur += 3;
  Cursor ts = cur;
  (void)ctx;

  // Each mode loops on its own label; an action that changes the mode goes
  // back to the dispatch.
  for (;;) {
    switch (modes_.back()) {
      case Mode::Main:
      main_mode:
        ts = cur;
        /*!local:re2c
          Spaces    { goto main_mode; }
          NumberLit { emit(Tok::NumberLit, ts, cur); goto main_mode; }
          Ident     { emit(Tok::Ident, ts, cur); goto main_mode; }
          Comment   { emit(Tok::Comment, ts, cur); goto main_mode; }
          Newline   { emit(Tok::Newline, ts, cur); goto main_mode; }

          "=="  { emit(Tok::EqualOp, ts, cur); goto main_mode; }
          "!="  { emit(Tok::NotEqual, ts, cur); goto main_mode; }
          ">="  { emit(Tok::GreaterThanEq, ts, cur); goto main_mode; }
          "<="  { emit(Tok::LessThanEq, ts, cur); goto main_mode; }
          "&&"  { emit(Tok::And, ts, cur); goto main_mode; }
          "||"  { emit(Tok::Or, ts, cur); goto main_mode; }
          "::"  { emit(Tok::DoubleColon, ts, cur); goto main_mode; }
          "..." { emit(Tok::Ellipsis, ts, cur); goto main_mode; }
          "=>"  { emit(Tok::FatArrow, ts, cur); goto main_mode; }

          "["   { emit(Tok::OBrack, ts, cur); goto main_mode; }
          "]"   { emit(Tok::CBrack, ts, cur); goto main_mode; }
          "("   { emit(Tok::OParen, ts, cur); goto main_mode; }
          ")"   { emit(Tok::CParen, ts, cur); goto main_mode; }
          "."   { emit(Tok::Dot, ts, cur); goto main_mode; }
          ","   { emit(Tok::Comma, ts, cur); goto main_mode; }
          "*"   { emit(Tok::Star, ts, cur); goto main_mode; }
          "/"   { emit(Tok::Slash, ts, cur); goto main_mode; }
          "%"   { emit(Tok::Percent, ts, cur); goto main_mode; }
          "+"   { emit(Tok::Plus, ts, cur); goto main_mode; }
          "-"   { emit(Tok::Minus, ts, cur); goto main_mode; }
          "="   { emit(Tok::Equal, ts, cur); goto main_mode; }
          "<"   { emit(Tok::LessThan, ts, cur); goto main_mode; }
          ">"   { emit(Tok::GreaterThan, ts, cur); goto main_mode; }
          "!"   { emit(Tok::Bang, ts, cur); goto main_mode; }
          "?"   { emit(Tok::Question, ts, cur); goto main_mode; }
          ":"   { emit(Tok::Colon, ts, cur); goto main_mode; }
          "&"   { emit(Tok::BitwiseAnd, ts, cur); goto main_mode; }
          "|"   { emit(Tok::BitwiseOr, ts, cur); goto main_mode; }
          "~"   { emit(Tok::BitwiseNot, ts, cur); goto main_mode; }
          "^"   { emit(Tok::BitwiseXor, ts, cur); goto main_mode; }
          ";"   { emit(Tok::Semicolon, ts, cur); goto main_mode; }
          "`"   { emit(Tok::Backtick, ts, cur); goto main_mode; }
          "'"   { emit(Tok::Apostrophe, ts, cur); goto main_mode; }

          "{"   { emit(Tok::OBrace, ts, cur); ++braces_; goto main_mode; }
          "}"   { close_brace(false, ts, cur); continue; }
          "~}"  { close_brace(true, ts, cur); continue; }

          "\""                     { emit(Tok::OQuote, ts, cur); modes_.push_back(Mode::Quoted); continue; }
          "<<" "-"? Ident Newline  { open_heredoc(ts, cur); continue; }

          Broken  { emit(Tok::BadUTF8, ts, cur); goto main_mode; }
          AnyUTF8 { emit(Tok::Invalid, ts, cur); goto main_mode; }
          $       { break; }
          *       { goto stuck; }
        */

      case Mode::Quoted:
      quoted_mode:
        ts = cur;
        /*!local:re2c
          Interp       { open_sequence(Tok::TemplateInterp, ts, cur); continue; }
          Control      { open_sequence(Tok::TemplateControl, ts, cur); continue; }
          "\""         { emit(Tok::CQuote, ts, cur); modes_.pop_back(); continue; }
          "$" / [^{]   { emit(Tok::QuotedLit, ts, cur); goto quoted_mode; }
          "%" / [^{]   { emit(Tok::QuotedLit, ts, cur); goto quoted_mode; }
          Escape       { emit(Tok::QuotedLit, ts, cur); goto quoted_mode; }
          QuotedChar+  { emit(Tok::QuotedLit, ts, cur); goto quoted_mode; }
          [\r\n]+      { emit(Tok::QuotedNewline, ts, cur); goto quoted_mode; }
          Broken       { emit(Tok::BadUTF8, ts, cur); goto quoted_mode; }
          AnyUTF8      { emit(Tok::Invalid, ts, cur); goto quoted_mode; }
          $            { break; }
          *            { goto stuck; }
        */

      case Mode::Heredoc:
      heredoc_mode:
        ts = cur;
        /*!local:re2c
          Interp                 { open_sequence(Tok::TemplateInterp, ts, cur); continue; }
          Control                { open_sequence(Tok::TemplateControl, ts, cur); continue; }
          HereChar* Newline      { heredoc_line(ts, cur); continue; }
          Escape Newline         { heredoc_line(ts, cur); continue; }
          HereChar+              { heredoc_midline(ts, cur); goto heredoc_mode; }
          Escape                 { heredoc_midline(ts, cur); goto heredoc_mode; }
          // The reference steps back over the byte after `$`, so a newline
          // after it is matched twice: as LF it ends the literal, as CR it
          // cannot be followed by LF the second time round.
          [$%] [^{] / "\n"       { heredoc_line(ts, cur); continue; }
          [$%] [^{] / "\r"       { heredoc_midline(ts, cur); goto heredoc_mode; }
          [$%] / [^{]            { heredoc_midline(ts, cur); goto heredoc_mode; }
          Broken                 { emit(Tok::BadUTF8, ts, cur); goto heredoc_mode; }
          $                      { break; }
          *                      { goto stuck; }
        */

      case Mode::Bare:
      bare_mode:
        ts = cur;
        /*!local:re2c
          Interp                 { open_sequence(Tok::TemplateInterp, ts, cur); continue; }
          Control                { open_sequence(Tok::TemplateControl, ts, cur); continue; }
          HereChar+ Newline?     { emit(Tok::StringLit, ts, cur); goto bare_mode; }
          Newline                { emit(Tok::StringLit, ts, cur); goto bare_mode; }
          Escape Newline?        { emit(Tok::StringLit, ts, cur); goto bare_mode; }
          [$%] [^{] / [\r\n]     { emit(Tok::StringLit, ts, cur); goto bare_mode; }
          [$%] / [^{]            { emit(Tok::StringLit, ts, cur); goto bare_mode; }
          Broken                 { emit(Tok::BadUTF8, ts, cur); goto bare_mode; }
          $                      { break; }
          *                      { goto stuck; }
        */

      case Mode::IdentOnly:
      ident_mode:
        ts = cur;
        /*!local:re2c
          Ident    { emit(Tok::Ident, ts, cur); goto ident_mode; }
          Broken   { emit(Tok::BadUTF8, ts, cur); goto ident_mode; }
          AnyUTF8  { emit(Tok::Invalid, ts, cur); goto ident_mode; }
          $        { break; }
          *        { goto stuck; }
        */
    }
    break;

  stuck:
    // Nothing matches at [ts]: the reference stops here and reports the rest
    // as one token.
    emit(template_mode_ && modes_.size() == 1 ? Tok::StringLit : Tok::Invalid, ts, lim);
    break;
  }

  emit(Tok::EOF_, lim, lim);
  return std::move(out_);
}

}  // namespace

Tokens scan(std::string_view src, ScanMode mode) {
  return Lexer(src, mode).run();
}

}  // namespace hclvm::syntax
