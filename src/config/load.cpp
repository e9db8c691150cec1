// Loading a Terraform module directory as Terraform 1.11.4 does
// (internal/configs: parser_config_dir.go, module.go, module_merge.go;
// configload for child modules): which files are read and in which order,
// how the declarations of the primary files build the module (duplicates
// reported, the later variable/local/output/module call kept, the first
// resource), how override files are merged into it, then the local child
// modules loaded the same way, the references of every expression found
// and checked, and the graph of the tree ordered.
#include <dirent.h>
#include <fcntl.h>
#include <hclvm/config.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "config/decode.h"
#include "config/internal.h"
#include "config/override_body.h"
#include "util/system_error.h"
#include "util/unicode.h"

namespace hclvm::config {

// --- Sources -------------------------------------------------------------------------

void Sources::add(File f) {
  std::string name = f.source->name();
  files_.insert_or_assign(std::move(name), std::move(f));
}

const Sources::File* Sources::find(std::string_view name) const {
  auto it = files_.find(name);
  return it == files_.end() ? nullptr : &it->second;
}

void Sources::merge(const Sources& other) {
  for (const auto& [name, f] : other.files_) files_.insert_or_assign(name, f);
}

// --- Module ----------------------------------------------------------------------------

Language Module::language() const { return data_->language; }
const std::string& Module::dir() const { return data_->dir; }

namespace {
template <class M>
std::vector<std::string> keys_of(const M& m) {
  std::vector<std::string> out;
  for (const auto& [k, v] : m) out.push_back(k);
  return out;
}
}  // namespace

std::vector<std::string> Module::variable_names() const { return keys_of(data_->variables); }
std::vector<std::string> Module::local_names() const {
  if (data_->language == Language::Packer) return detail::packer_local_names(*data_);
  return keys_of(data_->locals);
}
std::vector<std::string> Module::output_names() const { return keys_of(data_->outputs); }
std::vector<std::string> Module::module_call_names() const { return keys_of(data_->calls); }
std::vector<std::string> Module::resource_addresses() const {
  std::vector<std::string> out;
  for (const detail::Resource& r : data_->resources) out.push_back(r.address());
  return out;
}

namespace detail {

bool read_config_file(const std::string& path, std::string& out, ReadFailure* why) {
  ReadFailure f;
  // Opened without waiting: a named pipe or a socket called main.tf is
  // unreadable here instead of blocking the load (Terraform waits on it
  // for a writer).
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  bool ok = fd >= 0;
  if (!ok) f.error = errno;
  struct stat st;
  if (ok && ::fstat(fd, &st) != 0) ok = false, f.error = errno;
  if (ok && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) ok = false, f.waits = true;
  if (ok && ::fcntl(fd, F_SETFL, O_RDONLY) != 0) ok = false, f.error = errno;
  char buf[65536];
  ssize_t n = 0;
  while (ok && (n = ::read(fd, buf, sizeof buf)) != 0) {
    if (n > 0) {
      out.append(buf, size_t(n));
    } else if (errno != EINTR) {
      ok = false;
      f.op = "read";
      f.error = errno;
    }
  }
  if (fd >= 0) ::close(fd);
  if (!ok && why != nullptr) *why = f;
  return ok;
}

std::string read_failure_text(const std::string& shown, const ReadFailure& why) {
  if (why.waits)
    return shown + " is a named pipe or socket, which is not read (it would wait for a writer)";
  return util::go_path_error(why.op, shown, why.error);
}

std::string Resource::address() const {
  switch (mode) {
    case ResMode::Managed: return type + "." + name;
    case ResMode::Data: return "data." + type + "." + name;
    case ResMode::Ephemeral: return "ephemeral." + type + "." + name;
  }
  return "";
}

const Resource* ModuleData::resource(ResMode mode, std::string_view type,
                                     std::string_view name) const {
  Resource probe;
  probe.mode = mode;
  probe.type = type;
  probe.name = name;
  auto it = resource_index.find(probe.address());
  return it == resource_index.end() ? nullptr : &resources[it->second];
}

std::string name_suggestion(std::string_view given, const std::vector<std::string>& candidates) {
  for (const std::string& c : candidates) {
    // Levenshtein distance on runes, as Terraform's didyoumean uses.
    std::u32string a, b;
    for (size_t i = 0; i < given.size();) {
      unsigned char ch = static_cast<unsigned char>(given[i]);
      size_t n = ch < 0x80 ? 1 : ch < 0xE0 ? 2 : ch < 0xF0 ? 3 : 4;
      char32_t r = 0;
      for (size_t k = 0; k < n && i + k < given.size(); ++k) r = (r << 8) | static_cast<unsigned char>(given[i + k]);
      a.push_back(r);
      i += n;
    }
    for (size_t i = 0; i < c.size();) {
      unsigned char ch = static_cast<unsigned char>(c[i]);
      size_t n = ch < 0x80 ? 1 : ch < 0xE0 ? 2 : ch < 0xF0 ? 3 : 4;
      char32_t r = 0;
      for (size_t k = 0; k < n && i + k < c.size(); ++k) r = (r << 8) | static_cast<unsigned char>(c[i + k]);
      b.push_back(r);
      i += n;
    }
    std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
      cur[0] = i;
      for (size_t j = 1; j <= b.size(); ++j) {
        size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
        cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
      }
      std::swap(prev, cur);
    }
    if (prev[b.size()] < 3) return c;
  }
  return "";
}

std::string clean_path(const std::string& p) {
  if (p.empty()) return ".";
  bool rooted = p[0] == '/';
  std::vector<std::string> parts;
  size_t i = 0;
  while (i <= p.size()) {
    size_t s = p.find('/', i);
    std::string part = p.substr(i, s == std::string::npos ? std::string::npos : s - i);
    if (part.empty() || part == ".") {
      // skip
    } else if (part == "..") {
      if (!parts.empty() && parts.back() != "..") parts.pop_back();
      else if (!rooted) parts.push_back("..");
    } else {
      parts.push_back(part);
    }
    if (s == std::string::npos) break;
    i = s + 1;
  }
  std::string out = rooted ? "/" : "";
  for (size_t k = 0; k < parts.size(); ++k) out += (k ? "/" : "") + parts[k];
  return out.empty() ? "." : out;
}

namespace {

// filepath.Join of [dir] and [name].
std::string join_path(const std::string& dir, const std::string& name) {
  if (dir.empty()) return clean_path(name);
  return clean_path(dir + "/" + name);
}

// One configuration file of a directory.
struct DirFile {
  std::string name;  // as diagnostics name it
  std::string path;  // on disk
  bool override = false;
};

// Whether Terraform ignores the directory entry [name] (IsIgnoredFile).
bool ignored_name(const std::string& name) {
  return name.starts_with(".") || name.ends_with("~") ||
         (name.size() >= 2 && name.starts_with("#") && name.ends_with("#"));
}

// The configuration files of [fs_dir] named under [dir], in Terraform's
// order; false (with a diagnostic) when the directory cannot be read.
bool list_dir(const std::string& fs_dir, const std::string& dir, std::vector<DirFile>& primary,
              std::vector<DirFile>& overrides, Diagnostics& diags) {
  DIR* d = opendir(fs_dir.c_str());
  if (d == nullptr) {
    error(diags, "Failed to read module directory",
          "Module directory " + fs_dir + " does not exist or cannot be read.");
    return false;
  }
  std::vector<std::string> names;
  while (dirent* e = readdir(d)) names.emplace_back(e->d_name);
  closedir(d);
  std::sort(names.begin(), names.end());
  for (const std::string& n : names) {
    if (ignored_name(n)) continue;
    std::string ext;
    if (n.ends_with(".tf.json")) ext = ".tf.json";
    else if (n.ends_with(".tf")) ext = ".tf";
    else continue;
    std::string full = fs_dir + "/" + n;
    struct stat st;
    if (stat(full.c_str(), &st) != 0 || S_ISDIR(st.st_mode)) continue;
    std::string base = n.substr(0, n.size() - ext.size());
    DirFile f{dir == "." ? n : join_path(dir, n), full,
              base == "override" || base.ends_with("_override")};
    (f.override ? overrides : primary).push_back(std::move(f));
  }
  return true;
}

// Reads and parses [f]; adds it to [sources]. False when it could not be read.
bool parse_file(const DirFile& f, const LoadOptions& options, Sources& sources, ConfigFile& out,
                Diagnostics& diags) {
  std::string bytes;
  if (!read_config_file(f.path, bytes)) {
    error(diags, "Failed to read file", "The file \"" + f.name + "\" could not be read.");
    return false;
  }
  auto src = make_source(f.name, std::move(bytes));
  bool json = f.name.ends_with(".json");
  if (options.cache != nullptr) {
    CompileOptions co;
    co.syntax = json ? Syntax::Json : Syntax::Native;
    CompiledFile cf = options.cache->load_or_compile(src, co);
    out = json ? parse_json_body(src) : parse_native_body(src);
    adopt_programs(out, cf);
  } else {
    out = json ? parse_json_body(src) : parse_native_body(src);
  }
  diags.insert(diags.end(), out.diagnostics.begin(), out.diagnostics.end());
  sources.add({out.source, out.body, out.syntax});
  return true;
}

// Converts the default of [v] to its type again after an override
// changed one of them (the re-check of mergeVariable).
void recheck_default(Variable& v, bool type_set, bool default_set, const Range& where,
                     Diagnostics& diags) {
  if (!v.default_value) return;
  if (type_set || default_set) {
    ConvertResult c = convert(*v.default_value, v.constraint);
    if (!c.ok()) {
      std::string why = c.error().message;
      std::string detail =
          type_set && !default_set
              ? "Overriding this variable's type constraint has made its default value invalid: "
              : !type_set ? "The overridden default value for this variable is not compatible "
                            "with the variable's type constraint: "
                          : "This variable's default value is not compatible with its type "
                            "constraint: ";
      error(diags, "Invalid default value for variable", detail + why + ".", where);
      v.default_value = Value::dynamic();
    } else {
      v.default_value = c.take();
    }
  }
  if (!v.nullable && v.default_value->is_null()) {
    error(diags, "Invalid default value for variable",
          "A null default value is not valid when nullable=false.", where);
  }
}

// Builds [m] from the declarations of its primary files [files], then
// merges the override files [overs] (NewModule and mergeFile).
void build_module(ModuleData& m, std::vector<FileDecls>& files, std::vector<FileDecls>& overs,
                  Diagnostics& diags) {
  // required_providers: one block per module.
  const RequiredProvidersDecl* rp = nullptr;
  for (FileDecls& f : files) {
    for (const RequiredProvidersDecl& r : f.required_providers) {
      if (rp != nullptr) {
        error(diags, "Duplicate required providers configuration",
              "A module may have only one required providers configuration. The required "
              "providers were previously configured at " + range_string(rp->decl_range) + ".",
              r.decl_range);
        continue;
      }
      rp = &r;
    }
  }
  // Those of override files replace the primary's provider by provider.
  if (rp != nullptr) m.required_providers = rp->entries;
  for (FileDecls& f : overs)
    for (const RequiredProvidersDecl& r : f.required_providers)
      for (const auto& [name, req] : r.entries) m.required_providers[name] = req;
  for (const auto& [name, req] : m.required_providers)
    if (req.addr.builtin_terraform()) m.builtin_providers.push_back(name);
  const Range* backend = nullptr;
  const Range* cloud = nullptr;
  std::map<std::string, Range> providers;
  std::map<std::string, Range> resource_ranges;
  std::map<std::string, Range> check_ranges;
  std::vector<const ImportDecl*> imports;
  // provider_meta: one block per provider (by its address) in a module.
  std::vector<std::pair<ProviderAddr, const std::pair<std::string, Range>*>> metas;
  for (FileDecls& f : files) {
    for (const auto& pm : f.provider_metas) {
      auto req = m.required_providers.find(pm.first);
      ProviderAddr a =
          req != m.required_providers.end() ? req->second.addr : implied_provider(pm.first);
      auto prev = std::find_if(metas.begin(), metas.end(), [&](const auto& x) {
        return x.first.hostname == a.hostname && x.first.ns == a.ns && x.first.type == a.type;
      });
      if (prev != metas.end()) {
        error(diags, "Duplicate provider_meta block",
              "A provider_meta block for provider " + uni::go_quote(prev->second->first) +
                  " was already declared at " + range_string(prev->second->second) +
                  ". Providers may only have one provider_meta block per module.",
              pm.second);
        prev->second = &pm;
        continue;
      }
      metas.emplace_back(a, &pm);
    }
  }
  for (FileDecls& f : files) {
    for (const Range& b : f.backends) {
      if (backend != nullptr) {
        error(diags, "Duplicate backend configuration",
              "A module may have only one backend configuration. The backend was previously "
              "configured at " + range_string(*backend) + ".",
              b);
        continue;
      }
      backend = &b;
    }
    for (const Range& c : f.clouds) {
      if (cloud != nullptr) {
        error(diags, "Duplicate HCP Terraform configurations",
              "A module may have only one 'cloud' block configuring HCP Terraform or Terraform "
              "Enterprise. The 'cloud' block was previously configured at " +
                  range_string(*cloud) + ".",
              c);
        continue;
      }
      cloud = &c;
    }
    if (backend != nullptr && cloud != nullptr) {
      error(diags, "Both a backend and cloud configuration are present",
            "A module may declare either one 'cloud' block OR one 'backend' block configuring a "
            "state backend. The 'cloud' block is configured at " + range_string(*cloud) +
                "; a backend is configured at " + range_string(*backend) +
                ". Remove the backend block to configure HCP Terraform or Terraform Enteprise.",
            *backend);
    }
    for (const ProviderDecl& p : f.providers) {
      std::string key = p.name + (p.alias.empty() ? "" : "." + p.alias);
      if (auto it = providers.find(key); it != providers.end()) {
        error(diags, "Duplicate provider configuration",
              p.alias.empty()
                  ? "A default (non-aliased) provider configuration for \"" + p.name +
                        "\" was already given at " + range_string(it->second) +
                        ". If multiple configurations are required, set the \"alias\" argument "
                        "for alternative configurations."
                  : "A provider configuration for \"" + p.name + "\" with alias \"" + p.alias +
                        "\" was already given at " + range_string(it->second) +
                        ". Each configuration for the same provider must have a distinct alias.",
              p.decl_range);
        continue;
      }
      providers.emplace(key, p.decl_range);
      m.provider_configs.push_back(p.name);
      if (p.has_version || p.config.content(BodySchema{}).has_errors()) {
        m.configures_providers = true;
        m.configured_providers.push_back(key);
      } else
        m.empty_provider_configs.emplace_back(key, p.decl_range);
    }
    for (VarDecl& v : f.variables) {
      if (auto it = m.variables.find(v.v.name); it != m.variables.end()) {
        error(diags, "Duplicate variable declaration",
              "A variable named \"" + v.v.name + "\" was already declared at " +
                  range_string(it->second.decl_range) +
                  ". Variable names must be unique within a module.",
              v.v.decl_range);
      }
      m.variables.insert_or_assign(v.v.name, v.v);
    }
    for (LocalDecl& l : f.locals) {
      if (auto it = m.locals.find(l.l.name); it != m.locals.end()) {
        error(diags, "Duplicate local value definition",
              "A local value named \"" + l.l.name + "\" was already defined at " +
                  range_string(it->second.decl_range) +
                  ". Local value names must be unique within a module.",
              l.l.decl_range);
      }
      m.locals.insert_or_assign(l.l.name, l.l);
    }
    for (OutputDecl& o : f.outputs) {
      if (auto it = m.outputs.find(o.o.name); it != m.outputs.end()) {
        error(diags, "Duplicate output definition",
              "An output named \"" + o.o.name + "\" was already defined at " +
                  range_string(it->second.decl_range) +
                  ". Output names must be unique within a module.",
              o.o.decl_range);
      }
      m.outputs.insert_or_assign(o.o.name, o.o);
    }
    for (CallDecl& c : f.calls) {
      if (auto it = m.calls.find(c.c.name); it != m.calls.end()) {
        error(diags, "Duplicate module call",
              "A module call named \"" + c.c.name + "\" was already defined at " +
                  range_string(it->second.decl_range) +
                  ". Module calls must have unique names within a module.",
              c.c.decl_range);
      }
      m.calls.insert_or_assign(c.c.name, c.c);
    }
    auto add_resources = [&](std::vector<ResourceDecl>& list) {
      for (ResourceDecl& r : list) {
        std::string addr = r.r.address();
        if (auto it = resource_ranges.find(addr); it != resource_ranges.end()) {
          std::string mode = r.r.mode == ResMode::Managed ? "resource"
                             : r.r.mode == ResMode::Data  ? "data"
                                                          : "ephemeral";
          std::string what = r.r.mode == ResMode::Managed ? "resource"
                             : r.r.mode == ResMode::Data  ? "data resource"
                                                          : "ephemeral resource";
          error(diags, "Duplicate " + mode + " \"" + r.r.type + "\" configuration",
                "A " + r.r.type + " " + what + " named \"" + r.r.name +
                    "\" was already declared at " + range_string(it->second) +
                    ". Resource names must be unique per type in each module" +
                    (r.r.check.empty() ? "." : ", including within check blocks."),
                r.r.decl_range);
          continue;
        }
        resource_ranges.emplace(addr, r.r.decl_range);
        m.resource_index.emplace(addr, m.resources.size());
        m.resources.push_back(r.r);
      }
    };
    add_resources(f.managed);
    add_resources(f.data);
    add_resources(f.ephemeral);
    for (const CheckDecl& c : f.checks) {
      if (auto it = check_ranges.find(c.name); it != check_ranges.end()) {
        error(diags, "Duplicate check \"" + c.name + "\" configuration",
              "A check block named \"" + c.name + "\" was already declared at " +
                  range_string(it->second) + ". Check blocks must be unique within each module.",
              c.decl_range);
        continue;
      }
      check_ranges.emplace(c.name, c.decl_range);
      m.checks.emplace(c.name, CheckBlock{c.name, c.decl_range, c.asserts});
    }
    // Two import blocks to one resource instance: each later one is
    // reported against every earlier one.
    for (const ImportDecl& imp : f.imports) {
      if (imp.to_key) {
        for (const ImportDecl* prev : imports) {
          if (prev->to_key != imp.to_key) continue;
          error(diags, "Duplicate import configuration for \"" + imp.to_resource + "\"",
                "An import block for the resource \"" + imp.to_resource +
                    "\" was already declared at " + range_string(prev->decl_range) +
                    ". A resource can have only one import block.",
                imp.to_range);
        }
      }
      imports.push_back(&imp);
      m.imports.push_back(imp.block);
    }
  }

  for (FileDecls& f : files)
    for (auto& c : f.core_versions) m.core_versions.push_back(c);
  // Override files, in order.
  for (FileDecls& f : overs) {
    if (!f.core_versions.empty()) m.core_versions = f.core_versions;
    // An override file replaces the backend or cloud block, but may hold
    // only one of each itself.
    if (f.backends.size() > 1)
      error(diags, "Duplicate backend configuration",
            "Each override file may have only one backend configuration. A backend was "
            "previously configured at " +
                range_string(f.backends[0]) + ".",
            f.backends[1]);
    if (f.clouds.size() > 1)
      error(diags, "Duplicate HCP Terraform configurations",
            "A module may have only one 'cloud' block configuring HCP Terraform or Terraform "
            "Enterprise. The 'cloud' block was previously configured at " +
                range_string(f.clouds[0]) + ".",
            f.clouds[1]);
    for (VarDecl& o : f.variables) {
      auto it = m.variables.find(o.v.name);
      if (it == m.variables.end()) {
        error(diags, "Missing base variable declaration to override",
              "There is no variable named \"" + o.v.name +
                  "\". An override file can only override a variable that was already declared "
                  "in a primary configuration file.",
              o.v.decl_range);
        continue;
      }
      Variable& v = it->second;
      if (o.set.count("description")) v.description = o.v.description;
      if (o.set.count("default")) {
        v.default_value = o.v.default_value;
        v.default_range = o.v.default_range;
      }
      if (o.set.count("type")) {
        v.constraint = o.v.constraint;
        v.type = o.v.type;
        v.parse_hcl = o.v.parse_hcl;
      }
      if (o.set.count("sensitive")) v.sensitive = o.v.sensitive;
      if (o.set.count("ephemeral")) v.ephemeral = o.v.ephemeral;
      if (o.set.count("nullable")) v.nullable = o.v.nullable;
      recheck_default(v, o.set.count("type") > 0, o.set.count("default") > 0, o.v.decl_range,
                      diags);
    }
    for (LocalDecl& o : f.locals) {
      auto it = m.locals.find(o.l.name);
      if (it == m.locals.end()) {
        error(diags, "Missing base local value definition to override",
              "There is no local value named \"" + o.l.name +
                  "\". An override file can only override a local value that was already "
                  "defined in a primary configuration file.",
              o.l.decl_range);
        continue;
      }
      it->second.expr = o.l.expr;
      it->second.decl_range = o.l.decl_range;
    }
    for (OutputDecl& o : f.outputs) {
      auto it = m.outputs.find(o.o.name);
      if (it == m.outputs.end()) {
        error(diags, "Missing base output definition to override",
              "There is no output named \"" + o.o.name +
                  "\". An override file can only override an output that was already defined in "
                  "a primary configuration file.",
              o.o.decl_range);
        continue;
      }
      Output& b = it->second;
      if (!o.o.description.empty()) b.description = o.o.description;
      if (o.set.count("value")) b.value = o.o.value;
      if (o.set.count("sensitive")) b.sensitive = o.o.sensitive;
      if (o.set.count("ephemeral")) b.ephemeral = o.o.ephemeral;
      if (!o.o.depends_on.empty()) {
        error(diags, "Unsupported override", "The depends_on argument may not be overridden.",
              o.o.depends_on[0]->expr.range());
      }
    }
    for (CallDecl& o : f.calls) {
      auto it = m.calls.find(o.c.name);
      if (it == m.calls.end()) {
        error(diags, "Missing module call to override",
              "There is no module call named \"" + o.c.name +
                  "\". An override file can only override a module call that was defined in a "
                  "primary configuration file.",
              o.c.decl_range);
        continue;
      }
      ModuleCall& b = it->second;
      if (o.set.count("source")) {
        b.source = o.c.source;
        b.source_range = o.c.source_range;
      }
      if (o.set.count("count")) b.count = o.c.count;
      if (o.set.count("for_each")) b.for_each = o.c.for_each;
      if (o.set.count("version")) b.has_version = o.c.has_version;
      b.config = make_override_body(b.config, o.c.config);
      if (!o.c.depends_on.empty()) {
        error(diags, "Unsupported override", "The depends_on argument may not be overridden.",
              o.c.depends_on[0]->expr.range());
      }
    }
    auto override_resources = [&](std::vector<ResourceDecl>& list) {
      for (ResourceDecl& o : list) {
        auto it = m.resource_index.find(o.r.address());
        if (it == m.resource_index.end()) {
          if (o.r.mode == ResMode::Managed) {
            error(diags, "Missing resource to override",
                  "There is no " + o.r.type + " resource named \"" + o.r.name +
                      "\". An override file can only override a resource block defined in a "
                      "primary configuration file.",
                  o.r.decl_range);
          } else if (o.r.mode == ResMode::Data) {
            error(diags, "Missing data resource to override",
                  "There is no " + o.r.type + " data resource named \"" + o.r.name +
                      "\". An override file can only override a data block defined in a primary "
                      "configuration file.",
                  o.r.decl_range);
          }
          continue;
        }
        if (o.r.mode == ResMode::Ephemeral) continue;
        Resource& b = m.resources[it->second];
        if (o.set.count("count")) b.count = o.r.count;
        if (o.set.count("for_each")) b.for_each = o.r.for_each;
        b.config = make_override_body(b.config, o.r.config);
        if (!o.r.depends_on.empty()) {
          error(diags, "Unsupported override", "The depends_on argument may not be overridden.",
                o.r.depends_on[0]->expr.range());
        }
      }
    };
    override_resources(f.managed);
    override_resources(f.data);
    for (const Range& r : f.moved) {
      error(diags, "Cannot override 'moved' blocks",
            "Records of moved objects can appear only in normal files, not in override files.", r);
    }
    for (const ImportDecl& imp : f.imports) {
      error(diags, "Cannot override 'import' blocks",
            "Import blocks can appear only in normal files, not in override files.",
            imp.decl_range);
    }
    for (const ProviderDecl& p : f.providers) {
      if (!p.alias.empty() && !providers.count(p.name + "." + p.alias)) {
        error(diags, "Missing base provider configuration for override",
              "There is no " + p.name + " provider configuration with the alias \"" + p.alias +
                  "\". An override file can only override an aliased provider configuration "
                  "that was already defined in a primary configuration file.",
              p.decl_range);
      }
    }
  }
}

// Replaces every expression of [m] by one with its references read in [m].
void analyze_module(ModuleData& m, Diagnostics& diags) {
  auto an = [&](ExprPtr& p, ExprScope scope, std::string_view self = {}) {
    if (p) p = analyze(p->expr, m, scope, self);
  };
  auto an_rules = [&](std::vector<CheckRule>& rules) {
    for (CheckRule& r : rules) {
      an(r.condition, ExprScope::Plain);
      an(r.error_message, ExprScope::Plain);
    }
  };
  for (ImportBlock& imp : m.imports) {
    an(imp.id, imp.for_each ? ExprScope::ForEach : ExprScope::Plain);
    an(imp.for_each_expr, ExprScope::Plain);
  }
  // Before any expression is analyzed: references name them by index.
  size_t next = 0;
  for (auto& [name, l] : m.locals) l.index = next++;
  next = 0;
  for (auto& [name, v] : m.variables) v.index = next++;
  next = 0;
  for (auto& [name, o] : m.outputs) o.index = next++;
  for (auto& [name, v] : m.variables) an_rules(v.validations);
  for (auto& [name, c] : m.checks) an_rules(c.asserts);
  for (auto& [name, l] : m.locals) an(l.expr, ExprScope::Plain, name);
  for (auto& [name, o] : m.outputs) {
    an(o.value, ExprScope::Plain);
    an_rules(o.preconditions);
    for (ExprPtr& d : o.depends_on) an(d, ExprScope::Plain);
    o.depends_on_diags = check_depends_on(o.depends_on, m);
  }
  for (auto& [name, c] : m.calls) {
    ExprScope scope = c.count ? ExprScope::Counted : c.for_each ? ExprScope::ForEach
                                                                : ExprScope::Plain;
    an(c.count, ExprScope::Plain);
    an(c.for_each, ExprScope::Plain);
    for (ExprPtr& d : c.depends_on) an(d, ExprScope::Plain);
    c.depends_on_diags = check_depends_on(c.depends_on, m);
    if (c.child) {
      // The arguments, read against the child's variables.
      BodySchema schema;
      for (const auto& [vn, v] : c.child->variables)
        schema.attributes.push_back({vn, !v.default_value.has_value()});
      ContentResult r = c.config.content(schema);
      for (Diagnostic& d : r.diagnostics) diags.push_back(std::move(d));
      for (const Attribute& a : r.content.attributes)
        c.args.insert_or_assign(a.name, analyze(a.expr, m, scope));
    } else {
      AttributesResult r = c.config.just_attributes();
      for (const Attribute& a : r.attributes)
        c.args.insert_or_assign(a.name, analyze(a.expr, m, scope));
    }
  }
  for (Resource& r : m.resources) {
    ExprScope scope = r.count ? ExprScope::Counted : r.for_each ? ExprScope::ForEach
                                                                : ExprScope::Plain;
    an(r.count, ExprScope::Plain);
    an(r.for_each, ExprScope::Plain);
    for (ExprPtr& d : r.depends_on) an(d, ExprScope::Plain);
    r.depends_on_diags = check_depends_on(r.depends_on, m);
    for (ExprPtr& e : r.edges) an(e, scope);
    for (bool post : {false, true}) {
      for (CheckRule& cr : post ? r.postconditions : r.preconditions) {
        for (ExprPtr* e : {&cr.condition, &cr.error_message})
          if (*e) *e = analyze((*e)->expr, m, scope, {}, post);
      }
    }
    prepare_resource_body(r);
    auto info = std::make_shared<ExprInfo>();
    info->refs = parse_refs(body_variables(r.config, *r.variables_shape), info->diags);
    resolve_refs(info->refs, m);
    check_refs(info->refs, m, scope, {}, info->diags);
    r.body_info = std::move(info);
  }
}

std::shared_ptr<ModuleData> load_dir(const std::string& fs_dir, const std::string& dir,
                                     std::vector<std::string> path, const LoadOptions& options,
                                     Sources& sources, Diagnostics& diags);

namespace {

// What the load of one module tree has seen, across load_children's
// recursion: the real directories of the modules being loaded (outermost
// first), and how many modules it has loaded.
struct TreeWalk {
  std::vector<std::string> dirs;
  size_t modules = 0;
};
thread_local TreeWalk* t_walk = nullptr;

// The real path of directory [dir], or "" when it cannot be resolved.
std::string real_dir(const std::string& dir) {
  char buf[PATH_MAX];
  return realpath(dir.c_str(), buf) != nullptr ? std::string(buf) : std::string();
}

}  // namespace

// Loads the local child modules of [m] (sorted by call name).
void load_children(ModuleData& m, const LoadOptions& options, Sources& sources,
                   Diagnostics& diags) {
  TreeWalk own;
  bool outermost = t_walk == nullptr;
  if (outermost) t_walk = &own;
  struct Done {
    bool outermost;
    ~Done() {
      t_walk->dirs.pop_back();
      if (outermost) t_walk = nullptr;
    }
  };
  TreeWalk& walk = *t_walk;
  walk.dirs.push_back(real_dir(m.fs_dir));
  Done done{outermost};
  for (auto& [name, c] : m.calls) {
    bool local = c.source.starts_with("./") || c.source.starts_with("../") ||
                 c.source.starts_with(".\\") || c.source.starts_with("..\\");
    if (!local) continue;
    std::string src = c.source;
    std::replace(src.begin(), src.end(), '\\', '/');
    std::vector<std::string> child_path = m.path;
    child_path.push_back(name);
    std::string fs = m.fs_dir + "/" + src;
    std::string shown = join_path(m.dir, src);
    // A directory being loaded already would load its own caller again,
    // and again: Terraform's init copies it until the path is too long.
    std::string real = real_dir(fs);
    if (!real.empty() && std::find(walk.dirs.begin(), walk.dirs.end(), real) != walk.dirs.end()) {
      error(diags, "Module calls itself",
            "The source " + uni::go_quote(c.source) + " of module " + uni::go_quote(name) +
                " is the directory of this module or of a module that calls it, so the tree of "
                "modules would have no end.",
            c.source_range);
      continue;
    }
    if (++walk.modules > options.max_modules) {
      error(diags, "Too many modules",
            "Loading module " + uni::go_quote(name) + " would take this configuration past " +
                std::to_string(options.max_modules) +
                " modules (each call of a module counts, with the modules it calls), the most "
                "one configuration may load.",
            c.decl_range);
      continue;
    }
    Diagnostics cd;
    auto child = load_dir(fs, shown, child_path, options, sources, cd);
    for (Diagnostic& d : cd) {
      // A missing directory is named after the call.
      if (d.summary == "Failed to read module directory" && !d.subject) {
        d.detail = "Module directory " + shown + " does not exist or cannot be read.";
        d.subject = c.decl_range;
      }
      diags.push_back(std::move(d));
    }
    c.child = child;
  }
}

// The test files of the module in [fs_dir] (named under [dir]), as
// dirFiles lists them: those of [test_dir] under it, then its own; false
// when the test directory exists but cannot be read.
bool list_tests(const std::string& fs_dir, const std::string& dir, const std::string& test_dir,
                std::vector<DirFile>& tests, Diagnostics& diags) {
  auto is_test = [](const std::string& n) {
    return n.ends_with(".tftest.hcl") || n.ends_with(".tftest.json");
  };
  auto scan = [&](const std::string& fs, const std::string& shown, DIR* d) {
    std::vector<std::string> names;
    while (dirent* e = readdir(d)) names.emplace_back(e->d_name);
    closedir(d);
    std::sort(names.begin(), names.end());
    for (const std::string& n : names) {
      struct stat st;
      std::string full = fs + "/" + n;
      if (ignored_name(n) || !is_test(n) || stat(full.c_str(), &st) != 0 || S_ISDIR(st.st_mode))
        continue;
      tests.push_back({shown == "." ? n : join_path(shown, n), full, false});
    }
  };
  if (!test_dir.empty()) {
    std::string fs = fs_dir + "/" + test_dir, shown = join_path(dir, test_dir);
    if (DIR* d = opendir(fs.c_str())) {
      scan(fs, shown, d);
    } else if (errno == ENOENT) {
      if (test_dir != "tests") {
        Diagnostic w;
        w.severity = Severity::Warning;
        w.summary = "Test directory does not exist";
        w.detail = "Requested test directory " + shown + " does not exist.";
        diags.push_back(std::move(w));
      }
    } else {
      error(diags, "Failed to read test directory",
            "Test directory " + shown +
                " could not be read: " + util::go_path_error("open", shown, errno) + ".");
      return false;
    }
  }
  if (DIR* d = opendir(fs_dir.c_str())) scan(fs_dir, dir, d);
  return true;
}

// installMockDataFiles: the data of each mock provider [mocks] names
// (LoadMockDataDir: its *.tfmock.hcl and *.tfmock.json files, relative to
// the root module's directory [fs_dir], where Terraform runs).
void load_mock_data(const std::string& fs_dir, const std::vector<MockSource>& mocks,
                    Sources& sources, Diagnostics& diags) {
  for (const MockSource& m : mocks) {
    std::string fs = m.dir.starts_with("/") ? m.dir : fs_dir + "/" + m.dir;
    DIR* d = opendir(fs.c_str());
    if (d == nullptr) {
      error(diags, "Failed to read mock data directory",
            "Mock data directory " + m.dir + " does not exist or cannot be read.", m.decl_range);
      continue;
    }
    std::vector<std::string> names;
    while (dirent* e = readdir(d)) names.emplace_back(e->d_name);
    closedir(d);
    std::sort(names.begin(), names.end());
    std::optional<MockData> data;
    for (const std::string& n : names) {
      struct stat st;
      std::string full = fs + "/" + n;
      if (ignored_name(n) || !(n.ends_with(".tfmock.hcl") || n.ends_with(".tfmock.json")) ||
          stat(full.c_str(), &st) != 0 || S_ISDIR(st.st_mode))
        continue;
      ConfigFile f;
      if (!parse_file({join_path(m.dir, n), full, false}, LoadOptions{}, sources, f, diags))
        continue;
      MockData current = decode_mock_data(f.body, m.use_for_plan, diags);
      if (data)
        merge_mock_data(*data, current, diags);
      else
        data = std::move(current);
    }
  }
}

std::shared_ptr<ModuleData> load_dir(const std::string& fs_dir, const std::string& dir,
                                     std::vector<std::string> path, const LoadOptions& options,
                                     Sources& sources, Diagnostics& diags) {
  std::vector<DirFile> primary, overrides;
  if (!list_dir(fs_dir, dir, primary, overrides, diags)) return nullptr;
  auto m = std::make_shared<ModuleData>();
  m->language = Language::Terraform;
  m->dir = dir;
  m->fs_dir = fs_dir;
  m->path = std::move(path);
  std::vector<FileDecls> files(primary.size()), overs(overrides.size());
  for (size_t i = 0; i < primary.size(); ++i) {
    ConfigFile f;
    if (parse_file(primary[i], options, sources, f, diags))
      decode_file(f.body, false, files[i], diags);
  }
  for (size_t i = 0; i < overrides.size(); ++i) {
    ConfigFile f;
    if (parse_file(overrides[i], options, sources, f, diags))
      decode_file(f.body, true, overs[i], diags);
  }
  // The root module's test files, with `terraform validate`.
  std::vector<MockSource> mocks;
  if (options.tests && m->path.empty()) {
    std::vector<DirFile> tests;
    if (!list_tests(fs_dir, dir, options.test_directory, tests, diags)) return m;
    for (const DirFile& t : tests) {
      ConfigFile f;
      if (!parse_file(t, LoadOptions{}, sources, f, diags)) continue;
      m->tests.emplace_back();
      decode_test_file(f.body, m->tests.back(), mocks, diags);
    }
  }
  build_module(*m, files, overs, diags);
  if (has_errors(diags)) return m;
  if (!m->path.empty()) {
    for (const FileDecls& f : files) {
      for (const ImportDecl& imp : f.imports) {
        error(diags, "Invalid import configuration",
              "An import block was detected in \"" + m->dir +
                  "\". Import blocks are only allowed in the root module.",
              imp.decl_range);
      }
    }
  }
  load_children(*m, options, sources, diags);
  load_mock_data(fs_dir, mocks, sources, diags);
  return m;
}

// Analyzes [m] and its children, depth first.
void analyze_tree(ModuleData& m, Diagnostics& diags) {
  for (auto& [name, c] : m.calls)
    if (c.child) analyze_tree(const_cast<ModuleData&>(*c.child), diags);
  analyze_module(m, diags);
}

// Whether [dir] holds Packer templates rather than Terraform files.
bool looks_like_packer(const std::string& dir) {
  bool tf = false, pkr = false;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n.ends_with(".tf") || n.ends_with(".tf.json")) tf = true;
      if (n.ends_with(".pkr.hcl") || n.ends_with(".pkr.json")) pkr = true;
    }
    closedir(d);
  }
  return pkr && !tf;
}

// validateProviderConfigs, which Terraform runs on a tree that loaded
// without errors, for [m] (called by [parent_call]; [no_provider_config]:
// where a call above it used count, for_each or depends_on): its children
// first; then one provider required under two local names, the providers
// resources imply, and what [m]'s calls pass; for a child module also its
// own configurations against what it is passed, its configuration_aliases,
// and its empty provider blocks.
void validate_provider_configs(const ModuleData& m, Diagnostics& diags,
                               const ModuleCall* parent_call = nullptr,
                               std::optional<Range> no_provider_config = std::nullopt,
                               const ModuleData* parent = nullptr) {
  for (const auto& [name, c] : m.calls) {
    if (!c.child) continue;
    // A call with count, for_each or depends_on: no module beneath it may
    // configure providers.
    std::optional<Range> no_config = no_provider_config;
    if (c.count)
      no_config = c.count->expr.range();
    else if (c.for_each)
      no_config = c.for_each->expr.range();
    else if (!c.depends_on.empty())
      no_config = c.depends_on[0]->expr.range();
    validate_provider_configs(*c.child, diags, &c, no_config, &m);
  }
  auto warning = [&](std::string summary, std::string detail, const Range& where) {
    Diagnostic w;
    w.severity = Severity::Warning;
    w.summary = std::move(summary);
    w.detail = std::move(detail);
    w.subject = where;
    diags.push_back(std::move(w));
  };
  auto warn = [&](std::string detail, const Range& where) {
    warning("Duplicate required provider", std::move(detail), where);
  };
  auto same = [](const ProviderAddr& a, const ProviderAddr& b) {
    return a.hostname == b.hostname && a.ns == b.ns && a.type == b.type;
  };
  auto display = [](const ProviderAddr& a) {
    std::string s = a.ns + "/" + a.type;
    return a.hostname == "registry.terraform.io" ? s : a.hostname + "/" + s;
  };
  // One provider required under two local names, or a default provider
  // whose configuration block uses its type's name while required_providers
  // gives it another.
  std::vector<std::pair<std::string, ProviderAddr>> local_names;
  for (const auto& [name, req] : m.required_providers) {
    const ProviderAddr& a = req.addr;
    auto prev = std::find_if(local_names.rbegin(), local_names.rend(),
                             [&](const auto& l) { return same(l.second, a); });
    if (prev != local_names.rend()) {
      warn("Provider " + display(a) + " with the local name " + uni::go_quote(name) +
               " was previously required as " + uni::go_quote(prev->first) +
               ". A provider can only be required once within required_providers.",
           req.range);
    } else if (a.hostname == "registry.terraform.io" && a.ns == "hashicorp" && name != a.type &&
               std::find(m.provider_configs.begin(), m.provider_configs.end(), a.type) !=
                   m.provider_configs.end()) {
      warn("Provider " + display(a) + " with the local name " + uni::go_quote(name) +
               " was implicitly required via a configuration block as " + uni::go_quote(a.type) +
               ". The provider configuration block name must match the name used in "
               "required_providers.",
           req.range);
    }
    local_names.emplace_back(name, a);
  }
  for (const Resource& r : m.resources) {
    if (r.has_provider || r.mode == ResMode::Ephemeral) continue;
    std::string implied = r.type.substr(0, r.type.find('_'));
    std::string err;
    if (!parse_provider_part(implied, err)) {
      error(diags, "Invalid provider local name",
            uni::go_quote(implied) + " is an invalid implied provider local name: " + err,
            r.decl_range);
      continue;
    }
    if (m.required_providers.count(implied)) continue;
    // The provider the name implies, required under another name.
    ProviderAddr def = implied == "terraform"
                           ? ProviderAddr{"terraform.io", "builtin", "terraform"}
                           : ProviderAddr{"registry.terraform.io", "hashicorp", implied};
    for (const auto& [prev, a] : local_names) {
      if (!same(a, def)) continue;
      std::string full = "\"" + def.hostname + "/" + def.ns + "/" + def.type + "\"";
      warn("Provider " + full + " was implicitly required via resource " +
               uni::go_quote(r.address()) + ", but listed in required_providers as " +
               uni::go_quote(prev) +
               ". Either the local name in required_providers must match "
               "the resource name, or the " +
               uni::go_quote(prev) + " provider must be assigned within the resource block.",
           r.decl_range);
    }
  }
  std::string module_text, parent_text = "the root module";
  for (const std::string& p : m.path)
    module_text += (module_text.empty() ? "" : ".") + ("module." + p);
  if (m.path.empty()) module_text = "the root module";
  if (m.path.size() > 1) parent_text = module_text.substr(0, module_text.rfind(".module."));
  auto has = [](const std::vector<std::string>& v, const std::string& x) {
    return std::find(v.begin(), v.end(), x) != v.end();
  };
  // What the module's calls pass: a name this module neither configures
  // nor requires is assumed to be a default provider's, and one a child
  // module is not given cannot reach its children.
  for (const auto& [call_name, call] : m.calls) {
    for (const PassedProvider& passed : call.passed_providers) {
      if (!passed.parent_alias.empty()) continue;
      const std::string& name = passed.parent_name;
      bool conf = has(m.configured_providers, name);
      bool local = m.required_providers.count(name) != 0;
      bool in =
          parent_call != nullptr &&
          std::any_of(parent_call->passed_providers.begin(), parent_call->passed_providers.end(),
                      [&](const PassedProvider& p) { return p.child == name; });
      std::string def = "hashicorp/" + name;
      if (!conf && !local) {
        warning("Reference to undefined provider",
                "There is no explicit declaration for local provider name " + uni::go_quote(name) +
                    " in " + module_text +
                    ", so Terraform is assuming you mean to pass a configuration for provider " +
                    uni::go_quote(def) +
                    ".\n\nTo clarify your intent and silence this warning, "
                    "add to " +
                    parent_text + " a required_providers entry named " + uni::go_quote(name) +
                    " with source = " + uni::go_quote(def) +
                    ", or a different source address if appropriate.",
                passed.parent_range);
        continue;
      }
      if (parent_call != nullptr && !conf && !in) {
        warning("Missing required provider configuration",
                "The configuration for " + module_text +
                    " expects to inherit a configuration for provider " + def +
                    " with local name " + uni::go_quote(name) + ", but " + parent_text +
                    " doesn't pass a configuration under that name.\n\nTo satisfy this "
                    "requirement, add an entry for " +
                    uni::go_quote(name) + " to the \"providers\" argument in the module " +
                    uni::go_quote(parent_call->name) + " block.",
                parent_call->decl_range);
      }
    }
  }
  if (parent_call == nullptr) return;  // the rest is about child modules
  // A configuration of its own cannot be overridden by one passed in.
  for (const std::string& name : m.configured_providers) {
    for (const PassedProvider& passed : parent_call->passed_providers) {
      if (passed.child != name) continue;
      error(diags, "Cannot override provider configuration",
            "The configuration of " + module_text + " has its own local configuration for " + name +
                ", and so it cannot accept an overridden configuration provided by " + parent_text +
                ".",
            passed.child_range);
    }
  }
  if (m.configures_providers && no_provider_config) {
    error(diags, "Module is incompatible with count, for_each, and depends_on",
          "The module at " + module_text +
              " is a legacy module which contains its own local provider configurations, and so "
              "calls to it may not use the count, for_each, or depends_on arguments.\n\nIf you "
              "also control the module " +
              uni::go_quote(parent_call->source) +
              ", consider updating this module to instead expect provider configurations to be "
              "passed by its caller.",
          *no_provider_config);
  }
  // Each configuration alias the module declares must be passed in, unless
  // the module configures it itself.
  for (const auto& [rn, req] : m.required_providers) {
    for (const std::string& key : req.aliases) {
      bool passed_in =
          std::any_of(parent_call->passed_providers.begin(), parent_call->passed_providers.end(),
                      [&](const PassedProvider& p) { return p.child == key; });
      if (passed_in || has(m.configured_providers, key)) continue;
      error(diags, "Missing required provider configuration",
            "The child module requires an additional configuration for provider " +
                display(req.addr) + ", with the local name " + uni::go_quote(key) +
                ".\n\nRefer to the module's documentation to understand the intended purpose of "
                "this additional provider configuration, and then add an entry for " +
                key +
                " in the \"providers\" meta-argument in the module block to choose which "
                "provider configuration the module should use for that purpose.",
            parent_call->decl_range);
    }
  }
  // What is passed in must be something this module can use, and of the
  // type it requires. Types as resolveProviderTypes finds them: a module's
  // required_providers, else the default provider of the name.
  auto type_in = [](const ModuleData& mod, const std::string& name) {
    auto req = mod.required_providers.find(name);
    return req != mod.required_providers.end()
               ? req->second.addr
               : ProviderAddr{"registry.terraform.io", "hashicorp", name};
  };
  for (const PassedProvider& passed : parent_call->passed_providers) {
    const std::string& name = passed.child;
    std::string child_name = name.substr(0, name.find('.'));
    ProviderAddr addr = type_in(m, child_name);
    bool local = m.required_providers.count(name) != 0;
    bool alias = false;
    for (const auto& [rn, req] : m.required_providers) {
      if (has(req.aliases, name)) {
        addr = req.addr;
        alias = true;
      }
    }
    bool empty = std::any_of(m.empty_provider_configs.begin(), m.empty_provider_configs.end(),
                             [&](const auto& e) { return e.first == name; });
    if (!(local || alias || empty)) {
      if (addr.hostname == "registry.terraform.io" && addr.ns == "hashicorp") {
        warning("Reference to undefined provider",
                "There is no explicit declaration for local provider name " + uni::go_quote(name) +
                    " in " + module_text +
                    ", so Terraform is assuming you mean to pass a configuration for " +
                    uni::go_quote(display(addr)) +
                    ".\n\nIf you also control the child module, add a required_providers entry "
                    "named " +
                    uni::go_quote(name) + " with the source address " +
                    uni::go_quote(display(addr)) + ".",
                passed.child_range);
      } else {
        error(diags, "Reference to undefined provider",
              "The child module does not declare any provider requirement with the local name " +
                  uni::go_quote(name) +
                  ".\n\nIf you also control the child module, you can add a required_providers "
                  "entry named " +
                  uni::go_quote(name) + " with the source address " + uni::go_quote(display(addr)) +
                  " to accept this provider configuration.",
              passed.child_range);
      }
    }
    // The type of what the parent passes.
    ProviderAddr from = type_in(*parent, passed.parent_name);
    if (auto req = parent->required_providers.find(name); req != parent->required_providers.end())
      from = req->second.addr;
    if (same(addr, from)) continue;
    std::string other;
    for (const auto& [ln, req] : m.required_providers) {
      if (same(req.addr, from)) {
        other = ln;
        break;
      }
    }
    std::string child_name_only = name.substr(0, name.find('.'));
    if (!other.empty()) {
      error(diags, "Provider type mismatch",
            "The assigned configuration is for provider " + uni::go_quote(display(from)) +
                ", but local name " + uni::go_quote(child_name_only) + " in " + parent_text +
                " represents " + uni::go_quote(display(addr)) +
                ".\n\nTo pass this configuration to the child module, use the local name " +
                uni::go_quote(other) + " instead.",
            passed.child_range);
    } else {
      std::string in_parent = passed.parent_alias.empty()
                                  ? passed.parent_name
                                  : passed.parent_name + "." + passed.parent_alias;
      error(diags, "Provider type mismatch",
            "The local name " + uni::go_quote(in_parent) + " in " + parent_text +
                " represents provider " + uni::go_quote(display(from)) + ", but " +
                uni::go_quote(name) + " in " + module_text + " represents " +
                uni::go_quote(display(addr)) +
                ".\n\nEach provider has its own distinct configuration schema and provider "
                "types, so this module's " +
                uni::go_quote(name) + " can be assigned only a configuration for " + display(addr) +
                ", which is not required by " + module_text + ".",
            passed.parent_range);
    }
  }
  // Empty provider blocks (proxy configurations): one warning for each
  // provider, at the block whose range sorts first.
  std::map<std::string, std::vector<std::pair<std::string, Range>>> empty;
  for (const auto& [key, range] : m.empty_provider_configs)
    empty[key.substr(0, key.find('.'))].emplace_back(key, range);
  for (auto& [name, configs] : empty) {
    // addrs.NewDefaultProvider, unless required_providers names the block.
    ProviderAddr a{"registry.terraform.io", "hashicorp", name};
    bool aliased = false;
    for (const auto& [key, range] : configs) {
      if (key != name) aliased = true;
      if (auto req = m.required_providers.find(key); req != m.required_providers.end())
        a = req->second.addr;
    }
    std::string source = a.hostname == "registry.terraform.io"
                             ? a.ns + "/" + a.type
                             : a.hostname + "/" + a.ns + "/" + a.type;
    std::string detail =
        "Earlier versions of Terraform used empty provider blocks (\"proxy provider "
        "configurations\") for child modules to declare their need to be passed a provider "
        "configuration by their callers. That approach was ambiguous and is now deprecated.\n\n"
        "If you control this module, you can migrate to the new declaration syntax by removing "
        "all of the empty provider " +
        uni::go_quote(name) +
        " blocks and then adding or updating an entry like the following to the "
        "required_providers block of " +
        module_text + ":\n    " + name + " = {\n      source = " + uni::go_quote(source) + "\n";
    if (aliased) {
      std::vector<std::string> keys;
      for (const auto& [key, range] : configs) keys.push_back(key);
      std::sort(keys.begin(), keys.end());
      detail += "      configuration_aliases = [\n";
      for (const std::string& k : keys) detail += "        " + k + ",\n";
      detail += "      ]\n";
    }
    detail += "    }";
    std::sort(configs.begin(), configs.end(), [](const auto& x, const auto& y) {
      return range_string(x.second) < range_string(y.second);
    });
    Diagnostic w;
    w.severity = Severity::Warning;
    w.summary = "Redundant empty provider block";
    w.detail = std::move(detail);
    w.subject = configs.front().second;
    diags.push_back(std::move(w));
  }
}

// ProviderTransformer: a resource whose `provider` names an aliased
// configuration that its module neither declares nor is passed has none
// ("Provider configuration not present", an error without a place, each
// resource's once).
void check_provider_configs(const ModuleData& m, Diagnostics& diags,
                            const ModuleCall* parent_call = nullptr) {
  std::string prefix;
  for (const std::string& p : m.path) prefix += "module." + p + ".";
  for (const Resource& r : m.resources) {
    if (r.provider_alias.empty()) continue;
    std::string key = r.provider_name + "." + r.provider_alias;
    bool declared = std::any_of(m.configured_providers.begin(), m.configured_providers.end(),
                                [&](const std::string& k) { return k == key; }) ||
                    std::any_of(m.empty_provider_configs.begin(), m.empty_provider_configs.end(),
                                [&](const auto& e) { return e.first == key; });
    bool passed =
        parent_call != nullptr &&
        std::any_of(parent_call->passed_providers.begin(), parent_call->passed_providers.end(),
                    [&](const PassedProvider& p) { return p.child == key; });
    if (declared || passed) continue;
    auto req = m.required_providers.find(r.provider_name);
    ProviderAddr a =
        req != m.required_providers.end() ? req->second.addr : implied_provider(r.provider_name);
    std::string vertex = prefix + r.address();
    Diagnostic d;
    d.severity = Severity::Error;
    d.summary = "Provider configuration not present";
    d.detail = "To work with " + vertex + " its original provider configuration at " + prefix +
               "provider[\"" + a.hostname + "/" + a.ns + "/" + a.type + "\"]." + r.provider_alias +
               " is required, but it has been removed. This occurs when a provider configuration "
               "is removed while objects created by that provider still exist in the state. "
               "Re-add the provider configuration to destroy " +
               vertex + ", after which you can remove the provider configuration again.";
    diags.push_back(std::move(d));
  }
  for (const auto& [name, c] : m.calls)
    if (c.child) check_provider_configs(*c.child, diags, &c);
}

// The address of the provider that [m] names [name] (ProviderForLocalConfig).
ProviderAddr local_provider(const ModuleData& m, const std::string& name) {
  auto req = m.required_providers.find(name);
  return req != m.required_providers.end() ? req->second.addr : implied_provider(name);
}

// A provider configuration's address as Terraform prints it:
// module.a.provider["registry.terraform.io/hashicorp/aws"].west.
std::string provider_config_addr(const ProviderAddr& a, const std::vector<std::string>& path,
                                 std::string_view alias) {
  std::string s;
  for (const std::string& p : path) s += "module." + p + ".";
  s += "provider[\"" + a.hostname + "/" + a.ns + "/" + a.type + "\"]";
  if (!alias.empty()) s += "." + std::string(alias);
  return s;
}

// ProviderConfigTransformer, for [m] (called by [call]) and then its
// children in name order: registers in [have] the provider configurations
// of [m] (the root's required providers without a default block, its
// provider blocks, and what [call] passes it), checking that each one
// [call] passes exists in the caller. False at the first that does not,
// with Terraform's error, which stops the graph.
bool check_passed_providers(const ModuleData& m, const ModuleCall* call, const ModuleData* parent,
                            std::set<std::string>& have, Diagnostics& diags) {
  auto split = [](const std::string& key) {
    size_t dot = key.find('.');
    return dot == std::string::npos ? std::pair{key, std::string()}
                                    : std::pair{key.substr(0, dot), key.substr(dot + 1)};
  };
  if (m.path.empty()) {
    for (const auto& entry : m.required_providers) {
      const std::string& name = entry.first;
      bool configured =
          std::find(m.configured_providers.begin(), m.configured_providers.end(), name) !=
              m.configured_providers.end() ||
          std::any_of(m.empty_provider_configs.begin(), m.empty_provider_configs.end(),
                      [&](const auto& e) { return e.first == name; });
      if (!configured) have.insert(provider_config_addr(entry.second.addr, m.path, ""));
    }
  }
  auto add = [&](const std::string& key) {
    auto [name, alias] = split(key);
    have.insert(provider_config_addr(local_provider(m, name), m.path, alias));
  };
  for (const std::string& key : m.configured_providers) add(key);
  for (const auto& [key, range] : m.empty_provider_configs) add(key);
  if (call != nullptr) {
    for (const PassedProvider& p : call->passed_providers) {
      auto [name, alias] = split(p.child);
      ProviderAddr a = local_provider(m, name);
      std::string in_parent = provider_config_addr(a, parent->path, p.parent_alias);
      if (!have.contains(in_parent)) {
        Diagnostic d;
        d.severity = Severity::Error;
        d.summary = "missing provider " + in_parent;
        diags.push_back(std::move(d));
        return false;
      }
      have.insert(provider_config_addr(a, m.path, alias));
    }
  }
  for (const auto& [name, c] : m.calls)
    if (c.child && !check_passed_providers(*c.child, &c, &m, have, diags)) return false;
  return true;
}

// Finishes a Terraform load of [m]: references, the plan.
LoadResult finish(std::shared_ptr<ModuleData> m, Sources sources, Diagnostics diags) {
  // Loading evaluates expressions without a context (defaults, sources,
  // versions): Terraform has no statements about their values to show
  // (only about traversals of two steps or more that the context holds),
  // so the evaluator's own ones go.
  for (Diagnostic& d : diags) d.expression_values.clear();
  LoadResult r;
  r.sources = std::move(sources);
  if (m != nullptr && !has_errors(diags) && m->language == Language::Terraform)
    validate_provider_configs(*m, diags);
  if (m == nullptr || has_errors(diags)) {
    r.diagnostics = std::move(diags);
    return r;
  }
  Diagnostics graph;
  analyze_tree(*m, graph);
  m->plan = build_plan(*m, graph);
  // Building the graph stops at a configuration passed to a module that
  // its caller does not have: that error alone.
  std::set<std::string> have;
  Diagnostics missing;
  if (!check_passed_providers(*m, nullptr, nullptr, have, missing)) graph = std::move(missing);
  if (!has_errors(graph)) check_provider_configs(*m, graph);
  m->graph_diags = std::move(graph);
  m->sources = r.sources;
  r.diagnostics = std::move(diags);
  r.module = std::make_shared<Module>(std::move(m));
  return r;
}

}  // namespace
}  // namespace detail

LoadResult load_module(const std::string& dir, const LoadOptions& options) {
  Language lang = options.language.value_or(detail::looks_like_packer(dir) ? Language::Packer
                                                                           : Language::Terraform);
  if (lang == Language::Packer) return detail::load_packer({}, dir, options);
  Sources sources;
  Diagnostics diags;
  std::string shown = options.display_dir.value_or(".");
  auto m = detail::load_dir(dir, shown, {}, options, sources, diags);
  return detail::finish(std::move(m), std::move(sources), std::move(diags));
}

LoadResult load_files(const std::vector<std::string>& files, const LoadOptions& options) {
  bool packer = false;
  for (const std::string& f : files) packer |= f.ends_with(".pkr.hcl") || f.ends_with(".pkr.json");
  std::string dir = files.empty() ? "." : std::filesystem::path(files[0]).parent_path().string();
  if (dir.empty()) dir = ".";
  if (options.language.value_or(packer ? Language::Packer : Language::Terraform) ==
      Language::Packer)
    return detail::load_packer(files, dir, options);
  Sources sources;
  Diagnostics diags;
  auto m = std::make_shared<detail::ModuleData>();
  m->dir = options.display_dir.value_or(".");
  m->fs_dir = dir;
  std::vector<detail::FileDecls> prim, overs;
  for (const std::string& path : files) {
    std::string name = std::filesystem::path(path).filename().string();
    std::string base = name;
    if (base.ends_with(".tf.json")) base.resize(base.size() - 8);
    else if (base.ends_with(".tf")) base.resize(base.size() - 3);
    detail::DirFile f{path, path, base == "override" || base.ends_with("_override")};
    ConfigFile cf;
    detail::FileDecls decls;
    if (detail::parse_file(f, options, sources, cf, diags))
      detail::decode_file(cf.body, f.override, decls, diags);
    (f.override ? overs : prim).push_back(std::move(decls));
  }
  detail::build_module(*m, prim, overs, diags);
  if (!has_errors(diags)) detail::load_children(*m, options, sources, diags);
  return detail::finish(std::move(m), std::move(sources), std::move(diags));
}

}  // namespace hclvm::config
