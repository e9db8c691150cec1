#!/usr/bin/env python3
"""Whole-file evaluation of the real corpus: hclvm against `gohcl-bench evalfile`.

    python3 bench/compare_corpus_eval.py [--hclvm build/ci/hclvm] [--sample 400] [--seed 31]
        [--runs 1] [--benchtime 20ms] [--out table.md] [--json files.json]

Every attribute of each file is evaluated (`hclvm bench FILE` and the
reference's `gohcl-bench evalfile FILE`, both with go-cty's functions),
file after file, the two sides back to back so both see the same load.
The variables the files read are generated: every traversal of every
file (found with `hclvm ast --format json`) becomes a path in one
variables file, its leaf the string "v" — so attributes that read
variables evaluate rather than fail, and those that use them as numbers,
lists or with functions neither side has fail alike. Both sides must
count the same attributes and the same failing ones. The files are the
native files the newest reference accepts (RESULTS-newest.tsv), all of
them or a seeded sample (--sample N; 0: all); files without attributes
are left out. Prints the ratio of the
total times, the median and minimum per-file ratios, by both references,
for all files and apart for those with and without failing attributes
(the error path costs both sides most).
--json FILE also writes one record per measured file: path, size in
bytes, attributes (failing), ns/op of each side and the speedups.
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
from compare import accepted_native_files, default_shared_dir  # noqa: E402


def fail(msg):
    sys.exit("compare_corpus_eval.py: " + msg)


def traversals(node, out):
    """Collects the steps of every ScopeTraversal under the JSON tree [node]."""
    if isinstance(node, dict):
        if node.get("kind") == "ScopeTraversal":
            steps = []
            for s in node.get("traversal", []):
                if s["kind"] in ("Root", "Attr"):
                    steps.append(s["name"])
                elif s["kind"] == "Index" and s.get("type") == "string":
                    steps.append(s["value"])
                else:
                    break
            out.append(steps)
        for v in node.values():
            traversals(v, out)
    elif isinstance(node, list):
        for v in node:
            traversals(v, out)


def add_path(vars_, steps):
    """Adds the path [steps] to the variables [vars_], "v" at its end."""
    d = vars_
    for i, s in enumerate(steps):
        last = i == len(steps) - 1
        if s not in d:
            d[s] = "v" if last else {}
        if not isinstance(d[s], dict):
            return  # a shorter path made it a leaf: keep it
        d = d[s]


def count_attributes(node):
    """The number of Attribute nodes under the JSON tree [node]."""
    if isinstance(node, dict):
        return (node.get("kind") == "Attribute") + sum(count_attributes(v) for v in node.values())
    if isinstance(node, list):
        return sum(count_attributes(v) for v in node)
    return 0


def run_json(cmd, timeout=None):
    """[cmd]'s standard output parsed as JSON; None when it printed none or
    ran longer than [timeout] seconds."""
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if "{" not in r.stdout:
        return None
    text = r.stdout
    obj, _ = json.JSONDecoder().raw_decode(text[text.index("{"):])
    return obj


def summary_lines(label, rows):
    """Table lines for the files [rows]: attributes, total times, the ratio
    of the totals, the median and minimum per-file ratios, by reference."""
    tot = [sum(r[i] for r in rows) for i in range(3)]
    per_old = [r[0] / r[2] for r in rows]
    per_new = [r[1] / r[2] for r in rows]
    return [
        "| %s | %d (%d) | hcl 2.14.1 | %.1f ms | %.1fx | %.1fx | %.1fx |" % (
            label, sum(r[3] for r in rows), sum(r[4] for r in rows), tot[0] / 1e6, tot[0] / tot[2],
            statistics.median(per_old), min(per_old)),
        "| | | newest | %.1f ms | %.1fx | %.1fx | %.1fx |" % (
            tot[1] / 1e6, tot[1] / tot[2], statistics.median(per_new), min(per_new)),
        "| | | hclvm | %.1f ms | | | |" % (tot[2] / 1e6),
    ]


def write_json(args, rows, problems):
    """Writes one record per measured file of [rows] to args.json."""
    files = [{"path": r[5], "bytes": r[6], "attributes": r[3], "error_attributes": r[4],
              "ns_per_op_2_14_1": r[0], "ns_per_op_newest": r[1], "ns_per_op_hclvm": r[2],
              "speedup_vs_2_14_1": r[0] / r[2], "speedup_vs_newest": r[1] / r[2]} for r in rows]
    Path(args.json).write_text(json.dumps({"sample": args.sample, "seed": args.seed, "runs": args.runs,
                                           "benchtime": args.benchtime, "files": files,
                                           "problems": problems}, indent=1) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hclvm", default=str(REPO / "build" / "ci" / "hclvm"))
    ap.add_argument("--oracle", default="/opt/hcl-oracle/bin/gohcl-bench")
    ap.add_argument("--newest", default="/opt/hcl-oracle/newest/bin/gohcl-bench")
    ap.add_argument("--sample", type=int, default=400, help="files to measure (0: all)")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--benchtime", default="20ms")
    ap.add_argument("--timeout", type=int, default=120, help="seconds one measuring process may take")
    ap.add_argument("--out", help="also write the markdown table to this file")
    ap.add_argument("--json", help="also write one JSON record per file to this file")
    args = ap.parse_args()
    shared = default_shared_dir()
    if not (shared / "corpus" / "RESULTS-newest.tsv").is_file():
        fail("no corpus at %s (set HCLVM_SHARED_DIR)" % shared)
    for tool in (args.hclvm, args.oracle, args.newest):
        if not os.access(tool, os.X_OK):
            fail("%s not found" % tool)

    files = accepted_native_files(shared)
    if args.sample and args.sample < len(files):
        files = sorted(random.Random(args.seed).sample(files, args.sample))
    print("collecting the variables of %d files ..." % len(files), file=sys.stderr)
    vars_ = {}
    # A file without attributes has nothing to time: left out.
    with_attrs = []
    for f in files:
        tree = run_json([args.hclvm, "ast", "--format", "json", str(f)])
        if count_attributes(tree):
            with_attrs.append(f)
        steps = []
        traversals(tree, steps)
        for s in steps:
            add_path(vars_, s)
    tmp = tempfile.mkdtemp()
    vars_file = Path(tmp) / "vars.json"
    vars_file.write_text(json.dumps(vars_))
    if len(with_attrs) < len(files):
        print("%d of the %d files have no attributes: left out" % (len(files) - len(with_attrs), len(files)))
    files = with_attrs

    ref_args = ["-vars", str(vars_file), "-runs", str(args.runs), "-benchtime", args.benchtime, "-json"]
    ours_args = ["--vars-file", str(vars_file), "--functions", "go-cty", "--runs", str(args.runs),
                 "--benchtime", args.benchtime, "--json"]
    rows, problems = [], []
    for i, f in enumerate(files):
        if i % 50 == 0:
            print("[%d/%d]" % (i, len(files)), file=sys.stderr)
        old = run_json([args.oracle, "evalfile", str(f)] + ref_args, args.timeout)
        new = run_json([args.newest, "evalfile", str(f)] + ref_args, args.timeout)
        ours = run_json([args.hclvm, "bench", str(f)] + ours_args, args.timeout)
        if not (old and new and ours):
            problems.append("%s: did not run (or ran over %d s)" % (f, args.timeout))
            continue
        if (new["attributes"], new["error_attributes"]) != (ours["attributes"], ours["error_attributes"]):
            problems.append("%s: newest reference %d attributes (%d failing), hclvm %d (%d)" % (
                f.relative_to(shared), new["attributes"], new["error_attributes"], ours["attributes"],
                ours["error_attributes"]))
            continue
        if ours["attributes"] == 0:
            continue
        rows.append((old["ns_per_op"], new["ns_per_op"], ours["ns_per_op"], ours["attributes"],
                     ours["error_attributes"], str(f.relative_to(shared)), f.stat().st_size))

    if not rows:
        fail("nothing measured: " + "; ".join(problems[:5]))
    lines = [
        "| files | attributes (failing) | reference | total time | ratio of totals | median per file | min per file |",
        "|---|---:|---|---:|---:|---:|---:|",
    ]
    clean = [r for r in rows if r[4] == 0]
    for label, rs in (("all %d" % len(rows), rows), ("%d without failing attributes" % len(clean), clean),
                      ("%d with failing attributes" % (len(rows) - len(clean)), [r for r in rows if r[4]])):
        if rs:
            lines += summary_lines(label, rs)
    table = "\n".join(lines)
    print(table)
    slowest = sorted(rows, key=lambda r: r[0] / r[2])[:5]
    print("slowest files vs 2.14.1: " + ", ".join("%s %.1fx (%.0f us)" % (r[5], r[0] / r[2], r[2] / 1e3)
                                                  for r in slowest))
    for p in problems[:20]:
        print("PROBLEM " + p)
    if len(problems) > 20:
        print("PROBLEM ... and %d more" % (len(problems) - 20))
    if args.out:
        Path(args.out).write_text(table + "\n")
    if args.json:
        write_json(args, rows, problems)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
