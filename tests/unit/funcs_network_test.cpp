// Tests of the IP network functions (cidrhost, cidrnetmask, cidrsubnet,
// cidrsubnets) through the VM with standard_functions(). The expected
// results come from Terraform's cidr functions (its ipaddr parser and
// go-cidr v1.1.0) run on the same inputs, the cases of Terraform's own
// tests and documentation among them; they include the libraries' quirks
// (leading zeros read as decimal, the IPv4-in-IPv6 forms, negative counts).
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "hclvm/eval.h"
#include "hclvm/function.h"
#include "hclvm/functions.h"
#include "hclvm/syntax.h"
#include "test_util.h"

namespace hclvm {
namespace {

using Out = test::EvalOutcome;

Out eval(std::string_view src, const std::map<std::string, Value>& vars = {}) {
  static const auto table = std::make_shared<const FunctionTable>(standard_functions());
  return test::eval_with(table, src, vars);
}

// A string result as it is, a list of strings joined with commas.
std::string flat(const Value& v) {
  if (v.type() == Type::string()) return std::string(v.as_string());
  std::string s;
  for (size_t i = 0; i < v.length(); ++i) {
    if (i > 0) s += ',';
    s += v.element(i).as_string();
  }
  return s;
}

struct Case {
  const char* expr;
  const char* summary;  // empty: success
  const char* want;     // the result (flattened) or the diagnostic's detail
};

const Case kCases[] = {
    {R"(cidrhost("192.168.1.0/24", 5))", "", R"(192.168.1.5)"},
    {R"(cidrhost("192.168.1.0/24", -5))", "", R"(192.168.1.251)"},
    {R"(cidrhost("192.168.1.0/24", -256))", "", R"(192.168.1.0)"},
    {R"(cidrhost("010.001.0.0/24", 6))", "", R"(10.1.0.6)"},
    {R"(cidrhost("192.168.1.0/30", 255))", "Error in function call",
     R"(Call to function "cidrhost" failed: prefix of 30 does not )"
     R"(accommodate a host numbered 255.)"},
    {R"(cidrhost("192.168.1.0/30", -255))", "Error in function call",
     R"(Call to function "cidrhost" failed: prefix of 30 does not )"
     R"(accommodate a host numbered -251.)"},
    {R"(cidrhost("not-a-cidr", 6))", "Error in function call",
     R"(Call to function "cidrhost" failed: invalid CIDR )"
     R"(expression: invalid CIDR address: not-a-cidr.)"},
    {R"(cidrhost("10.256.0.0/8", 6))", "Error in function call",
     R"(Call to function "cidrhost" failed: invalid CIDR )"
     R"(expression: invalid CIDR address: 10.256.0.0/8.)"},
    {R"(cidrhost("10.256.0.0/8", 0.75))", "Error in function call",
     R"(Call to function "cidrhost" failed: value must be a whole )"
     R"(number.)"},
    {R"(cidrhost("10.12.112.0/20", 16))", "", R"(10.12.112.16)"},
    {R"(cidrhost("10.12.112.0/20", 268))", "", R"(10.12.113.12)"},
    {R"(cidrhost("fd00:fd12:3456:7890:00a2::/72", 34))", "", R"(fd00:fd12:3456:7890::22)"},
    {R"(cidrhost("::ffff:192.168.0.0/112", 5))", "", R"(0:5::ffff:c0a8:0)"},
    {R"(cidrhost("fe80::/64", 18446744073709551617))", "", R"(fe80:0:0:1::1)"},
    {R"(cidrhost("fe80::/32", 1180591620717411303424))", "", R"(fe80:0:0:40::)"},
    {R"(cidrhost("192.168.1.0/24", 256))", "Error in function call",
     R"(Call to function "cidrhost" failed: prefix of 24 does not )"
     R"(accommodate a host numbered 256.)"},
    {R"(cidrhost("0.0.0.0/0", 4294967295))", "", R"(255.255.255.255)"},
    {R"(cidrhost("192.168.1.0", 1))", "Error in function call",
     R"(Call to function "cidrhost" failed: invalid CIDR )"
     R"(expression: invalid CIDR address: 192.168.1.0.)"},
    {R"(cidrhost("192.168.1.0/33", 1))", "Error in function call",
     R"(Call to function "cidrhost" failed: invalid CIDR )"
     R"(expression: invalid CIDR address: 192.168.1.0/33.)"},
    {R"(cidrhost("::/0", -1))", "", R"(ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff)"},
    {R"(cidrhost("1:2:3:4:5:6:7:8/128", 0))", "", R"(1:2:3:4:5:6:7:8)"},
    {R"(cidrhost("2001:db8::1/120", 0))", "", R"(2001:db8::)"},
    {R"(cidrhost("2001:0:0:1::/64", 0))", "", R"(2001:0:0:1::)"},
    {R"(cidrhost("10.0.0.0/8", -16777217))", "Error in function call",
     R"(Call to function "cidrhost" failed: prefix of 8 does not )"
     R"(accommodate a host numbered -1.)"},
    {R"(cidrnetmask("192.168.1.0/24"))", "", R"(255.255.255.0)"},
    {R"(cidrnetmask("192.168.1.0/32"))", "", R"(255.255.255.255)"},
    {R"(cidrnetmask("0.0.0.0/0"))", "", R"(0.0.0.0)"},
    {R"(cidrnetmask("010.001.0.0/24"))", "", R"(255.255.255.0)"},
    {R"(cidrnetmask("not-a-cidr"))", "Error in function call",
     R"(Call to function "cidrnetmask" failed: invalid CIDR )"
     R"(expression: invalid CIDR address: not-a-cidr.)"},
    {R"(cidrnetmask("110.256.0.0/8"))", "Error in function call",
     R"(Call to function "cidrnetmask" failed: invalid CIDR )"
     R"(expression: invalid CIDR address: 110.256.0.0/8.)"},
    {R"(cidrnetmask("1::/64"))", "Error in function call",
     R"(Call to function "cidrnetmask" failed: IPv6 addresses )"
     R"(cannot have a netmask: 1::/64.)"},
    {R"(cidrnetmask("::ffff:10.0.0.0/104"))", "", R"(ffff:ffff:ffff:ffff:ffff:ffff:ff00:0)"},
    {R"(cidrnetmask("172.16.0.0/12"))", "", R"(255.240.0.0)"},
    {R"(cidrnetmask("10.0.0.0/8/"))", "Error in function call",
     R"(Call to function "cidrnetmask" failed: invalid CIDR )"
     R"(expression: invalid CIDR address: 10.0.0.0/8/.)"},
    {R"(cidrnetmask("10.0.0.0/"))", "Error in function call",
     R"(Call to function "cidrnetmask" failed: invalid CIDR )"
     R"(expression: invalid CIDR address: 10.0.0.0/.)"},
    {R"(cidrnetmask("10.0.0/8"))", "Error in function call",
     R"(Call to function "cidrnetmask" failed: invalid CIDR )"
     R"(expression: invalid CIDR address: 10.0.0/8.)"},
    {R"(cidrnetmask("10.0.0.0./8"))", "Error in function call",
     R"(Call to function "cidrnetmask" failed: invalid CIDR )"
     R"(expression: invalid CIDR address: 10.0.0.0./8.)"},
    {R"(cidrnetmask("10.0.0.0/08"))", "", R"(255.0.0.0)"},
    {R"(cidrnetmask("::1.2.3.4/24"))", "Error in function call",
     R"(Call to function "cidrnetmask" failed: IPv6 addresses )"
     R"(cannot have a netmask: ::1.2.3.4/24.)"},
    {R"(cidrnetmask("1::2::3/64"))", "Error in function call",
     R"(Call to function "cidrnetmask" failed: invalid CIDR )"
     R"(expression: invalid CIDR address: 1::2::3/64.)"},
    {R"(cidrsubnet("192.168.2.0/20", 4, 6))", "", R"(192.168.6.0/24)"},
    {R"(cidrsubnet("fe80::/48", 16, 6))", "", R"(fe80:0:0:6::/64)"},
    {R"(cidrsubnet("::ffff:192.168.0.0/112", 8, 6))", "", R"(192.168.6.0/24)"},
    {R"(cidrsubnet("fe80::/48", 33, 6))", "", R"(fe80::3:0:0:0/81)"},
    {R"(cidrsubnet("010.001.0.0/24", 4, 1))", "", R"(10.1.0.16/28)"},
    {R"(cidrsubnet("192.168.0.0/30", 4, 6))", "Error in function call",
     R"(Call to function "cidrsubnet" failed: insufficient address )"
     R"(space to extend prefix of 30 by 4.)"},
    {R"(cidrsubnet("192.168.0.0/168", 2, 16))", "Error in function call",
     R"(Call to function "cidrsubnet" failed: invalid CIDR )"
     R"(expression: invalid CIDR address: 192.168.0.0/168.)"},
    {R"(cidrsubnet("not-a-cidr", 4, 6))", "Error in function call",
     R"(Call to function "cidrsubnet" failed: invalid CIDR )"
     R"(expression: invalid CIDR address: not-a-cidr.)"},
    {R"(cidrsubnet("10.256.0.0/8", 4, 6))", "Error in function call",
     R"(Call to function "cidrsubnet" failed: invalid CIDR )"
     R"(expression: invalid CIDR address: 10.256.0.0/8.)"},
    {R"(cidrsubnet("10.256.0.0/8", 0.5, 0.75))", "Error in function call",
     R"(Call to function "cidrsubnet" failed: value must be a whole )"
     R"(number, between -9223372036854775808 and )"
     R"(9223372036854775807.)"},
    {R"(cidrsubnet("10.256.0.0/8", 2, 0.75))", "Error in function call",
     R"(Call to function "cidrsubnet" failed: value must be a whole )"
     R"(number.)"},
    {R"(cidrsubnet("10.0.0.0/8", 8, 256))", "Error in function call",
     R"(Call to function "cidrsubnet" failed: prefix extension of 8 )"
     R"(does not accommodate a subnet numbered 256.)"},
    {R"(cidrsubnet("172.16.0.0/12", 4, 2))", "", R"(172.18.0.0/16)"},
    {R"(cidrsubnet("10.1.2.0/24", 4, 15))", "", R"(10.1.2.240/28)"},
    {R"(cidrsubnet("fd00:fd12:3456:7890::/56", 16, 162))", "", R"(fd00:fd12:3456:7800:a200::/72)"},
    {R"(cidrsubnet("10.0.0.0/24", -8, 0))", "", R"(10.0.0.0/16)"},
    {R"(cidrsubnet("10.1.2.0/24", -8, 3))", "", R"(10.3.2.0/16)"},
    {R"(cidrsubnet("10.0.0.0/24", 4, -1))", "", R"(0.0.0.16/28)"},
    {R"(cidrsubnet("10.0.0.0/24", 0, 0))", "", R"(10.0.0.0/24)"},
    {R"(cidrsubnet("10.0.0.0/24", 64, 0))", "Error in function call",
     R"(Call to function "cidrsubnet" failed: insufficient address )"
     R"(space to extend prefix of 24 by 64.)"},
    {R"(cidrsubnet("fe80::/48", 70, 36893488147419103232))", "", R"(fe80:0:0:800::/118)"},
    {R"(cidrsubnet("fe80::/8", 70, 36893488147419103232))", "", R"(fe08::/78)"},
    {R"(cidrsubnet("10.0.0.0/24", -30, 0))", "", R"(<nil>)"},
    {R"(cidrsubnet("10.0.0.0/24", 8, -255))", "", R"(0.0.0.255/32)"},
    {R"(cidrsubnet("::/0", 64, 18446744073709551615))", "", R"(ffff:ffff:ffff:ffff::/64)"},
    {R"(cidrsubnets("10.0.0.0/21", 3, 3, 3, 4, 4, 4, 7, 7, 7))", "",
     R"(10.0.0.0/24,10.0.1.0/24,10.0.2.0/24,10.0.3.0/25,10.0.3.128/2)"
     R"(5,10.0.4.0/25,10.0.4.128/28,10.0.4.144/28,10.0.4.160/28)"},
    {R"(cidrsubnets("010.0.0.0/21", 3))", "", R"(10.0.0.0/24)"},
    {R"(cidrsubnets("10.0.0.0/30", 1, 3))", "Invalid function argument",
     R"(Invalid value for "newbits" parameter: would extend prefix )"
     R"(to 33 bits, which is too long for an IPv4 address.)"},
    {R"(cidrsubnets("10.0.0.0/8", 1, 1, 1))", "Invalid function argument",
     R"(Invalid value for "newbits" parameter: not enough remaining )"
     R"(address space for a subnet with a prefix of 9 bits after )"
     R"(10.128.0.0/9.)"},
    {R"(cidrsubnets("10.0.0.0/8", 1, 0))", "Invalid function argument",
     R"(Invalid value for "newbits" parameter: must extend prefix )"
     R"(by at least one bit.)"},
    {R"(cidrsubnets("10.0.0.0/8", 1, -1))", "Invalid function argument",
     R"(Invalid value for "newbits" parameter: must extend prefix )"
     R"(by at least one bit.)"},
    {R"(cidrsubnets("fe80::/48", 1, 33))", "Invalid function argument",
     R"(Invalid value for "newbits" parameter: may not extend )"
     R"(prefix by more than 32 bits.)"},
    {R"(cidrsubnets("10.1.0.0/16", 4, 4, 8, 4))", "",
     R"(10.1.0.0/20,10.1.16.0/20,10.1.32.0/24,10.1.48.0/20)"},
    {R"(cidrsubnets("fd00:fd12:3456:7890::/56", 16, 16, 16, 32))", "",
     R"(fd00:fd12:3456:7800::/72,fd00:fd12:3456:7800:100::/72,fd00:f)"
     R"(d12:3456:7800:200::/72,fd00:fd12:3456:7800:300::/88)"},
    {R"(cidrsubnets("10.0.0.0/8"))", "", R"()"},
    {R"(cidrsubnets("not-a-cidr", 1))", "Invalid function argument",
     R"(Invalid value for "prefix" parameter: invalid CIDR )"
     R"(expression: invalid CIDR address: not-a-cidr.)"},
    {R"(cidrsubnets("10.0.0.0/8", 1.5))", "Invalid function argument",
     R"(Invalid value for "newbits" parameter: value must be a )"
     R"(whole number, between -9223372036854775808 and )"
     R"(9223372036854775807.)"},
    {R"(cidrsubnets("10.0.0.0/8", 1, 1.5))", "Invalid function argument",
     R"(Invalid value for "newbits" parameter: value must be a )"
     R"(whole number, between -9223372036854775808 and )"
     R"(9223372036854775807.)"},
    {R"(cidrsubnets("::ffff:10.0.0.0/104", 8, 8))", "Invalid function argument",
     R"(Invalid value for "newbits" parameter: not enough remaining )"
     R"(address space for a subnet with a prefix of 112 bits after )"
     R"(<nil>.)"},
    {R"(cidrsubnets("0.0.0.0/0", 1, 1))", "Invalid function argument",
     R"(Invalid value for "newbits" parameter: not enough remaining )"
     R"(address space for a subnet with a prefix of 1 bits after )"
     R"(128.0.0.0/1.)"},
    {R"(cidrsubnets("255.255.255.0/24", 1, 1))", "", R"(255.255.255.0/25,255.255.255.128/25)"},
    {R"(cidrsubnets("255.255.255.0/24", 1, 1, 1))", "Invalid function argument",
     R"(Invalid value for "newbits" parameter: not enough remaining )"
     R"(address space for a subnet with a prefix of 25 bits after )"
     R"(255.255.255.128/25.)"},
    {R"(cidrsubnets("10.0.0.0/8", 24))", "", R"(10.0.0.0/32)"},
    {R"(cidrsubnets("10.0.0.0/8", 4, 2))", "", R"(10.0.0.0/12,10.64.0.0/10)"},
    {R"(cidrsubnets("::/0", 32, 32))", "Invalid function argument",
     R"(Invalid value for "newbits" parameter: not enough remaining )"
     R"(address space for a subnet with a prefix of 32 bits after )"
     R"(ffff:ffff::/32.)"},
    {R"(cidrsubnets("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ff00/120", )"
     R"(4, 4))",
     "",
     R"(ffff:ffff:ffff:ffff:ffff:ffff:ffff:ff00/124,ffff:ffff:ffff:f)"
     R"(fff:ffff:ffff:ffff:ff10/124)"},
};

TEST(FuncsNetworkTest, MatchTerraform) {
  for (const Case& c : kCases) {
    Out o = eval(c.expr);
    EXPECT_EQ(o.summary, c.summary) << c.expr << ": " << o.detail;
    if (*c.summary == '\0') {
      EXPECT_EQ(flat(o.value), c.want) << c.expr;
    } else {
      EXPECT_EQ(o.detail, c.want) << c.expr;
    }
  }
}

TEST(FuncsNetworkTest, ResultTypes) {
  EXPECT_EQ(eval(R"(cidrsubnets("10.0.0.0/8", 8))").value.type(), Type::list(Type::string()));
  Out empty = eval(R"(cidrsubnets("10.0.0.0/8"))");
  EXPECT_EQ(empty.value.type(), Type::list(Type::string()));
  EXPECT_EQ(empty.value.length(), 0u);
  EXPECT_EQ(eval(R"(cidrhost("10.0.0.0/8", "3"))").value.as_string(), "10.0.0.3");
}

TEST(FuncsNetworkTest, UnknownArgumentsGiveNotNullUnknowns) {
  const std::map<std::string, Value> vars = {{"s", Value::unknown(Type::string())},
                                             {"n", Value::unknown(Type::number())}};
  for (const char* expr :
       {"cidrhost(s, 1)", "cidrhost(\"10.0.0.0/8\", n)", "cidrnetmask(s)", "cidrsubnet(s, 1, 2)",
        "cidrsubnets(s, 1)", "cidrsubnets(\"10.0.0.0/8\", 1, n)"}) {
    Out o = eval(expr, vars);
    EXPECT_EQ(o.summary, "") << expr;
    EXPECT_FALSE(o.value.is_known()) << expr;
    EXPECT_TRUE(o.value.refinement().not_null) << expr;
  }
  EXPECT_EQ(eval("cidrsubnets(s, 1)", vars).value.type(), Type::list(Type::string()));
}

TEST(FuncsNetworkTest, MarksPassToTheResult) {
  const std::map<std::string, Value> vars = {{"p", Value::string("10.0.0.0/8").mark("sensitive")}};
  Out o = eval("cidrhost(p, 1)", vars);
  ASSERT_EQ(o.summary, "");
  EXPECT_TRUE(o.value.marks().has("sensitive"));
  EXPECT_EQ(o.value.unmark().as_string(), "10.0.0.1");
}

TEST(FuncsNetworkTest, NullWrongTypeAndArity) {
  Out o = eval("cidrhost(null, 1)");
  EXPECT_EQ(o.summary, "Invalid function argument");
  EXPECT_EQ(o.detail, R"(Invalid value for "prefix" parameter: argument must not be )"
                      R"(null.)");
  o = eval("cidrsubnets(\"10.0.0.0/8\", null)");
  EXPECT_EQ(o.detail, R"(Invalid value for "newbits" parameter: argument must not be )"
                      R"(null.)");
  o = eval("cidrnetmask([])");
  EXPECT_EQ(o.detail, R"(Invalid value for "prefix" parameter: string required, but )"
                      R"(have tuple.)");
  o = eval("cidrhost(\"10.0.0.0/8\", \"x\")");
  EXPECT_EQ(o.detail, R"(Invalid value for "hostnum" parameter: a number is required.)");
  o = eval("cidrhost(\"10.0.0.0/8\")");
  EXPECT_EQ(o.summary, "Not enough function arguments");
  EXPECT_EQ(o.detail, R"(Function "cidrhost" expects 2 argument(s). Missing value )"
                      R"(for "hostnum".)");
  o = eval("cidrnetmask(\"10.0.0.0/8\", 1)");
  EXPECT_EQ(o.summary, "Too many function arguments");
  EXPECT_EQ(o.detail, R"(Function "cidrnetmask" expects only 1 argument(s).)");
  o = eval("cidrsubnets()");
  EXPECT_EQ(o.summary, "Not enough function arguments");
}

}  // namespace
}  // namespace hclvm
