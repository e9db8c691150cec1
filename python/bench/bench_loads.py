"""hclvm.loads over the real corpus and the generated 10 MB corpus.

    python bench_loads.py [CORPUS_DIR [SHARED_DIR]]

CORPUS_DIR holds corpus_10m.tf ($HCLVM_BENCH_CORPUS, default
build/bench-corpus); SHARED_DIR/corpus the real corpus ($HCLVM_SHARED_DIR).
Prints a markdown table: MB/s of hclvm.loads (the hcl2json shape, dicts
built with json.loads) and of the conversion alone (hclvm.to_json), and
python-hcl2's loads when it can be imported. Not a timed test."""

import os
import sys
import time

import hclvm

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def real_corpus(shared):
    """The native files the newest reference reads (RESULTS-newest.tsv)."""
    base = os.path.join(shared, "corpus")
    out = []
    with open(os.path.join(base, "RESULTS-newest.tsv"), encoding="utf-8") as f:
        next(f)
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) > 3 and cols[1] == "native" and cols[3] == "ok":
                with open(os.path.join(base, cols[0]), "rb") as g:
                    out.append(g.read().decode("utf-8", "replace"))
    return out


def mbps(fn, texts, runs=3):
    size = sum(len(t.encode()) for t in texts)
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        for t in texts:
            try:
                fn(t)
            except Exception:  # files hcl2json refuses count as read
                pass
        best = min(best, time.perf_counter() - start)
    return size, size / best / 1e6


def main():
    corpus = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
        "HCLVM_BENCH_CORPUS", os.path.join(REPO, "build", "bench-corpus"))
    shared = sys.argv[2] if len(sys.argv) > 2 else os.environ.get(
        "HCLVM_SHARED_DIR", os.path.join(os.path.dirname(REPO), "shared"))
    inputs = []
    if os.path.isdir(os.path.join(shared, "corpus")):
        inputs.append(("real corpus (accepted native files)", real_corpus(shared)))
    big = os.path.join(corpus, "corpus_10m.tf")
    if os.path.isfile(big):
        with open(big, encoding="utf-8") as f:
            inputs.append(("corpus_10m.tf", [f.read()]))
    fns = [("hclvm.loads (python-hcl2 shape)", lambda t: hclvm.loads(t)),
           ("hclvm.loads(shape=\"hcl2json\")", lambda t: hclvm.loads(t, shape="hcl2json")),
           ("hclvm.to_json (no dicts)", lambda t: hclvm.to_json(t, shape="hcl2json"))]
    try:
        import hcl2  # python-hcl2, when installed
        fns.append(("python-hcl2 loads", hcl2.loads))
    except ImportError:
        pass
    print("| input | bytes | function | MB/s |")
    print("|---|---:|---|---:|")
    for name, texts in inputs:
        for fname, fn in fns:
            runs = 1 if fname.startswith("python-hcl2") else 3
            size, rate = mbps(fn, texts, runs)
            print(f"| {name} | {size:,} | {fname} | {rate:.2f} |")


if __name__ == "__main__":
    main()
