"""Per-call cost of hclvm.Expression.evaluate for a scalar result, beside
the C++ figure of `hclvm bench -e` for the same expression and variable.

    python bench_eval.py [HCLVM_BINARY]

Prints a markdown table. Not a timed test: numbers depend on the machine."""

import json
import subprocess
import sys
import timeit

import hclvm

EXPR, X = "x + 1", 41


def python_ns(fn, number=200_000, repeat=5):
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e9


def cxx_ns(binary):
    out = subprocess.run([binary, "bench", "-e", EXPR, "--var", f"x={X}", "--runs", "5", "--json"],
                         check=True, capture_output=True, text=True).stdout
    doc = json.loads(out)
    runs = doc.get("runs") or []
    ns = sorted(r["ns_per_op"] for r in runs) if runs and "ns_per_op" in runs[0] else []
    return ns[len(ns) // 2] if ns else float(doc.get("ns_per_op", "nan"))


def main():
    e = hclvm.Expression(EXPR)
    ctx = hclvm.Context({"x": X})
    rows = [
        ("evaluate(ctx) (prebuilt Context)", python_ns(lambda: e.evaluate(ctx))),
        ("evaluate({'x': 41}) (dict each call)", python_ns(lambda: e.evaluate({"x": X}))),
    ]
    base = cxx_ns(sys.argv[1]) if len(sys.argv) > 1 else None
    print(f"| `{EXPR}` | ns per call | over C++ |")
    print("|---|---:|---:|")
    if base is not None:
        print(f"| C++ (`hclvm bench -e`) | {base:.0f} | |")
    for name, ns in rows:
        over = f"{ns - base:.0f} ns" if base is not None else "n/a"
        print(f"| Python {name} | {ns:.0f} | {over} |")


if __name__ == "__main__":
    main()
