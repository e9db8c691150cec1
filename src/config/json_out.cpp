// The JSON document of an evaluation (`hclvm eval DIR`): the root module's
// variables, locals and outputs and every instance's arguments, each as
//
//   {"value": V, "type": T}                   wholly known, not sensitive
//   {"value": V, "type": T, "unknown": U}     U: true, or the parts that are
//   {"value": V, "type": T, "sensitive": S}   S: true, or the parts that are
//
// where V is the value as JSON with unknown parts written as null, T its
// type in cty's JSON form, and U and S follow the convention of
// `terraform show -json` (after_unknown, after_sensitive): true for a
// whole value, an object holding only the attributes or keys concerned,
// an array with false for the elements not concerned.
#include <hclvm/config.h>

#include "config/eval.h"
#include "util/budget.h"
#include "util/meter.h"
#include "value/json.h"

namespace hclvm::config {

namespace {

// Writes [v] as JSON with unknown parts as null, and sensitive parts as
// "(sensitive value)" unless [show], counted by [meter]: a value sharing
// its parts is small in memory and not as text, so the text counts
// against the budget of the caller's printing, if any (util/meter.h).
void write_value(std::string& out, const Value& v0, bool show, util::TextMeter& meter) {
  meter.check();
  if (!show && v0.marks().has(detail::kSensitive)) {
    out += "\"(sensitive value)\"";
    return;
  }
  Value v = v0.unmark();
  if (v.is_null() || !v.is_known()) {
    out += "null";
    return;
  }
  const Type* t = v.type();
  if (t->is_primitive()) {
    if (JsonResult<std::string> j = to_json(v, t); j.ok()) out += j.value;
    else out += "null";
    return;
  }
  if (t->is_object() || t->is_map()) {
    out += "{";
    size_t n = t->is_object() ? t->size() : v.length();
    for (size_t i = 0; i < n; ++i) {
      out += i ? "," : "";
      out += json_quote(t->is_object() ? t->attr_name(i) : v.map_key(i));
      out += ":";
      write_value(out, t->is_object() ? v.attr(i) : v.map_value(i), show, meter);
    }
    out += "}";
    return;
  }
  if (t->is_list() || t->is_set() || t->is_tuple()) {
    out += "[";
    for (size_t i = 0; i < v.length(); ++i) {
      out += i ? "," : "";
      write_value(out, v.element(i), show, meter);
    }
    out += "]";
    return;
  }
  out += "null";
}

// Writes the tree of the parts of [v] for which [pick] holds into [out];
// false when no part does. Each part visited counts as the five bytes it
// may take ("false"), against the caller's budget as write_value's text.
template <class Pick>
bool write_tree(std::string& out, const Value& v, Pick pick) {
  util::charge_memory(5);
  if (pick(v)) {
    out += "true";
    return true;
  }
  Value p = v.unmark();
  if (p.is_null() || !p.is_known()) return false;
  const Type* t = p.type();
  if (t->is_object() || t->is_map()) {
    std::string body;
    size_t n = t->is_object() ? t->size() : p.length();
    for (size_t i = 0; i < n; ++i) {
      std::string sub;
      if (!write_tree(sub, t->is_object() ? p.attr(i) : p.map_value(i), pick)) continue;
      body += body.empty() ? "" : ",";
      body += json_quote(t->is_object() ? t->attr_name(i) : p.map_key(i)) + ":" + sub;
    }
    if (body.empty()) return false;
    out += "{" + body + "}";
    return true;
  }
  if (t->is_list() || t->is_set() || t->is_tuple()) {
    std::string body;
    bool any = false;
    for (size_t i = 0; i < p.length(); ++i) {
      std::string sub;
      bool has = write_tree(sub, p.element(i), pick);
      any |= has;
      body += (i ? "," : "") + (has ? sub : std::string("false"));
    }
    if (!any) return false;
    out += "[" + body + "]";
    return true;
  }
  return false;
}

// [v] as one entry of the document.
std::string entry(const Value& v, bool show) {
  std::string out = "{\"value\":";
  util::TextMeter meter(out, util::TextMeter::Use::Internal);
  write_value(out, v, show, meter);
  meter.finish();
  Value plain = v.unmark_deep().first;
  JsonResult<std::string> ty = type_to_json(plain.type());
  out += ",\"type\":" + (ty.ok() ? ty.value : json_quote(plain.type()->friendly_name()));
  std::string tree;
  if (write_tree(tree, v, [](const Value& x) { return !x.is_known(); })) out += ",\"unknown\":" + tree;
  tree.clear();
  if (write_tree(tree, v, [](const Value& x) { return x.marks().has(detail::kSensitive); }))
    out += ",\"sensitive\":" + tree;
  return out + "}";
}

// A JSON object of [items], one per line at two levels of indentation.
std::string section(const std::vector<std::pair<std::string, Value>>& items, bool show) {
  if (items.empty()) return "{}";
  std::string out = "{\n";
  for (size_t i = 0; i < items.size(); ++i) {
    out += "    " + json_quote(items[i].first) + ": " + entry(items[i].second, show);
    out += i + 1 < items.size() ? ",\n" : "\n";
  }
  return out + "  }";
}

}  // namespace

std::string Evaluation::to_json(bool show) const {
  std::vector<std::pair<std::string, Value>> insts;
  for (const Instance& i : instances()) insts.emplace_back(i.address, i.value);
  std::string out = "{\n  \"variables\": " + section(variables(), show) + ",\n";
  out += "  \"locals\": " + section(locals(), show) + ",\n";
  out += "  \"outputs\": " + section(outputs(), show) + ",\n";
  out += "  \"instances\": " + section(insts, show) + "\n}\n";
  return out;
}

}  // namespace hclvm::config
