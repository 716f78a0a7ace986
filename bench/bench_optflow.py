#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Dense optical flow, frames per second: cloptflow's kernels on every
OpenCL device (bench_optflow, profiling events) beside OpenCV's DIS (fast,
medium) and Farneback on this machine's CPU, at 640x480 and 1920x1080,
in one run. A report, never a test.

Usage: bench_optflow.py BENCH_OPTFLOW [FRAMES]
(BENCH_OPTFLOW: build/bench/bench_optflow)
"""
import re
import subprocess
import sys
import time

import numpy as np
import cv2

SIZES = [(640, 480), (1920, 1080)]


def frames(w, h):
    rng = np.random.default_rng(1)
    big = cv2.GaussianBlur(rng.standard_normal((h + 64, w + 64))
                           .astype(np.float32), (0, 0), 2.0)
    big = np.clip(128 + 400 * big, 0, 255).astype(np.uint8)
    return big[32:32 + h, 32:32 + w].copy(), big[30:30 + h, 35:35 + w].copy()


def time_cv(fn, a, b, n):
    fn(a, b)
    t = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn(a, b)
        t.append(time.perf_counter() - t0)
    return 1000 * float(np.median(t))


def main():
    bench = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    dis_fast = cv2.DISOpticalFlow_create(cv2.DISOPTICAL_FLOW_PRESET_FAST)
    dis_med = cv2.DISOpticalFlow_create(cv2.DISOPTICAL_FLOW_PRESET_MEDIUM)
    peers = [
        ('OpenCV DIS fast (CPU)', lambda a, b: dis_fast.calc(a, b, None)),
        ('OpenCV DIS medium (CPU)', lambda a, b: dis_med.calc(a, b, None)),
        ('OpenCV Farneback (CPU)', lambda a, b: cv2.calcOpticalFlowFarneback(
            a, b, None, 0.5, 5, 15, 5, 7, 1.5, 0)),
    ]
    print('OpenCV %s, %d threads' % (cv2.__version__, cv2.getNumThreads()))
    for w, h in SIZES:
        a, b = frames(w, h)
        rows = []
        for name, fn in peers:
            rows.append((name, time_cv(fn, a, b, n)))
        out = subprocess.run([bench, str(w), str(h), str(n)],
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            m = re.match(r'(.{40}) (buffer|image)\s+([\d.]+)', line)
            if m:
                rows.append(('cloptflow %s (%s)' % (m.group(1).strip(),
                                                    m.group(2)),
                             float(m.group(3))))
        print('\n%dx%d, ms per frame (median of %d)' % (w, h, n))
        base = rows[1][1]       # DIS medium
        print('%-62s %9s %8s %12s' % ('', 'ms', 'fps', 'vs DIS-med'))
        for name, ms in rows:
            print('%-62.62s %9.2f %8.1f %11.2fx' % (name, ms, 1000 / ms,
                                                    base / ms))


if __name__ == '__main__':
    main()
