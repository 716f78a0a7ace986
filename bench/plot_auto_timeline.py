#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Plots bench/auto-timeline.sh's CSVs: throughput over time of device=auto,
device=gpu and device=cpu under the same GPU load, the load window shaded,
and the device device=auto ran on below.
    plot_auto_timeline.py OUT docs/auto-timeline.png [TITLE]"""
import csv
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load_run(out, mode):
    rows = list(csv.DictReader(open(f"{out}/{mode}.csv")))
    times = dict(line.split() for line in open(f"{out}/load-{mode}.txt"))
    t0 = float(rows[0]["time"])
    on = float(times["load-on"]) - t0
    off = float(times["load-off"]) - t0
    t = [float(r["time"]) - t0 for r in rows]
    fps = [float(r["fps"]) for r in rows]
    return rows, t, fps, on, off


def main():
    out, png = sys.argv[1], sys.argv[2]
    fig, (ax, axd) = plt.subplots(2, 1, figsize=(9, 5.5), sharex=True,
                                  gridspec_kw={"height_ratios": [4, 1]})
    styles = {"auto": ("tab:green", "device=auto", 2.2),
              "gpu": ("tab:red", "device=gpu (pinned)", 1.2),
              "cpu": ("tab:blue", "device=cpu (pinned)", 1.2)}
    on = off = None
    for mode in ("gpu", "cpu", "auto"):
        rows, t, fps, lon, loff = load_run(out, mode)
        color, label, lw = styles[mode]
        ax.plot(t, fps, color=color, label=label, lw=lw)
        if mode == "auto":
            on, off = lon, loff
            # GPU vs CPU; with two stand-in CPU devices, by device index
            # (the run starts on the preferred one).
            if any(r["device"] == "gpu" for r in rows):
                dev = [0 if r["device"] == "gpu" else 1 for r in rows]
            else:
                dev = [0 if r["index"] == rows[0]["index"] else 1
                       for r in rows]
            axd.step(t, dev, where="post", color=color, lw=2)
    for a in (ax, axd):
        a.axvspan(on, off, color="0.85", zorder=0)
    ax.text((on + off) / 2, ax.get_ylim()[1] * 0.95, "GPU load (other process)",
            ha="center", va="top", fontsize=9)
    ax.set_ylabel("frames/s")
    ax.set_title(sys.argv[3] if len(sys.argv) > 3 else
                 "clblur ! clhisteq, NV12, under a GPU load from another "
                 "process", fontsize=10)
    ax.legend(loc="lower left", fontsize=9)
    ax.grid(alpha=0.3)
    axd.set_yticks([0, 1])
    axd.set_yticklabels(["GPU", "CPU"])
    axd.set_ylim(-0.3, 1.3)
    axd.set_xlabel("seconds")
    axd.set_ylabel("auto on")
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    print(f"wrote {png}")


if __name__ == "__main__":
    main()
