// The C API's formatting and editing (include/hclvm/hclvm.h): thin wrappers
// over include/hclvm/format.h.
#include <hclvm/format.h>

#include "capi/capi.h"

#include <string_view>

struct hclvm_document {
  hclvm::format::Document doc;
};

namespace hclvm::capi {

namespace {

// The status of a failed edit, from the summary of its first diagnostic
// (the summaries src/format/edit.cpp gives; anything else is a syntax
// error of the expression).
hclvm_status edit_status(const Diagnostics& d) {
  std::string_view s = d.front().summary;
  if (s == "Nothing at path") return HCLVM_ERR_NOT_FOUND;
  if (s == "Edit not made") return HCLVM_ERR_PARSE;
  for (std::string_view arg : {"Invalid path", "Already there", "Not a value", "Not removable", "Not a block",
                               "Wrong number of labels", "Invalid block", "Value not writable", "No value"})
    if (s == arg) return HCLVM_ERR_INVALID_ARGUMENT;
  return HCLVM_ERR_PARSE;
}

// Returns the status of an edit of [doc] that gave [d], giving [d] to
// [diags].
hclvm_status finish_edit(const hclvm_document* doc, Diagnostics d, hclvm_diagnostics** diags) {
  if (d.empty()) {
    give_diagnostics(diags, {}, doc->doc.tree().source_ptr());
    return HCLVM_OK;
  }
  hclvm_status st = edit_status(d);
  std::string msg = diagnostics_error(d);
  give_diagnostics(diags, std::move(d), doc->doc.tree().source_ptr());
  return fail(st, msg);
}

// Runs edit [body] on [doc] after the argument checks ([given]: the
// edit's own arguments are there).
template <class F>
hclvm_status edit(hclvm_document* doc, const char* path, bool given, hclvm_diagnostics** diags, F&& body) {
  return guard([&] {
    if (diags != nullptr) *diags = nullptr;
    if (doc == nullptr || path == nullptr || !given)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "doc, path and the edit's arguments are required");
    return finish_edit(doc, body(), diags);
  });
}

}  // namespace

}  // namespace hclvm::capi

using namespace hclvm;
using namespace hclvm::capi;

extern "C" {

hclvm_status hclvm_format(const char* text, size_t len, const char* filename, hclvm_format_style style, char** out,
                          int* changed, hclvm_diagnostics** diags) {
  return guard([&] {
    if (out != nullptr) *out = nullptr;
    if (diags != nullptr) *diags = nullptr;
    if (text == nullptr || out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "text and out are required");
    std::string name = filename ? filename : "<input>";
    auto raw = raw_enum(style);
    if (raw != HCLVM_FORMAT_AUTO && raw != HCLVM_FORMAT_HCL && raw != HCLVM_FORMAT_TERRAFORM)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "unknown format style");
    format::Style s = raw == HCLVM_FORMAT_TERRAFORM ? format::Style::Terraform
                      : raw == HCLVM_FORMAT_HCL     ? format::Style::Hcl
                                                    : format::style_for_path(name);
    format::Result r = format::format_file(make_source(name, std::string(text_of(text, len))), s);
    std::string msg = r.has_errors() ? diagnostics_error(r.diagnostics) : std::string();
    bool errors = r.has_errors();
    give_diagnostics(diags, std::move(r.diagnostics), r.source);
    if (errors) return fail(HCLVM_ERR_PARSE, msg);
    if (changed != nullptr) *changed = r.changed ? 1 : 0;
    *out = dup_string(r.text);
    return HCLVM_OK;
  });
}

hclvm_status hclvm_document_open(const char* text, size_t len, const char* filename, hclvm_document** out) {
  return guard([&] {
    if (out != nullptr) *out = nullptr;
    if (text == nullptr || out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "text and out are required");
    *out = new hclvm_document{format::Document(filename ? filename : "<input>", std::string(text_of(text, len)))};
    return HCLVM_OK;
  });
}

void hclvm_document_free(hclvm_document* doc) { delete doc; }

const char* hclvm_document_text(const hclvm_document* doc, size_t* len) {
  if (doc == nullptr) return nullptr;
  if (len != nullptr) *len = doc->doc.text().size();
  return doc->doc.text().c_str();
}

hclvm_status hclvm_document_get(const hclvm_document* doc, const char* path, char** out, hclvm_diagnostics** diags) {
  return guard([&] {
    if (out != nullptr) *out = nullptr;
    if (diags != nullptr) *diags = nullptr;
    if (doc == nullptr || path == nullptr || out == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "doc, path and out are required");
    std::string text;
    Diagnostics d = doc->doc.get(path, text);
    if (!d.empty()) return finish_edit(doc, std::move(d), diags);
    *out = dup_string(text);
    return finish_edit(doc, {}, diags);
  });
}

hclvm_status hclvm_document_set(hclvm_document* doc, const char* path, const char* expr, size_t len,
                                hclvm_diagnostics** diags) {
  return edit(doc, path, expr != nullptr, diags, [&] { return doc->doc.set(path, text_of(expr, len)); });
}

hclvm_status hclvm_document_set_value(hclvm_document* doc, const char* path, const hclvm_value* value,
                                      hclvm_diagnostics** diags) {
  return edit(doc, path, value != nullptr, diags, [&] { return doc->doc.set(path, value->v); });
}

hclvm_status hclvm_document_add(hclvm_document* doc, const char* path, const char* expr, size_t len,
                                hclvm_diagnostics** diags) {
  return edit(doc, path, expr != nullptr, diags, [&] { return doc->doc.add(path, text_of(expr, len)); });
}

hclvm_status hclvm_document_add_block(hclvm_document* doc, const char* path, hclvm_diagnostics** diags) {
  return edit(doc, path, true, diags, [&] { return doc->doc.add_block(path); });
}

hclvm_status hclvm_document_remove(hclvm_document* doc, const char* path, hclvm_diagnostics** diags) {
  return edit(doc, path, true, diags, [&] { return doc->doc.remove(path); });
}

hclvm_status hclvm_document_rename(hclvm_document* doc, const char* path, const char* const* labels, size_t n,
                                   hclvm_diagnostics** diags) {
  return edit(doc, path, labels != nullptr || n == 0, diags, [&] {
    std::vector<std::string> list;
    for (size_t i = 0; i < n; ++i) list.emplace_back(labels[i] ? labels[i] : "");
    return doc->doc.rename(path, list);
  });
}

}  // extern "C"
