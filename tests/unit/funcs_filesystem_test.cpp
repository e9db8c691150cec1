// Tests of the filesystem functions through the VM with
// standard_functions({base_dir}): basename, dirname, abspath, pathexpand,
// file, filebase64, fileexists, fileset, the file hashes and templatefile.
//
// The first table's expectations come from Terraform's filesystem and hash
// functions (with doublestar v1.1.5 and go-homedir, base directory ".")
// run by Go on the very fixture SetUpTestSuite builds, from inside it;
// Terraform's own tests and documentation supplied many of the cases. The
// other tests cover what such a table cannot show: unknowns and marks, the
// sandbox around the base directory, the template cache, threads.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "hclvm/eval.h"
#include "hclvm/function.h"
#include "hclvm/functions.h"
#include "hclvm/syntax.h"
#include "test_util.h"

namespace hclvm {
namespace {

namespace fs = std::filesystem;

using Out = test::EvalOutcome;

Out eval(const FunctionTable& fns, std::string_view src,
         const std::map<std::string, Value>& vars = {}) {
  return test::eval_with(std::make_shared<const FunctionTable>(fns), src, vars);
}

void write(const fs::path& p, std::string_view bytes) {
  std::ofstream out(p, std::ios::binary);
  out << bytes;
}

// Builds the fixture in a fresh temporary directory and makes it the
// working directory, as Terraform's tests run with base directory ".".
class FuncsFilesystemTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    saved_cwd_ = fs::current_path();
    saved_home_ = std::getenv("HOME") ? std::getenv("HOME") : "";
    ::setenv("HOME", "/home/tester", 1);
    std::string templ = (fs::temp_directory_path() / "hclvm-funcs-fs-XXXXXX").string();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    root_ = fs::canonical(templ);
    fs::path f = root_ / "fixture";
    fs::create_directories(f / "sub" / "deep");
    fs::create_directories(f / "empty");
    fs::create_directories(f / "weird");
    write(f / "hello.txt", "Hello World");
    write(f / "hello.tmpl", "Hello, ${name}!");
    write(f / "func.tmpl", "The items are ${join(\", \", list)}");
    write(f / "list.tmpl", "%{ for x in list ~}\n- ${x}\n%{ endfor ~}\n");
    write(f / "recursive.tmpl", "${templatefile(\"recursive.tmpl\", {})}");
    write(f / "bare.tmpl", "${val}");
    write(f / "bad.tmpl", "Hello ${");
    write(f / "errors.tmpl", "${a + 1}${b + 1}");
    write(f / "binary.bin", std::string("\xff\xfe\x00"
                                        "a",
                                        4));
    write(f / "unicode.txt", "h\xc3\xa9llo\n");
    write(f / "sub" / "a.txt", "a");
    write(f / "sub" / "b.md", "b");
    write(f / "sub" / "deep" / "c.txt", "c");
    write(f / "weird" / "[x].txt", "w");
    fs::create_symlink("hello.txt", f / "link.txt");
    fs::create_symlink("missing.txt", f / "dangling.txt");
    fs::create_symlink("hello.txt/child", f / "through.txt");
    fs::create_directory_symlink("sub", f / "link-sub");
    fs::current_path(f);
  }

  static void TearDownTestSuite() {
    fs::current_path(saved_cwd_);
    if (saved_home_.empty())
      ::unsetenv("HOME");
    else
      ::setenv("HOME", saved_home_.c_str(), 1);
    std::error_code ec;
    fs::remove_all(root_, ec);
  }

  static FunctionTable table(std::string base = ".") {
    LibraryOptions o;
    o.base_dir = std::move(base);
    return standard_functions(o);
  }

  static const FunctionTable& dot() {
    static const FunctionTable t = table();
    return t;
  }

  static inline fs::path root_, saved_cwd_;
  static inline std::string saved_home_;
};

struct Case {
  const char* expr;
  const char* summary;  // empty: success
  const char* want;     // the typed JSON result or the diagnostic's detail
};

const Case kCases[] = {
    {R"(basename("testdata/hello.txt"))", "", R"({"value":"hello.txt","type":"string"})"},
    {R"(basename("hello.txt"))", "", R"({"value":"hello.txt","type":"string"})"},
    {R"(basename(""))", "", R"({"value":".","type":"string"})"},
    {R"(basename("/"))", "", R"({"value":"/","type":"string"})"},
    {R"(basename("a/b/"))", "", R"({"value":"b","type":"string"})"},
    {R"(basename("//"))", "", R"({"value":"/","type":"string"})"},
    {R"(dirname("testdata/foo/hello.txt"))", "", R"({"value":"testdata/foo","type":"string"})"},
    {R"(dirname("hello.txt"))", "", R"({"value":".","type":"string"})"},
    {R"(dirname(""))", "", R"({"value":".","type":"string"})"},
    {R"(dirname("/"))", "", R"({"value":"/","type":"string"})"},
    {R"(dirname("/a"))", "", R"({"value":"/","type":"string"})"},
    {R"(dirname("a//b/../c"))", "", R"({"value":"a","type":"string"})"},
    {R"(dirname("a/"))", "", R"({"value":"a","type":"string"})"},
    // filepath.Clean on what dirname keeps (Go 1.19's answers): names that
    // only start with dots stay, "." and ".." components go.
    {R"(dirname("a/.b/c"))", "", R"({"value":"a/.b","type":"string"})"},
    {R"(dirname("a/..b/c"))", "", R"({"value":"a/..b","type":"string"})"},
    {R"(dirname("../a/b"))", "", R"({"value":"../a","type":"string"})"},
    {R"(dirname("/../a/b"))", "", R"({"value":"/a","type":"string"})"},
    {R"(dirname("./a/b"))", "", R"({"value":"a","type":"string"})"},
    {R"(dirname("//a/b"))", "", R"({"value":"/a","type":"string"})"},
    {R"(dirname("/a/./b/c"))", "", R"({"value":"/a/b","type":"string"})"},
    {R"(dirname("a/b/.."))", "", R"({"value":"a/b","type":"string"})"},
    {R"(dirname("a/b/c"))", "", R"({"value":"a/b","type":"string"})"},
    {R"(pathexpand("/root/file"))", "", R"({"value":"/root/file","type":"string"})"},
    {R"(pathexpand("~user/x"))", "Error in function call",
     R"(Call to function "pathexpand" failed: cannot expand )"
     R"(user-specific home dir.)"},
    {R"(pathexpand("~"))", "", R"({"value":"/home/tester","type":"string"})"},
    {R"(pathexpand("~/x/../y"))", "", R"({"value":"/home/tester/y","type":"string"})"},
    {R"(pathexpand(""))", "", R"({"value":"","type":"string"})"},
    {R"(file("hello.txt"))", "", R"({"value":"Hello World","type":"string"})"},
    {R"(file("missing"))", "Invalid function argument",
     R"(Invalid value for "path" parameter: no file exists at )"
     R"("missing"; this function works only with files that are )"
     R"(distributed as part of the configuration source code, so if )"
     R"(this file will be created by a resource in this )"
     R"(configuration you must instead obtain this result from an )"
     R"(attribute of that resource.)"},
    {R"(file("binary.bin"))", "Error in function call",
     R"(Call to function "file" failed: contents of "binary.bin" )"
     R"(are not valid UTF-8; use the filebase64 function to obtain )"
     R"(the Base64 encoded contents or the other file functions )"
     R"((e.g. filemd5, filesha256) to obtain file hashing results )"
     R"(instead.)"},
    {R"(file("sub"))", "Invalid function argument",
     R"(Invalid value for "path" parameter: failed to read file: )"
     R"(read sub: is a directory.)"},
    {R"(file("unicode.txt"))", "", R"({"value":"héllo\n","type":"string"})"},
    {R"(file("link.txt"))", "", R"({"value":"Hello World","type":"string"})"},
    {R"(file("./sub/../hello.txt"))", "", R"({"value":"Hello World","type":"string"})"},
    {R"(file("~x"))", "Invalid function argument",
     R"(Invalid value for "path" parameter: failed to expand ~: )"
     R"(cannot expand user-specific home dir.)"},
    {R"(file(sens))", "", R"({"value":"Hello World","type":"string"})"},
    {R"(file("dangling.txt"))", "Invalid function argument",
     R"(Invalid value for "path" parameter: no file exists at )"
     R"("dangling.txt"; this function works only with files that )"
     R"(are distributed as part of the configuration source code, )"
     R"(so if this file will be created by a resource in this )"
     R"(configuration you must instead obtain this result from an )"
     R"(attribute of that resource.)"},
    {R"(file("through.txt"))", "Invalid function argument",
     R"(Invalid value for "path" parameter: open through.txt: not a )"
     R"(directory.)"},
    {R"(filebase64("hello.txt"))", "", R"({"value":"SGVsbG8gV29ybGQ=","type":"string"})"},
    {R"(filebase64("binary.bin"))", "", R"({"value":"//4AYQ==","type":"string"})"},
    {R"(filebase64("missing"))", "Invalid function argument",
     R"(Invalid value for "path" parameter: no file exists at )"
     R"("missing"; this function works only with files that are )"
     R"(distributed as part of the configuration source code, so if )"
     R"(this file will be created by a resource in this )"
     R"(configuration you must instead obtain this result from an )"
     R"(attribute of that resource.)"},
    {R"(filebase64(""))", "Invalid function argument",
     R"(Invalid value for "path" parameter: failed to read file: )"
     R"(read .: is a directory.)"},
    {R"(fileexists("hello.txt"))", "", R"({"value":true,"type":"bool"})"},
    {R"(fileexists("missing"))", "", R"({"value":false,"type":"bool"})"},
    {R"(fileexists(""))", "Error in function call",
     R"(Call to function "fileexists" failed: "." is a directory, )"
     R"(not a file.)"},
    {R"(fileexists("sub"))", "Error in function call",
     R"(Call to function "fileexists" failed: "sub" is a directory, )"
     R"(not a file.)"},
    {R"(fileexists("link.txt"))", "", R"({"value":true,"type":"bool"})"},
    {R"(fileexists("dangling.txt"))", "", R"({"value":false,"type":"bool"})"},
    {R"(fileexists("hello.txt/x"))", "Error in function call",
     R"(Call to function "fileexists" failed: failed to stat )"
     R"("hello.txt/x".)"},
    {R"(fileexists("~x"))", "Error in function call",
     R"(Call to function "fileexists" failed: failed to expand ~: )"
     R"(cannot expand user-specific home dir.)"},
    {R"(fileexists("sub/deep/c.txt"))", "", R"({"value":true,"type":"bool"})"},
    {R"(fileset(".", "*.txt"))", "",
     R"({"value":["hello.txt","link.txt","unicode.txt"],"type":["set)"
     R"(","string"]})"},
    {R"(fileset(".", "**"))", "",
     R"({"value":["bad.tmpl","bare.tmpl","binary.bin","errors.tmpl",)"
     R"("func.tmpl","hello.tmpl","hello.txt","link-sub/a.txt","link-)"
     R"(sub/b.md","link-sub/deep/c.txt","link.txt","list.tmpl","recu)"
     R"(rsive.tmpl","sub/a.txt","sub/b.md","sub/deep/c.txt","unicode)"
     R"(.txt","weird/[x].txt"],"type":["set","string"]})"},
    {R"(fileset(".", "**/*.txt"))", "",
     R"({"value":["hello.txt","link-sub/a.txt","link-sub/deep/c.txt")"
     R"(,"link.txt","sub/a.txt","sub/deep/c.txt","unicode.txt","weir)"
     R"(d/[x].txt"],"type":["set","string"]})"},
    {R"(fileset(".", "sub/*"))", "",
     R"({"value":["sub/a.txt","sub/b.md"],"type":["set","string"]})"},
    {R"(fileset(".", "*/*.txt"))", "",
     R"({"value":["link-sub/a.txt","sub/a.txt","weird/[x].txt"],"typ)"
     R"(e":["set","string"]})"},
    {R"(fileset(".", "{sub,empty}/*"))", "",
     R"({"value":["sub/a.txt","sub/b.md"],"type":["set","string"]})"},
    {R"(fileset("sub", "**"))", "",
     R"({"value":["a.txt","b.md","deep/c.txt"],"type":["set","string)"
     R"("]})"},
    {R"(fileset("sub", "*.txt"))", "", R"({"value":["a.txt"],"type":["set","string"]})"},
    {R"(fileset(".", "missing*"))", "", R"({"value":[],"type":["set","string"]})"},
    {R"(fileset(".", "["))", "Error in function call",
     R"(Call to function "fileset" failed: failed to glob pattern )"
     R"("[": syntax error in pattern.)"},
    {R"(fileset(".", "\\"))", "Error in function call",
     R"(Call to function "fileset" failed: failed to glob pattern )"
     R"("\\": syntax error in pattern.)"},
    {R"(fileset(".", "hello.???"))", "", R"({"value":["hello.txt"],"type":["set","string"]})"},
    {R"(fileset(".", "hello.{tmpl,txt}"))", "",
     R"({"value":["hello.tmpl","hello.txt"],"type":["set","string"]})"},
    {R"(fileset(".", "[a-h]*.t?t"))", "", R"({"value":["hello.txt"],"type":["set","string"]})"},
    {R"(fileset(".", "[^a-h]*"))", "",
     R"({"value":["link.txt","list.tmpl","recursive.tmpl","unicode.t)"
     R"(xt"],"type":["set","string"]})"},
    {R"(fileset(".", "weird/\\[x].txt"))", "",
     R"({"value":["weird/[x].txt"],"type":["set","string"]})"},
    {R"(fileset(".", "weird/[[]x].txt"))", "",
     R"({"value":["weird/[x].txt"],"type":["set","string"]})"},
    {R"(fileset(".", "sub/deep/c.txt"))", "",
     R"({"value":["sub/deep/c.txt"],"type":["set","string"]})"},
    {R"(fileset("sub/", "deep/*"))", "", R"({"value":["deep/c.txt"],"type":["set","string"]})"},
    {R"(fileset(".", "link-sub/*"))", "",
     R"({"value":["link-sub/a.txt","link-sub/b.md"],"type":["set","s)"
     R"(tring"]})"},
    {R"(fileset(".", "*["))", "", R"({"value":[],"type":["set","string"]})"},
    {R"(fileset(".", "./*.md"))", "", R"({"value":[],"type":["set","string"]})"},
    {R"(fileset(".", "sub/../*.tmpl"))", "",
     R"({"value":["bad.tmpl","bare.tmpl","errors.tmpl","func.tmpl",")"
     R"(hello.tmpl","list.tmpl","recursive.tmpl"],"type":["set","str)"
     R"(ing"]})"},
    {R"(fileset(".", "empty/*"))", "", R"({"value":[],"type":["set","string"]})"},
    {R"(fileset(".", "sub"))", "", R"({"value":[],"type":["set","string"]})"},
    {R"(fileset(".", ""))", "", R"({"value":[],"type":["set","string"]})"},
    {R"(fileset("sub", "."))", "", R"({"value":[],"type":["set","string"]})"},
    {R"(fileset("missing", "*"))", "", R"({"value":[],"type":["set","string"]})"},
    {R"(fileset(".", "**/deep/*"))", "",
     R"({"value":["link-sub/deep/c.txt","sub/deep/c.txt"],"type":["s)"
     R"(et","string"]})"},
    {R"(fileset(".", "sub/**/*.txt"))", "",
     R"({"value":["sub/a.txt","sub/deep/c.txt"],"type":["set","strin)"
     R"(g"]})"},
    {R"(fileset(".", "{a,b"))", "Error in function call",
     R"(Call to function "fileset" failed: failed to glob pattern )"
     R"("{a,b": syntax error in pattern.)"},
    {R"(fileset(".", "[]"))", "Error in function call",
     R"(Call to function "fileset" failed: failed to glob pattern )"
     R"("[]": syntax error in pattern.)"},
    {R"(fileset(".", "[z-a]*"))", "", R"({"value":[],"type":["set","string"]})"},
    {R"(fileset(".", "*\\"))", "", R"({"value":[],"type":["set","string"]})"},
    {R"(filemd5("hello.txt"))", "",
     R"({"value":"b10a8db164e0754105b7a99be72e3fe5","type":"string"})"},
    {R"(filesha1("hello.txt"))", "",
     R"({"value":"0a4d55a8d778e5022fab701977c5d840bbc486d0","type":")"
     R"(string"})"},
    {R"(filesha256("hello.txt"))", "",
     R"({"value":"a591a6d40bf420404a011733cfb7b190d62c65bf0bcda32b57)"
     R"(b277d9ad9f146e","type":"string"})"},
    {R"(filesha512("hello.txt"))", "",
     R"({"value":"2c74fd17edafd80e8447b0d46741ee243b7eb74dd2149a0ab1)"
     R"(b9246fb30382f27e853d8585719e0e67cbda0daa8f51671064615d645ae2)"
     R"(7acb15bfb1447f459b","type":"string"})"},
    {R"(filebase64sha256("hello.txt"))", "",
     R"({"value":"pZGm1Av0IEBKARczz7exkNYsZb8LzaMrV7J32a2fFG4=","typ)"
     R"(e":"string"})"},
    {R"(filebase64sha512("hello.txt"))", "",
     R"({"value":"LHT9F+2v2A6ER7DUZ0HuJDt+t03SFJoKsbkkb7MDgvJ+hT2FhX)"
     R"(GeDmfL2g2qj1FnEGRhXWRa4nrLFb+xRH9Fmw==","type":"string"})"},
    {R"(filesha256("binary.bin"))", "",
     R"({"value":"5f210d5e4547399c594a4a1fca77ba358fb9057ab6b4f421bf)"
     R"(529294dc7d95c6","type":"string"})"},
    {R"(filemd5("missing"))", "Error in function call",
     R"(Call to function "filemd5" failed: open missing: no such )"
     R"(file or directory.)"},
    {R"(filesha1("sub"))", "Error in function call",
     R"(Call to function "filesha1" failed: read sub: is a )"
     R"(directory.)"},
    {R"(filemd5("~x"))", "Error in function call",
     R"(Call to function "filemd5" failed: failed to expand ~: )"
     R"(cannot expand user-specific home dir.)"},
    {R"(filemd5(sens))", "", R"({"value":"b10a8db164e0754105b7a99be72e3fe5","type":"string"})"},
    {R"(templatefile("hello.txt", {}))", "", R"({"value":"Hello World","type":"string"})"},
    {R"(templatefile("binary.bin", {}))", "Error in function call",
     R"(Call to function "templatefile" failed: contents of )"
     R"("binary.bin" are not valid UTF-8; use the filebase64 )"
     R"(function to obtain the Base64 encoded contents or the other )"
     R"(file functions (e.g. filemd5, filesha256) to obtain file )"
     R"(hashing results instead.)"},
    {R"(templatefile("missing", {}))", "Invalid function argument",
     R"(Invalid value for "path" parameter: no file exists at )"
     R"("missing"; this function works only with files that are )"
     R"(distributed as part of the configuration source code, so if )"
     R"(this file will be created by a resource in this )"
     R"(configuration you must instead obtain this result from an )"
     R"(attribute of that resource.)"},
    {R"(templatefile("hello.tmpl", {name = "Jodie"}))", "",
     R"({"value":"Hello, Jodie!","type":"string"})"},
    {R"(templatefile("hello.tmpl", {"name!" = "Jodie"}))", "Invalid function argument",
     R"(Invalid value for "vars" parameter: invalid template )"
     R"(variable name "name!": must start with a letter, followed )"
     R"(by zero or more letters, digits, and underscores.)"},
    {R"(templatefile("hello.tmpl", {}))", "Invalid function argument",
     R"(Invalid value for "vars" parameter: vars map does not )"
     R"(contain key "name", referenced at hello.tmpl:1,10-14.)"},
    {R"(templatefile("func.tmpl", {list = ["a", "b", "c"]}))", "",
     R"({"value":"The items are a, b, c","type":"string"})"},
    {R"(templatefile("recursive.tmpl", {}))", "Error in function call",
     R"(Call to function "templatefile" failed: )"
     R"(recursive.tmpl:1,3-16: Error in function call; Call to )"
     R"(function "templatefile" failed: cannot recursively call )"
     R"(templatefile from inside another template function..)"},
    {R"(templatefile("list.tmpl", {list = ["a", "b", "c"]}))", "",
     R"({"value":"- a\n- b\n- c\n","type":"string"})"},
    {R"(templatefile("list.tmpl", {list = true}))", "Error in function call",
     R"(Call to function "templatefile" failed: list.tmpl:1,13-17: )"
     R"(Iteration over non-iterable value; A value of type bool )"
     R"(cannot be used as the collection in a 'for' expression..)"},
    {R"(templatefile("bare.tmpl", {val = true}))", "", R"({"value":true,"type":"bool"})"},
    {R"(templatefile("bare.tmpl", {val = [1, "x"]}))", "",
     R"({"value":[1,"x"],"type":["tuple",["number","string"]]})"},
    {R"(templatefile("bad.tmpl", {}))", "Error in function call",
     R"(Call to function "templatefile" failed: bad.tmpl:1,9-9: )"
     R"(Missing expression; Expected the start of an expression, )"
     R"(but found the end of the file..)"},
    {R"(templatefile("errors.tmpl", {a = "x", b = "y"}))", "Error in function call",
     R"(Call to function "templatefile" failed: errors.tmpl:1,3-4: )"
     R"(Invalid operand; Unsuitable value for left operand: a )"
     R"(number is required., and 1 other diagnostic(s).)"},
    {R"(templatefile("hello.tmpl", "nope"))", "Invalid function argument",
     R"(Invalid value for "vars" parameter: invalid vars value: )"
     R"(must be a map.)"},
    {R"(templatefile("hello.tmpl", ["a"]))", "Invalid function argument",
     R"(Invalid value for "vars" parameter: invalid vars value: )"
     R"(must be a map.)"},
    {R"(templatefile("hello.tmpl", {name = "A", "1x" = "B", "-" = )"
     R"("C"}))",
     "Invalid function argument",
     R"(Invalid value for "vars" parameter: invalid template )"
     R"(variable name "-": must start with a letter, followed by )"
     R"(zero or more letters, digits, and underscores.)"},
    {R"(templatefile("hello.tmpl", {name = "A", extra = 1}))", "",
     R"({"value":"Hello, A!","type":"string"})"},
    {R"(templatefile("hello.tmpl", null))", "Invalid function argument",
     R"(Invalid value for "vars" parameter: argument must not be )"
     R"(null.)"},
    {R"(templatefile(null, {}))", "Invalid function argument",
     R"(Invalid value for "path" parameter: argument must not be )"
     R"(null.)"},
    {R"(templatefile("sub", {}))", "Invalid function argument",
     R"(Invalid value for "path" parameter: failed to read file: )"
     R"(read sub: is a directory.)"},
    {R"(templatefile(sens, {}))", "", R"({"value":"Hello World","type":"string"})"},
};

TEST_F(FuncsFilesystemTest, MatchTerraform) {
  const std::map<std::string, Value> vars = {
      {"sens", Value::string("hello.txt").mark("sensitive")}};
  for (const Case& c : kCases) {
    Out o = eval(dot(), c.expr, vars);
    EXPECT_EQ(o.summary, c.summary) << c.expr << ": " << o.detail;
    if (*c.summary == '\0') {
      EXPECT_EQ(test::golden_typed(o.value), c.want) << c.expr;
    } else {
      EXPECT_EQ(o.detail, c.want) << c.expr;
    }
  }
}

TEST_F(FuncsFilesystemTest, OnlyWithABaseDirectory) {
  FunctionTable none = standard_functions();
  for (const char* name : {"abspath", "pathexpand", "file", "filebase64", "fileexists", "fileset",
                           "filemd5", "filesha1", "filesha256", "filesha512", "filebase64sha256",
                           "filebase64sha512", "templatefile"}) {
    EXPECT_EQ(none.find(name), nullptr) << name;
    EXPECT_NE(dot().find(name), nullptr) << name;
  }
  EXPECT_NE(none.find("basename"), nullptr);
  EXPECT_NE(none.find("dirname"), nullptr);
  EXPECT_EQ(default_functions().find("basename"), nullptr);
}

TEST_F(FuncsFilesystemTest, Abspath) {
  std::string cwd = fs::current_path().string();
  EXPECT_EQ(eval(dot(), R"(abspath("a/b"))").value.as_string(), cwd + "/a/b");
  EXPECT_EQ(eval(dot(), R"(abspath("."))").value.as_string(), cwd);
  EXPECT_EQ(eval(dot(), R"(abspath("/x/../y/"))").value.as_string(), "/y");
  FunctionTable sub = table("sub");
  EXPECT_EQ(eval(sub, R"(abspath("../z"))").value.as_string(), cwd + "/z");
  FunctionTable abs = table((fs::current_path() / "sub" / "deep").string());
  EXPECT_EQ(eval(abs, R"(abspath(""))").value.as_string(), cwd + "/sub/deep");
}

TEST_F(FuncsFilesystemTest, RelativeBaseDirectory) {
  // Paths join to the base as Terraform joins them to a module's directory.
  FunctionTable sub = table("sub");
  EXPECT_EQ(eval(sub, R"(file("a.txt"))").value.as_string(), "a");
  EXPECT_EQ(test::golden_typed(eval(sub, R"(fileset(".", "**"))").value),
            R"({"value":["a.txt","b.md","deep/c.txt"],"type":["set","string)"
            R"("]})");
  EXPECT_EQ(eval(sub, R"(fileexists("deep"))").detail,
            R"(Call to function "fileexists" failed: "sub/deep" is a )"
            R"(directory, not a file.)");
  EXPECT_EQ(eval(sub, R"(filemd5("nope"))").detail,
            R"(Call to function "filemd5" failed: open sub/nope: no such )"
            R"(file or directory.)");
}

TEST_F(FuncsFilesystemTest, Sandbox) {
  fs::path base = root_ / "base";
  fs::create_directories(base / "inner");
  write(root_ / "outside.txt", "outside");
  write(base / "inner" / "in.txt", "in");
  fs::create_symlink("../outside.txt", base / "escape.txt");
  fs::create_symlink("inner/in.txt", base / "fine.txt");
  fs::create_directory_symlink("..", base / "up");
  FunctionTable t = table(base.string());
  const std::string outside = root_.string() + "/outside.txt";
  struct {
    std::string expr, detail;
  } cases[] = {
      {R"(file("../outside.txt"))", R"(Invalid value for "path" parameter: path "../outside.txt" )"
                                    R"(is outside the base directory.)"},
      {"file(\"" + outside + "\")", "Invalid value for \"path\" parameter: path \"" + outside +
                                        "\" is outside the base directory."},
      {R"(file("escape.txt"))", R"(Invalid value for "path" parameter: path "escape.txt" is )"
                                R"(outside the base directory.)"},
      {R"(file("up/outside.txt"))", R"(Invalid value for "path" parameter: path "up/outside.txt" )"
                                    R"(is outside the base directory.)"},
      {R"(file("../missing"))", R"(Invalid value for "path" parameter: path "../missing" is )"
                                R"(outside the base directory.)"},
      {R"(file("up/missing/x"))", R"(Invalid value for "path" parameter: path "up/missing/x" is )"
                                  R"(outside the base directory.)"},
      {R"(file("~/x"))", R"(Invalid value for "path" parameter: path "~/x" is outside )"
                         R"(the base directory.)"},
      {R"(file(s))", R"(Invalid value for "path" parameter: path (sensitive value) )"
                     R"(is outside the base directory.)"},
      {R"(filebase64("../outside.txt"))",
       R"(Invalid value for "path" parameter: path "../outside.txt" )"
       R"(is outside the base directory.)"},
      {R"(fileexists("../outside.txt"))",
       R"(Invalid value for "path" parameter: path "../outside.txt" )"
       R"(is outside the base directory.)"},
      {R"(fileexists("../missing"))", R"(Invalid value for "path" parameter: path "../missing" is )"
                                      R"(outside the base directory.)"},
      {R"(filesha256("escape.txt"))", R"(Invalid value for "path" parameter: path "escape.txt" is )"
                                      R"(outside the base directory.)"},
      {R"(templatefile("../outside.txt", {}))",
       R"(Invalid value for "path" parameter: path "../outside.txt" )"
       R"(is outside the base directory.)"},
      {R"(templatefile("escape.txt", {}))",
       R"(Invalid value for "path" parameter: path "escape.txt" )"
       R"(is outside the base directory.)"},
      {R"(fileset("..", "*"))", R"(Invalid value for "path" parameter: path ".." is outside )"
                                R"(the base directory.)"},
      {R"(fileset("up", "*"))", R"(Invalid value for "path" parameter: path "up" is outside )"
                                R"(the base directory.)"},
      {R"(fileset(".", "../*"))", "Invalid value for \"pattern\" parameter: path \"" +
                                      root_.string() + "\" is outside the base directory."},
      {R"(fileset(".", "*"))", "Invalid value for \"pattern\" parameter: path \"" + base.string() +
                                   "/escape.txt\" is outside the base directory."},
      {R"(fileset(".", "**/*.txt"))", "Invalid value for \"pattern\" parameter: path \"" +
                                          base.string() + "/up\" is outside the base directory."},
  };
  const std::map<std::string, Value> vars = {
      {"s", Value::string("../outside.txt").mark("sensitive")}};
  for (const auto& c : cases) {
    Out o = eval(t, c.expr, vars);
    EXPECT_EQ(o.summary, "Invalid function argument") << c.expr;
    EXPECT_EQ(o.detail, c.detail) << c.expr;
  }
  // Inside, every way of naming a file works, symbolic links included.
  EXPECT_EQ(eval(t, R"(file("fine.txt"))").value.as_string(), "in");
  EXPECT_EQ(eval(t, R"(file("inner/../fine.txt"))").value.as_string(), "in");
  // Out through a link and back in: the file is inside.
  EXPECT_EQ(eval(t, R"(file("up/base/fine.txt"))").value.as_string(), "in");
  EXPECT_EQ(eval(t, R"(templatefile("up/base/inner/in.txt", {}))").value.as_string(), "in");
  EXPECT_EQ(eval(t, "file(\"" + (base / "inner" / "in.txt").string() + "\")").value.as_string(),
            "in");
  EXPECT_EQ(eval(t, R"(fileexists("inner/nope"))").value.as_bool(), false);
  EXPECT_EQ(test::golden_typed(eval(t, R"(fileset("inner", "*"))").value),
            R"({"value":["in.txt"],"type":["set","string"]})");
  EXPECT_EQ(eval(t, R"(abspath("../x"))").value.as_string(), root_.string() + "/x");
  // Files that do not exist inside, however named (through a link out and
  // back in, below a missing directory, a link to nothing): no such file.
  fs::create_symlink("inner/gone.txt", base / "dangling.txt");
  for (std::string p :
       {"inner/missing.txt", "up/base/missing.txt", "no/such/dir/x", "dangling.txt"}) {
    Out o = eval(t, "file(\"" + p + "\")");
    EXPECT_EQ(o.summary, "Invalid function argument") << p;
    EXPECT_TRUE(o.detail.starts_with("Invalid value for \"path\" parameter: no file exists at \"" +
                                     p + "\"; "))
        << p << ": " << o.detail;
  }
  EXPECT_EQ(eval(t, R"(file("inner/in.txt/x"))").detail,
            "Invalid value for \"path\" parameter: open " + base.string() +
                "/inner/in.txt/x: not a directory.");
}

TEST_F(FuncsFilesystemTest, SymlinkLoopsAndSpecialFiles) {
  fs::path dir = root_ / "special";
  fs::create_directories(dir);
  fs::create_symlink("loop.txt", dir / "loop.txt");
  ASSERT_EQ(::mkfifo((dir / "pipe").c_str(), 0600), 0);
  FunctionTable t = table(dir.string());
  Out o = eval(t, R"(fileset(".", "*.txt"))");
  EXPECT_EQ(o.summary, "Error in function call");
  std::string loop = dir.string() + "/loop.txt";
  EXPECT_EQ(o.detail, "Call to function \"fileset\" failed: failed to stat \"" + loop +
                          "\": stat " + loop + ": too many levels of symbolic links.");
  o = eval(t, R"(fileexists("pipe"))");
  EXPECT_EQ(o.detail, "Call to function \"fileexists\" failed: \"" + dir.string() +
                          "/pipe\" is a named pipe, not a regular file.");
  // The loop fails the glob of everything.
  EXPECT_EQ(eval(t, R"(fileset(".", "*"))").summary, "Error in function call");
  EXPECT_EQ(test::golden_typed(eval(t, R"(fileset(".", "p*"))").value),
            R"({"value":[],"type":["set","string"]})");
}

TEST_F(FuncsFilesystemTest, UnknownArguments) {
  const std::map<std::string, Value> vars = {
      {"u", Value::unknown(Type::string())},
      {"m", Value::unknown(Type::map(Type::string()))},
      {"d", Value::dynamic()},
  };
  for (const char* expr : {"file(u)", "filebase64(u)", "fileexists(u)", "fileset(u, \"*\")",
                           "fileset(\".\", u)", "filemd5(u)", "filebase64sha512(u)", "basename(u)",
                           "dirname(u)", "abspath(u)", "pathexpand(u)"}) {
    Out o = eval(dot(), expr, vars);
    EXPECT_EQ(o.summary, "") << expr;
    EXPECT_FALSE(o.value.is_known()) << expr;
    EXPECT_TRUE(o.value.refinement().not_null) << expr;
  }
  EXPECT_EQ(eval(dot(), "fileset(u, \"*\")", vars).value.type(), Type::set(Type::string()));
  EXPECT_EQ(eval(dot(), "fileexists(u)", vars).value.type(), Type::boolean());
  for (const char* expr : {"templatefile(u, {})", R"(templatefile("hello.tmpl", m))",
                           R"(templatefile("hello.tmpl", d))"}) {
    Out o = eval(dot(), expr, vars);
    EXPECT_EQ(o.summary, "") << expr << ": " << o.detail;
    EXPECT_EQ(test::golden_typed(o.value), R"({"repr":"cty.DynamicVal","type":"dynamic"})") << expr;
  }
  // An unknown inside the variables reaches the template, which refines it.
  Out o = eval(dot(), R"(templatefile("hello.tmpl", {name = u}))", vars);
  EXPECT_EQ(o.summary, "") << o.detail;
  EXPECT_EQ(o.value.type(), Type::string());
  EXPECT_FALSE(o.value.is_known());
  EXPECT_TRUE(o.value.refinement().not_null);
  EXPECT_EQ(o.value.refinement().prefix, "Hello, ");
}

TEST_F(FuncsFilesystemTest, Marks) {
  const std::map<std::string, Value> vars = {
      {"p", Value::string("hello.txt").mark("sensitive")},
      {"t", Value::string("list.tmpl").mark("path")},
      {"l", Value::tuple({Value::string("a"), Value::string("b").mark("var")}).mark("vars")},
      {"dir", Value::string("sub").mark("sensitive")},
      {"u", Value::unknown(Type::string()).mark("path")},
  };
  for (const char* expr : {"file(p)", "filebase64(p)", "fileexists(p)", "filesha1(p)",
                           "templatefile(p, {})", "fileset(dir, \"*\")"}) {
    Out o = eval(dot(), expr, vars);
    EXPECT_EQ(o.summary, "") << expr << ": " << o.detail;
    EXPECT_TRUE(o.value.marks().has("sensitive")) << expr;
  }
  Out o = eval(dot(), "templatefile(t, {list = l})", vars);
  ASSERT_EQ(o.summary, "") << o.detail;
  EXPECT_EQ(o.value.unmark().as_string(), "- a\n- b\n");
  EXPECT_TRUE(o.value.marks().has("path"));
  EXPECT_TRUE(o.value.marks().has("var"));
  EXPECT_TRUE(o.value.marks().has("vars"));
  // An unknown path: not called; the result has the marks of the variables
  // (whose parameter takes no marks) but not the path's (go-cty 1.15.1+).
  o = eval(dot(), "templatefile(u, {key = l})", vars);
  EXPECT_EQ(o.value.type(), Type::dynamic());
  EXPECT_FALSE(o.value.marks().has("path"));
  EXPECT_TRUE(o.value.marks().has("var"));
  o = eval(dot(), R"(fileexists(p2))", {{"p2", Value::string("sub").mark("sensitive")}});
  EXPECT_EQ(o.detail, R"(Call to function "fileexists" failed: (sensitive value) is )"
                      R"(a directory, not a file.)");
  o = eval(dot(), R"(fileset(".", q))", {{"q", Value::string("[").mark("sensitive")}});
  EXPECT_EQ(o.detail, R"(Call to function "fileset" failed: failed to glob pattern )"
                      R"((sensitive value): syntax error in pattern.)");
  o = eval(dot(), R"(file(q))", {{"q", Value::string("nope").mark("sensitive")}});
  EXPECT_TRUE(o.detail.starts_with(R"(Invalid value for "path" parameter: no file exists at )"
                                   R"((sensitive value); )"))
      << o.detail;
}

TEST_F(FuncsFilesystemTest, TemplateVariablesFromAMap) {
  const std::map<std::string, Value> vars = {
      {"m", Value::map(Type::string(), {{"name", Value::string("Map")}})},
      {"bad",
       Value::map(Type::string(), {{"name", Value::string("x")}, {"a b", Value::string("y")}})},
  };
  EXPECT_EQ(eval(dot(), R"(templatefile("hello.tmpl", m))", vars).value.as_string(), "Hello, Map!");
  EXPECT_EQ(eval(dot(), R"(templatefile("hello.tmpl", bad))", vars).detail,
            R"(Invalid value for "vars" parameter: invalid template )"
            R"(variable name "a b": must start with a letter, followed by )"
            R"(zero or more letters, digits, and underscores.)");
  // A template sees only its variables: not those of the calling scope.
  Out o = eval(dot(), R"(templatefile("hello.tmpl", {}))", {{"name", Value::string("outer")}});
  EXPECT_EQ(o.detail, R"(Invalid value for "vars" parameter: vars map does not )"
                      R"(contain key "name", referenced at hello.tmpl:1,10-14.)");
}

TEST_F(FuncsFilesystemTest, TemplateCacheFollowsTheFile) {
  fs::path dir = root_ / "cache";
  fs::create_directories(dir);
  FunctionTable t = table(dir.string());
  write(dir / "t.tmpl", "one ${x}");
  EXPECT_EQ(eval(t, R"(templatefile("t.tmpl", {x = 1}))").value.as_string(), "one 1");
  EXPECT_EQ(eval(t, R"(templatefile("t.tmpl", {x = 2}))").value.as_string(), "one 2");
  write(dir / "t.tmpl", "two ${x}");
  EXPECT_EQ(eval(t, R"(templatefile("t.tmpl", {x = 3}))").value.as_string(), "two 3");
  // The same contents under another name is another template (its name is
  // in its diagnostics).
  write(dir / "u.tmpl", "two ${x}");
  EXPECT_EQ(eval(t, R"(templatefile("u.tmpl", {}))").detail,
            R"(Invalid value for "vars" parameter: vars map does not )"
            R"(contain key "x", referenced at u.tmpl:1,7-8.)");
  EXPECT_EQ(eval(t, R"(templatefile("./t.tmpl", {}))").detail,
            R"(Invalid value for "vars" parameter: vars map does not )"
            R"(contain key "x", referenced at ./t.tmpl:1,7-8.)");
}

TEST_F(FuncsFilesystemTest, TemplatesFromManyThreads) {
  FunctionTable t = table();
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&, i] {
      for (int j = 0; j < 50; ++j) {
        std::string name = "n" + std::to_string(i * 100 + j);
        Out o = eval(t, R"(templatefile("hello.tmpl", {name = x}))", {{"x", Value::string(name)}});
        if (o.value.as_string() != "Hello, " + name + "!") ++failures;
        Out l = eval(t, R"(templatefile("func.tmpl", {list = ["a", x]}))",
                     {{"x", Value::string(name)}});
        if (l.value.as_string() != "The items are a, " + name) ++failures;
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST_F(FuncsFilesystemTest, WrongArgumentsAndArity) {
  struct {
    const char* expr;
    const char* summary;
    const char* detail;
  } cases[] = {
      {"file()", "Not enough function arguments",
       R"(Function "file" expects 1 argument(s). Missing value for )"
       R"("path".)"},
      {R"(file("a", "b"))", "Too many function arguments",
       R"(Function "file" expects only 1 argument(s).)"},
      {"file(null)", "Invalid function argument",
       R"(Invalid value for "path" parameter: argument must not be )"
       R"(null.)"},
      {"file([])", "Invalid function argument",
       R"(Invalid value for "path" parameter: string required, but )"
       R"(have tuple.)"},
      {"fileset(\".\")", "Not enough function arguments",
       R"(Function "fileset" expects 2 argument(s). Missing value for )"
       R"("pattern".)"},
      {"fileset(\".\", null)", "Invalid function argument",
       R"(Invalid value for "pattern" parameter: argument must not be )"
       R"(null.)"},
      {"templatefile(\"hello.tmpl\")", "Not enough function arguments",
       R"(Function "templatefile" expects 2 argument(s). Missing )"
       R"(value for "vars".)"},
      {"basename(null)", "Invalid function argument",
       R"(Invalid value for "path" parameter: argument must not be )"
       R"(null.)"},
      {"dirname(1)", "", ""},
      {"filesha512(true)", "Error in function call",
       R"(Call to function "filesha512" failed: open true: no such )"
       R"(file or directory.)"},
  };
  for (const auto& c : cases) {
    Out o = eval(dot(), c.expr);
    EXPECT_EQ(o.summary, c.summary) << c.expr;
    EXPECT_EQ(o.detail, c.detail) << c.expr;
  }
  const Function* tf = dot().find("templatefile");
  ASSERT_NE(tf, nullptr);
  EXPECT_EQ(tf->params[1].type, Type::dynamic());
  EXPECT_FALSE(tf->result_not_null);
  EXPECT_TRUE(dot().find("file")->result_not_null);
}

}  // namespace
}  // namespace hclvm
