#!/bin/bash
# Session 19, device run 5: clsobel's neutral chroma (fill_plane) by one
# 16-byte store per item where the plane is aligned, against the base
# (47c9144, build-base): the sobel checker on the GPU, then bench.py's
# kernel time for clsobel and the chains on NV12, base and new in turn.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run5}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L
  echo "=== check_sobel_kernels, GPU ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_sobel_kernels > "$out/check-sobel.txt" 2>&1
  echo "exit $?"; tail -1 "$out/check-sobel.txt"; grep -m5 FAIL "$out/check-sobel.txt"
} 2>&1 | tee "$out/check.log"
for b in base dev base dev; do
  echo "=== bench.py GPU NV12, build-$b ($(date +%T))"
  GST_PLUGIN_PATH=$PWD/build-$b timeout 120 python3 bench/bench.py --build-dir build-$b \
    --devices gpu --sizes 1080p,4K --formats NV12 --items clsobel,blur+sobel \
    --kinds ours,floor --reps 2 --out "$out/bench-$b" > "$out/bench-$b-$(date +%s).log" 2>&1
  echo "exit $?"
done 2>&1 | tee "$out/bench.log"
for f in "$out"/bench-*.log; do
  echo "== $f"; grep -E "^  ours " "$f" | awk '{printf "%s %s/%s ", $2, $(NF-3), $(NF-2)} END {print ""}'
done | tee -a "$out/bench.log"
