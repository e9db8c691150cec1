// The recovering parser: a recursive-descent parser that takes, token for
// token, the decisions of the reference parser (hclsyntax parser.go,
// parser_template.go and parser_traversal.go, newest release). It runs only
// when the Bison fast path could not build a clean tree, so it is tuned for
// fidelity, not speed: every diagnostic the reference emits is emitted here
// with the same summary, detail, subject and context, in the same order,
// including the sticky `recovery_` flag that silences follow-on errors once
// the parser has skipped tokens, and the same token skipping in recover()
// and recover_after_body_item().
//
// Like the reference, the parser reads tokens through a peeker whose stack of
// "include newlines" flags decides whether newlines (and line comments, which
// end with their newline) are significant; comments are otherwise skipped.
//
// All diagnostics go to one vector; "did this sub-parse fail" is answered by
// comparing its length before and after (every parser diagnostic is an
// error). The Builder reports escape errors, template nesting errors and
// chained legacy indexes on its own list; they are moved into place where
// the reference would have reported them.
//
// The reference recurses once or more per nesting level, and so does this
// parser. Hostile input nests 100,000 levels deep (the reference then dies
// of a stack overflow); here the first try runs on the caller's thread with
// a small stack budget, and input that exceeds it is parsed again from the
// start on a thread with a big stack. Either way the parser goes no deeper
// than kMaxParseDepth recursive steps, a depth at which every tree it could
// build would be cut by the nesting limit anyway (nesting.h): past it, the
// nesting is reported once and each deeper construct is skipped without
// descending into it, so time and stack stay linear in the input and
// bounded, however it nests.
#include "syntax/recover.h"

#include <hclvm/syntax.h>

#include "util/stack.h"
#include "util/unicode.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace hclvm::syntax {

namespace {

// Returns the range from the start of [a] to the end of [b], as the
// reference's hcl.RangeBetween does (no reordering).
Span between(Span a, Span b) { return Span{a.begin, b.end}; }

// How many recursive steps (expressions, terms, bodies, splats) may be open
// at once. A level of nesting in the tree costs at most two of them (a term
// and the expression inside it), so any tree within kMaxNesting parses in
// full; the slack covers the steps above the first level.
constexpr uint32_t kMaxParseDepth = 2 * kMaxNesting + 64;

// Returns the first of [options] within edit distance 2 of [given], or "".
std::string_view name_suggestion(std::string_view given, std::initializer_list<std::string_view> options) {
  for (std::string_view o : options)
    if (uni::levenshtein_below(given, o, 3) < 3) return o;
  return {};
}

// The binary operators with their precedence levels (binary_ops.def: 1 is
// the loosest, as the reference's binaryOps table), and the number of
// levels.
struct OpEntry {
  int level;
  Tok tok;
  BinaryOp op;
};
constexpr OpEntry kBinaryOps[] = {
#define BINARY_OP(level, tok, grammar_tok, op) {level, Tok::tok, BinaryOp::op},
#include "syntax/binary_ops.def"
#undef BINARY_OP
};
constexpr int kLevels = [] {
  int n = 0;
  for (const OpEntry& e : kBinaryOps) n = e.level > n ? e.level : n;
  return n;
}();

// Returns the bracket token that pairs with [t], or Nil.
Tok opposite_bracket(Tok t) {
  switch (t) {
    case Tok::OBrace: return Tok::CBrace;
    case Tok::OBrack: return Tok::CBrack;
    case Tok::OParen: return Tok::CParen;
    case Tok::OQuote: return Tok::CQuote;
    case Tok::OHeredoc: return Tok::CHeredoc;
    case Tok::CBrace: return Tok::OBrace;
    case Tok::CBrack: return Tok::OBrack;
    case Tok::CParen: return Tok::OParen;
    case Tok::CQuote: return Tok::OQuote;
    case Tok::CHeredoc: return Tok::OHeredoc;
    case Tok::TemplateControl:
    case Tok::TemplateInterp: return Tok::TemplateSeqEnd;
    // Ambiguous; recover() expects the interpolation opener.
    case Tok::TemplateSeqEnd: return Tok::TemplateInterp;
    default: return Tok::Nil;
  }
}

class Parser {
 public:
  // Diagnostics already on the Builder's list (say, from a fast-path attempt
  // with the same Builder) are not ours to report. The parser may use the
  // stack [budget] allows; beyond that a first try throws, and the last
  // try reports the nesting as an error.
  Parser(Builder& b, const Tokens& tokens, Diagnostics& diags, const util::StackBudget& budget)
      : b_(b), toks_(tokens), diags_(diags), seen_(b.diags().size()), budget_(budget) {}

  Body* config();
  Expr* expression();
  Expr* template_root();
  List<Traverser> traversal_abs();
  List<Traverser> traversal_rel();

 private:
  // One body item: at most one of the two is set.
  struct Item {
    Attribute* attr = nullptr;
    Block* block = nullptr;
  };

  // A literal part of a template being collected, remembered so that the
  // Builder's escape diagnostics can be put back where the reference reports
  // them (while it reads that token).
  struct LitAt {
    Span span;
    size_t diag_pos;
  };

  // --- peeker ---------------------------------------------------------------
  Token next_token(size_t* index) const;
  Token peek() const { return next_token(nullptr); }
  Token read() { return next_token(&next_); }
  Span next_span() const { return peek().span; }
  Span prev_span() const { return next_ == 0 ? next_span() : toks_[next_ - 1].span; }
  void push_newlines(bool include) { nl_.push_back(include); }
  void pop_newlines() { nl_.pop_back(); }
  std::string_view text(const Token& t) const { return b_.text(t.span); }
  bool is_keyword(const Token& t, std::string_view kw) const { return t.type == Tok::Ident && text(t) == kw; }

  // --- diagnostics -----------------------------------------------------------
  // Views, not strings, so that the many call sites in the recursive
  // functions do not each reserve stack for string temporaries.
  Diagnostic make(std::string_view summary, std::string_view detail, Span subject, const Span* context) const;
  Diagnostic make(std::string_view summary, std::string_view detail, Span subject) const {
    return make(summary, detail, subject, nullptr);
  }
  Diagnostic make(std::string_view summary, std::string_view detail, Span subject, Span context) const {
    return make(summary, detail, subject, &context);
  }
  void error(std::string_view summary, std::string_view detail, Span subject) {
    diags_.push_back(make(summary, detail, subject, nullptr));
  }
  void error(std::string_view summary, std::string_view detail, Span subject, Span context) {
    diags_.push_back(make(summary, detail, subject, &context));
  }
  bool errors_since(size_t mark) const { return diags_.size() > mark; }
  bool too_deep(Span at);
  Expr* skip_term(Token start);

  // Counts one recursive step of the parser while it is open.
  struct Descent {
    explicit Descent(Parser& p) : p_(p) { ++p_.depth_; }
    ~Descent() { --p_.depth_; }
    Descent(const Descent&) = delete;
    Descent& operator=(const Descent&) = delete;
    Parser& p_;
  };
  void take_builder_diags();
  void drop_builder_diags() { seen_ = b_.diags().size(); }

  // --- recovery --------------------------------------------------------------
  Token recover(Tok end);
  void recover_over(Tok start);
  void recover_after_body_item();

  // --- structure -------------------------------------------------------------
  Body* parse_body(Tok end);
  Item parse_body_item();
  Body* parse_single_attr_body();
  Attribute* finish_attribute(Token ident, bool single_line);
  Block* finish_block(Token ident);
  void close_single_line_block(Token ident, Token obrace, size_t body_mark);
  std::string_view parse_quoted_string_literal(Span* range);

  // --- expressions -----------------------------------------------------------
  Expr* parse_expression() { return parse_conditional(); }
  Expr* parse_conditional();
  Expr* parse_binary(int level);
  Expr* parse_with_traversals();
  Expr* parse_traversals(Expr* from);
  Expr* parse_term();
  bool check_number(const Token& tok);
  Expr* number(const Token& tok);
  Expr* finish_call(Token name);
  Expr* parse_tuple();
  Expr* parse_object();
  Expr* finish_for(Token open);

  // --- templates -------------------------------------------------------------
  TplResult parse_template_inner(Tok end, bool flush);
  TplResult assemble(std::vector<TplPart>& parts, const std::vector<LitAt>& lits, Span start, Span end,
                     bool flush);

  // --- traversals ------------------------------------------------------------
  bool traversal_steps(std::vector<Traverser>& out, Span anchor);

  Builder& b_;
  const Tokens& toks_;
  Diagnostics& diags_;
  size_t seen_;  // b_.diags() entries already moved or dropped
  const util::StackBudget& budget_;
  size_t next_ = 0;
  uint32_t depth_ = 0;  // open recursive steps (Descent)
  std::vector<bool> nl_{true};
  bool recovery_ = false;
};

// --- peeker ------------------------------------------------------------------

// Returns the next significant token and, when [index] is set, advances it
// past that token. Line comments end with their newline, so when newlines
// count they stand for a newline token with the comment's range.
Token Parser::next_token(size_t* index) const {
  bool newlines = nl_.back();
  for (size_t i = index ? *index : next_; i < toks_.size(); ++i) {
    const Token& t = toks_[i];
    if (t.type == Tok::Comment) {
      if (newlines && t.span.end > t.span.begin && b_.text(t.span).back() == '\n') {
        if (index) *index = i + 1;
        return Token{Tok::Newline, t.span};
      }
      continue;
    }
    if (t.type == Tok::Newline && !newlines) continue;
    if (index) *index = i + 1;
    return t;
  }
  if (index) *index = toks_.size();
  return toks_.back();
}

// --- diagnostics -------------------------------------------------------------

// Builds an error about [subject], with an optional wider [context].
Diagnostic Parser::make(std::string_view summary, std::string_view detail, Span subject, const Span* context) const {
  Diagnostic d;
  d.severity = Severity::Error;
  d.summary = summary;
  d.detail = detail;
  d.subject = b_.source().range(subject);
  if (context) d.context = b_.source().range(*context);
  return d;
}

// Moves the Builder's unreported diagnostics to the end of ours.
void Parser::take_builder_diags() {
  Diagnostics& bd = b_.diags();
  for (; seen_ < bd.size(); ++seen_) diags_.push_back(bd[seen_]);
}

// Reports whether the parser has used up its stack budget, at token [at].
// Real files nest a few levels; hostile ones nest 100,000 deep, where the
// reference itself dies of a stack overflow. On a first try the budget
// throws so that the caller can start over on a thread with a big stack;
// on the last try this reports the error once and enters recovery mode, so
// that every level unwinds through the usual bracket skipping.
bool Parser::too_deep(Span at) {
  if (depth_ <= kMaxParseDepth && !budget_.exhausted()) return false;
  if (!recovery_)
    error("Nesting too deep", "Brackets, blocks or templates are nested too deeply here to be parsed.", at);
  recovery_ = true;
  return true;
}

// Returns a placeholder for the term at [start], once the parser is too
// deep to descend into it. A bracketed term is consumed up to its closer:
// left in place, its opener would be read again by the caller as an index
// step (`[`) or a nested term, one level deeper each time, so the deepest
// level would go on recursing through every remaining bracket. Any other
// token is left to the caller, which stops or takes it as an operator.
Expr* Parser::skip_term(Token start) {
  switch (start.type) {
    case Tok::OParen: case Tok::OBrack: case Tok::OBrace: case Tok::OQuote: case Tok::OHeredoc: {
      read();
      Token fin = recover(opposite_bracket(start.type));
      return b_.dynamic(between(start.span, fin.span));
    }
    default:
      return b_.dynamic(start.span);
  }
}

// --- recovery ----------------------------------------------------------------

// Skips to the token [end] that closes the current bracket, counting nested
// pairs, and returns it (or EOF). Sets recovery mode.
Token Parser::recover(Tok end) {
  Tok start = opposite_bracket(end);
  recovery_ = true;
  int nest = 0;
  for (;;) {
    Token tok = read();
    Tok ty = tok.type;
    // `%{` and `${` both close with `}`, so both count as openers here.
    if (end == Tok::TemplateSeqEnd && ty == Tok::TemplateControl) ty = Tok::TemplateInterp;
    if (ty == start) {
      ++nest;
    } else if (ty == end) {
      if (nest < 1) return tok;
      --nest;
    } else if (ty == Tok::EOF_) {
      return tok;
    }
  }
}

// Skips to the next [start] bracket and then past its matching closer.
void Parser::recover_over(Tok start) {
  for (;;) {
    Token tok = read();
    if (tok.type == start || tok.type == Tok::EOF_) break;
  }
  recover(opposite_bracket(start));
}

// Skips to the newline that ends the current body item, ignoring newlines
// inside brackets and template sequences. Sets recovery mode.
void Parser::recover_after_body_item() {
  recovery_ = true;
  std::vector<Tok> open;
  for (;;) {
    Token tok = read();
    switch (tok.type) {
      case Tok::Newline:
        if (open.empty()) return;
        break;
      case Tok::EOF_:
        return;
      case Tok::OBrace: case Tok::OBrack: case Tok::OParen: case Tok::OQuote: case Tok::OHeredoc:
      case Tok::TemplateInterp: case Tok::TemplateControl:
        open.push_back(tok.type);
        break;
      case Tok::CBrace: case Tok::CBrack: case Tok::CParen: case Tok::CQuote: case Tok::CHeredoc: {
        Tok opener = opposite_bracket(tok.type);
        while (!open.empty() && open.back() != opener) open.pop_back();
        if (!open.empty()) open.pop_back();
        break;
      }
      case Tok::TemplateSeqEnd:
        while (!open.empty() && open.back() != Tok::TemplateInterp && open.back() != Tok::TemplateControl)
          open.pop_back();
        if (!open.empty()) open.pop_back();
        break;
      default:
        break;
    }
  }
}

// --- structure ---------------------------------------------------------------

// Parses a whole file as a body.
Body* Parser::config() {
  Body* body = parse_body(Tok::EOF_);
  take_builder_diags();
  return body;
}

// Parses body items up to the token [end] (EOF or `}`).
Body* Parser::parse_body(Tok end) {
  Descent descent(*this);
  std::vector<Attribute*> attrs;
  std::vector<Block*> blocks;
  std::unordered_map<std::string_view, Attribute*> by_name;
  Span start = prev_span();
  Span end_span;
  if (too_deep(next_span())) {
    Token fin = recover(end);
    return b_.body(start, {}, {}, fin.span);
  }
  for (;;) {
    Token next = peek();
    if (next.type == end) {
      end_span = next.span;
      read();
      break;
    }
    if (next.type == Tok::Newline) {
      read();
      continue;
    }
    if (next.type == Tok::Ident) {
      Item item = parse_body_item();
      if (item.block != nullptr) {
        blocks.push_back(item.block);
      } else if (item.attr != nullptr) {
        auto [it, fresh] = by_name.emplace(item.attr->name, item.attr);
        if (fresh) {
          attrs.push_back(item.attr);
        } else {
          error("Attribute redefined",
                "The argument " + uni::go_quote(item.attr->name) + " was already set at " +
                    range_string(b_.source().range(it->second->name_span)) +
                    ". Each argument may be set only once.",
                item.attr->name_span);
        }
      }
      continue;
    }
    Token bad = read();
    if (!recovery_) {
      if (bad.type == Tok::OQuote) {
        error("Invalid argument name", "Argument names must not be quoted.", bad.span);
      } else if (bad.type == Tok::EOF_) {
        if (end == Tok::CBrace)
          error("Unclosed configuration block",
                "There is no closing brace for this block before the end of the file. This may be caused by "
                "incorrect brace nesting elsewhere in this file.",
                start);
        else
          error("Unclosed configuration body", "Found end of file before the end of this configuration body.", start);
      } else {
        error("Argument or block definition required", "An argument or block definition is required here.",
              bad.span);
      }
    }
    end_span = prev_span();  // somewhere inside the body, as the reference does
    recover(end);
    break;
  }
  Body* body = b_.body(start, b_.list(attrs), b_.list(blocks), end_span);
  // Repeated names were reported above, in the reference's order.
  drop_builder_diags();
  return body;
}

// Parses one attribute or block; the next token is an identifier.
Parser::Item Parser::parse_body_item() {
  Token ident = read();
  Token next = peek();
  switch (next.type) {
    case Tok::Equal:
      return Item{finish_attribute(ident, false), nullptr};
    case Tok::OQuote: case Tok::OBrace: case Tok::Ident:
      return Item{nullptr, finish_block(ident)};
    default:
      recover_after_body_item();
      error("Argument or block definition required",
            "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to "
            "introduce the argument value.",
            ident.span);
      return Item{};
  }
}

// Parses the one attribute of a single-line block `b { a = 1 }`; returns
// null when there is none.
Body* Parser::parse_single_attr_body() {
  Token ident = read();
  if (ident.type != Tok::Ident) {
    recover_after_body_item();
    error("Argument or block definition required", "An argument or block definition is required here.", ident.span);
    return nullptr;
  }
  Token next = peek();
  switch (next.type) {
    case Tok::Equal:
      return b_.single_attr_body(finish_attribute(ident, true));
    case Tok::OQuote: case Tok::OBrace: case Tok::Ident:
      recover_after_body_item();
      error("Argument definition required",
            "A single-line block definition can contain only a single argument. If you meant to define argument " +
                uni::go_quote(text(ident)) +
                ", use an equals sign to assign it a value. To define a nested block, place it on a line of its "
                "own within its parent block.",
            between(ident.span, next.span));
      return nullptr;
    default:
      recover_after_body_item();
      error("Argument or block definition required",
            "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to "
            "introduce the argument value.",
            ident.span);
      return nullptr;
  }
}

// Parses `= expr` and the newline after it, for the attribute named [ident];
// [single_line] is set inside a one-line block, which has no newline.
Attribute* Parser::finish_attribute(Token ident, bool single_line) {
  Token eq = read();
  size_t mark = diags_.size();
  Expr* expr = parse_expression();
  Span end_span;
  if (recovery_ && errors_since(mark)) {
    // Recovery inside the expression left us somewhere odd: resync at the
    // next body item.
    end_span = prev_span();
    recover_after_body_item();
  } else {
    end_span = prev_span();
    if (!single_line) {
      Token end = peek();
      if (end.type != Tok::Newline && end.type != Tok::EOF_) {
        if (!recovery_) {
          if (end.type == Tok::Comma)
            error("Unexpected comma after argument",
                  "Argument definitions must be separated by newlines, not commas. An argument definition must end "
                  "with a newline.",
                  end.span, between(ident.span, end.span));
          else
            error("Missing newline after argument", "An argument definition must end with a newline.", end.span,
                  between(ident.span, end.span));
        }
        end_span = prev_span();
        recover_after_body_item();
      } else {
        end_span = prev_span();
        read();
      }
    }
  }
  return b_.attribute(ident.span, eq.span, expr, end_span);
}

// Parses the labels and body of the block whose type is [ident].
Block* Parser::finish_block(Token ident) {
  std::vector<std::string_view> labels;
  std::vector<Span> label_spans;
  Token obrace{};
  for (;;) {
    Token tok = peek();
    if (tok.type == Tok::OBrace) {
      obrace = read();
      break;
    }
    if (tok.type == Tok::OQuote) {
      // Recovers up to the closing quote on problems, so we can go on.
      Span range;
      labels.push_back(parse_quoted_string_literal(&range));
      label_spans.push_back(range);
      continue;
    }
    if (tok.type == Tok::Ident) {
      tok = read();
      labels.push_back(text(tok));
      label_spans.push_back(tok.span);
      continue;
    }
    if (tok.type == Tok::Equal) {
      error("Invalid block definition",
            "The equals sign \"=\" indicates an argument definition, and must not be used when defining a block.",
            tok.span, between(ident.span, tok.span));
    } else if (tok.type == Tok::Newline) {
      error("Invalid block definition",
            "A block definition must have block content delimited by \"{\" and \"}\", starting on the same line as "
            "the block header.",
            tok.span, between(ident.span, tok.span));
    } else if (!recovery_) {
      error("Invalid block definition",
            "Either a quoted string block label or an opening brace (\"{\") is expected here.", tok.span,
            between(ident.span, tok.span));
    }
    recover_after_body_item();
    // The reference's placeholders: both braces at the type keyword, so the
    // block's range (type keyword to closing brace) is the keyword alone.
    Body* empty = b_.arena().make<Body>();
    empty->span = ident.span;
    empty->end_span = ident.span;
    return b_.block(ident.span, b_.list(labels), b_.list(label_spans), ident.span, empty, ident.span);
  }

  Body* body = nullptr;
  size_t body_mark = diags_.size();
  Tok first = peek().type;
  if (first == Tok::Newline || first == Tok::EOF_ || first == Tok::CBrace) {
    body = parse_body(Tok::CBrace);
  } else {
    body = parse_single_attr_body();
    close_single_line_block(ident, obrace, body_mark);
  }
  Span cbrace = prev_span();

  Token eol = peek();
  if (eol.type == Tok::Newline || eol.type == Tok::EOF_) {
    read();
  } else {
    if (!recovery_)
      error("Missing newline after block definition", "A block definition must end with a newline.", eol.span,
            between(ident.span, eol.span));
    recover_after_body_item();
  }

  if (body == nullptr) {
    // Never leave a block without a body: analyses of partial trees walk
    // it. (A null body means the one-line body failed, with an error.)
    body = b_.arena().make<Body>();
    body->span = between(obrace.span, cbrace);
    body->end_span = cbrace;
  }
  return b_.block(ident.span, b_.list(labels), b_.list(label_spans), obrace.span, body, cbrace);
}

// Consumes the `}` of the one-line block [ident] opened by [obrace], or
// reports why it is missing. The reference reports this before the
// diagnostics of the attribute inside, so the error goes in at
// [body_mark]. (Kept out of finish_block, which recurses, to keep its
// frame small.)
void Parser::close_single_line_block(Token ident, Token obrace, size_t body_mark) {
  Token after = peek();
  std::optional<Diagnostic> closing;
  switch (after.type) {
    case Tok::CBrace:
      read();
      return;
    case Tok::Comma:
      closing = make("Invalid single-argument block definition",
                     "Single-line block syntax can include only one argument definition. To define multiple "
                     "arguments, use the multi-line block syntax with one argument definition per line.",
                     after.span);
      break;
    case Tok::Newline:
      closing = make("Invalid single-argument block definition",
                     "An argument definition on the same line as its containing block creates a single-line block "
                     "definition, which must also be closed on the same line. Place the block's closing brace "
                     "immediately after the argument definition.",
                     after.span);
      break;
    default:
      if (recovery_) break;
      if (after.type == Tok::EOF_)
        closing = make("Unclosed configuration block",
                       "There is no closing brace for this block before the end of the file. This may be caused "
                       "by incorrect brace nesting elsewhere in this file.",
                       obrace.span, between(ident.span, obrace.span));
      else
        closing = make("Invalid single-argument block definition",
                       "A single-line block definition must end with a closing brace immediately after its single "
                       "argument definition.",
                       after.span);
      break;
  }
  recover(Tok::CBrace);
  if (closing) diags_.insert(diags_.begin() + static_cast<std::ptrdiff_t>(body_mark), std::move(*closing));
}

// Parses a quoted string without template sequences (a block label or a
// traversal's index key); sets [range] to its span, quotes included.
std::string_view Parser::parse_quoted_string_literal(Span* range) {
  Token oquote = read();
  if (oquote.type != Tok::OQuote) {
    error("Invalid string literal", "A quoted string is required here.", oquote.span);
    *range = oquote.span;
    return {};
  }
  std::string value;
  Span end_span;
  for (;;) {
    Token tok = read();
    if (tok.type == Tok::CQuote) {
      end_span = tok.span;
      break;
    }
    if (tok.type == Tok::QuotedLit) {
      value += b_.decode_literal(tok.span, true);
      take_builder_diags();  // escape errors, in token order
      continue;
    }
    if (tok.type == Tok::TemplateControl || tok.type == Tok::TemplateInterp) {
      std::string which = tok.type == Tok::TemplateControl ? "%" : "$";
      error("Invalid string literal",
            "Template sequences are not allowed in this string. To include a literal " + uni::go_quote(which) +
                ", double it (as \"" + which + which + "\") to escape it.",
            tok.span, between(oquote.span, tok.span));
      // Leave a marker in the partial value so it is not mistaken for the
      // real one.
      value += which + "{ ... }";
      recover(Tok::TemplateSeqEnd);
      continue;
    }
    if (tok.type == Tok::EOF_) {
      error("Unterminated string literal", "Unable to find the closing quote mark before the end of the file.",
            tok.span, between(oquote.span, tok.span));
      end_span = tok.span;
      break;
    }
    // Only a misbehaving scanner gets here.
    error("Invalid string literal", "This item is not valid in a string literal.", tok.span,
          between(oquote.span, tok.span));
    recover(Tok::CQuote);
    end_span = tok.span;
    break;
  }
  *range = between(oquote.span, end_span);
  return b_.arena().copy(value);
}

// --- expressions -------------------------------------------------------------

// Parses one standalone expression (ParseExpression): newlines never count.
Expr* Parser::expression() {
  push_newlines(false);
  Expr* e = parse_expression();
  Token next = peek();
  if (next.type != Tok::EOF_ && !recovery_)
    error("Extra characters after expression",
          "An expression was successfully parsed, but extra characters were found after it.", next.span);
  pop_newlines();
  take_builder_diags();
  return e;
}

// Parses `c ? t : f`, or just `c` when no `?` follows.
Expr* Parser::parse_conditional() {
  Descent descent(*this);
  Span start = next_span();
  size_t mark = diags_.size();
  Expr* cond = parse_binary(0);
  if (recovery_ && errors_since(mark)) return cond;
  if (peek().type != Tok::Question) return cond;
  read();
  mark = diags_.size();
  Expr* t = parse_expression();
  if (recovery_ && errors_since(mark)) return cond;
  Token colon = peek();
  if (colon.type != Tok::Colon) {
    error("Missing false expression in conditional",
          "The conditional operator (...?...:...) requires a false expression, delimited by a colon.", colon.span,
          between(start, colon.span));
    return cond;
  }
  read();
  mark = diags_.size();
  Expr* f = parse_expression();
  if (recovery_ && errors_since(mark)) return cond;
  return b_.conditional(cond, t, f, start);
}

// Parses operators of precedence [level] and tighter, left-associatively.
// The reference recurses once per precedence level before reading the first
// operand; this walks the same levels in a loop, innermost first, so deep
// nesting costs one frame here instead of seven. Every level's first operand
// starts at the same token, so the reference's "give up when the operand
// failed during recovery" check is one check against [mark] per level.
Expr* Parser::parse_binary(int level) {
  size_t mark = diags_.size();
  Expr* lhs = parse_with_traversals();
  for (int l = kLevels - 1; l >= level; --l) {
    if (recovery_ && errors_since(mark)) return lhs;
    Expr* rhs = nullptr;
    std::optional<BinaryOp> op;
    for (;;) {
      Tok next = peek().type;
      std::optional<BinaryOp> found;
      for (const OpEntry& e : kBinaryOps)
        if (e.level == l + 1 && e.tok == next) found = e.op;
      if (!found) break;
      if (op) lhs = b_.binary(*op, lhs, rhs);
      op = found;
      read();
      size_t rhs_mark = diags_.size();
      rhs = parse_binary(l + 1);
      // The reference returns the operand so far, and every outer level
      // then returns it too, as its own operand has now failed.
      if (recovery_ && errors_since(rhs_mark)) return lhs;
    }
    if (op) lhs = b_.binary(*op, lhs, rhs);
  }
  return lhs;
}

// Parses a term followed by any attribute, index and splat steps.
Expr* Parser::parse_with_traversals() {
  Expr* term = parse_term();
  return parse_traversals(term);
}

// Reports number token [tok] when its value cannot be read; returns whether
// it can.
bool Parser::check_number(const Token& tok) {
  if (number_readable(text(tok))) return true;
  error("Invalid number literal", "Failed to recognize the value of this number literal.", tok.span);
  return false;
}

// Returns a number literal for [tok]: an unknown number, reported, when its
// value cannot be read.
Expr* Parser::number(const Token& tok) {
  if (check_number(tok)) return b_.number(tok.span);
  return b_.literal(tok.span, Literal{LitKind::UnknownNumber, false, text(tok)});
}

// Parses the steps after [from]: `.name`, `.0`, `.*`, `[key]`, `[*]`.
Expr* Parser::parse_traversals(Expr* from) {
  Expr* ret = from;
  for (;;) {
    Token next = peek();
    if (next.type == Tok::Dot) {
      Token dot = read();
      Token attr_tok = peek();
      if (attr_tok.type == Tok::Ident) {
        attr_tok = read();
        ret = b_.attr(ret, dot.span, attr_tok.span);
      } else if (attr_tok.type == Tok::NumberLit) {
        // The legacy `a.0` form of `a[0]`. `a.0.1` scans as one number; the
        // Builder rejects it with the reference's message.
        Token num = read();
        if (text(num).find('.') == std::string_view::npos) check_number(num);
        ret = b_.legacy_index(ret, dot.span, num.span);
        take_builder_diags();
      } else if (attr_tok.type == Tok::Star) {
        // The attribute-only splat `.*`, which takes only `.name` and `.0`
        // steps after it.
        Token marker = read();
        std::vector<Traverser> steps;
        Span first = next_span();
        Span last = marker.span;
        bool abandoned = false;
        while (peek().type == Tok::Dot) {
          Token sdot = read();
          if (peek().type == Tok::NumberLit) {
            // `.0` steps index; the Builder rejects a chained `.0.1`, with
            // the reference's subject: the splat's star.
            Token num = read();
            if (text(num).find('.') == std::string_view::npos) check_number(num);
            steps.push_back(b_.index_step(sdot.span, num.span, attr_tok.span));
            take_builder_diags();
            last = num.span;
            continue;
          }
          if (peek().type != Tok::Ident) {
            if (!recovery_) {
              if (peek().type == Tok::Star)
                error("Nested splat expression not allowed",
                      "A splat expression (*) cannot be used inside another attribute-only splat expression.",
                      next_span());
              else
                error("Invalid attribute name", "An attribute name is required after a dot.", attr_tok.span);
            }
            recovery_ = true;
            abandoned = true;
            break;
          }
          Token name = read();
          steps.push_back(b_.attr_step(sdot.span, name.span));
          last = name.span;
        }
        // An abandoned splat builds nothing; the loop goes on from here.
        if (!abandoned) ret = b_.attr_splat(ret, dot.span, marker.span, steps, first, last);
      } else {
        error("Invalid attribute name", "An attribute name is required after a dot.", attr_tok.span);
        // The reference's ExprSyntaxError: a placeholder from the source up
        // to the dot.
        ret = b_.dynamic(between(from->span, dot.span));
        recovery_ = true;
      }
      continue;
    }
    if (next.type == Tok::OBrack) {
      Token open = read();
      if (peek().type == Tok::Star) {
        // The full splat `[*]`: every later step applies to each element.
        read();
        Token close = read();
        if (close.type != Tok::CBrack && !recovery_) {
          // The reference's subject points at its `close` variable, which
          // recovery then overwrites: the subject is where recovery stops.
          close = recover(Tok::CBrack);
          error("Missing close bracket on splat index",
                "The star for a full splat operator must be immediately followed by a closing bracket (\"]\").",
                close.span);
        }
        // Each `[*]` takes the rest of the chain recursively.
        Descent descent(*this);
        if (too_deep(close.span)) return ret;
        AnonSymbolExpr* item = b_.anon(between(open.span, close.span));
        Expr* each = parse_traversals(item);
        ret = b_.full_splat(ret, item, each, open.span, close.span);
        continue;
      }
      Token close;
      push_newlines(newlines_count_inside(Tok::OBrack, false));
      size_t mark = diags_.size();
      Expr* key = parse_expression();
      if (recovery_ && errors_since(mark)) {
        close = recover(Tok::CBrack);
      } else {
        close = read();
        if (close.type != Tok::CBrack && !recovery_) {
          // As above, the subject is where recovery stops.
          close = recover(Tok::CBrack);
          error("Missing close bracket on index", "The index operator must end with a closing bracket (\"]\").",
                close.span);
        }
      }
      pop_newlines();
      ret = b_.index(ret, open.span, key, close.span);
      continue;
    }
    return ret;
  }
}

// Parses the smallest expression unit: literal, name, call, parentheses,
// template, unary operator, tuple, object or `for`.
Expr* Parser::parse_term() {
  Descent descent(*this);
  Token start = peek();
  // Every nesting construct of expressions passes through here.
  if (too_deep(start.span)) return skip_term(start);
  switch (start.type) {
    case Tok::OParen: {
      Token open = read();
      push_newlines(newlines_count_inside(Tok::OParen, false));
      size_t mark = diags_.size();
      Expr* inner = parse_expression();
      if (errors_since(mark)) {
        // Try to stop after our closing paren so the caller can go on.
        recover(Tok::CParen);
        pop_newlines();
        return inner;
      }
      Token close = peek();
      if (close.type != Tok::CParen) {
        error("Unbalanced parentheses", "Expected a closing parenthesis to terminate the expression.", close.span,
              between(start.span, close.span));
        recovery_ = true;
      }
      Token cparen = read();
      pop_newlines();
      return b_.parens(open.span, inner, cparen.span);
    }
    case Tok::NumberLit:
      return number(read());
    case Tok::Ident: {
      Token tok = read();
      Tok after = peek().type;
      if (after == Tok::OParen || after == Tok::DoubleColon) return finish_call(tok);
      return b_.variable(tok.span);
    }
    case Tok::OQuote:
    case Tok::OHeredoc: {
      Token open = read();
      std::string_view open_text = text(open);
      bool flush = open.type == Tok::OHeredoc && open_text.size() > 2 && open_text[2] == '-';
      TplResult t = parse_template_inner(opposite_bracket(open.type), flush);
      return b_.template_expr(open.span, t, prev_span());
    }
    case Tok::Minus:
    case Tok::Bang: {
      // The operand is a term with its steps, not a binary expression:
      // -46+5 is (-46)+5.
      Token tok = read();
      Expr* operand = parse_with_traversals();
      return b_.unary(start.type == Tok::Minus ? UnaryOp::Negate : UnaryOp::Not, tok.span, operand);
    }
    case Tok::OBrack:
      return parse_tuple();
    case Tok::OBrace:
      return parse_object();
    default:
      if (!recovery_) {
        if (start.type == Tok::EOF_)
          error("Missing expression", "Expected the start of an expression, but found the end of the file.",
                start.span);
        else
          error("Invalid expression", "Expected the start of an expression, but found an invalid expression token.",
                start.span);
      }
      recovery_ = true;
      return b_.dynamic(start.span);
  }
}

// Parses a call after its first name [name]: `::`-separated name parts, then
// the parenthesized arguments.
Expr* Parser::finish_call(Token name) {
  Token open = read();
  std::string full(text(name));
  Span name_span = name.span;
  while (open.type == Tok::DoubleColon) {
    Token part = read();
    if (part.type != Tok::Ident) {
      error("Missing function name",
            "Function scope resolution symbol :: must be followed by a function name in this scope.", part.span,
            between(name.span, part.span));
      recover_over(Tok::OParen);
      return b_.dynamic(between(name.span, part.span));
    }
    full += "::";
    full += text(part);
    name_span.end = part.span.end;
    open = read();
  }
  if (open.type != Tok::OParen) {
    error("Missing open parenthesis",
          "Function selector must be followed by an open parenthesis to begin the function call.", open.span,
          between(name.span, open.span));
    recover_over(Tok::OParen);
    return b_.dynamic(between(name.span, open.span));
  }

  std::vector<Expr*> args;
  bool expand_final = false;
  Token close{};
  push_newlines(newlines_count_inside(Tok::OParen, false));  // arguments may span lines
  for (;;) {
    if (peek().type == Tok::CParen) {
      close = read();
      break;
    }
    size_t mark = diags_.size();
    args.push_back(parse_expression());
    if (recovery_ && errors_since(mark)) {
      // Bail out with a partial argument list.
      Token found = recover(Tok::CParen);
      // The reference keeps a zero closing range when it hit the end of the
      // file; the recovered token is the nearest meaningful stand-in.
      close = found;
      break;
    }
    Token sep = read();
    if (sep.type == Tok::CParen) {
      close = sep;
      break;
    }
    if (sep.type == Tok::Ellipsis) {
      expand_final = true;
      if (peek().type != Tok::CParen) {
        if (!recovery_)
          error("Missing closing parenthesis",
                "An expanded function argument (with ...) must be immediately followed by closing parentheses.",
                sep.span, between(name.span, sep.span));
        close = recover(Tok::CParen);
      } else {
        close = read();
      }
      break;
    }
    if (sep.type != Tok::Comma) {
      if (sep.type == Tok::EOF_)
        error("Unterminated function call",
              "There is no closing parenthesis for this function call before the end of the file. This may be "
              "caused by incorrect parenthesis nesting elsewhere in this file.",
              between(name.span, open.span));
      else
        error("Missing argument separator", "A comma is required to separate each function argument from the next.",
              sep.span, between(name.span, sep.span));
      close = recover(Tok::CParen);
      break;
    }
    if (peek().type == Tok::CParen) {  // trailing comma
      close = read();
      break;
    }
  }
  pop_newlines();
  return b_.call(name_span, b_.arena().copy(full), b_.list(args), expand_final, open.span, close.span);
}

// Parses `[a, b, ...]` or a tuple `for` expression.
Expr* Parser::parse_tuple() {
  Token open = read();
  bool is_for = for_keyword_after(toks_, next_ - 1, b_.source().text()) != 0;
  push_newlines(newlines_count_inside(Tok::OBrack, is_for));
  if (is_for) {
    Expr* e = finish_for(open);
    pop_newlines();
    return e;
  }
  std::vector<Expr*> items;
  Token close{};
  for (;;) {
    if (peek().type == Tok::CBrack) {
      close = read();
      break;
    }
    size_t mark = diags_.size();
    items.push_back(parse_expression());
    if (recovery_ && errors_since(mark)) {
      close = recover(Tok::CBrack);
      break;
    }
    Token next = peek();
    if (next.type == Tok::CBrack) {
      close = read();
      break;
    }
    if (next.type != Tok::Comma) {
      if (!recovery_) {
        if (next.type == Tok::EOF_)
          error("Unterminated tuple constructor expression",
                "There is no corresponding closing bracket before the end of the file. This may be caused by "
                "incorrect bracket nesting elsewhere in this file.",
                open.span);
        else
          error("Missing item separator", "Expected a comma to mark the beginning of the next item.", next.span,
                between(open.span, next.span));
      }
      close = recover(Tok::CBrack);
      break;
    }
    read();
  }
  pop_newlines();
  return b_.tuple(open.span, b_.list(items), close.span);
}

// Parses `{ k = v, ... }` or an object `for` expression.
Expr* Parser::parse_object() {
  Token open = read();
  if (for_keyword_after(toks_, next_ - 1, b_.source().text()) != 0) return finish_for(open);

  push_newlines(newlines_count_inside(Tok::OBrace, false));
  std::vector<ObjectItem> items;
  Token close{};
  for (;;) {
    Token next = peek();
    if (next.type == Tok::Newline) {
      read();
      continue;
    }
    if (next.type == Tok::CBrace) {
      close = read();
      break;
    }
    // Parentheses make the key an expression even when it is a bare name.
    bool force_non_literal = next.type == Tok::OParen;
    size_t mark = diags_.size();
    Expr* key = parse_expression();
    if (recovery_ && errors_since(mark)) {
      close = recover(Tok::CBrace);
      break;
    }
    key = b_.object_key(key, force_non_literal);
    next = peek();
    if (next.type != Tok::Equal && next.type != Tok::Colon) {
      if (!recovery_) {
        switch (next.type) {
          case Tok::Newline: case Tok::Comma:
            error("Missing attribute value", "Expected an attribute value, introduced by an equals sign (\"=\").",
                  next.span, between(open.span, next.span));
            break;
          case Tok::Ident:
            // Perhaps an HCL 1 name with a dot and digits: `foo1.2_bar = 1`.
            error("Missing key/value separator",
                  "Expected an equals sign (\"=\") to mark the beginning of the attribute value. If you intended to "
                  "given an attribute name containing periods or spaces, write the name in quotes to create a "
                  "string literal.",
                  next.span, between(open.span, next.span));
            break;
          case Tok::EOF_:
            error("Unterminated object constructor expression",
                  "There is no corresponding closing brace before the end of the file. This may be caused by "
                  "incorrect brace nesting elsewhere in this file.",
                  open.span);
            break;
          default:
            error("Missing key/value separator",
                  "Expected an equals sign (\"=\") to mark the beginning of the attribute value.", next.span,
                  between(open.span, next.span));
        }
      }
      close = recover(Tok::CBrace);
      break;
    }
    read();
    mark = diags_.size();
    Expr* value = parse_expression();
    items.push_back(ObjectItem{key, value});
    if (recovery_ && errors_since(mark)) {
      close = recover(Tok::CBrace);
      break;
    }
    next = peek();
    if (next.type == Tok::CBrace) {
      close = read();
      break;
    }
    if (next.type != Tok::Comma && next.type != Tok::Newline) {
      if (!recovery_) {
        if (next.type == Tok::EOF_)
          error("Unterminated object constructor expression",
                "There is no corresponding closing brace before the end of the file. This may be caused by "
                "incorrect brace nesting elsewhere in this file.",
                open.span);
        else
          error("Missing attribute separator", "Expected a newline or comma to mark the beginning of the next "
                "attribute.", next.span, between(open.span, next.span));
      }
      close = recover(Tok::CBrace);
      break;
    }
    read();
  }
  pop_newlines();
  return b_.object(open.span, b_.list(items), close.span);
}

// Parses a `for` expression after [open] (`[` or `{`); the next token is
// the `for` keyword.
Expr* Parser::finish_for(Token open) {
  push_newlines(newlines_count_inside(open.type, true));
  read();  // for
  bool make_object = open.type == Tok::OBrace;
  Tok close_type = make_object ? Tok::CBrace : Tok::CBrack;

  // Every failure below skips to the closer and leaves a placeholder.
  auto fail = [&](const char* detail) {
    if (!recovery_) {
      Token at = peek();
      error("Invalid 'for' expression", detail, at.span, between(open.span, at.span));
    }
    Token close = recover(close_type);
    pop_newlines();
    return b_.dynamic(between(open.span, close.span));
  };

  if (peek().type != Tok::Ident) return fail("For expression requires variable name after 'for'.");
  std::string_view key_var, val_var = text(read());
  if (peek().type == Tok::Comma) {
    key_var = val_var;
    read();
    if (peek().type != Tok::Ident) return fail("For expression requires value variable name after comma.");
    val_var = text(read());
  }
  if (!is_keyword(peek(), "in")) return fail("For expression requires the 'in' keyword after its name declarations.");
  read();

  size_t mark = diags_.size();
  Expr* coll = parse_expression();
  auto bail = [&]() {
    Token close = recover(close_type);
    pop_newlines();
    return b_.dynamic(between(open.span, close.span));
  };
  if (recovery_ && errors_since(mark)) return bail();

  if (peek().type != Tok::Colon) return fail("For expression requires a colon after the collection expression.");
  read();

  Expr* key = nullptr;
  mark = diags_.size();
  Expr* value = parse_expression();
  if (peek().type == Tok::FatArrow) {
    read();
    key = value;
    value = parse_expression();
  }
  if (recovery_ && errors_since(mark)) return bail();

  bool group = false;
  Token ellipsis{};
  if (peek().type == Tok::Ellipsis) {
    ellipsis = read();
    group = true;
  }

  Expr* cond = nullptr;
  if (is_keyword(peek(), "if")) {
    read();
    mark = diags_.size();
    cond = parse_expression();
    if (recovery_ && errors_since(mark)) return bail();
  }

  Token close{};
  if (peek().type == close_type) {
    close = read();
  } else {
    if (!recovery_) {
      Token at = peek();
      error("Invalid 'for' expression", "Extra characters after the end of the 'for' expression.", at.span,
            between(open.span, at.span));
    }
    close = recover(close_type);
  }

  Span whole = between(open.span, close.span);
  if (!make_object) {
    if (key != nullptr)
      error("Invalid 'for' expression", "Key expression is not valid when building a tuple.", key->span, whole);
    if (group)
      error("Invalid 'for' expression", "Grouping ellipsis (...) cannot be used when building a tuple.",
            ellipsis.span, whole);
  } else if (key == nullptr) {
    error("Invalid 'for' expression", "Key expression is required when building an object.", value->span, whole);
  }
  pop_newlines();
  return b_.for_expr(open.span, key_var, val_var, coll, key, value, group, cond, close.span);
}

// --- templates ---------------------------------------------------------------

// Parses a standalone template (ParseTemplate).
Expr* Parser::template_root() {
  TplResult t = parse_template_inner(Tok::EOF_, false);
  Expr* e = b_.template_root(t);
  take_builder_diags();
  return e;
}

// Collects the parts of a template up to the token [end] and assembles
// them; [flush] for `<<-` heredocs.
TplResult Parser::parse_template_inner(Tok end, bool flush) {
  std::vector<TplPart> parts;
  std::vector<LitAt> lits;
  Span start = next_span();
  Span end_span;

  // A directive that failed leaves a Broken part: it yields no template
  // token, but its `%{~` still trims the literal before it, and a strip
  // marker after it cannot reach back across it.
  auto broken = [&](Span open, Span last, bool open_strip) {
    TplPart p{};
    p.kind = TplPart::Broken;
    p.open_strip = open_strip;
    p.span = between(open, last);
    parts.push_back(p);
  };

  for (;;) {
    Token next = read();
    if (next.type == end) {
      end_span = next.span;
      break;
    }
    std::string_view opener = text(next);
    bool open_strip = opener.size() == 3 && opener[2] == '~';

    if (next.type == Tok::StringLit || next.type == Tok::QuotedLit) {
      TplPart p{};
      p.kind = TplPart::Lit;
      p.quoted = next.type == Tok::QuotedLit;
      p.span = next.span;
      parts.push_back(p);
      lits.push_back(LitAt{next.span, diags_.size()});
      continue;
    }

    if (next.type == Tok::TemplateInterp) {
      push_newlines(newlines_count_inside(Tok::TemplateInterp, false));
      Expr* expr = parse_expression();
      Token close = peek();
      bool close_strip = false;
      if (close.type != Tok::TemplateSeqEnd) {
        if (!recovery_) {
          if (close.type == Tok::EOF_) {
            error("Unclosed template interpolation sequence",
                  "There is no closing brace for this interpolation sequence before the end of the file. This might "
                  "be caused by incorrect nesting inside the given expression.",
                  start);
          } else if (close.type == Tok::Colon) {
            error("Extra characters after interpolation expression",
                  "Template interpolation doesn't expect a colon at this location. Did you intend this to be a "
                  "literal sequence to be processed as part of another language? If so, you can escape it by "
                  "starting with \"$${\" instead of just \"${\".",
                  close.span, between(start, close.span));
          } else if ((close.type == Tok::CQuote || close.type == Tok::OQuote) && end == Tok::CQuote) {
            // A stray quote inside the sequence of a quoted template: the
            // sequence most likely lacks its `}`.
            error("Unclosed template interpolation sequence",
                  "There is no closing brace for this interpolation sequence before the end of the quoted template. "
                  "This might be caused by incorrect nesting inside the given expression.",
                  start);
          } else {
            error("Extra characters after interpolation expression",
                  "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis "
                  "can happen when you include interpolation syntax for another language, such as shell scripting, "
                  "but forget to escape the interpolation start token. If this is an embedded sequence for another "
                  "language, escape it by starting with \"$${\" instead of just \"${\".",
                  close.span, between(start, close.span));
          }
        }
        recover(Tok::TemplateSeqEnd);
      } else {
        read();
        std::string_view ct = text(close);
        close_strip = ct.size() == 2 && ct[0] == '~';
      }
      pop_newlines();
      TplPart p{};
      p.kind = TplPart::Interp;
      p.open_strip = open_strip;
      p.close_strip = close_strip;
      p.span = between(next.span, close.span);
      p.expr = expr;
      parts.push_back(p);
      continue;
    }

    if (next.type == Tok::TemplateControl) {
      push_newlines(newlines_count_inside(Tok::TemplateControl, false));
      Token kw = peek();
      if (kw.type != Tok::Ident) {
        if (!recovery_)
          error("Invalid template directive",
                "A template directive keyword (\"if\", \"for\", etc) is expected at the beginning of a %{ sequence.",
                kw.span, between(next.span, kw.span));
        Token fin = recover(Tok::TemplateSeqEnd);
        pop_newlines();
        broken(next.span, fin.span, open_strip);
        continue;
      }
      read();
      std::string_view word = text(kw);
      TplPart p{};
      p.open_strip = open_strip;
      // Abandons this directive: skips past its `}`.
      auto give_up = [&]() {
        Token fin = recover(Tok::TemplateSeqEnd);
        pop_newlines();
        broken(next.span, fin.span, open_strip);
      };
      if (word == "if") {
        p.kind = TplPart::If;
        p.expr = parse_expression();
        p.span = between(next.span, next_span());
      } else if (word == "else") {
        p.kind = TplPart::Else;
        p.span = between(next.span, next_span());
      } else if (word == "endif") {
        p.kind = TplPart::EndIf;
        p.span = between(next.span, next_span());
      } else if (word == "for") {
        if (peek().type != Tok::Ident) {
          if (!recovery_)
            error("Invalid 'for' directive", "For directive requires variable name after 'for'.", next_span());
          give_up();
          continue;
        }
        Span key_var, val_var = read().span;
        if (peek().type == Tok::Comma) {
          key_var = val_var;
          read();
          if (peek().type != Tok::Ident) {
            if (!recovery_)
              error("Invalid 'for' directive", "For directive requires value variable name after comma.",
                    next_span());
            give_up();
            continue;
          }
          val_var = read().span;
        }
        if (!is_keyword(peek(), "in")) {
          if (!recovery_)
            error("Invalid 'for' directive", "For directive requires 'in' keyword after names.", next_span());
          give_up();
          continue;
        }
        read();
        p.kind = TplPart::For;
        p.key_var = key_var;
        p.val_var = val_var;
        p.expr = parse_expression();
        p.span = between(next.span, next_span());
      } else if (word == "endfor") {
        p.kind = TplPart::EndFor;
        p.span = between(next.span, next_span());
      } else {
        if (!recovery_) {
          std::string_view suggestion = name_suggestion(word, {"if", "for", "else", "endif", "endfor"});
          std::string detail = uni::go_quote(word) + " is not a valid template control keyword.";
          if (!suggestion.empty()) detail += " Did you mean " + uni::go_quote(suggestion) + "?";
          error("Invalid template control keyword", detail, kw.span, between(next.span, kw.span));
        }
        give_up();
        continue;
      }
      Token close = peek();
      if (close.type != Tok::TemplateSeqEnd) {
        if (!recovery_)
          error("Extra characters in " + std::string(word) + " marker",
                "Expected a closing brace to end the sequence, but found extra characters.", close.span,
                between(start, close.span));
        recover(Tok::TemplateSeqEnd);
      } else {
        read();
        std::string_view ct = text(close);
        p.close_strip = ct.size() == 2 && ct[0] == '~';
      }
      pop_newlines();
      parts.push_back(p);
      continue;
    }

    if (!recovery_)
      error("Unterminated template string", "No closing marker was found for the string.", next.span,
            between(start, next.span));
    Token fin = recover(end);
    end_span = fin.span;
    break;
  }
  return assemble(parts, lits, start, end_span, flush);
}

// Assembles [parts] and files the Builder's diagnostics: escape errors go
// where the reference reports them (while reading their literal, recorded
// in [lits]), nesting errors after everything else of this template.
TplResult Parser::assemble(std::vector<TplPart>& parts, const std::vector<LitAt>& lits, Span start, Span end,
                           bool flush) {
  take_builder_diags();
  TplResult t = b_.assemble_template(parts, start, end, flush);
  Diagnostics& bd = b_.diags();
  std::vector<std::pair<size_t, Diagnostic>> placed;
  for (; seen_ < bd.size(); ++seen_) {
    Diagnostic& d = bd[seen_];
    std::optional<size_t> at;
    if (d.subject && d.summary == "Invalid escape sequence") {
      uint32_t byte = d.subject->start.byte;
      for (const LitAt& l : lits)
        if (byte >= l.span.begin && byte < l.span.end) at = l.diag_pos;
    }
    if (at)
      placed.emplace_back(*at, d);
    else
      diags_.push_back(d);
  }
  // Back to front, so equal positions keep their order and earlier
  // positions stay valid.
  for (auto it = placed.rbegin(); it != placed.rend(); ++it)
    diags_.insert(diags_.begin() + static_cast<std::ptrdiff_t>(it->first), std::move(it->second));
  return t;
}

// --- traversals --------------------------------------------------------------

// Parses `.name`, `[number]` and `["string"]` steps until EOF into [out];
// [anchor] starts the context range of errors. Returns false on an error.
bool Parser::traversal_steps(std::vector<Traverser>& out, Span anchor) {
  for (;;) {
    Token next = peek();
    if (next.type == Tok::EOF_) return true;
    if (next.type == Tok::Dot) {
      Token dot = read();
      Token name = read();
      if (name.type != Tok::Ident) {
        error("Attribute name required",
              name.type == Tok::Star ? "Splat expressions (.*) may not be used here."
                                     : "Dot must be followed by attribute name.",
              name.span, between(anchor, name.span));
        return false;
      }
      out.push_back(b_.attr_step(dot.span, name.span));
      continue;
    }
    if (next.type == Tok::OBrack) {
      Token open = read();
      Token key_tok = peek();
      size_t mark = diags_.size();
      Traverser step{};
      step.kind = StepKind::Index;
      if (key_tok.type == Tok::NumberLit) {
        Token num = read();
        Expr* lit = number(num);
        step.set_key(as<LiteralExpr>(*lit).value);
      } else if (key_tok.type == Tok::OQuote) {
        Span range;
        std::string_view s = parse_quoted_string_literal(&range);
        step.set_key(Literal{LitKind::String, false, s});
      } else {
        if (key_tok.type == Tok::Star)
          error("Attribute name required", "Splat expressions ([*]) may not be used here.", key_tok.span,
                between(anchor, key_tok.span));
        else
          error("Index value required", "Index brackets must contain either a literal number or a literal string.",
                key_tok.span, between(anchor, key_tok.span));
        return false;
      }
      Token close = read();
      if (close.type != Tok::CBrack)
        error("Unclosed index brackets", "Index key must be followed by a closing bracket.", close.span,
              between(open.span, close.span));
      step.span = between(open.span, close.span);
      out.push_back(step);
      // The reference stops at the first error of any step so far; errors
      // only arise in this step, since earlier ones returned.
      if (errors_since(mark)) return false;
      continue;
    }
    error("Invalid character", "Expected an attribute access or an index operator.", next.span,
          between(anchor, next.span));
    return false;
  }
}

// Parses an absolute traversal: a root name and then steps.
List<Traverser> Parser::traversal_abs() {
  push_newlines(false);
  std::vector<Traverser> out;
  Token root = read();
  if (root.type != Tok::Ident) {
    error("Variable name required", "Must begin with a variable name.", root.span);
  } else {
    Traverser t{};
    t.kind = StepKind::Root;
    t.text = text(root);
    t.span = root.span;
    out.push_back(t);
    traversal_steps(out, root.span);
  }
  pop_newlines();
  take_builder_diags();
  return b_.list(out);
}

// Parses a relative traversal: steps only. The reference has no parser for
// these; the steps follow the absolute traversal's rules.
List<Traverser> Parser::traversal_rel() {
  push_newlines(false);
  std::vector<Traverser> out;
  traversal_steps(out, next_span());
  pop_newlines();
  take_builder_diags();
  return b_.list(out);
}

}  // namespace

namespace {

// Runs [entry] of a parser over [tokens] within a stack budget: first on
// this thread, and when the input nests too deeply for that, again from the
// start on a thread with a big stack (discarding the first try's
// diagnostics).
template <class R>
R parse_guarded(Builder& b, const Tokens& tokens, Diagnostics& diags, R (Parser::*entry)()) {
  size_t mark = diags.size();
  return util::run_deep([&](const util::StackBudget& budget) {
    diags.erase(diags.begin() + static_cast<std::ptrdiff_t>(mark), diags.end());
    Parser p(b, tokens, diags, budget);
    R result = (p.*entry)();
    b.settle();
    return result;
  });
}

}  // namespace

Body* recover_config(Builder& b, const Tokens& tokens, Diagnostics& diags) {
  return parse_guarded(b, tokens, diags, &Parser::config);
}

Expr* recover_expression(Builder& b, const Tokens& tokens, Diagnostics& diags) {
  return parse_guarded(b, tokens, diags, &Parser::expression);
}

Expr* recover_template(Builder& b, const Tokens& tokens, Diagnostics& diags) {
  return parse_guarded(b, tokens, diags, &Parser::template_root);
}

// Traversals are flat: they never nest, so they need no guard.
List<Traverser> recover_traversal_abs(Builder& b, const Tokens& tokens, Diagnostics& diags) {
  util::StackBudget budget(util::kInlineStackBudget, true);
  return Parser(b, tokens, diags, budget).traversal_abs();
}

List<Traverser> recover_traversal_rel(Builder& b, const Tokens& tokens, Diagnostics& diags) {
  util::StackBudget budget(util::kInlineStackBudget, true);
  return Parser(b, tokens, diags, budget).traversal_rel();
}

}  // namespace hclvm::syntax
