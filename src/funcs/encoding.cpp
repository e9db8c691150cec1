// Encoding functions, as go-cty's stdlib json.go and csv.go define them:
// jsonencode and jsondecode, through the JSON forms of values
// (value/json.h), and csvdecode, with a reader that follows Go's
// encoding/csv record by record (RFC 4180 quoting, empty lines skipped,
// \r\n read as \n) so that its errors name the same lines.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "funcs/funcs.h"
#include "util/unicode.h"
#include "value/json.h"
#include "value/refine.h"

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
    JsonResult<std::string> j = to_json(v, v.type());
    if (!j.ok()) return FuncResult::fail(j.error->message);
    return FuncResult::of(Value::string(j.value));
  };
  return f;
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
    JsonResult<const Type*> t = implied_type(s.as_string());
    if (!t.ok()) return type_error(t.error->message);
    return type_ok(t.value);
  };
  f.impl = [](std::span<const Value> args, const Type* ret) {
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
      rows.push_back(Value::object(std::move(vals)));
    }
    return FuncResult::of(Value::list(ety, std::move(rows)));
  };
  return f;
}

}  // namespace

void add_encoding_functions(FunctionTable& t) {
  add(t, "csvdecode", csvdecode_fn());
  add(t, "jsondecode", jsondecode_fn());
  add(t, "jsonencode", jsonencode_fn());
}

}  // namespace hclvm::funcs
