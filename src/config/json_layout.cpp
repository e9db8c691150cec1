// The block types of Terraform's and Packer's files, as layouts for
// converting their JSON syntax back to the native syntax (config.h).
// Terraform's own blocks and meta-blocks are named; what a provider's or a
// plugin's schema defines (blocks inside resource, provider and source
// bodies) is not known here, so those properties stay attributes.
#include <hclvm/config_layout.h>

#include <utility>

namespace hclvm::config {

namespace {

using Layout = convert::BodyLayout;

// Returns block type [type] with [labels] labels whose bodies hold the
// block types [body].
Layout::BlockType block(std::string type, size_t labels, std::vector<Layout::BlockType> body = {}) {
  Layout nested;
  nested.blocks = std::move(body);
  return {std::move(type), labels, std::make_shared<const Layout>(std::move(nested))};
}

// The meta-blocks of resource-like bodies: lifecycle with its conditions,
// dynamic blocks and, with [provisioners], provisioner and connection.
std::vector<Layout::BlockType> resource_body(bool provisioners) {
  std::vector<Layout::BlockType> b{
      block("lifecycle", 0, {block("precondition", 0), block("postcondition", 0)}),
      block("dynamic", 1, {block("content", 0)}),
  };
  if (provisioners) {
    b.push_back(block("connection", 0));
    b.push_back(block("provisioner", 1, {block("connection", 0)}));
  }
  return b;
}

}  // namespace

convert::BodyLayout terraform_layout() {
  Layout l;
  l.blocks = {
      block("terraform", 0,
            {block("backend", 1), block("cloud", 0, {block("workspaces", 0)}), block("required_providers", 0),
             block("provider_meta", 1)}),
      block("required_providers", 0),
      block("provider", 1, {block("dynamic", 1, {block("content", 0)})}),
      block("variable", 1, {block("validation", 0)}),
      block("locals", 0),
      block("output", 1, {block("precondition", 0)}),
      block("module", 1),
      block("resource", 2, resource_body(true)),
      block("data", 2, resource_body(false)),
      block("ephemeral", 2, resource_body(false)),
      block("moved", 0),
      block("removed", 0,
            {block("lifecycle", 0), block("connection", 0), block("provisioner", 1, {block("connection", 0)})}),
      block("import", 0),
      block("check", 1, {block("data", 2, resource_body(false)), block("assert", 0)}),
  };
  return l;
}

convert::BodyLayout packer_layout() {
  std::vector<Layout::BlockType> plugin{block("dynamic", 1, {block("content", 0)})};
  Layout l;
  l.blocks = {
      block("packer", 0, {block("required_plugins", 0)}),
      block("source", 2, plugin),
      block("variable", 1, {block("validation", 0)}),
      block("variables", 0),
      block("locals", 0),
      block("local", 1),
      block("data", 2, plugin),
      block("build", 0,
            {block("source", 1, plugin), block("provisioner", 1, plugin), block("error-cleanup-provisioner", 1, plugin),
             block("post-processor", 1, plugin),
             block("post-processors", 0, {block("post-processor", 1, plugin)}), block("hcp_packer_registry", 0)}),
      block("hcp_packer_registry", 0),
      block("communicator", 2, plugin),
  };
  return l;
}

convert::BodyLayout layout_for_file(std::string_view name) {
  if (name.ends_with(".tf.json") || name.ends_with(".tftest.json")) return terraform_layout();
  if (name.ends_with(".pkr.json")) return packer_layout();
  return {};
}

}  // namespace hclvm::config
