// The byte-level pieces of the compiled-file format (docs/cache-format.md):
// a writer and a reader of little-endian integers, LEB128 varints and
// length-prefixed strings, and the tables that compiled files share within
// one cache file: strings (names, attribute names, string constants) and
// types, each written once and referred to by index.
//
// The reader never trusts what it reads: every read is bounds-checked, the
// first failure is kept with a reason ("truncated string at byte 812") and
// later reads return zeros, so a decoder can read a whole record and check
// ok() once. Values and types are decoded through the public constructors
// (Value::list, Type::object...), so what comes back is as well-formed as
// anything built in memory.
#pragma once

#include <hclvm/type.h>
#include <hclvm/value.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hclvm::cache {

// The 16 bytes of the XXH3 128-bit hash of [bytes], low half first: the
// format's content hashes and checksum.
std::string hash128(std::string_view bytes);

class ByteWriter {
 public:
  void u8(uint8_t v) { out_.push_back(char(v)); }
  void u32(uint32_t v);
  void u64(uint64_t v);
  // An unsigned number in 7-bit groups, low first (one byte below 128:
  // most of a program's operands, written inline).
  void varint(uint64_t v) {
    if (v < 0x80) out_.push_back(char(v));
    else long_varint(v);
  }
  // A signed number, zigzag-encoded so that small negatives stay short.
  void svarint(int64_t v) { varint((uint64_t(v) << 1) ^ uint64_t(v >> 63)); }
  void bytes(std::string_view b) { out_.append(b); }
  // A varint length, then the bytes.
  void str(std::string_view s) {
    varint(s.size());
    bytes(s);
  }
  size_t size() const { return out_.size(); }
  std::string& buffer() { return out_; }
  std::string take() { return std::move(out_); }

 private:
  void long_varint(uint64_t v);

  std::string out_;
};

class ByteReader {
 public:
  ByteReader(std::string_view in, size_t base = 0) : in_(in), base_(base) {}

  uint8_t u8();
  uint32_t u32();
  uint64_t u64();
  // A varint: one byte below 128 (most of them) read inline.
  uint64_t varint() {
    if (at_ < in_.size() && !(uint8_t(in_[at_]) & 0x80)) return uint8_t(in_[at_++]);
    return long_varint();
  }
  int64_t svarint() {
    uint64_t u = varint();
    return int64_t(u >> 1) ^ -int64_t(u & 1);
  }
  // A varint that must be below [limit] (an index or a count); [what]
  // names it in the failure.
  uint32_t index(uint64_t limit, const char* what) {
    uint64_t v = varint();
    return v < limit ? uint32_t(v) : index_failed(v, limit, what);
  }
  // A count of items each at least [min_bytes] long, which the rest of
  // the input must be able to hold (so that no hostile count makes a
  // decoder reserve memory the file cannot back).
  uint32_t count(size_t min_bytes, const char* what) {
    uint64_t v = varint();
    if (v <= remaining() && (min_bytes <= 1 || v <= remaining() / min_bytes) && v <= UINT32_MAX)
      return uint32_t(v);
    return count_failed(v, what);
  }
  std::string_view bytes(size_t n);
  std::string_view str() { return bytes(count(1, "string length")); }

  bool ok() const { return error_.empty(); }
  bool at_end() const { return at_ == in_.size(); }
  size_t remaining() const { return in_.size() - at_; }
  size_t offset() const { return base_ + at_; }
  const std::string& error() const { return error_; }
  // Records the first failure, [why] at the current offset; returns false.
  bool fail(const std::string& why);

 private:
  uint64_t long_varint();
  uint32_t index_failed(uint64_t v, uint64_t limit, const char* what);
  uint32_t count_failed(uint64_t v, const char* what);

  std::string_view in_;
  size_t base_;
  size_t at_ = 0;
  std::string error_;
};

// The strings and types of one cache file, as the writer collects them.
class TableWriter {
 public:
  uint32_t string(std::string_view s);
  // The index of [t]; false for a type the format cannot hold (capsules,
  // objects with an attribute name that is not valid UTF-8).
  bool type(const Type* t, uint32_t& index);
  // Writes [v] into [w]: false for values the format cannot hold (marked
  // values, capsules, strings, keys or attribute names that are not valid
  // UTF-8, which the reader refuses), which the caller then does not cache.
  bool value(ByteWriter& w, const Value& v);

  // Writes both tables: strings, then types (each referring to earlier ones).
  void write(ByteWriter& w) const;

 private:
  std::vector<std::string> strings_;
  std::unordered_map<std::string, uint32_t> string_index_;
  ByteWriter types_;
  uint32_t num_types_ = 0;
  std::unordered_map<const Type*, uint32_t> type_index_;
};

// The tables of a cache file being read.
class TableReader {
 public:
  // Reads both tables from [r]; false (with r's reason) when malformed.
  bool read(ByteReader& r);

  const std::vector<std::string_view>& strings() const { return strings_; }
  const std::vector<const Type*>& types() const { return types_; }
  std::string_view string(ByteReader& r) const {
    uint32_t i = r.index(strings_.size(), "string index");
    return r.ok() ? strings_[i] : std::string_view();
  }
  // A string that becomes a value or a name (a string constant, a map
  // key, an attribute, variable, block type or label name): like string(),
  // but refused unless it is valid UTF-8. The compiler makes no other, and
  // what reads values (functions, JSON output) takes their strings to be
  // text. Diagnostic texts and file names are read with string(): they are
  // only printed, and a file name need not be UTF-8.
  std::string_view text(ByteReader& r) const;
  const Type* type(ByteReader& r) const {
    uint32_t i = r.index(types_.size(), "type index");
    return r.ok() ? types_[i] : Type::dynamic();
  }
  // Reads a value written by TableWriter::value; [depth] bounds nesting.
  Value value(ByteReader& r, int depth = 0) const;

 private:
  std::vector<std::string_view> strings_;
  std::vector<uint8_t> utf8_;  // whether strings_[i] is valid UTF-8
  std::vector<const Type*> types_;
};

}  // namespace hclvm::cache
