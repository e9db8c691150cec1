// `hclvm console [DIR]`: expressions evaluated in the scope of a Terraform
// module (or a Packer template), in one of three modes:
//  - interactive, when standard input and output are terminals: a prompt
//    ("> ", ": " while an entry goes on), line editing, history and tab
//    completion through libedit when the build found it (plain reading of
//    lines otherwise), entries over several lines while a bracket, heredoc
//    or template sequence is open, `:type EXPR`, `:set NAME=VALUE` (the
//    module evaluated again with one more -var, config::reevaluate),
//    `:help`; Ctrl-C cancels
//    the line or the entry (on an empty prompt it ends the session), or
//    the running evaluation; errors are shown and the session goes on, as
//    terraform console's interactive mode does;
//  - streaming, otherwise: one result per entry printed as soon as its
//    line arrives (JSON with --format json), blank and comment lines
//    skipped, errors on standard error and the session going on;
//  - --terraform-piped: terraform console's piped mode exactly (the last
//    value printed at the end, the first error ends the session), or
//    packer console's for a Packer template; the goldens of
//    tests/golden/config replay Terraform's sessions through it.
// Values print as terraform console prints them (config::console_value) or
// as packer console does. The input heuristics are in console_input.cpp.
#include <hclvm/config.h>
#include <hclvm/functions.h>
#include <hclvm/value_json.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#ifdef HCLVM_LIBEDIT
#include <histedit.h>
#endif

#include "cli/cli.h"
#include "cli/console.h"
#include "cli/eval.h"
#include "diag/render.h"
#include "util/unicode.h"
#include "value/json.h"

namespace hclvm::cli {

const char kConsoleHelp[] =
    "Usage: hclvm console [options] [DIR]\n"
    "\n"
    "Evaluates expressions in the scope of the Terraform module DIR (default: the\n"
    "current directory; a Packer template when DIR holds *.pkr.hcl files), as\n"
    "`terraform console` does. The module and its variables are loaded and\n"
    "evaluated first (errors there end the session). Values print as Terraform\n"
    "1.11 prints them.\n"
    "\n"
    "On a terminal the console is interactive: line editing, history (in\n"
    "$HCLVM_HISTFILE, default ~/.hclvm_history; empty: none), Tab to complete\n"
    "variables, locals, attributes and function names, entries over several\n"
    "lines while a bracket, heredoc or template is open (a blank line ends\n"
    "one), Ctrl-C to cancel a line, an entry or an evaluation (on an empty\n"
    "prompt: to end), Ctrl-D or `exit` to end; `:type EXPR` prints the type\n"
    "of EXPR, `:set NAME=VALUE` evaluates the module again with -var\n"
    "NAME=VALUE added, `:help` or `help` says so. Errors are shown and the\n"
    "session goes on.\n"
    "\n"
    "Otherwise it streams: each entry's value is printed as soon as its line is\n"
    "read, blank lines and comment lines (#, //) are skipped, errors go to\n"
    "standard error and the session goes on; the exit status is 1 when an\n"
    "entry failed.\n"
    "\n"
    "Options:\n"
    "  -var NAME=VALUE    set a variable (also --var)\n"
    "  -var-file FILE     read variables from FILE (also --var-file)\n"
    "  --workspace NAME   terraform.workspace (default: $TF_WORKSPACE, else default)\n"
    "  --values F.json    values of resources by address\n"
    "  --no-confine       let file functions read outside DIR\n"
    "  --format hcl|json  how values print: as terraform console (default), or one\n"
    "                     JSON object a line ({\"value\":…,\"type\":…}, errors as\n"
    "                     {\"error\":SUMMARY,\"range\":…} too)\n"
    "  --terraform-piped  terraform console's piped mode exactly (packer console's\n"
    "                     for a Packer template): lines read to the end, the last\n"
    "                     value printed, the first error ends the session\n"
    "  -h, --help         show this help\n"
    "\n"
    "Exit status: 0 success, 1 errors, 2 usage error.\n";

namespace {

// terraform console's help (repl/session.go).
const char kTerraformHelp[] =
    "The Terraform console allows you to experiment with Terraform interpolations.\n"
    "You may access resources in the state (if you have one) just as you would\n"
    "from a configuration. For example: \"aws_instance.foo.id\" would evaluate\n"
    "to the ID of \"aws_instance.foo\" if it exists in your state.\n"
    "\n"
    "Type in the interpolation to test and hit <enter> to see the result.\n"
    "\n"
    "To exit the console, type \"exit\" and hit <enter>, or use Control-C or\n"
    "Control-D.";

// The console's own help, after terraform's.
const char kMoreHelp[] =
    "\n"
    "\n"
    "An entry goes on over several lines while a bracket, a heredoc or a\n"
    "template sequence is open; a blank line evaluates it as it is. Tab\n"
    "completes variables, locals, attributes and function names.\n"
    "\n"
    "  :type EXPR   the type of EXPR, as type() shows it\n"
    "  :set NAME=VALUE\n"
    "               evaluate the module again with -var NAME=VALUE added\n"
    "               (reusing what does not depend on it)\n"
    "  :help, help  this help\n"
    "  exit         end the session";

// [s] without the spaces around it.
std::string trimmed(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r\n\v\f");
  if (a == std::string::npos) return "";
  size_t b = s.find_last_not_of(" \t\r\n\v\f");
  return s.substr(a, b - a + 1);
}

// Writes [s] to [f] and flushes it.
void put(std::FILE* f, const std::string& s) {
  std::fwrite(s.data(), 1, s.size(), f);
  std::fflush(f);
}

// Prints [diags] as packer prints them (hcl's text writer, width 80).
void print_packer_diags(const Diagnostics& diags, const config::Sources& sources) {
  if (diags.empty()) return;
  diag::SnippetFiles files;
  for (const auto& [name, f] : sources.files()) {
    std::function<std::string(uint32_t)> context;
    if (const ast::Body* b = f.body.native_body())
      context = [b](uint32_t byte) { return diag::native_context(*b, byte); };
    files.emplace(name, diag::SnippetFile{f.source->text(), context});
  }
  std::string text = diag::render_text(diags, files, diag::TextStyle{80, false});
  std::fflush(stdout);
  put(stderr, text);
}

// Prints Terraform's rendering of [diags] to stderr.
void print_tf_diags(const Diagnostics& diags, const config::Sources& sources) {
  if (diags.empty()) return;
  std::fflush(stdout);
  put(stderr, config::render_diagnostics(diags, sources));
}

// packer console's `variables`: the variables and locals of [ev], each
// with its value as packer prints it.
std::string packer_variables(const config::Evaluation& ev) {
  std::string out = "> input-variables:\n\n";
  for (const char* kind : {"var", "local"}) {
    if (std::string_view(kind) == "local") out += "\n> local-variables:\n\n";
    EvalResult r = ev.eval(kind);
    const Type* t = r.value.type();
    if (r.has_errors() || !t->is_object()) continue;
    for (size_t i = 0; i < t->size(); ++i) {
      out += std::string(kind) + "." + std::string(t->attr_name(i)) + ": " +
             uni::go_quote(config::packer_console_value(r.value.attr(i))) + "\n";
    }
  }
  return out;
}

// packer console's piped mode on the evaluation [ev] of a template
// (console.go): every line evaluated, errors printed and the session going
// on, the last result printed raw, "variables" listing the variables and
// locals.
int packer_piped(const config::Evaluation& ev, const config::Sources& sources) {
  std::string line, last;
  int status = kExitOk;
  while (std::getline(std::cin, line)) {
    line = trimmed(line);
    if (line.empty()) {
      last.clear();
      continue;
    }
    if (line == "exit") break;
    if (line == "variables") {
      last = packer_variables(ev);
      continue;
    }
    EvalResult r = ev.eval(line);
    if (!r.diagnostics.empty()) {
      print_packer_diags(r.diagnostics, sources);
      status = r.has_errors() ? kExitErrors : kExitOk;
      last.clear();
      if (r.has_errors()) continue;
    }
    Printed p = print_bounded(
        Limits{}, [&] { return config::packer_console_value(r.value); }, false);
    last = std::move(p.text);
    if (!p.error.empty()) {
      print_failed("the value", p.error);
      status = kExitErrors;
    }
  }
  put(stdout, last + "\n");
  return status;
}

// terraform console's piped mode on the evaluation [ev] (console.go): the
// lines read to the end, the value of the last printed then, an error
// ending the session with status 1, `exit` ending it with 0.
int terraform_piped(const config::Evaluation& ev, const config::Sources& sources) {
  std::string line, last;
  while (std::getline(std::cin, line)) {
    line = trimmed(line);
    if (line.empty()) {
      last.clear();
      continue;
    }
    if (line == "exit") {
      std::fflush(stdout);
      return kExitOk;
    }
    if (line == "help") {
      last = kTerraformHelp;
      continue;
    }
    EvalResult r = ev.eval(line);
    if (r.has_errors()) {
      print_tf_diags(r.diagnostics, sources);
      return kExitErrors;
    }
    Printed p = print_bounded(
        Limits{}, [&] { return config::console_value(r.value); }, false);
    if (!p.error.empty()) {
      print_failed("the value", p.error);
      return kExitErrors;
    }
    last = std::move(p.text);
  }
  put(stdout, last + "\n");
  return kExitOk;
}

// --- sessions ---------------------------------------------------------------------------

// What one entry gave: text to print, or an error (already shown).
struct Outcome {
  std::string text;
  bool error = false;
  std::string error_json;  // --format json: the error as a result line
  bool exit = false;
};

// What `:set` needs to evaluate the module again: the module, the sources
// of its files, and the inputs of the evaluation in use.
struct Rerun {
  config::ModulePtr module;
  config::Sources module_sources;
  config::Inputs inputs;
};

// An evaluation and how its results print: the entries of the
// interactive and the streaming modes go through handle(). With a Rerun,
// `:set NAME=VALUE` evaluates the module again with one more -var.
class Session {
 public:
  Session(const config::Evaluation& ev, const config::Sources& sources, bool packer, Format format,
          Rerun* rerun = nullptr)
      : ev_(&ev), sources_(&sources), packer_(packer), format_(format), rerun_(rerun) {}

  // Runs the entries' evaluations on [vm] (null: a Vm of this thread).
  void set_vm(Vm* vm) { vm_ = vm; }

  // Evaluates the entry [entry] (lines joined by newlines).
  Outcome handle(const std::string& entry) {
    Outcome o;
    std::string e = trimmed(entry);
    if (e.empty()) return o;
    if (e == "exit") {
      o.exit = true;
    } else if (e == "help" || e == ":help") {
      o.text = std::string(kTerraformHelp) + kMoreHelp;
      if (format_ == Format::Json) o.text = "{\"help\":" + json_quote(o.text) + "}";
    } else if (packer_ && e == "variables") {
      o.text = packer_variables(*ev_);
      if (o.text.ends_with('\n')) o.text.pop_back();
    } else if (rerun_ && (e == ":set" || e.starts_with(":set ") || e.starts_with(":set\t"))) {
      o = set_variable(trimmed(e.substr(4)));
    } else if (e == ":type" || e.starts_with(":type ") || e.starts_with(":type\n")) {
      EvalResult r = evaluate(trimmed(e.substr(5)), o);
      if (!o.error) o.text = type_text(r.value.type());
    } else if (e.starts_with(':')) {
      std::string cmd = e.substr(0, e.find_first_of(" \t\n"));
      std::fflush(stdout);
      put(stderr, "hclvm: unknown console command " + cmd + " (see :help)\n");
      o.error = true;
      o.error_json =
          "{\"error\":" + json_quote("Unknown console command " + cmd) + ",\"range\":\"\"}";
    } else {
      EvalResult r = evaluate(entry, o);
      if (o.error) return o;
      // Printed under the run's limits (print_bounded): Ctrl-C stops a
      // long one too.
      Printed p = print_bounded(
          vm_ ? vm_->limits() : Limits{}, [&] { return value_text(r.value); }, false);
      if (p.error.empty()) {
        o.text = std::move(p.text);
      } else {
        std::fflush(stdout);
        print_failed("the value", p.error);
        o.error = true;
        o.error_json = "{\"error\":" + json_quote("The value is too large to print: " + p.error) +
                       ",\"range\":\"\"}";
      }
    }
    return o;
  }

 private:
  // Evaluates [expr], showing its diagnostics; marks [o] failed on errors.
  EvalResult evaluate(const std::string& expr, Outcome& o) const {
    EvalResult r = ev_->eval(expr, vm_);
    if (!r.diagnostics.empty()) print_diags(r.diagnostics, *sources_);
    if (r.has_errors()) fail(o, r.diagnostics);
    return r;
  }

  void print_diags(const Diagnostics& diags, const config::Sources& sources) const {
    if (packer_)
      print_packer_diags(diags, sources);
    else
      print_tf_diags(diags, sources);
  }

  // Marks [o] failed with the first error of [diags].
  static void fail(Outcome& o, const Diagnostics& diags) {
    o.error = true;
    const Diagnostic* first = nullptr;
    for (const Diagnostic& d : diags)
      if (d.severity == Severity::Error && !first) first = &d;
    std::string range;
    if (first && first->subject) {
      const Range& s = *first->subject;
      range = std::to_string(s.start.line) + ":" + std::to_string(s.start.column) + "-" +
              std::to_string(s.end.line) + ":" + std::to_string(s.end.column);
    }
    o.error_json = "{\"error\":" + json_quote(first ? first->summary : "error") +
                   ",\"range\":" + json_quote(range) + "}";
  }

  // `:set NAME=VALUE`: the module evaluated again with -var NAME=VALUE
  // added, reusing the evaluation in use (config::reevaluate). Its
  // diagnostics are shown; when it stops (an invalid value, say) the
  // evaluation in use stays.
  Outcome set_variable(const std::string& assignment) {
    Outcome o;
    size_t eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::fflush(stdout);
      put(stderr, "hclvm: :set needs NAME=VALUE, as -var takes it\n");
      o.error = true;
      o.error_json = "{\"error\":" + json_quote(":set needs NAME=VALUE") + ",\"range\":\"\"}";
      return o;
    }
    config::Inputs in = rerun_->inputs;
    in.args.push_back({config::VarArg::Var, assignment});
    config::Evaluation next = config::reevaluate(*ev_, in, vm_);
    config::Sources sources = rerun_->module_sources;
    sources.merge(next.sources());
    if (!next.diagnostics().empty()) {
      std::fflush(stdout);
      print_diags(next.diagnostics(), sources);
    }
    if (next.stopped()) {
      fail(o, next.diagnostics());
      return o;
    }
    rerun_->inputs = std::move(in);
    own_ = std::move(next);
    own_sources_ = std::move(sources);
    ev_ = &*own_;
    sources_ = &own_sources_;
    if (format_ == Format::Json) o.text = "{\"set\":" + json_quote(assignment.substr(0, eq)) + "}";
    return o;
  }

  // [v] as this session prints values.
  std::string value_text(const Value& v) const {
    if (format_ == Format::Json) return typed_json(v);
    return packer_ ? config::packer_console_value(v) : config::console_value(v);
  }

  // [t] as `:type` prints it.
  std::string type_text(const Type* t) const {
    if (format_ != Format::Json) return config::console_type(t);
    JsonResult<std::string> j = type_to_json(t);
    return "{\"type\":" + (j.ok() ? j.value : json_quote(config::console_type(t))) + "}";
  }

  const config::Evaluation* ev_;
  const config::Sources* sources_;
  bool packer_;
  Format format_;
  Vm* vm_ = nullptr;
  Rerun* rerun_;
  // The evaluation made by the last `:set`, and its sources.
  std::optional<config::Evaluation> own_;
  config::Sources own_sources_;
};

// The lines of an entry, each ended by a newline (a heredoc's closing
// marker needs its own).
std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

// The streaming mode: entries read from standard input as they arrive,
// each result printed (and flushed) at once; 1 when an entry failed.
int stream(Session& s, Format format) {
  std::string line;
  std::vector<std::string> lines;
  int status = kExitOk;
  auto run = [&]() {
    Outcome o = s.handle(join_lines(lines));
    lines.clear();
    if (o.error) {
      status = kExitErrors;
      if (format == Format::Json) put(stdout, o.error_json + "\n");
    } else if (!o.exit && !o.text.empty()) {
      put(stdout, o.text + "\n");
    }
    return !o.exit;
  };
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (lines.empty() && blank_or_comment(line)) continue;
    lines.push_back(line);
    if (entry_could_continue(lines)) continue;
    if (!run()) return status;
  }
  if (!lines.empty()) run();  // an entry still open at the end
  return status;
}

// Reads the lines of the interactive mode.
class LineReader {
 public:
  enum class Status { Line, Interrupted, End };
  virtual ~LineReader() = default;
  // Reads one line into [line] after showing [prompt]; Interrupted on
  // Ctrl-C ([line]: what was typed), End at the end of input.
  virtual Status read(const char* prompt, std::string& line) = 0;
};

// Lines without editing: the prompt, then a line from standard input.
class PlainReader : public LineReader {
 public:
  Status read(const char* prompt, std::string& line) override {
    put(stdout, prompt);
    if (!std::getline(std::cin, line)) return Status::End;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return Status::Line;
  }
};

#ifdef HCLVM_LIBEDIT
// Lines edited with libedit (its native interface, histedit.h): emacs
// keys (Ctrl-R searching the history backwards, as in readline), a
// history kept in [histfile] across sessions, Tab bound to
// completion over [names], and Ctrl-C read as a key (the terminal's
// signal character turned off while editing) so that it cancels the line
// instead of ending the program.
class EditReader : public LineReader {
 public:
  EditReader(CompletionNames names, std::string histfile)
      : names_(std::move(names)), histfile_(std::move(histfile)) {
    el_ = el_init("hclvm", stdin, stdout, stderr);
    hist_ = history_init();
    HistEvent he;
    history(hist_, &he, H_SETSIZE, 1000);
    history(hist_, &he, H_SETUNIQUE, 1);
    if (!histfile_.empty()) history(hist_, &he, H_LOAD, histfile_.c_str());
    el_set(el_, EL_CLIENTDATA, this);
    el_set(el_, EL_EDITOR, "emacs");
    el_set(el_, EL_PROMPT, &EditReader::prompt);
    el_set(el_, EL_HIST, history, hist_);
    el_set(el_, EL_SETTY, "-d", "-isig", nullptr);
    el_set(el_, EL_ADDFN, "hclvm-complete", "complete a name", &EditReader::complete_key);
    el_set(el_, EL_BIND, "^I", "hclvm-complete", nullptr);
    el_set(el_, EL_ADDFN, "hclvm-interrupt", "cancel the line", &EditReader::interrupt_key);
    el_set(el_, EL_BIND, "^C", "hclvm-interrupt", nullptr);
    el_set(el_, EL_BIND, "^R", "em-inc-search-prev", nullptr);  // as readline has it
    el_source(el_, nullptr);  // ~/.editrc
  }
  ~EditReader() override {
    HistEvent he;
    if (!histfile_.empty()) history(hist_, &he, H_SAVE, histfile_.c_str());
    el_end(el_);
    history_end(hist_);
  }
  EditReader(const EditReader&) = delete;
  EditReader& operator=(const EditReader&) = delete;

  Status read(const char* prompt, std::string& line) override {
    prompt_ = prompt;
    interrupted_ = false;
    // Editing mode before the prompt shows: el_gets would set it only
    // after, and keys typed in between would be echoed twice and Ctrl-C
    // would be the terminal's signal.
    el_set(el_, EL_PREP_TERM, 1);
    int n = 0;
    const char* s = el_gets(el_, &n);
    if (s == nullptr || n <= 0) return Status::End;
    line.assign(s, static_cast<size_t>(n));
    if (!line.empty() && line.back() == '\n') line.pop_back();
    if (interrupted_) {
      if (line.ends_with("^C")) line.resize(line.size() - 2);
      return Status::Interrupted;
    }
    if (!trimmed(line).empty()) {
      HistEvent he;
      history(hist_, &he, H_ENTER, line.c_str());
    }
    return Status::Line;
  }

 private:
  // The reader whose editor is [el].
  static EditReader* self(EditLine* el) {
    void* p = nullptr;
    el_get(el, EL_CLIENTDATA, &p);
    return static_cast<EditReader*>(p);
  }

  // The prompt read() was given.
  static char* prompt(EditLine* el) { return self(el)->prompt_.data(); }

  // Ctrl-C: shows "^C" at the end of the line and ends it, marked interrupted.
  static unsigned char interrupt_key(EditLine* el, int) {
    self(el)->interrupted_ = true;
    const LineInfo* li = el_line(el);
    el_cursor(el, static_cast<int>(li->lastchar - li->cursor));
    el_insertstr(el, "^C");
    el_push(el, "\n");
    return CC_REFRESH;
  }

  // Tab: completes the word before the cursor as far as its candidates
  // agree, or lists them when they agree no further.
  static unsigned char complete_key(EditLine* el, int) {
    EditReader* r = self(el);
    const LineInfo* li = el_line(el);
    std::string_view line(li->buffer, static_cast<size_t>(li->lastchar - li->buffer));
    size_t cursor = static_cast<size_t>(li->cursor - li->buffer);
    Completion c = complete(line, cursor, r->names_);
    if (c.candidates.empty()) return CC_REFRESH_BEEP;
    size_t typed = cursor - c.start;
    std::string common = common_prefix(c.candidates);
    if (common.size() > typed) {
      el_insertstr(el, common.substr(typed).c_str());
      return CC_REFRESH;
    }
    if (c.candidates.size() == 1) return CC_REFRESH;
    std::string list = "\n";
    size_t col = 0;
    for (const std::string& cand : c.candidates) {
      if (col > 0 && col + cand.size() + 2 > 78) {
        list += "\n";
        col = 0;
      }
      list += cand + "  ";
      col += cand.size() + 2;
    }
    put(stdout, list + "\n");
    return CC_REDISPLAY;
  }

  CompletionNames names_;
  std::string histfile_;
  EditLine* el_ = nullptr;
  History* hist_ = nullptr;
  std::string prompt_;
  bool interrupted_ = false;
};

// The history file: $HCLVM_HISTFILE (empty: none), else ~/.hclvm_history.
std::string history_file() {
  if (const char* f = std::getenv("HCLVM_HISTFILE")) return f;
  const char* home = std::getenv("HOME");
  return home && *home ? std::string(home) + "/.hclvm_history" : "";
}
#endif

// The console's function names: the standard library as terraform
// console has it (with type(), without plantimestamp()).
[[maybe_unused]] std::vector<std::string> console_functions() {
  std::vector<std::string> out;
  FunctionTable t = standard_functions();
  for (std::string_view n : t.names())
    if (n != "plantimestamp") out.emplace_back(n);
  out.emplace_back("type");
  return out;
}

// Set by Ctrl-C (SIGINT) while an entry is evaluated: the evaluation's
// cancel flag.
std::atomic<bool> g_cancel{false};

extern "C" void on_interrupt(int) { g_cancel.store(true); }

// Ctrl-C while an entry is evaluated (the terminal's signal character is
// on then): the evaluation stops with "Evaluation cancelled" and the
// session goes on; the previous handler is back at the end.
class CancelOnInterrupt {
 public:
  CancelOnInterrupt() {
    g_cancel.store(false);
    struct sigaction sa = {};
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_);
  }
  ~CancelOnInterrupt() { sigaction(SIGINT, &old_, nullptr); }
  CancelOnInterrupt(const CancelOnInterrupt&) = delete;
  CancelOnInterrupt& operator=(const CancelOnInterrupt&) = delete;

 private:
  struct sigaction old_;
};

// The interactive mode (terraform's console_interactive.go): entries read
// with [reader] until `exit`, the end of input or Ctrl-C on an empty
// prompt; errors shown, the session going on; Ctrl-C during an
// evaluation cancels it.
int interactive(Session& s, LineReader& reader) {
  Limits limits;
  limits.cancel = &g_cancel;
  Vm vm(limits);
  s.set_vm(&vm);
  std::vector<std::string> lines;
  for (;;) {
    std::string line;
    LineReader::Status st = reader.read(lines.empty() ? "> " : ": ", line);
    if (st == LineReader::Status::End) {
      put(stdout, "\n");
      break;
    }
    if (st == LineReader::Status::Interrupted) {
      if (lines.empty() && line.empty()) break;
      if (!line.empty()) continue;
      lines.clear();
      put(stdout, "(multi-line entry canceled)\n");
      continue;
    }
    lines.push_back(line);
    if (entry_could_continue(lines)) continue;
    Outcome o;
    {
      CancelOnInterrupt cancel;
      o = s.handle(join_lines(lines));
    }
    lines.clear();
    if (o.exit) break;
    if (!o.error && !o.text.empty()) put(stdout, o.text + "\n");
  }
  return kExitOk;
}

}  // namespace

int run_console(const std::vector<std::string>& args_in) {
  EvalOptions o;
  o.format = Format::Hcl;
  bool piped = false;
  std::vector<std::string> args = long_terraform_flags(args_in);
  ArgScanner sc(args);
  std::string err;
  while (sc.next()) {
    if (!sc.is_flag()) {
      o.files.push_back(sc.name());
      continue;
    }
    if (sc.is("--help", "-h")) {
      std::fputs(kConsoleHelp, stdout);
      return kExitOk;
    }
    if (sc.is("--no-confine")) {
      o.no_confine = true;
      continue;
    }
    if (sc.is("--terraform-piped")) {
      piped = true;
      continue;
    }
    if (!sc.is("--var") && !sc.is("--var-file") && !sc.is("--workspace") && !sc.is("--values") &&
        !sc.is("--format"))
      return unknown_flag(sc.name(), kConsoleHelp, "hclvm help console");
    std::optional<std::string> v = sc.value(err);
    if (!v) return usage_error(err);
    if (sc.is("--var")) o.var_args.emplace_back(false, *v);
    else if (sc.is("--var-file")) o.var_args.emplace_back(true, *v);
    else if (sc.is("--workspace")) o.workspace = *v;
    else if (sc.is("--values")) o.values_file = *v;
    else if (*v == "json" || *v == "hcl") o.format = *v == "json" ? Format::Json : Format::Hcl;
    else return usage_error("--format must be hcl or json");
  }
  if (piped && o.format == Format::Json)
    return usage_error("--terraform-piped prints as terraform does: no --format json");
  if (o.files.empty()) o.files.push_back(".");
  std::optional<ModuleTarget> t = target_of(o.files, err);
  if (!t) return usage_error(err);
  config::LoadResult m = load_target(*t);
  if (m.has_errors() || !m.module) {
    // Warnings on standard output (piped; standard error otherwise),
    // errors on standard error.
    Diagnostics w, e;
    for (const Diagnostic& d : m.diagnostics) (d.severity == Severity::Error ? e : w).push_back(d);
    std::string text = w.empty() ? "" : config::render_diagnostics(w, m.sources);
    put(piped ? stdout : stderr, text);
    print_tf_diags(e, m.sources);
    return kExitErrors;
  }
  config::Inputs in;
  if (auto e = inputs_from(o, t->dir, in)) return usage_error(*e);
  bool packer = m.module->language() == config::Language::Packer;
  if (!packer) in.evaluate_resources = false;  // terraform console does not evaluate them
  config::Evaluation ev = config::evaluate(m.module, in);
  config::Sources sources = m.sources;
  sources.merge(ev.sources());
  if (packer && ev.stopped()) {
    print_packer_diags(ev.diagnostics(), sources);
    return kExitErrors;
  }
  if (packer && piped) return packer_piped(ev, sources);
  if (!packer) {
    Diagnostics warnings, errors;
    for (const Diagnostic& d : m.diagnostics)
      (d.severity == Severity::Error ? errors : warnings).push_back(d);
    for (const Diagnostic& d : ev.diagnostics())
      (d.severity == Severity::Error ? errors : warnings).push_back(d);
    // Warnings go to standard output in terraform's piped mode, to
    // standard error otherwise (standard output holds results only).
    std::FILE* notes = piped ? stdout : stderr;
    if (!warnings.empty()) put(notes, config::render_diagnostics(warnings, sources));
    if (ev.stopped()) {
      print_tf_diags(errors, sources);
      return kExitErrors;
    }
    if (!errors.empty()) {
      print_tf_diags(errors, sources);
      put(notes,
          "\nWarning: Due to the problems above, some expressions may produce unexpected "
          "results.\n\n\n");
    }
    if (piped) return terraform_piped(ev, sources);
  }
  Rerun rerun{m.module, m.sources, in};
  Session session(ev, sources, packer, o.format, &rerun);
  if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) return stream(session, o.format);
#ifdef HCLVM_LIBEDIT
  std::setlocale(LC_CTYPE, "");
  EditReader reader(completion_names(*m.module, ev, console_functions()), history_file());
#else
  PlainReader reader;
#endif
  return interactive(session, reader);
}

}  // namespace hclvm::cli
