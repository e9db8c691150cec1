#!/usr/bin/env bash
# Regenerates convert.golden, the differential data of convert_test.cpp, from
# the Go reference (the newest reference's gohcl-bench, hcl v2.24.0 + go-cty
# v1.18.1; tests/golden/oracle-env.sh says where it is looked for):
#
#   tests/golden/convert/gen.sh [GOHCL_BENCH]      (needs python3; ~1 minute)
#
# Every input expression is evaluated on its own (its cty JSON value and
# type, which the test decodes), then passed through each conversion below,
# and every pair of a smaller set of inputs through both arms of a
# conditional (unification). Results are the cty JSON of the value, or the
# error message. Record lines, tab-separated:
#
#   in    EXPR  {"value":...,"type":...}
#   op    OP    EXPR  ok   {"value":...,"type":...}
#   op    OP    EXPR  err  MESSAGE
#   cond  true|false  A  B  ok|err  JSON|DETAIL
#
# OP is one of tolist toset tomap tostring tonumber tobool (cty's MakeToFunc;
# MESSAGE is the function's own message) or string number bool list(string)
# list(any) (a function argument or operand of that type: MESSAGE is
# convert's message, and an ok result carries no value but for list(any),
# read through chunklist(X, 0)).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../oracle-env.sh"
bench="${1:-${GOHCL_BENCH:-$newest_bin/gohcl-bench}}"
[ -x "$bench" ] || { echo "gen.sh: no oracle at $bench" >&2; exit 1; }
export BENCH="$bench"
python3 - "$here/convert.golden" <<'PYEOF'
import json, os, re, subprocess, sys, tempfile

BENCH = os.environ["BENCH"]
OUT = sys.argv[1]

INPUTS = [
  # strings, numbers, bools
  '"a"', '""', '"true"', '"false"', '"TRUE"', '"False"', '"1"', '"0"', '"-1.5"', '"1e3"',
  '"0x10"', '" 1"', '"1_000"', '"-Inf"', '"NaN"', '"01"', '".5"', '"5."', '"+7"', '"1.0"',
  '"abc123"', '"é"',
  '1', '0', '-7', '1.5', '0.1', '-0', '1/3', '1e100', '123456789012345678901234567890',
  '3.14159265358979323846264338327950288419716939937510',
  'true', 'false',
  # typed nulls
  '(true ? null : "a")', '(true ? null : 1)', '(true ? null : true)', '(true ? null : [1])',
  '(true ? null : {a=1})', '(true ? null : tolist(["a"]))', '(true ? null : tomap({a=1}))',
  '(true ? null : toset([1]))',
  # tuples
  '[]', '["a"]', '["a", "b", "a"]', '[1, 2]', '[1, "a"]', '["1", 2]', '[1, true]',
  '[true, "true"]', '[[1], [2]]', '[[1], ["a"]]', '[[1], [true]]', '[[], [1]]',
  '[{a=1}, {a="x"}]', '[{a=1}, {b=1}]', '[{}, {a=1}]', '[null]', '[null, "a"]',
  '[null, 1, "b"]', '[tolist(["a"]), ["b"]]', '[1, [1]]', '[tomap({a=1}), {b="x"}]',
  '[toset([1]), [2]]', '[[1, "a"]]', '["a", null, "a"]', '[{a=[1]}, {a=["x"]}]',
  '[{a=1, b=2}, {a=1}]', '[[[1]], [["a"]]]', '[tolist([1]), tolist(["a"])]',
  # objects
  '{}', '{a=1}', '{a=1, b="x"}', '{a=true, b=1}', '{a=[1], b=["x"]}', '{a={x=1}, b={x="y"}}',
  '{a={x=1}, b={y=2}}', '{a=null}', '{a=null, b=1}', '{a=[1], b=[1, 2]}',
  '{a=tolist([1]), b=[2]}', '{b="x", a="y"}', '{a={}, b={c=1}}', '{a=[], b=[1]}',
  # lists, sets, maps
  'tolist(["a", "b"])', 'tolist([1, 2])', 'tolist([])', 'tolist([true, false])',
  'tolist([tolist([1])])', 'tolist([{a=1}])', 'tolist(["b", "a", "b"])', 'tolist([null, "a"])',
  'toset(["b", "a"])', 'toset([1, 2, 2])', 'toset([])', 'toset([true])', 'toset([[1], [2]])',
  'tomap({a=1})', 'tomap({a="x", b="y"})', 'tomap({})', 'tomap({a=[1]})',
  'tomap({a=tolist(["x"])})', 'tomap({a=true, b=false})',
]

TO_FUNCS = ["tolist", "toset", "tomap", "tostring", "tonumber", "tobool"]
# A function argument or an operand of a given type: the conversion is
# cty's Convert and its message is printed as it is.
PARAM_OPS = {
  "string": 'upper({})',
  "number": 'abs({})',
  "bool": '!({})',
  "list(string)": 'compact({})',
  "list(any)": 'chunklist({}, 0)',
}

COND_INPUTS = [
  '"a"', '1', 'true', '(true ? null : "a")', 'null', '[]', '["a"]', '[1]', '[1, "a"]',
  '["a", "b"]', '[[1]]', '{}', '{a=1}', '{a="x"}', '{a=1, b=2}', '{b=1}', 'tolist(["a"])',
  'tolist([1])', 'toset(["a"])', 'tomap({a=1})', 'tomap({a="x"})', '{a=[1]}',
  '{a=tolist(["x"])}', '[{a=1}]', 'tolist([{a="x"}])',
]

class Num(str):
  """A JSON number kept as its text."""

def loads(s):
  return json.loads(s, parse_float=Num, parse_int=Num)

def dumps(v):
  if isinstance(v, Num):
    return str(v)
  if v is None:
    return "null"
  if v is True:
    return "true"
  if v is False:
    return "false"
  if isinstance(v, str):
    return json.dumps(v, ensure_ascii=False)
  if isinstance(v, list):
    return "[" + ",".join(dumps(x) for x in v) + "]"
  return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + dumps(x) for k, x in v.items()) + "}"

def dump_all(exprs):
  """Evaluates every expression in one oracle run: value JSON or None (error)."""
  with tempfile.NamedTemporaryFile("w", suffix=".hcl", delete=False) as f:
    for i, e in enumerate(exprs):
      f.write("c%05d = %s\n" % (i, e))
    name = f.name
  try:
    out = subprocess.run([BENCH, "dump", name], capture_output=True, text=True, check=True).stdout
  finally:
    os.unlink(name)
  doc = loads(out)
  if doc["diagnostics"]:
    raise SystemExit("gen.sh: diagnostics in batch: %r" % doc["diagnostics"])
  res = {}
  for a in doc["body"]["attributes"]:
    i = int(a["name"][1:])
    if "error" in a:
      res[i] = None
    elif "repr" in a:
      res[i] = {"repr": a["repr"], "type": a["type"]}
    else:
      res[i] = {"value": a["value"], "type": a["type"]}
  return [res[i] for i in range(len(exprs))]

def error_detail(expr):
  """The summary and detail of the first error evaluating [expr]."""
  p = subprocess.run([BENCH, "eval", "-e", expr, "-n", "1"], capture_output=True, text=True)
  lines = (p.stdout + p.stderr).split("\n")
  for k, l in enumerate(lines):
    if l.startswith("Error: "):
      summary = l[len("Error: "):]
      j = k + 1
      while j < len(lines) and not re.match(r"^ +1: ", lines[j]):
        j += 1
      j += 2  # the snippet line and the blank line after it
      detail = []
      while j < len(lines) and lines[j] != "":
        detail.append(lines[j])
        j += 1
      return summary, " ".join(detail)
  raise SystemExit("gen.sh: no error for %s:\n%s" % (expr, p.stdout + p.stderr))

def strip_wrapper(detail):
  """The conversion message inside an argument or operand diagnostic."""
  for pat in (r'^Invalid value for "[^"]*" parameter: (.*)\.$',
              r'^Unsuitable value for (?:unary|left|right) operand: (.*)\.$'):
    m = re.match(pat, detail)
    if m:
      return m.group(1)
  raise SystemExit("gen.sh: unexpected detail: %s" % detail)

# --- generation --------------------------------------------------------------------
records = []
inputs = dump_all(INPUTS)
for e, v in zip(INPUTS, inputs):
  if v is None or "value" not in v:
    raise SystemExit("gen.sh: input %s does not evaluate to a value" % e)
  records.append(["in", e, dumps(v)])
extra = [e for e in COND_INPUTS if e not in INPUTS]
for e, v in zip(extra, dump_all(extra)):
  records.append(["in", e, dumps(v)])

exprs, keys = [], []
for e in INPUTS:
  for f in TO_FUNCS:
    exprs.append("%s(%s)" % (f, e))
    keys.append((f, e))
  if inputs[INPUTS.index(e)]["value"] is None:
    continue  # a null argument fails in the function, after converting
  for op, pat in PARAM_OPS.items():
    exprs.append(pat.format(e))
    keys.append((op, e))
results = dump_all(exprs)
for (op, e), expr, r in zip(keys, exprs, results):
  if r is not None:
    if op in TO_FUNCS or op == "list(any)":
      if op == "list(any)":
        # chunklist(X, 0) is [X] converted, or [] when X is empty.
        vals = r["value"]
        r = {"value": vals[0] if vals else [], "type": r["type"][1]}
      records.append(["op", op, e, "ok", dumps(r)])
    else:
      records.append(["op", op, e, "ok", ""])
    continue
  summary, detail = error_detail(expr)
  msg = strip_wrapper(detail)
  records.append(["op", op, e, "err", msg])

exprs, keys = [], []
for a in COND_INPUTS:
  for b in COND_INPUTS:
    for c in ("true", "false"):
      exprs.append("%s ? %s : %s" % (c, a, b))
      keys.append((c, a, b))
results = dump_all(exprs)
for (c, a, b), expr, r in zip(keys, exprs, results):
  if r is not None:
    records.append(["cond", c, a, b, "ok", dumps(r)])
  else:
    records.append(["cond", c, a, b, "err", error_detail(expr)[1]])

with open(OUT, "w") as f:
  f.write("# Generated by gen.sh from the Go reference; do not edit.\n")
  for r in records:
    for field in r:
      assert "\t" not in field and "\n" not in field, r
    f.write("\t".join(r) + "\n")
print("gen.sh: %d records in %s" % (len(records), OUT))
PYEOF
