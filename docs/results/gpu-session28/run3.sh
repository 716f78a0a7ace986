#!/bin/bash
# Session 28, device run 3: af36648's one-launch clhisteq at 4K with 1 to 4
# work-groups a compute unit (GST_CL_HISTEQ_EQ_GROUPS; the default 2):
# bench.py clhisteq 4K, in turns, twice; kernel ms from the CSVs.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run3}; mkdir -p "$out"
{ echo "=== machine"; nvidia-smi -L
  for pass in 1 2; do
    for g in 2 3 4 1; do
      echo "=== bench.py groups $g pass $pass ($(date +%T))"
      GST_CL_CACHE_DIR=/tmp/clcache GST_CL_HISTEQ_EQ_GROUPS=$g timeout 200 python3 bench/bench.py --build-dir build-dev --devices gpu \
        --sizes 4K --items clhisteq --kinds ours,floor --reps 2 --out "$out/b" > /dev/null 2>&1
      awk -F, '$7=="ours"||$8=="read+write kernel"{printf "%s %s %s %s ms %s kernel_ms %s\n", $8, $3, $6, $7, $10, $13}' "$out/b/bench.csv"
    done
  done
  rm -rf "$out/b"
} > "$out/run3.out" 2>&1
