// Decoding one Terraform configuration file (internal/configs'
// parseConfigFile): the top-level schema, then each block by its type, with
// Terraform's diagnostics in Terraform's order. What a file declares is
// kept with the names of the arguments it wrote, for override files.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "config/internal.h"

namespace hclvm::config::detail {

// The arguments a block wrote (override files replace only these).
using Written = std::set<std::string, std::less<>>;

struct VarDecl {
  Variable v;
  Written set;
  Expression default_expr;
};
struct LocalDecl {
  Local l;
};
struct OutputDecl {
  Output o;
  Written set;
};
struct CallDecl {
  ModuleCall c;
  Written set;
};
struct ResourceDecl {
  Resource r;
  Written set;
  bool has_count = false, has_for_each = false;
};
struct ProviderDecl {
  std::string name, alias;
  Range decl_range, name_range;
  Body config;
  bool has_version = false;  // a `version` argument (deprecated here)
};
struct CheckDecl {
  std::string name;
  Range decl_range;
  std::vector<CheckRule> asserts;
};
// A required_providers block decoded without errors in its attributes:
// the providers it requires by local name (each that decoded cleanly).
struct RequiredProvidersDecl {
  Range decl_range;
  std::map<std::string, RequiredProvider, std::less<>> entries;
};

// An import block: where it is, and the resource instance its `to` names
// when that is a static address (Terraform's parseImportToStatic): with
// its instance keys ([to_key], for finding two blocks importing to one
// instance) and without (addrs.ConfigResource, [to_resource]).
struct ImportDecl {
  Range decl_range;
  Range to_range;
  std::optional<std::string> to_key;
  std::string to_resource;
  ImportBlock block;  // what validate checks of it later
};

// What one file declares, in the order its blocks came.
struct FileDecls {
  std::vector<VarDecl> variables;
  std::vector<LocalDecl> locals;
  std::vector<OutputDecl> outputs;
  std::vector<CallDecl> calls;
  std::vector<ResourceDecl> managed, data, ephemeral;
  std::vector<ProviderDecl> providers;
  std::vector<CheckDecl> checks;
  std::vector<RequiredProvidersDecl> required_providers;
  std::vector<Range> backends, clouds;
  std::vector<std::pair<std::string, Range>> core_versions;  // required_version constraints
  std::vector<Range> moved;
  std::vector<ImportDecl> imports;
  std::vector<std::pair<std::string, Range>> provider_metas;  // local name, block
};

// tfaddr.ParseProviderPart: [given] as a provider's name is normalized, or
// nullopt with the reason in [err] (decode.cpp).
std::optional<std::string> parse_provider_part(std::string_view given, std::string& err);

// An instance key as addrs.ParseInstanceKey reads it, written as
// InstanceKey.String writes it: `["k"]`, `[0]`; nullopt with the reason in
// [err].
std::optional<std::string> instance_key(const Value& k, std::string& err);

// addrs.ParseTarget of [t], an import block's `to` with its key
// evaluated: whether it names a resource (else a module), the kind of its
// instance key (0: none, 1: a number, 2: a string), and the address as
// Terraform writes it; nullopt with Terraform's errors in [diags].
struct TargetAddr {
  bool resource = false;
  int key_kind = 0;
  std::string text;
};
std::optional<TargetAddr> parse_target(const Traversal& t, Diagnostics& diags);

// addrs.ImpliedProviderForUnqualifiedType: the provider a local name
// [type] stands for when required_providers does not give its source.
ProviderAddr implied_provider(const std::string& type);

// addrs.ParseProviderSourceString: the provider [source] names
// ("[hostname/][namespace/]type", the namespace "hashicorp" when not
// given), or nullopt with Terraform's [summary] and [detail].
std::optional<ProviderAddr> parse_provider_source(std::string_view source, std::string& summary,
                                                  std::string& detail);

// Decodes the body of one file [f] (an override file when [override]) into
// [out], appending diagnostics to [diags].
void decode_file(const Body& body, bool override, FileDecls& out, Diagnostics& diags);

// A test file's mock provider that reads its data from a directory
// (mock_provider's `source`): the directory as written, the block, and
// the default of override_during.
struct MockSource {
  std::string dir;
  Range decl_range;
  bool use_for_plan = false;
};

// Decodes the body of a test file (*.tftest.hcl, *.tftest.json) as
// Terraform's loadTestFile: its run, variables, provider, mock_provider and
// override blocks, with Terraform's diagnostics; the mock providers with a
// source go to [mocks].
// What [file] keeps is what validate_tests checks later.
void decode_test_file(const Body& body, TestFile& file, std::vector<MockSource>& mocks,
                      Diagnostics& diags);

// What a mock data file declares, for finding the same mock or override in
// two files of a directory (MockData.Merge).
struct MockData {
  struct Entry {
    std::string key;  // a resource type, or an override's target
    Range def, subject;
  };
  std::vector<Entry> resources, data, overrides;
  std::vector<TestTarget> targets;  // the overrides' targets
};
// Decodes the body of a mock data file (*.tfmock.hcl, *.tfmock.json) as
// decodeMockDataBody does.
MockData decode_mock_data(const Body& body, bool use_for_plan, Diagnostics& diags);
// Adds [other] to [into] as MockData.Merge does (a mock or override in
// both is an error).
void merge_mock_data(MockData& into, const MockData& other, Diagnostics& diags);

// Decodes a `validation`/`precondition`/`postcondition`/`assert` block.
CheckRule decode_check_rule(const Block& block, bool override, Diagnostics& diags);

// Evaluates [e] without a context and converts it to [want] as gohcl's
// DecodeExpression does into a Go bool or string (a null or a value not
// known refused too); false (with diagnostics) when that fails.
bool decode_value(const Expression& e, const Type* want, Value& out, Diagnostics& diags);

// Whether go-version reads the constraint string [s].
bool valid_version_constraint(std::string_view s);
// Whether version [major.minor.patch] satisfies constraint [s] (valid).
bool version_satisfies(std::string_view s, int major, int minor, int patch);

// Module source addresses, as the patterns of tfaddr and go-getter match
// them whole (written out: compiling the patterns cost more than loading a
// small module):
//  - a registry namespace or module name, [0-9A-Za-z](?:[0-9A-Za-z\-_]{0,62}[0-9A-Za-z])?
bool registry_name(std::string_view s);
//  - a registry target system, [0-9a-z]{1,64}
bool registry_system(std::string_view s);
//  - a forced getter, [A-Za-z0-9]+::.+
bool forced_getter(std::string_view s);
//  - a URL with a scheme, [A-Za-z][A-Za-z0-9+.\-]*://.*
// (`.` does not take a newline, as in RE2.)
bool url_with_scheme(std::string_view s);

}  // namespace hclvm::config::detail
