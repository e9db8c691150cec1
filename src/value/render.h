// A human-readable rendering of a value as an HCL literal, for
// `hclvm eval --format hcl` and an interactive console. The style is
// Terraform console's, adjusted so that the text of any known, unmarked
// value is an HCL expression that evaluates to that same value:
//
//   null (of any type)      null
//   bool                    true, false
//   number                  its full-precision text: 1, -0.5, 3.333…3 (155 digits), +Inf, -Inf
//   string                  "a \"quoted\" \\ line\n"  HCL escapes: \n \r \t \" \\, \uNNNN or
//                           \UNNNNNNNN for characters that are not printable, and the
//                           template introducers doubled ($${ and %%{) so they stay text.
//                           As an attribute's value, a string that ends in a newline
//                           and has no other control characters but tabs is a heredoc
//                           instead (elsewhere the closing marker would not end a line):
//                             <<EOT
//                             first line
//                             second line
//                             EOT
//                           with the marker lengthened (EOT_, EOT__...) while a line
//                           equals it, and indented like the surrounding value.
//   tuple                   [ … ] one element a line, each followed by a comma
//   list, set               tolist([ … ]), toset([ … ])
//   object                  { … } one `key = value` a line; keys that are identifiers bare,
//                           others quoted as strings
//   map                     tomap({ … })
//   empty collections       [], {}, tolist([]), toset([]), tomap({})
//   unknown (any type)      (known after apply)
//   marked "sensitive"      (sensitive value)   (other marks are not shown)
//
// (go_string() below writes values in cty's Go syntax instead.)
//
// Nested values are indented by two spaces a level:
//
//   {
//     name = "web"
//     ports = tolist([
//       80,
//       443,
//     ])
//   }
#pragma once

#include <hclvm/value.h>

#include <string>
#include <string_view>

namespace hclvm {

// Returns [v] rendered as described above, as if it started at column
// [indent] (nested lines are indented from there).
std::string render_hcl(const Value& v, int indent = 0);

// Returns [s] as an HCL quoted string literal ("…" with HCL escapes, `${`
// and `%{` doubled).
std::string hcl_quote(std::string_view s);

// Appends the text [s] to [out] escaped as inside an HCL quoted string
// (quotes, backslashes, line breaks, control and unprintable characters),
// without the quotes; with [double_sequences], `${` and `%{` doubled (a
// literal), without, left as they are (literal text of a template whose
// escapes `$${` and `%%{` are already written).
void append_hcl_escaped(std::string& out, std::string_view s, bool double_sequences);

// Returns cty's Value.GoString of [v] (its marks are not shown): the
// "repr" the reference's tools print for what JSON cannot hold, such as
// cty.NumberFloatVal(+Inf), cty.DynamicVal or
// cty.UnknownVal(cty.String).RefineNotNull().
std::string go_string(const Value& v);

}  // namespace hclvm
