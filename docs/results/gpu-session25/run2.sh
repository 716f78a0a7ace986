#!/bin/bash
# Session 25, device run 2: bench.py clhisteq-clahe and clhisteq (smoothing
# 8, the element's default), ours and the floor, base (6c6c871) then dev
# (CLAHE's LUTs in the histogram launch), twice.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run2}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ for b in base dev base dev; do
    echo "=== bench.py GPU, $b ($(date +%T))"
    timeout 140 python3 bench/bench.py --build-dir build-$b \
      --devices gpu --sizes 480p,1080p,4K --items clhisteq-clahe,clhisteq \
      --kinds ours,floor --reps 2 --out /tmp/bench-$b 2>&1 | grep -E "^[0-9].*(GRAY8|NV12) |^4K |^  (ours|floor) "
    echo "exit ${PIPESTATUS[0]}"
  done
} > "$out/run2.out" 2>&1
