#!/usr/bin/python3
"""Ranges over rounds of poll-ab.sh's bench.json files: per item, size and
format, ours ms (kernel ms), the fastest CPU peer's ms and the ratio, for
each halt-polling setting. usage: summarise.py DIR"""
import glob, json, os, sys, collections

out = collections.defaultdict(lambda: collections.defaultdict(list))
for f in sorted(glob.glob(os.path.join(sys.argv[1], "bench-poll*-r*", "bench.json"))):
    poll = os.path.basename(os.path.dirname(f)).split("-")[1][len("poll"):]
    rows = json.load(open(f))["rows"]
    best = {}
    for r in rows:
        if r["kind"] in ("gst", "ff", "cv") and "ms" in r and r.get("ms"):
            k = (r["item"], r["size"], r["format"])
            if k not in best or r["ms"] < best[k][0]:
                best[k] = (r["ms"], r["impl"])
    for r in rows:
        if r["kind"] == "ours" and "ms" in r:
            k = (r["item"], r["size"], r["format"])
            if k in best:
                out[k][poll].append((r["ms"], r.get("kernel_ms") or 0, best[k][0], best[k][0] / r["ms"]))

def rng(xs, fmt="%.3f"):
    return (fmt % min(xs)) + ("" if min(xs) == max(xs) else "–" + fmt % max(xs))

polls = sorted({p for v in out.values() for p in v}, key=int)
print("| item | size | format | " + " | ".join(f"poll {p}: ours ms (kernel) / peer ms / ratio" for p in polls) + " |")
print("|---|---|---|" + "---|" * len(polls))
for k in sorted(out, key=lambda k: (["480p", "1080p", "4K"].index(k[1]) if k[1] in ("480p", "1080p", "4K") else 9, k[2], k[0])):
    cells = []
    for p in polls:
        v = out[k].get(p, [])
        if not v:
            cells.append("-")
            continue
        cells.append(f"{rng([x[0] for x in v])} ({rng([x[1] for x in v])}) / {rng([x[2] for x in v])} / "
                     f"**{rng([x[3] for x in v], '%.2f')}**")
    print(f"| {k[0]} | {k[1]} | {k[2]} | " + " | ".join(cells) + " |")
