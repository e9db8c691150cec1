// What a lossless tree keeps besides its nodes: the scanner's tokens and
// the parse whose spans the nodes were cut from. Shared by tree.cpp, which
// builds it, and edit.cpp, which reads tokens to decide where edits go.
#pragma once

#include <hclvm/format.h>

#include "syntax/token.h"

namespace hclvm::format {

struct Tree::Impl {
  syntax::Tokens toks;
  FileParse parse;
};

}  // namespace hclvm::format
