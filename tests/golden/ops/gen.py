#!/usr/bin/env python3
"""Writes the differential golden data of the value operations (ops.golden)
and of set construction (sets.golden) by evaluating HCL expressions with the
newest reference (hcl v2.24.0 / go-cty v1.18.1, see shared/oracle/README.md).

ops.golden, one case a line, tab-separated:
    OP  LHS  RHS  EXPECTED
LHS and RHS are the operands as the oracle prints them ({"value":…,"type":…}
or {"repr":…} for infinities; RHS is "-" for unary operators); EXPECTED is the
result in the same form, "error:MESSAGE" (the reference's "Error during
operation" detail) or "panic" (the reference crashed inside big.Float).

sets.golden, one case a line:
    INPUT  EXPECTED
INPUT is tolist(X) and EXPECTED toset(X) for an HCL tuple expression X: the
elements in insertion order, then the set cty builds from them.

Usage: gen.py [ORACLE]   (default $HCL_ORACLE_NEWEST_BIN/gohcl-bench, or
/opt/hcl-oracle/newest/bin/gohcl-bench)
"""
import itertools
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.environ.get("HCL_ORACLE_NEWEST_BIN", "/opt/hcl-oracle/newest/bin"), "gohcl-bench")

_cache = {}


def evaluate(expr):
    """The oracle's result line for [expr]: JSON, error:MSG or panic."""
    if expr in _cache:
        return _cache[expr]
    p = subprocess.run([ORACLE, "eval", "-e", expr, "-n", "1"], capture_output=True, text=True)
    out = p.stdout + p.stderr
    m = re.search(r"^result: (.*)$", out, re.M)
    if m:
        res = m.group(1)
    elif "panic in function implementation" in out:
        res = "panic"
    else:
        m = re.search(r"Error during operation: (.*?)\.\n", out, re.S)
        if m:
            res = "error:" + " ".join(m.group(1).split())
        else:
            m = re.search(r"^Error: (.*)$", out, re.M)
            res = "error:" + (m.group(1) if m else "?")
    _cache[expr] = res
    return res


NUMBERS = ["0", "-0", "1", "-1", "2", "3", "7", "-7", "2.5", "-2.5", "0.1", "0.5", "1e30",
           "-1e30", "1/3", "12345678901234567890", "1/0", "-1/0", "1.5e-10", "100"]

VALUES = ["1", "2", "1.0", "0", "-0", "0.1", "\"a\"", "\"b\"", "\"\"", "\"1\"", "true", "false",
          "null", "tolist([1, 2])", "tolist([1, 2, 3])", "tolist([\"a\"])", "toset([1, 2])",
          "toset([2, 1])", "toset([1, 2, 3])", "tomap({a = 1})", "tomap({a = 2})",
          "tomap({a = 1, b = 2})", "{a = 1}", "{a = 1, b = \"x\"}", "{a = \"1\"}", "[1, \"a\"]",
          "[1, 2]", "[]", "{}", "tolist([])", "tomap({})", "toset([])", "[null]", "{a = null}",
          "tolist([null])", "tolist([tolist([1]), tolist([2])])", "tostring(null)"]

BOOLS = ["true", "false"]


def ops_cases():
    for a, b in itertools.product(VALUES, VALUES):
        yield "==", a, b
        yield "!=", a, b
    for a, b in itertools.product(NUMBERS, NUMBERS):
        for op in ["+", "-", "*", "/", "%", "<", "<=", ">", ">="]:
            yield op, a, b
    for a in NUMBERS:
        yield "neg", a, None
    for a, b in itertools.product(BOOLS, BOOLS):
        yield "&&", a, b
        yield "||", a, b
    for a in BOOLS:
        yield "!", a, None


def expression(op, a, b):
    if op == "neg":
        return "-(%s)" % a
    if op == "!":
        return "!(%s)" % a
    return "(%s) %s (%s)" % (a, op, b)


SETS = [
    '["b", "a", "c"]', '["a", "b", "a"]', '["", "a", "A", "aa", "B", "_", "0", "~"]',
    '["é", "e", "z", "É", "日本", "😀", "a\\tb", "a\\"b", "a\\\\b"]',
    '[3, 1.5, -2, 1e30, 0.1]', '[0, -0]', '[-0, 0]', '[1, 1.0, 1.00]', '[0.1, 0.2, 0.3, 0.1 + 0.2]',
    '[10, 9, 100, 1000, -1, -10, 2.5, -2.5]', '[1/3, 2/3, 1/3 + 1/3, 0.333333333333]',
    '[12345678901234567890, 12345678901234567891, 1e20, 99999999999]',
    '[1e-5, 1e-4, 0.001, 1e21, 1e20, 1234567890.5, 12345678905]',
    '[1/0, -1/0, 0, 5]',
    '[true, false, true]', '[false]', '[true, true]',
    '[null, "a", null]', '["b", null, "a"]', '[null, null]', '[1, null, 0]', '[null, true, false]',
    '["a", 1, true]', '[1, "1"]', '[true, "true", "false"]',
    '[[1, 2], [3], [1]]', '[[], [1], [0], [0, 0], [-1]]', '[[1, 2], [1, 2], [2, 1]]',
    '[["a"], ["b", "c"], ["a", "b"], []]', '[[null], [1], []]', '[[0], [-0]]', '[[-0], [0]]',
    '[[0], [-0], [0.5], [1]]', '[[-0], [0.5], [0], [1]]',
    '[tolist([1]), tolist([2, 3]), tolist([])]', '[toset([2, 1]), toset([1]), toset([3, 1, 2])]',
    '[{a = 1}, {a = 2, b = 1}]', '[{a = 1, b = "x"}, {a = 1, b = "y"}, {a = 0, b = "z"}]',
    '[{a = 2}, {a = 1}, {a = 10}, {a = -1}, {a = null}]',
    '[tomap({a = 1}), tomap({b = 1}), tomap({a = 1, b = 2}), tomap({})]',
    '[tomap({x = "1"}), tomap({x = "2"}), tomap({y = "0"})]',
    '[[1, "a"], [2, "b"], [1, "b"], [0, "z"]]', '[[true, 1], [false, 2], [true, 0]]',
    '[{a = [1, 2]}, {a = [3]}, {a = []}]', '[{n = "b"}, {n = "a"}, {n = "c"}, {n = "a"}]',
    '[["x", "y"], ["x"], ["y", "x"], ["xy"]]', '[[[1]], [[2], [3]], [[]]]',
    '[{k = true}, {k = false}, {k = null}]',
    '[for i in range(25) : i * 7 % 25]', '[for i in range(30) : tostring(i * 11 % 30)]',
    '[for i in range(45) : [i % 9, i % 5]]', '[for i in range(41) : {v = i * 13 % 41}]',
    '[for i in range(23) : tostring(i)]', '[for i in range(50) : i / 7]',
    '[["a\\"b"], ["a b"], ["a\\\\"], ["\u00e9"], ["a"], ["a\\u00a0"], ["a\\u200b"], ["a\\tb"]]',
    '[{s = "\u00a0"}, {s = " "}, {s = "!"}, {s = "\u0007"}, {s = "\u2028"}, {s = "\U0001F600"}]',
    '[tomap({"b\\"" = 1}), tomap({"b" = 1}), tomap({"a" = 2})]',
    '[[1.5], [1.25], [15], [0.15], [150000000000], [1e-7]]',
]


def main():
    ops_lines = []
    for op, a, b in ops_cases():
        lhs = evaluate(a)
        rhs = evaluate(b) if b is not None else "-"
        ops_lines.append("\t".join([op, lhs, rhs, evaluate(expression(op, a, b))]))
    with open(os.path.join(HERE, "ops.golden"), "w") as f:
        f.write("".join(line + "\n" for line in ops_lines))

    set_lines = []
    for x in SETS:
        set_lines.append("\t".join([evaluate("tolist(%s)" % x), evaluate("toset(%s)" % x)]))
    with open(os.path.join(HERE, "sets.golden"), "w") as f:
        f.write("".join(line + "\n" for line in set_lines))
    print("ops.golden: %d cases, sets.golden: %d cases" % (len(ops_lines), len(set_lines)))


if __name__ == "__main__":
    main()
