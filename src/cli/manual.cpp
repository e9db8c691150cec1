// What the help texts are turned into: `hclvm completion bash|zsh|fish`
// (shell completion scripts) and the manual page hclvm(1) (`hclvm help
// --man`, hidden, run at build time). Both read the commands from the
// general help's "Commands:" section and each command's flags from its
// "Options:" section (help_flags), so neither can drift from the help.
#include "cli/cli.h"
#include "cli/eval.h"
#include "util/unicode.h"

#include <cstdio>
#include <string>
#include <vector>

namespace hclvm::cli {

const char kCompletionHelp[] =
    "Usage: hclvm completion bash|zsh|fish\n"
    "\n"
    "Prints a script that completes hclvm's and hcldec's commands and flags\n"
    "(and file names) in the shell named. Load it for this session with\n"
    "\n"
    "  source <(hclvm completion bash)          # bash\n"
    "  source <(hclvm completion zsh)           # zsh\n"
    "  hclvm completion fish | source           # fish\n"
    "\n"
    "'cmake --install' installs the three scripts where the shells find them\n"
    "(share/bash-completion/completions, share/zsh/site-functions,\n"
    "share/fish/vendor_completions.d).\n"
    "\n"
    "Options:\n"
    "  -h, --help   show this help\n"
    "\n"
    "Exit status: 0 printed, 2 usage error.\n";

namespace {

// One command of the general help: its name, one-line summary and flags.
struct CommandDoc {
  std::string name;
  std::string summary;
  std::vector<std::string> flags;
};

// The commands of the general help, in its order, with their flags.
std::vector<CommandDoc> command_docs() {
  std::vector<CommandDoc> out;
  std::string_view help = kMainHelp;
  std::string_view rest = help.substr(help.find("\nCommands:\n") + 11);
  while (rest.starts_with("  ")) {
    std::string_view line = rest.substr(2, rest.find('\n') - 2);
    rest.remove_prefix(rest.find('\n') + 1);
    CommandDoc c;
    c.name = std::string(line.substr(0, line.find(' ')));
    std::string_view summary = line.substr(c.name.size());
    summary.remove_prefix(std::min(summary.find_first_not_of(' '), summary.size()));
    c.summary = std::string(summary);
    if (const char* h = help_for(c.name)) c.flags = help_flags(h);
    out.push_back(std::move(c));
  }
  return out;
}

// [words] joined with spaces.
std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// [s] with ' and \ escaped for a single-quoted shell word's contents.
std::string shell_single(std::string_view s) {
  std::string out;
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out;
}

std::string bash_script() {
  std::vector<CommandDoc> cmds = command_docs();
  std::vector<std::string> names;
  for (const CommandDoc& c : cmds) names.push_back(c.name);
  std::string s =
      "# bash completion for hclvm and hcldec (hclvm completion bash)\n"
      "_hclvm() {\n"
      "  local cur=${COMP_WORDS[COMP_CWORD]} flags=\n"
      "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
      "    COMPREPLY=($(compgen -W '" + join(names) + " " + join(help_flags(kMainHelp)) +
      "' -- \"$cur\"))\n"
      "    return\n"
      "  fi\n"
      "  case ${COMP_WORDS[1]} in\n";
  for (const CommandDoc& c : cmds) {
    s += "    " + c.name + ") flags='" + shell_single(join(c.flags)) + "'";
    if (c.name == "help") s += "; [ \"$COMP_CWORD\" -eq 2 ] && flags='" + join(names) + "'";
    if (c.name == "completion") s += "; flags='bash zsh fish'";
    s += " ;;\n";
  }
  s += "  esac\n"
       "  case ${COMP_WORDS[1]} in help|completion) ;; *) [[ $cur == -* ]] || return ;; esac\n"
       "  COMPREPLY=($(compgen -W \"$flags\" -- \"$cur\"))\n"
       "}\n"
       "_hcldec() {\n"
       "  local cur=${COMP_WORDS[COMP_CWORD]}\n"
       "  [[ $cur == -* ]] || return\n"
       "  COMPREPLY=($(compgen -W '" + join(help_flags(kDecHelp)) + "' -- \"$cur\"))\n"
       "}\n"
       "complete -o default -F _hclvm hclvm\n"
       "complete -o default -F _hcldec hcldec\n";
  return s;
}

std::string zsh_script() {
  std::vector<CommandDoc> cmds = command_docs();
  std::string s =
      "#compdef hclvm hcldec\n"
      "# zsh completion for hclvm and hcldec (hclvm completion zsh)\n"
      "_hclvm() {\n"
      "  local -a cmds flags\n"
      "  if [[ $service == hcldec ]]; then\n"
      "    flags=(" + join(help_flags(kDecHelp)) + ")\n"
      "    if [[ $PREFIX == -* ]]; then compadd -a flags; else _files; fi\n"
      "    return\n"
      "  fi\n"
      "  if (( CURRENT == 2 )); then\n"
      "    cmds=(\n";
  for (const CommandDoc& c : cmds) s += "      '" + c.name + ":" + shell_single(c.summary) + "'\n";
  s += "    )\n"
       "    _describe command cmds\n"
       "    return\n"
       "  fi\n"
       "  case $words[2] in\n";
  for (const CommandDoc& c : cmds) {
    s += "    " + c.name + ") flags=(" + join(c.flags) + ")";
    if (c.name == "help") s += "; (( CURRENT == 3 )) && { _describe command cmds; return; }";
    if (c.name == "completion") s += "; compadd bash zsh fish; return";
    s += " ;;\n";
  }
  s += "  esac\n"
       "  if [[ $PREFIX == -* ]]; then compadd -a flags; else _files; fi\n"
       "}\n"
       "if [[ $zsh_eval_context[-1] == loadautofunc ]]; then\n"
       "  _hclvm \"$@\"\n"
       "else\n"
       "  compdef _hclvm hclvm hcldec\n"
       "fi\n";
  // `help COMMAND` needs the list: fill it before the case.
  size_t at = s.find("  case $words[2] in\n");
  std::string fill = "  cmds=(";
  for (const CommandDoc& c : cmds) fill += c.name + " ";
  fill.back() = ')';
  s.insert(at, fill + "\n");
  return s;
}

// fish's `complete` options for [flag]: -l NAME, -s X or -o NAME.
std::string fish_flag(const std::string& flag) {
  if (flag.starts_with("--")) return "-l " + flag.substr(2);
  if (flag.size() == 2) return "-s " + flag.substr(1);
  return "-o " + flag.substr(1);
}

std::string fish_script() {
  std::vector<CommandDoc> cmds = command_docs();
  std::string s = "# fish completion for hclvm and hcldec (hclvm completion fish)\n";
  for (const CommandDoc& c : cmds)
    s += "complete -c hclvm -n __fish_use_subcommand -f -a " + c.name + " -d '" +
         shell_single(c.summary) + "'\n";
  for (const CommandDoc& c : cmds) {
    for (const std::string& f : c.flags)
      s += "complete -c hclvm -n '__fish_seen_subcommand_from " + c.name + "' " + fish_flag(f) + "\n";
  }
  std::string names;
  for (const CommandDoc& c : cmds) names += (names.empty() ? "" : " ") + c.name;
  s += "complete -c hclvm -n '__fish_seen_subcommand_from help' -f -a '" + names + "'\n";
  s += "complete -c hclvm -n '__fish_seen_subcommand_from completion' -f -a 'bash zsh fish'\n";
  for (const std::string& f : help_flags(kDecHelp)) s += "complete -c hcldec " + fish_flag(f) + "\n";
  return s;
}

// [text] as troff input inside a no-fill block: backslashes escaped,
// dashes made minus signs (flags are typed as they print), characters
// beyond ASCII as \[uXXXX], and lines that would read as requests
// protected.
std::string troff_text(std::string_view text) {
  std::string out;
  bool line_start = true;
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (static_cast<unsigned char>(c) >= 0x80) {
      uni::Rune r = uni::decode(text, i);
      char buf[16];
      std::snprintf(buf, sizeof buf, "\\[u%04X]", r.ok ? unsigned(r.cp) : 0xFFFDu);
      out += buf;
      i += r.ok ? r.len : 1;
      line_start = false;
      continue;
    }
    ++i;
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\') out += "\\e";
    else if (c == '-') out += "\\-";
    else out += c;
    line_start = c == '\n';
  }
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out;
}

}  // namespace

int run_completion(const std::vector<std::string>& args) {
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    std::fputs(kCompletionHelp, stdout);
    return kExitOk;
  }
  if (args.size() != 1) return usage_error("completion needs one SHELL: bash, zsh or fish");
  std::string s;
  if (args[0] == "bash") s = bash_script();
  else if (args[0] == "zsh") s = zsh_script();
  else if (args[0] == "fish") s = fish_script();
  else return usage_error("completion knows bash, zsh and fish, not '" + args[0] + "'");
  std::fwrite(s.data(), 1, s.size(), stdout);
  return kExitOk;
}

std::string man_page(std::string_view version) {
  std::string v(version);
  std::string s =
      ".\\\" hclvm(1), generated from the help texts by 'hclvm help --man'.\n"
      ".TH HCLVM 1 \"\" \"hclvm " + v + "\" \"User Commands\"\n"
      ".SH NAME\n"
      "hclvm, hcldec \\- parse, check, format, convert and evaluate HCL2\n"
      ".SH SYNOPSIS\n"
      ".B hclvm\n"
      ".I COMMAND\n"
      "[\\fIoptions\\fR] [\\fIarguments\\fR]\n"
      ".br\n"
      ".B hcldec\n"
      "\\fB\\-\\-spec\\fR=\\fISPEC\\fR [\\fIoptions\\fR] [\\fIFILE\\fR ...]\n"
      ".SH DESCRIPTION\n"
      ".nf\n" +
      troff_text(kMainHelp) +
      ".fi\n"
      ".SH COMMANDS\n"
      "Each command's help, as \\fBhclvm help\\fR \\fICOMMAND\\fR prints it.\n";
  for (const CommandDoc& c : command_docs()) {
    const char* h = help_for(c.name);
    if (!h) continue;
    s += ".SS hclvm " + c.name + "\n" + c.summary + ".\n.PP\n.nf\n" + troff_text(h) + ".fi\n";
  }
  s += ".SH EXIT STATUS\n"
       "0: success; 1: the input has errors; 2: a usage error or an input that cannot be\n"
       "read. \\fBfmt\\fR follows terraform fmt (1 usage, 2 errors, 3 unformatted with\n"
       "\\-check) and \\fBhcldec\\fR/\\fBdec\\fR the reference's hcldec (1 operational\n"
       "error, 2 diagnostics); each command's help gives its own.\n"
       ".SH ENVIRONMENT\n"
       ".TP\n"
       ".B NO_COLOR\n"
       "when set and not empty, diagnostics are not coloured under \\-\\-color auto.\n"
       ".SH SEE ALSO\n"
       "The documentation installed with hclvm (docs/cli.md, docs/config.md).\n";
  return s;
}

}  // namespace hclvm::cli
