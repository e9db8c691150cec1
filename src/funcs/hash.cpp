// Hash and crypto functions, as Terraform's internal/lang/funcs/crypto.go
// defines them: md5, sha1, sha256, sha512 (hexadecimal digests of a
// string's UTF-8 bytes), base64sha256 and base64sha512, bcrypt, rsadecrypt,
// uuid and uuidv5. Digests, RSA and random bytes come from OpenSSL's
// libcrypto; bcrypt is written out here as x/crypto/bcrypt does it (OpenSSL
// has none; libxcrypt's runs to the end however long that takes), so that
// its rounds can stop at a run's deadline, with a salt from libxcrypt.
#include "funcs/hash.h"

#include <crypt.h>
#include <mpfr.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rand.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>
#include <vector>

#include "funcs/funcs.h"
#include "util/unicode.h"
#include <hclvm/functions.h>

namespace hclvm::funcs {

namespace {

const EVP_MD* digest_of(HashKind kind) {
  switch (kind) {
    case HashKind::Md5:
      return EVP_md5();
    case HashKind::Sha1:
      return EVP_sha1();
    case HashKind::Sha256:
      return EVP_sha256();
    case HashKind::Sha512:
      return EVP_sha512();
  }
  return EVP_sha256();
}

constexpr char kBase64Alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// The 6-bit value of base64 symbol [c], or -1.
int base64_value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

bool is_newline(char c) { return c == '\n' || c == '\r'; }

}  // namespace

std::string hash_bytes(HashKind kind, std::string_view bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(bytes.data(), bytes.size(), md, &n, digest_of(kind), nullptr);
  return std::string(reinterpret_cast<const char*>(md), n);
}

struct Hasher::State {
  EVP_MD_CTX* ctx = nullptr;
};

Hasher::Hasher(HashKind kind) : state_(std::make_unique<State>()) {
  state_->ctx = EVP_MD_CTX_new();
  EVP_DigestInit_ex(state_->ctx, digest_of(kind), nullptr);
}

Hasher::~Hasher() { EVP_MD_CTX_free(state_->ctx); }

void Hasher::update(std::string_view bytes) {
  EVP_DigestUpdate(state_->ctx, bytes.data(), bytes.size());
}

std::string Hasher::finish() {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_DigestFinal_ex(state_->ctx, md, &n);
  return std::string(reinterpret_cast<const char*>(md), n);
}

std::string hex_encode(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  util::check_string_size(uint64_t(bytes.size()) * 2);  // before it is built
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

std::string base64_encode(std::string_view bytes) {
  util::check_string_size((uint64_t(bytes.size()) + 2) / 3 * 4);  // before it is built
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    uint32_t v = uint32_t(uint8_t(bytes[i])) << 16 | uint32_t(uint8_t(bytes[i + 1])) << 8 |
                 uint8_t(bytes[i + 2]);
    out += kBase64Alphabet[v >> 18];
    out += kBase64Alphabet[(v >> 12) & 63];
    out += kBase64Alphabet[(v >> 6) & 63];
    out += kBase64Alphabet[v & 63];
  }
  size_t rest = bytes.size() - i;
  if (rest > 0) {
    uint32_t v = uint32_t(uint8_t(bytes[i])) << 16;
    if (rest == 2) v |= uint32_t(uint8_t(bytes[i + 1])) << 8;
    out += kBase64Alphabet[v >> 18];
    out += kBase64Alphabet[(v >> 12) & 63];
    out += rest == 2 ? kBase64Alphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

// Go decodes quantum by quantum (four symbols, newlines not counted); each
// error offset below is the one its decodeQuantum computes at that point.
bool base64_decode(std::string_view src, std::string& out, size_t& bad_offset) {
  out.clear();
  out.reserve(src.size() / 4 * 3);
  size_t si = 0;
  while (si < src.size()) {
    int sym[4] = {0, 0, 0, 0};
    int have = 4;  // symbols in this quantum
    bool trailing = false;
    for (int j = 0; j < 4; ++j) {
      if (si == src.size()) {
        if (j == 0) return true;
        bad_offset = si - size_t(j);  // the quantum is cut short: padding was required
        return false;
      }
      char in = src[si++];
      int v = base64_value(uint8_t(in));
      if (v >= 0) {
        sym[j] = v;
        continue;
      }
      if (is_newline(in)) {
        --j;
        continue;
      }
      if (in != '=' || j < 2) {
        bad_offset = si - 1;
        return false;
      }
      if (j == 2) {  // a second '=' must follow, perhaps after newlines
        while (si < src.size() && is_newline(src[si])) ++si;
        if (si == src.size()) {
          bad_offset = src.size();
          return false;
        }
        if (src[si] != '=') {
          bad_offset = si - 1;
          return false;
        }
        ++si;
      }
      while (si < src.size() && is_newline(src[si])) ++si;
      if (si < src.size()) {
        trailing = true;  // Go stores this quantum's bytes, then reports the garbage
        bad_offset = si;
      }
      have = j;
      break;
    }
    uint32_t v =
        uint32_t(sym[0]) << 18 | uint32_t(sym[1]) << 12 | uint32_t(sym[2]) << 6 | uint32_t(sym[3]);
    out += char(v >> 16);
    if (have >= 3) out += char((v >> 8) & 0xFF);
    if (have == 4) out += char(v & 0xFF);
    if (trailing) return false;
  }
  return true;
}

namespace {

// --- md5, sha1, sha256, sha512, base64sha256, base64sha512 ---------------------

Function string_hash_fn(HashKind kind, bool base64, std::string description) {
  Function f;
  f.description = std::move(description);
  f.params = {param("str", Type::string())};
  f.returns(Type::string());
  f.result_not_null = true;
  f.impl = [kind, base64](std::span<const Value> args, const Type*) {
    std::string d = hash_bytes(kind, args[0].as_string());
    return FuncResult::of(Value::string(base64 ? base64_encode(d) : hex_encode(d)));
  };
  return f;
}

// --- bcrypt -------------------------------------------------------------------

// Blowfish as x/crypto/blowfish keeps it, for bcrypt's expensive key setup.
struct Blowfish {
  uint32_t p[18];
  uint32_t s[4][256];

  uint32_t f(uint32_t x) const {
    return ((s[0][x >> 24] + s[1][(x >> 16) & 0xFF]) ^ s[2][(x >> 8) & 0xFF]) + s[3][x & 0xFF];
  }
  // Encrypts the block ([l], [r]) in place (encryptBlock).
  void encrypt(uint32_t& l, uint32_t& r) const {
    uint32_t xl = l ^ p[0], xr = r;
    for (int i = 1; i <= 16; i += 2) {
      xr ^= f(xl) ^ p[i];
      xl ^= f(xr) ^ p[i + 1];
    }
    xr ^= p[17];
    l = xr;
    r = xl;
  }
};

// The next 32-bit big-endian word of [data], cycling (getNextWord).
uint32_t next_word(std::string_view data, size_t& j) {
  uint32_t w = 0;
  for (int k = 0; k < 4; ++k) {
    w = w << 8 | uint8_t(data[j]);
    if (++j >= data.size()) j = 0;
  }
  return w;
}

// Blowfish's initial state: the fraction of pi in hexadecimal, 18 words of
// P and 1024 of S (computed once, with MPFR, rather than written out).
const Blowfish& blowfish_initial() {
  static const Blowfish init = [] {
    Blowfish b{};
    constexpr size_t kWords = 18 + 4 * 256;
    mpfr_t pi;
    mpfr_init2(pi, kWords * 32 + 64);
    mpfr_const_pi(pi, MPFR_RNDZ);
    mpfr_sub_ui(pi, pi, 3, MPFR_RNDZ);           // exact
    mpfr_mul_2ui(pi, pi, kWords * 32, MPFR_RNDZ);  // exact
    mpz_t z;
    mpz_init(z);
    mpfr_get_z(z, pi, MPFR_RNDZ);
    mpfr_clear(pi);
    std::vector<uint32_t> words(kWords);
    size_t count = 0;
    mpz_export(words.data(), &count, 1, sizeof(uint32_t), 0, 0, z);
    mpz_clear(z);
    // mpz_export drops leading zero words; pi's fraction starts 0x243F6A88.
    std::copy(words.begin(), words.begin() + ptrdiff_t(count), words.end() - ptrdiff_t(count));
    std::copy(words.begin(), words.begin() + 18, b.p);
    for (size_t i = 0; i < 4 * 256; ++i) b.s[i / 256][i % 256] = words[18 + i];
    return b;
  }();
  return init;
}

// Fills P and then the S-boxes with successive encryptions, each block
// first mixed with the next words of [salt] when there is one
// (expandKeyWithSalt, ExpandKey).
void blowfish_expand(Blowfish& b, std::string_view key, std::string_view salt) {
  size_t j = 0;
  for (uint32_t& w : b.p) w ^= next_word(key, j);
  j = 0;
  uint32_t l = 0, r = 0;
  auto fill = [&](uint32_t* out, size_t n) {
    for (size_t i = 0; i < n; i += 2) {
      if (!salt.empty()) {
        l ^= next_word(salt, j);
        r ^= next_word(salt, j);
      }
      b.encrypt(l, r);
      out[i] = l;
      out[i + 1] = r;
    }
  };
  fill(b.p, 18);
  for (auto& box : b.s) fill(box, 256);
}

// bcrypt's base64 alphabet (no padding).
constexpr char kBcryptAlphabet[] =
    "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

// [bytes] in bcrypt's base64, unpadded.
std::string bcrypt_base64(std::string_view bytes) {
  std::string std64 = base64_encode(bytes);
  while (!std64.empty() && std64.back() == '=') std64.pop_back();
  for (char& c : std64) c = kBcryptAlphabet[base64_value(uint8_t(c))];
  return std64;
}

// bcrypt's base64 [text] decoded (it is well-formed: a salt we made).
std::string bcrypt_unbase64(std::string_view text) {
  std::string std64;
  for (char c : text) std64 += kBase64Alphabet[std::strchr(kBcryptAlphabet, c) - kBcryptAlphabet];
  while (std64.size() % 4 != 0) std64 += '=';
  std::string out;
  size_t bad = 0;
  base64_decode(std64, out, bad);
  return out;
}

// The steps one round of bcrypt's key setup counts: about the time of
// this many evaluation steps (two key expansions, 1042 Blowfish blocks).
constexpr uint64_t kBcryptRoundSteps = 1024;

}  // namespace

std::string bcrypt_hash(std::string_view password, int cost, std::string_view salt) {
  uint64_t rounds = uint64_t(1) << cost;
  // All rounds count before the first: a cost the step limit cannot pay
  // is refused at once; each round checks the deadline and cancel flag.
  util::charge_steps(rounds * kBcryptRoundSteps);
  std::string csalt = bcrypt_unbase64(salt);
  // C bcrypt uses the key's terminating NUL, so Go appends one.
  std::string key(password);
  key += '\0';
  auto b = std::make_unique<Blowfish>(blowfish_initial());
  blowfish_expand(*b, key, csalt);
  for (uint64_t i = 0; i < rounds; ++i) {
    blowfish_expand(*b, key, {});
    blowfish_expand(*b, csalt, {});
    util::poll();
  }
  uint8_t data[] = "OrpheanBeholderScryDoubt";
  for (size_t i = 0; i < 24; i += 8) {
    uint32_t l = uint32_t(data[i]) << 24 | uint32_t(data[i + 1]) << 16 | uint32_t(data[i + 2]) << 8 | data[i + 3];
    uint32_t r = uint32_t(data[i + 4]) << 24 | uint32_t(data[i + 5]) << 16 | uint32_t(data[i + 6]) << 8 | data[i + 7];
    for (int k = 0; k < 64; ++k) b->encrypt(l, r);
    for (int k = 0; k < 4; ++k) {
      data[i + size_t(k)] = uint8_t(l >> (24 - 8 * k));
      data[i + 4 + size_t(k)] = uint8_t(r >> (24 - 8 * k));
    }
  }
  // Like C bcrypt, only 23 of the 24 bytes are written.
  std::string out = "$2a$";
  out += char('0' + cost / 10);
  out += char('0' + cost % 10);
  out += '$';
  out += salt;
  out += bcrypt_base64(std::string_view(reinterpret_cast<const char*>(data), 23));
  return out;
}

namespace {

Function bcrypt_fn() {
  Function f;
  f.description =
      "Hashes the given string with the Blowfish cipher (bcrypt), in the Modular Crypt Format; "
      "the optional cost defaults to 10.";
  f.params = {param("str", Type::string())};
  f.var_param = param("cost", Type::number());
  f.returns(Type::string());
  f.result_not_null = true;
  f.impure = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    int64_t cost = 10;
    if (args.size() > 1) {
      std::string err;
      if (!to_int(args[1], cost, err)) return FuncResult::fail(err);
    }
    if (args.size() > 2) return FuncResult::fail("bcrypt() takes no more than two arguments");
    std::string_view input = args[0].as_string();
    // x/crypto/bcrypt's own checks and wording.
    if (input.size() > 72) {
      return FuncResult::fail(
          "error occured generating password bcrypt: password length exceeds 72 bytes");
    }
    if (cost < 4) cost = 10;
    if (cost > 31) {
      return FuncResult::fail("error occured generating password crypto/bcrypt: cost " +
                              std::to_string(cost) + " is outside allowed range (4,31)");
    }
    // The salt: 16 random bytes, as libxcrypt writes them into a setting
    // "$2a$NN$" + 22 characters.
    char setting[CRYPT_GENSALT_OUTPUT_SIZE];
    if (!crypt_gensalt_rn("$2a$", static_cast<unsigned long>(cost), nullptr, 0, setting,
                          sizeof setting) ||
        std::strlen(setting) != 29) {
      return FuncResult::fail("error occured generating password: no random salt available");
    }
    std::string_view salt = std::string_view(setting).substr(7);
    return FuncResult::of(Value::string(bcrypt_hash(input, int(cost), salt)));
  };
  return f;
}

// --- uuid, uuidv5 ---------------------------------------------------------------

// [b] (16 bytes) as 8-4-4-4-12 lowercase hexadecimal digits.
std::string format_uuid(const unsigned char* b) {
  std::string hex = hex_encode(std::string_view(reinterpret_cast<const char*>(b), 16));
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
         hex.substr(16, 4) + "-" + hex.substr(20);
}

Function uuid_fn() {
  Function f;
  f.description = "Returns a random identifier formatted as a UUID (128 random bits).";
  f.returns(Type::string());
  f.result_not_null = true;
  f.impure = true;
  f.impl = [](std::span<const Value>, const Type*) {
    // hashicorp/go-uuid formats 16 random bytes as they come: no version or
    // variant bits are set.
    unsigned char b[16];
    if (RAND_bytes(b, sizeof b) != 1) {
      return FuncResult::fail("failed to read random bytes: no entropy available");
    }
    return FuncResult::of(Value::string(format_uuid(b)));
  };
  return f;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// google/uuid's Parse: the 36-character form, optionally as a URN or in
// braces (which it does not check), or 32 bare hexadecimal digits. Returns
// the error text, or "" with the bytes in [out].
std::string parse_uuid(std::string_view s, unsigned char* out) {
  auto pair = [&](size_t at, unsigned char& b) {
    int hi = hex_value(s[at]), lo = hex_value(s[at + 1]);
    if (hi < 0 || lo < 0) return false;
    b = static_cast<unsigned char>(hi << 4 | lo);
    return true;
  };
  switch (s.size()) {
    case 36:
      break;
    case 45: {
      std::string prefix(s.substr(0, 9));
      for (char& c : prefix) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (prefix != "urn:uuid:") return "invalid urn prefix: " + quote(s.substr(0, 9));
      s.remove_prefix(9);
      break;
    }
    case 38:
      s.remove_prefix(1);
      break;
    case 32:
      for (size_t i = 0; i < 16; ++i) {
        if (!pair(i * 2, out[i])) return "invalid UUID format";
      }
      return "";
    default:
      return "invalid UUID length: " + std::to_string(s.size());
  }
  if (s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-') return "invalid UUID format";
  static constexpr size_t kAt[16] = {0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34};
  for (size_t i = 0; i < 16; ++i) {
    if (!pair(kAt[i], out[i])) return "invalid UUID format";
  }
  return "";
}

Function uuidv5_fn() {
  Function f;
  f.description =
      "Returns the name-based (version 5, SHA-1) UUID of the given name in the given namespace: "
      "\"dns\", \"url\", \"oid\", \"x500\" or a UUID.";
  f.params = {param("namespace", Type::string()), param("name", Type::string())};
  f.returns(Type::string());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    // RFC 4122's predefined namespaces: 6ba7b81X-9dad-11d1-80b4-00c04fd430c8.
    static constexpr unsigned char kBase[16] = {0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1,
                                                0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8};
    std::string_view ns = args[0].as_string();
    unsigned char space[16];
    std::memcpy(space, kBase, 16);
    if (ns == "dns") {
      space[3] = 0x10;
    } else if (ns == "url") {
      space[3] = 0x11;
    } else if (ns == "oid") {
      space[3] = 0x12;
    } else if (ns == "x500") {
      space[3] = 0x14;
    } else if (std::string err = parse_uuid(ns, space); !err.empty()) {
      return FuncResult::fail("uuidv5() doesn't support namespace " + std::string(ns) + " (" + err +
                              ")");
    }
    Hasher h(HashKind::Sha1);
    h.update(std::string_view(reinterpret_cast<const char*>(space), 16));
    h.update(args[1].as_string());
    std::string sum = h.finish();
    unsigned char b[16];
    std::memcpy(b, sum.data(), 16);
    b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x50);
    b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);
    return FuncResult::of(Value::string(format_uuid(b)));
  };
  return f;
}

// --- rsadecrypt -------------------------------------------------------------------

struct PkeyFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;

// One PEM block, as Go's pem.Decode finds it: the type after "BEGIN", the
// headers, and the base64 body decoded.
struct PemBlock {
  std::string type;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string bytes;
};

// Go's pem.Decode, for the first well-formed block of [text]: "-----BEGIN
// TYPE-----" at the start of a line, optional "Key: value" headers, a
// base64 body and a matching END line. Malformed candidates are skipped.
bool pem_decode(std::string_view text, PemBlock& block) {
  static constexpr std::string_view kBegin = "-----BEGIN ", kEnd = "-----END ", kDashes = "-----";
  size_t from = 0;
  while (true) {
    size_t at = text.find(kBegin, from);
    if (at == std::string_view::npos) return false;
    from = at + kBegin.size();
    if (at != 0 && text[at - 1] != '\n') continue;
    size_t eol = text.find('\n', at);
    std::string_view line = text.substr(at, eol == std::string_view::npos ? eol : eol - at);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
      line.remove_suffix(1);
    if (line.size() < kBegin.size() + kDashes.size() || !line.ends_with(kDashes)) continue;
    if (eol == std::string_view::npos) return false;
    block = PemBlock{};
    block.type =
        std::string(line.substr(kBegin.size(), line.size() - kBegin.size() - kDashes.size()));
    std::string_view rest = text.substr(eol + 1);
    // Headers: "Key: value" lines up to the first line without a colon.
    while (true) {
      size_t nl = rest.find('\n');
      std::string_view l = rest.substr(0, nl);
      size_t colon = l.find(':');
      if (colon == std::string_view::npos) break;
      std::string_view key = uni::trim_right_space(uni::trim_left_space(l.substr(0, colon)));
      std::string_view val = uni::trim_right_space(uni::trim_left_space(l.substr(colon + 1)));
      block.headers.emplace_back(std::string(key), std::string(val));
      if (nl == std::string_view::npos) {
        rest = {};
        break;
      }
      rest = rest.substr(nl + 1);
    }
    std::string end_line = std::string(kEnd) + block.type + std::string(kDashes);
    size_t end = rest.find(end_line);
    if (end == std::string_view::npos) continue;
    std::string body;
    for (char c : rest.substr(0, end)) {
      if (c != ' ' && c != '\t' && c != '\r' && c != '\n') body += c;
    }
    size_t bad = 0;
    if (!base64_decode(body, block.bytes, bad)) continue;
    return true;
  }
}

// A big-endian length-prefixed string of the OpenSSH key format.
bool ssh_string(std::string_view& in, std::string_view& out) {
  if (in.size() < 4) return false;
  uint32_t n = uint32_t(uint8_t(in[0])) << 24 | uint32_t(uint8_t(in[1])) << 16 |
               uint32_t(uint8_t(in[2])) << 8 | uint32_t(uint8_t(in[3]));
  in.remove_prefix(4);
  if (in.size() < n) return false;
  out = in.substr(0, n);
  in.remove_prefix(n);
  return true;
}

// An RSA private key from its OpenSSH ("openssh-key-v1") encoding, which
// OpenSSL does not read: unencrypted, with n, e, d, iqmp, p and q.
// Returns the error text, or "" with the key in [key]; [not_rsa] is set for
// a well-formed key of another algorithm.
std::string openssh_rsa_key(std::string_view blob, Pkey& key, bool& not_rsa) {
  static constexpr std::string_view kMagic("openssh-key-v1\0", 15);
  if (!blob.starts_with(kMagic)) return "ssh: invalid openssh private key format";
  blob.remove_prefix(kMagic.size());
  std::string_view cipher, kdf, kdf_opts, pub, priv;
  if (!ssh_string(blob, cipher) || !ssh_string(blob, kdf) || !ssh_string(blob, kdf_opts) ||
      blob.size() < 4) {
    return "ssh: invalid openssh private key format";
  }
  blob.remove_prefix(4);  // the number of keys
  if (!ssh_string(blob, pub) || !ssh_string(blob, priv)) {
    return "ssh: invalid openssh private key format";
  }
  if (cipher != "none" || kdf != "none") return "ssh: this private key is passphrase protected";
  if (priv.size() < 8 || priv.substr(0, 4) != priv.substr(4, 4)) {
    return "ssh: malformed OpenSSH key";
  }
  priv.remove_prefix(8);
  std::string_view type;
  if (!ssh_string(priv, type)) return "ssh: malformed OpenSSH key";
  if (type != "ssh-rsa") {
    not_rsa = true;
    return "";
  }
  std::string_view n, e, d, iqmp, p, q;
  if (!ssh_string(priv, n) || !ssh_string(priv, e) || !ssh_string(priv, d) ||
      !ssh_string(priv, iqmp) || !ssh_string(priv, p) || !ssh_string(priv, q)) {
    return "ssh: malformed OpenSSH key";
  }
  auto bn = [](std::string_view s) {
    return BN_bin2bn(reinterpret_cast<const unsigned char*>(s.data()), int(s.size()), nullptr);
  };
  BIGNUM *bn_n = bn(n), *bn_e = bn(e), *bn_d = bn(d), *bn_p = bn(p), *bn_q = bn(q),
         *bn_iqmp = bn(iqmp);
  BIGNUM *dp = BN_new(), *dq = BN_new(), *t = BN_new();
  BN_CTX* ctx = BN_CTX_new();
  // The exponents modulo p-1 and q-1, which the format leaves out.
  BN_sub(t, bn_p, BN_value_one());
  BN_mod(dp, bn_d, t, ctx);
  BN_sub(t, bn_q, BN_value_one());
  BN_mod(dq, bn_d, t, ctx);
  OSSL_PARAM_BLD* bld = OSSL_PARAM_BLD_new();
  OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, bn_n);
  OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, bn_e);
  OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_D, bn_d);
  OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_FACTOR1, bn_p);
  OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_FACTOR2, bn_q);
  OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_EXPONENT1, dp);
  OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_EXPONENT2, dq);
  OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_COEFFICIENT1, bn_iqmp);
  OSSL_PARAM* params = OSSL_PARAM_BLD_to_param(bld);
  EVP_PKEY_CTX* pctx = EVP_PKEY_CTX_new_from_name(nullptr, "RSA", nullptr);
  EVP_PKEY* pkey = nullptr;
  bool ok = params && pctx && EVP_PKEY_fromdata_init(pctx) == 1 &&
            EVP_PKEY_fromdata(pctx, &pkey, EVP_PKEY_KEYPAIR, params) == 1;
  EVP_PKEY_CTX_free(pctx);
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(bld);
  BN_CTX_free(ctx);
  for (BIGNUM* b : {bn_n, bn_e, bn_d, bn_p, bn_q, bn_iqmp, dp, dq, t}) BN_free(b);
  if (!ok) return "ssh: malformed OpenSSH key";
  key.reset(pkey);
  return "";
}

// The algorithm's name of a parsed key that is not RSA, for the message.
std::string key_type_name(EVP_PKEY* k) {
  const char* name = EVP_PKEY_get0_type_name(k);
  std::string n = name ? name : "unknown";
  if (n == "EC") return "*ecdsa.PrivateKey";
  if (n == "DSA") return "*dsa.PrivateKey";
  if (n == "ED25519") return "ed25519.PrivateKey";
  return n;
}

// The tag of the second element of the DER sequence [der] (the one after
// the version number of a private key), or -1.
int der_second_tag(std::string_view der) {
  size_t i = 0;
  // Skips a tag and a length; false when they run past the end.
  auto header = [&](size_t& len) {
    if (i + 2 > der.size()) return false;
    ++i;  // the tag
    size_t first = uint8_t(der[i++]);
    if (first < 0x80) {
      len = first;
      return true;
    }
    size_t n = first & 0x7F;
    if (n == 0 || n > 4 || i + n > der.size()) return false;
    len = 0;
    for (size_t k = 0; k < n; ++k) len = len << 8 | uint8_t(der[i++]);
    return true;
  };
  size_t len = 0;
  if (der.empty() || uint8_t(der[0]) != 0x30 || !header(len)) return -1;
  if (!header(len) || i + len > der.size()) return -1;  // the version
  i += len;
  return i < der.size() ? uint8_t(der[i]) : -1;
}

// A DER key of [type] as OpenSSL reads it, or null.
Pkey read_der(const std::string& der, const char* structure, const char* type) {
  EVP_PKEY* pkey = nullptr;
  OSSL_DECODER_CTX* dctx = OSSL_DECODER_CTX_new_for_pkey(&pkey, "DER", structure, type,
                                                         EVP_PKEY_KEYPAIR, nullptr, nullptr);
  if (!dctx) return nullptr;
  const unsigned char* data = reinterpret_cast<const unsigned char*>(der.data());
  size_t len = der.size();
  bool ok = OSSL_DECODER_from_data(dctx, &data, &len) == 1 && len == 0;
  OSSL_DECODER_CTX_free(dctx);
  if (!ok) {
    EVP_PKEY_free(pkey);
    return nullptr;
  }
  return Pkey(pkey);
}

// The private key in the PEM text [text] as golang.org/x/crypto/ssh's
// ParseRawPrivateKey accepts it (PKCS #1, PKCS #8, SEC 1, DSA and OpenSSH
// blocks), worded as Terraform words the failures. Returns the message, or
// "" with the RSA key in [key].
std::string parse_private_key(std::string_view text, Pkey& key) {
  ERR_clear_error();
  PemBlock block;
  if (!pem_decode(text, block)) return "invalid private key: ssh: no key found";
  for (const auto& [k, v] : block.headers) {
    if (k == "Proc-Type" && v.find("ENCRYPTED") != std::string::npos) {
      return "invalid private key: ssh: this private key is passphrase protected";
    }
  }
  const char* structure = nullptr;
  const char* type = nullptr;
  if (block.type == "RSA PRIVATE KEY") {
    structure = "type-specific";
    type = "RSA";
  } else if (block.type == "PRIVATE KEY") {
    structure = "PrivateKeyInfo";
  } else if (block.type == "EC PRIVATE KEY") {
    structure = "type-specific";
    type = "EC";
  } else if (block.type == "DSA PRIVATE KEY") {
    structure = "type-specific";
    type = "DSA";
  } else if (block.type == "OPENSSH PRIVATE KEY") {
    bool not_rsa = false;
    std::string err = openssh_rsa_key(block.bytes, key, not_rsa);
    if (!err.empty()) return "invalid private key: " + err;
    if (not_rsa) return "invalid private key type (not an RSA key)";
    return "";
  } else {
    return "invalid private key: ssh: unsupported key type " + quote(block.type);
  }
  // x509's parsers say when the bytes are a key of another format: told
  // apart by the second element of the outer sequence (PKCS #1 an integer,
  // PKCS #8 a sequence, SEC 1 an octet string).
  auto misfiled = [](const char* parser) {
    return std::string("invalid private key: x509: failed to parse private key (use ") + parser +
           " instead for this key format)";
  };
  int second = der_second_tag(block.bytes);
  if (block.type == "RSA PRIVATE KEY" || block.type == "PRIVATE KEY") {
    if (second == 0x04) return misfiled("ParseECPrivateKey");
    if (block.type == "RSA PRIVATE KEY" && second == 0x30) return misfiled("ParsePKCS8PrivateKey");
    if (block.type == "PRIVATE KEY" && second == 0x02) return misfiled("ParsePKCS1PrivateKey");
  }
  Pkey k = read_der(block.bytes, structure, type);
  if (!k) return "invalid ASN1 data in the given private key: the key's DER encoding is malformed";
  if (!EVP_PKEY_is_a(k.get(), "RSA")) {
    return "invalid private key type " + key_type_name(k.get()) + " (not an RSA key)";
  }
  key = std::move(k);
  return "";
}

Function rsadecrypt_fn() {
  Function f;
  f.description =
      "Decrypts an RSA-encrypted (PKCS #1 v1.5) base64 ciphertext with the given PEM private key.";
  f.params = {param("ciphertext", Type::string()), param("privatekey", Type::string())};
  f.returns(Type::string());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    std::string_view s = args[0].as_string();
    std::string cipher;
    size_t bad = 0;
    if (!base64_decode(s, cipher, bad)) {
      return arg_error(
          "failed to decode input " + quote(s) + ": cipher text must be base64-encoded", 0);
    }
    Pkey key;
    if (std::string err = parse_private_key(args[1].as_string(), key); !err.empty()) {
      return arg_error(err, 1);
    }
    // The private operation grows as the cube of the key's size (a 16384-bit
    // key, the largest OpenSSL takes, is 512 times a 2048-bit one's 30,000
    // steps or so): counted before it starts.
    double scale = double(EVP_PKEY_get_bits(key.get())) / 2048.0;
    util::charge_steps(uint64_t(scale * scale * scale * 30000.0));
    EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new(key.get(), nullptr);
    std::string out;
    bool ok = ctx && EVP_PKEY_decrypt_init(ctx) == 1 &&
              EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) == 1;
    if (ok) {
      // Newer OpenSSL releases answer a bad padding with random bytes
      // (implicit rejection); Go reports an error, so that is turned off
      // where the setting exists.
      EVP_PKEY_CTX_ctrl_str(ctx, "rsa_pkcs1_implicit_rejection", "0");
      size_t len = 0;
      const auto* in = reinterpret_cast<const unsigned char*>(cipher.data());
      ok = cipher.size() <= size_t(EVP_PKEY_get_size(key.get())) &&
           EVP_PKEY_decrypt(ctx, nullptr, &len, in, cipher.size()) == 1;
      if (ok) {
        out.resize(len);
        ok = EVP_PKEY_decrypt(ctx, reinterpret_cast<unsigned char*>(out.data()), &len, in,
                              cipher.size()) == 1;
        out.resize(len);
      }
    }
    EVP_PKEY_CTX_free(ctx);
    ERR_clear_error();
    if (!ok) return FuncResult::fail("failed to decrypt: crypto/rsa: decryption error");
    return FuncResult::of(Value::string(out));
  };
  return f;
}

}  // namespace

void add_crypto_functions(FunctionTable& t, const LibraryOptions& opts) {
  add(t, "md5",
      string_hash_fn(HashKind::Md5, false,
                     "Returns the MD5 hash of the given string's UTF-8 bytes, in hexadecimal."));
  add(t, "sha1",
      string_hash_fn(HashKind::Sha1, false,
                     "Returns the SHA-1 hash of the given string's UTF-8 bytes, in hexadecimal."));
  add(t, "sha256",
      string_hash_fn(
          HashKind::Sha256, false,
          "Returns the SHA-256 hash of the given string's UTF-8 bytes, in hexadecimal."));
  add(t, "sha512",
      string_hash_fn(
          HashKind::Sha512, false,
          "Returns the SHA-512 hash of the given string's UTF-8 bytes, in hexadecimal."));
  add(t, "base64sha256",
      string_hash_fn(HashKind::Sha256, true,
                     "Returns the SHA-256 hash of the given string's UTF-8 bytes, in base64."));
  add(t, "base64sha512",
      string_hash_fn(HashKind::Sha512, true,
                     "Returns the SHA-512 hash of the given string's UTF-8 bytes, in base64."));
  add(t, "rsadecrypt", rsadecrypt_fn());
  add(t, "uuidv5", uuidv5_fn());
  if (opts.impure) {
    add(t, "bcrypt", bcrypt_fn());
    add(t, "uuid", uuid_fn());
  }
}

}  // namespace hclvm::funcs
