#!/bin/bash
# Session 31, device run 3: the committed tree (c614300 and later), the
# one-launch kernel's shift by warp shuffles (default on NVIDIA) against the
# portable form (GST_CL_WARP_XCHG=0: 72 items each sum one block at one
# shift, then one barrier): bench.py clhisteq in turns, three passes.
# . .device/env.sh && bash THIS "$OUT/r3"
out=${1:-/tmp/run3}; mkdir -p "$out"
{ echo "=== machine"; nvidia-smi -L
  for pass in 1 2 3; do
    for w in 1 0; do
      echo "=== bench.py WARP_XCHG=$w pass $pass ($(date +%T))"
      GST_CL_WARP_XCHG=$w GST_CL_CACHE_DIR=/tmp/clcache-w$w timeout 200 python3 bench/bench.py --build-dir build-dev --devices gpu \
        --sizes 480p,1080p,4K --items clhisteq --kinds ours,floor --reps 2 --out "$out/bench-w$w-$pass" 2>&1 | \
        grep -E "^  ours |GPU: kernel"
    done
  done
  rm -f "$out"/bench-*/bench.json
  echo "=== end ($(date +%T))"
} > "$out/run3.out" 2>&1
