// The reports of `hclvm check` (see report.h): JSON, SARIF 2.1.0,
// Checkstyle and JUnit. Each is written in one go from the CheckReport; the
// XML ones escape every attribute and text with xml_escape.
#include "cli/report.h"

#include <algorithm>
#include <map>

#include "diag/render.h"
#include "value/json.h"

namespace hclvm::cli {

namespace {

// [s] escaped for XML attribute values, line breaks as character
// references so that attributes keep them ([text]: for element text, line
// breaks as they are).
std::string xml_escape(std::string_view s, bool text = false) {
  std::string out;
  for (char c : s) {
    if (text && c == '\n') {
      out += c;
      continue;
    }
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      case '\n': out += "&#xA;"; break;
      case '\r': out += "&#xD;"; break;
      case '\t': out += "&#x9;"; break;
      default:
        // Other control characters are not allowed in XML 1.0 at all.
        if (static_cast<unsigned char>(c) < 0x20) out += "\xEF\xBF\xBD";
        else out += c;
    }
  }
  return out;
}

// [path] as a SARIF artifact URI: relative paths as they are, absolute
// ones as file:// URIs, with every byte outside the unreserved set and
// "/" percent-encoded.
std::string artifact_uri(std::string_view path) {
  std::string out = path.starts_with("/") ? "file://" : "";
  static const char kHex[] = "0123456789ABCDEF";
  for (char ch : path) {
    unsigned char c = static_cast<unsigned char>(ch);
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    if (plain) {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// "summary: detail", or the summary alone.
std::string message_of(const Diagnostic& d) {
  return d.detail.empty() ? d.summary : d.summary + ": " + d.detail;
}

// "FILE:LINE,COL-LINE,COL" of [r] (hcl.Range's String form), or "".
std::string range_text(const std::optional<Range>& r) {
  if (!r) return "";
  std::string s = r->filename + ":" + std::to_string(r->start.line) + "," + std::to_string(r->start.column) + "-";
  if (r->end.line != r->start.line) s += std::to_string(r->end.line) + ",";
  return s + std::to_string(r->end.column);
}

// The diagnostics of [r] by file name ("" for those without a subject).
std::map<std::string, std::vector<const Diagnostic*>> by_file(const CheckReport& r) {
  std::map<std::string, std::vector<const Diagnostic*>> out;
  for (const Diagnostic& d : r.diagnostics) out[d.subject ? d.subject->filename : ""].push_back(&d);
  return out;
}

// The files of [r] followed by the names of diagnostics' files not among
// them (a module's diagnostics about a file), in order.
std::vector<std::string> all_files(const CheckReport& r,
                                   const std::map<std::string, std::vector<const Diagnostic*>>& diags) {
  std::vector<std::string> out = r.files;
  for (const auto& [name, list] : diags)
    if (!name.empty() && std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  return out;
}

}  // namespace

std::string rule_id(std::string_view summary) {
  std::string out = "hcl/";
  bool dash = false;
  for (char c : summary) {
    bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alnum) {
      dash = out.size() > 4;
      continue;
    }
    if (dash) out += '-';
    dash = false;
    out += (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
  }
  return out.size() > 4 ? out : "hcl/diagnostic";
}

std::string report_json(const CheckReport& r) {
  std::string out = "{\n";
  out += std::string("  \"valid\": ") + (r.valid() ? "true" : "false") + ",\n";
  out += "  \"counts\": {\"files\": " + std::to_string(r.files.size()) +
         ", \"with_errors\": " + std::to_string(r.with_errors) +
         ", \"errors\": " + std::to_string(r.errors) +
         ", \"warnings\": " + std::to_string(r.warnings) +
         ", \"unreadable\": " + std::to_string(r.unreadable.size()) + "},\n";
  out += "  \"files\": [";
  for (size_t i = 0; i < r.files.size(); ++i) out += (i ? ", " : "") + json_quote(r.files[i]);
  out += "],\n  \"unreadable\": [";
  for (size_t i = 0; i < r.unreadable.size(); ++i) {
    out += (i ? ", " : "") + std::string("{\"path\": ") + json_quote(r.unreadable[i].first) +
           ", \"error\": " + json_quote(r.unreadable[i].second) + "}";
  }
  out += "],\n  \"symlinks\": [";
  for (size_t i = 0; i < r.symlinks.size(); ++i) {
    const SymlinkNote& n = r.symlinks[i];
    out += (i ? ", " : "") + std::string("{\"path\": ") + json_quote(n.path) +
           ", \"target\": " + json_quote(n.target) +
           ", \"followed\": " + (n.followed ? "true" : "false") + "}";
  }
  out += "],\n";
  // hcldec's document is {"diagnostics": [...]}: its member, as it is.
  std::string diags = diag::render_json(r.diagnostics);
  out += diags.substr(2, diags.size() - 4);  // without "{\n" and "}\n"
  return out + "}\n";
}

std::string report_sarif(const CheckReport& r, std::string_view version) {
  std::vector<std::string> rules;
  std::map<std::string, size_t> rule_index;
  std::vector<std::string> rule_text;
  for (const Diagnostic& d : r.diagnostics) {
    std::string id = rule_id(d.summary);
    if (rule_index.emplace(id, rules.size()).second) {
      rules.push_back(id);
      rule_text.push_back(d.summary);
    }
  }
  std::string out =
      "{\n"
      "  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
      "  \"version\": \"2.1.0\",\n"
      "  \"runs\": [\n"
      "    {\n"
      "      \"tool\": {\n"
      "        \"driver\": {\n"
      "          \"name\": \"hclvm\",\n"
      "          \"version\": " + json_quote(version) + ",\n"
      "          \"rules\": [";
  for (size_t i = 0; i < rules.size(); ++i) {
    out += (i ? "," : "") + std::string("\n            {\"id\": ") + json_quote(rules[i]) +
           ", \"shortDescription\": {\"text\": " + json_quote(rule_text[i]) + "}}";
  }
  out += rules.empty() ? "]\n" : "\n          ]\n";
  out += "        }\n      },\n";
  out += "      \"invocations\": [\n        {\"executionSuccessful\": ";
  out += r.unreadable.empty() ? "true" : "false";
  out += ", \"toolExecutionNotifications\": [";
  for (size_t i = 0; i < r.unreadable.size(); ++i) {
    const auto& [path, why] = r.unreadable[i];
    out += (i ? "," : "") + std::string("\n          {\"level\": \"error\", \"message\": {\"text\": ") +
           json_quote("cannot read " + path + ": " + why) +
           "}, \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": " +
           json_quote(artifact_uri(path)) + "}}}]}";
  }
  out += r.unreadable.empty() ? "]}\n" : "\n        ]}\n";
  out += "      ],\n      \"results\": [";
  for (size_t i = 0; i < r.diagnostics.size(); ++i) {
    const Diagnostic& d = r.diagnostics[i];
    std::string id = rule_id(d.summary);
    out += (i ? "," : "") + std::string("\n        {\"ruleId\": ") + json_quote(id) +
           ", \"ruleIndex\": " + std::to_string(rule_index[id]) + ", \"level\": " +
           (d.severity == Severity::Error ? "\"error\"" : "\"warning\"") +
           ", \"message\": {\"text\": " + json_quote(message_of(d)) + "}";
    if (d.subject) {
      const Range& s = *d.subject;
      out += ", \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": " +
             json_quote(artifact_uri(s.filename)) + "}, \"region\": {\"startLine\": " +
             std::to_string(s.start.line) + ", \"startColumn\": " + std::to_string(s.start.column) +
             ", \"endLine\": " + std::to_string(s.end.line) +
             ", \"endColumn\": " + std::to_string(s.end.column) + "}}}]";
    }
    out += "}";
  }
  out += r.diagnostics.empty() ? "]\n" : "\n      ]\n";
  out += "    }\n  ]\n}\n";
  return out;
}

std::string report_checkstyle(const CheckReport& r) {
  auto diags = by_file(r);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n";
  auto error = [](const std::string& line, const std::string& col, const char* severity,
                  const std::string& message, const std::string& source) {
    return "    <error line=\"" + line + "\"" + (col.empty() ? "" : " column=\"" + col + "\"") +
           " severity=\"" + severity + "\" message=\"" + xml_escape(message) + "\" source=\"" +
           xml_escape(source) + "\"/>\n";
  };
  std::vector<std::string> files = all_files(r, diags);
  for (const auto& [path, why] : r.unreadable) files.push_back(path);
  if (diags.count("")) files.push_back("");
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  for (const std::string& f : files) {
    std::string body;
    for (const auto& [path, why] : r.unreadable)
      if (path == f) body += error("0", "", "error", "cannot read " + path + ": " + why, "hclvm/unreadable");
    if (auto it = diags.find(f); it != diags.end()) {
      for (const Diagnostic* d : it->second) {
        body += error(d->subject ? std::to_string(d->subject->start.line) : "0",
                      d->subject ? std::to_string(d->subject->start.column) : "",
                      d->severity == Severity::Error ? "error" : "warning", message_of(*d),
                      rule_id(d->summary));
      }
    }
    out += "  <file name=\"" + xml_escape(f) + "\"" + (body.empty() ? "/>\n" : ">\n" + body + "  </file>\n");
  }
  return out + "</checkstyle>\n";
}

std::string report_junit(const CheckReport& r) {
  auto diags = by_file(r);
  std::vector<std::string> files = all_files(r, diags);
  if (diags.count("")) files.push_back("");
  std::string cases;
  size_t failures = 0;
  for (const std::string& f : files) {
    std::string failure, warnings;
    unsigned errors = 0;
    if (auto it = diags.find(f); it != diags.end()) {
      for (const Diagnostic* d : it->second) {
        std::string line = (d->subject ? range_text(d->subject) + ": " : "") +
                           (d->severity == Severity::Error ? "Error: " : "Warning: ") + message_of(*d) + "\n";
        if (d->severity == Severity::Error) ++errors, failure += line;
        else warnings += line;
      }
    }
    cases += "    <testcase classname=\"hclvm.check\" name=\"" + xml_escape(f.empty() ? "(no file)" : f) + "\"";
    if (!errors && warnings.empty()) {
      cases += "/>\n";
      continue;
    }
    cases += ">\n";
    if (errors) {
      ++failures;
      cases += "      <failure type=\"error\" message=\"" + std::to_string(errors) +
               (errors == 1 ? " error" : " errors") + "\">" + xml_escape(failure, true) + "</failure>\n";
    }
    if (!warnings.empty()) cases += "      <system-out>" + xml_escape(warnings, true) + "</system-out>\n";
    cases += "    </testcase>\n";
  }
  for (const auto& [path, why] : r.unreadable) {
    cases += "    <testcase classname=\"hclvm.check\" name=\"" + xml_escape(path) +
             "\">\n      <error type=\"unreadable\" message=\"" +
             xml_escape("cannot read " + path + ": " + why) + "\"/>\n    </testcase>\n";
  }
  std::string counts = "tests=\"" + std::to_string(files.size() + r.unreadable.size()) +
                       "\" failures=\"" + std::to_string(failures) + "\" errors=\"" +
                       std::to_string(r.unreadable.size()) + "\"";
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"hclvm check\" " + counts +
         ">\n  <testsuite name=\"hclvm check\" " + counts + " skipped=\"0\" time=\"0\">\n" + cases +
         "  </testsuite>\n</testsuites>\n";
}

}  // namespace hclvm::cli
