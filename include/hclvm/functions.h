// The function library: go-cty's standard functions as the reference's
// own tools provide them, and Terraform's (and Packer's) library over
// them, built as FunctionTables (hclvm/function.h) that an embedder
// starts from and changes freely.
//
//   hclvm::LibraryOptions o;
//   o.base_dir = "/srv/config";                // file(), templatefile()...
//   ctx.set_functions(std::make_shared<const hclvm::FunctionTable>(hclvm::standard_functions(o)));
#pragma once

#include <string>
#include <vector>

#include <hclvm/function.h>

namespace hclvm {

// The functions of the reference's own tools (hcldec's evaluation tests,
// gohcl-bench): go-cty's stdlib under Terraform's names, with Terraform's
// length(). Where Terraform's functions differ from go-cty's (coalesce,
// lookup, replace with a /regex/...), these are go-cty's.
FunctionTable default_functions();

// What the standard library may do beyond computing with its arguments.
struct LibraryOptions {
  // The directory the filesystem functions (abspath, pathexpand, file,
  // fileexists, fileset, filebase64, the file hashes, templatefile) work
  // under: relative paths are joined to it, and a path that leads outside
  // it (after `..` and symbolic links) is an error. Empty: those functions
  // are left out. basename and dirname are always there.
  std::string base_dir;
  // Whether reads are confined to base_dir; false lets a path lead
  // anywhere (Terraform's own behaviour), relative paths still joined to it.
  bool confine = true;
  // The environment variables Packer's env() may read; env is there only
  // with [packer] and a non-empty list.
  std::vector<std::string> env_allow;
  // Whether the impure functions (timestamp, uuid, bcrypt, and Packer's
  // legacy_isotime and legacy_strftime) are included.
  bool impure = true;
  // Whether Packer's extras (env as above, legacy_isotime, legacy_strftime)
  // are included.
  bool packer = false;
  // Whether every function is also there as `core::NAME`, as Terraform
  // (1.8 and later) provides its built-ins in the core namespace beside
  // provider-defined functions.
  bool core_namespace = true;
};

// The standard library: Terraform's function table (hashicorp/terraform's
// internal/lang/functions.go, its own functions where they differ from
// go-cty's), restricted or extended as [opts] says. Start from it and
// add, remove or replace functions freely: tables are values.
FunctionTable standard_functions(const LibraryOptions& opts = {});

}  // namespace hclvm
