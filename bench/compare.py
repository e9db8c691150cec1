#!/usr/bin/env python3
"""Compare hclvm's parse throughput with the Go reference's, in one run.

For each generated corpus (about 100 KB, 1 MB, 10 MB, and the JSON twins of
the first two; generated first if missing) this runs the reference
(`gohcl-bench parse FILE -runs 5 -json`, median of 5 timed runs) and then
hclvm's `parse_bench` on the same file
(`--benchmark_repetitions=5`, median), so both see the same machine load.
It also runs parse_bench on the real-world corpus and the scanner alone
(reference: n/a), and `parse_mem` once on the 10 MB file for peak memory.
Prints a markdown table (and writes it to --out if given).

Needs the shared directory (the reference oracle's corpus generator and the
real corpus): $HCLVM_SHARED_DIR, or the directory named `shared` beside the
repository. Without it the script says so and exits with status 2.

    python3 bench/compare.py [--build-dir build/release] [--corpus-dir build/bench-corpus]
"""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPORA = ["corpus_100k.tf", "corpus_1m.tf", "corpus_10m.tf", "corpus_100k.tf.json", "corpus_1m.tf.json"]


def fail(msg, code=2):
    """Prints [msg] to stderr and exits with [code]."""
    print("compare.py: " + msg, file=sys.stderr)
    sys.exit(code)


def default_shared_dir():
    """The shared directory: $HCLVM_SHARED_DIR or `shared` beside the repo."""
    env = os.environ.get("HCLVM_SHARED_DIR")
    return Path(env) if env else REPO.parent / "shared"


def accepted_native_files(shared):
    """The native files of the shared corpus that the newest reference
    accepts (RESULTS-newest.tsv, status ok), as paths; exits when the
    corpus is absent."""
    results = Path(shared) / "corpus" / "RESULTS-newest.tsv"
    if not results.is_file():
        fail("no corpus at %s (set HCLVM_SHARED_DIR)" % results)
    lines = results.read_text().splitlines()
    col = {name: i for i, name in enumerate(lines[0].split("\t"))}
    out = []
    for line in lines[1:]:
        f = line.split("\t")
        if len(f) > col["status"] and f[col["kind"]] == "native" and f[col["status"]] == "ok":
            out.append(Path(shared) / "corpus" / f[col["path"]])
    return out


def run_json(cmd):
    """Runs [cmd] and returns its standard output parsed as JSON."""
    try:
        out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except FileNotFoundError:
        fail("cannot run %s" % cmd[0])
    except subprocess.CalledProcessError as e:
        fail("%s failed (status %d):\n%s" % (" ".join(map(str, cmd)), e.returncode, e.stderr))
    # gohcl-bench prints diagnostics after the JSON object; keep the object.
    text = out.stdout
    obj, _ = json.JSONDecoder().raw_decode(text[text.index("{"):])
    return obj


def reference_mbps(oracle, path, runs):
    """The reference's median MB/s (10^6 B) parsing [path], [runs] timed runs."""
    r = run_json([oracle, "parse", str(path), "-runs", str(runs), "-json"])
    if r.get("diagnostics", 0):
        print("warning: reference reports %d diagnostics on %s" % (r["diagnostics"], path), file=sys.stderr)
    return r["mb_per_s"]


def hclvm_results(parse_bench, name, runs, env):
    """hclvm's median bytes/s and counters for parse_bench case [name]."""
    # Google Benchmark appends "/real_time" to the names of wall-clock cases.
    cmd = [str(parse_bench), "--benchmark_filter=^%s(/real_time)?$" % name.replace(".", r"\."),
           "--benchmark_format=json", "--benchmark_repetitions=%d" % runs,
           "--benchmark_report_aggregates_only=true"]
    try:
        out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    except subprocess.CalledProcessError as e:
        fail("%s failed (status %d):\n%s" % (" ".join(cmd), e.returncode, e.stderr))
    data = json.loads(out.stdout)
    if not data.get("benchmarks"):
        fail("parse_bench ran no case named %s" % name)
    for b in data.get("benchmarks", []):
        if b.get("error_occurred"):
            print("warning: %s: %s" % (name, b.get("error_message")), file=sys.stderr)
            return None
        if b.get("aggregate_name") == "median":
            return b
    return None


def fmt_mbps(x):
    return "n/a" if x is None else "%.2f" % x


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", default=str(REPO / "build" / "release"),
                    help="CMake build directory holding bench/parse_bench and bench/parse_mem")
    ap.add_argument("--corpus-dir", default=str(REPO / "build" / "bench-corpus"),
                    help="where the generated corpora are (generated there if missing)")
    ap.add_argument("--shared-dir", default=str(default_shared_dir()),
                    help="the shared directory (oracle corpus generator, real corpus)")
    ap.add_argument("--oracle", default=os.path.join(os.environ.get("HCL_ORACLE_BIN", "/opt/hcl-oracle/bin"),
                                                     "gohcl-bench"),
                    help="the reference's gohcl-bench binary")
    ap.add_argument("--runs", type=int, default=5, help="timed runs per side (median reported)")
    ap.add_argument("--out", help="also write the markdown table to this file")
    args = ap.parse_args()

    shared = Path(args.shared_dir)
    gen = shared / "bench" / "gen_corpus.py"
    if not gen.is_file():
        fail("shared directory not found (looked for %s); set HCLVM_SHARED_DIR or pass --shared-dir. "
             "It holds the corpus generator and the reference corpus; a plain clone has no such directory." % gen)
    if not os.access(args.oracle, os.X_OK):
        fail("reference gohcl-bench not found at %s (see the oracle README in the shared directory)" % args.oracle)
    build = Path(args.build_dir)
    parse_bench, parse_mem = build / "bench" / "parse_bench", build / "bench" / "parse_mem"
    for exe in (parse_bench, parse_mem):
        if not exe.is_file():
            fail("%s not built: cmake --build %s --target parse_bench parse_mem" % (exe, build))

    corpus = Path(args.corpus_dir)
    if not all((corpus / c).is_file() for c in CORPORA):
        print("generating corpora into %s ..." % corpus, file=sys.stderr)
        subprocess.run([sys.executable, str(gen), "--out", str(corpus)], check=True)

    env = dict(os.environ, HCLVM_BENCH_CORPUS=str(corpus), HCLVM_SHARED_DIR=str(shared))
    rows = []
    for c in CORPORA:
        path = corpus / c
        print("measuring %s ..." % c, file=sys.stderr)
        ref = reference_mbps(args.oracle, path, args.runs)
        ours = hclvm_results(parse_bench, "parse/" + c, args.runs, env)
        mbps = ours["bytes_per_second"] / 1e6 if ours else None
        rows.append(("parse " + c, path.stat().st_size, ref, mbps))
    for name, label in (("parse/real_corpus", "parse real corpus (native files)"),
                        ("scan/corpus_10m.tf", "scan only corpus_10m.tf")):
        print("measuring %s ..." % name, file=sys.stderr)
        ours = hclvm_results(parse_bench, name, args.runs, env)
        mbps = ours["bytes_per_second"] / 1e6 if ours else None
        size = int(ours["bytes"]) if ours and "bytes" in ours else None
        if name.startswith("scan/"):
            size = (corpus / "corpus_10m.tf").stat().st_size
        rows.append((label, size, None, mbps))

    mem = run_json([str(parse_mem), str(corpus / "corpus_10m.tf")])

    lines = ["| corpus | bytes | reference MB/s | hclvm MB/s | ratio |", "|---|---:|---:|---:|---:|"]
    for label, size, ref, ours in rows:
        ratio = "%.1fx" % (ours / ref) if ref and ours else "n/a"
        lines.append("| %s | %s | %s | %s | %s |" % (label, "{:,}".format(size) if size else "?",
                                                   fmt_mbps(ref), fmt_mbps(ours), ratio))
    lines.append("")
    lines.append("Peak RSS parsing corpus_10m.tf once (parse_mem): %.1f MB = %.2fx the file size "
                 "(%.2fx added by parsing; target: at most 10x)."
                 % (mem["peak_rss"] / 1e6, mem["peak_rss_over_bytes"], mem["parse_growth_over_bytes"]))
    lines.append("")
    lines.append("MB = 10^6 bytes; median of %d runs per side, measured in the same run." % args.runs)
    table = "\n".join(lines)
    print(table)
    if args.out:
        Path(args.out).write_text(table + "\n")
    if mem["peak_rss_over_bytes"] > 10:
        print("warning: peak RSS exceeds 10x the file size", file=sys.stderr)


if __name__ == "__main__":
    main()
