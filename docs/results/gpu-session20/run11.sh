#!/bin/bash
# Session 20, device run 11: the GPU histograms' local layout. bench_histeq
# variants of 4f29d06 (plant-bin/, built here with one change each, not
# kept), taking turns, two passes, every case:
#   cur   4 copies, bin-major (h[bin * 4 + copy]), as committed
#   cm4   4 copies, copy-major (h[copy * 256 + bin])
#   c8, c2, c1   8, 2 and 1 copies, bin-major
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run11}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ nvidia-smi -L
for pass in 1 2; do
  for v in cur cm4 c8 c2 c1; do
    for sz in "640 480 200" "1920 1080 100" "3840 2160 60"; do
      echo "=== pass $pass $v bench_histeq $sz"
      timeout 60 plant-bin/bench_$v $sz gpu 2>&1 | grep -E "floors|fused"
    done
  done
done; } > "$out/run11.out" 2>&1
