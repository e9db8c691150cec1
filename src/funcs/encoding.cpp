// Encoding functions. go-cty's stdlib json.go and csv.go (Terraform uses
// them as they are): jsonencode and jsondecode, through the JSON forms of
// values (value/json.h), and csvdecode, with a reader that follows Go's
// encoding/csv record by record (RFC 4180 quoting, empty lines skipped,
// \r\n read as \n) so that its errors name the same lines. Terraform's
// internal/lang/funcs/encoding.go: base64encode, base64decode, base64gzip
// (zlib), urlencode, and textencodebase64 / textdecodebase64 with the
// character sets golang.org/x/text's IANA index names.
#include <iconv.h>
#include <utf8proc.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "funcs/funcs.h"
#include "funcs/hash.h"
#include "util/unicode.h"
#include "value/json.h"
#include "value/refine.h"
#include <hclvm/functions.h>

namespace hclvm::funcs {

namespace {

Function jsonencode_fn() {
  Function f;
  f.description = "Returns a string containing a JSON representation of the given value.";
  f.params = {param("val", Type::dynamic(), kDynamic | kNull | kUnknown)};
  f.returns(Type::string());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type* ret) {
    const Value& v = args[0];
    if (!v.is_wholly_known()) {
      // Unknowns cannot be written, but unless the value may be null its
      // first character is known from its type.
      ValueRange rng = value_range(v);
      if (rng.could_be_null()) return FuncResult::of(Value::unknown(ret));
      const Type* t = rng.type_constraint();
      RefinementBuilder b = refine(Value::unknown(ret));
      if (t == Type::string())
        b.string_prefix_full("\"");
      else if (t->is_object() || t->is_map())
        b.string_prefix_full("{");
      else if (t->is_tuple() || t->is_list() || t->is_set())
        b.string_prefix_full("[");
      return FuncResult::of(b.new_value());
    }
    if (v.is_null()) return FuncResult::of(Value::string("null"));
    ScratchText json;
    if (std::optional<JsonError> e = append_json(*json, v, v.type()))
      return FuncResult::fail(std::move(e->message));
    return FuncResult::of(Value::string(*json));
  };
  return f;
}

// The document this thread's last jsondecode type check read, and its
// value: the call that follows the check (cty's function protocol: the
// return type first, then the result) takes it instead of reading the
// document again. The text is held, so that its address, which identifies
// it, is not reused meanwhile.
struct Decoded {
  Value text, value;
};
Decoded& last_decoded() {
  thread_local Decoded last;
  return last;
}

Function jsondecode_fn() {
  Function f;
  f.description =
      "Parses the given string as JSON and returns a value corresponding to what the JSON "
      "document describes.";
  f.params = {param("str", Type::string())};
  f.type = [](std::span<const Value> args) {
    const Value& s = args[0];
    if (!s.is_known()) {
      // A known prefix may already tell the type, or that it is not JSON.
      ValueRange rng = value_range(s);
      std::string_view prefix = uni::trim_right_space(uni::trim_left_space(rng.string_prefix()));
      if (!prefix.empty()) {
        uni::Rune r = uni::decode(prefix, 0);
        char32_t c = r.ok ? r.cp : char32_t(0xFFFD);
        switch (c) {
          case '{':
          case '[':
          case 'n': break;
          case '"': return type_ok(Type::string());
          case 't':
          case 'f': return type_ok(Type::boolean());
          case '-':
          case '0':
          case '1':
          case '2':
          case '3':
          case '4':
          case '5':
          case '6':
          case '7':
          case '8':
          case '9': return type_ok(Type::number());
          default: return type_error("a JSON document cannot begin with " + quote_rune(c), 0);
        }
      }
      return type_ok(Type::dynamic());
    }
    // Usually the document is read here, once, and the call that follows
    // takes the value (see last_decoded).
    Decoded& last = last_decoded();
    Value v;
    if (from_json_simple_fast(s.as_string(), v)) {
      last = {s, std::move(v)};
      return type_ok(last.value.type());
    }
    JsonResult<const Type*> t = implied_type(s.as_string());
    if (!t.ok()) return type_error(t.error->message);
    return type_ok(t.value);
  };
  f.impl = [](std::span<const Value> args, const Type* ret) {
    Decoded& last = last_decoded();
    std::string_view text = args[0].as_string();
    if (last.text.rep() == Value::Rep::String && last.text.as_string().data() == text.data() &&
        last.text.as_string().size() == text.size() && last.value.type() == ret) {
      Value v = std::move(last.value);
      last = {};
      return FuncResult::of(std::move(v));
    }
    JsonResult<Value> v = from_json(args[0].as_string(), ret);
    if (!v.ok()) return FuncResult::fail(v.error->message);
    return FuncResult::of(std::move(v.value));
  };
  return f;
}

// Go's encoding/csv Reader with its default settings, reading records.
class CsvReader {
 public:
  explicit CsvReader(std::string_view in) : in_(in) {}

  // What read() found: a record, the end of the input, or an error.
  enum class Status { Record, End, Error };

  // Reads the next record into [fields]; on an error, [err] is the message
  // with its line as csvError words it. [want] > 0: the record must have
  // that many fields.
  Status read(std::vector<std::string>& fields, size_t want, std::string& err);

 private:
  // Go's readLine: the next line with its "\n" ("\r\n" read as "\n"),
  // or nullopt at the end.
  std::optional<std::string> read_line();

  std::string_view in_;
  size_t pos_ = 0;
  int64_t num_line_ = 0;
};

std::optional<std::string> CsvReader::read_line() {
  ++num_line_;  // Go counts the read that meets the end too
  if (pos_ >= in_.size()) return std::nullopt;
  size_t nl = in_.find('\n', pos_);
  std::string line;
  if (nl == std::string_view::npos) {
    line = std::string(in_.substr(pos_));
    pos_ = in_.size();
    if (!line.empty() && line.back() == '\r') line.pop_back();
  } else {
    line = std::string(in_.substr(pos_, nl + 1 - pos_));
    pos_ = nl + 1;
  }
  size_t n = line.size();
  if (n >= 2 && line[n - 2] == '\r' && line[n - 1] == '\n') {
    line.pop_back();
    line.back() = '\n';
  }
  return line;
}

CsvReader::Status CsvReader::read(std::vector<std::string>& fields, size_t want, std::string& err) {
  auto nl_len = [](std::string_view l) -> size_t { return !l.empty() && l.back() == '\n'; };
  std::optional<std::string> got;
  for (;;) {
    got = read_line();
    if (!got) return Status::End;
    if (got->size() == nl_len(*got)) continue;  // empty lines are skipped
    break;
  }
  auto fail = [&](int64_t line, const char* what) {
    err = "CSV parse error on line " + std::to_string(line) + ": " + what;
    return Status::Error;
  };
  int64_t rec_line = num_line_;
  int64_t pos_line = num_line_;
  std::string_view line = *got;
  std::string storage;  // the current line when a quoted field reads on
  fields.clear();
  for (;;) {
    if (line.empty() || line[0] != '"') {
      size_t comma = line.find(',');
      std::string_view field = comma != std::string_view::npos
                                   ? line.substr(0, comma)
                                   : line.substr(0, line.size() - nl_len(line));
      if (field.find('"') != std::string_view::npos) {
        return fail(num_line_, "bare \" in non-quoted-field");
      }
      check_push(fields);  // a record has no more fields than an object attributes
      fields.emplace_back(field);
      if (comma == std::string_view::npos) break;
      line.remove_prefix(comma + 1);
      continue;
    }
    // A quoted field, perhaps over several lines.
    line.remove_prefix(1);
    std::string field;
    bool next_field = false;
    for (;;) {
      size_t q = line.find('"');
      if (q != std::string_view::npos) {
        field.append(line.substr(0, q));
        line.remove_prefix(q + 1);
        if (!line.empty() && line[0] == '"') {
          field += '"';
          line.remove_prefix(1);
        } else if (!line.empty() && line[0] == ',') {
          line.remove_prefix(1);
          next_field = true;
          break;
        } else if (line.size() == nl_len(line)) {
          break;
        } else {
          return fail(num_line_, "extraneous or missing \" in quoted-field");
        }
      } else if (!line.empty()) {
        field.append(line);
        std::optional<std::string> more = read_line();
        storage = more.value_or("");
        line = storage;
        if (!line.empty()) ++pos_line;
      } else {
        return fail(pos_line, "extraneous or missing \" in quoted-field");
      }
    }
    check_push(fields);
    fields.push_back(std::move(field));
    if (!next_field) break;
  }
  if (want > 0 && fields.size() != want) return fail(rec_line, "wrong number of fields");
  return Status::Record;
}

Function csvdecode_fn() {
  Function f;
  f.description =
      "Parses the given string as Comma Separated Values (as defined by RFC 4180) and returns a "
      "map of objects representing the table of data, using the first row as a header row to "
      "define the object attributes.";
  f.params = {param("str", Type::string())};
  f.type = [](std::span<const Value> args) {
    if (!args[0].is_known()) return type_ok(Type::dynamic());
    CsvReader r(args[0].as_string());
    std::vector<std::string> headers;
    std::string err;
    CsvReader::Status st = r.read(headers, 0, err);
    if (st == CsvReader::Status::End) return type_error("missing header line");
    if (st == CsvReader::Status::Error) return type_error(err);
    // The header names the attributes of one object type: no more than an
    // object may have, checked before the type is built.
    util::check_collection_size(headers.size());
    std::map<std::string, const Type*, std::less<>> attrs;
    for (const std::string& h : headers) {
      if (attrs.count(h)) return type_error("duplicate column name " + quote(h));
      attrs[h] = Type::string();
    }
    std::vector<TypeAttr> tattrs;
    for (auto& [name, t] : attrs) tattrs.push_back({name, t, false});
    return type_ok(Type::list(Type::object(tattrs)));
  };
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type* ret) {
    const Type* ety = ret->element();
    CsvReader r(args[0].as_string());
    std::vector<std::string> headers, cols;
    std::string err;
    if (r.read(headers, ety->size(), err) != CsvReader::Status::Record) {
      return FuncResult::fail(err);
    }
    std::vector<Value> rows;
    for (;;) {
      CsvReader::Status st = r.read(cols, ety->size(), err);
      if (st == CsvReader::Status::End) break;
      if (st == CsvReader::Status::Error) return FuncResult::fail(err);
      std::vector<std::pair<std::string, Value>> vals;
      for (size_t i = 0; i < cols.size(); ++i)
        vals.emplace_back(headers[i], Value::string(cols[i]));
      check_push(rows);
      poll_every(rows.size());
      rows.push_back(Value::object(std::move(vals)));
    }
    return FuncResult::of(Value::list(ety, std::move(rows)));
  };
  return f;
}

// --- Terraform's encoding functions -----------------------------------------------

Function base64encode_fn() {
  Function f;
  f.description = "Returns the standard base64 encoding of the given string's UTF-8 bytes.";
  f.params = {param("str", Type::string())};
  f.returns(Type::string());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    return FuncResult::of(Value::string(base64_encode(args[0].as_string())));
  };
  return f;
}

Function base64decode_fn() {
  Function f;
  f.description =
      "Decodes the given standard base64 text; the bytes it stands for must be UTF-8 text.";
  f.params = {param("str", Type::string(), kUnknown | kMarked)};
  f.returns(Type::string());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type* ret) {
    auto [str, marks] = args[0].unmark_with_marks();
    if (!str.is_known()) return FuncResult::of(Value::unknown(ret).mark(marks));
    std::string_view s = str.as_string();
    std::string bytes;
    size_t bad = 0;
    if (!base64_decode(s, bytes, bad)) {
      // The text is quoted unless it is sensitive.
      return FuncResult::fail(
          "failed to decode base64 data " +
          (marks.has("sensitive") ? std::string("(sensitive value)") : quote(s)));
    }
    if (!uni::valid_utf8(bytes)) {
      return FuncResult::fail("the result of decoding the provided string is not valid UTF-8");
    }
    return FuncResult::of(Value::string(bytes).mark(marks));
  };
  return f;
}

// Go's gzip.Writer at the default level, written, flushed and closed: a
// header with no name, time or flags and OS byte 255, the deflate stream
// ended by a sync flush and then an empty final stored block, and the
// CRC-32 and size trailer. The deflate bytes come from zlib, so for longer
// input they can differ from Go's compress/flate while decompressing to the
// same text.
std::string gzip_like_go(std::string_view data, std::string& err) {
  std::string out = {'\x1f', '\x8b', '\x08', 0, 0, 0, 0, 0, 0, '\xff'};
  z_stream zs{};
  if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    err = "failed to write gzip raw data: zlib initialization failed";
    return "";
  }
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = uInt(data.size());
  char buf[16384];
  int rc = Z_OK;
  do {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    rc = deflate(&zs, Z_SYNC_FLUSH);
    out.append(buf, sizeof buf - zs.avail_out);
  } while (rc == Z_OK && (zs.avail_in > 0 || zs.avail_out == 0));
  deflateEnd(&zs);
  if (rc != Z_OK && rc != Z_BUF_ERROR) {
    err = "failed to flush gzip writer: zlib deflate failed";
    return "";
  }
  out.append("\x01\x00\x00\xff\xff", 5);
  uLong crc = crc32(0L, reinterpret_cast<const Bytef*>(data.data()), uInt(data.size()));
  uint32_t size = uint32_t(data.size());
  for (uint32_t v : {uint32_t(crc), size}) {
    for (int k = 0; k < 4; ++k) out += char((v >> (8 * k)) & 0xFF);
  }
  return out;
}

Function base64gzip_fn() {
  Function f;
  f.description =
      "Compresses the given string's UTF-8 bytes with gzip and returns the result in base64.";
  f.params = {param("str", Type::string())};
  f.returns(Type::string());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    std::string err;
    std::string gz = gzip_like_go(args[0].as_string(), err);
    if (!err.empty()) return FuncResult::fail(err);
    return FuncResult::of(Value::string(base64_encode(gz)));
  };
  return f;
}

Function urlencode_fn() {
  Function f;
  f.description = "Percent-encodes the given string for use in a URL query (spaces become \"+\").";
  f.params = {param("str", Type::string())};
  f.returns(Type::string());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    // Go's url.QueryEscape: only letters, digits and "-_.~" stay as they are.
    static constexpr char kHex[] = "0123456789ABCDEF";
    auto kept = [](unsigned char c) {
      return std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || c == ' ';
    };
    std::string_view in = args[0].as_string();
    // Each escaped byte takes three: the size is known before the text is built.
    auto escaped = uint64_t(std::count_if(in.begin(), in.end(), [&](char c) { return !kept(uint8_t(c)); }));
    util::check_string_size(in.size() + 2 * escaped);
    std::string out;
    out.reserve(size_t(in.size() + 2 * escaped));
    for (unsigned char c : in) {
      if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
        out += char(c);
      } else if (c == ' ') {
        out += '+';
      } else {
        out += '%';
        out += kHex[c >> 4];
        out += kHex[c & 15];
      }
    }
    return FuncResult::of(Value::string(out));
  };
  return f;
}

// --- character sets for textencodebase64 and textdecodebase64 -------------------------

// How a character set is converted. The Unicode forms and ASCII are done
// here, exactly as golang.org/x/text does them; the others go through the C
// library's iconv: single-byte sets through a 256-entry table built from it
// and corrected where x/text's tables differ, multibyte sets directly
// (their tables can differ from x/text's WHATWG tables in rare characters).
enum class CharsetKind : uint8_t { Utf8, Utf16, Utf16Be, Utf16Le, Ascii, SingleByte, MultiByte };

struct Charset {
  std::string_view name;  // the canonical IANA name, as the reference reports it
  CharsetKind kind;
  const char* iconv = nullptr;
  // Single-byte sets whose bytes 0x80-0x9F x/text leaves undefined (the C
  // library reads them as C1 controls).
  bool no_c1 = false;
};

using CK = CharsetKind;
constexpr Charset kCharsets[] = {
    {"Big5", CK::MultiByte, "BIG5-HKSCS"},
    {"EUC-KR", CK::MultiByte, "EUC-KR"},
    {"Extended_UNIX_Code_Packed_Format_for_Japanese", CK::MultiByte, "EUC-JP-MS"},
    {"GB18030", CK::MultiByte, "GB18030"},
    {"GBK", CK::MultiByte, "GBK"},
    {"IBM00858", CK::SingleByte, "IBM858"},
    {"IBM01140", CK::SingleByte, "IBM1140"},
    {"IBM037", CK::SingleByte, "IBM037"},
    {"IBM1047", CK::SingleByte, "IBM1047"},
    {"IBM437", CK::SingleByte, "IBM437"},
    {"IBM850", CK::SingleByte, "IBM850"},
    {"IBM852", CK::SingleByte, "IBM852"},
    {"IBM855", CK::SingleByte, "IBM855"},
    {"IBM860", CK::SingleByte, "IBM860"},
    {"IBM862", CK::SingleByte, "IBM862"},
    {"IBM863", CK::SingleByte, "IBM863"},
    {"IBM865", CK::SingleByte, "IBM865"},
    {"IBM866", CK::SingleByte, "IBM866"},
    {"ISO-2022-JP", CK::MultiByte, "ISO-2022-JP"},
    {"ISO-8859-10", CK::SingleByte, "ISO-8859-10", true},
    {"ISO-8859-13", CK::SingleByte, "ISO-8859-13", true},
    {"ISO-8859-14", CK::SingleByte, "ISO-8859-14", true},
    {"ISO-8859-15", CK::SingleByte, "ISO-8859-15", true},
    {"ISO-8859-16", CK::SingleByte, "ISO-8859-16", true},
    {"ISO_8859-1:1987", CK::SingleByte, "ISO-8859-1"},
    {"ISO_8859-2:1987", CK::SingleByte, "ISO-8859-2", true},
    {"ISO_8859-3:1988", CK::SingleByte, "ISO-8859-3", true},
    {"ISO_8859-4:1988", CK::SingleByte, "ISO-8859-4", true},
    {"ISO_8859-5:1988", CK::SingleByte, "ISO-8859-5", true},
    {"ISO_8859-6-E", CK::SingleByte, "ISO-8859-6", true},
    {"ISO_8859-6-I", CK::SingleByte, "ISO-8859-6", true},
    {"ISO_8859-6:1987", CK::SingleByte, "ISO-8859-6", true},
    {"ISO_8859-7:1987", CK::SingleByte, "ISO-8859-7", true},
    {"ISO_8859-8-E", CK::SingleByte, "ISO-8859-8", true},
    {"ISO_8859-8-I", CK::SingleByte, "ISO-8859-8", true},
    {"ISO_8859-8:1988", CK::SingleByte, "ISO-8859-8", true},
    {"ISO_8859-9:1989", CK::SingleByte, "ISO-8859-9"},
    {"KOI8-R", CK::SingleByte, "KOI8-R"},
    {"KOI8-U", CK::SingleByte, "KOI8-U"},
    {"Shift_JIS", CK::MultiByte, "CP932"},
    {"US-ASCII", CK::Ascii},
    {"UTF-16", CK::Utf16},
    {"UTF-16BE", CK::Utf16Be},
    {"UTF-16LE", CK::Utf16Le},
    {"UTF-8", CK::Utf8},
    {"macintosh", CK::SingleByte, "MACINTOSH"},
    {"windows-1250", CK::SingleByte, "CP1250"},
    {"windows-1251", CK::SingleByte, "CP1251"},
    {"windows-1252", CK::SingleByte, "CP1252"},
    {"windows-1253", CK::SingleByte, "CP1253"},
    {"windows-1254", CK::SingleByte, "CP1254"},
    {"windows-1255", CK::SingleByte, "CP1255"},
    {"windows-1256", CK::SingleByte, "CP1256"},
    {"windows-1257", CK::SingleByte, "CP1257"},
    {"windows-1258", CK::SingleByte, "CP1258"},
    {"windows-874", CK::SingleByte, "CP874"},
};

// The names and aliases golang.org/x/text's ianaindex accepts for the sets
// above (lowercase; the look-up lowercases the name), with the canonical
// name of each. HZ-GB-2312, which x/text also has, is not offered: the C
// library has no converter for it.
struct CharsetAlias {
  std::string_view alias, name;
};
// clang-format off
constexpr CharsetAlias kCharsetAliases[] = {
    {"437", "IBM437"}, {"850", "IBM850"}, {"852", "IBM852"}, {"855", "IBM855"}, {"860", "IBM860"},
    {"862", "IBM862"}, {"863", "IBM863"}, {"865", "IBM865"}, {"866", "IBM866"},
    {"ansi_x3.4-1968", "US-ASCII"}, {"ansi_x3.4-1986", "US-ASCII"}, {"arabic", "ISO_8859-6:1987"},
    {"asmo-708", "ISO_8859-6:1987"}, {"big5", "Big5"}, {"ccsid00858", "IBM00858"},
    {"ccsid01140", "IBM01140"}, {"cp00858", "IBM00858"}, {"cp01140", "IBM01140"},
    {"cp037", "IBM037"}, {"cp367", "US-ASCII"}, {"cp437", "IBM437"}, {"cp819", "ISO_8859-1:1987"},
    {"cp850", "IBM850"}, {"cp852", "IBM852"}, {"cp855", "IBM855"}, {"cp860", "IBM860"},
    {"cp862", "IBM862"}, {"cp863", "IBM863"}, {"cp865", "IBM865"}, {"cp866", "IBM866"},
    {"cp936", "GBK"}, {"csascii", "US-ASCII"}, {"csbig5", "Big5"}, {"cseuckr", "EUC-KR"},
    {"cseucpkdfmtjapanese", "Extended_UNIX_Code_Packed_Format_for_Japanese"},
    {"csgb18030", "GB18030"}, {"csgbk", "GBK"}, {"csibm00858", "IBM00858"},
    {"csibm01140", "IBM01140"}, {"csibm037", "IBM037"}, {"csibm1047", "IBM1047"},
    {"csibm855", "IBM855"}, {"csibm860", "IBM860"}, {"csibm863", "IBM863"}, {"csibm865", "IBM865"},
    {"csibm866", "IBM866"}, {"csiso2022jp", "ISO-2022-JP"}, {"csiso885913", "ISO-8859-13"},
    {"csiso885914", "ISO-8859-14"}, {"csiso885915", "ISO-8859-15"}, {"csiso885916", "ISO-8859-16"},
    {"csiso88596e", "ISO_8859-6-E"}, {"csiso88596i", "ISO_8859-6-I"},
    {"csiso88598e", "ISO_8859-8-E"}, {"csiso88598i", "ISO_8859-8-I"},
    {"csisolatin1", "ISO_8859-1:1987"}, {"csisolatin2", "ISO_8859-2:1987"},
    {"csisolatin3", "ISO_8859-3:1988"}, {"csisolatin4", "ISO_8859-4:1988"},
    {"csisolatin5", "ISO_8859-9:1989"}, {"csisolatin6", "ISO-8859-10"},
    {"csisolatinarabic", "ISO_8859-6:1987"}, {"csisolatincyrillic", "ISO_8859-5:1988"},
    {"csisolatingreek", "ISO_8859-7:1987"}, {"csisolatinhebrew", "ISO_8859-8:1988"},
    {"cskoi8r", "KOI8-R"}, {"cskoi8u", "KOI8-U"}, {"csmacintosh", "macintosh"},
    {"cspc850multilingual", "IBM850"}, {"cspc862latinhebrew", "IBM862"},
    {"cspc8codepage437", "IBM437"}, {"cspcp852", "IBM852"}, {"csshiftjis", "Shift_JIS"},
    {"csutf16", "UTF-16"}, {"csutf16be", "UTF-16BE"}, {"csutf16le", "UTF-16LE"},
    {"csutf8", "UTF-8"}, {"cswindows1250", "windows-1250"}, {"cswindows1251", "windows-1251"},
    {"cswindows1252", "windows-1252"}, {"cswindows1253", "windows-1253"},
    {"cswindows1254", "windows-1254"}, {"cswindows1255", "windows-1255"},
    {"cswindows1256", "windows-1256"}, {"cswindows1257", "windows-1257"},
    {"cswindows1258", "windows-1258"}, {"cswindows874", "windows-874"},
    {"cyrillic", "ISO_8859-5:1988"}, {"ebcdic-cp-ca", "IBM037"}, {"ebcdic-cp-nl", "IBM037"},
    {"ebcdic-cp-us", "IBM037"}, {"ebcdic-cp-wt", "IBM037"}, {"ebcdic-us-37+euro", "IBM01140"},
    {"ecma-114", "ISO_8859-6:1987"}, {"ecma-118", "ISO_8859-7:1987"},
    {"elot_928", "ISO_8859-7:1987"}, {"euc-jp", "Extended_UNIX_Code_Packed_Format_for_Japanese"},
    {"euc-kr", "EUC-KR"},
    {"extended_unix_code_packed_format_for_japanese",
     "Extended_UNIX_Code_Packed_Format_for_Japanese"},
    {"gb18030", "GB18030"}, {"gbk", "GBK"}, {"greek", "ISO_8859-7:1987"},
    {"greek8", "ISO_8859-7:1987"}, {"hebrew", "ISO_8859-8:1988"}, {"ibm-1047", "IBM1047"},
    {"ibm00858", "IBM00858"}, {"ibm01140", "IBM01140"}, {"ibm037", "IBM037"},
    {"ibm1047", "IBM1047"}, {"ibm367", "US-ASCII"}, {"ibm437", "IBM437"},
    {"ibm819", "ISO_8859-1:1987"}, {"ibm850", "IBM850"}, {"ibm852", "IBM852"},
    {"ibm855", "IBM855"}, {"ibm860", "IBM860"}, {"ibm862", "IBM862"}, {"ibm863", "IBM863"},
    {"ibm865", "IBM865"}, {"ibm866", "IBM866"}, {"iso-2022-jp", "ISO-2022-JP"},
    {"iso-8859-1", "ISO_8859-1:1987"}, {"iso-8859-10", "ISO-8859-10"},
    {"iso-8859-13", "ISO-8859-13"}, {"iso-8859-14", "ISO-8859-14"}, {"iso-8859-15", "ISO-8859-15"},
    {"iso-8859-16", "ISO-8859-16"}, {"iso-8859-2", "ISO_8859-2:1987"},
    {"iso-8859-3", "ISO_8859-3:1988"}, {"iso-8859-4", "ISO_8859-4:1988"},
    {"iso-8859-5", "ISO_8859-5:1988"}, {"iso-8859-6", "ISO_8859-6:1987"},
    {"iso-8859-6-e", "ISO_8859-6-E"}, {"iso-8859-6-i", "ISO_8859-6-I"},
    {"iso-8859-7", "ISO_8859-7:1987"}, {"iso-8859-8", "ISO_8859-8:1988"},
    {"iso-8859-8-e", "ISO_8859-8-E"}, {"iso-8859-8-i", "ISO_8859-8-I"},
    {"iso-8859-9", "ISO_8859-9:1989"}, {"iso-celtic", "ISO-8859-14"},
    {"iso-ir-100", "ISO_8859-1:1987"}, {"iso-ir-101", "ISO_8859-2:1987"},
    {"iso-ir-109", "ISO_8859-3:1988"}, {"iso-ir-110", "ISO_8859-4:1988"},
    {"iso-ir-126", "ISO_8859-7:1987"}, {"iso-ir-127", "ISO_8859-6:1987"},
    {"iso-ir-138", "ISO_8859-8:1988"}, {"iso-ir-144", "ISO_8859-5:1988"},
    {"iso-ir-148", "ISO_8859-9:1989"}, {"iso-ir-157", "ISO-8859-10"},
    {"iso-ir-199", "ISO-8859-14"}, {"iso-ir-226", "ISO-8859-16"}, {"iso-ir-6", "US-ASCII"},
    {"iso646-us", "US-ASCII"}, {"iso_646.irv:1991", "US-ASCII"}, {"iso_8859-1", "ISO_8859-1:1987"},
    {"iso_8859-10:1992", "ISO-8859-10"}, {"iso_8859-14", "ISO-8859-14"},
    {"iso_8859-14:1998", "ISO-8859-14"}, {"iso_8859-15", "ISO-8859-15"},
    {"iso_8859-16", "ISO-8859-16"}, {"iso_8859-16:2001", "ISO-8859-16"},
    {"iso_8859-1:1987", "ISO_8859-1:1987"}, {"iso_8859-2", "ISO_8859-2:1987"},
    {"iso_8859-2:1987", "ISO_8859-2:1987"}, {"iso_8859-3", "ISO_8859-3:1988"},
    {"iso_8859-3:1988", "ISO_8859-3:1988"}, {"iso_8859-4", "ISO_8859-4:1988"},
    {"iso_8859-4:1988", "ISO_8859-4:1988"}, {"iso_8859-5", "ISO_8859-5:1988"},
    {"iso_8859-5:1988", "ISO_8859-5:1988"}, {"iso_8859-6", "ISO_8859-6:1987"},
    {"iso_8859-6-e", "ISO_8859-6-E"}, {"iso_8859-6-i", "ISO_8859-6-I"},
    {"iso_8859-6:1987", "ISO_8859-6:1987"}, {"iso_8859-7", "ISO_8859-7:1987"},
    {"iso_8859-7:1987", "ISO_8859-7:1987"}, {"iso_8859-8", "ISO_8859-8:1988"},
    {"iso_8859-8-e", "ISO_8859-8-E"}, {"iso_8859-8-i", "ISO_8859-8-I"},
    {"iso_8859-8:1988", "ISO_8859-8:1988"}, {"iso_8859-9", "ISO_8859-9:1989"},
    {"iso_8859-9:1989", "ISO_8859-9:1989"}, {"koi8-r", "KOI8-R"}, {"koi8-u", "KOI8-U"},
    {"l1", "ISO_8859-1:1987"}, {"l10", "ISO-8859-16"}, {"l2", "ISO_8859-2:1987"},
    {"l3", "ISO_8859-3:1988"}, {"l4", "ISO_8859-4:1988"}, {"l5", "ISO_8859-9:1989"},
    {"l6", "ISO-8859-10"}, {"l8", "ISO-8859-14"}, {"latin-9", "ISO-8859-15"},
    {"latin1", "ISO_8859-1:1987"}, {"latin10", "ISO-8859-16"}, {"latin2", "ISO_8859-2:1987"},
    {"latin3", "ISO_8859-3:1988"}, {"latin4", "ISO_8859-4:1988"}, {"latin5", "ISO_8859-9:1989"},
    {"latin6", "ISO-8859-10"}, {"latin8", "ISO-8859-14"}, {"mac", "macintosh"},
    {"macintosh", "macintosh"}, {"ms936", "GBK"}, {"ms_kanji", "Shift_JIS"},
    {"pc-multilingual-850+euro", "IBM00858"}, {"shift_jis", "Shift_JIS"}, {"us", "US-ASCII"},
    {"us-ascii", "US-ASCII"}, {"utf-16", "UTF-16"}, {"utf-16be", "UTF-16BE"},
    {"utf-16le", "UTF-16LE"}, {"utf-8", "UTF-8"}, {"windows-1250", "windows-1250"},
    {"windows-1251", "windows-1251"}, {"windows-1252", "windows-1252"},
    {"windows-1253", "windows-1253"}, {"windows-1254", "windows-1254"},
    {"windows-1255", "windows-1255"}, {"windows-1256", "windows-1256"},
    {"windows-1257", "windows-1257"}, {"windows-1258", "windows-1258"},
    {"windows-874", "windows-874"}, {"windows-936", "GBK"},
};
// clang-format on

// The character set named [name] as ianaindex.IANA.Encoding finds it
// (surrounding spaces trimmed, case ignored), or null.
const Charset* find_charset(std::string_view name) {
  name = uni::trim_right_space(uni::trim_left_space(name));
  std::string lower;
  for (size_t i = 0; i < name.size();) {
    uni::Rune r = uni::decode(name, i);
    uni::append_utf8(lower, r.ok ? char32_t(utf8proc_tolower(utf8proc_int32_t(r.cp))) : r.cp);
    i += r.len;
  }
  const CharsetAlias* end = std::end(kCharsetAliases);
  const CharsetAlias* a =
      std::lower_bound(std::begin(kCharsetAliases), end, lower,
                       [](const CharsetAlias& x, const std::string& key) { return x.alias < key; });
  if (a == end || a->alias != lower) return nullptr;
  for (const Charset& cs : kCharsets) {
    if (cs.name == a->name) return &cs;
  }
  return nullptr;
}

// An iconv conversion descriptor, closed on scope exit.
class Iconv {
 public:
  Iconv(const char* to, const char* from) : cd_(iconv_open(to, from)) {}
  ~Iconv() {
    if (ok()) iconv_close(cd_);
  }
  Iconv(const Iconv&) = delete;
  Iconv& operator=(const Iconv&) = delete;
  bool ok() const { return cd_ != reinterpret_cast<iconv_t>(-1); }

  // Converts all of [in] (then resets the shift state); false when some
  // input has no conversion or is incomplete.
  bool convert(std::string_view in, std::string& out) {
    char* src = const_cast<char*>(in.data());
    size_t left = in.size();
    char buf[4096];
    while (true) {
      char* dst = buf;
      size_t room = sizeof buf;
      size_t rc = left > 0 ? iconv(cd_, &src, &left, &dst, &room)
                           : iconv(cd_, nullptr, nullptr, &dst, &room);
      out.append(buf, size_t(dst - buf));
      if (rc == size_t(-1)) {
        if (errno == E2BIG) continue;
        return false;
      }
      if (left == 0 && src != nullptr) {
        src = nullptr;  // flush the shift state once
        continue;
      }
      return true;
    }
  }

 private:
  iconv_t cd_;
};

// A single-byte set's code points by byte (0xFFFD: undefined) and bytes by
// code point.
struct ByteTable {
  char32_t decode[256];
  std::unordered_map<char32_t, uint8_t> encode;
};

const ByteTable* byte_table(const Charset& cs) {
  static std::mutex mu;
  static std::map<std::string_view, std::unique_ptr<ByteTable>> tables;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = tables[cs.name];
  if (slot) return slot.get();
  auto t = std::make_unique<ByteTable>();
  for (int b = 0; b < 256; ++b) {
    Iconv cv("UTF-32BE", cs.iconv);
    if (!cv.ok()) return nullptr;
    char in = char(b);
    std::string out;
    char32_t r = 0xFFFD;
    if (cv.convert(std::string_view(&in, 1), out) && out.size() == 4) {
      r = char32_t(uint8_t(out[0])) << 24 | char32_t(uint8_t(out[1])) << 16 |
          char32_t(uint8_t(out[2])) << 8 | char32_t(uint8_t(out[3]));
    }
    if (cs.no_c1 && b >= 0x80 && b <= 0x9F) r = 0xFFFD;
    t->decode[b] = r;
  }
  // Where x/text's tables (from other sources) differ from the C library's.
  if (cs.name == "KOI8-U") {
    t->decode[0xAE] = 0x045E;
    t->decode[0xBE] = 0x040E;
  } else if (cs.name == "macintosh") {
    t->decode[0xC6] = 0x2206;
    t->decode[0xF0] = 0xF8FF;
  } else if (cs.name == "windows-1255") {
    t->decode[0xCA] = 0x05BA;
  }
  for (int b = 255; b >= 0; --b) {
    if (t->decode[b] != 0xFFFD) t->encode[t->decode[b]] = uint8_t(b);
  }
  slot = std::move(t);
  return slot.get();
}

// [text] in character set [cs]; false when it has a character the set
// cannot represent.
bool encode_text(const Charset& cs, std::string_view text, std::string& out) {
  auto put16 = [&](char32_t u, bool big) {
    char hi = char(u >> 8), lo = char(u & 0xFF);
    out += big ? hi : lo;
    out += big ? lo : hi;
  };
  switch (cs.kind) {
    case CK::Utf8:
      out.assign(text);
      return true;
    case CK::Ascii:
      for (char c : text) {
        if (uint8_t(c) > 0x7F) return false;
      }
      out.assign(text);
      return true;
    case CK::Utf16:
    case CK::Utf16Be:
    case CK::Utf16Le: {
      bool big = cs.kind != CK::Utf16Le;
      if (cs.kind == CK::Utf16) put16(0xFEFF, true);  // x/text writes a byte order mark
      for (size_t i = 0; i < text.size();) {
        uni::Rune r = uni::decode(text, i);
        i += r.len;
        if (r.cp >= 0x10000) {
          char32_t v = r.cp - 0x10000;
          put16(0xD800 + (v >> 10), big);
          put16(0xDC00 + (v & 0x3FF), big);
        } else {
          put16(r.cp, big);
        }
      }
      return true;
    }
    case CK::SingleByte: {
      const ByteTable* t = byte_table(cs);
      if (!t) return false;
      for (size_t i = 0; i < text.size();) {
        uni::Rune r = uni::decode(text, i);
        i += r.len;
        auto it = t->encode.find(r.cp);
        if (!r.ok || it == t->encode.end()) return false;
        out += char(it->second);
      }
      return true;
    }
    case CK::MultiByte: {
      Iconv cv(cs.iconv, "UTF-8");
      return cv.ok() && cv.convert(text, out);
    }
  }
  return false;
}

// [bytes] read in character set [cs] as UTF-8; false when they hold
// something the set does not define (x/text reads it as U+FFFD).
bool decode_text(const Charset& cs, std::string_view bytes, std::string& out) {
  switch (cs.kind) {
    case CK::Utf8:
      if (!uni::valid_utf8(bytes)) return false;
      out.assign(bytes);
      return true;
    case CK::Ascii:
      for (char c : bytes) {
        if (uint8_t(c) > 0x7F) return false;
      }
      out.assign(bytes);
      return true;
    case CK::Utf16:
    case CK::Utf16Be:
    case CK::Utf16Le: {
      bool big = cs.kind != CK::Utf16Le;
      size_t i = 0;
      if (cs.kind == CK::Utf16) {
        // A byte order mark is read and dropped; without one, big-endian.
        if (bytes.size() == 1) return false;
        if (bytes.size() >= 2 && uint8_t(bytes[0]) == 0xFF && uint8_t(bytes[1]) == 0xFE) {
          big = false;
          i = 2;
        } else if (bytes.size() >= 2 && uint8_t(bytes[0]) == 0xFE && uint8_t(bytes[1]) == 0xFF) {
          i = 2;
        }
      }
      auto unit = [&](size_t at) {
        auto a = uint8_t(bytes[at]), b = uint8_t(bytes[at + 1]);
        return big ? char32_t(a << 8 | b) : char32_t(b << 8 | a);
      };
      for (; i < bytes.size(); i += 2) {
        if (i + 1 >= bytes.size()) return false;  // a lone trailing byte
        char32_t u = unit(i);
        if (u >= 0xD800 && u <= 0xDFFF) {
          if (u >= 0xDC00 || i + 3 >= bytes.size()) return false;
          char32_t low = unit(i + 2);
          if (low < 0xDC00 || low > 0xDFFF) return false;
          u = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00);
          i += 2;
        }
        uni::append_utf8(out, u);
      }
      return true;
    }
    case CK::SingleByte: {
      const ByteTable* t = byte_table(cs);
      if (!t) return false;
      for (char c : bytes) {
        char32_t r = t->decode[uint8_t(c)];
        if (r == 0xFFFD) return false;
        uni::append_utf8(out, r);
      }
      return true;
    }
    case CK::MultiByte: {
      Iconv cv("UTF-8", cs.iconv);
      if (!cv.ok()) return false;
      if (cs.name != "Shift_JIS") return cv.convert(bytes, out);
      // x/text's Shift_JIS (WHATWG's): 0x81-0x9F and 0xE0-0xEF lead a
      // two-byte character, 0xA1-0xDF are half-width katakana and a lone
      // 0x80 is U+0080; anything else (0xA0, 0xF0-0xFF, which the code
      // page gives to its user area) is not defined. The runs between
      // 0x80 bytes go through the converter.
      size_t run = 0;
      for (size_t i = 0; i < bytes.size();) {
        auto c = uint8_t(bytes[i]);
        if (c < 0x80 || (c >= 0xA1 && c <= 0xDF)) {
          ++i;
        } else if (c == 0x80) {
          if (!cv.convert(bytes.substr(run, i - run), out)) return false;
          uni::append_utf8(out, 0x80);
          run = ++i;
        } else if ((c <= 0x9F || (c >= 0xE0 && c <= 0xEF)) && i + 1 < bytes.size()) {
          i += 2;
        } else {
          return false;
        }
      }
      return cv.convert(bytes.substr(run), out);
    }
  }
  return false;
}

std::string unsupported_charset(std::string_view name) {
  return quote(name) + " is not a supported IANA encoding name or alias in this Terraform version";
}

Function textencodebase64_fn() {
  Function f;
  f.description =
      "Encodes the given string in the named character set (an IANA name or alias) and returns "
      "the bytes in base64.";
  f.params = {param("string", Type::string()), param("encoding", Type::string())};
  f.returns(Type::string());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    const Charset* cs = find_charset(args[1].as_string());
    if (!cs) return arg_error(unsupported_charset(args[1].as_string()), 1);
    std::string bytes;
    if (!encode_text(*cs, args[0].as_string(), bytes)) {
      return arg_error("the given string contains characters that cannot be represented in " +
                           std::string(cs->name),
                       0);
    }
    return FuncResult::of(Value::string(base64_encode(bytes)));
  };
  return f;
}

Function textdecodebase64_fn() {
  Function f;
  f.description =
      "Decodes the given base64 text and reads the bytes in the named character set (an IANA "
      "name or alias).";
  f.params = {param("source", Type::string()), param("encoding", Type::string())};
  f.returns(Type::string());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    const Charset* cs = find_charset(args[1].as_string());
    if (!cs) return arg_error(unsupported_charset(args[1].as_string()), 1);
    std::string bytes;
    size_t bad = 0;
    if (!base64_decode(args[0].as_string(), bytes, bad)) {
      return arg_error(
          "the given value is has an invalid base64 symbol at offset " + std::to_string(bad), 0);
    }
    std::string text;
    // A U+FFFD in the text, decoded or read from an undefined sequence, is
    // an error either way.
    if (!decode_text(*cs, bytes, text) || text.find("\xEF\xBF\xBD") != std::string::npos) {
      return arg_error(
          "the given string contains symbols that are not defined for " + std::string(cs->name), 0);
    }
    return FuncResult::of(Value::string(text));
  };
  return f;
}

}  // namespace

void add_encoding_functions(FunctionTable& t) {
  add(t, "csvdecode", csvdecode_fn());
  add(t, "jsondecode", jsondecode_fn());
  add(t, "jsonencode", jsonencode_fn());
}

void add_terraform_encoding_functions(FunctionTable& t, const LibraryOptions&) {
  add(t, "base64decode", base64decode_fn());
  add(t, "base64encode", base64encode_fn());
  add(t, "base64gzip", base64gzip_fn());
  add(t, "textdecodebase64", textdecodebase64_fn());
  add(t, "textencodebase64", textencodebase64_fn());
  add(t, "urlencode", urlencode_fn());
}

}  // namespace hclvm::funcs
