// The public JSON interface of values (hclvm/value_json.h) over the
// reference-exact readers and writers of value/json.h.
#include "hclvm/value_json.h"

#include "util/budget.h"
#include "value/json.h"

namespace hclvm {

namespace {

JsonValue value_result(JsonResult<Value> r) {
  if (!r.ok()) return JsonValue{Value::dynamic(), r.error->message};
  return JsonValue{std::move(r.value), {}};
}

JsonText text_result(JsonResult<std::string> r) {
  if (!r.ok()) return JsonText{{}, r.error->message};
  return JsonText{std::move(r.value), {}};
}

}  // namespace

JsonValue value_from_json(std::string_view json) { return value_result(from_json_simple(json)); }

JsonValue value_from_json(std::string_view json, const Type* t) {
  return value_result(from_json(json, t));
}

JsonText value_to_json(const Value& v) { return text_result(to_json_simple(v)); }

JsonText value_to_json(const Value& v, const Type* t) { return text_result(to_json(v, t)); }

namespace {

// What [write] makes, within [limits].
template <class Write>
JsonText bounded(const Limits& limits, Write write) {
  JsonText out;
  std::optional<Limit> hit = util::within_text_budget(limits, [&] { out = text_result(write()); });
  if (!hit) return out;
  out.json.clear();
  out.limit = hit;
  out.error = util::text_limit_reason(*hit, limits, "the JSON text");
  return out;
}

}  // namespace

JsonText value_to_json(const Value& v, const Limits& limits) {
  return bounded(limits, [&] { return to_json_simple(v); });
}

JsonText value_to_json(const Value& v, const Type* t, const Limits& limits) {
  return bounded(limits, [&] { return to_json(v, t); });
}

JsonText type_as_json(const Type* t) { return text_result(type_to_json(t)); }

}  // namespace hclvm
