#!/usr/bin/env python3
"""Runs the reference oracle over tests/golden/funcs/cases.txt and writes
expected.tsv, the golden data funcs_test reads.

Each case is one function call, FUNC(ARG, ...), on a line ('#' starts a
comment line). For each the oracle evaluates the call and, separately, the
tuple [ARG, ...] of its arguments, so that the test can call the function
with exactly the argument values the reference saw. A line of
expected.tsv holds five tab-separated fields: the call, the function name,
the arguments as typed JSON ({"value":...,"type":...} of the tuple), and
either "result" and the result as typed JSON, or the diagnostic's summary
and detail. Fields are escaped: backslash, tab and newline as \\, \t, \n.
(The oracle's text output wraps the detail at 78 columns; the test compares
details with newlines read as spaces. Where the function panicked, the Go
stack trace that follows the panic's message is left out.)

The oracle is the newest reference's gohcl-bench (hcl v2.24.0 + go-cty
v1.18.1): $HCL_ORACLE_NEWEST_BIN/gohcl-bench, default
/opt/hcl-oracle/newest/bin/gohcl-bench (see ../oracle-env.sh).

Usage: gen.py [ORACLE]
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.environ.get("HCL_ORACLE_NEWEST_BIN", "/opt/hcl-oracle/newest/bin"), "gohcl-bench")


def split_call(expr):
    """Returns (name, [arg source]) of a call FUNC(A, B, ...)."""
    open_at = expr.index("(")
    name = expr[:open_at].strip()
    body = expr[open_at + 1:expr.rindex(")")]
    args, depth, cur, i, in_str = [], 0, "", 0, False
    while i < len(body):
        c = body[i]
        if in_str:
            cur += c
            if c == "\\":
                cur += body[i + 1]
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
            cur += c
        elif c in "([{":
            depth += 1
            cur += c
        elif c in ")]}":
            depth -= 1
            cur += c
        elif c == "," and depth == 0:
            args.append(cur.strip())
            cur = ""
        else:
            cur += c
        i += 1
    if cur.strip():
        args.append(cur.strip())
    return name, args


def run(expr):
    """Evaluates expr with the oracle: ("result", json) or ("error", summary, detail)."""
    p = subprocess.run([ORACLE, "eval", "-e", expr, "-n", "1"], capture_output=True, text=True)
    for line in p.stdout.splitlines():
        if line.startswith("result: "):
            raw = line[len("result: "):].strip()
            return ("result", json.loads(raw, parse_float=str, parse_int=str), raw)
    err = p.stderr
    if not err.startswith("Error: "):
        raise SystemExit(f"unexpected oracle output for {expr!r}: {p.stdout!r} {err!r}")
    first = err.split("\nError: ")[0]
    summary = first[len("Error: "):first.index("\n")]
    # Summary, blank line, "  on <expr> line N:", source lines, blank line, detail.
    parts = first.split("\n\n")
    detail = "\n\n".join(parts[2:]).rstrip("\n")
    # A panic inside the function: the reference's detail goes on with the
    # Go stack trace (and the detail's final period) after the panic's
    # message; the trace is the reference's own and is left out.
    if "\ngoroutine " in detail:
        detail = detail[:detail.index("\ngoroutine ")] + "."
    return ("error", summary, detail)


def escape(s):
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def main():
    out = []
    with open(os.path.join(HERE, "cases.txt")) as f:
        for line in f:
            expr = line.strip()
            if not expr or expr.startswith("#"):
                continue
            name, args = split_call(expr)
            a = run("[" + ", ".join(args) + "]")
            if a[0] != "result" or "value" not in a[1]:
                raise SystemExit(f"arguments of {expr!r} do not evaluate: {a}")
            fields = [expr, name, a[2]]
            r = run(expr)
            if r[0] == "result":
                fields += ["result", r[2]]
            else:
                fields += [r[1], r[2]]
            out.append("\t".join(escape(x) for x in fields))
    with open(os.path.join(HERE, "expected.tsv"), "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"{len(out)} cases written")


main()
