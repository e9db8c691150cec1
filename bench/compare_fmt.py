#!/usr/bin/env python3
"""Formatting, process against process, on the real-world corpus.

    python3 bench/compare_fmt.py [--hclvm build/release/hclvm] [--runs 5] [--out table.md]

In the corpus's files/ directory, in the same run, each side several times
(interleaved; the median is reported):

  - terraform fmt -check -recursive            (Terraform on PATH)
  - hclvm fmt -check -recursive --mode terraform   (the same files)
  - hclvm fmt -check -recursive                (also the *.hcl and *.nomad files)
  - hclfmt on the files terraform fmt takes    (the newest reference's, one
    process per 500 files; it has no directory walk and no -check)

Wall time and CPU time (user + system, of the process and its threads)
are measured per run. Before timing, `fmt -write=false -recursive` of
terraform and of hclvm --mode terraform must list the same files and exit
alike: both formatters see the same files and agree on which change.
"""
import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def default_shared_dir():
    env = os.environ.get("HCLVM_SHARED_DIR")
    return Path(env) if env else REPO.parent / "shared"


def fail(msg):
    sys.exit("compare_fmt.py: " + msg)


def terraform_files(root):
    """The files terraform fmt -recursive takes under [root], as it orders them."""
    out = []
    exts = (".tf", ".tfvars", ".tftest.hcl", ".tfmock.hcl")

    def ignored(name):
        return name.startswith(".") or name.endswith("~") or (name.startswith("#") and name.endswith("#"))

    def walk(d):
        for e in sorted(os.scandir(d), key=lambda e: e.name):
            if ignored(e.name):
                continue
            if e.is_dir(follow_symlinks=False):
                walk(e.path)
            elif e.name.endswith(exts):
                out.append(os.path.relpath(e.path, root))

    walk(root)
    return out


def timed(cmd, cwd, env):
    """Runs [cmd]; returns (wall seconds, CPU seconds, exit status)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    rc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, rc


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hclvm", default=str(REPO / "build" / "release" / "hclvm"))
    ap.add_argument("--hclfmt", default="/opt/hcl-oracle/newest/bin/hclfmt")
    ap.add_argument("--shared-dir", default=str(default_shared_dir()))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", help="also write the markdown table to this file")
    args = ap.parse_args()

    root = Path(args.shared_dir) / "corpus" / "files"
    terraform = shutil.which("terraform")
    if not root.is_dir():
        fail("corpus not found at %s (set HCLVM_SHARED_DIR or --shared-dir)" % root)
    if not terraform:
        fail("terraform not on PATH")
    if not os.access(args.hclvm, os.X_OK):
        fail("%s not built (cmake --build BUILD --target hclvm)" % args.hclvm)
    hclvm = os.path.abspath(args.hclvm)
    env = dict(os.environ, TF_CLI_CONFIG_FILE="/dev/null")

    files = terraform_files(root)
    size = sum(os.path.getsize(root / f) for f in files)

    # The same files, the same verdicts.
    tf = subprocess.run([terraform, "fmt", "-no-color", "-write=false", "-recursive"], cwd=root, env=env,
                        capture_output=True)
    hv = subprocess.run([hclvm, "fmt", "-write=false", "-recursive", "--mode", "terraform"], cwd=root, env=env,
                        capture_output=True)
    if tf.stdout != hv.stdout or tf.returncode != hv.returncode:
        fail("terraform fmt and hclvm fmt --mode terraform disagree on which files change "
             "(exit %d / %d, %d / %d lines)" % (tf.returncode, hv.returncode, tf.stdout.count(b"\n"),
                                               hv.stdout.count(b"\n")))
    changed = tf.stdout.count(b"\n")

    batches = [files[i:i + 500] for i in range(0, len(files), 500)]
    sides = [
        ("terraform fmt -check -recursive", lambda: [timed([terraform, "fmt", "-check", "-recursive"], root, env)]),
        ("hclvm fmt -check -recursive --mode terraform",
         lambda: [timed([hclvm, "fmt", "-check", "-recursive", "--mode", "terraform"], root, env)]),
        ("hclvm fmt -check -recursive (all native files)",
         lambda: [timed([hclvm, "fmt", "-check", "-recursive"], root, env)]),
    ]
    if os.access(args.hclfmt, os.X_OK):
        sides.append(("hclfmt (newest), 500 files a process",
                      lambda: [timed([args.hclfmt] + b, root, env) for b in batches]))
    results = {name: [] for name, _ in sides}
    for _ in range(args.runs):
        for name, fn in sides:
            runs = fn()
            results[name].append((sum(r[0] for r in runs), sum(r[1] for r in runs)))

    base = results["terraform fmt -check -recursive"]
    base_wall = statistics.median(r[0] for r in base)
    base_cpu = statistics.median(r[1] for r in base)
    lines = [
        "| command | wall s | CPU s | terraform wall / this | terraform CPU / this |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, _ in sides:
        wall = statistics.median(r[0] for r in results[name])
        cpu = statistics.median(r[1] for r in results[name])
        lines.append("| %s | %.3f | %.3f | %.1fx | %.1fx |" % (name, wall, cpu, base_wall / wall, base_cpu / cpu))
    table = "\n".join(lines)
    print("corpus: %d files terraform fmt takes (%d bytes), %d would change; median of %d runs" %
          (len(files), size, changed, args.runs))
    print(table)
    if args.out:
        Path(args.out).write_text(table + "\n")


if __name__ == "__main__":
    main()
