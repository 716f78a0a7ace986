#!/usr/bin/python3
"""PNG plots from bench/bench.py's machine-readable output (needs matplotlib:
`tools/setup.sh --bench` installs python3-matplotlib).

    /usr/bin/python3 bench/plot.py RESULTS_DIR [--out DIR]
        one PNG per item: per-frame time against frame size (log-log), one
        panel per format; our element per device (solid, thick; its kernel
        time dotted), the peers (thin), the device floors (dashed grey)
    /usr/bin/python3 bench/plot.py --scaling DIR1 DIR2 ... [--out DIR]
        scaling.png: per-frame time against the CPU cores the runs were given
        (their --tag cores=N), one line per item and implementation
"""
import argparse
import json
import os
import re
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(path):
    if os.path.isdir(path):
        path = os.path.join(path, "bench.json")
    with open(path) as fh:
        return json.load(fh)


def shown(r):
    # one row per implementation: the totals a user gets (conversions and
    # FFmpeg's transfers included), not the "element only" shares
    return r.get("ms") and r["ms"] > 0 and "element only]" not in r["impl"] and \
        "[filter]" not in r["impl"]


def label(r):
    return r["impl"] + (f" @{r['device']}" if r.get("device") else "")


def plot_items(data, out):
    rows, meta = data["rows"], data["meta"]
    written = []
    floors = [r for r in rows if r["kind"] == "floor" and r["impl"] == "read+write kernel"]
    for item in dict.fromkeys(r["item"] for r in rows if r["item"] != "floor"):
        sel = [r for r in rows if r["item"] == item and shown(r)]
        formats = list(dict.fromkeys(r["format"] for r in sel))
        if not formats:
            continue
        # one colour per implementation in every panel
        palette = plt.get_cmap("tab20").colors
        colours = {lab: palette[i % len(palette)]
                   for i, lab in enumerate(dict.fromkeys(label(r) for r in sel))}
        fig, axes = plt.subplots(1, len(formats), figsize=(7 * len(formats), 6), squeeze=False)
        for ax, f in zip(axes[0], formats):
            series = {}
            for r in sel:
                if r["format"] == f:
                    series.setdefault(label(r), (r["kind"], []))[1].append(r)
            for lab, (kind, rs) in series.items():
                rs.sort(key=lambda r: r["width"] * r["height"])
                x = [r["width"] * r["height"] / 1e6 for r in rs]
                ax.plot(x, [r["ms"] for r in rs], marker="o", color=colours[lab],
                        lw=2.5 if kind == "ours" else 1, label=lab,
                        zorder=3 if kind == "ours" else 2)
                if kind == "ours" and any(r.get("kernel_ms") for r in rs):
                    ks = [r for r in rs if r.get("kernel_ms")]
                    ax.plot([r["width"] * r["height"] / 1e6 for r in ks], [r["kernel_ms"] for r in ks],
                            ls=":", marker=".", color=ax.lines[-1].get_color(), label=lab + " kernel")
            for dev in dict.fromkeys(r["device"] for r in floors if r["format"] == f):
                fs = sorted((r for r in floors if r["format"] == f and r["device"] == dev),
                            key=lambda r: r["width"] * r["height"])
                ax.plot([r["width"] * r["height"] / 1e6 for r in fs], [r["ms"] for r in fs], ls="--",
                        color="grey", lw=1, label=f"floor (read+write) @{dev}")
            sizes = sorted({(r["width"] * r["height"] / 1e6, r["size"]) for r in sel + floors
                            if r["format"] == f})
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xticks([s[0] for s in sizes])
            ax.set_xticklabels([s[1] for s in sizes])
            ax.minorticks_off()
            ax.set_xlabel("frame size")
            ax.set_ylabel("ms per frame (log)")
            ax.set_title(f"{item}, {f}")
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=6, loc="best")
        fig.suptitle(f"{item} — {meta['machine'][:110]}", fontsize=8)
        fig.tight_layout()
        path = os.path.join(out, f"bench-{re.sub(r'[^A-Za-z0-9_+-]', '_', item)}.png")
        fig.savefig(path, dpi=90)
        plt.close(fig)
        written.append(path)
    return written


def plot_scaling(datas, out):
    pts = {}
    for d in datas:
        for r in d["rows"]:
            m = re.search(r"cores=(\d+)", r.get("tag") or "")
            if not m or not shown(r) or r["kind"] == "floor":
                continue
            key = f"{r['item']} {r['size']} {r['format']}: {label(r)}"
            pts.setdefault(key, []).append((int(m.group(1)), r["ms"]))
    if not pts:
        print("no rows tagged cores=N", file=sys.stderr)
        return []
    fig, ax = plt.subplots(figsize=(9, 6))
    for key, p in sorted(pts.items()):
        p.sort()
        ax.plot([c for c, _ in p], [ms for _, ms in p], marker="o", label=key,
                lw=2.5 if key.split(": ")[1].startswith("cl") else 1)
    cores = sorted({c for p in pts.values() for c, _ in p})
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(cores)
    ax.set_xticklabels([str(c) for c in cores])
    ax.minorticks_off()
    ax.set_xlabel("CPU cores (taskset + PoCL thread count)")
    ax.set_ylabel("ms per frame (log)")
    ax.set_title("CPU scaling")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    path = os.path.join(out, "scaling.png")
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return [path]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("inputs", nargs="+", help="result folders (or bench.json files)")
    ap.add_argument("--scaling", action="store_true", help="one scaling plot from several runs")
    ap.add_argument("--out", help="folder for the PNGs (default: the first input's)")
    a = ap.parse_args()
    out = a.out or (a.inputs[0] if os.path.isdir(a.inputs[0]) else os.path.dirname(a.inputs[0]))
    os.makedirs(out, exist_ok=True)
    datas = [load(p) for p in a.inputs]
    paths = plot_scaling(datas, out) if a.scaling else [p for d in datas for p in plot_items(d, out)]
    for p in paths:
        print(p)


if __name__ == "__main__":
    main()
