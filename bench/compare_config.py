#!/usr/bin/env python3
"""Whole modules: hclvm against terraform console, in the same run.

For each module directory (default: a selection from the real-world corpus
that loads without errors), this measures
  - terraform: `echo 1 | terraform console` in a provider-free copy of the
    module (its resource, data, provider and ephemeral blocks and its
    required_providers removed, since console needs installed providers
    otherwise), process against process, wall clock;
  - hclvm: `hclvm eval DIR` on the module itself (every variable, local,
    output and resource argument evaluated, the JSON document printed),
    process against process, wall clock;
  - in-process (bench/config_bench): load from source, load through the
    compiled-file cache, evaluate, reevaluate, load + evaluate; evaluating
    a loaded module with new inputs (the workspace and one string variable
    changed per run), afresh and reusing the previous evaluation
    (config::reevaluate), against loading it afresh and evaluating.
Each side is the median of --runs runs; terraform and hclvm run in turn,
one run each per round, so that both see the same machine load. Prints a markdown table and the
targets: hclvm at least 50x terraform console per module evaluation, and
re-evaluation at least 20x faster than load + evaluate.

  bench/compare_config.py [--hclvm build/release/hclvm] [--bench build/release/bench/config_bench]
                          [--runs 11] [DIR...]
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
CORPUS = os.path.join(os.environ.get("HCLVM_SHARED_DIR") or os.path.join(REPO, "..", "shared"),
                      "corpus", "files")

# Module directories of the corpus: real modules (one module's files each).
DEFAULT_DIRS = [
    "github/hashicorp+terraform-guides/infrastructure-as-code/aws-lambda-ec2-lifecycles",
    "github/hashicorp+terraform-guides/infrastructure-as-code/dynamic-aws-creds-from-vault",
    "github/hashicorp+boundary/enos/modules/aws_boundary",
    "github/hashicorp+vault-guides/identity/vault-agent-ecs/infrastructure",
    "github/hashicorp+vault-guides/operations/benchmarking/terraform-aws-vault-benchmark/terraform",
    "github/hashicorp+nomad/e2e/terraform/provision-infra",
]


def top_blocks(text):
    """Yields (start, end, header) of each top-level block of native syntax [text]."""
    depth = 0
    i = 0
    n = len(text)
    start = None
    in_str = False
    heredoc = None
    line_start = 0
    while i < n:
        c = text[i]
        if heredoc:
            m = re.match(r"[ \t]*" + re.escape(heredoc) + r"\s*$", text[i:text.find("\n", i) if text.find("\n", i) >= 0 else n])
            nl = text.find("\n", i)
            if m:
                heredoc = None
            i = n if nl < 0 else nl + 1
            continue
        if in_str:
            if c == "\\":
                i += 2
                continue
            if c == '"':
                in_str = False
            i += 1
            continue
        if c == "#" or (c == "/" and text.startswith("//", i)):
            nl = text.find("\n", i)
            i = n if nl < 0 else nl
            continue
        if c == "/" and text.startswith("/*", i):
            e = text.find("*/", i + 2)
            i = n if e < 0 else e + 2
            continue
        if c == '"':
            in_str = True
        elif text.startswith("<<", i):
            m = re.match(r"<<-?([A-Za-z_][A-Za-z0-9_]*)\n", text[i:])
            if m:
                heredoc = m.group(1)
                i += m.end()
                continue
        elif c == "{":
            if depth == 0:
                start = line_start
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0 and start is not None:
                yield start, i + 1, text[start:text.find("{", start)].strip()
                start = None
        elif c == "\n":
            if depth == 0:
                line_start = i + 1
        i += 1


def provider_free_copy(src, dst):
    """Copies module [src] to [dst] without what needs providers."""
    for name in os.listdir(src):
        p = os.path.join(src, name)
        if name.startswith("."):
            continue  # .terraform.lock.hcl would ask for the providers again
        if os.path.isdir(p):
            if not name.startswith("."):
                shutil.copytree(p, os.path.join(dst, name), ignore=shutil.ignore_patterns(".*"))
            continue
        if not name.endswith(".tf"):
            if not name.endswith(".tf.json"):
                shutil.copy(p, os.path.join(dst, name))
            continue
        text = open(p, encoding="utf-8", errors="replace").read()
        out, last = [], 0
        for start, end, header in top_blocks(text):
            kw = header.split()[0] if header else ""
            if kw in ("resource", "data", "provider", "ephemeral", "terraform", "module", "import",
                      "moved", "removed", "check"):
                out.append(text[last:start])
                last = end
        out.append(text[last:])
        open(os.path.join(dst, name), "w").write("".join(out))


def run_once(cmd, cwd=None, stdin=None, env=None):
    """The wall-clock seconds of one run of [cmd], and its exit status."""
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=cwd, input=stdin, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0, p.returncode


def interleaved(sides, runs):
    """Runs each of [sides] (kwargs of run_once) once per round, [runs]
    rounds, so that both see the same machine load; the median seconds and
    last exit status of each."""
    times = [[] for _ in sides]
    rcs = [0 for _ in sides]
    for _ in range(runs):
        for i, side in enumerate(sides):
            t, rcs[i] = run_once(**side)
            times[i].append(t)
    return [(statistics.median(t), rc) for t, rc in zip(times, rcs)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hclvm", default=os.path.join(REPO, "build", "release", "hclvm"))
    ap.add_argument("--bench", default=os.path.join(REPO, "build", "release", "bench", "config_bench"))
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("dirs", nargs="*")
    a = ap.parse_args()
    dirs = a.dirs or [os.path.join(CORPUS, d) for d in DEFAULT_DIRS]
    missing = [d for d in dirs if not os.path.isdir(d)]
    if missing:
        sys.exit("compare_config: no module directory %s (the default modules are in the shared "
                 "corpus: set HCLVM_SHARED_DIR, or name directories)" % missing[0])
    if shutil.which("terraform") is None:
        sys.exit("compare_config: terraform is not on PATH (it is the other side of the comparison)")
    for tool in (a.hclvm, a.bench):
        if not os.access(tool, os.X_OK):
            sys.exit("compare_config: %s is not built (see --hclvm, --bench)" % tool)
    env = dict(os.environ, TF_CLI_CONFIG_FILE="/dev/null", CHECKPOINT_DISABLE="1", TF_IN_AUTOMATION="1")
    rows = []
    for d in dirs:
        d = os.path.normpath(d)
        with tempfile.TemporaryDirectory() as tmp:
            provider_free_copy(d, tmp)
            (tf, tf_rc), (hv, hv_rc) = interleaved(
                [dict(cmd=["terraform", "console"], cwd=tmp, stdin=b"1\n", env=env),
                 dict(cmd=[a.hclvm, "eval", d])], a.runs)
        inproc = json.loads(subprocess.run([a.bench, "--runs", str(a.runs), d], capture_output=True,
                                           text=True, check=True).stdout.splitlines()[0])
        rows.append((d, tf, tf_rc, hv, hv_rc, inproc))
    print("| module | files | terraform console ms | hclvm eval ms (process) | speedup | "
          "load ms | load (cache) ms | evaluate ms | reevaluate ms | load+evaluate ms | "
          "terraform / load+evaluate | evaluate speedup | reevaluate speedup |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for d, tf, tf_rc, hv, hv_rc, p in rows:
        name = os.path.relpath(d, CORPUS) if d.startswith(os.path.normpath(CORPUS)) else d
        print("| %s | %d | %.1f%s | %.2f%s | %.1fx | %.3f | %.3f | %.3f | %.3f | %.3f | %.0fx | %.1fx | %.1fx |" % (
            name, p["files"], tf * 1000, "" if tf_rc == 0 else " (exit %d)" % tf_rc, hv * 1000,
            "" if hv_rc == 0 else " (exit %d)" % hv_rc, tf / hv, p["load_ms"], p["load_cache_ms"],
            p["eval_ms"], p["reeval_ms"], p["load_eval_ms"],
            tf * 1000 / p["load_eval_ms"] if p["load_eval_ms"] else 0,
            p["load_eval_ms"] / p["eval_ms"] if p["eval_ms"] else 0,
            p["load_eval_ms"] / p["reeval_ms"] if p["reeval_ms"] else 0))
    print()
    speedups = [tf / hv for _, tf, _, hv, _, _ in rows]
    fresh = [p["load_eval_ms"] / p["eval_ms"] for *_, p in rows if p["eval_ms"]]
    reeval = [p["load_eval_ms"] / p["reeval_ms"] for *_, p in rows if p["reeval_ms"]]
    print("targets: hclvm >= 50x terraform console per module evaluation: min %.0fx, median %.0fx %s" % (
        min(speedups), statistics.median(speedups), "(met)" if min(speedups) >= 50 else "(NOT met)"))
    print("         re-evaluation >= 20x faster than load + evaluate:")
    print("           evaluate (afresh):   min %.0fx, median %.0fx %s" % (
        min(fresh), statistics.median(fresh), "(met)" if min(fresh) >= 20 else "(NOT met)"))
    print("           reevaluate (reusing the previous evaluation): min %.0fx, median %.0fx %s" % (
        min(reeval), statistics.median(reeval), "(met)" if min(reeval) >= 20 else "(NOT met)"))

if __name__ == "__main__":
    main()
