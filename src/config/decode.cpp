// Decoding Terraform configuration files (internal/configs of Terraform
// 1.11.4: parser_config.go, named_values.go, module_call.go, resource.go,
// provider.go, checks.go): the top-level schema, then each block by its
// type. The order of the checks in each decoder is Terraform's, since it
// is the order of the diagnostics `terraform validate -json` prints.
#include "config/decode.h"

#include <hclvm/analysis.h>
#include <hclvm/syntax.h>

#include <algorithm>
#include <functional>

#include "util/unicode.h"
#include "value/convert.h"
#include "value/number.h"
#include "value/render.h"

namespace hclvm::config::detail {

const char kBadIdentifierDetail[] =
    "A name must start with a letter or underscore and may contain only letters, digits, "
    "underscores, and dashes.";

namespace {

constexpr const char* kQuotedReferencesDetail =
    "In this context, references are expected literally rather than in quotes. Terraform 0.11 "
    "and earlier required quotes, but quoted references are now deprecated and will be removed "
    "in a future version of Terraform. Remove the quotes surrounding this reference to silence "
    "this warning.";

// A reference to a provider configuration: its local name and alias.
struct ProviderRef {
  std::string name;
  std::string alias;
  Range name_range;
};

void append(Diagnostics& to, Diagnostics from) {
  for (Diagnostic& d : from) to.push_back(std::move(d));
}

// An ExprInfo for [e] whose references are found later.
ExprPtr raw(const Expression& e) {
  auto p = std::make_shared<ExprInfo>();
  p->expr = e;
  return p;
}

// Decodes a bool argument [a] into [out] (gohcl.DecodeExpression).
void decode_bool(const Attribute& a, bool& out, Diagnostics& diags) {
  Value v;
  if (decode_value(a.expr, Type::boolean(), v, diags) && v.is_known() && !v.is_null())
    out = v.as_bool();
}

// Decodes a string argument [a] into [out] (gohcl.DecodeExpression).
bool decode_string(const Attribute& a, std::string& out, Diagnostics& diags) {
  Value v;
  if (!decode_value(a.expr, Type::string(), v, diags)) return false;
  if (v.is_known() && !v.is_null()) out = std::string(v.as_string());
  return true;
}

// An address as Terraform's addrs package reads it from a traversal
// (parseModuleInstancePrefix, then parseResourceInstanceUnderModule): a
// module instance path, then a resource instance or nothing.
struct Address {
  std::string full;       // with instance keys: `module.a["k"].data.t.n[0]`
  std::string config;     // without them (addrs.ConfigResource / Module)
  bool resource = false;  // names a resource (else a module)
  bool managed = false;   // a managed resource
  std::vector<std::string> modules;  // the module path's call names
  ResMode mode = ResMode::Managed;
  std::string type, name;  // the resource's
};

// Reads the module path at the start of [t] into [a] ("module.x." steps,
// with their keys when [instances]: parseModuleInstancePrefix, else
// parseModulePrefix, which refuses keys), leaving [i] at the first step
// after it; false with Terraform's error in [diags].
bool module_prefix(const Traversal& t, bool instances, Address& a, size_t& i, Diagnostics& diags) {
  using K = TraversalStep::Kind;
  const std::vector<TraversalStep>& s = t.steps;
  while (i < s.size()) {
    if (s[i].kind == K::Index) {
      error(diags, "Invalid address operator",
            "Module address prefix must be followed by dot and then a name.", s[i].range);
      return false;
    }
    if (s[i].name != "module") break;
    if (i + 1 >= s.size() || s[i + 1].kind != K::Attr) {
      error(diags, "Invalid address operator",
            "Prefix \"module.\" must be followed by a module name.",
            s[i + 1 < s.size() ? i + 1 : i].range);
      return false;
    }
    a.full += "module." + s[i + 1].name;
    a.config += "module." + s[i + 1].name;
    a.modules.push_back(s[i + 1].name);
    i += 2;
    if (i < s.size() && s[i].kind == K::Index) {
      if (!instances) {
        error(diags, "Module instance keys not allowed",
              "Module address must be a module (e.g. \"module.foo\"), not a module instance "
              "(e.g. \"module.foo[1]\").",
              s[i].range);
        return false;
      }
      const Value& k = s[i].key;
      std::string err;
      std::optional<std::string> key = instance_key(k, err);
      if (!key) {
        error(diags, "Invalid address operator",
              k.type() == Type::number() ? "Invalid module index: " + err + "."
                                         : "Invalid module key: must be either a string or an "
                                           "integer.",
              s[i].range);
        return false;
      }
      a.full += *key;
      ++i;
    }
    a.full += ".";
    a.config += ".";
  }
  return true;
}

// Reads the address [t] names; [module_only]: a module path alone is one
// (a moved block's endpoint), else a resource must follow
// (addrs.ParseAbsResourceInstance). nullopt with Terraform's errors in
// [diags] when it is not one.
std::optional<Address> parse_address(const Traversal& t, bool module_only, Diagnostics& diags) {
  using K = TraversalStep::Kind;
  const std::vector<TraversalStep>& s = t.steps;
  auto span = [&](size_t from) {
    return Range{s[from].range.filename, s[from].range.start, s.back().range.end};
  };
  Address a;
  size_t i = 0;
  if (!module_prefix(t, true, a, i, diags)) return std::nullopt;
  if (i == s.size() && module_only) {
    if (!a.full.empty()) a.full.pop_back(), a.config.pop_back();
    return a;
  }
  if (i == s.size()) {
    // validateResourceFromTarget: a module path where a resource must be.
    error(diags, "Invalid address",
          "A resource instance address is required here. The module path must be followed by a "
          "resource instance specification.",
          t.range());
    return std::nullopt;
  }
  std::string mode;
  const std::string& root = s[i].name;
  static const std::set<std::string, std::less<>> reserved = {
      "count",     "each", "local",    "module", "path", "self",
      "terraform", "var",  "template", "lazy",   "arg"};
  if (root == "data" || root == "ephemeral") {
    mode = root + ".";
    ++i;
  } else if (root == "resource") {
    ++i;
  } else if (reserved.count(root)) {
    error(diags, "Invalid address",
          "The keyword \"" + root +
              "\" is reserved and cannot be used to target a resource address. If you are "
              "targeting a resource type that uses a reserved keyword, please prefix your "
              "address with \"resource.\".",
          span(i));
    return std::nullopt;
  }
  if (s.size() - i < 2) {
    error(diags, "Invalid address", "Resource specification must include a resource type and name.",
          i < s.size() ? span(i) : t.range());
    return std::nullopt;
  }
  if (s[i].kind == K::Index) {
    error(diags, "Invalid address",
          mode == "data."        ? "A data source name is required."
          : mode == "ephemeral." ? "An ephemeral resource type name is required."
                                 : "A resource type name is required.",
          s[i].range);
    return std::nullopt;
  }
  if (s[i + 1].kind != K::Attr) {
    error(diags, "Invalid address", "A resource name is required.", s[i + 1].range);
    return std::nullopt;
  }
  std::string res = mode + s[i].name + "." + s[i + 1].name;
  a.full += res;
  a.config += res;
  a.resource = true;
  a.managed = mode.empty();
  a.mode = mode == "data." ? ResMode::Data : mode.empty() ? ResMode::Managed : ResMode::Ephemeral;
  a.type = s[i].name;
  a.name = s[i + 1].name;
  i += 2;
  if (i == s.size()) return a;
  if (i + 1 < s.size()) {
    error(diags, "Invalid address", "Unexpected extra operators after address.", s[i + 1].range);
    return std::nullopt;
  }
  if (s[i].kind != K::Index) {
    error(diags, "Invalid address", "Resource instance key must be given in square brackets.",
          s[i].range);
    return std::nullopt;
  }
  std::string err;
  std::optional<std::string> key = instance_key(s[i].key, err);
  if (!key) {
    error(diags, "Invalid address", "Invalid resource instance key: " + err + ".", s[i].range);
    return std::nullopt;
  }
  a.full += *key;
  return a;
}

// Terraform's decodeVersionConstraint of [a]: the constraint's text, or
// nullopt when there is none (a null, a value not known: Terraform takes
// no constraint then) or it is not one (the error in [diags]).
std::optional<std::string> decode_version_constraint(const Attribute& a, Diagnostics& diags) {
  EvalResult v = a.expr.value(nullptr);
  bool failed = v.has_errors();
  append(diags, std::move(v.diagnostics));
  if (failed) return std::nullopt;
  ConvertResult s = convert(v.value, Type::string());
  if (!s.ok()) {
    error(diags, "Invalid version constraint", "A string value is required for " + a.name + ".",
          a.expr.range());
    return std::nullopt;
  }
  if (s.value().is_null() || !s.value().is_known()) return std::nullopt;
  std::string text(s.value().as_string());
  if (!valid_version_constraint(text)) {
    error(diags, "Invalid version constraint",
          "This string does not use correct version constraint syntax.", a.expr.range());
    return std::nullopt;
  }
  return text;
}

// The keyword of a native-syntax string literal [e] (`"string"`), or nullopt.
std::optional<std::string> native_quoted_string(const Expression& e) {
  const ast::Expr* n = e.native_expr();
  if (n == nullptr || e.is_static()) return std::nullopt;
  // An object constructor's key: what it wraps.
  if (n->kind == ast::ExprKind::ObjectKey) n = ast::as<ast::ObjectKeyExpr>(*n).wrapped;
  if (n->kind != ast::ExprKind::Template) return std::nullopt;
  const auto& t = ast::as<ast::TemplateExpr>(*n);
  if (t.parts.size != 1 || t.parts[0]->kind != ast::ExprKind::Literal) return std::nullopt;
  const auto& lit = ast::as<ast::LiteralExpr>(*t.parts[0]);
  if (lit.value.kind != ast::LitKind::String) return std::nullopt;
  return std::string(lit.value.text);
}

}  // namespace

// tfaddr.ParseProviderPart: [given] as a provider's name is normalized (the
// IDNA lookup mapping: ASCII letters lowercased), or nullopt with the
// reason in [err]. Letters beyond ASCII are taken as they are.
std::optional<std::string> parse_provider_part(std::string_view given, std::string& err) {
  if (given.empty()) {
    err = "must have at least one character";
    return std::nullopt;
  }
  if (given.find('.') != std::string_view::npos) {
    err = "dots are not allowed";
    return std::nullopt;
  }
  if (given.find("--") != std::string_view::npos) {
    err = "cannot use multiple consecutive dashes";
    return std::nullopt;
  }
  std::string out(given);
  bool ok = given.front() != '-' && given.back() != '-';
  for (char& c : out) {
    auto u = static_cast<unsigned char>(c);
    if (u >= 'A' && u <= 'Z')
      c = char(u - 'A' + 'a');
    else if (u < 0x80 && !(u >= 'a' && u <= 'z') && !(u >= '0' && u <= '9') && u != '-')
      ok = false;
  }
  if (!ok) {
    err =
        "must contain only letters, digits, and dashes, and may not use leading or trailing "
        "dashes";
    return std::nullopt;
  }
  return out;
}

namespace {

// svchost.ForComparison: [given] as a provider registry's hostname,
// lowercased, with its port unless that is 443; nullopt with the reason in
// [err]. ASCII hostnames are checked as the IDNA lookup profile checks
// them; letters beyond ASCII are taken as they are.
std::optional<std::string> provider_hostname(std::string_view given, std::string& err) {
  std::string host(given), port;
  if (size_t colon = host.find(':'); colon != std::string::npos) {
    std::string num = host.substr(colon + 1);
    host.resize(colon);
    // strconv.Atoi: an optional sign, then decimal digits.
    size_t at = !num.empty() && (num[0] == '+' || num[0] == '-') ? 1 : 0;
    bool digits =
        at < num.size() && num.size() - at <= 18 &&
        std::all_of(num.begin() + long(at), num.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits) {
      std::string lower = host;
      for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
      err = lower == "https" || lower == "http"
                ? "need just a hostname and optional port number, not a full URL"
                : "port portion contains non-digit characters";
      return std::nullopt;
    }
    long long n = std::stoll(num);
    if (n > 65535) {
      err = "port number is greater than 65535";
      return std::nullopt;
    }
    if (n != 443) port = ":" + std::to_string(n);
  }
  if (host.empty()) {
    err = "empty string is not a valid hostname";
    return std::nullopt;
  }
  // The labels (a last empty one, after a final dot, is not one).
  std::vector<std::string> labels;
  for (size_t at = 0; at < host.size();) {
    size_t dot = host.find('.', at);
    labels.push_back(host.substr(at, dot == std::string::npos ? std::string::npos : dot - at));
    if (dot == std::string::npos) break;
    at = dot + 1;
  }
  for (const std::string& l : labels) {
    if (l.empty()) {
      err = "hostname contains empty label (two consecutive periods)";
      return std::nullopt;
    }
    if (l.starts_with("xn--")) {
      err = "hostname label " + uni::go_quote(l) +
            " specified in punycode format; service hostnames must be given in unicode";
      return std::nullopt;
    }
  }
  // idna.Lookup.ToASCII: letters mapped to lower case, other ASCII than
  // letters, digits, hyphens and dots refused (STD3 rules), then no label
  // may start or end with a hyphen or have two in its third and fourth
  // places.
  for (char& c : host) {
    auto u = static_cast<unsigned char>(c);
    if (u >= 'A' && u <= 'Z') {
      c = char(u - 'A' + 'a');
    } else if (u < 0x80 && !(u >= 'a' && u <= 'z') && !(u >= '0' && u <= '9') && u != '-' &&
               u != '.') {
      char buf[32];
      std::snprintf(buf, sizeof buf, "idna: disallowed rune U+%04X", unsigned(u));
      err = buf;
      return std::nullopt;
    }
  }
  for (std::string& l : labels) {
    for (char& c : l) c = char(std::tolower(static_cast<unsigned char>(c)));
    if ((l.size() > 4 && l[2] == '-' && l[3] == '-') || l.front() == '-' || l.back() == '-') {
      err = "idna: invalid label " + uni::go_quote(l);
      return std::nullopt;
    }
  }
  return host + port;
}

}  // namespace

std::optional<ProviderAddr> parse_provider_source(std::string_view source, std::string& summary,
                                                  std::string& detail) {
  std::string str(source);
  const char* format =
      "The \"source\" attribute must be in the format \"[hostname/][namespace/]name\"";
  std::vector<std::string> parts;
  for (size_t at = 0;;) {
    size_t slash = str.find('/', at);
    parts.push_back(str.substr(at, slash == std::string::npos ? std::string::npos : slash - at));
    if (slash == std::string::npos) break;
    at = slash + 1;
  }
  if (parts.size() > 3 ||
      std::any_of(parts.begin(), parts.end(), [](const std::string& p) { return p.empty(); })) {
    summary = "Invalid provider source string";
    detail = format;
    return std::nullopt;
  }
  std::string err;
  std::optional<std::string> type = parse_provider_part(parts.back(), err);
  if (!type) {
    summary = "Invalid provider type";
    detail = "Invalid provider type " + uni::go_quote(parts.back()) + " in source " +
             uni::go_quote(str) + ": " + err + "\"";
    return std::nullopt;
  }
  ProviderAddr a{"registry.terraform.io", "hashicorp", *type};
  if (parts.size() == 1) return a;  // no namespace given: hashicorp's
  const std::string& given_ns = parts[parts.size() - 2];
  if (given_ns == "-") {
    a.ns = "-";
  } else if (std::optional<std::string> ns = parse_provider_part(given_ns, err)) {
    a.ns = *ns;
  } else {
    summary = "Invalid provider namespace";
    detail = "Invalid provider namespace \"\" in source " + uni::go_quote(str) + ": " + err + "\"";
    return std::nullopt;
  }
  if (parts.size() == 3) {
    std::optional<std::string> host = provider_hostname(parts[0], err);
    if (!host) {
      summary = "Invalid provider source hostname";
      detail = "Invalid provider source hostname namespace \"\" in source " + uni::go_quote(str) +
               ": " + err + "\"";
      return std::nullopt;
    }
    a.hostname = *host;
  }
  if (a.ns == "-" && a.hostname != "registry.terraform.io") {
    summary = "Invalid provider namespace";
    detail =
        "The legacy provider namespace \"-\" can be used only with hostname "
        "registry.terraform.io.";
    return std::nullopt;
  }
  // The "terraform-" prefix is redundant in a type; "terraform-provider-"
  // is a repository's name mistaken for one.
  if (a.type.starts_with("terraform-")) {
    summary = "Invalid provider type";
    auto display = [](const ProviderAddr& p, bool always_host) {
      std::string s = p.ns + "/" + p.type;
      return always_host || p.hostname != "registry.terraform.io" ? p.hostname + "/" + s : s;
    };
    if (a.type.starts_with("terraform-provider-") &&
        parse_provider_part(a.type.substr(std::string_view("terraform-provider-").size()), err)) {
      ProviderAddr suggested = a;
      suggested.type = a.type.substr(std::string_view("terraform-provider-").size());
      detail = "Provider source " + uni::go_quote(display(a, false)) +
               " has a type with the prefix \"terraform-provider-\", which isn't valid. Although "
               "that prefix is often used in the names of version control repositories for "
               "Terraform providers, provider source strings should not include it.\n\nDid you "
               "mean " +
               uni::go_quote(display(suggested, false)) + "?";
    } else {
      detail = "Provider source " + uni::go_quote(display(a, true)) +
               " has a type with the prefix \"terraform-\", which isn't allowed because it would "
               "be redundant to name a Terraform provider with that prefix. If you are the author "
               "of this provider, rename it to not include the prefix.";
    }
    return std::nullopt;
  }
  return a;
}

namespace {

// checkProviderNameNormalized: [name] as a provider's local name, at
// [range]; false with the error in [diags] when it is not a normalized one.
bool check_provider_name(const std::string& name, const Range& range, Diagnostics& diags) {
  std::string err;
  if (std::optional<std::string> normal = parse_provider_part(name, err); !normal) {
    error(diags, "Invalid provider local name", name + " is an invalid provider local name: " + err,
          range);
    return false;
  } else if (*normal != name) {
    error(diags, "Invalid provider local name",
          "Provider names must be normalized. Replace \"" + name + "\" with \"" + *normal +
              "\" to fix this error.",
          range);
    return false;
  }
  return true;
}

// Terraform's shimTraversalInString: a native quoted string [e] read as
// the traversal it holds (its errors in [diags], with the warning that
// quoting references, or [keyword]s, is deprecated); nullopt for any
// other expression.
std::optional<Traversal> shim_quoted_traversal(const Expression& e, Diagnostics& diags,
                                               bool keyword = false) {
  if (!native_quoted_string(e)) return std::nullopt;
  EvalResult v = e.value(nullptr);
  if (v.has_errors() || v.value.is_null() || !v.value.is_known()) return std::nullopt;
  Range r = e.range();
  Pos start = r.start;
  ++start.column, ++start.byte;
  TraversalParse p =
      parse_traversal_abs(make_source(r.filename, std::string(v.value.as_string()), start));
  append(diags, std::move(p.diagnostics));
  Diagnostic w;
  w.severity = Severity::Warning;
  w.summary = keyword ? "Quoted keywords are deprecated" : "Quoted references are deprecated";
  w.detail = keyword ? "In this context, keywords are expected literally rather than in quotes. "
                       "Terraform 0.11 and earlier required quotes, but quoted keywords are now "
                       "deprecated and will be removed in a future version of Terraform. Remove "
                       "the quotes surrounding this keyword to silence this warning."
                     : kQuotedReferencesDetail;
  w.subject = r;
  diags.push_back(std::move(w));
  return make_traversal(p.traversal, *p.source);
}

// Terraform's decodeProviderConfigRef of [e], given as the [arg] argument:
// the provider's local name and its alias ("" for none), or nullopt when
// it is not a reference to one (the errors in [diags]).
std::optional<ProviderRef> decode_provider_ref(const Expression& e, std::string_view arg,
                                               Diagnostics& diags) {
  Diagnostics own;
  Traversal t;
  if (std::optional<Traversal> shimmed = shim_quoted_traversal(e, own)) {
    t = std::move(*shimmed);
  } else {
    TraversalResult r = abs_traversal_for_expr(e);
    // Its errors are generic: replaced by the ones below.
    if (!has_errors(r.diagnostics)) append(own, std::move(r.diagnostics));
    t = std::move(r.traversal);
  }
  auto done = [&](std::optional<ProviderRef> ref) {
    append(diags, std::move(own));
    return ref;
  };
  if (t.steps.empty() || t.steps.size() > 2) {
    error(own, "Invalid provider configuration reference",
          "The " + std::string(arg) +
              " argument requires a provider type name, optionally followed by a period and then "
              "a configuration alias.",
          e.range());
    return done(std::nullopt);
  }
  ProviderRef ref{std::string(t.root_name()), "", t.steps[0].range};
  check_provider_name(ref.name, t.steps[0].range, own);
  if (has_errors(own)) return done(std::nullopt);
  if (t.steps.size() > 1) {
    if (t.steps[1].kind != TraversalStep::Kind::Attr) {
      error(own, "Invalid provider configuration reference",
            "Provider name must either stand alone or be followed by a period and then a "
            "configuration alias.",
            t.steps[1].range);
      return done(std::nullopt);
    }
    ref.alias = t.steps[1].name;
  }
  return done(ref);
}

// unwrapJSONRefExpr: the expression [e] stands for, a JSON string read
// as a native expression ([parsed] keeps that parse alive); null with the
// errors in [diags] when it is not one.
std::pair<const ast::Expr*, const Source*> unwrap_json_ref(const Expression& e,
                                                           std::optional<ExprParse>& parsed,
                                                           Diagnostics& diags) {
  if (const ast::Expr* x = e.native_expr()) return {x, &e.source()};
  EvalResult v = e.value(nullptr);
  bool failed = v.has_errors();
  append(diags, std::move(v.diagnostics));
  if (failed) return {nullptr, nullptr};
  if (v.value.type() != Type::string()) {
    error(diags, "Invalid reference expression", "A single reference string is required.",
          e.range());
    return {nullptr, nullptr};
  }
  Range r = e.range();
  parsed = parse_expression(make_source(r.filename, std::string(v.value.as_string()), r.start));
  append(diags, parsed->diagnostics);
  if (parsed->has_errors() || parsed->expr == nullptr) return {nullptr, nullptr};
  return {parsed->expr, parsed->source.get()};
}

// exprToResourceTraversal: an import block's `to` [x] as a traversal, the
// index keys that are not constant left out.
Traversal resource_traversal(const ast::Expr& x, const Source& src, Diagnostics& diags) {
  switch (x.kind) {
    case ast::ExprKind::RelativeTraversal: {
      const auto& r = ast::as<ast::RelativeTraversalExpr>(x);
      Traversal t = resource_traversal(*r.source, src, diags);
      Traversal tail = make_traversal(r.steps, src);
      t.steps.insert(t.steps.end(), tail.steps.begin(), tail.steps.end());
      return t;
    }
    case ast::ExprKind::ScopeTraversal:
      return make_traversal(ast::as<ast::ScopeTraversalExpr>(x).steps, src);
    case ast::ExprKind::Index: {
      Diagnostics d;
      Traversal t = resource_traversal(*ast::as<ast::IndexExpr>(x).collection, src, d);
      bool failed = has_errors(d);
      append(diags, std::move(d));
      return failed ? Traversal{} : t;
    }
    default: {
      TraversalResult r = abs_traversal_for_expr(x, src);
      append(diags, std::move(r.diagnostics));
      return std::move(r.traversal);
    }
  }
}

// Terraform's decodeImportBlock of [c], an import block's content, into
// [imp], appending to [diags] (which holds the content's diagnostics). It
// stops early at errors before its `to` is read: [imp] then names no
// resource.
void decode_import(const ContentResult& c, ImportDecl& imp, Diagnostics& diags) {
  const Attribute* to = c.content.attributes.find("to");
  bool in_module = false;
  if (to != nullptr) {
    // Errors so far (the content's too) end the block here.
    if (has_errors(diags)) return;
    std::optional<ExprParse> json;
    auto [x, src] = unwrap_json_ref(to->expr, json, diags);
    if (x == nullptr) return;
    Diagnostics td;
    Traversal t = resource_traversal(*x, *src, td);
    std::optional<Address> addr;
    if (!has_errors(td)) addr = parse_address(t, false, td);
    append(diags, std::move(td));
    if (!addr || !addr->managed) {
      error(diags, "Invalid import address", "Only managed resources can be imported.", to->range);
    }
    in_module = addr && addr->config.starts_with("module.");
    imp.to_range = to->expr.range();
    imp.block.to_range = imp.to_range;
    if (addr) {
      imp.to_resource = addr->config;
      imp.block.to_parsed = true;
      imp.block.modules = addr->modules;
      imp.block.type = addr->type;
      imp.block.name = addr->name;
      imp.block.config = addr->config;
    }
    // importToExprToTraversal: `ADDRESS[KEY]`, its key evaluated for each
    // element of for_each.
    if (x->kind == ast::ExprKind::Index) {
      const auto& ix = ast::as<ast::IndexExpr>(*x);
      Diagnostics bd;
      Traversal base = resource_traversal(*ix.collection, *src, bd);
      if (!has_errors(bd) && !base.empty()) {
        imp.block.to_base = std::move(base);
        ExprParse kp = parse_expression(
            make_source(src->name(),
                        std::string(src->text().substr(ix.key->span.begin,
                                                       ix.key->span.end - ix.key->span.begin)),
                        src->pos(ix.key->span.begin)));
        if (!kp.has_errors()) imp.block.to_key = Expression::from_parse(std::move(kp));
      }
    }
    // parseImportToStatic: the same address with constant keys only.
    TraversalResult st = abs_traversal_for_expr(*x, *src);
    Diagnostics ignored;
    if (!st.has_errors()) {
      if (std::optional<Address> a = parse_address(st.traversal, false, ignored)) {
        imp.to_key = a->full;
        imp.block.to_static = true;
        const TraversalStep& last = st.traversal.steps.back();
        if (last.kind == TraversalStep::Kind::Index)
          imp.block.key_kind = last.key.type() == Type::string() ? 2 : 1;
      }
    }
  }
  if (const Attribute* id = c.content.attributes.find("id")) imp.block.id = raw(id->expr);
  if (const Attribute* fe = c.content.attributes.find("for_each")) {
    imp.block.for_each = true;
    imp.block.for_each_expr = raw(fe->expr);
  }
  if (const Attribute* p = c.content.attributes.find("provider")) {
    if (in_module) {
      error(diags, "Invalid import provider argument",
            "The provider argument can only be specified in import blocks that will generate "
            "configuration.\n\nUse the providers argument within the module block to configure "
            "providers for all resources within a module, including imported resources.",
            p->range);
    }
    decode_provider_ref(p->expr, "provider", diags);
  }
}

// A lifecycle's ignore_changes list [a] (not `all`) as Terraform reads it:
// relative traversals, quoted ones with a warning, ["*"] an error.
void decode_ignore_changes(const Attribute& a, Diagnostics& diags) {
  ExpressionListResult l = expr_list(a.expr);
  append(diags, std::move(l.diagnostics));
  std::optional<Range> star;
  size_t kept = 0;
  for (const Expression& e : l.items) {
    EvalResult v = e.value(nullptr);
    if (!v.has_errors() && v.value.type() == Type::string() && v.value.is_known() &&
        !v.value.is_null() && v.value.as_string() == "*") {
      star = e.range();
      error(diags, "Invalid ignore_changes wildcard",
            "The [\"*\"] form of ignore_changes wildcard is was deprecated and is now invalid. "
            "Use \"ignore_changes = all\" to ignore changes to all attributes.",
            a.expr.range());
      continue;
    }
    if (std::optional<Traversal> t = shim_quoted_traversal(e, diags)) {
      if (!t->empty()) ++kept;
      continue;
    }
    TraversalResult t = rel_traversal_for_expr(e);
    append(diags, std::move(t.diagnostics));
    if (!t.traversal.empty()) ++kept;
  }
  if (star && kept != 0) {
    error(diags, "Invalid ignore_changes ruleset",
          "Cannot mix wildcard string \"*\" with non-wildcard references.", *star, a.expr.range());
  }
}

// decodeReplaceTriggeredBy: each item of [e] refers to one resource, with
// only count.index and each.key besides; the first error ends the list.
void decode_replace_triggered_by(const Expression& e, Diagnostics& out) {
  Diagnostics diags;
  ExpressionListResult l = expr_list(e);
  append(diags, std::move(l.diagnostics));
  if (has_errors(diags)) {
    append(out, std::move(diags));
    return;
  }
  for (const Expression& item : l.items) {
    // An earlier error ends the list.
    if (has_errors(diags)) continue;
    std::optional<ExprParse> json;
    auto [x, src] = unwrap_json_ref(item, json, diags);
    if (x == nullptr) continue;
    Range range = src->range(x->span);
    Diagnostics rd;
    std::vector<Ref> refs = parse_refs(variables(*x, *src), rd);
    for (Diagnostic& d : rd) {
      d.subject = range;
      d.context.reset();
      d.expression.reset();
      d.expression_values.clear();
      diags.push_back(std::move(d));
    }
    if (has_errors(rd)) continue;
    int resources = 0;
    for (const Ref& r : refs) {
      if (r.kind == Ref::Resource) {
        ++resources;
      } else if (r.kind == Ref::Each) {
        if (r.name != "key")
          error(diags, "Invalid each reference in replace_triggered_by expression",
                "Only each.key may be used in replace_triggered_by.", range);
      } else if (r.kind == Ref::Count) {
        if (r.name != "index")
          error(diags, "Invalid count reference in replace_triggered_by expression",
                "Only count.index may be used in replace_triggered_by.", range);
      } else {
        error(diags, "Invalid reference in replace_triggered_by expression",
              "Only resources, count.index, and each.key may be used in replace_triggered_by.",
              range);
      }
    }
    if (resources == 0) {
      error(diags, "Invalid replace_triggered_by expression",
            "Missing resource reference in replace_triggered_by expression.", range);
    } else if (resources > 1) {
      error(diags, "Invalid replace_triggered_by expression",
            "Multiple resource references in replace_triggered_by expression.", range);
    }
  }
  append(out, std::move(diags));
}

// The keyword [e] is, a quoted one read as one with Terraform's warning
// (shimTraversalInString, then hcl.ExprAsKeyword); "" for none.
std::string shimmed_keyword(const Expression& e, Diagnostics& diags) {
  if (std::optional<Traversal> t = shim_quoted_traversal(e, diags, true))
    return t->steps.size() == 1 ? t->steps[0].name : "";
  return expr_as_keyword(e);
}

// onlySelfRefs: the references a destroy-time provisioner's arguments in
// [body] may make (self, path, terraform, count.index, each.key).
void only_self_refs(const Body& body, Diagnostics& diags) {
  AttributesResult r = body.just_attributes();
  for (const Attribute& a : r.attributes) {
    for (const Traversal& v : a.expr.variables()) {
      std::string_view root = v.root_name();
      bool second = v.steps.size() == 2 && v.steps[1].kind == TraversalStep::Kind::Attr;
      bool valid = root == "self" || root == "path" || root == "terraform" ||
                   (root == "count" && second && v.steps[1].name == "index") ||
                   (root == "each" && second && v.steps[1].name == "key");
      if (valid) continue;
      error(diags, "Invalid reference from destroy provisioner",
            "Destroy-time provisioners and their connection configurations may only reference "
            "attributes of the related resource, via 'self', 'count.index', or 'each.key'.\n\n"
            "References to other resources during the destroy phase can cause dependency cycles "
            "and interact poorly with create_before_destroy.",
            a.expr.range());
    }
  }
}

// Adds the arguments of [body] (those named in [only], when given) to
// [out], as expressions a resource depends on.
void add_body_edges(const Body& body, const std::vector<std::string_view>* only,
                    std::vector<ExprPtr>& out) {
  AttributesResult r = body.just_attributes();
  for (const Attribute& a : r.attributes) {
    if (only == nullptr || std::find(only->begin(), only->end(), a.name) != only->end())
      out.push_back(raw(a.expr));
  }
}

// The arguments a built-in provisioner's schema reads (local-exec, file,
// remote-exec), or null for any other type.
const std::vector<std::string_view>* provisioner_arguments(std::string_view type) {
  static const std::vector<std::string_view> local_exec = {"command", "working_dir", "interpreter",
                                                           "environment", "quiet"};
  static const std::vector<std::string_view> file = {"source", "content", "destination"};
  static const std::vector<std::string_view> remote_exec = {"inline", "script", "scripts"};
  return type == "local-exec"    ? &local_exec
         : type == "file"        ? &file
         : type == "remote-exec" ? &remote_exec
                                 : nullptr;
}

// Terraform's decodeProvisionerBlock of [b]: whether it is a destroy-time
// provisioner, or nullopt for a removed provisioner type. A create-time
// one adds what its resource depends on through it to [edges]: the
// arguments its type's schema reads and its connection block's.
std::optional<bool> decode_provisioner(const Block& b, Diagnostics& diags,
                                       std::vector<ExprPtr>* edges, Provisioner* out = nullptr) {
  static const BodySchema schema{{{"when"}, {"on_failure"}},
                                 {{"_", {}}, {"connection", {}}, {"lifecycle", {}}}};
  PartialContentResult c = b.body.partial_content(schema);
  append(diags, std::move(c.diagnostics));
  const std::string& t = b.labels[0];
  if (t == "chef" || t == "habitat" || t == "puppet" || t == "salt-masterless") {
    error(diags, "The \"" + t + "\" provisioner has been removed",
          "The \"" + t +
              "\" provisioner was deprecated in Terraform 0.13.4 has been removed from Terraform. "
              "Visit https://learn.hashicorp.com/collections/terraform/provision for alternatives "
              "to using provisioners that are a better fit for the Terraform workflow.",
          b.label_ranges[0]);
    return std::nullopt;
  }
  bool destroy = false;
  if (const Attribute* a = c.content.attributes.find("when")) {
    std::string kw = shimmed_keyword(a->expr, diags);
    if (kw == "destroy") {
      destroy = true;
    } else if (kw != "create") {
      error(diags, "Invalid \"when\" keyword",
            "The \"when\" argument requires one of the following keywords: create or destroy.",
            a->expr.range());
    }
  }
  if (destroy) only_self_refs(c.remain, diags);
  if (const Attribute* a = c.content.attributes.find("on_failure")) {
    std::string kw = shimmed_keyword(a->expr, diags);
    if (kw != "continue" && kw != "fail") {
      error(diags, "Invalid \"on_failure\" keyword",
            "The \"on_failure\" argument requires one of the following keywords: continue or "
            "fail.",
            a->expr.range());
    }
  }
  const Block* connection = nullptr;
  const Block* escape = nullptr;
  for (const Block& inner : c.content.blocks) {
    if (inner.type == "_") {
      if (escape != nullptr) {
        error(diags, "Duplicate escaping block",
              "The special block type \"_\" can be used to force particular arguments to be "
              "interpreted as provisioner-typpe-specific rather than as meta-arguments, but each "
              "provisioner block can have only one such block. The first escaping block was at " +
                  range_string(escape->def_range) + ".",
              inner.def_range);
        continue;
      }
      escape = &inner;
      if (destroy) only_self_refs(inner.body, diags);
    } else if (inner.type == "connection") {
      if (connection != nullptr) {
        error(diags, "Duplicate connection block",
              "This provisioner already has a connection block at " +
                  range_string(connection->def_range) + ".",
              inner.def_range);
        continue;
      }
      connection = &inner;
      if (destroy) only_self_refs(inner.body, diags);
      if (!destroy && edges != nullptr) add_body_edges(inner.body, nullptr, *edges);
    } else {
      error(diags, "Reserved block type name in provisioner block",
            "The block type name \"" + inner.type +
                "\" is reserved for use by Terraform in a future version.",
            inner.type_range);
    }
  }
  if (!destroy && edges != nullptr) {
    if (const std::vector<std::string_view>* args = provisioner_arguments(t))
      add_body_edges(c.remain, args, *edges);
  }
  if (out != nullptr) {
    out->type = t;
    out->config = escape ? merge_bodies({c.remain, escape->body}) : c.remain;
    if (connection) out->connection = connection->body;
  }
  return destroy;
}

// addrs.ParseRemoveTarget: what a removed block's `from` [t] names, a
// module (false) or a managed resource (true), or nullopt (its errors in
// [diags]; a data resource is one).
std::optional<bool> parse_remove_target(const Traversal& t, Diagnostics& diags) {
  using K = TraversalStep::Kind;
  const std::vector<TraversalStep>& s = t.steps;
  size_t i = 0;
  Address prefix;
  if (!module_prefix(t, false, prefix, i, diags)) return std::nullopt;
  if (i == s.size()) return false;
  bool data = s[i].name == "data" && s[i].kind != K::Index;
  if (data) ++i;
  if (s.size() - i < 2) {
    error(diags, "Invalid address", "Resource specification must include a resource type and name.",
          i < s.size() ? Range{s[i].range.filename, s[i].range.start, s.back().range.end}
                       : t.range());
    return std::nullopt;
  }
  if (s[i].kind == K::Index) {
    error(diags, "Invalid address",
          data ? "A data source name is required." : "A resource type name is required.",
          s[i].range);
    return std::nullopt;
  }
  if (s[i + 1].kind != K::Attr) {
    error(diags, "Invalid address", "A resource name is required.", s[i + 1].range);
    return std::nullopt;
  }
  if (i + 2 < s.size()) {
    error(diags, "Resource instance keys not allowed",
          "Resource address must be a resource (e.g. \"test_instance.foo\"), not a resource "
          "instance (e.g. \"test_instance.foo[1]\").",
          s[i + 2].range);
    return std::nullopt;
  }
  if (data) {
    error(diags, "Data source address not allowed",
          "Data sources are never destroyed, so they are not valid targets of removed blocks. To "
          "remove the data source from state, remove the data source block from configuration.",
          t.range());
    return std::nullopt;
  }
  return true;
}

// Reads the `type` argument [e] of a variable into [v] (decodeVariableType).
void decode_variable_type(const Expression& e, Variable& v, Diagnostics& diags) {
  v.parse_hcl = true;
  v.constraint = Type::dynamic();
  v.defaults = nullptr;
  if (std::optional<std::string> q = native_quoted_string(e)) {
    const char* head =
        "Terraform 0.11 and earlier required type constraints to be given in quotes, but that "
        "form is now deprecated and will be removed in a future version of Terraform. Remove "
        "the quotes around \"";
    if (*q == "string") {
      error(diags, "Invalid quoted type constraints", std::string(head) + "string\".", e.range());
      v.parse_hcl = false;
    } else if (*q == "list" || *q == "map") {
      error(diags, "Invalid quoted type constraints",
            std::string(head) + *q + "\" and write " + *q +
                "(string) instead to explicitly indicate that the " + *q +
                " elements are strings.",
            e.range());
    } else {
      error(diags, "Invalid legacy variable type hint",
            "To provide a full type expression, remove the surrounding quotes and give the type "
            "expression directly.",
            e.range());
    }
    return;
  }
  std::string kw = expr_as_keyword(e);
  if (kw == "list") {
    v.constraint = Type::list(Type::dynamic());
    return;
  }
  if (kw == "map") {
    v.constraint = Type::map(Type::dynamic());
    return;
  }
  TypeExprResult r = parse_type_expr(e, TypeExprMode::ConstraintWithDefaults);
  append(diags, r.diagnostics);
  if (has_errors(r.diagnostics)) return;
  v.constraint = r.type;
  v.defaults = r.defaults;
  v.parse_hcl = !r.type->is_primitive();
}

// Terraform's moduleBlockSchema names, reserved as variable names.
constexpr const char* kReservedVariableNames[] = {
    "source", "version", "count", "for_each", "depends_on", "providers",
    "_",      "lifecycle", "locals", "provider"};

// Removes the required flags of [s] (schemaForOverrides).
BodySchema for_overrides(BodySchema s) {
  for (AttributeSchema& a : s.attributes) a.required = false;
  return s;
}

// checkVariableValidationBlock: the condition must refer to var.[name].
void check_variable_validation(const std::string& name, const CheckRule& cr, Diagnostics& diags) {
  if (!cr.condition) return;
  for (const Traversal& t : cr.condition->expr.variables()) {
    if (t.steps.size() >= 2 && t.root_name() == "var" &&
        t.steps[1].kind == TraversalStep::Kind::Attr && t.steps[1].name == name)
      return;
  }
  error(diags, "Invalid variable validation condition",
        "The condition for variable \"" + name + "\" must refer to var." + name +
            " in order to test incoming values.",
        cr.condition->expr.range());
}

VarDecl decode_variable(const Block& block, bool override, Diagnostics& diags) {
  VarDecl d;
  Variable& v = d.v;
  v.name = block.labels[0];
  v.decl_range = block.def_range;
  if (!override) {
    v.constraint = v.type = Type::dynamic();
    v.parse_hcl = false;
  }
  static const BodySchema schema{{{"description"}, {"default"}, {"type"}, {"sensitive"},
                                  {"ephemeral"}, {"nullable"}},
                                 {{"validation", {}}}};
  ContentResult c = block.body.content(schema);
  append(diags, std::move(c.diagnostics));
  if (!valid_identifier(v.name))
    error(diags, "Invalid variable name", kBadIdentifierDetail, block.label_ranges[0]);
  for (const char* r : kReservedVariableNames) {
    if (v.name == r) {
      error(diags, "Invalid variable name",
            std::string("The variable name \"") + r +
                "\" is reserved due to its special meaning inside module blocks.",
            block.label_ranges[0]);
    }
  }
  const Attributes& at = c.content.attributes;
  if (const Attribute* a = at.find("description")) {
    decode_string(*a, v.description, diags);
    d.set.insert("description");
  }
  if (const Attribute* a = at.find("type")) {
    decode_variable_type(a->expr, v, diags);
    v.type = v.constraint->without_optional_attrs_deep();
    v.type_set = true;
    d.set.insert("type");
  }
  if (const Attribute* a = at.find("sensitive")) {
    decode_bool(*a, v.sensitive, diags);
    d.set.insert("sensitive");
  }
  if (const Attribute* a = at.find("ephemeral")) {
    decode_bool(*a, v.ephemeral, diags);
    d.set.insert("ephemeral");
  }
  if (const Attribute* a = at.find("nullable")) {
    // Terraform's Nullable is false unless decoded as true.
    v.nullable = false;
    decode_bool(*a, v.nullable, diags);
    d.set.insert("nullable");
  } else {
    v.nullable = true;
  }
  if (const Attribute* a = at.find("default")) {
    d.set.insert("default");
    d.default_expr = a->expr;
    EvalResult r = a->expr.value(nullptr);
    append(diags, std::move(r.diagnostics));
    Value val = std::move(r.value);
    if (v.constraint != nullptr) {
      if (v.defaults && !val.is_null()) val = v.defaults->apply(val);
      ConvertResult cv = convert(val, v.constraint);
      if (!cv.ok()) {
        std::string path = path_string(cv.error().path);
        error(diags, "Invalid default value for variable",
              "This default value is not compatible with the variable's type constraint: " +
                  (path.empty() ? "" : path + ": ") + cv.error().message + ".",
              a->expr.range());
        val = Value::dynamic();
      } else {
        val = cv.take();
      }
    }
    if (!v.nullable && val.is_null()) {
      error(diags, "Invalid default value for variable",
            "A null default value is not valid when nullable=false.", a->expr.range());
    }
    v.default_value = std::move(val);
    v.default_range = a->expr.range();
  }
  for (const Block& b : c.content.blocks) {
    CheckRule cr = decode_check_rule(b, override, diags);
    if (!override) check_variable_validation(v.name, cr, diags);
    v.validations.push_back(std::move(cr));
  }
  return d;
}

// Decodes the `depends_on` list [a] into expressions of its traversals.
std::vector<ExprPtr> decode_depends_on(const Attribute& a, Diagnostics& diags) {
  std::vector<ExprPtr> out;
  ExpressionListResult l = expr_list(a.expr);
  append(diags, std::move(l.diagnostics));
  for (const Expression& item : l.items) {
    // A quoted reference is read as the reference it holds, with a warning
    // (shimTraversalInString).
    Diagnostics sd;
    if (shim_quoted_traversal(item, sd)) {
      bool failed = has_errors(sd);
      append(diags, std::move(sd));
      if (failed) continue;
      Range r = item.range();
      Pos start = r.start;
      ++start.column, ++start.byte;
      ExprParse p = parse_expression(
          make_source(r.filename, std::string(item.value(nullptr).value.as_string()), start));
      if (!p.has_errors()) out.push_back(raw(Expression::from_parse(std::move(p))));
      continue;
    }
    TraversalResult t = abs_traversal_for_expr(item);
    append(diags, std::move(t.diagnostics));
    if (!t.traversal.empty()) out.push_back(raw(item));
  }
  return out;
}

OutputDecl decode_output(const Block& block, bool override, Diagnostics& diags) {
  OutputDecl d;
  Output& o = d.o;
  o.name = block.labels[0];
  o.decl_range = block.def_range;
  BodySchema schema{{{"description"}, {"value", true}, {"depends_on"}, {"sensitive"},
                     {"ephemeral"}},
                    {{"precondition", {}}, {"postcondition", {}}}};
  if (override) schema = for_overrides(std::move(schema));
  ContentResult c = block.body.content(schema);
  append(diags, std::move(c.diagnostics));
  if (!valid_identifier(o.name))
    error(diags, "Invalid output name", kBadIdentifierDetail, block.label_ranges[0]);
  const Attributes& at = c.content.attributes;
  if (const Attribute* a = at.find("description")) {
    decode_string(*a, o.description, diags);
    d.set.insert("description");
  }
  if (const Attribute* a = at.find("value")) {
    o.value = raw(a->expr);
    d.set.insert("value");
  }
  if (const Attribute* a = at.find("sensitive")) {
    decode_bool(*a, o.sensitive, diags);
    d.set.insert("sensitive");
  }
  if (const Attribute* a = at.find("ephemeral")) {
    decode_bool(*a, o.ephemeral, diags);
    d.set.insert("ephemeral");
  }
  if (const Attribute* a = at.find("depends_on")) {
    o.depends_on = decode_depends_on(*a, diags);
    d.set.insert("depends_on");
  }
  for (const Block& b : c.content.blocks) {
    if (b.type == "precondition") {
      o.preconditions.push_back(decode_check_rule(b, override, diags));
    } else {
      error(diags, "Postconditions are not allowed",
            "Output values can only have preconditions, not postconditions.", b.type_range);
    }
  }
  return d;
}

void decode_locals(const Block& block, std::vector<LocalDecl>& out, Diagnostics& diags) {
  AttributesResult r = block.body.just_attributes();
  append(diags, std::move(r.diagnostics));
  for (const Attribute& a : r.attributes) {
    if (!valid_identifier(a.name))
      error(diags, "Invalid local value name", kBadIdentifierDetail, a.name_range);
    LocalDecl l;
    l.l.name = a.name;
    l.l.decl_range = a.range;
    l.l.expr = raw(a.expr);
    out.push_back(std::move(l));
  }
}

// Whether [s] has one of Terraform's local module source prefixes.
bool is_local_source(std::string_view s) {
  return s.starts_with("./") || s.starts_with("../") || s.starts_with(".\\") ||
         s.starts_with("..\\");
}

// go-getter's SourceDirSubdir: [src] split into its package and the
// subdirectory after a "//" (one not part of a scheme's "://"); a query
// string stays with the package.
std::pair<std::string, std::string> split_package_subdir(std::string_view src) {
  size_t stop = std::min(src.find('?'), src.size());
  size_t offset = 0;
  if (size_t scheme = src.substr(0, stop).find("://"); scheme != std::string_view::npos)
    offset = scheme + 3;
  size_t idx = src.substr(offset, stop - offset).find("//");
  if (idx == std::string_view::npos) return {std::string(src), ""};
  idx += offset;
  std::string pkg(src.substr(0, idx)), subdir(src.substr(idx + 2));
  if (size_t q = subdir.find('?'); q != std::string::npos) {
    pkg += subdir.substr(q);
    subdir.resize(q);
  }
  return {pkg, subdir};
}

// A registry module address (tfaddr.ParseModuleSource):
// [host/]ns/name/system[//subdir]; "" when [raw] is one, else why not.
std::string registry_error(std::string_view raw) {
  auto [s, subdir] = split_package_subdir(raw);
  if (!subdir.empty()) subdir = clean_path(subdir);
  if (subdir.starts_with("../"))
    return "subdirectory path " + uni::go_quote(subdir) + " leads outside of the module package";
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t p = s.find('/', start);
    parts.push_back(s.substr(start, p == std::string::npos ? std::string::npos : p - start));
    if (p == std::string::npos) break;
    start = p + 1;
  }
  if (parts.size() < 3 || parts.size() > 4)
    return "a module registry source address must have either three or four slash-separated "
           "components";
  if (parts.size() == 4) {
    std::string err;
    std::optional<std::string> host = provider_hostname(parts[0], err);
    if (!host) {
      return parts[0].find("--") != std::string::npos
                 ? "invalid module registry hostname " + uni::go_quote(parts[0]) +
                       "; internationalized domain names must be given as direct unicode "
                       "characters, not in punycode"
                 : "invalid module registry hostname " + uni::go_quote(parts[0]);
    }
    if (host->find('.') == std::string::npos)
      return "invalid module registry hostname: must contain at least one dot";
    if (*host == "github.com" || *host == "bitbucket.org")
      return "can't use " + uni::go_quote(*host) +
             " as a module registry host, because it's reserved for installing directly from "
             "version control repositories";
  }
  size_t first = parts.size() - 3;
  const char* name_rule =
      ": must be between one and 64 characters, including ASCII letters, digits, dashes, and "
      "underscores, where dashes and underscores may not be the prefix or suffix";
  if (!registry_name(parts[first])) {
    if (parts[first].find('.') != std::string::npos)
      return "source address must have three more components after the hostname: the "
             "namespace, the name, and the target system";
    return "invalid namespace " + uni::go_quote(parts[first]) + name_rule;
  }
  if (!registry_name(parts[first + 1]))
    return "invalid module name " + uni::go_quote(parts[first + 1]) + name_rule;
  if (!registry_system(parts[first + 2])) {
    if (parts[first + 2].find('?') != std::string::npos)
      return "module registry addresses may not include a query string portion";
    return "invalid target system " + uni::go_quote(parts[first + 2]) +
           ": must be between one and 64 ASCII letters or digits";
  }
  return "";
}

// Whether [raw] is a remote source go-getter's detectors would accept
// without resolving it as a relative path.
bool is_remote_source(std::string_view s) {
  if (forced_getter(s) || url_with_scheme(s)) return true;
  return s.starts_with("github.com/") || s.starts_with("git@") || s.starts_with("bitbucket.org/") ||
         s.find(".amazonaws.com/") != std::string::npos ||
         s.starts_with("www.googleapis.com/storage/") || s.starts_with("/");
}

// Checks the module source address [raw] ([range]) as decodeModuleBlock does;
// true when it is a remote package's (read without errors).
bool check_module_source(const std::string& raw, bool have_version, const Range& range,
                         Diagnostics& diags) {
  if (have_version) {
    std::string why = is_local_source(raw)
                          ? "can't use local directory \"" + raw + "\" as a module registry address"
                          : registry_error(raw);
    if (!why.empty()) {
      error(diags, "Invalid registry module source address",
            "Failed to parse module registry address: " + why +
                ".\n\nTerraform assumed that you intended a module registry source address "
                "because you also set the argument \"version\", which applies only to registry "
                "modules.",
            range);
    }
    return false;
  }
  if (is_local_source(raw) || registry_error(raw).empty()) return false;
  // A remote package (parseModuleSourceRemote): its subdirectory split off
  // first.
  auto [pkg, subdir] = split_package_subdir(raw);
  if (!subdir.empty()) subdir = clean_path(subdir);
  if (subdir.starts_with("../")) {
    error(diags, "Invalid module source address",
          "Failed to parse module source address: subdirectory path " + uni::go_quote(subdir) +
              " leads outside of the module package.",
          range);
    return false;
  }
  if (is_remote_source(pkg)) return true;
  error(diags, "Invalid module source address",
        "Terraform failed to determine your intended installation method for remote module "
        "package " +
            uni::go_quote(pkg) +
            ".\n\nIf you intended this as a path relative to the "
            "current module, use \"./" +
            pkg +
            "\" instead. The \"./\" prefix indicates that the "
            "address is a relative filesystem path.",
        range);
  return false;
}

// decodePassedProviderConfigs: the `providers` map [a] of a module call or
// a test's run block, each child's configuration passed once; those read
// go to [out] when given.
void decode_passed_providers(const Attribute& a, Diagnostics& diags,
                             std::vector<PassedProvider>* out = nullptr) {
  ExpressionMapResult m = expr_map(a.expr);
  append(diags, std::move(m.diagnostics));
  std::vector<std::pair<std::string, Range>> seen;
  for (const ExpressionPair& kv : m.pairs) {
    Diagnostics kd, vd;
    std::optional<ProviderRef> child = decode_provider_ref(kv.key, "providers", kd);
    std::optional<ProviderRef> parent = decode_provider_ref(kv.value, "providers", vd);
    bool failed = has_errors(kd) || has_errors(vd);
    append(diags, std::move(kd));
    append(diags, std::move(vd));
    if (failed || !child || !parent) continue;
    std::string key = child->alias.empty() ? child->name : child->name + "." + child->alias;
    auto prev =
        std::find_if(seen.begin(), seen.end(), [&](const auto& s) { return s.first == key; });
    if (prev != seen.end()) {
      error(diags, "Duplicate provider address",
            "A provider configuration was already passed to " + key + " at " +
                range_string(prev->second) +
                ". Each child provider configuration can be assigned only once.",
            kv.value.range());
      continue;
    }
    seen.emplace_back(key,
                      Range{kv.key.range().filename, kv.key.range().start, kv.value.range().end});
    if (out != nullptr)
      out->push_back({key, child->name_range, parent->name, parent->alias, parent->name_range});
  }
}

CallDecl decode_module(const Block& block, bool override, Diagnostics& diags) {
  CallDecl d;
  ModuleCall& mc = d.c;
  mc.name = block.labels[0];
  mc.decl_range = block.def_range;
  BodySchema schema{{{"source", true}, {"version"}, {"count"}, {"for_each"}, {"depends_on"},
                     {"providers"}},
                    {{"_", {}}, {"lifecycle", {}}, {"locals", {}}, {"provider", {"type"}}}};
  if (override) schema = for_overrides(std::move(schema));
  PartialContentResult c = block.body.partial_content(schema);
  append(diags, std::move(c.diagnostics));
  mc.config = c.remain;
  mc.body_open = block.body.missing_item_range();
  if (!valid_identifier(mc.name))
    error(diags, "Invalid module instance name", kBadIdentifierDetail, block.label_ranges[0]);
  const Attributes& at = c.content.attributes;
  if (const Attribute* a = at.find("version")) {
    decode_version_constraint(*a, diags);
    mc.has_version = true;
    d.set.insert("version");
  }
  if (const Attribute* a = at.find("source")) {
    d.set.insert("source");
    mc.source_range = a->expr.range();
    Diagnostics vd;
    bool ok = decode_string(*a, mc.source, vd) && !has_errors(vd);
    append(diags, std::move(vd));
    if (ok) check_module_source(mc.source, mc.has_version, mc.source_range, diags);
  }
  if (const Attribute* a = at.find("count")) {
    mc.count = raw(a->expr);
    d.set.insert("count");
  }
  if (const Attribute* a = at.find("for_each")) {
    if (mc.count) {
      error(diags, "Invalid combination of \"count\" and \"for_each\"",
            "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, only one "
            "should be used to be explicit about the number of resources to be created.",
            a->name_range);
    }
    mc.for_each = raw(a->expr);
    d.set.insert("for_each");
  }
  if (const Attribute* a = at.find("depends_on")) {
    mc.depends_on = decode_depends_on(*a, diags);
    d.set.insert("depends_on");
  }
  if (const Attribute* a = at.find("providers")) {
    decode_passed_providers(*a, diags, &mc.passed_providers);
    d.set.insert("providers");
  }
  const Block* escape = nullptr;
  for (const Block& b : c.content.blocks) {
    if (b.type == "_") {
      if (escape != nullptr) {
        error(diags, "Duplicate escaping block",
              "The special block type \"_\" can be used to force particular arguments to be "
              "interpreted as module input variables rather than as meta-arguments, but each "
              "module block can have only one such block. The first escaping block was at " +
                  range_string(escape->def_range) + ".",
              b.def_range);
        continue;
      }
      escape = &b;
      mc.config = merge_bodies({mc.config, b.body});
    } else {
      error(diags, "Reserved block type name in module block",
            "The block type name \"" + b.type +
                "\" is reserved for use by Terraform in a future version.",
            b.type_range);
    }
  }
  return d;
}

// The names Terraform uses for a resource mode in its diagnostics.
struct ModeWords {
  const char* keyword;     // "resource", "data", "ephemeral"
  const char* type_label;  // "Invalid resource type name"
  const char* name_label;  // "Invalid resource name"
};

ResourceDecl decode_resource(const Block& block, ResMode mode, bool override, bool in_check,
                             Diagnostics& diags) {
  ResourceDecl d;
  Resource& r = d.r;
  r.mode = mode;
  r.type = block.labels[0];
  r.name = block.labels[1];
  r.decl_range = block.def_range;
  BodySchema schema;
  const char* kw = mode == ResMode::Managed ? "resource" : mode == ResMode::Data ? "data"
                                                                                 : "ephemeral";
  if (mode == ResMode::Managed) {
    schema = {{{"count"}, {"for_each"}, {"provider"}, {"depends_on"}},
              {{"locals", {}}, {"lifecycle", {}}, {"connection", {}},
               {"provisioner", {"type"}}, {"_", {}}}};
  } else {
    schema = {{{"count"}, {"for_each"}, {"provider"}, {"depends_on"}},
              {{"locals", {}}, {"lifecycle", {}}, {"_", {}}}};
  }
  PartialContentResult c = block.body.partial_content(schema);
  append(diags, std::move(c.diagnostics));
  r.config = c.remain;
  const char* type_summary = mode == ResMode::Managed ? "Invalid resource type name"
                             : mode == ResMode::Data  ? "Invalid data source name"
                                                      : "Invalid ephemeral resource type";
  const char* name_summary = mode == ResMode::Managed ? "Invalid resource name"
                             : mode == ResMode::Data  ? "Invalid data resource name"
                                                      : "Invalid ephemeral resource name";
  if (!valid_identifier(r.type))
    error(diags, type_summary, kBadIdentifierDetail, block.label_ranges[0]);
  if (!valid_identifier(r.name))
    error(diags, name_summary, kBadIdentifierDetail, block.label_ranges[1]);
  const Attributes& at = c.content.attributes;
  // A check block's data block (nested) takes neither count nor for_each.
  bool nested = in_check && mode == ResMode::Data;
  for (const char* meta : {"count", "for_each"}) {
    const Attribute* a = at.find(meta);
    if (nested && a != nullptr) {
      error(diags, std::string("Invalid \"") + meta + "\" attribute",
            "The \"count\" and \"for_each\" meta-arguments are not supported within nested data "
            "blocks.",
            a->name_range);
    }
  }
  if (const Attribute* a = at.find("count"); a != nullptr && !nested) {
    r.count = raw(a->expr);
    d.has_count = true;
    d.set.insert("count");
  }
  if (const Attribute* a = at.find("for_each"); a != nullptr && !nested) {
    r.for_each = raw(a->expr);
    d.has_for_each = true;
    d.set.insert("for_each");
    if (r.count) {
      error(diags, "Invalid combination of \"count\" and \"for_each\"",
            "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, only one "
            "should be used to be explicit about the number of resources to be created.",
            a->name_range);
    }
  }
  if (const Attribute* a = at.find("provider")) {
    if (std::optional<ProviderRef> ref = decode_provider_ref(a->expr, "provider", diags)) {
      r.provider_name = ref->name;
      r.provider_alias = ref->alias;
    }
    d.set.insert("provider");
    r.has_provider = true;
  }
  if (const Attribute* a = at.find("depends_on")) {
    r.depends_on = decode_depends_on(*a, diags);
    d.set.insert("depends_on");
  }
  const Block* lifecycle = nullptr;
  const Block* connection = nullptr;
  const Block* escape = nullptr;
  bool any_destroy = false;
  for (const Block& b : c.content.blocks) {
    if (b.type == "lifecycle") {
      if (nested) {
        error(diags, "Invalid lifecycle block",
              "Nested data blocks do not support \"lifecycle\" blocks as the lifecycle is "
              "managed by the containing block.",
              b.def_range);
      }
      if (lifecycle != nullptr) {
        error(diags, "Duplicate lifecycle block",
              "This resource already has a lifecycle block at " +
                  range_string(lifecycle->def_range) + ".",
              b.def_range);
        continue;
      }
      lifecycle = &b;
      static const BodySchema lc_schema{{{"create_before_destroy"}, {"prevent_destroy"},
                                         {"ignore_changes"}, {"replace_triggered_by"}},
                                        {{"precondition", {}}, {"postcondition", {}}}};
      ContentResult lc = b.body.content(lc_schema);
      append(diags, std::move(lc.diagnostics));
      for (const Attribute& a : lc.content.attributes) {
        if (mode == ResMode::Managed) {
          if (a.name == "create_before_destroy" || a.name == "prevent_destroy") {
            bool ignored = false;
            decode_bool(a, ignored, diags);
          } else if (a.name == "ignore_changes" && expr_as_keyword(a.expr) != "all") {
            decode_ignore_changes(a, diags);
          } else if (a.name == "replace_triggered_by") {
            decode_replace_triggered_by(a.expr, diags);
            r.edges.push_back(raw(a.expr));
          }
          continue;
        }
        std::string what = mode == ResMode::Data ? "data" : "ephemeral";
        error(diags, "Invalid " + what + " resource lifecycle argument",
              "The lifecycle argument \"" + a.name +
                  "\" is defined only for managed resources (\"resource\" blocks), and is not "
                  "valid for " + what + " resources.",
              a.name_range);
      }
      for (const Block& cb : lc.content.blocks) {
        // validateSelfReferences: neither expression may refer to the
        // resource itself (one error an expression, on all of it).
        CheckRule cr = decode_check_rule(cb, override, diags);
        for (const ExprPtr& e : {cr.condition, cr.error_message})
          if (e) r.edges.push_back(e);
        (cb.type == "precondition" ? r.preconditions : r.postconditions).push_back(cr);
        for (const ExprPtr& e : {cr.condition, cr.error_message}) {
          if (!e) continue;
          for (const Traversal& t : e->expr.variables()) {
            std::string_view root = t.root_name();
            bool self = false;
            if (mode == ResMode::Managed && root == r.type && t.steps.size() > 1 &&
                t.steps[1].name == r.name)
              self = true;
            if (mode != ResMode::Managed && root == kw && t.steps.size() > 2 &&
                t.steps[1].name == r.type && t.steps[2].name == r.name)
              self = true;
            if (self) {
              error(diags, "Invalid reference in " + cb.type,
                    "Configuration for " + r.address() + " may not refer to itself.",
                    e->expr.range());
              break;
            }
          }
        }
      }
    } else if (b.type == "connection") {
      if (connection != nullptr) {
        error(diags, "Duplicate connection block",
              "This resource already has a connection block at " +
                  range_string(connection->def_range) + ".",
              b.def_range);
        continue;
      }
      connection = &b;
      add_body_edges(b.body, nullptr, r.edges);
      r.connection = b.body;
    } else if (b.type == "provisioner") {
      Provisioner p;
      std::optional<bool> destroy = decode_provisioner(b, diags, &r.edges, &p);
      any_destroy |= destroy.value_or(false);
      if (destroy) r.provisioners.push_back(std::move(p));
    } else if (b.type == "_") {
      if (escape != nullptr) {
        error(diags, "Duplicate escaping block",
              "The special block type \"_\" can be used to force particular arguments to be "
              "interpreted as resource-type-specific rather than as meta-arguments, but each " +
                  std::string(mode == ResMode::Managed ? "resource" : "data") +
                  " block can have only one such block. The first escaping block was at " +
                  range_string(escape->def_range) + ".",
              b.def_range);
        continue;
      }
      escape = &b;
      r.config = merge_bodies({r.config, b.body});
    } else {
      error(diags, std::string("Reserved block type name in ") + kw + " block",
            "The block type name \"" + b.type +
                "\" is reserved for use by Terraform in a future version.",
            b.type_range);
    }
  }
  // With a destroy-time provisioner, the resource's connection block may
  // only refer to the resource itself too.
  if (connection != nullptr && any_destroy) only_self_refs(connection->body, diags);
  return d;
}

// decodeProviderBlock; nullopt when its name is not a provider's local
// name (the error in [diags]).
std::optional<ProviderDecl> decode_provider(const Block& block, Diagnostics& diags,
                                            bool test_file = false) {
  ProviderDecl p;
  p.name = block.labels[0];
  p.decl_range = block.def_range;
  p.name_range = block.label_ranges[0];
  static const BodySchema schema{{{"alias"}, {"version"}, {"count"}, {"depends_on"},
                                  {"for_each"}, {"source"}},
                                 {{"_", {}}, {"lifecycle", {}}, {"locals", {}}}};
  PartialContentResult c = block.body.partial_content(schema);
  append(diags, std::move(c.diagnostics));
  p.config = c.remain;
  if (!check_provider_name(p.name, block.def_range, diags)) return std::nullopt;
  const Attributes& at = c.content.attributes;
  if (const Attribute* a = at.find("alias")) {
    decode_string(*a, p.alias, diags);
    if (!valid_identifier(p.alias))
      error(diags, "Invalid provider configuration alias",
            std::string("An alias must be a valid name. ") + kBadIdentifierDetail);
  }
  p.has_version = at.find("version") != nullptr;
  if (const Attribute* a = at.find("version"); a != nullptr && test_file) {
    error(diags, "Version constraints are not allowed in test files",
          "Version constraints inside provider configuration blocks are not allowed in test "
          "files. To silence this error, move the provider version constraint into the "
          "required_providers block of the configuration that uses this provider.",
          a->expr.range());
  } else if (a != nullptr) {
    Diagnostic w;
    w.severity = Severity::Warning;
    w.summary = "Version constraints inside provider configuration blocks are deprecated";
    w.detail =
        "Terraform 0.13 and earlier allowed provider version constraints inside the provider "
        "configuration block, but that is now deprecated and will be removed in a future version "
        "of Terraform. To silence this warning, move the provider version constraint into the "
        "required_providers block.";
    w.subject = a->expr.range();
    diags.push_back(std::move(w));
  }
  for (const char* n : {"count", "depends_on", "for_each", "source"}) {
    if (const Attribute* a = at.find(n)) {
      error(diags, "Reserved argument name in provider block",
            std::string("The provider argument name \"") + n +
                "\" is reserved for use by Terraform in a future version.",
            a->name_range);
    }
  }
  for (const Block& b : c.content.blocks) {
    if (b.type == "_") {
      p.config = merge_bodies({p.config, b.body});
      continue;
    }
    error(diags, "Reserved block type name in provider block",
          "The block type name \"" + b.type +
              "\" is reserved for use by Terraform in a future version.",
          b.type_range);
  }
  return p;
}

}  // namespace

std::optional<std::string> instance_key(const Value& k, std::string& err) {
  if (k.type() == Type::string() && k.is_known() && !k.is_null())
    return "[" + uni::go_quote(k.as_string()) + "]";
  if (k.type() == Type::number() && k.is_known() && !k.is_null()) {
    const Number& n = k.as_number();
    std::optional<int64_t> i = n.is_integer() ? n.to_int64() : std::nullopt;
    if (i) return "[" + std::to_string(*i) + "]";
    err = "value must be a whole number, between -9223372036854775808 and 9223372036854775807";
    return std::nullopt;
  }
  err = "either a string or an integer is required";
  return std::nullopt;
}

std::optional<TargetAddr> parse_target(const Traversal& t, Diagnostics& diags) {
  std::optional<Address> a = parse_address(t, true, diags);
  if (!a) return std::nullopt;
  TargetAddr out;
  out.resource = a->resource;
  out.text = a->full;
  const TraversalStep& last = t.steps.back();
  if (a->resource && last.kind == TraversalStep::Kind::Index)
    out.key_kind = last.key.type() == Type::string() ? 2 : 1;
  return out;
}

ProviderAddr implied_provider(const std::string& type) {
  if (type == "terraform") return {"terraform.io", "builtin", "terraform"};
  return {"registry.terraform.io", "hashicorp", type};
}

namespace {

// decodeProviderMetaBlock: a static map of attributes (each evaluated
// without a context) under a normalized provider local name; nullopt when
// the block is not kept.
std::optional<std::pair<std::string, Range>> decode_provider_meta(const Block& block,
                                                                  Diagnostics& diags) {
  AttributesResult r = block.body.just_attributes();
  bool failed = r.has_errors();
  append(diags, std::move(r.diagnostics));
  if (failed) return std::nullopt;
  for (const Attribute& a : r.attributes) append(diags, a.expr.value(nullptr).diagnostics);
  if (!check_provider_name(block.labels[0], block.def_range, diags)) return std::nullopt;
  return std::make_pair(block.labels[0], block.def_range);
}

// decodeRequiredProvidersBlock: each attribute a provider requirement; the
// block is not recorded when its attributes cannot be read, and a provider
// only when no error came before it in the block.
std::optional<RequiredProvidersDecl> decode_required_providers(const Block& block,
                                                               Diagnostics& diags) {
  AttributesResult r = block.body.just_attributes();
  bool failed = r.has_errors();
  append(diags, std::move(r.diagnostics));
  if (failed) return std::nullopt;
  RequiredProvidersDecl out;
  out.decl_range = block.def_range;
  size_t first = diags.size();
  for (const Attribute& a : r.attributes) {
    // A lone version string (the legacy form); its value's errors are not
    // reported here.
    EvalResult v = a.expr.value(nullptr);
    if (!v.has_errors() && v.value.type()->is_primitive()) {
      decode_version_constraint(a, diags);
      std::string err;
      if (std::optional<std::string> type = parse_provider_part(a.name, err))
        out.entries[a.name] = {implied_provider(*type), a.expr.range(), {}};
      else
        error(diags, "Invalid provider name", err, a.expr.range());
      continue;
    }
    if (!check_provider_name(a.name, a.expr.range(), diags)) continue;
    std::optional<ProviderAddr> source;
    std::vector<std::string> aliases;
    ExpressionMapResult m = expr_map(a.expr);
    if (m.has_errors()) {
      error(diags, "Invalid required_providers object",
            "required_providers entries must be strings or objects.", a.expr.range());
      continue;
    }
    for (const ExpressionPair& kv : m.pairs) {
      EvalResult k = kv.key.value(nullptr);
      if (k.has_errors()) {
        append(diags, std::move(k.diagnostics));
        continue;
      }
      if (k.value.type() != Type::string() || !k.value.is_known() || k.value.is_null()) {
        error(diags, "Invalid Attribute",
              "Invalid attribute value for provider requirement: " + go_string(k.value),
              kv.key.range());
        continue;
      }
      std::string key(k.value.as_string());
      if (key == "version") {
        EvalResult vv = kv.value.value(nullptr);
        if (vv.has_errors() || vv.value.type() != Type::string() || vv.value.is_null()) {
          error(diags, "Invalid version constraint", "Version must be specified as a string.",
                kv.value.range());
        } else if (vv.value.is_known() && !valid_version_constraint(vv.value.as_string())) {
          error(diags, "Invalid version constraint",
                "This string does not use correct version constraint syntax.", kv.value.range());
        }
      } else if (key == "source") {
        EvalResult vv = kv.value.value(nullptr);
        if (vv.has_errors() || vv.value.type() != Type::string()) {
          error(diags, "Invalid source", "Source must be specified as a string.", kv.value.range());
        } else if (vv.value.is_known() && !vv.value.is_null()) {
          std::string summary, detail;
          source = parse_provider_source(vv.value.as_string(), summary, detail);
          if (!source) error(diags, summary, detail, kv.value.range());
        }
      } else if (key == "configuration_aliases") {
        ExpressionListResult l = expr_list(kv.value);
        if (l.has_errors()) {
          append(diags, std::move(l.diagnostics));
          continue;
        }
        for (const Expression& e : l.items) {
          TraversalResult t = abs_traversal_for_expr(e);
          if (t.has_errors()) {
            append(diags, std::move(t.diagnostics));
            continue;
          }
          // ParseProviderConfigCompact: a name, then an alias.
          const std::vector<TraversalStep>& st = t.traversal.steps;
          if (st.size() > 1 && st[1].kind != TraversalStep::Kind::Attr) {
            error(diags, "Invalid configuration_aliases value",
                  "Configuration aliases can only contain references to local provider "
                  "configuration names in the format of provider.alias",
                  kv.value.range());
            continue;
          }
          if (t.traversal.root_name() != a.name) {
            error(diags, "Invalid configuration_aliases value",
                  "Configuration aliases must be prefixed with the provider name. Expected " +
                      uni::go_quote(a.name) + ", but found " +
                      uni::go_quote(t.traversal.root_name()) + ".",
                  kv.value.range());
          } else {
            aliases.push_back(st.size() > 1 ? a.name + "." + st[1].name : a.name);
          }
        }
      } else {
        error(diags, "Invalid required_providers object",
              "required_providers objects can only contain \"version\", \"source\" and "
              "\"configuration_aliases\" attributes. To configure a provider, use a \"provider\" "
              "block.",
              kv.key.range());
        break;
      }
    }
    if (std::any_of(diags.begin() + long(first), diags.end(),
                    [](const Diagnostic& d) { return d.severity == Severity::Error; }))
      continue;
    out.entries[a.name] = {source ? *source : implied_provider(a.name), a.expr.range(),
                           std::move(aliases)};
  }
  return out;
}

// The core version constraints of [body]'s terraform blocks
// (sniffCoreVersionRequirements), into [out].
void sniff_core_version(const Body& body, FileDecls& out, Diagnostics& diags) {
  static const BodySchema root{{}, {{"terraform", {}}}};
  static const BodySchema inner{{{"required_version"}}, {}};
  PartialContentResult c = body.partial_content(root);
  append(diags, std::move(c.diagnostics));
  for (const Block& b : c.content.blocks) {
    PartialContentResult ic = b.body.partial_content(inner);
    append(diags, std::move(ic.diagnostics));
    const Attribute* a = ic.content.attributes.find("required_version");
    if (a == nullptr) continue;
    if (std::optional<std::string> text = decode_version_constraint(*a, diags))
      out.core_versions.emplace_back(std::move(*text), a->range);
  }
}

// The experiments/language sniffing of one file's terraform blocks.
void sniff_experiments(const Body& body, Diagnostics& diags) {
  static const BodySchema root{{}, {{"terraform", {}}}};
  static const BodySchema inner{{{"experiments"}, {"language"}}, {}};
  PartialContentResult c = body.partial_content(root);
  for (const Block& b : c.content.blocks) {
    PartialContentResult ic = b.body.partial_content(inner);
    if (const Attribute* a = ic.content.attributes.find("language")) {
      std::string kw = expr_as_keyword(a->expr);
      if (kw.empty()) {
        error(diags, "Invalid language edition",
              "The language argument expects a bare language edition keyword. Terraform 1.11.4 "
              "supports only language edition TF2021, which is the default.",
              a->expr.range());
      } else if (kw != "TF2021") {
        error(diags, "Unsupported language edition",
              "Terraform v1.11.4 only supports language edition TF2021. This module requires a " +
                  std::string(kw < "TF2021" ? "different" : "newer") + " version of Terraform CLI.",
              a->expr.range());
      }
    }
    if (const Attribute* a = ic.content.attributes.find("experiments")) {
      error(diags, "Module uses experimental features",
            "Experimental features are intended only for gathering early feedback on new language "
            "designs, and so are available only in alpha releases of Terraform.",
            a->name_range);
    }
  }
}

CheckDecl decode_check(const Block& block, bool override, FileDecls& out, Diagnostics& diags) {
  CheckDecl c;
  c.name = block.labels[0];
  c.decl_range = block.def_range;
  if (override) {
    error(diags, "Can't override check blocks", "Override files cannot override check blocks.",
          block.def_range);
    return c;
  }
  static const BodySchema schema{{}, {{"data", {"type", "name"}}, {"assert", {}}}};
  ContentResult cr = block.body.content(schema);
  append(diags, std::move(cr.diagnostics));
  if (!valid_identifier(c.name))
    error(diags, "Invalid check block name", kBadIdentifierDetail, block.label_ranges[0]);
  const Block* data = nullptr;
  for (const Block& b : cr.content.blocks) {
    if (b.type == "data") {
      if (data != nullptr) {
        error(diags, "Multiple data resource blocks",
              "This check block already has a data resource defined at " +
                  range_string(data->def_range) + ".",
              b.def_range);
        continue;
      }
      // Only a data block decoded without errors counts (as the first, and
      // as the check's), and only an assert block without errors.
      Diagnostics dd;
      ResourceDecl d = decode_resource(b, ResMode::Data, override, true, dd);
      bool failed = has_errors(dd);
      append(diags, std::move(dd));
      if (failed) continue;
      data = &b;
      d.r.check = c.name;
      out.data.push_back(std::move(d));
    } else {
      Diagnostics ad;
      CheckRule rule = decode_check_rule(b, override, ad);
      bool failed = has_errors(ad);
      append(diags, std::move(ad));
      if (!failed) c.asserts.push_back(std::move(rule));
    }
  }
  if (c.asserts.empty()) {
    error(diags, "Zero assert blocks", "Check blocks must have at least one assert block.",
          block.def_range);
  }
  return c;
}

}  // namespace

std::string path_string(const Path& path) {
  std::string out;
  for (const PathStep& st : path) {
    if (st.kind == PathStep::Kind::Attr) {
      out += "." + st.name;
      continue;
    }
    out += "[";
    const Value& k = st.key;
    if (k.is_null()) out += "null";
    else if (!k.is_known()) out += "(not yet known)";
    else if (k.type() == Type::number()) out += num::big_float_text(k.as_number(), 'g', -1);
    else if (k.type() == Type::string()) out += uni::go_quote(k.as_string());
    else out += "...";
    out += "]";
  }
  return out;
}

bool decode_value(const Expression& e, const Type* want, Value& out, Diagnostics& diags) {
  EvalResult r = e.value(nullptr);
  append(diags, std::move(r.diagnostics));
  ConvertResult c = convert(r.value, want);
  // gocty.FromCtyValue into a Go bool or string refuses a null and a value
  // not known.
  std::string problem = !c.ok()                 ? c.error().message
                        : c.value().is_null()   ? std::string("null value is not allowed")
                        : !c.value().is_known() ? std::string("value must be known")
                                                : std::string();
  if (!problem.empty()) {
    error(diags, "Unsuitable value type", "Unsuitable value: " + problem, e.start_range(),
          e.range());
    return false;
  }
  out = c.take();
  return true;
}

CheckRule decode_check_rule(const Block& block, bool override, Diagnostics& diags) {
  CheckRule cr;
  cr.decl_range = block.def_range;
  if (override) {
    error(diags, "Can't override " + block.type + " blocks",
          "Override files cannot override \"" + block.type + "\" blocks.", block.def_range);
    return cr;
  }
  static const BodySchema schema{{{"condition", true}, {"error_message", true}}, {}};
  ContentResult c = block.body.content(schema);
  append(diags, std::move(c.diagnostics));
  if (const Attribute* a = c.content.attributes.find("condition")) {
    cr.condition = raw(a->expr);
    if (a->expr.variables().empty()) {
      error(diags, "Invalid " + block.type + " expression",
            "The condition expression must refer to at least one object from elsewhere in the "
            "configuration, or else its result would not be checking anything.",
            a->expr.range());
    }
  }
  if (const Attribute* a = c.content.attributes.find("error_message"))
    cr.error_message = raw(a->expr);
  return cr;
}

void decode_file(const Body& body, bool override, FileDecls& out, Diagnostics& diags) {
  sniff_core_version(body, out, diags);
  sniff_experiments(body, diags);
  static const BodySchema schema{
      {},
      {{"terraform", {}},
       {"required_providers", {}},
       {"provider", {"name"}},
       {"variable", {"name"}},
       {"locals", {}},
       {"output", {"name"}},
       {"module", {"name"}},
       {"resource", {"type", "name"}},
       {"data", {"type", "name"}},
       {"ephemeral", {"type", "name"}},
       {"moved", {}},
       {"removed", {}},
       {"import", {}},
       {"check", {"name"}}}};
  ContentResult c = body.content(schema);
  append(diags, std::move(c.diagnostics));
  for (const Block& b : c.content.blocks) {
    if (b.type == "terraform") {
      static const BodySchema tf{{{"required_version"}, {"experiments"}, {"language"}},
                                 {{"backend", {"type"}},
                                  {"cloud", {}},
                                  {"required_providers", {}},
                                  {"provider_meta", {"provider"}}}};
      ContentResult tc = b.body.content(tf);
      append(diags, std::move(tc.diagnostics));
      for (const Block& ib : tc.content.blocks) {
        if (ib.type == "backend") {
          out.backends.push_back(ib.def_range);
        } else if (ib.type == "cloud") {
          out.clouds.push_back(ib.def_range);
        } else if (ib.type == "provider_meta") {
          if (auto pm = decode_provider_meta(ib, diags)) out.provider_metas.push_back(*pm);
        } else if (ib.type == "required_providers") {
          if (std::optional<RequiredProvidersDecl> rp = decode_required_providers(ib, diags))
            out.required_providers.push_back(std::move(*rp));
        }
      }
    } else if (b.type == "required_providers") {
      error(diags, "Invalid required_providers block",
            "A \"required_providers\" block must be nested inside a \"terraform\" block.",
            b.type_range);
    } else if (b.type == "provider") {
      if (std::optional<ProviderDecl> p = decode_provider(b, diags))
        out.providers.push_back(std::move(*p));
    } else if (b.type == "variable") {
      out.variables.push_back(decode_variable(b, override, diags));
    } else if (b.type == "locals") {
      decode_locals(b, out.locals, diags);
    } else if (b.type == "output") {
      out.outputs.push_back(decode_output(b, override, diags));
    } else if (b.type == "module") {
      out.calls.push_back(decode_module(b, override, diags));
    } else if (b.type == "resource") {
      out.managed.push_back(decode_resource(b, ResMode::Managed, override, false, diags));
    } else if (b.type == "data") {
      out.data.push_back(decode_resource(b, ResMode::Data, override, false, diags));
    } else if (b.type == "ephemeral") {
      out.ephemeral.push_back(decode_resource(b, ResMode::Ephemeral, override, false, diags));
    } else if (b.type == "moved") {
      static const BodySchema ms{{{"from", true}, {"to", true}}, {}};
      ContentResult mc = b.body.content(ms);
      const Attribute* from = mc.content.attributes.find("from");
      const Attribute* to = mc.content.attributes.find("to");
      // decodeMovedBlock: each endpoint an address (addrs.ParseMoveEndpoint),
      // both resources or both modules.
      Diagnostics md = std::move(mc.diagnostics);
      std::optional<Address> ends[2];
      const Attribute* attrs[2] = {from, to};
      for (int k = 0; k < 2; ++k) {
        if (attrs[k] == nullptr) continue;
        TraversalResult t = abs_traversal_for_expr(attrs[k]->expr);
        bool failed = has_errors(t.diagnostics);
        append(md, std::move(t.diagnostics));
        if (!failed) ends[k] = parse_address(t.traversal, true, md);
      }
      if (!has_errors(md) && ends[0] && ends[1] && ends[0]->resource != ends[1]->resource) {
        error(md, "Invalid \"moved\" addresses",
              "The \"from\" and \"to\" addresses must either both refer to resources or both "
              "refer to modules.",
              b.def_range);
      }
      append(diags, std::move(md));
      out.moved.push_back(b.def_range);
    } else if (b.type == "removed") {
      static const BodySchema rs{{{"from", true}},
                                 {{"lifecycle", {}}, {"connection", {}}, {"provisioner", {"type"}}}};
      ContentResult rc = b.body.content(rs);
      append(diags, std::move(rc.diagnostics));
      // decodeRemovedBlock: provisioners and a connection only for a
      // managed resource.
      bool managed = false;
      if (const Attribute* from = rc.content.attributes.find("from")) {
        TraversalResult t = abs_traversal_for_expr(from->expr);
        bool failed = has_errors(t.diagnostics);
        append(diags, std::move(t.diagnostics));
        if (!failed) managed = parse_remove_target(t.traversal, diags).value_or(false);
      }
      const Block* connection = nullptr;
      for (const Block& pb : rc.content.blocks) {
        if (pb.type == "lifecycle") {
          static const BodySchema ls{{{"destroy"}}, {}};
          ContentResult lc = pb.body.content(ls);
          append(diags, std::move(lc.diagnostics));
          if (const Attribute* d = lc.content.attributes.find("destroy")) {
            bool ignored = true;
            decode_bool(*d, ignored, diags);
          }
        } else if (pb.type == "connection") {
          if (!managed) {
            error(diags, "Invalid connection block",
                  "Provisioner connection configuration is valid only when a removed block "
                  "targets a managed resource.",
                  pb.def_range);
            continue;
          }
          if (connection != nullptr) {
            error(diags, "Duplicate connection block",
                  "This \"removed\" block already has a connection block at " +
                      range_string(connection->def_range) + ".",
                  pb.def_range);
            continue;
          }
          connection = &pb;
        } else if (pb.type == "provisioner") {
          if (!managed) {
            error(diags, "Invalid provisioner block",
                  "Provisioners are valid only when a removed block targets a managed resource.",
                  pb.def_range);
            continue;
          }
          std::optional<bool> destroy = decode_provisioner(pb, diags, nullptr);
          if (destroy && !*destroy) {
            error(diags, "Invalid provisioner block",
                  "Only destroy-time provisioners are valid in \"removed\" blocks. To declare a "
                  "destroy-time provisioner, use:\n    when = destroy",
                  pb.def_range);
          }
        }
      }
    } else if (b.type == "import") {
      static const BodySchema is{{{"provider"}, {"for_each"}, {"id", true}, {"to", true}}, {}};
      ContentResult ic = b.body.content(is);
      ImportDecl imp;
      imp.decl_range = b.def_range;
      decode_import(ic, imp, ic.diagnostics);
      out.imports.push_back(std::move(imp));
      append(diags, std::move(ic.diagnostics));
    } else if (b.type == "check") {
      out.checks.push_back(decode_check(b, override, out, diags));
    }
  }
}

// --- go-version constraints ------------------------------------------------------------

namespace {

// One part of a constraint: operator and version numbers.
struct ConstraintPart {
  std::string_view op;
  std::vector<int64_t> segments;
  bool prerelease = false;
};

// RE2's \s.
bool constraint_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}
bool constraint_digit(char c) { return c >= '0' && c <= '9'; }
// [0-9A-Za-z\-~]: the characters of pre-release and metadata identifiers.
bool constraint_ident(char c) {
  return constraint_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
         c == '~';
}

// Reads one comma-separated part of a constraint as go-version's
// constraint pattern (below) matches it whole, or nullopt:
//   \s*(=|!=|>=|<=|>|<|~>)?\s*v?([0-9]+(\.[0-9]+)*?)
//   (-([0-9]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)|(-?([A-Za-z\-~]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)))?
//   (\+([0-9A-Za-z\-~]+(\.[0-9A-Za-z\-~]+)*))?\s*
// Nothing in it backtracks usefully: what may follow the version numbers
// starts with none of [0-9.], and the two pre-release forms together are
// an identifier not starting with a digit, then dotted identifiers. A
// number go-version cannot read into an int64 makes the constraint invalid,
// as there.
std::optional<ConstraintPart> parse_constraint_part(std::string_view s) {
  size_t i = 0, n = s.size();
  auto skip_space = [&] {
    while (i < n && constraint_space(s[i])) ++i;
  };
  // Identifiers and their dotted followers: [ident]+(\.[ident]+)*.
  auto skip_dotted = [&] {
    while (i < n && constraint_ident(s[i])) ++i;
    while (i + 1 < n && s[i] == '.' && constraint_ident(s[i + 1])) {
      i += 2;
      while (i < n && constraint_ident(s[i])) ++i;
    }
  };
  ConstraintPart p;
  skip_space();
  for (std::string_view op : {"!=", ">=", "<=", "~>", "=", ">", "<"}) {
    if (s.substr(i).starts_with(op)) {
      p.op = op;
      i += op.size();
      break;
    }
  }
  skip_space();
  if (i < n && s[i] == 'v') ++i;
  while (true) {
    if (i >= n || !constraint_digit(s[i])) return std::nullopt;
    int64_t v = 0;
    for (; i < n && constraint_digit(s[i]); ++i) {
      int d = s[i] - '0';
      if (v > (INT64_MAX - d) / 10) return std::nullopt;
      v = v * 10 + d;
    }
    p.segments.push_back(v);
    if (i + 1 < n && s[i] == '.' && constraint_digit(s[i + 1])) {
      ++i;
      continue;
    }
    break;
  }
  if (i < n && constraint_ident(s[i])) {  // not a digit: those were read above
    p.prerelease = true;
    skip_dotted();
  }
  if (i + 1 < n && s[i] == '+' && constraint_ident(s[i + 1])) {
    ++i;
    skip_dotted();
  }
  skip_space();
  if (i != n) return std::nullopt;
  return p;
}

std::optional<std::vector<ConstraintPart>> parse_constraint(std::string_view s) {
  std::vector<ConstraintPart> out;
  while (true) {
    size_t comma = s.find(',');
    std::optional<ConstraintPart> p = parse_constraint_part(s.substr(0, comma));
    if (!p) return std::nullopt;
    out.push_back(std::move(*p));
    if (comma == std::string_view::npos) break;
    s.remove_prefix(comma + 1);
  }
  return out;
}

}  // namespace

bool valid_version_constraint(std::string_view s) { return parse_constraint(s).has_value(); }

namespace {

bool ascii_alnum(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool ascii_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

}  // namespace

bool registry_name(std::string_view s) {
  if (s.empty() || s.size() > 64 || !ascii_alnum(s.front()) || !ascii_alnum(s.back())) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return ascii_alnum(c) || c == '-' || c == '_'; });
}

bool registry_system(std::string_view s) {
  return !s.empty() && s.size() <= 64 && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z');
  });
}

bool forced_getter(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && ascii_alnum(s[i])) ++i;
  return i > 0 && s.substr(i, 2) == "::" && s.size() > i + 2 &&
         s.find('\n', i + 2) == std::string_view::npos;
}

bool url_with_scheme(std::string_view s) {
  if (s.empty() || !ascii_letter(s[0])) return false;
  size_t i = 1;
  while (i < s.size() && (ascii_alnum(s[i]) || s[i] == '+' || s[i] == '.' || s[i] == '-')) ++i;
  return s.substr(i, 3) == "://" && s.find('\n', i + 3) == std::string_view::npos;
}

bool version_satisfies(std::string_view s, int major, int minor, int patch) {
  auto parts = parse_constraint(s);
  if (!parts) return false;
  int64_t have[3] = {major, minor, patch};
  for (const ConstraintPart& p : *parts) {
    int64_t want[3] = {0, 0, 0};
    for (size_t i = 0; i < 3 && i < p.segments.size(); ++i) want[i] = p.segments[i];
    int cmp = 0;
    for (int i = 0; i < 3 && cmp == 0; ++i) cmp = have[i] < want[i] ? -1 : have[i] > want[i];
    bool ok = true;
    if (p.op.empty() || p.op == "=") ok = cmp == 0;
    else if (p.op == "!=") ok = cmp != 0;
    else if (p.op == ">") ok = cmp > 0;
    else if (p.op == "<") ok = cmp < 0;
    else if (p.op == ">=") ok = cmp >= 0;
    else if (p.op == "<=") ok = cmp <= 0;
    else if (p.op == "~>") {
      // Pessimistic: >= want, and the segments before the last given equal.
      ok = cmp >= 0;
      size_t fixed = p.segments.size() > 1 ? p.segments.size() - 1 : 1;
      for (size_t i = 0; i < fixed && i < 3; ++i) ok = ok && have[i] == want[i];
    }
    if (!ok) return false;
  }
  return true;
}

// --- test files (internal/configs/test_file.go and mock_provider.go) --------------

namespace {

// useForPlan: the keyword of an override_during attribute among [at]
// ("plan" or "apply"), else [def] (with an error for another value).
bool use_for_plan(const Attributes& at, bool def, Diagnostics& diags) {
  const Attribute* a = at.find("override_during");
  if (a == nullptr) return def;
  std::string kw = expr_as_keyword(a->expr);
  if (kw == "plan") return true;
  if (kw == "apply") return false;
  error(diags, "Invalid override_during value",
        "The override_during attribute must be a value of plan or apply.", a->range);
  return def;
}

// decodeOverrideBlock and the checks of its callers: an override_resource,
// override_data or override_module block [b]; its target's address as the
// map of overrides keys it, or nullopt when the block is not kept.
std::optional<TestTarget> decode_override(const Block& b, bool use_for_plan_default,
                                          Diagnostics& diags) {
  std::string values = b.type == "override_module" ? "outputs" : "values";
  BodySchema schema{{{"target"}, {"override_during"}, {values}}, {}};
  ContentResult c = b.body.content(schema);
  append(diags, std::move(c.diagnostics));
  const Attributes& at = c.content.attributes;
  std::optional<Address> target;
  Range target_range;
  if (const Attribute* t = at.find("target")) {
    target_range = t->range;
    TraversalResult tr = abs_traversal_for_expr(t->expr);
    append(diags, std::move(tr.diagnostics));
    if (!tr.traversal.empty()) target = parse_address(tr.traversal, true, diags);
  } else {
    error(diags, "Missing target attribute", b.type + " blocks must specify a target address.",
          b.def_range);
  }
  bool object = true;
  Range values_range;
  if (const Attribute* v = at.find(values)) {
    values_range = v->range;
    EvalResult r = v->expr.value(nullptr);
    object = r.value.type()->is_object();
    append(diags, std::move(r.diagnostics));
  }
  use_for_plan(at, use_for_plan_default, diags);
  if (!object) {
    Diagnostic d;
    d.severity = Severity::Error;
    d.summary = "Invalid " + values + " attribute";
    d.detail = b.type + " blocks must specify " + (values == "outputs" ? "an " : "a ") + values +
               " attribute that is an object.";
    if (!values_range.filename.empty()) d.subject = values_range;
    diags.push_back(std::move(d));
  }
  if (!target) return std::nullopt;
  bool want_module = b.type == "override_module", want_data = b.type == "override_data";
  bool data = target->resource && target->mode == ResMode::Data;
  bool fits =
      want_module ? !target->resource : target->resource && (want_data ? data : target->managed);
  if (!fits) {
    error(diags, "Invalid override target",
          std::string("You can only target ") +
              (want_module ? "modules"
               : want_data ? "data sources"
                           : "resources") +
              " from " + b.type + " blocks, not " + target->full + ".",
          target_range);
    return std::nullopt;
  }
  TestTarget out;
  out.modules = target->modules;
  out.resource = target->resource;
  out.mode = target->mode;
  out.type = target->type;
  out.name = target->name;
  out.text = target->full;
  out.range = target_range;
  return out;
}

// The override blocks of one scope, for "Duplicate override_* block": each
// kept with its block's range.
struct Overrides {
  std::vector<std::pair<TestTarget, Range>> seen;
  // Decodes [b]; true when it is kept.
  bool add(const Block& b, bool use_for_plan_default, Diagnostics& diags) {
    std::optional<TestTarget> target = decode_override(b, use_for_plan_default, diags);
    if (!target) return false;
    for (const auto& [t, r] : seen) {
      if (t.text != target->text) continue;
      error(diags, "Duplicate " + b.type + " block",
            "An " + b.type + " block targeting " + target->text + " has already been defined at " +
                range_string(r) + ".",
            b.def_range);
      return false;
    }
    seen.emplace_back(std::move(*target), b.def_range);
    return true;
  }
  std::vector<TestTarget> targets() const {
    std::vector<TestTarget> out;
    for (const auto& [t, r] : seen) out.push_back(t);
    return out;
  }
};

// A `variables` block of a test file or run block ([scope]), whose first
// one [first] points to: its attributes, each an expression read later; a
// second one is an error.
void decode_test_variables(const Block& b, const Range*& first, const char* scope,
                           Diagnostics& diags) {
  if (first != nullptr) {
    error(diags, "Multiple \"variables\" blocks",
          std::string("This ") + scope + " already has a variables block defined at " +
              range_string(*first) + ".",
          b.def_range);
    return;
  }
  first = &b.def_range;
  AttributesResult r = b.body.just_attributes();
  append(diags, std::move(r.diagnostics));
}

// decodeTestRunModuleBlock: the module a run block tests instead of the
// configuration under test.
void decode_run_module(const Block& b, Diagnostics& diags) {
  static const BodySchema schema{{{"source"}, {"version"}}, {}};
  ContentResult c = b.body.content(schema);
  append(diags, std::move(c.diagnostics));
  const Attributes& at = c.content.attributes;
  bool have_version = false;
  if (const Attribute* v = at.find("version")) {
    decode_version_constraint(*v, diags);
    have_version = true;
  }
  const Attribute* src = at.find("source");
  if (src == nullptr) {
    error(diags, "Missing \"source\" attribute for module block",
          "You must specify a source attribute when executing alternate modules during test "
          "executions.",
          b.def_range);
    return;
  }
  std::string raw;
  Value v;
  if (!decode_value(src->expr, Type::string(), v, diags)) return;
  raw = std::string(v.as_string());
  if (check_module_source(raw, have_version, src->range, diags))
    error(diags, "Invalid module source address",
          "Only local or registry module sources are currently supported from within test run "
          "blocks.",
          src->range);
}

// decodeTestRunOptionsBlock.
void decode_run_options(const Block& b, Diagnostics& diags) {
  static const BodySchema schema{{{"mode"}, {"refresh"}, {"replace"}, {"target"}}, {}};
  ContentResult c = b.body.content(schema);
  append(diags, std::move(c.diagnostics));
  const Attributes& at = c.content.attributes;
  bool refresh_only = false;
  if (const Attribute* m = at.find("mode")) {
    std::string kw = expr_as_keyword(m->expr);
    if (kw == "refresh-only") {
      refresh_only = true;
    } else if (kw != "normal") {
      error(diags, "Invalid \"mode\" keyword",
            "The \"mode\" argument requires one of the following keywords without quotes: normal "
            "or refresh-only",
            m->expr.range());
    }
  }
  bool refresh = true;
  if (const Attribute* r = at.find("refresh")) {
    Value v;
    if (decode_value(r->expr, Type::boolean(), v, diags)) refresh = v.as_bool();
  }
  for (const char* n : {"replace", "target"})
    if (const Attribute* a = at.find(n)) decode_depends_on(*a, diags);
  if (!refresh && refresh_only)
    error(diags, "Incompatible plan options",
          "The \"refresh\" option cannot be set to false when running a test in \"refresh-only\" "
          "mode.",
          at.find("refresh")->range);
}

// decodeTestRunBlock into [run]; false when it had errors (the run is not
// kept).
bool decode_run(const Block& b, TestRun& run, Diagnostics& diags) {
  static const BodySchema schema{{{"command"}, {"providers"}, {"expect_failures"}, {"state_key"}},
                                 {{"plan_options", {}},
                                  {"assert", {}},
                                  {"variables", {}},
                                  {"module", {}},
                                  {"override_resource", {}},
                                  {"override_data", {}},
                                  {"override_module", {}}}};
  Diagnostics d;
  ContentResult c = b.body.content(schema);
  append(d, std::move(c.diagnostics));
  if (!valid_identifier(b.labels[0]))
    error(d, "Invalid run block name", kBadIdentifierDetail, b.label_ranges[0]);
  const Range* options = nullptr;
  const Range* variables = nullptr;
  const Range* module = nullptr;
  Overrides overrides;
  for (const Block& ib : c.content.blocks) {
    if (ib.type == "assert") {
      decode_check_rule(ib, false, d);
    } else if (ib.type == "plan_options") {
      if (options != nullptr) {
        error(d, "Multiple \"plan_options\" blocks",
              "This run block already has a plan_options block defined at " +
                  range_string(*options) + ".",
              ib.def_range);
        continue;
      }
      Diagnostics od;
      decode_run_options(ib, od);
      if (!has_errors(od)) options = &ib.def_range;
      append(d, std::move(od));
    } else if (ib.type == "variables") {
      decode_test_variables(ib, variables, "run block", d);
    } else if (ib.type == "module") {
      if (module != nullptr)
        error(d, "Multiple \"module\" blocks",
              "This run block already has a module block defined at " + range_string(*module) + ".",
              ib.def_range);
      Diagnostics md;
      decode_run_module(ib, md);
      if (!has_errors(md)) module = &ib.def_range;
      append(d, std::move(md));
      run.other_module = true;
    } else {
      overrides.add(ib, false, d);
    }
  }
  const Attributes& at = c.content.attributes;
  if (const Attribute* a = at.find("command")) {
    std::string kw = expr_as_keyword(a->expr);
    if (kw != "apply" && kw != "plan")
      error(d, "Invalid \"command\" keyword",
            "The \"command\" argument requires one of the following keywords without quotes: "
            "apply or plan.",
            a->expr.range());
  }
  if (const Attribute* a = at.find("providers")) decode_passed_providers(*a, d);
  if (const Attribute* a = at.find("expect_failures"))
    run.expect_failures = decode_depends_on(*a, d);
  run.overrides = overrides.targets();
  if (const Attribute* a = at.find("state_key")) {
    Value v;
    decode_value(a->expr, Type::string(), v, d);
  }
  bool failed = has_errors(d);
  append(diags, std::move(d));
  return !failed;
}

// decodeMockProviderBlock; nullopt when its name is not a provider's
// local name. Its external data source goes to [mocks].
std::optional<ProviderDecl> decode_mock_provider(const Block& b, std::vector<MockSource>& mocks,
                                                 std::vector<TestTarget>& overrides,
                                                 Diagnostics& diags) {
  static const BodySchema schema{{{"alias"}, {"source"}, {"override_during"}}, {}};
  PartialContentResult c = b.body.partial_content(schema);
  append(diags, std::move(c.diagnostics));
  if (!check_provider_name(b.labels[0], b.def_range, diags)) return std::nullopt;
  ProviderDecl p;
  p.name = b.labels[0];
  p.decl_range = b.def_range;
  p.name_range = b.label_ranges[0];
  const Attributes& at = c.content.attributes;
  if (const Attribute* a = at.find("alias")) {
    decode_string(*a, p.alias, diags);
    if (!valid_identifier(p.alias)) {
      Diagnostic d;
      d.severity = Severity::Error;
      d.summary = "Invalid provider configuration alias";
      d.detail = std::string("An alias must be a valid name. ") + kBadIdentifierDetail;
      diags.push_back(std::move(d));
    }
  }
  bool plan = use_for_plan(at, false, diags);
  MockData data = decode_mock_data(c.remain, plan, diags);
  for (TestTarget& t : data.targets) overrides.push_back(std::move(t));
  if (const Attribute* a = at.find("source")) {
    std::string dir;
    if (decode_string(*a, dir, diags) && !dir.empty()) mocks.push_back({dir, b.def_range, plan});
  }
  return p;
}

}  // namespace

MockData decode_mock_data(const Body& body, bool plan, Diagnostics& diags) {
  static const BodySchema schema{{},
                                 {{"mock_resource", {"type"}},
                                  {"mock_data", {"type"}},
                                  {"override_resource", {}},
                                  {"override_data", {}}}};
  MockData out;
  ContentResult c = body.content(schema);
  append(diags, std::move(c.diagnostics));
  Overrides overrides;
  for (const Block& b : c.content.blocks) {
    if (b.type == "mock_resource" || b.type == "mock_data") {
      // decodeMockResourceBlock.
      static const BodySchema rs{{{"defaults"}, {"override_during"}}, {}};
      ContentResult rc = b.body.content(rs);
      append(diags, std::move(rc.diagnostics));
      if (const Attribute* d = rc.content.attributes.find("defaults"))
        append(diags, d->expr.value(nullptr).diagnostics);
      use_for_plan(rc.content.attributes, plan, diags);
      std::vector<MockData::Entry>& list = b.type == "mock_resource" ? out.resources : out.data;
      auto prev = std::find_if(list.begin(), list.end(),
                               [&](const MockData::Entry& e) { return e.key == b.labels[0]; });
      if (prev != list.end()) {
        error(diags, "Duplicate " + b.type + " block",
              "A " + b.type + " block for " + b.labels[0] + " has already been defined at " +
                  range_string(prev->def) + ".",
              b.label_ranges[0]);
        continue;
      }
      list.push_back({b.labels[0], b.def_range, b.label_ranges[0]});
    } else if (overrides.add(b, plan, diags)) {
      out.overrides.push_back({overrides.seen.back().first.text, b.def_range, b.def_range});
      out.targets.push_back(overrides.seen.back().first);
    }
  }
  return out;
}

void merge_mock_data(MockData& into, const MockData& other, Diagnostics& diags) {
  // [what] names the block of a key in the message.
  auto merge = [&](std::vector<MockData::Entry>& to, const std::vector<MockData::Entry>& from,
                   const char* summary,
                   const std::function<std::string(const std::string&)>& what) {
    for (const MockData::Entry& e : from) {
      auto prev = std::find_if(to.begin(), to.end(),
                               [&](const MockData::Entry& x) { return x.key == e.key; });
      if (prev == to.end()) {
        to.push_back(e);
        continue;
      }
      error(diags, summary, what(e.key) + " already exists at " + range_string(prev->def) + ".",
            e.subject);
    }
  };
  merge(into.resources, other.resources, "Duplicate mock resource block",
        [](const std::string& k) { return "A mock_resource " + uni::go_quote(k) + " block"; });
  merge(into.data, other.data, "Duplicate mock resource block",
        [](const std::string& k) { return "A mock_data " + uni::go_quote(k) + " block"; });
  merge(into.overrides, other.overrides, "Duplicate override block",
        [](const std::string& k) { return "An override block for " + k; });
}

void decode_test_file(const Body& body, TestFile& file, std::vector<MockSource>& mocks,
                      Diagnostics& diags) {
  static const BodySchema schema{{},
                                 {{"run", {"name"}},
                                  {"provider", {"name"}},
                                  {"mock_provider", {"name"}},
                                  {"variables", {}},
                                  {"override_resource", {}},
                                  {"override_data", {}},
                                  {"override_module", {}}}};
  ContentResult c = body.content(schema);
  append(diags, std::move(c.diagnostics));
  std::vector<std::pair<std::string, Range>> runs, providers;
  const Range* variables = nullptr;
  Overrides overrides;
  for (const Block& b : c.content.blocks) {
    if (b.type == "run") {
      TestRun run;
      if (decode_run(b, run, diags)) file.runs.push_back(std::move(run));
      auto prev = std::find_if(runs.begin(), runs.end(),
                               [&](const auto& r) { return r.first == b.labels[0]; });
      if (prev != runs.end()) {
        error(diags, "Duplicate \"run\" block names",
              "This test file already has a run named " + b.labels[0] + " block defined at " +
                  range_string(prev->second) + ".",
              b.def_range);
        continue;
      }
      runs.emplace_back(b.labels[0], b.def_range);
    } else if (b.type == "variables") {
      decode_test_variables(b, variables, "test file", diags);
    } else if (b.type == "provider" || b.type == "mock_provider") {
      std::optional<ProviderDecl> p =
          b.type == "provider" ? decode_provider(b, diags, true)
                               : decode_mock_provider(b, mocks, file.mock_overrides, diags);
      if (!p) continue;
      std::string key = p->alias.empty() ? p->name : p->name + "." + p->alias;
      auto prev = std::find_if(providers.begin(), providers.end(),
                               [&](const auto& x) { return x.first == key; });
      if (prev != providers.end()) {
        error(
            diags, "Duplicate provider block",
            "A provider for " + key + " is already defined at " + range_string(prev->second) + ".",
            p->decl_range);
        continue;
      }
      providers.emplace_back(key, p->name_range);
    } else {
      overrides.add(b, false, diags);
    }
  }
  file.overrides = overrides.targets();
}

}  // namespace hclvm::config::detail
