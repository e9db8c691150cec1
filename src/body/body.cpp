// The Body handle and what every kind of body shares: attribute lists,
// opening files of either syntax, the Tree that keeps a parse alive and
// compiles its expressions once, and the reference's did-you-mean.
#include <hclvm/body.h>
#include <hclvm/json_program.h>

#include "body/internal.h"
#include "util/unicode.h"

namespace hclvm {

namespace body_detail {

const Source& Tree::source() const { return *source_ptr(); }

const std::shared_ptr<const Source>& Tree::source_ptr() const {
  return std::visit([](const auto& p) -> const std::shared_ptr<const Source>& { return p.source; },
                    parse);
}

// Compiles [node] unless it was compiled before, or decodes the program
// adopted for it. Two threads asking at once may both compile; the first
// program stored is the one everybody uses.
std::shared_ptr<const Compiled> Tree::compiled(const void* node) const {
  std::shared_ptr<const Compiled> adopted;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = programs_.find(node);
    if (it != programs_.end()) {
      if (!it->second->lazy) return it->second;
      adopted = it->second;
    }
  }
  auto c = std::make_shared<Compiled>();
  if (adopted) {
    // Decoded now, at its first use: a module loaded through the cache
    // decodes only the programs its evaluations run.
    c->native = adopted->lazy->get(nullptr);
    c->diagnostics = adopted->diagnostics;
  }
  if (!c->native && syntax == Syntax::Json) {
    JsonCompileResult r =
        compile_json_expression(*static_cast<const json::Node*>(node), source_ptr());
    c->json = std::move(r.program);
    c->diagnostics = std::move(r.diagnostics);
  } else if (!c->native) {
    CompileResult r = compile_expression(*static_cast<const ast::Expr*>(node), source_ptr());
    c->native = std::move(r.program);
    c->diagnostics = std::move(r.diagnostics);
  }
  std::lock_guard<std::mutex> lock(mu_);
  std::shared_ptr<const Compiled>& slot = programs_[node];
  if (!slot || slot->lazy) slot = std::move(c);  // else another thread was first
  return slot;
}

void Tree::adopt(const void* node, std::shared_ptr<const Compiled> c) const {
  std::lock_guard<std::mutex> lock(mu_);
  programs_.emplace(node, std::move(c));
}

std::string name_suggestion(std::string_view given, const std::vector<std::string>& candidates) {
  for (const std::string& c : candidates)
    if (uni::levenshtein_below(given, c, 3) < 3) return c;
  return "";
}

Range zero_range(std::string filename) {
  return Range{std::move(filename), Pos{0, 0, 0}, Pos{0, 0, 0}};
}

Range range_between(const Range& a, const Range& b) { return Range{a.filename, a.start, b.end}; }

}  // namespace body_detail

using body_detail::Access;

// --- attributes ------------------------------------------------------------------------

const Attribute* Attributes::find(std::string_view name) const {
  auto it = index_.find(name);
  return it == index_.end() ? nullptr : &list_[it->second];
}

bool Attributes::add(Attribute a) {
  auto [it, added] = index_.emplace(a.name, list_.size());
  if (added) list_.push_back(std::move(a));
  return added;
}

std::vector<const Block*> BodyContent::blocks_of_type(std::string_view type) const {
  std::vector<const Block*> out;
  for (const Block& b : blocks)
    if (b.type == type) out.push_back(&b);
  return out;
}

// --- bodies ----------------------------------------------------------------------------

Body::Body() = default;

Body::Body(std::shared_ptr<const body_detail::BodyImpl> impl) : impl_(std::move(impl)) {}

// The implementation behind [b]: the empty body's when it has none.
static const body_detail::BodyImpl& impl_of(const std::shared_ptr<const body_detail::BodyImpl>& b) {
  return b ? *b : body_detail::empty_body();
}

Body::Kind Body::kind() const { return impl_of(impl_).kind(); }
ContentResult Body::content(const BodySchema& schema) const {
  return impl_of(impl_).content(schema);
}
PartialContentResult Body::partial_content(const BodySchema& schema) const {
  return impl_of(impl_).partial_content(schema);
}
AttributesResult Body::just_attributes() const { return impl_of(impl_).just_attributes(); }
Range Body::missing_item_range() const { return impl_of(impl_).missing_item_range(); }
bool Body::is_unknown() const { return impl_of(impl_).is_unknown(); }
Marks Body::value_marks() const { return impl_of(impl_).value_marks(); }
const ast::Body* Body::native_body() const { return impl_of(impl_).native_body(); }
const json::Node* Body::json_node() const { return impl_of(impl_).json_node(); }
std::vector<Body> Body::merged() const { return impl_of(impl_).merged(); }

// --- files -----------------------------------------------------------------------------

Body make_body(FileParse p) {
  if (p.body == nullptr) return Body();
  const ast::Body* b = p.body;
  auto tree = std::make_shared<body_detail::Tree>();
  tree->syntax = Syntax::Native;
  tree->parse = std::move(p);
  return body_detail::make_native_body(std::move(tree), b);
}

Body make_body(JsonParse p) {
  const json::Node* root = p.root;
  auto tree = std::make_shared<body_detail::Tree>();
  tree->syntax = Syntax::Json;
  tree->parse = std::move(p);
  return body_detail::make_json_body(std::move(tree), root);
}

ConfigFile parse_native_body(std::shared_ptr<const Source> src) {
  ConfigFile f;
  f.source = src;
  f.syntax = Syntax::Native;
  FileParse p = parse_config(std::move(src));
  f.diagnostics = p.diagnostics;
  f.body = make_body(std::move(p));
  return f;
}

ConfigFile parse_json_body(std::shared_ptr<const Source> src) {
  ConfigFile f;
  f.source = src;
  f.syntax = Syntax::Json;
  JsonParse p = parse_json_config(std::move(src));
  f.diagnostics = p.diagnostics;
  f.body = make_body(std::move(p));
  return f;
}

ConfigFile parse_body(std::shared_ptr<const Source> src) {
  std::string_view name = src->name();
  bool json = name.size() >= 5 && name.substr(name.size() - 5) == ".json";
  return json ? parse_json_body(std::move(src)) : parse_native_body(std::move(src));
}

Body merge_files(const std::vector<ConfigFile>& files) {
  std::vector<Body> bodies;
  bodies.reserve(files.size());
  for (const ConfigFile& f : files) bodies.push_back(f.body);
  return merge_bodies(std::move(bodies));
}

}  // namespace hclvm
