// Tests of the date and time functions through the VM with
// standard_functions(): Terraform's timecmp and timestamp, the go-cty
// formatdate and timeadd Terraform uses, and Packer's legacy_isotime,
// legacy_strftime and env. Expected values come from Terraform's tests
// and documentation, from gohcl-bench (go-cty's formatdate and timeadd),
// and from Go's time.Format run on the same times and layouts.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>

#include "funcs/funcs.h"
#include "hclvm/eval.h"
#include "hclvm/function.h"
#include "hclvm/functions.h"
#include "hclvm/syntax.h"
#include "test_util.h"

namespace hclvm {
namespace {

using Out = test::EvalOutcome;

Out eval(const FunctionTable& fns, std::string_view src,
         const std::map<std::string, Value>& vars = {}) {
  return test::eval_with(std::make_shared<const FunctionTable>(fns), src, vars);
}

const FunctionTable& standard() {
  static const FunctionTable t = standard_functions();
  return t;
}

Out eval(std::string_view src, const std::map<std::string, Value>& vars = {}) {
  return eval(standard(), src, vars);
}

struct Case {
  const char* expr;
  const char* summary;  // empty: success
  const char* want;     // the string (or number text) result, or the detail
};

void run_cases(const FunctionTable& fns, std::initializer_list<Case> cases) {
  for (const Case& c : cases) {
    Out o = eval(fns, c.expr);
    EXPECT_EQ(o.summary, c.summary) << c.expr << ": " << o.detail;
    if (*c.summary != '\0') {
      EXPECT_EQ(o.detail, c.want) << c.expr;
    } else if (o.value.type() == Type::number()) {
      EXPECT_EQ(o.value.as_number().text(), c.want) << c.expr;
    } else {
      EXPECT_EQ(o.value.as_string(), c.want) << c.expr;
    }
  }
}

TEST(FuncsDatetimeTest, Timecmp) {
  run_cases(standard(),
            {
                {R"(timecmp("2017-11-22T00:00:00Z", "2017-11-22T00:00:00Z"))", "", "0"},
                {R"(timecmp("2017-11-22T00:00:00Z", "2017-11-22T01:00:00+01:00"))", "", "0"},
                {R"(timecmp("2017-11-22T00:00:01Z", "2017-11-22T01:00:00+01:00"))", "", "1"},
                {R"(timecmp("2017-11-22T01:00:00Z", "2017-11-22T00:59:00-01:00"))", "", "-1"},
                {R"(timecmp("2017-11-22T01:00:00+01:00", )"
                 R"("2017-11-22T01:00:00-01:00"))",
                 "", "-1"},
                {R"(timecmp("2017-11-22T01:00:00-01:00", )"
                 R"("2017-11-22T01:00:00+01:00"))",
                 "", "1"},
                {R"(timecmp("2017-11-22T00:00:00.5Z", "2017-11-22T00:00:00.25Z"))", "", "1"},
                {R"(timecmp("2017-11-22T00:00:00Z", "bloop"))", "Invalid function argument",
                 R"(Invalid value for "timestamp_b" parameter: not a valid )"
                 R"(RFC3339 timestamp: cannot use "bloop" as year.)"},
                {R"(timecmp("2017-11-22 00:00:00Z", "2017-11-22T00:00:00Z"))",
                 "Invalid function argument",
                 R"(Invalid value for "timestamp_a" parameter: not a valid )"
                 R"(RFC3339 timestamp: missing required time introducer 'T'.)"},
                {R"(timecmp("2017-02-30T00:00:00Z", "2017-11-22T00:00:00Z"))",
                 "Invalid function argument",
                 R"(Invalid value for "timestamp_a" parameter: not a valid )"
                 R"(RFC3339 timestamp: day out of range.)"},
                {R"(timecmp(null, "2017-11-22T00:00:00Z"))", "Invalid function argument",
                 R"(Invalid value for "timestamp_a" parameter: argument must )"
                 R"(not be null.)"},
                {R"(timecmp("2017-11-22T00:00:00Z"))", "Not enough function arguments",
                 R"(Function "timecmp" expects 2 argument(s). Missing value for )"
                 R"("timestamp_b".)"},
                {R"(timecmp("2017-11-22T00:00:00Z", []))", "Invalid function argument",
                 R"(Invalid value for "timestamp_b" parameter: string required, )"
                 R"(but have tuple.)"},
            });
  EXPECT_EQ(eval(R"(timecmp("2017-11-22T00:00:00Z", "2017-11-22T00:00:00Z"))").value.type(),
            Type::number());
}

TEST(FuncsDatetimeTest, TimecmpUnknowns) {
  const std::map<std::string, Value> vars = {{"u", Value::unknown(Type::string())}};
  for (const char* expr : {R"(timecmp("2017-11-22T00:00:00Z", u))",
                           R"(timecmp(u, "2017-11-22T00:00:00Z"))", "timecmp(u, u)"}) {
    Out o = eval(expr, vars);
    EXPECT_EQ(o.summary, "") << expr;
    EXPECT_FALSE(o.value.is_known()) << expr;
    EXPECT_EQ(o.value.type(), Type::number()) << expr;
    EXPECT_TRUE(o.value.refinement().not_null) << expr;
  }
}

// The go-cty versions Terraform uses, checked against gohcl-bench.
TEST(FuncsDatetimeTest, FormatdateAndTimeadd) {
  run_cases(standard(),
            {
                {R"(timeadd("2017-11-22T00:00:00Z", "1s"))", "", "2017-11-22T00:00:01Z"},
                {R"(timeadd("2017-11-22T00:00:00Z", "10m1s"))", "", "2017-11-22T00:10:01Z"},
                {R"(timeadd("2017-11-22T00:00:00Z", "-1h"))", "", "2017-11-21T23:00:00Z"},
                {R"(timeadd("2017-11-22T00:00:00.5Z", "1.25s"))", "", "2017-11-22T00:00:01Z"},
                {R"(timeadd("2017-11-22", "-1h"))", "Error in function call",
                 R"(Call to function "timeadd" failed: not a valid RFC3339 )"
                 R"(timestamp: missing required time introducer 'T'.)"},
                {R"(timeadd("2017-11-22T00:00:00Z", "1d"))", "Error in function call",
                 R"(Call to function "timeadd" failed: time: unknown unit "d" )"
                 R"(in duration "1d".)"},
                {R"(formatdate("DD MMM YYYY hh:mm ZZZ", "2018-01-02T23:12:01Z"))", "",
                 "02 Jan 2018 23:12 UTC"},
                {R"(formatdate("EEEE, DD-MMM-YY hh:mm:ss ZZZ", )"
                 R"("2018-01-02T23:12:01Z"))",
                 "", "Tuesday, 02-Jan-18 23:12:01 UTC"},
                {R"(formatdate("EEE, DD MMM YYYY hh:mm:ss ZZZ", )"
                 R"("2018-01-02T23:12:01-08:00"))",
                 "", "Tue, 02 Jan 2018 23:12:01 -0800"},
                {R"(formatdate("MMM DD, YYYY", "2018-01-02T23:12:01Z"))", "", "Jan 02, 2018"},
                {R"(formatdate("HH:mmaa", "2018-01-02T23:12:01Z"))", "", "11:12pm"},
                {R"(formatdate("h'h'mm", "2018-01-02T23:12:01-08:00"))", "", "23h12"},
                {R"(formatdate("YYYY", "2018-01-02"))", "Invalid function argument",
                 R"(Invalid value for "time" parameter: not a valid RFC3339 )"
                 R"(timestamp: missing required time introducer 'T'.)"},
            });
}

TEST(FuncsDatetimeTest, Timestamp) {
  const Function* f = standard().find("timestamp");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(f->impure);
  EXPECT_TRUE(f->params.empty());
  EXPECT_FALSE(f->var_param);
  auto before = std::chrono::system_clock::now();
  Out o = eval("timestamp()");
  ASSERT_EQ(o.summary, "");
  std::string ts(o.value.as_string());
  ASSERT_EQ(ts.size(), 20u) << ts;
  EXPECT_EQ(ts.back(), 'Z');
  // It reads back, and lies within a few seconds of the clock.
  Out diff = eval(
      "timecmp(timeadd(t, \"10s\"), \"" +
          funcs::go_time_format(
              "2006-01-02T15:04:05Z07:00",
              std::chrono::duration_cast<std::chrono::seconds>(before.time_since_epoch()).count(),
              0) +
          "\")",
      {{"t", o.value}});
  EXPECT_EQ(diff.summary, "") << diff.detail;
  EXPECT_EQ(diff.value.as_number().text(), "1");
  Out o2 = eval("timestamp(1)");
  EXPECT_EQ(o2.summary, "Too many function arguments");
  EXPECT_EQ(o2.detail, R"(Function "timestamp" expects only 0 argument(s).)");

  LibraryOptions pure;
  pure.impure = false;
  EXPECT_EQ(standard_functions(pure).find("timestamp"), nullptr);
  EXPECT_NE(standard_functions(pure).find("timecmp"), nullptr);
  // The reference's own tools have go-cty's table, without these.
  EXPECT_EQ(default_functions().find("timecmp"), nullptr);
}

struct Layout {
  int time;
  const char* layout;
  const char* want;
};

const Layout kLayouts[] = {
    {0, "2006-01-02T15:04:05Z07:00", "2012-06-21T02:12:56Z"},
    {0, "2006-01-02T15:04:05.999999999Z07:00", "2012-06-21T02:12:56.123456789Z"},
    {0, "Mon Jan _2 15:04:05 2006", "Thu Jun 21 02:12:56 2012"},
    {0, "Mon Jan _2 15:04:05 MST 2006", "Thu Jun 21 02:12:56 UTC 2012"},
    {0, "Mon Jan 02 15:04:05 -0700 2006", "Thu Jun 21 02:12:56 +0000 2012"},
    {0, "02 Jan 06 15:04 MST", "21 Jun 12 02:12 UTC"},
    {0, "02 Jan 06 15:04 -0700", "21 Jun 12 02:12 +0000"},
    {0, "Monday, 02-Jan-06 15:04:05 MST", "Thursday, 21-Jun-12 02:12:56 UTC"},
    {0, "Mon, 02 Jan 2006 15:04:05 MST", "Thu, 21 Jun 2012 02:12:56 UTC"},
    {0, "Mon, 02 Jan 2006 15:04:05 -0700", "Thu, 21 Jun 2012 02:12:56 +0000"},
    {0, "3:04PM", "2:12AM"},
    {0, "Jan _2 15:04:05", "Jun 21 02:12:56"},
    {0, "Jan _2 15:04:05.000", "Jun 21 02:12:56.123"},
    {0, "Jan _2 15:04:05.000000", "Jun 21 02:12:56.123456"},
    {0, "Jan _2 15:04:05.000000000", "Jun 21 02:12:56.123456789"},
    {0, "2006-01-02 15:04:05", "2012-06-21 02:12:56"},
    {0, "Jan _2 __2 002 _2006", "Jun 21 173 173 _2012"},
    {0, "Janet Mond Monday January MST", "Janet Mond Thursday June UTC"},
    {0, "1 2 3 4 5 6 7 8 9 0", "6 21 2 12 56 6 7 8 9 0"},
    {0, "01 02 03 04 05 06 07", "06 21 02 12 56 12 07"},
    {0, "15 3 03 PM pm Pm", "02 2 02 AM am Pm"},
    {0, "Z07:00 Z0700 Z07 Z070000 Z07:00:00", "Z Z Z Z Z"},
    {0, "-07:00 -0700 -07 -070000 -07:00:00", "+00:00 +0000 +00 +000000 +00:00:00"},
    {0, ".0 .00 .000000 .999 .9 ,000 ,999 .0000000000",
     ".1 .12 .123456 .123 .1 ,123 ,123 .123456789"},
    {0, "05.999999999", "56.123456789"},
    {0, "05.0009", "56.0009"},
    {0, "Mon Monday Jan January", "Thu Thursday Jun June"},
    {0, "", ""},
    {0, "no tokens here!", "no tokens here!"},
    {0, "2006年01月02日", "2012年06月21日"},
    {1, "2006-01-02T15:04:05Z07:00", "2009-01-03T18:15:05Z"},
    {1, "2006-01-02T15:04:05.999999999Z07:00", "2009-01-03T18:15:05Z"},
    {1, "Mon Jan _2 15:04:05 2006", "Sat Jan  3 18:15:05 2009"},
    {1, "Mon Jan _2 15:04:05 MST 2006", "Sat Jan  3 18:15:05 UTC 2009"},
    {1, "Mon Jan 02 15:04:05 -0700 2006", "Sat Jan 03 18:15:05 +0000 2009"},
    {1, "02 Jan 06 15:04 MST", "03 Jan 09 18:15 UTC"},
    {1, "02 Jan 06 15:04 -0700", "03 Jan 09 18:15 +0000"},
    {1, "Monday, 02-Jan-06 15:04:05 MST", "Saturday, 03-Jan-09 18:15:05 UTC"},
    {1, "Mon, 02 Jan 2006 15:04:05 MST", "Sat, 03 Jan 2009 18:15:05 UTC"},
    {1, "Mon, 02 Jan 2006 15:04:05 -0700", "Sat, 03 Jan 2009 18:15:05 +0000"},
    {1, "3:04PM", "6:15PM"},
    {1, "Jan _2 15:04:05", "Jan  3 18:15:05"},
    {1, "Jan _2 15:04:05.000", "Jan  3 18:15:05.000"},
    {1, "Jan _2 15:04:05.000000", "Jan  3 18:15:05.000000"},
    {1, "Jan _2 15:04:05.000000000", "Jan  3 18:15:05.000000000"},
    {1, "2006-01-02 15:04:05", "2009-01-03 18:15:05"},
    {1, "Jan _2 __2 002 _2006", "Jan  3   3 003 _2009"},
    {1, "Janet Mond Monday January MST", "Janet Mond Saturday January UTC"},
    {1, "1 2 3 4 5 6 7 8 9 0", "1 3 6 15 5 6 7 8 9 0"},
    {1, "01 02 03 04 05 06 07", "01 03 06 15 05 09 07"},
    {1, "15 3 03 PM pm Pm", "18 6 06 PM pm Pm"},
    {1, "Z07:00 Z0700 Z07 Z070000 Z07:00:00", "Z Z Z Z Z"},
    {1, "-07:00 -0700 -07 -070000 -07:00:00", "+00:00 +0000 +00 +000000 +00:00:00"},
    {1, ".0 .00 .000000 .999 .9 ,000 ,999 .0000000000", ".0 .00 .000000   ,000  .000000000"},
    {1, "05.999999999", "05"},
    {1, "05.0009", "05.0009"},
    {1, "Mon Monday Jan January", "Sat Saturday Jan January"},
    {1, "", ""},
    {1, "no tokens here!", "no tokens here!"},
    {1, "2006年01月02日", "2009年01月03日"},
    {2, "2006-01-02T15:04:05Z07:00", "2024-12-31T12:00:00Z"},
    {2, "2006-01-02T15:04:05.999999999Z07:00", "2024-12-31T12:00:00.5Z"},
    {2, "Mon Jan _2 15:04:05 2006", "Tue Dec 31 12:00:00 2024"},
    {2, "Mon Jan _2 15:04:05 MST 2006", "Tue Dec 31 12:00:00 UTC 2024"},
    {2, "Mon Jan 02 15:04:05 -0700 2006", "Tue Dec 31 12:00:00 +0000 2024"},
    {2, "02 Jan 06 15:04 MST", "31 Dec 24 12:00 UTC"},
    {2, "02 Jan 06 15:04 -0700", "31 Dec 24 12:00 +0000"},
    {2, "Monday, 02-Jan-06 15:04:05 MST", "Tuesday, 31-Dec-24 12:00:00 UTC"},
    {2, "Mon, 02 Jan 2006 15:04:05 MST", "Tue, 31 Dec 2024 12:00:00 UTC"},
    {2, "Mon, 02 Jan 2006 15:04:05 -0700", "Tue, 31 Dec 2024 12:00:00 +0000"},
    {2, "3:04PM", "12:00PM"},
    {2, "Jan _2 15:04:05", "Dec 31 12:00:00"},
    {2, "Jan _2 15:04:05.000", "Dec 31 12:00:00.500"},
    {2, "Jan _2 15:04:05.000000", "Dec 31 12:00:00.500000"},
    {2, "Jan _2 15:04:05.000000000", "Dec 31 12:00:00.500000000"},
    {2, "2006-01-02 15:04:05", "2024-12-31 12:00:00"},
    {2, "Jan _2 __2 002 _2006", "Dec 31 366 366 _2024"},
    {2, "Janet Mond Monday January MST", "Janet Mond Tuesday December UTC"},
    {2, "1 2 3 4 5 6 7 8 9 0", "12 31 12 0 0 6 7 8 9 0"},
    {2, "01 02 03 04 05 06 07", "12 31 12 00 00 24 07"},
    {2, "15 3 03 PM pm Pm", "12 12 12 PM pm Pm"},
    {2, "Z07:00 Z0700 Z07 Z070000 Z07:00:00", "Z Z Z Z Z"},
    {2, "-07:00 -0700 -07 -070000 -07:00:00", "+00:00 +0000 +00 +000000 +00:00:00"},
    {2, ".0 .00 .000000 .999 .9 ,000 ,999 .0000000000", ".5 .50 .500000 .5 .5 ,500 ,5 .500000000"},
    {2, "05.999999999", "00.5"},
    {2, "05.0009", "00.0009"},
    {2, "Mon Monday Jan January", "Tue Tuesday Dec December"},
    {2, "", ""},
    {2, "no tokens here!", "no tokens here!"},
    {2, "2006年01月02日", "2024年12月31日"},
    {3, "2006-01-02T15:04:05Z07:00", "1999-02-03T00:07:09Z"},
    {3, "2006-01-02T15:04:05.999999999Z07:00", "1999-02-03T00:07:09.000001Z"},
    {3, "Mon Jan _2 15:04:05 2006", "Wed Feb  3 00:07:09 1999"},
    {3, "Mon Jan _2 15:04:05 MST 2006", "Wed Feb  3 00:07:09 UTC 1999"},
    {3, "Mon Jan 02 15:04:05 -0700 2006", "Wed Feb 03 00:07:09 +0000 1999"},
    {3, "02 Jan 06 15:04 MST", "03 Feb 99 00:07 UTC"},
    {3, "02 Jan 06 15:04 -0700", "03 Feb 99 00:07 +0000"},
    {3, "Monday, 02-Jan-06 15:04:05 MST", "Wednesday, 03-Feb-99 00:07:09 UTC"},
    {3, "Mon, 02 Jan 2006 15:04:05 MST", "Wed, 03 Feb 1999 00:07:09 UTC"},
    {3, "Mon, 02 Jan 2006 15:04:05 -0700", "Wed, 03 Feb 1999 00:07:09 +0000"},
    {3, "3:04PM", "12:07AM"},
    {3, "Jan _2 15:04:05", "Feb  3 00:07:09"},
    {3, "Jan _2 15:04:05.000", "Feb  3 00:07:09.000"},
    {3, "Jan _2 15:04:05.000000", "Feb  3 00:07:09.000001"},
    {3, "Jan _2 15:04:05.000000000", "Feb  3 00:07:09.000001000"},
    {3, "2006-01-02 15:04:05", "1999-02-03 00:07:09"},
    {3, "Jan _2 __2 002 _2006", "Feb  3  34 034 _1999"},
    {3, "Janet Mond Monday January MST", "Janet Mond Wednesday February UTC"},
    {3, "1 2 3 4 5 6 7 8 9 0", "2 3 12 7 9 6 7 8 9 0"},
    {3, "01 02 03 04 05 06 07", "02 03 12 07 09 99 07"},
    {3, "15 3 03 PM pm Pm", "00 12 12 AM am Pm"},
    {3, "Z07:00 Z0700 Z07 Z070000 Z07:00:00", "Z Z Z Z Z"},
    {3, "-07:00 -0700 -07 -070000 -07:00:00", "+00:00 +0000 +00 +000000 +00:00:00"},
    {3, ".0 .00 .000000 .999 .9 ,000 ,999 .0000000000", ".0 .00 .000001   ,000  .000001000"},
    {3, "05.999999999", "09.000001"},
    {3, "05.0009", "09.0009"},
    {3, "Mon Monday Jan January", "Wed Wednesday Feb February"},
    {3, "", ""},
    {3, "no tokens here!", "no tokens here!"},
    {3, "2006年01月02日", "1999年02月03日"},
};

TEST(FuncsDatetimeTest, GoTimeFormat) {
  const int64_t times[][2] = {
      {1340244776, 123456789}, {1231006505, 0}, {1735646400, 500000000}, {918000429, 1000}};
  for (const Layout& l : kLayouts) {
    EXPECT_EQ(funcs::go_time_format(l.layout, times[l.time][0], times[l.time][1]), l.want)
        << l.time << " " << l.layout;
  }
}

FunctionTable packer_table() {
  LibraryOptions o;
  o.packer = true;
  o.env_allow = {"HCLVM_FUNCS_TEST_SET", "HCLVM_FUNCS_TEST_UNSET"};
  return standard_functions(o);
}

TEST(FuncsDatetimeTest, LegacyTimeFunctions) {
  FunctionTable t = packer_table();
  // The full time of the first use, then every form from it.
  Out full = eval(t, R"(legacy_isotime("2006-01-02T15:04:05.000000000Z"))");
  ASSERT_EQ(full.summary, "") << full.detail;
  std::string iso(full.value.as_string());
  ASSERT_EQ(iso.size(), 30u) << iso;
  Out parts = eval(t, R"(formatdate("YYYY MM DD hh mm ss", t))", {{"t", full.value}});
  ASSERT_EQ(parts.summary, "") << parts.detail;
  EXPECT_EQ(eval(t, "legacy_isotime()").value.as_string(), iso.substr(0, 19) + "Z");
  EXPECT_EQ(eval(t, "legacy_strftime()").value.as_string(), iso.substr(0, 19) + "Z");
  // The same instant at every call.
  EXPECT_EQ(eval(t, R"(legacy_isotime("2006-01-02T15:04:05.000000000Z"))").value.as_string(), iso);
  EXPECT_EQ(eval(t, R"(legacy_isotime("06 Jan __2"))").value.as_string(),
            std::string(eval(t, R"(legacy_strftime("%y %b "))").value.as_string()) +
                std::string(eval(t, R"(legacy_isotime("__2"))").value.as_string()));
  EXPECT_EQ(eval(t, R"(legacy_strftime("%Y-%m-%d %H:%M:%S"))").value.as_string(),
            eval(t, R"(legacy_isotime("2006-01-02 15:04:05"))").value.as_string());
  EXPECT_EQ(
      eval(t, R"(legacy_strftime("%A %a %B %b %I %p %Z %z %y"))").value.as_string(),
      eval(t, R"(legacy_isotime("Monday Mon January Jan 03 PM MST -0700 06"))").value.as_string());
  // Milliseconds after their dot; %f keeps the library's literal nines.
  EXPECT_EQ(eval(t, R"(legacy_strftime("%S%L"))").value.as_string(),
            eval(t, R"(legacy_isotime("05.000"))").value.as_string());
  EXPECT_EQ(eval(t, R"(legacy_strftime("%f"))").value.as_string(), "999999999");
  // Text between conversions is never a layout; unknown conversions and a
  // trailing % stay.
  EXPECT_EQ(eval(t, R"(legacy_strftime("aaabbb0123456789%Y"))").value.as_string(),
            "aaabbb0123456789" + iso.substr(0, 4));
  EXPECT_EQ(eval(t, R"(legacy_strftime("%0%1%%%2"))").value.as_string(), "%0%1%%2");
  EXPECT_EQ(eval(t, R"(legacy_strftime("100%"))").value.as_string(), "100%");

  Out many = eval(t, R"(legacy_isotime("a", "b"))");
  EXPECT_EQ(many.summary, "Error in function call");
  EXPECT_EQ(many.detail, R"(Call to function "legacy_isotime" failed: too many values, )"
                         R"(1 needed: [{{{{} 83}} a} {{{{} 83}} b}].)");
  many = eval(t, R"(legacy_strftime("%Y", 1))");
  EXPECT_EQ(many.detail, R"(Call to function "legacy_strftime" failed: too many values, )"
                         R"(1 needed: [{{{{} 83}} %Y} {{{{} 83}} 1}].)");
  Out null = eval(t, "legacy_isotime(null)");
  EXPECT_EQ(null.detail, R"(Invalid value for "format" parameter: argument must not be )"
                         R"(null.)");
  Out unknown = eval(t, "legacy_isotime(u)", {{"u", Value::unknown(Type::string())}});
  EXPECT_FALSE(unknown.value.is_known());
  EXPECT_TRUE(unknown.value.refinement().not_null);

  EXPECT_TRUE(t.find("legacy_isotime")->impure);
  EXPECT_EQ(standard().find("legacy_isotime"), nullptr);
  LibraryOptions pure;
  pure.packer = true;
  pure.impure = false;
  EXPECT_EQ(standard_functions(pure).find("legacy_strftime"), nullptr);
}

TEST(FuncsDatetimeTest, Env) {
  ::setenv("HCLVM_FUNCS_TEST_SET", "value 1", 1);
  ::unsetenv("HCLVM_FUNCS_TEST_UNSET");
  ::setenv("HCLVM_FUNCS_TEST_HIDDEN", "secret", 1);
  FunctionTable t = packer_table();
  run_cases(t, {
                   {R"(env("HCLVM_FUNCS_TEST_SET"))", "", "value 1"},
                   {R"(env("HCLVM_FUNCS_TEST_UNSET"))", "", ""},
                   {R"(env("HCLVM_FUNCS_TEST_HIDDEN"))", "Invalid function argument",
                    R"(Invalid value for "key" parameter: the environment variable )"
                    R"("HCLVM_FUNCS_TEST_HIDDEN" is not among those allowed.)"},
                   {R"(env(null))", "Invalid function argument",
                    R"(Invalid value for "key" parameter: argument must not be )"
                    R"(null.)"},
                   {R"(env())", "Not enough function arguments",
                    R"(Function "env" expects 1 argument(s). Missing value for )"
                    R"("key".)"},
               });
  Out unknown = eval(t, "env(u)", {{"u", Value::unknown(Type::string())}});
  EXPECT_FALSE(unknown.value.is_known());
  EXPECT_TRUE(unknown.value.refinement().not_null);
  Out marked = eval(t, "env(k)", {{"k", Value::string("HCLVM_FUNCS_TEST_SET").mark("sensitive")}});
  EXPECT_TRUE(marked.value.marks().has("sensitive"));

  // Absent without an allow-list, and outside Packer's table.
  LibraryOptions none;
  none.packer = true;
  EXPECT_EQ(standard_functions(none).find("env"), nullptr);
  EXPECT_NE(standard_functions(none).find("legacy_isotime"), nullptr);
  LibraryOptions terraform;
  terraform.env_allow = {"HCLVM_FUNCS_TEST_SET"};
  EXPECT_EQ(standard_functions(terraform).find("env"), nullptr);
}

}  // namespace
}  // namespace hclvm
