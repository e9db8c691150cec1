#!/usr/bin/env python3
"""Compare hclvm's evaluation speed with the Go reference's, in one run.

For each expression of the shared bench/expressions.txt (with vars.json)
this runs the reference (`gohcl-bench eval -e EXPR -runs R -json`) and
then `hclvm bench -e EXPR --runs R --json` back to back, so both see the
same machine load, checks that both give the same result, and prints ns/op
for both, the speedup and hclvm's allocations per evaluation. Then it does
the same for whole files (`gohcl-bench evalfile` / `hclvm bench FILE`) on
the generated corpora (generated first if missing). Prints a markdown table
(and writes it to --out if given) followed by a summary against the
targets: median speedup >= 30x, none below 5x, scalar results allocate
nothing, whole files >= 20x. Last, jsonencode and jsondecode on a generated
1 MB document (target: 20x the reference).

Needs the shared directory ($HCLVM_SHARED_DIR, or `shared` beside the
repository) and the reference's gohcl-bench; without them it says so and
exits with status 2.

    python3 bench/compare_eval.py [--build-dir build/release] [--runs 5] [--filter REGEX]
"""

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
from pathlib import Path

from compare import REPO, default_shared_dir, fail, run_json

CORPORA = ["corpus_100k.tf", "corpus_1m.tf", "corpus_10m.tf", "corpus_100k.tf.json", "corpus_1m.tf.json"]


def read_expressions(path):
    """The (name, expression) pairs of expressions.txt at [path]."""
    out = []
    for line in Path(path).read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, expr = line.split(None, 1)
        out.append((name, expr.strip()))
    return out


def is_scalar(result):
    """Whether a {"value","type"} result is a string, number or bool."""
    return result.get("type") in ("string", "number", "bool")


def fmt_ns(ns):
    """[ns] nanoseconds, readable."""
    if ns >= 1e6:
        return "%.2f ms" % (ns / 1e6)
    if ns >= 1e4:
        return "{:,.0f}".format(ns)
    return "%.0f" % ns if ns >= 100 else "%.1f" % ns


# Expressions over the generated 1 MB document (variables `doc` and `text`).
DOC_EXPRESSIONS = [("jsonencode_1mb", "jsonencode(doc)"), ("jsondecode_1mb", "jsondecode(text)")]


def make_doc(target_bytes=1_000_000):
    """A deterministic JSON document of about [target_bytes]: records with
    strings (some non-ASCII and escaped), integers, fractions, booleans,
    nulls, lists and nested objects."""
    rnd = random.Random(20261122)
    words = ["alpha", "beta", "gamma", "delta", "caf\u00e9", "na\u00efve", "tab\there",
             "quote\"d", "<html>&", "\u65e5\u672c"]
    records, size, i = [], 2, 0
    while size < target_bytes:
        rec = {
            "id": i,
            "name": "%s-%d" % (rnd.choice(words), rnd.randrange(10 ** 6)),
            "score": rnd.randrange(10 ** 6) / 64,
            "active": rnd.random() < 0.5,
            "owner": None if i % 7 == 0 else rnd.choice(words),
            "tags": [rnd.choice(words) for _ in range(rnd.randrange(1, 6))],
            "limits": {"cpu": rnd.randrange(1, 64), "memory": "%dMi" % rnd.randrange(64, 8192),
                       "ratio": round(rnd.random(), 6)},
        }
        records.append(rec)
        size += len(json.dumps(rec)) + 1
        i += 1
    return {"records": records, "count": len(records)}


def write_doc_vars(directory):
    """Writes doc_vars.json (the document as `doc` and as JSON text `text`) into [directory]."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "doc_vars.json"
    if not path.is_file():
        doc = make_doc()
        path.write_text(json.dumps({"doc": doc, "text": json.dumps(doc)}))
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", default=str(REPO / "build" / "release"),
                    help="CMake build directory holding the hclvm program")
    ap.add_argument("--corpus-dir", default=str(REPO / "build" / "bench-corpus"),
                    help="where the generated corpora are (generated there if missing)")
    ap.add_argument("--shared-dir", default=str(default_shared_dir()),
                    help="the shared directory (expressions, variables, corpus generator)")
    ap.add_argument("--oracle", default=os.path.join(os.environ.get("HCL_ORACLE_BIN", "/opt/hcl-oracle/bin"),
                                                     "gohcl-bench"),
                    help="the reference's gohcl-bench binary")
    ap.add_argument("--runs", type=int, default=5, help="timed runs per side (median reported)")
    ap.add_argument("--benchtime", default="1s", help="duration of one timed run, per side")
    ap.add_argument("--filter", default="", help="only expressions/corpora whose name matches this regex")
    ap.add_argument("--no-files", action="store_true", help="skip the whole-file rows")
    ap.add_argument("--out", help="also write the markdown table to this file")
    args = ap.parse_args()

    shared = Path(args.shared_dir)
    exprs_file, vars_file = shared / "bench" / "expressions.txt", shared / "bench" / "vars.json"
    gen = shared / "bench" / "gen_corpus.py"
    if not exprs_file.is_file():
        fail("shared directory not found (looked for %s); set HCLVM_SHARED_DIR or pass --shared-dir. "
             "A plain clone has no such directory." % exprs_file)
    if not os.access(args.oracle, os.X_OK):
        fail("reference gohcl-bench not found at %s (see the oracle README in the shared directory)" % args.oracle)
    hclvm = Path(args.build_dir) / "hclvm"
    if not hclvm.is_file():
        fail("%s not built: cmake --build %s --target hclvm" % (hclvm, args.build_dir))
    pick = re.compile(args.filter)
    common_ref = ["-runs", str(args.runs), "-benchtime", args.benchtime, "-json"]
    common_ours = ["--runs", str(args.runs), "--benchtime", args.benchtime, "--json"]

    rows, speedups, problems = [], [], []
    for name, expr in read_expressions(exprs_file):
        if not pick.search(name):
            continue
        print("measuring %s ..." % name, file=sys.stderr)
        ref = run_json([args.oracle, "eval", "-e", expr, "-vars", str(vars_file)] + common_ref)
        ours = run_json([str(hclvm), "bench", "-e", expr, "--vars-file", str(vars_file),
                         "--functions", "go-cty"] + common_ours)
        if ref["result"] != ours["result"]:
            problems.append("%s: results differ: reference %s, hclvm %s"
                            % (name, json.dumps(ref["result"]), json.dumps(ours["result"])))
        ratio = ref["ns_per_op"] / ours["ns_per_op"]
        speedups.append(ratio)
        allocs = ours["allocs_per_op"]
        if allocs is not None and is_scalar(ours["result"]) and allocs > 0:
            problems.append("%s: scalar result allocates %.1f times per evaluation" % (name, allocs))
        rows.append((name, "`%s`" % expr.replace("|", "\\|"), ref["ns_per_op"], ours["ns_per_op"], ratio,
                     ref["allocs_per_op"], allocs))

    file_rows, file_speedups = [], []
    corpus = Path(args.corpus_dir)
    if not args.no_files:
        wanted = [c for c in CORPORA if pick.search(c)]
        if wanted and not all((corpus / c).is_file() for c in wanted):
            print("generating corpora into %s ..." % corpus, file=sys.stderr)
            subprocess.run([sys.executable, str(gen), "--out", str(corpus)], check=True)
        cvars = corpus / "corpus_vars.json"
        for c in wanted:
            print("measuring %s ..." % c, file=sys.stderr)
            path = corpus / c
            ref = run_json([args.oracle, "evalfile", str(path), "-vars", str(cvars)] + common_ref)
            ours = run_json([str(hclvm), "bench", str(path), "--vars-file", str(cvars),
                             "--functions", "go-cty"] + common_ours)
            if ref["attributes"] != ours["attributes"] or ref["error_attributes"] != ours["error_attributes"]:
                problems.append("%s: reference %d attributes (%d errors), hclvm %d (%d errors)"
                                % (c, ref["attributes"], ref["error_attributes"], ours["attributes"],
                                   ours["error_attributes"]))
            ratio = ref["ns_per_op"] / ours["ns_per_op"]
            file_speedups.append(ratio)
            file_rows.append((c, ours["attributes"], ref["ns_per_op"], ours["ns_per_op"], ratio,
                              ref["allocs_per_op"], ours["allocs_per_op"], ours["compile_ns"]))

    doc_rows = []
    if not args.no_files:
        wanted = [(n, e) for n, e in DOC_EXPRESSIONS if pick.search(n)]
        if wanted:
            dvars = write_doc_vars(corpus)
        for name, expr in wanted:
            print("measuring %s ..." % name, file=sys.stderr)
            ref = run_json([args.oracle, "eval", "-e", expr, "-vars", str(dvars)] + common_ref)
            ours = run_json([str(hclvm), "bench", "-e", expr, "--vars-file", str(dvars),
                             "--functions", "go-cty"] + common_ours)
            if ref["result"] != ours["result"]:
                problems.append("%s: results differ" % name)
            ratio = ref["ns_per_op"] / ours["ns_per_op"]
            doc_rows.append((name, "`%s`" % expr, ref["ns_per_op"], ours["ns_per_op"], ratio,
                             ref["allocs_per_op"], ours["allocs_per_op"]))

    def allocs_str(a):
        return "n/a" if a is None else ("%.1f" % a).rstrip("0").rstrip(".")

    lines = ["| name | expression | reference ns/op | hclvm ns/op | speedup | reference allocs/op | hclvm allocs/op |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for name, expr, r, o, ratio, ra, oa in rows:
        lines.append("| %s | %s | %s | %s | **%.1fx** | %s | %s |"
                     % (name, expr, fmt_ns(r), fmt_ns(o), ratio, allocs_str(ra), allocs_str(oa)))
    if file_rows:
        lines += ["", "| corpus | attributes | reference ns/op | hclvm ns/op | speedup | reference allocs/op "
                  "| hclvm allocs/op | hclvm compile (once) |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
        for c, attrs, r, o, ratio, ra, oa, comp in file_rows:
            lines.append("| %s | {:,} | %s | %s | **%.1fx** | %s | %s | %s |".format(attrs)
                         % (c, fmt_ns(r), fmt_ns(o), ratio, allocs_str(ra), allocs_str(oa), fmt_ns(comp)))
    if doc_rows:
        lines += ["", "| name | expression (1 MB document) | reference ns/op | hclvm ns/op | speedup "
                  "| reference allocs/op | hclvm allocs/op |", "|---|---|---:|---:|---:|---:|---:|"]
        for name, expr, r, o, ratio, ra, oa in doc_rows:
            lines.append("| %s | %s | %s | %s | **%.1fx** | %s | %s |"
                         % (name, expr, fmt_ns(r), fmt_ns(o), ratio, allocs_str(ra), allocs_str(oa)))
    lines.append("")
    if speedups:
        lines.append("Expressions: median speedup %.1fx (target >= 30x), lowest %.1fx (target >= 5x)."
                     % (statistics.median(speedups), min(speedups)))
    if file_speedups:
        lines.append("Whole files: lowest speedup %.1fx (target >= 20x)." % min(file_speedups))
    if doc_rows:
        lines.append("1 MB document: lowest speedup %.1fx (target >= 20x)." % min(r[4] for r in doc_rows))
    lines.append("Median of %d runs of %s per side, both measured in the same run." % (args.runs, args.benchtime))
    table = "\n".join(lines)
    print(table)
    if args.out:
        Path(args.out).write_text(table + "\n")
    for p in problems:
        print("warning: " + p, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
