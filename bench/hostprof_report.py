#!/usr/bin/python3
"""Read bench/hostprof.c's folded stacks: CPU time per thread, and per
function (inclusive: on the stack; self: the innermost frame) for the
threads asked for.

  hostprof_report.py STACKS [--per FRAMES] [--threads REGEX] [--top N]
                     [--lib-dir DIR ...] [--focus FUNCTION]

--per divides every time by a frame count (ms a frame); --lib-dir names
folders whose libraries and programs resolve "name+0xOFFSET" frames
(addr2line);
--focus keeps only the samples with FUNCTION on their stack and shows
what it calls (its callees, inclusive)."""
import argparse
import collections
import collections.abc
import os
import re
import subprocess
import sys

FRAME_RE = re.compile(r"^(?P<lib>[^;+]+)\+0x(?P<off>[0-9a-f]+)$")

# worth_us: the time one sample stands for; clock: "CPU" or "wall";
# stacks: (frames, count), frames[0] the thread's name, outermost first
Profile = collections.namedtuple("Profile", "worth_us clock stacks")


def read_stacks(path):
    worth_us, clock = None, "CPU"
    stacks = []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                m = re.search(r"one sample = ([0-9.]+) us", line)
                if m:
                    worth_us = float(m.group(1))
                    clock = "wall" if "wall time" in line else "CPU"
                continue
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if stack:
                stacks.append((stack.split(";"), int(count)))
    if worth_us is None:
        sys.exit(f"{path}: no hostprof header")
    return Profile(worth_us, clock, stacks)


def thread_samples(stacks: collections.abc.Iterable) -> collections.Counter:
    """samples per thread"""
    per = collections.Counter()
    for frames, count in stacks:
        per[frames[0]] += count
    return per


def resolver(lib_dirs):
    """name -> readable name, addr2line for libraries found in lib_dirs"""
    paths = {}
    for d in lib_dirs:
        for root, _, files in os.walk(d):
            for name in files:
                paths.setdefault(name, os.path.join(root, name))
    cache = {}

    def resolve(frame):
        if frame in cache:
            return cache[frame]
        m = FRAME_RE.match(frame)
        name = frame
        if m and m.group("lib") in paths:
            try:
                out = subprocess.run(
                    ["addr2line", "-f", "-e", paths[m.group("lib")],
                     "0x" + m.group("off")],
                    capture_output=True, text=True, check=True).stdout
                func = out.splitlines()[0] if out else "??"
                if func != "??":
                    name = func
            except (OSError, subprocess.CalledProcessError):
                pass
        cache[frame] = name
        return name

    return resolve


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("stacks")
    ap.add_argument("--per", type=float, default=0,
                    help="divide times by this many frames")
    ap.add_argument("--threads", default=".",
                    help="regex of the threads to break down")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--lib-dir", action="append", default=[])
    ap.add_argument("--focus", help="only samples with this function; "
                    "show its callees")
    args = ap.parse_args()

    worth_us, clock, stacks = read_stacks(args.stacks)
    resolve = resolver(args.lib_dir)
    unit, scale = ("ms a frame", 1e-3 / args.per) if args.per else ("ms", 1e-3)

    def fmt(samples):
        return f"{samples * worth_us * scale:9.4f}"

    per_thread = thread_samples(stacks)
    total = sum(per_thread.values())
    print(f"# {total} samples, one = {worth_us:.1f} us of {clock} time; times in {unit}")
    print(f"{'thread':<24}{unit:>12}  samples")
    for thread, count in per_thread.most_common():
        print(f"{thread:<24}{fmt(count):>12}  {count}")

    wanted = re.compile(args.threads)
    for thread, _ in per_thread.most_common():
        if not wanted.search(thread):
            continue
        inclusive = collections.Counter()
        self_time = collections.Counter()
        n = 0
        for frames, count in stacks:
            if frames[0] != thread:
                continue
            names = [resolve(f) for f in frames[1:]]
            if args.focus:
                if args.focus not in names:
                    continue
                names = names[names.index(args.focus):]
            n += count
            for name in set(names):
                inclusive[name] += count
            if names:
                self_time[names[-1]] += count
        if not n:
            continue
        title = f"{thread}" + (f", under {args.focus}" if args.focus else "")
        print(f"\n## {title}: {fmt(n).strip()} {unit} ({n} samples)")
        print(f"{'inclusive':>10} {'self':>10}  function")
        for name, count in inclusive.most_common(args.top):
            print(f"{fmt(count):>10} {fmt(self_time[name]):>10}  {name}")
        print("  -- most self time:")
        for name, count in self_time.most_common(args.top // 2):
            print(f"{fmt(inclusive[name]):>10} {fmt(count):>10}  {name}")


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:     # piped into head
        sys.exit(0)
