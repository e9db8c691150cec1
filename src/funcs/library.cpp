// The function library assembled: the tables of default_functions and
// standard_functions (hclvm/functions.h) from the functions each file of
// this folder defines.
#include <hclvm/functions.h>

#include <string>
#include <vector>

#include "funcs/funcs.h"

namespace hclvm {

FunctionTable default_functions() {
  // Built once; copies share the (immutable) functions.
  static const FunctionTable table = [] {
    FunctionTable t;
    funcs::add_numeric_functions(t);
    funcs::add_string_functions(t);
    funcs::add_collection_functions(t);
    funcs::add_encoding_functions(t);
    funcs::add_conversion_functions(t);
    funcs::add_general_functions(t);
    funcs::add_regex_functions(t);
    funcs::add_set_functions(t);
    funcs::add_datetime_functions(t);
    return t;
  }();
  return table;
}

FunctionTable standard_functions(const LibraryOptions& opts) {
  FunctionTable t = default_functions();
  funcs::add_terraform_functions(t, opts);
  funcs::add_terraform_encoding_functions(t, opts);
  funcs::add_yaml_functions(t, opts);
  funcs::add_crypto_functions(t, opts);
  funcs::add_filesystem_functions(t, opts);
  funcs::add_time_functions(t, opts);
  funcs::add_network_functions(t, opts);
  funcs::add_packer_functions(t, opts);
  funcs::add_templatestring_function(t);  // last: it renders with the table as it is then
  if (opts.core_namespace) {
    // The names stay valid as entries are added: the table's keys do not move.
    std::string core = "core::";
    for (std::string_view n : t.names()) {
      core.resize(6);
      core += n;
      t.alias(core, n);
    }
  }
  return t;
}

}  // namespace hclvm
