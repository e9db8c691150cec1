// The C API's conversions between the native syntax and JSON
// (include/hclvm/hclvm.h): thin wrappers
// over include/hclvm/convert.h.
#include <hclvm/config_layout.h>
#include <hclvm/convert.h>
#include <hclvm/hcldec.h>

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
      case HCLVM_JSON_SYNTAX_COMMENTS: options.comments = true; break;
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

hclvm_status hclvm_to_native(const char* text, size_t len, const char* filename, hclvm_json_layout layout,
                             const char* layout_text, size_t layout_len, char** out, hclvm_diagnostics** diags) {
  return guard([&] {
    if (out != nullptr) *out = nullptr;
    if (diags != nullptr) *diags = nullptr;
    if (text == nullptr || out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "text and out are required");
    std::string name = filename ? filename : "<input>";
    convert::BodyLayout l;
    switch (raw_enum(layout)) {
      case HCLVM_LAYOUT_AUTO: l = config::layout_for_file(name); break;
      case HCLVM_LAYOUT_NONE: break;
      case HCLVM_LAYOUT_TERRAFORM: l = config::terraform_layout(); break;
      case HCLVM_LAYOUT_PACKER: l = config::packer_layout(); break;
      case HCLVM_LAYOUT_LIKE: {
        if (layout_text == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "layout_text is required");
        FileParse f = parse_config(make_source("<layout>", std::string(text_of(layout_text, layout_len))));
        if (f.has_errors()) return fail(HCLVM_ERR_INVALID_ARGUMENT, "the layout file: " + diagnostics_error(f.diagnostics));
        l = convert::layout_of(*f.body);
        break;
      }
      case HCLVM_LAYOUT_SPEC: {
        if (layout_text == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "layout_text is required");
        hcldec::SpecFile f =
            hcldec::load_spec_file(make_source("<spec>", std::string(text_of(layout_text, layout_len))));
        if (f.has_errors()) return fail(HCLVM_ERR_INVALID_ARGUMENT, "the spec: " + diagnostics_error(f.diagnostics));
        l = convert::layout_of(*f.root);
        break;
      }
      default: return fail(HCLVM_ERR_INVALID_ARGUMENT, "unknown layout");
    }
    convert::Result r = convert::json_to_native(name, std::string(text_of(text, len)), l);
    bool errors = has_errors(r.diagnostics);
    std::string msg = errors ? diagnostics_error(r.diagnostics) : std::string();
    give_diagnostics(diags, std::move(r.diagnostics), r.source);
    if (errors) return fail(HCLVM_ERR_PARSE, msg);
    *out = dup_string(r.text);
    return HCLVM_OK;
  });
}

}  // extern "C"
