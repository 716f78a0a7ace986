#!/usr/bin/python3
"""Where a device's idle time goes between the commands of a pipeline: reads
the timeline that build/bench/libclprof.so writes (CLPROF_TIMELINE=FILE:
name, QUEUED, SUBMIT, START, END per command, ns, and the host's clock;
the host waits) and prints, per kind of command, its device time and the
idle gap before it, split into

  host late   the command was queued after the previous one had ended:
              the device waited for the host (GStreamer, the element's
              host work, a host wait's wake-up, the source's own work);
  start       the device had the command and took this long to start it
              (launch latency, a transfer's set-up).

A frame starts at each command named by --frame-start (the upload, by
default). Where the timeline has the host's clock (each enqueue call's
return, each host wait), the idle time between frames is split as well:
from the frame's last command's end to the return of the host wait for it
(the wake-up), and from there to the next frame's first command being
queued (the host's work between frames). The host's clock is put on the
device's by the median of (enqueue call's return - QUEUED). Medians over
the frames after --skip of them. A report, never a test.

    CLPROF_TIMELINE=/tmp/t.tsv LD_PRELOAD=build/bench/libclprof.so \\
        build/bench/bench_pipeline --width 3840 --height 2160 --format GRAY8 \\
        --frames 300 "clblur ! clsobel ! clhisteq"
    /usr/bin/python3 bench/timeline_gaps.py /tmp/t.tsv
"""
import argparse
import bisect
import statistics
import sys


def load(path):
    """commands (name, queued, submit, start, end, host_ns) and host waits
    (entry, return), host clock"""
    cmds, waits = [], []
    with open(path) as fh:
        for line in fh:
            parts = line.rstrip("\n").split("\t")
            if parts[0] == "wait" and len(parts) == 3:
                waits.append((int(parts[1]), int(parts[2])))
            elif len(parts) == 6:
                cmds.append((parts[0], *(int(x) for x in parts[1:])))
    return cmds, waits


def host_offset(cmds):
    """host clock - device clock, from each enqueue call's return"""
    return statistics.median(c[5] - c[1] for c in cmds) if cmds else None


def frames_of(cmds, start_name):
    """the commands in device order, cut into frames at each @start_name"""
    cmds = sorted(cmds, key=lambda c: c[3])
    frames, cur = [], None
    prev_end = cmds[0][3] if cmds else 0       # the first command: no gap
    for name, queued, _submit, start, end, _host in cmds:
        gap = max(start - prev_end, 0)
        late = max(min(queued - prev_end, gap), 0)
        if name == start_name:
            if cur:
                frames.append(cur)
            cur = []
        if cur is not None:
            cur.append(dict(name=name, ms=(end - start) / 1e6, gap=gap / 1e6, late=late / 1e6,
                            start=start, end=end, queued=queued))
        prev_end = max(prev_end, end)
    return frames


def between_frames(frames, waits, offset):
    """per frame: (wake-up, host work): the last command's end to the return
    of the first host wait returning after it; that to the next frame's
    first command queued (ms)"""
    rets = sorted(r - offset for _e, r in waits)
    out = []
    for a, b in zip(frames, frames[1:]):
        end = max(c["end"] for c in a)
        i = bisect.bisect_left(rets, end)
        ret = rets[i] if i < len(rets) else None
        if ret is not None and ret <= b[0]["queued"]:
            out.append(((ret - end) / 1e6, (b[0]["queued"] - ret) / 1e6))
    return out


def report(frames, skip, waits=(), offset=None):
    frames = frames[skip:]
    if len(frames) < 3:
        print(f"only {len(frames)} frames after skipping {skip}", file=sys.stderr)
        return 1
    # frames with the usual sequence of commands only (a pool growing or a
    # pipeline's first frames can add others)
    shape = statistics.mode(tuple(c["name"] for c in f) for f in frames)
    same = [f for f in frames if tuple(c["name"] for c in f) == shape]
    med = statistics.median
    print(f"{len(same)} of {len(frames)} frames with the usual {len(shape)} commands; "
          f"medians, ms")
    print(f"  {'#':>2} {'command':40} {'device':>8} {'gap before':>10} {'host late':>9} "
          f"{'start':>8}")
    for i, name in enumerate(shape):
        col = [f[i] for f in same]
        late = med([c["late"] for c in col])
        gap = med([c["gap"] for c in col])
        print(f"  {i:>2} {name[:40]:40} {med([c['ms'] for c in col]):8.4f} {gap:10.4f} "
              f"{late:9.4f} {med([c['gap'] - c['late'] for c in col]):8.4f}")
    period = [(b[0]["start"] - a[0]["start"]) / 1e6 for a, b in zip(frames, frames[1:])]
    busy = [sum(c["ms"] for c in f) for f in same]
    inside = [sum(c["gap"] for c in f[1:]) for f in same]
    inside_late = [sum(c["late"] for c in f[1:]) for f in same]
    print(f"  frame period (first command to the next frame's) {med(period):.4f}; "
          f"device busy {med(busy):.4f}; idle inside the frame {med(inside):.4f} "
          f"(host late {med(inside_late):.4f}); idle before it "
          f"{med([f[0]['gap'] for f in same]):.4f}")
    if waits and offset is not None:
        bf = between_frames(frames, waits, offset)
        if bf:
            print(f"  between frames ({len(bf)}): the host wait returned "
                  f"{med([w for w, _ in bf]):.4f} after the last command ended; the next "
                  f"frame's first command was queued {med([h for _, h in bf]):.4f} after that")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("timeline", help="CLPROF_TIMELINE file")
    ap.add_argument("--frame-start", default="write (upload)",
                    help="the command that starts a frame (default: the upload)")
    ap.add_argument("--skip", type=int, default=20, help="frames left out at the start")
    a = ap.parse_args()
    cmds, waits = load(a.timeline)
    frames = frames_of(cmds, a.frame_start)
    return report(frames, a.skip, waits, host_offset(cmds))


if __name__ == "__main__":
    sys.exit(main())
