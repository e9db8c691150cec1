#!/usr/bin/env python3
"""Compare hclvm's parse throughput with the Go reference's, in one run.

For each generated corpus (about 100 KB, 1 MB, 10 MB, and the JSON twins of
the first two; generated first if missing) this runs the reference
(`gohcl-bench parse FILE -runs 5 -json`, median of 5 timed runs) and then
hclvm's `parse_bench` on the same file
(`--benchmark_repetitions=5`, median), so both see the same machine load.
It also times the real-world corpus file by file: the native files that
the newest reference accepts (accepted_native_files) are written to a list
file, which `gohcl-bench parselist LIST -runs R -json` and parse_bench's
`parse/real_corpus` (given the list in $HCLVM_BENCH_FILE_LIST) both parse,
each file as its own file, all of them per op; and a whole `hclvm check -j1`
process over the same files (wall time, median of R runs after a warm-up)
against the reference's in-process parselist time. A parse_bench built
before it read $HCLVM_BENCH_FILE_LIST parses every native file of
RESULTS.tsv instead: the script notices (file count) and times the
reference on that set too, and says so. Then the scanner alone
(reference: n/a) and `parse_mem` once on the 10 MB file for peak memory.
Prints a markdown table (and writes it to --out if given; --json FILE
writes the rows as JSON: name, bytes, reference and hclvm MB/s, ratio).

Needs the shared directory (the reference oracle's corpus generator and the
real corpus): $HCLVM_SHARED_DIR, or the directory named `shared` beside the
repository. Without it the script says so and exits with status 2.

    python3 bench/compare.py [--build-dir build/release] [--corpus-dir build/bench-corpus]
        [--hclvm BUILD/hclvm] [--runs 5] [--out table.md] [--json rows.json]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
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


def native_files(shared, results_name, accepted_only):
    """The native files that the shared corpus's [results_name] lists (with
    [accepted_only], those of status ok), as paths; exits when the corpus
    is absent."""
    results = Path(shared) / "corpus" / results_name
    if not results.is_file():
        fail("no corpus at %s (set HCLVM_SHARED_DIR)" % results)
    lines = results.read_text().splitlines()
    col = {name: i for i, name in enumerate(lines[0].split("\t"))}
    out = []
    for line in lines[1:]:
        f = line.split("\t")
        if len(f) > col["status"] and f[col["kind"]] == "native" and (not accepted_only or f[col["status"]] == "ok"):
            out.append(Path(shared) / "corpus" / f[col["path"]])
    return out


def accepted_native_files(shared):
    """The native files of the shared corpus that the newest reference
    accepts (RESULTS-newest.tsv, status ok), as paths; exits when the
    corpus is absent."""
    return native_files(shared, "RESULTS-newest.tsv", True)


def write_list(files, directory, name):
    """Writes the paths [files], one a line, to [directory]/[name]; returns
    that path."""
    path = Path(directory) / name
    path.write_text("".join("%s\n" % f for f in files))
    return path


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
    # One repetition reports no aggregates: its one run is the median.
    runs = [b for b in data["benchmarks"] if b.get("run_type") == "iteration"]
    return runs[-1] if runs else None


def reference_parselist(oracle, list_file, runs):
    """The reference's parselist result (files, bytes, ns_per_op, mb_per_s)
    on the files that [list_file] names, median of [runs] timed runs."""
    return run_json([oracle, "parselist", str(list_file), "-runs", str(runs), "-json"])


def check_process_ns(hclvm, files, runs):
    """The median wall time in ns of one `hclvm check -j1` process over
    [files] ([runs] timed runs after one warm-up run); its output is
    discarded (exit status 1, errors found, is accepted)."""
    cmd = [str(hclvm), "check", "-j1", "--color", "never"] + [str(f) for f in files]
    times = []
    for i in range(runs + 1):
        t0 = time.perf_counter_ns()
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        elapsed = time.perf_counter_ns() - t0
        if r.returncode not in (0, 1):
            fail("%s check failed (status %d): %s" % (hclvm, r.returncode, r.stderr[-300:]))
        if i:
            times.append(elapsed)
    return statistics.median(times)


def real_corpus_rows(args, parse_bench, shared, env, tmp):
    """The real corpus's rows: parse file by file in process against the
    reference's parselist on the same files, and a whole `hclvm check -j1`
    process against the reference's in-process time."""
    files = accepted_native_files(shared)
    list_file = write_list(files, tmp, "accepted-native.txt")
    print("measuring parse/real_corpus (%d files) ..." % len(files), file=sys.stderr)
    ref = reference_parselist(args.oracle, list_file, args.runs)
    ours = hclvm_results(parse_bench, "parse/real_corpus", args.runs, dict(env, HCLVM_BENCH_FILE_LIST=str(list_file)))
    label = "parse real corpus, per file (%d accepted native files)" % len(files)
    rows = []
    if ours and int(round(ours.get("files", 0))) != len(files):
        # A parse_bench older than $HCLVM_BENCH_FILE_LIST: every native file of RESULTS.tsv.
        old_set = native_files(shared, "RESULTS.tsv", False)
        print("warning: parse_bench parsed %d files, not the %d listed: it predates $HCLVM_BENCH_FILE_LIST "
              "(rebuild it); timing the reference on its set, every native file of RESULTS.tsv (%d)"
              % (ours.get("files", 0), len(files), len(old_set)), file=sys.stderr)
        old_ref = reference_parselist(args.oracle, write_list(old_set, tmp, "all-native.txt"), args.runs)
        rows.append(row("parse real corpus, per file (%d native files, rejected ones included)" % len(old_set),
                        old_ref["bytes"], old_ref["mb_per_s"], ours["bytes_per_second"] / 1e6))
    elif ours:
        rows.append(row(label, ref["bytes"], ref["mb_per_s"], ours["bytes_per_second"] / 1e6))
    print("measuring hclvm check -j1 over %d files ..." % len(files), file=sys.stderr)
    ns = check_process_ns(args.hclvm, files, args.runs)
    rows.append(row("whole `hclvm check -j1` process vs reference in process (same %d files)" % len(files),
                    ref["bytes"], ref["mb_per_s"], ref["bytes"] / ns * 1e3))
    return rows


def row(name, size, ref_mbps, hclvm_mbps):
    """One row of the table and the JSON output."""
    ratio = hclvm_mbps / ref_mbps if ref_mbps and hclvm_mbps else None
    return {"name": name, "bytes": size, "reference_mb_per_s": ref_mbps, "hclvm_mb_per_s": hclvm_mbps,
            "ratio": ratio}


def fmt_mbps(x):
    return "n/a" if x is None else "%.2f" % x


def markdown(rows, mem, runs):
    """The markdown table of [rows] and the memory line."""
    lines = ["| corpus | bytes | reference MB/s | hclvm MB/s | ratio |", "|---|---:|---:|---:|---:|"]
    for r in rows:
        lines.append("| %s | %s | %s | %s | %s |" % (
            r["name"], "{:,}".format(r["bytes"]) if r["bytes"] else "?", fmt_mbps(r["reference_mb_per_s"]),
            fmt_mbps(r["hclvm_mb_per_s"]), "%.1fx" % r["ratio"] if r["ratio"] else "n/a"))
    lines.append("")
    lines.append("Peak RSS parsing corpus_10m.tf once (parse_mem): %.1f MB = %.2fx the file size "
                 "(%.2fx added by parsing; target: at most 10x)."
                 % (mem["peak_rss"] / 1e6, mem["peak_rss_over_bytes"], mem["parse_growth_over_bytes"]))
    lines.append("")
    lines.append("MB = 10^6 bytes; median of %d runs per side, measured in the same run." % runs)
    return "\n".join(lines)


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
    ap.add_argument("--hclvm", help="the hclvm binary for the check process row (default: BUILD_DIR/hclvm)")
    ap.add_argument("--runs", type=int, default=5, help="timed runs per side (median reported)")
    ap.add_argument("--out", help="also write the markdown table to this file")
    ap.add_argument("--json", help="also write the rows as JSON to this file")
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
    args.hclvm = Path(args.hclvm) if args.hclvm else build / "hclvm"
    for exe in (parse_bench, parse_mem, args.hclvm):
        if not exe.is_file():
            fail("%s not built: cmake --build %s --target parse_bench parse_mem hclvm" % (exe, build))

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
        rows.append(row("parse " + c, path.stat().st_size, ref, ours["bytes_per_second"] / 1e6 if ours else None))
    with tempfile.TemporaryDirectory() as tmp:
        rows += real_corpus_rows(args, parse_bench, shared, env, tmp)
    print("measuring scan/corpus_10m.tf ...", file=sys.stderr)
    ours = hclvm_results(parse_bench, "scan/corpus_10m.tf", args.runs, env)
    rows.append(row("scan only corpus_10m.tf", (corpus / "corpus_10m.tf").stat().st_size, None,
                    ours["bytes_per_second"] / 1e6 if ours else None))

    mem = run_json([str(parse_mem), str(corpus / "corpus_10m.tf")])
    table = markdown(rows, mem, args.runs)
    print(table)
    if args.out:
        Path(args.out).write_text(table + "\n")
    if args.json:
        Path(args.json).write_text(json.dumps({"runs": args.runs, "rows": rows, "parse_mem": mem}, indent=1) + "\n")
    if mem["peak_rss_over_bytes"] > 10:
        print("warning: peak RSS exceeds 10x the file size", file=sys.stderr)


if __name__ == "__main__":
    main()
