#!/usr/bin/python3
"""tests/cli/console_stream.py HCLVM MODULE_DIR VARS_JSON

Checks that `hclvm console` without a terminal and `hclvm eval --lines -`
stream: each line written to the program's standard input (a pipe kept
open) gets its result on standard output before the next line is sent,
and the program ends only when its input ends. Standard library only; run
by ctest through /usr/bin/python3.
"""
import os
import select
import subprocess
import sys
import time

TIMEOUT = 10.0


class Failure(Exception):
    pass


def read_line(proc, what):
    """The next line of [proc]'s standard output, within the timeout."""
    deadline = time.monotonic() + TIMEOUT
    line = b""
    while not line.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([proc.stdout], [], [], left)[0]:
            raise Failure(f"{what}: no result while the input is still open (got {line!r})")
        chunk = os.read(proc.stdout.fileno(), 1)
        if not chunk:
            raise Failure(f"{what}: output ended (got {line!r})")
        line += chunk
    return line.decode()


def converse(args, exchanges, want_rc):
    """Runs hclvm [args]; for each (input, expected lines) writes the input
    and reads the expected lines; then closes the input and checks the exit
    status [want_rc]."""
    proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        for sent, want in exchanges:
            proc.stdin.write(sent.encode())
            proc.stdin.flush()
            for w in want:
                got = read_line(proc, f"{' '.join(args[1:])}: after {sent!r}")
                if got != w + "\n":
                    raise Failure(f"after {sent!r}: expected {w!r}, got {got!r}")
            if proc.poll() is not None:
                raise Failure(f"after {sent!r}: the program ended before its input")
        proc.stdin.close()
        rc = proc.wait(TIMEOUT)
        if rc != want_rc:
            raise Failure(f"{' '.join(args[1:])}: exit status {rc}, not {want_rc}: "
                          f"{proc.stderr.read().decode()}")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def main():
    hclvm, module, vars_json = sys.argv[1:4]
    try:
        converse([hclvm, "console", module], [
            ("upper(local.name)\n", ['"APP-DEV"']),
            ("\n# a comment\n// another\n", []),
            ("[\n", []),
            ("  local.zones[1],\n", []),
            ("]\n", ["[", '  "b",', "]"]),
            ("var.nope\n", []),          # an error: on standard error only
            ("1 + 1\n", ["2"]),          # the session goes on
        ], 1)
        converse([hclvm, "console", "--format", "json", module], [
            ("local.zones\n", ['{"value":["a","b"],"type":["tuple",["string","string"]]}']),
            ("var.nope\n", ['{"error":"Reference to undeclared input variable","range":"1:1-1:9"}']),
            (":type local.name\n", ['{"type":"string"}']),
        ], 1)
        converse([hclvm, "eval", "--vars-file", vars_json, "--lines", "-"], [
            ("1 + 2\n", ['{"value":3,"type":"number"}']),
            ("\n#c\n", []),
            ("upper(env)\n", ['{"value":"PROD","type":"string"}']),
        ], 0)
        converse([hclvm, "eval", "--vars-file", vars_json, "--format", "hcl", "--lines", "-"], [
            ("[env]\n", ["[", '  "prod",', "]"]),
            ("nope\n", []),
            ("2 * 21\n", ["42"]),
        ], 1)
    except Failure as e:
        print(f"FAIL: {e}")
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
