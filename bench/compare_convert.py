#!/usr/bin/env python3
"""hclvm json against @cdktf/hcl2json, both warm and in process, same run.

    python3 bench/compare_convert.py [--bench build/ci/bench/convert_bench]
        [--node-path DIR/node_modules] [--runs 3] [--out table.md]

Inputs: every native file of the shared corpus that the newest reference
accepts (RESULTS-newest.tsv, status ok; each converted as its own file)
and the generated corpus_10m.tf (build/bench-corpus, made by
bench/compare.py or gen_corpus.py). Each side runs [runs] times,
interleaved, and the median is reported:

  - @cdktf/hcl2json's parse(filename, contents) over the files, one pass of
    warm-up first (bench/hcl2json_bench.js: the Go converter compiled to
    WebAssembly, its result parsed by JSON.parse, which is what parse()
    returns);
  - hclvm's convert_bench, the hcl2json shape (the same documents: the
    agreement is tested by tests/golden/convert/hcl2json.sh) and, for
    reference, the JSON syntax and the JSON syntax back to native.

The package is looked up on NODE_PATH (or --node-path); install it with
`npm install --prefix DIR @cdktf/hcl2json`.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
from compare import accepted_native_files, default_shared_dir  # noqa: E402


def fail(msg):
    sys.exit("compare_convert.py: " + msg)


def node_run(node, script, listfile, env):
    """One pass of hcl2json_bench.js over [listfile]: (ms, files, errors, bytes)."""
    r = subprocess.run([node, script, listfile, "1"], env=env, capture_output=True, text=True)
    if r.returncode != 0:
        fail("hcl2json_bench.js failed: " + r.stderr.strip()[-500:])
    d = json.loads(r.stdout)
    return d["passes_ms"][0], d["files"], d["errors"], d["bytes"]


def hclvm_run(bench, env):
    """One run of convert_bench: {case: ms per iteration}."""
    r = subprocess.run([bench, "--benchmark_format=json", "--benchmark_min_time=0.5"], env=env,
                       capture_output=True, text=True)
    if r.returncode != 0:
        fail("convert_bench failed: " + r.stderr.strip()[-500:])
    out = {}
    for b in json.loads(r.stdout)["benchmarks"]:
        if b.get("error_occurred"):
            fail("convert_bench: %s: %s" % (b["name"], b.get("error_message", "")))
        unit = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]
        out[b["name"].replace("/real_time", "")] = b["real_time"] * unit
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", default=str(REPO / "build" / "ci" / "bench" / "convert_bench"))
    ap.add_argument("--node-path", default=os.environ.get("NODE_PATH", ""))
    ap.add_argument("--corpus-10m", default=str(REPO / "build" / "bench-corpus" / "corpus_10m.tf"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", help="also write the markdown table to this file")
    args = ap.parse_args()

    node = shutil.which("node")
    if not node:
        fail("node not on PATH")
    if not os.access(args.bench, os.X_OK):
        fail("%s not built (a build with HCLVM_BENCH on: cmake --build BUILD --target convert_bench)" % args.bench)
    if not Path(args.corpus_10m).is_file():
        fail("%s missing (python3 bench/gen_corpus.py --out DIR)" % args.corpus_10m)
    shared = default_shared_dir()
    env = dict(os.environ, NODE_PATH=args.node_path, HCLVM_SHARED_DIR=str(shared))
    check = subprocess.run([node, "-e", "require('@cdktf/hcl2json')"], env=env, capture_output=True)
    if check.returncode != 0:
        fail("@cdktf/hcl2json not found on NODE_PATH=%r" % args.node_path)
    script = str(REPO / "bench" / "hcl2json_bench.js")

    with tempfile.TemporaryDirectory() as tmp:
        real_list = Path(tmp) / "real.txt"
        real_list.write_text("\n".join(map(str, accepted_native_files(shared))) + "\n")
        big_list = Path(tmp) / "big.txt"
        big_list.write_text(args.corpus_10m + "\n")
        node_times = {"real_corpus": [], "corpus_10m.tf": []}
        hclvm_times = []
        info = {}
        for _ in range(args.runs):
            for name, lst in (("real_corpus", real_list), ("corpus_10m.tf", big_list)):
                ms, files, errors, size = node_run(node, script, str(lst), env)
                node_times[name].append(ms)
                info[name] = (files, errors, size)
            hclvm_times.append(hclvm_run(args.bench, env))

    lines = [
        "| input | @cdktf/hcl2json ms | hclvm hcl2json ms | ratio | hclvm jsonsyntax ms | ratio | hclvm back to native ms |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name in ("real_corpus", "corpus_10m.tf"):
        n = statistics.median(node_times[name])
        h = statistics.median(t["hcl2json/" + name] for t in hclvm_times)
        j = statistics.median(t["jsonsyntax/" + name] for t in hclvm_times)
        b = statistics.median(t["to_native/" + name] for t in hclvm_times)
        files, errors, size = info[name]
        label = "%s (%d files, %.1f MB; %d refused by both)" % (name, files, size / 1e6, errors) if files > 1 else \
            "%s (%.1f MB)" % (name, size / 1e6)
        lines.append("| %s | %.0f | %.1f | %.1fx | %.1f | %.1fx | %.1f |" % (label, n, h, n / h, j, n / j, b))
    table = "\n".join(lines)
    print("median of %d runs, interleaved; both warm, in process" % args.runs)
    print(table)
    if args.out:
        Path(args.out).write_text(table + "\n")


if __name__ == "__main__":
    main()
