#!/usr/bin/env python3
"""Writes cases.tsv: number operations and the reference's answers.

Each case is an HCL expression built from operand "recipes", a small, fully
parenthesised subset of HCL that tests/unit/number_test.cpp evaluates
through the Number API: decimal literals, (-X), (X op Y),
parseint("N",10), pow(X,Y) (only x^1, 2^k and 2^0.5, which C's pow and
Go's math.Pow give alike), tonumber("S"), min(X) and max(X). All the
expressions go into one HCL file, evaluated by one run of the oracle's
`gohcl-bench dump`; cases that fail are run again with `gohcl-bench eval`
to get the error's detail. The operands' precisions are stated by hand
from cty's rules (the oracle does not show them); the test checks them.

Columns of cases.tsv (tab-separated, '#' lines are comments):
  op        text add sub mul quo mod neg abs floor ceil eq ne lt le gt ge parse
  a, b      operand recipes ('-' when unused); for parse, a is the string
  a_text    the operand's text and precision as TEXT@PREC ('?' when the
  b_text    precision is not stated); '-' when unused
  expected  the result's text, true/false, or "error: MESSAGE"

Usage: gen.py [GOHCL_BENCH]   (default: the newest reference's,
$HCL_ORACLE_NEWEST_BIN/gohcl-bench or /opt/hcl-oracle/newest/bin/gohcl-bench)
GEN_SEED=N GEN_SCALE=K gen.py writes a larger random sample instead (for
one-off runs; the committed file uses the defaults).
"""

import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.environ.get("HCL_ORACLE_NEWEST_BIN", "/opt/hcl-oracle/newest/bin"), "gohcl-bench")


def pint(n):
    """parseint of n: precision max(bit length, 64)."""
    return ('parseint("%d",10)' % n, max(abs(n).bit_length(), 64))


def lit(s):
    """A decimal literal (negative ones are negations): 512 bits."""
    if s.startswith("-"):
        return ("(-%s)" % s[1:], 512)
    return (s, 512)


def f64(s):
    """A float64 made by pow(x,1): 53 bits."""
    return ("pow(%s,1)" % lit(s)[0], 53)


# Operands of the cross products: (recipe, precision or None when not stated).
CORE = [
    lit("0"), lit("-0"), lit("1"), lit("-7"), lit("0.1"), lit("5.1"), lit("-2.5"), lit("1e-10"),
    lit("9223372036854775808"), pint(3), pint(-7), pint(9223372036854775807), pint(281474976710655),
    pint(123456789012345678901234567890), f64("0.1"), ("pow(2,0.5)", 53), f64("1152921504606846976"),
    ('(parseint("2",10)/parseint("3",10))', 64), ("(2/3)", 512),
    ("(1/0)", 512), ("((-1)/0)", 512), ("min((1/0))", 0), ("max(((-1)/0))", 0),
    ('(pow(0.1,1)*pow(3,1))', 54),
]

# Operands with long texts, combined with a few of the others only.
WIDE = [
    lit("3"), lit("0.5"), lit("1e10"), lit("1e400"), lit("1e-400"), lit("123456789012345678901234567890"),
    lit("9223372036854775807"), pint(2), pint(0), pint(18446744073709551615), f64("3"), f64("1e300"),
    f64("-2.5"), ("(1/3)", 512), ('tonumber("-inf")', 512),
    ('(parseint("281474976710655",10)*parseint("281474976710655",10))', 96),
    ('(pow(0.1,1)*3)', 512), ("(11%5.1)", 512),
]
PARTNERS = [lit("1"), lit("-7"), lit("0.1"), pint(3), f64("0.1"), ("(1/0)", 512), lit("1e-400")]

# Smaller pool for the comparisons.
CMP = [
    lit("0"), lit("-0"), lit("0.1"), lit("0.5"), lit("-7"), lit("1e400"),
    pint(-7), f64("0.1"), ('(parseint("2",10)/parseint("3",10))', 64),
    ("(2/3)", 512), ("(1/0)", 512), ("min((1/0))", 0),
    ('(parseint("1",10)/parseint("2",10))', 64), ("(0.1*3)", 512), ("0.3", 512),
    f64("1152921504606846976"), lit("1152921504606847000"), pint(1152921504606846976),
]

# Literals whose text is checked.
LITERALS = [
    "0", "1", "-0", "0.1", "0.2", "0.3", "0.5", "1.5", "10", "100", "1000", "1e3", "1e10", "1e20", "1e21",
    "1e100", "1e400", "1e1000", "1e-1", "1e-10", "1e-100", "1e-400", "1e-1000", "2.5e-5", "0.000001",
    "1.7976931348623157e308", "5e-324", "2.2250738585072014e-308", "0.30000000000000004",
    "9007199254740993", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "-9223372036854775809", "18446744073709551615", "18446744073709551616",
    "123456789012345678901234567890123456789012345678901234567890",
    "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534211706798",
    "2.718281828459045235360287471352662497757247093699959574966967627724076630353547594571382178525166427427",
    "0.1234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789",
    "1.00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001",
    "1.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001",
    "123.456e-300", "999999999999999999999999999999999999999e-20", "0.000000000000000000000000000000000000000000001e45",
    "00012", "1e+2", "1E2", "1e-0", "1e0",
]

# Strings for tonumber (big.ParseFloat's syntax, at 512 bits).
PARSE = [
    "1", "-1", "+5", ".5", "5.", "-0", "-0.0e5", "00012", "1e+2", "1E2", "1e-0", "1.e5",
    "1p10", "1.5p1", "1P-2", "3p-1", "0.1p3", "1e", "1e+", "e5", ".e5", ".", "", "-", "+",
    "inf", "Inf", "+inf", "-inf", "+Inf", "-Inf", "INF", "infinity", "nan", "NaN",
    "1.2.3", " 1", "1 ", "0x10", "0x1p4", "1_0", "0b10", "1a", "١",
    "1e99999999999999999999", "0e99999999999999999999", "0e9999999999999", "1e9223372036854775807",
    "1e-9223372036854775808", "1e9223372036854775808", "0e-9223372036854775808",
    "1e3000000000", "1e-3000000000", "1p2147483647", "1p-2147483650",
    "1e700000000", "-1e700000000", "1e-700000000", "-1e-700000000", "1e1100000000", "1e-1100000000",
    "123456789012345678901234567890e-50", "1e-50",
]

# Extra binary cases beyond the cross products: (op, a, b).
EXTRA = [
    ("mod", lit("11"), lit("5.1")), ("mod", lit("-7"), lit("3")), ("mod", lit("7"), lit("-3")),
    ("mod", lit("-0"), lit("5")), ("mod", lit("0"), lit("-5")), ("mod", lit("5"), lit("-0")),
    ("mod", lit("1e30"), lit("7")), ("mod", lit("1e100"), lit("3")), ("mod", lit("2.5"), lit("0.1")),
    ("mod", f64("2.5"), f64("0.1")), ("mod", lit("-6"), lit("3")), ("mod", pint(-6), pint(3)),
    ("mod", pint(9223372036854775807), pint(-2)), ("mod", f64("1e20"), f64("3")),
    ("mod", f64("7"), f64("2")), ("mod", pint(123456789012345678901234567890), pint(97)),
    ("mul", lit("0"), lit("-5")), ("mul", lit("-0"), lit("-5")), ("quo", lit("0"), lit("-5")),
    ("quo", lit("17"), lit("3")), ("quo", lit("2e10"), lit("3")), ("add", lit("0.1"), lit("0.2")),
    ("quo", pint(2), pint(3)), ("quo", pint(1), pint(3)), ("quo", pint(10), pint(4)),
    ("mul", pint(4294967295), pint(4294967297)), ("mul", pint(9223372036854775807), pint(9223372036854775807)),
    ("mul", f64("0.1"), f64("0.1")), ("mul", f64("0.1"), lit("3")), ("add", f64("0.1"), f64("0.2")),
    ("sub", lit("1e400"), lit("1e400")), ("sub", lit("0"), lit("0")), ("sub", lit("-0"), lit("0")),
    ("add", lit("-0"), lit("-0")), ("sub", lit("-0"), lit("-0")), ("add", lit("1e-400"), lit("-1e-400")),
    ("mul", lit("1e-400"), lit("1e-400")), ("quo", lit("1"), lit("1e400")),
    ("quo", pint(9223372036854775807), pint(-1)), ("quo", ("(-9223372036854775808)", 512), pint(-1)),
    ("add", pint(9223372036854775807), pint(1)), ("sub", ("(-9223372036854775808)", 512), pint(1)),
    ("mul", pint(-9223372036854775807), pint(2)), ("add", f64("1152921504606846976"), pint(1)),
    ("add", f64("9007199254740992"), f64("1")), ("sub", f64("9007199254740992"), f64("1")),
    ("mul", f64("3"), f64("0.5")), ("quo", f64("1"), f64("3")), ("quo", f64("1"), pint(3)),
    ("quo", ('(pow(0.1,1)*pow(3,1))', 54), lit("3")),
    # Precisions above 512 (parseint of long integers): cty's Multiply still
    # rounds the product to 512 bits first.
    ("mul", pint(3 ** 400), pint(3 ** 400)), ("mul", pint(3 ** 400), pint(7)), ("quo", pint(3 ** 400), pint(7)),
    ("add", pint(2 ** 600 + 1), lit("0.5")), ("mod", pint(3 ** 400), pint(1000)), ("sub", pint(2 ** 600 + 1), pint(2 ** 600)),
    ("mul", pint(2 ** 600 + 1), lit("0.5")), ("quo", lit("1"), pint(2 ** 600 + 1)),
    ("mul", ('(parseint("%d",10)*parseint("%d",10))' % (3 ** 400, 3 ** 400), 634), lit("3")),
]

# Powers of two at 53 bits (pow(2,K) is exact): big.Float's shortest text
# uses a symmetric interval even at powers of two.
POW2 = [-1074, -1073, -1060, -1023, -1022, -1021, -200, -54, -53, -52, -1, 0, 1, 10, 52, 53, 54, 59,
        60, 61, 62, 63, 64, 65, 70, 100, 200, 500, 1000, 1023]


def cases():
    out = []
    for s in LITERALS:
        out.append(("text", lit(s), None))
    for r in CORE + WIDE + CMP:
        out.append(("text", r, None))
    for a in CORE:
        out.append(("neg", a, None))
        out.append(("abs", a, None))
        out.append(("floor", a, None))
        out.append(("ceil", a, None))
    for a in WIDE:
        out.append(("neg", a, None))
        out.append(("floor", a, None))
    for op in ("add", "sub", "mul", "quo", "mod"):
        for a in CORE:
            for b in CORE:
                out.append((op, a, b))
        for a in WIDE:
            for b in PARTNERS:
                out.append((op, a, b))
                out.append((op, b, a))
    for op in ("eq", "ne", "lt", "le", "gt", "ge"):
        for a in CMP:
            for b in CMP:
                out.append((op, a, b))
    out.extend(EXTRA)
    # Random literals and operations, seeded. GEN_SEED and GEN_SCALE give
    # other and larger samples for one-off runs (the committed file uses
    # the defaults).
    rng = random.Random(int(os.environ.get("GEN_SEED", "20240611")))
    scale = int(os.environ.get("GEN_SCALE", "1"))
    def rand_lit():
        width = rng.choice([18, 40, 40, 200]) if scale > 1 else 40
        digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(1, width))).lstrip("0") or "0"
        k = rng.randint(0, len(digits))
        s = digits[:k] + ("." + digits[k:] if k < len(digits) else "")
        if s.startswith("."):
            s = "0" + s
        if rng.random() < 0.5:
            s += "e%d" % rng.randint(-350 * scale, 350 * scale)
        return lit(("-" if rng.random() < 0.3 else "") + s)
    def rand_op():
        kind = rng.random()
        if kind < 0.5:
            return rand_lit()
        if kind < 0.75:
            return pint(rng.randint(-(1 << rng.randint(1, 80)), 1 << rng.randint(1, 80)))
        if kind < 0.85 or scale == 1:
            return f64(repr(rng.uniform(-1e6, 1e6) * 10 ** rng.randint(-30, 30)))
        return f64(repr(rng.uniform(-1, 1) * 2.0 ** rng.randint(-1074, 1000)))
    for _ in range(60 * scale):
        out.append(("text", rand_lit(), None))
    for _ in range(300 * scale):
        out.append((rng.choice(["add", "sub", "mul", "quo", "mod"]), rand_op(), rand_op()))
    for _ in range(60 * scale):
        out.append((rng.choice(["eq", "lt", "le", "gt", "ge"]), rand_op(), rand_op()))
    for k in POW2:
        p = ("pow(2,%d)" % k if k >= 0 else "pow(2,(-%d))" % -k, 53)
        out.append(("text", p, None))
        out.append(("mul", p, pint(3)))
        out.append(("quo", p, f64("3")))
        out.append(("add", p, pint(1)))
    # Quotients at the odd precisions cty's Multiply gives integers.
    for _ in range(100 * scale):
        x, y = rng.randint(1, 1 << rng.randint(33, 80)), rng.randint(1, 1 << rng.randint(33, 80))
        prod = ("(%s*%s)" % (pint(x)[0], pint(y)[0]), max(64, (x * y).bit_length() - ((x * y) & -(x * y)).bit_length() + 1))
        out.append((rng.choice(["quo", "mod", "add"]), prod, rng.choice([pint(3), lit("7"), f64("0.1"), pint(-1000003)])))
    for _ in range(60 * scale):
        out.append(("text", rand_op(), None))
    for s in PARSE:
        out.append(("parse", (s, None), None))
    return out


BINOP = {"add": "+", "sub": "-", "mul": "*", "quo": "/", "mod": "%",
         "eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


def hcl_string(s):
    return json.dumps(s, ensure_ascii=False)


def expression(op, a, b):
    if op == "text":
        return a[0]
    if op == "parse":
        return "tonumber(%s)" % hcl_string(a[0])
    if op == "neg":
        return "-(%s)" % a[0]
    if op in ("abs", "floor", "ceil"):
        return "%s(%s)" % (op, a[0])
    return "(%s) %s (%s)" % (a[0], BINOP[op], b[0])


def run_dump(exprs):
    with tempfile.NamedTemporaryFile("w", suffix=".hcl", delete=False) as f:
        for i, e in enumerate(exprs):
            f.write("c%d = %s\n" % (i, e))
        path = f.name
    try:
        out = subprocess.run([BENCH, "dump", path], check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(path)
    doc = json.loads(out, parse_float=str, parse_int=str)
    if doc["diagnostics"]:
        sys.exit("oracle reported diagnostics: %r" % doc["diagnostics"][:3])
    attrs = {a["name"]: a for a in doc["body"]["attributes"]}
    return [attrs["c%d" % i] for i in range(len(exprs))]


def error_detail(expr):
    """Returns the detail of the error the oracle reports for expr."""
    p = subprocess.run([BENCH, "eval", "-e", expr, "-n", "1"], capture_output=True, text=True)
    text = p.stdout + p.stderr
    if "Invalid function argument" in text:
        return "parse"
    marker = "Error during operation: "
    i = text.find(marker)
    if i < 0:
        sys.exit("unexpected oracle error for %s:\n%s" % (expr, text))
    # The detail is word-wrapped; a panic's message is followed by its stack.
    detail = text[i + len(marker):].split("\n\n")[0].split("\ngoroutine ")[0].replace("\n", " ")
    return detail[:-1] if detail.endswith(".") else detail


def answer(attr, expr):
    if "error" in attr:
        return "error: " + error_detail(expr)
    if "repr" in attr:
        r = attr["repr"]
        if r == "cty.NumberFloatVal(+Inf)":
            return "+Inf"
        if r == "cty.NumberFloatVal(-Inf)":
            return "-Inf"
        sys.exit("unexpected repr %s for %s" % (r, expr))
    v = attr["value"]
    if attr["type"] == "bool":
        return "true" if v is True else "false"
    return v


def main():
    rows = cases()
    operands = []
    seen = set()
    for op, a, b in rows:
        if op == "parse":
            continue
        for r in (a, b):
            if r is not None and r[0] not in seen:
                seen.add(r[0])
                operands.append(r[0])
    exprs = operands + [expression(op, a, b) for op, a, b in rows]
    results = run_dump(exprs)
    texts = {}
    for r, attr in zip(operands, results):
        texts[r] = answer(attr, r)
        if texts[r].startswith("error"):
            sys.exit("operand %s fails: %s" % (r, texts[r]))
    lines = [
        "# Generated by gen.py from the newest reference (gohcl-bench: hcl v2.24.0, go-cty v1.18.1); do not edit.",
        "# op\ta\tb\ta_text@prec\tb_text@prec\texpected",
    ]
    for (op, a, b), attr in zip(rows, results[len(operands):]):
        expr = expression(op, a, b)
        exp = answer(attr, expr)
        def desc(r):
            if r is None or op == "parse":
                return "-"
            return "%s@%s" % (texts[r[0]], "?" if r[1] is None else r[1])
        for field in (a[0], exp):
            if "\t" in field or "\n" in field:
                sys.exit("unsupported character in %r" % field)
        lines.append("\t".join([op, a[0], b[0] if b else "-", desc(a), desc(b), exp]))
    with open(os.path.join(HERE, "cases.tsv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote %d cases" % (len(lines) - 2))


if __name__ == "__main__":
    main()
