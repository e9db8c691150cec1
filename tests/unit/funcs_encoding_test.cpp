// Tests of the encoding functions of the standard library (base64encode,
// base64decode, base64gzip, urlencode, textencodebase64, textdecodebase64,
// yamldecode, yamlencode), evaluated through the VM with
// standard_functions(). Expected values are Terraform's documented examples
// and tests, go-cty-yaml's tests, and outputs of the reference's Go code
// (encoding/base64, net/url, compress/gzip, golang.org/x/text).
#include <gtest/gtest.h>
#include <zlib.h>

#include <memory>
#include <string>
#include <vector>

#include "funcs/hash.h"
#include "hclvm/eval.h"
#include "hclvm/function.h"
#include "hclvm/functions.h"
#include "test_util.h"
#include "value/json.h"

namespace hclvm {
namespace {

// What evaluating an expression gave: a value, or the first error.
struct Got {
  Value value;
  std::string summary, detail;
  bool error() const { return !summary.empty(); }
};

// A context with the standard functions and a few variables: u (an unknown
// string), s (a sensitive string), text (a multi-line string).
const EvalContext& context() {
  static const EvalContext ctx = [] {
    EvalContext c;
    c.set_functions(std::make_shared<FunctionTable>(standard_functions()));
    c.set("u", Value::unknown(Type::string()));
    c.set("s", Value::string("SGVsbG8=").mark("sensitive"));
    c.set("bad", Value::string("dfg").mark("sensitive"));
    return c;
  }();
  return ctx;
}

Got eval(std::string_view src) {
  ExprParse p = parse_expression(make_source("<expr>", std::string(src)));
  EXPECT_FALSE(p.has_errors()) << src;
  Got g;
  if (p.has_errors()) {
    g.summary = "parse error";
    return g;
  }
  auto prog = compile_expression(*p.expr, p.source).program;
  Vm vm;
  EvalResult r = vm.run(*prog, context());
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

// A case: [want] is the string result, "=" and the typed JSON of any other
// result ({"value":…,"type":…}), or "!Summary|detail" for an error.
struct Case {
  std::string expr;
  std::string want;
};

void run_cases(std::initializer_list<Case> cases) {
  for (const Case& c : cases) {
    SCOPED_TRACE(c.expr);
    Got g = eval(c.expr);
    const std::string& want = c.want;
    if (!want.empty() && want[0] == '!') {
      size_t bar = want.find('|');
      EXPECT_EQ(g.summary, want.substr(1, bar - 1));
      EXPECT_EQ(g.detail, want.substr(bar + 1));
      continue;
    }
    ASSERT_FALSE(g.error()) << g.summary << ": " << g.detail;
    ASSERT_TRUE(g.value.is_wholly_known());
    if (!want.empty() && want[0] == '=') {
      JsonResult<std::string> j = to_json_typed(g.value);
      ASSERT_TRUE(j.ok());
      EXPECT_EQ(j.value, want.substr(1));
      continue;
    }
    ASSERT_EQ(g.value.type(), Type::string());
    EXPECT_EQ(g.value.as_string(), want);
  }
}

// The error a failing call reports, as HCL words it.
std::string call_failed(const char* fn, const std::string& message) {
  return std::string("!Error in function call|Call to function \"") + fn + "\" failed: " + message +
         ".";
}

std::string bad_arg(const char* param, const std::string& message) {
  return std::string("!Invalid function argument|Invalid value for \"") + param +
         "\" parameter: " + message + ".";
}

TEST(FuncsEncodingTest, Base64) {
  run_cases({
      {"base64encode(\"Hello World\")", "SGVsbG8gV29ybGQ="},
      {"base64encode(\"abc123!?$*&()'-=@~\")", "YWJjMTIzIT8kKiYoKSctPUB+"},
      {"base64encode(\"\")", ""},
      {"base64encode(\"é\")", "w6k="},
      {"base64encode(12)", "MTI="},
      {"base64decode(\"SGVsbG8gV29ybGQ=\")", "Hello World"},
      {"base64decode(\"YWJjMTIzIT8kKiYoKSctPUB+\")", "abc123!?$*&()'-=@~"},
      {"base64decode(\"w6k=\")", "é"},
      {"base64decode(\"\")", ""},
      {"base64decode(\"SGVs\\nbG8=\")", "Hello"},  // line breaks are skipped
      {"base64decode(\"dfg\")",
       call_failed("base64decode", "failed to decode base64 data \"dfg\"")},
      {"base64decode(bad)",
       call_failed("base64decode", "failed to decode base64 data (sensitive value)")},
      {"base64decode(\"this-is-an-invalid-base64-data\")",
       call_failed("base64decode",
                   "failed to decode base64 data \"this-is-an-invalid-base64-data\"")},
      {"base64decode(\"whee\")",
       call_failed("base64decode",
                   "the result of decoding the provided string is not valid UTF-8")},
      {"base64encode([])", bad_arg("str", "string required, but have tuple")},
      {"base64decode(null)", bad_arg("str", "argument must not be null")},
      {"base64encode()",
       "!Not enough function arguments|Function \"base64encode\" expects 1 argument(s). Missing "
       "value for \"str\"."},
      {"base64decode(\"a\", \"b\")",
       "!Too many function arguments|Function \"base64decode\" expects only 1 argument(s)."},
  });
  // base64decode takes marks and unknowns itself: the marks stay, an unknown
  // stays unknown (and not null).
  Got g = eval("base64decode(s)");
  ASSERT_FALSE(g.error());
  EXPECT_TRUE(g.value.marks().has("sensitive"));
  EXPECT_EQ(g.value.unmark().as_string(), "Hello");
  g = eval("base64decode(u)");
  ASSERT_FALSE(g.error());
  EXPECT_FALSE(g.value.is_known());
  EXPECT_TRUE(g.value.refinement().not_null);
  g = eval("base64encode(u)");
  EXPECT_FALSE(g.value.is_known());
  EXPECT_TRUE(g.value.refinement().not_null);
}

TEST(FuncsEncodingTest, Base64DecoderOffsets) {
  // Go's CorruptInputError offsets, as textdecodebase64 reports them.
  struct {
    const char* in;
    const char* out;  // null: an error at [offset]
    size_t offset;
  } cases[] = {
      {"QQ==", "A", 0},          {"QQ=", nullptr, 3},      {"QQ", nullptr, 0},
      {"Q", nullptr, 0},         {"QUJD", "ABC", 0},       {"QUJDRA", nullptr, 4},
      {"QU\nJD", "ABC", 0},      {"QQ==QQ==", nullptr, 4}, {"QQ==\n", "A", 0},
      {"QQ=\n=", "A", 0},        {"QQ=\nx", nullptr, 3},   {"=QQQ", nullptr, 0},
      {"Q=QQ", nullptr, 1},      {"QQ!=", nullptr, 2},     {"QUJD\r\nRA==", "ABCD", 0},
      {"QUJDRA==x", nullptr, 8}, {"QUJDR===", nullptr, 5}, {"QUJD====", nullptr, 4},
      {"QR==", "A", 0},          {"QUI=", "AB", 0},        {"QUJDRA=", nullptr, 7},
      {"\n\n", "", 0},           {"QQ==\nQ", nullptr, 5},  {"", "", 0},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.in);
    std::string out;
    size_t bad = 0;
    bool ok = funcs::base64_decode(c.in, out, bad);
    EXPECT_EQ(ok, c.out != nullptr);
    if (c.out) {
      EXPECT_EQ(out, c.out);
    } else {
      EXPECT_EQ(bad, c.offset);
    }
  }
}

// [b64] gunzipped.
std::string gunzip(const std::string& b64) {
  std::string gz;
  size_t bad = 0;
  EXPECT_TRUE(funcs::base64_decode(b64, gz, bad));
  z_stream zs{};
  EXPECT_EQ(inflateInit2(&zs, 31), Z_OK);
  zs.next_in = reinterpret_cast<Bytef*>(gz.data());
  zs.avail_in = uInt(gz.size());
  std::string out;
  char buf[4096];
  int rc;
  do {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    rc = inflate(&zs, Z_NO_FLUSH);
    out.append(buf, sizeof buf - zs.avail_out);
  } while (rc == Z_OK);
  EXPECT_EQ(rc, Z_STREAM_END);
  inflateEnd(&zs);
  return out;
}

TEST(FuncsEncodingTest, Base64gzip) {
  run_cases({
      // Byte for byte what Go's gzip writer gives.
      {"base64gzip(\"test\")", "H4sIAAAAAAAA/ypJLS4BAAAA//8BAAD//wx+f9gEAAAA"},
      {"base64gzip(\"\")", "H4sIAAAAAAAA/wAAAP//AQAA//8AAAAAAAAAAA=="},
      {"base64gzip(null)", bad_arg("str", "argument must not be null")},
      {"base64gzip()",
       "!Not enough function arguments|Function \"base64gzip\" expects 1 argument(s). Missing "
       "value for \"str\"."},
  });
  // Longer text: the same header and trailer, and it decompresses to the text.
  Got g = eval("base64gzip(join(\"\", [for i in range(200) : \"line ${i} héllo\\n\"]))");
  ASSERT_FALSE(g.error());
  std::string b64(g.value.as_string());
  std::string gz;
  size_t bad = 0;
  ASSERT_TRUE(funcs::base64_decode(b64, gz, bad));
  EXPECT_EQ(gz.substr(0, 10), std::string("\x1f\x8b\x08\0\0\0\0\0\0\xff", 10));
  std::string want;
  for (int i = 0; i < 200; ++i) want += "line " + std::to_string(i) + " héllo\n";
  EXPECT_EQ(gunzip(b64), want);
  EXPECT_EQ(gunzip("H4sIAAAAAAAA/ypJLS4BAAAA//8BAAD//wx+f9gEAAAA"), "test");
  g = eval("base64gzip(u)");
  EXPECT_FALSE(g.value.is_known());
  EXPECT_TRUE(g.value.refinement().not_null);
}

TEST(FuncsEncodingTest, Urlencode) {
  run_cases({
      {"urlencode(\"Hello World!\")", "Hello+World%21"},
      {"urlencode(\"☃\")", "%E2%98%83"},
      {"urlencode(\"foo=bar&bar=baz\")", "foo%3Dbar%26bar%3Dbaz"},
      {"urlencode(\"abc123-_\")", "abc123-_"},
      {"urlencode(\"foo:bar@localhost?foo=bar&bar=baz\")",
       "foo%3Abar%40localhost%3Ffoo%3Dbar%26bar%3Dbaz"},
      {"urlencode(\"mailto:email?subject=this+is+my+subject\")",
       "mailto%3Aemail%3Fsubject%3Dthis%2Bis%2Bmy%2Bsubject"},
      {"urlencode(\"foo/bar\")", "foo%2Fbar"},
      {"urlencode(\"a b&c=d/é~_.-!*'()+\")", "a+b%26c%3Dd%2F%C3%A9~_.-%21%2A%27%28%29%2B"},
      {"urlencode(\"\")", ""},
      {"urlencode(null)", bad_arg("str", "argument must not be null")},
      {"urlencode({})", bad_arg("str", "string required, but have object")},
  });
}

TEST(FuncsEncodingTest, TextEncodeBase64) {
  auto no_charset = [](const char* name) {
    return bad_arg("encoding", std::string("\"") + name +
                                   "\" is not a supported IANA encoding name or alias in this "
                                   "Terraform version");
  };
  run_cases({
      {"textencodebase64(\"Hello World\", \"UTF-16LE\")", "SABlAGwAbABvACAAVwBvAHIAbABkAA=="},
      {"textencodebase64(\"abc123!?$*&()'-=@~\", \"UTF-8\")", "YWJjMTIzIT8kKiYoKSctPUB+"},
      {"textencodebase64(\"abc123!?$*&()'-=@~\", \"UTF-16LE\")",
       "YQBiAGMAMQAyADMAIQA/ACQAKgAmACgAKQAnAC0APQBAAH4A"},
      {"textencodebase64(\"abc123!?$*&()'-=@~\", \"CP936\")", "YWJjMTIzIT8kKiYoKSctPUB+"},
      {"textencodebase64(\"hé😀\", \"UTF-16\")", "/v8AaADp2D3eAA=="},
      {"textencodebase64(\"hé😀\", \"UTF-16BE\")", "AGgA6dg93gA="},
      {"textencodebase64(\"hé😀\", \"utf-16le\")", "aADpAD3YAN4="},
      {"textencodebase64(\"hé😀\", \"utf-8\")", "aMOp8J+YgA=="},
      {"textencodebase64(\"\", \"UTF-16\")", "/v8="},
      {"textencodebase64(\"\", \"UTF-16LE\")", ""},
      {"textencodebase64(\"hé\", \" latin1 \")", "aOk="},
      {"textencodebase64(\"hé\", \"macintosh\")", "aI4="},
      {"textencodebase64(\"∆\", \"macintosh\")", "xg=="},
      {"textencodebase64(\"ўЎ\", \"KOI8-U\")", "rr4="},
      {"textencodebase64(\"€\", \"windows-1252\")", "gA=="},
      {"textencodebase64(\"こんにちは世界\", \"Shift_JIS\")", "grGC8YLJgr+CzZCiikU="},
      {"textencodebase64(\"한국어\", \"EUC-KR\")", "x9Gxub7u"},
      {"textencodebase64(\"🤔\", \"cp437\")",
       bad_arg("string",
               "the given string contains characters that cannot be represented in "
               "IBM437")},
      {"textencodebase64(\"hé😀\", \"latin1\")",
       bad_arg("string",
               "the given string contains characters that cannot be represented in "
               "ISO_8859-1:1987")},
      {"textencodebase64(\"é\", \"us-ascii\")",
       bad_arg("string",
               "the given string contains characters that cannot be represented in "
               "US-ASCII")},
      {"textencodebase64(\"\\u0080\", \"ISO-8859-2\")",
       bad_arg("string",
               "the given string contains characters that cannot be represented in "
               "ISO_8859-2:1987")},
      {"textencodebase64(\"Δ\", \"macintosh\")",
       bad_arg("string",
               "the given string contains characters that cannot be represented in "
               "macintosh")},
      {"textencodebase64(\"abc\", \"NOT-EXISTS\")", no_charset("NOT-EXISTS")},
      {"textencodebase64(\"abc\", \"ASCII\")", no_charset("ASCII")},
      {"textencodebase64(\"abc\", \"cp1252\")", no_charset("cp1252")},
      {"textencodebase64(\"abc\", null)", bad_arg("encoding", "argument must not be null")},
      {"textencodebase64(\"abc\")",
       "!Not enough function arguments|Function \"textencodebase64\" expects 2 argument(s). "
       "Missing value for \"encoding\"."},
  });
  for (const char* e : {"textencodebase64(u, \"windows-1250\")", "textencodebase64(\"a\", u)"}) {
    SCOPED_TRACE(e);
    Got g = eval(e);
    ASSERT_FALSE(g.error());
    EXPECT_FALSE(g.value.is_known());
    EXPECT_TRUE(g.value.refinement().not_null);
  }
}

TEST(FuncsEncodingTest, TextDecodeBase64) {
  auto undefined = [](const char* set) {
    return bad_arg(
        "source", std::string("the given string contains symbols that are not defined for ") + set);
  };
  run_cases({
      {"textdecodebase64(\"SABlAGwAbABvACAAVwBvAHIAbABkAA==\", \"UTF-16LE\")", "Hello World"},
      {"textdecodebase64(\"YWJjMTIzIT8kKiYoKSctPUB+\", \"UTF-8\")", "abc123!?$*&()'-=@~"},
      {"textdecodebase64(\"YQBiAGMAMQAyADMAIQA/ACQAKgAmACgAKQAnAC0APQBAAH4A\", \"UTF-16LE\")",
       "abc123!?$*&()'-=@~"},
      {"textdecodebase64(\"YWJjMTIzIT8kKiYoKSctPUB+\", \"CP936\")", "abc123!?$*&()'-=@~"},
      // UTF-16 reads a byte order mark (and defaults to big-endian);
      // UTF-16LE and UTF-16BE keep one as a character.
      {"textdecodebase64(\"/v8AaADp\", \"UTF-16\")", "hé"},
      {"textdecodebase64(\"//5oAOkA\", \"UTF-16\")", "hé"},
      {"textdecodebase64(\"AGgA6Q==\", \"UTF-16\")", "hé"},
      {"textdecodebase64(\"//5oAOkA\", \"UTF-16LE\")", "\xEF\xBB\xBFhé"},
      {"textdecodebase64(\"2D3eAA==\", \"UTF-16BE\")", "😀"},
      {"textdecodebase64(\"xvA=\", \"macintosh\")", "∆\xEF\xA3\xBF"},
      {"textdecodebase64(\"rr4=\", \"KOI8-U\")", "ўЎ"},
      {"textdecodebase64(\"yg==\", \"windows-1255\")", "\xD6\xBA"},
      {"textdecodebase64(\"gA==\", \"windows-1252\")", "€"},
      {"textdecodebase64(\"gA==\", \"latin1\")", "\xC2\x80"},
      {"textdecodebase64(\"grGC8YLJgr+CzZCiikU=\", \"shift_jis\")", "こんにちは世界"},
      // Shift_JIS as x/text (and so Terraform 1.11.4) reads it: a lone 0x80
      // is U+0080; 0xA0 and 0xF0-0xFF (the code page's user area) lead
      // nothing, and a lead byte needs its trail.
      {"textdecodebase64(\"QYBC\", \"SHIFT_JIS\")",
       "A\xC2\x80"
       "B"},
      {"textdecodebase64(\"gIA=\", \"SHIFT_JIS\")", "\xC2\x80\xC2\x80"},
      {"textdecodebase64(\"iKA=\", \"SHIFT_JIS\")", "唖"},
      {"textdecodebase64(\"sQ==\", \"SHIFT_JIS\")", "ｱ"},
      {"textdecodebase64(\"8EA=\", \"SHIFT_JIS\")", undefined("Shift_JIS")},
      {"textdecodebase64(\"oA==\", \"SHIFT_JIS\")", undefined("Shift_JIS")},
      {"textdecodebase64(\"/w==\", \"SHIFT_JIS\")", undefined("Shift_JIS")},
      {"textdecodebase64(\"gQ==\", \"SHIFT_JIS\")", undefined("Shift_JIS")},
      {"textdecodebase64(\"\", \"UTF-16\")", ""},
      {"textdecodebase64(\"gQ==\", \"windows-1250\")", undefined("windows-1250")},
      {"textdecodebase64(\"gA==\", \"ISO-8859-2\")", undefined("ISO_8859-2:1987")},
      {"textdecodebase64(\"2D0=\", \"UTF-16BE\")", undefined("UTF-16BE")},
      {"textdecodebase64(\"AGgA\", \"UTF-16BE\")", undefined("UTF-16BE")},
      {"textdecodebase64(\"AA==\", \"UTF-16\")", undefined("UTF-16")},
      {"textdecodebase64(\"gA==\", \"US-ASCII\")", undefined("US-ASCII")},
      {"textdecodebase64(\"wyg=\", \"UTF-8\")", undefined("UTF-8")},
      {"textdecodebase64(\"77+9\", \"UTF-8\")", undefined("UTF-8")},  // a U+FFFD of its own
      {"textdecodebase64(\"<invalid base64>\", \"cp437\")",
       bad_arg("source", "the given value is has an invalid base64 symbol at offset 0")},
      {"textdecodebase64(\"QUJDRA\", \"UTF-8\")",
       bad_arg("source", "the given value is has an invalid base64 symbol at offset 4")},
      {"textdecodebase64(\"doesn't matter\", \"NOT-EXISTS\")",
       bad_arg("encoding",
               "\"NOT-EXISTS\" is not a supported IANA encoding name or alias in this Terraform "
               "version")},
      {"textdecodebase64(null, \"UTF-8\")", bad_arg("source", "argument must not be null")},
  });
  Got g = eval("textdecodebase64(u, \"windows-1250\")");
  ASSERT_FALSE(g.error());
  EXPECT_FALSE(g.value.is_known());
  EXPECT_TRUE(g.value.refinement().not_null);
}

TEST(FuncsEncodingTest, Yamldecode) {
  const std::string obj_str = R"(["object",{"hello":"string"}])";
  run_cases({
      // Terraform's documented examples.
      {"yamldecode(\"hello: world\")", R"(={"value":{"hello":"world"},"type":)" + obj_str + "}"},
      {"yamldecode(\"true\")", R"(={"value":true,"type":"bool"})"},
      {"yamldecode(\"{a: &foo [1, 2, 3], b: *foo}\")",
       R"(={"value":{"a":[1,2,3],"b":[1,2,3]},"type":["object",{"a":["tuple",["number","number",)"
       R"("number"]],"b":["tuple",["number","number","number"]]}]})"},
      {"yamldecode(\"{a: &foo [1, *foo, 3]}\")",
       call_failed("yamldecode", "cannot refer to anchor \"foo\" from inside its own definition")},
      {"yamldecode(\"{a: !not-supported foo}\")",
       call_failed("yamldecode", "unsupported tag \"!not-supported\"")},
      // Scalars (go-cty-yaml's tests).
      {"yamldecode(\"\\\"hello\\\"\")", "hello"},
      {"yamldecode(\"'hello'\")", "hello"},
      {"yamldecode(\"|\\n  hello\\n  world\")", "hello\nworld"},
      {"yamldecode(\">\\n  hello\\n  world\")", "hello world"},
      {"yamldecode(\"hello\")", "hello"},
      {"yamldecode(\"<<\")", "<<"},
      {"yamldecode(\"!!str true\")", "true"},
      {"yamldecode(\"!<tag:yaml.org,2002:str> true\")", "true"},
      {"yamldecode(\"yes\")", R"(={"value":true,"type":"bool"})"},
      {"yamldecode(\"Off\")", R"(={"value":false,"type":"bool"})"},
      {"yamldecode(\"!!bool true\")", R"(={"value":true,"type":"bool"})"},
      {"yamldecode(\"!!bool bananas\")",
       call_failed("yamldecode", "cannot parse \"bananas\" as tag:yaml.org,2002:bool")},
      {"yamldecode(\".5\")", R"(={"value":0.5,"type":"number"})"},
      {"yamldecode(\"1.5\")", R"(={"value":1.5,"type":"number"})"},
      {"yamldecode(\"!!float 1.5\")", R"(={"value":1.5,"type":"number"})"},
      {"yamldecode(\"12\")", R"(={"value":12,"type":"number"})"},
      {"yamldecode(\"-12\")", R"(={"value":-12,"type":"number"})"},
      {"yamldecode(\"+12\")", R"(={"value":12,"type":"number"})"},
      {"yamldecode(\"!!int 1\")", R"(={"value":1,"type":"number"})"},
      {"yamldecode(\"1e3\")", R"(={"value":1000,"type":"number"})"},
      {"yamldecode(\"0x1F\")", R"(={"value":31,"type":"number"})"},
      {"yamldecode(\"0o17\")", R"(={"value":15,"type":"number"})"},
      {"yamldecode(\"0xFFFFFFFFFFFFFFFF\")", R"(={"value":18446744073709551615,"type":"number"})"},
      {"yamldecode(\"!!int 0b101\")", R"(={"value":5,"type":"number"})"},
      {"yamldecode(\"!!int 1_000\")", R"(={"value":1000,"type":"number"})"},
      // YAML 1.2's integers only: these stay text.
      {"yamldecode(\"-0x1F\")", "-0x1F"},
      {"yamldecode(\"1_000\")", "1_000"},
      {"yamldecode(\"+\")", "+"},
      {"yamldecode(\"+Inf\")", "+Inf"},
      {"yamldecode(\"!!int abc\")",
       call_failed("yamldecode", "cannot parse \"abc\" as tag:yaml.org,2002:int")},
      {"yamldecode(\".NaN\")", call_failed("yamldecode", "floating point NaN is not supported")},
      {"yamldecode(\"!!float .nan\")",
       call_failed("yamldecode", "cannot parse \".nan\" as tag:yaml.org,2002:float")},
      {"yamldecode(\"'12'\")", "12"},
      {"yamldecode(\"2006-1-2\")", "2006-01-02T00:00:00Z"},
      {"yamldecode(\"!!timestamp 2006-1-2\")", "2006-01-02T00:00:00Z"},
      {"yamldecode(\"2001-12-14t21:59:43.10-05:00\")", "2001-12-14T21:59:43-05:00"},
      {"yamldecode(\"2001-12-14T21:59:43Z\")", "2001-12-14T21:59:43Z"},
      {"yamldecode(\"2001-12-14 21:59:43.10\")", "2001-12-14T21:59:43Z"},
      {"yamldecode(\"2001-12-14T21:59:43+00:00\")", "2001-12-14T21:59:43Z"},
      {"yamldecode(\"2006-2-30\")", "2006-2-30"},
      {"yamldecode(\"!!timestamp 2006-2-30\")",
       call_failed("yamldecode", "cannot parse \"2006-2-30\" as tag:yaml.org,2002:timestamp")},
      {"yamldecode(\"!!binary 'aGVsbG8='\")", "aGVsbG8="},
      {"yamldecode(\"!!binary '>>>>>>>>>'\")",
       call_failed("yamldecode",
                   "cannot parse \">>>>>>>>>\" as tag:yaml.org,2002:binary: not valid base64")},
      {"yamldecode(\"null\")", R"(={"value":null,"type":"dynamic"})"},
      {"yamldecode(\"~\")", R"(={"value":null,"type":"dynamic"})"},
      {"yamldecode(\"---\")", R"(={"value":null,"type":"dynamic"})"},
      {"yamldecode(\"!!nope foo\")",
       call_failed("yamldecode", "unsupported tag \"tag:yaml.org,2002:nope\"")},
      // Collections.
      {"yamldecode(\"{}\")", R"(={"value":{},"type":["object",{}]})"},
      {"yamldecode(\"[]\")", R"(={"value":[],"type":["tuple",[]]})"},
      {"yamldecode(\"{a: 1, b: true}\")",
       R"(={"value":{"a":1,"b":true},"type":["object",{"a":"number","b":"bool"}]})"},
      {"yamldecode(\"[a, b, true]\")",
       R"(={"value":["a","b",true],"type":["tuple",["string","string","bool"]]})"},
      {"yamldecode(\"a: 1\\nb:\\n  - foo\\n  - <<\\n  - baz\\n\")",
       R"(={"value":{"a":1,"b":["foo","\u003c\u003c","baz"]},"type":["object",{"a":"number",)"
       R"("b":["tuple",["string","string","string"]]}]})"},
      {"yamldecode(\"a: ~\")", R"(={"value":{"a":null},"type":["object",{"a":"dynamic"}]})"},
      // Keys are converted to strings; "y" is YAML 1.1's true.
      {"yamldecode(\"1: x\\ntrue: y\\n1.50: z\")",
       R"(={"value":{"1":"x","1.5":"z","true":true},"type":["object",{"1":"string","1.5":"string",)"
       R"("true":"bool"}]})"},
      {"yamldecode(\"a: 1\\na: 2\")", R"(={"value":{"a":2},"type":["object",{"a":"number"}]})"},
      // A block scalar is text to the type and resolved for the value, then
      // converted.
      {"yamldecode(\"|-\\n  1.50\")", "1.5"},
      // Anchors and aliases.
      {"yamldecode(\"- &foo a\\n- b\\n- *foo\\n\")",
       R"(={"value":["a","b","a"],"type":["tuple",["string","string","string"]]})"},
      {"yamldecode(\"\\nfoo: &bar\\n  - x\\n  - *bar\\n\")",
       call_failed("yamldecode",
                   "on line 3, column 5: cannot refer to anchor \"bar\" from inside its own "
                   "definition")},
      {"yamldecode(\"a: 1\\nb: *nope\")",
       call_failed("yamldecode", "on line 1, column 4: reference to undefined anchor \"nope\"")},
      // Merge keys.
      {"yamldecode(\"a: aa\\n<<:\\n  b: bb\\n  c: cc\\nd: dd\\n\")",
       R"(={"value":{"a":"aa","b":"bb","c":"cc","d":"dd"},"type":["object",{"a":"string",)"
       R"("b":"string","c":"string","d":"string"}]})"},
      {"yamldecode(\"a: aa\\n<<:\\n  a: aaa\\n<<:\\n  b: bbb\\nb: bb\\n\")",
       R"(={"value":{"a":"aaa","b":"bb"},"type":["object",{"a":"string","b":"string"}]})"},
      {"yamldecode(\"a: aa\\n<<:\\n  - b: bb\\n  - c: cc\\nd: dd\\n\")",
       R"(={"value":{"a":"aa","b":"bb","c":"cc","d":"dd"},"type":["object",{"a":"string",)"
       R"("b":"string","c":"string","d":"string"}]})"},
      {"yamldecode(\"a: &foo\\n  beep: boop\\nb:\\n  <<: *foo\\n  bleep: bloop\\n\")",
       R"(={"value":{"a":{"beep":"boop"},"b":{"beep":"boop","bleep":"bloop"}},"type":["object",)"
       R"({"a":["object",{"beep":"string"}],"b":["object",{"beep":"string","bleep":"string"}]}]})"},
      {"yamldecode(\"a: aa\\n!!merge doesnt-matter-what-is-here:\\n  b: bb\\n  c: cc\\nd: dd\\n\")",
       R"(={"value":{"a":"aa","b":"bb","c":"cc","d":"dd"},"type":["object",{"a":"string",)"
       R"("b":"string","c":"string","d":"string"}]})"},
      {"yamldecode(\"a: 1\\n<<: 2\")",
       call_failed("yamldecode", "on line 1, column 1: cannot merge number into mapping")},
      // Keys must be strings.
      {"yamldecode(\"? [a]\\n: b\")",
       call_failed("yamldecode", "only strings are allowed as mapping keys")},
      {"yamldecode(\"x: 1\\n~: b\")",
       call_failed("yamldecode", "on line 1, column 1: mapping key cannot be null")},
      {"yamldecode(\"!!bool foo: 1\")",
       call_failed("yamldecode", "cannot parse \"foo\" as tag:yaml.org,2002:bool")},
      {"yamldecode(\"!!set {a: 1}\")",
       call_failed("yamldecode", "can't interpret mapping as tag:yaml.org,2002:set")},
      {"yamldecode(\"x:\\n  !!omap [a]\")",
       call_failed("yamldecode",
                   "on line 1, column 3: can't interpret sequence as "
                   "tag:yaml.org,2002:omap")},
      // One document only; errors of the YAML parser with its position.
      // The first document's end comes between (so the reference never says
      // "only a single document is allowed" here).
      {"yamldecode(\"a: 1\\n---\\nb: 2\\n\")",
       call_failed("yamldecode", "on line 1, column 1: unexpected extra content after value")},
      {"yamldecode(\"\")",
       call_failed("yamldecode", "on line 1, column 1: missing start of document")},
      {"yamldecode(\"# nothing\")",
       call_failed("yamldecode", "on line 1, column 1: missing start of document")},
      {"yamldecode(\"a: b: c\")",
       call_failed("yamldecode", "mapping values are not allowed in this context")},
      {"yamldecode(\"x: 1\\na: b: c\")",
       call_failed("yamldecode",
                   "on line 2, column 1: mapping values are not allowed in this "
                   "context")},
      {"yamldecode(null)", bad_arg("src", "argument must not be null")},
      {"yamldecode()",
       "!Not enough function arguments|Function \"yamldecode\" expects 1 argument(s). Missing "
       "value for \"src\"."},
  });
  // An unknown source: the type is not known either.
  Got g = eval("yamldecode(u)");
  ASSERT_FALSE(g.error());
  EXPECT_FALSE(g.value.is_known());
  EXPECT_TRUE(g.value.type()->is_dynamic());
}

TEST(FuncsEncodingTest, YamldecodeDeepNesting) {
  // As deep as JSON documents may nest, and no deeper.
  auto nested = [](size_t n) {
    return "yamldecode(\"" + std::string(n, '[') + std::string(n, ']') + "\")";
  };
  Got g = eval(nested(10000));
  ASSERT_FALSE(g.error()) << g.detail;
  EXPECT_TRUE(g.value.type()->is_tuple());
  g = eval(nested(100000));
  EXPECT_EQ(g.detail,
            "Call to function \"yamldecode\" failed: the document nests more than 10000 levels "
            "deep.");
  g = eval("yamlencode(yamldecode(\"" + std::string(3000, '[') + std::string(3000, ']') + "\"))");
  ASSERT_FALSE(g.error()) << g.detail;
}

TEST(FuncsEncodingTest, Yamlencode) {
  run_cases({
      // Terraform's documented examples.
      {"yamlencode({\"a\":\"b\", \"c\":\"d\"})", "\"a\": \"b\"\n\"c\": \"d\"\n"},
      {"yamlencode({\"foo\":[1, 2, 3], \"bar\": \"baz\"})",
       "\"bar\": \"baz\"\n\"foo\":\n- 1\n- 2\n- 3\n"},
      {"yamlencode({\"foo\":[1, {\"a\":\"b\",\"c\":\"d\"}, 3], \"bar\": \"baz\"})",
       "\"bar\": \"baz\"\n\"foo\":\n- 1\n- \"a\": \"b\"\n  \"c\": \"d\"\n- 3\n"},
      // go-cty-yaml's tests: a plain scalar at the root ends the document.
      {"yamlencode(true)", "true\n...\n"},
      {"yamlencode(\"\")", "\"\"\n"},
      {"yamlencode(\"hello\")", "\"hello\"\n"},
      {"yamlencode(\"hello\\nworld\")", "|-\n  hello\n  world\n"},
      {"yamlencode(0)", "0\n...\n"},
      {"yamlencode(yamldecode(\".inf\"))", "+.Inf\n...\n"},
      {"yamlencode(yamldecode(\"-.inf\"))", "-.Inf\n...\n"},
      {"yamlencode({})", "{}\n"},
      {"yamlencode({a = \"b\"})", "\"a\": \"b\"\n"},
      {"yamlencode(tomap({a = \"b\"}))", "\"a\": \"b\"\n"},
      {"yamlencode([])", "[]\n"},
      {"yamlencode([\"b\"])", "- \"b\"\n"},
      {"yamlencode(tolist([\"b\"]))", "- \"b\"\n"},
      {"yamlencode(toset([\"b\"]))", "- \"b\"\n"},
      {"yamlencode(null)", "null\n...\n"},
      {"yamlencode(tostring(null))", "null\n...\n"},
      // Numbers as cty writes them; text escaped where YAML needs it.
      {"yamlencode(1.5)", "1.5\n...\n"},
      {"yamlencode(-0.25)", "-0.25\n...\n"},
      {"yamlencode(12345678901234567890)", "12345678901234567890\n...\n"},
      {"yamlencode(\"tab\\there \\\"q\\\" é 😀\")", "\"tab\\there \\\"q\\\" é \\U0001F600\"\n"},
      {"yamlencode(\"a\\n\\n\")", "|+\n  a\n\n...\n"},
      {"yamlencode(\"\\n lead\")", "|2-\n\n   lead\n"},
      {"yamlencode(\"trail \\nx\")", "\"trail \\nx\"\n"},
      {"yamlencode({\"a\\nb\" = 1})", "? |-\n  a\n  b\n: 1\n"},
      {"yamlencode({a = [[1, 2], {}, []], b = {c = null}})",
       "\"a\":\n- - 1\n  - 2\n- {}\n- []\n\"b\":\n  \"c\": null\n"},
      // Long text folds at the first space past column 80.
      {"yamlencode(\"aaaaaaaaaa bbbbbbbbbb cccccccccc dddddddddd eeeeeeeeee ffffffffff "
       "gggggggggg hhhhhhhhhh iiiiiiiiii\")",
       "\"aaaaaaaaaa bbbbbbbbbb cccccccccc dddddddddd eeeeeeeeee ffffffffff gggggggggg "
       "hhhhhhhhhh\n  iiiiiiiiii\"\n"},
      {"yamlencode([u])", call_failed("yamlencode", "cannot serialize unknown value as YAML")},
      {"yamlencode()",
       "!Not enough function arguments|Function \"yamlencode\" expects 1 argument(s). Missing "
       "value for \"value\"."},
  });
  // An unknown value gives an unknown string; marks move to the result.
  Got g = eval("yamlencode(u)");
  ASSERT_FALSE(g.error());
  EXPECT_FALSE(g.value.is_known());
  EXPECT_EQ(g.value.type(), Type::string());
  g = eval("yamlencode({a = s})");
  ASSERT_FALSE(g.error());
  EXPECT_TRUE(g.value.marks().has("sensitive"));
  EXPECT_EQ(g.value.unmark().as_string(), "\"a\": \"SGVsbG8=\"\n");
  // libyaml writes well-formed UTF-8 only.
  FunctionTable t = standard_functions();
  std::vector<Value> args = {Value::string("a\xff")};
  FuncResult r = t.find("yamlencode")->call(args);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->message, "cannot serialize a string that is not valid UTF-8 as YAML");
  // Round trip through yamldecode.
  g = eval("yamldecode(yamlencode({a = [1, \"x\\ny\", true, null], b = {c = 2.5}}))");
  ASSERT_FALSE(g.error());
  JsonResult<std::string> j = to_json_typed(g.value);
  ASSERT_TRUE(j.ok());
  EXPECT_EQ(j.value,
            R"({"value":{"a":[1,"x\ny",true,null],"b":{"c":2.5}},"type":["object",{"a":["tuple",)"
            R"(["number","string","bool","dynamic"]],"b":["object",{"c":"number"}]}]})");
}

// jsondecode reads a document once, in its type check, and hands the value
// to the call that follows; a call for another document (or none at all
// after a check) must not get that value.
TEST(FuncsEncodingTest, JsondecodeReadsOnceAndKeepsDocumentsApart) {
  run_cases({
      {R"([jsondecode("{\"a\":1}"), jsondecode("{\"a\":2}"), jsondecode("[true]")])",
       R"(={"value":[{"a":1},{"a":2},[true]],"type":["tuple",[["object",{"a":"number"}],["object",{"a":"number"}],["tuple",["bool"]]]]})"},
      {R"(nonsensitive(jsondecode(sensitive("{\"k\":\"v\"}")).k))", "v"},
      {R"(jsondecode("{\"a\":1,}"))",
       call_failed("jsondecode", "invalid character '}' looking for beginning of object key string")},
  });
  const Function* f = standard_functions().find("jsondecode");
  ASSERT_NE(f, nullptr);
  std::vector<Value> one = {Value::string(R"({"x":"first"})")};
  std::vector<Value> two = {Value::string(R"({"x":"other"})")};
  // A check of one document, then a call with another of the same type.
  TypeResult t = f->return_type(one);
  ASSERT_TRUE(t.ok());
  FuncResult r = f->call(two);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value.attr("x")->as_string(), "other");
  r = f->call(one);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value.attr("x")->as_string(), "first");
}

TEST(FuncsEncodingTest, GoCtyVersionsStay) {
  // Terraform takes these from go-cty's stdlib, which default_functions()
  // already has: the standard table keeps them as they are.
  FunctionTable std_table = standard_functions();
  FunctionTable go_cty = default_functions();
  for (const char* name : {"csvdecode", "jsondecode", "jsonencode"}) {
    EXPECT_EQ(std_table.find(name), go_cty.find(name)) << name;
  }
  for (const char* name : {"base64encode", "base64decode", "base64gzip", "urlencode",
                           "textencodebase64", "textdecodebase64", "yamldecode", "yamlencode"}) {
    EXPECT_NE(std_table.find(name), nullptr) << name;
    EXPECT_EQ(go_cty.find(name), nullptr) << name;
  }
}

}  // namespace
}  // namespace hclvm
