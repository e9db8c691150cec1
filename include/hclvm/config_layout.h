// The block types of Terraform's files (terraform, variable, resource with
// its lifecycle, provisioner, connection and dynamic blocks, ...) and of
// Packer's (source, build with its provisioners and post-processors, ...),
// as layouts for convert::json_to_native: which properties of a .tf.json
// or .pkr.json file are blocks. Blocks that a provider or a plugin defines
// are not known here; they convert as attributes.
//
//   auto r = hclvm::convert::json_to_native("main.tf.json", text, hclvm::config::terraform_layout());
#pragma once

#include <hclvm/convert.h>

#include <string_view>

namespace hclvm::config {

convert::BodyLayout terraform_layout();
convert::BodyLayout packer_layout();

// The layout file name [name] implies: Terraform's for *.tf.json and
// *.tftest.json, Packer's for *.pkr.json, none (every property an
// attribute) for any other name.
convert::BodyLayout layout_for_file(std::string_view name);

}  // namespace hclvm::config
