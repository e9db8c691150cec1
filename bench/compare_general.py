#!/usr/bin/env python3
"""Evaluation speed on expressions of ordinary shapes, against both references.

    python3 bench/compare_general.py [--hclvm build/ci/hclvm] [--seed 31]
        [--per-category 30] [--runs 3] [--benchtime 200ms] [--out table.md] [--json rows.json]

The expressions come from bench/gen_expressions.py (seeded: the same seed,
the same expressions; none of them is in the shared benchmark list, which
the engine's special paths were tuned on). Each is run, in the same run and
back to back, through the reference hcl 2.14.1's `gohcl-bench eval`, the
newest reference's (hcl v2.24.0 + go-cty v1.18.1) and `hclvm bench -e`;
the results must agree with the newest reference's. Prints, per category,
the median and the minimum speedup over each reference and hclvm's median
allocations per evaluation, then the overall median and minimum. --json
FILE also writes one record per expression: category, name, expression,
ns/op of each side, the speedups over both references and hclvm's
allocations per evaluation.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
import gen_expressions  # noqa: E402


def fail(msg):
    sys.exit("compare_general.py: " + msg)


def run_json(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0 or "{" not in r.stdout:
        return None, (r.stderr or r.stdout).strip()[-300:]
    text = r.stdout
    obj, _ = json.JSONDecoder().raw_decode(text[text.index("{"):])
    return obj, ""


def record(name, expr, old, new, ours):
    """One expression's measurement from the three sides' JSON results."""
    return {"category": name.split("_")[0], "name": name, "expression": expr,
            "ns_per_op_2_14_1": old["ns_per_op"], "ns_per_op_newest": new["ns_per_op"],
            "ns_per_op_hclvm": ours["ns_per_op"],
            "speedup_vs_2_14_1": old["ns_per_op"] / ours["ns_per_op"],
            "speedup_vs_newest": new["ns_per_op"] / ours["ns_per_op"],
            "hclvm_allocs_per_op": ours.get("allocs_per_op")}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hclvm", default=str(REPO / "build" / "ci" / "hclvm"))
    ap.add_argument("--oracle", default="/opt/hcl-oracle/bin/gohcl-bench", help="hcl 2.14.1's gohcl-bench")
    ap.add_argument("--newest", default="/opt/hcl-oracle/newest/bin/gohcl-bench",
                    help="the newest reference's gohcl-bench")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--per-category", type=int, default=30)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--benchtime", default="200ms")
    ap.add_argument("--out", help="also write the markdown table to this file")
    ap.add_argument("--json", help="also write one JSON record per expression to this file")
    args = ap.parse_args()
    for tool in (args.hclvm, args.oracle, args.newest):
        if not os.access(tool, os.X_OK):
            fail("%s not found (the references: ../shared/oracle/setup.sh and setup-newest.sh)" % tool)

    exprs, vars_ = gen_expressions.generate(args.seed, args.per_category)
    tmp = tempfile.mkdtemp()
    vars_file = Path(tmp) / "vars.json"
    vars_file.write_text(json.dumps(vars_))
    ref_args = ["-vars", str(vars_file), "-runs", str(args.runs), "-benchtime", args.benchtime, "-json"]
    ours_args = ["--vars-file", str(vars_file), "--functions", "go-cty", "--runs", str(args.runs),
                 "--benchtime", args.benchtime, "--json"]

    rows, problems = [], []
    for i, (name, expr) in enumerate(exprs):
        print("[%d/%d] %s" % (i + 1, len(exprs), name), file=sys.stderr)
        old, e1 = run_json([args.oracle, "eval", "-e", expr] + ref_args)
        new, e2 = run_json([args.newest, "eval", "-e", expr] + ref_args)
        ours, e3 = run_json([args.hclvm, "bench", "-e", expr] + ours_args)
        if not (old and new and ours):
            problems.append("%s `%s`: did not run: %s" % (name, expr, e1 or e2 or e3))
            continue
        if new["result"] != ours["result"]:
            problems.append("%s `%s`: results differ from the newest reference" % (name, expr))
            continue
        rows.append(record(name, expr, old, new, ours))

    cats = []
    for cat, _ in gen_expressions.CATEGORIES:
        rs = [r for r in rows if r["category"] == cat]
        if rs:
            cats.append((cat, rs))
    lines = ["| category | expressions | median vs 2.14.1 | min vs 2.14.1 | median vs newest | min vs newest | "
             "median hclvm allocs/op |",
             "|---|---:|---:|---:|---:|---:|---:|"]

    def line(label, rs):
        old = [r["speedup_vs_2_14_1"] for r in rs]
        new = [r["speedup_vs_newest"] for r in rs]
        allocs = [r["hclvm_allocs_per_op"] for r in rs if r["hclvm_allocs_per_op"] is not None]
        return "| %s | %d | %.1fx | %.1fx | %.1fx | %.1fx | %s |" % (
            label, len(rs), statistics.median(old), min(old), statistics.median(new), min(new),
            ("%.0f" % statistics.median(allocs)) if allocs else "n/a")

    for cat, rs in cats:
        lines.append(line(cat, rs))
    if rows:
        lines.append(line("**all**", rows))
    table = "\n".join(lines)
    print("%d expressions (seed %d), %d runs of %s per side, same run" % (len(rows), args.seed, args.runs,
                                                                        args.benchtime))
    print(table)
    slowest = sorted(rows, key=lambda r: r["speedup_vs_2_14_1"])[:5]
    print("slowest vs 2.14.1: " + ", ".join("%s %.1fx" % (r["name"], r["speedup_vs_2_14_1"]) for r in slowest))
    for p in problems:
        print("PROBLEM " + p)
    if args.out:
        Path(args.out).write_text(table + "\n")
    if args.json:
        Path(args.json).write_text(json.dumps({"seed": args.seed, "runs": args.runs, "benchtime": args.benchtime,
                                               "expressions": rows, "problems": problems}, indent=1) + "\n")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
