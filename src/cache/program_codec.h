// Programs on disk: writing a compiled Program into a cache file and
// reading it back (program_codec.cpp), and checking that a program read
// from a file is one the VM can run safely (verify.cpp).
#pragma once

#include <memory>
#include <string>

#include "cache/codec.h"
#include "vm/program.h"

namespace hclvm::cache {

// Writes [p] (everything but its source and what link() derives) into
// [w], with its names, types and constants in [tables]. False when the
// program holds a constant the format cannot (a marked value, a refined
// unknown, a capsule); the file is then not cached.
bool write_program(ByteWriter& w, TableWriter& tables, const Program& p);

// Reads a program written by write_program, for [source] (which its spans
// point into), verifies it and links it. Null, with [r] failed and its
// reason, when the bytes are malformed or the program does not verify.
std::shared_ptr<Program> read_program(ByteReader& r, const TableReader& tables,
                                      std::shared_ptr<const Source> source);

// Checks everything the VM takes on trust in [p] (see verify.cpp); returns
// "" when it may run, else what is wrong ("jump target 17 is inside an
// instruction"). [source_size] bounds its spans.
std::string verify_program(const Program& p, size_t source_size);

}  // namespace hclvm::cache
