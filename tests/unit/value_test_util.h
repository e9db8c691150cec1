// Helpers shared by the value layer's unit tests: shorthands for object and
// tuple types, and the values of the Go reference's golden data, which the
// oracle prints as cty JSON with their type ({"value":…,"type":…}, an
// infinity as {"repr":"cty.NumberFloatVal(+Inf)","type":"number"}).
#pragma once

#include <gtest/gtest.h>

#include <hclvm/type.h>
#include <hclvm/value.h>

#include <initializer_list>
#include <string>
#include <string_view>

#include "value/json.h"

namespace hclvm::test {

// The object type of [attrs] and the tuple type of [elems].
inline const Type* obj(std::initializer_list<TypeAttr> attrs) {
  return Type::object(std::span<const TypeAttr>(attrs.begin(), attrs.size()));
}
inline const Type* tup(std::initializer_list<const Type*> elems) {
  return Type::tuple(std::span<const Type* const>(elems.begin(), elems.size()));
}

// Returns the value the oracle printed as [json]; fails the test when it
// cannot be read.
inline Value oracle_value(std::string_view json) {
  if (json.rfind("{\"repr\":\"cty.NumberFloatVal(", 0) == 0)
    return Value::number(Number::infinity(json.find("(-Inf)") != std::string_view::npos));
  JsonResult<Value> v = from_json(json, Type::dynamic());
  EXPECT_TRUE(v.ok()) << json << ": " << (v.ok() ? "" : v.error->message);
  return v.value;
}

// Returns [v] as the oracle prints it (known values only), or
// "<message>" when it cannot be written.
inline std::string oracle_text(const Value& v) {
  if (v.is_plain() && v.type() == Type::number() && v.as_number().is_inf())
    return std::string("{\"repr\":\"cty.NumberFloatVal(") + (v.as_number().sign() < 0 ? "-" : "+") +
           "Inf)\",\"type\":\"number\"}";
  JsonResult<std::string> j = to_json(v, Type::dynamic());
  return j.ok() ? j.value : "<" + j.error->message + ">";
}

}  // namespace hclvm::test
