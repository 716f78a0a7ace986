#!/usr/bin/python3
"""What overlaps on the device and what the host does between frames, from
libclprof.so's timeline (CLPROF_TIMELINE) of a chain whose transfers may run
on queues of their own (bench/timeline_gaps.py assumes one queue, commands
one after another). Per frame, medians or means over the frames after the
first tenth, ms:

  period          the span of the device's commands / uploads
  busy (any)      time with at least one command running
  uploads, downloads, kernels
                  time each kind runs (their sum above "busy": overlap)
  host            between the returns of the enqueue calls: the upload to
                  clblur's kernel, to clsobel's, to clhisteq's, then to
                  the next frame's upload

    /usr/bin/python3 overlap.py q2.txt q0.txt   (after tar xzf logs/run2-extra.tgz)
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "bench"))
from timeline_gaps import load  # noqa: E402  (name, queued, submit, start, end, host)

START, END, HOST = 3, 4, 5


def busy(cmds):
    total, cur = 0, None
    for s, e in sorted((c[START], c[END]) for c in cmds):
        if cur and s <= cur[1]:
            cur[1] = max(cur[1], e)
        else:
            total += cur[1] - cur[0] if cur else 0
            cur = [s, e]
    return (total + (cur[1] - cur[0] if cur else 0)) / 1e6


def host_gap(seq, a, b):
    out = []
    for i, c in enumerate(seq):
        if a in c[0]:
            nxt = next((d for d in seq[i + 1:i + 12] if b in d[0]), None)
            if nxt:
                out.append((nxt[HOST] - c[HOST]) / 1e6)
    return statistics.median(out[len(out) // 10:])


for path in sys.argv[1:]:
    cmds = sorted(load(path)[0], key=lambda c: c[START])
    cmds = cmds[len(cmds) // 10:]
    n = sum("upload" in c[0] for c in cmds)
    span = (max(c[END] for c in cmds) - min(c[START] for c in cmds)) / 1e6
    kinds = {k: busy([c for c in cmds if sel(c[0])]) / n for k, sel in (
        ("uploads", lambda s: "upload" in s), ("downloads", lambda s: "download" in s),
        ("kernels", lambda s: s.startswith("kernel")))}
    print(f"{path}: {n} frames; ms a frame: period {span / n:.4f}, busy (any) "
          f"{busy(cmds) / n:.4f}, " + ", ".join(f"{k} {v:.4f}" for k, v in kinds.items())
          + f" (sum {sum(kinds.values()):.4f})")
    seq = sorted(load(path)[0], key=lambda c: c[HOST])
    print("  host: upload -> blur %.4f, -> sobel %.4f, -> histeq %.4f, -> next upload %.4f"
          % (host_gap(seq, "upload", "blur"), host_gap(seq, "blur", "sobel"),
             host_gap(seq, "sobel", "histeq"), host_gap(seq, "histeq", "upload")))
