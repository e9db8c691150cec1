// Terraform's rewrites (terraform.h). Each rewrite is an edit: a run of the
// scanner's tokens replaced by other tokens, kept ones or made-up ones. The
// edits never overlap (labels, attribute values and nested blocks are
// disjoint runs) and are applied in one pass once the tree has been walked.
#include "format/terraform.h"

#include "util/unicode.h"

#include <algorithm>

namespace hclvm::format {

using syntax::Tok;
using syntax::Token;

uint32_t token_at(std::span<const Token> toks, uint32_t offset) {
  auto it = std::lower_bound(toks.begin(), toks.end(), offset,
                             [](const Token& t, uint32_t off) { return t.span.begin < off; });
  return uint32_t(it - toks.begin());
}

uint32_t token_at(std::span<const Token> toks, uint32_t offset, uint32_t& hint) {
  const uint32_t n = uint32_t(toks.size());
  const uint32_t h = std::min(hint, n);
  // The answer lies in [lo, hi]: every token before lo starts before
  // [offset], the token at hi (if any) at or after it. Found by steps that
  // double away from the hint, then a binary search between.
  uint32_t lo, hi;
  if (h < n && toks[h].span.begin < offset) {
    lo = hi = h + 1;
    for (uint32_t step = 1; hi < n && toks[hi].span.begin < offset; step *= 2) {
      lo = hi + 1;
      hi = uint32_t(std::min<uint64_t>(n, uint64_t(hi) + step));
    }
  } else {
    lo = hi = h;
    for (uint32_t step = 1; lo > 0 && toks[lo - 1].span.begin >= offset; step *= 2) {
      hi = lo - 1;
      lo = lo > step ? lo - step : 0;
    }
  }
  hint = token_at(toks.subspan(lo, hi - lo), offset) + lo;
  return hint;
}

std::string quote_label(std::string_view label) {
  std::string out = "\"";
  std::string s = uni::nfc(label);  // cty.StringVal normalizes
  for (size_t i = 0; i < s.size();) {
    uni::Rune r = uni::decode(s, i);
    char32_t c = r.ok ? r.cp : 0xFFFD;
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '$':
      case '%':
        out += char(c);
        if (i + 1 < s.size() && s[i + 1] == '{') out += char(c);
        break;
      default:
        if (!uni::is_print(c)) {
          out += c < 0x10000 ? "\\u" : "\\U";
          uni::append_hex(out, uint32_t(c), c < 0x10000 ? 4 : 8);
        } else {
          uni::append_utf8(out, c);
        }
    }
    i += r.ok ? r.len : 1;
  }
  out += '"';
  return out;
}

namespace {

// Tokens [first, end) replaced by the tokens [repl_begin, repl_end) of the
// rewriter's replacement list.
struct Edit {
  uint32_t first, end;
  uint32_t repl_begin, repl_end;
};

class Rewriter {
 public:
  Rewriter(std::string_view src, std::span<const Token> toks, std::string& extra)
      : src_(src), toks_(toks), extra_(extra) {}

  // Walks [b], the body of a block of type [parent] at [depth] (0: the file).
  void body(const ast::Body& b, int depth, std::string_view parent) {
    for (const ast::Attribute* a : b.attributes) {
      bool type = depth == 1 && parent == "variable" && a->name == "type";
      // Only a lone interpolation, which the parser makes a TemplateWrap,
      // can pass value_expr's test: other values need no token look-up.
      if (!type && a->expr->kind != ast::ExprKind::TemplateWrap) continue;
      uint32_t first = at(a->expr->span.begin), end = at(a->expr->span.end);
      if (type)
        type_expr(first, end);
      else
        value_expr(first, end);
    }
    for (const ast::Block* blk : b.blocks) {
      labels(*blk);
      if (blk->body) body(*blk->body, depth + 1, blk->type);
    }
  }

  std::vector<Edit>& edits() { return edits_; }
  const std::vector<Token>& repl() const { return repl_; }

 private:
  // Starts an edit of tokens [first, end); the tokens pushed until the
  // next edit replace them.
  void edit(uint32_t first, uint32_t end) {
    edits_.push_back(Edit{first, end, uint32_t(repl_.size()), uint32_t(repl_.size())});
  }
  // Appends [t] to the replacement of the current edit.
  void put(Token t) {
    repl_.push_back(t);
    edits_.back().repl_end = uint32_t(repl_.size());
  }

  // Returns a made-up token of kind [t] with [bytes].
  Token make(Tok t, std::string_view bytes) {
    uint32_t b = uint32_t(src_.size() + extra_.size());
    extra_ += bytes;
    return Token{t, {b, b + uint32_t(bytes.size())}};
  }

  // token_at for [offset], searched from the last one found: the walk
  // goes through the file in order, so each search is a few steps.
  uint32_t at(uint32_t offset) { return token_at(toks_, offset, at_); }

  // Returns the bytes of token [i].
  std::string_view text(uint32_t i) const {
    return src_.substr(toks_[i].span.begin, toks_[i].span.end - toks_[i].span.begin);
  }

  // Unwraps the value [first, end) when it is one interpolation
  // (formatValueExpr).
  void value_expr(uint32_t first, uint32_t end) {
    if (end - first < 5) return;
    if (toks_[first].type != Tok::OQuote || toks_[first + 1].type != Tok::TemplateInterp ||
        toks_[end - 2].type != Tok::TemplateSeqEnd || toks_[end - 1].type != Tok::CQuote)
      return;
    uint32_t s = first + 2, e = end - 2;
    int quotes = 0;
    for (uint32_t i = s; i < e; ++i) {
      Tok t = toks_[i].type;
      if (t == Tok::OQuote) { ++quotes; continue; }
      if (t == Tok::CQuote) { --quotes; continue; }
      if (quotes > 0) continue;  // inside a nested string: "${f("${x}")}"
      if (t == Tok::TemplateInterp || t == Tok::TemplateSeqEnd || t == Tok::QuotedLit) return;
    }
    while (s < e && toks_[s].type == Tok::Newline) ++s;
    while (e > s && toks_[e - 1].type == Tok::Newline) --e;
    bool multi = false, leading = false, trailing = false;
    for (uint32_t i = s; i < e; ++i) {
      Tok t = toks_[i].type;
      if (i == s && t == Tok::OParen) leading = true;
      else if (t == Tok::Newline) multi = true;
      else if (i == e - 1 && t == Tok::CParen) trailing = true;
    }
    edit(first, end);
    bool wrap = multi && !(leading && trailing);
    if (wrap) put(make(Tok::OParen, "("));
    for (uint32_t i = s; i < e; ++i) put(toks_[i]);
    if (wrap) put(make(Tok::CParen, ")"));
  }

  // Rewrites a variable's type [first, end) (formatTypeExpr).
  void type_expr(uint32_t first, uint32_t end) {
    if (end - first == 1 && toks_[first].type == Tok::Ident) {
      std::string_view kw = text(first);
      if (kw != "list" && kw != "map" && kw != "set") return;
      edit(first, end);
      for (Token t : {toks_[first], make(Tok::OParen, "("), make(Tok::Ident, "any"), make(Tok::CParen, ")")}) put(t);
      return;
    }
    if (end - first != 3 || toks_[first].type != Tok::OQuote || toks_[first + 1].type != Tok::QuotedLit ||
        toks_[first + 2].type != Tok::CQuote)
      return;
    std::string_view lit = text(first + 1);
    if (lit == "string") {
      edit(first, end);
      put(make(Tok::Ident, "string"));
    } else if (lit == "list" || lit == "map") {
      edit(first, end);
      for (Token t : {make(Tok::Ident, lit), make(Tok::OParen, "("), make(Tok::Ident, "string"), make(Tok::CParen, ")")})
        put(t);
    }
  }

  // Makes the labels of [blk] again (Block.SetLabels(Block.Labels())).
  void labels(const ast::Block& blk) {
    uint32_t n = blk.labels.size;
    if (n == 0) return;
    uint32_t first = at(blk.type_span.end), end = at(blk.label_spans[n - 1].end);
    if (unchanged_labels(first, end, n)) return;
    edit(first, end);
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t a = at(blk.label_spans[i].begin), b = at(blk.label_spans[i].end);
      std::string_view value;
      if (b - a == 1 && toks_[a].type == Tok::Ident) {
        value = text(a);
      } else if ((b - a == 3 && toks_[a].type == Tok::OQuote && toks_[a + 1].type == Tok::QuotedLit &&
                  toks_[a + 2].type == Tok::CQuote) ||
                 (b - a == 2 && toks_[a].type == Tok::OQuote && toks_[a + 1].type == Tok::CQuote)) {
        value = blk.labels[i];
      } else {
        continue;  // hclwrite reads no value from a split literal: the label is dropped
      }
      std::string quoted = quote_label(value);
      put(make(Tok::OQuote, "\""));
      if (quoted.size() > 2) put(make(Tok::QuotedLit, std::string_view(quoted).substr(1, quoted.size() - 2)));
      put(make(Tok::CQuote, "\""));
    }
  }

  // Reports whether tokens [first, end) are [n] quoted labels, one after
  // the other, that come out of quote_label as they are: plain printable
  // ASCII without escapes or template introducers. Their rewrite would
  // give the same tokens, which the layout spaces anyway: most labels.
  bool unchanged_labels(uint32_t first, uint32_t end, uint32_t n) const {
    if (end - first != 3 * n) return false;
    for (uint32_t i = first; i < end; i += 3) {
      if (toks_[i].type != Tok::OQuote || toks_[i + 1].type != Tok::QuotedLit || toks_[i + 2].type != Tok::CQuote)
        return false;
      for (char c : text(i + 1))
        if (c < 0x20 || c > 0x7e || c == '\\' || c == '"' || c == '$' || c == '%') return false;
    }
    return true;
  }

  std::string_view src_;
  uint32_t at_ = 0;  // the last token at() found
  std::span<const Token> toks_;
  std::string& extra_;
  std::vector<Edit> edits_;
  std::vector<Token> repl_;
};

}  // namespace

bool terraform_rewrite(std::string_view src, std::span<const Token> toks, const ast::Body& body,
                       syntax::Tokens& out, Spaces& out_spaces, std::string& extra) {
  Rewriter rw(src, toks, extra);
  rw.body(body, 0, {});
  std::vector<Edit>& edits = rw.edits();
  out.clear();
  const uint32_t last_spaces =
      toks.back().span.begin - (toks.size() > 1 ? toks[toks.size() - 2].span.end : 0);
  if (edits.empty()) {  // most files: no copy of their tokens
    out_spaces.assign(toks.size(), 0);
    out_spaces.back() = last_spaces;
    return false;
  }
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.first < b.first; });
  const std::vector<Token>& repl = rw.repl();
  out.reserve(toks.size() + repl.size());
  uint32_t i = 0;
  for (const Edit& e : edits) {
    out.insert(out.end(), toks.begin() + i, toks.begin() + e.first);
    out.insert(out.end(), repl.begin() + e.repl_begin, repl.begin() + e.repl_end);
    i = e.end;
  }
  out.insert(out.end(), toks.begin() + i, toks.end());
  // Only the last token's spaces matter: the layout sets all the others.
  out_spaces.assign(out.size(), 0);
  out_spaces.back() = last_spaces;
  return true;
}

}  // namespace hclvm::format
