// The compiled form of a JSON value (JsonProgram of hclvm/json_syntax.h):
// the postfix program lower_json.cpp makes and run_json runs, shared with
// the compiled-file format (src/cache/), which writes and reads it.
#pragma once

#include <hclvm/json_program.h>
#include <hclvm/json_syntax.h>

#include <memory>
#include <vector>

#include "vm/program.h"

namespace hclvm {

// A template inside a string.
struct JsonTemplate {
  Value literal;              // the string itself (literal-only mode)
  Diagnostics parse_diags;    // full mode: what parsing the template reported
  bool failed = false;        // ... with errors: the value is DynamicVal
  std::shared_ptr<const Program> program;  // else its code
};

class JsonProgram {
 public:
  enum class OpKind : uint8_t { Const, Template, Tuple, ObjBegin, Prop, ObjEnd };
  struct Op {
    OpKind kind;
    uint32_t a;
  };

  std::vector<Op> ops;
  std::vector<Value> constants;
  std::vector<JsonTemplate> templates;
  std::vector<Range> names;  // Prop: the property name's range
};

}  // namespace hclvm
