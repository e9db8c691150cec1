#!/usr/bin/env python3
"""Records what the reference formatters make of every file of the shared
corpus, for tests/unit/format_corpus_test.cpp to replay without them.

    tests/golden/fmt/refresh-corpus.py [SHARED_DIR]

Writes tests/golden/fmt/corpus.tsv, one row per distinct input:

    input    hclfmt    terraform

input is the first 16 hex digits of the input's SHA-256; hclfmt and
terraform are the same digits of what each tool printed or wrote, or
`same` when that is the input itself, or (terraform) `error` when it
refused the file. hclfmt is the newest reference's (hcl v2.24.0,
/opt/hcl-oracle/newest/bin/hclfmt, or $HCLFMT); terraform is `terraform
fmt` (1.11.4 here) run on a copy of each file named N.tf.

SHARED_DIR defaults to $HCLVM_SHARED_DIR, then ../shared beside the
repository.
"""
import concurrent.futures
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))


def digest(data):
    return hashlib.sha256(data).hexdigest()[:16]


def main():
    shared = (sys.argv[1] if len(sys.argv) > 1 else
              os.environ.get("HCLVM_SHARED_DIR") or os.path.join(os.path.dirname(REPO), "shared"))
    corpus = os.path.join(shared, "corpus")
    hclfmt = os.environ.get("HCLFMT", "/opt/hcl-oracle/newest/bin/hclfmt")
    terraform = shutil.which("terraform")
    if not os.path.isdir(corpus) or not os.access(hclfmt, os.X_OK) or not terraform:
        sys.exit("refresh-corpus.py needs the corpus, hclfmt and terraform")

    with open(os.path.join(corpus, "RESULTS-newest.tsv"), encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f][1:]
    paths = sorted({r[0] for r in rows})
    inputs = {}
    for p in paths:
        with open(os.path.join(corpus, p), "rb") as f:
            inputs[p] = f.read()

    def run_hclfmt(p):
        out = subprocess.run([hclfmt, os.path.join(corpus, p)], capture_output=True, check=False).stdout
        return p, out

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        hcl = dict(pool.map(run_hclfmt, paths))

    env = dict(os.environ, TF_CLI_CONFIG_FILE="/dev/null")
    tf = {}
    with tempfile.TemporaryDirectory() as tmp:
        names = {}
        for i, p in enumerate(paths):
            names[p] = "%05d.tf" % i
            with open(os.path.join(tmp, names[p]), "wb") as f:
                f.write(inputs[p])
        res = subprocess.run([terraform, "fmt", "-no-color", "-list=false", "."], cwd=tmp, env=env,
                             capture_output=True, check=False)
        refused = set(re.findall(rb"^  on (\d{5}\.tf) line", res.stderr, re.M))
        for p in paths:
            if names[p].encode() in refused:
                tf[p] = None
            else:
                with open(os.path.join(tmp, names[p]), "rb") as f:
                    tf[p] = f.read()

    out = {}
    for p in paths:
        src = inputs[p]
        h = "same" if hcl[p] == src else digest(hcl[p])
        t = "error" if tf[p] is None else "same" if tf[p] == src else digest(tf[p])
        out[digest(src)] = (h, t)
    with open(os.path.join(HERE, "corpus.tsv"), "w", encoding="utf-8") as f:
        f.write("input\thclfmt\tterraform\n")
        for k in sorted(out):
            f.write("%s\t%s\t%s\n" % (k, out[k][0], out[k][1]))
    print("corpus.tsv: %d inputs (%d files), terraform refused %d" %
          (len(out), len(paths), sum(1 for v in out.values() if v[1] == "error")))


if __name__ == "__main__":
    main()
