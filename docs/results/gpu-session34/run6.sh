#!/bin/bash
# Session 34, device run 6: could the first and last kernels of a chain do
# the upload and the download themselves? bench_floor's read+write kernel
# with one side in the pinned host buffer (zc_in, zc_out) beside the DMA
# transfers, 480p to 4K GRAY8 and NV12, three passes.
# git apply docs/results/gpu-session34/zero-copy-floor.diff, build, then
# rm -rf build && ln -s build-dev build && . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run6}; mkdir -p "$out"
for pass in 1 2 3; do
  echo "=== pass $pass"
  timeout 120 build/bench/bench_floor 200 307200 460800 2073600 3110400 8294400 12441600 |
    grep NVIDIA | python3 -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    print("{:>9} up {:.4f} down {:.4f} rw {:.4f} zc_in {:.4f} zc_out {:.4f}".format(
        r["bytes"], r["upload_ms"], r["download_ms"], r["rw_kernel_ms"],
        r["zc_in_kernel_ms"], r["zc_out_kernel_ms"]))'
done 2>&1 | tee "$out/run6.log"
