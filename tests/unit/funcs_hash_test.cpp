// Tests of the hash and crypto functions of the standard library (md5,
// sha1, sha256, sha512, base64sha256, base64sha512, bcrypt, rsadecrypt,
// uuid, uuidv5), evaluated through the VM with standard_functions(). The
// digests are Terraform's documented examples and the standard test
// vectors; rsadecrypt's ciphertext, keys and messages come from the
// reference's code (Go's crypto/rsa and x/crypto/ssh), uuidv5's values from
// Terraform's documentation.
#include <crypt.h>
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <regex>
#include <string>

#include "funcs/hash.h"
#include "hclvm/eval.h"
#include "hclvm/function.h"
#include "hclvm/functions.h"
#include "test_util.h"

namespace hclvm {
namespace {

// Test keys (1024-bit RSA in three encodings, P-256 EC), made for these tests.
constexpr char kRsaPem[] =
    "-----BEGIN RSA PRIVATE KEY-----\n"
    "MIICXgIBAAKBgQDxuJtUr9oAQND6FDdVotdKHBT1TiMyssdo4bVam5d3uQS+yB4E\n"
    "LSyKPGH+wLJS//F/15Dru22aSldbBSAN1uiC9uXAyekXFQD2m3XLvjkbL8n1HtKu\n"
    "LPx3PlNc8hnwWlBgaU8xjgbXbKLTiytuzxuSKjm20Odayq+aWLD8y9T3iQIDAQAB\n"
    "AoGAa3o99sXKFNq9ELT0datWNqmN2BTKKby8VbImRQdxrdYiegHY9tpvN3fpyrA7\n"
    "mhQbeVCMK4THExeDCAGbYwvvjY6mT7vCWI5NcCJIoGrYBt1nSNjQa1alOnAjxZ4L\n"
    "G0D1krE9dyisyPcU/CN/NfHfmmIKKxWhe3BdCJAcT8ZojFECQQD7+Lof2s9d7/W3\n"
    "ySXfccylUsM42gQbbbV0SKFL42EYdUJ5APTlea2dnFR0aoSgXSi7ofjQg0d+akxx\n"
    "zhgfl2F7AkEA9ZXtK0j2W9Lacqe9WU9tRsQHIZgPqycVGIbeoipjt6Pp+dzMnG2p\n"
    "r9akQ3VQgLakvC22e7HVFSp72xtCi3yRywJBAO+19PwRIm5vtwgdaNZmYRZ24hrX\n"
    "7khZ2uLBphGYQ+sMwyxy6IjXdYAYFZCbNYmKlxHKSfe0rPNrFUa/ltuXHLkCQQC+\n"
    "P+E1kRZY2CWmgM+s6l0LXzzvB2/L9UDgeUrrcc9CKldN24EfBc1YjP0/zRgKPnOr\n"
    "2/XsKT2bYggFGz8X8+61AkEA1OFVFC10Di75gKkc5JWg51nj1IxTwrixvTRHA27e\n"
    "Q6m8O+5b+xNbqFnQJEpXEP1c94K84DrdQBpz2JRaH/76aw==\n"
    "-----END RSA PRIVATE KEY-----\n";
constexpr char kRsaPkcs8[] =
    "-----BEGIN PRIVATE KEY-----\n"
    "MIICeAIBADANBgkqhkiG9w0BAQEFAASCAmIwggJeAgEAAoGBAPG4m1Sv2gBA0PoU\n"
    "N1Wi10ocFPVOIzKyx2jhtVqbl3e5BL7IHgQtLIo8Yf7AslL/8X/XkOu7bZpKV1sF\n"
    "IA3W6IL25cDJ6RcVAPabdcu+ORsvyfUe0q4s/Hc+U1zyGfBaUGBpTzGOBtdsotOL\n"
    "K27PG5IqObbQ51rKr5pYsPzL1PeJAgMBAAECgYBrej32xcoU2r0QtPR1q1Y2qY3Y\n"
    "FMopvLxVsiZFB3Gt1iJ6Adj22m83d+nKsDuaFBt5UIwrhMcTF4MIAZtjC++NjqZP\n"
    "u8JYjk1wIkigatgG3WdI2NBrVqU6cCPFngsbQPWSsT13KKzI9xT8I3818d+aYgor\n"
    "FaF7cF0IkBxPxmiMUQJBAPv4uh/az13v9bfJJd9xzKVSwzjaBBtttXRIoUvjYRh1\n"
    "QnkA9OV5rZ2cVHRqhKBdKLuh+NCDR35qTHHOGB+XYXsCQQD1le0rSPZb0tpyp71Z\n"
    "T21GxAchmA+rJxUYht6iKmO3o+n53Mycbamv1qRDdVCAtqS8LbZ7sdUVKnvbG0KL\n"
    "fJHLAkEA77X0/BEibm+3CB1o1mZhFnbiGtfuSFna4sGmEZhD6wzDLHLoiNd1gBgV\n"
    "kJs1iYqXEcpJ97Ss82sVRr+W25ccuQJBAL4/4TWRFljYJaaAz6zqXQtfPO8Hb8v1\n"
    "QOB5Sutxz0IqV03bgR8FzViM/T/NGAo+c6vb9ewpPZtiCAUbPxfz7rUCQQDU4VUU\n"
    "LXQOLvmAqRzklaDnWePUjFPCuLG9NEcDbt5Dqbw77lv7E1uoWdAkSlcQ/Vz3grzg\n"
    "Ot1AGnPYlFof/vpr\n"
    "-----END PRIVATE KEY-----\n";
constexpr char kRsaOpenSsh[] =
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAlwAAAAdzc2gtcn\n"
    "NhAAAAAwEAAQAAAIEA8bibVK/aAEDQ+hQ3VaLXShwU9U4jMrLHaOG1WpuXd7kEvsgeBC0s\n"
    "ijxh/sCyUv/xf9eQ67ttmkpXWwUgDdbogvblwMnpFxUA9pt1y745Gy/J9R7Sriz8dz5TXP\n"
    "IZ8FpQYGlPMY4G12yi04srbs8bkio5ttDnWsqvmliw/MvU94kAAAH4QZYUPkGWFD4AAAAH\n"
    "c3NoLXJzYQAAAIEA8bibVK/aAEDQ+hQ3VaLXShwU9U4jMrLHaOG1WpuXd7kEvsgeBC0sij\n"
    "xh/sCyUv/xf9eQ67ttmkpXWwUgDdbogvblwMnpFxUA9pt1y745Gy/J9R7Sriz8dz5TXPIZ\n"
    "8FpQYGlPMY4G12yi04srbs8bkio5ttDnWsqvmliw/MvU94kAAAADAQABAAAAgGt6PfbFyh\n"
    "TavRC09HWrVjapjdgUyim8vFWyJkUHca3WInoB2Pbabzd36cqwO5oUG3lQjCuExxMXgwgB\n"
    "m2ML742Opk+7wliOTXAiSKBq2AbdZ0jY0GtWpTpwI8WeCxtA9ZKxPXcorMj3FPwjfzXx35\n"
    "piCisVoXtwXQiQHE/GaIxRAAAAQQDU4VUULXQOLvmAqRzklaDnWePUjFPCuLG9NEcDbt5D\n"
    "qbw77lv7E1uoWdAkSlcQ/Vz3grzgOt1AGnPYlFof/vprAAAAQQD7+Lof2s9d7/W3ySXfcc\n"
    "ylUsM42gQbbbV0SKFL42EYdUJ5APTlea2dnFR0aoSgXSi7ofjQg0d+akxxzhgfl2F7AAAA\n"
    "QQD1le0rSPZb0tpyp71ZT21GxAchmA+rJxUYht6iKmO3o+n53Mycbamv1qRDdVCAtqS8Lb\n"
    "Z7sdUVKnvbG0KLfJHLAAAAAAEC\n"
    "-----END OPENSSH PRIVATE KEY-----\n";
constexpr char kEcPem[] =
    "-----BEGIN EC PRIVATE KEY-----\n"
    "MHcCAQEEIAK5Jy+YU24c+X3F789bnks8hzRqF+5/TAjcNqYbmXaQoAoGCCqGSM49\n"
    "AwEHoUQDQgAEoVSG/OEGzG5UsM12mE4FsQY+9dcgEfpvAho6JHa1TDo1LgtMJ7fB\n"
    "RYYIaWGY3BqZlIzqs9h/Oyfl/RRkmr4IhQ==\n"
    "-----END EC PRIVATE KEY-----\n";

// "Hello, wörld!" encrypted with the RSA key's public half (PKCS #1 v1.5).
constexpr char kCipher[] =
    "tCvc+Yois/kYVSIJSNEHzvtr9ZVNshG6WoXu/NHmpni9bosOC25iNX9HfOeMzwYT8qRyJCcgSZKu5tn8jHVSnhPpCv6v8x"
    "xyknBPR1g/tb37w3+vDjpMromlL0agNRG7FyonDCwt+Lj+om04HeqZZzZBDgiwLOJR6D3EPrfu7Us=";

// What evaluating an expression gave: a value, or the first error.
struct Got {
  Value value;
  std::string summary, detail;
  bool error() const { return !summary.empty(); }
};

// A context with the standard functions and a few variables: u (an unknown
// string), s (a sensitive string), and the test keys.
const EvalContext& context() {
  static const EvalContext ctx = [] {
    EvalContext c;
    c.set_functions(std::make_shared<FunctionTable>(standard_functions()));
    c.set("u", Value::unknown(Type::string()));
    c.set("s", Value::string("hello world").mark("sensitive"));
    c.set("pem", Value::string(kRsaPem));
    c.set("pkcs8", Value::string(kRsaPkcs8));
    c.set("openssh", Value::string(kRsaOpenSsh));
    c.set("ec", Value::string(kEcPem));
    c.set("cipher", Value::string(kCipher));
    return c;
  }();
  return ctx;
}

Got eval(std::string_view src, const EvalContext& ctx = context()) {
  ExprParse p = parse_expression(make_source("<expr>", std::string(src)));
  EXPECT_FALSE(p.has_errors()) << src;
  Got g;
  if (p.has_errors()) {
    g.summary = "parse error";
    return g;
  }
  auto prog = compile_expression(*p.expr, p.source).program;
  Vm vm;
  EvalResult r = vm.run(*prog, ctx);
  for (const Diagnostic& d : r.diagnostics) {
    if (d.severity == Severity::Error) {
      g.summary = d.summary;
      g.detail = d.detail;
      return g;
    }
  }
  g.value = r.value;
  return g;
}

// A case: [want] is the string result, or "!Summary|detail" for an error.
struct Case {
  const char* expr;
  const char* want;
};

void run_cases(std::initializer_list<Case> cases) {
  for (const Case& c : cases) {
    SCOPED_TRACE(c.expr);
    Got g = eval(c.expr);
    std::string want = c.want;
    if (!want.empty() && want[0] == '!') {
      size_t bar = want.find('|');
      EXPECT_EQ(g.summary, want.substr(1, bar - 1));
      EXPECT_EQ(g.detail, want.substr(bar + 1));
      continue;
    }
    ASSERT_FALSE(g.error()) << g.summary << ": " << g.detail;
    ASSERT_TRUE(g.value.is_known());
    ASSERT_EQ(g.value.type(), Type::string());
    EXPECT_EQ(g.value.as_string(), want);
  }
}

TEST(FuncsHashTest, Digests) {
  run_cases({
      {"md5(\"hello world\")", "5eb63bbbe01eeed093cb22bb8f5acdc3"},
      {"md5(\"\")", "d41d8cd98f00b204e9800998ecf8427e"},
      {"md5(\"héllo\")", "be50e8478cf24ff3595bc7307fb91b50"},
      {"sha1(\"hello world\")", "2aae6c35c94fcfb415dbe95f408b9ce91ee846ed"},
      {"sha1(\"\")", "da39a3ee5e6b4b0d3255bfef95601890afd80709"},
      {"sha1(\"héllo\")", "35b5ea45c5e41f78b46a937cc74d41dfea920890"},
      {"sha256(\"hello world\")",
       "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9"},
      {"sha256(\"\")", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
      {"sha256(\"héllo\")", "3c48591d8d098a4538f5e013dfcf406e948eac4d3277b10bf614e295d6068179"},
      {"sha512(\"hello world\")",
       "309ecc489c12d6eb4cc40f50c902f2b4d0ed77ee511a7c7a9bcd3ca86d4cd86f989dd35bc5ff499670da34255b"
       "45b0cfd830e81f605dcf7dc5542e93ae9cd76f"},
      {"sha512(\"\")",
       "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d287"
       "7eec2f63b931bd47417a81a538327af927da3e"},
      {"base64sha256(\"hello world\")", "uU0nuZNNPgilLlLX2n2r+sSE7+N6U4DukIj3rOLvzek="},
      {"base64sha256(\"\")", "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="},
      {"base64sha256(\"héllo\")", "PEhZHY0JikU49eAT389AbpSOrE0yd7EL9hTildYGgXk="},
      {"base64sha512(\"hello world\")",
       "MJ7MSJwS1utMxA9QyQLytNDtd+5RGnx6m808qG1M2G+YndNbxf9JlnDaNCVbRbDP2DDoH2Bdz33FVC6TrpzXbw=="},
      {"base64sha512(\"\")",
       "z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg=="},
      // Arguments are converted to strings first.
      {"md5(12)", "c20ad4d76fe97759aa27a0c99bff6710"},
      {"sha1(true)", "5ffe533b830f08a0326348a9160afafc8ada44db"},
      // Wrong types, nulls and arity, as HCL reports them.
      {"md5([])",
       "!Invalid function argument|Invalid value for \"str\" parameter: string required, "
       "but have tuple."},
      {"sha256(null)",
       "!Invalid function argument|Invalid value for \"str\" parameter: argument must not be "
       "null."},
      {"sha1()",
       "!Not enough function arguments|Function \"sha1\" expects 1 argument(s). Missing value for "
       "\"str\"."},
      {"base64sha512(\"a\", \"b\")",
       "!Too many function arguments|Function \"base64sha512\" expects only 1 argument(s)."},
  });
}

TEST(FuncsHashTest, UnknownsAndMarks) {
  for (const char* fn : {"md5", "sha1", "sha256", "sha512", "base64sha256", "base64sha512"}) {
    SCOPED_TRACE(fn);
    Got g = eval(std::string(fn) + "(u)");
    ASSERT_FALSE(g.error());
    EXPECT_FALSE(g.value.is_known());
    EXPECT_EQ(g.value.type(), Type::string());
    EXPECT_TRUE(g.value.refinement().not_null);

    g = eval(std::string(fn) + "(s)");
    ASSERT_FALSE(g.error());
    EXPECT_TRUE(g.value.marks().has("sensitive"));
  }
  Got g = eval("md5(s)");
  EXPECT_EQ(g.value.unmark().as_string(), "5eb63bbbe01eeed093cb22bb8f5acdc3");
}

TEST(FuncsHashTest, HashBytesHelper) {
  // The helper the file hashes share: raw digests, streamed or not.
  EXPECT_EQ(funcs::hex_encode(funcs::hash_bytes(funcs::HashKind::Md5, "hello world")),
            "5eb63bbbe01eeed093cb22bb8f5acdc3");
  funcs::Hasher h(funcs::HashKind::Sha256);
  h.update("hello ");
  h.update("world");
  EXPECT_EQ(funcs::base64_encode(h.finish()), "uU0nuZNNPgilLlLX2n2r+sSE7+N6U4DukIj3rOLvzek=");
  EXPECT_EQ(funcs::hash_bytes(funcs::HashKind::Sha512, "").size(), 64u);
  EXPECT_EQ(funcs::hash_bytes(funcs::HashKind::Sha1, "").size(), 20u);
}

TEST(FuncsHashTest, Uuidv5) {
  run_cases({
      {"uuidv5(\"dns\", \"www.terraform.io\")", "a5008fae-b28c-5ba5-96cd-82b4c53552d6"},
      {"uuidv5(\"url\", \"https://www.terraform.io/\")", "9db6f67c-dd95-5ea0-aa5b-e70e5c5f7cf5"},
      {"uuidv5(\"oid\", \"1.3.6.1.4\")", "af9d40a5-7a36-5c07-b23a-851cd99fbfa5"},
      {"uuidv5(\"x500\", \"CN=Example,C=GB\")", "84e09961-4aa4-57f8-95b7-03edb1073253"},
      // A namespace given as a UUID, in each form google/uuid reads.
      {"uuidv5(\"6ba7b810-9dad-11d1-80b4-00c04fd430c8\", \"www.terraform.io\")",
       "a5008fae-b28c-5ba5-96cd-82b4c53552d6"},
      {"uuidv5(\"6BA7B810-9DAD-11D1-80B4-00C04FD430C8\", \"www.terraform.io\")",
       "a5008fae-b28c-5ba5-96cd-82b4c53552d6"},
      {"uuidv5(\"urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8\", \"www.terraform.io\")",
       "a5008fae-b28c-5ba5-96cd-82b4c53552d6"},
      {"uuidv5(\"{6ba7b810-9dad-11d1-80b4-00c04fd430c8}\", \"www.terraform.io\")",
       "a5008fae-b28c-5ba5-96cd-82b4c53552d6"},
      {"uuidv5(\"6ba7b8109dad11d180b400c04fd430c8\", \"www.terraform.io\")",
       "a5008fae-b28c-5ba5-96cd-82b4c53552d6"},
      {"uuidv5(\"12345678-90ab-cdef-1234-567890abcdef\", \"héllo\")",
       "ff2c37d6-d4be-595e-8592-0f326f1f4348"},
      {"uuidv5(\"DNS\", \"x\")",
       "!Error in function call|Call to function \"uuidv5\" failed: uuidv5() doesn't support "
       "namespace DNS (invalid UUID length: 3)."},
      {"uuidv5(\"6ba7b810-9dad-11d1-80b4-00c04fd430cg\", \"x\")",
       "!Error in function call|Call to function \"uuidv5\" failed: uuidv5() doesn't support "
       "namespace 6ba7b810-9dad-11d1-80b4-00c04fd430cg (invalid UUID format)."},
      {"uuidv5(\"6ba7b810x9dad-11d1-80b4-00c04fd430c8\", \"x\")",
       "!Error in function call|Call to function \"uuidv5\" failed: uuidv5() doesn't support "
       "namespace 6ba7b810x9dad-11d1-80b4-00c04fd430c8 (invalid UUID format)."},
      {"uuidv5(\"urx:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8\", \"x\")",
       "!Error in function call|Call to function \"uuidv5\" failed: uuidv5() doesn't support "
       "namespace urx:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8 (invalid urn prefix: "
       "\"urx:uuid:\")."},
      {"uuidv5(\"dns\", null)",
       "!Invalid function argument|Invalid value for \"name\" parameter: argument must not be "
       "null."},
      {"uuidv5(\"dns\")",
       "!Not enough function arguments|Function \"uuidv5\" expects 2 argument(s). Missing value "
       "for \"name\"."},
  });
  Got g = eval("uuidv5(u, \"x\")");
  ASSERT_FALSE(g.error());
  EXPECT_FALSE(g.value.is_known());
  EXPECT_TRUE(g.value.refinement().not_null);
}

TEST(FuncsHashTest, Uuid) {
  static const std::regex kShape("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
  Got a = eval("uuid()"), b = eval("uuid()");
  ASSERT_FALSE(a.error());
  ASSERT_FALSE(b.error());
  EXPECT_TRUE(std::regex_match(std::string(a.value.as_string()), kShape));
  EXPECT_NE(a.value.as_string(), b.value.as_string());
  Got g = eval("uuid(1)");
  EXPECT_EQ(g.summary, "Too many function arguments");
  EXPECT_EQ(g.detail, "Function \"uuid\" expects only 0 argument(s).");
}

TEST(FuncsHashTest, ImpureFunctionsCanBeLeftOut) {
  FunctionTable all = standard_functions();
  ASSERT_NE(all.find("uuid"), nullptr);
  ASSERT_NE(all.find("bcrypt"), nullptr);
  EXPECT_TRUE(all.find("uuid")->impure);
  EXPECT_TRUE(all.find("bcrypt")->impure);
  EXPECT_FALSE(all.find("uuidv5")->impure);
  EXPECT_FALSE(all.find("md5")->impure);
  LibraryOptions pure;
  pure.impure = false;
  FunctionTable t = standard_functions(pure);
  EXPECT_EQ(t.find("uuid"), nullptr);
  EXPECT_EQ(t.find("bcrypt"), nullptr);
  EXPECT_NE(t.find("uuidv5"), nullptr);
  EXPECT_NE(t.find("rsadecrypt"), nullptr);
  // The reference's own tools (go-cty's table) have none of these.
  EXPECT_EQ(default_functions().find("md5"), nullptr);
}

// Whether [hash] is the bcrypt hash of [password] (libxcrypt rehashes with
// the hash as its setting).
bool bcrypt_matches(const std::string& password, const std::string& hash) {
  auto data = std::make_unique<crypt_data>();
  std::memset(data.get(), 0, sizeof(crypt_data));
  const char* h = crypt_rn(password.c_str(), hash.c_str(), data.get(), sizeof(crypt_data));
  return h && hash == h;
}

TEST(FuncsHashTest, Bcrypt) {
  // A hash made by Go's x/crypto/bcrypt: the library computes the same.
  EXPECT_TRUE(bcrypt_matches("x", "$2a$10$QxY/WVRhar5Uwdpsgz1E4u7n/KUfum1afjXmiFqAmc2gj.fM/aNuq"));
  EXPECT_FALSE(bcrypt_matches("y", "$2a$10$QxY/WVRhar5Uwdpsgz1E4u7n/KUfum1afjXmiFqAmc2gj.fM/aNuq"));

  static const std::regex kShape(R"(\$2a\$(\d\d)\$[./A-Za-z0-9]{53})");
  struct {
    const char* expr;
    const char* password;
    const char* cost;
  } ok[] = {
      {"bcrypt(\"hello world\")", "hello world", "10"},
      {"bcrypt(\"héllo\", 4)", "héllo", "04"},
      {"bcrypt(\"\", 5)", "", "05"},
      {"bcrypt(\"x\", 3)", "x", "10"},  // below the minimum: the default
      {"bcrypt(\"x\", \"4\")", "x", "04"},
  };
  for (const auto& c : ok) {
    SCOPED_TRACE(c.expr);
    Got g = eval(c.expr);
    ASSERT_FALSE(g.error()) << g.detail;
    std::string h(g.value.as_string());
    std::smatch m;
    ASSERT_TRUE(std::regex_match(h, m, kShape)) << h;
    EXPECT_EQ(m[1].str(), c.cost);
    EXPECT_TRUE(bcrypt_matches(c.password, h));
  }
  // Salted: two hashes of the same text differ.
  EXPECT_NE(eval("bcrypt(\"a\", 4)").value.as_string(), eval("bcrypt(\"a\", 4)").value.as_string());

  std::string long73(73, 'a');
  run_cases({
      {"bcrypt(\"x\", 32)",
       "!Error in function call|Call to function \"bcrypt\" failed: error occured generating "
       "password crypto/bcrypt: cost 32 is outside allowed range (4,31)."},
      {"bcrypt(\"x\", 4.5)",
       "!Error in function call|Call to function \"bcrypt\" failed: value must be a whole number, "
       "between -9223372036854775808 and 9223372036854775807."},
      {"bcrypt(\"x\", 4, 5)",
       "!Error in function call|Call to function \"bcrypt\" failed: bcrypt() takes no more than "
       "two arguments."},
      {"bcrypt(\"x\", \"many\")",
       "!Invalid function argument|Invalid value for \"cost\" parameter: a number is required."},
      {"bcrypt(null)",
       "!Invalid function argument|Invalid value for \"str\" parameter: argument must not be "
       "null."},
      {"bcrypt()",
       "!Not enough function arguments|Function \"bcrypt\" expects at least 1 argument(s). Missing "
       "value for \"str\"."},
  });
  Got g = eval("bcrypt(\"" + long73 + "\")");
  EXPECT_EQ(g.detail,
            "Call to function \"bcrypt\" failed: error occured generating password bcrypt: "
            "password length exceeds 72 bytes.");
  g = eval("bcrypt(\"" + std::string(72, 'a') + "\", 4)");
  EXPECT_FALSE(g.error());
  g = eval("bcrypt(u)");
  ASSERT_FALSE(g.error());
  EXPECT_FALSE(g.value.is_known());
  EXPECT_TRUE(g.value.refinement().not_null);
}

// The hashing itself (funcs/hash.h, written out so that a run's deadline
// can stop its rounds) against a hash made by Go's x/crypto/bcrypt and
// against libxcrypt's, salt for salt, on passwords of every length up to
// 72 bytes, ASCII and not.
TEST(FuncsHashTest, BcryptHashAgreesWithGoAndLibxcrypt) {
  EXPECT_EQ(funcs::bcrypt_hash("x", 10, "QxY/WVRhar5Uwdpsgz1E4u"),
            "$2a$10$QxY/WVRhar5Uwdpsgz1E4u7n/KUfum1afjXmiFqAmc2gj.fM/aNuq");
  const char* alphabet = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  uint32_t seed = 12345;
  auto next = [&seed] { return seed = seed * 1103515245 + 12345, (seed >> 16) & 0x7FFF; };
  for (int len = 0; len <= 72; len += 3) {
    std::string password;
    for (int i = 0; i < len; ++i) password += i % 5 == 4 ? "é" : std::string(1, char('!' + next() % 90));
    if (password.size() > 72) password.resize(72);
    std::string salt;
    for (int i = 0; i < 21; ++i) salt += alphabet[next() % 64];
    salt += alphabet[(next() % 4) * 16];  // the last character holds 2 bits
    std::string mine = funcs::bcrypt_hash(password, 4, salt);
    SCOPED_TRACE(password);
    EXPECT_TRUE(bcrypt_matches(password, mine)) << mine;
  }
}

TEST(FuncsHashTest, Rsadecrypt) {
  run_cases({
      {"rsadecrypt(cipher, pem)", "Hello, wörld!"},
      {"rsadecrypt(cipher, pkcs8)", "Hello, wörld!"},
      {"rsadecrypt(cipher, openssh)", "Hello, wörld!"},
      {"rsadecrypt(\"not base64!\", pem)",
       "!Invalid function argument|Invalid value for \"ciphertext\" parameter: failed to decode "
       "input \"not base64!\": cipher text must be base64-encoded."},
      {"rsadecrypt(cipher, \"nothing\")",
       "!Invalid function argument|Invalid value for \"privatekey\" parameter: invalid private "
       "key: ssh: no key found."},
      {"rsadecrypt(cipher, \"-----BEGIN FOO KEY-----\\nAAAA\\n-----END FOO KEY-----\\n\")",
       "!Invalid function argument|Invalid value for \"privatekey\" parameter: invalid private "
       "key: ssh: unsupported key type \"FOO KEY\"."},
      {"rsadecrypt(cipher, \"-----BEGIN RSA PRIVATE KEY-----\\nProc-Type: 4,ENCRYPTED\\n"
       "DEK-Info: AES-128-CBC,00000000000000000000000000000000\\n\\nAAAA\\n"
       "-----END RSA PRIVATE KEY-----\\n\")",
       "!Invalid function argument|Invalid value for \"privatekey\" parameter: invalid private "
       "key: ssh: this private key is passphrase protected."},
      {"rsadecrypt(cipher, replace(pkcs8, \"PRIVATE KEY\", \"RSA PRIVATE KEY\"))",
       "!Invalid function argument|Invalid value for \"privatekey\" parameter: invalid private "
       "key: x509: failed to parse private key (use ParsePKCS8PrivateKey instead for this key "
       "format)."},
      {"rsadecrypt(cipher, replace(pem, \"RSA PRIVATE KEY\", \"PRIVATE KEY\"))",
       "!Invalid function argument|Invalid value for \"privatekey\" parameter: invalid private "
       "key: x509: failed to parse private key (use ParsePKCS1PrivateKey instead for this key "
       "format)."},
      {"rsadecrypt(cipher, replace(ec, \"EC PRIVATE KEY\", \"RSA PRIVATE KEY\"))",
       "!Invalid function argument|Invalid value for \"privatekey\" parameter: invalid private "
       "key: x509: failed to parse private key (use ParseECPrivateKey instead for this key "
       "format)."},
      {"rsadecrypt(cipher, replace(ec, \"EC PRIVATE KEY\", \"PRIVATE KEY\"))",
       "!Invalid function argument|Invalid value for \"privatekey\" parameter: invalid private "
       "key: x509: failed to parse private key (use ParseECPrivateKey instead for this key "
       "format)."},
      {"rsadecrypt(base64encode(\"aaaa\"), pem)",
       "!Error in function call|Call to function \"rsadecrypt\" failed: failed to decrypt: "
       "crypto/rsa: decryption error."},
      {"rsadecrypt(\"AAAA\", pem)",
       "!Error in function call|Call to function \"rsadecrypt\" failed: failed to decrypt: "
       "crypto/rsa: decryption error."},
      {"rsadecrypt(cipher)",
       "!Not enough function arguments|Function \"rsadecrypt\" expects 2 argument(s). Missing "
       "value for \"privatekey\"."},
      {"rsadecrypt(cipher, null)",
       "!Invalid function argument|Invalid value for \"privatekey\" parameter: argument must not "
       "be null."},
  });
  // Malformed DER and keys of other algorithms are refused (the reference's
  // texts there quote Go's internals; see docs/conformance.md).
  Got g = eval(
      "rsadecrypt(cipher, \"-----BEGIN RSA PRIVATE KEY-----\\nAAAA\\n"
      "-----END RSA PRIVATE KEY-----\\n\")");
  EXPECT_EQ(g.summary, "Invalid function argument");
  g = eval("rsadecrypt(cipher, ec)");
  EXPECT_EQ(g.summary, "Invalid function argument");
  EXPECT_NE(g.detail.find("invalid private key type"), std::string::npos) << g.detail;
  g = eval("rsadecrypt(u, pem)");
  ASSERT_FALSE(g.error());
  EXPECT_FALSE(g.value.is_known());
  EXPECT_TRUE(g.value.refinement().not_null);
}

}  // namespace
}  // namespace hclvm
