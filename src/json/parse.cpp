// The JSON syntax's parser (the reference's json/parser.go), on the tokens
// of the re2c scanner in scanner.re (json/scanner.go). The parser follows
// the reference's recursive descent decision for decision: the same
// diagnostics in the same order, the same recovery (which skips to the
// first nested closing brace or bracket, not always the matching one), and
// the same partial tree, with invalid nodes where values were missing.
//
// String and number tokens are checked and decoded as Go's encoding/json
// does, which the reference calls: the offset of the first bad byte of a
// string, one past it as Go counts, gives the error's position. Most
// strings need neither: the scanner marks those that hold only printable
// ASCII without escapes, whose value is their text, shared with the source.
#include <hclvm/json_syntax.h>
#include <hclvm/syntax.h>

#include <cstring>
#include <string>
#include <vector>

#include "json/scanner.h"
#include "util/stack.h"
#include "util/unicode.h"

namespace hclvm {

namespace json {

Range start_range(const Node& n, const std::string& filename) {
  if (n.kind == NodeKind::Object || n.kind == NodeKind::Array) {
    // The opening brace or bracket: one byte, one column.
    Pos end = n.start;
    ++end.column, ++end.byte;
    return Range{filename, n.start, end};
  }
  return range(n, filename);
}

}  // namespace json

namespace {

using namespace hclvm::json;

using json_scan::Scanner;
using json_scan::Tok;
using json_scan::Token;

// --- tokens as Go's encoding/json reads them ---------------------------------------

// Reports whether [c] is a hex digit.
bool is_hex(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// Returns 0 when [s] is a valid JSON string literal (optionally followed by
// white space), else Go's error offset: one past the bad byte, or the
// length of [s] when it ends too soon.
size_t string_error(std::string_view s) {
  enum State { In, Esc, U1, U2, U3, U4, End } st = In;
  for (size_t k = 1; k < s.size(); ++k) {
    auto c = static_cast<unsigned char>(s[k]);
    switch (st) {
      case In:
        if (c == '"') st = End;
        else if (c == '\\') st = Esc;
        else if (c < 0x20) return k + 1;
        break;
      case Esc:
        switch (c) {
          case 'b': case 'f': case 'n': case 'r': case 't': case '\\': case '/': case '"':
            st = In;
            break;
          case 'u': st = U1; break;
          default: return k + 1;
        }
        break;
      case U1: case U2: case U3: case U4:
        if (!is_hex(c)) return k + 1;
        st = st == U4 ? In : State(st + 1);
        break;
      case End:
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return k + 1;
        break;
    }
  }
  return st == End ? 0 : s.size();
}

// Returns the value of the four hex digits after "\u" at [i] of [s], or -1.
int32_t getu4(std::string_view s, size_t i) {
  if (i + 6 > s.size() || s[i] != '\\' || s[i + 1] != 'u') return -1;
  int32_t v = 0;
  for (size_t k = i + 2; k < i + 6; ++k) {
    auto c = static_cast<unsigned char>(s[k]);
    if (!is_hex(c)) return -1;
    v = v * 16 + (c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
  }
  return v;
}

// Decodes the valid string literal [s] (from its opening quote) as Go's
// encoding/json does: escapes resolved, a surrogate \u escape not paired
// with its other half and each byte that is not UTF-8 become U+FFFD.
// Returns a view of [s] when nothing needs changing, else a copy in [arena].
std::string_view decode_string(std::string_view s, Arena& arena) {
  size_t close = s.size();
  while (close > 0 && s[close - 1] != '"') --close;
  std::string_view body = s.substr(1, close - 2);
  size_t r = 0;
  while (r < body.size()) {
    auto c = static_cast<unsigned char>(body[r]);
    if (c == '\\') break;
    if (c < 0x80) {
      ++r;
      continue;
    }
    uni::Rune rr = uni::decode(body, r);
    if (!rr.ok) break;
    r += rr.len;
  }
  if (r == body.size()) return body;
  std::string out(body.substr(0, r));
  while (r < body.size()) {
    auto c = static_cast<unsigned char>(body[r]);
    if (c == '\\') {
      char e = body[r + 1];
      switch (e) {
        case 'b': out += '\b'; r += 2; continue;
        case 'f': out += '\f'; r += 2; continue;
        case 'n': out += '\n'; r += 2; continue;
        case 'r': out += '\r'; r += 2; continue;
        case 't': out += '\t'; r += 2; continue;
        case 'u': break;
        default: out += e; r += 2; continue;  // \\ \/ \"
      }
      int32_t cp = getu4(body, r);
      r += 6;
      if (cp >= 0xD800 && cp < 0xE000) {
        int32_t lo = getu4(body, r);
        if (cp < 0xDC00 && lo >= 0xDC00 && lo < 0xE000) {
          uni::append_utf8(out, char32_t(0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00)));
          r += 6;
          continue;
        }
        cp = 0xFFFD;
      }
      uni::append_utf8(out, char32_t(cp));
      continue;
    }
    if (c < 0x80) {
      out += char(c);
      ++r;
      continue;
    }
    uni::Rune rr = uni::decode(body, r);
    if (rr.ok) out.append(body.substr(r, rr.len));
    else uni::append_utf8(out, 0xFFFD);
    r += rr.len;
  }
  return arena.copy(out);
}

// Reports whether [s] is a number by JSON's grammar.
bool valid_number(std::string_view s) {
  size_t i = 0, n = s.size();
  auto digit = [&](size_t k) { return k < n && s[k] >= '0' && s[k] <= '9'; };
  if (i < n && s[i] == '-') ++i;
  if (!digit(i)) return false;
  if (s[i] == '0') {
    ++i;
  } else {
    while (digit(i)) ++i;
  }
  if (i < n && s[i] == '.') {
    ++i;
    if (!digit(i)) return false;
    while (digit(i)) ++i;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digit(i)) return false;
    while (digit(i)) ++i;
  }
  return i == n;
}

// Reports whether cty.ParseNumberVal accepts the valid JSON number [s]: it
// refuses exponents beyond big.Float's range (1e99999999999), which only
// a long exponent or a huge number of digits can reach, so only those
// are parsed here.
bool parses_as_cty_number(std::string_view s) {
  size_t e = s.find_first_of("eE");
  size_t exp_digits = 0;
  if (e != std::string_view::npos) {
    std::string_view exp = s.substr(e + 1);
    if (!exp.empty() && (exp[0] == '+' || exp[0] == '-')) exp.remove_prefix(1);
    size_t first = exp.find_first_not_of('0');
    exp_digits = first == std::string_view::npos ? 0 : exp.size() - first;
  }
  if (exp_digits < 8 && s.size() < (size_t(1) << 24)) return true;
  return Number::parse(s).has_value();
}

// --- the parser ---------------------------------------------------------------------

// Thrown when the input nests deeper than the last try's stack allows.
struct TooDeep {
  Pos at;
};

class Parser {
 public:
  Parser(const Source& src, Pos start, Arena& arena, Diagnostics& diags,
         const util::StackBudget& budget)
      : sc_(src.text(), start), text_(src.text()), name_(src.name()), arena_(arena),
        diags_(diags), budget_(budget) {}

  Scanner& scanner() { return sc_; }

  // Adds the error [summary] with [detail] on [tok].
  void error(const char* summary, const std::string& detail, const Token& tok) {
    error_at(summary, detail, sc_.start(tok), sc_.stop(tok));
  }

  // Adds the error [summary] with [detail] on [start, stop), with the token
  // [context] as its context when given.
  void error_at(const char* summary, const std::string& detail, Pos start, Pos stop,
                const Token* context = nullptr) {
    Diagnostic d;
    d.summary = summary;
    d.detail = detail;
    d.subject = Range{name_, start, stop};
    if (context) d.context = Range{name_, sc_.start(*context), sc_.stop(*context)};
    diags_.push_back(std::move(d));
  }

  // parseValue: never null; an invalid node where there is no value.
  Node* value() {
    const Token& peeked = sc_.peek();
    switch (peeked.type) {
      case Tok::String: {
        // The common case first, without copying the token.
        if (peeked.simple) return simple_string();
        break;
      }
      case Tok::BraceO:
      case Tok::BrackO:
      case Tok::Number:
      case Tok::Keyword:
        break;
      default:
        return missing_value(peeked);
    }
    Token tok = peeked;
    Node* n = nullptr;
    switch (tok.type) {
      case Tok::BraceO: n = nested(tok, true); break;
      case Tok::BrackO: n = nested(tok, false); break;
      case Tok::Number: n = number(); break;
      case Tok::String: n = string(); break;
      default: n = keyword(); break;
    }
    if (n) return n;
    return invalid(tok);
  }

 private:
  static constexpr const char* kValueStart =
      "A JSON value must start with a brace, a bracket, a number, a string, or a keyword.";

  // Returns the invalid node that stands for a missing value at [tok].
  Node* invalid(const Token& tok) {
    return arena_.make<Node>(Node{NodeKind::Invalid, sc_.start(tok), sc_.stop(tok)});
  }

  // Reports the token [tok], which starts no value, and returns an invalid
  // node in its place (without moving past it).
  [[gnu::noinline]] Node* missing_value(const Token& tok) {
    switch (tok.type) {
      case Tok::BraceC:
        error("Missing JSON value", kValueStart, tok);
        break;
      case Tok::BrackC:
        error("Missing array element value", kValueStart, tok);
        break;
      case Tok::Eof:
        error("Missing value", "The JSON data ends prematurely.", tok);
        break;
      default:
        error("Invalid start of value", kValueStart, tok);
        break;
    }
    return invalid(tok);
  }

  // An object or array, one level of nesting deeper.
  Node* nested(const Token& tok, bool object_) {
    if (budget_.exhausted()) throw TooDeep{sc_.start(tok)};
    return object_ ? object() : array();
  }

  // Skips tokens from [tok] (already read) up to what seems to be the end
  // of the construct: as the reference's recover, the first closing [close]
  // below one level of nesting, or the end.
  void recover(Token tok, Tok open_tok, Tok close_tok) {
    int open = 1;
    for (;;) {
      if (tok.type == open_tok) {
        ++open;
      } else if (tok.type == close_tok) {
        if (--open <= 1) return;
      } else if (tok.type == Tok::Eof) {
        return;
      }
      tok = sc_.read();
    }
  }

  // parseObject: null after an error that ends the object.
  Node* object() {
    Token open = sc_.read();
    // This object's properties go on top of the shared stack, above those
    // of the objects it is nested in, until it is complete.
    size_t base = props_.size();
    for (;;) {
      if (sc_.peek().type == Tok::BraceC) break;
      Node* key = value();
      if (key->kind != NodeKind::String) {
        props_.resize(base);
        Range r = json::start_range(*key, name_);
        error_at("Invalid object property name", "A JSON object property name must be a string",
                 r.start, r.end);
        return nullptr;
      }
      if (sc_.peek().type != Tok::Colon) {
        props_.resize(base);
        return missing_colon();
      }
      sc_.read();
      Node* val = value();
      props_.push_back(Property{static_cast<StringNode*>(key), val});
      switch (sc_.peek().type) {
        case Tok::Comma: {
          Token comma = sc_.read();
          if (sc_.peek().type == Tok::BraceC) {
            props_.resize(base);
            error("Trailing comma in object",
                  "JSON does not permit a trailing comma after the final property in an object.",
                  comma);
            return nullptr;
          }
          continue;
        }
        case Tok::Eof:
          props_.resize(base);
          error("Unclosed object", "No closing brace was found for this JSON object.", open);
          return nullptr;
        case Tok::BrackC:
          props_.resize(base);
          sc_.read();
          error("Mismatched braces", "A JSON object must be closed with a brace, not a bracket.",
                sc_.peek());
          return nullptr;
        case Tok::BraceC: break;
        default:
          props_.resize(base);
          recover(sc_.read(), Tok::BraceO, Tok::BraceC);
          error("Missing attribute seperator comma",
                "A comma must appear between each property definition in an object.", sc_.peek());
          return nullptr;
      }
      break;
    }
    Token close = sc_.read();
    auto* n = arena_.make<ObjectNode>();
    n->kind = NodeKind::Object;
    n->start = sc_.start(open);
    n->end = sc_.stop(close);
    n->properties = pop_list(props_, base);
    n->close_start = sc_.start(close);
    n->close_end = n->end;
    return n;
  }

  // Reports the token after a property name, which is no colon, and skips
  // what follows as the reference does; returns null (the object ends).
  [[gnu::noinline]] Node* missing_colon() {
    Token colon = sc_.read();
    recover(colon, Tok::BraceO, Tok::BraceC);
    if (colon.type == Tok::BraceC || colon.type == Tok::Comma) {
      error("Missing object value",
            "A JSON object attribute must have a value, introduced by a colon.", colon);
    } else if (colon.type == Tok::Equals) {
      error("Missing property value colon",
            "JSON uses a colon as its name/value delimiter, not an equals sign.", colon);
    } else {
      error("Missing property value colon",
            "A colon must appear between an object property's name and its value.", colon);
    }
    return nullptr;
  }

  // parseArray: null after an error that ends the array.
  Node* array() {
    Token open = sc_.read();
    size_t base = items_.size();
    for (;;) {
      if (sc_.peek().type == Tok::BrackC) break;
      Node* item = value();
      items_.push_back(item);
      switch (sc_.peek().type) {
        case Tok::Comma: {
          Token comma = sc_.read();
          if (sc_.peek().type == Tok::BrackC) {
            items_.resize(base);
            error("Trailing comma in array",
                  "JSON does not permit a trailing comma after the final value in an array.",
                  comma);
            return nullptr;
          }
          continue;
        }
        case Tok::Colon:
          items_.resize(base);
          recover(sc_.read(), Tok::BrackO, Tok::BrackC);
          error("Invalid array value", "A colon is not used to introduce values in a JSON array.",
                sc_.peek());
          return nullptr;
        case Tok::Eof:
          items_.resize(base);
          recover(sc_.read(), Tok::BrackO, Tok::BrackC);
          error("Unclosed object", "No closing bracket was found for this JSON array.", open);
          return nullptr;
        case Tok::BraceC:
          items_.resize(base);
          recover(sc_.read(), Tok::BrackO, Tok::BrackC);
          error("Mismatched brackets", "A JSON array must be closed with a bracket, not a brace.",
                sc_.peek());
          return nullptr;
        case Tok::BrackC: break;
        default:
          items_.resize(base);
          recover(sc_.read(), Tok::BrackO, Tok::BrackC);
          error("Missing attribute seperator comma",
                "A comma must appear between each value in an array.", sc_.peek());
          return nullptr;
      }
      break;
    }
    Token close = sc_.read();
    auto* n = arena_.make<ArrayNode>();
    n->kind = NodeKind::Array;
    n->start = sc_.start(open);
    n->end = sc_.stop(close);
    n->items = pop_list(items_, base);
    return n;
  }

  // parseNumber: null when the token is no valid number.
  Node* number() {
    Token tok = sc_.read();
    std::string_view text = text_.substr(tok.begin, tok.end - tok.begin);
    if (!valid_number(text) || !parses_as_cty_number(text)) {
      error("Invalid JSON number", "There is a syntax error in the given JSON number.", tok);
      return nullptr;
    }
    auto* n = arena_.make<NumberNode>();
    n->kind = NodeKind::Number;
    n->start = sc_.start(tok);
    n->end = sc_.stop(tok);
    n->text = text;
    return n;
  }

  // parseString for a string the scanner found simple: valid, and its value
  // is the text between its quotes.
  Node* simple_string() {
    Token tok = sc_.read();
    auto* n = arena_.make<StringNode>();
    n->kind = NodeKind::String;
    n->start = sc_.start(tok);
    n->end = sc_.stop(tok);
    n->value = text_.substr(tok.begin + 1, tok.end - tok.begin - 2);
    return n;
  }

  // parseString: null when the token is no valid string.
  Node* string() {
    Token tok = sc_.read();
    std::string_view text = text_.substr(tok.begin, tok.end - tok.begin);
    Pos start = sc_.start(tok);
    if (size_t ofs = string_error(text)) {
      // Go's error offset counted in bytes, for the column too.
      Pos at = start;
      at.byte += uint32_t(ofs);
      at.column += uint32_t(ofs);
      Pos after = at;
      ++after.byte, ++after.column;
      bool same = at == start && after == sc_.stop(tok);
      error_at("Invalid JSON string", "There is a syntax error in the given JSON string.", at,
               after, same ? nullptr : &tok);
      return nullptr;
    }
    auto* n = arena_.make<StringNode>();
    n->kind = NodeKind::String;
    n->start = start;
    n->end = sc_.stop(tok);
    n->value = decode_string(text, arena_);
    return n;
  }

  // parseKeyword: null for anything but true, false and null.
  Node* keyword() {
    Token tok = sc_.read();
    std::string_view s = text_.substr(tok.begin, tok.end - tok.begin);
    if (s == "true" || s == "false") {
      auto* n = arena_.make<BoolNode>();
      n->kind = NodeKind::Bool;
      n->start = sc_.start(tok);
      n->end = sc_.stop(tok);
      n->value = s == "true";
      return n;
    }
    if (s == "null") return arena_.make<Node>(Node{NodeKind::Null, sc_.start(tok), sc_.stop(tok)});
    std::string quoted = uni::go_quote(s);
    if (s == "undefined" || s == "NaN" || s == "Infinity") {
      error("Invalid JSON keyword",
            "The JavaScript identifier " + quoted + " cannot be used in JSON.", tok);
      return nullptr;
    }
    std::string detail = quoted + " is not a valid JSON keyword.";
    for (const char* k : {"false", "true", "null"}) {
      if (uni::levenshtein_below(s, k, 3) < 3) {
        detail += " Did you mean " + uni::go_quote(k) + "?";
        break;
      }
    }
    error("Invalid JSON keyword", detail, tok);
    return nullptr;
  }

  // Returns the elements of [stack] from [base] on copied into the arena,
  // and removes them from [stack].
  template <class T>
  ast::List<T> pop_list(std::vector<T>& stack, size_t base) {
    ast::List<T> l;
    size_t n = stack.size() - base;
    l.data = arena_.array<T>(n);
    if (n) std::memcpy(l.data, stack.data() + base, n * sizeof(T));
    l.size = uint32_t(n);
    stack.resize(base);
    return l;
  }

  Scanner sc_;
  std::string_view text_;
  const std::string& name_;
  Arena& arena_;
  Diagnostics& diags_;
  const util::StackBudget& budget_;
  // The properties and items of the objects and arrays being parsed, the
  // innermost's on top: one allocation for all of them.
  std::vector<Property> props_;
  std::vector<Node*> items_;
};

// Offsets are 32-bit: the largest input a parse takes.
constexpr size_t kMaxInput = size_t(UINT32_MAX) - 1;

// Cuts what nests deeper than kMaxNesting (hclvm/syntax.h) out of [r]'s
// tree: the first value found that deep becomes an invalid value (as where
// the input had none), reported once; later passes over the tree and the
// values made from it then never recurse deeper than the limit. The walk
// keeps its own stack.
void limit_nesting(JsonParse& r) {
  struct Item {
    Node** slot;  // where the parent points to the node
    uint32_t depth;
  };
  Node* root = const_cast<Node*>(r.root);
  std::vector<Item> todo{{&root, 1}};
  while (!todo.empty()) {
    Item it = todo.back();
    todo.pop_back();
    Node* n = *it.slot;
    if (it.depth > kMaxNesting) {
      r.diagnostics.push_back(
          Diagnostic{Severity::Error, "Nesting too deep",
                     "Objects and arrays are nested more than " + std::to_string(kMaxNesting) +
                         " levels deep, which hclvm does not accept.",
                     json::range(*n, r.source->name()), std::nullopt});
      *it.slot = r.arena->make<Node>(Node{NodeKind::Invalid, n->start, n->end});
      break;
    }
    if (n->kind == NodeKind::Array) {
      for (Node*& item : static_cast<ArrayNode*>(n)->items) todo.push_back({&item, it.depth + 1});
    } else if (n->kind == NodeKind::Object) {
      for (Property& p : static_cast<ObjectNode*>(n)->properties)
        todo.push_back({&p.value, it.depth + 1});
    }
  }
  r.root = root;
}

// Parses [src] from [start] as one value (parseFileContent and
// parseExpression are the same function in the reference).
JsonParse parse_value(std::shared_ptr<const Source> src, Pos start) {
  JsonParse r;
  r.source = src;
  if (src->text().size() > kMaxInput) {
    r.arena = std::make_unique<Arena>();
    r.diagnostics.push_back(Diagnostic{Severity::Error, "File too large",
                                       "hclvm reads files of up to 4 GiB; this one has " +
                                           std::to_string(src->text().size()) + " bytes.",
                                       std::nullopt, std::nullopt});
    r.root = r.arena->make<Node>(Node{NodeKind::Invalid, start, start});
    return r;
  }
  // The parser recurses once per level of nesting: input too deep for this
  // thread's stack is parsed again on a big one (util/stack.h).
  struct Out {
    std::unique_ptr<Arena> arena;
    Diagnostics diags;
    const Node* root;
  };
  Out out = util::run_deep([&](const util::StackBudget& budget) {
    Out o;
    o.arena = std::make_unique<Arena>();
    Parser p(*src, start, *o.arena, o.diags, budget);
    try {
      o.root = p.value();
      if (o.diags.empty() && p.scanner().peek().type != Tok::Eof)
        p.error("Extraneous data after value", "Extra characters appear after the JSON value.",
                p.scanner().peek());
    } catch (const TooDeep& e) {
      Pos after = e.at;
      ++after.byte, ++after.column;
      p.error_at("Nesting too deep",
                 "Objects and arrays are nested too deeply here to be parsed.", e.at, after);
      o.root = o.arena->make<Node>(Node{NodeKind::Invalid, start, start});
    }
    return o;
  });
  r.arena = std::move(out.arena);
  r.diagnostics = std::move(out.diags);
  r.root = out.root;
  limit_nesting(r);
  return r;
}

}  // namespace

JsonParse parse_json_expression(std::shared_ptr<const Source> src, Pos start) {
  return parse_value(std::move(src), start);
}

JsonParse parse_json_config(std::shared_ptr<const Source> src, Pos start) {
  JsonParse r = parse_value(std::move(src), start);
  if (r.root->kind == NodeKind::Object || r.root->kind == NodeKind::Array) return r;
  Diagnostic d;
  d.summary = "Root value must be object";
  d.detail =
      "The root value in a JSON-based configuration must be either a JSON object or a JSON "
      "array of objects.";
  d.subject = json::start_range(*r.root, r.source->name());
  r.diagnostics.push_back(std::move(d));
  // An empty object in its place, so that a body read from it reports
  // nothing more; its range is the file's start whatever [start] was.
  auto* o = r.arena->make<ObjectNode>();
  o->kind = NodeKind::Object;
  o->start = o->end = Pos{1, 1, 0};
  o->close_start = o->close_end = Pos{0, 0, 0};
  r.root = o;
  return r;
}

}  // namespace hclvm
