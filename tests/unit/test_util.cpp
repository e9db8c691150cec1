// Helpers shared by the unit tests.
#include "test_util.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "util/unicode.h"
#include "value/json.h"

namespace hclvm::test {

// Decodes the Go string literal [q] (strconv.Quote's output).
std::string go_unquote(std::string_view q) {
  std::string out;
  auto hex = [&](size_t at, size_t n) {
    return uint32_t(std::stoul(std::string(q.substr(at, n)), nullptr, 16));
  };
  for (size_t i = 1; i + 1 < q.size(); ++i) {
    if (q[i] != '\\') {
      out += q[i];
      continue;
    }
    char e = q[++i];
    switch (e) {
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case 'x': out += char(hex(i + 1, 2)); i += 2; break;
      case 'u': uni::append_utf8(out, hex(i + 1, 4)); i += 4; break;
      case 'U': uni::append_utf8(out, hex(i + 1, 8)); i += 8; break;
      default: out += e; break;  // \\ and \"
    }
  }
  return out;
}

std::string go_json_quote(std::string_view s) {
  std::string out;
  uni::JsonQuoting q;
  q.short_bf = false;
  uni::append_json_quoted(out, s, q);
  return out;
}

std::string pos_string(const Pos& p) {
  return std::to_string(p.line) + ":" + std::to_string(p.column) + ":" + std::to_string(p.byte);
}

std::string golden_typed(const Value& v0) {
  Value v = v0.unmark_deep().first;
  JsonResult<std::string> ty = type_to_json(v.type());
  std::string type = ty.ok() ? ty.value : "?";
  if (v.is_wholly_known()) {
    JsonResult<std::string> val = to_json(v, v.type());
    if (val.ok()) return "{\"value\":" + val.value + ",\"type\":" + type + "}";
  }
  std::string repr = v.type()->is_dynamic() && !v.is_known() ? "cty.DynamicVal" : "?";
  return "{\"repr\":\"" + repr + "\",\"type\":" + type + "}";
}

std::string comparable_line(std::string line) {
  size_t at = line.find("{\"repr\":");
  if (at != std::string::npos && line.compare(at + 8, 16, "\"cty.DynamicVal\"") != 0) {
    size_t end = line.find(",\"type\":", at);
    if (end != std::string::npos) line.replace(at + 8, end - (at + 8), "\"?\"");
  }
  if (line.find("\"Unknown variable\"") != std::string::npos) {
    size_t dym = line.find(" Did you mean ");
    if (dym != std::string::npos) line.erase(dym, line.find("?", dym) + 1 - dym);
  }
  return line;
}

std::string traversal_line(const Traversal& t, std::string (*range)(const Range&)) {
  std::string s;
  for (const TraversalStep& st : t.steps) {
    if (!s.empty()) s += ' ';
    switch (st.kind) {
      case TraversalStep::Kind::Root: s += st.name; break;
      case TraversalStep::Kind::Attr: s += "." + st.name; break;
      case TraversalStep::Kind::Index: s += "[" + golden_typed(st.key) + "]"; break;
    }
    s += "@" + range(st.range);
  }
  return s;
}

std::string old_mismatch_words(std::string s) {
  for (size_t i; (i = s.find(", but have ")) != std::string::npos;) {
    size_t end = s.find_first_of(".:;\n", i);
    s.erase(i, (end == std::string::npos ? s.size() : end) - i);
  }
  return s;
}

EvalContext context_from_vars(const std::string& json) {
  EvalContext c;
  c.set_functions(std::make_shared<FunctionTable>(default_functions()));
  JsonResult<const Type*> ty = implied_type(json);
  EXPECT_TRUE(ty.ok());
  if (!ty.ok()) return c;
  JsonResult<Value> v = from_json(json, ty.value);
  EXPECT_TRUE(v.ok());
  if (!v.ok()) return c;
  for (size_t i = 0; i < ty.value->size(); ++i)
    c.set(std::string(ty.value->attr_name(i)), v.value.attr(i));
  return c;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> split_tabs(std::string_view line) {
  std::vector<std::string> fields;
  size_t start = 0;
  for (size_t tab; (tab = line.find('\t', start)) != std::string_view::npos; start = tab + 1)
    fields.emplace_back(line.substr(start, tab - start));
  fields.emplace_back(line.substr(start));
  return fields;
}

std::vector<std::vector<std::string>> read_tsv(const std::filesystem::path& path) {
  std::istringstream in(read_file(path));
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) rows.push_back(split_tabs(line));
  return rows;
}

std::optional<std::filesystem::path> shared_dir() {
  if (const char* env = std::getenv("HCLVM_SHARED_DIR")) {
    if (std::filesystem::is_directory(env)) return std::filesystem::path(env);
    return std::nullopt;
  }
  auto p = std::filesystem::path(HCLVM_SOURCE_DIR).parent_path() / "shared";
  if (std::filesystem::is_directory(p / "corpus")) return p;
  return std::nullopt;
}

}  // namespace hclvm::test
