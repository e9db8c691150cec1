// The byte-level pieces of the compiled-file format (see codec.h).
#include "cache/codec.h"

#include <xxhash.h>

#include <algorithm>

#include "util/unicode.h"
#include "value/number.h"

namespace hclvm::cache {

namespace {

// Type tags.
enum TypeTag : uint8_t {
  kTDynamic, kTString, kTNumber, kTBool, kTList, kTSet, kTMap, kTObject, kTTuple, kNumTypeTags
};

// Value tags.
enum ValueTag : uint8_t {
  kVNull,      // type
  kVUnknown,   // type (no refinements)
  kVFalse,
  kVTrue,
  kVNumber,    // exact text (value/number.h)
  kVString,    // string index
  kVList,      // element type, count, values
  kVSet,       // element type, count, values
  kVMap,       // element type, count, (key string index, value)...
  kVTuple,     // count, values
  kVObject,    // type, values in its attribute order
  kVRefined,   // type, refinement flags, then the refinements present
  kNumValueTags
};

// How deeply values may nest in a file (constants are folded literals).
constexpr int kMaxValueDepth = 512;

}  // namespace

// --- bytes --------------------------------------------------------------------

std::string hash128(std::string_view bytes) {
  XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  std::string out(16, '\0');
  for (int i = 0; i < 8; ++i) {
    out[size_t(i)] = char(h.low64 >> (8 * i));
    out[size_t(8 + i)] = char(h.high64 >> (8 * i));
  }
  return out;
}

void ByteWriter::u32(uint32_t v) {
  for (int i = 0; i < 4; ++i) u8(uint8_t(v >> (8 * i)));
}

void ByteWriter::u64(uint64_t v) {
  for (int i = 0; i < 8; ++i) u8(uint8_t(v >> (8 * i)));
}

void ByteWriter::long_varint(uint64_t v) {
  char buf[10];
  size_t n = 0;
  while (v >= 0x80) {
    buf[n++] = char(v | 0x80);
    v >>= 7;
  }
  buf[n++] = char(v);
  out_.append(buf, n);
}

bool ByteReader::fail(const std::string& why) {
  if (error_.empty()) error_ = why + " at byte " + std::to_string(offset());
  at_ = in_.size();
  return false;
}

uint8_t ByteReader::u8() {
  if (at_ >= in_.size()) {
    fail("unexpected end of data");
    return 0;
  }
  return uint8_t(in_[at_++]);
}

uint32_t ByteReader::u32() {
  if (remaining() < 4) {
    fail("unexpected end of data");
    return 0;
  }
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= uint32_t(uint8_t(in_[at_ + size_t(i)])) << (8 * i);
  at_ += 4;
  return v;
}

uint64_t ByteReader::u64() {
  if (remaining() < 8) {
    fail("unexpected end of data");
    return 0;
  }
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t(uint8_t(in_[at_ + size_t(i)])) << (8 * i);
  at_ += 8;
  return v;
}

uint64_t ByteReader::long_varint() {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (at_ >= in_.size()) {
      fail("unexpected end of data");
      return 0;
    }
    uint8_t b = uint8_t(in_[at_++]);
    // The tenth byte may hold only the top bit.
    if (shift == 63 && b > 1) break;
    v |= uint64_t(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
  fail("malformed varint");
  return 0;
}

uint32_t ByteReader::index_failed(uint64_t v, uint64_t limit, const char* what) {
  if (ok())
    fail(std::string(what) + " " + std::to_string(v) + " out of range (" + std::to_string(limit) +
         ")");
  return 0;
}

uint32_t ByteReader::count_failed(uint64_t v, const char* what) {
  if (ok()) fail(std::string(what) + " " + std::to_string(v) + " larger than the data left");
  return 0;
}

std::string_view ByteReader::bytes(size_t n) {
  if (n > remaining()) {
    fail("unexpected end of data");
    return {};
  }
  std::string_view b = in_.substr(at_, n);
  at_ += n;
  return b;
}

// --- tables -------------------------------------------------------------------

std::string_view TableReader::text(ByteReader& r) const {
  uint32_t i = r.index(strings_.size(), "string index");
  if (!r.ok()) return {};
  if (!utf8_[i]) {
    r.fail("string " + std::to_string(i) + " is not valid UTF-8");
    return {};
  }
  return strings_[i];
}

uint32_t TableWriter::string(std::string_view s) {
  auto [it, added] = string_index_.try_emplace(std::string(s), uint32_t(strings_.size()));
  if (added) strings_.emplace_back(s);
  return it->second;
}

bool TableWriter::type(const Type* t, uint32_t& index) {
  if (auto it = type_index_.find(t); it != type_index_.end()) {
    index = it->second;
    return true;
  }
  // Parts first, so that every type refers to earlier ones only.
  std::vector<uint32_t> parts;
  switch (t->kind()) {
    case TypeKind::List:
    case TypeKind::Set:
    case TypeKind::Map: {
      uint32_t e;
      if (!type(t->element(), e)) return false;
      parts.push_back(e);
      break;
    }
    case TypeKind::Object:
    case TypeKind::Tuple:
      for (size_t i = 0; i < t->size(); ++i) {
        if (t->is_object() && !uni::valid_utf8(t->attr_name(i))) return false;
        uint32_t e;
        if (!type(t->is_object() ? t->attr_type(i) : t->tuple_element(i), e)) return false;
        parts.push_back(e);
      }
      break;
    case TypeKind::Capsule: return false;
    default: break;
  }
  switch (t->kind()) {
    case TypeKind::Dynamic: types_.u8(kTDynamic); break;
    case TypeKind::String: types_.u8(kTString); break;
    case TypeKind::Number: types_.u8(kTNumber); break;
    case TypeKind::Bool: types_.u8(kTBool); break;
    case TypeKind::List: types_.u8(kTList), types_.varint(parts[0]); break;
    case TypeKind::Set: types_.u8(kTSet), types_.varint(parts[0]); break;
    case TypeKind::Map: types_.u8(kTMap), types_.varint(parts[0]); break;
    case TypeKind::Object:
      types_.u8(kTObject);
      types_.varint(t->size());
      for (size_t i = 0; i < t->size(); ++i) {
        types_.varint(string(t->attr_name(i)));
        types_.varint(parts[i]);
        types_.u8(t->attr_optional(i) ? 1 : 0);
      }
      break;
    case TypeKind::Tuple:
      types_.u8(kTTuple);
      types_.varint(t->size());
      for (uint32_t p : parts) types_.varint(p);
      break;
    case TypeKind::Capsule: return false;
  }
  index = num_types_++;
  type_index_.emplace(t, index);
  return true;
}

bool TableWriter::value(ByteWriter& w, const Value& v) {
  if (v.is_marked()) return false;
  uint32_t t;
  if (v.rep() == Value::Rep::TypeOnly) {
    if (!type(v.type(), t)) return false;
    w.u8(v.is_null() ? kVNull : kVUnknown);
    w.varint(t);
    return true;
  }
  switch (v.rep()) {
    case Value::Rep::Bool: w.u8(v.as_bool() ? kVTrue : kVFalse); return true;
    case Value::Rep::SmallNum:
    case Value::Rep::BigNum:
      w.u8(kVNumber);
      w.str(num::encode_exact(v.as_number()));
      return true;
    case Value::Rep::String:
      if (!uni::valid_utf8(v.as_string())) return false;
      w.u8(kVString);
      w.varint(string(v.as_string()));
      return true;
    case Value::Rep::Seq: {
      const Type* ty = v.type();
      if (ty->is_tuple()) {
        w.u8(kVTuple);
      } else {
        if (!type(ty->element(), t)) return false;
        w.u8(ty->is_set() ? kVSet : kVList);
        w.varint(t);
      }
      w.varint(v.length());
      for (const Value& e : v.elements())
        if (!value(w, e)) return false;
      return true;
    }
    case Value::Rep::Map:
      if (!type(v.type()->element(), t)) return false;
      w.u8(kVMap);
      w.varint(t);
      w.varint(v.length());
      for (size_t i = 0; i < v.length(); ++i) {
        if (!uni::valid_utf8(v.map_key(i))) return false;
        w.varint(string(v.map_key(i)));
        if (!value(w, v.map_value(i))) return false;
      }
      return true;
    case Value::Rep::Object:
      if (!type(v.type(), t)) return false;
      w.u8(kVObject);
      w.varint(t);
      for (size_t i = 0; i < v.type()->size(); ++i)
        if (!value(w, v.attr(i))) return false;
      return true;
    case Value::Rep::Unknown: {
      const Refinement& rf = v.refinement();
      if (!uni::valid_utf8(rf.prefix) || !type(v.type(), t)) return false;
      w.u8(kVRefined);
      w.varint(t);
      uint8_t flags = uint8_t((rf.not_null ? 1 : 0) | (rf.has_lower ? 2 : 0) |
                              (rf.has_upper ? 4 : 0) | (rf.lower_inclusive ? 8 : 0) |
                              (rf.upper_inclusive ? 16 : 0));
      w.u8(flags);
      w.str(rf.prefix);
      if (rf.has_lower) w.str(num::encode_exact(rf.lower));
      if (rf.has_upper) w.str(num::encode_exact(rf.upper));
      w.varint(rf.min_length);
      w.varint(rf.max_length);
      return true;
    }
    default: return false;  // capsules
  }
}

void TableWriter::write(ByteWriter& w) const {
  w.varint(strings_.size());
  for (const std::string& s : strings_) w.str(s);
  w.varint(num_types_);
  ByteWriter& types = const_cast<ByteWriter&>(types_);
  w.bytes(types.buffer());
}

bool TableReader::read(ByteReader& r) {
  uint32_t n = r.count(1, "string count");
  strings_.reserve(n);
  utf8_.reserve(n);
  for (uint32_t i = 0; i < n && r.ok(); ++i) {
    strings_.push_back(r.str());
    utf8_.push_back(uni::valid_utf8(strings_.back()));
  }
  n = r.count(1, "type count");
  types_.reserve(n);
  for (uint32_t i = 0; i < n && r.ok(); ++i) {
    uint8_t tag = r.u8();
    const Type* t = Type::dynamic();
    switch (tag) {
      case kTDynamic: break;
      case kTString: t = Type::string(); break;
      case kTNumber: t = Type::number(); break;
      case kTBool: t = Type::boolean(); break;
      case kTList: t = Type::list(type(r)); break;
      case kTSet: t = Type::set(type(r)); break;
      case kTMap: t = Type::map(type(r)); break;
      case kTObject: {
        uint32_t size = r.count(3, "object type size");
        std::vector<TypeAttr> attrs;
        attrs.reserve(size);
        for (uint32_t a = 0; a < size && r.ok(); ++a) {
          std::string_view name = text(r);
          const Type* at = type(r);
          uint8_t optional = r.u8();
          if (optional > 1) r.fail("bad optional flag");
          // Names sorted and distinct, as Type::object requires.
          if (!attrs.empty() && !(attrs.back().name < name)) r.fail("object attributes out of order");
          attrs.push_back({name, at, optional == 1});
        }
        if (r.ok()) t = Type::object(attrs);
        break;
      }
      case kTTuple: {
        uint32_t size = r.count(1, "tuple type size");
        std::vector<const Type*> elems;
        elems.reserve(size);
        for (uint32_t e = 0; e < size && r.ok(); ++e) elems.push_back(type(r));
        if (r.ok()) t = Type::tuple(elems);
        break;
      }
      default: r.fail("unknown type tag " + std::to_string(tag));
    }
    types_.push_back(t);
  }
  return r.ok();
}

Value TableReader::value(ByteReader& r, int depth) const {
  if (depth > kMaxValueDepth) {
    r.fail("values nested too deeply");
    return Value();
  }
  uint8_t tag = r.u8();
  switch (tag) {
    case kVNull: return Value::null(type(r));
    case kVUnknown: return Value::unknown(type(r));
    case kVFalse: return Value::boolean(false);
    case kVTrue: return Value::boolean(true);
    case kVNumber: {
      std::optional<Number> n = num::decode_exact(r.str());
      if (!n) {
        r.fail("malformed number");
        return Value();
      }
      return Value::number(std::move(*n));
    }
    case kVString: return Value::string(text(r));
    case kVList:
    case kVSet: {
      const Type* et = type(r);
      uint32_t n = r.count(1, "collection length");
      std::vector<Value> elems;
      elems.reserve(n);
      for (uint32_t i = 0; i < n && r.ok(); ++i) {
        elems.push_back(value(r, depth + 1));
        if (r.ok() && elems.back().type() != et)
          r.fail("collection element of the wrong type");
      }
      if (!r.ok()) return Value();
      return tag == kVList ? Value::list(et, std::move(elems)) : Value::set(et, std::move(elems));
    }
    case kVMap: {
      const Type* et = type(r);
      uint32_t n = r.count(2, "map length");
      std::vector<std::pair<std::string, Value>> entries;
      entries.reserve(n);
      for (uint32_t i = 0; i < n && r.ok(); ++i) {
        std::string_view key = text(r);
        Value v = value(r, depth + 1);
        if (r.ok() && v.type() != et)
          r.fail("map element of the wrong type");
        if (!entries.empty() && !(entries.back().first < key)) r.fail("map keys out of order");
        entries.emplace_back(std::string(key), std::move(v));
      }
      if (!r.ok()) return Value();
      return Value::map(et, std::move(entries));
    }
    case kVTuple: {
      uint32_t n = r.count(1, "tuple length");
      std::vector<Value> elems;
      elems.reserve(n);
      for (uint32_t i = 0; i < n && r.ok(); ++i) elems.push_back(value(r, depth + 1));
      if (!r.ok()) return Value();
      return Value::tuple(std::move(elems));
    }
    case kVObject: {
      const Type* t = type(r);
      if (r.ok() && !t->is_object()) r.fail("object value of a type that is no object");
      if (!r.ok()) return Value();
      std::vector<Value> vals;
      vals.reserve(t->size());
      for (size_t i = 0; i < t->size() && r.ok(); ++i) {
        vals.push_back(value(r, depth + 1));
        const Type* at = t->attr_type(i);
        if (r.ok() && vals.back().type() != at)
          r.fail("object attribute of the wrong type");
      }
      if (!r.ok()) return Value();
      return Value::object(t, std::move(vals));
    }
    case kVRefined: {
      const Type* t = type(r);
      Refinement rf;
      uint8_t flags = r.u8();
      if (flags > 31) r.fail("bad refinement flags");
      rf.not_null = flags & 1, rf.has_lower = flags & 2, rf.has_upper = flags & 4;
      rf.lower_inclusive = flags & 8, rf.upper_inclusive = flags & 16;
      rf.prefix = std::string(r.str());
      if (!uni::valid_utf8(rf.prefix)) r.fail("refinement prefix is not valid UTF-8");
      auto bound = [&](Number& out) {
        std::optional<Number> n = num::decode_exact(r.str());
        if (n)
          out = std::move(*n);
        else
          r.fail("malformed refinement bound");
      };
      if (rf.has_lower) bound(rf.lower);
      if (rf.has_upper) bound(rf.upper);
      rf.min_length = r.varint();
      rf.max_length = r.varint();
      if (!r.ok()) return Value();
      return Value::unknown(t, std::move(rf));
    }
    default: r.fail("unknown value tag " + std::to_string(tag)); return Value();
  }
}

}  // namespace hclvm::cache
