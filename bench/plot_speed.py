#!/usr/bin/env python3
"""Draws the speed comparisons that the compare scripts wrote as JSON.

    python3 bench/plot_speed.py [--results build/speed] [--out-dir docs]
        [--general FILE] [--corpus-eval FILE] [--parse FILE]

Reads, by default from the results folder (what bench/compare_speed.sh
writes there):
  general.json      bench/compare_general.py --json: one record per
                    generated expression;
  corpus_eval.json  bench/compare_corpus_eval.py --json: one record per
                    file of the real corpus evaluated whole;
  parse.json        bench/compare.py --json: one row per parsed corpus.
and draws into --out-dir:
  speed-general.png  the speedup per category of the generated
                     expressions over hcl 2.14.1 and over the newest
                     reference (a box per category and reference, its
                     median marked and written), with lines at the 50x
                     target and the 15x floor;
  speed-by-size.png  the whole-file evaluation speedup per file against
                     the file's size (scatter, log scales), and the parse
                     ratios per corpus size.
A missing input skips its picture with a message. Needs matplotlib
(Debian: apt-get install -y python3-matplotlib, for /usr/bin/python3;
another python3 without it re-runs this script with /usr/bin/python3).
The pictures are deterministic: Agg, no timestamp or software name in
their metadata.
"""
import argparse
import json
import os
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SYSTEM_PYTHON = "/usr/bin/python3"
TARGET, FLOOR = 50, 15  # the general case's target and floor (issue 31)
COLORS = {"2.14.1": "#4c72b0", "newest": "#dd8452"}


def fail(msg):
    sys.exit("plot_speed.py: " + msg)


def import_pyplot():
    """matplotlib.pyplot with the Agg backend; re-executes the script with
    /usr/bin/python3 (where Debian installs matplotlib) when this Python
    has no matplotlib, and exits with a message when neither has it."""
    try:
        import matplotlib
    except ImportError:
        if os.path.realpath(sys.executable) != os.path.realpath(SYSTEM_PYTHON) and os.access(SYSTEM_PYTHON, os.X_OK) \
                and not os.environ.get("PLOT_SPEED_REEXEC"):
            print("plot_speed.py: no matplotlib in %s; re-running with %s" % (sys.executable, SYSTEM_PYTHON),
                  file=sys.stderr)
            os.environ["PLOT_SPEED_REEXEC"] = "1"
            os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON] + sys.argv)
        fail("matplotlib is not installed for %s nor for %s (apt-get install -y python3-matplotlib)"
             % (sys.executable, SYSTEM_PYTHON))
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({"font.size": 9, "svg.hashsalt": "hclvm", "axes.grid": True, "grid.alpha": 0.3})
    return plt


def load(path, what):
    """The JSON object in [path], or None (with a message) when absent."""
    if not path or not Path(path).is_file():
        print("plot_speed.py: no %s results at %s: skipping its picture" % (what, path), file=sys.stderr)
        return None
    return json.loads(Path(path).read_text())


def save(plt, fig, path):
    """Writes [fig] to [path] as a PNG without timestamps or software name."""
    fig.savefig(path, dpi=110, metadata={"Software": None, "Creation Time": None})
    plt.close(fig)
    print("wrote %s" % path)


def speedup_axis(ax, values):
    """A log axis of speedups with plain ticks (1x, 2x, 5x, 10x, ...)."""
    ax.set_yscale("log")
    lo, hi = min(values + [FLOOR]) / 1.3, max(values + [TARGET]) * 1.3
    ticks = [t for t in (0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 20, 30, 50, 100, 200, 500, 1000, 2000, 5000) if lo <= t <= hi]
    ax.set_ylim(lo, hi)
    ax.set_yticks(ticks, ["%gx" % t for t in ticks])
    ax.minorticks_off()


def legend_below(ax, ncol=4):
    """The legend under the axes, in rows of [ncol]."""
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=ncol, fontsize=8, frameon=False)


def category_order(exprs):
    """The categories in the order they first appear (the generator's)."""
    out = []
    for e in exprs:
        if e["category"] not in out:
            out.append(e["category"])
    return out


def plot_general(plt, data, path):
    """Box per category and reference of the expressions' speedups."""
    exprs = data["expressions"]
    cats = category_order(exprs) + ["all"]
    fig, ax = plt.subplots(figsize=(11, 5))
    for k, (ref, key) in enumerate((("2.14.1", "speedup_vs_2_14_1"), ("newest", "speedup_vs_newest"))):
        series = [[e[key] for e in exprs if c == "all" or e["category"] == c] for c in cats]
        pos = [i + (k - 0.5) * 0.36 for i in range(len(cats))]
        ax.boxplot(series, positions=pos, widths=0.32, patch_artist=True, showfliers=True,
                   boxprops={"facecolor": COLORS[ref], "alpha": 0.55},
                   medianprops={"color": "black", "linewidth": 1.6},
                   flierprops={"marker": ".", "markersize": 3, "markeredgecolor": COLORS[ref]})
        for x, s in zip(pos, series):
            ax.annotate("%.0f" % statistics.median(s), (x, statistics.median(s)), textcoords="offset points",
                        xytext=(0, 3), ha="center", fontsize=7)
        ax.plot([], [], color=COLORS[ref], linewidth=8, alpha=0.55, label="vs hcl %s" % ref)
    ax.axhline(TARGET, color="green", linestyle="--", linewidth=1, label="target %dx" % TARGET)
    ax.axhline(FLOOR, color="red", linestyle=":", linewidth=1.2, label="floor %dx" % FLOOR)
    speedup_axis(ax, [e[k] for e in exprs for k in ("speedup_vs_2_14_1", "speedup_vs_newest")])
    ax.set_xticks(range(len(cats)), cats)
    ax.set_ylabel("speedup (reference ns/op / hclvm ns/op, log)")
    ax.set_title("Generated expressions: hclvm's speedup per category (%d expressions, seed %s, median written)"
                 % (len(exprs), data.get("seed")))
    legend_below(ax)
    fig.tight_layout()
    save(plt, fig, path)


def plot_by_size(plt, evals, parse, path):
    """Whole-file evaluation speedup per file size, and parse ratios per
    corpus size, side by side (either may be missing)."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5.6))
    if evals:
        files = evals["files"]
        for ref, key in (("2.14.1", "speedup_vs_2_14_1"), ("newest", "speedup_vs_newest")):
            ys = [f[key] for f in files]
            for failing, marker, what in ((False, "o", "no failing attribute"), (True, "x", "failing attributes")):
                fs = [f for f in files if bool(f["error_attributes"]) == failing]
                left.scatter([f["bytes"] for f in fs], [f[key] for f in fs], s=8 if marker == "o" else 12,
                             marker=marker, alpha=0.5, linewidths=0.8, color=COLORS[ref],
                             label="vs hcl %s, %s (%d)" % (ref, what, len(fs)))
            left.plot([], [], " ", label="vs hcl %s: median %.1fx" % (ref, statistics.median(ys)))
        left.axhline(TARGET, color="green", linestyle="--", linewidth=1, label="%dx" % TARGET)
        left.axhline(FLOOR, color="red", linestyle=":", linewidth=1.2, label="%dx" % FLOOR)
        left.set_xscale("log")
        speedup_axis(left, [f[k] for f in files for k in ("speedup_vs_2_14_1", "speedup_vs_newest")])
        legend_below(left, ncol=2)
        left.set_title("Real corpus, every attribute of a file evaluated (%d files)" % len(files))
    else:
        left.text(0.5, 0.5, "no corpus evaluation results", ha="center", transform=left.transAxes)
    left.set_xlabel("file size (bytes, log)")
    left.set_ylabel("speedup per file (log)")
    if parse:
        rows = [r for r in parse["rows"] if r.get("ratio")]
        for r in rows:
            marker = "s" if "real corpus" in r["name"] else ("D" if "process" in r["name"] else "o")
            right.scatter([r["bytes"]], [r["ratio"]], marker=marker, s=40, color=COLORS["2.14.1"])
            right.annotate("%s: %.1fx" % (short_name(r["name"]), r["ratio"]), (r["bytes"], r["ratio"]),
                           textcoords="offset points", xytext=(6, 2), fontsize=7)
        right.set_xscale("log")
        lo = min([r["bytes"] for r in rows] or [1])
        right.set_xlim(lo / 2, max([r["bytes"] for r in rows] or [1]) * 8)
        right.set_ylim(0, max(r["ratio"] for r in rows) * 1.15)
        for y, label, style in ((35, "35x: real corpus per file", "--"), (15, "15x: check process", ":")):
            right.axhline(y, color="gray", linestyle=style, linewidth=1, label=label)
        legend_below(right)
        right.set_title("Parse: hclvm MB/s / hcl %s MB/s per corpus" % parse.get("reference", "2.14.1"))
    else:
        right.text(0.5, 0.5, "no parse results", ha="center", transform=right.transAxes)
    right.set_xlabel("corpus size (bytes, log)")
    right.set_ylabel("ratio")
    fig.tight_layout()
    save(plt, fig, path)


def short_name(name):
    """A row name of compare.py shortened for a label."""
    if "process" in name:
        return "check -j1 process"
    if "real corpus" in name:
        return "real corpus per file"
    return name.replace("parse ", "")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default=str(REPO / "build" / "speed"), help="folder of the JSON inputs")
    ap.add_argument("--out-dir", default=str(REPO / "docs"), help="where the PNGs go")
    ap.add_argument("--general", help="compare_general.py's JSON (default RESULTS/general.json)")
    ap.add_argument("--corpus-eval", help="compare_corpus_eval.py's JSON (default RESULTS/corpus_eval.json)")
    ap.add_argument("--parse", help="compare.py's JSON (default RESULTS/parse.json)")
    args = ap.parse_args()
    plt = import_pyplot()
    results = Path(args.results)
    general = load(args.general or results / "general.json", "generated expressions")
    evals = load(args.corpus_eval or results / "corpus_eval.json", "corpus evaluation")
    parse = load(args.parse or results / "parse.json", "parse")
    if not (general or evals or parse):
        fail("nothing to plot in %s" % results)
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if general and general["expressions"]:
        plot_general(plt, general, out / "speed-general.png")
    if evals or parse:
        plot_by_size(plt, evals, parse, out / "speed-by-size.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
