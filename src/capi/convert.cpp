// The C API's conversions to JSON (include/hclvm/hclvm.h): thin wrappers
// over include/hclvm/convert.h.
#include <hclvm/convert.h>

#include "capi/capi.h"

using namespace hclvm;
using namespace hclvm::capi;

extern "C" {

hclvm_status hclvm_to_json(const char* text, size_t len, const char* filename, hclvm_json_shape shape,
                           char** out, hclvm_diagnostics** diags) {
  return guard([&] {
    if (out != nullptr) *out = nullptr;
    if (diags != nullptr) *diags = nullptr;
    if (text == nullptr || out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "text and out are required");
    convert::JsonOptions options;
    switch (raw_enum(shape)) {
      case HCLVM_JSON_SYNTAX: options.shape = convert::Shape::JsonSyntax; break;
      case HCLVM_JSON_HCL2JSON: options.shape = convert::Shape::Hcl2Json; break;
      case HCLVM_JSON_HCL2JSON_ORDERED:
        options.shape = convert::Shape::Hcl2Json;
        options.preserve_order = true;
        break;
      default: return fail(HCLVM_ERR_INVALID_ARGUMENT, "unknown JSON shape");
    }
    convert::Result r =
        convert::native_to_json(filename ? filename : "<input>", std::string(text_of(text, len)), options);
    bool errors = has_errors(r.diagnostics);
    std::string msg = errors ? diagnostics_error(r.diagnostics) : std::string();
    give_diagnostics(diags, std::move(r.diagnostics), r.source);
    if (errors) return fail(HCLVM_ERR_PARSE, msg);
    if (!r.error.empty()) return fail(HCLVM_ERR_INVALID_ARGUMENT, r.error);
    *out = dup_string(r.text);
    return HCLVM_OK;
  });
}

}  // extern "C"
