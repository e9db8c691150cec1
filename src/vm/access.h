// Index and attribute access as the language does them (the reference's
// hcl.Index and hcl.GetAttr, used by index expressions and traversal
// steps): the cty operation plus the handling of nulls, unknowns, the
// dynamic type and marks, and the reference's diagnostics for each way an
// access can fail.
#pragma once

#include <hclvm/value.h>

#include "util/message.h"

#include <string>
#include <string_view>

namespace hclvm::vm {

// Why an access failed: a diagnostic's summary (null: no failure) and detail.
struct AccessError {
  const char* summary = nullptr;
  util::Message detail;
  explicit operator bool() const { return summary != nullptr; }
};

// Returns [coll][key] (hcl.Index); on failure fills [err] and returns DynamicVal.
Value hcl_index(const Value& coll, const Value& key, AccessError& err);

// Fills [err] as hcl_index does for a known, unmarked object and a string
// key it has no attribute for.
void missing_object_key(AccessError& err);

// Returns [obj].[name] (hcl.GetAttr); on failure fills [err] and returns DynamicVal.
Value hcl_get_attr(const Value& obj, std::string_view name, AccessError& err);

}  // namespace hclvm::vm
