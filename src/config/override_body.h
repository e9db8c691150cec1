// Terraform's merge of a base body with an override file's body (see
// override_body.cpp).
#pragma once

#include <hclvm/body.h>

namespace hclvm::config::detail {

// The body [base] with [over]'s arguments and block types replacing its own.
Body make_override_body(Body base, Body over);

}  // namespace hclvm::config::detail
