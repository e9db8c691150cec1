// Digests and the byte encodings around them, shared by the hash functions
// (md5, sha1, sha256, sha512, base64sha256, base64sha512), the filesystem
// functions that hash or encode a file's contents (filemd5, filesha1,
// filesha256, filesha512, filebase64sha256, filebase64sha512, filebase64),
// and the encoding functions. Digests come from OpenSSL's libcrypto; the
// base64 codec is Go's encoding/base64 StdEncoding, whose error offsets
// the functions' messages quote.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace hclvm::funcs {

enum class HashKind { Md5, Sha1, Sha256, Sha512 };

// The raw digest of [bytes].
std::string hash_bytes(HashKind kind, std::string_view bytes);

// A digest computed piece by piece (a file read in chunks).
class Hasher {
 public:
  explicit Hasher(HashKind kind);
  ~Hasher();
  Hasher(const Hasher&) = delete;
  Hasher& operator=(const Hasher&) = delete;

  void update(std::string_view bytes);
  // The raw digest of everything given to update(); call once.
  std::string finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// [bytes] as lowercase hexadecimal digits (Go's hex.EncodeToString).
std::string hex_encode(std::string_view bytes);

// [bytes] in the standard base64 alphabet with padding (Go's
// base64.StdEncoding.EncodeToString).
std::string base64_encode(std::string_view bytes);

// Decodes [text] as Go's base64.StdEncoding.DecodeString does: padding is
// required, "\r" and "\n" are skipped anywhere, and the first bad symbol
// stops it. Returns true with the bytes in [out], or false with [bad_offset]
// set to the offset Go's CorruptInputError reports.
bool base64_decode(std::string_view text, std::string& out, size_t& bad_offset);

// bcrypt's hash of [password] at [cost] (4 to 31) with the salt [salt]
// (bcrypt's base64 of 16 bytes: 22 characters), in the Modular Crypt
// Format Go's x/crypto/bcrypt writes: "$2a$", the cost, "$", the salt and
// the hash. Its 2^cost rounds count as steps before the first starts, and
// each checks the run's deadline and cancel flag (util/budget.h).
std::string bcrypt_hash(std::string_view password, int cost, std::string_view salt);

}  // namespace hclvm::funcs
