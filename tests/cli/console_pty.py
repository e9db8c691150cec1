#!/usr/bin/python3
"""tests/cli/console_pty.py HCLVM DIR [--no-libedit]

Drives `hclvm console DIR` on a pseudo-terminal, as a person at a terminal
would: keys are written to the terminal and the output is read back until
what each step expects appears (escape sequences, carriage returns and
backspaces removed), with a timeout. Covers the prompt, multi-line entries
and their ": " prompt, line editing keys, UTF-8, history (the Up arrow,
Ctrl-R, and across sessions through $HCLVM_HISTFILE), tab completion,
Ctrl-C on a line, in an entry, during an evaluation and on an empty
prompt, Ctrl-D, `:type`, `:help`, errors that leave the session going,
and `exit`. Exits 77 (skipped) when the build has no
libedit (--no-libedit), 1 with the transcript when a step fails.
Standard library only; run by ctest through /usr/bin/python3.
"""
import fcntl
import os
import pty
import re
import select
import struct
import sys
import tempfile
import termios
import time

TIMEOUT = 10.0
ESCAPES = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\x1bO[A-Za-z]|[\r\b\x07]")


class Failure(Exception):
    pass


class Console:
    """One `hclvm console` process on a pseudo-terminal 100 columns wide."""

    def __init__(self, hclvm, directory, env):
        self.raw = b""
        self.mark = 0
        pid, fd = pty.fork()
        if pid == 0:
            os.execve(hclvm, [hclvm, "console", directory], env)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))

    def text(self):
        return ESCAPES.sub(b"", self.raw).decode("utf-8", "replace")

    def read_some(self, deadline):
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        ready, _, _ = select.select([self.fd], [], [], left)
        if not ready:
            return False
        try:
            chunk = os.read(self.fd, 4096)
        except OSError:  # the other end closed
            return False
        if not chunk:
            return False
        self.raw += chunk
        return True

    def expect(self, what, step):
        """Waits until [what] appears after the mark; moves the mark past it."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            at = self.text().find(what, self.mark)
            if at >= 0:
                self.mark = at + len(what)
                return
            if not self.read_some(deadline):
                raise Failure(f"{step}: {what!r} did not appear")

    def wait_for_signals(self, step):
        """Waits until the terminal sends signals again (ISIG): the line was
        read and the console is evaluating it."""
        deadline = time.monotonic() + TIMEOUT
        while not termios.tcgetattr(self.fd)[3] & termios.ISIG:
            if time.monotonic() > deadline:
                raise Failure(f"{step}: the line was not taken")
            time.sleep(0.01)
        time.sleep(0.1)

    def send(self, keys):
        os.write(self.fd, keys.encode())

    def step(self, keys, expected, step):
        self.send(keys)
        for e in expected:
            self.expect(e, step)

    def finish(self, step):
        """Waits for the process to end; returns its exit status."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                while self.read_some(time.monotonic() + 0.2):
                    pass
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            self.read_some(time.monotonic() + 0.1)
        os.kill(self.pid, 9)
        raise Failure(f"{step}: the console did not end")


def first_session(c):
    c.expect("> ", "the prompt")
    c.step("1 + 2\r", ["3", "> "], "a value")
    c.step("upper(local.name)\r", ['"APP-DEV"', "> "], "a function call in the module's scope")
    # Multi-line: the entry goes on while the bracket is open.
    c.step("[\r", [": "], "an open bracket continues the entry")
    c.step("local.zones[0],\r", [": "], "the entry goes on")
    c.step('"z"]\r', ['"a",', '"z",', "]", "> "], "the entry evaluated when closed")
    c.step("<<EOT\r", [": "], "an open heredoc continues the entry")
    c.step("hi ${local.name}\r", [": "], "a heredoc line")
    c.step("EOT\r", ["hi app-dev", "> "], "the heredoc evaluated")
    # Ctrl-C: on an empty line in an entry it cancels the entry; on a line
    # with text it cancels the line only.
    c.step("{\r", [": "], "an open brace")
    c.step("\x03", ["(multi-line entry canceled)", "> "], "Ctrl-C cancels the entry")
    c.step("junk\x03", ["^C", "> "], "Ctrl-C cancels the line")
    c.step("40 + 2\r", ["42", "> "], "the line after Ctrl-C stands alone")
    # Line editing: Ctrl-A to the start of the line, the Left arrow.
    c.step("+1\x0140\r", ["41", "> "], "Ctrl-A moves to the start of the line")
    c.step("73\x1b[D\x7f9\r", ["93", "> "], "Left arrow and backspace")
    # UTF-8: typed, and deleted one character (not one byte) at a time.
    c.step('upper("h\u00e9llo")\r', ['"H\u00c9LLO"', "> "], "UTF-8 input")
    c.step('"a\u00e9"\x7f\x7f"\r', ['"a"', "> "], "backspace over a UTF-8 character")
    c.step("73\x1b[D\x7f9\r", ["93", "> "], "Left arrow and backspace, again")
    # History: the Up arrow recalls the previous line.
    c.step("\x1b[A\r", ["93", "> "], "Up arrow recalls the previous entry")
    c.step("\x12upper(l\r", ['"APP-DEV"', "> "], "Ctrl-R searches the history")
    # Tab completion: locals, functions, variables (listed when ambiguous).
    c.step("local.na\t\r", ['"app-dev"', "> "], "Tab completes a local")
    c.step('low\t"ABC")\r', ['"abc"', "> "], "Tab completes a function name")
    c.step("var.\t", ["var.env", "var.password", "> var."], "Tab lists the variables")
    c.step("e\t\r", ['"dev"', "> "], "Tab completes the variable")
    c.step("module.net.ci\t\r", ['"10.0.1.0/24"', "> "], "Tab completes a module output")
    # :type and :help.
    c.step(":type local.zones\r", ["tuple([", "string,", "])", "> "], ":type")
    c.step(":help\r", ["The Terraform console allows", ":type EXPR", "> "], ":help")
    # An error is shown and the session goes on.
    c.step("var.nope\r", ["Error: Reference to undeclared input variable", "> "], "an error")
    c.step("5 * 5\r", ["25", "> "], "the session goes on after an error")
    # Ctrl-C while an entry is evaluated (about two seconds of hashing)
    # cancels it, and the session goes on.
    c.send('length([for i in range(1000): length([for j in range(1000): '
           'sha256(sha256(sha256("${i}-${j}")))])])\r')
    c.wait_for_signals("a long evaluation")
    c.step("\x03", ["Error: Evaluation cancelled", "> "], "Ctrl-C cancels an evaluation")
    c.step("6 * 7\r", ["42", "> "], "the session goes on after a cancelled evaluation")
    c.step("exit\r", [], "exit")
    return c.finish("exit")


def second_session(c):
    c.expect("> ", "the prompt of a new session")
    # The history of the first session was saved.
    c.step("\x1b[A", ["exit"], "history from the previous session")
    c.step("\x1b[A", ["6 * 7"], "history from the previous session, further back")
    c.step("\x15", [], "Ctrl-U clears the line")
    c.step("\x04", [], "Ctrl-D on an empty prompt")
    return c.finish("Ctrl-D")


def third_session(c):
    c.expect("> ", "the prompt")
    c.step("\x03", [], "Ctrl-C on an empty prompt")
    return c.finish("Ctrl-C on an empty prompt")


def main():
    if "--no-libedit" in sys.argv:
        print("skipped: hclvm was built without libedit")
        return 77
    hclvm, directory = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as home:
        env = {"PATH": "/usr/bin:/bin", "TERM": "xterm", "LANG": "C.UTF-8", "HOME": home,
               "HCLVM_HISTFILE": os.path.join(home, "history")}
        # The sanitizers' settings (the asan preset's suppressions) go along.
        for name in ("ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS"):
            if name in os.environ:
                env[name] = os.environ[name]
        for name, session in [("first", first_session), ("second", second_session),
                              ("third", third_session)]:
            c = Console(hclvm, directory, env)
            try:
                status = session(c)
                if status != 0:
                    raise Failure(f"exit status {status}, not 0")
            except Failure as e:
                try:
                    done, status = os.waitpid(c.pid, os.WNOHANG)
                    state = f"ended, status {status:#x}" if done else "still running"
                except ChildProcessError:
                    state = "ended"
                print(f"FAIL in the {name} session ({state}): {e}\n--- transcript\n{c.text()}")
                return 1
            print(f"{name} session: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
