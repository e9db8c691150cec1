// Packer's additions (hashicorp/packer hcl2template/function): env,
// legacy_isotime and legacy_strftime.
//
// env reads the process environment, so it exists only when the embedder
// names the variables it may read (LibraryOptions::env_allow); a name
// outside that list is an error rather than an empty string, so that a
// configuration cannot mistake a withheld variable for an unset one.
//
// The legacy time functions format the time the library was first used
// (Packer's is the time its function package was initialized, so that all
// of one build's templates agree): legacy_isotime with Go's reference-time
// layouts, legacy_strftime with the strftime conversions of
// jehiah/go-strftime. Both vary from run to run, so they count as impure.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>

#include "funcs/funcs.h"
#include <hclvm/functions.h>

namespace hclvm::funcs {

namespace {

// The time of the first use, as Unix seconds and nanoseconds in UTC.
struct InitTime {
  int64_t sec, nsec;
};

const InitTime& init_time() {
  static const InitTime t = [] {
    auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                  std::chrono::system_clock::now().time_since_epoch())
                  .count();
    int64_t sec = ns / 1000000000, nsec = ns % 1000000000;
    if (nsec < 0) {
      nsec += 1000000000;
      --sec;
    }
    return InitTime{sec, nsec};
  }();
  return t;
}

std::string format_init_time(std::string_view layout) {
  const InitTime& t = init_time();
  return go_time_format(layout, t.sec, t.nsec);
}

// The error both legacy functions give for more than one argument: Go's
// %v of the cty.Value slice, which prints a string value as its type's
// struct ({{{{} 83}}: the primitive kind 'S') and the string.
FuncResult too_many_values(std::span<const Value> args) {
  std::string s = "too many values, 1 needed: [";
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) s += ' ';
    s += "{{{{} 83}} ";
    s += args[i].as_string();
    s += '}';
  }
  return FuncResult::fail(s + "]");
}

// jehiah/go-strftime's Format: each %X with a known X becomes the Go
// layout it stands for, formatted on its own; %% is a percent sign; any
// other %X stays as it is, as does a trailing %.
std::string strftime_format(std::string_view format) {
  auto layout_for = [](char c) -> const char* {
    switch (c) {
      case 'B':
        return "January";
      case 'b':
        return "Jan";
      case 'm':
        return "01";
      case 'A':
        return "Monday";
      case 'a':
        return "Mon";
      case 'd':
        return "02";
      case 'H':
        return "15";
      case 'I':
        return "03";
      case 'M':
        return "04";
      case 'S':
        return "05";
      case 'Y':
        return "2006";
      case 'y':
        return "06";
      case 'p':
        return "PM";
      case 'Z':
        return "MST";
      case 'z':
        return "-0700";
      case 'f':
        return "999999999";  // as the library has it: no layout element
      case 'L':
        return ".000";
      default:
        return nullptr;
    }
  };
  std::string out;
  size_t i = 0;
  while (i < format.size()) {
    size_t ni = format.find('%', i);
    if (ni == std::string_view::npos) ni = format.size();
    out += format.substr(i, ni - i);
    if (ni + 1 < format.size()) {
      char c = format[ni + 1];
      if (c == '%') {
        out += '%';
      } else if (const char* layout = layout_for(c)) {
        out += format_init_time(layout);
      } else {
        out += '%';
        out += c;
      }
    } else if (ni < format.size()) {
      out += '%';
    }
    i = ni + 2;
  }
  return out;
}

Function legacy_fn(bool strftime) {
  Function f;
  f.description = strftime ? "Returns the time of the first use of the library, formatted with "
                             "strftime conversions (% sequences)."
                           : "Returns the time of the first use of the library, formatted with a "
                             "Go reference-time layout (2006-01-02T15:04:05Z07:00 by default).";
  f.var_param = param("format", Type::string());
  f.returns(Type::string());
  f.result_not_null = true;
  f.impure = true;
  f.impl = [strftime](std::span<const Value> args, const Type*) {
    if (args.size() > 1) return too_many_values(args);
    if (args.empty()) {
      return FuncResult::of(Value::string(format_init_time("2006-01-02T15:04:05Z07:00")));
    }
    std::string_view format = args[0].as_string();
    return FuncResult::of(
        Value::string(strftime ? strftime_format(format) : format_init_time(format)));
  };
  return f;
}

Function env_fn(std::vector<std::string> allow) {
  Function f;
  f.description =
      "Returns the value of an environment variable the embedder allows, or an empty string when "
      "it is not set.";
  f.params = {param("key", Type::string())};
  f.returns(Type::string());
  f.result_not_null = true;
  f.reads_outside = true;
  std::sort(allow.begin(), allow.end());
  f.impl = [allow = std::move(allow)](std::span<const Value> args, const Type*) {
    std::string key(args[0].as_string());
    if (!std::binary_search(allow.begin(), allow.end(), key)) {
      return arg_error("the environment variable " + quote(key) + " is not among those allowed", 0);
    }
    const char* v = std::getenv(key.c_str());
    return FuncResult::of(Value::string(v ? v : ""));
  };
  return f;
}

}  // namespace

void add_packer_functions(FunctionTable& t, const LibraryOptions& opts) {
  if (!opts.packer) return;
  if (!opts.env_allow.empty()) add(t, "env", env_fn(opts.env_allow));
  if (opts.impure) {
    add(t, "legacy_isotime", legacy_fn(false));
    add(t, "legacy_strftime", legacy_fn(true));
  }
}

}  // namespace hclvm::funcs
